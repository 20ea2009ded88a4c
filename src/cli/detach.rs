//! `--detach` for the commands that serve (`serve --http`, `sim`): the same command line runs again
//! in the background, and this process returns once it listens, so `droidmcp sim --adb ADDR
//! --detach && adb connect ADDR` and a sequence of manual verbs after `serve --detach` never race
//! the server's start.

use std::ffi::OsString;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;

/// How long a server may take to boot its phone and listen.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// Starts this command line without `--detach` in the background (its own process group, so the
/// terminal's Ctrl-C does not reach it), its output into a log file; waits until that output says
/// `ready`, prints it with the pid, and returns 0. A server that exits first fails with its output.
pub fn detach(ready: &str) -> anyhow::Result<i32> {
    let exe = std::env::current_exe().context("cannot find this program to start it again")?;
    let args: Vec<OsString> = std::env::args_os()
        .skip(1)
        .filter(|a| a != "--detach")
        .collect();
    let log = std::env::temp_dir().join(format!("droidmcp-{}.log", std::process::id()));
    let out = std::fs::File::create(&log)
        .with_context(|| format!("cannot create the log {}", log.display()))?;
    let mut command = Command::new(exe);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command.spawn().context("cannot start the server")?;
    let started = Instant::now();
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains(ready) {
            print!("{text}");
            println!(
                "running in the background as pid {pid}; stop it with: kill {pid} (output: {})",
                log.display(),
                pid = child.id()
            );
            return Ok(0);
        }
        // A server that never became ready leaves no log behind: its output is printed here.
        if let Some(status) = child.try_wait()? {
            eprint!("{text}");
            let _ = std::fs::remove_file(&log);
            anyhow::bail!("the server exited before it was ready ({status})");
        }
        if started.elapsed() > READY_WITHIN {
            eprint!("{text}");
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_file(&log);
            anyhow::bail!("the server was not ready within {READY_WITHIN:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

//! Bring-your-own agents: a command spawned once per episode with the episode's agent-surface MCP
//! URL, the goal and the step limit — and nothing else of the task.
//!
//! The command runs under `sh -c` in a process group of its own, with these environment variables:
//! `DROIDMCP_MCP_URL` (streamable HTTP, no token; loopback), `DROIDMCP_GOAL`, `DROIDMCP_MAX_STEPS`,
//! `DROIDMCP_EPISODE` (the id `task_answer` / `task_finish` take). The same values replace `{url}`,
//! `{goal}`, `{max_steps}` and `{episode}` in the command, shell-quoted. Its output (the last
//! [`OUTPUT_CAP`] bytes of each stream) is kept with the episode. The agent ends the episode with
//! `task_finish` or `task_answer`, or by exiting; once the episode stops taking steps (finished,
//! out of steps, device lost) the agent gets [`GRACE`] to exit before its process group is killed,
//! and the same at the run's time limit per episode.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncReadExt;

use droidmcp_device::command::sh_quote;

/// How much of each output stream is kept.
pub const OUTPUT_CAP: usize = 64 * 1024;
/// How long an agent may take to exit once its episode is over.
pub const GRACE: Duration = Duration::from_secs(3);

/// What an agent process is told.
#[derive(Debug, Clone)]
pub struct Launch<'a> {
    pub command: &'a str,
    pub url: &'a str,
    pub goal: &'a str,
    pub max_steps: u32,
    pub episode: &'a str,
}

/// How an agent process ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Exit {
    /// The exit code; `None` when it was killed (by us or a signal).
    pub code: Option<i32>,
    /// The signal that ended it, when one did.
    pub signal: Option<i32>,
    /// We killed it: the episode was over and it did not exit, or it ran past the time limit.
    pub killed: Option<&'static str>,
    pub stdout: String,
    pub stderr: String,
}

impl Exit {
    /// How the process ended: `exited N`, `killed by SIGTERM (signal 15)`, or `killed: WHY` when
    /// we killed it.
    pub fn describe(&self) -> String {
        match (self.killed, self.code, self.signal) {
            (Some(why), _, _) => format!("killed: {why}"),
            (None, Some(code), _) => format!("exited {code}"),
            (None, None, Some(signal)) => match signal_name(signal) {
                Some(name) => format!("killed by {name} (signal {signal})"),
                None => format!("killed by signal {signal}"),
            },
            (None, None, None) => "killed by a signal".to_string(),
        }
    }
}

/// The usual name of a signal an agent process may die of.
fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        _ => return None,
    })
}

/// The command line with `{url}`, `{goal}`, `{max_steps}`, `{episode}` filled in, shell-quoted.
pub fn command_line(l: &Launch<'_>) -> String {
    l.command
        .replace("{url}", &sh_quote(l.url))
        .replace("{goal}", &sh_quote(l.goal))
        .replace("{max_steps}", &l.max_steps.to_string())
        .replace("{episode}", &sh_quote(l.episode))
}

/// Why the process must stop now, if it must.
pub type StopSignal = tokio::sync::watch::Receiver<Option<&'static str>>;

/// Spawns the agent and waits for it to exit, or kills it `GRACE` after `stop` says why it must stop.
pub async fn run(launch: &Launch<'_>, mut stop: StopSignal) -> std::io::Result<Exit> {
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(command_line(launch))
        .env("DROIDMCP_MCP_URL", launch.url)
        .env("DROIDMCP_GOAL", launch.goal)
        .env("DROIDMCP_MAX_STEPS", launch.max_steps.to_string())
        .env("DROIDMCP_EPISODE", launch.episode)
        // The harness's credentials stay with the harness: an agent that inherited them could open
        // the answer key of a server this process's user runs.
        .env_remove("DROIDMCP_HARNESS_TOKEN")
        .env_remove("DROIDMCP_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    let mut child = cmd.spawn()?;
    let pgid = child.id();
    let stdout = tokio::spawn(read_capped(child.stdout.take()));
    let stderr = tokio::spawn(read_capped(child.stderr.take()));
    let mut killed = None;
    let status = loop {
        tokio::select! {
            status = child.wait() => break status?,
            changed = stop.changed() => {
                let why = if changed.is_ok() { *stop.borrow() } else { None };
                if let Some(why) = why {
                    match tokio::time::timeout(GRACE, child.wait()).await {
                        Ok(status) => break status?,
                        Err(_) => {
                            killed = Some(why);
                            kill_group(pgid);
                            break child.wait().await?;
                        }
                    }
                }
                if changed.is_err() {
                    // The runner dropped its side: nothing will ask us to stop any more.
                    break child.wait().await?;
                }
            }
        }
    };
    // Children the agent left behind would hold the pipes open; they go with the group.
    kill_group(pgid);
    let stdout = stdout.await.unwrap_or_default();
    let stderr = stderr.await.unwrap_or_default();
    Ok(Exit {
        code: status.code(),
        signal: std::os::unix::process::ExitStatusExt::signal(&status),
        killed,
        stdout,
        stderr,
    })
}

fn kill_group(pgid: Option<u32>) {
    if let Some(pgid) = pgid.and_then(|p| i32::try_from(p).ok()).filter(|p| *p > 0) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours; a group that is
        // already gone answers ESRCH, which is fine.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Reads a stream to its end, keeping its last [`OUTPUT_CAP`] bytes.
async fn read_capped(stream: Option<impl tokio::io::AsyncRead + Unpin>) -> String {
    let Some(mut stream) = stream else {
        return String::new();
    };
    let mut kept: Vec<u8> = Vec::new();
    let mut buf = [0u8; 8192];
    let mut dropped = false;
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > OUTPUT_CAP {
                    let cut = kept.len() - OUTPUT_CAP;
                    kept.drain(..cut);
                    dropped = true;
                }
            }
        }
    }
    let text = String::from_utf8_lossy(&kept).into_owned();
    if dropped {
        format!("[… earlier output dropped]\n{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn run_sh(command: &str) -> Exit {
        let (_tx, rx) = tokio::sync::watch::channel(None);
        let launch = Launch {
            command,
            url: "http://127.0.0.1:1/mcp",
            goal: "g",
            max_steps: 1,
            episode: "e",
        };
        run(&launch, rx).await.unwrap()
    }

    #[tokio::test]
    async fn an_exit_code_and_a_signal_are_told_apart() {
        assert_eq!(run_sh("exit 3").await.describe(), "exited 3");
        assert_eq!(run_sh("exit 0").await.describe(), "exited 0");
        assert_eq!(
            run_sh("kill -TERM $$").await.describe(),
            "killed by SIGTERM (signal 15)"
        );
        assert_eq!(
            run_sh("kill -SEGV $$").await.describe(),
            "killed by SIGSEGV (signal 11)"
        );
    }
}

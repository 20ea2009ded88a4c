//! The phone's `/system/bin/sh`: runs a command line (parsed by [`parse`]) against the framework, with
//! pipes, redirections to the virtual filesystem, `&&`/`||`/`;` and `$?`, and dispatches each command
//! to the module that implements it. Output formats are Android 14's.

mod activity;
mod capture;
mod fs;
mod input;
mod logcat;
mod misc;
pub mod parse;
mod settings;
mod text;
mod time;

use crate::device::ShellOutput;

use super::framework::Framework;
use parse::{Join, Part, Redirect, Word};

pub use fs::resolve as resolve_path;

/// Runs one command line as `sh -c` would.
pub fn exec(fw: &mut Framework, line: &str) -> ShellOutput {
    let list = match parse::parse(line) {
        Ok(list) => list,
        Err(e) => return ShellOutput::fail(format!("/system/bin/sh: {e}\n"), 1),
    };
    let mut out = ShellOutput::default();
    let mut status = 0;
    for (join, pipeline) in list {
        match join {
            Join::IfOk if status != 0 => continue,
            Join::IfFailed if status == 0 => continue,
            _ => {}
        }
        let (code, exit) = run_pipeline(fw, &pipeline, status, &mut out);
        status = code;
        if exit {
            break;
        }
    }
    out.exit_code = status;
    out
}

fn expand(word: &Word, status: i32) -> String {
    let mut s = String::new();
    for part in word {
        match part {
            Part::Lit(l) => s.push_str(l),
            Part::Status => s.push_str(&status.to_string()),
            Part::Var(name) => s.push_str(env(name)),
        }
    }
    s
}

fn env(name: &str) -> &'static str {
    match name {
        "HOME" => "/",
        "PATH" => "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
        "USER" | "LOGNAME" => "shell",
        "SHELL" => "/bin/sh",
        "ANDROID_DATA" => "/data",
        "ANDROID_ROOT" => "/system",
        "EXTERNAL_STORAGE" => "/sdcard",
        "TMPDIR" => "/data/local/tmp",
        _ => "",
    }
}

/// Runs one pipeline; returns its status and whether `exit` ended the script.
fn run_pipeline(
    fw: &mut Framework,
    pipeline: &[parse::Command],
    status: i32,
    total: &mut ShellOutput,
) -> (i32, bool) {
    let mut input: Vec<u8> = Vec::new();
    let mut code = 0;
    let last = pipeline.len().saturating_sub(1);
    for (i, cmd) in pipeline.iter().enumerate() {
        let argv: Vec<String> = cmd.words.iter().map(|w| expand(w, status)).collect();
        let mut stdin = std::mem::take(&mut input);
        let mut redirect_error = None;
        for r in &cmd.redirects {
            if let Redirect::FromFile(w) = r {
                let path = expand(w, status);
                match fs::read(fw, &path) {
                    Ok(data) => stdin = data,
                    Err(_) => {
                        redirect_error = Some(format!(
                            "/system/bin/sh: can't open {path}: No such file or directory\n"
                        ))
                    }
                }
            }
        }
        if let Some(e) = redirect_error {
            total.stderr.extend_from_slice(e.as_bytes());
            code = 1;
            continue;
        }
        if argv.first().map(String::as_str) == Some("exit") {
            let code = argv
                .get(1)
                .and_then(|c| c.parse::<i32>().ok())
                .unwrap_or(status)
                & 0xff;
            return (code, true);
        }
        let mut out = if argv.is_empty() {
            ShellOutput::ok(Vec::new())
        } else {
            run_command(fw, &argv, &stdin)
        };
        for r in &cmd.redirects {
            match r {
                Redirect::ToFile { fd, target, append } => {
                    let path = expand(target, status);
                    let data = if *fd == 2 {
                        std::mem::take(&mut out.stderr)
                    } else {
                        std::mem::take(&mut out.stdout)
                    };
                    if let Err(e) = fs::write(fw, &path, &data, *append) {
                        out.stderr.extend_from_slice(
                            format!("/system/bin/sh: can't create {path}: {e}\n").as_bytes(),
                        );
                        out.exit_code = 1;
                    }
                }
                Redirect::Dup { fd: 2, to: 1 } => {
                    let err = std::mem::take(&mut out.stderr);
                    out.stdout.extend_from_slice(&err);
                }
                Redirect::Dup { fd: 1, to: 2 } => {
                    let o = std::mem::take(&mut out.stdout);
                    out.stderr.extend_from_slice(&o);
                }
                _ => {}
            }
        }
        total.stderr.extend_from_slice(&out.stderr);
        if i == last {
            total.stdout.extend_from_slice(&out.stdout);
        } else {
            input = out.stdout;
        }
        code = out.exit_code;
    }
    (code, false)
}

/// Runs one simple command.
pub fn run_command(fw: &mut Framework, argv: &[String], stdin: &[u8]) -> ShellOutput {
    let Some(first) = argv.first() else {
        return ShellOutput::ok(Vec::new());
    };
    // Alarms that came due while the phone idled (real clock) or slept (virtual) fire first.
    fw.run_due_alarms();
    let name = first.rsplit('/').next().unwrap_or(first);
    let known_dir = !first.contains('/')
        || ["/system/bin/", "/system/xbin/", "/bin/", "/vendor/bin/"]
            .iter()
            .any(|d| first.starts_with(d));
    let args = &argv[1..];
    if known_dir {
        if let Some(out) = dispatch(fw, name, args, stdin) {
            return out;
        }
    }
    if first.contains('/') {
        ShellOutput::fail(
            format!("/system/bin/sh: {first}: inaccessible or not found\n"),
            127,
        )
    } else {
        ShellOutput::fail(format!("/system/bin/sh: {first}: not found\n"), 127)
    }
}

/// Every command the phone knows; `None` for unknown names.
pub const COMMANDS: &[&str] = &[
    "am",
    "cat",
    "cmd",
    "content",
    "date",
    "dumpsys",
    "echo",
    "false",
    "getprop",
    "grep",
    "head",
    "id",
    "ime",
    "input",
    "logcat",
    "ls",
    "media",
    "mkdir",
    "monkey",
    "pm",
    "pwd",
    "rm",
    "screencap",
    "settings",
    "sleep",
    "sqlite3",
    "svc",
    "tail",
    "touch",
    "true",
    "uiautomator",
    "wc",
    "which",
    "whoami",
    "wm",
];

fn dispatch(fw: &mut Framework, name: &str, args: &[String], stdin: &[u8]) -> Option<ShellOutput> {
    Some(match name {
        "input" => input::run(fw, args),
        "uiautomator" => capture::uiautomator(fw, args),
        "screencap" => capture::screencap(fw, args),
        "wm" => activity::wm(fw, args),
        "am" => activity::am(fw, args),
        "monkey" => activity::monkey(fw, args),
        "cmd" => activity::cmd(fw, args),
        "pm" => activity::pm(fw, args),
        "dumpsys" => activity::dumpsys(fw, args),
        "ime" => activity::ime(fw, args),
        "svc" => settings::svc(fw, args),
        "settings" => settings::settings(fw, args),
        "content" => settings::content(fw, args),
        "media" => settings::media(fw, args),
        "logcat" => logcat::run(fw, args),
        "getprop" => misc::getprop(fw, args),
        "date" => time::date(fw, args),
        "sleep" => time::sleep(fw, args),
        "id" => ShellOutput::ok("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:shell:s0\n"),
        "whoami" => ShellOutput::ok("shell\n"),
        "pwd" => ShellOutput::ok("/\n"),
        "true" => ShellOutput::ok(Vec::new()),
        "false" => ShellOutput { exit_code: 1, ..ShellOutput::default() },
        "which" => misc::which(args),
        "sqlite3" => misc::sqlite3(fw, args, stdin),
        "echo" => text::echo(args),
        "grep" => text::grep(fw, args, stdin),
        "head" => text::head_tail(fw, args, stdin, true),
        "tail" => text::head_tail(fw, args, stdin, false),
        "wc" => text::wc(fw, args, stdin),
        "cat" => fs::cat(fw, args, stdin),
        "ls" => fs::ls(fw, args),
        "rm" => fs::rm(fw, args),
        "mkdir" => fs::mkdir(fw, args),
        "touch" => fs::touch(fw, args),
        _ => return None,
    })
}

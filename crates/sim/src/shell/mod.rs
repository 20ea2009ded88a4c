//! The phone's `/system/bin/sh` (mksh as tools use it): runs a command line (parsed by [`parse`])
//! against the framework with a per-invocation environment (`export`, `VAR=val cmd`, `unset`), pipes,
//! redirections to the virtual filesystem, `&&`/`||`/`;`, `$?`, `$(…)`, compound commands and the
//! shell builtins ([`builtins`]), and dispatches every other command to the module that implements
//! it. Each `exec` is a fresh `sh -c`, as each `adb shell` is. Output formats are Android 14's.

mod activity;
mod args;
mod builtins;
mod capture;
mod dumpsys;
mod find;
mod fs;
mod glob;
mod grep;
mod hash;
mod input;
mod intent;
mod logcat;
mod ls;
mod misc;
mod overlay;
mod package;
pub mod parse;
mod perms;
mod process;
mod role;
mod service;
mod settings;
mod stat;
mod statusbar;
mod text;
mod time;
mod window;

use std::collections::BTreeMap;

use droidmcp_device::ShellOutput;

use super::framework::Framework;
use parse::{Command, Compound, Join, List, Part, Pipeline, Redirect, Word};

pub use fs::normalize as normalize_path;
pub use fs::resolve as resolve_path;

/// A shell variable: its value and whether it is exported to commands.
#[derive(Debug, Clone, PartialEq)]
pub struct Var {
    pub value: String,
    pub exported: bool,
}

/// The variables of one shell (and the environment commands see).
pub type Vars = BTreeMap<String, Var>;

/// One `sh -c` invocation's state.
#[derive(Debug, Clone)]
pub struct Env {
    pub vars: Vars,
    /// `$?`
    pub status: i32,
    /// `$$`
    pub pid: u32,
    /// Set by `exit` and `exec`: the script ends with this status.
    pub exit: Option<i32>,
    /// `$(…)` nesting depth, bounded by the parser.
    depth: usize,
}

/// The environment adbd gives `adb shell` on Android 14.
/// `LOGNAME` and `USER` come from the shell's user (see [`Env::new`]).
const INITIAL_ENV: [(&str, &str); 8] = [
    ("ANDROID_DATA", "/data"),
    ("ANDROID_ROOT", "/system"),
    ("EXTERNAL_STORAGE", "/sdcard"),
    ("HOME", "/"),
    ("HOSTNAME", "localhost"),
    ("PATH", "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin"),
    ("SHELL", "/bin/sh"),
    ("TMPDIR", "/data/local/tmp"),
];

impl Env {
    fn new(fw: &Framework) -> Env {
        let mut vars: Vars = INITIAL_ENV
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    Var {
                        value: v.to_string(),
                        exported: true,
                    },
                )
            })
            .collect();
        let user = if misc::is_root(fw) { "root" } else { "shell" };
        for name in ["LOGNAME", "USER"] {
            vars.insert(
                name.into(),
                Var {
                    value: user.into(),
                    exported: true,
                },
            );
        }
        vars.insert(
            "IFS".into(),
            Var {
                value: " \t\n".into(),
                exported: false,
            },
        );
        Env {
            vars,
            status: 0,
            pid: process::shell_pid(fw),
            exit: None,
            depth: 0,
        }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(|v| v.value.as_str())
    }

    pub fn set(&mut self, name: &str, value: String) {
        match self.vars.get_mut(name) {
            Some(v) => v.value = value,
            None => {
                self.vars.insert(
                    name.to_string(),
                    Var {
                        value,
                        exported: false,
                    },
                );
            }
        }
    }

    fn param(&self, name: &str) -> String {
        match name {
            "$" => self.pid.to_string(),
            "0" => "/system/bin/sh".into(),
            "#" => "0".into(),
            "-" => "hB".into(),
            "!" => String::new(),
            n => self.get(n).unwrap_or("").to_string(),
        }
    }
}

/// Runs one command line as `sh -c` would.
pub fn exec(fw: &mut Framework, line: &str) -> ShellOutput {
    let list = match parse::parse(line) {
        Ok(list) => list,
        Err(e) => return ShellOutput::fail(format!("/system/bin/sh: {e}\n"), 1),
    };
    let mut env = Env::new(fw);
    let mut out = ShellOutput::default();
    let status = run_list(fw, &mut env, &list, &[], &mut out);
    out.exit_code = env.exit.unwrap_or(status);
    out
}

/// Runs a list; returns the status of the last pipeline run.
fn run_list(
    fw: &mut Framework,
    env: &mut Env,
    list: &List,
    stdin: &[u8],
    out: &mut ShellOutput,
) -> i32 {
    for (join, pipeline) in list {
        if env.exit.is_some() {
            break;
        }
        match join {
            Join::IfOk if env.status != 0 => continue,
            Join::IfFailed if env.status == 0 => continue,
            _ => {}
        }
        // A background job (`cmd &`) runs to completion here before the next command, and its
        // status is kept (sh would leave 0): a tool that starts a helper it then waits for
        // (mobilecli's `nohup app_process … &`, which cannot run here) learns at once that it
        // failed instead of polling for a server that never comes. See docs/sim.md.
        env.status = run_pipeline(fw, env, pipeline, stdin, out);
    }
    env.exit.unwrap_or(env.status)
}

/// Appends `more` to `to`, taking the buffer when `to` is still empty: a program's output passes up
/// through the command and pipeline levels without a copy. A raw `screencap` frame is 10 MB, and each
/// copy cost a fresh allocation's page faults besides the memmove.
fn append(to: &mut Vec<u8>, more: Vec<u8>) {
    if to.is_empty() {
        *to = more;
    } else {
        to.extend_from_slice(&more);
    }
}

fn run_pipeline(
    fw: &mut Framework,
    env: &mut Env,
    pipeline: &Pipeline,
    stdin: &[u8],
    total: &mut ShellOutput,
) -> i32 {
    let mut input = stdin.to_vec();
    let mut code = 0;
    let last = pipeline.stages.len().saturating_sub(1);
    for (i, stage) in pipeline.stages.iter().enumerate() {
        let mut out = ShellOutput::default();
        // Stages of a multi-command pipeline run in subshells: their assignments do not stay.
        code = if pipeline.stages.len() > 1 {
            let mut sub = env.clone();
            run_command(fw, &mut sub, stage, &input, &mut out)
        } else {
            run_command(fw, env, stage, &input, &mut out)
        };
        append(&mut total.stderr, out.stderr);
        if i == last {
            append(&mut total.stdout, out.stdout);
        } else {
            input = out.stdout;
        }
    }
    if pipeline.negate {
        (code == 0) as i32
    } else {
        code
    }
}

/// Expands a word into fields: unquoted `$VAR` and `$(…)` are split on whitespace, then each field
/// with unquoted wildcards becomes the paths it matches (kept as it is when none match, as mksh).
fn expand_fields(fw: &mut Framework, env: &mut Env, word: &Word, err: &mut Vec<u8>) -> Vec<String> {
    // Each field as text and as a pattern in which only unquoted wildcards are active.
    let mut fields: Vec<(String, String)> = Vec::new();
    let mut cur = (String::new(), String::new());
    let mut have = false;
    let push = |cur: &mut (String, String), text: &str, active: bool| {
        cur.0.push_str(text);
        if active {
            cur.1.push_str(text);
        } else {
            glob::escape(text, &mut cur.1);
        }
    };
    for part in word {
        let (value, split) = match part {
            Part::Lit(s) => {
                push(&mut cur, s, true);
                have = true;
                continue;
            }
            Part::Quoted(s) => (s.clone(), false),
            Part::Status => (env.status.to_string(), false),
            Part::Var { name, quoted } => (env.param(name), !quoted),
            Part::Subst { script, quoted } => (substitute(fw, env, script, err), !quoted),
        };
        if !split {
            push(&mut cur, &value, false);
            have = true;
            continue;
        }
        let starts_blank = value.starts_with([' ', '\t', '\n']);
        let ends_blank = value.ends_with([' ', '\t', '\n']);
        let pieces: Vec<&str> = value
            .split([' ', '\t', '\n'])
            .filter(|p| !p.is_empty())
            .collect();
        if pieces.is_empty() {
            continue;
        }
        if starts_blank && have {
            fields.push(std::mem::take(&mut cur));
        }
        for (k, piece) in pieces.iter().enumerate() {
            if k > 0 {
                fields.push(std::mem::take(&mut cur));
            }
            push(&mut cur, piece, true);
            have = true;
        }
        if ends_blank {
            fields.push(std::mem::take(&mut cur));
            have = false;
        }
    }
    if have {
        fields.push(cur);
    }
    let mut out = Vec::with_capacity(fields.len());
    for (text, pattern) in fields {
        let matched = if glob::has_wildcards(&pattern) {
            glob::expand(fw, &pattern)
        } else {
            Vec::new()
        };
        if matched.is_empty() {
            out.push(text);
        } else {
            out.extend(matched);
        }
    }
    out
}

/// Expands a word into one string (assignments, redirection targets, `case` words).
fn expand_string(fw: &mut Framework, env: &mut Env, word: &[Part], err: &mut Vec<u8>) -> String {
    let mut s = String::new();
    for part in word {
        match part {
            Part::Lit(l) | Part::Quoted(l) => s.push_str(l),
            Part::Status => s.push_str(&env.status.to_string()),
            Part::Var { name, .. } => s.push_str(&env.param(name)),
            Part::Subst { script, .. } => s.push_str(&substitute(fw, env, script, err)),
        }
    }
    s
}

/// Runs `$(script)` in a subshell; its stdout without trailing newlines. Sets `$?`.
fn substitute(fw: &mut Framework, env: &mut Env, script: &str, err: &mut Vec<u8>) -> String {
    let list = match parse::parse_nested(script, env.depth) {
        Ok(l) => l,
        Err(e) => {
            err.extend_from_slice(format!("/system/bin/sh: {e}\n").as_bytes());
            env.status = 1;
            return String::new();
        }
    };
    let mut sub = env.clone();
    sub.depth += 1;
    sub.exit = None;
    let mut out = ShellOutput::default();
    let status = run_list(fw, &mut sub, &list, &[], &mut out);
    err.extend_from_slice(&out.stderr);
    env.status = status;
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim_end_matches('\n').to_string()
}

/// `NAME=value` at the start of a simple command: the name and the value's parts.
fn assignment(word: &Word) -> Option<(String, Vec<Part>)> {
    let Some(Part::Lit(first)) = word.first() else {
        return None;
    };
    let (name, rest) = first.split_once('=')?;
    if !parse::is_name(name) {
        return None;
    }
    let mut value = Vec::new();
    if !rest.is_empty() {
        value.push(Part::Quoted(rest.to_string()));
    }
    value.extend(word[1..].iter().cloned());
    Some((name.to_string(), value))
}

fn run_command(
    fw: &mut Framework,
    env: &mut Env,
    command: &Command,
    stdin: &[u8],
    out: &mut ShellOutput,
) -> i32 {
    let (redirects, code) = match command {
        Command::Compound { body, redirects } => {
            let mut stdin = stdin.to_vec();
            if let Err(code) = read_redirect(fw, env, redirects, &mut stdin, out) {
                return code;
            }
            let mut inner = ShellOutput::default();
            let code = run_compound(fw, env, body, &stdin, &mut inner);
            *out = inner;
            (redirects, code)
        }
        Command::Simple { words, redirects } => {
            let mut stdin = stdin.to_vec();
            let mut assigns = Vec::new();
            let mut rest = words.as_slice();
            while let Some((w, tail)) = rest.split_first() {
                let Some((name, value)) = assignment(w) else {
                    break;
                };
                let value = expand_string(fw, env, &value, &mut out.stderr);
                assigns.push((name, value));
                rest = tail;
            }
            let mut argv = Vec::new();
            for w in rest {
                argv.extend(expand_fields(fw, env, w, &mut out.stderr));
            }
            if let Err(code) = read_redirect(fw, env, redirects, &mut stdin, out) {
                return code;
            }
            let code = if argv.is_empty() {
                // Only assignments (or only redirections): they set shell variables.
                let status = if words
                    .iter()
                    .any(|w| w.iter().any(|p| matches!(p, Part::Subst { .. })))
                {
                    env.status
                } else {
                    0
                };
                for (name, value) in assigns {
                    env.set(&name, value);
                }
                status
            } else {
                let result = builtins::run(fw, env, &assigns, &argv, &stdin);
                append(&mut out.stdout, result.stdout);
                append(&mut out.stderr, result.stderr);
                result.exit_code
            };
            (redirects, code)
        }
    };
    write_redirects(fw, env, redirects, out, code)
}

fn run_compound(
    fw: &mut Framework,
    env: &mut Env,
    body: &Compound,
    stdin: &[u8],
    out: &mut ShellOutput,
) -> i32 {
    match body {
        Compound::Group { body, subshell } => {
            if *subshell {
                let mut sub = env.clone();
                let code = run_list(fw, &mut sub, body, stdin, out);
                sub.exit.unwrap_or(code)
            } else {
                run_list(fw, env, body, stdin, out)
            }
        }
        Compound::If {
            branches,
            otherwise,
        } => {
            for (cond, then) in branches {
                run_list(fw, env, cond, stdin, out);
                if env.exit.is_some() {
                    return env.status;
                }
                if env.status == 0 {
                    return run_list(fw, env, then, stdin, out);
                }
            }
            match otherwise {
                Some(list) => run_list(fw, env, list, stdin, out),
                None => 0,
            }
        }
        Compound::For { name, words, body } => {
            let mut items = Vec::new();
            for w in words {
                items.extend(expand_fields(fw, env, w, &mut out.stderr));
            }
            let mut code = 0;
            for item in items {
                env.set(name, item);
                code = run_list(fw, env, body, stdin, out);
                if env.exit.is_some() {
                    break;
                }
            }
            code
        }
        Compound::While { cond, body, until } => {
            let mut code = 0;
            // A phone's shell would loop forever; this one gives up after a bound no tool reaches.
            for _ in 0..10_000 {
                run_list(fw, env, cond, stdin, out);
                if env.exit.is_some() || (env.status == 0) == *until {
                    break;
                }
                code = run_list(fw, env, body, stdin, out);
                if env.exit.is_some() {
                    break;
                }
            }
            code
        }
    }
}

/// Applies `< file` redirections to stdin; on failure the command does not run.
fn read_redirect(
    fw: &mut Framework,
    env: &mut Env,
    redirects: &[Redirect],
    stdin: &mut Vec<u8>,
    out: &mut ShellOutput,
) -> Result<(), i32> {
    for r in redirects {
        if let Redirect::FromFile(w) = r {
            let path = expand_string(fw, env, w, &mut out.stderr);
            match fs::read(fw, &path) {
                Ok(data) => *stdin = data,
                Err(_) => {
                    out.stderr.extend_from_slice(
                        format!("/system/bin/sh: can't open {path}: No such file or directory\n")
                            .as_bytes(),
                    );
                    return Err(1);
                }
            }
        }
    }
    Ok(())
}

/// Where a file descriptor points while redirections are applied left to right.
#[derive(Debug, Clone, PartialEq)]
enum Sink {
    Stdout,
    Stderr,
    File {
        path: String,
        append: bool,
    },
    /// An fd other than 1 and 2 (nothing writes to it here).
    Closed,
}

/// Applies output redirections to what a command wrote, as sh wires fds: `>/dev/null 2>&1`
/// silences both, `2>&1 >/dev/null` keeps stderr on stdout. Returns the (possibly failed) status.
fn write_redirects(
    fw: &mut Framework,
    env: &mut Env,
    redirects: &[Redirect],
    out: &mut ShellOutput,
    mut code: i32,
) -> i32 {
    if !redirects
        .iter()
        .any(|r| !matches!(r, Redirect::FromFile(_)))
    {
        return code;
    }
    let mut fds = [Sink::Stdout, Sink::Stderr];
    let slot = |fd: u8| match fd {
        1 => Some(0),
        2 => Some(1),
        _ => None,
    };
    let mut files: Vec<(String, bool)> = Vec::new();
    for r in redirects {
        match r {
            Redirect::ToFile { fd, target, append } => {
                let path = expand_string(fw, env, target, &mut out.stderr);
                // `>` truncates (or creates) the file even when nothing is written to it.
                if !files.iter().any(|(p, _)| *p == path) {
                    files.push((path.clone(), *append));
                }
                if let Some(i) = slot(*fd) {
                    fds[i] = Sink::File {
                        path,
                        append: *append,
                    };
                }
            }
            Redirect::Dup { fd, to } => {
                let target = match slot(*to) {
                    Some(j) => fds[j].clone(),
                    None => Sink::Closed,
                };
                if let Some(i) = slot(*fd) {
                    fds[i] = target;
                }
            }
            Redirect::FromFile(_) => {}
        }
    }
    let data = [
        std::mem::take(&mut out.stdout),
        std::mem::take(&mut out.stderr),
    ];
    let mut file_data: Vec<Vec<u8>> = vec![Vec::new(); files.len()];
    let mut errors = Vec::new();
    for (i, sink) in fds.iter().enumerate() {
        match sink {
            Sink::Stdout => out.stdout.extend_from_slice(&data[i]),
            Sink::Stderr => errors.extend_from_slice(&data[i]),
            Sink::File { path, .. } => {
                if let Some(k) = files.iter().position(|(p, _)| p == path) {
                    file_data[k].extend_from_slice(&data[i]);
                }
            }
            Sink::Closed => {}
        }
    }
    out.stderr = errors;
    for ((path, append), bytes) in files.iter().zip(file_data) {
        if let Err(e) = fs::write(fw, path, &bytes, *append) {
            out.stderr.extend_from_slice(
                format!("/system/bin/sh: can't create {path}: {e}\n").as_bytes(),
            );
            code = 1;
        }
    }
    code
}

/// Runs one external (non-builtin) command with the environment it was given.
pub fn run_program(fw: &mut Framework, argv: &[String], stdin: &[u8], vars: &Vars) -> ShellOutput {
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
        if let Some(out) = dispatch(fw, name, args, stdin, vars) {
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

/// Every program the phone has on its `PATH` (builtins are in [`builtins::BUILTINS`]).
pub const COMMANDS: &[&str] = &[
    "am",
    "app_process",
    "appops",
    "cat",
    "chmod",
    "cmd",
    "content",
    "cp",
    "date",
    "dumpsys",
    "echo",
    "false",
    "find",
    "getprop",
    "grep",
    "head",
    "id",
    "ime",
    "input",
    "kill",
    "ln",
    "logcat",
    "ls",
    "md5sum",
    "media",
    "mkdir",
    "monkey",
    "mv",
    "pgrep",
    "pidof",
    "pkill",
    "pm",
    "printenv",
    "ps",
    "pwd",
    "readlink",
    "restorecon",
    "rm",
    "rmdir",
    "run-as",
    "screencap",
    "service",
    "setprop",
    "settings",
    "sha1sum",
    "sha256sum",
    "sleep",
    "sqlite3",
    "stat",
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

fn dispatch(
    fw: &mut Framework,
    name: &str,
    args: &[String],
    stdin: &[u8],
    vars: &Vars,
) -> Option<ShellOutput> {
    Some(match name {
        "input" => input::run(fw, args),
        "uiautomator" => capture::uiautomator(fw, args),
        "screencap" => capture::screencap(fw, args),
        "wm" => window::wm(fw, args),
        "am" => activity::am(fw, args),
        "monkey" => activity::monkey(fw, args),
        "cmd" => activity::cmd(fw, args),
        "pm" => package::pm(fw, args),
        "appops" => package::appops(fw, args),
        "dumpsys" => dumpsys::run(fw, args),
        "ime" => activity::ime(fw, args),
        "svc" => settings::svc(fw, args),
        "settings" => settings::settings(fw, args),
        "content" => settings::content(fw, args),
        "media" => settings::media(fw, args),
        "logcat" => logcat::run(fw, args, vars),
        "getprop" => misc::getprop(fw, args),
        "date" => time::date(fw, args),
        "sleep" => time::sleep(fw, args),
        "id" => misc::id(fw, args),
        "whoami" => misc::whoami(fw),
        "setprop" => misc::setprop(fw, args),
        "service" => service::service(fw, args),
        "which" => misc::which(args),
        "printenv" => misc::printenv(name, args, vars),
        "sqlite3" => misc::sqlite3(fw, args, stdin),
        "ps" => process::ps(fw, args),
        "pidof" => process::pidof(fw, args),
        "pgrep" | "pkill" => process::pgrep(fw, name, args),
        "kill" => process::kill(fw, args),
        "run-as" => process::run_as(fw, args, stdin, vars),
        "app_process" => process::app_process(args, vars),
        "echo" => text::echo(args),
        "pwd" => ShellOutput::ok("/\n"),
        "true" => ShellOutput::ok(Vec::new()),
        "false" => ShellOutput {
            exit_code: 1,
            ..ShellOutput::default()
        },
        "grep" => grep::grep(fw, args, stdin),
        "head" => text::head_tail(fw, args, stdin, true),
        "tail" => text::head_tail(fw, args, stdin, false),
        "wc" => text::wc(fw, args, stdin),
        "cat" => fs::cat(fw, args, stdin),
        "ls" => ls::ls(fw, args),
        "find" => find::find(fw, args),
        "restorecon" => perms::restorecon(fw, args),
        "rm" => fs::rm(fw, args),
        "rmdir" => fs::rmdir(fw, args),
        "mkdir" => fs::mkdir(fw, args),
        "touch" => fs::touch(fw, args),
        "mv" => fs::mv(fw, args),
        "cp" => fs::cp(fw, args),
        "ln" => fs::ln(fw, args),
        "chmod" => perms::chmod(fw, args),
        "readlink" => fs::readlink(fw, args),
        "stat" => stat::stat(fw, args),
        "md5sum" | "sha1sum" | "sha256sum" => match hash::Algorithm::from_tool(name) {
            Some(algo) => hash::run(fw, name, algo, args, stdin),
            None => return None,
        },
        _ => return None,
    })
}

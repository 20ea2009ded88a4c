//! Processes as toybox shows and signals them (`ps`, `pidof`, `pgrep`, `pkill`, `kill`), and the
//! ways into an app's process that tools try: `run-as PKG CMD` and `app_process`.
//!
//! The process table is derived, never stored: the boot processes Android always has, one
//! process per running app (its task's pid), and this shell with the `ps` it runs. Killing an
//! app's process is what `am force-stop` does to it.

use crate::apps;
use crate::framework::Framework;
use crate::keyboard;
use crate::system::pid;
use droidmcp_device::ShellOutput;

use super::Vars;

/// One row of the process table.
#[derive(Debug, Clone)]
struct Proc {
    user: String,
    pid: u32,
    ppid: u32,
    vsz: u64,
    rss: u64,
    wchan: &'static str,
    state: char,
    name: String,
    label: &'static str,
    /// The running app this process belongs to, if any.
    package: Option<&'static str>,
}

const ZYGOTE: u32 = 611;
const ADBD: u32 = 987;

/// `$$` of a shell: deterministic per phone.
pub fn shell_pid(fw: &Framework) -> u32 {
    9000 + (fw.config.seed % 500) as u32 * 2
}

fn app_user(fw: &Framework, package: &str) -> String {
    if package == apps::settings::PACKAGE {
        return "system".into();
    }
    let idx = fw
        .catalog
        .iter()
        .position(|a| a.package == package)
        .unwrap_or(0);
    format!("u0_a{}", 120 + idx)
}

fn table(fw: &Framework, with_ps: bool) -> Vec<Proc> {
    let sys = |user: &str, pid, ppid, vsz, rss, wchan, name: &str, label| Proc {
        user: user.into(),
        pid,
        ppid,
        vsz,
        rss,
        wchan,
        state: 'S',
        name: name.into(),
        label,
        package: None,
    };
    let mut t = vec![
        sys(
            "root",
            1,
            0,
            10_934_272,
            12_220,
            "do_epoll_wait",
            "init",
            "u:r:init:s0",
        ),
        sys(
            "root",
            2,
            0,
            0,
            0,
            "kthreadd",
            "[kthreadd]",
            "u:r:kernel:s0",
        ),
        sys(
            "logd",
            302,
            1,
            10_949_488,
            9_104,
            "do_epoll_wait",
            "logd",
            "u:r:logd:s0",
        ),
        sys(
            "system",
            361,
            1,
            10_972_020,
            6_320,
            "binder_ioctl",
            "servicemanager",
            "u:r:servicemanager:s0",
        ),
        sys(
            "root",
            ZYGOTE,
            1,
            15_132_876,
            174_312,
            "do_sys_poll",
            "zygote64",
            "u:r:zygote:s0",
        ),
        sys(
            "shell",
            ADBD,
            1,
            10_973_380,
            7_812,
            "do_epoll_wait",
            "adbd",
            "u:r:adbd:s0",
        ),
        sys(
            "system",
            pid::SYSTEM_SERVER,
            ZYGOTE,
            21_345_208,
            412_604,
            "do_epoll_wait",
            "system_server",
            "u:r:system_server:s0",
        ),
        sys(
            "u0_a101",
            pid::SYSTEMUI,
            ZYGOTE,
            17_612_260,
            232_180,
            "do_epoll_wait",
            "com.android.systemui",
            "u:r:platform_app:s0:c512,c768",
        ),
        sys(
            "radio",
            pid::PHONE,
            ZYGOTE,
            15_880_104,
            118_300,
            "do_epoll_wait",
            "com.android.phone",
            "u:r:radio:s0",
        ),
        sys(
            "u0_a146",
            2240,
            ZYGOTE,
            16_102_388,
            139_704,
            "do_epoll_wait",
            keyboard::PACKAGE,
            "u:r:untrusted_app:s0:c146,c256,c512,c768",
        ),
    ];
    for task in &fw.stack {
        t.push(Proc {
            user: app_user(fw, task.package),
            pid: task.pid,
            ppid: ZYGOTE,
            vsz: 15_400_000 + (task.pid as u64 % 97) * 4_096,
            rss: 120_000 + (task.pid as u64 % 89) * 1_024,
            wchan: "do_epoll_wait",
            state: 'S',
            name: task.package.to_string(),
            label: if task.package == apps::settings::PACKAGE {
                "u:r:system_app:s0"
            } else {
                "u:r:untrusted_app:s0:c120,c256,c512,c768"
            },
            package: Some(task.package),
        });
    }
    let sh = shell_pid(fw);
    t.push(sys(
        "shell",
        sh,
        ADBD,
        10_902_564,
        3_752,
        "do_wait",
        "sh",
        "u:r:shell:s0",
    ));
    if with_ps {
        let mut ps = sys(
            "shell",
            sh + 1,
            sh,
            10_911_460,
            3_880,
            "0",
            "ps",
            "u:r:shell:s0",
        );
        ps.state = 'R';
        t.push(ps);
    }
    t.sort_by_key(|p| p.pid);
    t
}

/// A `-o` column: its canonical name, width (negative: left-justified) and title.
#[derive(Debug, Clone)]
struct Column {
    field: &'static str,
    width: i32,
    title: String,
}

/// toybox's `typos[]` widths for the columns tools ask for.
const FIELDS: &[(&str, i32)] = &[
    ("PID", 5),
    ("PPID", 5),
    ("USER", -12),
    ("UID", 5),
    ("VSZ", 7),
    ("RSS", 6),
    ("WCHAN", -6),
    ("ADDR", 4),
    ("S", 1),
    ("NAME", -27),
    ("CMD", -15),
    ("CMDLINE", -27),
    ("ARGS", -27),
    ("COMM", -27),
    ("COMMAND", -27),
    ("LABEL", -30),
    ("TID", 5),
    ("TIME", 8),
    ("%CPU", 4),
    ("PRI", 3),
    ("NI", 3),
    ("TTY", -8),
];

fn parse_columns(spec: &str) -> Result<Vec<Column>, String> {
    let mut cols = Vec::new();
    for item in spec.split(',').filter(|s| !s.is_empty()) {
        let (name, title) = match item.split_once('=') {
            Some((n, t)) => (n, Some(t.to_string())),
            None => (item, None),
        };
        let (name, width) = match name.split_once(':') {
            Some((n, w)) => (
                n,
                Some(w.parse::<i32>().map_err(|_| format!("bad -o {item}"))?),
            ),
            None => (name, None),
        };
        // VSIZE is toybox's alias for VSZ (Android's default columns name it so).
        let upper = match name.to_ascii_uppercase() {
            u if u == "VSIZE" => "VSZ".to_string(),
            u => u,
        };
        let Some((field, default)) = FIELDS.iter().find(|(f, _)| *f == upper) else {
            return Err(format!("bad -o {name}"));
        };
        let w = width
            .map(|w| if *default < 0 { -w } else { w })
            .unwrap_or(*default);
        cols.push(Column {
            field,
            width: w,
            title: title.unwrap_or_else(|| field.to_string()),
        });
    }
    Ok(cols)
}

fn value(p: &Proc, field: &str) -> String {
    match field {
        "PID" | "TID" => p.pid.to_string(),
        "PPID" => p.ppid.to_string(),
        "USER" => p.user.clone(),
        "UID" => match p.user.as_str() {
            "root" => "0".into(),
            "system" => "1000".into(),
            "shell" => "2000".into(),
            "logd" => "1036".into(),
            "radio" => "1001".into(),
            u => u
                .strip_prefix("u0_a")
                .and_then(|n| n.parse::<u32>().ok())
                .map(|n| (10_000 + n).to_string())
                .unwrap_or_else(|| "0".into()),
        },
        "VSZ" => p.vsz.to_string(),
        "RSS" => p.rss.to_string(),
        "WCHAN" => p.wchan.to_string(),
        "ADDR" => "0".into(),
        "S" => p.state.to_string(),
        "NAME" | "CMD" | "COMM" => p.name.clone(),
        "CMDLINE" | "ARGS" | "COMMAND" => match p.name.as_str() {
            "init" => "/system/bin/init second_stage".into(),
            "sh" => "/system/bin/sh -".into(),
            "ps" | "logd" | "servicemanager" | "adbd" => format!("/system/bin/{}", p.name),
            n => n.to_string(),
        },
        "LABEL" => p.label.to_string(),
        "TIME" => "00:00:01".into(),
        "%CPU" => "0.0".into(),
        "PRI" => "19".into(),
        "NI" => "0".into(),
        "TTY" => "?".into(),
        _ => String::new(),
    }
}

/// One line as toybox's `show_ps` pads it: one space between fields, numbers never truncated,
/// the last left-justified field without trailing spaces.
fn render_row(cols: &[Column], cells: &[String]) -> String {
    let mut line = String::new();
    let mut extra = 0i32;
    for (i, (col, cell)) in cols.iter().zip(cells).enumerate() {
        if i > 0 {
            line.push(' ');
        }
        let mut abslen = col.width.abs();
        let olen = cell.chars().count() as i32;
        if olen > abslen {
            extra += olen - abslen;
            abslen = olen;
        } else if extra > 0 && olen < abslen {
            let unused = (abslen - olen).min(extra);
            abslen -= unused;
            extra -= unused;
        }
        let last = i + 1 == cols.len();
        if col.width < 0 {
            if last {
                line.push_str(cell);
            } else {
                line.push_str(&format!("{cell:<w$}", w = abslen as usize));
            }
        } else {
            line.push_str(&format!("{cell:>w$}", w = abslen as usize));
        }
    }
    line.push('\n');
    line
}

pub fn ps(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let mut spec: Option<String> = None;
    let mut all = false;
    let mut pids: Vec<u32> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut with_label = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-o" | "-O" => match args.get(i) {
                Some(s) => {
                    spec = Some(match &spec {
                        Some(prev) => format!("{prev},{s}"),
                        None => s.clone(),
                    });
                    i += 1;
                }
                None => {
                    return ShellOutput::fail("ps: Missing argument to -o (see \"ps --help\")\n", 1)
                }
            },
            "-p" => match args.get(i).map(|s| {
                s.split(',')
                    .map(|p| p.parse::<u32>())
                    .collect::<Result<Vec<_>, _>>()
            }) {
                Some(Ok(list)) => {
                    pids.extend(list);
                    i += 1;
                }
                _ => {
                    return ShellOutput::fail(
                        format!(
                            "ps: bad -p {}\n",
                            args.get(i).map(String::as_str).unwrap_or("")
                        ),
                        1,
                    )
                }
            },
            s if s.starts_with('-') && s.len() > 1 => {
                for c in s[1..].chars() {
                    match c {
                        'A' | 'e' | 'a' | 'd' | 'x' => all = true,
                        'Z' => with_label = true,
                        'w' | 'f' | 'l' | 'T' | 'n' | 'M' | 'k' | 't' | 'u' | 'U' | 'g' | 'G'
                        | 'P' | 's' => {}
                        other => {
                            return ShellOutput::fail(
                                format!("ps: Unknown option '{other}' (see \"ps --help\")\n"),
                                1,
                            )
                        }
                    }
                }
            }
            s => match s.parse::<u32>() {
                Ok(p) => pids.push(p),
                Err(_) => names.push(s.to_string()),
            },
        }
    }
    if !names.is_empty() {
        return ShellOutput::fail(format!("ps: bad {}\n", names[0]), 1);
    }
    let default = "USER,PID,PPID,VSIZE:10,RSS,WCHAN:10,ADDR:10,S,NAME";
    let mut spec_text = spec.unwrap_or_else(|| default.to_string());
    if with_label {
        spec_text = format!("LABEL,{spec_text}");
    }
    let cols = match parse_columns(&spec_text) {
        Ok(c) => c,
        Err(e) => return ShellOutput::fail(format!("ps: {e}\n"), 1),
    };
    let procs = table(fw, true);
    let sh = shell_pid(fw);
    let shown: Vec<&Proc> = procs
        .iter()
        .filter(|p| {
            if !pids.is_empty() {
                pids.contains(&p.pid)
            } else if all {
                true
            } else {
                // Without -A, toybox shows the processes of this terminal session.
                p.pid == sh || p.ppid == sh
            }
        })
        .collect();
    let mut out = String::new();
    if cols.iter().any(|c| !c.title.is_empty()) {
        let titles: Vec<String> = cols.iter().map(|c| c.title.clone()).collect();
        out.push_str(&render_row(&cols, &titles));
    }
    for p in &shown {
        let cells: Vec<String> = cols.iter().map(|c| value(p, c.field)).collect();
        out.push_str(&render_row(&cols, &cells));
    }
    let code = if !pids.is_empty() && shown.is_empty() {
        1
    } else {
        0
    };
    ShellOutput {
        stdout: out.into_bytes(),
        stderr: Vec::new(),
        exit_code: code,
    }
}

pub fn pidof(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let single = args.iter().any(|a| a == "-s");
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let procs = table(fw, false);
    let mut found: Vec<String> = Vec::new();
    for name in names {
        let mut pids: Vec<&Proc> = procs.iter().filter(|p| &p.name == name).collect();
        pids.sort_by_key(|p| std::cmp::Reverse(p.pid));
        if single {
            pids.truncate(1);
        }
        found.extend(pids.iter().map(|p| p.pid.to_string()));
    }
    if found.is_empty() {
        return ShellOutput {
            exit_code: 1,
            ..ShellOutput::default()
        };
    }
    ShellOutput::ok(format!("{}\n", found.join(" ")))
}

/// `pgrep`/`pkill [-f] [-l] [-x] [-SIGNAL] PATTERN`.
pub fn pgrep(fw: &mut Framework, tool: &str, args: &[String]) -> ShellOutput {
    let (mut full, mut list, mut exact) = (false, false, false);
    let mut pattern = None;
    for a in args {
        match a.as_str() {
            "-f" => full = true,
            "-l" => list = true,
            "-x" => exact = true,
            s if s.starts_with('-') && tool == "pkill" && signal_number(&s[1..]).is_some() => {}
            s if s.starts_with('-') && s.len() > 1 => {}
            s => pattern = Some(s.to_string()),
        }
    }
    let Some(pattern) = pattern else {
        return ShellOutput::fail(
            format!("{tool}: Needs 1 argument (see \"{tool} --help\")\n"),
            2,
        );
    };
    let re = match regex::RegexBuilder::new(&if exact {
        format!("^(?:{pattern})$")
    } else {
        pattern.clone()
    })
    .size_limit(1 << 20)
    .build()
    {
        Ok(r) => r,
        Err(_) => return ShellOutput::fail(format!("{tool}: bad regex '{pattern}'\n"), 2),
    };
    let sh = shell_pid(fw);
    let procs = table(fw, false);
    let hits: Vec<Proc> = procs
        .into_iter()
        .filter(|p| p.pid != sh)
        .filter(|p| {
            let text = if full {
                value(p, "CMDLINE")
            } else {
                p.name.clone()
            };
            re.is_match(&text)
        })
        .collect();
    if hits.is_empty() {
        return ShellOutput {
            exit_code: 1,
            ..ShellOutput::default()
        };
    }
    if tool == "pkill" {
        let mut out = ShellOutput::default();
        for p in &hits {
            if let Err(e) = signal(fw, p) {
                out.stderr
                    .extend_from_slice(format!("pkill: {}: {e}\n", p.pid).as_bytes());
                out.exit_code = 1;
            }
        }
        return out;
    }
    let mut s = String::new();
    for p in hits {
        if list {
            s.push_str(&format!("{} {}\n", p.pid, p.name));
        } else {
            s.push_str(&format!("{}\n", p.pid));
        }
    }
    ShellOutput::ok(s)
}

fn signal_number(name: &str) -> Option<u32> {
    let upper = name.trim_start_matches("SIG").to_ascii_uppercase();
    Some(match upper.as_str() {
        "HUP" | "1" => 1,
        "INT" | "2" => 2,
        "QUIT" | "3" => 3,
        "KILL" | "9" => 9,
        "USR1" | "10" => 10,
        "USR2" | "12" => 12,
        "TERM" | "15" => 15,
        "CONT" | "18" => 18,
        "STOP" | "19" => 19,
        "0" => 0,
        _ => return None,
    })
}

/// Delivers a terminating signal: an app's process dies (as force-stop); the shell user may not
/// signal system processes.
fn signal(fw: &mut Framework, p: &Proc) -> Result<(), &'static str> {
    match p.package {
        Some(package) => {
            fw.force_stop(package);
            fw.sys.log(
                pid::SYSTEM_SERVER,
                'I',
                "ActivityManager",
                format!("Process {package} (pid {}) has died: fg  TOP ", p.pid),
            );
            Ok(())
        }
        None if p.user == "shell" => Ok(()),
        None => Err("Operation not permitted"),
    }
}

pub fn kill(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let mut sig = 15;
    let mut targets = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-l" => {
                return ShellOutput::ok(" 1) SIGHUP       2) SIGINT       3) SIGQUIT      4) SIGILL\n 5) SIGTRAP      6) SIGABRT      7) SIGBUS       8) SIGFPE\n 9) SIGKILL     10) SIGUSR1     11) SIGSEGV     12) SIGUSR2\n13) SIGPIPE     14) SIGALRM     15) SIGTERM     16) SIGSTKFLT\n17) SIGCHLD     18) SIGCONT     19) SIGSTOP     20) SIGTSTP\n")
            }
            "-s" => match args.get(i).and_then(|s| signal_number(s)) {
                Some(n) => {
                    sig = n;
                    i += 1;
                }
                None => return ShellOutput::fail(format!("kill: Unknown signal '{}'\n", args.get(i).map(String::as_str).unwrap_or("")), 1),
            },
            s if s.starts_with('-') && s.len() > 1 => match signal_number(&s[1..]) {
                Some(n) => sig = n,
                None => return ShellOutput::fail(format!("kill: Unknown signal '{}'\n", &s[1..]), 1),
            },
            s => targets.push(s.to_string()),
        }
    }
    if targets.is_empty() {
        return ShellOutput::fail(
            "usage: kill [-l [SIGNAL] | -s SIGNAL | -SIGNAL] PID...\n",
            1,
        );
    }
    let procs = table(fw, false);
    let mut out = ShellOutput::default();
    for t in targets {
        let Ok(n) = t.parse::<u32>() else {
            out.stderr.extend_from_slice(
                format!("kill: {t}: arguments must be process or job IDs\n").as_bytes(),
            );
            out.exit_code = 1;
            continue;
        };
        match procs.iter().find(|p| p.pid == n) {
            None => {
                out.stderr
                    .extend_from_slice(format!("kill: {n}: No such process\n").as_bytes());
                out.exit_code = 1;
            }
            // Signal 0 and stop/continue only probe or pause; nothing here runs to be paused.
            Some(_) if matches!(sig, 0 | 18 | 19) => {}
            Some(p) => {
                if let Err(e) = signal(fw, p) {
                    out.stderr
                        .extend_from_slice(format!("kill: {n}: {e}\n").as_bytes());
                    out.exit_code = 1;
                }
            }
        }
    }
    out
}

/// `run-as PKG CMD…`: runs a command as the app; only debuggable apps allow it, and every app on
/// this phone is a release build, as on a production phone.
pub fn run_as(fw: &mut Framework, args: &[String], _stdin: &[u8], _vars: &Vars) -> ShellOutput {
    let mut rest = args.iter().skip_while(|a| a.starts_with("--user"));
    let Some(package) = rest.next() else {
        return ShellOutput::fail(
            "run-as: usage: run-as <package-name> [--user <uid>] <command> [<args>]\n",
            1,
        );
    };
    if super::package::uid_of(fw, package).is_none() {
        return ShellOutput::fail(format!("run-as: unknown package: {package}\n"), 1);
    }
    ShellOutput::fail(format!("run-as: package not debuggable: {package}\n"), 1)
}

/// `app_process`: starts a Java program from `CLASSPATH`. The embedded phone has no ART to run a
/// dex in, so it fails as a real `app_process` does when the class cannot be loaded.
pub fn app_process(args: &[String], vars: &Vars) -> ShellOutput {
    let positional: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let Some(class) = positional.get(1) else {
        return ShellOutput::fail("Error: no class name or --zygote supplied.\nUsage: app_process [java-options] cmd-dir start-class-name [options]\n", 10);
    };
    let classpath = vars
        .get("CLASSPATH")
        .map(|v| v.value.as_str())
        .unwrap_or("");
    let descriptor = class.replace('.', "/");
    ShellOutput::fail(
        format!(
            "Exception in thread \"main\" java.lang.ClassNotFoundException: Didn't find class \"{class}\" on path: DexPathList[[{}],nativeLibraryDirectories=[/system/lib64, /system_ext/lib64]]\n\tat dalvik.system.BaseDexClassLoader.findClass(BaseDexClassLoader.java:259)\n\tat java.lang.ClassLoader.loadClass(ClassLoader.java:637)\n\tat java.lang.ClassLoader.loadClass(ClassLoader.java:573)\nError: could not find class '{descriptor}'\n",
            classpath
                .split(':')
                .filter(|p| !p.is_empty())
                .map(|p| format!("zip file \"{p}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        1,
    )
}

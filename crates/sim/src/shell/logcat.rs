//! `logcat`: dumps (or clears) the log ring with tag:priority filters (from the arguments, else
//! from `ANDROID_LOG_TAGS`, which host-side `adb logcat` exports), buffers (`-b crash` holds app
//! crashes) and liblog's output formats. The embedded phone has no streaming mode: without `-d`
//! it dumps and exits as with `-d`.

use crate::framework::Framework;
use crate::system::LogEntry;
use droidmcp_device::ShellOutput;

use super::Vars;

fn priority(c: char) -> Option<u8> {
    Some(match c.to_ascii_uppercase() {
        'V' | '*' => 2,
        'D' => 3,
        'I' => 4,
        'W' => 5,
        'E' => 6,
        'F' => 7,
        'S' => 8,
        _ => return None,
    })
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    ThreadTime,
    Brief,
    Time,
    Tag,
    Process,
    Raw,
}

/// A line is in the crash buffer when it is part of an app's crash report.
fn in_crash_buffer(e: &LogEntry) -> bool {
    e.tag == "AndroidRuntime" && e.level == 'E'
}

fn format_entry(e: &LogEntry, f: Format, year: bool) -> String {
    let time = if year {
        e.time.format("%Y-%m-%d %H:%M:%S%.3f")
    } else {
        e.time.format("%m-%d %H:%M:%S%.3f")
    };
    let (p, tag, pid, tid) = (e.level, e.tag.as_str(), e.pid, e.tid);
    let mut out = String::new();
    for line in e.message.split('\n') {
        let prefix = match f {
            Format::ThreadTime => format!("{time} {pid:5} {tid:5} {p} {tag:<8}: "),
            Format::Brief => format!("{p}/{tag:<8}({pid:5}): "),
            Format::Time => format!("{time} {p}/{tag:<8}({pid:5}): "),
            Format::Tag => format!("{p}/{tag:<8}: "),
            Format::Process => format!("{p}({pid:5}) "),
            Format::Raw => String::new(),
        };
        let suffix = if f == Format::Process {
            format!("  ({tag})")
        } else {
            String::new()
        };
        out.push_str(&format!("{prefix}{line}{suffix}\n"));
    }
    out
}

pub fn run(fw: &mut Framework, args: &[String], vars: &Vars) -> ShellOutput {
    let mut format = Format::ThreadTime;
    let mut year = false;
    let mut buffers: Vec<String> = Vec::new();
    let mut silent_default = false;
    let mut specs: Vec<(String, u8)> = Vec::new();
    let mut tail: Option<usize> = None;
    let mut since: Option<chrono::NaiveDateTime> = None;
    let mut regex = None;
    let mut i = 0;
    let bad = |msg: String| {
        ShellOutput::fail(
            format!("{msg}\nFor more information run 'logcat --help'\n"),
            1,
        )
    };
    while let Some(a) = args.get(i) {
        i += 1;
        let mut value = || {
            i += 1;
            args.get(i - 1).cloned()
        };
        match a.as_str() {
            "-d" | "--dump" => {}
            "-c" | "--clear" => {
                fw.sys.logcat.entries.clear();
                return ShellOutput::ok(Vec::new());
            }
            "-s" => silent_default = true,
            "-v" | "--format" => {
                // `-v threadtime,year`: a format and its modifiers, comma-separated.
                let Some(v) = value() else {
                    return bad("logcat: option requires an argument -- v".into());
                };
                for f in v.split(',').filter(|f| !f.is_empty()) {
                    match f {
                        "threadtime" => format = Format::ThreadTime,
                        "brief" => format = Format::Brief,
                        "time" => format = Format::Time,
                        "tag" => format = Format::Tag,
                        "process" => format = Format::Process,
                        "raw" => format = Format::Raw,
                        "year" => year = true,
                        "color" | "epoch" | "monotonic" | "uid" | "usec" | "UTC" | "zone"
                        | "printable" | "descriptive" | "long" => {}
                        other => {
                            return bad(format!("logcat: Invalid parameter \"{other}\" to -v."))
                        }
                    }
                }
            }
            "-t" | "-T" | "-m" => {
                let v = value().unwrap_or_default();
                if let Ok(n) = v.trim().parse::<usize>() {
                    tail = Some(n);
                } else if let Some(t) = parse_time(&v, fw.sys.clock.now()) {
                    since = Some(t);
                } else {
                    return bad(format!("logcat: {a} requires a count or a time"));
                }
            }
            "-b" | "--buffer" => match value() {
                Some(b) => buffers.extend(b.split(',').map(str::to_string)),
                None => return bad("logcat: option requires an argument -- b".into()),
            },
            "-f" | "-r" | "-n" | "--pid" => {
                value();
            }
            "-e" | "--regex" => match value().map(|r| regex::Regex::new(&r)) {
                Some(Ok(r)) => regex = Some(r),
                _ => return bad("logcat: invalid regex".into()),
            },
            s if s.starts_with("-v") && s.len() > 2 => {}
            s if s.starts_with('-') => {
                return bad(format!(
                    "logcat: invalid option -- {}",
                    s.trim_start_matches('-')
                ))
            }
            spec => {
                let (tag, level) = match spec.rsplit_once(':') {
                    Some((t, l)) => {
                        let Some(p) = l.chars().next().filter(|_| l.len() == 1).and_then(priority)
                        else {
                            return bad(format!("logcat: Invalid filter expression '{spec}'"));
                        };
                        (t.to_string(), p)
                    }
                    None => (spec.to_string(), 2),
                };
                specs.push((tag, level));
            }
        }
    }
    if specs.is_empty() {
        // adb's host side sends `export ANDROID_LOG_TAGS="<quoted>"`; `''` is its empty value.
        let tags = vars
            .get("ANDROID_LOG_TAGS")
            .map(|v| v.value.trim().to_string())
            .unwrap_or_default();
        if !tags.is_empty() && tags != "''" {
            for spec in tags.split_whitespace() {
                let Some((tag, level)) = spec.rsplit_once(':').or(Some((spec, "V"))) else {
                    continue;
                };
                match level
                    .chars()
                    .next()
                    .filter(|_| level.len() == 1)
                    .and_then(priority)
                {
                    Some(p) => specs.push((tag.to_string(), p)),
                    None => return bad("Invalid filter expression in logcat args".into()),
                }
            }
        }
    }
    let crash = buffers.iter().any(|b| b == "crash");
    let others = buffers.is_empty() || buffers.iter().any(|b| b != "crash");
    let default = specs
        .iter()
        .find(|(t, _)| t == "*")
        .map(|(_, l)| *l)
        .unwrap_or(if silent_default { 8 } else { 2 });
    let passes = |e: &LogEntry| {
        let min = specs
            .iter()
            .find(|(t, _)| *t == e.tag)
            .map(|(_, l)| *l)
            .unwrap_or(default);
        priority(e.level).unwrap_or(2) >= min
            && regex.as_ref().is_none_or(|r| r.is_match(&e.message))
    };
    let in_buffers = |e: &LogEntry| {
        if in_crash_buffer(e) {
            crash || buffers.iter().any(|b| b == "all")
        } else {
            others
        }
    };
    let selected: Vec<&LogEntry> = fw
        .sys
        .logcat
        .entries
        .iter()
        .filter(|e| in_buffers(e) && passes(e) && since.is_none_or(|t| e.time >= t))
        .collect();
    let start = tail.map(|n| selected.len().saturating_sub(n)).unwrap_or(0);
    let mut out = String::new();
    let mut current: Option<bool> = None;
    for e in &selected[start..] {
        let is_crash = in_crash_buffer(e) && (crash || buffers.iter().any(|b| b == "all"));
        if current != Some(is_crash) {
            out.push_str(if is_crash {
                "--------- beginning of crash\n"
            } else {
                "--------- beginning of main\n"
            });
            current = Some(is_crash);
        }
        out.push_str(&format_entry(e, format, year));
    }
    ShellOutput::ok(out)
}

/// `-t`/`-T` times: `MM-DD hh:mm:ss.mmm` (this year) or `YYYY-MM-DD hh:mm:ss.mmm`.
fn parse_time(v: &str, now: chrono::NaiveDateTime) -> Option<chrono::NaiveDateTime> {
    use chrono::Datelike;
    let v = v.trim().trim_matches('\'');
    for fmt in ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%d %H:%M:%S"] {
        if let Ok(t) = chrono::NaiveDateTime::parse_from_str(v, fmt) {
            return Some(t);
        }
    }
    let with_year = format!("{}-{v}", now.year());
    for fmt in ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%d %H:%M:%S"] {
        if let Ok(t) = chrono::NaiveDateTime::parse_from_str(&with_year, fmt) {
            return Some(t);
        }
    }
    None
}

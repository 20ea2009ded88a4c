//! `logcat`: dumps (or clears) the log ring with tag:priority filters and liblog's output formats.
//! The embedded phone has no streaming mode: without `-d` it dumps and exits as with `-d`.

use crate::device::ShellOutput;
use crate::sim::framework::Framework;
use crate::sim::system::LogEntry;

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

fn format_entry(e: &LogEntry, f: Format) -> String {
    let time = e.time.format("%m-%d %H:%M:%S%.3f");
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

pub fn run(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let mut format = Format::ThreadTime;
    let mut silent_default = false;
    let mut specs: Vec<(String, u8)> = Vec::new();
    let mut tail: Option<usize> = None;
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
            "-v" | "--format" => match value().as_deref() {
                Some("threadtime") => format = Format::ThreadTime,
                Some("brief") => format = Format::Brief,
                Some("time") => format = Format::Time,
                Some("tag") => format = Format::Tag,
                Some("process") => format = Format::Process,
                Some("raw") => format = Format::Raw,
                Some(
                    "color" | "epoch" | "monotonic" | "uid" | "usec" | "UTC" | "year" | "zone"
                    | "printable" | "descriptive" | "long",
                ) => {}
                Some(other) => return bad(format!("logcat: Invalid parameter \"{other}\" to -v.")),
                None => return bad("logcat: option requires an argument -- v".into()),
            },
            "-t" | "-T" | "-m" => match value().and_then(|v| v.parse::<usize>().ok()) {
                Some(n) => tail = Some(n),
                None => return bad(format!("logcat: {a} requires a count")),
            },
            "-b" | "--buffer" | "-f" | "-r" | "-n" | "--pid" => {
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
    let selected: Vec<&LogEntry> = fw.sys.logcat.entries.iter().filter(|e| passes(e)).collect();
    let start = tail.map(|n| selected.len().saturating_sub(n)).unwrap_or(0);
    let mut out = String::new();
    if !selected.is_empty() {
        out.push_str("--------- beginning of main\n");
    }
    for e in &selected[start..] {
        out.push_str(&format_entry(e, format));
    }
    ShellOutput::ok(out)
}

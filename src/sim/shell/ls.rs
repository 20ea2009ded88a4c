//! toybox `ls` (`toys/posix/ls.c`) as adb's non-tty shell runs it: one name per line, options
//! anywhere on the line (`ls DIR -ll -au`), `-a` listing `.` and `..`, and the long format with
//! toybox's column widths (each column as wide as its widest entry), `total` in KiB blocks and
//! `-ll` (`--full-time`) timestamps with nanoseconds and zone. Times are the phone's clock, never
//! host file times (see the architecture's invariant on observing); `-u`/`-c` therefore show the
//! same times as the default.

use crate::device::ShellOutput;
use crate::sim::framework::Framework;

use super::args::{self, Spec};
use super::fs::{resolve, unknown_option};

/// The option letters toybox's `ls` takes (without `w`'s argument and the long options).
const LETTERS: &str = "1ACFHLNRSUXZabcdfhiklmnopqrstux";

/// One row of a listing.
struct Entry {
    name: String,
    is_dir: bool,
    size: u64,
}

impl Entry {
    fn mode(&self) -> &'static str {
        if self.is_dir {
            "drwxrwx--x"
        } else {
            "-rw-rw----"
        }
    }

    fn links(&self) -> u64 {
        if self.is_dir {
            2
        } else {
            1
        }
    }

    fn shown_size(&self) -> u64 {
        if self.is_dir {
            4096
        } else {
            self.size
        }
    }

    /// Allocated space in KiB (4 KiB blocks), what `total` adds up.
    fn kib(&self) -> u64 {
        self.shown_size().div_ceil(4096) * 4
    }
}

pub fn ls(fw: &mut Framework, argv: &[String]) -> ShellOutput {
    let parsed = match args::parse(argv, Spec::new(LETTERS)) {
        Ok(parsed) => parsed,
        Err(c) => return unknown_option("ls", c),
    };
    let long = parsed.count('l') + parsed.count('n') + parsed.count('o') + parsed.count('g') > 0;
    let full_time = parsed.count('l') > 1;
    let dots = parsed.has('a');
    let hidden = dots || parsed.has('A');
    let as_file = parsed.has('d');
    let mut paths = parsed.operands;
    if paths.is_empty() {
        paths.push(".".into());
    }
    let now = fw.sys.clock.now();
    let stamp = if full_time {
        now.and_utc().format("%Y-%m-%d %H:%M:%S%.9f %z").to_string()
    } else {
        now.format("%Y-%m-%d %H:%M").to_string()
    };
    let mut out = ShellOutput::default();
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    for p in &paths {
        let Some(host) = resolve(fw, p) else {
            out.stderr
                .extend_from_slice(format!("ls: {p}: Permission denied\n").as_bytes());
            out.exit_code = 1;
            continue;
        };
        match std::fs::metadata(&host) {
            Err(_) => {
                out.stderr
                    .extend_from_slice(format!("ls: {p}: No such file or directory\n").as_bytes());
                out.exit_code = 1;
            }
            Ok(meta) if as_file || !meta.is_dir() => files.push(Entry {
                name: p.clone(),
                is_dir: meta.is_dir(),
                size: meta.len(),
            }),
            Ok(_) => dirs.push((p.clone(), host)),
        }
    }
    let show = |entries: &[Entry]| {
        if long {
            long_rows(entries, &stamp)
        } else {
            entries.iter().map(|e| format!("{}\n", e.name)).collect()
        }
    };
    // Files named on the line come first, then each directory under a heading when there are
    // several operands.
    out.stdout.extend_from_slice(show(&files).as_bytes());
    let headings = paths.len() > 1;
    for (i, (p, host)) in dirs.iter().enumerate() {
        let mut entries: Vec<Entry> = std::fs::read_dir(host)
            .map(|rd| {
                rd.flatten()
                    .filter_map(|e| {
                        let meta = e.metadata().ok()?;
                        Some(Entry {
                            name: e.file_name().to_string_lossy().into_owned(),
                            is_dir: meta.is_dir(),
                            size: meta.len(),
                        })
                    })
                    .filter(|e| hidden || !e.name.starts_with('.'))
                    .collect()
            })
            .unwrap_or_default();
        if dots {
            for name in [".", ".."] {
                entries.push(Entry {
                    name: name.into(),
                    is_dir: true,
                    size: 4096,
                });
            }
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        if headings {
            if i > 0 || !files.is_empty() {
                out.stdout.push(b'\n');
            }
            out.stdout.extend_from_slice(format!("{p}:\n").as_bytes());
        }
        if long {
            let total: u64 = entries.iter().map(Entry::kib).sum();
            out.stdout
                .extend_from_slice(format!("total {total}\n").as_bytes());
        }
        out.stdout.extend_from_slice(show(&entries).as_bytes());
    }
    out
}

/// The long format: `MODE LINKS OWNER GROUP SIZE DATE TIME NAME`, links and size right-aligned and
/// owner and group left-aligned to the widest in the listing (toybox pads each column by its
/// widest entry, one space between columns).
fn long_rows(entries: &[Entry], stamp: &str) -> String {
    const OWNER: &str = "root";
    const GROUP: &str = "sdcard_rw";
    let links = entries
        .iter()
        .map(|e| e.links().to_string().len())
        .max()
        .unwrap_or(0);
    let size = entries
        .iter()
        .map(|e| e.shown_size().to_string().len())
        .max()
        .unwrap_or(0);
    entries
        .iter()
        .map(|e| {
            format!(
                "{} {:>links$} {OWNER} {GROUP} {:>size$} {stamp} {}\n",
                e.mode(),
                e.links(),
                e.shown_size(),
                e.name
            )
        })
        .collect()
}

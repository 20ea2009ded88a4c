//! toybox `ls` (`toys/posix/ls.c`) as adb's non-tty shell runs it: one name per line, options
//! anywhere on the line (`ls DIR -ll -au`), `-a` listing `.` and `..`, and the long format with
//! toybox's column widths (each column as wide as its widest entry), `total` in KiB blocks and
//! `-ll` (`--full-time`) timestamps with nanoseconds and zone. Times are the phone's clock, never
//! host file times (see the architecture's invariant on observing): each file's last change as
//! [`crate::file_times`] keeps it; `-u`/`-c` show the same times as the default. `-R` lists each subdirectory after its parent under a `DIR:` heading.

use std::path::Path;

use chrono::NaiveDateTime;

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::args::{self, Spec};
use super::fs::{resolve, unknown_option};

/// The option letters toybox's `ls` takes (without `w`'s argument and the long options).
const LETTERS: &str = "1ACFHLNRSUXZabcdfhiklmnopqrstux";

/// Who owns every file in the phone's shared storage, as `ls -l` and `stat` show it.
pub const OWNER: (u32, &str) = (0, "root");
pub const GROUP: (u32, &str) = (1015, "sdcard_rw");

/// One row of a listing (also what `stat` reports of a file).
pub struct Entry {
    pub name: String,
    pub is_dir: bool,
    pub size: u64,
    /// The last change, on the phone's clock.
    pub time: NaiveDateTime,
}

impl Entry {
    pub fn mode(&self) -> &'static str {
        if self.is_dir {
            "drwxrwx--x"
        } else {
            "-rw-rw----"
        }
    }

    pub fn links(&self) -> u64 {
        if self.is_dir {
            2
        } else {
            1
        }
    }

    pub fn shown_size(&self) -> u64 {
        if self.is_dir {
            4096
        } else {
            self.size
        }
    }

    /// Allocated space in KiB (4 KiB blocks), what `total` adds up.
    pub fn kib(&self) -> u64 {
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
    // `-d` switches `-R` off, as toybox's ls_main does.
    let recursive = parsed.has('R') && !as_file;
    let mut paths = parsed.operands;
    if paths.is_empty() {
        paths.push(".".into());
    }
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
                time: modified(fw, p),
            }),
            Ok(_) => dirs.push((p.clone(), host)),
        }
    }
    let listing = Listing {
        long,
        full_time,
        hidden,
        dots,
        recursive,
    };
    // Files named on the line come first, then each directory under a heading when there are
    // several operands or `-R`; every heading after the first output is set off by a blank line.
    out.stdout
        .extend_from_slice(listing.rows(&files).as_bytes());
    let mut blank_before = !files.is_empty();
    let headings = paths.len() > 1 || listing.recursive;
    for (p, host) in &dirs {
        // toybox's dirtree_path drops an operand's trailing slash (`ls -R /sdcard/t/` heads
        // `/sdcard/t:`), then joins children with one slash.
        let label = match p.strip_suffix('/') {
            Some(trimmed) if !trimmed.is_empty() => trimmed,
            _ => p.as_str(),
        };
        listing.directory(
            fw,
            label,
            host,
            headings,
            &mut blank_before,
            &mut out.stdout,
        );
    }
    out
}

/// How entries are shown, shared by every directory of one `ls` run.
struct Listing {
    long: bool,
    full_time: bool,
    hidden: bool,
    dots: bool,
    recursive: bool,
}

impl Listing {
    fn rows(&self, entries: &[Entry]) -> String {
        if self.long {
            long_rows(entries, self.full_time)
        } else {
            entries.iter().map(|e| format!("{}\n", e.name)).collect()
        }
    }

    /// Lists one directory, then (with `-R`) each subdirectory in name order after the whole
    /// directory is shown, as toybox's `listfiles` recurses only after printing.
    fn directory(
        &self,
        fw: &Framework,
        label: &str,
        host: &Path,
        heading: bool,
        blank_before: &mut bool,
        stdout: &mut Vec<u8>,
    ) {
        let mut entries: Vec<Entry> = std::fs::read_dir(host)
            .map(|rd| {
                rd.flatten()
                    .filter_map(|e| {
                        let meta = e.metadata().ok()?;
                        let name = e.file_name().to_string_lossy().into_owned();
                        Some(Entry {
                            time: modified(fw, &format!("{label}/{name}")),
                            name,
                            is_dir: meta.is_dir(),
                            size: meta.len(),
                        })
                    })
                    .filter(|e| self.hidden || !e.name.starts_with('.'))
                    .collect()
            })
            .unwrap_or_default();
        if self.dots {
            for name in [".", ".."] {
                entries.push(Entry {
                    time: modified(fw, &format!("{label}/{name}")),
                    name: name.into(),
                    is_dir: true,
                    size: 4096,
                });
            }
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        if heading {
            if *blank_before {
                stdout.push(b'\n');
            }
            *blank_before = true;
            stdout.extend_from_slice(format!("{label}:\n").as_bytes());
        }
        if self.long {
            let total: u64 = entries.iter().map(Entry::kib).sum();
            stdout.extend_from_slice(format!("total {total}\n").as_bytes());
        }
        stdout.extend_from_slice(self.rows(&entries).as_bytes());
        if !self.recursive {
            return;
        }
        for e in entries
            .iter()
            .filter(|e| e.is_dir && e.name != "." && e.name != "..")
        {
            let child = if label.ends_with('/') {
                format!("{label}{}", e.name)
            } else {
                format!("{label}/{}", e.name)
            };
            self.directory(fw, &child, &host.join(&e.name), true, blank_before, stdout);
        }
    }
}

/// When the file at an Android path (relative ones from `/`, the adb shell's directory) last
/// changed, on the phone's clock; now for a file nothing stamped.
pub fn modified(fw: &Framework, path: &str) -> NaiveDateTime {
    fw.sys.file_times.modified(path, fw.sys.clock.now())
}

/// A file's time in toybox's `format_iso_time` form, which `ls --full-time` and `stat`'s
/// `%x`/`%y`/`%z` share.
pub fn full_time_stamp(time: NaiveDateTime) -> String {
    time.and_utc()
        .format("%Y-%m-%d %H:%M:%S%.9f %z")
        .to_string()
}

/// The long format: `MODE LINKS OWNER GROUP SIZE DATE TIME NAME`, links and size right-aligned and
/// owner and group left-aligned to the widest in the listing (toybox pads each column by its
/// widest entry, one space between columns).
fn long_rows(entries: &[Entry], full_time: bool) -> String {
    let (_, owner) = OWNER;
    let (_, group) = GROUP;
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
            let stamp = if full_time {
                full_time_stamp(e.time)
            } else {
                e.time.format("%Y-%m-%d %H:%M").to_string()
            };
            format!(
                "{} {:>links$} {owner} {group} {:>size$} {stamp} {}\n",
                e.mode(),
                e.links(),
                e.shown_size(),
                e.name
            )
        })
        .collect()
}

//! toybox `stat` (`toys/other/stat.c`): its default report, `-t` (terse) and `-c FORMAT` with
//! printf-style flags and widths on each `%` field (`%04a`, `%8U`). What a field shows comes from
//! the same file model `ls -l` uses (modes, owner, group, links, 4 KiB blocks, the phone's clock
//! for every time), so the two tools never disagree about a file. Storage here is one filesystem,
//! so every file has the same device number; inode numbers are derived from the phone path, since
//! host file metadata must not leak into what the phone shows (see the architecture's invariant on
//! observing) and a file must keep its number across snapshots.

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::fs::{normalize, reason, resolve};
use super::ls::{full_time_stamp, modified, Entry, GROUP, OWNER};

/// toybox's default file report (`%N` is the name as given, `%B` the 512-byte unit).
const DEFAULT_FORMAT: &str = "  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %B\t %F\n\
Device: %Dh/%dd\t Inode: %i\t Links: %h\t Device type: %t,%T\n\
Access: (%04a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\n\
Access: %x\nModify: %y\nChange: %z";

const TERSE_FORMAT: &str = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %o";

/// The device number of the phone's one storage filesystem.
const DEVICE: u64 = 0x35;

/// Why the command line was refused, in toybox's words.
#[derive(Debug, thiserror::Error)]
enum UsageError {
    #[error("Unknown option '{0}' (see \"stat --help\")")]
    Unknown(char),
    #[error("Missing argument to -c (see \"stat --help\")")]
    MissingFormat,
    #[error("Needs 1 argument (see \"stat --help\")")]
    NoFile,
    #[error("bad {0}")]
    BadField(String),
}

struct Options {
    format: String,
    files: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, UsageError> {
    let mut format = None;
    let mut terse = false;
    let mut files = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if let Some(f) = a.strip_prefix("--format=") {
            format = Some(f.to_string());
            continue;
        }
        let Some(letters) = a.strip_prefix('-').filter(|l| !l.is_empty()) else {
            files.push(a.clone());
            continue;
        };
        for (at, c) in letters.char_indices() {
            match c {
                'c' => {
                    let tail = &letters[at + 1..];
                    format = Some(if tail.is_empty() {
                        i += 1;
                        args.get(i - 1).cloned().ok_or(UsageError::MissingFormat)?
                    } else {
                        tail.to_string()
                    });
                    break;
                }
                't' => terse = true,
                // Files are never symbolic links' targets here, so following them changes nothing.
                'L' => {}
                other => return Err(UsageError::Unknown(other)),
            }
        }
    }
    if files.is_empty() {
        return Err(UsageError::NoFile);
    }
    let format =
        format.unwrap_or_else(|| if terse { TERSE_FORMAT } else { DEFAULT_FORMAT }.to_string());
    Ok(Options { format, files })
}

/// One `%` field's printf flags, width and precision (`-` left-aligns, `0` zero-fills).
#[derive(Default)]
struct Field {
    left: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

impl Field {
    fn pad(&self, text: &str, numeric: bool) -> String {
        let text = match self.precision.filter(|_| !numeric) {
            Some(p) => text.chars().take(p).collect(),
            None => text.to_string(),
        };
        let w = self.width;
        if self.left {
            format!("{text:<w$}")
        } else if self.zero && numeric {
            format!("{text:0>w$}")
        } else {
            format!("{text:>w$}")
        }
    }
}

/// What stat knows about one file.
struct Subject<'a> {
    name: &'a str,
    entry: Entry,
    inode: u64,
    stamp: String,
    seconds: i64,
}

impl Subject<'_> {
    /// Permission bits as octal digits (`660`, `771`), from the `ls` mode string.
    fn perms(&self) -> u32 {
        self.entry.mode()[1..]
            .chars()
            .enumerate()
            .filter(|(_, c)| *c != '-')
            .fold(0, |bits, (i, _)| bits | 1 << (8 - i))
    }

    fn raw_mode(&self) -> u32 {
        let kind = if self.entry.is_dir {
            0o040000
        } else {
            0o100000
        };
        kind | self.perms()
    }

    fn kind(&self) -> &'static str {
        match (self.entry.is_dir, self.entry.size) {
            (true, _) => "directory",
            (false, 0) => "regular empty file",
            (false, _) => "regular file",
        }
    }

    /// A field's text and whether it is a number (only numbers take `0` padding).
    fn field(&self, conversion: char) -> Option<(String, bool)> {
        let num = |n: u64| Some((n.to_string(), true));
        match conversion {
            'a' => Some((format!("{:o}", self.perms()), true)),
            'A' => Some((self.entry.mode().to_string(), false)),
            'b' => num(self.entry.kib() * 2),
            'B' => num(512),
            'd' => num(DEVICE),
            'D' => Some((format!("{DEVICE:x}"), true)),
            'f' => Some((format!("{:x}", self.raw_mode()), true)),
            'F' => Some((self.kind().to_string(), false)),
            'g' => num(GROUP.0.into()),
            'G' => Some((GROUP.1.to_string(), false)),
            'h' => num(self.entry.links()),
            'i' => num(self.inode),
            'n' | 'N' => Some((self.name.to_string(), false)),
            'o' => num(4096),
            's' => num(self.entry.shown_size()),
            't' | 'T' => num(0),
            'u' => num(OWNER.0.into()),
            'U' => Some((OWNER.1.to_string(), false)),
            'x' | 'y' | 'z' => Some((self.stamp.clone(), false)),
            'X' | 'Y' | 'Z' => Some((self.seconds.to_string(), true)),
            _ => None,
        }
    }

    /// Expands `format` for this file; an unknown conversion prints `?` as toybox does.
    fn render(&self, format: &str) -> Result<String, UsageError> {
        let mut out = String::new();
        let mut chars = format.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            if c != '%' || chars.peek().is_none() {
                out.push(c);
                continue;
            }
            if chars.next_if(|(_, n)| *n == '%').is_some() {
                out.push('%');
                continue;
            }
            let mut field = Field::default();
            while let Some((_, flag)) = chars.next_if(|(_, n)| "0'#-+ ".contains(*n)) {
                field.left |= flag == '-';
                field.zero |= flag == '0';
            }
            field.width = digits(&mut chars).unwrap_or(0);
            if chars.next_if(|(_, n)| *n == '.').is_some() {
                field.precision = Some(digits(&mut chars).unwrap_or(0));
            }
            let Some((_, conversion)) = chars.next() else {
                return Err(UsageError::BadField(format[start..].to_string()));
            };
            match self.field(conversion) {
                Some((text, numeric)) => out.push_str(&field.pad(&text, numeric)),
                None => out.push('?'),
            }
        }
        Ok(out)
    }
}

fn digits(chars: &mut std::iter::Peekable<std::str::CharIndices>) -> Option<usize> {
    let mut n: Option<usize> = None;
    while let Some((_, d)) = chars.next_if(|(_, c)| c.is_ascii_digit()) {
        n = Some(n.unwrap_or(0) * 10 + d.to_digit(10).unwrap_or(0) as usize);
    }
    n
}

/// A stable inode number for a phone path (FNV-1a), in the range ext4 and FUSE hand out.
fn inode(path: &str) -> u64 {
    let hash = path.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    100_000 + hash % 900_000
}

pub fn stat(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let opts = match parse(args) {
        Ok(o) => o,
        Err(e) => return ShellOutput::fail(format!("stat: {e}\n"), 1),
    };
    let mut out = ShellOutput::default();
    for name in &opts.files {
        let meta = resolve(fw, name)
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::PermissionDenied))
            .and_then(std::fs::metadata);
        let meta = match meta {
            Ok(m) => m,
            Err(e) => {
                out.stderr
                    .extend_from_slice(format!("stat: '{name}': {}\n", reason(&e)).as_bytes());
                out.exit_code = 1;
                continue;
            }
        };
        let time = modified(fw, name);
        let subject = Subject {
            name,
            entry: Entry {
                name: name.clone(),
                is_dir: meta.is_dir(),
                size: meta.len(),
                time,
            },
            inode: inode(&normalize(name)),
            stamp: full_time_stamp(time),
            seconds: time.and_utc().timestamp(),
        };
        match subject.render(&opts.format) {
            Ok(text) => {
                out.stdout.extend_from_slice(text.as_bytes());
                out.stdout.push(b'\n');
            }
            Err(e) => {
                out.stderr
                    .extend_from_slice(format!("stat: {e}\n").as_bytes());
                out.exit_code = 1;
                return out;
            }
        }
    }
    out
}

//! The virtual filesystem as the shell sees it (`cat`, `ls`, `rm`, `mkdir`, `touch`, redirections):
//! Android paths resolved under the phone's private data directory, with toybox's messages.

use std::path::PathBuf;

use crate::device::ShellOutput;
use crate::sim::framework::Framework;

/// Normalises an Android path (relative paths start at `/`, the adb shell's directory; `..` stops at
/// the root) and maps the external-storage aliases onto `/sdcard`.
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let joined = format!("/{}", parts.join("/"));
    for alias in [
        "/storage/emulated/0",
        "/storage/self/primary",
        "/mnt/sdcard",
    ] {
        if joined == alias {
            return "/sdcard".into();
        }
        if let Some(rest) = joined.strip_prefix(alias) {
            if rest.starts_with('/') {
                return format!("/sdcard{rest}");
            }
        }
    }
    joined
}

/// The host path backing an Android path.
pub fn resolve(fw: &Framework, path: &str) -> Option<PathBuf> {
    fw.sys.host_path(&normalize(path))
}

/// Why a file operation failed, worded as toybox words it.
fn reason(e: &std::io::Error) -> &'static str {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory",
        std::io::ErrorKind::PermissionDenied => "Permission denied",
        std::io::ErrorKind::AlreadyExists => "File exists",
        _ if e.raw_os_error() == Some(21) => "Is a directory",
        _ if e.raw_os_error() == Some(20) => "Not a directory",
        _ => "I/O error",
    }
}

pub fn read(fw: &Framework, path: &str) -> std::io::Result<Vec<u8>> {
    if normalize(path) == "/dev/null" {
        return Ok(Vec::new());
    }
    let host = resolve(fw, path)
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::PermissionDenied))?;
    std::fs::read(host)
}

/// Writes (or appends) a file; `/dev/null` swallows. The parent directory must exist, as for `sh`.
pub fn write(fw: &Framework, path: &str, data: &[u8], append: bool) -> Result<(), &'static str> {
    let norm = normalize(path);
    if norm == "/dev/null" {
        return Ok(());
    }
    let host = resolve(fw, &norm).ok_or("Permission denied")?;
    if host.is_dir() {
        return Err("Is a directory");
    }
    let result = if append {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&host)
            .and_then(|mut f| f.write_all(data))
    } else {
        std::fs::write(&host, data)
    };
    result.map_err(|e| reason(&e))
}

pub fn cat(fw: &mut Framework, args: &[String], stdin: &[u8]) -> ShellOutput {
    let files: Vec<&String> = args
        .iter()
        .filter(|a| !a.starts_with('-') || a.as_str() == "-")
        .collect();
    if files.is_empty() {
        return ShellOutput::ok(stdin.to_vec());
    }
    let mut out = ShellOutput::default();
    for f in files {
        if f == "-" {
            out.stdout.extend_from_slice(stdin);
            continue;
        }
        match resolve(fw, f) {
            Some(h) if h.is_dir() => {
                out.stderr
                    .extend_from_slice(format!("cat: {f}: Is a directory\n").as_bytes());
                out.exit_code = 1;
            }
            _ => match read(fw, f) {
                Ok(data) => out.stdout.extend_from_slice(&data),
                Err(e) => {
                    out.stderr
                        .extend_from_slice(format!("cat: {f}: {}\n", reason(&e)).as_bytes());
                    out.exit_code = 1;
                }
            },
        }
    }
    out
}

pub fn ls(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let mut long = false;
    let mut all = false;
    let mut paths = Vec::new();
    for a in args {
        if let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) {
            for c in flags.chars() {
                match c {
                    'l' => long = true,
                    'a' | 'A' => all = true,
                    '1' | 'd' | 'h' | 'n' | 'R' | 't' | 'r' | 'Z' | 's' => {}
                    other => {
                        return ShellOutput::fail(
                            format!("ls: Unknown option '{other}' (see \"ls --help\")\n"),
                            1,
                        );
                    }
                }
            }
        } else {
            paths.push(a.clone());
        }
    }
    if paths.is_empty() {
        paths.push("/".into());
    }
    let stamp = fw.sys.clock.now().format("%Y-%m-%d %H:%M").to_string();
    let mut out = ShellOutput::default();
    let many = paths.len() > 1;
    for (i, p) in paths.iter().enumerate() {
        let Some(host) = resolve(fw, p) else {
            out.stderr
                .extend_from_slice(format!("ls: {p}: Permission denied\n").as_bytes());
            out.exit_code = 1;
            continue;
        };
        let line = |name: &str, meta: &std::fs::Metadata| {
            if long {
                let (mode, links, group) = if meta.is_dir() {
                    ("drwxrwx--x", 2, "sdcard_rw")
                } else {
                    ("-rw-rw----", 1, "sdcard_rw")
                };
                let size = if meta.is_dir() { 4096 } else { meta.len() };
                format!("{mode} {links} root {group} {size:>8} {stamp} {name}\n")
            } else {
                format!("{name}\n")
            }
        };
        match std::fs::metadata(&host) {
            Err(_) => {
                out.stderr
                    .extend_from_slice(format!("ls: {p}: No such file or directory\n").as_bytes());
                out.exit_code = 1;
            }
            Ok(meta) if !meta.is_dir() => out.stdout.extend_from_slice(line(p, &meta).as_bytes()),
            Ok(_) => {
                let mut entries: Vec<(String, std::fs::Metadata)> = std::fs::read_dir(&host)
                    .map(|rd| {
                        rd.flatten()
                            .filter_map(|e| {
                                Some((
                                    e.file_name().to_string_lossy().into_owned(),
                                    e.metadata().ok()?,
                                ))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                if many {
                    if i > 0 {
                        out.stdout.push(b'\n');
                    }
                    out.stdout.extend_from_slice(format!("{p}:\n").as_bytes());
                }
                if long {
                    out.stdout
                        .extend_from_slice(format!("total {}\n", entries.len() * 8).as_bytes());
                }
                for (name, meta) in entries {
                    if name.starts_with('.') && !all {
                        continue;
                    }
                    out.stdout.extend_from_slice(line(&name, &meta).as_bytes());
                }
            }
        }
    }
    out
}

pub fn rm(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (mut recursive, mut force) = (false, false);
    let mut paths = Vec::new();
    for a in args {
        match a
            .strip_prefix('-')
            .filter(|f| !f.is_empty() && f.chars().all(|c| "rRfvi".contains(c)))
        {
            Some(flags) => {
                recursive |= flags.contains(['r', 'R']);
                force |= flags.contains('f');
            }
            None => paths.push(a.clone()),
        }
    }
    if paths.is_empty() {
        if force {
            return ShellOutput::ok(Vec::new());
        }
        return ShellOutput::fail("rm: Needs 1 argument (see \"rm --help\")\n", 1);
    }
    let mut out = ShellOutput::default();
    for p in paths {
        let norm = normalize(&p);
        let host = match resolve(fw, &norm) {
            Some(h) if norm != "/" => h,
            _ => {
                out.stderr
                    .extend_from_slice(format!("rm: {p}: Permission denied\n").as_bytes());
                out.exit_code = 1;
                continue;
            }
        };
        let result = match std::fs::symlink_metadata(&host) {
            Err(e) => {
                if force {
                    Ok(())
                } else {
                    Err(reason(&e))
                }
            }
            Ok(m) if m.is_dir() => {
                if recursive {
                    std::fs::remove_dir_all(&host).map_err(|e| reason(&e))
                } else {
                    Err("Is a directory")
                }
            }
            Ok(_) => std::fs::remove_file(&host).map_err(|e| reason(&e)),
        };
        if let Err(e) = result {
            out.stderr
                .extend_from_slice(format!("rm: {p}: {e}\n").as_bytes());
            out.exit_code = 1;
        }
    }
    out
}

pub fn mkdir(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let parents = args.iter().any(|a| a == "-p");
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if paths.is_empty() {
        return ShellOutput::fail("mkdir: Needs 1 argument (see \"mkdir --help\")\n", 1);
    }
    let mut out = ShellOutput::default();
    for p in paths {
        let Some(host) = resolve(fw, p) else {
            out.stderr
                .extend_from_slice(format!("mkdir: '{p}': Permission denied\n").as_bytes());
            out.exit_code = 1;
            continue;
        };
        let result = if parents {
            std::fs::create_dir_all(&host)
        } else {
            std::fs::create_dir(&host)
        };
        if let Err(e) = result {
            out.stderr
                .extend_from_slice(format!("mkdir: '{p}': {}\n", reason(&e)).as_bytes());
            out.exit_code = 1;
        }
    }
    out
}

pub fn touch(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if paths.is_empty() {
        return ShellOutput::fail("touch: Needs 1 argument (see \"touch --help\")\n", 1);
    }
    let mut out = ShellOutput::default();
    for p in paths {
        if let Err(e) = write(fw, p, &[], true) {
            out.stderr
                .extend_from_slice(format!("touch: '{p}': {e}\n").as_bytes());
            out.exit_code = 1;
        }
    }
    out
}

//! The virtual filesystem as the shell sees it (`cat`, `ls`, `rm`, `mkdir`, `touch`, redirections):
//! Android paths resolved under the phone's private data directory, with toybox's messages.

use std::path::PathBuf;

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::args::{self, Spec};

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
        // The storage's backing folder, where AndroidWorld reaches OsmAnd's files.
        "/data/media/0",
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
pub fn reason(e: &std::io::Error) -> &'static str {
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

/// The file at `path` changed now (its time for `ls -l`, [`crate::file_times`]).
fn stamp(fw: &mut Framework, path: &str) {
    let now = fw.sys.clock.now();
    fw.sys.file_times.stamp(path, now);
}

/// Writes (or appends) a file; `/dev/null` swallows. The parent directory must exist, as for `sh`.
pub fn write(
    fw: &mut Framework,
    path: &str,
    data: &[u8],
    append: bool,
) -> Result<(), &'static str> {
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
    result.map_err(|e| reason(&e))?;
    stamp(fw, &norm);
    Ok(())
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
        match result {
            Ok(()) => fw.sys.file_times.forget(&norm),
            Err(e) => {
                out.stderr
                    .extend_from_slice(format!("rm: {p}: {e}\n").as_bytes());
                out.exit_code = 1;
            }
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
        // The folders this makes (with `-p`, every missing one up to the operand) get its time.
        let norm = normalize(p);
        let made: Vec<String> = std::iter::successors(Some(norm.as_str()), |d| {
            d.rsplit_once('/')
                .map(|(parent, _)| parent)
                .filter(|d| !d.is_empty())
        })
        .take_while(|d| resolve(fw, d).is_some_and(|h| !h.exists()))
        .map(str::to_string)
        .collect();
        let result = if parents {
            std::fs::create_dir_all(&host)
        } else {
            std::fs::create_dir(&host)
        };
        match result {
            Ok(()) => made.iter().for_each(|d| stamp(fw, d)),
            Err(e) => {
                out.stderr
                    .extend_from_slice(format!("mkdir: '{p}': {}\n", reason(&e)).as_bytes());
                out.exit_code = 1;
            }
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

/// `mkdir -p` for the shell's own bookkeeping files.
pub fn mkdir_all(fw: &Framework, path: &str) -> std::io::Result<()> {
    let host = resolve(fw, path)
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::PermissionDenied))?;
    std::fs::create_dir_all(host)
}

/// Removes a file (missing is fine).
pub fn remove(fw: &Framework, path: &str) -> std::io::Result<()> {
    let host = resolve(fw, path)
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::PermissionDenied))?;
    match std::fs::remove_file(host) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        r => r,
    }
}

/// Splits toybox-style flags (`-rf`, `-a`, anywhere on the line) from operands; `--` ends flags.
fn flags_and_operands(
    args: &[String],
    allowed: &'static str,
) -> Result<(String, Vec<String>), char> {
    let parsed = args::parse(args, Spec::new(allowed))?;
    Ok((parsed.flags.into_iter().collect(), parsed.operands))
}

pub fn unknown_option(tool: &str, c: char) -> ShellOutput {
    ShellOutput::fail(
        format!("{tool}: Unknown option '{c}' (see \"{tool} --help\")\n"),
        1,
    )
}

/// Where `src` lands for `cp`/`mv`: inside `dest` when it is a directory (`DIR/.` names the
/// directory itself, so `cp -a A/. B/` copies A's contents into B).
fn destination(fw: &Framework, src: &str, dest: &str) -> Option<std::path::PathBuf> {
    let dest_host = resolve(fw, dest)?;
    if dest_host.is_dir() && src.trim_end_matches('/').rsplit('/').next() == Some(".") {
        Some(dest_host)
    } else if dest_host.is_dir() {
        let name = normalize(src).rsplit('/').next().unwrap_or("").to_string();
        Some(dest_host.join(name))
    } else {
        Some(dest_host)
    }
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    if meta.is_dir() {
        std::fs::create_dir_all(to)?;
        let mut entries: Vec<_> = std::fs::read_dir(from)?.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
        Ok(())
    } else if meta.file_type().is_symlink() {
        let target = std::fs::read_link(from)?;
        let _ = std::fs::remove_file(to);
        std::os::unix::fs::symlink(target, to)
    } else {
        std::fs::copy(from, to).map(|_| ())
    }
}

/// `cp [-rRafpn] SRC… DEST` and `mv [-fin] SRC… DEST`, with toybox's messages.
fn copy_or_move(fw: &mut Framework, args: &[String], tool: &str) -> ShellOutput {
    let allowed = if tool == "mv" {
        "finTv"
    } else {
        "rRafpnPLdHvilsuT"
    };
    let (flags, operands) = match flags_and_operands(args, allowed) {
        Ok(x) => x,
        Err(c) => return unknown_option(tool, c),
    };
    let recursive = tool == "mv" || flags.contains(['r', 'R', 'a']);
    let no_clobber = flags.contains('n');
    if operands.len() < 2 {
        return ShellOutput::fail(
            format!("{tool}: Needs 2 arguments (see \"{tool} --help\")\n"),
            1,
        );
    }
    let (dest, sources) = operands.split_last().expect("two operands");
    let dest_is_dir = resolve(fw, dest).is_some_and(|h| h.is_dir());
    if sources.len() > 1 && !dest_is_dir {
        return ShellOutput::fail(format!("{tool}: '{dest}' not directory\n"), 1);
    }
    let mut out = ShellOutput::default();
    for src in sources {
        let fail = |out: &mut ShellOutput, msg: String| {
            out.stderr
                .extend_from_slice(format!("{tool}: {msg}\n").as_bytes());
            out.exit_code = 1;
        };
        let (Some(from), Some(to)) = (resolve(fw, src), destination(fw, src, dest)) else {
            fail(&mut out, format!("bad '{src}': Permission denied"));
            continue;
        };
        let meta = match std::fs::symlink_metadata(&from) {
            Ok(m) => m,
            Err(e) => {
                fail(&mut out, format!("bad '{src}': {}", reason(&e)));
                continue;
            }
        };
        if meta.is_dir() && !recursive {
            fail(&mut out, format!("Skipped dir '{src}'"));
            continue;
        }
        if to.starts_with(&from) && from != to {
            fail(&mut out, format!("'{src}' is '{dest}'"));
            continue;
        }
        if no_clobber && to.exists() {
            continue;
        }
        let result = if tool == "mv" {
            if to.is_dir() && !meta.is_dir() {
                Err(std::io::Error::from_raw_os_error(21))
            } else {
                std::fs::rename(&from, &to)
            }
        } else {
            copy_tree(&from, &to)
        };
        match (result, android_path(fw, &to)) {
            (Err(e), _) => fail(&mut out, format!("bad '{src}': {}", reason(&e))),
            // A move keeps the file's time; a copy is a new file.
            (Ok(()), Some(to)) if tool == "mv" => fw.sys.file_times.moved(&normalize(src), &to),
            (Ok(()), Some(to)) => stamp(fw, &to),
            (Ok(()), None) => {}
        }
    }
    out
}

pub fn cp(fw: &mut Framework, args: &[String]) -> ShellOutput {
    copy_or_move(fw, args, "cp")
}

pub fn mv(fw: &mut Framework, args: &[String]) -> ShellOutput {
    copy_or_move(fw, args, "mv")
}

/// The Android path a host path inside the phone's root stands for.
fn android_path(fw: &Framework, host: &std::path::Path) -> Option<String> {
    let rel = host.strip_prefix(&fw.sys.root).ok()?;
    Some(format!("/{}", rel.to_string_lossy()))
}

/// `ln [-sfn] TARGET [LINK]`. Symbolic links are made to point at the target's place inside the
/// phone's root, so following one can never leave the phone's filesystem.
pub fn ln(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (flags, operands) = match flags_and_operands(args, "sfnvLT") {
        Ok(x) => x,
        Err(c) => return unknown_option("ln", c),
    };
    let symbolic = flags.contains('s');
    let force = flags.contains('f');
    let (target, link) = match operands.as_slice() {
        [t] => (
            t.clone(),
            normalize(t).rsplit('/').next().unwrap_or("").to_string(),
        ),
        [t, l] => (t.clone(), l.clone()),
        [] => return ShellOutput::fail("ln: Needs 1 argument (see \"ln --help\")\n", 1),
        _ => {
            return ShellOutput::fail(
                format!("ln: '{}' not a directory\n", operands[operands.len() - 1]),
                1,
            )
        }
    };
    let link_path = match resolve(fw, &link) {
        Some(h) if h.is_dir() && !flags.contains('n') => {
            format!(
                "{}/{}",
                normalize(&link),
                normalize(&target).rsplit('/').next().unwrap_or("")
            )
        }
        _ => normalize(&link),
    };
    let target_android = if target.starts_with('/') {
        normalize(&target)
    } else {
        let dir = link_path.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        normalize(&format!("{dir}/{target}"))
    };
    let (Some(link_host), Some(target_host)) =
        (resolve(fw, &link_path), resolve(fw, &target_android))
    else {
        return ShellOutput::fail(
            format!(
                "ln: cannot create {} link from '{target}' to '{link}': Permission denied\n",
                if symbolic { "symbolic" } else { "hard" }
            ),
            1,
        );
    };
    if force {
        let _ = std::fs::remove_file(&link_host);
    }
    let result = if symbolic {
        std::os::unix::fs::symlink(&target_host, &link_host)
    } else {
        std::fs::hard_link(&target_host, &link_host)
    };
    match result {
        Ok(()) => ShellOutput::ok(Vec::new()),
        Err(e) => ShellOutput::fail(
            format!(
                "ln: cannot create {} link from '{target}' to '{link}': {}\n",
                if symbolic { "symbolic" } else { "hard" },
                reason(&e)
            ),
            1,
        ),
    }
}

/// `readlink [-f|-e|-m] PATH`: a link's target (or with `-f` the canonical path), as Android paths.
pub fn readlink(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (flags, operands) = match flags_and_operands(args, "femnqvz") {
        Ok(x) => x,
        Err(c) => return unknown_option("readlink", c),
    };
    let Some(path) = operands.first() else {
        return ShellOutput::fail("readlink: Needs 1 argument (see \"readlink --help\")\n", 1);
    };
    let Some(host) = resolve(fw, path) else {
        return ShellOutput {
            exit_code: 1,
            ..ShellOutput::default()
        };
    };
    let answer = if flags.contains(['f', 'e', 'm']) {
        match std::fs::canonicalize(&host) {
            Ok(c) => android_path(fw, &c),
            Err(_) if flags.contains('f') || flags.contains('m') => Some(normalize(path)),
            Err(_) => None,
        }
    } else {
        std::fs::read_link(&host)
            .ok()
            .and_then(|t| android_path(fw, &t))
    };
    match answer {
        Some(a) => ShellOutput::ok(format!("{a}\n")),
        None => ShellOutput {
            exit_code: 1,
            ..ShellOutput::default()
        },
    }
}

pub fn rmdir(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (_, operands) = match flags_and_operands(args, "p") {
        Ok(x) => x,
        Err(c) => return unknown_option("rmdir", c),
    };
    if operands.is_empty() {
        return ShellOutput::fail("rmdir: Needs 1 argument (see \"rmdir --help\")\n", 1);
    }
    let mut out = ShellOutput::default();
    for p in operands {
        let result = match resolve(fw, &p) {
            Some(h) if normalize(&p) != "/" => std::fs::remove_dir(h).map_err(|e| {
                if e.raw_os_error() == Some(39) {
                    "Directory not empty"
                } else {
                    reason(&e)
                }
            }),
            _ => Err("Permission denied"),
        };
        if let Err(e) = result {
            out.stderr
                .extend_from_slice(format!("rmdir: {p}: {e}\n").as_bytes());
            out.exit_code = 1;
        }
    }
    out
}

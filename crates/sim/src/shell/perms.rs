//! File modes and security labels: `chmod` and `restorecon`, with toybox's option parsing.

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::args::{self, Spec};
use super::fs::{reason, resolve, unknown_option};

/// A `chmod` mode (octal, or `[ugoa]*[+-=][rwxXst]*` clauses) applied to an old mode.
fn apply_mode(spec: &str, old: u32, is_dir: bool) -> Option<u32> {
    if spec.chars().all(|c| c.is_digit(8)) && !spec.is_empty() && spec.len() <= 4 {
        return u32::from_str_radix(spec, 8).ok();
    }
    let mut mode = old & 0o7777;
    for clause in spec.split(',') {
        let who_end = clause.find(['+', '-', '=']).unwrap_or(clause.len());
        let (who, rest) = clause.split_at(who_end);
        if rest.is_empty() || !who.chars().all(|c| "ugoa".contains(c)) {
            return None;
        }
        let mask = if who.is_empty() || who.contains('a') {
            0o777
        } else {
            who.chars().fold(0, |m, c| {
                m | match c {
                    'u' => 0o700,
                    'g' => 0o070,
                    _ => 0o007,
                }
            })
        };
        let op = rest.chars().next()?;
        let perms = &rest[1..];
        let mut bits = 0;
        for c in perms.chars() {
            bits |= match c {
                'r' => 0o444,
                'w' => 0o222,
                'x' => 0o111,
                'X' if is_dir || old & 0o111 != 0 => 0o111,
                'X' => 0,
                's' | 't' => 0,
                _ => return None,
            };
        }
        let bits = bits & mask;
        mode = match op {
            '+' => mode | bits,
            '-' => mode & !bits,
            _ => (mode & !mask) | bits,
        };
    }
    Some(mode)
}

/// `chmod [-Rcfv] MODE FILE…`, options anywhere (`chmod 777 -R DIR`); an unknown option letter makes
/// the argument the mode (`chmod -w FILE`), as toybox's `?`. The mode is kept on the file; the
/// phone's own access to it is not taken away (the framework still reads and writes app files
/// whatever their mode).
pub fn chmod(fw: &mut Framework, args: &[String]) -> ShellOutput {
    use std::os::unix::fs::PermissionsExt;
    let spec = Spec {
        pass_unknown: true,
        ..Spec::new("cvfR")
    };
    let parsed = match args::parse(args, spec) {
        Ok(parsed) => parsed,
        Err(c) => return unknown_option("chmod", c),
    };
    let recursive = parsed.has('R');
    let quiet = parsed.has('f');
    let (spec, files) = match parsed.operands.split_first() {
        Some((spec, files)) if !files.is_empty() => (spec, files),
        _ => return ShellOutput::fail("chmod: Needs 2 arguments (see \"chmod --help\")\n", 1),
    };
    if apply_mode(spec, 0o644, false).is_none() {
        return ShellOutput::fail(format!("chmod: bad mode '{spec}'\n"), 1);
    }
    let mut out = ShellOutput::default();
    let fail = |out: &mut ShellOutput, message: String| {
        if !quiet {
            out.stderr.extend_from_slice(message.as_bytes());
        }
        out.exit_code = 1;
    };
    for f in files {
        let Some(host) = resolve(fw, f) else {
            fail(&mut out, format!("chmod: {f}: Permission denied\n"));
            continue;
        };
        let mut targets = vec![host.clone()];
        if recursive && host.is_dir() {
            let mut stack = vec![host];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                    // Symbolic links found while recursing are left alone, as toybox does.
                    match e.file_type() {
                        Ok(t) if t.is_symlink() => continue,
                        Ok(t) if t.is_dir() => stack.push(e.path()),
                        _ => {}
                    }
                    targets.push(e.path());
                }
            }
        }
        for t in targets {
            match std::fs::metadata(&t) {
                Ok(meta) => {
                    let floor = if meta.is_dir() { 0o700 } else { 0o600 };
                    let mode =
                        apply_mode(spec, meta.permissions().mode(), meta.is_dir()).unwrap_or(0o644);
                    let _ =
                        std::fs::set_permissions(&t, std::fs::Permissions::from_mode(mode | floor));
                }
                Err(e) => fail(&mut out, format!("chmod: {f}: {}\n", reason(&e))),
            }
        }
    }
    out
}

/// `restorecon [-DFnRrv] FILE…`: the phone keeps no SELinux labels that could drift, so every
/// file already has its default context and nothing is relabelled (nothing to print even with
/// `-v`); a file that does not exist fails as `selinux_android_restorecon` does.
pub fn restorecon(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let parsed = match args::parse(args, Spec::new("DFnRrv")) {
        Ok(parsed) => parsed,
        Err(c) => return unknown_option("restorecon", c),
    };
    if parsed.operands.is_empty() {
        return ShellOutput::fail(
            "restorecon: Needs 1 argument (see \"restorecon --help\")\n",
            1,
        );
    }
    let mut out = ShellOutput::default();
    for f in &parsed.operands {
        let exists = resolve(fw, f).map(|h| std::fs::symlink_metadata(h));
        let problem = match exists {
            Some(Ok(_)) => continue,
            Some(Err(e)) => reason(&e),
            None => "Permission denied",
        };
        out.stderr.extend_from_slice(
            format!("restorecon: restorecon failed: {f}: {problem}\n").as_bytes(),
        );
        out.exit_code = 1;
    }
    out
}

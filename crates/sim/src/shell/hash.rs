//! toybox's `md5sum`/`sha1sum`/`sha256sum` (`toys/lsb/md5sum.c`): `HASH  NAME` per input (`-` for
//! stdin, read when no file is named), `-b` for the hash alone, and `-c` checking `HASH NAME`
//! lines (`NAME: OK`/`NAME: FAILED`, `-s` silent). An unreadable input is reported and skipped
//! with exit status 1.

use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256};

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::fs;

/// The hash a tool name selects.
#[derive(Clone, Copy)]
pub enum Algorithm {
    Md5,
    Sha1,
    Sha256,
}

impl Algorithm {
    pub fn from_tool(tool: &str) -> Option<Algorithm> {
        match tool {
            "md5sum" => Some(Algorithm::Md5),
            "sha1sum" => Some(Algorithm::Sha1),
            "sha256sum" => Some(Algorithm::Sha256),
            _ => None,
        }
    }

    fn hex(self, data: &[u8]) -> String {
        let bytes: Vec<u8> = match self {
            Algorithm::Md5 => Md5::digest(data).to_vec(),
            Algorithm::Sha1 => Sha1::digest(data).to_vec(),
            Algorithm::Sha256 => Sha256::digest(data).to_vec(),
        };
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// Reads one input; `-` is stdin. The error is toybox's `perror` text.
fn read(fw: &Framework, name: &str, stdin: &[u8]) -> Result<Vec<u8>, &'static str> {
    if name == "-" {
        return Ok(stdin.to_vec());
    }
    if fs::resolve(fw, name).is_some_and(|h| h.is_dir()) {
        return Err("Is a directory");
    }
    fs::read(fw, name).map_err(|e| fs::reason(&e))
}

pub fn run(
    fw: &mut Framework,
    tool: &str,
    algo: Algorithm,
    args: &[String],
    stdin: &[u8],
) -> ShellOutput {
    let (mut brief, mut check, mut silent) = (false, false, false);
    let mut files = Vec::new();
    for a in args {
        match a.strip_prefix('-').filter(|l| !l.is_empty()) {
            Some(letters) => {
                for c in letters.chars() {
                    match c {
                        'b' => brief = true,
                        'c' => check = true,
                        's' => silent = true,
                        other => {
                            return ShellOutput::fail(
                                format!(
                                    "{tool}: Unknown option '{other}' (see \"{tool} --help\")\n"
                                ),
                                1,
                            )
                        }
                    }
                }
            }
            None => files.push(a.clone()),
        }
    }
    if brief && check {
        return ShellOutput::fail(
            format!("{tool}: No 'b' with 'c' (see \"{tool} --help\")\n"),
            1,
        );
    }
    if silent && !check {
        return ShellOutput::fail(format!("{tool}: -s only with -c\n"), 1);
    }
    if files.is_empty() {
        files.push("-".into());
    }
    let mut out = ShellOutput::default();
    let complain = |out: &mut ShellOutput, text: String| {
        out.stderr
            .extend_from_slice(format!("{tool}: {text}\n").as_bytes());
        out.exit_code = 1;
    };
    for name in &files {
        let data = match read(fw, name, stdin) {
            Ok(d) => d,
            Err(why) => {
                complain(&mut out, format!("{name}: {why}"));
                continue;
            }
        };
        if !check {
            let hash = algo.hex(&data);
            let line = if brief {
                format!("{hash}\n")
            } else {
                format!("{hash}  {name}\n")
            };
            out.stdout.extend_from_slice(line.as_bytes());
            continue;
        }
        let text = String::from_utf8_lossy(&data);
        let mut saw_line = false;
        for line in text.lines() {
            // `HASH NAME`: the hash, a run of blanks, then the name.
            let Some((want, target)) = line
                .split_once(char::is_whitespace)
                .map(|(h, rest)| (h, rest.trim_start()))
                .filter(|(h, t)| !h.is_empty() && !t.is_empty())
            else {
                complain(&mut out, format!("bad line {line}"));
                continue;
            };
            saw_line = true;
            let got = match read(fw, target, stdin) {
                Ok(d) => algo.hex(&d),
                Err(why) => {
                    complain(&mut out, format!("{target}: {why}"));
                    String::new()
                }
            };
            let ok = got.eq_ignore_ascii_case(want);
            if !ok {
                out.exit_code = 1;
            }
            if !silent {
                let verdict = if ok { "OK" } else { "FAILED" };
                out.stdout
                    .extend_from_slice(format!("{target}: {verdict}\n").as_bytes());
            }
        }
        if !saw_line {
            complain(&mut out, format!("{name}: no lines"));
        }
    }
    out
}

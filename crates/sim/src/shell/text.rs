//! Text filters for pipelines (`echo`, `head`, `tail`, `wc`), as toybox implements them (`grep`
//! has its own module).

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::fs;

pub fn echo(args: &[String]) -> ShellOutput {
    let mut newline = true;
    let mut escapes = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match a.as_str() {
            "-n" => newline = false,
            "-e" => escapes = true,
            "-E" => escapes = false,
            "-ne" | "-en" => {
                newline = false;
                escapes = true;
            }
            _ => break,
        }
        i += 1;
    }
    let mut s = args[i..].join(" ");
    if escapes {
        s = s
            .replace("\\n", "\n")
            .replace("\\t", "\t")
            .replace("\\\\", "\\");
    }
    if newline {
        s.push('\n');
    }
    ShellOutput::ok(s)
}

/// Input lines of the named files, or stdin when none are named.
fn inputs(
    fw: &Framework,
    files: &[String],
    stdin: &[u8],
    tool: &str,
    out: &mut ShellOutput,
) -> Vec<u8> {
    if files.is_empty() {
        return stdin.to_vec();
    }
    let mut data = Vec::new();
    for f in files {
        if f == "-" {
            data.extend_from_slice(stdin);
            continue;
        }
        match fs::read(fw, f) {
            Ok(d) => data.extend_from_slice(&d),
            Err(_) => {
                out.stderr.extend_from_slice(
                    format!("{tool}: {f}: No such file or directory\n").as_bytes(),
                );
                out.exit_code = 2;
            }
        }
    }
    data
}

/// `head`/`tail` with `-n N`, `-N`, `-n +N` (tail) and `-c N`.
pub fn head_tail(fw: &mut Framework, args: &[String], stdin: &[u8], head: bool) -> ShellOutput {
    let tool = if head { "head" } else { "tail" };
    let mut n: i64 = 10;
    let mut from_start = false;
    let mut bytes = false;
    let mut files = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let value = if a == "-n" || a == "-c" {
            bytes = a == "-c";
            let Some(v) = args.get(i) else {
                return ShellOutput::fail(format!("{tool}: Missing argument to {}\n", &a[1..]), 1);
            };
            i += 1;
            Some(v.clone())
        } else if let Some(v) = a.strip_prefix("-n") {
            Some(v.to_string())
        } else if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) {
            Some(a[1..].to_string())
        } else if a == "-f" {
            None
        } else {
            files.push(a.clone());
            None
        };
        if let Some(v) = value {
            from_start = v.starts_with('+');
            match v.trim_start_matches(['+', '-']).parse::<i64>() {
                Ok(v) => n = v,
                Err(_) => return ShellOutput::fail(format!("{tool}: Invalid number '{v}'\n"), 1),
            }
        }
    }
    let mut out = ShellOutput::default();
    let data = inputs(fw, &files, stdin, tool, &mut out);
    if out.exit_code != 0 {
        out.exit_code = 1;
    }
    let n = n.max(0) as usize;
    if bytes {
        let slice = if head {
            &data[..n.min(data.len())]
        } else {
            &data[data.len().saturating_sub(n)..]
        };
        out.stdout.extend_from_slice(slice);
        return out;
    }
    let lines: Vec<&[u8]> = data.split_inclusive(|b| *b == b'\n').collect();
    let chosen: &[&[u8]] = if head {
        &lines[..n.min(lines.len())]
    } else if from_start {
        &lines[n.saturating_sub(1).min(lines.len())..]
    } else {
        &lines[lines.len().saturating_sub(n)..]
    };
    for l in chosen {
        out.stdout.extend_from_slice(l);
    }
    out
}

pub fn wc(fw: &mut Framework, args: &[String], stdin: &[u8]) -> ShellOutput {
    let (mut l, mut w, mut c) = (false, false, false);
    let mut files = Vec::new();
    for a in args {
        match a.strip_prefix('-').filter(|f| !f.is_empty()) {
            Some(flags) => {
                l |= flags.contains('l');
                w |= flags.contains('w');
                c |= flags.contains(['c', 'm']);
            }
            None => files.push(a.clone()),
        }
    }
    if !l && !w && !c {
        (l, w, c) = (true, true, true);
    }
    let mut out = ShellOutput::default();
    let data = inputs(fw, &files, stdin, "wc", &mut out);
    let text = String::from_utf8_lossy(&data);
    let mut fields = Vec::new();
    if l {
        fields.push(data.iter().filter(|b| **b == b'\n').count());
    }
    if w {
        fields.push(text.split_whitespace().count());
    }
    if c {
        fields.push(data.len());
    }
    let line = if fields.len() == 1 {
        fields[0].to_string()
    } else {
        fields
            .iter()
            .map(|f| format!("{f:>7}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    out.stdout.extend_from_slice(format!("{line}\n").as_bytes());
    out
}

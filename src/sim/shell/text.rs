//! Text filters for pipelines (`echo`, `grep`, `head`, `tail`, `wc`), as toybox implements them.

use regex::{Regex, RegexBuilder};

use crate::device::ShellOutput;
use crate::sim::framework::Framework;

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

/// Translates a POSIX basic regular expression into the `regex` crate's syntax.
fn bre_to_ere(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n @ ('|' | '+' | '?' | '(' | ')' | '{' | '}')) => out.push(n),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push_str("\\\\"),
            },
            '+' | '?' | '|' | '(' | ')' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

pub fn grep(fw: &mut Framework, args: &[String], stdin: &[u8]) -> ShellOutput {
    let (
        mut ignore,
        mut invert,
        mut extended,
        mut count,
        mut fixed,
        mut only,
        mut quiet,
        mut word,
        mut numbers,
    ) = (
        false, false, false, false, false, false, false, false, false,
    );
    let mut patterns: Vec<String> = Vec::new();
    let mut rest: Vec<String> = Vec::new();
    let mut i = 0;
    let mut options_done = false;
    while let Some(a) = args.get(i) {
        i += 1;
        if !options_done && a == "--" {
            options_done = true;
            continue;
        }
        if !options_done && a == "-e" {
            match args.get(i) {
                Some(p) => patterns.push(p.clone()),
                None => return ShellOutput::fail("grep: Missing argument to -e\n", 2),
            }
            i += 1;
            continue;
        }
        if let Some(flags) = a
            .strip_prefix('-')
            .filter(|f| !f.is_empty() && !options_done)
        {
            for c in flags.chars() {
                match c {
                    'i' => ignore = true,
                    'v' => invert = true,
                    'E' => extended = true,
                    'c' => count = true,
                    'F' => fixed = true,
                    'o' => only = true,
                    'q' | 's' => quiet = c == 'q' || quiet,
                    'w' => word = true,
                    'n' => numbers = true,
                    'a' | 'H' | 'h' | 'I' => {}
                    other => {
                        return ShellOutput::fail(
                            format!("grep: Unknown option '{other}' (see \"grep --help\")\n"),
                            2,
                        )
                    }
                }
            }
            continue;
        }
        rest.push(a.clone());
    }
    if patterns.is_empty() {
        if rest.is_empty() {
            return ShellOutput::fail("grep: Needs 1 argument (see \"grep --help\")\n", 2);
        }
        patterns.push(rest.remove(0));
    }
    let mut sources = Vec::new();
    for p in &patterns {
        let mut s = if fixed {
            regex::escape(p)
        } else if extended {
            p.clone()
        } else {
            bre_to_ere(p)
        };
        if word {
            s = format!(r"\b(?:{s})\b");
        }
        sources.push(format!("(?:{s})"));
    }
    let re: Regex = match RegexBuilder::new(&sources.join("|"))
        .case_insensitive(ignore)
        .size_limit(1 << 20)
        .build()
    {
        Ok(re) => re,
        Err(_) => {
            return ShellOutput::fail(format!("grep: bad regex '{}'\n", patterns.join("|")), 2)
        }
    };
    let mut out = ShellOutput::default();
    let data = inputs(fw, &rest, stdin, "grep", &mut out);
    let text = String::from_utf8_lossy(&data);
    let mut matched = 0usize;
    for (n, line) in text.lines().enumerate() {
        let hit = re.is_match(line) != invert;
        if !hit {
            continue;
        }
        matched += 1;
        if count || quiet {
            continue;
        }
        let prefix = if numbers {
            format!("{}:", n + 1)
        } else {
            String::new()
        };
        if only && !invert {
            for m in re.find_iter(line).filter(|m| !m.as_str().is_empty()) {
                out.stdout
                    .extend_from_slice(format!("{prefix}{}\n", m.as_str()).as_bytes());
            }
        } else {
            out.stdout
                .extend_from_slice(format!("{prefix}{line}\n").as_bytes());
        }
    }
    if count {
        out.stdout
            .extend_from_slice(format!("{matched}\n").as_bytes());
    }
    if out.exit_code == 0 {
        out.exit_code = if matched > 0 { 0 } else { 1 };
    }
    out
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

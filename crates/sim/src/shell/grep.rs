//! toybox `grep` (`toys/posix/grep.c`): one pass per input with its own max count (`-m`), a
//! `NAME:` prefix when more than one input is named (`-H`/`-h` force it on or off), `-c` counting
//! the lines that passed (capped by `-m`), and `-o`/`-v` walking each line's matches as toybox
//! does, so `-o -v` prints the text between matches. Exit status 0 on a match, 1 on none, 2 when
//! any input could not be read.

use regex::{Regex, RegexBuilder};

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::fs;

/// The name toybox gives stdin in prefixes and `-c` lines.
const STDIN_NAME: &str = "(standard input)";

/// Options after parsing; patterns and inputs are kept apart.
#[derive(Default)]
struct Options {
    ignore: bool,
    invert: bool,
    extended: bool,
    count: bool,
    fixed: bool,
    only: bool,
    quiet: bool,
    silent: bool,
    word: bool,
    numbers: bool,
    with_name: Option<bool>,
    max: Option<u64>,
    patterns: Vec<String>,
    inputs: Vec<String>,
}

/// Why the command line was refused, worded as toybox's `help_exit`/`error_exit` word it.
#[derive(Debug, thiserror::Error)]
enum UsageError {
    #[error("Unknown option '{0}' (see \"grep --help\")")]
    Unknown(char),
    #[error("Missing argument to -{0} (see \"grep --help\")")]
    MissingArgument(char),
    #[error("not integer: {0}")]
    NotInteger(String),
    #[error("no REGEX")]
    NoRegex,
}

fn parse(args: &[String]) -> Result<Options, UsageError> {
    let mut o = Options::default();
    let mut rest = Vec::new();
    let mut options_done = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if options_done || a == "-" || !a.starts_with('-') {
            rest.push(a.clone());
            continue;
        }
        if a == "--" {
            options_done = true;
            continue;
        }
        let flags = &a[1..];
        for (at, c) in flags.char_indices() {
            match c {
                // Options with a value take the rest of the word, or else the next word.
                'e' | 'm' => {
                    let tail = &flags[at + c.len_utf8()..];
                    let value = if tail.is_empty() {
                        i += 1;
                        args.get(i - 1)
                            .cloned()
                            .ok_or(UsageError::MissingArgument(c))?
                    } else {
                        tail.to_string()
                    };
                    if c == 'e' {
                        o.patterns.push(value);
                    } else {
                        o.max = Some(
                            value
                                .parse()
                                .map_err(|_| UsageError::NotInteger(value.clone()))?,
                        );
                    }
                    break;
                }
                'i' => o.ignore = true,
                'v' => o.invert = true,
                'E' => o.extended = true,
                'c' => o.count = true,
                'F' => o.fixed = true,
                'o' => o.only = true,
                'q' => o.quiet = true,
                's' => o.silent = true,
                'w' => o.word = true,
                'n' => o.numbers = true,
                'H' => o.with_name = Some(true),
                'h' => o.with_name = Some(false),
                'a' | 'I' => {}
                other => return Err(UsageError::Unknown(other)),
            }
        }
    }
    if o.patterns.is_empty() {
        if rest.is_empty() {
            return Err(UsageError::NoRegex);
        }
        o.patterns.push(rest.remove(0));
    }
    o.inputs = rest;
    Ok(o)
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

fn compile(o: &Options) -> Result<Regex, regex::Error> {
    let sources: Vec<String> = o
        .patterns
        .iter()
        .map(|p| {
            let s = if o.fixed {
                regex::escape(p)
            } else if o.extended {
                p.clone()
            } else {
                bre_to_ere(p)
            };
            if o.word {
                format!(r"(?:\b(?:{s})\b)")
            } else {
                format!("(?:{s})")
            }
        })
        .collect();
    RegexBuilder::new(&sources.join("|"))
        .case_insensitive(o.ignore)
        .size_limit(1 << 20)
        .build()
}

/// The parts of a line `-o` prints, or `None` when the line does not count as a match. Without
/// `-v` they are the non-empty matches; with `-v`, the stretches between matches. An empty match
/// at the walk's position is stepped over, and one further on ends the line, as in toybox's loop.
fn only_parts<'a>(re: &Regex, line: &'a str, invert: bool) -> Option<Vec<&'a str>> {
    let mut parts = Vec::new();
    let mut counted = false;
    let mut pos = 0;
    loop {
        let found = re.find_at(line, pos);
        if let Some(m) = found.filter(|m| m.is_empty() && m.start() == pos && pos < line.len()) {
            pos = next_char(line, m.start());
        } else if !invert {
            let Some(m) = found else { break };
            counted = true;
            if m.is_empty() {
                break;
            }
            parts.push(m.as_str());
            pos = m.end();
        } else {
            match found {
                Some(m) if m.start() == pos => pos = m.end(),
                Some(m) => {
                    counted = true;
                    parts.push(&line[pos..m.start()]);
                    pos = m.start();
                }
                None => {
                    counted = true;
                    if pos < line.len() {
                        parts.push(&line[pos..]);
                    }
                    break;
                }
            }
        }
        if pos >= line.len() {
            break;
        }
    }
    counted.then_some(parts)
}

fn next_char(line: &str, at: usize) -> usize {
    line[at..]
        .chars()
        .next()
        .map_or(at + 1, |c| at + c.len_utf8())
}

pub fn grep(fw: &mut Framework, args: &[String], stdin: &[u8]) -> ShellOutput {
    let o = match parse(args) {
        Ok(o) => o,
        Err(e) => return ShellOutput::fail(format!("grep: {e}\n"), 2),
    };
    let re = match compile(&o) {
        Ok(re) => re,
        Err(_) => {
            return ShellOutput::fail(format!("grep: bad regex '{}'\n", o.patterns.join("|")), 2)
        }
    };
    let inputs = if o.inputs.is_empty() {
        vec!["-".to_string()]
    } else {
        o.inputs.clone()
    };
    let named = o.with_name.unwrap_or(o.inputs.len() > 1);
    let mut out = ShellOutput::default();
    let mut unreadable = false;
    let mut found = false;
    for input in &inputs {
        let (name, data) = if input == "-" {
            (STDIN_NAME, stdin.to_vec())
        } else {
            match fs::read(fw, input) {
                Ok(d) => (input.as_str(), d),
                Err(e) => {
                    unreadable = true;
                    if !o.silent {
                        let why = if fs::resolve(fw, input).is_some_and(|h| h.is_dir()) {
                            "Is a directory"
                        } else {
                            fs::reason(&e)
                        };
                        out.stderr
                            .extend_from_slice(format!("grep: {input}: {why}\n").as_bytes());
                    }
                    continue;
                }
            }
        };
        let prefix = if named {
            format!("{name}:")
        } else {
            String::new()
        };
        let text = String::from_utf8_lossy(&data);
        let mut lines_matched = 0u64;
        for (n, line) in text.lines().enumerate() {
            let parts = if o.only {
                only_parts(&re, line, o.invert)
            } else {
                (re.is_match(line) != o.invert).then(|| vec![line])
            };
            if let Some(parts) = parts {
                found = true;
                if o.quiet {
                    out.exit_code = 0;
                    return out;
                }
                lines_matched += 1;
                if !o.count {
                    let number = if o.numbers {
                        format!("{}:", n + 1)
                    } else {
                        String::new()
                    };
                    for part in parts {
                        out.stdout
                            .extend_from_slice(format!("{prefix}{number}{part}\n").as_bytes());
                    }
                }
            }
            // toybox checks the cap after each line, so `-m 0` still reads one line.
            if o.max.is_some_and(|max| lines_matched >= max) {
                break;
            }
        }
        if o.count {
            out.stdout
                .extend_from_slice(format!("{prefix}{lines_matched}\n").as_bytes());
        }
    }
    out.exit_code = if unreadable {
        2
    } else if found {
        0
    } else {
        1
    };
    out
}

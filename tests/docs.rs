//! The documentation stays true to the binary: every `droidmcp …` command line in README.md and
//! docs/ parses as the binary would parse it (subcommands, flags, values), the task count the docs
//! give is `droidmcp tasks list`'s, and every device profile is documented.

use std::path::{Path, PathBuf};

use clap::{CommandFactory, Parser};
use droidmcp::cli::Cli;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, every page under docs/ and the examples' READMEs.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![repo().join("README.md")];
    for dir in ["docs", "examples"] {
        let Ok(entries) = std::fs::read_dir(repo().join(dir)) else {
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        found.sort();
        pages.extend(found);
    }
    pages
}

/// Shell words of `line` up to the first operator, redirection or comment (`&`, `|`, `;`, `>`,
/// `<`, `#`) outside quotes; `None` past an ellipsis (the text is a sketch, not a command).
pub fn shell_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                    word.push(q);
                }
            }
            '\\' => {
                if let Some(n) = chars.next() {
                    word.push(n);
                    in_word = true;
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '&' | '|' | ';' | '>' | '<' | '#' if !in_word => break,
            '…' => return None,
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// Every `droidmcp …` command line of a page: lines of code blocks (after an optional `$ `
/// prompt) and inline code spans, each with its line number and whether it is in a block.
fn command_lines(text: &str) -> Vec<(usize, String, bool)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            let cmd = trimmed.strip_prefix("$ ").unwrap_or(trimmed);
            if cmd.starts_with("droidmcp ") {
                out.push((i + 1, cmd.to_string(), true));
            }
            continue;
        }
        for (k, span) in line.split('`').enumerate() {
            if k % 2 == 1 && span.starts_with("droidmcp ") {
                out.push((i + 1, span.to_string(), false));
            }
        }
    }
    out
}

/// Whether `words` (a synopsis or a command named in prose) names subcommands and flags the
/// binary has: each word that is a subcommand of the one before descends, each `--flag` must be
/// an option of the command reached (or a global one).
fn names_what_exists(words: &[String]) -> Result<(), String> {
    let mut root = Cli::command();
    root.build();
    let mut cmd = &root;
    let mut path = vec!["droidmcp".to_string()];
    let mut descending = true;
    let mut value_next = false;
    for w in &words[1..] {
        let w = w.trim_matches(|c| c == '[' || c == ']');
        if std::mem::take(&mut value_next) && !w.starts_with('-') {
            continue;
        }
        if let Some(flag) = w.strip_prefix("--") {
            let (flag, inline_value) = match flag.split_once('=') {
                Some((f, _)) => (f, true),
                None => (flag, false),
            };
            let Some(arg) = cmd.get_arguments().find(|a| a.get_long() == Some(flag)) else {
                return Err(format!("`{}` has no --{flag}", path.join(" ")));
            };
            value_next = !inline_value && arg.get_action().takes_values();
        } else if descending && !w.starts_with('-') {
            match cmd.find_subcommand(w) {
                Some(sub) => {
                    cmd = sub;
                    path.push(w.to_string());
                }
                None if cmd.has_subcommands() && path.len() == 1 => {
                    return Err(format!("no subcommand {w:?}"));
                }
                None => descending = false,
            }
        }
    }
    Ok(())
}

/// A line with placeholders (`EPISODE`, `PORT`, `[--json]`) is a synopsis, not a command to run.
fn is_synopsis(words: &[String]) -> bool {
    words.iter().any(|w| {
        w.starts_with('[')
            || (w.len() >= 2 && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
    })
}

/// Code blocks hold command lines: each must parse as the binary parses it (a synopsis: name
/// what exists). Prose names commands: each subcommand and flag it names must exist.
#[test]
fn every_documented_command_line_parses() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, cmd, in_block) in command_lines(&text) {
            let Some(words) = shell_words(&cmd) else {
                continue;
            };
            checked += 1;
            let outcome = if in_block && !is_synopsis(&words) {
                Cli::try_parse_from(&words).map(|_| ()).or_else(|e| {
                    use clap::error::ErrorKind::*;
                    match e.kind() {
                        DisplayHelp | DisplayVersion => Ok(()),
                        _ => Err(e.to_string().lines().next().unwrap_or("").to_string()),
                    }
                })
            } else {
                names_what_exists(&words)
            };
            if let Err(e) = outcome {
                wrong.push(format!("{}:{line}: {cmd}\n    {e}", name(&page)));
            }
        }
    }
    assert!(checked > 60, "only {checked} command lines found");
    assert!(
        wrong.is_empty(),
        "{} documented command lines the binary refuses:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

fn name(page: &Path) -> String {
    page.strip_prefix(repo())
        .unwrap_or(page)
        .display()
        .to_string()
}

/// The task count in the docs is the suite's (`droidmcp tasks list`, one task a line).
#[test]
fn documented_task_counts_are_the_suites() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
        .args(["tasks", "list", "--json"])
        .current_dir(repo())
        .env_remove("DROIDMCP_TASKS")
        .output()
        .unwrap();
    assert!(out.status.success());
    let count = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with('{'))
        .count();
    assert!(count > 100, "{count}");
    // "216 tasks", "216 templates", "216 task templates": measurement records (docs/bench-*.md)
    // keep the count they were measured on, dated on the same line so no reader takes it for
    // today's.
    let said = regex::Regex::new(r"\b(\d{2,4}) (?:task templates|templates|tasks)\b").unwrap();
    let dated = regex::Regex::new(r"\b20\d\d-\d\d-\d\d\b").unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for page in pages() {
        let record = name(&page).starts_with("docs/bench-");
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, line) in text.lines().enumerate() {
            for m in said.captures_iter(line) {
                checked += 1;
                if m[1].parse::<usize>().unwrap() != count && !(record && dated.is_match(line)) {
                    wrong.push(format!("{}:{}: {}", name(&page), i + 1, &m[0]));
                }
            }
        }
    }
    assert!(checked >= 2, "the docs say how many tasks there are");
    assert!(wrong.is_empty(), "the suite has {count} tasks: {wrong:#?}");
}

/// Every device profile the embedded phone has is in the table of docs/sim.md and the list of
/// docs/adb.md.
#[test]
fn every_profile_is_documented() {
    let sim = std::fs::read_to_string(repo().join("docs/sim.md")).unwrap();
    let adb = std::fs::read_to_string(repo().join("docs/adb.md")).unwrap();
    for p in droidmcp::sim::Profile::ALL {
        let row = format!("| `{}`", p.name);
        assert!(sim.contains(&row), "docs/sim.md lacks {row}");
        let listed = format!("`{}`", p.name);
        assert!(adb.contains(&listed), "docs/adb.md lacks {listed}");
    }
}

/// Pages are named for what they cover, and every page the README's table links exists.
#[test]
fn pages_are_named_for_their_capability_and_linked_pages_exist() {
    for page in pages() {
        let stem = page.file_stem().unwrap().to_string_lossy().into_owned();
        assert!(
            !regex::Regex::new(r"-[a-z]$").unwrap().is_match(&stem),
            "{} is named like a split of work, not for what it covers",
            name(&page)
        );
    }
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let link = regex::Regex::new(r"\]\(((?:docs|examples)/[^)#]+)\)").unwrap();
    for m in link.captures_iter(&readme) {
        assert!(repo().join(&m[1]).exists(), "README links to {}", &m[1]);
    }
}

/// README states the wheel's requirements as they are: pyproject.toml's `requires-python`, and
/// the glibc its manylinux tag asks for (not just a Python version).
#[test]
fn readme_states_the_wheels_requirements() {
    let pyproject = std::fs::read_to_string(repo().join("pyproject.toml")).unwrap();
    let python = regex::Regex::new(r#"requires-python = ">=(\d+\.\d+)""#)
        .unwrap()
        .captures(&pyproject)
        .expect("pyproject.toml sets requires-python")[1]
        .to_string();
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(
        readme.contains(&format!("Python {python} or newer (`requires-python`")),
        "README does not state pyproject's requires-python >= {python}"
    );
    assert!(
        readme.contains("`manylinux_2_34`") && readme.contains("glibc 2.34 or newer"),
        "README does not say which glibc the wheel needs"
    );
}

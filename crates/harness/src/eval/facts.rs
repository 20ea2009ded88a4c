//! Device facts: what a judge is told the phone said at the end of an episode besides its screens —
//! the phone's clock and what changed since setup ([`super::changes`]) — and how such facts are
//! named.
//!
//! Facts never come from a task's rule checks: a judge sees the same facts whether or not a task
//! has rules, and never a check's query, result or expected value (those stay in the task file).

use super::android;
use super::changes::{self, PhoneState};
use droidmcp_device::{Shell, ShellError};

/// One thing read from the device.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    /// What it is to the judge: `clock`, or how it changed since setup (`changed since setup,
    /// was 30000`).
    pub source: String,
    pub command: String,
    pub output: String,
}

/// Characters kept of one command's output.
const MAX_OUTPUT: usize = 12_000;

/// What is read for judges at an episode's end.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EndReading {
    pub facts: Vec<Fact>,
    /// The picture files the goal names by file name ([`changes::pictures_named`]), to be shown
    /// as images.
    pub pictures: Vec<String>,
}

/// Reads the facts at an episode's end: the phone's clock (so a judge knows what "today" was),
/// then everything that changed since `setup` (the state read when setup was done, when it was),
/// then the unchanged files the goal names; and which pictures the goal names. Only a lost device
/// is an error; a read that fails becomes a fact saying so.
pub async fn read(
    shell: &dyn Shell,
    setup: Option<&PhoneState>,
    goal: &str,
) -> Result<EndReading, ShellError> {
    let mut reading = EndReading::default();
    for command in ["date", CLOCK] {
        let output = exec(shell, command).await?;
        reading.facts.push(Fact {
            source: "clock".into(),
            command: command.into(),
            output,
        });
    }
    if let Some(setup) = setup {
        let now = changes::read(shell).await?;
        let changed = changes::facts(setup, &now);
        let named = changes::named_in_goal(goal, setup, &now);
        reading
            .facts
            .extend(changed.into_iter().chain(named).map(|f| Fact {
                output: cap(f.output),
                ..f
            }));
        reading.pictures = changes::pictures_named(goal, &now);
    }
    Ok(reading)
}

async fn exec(shell: &dyn Shell, command: &str) -> Result<String, ShellError> {
    match shell.exec(command).await {
        Ok(out) => {
            let text = out.stdout_text().trim_end().to_string();
            Ok(if out.exit_code == 0 {
                text
            } else {
                format!(
                    "{text}\n[exit {}] {}",
                    out.exit_code,
                    out.stderr_text().trim()
                )
            })
        }
        Err(e) if e.is_device_lost() => Err(e),
        Err(e) => Ok(format!("(not read: {e})")),
    }
}

/// How a database read is named among the facts: the query on the database as the episode left it.
pub fn sqlite_command(db: &str, sql: &str) -> String {
    format!("sqlite {db}: {sql}")
}

/// How the rows of `table` added or changed since setup are named among the facts (as they are
/// now).
pub fn changed_command(db: &str, table: &str) -> String {
    format!("sqlite {db}: rows of {table} added or changed since setup")
}

/// How the rows of `table` removed or changed since setup are named (as setup left them).
pub fn changed_at_setup_command(db: &str, table: &str) -> String {
    format!("sqlite {db}: rows of {table} removed or changed since setup, as setup left them")
}

/// How the rows of a changed `table` that did not change are named: what is left beside a change
/// (the recipes not deleted, the call the agent redialled, the message it forwarded).
pub fn unchanged_command(db: &str, table: &str) -> String {
    format!("sqlite {db}: rows of {table} unchanged since setup")
}

/// How a shared preference is named among the facts.
pub fn prefs_command(path: &str, key: &str) -> String {
    format!("shared_prefs {path}: {key}")
}

/// How a text file's words are named among the facts.
pub fn cat_command(path: &str) -> String {
    format!("cat {}", droidmcp_device::command::sh_quote(path))
}

/// The command whose fact carries the phone's clock.
pub const CLOCK: &str = "date +%s";

/// Rows as `Row: N column=value, …` lines, the way `content query` prints them, at most `max`
/// (saying how many more there are); NULL cells are left out (most of a calendar event's fifty
/// columns are NULL).
pub fn rows_lines(rows: &[android::ContentRow], max: usize) -> String {
    let mut text = String::new();
    if rows.len() > max {
        text.push_str(&format!("({} rows, the first {max} shown)\n", rows.len()));
    }
    numbered_rows(&mut text, rows.iter().take(max));
    text
}

/// Rows as [`rows_lines`] writes them, the last `max` of them (saying how many more came before):
/// the latest rows of a table that keeps adding (calls, messages).
pub fn last_rows_lines(rows: &[android::ContentRow], max: usize) -> String {
    let mut text = String::new();
    if rows.len() > max {
        text.push_str(&format!("({} rows, the last {max} shown)\n", rows.len()));
    }
    numbered_rows(&mut text, rows[rows.len().saturating_sub(max)..].iter());
    text
}

fn numbered_rows<'a>(text: &mut String, rows: impl Iterator<Item = &'a android::ContentRow>) {
    for (i, row) in rows.enumerate() {
        let cells: Vec<String> = row
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={v}")))
            .collect();
        text.push_str(&format!("Row: {i} {}\n", cells.join(", ")));
    }
}

/// `text` cut to [`MAX_OUTPUT`] characters at a line end, saying so on a first line of its own (a
/// mark after the rows would read as part of the last value).
fn cap(text: String) -> String {
    if text.len() <= MAX_OUTPUT {
        return text;
    }
    let mut cut = MAX_OUTPUT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let kept = &text[..cut];
    let kept = kept.rfind('\n').map_or(kept, |at| &kept[..at]);
    format!(
        "(output cut to its first {} of {} characters)\n{kept}",
        kept.len(),
        text.len()
    )
}

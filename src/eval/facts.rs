//! Device facts: the state a task's rule checks read, read again as plain values for a judge, and
//! the settings and provider rows a goal names, for judging tasks nobody wrote a rule for.
//!
//! A rule check that decides on a setting, a database row or a log line reads something the final
//! screen often does not show (the screen timeout, an event's time, the Wi-Fi state behind another
//! app). A judge shown only screens cannot decide those, and a second judge with the same evidence
//! cannot cancel that error. Facts carry what was read, never what a check expects: the expected
//! values stay in the task file.

use std::collections::BTreeMap;

use super::android::{self, LogLine};
use super::check::{Check, FileTest, Probe, SqliteTest};
use super::constraint::Constraint;
use super::sqlite::{DbError, DbSnapshot};
use super::ui::UiPredicate;
use crate::device::command::{self, sh_quote};
use crate::device::{Shell, ShellError};
use crate::hierarchy::Selector;

/// One thing read from the device.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    /// The check it was read for, or `goal` when the goal's words named it.
    pub source: String,
    pub command: String,
    pub output: String,
}

/// Rows shown per table or query; the rest are counted.
const MAX_ROWS: usize = 50;
/// Characters kept of one command's output.
const MAX_OUTPUT: usize = 12_000;
/// Log lines shown (the latest logged since the task started that some log check's filters take).
const MAX_LOG_LINES: usize = 40;

/// How the log is read: the command checks run, so its fact replays as they read it.
pub const LOG_COMMAND: &str = "logcat -d -v threadtime";
/// How the focused window is read.
pub const FOCUS_COMMAND: &str = "dumpsys window";
/// The `dumpsys window` lines that name the focus.
const FOCUS_KEYS: [&str; 2] = ["mCurrentFocus=", "mFocusedApp="];

/// Settings and providers a goal's words point at: (words, command). Read for every episode, so a
/// judge of a task without rules still sees the state the goal is about.
const NAMED: &[(&[&str], &str)] = &[
    (&["wi-fi", "wifi"], "settings get global wifi_on"),
    (&["bluetooth"], "settings get global bluetooth_on"),
    (&["airplane", "aeroplane", "flight mode"], "settings get global airplane_mode_on"),
    (&["brightness"], "settings get system screen_brightness"),
    (&["brightness"], "settings get system screen_brightness_mode"),
    (&["timeout", "screen off", "sleep"], "settings get system screen_off_timeout"),
    (&["rotat"], "settings get system accelerometer_rotation"),
    (&["do not disturb", "dnd"], "settings get global zen_mode"),
    (&["location"], "settings get secure location_mode"),
    (&["dark theme", "dark mode"], "settings get secure ui_night_mode"),
    (&["mobile data"], "settings get global mobile_data"),
    (
        &["call", "dial", "phone number"],
        "content query --uri content://call_log/calls --projection number:type:date:duration",
    ),
    (
        &["sms", "text message", "message", "texted", "text "],
        "content query --uri content://sms --projection address:body:type:read:date",
    ),
    (
        &["contact"],
        "content query --uri content://com.android.contacts/data --projection display_name:mimetype:data1",
    ),
    (
        &["calendar", "event", "meeting", "appointment"],
        "content query --uri content://com.android.calendar/events --projection title:dtstart:dtend:eventLocation:description",
    ),
];

/// Reads the facts of an episode: what each device-reading check reads, then what the goal names
/// (each command once). `before` holds the databases as setup left them, so a check on added or
/// removed rows shows both sides. Only a lost device is an error; a read that fails becomes a fact
/// saying so.
pub async fn read(
    checks: &[Check],
    constraints: &[Constraint],
    goal: &str,
    shell: &dyn Shell,
    before: &BTreeMap<String, DbSnapshot>,
    log_baseline: Option<&LogLine>,
) -> Result<Vec<Fact>, ShellError> {
    let mut facts: Vec<Fact> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    if let Some(fact) = read_log(checks, shell, log_baseline).await? {
        seen.insert(fact.command.clone());
        facts.push(fact);
    }
    for check in checks {
        for (command, output) in read_probe(&check.probe, shell, before).await? {
            if seen.insert(command.clone()) {
                facts.push(Fact {
                    source: check.id.clone(),
                    command,
                    output: cap(output),
                });
            }
        }
    }
    // A page or element the agent must not reach is named by the strings the judge must recognise.
    for c in constraints {
        let Some(selector) = c.selector() else {
            continue;
        };
        for (command, output) in string_lookups(selector, shell).await? {
            if seen.insert(command.clone()) {
                facts.push(Fact {
                    source: c.id.clone(),
                    command,
                    output,
                });
            }
        }
    }
    // The phone's clock, so a judge (and a check on relative dates) knows what "today" was.
    for command in ["date", CLOCK] {
        let output = exec(shell, command).await?;
        facts.push(Fact {
            source: "clock".into(),
            command: command.into(),
            output,
        });
    }
    let goal = goal.to_lowercase();
    for (words, command) in NAMED {
        if words.iter().any(|w| goal.contains(w)) && seen.insert(command.to_string()) {
            let output = exec(shell, command).await?;
            facts.push(Fact {
                source: "goal".into(),
                command: command.to_string(),
                output: cap(output),
            });
        }
    }
    Ok(facts)
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

/// The (command, output) pairs one probe reads; probes on the screen, the trajectory or the
/// answer read nothing here (the judge has those already).
async fn read_probe(
    probe: &Probe,
    shell: &dyn Shell,
    before: &BTreeMap<String, DbSnapshot>,
) -> Result<Vec<(String, String)>, ShellError> {
    let one = |command: String, output: String| Ok(vec![(command, output)]);
    match probe {
        Probe::Settings { .. } | Probe::Shell { .. } | Probe::Content { .. } => {
            let command = probe.command().unwrap_or_default();
            let output = exec(shell, &command).await?;
            one(command, output)
        }
        Probe::Sqlite { db, test } => read_database(db, test, shell, before).await,
        Probe::Prefs { path, key, .. } => {
            let command = format!("shared_prefs {path}: {key}");
            let output = match shell.pull(path).await {
                Ok(data) => match android::parse_shared_prefs(&String::from_utf8_lossy(&data)) {
                    Ok(map) => map.get(key).cloned().unwrap_or_else(|| "(not set)".into()),
                    Err(e) => format!("(not readable: {e})"),
                },
                Err(e) if e.is_device_lost() => return Err(e),
                Err(e) => format!("(not read: {e})"),
            };
            one(command, output)
        }
        Probe::File { path, test } => {
            let command = match test {
                FileTest::Content(_) => format!("cat {}", sh_quote(path)),
                _ => format!("ls -l {}", sh_quote(path)),
            };
            let output = exec(shell, &command).await?;
            one(command, output)
        }
        Probe::Logcat { .. } => Ok(Vec::new()), // read once for all log checks, below
        Probe::Foreground { .. } => {
            // The lines `dumpsys window` names the focus in, as printed (checks parse them).
            let out = exec(shell, FOCUS_COMMAND).await?;
            let lines: Vec<&str> = out
                .lines()
                .map(str::trim)
                .filter(|l| FOCUS_KEYS.iter().any(|k| l.contains(k)))
                .collect();
            one(FOCUS_COMMAND.into(), lines.join("\n"))
        }
        // The screens are in the evidence; what a judge needs besides them is the text of the string
        // resources the check names, in the phone's language.
        Probe::Ui(UiPredicate { selector, .. }) | Probe::TapInside { selector, .. } => {
            string_lookups(selector, shell).await
        }
        Probe::Lcs { .. } | Probe::Answer { .. } => Ok(Vec::new()),
    }
}

/// The text of each string resource `selector` names, in the phone's language.
async fn string_lookups(
    selector: &Selector,
    shell: &dyn Shell,
) -> Result<Vec<(String, String)>, ShellError> {
    let mut out = Vec::new();
    for r in selector.string_refs() {
        let command = command::string_lookup(&r.package, &r.name);
        let output = exec(shell, &command).await?;
        out.push((command, output));
    }
    Ok(out)
}

/// The log lines every log check may look at: logged since the task started, taken by the
/// filters of some log check (all lines when one has none), the latest [`MAX_LOG_LINES`], in
/// threadtime format.
async fn read_log(
    checks: &[Check],
    shell: &dyn Shell,
    log_baseline: Option<&LogLine>,
) -> Result<Option<Fact>, ShellError> {
    let filters: Vec<&Vec<android::LogFilter>> = checks
        .iter()
        .filter_map(|c| match &c.probe {
            Probe::Logcat { filters, .. } => Some(filters),
            _ => None,
        })
        .collect();
    let Some(first) = checks
        .iter()
        .find(|c| matches!(c.probe, Probe::Logcat { .. }))
    else {
        return Ok(None);
    };
    let out = exec(shell, LOG_COMMAND).await?;
    let lines = android::parse_logcat(&out);
    let since = android::lines_since(&lines, log_baseline);
    let kept: Vec<String> = since
        .iter()
        .filter(|l| {
            filters
                .iter()
                .any(|f| f.is_empty() || f.iter().any(|f| f.accepts(l)))
        })
        .map(|l| {
            format!(
                "{} {:>5} {:>5} {} {}: {}",
                l.time, l.pid, l.tid, l.level, l.tag, l.message
            )
        })
        .collect();
    let shown = kept[kept.len().saturating_sub(MAX_LOG_LINES)..].join("\n");
    Ok(Some(Fact {
        source: first.id.clone(),
        command: LOG_COMMAND.into(),
        output: if shown.is_empty() {
            "(no lines)".into()
        } else {
            shown
        },
    }))
}

/// The tables a query reads (`FROM t`, `JOIN t`).
fn tables_of(sql: &str) -> Vec<String> {
    let words: Vec<&str> = sql.split_whitespace().collect();
    let mut tables: Vec<String> = Vec::new();
    for pair in words.windows(2) {
        if pair[0].eq_ignore_ascii_case("from") || pair[0].eq_ignore_ascii_case("join") {
            let t = pair[1]
                .trim_matches(|c: char| c == '"' || c == '`' || c == '(' || c == ')' || c == ',');
            if !t.is_empty() && !tables.iter().any(|x| x == t) {
                tables.push(t.to_string());
            }
        }
    }
    tables
}

/// A database check's rows. A query check: its result, then the tables it reads. A check on rows
/// added, removed or changed since setup: those rows only, as they are now and as setup left them
/// (a table of events runs to thousands of characters a row; the rows that changed decide).
async fn read_database(
    db: &str,
    test: &SqliteTest,
    shell: &dyn Shell,
    before: &BTreeMap<String, DbSnapshot>,
) -> Result<Vec<(String, String)>, ShellError> {
    let after = match DbSnapshot::pull(shell, db).await {
        Ok(s) => s,
        Err(DbError::Shell { source, .. }) if source.is_device_lost() => return Err(source),
        Err(e) => return Ok(vec![(sqlite_command(db, "*"), format!("(not read: {e})"))]),
    };
    let (table, key, ignore) = match test {
        SqliteTest::Query { sql, .. } => {
            let mut queries = vec![sql.clone()];
            queries.extend(
                tables_of(sql)
                    .into_iter()
                    .map(|t| format!("SELECT * FROM {t}")),
            );
            return Ok(queries
                .iter()
                .map(|q| (sqlite_command(db, q), rows_result(after.query(q))))
                .collect());
        }
        SqliteTest::RowsAdded {
            table, key, ignore, ..
        }
        | SqliteTest::RowsRemoved {
            table, key, ignore, ..
        }
        | SqliteTest::Unchanged {
            table, key, ignore, ..
        } => (table, key, ignore),
    };
    let now = after.table(table);
    let setup = before.get(db).map(|s| s.table(table));
    let (now, setup) = match (now, setup) {
        (Ok(now), Some(Ok(setup))) => (now, setup),
        (Err(e), _) | (_, Some(Err(e))) => {
            return Ok(vec![(
                changed_command(db, table),
                format!("(not read: {e})"),
            )])
        }
        (Ok(_), None) => {
            return Ok(vec![(
                changed_command(db, table),
                "(no snapshot of it was taken at setup)".into(),
            )])
        }
    };
    let d = super::sqlite::diff_rows(&setup, &now, key, ignore);
    let mut now_rows: Vec<android::ContentRow> = d.added.clone();
    now_rows.extend(d.changed.iter().map(|(_, a)| a.clone()));
    let mut setup_rows: Vec<android::ContentRow> = d.removed.clone();
    setup_rows.extend(d.changed.iter().map(|(b, _)| b.clone()));
    // Rows that had to go are decided by the ones still there too: every row the condition picks,
    // at setup and now, changed or not.
    if let (SqliteTest::RowsRemoved { selection, .. }, Some(snapshot)) = (test, before.get(db)) {
        let picked = format!("SELECT * FROM {table} WHERE {selection}");
        for (rows, side) in [
            (&mut setup_rows, snapshot.query(&picked)),
            (&mut now_rows, after.query(&picked)),
        ] {
            for row in side.unwrap_or_default() {
                if !rows.contains(&row) {
                    rows.push(row);
                }
            }
        }
    }
    let summary = format!(
        "{} rows at setup, {} now: {} added, {} removed, {} changed\n",
        setup.len(),
        now.len(),
        d.added.len(),
        d.removed.len(),
        d.changed.len()
    );
    Ok(vec![
        (
            changed_command(db, table),
            format!("{summary}{}", rows_lines(&now_rows))
                .trim_end()
                .to_string(),
        ),
        (
            changed_at_setup_command(db, table),
            rows_lines(&setup_rows).trim_end().to_string(),
        ),
    ])
}

/// How a database read is named among the facts: the query on the database as the episode left it.
pub fn sqlite_command(db: &str, sql: &str) -> String {
    format!("sqlite {db}: {sql}")
}

/// How the rows of `table` added or changed since setup (and those a removal check's condition
/// picks) are named among the facts (as they are now).
pub fn changed_command(db: &str, table: &str) -> String {
    format!("sqlite {db}: rows of {table} added or changed since setup, or picked by the check")
}

/// How the rows of `table` removed or changed since setup (and those a removal check's condition
/// picks) are named (as setup left them).
pub fn changed_at_setup_command(db: &str, table: &str) -> String {
    format!("sqlite {db}: rows of {table} removed or changed since setup, or picked by the check, as setup left them")
}

/// The command whose fact carries the phone's clock.
pub const CLOCK: &str = "date +%s";

/// A query's rows with their count first (a line after the rows would read as part of the last
/// value), or why it failed.
fn rows_result(rows: Result<Vec<android::ContentRow>, DbError>) -> String {
    match rows {
        Err(e) => format!("(query failed: {e})"),
        Ok(rows) if rows.is_empty() => "(no rows)".into(),
        Ok(rows) => {
            let head = if rows.len() > MAX_ROWS {
                format!("{} rows (the first {MAX_ROWS} shown)\n", rows.len())
            } else {
                format!("{} rows\n", rows.len())
            };
            format!("{head}{}", rows_lines(&rows))
                .trim_end()
                .to_string()
        }
    }
}

/// Rows as `Row: N column=value, …` lines, the way `content query` prints them, at most
/// [`MAX_ROWS`]; NULL cells are left out (most of a calendar event's fifty columns are NULL).
fn rows_lines(rows: &[android::ContentRow]) -> String {
    let mut text = String::new();
    for (i, row) in rows.iter().take(MAX_ROWS).enumerate() {
        let cells: Vec<String> = row
            .iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={v}")))
            .collect();
        text.push_str(&format!("Row: {i} {}\n", cells.join(", ")));
    }
    text
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

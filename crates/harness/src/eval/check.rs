//! One success check: what it reads ([`Probe`]), when it is evaluated ([`When`]), and how it runs
//! against a device through [`Shell`] — each run returns pass/fail, a value and its evidence (the
//! commands run and their raw output). The comparison logic lives in the sibling modules as pure
//! functions; this module only fetches and hands over.

use std::collections::BTreeMap;

use droidmcp_device::command::sh_quote;
use droidmcp_device::{Shell, ShellError};

use super::android::{self, ContentRow, LogFilter, LogLine};
use super::answer::AnswerMatch;
use super::history::{ActionRecord, RefAction};
use super::matcher::Matcher;
use super::sqlite::{self, DbError, DbSnapshot, RowMatch};
use super::ui::UiPredicate;
use droidmcp_hierarchy::Selector;

mod judge;

/// A success check as a task file declares it (strings may still hold `{param}` placeholders until
/// [`Check::map_strings`] renders them).
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    pub id: String,
    pub when: When,
    /// Weight in partial credit (composite tasks).
    pub weight: f64,
    /// Counts toward the sub-goal success rate.
    pub subgoal: bool,
    /// Only supplies a value to other checks (e.g. the ground truth an answer is compared with); not
    /// part of the default success expression, the score or the sub-goal rate.
    pub info: bool,
    pub probe: Probe,
}

/// When a check is evaluated.
#[derive(Debug, Clone, PartialEq)]
pub enum When {
    /// Once, on the state at check time (AndroidWorld).
    Final,
    /// After every step and at check time; passes if it passed at any of them (B-MoCA).
    AnyStep,
    /// On the screen of the last step where the gate element is present (Android-Lab's judge_page).
    LastGated(Selector),
    /// Over a stream recorded since task start (logcat).
    Stream,
}

/// What a check reads and how it judges it.
#[derive(Debug, Clone, PartialEq)]
pub enum Probe {
    /// `settings get NS KEY`.
    Settings {
        ns: String,
        key: String,
        test: Matcher,
    },
    /// Any command; the test applies to its stdout (trimmed).
    Shell {
        command: String,
        test: Matcher,
    },
    /// `content query --uri URI [--projection a:b] [--where SEL]`.
    Content {
        uri: String,
        projection: Vec<String>,
        selection: Option<String>,
        rows: RowsTest,
    },
    /// An app database pulled with its WAL and read on the host.
    Sqlite {
        db: String,
        test: SqliteTest,
    },
    /// A key of a shared_prefs XML file.
    Prefs {
        path: String,
        key: String,
        test: Matcher,
    },
    File {
        path: String,
        test: FileTest,
    },
    /// Lines logged since task start, filtered by `Tag:Level`, searched with a regex.
    Logcat {
        filters: Vec<LogFilter>,
        regex: String,
    },
    /// The focused window's package/activity (`dumpsys window`).
    Foreground {
        package: Option<Matcher>,
        activity: Option<Matcher>,
    },
    Ui(UiPredicate),
    /// The touch `from_end` steps before the end fell inside the selected element.
    TapInside {
        from_end: usize,
        selector: Selector,
    },
    /// LCS with the reference solution covers at least this share of it.
    Lcs {
        min_ratio: f64,
    },
    /// The agent's answer against a literal or the values another check read.
    Answer {
        expected: Expected,
        how: AnswerMatch,
        list: bool,
    },
}

impl Probe {
    /// The one shell command a settings, shell or content probe reads the device with (a setting
    /// that changed is shown to judges as `settings get` prints it, so the evidence rebuilt from
    /// facts answers this command).
    pub fn command(&self) -> Option<String> {
        match self {
            Probe::Settings { ns, key, .. } => {
                Some(format!("settings get {} {}", sh_quote(ns), sh_quote(key)))
            }
            Probe::Shell { command, .. } => Some(command.clone()),
            Probe::Content {
                uri,
                projection,
                selection,
                ..
            } => {
                let mut cmd = format!("content query --uri {}", sh_quote(uri));
                if !projection.is_empty() {
                    cmd.push_str(&format!(
                        " --projection {}",
                        sh_quote(&projection.join(":"))
                    ));
                }
                if let Some(sel) = selection {
                    cmd.push_str(&format!(" --where {}", sh_quote(sel)));
                }
                Some(cmd)
            }
            _ => None,
        }
    }
}

/// A test over a set of rows (content provider or SQL result).
#[derive(Debug, Clone, PartialEq)]
pub enum RowsTest {
    /// Some row passes the column tests.
    Any(RowMatch),
    /// No row passes them.
    None(RowMatch),
    /// The number of rows passing them satisfies the matcher.
    Count(RowMatch, Matcher),
    /// Collects `column` of the rows passing the filter as the check's values (passes when ≥ 1).
    Values { filter: RowMatch, column: String },
}

/// A test over an app database.
#[derive(Debug, Clone, PartialEq)]
pub enum SqliteTest {
    Query {
        sql: String,
        rows: RowsTest,
    },
    /// Exactly (or at least) the expected rows were added; nothing else changed.
    RowsAdded {
        table: String,
        key: String,
        ignore: Vec<String>,
        expect: Vec<RowMatch>,
        exact: bool,
    },
    /// The rows the `where` clause selects in the before-snapshot are gone; nothing else changed.
    RowsRemoved {
        table: String,
        key: String,
        ignore: Vec<String>,
        selection: String,
    },
    /// Nothing changed, except rows the optional `where` clause selects and `ignore` columns.
    Unchanged {
        table: String,
        key: String,
        ignore: Vec<String>,
        except: Option<String>,
    },
}

impl SqliteTest {
    /// Whether this test compares with the before-snapshot.
    pub fn needs_snapshot(&self) -> bool {
        !matches!(self, SqliteTest::Query { .. })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum FileTest {
    Exists,
    Absent,
    Content(Matcher),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    Literal(Vec<String>),
    /// The values an earlier check produced.
    FromCheck(String),
}

/// One command (or pull) a check ran and what came back, kept as evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub command: String,
    pub output: String,
}

/// The result of one check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckResult {
    pub id: String,
    pub passed: bool,
    /// Set when the check could not read the device (a command error or timeout, permission denied,
    /// a failing read tool): the result says nothing about the agent's work. Never set on a pass.
    pub inconclusive: Option<String>,
    /// What was read, for people (`"1"`, `"2+24÷3"`, `"3 rows"`).
    pub value: String,
    /// Values other checks can compare with (answer checks' `expected_from`).
    pub values: Vec<String>,
    /// Why it failed, when it did.
    pub reason: Option<String>,
    pub evidence: Vec<Evidence>,
}

/// What evaluation needs besides the device.
pub struct Context<'a> {
    pub shell: &'a dyn Shell,
    /// Databases as they were at the end of setup, by Android path.
    pub before: &'a BTreeMap<String, DbSnapshot>,
    /// The screen after each step (dump XML), oldest first.
    pub screens: &'a [String],
    pub actions: &'a [ActionRecord],
    pub reference: &'a [RefAction],
    pub answer: Option<&'a str>,
    /// The last logcat line that existed when the task started.
    pub log_baseline: Option<&'a LogLine>,
    /// Values of checks evaluated earlier in this run, by id.
    pub values: &'a BTreeMap<String, Vec<String>>,
}

/// The device went away while a check ran; the episode must end as aborted.
#[derive(Debug, thiserror::Error)]
#[error("device lost while evaluating {check}: {source}")]
pub struct DeviceLost {
    pub check: String,
    #[source]
    pub source: ShellError,
}

const EVIDENCE_LIMIT: usize = 8000;

/// Why a probe reached no judgement of the agent's work.
enum Unread {
    /// The device is gone: the episode aborts.
    Lost(DeviceLost),
    /// The device could not be read; the check is inconclusive, with this reason.
    Inconclusive(String),
}

impl From<DeviceLost> for Unread {
    fn from(e: DeviceLost) -> Unread {
        Unread::Lost(e)
    }
}

/// Output that means the shell user may not read what the check asked for (a phone without root).
fn permission_denied(text: &str) -> bool {
    text.contains("Permission denied") || text.contains("permission denied")
}

struct Run<'a, 'c> {
    ctx: &'a Context<'c>,
    check: &'a str,
    evidence: Vec<Evidence>,
    now_ms: Option<Option<i64>>,
}

/// What a probe concluded: `Ok((value, values))` on a pass, `Err((value, reason))` on a fail.
pub(crate) type Judged = Result<(String, Vec<String>), (String, String)>;

impl Run<'_, '_> {
    /// Runs a read tool (`settings`, `content`, `dumpsys`, `logcat`, `date`, `uiautomator`) that must
    /// succeed: a non-zero exit means the state could not be read, so the check is inconclusive.
    async fn exec(&mut self, command: &str) -> Result<String, Unread> {
        let (text, code) = self.exec_status(command).await?;
        if code != 0 {
            let shown: String = text.trim().chars().take(200).collect();
            return Err(Unread::Inconclusive(format!(
                "`{command}` failed (exit {code}): {shown}"
            )));
        }
        Ok(text)
    }

    /// `selector` with the string resources it names replaced by their text on the device, read
    /// with `cmd overlay lookup` as the session reads them when it aims; a device that cannot
    /// resolve one leaves the check inconclusive.
    async fn resolve_strings(&mut self, selector: &Selector) -> Result<Selector, Unread> {
        let mut texts = std::collections::HashMap::new();
        for r in selector.string_refs() {
            if !texts.contains_key(r) {
                let out = self
                    .exec(&droidmcp_device::command::string_lookup(
                        &r.package, &r.name,
                    ))
                    .await?;
                texts.insert(r.clone(), droidmcp_device::parse::resource_value(&out));
            }
        }
        Ok(selector
            .resolve_strings(|r| texts.get(r).cloned().ok_or(()))
            .expect("every reference was looked up above"))
    }

    /// Runs a command, keeping it as evidence; returns stdout (plus stderr when it failed) and the
    /// exit code, which the caller interprets. A command that could not run (timeout, transport
    /// error) or was refused for lack of permission makes the check inconclusive.
    async fn exec_status(&mut self, command: &str) -> Result<(String, i32), Unread> {
        match self.ctx.shell.exec(command).await {
            Ok(out) => {
                let mut text = out.stdout_text();
                if !out.success() {
                    text.push_str(&out.stderr_text());
                }
                self.note(command, &text, out.exit_code);
                if !out.success() && permission_denied(&text) {
                    return Err(Unread::Inconclusive(format!(
                        "`{command}`: permission denied (the check needs root on this device)"
                    )));
                }
                Ok((text, out.exit_code))
            }
            Err(e) if e.is_device_lost() => Err(Unread::Lost(DeviceLost {
                check: self.check.to_string(),
                source: e,
            })),
            Err(e) => {
                self.note(command, &e.to_string(), -1);
                Err(Unread::Inconclusive(format!(
                    "`{command}` could not run: {e}"
                )))
            }
        }
    }

    /// Pulls a file; `None` when it does not exist (a fact about the device a check may judge).
    async fn pull(&mut self, path: &str) -> Result<Option<Vec<u8>>, Unread> {
        match self.ctx.shell.pull(path).await {
            Ok(data) => {
                self.note(&format!("pull {path}"), &format!("{} bytes", data.len()), 0);
                Ok(Some(data))
            }
            Err(e) if e.is_device_lost() => Err(Unread::Lost(DeviceLost {
                check: self.check.to_string(),
                source: e,
            })),
            Err(e @ ShellError::NoSuchFile { .. }) => {
                self.note(&format!("pull {path}"), &e.to_string(), 1);
                Ok(None)
            }
            Err(e) => {
                self.note(&format!("pull {path}"), &e.to_string(), 1);
                Err(Unread::Inconclusive(format!("pull {path}: {e}")))
            }
        }
    }

    fn note(&mut self, command: &str, output: &str, exit: i32) {
        let mut output = output.to_string();
        if output.len() > EVIDENCE_LIMIT {
            let mut cut = EVIDENCE_LIMIT;
            while !output.is_char_boundary(cut) {
                cut -= 1;
            }
            output.truncate(cut);
            output.push_str("…[truncated]");
        }
        if exit != 0 {
            output.push_str(&format!("\n[exit {exit}]"));
        }
        self.evidence.push(Evidence {
            command: command.to_string(),
            output,
        });
    }

    async fn now_ms(&mut self) -> Result<Option<i64>, Unread> {
        if let Some(n) = self.now_ms {
            return Ok(n);
        }
        let out = self.exec("date +%s").await?;
        let n = android::parse_epoch_ms(&out);
        self.now_ms = Some(n);
        Ok(n)
    }

    /// A database that could not be pulled or opened: absent is a fact about the device (the check
    /// fails); anything else means the check could not read it.
    fn db_error(&mut self, e: DbError) -> Result<Judged, Unread> {
        match e {
            DbError::Shell { source, .. } if source.is_device_lost() => {
                Err(Unread::Lost(DeviceLost {
                    check: self.check.to_string(),
                    source,
                }))
            }
            DbError::Shell {
                path,
                source: ShellError::NoSuchFile { .. },
            } => Ok(Err((String::new(), format!("{path} does not exist")))),
            other => {
                self.note("pull database", &other.to_string(), 1);
                Err(Unread::Inconclusive(other.to_string()))
            }
        }
    }
}

fn rows_uses_clock(test: &RowsTest) -> bool {
    let tests = match test {
        RowsTest::Any(m) | RowsTest::None(m) | RowsTest::Count(m, _) => m,
        RowsTest::Values { filter, .. } => filter,
    };
    tests.iter().any(|(_, m)| m.uses_clock())
}

/// Whether `rows` pass `test`: `Ok((shown, values))` or `Err((shown, why))`.
pub(crate) fn judge_rows(rows: &[ContentRow], test: &RowsTest, now: Option<i64>) -> Judged {
    let passing = |m: &RowMatch| {
        rows.iter()
            .filter(|r| sqlite::row_matches(r, m, now).is_ok())
            .count()
    };
    match test {
        RowsTest::Any(m) => match passing(m) {
            0 => Err((
                format!("{} rows", rows.len()),
                format!("no matching row: {}", sqlite::closest_miss(rows, m, now)),
            )),
            n => Ok((format!("{n} matching of {} rows", rows.len()), vec![])),
        },
        RowsTest::None(m) => match passing(m) {
            0 => Ok((format!("0 matching of {} rows", rows.len()), vec![])),
            n => Err((
                format!("{n} matching rows"),
                "expected no matching row".into(),
            )),
        },
        RowsTest::Count(m, count) => {
            let n = passing(m).to_string();
            match count.check(Some(&n), None) {
                Ok(()) => Ok((n.clone(), vec![n])),
                Err(e) => Err((n.clone(), format!("row count: {e}"))),
            }
        }
        RowsTest::Values { filter, column } => {
            let values: Vec<String> = rows
                .iter()
                .filter(|r| sqlite::row_matches(r, filter, now).is_ok())
                .filter_map(|r| android::row_get(r, column).map(str::to_string))
                .collect();
            if values.is_empty() {
                Err((String::new(), format!("no rows with a {column} value")))
            } else {
                Ok((values.join(", "), values))
            }
        }
    }
}

impl Check {
    /// Applies `f` to every string the check holds (parameter substitution).
    pub fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        let rows = |t: &mut RowsTest, f: &mut dyn FnMut(&str) -> String| {
            let ms = match t {
                RowsTest::Any(m) | RowsTest::None(m) => m,
                RowsTest::Count(m, c) => {
                    c.map_strings(f);
                    m
                }
                RowsTest::Values { filter, .. } => filter,
            };
            ms.iter_mut().for_each(|(_, m)| m.map_strings(f));
        };
        if let When::LastGated(s) = &mut self.when {
            s.map_strings(f);
        }
        match &mut self.probe {
            Probe::Settings { key, test, .. } | Probe::Prefs { key, test, .. } => {
                *key = f(key);
                test.map_strings(f);
            }
            Probe::Shell { command, test } => {
                *command = f(command);
                test.map_strings(f);
            }
            Probe::Content {
                uri,
                selection,
                rows: t,
                ..
            } => {
                *uri = f(uri);
                if let Some(s) = selection {
                    *s = f(s);
                }
                rows(t, f);
            }
            Probe::Sqlite { db, test } => {
                *db = f(db);
                match test {
                    SqliteTest::Query { sql, rows: t } => {
                        *sql = f(sql);
                        rows(t, f);
                    }
                    SqliteTest::RowsAdded { expect, .. } => expect
                        .iter_mut()
                        .flat_map(|r| r.iter_mut())
                        .for_each(|(_, m)| m.map_strings(f)),
                    SqliteTest::RowsRemoved { selection, .. } => *selection = f(selection),
                    SqliteTest::Unchanged { except, .. } => {
                        if let Some(e) = except {
                            *e = f(e);
                        }
                    }
                }
            }
            Probe::File { path, test } => {
                *path = f(path);
                if let FileTest::Content(m) = test {
                    m.map_strings(f);
                }
            }
            Probe::Logcat { regex, .. } => *regex = f(regex),
            Probe::Foreground { package, activity } => {
                package
                    .iter_mut()
                    .chain(activity.iter_mut())
                    .for_each(|m| m.map_strings(f));
            }
            Probe::Ui(p) => {
                p.selector.map_strings(f);
                p.attrs.iter_mut().for_each(|(_, m)| m.map_strings(f));
            }
            Probe::TapInside { selector, .. } => selector.map_strings(f),
            Probe::Lcs { .. } => {}
            Probe::Answer { expected, .. } => {
                if let Expected::Literal(items) = expected {
                    items.iter_mut().for_each(|s| *s = f(s));
                }
            }
        }
    }

    /// Whether this check reads device state (so it can be evaluated after each step).
    pub fn reads_device(&self) -> bool {
        !matches!(
            self.probe,
            Probe::Ui(_) | Probe::TapInside { .. } | Probe::Lcs { .. } | Probe::Answer { .. }
        )
    }

    /// Runs the check. Only a lost device is an error. A check that could not read the device is an
    /// inconclusive result (never a failure of the agent); anything else is a pass or a failure with
    /// its reason and evidence.
    pub async fn evaluate(&self, ctx: &Context<'_>) -> Result<CheckResult, DeviceLost> {
        let mut run = Run {
            ctx,
            check: &self.id,
            evidence: Vec::new(),
            now_ms: None,
        };
        let (passed, value, values, reason, inconclusive) = match self.judge(&mut run).await {
            Ok(Ok((value, values))) => (true, value, values, None, None),
            Ok(Err((value, reason))) => (false, value, Vec::new(), Some(reason), None),
            Err(Unread::Inconclusive(why)) => (
                false,
                String::new(),
                Vec::new(),
                Some(format!("inconclusive: {why}")),
                Some(why),
            ),
            Err(Unread::Lost(lost)) => return Err(lost),
        };
        Ok(CheckResult {
            id: self.id.clone(),
            passed,
            inconclusive,
            value,
            values,
            reason,
            evidence: run.evidence,
        })
    }
}

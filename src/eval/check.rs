//! One success check: what it reads ([`Probe`]), when it is evaluated ([`When`]), and how it runs
//! against a device through [`Shell`] — each run returns pass/fail, a value and its evidence (the
//! commands run and their raw output). The comparison logic lives in the sibling modules as pure
//! functions; this module only fetches and hands over.

use std::collections::BTreeMap;

use crate::device::command::sh_quote;
use crate::device::{Shell, ShellError};

use super::android::{self, ContentRow, LogFilter, LogLine};
use super::answer::{self, AnswerMatch};
use super::history::{self, ActionRecord, RefAction};
use super::matcher::Matcher;
use super::sqlite::{self, DbError, DbSnapshot, RowMatch};
use super::ui::{self, UiPredicate};
use crate::hierarchy::Selector;

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
                    .exec(&crate::device::command::string_lookup(&r.package, &r.name))
                    .await?;
                texts.insert(r.clone(), crate::device::parse::resource_value(&out));
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

    async fn judge(&self, run: &mut Run<'_, '_>) -> Result<Judged, Unread> {
        let ctx = run.ctx;
        Ok(match &self.probe {
            Probe::Settings { test, .. } => {
                let out = run.exec(&self.probe.command().unwrap_or_default()).await?;
                let v = android::parse_setting(&out);
                judge_value(v.as_deref(), test, None)
            }
            Probe::Shell { command, test } => {
                // Any exit code is the command's own answer; only not running at all is unread.
                let (out, _) = run.exec_status(command).await?;
                judge_value(Some(out.trim()), test, None)
            }
            Probe::Content { rows, .. } => {
                let out = run.exec(&self.probe.command().unwrap_or_default()).await?;
                let parsed = android::parse_content_rows(&out);
                let now = if rows_uses_clock(rows) {
                    run.now_ms().await?
                } else {
                    None
                };
                judge_rows(&parsed, rows, now)
            }
            Probe::Sqlite { db, test } => return self.judge_sqlite(run, db, test).await,
            Probe::Prefs { path, key, test } => match run.pull(path).await? {
                None => Err((String::new(), format!("{path} does not exist"))),
                Some(data) => match android::parse_shared_prefs(&String::from_utf8_lossy(&data)) {
                    Ok(map) => judge_value(map.get(key).map(String::as_str), test, None),
                    Err(e) => Err((String::new(), e)),
                },
            },
            Probe::File { path, test } => {
                let (_, code) = run.exec_status(&format!("ls {}", sh_quote(path))).await?;
                let exists = code == 0;
                match test {
                    FileTest::Exists if exists => Ok(("exists".into(), vec![])),
                    FileTest::Exists => Err(("absent".into(), format!("{path} does not exist"))),
                    FileTest::Absent if !exists => Ok(("absent".into(), vec![])),
                    FileTest::Absent => Err(("exists".into(), format!("{path} exists"))),
                    FileTest::Content(m) => match run.pull(path).await? {
                        None => Err(("absent".into(), format!("{path} does not exist"))),
                        Some(data) => judge_value(Some(&String::from_utf8_lossy(&data)), m, None),
                    },
                }
            }
            Probe::Logcat { filters, regex } => {
                let re = match regex::Regex::new(regex) {
                    Ok(re) => re,
                    Err(e) => return Ok(Err((String::new(), format!("bad regex: {e}")))),
                };
                let out = run.exec("logcat -d -v threadtime").await?;
                let lines = android::parse_logcat(&out);
                let since = android::lines_since(&lines, ctx.log_baseline);
                let hit = since
                    .iter()
                    .filter(|l| filters.is_empty() || filters.iter().any(|f| f.accepts(l)))
                    .find(|l| {
                        re.is_match(&format!("{}: {}", l.tag, l.message)) || re.is_match(&l.message)
                    });
                match hit {
                    Some(l) => Ok((format!("{} {}: {}", l.level, l.tag, l.message), vec![])),
                    None => Err((
                        format!("{} lines since task start", since.len()),
                        format!("no line since task start matches /{regex}/"),
                    )),
                }
            }
            Probe::Foreground { package, activity } => {
                let out = run.exec("dumpsys window").await?;
                match android::parse_focus(&out) {
                    None => Err((String::new(), "no focused window".into())),
                    Some((pkg, act)) => {
                        let shown = format!("{pkg}/{act}");
                        let p = package
                            .as_ref()
                            .map(|m| m.check(Some(&pkg), None))
                            .unwrap_or(Ok(()));
                        let a = activity
                            .as_ref()
                            .map(|m| m.check(Some(&act), None))
                            .unwrap_or(Ok(()));
                        match p.and(a) {
                            Ok(()) => Ok((shown, vec![])),
                            Err(e) => Err((shown, e)),
                        }
                    }
                }
            }
            Probe::Ui(pred) => return self.judge_ui(run, pred).await,
            Probe::TapInside { from_end, selector } => {
                let selector = run.resolve_strings(selector).await?;
                match history::tap_inside(ctx.actions, *from_end, &selector) {
                    Ok(v) => Ok((v, vec![])),
                    Err(e) => Err((String::new(), e)),
                }
            }
            Probe::Lcs { min_ratio } => {
                if ctx.reference.is_empty() {
                    Err((String::new(), "the task has no reference solution".into()))
                } else {
                    let n = history::lcs(ctx.reference, ctx.actions).len();
                    let r = n as f64 / ctx.reference.len() as f64;
                    let shown = format!("{n}/{} reference actions ({r:.2})", ctx.reference.len());
                    if r >= *min_ratio {
                        Ok((shown, vec![]))
                    } else {
                        Err((shown, format!("needs {min_ratio}")))
                    }
                }
            }
            Probe::Answer {
                expected,
                how,
                list,
            } => {
                let Some(given) = ctx.answer else {
                    return Ok(Err((String::new(), "no answer was given".into())));
                };
                let items: Vec<String> = match expected {
                    Expected::Literal(items) => items.clone(),
                    Expected::FromCheck(id) => match ctx.values.get(id) {
                        Some(v) if !v.is_empty() => v.clone(),
                        // The episode leaves out the values of a check that could not read the
                        // device: the answer cannot be judged either.
                        None => {
                            return Err(Unread::Inconclusive(format!(
                                "check {id:?}, which gives the expected answer, could not read the device"
                            )))
                        }
                        Some(_) => {
                            return Ok(Err((
                                given.to_string(),
                                format!("check {id:?} produced no values"),
                            )))
                        }
                    },
                };
                let items = if *list || items.len() <= 1 {
                    items
                } else {
                    vec![items.join(", ")]
                };
                match answer::compare(given, &items, *how, *list) {
                    Ok(()) => Ok((given.to_string(), vec![])),
                    Err(e) => Err((given.to_string(), e)),
                }
            }
        })
    }

    async fn judge_sqlite(
        &self,
        run: &mut Run<'_, '_>,
        db: &str,
        test: &SqliteTest,
    ) -> Result<Judged, Unread> {
        if test.needs_snapshot() && !run.ctx.before.contains_key(db) {
            return Err(Unread::Inconclusive(format!(
                "no before-snapshot of {db} was taken at setup"
            )));
        }
        let after = match DbSnapshot::pull(run.ctx.shell, db).await {
            Ok(s) => {
                run.note(&format!("pull {db} (+ -wal, -shm)"), "ok", 0);
                s
            }
            Err(e) => return run.db_error(e),
        };
        let before = || {
            run.ctx.before.get(db).ok_or_else(|| {
                (
                    String::new(),
                    format!("no before-snapshot of {db} was taken at setup"),
                )
            })
        };
        let result = match test {
            SqliteTest::Query { sql, rows } => {
                let now = if rows_uses_clock(rows) {
                    run.now_ms().await?
                } else {
                    None
                };
                match after.query(sql) {
                    Ok(r) => {
                        run.note(
                            &format!("sqlite {db}: {sql}"),
                            &format!("{} rows", r.len()),
                            0,
                        );
                        judge_rows(&r, rows, now)
                    }
                    Err(e) => {
                        run.note(&format!("sqlite {db}: {sql}"), &e.to_string(), 1);
                        return Err(Unread::Inconclusive(format!(
                            "the check's query on {db} failed: {e}"
                        )));
                    }
                }
            }
            SqliteTest::RowsAdded {
                table,
                key,
                ignore,
                expect,
                exact,
            } => {
                let now = if expect.iter().flatten().any(|(_, m)| m.uses_clock()) {
                    run.now_ms().await?
                } else {
                    None
                };
                (|| {
                    let before = before()?;
                    let (b, a) = read_pair(before, &after, table)?;
                    let d = sqlite::diff_rows(&b, &a, key, ignore);
                    let shown = format!(
                        "{} added, {} removed, {} changed",
                        d.added.len(),
                        d.removed.len(),
                        d.changed.len()
                    );
                    if !d.removed.is_empty() || !d.changed.is_empty() {
                        return Err((shown, "rows other than the new ones changed".into()));
                    }
                    if *exact && d.added.len() != expect.len() {
                        return Err((
                            shown,
                            format!("expected exactly {} new row(s)", expect.len()),
                        ));
                    }
                    sqlite::match_all(expect, &d.added, now).map_err(|e| (shown.clone(), e))?;
                    Ok((shown, vec![]))
                })()
            }
            SqliteTest::RowsRemoved {
                table,
                key,
                ignore,
                selection,
            } => (|| {
                let before = before()?;
                let (b, a) = read_pair(before, &after, table)?;
                let sql = format!("SELECT \"{key}\" FROM \"{table}\" WHERE {selection}");
                let targets: Vec<String> = before
                    .query(&sql)
                    .map_err(|e| (String::new(), e.to_string()))?
                    .into_iter()
                    .filter_map(|r| r.into_iter().next().and_then(|(_, v)| v))
                    .collect();
                let d = sqlite::diff_rows(&b, &a, key, ignore);
                let shown = format!(
                    "{} of {} target row(s) removed, {} other removed, {} added, {} changed",
                    d.removed
                        .iter()
                        .filter(|r| android::row_get(r, key)
                            .is_some_and(|k| targets.iter().any(|t| t == k)))
                        .count(),
                    targets.len(),
                    d.removed
                        .iter()
                        .filter(|r| !android::row_get(r, key)
                            .is_some_and(|k| targets.iter().any(|t| t == k)))
                        .count(),
                    d.added.len(),
                    d.changed.len()
                );
                if targets.is_empty() {
                    return Err((shown, "setup seeded no rows to remove".into()));
                }
                let removed: Vec<&str> = d
                    .removed
                    .iter()
                    .filter_map(|r| android::row_get(r, key))
                    .collect();
                let all_gone = targets.iter().all(|t| removed.contains(&t.as_str()));
                if !all_gone {
                    return Err((shown, "a target row is still there".into()));
                }
                if removed.len() != targets.len() || !d.added.is_empty() || !d.changed.is_empty() {
                    return Err((shown, "rows other than the targets changed".into()));
                }
                Ok((shown, vec![]))
            })(),
            SqliteTest::Unchanged {
                table,
                key,
                ignore,
                except,
            } => (|| {
                let before = before()?;
                let (mut b, mut a) = read_pair(before, &after, table)?;
                if let Some(sel) = except {
                    let sql = format!("SELECT \"{key}\" FROM \"{table}\" WHERE {sel}");
                    let keys = |s: &DbSnapshot| -> Result<Vec<String>, (String, String)> {
                        Ok(s.query(&sql)
                            .map_err(|e| (String::new(), e.to_string()))?
                            .into_iter()
                            .filter_map(|r| r.into_iter().next().and_then(|(_, v)| v))
                            .collect())
                    };
                    let (kb, ka) = (keys(before)?, keys(&after)?);
                    b.retain(|r| {
                        !android::row_get(r, key).is_some_and(|k| kb.iter().any(|x| x == k))
                    });
                    a.retain(|r| {
                        !android::row_get(r, key).is_some_and(|k| ka.iter().any(|x| x == k))
                    });
                }
                let d = sqlite::diff_rows(&b, &a, key, ignore);
                let shown = format!(
                    "{} added, {} removed, {} changed",
                    d.added.len(),
                    d.removed.len(),
                    d.changed.len()
                );
                if d == sqlite::TableDiff::default() {
                    Ok((shown, vec![]))
                } else {
                    Err((shown, format!("{table} changed")))
                }
            })(),
        };
        Ok(result)
    }

    async fn judge_ui(&self, run: &mut Run<'_, '_>, pred: &UiPredicate) -> Result<Judged, Unread> {
        // String resources (`text:@pkg:string/name`) are read in the device's language first.
        let pred = &UiPredicate {
            selector: run.resolve_strings(&pred.selector).await?,
            ..pred.clone()
        };
        let gate = match &self.when {
            When::LastGated(gate) => Some(run.resolve_strings(gate).await?),
            _ => None,
        };
        let screens = run.ctx.screens;
        let test_xml = |xml: &str| -> Result<String, String> {
            let nodes = ui::parse_nodes(xml)?;
            pred.test(&nodes)
        };
        match &self.when {
            When::AnyStep => {
                let mut last = String::from("no recorded screens");
                for (i, xml) in screens.iter().enumerate() {
                    match test_xml(xml) {
                        Ok(v) => return Ok(Ok((format!("step {}: {v}", i + 1), vec![v]))),
                        Err(e) => last = e,
                    }
                }
                let xml = current_screen(run).await?;
                Ok(match test_xml(&xml) {
                    Ok(v) => Ok((v.clone(), vec![v])),
                    Err(e) if screens.is_empty() => Err((String::new(), e)),
                    Err(_) => Err((String::new(), last)),
                })
            }
            When::LastGated(_) => {
                let gate = gate.as_ref().expect("resolved above for last_gated");
                let gated = screens.iter().enumerate().rev().find(|(_, xml)| {
                    ui::parse_nodes(xml).is_ok_and(|nodes| !ui::select(gate, &nodes).is_empty())
                });
                Ok(match gated {
                    None => Err((String::new(), format!("no step showed {gate}"))),
                    Some((i, xml)) => match test_xml(xml) {
                        Ok(v) => Ok((format!("step {}: {v}", i + 1), vec![v])),
                        Err(e) => Err((format!("step {}", i + 1), e)),
                    },
                })
            }
            When::Final | When::Stream => {
                let xml = current_screen(run).await?;
                Ok(match test_xml(&xml) {
                    Ok(v) => Ok((v.clone(), vec![v])),
                    Err(e) => Err((String::new(), e)),
                })
            }
        }
    }
}

/// The current screen via `uiautomator dump` to a file and a pull, as on any real phone; a dump that
/// fails leaves the check inconclusive.
async fn current_screen(run: &mut Run<'_, '_>) -> Result<String, Unread> {
    const DUMP: &str = "/sdcard/window_dump.xml";
    run.exec(&format!("uiautomator dump {DUMP}")).await?;
    match run.pull(DUMP).await? {
        Some(d) => Ok(String::from_utf8_lossy(&d).into_owned()),
        None => Err(Unread::Inconclusive(
            "the screen could not be dumped".into(),
        )),
    }
}

fn read_pair(
    before: &DbSnapshot,
    after: &DbSnapshot,
    table: &str,
) -> Result<(Vec<ContentRow>, Vec<ContentRow>), (String, String)> {
    let b = before
        .table(table)
        .map_err(|e| (String::new(), format!("before: {e}")))?;
    let a = after
        .table(table)
        .map_err(|e| (String::new(), format!("after: {e}")))?;
    Ok((b, a))
}

fn judge_value(v: Option<&str>, test: &Matcher, now: Option<i64>) -> Judged {
    let shown = v.unwrap_or("null").to_string();
    match test.check(v, now) {
        Ok(()) => Ok((shown.clone(), vec![shown])),
        Err(e) => Err((shown, e)),
    }
}

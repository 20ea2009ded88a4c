//! Evidence completeness: does what a judge is shown contain what the task's rule checks decide on?
//!
//! Measured by deciding the episode from the evidence alone with the task's own checks: device
//! checks run, unchanged, against a phone rebuilt from nothing but the evidence's device facts
//! ([`EvidenceShell`]: each command answers with the output the facts show, each database is rebuilt
//! from the rows they show); screen checks look for their checked value in the screens the judge is
//! shown (element lists carry resource-id tails, not classes); answer checks compare the answer
//! shown; constraints are judged on the actions and the lists after each step. When that decision equals the rule verdict on the real phone,
//! the evidence held what decides; when a fact was missing or cut, the checks that needed it cannot
//! read it and the decision is failure, as a strict judge's would be.

use std::collections::BTreeMap;

use async_trait::async_trait;

use super::evidence::{Evidence, StepEvidence};
use crate::eval::check::{Check, Context, Probe, When};
use crate::eval::constraint::{Constraint, Rule};
use crate::eval::facts::{self, Fact};
use crate::eval::history::ActionRecord;
use crate::eval::sqlite::DbSnapshot;
use crate::eval::{self, android, CheckResult};
use crate::task::Task;
use droidmcp_device::{Shell, ShellError, ShellOutput};
use droidmcp_geom::Point;
use droidmcp_hierarchy::{Criterion, Matcher as TextMatcher, Selector};

/// What the evidence shows of one check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckSight {
    pub check: String,
    /// The check's outcome decided from the evidence.
    pub passed: bool,
    /// Why the evidence could not decide it (a fact missing, a screen not shown).
    pub missing: Option<String>,
}

/// An episode decided from its evidence alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Sight {
    pub success: bool,
    pub checks: Vec<CheckSight>,
}

impl Sight {
    /// Whether every check could be decided from the evidence.
    pub fn complete(&self) -> bool {
        self.checks.iter().all(|c| c.missing.is_none())
    }
}

/// Decides an episode of `task` (its rendered `checks` and `constraints`) from `evidence` alone.
pub async fn decide(
    task: &Task,
    checks: &[Check],
    constraints: &[Constraint],
    evidence: &Evidence,
) -> Sight {
    let shell = EvidenceShell::new(&evidence.facts);
    let before = shell.setup_snapshots();
    let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut results: Vec<CheckResult> = Vec::new();
    let mut sights = Vec::new();
    for check in checks {
        let result = match &check.probe {
            Probe::Ui(predicate) => {
                match droidmcp_device::resolve_strings(&shell, &predicate.selector).await {
                    Ok(selector) => screen_result(
                        check,
                        &crate::eval::ui::UiPredicate {
                            selector,
                            ..predicate.clone()
                        },
                        evidence,
                    ),
                    Err(e) => unseen(check, &e.to_string()),
                }
            }
            Probe::TapInside { .. } | Probe::Lcs { .. } => unseen(
                check,
                "the trajectory's touches are shown as text, not as the points checks compare",
            ),
            _ => {
                let ctx = Context {
                    shell: &shell,
                    before: &before,
                    screens: &[],
                    actions: &[],
                    reference: &[],
                    answer: evidence.answer.as_deref(),
                    log_baseline: None,
                    values: &values,
                };
                match check.evaluate(&ctx).await {
                    Ok(r) => r,
                    Err(lost) => unseen(check, &lost.to_string()),
                }
            }
        };
        if result.inconclusive.is_none() {
            values.insert(result.id.clone(), result.values.clone());
        }
        sights.push(CheckSight {
            check: check.id.clone(),
            passed: result.passed,
            missing: result.inconclusive.clone(),
        });
        results.push(result);
    }
    let mut verdict = eval::score(checks, results, &task.success, task.partial_credit, true);
    // Constraints on the way: the actions as the trajectory shows them (kind, text, foreground,
    // activity). Rules on what a page showed or which element a step touched need the screens,
    // which requests carry as element lists, not dumps: those are judged on the lists.
    eval::constraint::enforce(&mut verdict, constraints, &records(&evidence.steps));
    let mut broken = false;
    for c in constraints {
        // The strings a page or element rule names, as the facts show them in the phone's language.
        let mut c = c.clone();
        if let Some(selector) = c.selector_mut() {
            if let Ok(resolved) = droidmcp_device::resolve_strings(&shell, selector).await {
                *selector = resolved;
            }
        }
        broken |= broken_on_lists(&c.rule, &evidence.steps);
    }
    Sight {
        success: verdict.success && !broken,
        checks: sights,
    }
}

/// Whether a page rule's screen or an element rule is broken on the element lists the steps show:
/// a list after a step shows the page's element, or more steps than allowed aimed at an element the
/// selector picks (the element a step names by its number in the list before it).
fn broken_on_lists(rule: &Rule, steps: &[StepEvidence]) -> bool {
    match rule {
        Rule::Page {
            screen: Some(sel), ..
        } => steps
            .iter()
            .any(|s| elements(&s.elements).iter().any(|e| picks(sel, e))),
        Rule::Element { selector, max } => {
            let touched = steps
                .windows(2)
                .filter(|w| {
                    let a = &w[1].action_json;
                    let touch = matches!(
                        a["kind"].as_str(),
                        Some("tap" | "double_tap" | "long_press" | "type")
                    );
                    let aimed = a["element"]["id"].as_u64();
                    touch
                        && a["error"].is_null()
                        && aimed.is_some_and(|n| {
                            elements(&w[0].elements)
                                .iter()
                                .any(|e| e.number == Some(n) && picks(selector, e))
                        })
                })
                .count();
            touched > *max as usize
        }
        _ => false,
    }
}

/// The steps' actions as history checks and constraints read them, from the recorded action JSON.
fn records(steps: &[StepEvidence]) -> Vec<ActionRecord> {
    steps
        .iter()
        .map(|s| {
            let a = &s.action_json;
            let text = |k: &str| a[k].as_str().map(String::from);
            let point = a["point"].as_array().and_then(|p| {
                Some(Point::new(
                    p.first()?.as_i64()? as i32,
                    p.get(1)?.as_i64()? as i32,
                ))
            });
            ActionRecord {
                action: text("action").unwrap_or_default(),
                kind: text("kind").unwrap_or_default(),
                point,
                text: text("text"),
                screen_before: None,
                aliases: a["aliases"]
                    .as_array()
                    .map(|v| {
                        v.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
                failed: !a["error"].is_null(),
                field: None,
                foreground: (!s.foreground.is_empty()).then(|| s.foreground.clone()),
                activity: text("activity"),
                screen_after: None,
            }
        })
        .collect()
}

fn unseen(check: &Check, why: &str) -> CheckResult {
    CheckResult {
        id: check.id.clone(),
        passed: false,
        inconclusive: Some(why.to_string()),
        value: String::new(),
        values: Vec::new(),
        reason: Some(why.to_string()),
        evidence: Vec::new(),
    }
}

/// One element line of a compact list (`7 btn #tab_menu_stopwatch @945,2169 selected: Stopwatch`):
/// its number, its strings (text, description, folded text) and the words before them (role,
/// resource-id tail, position, state words).
struct Shown<'a> {
    number: Option<u64>,
    strings: Vec<&'a str>,
    head: Vec<&'a str>,
}

fn elements(list: &str) -> Vec<Shown<'_>> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let (head, strings) = line.split_once(": ").unwrap_or((line, ""));
            Shown {
                number: head.split_whitespace().next().and_then(|n| n.parse().ok()),
                strings: if strings.is_empty() {
                    Vec::new()
                } else {
                    strings.split(" | ").collect()
                },
                head: head.split_whitespace().collect(),
            }
        })
        .collect()
}

/// Whether the selector could pick the element a list line shows.
fn picks(selector: &Selector, e: &Shown) -> bool {
    let strings_pass = |m: &TextMatcher| e.strings.iter().any(|s| m.matches(s));
    selector.criteria.iter().all(|c| match c {
        Criterion::Text(m) | Criterion::Desc(m) | Criterion::Any(m) => strings_pass(m),
        // Judges' lists tag every element with its resource id's tail.
        Criterion::ResourceId(id) => {
            let tail = id.rsplit(":id/").next().unwrap_or(id);
            e.head.iter().any(|w| *w == format!("#{tail}"))
        }
        // Class, role, index and element ids are not compared here: any element may be it.
        _ => true,
    })
}

/// A screen check looking for its checked value in the screens shown: the end screen (and every
/// step's screen for checks on any step).
fn screen_result(check: &Check, p: &crate::eval::ui::UiPredicate, ev: &Evidence) -> CheckResult {
    let mut screens: Vec<&str> = Vec::new();
    if matches!(check.when, When::AnyStep | When::LastGated(_)) {
        screens.extend(ev.steps.iter().map(|s| s.elements.as_str()));
    }
    screens.push(&ev.final_elements);
    let attrs_pass = |e: &Shown| {
        p.attrs.iter().all(|(name, m)| match name.as_str() {
            "text" | "content-desc" => e.strings.iter().any(|s| m.check(Some(s), None).is_ok()),
            "checked" | "selected" | "focused" => {
                let on = e.head.contains(&name.as_str());
                m.check(Some(if on { "true" } else { "false" }), None)
                    .is_ok()
            }
            // Enabled and the rest are not shown; a list shows enabled elements.
            _ => true,
        })
    };
    let found = screens.iter().any(|list| {
        elements(list)
            .iter()
            .any(|e| picks(&p.selector, e) && attrs_pass(e))
    });
    let passed = found == p.present;
    CheckResult {
        id: check.id.clone(),
        passed,
        inconclusive: None,
        value: if found {
            "shown".into()
        } else {
            "not shown".into()
        },
        values: Vec::new(),
        reason: (!passed).then(|| "the screens shown do not show it".to_string()),
        evidence: Vec::new(),
    }
}

/// A phone made of the evidence's device facts: each command answers with the output the facts
/// show for it, each database is rebuilt from the rows they show, and anything else is unknown.
pub struct EvidenceShell {
    outputs: BTreeMap<String, String>,
    /// The rows as the episode left them and as setup left them.
    now: Tables,
    setup: Tables,
}

impl EvidenceShell {
    pub fn new(facts: &[Fact]) -> EvidenceShell {
        let mut shell = EvidenceShell {
            outputs: BTreeMap::new(),
            now: BTreeMap::new(),
            setup: BTreeMap::new(),
        };
        for f in facts {
            shell.outputs.insert(f.command.clone(), f.output.clone());
            let rows = || android::parse_content_rows(&f.output);
            if let Some((db, table)) = table_fact(&f.command, facts::changed_at_setup_command) {
                add_rows(&mut shell.setup, db, table, rows());
            } else if let Some((db, table)) = table_fact(&f.command, facts::unchanged_command) {
                // Rows that did not change were there at setup and still are.
                add_rows(&mut shell.setup, db.clone(), table.clone(), rows());
                add_rows(&mut shell.now, db, table, rows());
            } else if let Some((db, table)) = table_fact(&f.command, facts::changed_command)
                .or_else(|| {
                    table_fact(&f.command, |db, t| {
                        facts::sqlite_command(db, &format!("SELECT * FROM {t}"))
                    })
                })
            {
                add_rows(&mut shell.now, db, table, rows());
            }
        }
        shell
    }

    /// The databases as setup left them, rebuilt.
    fn setup_snapshots(&self) -> BTreeMap<String, DbSnapshot> {
        self.setup
            .iter()
            .filter_map(|(db, tables)| Some((db.clone(), snapshot(db, tables).ok()?)))
            .collect()
    }
}

/// Database path → table → rows.
type Tables = BTreeMap<String, BTreeMap<String, Vec<android::ContentRow>>>;

/// Adds `rows` to `table` of `db` in `tables`.
fn add_rows(tables: &mut Tables, db: String, table: String, rows: Vec<android::ContentRow>) {
    tables
        .entry(db)
        .or_default()
        .entry(table)
        .or_default()
        .extend(rows);
}

/// `(db, table)` when `command` is `make(db, table)` for some db and table.
fn table_fact(command: &str, make: impl Fn(&str, &str) -> String) -> Option<(String, String)> {
    let probe = make("\u{1}", "\u{2}");
    let (prefix, rest) = probe.split_once('\u{1}')?;
    let (middle, suffix) = rest.split_once('\u{2}')?;
    let body = command.strip_prefix(prefix)?.strip_suffix(suffix)?;
    let (db, table) = body.split_once(middle)?;
    (!db.is_empty() && !table.is_empty() && !table.contains(' '))
        .then(|| (db.to_string(), table.to_string()))
}

/// A database file holding `tables` (values typed back: integers, reals, text, NULL).
fn build(
    path: &std::path::Path,
    tables: &BTreeMap<String, Vec<android::ContentRow>>,
) -> rusqlite::Result<()> {
    let conn = rusqlite::Connection::open(path)?;
    for (table, rows) in tables {
        let mut columns: Vec<&str> = Vec::new();
        for row in rows {
            for (c, _) in row {
                if !columns.contains(&c.as_str()) {
                    columns.push(c);
                }
            }
        }
        let quoted = |c: &str| format!("\"{}\"", c.replace('"', "\"\""));
        let decl = if columns.is_empty() {
            "\"_\"".to_string()
        } else {
            columns
                .iter()
                .map(|c| quoted(c))
                .collect::<Vec<_>>()
                .join(", ")
        };
        conn.execute_batch(&format!("CREATE TABLE {}({decl})", quoted(table)))?;
        for row in rows {
            let cols: Vec<String> = row.iter().map(|(c, _)| quoted(c)).collect();
            let marks: Vec<String> = (1..=row.len()).map(|i| format!("?{i}")).collect();
            let values: Vec<rusqlite::types::Value> = row
                .iter()
                .map(|(_, v)| match v.as_deref() {
                    None => rusqlite::types::Value::Null,
                    // SQLite prints an integer canonically: `+1601…` or `007` were text.
                    Some(s) => match (s.parse::<i64>(), s.parse::<f64>()) {
                        (Ok(i), _) if i.to_string() == s => rusqlite::types::Value::Integer(i),
                        (_, Ok(f)) if s.contains('.') && !s.starts_with('+') => {
                            rusqlite::types::Value::Real(f)
                        }
                        _ => rusqlite::types::Value::Text(s.to_string()),
                    },
                })
                .collect();
            conn.execute(
                &format!(
                    "INSERT INTO {}({}) VALUES ({})",
                    quoted(table),
                    cols.join(", "),
                    marks.join(", ")
                ),
                rusqlite::params_from_iter(values),
            )?;
        }
    }
    Ok(())
}

fn snapshot(
    db: &str,
    tables: &BTreeMap<String, Vec<android::ContentRow>>,
) -> Result<DbSnapshot, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let path = dir.path().join("rebuilt.db");
    build(&path, tables).map_err(|e| e.to_string())?;
    DbSnapshot::from_file(&path, db).map_err(|e| e.to_string())
}

fn unknown(what: &str) -> ShellError {
    ShellError::Protocol {
        serial: "evidence".into(),
        reason: format!("{what} is not in the evidence"),
    }
}

#[async_trait]
impl Shell for EvidenceShell {
    fn serial(&self) -> &str {
        "evidence"
    }

    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        // A file check's `ls PATH`, answered by the file's `ls -l PATH` fact (added, changed or
        // removed since setup); a file the facts do not name stays unknown.
        if let Some(path) = command_line
            .strip_prefix("ls ")
            .filter(|p| !p.starts_with('-'))
        {
            if let Some(line) = self.outputs.get(&format!("ls -l {path}")) {
                return Ok(if line == "(removed)" {
                    ShellOutput {
                        stdout: Vec::new(),
                        stderr: format!("ls: {path}: No such file or directory\n").into_bytes(),
                        exit_code: 1,
                    }
                } else {
                    ShellOutput::ok(format!("{path}\n"))
                });
            }
        }
        let output = self
            .outputs
            .get(command_line)
            .ok_or_else(|| unknown(&format!("`{command_line}`")))?;
        if output.starts_with("(not read") {
            return Err(unknown(&format!("`{command_line}`")));
        }
        // A fact of a command that failed ends with its exit code (see `eval::facts`).
        if let Some((out, rest)) = output.rsplit_once("\n[exit ") {
            let code = rest
                .split(']')
                .next()
                .and_then(|c| c.parse().ok())
                .unwrap_or(1);
            return Ok(ShellOutput {
                stdout: format!("{out}\n").into_bytes(),
                stderr: Vec::new(),
                exit_code: code,
            });
        }
        Ok(ShellOutput::ok(format!("{output}\n")))
    }

    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        // A text file whose words the facts show.
        if let Some(text) = self.outputs.get(&facts::cat_command(path)) {
            return Ok(text.clone().into_bytes());
        }
        // Any other file of shared storage: gone if the facts say so, else not shown.
        if path.starts_with("/sdcard/") || path.starts_with("/storage/") {
            let quoted = droidmcp_device::command::sh_quote(path);
            return match self.outputs.get(&format!("ls -l {quoted}")) {
                Some(line) if line == "(removed)" => Err(ShellError::NoSuchFile {
                    path: path.to_string(),
                }),
                _ => Err(unknown(&format!("the text of {path}"))),
            };
        }
        let tables = self.now.get(path).ok_or_else(|| ShellError::NoSuchFile {
            path: path.to_string(),
        })?;
        let dir = tempfile::tempdir().map_err(|e| unknown(&e.to_string()))?;
        let file = dir.path().join("rebuilt.db");
        build(&file, tables).map_err(|e| unknown(&format!("{path} ({e})")))?;
        std::fs::read(&file).map_err(|e| unknown(&e.to_string()))
    }

    async fn push(&self, path: &str, _data: &[u8], _mode: u32) -> Result<(), ShellError> {
        Err(unknown(&format!("writing {path}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_facts_are_told_apart_from_query_facts() {
        let db = "/data/data/x/databases/a.db";
        assert_eq!(
            table_fact(
                &facts::changed_at_setup_command(db, "alarms"),
                facts::changed_at_setup_command
            ),
            Some((db.to_string(), "alarms".to_string()))
        );
        assert_eq!(
            table_fact(
                &facts::changed_command(db, "alarms"),
                facts::changed_at_setup_command
            ),
            None
        );
        let whole = facts::sqlite_command(db, "SELECT * FROM alarms");
        let make = |d: &str, t: &str| facts::sqlite_command(d, &format!("SELECT * FROM {t}"));
        assert_eq!(
            table_fact(&whole, make),
            Some((db.to_string(), "alarms".to_string()))
        );
        let query = facts::sqlite_command(db, "SELECT * FROM alarms WHERE hour = 7");
        assert_eq!(table_fact(&query, make), None);
    }

    #[test]
    fn rebuilt_databases_keep_value_types() {
        let rows = android::parse_content_rows(
            "2 rows\nRow: 0 hour=10, minutes=30, label=Gym, snooze=NULL, number=+16018554889\nRow: 1 hour=7, minutes=5, label=1.5, snooze=NULL, number=007",
        );
        let tables = BTreeMap::from([("alarms".to_string(), rows)]);
        let snap = snapshot("a.db", &tables).unwrap();
        let hits = snap
            .query("SELECT label FROM alarms WHERE hour = 10 AND minutes = 30 AND snooze IS NULL")
            .unwrap();
        assert_eq!(
            hits,
            vec![vec![("label".to_string(), Some("Gym".to_string()))]]
        );
        // Text that only looks like a number stays text, as the app stored it.
        let by_number = snap
            .query("SELECT hour FROM alarms WHERE number = '+16018554889' OR number = '007'")
            .unwrap();
        assert_eq!(by_number.len(), 2, "{by_number:?}");
    }

    #[test]
    fn list_lines_give_numbers_state_words_ids_and_strings() {
        let list = elements("# pkg 1080x2400\n  7 btn #tab_menu_stopwatch @945,2169 selected: Stopwatch | Stop watch\n  8 list #rv @540,900");
        assert_eq!(list.len(), 2);
        let tab = &list[0];
        assert_eq!(tab.number, Some(7));
        assert!(tab.head.contains(&"selected"), "{:?}", tab.head);
        assert_eq!(tab.strings, vec!["Stopwatch", "Stop watch"]);
        assert!(picks(&"id:tab_menu_stopwatch".parse().unwrap(), tab));
        assert!(!picks(&"id:tab_menu".parse().unwrap(), tab));
        assert!(list[1].strings.is_empty() && picks(&"id:rv".parse().unwrap(), &list[1]));
    }

    /// A step as a trajectory shows it: its action JSON and the list after it.
    fn step(action: serde_json::Value, list: &str) -> StepEvidence {
        StepEvidence {
            action_json: action,
            elements: list.into(),
            ..Default::default()
        }
    }

    const ALARMS: &str = "# com.google.android.deskclock 1080x2400\n  11 btn #fab @540,1927: Add alarm\n  14 btn #tab_menu_timer @675,2169: Timer";
    const TIMER: &str = "# com.google.android.deskclock 1080x2400\n  2 text #timer_setup_time @456,367: 00h 00m 07s\n  3 btn #timer_setup_delete @954,367: Backspace";

    #[test]
    fn page_and_element_rules_are_judged_on_the_lists_steps_show() {
        let open = step(
            serde_json::json!({"kind": "open_app", "error": null}),
            ALARMS,
        );
        let to_timer = step(
            serde_json::json!({"kind": "tap", "element": {"id": 14}, "error": null}),
            TIMER,
        );
        let delete = |error: serde_json::Value| {
            step(
                serde_json::json!({"kind": "tap", "element": {"id": 3}, "error": error}),
                TIMER,
            )
        };
        let page = Rule::Page {
            activity: None,
            screen: Some("id:timer_setup_time".parse().unwrap()),
        };
        assert!(!broken_on_lists(&page, std::slice::from_ref(&open)));
        assert!(broken_on_lists(&page, &[open.clone(), to_timer.clone()]));
        let no_delete = Rule::Element {
            selector: "id:timer_setup_delete".parse().unwrap(),
            max: 0,
        };
        // Aiming at element 3 counts only where the list before the step shows it as the delete key,
        // and only when the step went through.
        assert!(!broken_on_lists(
            &no_delete,
            &[open.clone(), to_timer.clone()]
        ));
        assert!(!broken_on_lists(
            &no_delete,
            &[open.clone(), delete(serde_json::Value::Null)]
        ));
        assert!(broken_on_lists(
            &no_delete,
            &[
                open.clone(),
                to_timer.clone(),
                delete(serde_json::Value::Null)
            ]
        ));
        assert!(!broken_on_lists(
            &no_delete,
            &[open, to_timer, delete("no such element".into())]
        ));
        let one_allowed = Rule::Element {
            selector: "id:timer_setup_delete".parse().unwrap(),
            max: 1,
        };
        let twice = [
            step(serde_json::json!({}), TIMER),
            delete(serde_json::Value::Null),
            delete(serde_json::Value::Null),
        ];
        assert!(!broken_on_lists(&one_allowed, &twice[..2]));
        assert!(broken_on_lists(&one_allowed, &twice));
    }
}

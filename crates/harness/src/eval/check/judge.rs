//! How each probe is judged: what it reads from the device (settings, files, databases before and
//! after, content rows, logcat, the screen) and the pure comparison it hands that to.

use droidmcp_device::command::sh_quote;

use crate::eval::android::{self, ContentRow};
use crate::eval::answer::{self};
use crate::eval::history::{self};
use crate::eval::matcher::Matcher;
use crate::eval::sqlite::{self, DbSnapshot};
use crate::eval::ui::{self, UiPredicate};

use super::{
    judge_rows, rows_uses_clock, Check, Expected, FileTest, Judged, Probe, Run, SqliteTest, Unread,
    When,
};

impl Check {
    pub(super) async fn judge(&self, run: &mut Run<'_, '_>) -> Result<Judged, Unread> {
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

    pub(super) async fn judge_sqlite(
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

    pub(super) async fn judge_ui(
        &self,
        run: &mut Run<'_, '_>,
        pred: &UiPredicate,
    ) -> Result<Judged, Unread> {
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

//! `droidmcp report`: AndroidArena's trajectory metrics (task reward TR with γ=0.9 over the LCS with the
//! reference solution, task completion ratio TCR, reversed redundancy ratio RRR) and success rates — by
//! the rule-based checks and by the judges — over the episodes in the store, per task and overall —
//! and AndroidArena's constraint-violation ratio (overall and by level: app, page, component) over
//! the checked episodes of constrained tasks.

use std::collections::BTreeMap;

use rusqlite::Connection;

use crate::eval::constraint::Level;
use crate::eval::history::{ActionRecord, RefAction};
use crate::eval::metrics;
use crate::store::{Store, StoreError};
use crate::task::{Catalog, Task};
use droidmcp_geom::Point;
use droidmcp_hierarchy::Selector;

/// Figures for one task (or, with `task == "ALL"`, for every episode).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TaskFigures {
    pub task: String,
    pub episodes: usize,
    /// Episodes with a final rule-based result (success or failure).
    pub rule_scored: usize,
    pub rule_success_rate: Option<f64>,
    /// Episodes whose checks could not read the device: neither success nor failure, and left out
    /// of the success rate.
    pub rule_inconclusive: usize,
    /// Episodes that ended without a score (device lost, server killed).
    pub aborted: usize,
    /// Episodes with a decided panel verdict.
    pub judged: usize,
    pub judge_success_rate: Option<f64>,
    /// Episodes whose task has a reference solution.
    pub with_reference: usize,
    pub task_reward: Option<f64>,
    pub completion_ratio: Option<f64>,
    pub reversed_redundancy: Option<f64>,
    pub repeat_ratio: Option<f64>,
    /// The share of the reference's actions the steps matched (|LCS| / L), outcome aside.
    pub reference_matched: Option<f64>,
    /// Checked episodes of tasks with constraints, and how many broke one.
    pub constrained: Violations,
    /// The same per AndroidArena level (only levels some task constrains).
    pub by_level: Vec<(Level, Violations)>,
    /// Episodes that began without a restore of the phone's baseline snapshot (a real device):
    /// only their setup reset what the task reads, so state left by earlier episodes may remain.
    pub unrestored: Vec<String>,
}

/// Episodes judged on their constraints and how many broke one.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Violations {
    pub episodes: usize,
    pub violated: usize,
}

impl Violations {
    /// AndroidArena's constraint-violation ratio.
    pub fn ratio(&self) -> Option<f64> {
        (self.episodes > 0).then(|| self.violated as f64 / self.episodes as f64)
    }

    fn add(&mut self, violated: bool) {
        self.episodes += 1;
        self.violated += violated as usize;
    }
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The recorded actions of an episode, each with the screen it was taken on.
fn recorded_actions(store: &Store, episode: &str) -> Result<Vec<ActionRecord>, StoreError> {
    let mut before: Option<String> = None;
    let mut out = Vec::new();
    for step in store.steps(episode)? {
        let v: serde_json::Value = serde_json::from_str(&step.action).unwrap_or_default();
        let point = v["point"].as_array().and_then(|p| {
            Some(Point::new(
                p.first()?.as_i64()? as i32,
                p.get(1)?.as_i64()? as i32,
            ))
        });
        out.push(ActionRecord {
            kind: v["kind"].as_str().unwrap_or("").to_string(),
            point,
            text: v["text"].as_str().map(str::to_string),
            screen_before: step
                .screen_before
                .or(before.take())
                .and_then(|xml| droidmcp_hierarchy::parse(xml.as_bytes()).ok())
                .map(std::sync::Arc::new),
            aliases: v["aliases"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            failed: v["error"].is_string(),
            ..ActionRecord::default()
        });
        before = step.screen;
    }
    Ok(out)
}

fn latest_panel_outcomes(c: &Connection) -> rusqlite::Result<BTreeMap<String, String>> {
    let exists: bool = c.query_row(
        "SELECT COUNT(*) > 0 FROM sqlite_master WHERE type='table' AND name='panel_verdicts'",
        [],
        |r| r.get(0),
    )?;
    if !exists {
        return Ok(BTreeMap::new());
    }
    let mut stmt = c.prepare(
        "SELECT episode_id, panel_outcome FROM panel_verdicts p
         WHERE id = (SELECT MAX(id) FROM panel_verdicts q WHERE q.episode_id = p.episode_id)",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

fn episode_ids(c: &Connection) -> rusqlite::Result<Vec<(String, String)>> {
    let mut stmt = c.prepare("SELECT id, task_id FROM episodes ORDER BY started_at, id")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

#[derive(Default)]
struct Acc {
    episodes: usize,
    rule: Vec<f64>,
    inconclusive: usize,
    aborted: usize,
    judged: Vec<f64>,
    tr: Vec<f64>,
    tcr: Vec<f64>,
    rrr: Vec<f64>,
    repeat: Vec<f64>,
    matched: Vec<f64>,
    constrained: Violations,
    by_level: BTreeMap<Level, Violations>,
    unrestored: Vec<String>,
}

impl Acc {
    fn figures(&self, task: &str) -> TaskFigures {
        TaskFigures {
            task: task.to_string(),
            episodes: self.episodes,
            rule_scored: self.rule.len(),
            rule_success_rate: mean(&self.rule),
            rule_inconclusive: self.inconclusive,
            aborted: self.aborted,
            judged: self.judged.len(),
            judge_success_rate: mean(&self.judged),
            with_reference: self.tr.len(),
            task_reward: mean(&self.tr),
            completion_ratio: mean(&self.tcr),
            reversed_redundancy: mean(&self.rrr),
            repeat_ratio: mean(&self.repeat),
            reference_matched: mean(&self.matched),
            constrained: self.constrained,
            by_level: self.by_level.iter().map(|(l, v)| (*l, *v)).collect(),
            unrestored: self.unrestored.clone(),
        }
    }
}

/// Computes the figures per task, then one `ALL` row.
pub fn report(store: &Store, catalog: &Catalog) -> Result<Vec<TaskFigures>, StoreError> {
    let (episodes, panels) =
        store.with_connection(|c| Ok((episode_ids(c)?, latest_panel_outcomes(c)?)))?;
    let mut per_task: BTreeMap<String, Acc> = BTreeMap::new();
    let mut all = Acc::default();
    for (id, task_id) in episodes {
        let Some(row) = store.episode(&id)? else {
            continue;
        };
        let acc = per_task.entry(task_id.clone()).or_default();
        let mut add = |f: &dyn Fn(&mut Acc)| {
            f(acc);
            f(&mut all);
        };
        add(&|a| a.episodes += 1);
        if !row.restored {
            add(&|a| a.unrestored.push(id.clone()));
        }
        if row.status == "aborted" {
            add(&|a| a.aborted += 1);
        } else if row.verdict.as_deref() == Some("inconclusive") {
            add(&|a| a.inconclusive += 1);
        } else if let Some(success) = row.success {
            let v = if success { 1.0 } else { 0.0 };
            add(&|a| a.rule.push(v));
        }
        if let Some(outcome) = panels
            .get(&id)
            .filter(|o| *o == "success" || *o == "failure")
        {
            let v = if outcome == "success" { 1.0 } else { 0.0 };
            add(&|a| a.judged.push(v));
        }
        let task = catalog.get(&task_id).ok();
        if let Some(task) = task.as_ref().filter(|t| !t.constraints.is_empty()) {
            let (any, levels) = constraint_outcome(store, task, &id)?;
            if let Some(violated) = any {
                add(&|a| a.constrained.add(violated));
            }
            for (level, violated) in levels {
                add(&|a| a.by_level.entry(level).or_default().add(violated));
            }
        }
        if let Some(m) = reference_metrics(store, task.as_ref(), &row)? {
            add(&|a| {
                a.tr.push(m.task_reward);
                a.tcr.push(m.completion_ratio);
                a.rrr.push(m.reversed_redundancy);
                a.repeat.push(m.repeat_ratio);
                a.matched.push(m.reference_matched);
            });
        }
    }
    let mut out: Vec<TaskFigures> = per_task.iter().map(|(t, a)| a.figures(t)).collect();
    out.push(all.figures("ALL"));
    Ok(out)
}

/// Whether the episode's last check broke a constraint of the task, overall and per level; `None`
/// overall (and no levels) when it was never checked.
fn constraint_outcome(
    store: &Store,
    task: &Task,
    episode: &str,
) -> Result<(Option<bool>, Vec<(Level, bool)>), StoreError> {
    let results: BTreeMap<String, bool> = store.with_connection(|c| {
        let mut stmt = c.prepare(
            "SELECT check_id, passed FROM check_results WHERE episode_id = ?1
             AND run = (SELECT MAX(run) FROM check_results WHERE episode_id = ?1)",
        )?;
        let rows = stmt.query_map([episode], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    })?;
    let mut levels: BTreeMap<Level, bool> = BTreeMap::new();
    for c in &task.constraints {
        if let Some(passed) = results.get(&c.id) {
            *levels.entry(c.level()).or_default() |= !passed;
        }
    }
    let any = (!levels.is_empty()).then(|| levels.values().any(|v| *v));
    Ok((any, levels.into_iter().collect()))
}

fn reference_metrics(
    store: &Store,
    task: Option<&std::sync::Arc<Task>>,
    row: &crate::store::EpisodeRow,
) -> Result<Option<metrics::TrajectoryMetrics>, StoreError> {
    let Some(task) = task else { return Ok(None) };
    let Ok(instance) = task.instance_of_stored(row.seed, &row.params) else {
        return Ok(None);
    };
    if instance.golden.is_empty() {
        return Ok(None);
    }
    let locale = episode_locale(row.env.as_deref());
    let reference: Vec<RefAction> = Task::reference_of(&instance.golden)
        .into_iter()
        .map(|mut r| {
            r.selector = r.selector.map(|s| resolve_offline(&s, &locale));
            r
        })
        .collect();
    let actual = recorded_actions(store, &row.id)?;
    Ok(Some(metrics::trajectory(
        &reference,
        &actual,
        row.success.unwrap_or(false),
    )))
}

/// The language an episode's phone showed: its environment's locale (the default environment's
/// when none was stored).
fn episode_locale(env: Option<&str>) -> String {
    env.and_then(|name| droidmcp_env::Environment::resolve(name).ok())
        .unwrap_or_default()
        .locale
}

/// `selector` with its string resources replaced by Android's text for them in `locale`, read from
/// the resources the embedded phone ships (AOSP's own strings) — the live episode asked the device,
/// which a report over a store no longer has. A resource the tables lack stays unresolved, so the
/// step matches nothing, as it matched nothing live.
fn resolve_offline(selector: &Selector, locale: &str) -> Selector {
    use droidmcp_sim::locale::res::{resources, Value};
    selector
        .resolve_strings(|r| match resources().lookup(locale, &r.package, &r.name) {
            Some(entry) => match &entry.value {
                Value::Text(t) => Ok(t.clone()),
                _ => Err(()),
            },
            None => Err(()),
        })
        .unwrap_or_else(|()| selector.clone())
}

/// A fixed-width table for the terminal.
pub fn table(rows: &[TaskFigures]) -> String {
    let f = |v: Option<f64>| v.map(|x| format!("{x:.3}")).unwrap_or_else(|| "-".into());
    let mut s = format!(
        "{:<40} {:>5} {:>8} {:>6} {:>6} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7}\n",
        "task",
        "eps",
        "SR rule",
        "incon",
        "abort",
        "SR judg",
        "TR",
        "TCR",
        "RRR",
        "repeat",
        "violate"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<40} {:>5} {:>8} {:>6} {:>6} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7}\n",
            r.task,
            r.episodes,
            f(r.rule_success_rate),
            r.rule_inconclusive,
            r.aborted,
            f(r.judge_success_rate),
            f(r.task_reward),
            f(r.completion_ratio),
            f(r.reversed_redundancy),
            f(r.repeat_ratio),
            f(r.constrained.ratio())
        ));
    }
    // AndroidArena's Table 5: the violation ratio by level, over every constrained episode.
    if let Some(all) = rows.iter().find(|r| r.task == "ALL") {
        if all.constrained.episodes > 0 {
            s.push_str(&format!(
                "constraint violation ratio: {} of {} constrained episodes ({})",
                all.constrained.violated,
                all.constrained.episodes,
                f(all.constrained.ratio())
            ));
            for (level, v) in &all.by_level {
                s.push_str(&format!(
                    "; {level} {} ({}/{})",
                    f(v.ratio()),
                    v.violated,
                    v.episodes
                ));
            }
            s.push('\n');
        }
        // A verdict from a phone nobody reset may reflect an earlier episode's leftovers.
        if !all.unrestored.is_empty() {
            s.push_str(&format!(
                "ran without a restore (setup alone reset the phone): {} of {} episodes: {}\n",
                all.unrestored.len(),
                all.episodes,
                all.unrestored.join(", ")
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::EpisodeRow;

    fn row(id: &str, status: &str, verdict: Option<&str>) -> EpisodeRow {
        EpisodeRow {
            id: id.into(),
            task_id: "t.unknown".into(),
            seed: 0,
            params: vec![],
            goal: "g".into(),
            device: "sim-0".into(),
            status: status.into(),
            started_at: id.into(),
            ended_at: None,
            max_steps: 5,
            answer: None,
            finished: true,
            success: verdict.map(|v| v == "success"),
            score: verdict.map(|v| if v == "success" { 1.0 } else { 0.0 }),
            subgoal_rate: None,
            verdict: verdict.map(str::to_string),
            provisional: false,
            abort_reason: None,
            restored: true,
            setup_log: String::new(),
            env: None,
        }
    }

    #[test]
    fn inconclusive_and_aborted_episodes_are_counted_apart() {
        let store = Store::in_memory().unwrap();
        for r in [
            row("1", "ended", Some("success")),
            row("2", "ended", Some("failure")),
            row("3", "ended", Some("inconclusive")),
            row("4", "aborted", None),
        ] {
            store.insert_episode(&r).unwrap();
        }
        let figures = report(&store, &Catalog::default()).unwrap();
        let all = figures.iter().find(|f| f.task == "ALL").unwrap();
        assert_eq!(all.episodes, 4);
        assert_eq!(all.rule_scored, 2);
        assert_eq!(all.rule_success_rate, Some(0.5));
        assert_eq!(all.rule_inconclusive, 1);
        assert_eq!(all.aborted, 1);
        assert!(table(&figures).contains("incon"));
    }
}

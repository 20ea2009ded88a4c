//! The papers' tables over a run's final rows: AndroidWorld's success by tag × difficulty over the
//! tasks that are not B-MoCA's (errored instances apart, as its `num_fail_trials`; tasks without a
//! difficulty in a column of their own), B-MoCA's success by environment, by factor, by app
//! category and by task over its tasks (and the environments of any task played in one),
//! AndroidArena's trajectory metrics and constraint violations, and progress, false completes and
//! side effects — each rate with its 95% Wilson interval — as Markdown, CSV, JSON (with every
//! episode's figures) and an SVG plot; and the comparison of two runs (per-instance flips, the
//! difference with Newcombe's interval).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{json, Value};

use super::stats::{difference, Rate};

pub mod environments;
mod plot;
use crate::store::{RunDeviceRow, RunResultRow, Store, StoreError};
use crate::task::Catalog;

/// The tags AndroidWorld's table uses as columns.
const DIFFICULTIES: [&str; 3] = ["easy", "medium", "hard"];
/// The column of tasks tagged with none of [`DIFFICULTIES`], so the columns add up to `all`.
const NO_DIFFICULTY: &str = "none";
/// The tag of B-MoCA's tasks, whose run gets B-MoCA's tables instead of AndroidWorld's.
const BMOCA_TAG: &str = "b-moca";
/// The environment column of instances played on the phone as it is (no `--envs`).
const DEFAULT_ENV: &str = "default";

/// B-MoCA's app category (its paper's five groups, appendix B.1) of a task's first app.
fn bmoca_category(app: &str) -> &'static str {
    match app {
        "calculator" | "camera" | "maps" | "photos" | "snapseed" => "Utility",
        "clock" | "calendar" => "Event",
        "contacts" | "messages" | "phone" | "gmail" | "instagram" | "youtube" => "Communication",
        "settings" | "files" => "System",
        "chrome" | "walmart" | "wikipedia" => "Web/Shopping",
        _ => "other",
    }
}

/// The final row of each instance of a run (the last attempt when no row is final: a run cut short).
pub fn finals(rows: &[RunResultRow]) -> Vec<RunResultRow> {
    let mut by: BTreeMap<&str, &RunResultRow> = BTreeMap::new();
    for r in rows {
        let keep = match by.get(r.instance.as_str()) {
            None => true,
            Some(old) => (r.is_final, r.attempt) > (old.is_final, old.attempt),
        };
        if keep {
            by.insert(&r.instance, r);
        }
    }
    by.into_values().cloned().collect()
}

/// Success over rows that were scored (errored ones are left out of every rate).
fn success(rows: &[&RunResultRow]) -> Rate {
    let scored: Vec<_> = rows.iter().filter(|r| r.outcome != "errored").collect();
    Rate::new(
        scored.iter().filter(|r| r.success).count() as u32,
        scored.len() as u32,
    )
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let v: Vec<f64> = values.collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn metric(row: &RunResultRow, key: &str) -> Option<f64> {
    serde_json::from_str::<Value>(&row.metrics)
        .ok()?
        .get(key)?
        .as_f64()
}

fn violations(row: &RunResultRow) -> Vec<Value> {
    serde_json::from_str::<Value>(&row.metrics)
        .ok()
        .and_then(|v| v.get("violations").and_then(Value::as_array).cloned())
        .unwrap_or_default()
}

/// The trajectory figures a row keeps (`tr`, `tcr`, `rrr`, `matched`), by the report's names.
fn trajectory_json(row: &RunResultRow) -> Value {
    let mut out = serde_json::Map::new();
    for (key, name) in [
        ("tr", "task_reward"),
        ("tcr", "completion_ratio"),
        ("rrr", "reversed_redundancy"),
        ("matched", "reference_matched"),
    ] {
        if let Some(v) = metric(row, key) {
            out.insert(name.to_string(), json!(v));
        }
    }
    Value::Object(out)
}

fn side_effects(row: &RunResultRow) -> Vec<String> {
    serde_json::from_str::<Vec<String>>(&row.side_effects).unwrap_or_default()
}

fn show(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.digits$}"))
}

/// A run's report, computed once and written in every format.
pub struct RunReport {
    pub name: String,
    pub rows: Vec<RunResultRow>,
    /// Each task's tags and apps, from the catalog (a task no longer in it has none).
    tasks: BTreeMap<String, TaskFacts>,
    /// The judge panel's outcome of each episode one judged (`droidmcp judge --run NAME`), by
    /// episode id.
    panel: BTreeMap<String, String>,
    /// The devices that played (or could not), with their attempts.
    pub devices: Vec<DeviceLine>,
}

/// What the tables read of a task.
#[derive(Debug, Clone, Default)]
struct TaskFacts {
    tags: Vec<String>,
    apps: Vec<String>,
}

/// Tokens or cost summed over rows, `None` when a row's agent reported none.
fn usage_sum<T: std::iter::Sum<T>>(
    rows: &[&RunResultRow],
    get: fn(&RunResultRow) -> Option<T>,
) -> Option<T> {
    rows.iter().map(|r| get(r)).sum()
}

/// One device of a run: where it came from, what it played, and why it was set aside if it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceLine {
    pub device: String,
    pub source: String,
    /// Attempts it played (every attempt, not only final ones).
    pub attempts: usize,
    pub errored: usize,
    pub set_aside: Option<String>,
}

/// Attempts per device from every row, with the source and set-aside reason the store kept.
fn device_lines(rows: &[RunResultRow], known: &[RunDeviceRow]) -> Vec<DeviceLine> {
    let mut lines: Vec<DeviceLine> = Vec::new();
    // Shards name their devices alike (each process has its `sim:0`): one line per name.
    for d in known {
        match lines.iter_mut().find(|l| l.device == d.device) {
            Some(line) => line.set_aside = line.set_aside.take().or(d.set_aside.clone()),
            None => lines.push(DeviceLine {
                device: d.device.clone(),
                source: d.source.clone(),
                attempts: 0,
                errored: 0,
                set_aside: d.set_aside.clone(),
            }),
        }
    }
    for r in rows {
        let Some(device) = &r.device else { continue };
        let i = match lines.iter().position(|l| &l.device == device) {
            Some(i) => i,
            None => {
                lines.push(DeviceLine {
                    device: device.clone(),
                    source: String::new(),
                    attempts: 0,
                    errored: 0,
                    set_aside: None,
                });
                lines.len() - 1
            }
        };
        lines[i].attempts += 1;
        lines[i].errored += (r.outcome == "errored") as usize;
    }
    lines
}

/// How the judge panel's verdicts compare with the run's own outcomes.
struct Judged<'a> {
    /// Scored instances a panel judged.
    judged: usize,
    /// The panel decided (success or failure) and agreed with the outcome, among those it decided.
    agreement: Rate,
    /// The panel left these to a person (undecided or needs review).
    open: usize,
    /// Decided against the outcome: the row and the panel's verdict.
    disagreements: Vec<(&'a RunResultRow, &'a str)>,
}

impl RunReport {
    pub fn new(name: &str, rows: &[RunResultRow], catalog: &Catalog) -> RunReport {
        let devices = device_lines(rows, &[]);
        let rows = finals(rows);
        let tasks = rows
            .iter()
            .map(|r| {
                let facts = catalog
                    .get(&r.task_id)
                    .map(|t| TaskFacts {
                        tags: t.tags.clone(),
                        apps: t.apps.clone(),
                    })
                    .unwrap_or_default();
                (r.task_id.clone(), facts)
            })
            .collect();
        RunReport {
            name: name.to_string(),
            rows,
            tasks,
            panel: BTreeMap::new(),
            devices,
        }
    }

    /// The report of the run `name` in `store`, with the judge panel's verdicts on its episodes.
    pub fn load(name: &str, store: &Store, catalog: &Catalog) -> Result<RunReport, StoreError> {
        RunReport::load_all(name, std::slice::from_ref(store), catalog)
    }

    /// The report of the run `name` over several stores: the shards of one run, each played by its
    /// own process (`droidmcp run --shard i/n`), read together.
    pub fn load_all(
        name: &str,
        stores: &[Store],
        catalog: &Catalog,
    ) -> Result<RunReport, StoreError> {
        let (mut rows, mut known, mut panel) = (Vec::new(), Vec::new(), BTreeMap::new());
        for store in stores {
            rows.extend(store.run_results(name)?);
            known.extend(store.run_devices(name)?);
            panel.extend(store.with_connection(|c| {
                crate::judge::record::migrate(c)?;
                crate::judge::record::panel_outcomes(c)
            })?);
        }
        let mut report = RunReport::new(name, &rows, catalog);
        report.devices = device_lines(&rows, &known);
        report.panel = panel;
        Ok(report)
    }

    fn panel_of(&self, row: &RunResultRow) -> Option<&str> {
        self.panel
            .get(row.episode_id.as_deref()?)
            .map(String::as_str)
    }

    fn judged(&self) -> Judged<'_> {
        let mut j = Judged {
            judged: 0,
            agreement: Rate::new(0, 0),
            open: 0,
            disagreements: Vec::new(),
        };
        let (mut agree, mut decided) = (0, 0);
        for r in self.rows.iter().filter(|r| r.outcome != "errored") {
            let Some(panel) = self.panel_of(r) else {
                continue;
            };
            j.judged += 1;
            match panel {
                "success" | "failure" => {
                    decided += 1;
                    if (panel == "success") == r.success {
                        agree += 1;
                    } else {
                        j.disagreements.push((r, panel));
                    }
                }
                _ => j.open += 1,
            }
        }
        j.agreement = Rate::new(agree, decided);
        j
    }

    fn all(&self) -> Vec<&RunResultRow> {
        self.rows.iter().collect()
    }

    /// The instances that were scored: errored ones are left out of every rate and mean.
    fn scored(&self) -> Vec<&RunResultRow> {
        self.rows
            .iter()
            .filter(|r| r.outcome != "errored")
            .collect()
    }

    /// Instances whose episode began without a restore of the phone's baseline snapshot (a real
    /// device): only the task's setup reset what it reads.
    fn unrestored(&self) -> Vec<&RunResultRow> {
        self.rows
            .iter()
            .filter(|r| r.restored == Some(false))
            .collect()
    }

    fn errored(&self) -> Vec<&RunResultRow> {
        self.rows
            .iter()
            .filter(|r| r.outcome == "errored")
            .collect()
    }

    /// Episodes where the agent said it was done, and how many of those were wrong.
    fn false_complete(&self) -> Rate {
        let finished: Vec<_> = self
            .rows
            .iter()
            .filter(|r| r.finished && r.outcome != "errored")
            .collect();
        Rate::new(
            finished.iter().filter(|r| !r.success).count() as u32,
            finished.len() as u32,
        )
    }

    fn tags(&self, r: &RunResultRow) -> &[String] {
        self.tasks
            .get(&r.task_id)
            .map_or(&[], |t| t.tags.as_slice())
    }

    fn difficulty(&self, r: &RunResultRow) -> Option<&'static str> {
        let tags = self.tags(r);
        DIFFICULTIES
            .into_iter()
            .find(|d| tags.iter().any(|t| t == d))
    }

    fn is_bmoca(&self, r: &RunResultRow) -> bool {
        self.tags(r).iter().any(|t| t == BMOCA_TAG)
    }

    /// Success by tag (rows) × difficulty (columns), AndroidWorld's table, over the tasks that are
    /// not B-MoCA's (B-MoCA's tables take those).
    fn by_tag(&self) -> BTreeMap<String, BTreeMap<&'static str, Rate>> {
        let mut groups: BTreeMap<String, BTreeMap<&'static str, Vec<&RunResultRow>>> =
            BTreeMap::new();
        for r in self.rows.iter().filter(|r| !self.is_bmoca(r)) {
            let level = self.difficulty(r).unwrap_or(NO_DIFFICULTY);
            for tag in self.tags(r) {
                if DIFFICULTIES.contains(&tag.as_str()) {
                    continue;
                }
                let g = groups.entry(tag.clone()).or_default();
                g.entry(level).or_default().push(r);
                g.entry("all").or_default().push(r);
            }
        }
        groups
            .into_iter()
            .map(|(tag, cols)| {
                (
                    tag,
                    cols.into_iter().map(|(k, v)| (k, success(&v))).collect(),
                )
            })
            .collect()
    }

    /// Whether the run gets B-MoCA's tables: it played a B-MoCA task or in an environment.
    fn has_bmoca(&self) -> bool {
        self.rows
            .iter()
            .any(|r| self.is_bmoca(r) || r.env.is_some())
    }

    /// Success by environment (instances on the phone as it is under [`DEFAULT_ENV`]), and by
    /// each of B-MoCA's factors.
    fn by_env(&self) -> (BTreeMap<String, Rate>, BTreeMap<(String, String), Rate>) {
        let mut envs: BTreeMap<String, Vec<&RunResultRow>> = BTreeMap::new();
        let mut factors: BTreeMap<(String, String), Vec<&RunResultRow>> = BTreeMap::new();
        for r in &self.rows {
            let env = r.env.clone().unwrap_or_else(|| DEFAULT_ENV.to_string());
            envs.entry(env.clone()).or_default().push(r);
            if r.env.is_none() {
                continue;
            }
            if let Ok(e) = droidmcp_env::Environment::resolve(&env) {
                for (factor, value) in e.factors() {
                    factors
                        .entry((factor.to_string(), value))
                        .or_default()
                        .push(r);
                }
            }
        }
        (
            envs.into_iter().map(|(k, v)| (k, success(&v))).collect(),
            factors.into_iter().map(|(k, v)| (k, success(&v))).collect(),
        )
    }

    /// B-MoCA's success by app category and by task, over its tasks.
    fn by_category_and_task(&self) -> (BTreeMap<&'static str, Rate>, BTreeMap<String, Rate>) {
        let mut categories: BTreeMap<&'static str, Vec<&RunResultRow>> = BTreeMap::new();
        let mut tasks: BTreeMap<String, Vec<&RunResultRow>> = BTreeMap::new();
        for r in self.rows.iter().filter(|r| self.is_bmoca(r)) {
            let app = self
                .tasks
                .get(&r.task_id)
                .and_then(|t| t.apps.first())
                .map_or("", String::as_str);
            categories.entry(bmoca_category(app)).or_default().push(r);
            tasks.entry(r.task_id.clone()).or_default().push(r);
        }
        (
            categories
                .into_iter()
                .map(|(k, v)| (k, success(&v)))
                .collect(),
            tasks.into_iter().map(|(k, v)| (k, success(&v))).collect(),
        )
    }

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let all = self.all();
        let scored = self.scored();
        let _ = writeln!(out, "# Run {}\n", self.name);
        let _ = writeln!(out, "| metric | value |\n|---|---|");
        let _ = writeln!(out, "| instances | {} |", all.len());
        let _ = writeln!(
            out,
            "| success (errored left out) | {} |",
            success(&all).show()
        );
        let _ = writeln!(out, "| errored | {} |", self.errored().len());
        let _ = writeln!(
            out,
            "| ran without a restore (setup alone reset the phone) | {} |",
            self.unrestored().len()
        );
        let _ = writeln!(
            out,
            "| false complete (said done, was not) | {} |",
            self.false_complete().show()
        );
        let _ = writeln!(
            out,
            "| mean progress (share of checks passed) | {} |",
            show(mean(scored.iter().filter_map(|r| r.progress)), 3)
        );
        let _ = writeln!(
            out,
            "| mean steps | {} |",
            show(mean(scored.iter().map(|r| r.steps as f64)), 1)
        );
        let _ = writeln!(
            out,
            "| mean runtime per episode (s) | {} |",
            show(mean(all.iter().map(|r| r.wall_ms as f64 / 1000.0)), 2)
        );
        let unknown = "unknown (an agent command reports none)";
        let _ = writeln!(
            out,
            "| tokens | {} |",
            usage_sum(&all, |r| r.tokens).map_or(unknown.to_string(), |t| t.to_string())
        );
        let _ = writeln!(
            out,
            "| cost (USD) | {} |",
            usage_sum(&all, |r| r.cost_usd).map_or(unknown.to_string(), |c| format!("{c:.4}"))
        );
        let with_side = scored
            .iter()
            .filter(|r| !side_effects(r).is_empty())
            .count();
        let _ = writeln!(
            out,
            "| episodes with unexpected side effects | {} |",
            Rate::new(with_side as u32, scored.len() as u32).show()
        );

        let by_tag = self.by_tag();
        if !by_tag.is_empty() {
            // A task without a difficulty tag gets a column of its own, so the columns add up.
            let mut columns: Vec<&str> = DIFFICULTIES.to_vec();
            if by_tag.values().any(|cols| cols.contains_key(NO_DIFFICULTY)) {
                columns.push(NO_DIFFICULTY);
            }
            columns.push("all");
            let _ = writeln!(out, "\n## Success by tag and difficulty (AndroidWorld)\n");
            let _ = writeln!(
                out,
                "| tag | {} |\n|---|{}",
                columns
                    .iter()
                    .map(|c| if *c == NO_DIFFICULTY {
                        "no difficulty"
                    } else {
                        *c
                    })
                    .collect::<Vec<_>>()
                    .join(" | "),
                "---|".repeat(columns.len())
            );
            for (tag, cols) in &by_tag {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|k| cols.get(k).map_or("-".to_string(), Rate::show))
                    .collect();
                let _ = writeln!(out, "| {tag} | {} |", cells.join(" | "));
            }
        }

        if self.has_bmoca() {
            let (envs, factors) = self.by_env();
            let (categories, tasks) = self.by_category_and_task();
            let _ = writeln!(out, "\n## Success by environment (B-MoCA)\n");
            let _ = writeln!(out, "| environment | success |\n|---|---|");
            for (env, rate) in &envs {
                let _ = writeln!(out, "| {env} | {} |", rate.show());
            }
            if !factors.is_empty() {
                let _ = writeln!(out, "\n| factor | value | success |\n|---|---|---|");
                for ((factor, value), rate) in &factors {
                    let _ = writeln!(out, "| {factor} | {value} | {} |", rate.show());
                }
            }
            if !tasks.is_empty() {
                let _ = writeln!(out, "\n## Success by app category (B-MoCA)\n");
                let _ = writeln!(out, "| category | success |\n|---|---|");
                for (category, rate) in &categories {
                    let _ = writeln!(out, "| {category} | {} |", rate.show());
                }
                let _ = writeln!(out, "\n## Success by task (B-MoCA)\n");
                let _ = writeln!(out, "| task | success |\n|---|---|");
                for (task, rate) in &tasks {
                    let _ = writeln!(out, "| {task} | {} |", rate.show());
                }
            }
        }

        let _ = writeln!(out, "\n## Trajectories and constraints (AndroidArena)\n");
        let _ = writeln!(out, "| metric | mean |\n|---|---|");
        for (key, name) in [
            ("tr", "TR (task reward)"),
            ("tcr", "TCR (completion ratio)"),
            ("rrr", "RRR (reversed redundancy)"),
            (
                "matched",
                "share of the reference matched (LCS, outcome aside)",
            ),
        ] {
            let _ = writeln!(
                out,
                "| {name} | {} |",
                show(mean(scored.iter().filter_map(|r| metric(r, key))), 3)
            );
        }
        let mut levels: BTreeMap<String, u32> = BTreeMap::new();
        for r in &scored {
            for v in violations(r) {
                *levels
                    .entry(v["level"].as_str().unwrap_or("?").to_string())
                    .or_default() += 1;
            }
        }
        for (level, n) in levels {
            let _ = writeln!(out, "| violations at {level} level | {n} |");
        }

        let judged = self.judged();
        if judged.judged > 0 {
            let _ = writeln!(out, "\n## Judges (`droidmcp judge --run`)\n");
            let _ = writeln!(out, "| metric | value |\n|---|---|");
            let _ = writeln!(out, "| episodes judged | {} |", judged.judged);
            let _ = writeln!(
                out,
                "| panel agrees with the outcome (where it decided) | {} |",
                judged.agreement.show()
            );
            let _ = writeln!(
                out,
                "| left to a person (undecided, needs review) | {} |",
                judged.open
            );
            for (r, panel) in &judged.disagreements {
                let _ = writeln!(
                    out,
                    "- {}: outcome {}, panel {panel}",
                    r.instance, r.outcome
                );
            }
        }

        let errored = self.errored();
        if !errored.is_empty() {
            let _ = writeln!(out, "\n## Errored (not counted as failures)\n");
            for r in errored {
                let _ = writeln!(
                    out,
                    "- {} (attempt {}): {}",
                    r.instance,
                    r.attempt,
                    r.error.as_deref().unwrap_or("?")
                );
            }
        }
        let no_step: Vec<(&RunResultRow, String)> = self
            .rows
            .iter()
            .filter_map(|r| Some((r, super::no_step::why_no_step(r)?)))
            .collect();
        if !no_step.is_empty() {
            let _ = writeln!(out, "\n## Took no step\n");
            for (r, why) in no_step {
                let _ = writeln!(out, "- {}: {why}", r.instance);
            }
        }
        if !self.devices.is_empty() {
            let _ = writeln!(
                out,
                "\n## Devices\n\n| device | source | attempts | errored | set aside |\n|---|---|---:|---:|---|"
            );
            for d in &self.devices {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} |",
                    d.device,
                    d.source,
                    d.attempts,
                    d.errored,
                    d.set_aside.as_deref().unwrap_or("")
                );
            }
        }
        let unrestored = self.unrestored();
        if !unrestored.is_empty() {
            let _ = writeln!(
                out,
                "\n## Ran without a restore\n\nThe phone had no baseline snapshot to restore; only the task's setup reset what it reads.\n"
            );
            for r in unrestored {
                let _ = writeln!(
                    out,
                    "- {} (episode {})",
                    r.instance,
                    r.episode_id.as_deref().unwrap_or("?")
                );
            }
        }
        let effects: Vec<_> = scored
            .iter()
            .filter(|r| !side_effects(r).is_empty())
            .collect();
        if !effects.is_empty() {
            let _ = writeln!(out, "\n## Unexpected side effects\n");
            for r in effects {
                let _ = writeln!(out, "- {}: {}", r.instance, side_effects(r).join("; "));
            }
        }
        out
    }

    /// One line per instance.
    pub fn csv(&self) -> String {
        let mut out = String::from("instance,task,seed,env,attempt,outcome,finished,success,progress,steps,max_steps,tokens,cost_usd,wall_ms,ending,side_effects,error,panel,tr,tcr,rrr\n");
        let figure = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x:.3}"));
        let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                quote(&r.instance),
                quote(&r.task_id),
                r.seed,
                quote(r.env.as_deref().unwrap_or("")),
                r.attempt,
                r.outcome,
                r.finished,
                r.success,
                r.progress.map_or(String::new(), |p| format!("{p:.3}")),
                r.steps,
                r.max_steps,
                // Empty where the agent reported none.
                r.tokens.map_or(String::new(), |t| t.to_string()),
                r.cost_usd.map_or(String::new(), |c| format!("{c:.6}")),
                r.wall_ms,
                quote(&r.ending),
                side_effects(r).len(),
                quote(r.error.as_deref().unwrap_or("")),
                self.panel_of(r).unwrap_or(""),
                figure(metric(r, "tr")),
                figure(metric(r, "tcr")),
                figure(metric(r, "rrr")),
            );
        }
        out
    }

    /// One final attempt's figures, for `report --json`.
    fn episode_json(&self, r: &RunResultRow) -> Value {
        json!({
        "instance": r.instance, "task": r.task_id, "seed": r.seed, "env": r.env,
        "attempt": r.attempt, "episode": r.episode_id, "device": r.device,
        "outcome": r.outcome, "finished": r.finished, "success": r.success,
        "progress": r.progress, "steps": r.steps, "max_steps": r.max_steps,
        "runtime_ms": r.wall_ms, "tokens": r.tokens, "cost_usd": r.cost_usd,
        "ending": r.ending, "error": r.error, "side_effects": side_effects(r),
        "trajectory": trajectory_json(r), "violations": violations(r),
        "panel": self.panel_of(r),
        })
    }

    /// The figures as JSON.
    pub fn json(&self) -> Value {
        let rate = |r: Rate| {
            let (lo, hi) = r.wilson();
            json!({"k": r.k, "n": r.n, "rate": r.value(), "ci95": [lo, hi]})
        };
        let all = self.all();
        let scored = self.scored();
        let (envs, factors) = if self.has_bmoca() {
            self.by_env()
        } else {
            Default::default()
        };
        let (categories, tasks) = self.by_category_and_task();
        let judged = self.judged();
        let with_side = scored
            .iter()
            .filter(|r| !side_effects(r).is_empty())
            .count();
        let trajectory_mean = |key: &str| mean(scored.iter().filter_map(|r| metric(r, key)));
        json!({
            "run": self.name,
            "instances": all.len(),
            "success": rate(success(&all)),
            "errored": self.errored().len(),
            "unrestored": self.unrestored().iter().map(|r| r.instance.as_str()).collect::<Vec<_>>(),
            "false_complete": rate(self.false_complete()),
            "mean_progress": mean(scored.iter().filter_map(|r| r.progress)),
            "mean_steps": mean(scored.iter().map(|r| r.steps as f64)),
            "mean_runtime_s": mean(all.iter().map(|r| r.wall_ms as f64 / 1000.0)),
            // null where an agent reported none (a command agent)
            "tokens": usage_sum(&all, |r| r.tokens),
            "cost_usd": usage_sum(&all, |r| r.cost_usd),
            "side_effects": rate(Rate::new(with_side as u32, scored.len() as u32)),
            "trajectory": {
                "task_reward": trajectory_mean("tr"),
                "completion_ratio": trajectory_mean("tcr"),
                "reversed_redundancy": trajectory_mean("rrr"),
            },
            "devices": self.devices.iter().map(|d| json!({"device": d.device, "source": d.source,
                "attempts": d.attempts, "errored": d.errored, "set_aside": d.set_aside}))
                .collect::<Vec<_>>(),
            "by_tag": self.by_tag().into_iter().map(|(tag, cols)| (tag, Value::Object(cols.into_iter()
                .map(|(k, v)| (k.to_string(), rate(v))).collect())))
                .collect::<serde_json::Map<_, _>>(),
            "by_env": envs.into_iter().map(|(k, v)| (k, rate(v))).collect::<serde_json::Map<_, _>>(),
            "by_factor": factors.into_iter().map(|((f, v), r)| json!({"factor": f, "value": v, "success": rate(r)})).collect::<Vec<_>>(),
            "by_category": categories.into_iter().map(|(k, v)| (k.to_string(), rate(v))).collect::<serde_json::Map<_, _>>(),
            "by_task": tasks.into_iter().map(|(k, v)| (k, rate(v))).collect::<serde_json::Map<_, _>>(),
            "judges": {
                "judged": judged.judged,
                "agreement": rate(judged.agreement),
                "open": judged.open,
                "disagreements": judged.disagreements.iter()
                    .map(|(r, panel)| json!({"instance": r.instance, "outcome": r.outcome, "panel": panel}))
                    .collect::<Vec<_>>(),
            },
            "episodes": self.rows.iter().map(|r| self.episode_json(r)).collect::<Vec<_>>(),
        })
    }

    /// This run against `other`: the success difference (`other − self`) with its interval, and the
    /// instances whose outcome flipped.
    pub fn compare(&self, other: &RunReport) -> String {
        let mut out = format!("# {} → {}\n\n", self.name, other.name);
        let (a, b) = (success(&self.all()), success(&other.all()));
        let _ = writeln!(
            out,
            "| run | success |\n|---|---|\n| {} | {} |\n| {} | {} |",
            self.name,
            a.show(),
            other.name,
            b.show()
        );
        match difference(a, b) {
            Some((d, lo, hi)) => {
                let _ = writeln!(
                    out,
                    "\ndifference: {:+.1} points [{:+.1}, {:+.1}] (95%, Newcombe){}",
                    d * 100.0,
                    lo * 100.0,
                    hi * 100.0,
                    if lo > 0.0 || hi < 0.0 {
                        ""
                    } else {
                        " — the interval includes 0"
                    }
                );
            }
            None => out.push_str("\ndifference: - (a run has no scored instance)\n"),
        }
        let mine: BTreeMap<&str, &RunResultRow> =
            self.rows.iter().map(|r| (r.instance.as_str(), r)).collect();
        let mut flips = Vec::new();
        for r in &other.rows {
            if let Some(m) = mine.get(r.instance.as_str()) {
                if m.outcome != r.outcome {
                    flips.push(format!("- {}: {} → {}", r.instance, m.outcome, r.outcome));
                }
            }
        }
        let _ = writeln!(
            out,
            "\n{} instances flipped{}",
            flips.len(),
            if flips.is_empty() { "." } else { ":" }
        );
        for f in flips {
            let _ = writeln!(out, "{f}");
        }
        out
    }
}

#[cfg(test)]
mod tests;

//! The papers' tables over a run's final rows: AndroidWorld's success by tag × difficulty (errored
//! instances apart, as its `num_fail_trials`), B-MoCA's success by environment and by factor,
//! AndroidArena's trajectory metrics and constraint violations, and progress, false completes and
//! side effects — each rate with its 95% Wilson interval — as Markdown, CSV, JSON and an SVG plot;
//! and the comparison of two runs (per-instance flips, the difference with Newcombe's interval).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{json, Value};

use super::stats::{difference, Rate};
use crate::store::{RunDeviceRow, RunResultRow, Store, StoreError};
use crate::task::Catalog;

/// The tags AndroidWorld's table uses as columns.
const DIFFICULTIES: [&str; 3] = ["easy", "medium", "hard"];

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
    /// Each task's tags, from the catalog (a task no longer in it has none).
    tags: BTreeMap<String, Vec<String>>,
    /// The judge panel's outcome of each episode one judged (`droidmcp judge --run NAME`), by
    /// episode id.
    panel: BTreeMap<String, String>,
    /// The devices that played (or could not), with their attempts.
    pub devices: Vec<DeviceLine>,
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
        let tags = rows
            .iter()
            .map(|r| {
                let tags = catalog
                    .get(&r.task_id)
                    .map(|t| t.tags.clone())
                    .unwrap_or_default();
                (r.task_id.clone(), tags)
            })
            .collect();
        RunReport {
            name: name.to_string(),
            rows,
            tags,
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

    fn difficulty(&self, r: &RunResultRow) -> Option<&'static str> {
        let tags = self.tags.get(&r.task_id)?;
        DIFFICULTIES
            .into_iter()
            .find(|d| tags.iter().any(|t| t == d))
    }

    /// Success by tag (rows) × difficulty (columns), AndroidWorld's table.
    fn by_tag(&self) -> BTreeMap<String, BTreeMap<&'static str, Rate>> {
        let mut groups: BTreeMap<String, BTreeMap<&'static str, Vec<&RunResultRow>>> =
            BTreeMap::new();
        for r in &self.rows {
            let level = self.difficulty(r).unwrap_or("-");
            for tag in self.tags.get(&r.task_id).into_iter().flatten() {
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

    /// Success by environment, and by each of B-MoCA's factors.
    fn by_env(&self) -> (BTreeMap<String, Rate>, BTreeMap<(String, String), Rate>) {
        let mut envs: BTreeMap<String, Vec<&RunResultRow>> = BTreeMap::new();
        let mut factors: BTreeMap<(String, String), Vec<&RunResultRow>> = BTreeMap::new();
        for r in &self.rows {
            let Some(env) = &r.env else { continue };
            envs.entry(env.clone()).or_default().push(r);
            if let Ok(e) = crate::env::Environment::resolve(env) {
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

    /// The report as Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let all = self.all();
        let scored: Vec<_> = all
            .iter()
            .copied()
            .filter(|r| r.outcome != "errored")
            .collect();
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
        let _ = writeln!(
            out,
            "| tokens | {} |",
            all.iter().map(|r| r.tokens).sum::<u64>()
        );
        let _ = writeln!(
            out,
            "| cost (USD) | {:.4} |",
            all.iter().map(|r| r.cost_usd).sum::<f64>()
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

        let _ = writeln!(out, "\n## Success by tag and difficulty (AndroidWorld)\n");
        let _ = writeln!(
            out,
            "| tag | easy | medium | hard | all |\n|---|---|---|---|---|"
        );
        for (tag, cols) in self.by_tag() {
            let cell = |k: &str| cols.get(k).map_or("-".to_string(), Rate::show);
            let _ = writeln!(
                out,
                "| {tag} | {} | {} | {} | {} |",
                cell("easy"),
                cell("medium"),
                cell("hard"),
                cell("all")
            );
        }

        let (envs, factors) = self.by_env();
        if !envs.is_empty() {
            let _ = writeln!(out, "\n## Success by environment (B-MoCA)\n");
            let _ = writeln!(out, "| environment | success |\n|---|---|");
            for (env, rate) in &envs {
                let _ = writeln!(out, "| {env} | {} |", rate.show());
            }
            let _ = writeln!(out, "\n| factor | value | success |\n|---|---|---|");
            for ((factor, value), rate) in &factors {
                let _ = writeln!(out, "| {factor} | {value} | {} |", rate.show());
            }
        }

        let _ = writeln!(out, "\n## Trajectories and constraints (AndroidArena)\n");
        let _ = writeln!(out, "| metric | mean |\n|---|---|");
        for (key, name) in [
            ("tr", "TR (task reward)"),
            ("tcr", "TCR (completion ratio)"),
            ("rrr", "RRR (reversed redundancy)"),
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
        let mut out = String::from("instance,task,seed,env,attempt,outcome,finished,success,progress,steps,max_steps,tokens,cost_usd,wall_ms,ending,side_effects,error,panel\n");
        let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{:.6},{},{},{},{},{}",
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
                r.tokens,
                r.cost_usd,
                r.wall_ms,
                quote(&r.ending),
                side_effects(r).len(),
                quote(r.error.as_deref().unwrap_or("")),
                self.panel_of(r).unwrap_or(""),
            );
        }
        out
    }

    /// The figures as JSON.
    pub fn json(&self) -> Value {
        let rate = |r: Rate| {
            let (lo, hi) = r.wilson();
            json!({"k": r.k, "n": r.n, "rate": r.value(), "ci95": [lo, hi]})
        };
        let all = self.all();
        let (envs, factors) = self.by_env();
        let judged = self.judged();
        json!({
            "run": self.name,
            "instances": all.len(),
            "success": rate(success(&all)),
            "errored": self.errored().len(),
            "unrestored": self.unrestored().iter().map(|r| r.instance.as_str()).collect::<Vec<_>>(),
            "false_complete": rate(self.false_complete()),
            "devices": self.devices.iter().map(|d| json!({"device": d.device, "source": d.source,
                "attempts": d.attempts, "errored": d.errored, "set_aside": d.set_aside}))
                .collect::<Vec<_>>(),
            "by_tag": self.by_tag().into_iter().map(|(tag, cols)| (tag, Value::Object(cols.into_iter()
                .map(|(k, v)| (k.to_string(), rate(v))).collect())))
                .collect::<serde_json::Map<_, _>>(),
            "by_env": envs.into_iter().map(|(k, v)| (k, rate(v))).collect::<serde_json::Map<_, _>>(),
            "by_factor": factors.into_iter().map(|((f, v), r)| json!({"factor": f, "value": v, "success": rate(r)})).collect::<Vec<_>>(),
            "judges": {
                "judged": judged.judged,
                "agreement": rate(judged.agreement),
                "open": judged.open,
                "disagreements": judged.disagreements.iter()
                    .map(|(r, panel)| json!({"instance": r.instance, "outcome": r.outcome, "panel": panel}))
                    .collect::<Vec<_>>(),
            },
        })
    }

    /// Success by tag (and by environment, when the run has several) as horizontal bars with their
    /// Wilson intervals.
    pub fn svg(&self) -> String {
        let mut bars: Vec<(String, Rate)> = self
            .by_tag()
            .into_iter()
            .filter_map(|(tag, cols)| cols.get("all").map(|r| (format!("tag {tag}"), *r)))
            .collect();
        let (envs, _) = self.by_env();
        if envs.len() > 1 {
            bars.extend(envs.into_iter().map(|(e, r)| (format!("env {e}"), r)));
        }
        let (label_w, bar_w, row_h) = (180.0, 420.0, 22.0);
        let height = 40.0 + row_h * bars.len() as f64;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n<text x=\"8\" y=\"20\" font-weight=\"bold\">Run {} — success (95% Wilson interval)</text>\n",
            label_w + bar_w + 90.0,
            xml_escape(&self.name)
        );
        for (i, (label, rate)) in bars.iter().enumerate() {
            let y = 32.0 + row_h * i as f64;
            let p = rate.value().unwrap_or(0.0);
            let (lo, hi) = rate.wilson();
            let _ = writeln!(
                out,
                "<text x=\"8\" y=\"{:.1}\">{}</text><rect x=\"{label_w}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#4a7bd0\"/><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#222\"/><text x=\"{:.1}\" y=\"{:.1}\">{:.0}% ({}/{})</text>",
                y + 14.0,
                xml_escape(label),
                bar_w * p,
                row_h - 6.0,
                label_w + bar_w * lo,
                label_w + bar_w * hi,
                y + (row_h - 6.0) / 2.0,
                y + (row_h - 6.0) / 2.0,
                label_w + bar_w + 8.0,
                y + 14.0,
                p * 100.0,
                rate.k,
                rate.n
            );
        }
        out.push_str("</svg>\n");
        out
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

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(instance: &str, attempt: u32, outcome: &str, is_final: bool) -> RunResultRow {
        RunResultRow {
            instance: instance.into(),
            task_id: instance.split('#').next().unwrap().into(),
            attempt,
            outcome: outcome.into(),
            is_final,
            success: outcome == "success",
            side_effects: "[]".into(),
            metrics: "{}".into(),
            ..RunResultRow::default()
        }
    }

    #[test]
    fn the_final_attempt_of_each_instance_counts() {
        let rows = [
            row("a#1", 1, "errored", false),
            row("a#1", 2, "success", true),
            row("b#1", 1, "errored", false),
            row("c#1", 1, "failure", true),
        ];
        let f = finals(&rows);
        let got: Vec<_> = f
            .iter()
            .map(|r| (r.instance.as_str(), r.attempt, r.outcome.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("a#1", 2, "success"),
                ("b#1", 1, "errored"),
                ("c#1", 1, "failure")
            ]
        );
        let refs: Vec<&RunResultRow> = f.iter().collect();
        // Errored instances are out of the rate: 1 of 2 scored.
        assert_eq!(success(&refs), Rate::new(1, 2));
    }
}

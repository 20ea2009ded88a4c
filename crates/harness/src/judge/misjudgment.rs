//! What calibration found, per mode: how often each judge misjudged (with a 95% Wilson interval),
//! which tasks drew false successes and false failures, and how complete the evidence was — the
//! share of episodes whose evidence alone, decided with the task's own checks, gives the rule
//! verdict (see [`super::completeness`]).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::calibration_run::CalibrationEpisode;
use super::evidence::Mode;
use crate::run::stats::Rate;

/// One judge in one mode.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeErrors {
    pub judge: String,
    pub mode: Mode,
    /// Wrong or undecided verdicts over judged episodes.
    pub misjudged: Rate,
    /// Task → trajectories the judge called a success that the rules call a failure.
    pub false_successes: BTreeMap<String, Vec<String>>,
    /// Task → trajectories the judge called a failure (or left undecided) that succeeded.
    pub false_failures: BTreeMap<String, Vec<String>>,
}

/// The evidence decided alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Completeness {
    /// Episodes whose evidence gives the rule verdict.
    pub agreeing: Rate,
    /// Checks the evidence could decide.
    pub checks_decided: Rate,
    /// `task (trajectory): why`, for every episode whose evidence did not give the rule verdict.
    pub gaps: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Findings {
    pub judges: Vec<JudgeErrors>,
    pub completeness: Completeness,
}

/// The findings over `episodes` for the judges `names` (panel order) in `modes`.
pub fn findings(names: &[String], modes: &[Mode], episodes: &[CalibrationEpisode]) -> Findings {
    let mut judges = Vec::new();
    for &mode in modes {
        for (i, name) in names.iter().enumerate() {
            let mut e = JudgeErrors {
                judge: name.clone(),
                mode,
                misjudged: Rate::new(0, 0),
                false_successes: BTreeMap::new(),
                false_failures: BTreeMap::new(),
            };
            for ep in episodes {
                let Some(l) = ep.in_mode(mode) else { continue };
                e.misjudged.n += 1;
                let said = l.verdicts.get(i).and_then(|v| v.as_bool());
                if said == Some(l.truth) {
                    continue;
                }
                e.misjudged.k += 1;
                let list = if said == Some(true) {
                    &mut e.false_successes
                } else {
                    &mut e.false_failures
                };
                list.entry(ep.task.clone())
                    .or_default()
                    .push(ep.trajectory.clone());
            }
            judges.push(e);
        }
    }
    let mut completeness = Completeness {
        agreeing: Rate::new(0, 0),
        checks_decided: Rate::new(0, 0),
        gaps: Vec::new(),
    };
    for ep in episodes {
        let (Some(truth), Some(sight)) = (ep.truth, &ep.sight) else {
            continue;
        };
        completeness.agreeing.n += 1;
        for c in &sight.checks {
            completeness.checks_decided.n += 1;
            if c.missing.is_none() {
                completeness.checks_decided.k += 1;
            }
        }
        if sight.success == truth {
            completeness.agreeing.k += 1;
        } else {
            let why: Vec<String> = sight
                .checks
                .iter()
                .filter_map(|c| c.missing.as_ref().map(|m| format!("{}: {m}", c.check)))
                .collect();
            completeness.gaps.push(format!(
                "{} seed {} ({}): rules say {}, the evidence alone {}{}",
                ep.task,
                ep.seed,
                ep.trajectory,
                if truth { "success" } else { "failure" },
                if sight.success { "success" } else { "failure" },
                if why.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", why.join("; "))
                }
            ));
        }
    }
    Findings {
        judges,
        completeness,
    }
}

fn listed(by_task: &BTreeMap<String, Vec<String>>) -> String {
    by_task
        .iter()
        .map(|(task, ts)| format!("{task} ({})", ts.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

impl Findings {
    pub fn text(&self) -> String {
        let mut out = String::new();
        let c = &self.completeness;
        out.push_str(&format!(
            "evidence completeness: the evidence alone gives the rule verdict in {}; checks decided from it {}\n",
            c.agreeing.show(),
            c.checks_decided.show()
        ));
        for gap in &c.gaps {
            out.push_str(&format!("  gap: {gap}\n"));
        }
        for j in &self.judges {
            out.push_str(&format!(
                "{} {}: misjudged {}\n",
                j.mode.as_str(),
                j.judge,
                j.misjudged.show()
            ));
            if !j.false_successes.is_empty() {
                out.push_str(&format!(
                    "  false successes: {}\n",
                    listed(&j.false_successes)
                ));
            }
            if !j.false_failures.is_empty() {
                out.push_str(&format!(
                    "  false failures: {}\n",
                    listed(&j.false_failures)
                ));
            }
        }
        out
    }

    pub fn to_json(&self) -> Value {
        let rate = |r: &Rate| {
            let (lo, hi) = r.wilson();
            json!({"k": r.k, "n": r.n, "rate": r.value(), "ci95": [lo, hi]})
        };
        json!({
            "completeness": {
                "agreeing": rate(&self.completeness.agreeing),
                "checks_decided": rate(&self.completeness.checks_decided),
                "gaps": self.completeness.gaps,
            },
            "judges": self.judges.iter().map(|j| json!({
                "judge": j.judge,
                "mode": j.mode.as_str(),
                "misjudged": rate(&j.misjudged),
                "false_successes": j.false_successes,
                "false_failures": j.false_failures,
            })).collect::<Vec<_>>(),
        })
    }
}

//! Producing labelled episodes for calibration on the embedded phone: for each task instance, its golden
//! solution, an empty trajectory and (where the task file has one) its plausible wrong trajectory are
//! replayed through `Session::act`, the path agents take; the rule-based checks give the known outcome and
//! the panel judges the recorded evidence.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::device::{Device, Shell};
use crate::episode::replay::{attach, replay};
use crate::episode::Episode;
use crate::sim::{Phone, SimConfig};
use crate::store::Store;
use crate::task::{Action, Task};

use super::calibrate::Labelled;
use super::evidence::Mode;
use super::panel::{combine, Panel, Policy};
use super::record;
use super::source;

/// One calibration episode and what became of it.
#[derive(Debug, Clone)]
pub struct CalibrationEpisode {
    pub episode: String,
    pub task: String,
    pub seed: u64,
    /// `golden`, `empty` or `wrong`.
    pub trajectory: &'static str,
    /// The rule-based outcome; `None` when the episode could not be run (see `note`).
    pub labelled: Option<Labelled>,
    pub note: Option<String>,
}

/// Runs one trajectory of one task instance and judges it.
async fn run_one(
    task: &Arc<Task>,
    seed: u64,
    trajectory: &'static str,
    actions: &[Action],
    panel: &Panel,
    mode: Mode,
    store: &Store,
) -> CalibrationEpisode {
    let failed = |note: String| CalibrationEpisode {
        episode: String::new(),
        task: task.id.clone(),
        seed,
        trajectory,
        labelled: None,
        note: Some(note),
    };
    let instance = match task.instantiate(seed, &BTreeMap::new()) {
        Ok(i) => i,
        Err(e) => return failed(format!("instantiate: {e}")),
    };
    let phone = match Phone::new(SimConfig {
        seed,
        ..SimConfig::default()
    }) {
        Ok(p) => p,
        Err(e) => return failed(format!("boot: {e}")),
    };
    let shell: Arc<dyn Shell> = Arc::new(phone);
    let device = Device::new(shell.clone());
    let episode = match Episode::start(instance, shell.clone(), Some(store.clone())).await {
        Ok(e) => Arc::new(tokio::sync::Mutex::new(e)),
        Err(e) => return failed(format!("setup: {e}")),
    };
    let session = match attach(shell, &episode).await {
        Ok(s) => s,
        Err(e) => return failed(format!("session: {e}")),
    };
    if let Err(e) = replay(&session, &episode, actions).await {
        // A wrong trajectory may stop early (its selector is gone); what it did so far still counts.
        if trajectory == "golden" {
            return failed(format!("golden replay: {e}"));
        }
    }
    let mut episode = episode.lock().await;
    let truth = match episode.check().await {
        Ok(report) => report.verdict.success,
        Err(e) => return failed(format!("check: {e}")),
    };
    let evidence = match source::from_store(store, &episode.id, Some(task.kind.as_str())) {
        Ok(ev) => source::with_live_final_screen(ev, &device).await,
        Err(e) => return failed(format!("evidence: {e}")),
    };
    let verdict = panel.judge(&evidence, mode).await;
    let combined = combine(Policy::JudgesOnly, Some(truth), Some(&verdict));
    let recorded = store.with_connection(|c| {
        record::migrate(c)?;
        record::record(
            c,
            &episode.id,
            Policy::JudgesOnly,
            Some(truth),
            &verdict,
            &combined,
        )
    });
    let _ = episode.end().await;
    let mut verdicts: Vec<_> = verdict.judges.iter().map(|o| o.verdict.kind).collect();
    if let Some(t) = &verdict.tie_breaker {
        verdicts.push(t.verdict.kind);
    }
    CalibrationEpisode {
        episode: episode.id.clone(),
        task: task.id.clone(),
        seed,
        trajectory,
        labelled: Some(Labelled {
            episode: episode.id.clone(),
            truth,
            verdicts,
        }),
        note: recorded.err().map(|e| format!("not recorded: {e}")),
    }
}

/// Runs golden, empty and wrong trajectories of `tasks` for `seeds` seeds and judges each.
pub async fn run(
    tasks: &[Arc<Task>],
    seeds: u64,
    panel: &Panel,
    mode: Mode,
    store: &Store,
) -> Vec<CalibrationEpisode> {
    let mut out = Vec::new();
    for task in tasks {
        for seed in 0..seeds {
            let mut trajectories: Vec<(&'static str, Vec<Action>)> = vec![
                ("golden", task.golden.clone()),
                ("empty", vec![Action::Finish]),
            ];
            if let Some(wrong) = &task.wrong {
                trajectories.push(("wrong", wrong.clone()));
            }
            for (name, actions) in trajectories {
                // Goldens are templates: render them for this instance.
                let actions = match task.instantiate(seed, &BTreeMap::new()) {
                    Ok(instance) if name == "golden" => instance.golden,
                    Ok(instance) if name == "wrong" => instance.wrong.unwrap_or(actions),
                    _ => actions,
                };
                out.push(run_one(task, seed, name, &actions, panel, mode, store).await);
            }
        }
    }
    out
}

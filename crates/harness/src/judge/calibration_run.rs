//! Producing labelled episodes for calibration on the embedded phone: for each task instance, its golden
//! solution, an empty trajectory, its plausible wrong trajectory (where the task file has one) and each
//! near miss (the golden with one parameter off) are replayed through `Session::act`, the path agents
//! take; the rule-based checks give the known outcome, the panel judges the recorded evidence in each
//! mode asked for, and the evidence is decided alone with the task's checks (its completeness, see
//! [`super::completeness`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::episode::replay::{attach, replay};
use crate::episode::Episode;
use crate::store::Store;
use crate::task::{Action, Task};
use droidmcp_device::Shell;
use droidmcp_sim::{Phone, SimConfig};

use super::calibrate::Labelled;
use super::completeness::{self, Sight};
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
    /// `golden`, `empty`, `wrong` or `near miss: <what changed>`.
    pub trajectory: String,
    /// The rule-based outcome.
    pub truth: Option<bool>,
    /// What the panel said, per mode (in the order asked); empty when the episode could not run.
    pub labelled: Vec<(Mode, Labelled)>,
    /// The episode decided from its evidence alone.
    pub sight: Option<Sight>,
    pub note: Option<String>,
}

impl CalibrationEpisode {
    /// The panel's verdicts in `mode`.
    pub fn in_mode(&self, mode: Mode) -> Option<&Labelled> {
        self.labelled
            .iter()
            .find(|(m, _)| *m == mode)
            .map(|(_, l)| l)
    }
}

/// Runs one trajectory of one task instance and judges it in each of `modes`.
async fn run_one(
    task: &Arc<Task>,
    seed: u64,
    trajectory: String,
    actions: &[Action],
    panel: &Panel,
    modes: &[Mode],
    store: &Store,
) -> CalibrationEpisode {
    let mut out = CalibrationEpisode {
        episode: String::new(),
        task: task.id.clone(),
        seed,
        trajectory,
        truth: None,
        labelled: Vec::new(),
        sight: None,
        note: None,
    };
    let failed = |mut out: CalibrationEpisode, note: String| {
        out.note = Some(note);
        out
    };
    let instance = match task.instantiate(seed, &BTreeMap::new()) {
        Ok(i) => i,
        Err(e) => return failed(out, format!("instantiate: {e}")),
    };
    let (checks, constraints) = (instance.checks.clone(), instance.constraints.clone());
    let phone = match Phone::new(SimConfig {
        seed,
        ..SimConfig::default()
    }) {
        Ok(p) => p,
        Err(e) => return failed(out, format!("boot: {e}")),
    };
    let shell: Arc<dyn Shell> = Arc::new(phone);
    let episode = match Episode::start(instance, shell.clone(), Some(store.clone())).await {
        Ok(e) => Arc::new(tokio::sync::Mutex::new(e)),
        Err(e) => return failed(out, format!("setup: {e}")),
    };
    let session = match attach(shell, &episode).await {
        Ok(s) => s,
        Err(e) => return failed(out, format!("session: {e}")),
    };
    if let Err(e) = replay(&session, &episode, actions).await {
        // A wrong trajectory or a near miss may stop early (its selector is gone); what it did so
        // far still counts.
        if out.trajectory == "golden" {
            return failed(out, format!("golden replay: {e}"));
        }
    }
    let mut episode = episode.lock().await;
    out.episode = episode.id.clone();
    // A trajectory may stop before saying it is done: the end state it left is what is judged, and
    // the final check keeps it (frame and device facts).
    if !episode.is_finished() {
        let _ = episode.finish();
    }
    let truth = match episode.check().await {
        Ok(report) => report.verdict.success,
        Err(e) => return failed(out, format!("check: {e}")),
    };
    out.truth = Some(truth);
    let evidence = match source::from_store(store, &episode.id, Some(task.kind.as_str())) {
        Ok(ev) => ev,
        Err(e) => return failed(out, format!("evidence: {e}")),
    };
    out.sight = Some(completeness::decide(task, &checks, &constraints, &evidence).await);
    let mut notes = Vec::new();
    for &mode in modes {
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
        if let Err(e) = recorded {
            notes.push(format!("{} not recorded: {e}", mode.as_str()));
        }
        let mut verdicts: Vec<_> = verdict.judges.iter().map(|o| o.verdict.kind).collect();
        if let Some(t) = &verdict.tie_breaker {
            verdicts.push(t.verdict.kind);
        }
        out.labelled.push((
            mode,
            Labelled {
                episode: episode.id.clone(),
                truth,
                verdicts,
            },
        ));
    }
    let _ = episode.end().await;
    out.note = (!notes.is_empty()).then(|| notes.join("; "));
    out
}

/// The trajectories calibration replays for one instance: golden, empty, wrong, near misses.
fn trajectories(task: &Arc<Task>, seed: u64) -> Vec<(String, Vec<Action>)> {
    let Ok(instance) = task.instantiate(seed, &BTreeMap::new()) else {
        return vec![("golden".into(), task.golden.clone())];
    };
    let mut out = vec![
        ("golden".to_string(), instance.golden.clone()),
        ("empty".to_string(), vec![Action::Finish]),
    ];
    if let Some(wrong) = &instance.wrong {
        out.push(("wrong".into(), wrong.clone()));
    }
    // A near miss that breaks a constraint fails by it, whatever the end state shows.
    for near in instance.near_misses().unwrap_or_default() {
        out.push((format!("near miss: {}", near.label), near.actions));
    }
    out
}

/// Runs golden, empty, wrong and near-miss trajectories of `tasks` for `seeds` seeds and judges
/// each in every one of `modes`.
pub async fn run(
    tasks: &[Arc<Task>],
    seeds: u64,
    panel: &Panel,
    modes: &[Mode],
    store: &Store,
) -> Vec<CalibrationEpisode> {
    let mut out = Vec::new();
    for task in tasks {
        for seed in 0..seeds {
            for (name, actions) in trajectories(task, seed) {
                out.push(run_one(task, seed, name, &actions, panel, modes, store).await);
            }
        }
    }
    out
}

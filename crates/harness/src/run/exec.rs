//! Playing a run: a queue of instances shared by one worker per leased device, each attempt an
//! episode started, played by the agent, checked and ended, and written to the store as one row the
//! moment it is over. An errored attempt goes back in the queue marked with the device it errored
//! on, so another device plays it when there is one; a device lost or failing too often is set
//! aside and its source asked for another.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use super::phones::{Leased, SurfaceServer};
use super::plan::{self, Instance};
use super::side_effects;
use super::spec::{AgentSpec, RunSpec};
use super::{command, RunError};
use crate::agent::{AgentError, AgentLog, Ending, Goal, ReferenceAgent, SuccessDetector};
use crate::episode::{DeviceSource, Episodes, Report, Status};
use crate::fleet::{Fleet, Held};
use crate::store::{RunResultRow, Store};
use crate::task::{Catalog, Task};
use droidmcp_device::Shell;

/// Where a run stands, after every attempt.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Progress {
    /// Instances in the run.
    pub total: usize,
    /// Instances with a final outcome (including those an earlier invocation finished).
    pub done: usize,
    pub success: usize,
    /// Final `errored` outcomes (retries used up).
    pub errored: usize,
    /// Attempts that errored and were queued again.
    pub retried: usize,
    /// Tokens and cost of the attempts that reported them.
    pub tokens: u64,
    pub cost_usd: f64,
    /// Attempts whose agent reported tokens and cost, and those whose agent reported none (a
    /// command agent).
    pub usage_known: usize,
    pub usage_unknown: usize,
    /// Seconds per instance so far in this invocation, for the ETA.
    pub seconds_per_instance: Option<f64>,
}

impl Progress {
    /// One line: `12/40 done · success 10 (83%) · errored 1 · ETA 1m20s · 12.3k tokens · $0.0400`
    /// (`tokens unknown · cost unknown` where no attempt reported them, and `+N unknown` beside
    /// the sums where some did not).
    pub fn line(&self) -> String {
        let rate = if self.done > self.errored {
            format!(
                " ({:.0}%)",
                100.0 * self.success as f64 / (self.done - self.errored) as f64
            )
        } else {
            String::new()
        };
        let eta = self
            .seconds_per_instance
            .map(|s| {
                let secs = (s * (self.total - self.done) as f64).round() as u64;
                format!(" · ETA {}m{:02}s", secs / 60, secs % 60)
            })
            .unwrap_or_default();
        let usage = match (self.usage_known, self.usage_unknown) {
            (_, 0) => format!(
                "{:.1}k tokens · ${:.4}",
                self.tokens as f64 / 1000.0,
                self.cost_usd
            ),
            (0, _) => "tokens unknown · cost unknown".to_string(),
            (_, n) => format!(
                "{:.1}k tokens · ${:.4} (+{n} attempts unknown)",
                self.tokens as f64 / 1000.0,
                self.cost_usd
            ),
        };
        format!(
            "{}/{} done · success {}{rate} · errored {}{} · {usage}",
            self.done, self.total, self.success, self.errored, eta,
        )
    }

    /// Counts one attempt's tokens and cost, or that it reported none.
    pub fn add_usage(&mut self, row: &RunResultRow) {
        match (row.tokens, row.cost_usd) {
            (Some(tokens), Some(cost)) => {
                self.tokens += tokens;
                self.cost_usd += cost;
                self.usage_known += 1;
            }
            _ => self.usage_unknown += 1,
        }
    }
}

/// What one invocation of a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    pub progress: Progress,
    /// Instances an earlier invocation had finished (skipped now).
    pub skipped: usize,
    /// Attempts played now.
    pub attempts: usize,
}

/// Episodes of a run are started by the runner on the phone it leased; an agent that calls
/// `task_start` on its agent surface is told so instead of being handed another phone.
struct StartedByRunner;

#[async_trait::async_trait]
impl DeviceSource for StartedByRunner {
    async fn shell(&self, _device: Option<&str>) -> Result<Arc<dyn Shell>, String> {
        Err("this phone is playing a run's episode, which the runner started: work on it and end it \
             with task_answer or task_finish (its id is in DROIDMCP_EPISODE)"
            .into())
    }
}

/// An attempt waiting for a device.
struct Queued {
    inst: Instance,
    attempt: u32,
    /// Devices an earlier attempt errored on: another device plays it when one can.
    avoid: BTreeSet<String>,
}

/// The attempts waiting and those being played.
#[derive(Default)]
struct Work {
    queue: VecDeque<Queued>,
    in_flight: usize,
}

/// What the workers share.
struct Shared {
    spec: RunSpec,
    episodes: Arc<Episodes>,
    store: Store,
    agent: Option<Arc<ReferenceAgent>>,
    surface: Arc<dyn SurfaceServer>,
    fleet: Arc<Fleet>,
    work: Mutex<Work>,
    /// Wakes workers waiting for an attempt (one was queued again, or a device left).
    wake: tokio::sync::Notify,
    /// Devices with a worker now.
    active: Mutex<BTreeSet<String>>,
    progress: Mutex<Progress>,
    started: Instant,
    /// Instances an earlier invocation finished.
    skipped: usize,
    played: Mutex<usize>,
    on_progress: Box<dyn Fn(&Progress) + Send + Sync>,
}

/// Plays every instance of `spec` that has no final row in `store` yet, on its phones, and returns
/// what this invocation did. `agent` is the reference agent when the spec names one; `surface`
/// serves a spawned agent's MCP surface.
pub async fn execute(
    spec: RunSpec,
    catalog: Arc<Catalog>,
    store: Store,
    adb_server: Option<String>,
    agent: Option<Arc<ReferenceAgent>>,
    surface: Arc<dyn SurfaceServer>,
    on_progress: impl Fn(&Progress) + Send + Sync + 'static,
) -> Result<RunSummary, RunError> {
    if matches!(spec.agent, AgentSpec::Reference { .. }) && agent.is_none() {
        return Err(RunError::Spec(
            "the run names a reference agent but none was given".into(),
        ));
    }
    let sources = super::devices::sources(&spec, adb_server.as_deref())?;
    if sources.is_empty() {
        return Err(RunError::Spec(
            "a run needs at least one device (--phones N, --adb-device SERIAL, --adb-server HOST:PORT, --connect HOST:PORT or --provider FILE)".into(),
        ));
    }
    let record = spec.record().to_string();
    match store.run_spec(&spec.name)? {
        Some(stored) if stored != record => {
            return Err(RunError::SpecChanged {
                name: spec.name.clone(),
                stored,
                now: record,
            })
        }
        Some(_) => {}
        None => store.insert_run(&spec.name, &record, &now())?,
    }
    let tasks = spec.selection.pick(&catalog)?;
    let mut instances = plan::instances(&tasks, spec.seeds, spec.run_seed, &spec.envs);
    if let Some(shard) = spec.fleet.shard {
        instances = instances
            .into_iter()
            .enumerate()
            .filter(|(position, _)| shard.holds(*position))
            .map(|(_, inst)| inst)
            .collect();
    }
    let mut attempts: BTreeMap<String, u32> = BTreeMap::new();
    let mut finals: BTreeMap<String, RunResultRow> = BTreeMap::new();
    for row in store.run_results(&spec.name)? {
        let n = attempts.entry(row.instance.clone()).or_default();
        *n = (*n).max(row.attempt);
        if row.is_final {
            finals.insert(row.instance.clone(), row);
        }
    }
    let mut progress = Progress {
        total: instances.len(),
        ..Progress::default()
    };
    let mut queue = VecDeque::new();
    for inst in instances {
        match finals.get(&inst.key()) {
            Some(row) => {
                progress.done += 1;
                progress.success += row.success as usize;
                progress.errored += (row.outcome == "errored") as usize;
                progress.add_usage(row);
            }
            None => {
                let attempt = attempts.get(&inst.key()).copied().unwrap_or(0) + 1;
                queue.push_back(Queued {
                    inst,
                    attempt,
                    avoid: BTreeSet::new(),
                });
            }
        }
    }
    let skipped = progress.done;
    let episodes = Arc::new(Episodes::new(
        catalog,
        Some(store.clone()),
        Arc::new(StartedByRunner),
    ));
    let fleet = Fleet::new(sources, super::devices::held_as(&spec.fleet));
    let devices = if queue.is_empty() {
        Vec::new()
    } else {
        fleet.lease_all().await
    };
    for set_aside in fleet.set_aside_list() {
        store.set_run_device(
            &spec.name,
            &set_aside.device,
            &set_aside.source,
            Some(&set_aside.reason),
            &now(),
        )?;
    }
    if devices.is_empty() && !queue.is_empty() {
        let why: Vec<String> = fleet
            .set_aside_list()
            .iter()
            .map(|s| format!("{} ({}): {}", s.device, s.source, s.reason))
            .collect();
        return Err(RunError::Device(format!(
            "no device could be leased{}",
            if why.is_empty() {
                String::new()
            } else {
                format!(": {}", why.join("; "))
            }
        )));
    }
    let shared = Arc::new(Shared {
        spec,
        episodes,
        store,
        agent,
        surface,
        fleet,
        work: Mutex::new(Work {
            queue,
            in_flight: 0,
        }),
        wake: tokio::sync::Notify::new(),
        active: Mutex::new(BTreeSet::new()),
        progress: Mutex::new(progress.clone()),
        started: Instant::now(),
        skipped,
        played: Mutex::new(0),
        on_progress: Box::new(on_progress),
    });
    (shared.on_progress)(&progress);
    for held in &devices {
        lock(&shared.active).insert(held.name());
        shared.store.set_run_device(
            &shared.spec.name,
            &held.name(),
            &held.source_name(),
            None,
            &now(),
        )?;
    }
    let workers: Vec<_> = devices
        .into_iter()
        .map(|held| {
            let shared = shared.clone();
            tokio::spawn(async move { worker(shared, held).await })
        })
        .collect();
    for w in workers {
        w.await
            .map_err(|e| RunError::Io(format!("a run worker stopped: {e}")))??;
    }
    let progress = lock(&shared.progress).clone();
    let attempts = *lock(&shared.played);
    Ok(RunSummary {
        progress,
        skipped,
        attempts,
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// The next attempt for the device `name`: the first waiting one that did not error on it, else
/// (when no other device with a worker could take any) the first waiting one. `None` once nothing
/// waits and nothing is being played (a played attempt may still be queued again).
async fn next_attempt(shared: &Shared, name: &str) -> Option<Queued> {
    loop {
        {
            let mut work = lock(&shared.work);
            let mine = work.queue.iter().position(|q| !q.avoid.contains(name));
            let fallback = || {
                let active = lock(&shared.active);
                work.queue.iter().position(|q| {
                    active
                        .iter()
                        .all(|device| device == name || q.avoid.contains(device))
                })
            };
            if let Some(i) = mine.or_else(fallback) {
                work.in_flight += 1;
                return work.queue.remove(i);
            }
            if work.queue.is_empty() && work.in_flight == 0 {
                return None;
            }
        }
        // Polled too, in case a wake-up came between the check and the wait.
        let _ = tokio::time::timeout(Duration::from_millis(200), shared.wake.notified()).await;
    }
}

/// Plays attempts on `held` until no attempt is left, then releases it. A device lost or failing
/// too often is set aside (recorded with the run) and replaced from its source when it has another.
/// Only a store that cannot be written stops a worker (and the run): anything else is one
/// attempt's `errored`.
async fn worker(shared: Arc<Shared>, mut held: Arc<Held>) -> Result<(), RunError> {
    let held_by_me = loop {
        let name = held.name();
        let Some(queued) = next_attempt(&shared, &name).await else {
            break Some(held);
        };
        let Queued {
            inst,
            attempt,
            mut avoid,
        } = queued;
        let span = tracing::info_span!("episode", run = %shared.spec.name, instance = %inst.key(),
            attempt, device = %name);
        let _enter = span.enter();
        let (mut row, device_fault) = play(&shared, &inst, attempt, &held).await;
        row.device = Some(name.clone());
        let mut set_aside = None;
        if row.outcome == "errored" {
            // Was the device lost? Asking its source now tells that from other trouble.
            let ttl = shared.fleet.config().ttl;
            if let Err(why) = held.check(ttl).await {
                row.error = Some(format!(
                    "device lost: {why} ({})",
                    row.error.as_deref().unwrap_or("")
                ));
                set_aside = Some(format!("lost: {why}"));
            } else if device_fault && held.failed(shared.fleet.config().max_failures) {
                set_aside = Some(format!("{} errored attempts (the limit)", held.failures()));
            }
        }
        let retry = row.outcome == "errored" && attempt <= shared.spec.retries;
        row.is_final = !retry;
        tracing::info!(outcome = %row.outcome, ending = %row.ending, error = ?row.error, "attempt over");
        let stored = shared.store.insert_run_result(&row);
        {
            let mut work = lock(&shared.work);
            work.in_flight -= 1;
            if retry && stored.is_ok() {
                avoid.insert(name.clone());
                work.queue.push_back(Queued {
                    inst,
                    attempt: attempt + 1,
                    avoid,
                });
            }
        }
        shared.wake.notify_waiters();
        if let Err(e) = stored {
            shared.fleet.release(&held).await;
            return Err(e.into());
        }
        *lock(&shared.played) += 1;
        let snapshot = {
            let mut p = lock(&shared.progress);
            p.add_usage(&row);
            if retry {
                p.retried += 1;
            } else {
                p.done += 1;
                p.success += row.success as usize;
                p.errored += (row.outcome == "errored") as usize;
                // Wall time per instance finished now: the phones' parallelism is already in it.
                let finished_now = (p.done - shared.skipped).max(1) as f64;
                p.seconds_per_instance =
                    Some(shared.started.elapsed().as_secs_f64() / finished_now);
            }
            p.clone()
        };
        (shared.on_progress)(&snapshot);
        if let Some(reason) = set_aside {
            shared.fleet.set_aside(&held, reason.clone()).await;
            lock(&shared.active).remove(&name);
            shared.store.set_run_device(
                &shared.spec.name,
                &name,
                &held.source_name(),
                Some(&reason),
                &now(),
            )?;
            let replacement = shared.fleet.replace(&held).await;
            for s in shared.fleet.set_aside_list() {
                if s.device != name {
                    shared.store.set_run_device(
                        &shared.spec.name,
                        &s.device,
                        &s.source,
                        Some(&s.reason),
                        &now(),
                    )?;
                }
            }
            shared.wake.notify_waiters();
            match replacement {
                Some(next) => {
                    lock(&shared.active).insert(next.name());
                    shared.store.set_run_device(
                        &shared.spec.name,
                        &next.name(),
                        &next.source_name(),
                        None,
                        &now(),
                    )?;
                    held = next;
                }
                None => break None,
            }
        }
    };
    if let Some(held) = held_by_me {
        shared.fleet.release(&held).await;
        lock(&shared.active).remove(&held.name());
        shared.wake.notify_waiters();
    }
    Ok(())
}

/// The task an instance plays: the catalog's, with the run's step limit when it sets one.
fn task_for_run(task: &Arc<Task>, max_steps: Option<u32>) -> Arc<Task> {
    match max_steps {
        Some(n) if n != task.max_steps => Arc::new(Task {
            max_steps: n,
            ..(**task).clone()
        }),
        _ => task.clone(),
    }
}

/// An attempt's row before anything happened.
fn blank_row(shared: &Shared, inst: &Instance, attempt: u32) -> RunResultRow {
    RunResultRow {
        run: shared.spec.name.clone(),
        instance: inst.key(),
        task_id: inst.task.id.clone(),
        seed: inst.seed,
        env: inst.env.clone(),
        attempt,
        outcome: "errored".into(),
        max_steps: shared.spec.max_steps.unwrap_or(inst.task.max_steps),
        side_effects: "[]".into(),
        agent_log: "{}".into(),
        metrics: "{}".into(),
        ..RunResultRow::default()
    }
}

/// Why an attempt errored, and whether the device was at fault (it could not be opened, set up or
/// read, or failed under the agent) rather than the agent's process or its model endpoint: only
/// the device's faults count towards setting it aside.
struct Errored {
    why: String,
    device: bool,
}

impl Errored {
    fn device(why: String) -> Errored {
        Errored { why, device: true }
    }

    fn elsewhere(why: String) -> Errored {
        Errored { why, device: false }
    }
}

/// Plays one attempt; never fails: trouble becomes an `errored` row saying why. Also says whether
/// the device was at fault.
async fn play(shared: &Shared, inst: &Instance, attempt: u32, held: &Held) -> (RunResultRow, bool) {
    let started = Instant::now();
    let mut row = blank_row(shared, inst, attempt);
    let result = play_episode(shared, inst, held, &mut row).await;
    let mut device_fault = false;
    if let Err(e) = result {
        row.outcome = "errored".into();
        row.success = false;
        row.error = Some(e.why);
        device_fault = e.device;
    }
    row.wall_ms = started.elapsed().as_millis() as u64;
    row.at = now();
    (row, device_fault)
}

/// How an agent's turn at an episode ended, for the row.
struct Played {
    ending: String,
    /// `None` where the agent reports none (a command agent).
    tokens: Option<u64>,
    cost_usd: Option<f64>,
    log: serde_json::Value,
    /// Infrastructure broke while the agent played (the attempt is `errored`).
    infra: Option<Errored>,
}

async fn play_episode(
    shared: &Shared,
    inst: &Instance,
    held: &Held,
    row: &mut RunResultRow,
) -> Result<(), Errored> {
    let task = task_for_run(&inst.task, shared.spec.max_steps);
    let instance = task
        .instantiate(inst.seed, &Default::default())
        .map_err(|e| Errored::elsewhere(format!("instance: {e}")))?;
    let leased = Leased::open(held, inst.env.as_deref(), &shared.episodes)
        .await
        .map_err(|e| Errored::device(e.to_string()))?;
    let shell = leased
        .shell()
        .await
        .map_err(|e| Errored::device(e.to_string()))?;
    let started = shared
        .episodes
        .start_instance(instance, shell.clone())
        .await
        .map_err(|e| Errored::device(format!("start: {e}")))?;
    row.episode_id = Some(started.episode.clone());
    let episode = shared
        .episodes
        .get(&started.episode)
        .map_err(|e| Errored::device(format!("start: {e}")))?;
    leased.bind(episode.clone());
    // A device its source says is gone ends the episode at once, whatever the agent is doing (an
    // agent process would otherwise go on until its time limit).
    let on_loss = {
        let lost = held.lost_signal();
        tokio::spawn(async move {
            lost.cancelled().await;
            episode.lock().await.abort("its source no longer has it");
        })
    };
    let before = side_effects::read(shell.as_ref()).await;
    let data_before = side_effects::read_data(shell.as_ref()).await;
    let goal = Goal {
        text: started.goal.clone(),
        max_steps: started.max_steps,
    };
    let timeout = Duration::from_secs(shared.spec.episode_timeout_s.max(1));
    let played = match &shared.spec.agent {
        AgentSpec::Reference { .. } => {
            let agent = shared
                .agent
                .as_ref()
                .expect("execute checked that a reference run has its agent");
            play_reference(shared, agent, &leased, &started.episode, &goal, timeout).await
        }
        AgentSpec::Command(cmd) => {
            play_command(shared, cmd, &leased, &started.episode, &goal, timeout).await
        }
    };
    row.ending = played.ending.clone();
    row.tokens = played.tokens;
    row.cost_usd = played.cost_usd;
    row.agent_log = played.log.to_string();
    let after = side_effects::read(shell.as_ref()).await;
    let data_after = side_effects::read_data(shell.as_ref()).await;
    let own = task_text(&inst.task);
    let changes: Vec<String> = side_effects::diff(&before, &after, |key| own.contains(key))
        .iter()
        .map(|c| c.to_string())
        .chain(
            side_effects::diff_data(&data_before, &data_after, &inst.task.apps)
                .iter()
                .map(|c| c.to_string()),
        )
        .collect();
    row.side_effects = json!(changes).to_string();
    let id = started.episode.as_str();
    let checked = shared.episodes.check(id).await;
    let summary = shared.episodes.summary(id).await.ok();
    if let Some(s) = &summary {
        row.steps = s.steps;
        row.finished = s.finished;
    }
    // Teardown even when the check failed; a teardown failure is logged, never the agent's.
    if let Err(e) = shared.episodes.end(id).await {
        tracing::warn!("episode {id}: end: {e}");
    }
    on_loss.abort();
    if let Some(why) = held.lost() {
        return Err(Errored::device(format!("device lost mid-episode: {why}")));
    }
    if let Some(e) = played.infra {
        return Err(e);
    }
    let report = checked.map_err(|e| Errored::device(format!("check: {e}")))?;
    score(row, &report).map_err(Errored::device)
}

/// Fills the row's outcome from the check. Success counts only when the agent said it was done (or
/// answered), as AndroidWorld counts it; a check that could not read the phone errors the attempt.
fn score(row: &mut RunResultRow, report: &Report) -> Result<(), String> {
    let v = &report.verdict;
    if let Some(why) = &v.inconclusive {
        return Err(format!("check could not read the phone: {why}"));
    }
    row.success = v.success && row.finished;
    row.outcome = if row.success { "success" } else { "failure" }.into();
    let known: Vec<_> = v
        .checks
        .iter()
        .filter(|c| c.inconclusive.is_none())
        .collect();
    row.progress = v.subgoal_rate.or_else(|| {
        (!known.is_empty())
            .then(|| known.iter().filter(|c| c.passed).count() as f64 / known.len() as f64)
    });
    let mut metrics = json!({
        "violations": v.violations.iter().map(|x| json!({
            "constraint": x.constraint, "level": x.level.as_str(), "step": x.step,
            "did": x.did, "why": x.why})).collect::<Vec<_>>(),
        "failed_checks": v.checks.iter().filter(|c| !c.passed).map(|c| c.id.clone()).collect::<Vec<_>>(),
    });
    if let Some(m) = &report.metrics {
        metrics["tr"] = json!(m.task_reward);
        metrics["tcr"] = json!(m.completion_ratio);
        metrics["rrr"] = json!(m.reversed_redundancy);
        metrics["matched"] = json!(m.reference_matched);
    }
    row.metrics = metrics.to_string();
    Ok(())
}

/// Everything a task file says, for telling a setting the task is about from a side effect.
fn task_text(task: &Task) -> String {
    format!(
        "{} {:?} {:?} {:?}",
        task.goal, task.setup, task.checks, task.teardown
    )
}

async fn play_reference(
    shared: &Shared,
    agent: &ReferenceAgent,
    leased: &Leased,
    episode: &str,
    goal: &Goal,
    timeout: Duration,
) -> Played {
    let hub = leased.hub();
    let session = match hub.open("agent", None).await {
        Ok(s) => s,
        Err(e) => return infra_before_acting(Errored::device(format!("agent session: {e}"))),
    };
    // B-MoCA's environment checks the task after every step and ends the episode on success.
    let detector: SuccessDetector = {
        let (episodes, id) = (shared.episodes.clone(), episode.to_string());
        Arc::new(move || {
            let (episodes, id) = (episodes.clone(), id.clone());
            Box::pin(async move {
                episodes.check(&id).await.is_ok_and(|r| {
                    r.verdict.reached
                        && r.verdict.violations.is_empty()
                        && r.verdict.inconclusive.is_none()
                })
            })
        })
    };
    let run = agent.run(&session, goal, Some(&detector));
    let (log, infra, ending) = match tokio::time::timeout(timeout, run).await {
        Err(_) => (None, None, "time limit".to_string()),
        Ok(Ok(log)) => {
            let ending = log.ending.as_str().to_string();
            (Some(log), None, ending)
        }
        // The model endpoint or the device failed: not the agent's doing.
        Ok(Err(e)) => {
            let log = AgentLog {
                ending: Ending::TurnsExhausted,
                turns: e.turns().to_vec(),
            };
            let why = match e {
                AgentError::Device { .. } => Errored::device(e.to_string()),
                AgentError::Model { .. } => Errored::elsewhere(e.to_string()),
            };
            (Some(log), Some(why), "errored".to_string())
        }
    };
    if infra.is_none() {
        match log.as_ref().map(|l| &l.ending) {
            Some(Ending::Done) => {
                let _ = shared.episodes.finish(episode).await;
            }
            Some(Ending::Answered(text)) => {
                // The episode decides whether it takes an answer (questions, and operations with an
                // answer check); where it takes none, answering is the agent saying it is done.
                if shared.episodes.answer(episode, text).await.is_err() {
                    let _ = shared.episodes.finish(episode).await;
                }
            }
            _ => {}
        }
    }
    let turns = log.as_ref().map(|l| l.turns.as_slice()).unwrap_or(&[]);
    Played {
        ending,
        tokens: log.as_ref().map(AgentLog::tokens),
        cost_usd: log.as_ref().map(AgentLog::cost_usd),
        log: json!({
            "agent": agent.style().name(),
            "turns": turns.iter().map(|t| json!({
                "turn": t.number, "reply": t.reply, "reason": t.reason, "action": t.action,
                "result": t.result, "summary": t.summary,
                "invalid": t.invalid, "prompt_tokens": t.prompt_tokens,
                "completion_tokens": t.completion_tokens, "cost_usd": t.cost_usd,
                "calls": t.calls, "latency_ms": t.latency.as_millis() as u64,
            })).collect::<Vec<_>>(),
        }),
        infra,
    }
}

fn infra_before_acting(why: Errored) -> Played {
    Played {
        ending: "errored".into(),
        tokens: None,
        cost_usd: None,
        log: json!({}),
        infra: Some(why),
    }
}

/// How a command agent's episode ended, as the episode saw it (the process's own ending follows):
/// `answered`, `done` (task_finish), `out_of_steps`, `aborted`, or `not finished` (the process
/// ended, or was stopped, without saying).
fn episode_ending(summary: Option<&crate::episode::Summary>) -> &'static str {
    match summary {
        None => "not finished",
        Some(s) if s.answer.is_some() => "answered",
        Some(s) if s.finished => "done",
        Some(s) => match s.status {
            Status::Failed => "out_of_steps",
            Status::Aborted => "aborted",
            _ => "not finished",
        },
    }
}

async fn play_command(
    shared: &Shared,
    cmd: &str,
    leased: &Leased,
    episode: &str,
    goal: &Goal,
    timeout: Duration,
) -> Played {
    let surface = match shared
        .surface
        .serve(leased.hub(), shared.episodes.clone())
        .await
    {
        Ok(s) => s,
        Err(e) => return infra_before_acting(Errored::elsewhere(e.to_string())),
    };
    let (tx, rx) = tokio::sync::watch::channel(None);
    // Tells the agent to stop once its episode takes no more steps, or at the time limit.
    let watcher = {
        let episodes = shared.episodes.clone();
        let id = episode.to_string();
        tokio::spawn(async move {
            let deadline = Instant::now() + timeout;
            loop {
                tokio::time::sleep(Duration::from_millis(100)).await;
                if Instant::now() >= deadline {
                    let _ = tx.send(Some("time limit"));
                    return;
                }
                let status = match episodes.summary(&id).await {
                    Ok(s) => s.status,
                    Err(_) => Status::Aborted,
                };
                if status != Status::Running {
                    let _ = tx.send(Some("episode over"));
                    return;
                }
            }
        })
    };
    let launch = command::Launch {
        command: cmd,
        url: &surface.url,
        goal: &goal.text,
        max_steps: goal.max_steps,
        episode,
    };
    let exit = command::run(&launch, rx).await;
    watcher.abort();
    surface.close().await;
    let summary = shared.episodes.summary(episode).await.ok();
    let acted = summary.as_ref().is_some_and(|s| s.steps > 0 || s.finished);
    match exit {
        Err(e) => infra_before_acting(Errored::elsewhere(format!(
            "cannot start the agent command: {e}"
        ))),
        Ok(exit) => {
            let log = json!({"command": cmd, "exit": exit.code, "killed": exit.killed,
                             "stdout": exit.stdout, "stderr": exit.stderr});
            let crashed = exit.killed.is_none() && exit.code != Some(0) && !acted;
            let infra = crashed.then(|| {
                let tail: String = exit
                    .stderr
                    .lines()
                    .rev()
                    .take(3)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<Vec<_>>()
                    .join(" | ");
                Errored::elsewhere(format!(
                    "the agent process {} before acting: {tail}",
                    exit.describe()
                ))
            });
            Played {
                ending: format!("{}; {}", episode_ending(summary.as_ref()), exit.describe()),
                // The process speaks to its model on its own: what it spent is not ours to know.
                tokens: None,
                cost_usd: None,
                log,
                infra,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt(tokens: Option<u64>, cost_usd: Option<f64>) -> RunResultRow {
        RunResultRow {
            tokens,
            cost_usd,
            ..RunResultRow::default()
        }
    }

    /// A command agent's usage is unknown, not 0: the line says so, alone or beside known sums.
    #[test]
    fn the_progress_line_tells_unknown_usage_from_none() {
        let mut p = Progress {
            total: 2,
            done: 1,
            ..Progress::default()
        };
        p.add_usage(&attempt(None, None));
        assert!(
            p.line().ends_with("tokens unknown · cost unknown"),
            "{}",
            p.line()
        );
        p.done = 2;
        p.add_usage(&attempt(Some(1500), Some(0.02)));
        assert!(
            p.line()
                .ends_with("1.5k tokens · $0.0200 (+1 attempts unknown)"),
            "{}",
            p.line()
        );
        let mut known = Progress::default();
        known.add_usage(&attempt(Some(0), Some(0.0)));
        assert!(
            known.line().ends_with("0.0k tokens · $0.0000"),
            "{}",
            known.line()
        );
    }
}

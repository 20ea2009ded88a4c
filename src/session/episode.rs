//! Task episodes: one task instance run on one device, from setup to teardown.
//!
//! [`Episode::start`] runs the instance's setup, then takes the before-snapshots of every app database a
//! check compares against and a logcat baseline — so only a set-up episode can be checked (the
//! precondition lives in the type, not in a runtime flag). Each agent action is recorded with
//! [`Episode::record_step`] (the session's hook), which also evaluates `any_step` checks and enforces
//! the step limit. [`Episode::check`] scores; [`Episode::end`] tears down. A device that disappears
//! mid-episode ends it as `aborted`, keeping its steps. Every change is written to the [`Store`] as it
//! happens. [`Episodes`] is the registry the front ends (MCP, HTTP, CLI) share.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::json;

use super::{Gesture, Recorded, Step, StepSink};
use crate::device::{Shell, ShellError};
use crate::eval::android::{self, LogLine};
use crate::eval::check::{Probe, When};
use crate::eval::history::{ActionRecord, RefAction};
use crate::eval::metrics::{self, TrajectoryMetrics};
use crate::eval::sqlite::DbSnapshot;
use crate::eval::{self, CheckResult, Context, Verdict};
use crate::store::{EpisodeRow, StepRow, Store, StoreError};
use crate::task::setup::ShellOp;
use crate::task::{Catalog, Kind, Task, TaskError, TaskInstance};

/// Where an episode is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Set up; the agent is acting.
    Running,
    /// The agent declared it finished (or answered); it may still be checked.
    Finished,
    /// The agent went past the step limit; it scores 0.
    Failed,
    /// Torn down; no more steps or checks.
    Ended,
    /// The device was lost; steps are kept, nothing more can happen.
    Aborted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Failed => "failed",
            Status::Ended => "ended",
            Status::Aborted => "aborted",
        }
    }

    /// The status a store row holds (`None` for text no version wrote).
    pub fn parse(s: &str) -> Option<Status> {
        [
            Status::Running,
            Status::Finished,
            Status::Failed,
            Status::Ended,
            Status::Aborted,
        ]
        .into_iter()
        .find(|st| st.as_str() == s)
    }

    /// Whether the episode still accepts steps, answers and checks.
    pub fn is_open(self) -> bool {
        matches!(self, Status::Running | Status::Finished | Status::Failed)
    }
}

/// Why an episode operation failed.
#[derive(Debug, thiserror::Error)]
pub enum EpisodeError {
    #[error(transparent)]
    Task(#[from] TaskError),
    #[error("setup step {index} of task {task} failed: `{command}` → {output}")]
    Setup {
        task: String,
        index: usize,
        command: String,
        output: String,
    },
    #[error("episode {id} is {status}; {what} is no longer possible")]
    Closed {
        id: String,
        status: &'static str,
        what: &'static str,
    },
    #[error("task {task} is an operation task: it takes no answer (finish it with task_finish)")]
    NotAQuery { task: String },
    #[error("episode {id} already has an answer; only the first answer counts")]
    AlreadyAnswered { id: String },
    #[error("unknown episode {0:?}")]
    UnknownEpisode(String),
    #[error("episode {id} aborted: device lost: {reason}")]
    DeviceLost { id: String, reason: String },
    #[error("no device for the episode: {0}")]
    NoDevice(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("episodes are not stored on this server, so there is nothing to export")]
    NotStored,
}

impl EpisodeError {
    /// True when the caller made a mistake (unknown ids, wrong state) rather than the system failing.
    pub fn is_client_error(&self) -> bool {
        matches!(
            self,
            EpisodeError::Task(_)
                | EpisodeError::Closed { .. }
                | EpisodeError::NotAQuery { .. }
                | EpisodeError::AlreadyAnswered { .. }
                | EpisodeError::UnknownEpisode(_)
        )
    }

    /// True when the request conflicts with the episode's state (closed, already answered).
    pub fn is_conflict(&self) -> bool {
        matches!(
            self,
            EpisodeError::Closed { .. } | EpisodeError::AlreadyAnswered { .. }
        )
    }

    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            EpisodeError::UnknownEpisode(_) | EpisodeError::Task(TaskError::UnknownTask { .. })
        )
    }
}

/// What recording a step did to the episode.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOutcome {
    pub index: u32,
    pub steps_left: u32,
    pub status: Status,
}

/// What a check returns to front ends: the verdict plus step usage and trajectory metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub episode: String,
    pub task: String,
    pub status: Status,
    /// The episode was still running when checked: the agent may still change the outcome.
    pub provisional: bool,
    pub verdict: Verdict,
    pub steps_used: u32,
    pub max_steps: u32,
    pub metrics: Option<TrajectoryMetrics>,
}

/// A set-up task instance on a device.
pub struct Episode {
    pub id: String,
    instance: TaskInstance,
    shell: Arc<dyn Shell>,
    store: Option<Store>,
    status: Status,
    answer: Option<String>,
    finished: bool,
    steps: Vec<Step>,
    before: BTreeMap<String, DbSnapshot>,
    log_baseline: Option<LogLine>,
    /// `any_step` device checks that passed after some step (latched).
    latched: BTreeMap<String, CheckResult>,
    runs: u32,
    setup_log: Vec<String>,
    started_at: String,
    ended_at: Option<String>,
    abort_reason: Option<String>,
    last: Option<Verdict>,
    /// The last check ran while the episode was running.
    provisional: bool,
}

fn now() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

fn new_id() -> String {
    format!("ep-{:016x}", rand::random::<u64>())
}

impl Episode {
    /// Runs setup on `shell` and takes the before-snapshots. A setup command that fails is an error
    /// (a bad setup must not be scored as an agent failure).
    pub async fn start(
        instance: TaskInstance,
        shell: Arc<dyn Shell>,
        store: Option<Store>,
    ) -> Result<Episode, EpisodeError> {
        let id = new_id();
        let mut ep = Episode {
            id,
            instance,
            shell,
            store,
            status: Status::Running,
            answer: None,
            finished: false,
            steps: Vec::new(),
            before: BTreeMap::new(),
            log_baseline: None,
            latched: BTreeMap::new(),
            runs: 0,
            setup_log: Vec::new(),
            started_at: now(),
            ended_at: None,
            abort_reason: None,
            last: None,
            provisional: false,
        };
        let setup = ep.instance.setup.clone();
        ep.run_steps(&setup, true).await?;
        ep.snapshot().await?;
        if let Some(store) = &ep.store {
            store.insert_episode(&ep.row())?;
        }
        Ok(ep)
    }

    async fn run_steps(
        &mut self,
        steps: &[crate::task::SetupStep],
        strict: bool,
    ) -> Result<(), EpisodeError> {
        for (index, step) in steps.iter().enumerate() {
            let ops = step.ops().map_err(|e| EpisodeError::Setup {
                task: self.instance.task.id.clone(),
                index,
                command: step.describe(),
                output: e,
            })?;
            for op in ops {
                let (command, result) = match &op {
                    ShellOp::Exec {
                        command,
                        allow_fail,
                    } => {
                        let r = self.shell.exec(command).await.map(|out| {
                            let ok = out.success() || *allow_fail;
                            (
                                ok,
                                format!("{}{}", out.stdout_text(), out.stderr_text()),
                                out.exit_code,
                            )
                        });
                        (command.clone(), r)
                    }
                    ShellOp::Push { path, data, mode } => {
                        let r = self
                            .shell
                            .push(path, data, *mode)
                            .await
                            .map(|_| (true, String::new(), 0));
                        (format!("push {path}"), r)
                    }
                    ShellOp::Console { line } => {
                        let r = self.shell.console(line).await.map(|out| {
                            let ok = out.trim_end().ends_with("OK");
                            (ok, out, if ok { 0 } else { 1 })
                        });
                        (format!("console: {line}"), r)
                    }
                    ShellOp::Sleep { ms } => {
                        tokio::time::sleep(std::time::Duration::from_millis(*ms)).await;
                        (format!("sleep {ms}ms"), Ok((true, String::new(), 0)))
                    }
                };
                match result {
                    Ok((true, _, _)) => self.setup_log.push(command),
                    Ok((false, output, code)) if strict => {
                        return Err(EpisodeError::Setup {
                            task: self.instance.task.id.clone(),
                            index,
                            command,
                            output: format!("exit {code}: {}", output.trim()),
                        })
                    }
                    Ok((false, output, code)) => self
                        .setup_log
                        .push(format!("{command} (exit {code}: {})", output.trim())),
                    Err(e) => return Err(self.lost_or_setup(index, command, e)),
                }
            }
        }
        Ok(())
    }

    fn lost_or_setup(&mut self, index: usize, command: String, e: ShellError) -> EpisodeError {
        if e.is_device_lost() {
            self.abort(&e.to_string())
        } else {
            EpisodeError::Setup {
                task: self.instance.task.id.clone(),
                index,
                command,
                output: e.to_string(),
            }
        }
    }

    /// Before-snapshots of the databases that checks diff against, and the logcat baseline.
    async fn snapshot(&mut self) -> Result<(), EpisodeError> {
        let mut dbs: Vec<String> = Vec::new();
        for c in &self.instance.checks {
            if let Probe::Sqlite { db, test } = &c.probe {
                if test.needs_snapshot() && !dbs.contains(db) {
                    dbs.push(db.clone());
                }
            }
        }
        for db in dbs {
            match DbSnapshot::pull(self.shell.as_ref(), &db).await {
                Ok(s) => {
                    self.setup_log.push(format!("snapshot {db}"));
                    self.before.insert(db, s);
                }
                Err(e) if e.is_device_lost() => return Err(self.abort(&e.to_string())),
                Err(e) => {
                    return Err(EpisodeError::Setup {
                        task: self.instance.task.id.clone(),
                        index: self.instance.setup.len(),
                        command: format!("snapshot {db}"),
                        output: e.to_string(),
                    })
                }
            }
        }
        if self
            .instance
            .checks
            .iter()
            .any(|c| matches!(c.probe, Probe::Logcat { .. }))
        {
            match self.shell.exec("logcat -d -v threadtime").await {
                Ok(out) => self.log_baseline = android::parse_logcat(&out.stdout_text()).pop(),
                Err(e) if e.is_device_lost() => return Err(self.abort(&e.to_string())),
                Err(_) => {}
            }
        }
        Ok(())
    }

    /// Marks the episode aborted (device lost), persists it, and returns the error to report.
    pub fn abort(&mut self, reason: &str) -> EpisodeError {
        self.status = Status::Aborted;
        self.ended_at = Some(now());
        self.abort_reason = Some(format!("device lost: {reason}"));
        self.persist();
        EpisodeError::DeviceLost {
            id: self.id.clone(),
            reason: reason.to_string(),
        }
    }

    fn persist(&self) {
        if let Some(store) = &self.store {
            if let Err(e) = store.update_episode(&self.row()) {
                tracing::warn!("episode {}: {e}", self.id);
            }
        }
    }

    fn open(&self, what: &'static str) -> Result<(), EpisodeError> {
        if self.status.is_open() {
            Ok(())
        } else {
            Err(EpisodeError::Closed {
                id: self.id.clone(),
                status: self.status.as_str(),
                what,
            })
        }
    }

    /// Records one step of the agent (a gesture that reached the phone, failed ones included; an
    /// attempt refused before reaching it costs nothing and only reports the steps left) and runs the task's
    /// `record.shell` commands and `any_step` device checks. The step past the limit ends the episode
    /// as failed.
    pub async fn record_step(&mut self, step: &Step) -> Result<StepOutcome, EpisodeError> {
        self.open("recording a step")?;
        if step.refused {
            // Nothing reached the phone: an attempt in the phone's log, not a step of the episode.
            let used = self.steps.len() as u32;
            return Ok(StepOutcome {
                index: used,
                steps_left: self.instance.task.max_steps.saturating_sub(used),
                status: self.status,
            });
        }
        let index = self.steps.len() as u32 + 1;
        let mut recorded = Vec::new();
        for cmd in self.instance.record.clone() {
            match self.shell.exec(&cmd).await {
                Ok(out) => recorded.push((cmd, out.stdout_text())),
                Err(e) if e.is_device_lost() => return Err(self.abort(&e.to_string())),
                Err(e) => recorded.push((cmd, e.to_string())),
            }
        }
        let mut step = step.clone();
        step.index = index as usize - 1;
        step.recorded = recorded;
        if self.instance.constraints.iter().any(|c| c.needs_activity()) {
            step.activity = self.focused_activity().await?;
        }
        if let Some(store) = &self.store {
            store.insert_step(&self.id, &step_row(&step, self.steps.last(), &now()))?;
        }
        self.steps.push(step);
        let max = self.instance.task.max_steps;
        if index > max {
            self.status = Status::Failed;
            self.persist();
        } else if self.status == Status::Running {
            self.evaluate_any_step().await?;
        }
        Ok(StepOutcome {
            index,
            steps_left: max.saturating_sub(index),
            status: self.status,
        })
    }

    /// The focused activity (`package/class`), as `Device::foreground` reads it; `None` when the
    /// device does not say (a page constraint then cannot see that step's activity).
    async fn focused_activity(&mut self) -> Result<Option<String>, EpisodeError> {
        use crate::device::parse;
        let mut found = None;
        for (cmd, parse) in [
            (
                "dumpsys activity activities",
                parse::resumed_activity as fn(&str) -> Option<parse::Foreground>,
            ),
            ("dumpsys window", parse::focused_window),
        ] {
            match self.shell.exec(cmd).await {
                Ok(out) => {
                    found = parse(&out.stdout_text());
                    if found.is_some() {
                        break;
                    }
                }
                Err(e) if e.is_device_lost() => return Err(self.abort(&e.to_string())),
                Err(_) => {}
            }
        }
        Ok(found.map(|f| match f.activity {
            Some(a) => format!("{}/{a}", f.package),
            None => f.package,
        }))
    }

    async fn evaluate_any_step(&mut self) -> Result<(), EpisodeError> {
        let pending: Vec<_> = self
            .instance
            .checks
            .iter()
            .filter(|c| {
                c.when == When::AnyStep && c.reads_device() && !self.latched.contains_key(&c.id)
            })
            .cloned()
            .collect();
        for check in pending {
            let result = {
                let values = BTreeMap::new();
                let (screens, actions) = self.views();
                let ctx = self.context(&screens, &actions, &[], &values);
                check.evaluate(&ctx).await
            };
            match result {
                Ok(r) if r.passed => {
                    self.latched.insert(r.id.clone(), r);
                }
                Ok(_) => {}
                Err(lost) => return Err(self.abort(&lost.to_string())),
            }
        }
        Ok(())
    }

    fn views(&self) -> (Vec<String>, Vec<ActionRecord>) {
        let screens = self
            .steps
            .iter()
            .filter_map(|s| s.after.as_ref().map(|a| a.xml.clone()))
            .collect();
        let actions = self.steps.iter().map(action_record).collect();
        (screens, actions)
    }

    fn context<'a>(
        &'a self,
        screens: &'a [String],
        actions: &'a [ActionRecord],
        reference: &'a [RefAction],
        values: &'a BTreeMap<String, Vec<String>>,
    ) -> Context<'a> {
        Context {
            shell: self.shell.as_ref(),
            before: &self.before,
            screens,
            actions,
            reference,
            answer: self.answer.as_deref(),
            log_baseline: self.log_baseline.as_ref(),
            values,
        }
    }

    /// Records the agent's answer (query tasks, or composites with an answer check); answering also
    /// declares the task finished.
    pub fn answer(&mut self, text: &str) -> Result<(), EpisodeError> {
        self.open("answering")?;
        let takes_answer = self.instance.task.kind == Kind::Query
            || self
                .instance
                .checks
                .iter()
                .any(|c| matches!(c.probe, Probe::Answer { .. }));
        if !takes_answer {
            return Err(EpisodeError::NotAQuery {
                task: self.instance.task.id.clone(),
            });
        }
        // One answer per episode: retrying until it matches would make every question task a guess.
        if self.answer.is_some() {
            return Err(EpisodeError::AlreadyAnswered {
                id: self.id.clone(),
            });
        }
        self.answer = Some(text.to_string());
        self.mark_finished();
        Ok(())
    }

    /// The agent declares the task done.
    pub fn finish(&mut self) -> Result<(), EpisodeError> {
        self.open("finishing")?;
        self.mark_finished();
        Ok(())
    }

    fn mark_finished(&mut self) {
        self.finished = true;
        if self.status == Status::Running {
            self.status = Status::Finished;
        }
        self.persist();
    }

    /// The task's constraints with the string resources their selectors name read on the device
    /// (`cmd overlay lookup`, its current language), and why one could not be, if one could not.
    async fn constraints_resolved(&self) -> (Vec<eval::Constraint>, Option<String>) {
        use eval::constraint::Rule;
        let mut constraints = self.instance.constraints.clone();
        let mut unresolved = None;
        for c in &mut constraints {
            let selector = match &mut c.rule {
                Rule::Page {
                    screen: Some(s), ..
                } => s,
                Rule::Element { selector, .. } => selector,
                _ => continue,
            };
            match crate::device::resolve_strings(self.shell.as_ref(), selector).await {
                Ok(resolved) => *selector = resolved,
                Err(e) => unresolved = Some(format!("constraint {}: {e}", c.id)),
            }
        }
        (constraints, unresolved)
    }

    /// Evaluates every check and scores the episode; results are stored as one evaluation run.
    pub async fn check(&mut self) -> Result<Report, EpisodeError> {
        self.open("checking")?;
        let mut reference = Task::reference_of(&self.instance.golden);
        // A reference step that names a string resource is compared in the device's language; one
        // the device cannot resolve matches no step, which only lowers the trajectory metrics.
        for r in &mut reference {
            if let Some(sel) = &r.selector {
                if let Ok(resolved) = crate::device::resolve_strings(self.shell.as_ref(), sel).await
                {
                    r.selector = Some(resolved);
                }
            }
        }
        let (screens, actions) = self.views();
        let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut results = Vec::new();
        let checks = self.instance.checks.clone();
        for check in &checks {
            let outcome = {
                let ctx = self.context(&screens, &actions, &reference, &values);
                check.evaluate(&ctx).await
            };
            let mut result = match outcome {
                Ok(r) => r,
                Err(lost) => return Err(self.abort(&lost.to_string())),
            };
            if !result.passed {
                if let Some(latched) = self.latched.get(&check.id) {
                    result = latched.clone();
                    result.value = format!("{} (at an earlier step)", result.value);
                }
            }
            // An unread check supplies no values, so checks built on it are inconclusive too.
            if result.inconclusive.is_none() {
                values.insert(result.id.clone(), result.values.clone());
            }
            results.push(result);
        }
        let task = &self.instance.task;
        let finished_ok = self.finished || !task.require_finish;
        let mut verdict = eval::score(
            &checks,
            results,
            &task.success,
            task.partial_credit,
            finished_ok,
        );
        let (constraints, unresolved) = self.constraints_resolved().await;
        eval::constraint::enforce(&mut verdict, &constraints, &actions);
        if let (Some(why), true) = (unresolved, verdict.violations.is_empty()) {
            // A constraint that could not be read in the device's language cannot vouch for
            // the run: the verdict is open, as for a check that could not read the device.
            verdict.success = false;
            verdict.inconclusive = Some(why);
        }
        if self.status == Status::Failed {
            verdict.success = false;
            verdict.score = 0.0;
            verdict.inconclusive = None;
            verdict.gate = Some(format!(
                "the agent went past the step limit of {}",
                task.max_steps
            ));
        }
        self.runs += 1;
        if let Some(store) = &self.store {
            store.insert_checks(&self.id, self.runs, &now(), &verdict.checks)?;
        }
        let metrics = (!reference.is_empty())
            .then(|| metrics::trajectory(&reference, &actions, verdict.success));
        self.last = Some(verdict.clone());
        self.provisional = self.status == Status::Running;
        self.persist();
        Ok(Report {
            episode: self.id.clone(),
            task: task.id.clone(),
            status: self.status,
            provisional: self.provisional,
            verdict,
            steps_used: self.steps.len() as u32,
            max_steps: task.max_steps,
            metrics,
        })
    }

    /// Runs teardown (failures are logged, not fatal) and closes the episode.
    pub async fn end(&mut self) -> Result<(), EpisodeError> {
        self.open("ending")?;
        let teardown = self.instance.teardown.clone();
        self.run_steps(&teardown, false).await?;
        self.status = Status::Ended;
        self.ended_at = Some(now());
        self.persist();
        Ok(())
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn instance(&self) -> &TaskInstance {
        &self.instance
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    pub fn answer_text(&self) -> Option<&str> {
        self.answer.as_deref()
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    pub fn setup_log(&self) -> &[String] {
        &self.setup_log
    }

    pub fn last_verdict(&self) -> Option<&Verdict> {
        self.last.as_ref()
    }

    pub fn device(&self) -> &str {
        self.shell.serial()
    }

    pub fn shell(&self) -> &Arc<dyn Shell> {
        &self.shell
    }

    fn row(&self) -> EpisodeRow {
        let last = self.last.as_ref();
        EpisodeRow {
            id: self.id.clone(),
            task_id: self.instance.task.id.clone(),
            seed: self.instance.seed,
            params: self
                .instance
                .params
                .iter()
                .map(|(k, v)| (k.clone(), v.text.clone()))
                .collect(),
            goal: self.instance.goal.clone(),
            device: self.shell.serial().to_string(),
            status: self.status.as_str().to_string(),
            started_at: self.started_at.clone(),
            ended_at: self.ended_at.clone(),
            max_steps: self.instance.task.max_steps,
            answer: self.answer.clone(),
            finished: self.finished,
            success: last.map(|v| v.success),
            score: last.map(|v| v.score),
            subgoal_rate: last.and_then(|v| v.subgoal_rate),
            verdict: last.map(|v| v.kind().to_string()),
            provisional: self.provisional,
            abort_reason: self.abort_reason.clone(),
            setup_log: self.setup_log.join("\n"),
            env: self.shell.environment(),
        }
    }
}

/// `previous` is the step before (none for the first): the screen `step` was aimed at is kept only
/// when it is not the one `previous` settled on, so a report can tell what every touch hit.
fn step_row(step: &Step, previous: Option<&Step>, at: &str) -> StepRow {
    let element = |e: &super::ElementRef| json!({"id": e.id, "role": e.role, "label": e.label});
    let record = action_record(step);
    let mut action = json!({
        "kind": record.kind,
        "action": step.action,
        "point": record.point.map(|p| json!([p.x, p.y])),
        "text": record.text,
        "aliases": record.aliases,
        "error": step.error,
        "aimed_at": step.aimed_at,
    });
    if let Some(a) = &step.activity {
        action["activity"] = json!(a);
    }
    match &step.gesture {
        Some(Gesture::Swipe {
            to, duration_ms, ..
        }) => {
            action["end"] = json!([to.x, to.y]);
            action["duration_ms"] = json!(duration_ms);
        }
        Some(Gesture::LongPress { duration_ms, .. }) => action["duration_ms"] = json!(duration_ms),
        Some(Gesture::Type {
            cleared, submitted, ..
        }) => {
            action["clear"] = json!(cleared);
            action["submit"] = json!(submitted);
        }
        _ => {}
    }
    if let Some(e) = step.gesture.as_ref().and_then(Gesture::element) {
        let key = if matches!(step.gesture, Some(Gesture::Type { .. })) {
            "field"
        } else {
            "element"
        };
        action[key] = element(e);
    }
    let recorded: serde_json::Map<String, serde_json::Value> = step
        .recorded
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    StepRow {
        index: step.index as u32 + 1,
        at: at.to_string(),
        action: action.to_string(),
        screen: step.after.as_ref().map(|s| s.xml.clone()),
        screen_before: step
            .before
            .as_ref()
            .filter(|_| {
                step.aimed_at.is_none()
                    || previous.and_then(|p| p.observation_digest.as_ref())
                        != step.aimed_at.as_ref()
            })
            .map(|s| s.xml.clone()),
        recorded: serde_json::Value::Object(recorded).to_string(),
    }
}

/// Gives an episode its device: `None` means the default (the embedded phone).
#[async_trait::async_trait]
pub trait DeviceSource: Send + Sync {
    async fn shell(&self, device: Option<&str>) -> Result<Arc<dyn Shell>, String>;
}

/// The live episodes and the task catalog, shared by the MCP tools, the HTTP routes and the CLI.
pub struct Episodes {
    catalog: Arc<Catalog>,
    store: Option<Store>,
    devices: Arc<dyn DeviceSource>,
    live: std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<Episode>>>>,
}

/// A started episode as front ends report it.
#[derive(Debug, Clone, PartialEq)]
pub struct Started {
    pub episode: String,
    pub task: String,
    pub goal: String,
    pub kind: Kind,
    pub max_steps: u32,
    pub seed: u64,
    pub params: Vec<(String, String)>,
    pub device: String,
    pub setup: Vec<String>,
}

/// A read-only view of an episode for `GET /v1/episodes/{id}`, from the live episode or, for one
/// no longer in memory (ended by a previous process), from the store.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub episode: String,
    pub task: String,
    pub goal: String,
    pub status: Status,
    pub steps: u32,
    pub max_steps: u32,
    pub answer: Option<String>,
    pub finished: bool,
    pub device: String,
    /// The last check: `success`, `failure` or `inconclusive`, and its score.
    pub last_verdict: Option<String>,
    pub last_score: Option<f64>,
    pub provisional: bool,
    pub abort_reason: Option<String>,
}

impl Episodes {
    pub fn new(
        catalog: Arc<Catalog>,
        store: Option<Store>,
        devices: Arc<dyn DeviceSource>,
    ) -> Episodes {
        Episodes {
            catalog,
            store,
            devices,
            live: Default::default(),
        }
    }

    pub fn catalog(&self) -> &Arc<Catalog> {
        &self.catalog
    }

    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Instantiates a task and sets it up on a device. A seed is drawn when none is given.
    pub async fn start(
        &self,
        task_id: &str,
        seed: Option<u64>,
        params: &BTreeMap<String, String>,
        device: Option<&str>,
    ) -> Result<Started, EpisodeError> {
        let task = self.catalog.get(task_id)?;
        let seed = seed.unwrap_or_else(|| rand::random::<u32>() as u64);
        let instance = task.instantiate(seed, params)?;
        let shell = self
            .devices
            .shell(device)
            .await
            .map_err(EpisodeError::NoDevice)?;
        let ep = Episode::start(instance, shell, self.store.clone()).await?;
        let started = Started {
            episode: ep.id.clone(),
            task: task.id.clone(),
            goal: ep.instance.goal.clone(),
            kind: task.kind,
            max_steps: task.max_steps,
            seed,
            params: ep
                .instance
                .params
                .iter()
                .map(|(k, v)| (k.clone(), v.text.clone()))
                .collect(),
            device: ep.device().to_string(),
            setup: ep.setup_log.clone(),
        };
        self.live
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(ep.id.clone(), Arc::new(tokio::sync::Mutex::new(ep)));
        Ok(started)
    }

    /// A live episode. One that only the store knows (its process ended) is closed: acting on it
    /// says so instead of calling it unknown.
    pub fn get(&self, id: &str) -> Result<Arc<tokio::sync::Mutex<Episode>>, EpisodeError> {
        let live = self
            .live
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned();
        if let Some(ep) = live {
            return Ok(ep);
        }
        match self.stored(id)? {
            Some(row) => Err(EpisodeError::Closed {
                id: id.to_string(),
                status: Status::parse(&row.status)
                    .unwrap_or(Status::Aborted)
                    .as_str(),
                what: "acting on it from this process",
            }),
            None => Err(EpisodeError::UnknownEpisode(id.to_string())),
        }
    }

    fn stored(&self, id: &str) -> Result<Option<EpisodeRow>, EpisodeError> {
        match &self.store {
            Some(store) => Ok(store.episode(id)?),
            None => Ok(None),
        }
    }

    /// Marks `aborted` the episodes a dead process left open in the store (steps kept); returns
    /// their ids. Run once when a server starts.
    pub fn abort_orphans(&self) -> Result<Vec<String>, EpisodeError> {
        match &self.store {
            Some(store) => Ok(store.abort_orphans()?),
            None => Ok(Vec::new()),
        }
    }

    /// The recorded steps of a live or stored episode, oldest first.
    pub async fn steps(&self, id: &str) -> Result<Vec<StepRow>, EpisodeError> {
        if let Some(store) = &self.store {
            if store.episode(id)?.is_some() {
                return Ok(store.steps(id)?);
            }
        }
        let ep = self.get(id)?;
        let guard = ep.lock().await;
        Ok(guard
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                step_row(
                    s,
                    i.checked_sub(1).map(|p| &guard.steps[p]),
                    &s.started_at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
                )
            })
            .collect())
    }

    /// An episode as the store exports it (fields, steps, last check results).
    pub fn export(&self, id: &str) -> Result<serde_json::Value, EpisodeError> {
        let Some(store) = &self.store else {
            return Err(EpisodeError::NotStored);
        };
        store
            .episode_json(id)?
            .ok_or_else(|| EpisodeError::UnknownEpisode(id.to_string()))
    }

    /// The open episode running on a device, for the session's step hook.
    pub async fn open_on_device(&self, serial: &str) -> Option<Arc<tokio::sync::Mutex<Episode>>> {
        let all: Vec<_> = self
            .live
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .cloned()
            .collect();
        for ep in all {
            let guard = ep.lock().await;
            if guard.status().is_open() && guard.device() == serial {
                drop(guard);
                return Some(ep);
            }
        }
        None
    }

    pub async fn answer(&self, id: &str, text: &str) -> Result<(), EpisodeError> {
        self.get(id)?.lock().await.answer(text)
    }

    pub async fn finish(&self, id: &str) -> Result<(), EpisodeError> {
        self.get(id)?.lock().await.finish()
    }

    pub async fn check(&self, id: &str) -> Result<Report, EpisodeError> {
        self.get(id)?.lock().await.check().await
    }

    pub async fn end(&self, id: &str) -> Result<Summary, EpisodeError> {
        let ep = self.get(id)?;
        let mut guard = ep.lock().await;
        guard.end().await?;
        Ok(summary(&guard))
    }

    pub async fn summary(&self, id: &str) -> Result<Summary, EpisodeError> {
        match self.get(id) {
            Ok(ep) => Ok(summary(&*ep.lock().await)),
            Err(EpisodeError::Closed { .. }) => {
                let (Some(store), Some(row)) = (&self.store, self.stored(id)?) else {
                    return Err(EpisodeError::UnknownEpisode(id.to_string()));
                };
                let steps = store.steps(id)?.len() as u32;
                Ok(Summary {
                    episode: row.id,
                    task: row.task_id,
                    goal: row.goal,
                    status: Status::parse(&row.status).unwrap_or(Status::Aborted),
                    steps,
                    max_steps: row.max_steps,
                    answer: row.answer,
                    finished: row.finished,
                    device: row.device,
                    last_verdict: row.verdict,
                    last_score: row.score,
                    provisional: row.provisional,
                    abort_reason: row.abort_reason,
                })
            }
            Err(e) => Err(e),
        }
    }
}

fn summary(ep: &Episode) -> Summary {
    Summary {
        episode: ep.id.clone(),
        task: ep.instance.task.id.clone(),
        goal: ep.instance.goal.clone(),
        status: ep.status,
        steps: ep.steps.len() as u32,
        max_steps: ep.instance.task.max_steps,
        answer: ep.answer.clone(),
        finished: ep.finished,
        device: ep.device().to_string(),
        last_verdict: ep.last.as_ref().map(|v| v.kind().to_string()),
        last_score: ep.last.as_ref().map(|v| v.score),
        provisional: ep.provisional,
        abort_reason: ep.abort_reason.clone(),
    }
}

/// A step as history checks and trajectory metrics see it: what the finger did, on the screen it
/// was aimed at; the tool's name when the step failed before any gesture.
pub fn action_record(step: &Step) -> ActionRecord {
    let g = step.gesture.as_ref();
    let hierarchy = |s: &Option<super::Screen>| s.as_ref().map(|s| s.hierarchy().clone());
    ActionRecord {
        action: step.action.clone(),
        kind: g.map(Gesture::kind).unwrap_or(step.kind).to_string(),
        point: g.and_then(Gesture::point),
        text: g.and_then(Gesture::text),
        screen_before: hierarchy(&step.before),
        aliases: match g {
            Some(Gesture::OpenApp { label, .. }) => vec![label.clone()],
            _ => Vec::new(),
        },
        failed: step.error.is_some(),
        field: match g {
            Some(Gesture::Type { field: Some(f), .. }) => Some(f.center),
            _ => None,
        },
        foreground: step.foreground.clone(),
        activity: step.activity.clone(),
        screen_after: hierarchy(&step.after),
    }
}

/// An episode records the steps of the session it is attached to (golden replays attach one).
#[async_trait::async_trait]
impl StepSink for tokio::sync::Mutex<Episode> {
    async fn record(&self, _session: &str, step: &Step) -> Recorded {
        let mut ep = self.lock().await;
        let outcome = ep.record_step(step).await;
        recorded(&ep.id.clone(), outcome, ep.instance.task.max_steps, step.refused)
    }
}

/// The registry records each step in the open episode on the step's device, if any.
#[async_trait::async_trait]
impl StepSink for Episodes {
    async fn record(&self, session: &str, step: &Step) -> Recorded {
        match self.open_on_device(&step.serial).await {
            Some(ep) => ep.record(session, step).await,
            None => Recorded::default(),
        }
    }
}

fn recorded(
    id: &str,
    outcome: Result<StepOutcome, EpisodeError>,
    max: u32,
    refused: bool,
) -> Recorded {
    match outcome {
        Ok(o) => Recorded {
            episode_step: (!refused).then_some(o.index),
            steps_left: Some(o.steps_left),
            refused,
            stop: (o.status == Status::Failed)
                .then(|| format!("task episode {id} went past its step limit of {max}")),
        },
        Err(e) => {
            tracing::warn!("episode step not recorded: {e}");
            Recorded {
                episode_step: None,
                steps_left: None,
                refused,
                stop: Some(e.to_string()),
            }
        }
    }
}

/// Devices for episodes from the session layer's pool (the same phone the session acts on).
pub struct PoolDevices(pub Arc<super::DevicePool>);

#[async_trait::async_trait]
impl DeviceSource for PoolDevices {
    async fn shell(&self, device: Option<&str>) -> Result<Arc<dyn Shell>, String> {
        let lease = self.0.lease(device).await.map_err(|e| e.to_string())?;
        Ok(lease.slot().device.shell_handle())
    }
}

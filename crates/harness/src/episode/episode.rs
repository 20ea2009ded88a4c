//! The [`Episode`] state machine: setup, before-snapshots, steps, answer/finish, check, teardown,
//! abort.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::record::{action_record, step_row};
use super::{boot, frames};
use super::{EpisodeError, Report, Status, StepOutcome};
use crate::eval::android::{self, LogLine};
use crate::eval::check::{Probe, When};
use crate::eval::history::{ActionRecord, RefAction};
use crate::eval::metrics;
use crate::eval::sqlite::DbSnapshot;
use crate::eval::{self, CheckResult, Context, Verdict};
use crate::session::Step;
use crate::store::{EpisodeRow, FrameKind, Store};
use crate::task::setup::ShellOp;
use crate::task::{Kind, Task, TaskInstance};
use droidmcp_device::{Shell, ShellError};
/// A set-up task instance on a device.
pub struct Episode {
    pub id: String,
    pub(super) instance: TaskInstance,
    pub(super) shell: Arc<dyn Shell>,
    pub(super) store: Option<Store>,
    pub(super) status: Status,
    pub(super) answer: Option<String>,
    pub(super) finished: bool,
    pub(super) steps: Vec<Step>,
    pub(super) before: BTreeMap<String, DbSnapshot>,
    /// The phone as setup left it, for what changed since (judges' facts); read for episodes with
    /// a store only, the ones judges are shown.
    pub(super) setup_state: Option<crate::eval::changes::PhoneState>,
    pub(super) log_baseline: Option<LogLine>,
    /// `any_step` device checks that passed after some step (latched).
    pub(super) latched: BTreeMap<String, CheckResult>,
    pub(super) runs: u32,
    pub(super) setup_log: Vec<String>,
    pub(super) started_at: String,
    pub(super) ended_at: Option<String>,
    pub(super) abort_reason: Option<String>,
    pub(super) last: Option<Verdict>,
    /// The last check ran while the episode was running.
    pub(super) provisional: bool,
    /// The check taken once the agent finished or answered: the episode's verdict, which what is
    /// done on the phone afterwards cannot change.
    settled: Option<Report>,
    /// Setup began from the phone's boot snapshot (`avd snapshot load default_boot`); false on a
    /// phone without snapshots, where setup alone decides what the task finds.
    pub(super) restored: bool,
    /// The phone's boot id after setup ([`boot`]); `None` when it has none to read.
    pub(super) boot_id: Option<String>,
    /// Who set the phone up: on a phone taken as found, its setter also tears down.
    pub(super) baseline: Baseline,
}

/// What an episode's phone starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Baseline {
    /// The boot snapshot, then the task's setup: every episode starts from a known phone.
    Setup,
    /// The phone exactly as it is, set up by someone else (AndroidWorld's own `initialize_task`,
    /// when `scripts/android-world --drive` plays droidmcp's golden over AndroidWorld's data).
    AsFound,
}

/// The snapshot every episode starts from: the one the emulator (and the embedded phone) saves
/// at boot.
pub const BASELINE_SNAPSHOT: &str = "default_boot";

pub(super) fn now() -> String {
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
        Episode::start_from(instance, shell, store, Baseline::Setup).await
    }

    /// Starts an episode from `baseline`: the task's own setup, or the phone as another harness
    /// left it ([`Baseline::AsFound`]); the before-snapshots are taken either way.
    pub async fn start_from(
        instance: TaskInstance,
        shell: Arc<dyn Shell>,
        store: Option<Store>,
        baseline: Baseline,
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
            setup_state: None,
            log_baseline: None,
            latched: BTreeMap::new(),
            runs: 0,
            setup_log: Vec::new(),
            started_at: now(),
            ended_at: None,
            abort_reason: None,
            last: None,
            provisional: false,
            settled: None,
            restored: false,
            boot_id: None,
            baseline,
        };
        match baseline {
            Baseline::Setup => {
                ep.restored = ep.restore_baseline().await?;
                let setup = ep.instance.setup.clone();
                ep.run_steps(&setup, true).await?;
            }
            Baseline::AsFound => ep
                .setup_log
                .push("no restore, no setup: the phone as found".into()),
        }
        ep.snapshot().await?;
        ep.boot_id = ep.boot_id_now().await?;
        if let Some(store) = &ep.store {
            store.insert_episode(&ep.row())?;
        }
        ep.keep_frame(FrameKind::Start, 0).await?;
        Ok(ep)
    }

    /// Puts the phone back to its boot snapshot before setup, through the emulator console that
    /// emulators and the embedded phone both answer, so nothing an earlier episode did (texts
    /// sent, alarms set, the clock moved, an app left open) reaches this one. A phone without a
    /// console (a real one) or without the snapshot starts as it is: the episode says so
    /// (`restored: false`) and its setup alone resets what the task reads.
    async fn restore_baseline(&mut self) -> Result<bool, EpisodeError> {
        let line = format!("avd snapshot load {BASELINE_SNAPSHOT}");
        match self.shell.console(&line).await {
            Ok(reply) if reply.trim_end().ends_with("OK") => {
                self.setup_log.push(format!("console: {line}"));
                Ok(true)
            }
            Ok(reply) => {
                self.setup_log
                    .push(format!("console: {line} (no restore: {})", reply.trim()));
                Ok(false)
            }
            Err(e) if e.is_device_lost() => Err(self.abort(&e.to_string())),
            Err(ShellError::NoConsole { .. }) => {
                self.setup_log
                    .push("no restore: the device has no emulator console".into());
                Ok(false)
            }
            Err(e) => {
                self.setup_log.push(format!("no restore: {e}"));
                Ok(false)
            }
        }
    }

    /// The phone's boot id now; a lost device aborts, any other failure reads as none.
    async fn boot_id_now(&mut self) -> Result<Option<String>, EpisodeError> {
        match boot::read(self.shell.as_ref()).await {
            Ok(id) => Ok(id),
            Err(e) if e.is_device_lost() => Err(self.abort(&e.to_string())),
            Err(_) => Ok(None),
        }
    }

    /// Aborts the episode when the phone booted again since setup: what it shows now never ran
    /// this task's setup. A boot id that cannot be read now proves nothing either way.
    async fn same_boot(&mut self) -> Result<(), EpisodeError> {
        let Some(at_setup) = self.boot_id.clone() else {
            return Ok(());
        };
        match self.boot_id_now().await? {
            Some(now) if now != at_setup => Err(self.abort(&format!(
                "the phone restarted during the episode (boot id {at_setup} after setup, {now} \
                 now), so it no longer holds this task's setup"
            ))),
            _ => Ok(()),
        }
    }

    /// Ends the episode because another one was started on its device: the phone is about to be
    /// reset under it, so nothing it could still do would count.
    pub fn supersede(&mut self, reason: &str) {
        if !self.status.is_open() {
            return;
        }
        if self.status == Status::Finished {
            // The agent was done and its verdict taken: the next start ends it (the new
            // episode's restore undoes what teardown would), it does not abort it.
            self.status = Status::Ended;
        } else {
            self.status = Status::Aborted;
            self.abort_reason = Some(reason.to_string());
        }
        self.ended_at = Some(now());
        self.persist();
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
        if self.store.is_some() {
            match crate::eval::changes::read(self.shell.as_ref()).await {
                Ok(state) => self.setup_state = Some(state),
                Err(e) => return Err(self.abort(&e.to_string())),
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
                reason: self.abort_reason.clone(),
            })
        }
    }

    /// Records one step of the agent (a gesture that reached the phone, failed ones included; an
    /// attempt refused before reaching it costs nothing and only reports the steps left) and runs the task's
    /// `record.shell` commands and `any_step` device checks. The step past the limit ends the episode
    /// as failed.
    pub async fn record_step(&mut self, step: &Step) -> Result<StepOutcome, EpisodeError> {
        self.open("recording a step")?;
        if self.status == Status::Finished {
            return Err(EpisodeError::Closed {
                id: self.id.clone(),
                status: self.status.as_str(),
                what: "recording a step",
                reason: Some(
                    "the agent declared the task done; what is done on the phone now is not \
                     part of the episode and cannot change its verdict"
                        .into(),
                ),
            });
        }
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
        let lost = step
            .device_lost
            .then(|| step.error.clone().unwrap_or_default());
        self.steps.push(step);
        if let Some(reason) = lost {
            // Kept as a step, but nothing after it can count: the phone that answers next may be
            // a fresh one that never ran this task's setup.
            return Err(self.abort(&reason));
        }
        self.keep_frame(FrameKind::Step, index).await?;
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

    /// Keeps a frame of the screen for judges (episodes with a store only). A frame that cannot be
    /// taken is left out, and the judge is told none was recorded; a lost device aborts.
    async fn keep_frame(&mut self, kind: FrameKind, step: u32) -> Result<(), EpisodeError> {
        let Some(store) = self.store.clone() else {
            return Ok(());
        };
        match frames::capture(&self.shell, kind, step, kind == FrameKind::End).await {
            Ok(frame) => store.insert_frame(&self.id, &frame)?,
            Err(e) if e.is_device_lost() => return Err(self.abort(&e.to_string())),
            Err(e) => tracing::warn!(episode = %self.id, "no {} frame: {e}", kind.as_str()),
        }
        Ok(())
    }

    /// The state the agent left, for judges: the end frame with its screen, and the device facts
    /// (the clock, what changed since setup: the same for a task with rules as without). Taken at
    /// the final check, when the agent has finished, answered or run out of steps and nothing moves
    /// the phone any more.
    async fn keep_end_state(&mut self) -> Result<(), EpisodeError> {
        let Some(store) = self.store.clone() else {
            return Ok(());
        };
        self.keep_frame(FrameKind::End, self.steps.len() as u32)
            .await?;
        // Taken for the read and put back: a later final check reads against it again.
        let setup = self.setup_state.take();
        let read =
            eval::facts::read(self.shell.as_ref(), setup.as_ref(), &self.instance.goal).await;
        self.setup_state = setup;
        let reading = match read {
            Ok(reading) => reading,
            Err(lost) => return Err(self.abort(&lost.to_string())),
        };
        store.replace_facts(&self.id, &reading.facts)?;
        let mut pictures = Vec::new();
        for path in &reading.pictures {
            match frames::picture(self.shell.as_ref(), path).await {
                Ok(picture) => pictures.push(picture),
                Err(frames::PictureError::Device(e)) if e.is_device_lost() => {
                    return Err(self.abort(&e.to_string()))
                }
                Err(e) => tracing::warn!(episode = %self.id, "no picture of {path}: {e}"),
            }
        }
        store.replace_pictures(&self.id, &pictures)?;
        Ok(())
    }

    /// The focused activity (`package/class`), as `Device::foreground` reads it; `None` when the
    /// device does not say (a page constraint then cannot see that step's activity).
    async fn focused_activity(&mut self) -> Result<Option<String>, EpisodeError> {
        use droidmcp_device::parse;
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
        let mut constraints = self.instance.constraints.clone();
        let mut unresolved = None;
        for c in &mut constraints {
            let id = c.id.clone();
            let Some(selector) = c.selector_mut() else {
                continue;
            };
            match droidmcp_device::resolve_strings(self.shell.as_ref(), selector).await {
                Ok(resolved) => *selector = resolved,
                Err(e) => unresolved = Some(format!("constraint {id}: {e}")),
            }
        }
        (constraints, unresolved)
    }

    /// Evaluates every check and scores the episode; results are stored as one evaluation run.
    pub async fn check(&mut self) -> Result<Report, EpisodeError> {
        self.open("checking")?;
        if let Some(settled) = &self.settled {
            return Ok(settled.clone());
        }
        self.same_boot().await?;
        if self.status != Status::Running {
            self.keep_end_state().await?;
        }
        let mut reference = Task::reference_of(&self.instance.golden);
        // A reference step that names a string resource is compared in the device's language; one
        // the device cannot resolve matches no step, which only lowers the trajectory metrics.
        for r in &mut reference {
            if let Some(sel) = &r.selector {
                if let Ok(resolved) =
                    droidmcp_device::resolve_strings(self.shell.as_ref(), sel).await
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
        let metrics = (!self.instance.golden.is_empty())
            .then(|| metrics::trajectory(&reference, &actions, verdict.success));
        self.last = Some(verdict.clone());
        self.provisional = self.status == Status::Running;
        self.persist();
        let report = Report {
            episode: self.id.clone(),
            task: task.id.clone(),
            status: self.status,
            provisional: self.provisional,
            verdict,
            steps_used: self.steps.len() as u32,
            max_steps: task.max_steps,
            metrics,
            answer: self.answer.clone(),
        };
        if self.status == Status::Finished {
            self.settled = Some(report.clone());
        }
        Ok(report)
    }

    /// Runs teardown (failures are logged, not fatal) and closes the episode.
    pub async fn end(&mut self) -> Result<(), EpisodeError> {
        self.open("ending")?;
        let ours = self.baseline == Baseline::Setup;
        let teardown = self.instance.teardown.clone();
        if ours {
            self.run_steps(&teardown, false).await?;
        }
        if ours && self.set_the_clock() {
            // Network time back on: a phone keeping real time takes the real time again instead
            // of staying on the task's date (a virtual clock has no network and stays).
            let back = [crate::task::SetupStep::SettingsPut {
                ns: "global".into(),
                key: "auto_time".into(),
                value: "1".into(),
            }];
            self.run_steps(&back, false).await?;
        }
        self.status = Status::Ended;
        self.ended_at = Some(now());
        self.persist();
        Ok(())
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// The task's setup set the phone's clock.
    fn set_the_clock(&self) -> bool {
        self.instance
            .setup
            .iter()
            .any(|s| matches!(s, crate::task::SetupStep::SetTime { .. }))
    }

    /// Setup began from the phone's boot snapshot.
    pub fn restored(&self) -> bool {
        self.restored
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

    /// The device as told apart from others with the same serial ([`Shell::device_key`]).
    pub fn device_key(&self) -> String {
        self.shell.device_key()
    }

    pub fn shell(&self) -> &Arc<dyn Shell> {
        &self.shell
    }

    pub(super) fn row(&self) -> EpisodeRow {
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
            restored: self.restored,
            setup_log: self.setup_log.join("\n"),
            env: self.shell.environment(),
        }
    }
}

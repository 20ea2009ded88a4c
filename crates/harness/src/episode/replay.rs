//! Replays a solution (golden, wrong, or any list of [`Action`]s) as an agent would: every device
//! action goes through `Session::act`, the path MCP agents, the REST API and the manual CLI take, and
//! reaches the episode as the session's steps (through the episode's step sink). Answers and
//! `finish` go to the episode directly. A replay is an agent that reads its moves from a task file.

use std::sync::Arc;
use std::time::Duration;

use super::{Baseline, Episode, EpisodeError, Report, Status};
use crate::session::{self, Control, DevicePool, Session, SessionError, Target};
use droidmcp_device::Shell;

use crate::task::{Action, TaskInstance};

/// Why a replay stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("step {step} ({action}): {source}")]
    Act {
        step: usize,
        action: String,
        #[source]
        source: SessionError,
    },
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Episode(#[from] EpisodeError),
}

impl ReplayError {
    pub fn is_device_lost(&self) -> bool {
        match self {
            ReplayError::Act { source, .. } => source.is_device_lost(),
            ReplayError::Episode(EpisodeError::DeviceLost { .. }) => true,
            _ => false,
        }
    }
}

/// An episode shared between the replay (answers, finish) and the session recording its steps.
pub type SharedEpisode = Arc<tokio::sync::Mutex<Episode>>;

/// How many swipes a golden `scroll_to` makes before giving up.
const MAX_SCROLLS: u32 = 10;
const GOLDEN_LONG_PRESS_MS: u32 = 1000;
const GOLDEN_SWIPE_MS: u32 = 300;

/// Which way the phone lays out: a golden's `at` fractions run from an element's start, which is
/// its right edge in a right-to-left locale (a SeekBar's minimum is there, `mirrorForRtl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Ltr,
    Rtl,
}

impl Direction {
    /// The device's layout direction from its locale (`persist.sys.locale`, else the build's
    /// `ro.product.locale`); left to right when neither answers.
    pub async fn of(shell: &dyn Shell) -> Direction {
        for prop in ["persist.sys.locale", "ro.product.locale"] {
            let Ok(out) = shell.exec(&format!("getprop {prop}")).await else {
                continue;
            };
            let locale = out.stdout_text();
            let locale = locale.trim();
            if !locale.is_empty() {
                return if droidmcp_sim::locale::is_rtl(locale) {
                    Direction::Rtl
                } else {
                    Direction::Ltr
                };
            }
        }
        Direction::Ltr
    }
}

/// The session action a task-file action stands for (`None` for answers and finish), on a phone
/// laid out in `direction`.
pub fn session_action(
    action: &Action,
    direction: Direction,
) -> Result<Option<session::Action>, String> {
    use session::Action as A;
    let layout = direction;
    let direction = |d: &str| {
        session::Direction::parse(d)
            .ok_or_else(|| format!("direction {d:?} (up, down, left, right)"))
    };
    Ok(Some(match action {
        Action::Open(app) => A::OpenApp { app: app.clone() },
        Action::Tap(sel) => A::Tap(Target::Selector(sel.clone())),
        Action::TapAt { selector, fx, fy } => A::Tap(Target::Within {
            selector: selector.clone(),
            fx: match layout {
                Direction::Ltr => *fx,
                Direction::Rtl => 1.0 - *fx,
            },
            fy: *fy,
        }),
        Action::LongPress(sel) => A::LongPress {
            target: Target::Selector(sel.clone()),
            duration_ms: GOLDEN_LONG_PRESS_MS,
        },
        Action::Type { text, into, submit } => A::TypeText {
            text: text.clone(),
            into: into.clone().map(Target::Selector),
            clear: false,
            submit: *submit,
        },
        Action::Key(key) => A::PressKey { key: key.clone() },
        Action::Swipe { direction: d, on } => A::SwipeDirection {
            direction: direction(d)?,
            from: on.clone().map(Target::Selector),
            distance: None,
            duration_ms: GOLDEN_SWIPE_MS,
        },
        Action::ScrollTo {
            selector,
            direction: d,
        } => A::Scroll {
            direction: direction(d)?,
            container: None,
            until: Some(Target::Selector(selector.clone())),
            max_swipes: MAX_SCROLLS,
        },
        Action::Wait(ms) => A::Wait { ms: *ms },
        Action::Answer(_) | Action::Finish => return Ok(None),
    }))
}

/// Runs `actions` through `session`, whose steps `episode` records (see [`attach`]).
pub async fn replay(
    session: &Session,
    episode: &SharedEpisode,
    actions: &[Action],
) -> Result<(), ReplayError> {
    replay_paced(session, episode, actions, Duration::ZERO).await
}

/// [`replay`] waiting `pace` before each action, so a person watching the phone (the live page)
/// can follow each step.
pub async fn replay_paced(
    session: &Session,
    episode: &SharedEpisode,
    actions: &[Action],
    pace: Duration,
) -> Result<(), ReplayError> {
    let ctl = Control::default();
    let shell = episode.lock().await.shell().clone();
    let layout = Direction::of(&*shell).await;
    for (i, action) in actions.iter().enumerate() {
        let step = i + 1;
        if !pace.is_zero() {
            tokio::time::sleep(pace).await;
        }
        let act = session_action(action, layout)
            .map_err(|m| ReplayError::Invalid(format!("step {step}: {m}")))?;
        match (act, action) {
            (Some(act), _) => {
                session
                    .act(act, None, &ctl)
                    .await
                    .map_err(|source| ReplayError::Act {
                        step,
                        action: action.describe(),
                        source,
                    })?;
                let ep = episode.lock().await;
                if ep.status() == Status::Aborted {
                    return Err(ReplayError::Episode(EpisodeError::DeviceLost {
                        id: ep.id.clone(),
                        reason: "the device was lost while recording a step".into(),
                    }));
                }
            }
            (None, Action::Answer(text)) => episode.lock().await.answer(text)?,
            (None, _) => episode.lock().await.finish()?,
        }
    }
    Ok(())
}

/// A session on `shell` whose steps go to `episode`: how a replay (or a harness driving its own
/// agent in-process) acts on an episode's phone.
pub async fn attach(
    shell: Arc<dyn Shell>,
    episode: &SharedEpisode,
) -> Result<Session, ReplayError> {
    let pool = Arc::new(DevicePool::new(None, None));
    let spec = format!("replay:{}", shell.serial());
    pool.insert(&spec, shell);
    let session = Session::open(pool, "replay", Some(&spec))
        .await
        .map_err(|source| ReplayError::Act {
            step: 0,
            action: "open a session".into(),
            source,
        })?;
    session.set_step_sink(episode.clone());
    Ok(session)
}

/// Which solution to replay for an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solution {
    /// The task's golden solution (must score 1.0).
    Golden,
    /// A plausible wrong trajectory (must not succeed): the task's `wrong` list, else the golden
    /// solution of another instance with different parameters (the alarm at the wrong time).
    Wrong,
    /// No actions at all, then finish (must not succeed).
    Empty,
    /// The instance's near miss with this index (see `TaskInstance::near_misses`; must not
    /// succeed).
    NearMiss(usize),
}

/// The actions of `solution` for `instance`; `None` when the task has no wrong trajectory (no
/// `wrong` list and no parameters to vary).
pub fn solution_actions(instance: &TaskInstance, solution: Solution) -> Option<Vec<Action>> {
    match solution {
        Solution::Golden => Some(instance.golden.clone()),
        Solution::Empty => Some(vec![Action::Finish]),
        Solution::NearMiss(i) => instance
            .near_misses()
            .ok()?
            .into_iter()
            .nth(i)
            .map(|n| n.actions),
        Solution::Wrong => {
            if let Some(w) = &instance.wrong {
                return Some(w.clone());
            }
            let task = &instance.task;
            let right = answer_items(&instance.golden);
            (1..50u64).find_map(|k| {
                let other = task
                    .instantiate(instance.seed.wrapping_add(k * 7919), &Default::default())
                    .ok()?;
                let golden = task.render_actions(&task.golden, &other.params).ok()?;
                // Another instance's answer can be this one's (two draws of the same titles):
                // replaying it would be a right answer, not a wrong one.
                let differs = golden != instance.golden
                    && (right.is_none() || answer_items(&golden) != right);
                differs.then_some(golden)
            })
        }
    }
}

/// The answer a trajectory gives as a set of normalised list items (order and case aside), or
/// `None` when it gives none.
fn answer_items(actions: &[Action]) -> Option<std::collections::BTreeSet<String>> {
    actions.iter().find_map(|a| match a {
        Action::Answer(text) => Some(
            text.split(',')
                .map(crate::eval::text::normalize)
                .filter(|item| !item.is_empty())
                .collect(),
        ),
        _ => None,
    })
}

/// Starts an episode of `task` with `seed` on `shell`, replays `solution`, checks, and ends it.
pub async fn run_instance(
    task: &Arc<crate::task::Task>,
    seed: u64,
    shell: Arc<dyn Shell>,
    store: Option<crate::store::Store>,
    solution: Solution,
) -> Result<Report, ReplayError> {
    let start = Start::default();
    run_instance_from(task, seed, &start, shell, store, solution).await
}

/// How a replayed instance meets its phone: parameters set instead of drawn, and the baseline.
#[derive(Debug, Clone)]
pub struct Start {
    /// Parameter values that replace the seed's draws (checked against each parameter's spec).
    pub params: std::collections::BTreeMap<String, String>,
    pub baseline: Baseline,
}

impl Default for Start {
    fn default() -> Start {
        Start {
            params: Default::default(),
            baseline: Baseline::Setup,
        }
    }
}

/// [`run_instance`] with parameters given and the phone met as `start` says.
pub async fn run_instance_from(
    task: &Arc<crate::task::Task>,
    seed: u64,
    start: &Start,
    shell: Arc<dyn Shell>,
    store: Option<crate::store::Store>,
    solution: Solution,
) -> Result<Report, ReplayError> {
    let first_day = device_first_day(shell.as_ref()).await;
    let instance = task
        .instantiate(seed, &start.params)
        .and_then(|i| i.for_week_start(first_day))
        .map_err(EpisodeError::from)?;
    let actions = solution_actions(&instance, solution).ok_or_else(|| {
        ReplayError::Invalid(format!(
            "task {} has no such trajectory ({solution:?}: no `wrong` list, no parameter to vary)",
            task.id
        ))
    })?;
    let episode = Episode::start_from(instance, shell.clone(), store, start.baseline).await?;
    play(episode, &actions, shell, solution != Solution::Golden).await
}

/// The first day of the calendar week on the device, from its system locale
/// (`persist.sys.locale`, else `ro.product.locale`); Sunday (en-US's) when it reports none.
async fn device_first_day(shell: &dyn Shell) -> chrono::Weekday {
    for prop in ["persist.sys.locale", "ro.product.locale"] {
        if let Ok(out) = shell.exec(&format!("getprop {prop}")).await {
            let locale = out.stdout_text();
            if !locale.trim().is_empty() {
                return droidmcp_sim::locale::datetime::first_day_of_week(locale.trim());
            }
        }
    }
    chrono::Weekday::Sun
}

/// Starts an episode of `instance` on `shell`, replays `actions`, checks, and ends it. With
/// `tolerant`, a trajectory that stops early (a wrong one whose element is not there) is scored on
/// what it did; otherwise the error is returned.
pub async fn run_actions(
    instance: TaskInstance,
    actions: &[Action],
    shell: Arc<dyn Shell>,
    store: Option<crate::store::Store>,
    tolerant: bool,
) -> Result<Report, ReplayError> {
    let episode = Episode::start(instance, shell.clone(), store).await?;
    play(episode, actions, shell, tolerant).await
}

/// Replays `actions` in a started episode, checks, and ends it.
async fn play(
    episode: Episode,
    actions: &[Action],
    shell: Arc<dyn Shell>,
    tolerant: bool,
) -> Result<Report, ReplayError> {
    let episode: SharedEpisode = Arc::new(tokio::sync::Mutex::new(episode));
    let session = attach(shell, &episode).await?;
    let replayed = replay(&session, &episode, actions).await;
    let mut ep = episode.lock().await;
    if let Err(e) = replayed {
        if !tolerant || e.is_device_lost() {
            return Err(e);
        }
        let _ = ep.finish();
    }
    let report = ep.check().await?;
    ep.end().await?;
    Ok(report)
}

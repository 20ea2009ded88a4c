//! Task episodes: one task instance run on one device, from setup to teardown — the concept the
//! runner, the MCP task tools, the REST API, the page and golden replays share.
//!
//! [`Episode::start`] runs the instance's setup, then takes the before-snapshots of every app database a
//! check compares against and a logcat baseline — so only a set-up episode can be checked (the
//! precondition lives in the type, not in a runtime flag). Each agent action is recorded with
//! [`Episode::record_step`] (the session's step hook), which also evaluates `any_step` checks and
//! enforces the step limit. [`Episode::check`] scores; [`Episode::end`] tears down. A device that
//! disappears mid-episode ends it as `aborted`, keeping its steps, and so does one that restarted
//! under it (its boot id changed between setup and a check). Every change is written to the
//! [`Store`](crate::store::Store) as it happens.
//!
//! Files: `episode.rs` (the [`Episode`] state machine), `registry.rs` ([`Episodes`], the registry
//! the front ends share, and where episodes get their devices), `record.rs` (steps as the store,
//! history checks and metrics see them; the step sinks), `boot.rs` (restarts told by the boot
//! id), `error.rs`, `replay.rs` (golden replays: a replay is an agent acting through a session
//! attached to an episode).
//!
//! **Architecture Invariant:** this layer sits above `session/` and `task/`: it uses sessions to act
//! and task instances to know what to set up and check; neither of them knows episodes exist.

mod boot;
mod episode;
mod error;
mod frames;
mod record;
mod registry;
pub mod replay;

pub use episode::{Baseline, Episode};
pub use error::EpisodeError;
pub use record::action_record;
pub use registry::{DeviceSource, Episodes, PoolDevices, Started, Summary};

use crate::eval::metrics::TrajectoryMetrics;
use crate::eval::Verdict;

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
    /// The answer the agent gave (`task_answer`), if it gave one.
    pub answer: Option<String>,
}

//! The trajectory of a session: one [`Step`] per action, kept in memory for whoever persists episodes
//! (tasks, judges) through [`StepSink`] or by reading [`super::Session::steps`].

use std::sync::Arc;

use chrono::{DateTime, Utc};

/// One recorded action.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// 0-based position in the session.
    pub index: usize,
    /// The action as a one-line description (`tap (540,1200)`, `type_text "hi" submit`).
    pub action: String,
    /// Tool-level name of the action (`tap`, `type_text`, …).
    pub kind: &'static str,
    pub started_at: DateTime<Utc>,
    pub elapsed_ms: u64,
    /// `None` when the action succeeded, else the error shown to the client.
    pub error: Option<String>,
    /// Digest of the settled screen after the action (see `Screen::digest`).
    pub observation_digest: Option<String>,
    /// Foreground `package/activity` after the action.
    pub foreground: Option<String>,
    /// Serial of the device the action ran on.
    pub serial: String,
}

/// Receives each step as it is recorded (e.g. to write it to the episode store).
pub trait StepSink: Send + Sync {
    fn record(&self, session_id: &str, step: &Step);
}

/// The in-memory trajectory plus an optional sink.
#[derive(Default)]
pub(crate) struct Recorder {
    pub steps: Vec<Step>,
    pub sink: Option<Arc<dyn StepSink>>,
}

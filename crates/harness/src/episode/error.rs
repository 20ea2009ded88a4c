//! Why an episode operation failed, and how front ends classify it.

use crate::store::StoreError;
use crate::task::TaskError;

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
    #[error("episode {id} is {status}{}; {what} is no longer possible", .reason.as_ref().map(|r| format!(" ({r})")).unwrap_or_default())]
    Closed {
        id: String,
        status: &'static str,
        what: &'static str,
        /// Why it was aborted, when it was.
        reason: Option<String>,
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

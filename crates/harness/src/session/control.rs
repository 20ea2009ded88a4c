//! How a caller steers one call: cancellation and progress reports.

use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use super::SessionError;

/// Progress of a long call.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub done: f64,
    pub total: Option<f64>,
    pub message: String,
}

/// How a caller steers one call: cancellation and progress reports.
#[derive(Clone, Default)]
pub struct Control {
    pub cancel: CancellationToken,
    pub progress: Option<UnboundedSender<Progress>>,
}

impl Control {
    pub(crate) fn report(&self, done: f64, total: Option<f64>, message: impl Into<String>) {
        if let Some(tx) = &self.progress {
            let _ = tx.send(Progress {
                done,
                total,
                message: message.into(),
            });
        }
    }

    pub(crate) fn check(&self) -> Result<(), SessionError> {
        if self.cancel.is_cancelled() {
            Err(SessionError::Cancelled)
        } else {
            Ok(())
        }
    }

    pub(crate) async fn sleep(&self, d: Duration) -> Result<(), SessionError> {
        tokio::select! {
            _ = self.cancel.cancelled() => Err(SessionError::Cancelled),
            _ = tokio::time::sleep(d) => Ok(()),
        }
    }
}

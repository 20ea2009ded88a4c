//! A leased device as one episode sees it, and the agent surface a spawned agent gets.
//!
//! Each episode gets its device (see [`crate::fleet`]: embedded phones, adb servers, `adb connect`
//! endpoints, farms) through a fresh [`DevicePool`] whose default device it is, so the agent's
//! sessions (in-process, or an agent process's MCP connection) land on it without naming it. The
//! device's shell is the fleet's, kept across episodes: an embedded phone is booted once and
//! `Episode::start` restores its boot snapshot, an adb device keeps its pooled connections. The agent
//! surface a spawned agent gets is served on a loopback port of its own per episode
//! ([`AgentSurface`]) by a [`SurfaceServer`] the caller hands in (the binary's MCP server): the
//! runner starts and stops it and knows nothing of MCP.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::episode::Episodes;
use crate::fleet::Held;
use crate::session::{DevicePool, Hub};

use super::RunError;

/// A phone opened for one episode: its pool (whose default device it is) and the session hub over it.
pub struct Leased {
    pub pool: Arc<DevicePool>,
    pub spec: String,
}

impl Leased {
    /// Opens `held` in `env` for one episode; its steps go to `episodes`.
    pub async fn open(
        held: &Held,
        env: Option<&str>,
        episodes: &Arc<Episodes>,
    ) -> Result<Leased, RunError> {
        let spec = held.grant.endpoint.spec();
        let shell = held
            .shell(env)
            .await
            .map_err(|e| RunError::Device(format!("{}: {e}", held.name())))?;
        // Any other embedded phone the agent opens here keeps real time too, as its own does.
        let pool = Arc::new(
            DevicePool::new(Some(spec.clone()), None).with_sim_clock(droidmcp_sim::ClockMode::Real),
        );
        pool.insert(&spec, shell);
        // Until an episode is bound to the phone (`bind`), steps go to the registry.
        pool.set_step_sink(episodes.clone());
        Ok(Leased { pool, spec })
    }

    /// The phone's shell, for the episode's setup and checks.
    pub async fn shell(&self) -> Result<Arc<dyn droidmcp_device::Shell>, RunError> {
        let lease = self
            .pool
            .lease(None)
            .await
            .map_err(|e| RunError::Device(format!("{}: {e}", self.spec)))?;
        Ok(lease.slot().device.shell_handle())
    }

    /// Sends every step taken on this phone to `episode` (the one episode it plays), whatever
    /// serial the phone reports.
    pub fn bind(&self, episode: Arc<dyn crate::session::StepSink>) {
        self.pool.set_step_sink(episode);
    }

    /// A hub of sessions on this phone (the reference agents act through one).
    pub fn hub(&self) -> Hub {
        Hub::new(self.pool.clone())
    }
}

/// Serves an episode's agent surface: the phone tools and the agent's task tools (`task_answer`,
/// `task_finish`) on `hub`'s phone, over MCP on a loopback port, with nothing of the answer key.
/// The `droidmcp` binary implements it with its MCP server; the runner only starts and stops it.
#[async_trait::async_trait]
pub trait SurfaceServer: Send + Sync {
    async fn serve(&self, hub: Hub, episodes: Arc<Episodes>) -> Result<AgentSurface, RunError>;
}

/// A served agent surface: where the agent connects, and how to stop it.
pub struct AgentSurface {
    pub url: String,
    shutdown: CancellationToken,
    served: tokio::task::JoinHandle<()>,
}

impl AgentSurface {
    /// A surface at `url`, served by `served` until `shutdown` is cancelled.
    pub fn new(
        url: String,
        shutdown: CancellationToken,
        served: tokio::task::JoinHandle<()>,
    ) -> AgentSurface {
        AgentSurface {
            url,
            shutdown,
            served,
        }
    }

    /// Stops serving and waits until the listener is closed.
    pub async fn close(self) {
        self.shutdown.cancel();
        let _ = self.served.await;
    }
}

//! The phones a run plays episodes on: `--phones N` embedded phones and the adb devices named, one
//! episode per phone at a time.
//!
//! Each episode gets a phone of its own environment through a fresh [`DevicePool`] whose default
//! device is that phone, so the agent's sessions (in-process, or an agent process's MCP connection)
//! land on it without naming it. An embedded phone is booted anew for every episode (a cold start
//! costs milliseconds, and nothing an earlier episode did can leak into the next); an adb device is
//! the same device every time, and `Episode::start` restores what it can. The agent surface a
//! spawned agent gets is served on a loopback port of its own per episode ([`AgentSurface`]).

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::episode::Episodes;
use crate::mcp::{http as mcp_http, ServerState};
use crate::session::{DevicePool, Hub};

use super::RunError;

/// A device a run can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phone {
    /// The embedded phone of slot N, booted with seed N: each slot's phone has a serial of its own
    /// (`sim-N`), so nothing keyed by serial (a device's open episode) mixes two slots up.
    Embedded(u32),
    /// An adb serial.
    Adb(String),
}

impl Phone {
    /// The device spec for this phone in `env`.
    pub fn spec(&self, env: Option<&str>) -> String {
        let device = match self {
            Phone::Embedded(slot) => format!("sim:{slot}"),
            Phone::Adb(serial) => serial.clone(),
        };
        match env {
            Some(env) => crate::env::with_env(&device, env),
            None => device,
        }
    }

    pub fn name(&self, slot: usize) -> String {
        match self {
            Phone::Embedded(n) => format!("sim#{n} (slot {slot})"),
            Phone::Adb(serial) => serial.clone(),
        }
    }
}

/// A phone opened for one episode: its pool (whose default device it is) and the session hub over it.
pub struct Leased {
    pub pool: Arc<DevicePool>,
    pub spec: String,
}

impl Leased {
    /// Opens `phone` in `env` for one episode; its steps go to `episodes`.
    pub async fn open(
        phone: &Phone,
        env: Option<&str>,
        adb_server: Option<&str>,
        episodes: &Arc<Episodes>,
    ) -> Result<Leased, RunError> {
        let spec = phone.spec(env);
        let pool = Arc::new(DevicePool::new(
            Some(spec.clone()),
            adb_server.map(str::to_string),
        ));
        // Until an episode is bound to the phone (`bind`), steps go to the registry.
        pool.set_step_sink(episodes.clone());
        // Open it now, so a device that is not there errors the attempt before setup.
        pool.lease(None)
            .await
            .map_err(|e| RunError::Device(format!("{spec}: {e}")))?;
        Ok(Leased { pool, spec })
    }

    /// The phone's shell, for the episode's setup and checks.
    pub async fn shell(&self) -> Result<Arc<dyn crate::device::Shell>, RunError> {
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

/// The agent-surface MCP server of one episode's phone, on a loopback port of its own: the phone
/// tools and the agent's task tools (`task_answer`, `task_finish`), nothing of the answer key.
pub struct AgentSurface {
    pub url: String,
    shutdown: CancellationToken,
    served: tokio::task::JoinHandle<()>,
}

impl AgentSurface {
    pub async fn serve(phone: &Leased, episodes: &Arc<Episodes>) -> Result<AgentSurface, RunError> {
        let state = ServerState::new(phone.hub());
        let _ = state.tasks.set(episodes.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| RunError::Io(format!("agent surface: cannot listen on loopback: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| RunError::Io(format!("agent surface: {e}")))?;
        let guard = mcp_http::Guard::for_bind(addr, None, &[])
            .map_err(|e| RunError::Io(format!("agent surface: {e}")))?;
        let shutdown = CancellationToken::new();
        let app = mcp_http::router(state, guard, None, shutdown.clone());
        let stop = shutdown.clone();
        let served = tokio::spawn(async move {
            if let Err(e) = mcp_http::serve(listener, app, stop).await {
                tracing::warn!("agent surface on {addr}: {e}");
            }
        });
        Ok(AgentSurface {
            url: format!("http://{addr}/mcp"),
            shutdown,
            served,
        })
    }

    /// Stops serving and waits until the listener is closed.
    pub async fn close(self) {
        self.shutdown.cancel();
        let _ = self.served.await;
    }
}

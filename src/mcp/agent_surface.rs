//! A spawned agent's surface in a run: this server's phone tools and task tools over MCP, on a
//! loopback port of its own per episode (the runner, below the servers, asks for it through
//! [`SurfaceServer`]).

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::episode::Episodes;
use crate::run::{AgentSurface, RunError, SurfaceServer};
use crate::session::Hub;

use super::{http as mcp_http, ServerState};

/// The MCP agent surface every run of this binary serves to a spawned agent.
pub struct McpSurface;

#[async_trait::async_trait]
impl SurfaceServer for McpSurface {
    async fn serve(&self, hub: Hub, episodes: Arc<Episodes>) -> Result<AgentSurface, RunError> {
        let state = ServerState::new(hub);
        let _ = state.tasks.set(episodes);
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
        Ok(AgentSurface::new(
            format!("http://{addr}/mcp"),
            shutdown,
            served,
        ))
    }
}

//! Runs of many episodes on many devices (`droidmcp_harness::run`), with a spawned agent's MCP
//! surface served by this binary's MCP server.

use std::sync::Arc;

pub use droidmcp_harness::run::*;

use crate::agent::ReferenceAgent;
use crate::store::Store;
use crate::task::Catalog;

/// [`droidmcp_harness::run::execute`] with the MCP agent surface
/// ([`crate::mcp::agent_surface::McpSurface`]) for agents run as commands.
pub async fn execute(
    spec: RunSpec,
    catalog: Arc<Catalog>,
    store: Store,
    adb_server: Option<String>,
    agent: Option<Arc<ReferenceAgent>>,
    on_progress: impl Fn(&Progress) + Send + Sync + 'static,
) -> Result<RunSummary, RunError> {
    let surface = Arc::new(crate::mcp::agent_surface::McpSurface);
    droidmcp_harness::run::execute(
        spec,
        catalog,
        store,
        adb_server,
        agent,
        surface,
        on_progress,
    )
    .await
}

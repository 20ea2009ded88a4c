//! Runs: an agent through a benchmark suite — which instances (task × seed × environment), which
//! agent (a reference agent over a model, or a command the user brings), on which phones — with
//! resume, errors kept apart from failures, and the papers' metrics and tables.
//!
//! Brief overview: a [`RunSpec`] names the run and says what it holds; [`plan`] turns it into
//! [`plan::Instance`]s with seeds derived from the run seed; [`exec::execute`] plays them on
//! devices leased from [`crate::fleet`] (the sources [`devices`] makes of the spec; one episode per
//! device at a time, each on a restored phone; [`phones`] turns a device into the episode's pool), each
//! through an episode of the shared [`Episodes`](crate::episode::Episodes) registry with the agent
//! acting through `Session::act` (a reference agent in-process, or a spawned [`command`] through
//! the episode's agent-surface MCP server). Every finished attempt is one row in the store
//! (`run_results`), written as it ends; re-running a run by name plays only what has no final row.
//! An attempt the infrastructure broke (setup failed, device lost, endpoint unreachable, an agent
//! process that crashed before acting, a check that could not read the phone) is `errored`, retried
//! up to the spec's limit, and never counted as the agent's failure. [`report`] makes the tables.
//!
//! **Architecture Invariant:** the runner is an actor like any other: it starts, answers, finishes,
//! checks and ends episodes through `Episodes`, and its agents act through sessions. It reads the
//! answer key only to score, after the agent is done, and never hands it to an agent.

pub mod command;
pub mod devices;
pub mod exec;
pub mod no_step;
pub mod phones;
pub mod plan;
pub mod report;
pub mod side_effects;
pub mod spec;
pub mod stats;

pub use exec::{execute, Progress, RunSummary};
pub use phones::{AgentSurface, SurfaceServer};
pub use spec::{AgentSpec, FleetSpec, RunSpec, Shard};

/// Why a run could not be started or went wrong as a whole (one instance's trouble is that
/// instance's `errored` row, never a `RunError`).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Spec(String),
    #[error(
        "run {name:?} already exists with another specification; resume it with the same options (or none), or pick another name\n  stored: {stored}\n  now:    {now}"
    )]
    SpecChanged {
        name: String,
        stored: String,
        now: String,
    },
    #[error("device {0}")]
    Device(String),
    #[error("{0}")]
    Io(String),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(transparent)]
    Llm(#[from] droidmcp_llm::LlmError),
}

//! The benchmark over any phone: task files and their parameters (`task`), rule-based evaluators
//! over device state (`eval`), the episode store (`store`), leases on devices and the steps taken
//! through them (`session`), a task instance played on a device (`episode`), LLM judges (`judge`),
//! the reference agents (`agent`), runs of many episodes on many devices (`run`) and where those
//! devices come from (`fleet`).
//!
//! It stands above the phones (`droidmcp-sim`, `droidmcp-adb`) and the environments, and below the
//! servers and the CLI of the `droidmcp` binary, which it never names: a spawned agent's MCP
//! surface is handed in (`run::SurfaceServer`).

pub mod agent;
pub mod episode;
pub mod eval;
pub mod fleet;
pub mod judge;
pub mod run;
pub mod session;
pub mod store;
pub mod task;

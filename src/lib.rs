//! droidmcp: an MCP server (and HTTP API) that puts an Android phone in the hands of any LLM.
//!
//! Data flows one way: device ⇄ observation/action ⇄ tools ⇄ transports. See `ARCHITECTURE.md`
//! for the map; each module's own docs say what it owns.

// The lower layers are crates of their own (crates/); they are re-exported here under the names
// the rest of the code and the tests use.
pub use droidmcp_adb as adb;
pub use droidmcp_device as device;
pub use droidmcp_env as env;
pub use droidmcp_geom as geom;
pub use droidmcp_grpc as grpc;
pub use droidmcp_harness::{agent, episode, eval, fleet, judge, session, store, task};
pub use droidmcp_hierarchy as hierarchy;
pub use droidmcp_llm as llm;
pub use droidmcp_secret as secret;
pub use droidmcp_sim as sim;

pub mod cli;
pub mod http;
pub mod mcp;
pub mod run;
pub mod web;

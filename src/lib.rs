//! droidmcp: an MCP server (and HTTP API) that puts an Android phone in the hands of any LLM.
//!
//! Data flows one way: device ⇄ observation/action ⇄ tools ⇄ transports. See `ARCHITECTURE.md`
//! for the map; each module's own docs say what it owns.

pub mod adb;
pub mod agent;
pub mod cli;
pub mod device;
pub mod env;
pub mod episode;
pub mod eval;
pub mod fleet;
pub mod geom;
pub mod grpc;
pub mod hierarchy;
pub mod http;
pub mod judge;
pub mod llm;
pub mod mcp;
pub mod run;
pub mod secret;
pub mod session;
pub mod sim;
pub mod store;
pub mod task;
pub mod web;

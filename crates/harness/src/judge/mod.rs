//! LLM judges: score an episode from its evidence with OpenAI-compatible chat models, cross-validate two
//! judges from different model families, combine them with rule-based results, and calibrate them against
//! episodes whose outcome is known.
//!
//! Brief overview: a [`config::JudgeConfig`] (from `judges/*.toml`) names an endpoint, a model and a prompt
//! template from `prompts/`; it calls its endpoint through [`droidmcp_llm::ChatClient`] (timeouts,
//! bounded retries on 429/5xx, a per-endpoint concurrency limit and a shared spend cap).
//! [`judge::Judge`] turns an [`evidence::Evidence`] into messages for one [`evidence::Mode`], asks, and
//! parses the reply with [`verdict::parse_reply`] (one repair round, then `undecided` — never a guess).
//! [`panel::Panel`] runs two (or three) judges on the same evidence and applies a [`panel::Policy`];
//! [`calibrate`] turns labelled verdicts into accuracy, precision/recall, Cohen's κ and agreement figures;
//! [`record`] writes every verdict with its raw reply, usage, latency and cost to SQLite.

pub mod a3rm;
pub mod calibrate;
pub mod calibration_run;
pub mod completeness;
pub mod config;
pub mod evidence;
#[allow(clippy::module_inception)]
pub mod judge;
pub mod marks;
pub mod misjudgment;
pub mod panel;
pub mod prompt;
pub mod record;
pub mod report;
pub mod source;
pub mod verdict;

pub use config::{JudgeConfig, JudgeError};
pub use evidence::{Evidence, Mode, StepEvidence};
pub use judge::{Judge, JudgeOutcome};
pub use panel::{Panel, PanelVerdict, Policy};
pub use verdict::{Verdict, VerdictKind};

//! Judge configuration files (`judges/*.toml`): which endpoint, model and prompt a judge uses, and how
//! hard it may push that endpoint.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

/// The panel file inside the judges directory; every other `*.toml` there is a judge.
pub const PANEL_FILE: &str = "panel.toml";

/// Errors from loading configs, reading prompts and talking to endpoints.
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    #[error("{path}: {message}")]
    Config { path: PathBuf, message: String },
    // The io error is the source, not part of this message: `{:#}` chains would say it twice.
    #[error("{path}: cannot read")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Llm(#[from] droidmcp_llm::LlmError),
    #[error("store: {0}")]
    Store(#[from] rusqlite::Error),
}

/// The raw file, as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JudgeFile {
    name: Option<String>,
    /// Model family ("gpt", "claude", "gemini", "llama", "qwen", "gemma", …); cross-validation needs two.
    family: String,
    base_url: String,
    model: String,
    api_key_env: Option<String>,
    #[serde(default)]
    temperature: f32,
    #[serde(default = "default_timeout")]
    timeout_secs: f64,
    #[serde(default = "default_max_tokens")]
    max_tokens: u32,
    #[serde(default)]
    images: bool,
    #[serde(default = "default_response_format")]
    response_format: String,
    #[serde(default = "default_retries")]
    max_retries: u32,
    #[serde(default = "default_concurrency")]
    max_concurrency: usize,
    #[serde(default)]
    usd_per_million_input: f64,
    #[serde(default)]
    usd_per_million_output: f64,
    #[serde(default = "default_budget")]
    token_budget: usize,
    #[serde(default = "default_keyframes")]
    max_keyframes: usize,
    /// `chat` (default) or `a3rm`.
    #[serde(default)]
    kind: Option<String>,
    /// Ask as a reasoning model (`max_completion_tokens`, no `temperature`) whatever the model's
    /// name says: a deployment or local model whose name does not tell.
    #[serde(default)]
    reasoning: bool,
    /// `reasoning_effort` for a reasoning model (none, minimal, low, medium, high, xhigh); implies
    /// `reasoning`.
    reasoning_effort: Option<String>,
}

fn default_timeout() -> f64 {
    60.0
}
fn default_max_tokens() -> u32 {
    512
}
fn default_response_format() -> String {
    "json_object".into()
}
fn default_retries() -> u32 {
    3
}
fn default_concurrency() -> usize {
    4
}
fn default_budget() -> usize {
    6000
}
fn default_keyframes() -> usize {
    4
}

use droidmcp_llm::Endpoint;
pub use droidmcp_llm::ResponseFormat;

/// How a judge is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JudgeKind {
    /// A chat model asked for a JSON verdict in the panel's mode.
    Chat,
    /// A3's reward model (A3RM, served by vLLM): asked, per essential state and step, "yes" or "no"
    /// from the screenshots before and after the step, in the input format it was trained on.
    A3rm,
}

/// A validated judge: who it is, the endpoint it calls, and what evidence it takes.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeConfig {
    pub name: String,
    pub family: String,
    /// Where and how it is called (named `judge NAME` in errors).
    pub endpoint: Endpoint,
    /// Whether the model accepts image inputs (screenshots are sent only then).
    pub images: bool,
    /// Rough token budget for the text evidence of one request.
    pub token_budget: usize,
    pub max_keyframes: usize,
    pub kind: JudgeKind,
    /// Asked as a reasoning model whatever its name (`reasoning = true` or a `reasoning_effort`),
    /// with this effort when one is set; `None` leaves it to the model's name.
    pub reasoning: Option<Option<droidmcp_llm::Effort>>,
}

impl JudgeConfig {
    /// Parses and validates a judge file; the name defaults to the file stem.
    pub fn from_toml(path: &Path, text: &str) -> Result<JudgeConfig, JudgeError> {
        let bad = |message: String| JudgeError::Config {
            path: path.to_path_buf(),
            message,
        };
        let file: JudgeFile =
            toml::from_str(text).map_err(|e| bad(e.to_string().trim_end().to_string()))?;
        let name = file
            .name
            .or_else(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .ok_or_else(|| bad("no name".into()))?;
        if !(file.base_url.starts_with("http://") || file.base_url.starts_with("https://")) {
            return Err(bad(format!(
                "base_url {:?} must start with http:// or https://",
                file.base_url
            )));
        }
        if file.model.trim().is_empty() {
            return Err(bad("model must not be empty".into()));
        }
        if file.family.trim().is_empty() {
            return Err(bad("family must not be empty".into()));
        }
        if !(0.0..=2.0).contains(&file.temperature) {
            return Err(bad(format!(
                "temperature {} is outside 0..=2",
                file.temperature
            )));
        }
        if !(file.timeout_secs > 0.0 && file.timeout_secs <= 3600.0) {
            return Err(bad(format!(
                "timeout_secs {} is outside (0, 3600]",
                file.timeout_secs
            )));
        }
        let declared = ResponseFormat::parse(&file.response_format).ok_or_else(|| {
            bad(format!(
                "response_format {:?} is not one of {}",
                file.response_format,
                ResponseFormat::NAMES
            ))
        })?;
        if file.max_concurrency == 0 {
            return Err(bad("max_concurrency must be at least 1".into()));
        }
        let kind = match file.kind.as_deref().unwrap_or("chat") {
            "chat" => JudgeKind::Chat,
            "a3rm" => JudgeKind::A3rm,
            other => return Err(bad(format!("kind {other:?} is not one of chat, a3rm"))),
        };
        if kind == JudgeKind::A3rm && !file.images {
            return Err(bad(
                "an a3rm judge reads screenshots: set images = true".into()
            ));
        }
        let effort = match file.reasoning_effort.as_deref() {
            None => None,
            Some(e) => Some(droidmcp_llm::Effort::parse(e).ok_or_else(|| {
                bad(format!(
                    "reasoning_effort {e:?} is not one of {}",
                    droidmcp_llm::Effort::NAMES
                ))
            })?),
        };
        let reasoning = (file.reasoning || effort.is_some()).then_some(effort);
        // A3RM answers in prose ending in an <answer> tag: no JSON constraint.
        let response_format = match kind {
            JudgeKind::A3rm => ResponseFormat::None,
            JudgeKind::Chat => declared,
        };
        Ok(JudgeConfig {
            endpoint: Endpoint {
                name: format!("judge {name}"),
                base_url: file.base_url.trim_end_matches('/').to_string(),
                model: file.model,
                api_key_env: file.api_key_env,
                temperature: file.temperature,
                timeout: Duration::from_secs_f64(file.timeout_secs),
                max_tokens: file.max_tokens,
                response_format,
                max_retries: file.max_retries.min(10),
                max_concurrency: file.max_concurrency,
                usd_per_million_input: file.usd_per_million_input,
                usd_per_million_output: file.usd_per_million_output,
            },
            name,
            family: file.family.trim().to_lowercase(),
            images: file.images,
            token_budget: file.token_budget.max(500),
            max_keyframes: file.max_keyframes,
            kind,
            reasoning,
        })
    }

    /// Loads one judge file.
    pub fn load(path: &Path) -> Result<JudgeConfig, JudgeError> {
        let text = std::fs::read_to_string(path).map_err(|source| JudgeError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        JudgeConfig::from_toml(path, &text)
    }

    /// Loads every `*.toml` in a directory, sorted by name; a bad file fails with its path.
    pub fn load_dir(dir: &Path) -> Result<Vec<JudgeConfig>, JudgeError> {
        let entries = std::fs::read_dir(dir).map_err(|source| JudgeError::Read {
            path: dir.to_path_buf(),
            source,
        })?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "toml")
                    && p.file_name().is_some_and(|n| n != PANEL_FILE)
            })
            .collect();
        paths.sort();
        paths.iter().map(|p| JudgeConfig::load(p)).collect()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PanelFile {
    judges: Vec<String>,
    tie_breaker: Option<String>,
    #[serde(default = "default_policy")]
    policy: String,
    #[serde(default = "default_mode")]
    mode: String,
    spend_cap_usd: Option<f64>,
}

fn default_policy() -> String {
    "rule_first".into()
}
fn default_mode() -> String {
    "final_state".into()
}

/// Which judges form the cross-validating panel and how their verdicts are used (`judges/panel.toml`).
#[derive(Debug, Clone, PartialEq)]
pub struct PanelConfig {
    pub first: String,
    pub second: String,
    pub tie_breaker: Option<String>,
    pub policy: super::panel::Policy,
    pub mode: super::evidence::Mode,
    pub spend_cap_usd: Option<f64>,
}

impl PanelConfig {
    pub fn from_toml(path: &Path, text: &str) -> Result<PanelConfig, JudgeError> {
        let bad = |message: String| JudgeError::Config {
            path: path.to_path_buf(),
            message,
        };
        let file: PanelFile =
            toml::from_str(text).map_err(|e| bad(e.to_string().trim_end().to_string()))?;
        let [first, second]: [String; 2] = file.judges.try_into().map_err(|j: Vec<String>| {
            bad(format!(
                "judges must name exactly two judges, got {}",
                j.len()
            ))
        })?;
        let policy = super::panel::Policy::parse(&file.policy).ok_or_else(|| {
            bad(format!(
                "policy {:?} is not one of rule_only, rule_first, judges_only, both_agree",
                file.policy
            ))
        })?;
        let mode = super::evidence::Mode::parse(&file.mode).ok_or_else(|| {
            bad(format!(
                "mode {:?} is not one of final_state, trajectory, essential_states",
                file.mode
            ))
        })?;
        if let Some(cap) = file.spend_cap_usd {
            if cap.is_nan() || cap < 0.0 {
                return Err(bad(format!(
                    "spend_cap_usd {cap} must be a non-negative number"
                )));
            }
        }
        Ok(PanelConfig {
            first,
            second,
            tie_breaker: file.tie_breaker,
            policy,
            mode,
            spend_cap_usd: file.spend_cap_usd,
        })
    }

    pub fn load(path: &Path) -> Result<PanelConfig, JudgeError> {
        let text = std::fs::read_to_string(path).map_err(|source| JudgeError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        PanelConfig::from_toml(path, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<JudgeConfig, JudgeError> {
        JudgeConfig::from_toml(Path::new("judges/x.toml"), text)
    }

    #[test]
    fn minimal_file_gets_defaults_and_file_stem_name() {
        let c = load("family = \"GPT\"\nbase_url = \"http://127.0.0.1:8080/v1/\"\nmodel = \"m\"\n")
            .unwrap();
        assert_eq!(c.name, "x");
        assert_eq!(c.family, "gpt");
        assert_eq!(c.endpoint.base_url, "http://127.0.0.1:8080/v1");
        assert_eq!(c.endpoint.max_retries, 3);
        assert_eq!(c.endpoint.response_format, ResponseFormat::JsonObject);
    }

    #[test]
    fn errors_name_the_file_and_field() {
        let e = load("family = \"gpt\"\nbase_url = \"ftp://x\"\nmodel = \"m\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("judges/x.toml: base_url"), "{e}");
        let e = load("family = \"gpt\"\nbase_url = \"http://x\"\nmodel = \"m\"\ntemprature = 1\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("judges/x.toml") && e.contains("temprature"),
            "{e}"
        );
        let e = load("family = \"gpt\"\nmodel = \"m\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("base_url"), "{e}");
    }

    #[test]
    fn panel_file_needs_two_judges_and_known_policy() {
        let p = Path::new("judges/panel.toml");
        let c =
            PanelConfig::from_toml(p, "judges = [\"a\", \"b\"]\ntie_breaker = \"c\"\n").unwrap();
        assert_eq!(
            (
                c.first.as_str(),
                c.second.as_str(),
                c.tie_breaker.as_deref()
            ),
            ("a", "b", Some("c"))
        );
        let e = PanelConfig::from_toml(p, "judges = [\"a\"]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("exactly two"), "{e}");
        let e = PanelConfig::from_toml(p, "judges = [\"a\", \"b\"]\npolicy = \"vibes\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("vibes"), "{e}");
    }

    #[test]
    fn missing_api_key_is_reported_by_variable_name() {
        let c = load(
            "family = \"gpt\"\nbase_url = \"http://x\"\nmodel = \"m\"\napi_key_env = \"DROIDMCP_TEST_SURELY_UNSET_KEY\"\n",
        )
        .unwrap();
        let e = c.endpoint.api_key().unwrap_err().to_string();
        assert!(e.contains("DROIDMCP_TEST_SURELY_UNSET_KEY"), "{e}");
    }
}

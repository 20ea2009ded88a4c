//! Which sampling parameters a model takes. OpenAI's reasoning models (the o-series and the gpt-5
//! family) answer 400 to `max_tokens` ("Use 'max_completion_tokens' instead") and to any
//! `temperature` but the default; every other OpenAI-compatible server (llama.cpp, vLLM, Ollama,
//! Gemini's and Anthropic's OpenAI-compatible endpoints) takes `max_tokens` and `temperature`.

use serde_json::{json, Value};

/// How hard a reasoning model thinks before it answers (`reasoning_effort`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    None,
    Minimal,
    Low,
    Medium,
    High,
    XHigh,
}

impl Effort {
    pub const NAMES: &'static str = "none, minimal, low, medium, high, xhigh";

    pub fn parse(s: &str) -> Option<Effort> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Some(Effort::None),
            "minimal" => Some(Effort::Minimal),
            "low" => Some(Effort::Low),
            "medium" => Some(Effort::Medium),
            "high" => Some(Effort::High),
            "xhigh" => Some(Effort::XHigh),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Effort::None => "none",
            Effort::Minimal => "minimal",
            Effort::Low => "low",
            Effort::Medium => "medium",
            Effort::High => "high",
            Effort::XHigh => "xhigh",
        }
    }
}

/// The parameters a request carries besides the messages and the reply format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `max_tokens` and `temperature`.
    Chat,
    /// `max_completion_tokens`, no `temperature`, and `reasoning_effort` when one is set.
    Reasoning { effort: Option<Effort> },
}

/// What a reasoning model may spend on its hidden reasoning on top of the visible reply's budget:
/// `max_completion_tokens` counts both, and a budget sized for the reply alone ends most replies
/// empty (`finish_reason: length`) before a word is written. Only tokens used are billed.
pub const REASONING_ALLOWANCE: u32 = 16_384;

impl Dialect {
    /// The dialect a model's name implies: OpenAI's o-series (`o1`, `o3-mini`, `o4-mini`, …) and
    /// gpt-5 family (`gpt-5`, `gpt-5-mini`, `gpt-5.1`, …) are reasoning models, also behind a
    /// router's provider prefix (`openai/o4-mini`); every other name is a chat model. A deployment
    /// whose name says nothing (an Azure deployment, a local reasoning model) is marked by its
    /// caller ([`super::ChatClient::with_reasoning`]).
    pub fn of_model(model: &str) -> Dialect {
        let name = model.rsplit('/').next().unwrap_or(model).trim();
        let name = name.to_ascii_lowercase();
        let o_series = ["o1", "o3", "o4"].iter().any(|p| {
            name.strip_prefix(p)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
        });
        if o_series || name.starts_with("gpt-5") {
            Dialect::Reasoning { effort: None }
        } else {
            Dialect::Chat
        }
    }

    /// Whether `model` is one of OpenAI's first reasoning models, o1-mini and o1-preview (and
    /// their dated snapshots), which take less than every later model: they answer 400 to a
    /// `system` (or `developer`) message ("'messages[0].role' does not support 'system' with this
    /// model"), to any `response_format` and to `reasoning_effort`.
    pub fn is_first_o1(model: &str) -> bool {
        let name = model.rsplit('/').next().unwrap_or(model).trim();
        let name = name.to_ascii_lowercase();
        ["o1-mini", "o1-preview"].iter().any(|p| {
            name.strip_prefix(p)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
        })
    }

    /// Puts this dialect's parameters into a request `body`.
    pub fn apply(self, body: &mut Value, max_tokens: u32, temperature: f32) {
        match self {
            Dialect::Chat => {
                body["max_tokens"] = json!(max_tokens);
                body["temperature"] = json!(temperature);
            }
            Dialect::Reasoning { effort } => {
                body["max_completion_tokens"] =
                    json!(max_tokens.saturating_add(REASONING_ALLOWANCE));
                if let Some(e) = effort {
                    body["reasoning_effort"] = json!(e.name());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_o1_mini_and_o1_preview_are_the_first_o1_models() {
        for m in [
            "o1-mini",
            "o1-mini-2024-09-12",
            "openai/o1-preview",
            "O1-Preview-2024-09-12",
        ] {
            assert!(Dialect::is_first_o1(m), "{m}");
        }
        for m in [
            "o1",
            "o1-2024-12-17",
            "o3-mini",
            "o4-mini",
            "gpt-5-mini",
            "gpt-4o",
            "o1-minimal",
        ] {
            assert!(!Dialect::is_first_o1(m), "{m}");
        }
    }

    #[test]
    fn reasoning_models_are_told_apart_by_name() {
        let reasoning = [
            "o1",
            "o1-mini",
            "o3-mini",
            "o3",
            "o4-mini",
            "o4-mini-2025-04-16",
            "gpt-5",
            "gpt-5-mini",
            "gpt-5.1",
            "openai/o4-mini",
            "GPT-5-nano",
        ];
        for m in reasoning {
            assert_eq!(
                Dialect::of_model(m),
                Dialect::Reasoning { effort: None },
                "{m}"
            );
        }
        let chat = [
            "gpt-4o-mini",
            "gpt-4.1",
            "o10-custom",
            "omni",
            "llama-3.1-8b",
            "gemini-2.5-flash",
            "claude-sonnet-4",
            "qwen2.5-vl",
            "scripted",
        ];
        for m in chat {
            assert_eq!(Dialect::of_model(m), Dialect::Chat, "{m}");
        }
    }

    #[test]
    fn each_dialect_sends_only_what_its_models_take() {
        let mut chat = json!({});
        Dialect::Chat.apply(&mut chat, 512, 0.0);
        assert_eq!(chat, json!({"max_tokens": 512, "temperature": 0.0}));
        let mut reasoning = json!({});
        Dialect::Reasoning {
            effort: Some(Effort::Low),
        }
        .apply(&mut reasoning, 512, 0.0);
        assert_eq!(
            reasoning,
            json!({"max_completion_tokens": 512 + REASONING_ALLOWANCE, "reasoning_effort": "low"})
        );
    }
}

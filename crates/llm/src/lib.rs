//! Talking to OpenAI-compatible chat endpoints, for whoever needs a model: the LLM judges
//! and the reference agents (the root crate's `judge` and `agent`, which stand above it).
//!
//! Brief overview: an [`Endpoint`] says where and how to call (base URL, model, key variable, timeout,
//! retries, concurrency, prices, how the server spells structured output); [`client::ChatClient`]
//! sends [`client::Message`]s to it with retries and backoff, under a per-endpoint concurrency limit
//! ([`client::EndpointLimits`]) and a spend cap shared by a run ([`client::SpendCap`]), and returns a
//! [`client::Completion`] with usage and cost. Errors are [`LlmError`]s naming the caller.

pub mod client;
mod dialect;

use std::time::Duration;

pub use client::{ChatClient, Completion, EndpointLimits, Message, Part, Schema, SpendCap};
pub use dialect::{Dialect, Effort};

/// Why a call to a model failed.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("{caller}: environment variable {var} (its API key) is not set")]
    MissingKey { caller: String, var: String },
    #[error("{caller}: {message}")]
    Endpoint { caller: String, message: String },
    /// The endpoint refused the request itself (a 4xx other than 408 and 429): the same request
    /// would be refused again, so it is not retried. `message` is the endpoint's own words.
    #[error("{caller}: the endpoint refused the request (HTTP {status}): {message}")]
    Refused {
        caller: String,
        status: u16,
        message: String,
    },
    #[error("{caller}: spend cap of ${cap:.4} reached (spent ${spent:.4})")]
    SpendCap {
        caller: String,
        cap: f64,
        spent: f64,
    },
}

/// How an endpoint is asked for structured output; servers differ in what they accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseFormat {
    /// `{"type": "json_object"}` (OpenAI, Gemini, llama.cpp, vLLM, Ollama).
    JsonObject,
    /// `{"type": "json_schema", "json_schema": {…}}` with the caller's schema (OpenAI structured
    /// outputs, vLLM, Ollama, llama.cpp's own server): constrained decoding keeps even small models in
    /// shape.
    JsonSchema,
    /// `{"type": "json_object", "schema": {…}}`: the same constraint as llama-cpp-python's server spells it.
    JsonObjectSchema,
    /// Nothing; the prompt alone asks for JSON.
    None,
}

impl ResponseFormat {
    /// The spelling config files and command lines use.
    pub fn parse(s: &str) -> Option<ResponseFormat> {
        match s {
            "json_object" => Some(ResponseFormat::JsonObject),
            "json_schema" => Some(ResponseFormat::JsonSchema),
            "json_object_schema" => Some(ResponseFormat::JsonObjectSchema),
            "none" => Some(ResponseFormat::None),
            _ => None,
        }
    }

    pub const NAMES: &'static str = "json_object, json_schema, json_object_schema, none";
}

/// One model behind one OpenAI-compatible endpoint, and how hard a run may push it.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// Who calls, for error messages (`judge gpt-judge`, `agent t3a`).
    pub name: String,
    /// Base URL up to and including `/v1` (the client appends `/chat/completions`).
    pub base_url: String,
    pub model: String,
    /// The environment variable holding the API key; `None` when the endpoint needs none.
    pub api_key_env: Option<String>,
    pub temperature: f32,
    pub timeout: Duration,
    pub max_tokens: u32,
    pub response_format: ResponseFormat,
    pub max_retries: u32,
    pub max_concurrency: usize,
    pub usd_per_million_input: f64,
    pub usd_per_million_output: f64,
}

impl Endpoint {
    /// An endpoint with the defaults a run uses unless told otherwise (no key, temperature 0, 60 s,
    /// 3 retries, 4 calls at once, free).
    pub fn new(name: impl Into<String>, base_url: &str, model: impl Into<String>) -> Endpoint {
        Endpoint {
            name: name.into(),
            base_url: base_url.trim_end_matches('/').to_string(),
            model: model.into(),
            api_key_env: None,
            temperature: 0.0,
            timeout: Duration::from_secs(60),
            max_tokens: 512,
            response_format: ResponseFormat::JsonObject,
            max_retries: 3,
            max_concurrency: 4,
            usd_per_million_input: 0.0,
            usd_per_million_output: 0.0,
        }
    }

    /// The API key from the configured environment variable (`None` when the endpoint needs none).
    pub fn api_key(&self) -> Result<Option<String>, LlmError> {
        match &self.api_key_env {
            None => Ok(None),
            Some(var) => match std::env::var(var) {
                Ok(v) if !v.is_empty() => Ok(Some(v)),
                _ => Err(LlmError::MissingKey {
                    caller: self.name.clone(),
                    var: var.clone(),
                }),
            },
        }
    }

    /// Estimated cost in USD of one call.
    pub fn cost(&self, prompt_tokens: u64, completion_tokens: u64) -> f64 {
        (prompt_tokens as f64 * self.usd_per_million_input
            + completion_tokens as f64 * self.usd_per_million_output)
            / 1_000_000.0
    }
}

/// Finds the first balanced `{…}` in a model's reply (skipping braces inside JSON strings), so a
/// JSON object wrapped in a code fence or followed by prose is still read.
pub fn extract_json_object(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut start = None;
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' if start.is_some() => in_string = true,
            b'{' => {
                if start.is_none() {
                    start = Some(i);
                }
                depth += 1;
            }
            b'}' if start.is_some() => {
                depth -= 1;
                if depth == 0 {
                    return start.map(|s| &text[s..=i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Fills `{{name}}` slots; unknown slots are left as written so a typo shows in the prompt.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) => {
                let name = after[..end].trim();
                match values.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(v),
                    None => out.push_str(&rest[start..start + 2 + end + 2]),
                }
                rest = &after[end + 2..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_known_slots_and_keeps_unknown_ones() {
        assert_eq!(
            fill(
                "a {{goal}} b {{ x }} {{nope}} {{",
                &[("goal", "G"), ("x", "X")]
            ),
            "a G b X {{nope}} {{"
        );
    }
}

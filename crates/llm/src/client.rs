//! An OpenAI-compatible chat-completions client (OpenAI, vLLM, Ollama, llama.cpp's server, LM Studio,
//! OpenRouter, …) with the robustness a judge or agent run needs: a timeout per request, bounded retries
//! with exponential backoff (honouring `Retry-After`) on 429, 5xx and transport errors, a concurrency
//! limit per endpoint, and a spend cap shared by every caller of a run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use super::{Dialect, Effort, Endpoint, LlmError, ResponseFormat};

/// One part of a message.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text(String),
    /// A PNG image, sent as a `data:image/png;base64,…` URL.
    Png(Vec<u8>),
    /// A JPEG image, sent as a `data:image/jpeg;base64,…` URL.
    Jpeg(Vec<u8>),
}

/// A chat message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub role: &'static str,
    pub parts: Vec<Part>,
}

impl Message {
    pub fn system(text: impl Into<String>) -> Message {
        Message {
            role: "system",
            parts: vec![Part::Text(text.into())],
        }
    }

    pub fn user(parts: Vec<Part>) -> Message {
        Message {
            role: "user",
            parts,
        }
    }

    pub fn assistant(text: impl Into<String>) -> Message {
        Message {
            role: "assistant",
            parts: vec![Part::Text(text.into())],
        }
    }

    fn to_json(&self) -> Value {
        // Plain text stays a string: some local servers reject the array form for text-only messages.
        if let [Part::Text(text)] = self.parts.as_slice() {
            return json!({ "role": self.role, "content": text });
        }
        let content: Vec<Value> = self
            .parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => json!({ "type": "text", "text": t }),
                Part::Png(bytes) => image_url("png", bytes),
                Part::Jpeg(bytes) => image_url("jpeg", bytes),
            })
            .collect();
        json!({ "role": self.role, "content": content })
    }
}

fn image_url(kind: &str, bytes: &[u8]) -> Value {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    json!({ "type": "image_url", "image_url": { "url": format!("data:image/{kind};base64,{data}") } })
}

/// A JSON schema a reply must follow, sent in the way the endpoint's [`ResponseFormat`] spells it.
#[derive(Debug, Clone, Copy)]
pub struct Schema<'a> {
    pub name: &'a str,
    pub schema: &'a Value,
}

/// What one completed call returned.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Completion {
    /// The assistant's text (empty on a refusal without content).
    pub text: String,
    /// The `refusal` field some APIs set instead of content.
    pub refusal: Option<String>,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub latency: Duration,
    /// Attempts made (1 when the first succeeded).
    pub attempts: u32,
    pub cost_usd: f64,
}

/// A budget in USD shared by all callers of a run (judges, agents); calls stop once it is spent.
#[derive(Debug, Default)]
pub struct SpendCap {
    cap: Option<f64>,
    spent: Mutex<f64>,
}

impl SpendCap {
    pub fn new(cap_usd: Option<f64>) -> SpendCap {
        SpendCap {
            cap: cap_usd,
            spent: Mutex::new(0.0),
        }
    }

    pub fn spent(&self) -> f64 {
        *self
            .spent
            .lock()
            .expect("spend lock is never poisoned: no panics while held")
    }

    fn check(&self, caller: &str) -> Result<(), LlmError> {
        let spent = self.spent();
        match self.cap {
            Some(cap) if spent >= cap => Err(LlmError::SpendCap {
                caller: caller.to_string(),
                cap,
                spent,
            }),
            _ => Ok(()),
        }
    }

    fn add(&self, usd: f64) {
        *self
            .spent
            .lock()
            .expect("spend lock is never poisoned: no panics while held") += usd;
    }
}

/// Concurrency limits keyed by endpoint base URL, shared by the callers that use the same server.
#[derive(Debug, Default, Clone)]
pub struct EndpointLimits {
    limits: Arc<Mutex<HashMap<String, Arc<Semaphore>>>>,
}

impl EndpointLimits {
    fn for_endpoint(&self, base_url: &str, permits: usize) -> Arc<Semaphore> {
        let mut map = self
            .limits
            .lock()
            .expect("limits lock is never poisoned: no panics while held");
        map.entry(base_url.to_string())
            .or_insert_with(|| Arc::new(Semaphore::new(permits)))
            .clone()
    }
}

/// A chat client for one endpoint and model (one judge, one agent).
#[derive(Debug, Clone)]
pub struct ChatClient {
    config: Endpoint,
    http: reqwest::Client,
    api_key: Option<String>,
    permits: Arc<Semaphore>,
    spend: Arc<SpendCap>,
    /// First backoff delay; doubles per retry.
    backoff: Duration,
    /// Which sampling parameters the model takes: from its name unless the caller says.
    dialect: Dialect,
}

/// Longest we wait between retries, whatever `Retry-After` says.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

impl ChatClient {
    pub fn new(
        config: Endpoint,
        limits: &EndpointLimits,
        spend: Arc<SpendCap>,
    ) -> Result<ChatClient, LlmError> {
        let api_key = config.api_key()?;
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|e| LlmError::Endpoint {
                caller: config.name.clone(),
                message: e.to_string(),
            })?;
        let permits = limits.for_endpoint(&config.base_url, config.max_concurrency);
        let dialect = Dialect::of_model(&config.model);
        Ok(ChatClient {
            dialect,
            config,
            http,
            api_key,
            permits,
            spend,
            backoff: Duration::from_millis(500),
        })
    }

    /// Shortens the backoff (tests use this to keep retries fast).
    pub fn with_backoff(mut self, first: Duration) -> ChatClient {
        self.backoff = first;
        self
    }

    /// Treats the model as a reasoning model whatever its name (a deployment or local model
    /// whose name does not say), with `effort` as its `reasoning_effort` when given.
    pub fn with_reasoning(mut self, effort: Option<Effort>) -> ChatClient {
        self.dialect = Dialect::Reasoning { effort };
        self
    }

    pub fn endpoint(&self) -> &Endpoint {
        &self.config
    }

    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn error(&self, message: impl Into<String>) -> LlmError {
        LlmError::Endpoint {
            caller: self.config.name.clone(),
            message: message.into(),
        }
    }

    /// The request for `messages`; with `schema`, the reply is constrained to it as the endpoint's
    /// [`ResponseFormat`] spells that (a format without a schema slot only asks for a JSON object).
    fn request_body(&self, messages: &[Message], reply: Reply<'_>) -> Value {
        // o1-mini and o1-preview refuse system messages, a reply format and an effort: they read
        // the instructions as the user's words, and the prompts' own "reply in JSON" asks for it.
        let first_o1 = Dialect::is_first_o1(&self.config.model);
        let messages: Vec<Value> = messages
            .iter()
            .map(|m| {
                let mut json = m.to_json();
                if m.role == "system" && first_o1 {
                    json["role"] = json!("user");
                }
                json
            })
            .collect();
        let mut body = json!({ "model": self.config.model, "messages": messages });
        let dialect = match self.dialect {
            Dialect::Reasoning { .. } if first_o1 => Dialect::Reasoning { effort: None },
            d => d,
        };
        dialect.apply(&mut body, self.config.max_tokens, self.config.temperature);
        let schema = match reply {
            Reply::Json(schema) if !first_o1 => schema,
            _ => return body,
        };
        let format = match (self.config.response_format, schema) {
            (ResponseFormat::None, _) => None,
            (ResponseFormat::JsonSchema, Some(s)) => Some(json!({
                "type": "json_schema",
                "json_schema": { "name": s.name, "strict": true, "schema": s.schema }
            })),
            (ResponseFormat::JsonObjectSchema, Some(s)) => {
                Some(json!({ "type": "json_object", "schema": s.schema }))
            }
            _ => Some(json!({ "type": "json_object" })),
        };
        if let Some(format) = format {
            body["response_format"] = format;
        }
        body
    }

    /// Sends one chat request, retrying transient failures; the reply is asked for as JSON in the
    /// endpoint's [`ResponseFormat`], constrained to `schema` where the endpoint can.
    pub async fn complete(
        &self,
        messages: &[Message],
        schema: Option<Schema<'_>>,
    ) -> Result<Completion, LlmError> {
        self.send(messages, Reply::Json(schema)).await
    }

    /// Sends one chat request whose reply is free text (no `response_format`, whatever the
    /// endpoint's): for prompts that ask for their own text format, which a JSON mode would
    /// contradict.
    pub async fn complete_text(&self, messages: &[Message]) -> Result<Completion, LlmError> {
        self.send(messages, Reply::Text).await
    }

    async fn send(&self, messages: &[Message], reply: Reply<'_>) -> Result<Completion, LlmError> {
        self.spend.check(&self.config.name)?;
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| self.error("endpoint limiter closed"))?;
        let url = format!("{}/chat/completions", self.config.base_url);
        let body = self.request_body(messages, reply);
        let started = Instant::now();
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let mut request = self.http.post(&url).json(&body);
            if let Some(key) = &self.api_key {
                request = request.bearer_auth(key);
            }
            let (retryable, retry_after, message) = match request.send().await {
                Err(e) => (true, None, format!("request failed: {}", describe(&e))),
                Ok(response) => {
                    let status = response.status();
                    let retry_after = response
                        .headers()
                        .get(reqwest::header::RETRY_AFTER)
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<f64>().ok())
                        .map(Duration::from_secs_f64);
                    let text = response.text().await.unwrap_or_default();
                    if status.is_success() {
                        let mut completion = self.parse_completion(&text)?;
                        completion.latency = started.elapsed();
                        completion.attempts = attempt;
                        completion.cost_usd = self
                            .config
                            .cost(completion.prompt_tokens, completion.completion_tokens);
                        self.spend.add(completion.cost_usd);
                        return Ok(completion);
                    }
                    let code = status.as_u16();
                    if status.is_client_error() && code != 408 && code != 429 {
                        return Err(LlmError::Refused {
                            caller: self.config.name.clone(),
                            status: code,
                            message: error_message(&text),
                        });
                    }
                    let retryable = code == 408 || code == 429 || status.is_server_error();
                    (
                        retryable,
                        retry_after,
                        format!("HTTP {status}: {}", truncate(&text, 300)),
                    )
                }
            };
            if !retryable || attempt > self.config.max_retries {
                let tries = if attempt > 1 {
                    format!(" (after {attempt} attempts)")
                } else {
                    String::new()
                };
                return Err(self.error(format!("{message}{tries}")));
            }
            let exponential = self.backoff.saturating_mul(1 << (attempt - 1).min(10));
            tokio::time::sleep(retry_after.unwrap_or(exponential).min(MAX_BACKOFF)).await;
        }
    }

    fn parse_completion(&self, body: &str) -> Result<Completion, LlmError> {
        let v: Value = serde_json::from_str(body).map_err(|e| {
            self.error(format!(
                "response is not JSON ({e}): {}",
                truncate(body, 200)
            ))
        })?;
        let message = v.pointer("/choices/0/message").ok_or_else(|| {
            self.error(format!(
                "response has no choices[0].message: {}",
                truncate(body, 200)
            ))
        })?;
        let text = match message.get("content") {
            Some(Value::String(s)) => s.clone(),
            // Some gateways return content as an array of parts.
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
            _ => String::new(),
        };
        let refusal = message
            .get("refusal")
            .and_then(Value::as_str)
            .map(str::to_string);
        let usage = |k: &str| {
            v.pointer(&format!("/usage/{k}"))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        Ok(Completion {
            text,
            refusal,
            prompt_tokens: usage("prompt_tokens"),
            completion_tokens: usage("completion_tokens"),
            ..Completion::default()
        })
    }
}

/// How a request asks for its reply.
#[derive(Debug, Clone, Copy)]
enum Reply<'a> {
    /// JSON in the endpoint's format, constrained to the schema where it can be.
    Json(Option<Schema<'a>>),
    /// Whatever the prompt asks for; no `response_format`.
    Text,
}

/// The endpoint's own words from an error body: OpenAI's `{"error": {"message": …, "param": …}}`
/// (also vLLM's, llama.cpp's and the gateways'), `{"error": "…"}` (Ollama), `{"message": …}`, else
/// the body itself, cut short.
fn error_message(body: &str) -> String {
    let Ok(v) = serde_json::from_str::<Value>(body) else {
        return truncate(body.trim(), 500);
    };
    let message = v
        .pointer("/error/message")
        .or_else(|| v.get("error").filter(|e| e.is_string()))
        .or_else(|| v.get("message"))
        .or_else(|| v.get("detail"))
        .and_then(Value::as_str);
    match message {
        Some(m) => {
            let param = v.pointer("/error/param").and_then(Value::as_str);
            match param {
                Some(p) if !m.contains(p) => format!("{} (param {p})", truncate(m, 500)),
                _ => truncate(m, 500),
            }
        }
        None => truncate(body.trim(), 500),
    }
}

fn describe(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "timed out".into()
    } else if e.is_connect() {
        format!("cannot connect: {e}")
    } else {
        e.to_string()
    }
}

pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(model: &str) -> ChatClient {
        let endpoint = Endpoint::new("agent test", "http://127.0.0.1:9/v1", model);
        ChatClient::new(
            endpoint,
            &EndpointLimits::default(),
            Arc::new(SpendCap::new(None)),
        )
        .unwrap()
    }

    #[test]
    fn a_reasoning_model_gets_max_completion_tokens_and_no_temperature() {
        let m = [Message::user(vec![Part::Text("Reply in JSON.".into())])];
        let body = client("o4-mini").request_body(&m, Reply::Json(None));
        assert!(body.get("max_tokens").is_none(), "{body}");
        assert!(body.get("temperature").is_none(), "{body}");
        assert!(body["max_completion_tokens"].as_u64().unwrap() > 512);
        let body = client("my-deployment")
            .with_reasoning(Some(Effort::High))
            .request_body(&m, Reply::Json(None));
        assert_eq!(body["reasoning_effort"], "high");
        assert!(body.get("temperature").is_none(), "{body}");
        // Every other model keeps the parameters llama.cpp, vLLM and Ollama read.
        let body = client("qwen2.5-7b").request_body(&m, Reply::Json(None));
        assert_eq!(
            (&body["max_tokens"], &body["temperature"]),
            (&json!(512), &json!(0.0))
        );
        assert_eq!(body["response_format"], json!({"type": "json_object"}));
        // A free-text request carries no response format whatever the endpoint's.
        let body = client("qwen2.5-7b").request_body(&m, Reply::Text);
        assert!(body.get("response_format").is_none(), "{body}");
    }

    #[test]
    fn an_error_body_gives_the_endpoints_own_message() {
        let openai = r#"{"error": {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "type": "invalid_request_error", "param": "max_tokens", "code": "unsupported_parameter"}}"#;
        assert_eq!(
            error_message(openai),
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."
        );
        let param = r#"{"error": {"message": "Only the default (1) value is supported.", "param": "temperature"}}"#;
        assert_eq!(
            error_message(param),
            "Only the default (1) value is supported. (param temperature)"
        );
        assert_eq!(
            error_message(r#"{"error": "model 'x' not found"}"#),
            "model 'x' not found"
        );
        assert_eq!(error_message("  Bad Request\n"), "Bad Request");
    }
}

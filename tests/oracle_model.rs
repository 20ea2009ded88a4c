//! A scripted OpenAI-compatible chat model for the runner's tests and benchmark (the only stand-in:
//! a paid API). The oracle policy answers each turn with the task's golden move, read from the goal
//! and the number of turns in the agent's history.
//!
//! It refuses what OpenAI's API refuses, with OpenAI's 400 and error body: for its reasoning models
//! (o-series, gpt-5) `max_tokens` and a `temperature` other than 1, and for every model a
//! `response_format` of `json_object` when no message holds the word "json". It keeps every request
//! and every refusal for the tests to read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use axum::Router;
use droidmcp::agent::{ReferenceAgent, Style};
use droidmcp::llm::{ChatClient, Endpoint, EndpointLimits, SpendCap};
use droidmcp::run::plan;
use droidmcp::task::Action;
use serde_json::{json, Value};

pub type Policy = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// An OpenAI-compatible chat endpoint whose replies come from `policy` (given the user prompt).
pub struct Model {
    pub base: String,
    pub calls: Arc<Mutex<u32>>,
    /// Every request body, in arrival order.
    pub requests: Arc<Mutex<Vec<Value>>>,
    /// The error message of every request refused as OpenAI would.
    pub refused: Arc<Mutex<Vec<String>>>,
}

#[derive(Clone)]
struct Served {
    policy: Policy,
    calls: Arc<Mutex<u32>>,
    requests: Arc<Mutex<Vec<Value>>>,
    refused: Arc<Mutex<Vec<String>>>,
    delay: Duration,
}

/// Whether OpenAI serves `model` as a reasoning model (o1, o3-mini, o4-mini, gpt-5, gpt-5-mini…).
fn openai_reasoning(model: &str) -> bool {
    regex::Regex::new(r"^(?:[\w.-]+/)?(?:o\d+(?:-[\w.-]*)?|gpt-5[\w.-]*)$")
        .unwrap()
        .is_match(&model.to_ascii_lowercase())
}

/// OpenAI's refusal of `request`, as (param, message), if it refuses it.
fn openai_refusal(request: &Value) -> Option<(&'static str, String)> {
    let model = request["model"].as_str().unwrap_or_default();
    // o1-mini and o1-preview take less than every later model.
    if regex::Regex::new(r"^(?:[\w.-]+/)?o1-(?:mini|preview)(?:-[\w.-]*)?$")
        .unwrap()
        .is_match(&model.to_ascii_lowercase())
    {
        let messages = request["messages"].as_array().cloned().unwrap_or_default();
        if let Some(i) = messages
            .iter()
            .position(|m| m["role"] == "system" || m["role"] == "developer")
        {
            let role = messages[i]["role"].as_str().unwrap_or_default().to_string();
            return Some(("messages", format!("Unsupported value: 'messages[{i}].role' does not support '{role}' with this model.")));
        }
        if let Some(kind) = request["response_format"]["type"].as_str() {
            return Some(("response_format", format!("Invalid parameter: 'response_format' of type '{kind}' is not supported with this model.")));
        }
        if request.get("reasoning_effort").is_some() {
            return Some((
                "reasoning_effort",
                "Unsupported parameter: 'reasoning_effort' is not supported with this model."
                    .into(),
            ));
        }
    }
    if openai_reasoning(model) {
        if request.get("max_tokens").is_some() {
            return Some(("max_tokens", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.".into()));
        }
        if let Some(t) = request
            .get("temperature")
            .filter(|t| t.as_f64() != Some(1.0))
        {
            return Some(("temperature", format!("Unsupported value: 'temperature' does not support {t} with this model. Only the default (1) value is supported.")));
        }
        if let Some(e) = request.get("reasoning_effort") {
            if !["minimal", "low", "medium", "high"].contains(&e.as_str().unwrap_or_default()) {
                return Some(("reasoning_effort", format!("Unsupported value: 'reasoning_effort' does not support {e} with this model.")));
            }
        }
    }
    let json_mode = request["response_format"]["type"] == "json_object";
    let says_json = request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|m| message_text(m).to_ascii_lowercase().contains("json"));
    if json_mode && !says_json {
        return Some(("messages", "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.".into()));
    }
    None
}

async fn complete(State(served): State<Served>, body: String) -> (StatusCode, String) {
    *served.calls.lock().unwrap() += 1;
    let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    served.requests.lock().unwrap().push(request.clone());
    if let Some((param, message)) = openai_refusal(&request) {
        served.refused.lock().unwrap().push(message.clone());
        let error = json!({"error": {"message": message, "type": "invalid_request_error",
            "param": param, "code": "unsupported_parameter"}});
        return (StatusCode::BAD_REQUEST, error.to_string());
    }
    let prompt: String = request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "user")
        .map(message_text)
        .collect::<Vec<_>>()
        .join("\n");
    tokio::time::sleep(served.delay).await;
    let content = (served.policy)(&prompt);
    let reply = json!({"id": "x", "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}});
    (StatusCode::OK, reply.to_string())
}

/// A chat message's text parts, joined.
pub fn message_text(message: &Value) -> String {
    match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

impl Model {
    pub async fn start(policy: Policy, delay: Duration) -> Model {
        let served = Served {
            policy,
            calls: Arc::new(Mutex::new(0)),
            requests: Arc::default(),
            refused: Arc::default(),
            delay,
        };
        let model = |base| Model {
            base,
            calls: served.calls.clone(),
            requests: served.requests.clone(),
            refused: served.refused.clone(),
        };
        let app = Router::new()
            .route("/v1/chat/completions", post(complete))
            .with_state(served.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        model(base)
    }

    pub fn agent(&self, style: Style) -> Arc<ReferenceAgent> {
        self.agent_of(style, "scripted")
    }

    /// A reference agent of `style` asking this endpoint for `model`.
    pub fn agent_of(&self, style: Style, model: &str) -> Arc<ReferenceAgent> {
        let endpoint = Endpoint::new("agent test", &self.base, model);
        let client = ChatClient::new(
            endpoint,
            &EndpointLimits::default(),
            Arc::new(SpendCap::new(None)),
        )
        .unwrap()
        .with_backoff(Duration::from_millis(5));
        Arc::new(ReferenceAgent::new(style, Arc::new(client)))
    }
}

/// The golden move as the reference agents' JSON action.
fn agent_json(a: &Action) -> Value {
    match a {
        Action::Open(app) => json!({"action_type": "open_app", "app_name": app}),
        Action::Tap(s) => json!({"action_type": "click", "selector": s.to_string()}),
        Action::TapAt { selector, fx, fy } => {
            json!({"action_type": "click", "selector": selector.to_string(), "fx": fx, "fy": fy})
        }
        Action::LongPress(s) => {
            json!({"action_type": "long_press", "selector": s.to_string(), "duration_ms": 1000})
        }
        Action::Type { text, into, submit } => {
            let mut v = json!({"action_type": "input_text", "text": text, "submit": submit});
            if let Some(s) = into {
                v["selector"] = json!(s.to_string());
            }
            v
        }
        Action::Key(k) => json!({"action_type": "press_key", "key": k}),
        Action::Swipe { direction, .. } => json!({"action_type": "swipe", "direction": direction}),
        Action::ScrollTo {
            selector,
            direction,
        } => {
            json!({"action_type": "scroll", "direction": direction, "until": selector.to_string()})
        }
        Action::Wait(ms) => json!({"action_type": "wait", "seconds": *ms as f64 / 1000.0}),
        Action::Answer(text) => json!({"action_type": "answer", "text": text}),
        Action::Finish => json!({"action_type": "status", "goal_status": "complete"}),
    }
}

fn goal_of(prompt: &str) -> Option<&str> {
    prompt.lines().find_map(|l| l.strip_prefix("Goal: "))
}

/// Turns the agent has taken: the numbered lines of its history.
fn turns_so_far(prompt: &str) -> usize {
    let Some(start) = prompt.find("What you did so far:\n") else {
        return 0;
    };
    prompt[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count()
}

/// The oracle: each goal's golden moves, played one per turn, then `complete`.
pub fn oracle(instances: &[plan::Instance]) -> Policy {
    let mut moves: HashMap<String, Vec<Value>> = HashMap::new();
    for i in instances {
        let inst = i.task.instantiate(i.seed, &Default::default()).unwrap();
        // A prompt's `Goal:` line is read up to its end: a goal of several lines (a note's new
        // text) is known by its first.
        moves.insert(
            inst.goal.lines().next().unwrap_or_default().to_string(),
            inst.golden.iter().map(agent_json).collect(),
        );
    }
    Arc::new(move |prompt: &str| {
        let done = json!({"action_type": "status", "goal_status": "complete"});
        let Some(goal) = goal_of(prompt) else {
            return done.to_string();
        };
        let golden = moves
            .get(goal)
            .unwrap_or_else(|| panic!("oracle: unknown goal {goal:?}"));
        golden
            .get(turns_so_far(prompt))
            .unwrap_or(&done)
            .to_string()
    })
}

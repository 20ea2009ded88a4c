//! A scripted OpenAI-compatible chat model for the runner's tests and benchmark (the only stand-in:
//! a paid API). The oracle policy answers each turn with the task's golden move, read from the goal
//! and the number of turns in the agent's history.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
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
}

async fn complete(
    State((policy, calls, delay)): State<(Policy, Arc<Mutex<u32>>, Duration)>,
    body: String,
) -> String {
    *calls.lock().unwrap() += 1;
    let request: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let prompt: String = request["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "user")
        .map(message_text)
        .collect::<Vec<_>>()
        .join("\n");
    tokio::time::sleep(delay).await;
    let content = policy(&prompt);
    json!({"id": "x", "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}})
    .to_string()
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
        let calls = Arc::new(Mutex::new(0));
        let app = Router::new()
            .route("/v1/chat/completions", post(complete))
            .with_state((policy, calls.clone(), delay));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Model { base, calls }
    }

    pub fn agent(&self, style: Style) -> Arc<ReferenceAgent> {
        let endpoint = Endpoint::new("agent test", &self.base, "scripted");
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
        Action::Swipe(d) => json!({"action_type": "swipe", "direction": d}),
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
        moves.insert(
            inst.goal.clone(),
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

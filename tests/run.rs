//! `droidmcp run`: agents through the suite on several phones, against a scripted OpenAI-compatible
//! model (the only stand-in: a paid API). The oracle model answers each turn with the task's golden
//! move, read from the goal and the number of turns in the agent's history; other scripts finish at
//! once, never finish, or are a crashing agent process.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::routing::post;
use axum::Router;
use droidmcp::agent::{ReferenceAgent, Style};
use droidmcp::llm::{ChatClient, Endpoint, EndpointLimits, SpendCap};
use droidmcp::run::plan::{self, Selection};
use droidmcp::run::report::RunReport;
use droidmcp::run::{AgentSpec, RunSpec};
use droidmcp::store::Store;
use droidmcp::task::{Action, Catalog, Task};
use serde_json::{json, Value};

type Policy = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// An OpenAI-compatible chat endpoint whose replies come from `policy` (given the user prompt).
struct Model {
    base: String,
    calls: Arc<Mutex<u32>>,
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
        .map(|m| match &m["content"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    tokio::time::sleep(delay).await;
    let content = policy(&prompt);
    json!({"id": "x", "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}})
    .to_string()
}

impl Model {
    async fn start(policy: Policy, delay: Duration) -> Model {
        let calls = Arc::new(Mutex::new(0));
        let app = Router::new()
            .route("/v1/chat/completions", post(complete))
            .with_state((policy, calls.clone(), delay));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}/v1", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Model { base, calls }
    }

    fn agent(&self, style: Style) -> Arc<ReferenceAgent> {
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
fn oracle(instances: &[plan::Instance]) -> Policy {
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

fn catalog() -> Arc<Catalog> {
    let (catalog, errors) = Catalog::load_dir(&droidmcp::task::catalog::default_dir());
    assert!(errors.is_empty(), "{errors:?}");
    Arc::new(catalog)
}

/// `n` tasks spread over the catalog, with distinct goals for seed 0 of the run.
fn sample(catalog: &Catalog, n: usize) -> Vec<String> {
    let all: Vec<&Arc<Task>> = catalog.iter().collect();
    let stride = (all.len() / n).max(1);
    let mut goals = std::collections::HashSet::new();
    let mut picked = Vec::new();
    for t in all.iter().step_by(stride).chain(all.iter()) {
        if picked.len() == n {
            break;
        }
        let goal = t
            .instantiate(plan::instance_seed(0, &t.id, 0), &Default::default())
            .unwrap()
            .goal;
        if !picked.contains(&t.id) && goals.insert(goal) {
            picked.push(t.id.clone());
        }
    }
    picked
}

fn spec(name: &str, tasks: Vec<String>, agent: AgentSpec, phones: u32) -> RunSpec {
    RunSpec {
        name: name.into(),
        selection: Selection {
            patterns: tasks,
            ..Selection::default()
        },
        seeds: 1,
        run_seed: 0,
        envs: vec![None],
        max_steps: None,
        agent,
        phones,
        devices: vec![],
        retries: 1,
        episode_timeout_s: 120,
    }
}

fn reference(model: &Model) -> AgentSpec {
    AgentSpec::Reference {
        style: Style::T3a,
        model: "scripted".into(),
        base_url: model.base.clone(),
        api_key_env: None,
    }
}

fn instances_of(catalog: &Catalog, spec: &RunSpec) -> Vec<plan::Instance> {
    let tasks = spec.selection.pick(catalog).unwrap();
    plan::instances(&tasks, spec.seeds, spec.run_seed, &spec.envs)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_oracle_agent_scores_every_instance_on_four_phones() {
    let catalog = catalog();
    let tasks = sample(&catalog, 40);
    let store = Store::in_memory().unwrap();
    let model_spec = spec("oracle", tasks, AgentSpec::Command(String::new()), 4);
    let model = Model::start(oracle(&instances_of(&catalog, &model_spec)), Duration::ZERO).await;
    let spec = RunSpec {
        agent: reference(&model),
        ..model_spec
    };
    let summary = droidmcp::run::execute(
        spec,
        catalog.clone(),
        store.clone(),
        None,
        Some(model.agent(Style::T3a)),
        |_| {},
    )
    .await
    .unwrap();
    let report = RunReport::new("oracle", &store.run_results("oracle").unwrap(), &catalog);
    let failed: Vec<String> = report
        .rows
        .iter()
        .filter(|r| !r.success)
        .map(|r| {
            format!(
                "{} {} ({}): {:?} {}",
                r.instance, r.outcome, r.ending, r.error, r.metrics
            )
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of 40 not successful:\n{}",
        failed.len(),
        failed.join("\n")
    );
    assert_eq!(
        (
            summary.progress.total,
            summary.progress.success,
            summary.progress.errored
        ),
        (40, 40, 0)
    );
    // Every episode was checked on its own phone, four at a time, and stored with its steps.
    assert!(report
        .rows
        .iter()
        .all(|r| r.finished && r.steps > 0 && r.tokens > 0));
    let md = report.markdown();
    assert!(
        md.contains("| success (errored left out) | 100.0% [91.2, 100.0] (40/40) |"),
        "{md}"
    );
    assert!(
        md.contains("false complete (said done, was not) | 0.0%"),
        "{md}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_finishes_at_once_scores_nothing_and_completes_falsely() {
    let catalog = catalog();
    let tasks: Vec<String> = sample(&catalog, 40)
        .into_iter()
        .filter(|id| !catalog.get(id).unwrap().tags.iter().any(|t| t == "verify"))
        .take(12)
        .collect();
    let model = Model::start(
        Arc::new(|_: &str| r#"{"action_type": "status", "goal_status": "complete"}"#.to_string()),
        Duration::ZERO,
    )
    .await;
    let store = Store::in_memory().unwrap();
    let spec = spec("eager", tasks, reference(&model), 2);
    droidmcp::run::execute(
        spec,
        catalog.clone(),
        store.clone(),
        None,
        Some(model.agent(Style::T3a)),
        |_| {},
    )
    .await
    .unwrap();
    let report = RunReport::new("eager", &store.run_results("eager").unwrap(), &catalog);
    let passed: Vec<_> = report
        .rows
        .iter()
        .filter(|r| r.success)
        .map(|r| r.instance.clone())
        .collect();
    assert!(passed.is_empty(), "finishing at once passed: {passed:?}");
    assert!(report
        .rows
        .iter()
        .all(|r| r.finished && r.steps == 0 && r.outcome == "failure"));
    let md = report.markdown();
    assert!(md.contains("| success (errored left out) | 0.0%"), "{md}");
    assert!(
        md.contains("| false complete (said done, was not) | 100.0%"),
        "{md}"
    );
}

#[tokio::test]
async fn an_agent_that_never_finishes_runs_out_of_steps() {
    let catalog = catalog();
    let model = Model::start(
        Arc::new(|_: &str| {
            "Let me look around.\n```json\n{\"action_type\": \"swipe\", \"direction\": \"up\"}\n```"
                .to_string()
        }),
        Duration::ZERO,
    )
    .await;
    let store = Store::in_memory().unwrap();
    let mut spec = spec(
        "idle",
        vec!["aw.settings.wifi_on".into(), "bmoca.clock.tab_alarm".into()],
        reference(&model),
        1,
    );
    spec.max_steps = Some(3);
    droidmcp::run::execute(
        spec,
        catalog.clone(),
        store.clone(),
        None,
        Some(model.agent(Style::T3a)),
        |_| {},
    )
    .await
    .unwrap();
    let rows = store.run_results("idle").unwrap();
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(
            (r.outcome.as_str(), r.ending.as_str(), r.finished),
            ("failure", "out_of_steps", false),
            "{r:?}"
        );
        // The step past the limit is recorded and fails the episode, as the task tools count it.
        assert_eq!(r.steps, 4, "{r:?}");
        assert_eq!(r.max_steps, 3);
    }
}

#[tokio::test]
async fn garbage_from_the_model_is_repaired_once_then_an_invalid_turn() {
    let catalog = catalog();
    let model = Model::start(
        Arc::new(|_: &str| "I think I should tap something.".to_string()),
        Duration::ZERO,
    )
    .await;
    let store = Store::in_memory().unwrap();
    let mut spec = spec(
        "garbage",
        vec!["aw.settings.wifi_on".into()],
        reference(&model),
        1,
    );
    spec.max_steps = Some(2);
    droidmcp::run::execute(
        spec,
        catalog.clone(),
        store.clone(),
        None,
        Some(model.agent(Style::T3a)),
        |_| {},
    )
    .await
    .unwrap();
    let rows = store.run_results("garbage").unwrap();
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(
        (r.outcome.as_str(), r.ending.as_str(), r.steps),
        ("failure", "turns_exhausted", 0),
        "{r:?}"
    );
    let log: Value = serde_json::from_str(&r.agent_log).unwrap();
    let turns = log["turns"].as_array().unwrap();
    // Step limit 2 plus the spare turns, each an ask and one repair request.
    assert_eq!(turns.len(), 7);
    assert!(turns
        .iter()
        .all(|t| t["invalid"] == true && t["result"].as_str().unwrap().contains("no JSON object")));
    assert_eq!(*model.calls.lock().unwrap(), 14);
}

#[tokio::test]
async fn a_crashing_agent_process_is_errored_and_retried_not_failed() {
    let catalog = catalog();
    let store = Store::in_memory().unwrap();
    let spec = spec(
        "crash",
        vec!["aw.settings.wifi_on".into()],
        AgentSpec::Command("echo 'Traceback: ImportError: no module named mcp' >&2; exit 3".into()),
        1,
    );
    let summary = droidmcp::run::execute(spec, catalog.clone(), store.clone(), None, None, |_| {})
        .await
        .unwrap();
    let rows = store.run_results("crash").unwrap();
    // One attempt and one retry, both errored; the second is final.
    let got: Vec<_> = rows
        .iter()
        .map(|r| (r.attempt, r.outcome.as_str(), r.is_final))
        .collect();
    assert_eq!(got, [(1, "errored", false), (2, "errored", true)]);
    let why = rows[1].error.as_deref().unwrap();
    assert!(
        why.contains("exited 3 before acting") && why.contains("ImportError"),
        "{why}"
    );
    assert_eq!((summary.progress.errored, summary.progress.success), (1, 0));
    let md = RunReport::new("crash", &rows, &catalog).markdown();
    assert!(
        md.contains("| success (errored left out) | - |") && md.contains("| errored | 1 |"),
        "{md}"
    );
}

#[tokio::test]
async fn a_command_agent_acts_through_its_episode_mcp_url_and_finishes() {
    let catalog = catalog();
    let store = Store::in_memory().unwrap();
    // A shell agent speaking MCP's stateless JSON over HTTP with curl: open Settings, then finish.
    let call = |id: u32, name: &str, args: &str| {
        format!(
            "curl -sf -X POST \"$DROIDMCP_MCP_URL\" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -H \"mcp-session-id: $SID\" -d '{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"{name}\",\"arguments\":{args}}}}}' >/dev/null"
        )
    };
    let script = [
        "set -e".to_string(),
        "SID=$(curl -sf -D - -o /dev/null -X POST \"$DROIDMCP_MCP_URL\" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -d '{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"sh\",\"version\":\"1\"}}}' | tr -d '\\r' | sed -n 's/^mcp-session-id: //Ip')".to_string(),
        "curl -sf -X POST \"$DROIDMCP_MCP_URL\" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -H \"mcp-session-id: $SID\" -d '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}' >/dev/null".to_string(),
        call(1, "open_app", "{\"app\":\"Settings\"}"),
        call(2, "task_finish", "{\"episode\":\"'\"$DROIDMCP_EPISODE\"'\"}"),
        "echo \"done with $DROIDMCP_MAX_STEPS steps for: $DROIDMCP_GOAL\"".to_string(),
    ]
    .join("\n");
    let spec = spec(
        "cmd",
        vec!["aw.settings.wifi_on".into()],
        AgentSpec::Command(script),
        1,
    );
    droidmcp::run::execute(spec, catalog.clone(), store.clone(), None, None, |_| {})
        .await
        .unwrap();
    let rows = store.run_results("cmd").unwrap();
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    // It acted (one step) and said it was done, but Wi-Fi is still off: the agent's failure.
    assert_eq!(
        (r.outcome.as_str(), r.finished, r.steps, r.ending.as_str()),
        ("failure", true, 1, "exited 0"),
        "{r:?}"
    );
    let log: Value = serde_json::from_str(&r.agent_log).unwrap();
    assert!(
        log["stdout"]
            .as_str()
            .unwrap()
            .contains("done with 10 steps for: Turn wifi on."),
        "{log}"
    );
}

#[test]
fn a_killed_run_resumes_and_plays_every_instance_exactly_once() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let catalog = catalog();
    let tasks = sample(&catalog, 12);
    let probe = spec("probe", tasks.clone(), AgentSpec::Command(String::new()), 2);
    // A slow oracle, so the run is surely half way when it is killed.
    let model = rt.block_on(Model::start(
        oracle(&instances_of(&catalog, &probe)),
        Duration::from_millis(60),
    ));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let run = |name: &str| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"));
        cmd.args([
            "run",
            name,
            "--tasks",
            &tasks.join(","),
            "--agent",
            "t3a",
            "--model",
            "m",
            "--base-url",
            &model.base,
            "--phones",
            "2",
            "--store",
        ])
        .arg(&db)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
        cmd
    };
    let mut first = run("killed").spawn().unwrap();
    let finals = |name: &str| -> Vec<droidmcp::store::RunResultRow> {
        Store::open(&db)
            .unwrap()
            .run_results(name)
            .unwrap()
            .into_iter()
            .filter(|r| r.is_final)
            .collect()
    };
    let started = std::time::Instant::now();
    while finals("killed").len() < 4 {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the run made no progress"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    first.kill().unwrap(); // SIGKILL
    first.wait().unwrap();
    let before = finals("killed").len();
    assert!(before < 12, "the run finished before it could be killed");
    let status = run("killed").status().unwrap();
    assert!(status.success());
    let status = run("whole").status().unwrap();
    assert!(status.success());
    let killed = finals("killed");
    let mut per_instance: BTreeMap<String, u32> = BTreeMap::new();
    for r in &killed {
        *per_instance.entry(r.instance.clone()).or_default() += 1;
    }
    assert_eq!(per_instance.len(), 12);
    assert!(per_instance.values().all(|n| *n == 1), "{per_instance:?}");
    let whole = finals("whole");
    let totals = |rows: &[droidmcp::store::RunResultRow]| {
        let mut by: Vec<(String, String)> = rows
            .iter()
            .map(|r| (r.instance.clone(), r.outcome.clone()))
            .collect();
        by.sort();
        by
    };
    assert_eq!(totals(&killed), totals(&whole));
    assert!(killed.iter().all(|r| r.success));
}

#[tokio::test]
async fn runs_start_over_rest_report_live_status_and_refuse_bad_bodies() {
    let catalog = catalog();
    let model = Model::start(
        Arc::new(|_: &str| r#"{"action_type": "status", "goal_status": "complete"}"#.to_string()),
        Duration::ZERO,
    )
    .await;
    let runs = droidmcp::http::runs::Runs::new(catalog, Some(Store::in_memory().unwrap()));
    let app = droidmcp::http::runs::router(runs);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let http = reqwest::Client::new();
    let body = json!({"name": "rest", "tasks": ["aw.settings.wifi_on", "bmoca.clock.tab_alarm"],
        "agent": {"style": "t3a", "model": "m", "base_url": model.base}});
    let r = http
        .post(format!("{base}/v1/runs"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 202);
    let started: Value = r.json().await.unwrap();
    assert_eq!(started["name"], "rest");
    let mut status = Value::Null;
    for _ in 0..600 {
        status = http
            .get(format!("{base}/v1/runs/rest"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if status["status"] != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(status["status"], "done", "{status}");
    assert_eq!(
        (status["total"].as_u64(), status["done"].as_u64()),
        (Some(2), Some(2)),
        "{status}"
    );
    assert_eq!(status["report"]["false_complete"]["k"], 2, "{status}");
    let svg = http
        .get(format!("{base}/v1/runs/rest/report.svg"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("tag settings"),
        "{svg}"
    );
    let list: Value = http
        .get(format!("{base}/v1/runs"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["runs"][0]["name"], "rest");
    // The same name with another body is a conflict; bad bodies say what is wrong; unknown runs 404.
    let mut other = body.clone();
    other["seeds"] = json!(2);
    let r = http
        .post(format!("{base}/v1/runs"))
        .json(&other)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 409);
    let mut bad = body.clone();
    bad["name"] = json!("bad");
    bad["agent"]["style"] = json!("gpt");
    let r = http
        .post(format!("{base}/v1/runs"))
        .json(&bad)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    assert!(r.text().await.unwrap().contains("unknown agent style"));
    bad["agent"]["style"] = json!("t3a");
    bad["tasks"] = json!(["no.such.*"]);
    let r = http
        .post(format!("{base}/v1/runs"))
        .json(&bad)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let r = http
        .get(format!("{base}/v1/runs/nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
}

/// A stored episode of task `t` that began with or without a restore of the phone.
fn episode_row(id: &str, restored: bool) -> droidmcp::store::EpisodeRow {
    droidmcp::store::EpisodeRow {
        id: id.into(),
        task_id: "bmoca.clock.open".into(),
        seed: 0,
        params: vec![],
        goal: "open the clock app".into(),
        device: if restored { "sim:0" } else { "R5CT30ABCDE" }.into(),
        status: "ended".into(),
        started_at: id.into(),
        ended_at: None,
        max_steps: 5,
        answer: None,
        finished: true,
        success: Some(true),
        score: Some(1.0),
        subgoal_rate: None,
        verdict: Some("success".into()),
        provisional: false,
        abort_reason: None,
        restored,
        setup_log: String::new(),
        env: None,
    }
}

#[test]
fn the_run_report_lists_instances_that_ran_without_a_restore() {
    let store = Store::in_memory().unwrap();
    store.insert_run("mixed", "{}", "2026-01-01").unwrap();
    for (instance, episode, restored) in [
        ("bmoca.clock.open#0", "ep-sim", true),
        ("bmoca.clock.open#1", "ep-real", false),
    ] {
        store.insert_episode(&episode_row(episode, restored)).unwrap();
        store
            .insert_run_result(&droidmcp::store::RunResultRow {
                run: "mixed".into(),
                instance: instance.into(),
                task_id: "bmoca.clock.open".into(),
                attempt: 1,
                outcome: "success".into(),
                is_final: true,
                episode_id: Some(episode.into()),
                success: true,
                side_effects: "[]".into(),
                agent_log: "{}".into(),
                metrics: "{}".into(),
                ..Default::default()
            })
            .unwrap();
    }
    let rows = store.run_results("mixed").unwrap();
    let restored: Vec<_> = rows.iter().map(|r| r.restored).collect();
    assert_eq!(restored, [Some(true), Some(false)]);
    let report = RunReport::new("mixed", &rows, &catalog());
    let md = report.markdown();
    assert!(
        md.contains("| ran without a restore (setup alone reset the phone) | 1 |"),
        "{md}"
    );
    assert!(md.contains("- bmoca.clock.open#1 (episode ep-real)"), "{md}");
    assert!(!md.contains("- bmoca.clock.open#0"), "{md}");
    assert_eq!(report.json()["unrestored"], json!(["bmoca.clock.open#1"]));
}

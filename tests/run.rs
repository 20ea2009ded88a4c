//! `droidmcp run`: agents through the suite on several phones, against a scripted OpenAI-compatible
//! model (the only stand-in: a paid API). The oracle model answers each turn with the task's golden
//! move, read from the goal and the number of turns in the agent's history; other scripts finish at
//! once, never finish, or are a crashing agent process.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use droidmcp::agent::Style;
use droidmcp::run::plan::{self, Selection};
use droidmcp::run::report::RunReport;
use droidmcp::run::{AgentSpec, RunSpec};
use droidmcp::store::Store;
use droidmcp::task::{Catalog, Task};
use serde_json::{json, Value};

use crate::oracle_model::{oracle, Model};

pub fn catalog() -> Arc<Catalog> {
    let (catalog, errors) = Catalog::load_dir(&droidmcp::task::catalog::default_dir());
    assert!(errors.is_empty(), "{errors:?}");
    Arc::new(catalog)
}

/// `n` tasks spread over the catalog, with distinct goals for seed 0 of the run.
pub fn sample(catalog: &Catalog, n: usize) -> Vec<String> {
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

pub fn spec(name: &str, tasks: Vec<String>, agent: AgentSpec, phones: u32) -> RunSpec {
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
        fleet: Default::default(),
        retries: 1,
        episode_timeout_s: 120,
    }
}

fn reference(model: &Model) -> AgentSpec {
    reference_as(model, Style::T3a)
}

fn reference_as(model: &Model, style: Style) -> AgentSpec {
    AgentSpec::Reference {
        style,
        model: "scripted".into(),
        base_url: model.base.clone(),
        api_key_env: None,
    }
}

/// Plays `spec` with its reference agent against `model`.
async fn play(
    spec: RunSpec,
    catalog: &Arc<Catalog>,
    store: &Store,
    model: &Model,
) -> droidmcp::run::RunSummary {
    let AgentSpec::Reference { style, .. } = &spec.agent else {
        panic!("play() runs reference agents; {:?} is not one", spec.agent);
    };
    let agent = model.agent(*style);
    droidmcp::run::execute(
        spec,
        catalog.clone(),
        store.clone(),
        None,
        Some(agent),
        |_| {},
    )
    .await
    .unwrap()
}

pub fn instances_of(catalog: &Catalog, spec: &RunSpec) -> Vec<plan::Instance> {
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
    let summary = play(spec, &catalog, &store, &model).await;
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
    let unplayed: Vec<String> = report
        .rows
        .iter()
        .filter(|r| {
            // A golden that only answers (a sum done in the head) takes no phone step.
            let acts = catalog
                .get(&r.task_id)
                .map_or(1, |t| droidmcp::task::Task::reference_of(&t.golden).len());
            !(r.finished && (r.steps > 0 || acts == 0) && r.tokens.is_some_and(|t| t > 0))
        })
        .map(|r| {
            format!(
                "{} finished {} steps {} tokens {:?}",
                r.instance, r.finished, r.steps, r.tokens
            )
        })
        .collect();
    assert!(unplayed.is_empty(), "{unplayed:#?}");
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
    play(spec, &catalog, &store, &model).await;
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
    play(spec, &catalog, &store, &model).await;
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
    play(spec, &catalog, &store, &model).await;
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

/// A shell agent speaking MCP's stateless JSON over HTTP with curl: it opens a session, then runs
/// `lines` ([`curl_call`]s and any shell).
fn curl_agent(lines: &[String]) -> String {
    let init = [
        "set -e".to_string(),
        "SID=$(curl -sf -D - -o /dev/null -X POST \"$DROIDMCP_MCP_URL\" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -d '{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"sh\",\"version\":\"1\"}}}' | tr -d '\\r' | sed -n 's/^mcp-session-id: //Ip')".to_string(),
        "curl -sf -X POST \"$DROIDMCP_MCP_URL\" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -H \"mcp-session-id: $SID\" -d '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}' >/dev/null".to_string(),
    ];
    init.iter()
        .chain(lines)
        .cloned()
        .collect::<Vec<_>>()
        .join("\n")
}

/// One tool call whose reply the agent prints.
fn curl_call(id: u32, name: &str, args: &str) -> String {
    format!(
        "curl -sf -X POST \"$DROIDMCP_MCP_URL\" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -H \"mcp-session-id: $SID\" -d '{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"{name}\",\"arguments\":{args}}}}}'; echo"
    )
}

#[tokio::test]
async fn a_command_agent_acts_through_its_episode_mcp_url_and_finishes() {
    let catalog = catalog();
    let store = Store::in_memory().unwrap();
    // A shell agent speaking MCP's stateless JSON over HTTP with curl: open Settings, then finish.
    let script = curl_agent(&[
        curl_call(1, "open_app", "{\"app\":\"Settings\"}"),
        curl_call(
            2,
            "task_finish",
            "{\"episode\":\"'\"$DROIDMCP_EPISODE\"'\"}",
        ),
        "echo \"done with $DROIDMCP_MAX_STEPS steps for: $DROIDMCP_GOAL\"".to_string(),
    ]);
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
        ("failure", true, 1, "done; exited 0"),
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

#[tokio::test]
async fn a_runs_phone_keeps_real_time_as_a_served_phone_does() {
    let catalog = catalog();
    let store = Store::in_memory().unwrap();
    // The agent reads the phone's clock, waits two real seconds, reads it again, and finishes.
    let script = curl_agent(&[
        curl_call(1, "device_status", "{}"),
        "sleep 2".into(),
        curl_call(2, "device_status", "{}"),
        curl_call(
            3,
            "task_finish",
            "{\"episode\":\"'\"$DROIDMCP_EPISODE\"'\"}",
        ),
    ]);
    let spec = spec(
        "clock",
        vec!["aw.settings.wifi_on".into()],
        AgentSpec::Command(script),
        1,
    );
    droidmcp::run::execute(spec, catalog.clone(), store.clone(), None, None, |_| {})
        .await
        .unwrap();
    let rows = store.run_results("clock").unwrap();
    let log: Value = serde_json::from_str(&rows[0].agent_log).unwrap();
    let stdout = log["stdout"].as_str().unwrap();
    let times: Vec<chrono::NaiveDateTime> =
        regex::Regex::new(r#""time":"([0-9-]+ [0-9:]+) \+0000""#)
            .unwrap()
            .captures_iter(stdout)
            .map(|c| chrono::NaiveDateTime::parse_from_str(&c[1], "%Y-%m-%d %H:%M:%S").unwrap())
            .collect();
    assert_eq!(times.len(), 2, "{stdout}");
    let moved = (times[1] - times[0]).num_seconds();
    assert!(
        (1..=10).contains(&moved),
        "the phone's clock moved {moved} s in 2 s: {times:?}"
    );
    // The task sets no time: the phone shows the host's, as an emulator does.
    let off = (times[0] - chrono::Utc::now().naive_utc())
        .num_seconds()
        .abs();
    assert!(
        off < 120,
        "the phone's clock is {off} s off the host's: {times:?}"
    );
}

#[test]
fn a_killed_run_resumes_and_plays_every_instance_exactly_once() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let catalog = catalog();
    let tasks = sample(&catalog, 12);
    let probe = spec("probe", tasks.clone(), AgentSpec::Command(String::new()), 2);
    // A slow oracle, held once the test has seen four instances finish: the first run is cut half
    // way, with the instances it plays then in flight. Let go before the re-runs.
    let inner = oracle(&instances_of(&catalog, &probe));
    let hold = Arc::new(AtomicBool::new(false));
    let held = hold.clone();
    let policy: crate::oracle_model::Policy = Arc::new(move |prompt: &str| {
        // Blocking is fine here: the model's runtime has a worker per held request at most.
        while held.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(10));
        }
        inner(prompt)
    });
    let model = rt.block_on(Model::start(policy, Duration::from_millis(60)));
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
        .stderr(std::fs::File::create(dir.path().join(format!("{name}.log"))).unwrap());
        cmd
    };
    let log = |name: &str| std::fs::read_to_string(dir.path().join(format!("{name}.log"))).unwrap();
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
            "the run made no progress:\n{}",
            log("killed")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    hold.store(true, Ordering::SeqCst);
    first.kill().unwrap(); // SIGKILL
    first.wait().unwrap();
    let before = finals("killed").len();
    assert!(before < 12, "the run finished before it could be killed");
    hold.store(false, Ordering::SeqCst);
    let status = run("killed").status().unwrap();
    assert!(
        status.success(),
        "the resumed run: {status}\n{}",
        log("killed")
    );
    let status = run("whole").status().unwrap();
    assert!(
        status.success(),
        "the whole run: {status}\n{}",
        log("whole")
    );
    let killed = finals("killed");
    let mut per_instance: BTreeMap<String, u32> = BTreeMap::new();
    for r in &killed {
        *per_instance.entry(r.instance.clone()).or_default() += 1;
    }
    assert_eq!(per_instance.len(), 12, "{per_instance:?}");
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
    let failed: Vec<_> = killed.iter().filter(|r| !r.success).collect();
    assert!(failed.is_empty(), "{failed:#?}");
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
    // Numbers out of range are refused with their range, not changed into a run nobody asked for.
    bad["tasks"] = body["tasks"].clone();
    for (field, value, says) in [
        ("seeds", json!(0), "seeds must be 1 to 1000 (got 0)"),
        (
            "max_steps",
            json!(900),
            "max_steps must be 1 to 500 (got 900)",
        ),
        ("retries", json!(11), "retries must be 0 to 10 (got 11)"),
        (
            "episode_timeout_s",
            json!(0),
            "episode_timeout_s must be 1 to 86400 (got 0)",
        ),
        ("phones", json!(65), "phones must be 1 to 64 (got 65)"),
    ] {
        let mut out_of_range = bad.clone();
        out_of_range[field] = value;
        let r = http
            .post(format!("{base}/v1/runs"))
            .json(&out_of_range)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 400, "{field}");
        let text = r.text().await.unwrap();
        assert!(text.contains(says), "{field}: {text}");
    }
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
        store
            .insert_episode(&episode_row(episode, restored))
            .unwrap();
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
    assert!(
        md.contains("- bmoca.clock.open#1 (episode ep-real)"),
        "{md}"
    );
    assert!(!md.contains("- bmoca.clock.open#0"), "{md}");
    assert_eq!(report.json()["unrestored"], json!(["bmoca.clock.open#1"]));
}

#[tokio::test]
async fn rows_changed_in_an_app_the_task_does_not_use_are_side_effects() {
    use droidmcp::run::side_effects;
    let phone = crate::util::boot(3);
    let before = side_effects::read_data(&phone).await;
    for uri in [
        "content://sms",
        "content://call_log/calls",
        "content://com.android.contacts/data",
    ] {
        assert!(
            before.get(uri).is_some_and(|rows| !rows.is_empty()),
            "{uri} has the phone's baseline rows: {before:?}"
        );
    }
    // A text arrives while the agent plays, as the emulator console delivers one.
    let said = phone.console("sms send 5550100 stray text");
    assert!(said.ends_with("OK\r\n"), "{said:?}");
    let after = side_effects::read_data(&phone).await;
    let changes = side_effects::diff_data(&before, &after, &["settings".into()]);
    assert_eq!(changes.len(), 1, "{changes:?}");
    let text = changes[0].to_string();
    assert!(
        text.starts_with("content://sms (messages): 1 row(s) added, 0 removed")
            && text.contains("stray text"),
        "{text}"
    );
    // A texting task's own text is no side effect: its apps as the task file names them.
    let own = catalog().get("aw.sms.send").unwrap().apps.clone();
    assert!(side_effects::diff_data(&before, &after, &own).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tasks_own_changes_are_not_its_side_effects() {
    // The event a calendar task adds, the text a messages task sends, the thread it reads: the
    // task's own work, played by the oracle agent through a run.
    let catalog = catalog();
    let tasks: Vec<String> = [
        "aw.calendar.add_event_at_hour",
        "aw.sms.send",
        "aw.sms.reply",
    ]
    .map(String::from)
    .to_vec();
    let store = Store::in_memory().unwrap();
    let model_spec = spec("own", tasks, AgentSpec::Command(String::new()), 1);
    let model = Model::start(oracle(&instances_of(&catalog, &model_spec)), Duration::ZERO).await;
    let spec = RunSpec {
        agent: reference(&model),
        ..model_spec
    };
    play(spec, &catalog, &store, &model).await;
    let rows = store.run_results("own").unwrap();
    assert_eq!(rows.len(), 3);
    for r in &rows {
        assert!(r.success, "{} did not succeed: {:?}", r.instance, r.error);
        assert_eq!(r.side_effects, "[]", "{}", r.instance);
    }
}

#[tokio::test]
async fn judging_a_run_puts_the_panels_verdicts_beside_its_outcomes() {
    use crate::judge::{verdict, Scripted};
    let catalog = catalog();
    let model = Model::start(
        Arc::new(|_: &str| r#"{"action_type": "status", "goal_status": "complete"}"#.to_string()),
        Duration::ZERO,
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let store = Store::open(&db).unwrap();
    let tasks = vec![
        "aw.settings.wifi_on".to_string(),
        "bmoca.clock.tab_alarm".to_string(),
    ];
    play(
        spec("judged", tasks, reference(&model), 1),
        &catalog,
        &store,
        &model,
    )
    .await;
    // Two judges that call every episode a success: the panel disagrees with each failed outcome.
    let judges = Scripted::start().await;
    let panel = dir.path().join("judges");
    std::fs::create_dir(&panel).unwrap();
    std::fs::write(
        panel.join("panel.toml"),
        "judges = [\"a\", \"b\"]\npolicy = \"judges_only\"\nmode = \"final_state\"\n",
    )
    .unwrap();
    for (name, family) in [("a", "fa"), ("b", "fb")] {
        std::fs::write(
            panel.join(format!("{name}.toml")),
            format!(
                "name = \"{name}\"\nfamily = \"{family}\"\nbase_url = \"{}/{name}/v1\"\nmodel = \"m\"\n",
                judges.base
            ),
        )
        .unwrap();
        judges.script(name, vec![verdict("success"), verdict("success")]);
    }
    let rows = store.run_results("judged").unwrap();
    let outcomes: Vec<&str> = rows.iter().map(|r| r.outcome.as_str()).collect();
    let judge = |run: &str| {
        tokio::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
            .args(["judge", "--run", run, "--judges"])
            .arg(&panel)
            .arg("--store")
            .arg(&db)
            .output()
    };
    let out = judge("judged").await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = RunReport::load("judged", &store, &catalog).unwrap().json();
    let failed = outcomes.iter().filter(|o| **o == "failure").count() as u64;
    assert_eq!(report["judges"]["judged"], json!(rows.len()), "{report}");
    assert_eq!(
        report["judges"]["agreement"]["n"],
        json!(rows.len()),
        "{report}"
    );
    assert_eq!(
        report["judges"]["agreement"]["k"],
        json!(rows.len() as u64 - failed)
    );
    assert_eq!(
        report["judges"]["disagreements"].as_array().unwrap().len() as u64,
        failed
    );
    let md = RunReport::load("judged", &store, &catalog)
        .unwrap()
        .markdown();
    assert!(md.contains("## Judges (`droidmcp judge --run`)"), "{md}");
    // A run that is not there is refused, naming it.
    let out = judge("nope").await.unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no run named \"nope\""));
    assert!(failed > 0, "{outcomes:?}");
    // Where the policy lets the rules decide, the report still compares what the judges said:
    // the same disagreements, not an agreement the rule's own verdict makes.
    std::fs::write(
        panel.join("panel.toml"),
        "judges = [\"a\", \"b\"]\npolicy = \"rule_first\"\nmode = \"final_state\"\n",
    )
    .unwrap();
    for name in ["a", "b"] {
        judges.script(name, vec![verdict("success"); rows.len()]);
    }
    let out = judge("judged").await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = RunReport::load("judged", &store, &catalog).unwrap().json();
    assert_eq!(
        report["judges"]["disagreements"].as_array().unwrap().len() as u64,
        failed,
        "{report}"
    );
}

#[tokio::test]
async fn a_bmoca_agent_taps_by_numeric_tag_and_the_success_detector_ends_its_episode() {
    let catalog = catalog();
    // B-MoCA's format: find Calculator in the parse_obs listing and tap its tag; open the app list
    // first when the home screen does not show it. Never says it is done.
    let policy = |prompt: &str| {
        let observation = prompt
            .split("Current observation: ")
            .nth(1)
            .unwrap_or_default();
        crate::agents::bmoca_find_calculator(observation)
    };
    let model = Model::start(Arc::new(policy), Duration::ZERO).await;
    let store = Store::in_memory().unwrap();
    let agent = reference_as(&model, Style::Bmoca);
    let found = spec("bmoca", vec!["bmoca.calculator.open".into()], agent, 1);
    play(found, &catalog, &store, &model).await;
    let rows = store.run_results("bmoca").unwrap();
    let r = &rows[0];
    assert_eq!(
        (r.outcome.as_str(), r.ending.as_str(), r.finished),
        ("success", "done", true),
        "{r:?}"
    );
    let log: Value = serde_json::from_str(&r.agent_log).unwrap();
    let actions: Vec<&str> = log["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["action"].as_str())
        .collect();
    assert!(actions.last().unwrap().starts_with("tap("), "{actions:?}");
    // A model that only presses BACK never reaches the goal: out of steps, a failure.
    let back = Model::start(
        Arc::new(|_: &str| "- Action: press(\"BACK\")".to_string()),
        Duration::ZERO,
    )
    .await;
    let agent = reference_as(&back, Style::Bmoca);
    let spec = spec("bmoca-back", vec!["bmoca.calculator.open".into()], agent, 1);
    play(spec, &catalog, &store, &back).await;
    let r = &store.run_results("bmoca-back").unwrap()[0];
    assert_eq!(
        (r.outcome.as_str(), r.ending.as_str()),
        ("failure", "out_of_steps"),
        "{r:?}"
    );
}

/// Two runner processes each play one shard of a run into a store of their own; `report` reads the
/// two stores as the one run: every instance once, nothing played twice.
#[test]
fn two_shards_in_two_processes_make_one_report() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let catalog = catalog();
    let tasks = sample(&catalog, 6);
    let probe = spec("probe", tasks.clone(), AgentSpec::Command(String::new()), 1);
    let model = rt.block_on(Model::start(
        oracle(&instances_of(&catalog, &probe)),
        Duration::ZERO,
    ));
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: u32| {
        let db = dir.path().join(format!("shard-{i}.db"));
        std::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
            .args(["run", "split", "--tasks", &tasks.join(",")])
            .args(["--agent", "t3a", "--model", "m", "--base-url", &model.base])
            .args(["--phones", "1", "--shard", &format!("{i}/2"), "--store"])
            .arg(&db)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (shard(1), shard(2));
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let played = |i: u32| {
        Store::open(&dir.path().join(format!("shard-{i}.db")))
            .unwrap()
            .run_results("split")
            .unwrap()
    };
    let (one, two) = (played(1), played(2));
    assert_eq!((one.len(), two.len()), (3, 3), "{one:#?}\n{two:#?}");
    assert!(one
        .iter()
        .all(|r| !two.iter().any(|s| s.instance == r.instance)));
    let report = std::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
        .args(["report", "--run", "split", "--json", "--store"])
        .arg(dir.path().join("shard-1.db"))
        .arg("--store")
        .arg(dir.path().join("shard-2.db"))
        .output()
        .unwrap();
    assert!(
        report.status.success(),
        "{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let v: Value = serde_json::from_slice(&report.stdout).unwrap();
    assert_eq!(v["instances"], 6, "{v}");
    assert_eq!(v["success"]["k"], 6, "{v}");
    assert_eq!(v["devices"].as_array().map(Vec::len), Some(1), "{v}");
}

/// A model that answers in a format the agent does not read (here the MCP tool choice the example
/// agents' scripted model gives) plays episodes of 0 steps: the run's summary and its report say
/// so, with the parse error and the start of the model's reply, instead of a bare "0 steps".
#[test]
fn a_run_whose_model_gives_nothing_usable_says_why_no_step_was_taken() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(Model::start(
        Arc::new(|_: &str| r#"{"tool": "open_app", "arguments": {"app": "Settings"}}"#.to_string()),
        Duration::ZERO,
    ));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
        .args([
            "run",
            "mute",
            "--tasks",
            "aw.settings.wifi_on",
            "--max-steps",
            "1",
        ])
        .args([
            "--agent",
            "t3a",
            "--model",
            "m",
            "--base-url",
            &model.base,
            "--store",
        ])
        .arg(&db)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "took no step: none of the model's 6 replies was an action the t3a agent reads"
        ) && stdout.contains("action_type")
            && stdout.contains(r#"{\"tool\": \"open_app\""#),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = std::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
        .args(["report", "--run", "mute", "--store"])
        .arg(&db)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&report.stdout);
    assert!(
        text.contains("## Took no step") && text.contains("none of the model's 6 replies"),
        "{text}"
    );
}

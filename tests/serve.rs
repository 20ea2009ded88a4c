//! `droidmcp serve --http` as a process: the two doors (the agent's token never opens the harness
//! API) and MCP sessions that cannot lock other clients out.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// One `serve --http` on a free loopback port, with its own store (and harness token file) in a
/// temporary folder; killed when dropped.
struct Served {
    child: Child,
    base: String,
    dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Served {
    async fn start(agent_token: Option<&str>) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_droidmcp"));
        cmd.args(["serve", "--http", &format!("127.0.0.1:{port}")])
            .env("DROIDMCP_STORE", dir.path().join("episodes.db"))
            .env(
                "DROIDMCP_TASKS",
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tasks"),
            )
            .env_remove("DROIDMCP_HARNESS_TOKEN")
            .env_remove("DROIDMCP_TOKEN")
            .env_remove("DROIDMCP_DEVICE")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(t) = agent_token {
            cmd.env("DROIDMCP_TOKEN", t);
        }
        let served = Served {
            child: cmd.spawn().unwrap(),
            base: format!("http://127.0.0.1:{port}"),
            dir,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if served.token_file().exists()
                && reqwest::get(format!("{}/v1/devices", served.base))
                    .await
                    .is_ok()
            {
                return served;
            }
            assert!(Instant::now() < deadline, "serve did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn token_file(&self) -> PathBuf {
        self.dir.path().join("harness-token")
    }

    fn harness_token(&self) -> String {
        std::fs::read_to_string(self.token_file())
            .unwrap()
            .trim()
            .to_string()
    }

    async fn rest(&self, method: &str, path: &str, token: Option<&str>) -> (u16, String) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut req =
            reqwest::Client::new().request(method.clone(), format!("{}{path}", self.base));
        if method == reqwest::Method::POST {
            req = req.header("content-type", "application/json").body("{}");
        }
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.send().await.unwrap();
        (res.status().as_u16(), res.text().await.unwrap())
    }

    fn mcp(&self) -> String {
        format!("{}/mcp", self.base)
    }
}

/// The JSON-RPC message of an MCP answer (plain JSON or the last `data:` of an SSE stream).
fn message(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| {
        body.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .last()
            .unwrap_or(Value::Null)
    })
}

/// Sends one MCP message (on `session` when given); the status, the session id answered, the message.
async fn mcp(url: &str, session: Option<&str>, body: Value) -> (u16, Option<String>, Value) {
    let mut req = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body.to_string());
    if let Some(s) = session {
        req = req.header("mcp-session-id", s);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let sid = res
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_string());
    (status, sid, message(&res.text().await.unwrap()))
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "serve-test", "version": "1"}}})
}

/// A session ready for requests.
async fn open_session(url: &str) -> String {
    let (status, sid, _) = mcp(url, None, initialize()).await;
    assert_eq!(status, 200);
    let sid = sid.expect("a session id");
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert!(mcp(url, Some(&sid), note).await.0 < 300);
    sid
}

async fn tool(url: &str, session: &str, name: &str, args: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": name, "arguments": args}});
    let (status, _, msg) = mcp(url, Some(session), body).await;
    assert_eq!(status, 200, "{name}: {msg}");
    msg["result"].clone()
}

/// Starts a task episode over MCP: its id and step limit.
async fn start_task(url: &str, session: &str, task: &str) -> (String, u64) {
    let started = tool(url, session, "task_start", json!({"task": task, "seed": 1})).await;
    let episode = started["structuredContent"]["episode"]
        .as_str()
        .unwrap_or_else(|| panic!("{started}"))
        .to_string();
    let max = started["structuredContent"]["max_steps"]
        .as_u64()
        .unwrap_or_else(|| panic!("{started}"));
    (episode, max)
}

/// Every path of the harness's door: the documented ones from `/openapi.json` that are not the
/// phone's, and the rest by hand.
async fn harness_paths(served: &Served, token: &str) -> Vec<(String, String)> {
    let (status, doc) = served.rest("GET", "/openapi.json", Some(token)).await;
    assert_eq!(status, 200);
    let doc: Value = serde_json::from_str(&doc).unwrap();
    let phone = [
        "/v1/devices",
        "/v1/screen",
        "/v1/actions",
        "/v1/apps",
        "/v1/events",
    ];
    let mut paths: Vec<(String, String)> = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if phone.contains(&path.as_str()) {
            continue;
        }
        for method in item.as_object().unwrap().keys() {
            let concrete = path
                .replace("{id}", "e-1")
                .replace("{name}", "r-1")
                .replace("{file}", "step-000.png");
            paths.push((method.to_uppercase(), concrete));
        }
    }
    for (m, p) in [
        ("GET", "/"),
        ("GET", "/v1/tasks"),
        ("GET", "/v1/tasks/aw.settings.wifi_off"),
        ("POST", "/v1/tasks/aw.settings.wifi_off/start"),
        ("GET", "/v1/episodes/e-1"),
        ("POST", "/v1/episodes/e-1/answer"),
        ("POST", "/v1/episodes/e-1/finish"),
        ("POST", "/v1/episodes/e-1/check"),
        ("POST", "/v1/episodes/e-1/end"),
        ("GET", "/v1/episodes/e-1/steps"),
        ("GET", "/v1/episodes/e-1/export"),
        ("GET", "/v1/episodes/e-1/watch"),
        ("GET", "/v1/review"),
        ("POST", "/v1/review/e-1"),
        ("GET", "/v1/runs"),
        ("POST", "/v1/runs"),
        ("GET", "/v1/runs/r-1"),
        ("GET", "/v1/runs/r-1/report.md"),
        ("GET", "/v1/runs/r-1/report.svg"),
        ("POST", "/v1/demos"),
        ("GET", "/v1/demos/e-1"),
        ("POST", "/v1/demos/e-1/finish"),
        ("GET", "/v1/demos/e-1/files/step-000.png"),
        ("POST", "/v1/replays"),
    ] {
        paths.push((m.into(), p.into()));
    }
    paths.sort();
    paths.dedup();
    paths
}

#[tokio::test]
async fn the_agents_token_opens_no_harness_path_and_the_harness_token_opens_them() {
    let served = Served::start(Some("agent-t0ken")).await;
    let harness = served.harness_token();
    assert!(harness.len() >= 32);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(served.token_file())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "the harness token file is owner-only");
    let paths = harness_paths(&served, &harness).await;
    assert!(paths.len() >= 24, "{paths:?}");
    for (method, path) in &paths {
        let (status, body) = served.rest(method, path, Some("agent-t0ken")).await;
        assert_eq!(
            status, 403,
            "{method} {path} with the agent's token: {body}"
        );
        assert!(body.contains("harness"), "{body}");
        let (status, _) = served.rest(method, path, None).await;
        assert_eq!(status, 401, "{method} {path} without a token");
        let (status, body) = served.rest(method, path, Some(&harness)).await;
        assert!(
            status != 401 && status != 403,
            "{method} {path} with the harness token: {status} {body}"
        );
    }
    // The goldens are there for the harness.
    let (status, tasks) = served.rest("GET", "/v1/tasks", Some(&harness)).await;
    assert_eq!(status, 200);
    assert!(tasks.contains("aw.settings.wifi_off"));
    // The agent's token opens the agent's door.
    let (status, _) = served.rest("GET", "/v1/devices", Some("agent-t0ken")).await;
    assert_eq!(status, 200);
    let mut init = reqwest::Client::new()
        .post(served.mcp())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(initialize().to_string());
    init = init.bearer_auth("agent-t0ken");
    assert_eq!(init.send().await.unwrap().status(), 200);
}

#[tokio::test]
async fn abandoned_sessions_do_not_lock_a_new_client_out_and_their_episode_is_kept() {
    let served = Served::start(None).await;
    let url = served.mcp();
    // A client starts an episode, then it and 64 more sessions are abandoned (no DELETE).
    let first = open_session(&url).await;
    let (episode, _) = start_task(&url, &first, "aw.settings.wifi_off").await;
    for _ in 0..64 {
        let (status, sid, _) = mcp(&url, None, initialize()).await;
        assert_eq!(status, 200);
        assert!(sid.is_some());
    }
    let t0 = Instant::now();
    let newcomer = loop {
        let (status, sid, msg) = mcp(&url, None, initialize()).await;
        if status == 200 {
            break sid.unwrap();
        }
        assert_eq!(status, 503, "{msg}");
        assert!(t0.elapsed() < Duration::from_secs(5), "locked out: {msg}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(t0.elapsed() < Duration::from_secs(5));
    // The abandoned first session made room; its episode is still open, and a new session ends it.
    let ping = json!({"jsonrpc": "2.0", "id": 3, "method": "ping"});
    assert_eq!(mcp(&url, Some(&first), ping).await.0, 404);
    let harness = served.harness_token();
    let (status, summary) = served
        .rest("GET", &format!("/v1/episodes/{episode}"), Some(&harness))
        .await;
    assert_eq!(status, 200, "{summary}");
    let summary: Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["status"], "running", "{summary}");
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert!(mcp(&url, Some(&newcomer), note).await.0 < 300);
    let finished = tool(&url, &newcomer, "task_finish", json!({"episode": episode})).await;
    assert_ne!(finished["isError"], true, "{finished}");
    let (status, report) = served
        .rest(
            "POST",
            &format!("/v1/episodes/{episode}/check"),
            Some(&harness),
        )
        .await;
    assert_eq!(status, 200, "{report}");
}

/// After `task_finish` an action still reaches the phone, but it is no step of the episode: its
/// reply says so, the step counter does not move, and the step limit cannot fail the episode.
#[tokio::test]
async fn actions_after_finishing_are_not_steps_and_cannot_fail_the_episode() {
    let served = Served::start(None).await;
    let url = served.mcp();
    let sid = open_session(&url).await;
    let (episode, max) = start_task(&url, &sid, "aw.settings.wifi_off").await;
    tool(&url, &sid, "press_key", json!({"key": "home"})).await;
    let finished = tool(&url, &sid, "task_finish", json!({"episode": episode})).await;
    assert_ne!(finished["isError"], true, "{finished}");
    let harness = served.harness_token();
    let path = format!("/v1/episodes/{episode}/check");
    let (status, before) = served.rest("POST", &path, Some(&harness)).await;
    assert_eq!(status, 200, "{before}");
    let before: Value = serde_json::from_str(&before).unwrap();
    for _ in 0..=max {
        let r = tool(&url, &sid, "press_key", json!({"key": "home"})).await;
        let text = r["content"][0]["text"].as_str().unwrap_or_default();
        assert!(
            text.contains("is finished") && text.contains("not part of the episode"),
            "{r}"
        );
        assert_eq!(
            r["structuredContent"]["episode"]["step"],
            Value::Null,
            "{r}"
        );
    }
    let (status, after) = served.rest("POST", &path, Some(&harness)).await;
    assert_eq!(status, 200, "{after}");
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(after, before);
    assert_eq!(after["steps_used"], 1, "{after}");
}

/// A full-size PNG of a photo is larger than an MCP client takes in one message (the Python
/// SDK's HTTP client refuses an event over 1 MiB): the server makes it smaller until it fits and
/// the reply says so; a screenshot that fits is left as asked.
#[tokio::test]
async fn a_screenshot_too_large_for_one_message_is_made_smaller_and_says_so() {
    let served = Served::start(None).await;
    let url = served.mcp();
    let sid = open_session(&url).await;
    let image = |r: &Value| -> Vec<u8> {
        use base64::Engine;
        let data = r["content"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["type"] == "image")
            .unwrap_or_else(|| panic!("{r}"))["data"]
            .as_str()
            .unwrap()
            .to_string();
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap()
    };
    let small = tool(
        &url,
        &sid,
        "screenshot",
        json!({"format": "png", "max_edge": 2400}),
    )
    .await;
    assert_eq!(small["structuredContent"]["height"], 2400, "{small}");
    assert!(small["structuredContent"]["shrunk_from_max_edge"].is_null());
    // The receipts' photos AndroidWorld's gallery task pushes, one shown over the whole screen.
    start_task(&url, &sid, "aw.expense.add_multiple_from_gallery").await;
    tool(&url, &sid, "open_app", json!({"app": "Gallery"})).await;
    tool(&url, &sid, "tap", json!({"text": "DCIM"})).await;
    tool(&url, &sid, "tap", json!({"text": "expenses.jpg"})).await;
    let big = tool(
        &url,
        &sid,
        "screenshot",
        json!({"format": "png", "max_edge": 2400}),
    )
    .await;
    let png = image(&big);
    assert!(png.len() <= 640 * 1024, "{} bytes", png.len());
    assert_eq!(
        big["structuredContent"]["shrunk_from_max_edge"], 2400,
        "{}",
        big["structuredContent"]
    );
    let text = big["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("not the 2400 px asked"), "{text}");
    let edge = big["structuredContent"]["height"].as_u64().unwrap();
    assert!((256..2400).contains(&edge), "{edge}");
    let decoded = image::load_from_memory(&png).unwrap();
    assert_eq!(decoded.height() as u64, edge);
}

/// What costs a step is what the tool list says changes the phone: read-only tools cost none and
/// `wait`, a step as AndroidWorld counts it, is not read-only; a call refused with the phone left
/// as it was (an app that is not installed) costs none; `history` marks each episode's stretch and
/// numbers its steps from 1 as the episode's counter does.
#[tokio::test]
async fn read_only_tools_and_refusals_cost_no_step_and_history_numbers_steps_by_episode() {
    let served = Served::start(None).await;
    let url = served.mcp();
    let sid = open_session(&url).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
    let (_, _, list) = mcp(&url, Some(&sid), list).await;
    let tools = list["result"]["tools"].as_array().unwrap().clone();
    let read_only: Vec<String> = tools
        .iter()
        .filter(|t| t["annotations"]["readOnlyHint"] == true)
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert!(read_only.contains(&"history".to_string()), "{read_only:?}");
    assert!(!read_only.contains(&"wait".to_string()), "{read_only:?}");
    // One step before any episode.
    tool(&url, &sid, "press_key", json!({"key": "home"})).await;
    let (episode, max) = start_task(&url, &sid, "aw.settings.wifi_on").await;
    for name in &read_only {
        tool(&url, &sid, name, json!({})).await;
    }
    let left = |r: &Value| r["structuredContent"]["episode"]["steps_left"].as_u64();
    let waited = tool(&url, &sid, "wait", json!({"ms": 10})).await;
    assert_eq!(left(&waited), Some(max - 1), "{waited}");
    let spotify = tool(&url, &sid, "open_app", json!({"app": "Spotify"})).await;
    assert_eq!(spotify["isError"], true, "{spotify}");
    assert_eq!(left(&spotify), Some(max - 1), "{spotify}");
    assert_eq!(
        spotify["structuredContent"]["episode"]["refused"], true,
        "{spotify}"
    );
    let opened = tool(&url, &sid, "open_app", json!({"app": "Settings"})).await;
    assert_eq!(left(&opened), Some(max - 2), "{opened}");
    // During the episode the agent's history is the episode's own: what was done on the phone
    // before (another run of the same task, say) is not shown.
    let history = tool(&url, &sid, "history", json!({})).await;
    let text = history["content"][0]["text"].as_str().unwrap().to_string();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines[0], format!("— episode {episode} —"), "{text}");
    let numbered: Vec<String> = lines[1..]
        .iter()
        .map(|l| l.split(" (").next().unwrap().to_string())
        .collect();
    assert_eq!(
        numbered,
        [
            "1. wait 10ms",
            "- open_app \"Spotify\"",
            "2. open_app \"Settings\""
        ],
        "{text}"
    );
    // Once it has ended, the phone's whole log is shown in stretches.
    let harness = served.harness_token();
    let (status, body) = served
        .rest(
            "POST",
            &format!("/v1/episodes/{episode}/end"),
            Some(&harness),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let history = tool(&url, &sid, "history", json!({})).await;
    let text = history["content"][0]["text"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines[0], "— outside any task episode —", "{text}");
    assert!(lines[1].starts_with("1. press_key"), "{text}");
    assert_eq!(lines[2], format!("— episode {episode} —"), "{text}");
    assert_eq!(lines.len(), 6, "{text}");
}

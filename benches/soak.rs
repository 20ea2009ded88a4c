//! Long runs stay flat (issue 28): one `droidmcp serve --http` process, the binary users run, driven
//! through its two doors the way clients drive it — MCP tool calls from several sessions on their own
//! phones, benchmark episodes through the harness's REST API, then the whole task suite as a REST
//! run played by the oracle agent (the T3A reference agent against a scripted model answering with
//! each goal's golden moves). Between phases it records the server's resident memory (VmRSS and its
//! peak), open file descriptors, the files left in its private temp folder and the store's size on
//! disk, so growth shows as a difference between rows. Prints a table (BENCHMARKS.md, "Soak").
//!
//! Run: `cargo bench --bench soak` (`--profile dev` for the dev build). Sizes by environment:
//! SOAK_CALLS (default 10000), SOAK_EPISODES (1000), SOAK_RUN=0 skips the suite run.

// The bench drives the model over HTTP only (the run's agent calls it), not in-process.
#[allow(dead_code)]
#[path = "../tests/oracle_model.rs"]
mod oracle_model;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use droidmcp::agent::Style;
use droidmcp::run::plan;
use droidmcp::task::Catalog;
use serde_json::{json, Value};

use oracle_model::{oracle, Model};

/// MCP sessions calling at once, each on its own embedded phone.
const CLIENTS: usize = 8;
/// REST episodes in flight at once, each on its own embedded phone.
const EPISODE_WORKERS: usize = 4;

struct Server {
    child: Child,
    base: String,
    dir: tempfile::TempDir,
    harness: String,
    http: reqwest::Client,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the server holds at one moment.
struct Sample {
    label: String,
    rss_kib: u64,
    peak_kib: u64,
    fds: usize,
    temp_files: usize,
    temp_kib: u64,
    store_kib: u64,
}

fn status_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Files under `dir` (recursively) and their total size in KiB.
fn files_in(dir: &Path) -> (usize, u64) {
    let mut n = 0;
    let mut bytes = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                Ok(_) => {
                    n += 1;
                    bytes += e.metadata().map(|m| m.len()).unwrap_or(0);
                }
                Err(_) => {}
            }
        }
    }
    (n, bytes / 1024)
}

impl Server {
    async fn start() -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("tmp")).expect("server temp dir");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(env!("CARGO_BIN_EXE_droidmcp"))
            .args(["serve", "--http", &format!("127.0.0.1:{port}")])
            .env("DROIDMCP_STORE", dir.path().join("episodes.db"))
            .env("TMPDIR", dir.path().join("tmp"))
            .env_remove("DROIDMCP_TOKEN")
            .env_remove("DROIDMCP_HARNESS_TOKEN")
            .env_remove("DROIDMCP_DEVICE")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts");
        let token_file = dir.path().join("harness-token");
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(60);
        while !(token_file.exists() && reqwest::get(format!("{base}/v1/devices")).await.is_ok()) {
            assert!(Instant::now() < deadline, "serve did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let harness = std::fs::read_to_string(&token_file)
            .expect("harness token")
            .trim()
            .to_string();
        Server {
            child,
            base,
            dir,
            harness,
            http: reqwest::Client::new(),
        }
    }

    fn sample(&self, label: &str) -> Sample {
        let pid = self.child.id();
        let (temp_files, temp_kib) = files_in(&self.dir.path().join("tmp"));
        let store_kib = ["episodes.db", "episodes.db-wal", "episodes.db-shm"]
            .iter()
            .filter_map(|f| std::fs::metadata(self.dir.path().join(f)).ok())
            .map(|m| m.len())
            .sum::<u64>()
            / 1024;
        Sample {
            label: label.to_string(),
            rss_kib: status_kib(pid, "VmRSS:"),
            peak_kib: status_kib(pid, "VmHWM:"),
            fds: std::fs::read_dir(format!("/proc/{pid}/fd"))
                .map(|d| d.count())
                .unwrap_or(0),
            temp_files,
            temp_kib,
            store_kib,
        }
    }

    /// One REST call with the harness token; the status and the JSON answered.
    async fn rest(&self, method: reqwest::Method, path: &str, body: Value) -> (u16, Value) {
        let mut req = self
            .http
            .request(method.clone(), format!("{}{path}", self.base))
            .bearer_auth(&self.harness);
        if method == reqwest::Method::POST {
            req = req.json(&body);
        }
        match req.send().await {
            Ok(res) => {
                let status = res.status().as_u16();
                let text = res.text().await.unwrap_or_default();
                (
                    status,
                    serde_json::from_str(&text).unwrap_or(Value::String(text)),
                )
            }
            Err(e) => (0, Value::String(e.to_string())),
        }
    }

    /// One MCP message on `session` (none for `initialize`); the session id answered and the message.
    async fn mcp(
        &self,
        session: Option<&str>,
        body: Value,
    ) -> Result<(Option<String>, Value), String> {
        let mut req = self
            .http
            .post(format!("{}/mcp", self.base))
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-06-18")
            .json(&body);
        if let Some(s) = session {
            req = req.header("mcp-session-id", s);
        }
        let res = req.send().await.map_err(|e| e.to_string())?;
        let status = res.status();
        let sid = res
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(String::from);
        let text = res.text().await.map_err(|e| e.to_string())?;
        if !status.is_success() {
            return Err(format!("{status}: {text}"));
        }
        // Plain JSON, or the last `data:` line of an event stream.
        let msg = serde_json::from_str(&text).unwrap_or_else(|_| {
            text.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                .last()
                .unwrap_or(Value::Null)
        });
        Ok((sid, msg))
    }
}

/// `calls` tool calls from one MCP session on phone `sim:{phone}`: taps, screens, keys, apps,
/// element lists and every tenth a screenshot. The latencies in ms, and the calls that failed.
async fn client(server: Arc<Server>, phone: usize, calls: usize) -> (Vec<f64>, usize) {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "soak", "version": "1"}}});
    let (sid, _) = server.mcp(None, init).await.expect("initialize");
    let sid = sid.expect("a session id");
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    server.mcp(Some(&sid), note).await.expect("initialized");
    let cycle = [
        ("select_device", json!({"device": format!("sim:{phone}")})),
        ("open_app", json!({"app": "Clock"})),
        ("tap", json!({"x": 540, "y": 1700})),
        ("screen", json!({})),
        ("swipe", json!({"direction": "up"})),
        ("press_key", json!({"key": "back"})),
        ("hierarchy", json!({})),
        ("press_key", json!({"key": "home"})),
        ("type_text", json!({"text": "soak"})),
        ("screenshot", json!({})),
    ];
    let mut times = Vec::with_capacity(calls);
    let mut failed = 0;
    for i in 0..calls {
        let (name, args) = &cycle[i % cycle.len()];
        let body = json!({"jsonrpc": "2.0", "id": i + 2, "method": "tools/call",
            "params": {"name": name, "arguments": args}});
        let t = Instant::now();
        match server.mcp(Some(&sid), body).await {
            // A tool's own error (`isError`) counts as failed too, not only a protocol error.
            Ok((_, msg)) if msg["result"].is_object() && msg["result"]["isError"] != true => {}
            _ => failed += 1,
        }
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let _ = server
        .http
        .delete(format!("{}/mcp", server.base))
        .header("mcp-session-id", &sid)
        .send()
        .await;
    (times, failed)
}

/// Episodes through the harness's REST API on phone `sim:{phone}`: start (setup runs), finish,
/// check, end, cycling through `tasks`. How many were checked, and what failed.
async fn episodes(
    server: Arc<Server>,
    phone: usize,
    tasks: Arc<Vec<String>>,
    n: usize,
    offset: usize,
) -> (usize, Vec<String>) {
    let post = reqwest::Method::POST;
    let mut checked = 0;
    let mut errors = Vec::new();
    for i in 0..n {
        let task = &tasks[(offset + i) % tasks.len()];
        let (status, started) = server
            .rest(
                post.clone(),
                &format!("/v1/tasks/{task}/start"),
                json!({"seed": i, "device": format!("sim:{phone}")}),
            )
            .await;
        let Some(id) = started["episode"].as_str().map(String::from) else {
            errors.push(format!("start {task}: {status} {started}"));
            continue;
        };
        for step in ["finish", "check", "end"] {
            let (status, body) = server
                .rest(
                    post.clone(),
                    &format!("/v1/episodes/{id}/{step}"),
                    json!({}),
                )
                .await;
            if status != 200 {
                errors.push(format!("{step} {task}: {status} {body}"));
                break;
            }
            if step == "check" {
                checked += 1;
            }
        }
    }
    (checked, errors)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(soak());
}

async fn soak() {
    let calls = env_usize("SOAK_CALLS", 10_000);
    let n_episodes = env_usize("SOAK_EPISODES", 1_000);
    let with_run = std::env::var("SOAK_RUN").map_or(true, |v| v != "0");
    let (catalog, errors) = Catalog::load_dir(&droidmcp::task::catalog::default_dir());
    assert!(errors.is_empty(), "task files must load: {errors:?}");
    let server = Arc::new(Server::start().await);
    let mut samples = vec![server.sample("started")];

    // Phase 1: MCP tool calls, in two rounds on the same phones: the second round shows whether
    // memory keeps growing once every phone's bounded memory (kept observations, step log) is full.
    let per_client = calls / CLIENTS / 2;
    let mut done = 0;
    for round in 1..=2 {
        let started = Instant::now();
        let mut set = tokio::task::JoinSet::new();
        for c in 0..CLIENTS {
            set.spawn(client(server.clone(), c + 1, per_client));
        }
        let (mut times, mut failed) = (Vec::new(), 0);
        while let Some(r) = set.join_next().await {
            let (t, f) = r.expect("client");
            times.extend(t);
            failed += f;
        }
        times.sort_by(f64::total_cmp);
        let secs = started.elapsed().as_secs_f64();
        println!(
            "MCP round {round}: {} tool calls from {CLIENTS} sessions in {secs:.0} s ({:.0} calls/s), p50 {:.0} ms, p99 {:.0} ms, {failed} failed",
            times.len(),
            times.len() as f64 / secs,
            percentile(&times, 0.5),
            percentile(&times, 0.99)
        );
        done += times.len();
        samples.push(server.sample(&format!("after {done} MCP calls")));
    }

    // Phase 2: REST episodes. Tasks whose setup waits on the phone's clock for half a minute or more
    // (`.live`) would measure waiting, not the server.
    let tasks: Arc<Vec<String>> = Arc::new(
        catalog
            .iter()
            .filter(|t| !t.id.ends_with(".live"))
            .map(|t| t.id.clone())
            .collect(),
    );
    let started = Instant::now();
    let per_worker = n_episodes / EPISODE_WORKERS;
    let mut set = tokio::task::JoinSet::new();
    for w in 0..EPISODE_WORKERS {
        set.spawn(episodes(
            server.clone(),
            CLIENTS + 1 + w,
            tasks.clone(),
            per_worker,
            w * per_worker,
        ));
    }
    let (mut checked, mut errors) = (0, Vec::new());
    while let Some(r) = set.join_next().await {
        let (c, e) = r.expect("episodes");
        checked += c;
        errors.extend(e);
    }
    println!(
        "REST: {checked} of {} episodes started, finished, checked and ended in {:.0} s; {} errors{}",
        per_worker * EPISODE_WORKERS,
        started.elapsed().as_secs_f64(),
        errors.len(),
        errors.first().map(|e| format!(" (first: {e})")).unwrap_or_default()
    );
    samples.push(server.sample(&format!("after {checked} REST episodes")));

    // Phase 3: the task suite as a REST run, played by the oracle agent.
    if with_run {
        let all: Vec<_> = catalog.iter().cloned().collect();
        let instances = plan::instances(&all, 1, 0, &[None]);
        let model = Model::start(oracle(&instances), Duration::ZERO).await;
        let started = Instant::now();
        let body = json!({"name": "soak", "seeds": 1, "run_seed": 0, "phones": 4,
            "agent": {"style": Style::T3a.name(), "model": "scripted", "base_url": model.base}});
        let (status, answer) = server.rest(reqwest::Method::POST, "/v1/runs", body).await;
        assert!(status < 300, "the run starts: {status} {answer}");
        let run = loop {
            tokio::time::sleep(Duration::from_secs(2)).await;
            let (_, run) = server
                .rest(reqwest::Method::GET, "/v1/runs/soak", Value::Null)
                .await;
            if run["status"] != "running" {
                break run;
            }
        };
        println!(
            "run: {} ({} of {} episodes, {} succeeded, {} errored) in {:.0} s",
            run["status"],
            run["done"],
            run["total"],
            run["success"],
            run["errored"],
            started.elapsed().as_secs_f64()
        );
        samples.push(server.sample(&format!("after a {}-task run", run["total"])));
    }

    println!("\n| when | VmRSS | peak RSS | fds | temp files | temp size | store |");
    println!("|---|---|---|---|---|---|---|");
    for s in &samples {
        println!(
            "| {} | {:.1} MB | {:.1} MB | {} | {} | {} KiB | {:.1} MB |",
            s.label,
            s.rss_kib as f64 / 1024.0,
            s.peak_kib as f64 / 1024.0,
            s.fds,
            s.temp_files,
            s.temp_kib,
            s.store_kib as f64 / 1024.0
        );
    }
}

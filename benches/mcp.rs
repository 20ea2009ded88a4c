//! Tool-call latency of the MCP server on the embedded phone, per transport: stdio framing (newline
//! JSON over an in-process pipe, the bytes a stdio client sends) and streamable HTTP on loopback.
//! Prints p50/p99 per tool (tap, tap+observe, screenshot, hierarchy) and the process's memory.
//!
//! Run: `cargo bench --bench mcp` (add `--profile dev` for a quick run on the dev build).

use std::sync::Arc;
use std::time::{Duration, Instant};

use droidmcp::mcp::http::{self, Guard};
use droidmcp::mcp::{self, ServerState};
use droidmcp::session::{DevicePool, Hub};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio_util::sync::CancellationToken;

fn state() -> Arc<ServerState> {
    ServerState::new(Hub::new(Arc::new(DevicePool::new(None, None))))
}

const INIT: &str = r#"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}"#;

/// The calls measured: (label, tool, arguments, repetitions).
fn workload() -> Vec<(&'static str, &'static str, Value, usize)> {
    vec![
        ("tap", "tap", json!({"x": 540, "y": 1700}), 200),
        (
            "tap+observe",
            "tap",
            json!({"x": 540, "y": 1700, "observe": true}),
            100,
        ),
        ("screenshot", "screenshot", json!({}), 50),
        ("hierarchy", "hierarchy", json!({}), 100),
    ]
}

#[async_trait::async_trait]
trait Transport {
    async fn call(&mut self, id: u64, tool: &str, args: &Value) -> Value;
}

struct Stdio {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
}

impl Stdio {
    async fn start() -> Stdio {
        let (client, server) = tokio::io::duplex(1 << 24);
        let (sr, sw) = tokio::io::split(server);
        tokio::spawn(mcp::serve_io(state(), sr, sw));
        let (cr, cw) = tokio::io::split(client);
        let mut s = Stdio {
            write: cw,
            lines: BufReader::new(cr).lines(),
        };
        s.send(&format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{INIT}}}"#
        ))
        .await;
        s.until(0).await;
        s.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        s
    }

    async fn send(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn until(&mut self, id: u64) -> Value {
        loop {
            let line = self.lines.next_line().await.unwrap().unwrap();
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == json!(id) {
                return v;
            }
        }
    }
}

#[async_trait::async_trait]
impl Transport for Stdio {
    async fn call(&mut self, id: u64, tool: &str, args: &Value) -> Value {
        let msg = json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":tool,"arguments":args}});
        self.send(&msg.to_string()).await;
        self.until(id).await
    }
}

struct Http {
    client: reqwest::Client,
    url: String,
    session: String,
}

impl Http {
    async fn start() -> (Http, CancellationToken) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let shutdown = CancellationToken::new();
        let app = http::router(
            state(),
            Guard::for_bind(addr, None, &[]).unwrap(),
            None,
            shutdown.clone(),
        );
        tokio::spawn(http::serve(listener, app, shutdown.clone()));
        let client = reqwest::Client::new();
        let url = format!("http://{addr}/mcp");
        let init: Value = serde_json::from_str(&format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{INIT}}}"#
        ))
        .unwrap();
        let resp = client
            .post(&url)
            .header("accept", "application/json, text/event-stream")
            .json(&init)
            .send()
            .await
            .unwrap();
        let session = resp.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_string();
        let _ = resp.text().await;
        let mut h = Http {
            client,
            url,
            session,
        };
        h.post(json!({"jsonrpc":"2.0","method":"notifications/initialized"}))
            .await;
        (h, shutdown)
    }

    async fn post(&mut self, body: Value) -> String {
        self.client
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &self.session)
            .json(&body)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }
}

#[async_trait::async_trait]
impl Transport for Http {
    async fn call(&mut self, id: u64, tool: &str, args: &Value) -> Value {
        let body = self
            .post(json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":tool,"arguments":args}}))
            .await;
        body.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|v| v["id"] == json!(id))
            .unwrap_or_else(|| panic!("no response for {id} in {body}"))
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .filter(|l| l.starts_with("VmRSS") || l.starts_with("VmHWM"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join(", ")
}

async fn run(name: &str, t: &mut dyn Transport) {
    let mut id = 1;
    // Warm up: open the session and the phone.
    let r = t.call(id, "screen", &json!({})).await;
    assert_eq!(r["result"]["isError"], false, "{r}");
    for (label, tool, args, n) in workload() {
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            id += 1;
            let started = Instant::now();
            let r = t.call(id, tool, &args).await;
            times.push(started.elapsed());
            assert_eq!(r["result"]["isError"], false, "{label}: {r}");
        }
        times.sort();
        println!(
            "{name:6} {label:12} n={n:4}  p50 {:7.2} ms  p99 {:7.2} ms",
            percentile(&times, 0.5).as_secs_f64() * 1e3,
            percentile(&times, 0.99).as_secs_f64() * 1e3,
        );
    }
}

fn main() {
    let rt = tokio::runtime::Runtime::new().expect("runtime starts");
    rt.block_on(async {
        println!("droidmcp MCP tool-call latency on the embedded phone (pixel6 1080x2400)");
        println!("memory at start: {}", memory());
        let mut stdio = Stdio::start().await;
        run("stdio", &mut stdio).await;
        let (mut http, shutdown) = Http::start().await;
        run("http", &mut http).await;
        shutdown.cancel();
        println!("memory at end: {}", memory());
    });
}

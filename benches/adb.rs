//! Per-command overhead of driving a device through the adb server: droidmcp's pooled host-protocol
//! client (`AdbShell`) against spawning `adb -s SERIAL shell CMD` per command (the mobile-mcp way), on
//! the same device (the embedded phone served by our adbd), with the in-process phone as the floor.
//!
//! Needs Debian's `adb` (`DROIDMCP_ADB` or `adb` on PATH). Run: `cargo bench --bench adb [-- RUNS]`.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use droidmcp::device::Shell;
use droidmcp::sim::{Phone, SimConfig};

#[path = "support/adb.rs"]
mod support;

/// Where the bench stores one screenshot so its transfer can be timed apart from rendering.
const SHOT: &str = "/sdcard/Pictures/bench-shot.png";

/// (label, command line, whether it goes through `exec:` for binary output)
const COMMANDS: [(&str, &str, bool); 5] = [
    ("echo", "echo hi", false),
    ("input tap", "input tap 540 1200", false),
    ("uiautomator dump", "uiautomator dump /dev/tty", false),
    ("screencap -p (exec)", "screencap -p", true),
    // The same PNG bytes without the render: the transport's share of a screenshot.
    (
        "cat screenshot (exec)",
        "cat /sdcard/Pictures/bench-shot.png",
        true,
    ),
];

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Stats {
    p50: Duration,
    p99: Duration,
}

impl Stats {
    fn of(mut times: Vec<Duration>) -> Stats {
        times.sort();
        Stats {
            p50: percentile(&times, 0.5),
            p99: percentile(&times, 0.99),
        }
    }
}

async fn time<Fut: std::future::Future<Output = ()>>(op: Fut) -> Duration {
    let start = Instant::now();
    op.await;
    start.elapsed()
}

#[tokio::main]
async fn main() {
    let runs: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(50);
    let adb_bin = std::env::var("DROIDMCP_ADB").unwrap_or_else(|_| "adb".into());
    if std::process::Command::new(&adb_bin)
        .arg("version")
        .output()
        .is_err()
    {
        eprintln!("bench adb: `{adb_bin}` not found; install it (apt-get install -y adb)");
        std::process::exit(1);
    }

    let phone = Phone::new(SimConfig::default()).expect("phone boots");
    let in_process: Arc<dyn Shell> = Arc::new(phone.clone());
    let shot = in_process
        .exec("screencap -p")
        .await
        .expect("screencap")
        .stdout;
    in_process
        .push(SHOT, &shot, 0o644)
        .await
        .expect("store the screenshot");
    println!("screenshot: {} KiB PNG", shot.len() / 1024);
    let support::OverAdb {
        serial,
        port,
        client,
    } = support::serve(&adb_bin, phone).await;

    println!("runs per cell: {runs}; device: embedded phone via our adbd at {serial}; adb server :{port}");
    println!(
        "{:<22} {:>16} {:>16} {:>16} {:>10}",
        "command", "in-process p50/p99", "AdbShell p50/p99", "adb spawn p50/p99", "overhead ×"
    );
    for (label, command, binary) in COMMANDS {
        let in_process_run = || {
            let shell = in_process.clone();
            async move {
                let _ = shell.exec(command).await;
            }
        };
        let ours_run = || {
            let client = client.clone();
            async move {
                if binary {
                    let _ = client.exec_out(command).await;
                } else {
                    let _ = client.exec(command).await;
                }
            }
        };
        let spawn_run = || {
            let (adb_bin, port, serial) = (adb_bin.clone(), port.clone(), serial.clone());
            async move {
                let verb = if binary { "exec-out" } else { "shell" };
                let _ = tokio::process::Command::new(&adb_bin)
                    .args(["-P", &port, "-s", &serial, verb, command])
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .output()
                    .await;
            }
        };
        // Warm-up, then the three paths interleaved run by run so machine load hits them alike.
        for _ in 0..3 {
            in_process_run().await;
            ours_run().await;
            spawn_run().await;
        }
        let (mut floor, mut ours, mut spawned) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            floor.push(time(in_process_run()).await);
            ours.push(time(ours_run()).await);
            spawned.push(time(spawn_run()).await);
        }
        let (floor, ours, spawned) = (Stats::of(floor), Stats::of(ours), Stats::of(spawned));
        let overhead = |s: &Stats| (ms(s.p50) - ms(floor.p50)).max(0.001);
        println!(
            "{:<22} {:>7.2}/{:<8.2} {:>7.2}/{:<8.2} {:>7.2}/{:<8.2} {:>9.1}",
            label,
            ms(floor.p50),
            ms(floor.p99),
            ms(ours.p50),
            ms(ours.p99),
            ms(spawned.p50),
            ms(spawned.p99),
            overhead(&spawned) / overhead(&ours),
        );
    }
    println!("overhead × = (adb spawn p50 − in-process p50) / (AdbShell p50 − in-process p50); times in ms");

    let _ = std::process::Command::new(&adb_bin)
        .args(["-P", &port, "kill-server"])
        .output();
}

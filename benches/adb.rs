//! Per-command overhead of driving a device through the adb server: droidmcp's pooled host-protocol
//! client (`AdbShell`) against spawning `adb -s SERIAL shell CMD` per command (the mobile-mcp way), on
//! the same device (the embedded phone served by our adbd), with the in-process phone as the floor.
//!
//! Needs Debian's `adb` (`DROIDMCP_ADB` or `adb` on PATH). Run: `cargo bench --bench adb [-- RUNS]`.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use droidmcp::adb::{self, AdbServer, AdbShell, Identity};
use droidmcp::device::Shell;
use droidmcp::sim::{Phone, SimConfig};

/// (label, command line, whether it goes through `exec:` for binary output)
const COMMANDS: [(&str, &str, bool); 4] = [
    ("echo", "echo hi", false),
    ("input tap", "input tap 540 1200", false),
    ("uiautomator dump", "uiautomator dump /dev/tty", false),
    ("screencap -p (exec)", "screencap -p", true),
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

async fn measure<F, Fut>(runs: usize, mut op: F) -> Stats
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    // Warm-up: first connections, page cache, lazy phone state.
    for _ in 0..3 {
        op().await;
    }
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        op().await;
        times.push(start.elapsed());
    }
    times.sort();
    Stats {
        p50: percentile(&times, 0.5),
        p99: percentile(&times, 0.99),
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let serial = listener.local_addr().expect("addr").to_string();
    tokio::spawn(adb::serve(
        listener,
        Arc::new(phone),
        Identity::new("oriole", "Pixel 6", "oriole"),
        std::future::pending(),
    ));

    let port = free_port().to_string();
    let server_addr = format!("127.0.0.1:{port}");
    let started = std::process::Command::new(&adb_bin)
        .args(["-P", &port, "start-server"])
        .env("ADB_EMU", "0")
        .output()
        .expect("adb start-server");
    assert!(
        started.status.success(),
        "adb start-server failed: {started:?}"
    );
    let server = AdbServer::new(&server_addr).expect("address");
    server.connect_device(&serial).await.expect("host:connect");
    let mut ready = false;
    for _ in 0..100 {
        let devices = server.devices().await.expect("devices");
        if devices
            .iter()
            .any(|d| d.serial == serial && d.state == "device")
        {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(ready, "{serial} never came online");
    let client = Arc::new(
        AdbShell::new(&server_addr, &serial)
            .await
            .expect("AdbShell"),
    );

    println!("runs per cell: {runs}; device: embedded phone via our adbd at {serial}; adb server :{port}");
    println!(
        "{:<22} {:>16} {:>16} {:>16} {:>10}",
        "command", "in-process p50/p99", "AdbShell p50/p99", "adb spawn p50/p99", "overhead ×"
    );
    for (label, command, binary) in COMMANDS {
        let floor = measure(runs, || {
            let shell = in_process.clone();
            async move {
                let _ = shell.exec(command).await;
            }
        })
        .await;
        let ours = measure(runs, || {
            let client = client.clone();
            async move {
                if binary {
                    let _ = client.exec_out(command).await;
                } else {
                    let _ = client.exec(command).await;
                }
            }
        })
        .await;
        let spawned = measure(runs, || {
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
        })
        .await;
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

//! A screenshot of the same phone by each path a client has: the emulator gRPC controller's
//! `getScreenshot` (what android_env calls every step: full-size RGBA8888; also PNG and a half-size
//! RGB888), against adb's `screencap` through droidmcp's pooled client (`exec:` raw frame and `-p`
//! PNG) and through a spawned `adb exec-out screencap -p`, with the in-process raw frame as the floor.
//! The paths run interleaved, run by run, so machine load hits them alike.
//!
//! Needs Debian's `adb` (`DROIDMCP_ADB` or `adb` on PATH).
//! Run: `cargo bench --bench grpc --profile dev [-- RUNS]`.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use droidmcp::device::Shell;
use droidmcp::grpc::proto::control::{
    emulator_controller_client::EmulatorControllerClient, image_format::ImgFormat, ImageFormat,
};
use droidmcp::sim::{Phone, SimConfig};

#[path = "support/adb.rs"]
mod support;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn p(sorted: &[Duration], q: f64) -> Duration {
    sorted[(((sorted.len() as f64 - 1.0) * q).round() as usize).min(sorted.len() - 1)]
}

/// One way to take a screenshot; returns the bytes it moved.
type Path = Box<dyn Fn() -> futures::future::BoxFuture<'static, usize>>;

#[tokio::main]
async fn main() {
    let runs: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(30);
    let adb_bin = std::env::var("DROIDMCP_ADB").unwrap_or_else(|_| "adb".into());
    if std::process::Command::new(&adb_bin)
        .arg("version")
        .output()
        .is_err()
    {
        eprintln!("bench grpc: `{adb_bin}` not found; install it (apt-get install -y adb)");
        std::process::exit(1);
    }

    let phone = Phone::new(SimConfig::default()).expect("phone boots");
    let in_process: Arc<dyn Shell> = Arc::new(phone.clone());

    // The gRPC endpoint and the adbd serve the same phone.
    let grpc_listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let grpc_addr = grpc_listener.local_addr().expect("addr");
    tokio::spawn(droidmcp::grpc::serve(
        grpc_listener,
        in_process.clone(),
        std::future::pending(),
    ));
    let grpc = EmulatorControllerClient::connect(format!("http://{grpc_addr}"))
        .await
        .expect("gRPC connects")
        .max_decoding_message_size(usize::MAX);

    let support::OverAdb {
        serial,
        port,
        client,
    } = support::serve(&adb_bin, phone).await;

    let shot = |format: ImgFormat, width: u32| -> Path {
        let grpc = grpc.clone();
        Box::new(move || {
            let mut grpc = grpc.clone();
            Box::pin(async move {
                let request = ImageFormat {
                    format: format as i32,
                    width,
                    ..ImageFormat::default()
                };
                grpc.get_screenshot(request)
                    .await
                    .expect("getScreenshot")
                    .into_inner()
                    .image
                    .len()
            })
        })
    };
    let exec_out = |command: &'static str| -> Path {
        let client = client.clone();
        Box::new(move || {
            let client = client.clone();
            Box::pin(async move { client.exec_out(command).await.expect("exec-out").len() })
        })
    };
    let floor: Path = {
        let shell = in_process.clone();
        Box::new(move || {
            let shell = shell.clone();
            Box::pin(async move {
                shell
                    .exec("screencap")
                    .await
                    .expect("screencap")
                    .stdout
                    .len()
            })
        })
    };
    let spawned: Path = {
        let (adb_bin, port, serial) = (adb_bin.clone(), port.clone(), serial.clone());
        Box::new(move || {
            let (adb_bin, port, serial) = (adb_bin.clone(), port.clone(), serial.clone());
            Box::pin(async move {
                tokio::process::Command::new(&adb_bin)
                    .args(["-P", &port, "-s", &serial, "exec-out", "screencap", "-p"])
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .output()
                    .await
                    .expect("adb exec-out")
                    .stdout
                    .len()
            })
        })
    };
    let paths: Vec<(&str, Path)> = vec![
        ("in-process screencap (raw)", floor),
        ("gRPC getScreenshot RGBA8888", shot(ImgFormat::Rgba8888, 0)),
        ("gRPC getScreenshot RGB888 ½", shot(ImgFormat::Rgb888, 540)),
        ("gRPC getScreenshot PNG", shot(ImgFormat::Png, 0)),
        ("AdbShell exec:screencap (raw)", exec_out("screencap")),
        ("AdbShell exec:screencap -p", exec_out("screencap -p")),
        ("adb exec-out screencap -p", spawned),
    ];

    for (_, path) in &paths {
        path().await;
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); paths.len()];
    let mut sizes = vec![0; paths.len()];
    for _ in 0..runs {
        for (i, (_, path)) in paths.iter().enumerate() {
            let start = Instant::now();
            sizes[i] = path().await;
            times[i].push(start.elapsed());
        }
    }
    println!("runs per path: {runs}; the embedded phone (Pixel 6, 1080×2400), gRPC {grpc_addr}, adbd {serial}");
    println!(
        "{:<32} {:>9} {:>9} {:>10}",
        "path", "p50 ms", "p90 ms", "bytes"
    );
    for (i, (label, _)) in paths.iter().enumerate() {
        times[i].sort();
        println!(
            "{:<32} {:>9.1} {:>9.1} {:>10}",
            label,
            ms(p(&times[i], 0.5)),
            ms(p(&times[i], 0.9)),
            sizes[i]
        );
    }
    let _ = std::process::Command::new(&adb_bin)
        .args(["-P", &port, "kill-server"])
        .output();
}

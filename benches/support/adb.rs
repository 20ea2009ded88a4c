//! The embedded phone served by our adbd behind a private Debian adb server (its own port, no
//! emulator probing), reached through droidmcp's `AdbShell`: the adb side of the benches that time
//! paths to the same phone.

use std::sync::Arc;
use std::time::Duration;

use droidmcp::adb::{self, AdbServer, AdbShell, Identity};
use droidmcp::sim::Phone;

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// The phone over adb: its serial (our adbd's address), the adb server's port, and a client.
pub struct OverAdb {
    pub serial: String,
    pub port: String,
    pub client: Arc<AdbShell>,
}

/// Serves `phone` on a loopback adbd, starts an adb server on a free port with `adb_bin`, connects
/// it to the adbd and waits until the phone is online.
pub async fn serve(adb_bin: &str, phone: Phone) -> OverAdb {
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
    let started = std::process::Command::new(adb_bin)
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
    OverAdb {
        serial,
        port,
        client,
    }
}

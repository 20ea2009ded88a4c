//! `droidmcp devices`: the embedded phone plus every device the adb server knows.

use super::Global;
use crate::adb::{server_address, AdbServer, DeviceEntry};
use crate::sim::SimConfig;

/// No options beyond the global ones (`--adb-server` picks the adb server asked).
#[derive(Debug, clap::Args)]
pub struct Args {}

fn row(serial: &str, state: &str, model: &str, product: &str, transport: &str) -> String {
    format!("{serial:<24} {state:<13} {model:<16} {product:<14} {transport}")
}

fn entry_row(device: &DeviceEntry) -> String {
    row(
        &device.serial,
        &device.state,
        device.model.as_deref().unwrap_or("-"),
        device.product.as_deref().unwrap_or("-"),
        device.transport(),
    )
}

pub async fn run(global: &Global, _args: Args) -> anyhow::Result<i32> {
    let addr = server_address(global.adb_server())?;
    println!(
        "{}",
        row("SERIAL", "STATE", "MODEL", "PRODUCT", "TRANSPORT")
    );
    let profile = SimConfig::default().profile;
    let model = profile.model.replace(' ', "_");
    println!("{}", row("sim", "device", &model, profile.name, "embedded"));
    match AdbServer::new(&addr)?.devices().await {
        Ok(devices) => {
            for device in &devices {
                println!("{}", entry_row(device));
            }
            Ok(0)
        }
        // The embedded phone is listed and usable, so no adb server is a note, not a failure.
        Err(e) => {
            eprintln!("droidmcp: no adb devices listed: {e}");
            Ok(0)
        }
    }
}

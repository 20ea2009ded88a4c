//! The devices a run asks for, as [`crate::fleet`] sources: `--phones N` embedded phones,
//! `--connect` endpoints, `--provider` farms, then every `--adb-server`'s devices (or the home
//! server's `--adb-device` serials). That order matters: a phone connected through a server is
//! also in its listing, and the fleet keeps the first source's lease of it.

use std::sync::Arc;
use std::time::Duration;

use super::spec::{FleetSpec, RunSpec};
use super::RunError;
use crate::fleet::adb_server::AdbServerSource;
use crate::fleet::connect::Connect;
use crate::fleet::embedded::Embedded;
use crate::fleet::provider::Provider;
use crate::fleet::{FleetConfig, Source};

/// The sources of `spec`'s devices; `home` is the adb server endpoints are connected through
/// (default: `ADB_SERVER_SOCKET`, else 127.0.0.1:5037).
pub fn sources(spec: &RunSpec, home: Option<&str>) -> Result<Vec<Arc<dyn Source>>, RunError> {
    let fleet = &spec.fleet;
    let device = |e: crate::fleet::FleetError| RunError::Device(e.to_string());
    let mut sources: Vec<Arc<dyn Source>> = Vec::new();
    if spec.phones > 0 {
        sources.push(Arc::new(Embedded::new(spec.phones)));
    }
    let remote = !fleet.connect.is_empty()
        || !fleet.providers.is_empty()
        || !fleet.adb_servers.is_empty()
        || !spec.devices.is_empty();
    if !remote {
        return Ok(sources);
    }
    let home =
        droidmcp_adb::host::server_address(home).map_err(|e| RunError::Device(e.to_string()))?;
    if !fleet.connect.is_empty() {
        sources.push(Arc::new(
            Connect::new(&home, fleet.connect.clone()).map_err(device)?,
        ));
    }
    for provider in &fleet.providers {
        sources.push(Arc::new(
            Provider::new(provider.clone(), &home).map_err(device)?,
        ));
    }
    let only = (!spec.devices.is_empty()).then(|| spec.devices.clone());
    if fleet.adb_servers.is_empty() {
        if only.is_some() {
            sources.push(Arc::new(AdbServerSource::new(&home, only).map_err(device)?));
        }
    } else {
        for server in &fleet.adb_servers {
            sources.push(Arc::new(
                AdbServerSource::new(server, only.clone()).map_err(device)?,
            ));
        }
    }
    Ok(sources)
}

/// How the run holds its leases.
pub fn held_as(fleet: &FleetSpec) -> FleetConfig {
    FleetConfig {
        ttl: Duration::from_secs(fleet.lease_ttl_s.max(1)),
        max_failures: fleet.max_device_failures.max(1),
    }
}

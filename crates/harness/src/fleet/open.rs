//! Opening a device by spec: the one place that knows every kind of phone (the embedded phone in a
//! device environment, or a serial behind an adb server), above both, so `device` stays the seam
//! and knows none of them.

use std::sync::Arc;

use droidmcp_device::{sim_seed, DeviceError, Shell};
use droidmcp_sim::ClockMode;

/// Opens a device by spec: `sim`, `sim:SEED` or nothing for the embedded phone; anything else is an
/// adb serial reached through the adb server at `adb_server` (host:port; default from
/// `ADB_SERVER_SOCKET`, else 127.0.0.1:5037).
pub async fn open(
    spec: Option<&str>,
    adb_server: Option<&str>,
) -> Result<Arc<dyn Shell>, DeviceError> {
    open_with_clock(spec, adb_server, ClockMode::Virtual).await
}

/// [`open`], choosing the embedded phone's clock: real time for a phone people and agents use live
/// (`serve`, the manual CLI), virtual for replays and tests. Real devices keep their own clock.
pub async fn open_with_clock(
    spec: Option<&str>,
    adb_server: Option<&str>,
    clock: ClockMode,
) -> Result<Arc<dyn Shell>, DeviceError> {
    open_configured(spec, adb_server, clock, true).await
}

/// [`open_with_clock`], saying whether a missing local adb server may be started (`start_adb`):
/// a server opening devices for its clients passes `false`.
pub async fn open_configured(
    spec: Option<&str>,
    adb_server: Option<&str>,
    clock: ClockMode,
    start_adb: bool,
) -> Result<Arc<dyn Shell>, DeviceError> {
    let spec = spec
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("sim");
    let unknown = |reason: String| DeviceError::UnknownDevice {
        spec: spec.to_string(),
        reason,
    };
    // `sim:SEED@ENV` boots the embedded phone in a device environment (`sim@105`, `sim:3@random:7`).
    let (device_part, env) = droidmcp_env::split_spec(spec);
    if let Some(seed) = sim_seed(device_part) {
        let env = match env {
            Some(name) => {
                droidmcp_env::Environment::resolve(name).map_err(|e| unknown(e.to_string()))?
            }
            None => droidmcp_env::Environment::default(),
        };
        let config = env.sim_config(seed.map_err(unknown)?, clock);
        let phone = droidmcp_sim::Phone::new(config).map_err(|e| unknown(e.to_string()))?;
        return Ok(Arc::new(phone));
    }
    if env.is_some() {
        return Err(unknown(
            "an environment (`@ENV`) can only be given to the embedded phone (`sim@ENV`)".into(),
        ));
    }
    let addr =
        droidmcp_adb::host::server_address(adb_server).map_err(|e| unknown(e.to_string()))?;
    let mut server = droidmcp_adb::AdbServer::new(&addr).map_err(|e| unknown(e.to_string()))?;
    if !start_adb {
        server = server.never_start();
    }
    let shell = droidmcp_adb::AdbShell::with_server(server, spec).await?;
    Ok(Arc::new(shell))
}

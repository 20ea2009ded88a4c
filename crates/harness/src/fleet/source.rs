//! The seam every device source implements, and what a lease hands out.

use std::sync::Arc;
use std::time::Duration;

use super::FleetError;
use droidmcp_device::{DeviceError, Shell};

/// How to reach a leased device.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Endpoint {
    /// The embedded phone of slot N in this process (seed N, serial `sim-N`).
    Embedded { slot: u32 },
    /// A device an adb server lists (`server` is `host:port`).
    Adb { server: String, serial: String },
}

impl Endpoint {
    /// The device's name in logs, the store and the run report: `sim:3`, or
    /// `SERVER/SERIAL` (`10.0.0.2:5037/emulator-5554`), so two hosts' `emulator-5554` differ.
    pub fn name(&self) -> String {
        match self {
            Endpoint::Embedded { slot } => format!("sim:{slot}"),
            Endpoint::Adb { server, serial } => format!("{server}/{serial}"),
        }
    }

    /// The device spec a session pool keys the device under.
    pub fn spec(&self) -> String {
        match self {
            Endpoint::Embedded { slot } => format!("sim:{slot}"),
            Endpoint::Adb { serial, .. } => serial.clone(),
        }
    }

    /// Opens the device's shell; an embedded phone boots in `env` (a real device is in whatever
    /// environment it is, so naming one for it is refused, as `fleet::open` refuses it).
    ///
    /// An embedded phone keeps real time, as a served one does: an agent in a run waits in real
    /// seconds, so a stopwatch, a timer or "in 5 minutes" must move with them, as on the emulator
    /// the same run could lease. Tasks that need a date set it (`set_time`).
    pub async fn open(&self, env: Option<&str>) -> Result<Arc<dyn Shell>, DeviceError> {
        let spec = match env {
            Some(env) => droidmcp_env::with_env(&self.spec(), env),
            None => self.spec(),
        };
        let server = match self {
            Endpoint::Embedded { .. } => None,
            Endpoint::Adb { server, .. } => Some(server.as_str()),
        };
        crate::fleet::open_with_clock(Some(&spec), server, droidmcp_sim::ClockMode::Real).await
    }
}

/// A lease a source granted: which of its devices, how to reach it, and the source's own handle
/// for it (a farm's lease id, a container name) that renewing and releasing need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The device's id within its source.
    pub id: String,
    pub endpoint: Endpoint,
    pub handle: Option<String>,
}

/// A place devices come from: list, lease for a time-to-live, renew, release.
#[async_trait::async_trait]
pub trait Source: Send + Sync {
    /// What the run report calls the source (`embedded`, `adb server 10.0.0.2:5037`, `provider stf`).
    fn name(&self) -> String;

    /// The ids of the devices this source could lease now (those it already granted left out).
    async fn list(&self) -> Result<Vec<String>, FleetError>;

    /// Takes device `id` for `ttl`; the grant says how to reach it.
    async fn lease(&self, id: &str, ttl: Duration) -> Result<Grant, FleetError>;

    /// Renews `grant` for another `ttl`; an error means the device is gone (or the farm took it
    /// back), and its episode cannot go on.
    async fn heartbeat(&self, grant: &Grant, ttl: Duration) -> Result<(), FleetError>;

    /// Gives the device back (best effort: a source that cannot release says why).
    async fn release(&self, grant: &Grant) -> Result<(), FleetError>;
}

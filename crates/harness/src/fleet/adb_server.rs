//! The devices one adb server lists, on this host or another (`--adb-server HOST:PORT`, repeatable;
//! a remote host's server listens beyond loopback with `adb -a start-server` or
//! `adb -L tcp:0.0.0.0:5037 server`, and adb keys are that server's business: a device it lists as
//! `unauthorized` is simply not offered). A lease here is the runner's own bookkeeping: the server
//! has no notion of one, so renewing it is asking whether the server still lists the device ready.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{Endpoint, FleetError, Grant, Source};
use droidmcp_adb::AdbServer;

pub struct AdbServerSource {
    server: String,
    /// Only these serials (`--adb-device`); every ready device when `None`.
    only: Option<Vec<String>>,
    granted: Mutex<BTreeSet<String>>,
}

impl AdbServerSource {
    pub fn new(server: &str, only: Option<Vec<String>>) -> Result<AdbServerSource, FleetError> {
        Ok(AdbServerSource {
            server: AdbServer::new(server)?.addr().to_string(),
            only,
            granted: Mutex::new(BTreeSet::new()),
        })
    }

    fn granted(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.granted.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Whether `server` lists `serial` ready for commands (`device`, not `offline` or `unauthorized`).
pub(super) async fn ready(server: &str, serial: &str) -> Result<(), FleetError> {
    let listed = AdbServer::new(server)?.devices().await?;
    match listed.iter().find(|d| d.serial == serial) {
        Some(d) if d.state == "device" => Ok(()),
        Some(d) => Err(FleetError::Source {
            source_name: format!("adb server {server}"),
            reason: format!("{serial} is {}", d.state),
        }),
        None => Err(FleetError::Source {
            source_name: format!("adb server {server}"),
            reason: format!("{serial} is no longer listed"),
        }),
    }
}

/// Waits up to `limit` for `serial` to be ready on `server` (an `adb connect`ed device goes through
/// `offline` and `authorizing` first).
pub(super) async fn wait_ready(
    server: &str,
    serial: &str,
    limit: Duration,
) -> Result<(), FleetError> {
    let deadline = Instant::now() + limit;
    loop {
        match ready(server, serial).await {
            Ok(()) => return Ok(()),
            Err(e) if Instant::now() >= deadline => return Err(e),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

#[async_trait::async_trait]
impl Source for AdbServerSource {
    fn name(&self) -> String {
        format!("adb server {}", self.server)
    }

    async fn list(&self) -> Result<Vec<String>, FleetError> {
        let listed = AdbServer::new(&self.server)?.devices().await?;
        let granted = self.granted();
        Ok(listed
            .into_iter()
            .filter(|d| d.state == "device" && !granted.contains(&d.serial))
            .filter(|d| {
                self.only
                    .as_ref()
                    .is_none_or(|only| only.contains(&d.serial))
            })
            .map(|d| d.serial)
            .collect())
    }

    async fn lease(&self, id: &str, _ttl: Duration) -> Result<Grant, FleetError> {
        ready(&self.server, id).await?;
        self.granted().insert(id.to_string());
        Ok(Grant {
            id: id.to_string(),
            endpoint: Endpoint::Adb {
                server: self.server.clone(),
                serial: id.to_string(),
            },
            handle: None,
        })
    }

    async fn heartbeat(&self, grant: &Grant, _ttl: Duration) -> Result<(), FleetError> {
        ready(&self.server, &grant.id).await
    }

    async fn release(&self, grant: &Grant) -> Result<(), FleetError> {
        self.granted().remove(&grant.id);
        Ok(())
    }
}

//! Static `host:port` endpoints (`--connect HOST:PORT`): a phone in `adb tcpip` mode, an emulator
//! container's adbd (docker-android, `adb connect host:5555`), `droidmcp sim --adb`. Each is
//! `adb connect`ed through the home adb server when leased and disconnected when released.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

use super::adb_server::{ready, wait_ready};
use super::{Endpoint, FleetError, Grant, Source};
use droidmcp_adb::AdbServer;

/// How long an `adb connect`ed device may take to be listed ready.
pub(super) const CONNECT_WAIT: Duration = Duration::from_secs(15);

pub struct Connect {
    /// The adb server the endpoints are connected through.
    home: String,
    targets: Vec<String>,
    granted: Mutex<BTreeSet<String>>,
}

impl Connect {
    pub fn new(home: &str, targets: Vec<String>) -> Result<Connect, FleetError> {
        Ok(Connect {
            home: AdbServer::new(home)?.addr().to_string(),
            targets,
            granted: Mutex::new(BTreeSet::new()),
        })
    }

    fn granted(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.granted.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// `adb connect target` through `server`, waiting until the device is ready.
pub(super) async fn connect(server: &str, target: &str) -> Result<Endpoint, FleetError> {
    AdbServer::new(server)?.connect_device(target).await?;
    wait_ready(server, target, CONNECT_WAIT).await?;
    Ok(Endpoint::Adb {
        server: server.to_string(),
        serial: target.to_string(),
    })
}

#[async_trait::async_trait]
impl Source for Connect {
    fn name(&self) -> String {
        format!("adb connect via {}", self.home)
    }

    async fn list(&self) -> Result<Vec<String>, FleetError> {
        let granted = self.granted();
        Ok(self
            .targets
            .iter()
            .filter(|t| !granted.contains(*t))
            .cloned()
            .collect())
    }

    async fn lease(&self, id: &str, _ttl: Duration) -> Result<Grant, FleetError> {
        let endpoint = connect(&self.home, id).await?;
        self.granted().insert(id.to_string());
        Ok(Grant {
            id: id.to_string(),
            endpoint,
            handle: None,
        })
    }

    async fn heartbeat(&self, grant: &Grant, _ttl: Duration) -> Result<(), FleetError> {
        ready(&self.home, &grant.id).await
    }

    async fn release(&self, grant: &Grant) -> Result<(), FleetError> {
        self.granted().remove(&grant.id);
        AdbServer::new(&self.home)?
            .disconnect_device(&grant.id)
            .await?;
        Ok(())
    }
}

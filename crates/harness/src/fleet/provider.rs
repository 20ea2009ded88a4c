//! A farm behind commands (`--provider FILE`): the user's `lease` command takes a device and prints
//! its endpoint, `release` gives it back, an optional `renew` extends the lease. This is how
//! DeviceFarmer/STF (REST: lease with a timeout, `remoteConnect`), Genymotion SaaS (`gmsaas
//! instances start` / `adbconnect`) and docker-android (`docker run`, then `adb connect
//! host:5555`) plug in without code here; docs/fleet.md has a recipe for each.
//!
//! The file (TOML):
//!
//! ```toml
//! name = "stf"
//! devices = 4                 # how many it may hold at once
//! lease = "scripts/stf-lease {ttl_s}"
//! release = "scripts/stf-release {handle}"
//! renew = "scripts/stf-renew {handle} {ttl_s}"   # optional
//! timeout_s = 120             # optional: the longest one command may take (default 120)
//! ```
//!
//! `lease` prints, on its last line, the endpoint and optionally a handle for the other commands:
//! `HOST:PORT [HANDLE]` (`adb connect`ed through the home adb server) or
//! `adb://SERVER_HOST:PORT/SERIAL [HANDLE]` (a device that farm's own adb server lists). Commands
//! run under `sh -c`; `{ttl_s}`, `{endpoint}` and `{handle}` are replaced by shell-quoted values,
//! which are also in `DROIDMCP_TTL_S`, `DROIDMCP_ENDPOINT` and `DROIDMCP_HANDLE`.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use serde::Deserialize;

use super::adb_server::{ready, wait_ready};
use super::connect::{connect, CONNECT_WAIT};
use super::{Endpoint, FleetError, Grant, Source};
use droidmcp_adb::AdbServer;
use droidmcp_device::command::sh_quote;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    pub name: String,
    pub devices: u32,
    pub lease: String,
    pub release: String,
    #[serde(default)]
    pub renew: Option<String>,
    #[serde(default = "default_timeout")]
    pub timeout_s: u64,
}

fn default_timeout() -> u64 {
    120
}

impl ProviderConfig {
    pub fn load(path: &Path) -> Result<ProviderConfig, FleetError> {
        let bad = |reason: String| FleetError::Config {
            path: path.display().to_string(),
            reason,
        };
        let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        let config: ProviderConfig = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
        if config.devices == 0 || config.lease.trim().is_empty() || config.release.trim().is_empty()
        {
            return Err(bad(
                "needs `devices` (at least 1) and the `lease` and `release` commands".into(),
            ));
        }
        Ok(config)
    }
}

/// Reads a lease command's last line: the endpoint and the optional handle.
pub fn parse_lease_output(stdout: &str) -> Option<(Target, Option<String>)> {
    let line = stdout.lines().rev().find(|l| !l.trim().is_empty())?;
    let mut words = line.split_whitespace();
    let endpoint = words.next()?;
    let handle = words.next().map(str::to_string);
    let target = match endpoint.strip_prefix("adb://") {
        Some(rest) => {
            let (server, serial) = rest.split_once('/')?;
            (!server.is_empty() && !serial.is_empty()).then(|| Target::OnServer {
                server: server.to_string(),
                serial: serial.to_string(),
            })?
        }
        None => {
            let (host, port) = endpoint.rsplit_once(':')?;
            (!host.is_empty() && port.parse::<u16>().is_ok())
                .then(|| Target::Connect(endpoint.to_string()))?
        }
    };
    Some((target, handle))
}

/// Where a leased device is, as the lease command printed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `HOST:PORT`, to `adb connect`.
    Connect(String),
    /// A serial on a farm's adb server.
    OnServer { server: String, serial: String },
}

pub struct Provider {
    config: ProviderConfig,
    /// The adb server `HOST:PORT` endpoints are connected through.
    home: String,
    granted: Mutex<BTreeSet<String>>,
}

impl Provider {
    pub fn new(config: ProviderConfig, home: &str) -> Result<Provider, FleetError> {
        Ok(Provider {
            config,
            home: AdbServer::new(home)?.addr().to_string(),
            granted: Mutex::new(BTreeSet::new()),
        })
    }

    fn granted(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.granted.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs one of the provider's commands with its placeholders filled; its stdout on success.
    async fn run(
        &self,
        template: &str,
        ttl: Duration,
        endpoint: &str,
        handle: &str,
    ) -> Result<String, FleetError> {
        let ttl_s = ttl.as_secs().max(1).to_string();
        let command = template
            .replace("{ttl_s}", &sh_quote(&ttl_s))
            .replace("{endpoint}", &sh_quote(endpoint))
            .replace("{handle}", &sh_quote(handle));
        let failed = |what: String| FleetError::Command {
            name: self.config.name.clone(),
            command: command.clone(),
            what,
        };
        let child = tokio::process::Command::new("sh")
            .arg("-c")
            .arg(&command)
            .env("DROIDMCP_TTL_S", &ttl_s)
            .env("DROIDMCP_ENDPOINT", endpoint)
            .env("DROIDMCP_HANDLE", handle)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .output();
        let limit = Duration::from_secs(self.config.timeout_s.max(1));
        let out = tokio::time::timeout(limit, child)
            .await
            .map_err(|_| failed(format!("took longer than {}s", limit.as_secs())))?
            .map_err(|e| failed(format!("could not start: {e}")))?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
            return Err(failed(format!(
                "exited with {}: {}",
                out.status,
                tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
            )));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// The endpoint (as the lease command printed it: the grant's id) and handle of a grant.
fn words(grant: &Grant) -> (&str, &str) {
    (&grant.id, grant.handle.as_deref().unwrap_or(""))
}

#[async_trait::async_trait]
impl Source for Provider {
    fn name(&self) -> String {
        format!("provider {}", self.config.name)
    }

    /// Free slots, `name#1`…: the farm decides which device a lease gets.
    async fn list(&self) -> Result<Vec<String>, FleetError> {
        let granted = self.granted();
        let held = granted.len() as u32;
        Ok((1..=self.config.devices.saturating_sub(held))
            .map(|n| format!("{}#{}", self.config.name, n + held))
            .collect())
    }

    async fn lease(&self, _slot: &str, ttl: Duration) -> Result<Grant, FleetError> {
        let stdout = self.run(&self.config.lease, ttl, "", "").await?;
        let Some((target, handle)) = parse_lease_output(&stdout) else {
            return Err(FleetError::Command {
                name: self.config.name.clone(),
                command: self.config.lease.clone(),
                what: format!(
                    "printed no endpoint (HOST:PORT or adb://SERVER/SERIAL on its last line): {:?}",
                    stdout.lines().last().unwrap_or("")
                ),
            });
        };
        let (id, endpoint) = match target {
            Target::Connect(addr) => (addr.clone(), connect(&self.home, &addr).await),
            Target::OnServer { server, serial } => {
                let id = format!("adb://{server}/{serial}");
                let ready = wait_ready(&server, &serial, CONNECT_WAIT).await;
                (id, ready.map(|()| Endpoint::Adb { server, serial }))
            }
        };
        let endpoint = match endpoint {
            Ok(e) => e,
            Err(e) => {
                // The farm leased a device we cannot reach: give it back at once.
                let handle = handle.as_deref().unwrap_or("");
                let _ = self.run(&self.config.release, ttl, &id, handle).await;
                return Err(e);
            }
        };
        self.granted().insert(id.clone());
        Ok(Grant {
            id,
            endpoint,
            handle,
        })
    }

    async fn heartbeat(&self, grant: &Grant, ttl: Duration) -> Result<(), FleetError> {
        if let Endpoint::Adb { server, serial } = &grant.endpoint {
            ready(server, serial).await?;
        }
        if let Some(renew) = &self.config.renew {
            let (endpoint, handle) = words(grant);
            self.run(renew, ttl, endpoint, handle).await?;
        }
        Ok(())
    }

    async fn release(&self, grant: &Grant) -> Result<(), FleetError> {
        self.granted().remove(&grant.id);
        if let Endpoint::Adb { server, serial } = &grant.endpoint {
            if !grant.id.starts_with("adb://") {
                let _ = AdbServer::new(server)?.disconnect_device(serial).await;
            }
        }
        let (endpoint, handle) = words(grant);
        self.run(&self.config.release, Duration::ZERO, endpoint, handle)
            .await
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_prints_an_endpoint_and_maybe_a_handle_on_its_last_line() {
        assert_eq!(
            parse_lease_output("starting…\n10.0.0.5:5555 7f3a\n\n"),
            Some((Target::Connect("10.0.0.5:5555".into()), Some("7f3a".into())))
        );
        assert_eq!(
            parse_lease_output("adb://10.0.0.9:5037/emulator-5554"),
            Some((
                Target::OnServer {
                    server: "10.0.0.9:5037".into(),
                    serial: "emulator-5554".into()
                },
                None
            ))
        );
        for bad in ["", "ok", "host:notaport", "adb://host:5037/", ":5555"] {
            assert_eq!(parse_lease_output(bad), None, "{bad:?}");
        }
    }
}

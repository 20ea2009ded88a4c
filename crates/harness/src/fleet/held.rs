//! Holding a run's devices: every source's devices leased, each lease kept alive by heartbeats, a
//! lost or failing device set aside and replaced from its source, everything released at the end.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::{Grant, Source};
use droidmcp_device::{DeviceError, Shell};

/// How leases are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FleetConfig {
    /// How long a lease lasts unrenewed; heartbeats renew it every third of that.
    pub ttl: Duration,
    /// Errored attempts after which a device is set aside (a lost device is set aside at once).
    pub max_failures: u32,
}

impl Default for FleetConfig {
    fn default() -> FleetConfig {
        FleetConfig {
            ttl: Duration::from_secs(60),
            max_failures: 3,
        }
    }
}

/// A device no longer used, and why: it could not be leased, it was lost, or it failed too often.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    pub device: String,
    pub source: String,
    pub reason: String,
}

/// A device's shell and the environment it was opened in.
type OpenShell = (Option<String>, Arc<dyn Shell>);

/// One leased device: its grant, its heartbeat, its shell (opened once and kept across episodes).
pub struct Held {
    pub grant: Grant,
    source: Arc<dyn Source>,
    source_index: usize,
    lost: CancellationToken,
    why_lost: Mutex<Option<String>>,
    heartbeat: Mutex<Option<tokio::task::JoinHandle<()>>>,
    shell: tokio::sync::Mutex<Option<OpenShell>>,
    failures: AtomicU32,
}

impl Held {
    /// `sim:3` or `SERVER/SERIAL`.
    pub fn name(&self) -> String {
        self.grant.endpoint.name()
    }

    pub fn source_name(&self) -> String {
        self.source.name()
    }

    /// Why the device was lost, once a heartbeat failed or the lease ran out unrenewed.
    pub fn lost(&self) -> Option<String> {
        lock(&self.why_lost).clone()
    }

    /// Cancelled the moment the device is lost (the runner ends its episode then).
    pub fn lost_signal(&self) -> CancellationToken {
        self.lost.clone()
    }

    fn mark_lost(&self, why: String) {
        let mut slot = lock(&self.why_lost);
        if slot.is_none() {
            tracing::warn!(device = %self.name(), "device lost: {why}");
            *slot = Some(why);
        }
        self.lost.cancel();
    }

    /// A heartbeat now, outside the schedule (after an attempt errored: was it the device?).
    pub async fn check(&self, ttl: Duration) -> Result<(), String> {
        if let Some(why) = self.lost() {
            return Err(why);
        }
        match tokio::time::timeout(ttl, self.source.heartbeat(&self.grant, ttl)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => {
                self.mark_lost(e.to_string());
                Err(e.to_string())
            }
            Err(_) => {
                let why = format!("no heartbeat answer within {}s", ttl.as_secs());
                self.mark_lost(why.clone());
                Err(why)
            }
        }
    }

    /// The device's shell for an episode in `env`: opened on first use and kept (an embedded phone
    /// in another environment is booted anew in that one).
    pub async fn shell(&self, env: Option<&str>) -> Result<Arc<dyn Shell>, DeviceError> {
        let mut open = self.shell.lock().await;
        if let Some((opened_in, shell)) = open.as_ref() {
            if opened_in.as_deref() == env {
                return Ok(shell.clone());
            }
        }
        *open = None;
        let shell = self.grant.endpoint.open(env).await?;
        *open = Some((env.map(str::to_string), shell.clone()));
        Ok(shell)
    }

    /// Counts an errored attempt; true once the device has failed `max` times.
    pub fn failed(&self, max: u32) -> bool {
        self.failures.fetch_add(1, Ordering::SeqCst) + 1 >= max
    }

    pub fn failures(&self) -> u32 {
        self.failures.load(Ordering::SeqCst)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Every device a run holds, from every source.
pub struct Fleet {
    sources: Vec<Arc<dyn Source>>,
    config: FleetConfig,
    /// Names of the devices held now (two sources may reach one device: an adb server lists the
    /// phones connected through it, and a farm's phone must not play twice at once).
    held: Mutex<BTreeSet<String>>,
    set_aside: Mutex<Vec<SetAside>>,
}

impl Fleet {
    pub fn new(sources: Vec<Arc<dyn Source>>, config: FleetConfig) -> Arc<Fleet> {
        Arc::new(Fleet {
            sources,
            config,
            held: Mutex::new(BTreeSet::new()),
            set_aside: Mutex::new(Vec::new()),
        })
    }

    pub fn config(&self) -> FleetConfig {
        self.config
    }

    /// Leases every device every source lists, in the order the sources were given (so a phone an
    /// `adb connect` source or a provider holds is not taken again from the server's listing).
    /// A device that cannot be leased is set aside with the reason; a source that cannot list is
    /// reported the same way.
    pub async fn lease_all(self: &Arc<Self>) -> Vec<Arc<Held>> {
        let mut all = Vec::new();
        for index in 0..self.sources.len() {
            while let Some(held) = self.lease_from(index).await {
                all.push(held);
            }
        }
        all
    }

    /// Another device from the source `held` came from, in place of one set aside.
    pub async fn replace(self: &Arc<Self>, held: &Held) -> Option<Arc<Held>> {
        self.lease_from(held.source_index).await
    }

    /// Leases the next device `index`'s source offers that is neither held nor set aside.
    async fn lease_from(self: &Arc<Self>, index: usize) -> Option<Arc<Held>> {
        let source = self.sources[index].clone();
        let ids = match source.list().await {
            Ok(ids) => ids,
            Err(e) => {
                self.note_set_aside(source.name(), source.name(), e.to_string());
                return None;
            }
        };
        for id in ids {
            let grant = match source.lease(&id, self.config.ttl).await {
                Ok(g) => g,
                Err(e) => {
                    self.note_set_aside(id.clone(), source.name(), format!("lease: {e}"));
                    continue;
                }
            };
            let name = grant.endpoint.name();
            let taken = lock(&self.held).contains(&name) || self.was_set_aside(&name);
            if taken || !lock(&self.held).insert(name) {
                if let Err(e) = source.release(&grant).await {
                    tracing::warn!("{}: release {}: {e}", source.name(), grant.id);
                }
                continue;
            }
            let held = Arc::new(Held {
                grant,
                source: source.clone(),
                source_index: index,
                lost: CancellationToken::new(),
                why_lost: Mutex::new(None),
                heartbeat: Mutex::new(None),
                shell: tokio::sync::Mutex::new(None),
                failures: AtomicU32::new(0),
            });
            *lock(&held.heartbeat) =
                Some(tokio::spawn(beat(Arc::downgrade(&held), self.config.ttl)));
            return Some(held);
        }
        None
    }

    fn was_set_aside(&self, name: &str) -> bool {
        lock(&self.set_aside).iter().any(|s| s.device == name)
    }

    fn note_set_aside(&self, device: String, source: String, reason: String) {
        tracing::warn!("{source}: {device} set aside: {reason}");
        lock(&self.set_aside).push(SetAside {
            device,
            source,
            reason,
        });
    }

    /// Stops using `held` for the rest of the run (it stays out of replacements too) and releases it.
    pub async fn set_aside(&self, held: &Held, reason: String) {
        self.note_set_aside(held.name(), held.source_name(), reason);
        self.release(held).await;
    }

    /// Gives `held` back to its source and stops its heartbeat.
    pub async fn release(&self, held: &Held) {
        if let Some(beat) = lock(&held.heartbeat).take() {
            beat.abort();
        }
        *held.shell.lock().await = None;
        if let Err(e) = held.source.release(&held.grant).await {
            tracing::warn!("{}: release {}: {e}", held.source_name(), held.name());
        }
        lock(&self.held).remove(&held.name());
    }

    /// The devices set aside so far (could not be leased, lost, or failed too often).
    pub fn set_aside_list(&self) -> Vec<SetAside> {
        lock(&self.set_aside).clone()
    }
}

/// Renews `held`'s lease every third of its TTL. A failed renewal is tried again at the next beat;
/// the device is lost when none succeeded for a whole TTL (or the source says it is gone for good:
/// every later beat fails too, so that comes to the same).
async fn beat(held: std::sync::Weak<Held>, ttl: Duration) {
    let every = (ttl / 3).max(Duration::from_millis(100));
    let mut renewed = Instant::now();
    loop {
        tokio::time::sleep(every).await;
        let Some(held) = held.upgrade() else { return };
        if held.lost().is_some() {
            return;
        }
        match tokio::time::timeout(every, held.source.heartbeat(&held.grant, ttl)).await {
            Ok(Ok(())) => renewed = Instant::now(),
            Ok(Err(e)) if renewed.elapsed() >= ttl => {
                held.mark_lost(format!("lease not renewed for {}s: {e}", ttl.as_secs()));
                return;
            }
            Ok(Err(e)) => tracing::debug!(device = %held.name(), "heartbeat failed: {e}"),
            Err(_) if renewed.elapsed() >= ttl => {
                held.mark_lost(format!("no heartbeat answer for {}s", ttl.as_secs()));
                return;
            }
            Err(_) => {}
        }
    }
}

//! The devices a process has open, shared by the sessions leasing them.
//!
//! A device is opened once per spec and handed out as an `Arc<DeviceSlot>`; every session holding it
//! serialises its actions through the slot's lock, so two clients on one phone take turns per action
//! instead of interleaving taps and dumps.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::memory::PhoneMemory;
use super::StepSink;
use droidmcp_device::{Device, DeviceError, Shell};

/// One open device and the lock its sessions act under.
pub struct DeviceSlot {
    pub spec: String,
    pub device: Device,
    /// tokio's mutex: held across the awaits of one act-and-settle.
    pub(crate) turn: tokio::sync::Mutex<()>,
    leases: AtomicUsize,
    /// Since when no session has held the device (`None` while one does).
    idle_since: Mutex<Option<Instant>>,
    /// Bumped by every action on the device, so a session knows its last dump may be stale; a watch
    /// channel so resource subscribers can wait for it.
    generation: tokio::sync::watch::Sender<u64>,
    /// The observations and steps of this phone, shared by every session on it.
    pub memory: PhoneMemory,
}

impl DeviceSlot {
    fn new(spec: &str, shell: Arc<dyn Shell>) -> DeviceSlot {
        DeviceSlot {
            spec: spec.to_string(),
            device: Device::new(shell),
            turn: tokio::sync::Mutex::new(()),
            leases: AtomicUsize::new(0),
            idle_since: Mutex::new(Some(Instant::now())),
            generation: tokio::sync::watch::channel(0).0,
            memory: PhoneMemory::default(),
        }
    }

    pub fn generation(&self) -> u64 {
        *self.generation.borrow()
    }

    pub(crate) fn bump_generation(&self) {
        self.generation.send_modify(|g| *g += 1);
    }

    /// A receiver that wakes whenever any session acts on this device (a person, an agent, a
    /// replay): every action bumps the generation under the device's turn lock, so an observation
    /// requested on wake-up sees the settled screen after that action.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.generation.subscribe()
    }

    /// Resolves once the device has changed (some session acted on it) and that action is over.
    pub async fn changed(&self) {
        let mut rx = self.generation.subscribe();
        if rx.changed().await.is_err() {
            return std::future::pending().await;
        }
        drop(self.turn.lock().await);
    }

    pub fn serial(&self) -> &str {
        self.device.serial()
    }

    /// How many sessions hold this device now.
    pub fn leases(&self) -> usize {
        self.leases.load(Ordering::SeqCst)
    }

    fn idle_since(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        self.idle_since.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn held(&self) {
        let mut idle = self.idle_since();
        self.leases.fetch_add(1, Ordering::SeqCst);
        *idle = None;
    }
}

/// A session's hold on a slot; dropping it releases the lease.
pub struct Lease {
    slot: Arc<DeviceSlot>,
}

impl Lease {
    pub fn slot(&self) -> &Arc<DeviceSlot> {
        &self.slot
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let mut idle = self.slot.idle_since();
        if self.slot.leases.fetch_sub(1, Ordering::SeqCst) == 1 {
            *idle = Some(Instant::now());
        }
    }
}

/// What [`DevicePool::list`] reports per device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceSummary {
    pub spec: String,
    pub serial: String,
    pub leases: usize,
}

/// The most embedded phones a served pool keeps open at once (each is a folder on disk and a
/// framework in memory); beyond it, one nobody holds is closed, else the open is refused.
pub const MAX_SERVED_PHONES: usize = 16;

/// How long a served pool keeps an embedded phone (other than its default device) that nobody
/// holds before closing it, folder and all: a client that opened `sim:7` and went away leaves
/// nothing behind for long.
pub const UNUSED_PHONE_CLOSES_AFTER: Duration = Duration::from_secs(120);

/// Opens devices on demand and keeps them for reuse.
pub struct DevicePool {
    adb_server: Option<String>,
    /// The clock an embedded phone opened here keeps.
    sim_clock: droidmcp_sim::ClockMode,
    /// A pool whose clients choose the devices (`serve`): opening an adb device never starts a
    /// local adb server, and embedded phones are capped at [`MAX_SERVED_PHONES`].
    serving: bool,
    default_spec: String,
    /// std mutex: held only for map access.
    slots: Mutex<BTreeMap<String, Arc<DeviceSlot>>>,
    /// Where the steps of every session on these devices go (the task episodes), unless a session
    /// has its own sink.
    sink: Mutex<Option<Arc<dyn StepSink>>>,
}

impl DevicePool {
    /// `default_spec`: the device new sessions get (`sim` when `None`).
    pub fn new(default_spec: Option<String>, adb_server: Option<String>) -> DevicePool {
        DevicePool {
            adb_server,
            sim_clock: droidmcp_sim::ClockMode::Virtual,
            serving: false,
            default_spec: default_spec
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| "sim".to_string()),
            slots: Mutex::new(BTreeMap::new()),
            sink: Mutex::new(None),
        }
    }

    /// Sends the steps of every session on this pool's devices to `sink`.
    pub fn set_step_sink(&self, sink: Arc<dyn StepSink>) {
        *self.sink.lock().unwrap_or_else(|p| p.into_inner()) = Some(sink);
    }

    pub fn step_sink(&self) -> Option<Arc<dyn StepSink>> {
        self.sink.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// A pool whose clients pick devices (`serve`): opening one never starts an adb server, and at
    /// most [`MAX_SERVED_PHONES`] embedded phones are open at once.
    pub fn serving_clients(mut self) -> DevicePool {
        self.serving = true;
        self
    }

    /// Embedded phones opened from now on keep this clock (a served pool keeps real time).
    pub fn with_sim_clock(mut self, clock: droidmcp_sim::ClockMode) -> DevicePool {
        self.sim_clock = clock;
        self
    }

    /// The adb server this pool opens real devices through (`None`: the usual resolution).
    pub fn adb_server(&self) -> Option<&str> {
        self.adb_server.as_deref()
    }

    pub fn default_spec(&self) -> &str {
        &self.default_spec
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Arc<DeviceSlot>>> {
        self.slots
            .lock()
            .expect("device pool lock is never poisoned: no panics while held")
    }

    /// Adds an already open shell under `spec` (tests, or a phone the caller built itself).
    pub fn insert(&self, spec: &str, shell: Arc<dyn Shell>) -> Arc<DeviceSlot> {
        let slot = Arc::new(DeviceSlot::new(spec, shell));
        self.slots().insert(canonical(spec), slot.clone());
        slot
    }

    /// Leases the device for `spec` (the default device when `None`), opening it on first use.
    pub async fn lease(&self, spec: Option<&str>) -> Result<Lease, DeviceError> {
        let spec = spec
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or(&self.default_spec)
            .to_string();
        let key = canonical(&spec);
        let existing = self.slots().get(&key).cloned();
        let slot = match existing {
            Some(slot) => slot,
            None => {
                if self.serving && key.starts_with("sim:") {
                    self.make_room_for_a_phone(&spec)?;
                }
                let shell = crate::fleet::open_configured(
                    Some(&spec),
                    self.adb_server.as_deref(),
                    self.sim_clock,
                    !self.serving,
                )
                .await?;
                let mut slots = self.slots();
                // Another session may have opened it meanwhile; keep the first.
                slots
                    .entry(key)
                    .or_insert_with(|| Arc::new(DeviceSlot::new(&spec, shell)))
                    .clone()
            }
        };
        slot.held();
        Ok(Lease { slot })
    }

    /// Before a served pool boots another embedded phone: at the cap, closes the least recently
    /// used of those nobody holds (no session, episode, replay or check: its folder goes with it),
    /// else refuses. The default device is never closed.
    fn make_room_for_a_phone(&self, spec: &str) -> Result<(), DeviceError> {
        let mut slots = self.slots();
        let phones = slots.keys().filter(|k| k.starts_with("sim:")).count();
        if phones < MAX_SERVED_PHONES {
            return Ok(());
        }
        // Unheld, so idle since its last lease ended (or since it opened).
        let unheld = slots
            .iter()
            .filter(|(k, slot)| self.unheld_phone(k, slot))
            .min_by_key(|(_, slot)| *slot.idle_since())
            .map(|(k, _)| k.clone());
        match unheld {
            Some(k) => {
                tracing::info!("closing the unused embedded phone {k} to open {spec}");
                slots.remove(&k);
                Ok(())
            }
            None => Err(DeviceError::TooManyPhones {
                spec: spec.to_string(),
                max: MAX_SERVED_PHONES,
            }),
        }
    }

    /// Whether `slot` (under `key`) is an embedded phone other than the default that nothing holds
    /// (no session, episode, replay or check).
    fn unheld_phone(&self, key: &str, slot: &Arc<DeviceSlot>) -> bool {
        key.starts_with("sim:")
            && key != canonical(&self.default_spec)
            && slot.leases() == 0
            && Arc::strong_count(slot) == 1
            && slot.device.shell_held_elsewhere() == 0
    }

    /// Closes every embedded phone other than the default device that nothing has held for
    /// `idle`; returns their specs.
    pub fn close_unused_phones(&self, idle: Duration) -> Vec<String> {
        let mut slots = self.slots();
        let unused: Vec<String> = slots
            .iter()
            .filter(|(k, slot)| {
                self.unheld_phone(k, slot)
                    && slot
                        .idle_since()
                        .is_some_and(|since| since.elapsed() >= idle)
            })
            .map(|(k, _)| k.clone())
            .collect();
        for k in &unused {
            tracing::info!(
                "closing the embedded phone {k}: unused for {}s",
                idle.as_secs()
            );
            slots.remove(k);
        }
        unused
    }

    /// While the pool lives, closes its unused embedded phones ([`UNUSED_PHONE_CLOSES_AFTER`]).
    /// Needs a tokio runtime; without one, phones are closed only to make room at the cap.
    pub fn close_unused_phones_in_background(self: &Arc<Self>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let pool = Arc::downgrade(self);
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(UNUSED_PHONE_CLOSES_AFTER / 4).await;
                let Some(pool) = pool.upgrade() else { return };
                pool.close_unused_phones(UNUSED_PHONE_CLOSES_AFTER);
            }
        });
    }

    pub fn list(&self) -> Vec<DeviceSummary> {
        self.slots()
            .values()
            .map(|s| DeviceSummary {
                spec: s.spec.clone(),
                serial: s.serial().to_string(),
                leases: s.leases(),
            })
            .collect()
    }
}

/// `sim`, `sim:0` and `sim-0` name the same phone (and `sim@105`, `sim:0@105` the same phone in
/// environment 105).
fn canonical(spec: &str) -> String {
    let (device, env) = droidmcp_env::split_spec(spec.trim());
    let device = canonical_device(device);
    match env {
        Some(env) => format!("{device}@{}", env.trim()),
        None => device,
    }
}

fn canonical_device(s: &str) -> String {
    match s {
        "sim" | "sim:0" | "sim-0" => "sim:0".to_string(),
        _ => match s.strip_prefix("sim-") {
            Some(seed) => format!("sim:{seed}"),
            None => s.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_phone_nobody_holds_is_closed_and_a_held_one_or_the_default_is_not() {
        let pool = DevicePool::new(Some("sim:1".into()), None).serving_clients();
        let default = pool.lease(None).await.unwrap();
        let held = pool.lease(Some("sim:2")).await.unwrap();
        drop(pool.lease(Some("sim-3")).await.unwrap());
        drop(default);
        // Not idle long enough yet.
        assert!(pool
            .close_unused_phones(Duration::from_secs(3600))
            .is_empty());
        assert_eq!(pool.close_unused_phones(Duration::ZERO), vec!["sim:3"]);
        let open: Vec<String> = pool.list().into_iter().map(|d| d.spec).collect();
        assert_eq!(open, vec!["sim:1", "sim:2"]);
        drop(held);
        assert_eq!(pool.close_unused_phones(Duration::ZERO), vec!["sim:2"]);
    }
}

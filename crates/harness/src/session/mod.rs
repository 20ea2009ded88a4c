//! Sessions: one client's lease on one device; act, observe, record steps.
//!
//! Brief overview: a [`DevicePool`] opens devices on demand; a [`Session`] leases one of them, turns
//! [`Action`]s into device calls (resolving element ids and text against the last settled [`Screen`]),
//! waits for the UI to settle after each action, returns [`Observation`]s on request (with what changed),
//! and records every step ([`Step`]), handing it to a [`StepSink`] (the task episodes, which live in
//! the layer above, `crate::episode`).
//!
//! Files: `action.rs` (what a caller asks: [`Action`], [`Target`], [`ActOutcome`]), `act.rs`
//! (`Session::act`, the one action path), `targets.rs` (targets → points, gesture geometry),
//! `gestures.rs` (scroll, typing, opening apps), `observe.rs` (observations and settling),
//! `control.rs` (cancellation, progress), `error.rs`, `record.rs` (steps), `screen.rs` (the one file
//! that knows the hierarchy module's API), `pool.rs`/`hub.rs` (devices and live sessions).
//!
//! **API Boundary:** the MCP tools, the HTTP API and the manual CLI call `Session` and nothing below it.
//! **Architecture Invariant:** session types carry no serde or JSON Schema derives; the front ends
//! convert them to their own wire types, so renaming a field here never breaks a client.

mod act;
mod action;
mod clip;
mod control;
mod error;
mod gestures;
mod hub;
mod memory;
mod observe;
mod pool;
mod record;
mod screen;
mod targets;

use std::sync::{Arc, Mutex};

pub use act::ActFailure;
pub use action::{
    ActOutcome, Action, Clamped, Direction, SliderReading, Target, LONG_PRESS_MS, MAX_GESTURE_MS,
    MAX_SWIPES, MAX_TEXT_CHARS, MAX_WAIT_MS, MIN_SWIPE_MS,
};
pub use clip::clip;
pub use control::{Control, Progress};
pub use error::SessionError;
pub use hub::Hub;
pub use memory::{PhoneMemory, KEPT_OBSERVATIONS, KEPT_STEPS};
pub use observe::{Observation, ObserveOptions, SettlePolicy};
pub use pool::{DevicePool, DeviceSlot, DeviceSummary, Lease, MAX_SERVED_PHONES};
pub use record::{Gesture, Recorded, Step, StepSink};
pub use screen::{fnv1a, ChangeKind, Changes, ElementRef, Screen, ScreenError};

use droidmcp_device::{apps, command};

struct State {
    lease: Lease,
    /// The last settled screen and the device generation it was read at.
    screen: Option<(Screen, u64)>,
    /// The previous observation returned to this client (for `changes`, and the screen its element
    /// ids are read against when it names no digest). Digests it names are looked up in the phone's
    /// memory ([`PhoneMemory`]), which every client shares.
    observed: Option<Screen>,
}

/// One client's lease on one device. **API Boundary.**
pub struct Session {
    id: String,
    pool: Arc<DevicePool>,
    state: tokio::sync::Mutex<State>,
    /// Where this session's steps go instead of the pool's sink (a replay's episode).
    sink: Mutex<Option<Arc<dyn StepSink>>>,
    pub settle: SettlePolicy,
}

impl Session {
    /// Starts a session on `device` (the pool's default when `None`).
    pub async fn open(
        pool: Arc<DevicePool>,
        id: impl Into<String>,
        device: Option<&str>,
    ) -> Result<Session, SessionError> {
        let lease = pool
            .lease(device)
            .await
            .map_err(|e| SessionError::from_device(device.unwrap_or("default"), e))?;
        Ok(Session {
            id: id.into(),
            pool,
            state: tokio::sync::Mutex::new(State {
                lease,
                screen: None,
                observed: None,
            }),
            sink: Mutex::new(None),
            settle: SettlePolicy::default(),
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn pool(&self) -> &Arc<DevicePool> {
        &self.pool
    }

    /// The serial of the device this session holds.
    pub async fn serial(&self) -> String {
        self.state.lock().await.lease.slot().serial().to_string()
    }

    /// The change feed of the device this session holds (see [`DeviceSlot::subscribe`]).
    pub async fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.state.lock().await.lease.slot().subscribe()
    }

    /// Moves the session to another device; its recorded steps stay.
    pub async fn select_device(&self, spec: &str) -> Result<String, SessionError> {
        let lease = self
            .pool
            .lease(Some(spec))
            .await
            .map_err(|e| SessionError::from_device(spec, e))?;
        let serial = lease.slot().serial().to_string();
        let mut state = self.state.lock().await;
        state.lease = lease;
        state.screen = None;
        state.observed = None;
        Ok(serial)
    }

    /// Devices open in this process (the pool), with their leases.
    pub fn devices(&self) -> Vec<DeviceSummary> {
        self.pool.list()
    }

    /// The steps and refused attempts on this session's phone, by any client, oldest first (the
    /// last [`KEPT_STEPS`]), without their screens (an episode's record keeps those).
    pub async fn steps(&self) -> Vec<Step> {
        self.state.lock().await.lease.slot().memory.steps()
    }

    /// Sends each future step of this session to `sink` (instead of the pool's sink).
    pub fn set_step_sink(&self, sink: Arc<dyn StepSink>) {
        *self.sink.lock().unwrap_or_else(|p| p.into_inner()) = Some(sink);
    }

    fn step_sink(&self) -> Option<Arc<dyn StepSink>> {
        let own = self.sink.lock().unwrap_or_else(|p| p.into_inner()).clone();
        own.or_else(|| self.pool.step_sink())
    }
}

//! Sessions: one client's lease on one device; act, observe, record steps.
//!
//! Brief overview: a [`DevicePool`] opens devices on demand; a [`Session`] leases one of them, turns
//! [`Action`]s into device calls (resolving element ids and text against the last settled [`Screen`]),
//! waits for the UI to settle after each action, returns [`Observation`]s on request (with what changed),
//! and records every step ([`Step`]). [`episode`] runs task episodes (setup → steps → check → teardown)
//! on a device and holds the [`episode::Episodes`] registry the front ends share.
//!
//! **API Boundary:** the MCP tools, the HTTP API and the manual CLI call `Session` and nothing below it.
//! **Architecture Invariant:** session types carry no serde or JSON Schema derives; the front ends
//! convert them to their own wire types, so renaming a field here never breaks a client.

mod clip;
pub mod episode;
mod hub;
mod pool;
mod record;
mod screen;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

pub use clip::clip;
pub use hub::Hub;
pub use pool::{DevicePool, DeviceSlot, DeviceSummary, Lease};
pub use record::{Step, StepSink};
pub use screen::{ChangeKind, Changes, ElementRef, Screen, ScreenError};

use crate::device::image::{self as shot, Encoding, ImageError, Screenshot};
use crate::device::{apps, command, AppEntry, Device, DeviceError, Foreground, ScreenSize};
use crate::geom::Point;
use record::Recorder;

/// Why a session call failed. Messages are written for the model reading them.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("device {serial} vanished: {source}")]
    DeviceLost {
        serial: String,
        #[source]
        source: DeviceError,
    },
    #[error(transparent)]
    Device(DeviceError),
    #[error(
        "element {id} is not on the current screen ({count} elements); call `screen` for fresh ids"
    )]
    StaleElement { id: u32, count: usize },
    #[error("no element shows the text {0:?} on the current screen")]
    TextNotFound(String),
    #[error("point ({x},{y}) is outside the {width}x{height} screen")]
    OutOfScreen {
        x: i32,
        y: i32,
        width: i32,
        height: i32,
    },
    #[error("no app matches {query:?}; closest: {}", suggestions.join(", "))]
    UnknownApp {
        query: String,
        suggestions: Vec<String>,
    },
    #[error("unknown key {key:?}; use a keycode number or one of: {}", command::key_names().join(", "))]
    UnknownKey { key: String },
    #[error("{0}")]
    BadArgument(String),
    #[error("scrolled {swipes} times without finding {query:?} (the list stopped moving: {reached_end})")]
    ScrollExhausted {
        query: String,
        swipes: u32,
        reached_end: bool,
    },
    #[error("the UI hierarchy could not be read: {0}")]
    Hierarchy(String),
    #[error(transparent)]
    Image(#[from] ImageError),
    #[error("cancelled")]
    Cancelled,
}

impl SessionError {
    /// True when the device is gone; the client should pick another device.
    pub fn is_device_lost(&self) -> bool {
        matches!(self, SessionError::DeviceLost { .. })
    }

    /// True when the caller sent something unusable (as opposed to a device-side failure).
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            SessionError::StaleElement { .. }
                | SessionError::TextNotFound(_)
                | SessionError::OutOfScreen { .. }
                | SessionError::UnknownApp { .. }
                | SessionError::UnknownKey { .. }
                | SessionError::BadArgument(_)
        )
    }

    fn from_device(serial: &str, e: DeviceError) -> SessionError {
        if e.is_device_lost() {
            SessionError::DeviceLost {
                serial: serial.to_string(),
                source: e,
            }
        } else {
            SessionError::Device(e)
        }
    }
}

/// Where an action lands.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Point(Point),
    /// An element id from the last observation.
    Element(u32),
    /// The first element showing this text (or content description).
    Text(String),
}

/// A direction on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub fn parse(s: &str) -> Option<Direction> {
        match s.trim().to_ascii_lowercase().as_str() {
            "up" => Some(Direction::Up),
            "down" => Some(Direction::Down),
            "left" => Some(Direction::Left),
            "right" => Some(Direction::Right),
            _ => None,
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }
}

/// Something to do on the device.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Tap(Target),
    DoubleTap(Target),
    LongPress {
        target: Target,
        duration_ms: u32,
    },
    /// A finger drag between two targets.
    Swipe {
        from: Target,
        to: Target,
        duration_ms: u32,
    },
    /// A finger moving in `direction` (so `up` shows what is below), from `from` or the screen centre.
    SwipeDirection {
        direction: Direction,
        from: Option<Target>,
        distance: Option<i32>,
        duration_ms: u32,
    },
    /// Scrolls content so that what lies in `direction` comes into view (`down`: further down the
    /// list); in `container` or the main scrollable; optionally until an element shows `until`.
    Scroll {
        direction: Direction,
        container: Option<Target>,
        until: Option<String>,
        max_swipes: u32,
    },
    TypeText {
        text: String,
        into: Option<Target>,
        clear: bool,
        submit: bool,
    },
    PressKey {
        key: String,
    },
    OpenApp {
        app: String,
    },
    Wait {
        ms: u64,
    },
}

impl Action {
    /// The tool-level name.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Tap(_) => "tap",
            Action::DoubleTap(_) => "double_tap",
            Action::LongPress { .. } => "long_press",
            Action::Swipe { .. } | Action::SwipeDirection { .. } => "swipe",
            Action::Scroll { .. } => "scroll",
            Action::TypeText { .. } => "type_text",
            Action::PressKey { .. } => "press_key",
            Action::OpenApp { .. } => "open_app",
            Action::Wait { .. } => "wait",
        }
    }

    fn describe(&self) -> String {
        fn t(target: &Target) -> String {
            match target {
                Target::Point(p) => p.to_string(),
                Target::Element(id) => format!("#{id}"),
                Target::Text(s) => format!("{s:?}"),
            }
        }
        match self {
            Action::Tap(x) => format!("tap {}", t(x)),
            Action::DoubleTap(x) => format!("double_tap {}", t(x)),
            Action::LongPress {
                target,
                duration_ms,
            } => format!("long_press {} {duration_ms}ms", t(target)),
            Action::Swipe { from, to, .. } => format!("swipe {} -> {}", t(from), t(to)),
            Action::SwipeDirection {
                direction, from, ..
            } => format!(
                "swipe {}{}",
                direction.name(),
                from.as_ref()
                    .map(|f| format!(" from {}", t(f)))
                    .unwrap_or_default()
            ),
            Action::Scroll {
                direction,
                container,
                until,
                ..
            } => format!(
                "scroll {}{}{}",
                direction.name(),
                container
                    .as_ref()
                    .map(|c| format!(" in {}", t(c)))
                    .unwrap_or_default(),
                until
                    .as_ref()
                    .map(|u| format!(" until {u:?}"))
                    .unwrap_or_default()
            ),
            Action::TypeText {
                text,
                into,
                clear,
                submit,
            } => format!(
                "type_text {text:?}{}{}{}",
                into.as_ref()
                    .map(|i| format!(" into {}", t(i)))
                    .unwrap_or_default(),
                if *clear { " clear" } else { "" },
                if *submit { " submit" } else { "" }
            ),
            Action::PressKey { key } => format!("press_key {key}"),
            Action::OpenApp { app } => format!("open_app {app:?}"),
            Action::Wait { ms } => format!("wait {ms}ms"),
        }
    }
}

/// What to include in an observation.
#[derive(Debug, Clone, PartialEq)]
pub struct ObserveOptions {
    pub elements: bool,
    pub screenshot: bool,
    /// Draw element-id marks on the screenshot.
    pub annotate: bool,
    /// Long edge limit of the screenshot in pixels.
    pub max_edge: u32,
    pub encoding: Encoding,
    /// Include the raw uiautomator XML.
    pub xml: bool,
}

impl Default for ObserveOptions {
    fn default() -> Self {
        ObserveOptions {
            elements: true,
            screenshot: false,
            annotate: false,
            max_edge: 1024,
            encoding: Encoding::Jpeg(80),
            xml: false,
        }
    }
}

/// The settled state of the device.
#[derive(Debug, Clone)]
pub struct Observation {
    pub serial: String,
    pub foreground: Option<Foreground>,
    pub size: ScreenSize,
    /// The compressed element list.
    pub elements: Option<String>,
    pub element_count: usize,
    pub xml: Option<String>,
    pub screenshot: Option<Screenshot>,
    pub digest: String,
    /// What changed since this session's previous observation.
    pub changes: Option<Changes>,
}

/// What an action did.
#[derive(Debug, Clone)]
pub struct ActOutcome {
    pub action: String,
    /// Extra facts (`opened com.x/.Main`, `found "Alarm" as #12 after 2 swipes`).
    pub detail: Option<String>,
    pub elapsed_ms: u64,
    /// Whether the UI settled (identical consecutive element lists) within the time bound.
    pub settled: bool,
    pub observation: Option<Observation>,
}

/// Progress of a long call.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub done: f64,
    pub total: Option<f64>,
    pub message: String,
}

/// How a caller steers one call: cancellation and progress reports.
#[derive(Clone, Default)]
pub struct Control {
    pub cancel: CancellationToken,
    pub progress: Option<UnboundedSender<Progress>>,
}

impl Control {
    fn report(&self, done: f64, total: Option<f64>, message: impl Into<String>) {
        if let Some(tx) = &self.progress {
            let _ = tx.send(Progress {
                done,
                total,
                message: message.into(),
            });
        }
    }

    fn check(&self) -> Result<(), SessionError> {
        if self.cancel.is_cancelled() {
            Err(SessionError::Cancelled)
        } else {
            Ok(())
        }
    }

    async fn sleep(&self, d: Duration) -> Result<(), SessionError> {
        tokio::select! {
            _ = self.cancel.cancelled() => Err(SessionError::Cancelled),
            _ = tokio::time::sleep(d) => Ok(()),
        }
    }
}

/// How long to wait for the UI to stop changing after an action.
#[derive(Debug, Clone, Copy)]
pub struct SettlePolicy {
    pub timeout: Duration,
    pub poll: Duration,
}

impl Default for SettlePolicy {
    fn default() -> Self {
        SettlePolicy {
            timeout: Duration::from_secs(3),
            poll: Duration::from_millis(40),
        }
    }
}

/// The long-press duration Android treats as a long click, with margin.
pub const LONG_PRESS_MS: u32 = 600;
pub const MAX_WAIT_MS: u64 = 60_000;
pub const MAX_TEXT_CHARS: usize = 5_000;

struct State {
    lease: Lease,
    /// The last settled screen and the device generation it was read at.
    screen: Option<(Screen, u64)>,
    /// The screen of the previous observation returned to the client (for `changes`).
    observed: Option<Screen>,
}

/// One client's lease on one device. **API Boundary.**
pub struct Session {
    id: String,
    pool: Arc<DevicePool>,
    state: tokio::sync::Mutex<State>,
    recorder: Mutex<Recorder>,
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
            recorder: Mutex::new(Recorder::default()),
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

    /// Resolves once this session's device changed (any session acted on it) and the action is over.
    pub async fn screen_changed(&self) {
        let slot = self.state.lock().await.lease.slot().clone();
        slot.changed().await
    }

    /// Devices open in this process (the pool), with their leases.
    pub fn devices(&self) -> Vec<DeviceSummary> {
        self.pool.list()
    }

    fn recorder(&self) -> std::sync::MutexGuard<'_, Recorder> {
        self.recorder
            .lock()
            .expect("recorder lock is never poisoned: no panics while held")
    }

    /// Every step so far.
    pub fn steps(&self) -> Vec<Step> {
        self.recorder().steps.clone()
    }

    /// Sends each future step to `sink` as well.
    pub fn set_step_sink(&self, sink: Arc<dyn StepSink>) {
        self.recorder().sink = Some(sink);
    }

    /// Performs `action`, waits for the UI to settle, records the step, and observes when asked.
    pub async fn act(
        &self,
        action: Action,
        observe: Option<&ObserveOptions>,
        ctl: &Control,
    ) -> Result<ActOutcome, SessionError> {
        let started = Instant::now();
        let started_at = chrono::Utc::now();
        let description = action.describe();
        let kind = action.kind();
        let mut state = self.state.lock().await;
        let slot = state.lease.slot().clone();
        let _turn = slot.turn.lock().await;
        let serial = slot.serial().to_string();

        let result = self.perform(&mut state, &slot, &action, ctl).await;
        let result = match result {
            Ok(detail) => {
                slot.bump_generation();
                match self.settle_locked(&mut state, &slot.device, ctl).await {
                    Ok(settled) => Ok((detail, settled)),
                    Err(e) => Err(e),
                }
            }
            Err(e) => {
                // A failed action may still have changed the screen.
                slot.bump_generation();
                Err(e)
            }
        };
        let observation = match (&result, observe) {
            (Ok(_), Some(opts)) => Some(self.observe_locked(&mut state, &slot, opts, ctl).await),
            _ => None,
        };
        let foreground = match &observation {
            Some(Ok(o)) => o.foreground.clone(),
            _ => None,
        };
        let step =
            Step {
                index: 0,
                action: description.clone(),
                kind,
                started_at,
                elapsed_ms: started.elapsed().as_millis() as u64,
                error: result.as_ref().err().map(|e| e.to_string()).or_else(
                    || match &observation {
                        Some(Err(e)) => Some(e.to_string()),
                        _ => None,
                    },
                ),
                observation_digest: state.screen.as_ref().map(|(s, _)| s.digest()),
                foreground: foreground.map(|f| match f.activity {
                    Some(a) => format!("{}/{a}", f.package),
                    None => f.package,
                }),
                serial,
            };
        self.push_step(step);
        let (detail, settled) = result?;
        let observation = observation.transpose()?;
        Ok(ActOutcome {
            action: description,
            detail,
            elapsed_ms: started.elapsed().as_millis() as u64,
            settled,
            observation,
        })
    }

    fn push_step(&self, mut step: Step) {
        let mut rec = self.recorder();
        step.index = rec.steps.len();
        if let Some(sink) = &rec.sink {
            sink.record(&self.id, &step);
        }
        rec.steps.push(step);
    }

    /// The settled screen now (elements and/or screenshot), without acting.
    pub async fn observe(
        &self,
        opts: &ObserveOptions,
        ctl: &Control,
    ) -> Result<Observation, SessionError> {
        let mut state = self.state.lock().await;
        let slot = state.lease.slot().clone();
        let _turn = slot.turn.lock().await;
        if opts.elements || opts.xml || opts.annotate || state.screen.is_none() {
            self.fresh_screen(&mut state, &slot, ctl).await?;
        }
        self.observe_locked(&mut state, &slot, opts, ctl).await
    }

    /// Launchable apps with their names.
    pub async fn apps(&self) -> Result<Vec<AppEntry>, SessionError> {
        let state = self.state.lock().await;
        let slot = state.lease.slot().clone();
        drop(state);
        slot.device
            .apps()
            .await
            .map_err(|e| SessionError::from_device(slot.serial(), e))
    }

    /// The raw XML of a fresh dump.
    pub async fn hierarchy_xml(&self, ctl: &Control) -> Result<String, SessionError> {
        let mut state = self.state.lock().await;
        let slot = state.lease.slot().clone();
        let _turn = slot.turn.lock().await;
        self.fresh_screen(&mut state, &slot, ctl).await?;
        Ok(state
            .screen
            .as_ref()
            .map(|(s, _)| s.xml.clone())
            .unwrap_or_default())
    }

    /// A dump, re-read when another session (or this one) changed the device since the last one.
    async fn current_screen<'a>(
        &self,
        state: &'a mut State,
        slot: &DeviceSlot,
        ctl: &Control,
    ) -> Result<&'a Screen, SessionError> {
        let fresh = matches!(&state.screen, Some((_, g)) if *g == slot.generation());
        if !fresh {
            self.fresh_screen(state, slot, ctl).await?;
        }
        Ok(&state
            .screen
            .as_ref()
            .expect("fresh_screen stores a screen on success")
            .0)
    }

    async fn fresh_screen(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        ctl: &Control,
    ) -> Result<(), SessionError> {
        ctl.check()?;
        let screen = dump(&slot.device).await?;
        state.screen = Some((screen, slot.generation()));
        Ok(())
    }

    /// Dumps until two consecutive dumps match or the time bound passes; returns whether it settled.
    async fn settle_locked(
        &self,
        state: &mut State,
        device: &Device,
        ctl: &Control,
    ) -> Result<bool, SessionError> {
        let deadline = Instant::now() + self.settle.timeout;
        let mut previous = dump(device).await?;
        let generation = state.lease.slot().generation();
        loop {
            ctl.check()?;
            if Instant::now() >= deadline {
                state.screen = Some((previous, generation));
                return Ok(false);
            }
            ctl.sleep(self.settle.poll).await?;
            let next = dump(device).await?;
            if next.same_as(&previous) {
                state.screen = Some((next, generation));
                return Ok(true);
            }
            previous = next;
        }
    }

    async fn observe_locked(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        opts: &ObserveOptions,
        ctl: &Control,
    ) -> Result<Observation, SessionError> {
        let device = &slot.device;
        let lost = |e| SessionError::from_device(slot.serial(), e);
        let size = device.screen_size().await.map_err(lost)?;
        let foreground = device.foreground().await.map_err(lost)?;
        let screen = self.current_screen(state, slot, ctl).await?.clone();
        let screenshot = if opts.screenshot {
            ctl.check()?;
            let png = device.screencap_png().await.map_err(lost)?;
            let img = shot::decode_png(&png)?;
            let factor = shot::downscale_factor(img.width(), img.height(), opts.max_edge);
            let scaled = shot::scale(&img, factor);
            let scaled = if opts.annotate {
                screen.annotate(&scaled, factor)
            } else {
                scaled
            };
            Some(shot::finish(&scaled, opts.encoding, factor)?)
        } else {
            None
        };
        let mut changes = state.observed.as_ref().map(|old| screen.changes_since(old));
        if let Some(c) = changes.as_mut().filter(|c| c.kind == ChangeKind::AppSwitch) {
            c.text = switched_to(device, c.packages.1.as_deref().unwrap_or_default()).await;
        }
        state.observed = Some(screen.clone());
        Ok(Observation {
            serial: slot.serial().to_string(),
            foreground,
            size,
            elements: opts.elements.then(|| screen.compact()),
            element_count: screen.element_count(),
            xml: opts.xml.then(|| screen.xml.clone()),
            screenshot,
            digest: screen.digest(),
            changes,
        })
    }

    /// Carries out one action; returns an optional detail line.
    async fn perform(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        action: &Action,
        ctl: &Control,
    ) -> Result<Option<String>, SessionError> {
        let device = &slot.device;
        let lost = |e| SessionError::from_device(slot.serial(), e);
        ctl.check()?;
        match action {
            Action::Tap(target) => {
                let p = self.resolve(state, slot, target, ctl).await?;
                device.tap(p).await.map_err(lost)?;
                Ok(None)
            }
            Action::DoubleTap(target) => {
                let p = self.resolve(state, slot, target, ctl).await?;
                device.double_tap(p).await.map_err(lost)?;
                Ok(None)
            }
            Action::LongPress {
                target,
                duration_ms,
            } => {
                let p = self.resolve(state, slot, target, ctl).await?;
                let ms = (*duration_ms).clamp(LONG_PRESS_MS, 10_000);
                device.long_press(p, ms).await.map_err(lost)?;
                Ok(None)
            }
            Action::Swipe {
                from,
                to,
                duration_ms,
            } => {
                let a = self.resolve(state, slot, from, ctl).await?;
                let b = self.resolve(state, slot, to, ctl).await?;
                device
                    .swipe(a, b, (*duration_ms).clamp(50, 10_000))
                    .await
                    .map_err(lost)?;
                Ok(None)
            }
            Action::SwipeDirection {
                direction,
                from,
                distance,
                duration_ms,
            } => {
                let size = device.screen_size().await.map_err(lost)?;
                let start = match from {
                    Some(t) => self.resolve(state, slot, t, ctl).await?,
                    None => Point::new(size.width / 2, size.height / 2),
                };
                let default = match direction {
                    Direction::Up | Direction::Down => size.height / 3,
                    Direction::Left | Direction::Right => size.width / 3,
                };
                let d = distance.unwrap_or(default);
                if d <= 0 {
                    return Err(SessionError::BadArgument(format!(
                        "distance must be positive, got {d}"
                    )));
                }
                let end = clamp_to_screen(offset(start, *direction, d), size);
                device
                    .swipe(start, end, (*duration_ms).clamp(50, 10_000))
                    .await
                    .map_err(lost)?;
                Ok(Some(format!("swiped {start} -> {end}")))
            }
            Action::Scroll {
                direction,
                container,
                until,
                max_swipes,
            } => {
                self.scroll(
                    state,
                    slot,
                    *direction,
                    container.as_ref(),
                    until.as_deref(),
                    *max_swipes,
                    ctl,
                )
                .await
            }
            Action::TypeText {
                text,
                into,
                clear,
                submit,
            } => {
                self.type_text(state, slot, text, into.as_ref(), *clear, *submit, ctl)
                    .await
            }
            Action::PressKey { key } => {
                let code = command::keycode(key)
                    .ok_or_else(|| SessionError::UnknownKey { key: key.clone() })?;
                device.keys(&[code]).await.map_err(lost)?;
                Ok(Some(format!("keycode {code}")))
            }
            Action::OpenApp { app } => self.open_app(state, slot, app, ctl).await,
            Action::Wait { ms } => {
                if *ms > MAX_WAIT_MS {
                    return Err(SessionError::BadArgument(format!(
                        "wait is at most {MAX_WAIT_MS} ms, got {ms}"
                    )));
                }
                let total = *ms as f64;
                let mut waited = 0u64;
                while waited < *ms {
                    let step = (*ms - waited).min(1000);
                    ctl.sleep(Duration::from_millis(step)).await?;
                    waited += step;
                    ctl.report(waited as f64, Some(total), format!("waited {waited} ms"));
                }
                Ok(None)
            }
        }
    }

    /// A target as a point on screen, checked against the screen size.
    async fn resolve(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        target: &Target,
        ctl: &Control,
    ) -> Result<Point, SessionError> {
        let size = slot
            .device
            .screen_size()
            .await
            .map_err(|e| SessionError::from_device(slot.serial(), e))?;
        let p = match target {
            Target::Point(p) => *p,
            Target::Element(id) => {
                let screen = self.current_screen(state, slot, ctl).await?;
                screen
                    .element(*id)
                    .ok_or(SessionError::StaleElement {
                        id: *id,
                        count: screen.element_count(),
                    })?
                    .center
            }
            Target::Text(text) => {
                let screen = self.current_screen(state, slot, ctl).await?;
                screen
                    .find_text(text)
                    .ok_or_else(|| SessionError::TextNotFound(text.clone()))?
                    .center
            }
        };
        if p.x < 0 || p.y < 0 || p.x >= size.width || p.y >= size.height {
            return Err(SessionError::OutOfScreen {
                x: p.x,
                y: p.y,
                width: size.width,
                height: size.height,
            });
        }
        Ok(p)
    }

    #[allow(clippy::too_many_arguments)]
    async fn scroll(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        direction: Direction,
        container: Option<&Target>,
        until: Option<&str>,
        max_swipes: u32,
        ctl: &Control,
    ) -> Result<Option<String>, SessionError> {
        let device = &slot.device;
        let lost = |e| SessionError::from_device(slot.serial(), e);
        let size = device.screen_size().await.map_err(lost)?;
        let area = match container {
            Some(Target::Element(id)) => {
                let screen = self.current_screen(state, slot, ctl).await?;
                screen
                    .element(*id)
                    .ok_or(SessionError::StaleElement {
                        id: *id,
                        count: screen.element_count(),
                    })?
                    .bounds
            }
            Some(other) => {
                let p = self.resolve(state, slot, other, ctl).await?;
                let screen = self.current_screen(state, slot, ctl).await?;
                screen
                    .main_scrollable()
                    .filter(|e| e.bounds.contains(p))
                    .map(|e| e.bounds)
                    .unwrap_or(crate::geom::Bounds::new(0, 0, size.width, size.height))
            }
            None => {
                let screen = self.current_screen(state, slot, ctl).await?;
                screen
                    .main_scrollable()
                    .map(|e| e.bounds)
                    .unwrap_or(crate::geom::Bounds::new(0, 0, size.width, size.height))
            }
        };
        let area = area.intersect(&crate::geom::Bounds::new(0, 0, size.width, size.height));
        // Content moving to reveal what is `direction` means the finger moves the other way.
        let (from, to) = swipe_within(area, direction);
        let Some(query) = until else {
            device.swipe(from, to, 400).await.map_err(lost)?;
            return Ok(None);
        };
        let max_swipes = max_swipes.clamp(1, 50);
        for swipe in 0..=max_swipes {
            ctl.check()?;
            let screen = self.current_screen(state, slot, ctl).await?;
            if let Some(found) = screen.find_text(query) {
                return Ok(Some(format!(
                    "found {query:?} as #{} after {swipe} swipes",
                    found.id
                )));
            }
            if swipe == max_swipes {
                break;
            }
            let before = screen.clone();
            device.swipe(from, to, 400).await.map_err(lost)?;
            slot.bump_generation();
            self.settle_locked(state, device, ctl).await?;
            ctl.report(
                (swipe + 1) as f64,
                Some(max_swipes as f64),
                format!("scrolled {} times looking for {query:?}", swipe + 1),
            );
            let after = self.current_screen(state, slot, ctl).await?;
            if after.same_as(&before) {
                return Err(SessionError::ScrollExhausted {
                    query: query.to_string(),
                    swipes: swipe + 1,
                    reached_end: true,
                });
            }
        }
        Err(SessionError::ScrollExhausted {
            query: query.to_string(),
            swipes: max_swipes,
            reached_end: false,
        })
    }

    #[allow(clippy::too_many_arguments)]
    async fn type_text(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        text: &str,
        into: Option<&Target>,
        clear: bool,
        submit: bool,
        ctl: &Control,
    ) -> Result<Option<String>, SessionError> {
        let device = &slot.device;
        let lost = |e| SessionError::from_device(slot.serial(), e);
        if text.chars().count() > MAX_TEXT_CHARS {
            return Err(SessionError::BadArgument(format!(
                "text is at most {MAX_TEXT_CHARS} characters"
            )));
        }
        if let Some(target) = into {
            let p = self.resolve(state, slot, target, ctl).await?;
            device.tap(p).await.map_err(lost)?;
            slot.bump_generation();
            self.settle_locked(state, device, ctl).await?;
        }
        if clear {
            let screen = self.current_screen(state, slot, ctl).await?;
            let existing = screen
                .focused_field()
                .map(|f| f.text.chars().count())
                .unwrap_or(0)
                .min(1000);
            if existing > 0 {
                let mut codes = vec![123u32]; // MOVE_END, then one DEL per character
                codes.extend(std::iter::repeat_n(67u32, existing));
                device.keys(&codes).await.map_err(lost)?;
            }
        }
        let route = device.type_text(text).await.map_err(lost)?;
        if submit {
            device.keys(&[66]).await.map_err(lost)?;
        }
        Ok(Some(
            if route.is_broadcast() {
                "typed via IME broadcast"
            } else {
                "typed via input text"
            }
            .to_string(),
        ))
    }

    async fn open_app(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        query: &str,
        ctl: &Control,
    ) -> Result<Option<String>, SessionError> {
        let device = &slot.device;
        let lost = |e| SessionError::from_device(slot.serial(), e);
        let query = query.trim();
        if query.is_empty() {
            return Err(SessionError::BadArgument("app must not be empty".into()));
        }
        let apps = device.apps().await.map_err(lost)?;
        let ranked = apps::rank(query, &apps);
        if let Some(best) = ranked.first().filter(|m| m.score >= apps::CONFIDENT) {
            device.launch(&best.entry).await.map_err(lost)?;
            return Ok(Some(format!(
                "opened {} ({})",
                best.entry.label(),
                best.entry.package
            )));
        }
        // The launcher shows labels in the phone's own language: look there before giving up.
        device.keys(&[3]).await.map_err(lost)?;
        slot.bump_generation();
        self.settle_locked(state, device, ctl).await?;
        let screen = self.current_screen(state, slot, ctl).await?;
        if let Some(icon) = screen.find_text(query) {
            device.tap(icon.center).await.map_err(lost)?;
            slot.bump_generation();
            self.settle_locked(state, device, ctl).await?;
            if let Some(fg) = device.foreground().await.map_err(lost)? {
                device.learn_label(&fg.package, &icon.text);
                return Ok(Some(format!(
                    "opened {} ({}) from the launcher",
                    icon.text, fg.package
                )));
            }
        }
        Err(SessionError::UnknownApp {
            query: query.to_string(),
            suggestions: ranked
                .iter()
                .take(3)
                .map(|m| format!("{} ({})", m.entry.label(), m.entry.package))
                .collect(),
        })
    }
}

/// "switched to Clock (com.google.android.deskclock)"; the bare package when it has no launcher label.
async fn switched_to(device: &Device, package: &str) -> String {
    let label = match device.apps().await {
        Ok(apps) => apps
            .into_iter()
            .find(|a| a.package == package)
            .map(|a| a.label().to_string()),
        Err(_) => None,
    };
    match label {
        Some(l) if l != package => format!("switched to {l} ({package})"),
        _ => format!("switched to {package}"),
    }
}

async fn dump(device: &Device) -> Result<Screen, SessionError> {
    let xml = device
        .dump_xml()
        .await
        .map_err(|e| SessionError::from_device(device.serial(), e))?;
    Screen::parse(xml).map_err(|e| SessionError::Hierarchy(e.to_string()))
}

fn offset(p: Point, direction: Direction, d: i32) -> Point {
    match direction {
        Direction::Up => Point::new(p.x, p.y - d),
        Direction::Down => Point::new(p.x, p.y + d),
        Direction::Left => Point::new(p.x - d, p.y),
        Direction::Right => Point::new(p.x + d, p.y),
    }
}

fn clamp_to_screen(p: Point, size: ScreenSize) -> Point {
    Point::new(
        p.x.clamp(0, (size.width - 1).max(0)),
        p.y.clamp(0, (size.height - 1).max(0)),
    )
}

/// The finger path inside `area` that scrolls content towards `direction`: 25%–75% of the extent.
fn swipe_within(area: crate::geom::Bounds, direction: Direction) -> (Point, Point) {
    let c = area.center();
    let (h, w) = (area.height(), area.width());
    let (near_y, far_y) = (area.top + h / 4, area.bottom - h / 4 - 1);
    let (near_x, far_x) = (area.left + w / 4, area.right - w / 4 - 1);
    match direction {
        Direction::Down => (Point::new(c.x, far_y), Point::new(c.x, near_y)),
        Direction::Up => (Point::new(c.x, near_y), Point::new(c.x, far_y)),
        Direction::Right => (Point::new(far_x, c.y), Point::new(near_x, c.y)),
        Direction::Left => (Point::new(near_x, c.y), Point::new(far_x, c.y)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Bounds;

    #[test]
    fn scrolling_down_drags_the_finger_up() {
        let (from, to) = swipe_within(Bounds::new(0, 200, 1080, 2200), Direction::Down);
        assert!(from.y > to.y);
        assert_eq!(from.x, 540);
        let (from, to) = swipe_within(Bounds::new(0, 0, 1000, 100), Direction::Right);
        assert!(from.x > to.x);
    }

    #[test]
    fn directions_parse() {
        assert_eq!(Direction::parse(" Up"), Some(Direction::Up));
        assert_eq!(Direction::parse("sideways"), None);
    }
}

//! The observation side of a session: reading the settled screen (elements, screenshot, XML), the
//! settle loop after an action, and what changed since the last observation.

use std::time::{Duration, Instant};

use droidmcp_device::image::{self as shot, Encoding, Screenshot};
use droidmcp_device::{AppEntry, Device, DeviceStatus, Foreground, ScreenSize};

use super::{ChangeKind, Changes, Control, DeviceSlot, Screen, Session, SessionError, State};

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

/// How long to wait for the UI to stop changing after an action.
///
/// The pause between dumps follows the device: it is as long as the last dump took, kept within
/// `min_poll..=max_poll`. A phone that dumps in a millisecond (the embedded one) has already drawn
/// the result of the input it just took, so waiting 40 ms there only slows every action; a real
/// phone whose dump takes a second gets the full `max_poll` between dumps for the app to react.
#[derive(Debug, Clone, Copy)]
pub struct SettlePolicy {
    pub timeout: Duration,
    pub min_poll: Duration,
    pub max_poll: Duration,
}

impl Default for SettlePolicy {
    fn default() -> Self {
        SettlePolicy {
            timeout: Duration::from_secs(3),
            min_poll: Duration::from_millis(2),
            max_poll: Duration::from_millis(40),
        }
    }
}

impl SettlePolicy {
    /// The pause before the next dump, given how long the last one took.
    pub fn pause_after(&self, dump_took: Duration) -> Duration {
        dump_took.clamp(self.min_poll, self.max_poll.max(self.min_poll))
    }
}

impl Session {
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

    /// Where the slider in `bounds` has its thumb, read from a fresh frame (`None` when the frame or
    /// the thumb cannot be read).
    pub(super) async fn thumb(
        &self,
        slot: &DeviceSlot,
        bounds: droidmcp_geom::Bounds,
    ) -> Option<f64> {
        let frame = slot.device.screen_pixels().await.ok()?;
        droidmcp_hierarchy::slider::thumb_fraction(&frame, bounds)
    }

    /// Resolves once this session's device changed (any session acted on it) and the action is over.
    pub async fn screen_changed(&self) {
        let slot = self.state.lock().await.lease.slot().clone();
        slot.changed().await
    }

    /// The phone's everyday state: battery, radios, volumes, brightness, time, language, screen and
    /// the app in front. Reading it changes nothing, so it is no step.
    pub async fn device_status(&self) -> Result<DeviceStatus, SessionError> {
        let slot = self.state.lock().await.lease.slot().clone();
        slot.device
            .status()
            .await
            .map_err(|e| SessionError::from_device(slot.serial(), e))
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
    pub(super) async fn current_screen<'a>(
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

    /// The screen as the phone shows it now, dumped afresh: what an action aims at. The phone may
    /// have changed with no session acting (a key pressed over adb, an app's own timer, a call
    /// coming in), and the generation counter sees only sessions, so an element id, a text or a
    /// point is never read on a remembered screen.
    pub(super) async fn screen_now(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        ctl: &Control,
    ) -> Result<Screen, SessionError> {
        self.fresh_screen(state, slot, ctl).await?;
        Ok(state
            .screen
            .as_ref()
            .expect("fresh_screen stores a screen on success")
            .0
            .clone())
    }

    pub(super) async fn fresh_screen(
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
    pub(super) async fn settle_locked(
        &self,
        state: &mut State,
        device: &Device,
        ctl: &Control,
    ) -> Result<bool, SessionError> {
        let deadline = Instant::now() + self.settle.timeout;
        let mut dumped = Instant::now();
        let mut previous = dump(device).await?;
        let generation = state.lease.slot().generation();
        loop {
            ctl.check()?;
            if Instant::now() >= deadline {
                state.screen = Some((previous, generation));
                return Ok(false);
            }
            ctl.sleep(self.settle.pause_after(dumped.elapsed())).await?;
            dumped = Instant::now();
            let next = dump(device).await?;
            if next.same_as(&previous) {
                state.screen = Some((next, generation));
                return Ok(true);
            }
            previous = next;
        }
    }

    pub(super) async fn observe_locked(
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
        // Sliders carry no value in the dump; their thumb is read from the frame (best effort: a
        // frame that cannot be read only leaves the value out).
        let sliders = opts.elements && !screen.sliders().is_empty();
        let frame = if opts.screenshot {
            ctl.check()?;
            Some(device.screen_pixels().await.map_err(lost)?)
        } else if sliders {
            device.screen_pixels().await.ok()
        } else {
            None
        };
        let screenshot = if let (true, Some(img)) = (opts.screenshot, &frame) {
            let factor = shot::downscale_factor(img.width(), img.height(), opts.max_edge);
            let scaled = shot::scale(img, factor);
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
        slot.memory.remember(&screen);
        Ok(Observation {
            serial: slot.serial().to_string(),
            foreground,
            size,
            elements: opts.elements.then(|| match (&frame, sliders) {
                (Some(f), true) => screen.compact_with_sliders(f),
                _ => screen.compact(),
            }),
            element_count: screen.element_count(),
            xml: opts.xml.then(|| screen.xml.clone()),
            screenshot,
            digest: screen.digest(),
            changes,
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

pub(super) async fn dump(device: &Device) -> Result<Screen, SessionError> {
    let xml = device
        .dump_xml()
        .await
        .map_err(|e| SessionError::from_device(device.serial(), e))?;
    Screen::parse(xml).map_err(|e| SessionError::Hierarchy(e.to_string()))
}

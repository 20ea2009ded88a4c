//! `Session::act`: the one path every actor's action takes to the device (MCP agents, REST, the
//! manual CLI, golden/empty/wrong replays). It aims the action at the current screen, carries out
//! each gesture, lets the UI settle, and records every gesture as a [`Step`], failed ones included.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::targets::{clamp_to_screen, direction_of, offset};
use super::{
    command, ActOutcome, Action, Clamped, Control, DeviceSlot, ElementRef, Gesture, ObserveOptions,
    Recorded, Screen, Session, SessionError, SliderReading, State, Step, LONG_PRESS_MS,
    MAX_GESTURE_MS, MAX_WAIT_MS, MIN_SWIPE_MS,
};
use droidmcp_geom::Point;

/// What one `act` call has done so far: its steps and the facts its outcome reports.
pub(super) struct Attempt {
    pub description: String,
    pub kind: &'static str,
    /// The digest of the observation the caller aimed at (ids are read against it).
    pub aimed_at: Option<String>,
    pub steps: usize,
    pub episode: Option<Recorded>,
    pub target: Option<ElementRef>,
    pub point: Option<Point>,
    pub end: Option<Point>,
    pub resolved_from: Option<u32>,
    pub clamped: Option<Clamped>,
    pub slider: Option<SliderReading>,
    pub detail: Option<String>,
    pub field_text: Option<String>,
    pub settled: bool,
    /// Some input reached the phone outside a recorded gesture (the tap that focuses a field, the
    /// HOME key before looking for an app in the launcher): a failure then is no refusal.
    pub touched: bool,
    /// The screen before the first gesture and after the last.
    pub first: Option<Screen>,
    pub last: Option<Screen>,
}

impl Attempt {
    fn new(action: &Action) -> Attempt {
        Attempt {
            description: action.describe(),
            kind: action.kind(),
            aimed_at: None,
            steps: 0,
            episode: None,
            target: None,
            point: None,
            end: None,
            resolved_from: None,
            clamped: None,
            slider: None,
            detail: None,
            field_text: None,
            settled: true,
            touched: false,
            first: None,
            last: None,
        }
    }

    /// Bounds a duration, remembering when it had to change.
    pub fn clamp_ms(&mut self, requested: u32, min: u32, max: u32) -> u32 {
        let used = requested.clamp(min, max);
        if used != requested {
            self.clamped = Some(Clamped {
                requested_ms: requested as u64,
                used_ms: used as u64,
            });
        }
        used
    }

    /// Refuses another gesture once the episode said the step limit is reached.
    pub(super) fn may_continue(&self) -> Result<(), SessionError> {
        match self.episode.as_ref().and_then(|r| r.stop.clone()) {
            Some(reason) => Err(SessionError::Stopped(reason)),
            None => Ok(()),
        }
    }
}

impl Session {
    /// Performs `action`, waits for the UI to settle, records its steps, and observes when asked.
    /// Element ids are read against the session's last observation.
    pub async fn act(
        &self,
        action: Action,
        observe: Option<&ObserveOptions>,
        ctl: &Control,
    ) -> Result<ActOutcome, SessionError> {
        self.act_seen(action, None, observe, ctl)
            .await
            .map_err(|f| f.error)
    }

    /// [`Session::act`] with element ids read against the observation whose digest is `seen` (one of
    /// the last few any client got of this phone). An id whose element is no longer on screen is
    /// refused with what changed; one whose element moved to another id is followed there. A failure
    /// says what the open task episode made of it (a refusal is no step; the steps left).
    pub async fn act_seen(
        &self,
        action: Action,
        seen: Option<&str>,
        observe: Option<&ObserveOptions>,
        ctl: &Control,
    ) -> Result<ActOutcome, ActFailure> {
        let started = Instant::now();
        // Before waiting for the phone: an argument too large to be meant must not hold the
        // device's turn (other sessions on it) while it is matched or encoded.
        if let Err(error) = action.check_sizes() {
            return Err(ActFailure {
                error,
                episode: None,
            });
        }
        let mut state = self.state.lock().await;
        let slot = state.lease.slot().clone();
        let _turn = slot.turn.lock().await;
        let mut run = Attempt::new(&action);
        let result = self
            .perform(&mut state, &slot, &action, seen, ctl, &mut run)
            .await;
        if let Err(e) = &result {
            if run.steps == 0 {
                // Nothing was recorded yet: the attempt goes into the log, as a refusal when no
                // input reached the phone.
                let before = state.screen.as_ref().map(|(s, _)| s.clone());
                let at = (Instant::now(), Utc::now());
                self.record(&slot, &mut run, None, before, None, Some(e), at)
                    .await;
            }
        }
        let failed = |error, run: &Attempt| ActFailure {
            error,
            episode: run.episode.clone(),
        };
        if let Err(e) = result {
            return Err(failed(e, &run));
        }
        let observation = match observe {
            Some(opts) => match self.observe_locked(&mut state, &slot, opts, ctl).await {
                Ok(o) => Some(o),
                Err(e) => return Err(failed(e, &run)),
            },
            None => None,
        };
        Ok(outcome(run, observation, started))
    }

    /// Turns one action into gestures and carries them out.
    async fn perform(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        action: &Action,
        seen: Option<&str>,
        ctl: &Control,
        run: &mut Attempt,
    ) -> Result<(), SessionError> {
        ctl.check()?;
        match action {
            Action::Tap(target) | Action::DoubleTap(target) => {
                let before = self.screen_now(state, slot, ctl).await?;
                let aim = self.aim(state, slot, &before, target, seen, run).await?;
                let gesture = if matches!(action, Action::Tap(_)) {
                    Gesture::Tap {
                        point: aim.point,
                        element: aim.element,
                    }
                } else {
                    Gesture::DoubleTap {
                        point: aim.point,
                        element: aim.element,
                    }
                };
                self.gesture(state, slot, ctl, run, before, gesture).await?;
            }
            Action::LongPress {
                target,
                duration_ms,
            } => {
                let before = self.screen_now(state, slot, ctl).await?;
                let aim = self.aim(state, slot, &before, target, seen, run).await?;
                let duration_ms = run.clamp_ms(*duration_ms, LONG_PRESS_MS, MAX_GESTURE_MS);
                let gesture = Gesture::LongPress {
                    point: aim.point,
                    element: aim.element,
                    duration_ms,
                };
                self.gesture(state, slot, ctl, run, before, gesture).await?;
            }
            Action::Swipe {
                from,
                to,
                duration_ms,
            } => {
                let before = self.screen_now(state, slot, ctl).await?;
                let a = self.aim(state, slot, &before, from, seen, run).await?;
                let target = run.target.take();
                let b = self.aim(state, slot, &before, to, seen, run).await?;
                run.target = target;
                run.point = Some(a.point);
                run.end = Some(b.point);
                let duration_ms = run.clamp_ms(*duration_ms, MIN_SWIPE_MS, MAX_GESTURE_MS);
                let gesture = Gesture::Swipe {
                    from: a.point,
                    to: b.point,
                    direction: direction_of(a.point, b.point),
                    duration_ms,
                };
                self.gesture(state, slot, ctl, run, before, gesture).await?;
            }
            Action::SwipeDirection {
                direction,
                from,
                distance,
                duration_ms,
            } => {
                let before = self.screen_now(state, slot, ctl).await?;
                let size = slot
                    .device
                    .screen_size()
                    .await
                    .map_err(|e| SessionError::from_device(slot.serial(), e))?;
                let start = match from {
                    Some(t) => self.aim(state, slot, &before, t, seen, run).await?.point,
                    None => Point::new(size.width / 2, size.height / 2),
                };
                let default = match direction {
                    super::Direction::Up | super::Direction::Down => size.height / 3,
                    super::Direction::Left | super::Direction::Right => size.width / 3,
                };
                let d = distance.unwrap_or(default);
                if d <= 0 {
                    return Err(SessionError::BadArgument(format!(
                        "distance must be positive, got {d}"
                    )));
                }
                let end = clamp_to_screen(offset(start, *direction, d), size);
                run.point = Some(start);
                run.end = Some(end);
                let duration_ms = run.clamp_ms(*duration_ms, MIN_SWIPE_MS, MAX_GESTURE_MS);
                let gesture = Gesture::Swipe {
                    from: start,
                    to: end,
                    direction: Some(*direction),
                    duration_ms,
                };
                self.gesture(state, slot, ctl, run, before, gesture).await?;
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
                    ctl,
                    run,
                    *direction,
                    container.as_ref(),
                    until.as_ref(),
                    *max_swipes,
                )
                .await?;
            }
            Action::TypeText {
                text,
                into,
                clear,
                submit,
            } => {
                self.type_text(
                    state,
                    slot,
                    ctl,
                    run,
                    seen,
                    text,
                    into.as_ref(),
                    *clear,
                    *submit,
                )
                .await?;
            }
            Action::PressKey { key } => {
                let code = command::keycode(key)
                    .ok_or_else(|| SessionError::UnknownKey { key: key.clone() })?;
                let before = self.current_screen(state, slot, ctl).await?.clone();
                let name = command::key_name(code)
                    .map(str::to_string)
                    .unwrap_or_else(|| code.to_string());
                run.detail = Some(format!("keycode {code}"));
                self.gesture(state, slot, ctl, run, before, Gesture::Key { name, code })
                    .await?;
            }
            Action::OpenApp { app } => self.open_app(state, slot, ctl, run, app).await?,
            Action::Wait { ms } => {
                if *ms > MAX_WAIT_MS {
                    return Err(SessionError::BadArgument(format!(
                        "wait is at most {MAX_WAIT_MS} ms, got {ms}"
                    )));
                }
                let before = self.current_screen(state, slot, ctl).await?.clone();
                self.gesture(state, slot, ctl, run, before, Gesture::Wait { ms: *ms })
                    .await?;
            }
        }
        Ok(())
    }

    /// Carries out one gesture aimed at `before`, lets the UI settle and records the step (with the
    /// error, when the device failed). Returns the settled screen.
    pub(super) async fn gesture(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        ctl: &Control,
        run: &mut Attempt,
        before: Screen,
        gesture: Gesture,
    ) -> Result<Screen, SessionError> {
        run.may_continue()?;
        // A slider's value is in no dump: its thumb, read from the screen before and after, is
        // what says whether a touch on it did anything.
        let slider = gesture
            .point()
            .and_then(|p| before.element_at(p))
            .filter(|e| e.role == "slider")
            .map(|e| e.bounds);
        let was = match slider {
            Some(b) => self.thumb(slot, b).await,
            None => None,
        };
        let at = (Instant::now(), Utc::now());
        let sent = self.send(slot, ctl, &gesture).await;
        let after = self
            .settle_step(state, slot, ctl, run, Some(gesture), before, sent, at)
            .await?;
        if let Some(b) = slider {
            run.slider = Some(SliderReading {
                before: was,
                after: self.thumb(slot, b).await,
            });
        }
        Ok(after)
    }

    /// After a gesture was sent (`sent`): marks the device changed, settles, records the step.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn settle_step(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        ctl: &Control,
        run: &mut Attempt,
        gesture: Option<Gesture>,
        before: Screen,
        sent: Result<(), SessionError>,
        at: (Instant, DateTime<Utc>),
    ) -> Result<Screen, SessionError> {
        // A failed gesture may still have changed the screen.
        slot.bump_generation();
        let settled = match sent {
            Ok(()) => self.settle_locked(state, &slot.device, ctl).await,
            Err(e) => Err(e),
        };
        let after = match &settled {
            Ok(done) => {
                run.settled &= *done;
                state.screen.as_ref().map(|(s, _)| s.clone())
            }
            Err(_) => None,
        };
        let error = settled.as_ref().err();
        run.first.get_or_insert_with(|| before.clone());
        if after.is_some() {
            run.last = after.clone();
        }
        self.record(slot, run, gesture, Some(before), after.clone(), error, at)
            .await;
        settled?;
        Ok(after.expect("a settled gesture leaves a screen"))
    }

    /// The device calls of a single gesture (typing and launching have their own sequences).
    async fn send(
        &self,
        slot: &DeviceSlot,
        ctl: &Control,
        gesture: &Gesture,
    ) -> Result<(), SessionError> {
        let device = &slot.device;
        let lost = |e| SessionError::from_device(slot.serial(), e);
        ctl.check()?;
        match gesture {
            Gesture::Tap { point, .. } => device.tap(*point).await.map_err(lost),
            Gesture::DoubleTap { point, .. } => device.double_tap(*point).await.map_err(lost),
            Gesture::LongPress {
                point, duration_ms, ..
            } => device.long_press(*point, *duration_ms).await.map_err(lost),
            Gesture::Swipe {
                from,
                to,
                duration_ms,
                ..
            } => device.swipe(*from, *to, *duration_ms).await.map_err(lost),
            Gesture::Key { code, .. } => device.keys(&[*code]).await.map_err(lost),
            Gesture::Wait { ms } => {
                let total = *ms as f64;
                let mut waited = 0u64;
                while waited < *ms {
                    let step = (*ms - waited).min(1000);
                    ctl.sleep(Duration::from_millis(step)).await?;
                    waited += step;
                    ctl.report(waited as f64, Some(total), format!("waited {waited} ms"));
                }
                Ok(())
            }
            Gesture::Type { .. } | Gesture::OpenApp { .. } => Err(SessionError::BadArgument(
                "typing and launching are not single gestures".into(),
            )),
        }
    }

    /// Records one step in the session and hands it to the step sink (a task episode).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn record(
        &self,
        slot: &DeviceSlot,
        run: &mut Attempt,
        gesture: Option<Gesture>,
        before: Option<Screen>,
        after: Option<Screen>,
        error: Option<&SessionError>,
        at: (Instant, DateTime<Utc>),
    ) {
        let refused = gesture.is_none() && error.is_some() && !run.touched;
        let device_lost = error.is_some_and(SessionError::is_device_lost);
        let error = error.map(|e| e.to_string());
        let step = Step {
            index: 0,
            action: run.description.clone(),
            kind: run.kind,
            gesture,
            started_at: at.1,
            elapsed_ms: at.0.elapsed().as_millis() as u64,
            refused,
            error,
            device_lost,
            aimed_at: run
                .aimed_at
                .clone()
                .or_else(|| before.as_ref().map(Screen::digest)),
            observation_digest: after.as_ref().map(Screen::digest),
            foreground: after.as_ref().and_then(Screen::foreground),
            before,
            after,
            serial: slot.serial().to_string(),
            device_key: slot.device.device_key(),
            activity: None,
            recorded: Vec::new(),
            episode: None,
        };
        run.steps += 1;
        let step = slot.memory.push_step(step);
        if let Some(sink) = self.step_sink() {
            let recorded = sink.record(&self.id, &step).await;
            if let Some(id) = &recorded.episode {
                slot.memory
                    .mark_episode(step.index, id, recorded.episode_step);
            }
            run.episode = Some(recorded);
        }
    }
}

/// Why an action failed, and what the open task episode made of the attempt (`None` outside an
/// episode): a refusal costs no step, and the reply says how many are left.
#[derive(Debug)]
pub struct ActFailure {
    pub error: SessionError,
    pub episode: Option<Recorded>,
}

/// The outcome of a finished attempt.
fn outcome(run: Attempt, observation: Option<super::Observation>, started: Instant) -> ActOutcome {
    let after = match (&run.target, &run.last) {
        (Some(t), Some(last)) => last.same_element(t),
        _ => None,
    };
    let fg_before = run.first.as_ref().and_then(Screen::foreground);
    let foreground = run.last.as_ref().and_then(Screen::foreground);
    let foreground_changed = run.last.is_some() && fg_before != foreground;
    // Nothing changed only when the element list is the same and no slider thumb moved.
    let slider_moved = run.slider.is_some_and(|s| s.moved());
    let no_effect = match (&run.first, &run.last) {
        (Some(a), Some(b)) if a.same_as(b) && !slider_moved => {
            no_effect_hint(run.kind, run.target.as_ref())
        }
        _ => None,
    };
    ActOutcome {
        action: run.description,
        point: run.point,
        end: run.end,
        resolved_from: run.resolved_from,
        target: run.target,
        after,
        field_text: run.field_text,
        foreground,
        foreground_changed,
        clamped: run.clamped,
        no_effect,
        slider: run.slider,
        detail: run.detail,
        steps: run.steps,
        episode: run.episode,
        elapsed_ms: started.elapsed().as_millis() as u64,
        settled: run.settled,
        observation,
    }
}

/// What an action that changed nothing on screen probably means, and what to try.
fn no_effect_hint(kind: &str, target: Option<&ElementRef>) -> Option<String> {
    let hint = match (kind, target) {
        ("tap" | "double_tap", Some(e)) if !e.tappable => format!(
            "the screen did not change: {} is not tappable; tap the control that holds it, or try long_press",
            e.describe()
        ),
        ("tap" | "double_tap" | "long_press", Some(e)) => format!(
            "the screen did not change after touching {}; it may be disabled, or need another gesture",
            e.describe()
        ),
        ("tap" | "double_tap" | "long_press", None) => {
            "the screen did not change: nothing reacts at that point; aim at an element id from `screen`".to_string()
        }
        ("swipe" | "scroll", _) => {
            "the screen did not change: nothing moved (the end of the list, or nothing scrollable there)".to_string()
        }
        ("press_key", _) => "the screen did not change after the key".to_string(),
        _ => return None,
    };
    Some(hint)
}

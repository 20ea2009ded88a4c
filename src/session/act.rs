//! `Session::act`: the one path every actor's action takes to the device — carry it out, let the UI
//! settle, record the step.

use std::time::{Duration, Instant};

use super::targets::{clamp_to_screen, offset};
use super::{
    command, ActOutcome, Action, Control, DeviceSlot, Direction, ObserveOptions, Session,
    SessionError, State, Step, LONG_PRESS_MS, MAX_WAIT_MS,
};
use crate::geom::Point;

impl Session {
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
}

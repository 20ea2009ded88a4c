//! The compound actions: scrolling (optionally until a target shows, one step per swipe), typing
//! into a field (focusing it first, clearing all it holds), and opening an app by name (falling back
//! to the launcher's labels).

use std::time::Instant;

use chrono::Utc;

use super::act::Attempt;
use super::targets::{swipe_within, Aim};
use super::{
    apps, Control, DeviceSlot, Direction, Gesture, Screen, Session, SessionError, State, Target,
    MAX_SWIPES, MAX_TEXT_CHARS,
};
use droidmcp_geom::Bounds;

/// How long a scroll's swipe takes.
const SCROLL_SWIPE_MS: u32 = 400;
/// Rounds of MOVE_END + DEL before giving up on emptying a field.
const CLEAR_ROUNDS: usize = 3;
const KEY_MOVE_END: u32 = 123;
const KEY_DEL: u32 = 67;
const KEY_ENTER: u32 = 66;
const KEY_HOME: u32 = 3;

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn scroll(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        ctl: &Control,
        run: &mut Attempt,
        direction: Direction,
        container: Option<&Target>,
        until: Option<&Target>,
        max_swipes: u32,
    ) -> Result<(), SessionError> {
        let size = slot
            .device
            .screen_size()
            .await
            .map_err(|e| SessionError::from_device(slot.serial(), e))?;
        let full = Bounds::new(0, 0, size.width, size.height);
        let mut screen = self.screen_now(state, slot, ctl).await?;
        let area = match container {
            Some(target) => {
                let aim = self.aim(state, slot, &screen, target, None, run).await?;
                match (target, &aim.element) {
                    (Target::Element(_) | Target::ElementAt { .. }, Some(e)) => e.bounds,
                    _ => screen
                        .main_scrollable()
                        .filter(|e| e.bounds.contains(aim.point))
                        .map(|e| e.bounds)
                        .unwrap_or(full),
                }
            }
            None => screen.main_scrollable().map(|e| e.bounds).unwrap_or(full),
        };
        let (from, to) = swipe_within(area.intersect(&full), direction);
        run.point = Some(from);
        run.end = Some(to);
        let swipe = Gesture::Swipe {
            from,
            to,
            // Content moving to reveal what is `direction` means the finger moves the other way.
            direction: Some(direction.opposite()),
            duration_ms: SCROLL_SWIPE_MS,
        };
        let Some(query) = until else {
            self.gesture(state, slot, ctl, run, screen, swipe).await?;
            return Ok(());
        };
        if matches!(query, Target::Point(_)) {
            return Err(SessionError::BadArgument(
                "scroll until needs a text, element or selector, not a point".into(),
            ));
        }
        let query = self.resolve_strings(slot, query).await?;
        let query = query.as_ref();
        let max_swipes = max_swipes.clamp(1, MAX_SWIPES);
        for swipe_no in 0..=max_swipes {
            ctl.check()?;
            if let Some(found) = locate(&screen, query) {
                run.detail = Some(match &found.element {
                    Some(e) => format!("found {query} as #{} after {swipe_no} swipes", e.id),
                    None => format!("found {query} at {} after {swipe_no} swipes", found.point),
                });
                run.target = found.element;
                return Ok(());
            }
            if swipe_no == max_swipes {
                break;
            }
            let after = self
                .gesture(state, slot, ctl, run, screen.clone(), swipe.clone())
                .await?;
            ctl.report(
                (swipe_no + 1) as f64,
                Some(max_swipes as f64),
                format!("scrolled {} times looking for {query}", swipe_no + 1),
            );
            if after.same_as(&screen) {
                return Err(SessionError::ScrollExhausted {
                    query: query.to_string(),
                    swipes: swipe_no + 1,
                    reached_end: true,
                });
            }
            screen = after;
        }
        Err(SessionError::ScrollExhausted {
            query: query.to_string(),
            swipes: max_swipes,
            reached_end: false,
        })
    }

    /// Types `text` into the focused field, or into `into` (tapped first to focus it). With nothing
    /// focused it fails rather than type into the void.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn type_text(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        ctl: &Control,
        run: &mut Attempt,
        seen: Option<&str>,
        text: &str,
        into: Option<&Target>,
        clear: bool,
        submit: bool,
    ) -> Result<(), SessionError> {
        let device = &slot.device;
        let lost = |e| SessionError::from_device(slot.serial(), e);
        if text.chars().count() > MAX_TEXT_CHARS {
            return Err(SessionError::BadArgument(format!(
                "text is at most {MAX_TEXT_CHARS} characters"
            )));
        }
        run.may_continue()?;
        let at = (Instant::now(), Utc::now());
        // Focus is read from the phone, never from a remembered dump: the page, another client, a
        // task's setup or the app itself may have moved it since.
        let mut before = self.screen_now(state, slot, ctl).await?;
        let aimed = before.clone();
        let mut tapped = None;
        if let Some(target) = into {
            let aim = self.aim(state, slot, &before, target, seen, run).await?;
            run.touched = true;
            device.tap(aim.point).await.map_err(lost)?;
            slot.bump_generation();
            self.settle_locked(state, device, ctl).await?;
            before = self.current_screen(state, slot, ctl).await?.clone();
            tapped = Some(aim);
        }
        let Some(field) = before.focused_field() else {
            return Err(match tapped {
                Some(Aim {
                    element: Some(e), ..
                }) => SessionError::NotAField(e.describe()),
                _ => SessionError::NothingFocused,
            });
        };
        run.target = Some(field.clone());
        let sent = async {
            if clear {
                self.clear_field(state, slot, ctl, &field).await?;
            }
            let route = device.type_text(text).await.map_err(lost)?;
            if submit {
                device.keys(&[KEY_ENTER]).await.map_err(lost)?;
            }
            Ok(route)
        }
        .await;
        let (sent, route) = match sent {
            Ok(route) => (Ok(()), Some(route)),
            Err(e) => (Err(e), None),
        };
        run.detail = route.map(|r| {
            if r.is_broadcast() {
                "typed via IME broadcast"
            } else {
                "typed via input text"
            }
            .to_string()
        });
        let gesture = Gesture::Type {
            text: text.to_string(),
            field: Some(field.clone()),
            cleared: clear,
            submitted: submit,
        };
        let after = self
            .settle_step(state, slot, ctl, run, Some(gesture), aimed, sent, at)
            .await?;
        run.field_text = after.same_element(&field).map(|f| f.text);
        Ok(())
    }

    /// Deletes everything the focused field holds: MOVE_END then one DEL per character, checked on
    /// the settled screen and repeated while text remains (a field may hold more than it shows).
    async fn clear_field(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        ctl: &Control,
        field: &super::ElementRef,
    ) -> Result<(), SessionError> {
        let lost = |e| SessionError::from_device(slot.serial(), e);
        let mut remaining = field.text.chars().count();
        for _ in 0..CLEAR_ROUNDS {
            if remaining == 0 {
                return Ok(());
            }
            let mut codes = vec![KEY_MOVE_END];
            codes.extend(std::iter::repeat_n(KEY_DEL, remaining));
            slot.device.keys(&codes).await.map_err(lost)?;
            slot.bump_generation();
            self.settle_locked(state, &slot.device, ctl).await?;
            let screen = self.current_screen(state, slot, ctl).await?;
            remaining = screen
                .focused_field()
                .map(|f| f.text.chars().count())
                .unwrap_or(0);
        }
        if remaining > 0 {
            return Err(SessionError::ClearFailed { remaining });
        }
        Ok(())
    }

    pub(super) async fn open_app(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        ctl: &Control,
        run: &mut Attempt,
        query: &str,
    ) -> Result<(), SessionError> {
        let device = &slot.device;
        let lost = |e| SessionError::from_device(slot.serial(), e);
        let query = query.trim();
        if query.is_empty() {
            return Err(SessionError::BadArgument("app must not be empty".into()));
        }
        run.may_continue()?;
        let before = self.screen_now(state, slot, ctl).await?;
        let apps = device.apps().await.map_err(lost)?;
        let ranked = apps::rank(query, &apps);
        let at = (Instant::now(), Utc::now());
        if let Some(best) = ranked
            .first()
            .filter(|m| m.score >= apps::CONFIDENT || m.entry.package == query)
        {
            let sent = device.launch(&best.entry).await.map_err(lost);
            run.detail = Some(format!(
                "opened {} ({})",
                best.entry.label(),
                best.entry.package
            ));
            let gesture = Gesture::OpenApp {
                package: best.entry.package.clone(),
                label: best.entry.label().to_string(),
            };
            self.settle_step(state, slot, ctl, run, Some(gesture), before, sent, at)
                .await?;
            return Ok(());
        }
        // The launcher shows labels in the phone's own language: look there before giving up.
        let in_front = device.foreground().await.map_err(lost)?;
        run.touched = true;
        device.keys(&[KEY_HOME]).await.map_err(lost)?;
        slot.bump_generation();
        self.settle_locked(state, device, ctl).await?;
        let home = self.current_screen(state, slot, ctl).await?.clone();
        if let Some(icon) = home.find_text(query) {
            let sent = device.tap(icon.center).await.map_err(lost);
            slot.bump_generation();
            let sent = match sent {
                Ok(()) => self.settle_locked(state, device, ctl).await.map(|_| ()),
                Err(e) => Err(e),
            };
            let package = match sent {
                Ok(()) => device.foreground().await.map_err(lost)?.map(|f| f.package),
                Err(_) => None,
            };
            if let Some(package) = package {
                device.learn_label(&package, &icon.label);
                run.detail = Some(format!(
                    "opened {} ({package}) from the launcher",
                    icon.label
                ));
                let gesture = Gesture::OpenApp {
                    package,
                    label: icon.label.clone(),
                };
                self.settle_step(state, slot, ctl, run, Some(gesture), before, Ok(()), at)
                    .await?;
                return Ok(());
            }
            sent?;
        }
        // No such app: the app that was in front comes back, and when the phone shows what it
        // showed before, the call was a refusal that cost no step (as any other unknown name).
        if let Some(entry) = in_front.and_then(|f| apps.iter().find(|a| a.package == f.package)) {
            device.launch(entry).await.map_err(lost)?;
            slot.bump_generation();
            self.settle_locked(state, device, ctl).await?;
        }
        let now = self.current_screen(state, slot, ctl).await?;
        if now.same_as(&before) {
            run.touched = false;
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

/// Where `query` is on `screen`, if it is.
fn locate(screen: &Screen, query: &Target) -> Option<Aim> {
    let element = |e: super::ElementRef| Aim {
        point: e.center,
        element: Some(e),
    };
    match query {
        Target::Text(text) => screen.find_text(text).map(element),
        Target::Element(id) => screen.element(*id).map(element),
        Target::ElementAt { id, fx, fy } => screen.element(*id).map(|e| Aim {
            point: super::targets::within(e.bounds, *fx, *fy),
            element: Some(e),
        }),
        Target::Selector(s) | Target::Within { selector: s, .. } => {
            let point = screen.node_bounds(s).ok()?.center();
            Some(Aim {
                point,
                element: screen.element_at(point),
            })
        }
        Target::Point(_) => None,
    }
}

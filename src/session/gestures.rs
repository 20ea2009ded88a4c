//! The compound actions: scrolling (optionally until a text shows), typing into a field, and opening
//! an app by name (falling back to the launcher's labels).

use super::targets::swipe_within;
use super::{
    apps, Control, DeviceSlot, Direction, Session, SessionError, State, Target, MAX_TEXT_CHARS,
};
use crate::geom::Bounds;

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn scroll(
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
                    .unwrap_or(Bounds::new(0, 0, size.width, size.height))
            }
            None => {
                let screen = self.current_screen(state, slot, ctl).await?;
                screen
                    .main_scrollable()
                    .map(|e| e.bounds)
                    .unwrap_or(Bounds::new(0, 0, size.width, size.height))
            }
        };
        let area = area.intersect(&Bounds::new(0, 0, size.width, size.height));
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
    pub(super) async fn type_text(
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

    pub(super) async fn open_app(
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

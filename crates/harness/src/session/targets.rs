//! Where an action lands: targets resolved to points (and the element there) on the current screen,
//! element ids read against the observation the caller saw, and the geometry of directional
//! gestures.

use std::borrow::Cow;

use droidmcp_device::ScreenSize;
use droidmcp_geom::{Bounds, Point};

use super::act::Attempt;
use super::{DeviceSlot, Direction, ElementRef, Screen, Session, SessionError, State, Target};

/// The point at fractions `fx`, `fy` (clamped to 0–1) of box `b`'s width and height.
pub(super) fn within(b: Bounds, fx: f64, fy: f64) -> Point {
    Point::new(
        b.left + ((b.width() - 1) as f64 * fx.clamp(0.0, 1.0)).round() as i32,
        b.top + ((b.height() - 1) as f64 * fy.clamp(0.0, 1.0)).round() as i32,
    )
}

/// A resolved target: the point a touch lands on and the element there.
pub(super) struct Aim {
    pub point: Point,
    pub element: Option<ElementRef>,
}

impl Session {
    /// Resolves `target` on `current` (the screen about to be acted on) and checks the point is on
    /// the screen. The first target of an action becomes the outcome's `target`/`point`.
    pub(super) async fn aim(
        &self,
        state: &mut State,
        slot: &DeviceSlot,
        current: &Screen,
        target: &Target,
        seen: Option<&str>,
        run: &mut Attempt,
    ) -> Result<Aim, SessionError> {
        let size = slot
            .device
            .screen_size()
            .await
            .map_err(|e| SessionError::from_device(slot.serial(), e))?;
        let original = target;
        let target = self.resolve_strings(slot, target).await?;
        // A miss names the selector as the caller wrote it and the text it stood for here.
        let missed = |e: SessionError| match e {
            SessionError::NoMatch(here) if !matches!(target, Cow::Borrowed(_)) => {
                SessionError::NoMatch(format!("{original} (here {here})"))
            }
            e => e,
        };
        let aim = match target.as_ref() {
            Target::Point(p) => Aim {
                point: *p,
                element: current.element_at(*p),
            },
            Target::Element(id) => {
                let e = self.element_seen(state, slot, current, *id, seen, run)?;
                Aim {
                    point: e.center,
                    element: Some(e),
                }
            }
            Target::Text(text) => {
                let e = current
                    .find_text(text)
                    .ok_or_else(|| SessionError::TextNotFound(text.clone()))?;
                Aim {
                    point: e.center,
                    element: Some(e),
                }
            }
            Target::Selector(selector) => {
                let b = current.node_bounds(selector).map_err(missed)?;
                let point = b.center();
                Aim {
                    point,
                    element: current.element_at(point),
                }
            }
            Target::ElementAt { id, fx, fy } => {
                let e = self.element_seen(state, slot, current, *id, seen, run)?;
                let mut point = within(e.bounds, *fx, *fy);
                // On a slider, `fx` is on the scale its `at~N%` reading uses: along the track as
                // the frame shows it (inside the bar's padding), so asking for the value read
                // sets that value. The box's edges when the bar cannot be read.
                if e.role == "slider" {
                    if let Some(x) = slot.device.screen_pixels().await.ok().and_then(|frame| {
                        droidmcp_hierarchy::slider::track_x(&frame, e.bounds, *fx)
                    }) {
                        point.x = x;
                    }
                }
                Aim {
                    point,
                    element: Some(e),
                }
            }
            Target::Within { selector, fx, fy } => {
                let b = current.node_bounds(selector).map_err(missed)?;
                let point = within(b, *fx, *fy);
                Aim {
                    point,
                    element: current.element_at(point),
                }
            }
        };
        let p = aim.point;
        if p.x < 0 || p.y < 0 || p.x >= size.width || p.y >= size.height {
            return Err(SessionError::OutOfScreen {
                x: p.x,
                y: p.y,
                width: size.width,
                height: size.height,
            });
        }
        if run.point.is_none() {
            run.point = Some(p);
            run.target = aim.element.clone();
        }
        Ok(aim)
    }

    /// `target` with the string resources its selector names (`text:@pkg:string/name`) replaced
    /// by their text on the device, in the locale it has now: a language task may have changed it
    /// since the last action, so nothing is cached. Every actor aims through here.
    pub(super) async fn resolve_strings<'t>(
        &self,
        slot: &DeviceSlot,
        target: &'t Target,
    ) -> Result<Cow<'t, Target>, SessionError> {
        let selector = match target {
            Target::Selector(s) | Target::Within { selector: s, .. } => s,
            _ => return Ok(Cow::Borrowed(target)),
        };
        if selector.string_refs().next().is_none() {
            return Ok(Cow::Borrowed(target));
        }
        let resolved = slot
            .device
            .resolve_strings(selector)
            .await
            .map_err(|e| SessionError::from_device(slot.serial(), e))?;
        Ok(Cow::Owned(match target {
            Target::Within { fx, fy, .. } => Target::Within {
                selector: resolved,
                fx: *fx,
                fy: *fy,
            },
            _ => Target::Selector(resolved),
        }))
    }

    /// Element `id` as the caller saw it (the observation `seen`, else this session's last one),
    /// found on `current`: the same element under the same id, or followed to its new id when the
    /// screen changed; refused when it is gone. Without any observation the id is read on
    /// `current` itself.
    fn element_seen(
        &self,
        state: &State,
        slot: &DeviceSlot,
        current: &Screen,
        id: u32,
        seen: Option<&str>,
        run: &mut Attempt,
    ) -> Result<ElementRef, SessionError> {
        let base = match seen {
            Some(digest) => Some(
                slot.memory
                    .observation(digest)
                    .ok_or_else(|| SessionError::UnknownObservation(digest.to_string()))?,
            ),
            None => state.observed.clone(),
        };
        let Some(base) = base.as_ref() else {
            return current.element(id).ok_or(SessionError::StaleElement {
                id,
                count: current.element_count(),
            });
        };
        run.aimed_at = Some(base.digest());
        let was = base.element(id).ok_or(SessionError::StaleElement {
            id,
            count: base.element_count(),
        })?;
        if base.digest() == current.digest() {
            return Ok(was);
        }
        match current.same_element(&was) {
            Some(now) => {
                if now.id != id {
                    run.resolved_from = Some(id);
                }
                Ok(now)
            }
            None => Err(SessionError::ElementGone {
                id,
                was: was.describe(),
                now: current
                    .element(id)
                    .map(|e| e.describe())
                    .unwrap_or_else(|| "nothing".into()),
            }),
        }
    }
}

pub(super) fn offset(p: Point, direction: Direction, d: i32) -> Point {
    match direction {
        Direction::Up => Point::new(p.x, p.y - d),
        Direction::Down => Point::new(p.x, p.y + d),
        Direction::Left => Point::new(p.x - d, p.y),
        Direction::Right => Point::new(p.x + d, p.y),
    }
}

pub(super) fn clamp_to_screen(p: Point, size: ScreenSize) -> Point {
    Point::new(
        p.x.clamp(0, (size.width - 1).max(0)),
        p.y.clamp(0, (size.height - 1).max(0)),
    )
}

/// The direction a finger moved from `a` to `b` (its larger axis); `None` when it did not move.
pub(super) fn direction_of(a: Point, b: Point) -> Option<Direction> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    if dx == 0 && dy == 0 {
        None
    } else if dy.abs() >= dx.abs() {
        Some(if dy < 0 {
            Direction::Up
        } else {
            Direction::Down
        })
    } else {
        Some(if dx < 0 {
            Direction::Left
        } else {
            Direction::Right
        })
    }
}

/// The finger path inside `area` that scrolls content towards `direction` (25%–75% of the extent):
/// to see what is further down, the finger moves up, as on a real phone.
pub(super) fn swipe_within(area: Bounds, direction: Direction) -> (Point, Point) {
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

    #[test]
    fn scrolling_down_drags_the_finger_up() {
        let (from, to) = swipe_within(Bounds::new(0, 200, 1080, 2200), Direction::Down);
        assert!(from.y > to.y);
        assert_eq!(from.x, 540);
        assert_eq!(direction_of(from, to), Some(Direction::Up));
        let (from, to) = swipe_within(Bounds::new(0, 0, 1000, 100), Direction::Right);
        assert!(from.x > to.x);
        assert_eq!(direction_of(from, to), Some(Direction::Left));
        assert_eq!(direction_of(from, from), None);
    }

    #[test]
    fn directions_parse() {
        assert_eq!(Direction::parse(" Up"), Some(Direction::Up));
        assert_eq!(Direction::parse("sideways"), None);
        assert_eq!(Direction::Down.opposite(), Direction::Up);
    }
}

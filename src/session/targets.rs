//! Where an action lands: targets resolved to points on the current screen, and the geometry of
//! directional gestures.

use crate::device::ScreenSize;
use crate::geom::{Bounds, Point};

use super::{Control, DeviceSlot, Direction, Session, SessionError, State, Target};

impl Session {
    /// A target as a point on screen, checked against the screen size.
    pub(super) async fn resolve(
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

/// The finger path inside `area` that scrolls content towards `direction`: 25%–75% of the extent.
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
        let (from, to) = swipe_within(Bounds::new(0, 0, 1000, 100), Direction::Right);
        assert!(from.x > to.x);
    }

    #[test]
    fn directions_parse() {
        assert_eq!(Direction::parse(" Up"), Some(Direction::Up));
        assert_eq!(Direction::parse("sideways"), None);
    }
}

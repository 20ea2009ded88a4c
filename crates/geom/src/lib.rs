//! Screen geometry shared by every layer: points and rectangles in device pixels.

use std::fmt;

/// A point on the screen in device pixels (may lie outside the screen; callers check).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A rectangle as uiautomator reports it: `[left,top][right,bottom]`, right/bottom exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bounds {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
}

impl Bounds {
    pub const fn new(left: i32, top: i32, right: i32, bottom: i32) -> Self {
        Bounds {
            left,
            top,
            right,
            bottom,
        }
    }

    pub fn width(&self) -> i32 {
        (self.right - self.left).max(0)
    }

    pub fn height(&self) -> i32 {
        (self.bottom - self.top).max(0)
    }

    pub fn area(&self) -> i64 {
        self.width() as i64 * self.height() as i64
    }

    pub fn is_empty(&self) -> bool {
        self.width() == 0 || self.height() == 0
    }

    pub fn center(&self) -> Point {
        Point::new(self.left + self.width() / 2, self.top + self.height() / 2)
    }

    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.left && p.x < self.right && p.y >= self.top && p.y < self.bottom
    }

    /// The overlap of two rectangles, empty (zero-size at `self`'s corner) when they do not meet.
    pub fn intersect(&self, other: &Bounds) -> Bounds {
        let b = Bounds::new(
            self.left.max(other.left),
            self.top.max(other.top),
            self.right.min(other.right),
            self.bottom.min(other.bottom),
        );
        if b.right <= b.left || b.bottom <= b.top {
            Bounds::new(self.left, self.top, self.left, self.top)
        } else {
            b
        }
    }

    pub fn offset(&self, dx: i32, dy: i32) -> Bounds {
        Bounds::new(
            self.left + dx,
            self.top + dy,
            self.right + dx,
            self.bottom + dy,
        )
    }

    /// Parses uiautomator's `[l,t][r,b]` notation.
    pub fn parse(s: &str) -> Option<Bounds> {
        let s = s.trim();
        let rest = s.strip_prefix('[')?;
        let (first, rest) = rest.split_once("][")?;
        let second = rest.strip_suffix(']')?;
        let (l, t) = first.split_once(',')?;
        let (r, b) = second.split_once(',')?;
        Some(Bounds::new(
            l.trim().parse().ok()?,
            t.trim().parse().ok()?,
            r.trim().parse().ok()?,
            b.trim().parse().ok()?,
        ))
    }
}

impl fmt::Display for Bounds {
    /// uiautomator's notation, so a dump written by us reads like a real one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{},{}][{},{}]",
            self.left, self.top, self.right, self.bottom
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_round_trip_through_uiautomator_notation() {
        let b = Bounds::parse("[0,63][1080,210]").unwrap();
        assert_eq!(b, Bounds::new(0, 63, 1080, 210));
        assert_eq!(b.to_string(), "[0,63][1080,210]");
        assert_eq!(b.center(), Point::new(540, 136));
        assert!(Bounds::parse("[0,63][1080]").is_none());
        assert!(Bounds::parse("").is_none());
    }

    #[test]
    fn intersect_of_disjoint_rects_is_empty() {
        let a = Bounds::new(0, 0, 10, 10);
        assert!(a.intersect(&Bounds::new(20, 20, 30, 30)).is_empty());
        assert_eq!(
            a.intersect(&Bounds::new(5, 5, 30, 30)),
            Bounds::new(5, 5, 10, 10)
        );
    }
}

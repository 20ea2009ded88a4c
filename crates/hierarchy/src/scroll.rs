//! Whether a scrollable container has more content beyond its edges, read from the dump alone.
//!
//! uiautomator dumps carry no scroll position, but they clip every node's bounds to what is visible:
//! an item cut by the container's edge is shorter than its siblings. So an item cut at the bottom
//! edge means there is more below, one cut at the top means more above (likewise left and right).
//! A list that ends exactly on an item boundary shows nothing cut and reports no hint: the hint is
//! a fact when present, silence is not a promise that the list ends. An item is measured against
//! siblings of its own kind (resource id and class), so a day's heading above its taller event rows
//! is not taken for a row cut at the top; an item with no sibling of its kind says nothing.

use super::node::{Hierarchy, NodeId};
use droidmcp_geom::Bounds;

/// The directions in which a container visibly continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct More {
    pub up: bool,
    pub down: bool,
    pub left: bool,
    pub right: bool,
}

impl More {
    pub fn any(&self) -> bool {
        self.up || self.down || self.left || self.right
    }

    /// `more-up`, `more-down`, `more-left`, `more-right`, in that order, for the ones that hold.
    pub fn words(&self) -> impl Iterator<Item = &'static str> {
        [
            (self.up, "more-up"),
            (self.down, "more-down"),
            (self.left, "more-left"),
            (self.right, "more-right"),
        ]
        .into_iter()
        .filter_map(|(on, w)| on.then_some(w))
    }
}

/// An item is cut when it is shorter (or narrower) than this share of its siblings' median: rows
/// of one kind are laid out alike, so even a row cut by a few pixels at the edge is one.
const CUT_SHARE: i64 = 97;

/// What lies beyond the edges of scrollable node `container`, clipped to `visible`.
pub fn more(h: &Hierarchy, container: NodeId, visible: Bounds) -> More {
    let items = items(h, container, visible);
    if items.len() < 2 {
        return More::default();
    }
    let bounds: Vec<Bounds> = items.iter().map(|(_, b)| *b).collect();
    let vertical = spread(&bounds, |b| b.top) >= spread(&bounds, |b| b.left);
    // Each item and the visible area as a (start, end) span along the axis the items follow.
    let span = |b: &Bounds| {
        if vertical {
            (b.top, b.bottom)
        } else {
            (b.left, b.right)
        }
    };
    let (lo, hi) = span(&visible);
    // Whether item `i` is shorter than its kind's median (only with another of its kind to compare).
    let cut = |i: usize| {
        let sizes_of = |alike: &dyn Fn(NodeId) -> bool| -> Vec<i64> {
            items
                .iter()
                .filter(|(n, _)| alike(*n))
                .map(|(_, b)| span(b))
                .map(|(a, b)| (b - a) as i64)
                .collect()
        };
        let mine = kind(h, items[i].0);
        let mut sizes = sizes_of(&|n| kind(h, n) == mine);
        if sizes.len() < 2 {
            // A form's fields each have their own id (title, servings, source): an input is
            // measured against the other inputs, so the one cut by the edge still says so.
            let class = mine.map(|(_, c)| c);
            sizes = sizes_of(&|n| kind(h, n).map(|(_, c)| c) == class);
        }
        if sizes.len() < 2 {
            return false;
        }
        sizes.sort_unstable();
        let median = sizes[sizes.len() / 2];
        let (a, b) = span(&items[i].1);
        ((b - a) as i64) * 100 < median * CUT_SHARE
    };
    let first = (0..items.len())
        .min_by_key(|&i| span(&items[i].1).0)
        .expect("two items");
    let last = (0..items.len())
        .max_by_key(|&i| span(&items[i].1).1)
        .expect("two items");
    let before = span(&items[first].1).0 <= lo && cut(first);
    let after = span(&items[last].1).1 >= hi && cut(last);
    if vertical {
        More {
            up: before,
            down: after,
            ..More::default()
        }
    } else {
        More {
            left: before,
            right: after,
            ..More::default()
        }
    }
}

/// The container's items: its visible children, looking through a lone child that fills it (a
/// ScrollView's single LinearLayout) to that child's children.
fn items(h: &Hierarchy, container: NodeId, visible: Bounds) -> Vec<(NodeId, Bounds)> {
    let mut parent = container;
    for _ in 0..4 {
        let kids = visible_children(h, parent, visible);
        match kids.as_slice() {
            [(only, b)] if *b == visible => parent = *only,
            _ => return kids,
        }
    }
    Vec::new()
}

/// What makes items alike: a list's rows share their resource id and class, its headings theirs.
fn kind(h: &Hierarchy, n: NodeId) -> Option<(&str, &str)> {
    h.node(n)
        .map(|n| (n.resource_id.as_str(), n.class.as_str()))
}

fn visible_children(h: &Hierarchy, parent: NodeId, visible: Bounds) -> Vec<(NodeId, Bounds)> {
    let Some(node) = h.node(parent) else {
        return Vec::new();
    };
    node.children
        .iter()
        .filter_map(|&c| {
            let b = h.node(c)?.bounds.intersect(&visible);
            (!b.is_empty()).then_some((c, b))
        })
        .collect()
}

/// How many distinct values `key` takes over `items`: the axis items are laid out along varies more.
fn spread(items: &[Bounds], key: fn(&Bounds) -> i32) -> usize {
    let mut v: Vec<i32> = items.iter().map(key).collect();
    v.sort_unstable();
    v.dedup();
    v.len()
}

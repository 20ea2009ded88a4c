//! One settled screen as the session sees it: the dump's XML and, through `crate::hierarchy`, its
//! element list. Everything the session asks of elements (find by id or text, the focused field, the
//! scroll container, the digest, what changed) goes through this file, so it is the one place that
//! knows the hierarchy module's API.

use crate::geom::{Bounds, Point};
use std::sync::Arc;

use crate::hierarchy::{self, Element, ElementId, ElementList, Hierarchy, Options, RenderOptions};

/// What the session needs to know about one element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementRef {
    pub id: u32,
    pub bounds: Bounds,
    pub center: Point,
    pub text: String,
}

/// A parsed, settled screen.
#[derive(Debug, Clone)]
pub struct Screen {
    pub xml: String,
    inner: Arc<Parsed>,
}

#[derive(Debug)]
struct Parsed {
    hierarchy: Hierarchy,
    list: ElementList,
    compact: String,
}

/// Why a dump could not become a screen.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct ScreenError(pub String);

fn to_ref(e: &Element) -> ElementRef {
    ElementRef {
        id: e.id.0,
        bounds: e.bounds,
        center: e.center,
        text: e.label().to_string(),
    }
}

impl Screen {
    pub fn parse(xml: String) -> Result<Screen, ScreenError> {
        let hierarchy = hierarchy::parse(xml.as_bytes()).map_err(|e| ScreenError(e.to_string()))?;
        let list = ElementList::from_hierarchy(&hierarchy, &Options::default());
        let compact = hierarchy::render(&hierarchy, &list, &RenderOptions::default());
        Ok(Screen {
            xml,
            inner: Arc::new(Parsed {
                hierarchy,
                list,
                compact,
            }),
        })
    }

    /// Whether two dumps show the same UI (the settle criterion: identical element lists).
    pub fn same_as(&self, other: &Screen) -> bool {
        self.inner.list == other.inner.list
    }

    /// A short stable fingerprint of what is on screen, for step records.
    pub fn digest(&self) -> String {
        format!("{:016x}", fnv1a(self.inner.compact.as_bytes()))
    }

    pub fn element(&self, id: u32) -> Option<ElementRef> {
        self.inner.list.get(ElementId(id)).map(to_ref)
    }

    pub fn element_count(&self) -> usize {
        self.inner.list.len()
    }

    /// The element showing exactly `query` (case-insensitive), else the first that contains it;
    /// tappable elements win ties.
    pub fn find_text(&self, query: &str) -> Option<ElementRef> {
        let q = query.trim().to_lowercase();
        if q.is_empty() {
            return None;
        }
        let mut best: Option<(u8, &Element)> = None;
        for e in &self.inner.list.elements {
            let strings: Vec<String> = e.strings().map(str::to_lowercase).collect();
            let rank = if strings.iter().any(|s| *s == q) {
                2
            } else if strings.iter().any(|s| s.contains(&q)) {
                1
            } else {
                continue;
            } * 2
                + u8::from(e.actions.tap);
            if best.is_none_or(|(b, _)| rank > b) {
                best = Some((rank, e));
            }
        }
        best.map(|(_, e)| to_ref(e))
    }

    /// The biggest scrollable container, where a bare "scroll" acts.
    pub fn main_scrollable(&self) -> Option<ElementRef> {
        self.inner
            .list
            .elements
            .iter()
            .filter(|e| e.actions.scroll)
            .max_by_key(|e| e.bounds.area())
            .map(to_ref)
    }

    /// The focused editable field, with its current text (not its hint).
    pub fn focused_field(&self) -> Option<ElementRef> {
        self.inner
            .list
            .elements
            .iter()
            .find(|e| e.state.focused && e.actions.type_text)
            .map(|e| {
                let mut r = to_ref(e);
                r.text = e.text.clone();
                r
            })
    }

    /// The compressed element list for a model.
    pub fn compact(&self) -> String {
        self.inner.compact.clone()
    }

    /// What changed from `old` to `self`, compact (`+` added, `-` removed, `~` changed).
    pub fn changes_since(&self, old: &Screen) -> String {
        let d = hierarchy::diff(&old.inner.list, &self.inner.list);
        if d.is_empty() {
            "no change".into()
        } else {
            hierarchy::format::compact_diff(&d, false)
        }
    }

    /// Draws numbered marks (labels = element ids) on a screenshot that is `scale` times smaller
    /// than the screen.
    pub fn annotate(&self, img: &image::RgbaImage, scale: f64) -> image::RgbaImage {
        hierarchy::annotate(img, &self.inner.list.elements, (1.0 / scale) as f32)
    }

    /// The element list itself, for front ends that draw or describe elements (same ids as
    /// [`Screen::compact`]).
    pub fn list(&self) -> &ElementList {
        &self.inner.list
    }

    /// The parsed dump, for callers that need more than the element list.
    pub fn hierarchy(&self) -> &Hierarchy {
        &self.inner.hierarchy
    }
}

/// FNV-1a, 64 bit: stable across runs and Rust versions, unlike std's hasher.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

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

/// How a screen differs from the one observed before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChangeKind {
    #[default]
    Unchanged,
    /// Another app is in front.
    AppSwitch,
    /// The same app shows a different screen (most elements replaced).
    NewScreen,
    /// Some elements were added, removed or changed.
    Updated,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Unchanged => "none",
            ChangeKind::AppSwitch => "app_switch",
            ChangeKind::NewScreen => "new_screen",
            ChangeKind::Updated => "updated",
        }
    }
}

/// What changed between two observations.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes {
    pub kind: ChangeKind,
    /// The foreground package before and after.
    pub packages: (Option<String>, Option<String>),
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
    /// One line, or the compact diff.
    pub text: String,
}

/// The longest diff a reply carries; the element list after it has the rest.
pub const MAX_DIFF_LINES: usize = 20;

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

    /// The foreground package the dump names.
    pub fn package(&self) -> Option<&str> {
        self.inner.list.package.as_deref()
    }

    /// What changed from `old` to `self`. Another app, or a screen that shares little with the old
    /// one, is said in one line (the element list that follows shows it); otherwise the compact diff
    /// (`+` added, `-` removed, `~` changed), at most [`MAX_DIFF_LINES`] lines.
    pub fn changes_since(&self, old: &Screen) -> Changes {
        let (from, to) = (old.package(), self.package());
        let packages = (from.map(str::to_string), to.map(str::to_string));
        if from.is_some() && to.is_some() && from != to {
            return Changes {
                kind: ChangeKind::AppSwitch,
                packages,
                text: format!("switched to {}", to.unwrap_or_default()),
                ..Changes::default()
            };
        }
        let d = hierarchy::diff(&old.inner.list, &self.inner.list);
        let counts = (d.added.len(), d.removed.len(), d.changed.len());
        let mut changes = Changes {
            packages,
            added: counts.0,
            removed: counts.1,
            changed: counts.2,
            ..Changes::default()
        };
        let kept = self.element_count().saturating_sub(counts.0);
        if d.is_empty() {
            changes.text = "no change".into();
        } else if counts.0 + counts.1 > 6 && kept * 3 < self.element_count() {
            changes.kind = ChangeKind::NewScreen;
            changes.text = format!(
                "new screen: {} elements gone, {} new, {kept} kept",
                counts.1, counts.0
            );
        } else {
            changes.kind = ChangeKind::Updated;
            let full = hierarchy::format::compact_diff(&d, false);
            let lines: Vec<&str> = full.lines().collect();
            changes.text = if lines.len() > MAX_DIFF_LINES {
                format!(
                    "{}\n… and {} more changes",
                    lines[..MAX_DIFF_LINES].join("\n"),
                    lines.len() - MAX_DIFF_LINES
                )
            } else {
                lines.join("\n")
            };
        }
        changes
    }

    /// Draws numbered marks (labels = element ids) on a screenshot that is `scale` times smaller
    /// than the screen.
    pub fn annotate(&self, img: &image::RgbaImage, scale: f64) -> image::RgbaImage {
        hierarchy::annotate(img, &self.inner.list.elements, (1.0 / scale) as f32)
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

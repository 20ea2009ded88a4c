//! One settled screen as the session sees it: the dump's XML and, through `droidmcp_hierarchy`, its
//! element list. Everything the session asks of elements (find by id or text, the focused field, the
//! scroll container, the digest, what changed) goes through this file, so it is the one place that
//! knows the hierarchy module's API.

use droidmcp_geom::{Bounds, Point};
use std::sync::Arc;

use droidmcp_hierarchy::{
    self as hierarchy, Element, ElementId, ElementList, Hierarchy, Options, RenderOptions, Selector,
};

/// What the session needs to know about one element, and what an action reports about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementRef {
    pub id: u32,
    /// The role's short name (`btn`, `input`, `switch`, …).
    pub role: &'static str,
    /// What to call it by: text, else description, folded text or hint.
    pub label: String,
    pub resource_id: String,
    pub bounds: Bounds,
    pub center: Point,
    /// `Some` for checkable elements.
    pub checked: Option<bool>,
    /// What it holds: for a field, its text exactly as the dump has it (untrimmed, empty when only
    /// the hint shows); else its own text.
    pub text: String,
    /// Whether touching it does something (clickable, checkable or editable).
    pub tappable: bool,
    /// The label of the smallest tappable element around it (the card or row it is part of; empty
    /// when there is none): two lookalikes (each alarm card's "Expand alarm") differ by it.
    pub context: String,
}

impl ElementRef {
    /// `#12 btn "Save"` — how replies name an element.
    pub fn describe(&self) -> String {
        if self.label.is_empty() {
            format!("#{} {}", self.id, self.role)
        } else {
            format!("#{} {} {:?}", self.id, self.role, self.label)
        }
    }
}

/// A parsed, settled screen.
#[derive(Debug, Clone)]
pub struct Screen {
    pub xml: String,
    inner: Arc<Parsed>,
}

#[derive(Debug)]
struct Parsed {
    hierarchy: Arc<Hierarchy>,
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

/// The label of the smallest tappable element whose bounds hold `e`'s and are larger.
fn context_of(e: &Element, list: &ElementList) -> String {
    let b = e.bounds;
    list.elements
        .iter()
        .filter(|c| c.id != e.id && (c.actions.tap || c.actions.long_press) && c.bounds != b)
        .filter(|c| c.bounds.intersect(&b) == b)
        .min_by_key(|c| c.bounds.area())
        .map(|c| c.label().to_string())
        .unwrap_or_default()
}

fn to_ref(e: &Element, list: &ElementList, h: &Hierarchy) -> ElementRef {
    let node = e.nodes.first().and_then(|n| h.node(*n));
    let text = match node {
        Some(n) if e.actions.type_text => {
            // Some builds report the hint as the text of an empty field.
            if !n.hint.is_empty() && n.text == n.hint {
                String::new()
            } else {
                n.text.clone()
            }
        }
        _ => e.text.clone(),
    };
    ElementRef {
        id: e.id.0,
        role: e.role.as_str(),
        label: e.label().to_string(),
        resource_id: e.resource_id.clone(),
        bounds: e.bounds,
        center: e.center,
        checked: e.state.checked,
        text,
        tappable: e.actions.tap || e.actions.type_text || e.state.checked.is_some(),
        context: context_of(e, list),
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
                hierarchy: Arc::new(hierarchy),
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
        self.inner
            .list
            .get(ElementId(id))
            .map(|e| to_ref(e, &self.inner.list, &self.inner.hierarchy))
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
        best.map(|(_, e)| to_ref(e, &self.inner.list, &self.inner.hierarchy))
    }

    /// The biggest scrollable container, where a bare "scroll" acts.
    pub fn main_scrollable(&self) -> Option<ElementRef> {
        self.inner
            .list
            .elements
            .iter()
            .filter(|e| e.actions.scroll)
            .max_by_key(|e| e.bounds.area())
            .map(|e| to_ref(e, &self.inner.list, &self.inner.hierarchy))
    }

    /// The focused editable field, with its current text (not its hint).
    pub fn focused_field(&self) -> Option<ElementRef> {
        self.inner
            .list
            .elements
            .iter()
            .find(|e| e.state.focused && e.actions.type_text)
            .map(|e| to_ref(e, &self.inner.list, &self.inner.hierarchy))
    }

    /// The element a touch at `p` lands on: the smallest one containing it.
    pub fn element_at(&self, p: Point) -> Option<ElementRef> {
        self.inner
            .list
            .elements
            .iter()
            .filter(|e| e.bounds.contains(p))
            .min_by_key(|e| e.bounds.area())
            .map(|e| to_ref(e, &self.inner.list, &self.inner.hierarchy))
    }

    /// The element on this screen that is `e` from another screen: same role, resource id and
    /// label (a field may have changed its text, so it is matched by place instead), preferring the
    /// same id, then the nearest. While the card or row `e` was part of is still here
    /// ([`ElementRef::context`]), only an element inside it qualifies: the 8:30 alarm's "Expand
    /// alarm" is never the 9:00 one's. A card whose label moved (a running timer's) holds nothing
    /// back.
    pub fn same_element(&self, e: &ElementRef) -> Option<ElementRef> {
        let h = &self.inner.hierarchy;
        let list = &self.inner.list;
        let context_here =
            !e.context.is_empty() && list.elements.iter().any(|c| c.label() == e.context);
        let candidates = list.elements.iter().filter(|c| {
            c.role.as_str() == e.role
                && c.resource_id == e.resource_id
                && (c.label() == e.label || (c.actions.type_text && c.bounds == e.bounds))
                && (!context_here || context_of(c, list) == e.context)
        });
        let dist = |c: &&Element| {
            let (dx, dy) = (
                (c.center.x - e.center.x) as i64,
                (c.center.y - e.center.y) as i64,
            );
            (c.id.0 != e.id, dx * dx + dy * dy)
        };
        candidates
            .min_by_key(dist)
            .map(|c| to_ref(c, &self.inner.list, h))
    }

    /// The bounds of the first node (visible or not in the element list) `selector` picks that has
    /// any area: how golden solutions aim.
    pub fn node_bounds(&self, selector: &Selector) -> Result<Bounds, super::SessionError> {
        let h = &self.inner.hierarchy;
        selector
            .select_nodes(h)
            .into_iter()
            .filter_map(|id| h.node(id))
            .map(|n| n.bounds)
            .find(|b| !b.is_empty())
            .ok_or_else(|| super::SessionError::NoMatch(selector.to_string()))
    }

    /// The foreground package as the dump shows it (the top window that is not the system UI).
    pub fn foreground(&self) -> Option<String> {
        self.inner.hierarchy.top_package().map(str::to_string)
    }

    /// The compressed element list for a model.
    pub fn compact(&self) -> String {
        self.inner.compact.clone()
    }

    /// The sliders on screen: their ids and bounds.
    pub fn sliders(&self) -> Vec<(u32, Bounds)> {
        self.inner
            .list
            .elements
            .iter()
            .filter(|e| e.role == hierarchy::Role::Slider)
            .map(|e| (e.id.0, e.bounds))
            .collect()
    }

    /// [`Screen::compact`] with each slider's thumb position read from `frame` (screen pixels) as a
    /// state word, `at~42%`: the dump carries no slider value, so this is the only one a text-only
    /// agent gets, and the `~` marks it as read from the screen.
    pub fn compact_with_sliders(&self, frame: &image::RgbaImage) -> String {
        let readings: Vec<(u32, f64)> = self
            .sliders()
            .into_iter()
            .filter_map(|(id, b)| hierarchy::slider::thumb_fraction(frame, b).map(|f| (id, f)))
            .collect();
        hierarchy::slider::annotate(&self.inner.compact, &readings)
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

    /// The element list itself, for front ends that draw or describe elements (same ids as
    /// [`Screen::compact`]).
    pub fn list(&self) -> &ElementList {
        &self.inner.list
    }

    /// The parsed dump, for callers that need more than the element list.
    pub fn hierarchy(&self) -> &Arc<Hierarchy> {
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

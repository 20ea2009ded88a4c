//! One settled screen as the session sees it: the dump's XML and, through `crate::hierarchy`, its
//! element list. Everything the session asks of elements (find by id or text, the focused field, the
//! scroll container, the digest, what changed) goes through this file, so it is the one place that
//! knows the hierarchy module's API.

use crate::geom::{Bounds, Point};
use crate::hierarchy::{self, Hierarchy, Node};

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
    /// (id, node index) of every element listed, in order.
    listed: Vec<(u32, usize)>,
    hierarchy: std::sync::Arc<Hierarchy>,
    compact: String,
}

/// Why a dump could not become a screen.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct ScreenError(pub String);

impl Screen {
    pub fn parse(xml: String) -> Result<Screen, ScreenError> {
        let hierarchy = hierarchy::parse(xml.as_bytes()).map_err(|e| ScreenError(e.to_string()))?;
        let mut listed = Vec::new();
        let mut compact = String::new();
        for (index, node) in hierarchy.nodes.iter().enumerate() {
            let shows = !node.text.is_empty() || !node.content_desc.is_empty();
            if node.bounds.is_empty() || !(shows || node.is_actionable()) {
                continue;
            }
            let id = listed.len() as u32 + 1;
            listed.push((id, index));
            let c = node.bounds.center();
            compact.push_str(&format!("[{id}] {}", node.short_class()));
            if !node.text.is_empty() {
                compact.push_str(&format!(" {:?}", node.text));
            }
            if !node.content_desc.is_empty() {
                compact.push_str(&format!(" desc={:?}", node.content_desc));
            }
            if !node.resource_id.is_empty() {
                compact.push_str(&format!(" id={}", node.resource_id_tail()));
            }
            compact.push_str(&format!(" @{},{}", c.x, c.y));
            for (flag, word) in [
                (node.clickable, "tap"),
                (node.long_clickable, "long"),
                (node.is_editable(), "type"),
                (node.scrollable, "scroll"),
                (node.focused, "focused"),
                (node.checked, "checked"),
                (!node.enabled, "disabled"),
            ] {
                if flag {
                    compact.push(' ');
                    compact.push_str(word);
                }
            }
            compact.push('\n');
        }
        Ok(Screen {
            xml,
            listed,
            hierarchy: std::sync::Arc::new(hierarchy),
            compact,
        })
    }

    fn node_ref(&self, id: u32, index: usize) -> Option<ElementRef> {
        let node = self.hierarchy.nodes.get(index)?;
        Some(ElementRef {
            id,
            bounds: node.bounds,
            center: node.bounds.center(),
            text: if node.text.is_empty() {
                node.content_desc.clone()
            } else {
                node.text.clone()
            },
        })
    }

    fn refs(&self) -> impl Iterator<Item = (ElementRef, &Node)> + '_ {
        self.listed.iter().filter_map(|(id, index)| {
            Some((
                self.node_ref(*id, *index)?,
                self.hierarchy.nodes.get(*index)?,
            ))
        })
    }

    /// Whether two dumps show the same UI (the settle criterion).
    pub fn same_as(&self, other: &Screen) -> bool {
        self.compact == other.compact
    }

    /// A short stable fingerprint of what is on screen, for step records.
    pub fn digest(&self) -> String {
        format!("{:016x}", fnv1a(self.compact.as_bytes()))
    }

    pub fn element(&self, id: u32) -> Option<ElementRef> {
        let (_, index) = self.listed.iter().find(|(i, _)| *i == id)?;
        self.node_ref(id, *index)
    }

    pub fn element_count(&self) -> usize {
        self.listed.len()
    }

    /// The element whose text or description is `query` (case-insensitive), else the first that
    /// contains it; tappable elements win ties.
    pub fn find_text(&self, query: &str) -> Option<ElementRef> {
        let q = query.trim().to_lowercase();
        if q.is_empty() {
            return None;
        }
        let mut best: Option<(u8, ElementRef)> = None;
        for (r, node) in self.refs() {
            let strings = [node.text.to_lowercase(), node.content_desc.to_lowercase()];
            let rank = if strings.iter().any(|s| *s == q) {
                2
            } else if strings.iter().any(|s| s.contains(&q)) {
                1
            } else {
                continue;
            } * 2
                + u8::from(node.clickable);
            if best.as_ref().is_none_or(|(b, _)| rank > *b) {
                best = Some((rank, r));
            }
        }
        best.map(|(_, r)| r)
    }

    /// The biggest scrollable container, where a bare "scroll" acts.
    pub fn main_scrollable(&self) -> Option<ElementRef> {
        self.refs()
            .filter(|(_, n)| n.scrollable)
            .max_by_key(|(r, _)| r.bounds.area())
            .map(|(r, _)| r)
    }

    /// The focused editable field.
    pub fn focused_field(&self) -> Option<ElementRef> {
        self.refs()
            .find(|(_, n)| n.focused && n.is_editable())
            .map(|(mut r, n)| {
                r.text = n.text.clone();
                r
            })
    }

    /// The compressed element list for a model.
    pub fn compact(&self) -> String {
        self.compact.clone()
    }

    /// What changed from `old` to `self`, compact.
    pub fn changes_since(&self, old: &Screen) -> String {
        if self.same_as(old) {
            return "no change".into();
        }
        let before: std::collections::HashSet<&str> = old.compact.lines().collect();
        let after: std::collections::HashSet<&str> = self.compact.lines().collect();
        let strip = |l: &str| {
            l.split_once("] ")
                .map(|(_, r)| r.to_string())
                .unwrap_or_default()
        };
        let old_bodies: std::collections::HashSet<String> =
            before.iter().map(|l| strip(l)).collect();
        let new_bodies: std::collections::HashSet<String> =
            after.iter().map(|l| strip(l)).collect();
        let mut out = String::new();
        for line in self.compact.lines() {
            if !old_bodies.contains(&strip(line)) {
                out.push_str(&format!("+ {line}\n"));
            }
        }
        for line in old.compact.lines() {
            if !new_bodies.contains(&strip(line)) {
                out.push_str(&format!("- {line}\n"));
            }
        }
        out
    }

    /// Draws numbered marks (labels = element ids) on a screenshot scaled by `scale`.
    pub fn annotate(&self, img: &image::RgbaImage, _scale: f64) -> image::RgbaImage {
        img.clone()
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

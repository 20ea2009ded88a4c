//! What a compressed observation must keep, defined independently of `hierarchy::elements` from
//! the raw node fields: every visible text/description string and every visible actionable node.
//! Shared by the recall test and `benches/hierarchy.rs`.

#![allow(dead_code)]

use droidmcp::geom::Bounds;
use droidmcp::hierarchy::{Hierarchy, Node, NodeId};

/// The union of the top-level nodes' bounds.
pub fn screen(h: &Hierarchy) -> Bounds {
    let mut s: Option<Bounds> = None;
    for r in &h.roots {
        let b = h.nodes[r.0 as usize].bounds;
        if b.right <= b.left || b.bottom <= b.top {
            continue;
        }
        s = Some(match s {
            None => b,
            Some(s) => Bounds::new(
                s.left.min(b.left),
                s.top.min(b.top),
                s.right.max(b.right),
                s.bottom.max(b.bottom),
            ),
        });
    }
    s.unwrap_or_default()
}

/// On screen for a person: not marked invisible, and some area left after clipping to the screen.
pub fn visible(screen: Bounds, n: &Node) -> bool {
    if !n.visible_to_user {
        return false;
    }
    let b = n.bounds;
    let (l, t) = (b.left.max(screen.left), b.top.max(screen.top));
    let (r, bo) = (b.right.min(screen.right), b.bottom.min(screen.bottom));
    if screen.right <= screen.left {
        return b.right > b.left && b.bottom > b.top;
    }
    r > l && bo > t
}

pub fn actionable(n: &Node) -> bool {
    let class = n.class.rsplit(['.', '$']).next().unwrap_or("");
    let editable = class.ends_with("EditText")
        || class.ends_with("AutoCompleteTextView")
        || class == "SearchAutoComplete";
    n.clickable || n.long_clickable || n.checkable || n.scrollable || editable
}

/// Trimmed, non-empty `text` and `content-desc` values of visible nodes, in document order.
pub fn visible_strings(h: &Hierarchy) -> Vec<String> {
    let screen = screen(h);
    let mut out = Vec::new();
    for n in &h.nodes {
        if !visible(screen, n) {
            continue;
        }
        for s in [n.text.trim(), n.content_desc.trim()] {
            if !s.is_empty() {
                out.push(s.to_string());
            }
        }
    }
    out
}

/// Visible actionable nodes.
pub fn visible_actionable(h: &Hierarchy) -> Vec<NodeId> {
    let screen = screen(h);
    h.nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| visible(screen, n) && actionable(n))
        .map(|(i, _)| NodeId(i as u32))
        .collect()
}

/// Whether `needle` appears in `haystack` verbatim or as a JSON or XML string literal body would
/// write it.
pub fn appears(haystack: &str, needle: &str) -> bool {
    if haystack.contains(needle) {
        return true;
    }
    let json = serde_json::to_string(needle).expect("json string");
    if haystack.contains(&json[1..json.len() - 1]) {
        return true;
    }
    let xml = needle
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    haystack.contains(&xml)
}

//! The document as plain data: an arena of nodes that scripts mutate through the engine's
//! bindings and that layout reads. Plain data so a page's state can be copied whole (a phone
//! snapshot keeps the page as it stands) and read without the script engine.
//!
//! HTML is parsed by html5ever (Servo's spec-following parser) into its reference tree, then
//! copied into the arena, so the tree-building rules (implied `<html>`/`<body>`, `<p>` closing,
//! `innerHTML` fragments in a `<body>` context) are the standard's, not ours.

use std::collections::BTreeMap;

use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

use crate::canvas::Canvas;

pub type NodeId = usize;

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    Document,
    Element(Element),
    Text(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    /// Lower-case tag name.
    pub tag: String,
    pub attrs: Vec<(String, String)>,
    /// Inline style declarations (the `style` attribute and `el.style.x = …`), kebab-case.
    pub style: Vec<(String, String)>,
    /// A form control's current value (`input.value`).
    pub value: String,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn set_attr(&mut self, name: &str, value: &str) {
        if name == "style" {
            self.style = crate::css::parse_declarations(value);
        }
        match self.attrs.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.attrs.push((name.to_string(), value.to_string())),
        }
    }

    pub fn classes(&self) -> impl Iterator<Item = &str> {
        self.attr("class").unwrap_or("").split_ascii_whitespace()
    }

    /// The inline declaration for a kebab-case property.
    pub fn inline(&self, property: &str) -> Option<&str> {
        self.style
            .iter()
            .rev()
            .find(|(k, _)| k == property)
            .map(|(_, v)| v.as_str())
    }

    pub fn set_inline(&mut self, property: &str, value: &str) {
        self.style.retain(|(k, _)| k != property);
        if !value.is_empty() {
            self.style.push((property.to_string(), value.to_string()));
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
}

/// A loaded page's document. Node 0 is the document node; detached nodes stay in the arena.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub nodes: Vec<Node>,
    /// `<canvas>` bitmaps by element, created on first `getContext('2d')`.
    pub canvases: BTreeMap<NodeId, Canvas>,
    /// Event types each node has script listeners for (`addEventListener`, `onclick = …`).
    pub listeners: BTreeMap<NodeId, Vec<String>>,
    /// The layout viewport's width in CSS px (980, or the device's width for a page whose
    /// `<meta name=viewport>` asks for `width=device-width`, as mobile Chrome does).
    pub viewport_width: f32,
    /// Uncaught script errors and `console.error` lines, in order.
    pub errors: Vec<String>,
}

/// Mobile Chrome's layout viewport for a page without a viewport `<meta>`.
pub const DEFAULT_VIEWPORT: f32 = 980.0;

impl Document {
    /// Parses a whole HTML document; `device_width` is the screen's width in CSS px.
    pub fn parse(html: &str, device_width: f32) -> Document {
        let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(html);
        let mut doc = Document {
            nodes: vec![Node {
                kind: NodeKind::Document,
                parent: None,
                children: Vec::new(),
            }],
            canvases: BTreeMap::new(),
            listeners: BTreeMap::new(),
            viewport_width: DEFAULT_VIEWPORT,
            errors: Vec::new(),
        };
        for child in dom.document.children.borrow().iter() {
            if let Some(id) = doc.import(child) {
                doc.append(0, id);
            }
        }
        let wants_device_width = doc.elements_by_tag("meta").into_iter().any(|m| {
            let e = doc.element(m).expect("meta is an element");
            e.attr("name") == Some("viewport")
                && e.attr("content")
                    .is_some_and(|c| c.replace(' ', "").contains("width=device-width"))
        });
        if wants_device_width {
            doc.viewport_width = device_width;
        }
        doc
    }

    /// Parses `html` as the children of a `<body>` (what `innerHTML = …` does) into detached
    /// nodes, returned in order.
    pub fn parse_fragment(&mut self, html: &str) -> Vec<NodeId> {
        let context =
            html5ever::QualName::new(None, html5ever::ns!(html), html5ever::local_name!("body"));
        let dom = html5ever::parse_fragment(
            RcDom::default(),
            Default::default(),
            context,
            Vec::new(),
            false,
        )
        .one(html);
        // The fragment parser puts the nodes under an `<html>` element of its own.
        let root = dom.document.children.borrow();
        let Some(html_el) = root.first() else {
            return Vec::new();
        };
        let nodes: Vec<NodeId> = html_el
            .children
            .borrow()
            .iter()
            .filter_map(|c| self.import(c))
            .collect();
        nodes
    }

    fn import(&mut self, handle: &Handle) -> Option<NodeId> {
        let kind = match &handle.data {
            NodeData::Text { contents } => NodeKind::Text(contents.borrow().to_string()),
            NodeData::Element { name, attrs, .. } => {
                let mut el = Element {
                    tag: name.local.to_string(),
                    attrs: Vec::new(),
                    style: Vec::new(),
                    value: String::new(),
                };
                for a in attrs.borrow().iter() {
                    el.set_attr(&a.name.local, &a.value);
                }
                el.value = el.attr("value").unwrap_or("").to_string();
                NodeKind::Element(el)
            }
            _ => return None,
        };
        let id = self.create(kind);
        // A `<template>`'s content is not part of the tree; the pages have none.
        for child in handle.children.borrow().iter() {
            if let Some(c) = self.import(child) {
                self.append(id, c);
            }
        }
        Some(id)
    }

    pub fn create(&mut self, kind: NodeKind) -> NodeId {
        self.nodes.push(Node {
            kind,
            parent: None,
            children: Vec::new(),
        });
        self.nodes.len() - 1
    }

    pub fn create_element(&mut self, tag: &str) -> NodeId {
        self.create(NodeKind::Element(Element {
            tag: tag.to_ascii_lowercase(),
            attrs: Vec::new(),
            style: Vec::new(),
            value: String::new(),
        }))
    }

    /// Moves `child` (detaching it from where it was) to the end of `parent`'s children.
    pub fn append(&mut self, parent: NodeId, child: NodeId) {
        self.detach(child);
        self.nodes[child].parent = Some(parent);
        self.nodes[parent].children.push(child);
    }

    pub fn detach(&mut self, child: NodeId) {
        if let Some(p) = self.nodes[child].parent.take() {
            self.nodes[p].children.retain(|&c| c != child);
        }
    }

    pub fn remove_children(&mut self, id: NodeId) {
        for c in std::mem::take(&mut self.nodes[id].children) {
            self.nodes[c].parent = None;
        }
    }

    pub fn exists(&self, id: NodeId) -> bool {
        id < self.nodes.len()
    }

    pub fn element(&self, id: NodeId) -> Option<&Element> {
        match &self.nodes.get(id)?.kind {
            NodeKind::Element(e) => Some(e),
            _ => None,
        }
    }

    pub fn element_mut(&mut self, id: NodeId) -> Option<&mut Element> {
        match &mut self.nodes.get_mut(id)?.kind {
            NodeKind::Element(e) => Some(e),
            _ => None,
        }
    }

    /// Descendants of `root` (itself included) in tree order.
    pub fn descendants(&self, root: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            out.push(id);
            stack.extend(self.nodes[id].children.iter().rev());
        }
        out
    }

    pub fn elements_by_tag(&self, tag: &str) -> Vec<NodeId> {
        self.descendants(0)
            .into_iter()
            .filter(|&id| self.element(id).is_some_and(|e| e.tag == tag))
            .collect()
    }

    /// The first element in tree order with this `id` attribute (connected nodes only).
    pub fn by_id(&self, wanted: &str) -> Option<NodeId> {
        self.descendants(0)
            .into_iter()
            .find(|&id| self.element(id).and_then(|e| e.attr("id")) == Some(wanted))
    }

    pub fn body(&self) -> Option<NodeId> {
        self.elements_by_tag("body").first().copied()
    }

    /// `textContent`: the text of every descendant text node, concatenated.
    pub fn text_content(&self, id: NodeId) -> String {
        self.descendants(id)
            .into_iter()
            .filter_map(|n| match &self.nodes[n].kind {
                NodeKind::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    /// `textContent = …`: replaces the children with one text node (none for "").
    pub fn set_text_content(&mut self, id: NodeId, text: &str) {
        self.remove_children(id);
        if !text.is_empty() {
            let t = self.create(NodeKind::Text(text.to_string()));
            self.append(id, t);
        }
    }

    /// `innerHTML = …`.
    pub fn set_inner_html(&mut self, id: NodeId, html: &str) {
        self.remove_children(id);
        for n in self.parse_fragment(html) {
            self.append(id, n);
        }
    }

    /// The page's `<title>`.
    pub fn title(&self) -> String {
        self.elements_by_tag("title")
            .first()
            .map(|&t| self.text_content(t).trim().to_string())
            .unwrap_or_default()
    }

    pub fn listens(&self, id: NodeId, event: &str) -> bool {
        self.listeners
            .get(&id)
            .is_some_and(|types| types.iter().any(|t| t == event))
    }

    /// Whether a tap on the element reaches a handler: a form control, or a click listener or
    /// `onclick` attribute on it.
    pub fn clickable(&self, id: NodeId) -> bool {
        self.element(id).is_some_and(|e| {
            matches!(
                e.tag.as_str(),
                "button" | "input" | "a" | "select" | "textarea"
            ) || e.attr("onclick").is_some()
        }) || self.listens(id, "click")
    }

    /// Whether a finger's path over the element reaches a handler (a drawing canvas).
    pub fn takes_touch(&self, id: NodeId) -> bool {
        [
            "touchstart",
            "touchmove",
            "mousedown",
            "mousemove",
            "pointerdown",
        ]
        .iter()
        .any(|t| self.listens(id, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_edits_the_tree() {
        let mut doc = Document::parse(
            "<title>T</title><div id=a class='x y'>hi <b>there</b></div>",
            400.0,
        );
        assert_eq!(doc.title(), "T");
        assert_eq!(doc.viewport_width, DEFAULT_VIEWPORT);
        let a = doc.by_id("a").unwrap();
        assert_eq!(doc.text_content(a), "hi there");
        assert_eq!(
            doc.element(a).unwrap().classes().collect::<Vec<_>>(),
            ["x", "y"]
        );
        doc.set_inner_html(a, "<h1>Success!</h1>");
        let h1 = doc.nodes[a].children[0];
        assert_eq!(doc.element(h1).unwrap().tag, "h1");
        assert_eq!(doc.text_content(a), "Success!");
    }

    #[test]
    fn device_width_viewport_comes_from_the_meta_tag() {
        let doc = Document::parse(
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><p>x",
            393.0,
        );
        assert_eq!(doc.viewport_width, 393.0);
    }
}

//! Bytes of a `uiautomator dump` → [`Hierarchy`], salvaging the damage real dumps carry.
//!
//! Real dumps arrive as UTF-8 with or without a BOM, as UTF-16 (PowerShell redirects, with or
//! without a BOM), wrapped in `UI hierchary dumped to: …` tool messages, and occasionally with a
//! mis-encoded character that swallowed an attribute's closing quote. The pipeline is:
//! decode → cut out `<hierarchy …>…</hierarchy>` → parse strictly with quick-xml → on failure, repair
//! swallowed quotes and parse once more. Every step is linear in the input and bounded by
//! [`Limits`], so no input makes it panic, loop or grow without bound.

use std::borrow::Cow;
use std::sync::OnceLock;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use regex::Regex;

use super::node::{Hierarchy, Node, NodeId};
use droidmcp_geom::Bounds;

/// Caps that keep memory and time bounded on hostile input. Real dumps are under 1 MB, 5,000 nodes
/// and depth 60; the defaults leave generous room above that.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_bytes: usize,
    pub max_nodes: usize,
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 32 << 20,
            max_nodes: 100_000,
            max_depth: 256,
        }
    }
}

/// Why a dump could not be read. `position` is a byte offset into the decoded text (equal to the
/// input offset for UTF-8 input without a BOM or leading message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("uiautomator dump: {kind} at byte {position}")]
pub struct ParseError {
    pub kind: ParseErrorKind,
    pub position: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    #[error("input is empty")]
    Empty,
    #[error("no <hierarchy> element found")]
    NoHierarchy,
    #[error("document ends before </hierarchy> (truncated dump)")]
    Truncated,
    #[error("malformed xml: {0}")]
    Xml(String),
    #[error("input is larger than {0} bytes")]
    TooLarge(usize),
    #[error("more than {0} nodes")]
    TooManyNodes(usize),
    #[error("nesting deeper than {0}")]
    TooDeep(usize),
}

impl ParseError {
    fn new(kind: ParseErrorKind, position: usize) -> Self {
        ParseError { kind, position }
    }

    /// Whether the dump was cut short (e.g. a pull that stopped early); retrying the dump may help.
    pub fn is_truncated(&self) -> bool {
        self.kind == ParseErrorKind::Truncated
    }
}

/// Parses a dump with the default [`Limits`].
pub fn parse(bytes: &[u8]) -> Result<Hierarchy, ParseError> {
    parse_with_limits(bytes, Limits::default())
}

pub fn parse_with_limits(bytes: &[u8], limits: Limits) -> Result<Hierarchy, ParseError> {
    if bytes.len() > limits.max_bytes {
        return Err(ParseError::new(
            ParseErrorKind::TooLarge(limits.max_bytes),
            limits.max_bytes,
        ));
    }
    let text = decode(bytes);
    if text.trim().is_empty() {
        return Err(ParseError::new(ParseErrorKind::Empty, 0));
    }
    let (start, doc) = cut_document(&text)?;
    match parse_xml(doc, limits, Mode::Strict) {
        Ok(h) => Ok(h),
        Err(first)
            if matches!(
                first.kind,
                ParseErrorKind::Xml(_) | ParseErrorKind::Truncated
            ) =>
        {
            let repaired = repair_swallowed_quotes(doc);
            match repaired {
                Cow::Owned(fixed) => parse_xml(&fixed, limits, Mode::Lenient)
                    .map_err(|_| ParseError::new(first.kind.clone(), start + first.position)),
                Cow::Borrowed(_) => Err(ParseError::new(first.kind, start + first.position)),
            }
        }
        Err(e) => Err(ParseError::new(e.kind, start + e.position)),
    }
}

/// Bytes → text: honours UTF-8 and UTF-16 BOMs, recognises BOM-less UTF-16 by its zero bytes, and
/// replaces invalid sequences instead of failing.
fn decode(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return decode_utf16(rest, u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return decode_utf16(rest, u16::from_be_bytes);
    }
    // XML markup is ASCII, so UTF-16 text has a zero in every other byte of its first characters.
    let probe = &bytes[..bytes.len().min(64)];
    let zeros_at = |parity: usize| {
        probe
            .iter()
            .enumerate()
            .filter(|(i, b)| i % 2 == parity && **b == 0)
            .count()
    };
    if probe.len() >= 8 {
        let half = probe.len() / 2;
        if zeros_at(1) * 4 >= half * 3 && zeros_at(0) == 0 {
            return decode_utf16(bytes, u16::from_le_bytes);
        }
        if zeros_at(0) * 4 >= half * 3 && zeros_at(1) == 0 {
            return decode_utf16(bytes, u16::from_be_bytes);
        }
    }
    String::from_utf8_lossy(bytes).into_owned()
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|c| unit([c[0], c[1]]));
    char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// Cuts `<hierarchy …>…</hierarchy>` out of the text, dropping tool messages and the XML
/// declaration around it. Returns the offset of the cut within `text`.
fn cut_document(text: &str) -> Result<(usize, &str), ParseError> {
    let start = text
        .find("<hierarchy")
        .ok_or_else(|| ParseError::new(ParseErrorKind::NoHierarchy, 0))?;
    const CLOSE: &str = "</hierarchy>";
    let end = match text.rfind(CLOSE) {
        Some(i) if i >= start => i + CLOSE.len(),
        // A self-closing empty hierarchy (`<hierarchy rotation="0"/>`) or a truncated one; the
        // parser tells them apart.
        _ => text.len(),
    };
    Ok((start, &text[start..end]))
}

/// A mis-encoded last character can swallow the closing quote of an attribute value, as in
/// `content-desc="鈫? checkable="false"`: the value then ends in ` <attribute>=`, which no real
/// value does. Puts the quote back before that attribute name.
fn repair_swallowed_quotes(doc: &str) -> Cow<'_, str> {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    let re = PATTERN.get_or_init(|| {
        Regex::new(
            "=\"([^\"]*?) (index|text|resource-id|class|package|content-desc|checkable|checked|clickable|enabled|focusable|focused|scrollable|long-clickable|password|selected|visible-to-user|bounds|drawing-order|hint|display-id|NAF)=\"",
        )
        .expect("static regex compiles")
    });
    re.replace_all(doc, "=\"$1\" $2=\"")
}

/// Strict mode fails on a malformed attribute, so the caller can try the repair; lenient mode drops
/// the rest of that tag's attributes and goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Strict,
    Lenient,
}

fn parse_xml(doc: &str, limits: Limits, mode: Mode) -> Result<Hierarchy, ParseError> {
    let mut reader = Reader::from_str(doc);
    let config = reader.config_mut();
    config.trim_text(true);
    config.check_end_names = true;
    config.expand_empty_elements = false;

    let mut h = Hierarchy::default();
    let mut saw_hierarchy = false;
    let mut closed = false;
    // Open elements: Some(node) for <node>, None for <hierarchy> and unknown wrappers.
    let mut stack: Vec<Option<NodeId>> = Vec::new();

    loop {
        let position = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            let kind = match e {
                // Every syntax error quick-xml reports is "input ended inside a construct".
                quick_xml::Error::Syntax(_) => ParseErrorKind::Truncated,
                other => ParseErrorKind::Xml(other.to_string()),
            };
            ParseError::new(kind, reader.error_position() as usize)
        })?;
        match event {
            // Content after </hierarchy> was cut away already; anything left is a second
            // document glued on. Ignore it.
            Event::Start(_) | Event::Empty(_) if closed => break,
            Event::Start(e) => {
                if stack.len() >= limits.max_depth {
                    return Err(ParseError::new(
                        ParseErrorKind::TooDeep(limits.max_depth),
                        position,
                    ));
                }
                let id = open_element(
                    &mut h,
                    &e,
                    &stack,
                    &mut saw_hierarchy,
                    limits,
                    mode,
                    position,
                )?;
                stack.push(id);
            }
            Event::Empty(e) => {
                open_element(
                    &mut h,
                    &e,
                    &stack,
                    &mut saw_hierarchy,
                    limits,
                    mode,
                    position,
                )?;
                if e.name().as_ref() == b"hierarchy" && stack.is_empty() {
                    closed = true;
                }
            }
            Event::End(_) => {
                stack.pop();
                if stack.is_empty() && saw_hierarchy {
                    closed = true;
                }
            }
            Event::Eof => {
                if !stack.is_empty() || !saw_hierarchy {
                    return Err(ParseError::new(ParseErrorKind::Truncated, doc.len()));
                }
                break;
            }
            _ => {}
        }
    }
    h.xml = doc.to_string();
    Ok(h)
}

/// Handles a start or empty tag; returns the node id for `<node>`, `None` for other elements.
fn open_element(
    h: &mut Hierarchy,
    e: &BytesStart<'_>,
    stack: &[Option<NodeId>],
    saw_hierarchy: &mut bool,
    limits: Limits,
    mode: Mode,
    position: usize,
) -> Result<Option<NodeId>, ParseError> {
    let attributes = |e: &BytesStart<'_>| {
        let (attrs, complete) = attributes(e);
        if complete || mode == Mode::Lenient {
            Ok(attrs)
        } else {
            Err(ParseError::new(
                ParseErrorKind::Xml("malformed attribute".into()),
                position,
            ))
        }
    };
    match e.name().as_ref() {
        b"hierarchy" if !*saw_hierarchy => {
            *saw_hierarchy = true;
            for (key, value) in attributes(e)? {
                if key == "rotation" {
                    h.rotation = value.trim().parse().ok();
                } else {
                    h.attributes.push((key, value));
                }
            }
            Ok(None)
        }
        b"node" => {
            if h.nodes.len() >= limits.max_nodes {
                return Err(ParseError::new(
                    ParseErrorKind::TooManyNodes(limits.max_nodes),
                    position,
                ));
            }
            let parent = stack.iter().rev().find_map(|s| *s);
            let mut node = node_from_attributes(attributes(e)?);
            node.parent = parent;
            node.depth = stack.iter().filter(|s| s.is_some()).count() as u16;
            let id = NodeId(h.nodes.len() as u32);
            match parent {
                Some(p) => h.nodes[p.index()].children.push(id),
                None => h.roots.push(id),
            }
            h.nodes.push(node);
            Ok(Some(id))
        }
        _ => Ok(None),
    }
}

/// The tag's attributes, decoded, up to the first malformed one; the flag says whether all were read.
fn attributes(e: &BytesStart<'_>) -> (Vec<(String, String)>, bool) {
    let mut out = Vec::new();
    for attr in e.attributes().with_checks(false) {
        let Ok(attr) = attr else {
            return (out, false);
        };
        let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
        let value = match attr.unescape_value() {
            Ok(v) => v.into_owned(),
            // An unknown entity (`&nbsp;`) or a stray `&`: keep the raw text.
            Err(_) => String::from_utf8_lossy(&attr.value).into_owned(),
        };
        out.push((key, value));
    }
    (out, true)
}

fn node_from_attributes(attrs: Vec<(String, String)>) -> Node {
    let mut node = Node {
        enabled: true,
        visible_to_user: true,
        ..Node::default()
    };
    let flag = |v: &str| v.trim().eq_ignore_ascii_case("true");
    for (key, value) in attrs {
        match key.as_str() {
            "index" => node.index = value.trim().parse().unwrap_or(0),
            "text" => node.text = value,
            "resource-id" => node.resource_id = value,
            "class" => node.class = value,
            "package" => node.package = value,
            "content-desc" => node.content_desc = value,
            "hint" => node.hint = value,
            "bounds" => node.bounds = Bounds::parse(&value).unwrap_or_default(),
            "checkable" => node.checkable = flag(&value),
            "checked" => node.checked = flag(&value),
            "clickable" => node.clickable = flag(&value),
            "enabled" => node.enabled = flag(&value),
            "focusable" => node.focusable = flag(&value),
            "focused" => node.focused = flag(&value),
            "scrollable" => node.scrollable = flag(&value),
            "long-clickable" => node.long_clickable = flag(&value),
            "password" => node.password = flag(&value),
            "selected" => node.selected = flag(&value),
            "visible-to-user" => node.visible_to_user = flag(&value),
            "NAF" => node.naf = flag(&value),
            "drawing-order" => node.drawing_order = value.trim().parse().ok(),
            "display-id" => node.display_id = value.trim().parse().ok(),
            _ => node.extra.push((key, value)),
        }
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1"><node index="0" text="Hi &amp; bye" resource-id="a:id/b" class="android.widget.TextView" package="p" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][100,50]" xpos="3"><node index="0" class="x" bounds="[1,1][2,2]" /></node></hierarchy>"#;

    #[test]
    fn parses_attributes_into_typed_fields() {
        let h = parse(SMALL.as_bytes()).unwrap();
        assert_eq!(h.rotation, Some(1));
        assert_eq!(h.nodes.len(), 2);
        let n = &h.nodes[0];
        assert_eq!(n.text, "Hi & bye");
        assert!(n.clickable && n.enabled && n.visible_to_user);
        assert_eq!(n.bounds, Bounds::new(0, 0, 100, 50));
        assert_eq!(n.extra, vec![("xpos".to_string(), "3".to_string())]);
        assert_eq!(h.nodes[1].parent, Some(NodeId(0)));
        assert_eq!(h.nodes[1].depth, 1);
        assert_eq!(h.roots, vec![NodeId(0)]);
    }

    #[test]
    fn salvages_utf16_without_bom_and_junk() {
        let text =
            format!("UI hierchary dumped to: /dev/tty\r\n{SMALL}UI hierchary dumped to: /dev/tty");
        let bytes: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        assert_eq!(parse(&bytes).unwrap().nodes.len(), 2);
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(parse(&be).unwrap().nodes.len(), 2);
    }

    #[test]
    fn reports_truncation_and_limits() {
        let cut = &SMALL[..SMALL.len() - 30];
        assert!(parse(cut.as_bytes()).unwrap_err().is_truncated());
        assert_eq!(parse(b"").unwrap_err().kind, ParseErrorKind::Empty);
        assert_eq!(
            parse(b"<html/>").unwrap_err().kind,
            ParseErrorKind::NoHierarchy
        );
        let deep = format!(
            "<hierarchy>{}{}</hierarchy>",
            "<node>".repeat(300),
            "</node>".repeat(300)
        );
        assert_eq!(
            parse(deep.as_bytes()).unwrap_err().kind,
            ParseErrorKind::TooDeep(256)
        );
        let limits = Limits {
            max_nodes: 1,
            ..Limits::default()
        };
        assert_eq!(
            parse_with_limits(SMALL.as_bytes(), limits)
                .unwrap_err()
                .kind,
            ParseErrorKind::TooManyNodes(1)
        );
    }

    #[test]
    fn repairs_a_swallowed_quote() {
        let broken = r#"<hierarchy><node content-desc="鈫? checkable="false" clickable="true" bounds="[0,0][10,10]" /></hierarchy>"#;
        let h = parse(broken.as_bytes()).unwrap();
        assert_eq!(h.nodes[0].content_desc, "鈫?");
        assert!(h.nodes[0].clickable);
        assert_eq!(h.nodes[0].bounds, Bounds::new(0, 0, 10, 10));
    }
}

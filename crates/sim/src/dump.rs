//! `uiautomator dump`'s XML, byte for byte as Android 13/14 writes it (KXmlSerializer, one line).
//!
//! Format: `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` then one
//! `<node>` per visible view with attributes in this order: `[NAF]`, `index`, `text`, `resource-id`,
//! `class`, `package`, `content-desc`, `checkable`, `checked`, `clickable`, `enabled`, `focusable`,
//! `focused`, `scrollable`, `long-clickable`, `password`, `selected`, `bounds`, `drawing-order`,
//! `hint`. Leaf nodes self-close as `<node … />`. Like the real tool, only the active window (the
//! foreground app) is dumped; the status bar, navigation bar and keyboard are not.

use std::fmt::Write;

use super::view::{class, View};

/// Classes uiautomator never flags as "not accessibility friendly".
const NAF_EXCLUDED: [&str; 4] = [
    class::GRID_VIEW,
    "android.widget.GridLayout",
    class::LIST_VIEW,
    "android.widget.TabHost",
];

/// Serialises a window's tree. `compressed` drops layout-only containers, as `--compressed` does.
pub fn to_xml(root: &View, rotation: u8, compressed: bool) -> String {
    let mut out = String::with_capacity(16 * 1024);
    out.push_str("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>");
    let _ = write!(out, "<hierarchy rotation=\"{rotation}\">");
    if compressed {
        let mut kept = Vec::new();
        compress(root, &mut kept);
        for (i, v) in kept.iter().enumerate() {
            node(&mut out, v, i, 0);
        }
    } else {
        node(&mut out, root, 0, 0);
    }
    out.push_str("</hierarchy>");
    out
}

/// Whether a view is "important for accessibility": what `--compressed` keeps (it drops
/// `FLAG_INCLUDE_NOT_IMPORTANT_VIEWS`), and all an accessibility service that does not ask for
/// unimportant views sees (android_env's forwarder, `sim::a11y::forest`): anything with text, a
/// description, an id, or an action.
pub(crate) fn important(v: &View) -> bool {
    !v.text.is_empty()
        || !v.content_desc.is_empty()
        || !v.resource_id.is_empty()
        || v.flags.clickable
        || v.flags.long_clickable
        || v.flags.checkable
        || v.flags.scrollable
        || v.flags.focusable
}

/// Collects the nodes `--compressed` keeps; layout containers are replaced by their children.
fn compress(v: &View, out: &mut Vec<View>) {
    if important(v) {
        let mut kept = v.clone();
        kept.children.clear();
        for (_, c) in v.accessible_children() {
            compress(c, &mut kept.children);
        }
        out.push(kept);
    } else {
        for (_, c) in v.accessible_children() {
            compress(c, out);
        }
    }
}

fn node(out: &mut String, v: &View, index: usize, drawing_order: usize) {
    out.push_str("<node ");
    if is_naf(v) {
        out.push_str("NAF=\"true\" ");
    }
    let text = shown_text(v);
    let _ = write!(out, "index=\"{index}\" text=\"");
    escape(out, &text);
    out.push_str("\" resource-id=\"");
    escape(out, &v.resource_id);
    out.push_str("\" class=\"");
    escape(out, v.class);
    out.push_str("\" package=\"");
    escape(out, &v.package);
    out.push_str("\" content-desc=\"");
    escape(out, &v.content_desc);
    let f = v.flags;
    let _ = write!(
        out,
        "\" checkable=\"{}\" checked=\"{}\" clickable=\"{}\" enabled=\"{}\" focusable=\"{}\" focused=\"{}\" scrollable=\"{}\" long-clickable=\"{}\" password=\"{}\" selected=\"{}\" bounds=\"{}\" drawing-order=\"{drawing_order}\" hint=\"",
        f.checkable,
        f.checked,
        f.clickable,
        f.enabled,
        f.focusable,
        f.focused,
        f.scrollable,
        f.long_clickable,
        f.password,
        f.selected,
        v.bounds
    );
    escape(out, &v.hint);
    out.push('"');
    if v.accessible_children().next().is_none() {
        out.push_str(" />");
        return;
    }
    out.push('>');
    for (index, (place, c)) in v.accessible_children().enumerate() {
        node(out, c, index, place + 1);
    }
    out.push_str("</node>");
}

/// What uiautomator reports as `text` (`AccessibilityNodeInfo.getText`, from TextView's
/// `getTextForAccessibility`): an empty EditText shows its hint, a password field bullets.
pub(crate) fn shown_text(v: &View) -> String {
    if v.flags.password && !v.text.is_empty() {
        return "•".repeat(v.text.chars().count());
    }
    if v.text.is_empty() && v.class == class::EDIT_TEXT {
        return v.hint.clone();
    }
    v.text.clone()
}

/// uiautomator's "not accessibility friendly" mark: clickable and enabled, yet neither it nor any
/// descendant carries text or a description.
fn is_naf(v: &View) -> bool {
    if NAF_EXCLUDED.contains(&v.class) {
        return false;
    }
    v.flags.clickable
        && v.flags.enabled
        && v.text.is_empty()
        && v.content_desc.is_empty()
        && !has_label(v)
}

fn has_label(v: &View) -> bool {
    v.children
        .iter()
        .any(|c| !c.text.is_empty() || !c.content_desc.is_empty() || has_label(c))
}

/// KXmlSerializer's attribute escaping; characters XML 1.0 cannot carry become `.` as uiautomator does.
fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c if is_xml_char(c) => out.push(c),
            _ => out.push('.'),
        }
    }
}

fn is_xml_char(c: char) -> bool {
    matches!(c as u32, 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

//! The CSS simple pages use: `<style>` rules with type, class, id and descendant selectors,
//! inline styles, the cascade by specificity and order, and the computed values layout needs
//! (display, box sizes, margins with `auto`, padding, borders, colours, font size, text
//! alignment, flex centring and wrapping). Unknown properties are ignored, as browsers do.

use crate::dom::{Document, NodeId};

/// One compound selector: `tag#id.class.class`.
#[derive(Debug, Clone, PartialEq, Default)]
struct Compound {
    tag: Option<String>,
    id: Option<String>,
    classes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
struct Rule {
    /// Compounds joined by descendant combinators, outermost first.
    selector: Vec<Compound>,
    specificity: (usize, usize, usize),
    declarations: Vec<(String, String)>,
}

/// The page's author rules in source order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stylesheet {
    rules: Vec<Rule>,
}

/// `a: b; c: d` → [(a, b), (c, d)], names lower-cased.
pub fn parse_declarations(text: &str) -> Vec<(String, String)> {
    text.split(';')
        .filter_map(|d| {
            let (k, v) = d.split_once(':')?;
            let v = v.trim().trim_end_matches("!important").trim();
            Some((k.trim().to_ascii_lowercase(), v.to_string()))
        })
        .filter(|(k, v)| !k.is_empty() && !v.is_empty())
        .collect()
}

fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        rest = rest[start + 2..]
            .find("*/")
            .map_or("", |end| &rest[start + 2 + end + 2..]);
    }
    out.push_str(rest);
    out
}

fn parse_compound(text: &str) -> Option<Compound> {
    let mut c = Compound::default();
    let mut chars = text.char_indices().peekable();
    let mut parts: Vec<(char, String)> = Vec::new();
    let mut kind = 't';
    let mut cur = String::new();
    while let Some((_, ch)) = chars.next() {
        if ch == '.' || ch == '#' {
            parts.push((kind, std::mem::take(&mut cur)));
            kind = ch;
        } else if ch.is_alphanumeric() || ch == '-' || ch == '_' || ch == '*' {
            cur.push(ch);
        } else {
            // Attribute selectors, pseudo-classes: not supported, so the rule never matches.
            return None;
        }
    }
    parts.push((kind, cur));
    for (kind, name) in parts {
        match kind {
            't' if name.is_empty() || name == "*" => {}
            't' => c.tag = Some(name.to_ascii_lowercase()),
            '#' => c.id = Some(name),
            _ => c.classes.push(name),
        }
    }
    Some(c)
}

impl Stylesheet {
    /// Parses rules, appending to the sheet (a page's `<style>` elements in order).
    pub fn add(&mut self, text: &str) {
        let text = strip_comments(text);
        for block in text.split('}') {
            let Some((selectors, body)) = block.split_once('{') else {
                continue;
            };
            let declarations = parse_declarations(body);
            for sel in selectors.split(',') {
                let compounds: Option<Vec<Compound>> =
                    sel.split_whitespace().map(parse_compound).collect();
                let Some(selector) = compounds.filter(|c| !c.is_empty()) else {
                    continue;
                };
                let specificity = selector.iter().fold((0, 0, 0), |(a, b, c), s| {
                    (
                        a + s.id.is_some() as usize,
                        b + s.classes.len(),
                        c + s.tag.is_some() as usize,
                    )
                });
                self.rules.push(Rule {
                    selector,
                    specificity,
                    declarations: declarations.clone(),
                });
            }
        }
    }

    /// The sheet of every `<style>` element in the document.
    pub fn of(doc: &Document) -> Stylesheet {
        let mut sheet = Stylesheet::default();
        for s in doc.elements_by_tag("style") {
            sheet.add(&doc.text_content(s));
        }
        sheet
    }

    /// The declarations that apply to `id`, lowest priority first: matching rules by
    /// specificity then order, then the inline style.
    pub fn declarations(&self, doc: &Document, id: NodeId) -> Vec<(String, String)> {
        let mut matching: Vec<(&Rule, usize)> = self
            .rules
            .iter()
            .enumerate()
            .filter(|(_, r)| matches(doc, id, &r.selector))
            .map(|(i, r)| (r, i))
            .collect();
        matching.sort_by_key(|(r, i)| (r.specificity, *i));
        let mut out: Vec<(String, String)> = matching
            .into_iter()
            .flat_map(|(r, _)| r.declarations.iter().cloned())
            .collect();
        if let Some(e) = doc.element(id) {
            out.extend(e.style.iter().cloned());
        }
        out
    }
}

fn compound_matches(doc: &Document, id: NodeId, c: &Compound) -> bool {
    let Some(e) = doc.element(id) else {
        return false;
    };
    c.tag.as_ref().is_none_or(|t| *t == e.tag)
        && c.id
            .as_ref()
            .is_none_or(|i| e.attr("id") == Some(i.as_str()))
        && c.classes.iter().all(|k| e.classes().any(|have| have == k))
}

fn matches(doc: &Document, id: NodeId, selector: &[Compound]) -> bool {
    let Some((last, ancestors)) = selector.split_last() else {
        return false;
    };
    if !compound_matches(doc, id, last) {
        return false;
    }
    // Descendant combinators: each earlier compound matches some ancestor, innermost last.
    let mut cur = doc.nodes[id].parent;
    for wanted in ancestors.iter().rev() {
        loop {
            let Some(p) = cur else {
                return false;
            };
            cur = doc.nodes[p].parent;
            if compound_matches(doc, p, wanted) {
                break;
            }
        }
    }
    true
}

/// An RGBA colour.
pub type Rgba = [u8; 4];

/// Parses `#rgb`, `#rrggbb`, `rgb(r, g, b)`, `rgba(…)`, `transparent` and the named colours
/// the pages use.
pub fn parse_color(text: &str) -> Option<Rgba> {
    let t = text.trim().to_ascii_lowercase();
    if let Some(hex) = t.strip_prefix('#') {
        let digits: Vec<u8> = hex
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<_>>()?;
        return match digits.as_slice() {
            [r, g, b] => Some([r * 17, g * 17, b * 17, 255]),
            [r1, r2, g1, g2, b1, b2] => Some([r1 * 16 + r2, g1 * 16 + g2, b1 * 16 + b2, 255]),
            _ => None,
        };
    }
    if let Some(args) = t
        .strip_prefix("rgba(")
        .or_else(|| t.strip_prefix("rgb("))
        .and_then(|a| a.strip_suffix(')'))
    {
        let parts: Vec<f32> = args
            .split(',')
            .map(|p| p.trim().parse().ok())
            .collect::<Option<_>>()?;
        let channel = |v: f32| v.clamp(0.0, 255.0).round() as u8;
        return match parts.as_slice() {
            [r, g, b] => Some([channel(*r), channel(*g), channel(*b), 255]),
            [r, g, b, a] => Some([channel(*r), channel(*g), channel(*b), channel(a * 255.0)]),
            _ => None,
        };
    }
    let named = match t.as_str() {
        "transparent" => [0, 0, 0, 0],
        "black" => [0, 0, 0, 255],
        "white" => [255, 255, 255, 255],
        "red" => [255, 0, 0, 255],
        "green" => [0, 128, 0, 255],
        "blue" => [0, 0, 255, 255],
        "yellow" => [255, 255, 0, 255],
        "gray" | "grey" => [128, 128, 128, 255],
        "orange" => [255, 165, 0, 255],
        "purple" => [128, 0, 128, 255],
        _ => return None,
    };
    Some(named)
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Display {
    Block,
    Inline,
    InlineBlock,
    Flex,
    None,
}

/// A margin: a length or `auto` (centring a block of known width).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Margin {
    Px(f32),
    Auto,
}

impl Margin {
    pub fn px(self) -> f32 {
        match self {
            Margin::Px(v) => v,
            Margin::Auto => 0.0,
        }
    }
}

/// Computed values of one element. Sides are top, right, bottom, left.
#[derive(Debug, Clone, PartialEq)]
pub struct ComputedStyle {
    pub display: Display,
    pub width: Option<f32>,
    pub height: Option<f32>,
    pub max_width: Option<f32>,
    pub margin: [Margin; 4],
    pub padding: [f32; 4],
    pub border_width: f32,
    pub border_color: Rgba,
    pub background: Option<Rgba>,
    pub color: Rgba,
    pub font_size: f32,
    pub bold: bool,
    pub text_center: bool,
    pub justify_center: bool,
    pub align_center: bool,
    pub wrap: bool,
    /// `box-sizing: border-box` (a `<button>`'s default): width and height include padding
    /// and border.
    pub border_box: bool,
}

impl ComputedStyle {
    /// The initial values at the root, inheriting nothing.
    pub fn root() -> ComputedStyle {
        ComputedStyle {
            display: Display::Block,
            width: None,
            height: None,
            max_width: None,
            margin: [Margin::Px(0.0); 4],
            padding: [0.0; 4],
            border_width: 0.0,
            border_color: [0, 0, 0, 255],
            background: None,
            color: [0, 0, 0, 255],
            font_size: 16.0,
            bold: false,
            text_center: false,
            justify_center: false,
            align_center: false,
            wrap: false,
            border_box: false,
        }
    }

    /// Padding plus border on the left and right.
    pub fn frame_x(&self) -> f32 {
        self.padding[1] + self.padding[3] + 2.0 * self.border_width
    }

    pub fn frame_y(&self) -> f32 {
        self.padding[0] + self.padding[2] + 2.0 * self.border_width
    }
}

/// The user-agent defaults for a tag, as declarations (Chrome's html.css, the parts these
/// pages meet).
fn user_agent(tag: &str) -> &'static [(&'static str, &'static str)] {
    match tag {
        "html" | "div" | "form" | "section" | "header" | "footer" | "main" | "nav" | "ul"
        | "ol" | "li" => &[("display", "block")],
        "body" => &[("display", "block"), ("margin", "8px")],
        "p" => &[("display", "block"), ("margin", "1em 0")],
        "h1" => &[
            ("display", "block"),
            ("font-size", "2em"),
            ("margin", "0.67em 0"),
            ("font-weight", "bold"),
        ],
        "h2" => &[
            ("display", "block"),
            ("font-size", "1.5em"),
            ("margin", "0.83em 0"),
            ("font-weight", "bold"),
        ],
        "h3" => &[
            ("display", "block"),
            ("font-size", "1.17em"),
            ("margin", "1em 0"),
            ("font-weight", "bold"),
        ],
        "button" => &[
            ("display", "inline-block"),
            ("padding", "1px 6px"),
            ("border", "2px outset #767676"),
            ("background-color", "#efefef"),
            ("font-size", "13.333px"),
            ("box-sizing", "border-box"),
        ],
        "input" | "textarea" | "select" => &[
            ("display", "inline-block"),
            ("padding", "1px 2px"),
            ("border", "2px inset #767676"),
            ("background-color", "#ffffff"),
            ("font-size", "13.333px"),
            ("width", "150px"),
        ],
        "canvas" | "img" => &[("display", "inline-block")],
        "b" | "strong" => &[("display", "inline"), ("font-weight", "bold")],
        "head" | "script" | "style" | "title" | "meta" | "link" | "template" => {
            &[("display", "none")]
        }
        _ => &[("display", "inline")],
    }
}

/// A length in px: `12px`, `1.5em` (of `em`), `50%` (of `percent_of`), `0`.
fn length(text: &str, em: f32, percent_of: f32) -> Option<f32> {
    let t = text.trim();
    if let Some(v) = t.strip_suffix("px") {
        return v.trim().parse().ok();
    }
    if let Some(v) = t.strip_suffix("em") {
        return v.trim().parse::<f32>().ok().map(|v| v * em);
    }
    if let Some(v) = t.strip_suffix('%') {
        return v.trim().parse::<f32>().ok().map(|v| v * percent_of / 100.0);
    }
    t.parse::<f32>().ok().filter(|v| *v == 0.0)
}

/// `a`, `a b`, `a b c`, `a b c d` → top, right, bottom, left.
fn sides(text: &str) -> Option<[&str; 4]> {
    let v: Vec<&str> = text.split_whitespace().collect();
    match v.as_slice() {
        [a] => Some([a, a, a, a]),
        [a, b] => Some([a, b, a, b]),
        [a, b, c] => Some([a, b, c, b]),
        [a, b, c, d] => Some([a, b, c, d]),
        _ => None,
    }
}

fn margin(text: &str, em: f32, of: f32) -> Option<Margin> {
    if text.trim() == "auto" {
        return Some(Margin::Auto);
    }
    length(text, em, of).map(Margin::Px)
}

/// Computes `id`'s style from its declarations and its parent's computed style;
/// `containing_width` resolves percentages.
pub fn compute(
    sheet: &Stylesheet,
    doc: &Document,
    id: NodeId,
    parent: &ComputedStyle,
    containing_width: f32,
) -> ComputedStyle {
    let Some(el) = doc.element(id) else {
        return ComputedStyle {
            display: Display::Inline,
            ..inherit(parent)
        };
    };
    let mut decls: Vec<(String, String)> = user_agent(&el.tag)
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    decls.extend(sheet.declarations(doc, id));
    let mut s = inherit(parent);
    // Font size first: `em` lengths in the other declarations are relative to it.
    for (k, v) in &decls {
        if k == "font-size" {
            if let Some(px) = length(v, parent.font_size, parent.font_size) {
                s.font_size = px;
            }
        }
    }
    let em = s.font_size;
    let of = containing_width;
    for (k, v) in &decls {
        match k.as_str() {
            "display" => {
                s.display = match v.as_str() {
                    "block" => Display::Block,
                    "inline" => Display::Inline,
                    "inline-block" => Display::InlineBlock,
                    "flex" => Display::Flex,
                    "none" => Display::None,
                    _ => s.display,
                }
            }
            "width" => s.width = length(v, em, of),
            "height" => s.height = length(v, em, of),
            "max-width" => s.max_width = length(v, em, of),
            "margin" => {
                if let Some(m) = sides(v).and_then(|p| {
                    Some([
                        margin(p[0], em, of)?,
                        margin(p[1], em, of)?,
                        margin(p[2], em, of)?,
                        margin(p[3], em, of)?,
                    ])
                }) {
                    s.margin = m;
                }
            }
            "margin-top" | "margin-right" | "margin-bottom" | "margin-left" => {
                if let Some(m) = margin(v, em, of) {
                    s.margin[side_index(k)] = m;
                }
            }
            "padding" => {
                if let Some(p) = sides(v).and_then(|p| {
                    Some([
                        length(p[0], em, of)?,
                        length(p[1], em, of)?,
                        length(p[2], em, of)?,
                        length(p[3], em, of)?,
                    ])
                }) {
                    s.padding = p;
                }
            }
            "padding-top" | "padding-right" | "padding-bottom" | "padding-left" => {
                if let Some(p) = length(v, em, of) {
                    s.padding[side_index(k)] = p;
                }
            }
            "border" => {
                if v == "none" || v == "0" {
                    s.border_width = 0.0;
                } else {
                    for part in v.split_whitespace() {
                        if let Some(w) = length(part, em, of) {
                            s.border_width = w;
                        } else if let Some(c) = parse_color(part) {
                            s.border_color = c;
                        }
                    }
                }
            }
            "background-color" | "background" => s.background = parse_color(v),
            "color" => s.color = parse_color(v).unwrap_or(s.color),
            "font-weight" => s.bold = v == "bold" || v.parse::<u32>().is_ok_and(|w| w >= 600),
            "text-align" => s.text_center = v == "center",
            "justify-content" => s.justify_center = v == "center",
            "align-items" => s.align_center = v == "center",
            "flex-wrap" => s.wrap = v == "wrap",
            "box-sizing" => s.border_box = v == "border-box",
            _ => {}
        }
    }
    s
}

fn side_index(property: &str) -> usize {
    match property.rsplit('-').next() {
        Some("top") => 0,
        Some("right") => 1,
        Some("bottom") => 2,
        _ => 3,
    }
}

/// A child's starting point: inherited properties from the parent, the rest initial.
fn inherit(parent: &ComputedStyle) -> ComputedStyle {
    ComputedStyle {
        color: parent.color,
        font_size: parent.font_size,
        bold: parent.bold,
        text_center: parent.text_center,
        ..ComputedStyle::root()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cascade_orders_by_specificity_then_source_then_inline() {
        let doc = Document::parse(
            "<style>.controls button { padding: 15px 28px } button { margin: 5px } \
             #b { font-size: 30px } .c { border: 1px solid black; background-color: #0f0 }</style>\
             <div class=controls><button id=b class=c style='margin-right: 2px'>x</button></div>",
            400.0,
        );
        let sheet = Stylesheet::of(&doc);
        let b = doc.by_id("b").unwrap();
        let s = compute(&sheet, &doc, b, &ComputedStyle::root(), 400.0);
        assert_eq!(s.padding, [15.0, 28.0, 15.0, 28.0]);
        assert_eq!(s.margin[1], Margin::Px(2.0));
        assert_eq!(s.margin[0], Margin::Px(5.0));
        assert_eq!(s.font_size, 30.0);
        assert_eq!(s.border_width, 1.0);
        assert_eq!(s.background, Some([0, 255, 0, 255]));
        assert_eq!(s.display, Display::InlineBlock);
    }

    #[test]
    fn colours_parse() {
        assert_eq!(parse_color("#ff1493"), Some([255, 20, 147, 255]));
        assert_eq!(parse_color("#abc"), Some([170, 187, 204, 255]));
        assert_eq!(parse_color("rgb(1, 2, 3)"), Some([1, 2, 3, 255]));
        assert_eq!(parse_color("nonsense"), None);
    }
}

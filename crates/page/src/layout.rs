//! Block, inline and flex layout, as far as simple pages need it: blocks stack with their
//! margins (auto margins centre a block of known width), inline content and inline blocks fill
//! line boxes left to right and wrap (centred under `text-align: center`), and a flex container
//! lays its items in a row, wrapping and centring them on both axes when asked.
//!
//! Text is measured with average glyph metrics (a proportional sans-serif's advance is about
//! 0.55 of its size, a line 1.15), which is what box sizes need; the phone's renderer draws the
//! glyphs themselves inside the boxes.

use crate::css::{compute, ComputedStyle, Display, Margin, Stylesheet};
use crate::dom::{Document, NodeId, NodeKind};

/// A rectangle in CSS px, in page coordinates (the layout viewport's top-left is 0, 0).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn contains(&self, x: f32, y: f32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.w && y < self.y + self.h
    }
}

/// One laid-out element or run of text.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutBox {
    pub node: NodeId,
    /// The border box.
    pub rect: Rect,
    pub style: ComputedStyle,
    /// The collapsed text of a text run; `None` for an element.
    pub text: Option<String>,
    pub children: Vec<LayoutBox>,
}

impl LayoutBox {
    fn shift(&mut self, dx: f32, dy: f32) {
        self.rect.x += dx;
        self.rect.y += dy;
        for c in &mut self.children {
            c.shift(dx, dy);
        }
    }

    /// The box of `node`, searching this subtree.
    pub fn find(&self, node: NodeId) -> Option<&LayoutBox> {
        if self.node == node && self.text.is_none() {
            return Some(self);
        }
        self.children.iter().find_map(|c| c.find(node))
    }
}

/// Average advance of a glyph, in ems.
const ADVANCE_EM: f32 = 0.55;
/// `line-height: normal`, in ems.
pub const LINE_EM: f32 = 1.15;

pub fn text_width(text: &str, font_size: f32) -> f32 {
    text.chars().count() as f32 * font_size * ADVANCE_EM
}

/// Collapses white space runs to one space, as `white-space: normal` does.
fn collapse(text: &str) -> String {
    let mut out = String::new();
    let mut space = false;
    for ch in text.chars() {
        if ch.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(ch);
        }
    }
    out
}

/// Lays out the whole document in its layout viewport.
pub fn layout(doc: &Document) -> LayoutBox {
    let sheet = Stylesheet::of(doc);
    let engine = Engine { doc, sheet: &sheet };
    let root = doc.nodes[0]
        .children
        .iter()
        .copied()
        .find(|&c| doc.element(c).is_some())
        .unwrap_or(0);
    let style = compute(
        &sheet,
        doc,
        root,
        &ComputedStyle::root(),
        doc.viewport_width,
    );
    engine.block(root, style, 0.0, 0.0, doc.viewport_width)
}

struct Engine<'a> {
    doc: &'a Document,
    sheet: &'a Stylesheet,
}

/// An item waiting for its line: its box and its margin-box size.
struct Item {
    b: LayoutBox,
    margin_left: f32,
    outer_w: f32,
    outer_h: f32,
}

impl Engine<'_> {
    fn style(&self, id: NodeId, parent: &ComputedStyle, containing: f32) -> ComputedStyle {
        compute(self.sheet, self.doc, id, parent, containing)
    }

    fn tag(&self, id: NodeId) -> &str {
        self.doc.element(id).map_or("", |e| e.tag.as_str())
    }

    /// A replaced element's intrinsic content size (a canvas's bitmap size).
    fn intrinsic(&self, id: NodeId) -> Option<(f32, f32)> {
        let e = self.doc.element(id)?;
        if e.tag != "canvas" {
            return None;
        }
        let dim = |name: &str, default: f32| {
            e.attr(name)
                .and_then(|v| v.trim().parse::<f32>().ok())
                .unwrap_or(default)
        };
        Some((dim("width", 300.0), dim("height", 150.0)))
    }

    /// The border-box width from a `width` value.
    fn border_width_of(style: &ComputedStyle, width: f32) -> f32 {
        if style.border_box {
            width.max(style.frame_x())
        } else {
            width + style.frame_x()
        }
    }

    /// The max-content border-box width of an element.
    fn max_content(&self, id: NodeId, style: &ComputedStyle) -> f32 {
        if let Some(w) = style.width {
            return Self::border_width_of(style, w);
        }
        if let Some((w, _)) = self.intrinsic(id) {
            return w + style.frame_x();
        }
        let mut inline_sum = 0.0f32;
        let mut widest = 0.0f32;
        for &c in &self.doc.nodes[id].children {
            match &self.doc.nodes[c].kind {
                NodeKind::Text(t) => inline_sum += text_width(&collapse(t), style.font_size),
                NodeKind::Element(_) => {
                    let cs = self.style(c, style, 0.0);
                    let outer = self.max_content(c, &cs) + cs.margin[1].px() + cs.margin[3].px();
                    match cs.display {
                        Display::None => {}
                        Display::Block => widest = widest.max(outer),
                        Display::Flex if !matches!(style.display, Display::Flex) => {
                            widest = widest.max(outer)
                        }
                        _ => inline_sum += outer,
                    }
                }
                NodeKind::Document => {}
            }
        }
        inline_sum.max(widest) + style.frame_x()
    }

    /// Lays out a block-level element whose margin box starts at (`x`, `y`) in a containing
    /// block `avail` wide.
    fn block(&self, id: NodeId, style: ComputedStyle, x: f32, y: f32, avail: f32) -> LayoutBox {
        let (ml, mr) = (style.margin[3], style.margin[1]);
        let mut width = match style.width {
            Some(w) => Self::border_width_of(&style, w),
            None => avail - ml.px() - mr.px(),
        };
        if let Some(max) = style.max_width {
            width = width.min(Self::border_width_of(&style, max));
        }
        let left = match (ml, mr) {
            (Margin::Auto, Margin::Auto) => x + (avail - width) / 2.0,
            (Margin::Auto, _) => x + avail - width - mr.px(),
            _ => x + ml.px(),
        };
        let top = y + style.margin[0].px();
        self.boxed(id, style, left, top, width)
    }

    /// Lays out an element's border box at (`x`, `y`), `width` wide, and its content.
    fn boxed(&self, id: NodeId, style: ComputedStyle, x: f32, y: f32, width: f32) -> LayoutBox {
        let inset = style.border_width;
        let cx = x + inset + style.padding[3];
        let cy = y + inset + style.padding[0];
        let cw = (width - style.frame_x()).max(0.0);
        let fixed_h = style.height.map(|h| {
            if style.border_box {
                (h - style.frame_y()).max(0.0)
            } else {
                h
            }
        });
        let (children, content_h) = match self.intrinsic(id) {
            Some((_, h)) => (Vec::new(), fixed_h.unwrap_or(h)),
            None if style.display == Display::Flex => self.flex(id, &style, cx, cy, cw, fixed_h),
            None => self.flow(id, &style, cx, cy, cw),
        };
        // A form control is at least one line of its text tall.
        let min_h = match self.tag(id) {
            "input" | "button" | "textarea" | "select" => style.font_size * LINE_EM,
            _ => 0.0,
        };
        let h = fixed_h.unwrap_or(content_h).max(min_h);
        LayoutBox {
            node: id,
            rect: Rect {
                x,
                y,
                w: width,
                h: h + style.frame_y(),
            },
            style,
            text: None,
            children,
        }
    }

    /// An element laid out as an atom in a line or a flex row: its shrink-to-fit width.
    fn atom(&self, id: NodeId, style: ComputedStyle, avail: f32) -> Item {
        let outer_margin = style.margin[1].px() + style.margin[3].px();
        let width = self
            .max_content(id, &style)
            .min(avail - outer_margin)
            .max(0.0);
        let (ml, mt, mb) = (
            style.margin[3].px(),
            style.margin[0].px(),
            style.margin[2].px(),
        );
        let b = self.boxed(id, style, 0.0, mt, width);
        Item {
            margin_left: ml,
            outer_w: width + outer_margin,
            outer_h: b.rect.h + mt + mb,
            b,
        }
    }

    /// A text node's run, white space collapsed; `None` when nothing is left of it.
    fn text_item(&self, id: NodeId, raw: &str, parent: &ComputedStyle) -> Option<Item> {
        let text = collapse(raw);
        if text.is_empty() {
            return None;
        }
        let w = text_width(&text, parent.font_size);
        let h = parent.font_size * LINE_EM;
        Some(Item {
            b: LayoutBox {
                node: id,
                rect: Rect {
                    x: 0.0,
                    y: 0.0,
                    w,
                    h,
                },
                style: ComputedStyle {
                    display: Display::Inline,
                    ..parent.clone()
                },
                text: Some(text),
                children: Vec::new(),
            },
            margin_left: 0.0,
            outer_w: w,
            outer_h: h,
        })
    }

    /// Normal flow: block children stack, inline runs form lines. Returns the boxes and the
    /// content height.
    fn flow(
        &self,
        id: NodeId,
        style: &ComputedStyle,
        x: f32,
        y: f32,
        w: f32,
    ) -> (Vec<LayoutBox>, f32) {
        let mut out = Vec::new();
        let mut cursor = y;
        let mut line: Vec<Item> = Vec::new();
        for &c in &self.doc.nodes[id].children {
            match &self.doc.nodes[c].kind {
                NodeKind::Text(t) => line.extend(self.text_item(c, t, style)),
                NodeKind::Element(e) => {
                    let cs = self.style(c, style, w);
                    if e.tag == "br" {
                        let empty = line.is_empty();
                        cursor = self.flush(&mut line, &mut out, style, x, cursor, w);
                        if empty {
                            cursor += style.font_size * LINE_EM;
                        }
                        continue;
                    }
                    match cs.display {
                        Display::None => {}
                        Display::Block | Display::Flex => {
                            cursor = self.flush(&mut line, &mut out, style, x, cursor, w);
                            let mb = cs.margin[2].px();
                            let b = self.block(c, cs, x, cursor, w);
                            cursor = b.rect.y + b.rect.h + mb;
                            out.push(b);
                        }
                        Display::Inline | Display::InlineBlock => {
                            line.push(self.atom(c, cs, w));
                        }
                    }
                }
                NodeKind::Document => {}
            }
        }
        cursor = self.flush(&mut line, &mut out, style, x, cursor, w);
        (out, cursor - y)
    }

    /// Places pending inline items in line boxes from `y`; returns the y below them.
    fn flush(
        &self,
        items: &mut Vec<Item>,
        out: &mut Vec<LayoutBox>,
        style: &ComputedStyle,
        x: f32,
        y: f32,
        w: f32,
    ) -> f32 {
        let mut y = y;
        for row in lines(std::mem::take(items), w, true) {
            let used: f32 = row.iter().map(|i| i.outer_w).sum();
            let height = row.iter().map(|i| i.outer_h).fold(0.0, f32::max);
            let mut cx = x + if style.text_center {
                ((w - used) / 2.0).max(0.0)
            } else {
                0.0
            };
            for mut item in row {
                // Items sit on the line's bottom (their baseline, near enough).
                let top = y + height - item.outer_h;
                item.b
                    .shift(cx + item.margin_left - item.b.rect.x, top + item.b.rect.y);
                cx += item.outer_w;
                out.push(item.b);
            }
            y += height;
        }
        y
    }

    /// A row flex container's items (no grow or shrink: each item is its content's width).
    fn flex(
        &self,
        id: NodeId,
        style: &ComputedStyle,
        x: f32,
        y: f32,
        w: f32,
        fixed_h: Option<f32>,
    ) -> (Vec<LayoutBox>, f32) {
        let mut items = Vec::new();
        for &c in &self.doc.nodes[id].children {
            match &self.doc.nodes[c].kind {
                NodeKind::Text(t) => items.extend(self.text_item(c, t, style)),
                NodeKind::Element(_) => {
                    let cs = self.style(c, style, w);
                    if cs.display != Display::None {
                        items.push(self.atom(c, cs, w));
                    }
                }
                NodeKind::Document => {}
            }
        }
        let rows = lines(items, w, style.wrap);
        let single = rows.len() == 1;
        let mut out = Vec::new();
        let mut cy = y;
        for row in rows {
            let used: f32 = row.iter().map(|i| i.outer_w).sum();
            let mut height = row.iter().map(|i| i.outer_h).fold(0.0, f32::max);
            if let (true, Some(h)) = (single, fixed_h) {
                height = h;
            }
            let mut cx = x + if style.justify_center {
                ((w - used) / 2.0).max(0.0)
            } else {
                0.0
            };
            for mut item in row {
                let top = if style.align_center {
                    cy + (height - item.outer_h) / 2.0
                } else {
                    cy
                };
                item.b
                    .shift(cx + item.margin_left - item.b.rect.x, top + item.b.rect.y);
                cx += item.outer_w;
                out.push(item.b);
            }
            cy += height;
        }
        (out, cy - y)
    }
}

/// Breaks items into rows of at most `w` (an item wider than `w` gets a row of its own).
fn lines(items: Vec<Item>, w: f32, wrap: bool) -> Vec<Vec<Item>> {
    let mut rows: Vec<Vec<Item>> = Vec::new();
    let mut used = 0.0;
    for item in items {
        let fits = used + item.outer_w <= w + 0.01;
        match rows.last_mut() {
            Some(row) if fits || !wrap => {
                used += item.outer_w;
                row.push(item);
            }
            _ => {
                used = item.outer_w;
                rows.push(vec![item]);
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flex_rows_of_cells_and_centred_lines() {
        let doc = Document::parse(
            "<style>.row{display:flex}.cell{width:110px;height:110px;border:1px solid black;\
             display:flex;justify-content:center;align-items:center;font-size:56px}\
             .c{text-align:center}</style><body><div id=m><div class=row><div class=cell id=a>X</div>\
             <div class=cell id=b></div></div></div><div class=c><button id=btn>Go</button></div>",
            400.0,
        );
        let root = layout(&doc);
        let a = root.find(doc.by_id("a").unwrap()).unwrap();
        let b = root.find(doc.by_id("b").unwrap()).unwrap();
        assert_eq!(
            a.rect,
            Rect {
                x: 8.0,
                y: 8.0,
                w: 112.0,
                h: 112.0
            }
        );
        assert_eq!(b.rect.x, 120.0);
        // The X is centred in its cell.
        let x = &a.children[0];
        let mid = x.rect.x + x.rect.w / 2.0;
        assert!((mid - 64.0).abs() < 0.5, "{mid}");
        let btn = root.find(doc.by_id("btn").unwrap()).unwrap();
        assert!(btn.rect.y >= 120.0);
        let centre = btn.rect.x + btn.rect.w / 2.0;
        assert!((centre - 490.0).abs() < 0.5, "{centre}");
    }
}

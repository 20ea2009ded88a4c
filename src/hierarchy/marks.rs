//! Marked screenshots ("set of marks"): a numbered box around each element whose number equals its
//! [`ElementId`](super::ElementId), so "tap 7" means the same thing in the text and in the picture.
//!
//! Labels are sized for the picture the LLM actually sees (clients scale images to a 1024 px long
//! edge or less), drawn with a built-in 3×5 bitmap font (no font file), and placed in a tab just
//! outside the box's top-left corner, so they do not cover the element's own text; when that spot
//! is off the image or taken by another label, the next free spot around the box (below it, left
//! of it, its other corners, then a little further out).

use image::{Rgba, RgbaImage};

use super::elements::Element;
use crate::geom::Bounds;

/// The long edge, in pixels, of the image a model is shown.
pub const SEEN_LONG_EDGE: u32 = 1024;

/// Where one mark goes, in image pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    pub id: u32,
    /// The element's box on the image.
    pub frame: Bounds,
    /// The label tab.
    pub label: Bounds,
    /// Side of one font pixel; glyphs are 3×5 cells with one cell between digits and around them.
    pub cell: i32,
    /// Outline thickness.
    pub stroke: i32,
}

/// 3×5 digit glyphs, one row per `u8`, bit 2 is the left column.
const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b001, 0b001, 0b001],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];

/// Dark, saturated colours that keep white digits readable; element `id` uses `PALETTE[id % 8]`.
const PALETTE: [[u8; 3]; 8] = [
    [214, 39, 40],
    [31, 95, 200],
    [0, 128, 64],
    [148, 52, 180],
    [200, 90, 0],
    [0, 120, 130],
    [190, 0, 110],
    [120, 80, 30],
];

/// The digit glyph rows for `d` (0–9), for tests that read labels back.
pub fn glyph(d: u8) -> Option<[u8; 5]> {
    DIGITS.get(d as usize).copied()
}

/// Font cell and stroke for an image of this size, so that digits are 10 px tall and outlines
/// 2 px wide once the image is scaled to [`SEEN_LONG_EDGE`].
pub fn sizes(width: u32, height: u32) -> (i32, i32) {
    let long = width.max(height).max(1) as f32;
    let shrink = (long / SEEN_LONG_EDGE as f32).max(1.0);
    let cell = (2.0 * shrink).ceil() as i32;
    let stroke = (2.0 * shrink).round().max(1.0) as i32;
    (cell, stroke)
}

/// Lays the marks out without drawing: `scale` maps device pixels to image pixels (0.5 when the
/// screenshot was halved).
pub fn layout<'a>(
    elements: impl IntoIterator<Item = &'a Element>,
    scale: f32,
    width: u32,
    height: u32,
) -> Vec<Mark> {
    let (cell, stroke) = sizes(width, height);
    let image = Bounds::new(0, 0, width as i32, height as i32);
    let mut placed: Vec<Mark> = Vec::new();
    for e in elements {
        let b = e.bounds;
        let s = |v: i32| (v as f32 * scale).round() as i32;
        let frame = Bounds::new(s(b.left), s(b.top), s(b.right), s(b.bottom)).intersect(&image);
        if frame.is_empty() {
            continue;
        }
        let digits = e.id.0.to_string().len() as i32;
        let w = digits * 4 * cell + cell;
        let h = 7 * cell;
        // Preferred spots first: outside the top-left corner, outside the bottom-left, left of
        // the box, outside the top-right, then inside the corners; then the same spots nudged
        // outwards step by step.
        let (fl, ft, fr, fb) = (frame.left, frame.top, frame.right, frame.bottom);
        let spots = [
            (fl, ft - h),
            (fl, fb),
            (fl - w, ft),
            (fr - w, ft - h),
            (fr - w, fb),
            (fr, ft),
            (fl, ft),
            (fr - w, fb - h),
        ];
        let rect = |(x, y): (i32, i32)| Bounds::new(x, y, x + w, y + h);
        let inside = |r: &Bounds| {
            r.left >= 0 && r.top >= 0 && r.right <= image.right && r.bottom <= image.bottom
        };
        let free = |r: &Bounds| placed.iter().all(|m| m.label.intersect(r).is_empty());
        let nudged = (1..=4).flat_map(|k| {
            spots.iter().map(move |&(x, y)| {
                let dx = if x < fl {
                    -k * w
                } else if x >= fr - w {
                    k * w
                } else {
                    0
                };
                let dy = if y < ft { -k * h } else { k * h };
                (x + dx, y + dy)
            })
        });
        let label = spots
            .iter()
            .copied()
            .chain(nudged)
            .map(rect)
            .find(|r| inside(r) && free(r))
            .or_else(|| spots.iter().copied().map(rect).find(|r| inside(r)))
            .unwrap_or_else(|| clamp_into(rect((fl, ft)), image));
        placed.push(Mark {
            id: e.id.0,
            frame,
            label,
            cell,
            stroke,
        });
    }
    placed
}

fn clamp_into(r: Bounds, image: Bounds) -> Bounds {
    let dx = if r.right > image.right {
        image.right - r.right
    } else {
        0
    };
    let dy = if r.bottom > image.bottom {
        image.bottom - r.bottom
    } else {
        0
    };
    let moved = r.offset(dx, dy);
    let dx = (-moved.left).max(0);
    let dy = (-moved.top).max(0);
    moved.offset(dx, dy)
}

/// Draws numbered boxes for `elements` on a copy of `image`; `scale` maps device pixels to image
/// pixels.
pub fn annotate<'a>(
    image: &RgbaImage,
    elements: impl IntoIterator<Item = &'a Element>,
    scale: f32,
) -> RgbaImage {
    let mut out = image.clone();
    let marks = layout(elements, scale, image.width(), image.height());
    for m in &marks {
        let color = color_of(m.id);
        let f = m.frame;
        let t = m.stroke;
        fill(
            &mut out,
            Bounds::new(f.left, f.top, f.right, f.top + t),
            color,
        );
        fill(
            &mut out,
            Bounds::new(f.left, f.bottom - t, f.right, f.bottom),
            color,
        );
        fill(
            &mut out,
            Bounds::new(f.left, f.top, f.left + t, f.bottom),
            color,
        );
        fill(
            &mut out,
            Bounds::new(f.right - t, f.top, f.right, f.bottom),
            color,
        );
    }
    // Labels last, so no outline crosses a number.
    for m in &marks {
        fill(&mut out, m.label, color_of(m.id));
        let white = Rgba([255, 255, 255, 255]);
        let c = m.cell;
        for (k, d) in m.id.to_string().bytes().enumerate() {
            let glyph = DIGITS[(d - b'0') as usize];
            let x0 = m.label.left + c + k as i32 * 4 * c;
            let y0 = m.label.top + c;
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..3 {
                    if bits & (0b100 >> col) != 0 {
                        let x = x0 + col * c;
                        let y = y0 + row as i32 * c;
                        fill(&mut out, Bounds::new(x, y, x + c, y + c), white);
                    }
                }
            }
        }
    }
    out
}

/// The colour of mark `id`.
pub fn color_of(id: u32) -> Rgba<u8> {
    let [r, g, b] = PALETTE[id as usize % PALETTE.len()];
    Rgba([r, g, b, 255])
}

fn fill(img: &mut RgbaImage, r: Bounds, color: Rgba<u8>) {
    let (w, h) = (img.width() as i32, img.height() as i32);
    for y in r.top.max(0)..r.bottom.min(h) {
        for x in r.left.max(0)..r.right.min(w) {
            img.put_pixel(x as u32, y as u32, color);
        }
    }
}

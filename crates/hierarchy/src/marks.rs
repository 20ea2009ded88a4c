//! Marked screenshots ("set of marks"): a numbered box around each element whose number equals its
//! [`ElementId`](super::ElementId), so "tap 7" means the same thing in the text and in the picture.
//!
//! Labels are sized for the picture the LLM actually sees (clients scale images to a 1024 px long
//! edge or less), drawn with a built-in 3×5 bitmap font (no font file), and placed in a tab just
//! outside the box's top-left corner, so they do not cover the element's own text; when that spot
//! is off the image, taken by another label or over another element's box, the next free spot
//! (inside the corner, below the box, its other corners, beside it, then a little further out).
//! See [`layout`] for what "free" means.

use image::{Rgba, RgbaImage};

use super::elements::Element;
use droidmcp_geom::Bounds;

/// The long edge, in pixels, of the image a model is shown.
pub const SEEN_LONG_EDGE: u32 = 1024;

/// Labels are kept from overlapping each other up to this many marks.
const MAX_AVOIDED: usize = 400;

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
///
/// A label goes to the first free spot around or inside its box: free means inside the image,
/// clear of every label placed before, and clear of every other element's box except the boxes
/// that hold this one (a list around its rows: a label cannot avoid its own containers). A label
/// over a neighbour's box reads as that neighbour's number, which is how a model taps the wrong
/// row. Only when no spot is free does a label give up the boxes, then the labels.
pub fn layout<'a>(
    elements: impl IntoIterator<Item = &'a Element>,
    scale: f32,
    width: u32,
    height: u32,
) -> Vec<Mark> {
    let (cell, stroke) = sizes(width, height);
    let image = Bounds::new(0, 0, width as i32, height as i32);
    let s = |v: i32| (v as f32 * scale).round() as i32;
    let framed: Vec<(u32, Bounds)> = elements
        .into_iter()
        .map(|e| {
            let b = e.bounds;
            let frame = Bounds::new(s(b.left), s(b.top), s(b.right), s(b.bottom)).intersect(&image);
            (e.id.0, frame)
        })
        .filter(|(_, f)| !f.is_empty())
        .collect();
    // Collision checks are quadratic; past a few hundred marks (no real screen has that many)
    // labels just take their first spot.
    let crowded = framed.len() > MAX_AVOIDED;
    let mut placed: Vec<Mark> = Vec::with_capacity(framed.len());
    for (i, &(id, frame)) in framed.iter().enumerate() {
        let digits = id.to_string().len() as i32;
        let w = digits * 4 * cell + cell;
        let h = 7 * cell;
        let (fl, ft, fr, fb) = (frame.left, frame.top, frame.right, frame.bottom);
        // Preferred spots first: outside the top-left corner (the element's own text stays
        // uncovered), inside it (where AndroidWorld puts its labels), outside the bottom-left,
        // the other inside corners, beside the box; then the outside spots nudged outwards.
        let spots = [
            (fl, ft - h),
            (fl, ft),
            (fl, fb),
            (fr - w, ft),
            (fl, fb - h),
            (fr - w, fb - h),
            (fl - w, ft),
            (fr, ft),
            (fr - w, ft - h),
            (fr - w, fb),
        ];
        let rect = |(x, y): (i32, i32)| Bounds::new(x, y, x + w, y + h);
        let inside = |r: &Bounds| {
            r.left >= 0 && r.top >= 0 && r.right <= image.right && r.bottom <= image.bottom
        };
        let clear_of_labels =
            |r: &Bounds| crowded || placed.iter().all(|m| m.label.intersect(r).is_empty());
        let clear_of_boxes = |r: &Bounds| {
            crowded
                || framed.iter().enumerate().all(|(j, (_, other))| {
                    j == i || holds(other, &frame) || other.intersect(r).is_empty()
                })
        };
        let nudged = (1..=4).flat_map(|k| {
            spots.iter().map(move |&(x, y)| {
                let dx = if x < fl {
                    -k * w
                } else if x >= fr {
                    k * w
                } else {
                    0
                };
                let dy = if y < ft {
                    -k * h
                } else if y >= fb {
                    k * h
                } else {
                    0
                };
                (x + dx, y + dy)
            })
        });
        // Last, every cell-aligned spot touching the box's top-left region, for boxes crowded
        // on all sides.
        let (reach_x, reach_y) = ((fr - fl).min(8 * w), (fb - ft).min(8 * h));
        let scan = (ft - h..=ft + reach_y)
            .step_by(cell.max(1) as usize)
            .flat_map(move |y| {
                (fl - w..=fl + reach_x)
                    .step_by(cell.max(1) as usize)
                    .map(move |x| (x, y))
            });
        let candidates = || {
            spots
                .iter()
                .copied()
                .chain(nudged.clone())
                .chain(scan.clone())
                .map(rect)
        };
        let label = candidates()
            .find(|r| inside(r) && clear_of_labels(r) && clear_of_boxes(r))
            .or_else(|| candidates().find(|r| inside(r) && clear_of_labels(r)))
            .or_else(|| spots.iter().copied().map(rect).find(|r| inside(r)))
            .unwrap_or_else(|| clamp_into(rect((fl, ft)), image));
        placed.push(Mark {
            id,
            frame,
            label,
            cell,
            stroke,
        });
    }
    placed
}

/// Whether box `outer` holds box `inner` (equal boxes hold each other).
fn holds(outer: &Bounds, inner: &Bounds) -> bool {
    outer.left <= inner.left
        && outer.top <= inner.top
        && outer.right >= inner.right
        && outer.bottom >= inner.bottom
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

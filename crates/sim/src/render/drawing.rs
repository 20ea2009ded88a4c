//! Vector drawings an app hands the renderer inside one view (OsmAnd's map: land, water, roads,
//! labels and pins), in screen pixels. A map is one `SurfaceView` to uiautomator, so its roads and
//! labels are paint, not views: they never reach the hierarchy dump.
//!
//! Filled shapes go through an even-odd scanline filler whose cost is the pixels covered, not the
//! bounding box times the edges, so a map frame stays within the screenshot budget; a thick line is
//! a quad per segment plus a disc per joint.

use super::canvas::{sdf, Canvas, Rgba};
use super::text::{self, TextStyle};
use droidmcp_geom::Bounds;

/// One primitive, in screen pixels.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A filled polygon (even-odd rule).
    Area {
        points: Vec<(f32, f32)>,
        color: Rgba,
    },
    /// A polyline `width` px wide with round joints and caps.
    Line {
        points: Vec<(f32, f32)>,
        width: f32,
        color: Rgba,
    },
    /// A disc, optionally ringed (`ring` colour and width).
    Dot {
        center: (f32, f32),
        radius: f32,
        color: Rgba,
        ring: Option<(Rgba, f32)>,
    },
    /// One line of text centred on `center`, with a light halo as map labels have.
    Label {
        center: (f32, f32),
        text: String,
        size_px: f32,
        color: Rgba,
        halo: Rgba,
        bold: bool,
    },
}

/// What a view paints over its background, bottom to top.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Drawing {
    pub shapes: Vec<Shape>,
}

/// Paints `drawing`, clipped to the canvas's clip (the view's bounds).
pub fn paint(canvas: &mut Canvas, drawing: &Drawing) {
    for shape in &drawing.shapes {
        match shape {
            Shape::Area { points, color } => fill_polygon(canvas, points, *color),
            Shape::Line {
                points,
                width,
                color,
            } => stroke(canvas, points, *width, *color),
            Shape::Dot {
                center,
                radius,
                color,
                ring,
            } => {
                if let Some((ring_color, ring_width)) = ring {
                    disc(canvas, *center, radius + ring_width, *ring_color);
                }
                disc(canvas, *center, *radius, *color);
            }
            Shape::Label {
                center,
                text: label,
                size_px,
                color,
                halo,
                bold,
            } => {
                let style = TextStyle {
                    size_px: *size_px,
                    color: *halo,
                    bold: *bold,
                    center: true,
                    rtl: false,
                };
                let w = text::measure(label, &style).ceil() as i32 + 4;
                let h = text::line_height(*size_px).ceil() as i32;
                let (cx, cy) = (center.0 as i32, center.1 as i32);
                let area = Bounds::new(cx - w / 2, cy - h / 2, cx - w / 2 + w, cy - h / 2 + h);
                let o = (size_px / 12.0).max(1.0).round() as i32;
                for (dx, dy) in [(-o, 0), (o, 0), (0, -o), (0, o)] {
                    text::draw_text(canvas, label, area.offset(dx, dy), &style);
                }
                let style = TextStyle {
                    color: *color,
                    ..style
                };
                text::draw_text(canvas, label, area, &style);
            }
        }
    }
}

fn disc(canvas: &mut Canvas, c: (f32, f32), r: f32, color: Rgba) {
    let area = Bounds::new(
        (c.0 - r - 1.0).floor() as i32,
        (c.1 - r - 1.0).floor() as i32,
        (c.0 + r + 1.0).ceil() as i32,
        (c.1 + r + 1.0).ceil() as i32,
    );
    canvas.fill_sdf(area, color, |x, y| sdf::circle(x, y, c.0, c.1, r));
}

/// A polyline as quads and round joints.
fn stroke(canvas: &mut Canvas, points: &[(f32, f32)], width: f32, color: Rgba) {
    let hw = width / 2.0;
    for pair in points.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 0.01 {
            continue;
        }
        let (nx, ny) = (-dy / len * hw, dx / len * hw);
        fill_polygon(
            canvas,
            &[
                (a.0 + nx, a.1 + ny),
                (b.0 + nx, b.1 + ny),
                (b.0 - nx, b.1 - ny),
                (a.0 - nx, a.1 - ny),
            ],
            color,
        );
    }
    // Thin lines need no joints: the quads already meet within a pixel.
    if hw >= 1.5 {
        for p in points {
            disc(canvas, *p, hw, color);
        }
    }
}

/// Fills a polygon row by row (even-odd), sampling each row at its centre and anti-aliasing the
/// spans' horizontal ends.
pub fn fill_polygon(canvas: &mut Canvas, points: &[(f32, f32)], color: Rgba) {
    if points.len() < 3 {
        return;
    }
    let clip = canvas.clip();
    let (mut top, mut bottom) = (f32::MAX, f32::MIN);
    for p in points {
        top = top.min(p.1);
        bottom = bottom.max(p.1);
    }
    let y0 = (top.floor() as i32).max(clip.top);
    let y1 = (bottom.ceil() as i32).min(clip.bottom);
    let mut xs: Vec<f32> = Vec::with_capacity(8);
    let n = points.len();
    for y in y0..y1 {
        let sy = y as f32 + 0.5;
        xs.clear();
        for i in 0..n {
            let (a, b) = (points[i], points[(i + 1) % n]);
            if (a.1 > sy) != (b.1 > sy) {
                xs.push(a.0 + (sy - a.1) * (b.0 - a.0) / (b.1 - a.1));
            }
        }
        xs.sort_by(f32::total_cmp);
        for span in xs.chunks_exact(2) {
            let (l, r) = (
                span[0].max(clip.left as f32),
                span[1].min(clip.right as f32),
            );
            if r <= l {
                continue;
            }
            let (li, ri) = (l.floor() as i32, r.floor() as i32);
            if li == ri {
                canvas.blend_pixel(li, y, color, r - l);
                continue;
            }
            canvas.blend_pixel(li, y, color, (li + 1) as f32 - l);
            canvas.fill_rect(Bounds::new(li + 1, y, ri, y + 1), color);
            canvas.blend_pixel(ri, y, color, r - ri as f32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn px(c: &Canvas, x: u32, y: u32) -> [u8; 4] {
        c.image.get_pixel(x, y).0
    }

    #[test]
    fn a_polygon_fills_its_inside_only() {
        let mut c = Canvas::new(40, 40, [255, 255, 255, 255]);
        let red = [255, 0, 0, 255];
        fill_polygon(
            &mut c,
            &[(10.0, 10.0), (30.0, 10.0), (30.0, 30.0), (10.0, 30.0)],
            red,
        );
        assert_eq!(px(&c, 20, 20), red);
        assert_eq!(px(&c, 5, 20), [255, 255, 255, 255]);
        assert_eq!(px(&c, 20, 35), [255, 255, 255, 255]);
    }

    #[test]
    fn a_thick_line_covers_its_width_and_no_more() {
        let mut c = Canvas::new(100, 40, [255, 255, 255, 255]);
        let blue = [0, 0, 255, 255];
        let d = Drawing {
            shapes: vec![Shape::Line {
                points: vec![(10.0, 20.0), (90.0, 20.0)],
                width: 8.0,
                color: blue,
            }],
        };
        paint(&mut c, &d);
        assert_eq!(px(&c, 50, 20), blue);
        assert_eq!(px(&c, 50, 17), blue);
        assert_eq!(px(&c, 50, 26), [255, 255, 255, 255]);
    }

    #[test]
    fn drawing_stays_inside_the_clip() {
        let mut c = Canvas::new(40, 40, [255, 255, 255, 255]);
        c.set_clip(Bounds::new(0, 0, 20, 40));
        fill_polygon(
            &mut c,
            &[(0.0, 0.0), (40.0, 0.0), (40.0, 40.0), (0.0, 40.0)],
            [0, 0, 0, 255],
        );
        assert_eq!(px(&c, 10, 10), [0, 0, 0, 255]);
        assert_eq!(px(&c, 30, 10), [255, 255, 255, 255]);
    }
}

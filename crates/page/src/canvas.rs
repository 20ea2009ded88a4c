//! A `<canvas>` element's bitmap and the 2D drawing calls simple pages make: stroking a path of
//! line segments, filling and clearing rectangles, and reading pixels back.
//!
//! Strokes are drawn without anti-aliasing: every pixel whose centre lies within half the line
//! width of the path takes the stroke colour exactly. A page that checks which colours it holds
//! (AndroidWorld's drawing task compares `getImageData` pixels to hex colours) then finds the
//! colour it drew, as it finds it in the middle of a real browser's wider strokes.

use image::{Rgba, RgbaImage};

use crate::css::Rgba as Color;

#[derive(Debug, Clone, PartialEq)]
pub struct Canvas {
    pub bitmap: RgbaImage,
}

impl Canvas {
    /// A transparent-black bitmap, as a new canvas starts.
    pub fn new(width: u32, height: u32) -> Canvas {
        Canvas {
            bitmap: RgbaImage::new(width, height),
        }
    }

    fn blend(&mut self, x: i64, y: i64, c: Color) {
        if x < 0 || y < 0 || x >= self.bitmap.width() as i64 || y >= self.bitmap.height() as i64 {
            return;
        }
        let px = self.bitmap.get_pixel_mut(x as u32, y as u32);
        let a = c[3] as u32;
        if a == 255 {
            *px = Rgba(c);
            return;
        }
        // Source over destination, straight alpha.
        let da = px[3] as u32;
        let out_a = a + da * (255 - a) / 255;
        if out_a == 0 {
            *px = Rgba([0, 0, 0, 0]);
            return;
        }
        let mix = |s: u8, d: u8| {
            ((s as u32 * a + d as u32 * da * (255 - a) / 255) / out_a).min(255) as u8
        };
        *px = Rgba([
            mix(c[0], px[0]),
            mix(c[1], px[1]),
            mix(c[2], px[2]),
            out_a as u8,
        ]);
    }

    /// Strokes the polyline `points` (x, y pairs in canvas pixels) with round joins and caps.
    pub fn stroke(&mut self, points: &[(f64, f64)], width: f64, color: Color) {
        let half = (width / 2.0).max(0.5);
        let segments: Vec<((f64, f64), (f64, f64))> = match points {
            [] => return,
            [p] => vec![(*p, *p)],
            _ => points.windows(2).map(|w| (w[0], w[1])).collect(),
        };
        for (a, b) in segments {
            let x0 = (a.0.min(b.0) - half).floor() as i64;
            let x1 = (a.0.max(b.0) + half).ceil() as i64;
            let y0 = (a.1.min(b.1) - half).floor() as i64;
            let y1 = (a.1.max(b.1) + half).ceil() as i64;
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let centre = (x as f64 + 0.5, y as f64 + 0.5);
                    if distance_to_segment(centre, a, b) <= half {
                        self.blend(x, y, color);
                    }
                }
            }
        }
    }

    pub fn fill_rect(&mut self, x: f64, y: f64, w: f64, h: f64, color: Color) {
        for py in (y.round() as i64)..((y + h).round() as i64) {
            for px in (x.round() as i64)..((x + w).round() as i64) {
                self.blend(px, py, color);
            }
        }
    }

    pub fn clear_rect(&mut self, x: f64, y: f64, w: f64, h: f64) {
        let (bw, bh) = (self.bitmap.width() as i64, self.bitmap.height() as i64);
        for py in (y.round() as i64).max(0)..((y + h).round() as i64).min(bh) {
            for px in (x.round() as i64).max(0)..((x + w).round() as i64).min(bw) {
                self.bitmap
                    .put_pixel(px as u32, py as u32, Rgba([0, 0, 0, 0]));
            }
        }
    }

    /// RGBA bytes of a rectangle, row by row; pixels outside the bitmap read transparent black.
    pub fn image_data(&self, x: i64, y: i64, w: u32, h: u32) -> Vec<u8> {
        let mut out = Vec::with_capacity(w as usize * h as usize * 4);
        for py in y..y + h as i64 {
            for px in x..x + w as i64 {
                let inside = px >= 0
                    && py >= 0
                    && px < self.bitmap.width() as i64
                    && py < self.bitmap.height() as i64;
                let p = if inside {
                    self.bitmap.get_pixel(px as u32, py as u32).0
                } else {
                    [0, 0, 0, 0]
                };
                out.extend_from_slice(&p);
            }
        }
        out
    }
}

fn distance_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stroke_paints_its_exact_colour_along_the_path_only() {
        let mut c = Canvas::new(20, 20);
        c.stroke(&[(2.0, 10.0), (18.0, 10.0)], 1.0, [255, 0, 0, 255]);
        assert_eq!(c.bitmap.get_pixel(10, 9).0, [255, 0, 0, 255]);
        assert_eq!(c.bitmap.get_pixel(10, 2).0, [0, 0, 0, 0]);
        let data = c.image_data(0, 0, 20, 20);
        assert_eq!(data.len(), 20 * 20 * 4);
        c.clear_rect(0.0, 0.0, 20.0, 20.0);
        assert!(c.bitmap.pixels().all(|p| p.0 == [0, 0, 0, 0]));
    }
}

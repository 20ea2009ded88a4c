//! A clipped RGBA drawing surface: solid and rounded rectangles, anti-aliased shapes from signed
//! distance functions, and coverage masks (glyphs), all blended straight into the image's byte slice.

use image::RgbaImage;

use droidmcp_geom::Bounds;

/// An RGBA colour, straight (not premultiplied) alpha.
pub type Rgba = [u8; 4];

/// The image being drawn and the rectangle drawing is currently limited to.
pub struct Canvas {
    pub image: RgbaImage,
    clip: Bounds,
}

impl Canvas {
    /// A `width`×`height` canvas filled with `background`.
    pub fn new(width: u32, height: u32, background: Rgba) -> Canvas {
        let image = RgbaImage::from_pixel(width, height, image::Rgba(background));
        let clip = Bounds::new(0, 0, width as i32, height as i32);
        Canvas { image, clip }
    }

    /// A canvas drawing over `image` (marking an action on a screenshot).
    pub fn over(image: RgbaImage) -> Canvas {
        let clip = Bounds::new(0, 0, image.width() as i32, image.height() as i32);
        Canvas { image, clip }
    }

    pub fn into_image(self) -> RgbaImage {
        self.image
    }

    pub fn clip(&self) -> Bounds {
        self.clip
    }

    /// Replaces the clip (callers intersect with the screen through [`Canvas::screen`]).
    pub fn set_clip(&mut self, clip: Bounds) {
        self.clip = clip.intersect(&self.screen());
    }

    pub fn screen(&self) -> Bounds {
        Bounds::new(0, 0, self.image.width() as i32, self.image.height() as i32)
    }

    fn width(&self) -> usize {
        self.image.width() as usize
    }

    /// Draws `img` scaled into `dest` (clipped), sampling bilinearly and blending by its alpha:
    /// photos and thumbnails at any size stay readable.
    pub fn draw_image(&mut self, img: &RgbaImage, dest: Bounds) {
        let r = dest.intersect(&self.clip);
        if r.is_empty() || img.width() == 0 || img.height() == 0 {
            return;
        }
        let (iw, ih) = (img.width() as f32, img.height() as f32);
        let sx = iw / dest.width() as f32;
        let sy = ih / dest.height() as f32;
        let px = |x: u32, y: u32| {
            img.get_pixel(x.min(img.width() - 1), y.min(img.height() - 1))
                .0
        };
        for y in r.top..r.bottom {
            let fy = ((y - dest.top) as f32 + 0.5) * sy - 0.5;
            let y0 = fy.floor().max(0.0);
            let ty = (fy - y0).clamp(0.0, 1.0);
            for x in r.left..r.right {
                let fx = ((x - dest.left) as f32 + 0.5) * sx - 0.5;
                let x0 = fx.floor().max(0.0);
                let tx = (fx - x0).clamp(0.0, 1.0);
                let (xi, yi) = (x0 as u32, y0 as u32);
                let (a, b, c, d) = (
                    px(xi, yi),
                    px(xi + 1, yi),
                    px(xi, yi + 1),
                    px(xi + 1, yi + 1),
                );
                let mut out = [0u8; 4];
                for k in 0..4 {
                    let top = a[k] as f32 * (1.0 - tx) + b[k] as f32 * tx;
                    let bottom = c[k] as f32 * (1.0 - tx) + d[k] as f32 * tx;
                    out[k] = (top * (1.0 - ty) + bottom * ty).round() as u8;
                }
                let alpha = out[3] as f32 / 255.0;
                self.blend_pixel(x, y, [out[0], out[1], out[2], 255], alpha);
            }
        }
    }

    /// Fills `rect` (clipped) with `color`; opaque colours are copied row by row.
    pub fn fill_rect(&mut self, rect: Bounds, color: Rgba) {
        let r = rect.intersect(&self.clip);
        if r.is_empty() || color[3] == 0 {
            return;
        }
        let w = self.width();
        let buf: &mut [u8] = &mut self.image;
        for y in r.top..r.bottom {
            let row = &mut buf
                [(y as usize * w + r.left as usize) * 4..(y as usize * w + r.right as usize) * 4];
            if color[3] == 255 {
                for px in row.chunks_exact_mut(4) {
                    px.copy_from_slice(&color);
                }
            } else {
                for px in row.chunks_exact_mut(4) {
                    blend(px, color, 1.0);
                }
            }
        }
    }

    /// Blends `color` into one pixel with `coverage` in 0..=1 (ignores pixels outside the clip).
    pub fn blend_pixel(&mut self, x: i32, y: i32, color: Rgba, coverage: f32) {
        if coverage <= 0.0 || !self.clip.contains(droidmcp_geom::Point::new(x, y)) {
            return;
        }
        let i = (y as usize * self.width() + x as usize) * 4;
        let buf: &mut [u8] = &mut self.image;
        blend(&mut buf[i..i + 4], color, coverage.min(1.0));
    }

    /// Fills a rectangle with rounded corners of radius `radius`, anti-aliasing only the corners.
    pub fn fill_round_rect(&mut self, rect: Bounds, radius: i32, color: Rgba) {
        let radius = radius.min(rect.width() / 2).min(rect.height() / 2).max(0);
        if radius == 0 {
            self.fill_rect(rect, color);
            return;
        }
        // The straight middle band and the two side bands between the corners.
        self.fill_rect(
            Bounds::new(
                rect.left,
                rect.top + radius,
                rect.right,
                rect.bottom - radius,
            ),
            color,
        );
        self.fill_rect(
            Bounds::new(
                rect.left + radius,
                rect.top,
                rect.right - radius,
                rect.top + radius,
            ),
            color,
        );
        self.fill_rect(
            Bounds::new(
                rect.left + radius,
                rect.bottom - radius,
                rect.right - radius,
                rect.bottom,
            ),
            color,
        );
        let r = radius as f32;
        let corners = [
            (
                rect.left,
                rect.top,
                rect.left as f32 + r,
                rect.top as f32 + r,
            ),
            (
                rect.right - radius,
                rect.top,
                rect.right as f32 - r,
                rect.top as f32 + r,
            ),
            (
                rect.left,
                rect.bottom - radius,
                rect.left as f32 + r,
                rect.bottom as f32 - r,
            ),
            (
                rect.right - radius,
                rect.bottom - radius,
                rect.right as f32 - r,
                rect.bottom as f32 - r,
            ),
        ];
        for (x0, y0, cx, cy) in corners {
            for y in y0..y0 + radius {
                for x in x0..x0 + radius {
                    let dx = x as f32 + 0.5 - cx;
                    let dy = y as f32 + 0.5 - cy;
                    let d = (dx * dx + dy * dy).sqrt() - r;
                    self.blend_pixel(x, y, color, 0.5 - d);
                }
            }
        }
    }

    /// Paints every pixel of `area` whose centre lies inside the shape `sdf` describes (negative
    /// inside, distance in px), anti-aliased over one pixel.
    pub fn fill_sdf(&mut self, area: Bounds, color: Rgba, sdf: impl Fn(f32, f32) -> f32) {
        let a = area.intersect(&self.clip);
        if a.is_empty() {
            return;
        }
        for y in a.top..a.bottom {
            for x in a.left..a.right {
                let d = sdf(x as f32 + 0.5, y as f32 + 0.5);
                if d < 0.5 {
                    self.blend_pixel(x, y, color, 0.5 - d);
                }
            }
        }
    }

    /// Blends a coverage mask (`width` bytes per row, 0..=255) with its top-left at (`x`, `y`).
    pub fn draw_mask(&mut self, x: i32, y: i32, width: usize, mask: &[u8], color: Rgba) {
        if width == 0 {
            return;
        }
        let height = (mask.len() / width) as i32;
        let target = Bounds::new(x, y, x + width as i32, y + height).intersect(&self.clip);
        if target.is_empty() {
            return;
        }
        let w = self.width();
        let buf: &mut [u8] = &mut self.image;
        for ty in target.top..target.bottom {
            let mask_row = &mask[(ty - y) as usize * width..][..width];
            let start = (ty as usize * w + target.left as usize) * 4;
            let end = (ty as usize * w + target.right as usize) * 4;
            let dst = &mut buf[start..end];
            let first = (target.left - x) as usize;
            for (px, &m) in dst.chunks_exact_mut(4).zip(&mask_row[first..]) {
                if m != 0 {
                    blend(px, color, m as f32 / 255.0);
                }
            }
        }
    }
}

/// Source-over blend of `color` at `coverage` onto one RGBA pixel.
fn blend(px: &mut [u8], color: Rgba, coverage: f32) {
    let a = coverage * color[3] as f32 / 255.0;
    if a >= 0.999 {
        px.copy_from_slice(&color);
        return;
    }
    for c in 0..3 {
        let d = px[c] as f32;
        px[c] = (d + (color[c] as f32 - d) * a).round() as u8;
    }
    let da = px[3] as f32 / 255.0;
    px[3] = ((a + da * (1.0 - a)) * 255.0).round() as u8;
}

/// Signed distance functions for the shapes icons and widgets are built from (negative inside).
pub mod sdf {
    /// A disc of radius `r` at (`cx`, `cy`).
    pub fn circle(x: f32, y: f32, cx: f32, cy: f32, r: f32) -> f32 {
        ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r
    }

    /// A line segment from a to b with half-thickness `hw` and round caps.
    pub fn segment(x: f32, y: f32, a: (f32, f32), b: (f32, f32), hw: f32) -> f32 {
        let (px, py) = (x - a.0, y - a.1);
        let (bx, by) = (b.0 - a.0, b.1 - a.1);
        let len2 = bx * bx + by * by;
        let t = if len2 == 0.0 {
            0.0
        } else {
            ((px * bx + py * by) / len2).clamp(0.0, 1.0)
        };
        ((px - bx * t).powi(2) + (py - by * t).powi(2)).sqrt() - hw
    }

    /// An axis-aligned box with rounded corners of radius `r`.
    pub fn round_box(x: f32, y: f32, l: f32, t: f32, r_: f32, b: f32, r: f32) -> f32 {
        let cx = (l + r_) / 2.0;
        let cy = (t + b) / 2.0;
        let hx = (r_ - l) / 2.0 - r;
        let hy = (b - t) / 2.0 - r;
        let qx = (x - cx).abs() - hx;
        let qy = (y - cy).abs() - hy;
        let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
        outside + qx.max(qy).min(0.0) - r
    }

    /// A filled convex or concave polygon (even-odd rule).
    pub fn polygon(x: f32, y: f32, pts: &[(f32, f32)]) -> f32 {
        let mut d = f32::MAX;
        let mut inside = false;
        let n = pts.len();
        for i in 0..n {
            let a = pts[i];
            let b = pts[(i + n - 1) % n];
            d = d.min(segment(x, y, a, b, 0.0));
            if (a.1 > y) != (b.1 > y) && x < (b.0 - a.0) * (y - a.1) / (b.1 - a.1) + a.0 {
                inside = !inside;
            }
        }
        if inside {
            -d
        } else {
            d
        }
    }

    /// A ring (circle outline) of radius `r` and half-thickness `hw`, limited to the angles from
    /// `start` to `end` (radians, 0 = right, clockwise on screen because y grows downwards).
    pub fn arc(x: f32, y: f32, c: (f32, f32), r: f32, hw: f32, start: f32, end: f32) -> f32 {
        let (dx, dy) = (x - c.0, y - c.1);
        let mut ang = dy.atan2(dx);
        while ang < start {
            ang += std::f32::consts::TAU;
        }
        if ang <= end {
            return ((dx * dx + dy * dy).sqrt() - r).abs() - hw;
        }
        let p0 = (c.0 + r * start.cos(), c.1 + r * start.sin());
        let p1 = (c.0 + r * end.cos(), c.1 + r * end.sin());
        let d0 = ((x - p0.0).powi(2) + (y - p0.1).powi(2)).sqrt();
        let d1 = ((x - p1.0).powi(2) + (y - p1.1).powi(2)).sqrt();
        d0.min(d1) - hw
    }
}

//! The agent's action drawn on the screenshot it was taken on (the frame before the step), as A3's
//! reward model is shown steps: a ring where a finger touched, the path of a swipe, and, for a
//! step that typed, the typed text in a band at the top. Frames are stored clean; marks are drawn
//! when a judge's request is built, on the decoded frame, and the result is encoded again at the
//! frame's own size.

use image::RgbaImage;
use serde_json::Value;

use droidmcp_geom::Bounds;
use droidmcp_sim::render::text::{draw_text, TextStyle};
use droidmcp_sim::render::Canvas;

const RED: [u8; 4] = [230, 20, 20, 255];
const BAND: [u8; 4] = [20, 20, 20, 220];
const WHITE: [u8; 4] = [255, 255, 255, 255];

/// Why a frame could not be marked.
#[derive(Debug, thiserror::Error)]
pub enum MarkError {
    #[error("stored frame is not a readable JPEG: {0}")]
    Decode(String),
    /// Frames stored before their encoder wrote interleaved scans: `image`'s decoder (zune-jpeg
    /// 0.5) reads a baseline JPEG whose components come in separate scans with 4:2:0 chroma as
    /// green stripes over a picture stretched twice as tall, so such a frame is shown clean.
    #[error(
        "stored frame has its colour components in separate scans, which the decoder misreads"
    )]
    SeparateScans,
    #[error("cannot encode the marked frame: {0}")]
    Encode(String),
}

/// `jpeg` (a frame whose pixels are `scale` screen pixels each) with `action` (a stored step's
/// action JSON: `point`, `end`, `text`, `kind`) drawn on it, as JPEG of the same size.
pub fn mark(jpeg: &[u8], scale: f64, action: &Value) -> Result<Vec<u8>, MarkError> {
    if separate_scans(jpeg) {
        return Err(MarkError::SeparateScans);
    }
    let img = image::load_from_memory_with_format(jpeg, image::ImageFormat::Jpeg)
        .map_err(|e| MarkError::Decode(e.to_string()))?
        .to_rgba8();
    let marked = draw(img, scale, action);
    droidmcp_device::image::encode(&marked, droidmcp_device::image::Encoding::Jpeg(80))
        .map_err(|e| MarkError::Encode(e.to_string()))
}

/// [`mark`], or the frame clean when it cannot be marked: the judge still sees the screen.
pub fn mark_or_clean(jpeg: &[u8], scale: f64, action: &Value, step: usize) -> Vec<u8> {
    mark(jpeg, scale, action).unwrap_or_else(|e| {
        tracing::warn!("step {step} frame shown unmarked: {e}");
        jpeg.to_vec()
    })
}

/// Whether `jpeg` is a baseline JPEG with more than one scan: its components coded one scan each
/// (what `jpeg-encoder` wrote with optimized Huffman tables) rather than interleaved in one. Walks
/// the marker segments up to the first scan's header; progressive JPEGs (SOF2) are read right.
pub fn separate_scans(jpeg: &[u8]) -> bool {
    let mut at = 2; // after SOI
    let mut components = 0u8;
    while at + 4 <= jpeg.len() {
        if jpeg[at] != 0xFF {
            return false;
        }
        let marker = jpeg[at + 1];
        let len = u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]) as usize;
        match marker {
            // Baseline or extended sequential: the frame's component count.
            0xC0 | 0xC1 => components = jpeg.get(at + 9).copied().unwrap_or(0),
            // The first scan: fewer components than the frame means one scan per component.
            0xDA => return components > 1 && jpeg.get(at + 4).copied().unwrap_or(0) < components,
            _ => {}
        }
        at += 2 + len;
    }
    false
}

fn point(v: &Value, scale: f64) -> Option<(f32, f32)> {
    let xy = v.as_array()?;
    let x = xy.first()?.as_f64()?;
    let y = xy.get(1)?.as_f64()?;
    let s = if scale > 0.0 { scale } else { 1.0 };
    Some(((x / s) as f32, (y / s) as f32))
}

/// Draws the action's marks on `img`.
pub fn draw(img: RgbaImage, scale: f64, action: &Value) -> RgbaImage {
    let mut canvas = Canvas::over(img);
    let size = canvas.screen();
    let radius = (size.width().min(size.height()) as f32 / 22.0).max(6.0);
    let width = (radius / 4.0).max(2.0);
    let start = point(&action["point"], scale);
    let end = point(&action["end"], scale);
    if let (Some(a), Some(b)) = (start, end) {
        line(&mut canvas, a, b, width);
        dot(&mut canvas, b, radius / 2.0);
    }
    if let Some(p) = start {
        ring(&mut canvas, p, radius, width);
    }
    // Only typing has text to show: a key's name, an app's package or a swipe's direction in
    // `text` were never typed.
    let typed = action["kind"].as_str() == Some("type");
    if let Some(text) = action["text"].as_str().filter(|t| typed && !t.is_empty()) {
        let band_height = (radius * 2.4) as i32;
        canvas.fill_rect(Bounds::new(0, 0, size.width(), band_height), BAND);
        let style = TextStyle {
            size_px: radius * 1.1,
            color: WHITE,
            bold: false,
            center: false,
            rtl: false,
        };
        let pad = (radius / 2.0) as i32;
        draw_text(
            &mut canvas,
            &format!("typed: {text}"),
            Bounds::new(pad, 0, size.width() - pad, band_height),
            &style,
        );
    }
    canvas.into_image()
}

/// A ring of `width` around `c`.
fn ring(canvas: &mut Canvas, c: (f32, f32), r: f32, width: f32) {
    let reach = (r + width) as i32 + 1;
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let d = ((dx * dx + dy * dy) as f32).sqrt();
            let coverage = (width / 2.0 - (d - r).abs() + 0.5).clamp(0.0, 1.0);
            canvas.blend_pixel(c.0 as i32 + dx, c.1 as i32 + dy, RED, coverage);
        }
    }
}

fn dot(canvas: &mut Canvas, c: (f32, f32), r: f32) {
    ring(canvas, c, r / 2.0, r);
}

/// A line of `width` from `a` to `b`.
fn line(canvas: &mut Canvas, a: (f32, f32), b: (f32, f32), width: f32) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let steps = dx.abs().max(dy.abs()).ceil().max(1.0) as i32;
    for i in 0..=steps {
        let t = i as f32 / steps as f32;
        dot(canvas, (a.0 + dx * t, a.1 + dy * t), width);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn red_at(img: &RgbaImage, x: u32, y: u32) -> bool {
        let p = img.get_pixel(x, y).0;
        p[0] > 180 && p[1] < 90 && p[2] < 90
    }

    #[test]
    fn a_tap_is_ringed_where_it_landed_in_frame_pixels() {
        let img = RgbaImage::from_pixel(400, 800, image::Rgba([255, 255, 255, 255]));
        // Screen point (600, 1000) on a frame at half scale: the ring centres on (300, 500).
        let out = draw(img, 2.0, &json!({"kind": "tap", "point": [600, 1000]}));
        let r = (400.0f32 / 22.0).max(6.0) as u32;
        assert!(red_at(&out, 300 + r, 500));
        assert!(red_at(&out, 300, 500 - r));
        assert!(
            !red_at(&out, 300, 500),
            "the touched spot itself stays visible"
        );
        assert!(!red_at(&out, 50, 50));
    }

    #[test]
    fn a_swipe_draws_its_path_and_typing_its_text() {
        let img = RgbaImage::from_pixel(400, 800, image::Rgba([255, 255, 255, 255]));
        let out = draw(
            img.clone(),
            1.0,
            &json!({"kind": "swipe", "point": [200, 700], "end": [200, 100]}),
        );
        assert!(red_at(&out, 200, 400), "the path between the ends is drawn");
        assert!(!red_at(&out, 100, 400));
        let typed = draw(img, 1.0, &json!({"kind": "type", "text": "hello"}));
        let dark = typed.get_pixel(200, 5).0;
        assert!(dark[0] < 60, "a band at the top carries the typed text");
        let lit = (0..400).any(|x| (0..30).any(|y| typed.get_pixel(x, y).0[0] > 200));
        assert!(lit, "the band has text in it");
    }

    #[test]
    fn only_typing_gets_a_band() {
        let img = RgbaImage::from_pixel(400, 800, image::Rgba([255, 255, 255, 255]));
        for action in [
            json!({"kind": "key", "text": "back"}),
            json!({"kind": "open_app", "text": "com.google.android.deskclock"}),
            json!({"kind": "swipe", "text": "up", "point": [200, 700], "end": [200, 600]}),
        ] {
            let out = draw(img.clone(), 1.0, &action);
            assert_eq!(out.get_pixel(390, 5).0, [255; 4], "{action}");
        }
    }

    #[test]
    fn frames_coded_one_scan_per_component_are_told_apart() {
        let img = RgbaImage::from_fn(64, 48, |x, y| {
            image::Rgba([x as u8 * 4, y as u8 * 5, 90, 255])
        });
        let jpeg = |optimized: bool| {
            let mut out = Vec::new();
            let mut enc = jpeg_encoder::Encoder::new(&mut out, 80);
            enc.set_sampling_factor(jpeg_encoder::SamplingFactor::F_2_2);
            enc.set_optimized_huffman_tables(optimized);
            enc.encode(img.as_raw(), 64, 48, jpeg_encoder::ColorType::Rgba)
                .unwrap();
            out
        };
        assert!(separate_scans(&jpeg(true)));
        assert!(!separate_scans(&jpeg(false)));
        let stored =
            droidmcp_device::image::encode(&img, droidmcp_device::image::Encoding::Jpeg(80));
        assert!(
            !separate_scans(&stored.unwrap()),
            "frames are stored interleaved"
        );
        assert!(matches!(
            mark(&jpeg(true), 1.0, &json!({"kind": "tap", "point": [10, 10]})),
            Err(MarkError::SeparateScans)
        ));
        assert!(!separate_scans(b"not a jpeg"));
    }
}

//! Screenshots made fit for a model: read from `screencap`'s raw frame or decoded from `screencap -p`, scaled so the long edge stays within
//! a limit, and encoded as PNG or JPEG, with the scale factor that maps image pixels back to the screen.

use std::io::Cursor;

use image::{ImageFormat, RgbaImage};

/// Output encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    #[default]
    Png,
    /// JPEG at the given quality (1–100).
    Jpeg(u8),
}

impl Encoding {
    pub fn mime(&self) -> &'static str {
        match self {
            Encoding::Png => "image/png",
            Encoding::Jpeg(_) => "image/jpeg",
        }
    }
}

/// An encoded screenshot.
#[derive(Debug, Clone)]
pub struct Screenshot {
    pub bytes: Vec<u8>,
    pub encoding: Encoding,
    pub width: u32,
    pub height: u32,
    /// Screen pixels per image pixel: multiply image coordinates by this to get screen coordinates.
    pub scale: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("cannot decode the screenshot: {0}")]
    Decode(String),
    #[error("cannot encode the screenshot: {0}")]
    Encode(String),
}

pub fn decode_png(png: &[u8]) -> Result<RgbaImage, ImageError> {
    image::load_from_memory_with_format(png, ImageFormat::Png)
        .map(|i| i.to_rgba8())
        .map_err(|e| ImageError::Decode(e.to_string()))
}

/// A frame as `screencap` without `-p` writes it: width, height and pixel format as little-endian
/// u32s, on Android 8+ a fourth u32 (the data space), then the pixels. Reads RGBA_8888 (1),
/// RGBX_8888 (2) and BGRA_8888 (5), the formats phones and emulators use; `None` for anything else
/// (so the caller asks for a PNG instead). The pixels are used where they lie in `bytes`: a frame is
/// 10 MB, and copying it cost as much as scaling it.
pub fn raw_frame(mut bytes: Vec<u8>) -> Option<RgbaImage> {
    let word = |i: usize| -> Option<u32> {
        Some(u32::from_le_bytes(
            bytes.get(i * 4..i * 4 + 4)?.try_into().ok()?,
        ))
    };
    let (width, height, format) = (word(0)?, word(1)?, word(2)?);
    let len = (width as usize)
        .checked_mul(height as usize)?
        .checked_mul(4)?;
    let header = [16, 12].into_iter().find(|h| bytes.len() == h + len)?;
    match format {
        1 => {}
        2 => bytes[header..].chunks_exact_mut(4).for_each(|p| p[3] = 255),
        5 => bytes[header..]
            .chunks_exact_mut(4)
            .for_each(|p| p.swap(0, 2)),
        _ => return None,
    }
    bytes.drain(..header);
    RgbaImage::from_raw(width, height, bytes)
}

/// The factor (≥1) that brings the long edge of a `width`×`height` image within `max_edge`.
pub fn downscale_factor(width: u32, height: u32, max_edge: u32) -> f64 {
    let long = width.max(height).max(1) as f64;
    let max_edge = max_edge.max(16) as f64;
    (long / max_edge).max(1.0)
}

/// Scales `img` down by `factor` (≥1): halving by 2×2 averages while the factor is 2 or more, then
/// an area average (each output pixel the coverage-weighted mean of the source pixels under it), in
/// fixed point. Text stays sharp as with a triangle filter, at a third of its cost.
pub fn scale(img: &RgbaImage, factor: f64) -> RgbaImage {
    if factor <= 1.0 {
        return img.clone();
    }
    let w = ((img.width() as f64 / factor).round() as u32).max(1);
    let h = ((img.height() as f64 / factor).round() as u32).max(1);
    let mut halved: Option<RgbaImage> = None;
    loop {
        let src = halved.as_ref().unwrap_or(img);
        if src.width() / 2 < w || src.height() / 2 < h {
            break;
        }
        let next = halve(src);
        halved = Some(next);
    }
    area_average(halved.as_ref().unwrap_or(img), w, h)
}

/// Each 2×2 block's mean (an odd last row or column is dropped).
fn halve(src: &RgbaImage) -> RgbaImage {
    let (sw, w, h) = (src.width() as usize, src.width() / 2, src.height() / 2);
    let raw = src.as_raw();
    let mut out = vec![0u8; w as usize * h as usize * 4];
    for (y, row) in out.chunks_exact_mut(w as usize * 4).enumerate() {
        let top = &raw[2 * y * sw * 4..];
        let bottom = &raw[(2 * y + 1) * sw * 4..];
        for (x, px) in row.chunks_exact_mut(4).enumerate() {
            for (c, v) in px.iter_mut().enumerate() {
                let i = 8 * x + c;
                let sum =
                    top[i] as u16 + top[i + 4] as u16 + bottom[i] as u16 + bottom[i + 4] as u16;
                *v = ((sum + 2) >> 2) as u8;
            }
        }
    }
    RgbaImage::from_raw(w, h, out).expect("the buffer has w*h*4 bytes")
}

/// For each of `to` output positions over `from` source ones: the first source index and the
/// weights (fixed point, summing to 1 << 14) of the source positions it covers.
fn coverage(from: u32, to: u32) -> Vec<(usize, Vec<u32>)> {
    let f = from as f64 / to as f64;
    (0..to)
        .map(|o| {
            let (a, b) = (o as f64 * f, (o + 1) as f64 * f);
            let first = a.floor() as usize;
            let last = (b.ceil() as usize).min(from as usize).max(first + 1);
            let mut w: Vec<u32> = (first..last)
                .map(|i| {
                    let part = ((i + 1) as f64).min(b) - (i as f64).max(a);
                    (part / f * 16384.0).round() as u32
                })
                .collect();
            let sum: u32 = w.iter().sum();
            if let Some(l) = w.last_mut() {
                *l = (*l + 16384).saturating_sub(sum);
            }
            (first, w)
        })
        .collect()
}

/// Area-average resampling to `w`×`h`: rows first, then columns.
fn area_average(src: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    let (sw, sh) = (src.width() as usize, src.height() as usize);
    let (cols, rows) = (coverage(src.width(), w), coverage(src.height(), h));
    let raw = src.as_raw();
    // Vertical pass: `h` rows of `sw` pixels, in 8.8 fixed point.
    let mut mid = vec![0u32; h as usize * sw * 4];
    for (oy, (first, weights)) in rows.iter().enumerate() {
        let out = &mut mid[oy * sw * 4..(oy + 1) * sw * 4];
        for (k, &wk) in weights.iter().enumerate() {
            let line = &raw[(first + k).min(sh - 1) * sw * 4..][..sw * 4];
            for (acc, &v) in out.iter_mut().zip(line) {
                *acc += v as u32 * wk;
            }
        }
        out.iter_mut().for_each(|v| *v >>= 6);
    }
    let mut out = vec![0u8; w as usize * h as usize * 4];
    for (row, line) in out
        .chunks_exact_mut(w as usize * 4)
        .zip(mid.chunks_exact(sw * 4))
    {
        for (px, (first, weights)) in row.chunks_exact_mut(4).zip(&cols) {
            for (c, v) in px.iter_mut().enumerate() {
                let acc: u64 = weights
                    .iter()
                    .enumerate()
                    .map(|(k, &wk)| line[((first + k).min(sw - 1)) * 4 + c] as u64 * wk as u64)
                    .sum();
                *v = ((acc + (1 << 21)) >> 22).min(255) as u8;
            }
        }
    }
    RgbaImage::from_raw(w, h, out).expect("the buffer has w*h*4 bytes")
}

/// PNG through `image`; JPEG through `jpeg-encoder` with 4:2:0 chroma and optimized Huffman tables
/// (measured in BENCHMARKS.md: a quarter of `image`'s encoder time, a fifth fewer bytes).
pub fn encode(img: &RgbaImage, encoding: Encoding) -> Result<Vec<u8>, ImageError> {
    match encoding {
        Encoding::Png => {
            let mut out = Cursor::new(Vec::new());
            img.write_to(&mut out, ImageFormat::Png)
                .map_err(|e| ImageError::Encode(e.to_string()))?;
            Ok(out.into_inner())
        }
        Encoding::Jpeg(quality) => {
            let (w, h) = (
                u16::try_from(img.width()).map_err(|_| too_large(img))?,
                u16::try_from(img.height()).map_err(|_| too_large(img))?,
            );
            let mut out = Vec::new();
            let mut enc = jpeg_encoder::Encoder::new(&mut out, quality.clamp(1, 100));
            enc.set_sampling_factor(jpeg_encoder::SamplingFactor::F_2_2);
            enc.set_optimized_huffman_tables(true);
            enc.encode(img.as_raw(), w, h, jpeg_encoder::ColorType::Rgba)
                .map_err(|e| ImageError::Encode(e.to_string()))?;
            Ok(out)
        }
    }
}

fn too_large(img: &RgbaImage) -> ImageError {
    ImageError::Encode(format!(
        "{}x{} is beyond JPEG's 65535 px",
        img.width(),
        img.height()
    ))
}

/// Packs an already scaled image.
pub fn finish(img: &RgbaImage, encoding: Encoding, scale: f64) -> Result<Screenshot, ImageError> {
    Ok(Screenshot {
        bytes: encode(img, encoding)?,
        encoding,
        width: img.width(),
        height: img.height(),
        scale,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_edge_is_capped_and_scale_maps_back() {
        let img = RgbaImage::from_pixel(1080, 2400, image::Rgba([10, 20, 30, 255]));
        let f = downscale_factor(1080, 2400, 1024);
        let small = scale(&img, f);
        assert_eq!(small.height(), 1024);
        assert_eq!(small.width(), 461);
        assert!((small.height() as f64 * f - 2400.0).abs() < 1.0);
        assert_eq!(downscale_factor(500, 300, 1024), 1.0);
        let shot = finish(&small, Encoding::Jpeg(80), f).unwrap();
        assert!(shot.bytes.starts_with(&[0xFF, 0xD8]));
        let shot = finish(&small, Encoding::Png, f).unwrap();
        assert!(decode_png(&shot.bytes).is_ok());
        assert!(decode_png(b"not a png").is_err());
    }

    #[test]
    fn scaling_averages_the_area_each_pixel_covers() {
        let flat = RgbaImage::from_pixel(1080, 2400, image::Rgba([200, 100, 50, 255]));
        let small = scale(&flat, downscale_factor(1080, 2400, 1024));
        assert_eq!((small.width(), small.height()), (461, 1024));
        assert!(small.pixels().all(|p| p.0 == [200, 100, 50, 255]));
        // Left part black, right part white: the columns away from the edge keep their colour,
        // and the picture's mean brightness is kept (an area average loses no light).
        let split = RgbaImage::from_fn(301, 10, |x, _| {
            let v = if x < 120 { 0 } else { 255 };
            image::Rgba([v, v, v, 255])
        });
        let small = scale(&split, 2.6);
        assert_eq!(small.width(), 116);
        assert_eq!(small.get_pixel(10, 1).0[0], 0);
        assert_eq!(small.get_pixel(110, 1).0[0], 255);
        let mean = |img: &RgbaImage| {
            img.pixels().map(|p| p.0[0] as f64).sum::<f64>() / (img.width() * img.height()) as f64
        };
        assert!(
            (mean(&small) - mean(&split)).abs() < 2.0,
            "{} vs {}",
            mean(&small),
            mean(&split)
        );
    }

    fn frame(header: &[u32], pixels: &[u8]) -> Vec<u8> {
        let mut out: Vec<u8> = header.iter().flat_map(|w| w.to_le_bytes()).collect();
        out.extend_from_slice(pixels);
        out
    }

    #[test]
    fn raw_frames_are_read_in_the_formats_phones_write_and_refused_otherwise() {
        let px = [1, 2, 3, 4, 5, 6, 7, 8];
        // Android 8+ (four header words) and older (three), RGBA_8888.
        for header in [&[2, 1, 1, 1][..], &[2, 1, 1][..]] {
            let img = raw_frame(frame(header, &px)).unwrap();
            assert_eq!((img.width(), img.height()), (2, 1));
            assert_eq!(img.as_raw(), &px);
        }
        // RGBX_8888: the fourth byte is padding, so the pixel is opaque.
        let img = raw_frame(frame(&[2, 1, 2, 1], &px)).unwrap();
        assert_eq!(img.as_raw(), &[1, 2, 3, 255, 5, 6, 7, 255]);
        // BGRA_8888: red and blue swap.
        let img = raw_frame(frame(&[2, 1, 5, 1], &px)).unwrap();
        assert_eq!(img.as_raw(), &[3, 2, 1, 4, 7, 6, 5, 8]);
        // RGB_565 (4), a short frame, a PNG and garbage are not raw frames we read.
        assert!(raw_frame(frame(&[2, 1, 4, 1], &px)).is_none());
        assert!(raw_frame(frame(&[2, 1, 1, 1], &px[..7])).is_none());
        assert!(raw_frame(b"\x89PNG\r\n\x1a\n".to_vec()).is_none());
        assert!(raw_frame(frame(&[u32::MAX, u32::MAX, 1, 1], &px)).is_none());
    }
}

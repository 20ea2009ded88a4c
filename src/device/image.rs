//! Screenshots made fit for a model: read from `screencap`'s raw frame or decoded from `screencap -p`, scaled so the long edge stays within
//! a limit, and encoded as PNG or JPEG, with the scale factor that maps image pixels back to the screen.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, RgbaImage};

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
/// (so the caller asks for a PNG instead).
pub fn raw_frame(bytes: &[u8]) -> Option<RgbaImage> {
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
    let mut pixels = bytes[header..header + len].to_vec();
    match format {
        1 => {}
        2 => pixels.chunks_exact_mut(4).for_each(|p| p[3] = 255),
        5 => pixels.chunks_exact_mut(4).for_each(|p| p.swap(0, 2)),
        _ => return None,
    }
    RgbaImage::from_raw(width, height, pixels)
}

/// The factor (≥1) that brings the long edge of a `width`×`height` image within `max_edge`.
pub fn downscale_factor(width: u32, height: u32, max_edge: u32) -> f64 {
    let long = width.max(height).max(1) as f64;
    let max_edge = max_edge.max(16) as f64;
    (long / max_edge).max(1.0)
}

/// Scales `img` down by `factor` (≥1).
pub fn scale(img: &RgbaImage, factor: f64) -> RgbaImage {
    if factor <= 1.0 {
        return img.clone();
    }
    let w = ((img.width() as f64 / factor).round() as u32).max(1);
    let h = ((img.height() as f64 / factor).round() as u32).max(1);
    image::imageops::resize(img, w, h, image::imageops::FilterType::Triangle)
}

pub fn encode(img: &RgbaImage, encoding: Encoding) -> Result<Vec<u8>, ImageError> {
    let mut out = Cursor::new(Vec::new());
    match encoding {
        Encoding::Png => img
            .write_to(&mut out, ImageFormat::Png)
            .map_err(|e| ImageError::Encode(e.to_string()))?,
        Encoding::Jpeg(quality) => {
            let rgb = DynamicImage::ImageRgba8(img.clone()).to_rgb8();
            let mut enc =
                image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality.clamp(1, 100));
            enc.encode_image(&rgb)
                .map_err(|e| ImageError::Encode(e.to_string()))?;
        }
    }
    Ok(out.into_inner())
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
            let img = raw_frame(&frame(header, &px)).unwrap();
            assert_eq!((img.width(), img.height()), (2, 1));
            assert_eq!(img.as_raw(), &px);
        }
        // RGBX_8888: the fourth byte is padding, so the pixel is opaque.
        let img = raw_frame(&frame(&[2, 1, 2, 1], &px)).unwrap();
        assert_eq!(img.as_raw(), &[1, 2, 3, 255, 5, 6, 7, 255]);
        // BGRA_8888: red and blue swap.
        let img = raw_frame(&frame(&[2, 1, 5, 1], &px)).unwrap();
        assert_eq!(img.as_raw(), &[3, 2, 1, 4, 7, 6, 5, 8]);
        // RGB_565 (4), a short frame, a PNG and garbage are not raw frames we read.
        assert!(raw_frame(&frame(&[2, 1, 4, 1], &px)).is_none());
        assert!(raw_frame(&frame(&[2, 1, 1, 1], &px[..7])).is_none());
        assert!(raw_frame(b"\x89PNG\r\n\x1a\n").is_none());
        assert!(raw_frame(&frame(&[u32::MAX, u32::MAX, 1, 1], &px)).is_none());
    }
}

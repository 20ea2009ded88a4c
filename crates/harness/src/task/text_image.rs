//! Pictures of text for setup (`push_image`): AndroidWorld writes receipts and lists as images
//! (PIL's `ImageDraw.text`, black on white, 10 px margins) for the agent to read in a gallery;
//! the same here, drawn with the phone's Roboto and encoded by the path's extension, so any phone
//! (the embedded one or a real device over adb) gets a real JPEG or PNG.

use std::io::Cursor;

use droidmcp_geom::Bounds;
use droidmcp_sim::render::text::{self, TextStyle};
use droidmcp_sim::render::Canvas;

/// AndroidWorld's `_draw_text` default font size, in px.
const FONT_PX: f32 = 24.0;
/// PIL's margins around the text.
const MARGIN: i32 = 10;
/// Receipts are 500 px wide; a narrower text block keeps that width so short lines stay legible.
const MIN_WIDTH: i32 = 500;
/// AndroidWorld wraps each value of a text block at 60 characters (`textwrap.wrap`).
const WRAP_CHARS: usize = 60;

/// A line broken at spaces into pieces of at most [`WRAP_CHARS`] characters (a longer word stays
/// whole), the first keeping the line's indentation.
fn wrap(line: &str) -> Vec<String> {
    if line.chars().count() <= WRAP_CHARS {
        return vec![line.to_string()];
    }
    let indent: String = line.chars().take_while(|c| *c == ' ').collect();
    let mut out = Vec::new();
    let mut current = indent;
    for word in line.split_whitespace() {
        let len = current.chars().count();
        if len > 0 && !current.trim().is_empty() && len + 1 + word.chars().count() > WRAP_CHARS {
            out.push(std::mem::take(&mut current));
        }
        if !current.trim().is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    out.push(current);
    out
}

/// The text drawn line by line (an empty line is half a line's gap, as `_draw_text` spaces
/// paragraphs), as the encoded bytes for `path`'s extension (`.png`, else JPEG).
pub fn encode(path: &str, body: &str) -> Result<Vec<u8>, String> {
    let style = TextStyle {
        size_px: FONT_PX,
        color: [0, 0, 0, 255],
        bold: false,
        center: false,
        rtl: false,
    };
    let lh = text::line_height(FONT_PX).ceil() as i32;
    let wrapped: Vec<String> = body.lines().flat_map(wrap).collect();
    let lines: Vec<&str> = wrapped.iter().map(String::as_str).collect();
    let width = lines
        .iter()
        .map(|l| text::measure(l, &style).ceil() as i32)
        .max()
        .unwrap_or(0)
        .max(MIN_WIDTH - 2 * MARGIN)
        + 2 * MARGIN;
    let height: i32 = lines
        .iter()
        .map(|l| if l.trim().is_empty() { lh / 2 } else { lh })
        .sum::<i32>()
        + 2 * MARGIN;
    let mut canvas = Canvas::new(width as u32, height.max(1) as u32, [255, 255, 255, 255]);
    let mut y = MARGIN;
    for line in lines {
        if line.trim().is_empty() {
            y += lh / 2;
            continue;
        }
        text::draw_text(
            &mut canvas,
            line,
            Bounds::new(MARGIN, y, width, y + lh),
            &style,
        );
        y += lh;
    }
    let image = image::DynamicImage::ImageRgba8(canvas.into_image()).to_rgb8();
    let format = if path.to_lowercase().ends_with(".png") {
        image::ImageFormat::Png
    } else {
        image::ImageFormat::Jpeg
    };
    let mut out = Cursor::new(Vec::new());
    image
        .write_to(&mut out, format)
        .map_err(|e| format!("push_image {path}: {e}"))?;
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_at_sixty_characters_between_words() {
        let line = format!(" directions: {}", "stir the pot well ".repeat(8));
        let pieces = wrap(&line);
        assert!(pieces.len() > 1);
        assert!(pieces.iter().all(|p| p.chars().count() <= WRAP_CHARS));
        assert_eq!(
            pieces.join(" ").split_whitespace().collect::<Vec<_>>(),
            line.split_whitespace().collect::<Vec<_>>()
        );
        assert_eq!(wrap("short"), vec!["short".to_string()]);
    }

    #[test]
    fn text_becomes_an_image_of_the_path_format_with_ink_on_it() {
        let jpeg = encode(
            "/sdcard/DCIM/receipt.jpg",
            "Tech Gadgets Inc.\n\n2023-03-02, Webcam, $25.10",
        )
        .unwrap();
        assert_eq!(
            image::guess_format(&jpeg).unwrap(),
            image::ImageFormat::Jpeg
        );
        let png = encode("/sdcard/DCIM/receipt.png", "one line").unwrap();
        let img = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(img.width(), 500);
        assert!(img.pixels().any(|p| p.0[0] < 80), "some text is drawn");
        assert_eq!(img.get_pixel(img.width() - 1, 0).0, [255, 255, 255]);
    }
}

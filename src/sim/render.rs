//! Rendering the embedded phone's windows to pixels for `screencap`.

use image::{Rgba, RgbaImage};

use super::view::View;

/// Colours that depend on the system theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub dark: bool,
}

/// Paints the windows bottom to top onto a `width`×`height` canvas.
pub fn render(windows: &[View], width: u32, height: u32, theme: Theme) -> RgbaImage {
    let background = if theme.dark {
        Rgba([18, 18, 18, 255])
    } else {
        Rgba([255, 255, 255, 255])
    };
    let mut canvas = RgbaImage::from_pixel(width, height, background);
    for window in windows {
        paint(&mut canvas, window);
    }
    canvas
}

fn paint(canvas: &mut RgbaImage, view: &View) {
    if let Some(rgba) = view.style.background {
        let b = view.bounds;
        for y in b.top.max(0)..b.bottom.min(canvas.height() as i32) {
            for x in b.left.max(0)..b.right.min(canvas.width() as i32) {
                canvas.put_pixel(x as u32, y as u32, Rgba(rgba));
            }
        }
    }
    for child in &view.children {
        paint(canvas, child);
    }
}

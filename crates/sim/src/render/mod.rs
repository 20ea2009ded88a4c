//! Rendering the embedded phone's windows to pixels for `screencap`.
//!
//! Brief overview: [`render`] walks each window's [`View`] tree bottom to top onto a [`canvas::Canvas`]
//! (an RGBA image plus a clip rectangle). Every view paints its background (`Style::background` or a
//! theme [`Role`]), then what its Android class draws by default (`widgets`: switch tracks, check
//! boxes, seek bars, edit-text underlines, icons from `icons`), then its text (`text`: Roboto with a
//! CJK/Hangul fallback, wrapped and ellipsised inside its bounds), then its children clipped to its
//! bounds. Colours come from a [`Palette`] chosen by the light or dark [`Theme`]; sizes in dp/sp
//! come from [`Scale`].

mod canvas;
pub mod drawing;
mod icons;
pub mod shaping;
pub mod text;
mod wallpaper;
mod widgets;

use image::RgbaImage;

use super::view::{Role, View};
use canvas::Rgba;
pub use canvas::{sdf, Canvas};
pub use drawing::{Drawing, Shape};

pub use icons::known as icon_known;
pub use wallpaper::{image as wallpaper_image, Wallpaper};

/// Colours that depend on the system theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    pub dark: bool,
}

/// Density and font scale, so dp and sp sizes in the renderer match the app's layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    /// Pixels per dp (density / 160).
    pub density: f32,
    /// The user's font scale.
    pub font_scale: f32,
}

impl Scale {
    /// The Pixel 6 (420 dpi, font scale 1), the phone's default profile.
    pub const DEFAULT: Scale = Scale {
        density: 420.0 / 160.0,
        font_scale: 1.0,
    };

    pub fn dp(&self, dp: f32) -> i32 {
        (dp * self.density).round() as i32
    }

    pub fn sp(&self, sp: f32) -> f32 {
        sp * self.density * self.font_scale
    }
}

/// The colours of one theme, close to Android 13's Material You defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    pub surface: Rgba,
    pub surface_variant: Rgba,
    pub text: Rgba,
    pub text_secondary: Rgba,
    pub accent: Rgba,
    pub on_accent: Rgba,
    pub outline: Rgba,
    pub keyboard: Rgba,
    pub key: Rgba,
    pub danger: Rgba,
}

impl Palette {
    pub const LIGHT: Palette = Palette {
        surface: [0xFE, 0xF7, 0xFF, 0xFF],
        surface_variant: [0xEC, 0xE6, 0xF0, 0xFF],
        text: [0x1D, 0x1B, 0x20, 0xFF],
        text_secondary: [0x49, 0x45, 0x4F, 0xFF],
        accent: [0x0B, 0x57, 0xD0, 0xFF],
        on_accent: [0xFF, 0xFF, 0xFF, 0xFF],
        outline: [0x79, 0x74, 0x7E, 0xFF],
        keyboard: [0xE8, 0xEA, 0xED, 0xFF],
        key: [0xFF, 0xFF, 0xFF, 0xFF],
        danger: [0xD9, 0x30, 0x25, 0xFF],
    };

    pub const DARK: Palette = Palette {
        surface: [0x14, 0x12, 0x18, 0xFF],
        surface_variant: [0x2B, 0x29, 0x30, 0xFF],
        text: [0xE6, 0xE1, 0xE5, 0xFF],
        text_secondary: [0xCA, 0xC4, 0xD0, 0xFF],
        accent: [0xA8, 0xC7, 0xFA, 0xFF],
        on_accent: [0x06, 0x2E, 0x6F, 0xFF],
        outline: [0x93, 0x8F, 0x99, 0xFF],
        keyboard: [0x20, 0x21, 0x24, 0xFF],
        key: [0x3C, 0x40, 0x43, 0xFF],
        danger: [0xF2, 0x8B, 0x82, 0xFF],
    };

    pub fn for_theme(theme: Theme) -> Palette {
        if theme.dark {
            Palette::DARK
        } else {
            Palette::LIGHT
        }
    }

    pub fn role(&self, role: Role) -> Rgba {
        match role {
            Role::Primary => self.text,
            Role::Secondary => self.text_secondary,
            Role::Accent => self.accent,
            Role::OnAccent => self.on_accent,
            Role::Surface => self.surface,
            Role::SurfaceVariant => self.surface_variant,
            Role::Keyboard => self.keyboard,
            Role::Key => self.key,
            Role::Danger => self.danger,
        }
    }
}

/// Paints the windows bottom to top onto a `width`×`height` canvas at the default [`Scale`].
pub fn render(windows: &[View], width: u32, height: u32, theme: Theme) -> RgbaImage {
    render_scaled(windows, width, height, theme, Scale::DEFAULT)
}

/// Paints the windows bottom to top onto a `width`×`height` canvas, sizing text and widgets for
/// the phone's density and font scale.
pub fn render_scaled(
    windows: &[View],
    width: u32,
    height: u32,
    theme: Theme,
    scale: Scale,
) -> RgbaImage {
    let palette = Palette::for_theme(theme);
    let mut canvas = Canvas::new(width, height, palette.surface);
    let ctx = widgets::Ctx {
        palette,
        scale,
        dark: theme.dark,
    };
    for window in windows {
        let screen = canvas.screen();
        paint(&mut canvas, &ctx, window, screen);
    }
    canvas.into_image()
}

/// Paints one view and its subtree, clipped to `clip` ∩ the view's bounds (Android's clipChildren).
fn paint(canvas: &mut Canvas, ctx: &widgets::Ctx, view: &View, clip: droidmcp_geom::Bounds) {
    let clip = clip.intersect(&view.bounds);
    if clip.is_empty() {
        return;
    }
    canvas.set_clip(clip);
    widgets::paint_view(canvas, ctx, view);
    for child in &view.children {
        paint(canvas, ctx, child, clip);
    }
}

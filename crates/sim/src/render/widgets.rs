//! What each Android widget class draws by default: backgrounds, text placement, switch tracks
//! and thumbs, check boxes, radio buttons, seek bars, edit-text underlines and hints, icons, and the
//! launcher's icon-over-label layout.

use super::canvas::{sdf, Canvas, Rgba};
use super::icons::draw_icon;
use super::text::{self, TextStyle};
use super::{Palette, Scale};
use crate::view::{class, Role, View};
use droidmcp_geom::Bounds;

/// What every paint call needs: the theme's colours and the density.
pub struct Ctx {
    pub palette: Palette,
    pub scale: Scale,
    /// The dark theme dims wallpapers.
    pub dark: bool,
}

/// A colour at a fraction of its opacity (disabled widgets, tracks).
fn faded(c: Rgba, alpha: f32) -> Rgba {
    [c[0], c[1], c[2], (c[3] as f32 * alpha).round() as u8]
}

/// Dark text on a light background, light text on a dark one (Rec. 601 luma).
fn contrast_on(bg: Rgba) -> Rgba {
    let luma = 0.299 * bg[0] as f32 + 0.587 * bg[1] as f32 + 0.114 * bg[2] as f32;
    if luma > 140.0 {
        Palette::LIGHT.text
    } else {
        Palette::DARK.text
    }
}

impl Ctx {
    /// The text colour: explicit, else by role, else readable on the view's own fixed background
    /// (so an app's hard-coded light key stays legible in the dark theme), else `default`.
    fn text_color(&self, view: &View, default: Role) -> Rgba {
        let fixed_bg = view.style.background.filter(|bg| bg[3] > 0);
        let c = view
            .style
            .text_color
            .unwrap_or_else(|| match (view.style.text_role, fixed_bg) {
                (Some(role), _) => self.palette.role(role),
                (None, Some(bg)) if default == Role::Primary => contrast_on(bg),
                (None, _) => self.palette.role(default),
            });
        if view.flags.enabled {
            c
        } else {
            faded(c, 0.38)
        }
    }

    fn text_style(&self, view: &View, color: Rgba, center: bool) -> TextStyle {
        TextStyle {
            size_px: self.scale.sp(view.style.text_size_sp.unwrap_or(14.0)),
            color,
            bold: view.style.bold,
            center: center || view.style.center_text,
            rtl: view.style.rtl,
        }
    }

    fn background(&self, view: &View) -> Option<Rgba> {
        view.style
            .background
            .or_else(|| view.style.background_role.map(|r| self.palette.role(r)))
    }
}

/// Paints `view` itself (not its children).
pub fn paint_view(canvas: &mut Canvas, ctx: &Ctx, view: &View) {
    let b = view.bounds;
    if let Some(w) = view.style.wallpaper {
        super::wallpaper::paint(canvas, w, b, ctx.dark);
    }
    if let Some(bg) = ctx.background(view) {
        canvas.fill_round_rect(b, view.style.corner_radius, bg);
    }
    if let Some((w, color)) = view.style.border {
        for edge in [
            Bounds::new(b.left, b.top, b.right, b.top + w),
            Bounds::new(b.left, b.bottom - w, b.right, b.bottom),
            Bounds::new(b.left, b.top, b.left + w, b.bottom),
            Bounds::new(b.right - w, b.top, b.right, b.bottom),
        ] {
            canvas.fill_rect(edge, color);
        }
    }
    if let Some(drawing) = &view.style.drawing {
        super::drawing::paint(canvas, drawing);
    }
    if let Some(picture) = &view.style.picture {
        canvas.draw_image(
            &picture.0,
            fit_center(picture.0.width(), picture.0.height(), b),
        );
        return;
    }
    match view.class {
        class::BUTTON => paint_button(canvas, ctx, view),
        class::SWITCH | class::TOGGLE_BUTTON => paint_switch(canvas, ctx, view),
        class::CHECK_BOX => paint_check(canvas, ctx, view, false),
        class::RADIO_BUTTON => paint_check(canvas, ctx, view, true),
        class::SEEK_BAR => paint_seek_bar(canvas, ctx, view),
        class::EDIT_TEXT => paint_edit_text(canvas, ctx, view),
        class::IMAGE_VIEW | class::IMAGE_BUTTON => paint_image(canvas, ctx, view),
        _ => paint_text_view(canvas, ctx, view),
    }
}

/// Where an image of `w`×`h` px sits in `b` scaled to fit, centred (ImageView's `fitCenter`).
fn fit_center(w: u32, h: u32, b: Bounds) -> Bounds {
    if w == 0 || h == 0 {
        return b;
    }
    let scale = (b.width() as f32 / w as f32).min(b.height() as f32 / h as f32);
    let (dw, dh) = (
        (w as f32 * scale).round() as i32,
        (h as f32 * scale).round() as i32,
    );
    let (left, top) = (b.left + (b.width() - dw) / 2, b.top + (b.height() - dh) / 2);
    Bounds::new(left, top, left + dw, top + dh)
}

/// A TextView (and any other class with text): the text fills the bounds; with an icon, the icon
/// sits above a centred label, as the launcher's BubbleTextView draws app icons.
fn paint_text_view(canvas: &mut Canvas, ctx: &Ctx, view: &View) {
    let b = view.bounds;
    let bubble = view.class == class::TEXT_VIEW && !view.text.is_empty();
    if let Some(icon) = view
        .style
        .icon
        .filter(|i| !bubble && super::icons::known(i))
    {
        // Any other view with a known icon (IME keys, toolbar actions) shows the icon instead of
        // its text, centred.
        let size = ctx.scale.dp(24.0).min(b.width()).min(b.height());
        let c = b.center();
        let area = Bounds::new(
            c.x - size / 2,
            c.y - size / 2,
            c.x - size / 2 + size,
            c.y - size / 2 + size,
        );
        draw_icon(canvas, icon, area, ctx.text_color(view, Role::Primary));
        return;
    }
    if let Some(icon) = view.style.icon.filter(|_| bubble) {
        let lh = if view.text.is_empty() {
            0
        } else {
            text::line_height(ctx.scale.sp(view.style.text_size_sp.unwrap_or(12.0))).ceil() as i32
        };
        let gap = ctx.scale.dp(6.0);
        let size = view
            .style
            .icon_px
            .unwrap_or_else(|| ctx.scale.dp(56.0))
            .min(b.width() * 3 / 5)
            .min(b.height() - lh - gap * 2)
            .max(0);
        let icon_top = b.top + (b.height() - size - lh - gap).max(0) / 2;
        let left = b.left + (b.width() - size) / 2;
        let area = Bounds::new(left, icon_top, left + size, icon_top + size);
        app_icon(canvas, ctx, icon, &view.content_desc, area);
        if !view.text.is_empty() {
            let mut style = ctx.text_style(view, ctx.text_color(view, Role::Primary), true);
            style.size_px = ctx.scale.sp(view.style.text_size_sp.unwrap_or(12.0));
            let top = area.bottom + gap;
            text::draw_text(
                canvas,
                &view.text,
                Bounds::new(b.left, top, b.right, top + lh),
                &style,
            );
        }
        return;
    }
    if !view.text.is_empty() {
        let style = ctx.text_style(view, ctx.text_color(view, Role::Primary), false);
        text::draw_text(canvas, &view.text, b, &style);
    }
}

/// A launcher-style icon: the glyph in a tinted disc (or the label's initial for unknown names).
fn app_icon(canvas: &mut Canvas, ctx: &Ctx, icon: &str, label: &str, area: Bounds) {
    let tint = app_tint(icon);
    let r = area.width() as f32 / 2.0;
    let c = (area.left as f32 + r, area.top as f32 + r);
    canvas.fill_sdf(area, tint, |x, y| sdf::circle(x, y, c.0, c.1, r));
    let inset = area.width() / 4;
    let inner = Bounds::new(
        area.left + inset,
        area.top + inset,
        area.right - inset,
        area.bottom - inset,
    );
    if !draw_icon(canvas, icon, inner, [0xFF, 0xFF, 0xFF, 0xFF]) {
        initial(canvas, ctx, label, inner, [0xFF, 0xFF, 0xFF, 0xFF]);
    }
}

/// A stable colour per icon name, so each app keeps its colour across frames.
fn app_tint(icon: &str) -> Rgba {
    const TINTS: [Rgba; 6] = [
        [0x1A, 0x73, 0xE8, 0xFF],
        [0x18, 0x80, 0x38, 0xFF],
        [0xE3, 0x74, 0x00, 0xFF],
        [0x93, 0x34, 0xE6, 0xFF],
        [0xD9, 0x30, 0x25, 0xFF],
        [0x5F, 0x63, 0x68, 0xFF],
    ];
    let h = icon
        .bytes()
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(b as u32));
    TINTS[(h % TINTS.len() as u32) as usize]
}

/// The first letter of `label` centred in `area` (the fallback for icons the renderer lacks).
fn initial(canvas: &mut Canvas, ctx: &Ctx, label: &str, area: Bounds, color: Rgba) {
    let Some(c) = label.chars().find(|c| c.is_alphanumeric()) else {
        return;
    };
    let letter: String = c.to_uppercase().collect();
    let style = TextStyle {
        size_px: area.height() as f32 * 0.8,
        color,
        bold: true,
        center: true,
        rtl: false,
    };
    let _ = ctx;
    text::draw_text(canvas, &letter, area, &style);
}

/// A Material button: an accent pill unless the app set its own background, centred label.
fn paint_button(canvas: &mut Canvas, ctx: &Ctx, view: &View) {
    let b = view.bounds;
    let default_text = if ctx.background(view).is_none() {
        let fill = if view.flags.enabled {
            ctx.palette.accent
        } else {
            faded(ctx.palette.text, 0.12)
        };
        canvas.fill_round_rect(b, b.height() / 2, fill);
        Role::OnAccent
    } else {
        Role::Primary
    };
    let pad = ctx.scale.dp(12.0).min(b.width() / 8);
    let inner = Bounds::new(b.left + pad, b.top, b.right - pad, b.bottom);
    if let Some(icon) = view.style.icon {
        let size = ctx.scale.dp(24.0).min(b.height()).min(b.width());
        let c = b.center();
        let area = Bounds::new(
            c.x - size / 2,
            c.y - size / 2,
            c.x + size / 2,
            c.y + size / 2,
        );
        if view.text.is_empty() {
            draw_icon(canvas, icon, area, ctx.text_color(view, default_text));
            return;
        }
    }
    let mut style = ctx.text_style(view, ctx.text_color(view, default_text), true);
    style.bold = true;
    text::draw_text(canvas, &view.text, inner, &style);
}

/// A Material 3 switch at the right end of its bounds, with its text (if any) to the left.
fn paint_switch(canvas: &mut Canvas, ctx: &Ctx, view: &View) {
    let b = view.bounds;
    let p = &ctx.palette;
    let track_w = ctx.scale.dp(52.0).min(b.width());
    let track_h = ctx.scale.dp(32.0).min(b.height()).min(track_w);
    let cy = b.top + b.height() / 2;
    let track = Bounds::new(
        b.right - track_w,
        cy - track_h / 2,
        b.right,
        cy - track_h / 2 + track_h,
    );
    let on = view.flags.checked;
    let alpha = if view.flags.enabled { 1.0 } else { 0.38 };
    let r = track_h / 2;
    if on {
        canvas.fill_round_rect(track, r, faded(p.accent, alpha));
    } else {
        let outline = ctx.scale.dp(2.0).max(1);
        canvas.fill_round_rect(track, r, faded(p.outline, alpha));
        let inner = Bounds::new(
            track.left + outline,
            track.top + outline,
            track.right - outline,
            track.bottom - outline,
        );
        canvas.fill_round_rect(inner, r - outline, p.surface_variant);
    }
    let (thumb_r, thumb_color, thumb_x) = if on {
        (
            track_h as f32 * 0.375,
            faded(p.on_accent, alpha),
            (track.right - r) as f32,
        )
    } else {
        (
            track_h as f32 * 0.25,
            faded(p.outline, alpha),
            (track.left + r) as f32,
        )
    };
    let cyf = track.top as f32 + track_h as f32 / 2.0;
    canvas.fill_sdf(track, thumb_color, |x, y| {
        sdf::circle(x, y, thumb_x, cyf, thumb_r)
    });
    if !view.text.is_empty() {
        let area = Bounds::new(b.left, b.top, track.left - ctx.scale.dp(16.0), b.bottom);
        let style = ctx.text_style(view, ctx.text_color(view, Role::Primary), false);
        text::draw_text(canvas, &view.text, area, &style);
    }
}

/// A check box (square with a tick) or radio button (ring with a dot) and its text to the right.
fn paint_check(canvas: &mut Canvas, ctx: &Ctx, view: &View, radio: bool) {
    let b = view.bounds;
    let p = &ctx.palette;
    let size = ctx.scale.dp(18.0).min(b.height()).min(b.width());
    let left = b.left + ctx.scale.dp(3.0).min((b.width() - size) / 2).max(0);
    let top = b.top + (b.height() - size) / 2;
    let area = Bounds::new(left, top, left + size, top + size);
    let on = view.flags.checked;
    let color = faded(
        if on { p.accent } else { p.outline },
        if view.flags.enabled { 1.0 } else { 0.38 },
    );
    let s = size as f32;
    let (l, t) = (left as f32, top as f32);
    let stroke = (s / 9.0).max(1.0);
    if radio {
        let c = (l + s / 2.0, t + s / 2.0);
        canvas.fill_sdf(area, color, |x, y| {
            sdf::circle(x, y, c.0, c.1, s / 2.0 - stroke / 2.0).abs() - stroke / 2.0
        });
        if on {
            canvas.fill_sdf(area, color, |x, y| sdf::circle(x, y, c.0, c.1, s / 4.0));
        }
    } else if on {
        canvas.fill_round_rect(area, (s / 9.0) as i32, color);
        let a = (l + s * 0.2, t + s * 0.52);
        let m = (l + s * 0.42, t + s * 0.72);
        let e = (l + s * 0.8, t + s * 0.3);
        canvas.fill_sdf(area, p.on_accent, |x, y| {
            sdf::segment(x, y, a, m, stroke / 1.5).min(sdf::segment(x, y, m, e, stroke / 1.5))
        });
    } else {
        let (r_, bt) = (l + s, t + s);
        canvas.fill_sdf(area, color, |x, y| {
            sdf::round_box(
                x,
                y,
                l + stroke / 2.0,
                t + stroke / 2.0,
                r_ - stroke / 2.0,
                bt - stroke / 2.0,
                s / 9.0,
            )
            .abs()
                - stroke / 2.0
        });
    }
    if !view.text.is_empty() {
        let text_left = area.right + ctx.scale.dp(12.0);
        let style = ctx.text_style(view, ctx.text_color(view, Role::Primary), false);
        text::draw_text(
            canvas,
            &view.text,
            Bounds::new(text_left, b.top, b.right, b.bottom),
            &style,
        );
    }
}

/// A seek bar: the track across the bounds, the part up to the value in the accent, and the thumb.
fn paint_seek_bar(canvas: &mut Canvas, ctx: &Ctx, view: &View) {
    let b = view.bounds;
    let p = &ctx.palette;
    let (value, max) = view.range.unwrap_or((0, 100));
    let frac = if max > 0 {
        (value as f32 / max as f32).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let pad = ctx
        .scale
        .dp(crate::view::SEEK_BAR_PAD_DP)
        .min(b.width() / 4);
    // A right-to-left bar (mirrorForRtl) fills from its right end.
    let (x0, x1) = if view.style.rtl {
        ((b.right - pad) as f32, (b.left + pad) as f32)
    } else {
        ((b.left + pad) as f32, (b.right - pad) as f32)
    };
    let cy = b.top as f32 + b.height() as f32 / 2.0;
    let half = (ctx.scale.dp(4.0) as f32 / 2.0).max(1.0);
    let xv = x0 + (x1 - x0) * frac;
    let alpha = if view.flags.enabled { 1.0 } else { 0.38 };
    canvas.fill_sdf(b, faded(p.surface_variant, alpha), |x, y| {
        sdf::segment(x, y, (x0, cy), (x1, cy), half)
    });
    canvas.fill_sdf(b, faded(p.outline, alpha * 0.5), |x, y| {
        sdf::segment(x, y, (x0, cy), (x1, cy), half)
    });
    canvas.fill_sdf(b, faded(p.accent, alpha), |x, y| {
        sdf::segment(x, y, (x0, cy), (xv, cy), half)
    });
    let r = (ctx.scale.dp(10.0) as f32).min(b.height() as f32 / 2.0);
    canvas.fill_sdf(b, faded(p.accent, alpha), |x, y| {
        sdf::circle(x, y, xv, cy, r)
    });
}

/// An edit text: its text (dots for passwords) or the hint in grey, and the underline (accent and
/// thicker while focused) unless the app drew its own background.
fn paint_edit_text(canvas: &mut Canvas, ctx: &Ctx, view: &View) {
    let b = view.bounds;
    let p = &ctx.palette;
    let has_bg = ctx.background(view).is_some();
    if !has_bg {
        let (h, color) = if view.flags.focused {
            (ctx.scale.dp(2.0).max(1), p.accent)
        } else {
            (ctx.scale.dp(1.0).max(1), p.outline)
        };
        let y = b.bottom - ctx.scale.dp(8.0).min(b.height() / 4);
        canvas.fill_rect(Bounds::new(b.left, y - h, b.right, y), color);
    }
    let pad = ctx
        .scale
        .dp(if has_bg { 16.0 } else { 4.0 })
        .min(b.width() / 8);
    let mut area = Bounds::new(b.left + pad, b.top, b.right - pad, b.bottom);
    if let Some(icon) = view.style.icon {
        let size = ctx.scale.dp(24.0).min(b.height());
        let top = b.top + (b.height() - size) / 2;
        let icon_area = Bounds::new(area.left, top, area.left + size, top + size);
        draw_icon(
            canvas,
            icon,
            icon_area,
            ctx.text_color(view, Role::Secondary),
        );
        area.left = icon_area.right + ctx.scale.dp(12.0);
    }
    let (shown, role) = if view.text.is_empty() {
        (view.hint.clone(), Role::Secondary)
    } else if view.flags.password {
        ("•".repeat(view.text.chars().count()), Role::Primary)
    } else {
        (view.text.clone(), Role::Primary)
    };
    let color = if view.text.is_empty() {
        p.text_secondary
    } else {
        ctx.text_color(view, role)
    };
    let style = ctx.text_style(view, color, false);
    let lh = text::line_height(style.size_px) as i32;
    // A field taller than four lines is a multi-line editor (a note's body): its text starts at
    // the top, as such editors set gravity `top`; a one-line field centres it.
    let (x, cy) = if b.height() > 4 * lh {
        let pad = ctx.scale.dp(8.0);
        let top = Bounds::new(area.left, b.top + pad, area.right, b.bottom - pad);
        text::draw_text_from_top(canvas, &shown, top, &style).1
    } else {
        let covered = text::draw_text(canvas, &shown, area, &style);
        (covered.right, area.top + area.height() / 2)
    };
    if view.flags.focused {
        // The caret at the end of the text, where typing goes (at the start when only the hint
        // shows): the phone's fields keep no other cursor position.
        let x = if view.text.is_empty() {
            area.left
        } else {
            x + 1
        };
        canvas.fill_rect(
            Bounds::new(x, cy - lh / 2, x + ctx.scale.dp(2.0).max(1), cy + lh / 2),
            p.accent,
        );
    }
}

/// An ImageView / ImageButton: its named icon, else the content description's initial in a ring.
fn paint_image(canvas: &mut Canvas, ctx: &Ctx, view: &View) {
    let b = view.bounds;
    let min_side = b.width().min(b.height());
    if min_side <= 0 {
        return;
    }
    let size = if min_side <= ctx.scale.dp(32.0) {
        min_side
    } else {
        ctx.scale.dp(24.0).max(min_side / 2).min(min_side)
    };
    let c = b.center();
    let area = Bounds::new(
        c.x - size / 2,
        c.y - size / 2,
        c.x - size / 2 + size,
        c.y - size / 2 + size,
    );
    let default = if ctx.background(view).is_some() {
        Role::OnAccent
    } else {
        Role::Secondary
    };
    let color = ctx.text_color(view, default);
    if let Some(icon) = view.style.icon {
        if draw_icon(canvas, icon, area, color) {
            return;
        }
    }
    let label = if view.content_desc.is_empty() {
        view.style.icon.unwrap_or("")
    } else {
        &view.content_desc
    };
    if label.is_empty() {
        return;
    }
    let r = size as f32 / 2.0;
    let (cx, cy) = (area.left as f32 + r, area.top as f32 + r);
    let stroke = (size as f32 / 14.0).max(1.0);
    canvas.fill_sdf(area, color, |x, y| {
        sdf::circle(x, y, cx, cy, r - stroke / 2.0).abs() - stroke / 2.0
    });
    let inset = size / 4;
    let inner = Bounds::new(
        area.left + inset,
        area.top + inset,
        area.right - inset,
        area.bottom - inset,
    );
    initial(canvas, ctx, label, inner, color);
}

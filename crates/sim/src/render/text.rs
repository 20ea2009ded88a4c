//! Text on the canvas: the bundled fonts (Roboto for Latin, monochrome Noto Emoji for emoji, Noto
//! Sans Arabic and Devanagari, Droid Sans Fallback for CJK and Hangul), lines shaped by `shaping`
//! (bidi order, font runs, rustybuzz), line layout with word wrap and ellipsis at cluster
//! boundaries, and a process-wide cache of rasterised glyphs.
//!
//! The fonts are compiled in (`include_bytes!`) so a fresh machine renders the same pixels with no
//! fonts installed; their licences sit next to them in `crates/sim/assets/fonts/`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, GlyphId, PxScale};

use super::canvas::{Canvas, Rgba};
use droidmcp_geom::Bounds;

static ROBOTO_REGULAR: &[u8] = include_bytes!("../../assets/fonts/Roboto-Regular.ttf");
static ROBOTO_MEDIUM: &[u8] = include_bytes!("../../assets/fonts/Roboto-Medium.ttf");
/// Also served to the live page (`src/web/`) so CJK text reads the same there on any host.
pub static DROID_FALLBACK: &[u8] = include_bytes!("../../assets/fonts/DroidSansFallback.ttf");
static NOTO_EMOJI: &[u8] = include_bytes!("../../assets/fonts/NotoEmoji-Regular.ttf");
static NOTO_ARABIC: &[u8] = include_bytes!("../../assets/fonts/NotoSansArabic-Regular.ttf");
static NOTO_DEVANAGARI: &[u8] = include_bytes!("../../assets/fonts/NotoSansDevanagari-Regular.ttf");

/// Which bundled face a glyph comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Face {
    Regular,
    Medium,
    Emoji,
    Arabic,
    Devanagari,
    Fallback,
}

impl Face {
    const ALL: [Face; 6] = [
        Face::Regular,
        Face::Medium,
        Face::Emoji,
        Face::Arabic,
        Face::Devanagari,
        Face::Fallback,
    ];
}

struct Fonts {
    regular: FontRef<'static>,
    medium: FontRef<'static>,
    emoji: FontRef<'static>,
    arabic: FontRef<'static>,
    devanagari: FontRef<'static>,
    fallback: FontRef<'static>,
}

/// Each face parsed a second time for rustybuzz (ab_glyph rasterises, rustybuzz shapes; both
/// read the same bytes with ttf-parser).
struct Shapers([rustybuzz::Face<'static>; 6]);

fn bytes(face: Face) -> &'static [u8] {
    match face {
        Face::Regular => ROBOTO_REGULAR,
        Face::Medium => ROBOTO_MEDIUM,
        Face::Emoji => NOTO_EMOJI,
        Face::Arabic => NOTO_ARABIC,
        Face::Devanagari => NOTO_DEVANAGARI,
        Face::Fallback => DROID_FALLBACK,
    }
}

/// The rustybuzz face that shapes text in `face`.
pub(super) fn shaper(face: Face) -> &'static rustybuzz::Face<'static> {
    static SHAPERS: OnceLock<Shapers> = OnceLock::new();
    let all = SHAPERS.get_or_init(|| {
        Shapers(Face::ALL.map(|f| {
            rustybuzz::Face::from_slice(bytes(f), 0).expect("bundled font parses for shaping")
        }))
    });
    &all.0[face as usize]
}

fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    let parse = |face| FontRef::try_from_slice(bytes(face)).expect("bundled font parses");
    FONTS.get_or_init(|| Fonts {
        regular: parse(Face::Regular),
        medium: parse(Face::Medium),
        emoji: parse(Face::Emoji),
        arabic: parse(Face::Arabic),
        devanagari: parse(Face::Devanagari),
        fallback: parse(Face::Fallback),
    })
}

pub(super) fn font(face: Face) -> &'static FontRef<'static> {
    let f = fonts();
    match face {
        Face::Regular => &f.regular,
        Face::Medium => &f.medium,
        Face::Emoji => &f.emoji,
        Face::Arabic => &f.arabic,
        Face::Devanagari => &f.devanagari,
        Face::Fallback => &f.fallback,
    }
}

/// The face and glyph that draw `c`, in Android's fallback order: Roboto when it has the
/// character, then the emoji font, then the CJK/Hangul fallback (whose `.notdef` box is the last
/// resort, as on Android).
pub fn resolve(c: char, bold: bool) -> (Face, GlyphId) {
    let face = if bold { Face::Medium } else { Face::Regular };
    let id = font(face).glyph_id(c);
    if id.0 != 0 {
        return (face, id);
    }
    for face in [Face::Emoji, Face::Arabic, Face::Devanagari] {
        let id = font(face).glyph_id(c);
        if id.0 != 0 {
            return (face, id);
        }
    }
    (Face::Fallback, font(Face::Fallback).glyph_id(c))
}

/// ab_glyph scales by ascent−descent; Android's text size is the em size.
fn px_scale(face: Face, size_px: f32) -> PxScale {
    let f = font(face);
    let upem = f.units_per_em().unwrap_or(2048.0);
    PxScale::from(size_px * f.height_unscaled() / upem)
}

/// A rasterised glyph: coverage bytes, placed relative to the pen position on the baseline.
pub struct Bitmap {
    pub left: i32,
    pub top: i32,
    pub width: usize,
    pub mask: Vec<u8>,
}

type GlyphKey = (Face, u16, u32);

/// Glyph bitmaps shared by every phone in the process; cleared wholesale when it grows too big
/// (a frame touches a few hundred glyphs, so this bounds memory without an LRU).
fn cache() -> &'static Mutex<HashMap<GlyphKey, Arc<Bitmap>>> {
    static CACHE: OnceLock<Mutex<HashMap<GlyphKey, Arc<Bitmap>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

const CACHE_LIMIT: usize = 8192;

/// The bitmap of one glyph at `size_px` (quantised to quarter pixels), rasterised once.
pub fn bitmap(face: Face, id: GlyphId, size_px: f32) -> Arc<Bitmap> {
    let quarter = (size_px * 4.0).round().max(1.0) as u32;
    let key = (face, id.0, quarter);
    {
        let map = cache().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = map.get(&key) {
            return b.clone();
        }
    }
    let size = quarter as f32 / 4.0;
    let glyph = id.with_scale_and_position(px_scale(face, size), ab_glyph::point(0.0, 0.0));
    let bitmap = match font(face).outline_glyph(glyph) {
        Some(outlined) => {
            let b = outlined.px_bounds();
            let width = b.width().max(0.0) as usize;
            let height = b.height().max(0.0) as usize;
            let mut mask = vec![0u8; width * height];
            outlined.draw(|x, y, c| {
                let i = y as usize * width + x as usize;
                if let Some(m) = mask.get_mut(i) {
                    *m = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
                }
            });
            Bitmap {
                left: b.min.x as i32,
                top: b.min.y as i32,
                width,
                mask,
            }
        }
        None => Bitmap {
            left: 0,
            top: 0,
            width: 0,
            mask: Vec::new(),
        },
    };
    let bitmap = Arc::new(bitmap);
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= CACHE_LIMIT {
        map.clear();
    }
    map.insert(key, bitmap.clone());
    bitmap
}

/// How one run of text is drawn.
#[derive(Debug, Clone, Copy)]
pub struct TextStyle {
    pub size_px: f32,
    pub color: Rgba,
    pub bold: bool,
    pub center: bool,
    /// The view is laid out right to left: a line with no strong letter aligns right too.
    pub rtl: bool,
}

/// `text` shaped as one line in the style's weight and direction (control characters drop out).
fn layout_line(text: &str, style: &TextStyle) -> Arc<super::shaping::Line> {
    super::shaping::shape(text, style.bold, style.rtl)
}

/// The width `text` takes on one line.
pub fn measure(text: &str, style: &TextStyle) -> f32 {
    layout_line(text, style).width * style.size_px
}

/// Android's line height for a text size (Roboto's ascent + descent, ~1.17 em).
pub fn line_height(size_px: f32) -> f32 {
    let f = font(Face::Regular);
    let upem = f.units_per_em().unwrap_or(2048.0);
    size_px * (f.ascent_unscaled() - f.descent_unscaled()) / upem
}

fn ascent(size_px: f32) -> f32 {
    let f = font(Face::Regular);
    let upem = f.units_per_em().unwrap_or(2048.0);
    size_px * f.ascent_unscaled() / upem
}

/// `text` shortened with "…" so it fits in `max_width`, cut at a cluster boundary (never inside
/// a conjunct or between a letter and its marks).
fn ellipsize(text: &str, max_width: f32, style: &TextStyle) -> String {
    let line = layout_line(text, style);
    let em_max = max_width / style.size_px;
    if line.width <= em_max {
        return text.to_string();
    }
    let room = em_max - layout_line("…", style).width;
    let cut = line
        .cluster_starts()
        .into_iter()
        .take_while(|&end| line.width_before(end) <= room)
        .last()
        .unwrap_or(0);
    let mut out = text[..cut].trim_end().to_string();
    out.push('…');
    out
}

/// Breaks `text` into lines no wider than `max_width` (at spaces, or between characters when a
/// word alone is too wide, as CJK text needs), keeping at most `max_lines`; the last kept line is
/// ellipsised when text remains.
fn wrap(text: &str, max_width: f32, max_lines: usize, style: &TextStyle) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        for word in paragraph.split_inclusive(' ') {
            let candidate = format!("{line}{word}");
            if measure(candidate.trim_end(), style) <= max_width {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            // A word wider than the line is broken between clusters (CJK characters, a
            // Devanagari conjunct with its matras).
            let mut starts = layout_line(word, style).cluster_starts();
            if starts.first() != Some(&0) {
                starts.insert(0, 0);
            }
            let ends = starts.iter().skip(1).copied().chain([word.len()]);
            for (start, end) in starts.iter().copied().zip(ends) {
                let piece = &word[start..end];
                let candidate = format!("{line}{piece}");
                if measure(candidate.trim_end(), style) > max_width && !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                line.push_str(piece);
            }
        }
        lines.push(line);
    }
    if lines.len() > max_lines {
        let rest = lines[max_lines - 1..].join(" ");
        lines.truncate(max_lines - 1);
        lines.push(rest);
    }
    if let Some(last) = lines.last_mut() {
        *last = ellipsize(last.trim_end(), max_width, style);
    }
    lines
}

/// Draws one line with its baseline at `baseline`, starting at `x`.
fn draw_line(canvas: &mut Canvas, text: &str, x: f32, baseline: f32, style: &TextStyle) {
    let line = layout_line(text, style);
    for g in &line.glyphs {
        let bm = bitmap(g.face, g.id, style.size_px);
        if bm.width == 0 {
            continue;
        }
        let gx = (x + g.x * style.size_px).round() as i32 + bm.left;
        let gy = (baseline - g.y * style.size_px).round() as i32 + bm.top;
        canvas.draw_mask(gx, gy, bm.width, &bm.mask, style.color);
    }
}

/// Draws `text` inside `area`: as many wrapped lines as fit (at least one), vertically centred,
/// aligned to the paragraph's start or centred, ellipsised where it overflows. Returns the rectangle the text covers.
pub fn draw_text(canvas: &mut Canvas, text: &str, area: Bounds, style: &TextStyle) -> Bounds {
    draw_block(canvas, text, area, style, false).0
}

/// Draws `text` from the top of `area`, as a multi-line editor (gravity `top`) lays it out.
/// Returns the rectangle the text covers and where its last line ends (x, and that line's
/// vertical centre): the end of the text, where typing goes.
pub fn draw_text_from_top(
    canvas: &mut Canvas,
    text: &str,
    area: Bounds,
    style: &TextStyle,
) -> (Bounds, (i32, i32)) {
    draw_block(canvas, text, area, style, true)
}

fn draw_block(
    canvas: &mut Canvas,
    text: &str,
    area: Bounds,
    style: &TextStyle,
    from_top: bool,
) -> (Bounds, (i32, i32)) {
    let lh = line_height(style.size_px);
    if text.is_empty() || area.is_empty() {
        let y = if from_top {
            area.top + (lh / 2.0) as i32
        } else {
            area.top + area.height() / 2
        };
        return (
            Bounds::new(area.left, area.top, area.left, area.top),
            (area.left, y),
        );
    }
    let max_lines = ((area.height() as f32 / lh).floor() as usize).max(1);
    let lines = wrap(text, area.width() as f32, max_lines, style);
    let block = lh * lines.len() as f32;
    let top = if from_top {
        area.top as f32
    } else {
        area.top as f32 + (area.height() as f32 - block) / 2.0
    };
    let mut covered = Bounds::new(area.right, top as i32, area.left, (top + block) as i32);
    let mut end = (area.left, (top + lh / 2.0) as i32);
    for (i, line) in lines.iter().enumerate() {
        let w = measure(line, style);
        // Gravity `start`: the paragraph's own direction decides the side.
        let x = if style.center {
            area.left as f32 + (area.width() as f32 - w) / 2.0
        } else if super::shaping::paragraph_rtl(line, style.rtl) {
            area.right as f32 - w
        } else {
            area.left as f32
        };
        covered.left = covered.left.min(x as i32);
        covered.right = covered.right.max((x + w).ceil() as i32);
        let baseline = top + lh * i as f32 + ascent(style.size_px);
        draw_line(canvas, line, x, baseline, style);
        end = ((x + w).ceil() as i32, (top + lh * (i as f32 + 0.5)) as i32);
    }
    (covered, end)
}

//! Shaping one line of text the way Android's Minikin does: the Unicode bidirectional algorithm
//! (`unicode-bidi`) splits the line into runs in visual order, each run is split again where the
//! bundled face that draws it changes (combining marks, joiners and a few punctuation marks stick
//! to the face of the run they sit in, as Minikin's itemizer keeps them), and rustybuzz (HarfBuzz
//! ported to Rust) shapes each piece: Arabic letters join, lam-alef ligates, Devanagari conjuncts
//! form and its matras reorder and attach, Latin kerns.
//!
//! Shaping does not depend on the text size, so a line is shaped once in em units and cached for
//! every size and frame.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, GlyphId};
use rustybuzz::{Direction, UnicodeBuffer};
use unicode_bidi::{Level, ParagraphBidiInfo};
use unicode_script::{Script, UnicodeScript};

use super::text::{font, resolve, shaper, Face};

/// One shaped glyph, positioned in ems from the line's start on the baseline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    pub face: Face,
    pub id: GlyphId,
    /// Pen position plus the glyph's own offset.
    pub x: f32,
    /// Offset above the baseline (marks stacked on a letter).
    pub y: f32,
    /// How far the pen moves after it.
    pub advance: f32,
    /// Byte offset in the line of the first character this glyph draws (HarfBuzz's cluster).
    pub cluster: usize,
}

/// A line shaped and laid out left to right, in ems.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub glyphs: Vec<Glyph>,
    pub width: f32,
}

impl Line {
    /// The byte offsets where a cluster starts, ascending: the places the line may be cut
    /// without splitting a conjunct, a ligature or a letter from its marks.
    pub fn cluster_starts(&self) -> Vec<usize> {
        let mut starts: Vec<usize> = self.glyphs.iter().map(|g| g.cluster).collect();
        starts.sort_unstable();
        starts.dedup();
        starts
    }

    /// The width of the glyphs drawing the text before byte `end`.
    pub fn width_before(&self, end: usize) -> f32 {
        self.glyphs
            .iter()
            .filter(|g| g.cluster < end)
            .map(|g| g.advance)
            .sum()
    }
}

/// Whether a paragraph runs right to left: its first strong letter decides, and a paragraph with
/// none (digits, punctuation) takes the view's direction (Android's `FIRSTSTRONG_LTR`/`_RTL`).
pub fn paragraph_rtl(text: &str, view_rtl: bool) -> bool {
    match unicode_bidi::get_base_direction(text) {
        unicode_bidi::Direction::Rtl => true,
        unicode_bidi::Direction::Ltr => false,
        unicode_bidi::Direction::Mixed => view_rtl,
    }
}

type LineKey = (String, bool, bool);

/// Shaped lines shared by every phone in the process, cleared wholesale when full (a frame shows
/// a few hundred distinct lines).
fn cache() -> &'static Mutex<HashMap<LineKey, Arc<Line>>> {
    static CACHE: OnceLock<Mutex<HashMap<LineKey, Arc<Line>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

const CACHE_LIMIT: usize = 4096;

/// `text` (one line, no control characters drawn) shaped in the regular or bold face, in a view
/// laid out right to left or not.
pub fn shape(text: &str, bold: bool, view_rtl: bool) -> Arc<Line> {
    let key = (text.to_string(), bold, view_rtl);
    if let Some(line) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return line.clone();
    }
    let line = Arc::new(shape_uncached(text, bold, view_rtl));
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    if map.len() >= CACHE_LIMIT {
        map.clear();
    }
    map.insert(key, line.clone());
    line
}

fn shape_uncached(text: &str, bold: bool, view_rtl: bool) -> Line {
    let mut line = Line {
        glyphs: Vec::with_capacity(text.len()),
        width: 0.0,
    };
    if text.is_empty() {
        return line;
    }
    let base = if paragraph_rtl(text, view_rtl) {
        Level::rtl()
    } else {
        Level::ltr()
    };
    let bidi = ParagraphBidiInfo::new(text, Some(base));
    let (levels, runs) = if bidi.has_rtl() {
        bidi.visual_runs(0..text.len())
    } else {
        (Vec::new(), vec![0..text.len()])
    };
    for run in runs {
        let rtl = levels.get(run.start).is_some_and(|l| l.is_rtl());
        let mut pieces = face_runs(text, run, bold);
        if rtl {
            pieces.reverse();
        }
        for (face, range) in pieces {
            shape_piece(&mut line, text, face, range, rtl);
        }
    }
    line
}

/// Characters that stay in the face of the run they follow when that face has them (Minikin's
/// sticky list, plus the space, so a phrase in one script is shaped as one piece).
fn sticky(c: char) -> bool {
    matches!(
        c,
        ' ' | '!'
            | ','
            | '-'
            | '.'
            | ':'
            | ';'
            | '?'
            | '\u{00A0}'
            | '\u{2010}'
            | '\u{2011}'
            | '\u{202F}'
    ) || is_joiner(c)
        || c.script() == Script::Inherited
}

/// Zero-width (non-)joiners and variation selectors: they steer shaping, they draw nothing.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}' | '\u{FE00}'..='\u{FE0F}')
}

/// `range` of `text` split where the face drawing it changes, in logical order; control
/// characters are left out.
fn face_runs(text: &str, range: Range<usize>, bold: bool) -> Vec<(Face, Range<usize>)> {
    let mut out: Vec<(Face, Range<usize>)> = Vec::new();
    for (i, c) in text[range.clone()].char_indices() {
        let at = range.start + i;
        let end = at + c.len_utf8();
        if c.is_control() {
            continue;
        }
        if let Some((face, r)) = out.last_mut() {
            let keeps =
                r.end == at && sticky(c) && (is_joiner(c) || font(*face).glyph_id(c).0 != 0);
            if keeps {
                r.end = end;
                continue;
            }
        }
        let face = resolve(c, bold).0;
        match out.last_mut() {
            Some((f, r)) if *f == face && r.end == at => r.end = end,
            _ => out.push((face, at..end)),
        }
    }
    out
}

/// Shapes `range` of `text` in `face` and appends its glyphs at the line's pen.
fn shape_piece(line: &mut Line, text: &str, face: Face, range: Range<usize>, rtl: bool) {
    let hb = shaper(face);
    let em = 1.0 / hb.units_per_em() as f32;
    let mut buffer = UnicodeBuffer::new();
    buffer.push_str(&text[range.clone()]);
    buffer.set_direction(if rtl {
        Direction::RightToLeft
    } else {
        Direction::LeftToRight
    });
    let shaped = rustybuzz::shape(hb, &[], buffer);
    for (info, pos) in shaped.glyph_infos().iter().zip(shaped.glyph_positions()) {
        let advance = pos.x_advance as f32 * em;
        line.glyphs.push(Glyph {
            face,
            id: GlyphId(info.glyph_id as u16),
            x: line.width + pos.x_offset as f32 * em,
            y: pos.y_offset as f32 * em,
            advance,
            cluster: range.start + info.cluster as usize,
        });
        line.width += advance;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(line: &Line) -> Vec<u16> {
        line.glyphs.iter().map(|g| g.id.0).collect()
    }

    /// What drawing each character's own glyph (the font's cmap, no shaping) would give.
    fn unshaped(text: &str) -> Vec<u16> {
        text.chars().map(|c| resolve(c, false).1 .0).collect()
    }

    #[test]
    fn devanagari_conjuncts_form_and_matras_reorder() {
        for word in ["हिन्दी", "क्षत्रिय"] {
            let line = shape(word, false, false);
            assert!(line.glyphs.iter().all(|g| g.face == Face::Devanagari));
            assert!(
                line.glyphs.iter().all(|g| g.id.0 != 0),
                "{word}: no .notdef"
            );
            let cmap = unshaped(word);
            assert_ne!(ids(&line), cmap, "{word} is shaped");
            // The virama joins its consonants into one conjunct glyph: fewer glyphs than
            // characters.
            assert!(ids(&line).len() < cmap.len(), "{word}: {:?}", ids(&line));
        }
        // "कि": the short i is drawn before its consonant although written after it.
        let ki = shape("कि", false, false);
        let (ka, i) = (resolve('क', false).1 .0, resolve('ि', false).1 .0);
        assert_eq!(ki.glyphs.len(), 2);
        assert_eq!(ki.glyphs[1].id.0, ka, "consonant second");
        assert_ne!(ki.glyphs[0].id.0, i, "the matra takes its contextual form");
        assert!(ki.glyphs[0].x < ki.glyphs[1].x);
        // "क्ष" is one conjunct glyph for three characters, and cutting the line never splits it.
        let ksha = shape("क्ष", false, false);
        assert_eq!(ksha.glyphs.len(), 1);
        assert_eq!(ksha.cluster_starts(), vec![0]);
    }

    #[test]
    fn arabic_joins_and_reads_right_to_left() {
        // "بحث" (search): three letters, each in its joined form, not the isolated cmap glyph.
        let line = shape("بحث", false, false);
        let cmap = unshaped("بحث");
        assert_eq!(line.glyphs.len(), 3);
        assert!(line.glyphs.iter().all(|g| g.face == Face::Arabic));
        for g in &line.glyphs {
            assert!(!cmap.contains(&g.id.0), "{:?} is a joined form", g.id);
        }
        // Drawn right to left: the first letter (cluster 0) is the rightmost glyph.
        assert_eq!(line.glyphs.last().map(|g| g.cluster), Some(0));
        // Lam-alef is one ligature.
        assert_eq!(shape("لا", false, false).glyphs.len(), 1);
        // The same letters in isolated positions keep their cmap glyphs.
        let apart = shape("ب ح ث", false, false);
        let solo: Vec<u16> = apart.glyphs.iter().map(|g| g.id.0).collect();
        for c in ['ب', 'ح', 'ث'] {
            assert!(solo.contains(&resolve(c, false).1 .0));
        }
    }

    #[test]
    fn bidi_orders_runs_and_numbers_keep_their_order() {
        // Latin digits inside an Arabic line stay left to right, on the line's left.
        let line = shape("ا 12", false, false);
        let order: Vec<usize> = line.glyphs.iter().map(|g| g.cluster).collect();
        assert_eq!(order, vec![3, 4, 2, 0], "{order:?}");
        // Arabic-Indic numbers with their separator stay in reading order, the marker after.
        let time = shape("٨:٣٠ ص", false, false);
        let order: Vec<usize> = time.glyphs.iter().map(|g| g.cluster).collect();
        let marker = "٨:٣٠ ".len();
        assert_eq!(order.first(), Some(&marker), "{order:?}");
        let digits: Vec<usize> = order.iter().copied().filter(|c| *c < marker - 1).collect();
        assert!(digits.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        // A Latin line is one left-to-right piece.
        let clock = shape("Clock", false, false);
        assert!(clock.glyphs.windows(2).all(|w| w[0].x < w[1].x));
        assert!(paragraph_rtl("الساعة 12", false));
        assert!(!paragraph_rtl("12:30", false));
        assert!(paragraph_rtl("12:30", true));
    }

    #[test]
    fn every_label_of_the_complex_locales_shapes_to_real_glyphs() {
        for label in [
            "الإعدادات",
            "الساعة",
            "ترتیبات",
            "گھڑی",
            "کیلکولیٹر",
            "सेटिंग",
            "घड़ी",
            "संपर्क",
            "설정",
            "设置",
            "Настройки",
        ] {
            let line = shape(label, false, false);
            assert!(!line.glyphs.is_empty(), "{label}");
            for g in &line.glyphs {
                assert_ne!(g.id.0, 0, "{label}: .notdef at {}", g.cluster);
            }
            assert!(line.width > 0.0);
        }
    }

    #[test]
    fn every_string_resource_draws_with_no_missing_glyph() {
        use crate::locale::res::{resources, Value};
        let mut checked = 0;
        for (package, dir, entries) in resources().files() {
            for (name, entry) in entries {
                let texts: Vec<&str> = match &entry.value {
                    Value::Text(t) => vec![t.as_str()],
                    Value::Plurals(items) => items.iter().map(|(_, t)| t.as_str()).collect(),
                    Value::Array(items) => items.iter().map(String::as_str).collect(),
                };
                for text in texts.iter().flat_map(|t| t.split('\n')) {
                    let locale = dir.trim_start_matches("values-");
                    let line = shape(text, false, crate::locale::is_rtl(locale));
                    let missing: Vec<char> = line
                        .glyphs
                        .iter()
                        .filter(|g| g.id.0 == 0)
                        .filter_map(|g| text[g.cluster..].chars().next())
                        .collect();
                    assert!(
                        missing.is_empty(),
                        "res/{package}/{dir} {name}: no glyph for {missing:?} in {text:?}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked} strings");
    }
}

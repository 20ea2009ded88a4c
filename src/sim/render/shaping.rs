//! Just enough text shaping for the phone's right-to-left and Indic locales, with no shaping
//! engine: Arabic letters take their contextual forms (the Unicode presentation forms, which the
//! bundled Noto Sans Arabic maps; lam-alef becomes its ligature), a line whose first strong
//! character is right-to-left is laid out in visual order (runs of Latin letters and digits keep
//! their own order inside it), and Devanagari's short i (U+093F) moves before its consonant.
//! Android shapes with HarfBuzz; this covers the labels and short strings the phone shows.

use std::borrow::Cow;

/// (letter, isolated, final, initial, medial); a letter with no initial form joins only to the
/// right (alef, dal, reh, waw…).
const FORMS: &[(char, u32, u32, u32, u32)] = &[
    ('\u{0621}', 0xFE80, 0, 0, 0),
    ('\u{0622}', 0xFE81, 0xFE82, 0, 0),
    ('\u{0623}', 0xFE83, 0xFE84, 0, 0),
    ('\u{0624}', 0xFE85, 0xFE86, 0, 0),
    ('\u{0625}', 0xFE87, 0xFE88, 0, 0),
    ('\u{0626}', 0xFE89, 0xFE8A, 0xFE8B, 0xFE8C),
    ('\u{0627}', 0xFE8D, 0xFE8E, 0, 0),
    ('\u{0628}', 0xFE8F, 0xFE90, 0xFE91, 0xFE92),
    ('\u{0629}', 0xFE93, 0xFE94, 0, 0),
    ('\u{062A}', 0xFE95, 0xFE96, 0xFE97, 0xFE98),
    ('\u{062B}', 0xFE99, 0xFE9A, 0xFE9B, 0xFE9C),
    ('\u{062C}', 0xFE9D, 0xFE9E, 0xFE9F, 0xFEA0),
    ('\u{062D}', 0xFEA1, 0xFEA2, 0xFEA3, 0xFEA4),
    ('\u{062E}', 0xFEA5, 0xFEA6, 0xFEA7, 0xFEA8),
    ('\u{062F}', 0xFEA9, 0xFEAA, 0, 0),
    ('\u{0630}', 0xFEAB, 0xFEAC, 0, 0),
    ('\u{0631}', 0xFEAD, 0xFEAE, 0, 0),
    ('\u{0632}', 0xFEAF, 0xFEB0, 0, 0),
    ('\u{0633}', 0xFEB1, 0xFEB2, 0xFEB3, 0xFEB4),
    ('\u{0634}', 0xFEB5, 0xFEB6, 0xFEB7, 0xFEB8),
    ('\u{0635}', 0xFEB9, 0xFEBA, 0xFEBB, 0xFEBC),
    ('\u{0636}', 0xFEBD, 0xFEBE, 0xFEBF, 0xFEC0),
    ('\u{0637}', 0xFEC1, 0xFEC2, 0xFEC3, 0xFEC4),
    ('\u{0638}', 0xFEC5, 0xFEC6, 0xFEC7, 0xFEC8),
    ('\u{0639}', 0xFEC9, 0xFECA, 0xFECB, 0xFECC),
    ('\u{063A}', 0xFECD, 0xFECE, 0xFECF, 0xFED0),
    ('\u{0641}', 0xFED1, 0xFED2, 0xFED3, 0xFED4),
    ('\u{0642}', 0xFED5, 0xFED6, 0xFED7, 0xFED8),
    ('\u{0643}', 0xFED9, 0xFEDA, 0xFEDB, 0xFEDC),
    ('\u{0644}', 0xFEDD, 0xFEDE, 0xFEDF, 0xFEE0),
    ('\u{0645}', 0xFEE1, 0xFEE2, 0xFEE3, 0xFEE4),
    ('\u{0646}', 0xFEE5, 0xFEE6, 0xFEE7, 0xFEE8),
    ('\u{0647}', 0xFEE9, 0xFEEA, 0xFEEB, 0xFEEC),
    ('\u{0648}', 0xFEED, 0xFEEE, 0, 0),
    ('\u{0649}', 0xFEEF, 0xFEF0, 0, 0),
    ('\u{064A}', 0xFEF1, 0xFEF2, 0xFEF3, 0xFEF4),
    // Urdu and Persian letters (Arabic Presentation Forms-A).
    ('\u{0679}', 0xFB66, 0xFB67, 0xFB68, 0xFB69),
    ('\u{067E}', 0xFB56, 0xFB57, 0xFB58, 0xFB59),
    ('\u{0686}', 0xFB7A, 0xFB7B, 0xFB7C, 0xFB7D),
    ('\u{0688}', 0xFB88, 0xFB89, 0, 0),
    ('\u{0691}', 0xFB8C, 0xFB8D, 0, 0),
    ('\u{0698}', 0xFB8A, 0xFB8B, 0, 0),
    ('\u{06A9}', 0xFB8E, 0xFB8F, 0xFB90, 0xFB91),
    ('\u{06AF}', 0xFB92, 0xFB93, 0xFB94, 0xFB95),
    ('\u{06BA}', 0xFB9E, 0xFB9F, 0, 0),
    ('\u{06BE}', 0xFBAA, 0xFBAB, 0xFBAC, 0xFBAD),
    ('\u{06C1}', 0xFBA6, 0xFBA7, 0xFBA8, 0xFBA9),
    ('\u{06CC}', 0xFBFC, 0xFBFD, 0xFBFE, 0xFBFF),
    ('\u{06D2}', 0xFBAE, 0xFBAF, 0, 0),
];

fn forms(c: char) -> Option<&'static (char, u32, u32, u32, u32)> {
    FORMS.iter().find(|f| f.0 == c)
}

/// Whether `c` joins to the letter after it (has an initial form) — tatweel always does.
fn joins_forward(c: char) -> bool {
    c == '\u{0640}' || forms(c).is_some_and(|f| f.3 != 0)
}

/// Whether `c` joins to the letter before it.
fn joins_back(c: char) -> bool {
    c == '\u{0640}' || forms(c).is_some_and(|f| f.2 != 0)
}

/// Harakat and other marks are transparent to joining.
fn is_mark(c: char) -> bool {
    matches!(c, '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{06D6}'..='\u{06ED}')
}

/// A right-to-left letter or mark (Arabic-Indic digits are numbers, not letters: they keep their
/// left-to-right order inside a right-to-left line, as the bidi algorithm's AN class does).
pub fn is_rtl_char(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
        && !is_digit(c)
}

/// European, Arabic-Indic and Extended Arabic-Indic digits.
fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '\u{0660}'..='\u{0669}' | '\u{06F0}'..='\u{06F9}')
}

/// A separator that stays inside a number between two digits (`8:30`, `1,234.5`, `٣٫٥`).
fn is_number_separator(c: char) -> bool {
    matches!(c, ':' | '.' | ',' | '/' | '\u{066B}' | '\u{066C}')
}

fn is_strong_ltr(c: char) -> bool {
    c.is_alphabetic() && !is_rtl_char(c)
}

/// Whether a paragraph runs right to left: its first strong letter decides, and a paragraph with
/// none (digits, punctuation) takes the view's direction (Android's `FIRSTSTRONG_LTR`/`_RTL`).
pub fn paragraph_rtl(text: &str, view_rtl: bool) -> bool {
    text.chars()
        .find(|c| is_rtl_char(*c) || is_strong_ltr(*c))
        .map_or(view_rtl, is_rtl_char)
}

/// Arabic letters in their contextual forms (logical order kept).
fn join_arabic(chars: &[char]) -> Vec<char> {
    let letter_at = |i: usize, step: isize| -> Option<char> {
        let mut j = i as isize + step;
        while j >= 0 && (j as usize) < chars.len() {
            let c = chars[j as usize];
            if !is_mark(c) {
                return Some(c);
            }
            j += step;
        }
        None
    };
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let prev_joins = letter_at(i, -1).is_some_and(joins_forward);
        // Lam followed by an alef is one ligature.
        if c == '\u{0644}' {
            let lig = match chars.get(i + 1) {
                Some('\u{0622}') => Some(0xFEF5),
                Some('\u{0623}') => Some(0xFEF7),
                Some('\u{0625}') => Some(0xFEF9),
                Some('\u{0627}') => Some(0xFEFB),
                _ => None,
            };
            if let Some(iso) = lig {
                out.extend(char::from_u32(iso + u32::from(prev_joins)));
                i += 2;
                continue;
            }
        }
        match forms(c) {
            Some(&(_, iso, fin, ini, med)) => {
                let next_joins = letter_at(i, 1).is_some_and(joins_back);
                let code = match (prev_joins && fin != 0, next_joins && ini != 0) {
                    (true, true) if med != 0 => med,
                    (true, _) => fin,
                    (false, true) => ini,
                    _ => iso,
                };
                out.extend(char::from_u32(code));
            }
            None => out.push(c),
        }
        i += 1;
    }
    out
}

/// Devanagari's vowel sign I is written after its consonant but drawn before it.
fn reorder_devanagari(chars: &mut [char]) {
    for i in 1..chars.len() {
        if chars[i] == '\u{093F}' && ('\u{0915}'..='\u{0939}').contains(&chars[i - 1]) {
            chars.swap(i - 1, i);
        }
    }
}

/// One line of text as it is drawn left to right.
pub fn visual(line: &str) -> Cow<'_, str> {
    let has_rtl = line.chars().any(is_rtl_char);
    let has_deva = line.chars().any(|c| c == '\u{093F}');
    if !has_rtl && !has_deva {
        return Cow::Borrowed(line);
    }
    let mut chars: Vec<char> = line.chars().collect();
    reorder_devanagari(&mut chars);
    if !has_rtl {
        return Cow::Owned(chars.into_iter().collect());
    }
    let shaped = join_arabic(&chars);
    let rtl_paragraph = shaped
        .iter()
        .find(|c| is_rtl_char(**c) || is_strong_ltr(**c))
        .is_some_and(|c| is_rtl_char(*c));
    // Runs: right-to-left letters (with the neutrals between them) vs everything else.
    let mut runs: Vec<(bool, Vec<char>)> = Vec::new();
    for (i, &c) in shaped.iter().enumerate() {
        let in_number = is_number_separator(c)
            && i > 0
            && is_digit(shaped[i - 1])
            && shaped.get(i + 1).is_some_and(|n| is_digit(*n));
        let rtl = if is_rtl_char(c) {
            true
        } else if is_strong_ltr(c) || is_digit(c) || in_number {
            false
        } else {
            // Neutrals take the paragraph's direction.
            rtl_paragraph
        };
        match runs.last_mut() {
            Some((r, run)) if *r == rtl => run.push(c),
            _ => runs.push((rtl, vec![c])),
        }
    }
    let mut out = String::with_capacity(line.len());
    let ordered: Vec<(bool, Vec<char>)> = if rtl_paragraph {
        runs.into_iter().rev().collect()
    } else {
        runs
    };
    for (rtl, run) in ordered {
        if rtl {
            out.extend(run.into_iter().rev());
        } else {
            out.extend(run);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arabic_joins_and_reads_right_to_left() {
        // "بحث" (search): beh initial, hah medial, theh final, drawn right to left.
        assert_eq!(visual("بحث"), "\u{FE9A}\u{FEA4}\u{FE91}");
        // lam-alef ligature; alef does not join forward.
        assert_eq!(visual("لا"), "\u{FEFB}");
        // Latin and digits inside keep their order.
        assert_eq!(visual("ا 12"), "12 \u{FE8D}");
        // Arabic-Indic numbers keep their order, separators inside them too: "٨:٣٠ ص" reads
        // right to left as the time, then the marker.
        assert_eq!(visual("٨:٣٠ ص"), "\u{FEB9} ٨:٣٠");
        assert_eq!(visual("٨:٣٠"), "٨:٣٠");
        assert_eq!(visual("Clock"), "Clock");
        assert_eq!(visual("कि"), "\u{093F}\u{0915}");
    }

    #[test]
    fn every_script_of_the_locales_has_a_bundled_face() {
        use super::super::text::{resolve, Face};
        for (c, face) in [
            ('\u{FE91}', Face::Arabic),
            ('\u{FB58}', Face::Arabic),
            ('क', Face::Devanagari),
            ('설', Face::Fallback),
            ('设', Face::Fallback),
            ('Ж', Face::Regular),
        ] {
            let (got, id) = resolve(c, false);
            assert_eq!(got, face, "{c}");
            assert_ne!(id.0, 0, "{c} has a glyph");
        }
        // Every shaped form of the letters in use maps to a glyph.
        for label in ["الإعدادات", "الساعة", "ترتیبات", "گھڑی", "کیلکولیٹر"]
        {
            for c in visual(label).chars().filter(|c| *c != ' ') {
                assert_ne!(resolve(c, false).1 .0, 0, "{label}: {c:?} has no glyph");
            }
        }
    }
}

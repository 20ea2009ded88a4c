//! The dial pad: its sheet at the bottom of the main screen, the typed digits and the keys (also
//! the in-call keypad's).

use crate::apps::communication::{at, filled, palette, text_style};
use crate::providers::phone_number;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

use super::{id, tr};

/// Dialpad keys: tag character, digit, letters.
const KEYS: [(char, &str, &str, &str); 12] = [
    ('1', "one", "1", ""),
    ('2', "two", "2", "ABC"),
    ('3', "three", "3", "DEF"),
    ('4', "four", "4", "GHI"),
    ('5', "five", "5", "JKL"),
    ('6', "six", "6", "MNO"),
    ('7', "seven", "7", "PQRS"),
    ('8', "eight", "8", "TUV"),
    ('9', "nine", "9", "WXYZ"),
    ('*', "star", "*", ""),
    ('0', "zero", "0", "+"),
    ('#', "pound", "#", ""),
];

/// Where the dial pad's sheet sits: the digits, four rows of keys and the call button, at the
/// bottom of the content area.
pub(super) fn dialpad_sheet(sys: &System) -> Bounds {
    let m = sys.metrics;
    let c = m.content;
    let height = (m.dp(72.0) + m.dp(64.0) * 4 + m.dp(96.0)).min(c.height());
    Bounds::new(c.left, c.bottom - height, c.right, c.bottom)
}

pub(super) fn render_dialpad(sys: &System, digits: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let key_height = m.dp(64.0);
    let fab_area = m.dp(96.0);
    let digits_height = m.dp(72.0);
    let sheet = dialpad_sheet(sys);
    let formatted = phone_number::format_as_you_type(digits);
    let mut pad = View::new(class::LINEAR_LAYOUT, sheet)
        .id(id("dialpad_view"))
        .style(Style {
            background: Some(p.surface),
            ..Style::default()
        })
        .child(
            View::new(
                class::EDIT_TEXT,
                at(
                    sheet,
                    m.dp(56.0),
                    0,
                    sheet.width() - m.dp(112.0),
                    digits_height,
                ),
            )
            .id(id("digits"))
            .text(formatted)
            .editable("digits")
            // DigitsEditText: the dial pad below is its keyboard.
            .no_soft_input()
            .style(Style {
                center_text: true,
                ..text_style(32.0, p.on_surface)
            }),
        );
    if !digits.is_empty() {
        pad = pad.child(
            View::new(
                class::IMAGE_BUTTON,
                at(
                    sheet,
                    sheet.width() - m.dp(56.0),
                    m.dp(12.0),
                    m.dp(48.0),
                    m.dp(48.0),
                ),
            )
            .id(id("deleteButton"))
            .desc(tr(sys, "backspace"))
            .on_click("delete")
            .long_clickable()
            .style(Style {
                icon: Some("backspace"),
                text_color: Some(p.on_surface),
                ..Style::default()
            }),
        );
    }
    pad = pad.children(keypad(
        sys,
        Bounds::new(
            sheet.left,
            sheet.top + digits_height,
            sheet.right,
            sheet.top + digits_height + key_height * 4,
        ),
    ));
    let size = m.dp(64.0);
    let fab = Bounds::new(
        sheet.left + (sheet.width() - size) / 2,
        sheet.bottom - fab_area + (fab_area - size) / 2,
        sheet.left + (sheet.width() + size) / 2,
        sheet.bottom - fab_area + (fab_area + size) / 2,
    );
    pad.child(
        View::new(class::IMAGE_BUTTON, fab)
            .id(id("dialpad_floating_action_button"))
            .desc(tr(sys, "dial"))
            .on_click("dial")
            .style(Style {
                icon: Some("call"),
                ..filled([30, 142, 62, 255], [255, 255, 255, 255], size / 2)
            }),
    )
}

/// The twelve keys in a 3×4 grid filling `area`.
pub(super) fn keypad(sys: &System, area: Bounds) -> Vec<View> {
    let m = sys.metrics;
    let p = palette(sys);
    let key_width = area.width() / 3;
    let key_height = area.height() / 4;
    KEYS.iter()
        .enumerate()
        .map(|(i, (key, key_id, digit, letters))| {
            let (row, col) = (i as i32 / 3, i as i32 % 3);
            let b = Bounds::new(
                area.left + key_width * col,
                area.top + key_height * row,
                area.left + key_width * (col + 1),
                area.top + key_height * (row + 1),
            );
            let desc = if letters.is_empty() {
                digit.to_string()
            } else {
                format!("{digit},{letters}")
            };
            let mut view = View::new(class::FRAME_LAYOUT, b)
                .id(id(key_id))
                .desc(desc)
                .on_click(format!("key:{key}"))
                .child(
                    View::new(class::TEXT_VIEW, at(b, 0, m.dp(6.0), b.width(), m.sp(36.0)))
                        .id(id("dialpad_key_number"))
                        .text(*digit)
                        .style(Style {
                            center_text: true,
                            ..text_style(28.0, p.on_surface)
                        }),
                );
            if *key == '0' {
                view = view.long_clickable();
            }
            if !letters.is_empty() {
                view = view.child(
                    View::new(
                        class::TEXT_VIEW,
                        at(b, 0, m.dp(6.0) + m.sp(36.0), b.width(), m.sp(16.0)),
                    )
                    .id(id("dialpad_key_letters"))
                    .text(*letters)
                    .style(Style {
                        center_text: true,
                        ..text_style(11.0, p.secondary_text)
                    }),
                );
            }
            view
        })
        .collect()
}

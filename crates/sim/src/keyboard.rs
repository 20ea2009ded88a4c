//! The on-screen keyboard (Gboard's place): the IME window's view tree and what each key types.
//!
//! Keys are views tagged `ime:<key>` (`ime:a`, `ime:DEL`, `ime:ENTER`, `ime:SPACE`, `ime:SHIFT`,
//! `ime:SYM`); the framework turns a tap on one into a [`Key`].

use droidmcp_geom::Bounds;

use super::view::{class, Metrics, Role, Style, View};

/// The IME's package, as on Pixel phones.
pub const PACKAGE: &str = "com.google.android.inputmethod.latin";

/// Which layer of the keyboard shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KeyboardState {
    pub shift: bool,
    pub symbols: bool,
}

/// What a tapped key does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    Type(String),
    Delete,
    Enter,
    Shift,
    Symbols,
}

const LETTER_ROWS: [&str; 4] = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"];
const SYMBOL_ROWS: [&str; 4] = ["1234567890", "@#$_&-+()/", "*\"':;!?~=", "%\\|<>{}"];

/// Height of the keyboard window in px.
pub fn height(metrics: &Metrics) -> i32 {
    metrics.dp(264.0)
}

/// The keyboard window, sitting on top of the navigation bar.
pub fn render(metrics: &Metrics, state: KeyboardState) -> View {
    let bottom = metrics.content.bottom;
    let top = bottom - height(metrics);
    let bounds = Bounds::new(0, top, metrics.width, bottom);
    let rows = if state.symbols {
        SYMBOL_ROWS
    } else {
        LETTER_ROWS
    };
    let row_h = (bounds.height() - metrics.dp(8.0)) / 5;
    let key_w = metrics.width / 10;
    let key_style = |icon: Option<&'static str>| Style {
        background_role: Some(Role::Key),
        corner_radius: metrics.dp(6.0),
        center_text: true,
        text_size_sp: Some(20.0),
        icon,
        ..Style::default()
    };
    let key = |tag: String, label: String, desc: String, b: Bounds, icon: Option<&'static str>| {
        let inset = metrics.dp(3.0);
        View::new(
            class::FRAME_LAYOUT,
            Bounds::new(
                b.left + inset,
                b.top + inset,
                b.right - inset,
                b.bottom - inset,
            ),
        )
        .text(label)
        .desc(desc)
        .on_click(tag)
        .style(key_style(icon))
    };
    let mut keys = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let y = top + metrics.dp(4.0) + row_h * r as i32;
        let n = row.chars().count() as i32;
        let mut x = (metrics.width - n * key_w) / 2;
        if r == 3 {
            let b = Bounds::new(0, y, key_w * 3 / 2, y + row_h);
            let label = if state.symbols { "=\\<" } else { "" };
            keys.push(key(
                "ime:SHIFT".into(),
                label.into(),
                "Shift".into(),
                b,
                Some("shift"),
            ));
            x = key_w * 3 / 2;
        }
        for c in row.chars() {
            let shown = if state.shift {
                c.to_uppercase().collect::<String>()
            } else {
                c.to_string()
            };
            let b = Bounds::new(x, y, x + key_w, y + row_h);
            keys.push(key(format!("ime:{c}"), shown.clone(), shown, b, None));
            x += key_w;
        }
        if r == 3 {
            let b = Bounds::new(metrics.width - key_w * 3 / 2, y, metrics.width, y + row_h);
            keys.push(key(
                "ime:DEL".into(),
                String::new(),
                "Delete".into(),
                b,
                Some("del"),
            ));
        }
    }
    let y = top + metrics.dp(4.0) + row_h * 4;
    let bottom_row: [(&str, &str, &str, i32, Option<&'static str>); 5] = [
        (
            "ime:SYM",
            if state.symbols { "ABC" } else { "?123" },
            "Symbols",
            2,
            None,
        ),
        ("ime:,", ",", ",", 1, None),
        ("ime:SPACE", "", "Space", 4, None),
        ("ime:.", ".", ".", 1, None),
        ("ime:ENTER", "", "Enter", 2, Some("keyboard_return")),
    ];
    let mut x = 0;
    for (tag, label, desc, units, icon) in bottom_row {
        let b = Bounds::new(x, y, x + key_w * units, y + row_h);
        keys.push(key(tag.into(), label.into(), desc.into(), b, icon));
        x += key_w * units;
    }
    View::new(class::FRAME_LAYOUT, bounds)
        .id(format!("{PACKAGE}:id/keyboard_holder"))
        .style(Style {
            background_role: Some(Role::Keyboard),
            ..Style::default()
        })
        .children(keys)
}

/// What the key with this view tag does, with the shift state applied; `None` for tags that are not keys.
pub fn key_for_tag(tag: &str, state: KeyboardState) -> Option<Key> {
    let name = tag.strip_prefix("ime:")?;
    Some(match name {
        "DEL" => Key::Delete,
        "ENTER" => Key::Enter,
        "SHIFT" => Key::Shift,
        "SYM" => Key::Symbols,
        "SPACE" => Key::Type(" ".into()),
        other if state.shift => Key::Type(other.to_uppercase()),
        other => Key::Type(other.to_string()),
    })
}

/// ADBKeyboard's package and IME id (`ime set com.android.adbkeyboard/.AdbIME`).
pub const ADB_PACKAGE: &str = "com.android.adbkeyboard";
pub const ADB_IME: &str = "com.android.adbkeyboard/.AdbIME";

/// ADBKeyboard's input view: a thin bar saying it is on; it takes text only from broadcasts.
pub fn render_adb(metrics: &Metrics) -> View {
    let bottom = metrics.content.bottom;
    let bounds = Bounds::new(0, bottom - metrics.dp(48.0), metrics.width, bottom);
    View::new(class::FRAME_LAYOUT, bounds)
        .style(Style {
            background_role: Some(Role::Keyboard),
            ..Style::default()
        })
        .child(
            View::new(class::TEXT_VIEW, bounds)
                .text("ADB Keyboard {ON}")
                .style(Style {
                    center_text: true,
                    ..Style::default()
                }),
        )
}

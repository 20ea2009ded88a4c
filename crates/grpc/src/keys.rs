//! What the emulator makes of a `KeyboardEvent`'s key: a Linux evdev code (`XKB` codes are the
//! evdev code plus 8, as X11 numbers them) becomes the Android key code Android's `Generic.kl` maps
//! it to, and a W3C key value (`"GoBack"`, `"Enter"`) the key the emulator's `KeyEventSender` sends for it.

/// `Generic.kl`'s `key <evdev> <KEYCODE>` lines for the keys a keyboard and a phone's buttons
/// have, as (evdev, Android key code).
const EVDEV: &[(u32, u32)] = &[
    (1, 111),   // ESC → ESCAPE
    (2, 8),     // 1
    (3, 9),     // 2
    (4, 10),    // 3
    (5, 11),    // 4
    (6, 12),    // 5
    (7, 13),    // 6
    (8, 14),    // 7
    (9, 15),    // 8
    (10, 16),   // 9
    (11, 7),    // 0
    (12, 69),   // MINUS
    (13, 70),   // EQUALS
    (14, 67),   // BACKSPACE → DEL
    (15, 61),   // TAB
    (16, 45),   // Q
    (17, 51),   // W
    (18, 33),   // E
    (19, 46),   // R
    (20, 48),   // T
    (21, 53),   // Y
    (22, 49),   // U
    (23, 37),   // I
    (24, 43),   // O
    (25, 44),   // P
    (26, 71),   // LEFT_BRACKET
    (27, 72),   // RIGHT_BRACKET
    (28, 66),   // ENTER
    (29, 113),  // CTRL_LEFT
    (30, 29),   // A
    (31, 47),   // S
    (32, 32),   // D
    (33, 34),   // F
    (34, 35),   // G
    (35, 36),   // H
    (36, 38),   // J
    (37, 39),   // K
    (38, 40),   // L
    (39, 74),   // SEMICOLON
    (40, 75),   // APOSTROPHE
    (41, 68),   // GRAVE
    (42, 59),   // SHIFT_LEFT
    (43, 73),   // BACKSLASH
    (44, 54),   // Z
    (45, 52),   // X
    (46, 31),   // C
    (47, 50),   // V
    (48, 30),   // B
    (49, 42),   // N
    (50, 41),   // M
    (51, 55),   // COMMA
    (52, 56),   // PERIOD
    (53, 76),   // SLASH
    (54, 60),   // SHIFT_RIGHT
    (56, 57),   // ALT_LEFT
    (57, 62),   // SPACE
    (58, 115),  // CAPS_LOCK
    (97, 114),  // CTRL_RIGHT
    (100, 58),  // ALT_RIGHT
    (102, 122), // HOME → MOVE_HOME
    (103, 19),  // UP → DPAD_UP
    (104, 92),  // PAGEUP → PAGE_UP
    (105, 21),  // LEFT → DPAD_LEFT
    (106, 22),  // RIGHT → DPAD_RIGHT
    (107, 123), // END → MOVE_END
    (108, 20),  // DOWN → DPAD_DOWN
    (109, 93),  // PAGEDOWN → PAGE_DOWN
    (110, 124), // INSERT
    (111, 112), // DELETE → FORWARD_DEL
    (113, 164), // MUTE → VOLUME_MUTE
    (114, 25),  // VOLUMEDOWN
    (115, 24),  // VOLUMEUP
    (116, 26),  // POWER
    (139, 82),  // MENU
    (158, 4),   // BACK
    (172, 3),   // HOMEPAGE → HOME
    (217, 84),  // SEARCH
    (580, 187), // APPSELECT → APP_SWITCH
];

/// The Android key code for evdev code `code`.
pub fn from_evdev(code: u32) -> Option<u32> {
    EVDEV.iter().find(|(e, _)| *e == code).map(|(_, k)| *k)
}

/// What a W3C key value does: a named key, or printable text to type.
#[derive(Debug, PartialEq, Eq)]
pub enum Key {
    Code(u32),
    Text(String),
}

/// The key for a W3C `KeyboardEvent.key` value (the names the emulator's proto documents: the
/// phone keys `GoBack`, `GoHome`, `AppSwitch`, `Power`, and the editing and arrow keys), or a single
/// printable ASCII character, which is typed.
pub fn from_w3c(key: &str) -> Option<Key> {
    let code = match key {
        "GoBack" | "BrowserBack" => 4,
        "GoHome" | "Home" => 3,
        "AppSwitch" => 187,
        "Power" => 26,
        "Enter" => 66,
        "Backspace" => 67,
        "Tab" => 61,
        "Escape" => 111,
        "Delete" => 112,
        "ArrowUp" => 19,
        "ArrowDown" => 20,
        "ArrowLeft" => 21,
        "ArrowRight" => 22,
        "PageUp" => 92,
        "PageDown" => 93,
        "End" => 123,
        "AudioVolumeUp" => 24,
        "AudioVolumeDown" => 25,
        "AudioVolumeMute" => 164,
        "ContextMenu" => 82,
        _ => {
            let mut chars = key.chars();
            return match (chars.next(), chars.next()) {
                (Some(c), None) if (' '..='~').contains(&c) => Some(Key::Text(c.to_string())),
                _ => None,
            };
        }
    };
    Some(Key::Code(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evdev_codes_map_as_generic_kl() {
        // BACK, HOMEPAGE, ENTER and the letter A, as `Generic.kl` lists them.
        assert_eq!(from_evdev(158), Some(4));
        assert_eq!(from_evdev(172), Some(3));
        assert_eq!(from_evdev(28), Some(66));
        assert_eq!(from_evdev(30), Some(29));
        assert_eq!(from_evdev(0), None);
    }

    #[test]
    fn w3c_names_and_characters() {
        assert_eq!(from_w3c("GoBack"), Some(Key::Code(4)));
        assert_eq!(from_w3c("AppSwitch"), Some(Key::Code(187)));
        assert_eq!(from_w3c("a"), Some(Key::Text("a".into())));
        assert_eq!(from_w3c("é"), None);
        assert_eq!(from_w3c("Unidentified"), None);
    }
}

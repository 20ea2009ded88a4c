//! Building Android shell command lines: quoting for `sh`, escaping for `input text`, key names, and
//! the IME broadcast used for text `input text` cannot carry.
//!
//! Everything here is pure string construction, so the injection-safety rules are unit-tested without
//! a device. **Invariant:** every piece of caller-supplied text reaches `sh` inside single quotes built by
//! [`sh_quote`]; nothing else interpolates user text into a command line.

use base64::Engine;

use droidmcp_geom::Point;

/// The broadcast action of the ADBKeyboard IME (`com.android.adbkeyboard/.AdbIME`): base64 UTF-8 text.
pub const ADB_INPUT_B64: &str = "ADB_INPUT_B64";
/// ADBKeyboard's component, which must be the active IME for [`ADB_INPUT_B64`] on a real phone.
pub const ADB_KEYBOARD_IME: &str = "com.android.adbkeyboard/.AdbIME";

/// Quotes one argument for `/system/bin/sh`: single quotes, with `'` written as `'\''`; a word
/// of only safe characters stays bare, as Python's `shlex.quote` leaves it. The one shell quoter.
pub fn sh_quote(arg: &str) -> String {
    // Words of only these characters mean the same quoted or not; leaving them bare keeps the
    // commands that evidence and logs show readable (`settings get global wifi_on`).
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=+%,@".contains(c))
    {
        return arg.to_string();
    }
    let mut out = String::with_capacity(arg.len() + 2);
    out.push('\'');
    for c in arg.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

/// How a piece of text gets into the focused field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextRoute {
    /// `input text '<escaped>'`: printable ASCII without a literal `%s`.
    InputText(String),
    /// `am broadcast -a ADB_INPUT_B64 --es msg <base64>`: anything else (Unicode, newlines, `%s`).
    Broadcast(String),
}

impl TextRoute {
    pub fn command(&self) -> &str {
        match self {
            TextRoute::InputText(c) | TextRoute::Broadcast(c) => c,
        }
    }

    pub fn is_broadcast(&self) -> bool {
        matches!(self, TextRoute::Broadcast(_))
    }
}

/// Picks the route for `text` and builds its command line.
///
/// `input text` maps characters through the virtual keyboard's ASCII key map (anything else fails the
/// whole call) and turns every `%s` into a space. So spaces are written as `%s`, and a text containing a
/// literal `%s` (which `input` would eat) or any non-printable/non-ASCII character goes by broadcast.
pub fn text_route(text: &str) -> TextRoute {
    let typeable = text.chars().all(|c| (' '..='~').contains(&c)) && !text.contains("%s");
    if typeable {
        TextRoute::InputText(format!("input text {}", sh_quote(&text.replace(' ', "%s"))))
    } else {
        let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
        // base64's alphabet needs no quoting, but quoting keeps the one rule above unconditional.
        TextRoute::Broadcast(format!(
            "am broadcast -a {ADB_INPUT_B64} --es msg {}",
            sh_quote(&b64)
        ))
    }
}

pub fn tap(p: Point) -> String {
    format!("input tap {} {}", p.x, p.y)
}

pub fn swipe(from: Point, to: Point, duration_ms: u32) -> String {
    format!(
        "input swipe {} {} {} {} {}",
        from.x, from.y, to.x, to.y, duration_ms
    )
}

/// One `input keyevent` with several codes (Android sends them in order).
pub fn keyevents(codes: &[u32]) -> String {
    let mut cmd = String::from("input keyevent");
    for code in codes {
        cmd.push(' ');
        cmd.push_str(&code.to_string());
    }
    cmd
}

/// Android key codes by the names people use (`back`, `HOME`, `KEYCODE_VOLUME_UP`, `recents`).
const KEY_NAMES: &[(&str, u32)] = &[
    ("home", 3),
    ("back", 4),
    ("call", 5),
    ("endcall", 6),
    ("dpad_up", 19),
    ("dpad_down", 20),
    ("dpad_left", 21),
    ("dpad_right", 22),
    ("dpad_center", 23),
    ("volume_up", 24),
    ("volume_down", 25),
    ("power", 26),
    ("camera", 27),
    ("tab", 61),
    ("space", 62),
    ("enter", 66),
    ("return", 66),
    ("del", 67),
    ("delete", 67),
    ("backspace", 67),
    ("menu", 82),
    ("notification", 83),
    ("search", 84),
    ("media_play_pause", 85),
    ("escape", 111),
    ("forward_del", 112),
    ("forward_delete", 112),
    ("move_home", 122),
    ("move_end", 123),
    ("volume_mute", 164),
    ("mute", 164),
    ("app_switch", 187),
    ("recents", 187),
    ("overview", 187),
    ("sleep", 223),
    ("wakeup", 224),
    ("paste", 279),
];

/// The highest key code Android defines (KEYCODE_PROFILE_SWITCH on Android 14 is 288; leave headroom).
pub const MAX_KEYCODE: u32 = 400;

/// Resolves a key by name (case-insensitive, optional `KEYCODE_` prefix, `-`/space as `_`) or number.
pub fn keycode(key: &str) -> Option<u32> {
    let norm = key.trim().to_ascii_lowercase().replace(['-', ' '], "_");
    let norm = norm.strip_prefix("keycode_").unwrap_or(&norm);
    if let Ok(n) = norm.parse::<u32>() {
        return (n <= MAX_KEYCODE).then_some(n);
    }
    KEY_NAMES
        .iter()
        .find(|(name, _)| *name == norm)
        .map(|(_, code)| *code)
}

/// The name a key code goes by (the first of its names): `4` → `back`.
pub fn key_name(code: u32) -> Option<&'static str> {
    KEY_NAMES
        .iter()
        .find(|(_, c)| *c == code)
        .map(|(name, _)| *name)
}

/// Key names offered to clients, one per code.
pub fn key_names() -> Vec<&'static str> {
    let mut seen = Vec::new();
    let mut names = Vec::new();
    for (name, code) in KEY_NAMES {
        if !seen.contains(code) {
            seen.push(*code);
            names.push(*name);
        }
    }
    names
}

pub fn start_activity(package: &str, activity: &str) -> String {
    format!("am start -n {}", sh_quote(&format!("{package}/{activity}")))
}

pub fn monkey_launch(package: &str) -> String {
    format!(
        "monkey -p {} -c android.intent.category.LAUNCHER 1",
        sh_quote(package)
    )
}

pub fn resolve_launcher(package: &str) -> String {
    format!(
        "cmd package resolve-activity --brief -c android.intent.category.LAUNCHER {}",
        sh_quote(package)
    )
}

pub const QUERY_LAUNCHER_ACTIVITIES: &str =
    "cmd package query-activities --brief -a android.intent.action.MAIN -c android.intent.category.LAUNCHER";

/// `cmd overlay lookup PACKAGE PACKAGE:string/NAME`: the resource's value in the device's current
/// configuration (its locale).
pub fn string_lookup(package: &str, name: &str) -> String {
    format!(
        "cmd overlay lookup {} {}",
        sh_quote(package),
        sh_quote(&format!("{package}:string/{name}"))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sh_quote_wraps_and_escapes_single_quotes() {
        assert_eq!(sh_quote("abc"), "abc");
        assert_eq!(sh_quote("a=b,c:d/e.f@g+h%i-j_k"), "a=b,c:d/e.f@g+h%i-j_k");
        assert_eq!(sh_quote("a b"), "'a b'");
        assert_eq!(sh_quote("~x"), "'~x'");
        assert_eq!(sh_quote("it's"), "'it'\\''s'");
        assert_eq!(sh_quote(""), "''");
        assert_eq!(
            sh_quote("$(rm -rf /); `x` \"y\""),
            "'$(rm -rf /); `x` \"y\"'"
        );
    }

    fn check_route(text: &str, expect: &str) {
        assert_eq!(text_route(text).command(), expect, "text {text:?}");
    }

    #[test]
    fn ascii_goes_through_input_text_with_spaces_as_percent_s() {
        check_route("hello", "input text hello");
        check_route("hello world", "input text hello%sworld");
        check_route("a;b&&c|d", "input text 'a;b&&c|d'");
        check_route("$(reboot)", "input text '$(reboot)'");
        check_route("`id`", "input text '`id`'");
        check_route("it's", "input text 'it'\\''s'");
        check_route("50% sure", "input text 50%%ssure");
        check_route("~*?<>\\", "input text '~*?<>\\'");
    }

    #[test]
    fn everything_else_goes_by_base64_broadcast() {
        check_route("héllo", "am broadcast -a ADB_INPUT_B64 --es msg aMOpbGxv");
        check_route("a\nb", "am broadcast -a ADB_INPUT_B64 --es msg YQpi");
        check_route("100%s", "am broadcast -a ADB_INPUT_B64 --es msg MTAwJXM=");
        assert!(text_route("안녕").is_broadcast());
        assert!(text_route("مرحبا").is_broadcast());
        assert!(text_route("👍").is_broadcast());
        assert!(text_route("tab\there").is_broadcast());
    }

    #[test]
    fn key_names_and_codes_resolve() {
        assert_eq!(keycode("back"), Some(4));
        assert_eq!(keycode("KEYCODE_HOME"), Some(3));
        assert_eq!(keycode("Volume Up"), Some(24));
        assert_eq!(keycode("recents"), Some(187));
        assert_eq!(keycode("66"), Some(66));
        assert_eq!(keycode("9999"), None);
        assert_eq!(keycode("warp drive"), None);
        assert!(key_names().contains(&"overview") || key_names().contains(&"app_switch"));
    }

    #[test]
    fn launch_commands_quote_their_arguments() {
        assert_eq!(
            start_activity("com.x", "com.x.Main"),
            "am start -n com.x/com.x.Main"
        );
        assert_eq!(
            monkey_launch("a;b"),
            "monkey -p 'a;b' -c android.intent.category.LAUNCHER 1"
        );
    }
}

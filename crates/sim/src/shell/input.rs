//! `input`: touch, key and text injection, with `InputShellCommand`'s argument handling and errors.

use crate::framework::{keycode, Framework, EVENT_MS};
use droidmcp_device::ShellOutput;
use droidmcp_geom::Point;

pub const USAGE: &str = "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are: 
      dpad
      keyboard
      mouse
      touchpad
      gamepad
      touchnavigation
      joystick
      touchscreen
      stylus
      trackball
      rotaryencoder

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--duration <duration to hold key down in ms>] [--doubletap] [--async] [--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)
";

const SOURCES: [&str; 11] = [
    "dpad",
    "keyboard",
    "mouse",
    "touchpad",
    "gamepad",
    "touchnavigation",
    "joystick",
    "touchscreen",
    "stylus",
    "trackball",
    "rotaryencoder",
];

/// A failure inside the command, reported as the Java exception the real tool prints (exit 255).
struct Exception(String);

fn exception(cmd: &str, e: Exception) -> ShellOutput {
    ShellOutput::fail(
        format!("Exception occurred while executing '{cmd}':\n{}\n", e.0),
        255,
    )
}

struct Args<'a> {
    args: &'a [String],
    pos: usize,
}

impl<'a> Args<'a> {
    fn next(&mut self) -> Option<&'a str> {
        let a = self.args.get(self.pos)?;
        self.pos += 1;
        Some(a.as_str())
    }

    fn required(&mut self) -> Result<&'a str, Exception> {
        let prev = self
            .pos
            .checked_sub(1)
            .and_then(|p| self.args.get(p))
            .cloned()
            .unwrap_or_default();
        self.next().ok_or_else(|| {
            Exception(format!(
                "java.lang.IllegalArgumentException: Argument expected after \"{prev}\""
            ))
        })
    }

    fn float(&mut self) -> Result<i32, Exception> {
        let s = self.required()?;
        parse_float(s)
    }
}

fn parse_float(s: &str) -> Result<i32, Exception> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v.clamp(-1e9, 1e9).round() as i32),
        _ => Err(Exception(format!(
            "java.lang.NumberFormatException: For input string: \"{s}\""
        ))),
    }
}

pub fn run(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let mut a = Args { args, pos: 0 };
    let mut cmd = a.next();
    if cmd.is_some_and(|c| SOURCES.contains(&c)) {
        cmd = a.next();
    }
    if cmd == Some("-d") {
        if a.next().is_none() {
            return ShellOutput::fail(format!("Error: missing DISPLAY_ID\n{USAGE}"), 1);
        }
        cmd = a.next();
    }
    let Some(cmd) = cmd else {
        return ShellOutput::fail(USAGE, 1);
    };
    let result = match cmd {
        "text" => text(fw, &mut a),
        "keyevent" => keyevent(fw, &mut a),
        "tap" => (|| {
            let p = Point::new(a.float()?, a.float()?);
            fw.tap(p);
            Ok(ShellOutput::ok(Vec::new()))
        })(),
        "swipe" | "draganddrop" => (|| {
            let from = Point::new(a.float()?, a.float()?);
            let to = Point::new(a.float()?, a.float()?);
            let default = if cmd == "swipe" { 300 } else { 1000 };
            let ms = match a.next() {
                Some(d) => parse_float(d)?.max(0) as i64,
                None => default,
            };
            fw.swipe(from, to, ms, cmd == "swipe");
            Ok(ShellOutput::ok(Vec::new()))
        })(),
        "motionevent" => motion(fw, &mut a),
        "press" => Ok(ShellOutput::ok(Vec::new())),
        "roll" => (|| {
            a.float()?;
            a.float()?;
            Ok(ShellOutput::ok(Vec::new()))
        })(),
        "keycombination" => (|| {
            let mut codes = Vec::new();
            while let Some(k) = a.next() {
                if k == "-t" {
                    a.float()?;
                    continue;
                }
                codes.push(key_code(k)?);
            }
            if codes.len() < 2 {
                return Err(Exception("java.lang.IllegalArgumentException: keycombination requires at least 2 keycodes".into()));
            }
            fw.sys.clock.advance_ms(EVENT_MS);
            // TextView.onKeyShortcut: ctrl with A, X, C or V.
            let ctrl = codes[..codes.len() - 1]
                .iter()
                .any(|c| matches!(*c, keycode::CTRL_LEFT | keycode::CTRL_RIGHT));
            if ctrl {
                match codes[codes.len() - 1] {
                    29 => fw.select_all(),
                    52 => fw.cut(),
                    31 => fw.copy(),
                    50 => fw.paste(),
                    _ => {}
                }
            }
            Ok(ShellOutput::ok(Vec::new()))
        })(),
        other => return ShellOutput::fail(format!("Error: Unknown command: {other}\n{USAGE}"), 1),
    };
    result.unwrap_or_else(|e| exception(cmd, e))
}

/// `input text`: `%s` is a space; only characters on the virtual keyboard's keymap can be typed (the
/// real tool fails on the whole string otherwise).
fn text(fw: &mut Framework, a: &mut Args) -> Result<ShellOutput, Exception> {
    let raw = a.required()?;
    let mut s = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' && chars.peek() == Some(&'s') {
            chars.next();
            s.push(' ');
        } else {
            s.push(c);
        }
    }
    if s.chars()
        .any(|c| !(c == '\n' || c == '\t' || (' '..='~').contains(&c)))
    {
        return Err(Exception(
            "java.lang.NullPointerException: Attempt to get length of null array".into(),
        ));
    }
    let normalized: String = s.chars().filter(|c| *c != '\n').collect();
    fw.type_text(&normalized);
    if s.contains('\n') {
        fw.editor_action();
    }
    Ok(ShellOutput::ok(Vec::new()))
}

fn keyevent(fw: &mut Framework, a: &mut Args) -> Result<ShellOutput, Exception> {
    let mut codes = Vec::new();
    let mut longpress = false;
    let mut doubletap = false;
    while let Some(k) = a.next() {
        match k {
            "--longpress" => longpress = true,
            "--doubletap" => doubletap = true,
            "--async" => {}
            "--delay" | "--duration" => {
                let ms = a.float()?.max(0) as i64;
                fw.sys.clock.advance_ms(ms);
            }
            k => codes.push(key_code(k)?),
        }
    }
    if codes.is_empty() {
        return Err(Exception(
            "java.lang.IllegalArgumentException: Argument expected after \"keyevent\"".into(),
        ));
    }
    for code in codes {
        if longpress {
            fw.sys.clock.advance_ms(500);
        }
        fw.key(code);
        if doubletap {
            fw.key(code);
        }
    }
    Ok(ShellOutput::ok(Vec::new()))
}

fn motion(fw: &mut Framework, a: &mut Args) -> Result<ShellOutput, Exception> {
    let action = a.required()?.to_ascii_uppercase();
    let p = Point::new(a.float()?, a.float()?);
    let now = fw.sys.now_millis();
    match action.as_str() {
        "DOWN" => fw.pending_touch = Some((p, now)),
        "MOVE" => fw.sys.clock.advance_ms(EVENT_MS),
        "UP" => {
            if let Some((start, t0)) = fw.pending_touch.take() {
                let held = (now - t0).max(0);
                fw.swipe(start, p, held.max(1), true);
            }
        }
        "CANCEL" => fw.pending_touch = None,
        other => {
            return Err(Exception(format!(
                "java.lang.IllegalArgumentException: Unknown action: {other}"
            )))
        }
    }
    Ok(ShellOutput::ok(Vec::new()))
}

/// A key by number, `KEYCODE_NAME` or `NAME`.
fn key_code(k: &str) -> Result<i32, Exception> {
    if let Ok(n) = k.parse::<i32>() {
        return Ok(n);
    }
    let name = k.strip_prefix("KEYCODE_").unwrap_or(k).to_ascii_uppercase();
    let code = match name.as_str() {
        "HOME" => keycode::HOME,
        "BACK" => keycode::BACK,
        "CALL" => 5,
        "ENDCALL" => 6,
        "STAR" => keycode::STAR,
        "POUND" => keycode::POUND,
        "DPAD_UP" => 19,
        "DPAD_DOWN" => 20,
        "DPAD_LEFT" => 21,
        "DPAD_RIGHT" => 22,
        "DPAD_CENTER" => 23,
        "VOLUME_UP" => keycode::VOLUME_UP,
        "VOLUME_DOWN" => keycode::VOLUME_DOWN,
        "POWER" => keycode::POWER,
        "CAMERA" => 27,
        "CLEAR" => 28,
        "COMMA" => 55,
        "PERIOD" => 56,
        "TAB" => keycode::TAB,
        "ALT_LEFT" => 57,
        "ALT_RIGHT" => 58,
        "SHIFT_LEFT" => 59,
        "SHIFT_RIGHT" => 60,
        "SPACE" => keycode::SPACE,
        "ENVELOPE" => 65,
        "ENTER" => keycode::ENTER,
        "DEL" => keycode::DEL,
        "GRAVE" => 68,
        "MINUS" => 69,
        "EQUALS" => 70,
        "LEFT_BRACKET" => 71,
        "RIGHT_BRACKET" => 72,
        "BACKSLASH" => 73,
        "SEMICOLON" => 74,
        "APOSTROPHE" => 75,
        "SLASH" => 76,
        "AT" => 77,
        "PLUS" => 81,
        "MENU" => keycode::MENU,
        "NOTIFICATION" => 83,
        "SEARCH" => 84,
        "MEDIA_PLAY_PAUSE" => 85,
        "PAGE_UP" => 92,
        "PAGE_DOWN" => 93,
        "ESCAPE" => 111,
        "FORWARD_DEL" => keycode::FORWARD_DEL,
        "MOVE_HOME" => 122,
        "MOVE_END" => 123,
        "VOLUME_MUTE" => keycode::VOLUME_MUTE,
        "APP_SWITCH" => keycode::APP_SWITCH,
        "SLEEP" => keycode::SLEEP,
        "WAKEUP" => keycode::WAKEUP,
        "PASTE" => 279,
        "COPY" => 278,
        "CUT" => 277,
        "ALL_APPS" => 284,
        "SETTINGS" => 176,
        "BRIGHTNESS_DOWN" => 220,
        "BRIGHTNESS_UP" => 221,
        n if n.len() == 1 && n.as_bytes()[0].is_ascii_digit() => {
            7 + (n.as_bytes()[0] - b'0') as i32
        }
        n if n.len() == 1 && n.as_bytes()[0].is_ascii_uppercase() => {
            29 + (n.as_bytes()[0] - b'A') as i32
        }
        _ => {
            return Err(Exception(format!(
                "java.lang.IllegalArgumentException: Unknown keycode: {k}"
            )))
        }
    };
    Ok(code)
}

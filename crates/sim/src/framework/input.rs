//! Input dispatch: taps, long presses, swipes (scrolling, SeekBars, the shade and overview), the
//! IME's keys and typed text, key events (Back, Home, app switch, volume, power, Enter, Tab), each
//! delivered to the window and view under it as the app's [`UiEvent`]s.

use droidmcp_geom::Point;

use crate::app::{swipe, UiEvent};
use crate::apps;
use crate::keyboard::{self, Key};
use crate::screen::{self, WindowKind};
use crate::system::{pid, Stream};
use crate::telephony;
use crate::view::{class, View, SEEK_BAR_PAD_DP};

use super::{keycode, Framework, Launcher, EVENT_MS};

impl Framework {
    /// A tap at `p` (screen px); taps outside the screen or with the screen off do nothing.
    pub fn tap(&mut self, p: Point) {
        self.sys.clock.advance_ms(EVENT_MS);
        if !self.screen_on {
            return;
        }
        let windows = self.windows();
        let Some((kind, target)) = screen::hit(&windows, p) else {
            return;
        };
        self.activate(kind, &target, p, false);
    }

    /// A touch held still for `ms` ≥ 500: a long click where the view takes one, else a click.
    pub fn long_press(&mut self, p: Point, ms: i64) {
        self.sys.clock.advance_ms(ms.max(0));
        if !self.screen_on {
            return;
        }
        let windows = self.windows();
        let Some((kind, target)) = screen::hit(&windows, p) else {
            return;
        };
        self.activate(kind, &target, p, true);
    }

    pub(super) fn activate(&mut self, kind: WindowKind, target: &View, p: Point, long: bool) {
        let Some(tag) = target.tag.clone() else {
            return;
        };
        match kind {
            WindowKind::Ime => self.ime_key(&tag),
            WindowKind::NavigationBar => match tag.as_str() {
                screen::NAV_BACK => self.key(keycode::BACK),
                screen::NAV_HOME => self.key(keycode::HOME),
                screen::NAV_RECENTS => self.key(keycode::APP_SWITCH),
                _ => {}
            },
            WindowKind::StatusBar => {}
            WindowKind::HeadsUp => self.notification_click(&tag),
            WindowKind::Shade => self.shade_click(&tag),
            WindowKind::Overview => self.overview_click(&tag),
            WindowKind::App => {
                if self.toolbar_click(&tag) {
                    return;
                }
                if long && self.long_press_text(target, p) {
                    if target.class == class::EDIT_TEXT {
                        self.focus = Some((self.foreground_package().to_string(), tag));
                        self.ime_visible = true;
                    }
                    return;
                }
                self.selection = None;
                if let Some((_, max)) = target.range {
                    let value = seek_value(target, max, p, self.sys.metrics.dp(SEEK_BAR_PAD_DP));
                    self.dispatch(UiEvent::Seek { tag, value });
                    return;
                }
                if target.class == class::EDIT_TEXT {
                    self.focus = Some((self.foreground_package().to_string(), tag.clone()));
                    self.ime_visible = !target.no_soft_input;
                }
                if long && target.flags.long_clickable {
                    self.dispatch(UiEvent::LongClick(tag));
                } else if target.flags.clickable || target.class == class::EDIT_TEXT {
                    self.dispatch(UiEvent::Click(tag));
                }
            }
        }
    }

    /// A tap on a heads-up notification: its body opens the app, a button is sent to the app that
    /// posted it as a click on the button's tag.
    pub(super) fn notification_click(&mut self, tag: &str) {
        let Some((package, action)) = tag
            .strip_prefix(screen::NOTIFICATION_PREFIX)
            .and_then(|t| t.split_once('|'))
        else {
            return;
        };
        if action.is_empty() {
            let intent = self
                .sys
                .notifications
                .iter()
                .rev()
                .find(|n| n.package == package && n.heads_up)
                .and_then(|n| n.intent.clone());
            if self.launch(package, Launcher::Home).is_ok() {
                if let Some(intent) = intent {
                    self.deliver_intent(package, &intent);
                }
            }
        } else {
            self.deliver(package, UiEvent::Click(action.to_string()));
        }
    }

    pub(super) fn overview_click(&mut self, tag: &str) {
        if tag == screen::OVERVIEW_CLEAR_ALL {
            let launcher = apps::launcher::PACKAGE;
            let packages: Vec<&'static str> = self
                .stack
                .iter()
                .map(|t| t.package)
                .filter(|p| *p != launcher)
                .collect();
            for p in packages {
                self.stack.retain(|t| t.package != p);
                self.scroll.retain(|(sp, _), _| sp != p);
            }
            self.go_home();
        } else if let Some(id) = tag.strip_prefix(screen::OVERVIEW_TASK_PREFIX) {
            let package = self
                .stack
                .iter()
                .find(|t| t.id.to_string() == id)
                .map(|t| t.package);
            if let Some(package) = package {
                let _ = self.launch(package, Launcher::Home);
            }
        }
    }

    /// A swipe from `from` to `to` over `ms`: scrolls the container under `from`, drags a SeekBar, or
    /// degenerates to a tap / long press when the finger does not move.
    pub fn swipe(&mut self, from: Point, to: Point, ms: i64, fling: bool) {
        let distance = ((to.x - from.x).abs()).max((to.y - from.y).abs());
        if distance <= 8 {
            if ms >= 500 {
                self.long_press(from, ms);
            } else {
                self.sys.clock.advance_ms(ms.max(0));
                self.tap(from);
            }
            return;
        }
        self.sys.clock.advance_ms(ms.max(0) + EVENT_MS);
        if !self.screen_on {
            return;
        }
        if self.shade_open {
            self.shade_swipe(from, to);
            return;
        }
        // A swipe down that starts on the status bar pulls the shade down.
        if from.y < self.sys.metrics.content.top && to.y - from.y > self.sys.metrics.dp(48.0) {
            self.expand_notifications();
            return;
        }
        let windows = self.windows();
        let Some(app) = windows.iter().find(|w| w.kind.is_app_content()) else {
            return;
        };
        // The window under the finger takes the gesture even where nothing in it is clickable (a
        // list's padding, a row of sliders).
        if screen::window_at(&windows, from) != Some(app.kind) {
            return;
        }
        if let Some(tag) =
            screen::find_at(&app.root, from, &|v| v.draws).and_then(|v| v.tag.clone())
        {
            self.dispatch(UiEvent::Stroke { tag, from, to });
            return;
        }
        // The innermost container under the finger that can actually scroll takes the gesture;
        // otherwise the app gets it as a directional swipe.
        let scrollable = |v: &View| {
            v.flags.scrollable
                && v.tag
                    .as_ref()
                    .and_then(|t| app.scrollables.get(t))
                    .is_some_and(|s| s.limit > 0)
        };
        let container = screen::find_at(&app.root, from, &scrollable).and_then(|c| {
            let tag = c.tag.clone()?;
            let limits = app.scrollables.get(&tag).copied()?;
            Some((tag, limits))
        });
        if let Some(seek) = screen::find_at(&app.root, from, &|v| v.range.is_some()) {
            // AbsSeekBar in a scrolling container waits for the finger to pass the touch slop
            // sideways before it drags, while the container intercepts as soon as the finger passes
            // it along its axis: a swipe mostly along the list scrolls it, as on a phone.
            let (dx, dy) = ((to.x - from.x).abs(), (to.y - from.y).abs());
            let list_wins =
                container
                    .as_ref()
                    .is_some_and(|(_, l)| if l.horizontal { dx > 0 } else { dy >= dx });
            if !list_wins {
                if let (Some(tag), Some((_, max))) = (seek.tag.clone(), seek.range) {
                    let value = seek_value(seek, max, to, self.sys.metrics.dp(SEEK_BAR_PAD_DP));
                    self.dispatch(UiEvent::Seek { tag, value });
                }
                return;
            }
        }
        let Some((tag, limits)) = container else {
            let (dx, dy) = (to.x - from.x, to.y - from.y);
            let direction = if dy.abs() >= dx.abs() {
                if dy < 0 {
                    swipe::UP
                } else {
                    swipe::DOWN
                }
            } else if dx < 0 {
                swipe::LEFT
            } else {
                swipe::RIGHT
            };
            if app.kind == WindowKind::App {
                self.dispatch(UiEvent::Click(direction.to_string()));
            }
            return;
        };
        let delta = if limits.horizontal {
            from.x - to.x
        } else {
            from.y - to.y
        };
        let velocity = delta.abs() as f64 / ms.max(1) as f64;
        let extra = if fling {
            (velocity - 1.5).clamp(0.0, 3.0)
        } else {
            0.0
        };
        let total = delta as f64 * (1.0 + extra);
        let key = (app.package.clone(), tag);
        let current = self
            .scroll
            .get(&key)
            .copied()
            .unwrap_or(0)
            .min(limits.limit);
        let next = (current as f64 + total)
            .round()
            .clamp(0.0, limits.limit as f64) as i32;
        self.scroll.insert(key, next);
    }

    pub(super) fn ime_key(&mut self, tag: &str) {
        match keyboard::key_for_tag(tag, self.keyboard) {
            Some(Key::Type(s)) => {
                self.type_text(&s);
                if self.keyboard.shift && !self.keyboard.symbols {
                    self.keyboard.shift = false;
                }
            }
            Some(Key::Delete) => self.delete_backward(),
            Some(Key::Enter) => self.editor_action(),
            Some(Key::Shift) => self.keyboard.shift = !self.keyboard.shift,
            Some(Key::Symbols) => {
                self.keyboard.symbols = !self.keyboard.symbols;
                self.keyboard.shift = false;
            }
            None => {}
        }
    }

    /// The focused editable's current text, as the foreground app renders it.
    pub(crate) fn focused_text(&mut self) -> Option<(String, String)> {
        let (package, tag) = self.focus.clone()?;
        if package != self.foreground_package() || self.overview {
            return None;
        }
        self.refresh_metrics();
        let task = self.stack.last()?;
        let tree = task.app.render(&self.sys);
        match tree.find_by_tag(&tag) {
            Some(v) => Some((tag, v.text.clone())),
            None => {
                self.hide_ime();
                None
            }
        }
    }

    /// Types text into the focused field, one character at a time as key events would; nothing
    /// happens when no field has focus.
    pub fn type_text(&mut self, text: &str) {
        if self.type_over_selection(text) {
            self.sys
                .clock
                .advance_ms(EVENT_MS * text.chars().count() as i64);
            return;
        }
        for c in text.chars() {
            self.sys.clock.advance_ms(EVENT_MS);
            let Some((tag, mut current)) = self.focused_text() else {
                return;
            };
            current.push(c);
            self.dispatch(UiEvent::TextChanged { tag, text: current });
        }
    }

    /// Replaces the focused field's whole text (ADBKeyboard's clear and set).
    pub fn set_text(&mut self, text: &str) {
        self.sys.clock.advance_ms(EVENT_MS);
        if let Some((tag, _)) = self.focused_text() {
            self.dispatch(UiEvent::TextChanged {
                tag,
                text: text.to_string(),
            });
        }
    }

    pub(super) fn delete_backward(&mut self) {
        if self.type_over_selection("") {
            return;
        }
        if let Some((tag, mut current)) = self.focused_text() {
            if current.pop().is_some() {
                self.dispatch(UiEvent::TextChanged { tag, text: current });
            }
        }
    }

    /// The IME action (ENTER) in the focused field.
    pub fn editor_action(&mut self) {
        if let Some((tag, _)) = self.focused_text() {
            self.dispatch(UiEvent::EditorAction(tag));
        }
    }

    pub(super) fn go_home(&mut self) {
        self.collapse_panels();
        self.hide_ime();
        let was_home = !self.overview && self.foreground_package() == apps::launcher::PACKAGE;
        self.overview = false;
        if was_home {
            // Home on the home screen closes the app drawer / returns to the first page.
            self.dispatch(UiEvent::Back);
            return;
        }
        if let Some(pos) = self
            .stack
            .iter()
            .position(|t| t.package == apps::launcher::PACKAGE)
        {
            let task = self.stack.remove(pos);
            self.push_front(task);
        }
    }

    pub(super) fn back(&mut self) {
        if self.shade_open {
            self.collapse_panels();
            return;
        }
        if self.selection.take().is_some() {
            // Back first finishes the text action mode.
            return;
        }
        if self.ime_visible {
            // Back first dismisses the keyboard; focus stays in the field.
            self.ime_visible = false;
            return;
        }
        if self.overview {
            self.overview = false;
            return;
        }
        let handled = self.dispatch(UiEvent::Back);
        if handled || self.foreground_package() == apps::launcher::PACKAGE {
            return;
        }
        // Android 12+: back on a task's root activity moves the task behind the others.
        if let Some(task) = self.stack.pop() {
            self.hide_ime();
            self.stack.insert(0, task);
        }
    }

    /// A key press by `KeyEvent` code.
    pub fn key(&mut self, code: i32) {
        self.sys.clock.advance_ms(EVENT_MS);
        match code {
            keycode::POWER => {
                self.screen_on = !self.screen_on;
                let msg = if self.screen_on {
                    "Waking up from Asleep (uid=1000, reason=WAKE_REASON_POWER_BUTTON, details=android.policy:POWER)..."
                } else {
                    "Going to sleep due to power_button (uid 1000)..."
                };
                self.sys
                    .log(pid::SYSTEM_SERVER, 'I', "PowerManagerService", msg);
                return;
            }
            keycode::WAKEUP => {
                if !self.screen_on {
                    self.screen_on = true;
                    self.sys.log(pid::SYSTEM_SERVER, 'I', "PowerManagerService", "Waking up from Asleep (uid=2000, reason=WAKE_REASON_WAKE_KEY, details=android.policy:KEY)...");
                }
                return;
            }
            keycode::SLEEP => {
                if self.screen_on {
                    self.screen_on = false;
                    self.sys.log(
                        pid::SYSTEM_SERVER,
                        'I',
                        "PowerManagerService",
                        "Going to sleep due to sleep_button (uid 1000)...",
                    );
                }
                return;
            }
            // PhoneWindowManager: ENDCALL hangs up (or declines) a call, else puts the phone to
            // sleep; CALL answers a ringing call.
            keycode::ENDCALL => {
                let call = self.sys.telephony.foreground().map(|c| c.id);
                match call {
                    Some(id) => {
                        let _ = telephony::end(&mut self.sys, id, telephony::Ending::Local);
                        self.telephony_changed();
                    }
                    None if self.screen_on => {
                        self.screen_on = false;
                        self.sys.log(
                            pid::SYSTEM_SERVER,
                            'I',
                            "PowerManagerService",
                            "Going to sleep due to power_button (uid 1000)...",
                        );
                    }
                    None => {}
                }
                return;
            }
            keycode::CALL => {
                let ringing = self
                    .sys
                    .telephony
                    .foreground()
                    .filter(|c| c.status == telephony::Status::Ringing)
                    .map(|c| c.id);
                if let Some(id) = ringing {
                    let _ = telephony::answer(&mut self.sys, id);
                    self.telephony_changed();
                }
                return;
            }
            keycode::VOLUME_UP | keycode::VOLUME_DOWN | keycode::VOLUME_MUTE => {
                let current = self.sys.volume(Stream::Music);
                let next = match code {
                    keycode::VOLUME_UP => current + 1,
                    keycode::VOLUME_DOWN => current - 1,
                    _ => 0,
                };
                self.sys.log(
                    pid::SYSTEMUI,
                    'I',
                    "vol.Events",
                    format!(
                        "writeEvent key {} {}",
                        Stream::Music.name(),
                        code == keycode::VOLUME_UP
                    ),
                );
                self.sys.set_volume(Stream::Music, next);
                return;
            }
            _ => {}
        }
        if !self.screen_on {
            return;
        }
        match code {
            keycode::HOME => self.go_home(),
            keycode::BACK => self.back(),
            // PhoneWindowManager: KEYCODE_NOTIFICATION toggles the notification panel.
            keycode::NOTIFICATION => {
                if self.shade_open {
                    self.collapse_panels();
                } else {
                    self.expand_notifications();
                }
            }
            keycode::APP_SWITCH => {
                self.collapse_panels();
                self.hide_ime();
                self.overview = !self.overview;
            }
            keycode::ENTER => self.editor_action(),
            keycode::DEL => self.delete_backward(),
            keycode::CUT => self.cut(),
            keycode::COPY => self.copy(),
            keycode::PASTE => self.paste(),
            keycode::TAB => self.focus_next(),
            _ => {
                if let Some(c) = typed_char(code) {
                    self.type_text(&c.to_string());
                }
            }
        }
    }

    /// TAB: moves focus to the next editable field of the foreground app.
    pub(super) fn focus_next(&mut self) {
        let Some(window) = self.app_window() else {
            return;
        };
        let mut fields = Vec::new();
        screen::collect(&window.root, &mut |v| {
            if v.class == class::EDIT_TEXT {
                if let Some(t) = &v.tag {
                    fields.push(t.clone());
                }
            }
        });
        if fields.is_empty() {
            return;
        }
        let current = self.focus.as_ref().map(|(_, t)| t.clone());
        let next = match current.and_then(|c| fields.iter().position(|f| *f == c)) {
            Some(i) => fields[(i + 1) % fields.len()].clone(),
            None => fields[0].clone(),
        };
        self.focus = Some((window.package.clone(), next));
        self.ime_visible = true;
    }
}

/// The character a key code types on a US keyboard, if any.
pub fn typed_char(code: i32) -> Option<char> {
    Some(match code {
        7..=16 => (b'0' + (code - 7) as u8) as char,
        29..=54 => (b'a' + (code - 29) as u8) as char,
        keycode::STAR => '*',
        keycode::POUND => '#',
        keycode::SPACE => ' ',
        55 => ',',
        56 => '.',
        68 => '`',
        69 => '-',
        70 => '=',
        71 => '[',
        72 => ']',
        73 => '\\',
        74 => ';',
        75 => '\'',
        76 => '/',
        77 => '@',
        81 => '+',
        _ => return None,
    })
}

/// The value a touch at `p` gives a seek bar, as `AbsSeekBar.trackTouchEvent`: the position along
/// the track inside the padding, measured from the right end when the bar is laid out right to
/// left (`mirrorForRtl`: volume and brightness grow leftwards in Arabic and Urdu), clamped to the
/// ends.
fn seek_value(seek: &View, max: i32, p: Point, pad: i32) -> i32 {
    let b = seek.bounds;
    let pad = pad.min(b.width() / 4);
    let available = b.width() - 2 * pad;
    if available <= 0 {
        return 0;
    }
    let from_start = if seek.style.rtl {
        b.right - pad - p.x
    } else {
        p.x - (b.left + pad)
    };
    let frac = from_start as f64 / available as f64;
    (frac.clamp(0.0, 1.0) * max as f64).round() as i32
}

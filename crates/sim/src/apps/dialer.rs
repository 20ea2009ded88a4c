//! Phone (com.google.android.dialer): the main screen with Favorites / Recents / Contacts tabs,
//! the dialpad, and the in-call screen (InCallUI), with resource ids as the Google Dialer reports
//! them (`com.android.dialer:id/…`, its AOSP resource package).
//!
//! Calls live in Telecom ([`crate::telephony`]): the dialpad places them there, ACTION_CALL
//! intents arrive already placed, a ringing call is InCallUI's notification ([`notifier`]: a
//! heads-up with Decline and Answer while the phone is in use) whose full-screen intent or body
//! brings up the incoming screen (Answer / Decline, the Dialer's two-button answer method), and
//! the in-call screen shows the foreground call with a timer read from the simulated clock.
//! Telecom writes the call log when a call ends.

use crate::app::Intent;
use crate::app::{App, AppInfo, UiEvent};
use crate::apps::communication::{
    self, at, filled, palette, text_style, DIALER_PACKAGE, DIALER_PID,
};
use crate::locale;
use crate::providers::{calllog, contacts, now_ms, phone_number};
use crate::system::{Request, System};
use crate::telephony::{self, Ending, Status};
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

mod dialpad;
#[cfg(test)]
mod heads_up_tests;
mod in_call;
mod notifier;
mod tabs;

use dialpad::{dialpad_sheet, render_dialpad};
use in_call::{render_in_call, render_incoming};
use tabs::{render_contacts_tab, render_favorites, render_recents};

pub use notifier::{ACTION_ANSWER, ACTION_DECLINE};

pub const PACKAGE: &str = DIALER_PACKAGE;
const MAIN_ACTIVITY: &str = "com.google.android.dialer.extensions.GoogleDialtactsActivity";
const INCALL_ACTIVITY: &str = "com.android.incallui.InCallActivity";

/// A resource id in the dialer's resource package.
/// A string of the Phone app's `res/` in the phone's locale.
fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("com.android.dialer:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: MAIN_ACTIVITY,
        create: |sys| {
            sys.log(DIALER_PID, 'I', "Dialer", "MainActivity.onCreate - enter");
            Box::new(Dialer::default())
        },
        install,
        on_home_screen: true,
    }
}

/// Creates the call log with a few past calls on first boot.
fn install(sys: &mut System) {
    use rand::Rng;
    let Ok(conn) = calllog::open(sys) else {
        return;
    };
    if calllog::count(&conn).unwrap_or(1) > 0 {
        return;
    }
    let now = now_ms(sys);
    let mut at_ms = now - 26 * 3_600_000;
    for _ in 0..4 {
        let number = format!(
            "{}555{:04}",
            ["650", "415", "212", "312"][sys.rng.gen_range(0..4)],
            sys.rng.gen_range(100..10_000)
        );
        let kind = [calllog::INCOMING, calllog::OUTGOING, calllog::MISSED][sys.rng.gen_range(0..3)];
        let duration = if kind == calllog::MISSED {
            0
        } else {
            sys.rng.gen_range(20..600)
        };
        at_ms -= sys.rng.gen_range(1..30) * 3_600_000;
        let call = calllog::Call {
            number: number.clone(),
            date: at_ms,
            duration,
            kind,
            name: None,
            number_type: None,
            normalized: phone_number::normalize(&number),
        };
        if calllog::insert(&conn, &call).is_err() {
            return;
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Tab {
    Favorites,
    #[default]
    Recents,
    Contacts,
}

/// What the in-call screen keeps of its own; the call itself is Telecom's.
#[derive(Debug, Clone, Default, PartialEq)]
struct CallScreen {
    muted: bool,
    speaker: bool,
    keypad: bool,
    dtmf: String,
    /// Shown for an intent or a ringing call rather than from the dialpad: when the call ends the
    /// screen finishes and what was under it shows again.
    finish_on_end: bool,
}

#[derive(Debug, Clone, Default)]
struct Dialer {
    tab: Tab,
    dialpad: bool,
    /// What the user typed, without formatting.
    digits: String,
    /// The in-call screen, while it is up.
    in_call: Option<CallScreen>,
}

impl Dialer {
    fn place_call(&mut self, sys: &mut System, number: &str) {
        let number = phone_number::strip_separators(number);
        if number.is_empty() {
            return;
        }
        telephony::place_call(sys, &number);
        sys.log(DIALER_PID, 'I', "Dialer", "InCallActivity.onCreate - enter");
        self.digits.clear();
        self.dialpad = false;
        self.in_call = Some(CallScreen::default());
    }

    /// Brings the in-call screen in line with Telecom after a change made elsewhere: it goes when
    /// the last call does. A new call does not bring it up (`InCallPresenter.startOrFinishUi`
    /// shows it only for an outgoing call); a ringing one comes through the notification.
    fn sync(&mut self, sys: &mut System) {
        if sys.telephony.foreground().is_none() && self.in_call.is_some() {
            self.close_call_screen(sys);
        }
    }

    /// Shows the in-call screen (`InCallPresenter.showInCall`, the notification's intents), set to
    /// finish when its calls end and leave what was under it.
    fn show_in_call(&mut self, sys: &mut System) {
        if self.in_call.is_none() && sys.telephony.foreground().is_some() {
            sys.log(DIALER_PID, 'I', "Dialer", "InCallActivity.onCreate - enter");
            self.in_call = Some(CallScreen {
                finish_on_end: true,
                ..CallScreen::default()
            });
        }
    }

    /// The notification's buttons (`NotificationBroadcastReceiver`): Answer answers the ringing
    /// call and shows the in-call screen; Decline rejects it. None when `action` is not theirs.
    fn notification_action(&mut self, action: &str, sys: &mut System) -> Option<bool> {
        if action != ACTION_ANSWER && action != ACTION_DECLINE {
            return None;
        }
        let Some(id) = notifier::ringing(sys).map(|c| c.id) else {
            return Some(false);
        };
        if action == ACTION_ANSWER {
            let _ = telephony::answer(sys, id);
            self.show_in_call(sys);
            sys.request(Request::Launch {
                package: PACKAGE.to_string(),
                intent: None,
            });
        } else {
            let _ = telephony::end(sys, id, Ending::Local);
            if sys.telephony.foreground().is_none() {
                self.close_call_screen(sys);
            }
        }
        Some(true)
    }

    fn close_call_screen(&mut self, sys: &mut System) {
        if let Some(screen) = self.in_call.take() {
            if screen.finish_on_end {
                sys.request(Request::FinishTask {
                    package: PACKAGE.to_string(),
                });
            }
        }
    }

    /// Ends (or declines) the call on screen.
    fn end_call(&mut self, sys: &mut System) {
        if let Some(id) = sys.telephony.foreground().map(|c| c.id) {
            let _ = telephony::end(sys, id, Ending::Local);
        }
        if sys.telephony.foreground().is_none() {
            self.close_call_screen(sys);
        }
    }

    fn press_key(&mut self, key: char) {
        if let Some(screen) = self.in_call.as_mut() {
            screen.dtmf.push(key);
        } else if self.digits.len() < 40 {
            self.digits.push(key);
        }
    }
}

/// The caller as the in-call screen names them: the contact's name and phone type, if known.
fn caller(sys: &System, number: &str) -> (Option<String>, Option<String>) {
    let matched = contacts::open(sys)
        .ok()
        .and_then(|c| contacts::lookup_number(&c, number).ok().flatten());
    let label = matched.as_ref().map(|c| {
        let kind = c
            .phones
            .iter()
            .find(|(n, _)| phone_number::same_line(n, number))
            .map(|(_, t)| *t)
            .unwrap_or(2);
        contacts::phone_type_label(kind).to_string()
    });
    (matched.map(|c| c.name), label)
}

impl App for Dialer {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        if self.in_call.is_some() {
            INCALL_ACTIVITY.to_string()
        } else {
            MAIN_ACTIVITY.to_string()
        }
    }

    fn render(&self, sys: &System) -> View {
        match (&self.in_call, sys.telephony.foreground()) {
            (Some(_), Some(call)) if call.status == Status::Ringing => render_incoming(sys, call),
            (Some(screen), Some(call)) => render_in_call(sys, call, screen),
            _ => self.render_main(sys),
        }
    }

    fn new_intent(&mut self, intent: &Intent, sys: &mut System) {
        let number =
            communication::intent_number(intent).map(|n| phone_number::strip_separators(&n));
        match intent.action.as_deref() {
            // Telecom's ACTION_CALL: place the call, then show it until it ends.
            Some(communication::ACTION_CALL) => {
                if let Some(number) = number.filter(|n| !n.is_empty()) {
                    self.place_call(sys, &number);
                    if let Some(screen) = self.in_call.as_mut() {
                        screen.finish_on_end = true;
                    }
                }
            }
            Some(communication::ACTION_DIAL) => {
                self.dialpad = true;
                self.digits = number.unwrap_or_default();
            }
            // InCallUI's notification: its body or its full-screen intent.
            Some("android.intent.action.MAIN")
                if intent.extra(notifier::EXTRA_FOR_FULL_SCREEN).is_some() =>
            {
                self.show_in_call(sys);
            }
            // The missed-call notification opens the call log.
            Some("android.intent.action.VIEW")
                if intent.mime.as_deref() == Some("vnd.android.cursor.dir/calls") =>
            {
                self.dialpad = false;
                self.tab = Tab::Recents;
            }
            _ => {}
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if matches!(event, UiEvent::Broadcast(a) if a == telephony::ACTION_PHONE_STATE) {
            self.sync(sys);
            return true;
        }
        if let UiEvent::Click(tag) = event {
            if let Some(handled) = self.notification_action(tag, sys) {
                return handled;
            }
        }
        if self.in_call.is_some() && sys.telephony.foreground().is_some() {
            return self.handle_in_call(event, sys);
        }
        if self.in_call.is_some() {
            // The call ended while the screen was away; show the main screen again.
            self.in_call = None;
        }
        match event {
            UiEvent::Click(tag) => match tag.as_str() {
                "tab:favorites" => self.tab = Tab::Favorites,
                "tab:recents" => self.tab = Tab::Recents,
                "tab:contacts" => self.tab = Tab::Contacts,
                "fab" => {
                    self.dialpad = true;
                    sys.log(
                        DIALER_PID,
                        'I',
                        "Dialer",
                        "DialpadFragment.onCreateView - enter",
                    );
                }
                "digits" => {}
                "delete" => {
                    self.digits.pop();
                }
                "dial" => {
                    if self.digits.is_empty() {
                        self.digits = calllog::open(sys)
                            .and_then(|c| calllog::last_outgoing(&c))
                            .ok()
                            .flatten()
                            .unwrap_or_default();
                    } else {
                        let number = self.digits.clone();
                        self.place_call(sys, &number);
                    }
                }
                "create_contact" => {
                    let number = self.digits.clone();
                    communication::send_intent(
                        sys,
                        communication::CONTACTS_PACKAGE,
                        communication::insert_contact_intent(&number),
                    );
                }
                // SENDTO resolves to the default SMS app (the SMS role's holder).
                "send_message" => {
                    let number = self.digits.clone();
                    communication::text_from(sys, &number);
                }
                other => {
                    if let Some(key) = other.strip_prefix("key:").and_then(|k| k.chars().next()) {
                        self.press_key(key);
                    } else if let Some(number) = other.strip_prefix("call:") {
                        let number = number.to_string();
                        self.place_call(sys, &number);
                    } else if let Some(number) = other.strip_prefix("sms:") {
                        let number = number.to_string();
                        communication::text_from(sys, &number);
                    } else if let Some(id) = other.strip_prefix("contact:") {
                        match id.parse() {
                            Ok(id) => communication::send_intent(
                                sys,
                                communication::CONTACTS_PACKAGE,
                                communication::view_contact_intent(id),
                            ),
                            Err(_) => return false,
                        }
                    } else {
                        return false;
                    }
                }
            },
            UiEvent::LongClick(tag) if tag == "delete" => self.digits.clear(),
            UiEvent::LongClick(tag) if tag == "key:0" => self.digits.push('+'),
            UiEvent::TextChanged { tag, text } if tag == "digits" => {
                self.digits = text
                    .chars()
                    .filter(|c| c.is_ascii_digit() || matches!(c, '*' | '#' | '+' | ',' | ';'))
                    .collect();
            }
            UiEvent::EditorAction(tag) if tag == "digits" => {
                let number = self.digits.clone();
                self.place_call(sys, &number);
            }
            UiEvent::Back if self.dialpad => {
                self.dialpad = false;
                self.digits.clear();
            }
            _ => return false,
        }
        true
    }
}

impl Dialer {
    fn handle_in_call(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Some(call) = sys.telephony.foreground().cloned() else {
            return false;
        };
        let Some(screen) = self.in_call.as_mut() else {
            return false;
        };
        match event {
            UiEvent::Click(tag) => match tag.as_str() {
                "answer" if call.status == Status::Ringing => {
                    let _ = telephony::answer(sys, call.id);
                }
                "decline" | "end_call" => self.end_call(sys),
                _ if call.status == Status::Ringing => return false,
                "mute" => screen.muted = !screen.muted,
                "speaker" => screen.speaker = !screen.speaker,
                "hold" => {
                    let _ = telephony::set_held(sys, call.id, call.status != Status::Held);
                }
                "keypad" => screen.keypad = !screen.keypad,
                "add_call" => {}
                other => match other.strip_prefix("key:").and_then(|k| k.chars().next()) {
                    Some(key) => self.press_key(key),
                    None => return false,
                },
            },
            UiEvent::Back if screen.keypad => screen.keypad = false,
            // Back leaves InCallUI running on a real phone; here the call screen stays up.
            UiEvent::Back => {}
            _ => return false,
        }
        true
    }

    fn render_main(&self, sys: &System) -> View {
        let m = sys.metrics;
        let p = palette(sys);
        let c = m.content;
        let nav_height = m.dp(80.0);
        let mut body = Bounds::new(c.left, c.top + m.dp(72.0), c.right, c.bottom - nav_height);
        if self.dialpad {
            // The dial pad covers the list's lower part: rows under it are not on screen, so
            // they are neither in the dump nor tappable through the pad.
            body.bottom = body.bottom.min(dialpad_sheet(sys).top).max(body.top);
        }
        let mut root = communication::root(sys).child(
            View::new(
                class::VIEW_GROUP,
                at(
                    c,
                    m.dp(16.0),
                    m.dp(12.0),
                    c.width() - m.dp(32.0),
                    m.dp(48.0),
                ),
            )
            .id(id("search_view_placeholder"))
            .style(filled(p.card, p.secondary_text, m.dp(24.0)))
            .child(
                View::new(
                    class::TEXT_VIEW,
                    at(
                        c,
                        m.dp(64.0),
                        m.dp(24.0),
                        c.width() - m.dp(96.0),
                        m.sp(24.0),
                    ),
                )
                .id(id("search_box_start_search"))
                .text(tr(sys, "search_hint"))
                .style(text_style(16.0, p.secondary_text)),
            ),
        );
        root = root.child(match self.tab {
            Tab::Favorites => render_favorites(sys, body),
            Tab::Recents => render_recents(sys, body),
            Tab::Contacts => render_contacts_tab(sys, body),
        });
        let nav = Bounds::new(c.left, c.bottom - nav_height, c.right, c.bottom);
        let tabs = [
            (
                Tab::Favorites,
                "speed_dial_tab",
                tr(sys, "tab_favorites"),
                "tab:favorites",
                "star",
            ),
            (
                Tab::Recents,
                "call_log_tab",
                tr(sys, "tab_recents"),
                "tab:recents",
                "history",
            ),
            (
                Tab::Contacts,
                "contacts_tab",
                tr(sys, "tab_contacts"),
                "tab:contacts",
                "people",
            ),
        ];
        let tab_width = nav.width() / tabs.len() as i32;
        let mut bar = View::new(class::LINEAR_LAYOUT, nav)
            .id(id("bottom_nav_bar"))
            .style(Style {
                background: Some(p.surface),
                ..Style::default()
            });
        for (i, (tab, tab_id, label, tag, icon)) in tabs.into_iter().enumerate() {
            let b = Bounds::new(
                nav.left + tab_width * i as i32,
                nav.top,
                nav.left + tab_width * (i as i32 + 1),
                nav.bottom,
            );
            let selected = tab == self.tab;
            let color = if selected { p.accent } else { p.secondary_text };
            bar = bar.child(
                View::new(class::FRAME_LAYOUT, b)
                    .id(id(tab_id))
                    .desc(label)
                    .on_click(tag)
                    .selected(selected)
                    .child(
                        View::new(
                            class::IMAGE_VIEW,
                            at(
                                b,
                                (b.width() - m.dp(24.0)) / 2,
                                m.dp(14.0),
                                m.dp(24.0),
                                m.dp(24.0),
                            ),
                        )
                        .id(id("bottom_nav_item_image"))
                        .selected(selected)
                        .style(Style {
                            icon: Some(icon),
                            text_color: Some(color),
                            ..Style::default()
                        }),
                    )
                    .child(
                        View::new(
                            class::TEXT_VIEW,
                            at(b, 0, m.dp(44.0), b.width(), m.sp(20.0)),
                        )
                        .id(id("bottom_nav_item_text"))
                        .text(label)
                        .selected(selected)
                        .style(Style {
                            center_text: true,
                            ..text_style(12.0, color)
                        }),
                    ),
            );
        }
        root = root.child(bar);
        if self.dialpad {
            root = root.child(render_dialpad(sys, &self.digits));
        } else {
            root = root.child(
                communication::fab(
                    sys,
                    Bounds::new(c.left, c.top, c.right, nav.top),
                    "",
                    "key pad",
                    "dialpad",
                )
                .id(id("fab"))
                .on_click("fab"),
            );
        }
        root
    }
}

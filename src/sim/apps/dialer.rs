//! Phone (com.google.android.dialer): the main screen with Favorites / Recents / Contacts tabs,
//! the dialpad, and the in-call screen (InCallUI), with resource ids as the Google Dialer reports
//! them (`com.android.dialer:id/…`, its AOSP resource package).
//!
//! Calls live in Telecom ([`crate::sim::telephony`]): the dialpad places them there, ACTION_CALL
//! intents arrive already placed, a ringing call is InCallUI's notification ([`notifier`]: a
//! heads-up with Decline and Answer while the phone is in use) whose full-screen intent or body
//! brings up the incoming screen (Answer / Decline, the Dialer's two-button answer method), and
//! the in-call screen shows the foreground call with a timer read from the simulated clock.
//! Telecom writes the call log when a call ends.

use crate::geom::Bounds;
use crate::sim::app::Intent;
use crate::sim::app::{App, AppInfo, UiEvent};
use crate::sim::apps::communication::{
    self, at, filled, palette, text_style, DIALER_PACKAGE, DIALER_PID,
};
use crate::sim::locale;
use crate::sim::providers::{calllog, contacts, now_ms, phone_number};
use crate::sim::system::{Request, System};
use crate::sim::telephony::{self, Ending, Status};
use crate::sim::view::{class, Style, View};

#[cfg(test)]
mod heads_up_tests;
mod notifier;

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

/// Google Dialer's colour for a missed call's arrow (`colorError`).
const MISSED_RED: [u8; 4] = [217, 48, 37, 255];

fn render_recents(sys: &System, body: Bounds) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let entries = calllog::open(sys)
        .and_then(|c| calllog::recent(&c, 100))
        .unwrap_or_default();
    let mut list = View::new(class::RECYCLER_VIEW, body)
        .id(id("new_call_log_recycler_view"))
        .scrollable("recents_list");
    if entries.is_empty() {
        return list.child(
            View::new(
                class::TEXT_VIEW,
                at(body, 0, m.dp(120.0), body.width(), m.sp(24.0)),
            )
            .id(id("empty_list_view_message"))
            .text(tr(sys, "no_recent_calls"))
            .style(Style {
                center_text: true,
                ..text_style(16.0, p.secondary_text)
            }),
        );
    }
    let row_height = m.dp(72.0);
    for (i, e) in entries.iter().enumerate() {
        let b = communication::row_bounds(body, body.top, row_height, i);
        let shown = e
            .name
            .clone()
            .unwrap_or_else(|| phone_number::format_for_display(&e.number));
        let (kind, kind_icon, kind_color) = match e.kind {
            calllog::INCOMING => (tr(sys, "incoming_call"), "call_received", p.secondary_text),
            // Google Dialer draws a missed call's arrow in its error red. It has no icon of its
            // own for a declined call (REJECTED, what KEYCODE_ENDCALL on a ringing call logs):
            // CallTypeIconsView shows every type it does not know as missed.
            calllog::MISSED | calllog::REJECTED => {
                (tr(sys, "missed_call"), "call_missed", MISSED_RED)
            }
            _ => (tr(sys, "outgoing_call"), "call_made", p.secondary_text),
        };
        let when = communication::short_time(sys, e.date);
        let row = communication::two_line_row(
            sys,
            b,
            (&id("primary_text"), &id("secondary_text")),
            &shown,
            &when,
            &format!("call:{}", e.number),
        )
        .id(id("call_log_entry_root"))
        // What a tap on the row does comes first, as Google Dialer says it ("Call …").
        .desc(format!(
            "{}, {kind}, {when}.",
            locale::format(&sys.locale, PACKAGE, "call_number", &[&shown])
        ))
        .child(
            View::new(
                class::IMAGE_VIEW,
                at(
                    b,
                    b.width() - m.dp(92.0),
                    (row_height - m.dp(20.0)) / 2,
                    m.dp(20.0),
                    m.dp(20.0),
                ),
            )
            .id(id("call_type_icons"))
            .style(Style {
                icon: Some(kind_icon),
                text_color: Some(kind_color),
                ..Style::default()
            }),
        )
        .child(
            View::new(
                class::IMAGE_VIEW,
                at(
                    b,
                    b.width() - m.dp(64.0),
                    (row_height - m.dp(48.0)) / 2,
                    m.dp(48.0),
                    m.dp(48.0),
                ),
            )
            .id(id("call_button"))
            .desc(locale::format(
                &sys.locale,
                PACKAGE,
                "call_number",
                &[&shown],
            ))
            .on_click(format!("call:{}", e.number))
            .style(Style {
                icon: Some("call"),
                text_color: Some(p.accent),
                ..Style::default()
            }),
        );
        list = list.child(row);
    }
    list
}

fn render_favorites(sys: &System, body: Bounds) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let starred: Vec<contacts::Contact> = contacts::open(sys)
        .and_then(|c| contacts::all(&c))
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.starred)
        .collect();
    let mut list = View::new(class::RECYCLER_VIEW, body)
        .id(id("speed_dial_recycler_view"))
        .scrollable("favorites_list");
    if starred.is_empty() {
        return list.child(
            View::new(
                class::TEXT_VIEW,
                at(body, 0, m.dp(120.0), body.width(), m.sp(24.0)),
            )
            .id(id("empty_list_view_message"))
            .text(tr(sys, "no_favorites"))
            .style(Style {
                center_text: true,
                ..text_style(16.0, p.secondary_text)
            }),
        );
    }
    let row_height = m.dp(72.0);
    for (i, c) in starred.iter().enumerate() {
        let b = communication::row_bounds(body, body.top, row_height, i);
        let number = c.primary_phone().unwrap_or("").to_string();
        list = list.child(
            communication::two_line_row(
                sys,
                b,
                (&id("name"), &id("phone_type")),
                &c.name,
                c.phones
                    .first()
                    .map(|(_, t)| contacts::phone_type_label(*t))
                    .unwrap_or(""),
                &format!("call:{number}"),
            )
            .desc(c.name.clone()),
        );
    }
    list
}

fn render_contacts_tab(sys: &System, body: Bounds) -> View {
    let m = sys.metrics;
    let all = contacts::open(sys)
        .and_then(|c| contacts::all(&c))
        .unwrap_or_default();
    let mut list = View::new(class::RECYCLER_VIEW, body)
        .id(id("recycler_view"))
        .scrollable("contacts_list");
    let row_height = m.dp(64.0);
    for (i, c) in all.iter().enumerate() {
        let b = communication::row_bounds(body, body.top, row_height, i);
        list = list.child(
            communication::two_line_row(
                sys,
                b,
                (&id("contact_name"), &id("contact_number")),
                &c.name,
                "",
                &format!("contact:{}", c.id),
            )
            .id(id("click_target")),
        );
    }
    list
}

/// Where the dial pad's sheet sits: the digits, four rows of keys and the call button, at the
/// bottom of the content area.
fn dialpad_sheet(sys: &System) -> Bounds {
    let m = sys.metrics;
    let c = m.content;
    let height = (m.dp(72.0) + m.dp(64.0) * 4 + m.dp(96.0)).min(c.height());
    Bounds::new(c.left, c.bottom - height, c.right, c.bottom)
}

fn render_dialpad(sys: &System, digits: &str) -> View {
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
fn keypad(sys: &System, area: Bounds) -> Vec<View> {
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

/// `mm:ss` (or `h:mm:ss`) as Android's Chronometer shows elapsed time.
fn elapsed(seconds: i64) -> String {
    let s = seconds.max(0);
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

/// The blue full-screen background of InCallUI.
fn in_call_root(sys: &System) -> View {
    View::new(class::FRAME_LAYOUT, sys.metrics.content).style(Style {
        background: Some([23, 78, 166, 255]),
        ..Style::default()
    })
}

/// InCallUI's contact grid: avatar, status line, caller, phone type and number, call timer.
fn contact_grid(sys: &System, number: &str, status: &str, timer: Option<i64>) -> View {
    let m = sys.metrics;
    let c = m.content;
    let white = [255, 255, 255, 255];
    let dim = [200, 205, 210, 255];
    let (contact, label) = caller(sys, number);
    let shown_number = phone_number::format_for_display(number);
    let name = contact.clone().unwrap_or_else(|| shown_number.clone());
    let grid = at(
        c,
        m.dp(24.0),
        m.dp(12.0),
        c.width() - m.dp(48.0),
        m.dp(200.0),
    );
    let mut contact_grid = View::new(class::LINEAR_LAYOUT, grid)
        .id(id("incall_contact_grid"))
        .child(
            View::new(
                class::IMAGE_VIEW,
                at(
                    grid,
                    (grid.width() - m.dp(56.0)) / 2,
                    0,
                    m.dp(56.0),
                    m.dp(56.0),
                ),
            )
            .id(id("contactgrid_avatar"))
            .style(Style {
                background: Some(communication::avatar_color(&name)),
                corner_radius: m.dp(28.0),
                ..Style::default()
            }),
        );
    if !status.is_empty() {
        contact_grid = contact_grid.child(
            View::new(
                class::TEXT_VIEW,
                at(grid, 0, m.dp(64.0), grid.width(), m.sp(22.0)),
            )
            .id(id("contactgrid_status_text"))
            .text(status)
            .style(Style {
                center_text: true,
                ..text_style(14.0, dim)
            }),
        );
    }
    contact_grid = contact_grid.child(
        View::new(
            class::TEXT_VIEW,
            at(grid, 0, m.dp(64.0) + m.sp(24.0), grid.width(), m.sp(44.0)),
        )
        .id(id("contactgrid_contact_name"))
        .text(name)
        .style(Style {
            center_text: true,
            ..text_style(34.0, white)
        }),
    );
    let bottom_top = m.dp(68.0) + m.sp(68.0);
    if let (Some(label), Some(_)) = (&label, &contact) {
        contact_grid = contact_grid.child(
            View::new(
                class::TEXT_VIEW,
                at(grid, 0, bottom_top, grid.width() / 2, m.sp(22.0)),
            )
            .id(id("contactgrid_bottom_text"))
            .text(format!("{label} {shown_number}"))
            .style(text_style(14.0, dim)),
        );
    }
    if let Some(seconds) = timer {
        contact_grid = contact_grid.child(
            View::new(
                class::TEXT_VIEW,
                at(
                    grid,
                    grid.width() / 2,
                    bottom_top,
                    grid.width() / 2,
                    m.sp(22.0),
                ),
            )
            .id(id("contactgrid_bottom_timer"))
            .text(elapsed(seconds))
            .style(text_style(14.0, dim)),
        );
    }
    contact_grid
}

/// The incoming-call screen: who calls, and the Dialer's two-button answer method (Answer,
/// Decline) with its resource ids.
fn render_incoming(sys: &System, call: &telephony::Call) -> View {
    let m = sys.metrics;
    let c = m.content;
    let white = [255, 255, 255, 255];
    let size = m.dp(64.0);
    let top = c.bottom - m.dp(72.0) - size - m.sp(20.0);
    let mut method = View::new(
        class::FRAME_LAYOUT,
        Bounds::new(c.left, top - m.dp(40.0), c.right, c.bottom),
    )
    .id(id("answer_method_container"))
    .child(
        View::new(
            class::TEXT_VIEW,
            Bounds::new(c.left, top - m.dp(40.0), c.right, top - m.dp(12.0)),
        )
        .id(id("two_button_hint_text"))
        .text(tr(sys, "call_incoming_two_button_hint"))
        .style(Style {
            center_text: true,
            ..text_style(14.0, [200, 205, 210, 255])
        }),
    );
    for (i, (button, label, tag, desc, color, icon)) in [
        (
            "two_button_decline_button",
            "two_button_decline_label",
            "decline",
            tr(sys, "call_incoming_decline"),
            [217, 48, 37, 255],
            "call_end",
        ),
        (
            "two_button_answer_button",
            "two_button_answer_label",
            "answer",
            tr(sys, "call_incoming_answer"),
            [30, 142, 62, 255],
            "call",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let center = c.left + c.width() * (1 + 2 * i as i32) / 4;
        let b = Bounds::new(center - size / 2, top, center + size / 2, top + size);
        method = method
            .child(
                View::new(class::IMAGE_BUTTON, b)
                    .id(id(button))
                    .desc(desc)
                    .on_click(tag)
                    .style(Style {
                        icon: Some(icon),
                        ..filled(color, white, size / 2)
                    }),
            )
            .child(
                View::new(
                    class::TEXT_VIEW,
                    Bounds::new(
                        center - m.dp(60.0),
                        b.bottom + m.dp(8.0),
                        center + m.dp(60.0),
                        b.bottom + m.dp(8.0) + m.sp(20.0),
                    ),
                )
                .id(id(label))
                .text(desc)
                .style(Style {
                    center_text: true,
                    ..text_style(14.0, white)
                }),
            );
    }
    in_call_root(sys)
        .child(contact_grid(
            sys,
            &call.number,
            tr(sys, "incoming_call"),
            None,
        ))
        .child(method)
}

fn render_in_call(sys: &System, call: &telephony::Call, screen: &CallScreen) -> View {
    let m = sys.metrics;
    let c = m.content;
    let white = [255, 255, 255, 255];
    let held = call.status == Status::Held;
    let emergency = phone_number::is_emergency(&call.number);
    let seconds = (now_ms(sys) - call.connected_ms.unwrap_or(call.created_ms)) / 1000;
    let status = if emergency {
        tr(sys, "emergency_call")
    } else if held {
        tr(sys, "on_hold")
    } else if call.direction == telephony::Direction::Outgoing && seconds < 2 {
        tr(sys, "calling")
    } else {
        ""
    };
    let timer = (status.is_empty() || held).then_some(seconds);
    let mut root = in_call_root(sys).child(contact_grid(sys, &call.number, status, timer));

    let end_size = m.dp(64.0);
    let end = Bounds::new(
        c.left + (c.width() - end_size) / 2,
        c.bottom - m.dp(36.0) - end_size,
        c.left + (c.width() + end_size) / 2,
        c.bottom - m.dp(36.0),
    );
    if screen.keypad {
        let pad_area = Bounds::new(
            c.left,
            end.top - m.dp(16.0) - m.dp(64.0) * 4,
            c.right,
            end.top - m.dp(16.0),
        );
        let mut pad = View::new(class::FRAME_LAYOUT, pad_area).id(id("incall_dialpad_container"));
        if !screen.dtmf.is_empty() {
            pad = pad.child(
                View::new(
                    class::EDIT_TEXT,
                    at(
                        pad_area,
                        m.dp(24.0),
                        -m.dp(56.0),
                        pad_area.width() - m.dp(48.0),
                        m.dp(48.0),
                    ),
                )
                .id(id("digits"))
                .text(screen.dtmf.clone())
                .style(Style {
                    center_text: true,
                    ..text_style(28.0, white)
                }),
            );
        }
        root = root.child(pad.children(keypad(sys, pad_area)));
    } else {
        let buttons = [
            (
                "incall_first_button",
                tr(sys, "mute"),
                "mute",
                screen.muted,
                true,
                "mic_off",
            ),
            (
                "incall_second_button",
                tr(sys, "keypad"),
                "keypad",
                screen.keypad,
                false,
                "dialpad",
            ),
            (
                "incall_third_button",
                tr(sys, "speaker"),
                "speaker",
                screen.speaker,
                true,
                "speaker",
            ),
            (
                "incall_fourth_button",
                tr(sys, "add_call"),
                "add_call",
                false,
                false,
                "add_call",
            ),
            (
                "incall_fifth_button",
                tr(sys, "hold"),
                "hold",
                held,
                true,
                "pause",
            ),
            (
                "incall_sixth_button",
                tr(sys, "video_call"),
                "video",
                false,
                false,
                "videocam",
            ),
        ];
        let grid_area = Bounds::new(
            c.left + m.dp(24.0),
            end.top - m.dp(24.0) - m.dp(96.0) * 2,
            c.right - m.dp(24.0),
            end.top - m.dp(24.0),
        );
        let cell_w = grid_area.width() / 3;
        let cell_h = m.dp(96.0);
        let mut grid_view = View::new(class::VIEW_GROUP, grid_area).id(id("incall_button_grid"));
        for (i, (button_id, label, tag, on, checkable, icon)) in buttons.into_iter().enumerate() {
            let (row, col) = (i as i32 / 3, i as i32 % 3);
            let b = Bounds::new(
                grid_area.left + cell_w * col,
                grid_area.top + cell_h * row,
                grid_area.left + cell_w * (col + 1),
                grid_area.top + cell_h * (row + 1),
            );
            let mut button = View::new(
                if checkable {
                    class::TOGGLE_BUTTON
                } else {
                    class::BUTTON
                },
                b,
            )
            .id(id(button_id))
            .desc(label)
            .enabled(!emergency || tag != "hold")
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    at(
                        b,
                        (b.width() - m.dp(48.0)) / 2,
                        m.dp(8.0),
                        m.dp(48.0),
                        m.dp(48.0),
                    ),
                )
                .style(Style {
                    icon: Some(icon),
                    background: on.then_some(white),
                    corner_radius: m.dp(24.0),
                    text_color: Some(if on { [23, 78, 166, 255] } else { white }),
                    ..Style::default()
                }),
            )
            .child(
                View::new(
                    class::TEXT_VIEW,
                    at(b, 0, m.dp(60.0), b.width(), m.sp(20.0)),
                )
                .text(label)
                .style(Style {
                    center_text: true,
                    ..text_style(12.0, white)
                }),
            );
            if tag != "video" {
                button = button.on_click(tag);
            } else {
                button = button.enabled(false);
            }
            if checkable {
                button = button.checked(on);
            }
            grid_view = grid_view.child(button);
        }
        root = root.child(grid_view);
    }
    root.child(
        View::new(class::IMAGE_BUTTON, end)
            .id(id("incall_end_call"))
            .desc(tr(sys, "end_call"))
            .on_click("end_call")
            .style(Style {
                icon: Some("call_end"),
                ..filled([217, 48, 37, 255], white, end_size / 2)
            }),
    )
}

#[cfg(test)]
mod tests {
    use super::elapsed;

    #[test]
    fn chronometer_format() {
        assert_eq!(elapsed(5), "00:05");
        assert_eq!(elapsed(65), "01:05");
        assert_eq!(elapsed(3725), "1:02:05");
    }
}

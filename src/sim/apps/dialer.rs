//! Phone (com.google.android.dialer): the main screen with Favorites / Recents / Contacts tabs,
//! the dialpad, and the in-call screen (InCallUI), with resource ids as the Google Dialer reports
//! them (`com.android.dialer:id/…`, its AOSP resource package).
//!
//! Calls are placed through Telecom ([`communication::telecom_place_call`]), shown with a timer read
//! from the simulated clock, and written to the call log when they end.

use crate::geom::Bounds;
use crate::sim::app::{App, AppInfo, UiEvent};
use crate::sim::apps::communication::{
    self, at, filled, palette, text_style, Intent, DIALER_PACKAGE, DIALER_PID,
};
use crate::sim::locale;
use crate::sim::providers::{calllog, contacts, now_ms, phone_number};
use crate::sim::system::{Request, System};
use crate::sim::view::{class, Style, View};

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
            let mut dialer = Dialer::default();
            // Started for an intent (a call placed from Contacts): show it from the first frame.
            if let Some(intent) = communication::take_intent(sys, PACKAGE) {
                dialer.apply(intent, sys);
            }
            Box::new(dialer)
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

#[derive(Debug, Clone, PartialEq)]
struct ActiveCall {
    number: String,
    name: Option<String>,
    label: Option<String>,
    started_ms: i64,
    call_id: i64,
    /// Package to return to when the call ends (the dialer itself, or Contacts/Messages).
    from: String,
    muted: bool,
    speaker: bool,
    held: bool,
    keypad: bool,
    dtmf: String,
}

#[derive(Debug, Clone, Default)]
struct Dialer {
    tab: Tab,
    dialpad: bool,
    /// What the user typed, without formatting.
    digits: String,
    last_dialed: String,
    call: Option<ActiveCall>,
}

impl Dialer {
    /// This state with a waiting intent applied, without side effects (for rendering).
    fn with_pending(&self, sys: &System) -> Dialer {
        let mut d = self.clone();
        if let Some(intent) = communication::pending_intent(sys, PACKAGE) {
            d.apply(intent, sys);
        }
        d
    }

    fn apply(&mut self, intent: Intent, sys: &System) {
        match intent {
            Intent::Call {
                number,
                started_ms,
                call_id,
                from,
            } => self.call = Some(new_call(sys, &number, started_ms, call_id, &from)),
            Intent::Dial { number } => {
                self.dialpad = true;
                self.digits = phone_number::strip_separators(&number);
            }
            Intent::SendTo { .. } | Intent::ViewContact { .. } => {}
        }
    }

    fn place_call(&mut self, sys: &mut System, number: &str) {
        let number = phone_number::strip_separators(number);
        if number.is_empty() {
            return;
        }
        let call_id = communication::next_call_id(sys);
        communication::telecom_place_call(sys, &number, call_id);
        sys.log(DIALER_PID, 'I', "Dialer", "InCallActivity.onCreate - enter");
        self.last_dialed = number.clone();
        self.digits.clear();
        self.dialpad = false;
        self.call = Some(new_call(sys, &number, now_ms(sys), call_id, PACKAGE));
    }

    fn end_call(&mut self, sys: &mut System) {
        let Some(call) = self.call.take() else {
            return;
        };
        let now = now_ms(sys);
        communication::set_call_state(sys, communication::CALL_STATE_IDLE, "");
        sys.log(
            communication::SYSTEM_SERVER_PID,
            'I',
            "Telecom",
            format!("InCallController: onCallRemoved: TC@{}", call.call_id),
        );
        sys.log(
            communication::SYSTEM_SERVER_PID,
            'I',
            "Telecom",
            format!(
                "CallsManager: setCallState DIALING -> DISCONNECTED, call: TC@{}",
                call.call_id
            ),
        );
        let matched = contacts::open(sys)
            .ok()
            .and_then(|c| contacts::lookup_number(&c, &call.number).ok().flatten());
        let record = calllog::Call {
            number: call.number.clone(),
            date: call.started_ms,
            duration: ((now - call.started_ms) / 1000).max(0),
            kind: calllog::OUTGOING,
            name: matched.as_ref().map(|c| c.name.clone()),
            number_type: matched
                .as_ref()
                .and_then(|c| c.phones.first().map(|(_, t)| *t)),
            normalized: phone_number::normalize(&call.number),
        };
        match calllog::open(sys).and_then(|c| calllog::insert(&c, &record)) {
            Ok(_) => {}
            Err(e) => sys.log(
                communication::SYSTEM_SERVER_PID,
                'E',
                "CallLogProvider",
                format!("insert failed: {e}"),
            ),
        }
        if call.from != PACKAGE {
            sys.request(Request::Finish);
        }
    }

    fn press_key(&mut self, key: char) {
        if let Some(call) = self.call.as_mut() {
            call.dtmf.push(key);
        } else if self.digits.len() < 40 {
            self.digits.push(key);
        }
    }
}

fn new_call(sys: &System, number: &str, started_ms: i64, call_id: i64, from: &str) -> ActiveCall {
    let matched = contacts::open(sys)
        .ok()
        .and_then(|c| contacts::lookup_number(&c, number).ok().flatten());
    ActiveCall {
        number: number.to_string(),
        name: matched.as_ref().map(|c| c.name.clone()),
        label: matched.as_ref().map(|c| {
            let kind = c
                .phones
                .iter()
                .find(|(n, _)| phone_number::same_line(n, number))
                .map(|(_, t)| *t)
                .unwrap_or(2);
            contacts::phone_type_label(kind).to_string()
        }),
        started_ms,
        call_id,
        from: from.to_string(),
        muted: false,
        speaker: false,
        held: false,
        keypad: false,
        dtmf: String::new(),
    }
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
        if self.call.is_some() {
            INCALL_ACTIVITY.to_string()
        } else {
            MAIN_ACTIVITY.to_string()
        }
    }

    fn render(&self, sys: &System) -> View {
        let state = self.with_pending(sys);
        match &state.call {
            Some(call) => render_in_call(sys, call),
            None => state.render_main(sys),
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if let Some(intent) = communication::take_intent(sys, PACKAGE) {
            self.apply(intent, sys);
        }
        if self.call.is_some() {
            return self.handle_in_call(event, sys);
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
                        self.digits = self.last_dialed.clone();
                    } else {
                        let number = self.digits.clone();
                        self.place_call(sys, &number);
                    }
                }
                "create_contact" => {
                    // ACTION_INSERT with the number goes to Contacts; the number is not carried.
                    sys.request(Request::Launch {
                        package: communication::CONTACTS_PACKAGE.to_string(),
                        intent: None,
                    });
                }
                "send_message" => {
                    let number = self.digits.clone();
                    communication::send_intent(
                        sys,
                        communication::MESSAGES_PACKAGE,
                        &Intent::SendTo { number },
                    );
                }
                other => {
                    if let Some(key) = other.strip_prefix("key:").and_then(|k| k.chars().next()) {
                        self.press_key(key);
                    } else if let Some(number) = other.strip_prefix("call:") {
                        let number = number.to_string();
                        self.place_call(sys, &number);
                    } else if let Some(id) = other.strip_prefix("contact:") {
                        match id.parse() {
                            Ok(id) => communication::send_intent(
                                sys,
                                communication::CONTACTS_PACKAGE,
                                &Intent::ViewContact { id },
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
        let Some(call) = self.call.as_mut() else {
            return false;
        };
        match event {
            UiEvent::Click(tag) => match tag.as_str() {
                "end_call" => self.end_call(sys),
                "mute" => call.muted = !call.muted,
                "speaker" => call.speaker = !call.speaker,
                "hold" => call.held = !call.held,
                "keypad" => call.keypad = !call.keypad,
                "add_call" => {}
                other => match other.strip_prefix("key:").and_then(|k| k.chars().next()) {
                    Some(key) => self.press_key(key),
                    None => return false,
                },
            },
            UiEvent::Back if call.keypad => call.keypad = false,
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
        let body = Bounds::new(c.left, c.top + m.dp(72.0), c.right, c.bottom - nav_height);
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
        let kind = match e.kind {
            calllog::INCOMING => tr(sys, "incoming_call"),
            calllog::MISSED => tr(sys, "missed_call"),
            _ => tr(sys, "outgoing_call"),
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
        .desc(format!("{shown}, {kind}, {when}."))
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

fn render_dialpad(sys: &System, digits: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let key_height = m.dp(64.0);
    let digits_height = m.dp(72.0);
    let fab_area = m.dp(96.0);
    let height = (digits_height + key_height * 4 + fab_area).min(c.height());
    let sheet = Bounds::new(c.left, c.bottom - height, c.right, c.bottom);
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

fn render_in_call(sys: &System, call: &ActiveCall) -> View {
    let m = sys.metrics;
    let c = m.content;
    let white = [255, 255, 255, 255];
    let dim = [200, 205, 210, 255];
    let mut root = View::new(class::FRAME_LAYOUT, c).style(Style {
        background: Some([23, 78, 166, 255]),
        ..Style::default()
    });
    let emergency = phone_number::is_emergency(&call.number);
    let seconds = (now_ms(sys) - call.started_ms) / 1000;
    let status = if emergency {
        tr(sys, "emergency_call").to_string()
    } else if call.held {
        tr(sys, "on_hold").to_string()
    } else if seconds < 2 {
        tr(sys, "calling").to_string()
    } else {
        String::new()
    };
    let shown_number = phone_number::format_for_display(&call.number);
    let name = call.name.clone().unwrap_or_else(|| shown_number.clone());
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
            .text(status.clone())
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
    if let (Some(label), Some(_)) = (&call.label, &call.name) {
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
    if status.is_empty() || call.held {
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
    root = root.child(contact_grid);

    let end_size = m.dp(64.0);
    let end = Bounds::new(
        c.left + (c.width() - end_size) / 2,
        c.bottom - m.dp(36.0) - end_size,
        c.left + (c.width() + end_size) / 2,
        c.bottom - m.dp(36.0),
    );
    if call.keypad {
        let pad_area = Bounds::new(
            c.left,
            end.top - m.dp(16.0) - m.dp(64.0) * 4,
            c.right,
            end.top - m.dp(16.0),
        );
        let mut pad = View::new(class::FRAME_LAYOUT, pad_area).id(id("incall_dialpad_container"));
        if !call.dtmf.is_empty() {
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
                .text(call.dtmf.clone())
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
                call.muted,
                true,
                "mic_off",
            ),
            (
                "incall_second_button",
                tr(sys, "keypad"),
                "keypad",
                call.keypad,
                false,
                "dialpad",
            ),
            (
                "incall_third_button",
                tr(sys, "speaker"),
                "speaker",
                call.speaker,
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
                call.held,
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

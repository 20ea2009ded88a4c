//! Simple SMS Messenger (`com.simplemobiletools.smsmessenger`, Simple Mobile Tools 5.19.3, the
//! version code 85 AndroidWorld installs): the conversation list with its search bar and "+"
//! button, New conversation (an address field that takes a number or a contact's name, the ✓ that
//! confirms a typed number, the matching contacts), and a thread (messages oldest first under
//! date headers, the "Type a message…" field and the SMS button, a long press that selects a
//! message for "Copy to clipboard"). Layouts, ids and strings follow the app's sources
//! (`activity_main.xml`, `activity_new_conversation.xml`, `activity_thread.xml`,
//! `layout_thread_send_message_holder.xml`, `item_conversation.xml`, `item_message.xml`, Simple
//! Commons' `menu_search.xml` and `item_contact_with_number.xml`).
//!
//! Like the real app it keeps no messages itself: conversations are the telephony provider's, so
//! what Google Messages or `adb emu sms send` put there shows here and what is sent here lands in
//! `content://sms/sent` ([`texting`]).

use chrono::{Datelike, Timelike};

use crate::geom::Bounds;
use crate::sim::app::{App, AppInfo, Intent, UiEvent};
use crate::sim::apps::communication::{self, at, filled, palette, text_style};
use crate::sim::apps::texting;
use crate::sim::locale;
use crate::sim::providers::{phone_number, telephony};
use crate::sim::system::{Request, System};
use crate::sim::view::{class, Style, View};

pub const PACKAGE: &str = "com.simplemobiletools.smsmessenger";
const MAIN_ACTIVITY: &str = "com.simplemobiletools.smsmessenger.activities.MainActivity";
const NEW_CONVERSATION_ACTIVITY: &str =
    "com.simplemobiletools.smsmessenger.activities.NewConversationActivity";
const THREAD_ACTIVITY: &str = "com.simplemobiletools.smsmessenger.activities.ThreadActivity";
/// The process id its log lines carry.
const PID: u32 = 3391;
/// Simple Commons' `copyToClipboard` labels its clip with the library's name.
const CLIP_LABEL: &str = "Simple Commons";
/// Simple Mobile Tools' default primary colour (orange).
const PRIMARY: [u8; 4] = [245, 124, 0, 255];
/// `ThreadActivity.MIN_DATE_TIME_DIFF_SECS`: a date header starts a new run of messages.
const DATE_HEADER_GAP_MS: i64 = 300_000;

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: MAIN_ACTIVITY,
        create: |_| Box::new(SimpleSms::default()),
        install: |_| {},
        on_home_screen: false,
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Screen {
    /// MainActivity: the conversation list, filtered by the search bar's text.
    Main { search: String },
    /// NewConversationActivity: the address field's text.
    NewConversation { query: String },
    /// ThreadActivity with one recipient; `thread_id` is -1 until the first text creates it.
    Thread {
        thread_id: i64,
        address: String,
        title: String,
        draft: String,
        /// The message a long press selected (the action mode is showing).
        selected: Option<i64>,
    },
}

/// The app's activity stack, top last (NewConversationActivity stays under the thread it opened).
#[derive(Debug, Clone)]
struct SimpleSms {
    stack: Vec<Screen>,
}

impl Default for SimpleSms {
    fn default() -> Self {
        SimpleSms {
            stack: vec![Screen::Main {
                search: String::new(),
            }],
        }
    }
}

/// The title a thread shows for an address: the contact's name, else the address as stored.
fn title_for(sys: &System, address: &str) -> String {
    communication::contact_name_for(sys, address).unwrap_or_else(|| address.to_string())
}

impl SimpleSms {
    fn top(&self) -> &Screen {
        // Back from the last activity finishes the app, so the stack is never empty on screen.
        static MAIN: Screen = Screen::Main {
            search: String::new(),
        };
        self.stack.last().unwrap_or(&MAIN)
    }

    fn top_mut(&mut self) -> Option<&mut Screen> {
        self.stack.last_mut()
    }

    /// `launchThreadActivity`: a thread with `address` on top of the current screen.
    fn open_thread(&mut self, sys: &mut System, address: &str, title: &str, draft: &str) {
        let address = address.trim().to_string();
        if address.is_empty() {
            return;
        }
        let thread_id = texting::existing_thread(sys, &address).unwrap_or(-1);
        if thread_id >= 0 {
            texting::mark_read(sys, thread_id);
        }
        let title = if title.is_empty() {
            title_for(sys, &address)
        } else {
            title.to_string()
        };
        self.stack.push(Screen::Thread {
            thread_id,
            address,
            title,
            draft: draft.to_string(),
            selected: None,
        });
        sys.request(Request::Focus {
            tag: "message".to_string(),
        });
    }

    /// The SMS button: the text goes to the provider's sent box and the field empties.
    fn send(&mut self, sys: &mut System) {
        let Some(Screen::Thread { address, draft, .. }) = self.top_mut() else {
            return;
        };
        let body = draft.trim().to_string();
        if body.is_empty() {
            return;
        }
        let to = address.clone();
        match texting::send(sys, PACKAGE, &to, &body) {
            Ok(sent) => {
                sys.log(
                    PID,
                    'I',
                    "SmsSender",
                    format!("sendMessage: id {} thread {}", sent.sms_id, sent.thread_id),
                );
                if let Some(Screen::Thread {
                    thread_id, draft, ..
                }) = self.top_mut()
                {
                    *thread_id = sent.thread_id;
                    draft.clear();
                }
            }
            Err(e) => sys.log(PID, 'E', "SmsSender", format!("sendMessage failed: {e}")),
        }
    }
}

impl App for SimpleSms {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.top() {
            Screen::Main { .. } => MAIN_ACTIVITY,
            Screen::NewConversation { .. } => NEW_CONVERSATION_ACTIVITY,
            Screen::Thread { .. } => THREAD_ACTIVITY,
        }
        .to_string()
    }

    fn render(&self, sys: &System) -> View {
        match self.top() {
            Screen::Main { search } => render_main(sys, search),
            Screen::NewConversation { query } => render_new_conversation(sys, query),
            Screen::Thread {
                thread_id,
                title,
                draft,
                selected,
                ..
            } => render_thread(sys, *thread_id, title, draft, *selected),
        }
    }

    /// NewConversationActivity's third-party intent (SENDTO/VIEW `sms:`/`smsto:`, `sms_body`): it
    /// opens the thread at once and finishes itself.
    fn new_intent(&mut self, intent: &Intent, sys: &mut System) {
        let sendto = matches!(
            intent.action.as_deref(),
            Some(communication::ACTION_SENDTO) | Some(communication::ACTION_VIEW)
        );
        if let Some(number) = communication::intent_number(intent).filter(|_| sendto) {
            let body = intent
                .extra("sms_body")
                .or_else(|| intent.extra("android.intent.extra.TEXT"))
                .unwrap_or_default()
                .to_string();
            self.open_thread(sys, &number, "", &body);
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        // Back first leaves a thread's action mode, then the activity.
        if matches!(event, UiEvent::Back) {
            if let Some(Screen::Thread { selected, .. }) = self.top_mut() {
                if selected.take().is_some() {
                    return true;
                }
            }
            self.stack.pop();
            sys.request(Request::ClearFocus);
            return !self.stack.is_empty();
        }
        let up = matches!(event, UiEvent::Click(t) if t == "up");
        if up {
            // Up goes to the parent activity, MainActivity.
            self.stack = vec![Screen::Main {
                search: String::new(),
            }];
            sys.request(Request::ClearFocus);
            return true;
        }
        let Some(screen) = self.top_mut() else {
            return false;
        };
        match (screen, event) {
            (Screen::Main { search }, UiEvent::TextChanged { tag, text }) if tag == "search" => {
                *search = text.clone();
            }
            (Screen::Main { .. }, UiEvent::Click(tag)) if tag == "search" => {}
            (Screen::Main { .. }, UiEvent::Click(tag)) if tag == "new_conversation" => {
                self.stack.push(Screen::NewConversation {
                    query: String::new(),
                });
                sys.request(Request::Focus {
                    tag: "address".to_string(),
                });
            }
            (Screen::Main { .. }, UiEvent::Click(tag)) if tag.starts_with("thread:") => {
                let address = tag["thread:".len()..].to_string();
                self.open_thread(sys, &address, "", "");
            }
            (Screen::NewConversation { query }, UiEvent::TextChanged { tag, text })
                if tag == "address" =>
            {
                *query = text.clone();
            }
            (Screen::NewConversation { .. }, UiEvent::Click(tag)) if tag == "address" => {}
            (Screen::NewConversation { query }, UiEvent::Click(tag)) if tag == "confirm" => {
                // The typed value is both the number and the title.
                let number = query.trim().to_string();
                if confirm_visible(&number) {
                    sys.request(Request::ClearFocus);
                    self.open_thread(sys, &number, &number, "");
                }
            }
            (Screen::NewConversation { .. }, UiEvent::Click(tag)) if tag.starts_with("contact:") => {
                let rest = &tag["contact:".len()..];
                let (name, number) = rest.split_once('\n').unwrap_or(("", rest));
                let (name, number) = (name.to_string(), number.to_string());
                sys.request(Request::ClearFocus);
                self.open_thread(sys, &number, &name, "");
            }
            (Screen::Thread { draft, .. }, UiEvent::TextChanged { tag, text })
                if tag == "message" =>
            {
                *draft = text.clone();
            }
            (Screen::Thread { .. }, UiEvent::Click(tag)) if tag == "message" => {}
            (Screen::Thread { .. }, UiEvent::Click(tag)) if tag == "send" => self.send(sys),
            (Screen::Thread { address, .. }, UiEvent::Click(tag)) if tag == "dial_number" => {
                let number = phone_number::strip_separators(address);
                communication::send_intent(
                    sys,
                    communication::DIALER_PACKAGE,
                    Intent {
                        action: Some(communication::ACTION_DIAL.into()),
                        data: Some(format!("tel:{number}")),
                        ..Intent::default()
                    },
                );
            }
            (Screen::Thread { selected, .. }, UiEvent::LongClick(tag)) if tag.starts_with("msg:") => {
                *selected = tag["msg:".len()..].parse().ok();
            }
            // In action mode a tap selects the tapped message instead (one at a time here).
            (
                Screen::Thread {
                    selected: selected @ Some(_),
                    ..
                },
                UiEvent::Click(tag),
            ) if tag.starts_with("msg:") => {
                let id: Option<i64> = tag["msg:".len()..].parse().ok();
                *selected = if *selected == id { None } else { id };
            }
            (Screen::Thread { .. }, UiEvent::Click(tag)) if tag.starts_with("msg:") => {}
            (Screen::Thread { selected, .. }, UiEvent::Click(tag)) if tag == "cab_close" => {
                *selected = None;
            }
            (
                Screen::Thread {
                    thread_id,
                    selected,
                    ..
                },
                UiEvent::Click(tag),
            ) if tag == "cab_copy_to_clipboard" => {
                let body = texting::messages(sys, *thread_id)
                    .into_iter()
                    .find(|m| Some(m.id) == *selected)
                    .map(|m| m.body);
                if let Some(body) = body {
                    sys.clipboard.set(PACKAGE, CLIP_LABEL, &body);
                }
                *selected = None;
            }
            _ => return false,
        }
        true
    }
}

/// `new_conversation_confirm` shows once the field holds more than two characters.
fn confirm_visible(query: &str) -> bool {
    query.chars().count() > 2
}

/// Simple Commons' `formatDateOrTime`: the time today ("03:05 PM", "15:05"), otherwise the day
/// in the default `dd.MM.yyyy` format, without the year this year, and with the time unless
/// `hide_time` asks otherwise.
fn date_or_time(sys: &System, ms: i64, hide_time: bool) -> String {
    let Some(t) = chrono::DateTime::from_timestamp_millis(ms) else {
        return String::new();
    };
    let time = if crate::sim::apps::widgets::uses_24h(sys) {
        format!("{:02}:{:02}", t.hour(), t.minute())
    } else {
        let h = t.hour() % 12;
        let ampm = if t.hour() < 12 { "AM" } else { "PM" };
        format!("{:02}:{:02} {ampm}", if h == 0 { 12 } else { h }, t.minute())
    };
    let today = sys.clock.now().date();
    if t.date_naive() == today {
        return time;
    }
    let day = if t.year() == today.year() {
        format!("{:02}.{:02}", t.day(), t.month())
    } else {
        format!("{:02}.{:02}.{}", t.day(), t.month(), t.year())
    };
    if hide_time {
        day
    } else {
        format!("{day}, {time}")
    }
}

/// An icon button of a toolbar menu (`showAsAction="always"`), `slot` counted from the right.
fn menu_item(sys: &System, bar: Bounds, slot: i32, title: &str, icon: &'static str) -> View {
    communication::toolbar_action(sys, bar, slot, title, icon)
}

fn render_main(sys: &System, search: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let field = at(
        bar,
        m.dp(16.0),
        m.dp(8.0),
        bar.width() - m.dp(32.0) - m.dp(48.0) * 3,
        m.dp(48.0),
    );
    let top = View::new(class::LINEAR_LAYOUT, bar)
        .id(id("top_app_bar_layout"))
        .child(
            View::new(class::RELATIVE_LAYOUT, field)
                .id(id("top_toolbar_holder"))
                .style(filled(p.card, p.on_surface, m.dp(24.0)))
                .child(
                    View::new(
                        class::IMAGE_VIEW,
                        at(field, m.dp(8.0), m.dp(8.0), m.dp(32.0), m.dp(32.0)),
                    )
                    .id(id("top_toolbar_search_icon"))
                    .desc(tr(sys, "search"))
                    .style(Style {
                        icon: Some("search"),
                        text_color: Some(p.secondary_text),
                        ..Style::default()
                    }),
                )
                .child(
                    View::new(
                        class::EDIT_TEXT,
                        at(
                            field,
                            m.dp(48.0),
                            0,
                            field.width() - m.dp(56.0),
                            field.height(),
                        ),
                    )
                    .id(id("top_toolbar_search"))
                    .text(search)
                    .hint(tr(sys, "search"))
                    .editable("search")
                    .style(text_style(16.0, p.on_surface)),
                ),
        )
        .child(
            View::new(
                class::VIEW_GROUP,
                Bounds::new(field.right, bar.top, bar.right, bar.bottom),
            )
            .id(id("top_toolbar"))
            .child(menu_item(sys, bar, 2, tr(sys, "settings"), "settings"))
            .child(menu_item(sys, bar, 1, tr(sys, "about"), "info"))
            .child(menu_item(sys, bar, 0, tr(sys, "more_options"), "more")),
        );
    let body = Bounds::new(c.left, bar.bottom, c.right, c.bottom);
    let mut root = communication::root(sys).id(id("main_coordinator")).child(top);
    let conn = telephony::open(sys);
    let threads = conn
        .as_ref()
        .ok()
        .and_then(|c| telephony::threads(c).ok())
        .unwrap_or_default();
    let q = search.trim().to_lowercase();
    if q.chars().count() == 1 {
        // MainActivity searches from two characters on.
        return root.child(
            View::new(class::TEXT_VIEW, at(body, 0, m.dp(16.0), body.width(), m.sp(48.0)))
                .id(id("search_placeholder_2"))
                .text(tr(sys, "type_2_characters"))
                .style(Style {
                    center_text: true,
                    ..text_style(18.0, p.secondary_text)
                }),
        );
    }
    let shown: Vec<(telephony::Thread, String)> = threads
        .into_iter()
        .map(|t| {
            let title = title_for(sys, &t.address);
            (t, title)
        })
        .filter(|(t, title)| {
            q.is_empty()
                || title.to_lowercase().contains(&q)
                || t.address.contains(&q)
                || texting::messages(sys, t.id)
                    .iter()
                    .any(|m| m.body.to_lowercase().contains(&q))
        })
        .collect();
    let list_id = if q.is_empty() {
        "conversations_list"
    } else {
        "search_results_list"
    };
    let mut list = View::new(class::RECYCLER_VIEW, body)
        .id(id(list_id))
        .scrollable(list_id);
    let row_height = m.dp(88.0);
    for (i, (t, title)) in shown.iter().enumerate() {
        let b = communication::row_bounds(body, body.top, row_height, i);
        let text_left = m.dp(80.0);
        let width = b.width() - text_left - m.dp(16.0);
        let weight = |size: f32, color| Style {
            bold: !t.read,
            ..text_style(size, color)
        };
        list = list.child(
            View::new(class::FRAME_LAYOUT, b)
                .id(id("conversation_frame"))
                .on_click(format!("thread:{}", t.address))
                .long_clickable()
                .child(
                    View::new(
                        class::IMAGE_VIEW,
                        at(b, m.dp(16.0), m.dp(20.0), m.dp(48.0), m.dp(48.0)),
                    )
                    .id(id("conversation_image"))
                    .style(Style {
                        background: Some(communication::avatar_color(title)),
                        corner_radius: m.dp(24.0),
                        ..Style::default()
                    }),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(b, text_left, m.dp(12.0), width, m.sp(24.0)),
                    )
                    .id(id("conversation_address"))
                    .text(title.clone())
                    .style(weight(18.0, p.on_surface)),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(b, text_left, m.dp(12.0) + m.sp(24.0), width, m.sp(22.0)),
                    )
                    .id(id("conversation_body_short"))
                    .text(t.snippet.clone())
                    .style(weight(15.0, p.secondary_text)),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(b, text_left, m.dp(16.0) + m.sp(46.0), width, m.sp(18.0)),
                    )
                    .id(id("conversation_date"))
                    .text(date_or_time(sys, t.date, true))
                    .style(text_style(13.0, p.secondary_text)),
                ),
        );
    }
    if shown.is_empty() && q.is_empty() {
        root = root
            .child(
                View::new(class::TEXT_VIEW, at(body, 0, m.dp(32.0), body.width(), m.sp(56.0)))
                    .id(id("no_conversations_placeholder"))
                    .text(tr(sys, "no_conversations_found"))
                    .style(Style {
                        center_text: true,
                        ..text_style(18.0, p.secondary_text)
                    }),
            )
            .child(
                View::new(
                    class::TEXT_VIEW,
                    at(
                        body,
                        body.width() / 4,
                        m.dp(32.0) + m.sp(56.0),
                        body.width() / 2,
                        m.dp(48.0),
                    ),
                )
                .id(id("no_conversations_placeholder_2"))
                .text(tr(sys, "start_conversation"))
                .on_click("new_conversation")
                .style(Style {
                    center_text: true,
                    ..text_style(18.0, PRIMARY)
                }),
            );
    } else if shown.is_empty() {
        root = root.child(
            View::new(class::TEXT_VIEW, at(body, 0, m.dp(16.0), body.width(), m.sp(24.0)))
                .id(id("search_placeholder"))
                .text(tr(sys, "no_items_found"))
                .style(Style {
                    center_text: true,
                    ..text_style(18.0, p.secondary_text)
                }),
        );
    }
    root = root.child(list);
    if !q.is_empty() {
        return root;
    }
    // The FAB has only its "+" icon: no text and no content description.
    let size = m.dp(56.0);
    let right = c.right - m.dp(16.0);
    let bottom = c.bottom - m.dp(16.0);
    root.child(
        View::new(
            class::IMAGE_BUTTON,
            Bounds::new(right - size, bottom - size, right, bottom),
        )
        .id(id("conversations_fab"))
        .on_click("new_conversation")
        .style(Style {
            icon: Some("add"),
            ..filled(PRIMARY, [255, 255, 255, 255], size / 2)
        }),
    )
}

/// A toolbar with the navigate-up arrow (Simple Commons' `NavigationIcon.Arrow`).
fn toolbar(sys: &System, id_name: &str, title: &str) -> View {
    communication::toolbar(
        sys,
        sys.metrics.content,
        PACKAGE,
        title,
        Some(("up", tr(sys, "back"))),
    )
    .id(id(id_name))
}

fn render_new_conversation(sys: &System, query: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = toolbar(sys, "new_conversation_toolbar", tr(sys, "new_conversation"));
    let holder = Bounds::new(c.left, c.top + m.dp(64.0), c.right, c.bottom);
    let icon = m.dp(48.0);
    let field = at(
        holder,
        m.dp(16.0),
        0,
        holder.width() - m.dp(32.0) - icon,
        icon,
    );
    let mut content = View::new(class::RELATIVE_LAYOUT, holder)
        .id(id("new_conversation_holder"))
        .child(
            View::new(class::EDIT_TEXT, field)
                .id(id("new_conversation_address"))
                .text(query)
                .hint(tr(sys, "add_contact_or_number"))
                .editable("address")
                .style(text_style(18.0, p.on_surface)),
        );
    if confirm_visible(query.trim()) {
        content = content.child(
            View::new(
                class::IMAGE_VIEW,
                Bounds::new(field.right, field.top, field.right + icon, field.bottom),
            )
            .id(id("new_conversation_confirm"))
            .on_click("confirm")
            .style(Style {
                icon: Some("check"),
                text_color: Some(p.on_surface),
                ..Style::default()
            }),
        );
    }
    content = content.child(
        View::new(
            class::IMAGE_VIEW,
            Bounds::new(holder.left, field.bottom, holder.right, field.bottom + m.dp(1.0)),
        )
        .id(id("add_contact_divider"))
        .style(Style {
            background: Some([204, 204, 204, 255]),
            ..Style::default()
        }),
    );
    // `initContacts`' filter: a number containing the text, or a name containing it; names that
    // start with it first.
    let q = query.trim().to_lowercase();
    let mut contacts: Vec<texting::ContactNumber> = texting::matching_numbers(sys, "")
        .into_iter()
        .filter(|c| {
            q.is_empty()
                || c.name.to_lowercase().contains(&q)
                || phone_number::normalize(&c.number)
                    .unwrap_or_else(|| c.number.clone())
                    .contains(&q)
        })
        .collect();
    contacts.sort_by_key(|c| !c.name.to_lowercase().starts_with(&q));
    let list_area = Bounds::new(holder.left, field.bottom + m.dp(8.0), holder.right, holder.bottom);
    if contacts.is_empty() {
        return communication::root(sys)
            .id(id("new_conversation_coordinator"))
            .child(bar)
            .child(
                content.child(
                    View::new(
                        class::TEXT_VIEW,
                        at(list_area, 0, m.dp(32.0), list_area.width(), m.sp(28.0)),
                    )
                    .id(id("no_contacts_placeholder"))
                    .text(tr(sys, "no_contacts_found"))
                    .style(Style {
                        center_text: true,
                        ..text_style(18.0, p.secondary_text)
                    }),
                ),
            );
    }
    let mut list = View::new(class::RECYCLER_VIEW, list_area)
        .id(id("contacts_list"))
        .scrollable("contacts_list");
    let row_height = m.dp(72.0);
    for (i, contact) in contacts.iter().enumerate() {
        let b = communication::row_bounds(list_area, list_area.top, row_height, i);
        let number = phone_number::normalize(&contact.number).unwrap_or_else(|| contact.number.clone());
        list = list.child(
            View::new(class::VIEW_GROUP, b)
                .id(id("item_contact_frame"))
                .on_click(format!("contact:{}\n{number}", contact.name))
                .long_clickable()
                .child(
                    View::new(
                        class::IMAGE_VIEW,
                        at(b, m.dp(16.0), m.dp(12.0), m.dp(48.0), m.dp(48.0)),
                    )
                    .id(id("item_contact_image"))
                    .style(Style {
                        background: Some(communication::avatar_color(&contact.name)),
                        corner_radius: m.dp(24.0),
                        ..Style::default()
                    }),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(b, m.dp(80.0), m.dp(12.0), b.width() - m.dp(96.0), m.sp(24.0)),
                    )
                    .id(id("item_contact_name"))
                    .text(contact.name.clone())
                    .style(text_style(18.0, p.on_surface)),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(
                            b,
                            m.dp(80.0),
                            m.dp(12.0) + m.sp(24.0),
                            b.width() - m.dp(96.0),
                            m.sp(20.0),
                        ),
                    )
                    .id(id("item_contact_number"))
                    .text(number)
                    .style(text_style(15.0, p.secondary_text)),
                ),
        );
    }
    communication::root(sys)
        .id(id("new_conversation_coordinator"))
        .child(bar)
        .child(content.child(list))
}

fn render_thread(
    sys: &System,
    thread_id: i64,
    title: &str,
    draft: &str,
    selected: Option<i64>,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar_bounds = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let messages = texting::messages(sys, thread_id);
    let bar = match selected {
        // The action mode over the toolbar: close, "1 / N", the CAB's always-shown items.
        Some(_) => View::new(class::VIEW_GROUP, bar_bounds)
            .id(id("action_mode_bar"))
            .style(Style {
                background: Some(p.card),
                ..Style::default()
            })
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    at(bar_bounds, m.dp(4.0), m.dp(8.0), m.dp(48.0), m.dp(48.0)),
                )
                .desc(tr(sys, "done"))
                .on_click("cab_close")
                .style(Style {
                    icon: Some("back"),
                    text_color: Some(p.on_surface),
                    ..Style::default()
                }),
            )
            .child(
                View::new(
                    class::TEXT_VIEW,
                    at(bar_bounds, m.dp(64.0), m.dp(16.0), m.dp(120.0), m.dp(32.0)),
                )
                .id(id("actionbar_title"))
                .text(format!("1 / {}", messages.len()))
                .style(text_style(20.0, p.on_surface)),
            )
            .child(
                menu_item(sys, bar_bounds, 3, tr(sys, "copy_to_clipboard"), "copy")
                    .id(id("cab_copy_to_clipboard"))
                    .on_click("cab_copy_to_clipboard"),
            )
            .child(menu_item(sys, bar_bounds, 2, tr(sys, "share"), "share"))
            .child(menu_item(sys, bar_bounds, 1, tr(sys, "delete"), "delete"))
            .child(menu_item(sys, bar_bounds, 0, tr(sys, "more_options"), "more")),
        None => toolbar(sys, "thread_toolbar", title)
            .child(menu_item(sys, bar_bounds, 3, tr(sys, "delete"), "delete"))
            .child(
                menu_item(sys, bar_bounds, 2, tr(sys, "dial_number"), "call")
                    .id(id("dial_number"))
                    .on_click("dial_number"),
            )
            .child(menu_item(sys, bar_bounds, 1, tr(sys, "add_person"), "person"))
            .child(menu_item(sys, bar_bounds, 0, tr(sys, "more_options"), "more")),
    };
    let compose_height = m.dp(64.0);
    let compose = Bounds::new(c.left, c.bottom - compose_height, c.right, c.bottom);
    let body = Bounds::new(c.left, bar_bounds.bottom, c.right, compose.top);
    // Items bottom-up (the list is stacked from the end): the ✓ under a last sent message, the
    // messages, and a date header above each run that starts 5 minutes after the one before.
    let line = m.sp(22.0);
    let char_px = m.sp(8.0);
    let max_chars = ((body.width() as f32 * 0.75) / (char_px as f32)).max(8.0) as usize;
    let mut items: Vec<View> = Vec::new();
    let mut bottom = body.bottom - m.dp(8.0);
    if messages
        .last()
        .is_some_and(|last| last.kind == telephony::TYPE_SENT)
    {
        let size = m.dp(16.0);
        items.push(
            View::new(
                class::IMAGE_VIEW,
                Bounds::new(body.right - m.dp(16.0) - size, bottom - size, body.right - m.dp(16.0), bottom),
            )
            .id(id("thread_success"))
            .style(Style {
                icon: Some("check"),
                text_color: Some(p.secondary_text),
                ..Style::default()
            }),
        );
        bottom -= size + m.dp(4.0);
    }
    for (i, sms) in messages.iter().enumerate().rev() {
        let lines = texting::wrap_count(&sms.body, max_chars);
        let height = line * lines as i32 + m.dp(16.0);
        let width = (sms.body.chars().count().min(max_chars) as i32) * char_px + m.dp(24.0);
        let outgoing = sms.kind != telephony::TYPE_INBOX;
        let left = if outgoing {
            body.right - m.dp(16.0) - width
        } else {
            body.left + m.dp(16.0)
        };
        let row = Bounds::new(body.left, bottom - height, body.right, bottom);
        let bubble = Bounds::new(left, row.top, left + width, row.bottom);
        let is_selected = selected == Some(sms.id);
        items.push(
            View::new(class::VIEW_GROUP, row)
                .id(id("thread_message_holder"))
                .on_click(format!("msg:{}", sms.id))
                .long_clickable()
                .selected(is_selected)
                .child(
                    View::new(class::TEXT_VIEW, bubble)
                        .id(id("thread_message_body"))
                        .text(sms.body.clone())
                        .style(Style {
                            background: Some(if is_selected {
                                [255, 204, 128, 255]
                            } else if outgoing {
                                PRIMARY
                            } else {
                                p.card
                            }),
                            text_color: Some(if outgoing && !is_selected {
                                [255, 255, 255, 255]
                            } else {
                                p.on_surface
                            }),
                            corner_radius: m.dp(16.0),
                            text_size_sp: Some(16.0),
                            ..Style::default()
                        }),
                ),
        );
        bottom = row.top - m.dp(6.0);
        let starts_run = i == 0 || sms.date - messages[i - 1].date > DATE_HEADER_GAP_MS;
        if starts_run {
            let h = m.sp(20.0) + m.dp(16.0);
            let header = Bounds::new(body.left, bottom - h, body.right, bottom);
            items.push(
                View::new(class::RELATIVE_LAYOUT, header)
                    .id(id("thread_date_time_holder"))
                    .child(
                        View::new(
                            class::TEXT_VIEW,
                            at(header, 0, m.dp(8.0), header.width(), m.sp(20.0)),
                        )
                        .id(id("thread_date_time"))
                        .text(date_or_time(sys, sms.date, false))
                        .style(Style {
                            center_text: true,
                            ..text_style(13.0, p.secondary_text)
                        }),
                    ),
            );
            bottom = header.top;
        }
    }
    items.reverse();
    let list = View::new(class::RECYCLER_VIEW, body)
        .id(id("thread_messages_list"))
        .scrollable("thread_messages_list")
        .children(items);
    let icon = m.dp(48.0);
    let send = at(
        compose,
        compose.width() - m.dp(8.0) - icon,
        m.dp(8.0),
        icon,
        icon,
    );
    let holder = View::new(class::VIEW_GROUP, compose)
        .id(id("message_holder"))
        .style(Style {
            background: Some(p.card),
            ..Style::default()
        })
        .child(
            View::new(class::IMAGE_VIEW, at(compose, m.dp(4.0), m.dp(8.0), icon, icon))
                .id(id("thread_add_attachment"))
                .desc(tr(sys, "attachment"))
                .style(Style {
                    icon: Some("add"),
                    text_color: Some(p.on_surface),
                    ..Style::default()
                }),
        )
        .child(
            View::new(
                class::EDIT_TEXT,
                Bounds::new(
                    compose.left + m.dp(56.0),
                    compose.top + m.dp(8.0),
                    send.left - m.dp(8.0),
                    compose.top + m.dp(56.0),
                ),
            )
            .id(id("thread_type_message"))
            .text(draft)
            .hint(tr(sys, "type_a_message"))
            .editable("message")
            .style(text_style(16.0, p.on_surface)),
        )
        .child(
            View::new(class::BUTTON, send)
                .id(id("thread_send_message"))
                .text(tr(sys, "sms"))
                .desc(tr(sys, "ok"))
                .on_click("send")
                .enabled(!draft.trim().is_empty())
                .style(Style {
                    icon: Some("send"),
                    ..filled(p.card, p.on_surface, m.dp(8.0))
                }),
        );
    communication::root(sys)
        .id(id("thread_coordinator"))
        .child(bar)
        .child(list)
        .child(holder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_follow_simple_commons_formats() {
        let now = chrono::NaiveDate::from_ymd_opt(2024, 6, 12)
            .and_then(|d| d.and_hms_opt(15, 0, 0))
            .expect("valid");
        let sys = System::bare_at(now);
        let ms = |y, mo, d, h, mi| {
            chrono::NaiveDate::from_ymd_opt(y, mo, d)
                .and_then(|d| d.and_hms_opt(h, mi, 0))
                .expect("valid")
                .and_utc()
                .timestamp_millis()
        };
        assert_eq!(date_or_time(&sys, ms(2024, 6, 12, 9, 5), true), "09:05 AM");
        assert_eq!(date_or_time(&sys, ms(2024, 6, 12, 0, 30), false), "12:30 AM");
        assert_eq!(date_or_time(&sys, ms(2024, 6, 3, 21, 5), true), "03.06");
        assert_eq!(
            date_or_time(&sys, ms(2024, 6, 3, 21, 5), false),
            "03.06, 09:05 PM"
        );
        assert_eq!(date_or_time(&sys, ms(2023, 11, 20, 9, 5), true), "20.11.2023");
    }

    #[test]
    fn the_confirm_check_needs_three_characters() {
        assert!(!confirm_visible("55"));
        assert!(confirm_visible("555"));
    }
}

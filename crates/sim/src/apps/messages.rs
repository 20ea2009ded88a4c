//! Messages (com.google.android.apps.messaging): the conversation list, starting a chat (To field
//! with contact suggestions), and a conversation with message bubbles and the compose bar. Sent
//! texts go to `mmssms.db` as `sms` rows of type 2, where `content://sms/sent` finds them.

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::communication::{
    self, at, filled, palette, text_style, MESSAGES_PACKAGE, MESSAGES_PID,
};
use crate::apps::texting;
use crate::locale;
use crate::providers::{contacts, now_ms, phone_number, telephony};
use crate::system::{Notification, Request, System};
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

pub const PACKAGE: &str = MESSAGES_PACKAGE;
/// Its SMS_DELIVER receiver (the class name is from memory, not from a source).
pub const SMS_RECEIVER: &str =
    "com.google.android.apps.messaging.shared.receiver.SmsDeliverReceiver";
const LIST_ACTIVITY: &str = "com.google.android.apps.messaging.ui.ConversationListActivity";
const CONVERSATION_ACTIVITY: &str =
    "com.google.android.apps.messaging.ui.conversation.ConversationActivity";

/// A string of Messages' `res/` in the phone's locale.
fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("com.google.android.apps.messaging:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: LIST_ACTIVITY,
        create: |sys| {
            let _ = sys;
            Box::new(Messages::default())
        },
        install,
        on_home_screen: true,
    }
}

const INCOMING_TEXTS: [&str; 10] = [
    "Are we still on for lunch tomorrow?",
    "Running 10 minutes late, sorry!",
    "Can you call me when you get a chance?",
    "Thanks for dinner last night",
    "Don't forget to bring the charger",
    "Happy birthday! 🎉",
    "The package arrived this morning",
    "See you at the gym at 6",
    "Did you finish the report?",
    "Your verification code is 482913",
];

const REPLIES: [&str; 6] = [
    "Sounds good",
    "Sure, see you then",
    "On my way",
    "Thanks!",
    "Will do",
    "Ok, talk soon",
];

/// Seeds a few conversations on first boot, with seeded contacts where there are some.
fn install(sys: &mut System) {
    use rand::Rng;
    let Ok(conn) = telephony::open(sys) else {
        return;
    };
    let existing: i64 = conn
        .query_row("SELECT COUNT(*) FROM sms", [], |r| r.get(0))
        .unwrap_or(1);
    if existing > 0 {
        return;
    }
    let mut numbers: Vec<String> = contacts::open(sys)
        .and_then(|c| contacts::all(&c))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|c| c.primary_phone().map(str::to_string))
        .take(3)
        .collect();
    while numbers.len() < 3 {
        numbers.push(format!("+1650555{:04}", sys.rng.gen_range(1000..10_000)));
    }
    numbers.push("32665".to_string());
    let now = now_ms(sys);
    for (i, number) in numbers.iter().enumerate() {
        let start = now - (i as i64 + 1) * 5 * 3_600_000 - sys.rng.gen_range(0..3_600_000);
        let text = INCOMING_TEXTS[sys.rng.gen_range(0..INCOMING_TEXTS.len())];
        let number = phone_number::normalize(number).unwrap_or_else(|| number.clone());
        let last_is_reply = i % 2 == 1;
        if telephony::insert_sms(&conn, &number, text, start, telephony::TYPE_INBOX, true).is_err()
        {
            return;
        }
        if last_is_reply {
            let reply = REPLIES[sys.rng.gen_range(0..REPLIES.len())];
            let _ = telephony::insert_sms(
                &conn,
                &number,
                reply,
                start + 120_000,
                telephony::TYPE_SENT,
                true,
            );
        } else {
            let text = INCOMING_TEXTS[sys.rng.gen_range(0..INCOMING_TEXTS.len())];
            let _ = telephony::insert_sms(
                &conn,
                &number,
                text,
                start + 60_000,
                telephony::TYPE_INBOX,
                i != 0,
            );
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Screen {
    List,
    /// Start chat: the To field and suggestions.
    NewChat {
        query: String,
    },
    Conversation {
        thread_id: i64,
        address: String,
    },
}

#[derive(Debug, Clone)]
struct Messages {
    screen: Screen,
    draft: String,
}

impl Default for Messages {
    fn default() -> Self {
        Messages {
            screen: Screen::List,
            draft: String::new(),
        }
    }
}

/// The new-message notification Messages posts as the default SMS app: the sender (contact name,
/// else the number as shown), the text, and a tap that opens the conversation.
pub fn incoming_notification(sys: &System, text: texting::Delivered) -> Notification {
    let sender = communication::contact_name_for(sys, text.from)
        .unwrap_or_else(|| phone_number::format_for_display(text.from));
    Notification {
        package: PACKAGE.into(),
        id: texting::notification_id(text.thread_id),
        channel: "bugle_default_channel".into(),
        title: sender,
        text: text.body.to_string(),
        actions: Vec::new(),
        heads_up: false,
        when: sys.clock.now(),
        intent: Some(communication::sendto_intent(text.from)),
        tag: None,
        target: None,
        auto_cancel: true,
        ongoing: false,
        full_screen: None,
    }
}

impl Messages {
    fn open_conversation(&mut self, sys: &mut System, address: &str, created: bool) {
        let address =
            phone_number::normalize(address).unwrap_or_else(|| address.trim().to_string());
        if address.is_empty() {
            return;
        }
        let thread_id = texting::existing_thread(sys, &address).unwrap_or(-1);
        if created {
            sys.log(
                MESSAGES_PID,
                'I',
                "BugleUsageStatistics",
                "logEvent: BUGLE CREATE CONVERSATION VIA_DEFAULT",
            );
        }
        if thread_id >= 0 {
            texting::mark_read(sys, thread_id);
            // Reading the conversation clears its new-message notification.
            sys.cancel_notification(PACKAGE, texting::notification_id(thread_id));
        }
        self.screen = Screen::Conversation { thread_id, address };
        self.draft.clear();
        sys.request(Request::Focus {
            tag: "compose".to_string(),
        });
    }

    fn send(&mut self, sys: &mut System) {
        let Screen::Conversation { address, .. } = &self.screen else {
            return;
        };
        let body = self.draft.trim().to_string();
        if body.is_empty() {
            return;
        }
        let address = address.clone();
        match texting::send(sys, PACKAGE, &address, &body) {
            Ok(texting::Sent { sms_id, thread_id }) => {
                sys.log(
                    MESSAGES_PID,
                    'I',
                    "BugleDataModel",
                    format!(
                        "SendMessageAction: sending message {sms_id} in conversation {thread_id}"
                    ),
                );
                self.screen = Screen::Conversation { thread_id, address };
                self.draft.clear();
            }
            Err(e) => sys.log(
                MESSAGES_PID,
                'E',
                "BugleDataModel",
                format!("SendMessageAction: failed to store message: {e}"),
            ),
        }
    }
}

/// The name Messages shows for an address: the contact's name, else the formatted number.
fn display_name(sys: &System, address: &str) -> String {
    communication::contact_name_for(sys, address).unwrap_or_else(|| {
        if address.chars().any(|c| c.is_ascii_digit()) {
            phone_number::format_national(address)
        } else {
            address.to_string()
        }
    })
}

impl App for Messages {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.screen {
            Screen::List => LIST_ACTIVITY.to_string(),
            _ => CONVERSATION_ACTIVITY.to_string(),
        }
    }

    fn render(&self, sys: &System) -> View {
        let state = self;
        match &state.screen {
            Screen::List => render_list(sys),
            Screen::NewChat { query } => render_new_chat(sys, query),
            Screen::Conversation { thread_id, address } => {
                render_conversation(sys, *thread_id, address, &state.draft)
            }
        }
    }

    fn new_intent(&mut self, intent: &crate::app::Intent, sys: &mut System) {
        let sendto = matches!(
            intent.action.as_deref(),
            Some(communication::ACTION_SENDTO) | Some(communication::ACTION_VIEW)
        );
        if let Some(number) = communication::intent_number(intent).filter(|_| sendto) {
            self.open_conversation(sys, &number, false);
            self.draft = intent.extra("sms_body").unwrap_or_default().to_string();
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let up = matches!(event, UiEvent::Back) || matches!(event, UiEvent::Click(t) if t == "up");
        if up && self.screen != Screen::List {
            self.screen = Screen::List;
            self.draft.clear();
            sys.request(Request::ClearFocus);
            return true;
        }
        match (&self.screen, event) {
            (Screen::List, UiEvent::Click(tag)) if tag == "start_chat" => {
                self.screen = Screen::NewChat {
                    query: String::new(),
                };
                sys.request(Request::Focus {
                    tag: "recipient".to_string(),
                });
            }
            (Screen::List, UiEvent::Click(tag)) if tag.starts_with("thread:") => {
                let address = tag["thread:".len()..].to_string();
                self.open_conversation(sys, &address, false);
            }
            (Screen::NewChat { .. }, UiEvent::TextChanged { tag, text }) if tag == "recipient" => {
                self.screen = Screen::NewChat {
                    query: text.clone(),
                };
            }
            (Screen::NewChat { query }, UiEvent::EditorAction(tag)) if tag == "recipient" => {
                let target = resolve_recipient(sys, query);
                if let Some(address) = target {
                    self.open_conversation(sys, &address, true);
                }
            }
            (Screen::NewChat { .. }, UiEvent::Click(tag)) if tag.starts_with("pick:") => {
                let address = tag["pick:".len()..].to_string();
                self.open_conversation(sys, &address, true);
            }
            (Screen::NewChat { .. }, UiEvent::Click(tag)) if tag == "recipient" => {}
            (Screen::Conversation { .. }, UiEvent::TextChanged { tag, text })
                if tag == "compose" =>
            {
                self.draft = text.clone();
            }
            (Screen::Conversation { .. }, UiEvent::Click(tag)) if tag == "compose" => {}
            (Screen::Conversation { .. }, UiEvent::Click(tag)) if tag == "send" => self.send(sys),
            (Screen::Conversation { thread_id, address }, UiEvent::Click(tag)) if tag == "call" => {
                // Bugle calls the participant's send destination: the address as the network
                // delivered it (`5551234567`), not the E.164 form the conversation is keyed by,
                // so the in-call screen shows the number as the text came.
                let number =
                    texting::thread_address(sys, *thread_id).unwrap_or_else(|| address.clone());
                communication::place_call_from(sys, &number);
            }
            _ => return false,
        }
        true
    }
}

/// What the To field's text resolves to: a matching contact's number, else the typed number.
fn resolve_recipient(sys: &System, query: &str) -> Option<String> {
    let q = query.trim();
    if q.is_empty() {
        return None;
    }
    if let Some(c) = texting::matching_numbers(sys, q).into_iter().next() {
        return Some(c.number);
    }
    let digits = phone_number::strip_separators(q);
    (!digits.is_empty() && digits.len() * 2 >= q.chars().filter(|c| !c.is_whitespace()).count())
        .then_some(digits)
}

fn render_list(sys: &System) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let conn = telephony::open(sys);
    let threads = conn
        .as_ref()
        .ok()
        .and_then(|c| telephony::threads(c).ok())
        .unwrap_or_default();
    let mut root = communication::root(sys).child(
        View::new(
            class::TEXT_VIEW,
            at(c, 0, m.dp(16.0), c.width(), m.sp(32.0)),
        )
        .id(id("toolbar_title"))
        .text(tr(sys, "app_label"))
        .style(Style {
            center_text: true,
            ..text_style(22.0, p.on_surface)
        }),
    );
    let body = Bounds::new(c.left, c.top + m.dp(72.0), c.right, c.bottom);
    let mut list = View::new(class::RECYCLER_VIEW, body)
        .id(id("conversation_list"))
        .scrollable("conversation_list");
    let row_height = m.dp(80.0);
    for (i, t) in threads.iter().enumerate() {
        let b = communication::row_bounds(body, body.top, row_height, i);
        let name = display_name(sys, &t.address);
        let when = communication::short_time(sys, t.date);
        let text_color = if t.read {
            p.secondary_text
        } else {
            p.on_surface
        };
        let snippet = if t.last_outgoing {
            locale::format(&sys.locale, PACKAGE, "snippet_you", &[&t.snippet])
        } else {
            t.snippet.clone()
        };
        let row = communication::two_line_row(
            sys,
            b,
            (&id("conversation_name"), &id("conversation_snippet")),
            &name,
            &snippet,
            &format!("thread:{}", t.address),
        )
        .id(id("swipeableContainer"))
        .long_clickable()
        .desc(format!(
            "{name}, {}{}, {when}.",
            if t.read {
                String::new()
            } else {
                format!("{}, ", tr(sys, "unread"))
            },
            snippet
        ))
        .child(
            View::new(
                class::TEXT_VIEW,
                at(
                    b,
                    b.width() - m.dp(88.0),
                    m.dp(12.0),
                    m.dp(72.0),
                    m.sp(20.0),
                ),
            )
            .id(id("conversation_timestamp"))
            .text(when)
            .style(text_style(12.0, text_color)),
        );
        list = list.child(row);
    }
    if threads.is_empty() {
        list = list.child(
            communication::centered_text(
                body,
                m.dp(160.0),
                m.sp(24.0),
                tr(sys, "empty_list"),
                text_style(16.0, p.secondary_text),
            )
            .id(id("empty_state_text")),
        );
    }
    root = root.child(list);
    root.child(
        communication::fab(sys, c, tr(sys, "start_chat"), tr(sys, "start_chat"), "chat")
            .id(id("start_chat_fab"))
            .on_click("start_chat"),
    )
}

fn render_new_chat(sys: &System, query: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = communication::toolbar(
        sys,
        c,
        "com.google.android.apps.messaging",
        tr(sys, "new_conversation"),
        Some(("up", tr(sys, "navigate_up"))),
    );
    let field_top = m.dp(64.0);
    let mut root = communication::root(sys).child(bar).child(
        View::new(
            class::TEXT_VIEW,
            at(
                c,
                m.dp(16.0),
                field_top + m.dp(12.0),
                m.dp(40.0),
                m.sp(24.0),
            ),
        )
        .text(tr(sys, "to"))
        .style(text_style(16.0, p.secondary_text)),
    );
    root = root.child(
        View::new(
            class::EDIT_TEXT,
            at(c, m.dp(56.0), field_top, c.width() - m.dp(72.0), m.dp(48.0)),
        )
        .id(id("recipient_text_view"))
        .text(query)
        .hint(tr(sys, "recipient_hint"))
        .editable("recipient")
        .style(text_style(16.0, p.on_surface)),
    );
    let body = Bounds::new(c.left, c.top + field_top + m.dp(56.0), c.right, c.bottom);
    let mut list = View::new(class::RECYCLER_VIEW, body)
        .id(id("contact_picker_list"))
        .scrollable("contact_picker_list");
    let row_height = m.dp(72.0);
    let mut rows: Vec<texting::ContactNumber> = Vec::new();
    let typed = phone_number::strip_separators(query);
    if !typed.is_empty() && phone_number::digits(query).len() >= 3 {
        rows.push(texting::ContactNumber {
            name: locale::format(
                &sys.locale,
                PACKAGE,
                "send_to",
                &[&phone_number::format_for_display(&typed)],
            ),
            number: typed.clone(),
            label: String::new(),
        });
    }
    rows.extend(texting::matching_numbers(sys, query));
    for (
        i,
        texting::ContactNumber {
            name,
            number,
            label,
        },
    ) in rows.iter().enumerate()
    {
        let b = communication::row_bounds(body, body.top, row_height, i);
        let subtitle = if label.is_empty() {
            String::new()
        } else {
            format!("{number} • {label}")
        };
        list = list.child(communication::two_line_row(
            sys,
            b,
            (&id("contact_name"), &id("contact_details")),
            name,
            &subtitle,
            &format!("pick:{number}"),
        ));
    }
    root.child(list)
}

fn render_conversation(sys: &System, thread_id: i64, address: &str, draft: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let name = display_name(sys, address);
    let (bar_bounds, body, compose) = communication::conversation_bands(sys);
    let bar = communication::toolbar(
        sys,
        c,
        "com.google.android.apps.messaging",
        &name,
        Some(("up", tr(sys, "back"))),
    )
    .child(
        communication::toolbar_action(sys, bar_bounds, 1, tr(sys, "call"), "call")
            .id("com.google.android.apps.messaging:id/action_call")
            .on_click("call"),
    )
    .child(communication::toolbar_action(
        sys,
        bar_bounds,
        0,
        tr(sys, "more_options"),
        "more",
    ));
    let messages = texting::messages(sys, thread_id);
    let mut list = View::new(class::RECYCLER_VIEW, body)
        .id(id("message_list"))
        .scrollable("message_list");
    // Newest at the bottom: lay bubbles out from the bottom up, like a stack-from-end list.
    let line = m.sp(22.0);
    let max_chars = ((body.width() as f32 * 0.7) / (m.sp(8.0) as f32)).max(8.0) as usize;
    let mut bottom = body.bottom - m.dp(8.0);
    let mut bubbles = Vec::new();
    for sms in messages.iter().rev() {
        let lines = texting::wrap_count(&sms.body, max_chars);
        let height = line * lines as i32 + m.dp(20.0);
        let text_width = (sms.body.chars().count().min(max_chars) as i32) * m.sp(8.0) + m.dp(24.0);
        let outgoing = sms.kind != telephony::TYPE_INBOX;
        let left = if outgoing {
            body.right - m.dp(16.0) - text_width
        } else {
            body.left + m.dp(16.0)
        };
        let b = Bounds::new(left, bottom - height, left + text_width, bottom);
        let when = communication::clock_time(sys, sms.date);
        let who = if outgoing {
            tr(sys, "you").to_string()
        } else {
            name.clone()
        };
        let status = if outgoing {
            format!(", , {}", tr(sys, "sent"))
        } else {
            String::new()
        };
        bubbles.push(
            View::new(class::VIEW_GROUP, b)
                .id(id("message_content"))
                .long_clickable()
                .child(
                    View::new(class::TEXT_VIEW, b)
                        .id(id("message_text"))
                        .text(sms.body.clone())
                        .selectable(&format!("message:{}", sms.id))
                        .desc(format!(
                            "{}  {} {when} .{status}",
                            locale::format(&sys.locale, PACKAGE, "said", &[&who]),
                            sms.body
                        ))
                        .style(Style {
                            background: Some(if outgoing {
                                p.card
                            } else {
                                [241, 243, 244, 255]
                            }),
                            text_color: Some(if outgoing {
                                p.on_surface
                            } else {
                                [32, 33, 36, 255]
                            }),
                            corner_radius: m.dp(18.0),
                            text_size_sp: Some(16.0),
                            ..Style::default()
                        }),
                ),
        );
        bottom = b.top - m.dp(8.0);
    }
    bubbles.reverse();
    list = list.children(bubbles);
    let send_size = m.dp(48.0);
    let root = communication::root(sys).child(bar).child(list);
    root.child(
        View::new(class::LINEAR_LAYOUT, compose)
            .id(id("compose_message_layout"))
            .child(
                View::new(
                    class::EDIT_TEXT,
                    at(
                        compose,
                        m.dp(16.0),
                        m.dp(8.0),
                        compose.width() - m.dp(32.0) - send_size - m.dp(8.0),
                        m.dp(48.0),
                    ),
                )
                .id(id("compose_message_text"))
                .text(draft)
                .hint(tr(sys, "compose_hint"))
                .editable("compose")
                .style(filled([241, 243, 244, 255], [32, 33, 36, 255], m.dp(24.0))),
            )
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    at(
                        compose,
                        compose.width() - m.dp(16.0) - send_size,
                        m.dp(8.0),
                        send_size,
                        send_size,
                    ),
                )
                .id(id("send_message_button_icon"))
                .desc(tr(sys, "send_sms"))
                .on_click("send")
                .enabled(!draft.trim().is_empty())
                .style(Style {
                    icon: Some("send"),
                    ..filled(p.accent, p.on_accent, send_size / 2)
                }),
            ),
    )
}

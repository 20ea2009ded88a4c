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
//!
//! MainActivity's `loadMessages` asks for the SMS role when the app does not hold it: the role
//! request dialog ([`role_request`]) comes up over the list; "Set as default" makes the app the
//! default SMS app and shows the list, Cancel or Back finishes the app. As the default SMS app its
//! `SmsReceiver` posts each text's notification (`NotificationHelper.showMessageNotification`),
//! which opening the thread or "Mark as Read" clears.

mod screens;

use crate::app::{App, AppInfo, Intent, UiEvent};
use crate::apps::communication;
use crate::apps::role_request::{self, RoleRequest, Start};
use crate::apps::texting;
use crate::apps::widgets::DialogResult;
use crate::locale;
use crate::providers::phone_number;
use crate::roles;
use crate::system::{Notification, Request, System};
use crate::view::View;

pub const PACKAGE: &str = "com.simplemobiletools.smsmessenger";
/// Its SMS_DELIVER receiver (AndroidManifest.xml).
pub const SMS_RECEIVER: &str = "com.simplemobiletools.smsmessenger.receivers.SmsReceiver";
/// `NOTIFICATION_CHANNEL`, the channel of received texts.
const NOTIFICATION_CHANNEL: &str = "simple_sms_messenger";
/// The `THREAD_ID` extra of the notification's ThreadActivity intent.
const THREAD_ID_EXTRA: &str = "thread_id";
/// The notification's "Mark as Read" button: `MarkAsReadReceiver` for the thread.
const MARK_AS_READ_PREFIX: &str = "mark_as_read:";
pub const MAIN_ACTIVITY: &str = "com.simplemobiletools.smsmessenger.activities.MainActivity";
/// The launcher entry: an enabled `<activity-alias>` (the app's default orange icon) of
/// SplashActivity, which starts MainActivity and finishes, so MainActivity is what shows.
pub const LAUNCH_ACTIVITY: &str =
    "com.simplemobiletools.smsmessenger.activities.SplashActivity.Orange";
pub const SPLASH_ACTIVITY: &str = "com.simplemobiletools.smsmessenger.activities.SplashActivity";
const NEW_CONVERSATION_ACTIVITY: &str =
    "com.simplemobiletools.smsmessenger.activities.NewConversationActivity";
const THREAD_ACTIVITY: &str = "com.simplemobiletools.smsmessenger.activities.ThreadActivity";
/// The process id its log lines carry.
const PID: u32 = 3391;
/// Simple Commons' `copyToClipboard` labels its clip with the library's name.
const CLIP_LABEL: &str = "Simple Commons";

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: LAUNCH_ACTIVITY,
        create: |sys| Box::new(SimpleSms::created(sys)),
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
    /// The role request MainActivity started for a result, on top of the task while it shows.
    role_request: Option<RoleRequest>,
    /// Nothing has reached the app since its process started.
    fresh: bool,
}

impl SimpleSms {
    /// A new process whose MainActivity runs `loadMessages`: not the default SMS app, it asks to be.
    fn created(sys: &mut System) -> Self {
        let role_request = if sys.roles.holds(roles::SMS, PACKAGE) {
            None
        } else {
            match RoleRequest::start(sys, roles::SMS, PACKAGE) {
                Start::Dialog(request) => Some(request),
                Start::AlreadyHolder => None,
                // RESULT_CANCELED at once: `onActivityResult` finishes MainActivity.
                Start::DeniedAlways => {
                    sys.request(Request::FinishTask {
                        package: PACKAGE.to_string(),
                    });
                    None
                }
            }
        };
        SimpleSms {
            stack: vec![Screen::Main {
                search: String::new(),
            }],
            role_request,
            fresh: true,
        }
    }
}

/// The notification `SmsReceiver` posts for a text as the default SMS app, with the app's default
/// lock-screen setting (sender and message): a MessagingStyle titled with the sender's contact name
/// or address, the body, "Mark as Read", and a tap that opens the thread (`ThreadActivity` with
/// `thread_id`). The inline Reply action (a RemoteInput) is not modelled.
pub fn incoming_notification(sys: &System, text: texting::Delivered) -> Notification {
    Notification {
        package: PACKAGE.into(),
        id: texting::notification_id(text.thread_id),
        channel: NOTIFICATION_CHANNEL.into(),
        title: title_for(sys, text.from),
        text: text.body.to_string(),
        actions: vec![(
            format!("{MARK_AS_READ_PREFIX}{}", text.thread_id),
            tr(sys, "mark_as_read").to_string(),
        )],
        heads_up: false,
        when: sys.clock.now(),
        intent: Some(Intent {
            extras: vec![(THREAD_ID_EXTRA.into(), text.thread_id.to_string())],
            ..Intent::default()
        }),
        tag: None,
        target: None,
        auto_cancel: true,
        ongoing: false,
        full_screen: None,
    }
}

/// Reading a thread (ThreadActivity, `MarkAsReadReceiver`) marks it read and cancels its
/// notification. Only the default SMS app may write the provider (AppOps WRITE_SMS, which the
/// SMS role grants): another app's update is ignored, so its texts stay unread.
fn read_thread(sys: &mut System, thread_id: i64) {
    if sys.roles.holds(roles::SMS, PACKAGE) {
        texting::mark_read(sys, thread_id);
    }
    sys.cancel_notification(PACKAGE, texting::notification_id(thread_id));
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
            read_thread(sys, thread_id);
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
        if self.role_request.is_some() {
            return role_request::ACTIVITY.to_string();
        }
        match self.top() {
            Screen::Main { .. } => MAIN_ACTIVITY,
            Screen::NewConversation { .. } => NEW_CONVERSATION_ACTIVITY,
            Screen::Thread { .. } => THREAD_ACTIVITY,
        }
        .to_string()
    }

    fn activity_package(&self) -> &'static str {
        if self.role_request.is_some() {
            role_request::PACKAGE
        } else {
            PACKAGE
        }
    }

    fn render(&self, sys: &System) -> View {
        if let Some(request) = &self.role_request {
            return request.render(sys);
        }
        match self.top() {
            Screen::Main { search } => screens::render_main(sys, search),
            Screen::NewConversation { query } => screens::render_new_conversation(sys, query),
            Screen::Thread {
                thread_id,
                title,
                draft,
                selected,
                ..
            } => screens::render_thread(sys, *thread_id, title, draft, *selected),
        }
    }

    /// NewConversationActivity's third-party intent (SENDTO/VIEW `sms:`/`smsto:`, `sms_body`): it
    /// opens the thread at once and finishes itself.
    fn new_intent(&mut self, intent: &Intent, sys: &mut System) {
        // An intent for another activity started the process: MainActivity never ran, so it
        // asked for nothing.
        let opens_thread = intent.extra(THREAD_ID_EXTRA).is_some()
            || communication::intent_number(intent).is_some();
        if std::mem::take(&mut self.fresh) && opens_thread {
            self.role_request = None;
        }
        if let Some(thread_id) = intent
            .extra(THREAD_ID_EXTRA)
            .and_then(|t| t.parse::<i64>().ok())
        {
            if let Some(address) = texting::thread_address(sys, thread_id) {
                self.open_thread(sys, &address, "", "");
            }
            return;
        }
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
        let fresh = std::mem::take(&mut self.fresh);
        if let UiEvent::Click(tag) = event {
            if let Some(thread_id) = tag
                .strip_prefix(MARK_AS_READ_PREFIX)
                .and_then(|t| t.parse::<i64>().ok())
            {
                // A broadcast to MarkAsReadReceiver: no activity started, none asked for the role.
                if fresh {
                    self.role_request = None;
                }
                read_thread(sys, thread_id);
                return true;
            }
        }
        if let Some(request) = &mut self.role_request {
            match request.handle(event, sys) {
                DialogResult::Pending => {}
                // RESULT_OK: `askPermissions` finds the role's permissions granted; the list shows.
                DialogResult::Ok(()) => self.role_request = None,
                // RESULT_CANCELED: `onActivityResult` finishes MainActivity.
                DialogResult::Cancel => {
                    self.role_request = None;
                    self.stack.clear();
                    sys.request(Request::Finish);
                }
            }
            return true;
        }
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
            (Screen::NewConversation { .. }, UiEvent::Click(tag))
                if tag.starts_with("contact:") =>
            {
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
            (Screen::Thread { selected, .. }, UiEvent::LongClick(tag))
                if tag.starts_with("msg:") =>
            {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_confirm_check_needs_three_characters() {
        assert!(!confirm_visible("55"));
        assert!(confirm_visible("555"));
    }
}

//! What the Phone, Contacts and Messages apps share: handing an intent (call this number, text
//! this number, show this contact) from one app to another, Telecom's side of placing a call,
//! the process ids their log lines carry, and small layout pieces (toolbar, list rows, FAB).
//!
//! Intents travel through a file under `/data/system/sim_intents/<package>` because the
//! framework's `Request::Launch` carries only a package: the sender writes the file and asks for
//! the launch, the receiver applies it on its next event (and shows it already on the next
//! frame), then deletes it.

use crate::geom::Bounds;
use crate::sim::providers::{contacts, now_ms, phone_number};
use crate::sim::system::{Namespace, Request, System};
use crate::sim::view::{class, Style, View};

/// system_server, which hosts Telecom and ActivityTaskManager.
pub const SYSTEM_SERVER_PID: u32 = crate::sim::system::pid::SYSTEM_SERVER;
pub const DIALER_PID: u32 = 2841;
pub const CONTACTS_PID: u32 = 3012;
pub const MESSAGES_PID: u32 = 3177;

pub const DIALER_PACKAGE: &str = "com.google.android.dialer";
pub const CONTACTS_PACKAGE: &str = "com.google.android.contacts";
pub const MESSAGES_PACKAGE: &str = "com.google.android.apps.messaging";

/// What one app asks another to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Intent {
    /// Telecom placed a call; the dialer shows the in-call screen. `from` is the app to return to.
    Call {
        number: String,
        started_ms: i64,
        call_id: i64,
        from: String,
    },
    /// Open the dialpad with this number typed (ACTION_DIAL).
    Dial { number: String },
    /// Open a conversation with this number (ACTION_SENDTO sms:).
    SendTo { number: String },
    /// Show one contact (ACTION_VIEW on a contact URI).
    ViewContact { id: i64 },
}

impl Intent {
    fn encode(&self) -> String {
        match self {
            Intent::Call {
                number,
                started_ms,
                call_id,
                from,
            } => format!("CALL\t{number}\t{started_ms}\t{call_id}\t{from}"),
            Intent::Dial { number } => format!("DIAL\t{number}"),
            Intent::SendTo { number } => format!("SENDTO\t{number}"),
            Intent::ViewContact { id } => format!("VIEW\t{id}"),
        }
    }

    fn decode(text: &str) -> Option<Intent> {
        let parts: Vec<&str> = text.trim_end_matches('\n').split('\t').collect();
        match parts.as_slice() {
            ["CALL", number, started, id, from] => Some(Intent::Call {
                number: number.to_string(),
                started_ms: started.parse().ok()?,
                call_id: id.parse().ok()?,
                from: from.to_string(),
            }),
            ["DIAL", number] => Some(Intent::Dial {
                number: number.to_string(),
            }),
            ["SENDTO", number] => Some(Intent::SendTo {
                number: number.to_string(),
            }),
            ["VIEW", id] => Some(Intent::ViewContact {
                id: id.parse().ok()?,
            }),
            _ => None,
        }
    }
}

fn intent_path(package: &str) -> String {
    format!("/data/system/sim_intents/{package}")
}

/// Delivers an intent to `package` and asks the framework to bring it to the front.
pub fn send_intent(sys: &mut System, package: &str, intent: &Intent) {
    if let Some(path) = sys.host_path(&intent_path(package)) {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(path, intent.encode());
    }
    sys.request(Request::Launch {
        package: package.to_string(),
        intent: None,
    });
}

/// The intent waiting for `package`, left in place (for rendering before it is applied).
pub fn pending_intent(sys: &System, package: &str) -> Option<Intent> {
    let path = sys.host_path(&intent_path(package))?;
    let text = std::fs::read_to_string(path).ok()?;
    Intent::decode(&text)
}

/// The intent waiting for `package`, consumed.
pub fn take_intent(sys: &System, package: &str) -> Option<Intent> {
    let intent = pending_intent(sys, package);
    if let Some(path) = sys.host_path(&intent_path(package)) {
        let _ = std::fs::remove_file(path);
    }
    intent
}

/// Telecom's side of an outgoing call `TC@call_id`: logs what Telecom logs and marks the phone
/// off-hook.
pub fn telecom_place_call(sys: &mut System, number: &str, call_id: i64) {
    let dialed = phone_number::strip_separators(number);
    sys.log(
        SYSTEM_SERVER_PID,
        'I',
        "Telecom",
        format!("CallIntentProcessor: processOutgoingCallIntent: TC@{call_id}"),
    );
    sys.log(
        SYSTEM_SERVER_PID,
        'I',
        "Telecom",
        format!("LogUtils: EventRecord added as Call: TC@{call_id}"),
    );
    if phone_number::is_emergency(&dialed) {
        sys.log(
            SYSTEM_SERVER_PID,
            'I',
            "Telecom",
            format!(
                "NewOutgoingCallIntentBroadcaster: processIntent: Emergency number detected: {dialed}: TC@{call_id}"
            ),
        );
    }
    sys.log(
        SYSTEM_SERVER_PID,
        'I',
        "Telecom",
        format!("InCallController: onCallAdded: TC@{call_id}"),
    );
    set_call_state(sys, CALL_STATE_OFFHOOK, &dialed);
}

const CALL_STATE_PATH: &str = "/data/system/sim_telecom/call_state";

/// TelephonyManager call states, as `dumpsys telephony.registry` prints `mCallState`.
pub const CALL_STATE_IDLE: i32 = 0;
pub const CALL_STATE_OFFHOOK: i32 = 2;

/// Records Telecom's call state (and the number in the call) for `dumpsys telephony.registry`.
pub fn set_call_state(sys: &System, state: i32, number: &str) {
    if let Some(path) = sys.host_path(CALL_STATE_PATH) {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(path, format!("{state}\t{number}"));
    }
}

/// The current call state and number (`mCallState`, `mCallIncomingNumber`); idle when no call
/// was ever placed.
pub fn call_state(sys: &System) -> (i32, String) {
    sys.host_path(CALL_STATE_PATH)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| {
            let (state, number) = text.split_once('\t')?;
            Some((state.parse().ok()?, number.to_string()))
        })
        .unwrap_or((CALL_STATE_IDLE, String::new()))
}

/// Places a call from another app: Telecom logs it and the dialer's in-call screen comes up.
pub fn place_call_from(sys: &mut System, number: &str, from: &str) {
    let call_id = next_call_id(sys);
    telecom_place_call(sys, number, call_id);
    let intent = Intent::Call {
        number: phone_number::strip_separators(number),
        started_ms: now_ms(sys),
        call_id,
        from: from.to_string(),
    };
    send_intent(sys, DIALER_PACKAGE, &intent);
}

/// Telecom numbers calls from the call log's high-water mark.
pub fn next_call_id(sys: &System) -> i64 {
    crate::sim::providers::calllog::open(sys)
        .and_then(|c| crate::sim::providers::calllog::count(&c))
        .unwrap_or(0)
        + 1
}

/// The contact name for a number, for caller id and conversation titles.
pub fn contact_name_for(sys: &System, number: &str) -> Option<String> {
    let conn = contacts::open(sys).ok()?;
    contacts::lookup_number(&conn, number)
        .ok()
        .flatten()
        .map(|c| c.name)
}

/// Colours of the current theme (dark when `ui_night_mode` is 2).
#[derive(Debug, Clone, Copy)]
pub struct Palette {
    pub surface: [u8; 4],
    pub on_surface: [u8; 4],
    pub secondary_text: [u8; 4],
    pub accent: [u8; 4],
    pub on_accent: [u8; 4],
    pub card: [u8; 4],
}

pub fn palette(sys: &System) -> Palette {
    let dark = sys.settings.get(Namespace::Secure, "ui_night_mode") == Some("2");
    if dark {
        Palette {
            surface: [32, 33, 36, 255],
            on_surface: [232, 234, 237, 255],
            secondary_text: [154, 160, 166, 255],
            accent: [138, 180, 248, 255],
            on_accent: [32, 33, 36, 255],
            card: [48, 49, 52, 255],
        }
    } else {
        Palette {
            surface: [255, 255, 255, 255],
            on_surface: [32, 33, 36, 255],
            secondary_text: [95, 99, 104, 255],
            accent: [26, 115, 232, 255],
            on_accent: [255, 255, 255, 255],
            card: [232, 240, 254, 255],
        }
    }
}

/// A text style of `size` sp in `color`.
pub fn text_style(size: f32, color: [u8; 4]) -> Style {
    Style {
        text_color: Some(color),
        text_size_sp: Some(size),
        ..Style::default()
    }
}

/// A filled, rounded style (buttons, FABs, bubbles).
pub fn filled(background: [u8; 4], text: [u8; 4], radius: i32) -> Style {
    Style {
        background: Some(background),
        text_color: Some(text),
        corner_radius: radius,
        center_text: true,
        ..Style::default()
    }
}

/// Bounds relative to a parent's top-left corner.
pub fn at(parent: Bounds, left: i32, top: i32, width: i32, height: i32) -> Bounds {
    Bounds::new(
        parent.left + left,
        parent.top + top,
        parent.left + left + width,
        parent.top + top + height,
    )
}

/// The app's root: a full-content FrameLayout filled with the surface colour.
pub fn root(sys: &System) -> View {
    View::new(class::FRAME_LAYOUT, sys.metrics.content).style(Style {
        background: Some(palette(sys).surface),
        ..Style::default()
    })
}

/// A 64dp toolbar (`<id_package>:id/toolbar`) at the top of `area` with an optional navigate-up
/// button and a title.
pub fn toolbar(
    sys: &System,
    area: Bounds,
    id_package: &str,
    title: &str,
    up: Option<(&str, &str)>,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let height = m.dp(64.0);
    let bar = Bounds::new(area.left, area.top, area.right, area.top + height);
    let mut toolbar = View::new(class::VIEW_GROUP, bar).id(format!("{id_package}:id/toolbar"));
    let mut title_left = m.dp(16.0);
    if let Some((tag, desc)) = up {
        let button = View::new(
            class::IMAGE_BUTTON,
            at(bar, m.dp(4.0), m.dp(8.0), m.dp(48.0), m.dp(48.0)),
        )
        .desc(desc)
        .on_click(tag)
        .style(Style {
            icon: Some("back"),
            text_color: Some(p.on_surface),
            ..Style::default()
        });
        toolbar = toolbar.child(button);
        title_left = m.dp(64.0);
    }
    if !title.is_empty() {
        toolbar = toolbar.child(
            View::new(
                class::TEXT_VIEW,
                at(
                    bar,
                    title_left,
                    m.dp(16.0),
                    bar.width() - title_left - m.dp(112.0),
                    m.dp(32.0),
                ),
            )
            .text(title)
            .style(text_style(20.0, p.on_surface)),
        );
    }
    toolbar
}

/// An icon button in a toolbar, `slot` counted from the right edge (0 = rightmost).
pub fn toolbar_action(
    sys: &System,
    bar: Bounds,
    slot: i32,
    desc: &str,
    icon: &'static str,
) -> View {
    let m = sys.metrics;
    let size = m.dp(48.0);
    let left = bar.right - m.dp(4.0) - size * (slot + 1);
    View::new(
        class::IMAGE_BUTTON,
        Bounds::new(
            left,
            bar.top + m.dp(8.0),
            left + size,
            bar.top + m.dp(8.0) + size,
        ),
    )
    .desc(desc)
    .style(Style {
        icon: Some(icon),
        text_color: Some(palette(sys).on_surface),
        ..Style::default()
    })
}

/// A floating action button in the bottom-right corner of `area`.
pub fn fab(sys: &System, area: Bounds, text: &str, desc: &str, icon: &'static str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let height = m.dp(56.0);
    let width = if text.is_empty() {
        height
    } else {
        m.dp(56.0) + m.sp(9.0) * text.chars().count() as i32
    };
    let right = area.right - m.dp(16.0);
    let bottom = area.bottom - m.dp(16.0);
    View::new(
        class::BUTTON,
        Bounds::new(right - width, bottom - height, right, bottom),
    )
    .text(text)
    .desc(desc)
    .style(Style {
        icon: Some(icon),
        ..filled(p.card, p.on_surface, m.dp(16.0))
    })
}

/// A two-line list row (title and subtitle) at `bounds`, clickable with `tag`.
pub fn two_line_row(
    sys: &System,
    bounds: Bounds,
    ids: (&str, &str),
    title: &str,
    subtitle: &str,
    tag: &str,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let text_left = m.dp(72.0);
    let width = bounds.width() - text_left - m.dp(72.0);
    let mut row = View::new(class::VIEW_GROUP, bounds).on_click(tag).child(
        View::new(
            class::IMAGE_VIEW,
            at(
                bounds,
                m.dp(16.0),
                (bounds.height() - m.dp(40.0)) / 2,
                m.dp(40.0),
                m.dp(40.0),
            ),
        )
        .style(Style {
            background: Some(avatar_color(title)),
            corner_radius: m.dp(20.0),
            text_color: Some([255, 255, 255, 255]),
            ..Style::default()
        }),
    );
    let title_top = if subtitle.is_empty() {
        (bounds.height() - m.sp(24.0)) / 2
    } else {
        m.dp(10.0)
    };
    row = row.child(
        View::new(
            class::TEXT_VIEW,
            at(bounds, text_left, title_top, width, m.sp(24.0)),
        )
        .id(ids.0)
        .text(title)
        .style(text_style(16.0, p.on_surface)),
    );
    if !subtitle.is_empty() {
        row = row.child(
            View::new(
                class::TEXT_VIEW,
                at(
                    bounds,
                    text_left,
                    m.dp(10.0) + m.sp(24.0),
                    width,
                    m.sp(20.0),
                ),
            )
            .id(ids.1)
            .text(subtitle)
            .style(text_style(14.0, p.secondary_text)),
        );
    }
    row
}

/// A stable avatar colour per name.
pub fn avatar_color(name: &str) -> [u8; 4] {
    const COLORS: [[u8; 4]; 6] = [
        [26, 115, 232, 255],
        [217, 48, 37, 255],
        [24, 128, 56, 255],
        [227, 116, 0, 255],
        [161, 66, 244, 255],
        [0, 131, 143, 255],
    ];
    let sum: u32 = name.chars().map(|c| c as u32).sum();
    COLORS[(sum as usize) % COLORS.len()]
}

/// `h:mm AM` for a timestamp in ms (the phone's zone is UTC).
pub fn clock_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%-I:%M %p").to_string())
        .unwrap_or_default()
}

/// What a list shows for a message or call time: the time today, else `Mon d`.
pub fn short_time(sys: &System, ms: i64) -> String {
    let Some(t) = chrono::DateTime::from_timestamp_millis(ms) else {
        return String::new();
    };
    if t.date_naive() == sys.clock.now().date() {
        t.format("%-I:%M %p").to_string()
    } else {
        t.format("%b %-d").to_string()
    }
}

/// Rows of `height` px stacked from `top`, `count` of them, inside `area`'s width.
pub fn row_bounds(area: Bounds, top: i32, height: i32, index: usize) -> Bounds {
    let y = top + height * index as i32;
    Bounds::new(area.left, y, area.right, y + height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intents_round_trip() {
        let intents = [
            Intent::Call {
                number: "911".into(),
                started_ms: 5,
                call_id: 3,
                from: CONTACTS_PACKAGE.into(),
            },
            Intent::Dial {
                number: "+1 650".into(),
            },
            Intent::SendTo {
                number: "123".into(),
            },
            Intent::ViewContact { id: 9 },
        ];
        for intent in intents {
            assert_eq!(Intent::decode(&intent.encode()), Some(intent));
        }
        assert_eq!(Intent::decode("CALL\tx"), None);
    }
}

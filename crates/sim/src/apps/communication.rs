//! What the Phone, Contacts and Messages apps share: the intents they start each other with
//! (call, dial, text, show or add a contact), the process ids their log lines carry, and small
//! layout pieces (toolbar, list rows, FAB).
//!
//! Intents go through the framework: an app queues `Request::Launch` with an [`Intent`], and the
//! framework starts or raises the target and hands it the intent (`App::new_intent`).

use chrono::{Datelike, Timelike};

use crate::app::Intent;
use crate::locale::{self, DateStyle};
use crate::providers::{contacts, phone_number};
use crate::system::{Namespace, Request, System};
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// system_server, which hosts Telecom and ActivityTaskManager.
pub const SYSTEM_SERVER_PID: u32 = crate::system::pid::SYSTEM_SERVER;
pub const DIALER_PID: u32 = 2841;
pub const CONTACTS_PID: u32 = 3012;
pub const MESSAGES_PID: u32 = 3177;

pub const DIALER_PACKAGE: &str = "com.google.android.dialer";
pub const CONTACTS_PACKAGE: &str = "com.google.android.contacts";
pub const MESSAGES_PACKAGE: &str = "com.google.android.apps.messaging";

pub const ACTION_CALL: &str = "android.intent.action.CALL";
pub const ACTION_DIAL: &str = "android.intent.action.DIAL";
pub const ACTION_SENDTO: &str = "android.intent.action.SENDTO";
pub const ACTION_VIEW: &str = "android.intent.action.VIEW";
pub const ACTION_INSERT: &str = "android.intent.action.INSERT";
/// The contact a Contacts intent shows, as `content://com.android.contacts/contacts/<id>`.
const CONTACT_URI: &str = "content://com.android.contacts/contacts/";

fn intent(action: &str, data: String) -> Intent {
    Intent {
        action: Some(action.to_string()),
        data: Some(data),
        ..Intent::default()
    }
}

/// ACTION_CALL `tel:NUMBER`: Telecom places the call and the in-call screen shows it.
pub fn call_intent(number: &str) -> Intent {
    intent(
        ACTION_CALL,
        format!("tel:{}", phone_number::strip_separators(number)),
    )
}

/// ACTION_SENDTO `smsto:NUMBER`: a conversation with this number.
pub fn sendto_intent(number: &str) -> Intent {
    intent(ACTION_SENDTO, format!("smsto:{}", number.trim()))
}

/// ACTION_VIEW of one contact.
pub fn view_contact_intent(id: i64) -> Intent {
    intent(ACTION_VIEW, format!("{CONTACT_URI}{id}"))
}

/// ACTION_INSERT of a contact with this phone number (the dialpad's "Create new contact").
pub fn insert_contact_intent(number: &str) -> Intent {
    Intent {
        action: Some(ACTION_INSERT.into()),
        mime: Some("vnd.android.cursor.dir/contact".into()),
        extras: vec![("phone".into(), number.to_string())],
        ..Intent::default()
    }
}

/// The number a `tel:`, `sms:` or `smsto:` intent addresses.
pub fn intent_number(intent: &Intent) -> Option<String> {
    let data = intent.data.as_deref()?;
    let (scheme, rest) = data.split_once(':')?;
    matches!(scheme, "tel" | "sms" | "smsto" | "mms" | "mmsto").then(|| {
        // `smsto:+1%20650…` may arrive URI-encoded from `am start -d`.
        rest.replace("%20", " ")
            .replace("%2B", "+")
            .trim()
            .to_string()
    })
}

/// The contact id an ACTION_VIEW intent of a contact URI names.
pub fn intent_contact_id(intent: &Intent) -> Option<i64> {
    intent
        .data
        .as_deref()?
        .strip_prefix(CONTACT_URI)?
        .parse()
        .ok()
}

/// Asks the framework to start `package` with `intent`.
pub fn send_intent(sys: &mut System, package: &str, intent: Intent) {
    sys.request(Request::Launch {
        package: package.to_string(),
        intent: Some(intent),
    });
}

/// Texts a number from another app: ACTION_SENDTO `smsto:`, which the default SMS app (the SMS
/// role's holder, its preferred activity) takes.
pub fn text_from(sys: &mut System, number: &str) {
    let package = sys
        .roles
        .sms_holder()
        .unwrap_or(MESSAGES_PACKAGE)
        .to_string();
    send_intent(sys, &package, sendto_intent(number));
}

/// Calls a number from another app: ACTION_CALL to the Dialer, which has Telecom place it.
pub fn place_call_from(sys: &mut System, number: &str) {
    send_intent(sys, DIALER_PACKAGE, call_intent(number));
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
    toolbar_with_nav(
        sys,
        area,
        id_package,
        title,
        up.map(|(tag, desc)| (tag, desc, "back")),
    )
}

/// [`toolbar`] whose navigation button (tag, description, icon) is another than navigate-up: a
/// drawer's "menu", say.
pub fn toolbar_with_nav(
    sys: &System,
    area: Bounds,
    id_package: &str,
    title: &str,
    nav: Option<(&str, &str, &'static str)>,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let height = m.dp(64.0);
    let bar = Bounds::new(area.left, area.top, area.right, area.top + height);
    let mut toolbar = View::new(class::VIEW_GROUP, bar).id(format!("{id_package}:id/toolbar"));
    let mut title_left = m.dp(16.0);
    if let Some((tag, desc, icon)) = nav {
        let button = View::new(
            class::IMAGE_BUTTON,
            at(bar, m.dp(4.0), m.dp(8.0), m.dp(48.0), m.dp(48.0)),
        )
        .desc(desc)
        .on_click(tag)
        .style(Style {
            icon: Some(icon),
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

/// A list row's leading icon: `size_dp` square, 16dp in from the row's start, centred on it.
pub fn leading_icon(
    sys: &System,
    row: Bounds,
    size_dp: f32,
    icon: &'static str,
    color: [u8; 4],
) -> View {
    let m = sys.metrics;
    let size = m.dp(size_dp);
    View::new(
        class::IMAGE_VIEW,
        at(row, m.dp(16.0), (row.height() - size) / 2, size, size),
    )
    .style(Style {
        icon: Some(icon),
        text_color: Some(color),
        ..Style::default()
    })
}

/// A list row's one-line label, `left_dp` in and ending 16dp before the row's end, centred on it.
pub fn row_label(
    sys: &System,
    row: Bounds,
    left_dp: f32,
    text: impl Into<String>,
    style: Style,
) -> View {
    let m = sys.metrics;
    let left = m.dp(left_dp);
    View::new(
        class::TEXT_VIEW,
        at(
            row,
            left,
            (row.height() - m.sp(24.0)) / 2,
            row.width() - left - m.dp(16.0),
            m.sp(24.0),
        ),
    )
    .text(text)
    .style(style)
}

/// An overflow menu dropped under the toolbar's right edge, `width_dp` wide: one row per (tag,
/// title), each a `TextView` with `item_id`; a tap outside it is `menu_dismiss`.
pub fn overflow_menu(
    sys: &System,
    items: &[(&str, &str)],
    width_dp: f32,
    list_id: &str,
    item_id: &str,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let row_h = m.dp(48.0);
    let width = m.dp(width_dp);
    let list = Bounds::new(
        c.right - width - m.dp(8.0),
        c.top + m.dp(8.0),
        c.right - m.dp(8.0),
        c.top + m.dp(8.0) + row_h * items.len() as i32 + m.dp(16.0),
    );
    let rows = items.iter().enumerate().map(|(i, (tag, title))| {
        View::new(
            class::TEXT_VIEW,
            at(
                list,
                m.dp(16.0),
                m.dp(8.0) + row_h * i as i32,
                width - m.dp(32.0),
                row_h,
            ),
        )
        .id(item_id)
        .text(*title)
        .on_click(*tag)
        .style(Style {
            text_color: Some(p.on_surface),
            text_size_sp: Some(16.0),
            ..Style::default()
        })
    });
    View::new(class::FRAME_LAYOUT, c)
        .on_click("menu_dismiss")
        .child(
            View::new(class::LIST_VIEW, list)
                .id(list_id)
                .style(Style {
                    background: Some(p.surface),
                    corner_radius: m.dp(4.0),
                    ..Style::default()
                })
                .children(rows),
        )
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

/// A timestamp's time of day (ms; the phone's zone is UTC) as the phone writes it in its
/// locale and clock: "9:05 AM", "오전 9:05", "09:05", "٩:٠٥ ص".
pub fn clock_time(sys: &System, ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| super::widgets::format_time(sys, t.hour(), t.minute()))
        .unwrap_or_default()
}

/// What a list shows for a message or call time (Android's `DateUtils` abbreviated forms): the
/// time today, the month and day this year ("Jun 3", "3 juin"), the short date before.
pub fn short_time(sys: &System, ms: i64) -> String {
    let Some(t) = chrono::DateTime::from_timestamp_millis(ms) else {
        return String::new();
    };
    let (date, today) = (t.date_naive(), sys.clock.now().date());
    if date == today {
        return clock_time(sys, ms);
    }
    let style = if date.year() == today.year() {
        DateStyle::MonthDay
    } else {
        DateStyle::Short
    };
    locale::format_date(date, &sys.locale, style)
}

/// A conversation screen's three bands, top to bottom: the 64dp toolbar, the message list and
/// the 64dp compose bar.
pub fn conversation_bands(sys: &System) -> (Bounds, Bounds, Bounds) {
    let m = sys.metrics;
    let c = m.content;
    let bar = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let compose = Bounds::new(c.left, c.bottom - m.dp(64.0), c.right, c.bottom);
    (
        bar,
        Bounds::new(c.left, bar.bottom, c.right, compose.top),
        compose,
    )
}

/// A line of centred text across `area`, `top` px down and `height` px tall: the empty-list and
/// search placeholders.
pub fn centered_text(area: Bounds, top: i32, height: i32, text: &str, style: Style) -> View {
    View::new(class::TEXT_VIEW, at(area, 0, top, area.width(), height))
        .text(text)
        .style(Style {
            center_text: true,
            ..style
        })
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
    fn list_times_follow_the_locale_and_its_clock() {
        let now = chrono::NaiveDate::from_ymd_opt(2024, 6, 12)
            .and_then(|d| d.and_hms_opt(15, 0, 0))
            .expect("valid");
        let mut sys = System::bare_at(now);
        let ms = |y, mo, d, h, mi| {
            chrono::NaiveDate::from_ymd_opt(y, mo, d)
                .and_then(|d| d.and_hms_opt(h, mi, 0))
                .expect("valid")
                .and_utc()
                .timestamp_millis()
        };
        let today = ms(2024, 6, 12, 9, 5);
        let this_year = ms(2024, 6, 3, 9, 5);
        let last_year = ms(2023, 11, 20, 9, 5);
        let cases = [
            ("en-US", "9:05 AM", "Jun 3", "11/20/23"),
            ("fr-CA", "09 h 05", "3 juin", "2023-11-20"),
            ("ko-KR", "오전 9:05", "6월 3일", "23. 11. 20."),
            ("ar-EG", "٩:٠٥ ص", "٣ يونيو", "٢٠\u{200F}/١١\u{200F}/٢٠٢٣"),
        ];
        for (locale, time, day, old) in cases {
            sys.locale = locale.into();
            assert_eq!(clock_time(&sys, today), time, "{locale}");
            assert_eq!(short_time(&sys, today), time, "{locale}");
            assert_eq!(short_time(&sys, this_year), day, "{locale}");
            assert_eq!(short_time(&sys, last_year), old, "{locale}");
        }
        // The user's 24-hour choice wins over the locale's clock.
        sys.locale = "en-US".into();
        sys.settings.put(Namespace::System, "time_12_24", "24");
        assert_eq!(clock_time(&sys, today), "09:05");
    }

    #[test]
    fn intents_carry_numbers_and_contacts_in_their_uris() {
        assert_eq!(
            call_intent("+1 (650) 555-0100").data.as_deref(),
            Some("tel:+16505550100")
        );
        assert_eq!(
            intent_number(&sendto_intent("5551234")).as_deref(),
            Some("5551234")
        );
        assert_eq!(intent_contact_id(&view_contact_intent(9)), Some(9));
        assert_eq!(intent_number(&view_contact_intent(9)), None);
    }
}

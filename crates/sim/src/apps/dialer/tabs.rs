//! The main screen's tabs: Favorites, Recents (the call log with its missed-call arrows) and
//! Contacts.

use crate::apps::communication::{self, at, palette, text_style};
use crate::locale;
use crate::providers::{calllog, contacts, phone_number};
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

use super::{id, tr, PACKAGE};

/// Google Dialer's colour for a missed call's arrow (`colorError`).
const MISSED_RED: [u8; 4] = [217, 48, 37, 255];

pub(super) fn render_recents(sys: &System, body: Bounds) -> View {
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

pub(super) fn render_favorites(sys: &System, body: Bounds) -> View {
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

pub(super) fn render_contacts_tab(sys: &System, body: Bounds) -> View {
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

//! Simple SMS Messenger's screens: MainActivity's list (`activity_main.xml`, Simple Commons'
//! `menu_search.xml`, `item_conversation.xml`), NewConversationActivity
//! (`activity_new_conversation.xml`, `item_contact_with_number.xml`) and ThreadActivity
//! (`activity_thread.xml`, `item_message.xml`, `item_thread_date_time.xml`,
//! `item_thread_success.xml`, `layout_thread_send_message_holder.xml`), built from the app's state
//! and the telephony and contacts providers on every frame.

use chrono::{Datelike, Timelike};

use super::{confirm_visible, id, title_for, tr, PACKAGE};
use crate::apps::communication::{self, at, filled, palette, text_style};
use crate::apps::texting;
use crate::providers::{phone_number, telephony};
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// Simple Mobile Tools' default primary colour (orange).
const PRIMARY: [u8; 4] = [245, 124, 0, 255];
/// `ThreadActivity.MIN_DATE_TIME_DIFF_SECS`: a date header starts a new run of messages.
const DATE_HEADER_GAP_MS: i64 = 300_000;

/// Simple Commons' `formatDateOrTime`: the time today ("03:05 PM", "15:05"), otherwise the day
/// in the default `dd.MM.yyyy` format, without the year this year, and with the time unless
/// `hide_time` asks otherwise.
fn date_or_time(sys: &System, ms: i64, hide_time: bool) -> String {
    let Some(t) = chrono::DateTime::from_timestamp_millis(ms) else {
        return String::new();
    };
    let time = if crate::apps::widgets::uses_24h(sys) {
        format!("{:02}:{:02}", t.hour(), t.minute())
    } else {
        let h = t.hour() % 12;
        let ampm = if t.hour() < 12 { "AM" } else { "PM" };
        format!(
            "{:02}:{:02} {ampm}",
            if h == 0 { 12 } else { h },
            t.minute()
        )
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

/// A toolbar's always-shown menu items (title string, icon, and for the ones modelled the
/// click tag, which is also the item's id), left to right, then the overflow button.
fn menu(
    sys: &System,
    bar: Bounds,
    items: &[(&'static str, &'static str, Option<&str>)],
) -> Vec<View> {
    let slots = items.len() as i32;
    items
        .iter()
        .enumerate()
        .map(|(i, (title, icon, tag))| {
            let item =
                communication::toolbar_action(sys, bar, slots - i as i32, tr(sys, title), icon);
            match tag {
                Some(tag) => item.id(id(tag)).on_click(*tag),
                None => item,
            }
        })
        .chain(std::iter::once(communication::toolbar_action(
            sys,
            bar,
            0,
            tr(sys, "more_options"),
            "more",
        )))
        .collect()
}

pub(super) fn render_main(sys: &System, search: &str) -> View {
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
            .children(menu(
                sys,
                bar,
                &[("settings", "settings", None), ("about", "info", None)],
            )),
        );
    let body = Bounds::new(c.left, bar.bottom, c.right, c.bottom);
    let mut root = communication::root(sys)
        .id(id("main_coordinator"))
        .child(top);
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
            communication::centered_text(
                body,
                m.dp(16.0),
                m.sp(48.0),
                tr(sys, "type_2_characters"),
                text_style(18.0, p.secondary_text),
            )
            .id(id("search_placeholder_2")),
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
                communication::centered_text(
                    body,
                    m.dp(32.0),
                    m.sp(56.0),
                    tr(sys, "no_conversations_found"),
                    text_style(18.0, p.secondary_text),
                )
                .id(id("no_conversations_placeholder")),
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
            communication::centered_text(
                body,
                m.dp(16.0),
                m.sp(24.0),
                tr(sys, "no_items_found"),
                text_style(18.0, p.secondary_text),
            )
            .id(id("search_placeholder")),
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

pub(super) fn render_new_conversation(sys: &System, query: &str) -> View {
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
            Bounds::new(
                holder.left,
                field.bottom,
                holder.right,
                field.bottom + m.dp(1.0),
            ),
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
    let list_area = Bounds::new(
        holder.left,
        field.bottom + m.dp(8.0),
        holder.right,
        holder.bottom,
    );
    if contacts.is_empty() {
        return communication::root(sys)
            .id(id("new_conversation_coordinator"))
            .child(bar)
            .child(
                content.child(
                    communication::centered_text(
                        list_area,
                        m.dp(32.0),
                        m.sp(28.0),
                        tr(sys, "no_contacts_found"),
                        text_style(18.0, p.secondary_text),
                    )
                    .id(id("no_contacts_placeholder")),
                ),
            );
    }
    let mut list = View::new(class::RECYCLER_VIEW, list_area)
        .id(id("contacts_list"))
        .scrollable("contacts_list");
    let row_height = m.dp(72.0);
    for (i, contact) in contacts.iter().enumerate() {
        let b = communication::row_bounds(list_area, list_area.top, row_height, i);
        let number =
            phone_number::normalize(&contact.number).unwrap_or_else(|| contact.number.clone());
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
                        at(
                            b,
                            m.dp(80.0),
                            m.dp(12.0),
                            b.width() - m.dp(96.0),
                            m.sp(24.0),
                        ),
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

pub(super) fn render_thread(
    sys: &System,
    thread_id: i64,
    title: &str,
    draft: &str,
    selected: Option<i64>,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let (bar_bounds, body, compose) = communication::conversation_bands(sys);
    let messages = texting::messages(sys, thread_id);
    let bar = match selected {
        // The action mode over the toolbar: close, "1 / N", the CAB's always-shown items.
        Some(_) => communication::toolbar(
            sys,
            c,
            PACKAGE,
            &format!("1 / {}", messages.len()),
            Some(("cab_close", tr(sys, "done"))),
        )
        .id(id("action_mode_bar"))
        .children(menu(
            sys,
            bar_bounds,
            &[
                ("copy_to_clipboard", "copy", Some("cab_copy_to_clipboard")),
                ("share", "share", None),
                ("delete", "delete", None),
            ],
        )),
        None => toolbar(sys, "thread_toolbar", title).children(menu(
            sys,
            bar_bounds,
            &[
                ("delete", "delete", None),
                ("dial_number", "call", Some("dial_number")),
                ("add_person", "person", None),
            ],
        )),
    };
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
                Bounds::new(
                    body.right - m.dp(16.0) - size,
                    bottom - size,
                    body.right - m.dp(16.0),
                    bottom,
                ),
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
            View::new(
                class::IMAGE_VIEW,
                at(compose, m.dp(4.0), m.dp(8.0), icon, icon),
            )
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
        assert_eq!(
            date_or_time(&sys, ms(2024, 6, 12, 0, 30), false),
            "12:30 AM"
        );
        assert_eq!(date_or_time(&sys, ms(2024, 6, 3, 21, 5), true), "03.06");
        assert_eq!(
            date_or_time(&sys, ms(2024, 6, 3, 21, 5), false),
            "03.06, 09:05 PM"
        );
        assert_eq!(
            date_or_time(&sys, ms(2023, 11, 20, 9, 5), true),
            "20.11.2023"
        );
    }
}

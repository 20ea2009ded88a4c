//! Contacts' screens: the list (with search), the contact card (actions, overflow menu, delete
//! confirmation) and the editor.

use crate::apps::communication::{self, at, filled, palette, text_style};
use crate::locale;
use crate::providers::contacts::{self as store, Contact, ContactDraft, PHONE_TYPES};
use crate::providers::phone_number;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

use super::{id, phone_type_label, tr, FIELDS, PACKAGE, SPINNER};

pub(super) fn render_list(sys: &System, search: Option<&str>) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let all = store::open(sys)
        .and_then(|conn| store::all(&conn))
        .unwrap_or_default();
    let mut root = communication::root(sys);
    let bar = at(c, m.dp(16.0), m.dp(8.0), c.width() - m.dp(32.0), m.dp(56.0));
    let shown: Vec<&Contact> = match search {
        Some(q) => {
            let q = q.trim().to_lowercase();
            let qd = phone_number::digits(&q);
            all.iter()
                .filter(|c| {
                    q.is_empty()
                        || c.name.to_lowercase().contains(&q)
                        || (!qd.is_empty()
                            && c.phones
                                .iter()
                                .any(|(n, _)| phone_number::digits(n).contains(&qd)))
                        || c.emails.iter().any(|e| e.to_lowercase().contains(&q))
                })
                .collect()
        }
        None => all.iter().collect(),
    };
    match search {
        Some(q) => {
            root = root.child(
                View::new(class::VIEW_GROUP, bar)
                    .id(id("open_search_view"))
                    .style(filled(p.card, p.on_surface, m.dp(28.0)))
                    .child(
                        View::new(
                            class::IMAGE_BUTTON,
                            at(bar, m.dp(4.0), m.dp(4.0), m.dp(48.0), m.dp(48.0)),
                        )
                        .desc(tr(sys, "navigate_up"))
                        .on_click("up")
                        .style(Style {
                            icon: Some("back"),
                            text_color: Some(p.on_surface),
                            ..Style::default()
                        }),
                    )
                    .child(
                        View::new(
                            class::EDIT_TEXT,
                            at(
                                bar,
                                m.dp(56.0),
                                m.dp(4.0),
                                bar.width() - m.dp(72.0),
                                m.dp(48.0),
                            ),
                        )
                        .id(id("open_search_view_edit_text"))
                        .text(q)
                        .hint(tr(sys, "search_contacts"))
                        .editable("search_text")
                        .style(text_style(16.0, p.on_surface)),
                    ),
            );
        }
        None => {
            root = root.child(
                View::new(class::VIEW_GROUP, bar)
                    .id(id("open_search_bar"))
                    .on_click("search")
                    .style(filled(p.card, p.secondary_text, m.dp(28.0)))
                    .child(
                        View::new(
                            class::TEXT_VIEW,
                            at(
                                bar,
                                m.dp(56.0),
                                m.dp(16.0),
                                bar.width() - m.dp(72.0),
                                m.sp(24.0),
                            ),
                        )
                        .id(id("open_search_bar_text_view"))
                        .text(tr(sys, "search_contacts"))
                        .style(text_style(16.0, p.secondary_text)),
                    ),
            );
        }
    }
    let body = Bounds::new(c.left, c.top + m.dp(72.0), c.right, c.bottom);
    let mut list = View::new(class::RECYCLER_VIEW, body)
        .id(id("contacts_list"))
        .scrollable("contacts_list");
    let row_height = m.dp(64.0);
    for (i, contact) in shown.iter().enumerate() {
        let b = communication::row_bounds(body, body.top, row_height, i);
        list = list.child(
            communication::two_line_row(
                sys,
                b,
                (&id("cliv_name_textview"), &id("cliv_data_view")),
                &contact.name,
                "",
                &format!("contact:{}", contact.id),
            )
            .long_clickable(),
        );
    }
    if shown.is_empty() {
        list = list.child(
            View::new(
                class::TEXT_VIEW,
                at(body, 0, m.dp(120.0), body.width(), m.sp(24.0)),
            )
            .id(id("empty_state_text"))
            .text(tr(
                sys,
                if search.is_some() {
                    "no_contacts_found"
                } else {
                    "no_contacts"
                },
            ))
            .style(Style {
                center_text: true,
                ..text_style(16.0, p.secondary_text)
            }),
        );
    }
    root = root.child(list);
    if search.is_none() {
        root = root.child(
            communication::fab(sys, c, "", tr(sys, "create_contact"), "add")
                .id(id("floating_action_button"))
                .on_click("create"),
        );
    }
    root
}

pub(super) fn render_card(
    sys: &System,
    contact: &Contact,
    menu: bool,
    confirm_delete: bool,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar_bounds = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let bar = communication::toolbar(
        sys,
        c,
        "com.google.android.contacts",
        "",
        Some(("up", tr(sys, "navigate_up"))),
    )
    .child(
        communication::toolbar_action(sys, bar_bounds, 0, tr(sys, "more_options"), "more")
            .on_click("more"),
    )
    .child(
        communication::toolbar_action(
            sys,
            bar_bounds,
            1,
            tr(
                sys,
                if contact.starred {
                    "remove_favorite"
                } else {
                    "add_favorite"
                },
            ),
            "star",
        )
        .id(id("menu_star"))
        .checked(contact.starred)
        .on_click("star"),
    )
    .child(
        communication::toolbar_action(sys, bar_bounds, 2, tr(sys, "edit_contact"), "edit")
            .id(id("menu_edit"))
            .on_click("edit"),
    );
    let mut root = communication::root(sys).child(bar);
    let avatar = m.dp(96.0);
    root = root
        .child(
            View::new(
                class::IMAGE_VIEW,
                at(c, (c.width() - avatar) / 2, m.dp(72.0), avatar, avatar),
            )
            .id(id("photo"))
            .style(Style {
                background: Some(communication::avatar_color(&contact.name)),
                corner_radius: avatar / 2,
                ..Style::default()
            }),
        )
        .child(
            View::new(
                class::TEXT_VIEW,
                at(
                    c,
                    m.dp(16.0),
                    m.dp(180.0),
                    c.width() - m.dp(32.0),
                    m.sp(40.0),
                ),
            )
            .id(id("large_title"))
            .text(contact.name.clone())
            .style(Style {
                center_text: true,
                ..text_style(28.0, p.on_surface)
            }),
        );
    let number = contact.primary_phone().unwrap_or("").to_string();
    let actions = [
        (tr(sys, "action_call"), "call", "call"),
        (tr(sys, "action_text"), "text", "chat"),
        (tr(sys, "action_video"), "video", "videocam"),
    ];
    let action_top = m.dp(196.0) + m.sp(40.0);
    let action_w = (c.width() - m.dp(32.0)) / actions.len() as i32;
    for (i, (label, tag, icon)) in actions.into_iter().enumerate() {
        let b = at(
            c,
            m.dp(16.0) + action_w * i as i32,
            action_top,
            action_w,
            m.dp(72.0),
        );
        let mut button = View::new(class::BUTTON, b)
            .desc(label)
            .text(label)
            .enabled(!number.is_empty() && tag != "video")
            .style(Style {
                icon: Some(icon),
                ..filled(p.card, p.accent, m.dp(16.0))
            });
        if tag != "video" {
            button = button.on_click(tag);
        }
        root = root.child(button);
    }
    let mut y = action_top + m.dp(88.0);
    let row_h = m.dp(72.0);
    let mut details = Vec::new();
    for (n, kind) in &contact.phones {
        let b = Bounds::new(c.left, c.top + y, c.right, c.top + y + row_h);
        let label = phone_type_label(sys, *kind);
        details.push(
            communication::two_line_row(
                sys,
                b,
                (&id("header"), &id("sub_header")),
                n,
                label,
                &format!("call:{n}"),
            )
            .desc(locale::format(
                &sys.locale,
                PACKAGE,
                "call_number",
                &[&label, n],
            ))
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    at(
                        b,
                        b.width() - m.dp(64.0),
                        (row_h - m.dp(48.0)) / 2,
                        m.dp(48.0),
                        m.dp(48.0),
                    ),
                )
                .id(id("icon_alternate"))
                .desc(locale::format(
                    &sys.locale,
                    PACKAGE,
                    "sms_number",
                    &[&label, n],
                ))
                .on_click(format!("text:{n}"))
                .style(Style {
                    icon: Some("chat"),
                    text_color: Some(p.accent),
                    ..Style::default()
                }),
            ),
        );
        y += row_h;
    }
    for e in &contact.emails {
        let b = Bounds::new(c.left, c.top + y, c.right, c.top + y + row_h);
        details.push(
            communication::two_line_row(
                sys,
                b,
                (&id("header"), &id("sub_header")),
                e,
                phone_type_label(sys, 1),
                "email",
            )
            .desc(locale::format(
                &sys.locale,
                PACKAGE,
                "email_number",
                &[&phone_type_label(sys, 1), e],
            )),
        );
        y += row_h;
    }
    root = root.children(details);
    if menu {
        let b = at(
            c,
            c.width() - m.dp(200.0),
            m.dp(8.0),
            m.dp(192.0),
            m.dp(48.0) * 4,
        );
        let items = [
            (tr(sys, "menu_delete"), "menu_delete"),
            (tr(sys, "menu_share"), "menu_share"),
            (tr(sys, "menu_shortcut"), "menu_shortcut"),
            (tr(sys, "menu_edit"), "menu_edit"),
        ];
        let mut popup = View::new(class::LIST_VIEW, b).style(Style {
            background: Some(p.surface),
            corner_radius: m.dp(4.0),
            ..Style::default()
        });
        for (i, (label, tag)) in items.into_iter().enumerate() {
            popup = popup.child(
                View::new(
                    class::LINEAR_LAYOUT,
                    at(b, 0, m.dp(48.0) * i as i32, b.width(), m.dp(48.0)),
                )
                .on_click(tag)
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(
                            b,
                            m.dp(16.0),
                            m.dp(48.0) * i as i32 + m.dp(12.0),
                            b.width() - m.dp(32.0),
                            m.sp(24.0),
                        ),
                    )
                    .id("android:id/title")
                    .text(label)
                    .style(text_style(16.0, p.on_surface)),
                ),
            );
        }
        root = root.child(popup);
    }
    if confirm_delete {
        root = root.child(dialog(
            sys,
            tr(sys, "delete_confirm"),
            (tr(sys, "menu_delete"), "delete_confirm"),
            (tr(sys, "cancel"), "delete_cancel"),
        ));
    }
    root
}

/// An AlertDialog with a message and two buttons (`android:id/button1` positive, `button2` negative).
fn dialog(sys: &System, message: &str, positive: (&str, &str), negative: (&str, &str)) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let w = (c.width() - m.dp(48.0)).min(m.dp(360.0));
    let h = m.dp(160.0);
    let b = Bounds::new(
        c.left + (c.width() - w) / 2,
        c.top + (c.height() - h) / 2,
        c.left + (c.width() + w) / 2,
        c.top + (c.height() + h) / 2,
    );
    View::new(class::FRAME_LAYOUT, b)
        .id("android:id/content")
        .style(Style {
            background: Some(p.surface),
            corner_radius: m.dp(28.0),
            ..Style::default()
        })
        .child(
            View::new(
                class::TEXT_VIEW,
                at(b, m.dp(24.0), m.dp(24.0), w - m.dp(48.0), m.sp(28.0)),
            )
            .id("android:id/message")
            .text(message)
            .style(text_style(16.0, p.on_surface)),
        )
        .child(
            View::new(
                class::BUTTON,
                at(b, w - m.dp(200.0), h - m.dp(64.0), m.dp(88.0), m.dp(48.0)),
            )
            .id("android:id/button2")
            .text(negative.0)
            .on_click(negative.1)
            .style(filled(p.surface, p.accent, m.dp(20.0))),
        )
        .child(
            View::new(
                class::BUTTON,
                at(b, w - m.dp(104.0), h - m.dp(64.0), m.dp(88.0), m.dp(48.0)),
            )
            .id("android:id/button1")
            .text(positive.0)
            .on_click(positive.1)
            .style(filled(p.surface, p.accent, m.dp(20.0))),
        )
}

pub(super) fn render_editor(
    sys: &System,
    editing: bool,
    draft: &ContactDraft,
    label_menu: bool,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar_bounds = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let save_w = m.dp(88.0);
    let bar = communication::toolbar(
        sys,
        c,
        "com.google.android.contacts",
        tr(
            sys,
            if editing {
                "edit_contact"
            } else {
                "create_contact"
            },
        ),
        Some(("cancel", tr(sys, "cancel"))),
    )
    .child(
        View::new(
            class::BUTTON,
            Bounds::new(
                bar_bounds.right - m.dp(16.0) - save_w,
                bar_bounds.top + m.dp(12.0),
                bar_bounds.right - m.dp(16.0),
                bar_bounds.top + m.dp(52.0),
            ),
        )
        .id(id("toolbar_button"))
        .text(tr(sys, "save"))
        .on_click("save")
        .style(filled(p.accent, p.on_accent, m.dp(20.0))),
    );
    let form = Bounds::new(c.left, bar_bounds.bottom, c.right, c.bottom);
    let mut scroll = View::new(class::SCROLL_VIEW, form)
        .id(id("editors"))
        .scrollable("editor_scroll");
    let field_h = m.dp(56.0);
    let gap = m.dp(16.0);
    let mut y = form.top + m.dp(16.0);
    let values = [&draft.first, &draft.last, &draft.phone, &draft.email];
    let mut label_anchor = None;
    for ((tag, hint, field_id), value) in FIELDS.iter().zip(values) {
        let b = Bounds::new(c.left + m.dp(56.0), y, c.right - m.dp(16.0), y + field_h);
        scroll = scroll.child(
            View::new(class::EDIT_TEXT, b)
                .id(id(field_id))
                .text(value.as_str())
                .hint(tr(sys, hint))
                .editable(*tag)
                .style(Style {
                    background: Some(p.surface),
                    corner_radius: m.dp(4.0),
                    ..text_style(16.0, p.on_surface)
                }),
        );
        y += field_h + gap;
        if *tag == "phone" {
            let label = phone_type_label(sys, draft.phone_type);
            let b = Bounds::new(
                c.left + m.dp(56.0),
                y - gap / 2,
                c.left + m.dp(216.0),
                y - gap / 2 + m.dp(48.0),
            );
            label_anchor = Some(b);
            scroll = scroll.child(
                View::new(SPINNER, b)
                    .id(id("spinner"))
                    .desc(label)
                    .on_click("phone_label")
                    .child(
                        View::new(
                            class::TEXT_VIEW,
                            at(
                                b,
                                m.dp(12.0),
                                m.dp(12.0),
                                b.width() - m.dp(24.0),
                                m.sp(24.0),
                            ),
                        )
                        .id("android:id/text1")
                        .text(label)
                        .style(text_style(14.0, p.on_surface)),
                    ),
            );
            y += m.dp(48.0);
        }
    }
    let mut root = communication::root(sys).child(bar).child(scroll);
    if let (true, Some(anchor)) = (label_menu, label_anchor) {
        // The spinner sits in the scrolled form and the app does not know the scroll offset, so
        // the list opens centred over the content (as a Spinner in dialog mode), where it fits
        // on every screen: below a scrolled spinner it would fall off dense ones.
        let item_h = m.dp(48.0);
        let menu_h = item_h * PHONE_TYPES.len() as i32;
        let menu_w = m.dp(200.0).max(anchor.width()).min(c.width() - m.dp(32.0));
        let left = c.left + (c.width() - menu_w) / 2;
        let top = c.top + ((c.height() - menu_h) / 2).max(0);
        let b = Bounds::new(left, top, left + menu_w, top + menu_h);
        let mut menu = View::new(class::LIST_VIEW, b).style(Style {
            background: Some(p.surface),
            corner_radius: m.dp(4.0),
            ..Style::default()
        });
        for (i, (kind, _)) in PHONE_TYPES.iter().enumerate() {
            let row = at(b, 0, item_h * i as i32, b.width(), item_h);
            menu = menu.child(
                View::new(class::CHECKED_TEXT_VIEW, row)
                    .id("android:id/text1")
                    .text(phone_type_label(sys, *kind))
                    .checked(*kind == draft.phone_type)
                    .on_click(format!("label:{kind}"))
                    .style(text_style(16.0, p.on_surface)),
            );
        }
        root = root.child(menu);
    }
    root
}

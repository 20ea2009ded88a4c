//! A records app's screens in the phone's style: the first-run pages, the list (with its
//! selection mode), a record's detail page, the add/edit form and the delete confirmation. Built
//! from the app's [`Spec`] and rows on every frame.

use std::collections::BTreeSet;

use super::{IntroPage, Kind, Record, Spec};
use crate::apps::communication::{self, at, filled, palette, text_style};
use crate::apps::texting;
use crate::apps::widgets::{
    button, columns, dialog_card, dialog_frame, inset, with_card_children, Rows, COMPOUND_BUTTON,
};
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

const ERROR: [u8; 4] = [179, 38, 30, 255];

/// A light tint of the accent for selected rows and chips.
fn tint(accent: [u8; 4]) -> [u8; 4] {
    let mix = |c: u8| ((c as u16 + 3 * 255) / 4) as u8;
    [mix(accent[0]), mix(accent[1]), mix(accent[2]), 255]
}

fn content_below_bar(sys: &System) -> Bounds {
    let c = sys.metrics.content;
    Bounds::new(c.left, c.top + sys.metrics.dp(64.0), c.right, c.bottom)
}

/// A first-run page: its title, its options (one picked) and the button that goes on.
pub(super) fn intro(sys: &System, spec: &Spec, page: &IntroPage, option: usize) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let mut rows = Rows::new(inset(c, m.dp(24.0)));
    rows.take(m.dp(32.0));
    let mut root = communication::root(sys).child(
        View::new(class::TEXT_VIEW, rows.take(m.sp(40.0)))
            .id(spec.rid("tv_title"))
            .text(spec.tr(sys, page.title))
            .style(Style {
                bold: true,
                ..text_style(24.0, p.on_surface)
            }),
    );
    rows.take(m.dp(16.0));
    for (i, name) in page.options.iter().enumerate() {
        let b = rows.take(m.dp(56.0));
        root = root.child(
            View::new(class::CHECKED_TEXT_VIEW, b)
                .id(spec.rid("tv_option"))
                .text(*name)
                .on_click(format!("intro_opt:{i}"))
                .checked(i == option)
                .style(Style {
                    background: (i == option).then(|| tint(spec.accent)),
                    corner_radius: m.dp(8.0),
                    ..text_style(18.0, p.on_surface)
                }),
        );
    }
    let b = Bounds::new(
        c.left + m.dp(24.0),
        c.bottom - m.dp(24.0) - m.dp(48.0),
        c.right - m.dp(24.0),
        c.bottom - m.dp(24.0),
    );
    root.child(
        View::new(class::BUTTON, b)
            .id(spec.rid(page.button_id))
            .text(spec.tr(sys, page.button))
            .on_click("intro_next")
            .style(filled(spec.accent, [255, 255, 255, 255], m.dp(24.0))),
    )
}

/// The list of rows under its toolbar; in selection mode the toolbar counts the picked rows and
/// offers Select All and Delete, and each row shows a checkbox.
pub(super) fn list(
    sys: &System,
    spec: &Spec,
    records: &[Record],
    selection: Option<&BTreeSet<i64>>,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let toolbar = match selection {
        Some(sel) => communication::toolbar(
            sys,
            c,
            spec.package,
            &format!("{} {}", sel.len(), spec.tr(sys, "selected")),
            Some(("sel_close", spec.tr(sys, "close"))),
        )
        .child(
            communication::toolbar_action(sys, bar, 1, spec.tr(sys, "select_all"), "check")
                .id(spec.rid("btn_select_all"))
                .on_click("sel_all"),
        )
        .child(
            communication::toolbar_action(sys, bar, 0, spec.tr(sys, "delete"), "delete")
                .id(spec.rid("btn_delete"))
                .on_click("sel_delete"),
        ),
        None => communication::toolbar(sys, c, spec.package, spec.tr(sys, spec.titles.list), None),
    };
    let body = content_below_bar(sys);
    let mut root = communication::root(sys).child(toolbar);
    if records.is_empty() {
        return root
            .child(
                communication::centered_text(
                    body,
                    m.dp(48.0),
                    m.sp(28.0),
                    spec.tr(sys, "no_item"),
                    text_style(18.0, p.secondary_text),
                )
                .id(spec.rid("tv_no_item")),
            )
            .children(fab(sys, spec));
    }
    let height = m.dp(72.0);
    let rows = records.iter().enumerate().map(|(i, r)| {
        let b = communication::row_bounds(body, body.top, height, i);
        let picked = selection.is_some_and(|s| s.contains(&r.id));
        row(sys, spec, r, b, selection.map(|_| picked))
    });
    root = root.child(
        View::new(class::RECYCLER_VIEW, body)
            .id(spec.rid(spec.ids.list))
            .scrollable("list")
            .children(rows),
    );
    if selection.is_none() {
        root = root.children(fab(sys, spec));
    }
    root
}

fn fab(sys: &System, spec: &Spec) -> Option<View> {
    if spec.ids.fab.is_empty() {
        return None;
    }
    let fab = communication::fab(sys, sys.metrics.content, "", spec.tr(sys, "add"), "add")
        .id(spec.rid(spec.ids.fab))
        .on_click("fab");
    Some(fab)
}

/// One row: a checkbox in selection mode (`picked`), else a round badge; the title and subtitle;
/// the trailing value at the end.
fn row(sys: &System, spec: &Spec, r: &Record, b: Bounds, picked: Option<bool>) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let title = r.values.get(spec.title_field).cloned().unwrap_or_default();
    let trailing = (spec.trailing)(sys, r);
    let trailing_w = if trailing.is_empty() { 0 } else { m.dp(112.0) };
    let text_left = m.dp(72.0);
    let text_w = b.width() - text_left - trailing_w - m.dp(16.0);
    let lead = at(b, m.dp(16.0), m.dp(16.0), m.dp(40.0), m.dp(40.0));
    let lead = match picked {
        // Named for its record, as TalkBack announces a row's checkbox: the row's own lines
        // (a category and a date) would name every Food expense's checkbox alike.
        Some(on) => View::new(class::CHECK_BOX, lead)
            .id(spec.rid("cb_select"))
            .desc(title.clone())
            .checked(on),
        None => View::new(class::TEXT_VIEW, lead)
            .text(title.chars().next().map(String::from).unwrap_or_default())
            .style(Style {
                background: Some(spec.accent),
                corner_radius: m.dp(20.0),
                ..filled(spec.accent, [255, 255, 255, 255], m.dp(20.0))
            }),
    };
    let subtitle = (spec.subtitle)(sys, r);
    // The row's description reads the whole record ("Coffee, $12.30, Food, Urgent"), as TalkBack
    // reads a RecyclerView item, so rows that share a title differ by what sets them apart.
    let described: Vec<String> = (0..spec.fields.len())
        .map(|i| spec.shown(sys, i, r.values.get(i).map(String::as_str).unwrap_or("")))
        .filter(|s| !s.is_empty())
        .collect();
    let mut view = View::new(class::VIEW_GROUP, b)
        .id(spec.rid(spec.ids.row))
        .desc(described.join(", "))
        .on_click(format!("row:{}", r.id))
        .long_clickable()
        .selected(picked == Some(true))
        .style(Style {
            background: (picked == Some(true)).then(|| tint(spec.accent)),
            ..Style::default()
        })
        .child(lead)
        .child(
            View::new(
                class::TEXT_VIEW,
                at(b, text_left, m.dp(12.0), text_w, m.sp(24.0)),
            )
            .id(spec.rid(spec.ids.title))
            .text(title)
            .style(text_style(16.0, p.on_surface)),
        )
        .child(
            View::new(
                class::TEXT_VIEW,
                at(b, text_left, m.dp(12.0) + m.sp(24.0), text_w, m.sp(20.0)),
            )
            .id(spec.rid(spec.ids.subtitle))
            .text(subtitle.clone())
            .style(text_style(14.0, p.secondary_text)),
        );
    if !trailing.is_empty() {
        view = view.child(
            View::new(
                class::TEXT_VIEW,
                at(
                    b,
                    b.width() - m.dp(16.0) - trailing_w,
                    m.dp(12.0),
                    trailing_w,
                    m.sp(24.0),
                ),
            )
            .id(spec.rid(spec.ids.trailing))
            .text(trailing)
            .style(Style {
                bold: true,
                ..text_style(16.0, p.on_surface)
            }),
        );
    }
    view
}

/// A record's every field, labelled, with Edit and Delete in the toolbar.
pub(super) fn detail(sys: &System, spec: &Spec, r: &Record) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let toolbar = communication::toolbar(
        sys,
        c,
        spec.package,
        spec.tr(sys, spec.titles.detail),
        Some(("up", spec.tr(sys, "back"))),
    )
    .child(
        communication::toolbar_action(sys, bar, 1, spec.tr(sys, "edit"), "edit")
            .id(spec.rid("btn_edit"))
            .on_click("detail_edit"),
    )
    .child(
        communication::toolbar_action(sys, bar, 0, spec.tr(sys, "delete"), "delete")
            .id(spec.rid("btn_delete"))
            .on_click("detail_delete"),
    );
    let body = content_below_bar(sys);
    let mut rows = Rows::new(inset(body, m.dp(16.0)));
    // A value wraps to the page's width, as a TextView with wrap_content height does, so a recipe's
    // directions read in full instead of ending in an ellipsis. At 16sp a character is narrower
    // than 9sp, so this never gives a line too few.
    let per_line = (inset(body, m.dp(16.0)).width() / m.sp(9.0).max(1)).max(1) as usize;
    let mut children = Vec::new();
    for (i, f) in spec.fields.iter().enumerate() {
        let value = spec.shown(sys, i, r.values.get(i).map(String::as_str).unwrap_or(""));
        let lines = texting::wrap_count(&value, per_line) as i32;
        children.push(
            View::new(class::TEXT_VIEW, rows.take(m.sp(20.0)))
                .text(spec.tr(sys, f.label))
                .style(text_style(12.0, p.secondary_text)),
        );
        children.push(
            View::new(class::TEXT_VIEW, rows.take(m.sp(24.0) * lines))
                .id(spec.rid(&format!("tv_{}", f.column)))
                .text(value)
                .style(text_style(16.0, p.on_surface)),
        );
        rows.take(m.dp(12.0));
    }
    if let Some(facts) = spec.facts {
        for (label, value) in facts(sys, r) {
            children.push(
                View::new(class::TEXT_VIEW, rows.take(m.sp(20.0)))
                    .text(spec.tr(sys, label))
                    .style(text_style(12.0, p.secondary_text)),
            );
            children.push(
                View::new(class::TEXT_VIEW, rows.take(m.sp(24.0)))
                    .id(spec.rid(&format!("tv_{label}")))
                    .text(value)
                    .style(text_style(16.0, p.on_surface)),
            );
            rows.take(m.dp(12.0));
        }
    }
    let extra = (spec.subtitle)(sys, r);
    if spec.facts.is_none() && !extra.is_empty() {
        children.push(
            View::new(class::TEXT_VIEW, rows.take(m.sp(24.0)))
                .id(spec.rid("tv_info"))
                .text(extra)
                .style(text_style(14.0, p.secondary_text)),
        );
    }
    communication::root(sys).child(toolbar).child(
        View::new(class::SCROLL_VIEW, body)
            .scrollable("detail")
            .children(children),
    )
}

/// The add/edit form: one input per field (chips for a choice), Save at the bottom.
pub(super) fn form(
    sys: &System,
    spec: &Spec,
    values: &[String],
    editing: bool,
    missing: Option<usize>,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let title = if editing {
        spec.titles.edit
    } else {
        spec.titles.new
    };
    let toolbar = communication::toolbar(
        sys,
        c,
        spec.package,
        spec.tr(sys, title),
        Some(("up", spec.tr(sys, "back"))),
    );
    let save_bar = Bounds::new(c.left, c.bottom - m.dp(72.0), c.right, c.bottom);
    let body = Bounds::new(c.left, c.top + m.dp(64.0), c.right, save_bar.top);
    let mut rows = Rows::new(Bounds::new(
        body.left + m.dp(16.0),
        body.top + m.dp(8.0),
        body.right - m.dp(16.0),
        body.bottom,
    ));
    let mut children = Vec::new();
    for (i, f) in spec.fields.iter().enumerate() {
        let label = spec.tr(sys, f.label);
        let value = values.get(i).map(String::as_str).unwrap_or("");
        children.push(
            View::new(class::TEXT_VIEW, rows.take(m.sp(20.0)))
                .text(label)
                .style(text_style(12.0, p.secondary_text)),
        );
        match f.kind {
            Kind::Choice(options) => {
                let per_row = 3;
                for line in options.chunks(per_row) {
                    let cols = columns(rows.take(m.dp(44.0)), per_row as i32);
                    for ((id, name), b) in line.iter().zip(cols) {
                        let on = value == id.to_string();
                        children.push(
                            View::new(COMPOUND_BUTTON, inset(b, m.dp(3.0)))
                                .id(spec.rid(f.id))
                                .text(spec.tr(sys, name))
                                .on_click(format!("f:{i}:{id}"))
                                .checked(on)
                                .style(Style {
                                    background: Some(if on { tint(spec.accent) } else { p.card }),
                                    corner_radius: m.dp(8.0),
                                    center_text: true,
                                    ..text_style(14.0, p.on_surface)
                                }),
                        );
                    }
                }
            }
            Kind::Text | Kind::Money | Kind::Multiline => {
                let height = if f.kind == Kind::Multiline {
                    m.dp(112.0)
                } else {
                    m.dp(52.0)
                };
                children.push(
                    View::new(class::EDIT_TEXT, rows.take(height))
                        .id(spec.rid(f.id))
                        .text(value)
                        .hint(label)
                        .editable(format!("f:{i}"))
                        .style(Style {
                            background: Some(p.card),
                            corner_radius: m.dp(4.0),
                            ..text_style(16.0, p.on_surface)
                        }),
                );
            }
        }
        if missing == Some(i) {
            children.push(
                View::new(class::TEXT_VIEW, rows.take(m.sp(20.0)))
                    .id(spec.rid("tv_error"))
                    .text(spec.tr(sys, "required"))
                    .style(text_style(12.0, ERROR)),
            );
        }
        rows.take(m.dp(12.0));
    }
    let save = Bounds::new(
        save_bar.left + m.dp(16.0),
        save_bar.top + m.dp(12.0),
        save_bar.right - m.dp(16.0),
        save_bar.bottom - m.dp(12.0),
    );
    communication::root(sys)
        .child(toolbar)
        .child(
            View::new(class::SCROLL_VIEW, body)
                .scrollable("form")
                .children(children),
        )
        .child(
            button(save, spec.tr(sys, "save"), "form_save")
                .id(spec.rid(spec.ids.save))
                .style(filled(spec.accent, [255, 255, 255, 255], m.dp(24.0))),
        )
}

/// "Delete Items": how many rows go, Cancel and Confirm.
pub(super) fn confirm(sys: &System, spec: &Spec, count: usize) -> View {
    let m = &sys.metrics;
    let card = dialog_card(m, m.dp(200.0));
    let mut rows = Rows::new(inset(card, m.dp(24.0)));
    let title = View::new(class::TEXT_VIEW, rows.take(m.sp(32.0)))
        .id("android:id/alertTitle")
        .text(spec.tr(sys, "delete_items"))
        .style(Style {
            bold: true,
            text_size_sp: Some(20.0),
            ..Style::default()
        });
    let suffix = if count == 1 {
        spec.tr(sys, "single_item_suffix")
    } else {
        spec.tr(sys, "multi_item_suffix")
    };
    let message = View::new(class::TEXT_VIEW, rows.take(m.sp(48.0)))
        .id("android:id/message")
        .text(format!(
            "{count} {} {}",
            suffix.trim(),
            spec.tr(sys, "will_be_deleted")
        ))
        .style(Style {
            text_size_sp: Some(16.0),
            ..Style::default()
        });
    rows.take(m.dp(8.0));
    let cols = columns(rows.take(m.dp(48.0)), 4);
    with_card_children(
        dialog_frame(m, card),
        vec![
            title,
            message,
            button(cols[2], spec.tr(sys, "cancel"), "confirm_cancel").id("android:id/button2"),
            button(cols[3], spec.tr(sys, "confirm"), "confirm_ok").id("android:id/button1"),
        ],
    )
}

//! How the Calendar's screens look: toolbar, month grid, day list, the create button's speed dial,
//! the event editor and event details, as view trees with Google Calendar's ids.

use chrono::{Datelike, Duration, NaiveDate, NaiveTime, Timelike};

use super::recurrence;
use super::store::Event;
use super::{id, Calendar, Editor, EditorPicker, Mode, PACKAGE};
use crate::apps::widgets::{
    self, button, columns, columns_vertical, dialog_card, dialog_frame, first_of_month, format_hm,
    inset, label, with_card_children, Rows,
};
use crate::locale;
use crate::system::System;
use crate::view::{class, Role, Style, View};
use droidmcp_geom::Bounds;

/// A string of Calendar's `res/` in the phone's locale.
fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

/// How an event's repeat rule reads ("Every week on Monday"; "Custom" for a rule the app cannot
/// read).
fn repeat_label(sys: &System, e: &Event) -> String {
    match (&e.rrule, e.rule()) {
        (None, _) => recurrence::choice_label(&sys.locale, None, e.start.date()),
        (Some(_), Some(rule)) => rule.describe(&sys.locale, e.start.date()),
        (Some(_), None) => tr(sys, "custom").to_string(),
    }
}

/// The repeat choices as a single-choice dialog (`rep:N` picks choice N).
fn repeat_dialog(sys: &System, e: &Event) -> View {
    let m = &sys.metrics;
    let current = e.rule();
    let card = dialog_card(
        m,
        m.dp(72.0) + m.dp(48.0) * recurrence::CHOICES.len() as i32,
    );
    let mut rows = Rows::new(inset(card, m.dp(24.0)));
    let mut children =
        vec![label(rows.take(m.sp(32.0)), tr(sys, "repeat"), 20.0).id("android:id/alertTitle")];
    for (i, choice) in recurrence::CHOICES.iter().enumerate() {
        let checked = match (choice, &current, &e.rrule) {
            (None, _, None) => true,
            (Some(f), Some(rule), _) => *rule == recurrence::Rule::simple(*f, e.start.date()),
            _ => false,
        };
        children.push(
            View::new(class::CHECKED_TEXT_VIEW, rows.take(m.dp(48.0)))
                .id("android:id/text1")
                .text(recurrence::choice_label(
                    &sys.locale,
                    *choice,
                    e.start.date(),
                ))
                .on_click(format!("rep:{i}"))
                .checked(checked),
        );
    }
    with_card_children(dialog_frame(m, card), children)
}

/// "Mon, Nov 23, 2026".
fn date_text(sys: &System, d: NaiveDate) -> String {
    date_full(sys, d)
}

/// A name from one of Calendar's arrays (`weekdays`, `months`, …) in the phone's locale.
fn named(sys: &System, array: &str, i: u32) -> &'static str {
    locale::array(&sys.locale, PACKAGE, array)
        .get(i as usize)
        .map_or("", String::as_str)
}

/// "Wednesday, June 5, 2024" in the phone's locale.
fn date_full(sys: &System, d: NaiveDate) -> String {
    let weekday = named(sys, "weekdays", d.weekday().num_days_from_sunday());
    let month = named(sys, "months", d.month0());
    locale::format(
        &sys.locale,
        PACKAGE,
        "date_full",
        &[&weekday, &month, &d.day(), &d.year()],
    )
}

/// "Wednesday, June 5" in the phone's locale.
fn date_day(sys: &System, d: NaiveDate) -> String {
    let weekday = named(sys, "weekdays", d.weekday().num_days_from_sunday());
    let month = named(sys, "months", d.month0());
    locale::format(
        &sys.locale,
        PACKAGE,
        "date_day",
        &[&weekday, &month, &d.day()],
    )
}

/// "10:00 – 11:00 AM" style range for a timed event (always with both suffixes, for clarity).
fn time_range(sys: &System, e: &Event, h24: bool) -> String {
    if e.all_day {
        return tr(sys, "all_day").to_string();
    }
    format!(
        "{} – {}",
        format_hm(h24, e.start.hour(), e.start.minute()),
        format_hm(h24, e.end.hour(), e.end.minute())
    )
}

impl Calendar {
    fn render_toolbar(&self, sys: &System, b: Bounds, today: NaiveDate) -> Vec<View> {
        let m = &sys.metrics;
        let icon_w = m.dp(48.0);
        let title = match self.mode {
            Mode::Month if self.selected.year() == today.year() => {
                named(sys, "months_standalone", self.selected.month0()).to_string()
            }
            Mode::Month => locale::format(
                &sys.locale,
                PACKAGE,
                "month_year",
                &[
                    &named(sys, "months_standalone", self.selected.month0()),
                    &self.selected.year(),
                ],
            ),
            Mode::Day => date_day(sys, self.selected),
        };
        let (prev_desc, next_desc) = match self.mode {
            Mode::Month => (tr(sys, "previous_month"), tr(sys, "next_month")),
            Mode::Day => (tr(sys, "previous_day"), tr(sys, "next_day")),
        };
        let icon = |x: i32, desc: &str, tag: &str, icon: &'static str| {
            View::new(
                class::IMAGE_BUTTON,
                Bounds::new(x, b.top, x + icon_w, b.bottom),
            )
            .desc(desc)
            .on_click(tag)
            .style(Style {
                icon: Some(icon),
                ..Style::default()
            })
        };
        let right = b.right;
        vec![
            icon(b.left, prev_desc, "prev", "arrow_back").id(id("prev")),
            label(
                Bounds::new(b.left + icon_w, b.top, right - 4 * icon_w, b.bottom),
                title,
                22.0,
            )
            .id(id("date_picker_text_view")),
            icon(right - 4 * icon_w, next_desc, "next", "chevron_right").id(id("next")),
            View::new(
                class::TEXT_VIEW,
                Bounds::new(right - 3 * icon_w, b.top, right - icon_w, b.bottom),
            )
            .text(match self.mode {
                Mode::Month => tr(sys, "view_day"),
                Mode::Day => tr(sys, "view_month"),
            })
            .desc(match self.mode {
                Mode::Month => tr(sys, "switch_to_day"),
                Mode::Day => tr(sys, "switch_to_month"),
            })
            .on_click("mode")
            .style(Style {
                center_text: true,
                ..Style::default()
            }),
            View::new(
                class::IMAGE_BUTTON,
                Bounds::new(right - icon_w, b.top, right, b.bottom),
            )
            .desc(tr(sys, "jump_to_today"))
            .on_click("today")
            .style(Style {
                center_text: true,
                icon: Some("calendar"),
                ..Style::default()
            }),
        ]
    }

    fn render_month(&self, sys: &System, body: Bounds, today: NaiveDate) -> View {
        let m = &sys.metrics;
        let first = first_of_month(self.selected);
        let mut grid =
            View::new(class::VIEW_GROUP, body).id(id("alternate_timeline_fragment_container"));
        let mut rows = Rows::new(body);
        let header = rows.take(m.dp(24.0));
        // The week starts on the locale's first day (CLDR week data): Sunday in en-US, Monday
        // in de-DE, Saturday in ar-EG.
        let first_day = locale::datetime::first_day_of_week(&sys.locale);
        let lead = first_day.num_days_from_sunday() as usize;
        let initials = locale::array(&sys.locale, PACKAGE, "weekday_initials");
        let week = initials.iter().cycle().skip(lead).take(initials.len());
        for (b, name) in columns(header, 7).into_iter().zip(week) {
            grid = grid.child(label(b, name, 12.0).style(Style {
                center_text: true,
                text_size_sp: Some(12.0),
                ..Style::default()
            }));
        }
        let back =
            (first.weekday().num_days_from_sunday() + 7 - first_day.num_days_from_sunday()) % 7;
        let start = first - Duration::days(back as i64);
        for (w, week_b) in columns_vertical(rows.rest(), 6).into_iter().enumerate() {
            for (d, cell) in columns(week_b, 7).into_iter().enumerate() {
                let day = start + Duration::days((w * 7 + d) as i64);
                let events = self.events_on(day);
                let count = match events.len() {
                    0 => tr(sys, "no_events").to_string(),
                    1 => tr(sys, "one_event").to_string(),
                    n => locale::format(&sys.locale, PACKAGE, "n_events", &[&n]),
                };
                let number_b = Bounds::new(cell.left, cell.top, cell.right, cell.top + m.sp(18.0));
                let mut v = View::new(class::VIEW, cell)
                    .id(id("month_day"))
                    .desc(format!("{}, {count}", date_full(sys, day)))
                    .on_click(format!("day:{}", day.format("%Y-%m-%d")))
                    .selected(day == self.selected)
                    .style(Style {
                        background_role: (day == today).then_some(Role::SurfaceVariant),
                        ..Style::default()
                    })
                    .child(
                        View::new(class::TEXT_VIEW, number_b)
                            .text(locale::numbers::format_integer(
                                day.day() as i64,
                                &sys.locale,
                            ))
                            .style(Style {
                                text_role: (day.month() != first.month())
                                    .then_some(Role::Secondary),
                                text_size_sp: Some(12.0),
                                center_text: true,
                                ..Style::default()
                            }),
                    );
                let mut chip_y = cell.top + m.sp(20.0);
                for e in events.iter().take(3) {
                    let chip =
                        Bounds::new(cell.left + 2, chip_y, cell.right - 2, chip_y + m.sp(16.0));
                    if chip.bottom > cell.bottom {
                        break;
                    }
                    v = v.child(
                        View::new(class::TEXT_VIEW, chip)
                            .text(e.title.clone())
                            .style(Style {
                                background: Some([3, 155, 229, 255]),
                                text_color: Some([255, 255, 255, 255]),
                                text_size_sp: Some(10.0),
                                corner_radius: 4,
                                ..Style::default()
                            }),
                    );
                    chip_y += m.sp(18.0);
                }
                grid = grid.child(v);
            }
        }
        grid
    }

    fn render_day(&self, sys: &System, body: Bounds, h24: bool) -> View {
        let m = &sys.metrics;
        let mut list = View::new(class::SCROLL_VIEW, body)
            .id(id("alternate_timeline_fragment_container"))
            .scrollable("day_list");
        let events = self.events_on(self.selected);
        let mut y = body.top + m.dp(8.0);
        if events.is_empty() {
            list = list.child(
                View::new(
                    class::TEXT_VIEW,
                    Bounds::new(
                        body.left + m.dp(16.0),
                        y,
                        body.right - m.dp(16.0),
                        y + m.dp(64.0),
                    ),
                )
                .text(tr(sys, "nothing_planned"))
                .on_click("empty_day"),
            );
        }
        for e in events {
            let Some(ev_id) = e.id else { continue };
            let row = Bounds::new(
                body.left + m.dp(16.0),
                y,
                body.right - m.dp(16.0),
                y + m.dp(72.0),
            );
            let mut rows = Rows::new(inset(row, m.dp(8.0)));
            list = list.child(
                View::new(class::VIEW, row)
                    .desc(format!("{}, {}", e.title, time_range(sys, e, h24)))
                    .on_click(format!("ev:{ev_id}"))
                    .style(Style {
                        background: Some([3, 155, 229, 255]),
                        corner_radius: m.dp(8.0),
                        ..Style::default()
                    })
                    .child(
                        label(rows.take(m.sp(24.0)), e.title.clone(), 16.0).style(Style {
                            text_color: Some([255, 255, 255, 255]),
                            text_size_sp: Some(16.0),
                            ..Style::default()
                        }),
                    )
                    .child(
                        label(rows.take(m.sp(20.0)), time_range(sys, e, h24), 12.0).style(Style {
                            text_color: Some([255, 255, 255, 255]),
                            text_size_sp: Some(12.0),
                            ..Style::default()
                        }),
                    ),
            );
            y += m.dp(80.0);
        }
        list
    }

    fn render_fab(&self, sys: &System, area: Bounds) -> Vec<View> {
        let m = &sys.metrics;
        let size = m.dp(56.0);
        let fab_b = Bounds::new(
            area.right - size - m.dp(16.0),
            area.bottom - size - m.dp(16.0),
            area.right - m.dp(16.0),
            area.bottom - m.dp(16.0),
        );
        let mut views = Vec::new();
        if self.speed_dial {
            let row = Bounds::new(
                area.right - m.dp(160.0),
                fab_b.top - m.dp(64.0),
                fab_b.right,
                fab_b.top - m.dp(16.0),
            );
            views.push(
                View::new(class::LINEAR_LAYOUT, row)
                    .id(id("speed_dial_event_container"))
                    .desc(tr(sys, "event"))
                    .on_click("new_event")
                    .child(
                        label(inset(row, m.dp(8.0)), tr(sys, "event"), 14.0)
                            .id(id("speed_dial_event_label")),
                    )
                    .style(Style {
                        background_role: Some(Role::SurfaceVariant),
                        corner_radius: m.dp(16.0),
                        ..Style::default()
                    }),
            );
        }
        views.push(
            View::new(class::IMAGE_BUTTON, fab_b)
                .id(id("floating_action_button"))
                .desc(if self.speed_dial {
                    tr(sys, "close")
                } else {
                    tr(sys, "create_new")
                })
                .on_click("fab")
                .style(Style {
                    background_role: Some(Role::Accent),
                    corner_radius: m.dp(16.0),
                    icon: Some(if self.speed_dial { "close" } else { "add" }),
                    ..Style::default()
                }),
        );
        views
    }

    fn render_editor(&self, sys: &System, editor: &Editor, h24: bool) -> View {
        let m = &sys.metrics;
        match &editor.picker {
            Some(EditorPicker::StartDate(p) | EditorPicker::EndDate(p)) => return p.render(m),
            Some(EditorPicker::StartTime(p) | EditorPicker::EndTime(p)) => {
                return p.render(PACKAGE, m)
            }
            Some(EditorPicker::Repeat) => return repeat_dialog(sys, &editor.event),
            None => {}
        }
        let e = &editor.event;
        let area = m.content;
        let mut rows = Rows::new(area);
        let bar = rows.take(m.dp(56.0));
        let mut children = vec![
            View::new(
                class::IMAGE_BUTTON,
                Bounds::new(bar.left, bar.top, bar.left + m.dp(56.0), bar.bottom),
            )
            .desc(tr(sys, "close"))
            .on_click("ed_close")
            .style(Style {
                icon: Some("close"),
                ..Style::default()
            }),
            button(
                Bounds::new(
                    bar.right - m.dp(96.0),
                    bar.top + m.dp(8.0),
                    bar.right - m.dp(16.0),
                    bar.bottom - m.dp(8.0),
                ),
                tr(sys, "save"),
                "ed_save",
            )
            .id(id("save"))
            .style(Style {
                background_role: Some(Role::Accent),
                text_role: Some(Role::OnAccent),
                corner_radius: m.dp(20.0),
                center_text: true,
                ..Style::default()
            }),
        ];
        // The form scrolls under the bar: on dense screens (B-MoCA's 550-700 dpi) its last
        // fields sit below the fold, as in the real editor.
        let form_area = rows.rest();
        let bar_children = std::mem::take(&mut children);
        let pad =
            |b: Bounds| Bounds::new(b.left + m.dp(16.0), b.top, b.right - m.dp(16.0), b.bottom);
        let title_b = pad(rows.take(m.dp(72.0)));
        children.push(
            View::new(class::LINEAR_LAYOUT, title_b)
                .id(id("title"))
                .child(
                    View::new(class::EDIT_TEXT, title_b)
                        .id(id("input"))
                        .text(e.title.clone())
                        .hint(tr(sys, "add_title"))
                        .editable("ed_title")
                        .style(Style {
                            text_size_sp: Some(24.0),
                            ..Style::default()
                        }),
                ),
        );
        let all_day_b = pad(rows.take(m.dp(56.0)));
        children.push(
            View::new(class::SWITCH, all_day_b)
                .id(id("all_day_switch"))
                .text(tr(sys, "all_day_switch"))
                .on_click("ed_all_day")
                .checked(e.all_day),
        );
        let mut when_row = |date: NaiveDate, time: NaiveTime, which: &str, rows: &mut Rows| {
            let b = pad(rows.take(m.dp(56.0)));
            let cols = columns(b, 3);
            let date_b = Bounds::new(cols[0].left, b.top, cols[1].right, b.bottom);

            children.push(
                View::new(class::TEXT_VIEW, date_b)
                    .id(id(&format!("{which}_date")))
                    .text(date_text(sys, date))
                    .desc(locale::format(
                        &sys.locale,
                        PACKAGE,
                        if which == "start" {
                            "start_date"
                        } else {
                            "end_date"
                        },
                        &[&date_full(sys, date)],
                    ))
                    .on_click(format!("ed_{which}_date")),
            );
            if !e.all_day {
                let t = format_hm(h24, time.hour(), time.minute());
                children.push(
                    View::new(class::TEXT_VIEW, cols[2])
                        .id(id(&format!("{which}_time")))
                        .text(t.clone())
                        .desc(locale::format(
                            &sys.locale,
                            PACKAGE,
                            if which == "start" {
                                "start_time"
                            } else {
                                "end_time"
                            },
                            &[&t],
                        ))
                        .on_click(format!("ed_{which}_time")),
                );
            }
        };
        when_row(e.start.date(), e.start.time(), "start", &mut rows);
        when_row(e.end.date(), e.end.time(), "end", &mut rows);
        children.push(
            View::new(class::TEXT_VIEW, pad(rows.take(m.dp(56.0))))
                .id(id("recurrence"))
                .text(repeat_label(sys, e))
                .desc(locale::format(
                    &sys.locale,
                    PACKAGE,
                    "repeat_desc",
                    &[&repeat_label(sys, e)],
                ))
                .on_click("ed_repeat"),
        );
        rows.take(m.dp(8.0));
        children.push(
            View::new(class::EDIT_TEXT, pad(rows.take(m.dp(56.0))))
                .id(id("location"))
                .text(e.location.clone())
                .hint(tr(sys, "add_location"))
                .editable("ed_location"),
        );
        children.push(
            View::new(class::EDIT_TEXT, pad(rows.take(m.dp(96.0))))
                .id(id("description"))
                .text(e.description.clone())
                .hint(tr(sys, "add_description"))
                .editable("ed_description"),
        );
        let form = View::new(class::SCROLL_VIEW, form_area)
            .scrollable("ed_scroll")
            .children(children);
        View::new(class::FRAME_LAYOUT, area)
            .children(bar_children)
            .child(form)
    }

    fn render_detail(&self, sys: &System, e: &Event, h24: bool) -> View {
        let m = &sys.metrics;
        if self.confirm_delete {
            let card = dialog_card(m, m.dp(180.0));
            let mut rows = Rows::new(inset(card, m.dp(24.0)));
            let msg = label(rows.take(m.sp(48.0)), tr(sys, "delete_confirm"), 18.0)
                .id("android:id/message");
            rows.take(m.dp(16.0));
            let cols = columns(rows.take(m.dp(48.0)), 4);
            return with_card_children(
                dialog_frame(m, card),
                vec![
                    msg,
                    button(cols[2], tr(sys, "cancel"), "del_cancel").id("android:id/button2"),
                    button(cols[3], tr(sys, "delete"), "del_ok").id("android:id/button1"),
                ],
            );
        }
        let area = m.content;
        let mut rows = Rows::new(area);
        let bar = rows.take(m.dp(56.0));
        let icon_w = m.dp(56.0);
        let icon = |x: i32, desc: &str, tag: &str, icon: &'static str| {
            View::new(
                class::IMAGE_BUTTON,
                Bounds::new(x, bar.top, x + icon_w, bar.bottom),
            )
            .desc(desc)
            .on_click(tag)
            .style(Style {
                icon: Some(icon),
                ..Style::default()
            })
        };
        let pad =
            |b: Bounds| Bounds::new(b.left + m.dp(24.0), b.top, b.right - m.dp(16.0), b.bottom);
        let when = if e.all_day {
            if e.start.date() == e.end.date() {
                date_day(sys, e.start.date())
            } else {
                format!(
                    "{} – {}",
                    date_day(sys, e.start.date()),
                    date_day(sys, e.end.date())
                )
            }
        } else {
            format!(
                "{} · {}",
                date_day(sys, e.start.date()),
                time_range(sys, e, h24)
            )
        };
        let mut children = vec![
            icon(bar.left, tr(sys, "close"), "det_close", "close").id(id("close")),
            icon(
                bar.right - 2 * icon_w,
                tr(sys, "edit_event"),
                "det_edit",
                "edit",
            )
            .id(id("edit")),
            icon(
                bar.right - icon_w,
                tr(sys, "delete"),
                "det_delete",
                "delete",
            )
            .id(id("delete")),
            label(pad(rows.take(m.sp(40.0))), e.title.clone(), 24.0).id(id("title")),
            label(pad(rows.take(m.sp(28.0))), when, 14.0).id(id("time")),
        ];
        if e.rrule.is_some() {
            children.push(
                label(pad(rows.take(m.sp(28.0))), repeat_label(sys, e), 14.0).id(id("recurrence")),
            );
        }
        if !e.location.is_empty() {
            children.push(
                label(pad(rows.take(m.sp(28.0))), e.location.clone(), 14.0).id(id("location")),
            );
        }
        if !e.description.is_empty() {
            children.push(
                label(pad(rows.take(m.sp(60.0))), e.description.clone(), 14.0)
                    .id(id("description")),
            );
        }
        View::new(class::FRAME_LAYOUT, area).children(children)
    }
    /// The whole content area: editor, details, or the month/day view.
    pub(super) fn screen(&self, sys: &System) -> View {
        let m = &sys.metrics;
        if let Some(editor) = &self.editor {
            return self.render_editor(sys, editor, widgets::uses_24h(sys));
        }
        if let Some(e) = self
            .detail
            .and_then(|d| self.events.iter().find(|e| e.id == Some(d)))
        {
            return self.render_detail(sys, e, widgets::uses_24h(sys));
        }
        let area = m.content;
        let today = sys.clock.now().date();
        let mut rows = Rows::new(area);
        let toolbar = rows.take(m.dp(56.0));
        let body = rows.rest();
        let main = match self.mode {
            Mode::Month => self.render_month(sys, body, today),
            Mode::Day => self.render_day(sys, body, widgets::uses_24h(sys)),
        };
        View::new(class::FRAME_LAYOUT, area)
            .children(self.render_toolbar(sys, toolbar, today))
            .child(main)
            .children(self.render_fab(sys, area))
    }
}

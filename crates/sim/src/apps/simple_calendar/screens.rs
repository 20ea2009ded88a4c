//! MainActivity's screens in the app's layouts and ids: the search bar with its menu
//! (`top_toolbar_search`, Change view, Go to today), the monthly view (`fragment_month.xml`: the
//! arrows and `top_value` over a grid of days showing their events' titles), the daily view
//! (`fragment_day.xml`: `day_events` of `item_event.xml` rows), the simple event list
//! (`fragment_event_list.xml`, day sections), search results, the action mode of a long press,
//! the Change view and delete dialogs, and the FAB (`calendar_fab`).

use chrono::{Datelike, Duration, NaiveDate, NaiveTime, Timelike};

use super::store::{day_code, Event};
use super::{id, tr, Dialog, Mode, SimpleCalendar};
use crate::apps::communication::{self, at, filled, palette, text_style};
use crate::apps::widgets::{
    self, button, columns, columns_vertical, dialog_card, dialog_frame, first_of_month, inset,
    label, with_card_children, Rows,
};
use crate::locale::{self, datetime};
use crate::system::System;
use crate::view::{class, Role, Style, View};
use droidmcp_geom::Bounds;

/// Simple Calendar's default primary colour (#F57C00), its events' colour.
const PRIMARY: [u8; 4] = [245, 124, 0, 255];
/// How far ahead the simple event list reaches (a year, as the app loads it).
const LIST_DAYS: i64 = 366;

/// "Sunday, October 22, 2023" in the phone's language.
pub(super) fn date_text(sys: &System, d: NaiveDate) -> String {
    format!(
        "{}, {}",
        datetime::weekday(d.weekday(), &sys.locale, datetime::Width::Wide),
        datetime::format_date(d, &sys.locale, datetime::DateStyle::Long)
    )
}

/// "2:00 PM" or "14:00", as the phone's clock setting says.
pub(super) fn time_text(sys: &System, t: NaiveTime) -> String {
    widgets::format_time(sys, t.hour(), t.minute())
}

/// An event row's time: "2:00 PM – 2:30 PM", or "All-day".
fn time_range(sys: &System, e: &Event) -> String {
    if e.all_day {
        return tr(sys, "all_day").to_string();
    }
    format!(
        "{} – {}",
        time_text(sys, e.start.time()),
        time_text(sys, e.end.time())
    )
}

/// The tag of an occurrence's row: `ev:<id>:<day code>`.
pub(super) fn row_tag(id: i64, day: NaiveDate) -> String {
    format!("ev:{id}:{}", day_code(day))
}

impl SimpleCalendar {
    /// The whole content area of MainActivity (or EventActivity's, while the editor is open).
    pub(super) fn screen(&self, sys: &System) -> View {
        if let Some(editor) = &self.editor {
            return editor.render(sys);
        }
        match self.dialog {
            Some(Dialog::ChangeView) => return self.change_view_dialog(sys),
            Some(Dialog::DeleteSelected) => return delete_selected_dialog(sys),
            None => {}
        }
        let m = &sys.metrics;
        let area = m.content;
        let mut rows = Rows::new(area);
        let bar = rows.take(m.dp(64.0));
        let body = rows.rest();
        let top = if self.selection.is_empty() {
            self.search_bar(sys, bar)
        } else {
            self.action_bar(sys, bar)
        };
        let main = match &self.search {
            Some(q) if !q.is_empty() => self.search_results(sys, body, q),
            _ => match self.mode() {
                Mode::Month => self.month(sys, body),
                Mode::Day => self.day(sys, body),
                Mode::List => self.list(sys, body),
            },
        };
        let fab = communication::fab(sys, area, "", tr(sys, "new_event"), "add")
            .id(id("calendar_fab"))
            .on_click("fab");
        communication::root(sys)
            .id(id("main_coordinator"))
            .child(top)
            .child(main)
            .child(fab)
    }

    /// Simple Commons' `MySearchMenu` with the main menu's always-shown items.
    fn search_bar(&self, sys: &System, bar: Bounds) -> View {
        let m = &sys.metrics;
        let p = palette(sys);
        let field = at(
            bar,
            m.dp(16.0),
            m.dp(8.0),
            bar.width() - m.dp(32.0) - m.dp(48.0) * 2,
            m.dp(48.0),
        );
        let search = self.search.clone().unwrap_or_default();
        View::new(class::LINEAR_LAYOUT, bar)
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
                communication::toolbar_action(sys, bar, 1, tr(sys, "change_view"), "calendar")
                    .id(id("change_view"))
                    .on_click("change_view"),
            )
            .child(
                communication::toolbar_action(sys, bar, 0, tr(sys, "go_to_today"), "refresh")
                    .id(id("go_to_today"))
                    .on_click("go_to_today"),
            )
    }

    /// The action mode a long press on an event starts: how many are selected, and Delete.
    fn action_bar(&self, sys: &System, bar: Bounds) -> View {
        let m = &sys.metrics;
        let p = palette(sys);
        let count = self.selection.len();
        View::new(class::VIEW_GROUP, bar)
            .id(id("action_mode_bar"))
            .style(Style {
                background: Some(p.card),
                ..Style::default()
            })
            .child(
                View::new(
                    class::IMAGE_BUTTON,
                    at(bar, m.dp(4.0), m.dp(8.0), m.dp(48.0), m.dp(48.0)),
                )
                .id(id("action_mode_close_button"))
                .desc(tr(sys, "back"))
                .on_click("cab_close")
                .style(Style {
                    icon: Some("close"),
                    text_color: Some(p.on_surface),
                    ..Style::default()
                }),
            )
            .child(
                label(
                    at(bar, m.dp(64.0), m.dp(16.0), m.dp(200.0), m.dp(32.0)),
                    tr(sys, "selected_count").replace("%d", &count.to_string()),
                    20.0,
                )
                .id(id("action_bar_title")),
            )
            .child(
                communication::toolbar_action(sys, bar, 0, tr(sys, "delete"), "delete")
                    .id(id("cab_delete"))
                    .on_click("cab_delete"),
            )
    }

    /// The arrows and title over the monthly and daily views.
    fn header(&self, sys: &System, b: Bounds, title: String) -> Vec<View> {
        let m = &sys.metrics;
        let arrow = |x: i32, name: &str, desc: &str, tag: &str, icon: &'static str| {
            View::new(
                class::IMAGE_VIEW,
                Bounds::new(x, b.top, x + m.dp(48.0), b.bottom),
            )
            .id(id(name))
            .desc(desc)
            .on_click(tag)
            .style(Style {
                icon: Some(icon),
                ..Style::default()
            })
        };
        vec![
            arrow(
                b.left,
                "top_left_arrow",
                tr(sys, "previous"),
                "prev",
                "arrow_back",
            ),
            View::new(
                class::TEXT_VIEW,
                Bounds::new(b.left + m.dp(48.0), b.top, b.right - m.dp(48.0), b.bottom),
            )
            .id(id("top_value"))
            .text(title)
            .style(Style {
                center_text: true,
                text_size_sp: Some(18.0),
                ..Style::default()
            }),
            arrow(
                b.right - m.dp(48.0),
                "top_right_arrow",
                tr(sys, "next"),
                "next",
                "chevron_right",
            ),
        ]
    }

    fn month(&self, sys: &System, body: Bounds) -> View {
        let m = &sys.metrics;
        let today = sys.clock.now().date();
        let first = first_of_month(self.shown);
        let month_name = datetime::month(first.month(), &sys.locale, datetime::Width::Wide);
        let title = if first.year() == today.year() {
            month_name.to_string()
        } else {
            format!("{month_name} {}", first.year())
        };
        let mut rows = Rows::new(body);
        let header = rows.take(m.dp(48.0));
        let mut holder = View::new(class::RELATIVE_LAYOUT, body)
            .id(id("month_calendar_holder"))
            .children(self.header(sys, header, title));
        let letters = rows.take(m.dp(24.0));
        // The week starts on the locale's first day, as `isSundayFirst` follows the system's.
        let first_day = datetime::first_day_of_week(&sys.locale);
        for (i, b) in columns(letters, 7).into_iter().enumerate() {
            let day = first_day.num_days_from_sunday() as usize + i;
            let wd = weekday_from_sunday(day % 7);
            holder = holder.child(
                label(
                    b,
                    datetime::weekday(wd, &sys.locale, datetime::Width::Narrow),
                    12.0,
                )
                .style(Style {
                    center_text: true,
                    text_size_sp: Some(12.0),
                    ..Style::default()
                }),
            );
        }
        let lead =
            (first.weekday().num_days_from_sunday() + 7 - first_day.num_days_from_sunday()) % 7;
        let start = first - Duration::days(lead as i64);
        let mut grid = View::new(class::FRAME_LAYOUT, rows.rest()).id(id("month_view_wrapper"));
        for (w, week) in columns_vertical(rows.rest(), 6).into_iter().enumerate() {
            for (d, cell) in columns(week, 7).into_iter().enumerate() {
                let day = start + Duration::days((w * 7 + d) as i64);
                grid = grid.child(self.month_cell(
                    sys,
                    cell,
                    day,
                    day.month() == first.month(),
                    today,
                ));
            }
        }
        holder.child(grid)
    }

    fn month_cell(
        &self,
        sys: &System,
        cell: Bounds,
        day: NaiveDate,
        this_month: bool,
        today: NaiveDate,
    ) -> View {
        let m = &sys.metrics;
        let number = Bounds::new(cell.left, cell.top, cell.right, cell.top + m.sp(18.0));
        let mut v = View::new(class::VIEW, cell)
            .id(id("month_day"))
            .desc(date_text(sys, day))
            .on_click(format!("day:{}", day.format("%Y-%m-%d")))
            .style(Style {
                background_role: (day == today).then_some(Role::SurfaceVariant),
                ..Style::default()
            })
            .child(
                View::new(class::TEXT_VIEW, number)
                    .text(locale::numbers::format_integer(
                        day.day() as i64,
                        &sys.locale,
                    ))
                    .style(Style {
                        text_role: (!this_month).then_some(Role::Secondary),
                        text_size_sp: Some(12.0),
                        center_text: true,
                        ..Style::default()
                    }),
            );
        let mut y = number.bottom + 2;
        for e in self.occurrences_on(day) {
            let chip = Bounds::new(cell.left + 2, y, cell.right - 2, y + m.sp(14.0));
            if chip.bottom > cell.bottom {
                break;
            }
            v = v.child(
                View::new(class::TEXT_VIEW, chip)
                    .text(e.title)
                    .style(Style {
                        background: Some(PRIMARY),
                        text_color: Some([255, 255, 255, 255]),
                        text_size_sp: Some(9.0),
                        corner_radius: 3,
                        ..Style::default()
                    }),
            );
            y += m.sp(16.0);
        }
        v
    }

    fn day(&self, sys: &System, body: Bounds) -> View {
        let m = &sys.metrics;
        let mut rows = Rows::new(body);
        let header = rows.take(m.dp(48.0));
        let list_b = rows.rest();
        let mut list = View::new(class::RECYCLER_VIEW, list_b)
            .id(id("day_events"))
            .scrollable("day_events");
        let mut y = list_b.top;
        for e in self.occurrences_on(self.shown) {
            let (row, next) = self.event_row(sys, list_b, y, &e);
            list = list.child(row);
            y = next;
        }
        View::new(class::RELATIVE_LAYOUT, body)
            .id(id("day_holder"))
            .children(self.header(sys, header, date_text(sys, self.shown)))
            .child(list)
    }

    fn list(&self, sys: &System, body: Bounds) -> View {
        let today = sys.clock.now().date();
        let days = (0..LIST_DAYS).map(|n| today + Duration::days(n));
        let mut sections = Vec::new();
        for day in days {
            let events = self.occurrences_on(day);
            // A multi-day event is listed on its first day only.
            let events: Vec<Event> = events
                .into_iter()
                .filter(|e| e.start.date() == day || day == today)
                .collect();
            if !events.is_empty() {
                sections.push((day, events));
            }
        }
        if sections.is_empty() {
            return label(
                inset(body, sys.metrics.dp(16.0)),
                tr(sys, "no_upcoming_events"),
                16.0,
            )
            .id(id("calendar_empty_list_placeholder"));
        }
        self.sectioned(sys, body, "calendar_events_list", sections)
    }

    fn search_results(&self, sys: &System, body: Bounds, query: &str) -> View {
        let m = &sys.metrics;
        if query.chars().count() < 2 {
            return label(inset(body, m.dp(16.0)), tr(sys, "type_2_characters"), 16.0)
                .id(id("search_placeholder_2"));
        }
        let q = query.to_lowercase();
        let mut sections: Vec<(NaiveDate, Vec<Event>)> = Vec::new();
        for e in self.events.iter().filter(|e| {
            [&e.title, &e.location, &e.description]
                .iter()
                .any(|f| f.to_lowercase().contains(&q))
        }) {
            let day = e.start.date();
            match sections.iter_mut().find(|(d, _)| *d == day) {
                Some((_, list)) => list.push(e.clone()),
                None => sections.push((day, vec![e.clone()])),
            }
        }
        sections.sort_by_key(|(d, _)| *d);
        if sections.is_empty() {
            return label(inset(body, m.dp(16.0)), tr(sys, "no_items_found"), 16.0)
                .id(id("search_placeholder"));
        }
        View::new(class::FRAME_LAYOUT, body)
            .id(id("search_holder"))
            .child(self.sectioned(sys, body, "search_results_list", sections))
    }

    /// A list of day sections (`event_section_title`) and their event rows.
    fn sectioned(
        &self,
        sys: &System,
        body: Bounds,
        name: &str,
        sections: Vec<(NaiveDate, Vec<Event>)>,
    ) -> View {
        let m = &sys.metrics;
        let mut list = View::new(class::RECYCLER_VIEW, body)
            .id(id(name))
            .scrollable(name);
        let mut y = body.top;
        for (day, events) in sections {
            let title = Bounds::new(
                body.left + m.dp(16.0),
                y,
                body.right - m.dp(16.0),
                y + m.dp(40.0),
            );
            list = list.child(
                label(title, date_text(sys, day), 14.0)
                    .id(id("event_section_title"))
                    .style(text_style(14.0, PRIMARY)),
            );
            y = title.bottom;
            for e in events {
                let (row, next) = self.event_row(sys, body, y, &e);
                list = list.child(row);
                y = next;
            }
        }
        list
    }

    /// `item_event.xml` for an occurrence at `y`; returns the row and where the next one starts.
    fn event_row(&self, sys: &System, area: Bounds, y: i32, e: &Event) -> (View, i32) {
        let m = &sys.metrics;
        let p = palette(sys);
        let Some(event_id) = e.id else {
            return (
                View::new(class::VIEW, Bounds::new(area.left, y, area.left, y)),
                y,
            );
        };
        let has_description = !e.description.is_empty();
        let height = m.dp(if has_description { 76.0 } else { 56.0 });
        let row = Bounds::new(
            area.left + m.dp(8.0),
            y + m.dp(4.0),
            area.right - m.dp(8.0),
            y + height,
        );
        let selected = self.selection.contains(&event_id);
        let text = Bounds::new(
            row.left + m.dp(16.0),
            row.top,
            row.right - m.dp(8.0),
            row.bottom,
        );
        let mut lines = Rows::new(inset(text, m.dp(6.0)));
        let mut v = View::new(class::FRAME_LAYOUT, row)
            .id(id("event_item_holder"))
            .on_click(row_tag(event_id, e.start.date()))
            .long_clickable()
            .selected(selected)
            .style(Style {
                background: Some(if selected { p.card } else { p.surface }),
                corner_radius: m.dp(8.0),
                ..Style::default()
            })
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    Bounds::new(row.left, row.top, row.left + m.dp(6.0), row.bottom),
                )
                .id(id("event_item_color_bar"))
                .style(Style {
                    background: Some(PRIMARY),
                    ..Style::default()
                }),
            )
            .child(
                label(lines.take(m.sp(22.0)), e.title.clone(), 16.0)
                    .id(id("event_item_title"))
                    .style(text_style(16.0, p.on_surface)),
            )
            .child(
                label(lines.take(m.sp(20.0)), time_range(sys, e), 14.0)
                    .id(id("event_item_time"))
                    .style(text_style(14.0, p.secondary_text)),
            );
        if has_description {
            v = v.child(
                label(lines.take(m.sp(20.0)), e.description.clone(), 14.0)
                    .id(id("event_item_description"))
                    .style(text_style(14.0, p.secondary_text)),
            );
        }
        (v, y + height + m.dp(4.0))
    }

    /// Change view: the views this app has, as a `RadioGroupDialog`.
    fn change_view_dialog(&self, sys: &System) -> View {
        let m = &sys.metrics;
        let card = dialog_card(m, m.dp(32.0) + m.dp(52.0) * 3);
        let mut rows = Rows::new(inset(card, m.dp(16.0)));
        let children = [
            ("daily_view", "view:day", Mode::Day),
            ("monthly_view", "view:month", Mode::Month),
            ("simple_event_list", "view:list", Mode::List),
        ]
        .into_iter()
        .map(|(name, tag, mode)| {
            View::new(class::RADIO_BUTTON, rows.take(m.dp(52.0)))
                .text(tr(sys, name))
                .on_click(tag)
                .checked(self.view == mode)
        })
        .collect();
        with_card_children(dialog_frame(m, card), children)
    }
}

/// The confirmation before the selected events are deleted.
fn delete_selected_dialog(sys: &System) -> View {
    let m = &sys.metrics;
    let card = dialog_card(m, m.dp(200.0));
    let mut rows = Rows::new(inset(card, m.dp(24.0)));
    let message = label(
        rows.take(m.sp(56.0)),
        tr(sys, "proceed_with_deletion"),
        16.0,
    )
    .id("android:id/message");
    rows.take(m.dp(8.0));
    let cols = columns(rows.take(m.dp(48.0)), 4);
    with_card_children(
        dialog_frame(m, card),
        vec![
            message,
            button(cols[2], tr(sys, "no"), "del_no").id("android:id/button2"),
            button(cols[3], tr(sys, "yes"), "del_yes").id("android:id/button1"),
        ],
    )
}

fn weekday_from_sunday(i: usize) -> chrono::Weekday {
    (0..i).fold(chrono::Weekday::Sun, |d, _| d.succ())
}

//! How the Clock's screens look: the alarm list and its cards, the Clock, Timer and Stopwatch
//! tabs, the bottom navigation and the label dialog, as view trees with Google Clock's ids.

use chrono::Weekday::{Fri, Mon, Sat, Sun, Thu, Tue, Wed};
use chrono::{NaiveDateTime, Timelike};

use super::store::{self, Alarm};
use super::timers;
use super::{id, tr, Clock, Dialog, Tab, DAY_BUTTONS, PACKAGE};
use crate::apps::widgets::{
    self, button, columns, dialog_card, dialog_frame, inset, label, with_card_children, Rows,
};
use crate::locale::{self, DateStyle, Width};
use crate::system::System;
use crate::view::{class, Metrics, Role, Style, View};
use droidmcp_geom::Bounds;

/// Material 3's large and regular floating action buttons.
const FAB_LARGE_DP: f32 = 96.0;
const FAB_DP: f32 = 56.0;

impl Clock {
    fn render_alarm_tab(
        &self,
        sys: &System,
        area: Bounds,
        h24: bool,
        now: NaiveDateTime,
    ) -> Vec<View> {
        let m = &sys.metrics;
        let list_b = area;
        let pad = m.dp(16.0);
        let mut list = View::new(class::RECYCLER_VIEW, list_b)
            .id(id("alarm_recycler_view"))
            .scrollable("alarm_list");
        let mut y = list_b.top + m.dp(8.0);
        for a in &self.alarms {
            let expanded = self.expanded == Some(a.id);
            let h = if expanded { m.dp(330.0) } else { m.dp(150.0) };
            let card_b = Bounds::new(list_b.left + pad, y, list_b.right - pad, y + h);
            list = list.child(self.alarm_card(sys, a, card_b, expanded, (h24, now)));
            y += h + m.dp(8.0);
        }
        // Room to scroll the last card above the add button.
        list = list.child(View::new(
            class::VIEW,
            Bounds::new(list_b.left, y, list_b.right, y + m.dp(96.0)),
        ));
        let fab_size = m.dp(72.0);
        let cx = area.left + area.width() / 2;
        let fab_b = Bounds::new(
            cx - fab_size / 2,
            area.bottom - fab_size - m.dp(16.0),
            cx + fab_size / 2,
            area.bottom - m.dp(16.0),
        );
        let fab = View::new(class::IMAGE_BUTTON, fab_b)
            .id(id("fab"))
            .desc(tr(sys, "button_alarms"))
            .on_click("fab")
            .style(Style {
                background_role: Some(Role::Accent),
                corner_radius: m.dp(20.0),
                icon: Some("add"),
                ..Style::default()
            });
        vec![list, fab]
    }

    fn alarm_card(
        &self,
        sys: &System,
        a: &Alarm,
        card_b: Bounds,
        expanded: bool,
        (h24, now): (bool, NaiveDateTime),
    ) -> View {
        let m = &sys.metrics;
        let time = locale::format_time(a.hour, a.minutes, &sys.locale, h24);
        let mut rows = Rows::new(inset(card_b, m.dp(16.0)));
        let mut children = Vec::new();
        let label_row = rows.take(m.sp(24.0));
        if expanded || !a.label.is_empty() {
            let text = if a.label.is_empty() {
                tr(sys, "add_label")
            } else {
                a.label.as_str()
            };
            let mut v = label(label_row, text, 14.0).id(id("edit_label"));
            if expanded {
                v = v.on_click(format!("label:{}", a.id));
            }
            children.push(v);
        }
        let time_row = rows.take(m.sp(56.0));
        let switch_w = m.dp(64.0);
        children.push(
            View::new(
                class::TEXT_VIEW,
                Bounds::new(
                    time_row.left,
                    time_row.top,
                    time_row.right - switch_w,
                    time_row.bottom,
                ),
            )
            .id(id("digital_clock"))
            .text(time.clone())
            .desc(time.clone())
            .on_click(format!("time:{}", a.id))
            .style(Style {
                text_size_sp: Some(48.0),
                ..Style::default()
            }),
        );
        children.push(
            View::new(
                class::SWITCH,
                Bounds::new(
                    time_row.right - switch_w,
                    time_row.top,
                    time_row.right,
                    time_row.bottom,
                ),
            )
            .id(id("onoff"))
            .desc(time.clone())
            .on_click(format!("onoff:{}", a.id))
            .checked(a.enabled),
        );
        let summary_row = rows.take(m.sp(28.0));
        let arrow_w = m.dp(48.0);
        children.push(
            label(
                Bounds::new(
                    summary_row.left,
                    summary_row.top,
                    summary_row.right - arrow_w,
                    summary_row.bottom,
                ),
                self.summary(sys, a, now),
                14.0,
            )
            .id(id("days_of_week")),
        );
        children.push(
            View::new(
                class::IMAGE_BUTTON,
                Bounds::new(
                    summary_row.right - arrow_w,
                    summary_row.top - m.dp(10.0),
                    summary_row.right,
                    summary_row.bottom + m.dp(10.0),
                ),
            )
            // DeskClock's expanded card names its arrow `collapse_expand`.
            .id(id(if expanded { "collapse_expand" } else { "arrow" }))
            .desc(tr(
                sys,
                if expanded {
                    "collapse_alarm"
                } else {
                    "expand_alarm"
                },
            ))
            .on_click(format!("arrow:{}", a.id))
            .style(Style {
                icon: Some(if expanded { "collapse" } else { "expand" }),
                ..Style::default()
            }),
        );
        if expanded {
            rows.take(m.dp(12.0));
            let days_row = rows.take(m.dp(48.0));
            let mut days = View::new(class::LINEAR_LAYOUT, days_row).id(id("repeat_days"));
            for (i, (b, weekday)) in columns(days_row, 7)
                .into_iter()
                .zip(DAY_BUTTONS)
                .enumerate()
            {
                let on = a.days & store::day_bit(weekday) != 0;
                days = days.child(
                    View::new(class::CHECK_BOX, inset(b, m.dp(2.0)))
                        .id(id(&format!("day_button_{i}")))
                        .text(locale::datetime::weekday(
                            weekday,
                            &sys.locale,
                            Width::Narrow,
                        ))
                        .desc(locale::datetime::weekday(weekday, &sys.locale, Width::Wide))
                        .on_click(format!("day:{}:{i}", a.id))
                        .checked(on)
                        .style(Style {
                            center_text: true,
                            background_role: Some(if on {
                                Role::Accent
                            } else {
                                Role::SurfaceVariant
                            }),
                            text_role: on.then_some(Role::OnAccent),
                            corner_radius: b.height() / 2,
                            ..Style::default()
                        }),
                );
            }
            children.push(days);
            rows.take(m.dp(12.0));
            children.push(
                View::new(class::CHECK_BOX, rows.take(m.dp(48.0)))
                    .id(id("vibrate_onoff"))
                    .text(tr(sys, "alarm_vibrate"))
                    .on_click(format!("vibrate:{}", a.id))
                    .checked(a.vibrate),
            );
            children.push(
                View::new(class::TEXT_VIEW, rows.take(m.dp(48.0)))
                    .id(id("delete"))
                    .text(tr(sys, "delete"))
                    .on_click(format!("delete:{}", a.id))
                    .style(Style {
                        icon: Some("delete"),
                        ..Style::default()
                    }),
            );
        }
        let desc = if a.label.is_empty() {
            format!("{time} {}", tr(sys, "default_label"))
        } else {
            format!("{time} {}", a.label)
        };
        View::new(class::VIEW_GROUP, card_b)
            .id(id("alarm_card_layout"))
            .desc(desc)
            .on_click(format!("card:{}", a.id))
            .style(Style {
                background_role: Some(Role::SurfaceVariant),
                corner_radius: m.dp(24.0),
                ..Style::default()
            })
            .children(children)
    }

    /// The line under an alarm's time: its repeat days, or when a one-off alarm rings.
    fn summary(&self, sys: &System, a: &Alarm, now: NaiveDateTime) -> String {
        match a.days {
            0 => {
                if a.enabled {
                    if store::next_fire(a, now).date() == now.date() {
                        tr(sys, "alarm_today").to_string()
                    } else {
                        tr(sys, "alarm_tomorrow").to_string()
                    }
                } else {
                    tr(sys, "alarm_not_scheduled").to_string()
                }
            }
            127 => tr(sys, "every_day").to_string(),
            days => {
                // Monday-first order (bit 0 is Monday), as DeskClock's summary reads.
                let week = [Mon, Tue, Wed, Thu, Fri, Sat, Sun];
                week.iter()
                    .enumerate()
                    .filter(|(i, _)| days & (1 << i) != 0)
                    .map(|(_, d)| locale::datetime::weekday(*d, &sys.locale, Width::Abbreviated))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        }
    }

    fn render_clock_tab(
        &self,
        sys: &System,
        area: Bounds,
        now: NaiveDateTime,
        h24: bool,
    ) -> Vec<View> {
        let m = &sys.metrics;
        let mut rows = Rows::new(area);
        rows.take(m.dp(48.0));
        let time = locale::format_time(now.hour(), now.minute(), &sys.locale, h24);
        vec![
            View::new(class::TEXT_VIEW, rows.take(m.sp(80.0)))
                .id(id("digital_clock"))
                .text(time.clone())
                .desc(time)
                .style(Style {
                    text_size_sp: Some(64.0),
                    center_text: true,
                    ..Style::default()
                }),
            View::new(class::TEXT_VIEW, rows.take(m.sp(32.0)))
                .id(id("date"))
                .text(locale::format_date(
                    now.date(),
                    &sys.locale,
                    DateStyle::MonthDayWeekday,
                ))
                .desc(locale::format_date(
                    now.date(),
                    &sys.locale,
                    DateStyle::MonthDayWeekday,
                ))
                .style(Style {
                    center_text: true,
                    ..Style::default()
                }),
        ]
    }

    fn fab(m: &Metrics, area: Bounds, desc: &str, icon: &'static str, tag: &str) -> View {
        Self::fab_sized(m, area, FAB_LARGE_DP, desc, icon, tag)
    }

    /// The floating action button, `size_dp` square, centred above the bottom of `area`.
    fn fab_sized(
        m: &Metrics,
        area: Bounds,
        size_dp: f32,
        desc: &str,
        icon: &'static str,
        tag: &str,
    ) -> View {
        let size = m.dp(size_dp);
        let cx = area.left + area.width() / 2;
        View::new(
            class::IMAGE_BUTTON,
            Bounds::new(
                cx - size / 2,
                area.bottom - size - m.dp(16.0),
                cx + size / 2,
                area.bottom - m.dp(16.0),
            ),
        )
        .id(id("fab"))
        .desc(desc)
        .on_click(tag)
        .style(Style {
            background_role: Some(Role::Accent),
            corner_radius: m.dp(28.0),
            icon: Some(icon),
            ..Style::default()
        })
    }

    fn render_timer_tab(&self, sys: &System, area: Bounds, now: NaiveDateTime) -> Vec<View> {
        let m = &sys.metrics;
        let mut rows = Rows::new(inset(area, m.dp(16.0)));
        let mut views = Vec::new();
        match self.timer.run {
            None => {
                // The delete key sits at the end of the time's row, as DeskClock's
                // `timer_setup_digits` lays them out.
                let time_row = rows.take(m.sp(72.0));
                let del_w = m.dp(64.0);
                let time_b = Bounds::new(
                    time_row.left,
                    time_row.top,
                    time_row.right - del_w,
                    time_row.bottom,
                );
                views.push(
                    View::new(class::TEXT_VIEW, time_b)
                        .id(id("timer_setup_time"))
                        .text(self.timer.setup_text())
                        .desc(self.timer.setup_desc())
                        .style(Style {
                            text_size_sp: Some(48.0),
                            center_text: true,
                            ..Style::default()
                        }),
                );
                let del_top = time_row.top + (time_row.height() - m.dp(48.0)).max(0) / 2;
                views.push(
                    View::new(
                        class::IMAGE_BUTTON,
                        Bounds::new(
                            time_row.right - del_w,
                            del_top,
                            time_row.right,
                            (del_top + m.dp(48.0)).min(time_row.bottom),
                        ),
                    )
                    .id(id("timer_setup_delete"))
                    .desc(tr(sys, "backspace"))
                    .on_click("timer_del")
                    .enabled(!self.timer.digits.is_empty())
                    .style(Style {
                        icon: Some("backspace"),
                        ..Style::default()
                    }),
                );
                // Keys are 72dp tall where the screen allows, smaller on dense screens, so the
                // keypad ends above the start button; where even 40dp keys leave no room for the
                // large start button, it is a regular 56dp one (Material's FAB sizes).
                let fab = if rows.rest().height() - m.dp(FAB_LARGE_DP + 24.0) >= m.dp(4.0 * 40.0) {
                    FAB_LARGE_DP
                } else {
                    FAB_DP
                };
                let room = rows.rest().height() - m.dp(fab + 24.0);
                let keypad = rows.take(room.clamp(m.dp(4.0 * 40.0), m.dp(4.0 * 72.0)));
                let grid = widgets::columns_vertical(keypad, 4);
                // The digits keep 1 2 3 from the left in Arabic and Urdu (a phone keypad).
                let mut pad = View::new(class::VIEW_GROUP, keypad).layout_ltr();
                let layout: [&[u32]; 4] = [&[1, 2, 3], &[4, 5, 6], &[7, 8, 9], &[0]];
                for (row_b, digits) in grid.into_iter().zip(layout) {
                    let cells = columns(row_b, 3);
                    for (i, d) in digits.iter().enumerate() {
                        let b = if *d == 0 { cells[1] } else { cells[i] };
                        pad = pad.child(
                            button(
                                inset(b, m.dp(6.0)),
                                d.to_string(),
                                format!("timer_digit:{d}"),
                            )
                            .id(id(&format!("timer_setup_digit_{d}")))
                            .style(Style {
                                center_text: true,
                                text_size_sp: Some(28.0),
                                background_role: Some(Role::SurfaceVariant),
                                corner_radius: m.dp(32.0),
                                ..Style::default()
                            }),
                        );
                    }
                }
                views.push(pad);
                if !self.timer.digits.is_empty() {
                    views.push(Self::fab_sized(
                        m,
                        area,
                        fab,
                        tr(sys, "timer_start"),
                        "play",
                        "timer_fab",
                    ));
                }
            }
            Some(run) => {
                let label = rows.take(m.dp(48.0));
                let expired = matches!(run, timers::TimerRun::Expired { .. });
                if expired {
                    views.push(
                        View::new(class::TEXT_VIEW, label)
                            .id(id("timer_label"))
                            .text(tr(sys, "timer_times_up"))
                            .style(Style {
                                text_size_sp: Some(20.0),
                                center_text: true,
                                text_role: Some(Role::Accent),
                                ..Style::default()
                            }),
                    );
                }
                let running = matches!(run, timers::TimerRun::Running { .. });
                let text = self.timer.remaining_text(now);
                views.push(
                    View::new(class::TEXT_VIEW, rows.take(m.sp(96.0)))
                        .id(id("timer_time_text"))
                        .text(text.clone())
                        .desc(text)
                        .style(Style {
                            text_size_sp: Some(64.0),
                            center_text: true,
                            ..Style::default()
                        }),
                );
                rows.take(m.dp(16.0));
                let cols = columns(rows.take(m.dp(48.0)), 2);
                views.push(
                    button(cols[0], tr(sys, "timer_delete"), "timer_delete").id(id("delete_timer")),
                );
                views.push(
                    button(cols[1], tr(sys, "timer_plus_one"), "timer_add_minute")
                        .id(id("reset_add")),
                );
                let (desc, icon) = match (expired, running) {
                    (true, _) => ("timer_stop", "stop"),
                    (false, true) => ("timer_pause", "pause"),
                    (false, false) => ("timer_start", "play"),
                };
                views.push(Self::fab(m, area, tr(sys, desc), icon, "timer_fab"));
            }
        }
        views
    }

    fn render_stopwatch_tab(&self, sys: &System, area: Bounds, now: NaiveDateTime) -> Vec<View> {
        let m = &sys.metrics;
        let mut rows = Rows::new(inset(area, m.dp(16.0)));
        rows.take(m.dp(32.0));
        let text = timers::stopwatch_text(self.stopwatch.elapsed_ms(now));
        let mut views = vec![View::new(class::TEXT_VIEW, rows.take(m.sp(96.0)))
            .id(id("stopwatch_time_text"))
            .text(text.clone())
            .desc(text)
            .style(Style {
                text_size_sp: Some(64.0),
                center_text: true,
                ..Style::default()
            })];
        if !self.stopwatch.laps.is_empty() {
            let laps_b = Bounds::new(area.left, rows.y, area.right, area.bottom - m.dp(128.0));
            let mut list = View::new(class::RECYCLER_VIEW, laps_b)
                .id(id("laps_list"))
                .scrollable("laps_list");
            let mut y = laps_b.top;
            for (n, total) in self.stopwatch.laps.iter().enumerate().rev() {
                let lap_time = total
                    - if n == 0 {
                        0
                    } else {
                        self.stopwatch.laps[n - 1]
                    };
                let row_b = Bounds::new(
                    laps_b.left + m.dp(24.0),
                    y,
                    laps_b.right - m.dp(24.0),
                    y + m.dp(48.0),
                );
                let cols = columns(row_b, 3);
                list = list.child(
                    View::new(class::LINEAR_LAYOUT, row_b)
                        .child(label(cols[0], format!("# {}", n + 1), 14.0).id(id("lap_number")))
                        .child(
                            label(cols[1], timers::stopwatch_text(lap_time), 14.0)
                                .id(id("lap_time")),
                        )
                        .child(
                            label(cols[2], timers::stopwatch_text(*total), 14.0)
                                .id(id("lap_total")),
                        ),
                );
                y += m.dp(48.0);
            }
            views.push(list);
        }
        let running = self.stopwatch.running();
        views.push(Self::fab(
            m,
            area,
            tr(
                sys,
                if running {
                    "timer_pause"
                } else {
                    "timer_start"
                },
            ),
            if running { "pause" } else { "play" },
            "sw_fab",
        ));
        let started = running || self.stopwatch.elapsed_ms(now) > 0;
        if started {
            let size = m.dp(64.0);
            let x = area.left + area.width() / 4;
            views.push(
                View::new(
                    class::IMAGE_BUTTON,
                    Bounds::new(
                        x - size / 2,
                        area.bottom - size - m.dp(32.0),
                        x + size / 2,
                        area.bottom - m.dp(32.0),
                    ),
                )
                .id(id("left_button"))
                .desc(tr(
                    sys,
                    if running {
                        "sw_lap_button"
                    } else {
                        "sw_reset_button"
                    },
                ))
                .on_click("sw_left")
                .style(Style {
                    background_role: Some(Role::SurfaceVariant),
                    corner_radius: size / 2,
                    icon: Some(if running { "lap" } else { "reset" }),
                    ..Style::default()
                }),
            );
        }
        views
    }

    fn render_nav(&self, sys: &System, nav_b: Bounds) -> View {
        let m = &sys.metrics;
        let mut nav = View::new(class::FRAME_LAYOUT, nav_b)
            .id(id("bottom_navigation"))
            .style(Style {
                background_role: Some(Role::SurfaceVariant),
                ..Style::default()
            });
        for (b, tab) in columns(nav_b, 4).into_iter().zip(Tab::ALL) {
            let selected = tab == self.tab;
            let icon_b = Bounds::new(b.left, b.top + m.dp(12.0), b.right, b.top + m.dp(44.0));
            let label_b = Bounds::new(b.left, b.top + m.dp(48.0), b.right, b.bottom - m.dp(8.0));
            nav = nav.child(
                View::new(class::FRAME_LAYOUT, b)
                    .id(id(&format!("tab_menu_{}", tab.key())))
                    .desc(tr(sys, tab.label_key()))
                    .on_click(format!("tab:{}", tab.key()))
                    .selected(selected)
                    .child(
                        View::new(class::IMAGE_VIEW, icon_b)
                            .id(id("navigation_bar_item_icon_view"))
                            .style(Style {
                                icon: Some(tab.icon()),
                                background_role: selected.then_some(Role::Accent),
                                corner_radius: m.dp(16.0),
                                ..Style::default()
                            }),
                    )
                    .child(
                        View::new(class::TEXT_VIEW, label_b)
                            .id(id(if selected {
                                "navigation_bar_item_large_label_view"
                            } else {
                                "navigation_bar_item_small_label_view"
                            }))
                            .text(tr(sys, tab.label_key()))
                            .style(Style {
                                text_size_sp: Some(12.0),
                                center_text: true,
                                ..Style::default()
                            }),
                    ),
            );
        }
        nav
    }

    fn render_label_dialog(&self, sys: &System, text: &str) -> View {
        let m = &sys.metrics;
        let card = dialog_card(m, m.dp(220.0));
        let mut rows = Rows::new(inset(card, m.dp(24.0)));
        let title =
            label(rows.take(m.sp(32.0)), tr(sys, "label"), 20.0).id("android:id/alertTitle");
        rows.take(m.dp(8.0));
        let field = View::new(class::EDIT_TEXT, rows.take(m.dp(56.0)))
            .id(id("label_input_field"))
            .text(text)
            .hint(tr(sys, "label"))
            .editable("label_input");
        rows.take(m.dp(8.0));
        let cols = columns(rows.take(m.dp(48.0)), 4);
        with_card_children(
            dialog_frame(m, card),
            vec![
                title,
                field,
                button(
                    cols[2],
                    locale::string(&sys.locale, "android", "cancel"),
                    "label_cancel",
                )
                .id("android:id/button2"),
                button(
                    cols[3],
                    locale::string(&sys.locale, "android", "ok"),
                    "label_ok",
                )
                .id("android:id/button1"),
            ],
        )
    }

    /// The whole content area for the current tab or dialog.
    pub(super) fn screen(&self, sys: &System) -> View {
        let m = &sys.metrics;
        let area = m.content;
        match &self.dialog {
            Some(Dialog::Time { picker, .. }) => return picker.render(PACKAGE, m),
            Some(Dialog::Label { text, .. }) => return self.render_label_dialog(sys, text),
            None => {}
        }
        let mut rows = Rows::new(area);
        let title_b = rows.take(m.dp(64.0));
        let nav_h = m.dp(80.0);
        let body = Bounds::new(area.left, rows.y, area.right, area.bottom - nav_h);
        let nav_b = Bounds::new(area.left, area.bottom - nav_h, area.right, area.bottom);
        let now = sys.clock.now();
        let h24 = widgets::uses_24h(sys);
        let content = match self.tab {
            Tab::Alarm => self.render_alarm_tab(sys, body, h24, now),
            Tab::Clock => self.render_clock_tab(sys, body, now, h24),
            Tab::Timer => self.render_timer_tab(sys, body, now),
            Tab::Stopwatch => self.render_stopwatch_tab(sys, body, now),
        };
        View::new(class::FRAME_LAYOUT, area)
            .child(
                label(
                    Bounds::new(
                        title_b.left + m.dp(16.0),
                        title_b.top,
                        title_b.right,
                        title_b.bottom,
                    ),
                    tr(sys, self.tab.label_key()),
                    22.0,
                )
                .id(id("action_bar_title")),
            )
            .children(content)
            .child(self.render_nav(sys, nav_b))
    }
}

//! Clock (com.google.android.deskclock): Google Clock's Alarm, Clock, Timer and Stopwatch tabs.
//!
//! Alarms live in DeskClock's `alarms.db` ([`store`]); each change writes the row, reschedules the
//! alarm's instance and logs what the phone logs (DeskClock's `AlarmClock` events and the
//! notification service's `ConditionProviders.SCP` next-alarm line). Timer and stopwatch run on the
//! simulated clock ([`timers`]). Resource ids and content-descs are Google Clock's (`fab`,
//! `alarm_recycler_view`, `digital_clock`, `onoff`, `day_button_0`…, Material time picker ids).

pub mod store;
pub mod timers;

use chrono::{Datelike, NaiveDateTime, Timelike, Weekday};
use rusqlite::Connection;

use super::widgets::{
    self, button, columns, dialog_card, dialog_frame, format_hm, inset, label, rid,
    with_card_children, Rows, TimePicker,
};
use crate::geom::Bounds;
use crate::sim::app::{App, AppInfo, UiEvent};
use crate::sim::system::{Request, System};
use crate::sim::view::{class, Metrics, Style, View};
use store::Alarm;
use timers::{Stopwatch, Timer};

pub const PACKAGE: &str = "com.google.android.deskclock";
pub const ACTIVITY: &str = "com.android.deskclock.DeskClock";

/// Process id the Clock logs under.
const PID: u32 = 3127;
/// Process id of system_server (the notification service's condition providers log there).
const SYSTEM_SERVER_PID: u32 = 1405;
/// DeskClock's log tag.
const TAG: &str = "AlarmClock";

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        labels: &[
            ("en", "Clock"),
            ("de", "Uhr"),
            ("fr", "Horloge"),
            ("ko", "시계"),
        ],
        launch_activity: ACTIVITY,
        create: |sys| Box::new(Clock::new(sys)),
        install: |sys| {
            if let Err(e) = store::open(sys) {
                sys.log(
                    PID,
                    'E',
                    TAG,
                    format!("cannot create {}: {e}", store::DB_PATH),
                );
            }
        },
        on_home_screen: true,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Alarm,
    Clock,
    Timer,
    Stopwatch,
}

impl Tab {
    const ALL: [Tab; 4] = [Tab::Alarm, Tab::Clock, Tab::Timer, Tab::Stopwatch];

    fn name(self) -> &'static str {
        match self {
            Tab::Alarm => "Alarm",
            Tab::Clock => "Clock",
            Tab::Timer => "Timer",
            Tab::Stopwatch => "Stopwatch",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Tab::Alarm => "alarm",
            Tab::Clock => "clock",
            Tab::Timer => "timer",
            Tab::Stopwatch => "stopwatch",
        }
    }

    fn icon(self) -> &'static str {
        match self {
            Tab::Alarm => "alarm",
            Tab::Clock => "clock",
            Tab::Timer => "timer",
            Tab::Stopwatch => "stopwatch",
        }
    }
}

/// A dialog over the app.
#[derive(Debug, Clone, PartialEq)]
enum Dialog {
    /// The time picker for a new alarm (`None`) or an existing one.
    Time {
        alarm: Option<i64>,
        picker: TimePicker,
    },
    /// The label editor of an alarm.
    Label { alarm: i64, text: String },
}

/// Days in the order the US locale lays out the repeat buttons (Sunday first), with the
/// `day_button_N` index of each.
const DAY_BUTTONS: [(Weekday, &str, &str); 7] = [
    (Weekday::Sun, "S", "Sunday"),
    (Weekday::Mon, "M", "Monday"),
    (Weekday::Tue, "T", "Tuesday"),
    (Weekday::Wed, "W", "Wednesday"),
    (Weekday::Thu, "T", "Thursday"),
    (Weekday::Fri, "F", "Friday"),
    (Weekday::Sat, "S", "Saturday"),
];

struct Clock {
    tab: Tab,
    alarms: Vec<Alarm>,
    expanded: Option<i64>,
    dialog: Option<Dialog>,
    timer: Timer,
    stopwatch: Stopwatch,
}

fn id(name: &str) -> String {
    rid(PACKAGE, name)
}

impl Clock {
    fn new(sys: &mut System) -> Clock {
        let mut clock = Clock {
            tab: Tab::Alarm,
            alarms: Vec::new(),
            expanded: None,
            dialog: None,
            timer: Timer::default(),
            stopwatch: Stopwatch::default(),
        };
        clock.reload(sys);
        clock
    }

    fn db(&self, sys: &mut System) -> Option<Connection> {
        match store::open(sys) {
            Ok(db) => Some(db),
            Err(e) => {
                sys.log(
                    PID,
                    'E',
                    TAG,
                    format!("cannot open {}: {e}", store::DB_PATH),
                );
                None
            }
        }
    }

    /// Re-reads the alarm list (the database may have been changed from the shell).
    fn reload(&mut self, sys: &mut System) {
        let Some(db) = self.db(sys) else { return };
        match store::list(&db) {
            Ok(alarms) => self.alarms = alarms,
            Err(e) => sys.log(PID, 'E', TAG, format!("cannot read alarms: {e}")),
        }
    }

    fn event(sys: &mut System, category: &str, action: &str, label: &str) {
        sys.log(
            PID,
            'D',
            TAG,
            format!("Events: [{category}] [{action}] [{label}]"),
        );
    }

    /// Writes an alarm, reschedules it and logs like DeskClock and the system do.
    fn save(&mut self, sys: &mut System, alarm: &Alarm) {
        let Some(db) = self.db(sys) else { return };
        let now = sys.clock.now;
        let result = store::update(&db, alarm).and_then(|_| store::reschedule(&db, alarm, now));
        match result {
            Ok(Some(instance)) => {
                sys.log(
                    PID,
                    'I',
                    TAG,
                    format!("Created new alarm instance: {instance}"),
                );
            }
            Ok(None) => {}
            Err(e) => sys.log(
                PID,
                'E',
                TAG,
                format!("cannot save alarm {}: {e}", alarm.id),
            ),
        }
        Self::log_next_alarm(sys, &db);
        self.reload(sys);
    }

    /// The notification service re-evaluates its schedule conditions whenever the next alarm changes.
    fn log_next_alarm(sys: &mut System, db: &Connection) {
        let now = sys.clock.now;
        let next = store::next_user_alarm(db, now).ok().flatten();
        let next_ts = next.map_or_else(|| java_ts(None), |t| java_ts(Some(t)));
        sys.log(
            SYSTEM_SERVER_PID,
            'D',
            "ConditionProviders.SCP",
            format!(
                "evaluateSubscriptionLocked cal=ScheduleCalendar[mDays={{1, 2, 3, 4, 5, 6, 7}}, \
                 mSchedule=ScheduleInfo{{days=[1, 2, 3, 4, 5, 6, 7], startHour=22, startMinute=0, endHour=7, \
                 endMinute=0, exitAtAlarm=true, nextAlarm={next_ts}}}], now={}, nextUserAlarmTime={next_ts}",
                java_ts(Some(now))
            ),
        );
    }

    fn alarm(&self, alarm_id: i64) -> Option<Alarm> {
        self.alarms.iter().find(|a| a.id == alarm_id).cloned()
    }

    fn add_alarm(&mut self, sys: &mut System, hour: u32, minute: u32) {
        let Some(db) = self.db(sys) else { return };
        match store::insert(&db, hour, minute) {
            Ok(alarm) => {
                Self::event(sys, "Alarm", "Create", "DeskClock");
                self.expanded = Some(alarm.id);
                self.save(sys, &alarm);
            }
            Err(e) => sys.log(PID, 'E', TAG, format!("cannot add alarm: {e}")),
        }
    }

    fn handle_dialog(&mut self, event: &UiEvent, sys: &mut System) -> Option<bool> {
        let dialog = self.dialog.as_mut()?;
        if *event == UiEvent::Back {
            self.dialog = None;
            sys.request(Request::ClearFocus);
            return Some(true);
        }
        match dialog {
            Dialog::Time { alarm, picker } => {
                let alarm = *alarm;
                match picker.handle(event)? {
                    widgets::DialogResult::Pending => {}
                    widgets::DialogResult::Cancel => self.dialog = None,
                    widgets::DialogResult::Ok((hour, minute)) => {
                        self.dialog = None;
                        sys.request(Request::ClearFocus);
                        match alarm.and_then(|a| self.alarm(a)) {
                            Some(mut existing) => {
                                existing.hour = hour;
                                existing.minutes = minute;
                                existing.enabled = true;
                                Self::event(sys, "Alarm", "Update", "DeskClock");
                                self.save(sys, &existing);
                            }
                            None => self.add_alarm(sys, hour, minute),
                        }
                    }
                }
                Some(true)
            }
            Dialog::Label { alarm, text } => {
                let alarm = *alarm;
                match event {
                    UiEvent::TextChanged { tag, text: new } if tag == "label_input" => {
                        *text = new.clone()
                    }
                    UiEvent::Click(tag) if tag == "label_cancel" => {
                        self.dialog = None;
                        sys.request(Request::ClearFocus);
                    }
                    UiEvent::Click(tag) if tag == "label_ok" => {
                        let text = text.clone();
                        self.dialog = None;
                        sys.request(Request::ClearFocus);
                        if let Some(mut a) = self.alarm(alarm) {
                            a.label = text;
                            self.save(sys, &a);
                        }
                    }
                    UiEvent::EditorAction(tag) if tag == "label_input" => {
                        return self.handle_dialog(&UiEvent::Click("label_ok".into()), sys);
                    }
                    _ => return None,
                }
                Some(true)
            }
        }
    }

    fn handle_alarm_tab(
        &mut self,
        action: &str,
        arg: Option<i64>,
        extra: Option<usize>,
        sys: &mut System,
    ) -> bool {
        if action == "fab" {
            let now = sys.clock.now;
            self.dialog = Some(Dialog::Time {
                alarm: None,
                picker: TimePicker::new(now.hour(), now.minute(), widgets::uses_24h(sys)),
            });
            return true;
        }
        let Some(alarm) = arg.and_then(|a| self.alarm(a)) else {
            return false;
        };
        let mut a = alarm.clone();
        match action {
            "card" | "arrow" => {
                self.expanded = if self.expanded == Some(a.id) {
                    None
                } else {
                    Some(a.id)
                };
            }
            "time" => {
                self.dialog = Some(Dialog::Time {
                    alarm: Some(a.id),
                    picker: TimePicker::new(a.hour, a.minutes, widgets::uses_24h(sys)),
                });
            }
            "onoff" => {
                a.enabled = !a.enabled;
                let action = if a.enabled { "On" } else { "Off" };
                Self::event(sys, "Alarm", action, "DeskClock");
                self.save(sys, &a);
            }
            "day" => {
                let Some((weekday, _, _)) = extra.and_then(|i| DAY_BUTTONS.get(i)) else {
                    return false;
                };
                a.days ^= store::day_bit(*weekday);
                self.save(sys, &a);
            }
            "vibrate" => {
                a.vibrate = !a.vibrate;
                self.save(sys, &a);
            }
            "label" => {
                self.dialog = Some(Dialog::Label {
                    alarm: a.id,
                    text: a.label.clone(),
                });
                sys.request(Request::Focus {
                    tag: "label_input".into(),
                });
            }
            "delete" => {
                let Some(db) = self.db(sys) else { return true };
                if let Err(e) = store::delete(&db, a.id) {
                    sys.log(PID, 'E', TAG, format!("cannot delete alarm {}: {e}", a.id));
                }
                Self::event(sys, "Alarm", "Delete", "DeskClock");
                Self::log_next_alarm(sys, &db);
                self.expanded = None;
                self.reload(sys);
            }
            _ => return false,
        }
        true
    }

    fn handle_click(&mut self, tag: &str, sys: &mut System) -> bool {
        if let Some(key) = tag.strip_prefix("tab:") {
            let Some(tab) = Tab::ALL.into_iter().find(|t| t.key() == key) else {
                return false;
            };
            self.tab = tab;
            Self::event(sys, tab.name(), "Show Tab", "Tap");
            return true;
        }
        let now = sys.clock.now;
        let mut parts = tag.split(':');
        let action = parts.next().unwrap_or("");
        let arg = parts.next().and_then(|p| p.parse::<i64>().ok());
        let extra = parts.next().and_then(|p| p.parse::<usize>().ok());
        match action {
            "timer_digit" => {
                if self.timer.run.is_none() {
                    self.timer.press_digit(arg.unwrap_or(0).clamp(0, 9) as u32);
                }
            }
            "timer_del" => self.timer.delete_digit(),
            "timer_fab" => match self.timer.run {
                Some(timers::TimerRun::Running { .. }) => {
                    self.timer.pause(now);
                    Self::event(sys, "Timer", "Pause", "DeskClock");
                }
                _ => {
                    if self.timer.remaining_ms(now) > 0 {
                        self.timer.start(now);
                        Self::event(sys, "Timer", "Start", "DeskClock");
                    }
                }
            },
            "timer_delete" => {
                self.timer.reset();
                Self::event(sys, "Timer", "Delete", "DeskClock");
            }
            "sw_fab" => {
                if self.stopwatch.running() {
                    self.stopwatch.pause(now);
                    Self::event(sys, "Stopwatch", "Pause", "DeskClock");
                } else {
                    self.stopwatch.start(now);
                    Self::event(sys, "Stopwatch", "Start", "DeskClock");
                }
            }
            "sw_left" => {
                if self.stopwatch.running() {
                    self.stopwatch.lap(now);
                    Self::event(sys, "Stopwatch", "Lap", "DeskClock");
                } else {
                    self.stopwatch.reset();
                    Self::event(sys, "Stopwatch", "Reset", "DeskClock");
                }
            }
            other => return self.handle_alarm_tab(other, arg, extra, sys),
        }
        true
    }

    fn render_alarm_tab(&self, m: &Metrics, area: Bounds, h24: bool) -> Vec<View> {
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
            list = list.child(self.alarm_card(m, a, card_b, expanded, h24));
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
            .desc("Add alarm")
            .on_click("fab")
            .style(Style {
                background: Some([208, 188, 255, 255]),
                corner_radius: m.dp(20.0),
                icon: Some("add"),
                ..Style::default()
            });
        vec![list, fab]
    }

    fn alarm_card(
        &self,
        m: &Metrics,
        a: &Alarm,
        card_b: Bounds,
        expanded: bool,
        h24: bool,
    ) -> View {
        let time = format_hm(h24, a.hour, a.minutes);
        let mut rows = Rows::new(inset(card_b, m.dp(16.0)));
        let mut children = Vec::new();
        let label_row = rows.take(m.sp(24.0));
        if expanded || !a.label.is_empty() {
            let text = if a.label.is_empty() {
                "Add label"
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
                self.summary(a),
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
            .id(id("arrow"))
            .desc(if expanded {
                "Collapse alarm"
            } else {
                "Expand alarm"
            })
            .on_click(format!("arrow:{}", a.id))
            .style(Style {
                icon: Some(if expanded {
                    "chevron_up"
                } else {
                    "chevron_down"
                }),
                ..Style::default()
            }),
        );
        if expanded {
            rows.take(m.dp(12.0));
            let days_row = rows.take(m.dp(48.0));
            let mut days = View::new(class::LINEAR_LAYOUT, days_row).id(id("repeat_days"));
            for (i, (b, (weekday, letter, name))) in columns(days_row, 7)
                .into_iter()
                .zip(DAY_BUTTONS)
                .enumerate()
            {
                let on = a.days & store::day_bit(weekday) != 0;
                days = days.child(
                    View::new(class::CHECK_BOX, inset(b, m.dp(2.0)))
                        .id(id(&format!("day_button_{i}")))
                        .text(letter)
                        .desc(name)
                        .on_click(format!("day:{}:{i}", a.id))
                        .checked(on)
                        .style(Style {
                            center_text: true,
                            background: Some(if on {
                                [103, 80, 164, 255]
                            } else {
                                [231, 224, 236, 255]
                            }),
                            text_color: on.then_some([255, 255, 255, 255]),
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
                    .text("Vibrate")
                    .on_click(format!("vibrate:{}", a.id))
                    .checked(a.vibrate),
            );
            children.push(
                View::new(class::TEXT_VIEW, rows.take(m.dp(48.0)))
                    .id(id("delete"))
                    .text("Delete")
                    .on_click(format!("delete:{}", a.id))
                    .style(Style {
                        icon: Some("delete"),
                        ..Style::default()
                    }),
            );
        }
        let desc = if a.label.is_empty() {
            format!("{time} Alarm")
        } else {
            format!("{time} {}", a.label)
        };
        View::new(class::VIEW_GROUP, card_b)
            .id(id("alarm_card_layout"))
            .desc(desc)
            .on_click(format!("card:{}", a.id))
            .style(Style {
                background: Some([243, 237, 247, 255]),
                corner_radius: m.dp(24.0),
                ..Style::default()
            })
            .children(children)
    }

    /// The line under an alarm's time: its repeat days, or when a one-off alarm rings.
    fn summary(&self, a: &Alarm) -> String {
        match a.days {
            0 => {
                if a.enabled {
                    "Tomorrow".to_string()
                } else {
                    "Not scheduled".to_string()
                }
            }
            127 => "Every day".to_string(),
            days => {
                // Monday-first order, as DeskClock's summary reads.
                let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
                names
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| days & (1 << i) != 0)
                    .map(|(_, n)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        }
    }

    fn render_clock_tab(
        &self,
        m: &Metrics,
        area: Bounds,
        now: NaiveDateTime,
        h24: bool,
    ) -> Vec<View> {
        let mut rows = Rows::new(area);
        rows.take(m.dp(48.0));
        let time = format_hm(h24, now.hour(), now.minute());
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
                .text(now.format("%a, %b %-d").to_string())
                .desc(now.format("%A, %B %-d").to_string())
                .style(Style {
                    center_text: true,
                    ..Style::default()
                }),
        ]
    }

    fn fab(m: &Metrics, area: Bounds, desc: &str, icon: &'static str, tag: &str) -> View {
        let size = m.dp(96.0);
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
            background: Some([208, 188, 255, 255]),
            corner_radius: m.dp(28.0),
            icon: Some(icon),
            ..Style::default()
        })
    }

    fn render_timer_tab(&self, m: &Metrics, area: Bounds, now: NaiveDateTime) -> Vec<View> {
        let mut rows = Rows::new(inset(area, m.dp(16.0)));
        let mut views = Vec::new();
        match self.timer.run {
            None => {
                views.push(
                    View::new(class::TEXT_VIEW, rows.take(m.sp(72.0)))
                        .id(id("timer_setup_time"))
                        .text(self.timer.setup_text())
                        .desc(self.timer.setup_desc())
                        .style(Style {
                            text_size_sp: Some(48.0),
                            center_text: true,
                            ..Style::default()
                        }),
                );
                let del_row = rows.take(m.dp(48.0));
                views.push(
                    View::new(
                        class::IMAGE_BUTTON,
                        Bounds::new(
                            del_row.right - m.dp(64.0),
                            del_row.top,
                            del_row.right,
                            del_row.bottom,
                        ),
                    )
                    .id(id("timer_setup_delete"))
                    .desc("Delete")
                    .on_click("timer_del")
                    .enabled(!self.timer.digits.is_empty())
                    .style(Style {
                        icon: Some("backspace"),
                        ..Style::default()
                    }),
                );
                let keypad = rows.take(m.dp(4.0 * 72.0));
                let grid = widgets::columns_vertical(keypad, 4);
                let layout: [&[u32]; 4] = [&[1, 2, 3], &[4, 5, 6], &[7, 8, 9], &[0]];
                for (row_b, digits) in grid.into_iter().zip(layout) {
                    let cells = columns(row_b, 3);
                    for (i, d) in digits.iter().enumerate() {
                        let b = if *d == 0 { cells[1] } else { cells[i] };
                        views.push(
                            button(
                                inset(b, m.dp(6.0)),
                                d.to_string(),
                                format!("timer_digit:{d}"),
                            )
                            .id(id(&format!("timer_setup_digit_{d}")))
                            .style(Style {
                                center_text: true,
                                text_size_sp: Some(28.0),
                                background: Some([231, 224, 236, 255]),
                                corner_radius: m.dp(32.0),
                                ..Style::default()
                            }),
                        );
                    }
                }
                if !self.timer.digits.is_empty() {
                    views.push(Self::fab(m, area, "Start", "play", "timer_fab"));
                }
            }
            Some(run) => {
                rows.take(m.dp(48.0));
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
                views.push(button(cols[0], "Delete", "timer_delete").id(id("delete_timer")));
                views.push(Self::fab(
                    m,
                    area,
                    if running { "Pause" } else { "Start" },
                    if running { "pause" } else { "play" },
                    "timer_fab",
                ));
            }
        }
        views
    }

    fn render_stopwatch_tab(&self, m: &Metrics, area: Bounds, now: NaiveDateTime) -> Vec<View> {
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
            if running { "Pause" } else { "Start" },
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
                .desc(if running { "Lap" } else { "Reset" })
                .on_click("sw_left")
                .style(Style {
                    background: Some([231, 224, 236, 255]),
                    corner_radius: size / 2,
                    icon: Some(if running { "lap" } else { "reset" }),
                    ..Style::default()
                }),
            );
        }
        views
    }

    fn render_nav(&self, m: &Metrics, nav_b: Bounds) -> View {
        let mut nav = View::new(class::FRAME_LAYOUT, nav_b)
            .id(id("bottom_navigation"))
            .style(Style {
                background: Some([243, 237, 247, 255]),
                ..Style::default()
            });
        for (b, tab) in columns(nav_b, 4).into_iter().zip(Tab::ALL) {
            let selected = tab == self.tab;
            let icon_b = Bounds::new(b.left, b.top + m.dp(12.0), b.right, b.top + m.dp(44.0));
            let label_b = Bounds::new(b.left, b.top + m.dp(48.0), b.right, b.bottom - m.dp(8.0));
            nav = nav.child(
                View::new(class::FRAME_LAYOUT, b)
                    .id(id(&format!("tab_menu_{}", tab.key())))
                    .desc(tab.name())
                    .on_click(format!("tab:{}", tab.key()))
                    .selected(selected)
                    .child(
                        View::new(class::IMAGE_VIEW, icon_b)
                            .id(id("navigation_bar_item_icon_view"))
                            .style(Style {
                                icon: Some(tab.icon()),
                                background: selected.then_some([232, 222, 248, 255]),
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
                            .text(tab.name())
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

    fn render_label_dialog(&self, m: &Metrics, text: &str) -> View {
        let card = dialog_card(m, m.dp(220.0));
        let mut rows = Rows::new(inset(card, m.dp(24.0)));
        let title = label(rows.take(m.sp(32.0)), "Label", 20.0).id("android:id/alertTitle");
        rows.take(m.dp(8.0));
        let field = View::new(class::EDIT_TEXT, rows.take(m.dp(56.0)))
            .id(id("label_input_field"))
            .text(text)
            .hint("Label")
            .editable("label_input");
        rows.take(m.dp(8.0));
        let cols = columns(rows.take(m.dp(48.0)), 4);
        with_card_children(
            dialog_frame(m, card),
            vec![
                title,
                field,
                button(cols[2], "Cancel", "label_cancel").id("android:id/button2"),
                button(cols[3], "OK", "label_ok").id("android:id/button1"),
            ],
        )
    }
}

/// `java.util.Date#toString` plus the epoch millis, as `SystemConditionProviderService.ts` prints
/// a time (the phone's zone is GMT).
fn java_ts(t: Option<NaiveDateTime>) -> String {
    let t = t.unwrap_or(chrono::DateTime::UNIX_EPOCH.naive_utc());
    let ms = t.and_utc().timestamp_millis();
    format!(
        "{} {} {:02} {:02}:{:02}:{:02} GMT {} ({ms})",
        t.format("%a"),
        t.format("%b"),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.year()
    )
}

impl App for Clock {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        ACTIVITY.to_string()
    }

    fn render(&self, sys: &System) -> View {
        let m = &sys.metrics;
        let area = m.content;
        match &self.dialog {
            Some(Dialog::Time { picker, .. }) => return picker.render(PACKAGE, m),
            Some(Dialog::Label { text, .. }) => return self.render_label_dialog(m, text),
            None => {}
        }
        let mut rows = Rows::new(area);
        let title_b = rows.take(m.dp(64.0));
        let nav_h = m.dp(80.0);
        let body = Bounds::new(area.left, rows.y, area.right, area.bottom - nav_h);
        let nav_b = Bounds::new(area.left, area.bottom - nav_h, area.right, area.bottom);
        let now = sys.clock.now;
        let h24 = widgets::uses_24h(sys);
        let content = match self.tab {
            Tab::Alarm => self.render_alarm_tab(m, body, h24),
            Tab::Clock => self.render_clock_tab(m, body, now, h24),
            Tab::Timer => self.render_timer_tab(m, body, now),
            Tab::Stopwatch => self.render_stopwatch_tab(m, body, now),
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
                    self.tab.name(),
                    22.0,
                )
                .id(id("action_bar_title")),
            )
            .children(content)
            .child(self.render_nav(m, nav_b))
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if let Some(handled) = self.handle_dialog(event, sys) {
            return handled;
        }
        if self.dialog.is_some() {
            return false;
        }
        self.reload(sys);
        match event {
            UiEvent::Click(tag) => self.handle_click(tag, sys),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_timestamps_read_like_date_to_string() {
        let t = chrono::NaiveDate::from_ymd_opt(2026, 11, 24)
            .unwrap()
            .and_hms_opt(10, 30, 0)
            .unwrap();
        assert_eq!(
            java_ts(Some(t)),
            "Tue Nov 24 10:30:00 GMT 2026 (1795516200000)"
        );
    }
}

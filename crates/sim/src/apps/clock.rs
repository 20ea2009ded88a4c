//! Clock (com.google.android.deskclock): Google Clock's Alarm, Clock, Timer and Stopwatch tabs.
//!
//! Alarms live in DeskClock's `alarms.db` ([`store`]); each change writes the row, reschedules the
//! alarm's instance and logs what the phone logs (DeskClock's `AlarmClock` events and the
//! notification service's `ConditionProviders.SCP` next-alarm line). Timer and stopwatch run on the
//! simulated clock ([`timers`]). Resource ids and content-descs are Google Clock's (`fab`,
//! `alarm_recycler_view`, `digital_clock`, `onoff`, `day_button_0`…, Material time picker ids).

mod screens;
pub mod store;
pub mod timers;

use chrono::{Datelike, NaiveDateTime, Timelike, Weekday};
use rusqlite::Connection;

use super::widgets::{self, rid, TimePicker};
use crate::app::{App, AppInfo, UiEvent};
use crate::locale;
use crate::system::{pid, Notification, Request, System};
use crate::view::View;
use store::Alarm;
use timers::{Stopwatch, Timer};

pub const PACKAGE: &str = "com.google.android.deskclock";
pub const ACTIVITY: &str = "com.android.deskclock.DeskClock";

/// Process id the Clock logs under.
const PID: u32 = 3127;
/// DeskClock's log tag.
const TAG: &str = "AlarmClock";

/// AlarmManager action of the running timer.
const TIMER_ALARM: &str = "timer";
/// Notification ids: DeskClock's timer notification, and alarm notifications by alarm id above it.
const TIMER_NOTIFICATION: i32 = 2147483645;
const ALARM_NOTIFICATION_BASE: i32 = 1000;
/// How long Snooze puts a ringing alarm off (DeskClock's default).
const SNOOZE_MINUTES: i64 = 10;

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |sys| Box::new(Clock::new(sys)),
        install: |sys| widgets::install_store(sys, store::open, store::DB_PATH, PID, TAG),
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

    /// The tab's title resource (`menu_alarm`…).
    fn label_key(self) -> &'static str {
        match self {
            Tab::Alarm => "menu_alarm",
            Tab::Clock => "menu_clock",
            Tab::Timer => "menu_timer",
            Tab::Stopwatch => "menu_stopwatch",
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

/// Days in the order of the repeat buttons (`day_button_N`), Sunday first in every locale here
/// (DeskClock follows the "Start week on" setting, whose default is the region's first day).
const DAY_BUTTONS: [Weekday; 7] = [
    Weekday::Sun,
    Weekday::Mon,
    Weekday::Tue,
    Weekday::Wed,
    Weekday::Thu,
    Weekday::Fri,
    Weekday::Sat,
];

/// The Clock's string resource `name` in the phone's locale.
fn tr<'a>(sys: &System, name: &'a str) -> &'a str {
    locale::string(&sys.locale, PACKAGE, name)
}

#[derive(Clone)]
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
        widgets::open_store(sys, store::open, store::DB_PATH, PID, TAG)
    }

    /// Re-reads the alarm list (the database may have been changed from the shell).
    fn reload(&mut self, sys: &mut System) {
        let Some(db) = self.db(sys) else { return };
        match store::list(&db) {
            Ok(alarms) => self.alarms = alarms,
            Err(e) => sys.log(PID, 'E', TAG, format!("cannot read alarms: {e}")),
        }
        self.schedule_alarms(sys);
    }

    /// Hands AlarmManager the next firing of every enabled alarm (as DeskClock's
    /// AlarmStateManager does whenever its instances change).
    fn schedule_alarms(&self, sys: &mut System) {
        sys.cancel_alarm(PACKAGE, "alarm:*");
        let now = sys.clock.now();
        for a in self.alarms.iter().filter(|a| a.enabled) {
            sys.set_alarm(
                PACKAGE,
                &format!("alarm:{}", a.id),
                store::next_fire(a, now),
                true,
            );
        }
    }

    /// Keeps AlarmManager and the notification in step with the timer after any change to it.
    fn sync_timer(&self, sys: &mut System) {
        match self.timer.ends_at() {
            Some(at) => sys.set_alarm(PACKAGE, TIMER_ALARM, at, false),
            None => sys.cancel_alarm(PACKAGE, TIMER_ALARM),
        }
        if !self.timer.expired() {
            sys.cancel_notification(PACKAGE, TIMER_NOTIFICATION);
        }
    }

    /// An AlarmManager alarm came due: the timer rings, or an alarm fires.
    fn on_alarm(&mut self, action: &str, sys: &mut System) -> bool {
        let now = sys.clock.now();
        if action == TIMER_ALARM {
            if !self.timer.expire(now) {
                return false;
            }
            Self::event(sys, "Timer", "Expire", "DeskClock");
            sys.notify(Notification {
                package: PACKAGE.into(),
                id: TIMER_NOTIFICATION,
                channel: "Timers".into(),
                title: tr(sys, "timer_times_up").into(),
                text: tr(sys, "timer_notification_label").into(),
                actions: vec![
                    ("timer_stop".into(), tr(sys, "timer_stop").into()),
                    ("timer_add_minute".into(), tr(sys, "timer_plus_one").into()),
                ],
                heads_up: true,
                intent: None,
                when: now,
                tag: None,
                target: None,
                auto_cancel: false,
                ongoing: false,
                full_screen: None,
            });
            return true;
        }
        let Some(alarm_id) = action
            .strip_prefix("alarm:")
            .or_else(|| action.strip_prefix("snooze:"))
            .and_then(|id| id.parse::<i64>().ok())
        else {
            return false;
        };
        let Some(mut alarm) = self.alarm(alarm_id) else {
            return false;
        };
        sys.log(
            PID,
            'I',
            TAG,
            format!("Setting fire state to instance {alarm_id}"),
        );
        Self::event(sys, "Alarm", "Fire", "DeskClock");
        let text = locale::format_time(
            alarm.hour,
            alarm.minutes,
            &sys.locale,
            widgets::uses_24h(sys),
        );
        sys.notify(Notification {
            package: PACKAGE.into(),
            id: ALARM_NOTIFICATION_BASE + alarm_id as i32,
            channel: "Firing".into(),
            title: if alarm.label.is_empty() {
                tr(sys, "default_label").into()
            } else {
                alarm.label.clone()
            },
            text,
            actions: vec![
                (
                    format!("alarm_snooze:{alarm_id}"),
                    tr(sys, "alarm_alert_snooze_text").into(),
                ),
                (
                    format!("alarm_dismiss:{alarm_id}"),
                    tr(sys, "alarm_alert_dismiss_text").into(),
                ),
            ],
            heads_up: true,
            intent: None,
            when: now,
            tag: None,
            target: None,
            auto_cancel: false,
            ongoing: false,
            full_screen: None,
        });
        if alarm.days == 0 && alarm.enabled && action.starts_with("alarm:") {
            // A one-time alarm turns itself off once it has rung.
            alarm.enabled = false;
            self.save(sys, &alarm);
        } else {
            self.schedule_alarms(sys);
        }
        true
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
        let now = sys.clock.now();
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
        let now = sys.clock.now();
        let next = store::next_user_alarm(db, now).ok().flatten();
        let next_ts = next.map_or_else(|| java_ts(None), |t| java_ts(Some(t)));
        sys.log(
            pid::SYSTEM_SERVER,
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

    /// Scrolls the alarm list to show the whole card of `alarm_id`, as DeskClock scrolls to a card
    /// it expands or adds.
    fn show_card(sys: &mut System, alarm_id: i64) {
        sys.request(Request::ScrollIntoView {
            container: "alarm_list".into(),
            view: format!("card:{alarm_id}"),
        });
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
                Self::show_card(sys, alarm.id);
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
            let now = sys.clock.now();
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
                    Self::show_card(sys, a.id);
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
                let Some(weekday) = extra.and_then(|i| DAY_BUTTONS.get(i)) else {
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

    /// The buttons of a ringing timer or alarm (in its notification, or the timer tab's Stop):
    /// `None` when the tag is not one of them.
    fn handle_ringing(&mut self, tag: &str, sys: &mut System) -> Option<bool> {
        let now = sys.clock.now();
        let (action, arg) = tag.split_once(':').unwrap_or((tag, ""));
        match action {
            "timer_stop" => {
                self.timer.reset();
                Self::event(sys, "Timer", "Stop", "DeskClock");
                self.sync_timer(sys);
            }
            "timer_add_minute" if self.timer.expired() => {
                self.timer.add_minute(now);
                Self::event(sys, "Timer", "AddMinute", "DeskClock");
                self.sync_timer(sys);
            }
            "alarm_dismiss" | "alarm_snooze" => {
                let alarm_id: i64 = arg.parse().ok()?;
                sys.cancel_notification(PACKAGE, ALARM_NOTIFICATION_BASE + alarm_id as i32);
                if action == "alarm_snooze" {
                    let at = now + chrono::Duration::minutes(SNOOZE_MINUTES);
                    sys.set_alarm(PACKAGE, &format!("snooze:{alarm_id}"), at, true);
                    Self::event(sys, "Alarm", "Snooze", "Notification");
                } else {
                    Self::event(sys, "Alarm", "Dismiss", "Notification");
                }
            }
            _ => return None,
        }
        Some(true)
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
        let now = sys.clock.now();
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
            "timer_fab" => {
                match self.timer.run {
                    Some(timers::TimerRun::Running { .. }) => {
                        self.timer.pause(now);
                        Self::event(sys, "Timer", "Pause", "DeskClock");
                    }
                    Some(timers::TimerRun::Expired { .. }) => {
                        self.timer.reset();
                        Self::event(sys, "Timer", "Stop", "DeskClock");
                    }
                    _ => {
                        if self.timer.remaining_ms(now) > 0 {
                            self.timer.start(now);
                            Self::event(sys, "Timer", "Start", "DeskClock");
                        }
                    }
                }
                self.sync_timer(sys);
            }
            "timer_delete" => {
                self.timer.reset();
                Self::event(sys, "Timer", "Delete", "DeskClock");
                self.sync_timer(sys);
            }
            "timer_add_minute" => {
                self.timer.add_minute(now);
                Self::event(sys, "Timer", "AddMinute", "DeskClock");
                self.sync_timer(sys);
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
        self.screen(sys)
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if let UiEvent::Alarm(action) = event {
            self.reload(sys);
            return self.on_alarm(action, sys);
        }
        if let UiEvent::Click(tag) = event {
            if let Some(handled) = self.handle_ringing(tag, sys) {
                return handled;
            }
        }
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

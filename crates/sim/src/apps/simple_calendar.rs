//! Simple Calendar Pro (`com.simplemobiletools.calendar.pro`, Simple Mobile Tools 6.22, the
//! version code 238 AndroidWorld sideloads): MainActivity's monthly, daily and simple event list
//! views (Change view), the search bar, a long press that selects events for Delete, and
//! EventActivity, where an event is both read and edited ([`editor`]). Layouts, ids and strings
//! follow the app's sources (`activity_main.xml`, `fragment_month.xml`, `fragment_day.xml`,
//! `fragment_event_list.xml`, `item_event.xml`, `activity_event.xml`).
//!
//! Its events live only in its own `databases/events.db` ([`store`]), re-read when the app starts
//! and before each event it handles, so what AndroidWorld pushes there, `sqlite3` edits, `pm
//! clear` and snapshots all show on the next frame. "Today" is the phone's clock.

mod editor;
mod screens;
pub mod store;

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, Timelike};

use super::widgets::{self, add_months, days_in_month, first_of_month};
use crate::app::{App, AppInfo, UiEvent};
use crate::locale;
use crate::system::{Request, System};
use crate::view::View;
use editor::{Editor, Outcome, Scope};
use store::Event;

pub const PACKAGE: &str = "com.simplemobiletools.calendar.pro";
pub const MAIN_ACTIVITY: &str = "com.simplemobiletools.calendar.pro.activities.MainActivity";
/// The launcher entry: the enabled `<activity-alias>` (the default orange icon) of
/// SplashActivity, which starts MainActivity and finishes.
pub const LAUNCH_ACTIVITY: &str =
    "com.simplemobiletools.calendar.pro.activities.SplashActivity.Orange";
pub const SPLASH_ACTIVITY: &str = "com.simplemobiletools.calendar.pro.activities.SplashActivity";
const EVENT_ACTIVITY: &str = "com.simplemobiletools.calendar.pro.activities.EventActivity";
/// The process id its log lines carry.
const PID: u32 = 3544;
const TAG: &str = "SimpleCalendar";

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    widgets::rid(PACKAGE, name)
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: LAUNCH_ACTIVITY,
        create: |sys| Box::new(SimpleCalendar::new(sys)),
        // AndroidWorld's setup opens the app once, which creates the database; installing
        // creates it too, so a fresh or cleared phone has the empty tables it reads.
        install: |sys| widgets::install_store(sys, store::open, store::DB_PATH, PID, TAG),
        on_home_screen: false,
    }
}

/// MainActivity's views.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Month,
    Day,
    List,
}

/// A dialog over MainActivity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialog {
    ChangeView,
    /// Delete the events the action mode selected?
    DeleteSelected,
}

#[derive(Debug, Clone)]
struct SimpleCalendar {
    events: Vec<Event>,
    /// The view Change view chose.
    view: Mode,
    /// The monthly view: a day of the month on show; the daily view: the day.
    shown: NaiveDate,
    /// A day the monthly view opened, on top of it: Back returns to the month.
    day_over_month: bool,
    /// The search bar's text.
    search: Option<String>,
    /// The events the action mode selected.
    selection: Vec<i64>,
    dialog: Option<Dialog>,
    /// EventActivity, on top of MainActivity.
    editor: Option<Editor>,
}

impl SimpleCalendar {
    fn new(sys: &mut System) -> SimpleCalendar {
        let mut app = SimpleCalendar {
            events: Vec::new(),
            view: Mode::Month,
            shown: sys.clock.now().date(),
            day_over_month: false,
            search: None,
            selection: Vec::new(),
            dialog: None,
            editor: None,
        };
        app.reload(sys);
        app
    }

    fn mode(&self) -> Mode {
        if self.day_over_month {
            Mode::Day
        } else {
            self.view
        }
    }

    fn db(&self, sys: &mut System) -> Option<rusqlite::Connection> {
        widgets::open_store(sys, store::open, store::DB_PATH, PID, TAG)
    }

    fn reload(&mut self, sys: &mut System) {
        let Some(db) = self.db(sys) else { return };
        match store::list(&db) {
            Ok(events) => self.events = events,
            Err(e) => sys.log(PID, 'E', TAG, format!("cannot read events: {e}")),
        }
    }

    /// The occurrences on `day`: all-day events first, then by start time.
    fn occurrences_on(&self, day: NaiveDate) -> Vec<Event> {
        let mut out: Vec<Event> = self
            .events
            .iter()
            .filter(|e| e.on_day(day))
            .map(|e| e.occurrence(day))
            .collect();
        out.sort_by_key(|e| (!e.all_day, e.start.time(), e.id));
        out
    }

    /// A new event on `day` at the next full hour (`config.defaultStartTime`), lasting the
    /// default duration of 0 minutes.
    fn new_event(day: NaiveDate, now: NaiveDateTime) -> Event {
        let start = day.and_time(NaiveTime::MIN) + Duration::hours(i64::from(now.hour()) + 1);
        Event {
            id: None,
            title: String::new(),
            location: String::new(),
            description: String::new(),
            start,
            end: start,
            all_day: false,
            repeat_interval: 0,
            repeat_rule: 0,
            repeat_limit: 0,
            exceptions: vec![],
        }
    }

    /// The day a new event starts on (`getNewEventDayCode`): the daily view's day, the shown
    /// month's first unless it is this month, today otherwise.
    fn new_event_day(&self, today: NaiveDate) -> NaiveDate {
        match self.mode() {
            Mode::Day => self.shown,
            Mode::Month if first_of_month(self.shown) != first_of_month(today) => {
                first_of_month(self.shown)
            }
            _ => today,
        }
    }

    fn open_editor(&mut self, event: Event, occurrence: NaiveDate, sys: &mut System) {
        let new = event.id.is_none();
        self.editor = Some(Editor::new(event, occurrence));
        sys.request(if new {
            Request::Focus {
                tag: "ed_title".into(),
            }
        } else {
            Request::ClearFocus
        });
    }

    fn handle_editor(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Some(editor) = self.editor.as_mut() else {
            return false;
        };
        let occurrence = editor.occurrence;
        match editor.handle(event, sys) {
            Outcome::Stay => return true,
            Outcome::Ignored => return false,
            Outcome::Close => {}
            Outcome::Save(e) => self.save(sys, &e),
            Outcome::Delete(scope) => {
                let e = editor.event.clone();
                self.delete(sys, &e, scope, occurrence);
            }
        }
        self.editor = None;
        sys.request(Request::ClearFocus);
        self.reload(sys);
        true
    }

    fn save(&mut self, sys: &mut System, e: &Event) {
        let Some(db) = self.db(sys) else { return };
        let zone = match sys.property("persist.sys.timezone") {
            "" => "UTC".to_string(),
            z => z.to_string(),
        };
        let now = sys.now_millis();
        match store::save(&db, e, &zone, now) {
            Ok(saved) => {
                let what = if e.id.is_some() {
                    "event_updated"
                } else {
                    "event_added"
                };
                sys.log(PID, 'I', TAG, format!("{} (id {saved})", tr(sys, what)));
            }
            Err(err) => sys.log(PID, 'E', TAG, format!("cannot save event: {err}")),
        }
    }

    fn delete(&mut self, sys: &mut System, e: &Event, scope: Scope, day: NaiveDate) {
        let (Some(id), Some(db)) = (e.id, self.db(sys)) else {
            return;
        };
        // The stored event, not the editor's changes to it.
        let Some(stored) = self.events.iter().find(|x| x.id == Some(id)).cloned() else {
            return;
        };
        let result = match scope {
            Scope::All => store::delete(&db, &[id]),
            Scope::Occurrence => {
                let mut kept = stored;
                kept.exceptions.push(day);
                store::save(&db, &kept, "", sys.now_millis()).map(|_| ())
            }
            Scope::Future if day <= stored.start.date() => store::delete(&db, &[id]),
            Scope::Future => {
                let mut kept = stored;
                kept.repeat_limit = editor::limit_before(&kept, day);
                store::save(&db, &kept, "", sys.now_millis()).map(|_| ())
            }
        };
        if let Err(err) = result {
            sys.log(PID, 'E', TAG, format!("cannot delete event {id}: {err}"));
        }
    }

    fn handle_dialog(&mut self, dialog: Dialog, event: &UiEvent, sys: &mut System) -> bool {
        let today = sys.clock.now().date();
        match (dialog, event) {
            (_, UiEvent::Back) => {}
            (Dialog::ChangeView, UiEvent::Click(tag)) => {
                self.view = match tag.as_str() {
                    "view:day" => Mode::Day,
                    "view:month" => Mode::Month,
                    "view:list" => Mode::List,
                    _ => return true,
                };
                self.day_over_month = false;
                self.shown = today;
            }
            (Dialog::DeleteSelected, UiEvent::Click(tag)) if tag == "del_yes" => {
                if let Some(db) = self.db(sys) {
                    if let Err(e) = store::delete(&db, &self.selection) {
                        sys.log(PID, 'E', TAG, format!("cannot delete events: {e}"));
                    }
                }
                self.selection.clear();
                self.reload(sys);
            }
            (Dialog::DeleteSelected, UiEvent::Click(tag)) if tag == "del_no" => {}
            _ => return true,
        }
        self.dialog = None;
        true
    }

    /// A tap on an event row (`ev:<id>:<day code>`): its id and the occurrence's day.
    fn row(tag: &str) -> Option<(i64, NaiveDate)> {
        let (id, day) = tag.strip_prefix("ev:")?.split_once(':')?;
        Some((
            id.parse().ok()?,
            NaiveDate::parse_from_str(day, "%Y%m%d").ok()?,
        ))
    }

    fn handle_main(&mut self, tag: &str, sys: &mut System) -> bool {
        let today = sys.clock.now().date();
        if let Some((event_id, day)) = Self::row(tag) {
            if !self.selection.is_empty() {
                // In the action mode a tap selects or deselects; the last one out ends it.
                if let Some(i) = self.selection.iter().position(|s| *s == event_id) {
                    self.selection.remove(i);
                } else {
                    self.selection.push(event_id);
                }
            } else if let Some(e) = self.events.iter().find(|e| e.id == Some(event_id)).cloned() {
                self.open_editor(e, day, sys);
            }
            return true;
        }
        match tag {
            "search" => sys.request(Request::Focus {
                tag: "search".into(),
            }),
            "change_view" => self.dialog = Some(Dialog::ChangeView),
            "go_to_today" => self.shown = today,
            "cab_close" => self.selection.clear(),
            "cab_delete" if !self.selection.is_empty() => {
                self.dialog = Some(Dialog::DeleteSelected)
            }
            "fab" => {
                let day = self.new_event_day(today);
                let e = Self::new_event(day, sys.clock.now());
                self.open_editor(e, day, sys);
            }
            "prev" | "next" => {
                let step = if tag == "prev" { -1 } else { 1 };
                self.shown = match self.mode() {
                    Mode::Day => self.shown + Duration::days(step.into()),
                    _ => {
                        let first = add_months(first_of_month(self.shown), step);
                        let day = self.shown.day0().min(days_in_month(first) - 1);
                        first + Duration::days(day.into())
                    }
                };
            }
            other => {
                let Some(day) = other
                    .strip_prefix("day:")
                    .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
                else {
                    return false;
                };
                self.shown = day;
                self.day_over_month = true;
            }
        }
        true
    }
}

impl App for SimpleCalendar {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        if self.editor.is_some() {
            EVENT_ACTIVITY
        } else {
            MAIN_ACTIVITY
        }
        .to_string()
    }

    fn render(&self, sys: &System) -> View {
        self.screen(sys)
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if self.editor.is_some() {
            return self.handle_editor(event, sys);
        }
        self.reload(sys);
        if let Some(dialog) = self.dialog {
            return self.handle_dialog(dialog, event, sys);
        }
        match event {
            UiEvent::TextChanged { tag, text } if tag == "search" => {
                self.search = Some(text.clone());
                true
            }
            UiEvent::LongClick(tag) => match Self::row(tag) {
                Some((event_id, _)) => {
                    if !self.selection.contains(&event_id) {
                        self.selection.push(event_id);
                    }
                    true
                }
                None => false,
            },
            UiEvent::Click(tag) => self.handle_main(tag, sys),
            UiEvent::Back if !self.selection.is_empty() => {
                self.selection.clear();
                true
            }
            UiEvent::Back if self.search.is_some() => {
                self.search = None;
                sys.request(Request::ClearFocus);
                true
            }
            UiEvent::Back if self.day_over_month => {
                self.day_over_month = false;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2023, 10, day).unwrap()
    }

    #[test]
    fn a_new_event_starts_at_the_next_full_hour_of_its_day() {
        let now = d(15).and_hms_opt(15, 34, 0).unwrap();
        let e = SimpleCalendar::new_event(d(22), now);
        assert_eq!(e.start, d(22).and_hms_opt(16, 0, 0).unwrap());
        assert_eq!(e.end, e.start);
        let late = d(15).and_hms_opt(23, 10, 0).unwrap();
        assert_eq!(
            SimpleCalendar::new_event(d(15), late).start,
            d(16).and_hms_opt(0, 0, 0).unwrap()
        );
        assert_eq!(SimpleCalendar::row("ev:12:20231022"), Some((12, d(22))));
        assert_eq!(SimpleCalendar::row("ev:x:20231022"), None);
    }
}

//! Calendar (com.google.android.calendar): month and day views with navigation, the event editor
//! (title, all-day, start/end date and time through date and time pickers, repeat rule, location,
//! description), event details and deletion. A repeating event shows on every day it occurs.
//!
//! Events are stored through [`store`] in the calendar provider's `calendar.db`, so `content query
//! --uri content://com.android.calendar/events` and SQLite task checks see what the UI made. "Today"
//! is the simulated clock's date.

pub mod recurrence;
mod screens;
pub mod store;

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime, Timelike};
use rusqlite::Connection;

use super::widgets::{
    self, add_months, days_in_month, first_of_month, rid, DatePicker, DialogResult, TimePicker,
};
use crate::app::{App, AppInfo, UiEvent};
use crate::system::{Request, System};
use crate::view::View;
use recurrence::Rule;
use store::Event;

pub const PACKAGE: &str = "com.google.android.calendar";
pub const ACTIVITY: &str = "com.android.calendar.AllInOneActivity";

/// Process id the Calendar logs under.
const PID: u32 = 3311;
const TAG: &str = "Calendar";

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |sys| Box::new(Calendar::new(sys)),
        install: |sys| widgets::install_store(sys, store::open, store::DB_PATH, PID, TAG),
        on_home_screen: true,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Month,
    Day,
}

/// A picker open over the editor.
#[derive(Debug, Clone, PartialEq)]
enum EditorPicker {
    StartDate(DatePicker),
    EndDate(DatePicker),
    StartTime(TimePicker),
    EndTime(TimePicker),
    /// The repeat choices (`rep:N`).
    Repeat,
}

#[derive(Debug, Clone, PartialEq)]
struct Editor {
    event: Event,
    picker: Option<EditorPicker>,
}

#[derive(Clone)]
struct Calendar {
    events: Vec<Event>,
    mode: Mode,
    /// The selected day (day view) and the month on show (month view follows it).
    selected: NaiveDate,
    speed_dial: bool,
    detail: Option<i64>,
    confirm_delete: bool,
    editor: Option<Editor>,
}

fn id(name: &str) -> String {
    rid(PACKAGE, name)
}

impl Calendar {
    fn new(sys: &mut System) -> Calendar {
        let mut c = Calendar {
            events: Vec::new(),
            mode: Mode::Month,
            selected: sys.clock.now().date(),
            speed_dial: false,
            detail: None,
            confirm_delete: false,
            editor: None,
        };
        c.reload(sys);
        c
    }

    fn db(&self, sys: &mut System) -> Option<Connection> {
        widgets::open_store(sys, store::open, store::DB_PATH, PID, TAG)
    }

    fn reload(&mut self, sys: &mut System) {
        let Some(db) = self.db(sys) else { return };
        match store::list(&db) {
            Ok(events) => self.events = events,
            Err(e) => sys.log(PID, 'E', TAG, format!("cannot read events: {e}")),
        }
    }

    fn events_on(&self, day: NaiveDate) -> Vec<&Event> {
        self.events.iter().filter(|e| e.on_day(day)).collect()
    }

    /// A new event on `day` at the next whole hour after now, lasting an hour.
    fn new_event(&self, day: NaiveDate, now: NaiveDateTime) -> Event {
        let hour = (now.hour() + 1).min(23);
        let start = day.and_time(NaiveTime::from_hms_opt(hour, 0, 0).unwrap_or(NaiveTime::MIN));
        Event {
            id: None,
            title: String::new(),
            description: String::new(),
            location: String::new(),
            all_day: false,
            start,
            end: start + Duration::hours(1),
            rrule: None,
        }
    }

    fn open_editor(&mut self, event: Event, sys: &mut System) {
        self.editor = Some(Editor {
            event,
            picker: None,
        });
        self.speed_dial = false;
        sys.request(Request::Focus {
            tag: "ed_title".into(),
        });
    }

    fn handle_editor(&mut self, event: &UiEvent, sys: &mut System) -> Option<bool> {
        let is_24h = widgets::uses_24h(sys);
        let editor = self.editor.as_mut()?;
        // A picker over the editor gets the event first.
        if let Some(picker) = editor.picker.as_mut() {
            if *event == UiEvent::Back {
                editor.picker = None;
                return Some(true);
            }
            let e = &mut editor.event;
            let duration = e.end - e.start;
            let done = match picker {
                EditorPicker::Repeat => {
                    let UiEvent::Click(tag) = event else {
                        return Some(true);
                    };
                    let choice = tag
                        .strip_prefix("rep:")
                        .and_then(|i| i.parse::<usize>().ok())
                        .and_then(|i| recurrence::CHOICES.get(i))?;
                    e.rrule = choice.map(|f| Rule::simple(f, e.start.date()).to_rrule());
                    true
                }
                EditorPicker::StartDate(p) | EditorPicker::EndDate(p) => match p.handle(event)? {
                    DialogResult::Pending => false,
                    DialogResult::Cancel => true,
                    DialogResult::Ok(date) => {
                        if matches!(picker, EditorPicker::StartDate(_)) {
                            // A weekly rule made for the old start's weekday follows the new one.
                            if let Some(rule) = e.rule() {
                                if rule == Rule::simple(rule.freq, e.start.date()) {
                                    e.rrule = Some(Rule::simple(rule.freq, date).to_rrule());
                                }
                            }
                            e.start = date.and_time(e.start.time());
                            e.end = e.start + duration;
                        } else {
                            e.end = date.and_time(e.end.time()).max(e.start);
                        }
                        true
                    }
                },
                EditorPicker::StartTime(p) | EditorPicker::EndTime(p) => match p.handle(event)? {
                    DialogResult::Pending => false,
                    DialogResult::Cancel => true,
                    DialogResult::Ok((h, m)) => {
                        let t = NaiveTime::from_hms_opt(h, m, 0).unwrap_or(NaiveTime::MIN);
                        if matches!(picker, EditorPicker::StartTime(_)) {
                            e.start = e.start.date().and_time(t);
                            e.end = e.start + duration;
                        } else {
                            let mut end = e.end.date().and_time(t);
                            if end < e.start {
                                // An end time before the start means the next day, as the app assumes.
                                end = e.start.date().and_time(t) + Duration::days(1);
                                if end - e.start > Duration::days(1) {
                                    end = e.start;
                                }
                            }
                            e.end = end;
                        }
                        true
                    }
                },
            };
            if done {
                editor.picker = None;
            }
            return Some(true);
        }
        let e = &mut editor.event;
        match event {
            UiEvent::TextChanged { tag, text } => match tag.as_str() {
                "ed_title" => e.title = text.clone(),
                "ed_location" => e.location = text.clone(),
                "ed_description" => e.description = text.clone(),
                _ => return None,
            },
            UiEvent::EditorAction(_) => sys.request(Request::ClearFocus),
            UiEvent::Back => {
                self.editor = None;
                sys.request(Request::ClearFocus);
            }
            UiEvent::Click(tag) => match tag.as_str() {
                "ed_close" => {
                    self.editor = None;
                    sys.request(Request::ClearFocus);
                }
                "ed_all_day" => e.all_day = !e.all_day,
                "ed_repeat" => editor.picker = Some(EditorPicker::Repeat),
                "ed_start_date" => {
                    editor.picker = Some(EditorPicker::StartDate(DatePicker::new(e.start.date())))
                }
                "ed_end_date" => {
                    editor.picker = Some(EditorPicker::EndDate(DatePicker::new(e.end.date())))
                }
                "ed_start_time" => {
                    editor.picker = Some(EditorPicker::StartTime(TimePicker::new(
                        e.start.hour(),
                        e.start.minute(),
                        is_24h,
                    )))
                }
                "ed_end_time" => {
                    editor.picker = Some(EditorPicker::EndTime(TimePicker::new(
                        e.end.hour(),
                        e.end.minute(),
                        is_24h,
                    )))
                }
                "ed_title" | "ed_location" | "ed_description" => {
                    sys.request(Request::Focus { tag: tag.clone() })
                }
                "ed_save" => {
                    let mut event = e.clone();
                    if event.title.trim().is_empty() {
                        event.title = "(No title)".to_string();
                    }
                    self.editor = None;
                    sys.request(Request::ClearFocus);
                    let Some(db) = self.db(sys) else {
                        return Some(true);
                    };
                    match store::save(&db, &event) {
                        Ok(saved) => {
                            sys.log(PID, 'I', TAG, format!("Saved event {saved}"));
                            self.selected = event.start.date();
                            if self.detail.is_some() {
                                self.detail = Some(saved);
                            }
                        }
                        Err(err) => sys.log(PID, 'E', TAG, format!("cannot save event: {err}")),
                    }
                    self.reload(sys);
                }
                _ => return None,
            },
            _ => return None,
        }
        Some(true)
    }

    fn handle_detail(&mut self, event: &UiEvent, sys: &mut System) -> Option<bool> {
        let detail = self.detail?;
        if self.confirm_delete {
            match event {
                UiEvent::Click(t) if t == "del_ok" => {
                    self.confirm_delete = false;
                    self.detail = None;
                    if let Some(db) = self.db(sys) {
                        if let Err(e) = store::delete(&db, detail) {
                            sys.log(PID, 'E', TAG, format!("cannot delete event {detail}: {e}"));
                        }
                    }
                    self.reload(sys);
                }
                UiEvent::Click(t) if t == "del_cancel" => self.confirm_delete = false,
                UiEvent::Back => self.confirm_delete = false,
                _ => return None,
            }
            return Some(true);
        }
        match event {
            UiEvent::Back => self.detail = None,
            UiEvent::Click(t) => match t.as_str() {
                "det_close" => self.detail = None,
                "det_delete" => self.confirm_delete = true,
                "det_edit" => {
                    let event = self.events.iter().find(|e| e.id == Some(detail)).cloned()?;
                    self.open_editor(event, sys);
                }
                _ => return None,
            },
            _ => return None,
        }
        Some(true)
    }

    fn handle_main(&mut self, tag: &str, sys: &mut System) -> bool {
        let today = sys.clock.now().date();
        match tag {
            "today" => self.selected = today,
            "mode" => {
                self.mode = match self.mode {
                    Mode::Month => Mode::Day,
                    Mode::Day => Mode::Month,
                }
            }
            "prev" | "next" => {
                let step = if tag == "prev" { -1 } else { 1 };
                self.selected = match self.mode {
                    Mode::Month => {
                        let first = add_months(first_of_month(self.selected), step);
                        let day = self.selected.day().min(days_in_month(first));
                        first.with_day(day).unwrap_or(first)
                    }
                    Mode::Day => self.selected + Duration::days(step as i64),
                };
            }
            "fab" => self.speed_dial = !self.speed_dial,
            "new_event" | "empty_day" => {
                let e = self.new_event(self.selected, sys.clock.now());
                self.open_editor(e, sys);
            }
            other => {
                if let Some(day) = other
                    .strip_prefix("day:")
                    .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
                {
                    self.selected = day;
                    self.mode = Mode::Day;
                } else if let Some(ev) = other
                    .strip_prefix("ev:")
                    .and_then(|v| v.parse::<i64>().ok())
                {
                    if self.events.iter().any(|e| e.id == Some(ev)) {
                        self.detail = Some(ev);
                    }
                } else {
                    return false;
                }
            }
        }
        true
    }
}

impl App for Calendar {
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
        if let Some(handled) = self.handle_editor(event, sys) {
            return handled;
        }
        if self.editor.is_some() {
            return false;
        }
        if let Some(handled) = self.handle_detail(event, sys) {
            return handled;
        }
        if self.detail.is_some() {
            return false;
        }
        self.reload(sys);
        match event {
            UiEvent::Click(tag) => self.handle_main(tag, sys),
            UiEvent::Back if self.speed_dial => {
                self.speed_dial = false;
                true
            }
            UiEvent::Back if self.mode == Mode::Day => {
                self.mode = Mode::Month;
                true
            }
            _ => false,
        }
    }
}

//! Simple Calendar Pro's own database, `databases/events.db`: Room's `EventsDatabase` version 8
//! (`events`, `event_types`, `widgets`, `tasks`, `room_master_table`) as the app creates it, and
//! the value encodings of its `Event` entity, which AndroidWorld writes and reads directly:
//!
//! - `start_ts`/`end_ts` in seconds (UTC); an all-day event has `FLAG_ALL_DAY` in `flags` and both
//!   at midnight of its first and last day;
//! - `repeat_interval` in seconds (`DAY`, `WEEK`, `MONTH` = 30 days + 1 s, `YEAR`, or a multiple);
//!   `repeat_rule` the weekday bits of a weekly event (Monday 1 … Sunday 64) or the kind of a
//!   monthly one (`REPEAT_SAME_DAY` = 1); `repeat_limit` 0 forever, > 0 the last start (seconds),
//!   < 0 minus the number of occurrences; `repetition_exceptions` a JSON list of skipped day codes
//!   (`"20231016"`);
//! - what a new event gets: reminder 1 at 10 minutes, the others off (-1), the regular event type
//!   (1), the phone's zone, `last_updated` in milliseconds, source `simple-calendar`.
//!
//! Reading never writes, so AndroidWorld's before/after row comparison sees only what the user did.

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime};
use rusqlite::{params, Connection};

use crate::apps::calendar::recurrence::{Freq, Rule};
use crate::system::System;

pub const DB_PATH: &str = "/data/data/com.simplemobiletools.calendar.pro/databases/events.db";

pub const DAY: i64 = 86_400;
pub const WEEK: i64 = 604_800;
pub const MONTH: i64 = 2_592_001;
pub const YEAR: i64 = 31_536_000;
/// `FLAG_ALL_DAY`.
const FLAG_ALL_DAY: i64 = 1;
/// `REPEAT_SAME_DAY`: a monthly or yearly event on its start's day of the month.
pub const REPEAT_SAME_DAY: i64 = 1;
/// `REGULAR_EVENT_TYPE_ID`.
const REGULAR_EVENT_TYPE: i64 = 1;
/// `SOURCE_SIMPLE_CALENDAR`.
const SOURCE: &str = "simple-calendar";
/// `config.defaultReminder1`: 10 minutes; `REMINDER_OFF` for the others.
const DEFAULT_REMINDER: i64 = 10;
const REMINDER_OFF: i64 = -1;
/// The app's default primary colour (#F57C00) as Android's signed ARGB int.
const DEFAULT_TYPE_COLOR: i64 = -689_152;
/// Room's identity hash of schema version 8.
const IDENTITY_HASH: &str = "1d5b2fddcb258e43f2935820863057a9";
const VERSION: i64 = 8;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS android_metadata (locale TEXT);
CREATE TABLE IF NOT EXISTS `events` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `start_ts` INTEGER NOT NULL, `end_ts` INTEGER NOT NULL, `title` TEXT NOT NULL, `location` TEXT NOT NULL, `description` TEXT NOT NULL, `reminder_1_minutes` INTEGER NOT NULL, `reminder_2_minutes` INTEGER NOT NULL, `reminder_3_minutes` INTEGER NOT NULL, `reminder_1_type` INTEGER NOT NULL, `reminder_2_type` INTEGER NOT NULL, `reminder_3_type` INTEGER NOT NULL, `repeat_interval` INTEGER NOT NULL, `repeat_rule` INTEGER NOT NULL, `repeat_limit` INTEGER NOT NULL, `repetition_exceptions` TEXT NOT NULL, `attendees` TEXT NOT NULL, `import_id` TEXT NOT NULL, `time_zone` TEXT NOT NULL, `flags` INTEGER NOT NULL, `event_type` INTEGER NOT NULL, `parent_id` INTEGER NOT NULL, `last_updated` INTEGER NOT NULL, `source` TEXT NOT NULL, `availability` INTEGER NOT NULL, `color` INTEGER NOT NULL, `type` INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS `index_events_id` ON `events` (`id`);
CREATE TABLE IF NOT EXISTS `event_types` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `title` TEXT NOT NULL, `color` INTEGER NOT NULL, `caldav_calendar_id` INTEGER NOT NULL, `caldav_display_name` TEXT NOT NULL, `caldav_email` TEXT NOT NULL, `type` INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS `index_event_types_id` ON `event_types` (`id`);
CREATE TABLE IF NOT EXISTS `widgets` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `widget_id` INTEGER NOT NULL, `period` INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS `index_widgets_widget_id` ON `widgets` (`widget_id`);
CREATE TABLE IF NOT EXISTS `tasks` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `task_id` INTEGER NOT NULL, `start_ts` INTEGER NOT NULL, `flags` INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS `index_tasks_id_task_id` ON `tasks` (`id`, `task_id`);
CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT);
";

/// One event as the app shows and edits it (the columns the app's screens use; the others are
/// left as they are on update).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub id: Option<i64>,
    pub title: String,
    pub location: String,
    pub description: String,
    /// UTC; an all-day event's times are its first and last day's midnights.
    pub start: NaiveDateTime,
    pub end: NaiveDateTime,
    pub all_day: bool,
    pub repeat_interval: i64,
    pub repeat_rule: i64,
    pub repeat_limit: i64,
    /// Days whose occurrence was deleted alone.
    pub exceptions: Vec<NaiveDate>,
}

fn from_secs(ts: i64) -> NaiveDateTime {
    chrono::DateTime::from_timestamp(ts, 0)
        .unwrap_or(chrono::DateTime::UNIX_EPOCH)
        .naive_utc()
}

fn secs(t: NaiveDateTime) -> i64 {
    t.and_utc().timestamp()
}

/// `Formatter.getDayCodeFromDateTime`: "20231016".
pub fn day_code(d: NaiveDate) -> String {
    d.format("%Y%m%d").to_string()
}

/// The day codes in a `repetition_exceptions` JSON list (Gson's `["20231016"]`).
fn parse_exceptions(json: &str) -> Vec<NaiveDate> {
    json.split('"')
        .filter_map(|s| NaiveDate::parse_from_str(s, "%Y%m%d").ok())
        .collect()
}

fn exceptions_json(days: &[NaiveDate]) -> String {
    let codes: Vec<String> = days
        .iter()
        .map(|d| format!("\"{}\"", day_code(*d)))
        .collect();
    format!("[{}]", codes.join(","))
}

/// Weekday bits of a weekly `repeat_rule`, Monday first.
const WEEKDAYS: [chrono::Weekday; 7] = [
    chrono::Weekday::Mon,
    chrono::Weekday::Tue,
    chrono::Weekday::Wed,
    chrono::Weekday::Thu,
    chrono::Weekday::Fri,
    chrono::Weekday::Sat,
    chrono::Weekday::Sun,
];

/// The weekly `repeat_rule` of a day (`generate_simple_calendar_weekly_repeat_rule`).
pub fn weekday_bit(d: NaiveDate) -> i64 {
    1 << d.weekday().num_days_from_monday()
}

impl Event {
    pub fn repeats(&self) -> bool {
        self.repeat_interval > 0
    }

    /// The repeat as an RRULE-style [`Rule`]: its period from `repeat_interval`, weekly days from
    /// the rule's bits, the end from `repeat_limit`. `None` for a single event, and for the
    /// monthly kinds this app's editor does not offer (last day, nth weekday), which show once.
    pub fn rule(&self) -> Option<Rule> {
        let i = self.repeat_interval;
        if i <= 0 {
            return None;
        }
        let (freq, n) = [
            (Freq::Yearly, YEAR),
            (Freq::Monthly, MONTH),
            (Freq::Weekly, WEEK),
            (Freq::Daily, DAY),
        ]
        .into_iter()
        .find(|(_, unit)| i % unit == 0)
        .map(|(f, unit)| (f, i / unit))?;
        if matches!(freq, Freq::Monthly | Freq::Yearly) && self.repeat_rule > REPEAT_SAME_DAY {
            return None;
        }
        let by_day = if freq == Freq::Weekly {
            WEEKDAYS
                .iter()
                .enumerate()
                .filter(|(bit, _)| self.repeat_rule & (1 << bit) != 0)
                .map(|(_, d)| *d)
                .collect()
        } else {
            vec![]
        };
        Some(Rule {
            freq,
            interval: u32::try_from(n).unwrap_or(u32::MAX),
            by_day,
            count: (self.repeat_limit < 0)
                .then(|| u32::try_from(-self.repeat_limit).unwrap_or(u32::MAX)),
            // The last occurrence starts at or before the limit, at the event's time of day.
            until: (self.repeat_limit > 0).then(|| {
                let time_of_day =
                    (self.start - self.start.date().and_time(NaiveTime::MIN)).num_seconds();
                from_secs(self.repeat_limit - time_of_day).date()
            }),
        })
    }

    /// Whether the event, or an occurrence of it, is on `day` (a single event on every day it
    /// spans; a repeating one on the days an occurrence starts).
    pub fn on_day(&self, day: NaiveDate) -> bool {
        if self.exceptions.contains(&day) {
            return false;
        }
        match self.rule() {
            Some(rule) => rule.occurs_on(self.start.date(), day),
            None => {
                // An event ending at midnight does not reach into the next day.
                let last = if self.end > self.start && !self.all_day {
                    (self.end - Duration::seconds(1)).date()
                } else {
                    self.end.date().max(self.start.date())
                };
                self.start.date() <= day && day <= last
            }
        }
    }

    /// The occurrence on `day`: the event moved to that day, keeping its times and length.
    pub fn occurrence(&self, day: NaiveDate) -> Event {
        if !self.repeats() || day == self.start.date() {
            return self.clone();
        }
        let shift = day - self.start.date();
        Event {
            start: self.start + shift,
            end: self.end + shift,
            ..self.clone()
        }
    }

    /// `(start_ts, end_ts, flags)` as stored.
    fn stored(&self) -> (i64, i64, i64) {
        if self.all_day {
            let start = self.start.date().and_time(NaiveTime::MIN);
            let end = self
                .end
                .date()
                .max(self.start.date())
                .and_time(NaiveTime::MIN);
            (secs(start), secs(end), FLAG_ALL_DAY)
        } else {
            (secs(self.start), secs(self.end), 0)
        }
    }
}

/// Opens the database, creating Room's tables and the regular event type when new (the app does
/// this the first time it starts, `EventsDatabase`'s `onCreate` callback).
pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let db = sys.open_db(DB_PATH)?;
    let version: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version == 0 {
        db.execute_batch(SCHEMA)?;
        db.execute("INSERT INTO android_metadata VALUES ('en_US')", [])?;
        db.execute(
            "INSERT OR REPLACE INTO room_master_table (id, identity_hash) VALUES (42, ?1)",
            [IDENTITY_HASH],
        )?;
        db.execute(
            "INSERT OR IGNORE INTO event_types (id, title, color, caldav_calendar_id, \
             caldav_display_name, caldav_email, type) VALUES (?1, 'Regular event', ?2, 0, '', '', 0)",
            params![REGULAR_EVENT_TYPE, DEFAULT_TYPE_COLOR],
        )?;
        db.execute_batch(&format!("PRAGMA user_version = {VERSION};"))?;
    }
    Ok(db)
}

/// Every event (not tasks), by start then id.
pub fn list(db: &Connection) -> rusqlite::Result<Vec<Event>> {
    let mut stmt = db.prepare(
        "SELECT id, title, location, description, start_ts, end_ts, flags, repeat_interval, \
         repeat_rule, repeat_limit, repetition_exceptions FROM events WHERE type = 0 \
         ORDER BY start_ts, id",
    )?;
    let rows = stmt.query_map([], |r| {
        let start = from_secs(r.get(4)?);
        Ok(Event {
            id: Some(r.get(0)?),
            title: r.get(1)?,
            location: r.get(2)?,
            description: r.get(3)?,
            start,
            end: from_secs(r.get(5)?).max(start),
            all_day: r.get::<_, i64>(6)? & FLAG_ALL_DAY != 0,
            repeat_interval: r.get(7)?,
            repeat_rule: r.get(8)?,
            repeat_limit: r.get(9)?,
            exceptions: parse_exceptions(&r.get::<_, String>(10)?),
        })
    })?;
    rows.collect()
}

/// Saves an event the editor made or changed; returns its id. A new row gets the app's defaults
/// for what the editor does not show; an existing one keeps them.
pub fn save(db: &Connection, e: &Event, zone: &str, now_ms: i64) -> rusqlite::Result<i64> {
    let (start_ts, end_ts, flags) = e.stored();
    let exceptions = exceptions_json(&e.exceptions);
    match e.id {
        Some(id) => {
            db.execute(
                "UPDATE events SET title=?1, location=?2, description=?3, start_ts=?4, end_ts=?5, \
                 flags=(flags & ~?6) | ?7, repeat_interval=?8, repeat_rule=?9, repeat_limit=?10, \
                 repetition_exceptions=?11, last_updated=?12 WHERE id=?13",
                params![
                    e.title,
                    e.location,
                    e.description,
                    start_ts,
                    end_ts,
                    FLAG_ALL_DAY,
                    flags,
                    e.repeat_interval,
                    e.repeat_rule,
                    e.repeat_limit,
                    exceptions,
                    now_ms,
                    id
                ],
            )?;
            Ok(id)
        }
        None => {
            db.execute(
                "INSERT INTO events (start_ts, end_ts, title, location, description, \
                 reminder_1_minutes, reminder_2_minutes, reminder_3_minutes, reminder_1_type, \
                 reminder_2_type, reminder_3_type, repeat_interval, repeat_rule, repeat_limit, \
                 repetition_exceptions, attendees, import_id, time_zone, flags, event_type, \
                 parent_id, last_updated, source, availability, color, type) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, 0, 0, 0, ?8, ?9, ?10, ?11, '[]', '', ?12, \
                 ?13, ?14, 0, ?15, ?16, 0, 0, 0)",
                params![
                    start_ts,
                    end_ts,
                    e.title,
                    e.location,
                    e.description,
                    DEFAULT_REMINDER,
                    REMINDER_OFF,
                    e.repeat_interval,
                    e.repeat_rule,
                    e.repeat_limit,
                    exceptions,
                    zone,
                    flags,
                    REGULAR_EVENT_TYPE,
                    now_ms,
                    SOURCE
                ],
            )?;
            Ok(db.last_insert_rowid())
        }
    }
}

/// Deletes events by id (`EventsHelper.deleteEvents`).
pub fn delete(db: &Connection, ids: &[i64]) -> rusqlite::Result<()> {
    for id in ids {
        db.execute("DELETE FROM events WHERE id=?1", [id])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(day: u32, h: u32, m: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2023, 10, day)
            .unwrap()
            .and_hms_opt(h, m, 0)
            .unwrap()
    }

    fn event() -> Event {
        Event {
            id: None,
            title: "Call with HR".into(),
            location: String::new(),
            description: "We will plan annual budget.".into(),
            start: at(16, 14, 0),
            end: at(16, 14, 30),
            all_day: false,
            repeat_interval: 0,
            repeat_rule: 0,
            repeat_limit: 0,
            exceptions: vec![],
        }
    }

    fn db() -> (tempfile::TempDir, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let db = Connection::open(dir.path().join("events.db")).unwrap();
        db.execute_batch(SCHEMA).unwrap();
        (dir, db)
    }

    #[test]
    fn a_new_event_is_stored_in_seconds_with_the_apps_defaults() {
        let (_dir, db) = db();
        let id = save(&db, &event(), "UTC", 1_697_384_040_000).unwrap();
        let row: (i64, i64, i64, i64, String, String, i64, String) = db
            .query_row(
                "SELECT start_ts, end_ts, reminder_1_minutes, reminder_2_minutes, \
                 repetition_exceptions, time_zone, event_type, source FROM events WHERE id=?1",
                [id],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ))
                },
            )
            .unwrap();
        assert_eq!(
            row,
            (
                1_697_464_800,
                1_697_466_600,
                10,
                -1,
                "[]".into(),
                "UTC".into(),
                1,
                "simple-calendar".into()
            )
        );
        assert_eq!(list(&db).unwrap()[0].start, at(16, 14, 0));
    }

    #[test]
    fn weekly_and_daily_repeats_expand_from_the_apps_encoding() {
        // A Monday event every week on Mondays and Wednesdays, then daily for three days.
        let weekly = Event {
            repeat_interval: WEEK,
            repeat_rule: weekday_bit(at(16, 0, 0).date()) | 4,
            ..event()
        };
        assert!(weekly.on_day(at(18, 0, 0).date()));
        assert!(weekly.on_day(at(23, 0, 0).date()));
        assert!(!weekly.on_day(at(17, 0, 0).date()));
        assert!(!weekly.on_day(at(9, 0, 0).date()));
        let daily = Event {
            repeat_interval: DAY,
            repeat_limit: -3,
            exceptions: vec![at(17, 0, 0).date()],
            ..event()
        };
        assert!(daily.on_day(at(18, 0, 0).date()));
        assert!(!daily.on_day(at(17, 0, 0).date()));
        assert!(!daily.on_day(at(19, 0, 0).date()));
        assert_eq!(daily.occurrence(at(18, 0, 0).date()).start, at(18, 14, 0));
        assert_eq!(
            parse_exceptions(&exceptions_json(&daily.exceptions)),
            daily.exceptions
        );
        let last_day = Event {
            repeat_interval: MONTH,
            repeat_rule: 3,
            ..event()
        };
        assert!(last_day.rule().is_none());
    }
}

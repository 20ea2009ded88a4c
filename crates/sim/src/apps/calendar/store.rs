//! Calendar events where Android's calendar provider keeps them:
//! `/data/data/com.android.providers.calendar/databases/calendar.db`, with `CalendarDatabaseHelper`'s
//! `Calendars`, `Events` and `Instances` tables (the columns `content query --uri
//! content://com.android.calendar/events` and task checks read).
//!
//! Times are UTC epoch milliseconds; the phone's zone is UTC, so an event at 10:00 on the sim
//! clock has `dtstart` = that instant. All-day events span UTC midnights, as the provider stores
//! them. The single calendar is a local (`LOCAL` account) one, so deleting an event removes its row
//! the way the provider does for events that were never synced.

use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime};
use rusqlite::{params, Connection, OptionalExtension};

use super::recurrence::Rule;
use crate::system::System;

pub const DB_PATH: &str = "/data/data/com.android.providers.calendar/databases/calendar.db";

/// The zone stored in `eventTimezone` (the phone runs on UTC).
pub const TIMEZONE: &str = "UTC";

/// The local calendar every event goes into.
pub const CALENDAR_ID: i64 = 1;
const ACCOUNT: &str = "Phone";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS Calendars (_id INTEGER PRIMARY KEY,account_name TEXT,account_type TEXT,_sync_id TEXT,dirty INTEGER,mutators TEXT,name TEXT,calendar_displayName TEXT,calendar_color INTEGER,calendar_color_index TEXT,calendar_access_level INTEGER,visible INTEGER NOT NULL DEFAULT 1,sync_events INTEGER NOT NULL DEFAULT 0,calendar_location TEXT,calendar_timezone TEXT,ownerAccount TEXT, isPrimary INTEGER, canOrganizerRespond INTEGER NOT NULL DEFAULT 1,canModifyTimeZone INTEGER DEFAULT 1,canPartiallyUpdate INTEGER DEFAULT 0,maxReminders INTEGER DEFAULT 5,allowedReminders TEXT DEFAULT '0,1',allowedAvailability TEXT DEFAULT '0,1',allowedAttendeeTypes TEXT DEFAULT '0,1,2',deleted INTEGER NOT NULL DEFAULT 0,cal_sync1 TEXT,cal_sync2 TEXT,cal_sync3 TEXT,cal_sync4 TEXT,cal_sync5 TEXT,cal_sync6 TEXT,cal_sync7 TEXT,cal_sync8 TEXT,cal_sync9 TEXT,cal_sync10 TEXT);
CREATE TABLE IF NOT EXISTS Events (_id INTEGER PRIMARY KEY AUTOINCREMENT,_sync_id TEXT,dirty INTEGER,mutators TEXT,lastSynced INTEGER DEFAULT 0,calendar_id INTEGER NOT NULL,title TEXT,eventLocation TEXT,description TEXT,eventColor INTEGER,eventColor_index TEXT,eventStatus INTEGER,selfAttendeeStatus INTEGER NOT NULL DEFAULT 0,dtstart INTEGER,dtend INTEGER,eventTimezone TEXT,duration TEXT,allDay INTEGER NOT NULL DEFAULT 0,accessLevel INTEGER NOT NULL DEFAULT 0,availability INTEGER NOT NULL DEFAULT 0,hasAlarm INTEGER NOT NULL DEFAULT 0,hasExtendedProperties INTEGER NOT NULL DEFAULT 0,rrule TEXT,rdate TEXT,exrule TEXT,exdate TEXT,original_id INTEGER,original_sync_id TEXT,originalInstanceTime INTEGER,originalAllDay INTEGER,lastDate INTEGER,hasAttendeeData INTEGER NOT NULL DEFAULT 0,guestsCanModify INTEGER NOT NULL DEFAULT 0,guestsCanInviteOthers INTEGER NOT NULL DEFAULT 1,guestsCanSeeGuests INTEGER NOT NULL DEFAULT 1,organizer STRING,isOrganizer INTEGER,deleted INTEGER NOT NULL DEFAULT 0,eventEndTimezone TEXT,customAppPackage TEXT,customAppUri TEXT,uid2445 TEXT,sync_data1 TEXT,sync_data2 TEXT,sync_data3 TEXT,sync_data4 TEXT,sync_data5 TEXT,sync_data6 TEXT,sync_data7 TEXT,sync_data8 TEXT,sync_data9 TEXT,sync_data10 TEXT);
CREATE TABLE IF NOT EXISTS Instances (_id INTEGER PRIMARY KEY,event_id INTEGER,begin INTEGER,end INTEGER,startDay INTEGER,endDay INTEGER,startMinute INTEGER,endMinute INTEGER,UNIQUE (event_id, begin, end));
";

/// Julian day number of 1970-01-01 (`Time.EPOCH_JULIAN_DAY`).
const EPOCH_JULIAN_DAY: i64 = 2_440_588;

/// One event as the app edits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub id: Option<i64>,
    pub title: String,
    pub description: String,
    pub location: String,
    pub all_day: bool,
    /// For all-day events only the dates count; `end` is the last day (inclusive).
    pub start: NaiveDateTime,
    pub end: NaiveDateTime,
    /// `Events.rrule`: how the event repeats (`None`: once).
    pub rrule: Option<String>,
}

fn ms(t: NaiveDateTime) -> i64 {
    t.and_utc().timestamp_millis()
}

fn from_ms(v: i64) -> NaiveDateTime {
    chrono::DateTime::from_timestamp_millis(v)
        .unwrap_or(chrono::DateTime::UNIX_EPOCH)
        .naive_utc()
}

impl Event {
    /// `(dtstart, dtend)` as the provider stores them.
    pub fn stored_range(&self) -> (i64, i64) {
        if self.all_day {
            let start = self.start.date().and_time(NaiveTime::MIN);
            let end = (self.end.date().max(self.start.date()) + Duration::days(1))
                .and_time(NaiveTime::MIN);
            (ms(start), ms(end))
        } else {
            (ms(self.start), ms(self.end.max(self.start)))
        }
    }

    /// The repeat rule, when the event has one this app can read.
    pub fn rule(&self) -> Option<Rule> {
        self.rrule.as_deref().and_then(Rule::parse)
    }

    /// Whether the event (or, for a repeating one, an occurrence starting that day) covers any part
    /// of `day`.
    pub fn on_day(&self, day: NaiveDate) -> bool {
        if let Some(rule) = self.rule() {
            return rule.occurs_on(self.start.date(), day);
        }
        let (start, end) = self.stored_range();
        let day_start = ms(day.and_time(NaiveTime::MIN));
        let day_end = day_start + 86_400_000;
        start < day_end && (end > day_start || (end == start && start >= day_start))
    }
}

/// Opens the provider's database, creating the tables and the local calendar when new.
pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let db = sys.open_db(DB_PATH)?;
    let version: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version == 0 {
        db.execute_batch(SCHEMA)?;
        db.execute(
            "INSERT OR IGNORE INTO Calendars (_id, account_name, account_type, name, calendar_displayName, \
             calendar_color, calendar_access_level, visible, sync_events, calendar_timezone, ownerAccount, isPrimary) \
             VALUES (?1, ?2, 'LOCAL', ?2, ?2, -14069085, 700, 1, 1, ?3, ?2, 1)",
            params![CALENDAR_ID, ACCOUNT, TIMEZONE],
        )?;
        // CalendarDatabaseHelper's schema version on Android 13/14.
        db.execute_batch("PRAGMA user_version = 600;")?;
    }
    Ok(db)
}

/// Every live event, ordered by start then id.
pub fn list(db: &Connection) -> rusqlite::Result<Vec<Event>> {
    let mut stmt = db.prepare(
        "SELECT _id, title, description, eventLocation, allDay, dtstart, dtend, duration, rrule \
         FROM Events WHERE deleted = 0 ORDER BY dtstart, _id",
    )?;
    let rows = stmt.query_map([], |r| {
        let all_day = r.get::<_, i64>(4)? != 0;
        let start = from_ms(r.get::<_, Option<i64>>(5)?.unwrap_or(0));
        // A repeating event keeps its length in `duration` (RFC 5545 `P3600S`) instead of `dtend`.
        let duration = r
            .get::<_, Option<String>>(7)?
            .as_deref()
            .and_then(parse_duration);
        let end_ms = r.get::<_, Option<i64>>(6)?;
        let mut end = match (end_ms, duration) {
            (Some(e), _) => from_ms(e),
            (None, Some(d)) => start + d,
            (None, None) => start,
        };
        if all_day {
            // Stored end is the exclusive midnight; the app edits the last day.
            end = (end - Duration::days(1)).max(start);
        }
        Ok(Event {
            id: Some(r.get(0)?),
            title: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
            description: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
            location: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
            all_day,
            start,
            end,
            rrule: r
                .get::<_, Option<String>>(8)?
                .filter(|s| !s.trim().is_empty()),
        })
    })?;
    rows.collect()
}

/// An RFC 5545 duration as the provider stores it (`P3600S`, `P1D`, `PT1H30M`, `P1W`).
fn parse_duration(text: &str) -> Option<Duration> {
    let rest = text.trim().strip_prefix('P')?;
    let (mut total, mut num, mut in_time) = (0i64, String::new(), false);
    for c in rest.chars() {
        match c {
            'T' => in_time = true,
            '0'..='9' => num.push(c),
            unit => {
                let n: i64 = std::mem::take(&mut num).parse().ok()?;
                total += n * match (unit, in_time) {
                    ('W', _) => 604_800,
                    ('D', _) => 86_400,
                    ('H', true) => 3_600,
                    ('M', true) => 60,
                    ('S', _) => 1,
                    _ => return None,
                };
            }
        }
    }
    num.is_empty().then(|| Duration::seconds(total))
}

/// Inserts or updates an event and its (first) instance; returns its id. The provider expands a
/// repeating event's further instances on demand for the window a query asks for; here `Instances`
/// holds the first one, and the app expands occurrences itself from the rule.
pub fn save(db: &Connection, e: &Event) -> rusqlite::Result<i64> {
    let (dtstart, dtend) = e.stored_range();
    // The provider requires a repeating event to have a duration and no end (and no last date
    // when it repeats forever); a single one has an end.
    let (stored_end, duration): (Option<i64>, Option<String>) = match &e.rrule {
        Some(_) => (None, Some(format!("P{}S", (dtend - dtstart) / 1000))),
        None => (Some(dtend), None),
    };
    let id = match e.id {
        Some(id) => {
            db.execute(
                "UPDATE Events SET title=?1, description=?2, eventLocation=?3, allDay=?4, dtstart=?5, dtend=?6, \
                 lastDate=?6, eventTimezone=?7, eventEndTimezone=?7, dirty=1, rrule=?9, duration=?10 WHERE _id=?8",
                params![e.title, e.description, e.location, e.all_day as i64, dtstart, stored_end, TIMEZONE, id, e.rrule, duration],
            )?;
            id
        }
        None => {
            db.execute(
                "INSERT INTO Events (_sync_id, dirty, calendar_id, title, eventLocation, description, eventStatus, \
                 selfAttendeeStatus, dtstart, dtend, eventTimezone, allDay, hasAttendeeData, lastDate, organizer, \
                 isOrganizer, eventEndTimezone, rrule, duration) \
                 VALUES (NULL, 1, ?1, ?2, ?3, ?4, 1, 1, ?5, ?6, ?7, ?8, 1, ?6, ?9, 1, ?7, ?10, ?11)",
                params![
                    CALENDAR_ID,
                    e.title,
                    e.location,
                    e.description,
                    dtstart,
                    stored_end,
                    TIMEZONE,
                    e.all_day as i64,
                    ACCOUNT,
                    e.rrule,
                    duration
                ],
            )?;
            db.last_insert_rowid()
        }
    };
    db.execute("DELETE FROM Instances WHERE event_id=?1", [id])?;
    let day = |t: i64| t.div_euclid(86_400_000) + EPOCH_JULIAN_DAY;
    let minute = |t: i64| t.rem_euclid(86_400_000) / 60_000;
    // An instance ending exactly at midnight ends on the previous day, as the provider counts.
    let last = if dtend > dtstart { dtend - 1 } else { dtend };
    db.execute(
        "INSERT INTO Instances (event_id, begin, end, startDay, endDay, startMinute, endMinute) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            id,
            dtstart,
            dtend,
            day(dtstart),
            day(last),
            minute(dtstart),
            minute(dtend)
        ],
    )?;
    Ok(id)
}

pub fn delete(db: &Connection, id: i64) -> rusqlite::Result<()> {
    db.execute("DELETE FROM Instances WHERE event_id=?1", [id])?;
    db.execute("DELETE FROM Events WHERE _id=?1", [id])?;
    Ok(())
}

pub fn get(db: &Connection, id: i64) -> rusqlite::Result<Option<Event>> {
    let exists: Option<i64> = db
        .query_row(
            "SELECT _id FROM Events WHERE _id=?1 AND deleted=0",
            [id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(exists.and_then(|_| list(db).ok()?.into_iter().find(|e| e.id == Some(id))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(d: u32, h: u32, m: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, d)
            .unwrap()
            .and_hms_opt(h, m, 0)
            .unwrap()
    }

    fn trip() -> Event {
        Event {
            id: None,
            title: "Trip".into(),
            description: String::new(),
            location: String::new(),
            all_day: true,
            start: at(24, 0, 0),
            end: at(25, 0, 0),
            rrule: None,
        }
    }

    #[test]
    fn all_day_events_span_utc_midnights_and_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let db = Connection::open(dir.path().join("calendar.db")).unwrap();
        db.execute_batch(SCHEMA).unwrap();
        let e = trip();
        let id = save(&db, &e).unwrap();
        let (s, end): (i64, i64) = db
            .query_row(
                "SELECT dtstart, dtend FROM Events WHERE _id=?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(s, ms(at(24, 0, 0)));
        assert_eq!(end, ms(at(26, 0, 0)));
        let back = list(&db).unwrap();
        assert_eq!(back[0].end.date(), at(25, 0, 0).date());
        assert!(back[0].on_day(at(25, 0, 0).date()));
        assert!(!back[0].on_day(at(26, 0, 0).date()));
        let (sd, ed): (i64, i64) = db
            .query_row("SELECT startDay, endDay FROM Instances", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!(ed - sd, 1);
    }

    #[test]
    fn repeating_events_keep_a_duration_and_their_rule() {
        let dir = tempfile::tempdir().unwrap();
        let db = Connection::open(dir.path().join("calendar.db")).unwrap();
        db.execute_batch(SCHEMA).unwrap();
        // The all-day trip of the test above, made a weekly 45-minute morning event.
        let e = Event {
            title: "Standup".into(),
            all_day: false,
            start: at(2, 9, 0),
            end: at(2, 9, 45),
            rrule: Some("FREQ=WEEKLY;WKST=SU;BYDAY=MO".into()),
            ..trip()
        };
        let id = save(&db, &e).unwrap();
        let (end, duration, rrule): (Option<i64>, String, String) = db
            .query_row(
                "SELECT dtend, duration, rrule FROM Events WHERE _id=?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!((end, duration.as_str()), (None, "P2700S"));
        assert_eq!(rrule, "FREQ=WEEKLY;WKST=SU;BYDAY=MO");
        let back = &list(&db).unwrap()[0];
        assert_eq!(back.end, at(2, 9, 45));
        // 2026-11-02 is a Monday.
        assert!(back.on_day(at(16, 0, 0).date()));
        assert!(!back.on_day(at(17, 0, 0).date()));
        assert_eq!(parse_duration("PT1H30M"), Some(Duration::minutes(90)));
        assert_eq!(parse_duration("P1D"), Some(Duration::days(1)));
        assert_eq!(parse_duration("P3X"), None);
    }
}

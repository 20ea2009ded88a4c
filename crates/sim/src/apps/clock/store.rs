//! The Clock's alarms database, `/data/user_de/0/com.google.android.deskclock/databases/alarms.db`,
//! with DeskClock's schema (database version 8, `ClockDatabaseHelper`): `alarm_templates` holds the
//! alarms, `alarm_instances` the next firing of each enabled alarm.
//!
//! `daysofweek` is DeskClock's `Weekdays` bit mask: Monday is bit 0 … Sunday bit 6, so weekdays are
//! 31 and the weekend 96. `alarm_instances.month` is 0-based, as `java.util.Calendar` counts.

use chrono::{Datelike, Duration, NaiveDateTime, NaiveTime};
use rusqlite::{params, Connection, OptionalExtension};

use crate::system::System;

pub const DB_PATH: &str = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db";

/// The ringtone DeskClock stores for the default alarm sound.
pub const DEFAULT_RINGTONE: &str = "content://settings/system/alarm_alert";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS alarm_templates (_id INTEGER PRIMARY KEY,hour INTEGER NOT NULL, minutes INTEGER NOT NULL, daysofweek INTEGER NOT NULL, enabled INTEGER NOT NULL, vibrate INTEGER NOT NULL, label TEXT NOT NULL, ringtone TEXT, delete_after_use INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS alarm_instances (_id INTEGER PRIMARY KEY,year INTEGER NOT NULL, month INTEGER NOT NULL, day INTEGER NOT NULL, hour INTEGER NOT NULL, minutes INTEGER NOT NULL, vibrate INTEGER NOT NULL, label TEXT NOT NULL, ringtone TEXT, alarm_state INTEGER NOT NULL, alarm_id INTEGER REFERENCES alarm_templates(_id) ON UPDATE CASCADE ON DELETE CASCADE);
";

/// `AlarmInstance.SILENT_STATE`: scheduled, more than two hours away.
const SILENT_STATE: i64 = 0;

/// One row of `alarm_templates`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alarm {
    pub id: i64,
    pub hour: u32,
    pub minutes: u32,
    /// Monday = bit 0 … Sunday = bit 6.
    pub days: u8,
    pub enabled: bool,
    pub vibrate: bool,
    pub label: String,
    pub ringtone: Option<String>,
    pub delete_after_use: bool,
}

/// Bit of a weekday in `daysofweek`.
pub fn day_bit(weekday: chrono::Weekday) -> u8 {
    1 << weekday.num_days_from_monday()
}

/// Opens the database, creating DeskClock's tables (and the two default alarms of a fresh install:
/// 8:30 on weekdays and 9:00 at the weekend, both off) when the file is new.
pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let db = sys.open_db(DB_PATH)?;
    let version: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version == 0 {
        db.execute_batch(SCHEMA)?;
        let insert = "INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, label, ringtone, delete_after_use) VALUES ";
        db.execute_batch(&format!(
            "{insert}(8, 30, 31, 0, 1, '', NULL, 0); {insert}(9, 00, 96, 0, 1, '', NULL, 0); PRAGMA user_version = 8;"
        ))?;
    }
    Ok(db)
}

/// Every alarm in DeskClock's list order (by time of day, newest first on ties).
pub fn list(db: &Connection) -> rusqlite::Result<Vec<Alarm>> {
    let mut stmt = db.prepare(
        "SELECT _id, hour, minutes, daysofweek, enabled, vibrate, label, ringtone, delete_after_use \
         FROM alarm_templates ORDER BY hour ASC, minutes ASC, _id DESC",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Alarm {
            id: r.get(0)?,
            hour: r.get::<_, i64>(1)?.clamp(0, 23) as u32,
            minutes: r.get::<_, i64>(2)?.clamp(0, 59) as u32,
            days: (r.get::<_, i64>(3)? & 0x7f) as u8,
            enabled: r.get::<_, i64>(4)? != 0,
            vibrate: r.get::<_, i64>(5)? != 0,
            label: r.get::<_, Option<String>>(6)?.unwrap_or_default(),
            ringtone: r.get(7)?,
            delete_after_use: r.get::<_, i64>(8)? != 0,
        })
    })?;
    rows.collect()
}

pub fn get(db: &Connection, id: i64) -> rusqlite::Result<Option<Alarm>> {
    Ok(list(db)?.into_iter().find(|a| a.id == id))
}

/// Adds an enabled, non-repeating alarm as the add button does; returns its row.
pub fn insert(db: &Connection, hour: u32, minutes: u32) -> rusqlite::Result<Alarm> {
    db.execute(
        "INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, label, ringtone, delete_after_use) \
         VALUES (?1, ?2, 0, 1, 1, '', ?3, 0)",
        params![hour, minutes, DEFAULT_RINGTONE],
    )?;
    let id = db.last_insert_rowid();
    get(db, id)?.ok_or(rusqlite::Error::QueryReturnedNoRows)
}

pub fn update(db: &Connection, a: &Alarm) -> rusqlite::Result<()> {
    db.execute(
        "UPDATE alarm_templates SET hour=?1, minutes=?2, daysofweek=?3, enabled=?4, vibrate=?5, label=?6, \
         ringtone=?7, delete_after_use=?8 WHERE _id=?9",
        params![
            a.hour,
            a.minutes,
            a.days,
            a.enabled as i64,
            a.vibrate as i64,
            a.label,
            a.ringtone,
            a.delete_after_use as i64,
            a.id
        ],
    )?;
    Ok(())
}

pub fn delete(db: &Connection, id: i64) -> rusqlite::Result<()> {
    db.execute("DELETE FROM alarm_instances WHERE alarm_id=?1", [id])?;
    db.execute("DELETE FROM alarm_templates WHERE _id=?1", [id])?;
    Ok(())
}

/// The next time an alarm rings strictly after `now`.
pub fn next_fire(a: &Alarm, now: NaiveDateTime) -> NaiveDateTime {
    let time = NaiveTime::from_hms_opt(a.hour, a.minutes, 0).unwrap_or(NaiveTime::MIN);
    (0..=7)
        .map(|d| (now.date() + Duration::days(d)).and_time(time))
        .find(|t| *t > now && (a.days == 0 || a.days & day_bit(t.weekday()) != 0))
        .unwrap_or_else(|| (now.date() + Duration::days(1)).and_time(time))
}

/// Replaces the alarm's scheduled instance: none when it is off, else its next firing.
/// Returns the new instance's id.
pub fn reschedule(db: &Connection, a: &Alarm, now: NaiveDateTime) -> rusqlite::Result<Option<i64>> {
    db.execute("DELETE FROM alarm_instances WHERE alarm_id=?1", [a.id])?;
    if !a.enabled {
        return Ok(None);
    }
    let t = next_fire(a, now);
    db.execute(
        "INSERT INTO alarm_instances (year, month, day, hour, minutes, vibrate, label, ringtone, alarm_state, alarm_id) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            t.year(),
            t.month0(),
            t.day(),
            a.hour,
            a.minutes,
            a.vibrate as i64,
            a.label,
            a.ringtone,
            SILENT_STATE,
            a.id
        ],
    )?;
    Ok(Some(db.last_insert_rowid()))
}

/// The soonest firing among enabled alarms (what AlarmManager reports as the next alarm clock).
pub fn next_user_alarm(
    db: &Connection,
    now: NaiveDateTime,
) -> rusqlite::Result<Option<NaiveDateTime>> {
    Ok(list(db)?
        .iter()
        .filter(|a| a.enabled)
        .map(|a| next_fire(a, now))
        .min())
}

/// The instance row id of an alarm, if it is scheduled.
pub fn instance_of(db: &Connection, alarm_id: i64) -> rusqlite::Result<Option<i64>> {
    db.query_row(
        "SELECT _id FROM alarm_instances WHERE alarm_id=?1",
        [alarm_id],
        |r| r.get(0),
    )
    .optional()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, mo, d)
            .unwrap()
            .and_hms_opt(h, mi, 0)
            .unwrap()
    }

    fn alarm(hour: u32, minutes: u32, days: u8) -> Alarm {
        Alarm {
            id: 1,
            hour,
            minutes,
            days,
            enabled: true,
            vibrate: true,
            label: String::new(),
            ringtone: None,
            delete_after_use: false,
        }
    }

    #[test]
    fn next_fire_respects_repeat_days() {
        // 2026-11-23 is a Monday.
        let monday_noon = at(2026, 11, 23, 12, 0);
        assert_eq!(
            next_fire(&alarm(10, 30, 0), monday_noon),
            at(2026, 11, 24, 10, 30)
        );
        assert_eq!(
            next_fire(&alarm(13, 0, 0), monday_noon),
            at(2026, 11, 23, 13, 0)
        );
        // Weekend only: Saturday.
        assert_eq!(
            next_fire(&alarm(9, 0, 96), monday_noon),
            at(2026, 11, 28, 9, 0)
        );
        // Mondays only, already past today: next Monday.
        assert_eq!(
            next_fire(&alarm(8, 0, 1), monday_noon),
            at(2026, 11, 30, 8, 0)
        );
        assert_eq!(day_bit(chrono::Weekday::Sun), 64);
    }
}

//! The calendar provider's read side: `content://com.android.calendar/events` (and `calendars`)
//! over the `Events` and `Calendars` tables the Calendar app writes to `calendar.db`.
//!
//! The Calendar app owns the schema; a table it has not created yet reads as no rows.

use rusqlite::Connection;

use super::{row_id, Db, Source};
use crate::system::System;

pub const DB_PATH: &str = "/data/data/com.android.providers.calendar/databases/calendar.db";

pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    sys.open_db(DB_PATH)
}

pub(crate) fn source(segments: &[&str]) -> Option<Source> {
    let (table, filter, sort) = match segments {
        ["events"] => ("Events", None, "dtstart ASC"),
        ["events", id] => ("Events", Some(format!("_id = {}", row_id(id)?)), "_id"),
        ["calendars"] => ("Calendars", None, "_id"),
        ["calendars", id] => ("Calendars", Some(format!("_id = {}", row_id(id)?)), "_id"),
        _ => return None,
    };
    Some(Source {
        db: Db::Calendar,
        table,
        filter,
        default_sort: Some(sort),
    })
}

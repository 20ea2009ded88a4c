//! The call log: `calllog.db` with CallLogProvider's `calls` table, written when a call ends and
//! read by the Phone app's Recents tab and `content://call_log/calls`.

use rusqlite::{params, Connection};

use super::{row_id, Db, Source};
use crate::system::System;

pub const DB_PATH: &str = "/data/data/com.android.providers.contacts/databases/calllog.db";

/// `calls.type` values (CallLog.Calls).
pub const INCOMING: i64 = 1;
pub const OUTGOING: i64 = 2;
pub const MISSED: i64 = 3;
/// A ringing call the user declined (`Calls.REJECTED_TYPE`).
pub const REJECTED: i64 = 5;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS calls (_id INTEGER PRIMARY KEY AUTOINCREMENT, number TEXT,
  presentation INTEGER NOT NULL DEFAULT 1, post_dial_digits TEXT NOT NULL DEFAULT '',
  via_number TEXT NOT NULL DEFAULT '', date INTEGER, duration INTEGER, data_usage INTEGER,
  type INTEGER, features INTEGER NOT NULL DEFAULT 0, subscription_component_name TEXT,
  subscription_id TEXT, phone_account_address TEXT, phone_account_hidden INTEGER NOT NULL DEFAULT 0,
  sub_id INTEGER DEFAULT -1, name TEXT, numbertype INTEGER, numberlabel TEXT, countryiso TEXT,
  voicemail_uri TEXT, is_read INTEGER, geocoded_location TEXT, lookup_uri TEXT,
  matched_number TEXT, normalized_number TEXT, photo_id INTEGER NOT NULL DEFAULT 0,
  photo_uri TEXT, formatted_number TEXT, _data TEXT, has_content INTEGER, mime_type TEXT,
  source_data TEXT, source_package TEXT, transcription TEXT, transcription_state INTEGER NOT NULL
  DEFAULT 0, state INTEGER, dirty INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0,
  backed_up INTEGER NOT NULL DEFAULT 0, restored INTEGER NOT NULL DEFAULT 0,
  archived INTEGER NOT NULL DEFAULT 0, is_omtp_voicemail INTEGER NOT NULL DEFAULT 0,
  new INTEGER, last_modified INTEGER DEFAULT 0, call_screening_component_name TEXT,
  call_screening_app_name TEXT, block_reason INTEGER NOT NULL DEFAULT 0,
  missed_reason INTEGER NOT NULL DEFAULT 0, priority INTEGER NOT NULL DEFAULT 0, subject TEXT,
  location TEXT, composer_photo_uri TEXT, is_business_call INTEGER NOT NULL DEFAULT 0,
  asserted_display_name TEXT);
";

/// Opens `calllog.db`, creating its table as the provider does on first use.
pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let conn = sys.open_db(DB_PATH)?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

pub(crate) fn source(segments: &[&str]) -> Option<Source> {
    let filter = match segments {
        ["calls"] => None,
        ["calls", id] => Some(format!("_id = {}", row_id(id)?)),
        _ => return None,
    };
    Some(Source {
        db: Db::CallLog,
        table: "calls",
        filter,
        default_sort: Some("date DESC"),
    })
}

/// One call to record.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub number: String,
    /// Start of the call, ms since the epoch.
    pub date: i64,
    /// Seconds the call was connected.
    pub duration: i64,
    pub kind: i64,
    /// The matched contact's name, if any.
    pub name: Option<String>,
    /// The matched contact's phone type and normalized number.
    pub number_type: Option<i64>,
    pub normalized: Option<String>,
}

/// Appends a call log row and returns its `_id`.
pub fn insert(conn: &Connection, call: &Call) -> rusqlite::Result<i64> {
    conn.execute(
        "INSERT INTO calls (number, date, duration, data_usage, type, features,
           subscription_component_name, subscription_id, sub_id, name, numbertype, numberlabel,
           countryiso, is_read, normalized_number, formatted_number, new, last_modified,
           phone_account_address)
         VALUES (?1, ?2, ?3, NULL, ?4, 0,
           'com.android.phone/com.android.services.telephony.TelephonyConnectionService', '1', 1,
           ?5, ?6, NULL, 'US', ?7, ?8, ?9, ?10, ?2, NULL)",
        params![
            call.number,
            call.date,
            call.duration,
            call.kind,
            call.name,
            call.number_type,
            (call.kind != MISSED) as i64,
            call.normalized,
            super::phone_number::format_for_display(&call.number),
            (call.kind == MISSED) as i64,
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// One Recents row.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: i64,
    pub number: String,
    pub date: i64,
    pub duration: i64,
    pub kind: i64,
    pub name: Option<String>,
}

/// The newest `limit` calls, newest first.
pub fn recent(conn: &Connection, limit: i64) -> rusqlite::Result<Vec<Entry>> {
    let mut stmt = conn.prepare(
        "SELECT _id, IFNULL(number, ''), IFNULL(date, 0), IFNULL(duration, 0), IFNULL(type, 2), name
         FROM calls WHERE deleted = 0 ORDER BY date DESC, _id DESC LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit], |r| {
        Ok(Entry {
            id: r.get(0)?,
            number: r.get(1)?,
            date: r.get(2)?,
            duration: r.get(3)?,
            kind: r.get(4)?,
            name: r.get(5)?,
        })
    })?;
    rows.collect()
}

/// How many calls were ever logged (Telecom's call ids continue from it).
/// The number of the newest outgoing call (`CallLog.Calls.getLastOutgoingCall`), what the dialpad's
/// call button fills in when pressed with nothing typed.
pub fn last_outgoing(conn: &Connection) -> rusqlite::Result<Option<String>> {
    use rusqlite::OptionalExtension;
    conn.query_row(
        "SELECT number FROM calls WHERE type = ?1 AND deleted = 0 ORDER BY date DESC, _id DESC LIMIT 1",
        [OUTGOING],
        |r| r.get(0),
    )
    .optional()
}

pub fn count(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT IFNULL(MAX(_id), 0) FROM calls", [], |r| r.get(0))
}

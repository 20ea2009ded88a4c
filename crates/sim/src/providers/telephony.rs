//! The telephony provider's SMS store: `mmssms.db` with Android's `sms`, `threads` and
//! `canonical_addresses` tables, and the writes the Messages app makes through it.
//!
//! Threads are kept the way TelephonyProvider keeps them: one `canonical_addresses` row per
//! address, one `threads` row per recipient set (`recipient_ids` holds the canonical id), and
//! triggers that refresh a thread's date, snippet and counts whenever an `sms` row is inserted
//! or deleted — so rows written with `sqlite3` show up in the app just like sent messages. A row
//! inserted without a valid `thread_id` (e.g. `0`) is filed into its address's thread, as the
//! provider's insert would.

use rusqlite::{params, Connection, OptionalExtension};

use super::{row_id, Db, Source};
use crate::system::System;

pub const DB_PATH: &str = "/data/data/com.android.providers.telephony/databases/mmssms.db";

/// `sms.type` values (Telephony.TextBasedSmsColumns).
pub const TYPE_INBOX: i64 = 1;
pub const TYPE_SENT: i64 = 2;
pub const TYPE_DRAFT: i64 = 3;
pub const TYPE_OUTBOX: i64 = 4;
pub const TYPE_FAILED: i64 = 5;
pub const TYPE_QUEUED: i64 = 6;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS sms (_id INTEGER PRIMARY KEY, thread_id INTEGER, address TEXT,
  person INTEGER, date INTEGER, date_sent INTEGER DEFAULT 0, protocol INTEGER,
  read INTEGER DEFAULT 0, status INTEGER DEFAULT -1, type INTEGER, reply_path_present INTEGER,
  subject TEXT, body TEXT, service_center TEXT, locked INTEGER DEFAULT 0,
  sub_id INTEGER DEFAULT -1, error_code INTEGER DEFAULT 0, creator TEXT, seen INTEGER DEFAULT 0);
CREATE TABLE IF NOT EXISTS threads (_id INTEGER PRIMARY KEY AUTOINCREMENT, date INTEGER DEFAULT 0,
  message_count INTEGER DEFAULT 0, recipient_ids TEXT, snippet TEXT, snippet_cs INTEGER DEFAULT 0,
  read INTEGER DEFAULT 1, archived INTEGER DEFAULT 0, type INTEGER DEFAULT 0,
  error INTEGER DEFAULT 0, has_attachment INTEGER DEFAULT 0);
CREATE TABLE IF NOT EXISTS canonical_addresses (_id INTEGER PRIMARY KEY AUTOINCREMENT,
  address TEXT);
CREATE TRIGGER IF NOT EXISTS sms_update_thread_on_insert AFTER INSERT ON sms BEGIN
  UPDATE threads SET date = new.date, snippet = new.body, snippet_cs = 0
    WHERE threads._id = new.thread_id;
  UPDATE threads SET message_count =
      (SELECT COUNT(*) FROM sms WHERE thread_id = new.thread_id AND type != 3)
    WHERE threads._id = new.thread_id;
  UPDATE threads SET read = CASE (SELECT COUNT(*) FROM sms WHERE read = 0 AND thread_id = threads._id)
      WHEN 0 THEN 1 ELSE 0 END
    WHERE threads._id = new.thread_id;
END;
CREATE TRIGGER IF NOT EXISTS sms_assign_thread_on_insert AFTER INSERT ON sms
  WHEN new.address IS NOT NULL
    AND (new.thread_id IS NULL OR new.thread_id NOT IN (SELECT _id FROM threads)) BEGIN
  INSERT INTO canonical_addresses (address) SELECT new.address
    WHERE NOT EXISTS (SELECT 1 FROM canonical_addresses WHERE address = new.address);
  INSERT INTO threads (date, recipient_ids)
    SELECT new.date, CAST(c._id AS TEXT) FROM canonical_addresses c
    WHERE c.address = new.address
      AND NOT EXISTS (SELECT 1 FROM threads t WHERE t.recipient_ids = CAST(c._id AS TEXT))
    LIMIT 1;
  UPDATE sms SET thread_id = (SELECT t._id FROM threads t JOIN canonical_addresses c
      ON t.recipient_ids = CAST(c._id AS TEXT) WHERE c.address = new.address LIMIT 1)
    WHERE _id = new._id;
  UPDATE threads SET date = new.date, snippet = new.body,
    message_count = (SELECT COUNT(*) FROM sms WHERE thread_id = threads._id AND type != 3),
    read = CASE (SELECT COUNT(*) FROM sms WHERE read = 0 AND thread_id = threads._id)
      WHEN 0 THEN 1 ELSE 0 END
    WHERE _id = (SELECT thread_id FROM sms WHERE _id = new._id);
END;
CREATE TRIGGER IF NOT EXISTS sms_update_thread_read_on_update AFTER UPDATE OF read ON sms BEGIN
  UPDATE threads SET read = CASE (SELECT COUNT(*) FROM sms WHERE read = 0 AND thread_id = threads._id)
      WHEN 0 THEN 1 ELSE 0 END
    WHERE threads._id = new.thread_id;
END;
CREATE TRIGGER IF NOT EXISTS sms_update_thread_on_delete AFTER DELETE ON sms BEGIN
  UPDATE threads SET message_count =
      (SELECT COUNT(*) FROM sms WHERE thread_id = old.thread_id AND type != 3),
    snippet = (SELECT body FROM sms WHERE thread_id = old.thread_id ORDER BY date DESC LIMIT 1),
    date = IFNULL((SELECT date FROM sms WHERE thread_id = old.thread_id ORDER BY date DESC LIMIT 1), 0)
    WHERE threads._id = old.thread_id;
END;
";

/// Opens `mmssms.db`, creating its tables as the provider does on first use.
pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let conn = sys.open_db(DB_PATH)?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

pub(crate) fn source(authority: &str, segments: &[&str]) -> Option<Source> {
    let sms = |filter: Option<String>| {
        Some(Source {
            db: Db::Telephony,
            table: "sms",
            filter,
            default_sort: Some("date DESC"),
        })
    };
    let typed = |t: i64, id: Option<&&str>| {
        let mut filter = format!("type = {t}");
        if let Some(id) = id {
            filter.push_str(&format!(" AND _id = {}", row_id(id)?));
        }
        sms(Some(filter))
    };
    let threads = || {
        Some(Source {
            db: Db::Telephony,
            table: "threads",
            filter: None,
            default_sort: Some("date DESC"),
        })
    };
    match (authority, segments) {
        ("sms", []) => sms(None),
        ("sms", ["inbox", id @ ..]) if id.len() <= 1 => typed(TYPE_INBOX, id.first()),
        ("sms", ["sent", id @ ..]) if id.len() <= 1 => typed(TYPE_SENT, id.first()),
        ("sms", ["draft", id @ ..]) if id.len() <= 1 => typed(TYPE_DRAFT, id.first()),
        ("sms", ["outbox", id @ ..]) if id.len() <= 1 => typed(TYPE_OUTBOX, id.first()),
        ("sms", ["failed", id @ ..]) if id.len() <= 1 => typed(TYPE_FAILED, id.first()),
        ("sms", ["queued", id @ ..]) if id.len() <= 1 => typed(TYPE_QUEUED, id.first()),
        ("sms", ["conversations"]) => Some(Source {
            db: Db::Telephony,
            table: "sms_conversations",
            filter: None,
            default_sort: Some("date DESC"),
        }),
        ("sms", ["conversations", id]) => sms(Some(format!("thread_id = {}", row_id(id)?))),
        ("sms", [id]) => sms(Some(format!("_id = {}", row_id(id)?))),
        ("mms-sms", ["conversations"]) => threads(),
        ("mms-sms", ["conversations", id]) => sms(Some(format!("thread_id = {}", row_id(id)?))),
        _ => None,
    }
}

/// The per-thread summary `content://sms/conversations` returns (thread_id, msg_count, snippet).
const CONVERSATIONS_VIEW: &str = "
CREATE TEMP VIEW IF NOT EXISTS sms_conversations AS
  SELECT sms.thread_id AS thread_id, g.msg_count AS msg_count, sms.body AS snippet, sms.date AS date
  FROM sms JOIN (SELECT thread_id, COUNT(*) AS msg_count, MAX(date) AS max_date FROM sms
                 GROUP BY thread_id) AS g
    ON sms.thread_id = g.thread_id AND sms.date = g.max_date
  GROUP BY sms.thread_id;
";

/// Opens the database for a provider query (adds the session-only conversations view).
pub(crate) fn open_for_query(sys: &System) -> rusqlite::Result<Connection> {
    let conn = open(sys)?;
    conn.execute_batch(CONVERSATIONS_VIEW)?;
    Ok(conn)
}

/// One SMS as the Messages app shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Sms {
    pub id: i64,
    pub thread_id: i64,
    pub address: String,
    pub body: String,
    pub date: i64,
    pub kind: i64,
    pub read: bool,
}

/// One conversation row of the Messages list.
#[derive(Debug, Clone, PartialEq)]
pub struct Thread {
    pub id: i64,
    pub address: String,
    pub date: i64,
    pub snippet: String,
    /// No received message in it is unread (what the user sent never makes a thread unread).
    pub read: bool,
    /// The newest message is one the user sent (Google Messages prefixes its snippet "You: ").
    pub last_outgoing: bool,
}

/// The thread for a single recipient, created (with its canonical address) when missing.
pub fn thread_for(conn: &Connection, address: &str) -> rusqlite::Result<i64> {
    let canonical: Option<i64> = conn
        .query_row(
            "SELECT _id FROM canonical_addresses WHERE address = ?1",
            [address],
            |r| r.get(0),
        )
        .optional()?;
    let canonical = match canonical {
        Some(id) => id,
        None => {
            conn.execute(
                "INSERT INTO canonical_addresses (address) VALUES (?1)",
                [address],
            )?;
            conn.last_insert_rowid()
        }
    };
    let recipient_ids = canonical.to_string();
    let thread: Option<i64> = conn
        .query_row(
            "SELECT _id FROM threads WHERE recipient_ids = ?1",
            [&recipient_ids],
            |r| r.get(0),
        )
        .optional()?;
    match thread {
        Some(id) => Ok(id),
        None => {
            conn.execute(
                "INSERT INTO threads (date, recipient_ids) VALUES (0, ?1)",
                [&recipient_ids],
            )?;
            Ok(conn.last_insert_rowid())
        }
    }
}

/// Stores one SMS in its thread (created when needed) and returns the new `_id`. A sent one is
/// Google Messages' (the default SMS app) write; [`insert_sent`] names another app.
pub fn insert_sms(
    conn: &Connection,
    address: &str,
    body: &str,
    date_ms: i64,
    kind: i64,
    read: bool,
) -> rusqlite::Result<i64> {
    let creator = if kind == TYPE_SENT {
        "com.google.android.apps.messaging"
    } else {
        "com.android.phone"
    };
    insert_row(conn, creator, address, body, date_ms, kind, read)
}

/// Stores a text `creator` (the sending app's package, which TelephonyProvider records as the
/// calling package) sent, read, in its thread; returns the new `_id`.
pub fn insert_sent(
    conn: &Connection,
    creator: &str,
    address: &str,
    body: &str,
    date_ms: i64,
) -> rusqlite::Result<i64> {
    insert_row(conn, creator, address, body, date_ms, TYPE_SENT, true)
}

fn insert_row(
    conn: &Connection,
    creator: &str,
    address: &str,
    body: &str,
    date_ms: i64,
    kind: i64,
    read: bool,
) -> rusqlite::Result<i64> {
    let thread_id = thread_for(conn, address)?;
    let sent = kind == TYPE_SENT;
    conn.execute(
        "INSERT INTO sms (thread_id, address, person, date, date_sent, protocol, read, status, type,
           reply_path_present, subject, body, service_center, locked, sub_id, error_code, creator, seen)
         VALUES (?1, ?2, NULL, ?3, ?4, ?5, ?6, -1, ?7, ?8, NULL, ?9, NULL, 0, 1, 0, ?10, 1)",
        params![
            thread_id,
            address,
            date_ms,
            if sent { 0 } else { date_ms - 1_000 },
            if sent { None } else { Some(0) },
            read as i64,
            kind,
            if sent { None } else { Some(0) },
            body,
            creator,
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// All conversations, newest first; threads whose messages were all deleted are left out.
pub fn threads(conn: &Connection) -> rusqlite::Result<Vec<Thread>> {
    let mut stmt = conn.prepare(
        "SELECT t._id, IFNULL(c.address, ''), t.date, IFNULL(t.snippet, ''),
                NOT EXISTS (SELECT 1 FROM sms WHERE sms.thread_id = t._id AND sms.type = 1
                            AND sms.read = 0),
                IFNULL((SELECT sms.type FROM sms WHERE sms.thread_id = t._id
                        ORDER BY sms.date DESC, sms._id DESC LIMIT 1), 1)
         FROM threads t LEFT JOIN canonical_addresses c ON c._id = CAST(t.recipient_ids AS INTEGER)
         WHERE EXISTS (SELECT 1 FROM sms WHERE sms.thread_id = t._id)
         ORDER BY t.date DESC, t._id DESC",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Thread {
            id: r.get(0)?,
            address: r.get(1)?,
            date: r.get(2)?,
            snippet: r.get(3)?,
            read: r.get::<_, i64>(4)? != 0,
            // Inbox is 1; sent, outbox, failed and queued are the user's own.
            last_outgoing: r.get::<_, i64>(5)? != TYPE_INBOX,
        })
    })?;
    rows.collect()
}

/// The messages of one thread, oldest first.
pub fn messages(conn: &Connection, thread_id: i64) -> rusqlite::Result<Vec<Sms>> {
    let mut stmt = conn.prepare(
        "SELECT _id, thread_id, IFNULL(address, ''), IFNULL(body, ''), IFNULL(date, 0),
                IFNULL(type, 1), IFNULL(read, 0)
         FROM sms WHERE thread_id = ?1 ORDER BY date ASC, _id ASC",
    )?;
    let rows = stmt.query_map([thread_id], |r| {
        Ok(Sms {
            id: r.get(0)?,
            thread_id: r.get(1)?,
            address: r.get(2)?,
            body: r.get(3)?,
            date: r.get(4)?,
            kind: r.get(5)?,
            read: r.get::<_, i64>(6)? != 0,
        })
    })?;
    rows.collect()
}

/// Marks every message of a thread read (opening a conversation does this).
pub fn mark_read(conn: &Connection, thread_id: i64) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE sms SET read = 1, seen = 1 WHERE thread_id = ?1 AND read = 0",
        [thread_id],
    )?;
    Ok(())
}

/// Deletes a conversation with its messages.
pub fn delete_thread(conn: &Connection, thread_id: i64) -> rusqlite::Result<()> {
    conn.execute("DELETE FROM sms WHERE thread_id = ?1", [thread_id])?;
    conn.execute("DELETE FROM threads WHERE _id = ?1", [thread_id])?;
    Ok(())
}

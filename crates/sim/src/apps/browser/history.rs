//! Chrome's History database (`app_chrome/Default/History`: `urls` and `visits` with Chrome's
//! own columns and timestamps), written for every page a tab is asked to open and read back by
//! the History page and by task checks (`sqlite3`).

use crate::system::System;

/// Chrome keeps the profile's history here (an SQLite file).
pub const HISTORY_DB: &str = "/data/data/com.android.chrome/app_chrome/Default/History";

/// `PageTransition`: LINK, marked as coming from outside the browser (an intent).
pub const TRANSITION_FROM_API: i64 = 0x0100_0000;
/// `PageTransition`: TYPED into the omnibox.
pub const TRANSITION_TYPED: i64 = 1;
/// `PageTransition`: AUTO_BOOKMARK, what a tap on a History entry is recorded as.
pub const TRANSITION_AUTO_BOOKMARK: i64 = 2;

/// Microseconds between 1601-01-01 (Chrome's epoch) and 1970-01-01.
const EPOCH_DELTA_US: i64 = 11_644_473_600_000_000;

pub fn create_schema(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS urls(id INTEGER PRIMARY KEY AUTOINCREMENT,url LONGVARCHAR,title LONGVARCHAR,visit_count INTEGER DEFAULT 0 NOT NULL,typed_count INTEGER DEFAULT 0 NOT NULL,last_visit_time INTEGER NOT NULL,hidden INTEGER DEFAULT 0 NOT NULL);
         CREATE INDEX IF NOT EXISTS urls_url_index ON urls (url);
         CREATE TABLE IF NOT EXISTS visits(id INTEGER PRIMARY KEY AUTOINCREMENT,url INTEGER NOT NULL,visit_time INTEGER NOT NULL,from_visit INTEGER,transition INTEGER DEFAULT 0 NOT NULL,segment_id INTEGER,visit_duration INTEGER DEFAULT 0 NOT NULL);
         CREATE INDEX IF NOT EXISTS visits_url_index ON visits (url);",
    )
}

/// Chrome's timestamps: microseconds since 1601-01-01 UTC.
fn chrome_time(sys: &System) -> i64 {
    sys.now_millis() * 1000 + EPOCH_DELTA_US
}

/// Records a visit; returns false when the history could not be written.
pub fn record_visit(sys: &System, url: &str, transition: i64) -> bool {
    let Ok(conn) = sys.open_db(HISTORY_DB) else {
        return false;
    };
    if create_schema(&conn).is_err() {
        return false;
    }
    let now = chrome_time(sys);
    let typed = (transition == TRANSITION_TYPED) as i64;
    let id: Option<i64> = conn
        .query_row("SELECT id FROM urls WHERE url = ?1", [url], |r| r.get(0))
        .ok();
    let id = match id {
        Some(id) => {
            let _ = conn.execute(
                "UPDATE urls SET visit_count = visit_count + 1, typed_count = typed_count + ?2, last_visit_time = ?3 WHERE id = ?1",
                rusqlite::params![id, typed, now],
            );
            id
        }
        None => {
            if conn
                .execute(
                    "INSERT INTO urls(url, title, visit_count, typed_count, last_visit_time) VALUES (?1, '', 1, ?2, ?3)",
                    rusqlite::params![url, typed, now],
                )
                .is_err()
            {
                return false;
            }
            conn.last_insert_rowid()
        }
    };
    conn.execute(
        "INSERT INTO visits(url, visit_time, from_visit, transition) VALUES (?1, ?2, 0, ?3)",
        rusqlite::params![id, now, transition],
    )
    .is_ok()
}

/// The page of the last visit (Chrome reopens its last tab).
pub fn last_visited(sys: &System) -> Option<String> {
    let conn = sys.open_db(HISTORY_DB).ok()?;
    conn.query_row(
        "SELECT urls.url FROM visits JOIN urls ON urls.id = visits.url ORDER BY visits.id DESC LIMIT 1",
        [],
        |r| r.get(0),
    )
    .ok()
}

/// One row of the History page: a page and when it was last visited.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub url: String,
    pub title: String,
    /// Milliseconds since 1970 (the phone's zone is UTC).
    pub visited_ms: i64,
}

/// The History page's rows, newest first: each page once, at its last visit, as Chrome lists a
/// day's visits to one address. Hidden rows (Chrome's subframes) are not listed.
pub fn entries(sys: &System) -> Vec<Entry> {
    let Ok(conn) = sys.open_db(HISTORY_DB) else {
        return Vec::new();
    };
    let Ok(mut stmt) = conn.prepare(
        "SELECT url, title, last_visit_time FROM urls WHERE hidden = 0 ORDER BY last_visit_time DESC, id DESC",
    ) else {
        return Vec::new();
    };
    stmt.query_map([], |r| {
        Ok(Entry {
            url: r.get(0)?,
            title: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
            visited_ms: (r.get::<_, i64>(2)? - EPOCH_DELTA_US) / 1000,
        })
    })
    .map(|rows| rows.flatten().collect())
    .unwrap_or_default()
}

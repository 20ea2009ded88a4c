//! Joplin's database, `databases/joplin.sqlite`: the `folders` (notebooks) and `notes` tables with
//! the columns AndroidWorld's `JoplinFolder` and `JoplinNote` dataclasses write and read back with
//! `SELECT *` (so each table has exactly those columns: a column the dataclass lacks would break
//! its reader), and `notes_normalized`, the search index Joplin fills beside every note. Ids are
//! 32-hex-digit uuids, as Joplin makes them; the app reads rows by them and never by rowid.

use rusqlite::{params, Connection};

use crate::system::System;

pub const DB_PATH: &str = "/data/data/net.cozic.joplin/databases/joplin.sqlite";

/// Joplin's tables after its migrations, as the version AndroidWorld installs has them: every
/// NOT NULL column with the default Joplin gives it, so a writer that names only some columns
/// leaves a whole row. `folders.deleted_time` is the column AndroidWorld's inserts leave out.
const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS folders (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT "", created_time INT NOT NULL DEFAULT 0, updated_time INT NOT NULL DEFAULT 0, user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, encryption_cipher_text TEXT NOT NULL DEFAULT "", encryption_applied INT NOT NULL DEFAULT 0, parent_id TEXT NOT NULL DEFAULT "", is_shared INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT "", master_key_id TEXT NOT NULL DEFAULT "", icon TEXT NOT NULL DEFAULT "", user_data TEXT NOT NULL DEFAULT "", deleted_time INT NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL DEFAULT "", title TEXT NOT NULL DEFAULT "", body TEXT NOT NULL DEFAULT "", created_time INT NOT NULL DEFAULT 0, updated_time INT NOT NULL DEFAULT 0, is_conflict INT NOT NULL DEFAULT 0, latitude NUMERIC NOT NULL DEFAULT 0, longitude NUMERIC NOT NULL DEFAULT 0, altitude NUMERIC NOT NULL DEFAULT 0, author TEXT NOT NULL DEFAULT "", source_url TEXT NOT NULL DEFAULT "", is_todo INT NOT NULL DEFAULT 0, todo_due INT NOT NULL DEFAULT 0, todo_completed INT NOT NULL DEFAULT 0, source TEXT NOT NULL DEFAULT "", source_application TEXT NOT NULL DEFAULT "", application_data TEXT NOT NULL DEFAULT "", `order` NUMERIC NOT NULL DEFAULT 0, user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, encryption_cipher_text TEXT NOT NULL DEFAULT "", encryption_applied INT NOT NULL DEFAULT 0, markup_language INT NOT NULL DEFAULT 1, is_shared INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT "", conflict_original_id TEXT NOT NULL DEFAULT "", master_key_id TEXT NOT NULL DEFAULT "", user_data TEXT NOT NULL DEFAULT "");
CREATE INDEX IF NOT EXISTS notes_parent_id ON notes (parent_id);
CREATE TABLE IF NOT EXISTS notes_normalized (id TEXT NOT NULL, title TEXT NOT NULL DEFAULT "", body TEXT NOT NULL DEFAULT "", user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, is_todo INT NOT NULL DEFAULT 0, todo_completed INT NOT NULL DEFAULT 0, parent_id TEXT NOT NULL DEFAULT "", latitude NUMERIC NOT NULL DEFAULT 0, longitude NUMERIC NOT NULL DEFAULT 0, altitude NUMERIC NOT NULL DEFAULT 0, source_url TEXT NOT NULL DEFAULT "", todo_due INT NOT NULL DEFAULT 0);
"#;

/// A notebook.
#[derive(Debug, Clone, PartialEq)]
pub struct Folder {
    pub id: String,
    pub title: String,
}

/// A note or a to-do (`todo_completed` is the epoch ms it was ticked, 0 while open).
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub id: String,
    pub parent_id: String,
    pub title: String,
    pub body: String,
    pub is_todo: bool,
    pub todo_completed: i64,
}

impl Note {
    pub fn done(&self) -> bool {
        self.is_todo && self.todo_completed > 0
    }
}

/// Opens the database, making its tables when they are missing (first boot, `pm clear`, a file
/// replaced with an empty one).
pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let db = sys.open_db(DB_PATH)?;
    db.execute_batch(SCHEMA)?;
    Ok(db)
}

/// The notebooks by title, as the sidebar sorts them.
pub fn folders(db: &Connection) -> rusqlite::Result<Vec<Folder>> {
    let mut stmt = db.prepare("SELECT id, title FROM folders ORDER BY title COLLATE NOCASE, id")?;
    let rows = stmt.query_map([], |r| {
        Ok(Folder {
            id: r.get(0)?,
            title: r.get(1)?,
        })
    })?;
    rows.collect()
}

/// Every note in the list's order: open to-dos first ("Uncompleted to-dos on top"), then the
/// most recently updated; notes updated at the same moment by title.
pub fn notes(db: &Connection) -> rusqlite::Result<Vec<Note>> {
    let mut stmt = db.prepare(
        "SELECT id, parent_id, title, body, is_todo, todo_completed FROM notes \
         ORDER BY (is_todo != 0 AND todo_completed = 0) DESC, user_updated_time DESC, \
         title COLLATE NOCASE, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Note {
            id: r.get(0)?,
            parent_id: r.get(1)?,
            title: r.get(2)?,
            body: r.get(3)?,
            is_todo: r.get::<_, i64>(4)? != 0,
            todo_completed: r.get(5)?,
        })
    })?;
    rows.collect()
}

/// Ticks or unticks a to-do (its completion time, or 0), stamping it updated; the search index
/// follows. Returns whether a to-do with that id was there.
pub fn set_completed(db: &Connection, id: &str, done: bool, now: i64) -> rusqlite::Result<bool> {
    let completed = if done { now } else { 0 };
    let n = db.execute(
        "UPDATE notes SET todo_completed = ?1, updated_time = ?2, user_updated_time = ?2 \
         WHERE id = ?3 AND is_todo != 0",
        params![completed, now, id],
    )?;
    db.execute(
        "UPDATE notes_normalized SET todo_completed = ?1, user_updated_time = ?2 WHERE id = ?3",
        params![completed, now, id],
    )?;
    Ok(n > 0)
}

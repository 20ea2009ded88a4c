//! VLC's media library (`app_db/vlc_media.db`, libvlc's medialibrary): `Media` (one row a
//! discovered audio or video file: `title` without the extension, `filename` with it), `File`
//! (its `mrl`), `Playlist` and `PlaylistMediaRelation` (a playlist's media by 0-based
//! `position`). AndroidWorld empties `Playlist`, `Media` and `PlaylistMediaRelation` itself and
//! reads them back with a join, so those tables and columns are medialibrary's.

use rusqlite::{params, Connection, OptionalExtension};

use crate::providers::media;
use crate::system::System;

pub const DB_PATH: &str = "/data/data/org.videolan.vlc/app_db/vlc_media.db";

/// The medialibrary tables AndroidWorld and the screens use (medialibrary model 37's columns).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS Media(id_media INTEGER PRIMARY KEY AUTOINCREMENT, type INTEGER, subtype INTEGER NOT NULL DEFAULT 0, duration INTEGER DEFAULT -1, last_position REAL DEFAULT -1, last_time INTEGER DEFAULT -1, play_count UNSIGNED INTEGER, last_played_date UNSIGNED INTEGER, insertion_date UNSIGNED INTEGER, release_date UNSIGNED INTEGER, title TEXT COLLATE NOCASE, filename TEXT COLLATE NOCASE, is_favorite BOOLEAN NOT NULL DEFAULT FALSE, is_present BOOLEAN NOT NULL DEFAULT TRUE, device_id INTEGER, nb_playlists UNSIGNED INTEGER NOT NULL DEFAULT 0, folder_id UNSIGNED INTEGER, import_type UNSIGNED INTEGER NOT NULL, group_id UNSIGNED INTEGER, forced_title BOOLEAN NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS File(id_file INTEGER PRIMARY KEY AUTOINCREMENT, media_id UNSIGNED INT DEFAULT NULL, playlist_id UNSIGNED INT DEFAULT NULL, mrl TEXT, type UNSIGNED INTEGER, last_modification_date UNSIGNED INT, size UNSIGNED INT, folder_id UNSIGNED INTEGER, is_removable BOOLEAN NOT NULL, is_external BOOLEAN NOT NULL, is_network BOOLEAN NOT NULL);
CREATE TABLE IF NOT EXISTS Playlist(id_playlist INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT COLLATE NOCASE, file_id UNSIGNED INT DEFAULT NULL, creation_date UNSIGNED INT NOT NULL, artwork_mrl TEXT, nb_video UNSIGNED INT NOT NULL DEFAULT 0, nb_audio UNSIGNED INT NOT NULL DEFAULT 0, nb_unknown UNSIGNED INT NOT NULL DEFAULT 0, nb_present_video UNSIGNED INT NOT NULL DEFAULT 0, nb_present_audio UNSIGNED INT NOT NULL DEFAULT 0, nb_present_unknown UNSIGNED INT NOT NULL DEFAULT 0, duration UNSIGNED INT NOT NULL DEFAULT 0, nb_duration_unknown UNSIGNED INT NOT NULL DEFAULT 0, is_favorite BOOLEAN NOT NULL DEFAULT FALSE);
CREATE TABLE IF NOT EXISTS PlaylistMediaRelation(media_id INTEGER, mrl STRING, playlist_id INTEGER, position INTEGER);
";

/// `Media.type` of a video (medialibrary's `IMedia::Type::Video`); audio is 2.
const TYPE_VIDEO: i64 = 1;
const TYPE_AUDIO: i64 = 2;

pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let conn = sys.open_db(DB_PATH)?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
}

/// A media row as the screens show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    pub id: i64,
    pub title: String,
    pub filename: String,
    pub duration: i64,
    pub mrl: String,
}

/// `file://` MRL of a MediaStore `_data` path.
fn mrl(data: &str) -> String {
    let escaped: String = data
        .chars()
        .map(|c| match c {
            ' ' => "%20".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!("file://{escaped}")
}

/// The discoverer's pass: every audio and video file MediaStore lists gets a `Media` and `File`
/// row unless one is there; rows whose file went away are marked absent. A `File` whose `Media`
/// was deleted (AndroidWorld empties `Media`) is discovered again.
pub fn discover(sys: &System, conn: &Connection) -> rusqlite::Result<()> {
    let Ok(store) = media::open(sys) else {
        return Ok(());
    };
    let mut stmt = store.prepare(
        "SELECT _data, _display_name, coalesce(duration, -1), media_type, date_modified, _size
         FROM files WHERE media_type IN (2, 3) AND is_trashed = 0",
    )?;
    let found: Vec<(String, String, i64, i64, i64, i64)> = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let now = sys.clock.now().and_utc().timestamp();
    let tx = conn.unchecked_transaction()?;
    tx.execute(
        "DELETE FROM File WHERE media_id IS NOT NULL AND media_id NOT IN (SELECT id_media FROM Media)",
        [],
    )?;
    let mut present = Vec::new();
    for (data, name, duration, kind, modified, size) in found {
        let mrl = mrl(&data);
        let known: Option<i64> = tx
            .query_row("SELECT media_id FROM File WHERE mrl = ?1", [&mrl], |r| {
                r.get(0)
            })
            .optional()?;
        let id = match known {
            Some(id) => id,
            None => {
                let title = name
                    .rsplit_once('.')
                    .map_or(name.as_str(), |(s, _)| s)
                    .to_string();
                let kind = if kind == 3 { TYPE_VIDEO } else { TYPE_AUDIO };
                tx.execute(
                    "INSERT INTO Media (type, duration, play_count, insertion_date, title, filename,
                       is_present, device_id, import_type)
                     VALUES (?1, ?2, 0, ?3, ?4, ?5, 1, 1, 0)",
                    params![kind, duration, now, title, name],
                )?;
                let id = tx.last_insert_rowid();
                tx.execute(
                    "INSERT INTO File (media_id, mrl, type, last_modification_date, size,
                       is_removable, is_external, is_network)
                     VALUES (?1, ?2, 1, ?3, ?4, 0, 0, 0)",
                    params![id, mrl, modified, size],
                )?;
                id
            }
        };
        present.push(id);
    }
    tx.execute("UPDATE Media SET is_present = 0", [])?;
    for id in present {
        tx.execute("UPDATE Media SET is_present = 1 WHERE id_media = ?1", [id])?;
    }
    tx.commit()
}

fn media_rows(conn: &Connection, sql: &str, arg: Option<i64>) -> rusqlite::Result<Vec<Media>> {
    let mut stmt = conn.prepare(sql)?;
    let map = |r: &rusqlite::Row| {
        Ok(Media {
            id: r.get(0)?,
            title: r.get(1)?,
            filename: r.get(2)?,
            duration: r.get(3)?,
            mrl: r.get(4)?,
        })
    };
    let rows = match arg {
        Some(a) => stmt.query_map([a], map)?.collect(),
        None => stmt.query_map([], map)?.collect(),
    };
    rows
}

/// The videos present, by title (the Video tab's default order).
pub fn videos(conn: &Connection) -> rusqlite::Result<Vec<Media>> {
    media_rows(
        conn,
        "SELECT m.id_media, m.title, m.filename, m.duration, coalesce(f.mrl, '') FROM Media m
         LEFT JOIN File f ON f.media_id = m.id_media
         WHERE m.type = 1 AND m.is_present = 1 ORDER BY m.title COLLATE NOCASE, m.id_media",
        None,
    )
}

/// The media of a file path (as the browser lists files).
pub fn media_of_path(conn: &Connection, data: &str) -> Option<i64> {
    conn.query_row(
        "SELECT media_id FROM File WHERE mrl = ?1 AND media_id IN (SELECT id_media FROM Media)",
        [mrl(data)],
        |r| r.get(0),
    )
    .ok()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playlist {
    pub id: i64,
    pub name: String,
    pub count: i64,
    pub duration: i64,
}

pub fn playlists(conn: &Connection) -> rusqlite::Result<Vec<Playlist>> {
    let mut stmt = conn.prepare(
        "SELECT p.id_playlist, p.name, count(r.media_id), coalesce(sum(max(m.duration, 0)), 0)
         FROM Playlist p LEFT JOIN PlaylistMediaRelation r ON r.playlist_id = p.id_playlist
         LEFT JOIN Media m ON m.id_media = r.media_id
         GROUP BY p.id_playlist ORDER BY p.name COLLATE NOCASE",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Playlist {
            id: r.get(0)?,
            name: r.get(1)?,
            count: r.get(2)?,
            duration: r.get(3)?,
        })
    })?;
    rows.collect()
}

pub fn playlist_by_name(conn: &Connection, name: &str) -> Option<i64> {
    conn.query_row(
        "SELECT id_playlist FROM Playlist WHERE name = ?1 ORDER BY id_playlist LIMIT 1",
        [name],
        |r| r.get(0),
    )
    .ok()
}

pub fn playlist_name(conn: &Connection, id: i64) -> Option<String> {
    conn.query_row(
        "SELECT name FROM Playlist WHERE id_playlist = ?1",
        [id],
        |r| r.get(0),
    )
    .ok()
}

pub fn create_playlist(conn: &Connection, name: &str, now: i64) -> rusqlite::Result<i64> {
    conn.execute(
        "INSERT INTO Playlist (name, creation_date) VALUES (?1, ?2)",
        params![name, now],
    )?;
    Ok(conn.last_insert_rowid())
}

pub fn delete_playlist(conn: &Connection, id: i64) -> rusqlite::Result<()> {
    conn.execute(
        "DELETE FROM PlaylistMediaRelation WHERE playlist_id = ?1",
        [id],
    )?;
    conn.execute("DELETE FROM Playlist WHERE id_playlist = ?1", [id])?;
    Ok(())
}

/// The media of `ids` that the playlist already holds.
pub fn already_in(conn: &Connection, playlist: i64, ids: &[i64]) -> Vec<i64> {
    ids.iter()
        .copied()
        .filter(|id| {
            conn.query_row(
                "SELECT 1 FROM PlaylistMediaRelation WHERE playlist_id = ?1 AND media_id = ?2",
                [playlist, *id],
                |_| Ok(()),
            )
            .is_ok()
        })
        .collect()
}

/// `Playlist::append`: each media after the last position, the playlist's counters kept.
pub fn append(conn: &Connection, playlist: i64, ids: &[i64]) -> rusqlite::Result<()> {
    for id in ids {
        let next: i64 = conn.query_row(
            "SELECT coalesce(max(position) + 1, 0) FROM PlaylistMediaRelation WHERE playlist_id = ?1",
            [playlist],
            |r| r.get(0),
        )?;
        let mrl: Option<String> = conn
            .query_row("SELECT mrl FROM File WHERE media_id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        conn.execute(
            "INSERT INTO PlaylistMediaRelation (media_id, mrl, playlist_id, position)
             VALUES (?1, ?2, ?3, ?4)",
            params![id, mrl, playlist, next],
        )?;
        conn.execute(
            "UPDATE Media SET nb_playlists = nb_playlists + 1 WHERE id_media = ?1",
            [id],
        )?;
    }
    conn.execute(
        "UPDATE Playlist SET
           nb_video = (SELECT count(*) FROM PlaylistMediaRelation r JOIN Media m ON m.id_media = r.media_id WHERE r.playlist_id = ?1 AND m.type = 1),
           nb_present_video = (SELECT count(*) FROM PlaylistMediaRelation r JOIN Media m ON m.id_media = r.media_id WHERE r.playlist_id = ?1 AND m.type = 1 AND m.is_present),
           nb_audio = (SELECT count(*) FROM PlaylistMediaRelation r JOIN Media m ON m.id_media = r.media_id WHERE r.playlist_id = ?1 AND m.type = 2),
           nb_present_audio = (SELECT count(*) FROM PlaylistMediaRelation r JOIN Media m ON m.id_media = r.media_id WHERE r.playlist_id = ?1 AND m.type = 2 AND m.is_present),
           duration = (SELECT coalesce(sum(max(m.duration, 0)), 0) FROM PlaylistMediaRelation r JOIN Media m ON m.id_media = r.media_id WHERE r.playlist_id = ?1)
         WHERE id_playlist = ?1",
        [playlist],
    )?;
    Ok(())
}

/// A playlist's media by position.
pub fn playlist_media(conn: &Connection, playlist: i64) -> rusqlite::Result<Vec<Media>> {
    media_rows(
        conn,
        "SELECT m.id_media, m.title, m.filename, m.duration, coalesce(r.mrl, '') FROM PlaylistMediaRelation r
         JOIN Media m ON m.id_media = r.media_id WHERE r.playlist_id = ?1 ORDER BY r.position",
        Some(playlist),
    )
}

/// A length as VLC writes it: `m:ss`, or `h:mm:ss` from an hour.
pub fn duration_text(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn media(conn: &Connection, name: &str) -> i64 {
        conn.execute(
            "INSERT INTO Media (type, duration, title, filename, import_type) VALUES (1, 1000, ?1, ?1, 0)",
            [name],
        )
        .unwrap();
        conn.last_insert_rowid()
    }

    #[test]
    fn appended_media_take_the_next_positions_from_zero() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        let (a, b) = (media(&conn, "a.mp4"), media(&conn, "b.mp4"));
        let p = create_playlist(&conn, "Road Trips Marathon", 0).unwrap();
        append(&conn, p, &[b]).unwrap();
        append(&conn, p, &[a]).unwrap();
        let rows: Vec<(String, i64)> = conn
            .prepare(
                "SELECT Media.filename, PlaylistMediaRelation.position FROM PlaylistMediaRelation
                 JOIN Media ON Media.id_media = PlaylistMediaRelation.media_id ORDER BY position",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(rows, [("b.mp4".to_string(), 0), ("a.mp4".to_string(), 1)]);
        assert_eq!(already_in(&conn, p, &[a, b]), [a, b]);
        let listed = playlists(&conn).unwrap();
        assert_eq!((listed[0].count, listed[0].duration), (2, 2000));
        assert_eq!(playlist_by_name(&conn, "road trips marathon"), Some(p));
    }

    #[test]
    fn mrls_escape_spaces() {
        assert_eq!(
            mrl("/storage/emulated/0/VLCVideos/a b.mp4"),
            "file:///storage/emulated/0/VLCVideos/a%20b.mp4"
        );
    }
}

//! Retro Music's data: the songs MediaStore lists, its Room database `playlist.db`
//! (`RetroDatabase` v24: `PlaylistEntity`, `SongEntity` with a song's MediaStore fields copied in,
//! `HistoryEntity`, `PlayCountEntity`) and `music_playback_state.db`, where the playback service
//! saves the playing queue (`MusicPlaybackQueueStore`: `playing_queue`, `original_playing_queue`).
//! AndroidWorld reads both files directly, so tables and columns are the app's.

use rusqlite::{params, Connection};

use crate::providers::media;
use crate::system::System;

pub const PLAYLIST_DB: &str = "/data/data/code.name.monkey.retromusic/databases/playlist.db";
pub const QUEUE_DB: &str =
    "/data/data/code.name.monkey.retromusic/databases/music_playback_state.db";

/// Room's DDL for `RetroDatabase` (version 24, identity hash as Room writes it).
const PLAYLIST_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS `PlaylistEntity` (`playlist_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `playlist_name` TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS `SongEntity` (`song_key` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `playlist_creator_id` INTEGER NOT NULL, `id` INTEGER NOT NULL, `title` TEXT NOT NULL, `track_number` INTEGER NOT NULL, `year` INTEGER NOT NULL, `duration` INTEGER NOT NULL, `data` TEXT NOT NULL, `date_modified` INTEGER NOT NULL, `album_id` INTEGER NOT NULL, `album_name` TEXT NOT NULL, `artist_id` INTEGER NOT NULL, `artist_name` TEXT NOT NULL, `composer` TEXT, `album_artist` TEXT);
CREATE UNIQUE INDEX IF NOT EXISTS `index_SongEntity_playlist_creator_id_id` ON `SongEntity` (`playlist_creator_id`, `id`);
CREATE TABLE IF NOT EXISTS `HistoryEntity` (`id` INTEGER NOT NULL, `title` TEXT NOT NULL, `track_number` INTEGER NOT NULL, `year` INTEGER NOT NULL, `duration` INTEGER NOT NULL, `data` TEXT NOT NULL, `date_modified` INTEGER NOT NULL, `album_id` INTEGER NOT NULL, `album_name` TEXT NOT NULL, `artist_id` INTEGER NOT NULL, `artist_name` TEXT NOT NULL, `composer` TEXT, `album_artist` TEXT, `time_played` INTEGER NOT NULL, PRIMARY KEY(`id`));
CREATE TABLE IF NOT EXISTS `PlayCountEntity` (`id` INTEGER NOT NULL, `title` TEXT NOT NULL, `track_number` INTEGER NOT NULL, `year` INTEGER NOT NULL, `duration` INTEGER NOT NULL, `data` TEXT NOT NULL, `date_modified` INTEGER NOT NULL, `album_id` INTEGER NOT NULL, `album_name` TEXT NOT NULL, `artist_id` INTEGER NOT NULL, `artist_name` TEXT NOT NULL, `composer` TEXT, `album_artist` TEXT, `time_played` INTEGER NOT NULL, `play_count` INTEGER NOT NULL, PRIMARY KEY(`id`));
CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT);
INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, 'a1f0b5e0c1d5c6f2b7d8e9a0b1c2d3e4');
PRAGMA user_version = 24;
";

/// `MusicPlaybackQueueStore`'s tables (version 12: with `album_artist`).
const QUEUE_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS playing_queue(_id INT NOT NULL,title STRING NOT NULL,track INT NOT NULL,year INT NOT NULL,duration LONG NOT NULL,_data STRING NOT NULL,date_modified LONG NOT NULL,album_id INT NOT NULL,album STRING NOT NULL,artist_id INT NOT NULL,artist STRING NOT NULL,composer STRING,album_artist STRING);
CREATE TABLE IF NOT EXISTS original_playing_queue(_id INT NOT NULL,title STRING NOT NULL,track INT NOT NULL,year INT NOT NULL,duration LONG NOT NULL,_data STRING NOT NULL,date_modified LONG NOT NULL,album_id INT NOT NULL,album STRING NOT NULL,artist_id INT NOT NULL,artist STRING NOT NULL,composer STRING,album_artist STRING);
PRAGMA user_version = 12;
";

pub fn open_playlists(sys: &System) -> rusqlite::Result<Connection> {
    let conn = sys.open_db(PLAYLIST_DB)?;
    conn.execute_batch(PLAYLIST_SCHEMA)?;
    Ok(conn)
}

pub fn open_queue(sys: &System) -> rusqlite::Result<Connection> {
    let conn = sys.open_db(QUEUE_DB)?;
    conn.execute_batch(QUEUE_SCHEMA)?;
    Ok(conn)
}

/// A song as Retro's `Song` model holds it (MediaStore's audio columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Song {
    pub id: i64,
    pub title: String,
    pub duration: i64,
    pub data: String,
    pub date_modified: i64,
    pub album: String,
    pub artist: String,
}

impl Song {
    /// MediaStore's album and artist ids: stable numbers per name (the provider keys them by name).
    fn key(name: &str) -> i64 {
        name.to_lowercase()
            .encode_utf16()
            .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
            .unsigned_abs()
            .into()
    }

    pub fn album_id(&self) -> i64 {
        Self::key(&self.album)
    }

    pub fn artist_id(&self) -> i64 {
        Self::key(&self.artist)
    }
}

/// The songs MediaStore lists, as the Songs tab sorts them (title A–Z, Retro's default).
pub fn songs(sys: &System) -> Vec<Song> {
    let Ok(conn) = media::open(sys) else {
        return Vec::new();
    };
    let Ok(mut stmt) = conn.prepare(
        "SELECT _id, title, coalesce(duration, 0), _data, date_modified, coalesce(album, ''),
           coalesce(artist, '<unknown>') FROM files
         WHERE media_type = 2 AND is_trashed = 0 AND is_pending = 0
         ORDER BY title COLLATE NOCASE, _id",
    ) else {
        return Vec::new();
    };
    stmt.query_map([], |r| {
        Ok(Song {
            id: r.get(0)?,
            title: r.get(1)?,
            duration: r.get(2)?,
            data: r.get(3)?,
            date_modified: r.get(4)?,
            album: r.get(5)?,
            artist: r.get(6)?,
        })
    })
    .and_then(|rows| rows.collect())
    .unwrap_or_default()
}

/// A playlist row with what its list item shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playlist {
    pub id: i64,
    pub name: String,
    pub songs: i64,
    pub duration: i64,
}

pub fn playlists(conn: &Connection) -> rusqlite::Result<Vec<Playlist>> {
    let mut stmt = conn.prepare(
        "SELECT p.playlist_id, p.playlist_name, count(s.song_key), coalesce(sum(s.duration), 0)
         FROM PlaylistEntity p LEFT JOIN SongEntity s ON s.playlist_creator_id = p.playlist_id
         GROUP BY p.playlist_id ORDER BY p.playlist_name COLLATE NOCASE",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Playlist {
            id: r.get(0)?,
            name: r.get(1)?,
            songs: r.get(2)?,
            duration: r.get(3)?,
        })
    })?;
    rows.collect()
}

pub fn create_playlist(conn: &Connection, name: &str) -> rusqlite::Result<i64> {
    conn.execute(
        "INSERT INTO PlaylistEntity (playlist_name) VALUES (?1)",
        [name],
    )?;
    Ok(conn.last_insert_rowid())
}

pub fn rename_playlist(conn: &Connection, id: i64, name: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE PlaylistEntity SET playlist_name = ?1 WHERE playlist_id = ?2",
        params![name, id],
    )?;
    Ok(())
}

pub fn delete_playlist(conn: &Connection, id: i64) -> rusqlite::Result<()> {
    conn.execute(
        "DELETE FROM SongEntity WHERE playlist_creator_id = ?1",
        [id],
    )?;
    conn.execute("DELETE FROM PlaylistEntity WHERE playlist_id = ?1", [id])?;
    Ok(())
}

/// `insertSongsToPlaylist` (REPLACE on the playlist/song index): a song already in the playlist
/// is written again, so it moves to the end.
pub fn add_songs(conn: &Connection, playlist: i64, songs: &[Song]) -> rusqlite::Result<()> {
    for s in songs {
        conn.execute(
            "INSERT OR REPLACE INTO SongEntity (playlist_creator_id, id, title, track_number, year,
               duration, data, date_modified, album_id, album_name, artist_id, artist_name,
               composer, album_artist)
             VALUES (?1, ?2, ?3, 0, 0, ?4, ?5, ?6, ?7, ?8, ?9, ?10, NULL, NULL)",
            params![
                playlist,
                s.id,
                s.title,
                s.duration,
                s.data,
                s.date_modified,
                s.album_id(),
                s.album,
                s.artist_id(),
                s.artist
            ],
        )?;
    }
    Ok(())
}

pub fn remove_song(conn: &Connection, playlist: i64, song: i64) -> rusqlite::Result<()> {
    conn.execute(
        "DELETE FROM SongEntity WHERE playlist_creator_id = ?1 AND id = ?2",
        [playlist, song],
    )?;
    Ok(())
}

/// A playlist's songs in the order they were added (`song_key`).
pub fn playlist_songs(conn: &Connection, playlist: i64) -> rusqlite::Result<Vec<Song>> {
    let mut stmt = conn.prepare(
        "SELECT id, title, duration, data, date_modified, album_name, artist_name FROM SongEntity
         WHERE playlist_creator_id = ?1 ORDER BY song_key",
    )?;
    let rows = stmt.query_map([playlist], |r| {
        Ok(Song {
            id: r.get(0)?,
            title: r.get(1)?,
            duration: r.get(2)?,
            data: r.get(3)?,
            date_modified: r.get(4)?,
            album: r.get(5)?,
            artist: r.get(6)?,
        })
    })?;
    rows.collect()
}

pub fn playlist_name(conn: &Connection, playlist: i64) -> Option<String> {
    conn.query_row(
        "SELECT playlist_name FROM PlaylistEntity WHERE playlist_id = ?1",
        [playlist],
        |r| r.get(0),
    )
    .ok()
}

/// The saved playing queue, in order.
pub fn queue(conn: &Connection) -> rusqlite::Result<Vec<Song>> {
    let mut stmt = conn.prepare(
        "SELECT _id, title, duration, _data, date_modified, album, artist FROM playing_queue
         ORDER BY rowid",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Song {
            id: r.get(0)?,
            title: r.get(1)?,
            duration: r.get(2)?,
            data: r.get(3)?,
            date_modified: r.get(4)?,
            album: r.get(5)?,
            artist: r.get(6)?,
        })
    })?;
    rows.collect()
}

/// `saveQueues`: both tables emptied and written in order (no shuffle, so they are the same).
pub fn save_queue(conn: &Connection, songs: &[Song]) -> rusqlite::Result<()> {
    let tx = conn.unchecked_transaction()?;
    for table in ["playing_queue", "original_playing_queue"] {
        tx.execute(&format!("DELETE FROM {table}"), [])?;
        for s in songs {
            tx.execute(
                &format!(
                    "INSERT INTO {table} (_id, title, track, year, duration, _data, date_modified,
                       album_id, album, artist_id, artist, composer, album_artist)
                     VALUES (?1, ?2, 0, 0, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NULL, NULL)"
                ),
                params![
                    s.id,
                    s.title,
                    s.duration,
                    s.data,
                    s.date_modified,
                    s.album_id(),
                    s.album,
                    s.artist_id(),
                    s.artist
                ],
            )?;
        }
    }
    tx.commit()
}

/// The `.m3u` Retro's `M3UWriter` writes: the header, then per song its `#EXTINF` line (the
/// duration in milliseconds as the app writes it, artist and title) and its path.
pub fn m3u(songs: &[Song]) -> String {
    let mut out = String::from("#EXTM3U");
    for s in songs {
        out.push_str(&format!(
            "\n#EXTINF:{},{} - {}\n{}",
            s.duration, s.artist, s.title, s.data
        ));
    }
    out
}

/// A length as Retro writes one: `m:ss`, or `h:mm:ss` from an hour.
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

    fn song(id: i64, title: &str, ms: i64) -> Song {
        Song {
            id,
            title: title.into(),
            duration: ms,
            data: format!("/storage/emulated/0/Music/{title}.mp3"),
            date_modified: 1,
            album: "Music".into(),
            artist: "Ana".into(),
        }
    }

    #[test]
    fn songs_keep_the_order_they_were_added_and_readding_moves_one_last() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(PLAYLIST_SCHEMA).unwrap();
        let p = create_playlist(&conn, "Chill Beats 12").unwrap();
        let (a, b, c) = (song(1, "B", 1000), song(2, "A", 2000), song(3, "C", 3000));
        add_songs(&conn, p, &[a.clone(), b.clone()]).unwrap();
        add_songs(&conn, p, &[c.clone()]).unwrap();
        let titles = |conn: &Connection| {
            playlist_songs(conn, p)
                .unwrap()
                .into_iter()
                .map(|s| s.title)
                .collect::<Vec<_>>()
        };
        assert_eq!(titles(&conn), ["B", "A", "C"]);
        add_songs(&conn, p, &[a]).unwrap();
        assert_eq!(titles(&conn), ["A", "C", "B"]);
        let listed = playlists(&conn).unwrap();
        assert_eq!(listed[0].songs, 3);
        assert_eq!(listed[0].duration, 6000);
    }

    #[test]
    fn the_queue_is_saved_in_order_in_both_tables() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(QUEUE_SCHEMA).unwrap();
        save_queue(&conn, &[song(5, "Z", 1), song(2, "Y", 1)]).unwrap();
        save_queue(&conn, &[song(2, "Y", 1), song(5, "Z", 1), song(7, "X", 1)]).unwrap();
        let q: Vec<String> = queue(&conn).unwrap().into_iter().map(|s| s.title).collect();
        assert_eq!(q, ["Y", "Z", "X"]);
        let n: i64 = conn
            .query_row("SELECT count(*) FROM original_playing_queue", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(n, 3);
    }

    #[test]
    fn m3u_and_lengths_are_written_as_retro_writes_them() {
        assert_eq!(
            m3u(&[song(1, "Moments", 200_000)]),
            "#EXTM3U\n#EXTINF:200000,Ana - Moments\n/storage/emulated/0/Music/Moments.mp3"
        );
        assert_eq!(duration_text(200_000), "3:20");
        assert_eq!(duration_text(2_850_000), "47:30");
        assert_eq!(duration_text(3_725_000), "1:02:05");
    }
}

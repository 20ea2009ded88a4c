//! MediaStore (`content://media/…`): the media provider's `external.db`, whose `files` table holds a
//! row for every file and folder in shared storage (`/storage/emulated/0`), and the collections
//! apps and AndroidWorld's task code reach through it: `file`, `images/media`, `audio/media`,
//! `video/media` and `downloads`, on the `external` and `external_primary` volumes.
//!
//! Android's MediaProvider learns of files through FUSE and its scanner, so a file written over adb
//! is in the table when the next query runs. The phone does the same on every open: the table is
//! brought in step with the folder first ([`sync`]), keeping each path's `_id` while the file stays.
//! A delete through the provider removes the files with their rows, as MediaProvider's does (this is
//! how AndroidWorld empties Downloads: `content delete --uri content://media/external/downloads`).

use std::collections::HashMap;
use std::path::Path;

use rusqlite::{params, Connection};

use super::{row_id, Db, ProviderError, Source};
use crate::system::System;

pub const DB_PATH: &str = "/data/data/com.android.providers.media.module/databases/external.db";

/// Shared storage as the phone's folder holds it, and as MediaStore names it in `_data`.
const STORAGE: &str = "/sdcard";
const STORAGE_NAME: &str = "/storage/emulated/0";

/// `files.media_type` (MediaStore.Files.FileColumns).
const MEDIA_TYPE_NONE: i64 = 0;
const MEDIA_TYPE_IMAGE: i64 = 1;
const MEDIA_TYPE_AUDIO: i64 = 2;
const MEDIA_TYPE_VIDEO: i64 = 3;
const MEDIA_TYPE_DOCUMENT: i64 = 6;
/// `files.format` of a folder (MtpConstants.FORMAT_ASSOCIATION); files carry 0, "undefined".
const FORMAT_FOLDER: i64 = 0x3001;

/// The columns of Android 14's `files` table that apps and task code read; the collections are
/// views over it with the media type (or download flag) each one stands for.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS files (_id INTEGER PRIMARY KEY AUTOINCREMENT, _data TEXT UNIQUE, _size INTEGER, format INTEGER, parent INTEGER, date_added INTEGER, date_modified INTEGER,
  mime_type TEXT, title TEXT, _display_name TEXT, media_type INTEGER, relative_path TEXT,
  volume_name TEXT, is_download INTEGER NOT NULL DEFAULT 0, bucket_id TEXT,
  bucket_display_name TEXT, owner_package_name TEXT, is_pending INTEGER NOT NULL DEFAULT 0,
  is_trashed INTEGER NOT NULL DEFAULT 0, is_favorite INTEGER NOT NULL DEFAULT 0,
  datetaken INTEGER, duration INTEGER, width INTEGER, height INTEGER, orientation INTEGER,
  artist TEXT, album TEXT);
";

/// Opens `external.db`, creating its table on first use, and brings it in step with the files.
pub fn open(sys: &System) -> rusqlite::Result<Connection> {
    let conn = sys.open_db(DB_PATH)?;
    conn.execute_batch(SCHEMA)?;
    sync(sys, &conn)?;
    Ok(conn)
}

/// Puts `external.db` in place, empty (an empty file is an empty SQLite database), as a booting
/// phone's MediaProvider does: whoever lists the phone's databases finds it, and its first open
/// ([`open`], also when the file is read) makes the table and fills it. An empty file costs a boot
/// nothing; making the table there cost a few milliseconds of every boot.
pub fn create(sys: &System) -> std::io::Result<()> {
    let path = sys
        .host_path(DB_PATH)
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, DB_PATH))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(drop)
}

/// The media kinds DocumentsUI shows as roots of their own: MediaDocumentsProvider's Images,
/// Videos and Audio, read from this table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    Image,
    Video,
    Audio,
}

impl MediaKind {
    fn media_type(self) -> i64 {
        match self {
            MediaKind::Image => MEDIA_TYPE_IMAGE,
            MediaKind::Video => MEDIA_TYPE_VIDEO,
            MediaKind::Audio => MEDIA_TYPE_AUDIO,
        }
    }
}

/// The phone paths (under `/sdcard`) of every file of `kind` in shared storage, newest first, as
/// MediaDocumentsProvider lists a media root; the table is brought in step with the files first.
pub fn paths_of_kind(sys: &System, kind: MediaKind) -> rusqlite::Result<Vec<String>> {
    let conn = open(sys)?;
    let mut stmt = conn.prepare(
        "SELECT _data FROM files WHERE media_type = ?1 AND format != ?2
         ORDER BY date_modified DESC, _id DESC",
    )?;
    let paths = stmt
        .query_map(params![kind.media_type(), FORMAT_FOLDER], |r| {
            r.get::<_, String>(0)
        })?
        .map(|data| data.map(|d| android_path(&d)))
        .collect();
    paths
}

/// The source of a `content://media/<volume>/…` URI.
pub(crate) fn source(segments: &[&str]) -> Option<Source> {
    let (volume, rest) = segments.split_first()?;
    if !matches!(*volume, "external" | "external_primary") {
        return None;
    }
    let (collection, id) = match rest {
        ["file"]
        | ["images", "media"]
        | ["audio", "media"]
        | ["video", "media"]
        | ["downloads"] => (rest, None),
        [head @ .., id] => (head, Some(row_id(id)?)),
        [] => return None,
    };
    let kind = match collection {
        ["file"] => None,
        ["images", "media"] => Some(format!("media_type = {MEDIA_TYPE_IMAGE}")),
        ["audio", "media"] => Some(format!("media_type = {MEDIA_TYPE_AUDIO}")),
        ["video", "media"] => Some(format!("media_type = {MEDIA_TYPE_VIDEO}")),
        ["downloads"] => Some("is_download = 1".to_string()),
        _ => return None,
    };
    let filter = [kind, id.map(|id| format!("_id = {id}"))]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>();
    Some(Source {
        db: Db::Media,
        table: "files",
        filter: (!filter.is_empty()).then(|| filter.join(" AND ")),
        default_sort: Some("_id"),
    })
}

/// `content delete` on a media URI: the matching rows' files and folders go with the rows, deepest
/// first, so a folder whose contents were all deleted goes too. Returns how many rows went.
pub(crate) fn delete(
    sys: &System,
    conn: &Connection,
    where_sql: &str,
) -> Result<usize, ProviderError> {
    let mut stmt = conn.prepare(&format!(
        "SELECT _id, _data, format FROM files{where_sql} ORDER BY length(_data) DESC"
    ))?;
    let rows: Vec<(i64, String, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut deleted = 0;
    for (id, data, format) in rows {
        let Some(host) = host_of(sys, &data) else {
            continue;
        };
        let gone = if format == FORMAT_FOLDER {
            // A folder with files the delete did not match stays, and so does its row.
            std::fs::remove_dir(&host)
        } else {
            std::fs::remove_file(&host)
        };
        match gone {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => continue,
        }
        conn.execute("DELETE FROM files WHERE _id = ?1", [id])?;
        deleted += 1;
    }
    Ok(deleted)
}

/// The host path of a `_data` value.
fn host_of(sys: &System, data: &str) -> Option<std::path::PathBuf> {
    let rest = data.strip_prefix(STORAGE_NAME)?;
    sys.host_path(&format!("{STORAGE}{rest}"))
}

/// The phone's path (under `/sdcard`) of a `_data` value (under `/storage/emulated/0`).
pub fn android_path(data: &str) -> String {
    match data.strip_prefix(STORAGE_NAME) {
        Some(rest) => format!("{STORAGE}{rest}"),
        None => data.to_string(),
    }
}

/// One file or folder as the scan finds it.
struct Found {
    data: String,
    size: i64,
    is_dir: bool,
    host: std::path::PathBuf,
}

/// Brings `files` in step with shared storage: new paths get rows (dated now on the phone's clock),
/// changed sizes are updated and re-dated, rows of vanished paths go. Paths that stay keep their
/// `_id`, as MediaProvider keeps them across scans.
fn sync(sys: &System, conn: &Connection) -> rusqlite::Result<()> {
    let Some(root) = sys.host_path(STORAGE) else {
        return Ok(());
    };
    let mut found = Vec::new();
    walk(&root, STORAGE_NAME, &mut found);
    let known: HashMap<String, (i64, i64)> = {
        let mut stmt = conn.prepare("SELECT _data, _id, _size FROM files")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get(0)?,
                (r.get(1)?, r.get::<_, Option<i64>>(2)?.unwrap_or(0)),
            ))
        })?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let now = sys.clock.now().and_utc().timestamp();
    let tx = conn.unchecked_transaction()?;
    let seen: std::collections::HashSet<&str> = found.iter().map(|f| f.data.as_str()).collect();
    for (data, (id, _)) in &known {
        if !seen.contains(data.as_str()) {
            tx.execute("DELETE FROM files WHERE _id = ?1", [id])?;
        }
    }
    // Parents before children (the walk's order), so each row can name its parent's `_id`.
    for f in &found {
        match known.get(&f.data) {
            Some((_, size)) if *size == f.size => {}
            Some((id, _)) => {
                tx.execute(
                    "UPDATE files SET _size = ?1, date_modified = ?2 WHERE _id = ?3",
                    params![f.size, now, id],
                )?;
                describe(&tx, f, *id)?;
            }
            None => insert(&tx, f, now)?,
        }
    }
    tx.commit()
}

fn insert(conn: &Connection, f: &Found, now: i64) -> rusqlite::Result<()> {
    let (parent_path, name) = f.data.rsplit_once('/').unwrap_or(("", &f.data));
    let parent: i64 = conn
        .query_row(
            "SELECT _id FROM files WHERE _data = ?1",
            [parent_path],
            |r| r.get(0),
        )
        .unwrap_or(-1);
    // Relative to the volume's root, with a trailing slash: "Download/", "DCIM/Camera/".
    let relative = parent_path
        .strip_prefix(STORAGE_NAME)
        .map(|p| p.trim_start_matches('/'))
        .map(|p| {
            if p.is_empty() {
                "/".to_string()
            } else {
                format!("{p}/")
            }
        })
        .unwrap_or_default();
    let (mime, media_type) = if f.is_dir {
        (None, MEDIA_TYPE_NONE)
    } else {
        let (mime, kind) = mime_of(name);
        (Some(mime), kind)
    };
    let title = if f.is_dir {
        name.to_string()
    } else {
        name.rsplit_once('.')
            .map_or(name, |(stem, _)| stem)
            .to_string()
    };
    let bucket = parent_path.rsplit('/').next().unwrap_or("");
    conn.execute(
        "INSERT INTO files (_data, _size, format, parent, date_added, date_modified, mime_type, title,
           _display_name, media_type, relative_path, volume_name, is_download, bucket_id,
           bucket_display_name)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9, ?10, 'external_primary', ?11, ?12, ?13)",
        params![
            f.data,
            f.size,
            if f.is_dir { FORMAT_FOLDER } else { 0 },
            parent,
            now,
            mime,
            title,
            name,
            media_type,
            relative,
            i64::from(!f.is_dir && relative.starts_with("Download/")),
            bucket_id(parent_path).to_string(),
            bucket,
        ],
    )?;
    describe(conn, f, conn.last_insert_rowid())
}

/// What the scanner reads from an audio or video file's headers (the media_file module): its
/// tagged title, artist and album (album defaulting to the folder, artist to `<unknown>`, as
/// MediaProvider fills them), its duration and frame size.
fn describe(conn: &Connection, f: &Found, id: i64) -> rusqlite::Result<()> {
    let (_, media_type) = mime_of(&f.data);
    if f.is_dir || !matches!(media_type, MEDIA_TYPE_AUDIO | MEDIA_TYPE_VIDEO) {
        return Ok(());
    }
    let tags = crate::media_file::probe(&f.host).unwrap_or_default();
    let folder = f
        .data
        .rsplit_once('/')
        .and_then(|(parent, _)| parent.rsplit_once('/'))
        .map(|(_, name)| name.to_string());
    let audio = media_type == MEDIA_TYPE_AUDIO;
    conn.execute(
        "UPDATE files SET title = coalesce(?1, title), duration = ?2, width = ?3, height = ?4,
           artist = ?5, album = ?6 WHERE _id = ?7",
        params![
            tags.title,
            tags.duration_ms,
            tags.width,
            tags.height,
            if audio {
                Some(tags.artist.unwrap_or_else(|| "<unknown>".to_string()))
            } else {
                None
            },
            if audio { tags.album.or(folder) } else { None },
            id
        ],
    )?;
    Ok(())
}

/// Every file and folder under `dir`, parents first; hidden names and symbolic links are skipped,
/// as MediaProvider's scanner skips them.
fn walk(dir: &Path, name: &str, out: &mut Vec<Found>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if file_name.starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let data = format!("{name}/{file_name}");
        if kind.is_dir() {
            out.push(Found {
                data: data.clone(),
                size: 4096,
                is_dir: true,
                host: entry.path(),
            });
            walk(&entry.path(), &data, out);
        } else if kind.is_file() {
            let size = entry.metadata().map_or(0, |m| m.len() as i64);
            out.push(Found {
                data,
                size,
                is_dir: false,
                host: entry.path(),
            });
        }
    }
}

/// The MIME type MediaProvider gives a file by its extension (libcore's MimeMap), and the media
/// type that puts it in a collection.
fn mime_of(name: &str) -> (&'static str, i64) {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "jpg" | "jpeg" => ("image/jpeg", MEDIA_TYPE_IMAGE),
        "png" => ("image/png", MEDIA_TYPE_IMAGE),
        "gif" => ("image/gif", MEDIA_TYPE_IMAGE),
        "webp" => ("image/webp", MEDIA_TYPE_IMAGE),
        "bmp" => ("image/x-ms-bmp", MEDIA_TYPE_IMAGE),
        "heic" => ("image/heic", MEDIA_TYPE_IMAGE),
        "mp3" => ("audio/mpeg", MEDIA_TYPE_AUDIO),
        "m4a" => ("audio/mp4", MEDIA_TYPE_AUDIO),
        "aac" => ("audio/aac", MEDIA_TYPE_AUDIO),
        "wav" => ("audio/x-wav", MEDIA_TYPE_AUDIO),
        "ogg" | "oga" => ("audio/ogg", MEDIA_TYPE_AUDIO),
        "flac" => ("audio/flac", MEDIA_TYPE_AUDIO),
        "amr" => ("audio/amr", MEDIA_TYPE_AUDIO),
        "mp4" | "m4v" => ("video/mp4", MEDIA_TYPE_VIDEO),
        "3gp" => ("video/3gpp", MEDIA_TYPE_VIDEO),
        "mkv" => ("video/x-matroska", MEDIA_TYPE_VIDEO),
        "webm" => ("video/webm", MEDIA_TYPE_VIDEO),
        "txt" => ("text/plain", MEDIA_TYPE_DOCUMENT),
        "md" => ("text/markdown", MEDIA_TYPE_DOCUMENT),
        "csv" => ("text/comma-separated-values", MEDIA_TYPE_DOCUMENT),
        "html" | "htm" => ("text/html", MEDIA_TYPE_DOCUMENT),
        "pdf" => ("application/pdf", MEDIA_TYPE_DOCUMENT),
        "doc" => ("application/msword", MEDIA_TYPE_DOCUMENT),
        "json" => ("application/json", MEDIA_TYPE_NONE),
        "zip" => ("application/zip", MEDIA_TYPE_NONE),
        _ => ("application/octet-stream", MEDIA_TYPE_NONE),
    }
}

/// `bucket_id`: Java's `String.hashCode` of the lower-cased folder path, as MediaProvider's
/// `FileUtils.computeDataValues` derives it, so a gallery groups by folder as on a phone.
fn bucket_id(folder: &str) -> i32 {
    folder
        .to_lowercase()
        .encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

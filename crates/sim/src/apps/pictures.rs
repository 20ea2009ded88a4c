//! Pictures on shared storage as the media apps show them: which files are images, the folders
//! MediaStore groups them in (its `bucket_display_name`), and decoded pixels for a screen.
//!
//! Decoding a JPEG on every frame would cost more than the rest of the frame, so decoded pictures
//! are kept in a small process-wide cache keyed by the file's host path, size, change time and
//! the size asked for; a file that changes decodes afresh, as Glide's signature key does in the
//! real apps.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::SystemTime;

use crate::apps::storage;
use crate::providers::media;
use crate::system::System;
use crate::view::Picture;

/// The extensions Simple Gallery shows as photos (`photoExtensions` of Simple Commons, the still
/// image ones the phone decodes).
const IMAGE_EXTENSIONS: [&str; 5] = [".jpg", ".jpeg", ".png", ".webp", ".bmp"];
/// How many decoded pictures the cache keeps before it starts afresh.
const CACHE_LIMIT: usize = 64;

/// Whether a file name is a still image.
pub fn is_image(name: &str) -> bool {
    let lower = name.to_lowercase();
    IMAGE_EXTENSIONS.iter().any(|e| lower.ends_with(e))
}

/// A folder holding images, as MediaStore's buckets group them.
#[derive(Debug, Clone, PartialEq)]
pub struct Folder {
    /// Android path under `/sdcard`.
    pub path: String,
    pub name: String,
    /// Its images, newest first (the gallery's default order, by date modified).
    pub images: Vec<String>,
}

/// Every folder with images, by name: MediaStore's `images/media` rows (the provider syncs with
/// the files first, so what adb pushed is there), grouped by the folder holding them.
pub fn folders(sys: &System) -> Vec<Folder> {
    let rows = media::open(sys).and_then(|conn| {
        let mut stmt = conn.prepare(
            "SELECT _data, date_modified FROM files WHERE media_type = 1 AND is_trashed = 0
             ORDER BY date_modified DESC, _data",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<i64>>(1)?.unwrap_or(0),
            ))
        })?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
    });
    let rows = match rows {
        Ok(rows) => rows,
        Err(e) => {
            tracing::warn!("gallery cannot read MediaStore: {e}");
            Vec::new()
        }
    };
    let mut by_dir: Vec<Folder> = Vec::new();
    for (data, _) in rows {
        let path = media::android_path(&data);
        if !is_image(storage::name_of(&path)) {
            continue;
        }
        let dir = storage::parent_of(&path).to_string();
        match by_dir.iter_mut().find(|f| f.path == dir) {
            Some(f) => f.images.push(path),
            None => by_dir.push(Folder {
                name: storage::name_of(&dir).to_string(),
                path: dir,
                images: vec![path],
            }),
        }
    }
    by_dir.sort_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()));
    by_dir
}

/// The images of one folder, newest first (then by name), read from the folder itself.
pub fn images_in(sys: &System, dir: &str) -> Vec<String> {
    let mut entries: Vec<storage::Entry> = storage::list(sys, dir)
        .into_iter()
        .filter(|e| !e.is_dir && is_image(&e.name))
        .collect();
    entries.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.name.cmp(&b.name)));
    entries.into_iter().map(|e| e.path).collect()
}

type Key = (PathBuf, u64, Option<SystemTime>, u32);

fn cache() -> &'static Mutex<HashMap<Key, Picture>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Picture>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The picture at `path`, scaled down so neither side exceeds `max_side` px (0: full size);
/// `None` when the file is missing or is no image the phone decodes.
pub fn load(sys: &System, path: &str, max_side: u32) -> Option<Picture> {
    let host = sys.host_path(path)?;
    let meta = std::fs::metadata(&host).ok()?;
    let key = (host.clone(), meta.len(), meta.modified().ok(), max_side);
    if let Some(p) = cache().lock().ok()?.get(&key) {
        return Some(p.clone());
    }
    let decoded = image::open(&host).ok()?;
    let decoded = if max_side > 0 && decoded.width().max(decoded.height()) > max_side {
        decoded.thumbnail(max_side, max_side)
    } else {
        decoded
    };
    let picture = Picture::new(decoded.to_rgba8());
    if let Ok(mut c) = cache().lock() {
        if c.len() >= CACHE_LIMIT {
            c.clear();
        }
        c.insert(key, picture.clone());
    }
    Some(picture)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn still_images_are_told_by_extension() {
        assert!(is_image("receipt_ab12.jpg") && is_image("Receipt.PNG") && is_image("a.jpeg"));
        assert!(!is_image("notes.md") && !is_image("clip.mp4") && !is_image("jpg"));
    }
}

//! Shared storage (`/sdcard`, = `/storage/emulated/0`) as the file apps see it: Markor's notes
//! and the Files app's folders. The apps keep nothing of their own: every listing reads the
//! phone's folder, every change is a real file operation, so `ls`, `cat`, `find` and `mv` over
//! adb see exactly what the apps show, and what adb changes shows on the next frame.
//!
//! Paths are Android paths under `/sdcard`. Each change stamps the phone's clock on the file
//! ([`System::file_times`]) as the kernel would, so `ls -l` and the apps' dates agree and a
//! moved file keeps its time.

use chrono::NaiveDateTime;

use crate::system::System;

/// Why a file operation failed, in the words the apps show.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("{0} already exists")]
    Exists(String),
    #[error("{0} does not exist")]
    Missing(String),
    #[error("invalid name: {0:?}")]
    InvalidName(String),
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// One file or folder of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub name: String,
    pub path: String,
    pub is_dir: bool,
    pub size: u64,
    /// The last change on the phone's clock.
    pub modified: NaiveDateTime,
}

/// `dir/name`.
pub fn join(dir: &str, name: &str) -> String {
    format!("{}/{name}", dir.trim_end_matches('/'))
}

/// The last component of a path.
pub fn name_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The folder holding a path (`/` for a top-level one).
pub fn parent_of(path: &str) -> &str {
    match path.trim_end_matches('/').rsplit_once('/') {
        Some(("", _)) | None => "/",
        Some((parent, _)) => parent,
    }
}

/// A name a file or folder may take: not empty, no `/`, not `.` or `..`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty() && !name.contains('/') && name != "." && name != ".."
}

fn host(sys: &System, path: &str) -> Result<std::path::PathBuf, StorageError> {
    sys.host_path(path)
        .ok_or_else(|| StorageError::InvalidName(path.to_string()))
}

fn io(path: &str) -> impl FnOnce(std::io::Error) -> StorageError + '_ {
    move |source| StorageError::Io {
        path: path.to_string(),
        source,
    }
}

/// Whether a file or folder is at `path`.
pub fn exists(sys: &System, path: &str) -> bool {
    host(sys, path).is_ok_and(|h| h.exists())
}

/// Whether `path` is a folder.
pub fn is_dir(sys: &System, path: &str) -> bool {
    host(sys, path).is_ok_and(|h| h.is_dir())
}

/// The entries of a folder by name (hidden ones, starting with `.`, left out as the apps hide
/// them); empty for a folder that is not there.
pub fn list(sys: &System, dir: &str) -> Vec<Entry> {
    let Ok(read) = host(sys, dir).and_then(|h| std::fs::read_dir(h).map_err(io(dir))) else {
        return Vec::new();
    };
    let mut entries: Vec<Entry> = read
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            if name.starts_with('.') {
                return None;
            }
            Some(entry_of(sys, join(dir, &name), &e.metadata().ok()?))
        })
        .collect();
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    entries
}

/// The entry of one file or folder, `None` when nothing is at `path`.
pub fn entry(sys: &System, path: &str) -> Option<Entry> {
    let meta = host(sys, path).ok()?.metadata().ok()?;
    Some(entry_of(sys, path.to_string(), &meta))
}

fn entry_of(sys: &System, path: String, meta: &std::fs::Metadata) -> Entry {
    Entry {
        modified: sys.file_times.modified(&path, sys.clock.now()),
        name: name_of(&path).to_string(),
        is_dir: meta.is_dir(),
        size: meta.len(),
        path,
    }
}

/// A file's text (invalid UTF-8 replaced), empty when it cannot be read.
pub fn read_text(sys: &System, path: &str) -> String {
    host(sys, path)
        .ok()
        .and_then(|h| std::fs::read(h).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

/// Writes a file's whole text, creating it when missing.
pub fn write_text(sys: &mut System, path: &str, text: &str) -> Result<(), StorageError> {
    std::fs::write(host(sys, path)?, text).map_err(io(path))?;
    let now = sys.clock.now();
    sys.file_times.stamp(path, now);
    Ok(())
}

/// Creates an empty file that must not exist yet.
pub fn create_file(sys: &mut System, path: &str) -> Result<(), StorageError> {
    if exists(sys, path) {
        return Err(StorageError::Exists(name_of(path).to_string()));
    }
    write_text(sys, path, "")
}

/// Creates a folder (and any missing parents); an existing one is an error.
pub fn create_dir(sys: &mut System, path: &str) -> Result<(), StorageError> {
    let h = host(sys, path)?;
    if h.exists() {
        return Err(StorageError::Exists(name_of(path).to_string()));
    }
    std::fs::create_dir_all(h).map_err(io(path))?;
    let now = sys.clock.now();
    sys.file_times.stamp(path, now);
    Ok(())
}

/// Makes sure a folder exists (an app's own folder at its start).
pub fn ensure_dir(sys: &mut System, path: &str) -> Result<(), StorageError> {
    if is_dir(sys, path) {
        return Ok(());
    }
    create_dir(sys, path)
}

/// Renames or moves `from` to `to`, which must not exist; the entry keeps its time, and both
/// folders change.
pub fn rename(sys: &mut System, from: &str, to: &str) -> Result<(), StorageError> {
    if !exists(sys, from) {
        return Err(StorageError::Missing(name_of(from).to_string()));
    }
    if exists(sys, to) {
        return Err(StorageError::Exists(name_of(to).to_string()));
    }
    if to.starts_with(&format!("{from}/")) {
        return Err(StorageError::InvalidName(to.to_string()));
    }
    std::fs::rename(host(sys, from)?, host(sys, to)?).map_err(io(from))?;
    let now = sys.clock.now();
    sys.file_times.moved(from, to);
    sys.file_times.stamp(parent_of(from), now);
    sys.file_times.stamp(parent_of(to), now);
    Ok(())
}

/// Writes a file's bytes (an image an app saves), creating it and its folder when missing.
pub fn write_bytes(sys: &mut System, path: &str, bytes: &[u8]) -> Result<(), StorageError> {
    let h = host(sys, path)?;
    if let Some(dir) = h.parent() {
        std::fs::create_dir_all(dir).map_err(io(path))?;
    }
    std::fs::write(h, bytes).map_err(io(path))?;
    let now = sys.clock.now();
    sys.file_times.stamp(path, now);
    sys.file_times.stamp(parent_of(path), now);
    Ok(())
}

/// Copies the file `from` to `to`, which must not exist; the copy is new (dated now), as a copy
/// through the apps' file streams is.
pub fn copy(sys: &mut System, from: &str, to: &str) -> Result<(), StorageError> {
    let src = host(sys, from)?;
    if !src.is_file() {
        return Err(StorageError::Missing(name_of(from).to_string()));
    }
    if exists(sys, to) {
        return Err(StorageError::Exists(name_of(to).to_string()));
    }
    std::fs::copy(src, host(sys, to)?).map_err(io(from))?;
    let now = sys.clock.now();
    sys.file_times.stamp(to, now);
    sys.file_times.stamp(parent_of(to), now);
    Ok(())
}

/// Deletes a file, or a folder with everything in it.
pub fn delete(sys: &mut System, path: &str) -> Result<(), StorageError> {
    let h = host(sys, path)?;
    let result = if h.is_dir() {
        std::fs::remove_dir_all(&h)
    } else {
        std::fs::remove_file(&h)
    };
    result.map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => StorageError::Missing(name_of(path).to_string()),
        _ => StorageError::Io {
            path: path.to_string(),
            source: e,
        },
    })?;
    let now = sys.clock.now();
    sys.file_times.forget(path);
    sys.file_times.stamp(parent_of(path), now);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_into_folder_and_name() {
        assert_eq!(join("/sdcard/Documents/", "a.md"), "/sdcard/Documents/a.md");
        assert_eq!(name_of("/sdcard/Documents/a.md"), "a.md");
        assert_eq!(parent_of("/sdcard/Documents/a.md"), "/sdcard/Documents");
        assert_eq!(parent_of("/sdcard"), "/");
        assert!(valid_name("notes 1.txt"));
        assert!(!valid_name("a/b") && !valid_name("..") && !valid_name(""));
    }
}

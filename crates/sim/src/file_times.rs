//! When each file of the phone last changed, on the phone's clock: what `ls -l`, `stat` and the
//! file apps show, and what AndroidWorld compares before and after a task (`ls -ll -au`, its
//! MarkorDeleteNewestNote). A write through the shell, `adb push` or an app stamps the file with
//! the phone's time, as the kernel stamps mtime, so times follow `date` and a virtual clock rather
//! than the host's. A file nothing on the phone has stamped (a database an app keeps) shows the
//! current time, as every file did before.
//!
//! Kept with the phone's services so snapshots carry it; keys are normalised Android paths
//! (`/sdcard/…` for shared storage, whatever alias wrote it).

use std::collections::BTreeMap;

use chrono::NaiveDateTime;

use super::shell::normalize_path;

#[derive(Debug, Clone, Default)]
pub struct FileTimes(BTreeMap<String, NaiveDateTime>);

impl FileTimes {
    /// The file at `path` changed at `at`.
    pub fn stamp(&mut self, path: &str, at: NaiveDateTime) {
        self.0.insert(normalize_path(path), at);
    }

    /// When the file at `path` last changed; `unknown` when nothing stamped it.
    pub fn modified(&self, path: &str, unknown: NaiveDateTime) -> NaiveDateTime {
        self.0
            .get(&normalize_path(path))
            .copied()
            .unwrap_or(unknown)
    }

    /// The file or folder at `path` is gone, with everything under it.
    pub fn forget(&mut self, path: &str) {
        let path = normalize_path(path);
        let below = format!("{}/", path.trim_end_matches('/'));
        self.0.retain(|k, _| *k != path && !k.starts_with(&below));
    }

    /// `from` was renamed to `to` (with everything under it), keeping its times; a file of that
    /// name is replaced. A rename stamps nothing on the file itself.
    pub fn moved(&mut self, from: &str, to: &str) {
        let (from, to) = (normalize_path(from), normalize_path(to));
        self.forget(&to);
        let below = format!("{}/", from.trim_end_matches('/'));
        let keys: Vec<String> = self
            .0
            .keys()
            .filter(|k| **k == from || k.starts_with(&below))
            .cloned()
            .collect();
        for k in keys {
            if let Some(t) = self.0.remove(&k) {
                self.0.insert(format!("{to}{}", &k[from.len()..]), t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(h: u32) -> NaiveDateTime {
        chrono::NaiveDate::from_ymd_opt(2024, 6, 1)
            .and_then(|d| d.and_hms_opt(h, 0, 0))
            .expect("valid")
    }

    #[test]
    fn times_follow_renames_and_deletes_under_any_alias() {
        let mut times = FileTimes::default();
        times.stamp("/storage/emulated/0/Documents/a/x.md", t(1));
        times.stamp("/sdcard/Documents/a", t(2));
        assert_eq!(times.modified("/sdcard/Documents/a/x.md", t(9)), t(1));
        times.moved("/sdcard/Documents/a", "/sdcard/Documents/b");
        assert_eq!(times.modified("/sdcard/Documents/b/x.md", t(9)), t(1));
        assert_eq!(times.modified("/sdcard/Documents/b", t(9)), t(2));
        assert_eq!(times.modified("/sdcard/Documents/a/x.md", t(9)), t(9));
        times.forget("/sdcard/Documents/b");
        assert_eq!(times.modified("/sdcard/Documents/b/x.md", t(9)), t(9));
    }
}

//! Whole-phone snapshots, as the emulator's `avd snapshot save|load|list|delete` keeps them for a
//! virtual device: every file under the phone's `/` (the apps' and providers' SQLite databases,
//! shared_prefs, `/sdcard`), the framework's state (task stack with each running app as it
//! stands, focus and IME, scroll offsets, shade, overview, display overrides), and the services'
//! (settings, logcat, AlarmManager, notifications, clipboard, calls, role holders, properties, the clock and the
//! seeded random source).
//!
//! Snapshots live in the phone's memory, never in its file tree (where `ls /` would show them),
//! and a load rewrites the tree in place, so restoring a phone costs milliseconds, much less than
//! booting a new one (`benches/sim.rs`). The phone saves [`BASELINE`] at boot, as the emulator's
//! Quickboot does. The console answers are in `console.rs`; `Phone::save_snapshot` and friends
//! are the same operations for Rust callers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::NaiveDateTime;
use rand_chacha::ChaCha8Rng;

use super::framework::{Display, Framework, Task};
use super::keyboard::KeyboardState;
use super::system::{Logcat, Notification, ScheduledAlarm, Settings, SimClock};
use super::view::Metrics;

/// The snapshot a phone saves when it has booted (the emulator's Quickboot snapshot).
pub const BASELINE: &str = "default_boot";

/// Why a snapshot operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("no snapshot named '{0}'")]
    NotFound(String),
    #[error("a snapshot needs a name")]
    EmptyName,
    #[error("cannot read the phone's files for snapshot '{name}': {source}")]
    Read {
        name: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write the phone's files from snapshot '{name}': {source}")]
    Write {
        name: String,
        #[source]
        source: std::io::Error,
    },
}

/// What `avd snapshot list` shows of one snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotInfo {
    pub name: String,
    /// Bytes of phone files it holds.
    pub size: u64,
    /// The phone's wall-clock time when it was saved.
    pub saved_at: NaiveDateTime,
    /// How long the phone had been running when it was saved.
    pub uptime: Duration,
}

/// The saved snapshots of one phone, by name.
#[derive(Default)]
pub struct Store {
    snapshots: BTreeMap<String, Snapshot>,
    /// The order they were first saved in (`avd snapshot list` lists them so; a save under an
    /// existing name keeps its place).
    order: Vec<String>,
}

struct Snapshot {
    files: Files,
    state: State,
    info: SnapshotInfo,
}

/// The phone's file tree: directories and file contents by path relative to its `/`.
struct Files {
    dirs: BTreeSet<PathBuf>,
    files: BTreeMap<PathBuf, Vec<u8>>,
}

/// The framework's and the services' state: everything but the files, the app catalog (fixed at
/// build time) and the command being run (its interrupt).
#[derive(Clone)]
struct State {
    settings: Settings,
    logcat: Logcat,
    clock: SimClock,
    metrics: Metrics,
    locale: String,
    rng: ChaCha8Rng,
    alarms: Vec<ScheduledAlarm>,
    notifications: Vec<Notification>,
    clipboard: super::clipboard::Clipboard,
    properties: BTreeMap<String, String>,
    telephony: super::telephony::Telephony,
    roles: super::roles::Roles,
    file_times: super::file_times::FileTimes,
    stack: Vec<Task>,
    focus: Option<(String, String)>,
    selection: Option<super::selection::Selection>,
    ime_visible: bool,
    keyboard: KeyboardState,
    scroll: BTreeMap<(String, String), i32>,
    screen_on: bool,
    overview: bool,
    shade_open: bool,
    display: Display,
    pending_touch: Option<(droidmcp_geom::Point, i64)>,
    next_task_id: u32,
    next_pid: u32,
}

impl Framework {
    /// Saves the whole phone as `name`, replacing a snapshot of that name.
    pub fn save_snapshot(&mut self, name: &str) -> Result<(), SnapshotError> {
        if name.is_empty() {
            return Err(SnapshotError::EmptyName);
        }
        let files = Files::read(&self.sys.root).map_err(|source| SnapshotError::Read {
            name: name.to_string(),
            source,
        })?;
        let state = self.capture();
        let info = SnapshotInfo {
            name: name.to_string(),
            size: files.size(),
            saved_at: state.clock.now(),
            uptime: state.clock.uptime(),
        };
        let store = &mut self.snapshots;
        if !store.snapshots.contains_key(name) {
            store.order.push(name.to_string());
        }
        store
            .snapshots
            .insert(name.to_string(), Snapshot { files, state, info });
        Ok(())
    }

    /// Loads the snapshot `name`: the phone becomes what it was when it was saved (a real clock
    /// takes the host's time again).
    pub fn load_snapshot(&mut self, name: &str) -> Result<(), SnapshotError> {
        let snapshot = self
            .snapshots
            .snapshots
            .get(name)
            .ok_or_else(|| SnapshotError::NotFound(name.to_string()))?;
        snapshot
            .files
            .write(&self.sys.root)
            .map_err(|source| SnapshotError::Write {
                name: name.to_string(),
                source,
            })?;
        let state = snapshot.state.clone();
        self.restore(state);
        Ok(())
    }

    /// Deletes the snapshot `name`.
    pub fn delete_snapshot(&mut self, name: &str) -> Result<(), SnapshotError> {
        let store = &mut self.snapshots;
        store
            .snapshots
            .remove(name)
            .ok_or_else(|| SnapshotError::NotFound(name.to_string()))?;
        store.order.retain(|n| n != name);
        Ok(())
    }

    /// The saved snapshots, oldest first.
    pub fn snapshots(&self) -> Vec<SnapshotInfo> {
        let store = &self.snapshots;
        store
            .order
            .iter()
            .filter_map(|n| store.snapshots.get(n))
            .map(|s| s.info.clone())
            .collect()
    }

    fn capture(&self) -> State {
        let sys = &self.sys;
        State {
            settings: sys.settings.clone(),
            logcat: sys.logcat.clone(),
            clock: sys.clock.frozen(),
            metrics: sys.metrics,
            locale: sys.locale.clone(),
            rng: sys.rng.clone(),
            alarms: sys.alarms.clone(),
            notifications: sys.notifications.clone(),
            clipboard: sys.clipboard.clone(),
            properties: sys.properties.clone(),
            telephony: sys.telephony.clone(),
            roles: sys.roles.clone(),
            file_times: sys.file_times.clone(),
            stack: self.stack.clone(),
            focus: self.focus.clone(),
            selection: self.selection.clone(),
            ime_visible: self.ime_visible,
            keyboard: self.keyboard,
            scroll: self.scroll.clone(),
            screen_on: self.screen_on,
            overview: self.overview,
            shade_open: self.shade_open,
            display: self.display,
            pending_touch: self.pending_touch,
            next_task_id: self.next_task_id,
            next_pid: self.next_pid,
        }
    }

    fn restore(&mut self, state: State) {
        let sys = &mut self.sys;
        sys.settings = state.settings;
        sys.logcat = state.logcat;
        sys.clock = state.clock.thawed();
        sys.metrics = state.metrics;
        sys.locale = state.locale;
        sys.rng = state.rng;
        sys.alarms = state.alarms;
        sys.notifications = state.notifications;
        sys.clipboard = state.clipboard;
        sys.properties = state.properties;
        sys.telephony = state.telephony;
        sys.roles = state.roles;
        sys.file_times = state.file_times;
        sys.requests.clear();
        self.stack = state.stack;
        self.focus = state.focus;
        self.selection = state.selection;
        self.ime_visible = state.ime_visible;
        self.keyboard = state.keyboard;
        self.scroll = state.scroll;
        self.screen_on = state.screen_on;
        self.overview = state.overview;
        self.shade_open = state.shade_open;
        self.display = state.display;
        self.pending_touch = state.pending_touch;
        self.next_task_id = state.next_task_id;
        self.next_pid = state.next_pid;
    }
}

impl Files {
    /// Reads the tree under `root`, sorted by path.
    fn read(root: &Path) -> std::io::Result<Files> {
        let mut files = Files {
            dirs: BTreeSet::new(),
            files: BTreeMap::new(),
        };
        let mut pending = vec![PathBuf::new()];
        while let Some(rel) = pending.pop() {
            for entry in std::fs::read_dir(root.join(&rel))? {
                let entry = entry?;
                let path = rel.join(entry.file_name());
                if entry.file_type()?.is_dir() {
                    files.dirs.insert(path.clone());
                    pending.push(path);
                } else {
                    files
                        .files
                        .insert(path.clone(), std::fs::read(root.join(&path))?);
                }
            }
        }
        Ok(files)
    }

    fn size(&self) -> u64 {
        self.files.values().map(|f| f.len() as u64).sum()
    }

    /// Makes the tree under `root` equal to this image: removes what it does not hold, creates its
    /// directories, and rewrites the files whose contents differ.
    fn write(&self, root: &Path) -> std::io::Result<()> {
        let mut pending = vec![PathBuf::new()];
        while let Some(rel) = pending.pop() {
            for entry in std::fs::read_dir(root.join(&rel))? {
                let entry = entry?;
                let path = rel.join(entry.file_name());
                let host = root.join(&path);
                if entry.file_type()?.is_dir() {
                    if self.dirs.contains(&path) {
                        pending.push(path);
                    } else {
                        std::fs::remove_dir_all(host)?;
                    }
                } else if !self.files.contains_key(&path) {
                    std::fs::remove_file(host)?;
                }
            }
        }
        for dir in &self.dirs {
            std::fs::create_dir_all(root.join(dir))?;
        }
        for (path, data) in &self.files {
            let host = root.join(path);
            // Unchanged files (most of them, between two episodes) are only compared; a database
            // an app wrote is put back whole.
            match std::fs::read(&host) {
                Ok(current) if current == *data => {}
                _ => std::fs::write(host, data)?,
            }
        }
        Ok(())
    }
}

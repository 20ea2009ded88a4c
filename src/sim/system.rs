//! Services the embedded phone's framework offers its apps: settings, logcat, the simulated clock,
//! the filesystem (real files under a private host directory, addressed by Android paths), a seeded
//! random source, screen metrics, and requests back to the framework.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use rand_chacha::ChaCha8Rng;

use super::view::Metrics;

/// The three `settings` namespaces, as `settings get|put|list` address them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Namespace {
    Global,
    Secure,
    System,
}

impl Namespace {
    pub fn parse(s: &str) -> Option<Namespace> {
        match s {
            "global" => Some(Namespace::Global),
            "secure" => Some(Namespace::Secure),
            "system" => Some(Namespace::System),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Namespace::Global => "global",
            Namespace::Secure => "secure",
            Namespace::System => "system",
        }
    }
}

/// Android's settings provider: string values per namespace.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    values: BTreeMap<(Namespace, String), String>,
}

impl Settings {
    pub fn get(&self, ns: Namespace, key: &str) -> Option<&str> {
        self.values.get(&(ns, key.to_string())).map(String::as_str)
    }

    pub fn put(&mut self, ns: Namespace, key: &str, value: impl Into<String>) {
        self.values.insert((ns, key.to_string()), value.into());
    }

    pub fn delete(&mut self, ns: Namespace, key: &str) -> bool {
        self.values.remove(&(ns, key.to_string())).is_some()
    }

    /// `key=value` pairs of one namespace in key order, as `settings list` prints them.
    pub fn list(&self, ns: Namespace) -> impl Iterator<Item = (&str, &str)> {
        self.values
            .iter()
            .filter(move |((n, _), _)| *n == ns)
            .map(|((_, k), v)| (k.as_str(), v.as_str()))
    }

    /// An integer setting, or `default` when it is missing or not a number.
    pub fn get_int(&self, ns: Namespace, key: &str, default: i64) -> i64 {
        self.get(ns, key)
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(default)
    }
}

/// One logcat entry.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    pub time: NaiveDateTime,
    pub pid: u32,
    pub tid: u32,
    /// V, D, I, W, E, F.
    pub level: char,
    pub tag: String,
    pub message: String,
}

/// Logcat's main buffer: a bounded ring, oldest entries dropped first.
#[derive(Debug, Clone)]
pub struct Logcat {
    pub entries: std::collections::VecDeque<LogEntry>,
    pub capacity: usize,
}

impl Default for Logcat {
    fn default() -> Self {
        Logcat {
            entries: Default::default(),
            capacity: 20_000,
        }
    }
}

/// The simulated wall clock: moves only when the phone is told to (input events, `sleep`, `date -s`),
/// so the same commands on the same seed give the same bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimClock {
    pub now: NaiveDateTime,
}

impl SimClock {
    pub fn advance_ms(&mut self, ms: i64) {
        self.now += chrono::Duration::milliseconds(ms);
    }
}

/// Something an app asks of the framework, carried out after the event that raised it.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Start an app's launcher activity (or bring it to front).
    Launch { package: String },
    /// Move input focus (and the IME) to the editable view with this tag.
    Focus { tag: String },
    /// Hide the IME and clear focus.
    ClearFocus,
    /// Finish the requesting app (as if back left it).
    Finish,
    /// Reset the named scroll container to the top.
    ResetScroll { tag: String },
}

/// Everything an app may use. Owned by the phone; lent to apps during render and event handling.
pub struct System {
    pub settings: Settings,
    pub logcat: Logcat,
    pub clock: SimClock,
    pub metrics: Metrics,
    pub locale: String,
    pub rng: ChaCha8Rng,
    /// Host directory that stands for the phone's `/`.
    pub root: PathBuf,
    pub requests: Vec<Request>,
}

impl System {
    /// The host path backing an absolute Android path; `None` for paths that escape the root.
    pub fn host_path(&self, android_path: &str) -> Option<PathBuf> {
        let mut out = self.root.clone();
        for part in Path::new(android_path).components() {
            match part {
                std::path::Component::RootDir | std::path::Component::CurDir => {}
                std::path::Component::Normal(p) => out.push(p),
                std::path::Component::ParentDir | std::path::Component::Prefix(_) => return None,
            }
        }
        Some(out)
    }

    /// Opens (creating parent directories) the SQLite database at an Android path.
    pub fn open_db(&self, android_path: &str) -> rusqlite::Result<rusqlite::Connection> {
        let path = self
            .host_path(android_path)
            .ok_or_else(|| rusqlite::Error::InvalidPath(PathBuf::from(android_path)))?;
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        rusqlite::Connection::open(path)
    }

    /// Appends a logcat line as the given process would write it.
    pub fn log(&mut self, pid: u32, level: char, tag: &str, message: impl Into<String>) {
        let entry = LogEntry {
            time: self.clock.now,
            pid,
            tid: pid,
            level,
            tag: tag.to_string(),
            message: message.into(),
        };
        if self.logcat.entries.len() >= self.logcat.capacity {
            self.logcat.entries.pop_front();
        }
        self.logcat.entries.push_back(entry);
    }

    pub fn request(&mut self, request: Request) {
        self.requests.push(request);
    }
}

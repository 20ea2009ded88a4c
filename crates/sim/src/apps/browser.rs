//! A minimal Chrome: it handles `VIEW` intents for http(s) addresses (`am start -a
//! android.intent.action.VIEW -d URL`, mobile-mcp's open-url, adbutils' `open_browser`) and
//! addresses typed into its omnibox, and records every page it is asked to open in Chrome's own
//! History database (`urls` and `visits`), where a task check can read it with `sqlite3`.
//!
//! The embedded phone has no network, so a web page shows Chrome's offline error, as a real phone
//! in airplane mode would; what a check can verify is which address was opened. Local pages
//! (`file:///sdcard/…`, or an HTML file Files hands over) are shown: the page engine runs their
//! scripts and the tab ([`tab`]) draws them and takes their taps, strokes and typing.

mod tab;

use crate::app::{App, AppInfo, Intent, UiEvent};
use crate::apps::storage;
use crate::system::{Request, System};
use crate::view::{class, Role, Style, View};

pub const PACKAGE: &str = "com.android.chrome";
pub const ACTIVITY: &str = "com.google.android.apps.chrome.Main";
/// Chrome keeps the profile's history here (an SQLite file).
pub const HISTORY_DB: &str = "/data/data/com.android.chrome/app_chrome/Default/History";
const ID: &str = "com.android.chrome:id/";

/// `PageTransition`: LINK, marked as coming from outside the browser (an intent).
const TRANSITION_FROM_API: i64 = 0x0100_0000;
/// `PageTransition`: TYPED into the omnibox.
const TRANSITION_TYPED: i64 = 1;

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |sys| Box::new(Browser::open(sys)),
        install,
        on_home_screen: false,
    }
}

fn install(sys: &mut System) {
    if let Ok(conn) = sys.open_db(HISTORY_DB) {
        let _ = create_schema(&conn);
    }
}

fn create_schema(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS urls(id INTEGER PRIMARY KEY AUTOINCREMENT,url LONGVARCHAR,title LONGVARCHAR,visit_count INTEGER DEFAULT 0 NOT NULL,typed_count INTEGER DEFAULT 0 NOT NULL,last_visit_time INTEGER NOT NULL,hidden INTEGER DEFAULT 0 NOT NULL);
         CREATE INDEX IF NOT EXISTS urls_url_index ON urls (url);
         CREATE TABLE IF NOT EXISTS visits(id INTEGER PRIMARY KEY AUTOINCREMENT,url INTEGER NOT NULL,visit_time INTEGER NOT NULL,from_visit INTEGER,transition INTEGER DEFAULT 0 NOT NULL,segment_id INTEGER,visit_duration INTEGER DEFAULT 0 NOT NULL);
         CREATE INDEX IF NOT EXISTS visits_url_index ON visits (url);",
    )
}

/// Chrome's timestamps: microseconds since 1601-01-01 UTC.
fn chrome_time(sys: &System) -> i64 {
    const EPOCH_DELTA_US: i64 = 11_644_473_600_000_000;
    sys.now_millis() * 1000 + EPOCH_DELTA_US
}

/// Records a visit; returns false when the history could not be written.
fn record_visit(sys: &System, url: &str, transition: i64) -> bool {
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
fn last_visited(sys: &System) -> Option<String> {
    let conn = sys.open_db(HISTORY_DB).ok()?;
    conn.query_row(
        "SELECT urls.url FROM visits JOIN urls ON urls.id = visits.url ORDER BY visits.id DESC LIMIT 1",
        [],
        |r| r.get(0),
    )
    .ok()
}

/// What the omnibox makes of typed text: an address (https:// added) or a Google search.
pub fn omnibox_target(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    if ["http://", "https://", "file://", "content://"]
        .iter()
        .any(|s| lower.starts_with(s))
    {
        return Some(t.to_string());
    }
    if !t.contains(' ') && t.contains('.') && !t.starts_with('.') && !t.ends_with('.') {
        return Some(format!("https://{t}"));
    }
    let query: String = t
        .bytes()
        .map(|b| match b {
            b' ' => "+".to_string(),
            b if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect();
    Some(format!("https://www.google.com/search?q={query}"))
}

/// The address as the omnibox shows it when not editing (no scheme, no trailing slash).
fn display_url(url: &str) -> String {
    let no_scheme = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .unwrap_or(url);
    no_scheme.strip_suffix('/').unwrap_or(no_scheme).to_string()
}

/// The document of the external storage provider's `primary` root (what Files hands to the app
/// that opens a file) or a `file://` address: the file it names on shared storage.
pub fn local_path(url: &str) -> Option<String> {
    const DOCUMENT: &str = "content://com.android.externalstorage.documents/document/primary%3A";
    if let Some(rest) = url.strip_prefix(DOCUMENT) {
        return Some(format!("/sdcard/{}", percent_decode(rest)));
    }
    let path = percent_decode(url.strip_prefix("file://")?);
    let path = match path.strip_prefix("/storage/emulated/0") {
        Some(rest) => format!("/sdcard{rest}"),
        None => path,
    };
    path.starts_with('/').then_some(path)
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What the content area shows for the current address.
#[derive(Clone)]
enum Shown {
    NewTab,
    /// A web address: the phone has no network.
    Offline,
    /// A local page, running.
    Page(Box<tab::Tab>),
    /// A local address whose file cannot be read (`ERR_FILE_NOT_FOUND`).
    FileError,
}

#[derive(Clone)]
struct Browser {
    url: Option<String>,
    shown: Shown,
    /// Omnibox text while the user edits it.
    editing: Option<String>,
}

impl Browser {
    fn open(sys: &mut System) -> Browser {
        let url = last_visited(sys);
        let shown = url.as_deref().map_or(Shown::NewTab, |u| show(sys, u));
        Browser {
            url,
            shown,
            editing: None,
        }
    }

    fn navigate(&mut self, sys: &mut System, url: String, transition: i64) {
        record_visit(sys, &url, transition);
        sys.log(
            crate::system::pid::SYSTEM_SERVER,
            'I',
            "cr_ChromeTabbedActivity",
            format!("Loading {url}"),
        );
        self.shown = show(sys, &url);
        self.url = Some(url);
        self.editing = None;
    }
}

/// Loads what an address shows: a local page from shared storage, else the offline error.
fn show(sys: &mut System, url: &str) -> Shown {
    let Some(path) = local_path(url) else {
        return Shown::Offline;
    };
    if !storage::exists(sys, &path) || storage::is_dir(sys, &path) {
        return Shown::FileError;
    }
    let source = storage::read_text(sys, &path);
    let device_width = sys.metrics.width as f32 / sys.metrics.density;
    match tab::Tab::load(source, device_width) {
        Ok(tab) => {
            for e in tab.errors() {
                sys.log(
                    crate::system::pid::SYSTEM_SERVER,
                    'E',
                    "chromium",
                    format!("Uncaught {e}"),
                );
            }
            Shown::Page(Box::new(tab))
        }
        Err(e) => {
            sys.log(
                crate::system::pid::SYSTEM_SERVER,
                'E',
                "chromium",
                format!("page engine: {e}"),
            );
            Shown::FileError
        }
    }
}

/// Where the page is drawn: the content area below the toolbar.
fn page_area(sys: &System) -> droidmcp_geom::Bounds {
    let m = &sys.metrics;
    let c = m.content;
    droidmcp_geom::Bounds::new(c.left, c.top + m.dp(56.0), c.right, c.bottom)
}

impl App for Browser {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        ACTIVITY.into()
    }

    fn render(&self, sys: &System) -> View {
        let m = &sys.metrics;
        let c = m.content;
        let bar_h = m.dp(56.0);
        let bar = droidmcp_geom::Bounds::new(c.left, c.top, c.right, c.top + bar_h);
        let field = droidmcp_geom::Bounds::new(
            c.left + m.dp(12.0),
            c.top + m.dp(8.0),
            c.right - m.dp(12.0),
            c.top + bar_h - m.dp(8.0),
        );
        let omnibox_text = match (&self.editing, &self.url) {
            (Some(t), _) => t.clone(),
            (None, Some(u)) => display_url(u),
            (None, None) => String::new(),
        };
        let toolbar = View::new(class::FRAME_LAYOUT, bar)
            .id(format!("{ID}toolbar"))
            .style(Style {
                background_role: Some(Role::Surface),
                ..Style::default()
            })
            .child(
                View::new(class::EDIT_TEXT, field)
                    .id(format!("{ID}url_bar"))
                    .text(omnibox_text)
                    .hint("Search or type URL")
                    .editable("url_bar")
                    .style(Style {
                        text_size_sp: Some(16.0),
                        corner_radius: m.dp(20.0),
                        background_role: Some(Role::SurfaceVariant),
                        ..Style::default()
                    }),
            );
        let page = page_area(sys);
        let line = |i: i32, text: &str, size: f32| {
            let top = page.top + m.dp(48.0) + i * m.dp(32.0);
            View::new(
                class::TEXT_VIEW,
                droidmcp_geom::Bounds::new(
                    page.left + m.dp(24.0),
                    top,
                    page.right - m.dp(24.0),
                    top + m.dp(28.0),
                ),
            )
            .text(text)
            .style(Style {
                text_size_sp: Some(size),
                ..Style::default()
            })
        };
        let content = match &self.shown {
            Shown::Offline => View::new("android.webkit.WebView", page).children([
                line(0, "No internet", 22.0),
                line(1, "Try:", 16.0),
                line(2, "Checking the network cables, modem, and router", 14.0),
                line(3, "Reconnecting to Wi-Fi", 14.0),
                line(4, "ERR_INTERNET_DISCONNECTED", 12.0),
            ]),
            Shown::FileError => View::new("android.webkit.WebView", page).children([
                line(0, "Your file couldn’t be accessed", 22.0),
                line(1, "It may have been moved, edited, or deleted.", 14.0),
                line(2, "ERR_FILE_NOT_FOUND", 12.0),
            ]),
            Shown::Page(tab) => tab.render(sys, page),
            Shown::NewTab => View::new(class::FRAME_LAYOUT, page)
                .id(format!("{ID}ntp_content"))
                .child(line(0, "New tab", 22.0)),
        };
        View::new(class::FRAME_LAYOUT, c)
            .id(format!("{ID}coordinator"))
            .style(Style {
                background_role: Some(Role::Surface),
                ..Style::default()
            })
            .child(toolbar)
            .child(content)
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if let Shown::Page(tab) = &mut self.shown {
            if tab.handle(event, sys, page_area(sys)) {
                return true;
            }
        }
        match event {
            UiEvent::Click(tag) if tag == "url_bar" => {
                self.editing = Some(self.url.clone().unwrap_or_default());
                sys.request(Request::Focus {
                    tag: "url_bar".into(),
                });
                true
            }
            UiEvent::TextChanged { tag, text } if tag == "url_bar" => {
                self.editing = Some(text.clone());
                true
            }
            UiEvent::EditorAction(tag) if tag == "url_bar" => {
                let typed = self.editing.clone().unwrap_or_default();
                if let Some(url) = omnibox_target(&typed) {
                    self.navigate(sys, url, TRANSITION_TYPED);
                }
                sys.request(Request::ClearFocus);
                true
            }
            UiEvent::Back if self.editing.is_some() => {
                self.editing = None;
                sys.request(Request::ClearFocus);
                true
            }
            _ => false,
        }
    }

    fn new_intent(&mut self, intent: &Intent, sys: &mut System) {
        if intent.action.as_deref() != Some("android.intent.action.VIEW") {
            return;
        }
        if let Some(url) = intent.data.as_deref().filter(|d| {
            let lower = d.to_ascii_lowercase();
            lower.starts_with("http://") || lower.starts_with("https://") || local_path(d).is_some()
        }) {
            self.navigate(sys, url.to_string(), TRANSITION_FROM_API);
        }
    }
}

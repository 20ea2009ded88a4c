//! A minimal Chrome: it handles `VIEW` intents for http(s) addresses (`am start -a
//! android.intent.action.VIEW -d URL`, mobile-mcp's open-url, adbutils' `open_browser`) and
//! addresses typed into its omnibox, and records every page it is asked to open in Chrome's own
//! History database ([`history`]), where a task check can read it with `sqlite3`.
//!
//! The embedded phone has no network, so a web page shows Chrome's offline error, as a real phone
//! in airplane mode would; what a check can verify is which address was opened. Local pages
//! (`file:///sdcard/…`, or an HTML file Files hands over) are shown: the page engine runs their
//! scripts and the tab ([`tab`]) draws them and takes their taps, strokes and typing.
//!
//! Tabs are Chrome's: New tab (the toolbar's button or the app menu), the tab switcher (a grid
//! of the open tabs, each closable), an intent from another app opening its page in a tab of its
//! own; and the app menu's History opens HistoryActivity, whose entries open again in the tab.

mod history;
mod screens;
mod tab;

use crate::app::{App, AppInfo, Intent, UiEvent};
use crate::apps::storage;
use crate::system::{Request, System};
use crate::view::{class, Role, Style, View};

pub use history::HISTORY_DB;
use history::{TRANSITION_AUTO_BOOKMARK, TRANSITION_FROM_API, TRANSITION_TYPED};

pub const PACKAGE: &str = "com.android.chrome";
pub const ACTIVITY: &str = "com.google.android.apps.chrome.Main";
/// The History page is an activity of its own on phones.
pub const HISTORY_ACTIVITY: &str = "org.chromium.chrome.browser.history.HistoryActivity";
const ID: &str = "com.android.chrome:id/";
/// Chrome's process (the START line's uid is its app id).
const UID: u32 = 10013;

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
        let _ = history::create_schema(&conn);
    }
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

/// What a tab's content area shows for its address.
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

/// One open tab: its address (none on a new tab's page) and what it shows.
#[derive(Clone)]
struct BrowserTab {
    url: Option<String>,
    shown: Shown,
}

impl BrowserTab {
    fn blank() -> BrowserTab {
        BrowserTab {
            url: None,
            shown: Shown::NewTab,
        }
    }
}

/// Which of Chrome's screens is in front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Screen {
    Tab,
    Switcher,
    History,
}

#[derive(Clone)]
struct Browser {
    /// Never empty while a tab is shown; the switcher can close the last one.
    tabs: Vec<BrowserTab>,
    current: usize,
    screen: Screen,
    /// The app menu is dropped.
    menu: bool,
    /// Omnibox text while the user edits it.
    editing: Option<String>,
}

impl Browser {
    /// Chrome reopens its last page in one tab.
    fn open(sys: &mut System) -> Browser {
        let url = history::last_visited(sys);
        let shown = url.as_deref().map_or(Shown::NewTab, |u| show(sys, u));
        Browser {
            tabs: vec![BrowserTab { url, shown }],
            current: 0,
            screen: Screen::Tab,
            menu: false,
            editing: None,
        }
    }

    fn tab_mut(&mut self) -> &mut BrowserTab {
        if self.tabs.is_empty() {
            self.tabs.push(BrowserTab::blank());
            self.current = 0;
        }
        let last = self.tabs.len() - 1;
        &mut self.tabs[self.current.min(last)]
    }

    fn navigate(&mut self, sys: &mut System, url: String, transition: i64) {
        history::record_visit(sys, &url, transition);
        sys.log(
            crate::system::pid::SYSTEM_SERVER,
            'I',
            "cr_ChromeTabbedActivity",
            format!("Loading {url}"),
        );
        let shown = show(sys, &url);
        let tab = self.tab_mut();
        tab.shown = shown;
        tab.url = Some(url);
        self.editing = None;
        self.screen = Screen::Tab;
    }

    fn new_tab(&mut self) {
        self.tabs.push(BrowserTab::blank());
        self.current = self.tabs.len() - 1;
        self.screen = Screen::Tab;
        self.editing = None;
    }

    fn open_history(&mut self, sys: &mut System) {
        sys.log(
            crate::system::pid::SYSTEM_SERVER,
            'I',
            "ActivityTaskManager",
            format!("START u0 {{cmp={PACKAGE}/{HISTORY_ACTIVITY}}} from uid {UID}"),
        );
        self.screen = Screen::History;
    }

    fn close_tab(&mut self, index: usize) {
        if index >= self.tabs.len() {
            return;
        }
        self.tabs.remove(index);
        if self.current > index || self.current >= self.tabs.len() {
            self.current = self.current.saturating_sub(1);
        }
    }

    /// Events on the toolbar and the app menu, over a tab.
    fn handle_tab(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if self.menu {
            match event {
                UiEvent::Click(tag) if tag == "menu_new_tab" => self.new_tab(),
                UiEvent::Click(tag) if tag == "menu_history" => self.open_history(sys),
                UiEvent::Click(_) | UiEvent::Back => {}
                _ => return false,
            }
            self.menu = false;
            return true;
        }
        if let Some(BrowserTab {
            shown: Shown::Page(page),
            ..
        }) = self.tabs.get_mut(self.current)
        {
            if page.handle(event, sys, page_area(sys)) {
                return true;
            }
        }
        match event {
            UiEvent::Click(tag) if tag == "url_bar" => {
                self.editing = Some(self.tab_mut().url.clone().unwrap_or_default());
                sys.request(Request::Focus {
                    tag: "url_bar".into(),
                });
            }
            UiEvent::TextChanged { tag, text } if tag == "url_bar" => {
                self.editing = Some(text.clone());
            }
            UiEvent::EditorAction(tag) if tag == "url_bar" => {
                let typed = self.editing.clone().unwrap_or_default();
                if let Some(url) = omnibox_target(&typed) {
                    self.navigate(sys, url, TRANSITION_TYPED);
                }
                sys.request(Request::ClearFocus);
            }
            UiEvent::Back if self.editing.is_some() => {
                self.editing = None;
                sys.request(Request::ClearFocus);
            }
            UiEvent::Click(tag) if tag == "new_tab" => self.new_tab(),
            UiEvent::Click(tag) if tag == "tab_switcher" => {
                self.editing = None;
                self.screen = Screen::Switcher;
            }
            UiEvent::Click(tag) if tag == "menu" => self.menu = true,
            _ => return false,
        }
        true
    }

    fn handle_switcher(&mut self, event: &UiEvent) -> bool {
        match event {
            UiEvent::Click(tag) if tag == "new_tab" => self.new_tab(),
            UiEvent::Click(tag) if tag.starts_with("close_tab:") => {
                if let Ok(i) = tag["close_tab:".len()..].parse() {
                    self.close_tab(i);
                }
            }
            UiEvent::Click(tag) if tag.starts_with("tab:") => {
                if let Ok(i) = tag["tab:".len()..].parse::<usize>() {
                    if i < self.tabs.len() {
                        self.current = i;
                        self.screen = Screen::Tab;
                    }
                }
            }
            // With no tab left, Back leaves Chrome, as it does.
            UiEvent::Back if !self.tabs.is_empty() => self.screen = Screen::Tab,
            _ => return false,
        }
        true
    }

    fn handle_history(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Click(tag) if tag.starts_with("visit:") => {
                let entry = tag["visit:".len()..]
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| history::entries(sys).into_iter().nth(i));
                if let Some(entry) = entry {
                    self.navigate(sys, entry.url, TRANSITION_AUTO_BOOKMARK);
                }
            }
            UiEvent::Click(tag) if tag == "up" => self.screen = Screen::Tab,
            UiEvent::Back => self.screen = Screen::Tab,
            _ => return false,
        }
        true
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
    let c = sys.metrics.content;
    droidmcp_geom::Bounds::new(c.left, c.top + screens::bar_height(sys), c.right, c.bottom)
}

/// A tab's content: the page, Chrome's error pages or the new tab page.
fn content(sys: &System, shown: &Shown) -> View {
    let m = &sys.metrics;
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
    match shown {
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
    }
}

impl App for Browser {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.screen {
            Screen::History => HISTORY_ACTIVITY.into(),
            Screen::Tab | Screen::Switcher => ACTIVITY.into(),
        }
    }

    fn render(&self, sys: &System) -> View {
        match self.screen {
            Screen::Switcher => return screens::switcher(sys, &self.tabs, self.current),
            Screen::History => return screens::history(sys, &history::entries(sys)),
            Screen::Tab => {}
        }
        let blank = BrowserTab::blank();
        let tab = self
            .tabs
            .get(self.current)
            .or(self.tabs.last())
            .unwrap_or(&blank);
        let omnibox_text = match (&self.editing, &tab.url) {
            (Some(t), _) => t.clone(),
            (None, Some(u)) => display_url(u),
            (None, None) => String::new(),
        };
        let screen = View::new(class::FRAME_LAYOUT, sys.metrics.content)
            .id(format!("{ID}coordinator"))
            .style(Style {
                background_role: Some(Role::Surface),
                ..Style::default()
            })
            .child(screens::toolbar(sys, omnibox_text, self.tabs.len().max(1)))
            .child(content(sys, &tab.shown));
        if self.menu {
            screen.child(screens::menu(sys))
        } else {
            screen
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match self.screen {
            Screen::Tab => self.handle_tab(event, sys),
            Screen::Switcher => self.handle_switcher(event),
            Screen::History => self.handle_history(event, sys),
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
            // An intent from another app opens in a tab of its own (Chrome's FROM_EXTERNAL_APP
            // launch); a new tab's empty page is used rather than kept beside it.
            let blank = matches!(
                self.tabs.get(self.current),
                Some(BrowserTab { url: None, .. })
            );
            if !blank {
                self.new_tab();
            }
            self.menu = false;
            self.navigate(sys, url.to_string(), TRANSITION_FROM_API);
        }
    }
}

//! VLC for Android (`org.videolan.vlc`, 3.5.4, the version code 13050408 AndroidWorld installs):
//! MainActivity's Video tab lists the videos its media library found (by title: the file name
//! without extension, with length), Browse walks Internal memory's folders (files by name), and
//! Playlists lists playlists and their media in order. A long press starts the selection, whose
//! action bar's "Add to playlist" opens the bottom sheet `SavePlaylistDialog`: a new playlist's
//! name and Create (a name that exists adds to that playlist), or one of the existing playlists.
//! Media already in the target playlist bring up `DuplicationWarningDialog` ("Add all" / "Add new
//! only" / "Cancel", or "Add" / "Cancel" when all are there); tapping outside a sheet cancels it.
//!
//! The media library is `app_db/vlc_media.db` ([`store`]): on every frame and event the app's
//! discoverer brings `Media` in step with MediaStore's audio and video files, as VLC's scan does
//! when it starts, so files AndroidWorld pushes (and its emptied tables) are seen at once.

mod screens;
pub mod store;

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::storage;
use crate::apps::widgets::install_store;
use crate::locale;
use crate::system::{Request, System};
use crate::view::View;

pub const PACKAGE: &str = "org.videolan.vlc";
pub const MAIN_ACTIVITY: &str = "org.videolan.vlc.gui.MainActivity";
/// The launcher entry: StartActivity, which opens MainActivity.
pub const LAUNCH_ACTIVITY: &str = "org.videolan.vlc.StartActivity";
/// Internal memory, the Browse tab's root.
const INTERNAL: &str = "/sdcard";
const PID: u32 = 4388;
const LOG_TAG: &str = "VLC";

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: LAUNCH_ACTIVITY,
        create: |_| Box::new(Vlc::default()),
        // VLC makes its media library on first start; the phone makes it at install, so
        // AndroidWorld's `table_exists` finds it after every `pm clear`.
        install: |sys| install_store(sys, store::open, store::DB_PATH, PID, LOG_TAG),
        on_home_screen: false,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Tab {
    #[default]
    Video,
    Browse,
    Playlists,
}

#[derive(Debug, Clone, PartialEq)]
enum Dialog {
    /// SavePlaylistDialog for these media; the new playlist's name.
    AddTo { media: Vec<i64>, name: String },
    /// DuplicationWarningDialog: adding `media` to `playlist`, `dups` of them already there.
    Duplicates {
        playlist: i64,
        media: Vec<i64>,
        dups: Vec<i64>,
    },
}

#[derive(Debug, Clone, Default)]
struct Vlc {
    tab: Tab,
    /// The Browse tab's folder (`None`: its root, the storages).
    dir: Option<String>,
    /// The playlist open in the Playlists tab.
    playlist: Option<i64>,
    /// Media picked in the selection, in the order they were picked.
    selected: Vec<i64>,
    dialog: Option<Dialog>,
}

impl Vlc {
    fn fail(sys: &mut System, what: &str, e: impl std::fmt::Display) {
        sys.log(PID, 'E', LOG_TAG, format!("{what}: {e}"));
    }

    fn library(sys: &System) -> Option<rusqlite::Connection> {
        let conn = store::open(sys).ok()?;
        if let Err(e) = store::discover(sys, &conn) {
            let _ = e;
        }
        Some(conn)
    }

    fn toggle(&mut self, media: i64) {
        match self.selected.iter().position(|m| *m == media) {
            Some(i) => {
                self.selected.remove(i);
            }
            None => self.selected.push(media),
        }
    }

    /// Adds `media` to `playlist`, or warns first when some are already there.
    fn add(&mut self, sys: &mut System, playlist: i64, media: Vec<i64>) {
        let Some(conn) = Self::library(sys) else {
            return;
        };
        let dups = store::already_in(&conn, playlist, &media);
        if dups.is_empty() {
            if let Err(e) = store::append(&conn, playlist, &media) {
                Self::fail(sys, "add to playlist", e);
            }
            self.dialog = None;
        } else {
            self.dialog = Some(Dialog::Duplicates {
                playlist,
                media,
                dups,
            });
        }
        sys.request(Request::ClearFocus);
    }

    fn handle_dialog(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Some(dialog) = self.dialog.clone() else {
            return false;
        };
        if matches!(event, UiEvent::Back)
            || matches!(event, UiEvent::Click(t) if t == "outside" || t == "cancel_button")
        {
            self.dialog = None;
            sys.request(Request::ClearFocus);
            return true;
        }
        match (dialog, event) {
            (Dialog::AddTo { media, .. }, UiEvent::TextChanged { tag, text })
                if tag == "playlist_name" =>
            {
                self.dialog = Some(Dialog::AddTo {
                    media,
                    name: text.clone(),
                });
            }
            (Dialog::AddTo { .. }, UiEvent::Click(tag)) if tag == "playlist_name" => {}
            (Dialog::AddTo { media, name }, UiEvent::Click(tag) | UiEvent::EditorAction(tag))
                if tag == "save" || tag == "playlist_name" =>
            {
                let name = name.trim().to_string();
                if name.is_empty() {
                    return true;
                }
                let Some(conn) = Self::library(sys) else {
                    return true;
                };
                let now = sys.clock.now().and_utc().timestamp();
                let playlist = match store::playlist_by_name(&conn, &name) {
                    Some(p) => Ok(p),
                    None => store::create_playlist(&conn, &name, now),
                };
                match playlist {
                    Ok(p) => self.add(sys, p, media),
                    Err(e) => Self::fail(sys, "create playlist", e),
                }
            }
            (Dialog::AddTo { media, .. }, UiEvent::Click(tag)) if tag.starts_with("add_to:") => {
                if let Ok(p) = tag["add_to:".len()..].parse() {
                    self.add(sys, p, media);
                }
            }
            (
                Dialog::Duplicates {
                    playlist,
                    media,
                    dups,
                },
                UiEvent::Click(tag),
            ) if tag == "add_all_button" || tag == "add_new_button" => {
                let adding: Vec<i64> = if tag == "add_all_button" {
                    media
                } else {
                    media.into_iter().filter(|m| !dups.contains(m)).collect()
                };
                if let Some(conn) = Self::library(sys) {
                    if let Err(e) = store::append(&conn, playlist, &adding) {
                        Self::fail(sys, "add to playlist", e);
                    }
                }
                self.dialog = None;
            }
            _ => return false,
        }
        true
    }

    fn handle_main(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Back if !self.selected.is_empty() => self.selected.clear(),
            UiEvent::Back if self.tab == Tab::Playlists && self.playlist.is_some() => {
                self.playlist = None;
            }
            UiEvent::Back if self.tab == Tab::Browse && self.dir.is_some() => self.go_up(),
            UiEvent::Back => return false,
            UiEvent::Click(tag) if tag == "up" => match self.tab {
                Tab::Playlists => self.playlist = None,
                Tab::Browse => self.go_up(),
                Tab::Video => {}
            },
            UiEvent::Click(tag) if tag.starts_with("tab:") => {
                self.tab = match &tag[4..] {
                    "browse" => Tab::Browse,
                    "playlists" => Tab::Playlists,
                    _ => Tab::Video,
                };
                self.selected.clear();
                self.playlist = None;
                sys.request(Request::ResetScroll { tag: "list".into() });
            }
            UiEvent::Click(tag) if tag == "sel_close" => self.selected.clear(),
            UiEvent::Click(tag) if tag == "sel_add_to_playlist" && !self.selected.is_empty() => {
                self.dialog = Some(Dialog::AddTo {
                    media: std::mem::take(&mut self.selected),
                    name: String::new(),
                });
            }
            UiEvent::Click(tag) if tag == "storage:internal" => {
                self.dir = Some(INTERNAL.to_string());
                sys.request(Request::ResetScroll { tag: "list".into() });
            }
            UiEvent::Click(tag) if tag.starts_with("folder:") => {
                if let Some(dir) = &self.dir {
                    let target = storage::join(dir, &tag["folder:".len()..]);
                    if storage::is_dir(sys, &target) {
                        self.dir = Some(target);
                        sys.request(Request::ResetScroll { tag: "list".into() });
                    }
                }
            }
            UiEvent::Click(tag) if tag.starts_with("playlist:") => {
                self.playlist = tag["playlist:".len()..].parse().ok();
            }
            UiEvent::LongClick(tag) if tag.starts_with("media:") => {
                if let Ok(m) = tag["media:".len()..].parse() {
                    self.toggle(m);
                }
            }
            UiEvent::Click(tag) if tag.starts_with("media:") => {
                if let Ok(m) = tag["media:".len()..].parse() {
                    if !self.selected.is_empty() {
                        self.toggle(m);
                    }
                }
            }
            // The toolbar and other plain views take taps without effect.
            UiEvent::Click(_) => {}
            _ => return false,
        }
        true
    }

    fn go_up(&mut self) {
        self.dir = match self.dir.take() {
            Some(d) if d != INTERNAL => Some(storage::parent_of(&d).to_string()),
            _ => None,
        };
    }
}

impl App for Vlc {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        MAIN_ACTIVITY.to_string()
    }

    fn render(&self, sys: &System) -> View {
        let screen = screens::render_main(sys, self);
        match &self.dialog {
            Some(d) => screens::render_dialog(sys, screen, d),
            None => screen,
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if self.dialog.is_some() {
            return self.handle_dialog(event, sys);
        }
        self.handle_main(event, sys)
    }
}

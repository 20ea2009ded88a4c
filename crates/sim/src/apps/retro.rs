//! Retro Music (`code.name.monkey.retromusic`, 6.1.0, the version code 10603 AndroidWorld installs):
//! a music player over the songs MediaStore lists. MainActivity's Songs tab lists them (title A–Z,
//! a row's line says artist and length); a tap plays the list from that song, a long press starts
//! the selection, whose action bar adds the selected songs (in the order they were picked) to the
//! playing queue, plays them next or adds them to a playlist ("Add to playlist": "New playlist"
//! or an existing one). The Playlists tab lists playlists with their song count and length, "New
//! playlist" creates an empty one, a row's menu plays, renames, deletes or saves it ("Save as
//! file": Android's document picker, Downloads, writes `<name>.m3u` as `M3UWriter` does). A
//! playlist's page lists its songs in order with its length; Play puts them in the queue. Search
//! finds songs by title, artist or album; a result plays on its own. The mini player above the
//! tabs opens the playing queue, which can be cleared.
//!
//! The app holds no data of its own beyond where it is: songs come from MediaStore on every frame,
//! playlists from `playlist.db` and the queue from `music_playback_state.db` ([`store`]), which
//! AndroidWorld edits and reads directly.

mod screens;
pub mod store;

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::storage;
use crate::apps::widgets::install_store;
use crate::locale;
use crate::system::{Request, System};
use crate::view::View;

use store::Song;

pub const PACKAGE: &str = "code.name.monkey.retromusic";
pub const MAIN_ACTIVITY: &str = "code.name.monkey.retromusic.activities.MainActivity";
const PICKER_PACKAGE: &str = "com.google.android.documentsui";
const PICKER_ACTIVITY: &str = "com.android.documentsui.picker.PickActivity";
/// Where the document picker opens for "Save as file": Downloads, as on a new phone.
const DOWNLOADS: &str = "/sdcard/Download";
const PID: u32 = 4127;
const LOG_TAG: &str = "RetroMusic";

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: MAIN_ACTIVITY,
        // The process starts MusicService (MainActivity binds it), whose `restoreState` reads the
        // saved queue through MusicPlaybackQueueStore, which creates `music_playback_state.db`
        // when it is missing: after AndroidWorld's push of playlist.db emptied `databases/`, the
        // file is back as soon as the app runs, with an empty queue.
        create: |sys| {
            if let Err(e) = store::open_queue(sys) {
                Retro::fail(sys, "restore queue", e);
            }
            Box::new(Retro::default())
        },
        // Room creates playlist.db when the app first opens it; the phone makes both databases at
        // install, so AndroidWorld's `table_exists` finds them after every `pm clear`.
        install: |sys| {
            install_store(sys, store::open_playlists, store::PLAYLIST_DB, PID, LOG_TAG);
            install_store(sys, store::open_queue, store::QUEUE_DB, PID, LOG_TAG);
        },
        on_home_screen: false,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Tab {
    #[default]
    Songs,
    Playlists,
}

/// A page over the library, newest last.
#[derive(Debug, Clone, PartialEq)]
enum Page {
    Playlist(i64),
    Queue,
    Search(String),
    /// The document picker "Save as file" opened: the playlist, the folder and the file name.
    SaveTo {
        playlist: i64,
        dir: String,
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
enum Dialog {
    /// "Add to playlist": the songs to add.
    AddTo(Vec<i64>),
    /// "New playlist": its name and the songs it starts with.
    NewPlaylist {
        name: String,
        songs: Vec<i64>,
    },
    PlaylistMenu(i64),
    Rename {
        playlist: i64,
        name: String,
    },
    Delete(i64),
    /// The selection's overflow menu.
    SelectionMenu,
}

#[derive(Debug, Clone, Default)]
struct Retro {
    tab: Tab,
    pages: Vec<Page>,
    dialog: Option<Dialog>,
    /// Songs picked in the selection, in the order they were picked.
    selected: Vec<i64>,
    /// The queue's song being played (its index), while something plays.
    playing: Option<usize>,
}

impl Retro {
    fn page(&self) -> Option<&Page> {
        self.pages.last()
    }

    fn fail(sys: &mut System, what: &str, e: impl std::fmt::Display) {
        sys.log(PID, 'E', LOG_TAG, format!("{what}: {e}"));
    }

    /// The library's songs with these ids, in the order given.
    fn songs_by_id(sys: &System, ids: &[i64]) -> Vec<Song> {
        let all = store::songs(sys);
        ids.iter()
            .filter_map(|id| all.iter().find(|s| s.id == *id).cloned())
            .collect()
    }

    fn queue(sys: &System) -> Vec<Song> {
        store::open_queue(sys)
            .and_then(|c| store::queue(&c))
            .unwrap_or_default()
    }

    fn save_queue(&mut self, sys: &mut System, songs: &[Song]) {
        if let Err(e) = store::open_queue(sys).and_then(|c| store::save_queue(&c, songs)) {
            Self::fail(sys, "save queue", e);
        }
        if songs.is_empty() {
            self.playing = None;
        }
    }

    /// `openQueue`: the queue becomes `songs`, playing from `at`.
    fn play(&mut self, sys: &mut System, songs: &[Song], at: usize) {
        if songs.is_empty() {
            return;
        }
        self.save_queue(sys, songs);
        self.playing = Some(at.min(songs.len() - 1));
    }

    /// `enqueue` (at the end) or `playNext` (after the playing song); with nothing queued the songs
    /// start a queue of their own, as the service opens one.
    fn enqueue(&mut self, sys: &mut System, songs: Vec<Song>, next: bool) {
        let mut queue = Self::queue(sys);
        if queue.is_empty() {
            self.play(sys, &songs, 0);
            return;
        }
        let at = match (next, self.playing) {
            (true, Some(p)) => (p + 1).min(queue.len()),
            _ => queue.len(),
        };
        queue.splice(at..at, songs);
        self.save_queue(sys, &queue);
    }

    fn add_to_playlist(&mut self, sys: &mut System, playlist: i64, ids: &[i64]) {
        let songs = Self::songs_by_id(sys, ids);
        if let Err(e) =
            store::open_playlists(sys).and_then(|c| store::add_songs(&c, playlist, &songs))
        {
            Self::fail(sys, "add to playlist", e);
        }
    }

    fn close_dialog(&mut self, sys: &mut System) {
        self.dialog = None;
        sys.request(Request::ClearFocus);
    }

    fn open_dialog(&mut self, sys: &mut System, dialog: Dialog) {
        let focus = match &dialog {
            Dialog::NewPlaylist { .. } => Some("new_playlist_name"),
            Dialog::Rename { .. } => Some("rename_name"),
            _ => None,
        };
        self.dialog = Some(dialog);
        if let Some(tag) = focus {
            sys.request(Request::Focus { tag: tag.into() });
        }
    }

    fn handle_dialog(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if matches!(event, UiEvent::Back)
            || matches!(event, UiEvent::Click(t) if t == "dialog_cancel")
        {
            self.close_dialog(sys);
            return true;
        }
        let Some(dialog) = self.dialog.clone() else {
            return false;
        };
        match (dialog, event) {
            (Dialog::NewPlaylist { songs, .. }, UiEvent::TextChanged { tag, text })
                if tag == "new_playlist_name" =>
            {
                self.dialog = Some(Dialog::NewPlaylist {
                    name: text.clone(),
                    songs,
                });
            }
            (Dialog::NewPlaylist { name, songs }, UiEvent::Click(tag)) if tag == "create" => {
                let name = name.trim().to_string();
                if name.is_empty() {
                    return true;
                }
                match store::open_playlists(sys).and_then(|c| store::create_playlist(&c, &name)) {
                    Ok(playlist) => self.add_to_playlist(sys, playlist, &songs),
                    Err(e) => Self::fail(sys, "create playlist", e),
                }
                self.selected.clear();
                self.close_dialog(sys);
            }
            (Dialog::AddTo(songs), UiEvent::Click(tag)) if tag == "new_playlist" => {
                self.open_dialog(
                    sys,
                    Dialog::NewPlaylist {
                        name: String::new(),
                        songs,
                    },
                );
            }
            (Dialog::AddTo(songs), UiEvent::Click(tag)) if tag.starts_with("add_to:") => {
                if let Ok(playlist) = tag["add_to:".len()..].parse() {
                    self.add_to_playlist(sys, playlist, &songs);
                }
                self.selected.clear();
                self.close_dialog(sys);
            }
            (Dialog::SelectionMenu, UiEvent::Click(tag)) => {
                self.dialog = None;
                return self.selection_action(tag, sys);
            }
            (Dialog::PlaylistMenu(p), UiEvent::Click(tag)) => {
                self.dialog = None;
                self.playlist_action(p, tag, sys);
            }
            (Dialog::Rename { playlist, .. }, UiEvent::TextChanged { tag, text })
                if tag == "rename_name" =>
            {
                self.dialog = Some(Dialog::Rename {
                    playlist,
                    name: text.clone(),
                });
            }
            (Dialog::Rename { playlist, name }, UiEvent::Click(tag)) if tag == "rename_ok" => {
                let name = name.trim().to_string();
                if !name.is_empty() {
                    if let Err(e) = store::open_playlists(sys)
                        .and_then(|c| store::rename_playlist(&c, playlist, &name))
                    {
                        Self::fail(sys, "rename playlist", e);
                    }
                }
                self.close_dialog(sys);
            }
            (Dialog::Delete(playlist), UiEvent::Click(tag)) if tag == "delete_ok" => {
                if let Err(e) =
                    store::open_playlists(sys).and_then(|c| store::delete_playlist(&c, playlist))
                {
                    Self::fail(sys, "delete playlist", e);
                }
                self.pages.retain(|p| *p != Page::Playlist(playlist));
                self.close_dialog(sys);
            }
            (_, UiEvent::Click(tag)) if tag == "new_playlist_name" || tag == "rename_name" => {}
            _ => return false,
        }
        true
    }

    /// An action of the selection's bar or its overflow menu.
    fn selection_action(&mut self, tag: &str, sys: &mut System) -> bool {
        let picked = std::mem::take(&mut self.selected);
        match tag {
            "sel_add_to_playlist" => {
                self.open_dialog(sys, Dialog::AddTo(picked));
            }
            "sel_add_to_queue" => {
                let songs = Self::songs_by_id(sys, &picked);
                self.enqueue(sys, songs, false);
            }
            "sel_play_next" => {
                let songs = Self::songs_by_id(sys, &picked);
                self.enqueue(sys, songs, true);
            }
            "sel_more" => {
                self.selected = picked;
                self.dialog = Some(Dialog::SelectionMenu);
            }
            _ => {
                self.selected = picked;
                return false;
            }
        }
        true
    }

    fn playlist_action(&mut self, playlist: i64, tag: &str, sys: &mut System) {
        let Ok(conn) = store::open_playlists(sys) else {
            return;
        };
        match tag {
            "pl_play" => {
                let songs = store::playlist_songs(&conn, playlist).unwrap_or_default();
                self.play(sys, &songs, 0);
            }
            "pl_rename" => {
                let name = store::playlist_name(&conn, playlist).unwrap_or_default();
                self.open_dialog(sys, Dialog::Rename { playlist, name });
            }
            "pl_delete" => self.dialog = Some(Dialog::Delete(playlist)),
            "pl_save" => {
                // Android 11+: the document picker, named after the playlist.
                let name = store::playlist_name(&conn, playlist).unwrap_or_default();
                self.pages.push(Page::SaveTo {
                    playlist,
                    dir: DOWNLOADS.to_string(),
                    name,
                });
            }
            _ => {}
        }
    }

    /// The document picker's Save: `<name>.m3u` in the folder (a name already taken gets " (1)"
    /// as DocumentsUI makes names unique), then back to Retro.
    fn save_playlist(&mut self, sys: &mut System, playlist: i64, dir: &str, name: &str) {
        let stem = name.trim();
        let stem = stem.strip_suffix(".m3u").unwrap_or(stem);
        if stem.is_empty() {
            return;
        }
        let songs = store::open_playlists(sys)
            .and_then(|c| store::playlist_songs(&c, playlist))
            .unwrap_or_default();
        let mut path = storage::join(dir, &format!("{stem}.m3u"));
        let mut n = 1;
        while storage::exists(sys, &path) {
            path = storage::join(dir, &format!("{stem} ({n}).m3u"));
            n += 1;
        }
        if let Err(e) = storage::write_text(sys, &path, &store::m3u(&songs)) {
            Self::fail(sys, "save playlist", e);
        }
        self.pages.pop();
        sys.request(Request::ClearFocus);
    }

    fn handle_save_to(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Some(Page::SaveTo {
            playlist,
            dir,
            name,
        }) = self.pages.last_mut()
        else {
            return false;
        };
        match event {
            UiEvent::Back => {
                if dir != DOWNLOADS && dir.starts_with(DOWNLOADS) {
                    *dir = storage::parent_of(dir).to_string();
                } else {
                    self.pages.pop();
                    sys.request(Request::ClearFocus);
                }
            }
            UiEvent::Click(tag) if tag == "picker_cancel" => {
                self.pages.pop();
                sys.request(Request::ClearFocus);
            }
            UiEvent::TextChanged { tag, text } if tag == "picker_name" => *name = text.clone(),
            UiEvent::Click(tag) if tag == "picker_name" => {}
            UiEvent::Click(tag) if tag.starts_with("picker_dir:") => {
                let target = storage::join(dir, &tag["picker_dir:".len()..]);
                if storage::is_dir(sys, &target) {
                    *dir = target;
                }
            }
            UiEvent::Click(tag) | UiEvent::EditorAction(tag)
                if tag == "picker_save" || tag == "picker_name" =>
            {
                let (playlist, dir, name) = (*playlist, dir.clone(), name.clone());
                self.save_playlist(sys, playlist, &dir, &name);
            }
            _ => return false,
        }
        true
    }

    fn handle_library(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Back if !self.selected.is_empty() => self.selected.clear(),
            UiEvent::Back if !self.pages.is_empty() => {
                self.pages.pop();
                sys.request(Request::ClearFocus);
            }
            UiEvent::Back => return false,
            UiEvent::Click(tag) if tag == "up" => {
                self.pages.pop();
                sys.request(Request::ClearFocus);
            }
            UiEvent::Click(tag) if tag == "sel_close" => self.selected.clear(),
            UiEvent::Click(tag) if tag.starts_with("sel_") => {
                return self.selection_action(tag, sys);
            }
            UiEvent::Click(tag) if tag == "tab:songs" || tag == "tab:playlists" => {
                self.tab = if tag == "tab:songs" {
                    Tab::Songs
                } else {
                    Tab::Playlists
                };
                self.pages.clear();
                self.selected.clear();
            }
            UiEvent::Click(tag) if tag == "search" => {
                self.pages.push(Page::Search(String::new()));
                sys.request(Request::Focus {
                    tag: "search_text".into(),
                });
            }
            UiEvent::TextChanged { tag, text } if tag == "search_text" => {
                if let Some(Page::Search(q)) = self.pages.last_mut() {
                    *q = text.clone();
                }
            }
            UiEvent::Click(tag) | UiEvent::EditorAction(tag) if tag == "search_text" => {}
            UiEvent::Click(tag) if tag == "mini_player" => self.pages.push(Page::Queue),
            UiEvent::Click(tag) if tag == "clear_queue" => {
                self.save_queue(sys, &[]);
                self.pages.pop();
            }
            UiEvent::Click(tag) if tag == "new_playlist" => self.open_dialog(
                sys,
                Dialog::NewPlaylist {
                    name: String::new(),
                    songs: Vec::new(),
                },
            ),
            UiEvent::Click(tag) if tag.starts_with("playlist_menu:") => {
                if let Ok(p) = tag["playlist_menu:".len()..].parse() {
                    self.dialog = Some(Dialog::PlaylistMenu(p));
                }
            }
            UiEvent::Click(tag) if tag.starts_with("playlist:") => {
                if let Ok(p) = tag["playlist:".len()..].parse() {
                    self.pages.push(Page::Playlist(p));
                }
            }
            UiEvent::Click(tag) if tag == "play_playlist" => {
                if let Some(Page::Playlist(p)) = self.page().cloned() {
                    self.playlist_action(p, "pl_play", sys);
                }
            }
            UiEvent::Click(tag) if tag.starts_with("queue:") => {
                if let Ok(i) = tag["queue:".len()..].parse() {
                    self.playing = Some(i);
                }
            }
            UiEvent::LongClick(tag) if tag.starts_with("song:") => {
                if let Ok(song) = tag["song:".len()..].parse::<i64>() {
                    self.toggle(song);
                }
            }
            UiEvent::Click(tag) if tag.starts_with("song:") => {
                let Ok(song) = tag["song:".len()..].parse::<i64>() else {
                    return false;
                };
                if !self.selected.is_empty() {
                    self.toggle(song);
                    return true;
                }
                self.play_from(sys, song);
            }
            _ => return false,
        }
        true
    }

    fn toggle(&mut self, song: i64) {
        match self.selected.iter().position(|s| *s == song) {
            Some(i) => {
                self.selected.remove(i);
            }
            None => self.selected.push(song),
        }
    }

    /// A tap on a song: the list it is in plays from it (a search result plays alone).
    fn play_from(&mut self, sys: &mut System, song: i64) {
        let list = match self.page() {
            Some(Page::Playlist(p)) => store::open_playlists(sys)
                .and_then(|c| store::playlist_songs(&c, *p))
                .unwrap_or_default(),
            Some(Page::Search(_)) => Self::songs_by_id(sys, &[song]),
            _ => store::songs(sys),
        };
        if let Some(at) = list.iter().position(|s| s.id == song) {
            self.play(sys, &list, at);
        }
    }
}

impl App for Retro {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.page() {
            Some(Page::SaveTo { .. }) => PICKER_ACTIVITY,
            _ => MAIN_ACTIVITY,
        }
        .to_string()
    }

    fn activity_package(&self) -> &'static str {
        match self.page() {
            Some(Page::SaveTo { .. }) => PICKER_PACKAGE,
            _ => PACKAGE,
        }
    }

    fn render(&self, sys: &System) -> View {
        if let Some(Page::SaveTo { dir, name, .. }) = self.page() {
            return screens::render_picker(sys, dir, name);
        }
        let screen = screens::render_library(sys, self);
        match &self.dialog {
            Some(dialog) => screens::render_dialog(sys, screen, dialog),
            None => screen,
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if matches!(self.page(), Some(Page::SaveTo { .. })) {
            return self.handle_save_to(event, sys);
        }
        if self.dialog.is_some() {
            return self.handle_dialog(event, sys);
        }
        self.handle_library(event, sys)
    }
}

//! Files (`com.google.android.documentsui`, Android 14's DocumentsUI): FilesActivity browses the
//! internal storage root (named by the device name, as DocumentsUI titles it) and its folders
//! under a breadcrumb; a tap opens a folder, a long press starts the selection (Delete, "Move
//! to…", Rename, Select all). "Move to…" opens PickActivity, which browses folders for the
//! destination and moves there with "Move". The toolbar's "Show roots" opens the navigation
//! drawer: the media provider's Images, Videos and Audio (every such file in shared storage,
//! newest first), Downloads (the Download folder) and the internal storage. Every directory shown
//! is logged as DirectoryFragment logs it ("Showing directory: …"), which B-MoCA's Files tasks
//! read. Recent and Documents, which need the recents and documents providers, are not listed.
//!
//! Like Markor it keeps no files of its own ([`storage`]): what it lists is `/sdcard` as it
//! stands, and MediaStore, which rescans shared storage on every query, follows its changes.

mod screens;

use std::collections::BTreeSet;

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::storage::{self, Entry, StorageError};
use crate::locale;
use crate::providers::media::{self, MediaKind};
use crate::system::{Namespace, Request, System};
use crate::view::View;

pub const PACKAGE: &str = "com.google.android.documentsui";
pub const FILES_ACTIVITY: &str = "com.android.documentsui.files.FilesActivity";
const PICK_ACTIVITY: &str = "com.android.documentsui.picker.PickActivity";
/// The internal storage root (`/storage/emulated/0`).
pub const ROOT: &str = "/sdcard";
/// The folder the Downloads root shows.
const DOWNLOADS: &str = "/sdcard/Download";
const PID: u32 = 3604;
const LOG_TAG: &str = "DocumentsUI";

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: FILES_ACTIVITY,
        create: |sys| {
            let files = Files::default();
            files.log_shown(sys);
            Box::new(files)
        },
        install: |_| {},
        on_home_screen: false,
    }
}

/// The storage root's title: the device name (Settings > About phone), as DocumentsUI names the
/// internal storage root.
fn root_title(sys: &System) -> String {
    sys.settings
        .get(Namespace::Global, "device_name")
        .unwrap_or_else(|| sys.property("ro.product.model"))
        .to_string()
}

/// A root of the navigation drawer, in the drawer's order ([`ROOTS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    Media(MediaKind),
    Downloads,
    Storage,
}

const ROOTS: [Root; 5] = [
    Root::Media(MediaKind::Image),
    Root::Media(MediaKind::Video),
    Root::Media(MediaKind::Audio),
    Root::Downloads,
    Root::Storage,
];

impl Root {
    fn tag(self) -> &'static str {
        match self {
            Root::Media(MediaKind::Image) => "root:images",
            Root::Media(MediaKind::Video) => "root:videos",
            Root::Media(MediaKind::Audio) => "root:audio",
            Root::Downloads => "root:downloads",
            Root::Storage => "root:storage",
        }
    }

    fn title(self, sys: &System) -> String {
        match self {
            Root::Media(MediaKind::Image) => tr(sys, "root_images").to_string(),
            Root::Media(MediaKind::Video) => tr(sys, "root_videos").to_string(),
            Root::Media(MediaKind::Audio) => tr(sys, "root_audio").to_string(),
            Root::Downloads => tr(sys, "root_downloads").to_string(),
            Root::Storage => root_title(sys),
        }
    }

    fn icon(self) -> &'static str {
        match self {
            Root::Media(MediaKind::Image) => "image",
            Root::Media(MediaKind::Video) => "videocam",
            Root::Media(MediaKind::Audio) => "music_note",
            Root::Downloads => "download",
            Root::Storage => "folder",
        }
    }

    /// The folder a browsing root starts at; media roots list files, not a folder.
    fn base(self) -> Option<&'static str> {
        match self {
            Root::Media(_) => None,
            Root::Downloads => Some(DOWNLOADS),
            Root::Storage => Some(ROOT),
        }
    }
}

/// A document's URI as DocumentsContract builds it: the id percent-encoded (`primary:DCIM/x`
/// is `primary%3ADCIM%2Fx`).
pub fn document_uri(authority: &str, doc_id: &str) -> String {
    let encoded: String = doc_id
        .bytes()
        .map(|b| match b {
            b if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect();
    format!("content://{authority}/document/{encoded}")
}

/// The `VIEW` intent DocumentsUI sends for a web page: the document's URI in the external
/// storage provider, typed `text/html`, which Chrome (the phone's one app for it) opens.
fn view_intent(path: &str) -> Option<crate::app::Intent> {
    let lower = path.to_ascii_lowercase();
    if !(lower.ends_with(".html") || lower.ends_with(".htm")) {
        return None;
    }
    let relative = path.strip_prefix(ROOT)?.trim_start_matches('/');
    Some(crate::app::Intent {
        action: Some("android.intent.action.VIEW".into()),
        data: Some(document_uri(
            "com.android.externalstorage.documents",
            &format!("primary:{relative}"),
        )),
        mime: Some("text/html".into()),
        ..Default::default()
    })
}

#[derive(Debug, Clone, PartialEq)]
enum Dialog {
    Delete {
        paths: Vec<String>,
    },
    Rename {
        path: String,
        name: String,
        error: Option<String>,
    },
}

/// PickActivity for "Move to…": the documents to move and the folder it shows.
#[derive(Debug, Clone, PartialEq)]
struct Picker {
    paths: Vec<String>,
    dir: String,
    error: Option<String>,
}

#[derive(Debug, Clone)]
struct Files {
    root: Root,
    /// The folder shown in a browsing root.
    dir: String,
    drawer: bool,
    selected: BTreeSet<String>,
    dialog: Option<Dialog>,
    picker: Option<Picker>,
}

impl Default for Files {
    fn default() -> Self {
        Files {
            root: Root::Storage,
            dir: ROOT.to_string(),
            drawer: false,
            selected: BTreeSet::new(),
            dialog: None,
            picker: None,
        }
    }
}

/// A folder's entries as DocumentsUI lists them: folders first, then by name, case-insensitively.
fn sorted(sys: &System, dir: &str) -> Vec<Entry> {
    let mut entries = storage::list(sys, dir);
    entries.sort_by(|a, b| {
        b.is_dir
            .cmp(&a.is_dir)
            .then(a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    entries
}

fn message(sys: &System, e: &StorageError) -> String {
    match e {
        StorageError::Exists(name) => {
            locale::format(&sys.locale, PACKAGE, "name_conflict", &[name])
        }
        StorageError::InvalidName(_) => tr(sys, "rename_error").to_string(),
        other => other.to_string(),
    }
}

impl Files {
    /// The folder the current root starts at, or `None` in a media root.
    fn base(&self) -> Option<&'static str> {
        self.root.base()
    }

    /// Whether the list shows the top of the root (no folder to go up to).
    fn at_top(&self) -> bool {
        self.base().is_none_or(|base| self.dir == base)
    }

    /// What the list shows: a folder's entries, or a media root's files.
    fn listing(&self, sys: &System) -> Vec<Entry> {
        match self.root {
            Root::Media(kind) => media::paths_of_kind(sys, kind)
                .unwrap_or_default()
                .iter()
                .filter_map(|path| storage::entry(sys, path))
                .collect(),
            _ => sorted(sys, &self.dir),
        }
    }

    /// DirectoryFragment's line for the directory now shown: the document it lists, by the
    /// provider that serves it.
    fn log_shown(&self, sys: &mut System) {
        let (authority, doc_id, name) = match self.root {
            Root::Media(kind) => {
                let id = match kind {
                    MediaKind::Image => "images_root",
                    MediaKind::Video => "videos_root",
                    MediaKind::Audio => "audio_root",
                };
                (
                    "com.android.providers.media.documents",
                    id.to_string(),
                    self.root.title(sys),
                )
            }
            Root::Downloads if self.dir == DOWNLOADS => (
                "com.android.providers.downloads.documents",
                "downloads".to_string(),
                self.root.title(sys),
            ),
            _ => {
                let relative = self
                    .dir
                    .strip_prefix(ROOT)
                    .unwrap_or("")
                    .trim_start_matches('/');
                let name = if relative.is_empty() {
                    root_title(sys)
                } else {
                    storage::name_of(&self.dir).to_string()
                };
                (
                    "com.android.externalstorage.documents",
                    format!("primary:{relative}"),
                    name,
                )
            }
        };
        let uri = document_uri(authority, &doc_id);
        sys.log(
            PID,
            'D',
            "DirectoryFragment",
            format!(
                "Showing directory: Document{{docId={doc_id}, name={name}, \
                 mimeType=vnd.android.document/directory, derivedUri={uri}}}"
            ),
        );
    }

    fn open_root(&mut self, sys: &mut System, root: Root) {
        self.root = root;
        self.drawer = false;
        match root.base() {
            Some(base) => self.open_dir(sys, base.to_string()),
            None => {
                self.selected.clear();
                sys.request(Request::ResetScroll {
                    tag: "dir_list".to_string(),
                });
                self.log_shown(sys);
            }
        }
    }

    /// What changed on disk: a folder that went away shows the root; vanished entries drop
    /// out of the selection.
    fn refresh(&mut self, sys: &System) {
        if let Some(base) = self.base() {
            if !storage::is_dir(sys, &self.dir) {
                self.dir = if storage::is_dir(sys, base) {
                    base
                } else {
                    ROOT
                }
                .to_string();
            }
        }
        self.selected.retain(|p| storage::exists(sys, p));
        if let Some(picker) = &mut self.picker {
            if !storage::is_dir(sys, &picker.dir) {
                picker.dir = ROOT.to_string();
            }
        }
    }

    fn open_dir(&mut self, sys: &mut System, dir: String) {
        self.dir = dir;
        self.selected.clear();
        sys.request(Request::ResetScroll {
            tag: "dir_list".to_string(),
        });
        self.log_shown(sys);
    }

    fn toggle(&mut self, path: String) {
        if !self.selected.remove(&path) {
            self.selected.insert(path);
        }
    }

    fn handle_picker(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Some(picker) = self.picker.as_mut() else {
            return false;
        };
        match event {
            UiEvent::Back if picker.dir != ROOT => {
                picker.dir = storage::parent_of(&picker.dir).to_string();
            }
            UiEvent::Back => self.picker = None,
            UiEvent::Click(tag) if tag == "pick_cancel" => self.picker = None,
            UiEvent::Click(tag) if tag.starts_with("crumb:") => {
                picker.dir = tag["crumb:".len()..].to_string();
            }
            UiEvent::Click(tag) if tag.starts_with("doc:") => {
                let path = tag["doc:".len()..].to_string();
                if storage::is_dir(sys, &path) && !picker.paths.contains(&path) {
                    picker.dir = path;
                }
            }
            UiEvent::Click(tag) if tag == "pick_move" => {
                let mut failed = None;
                for path in &picker.paths {
                    let to = storage::join(&picker.dir, storage::name_of(path));
                    if to != *path {
                        if let Err(e) = storage::rename(sys, path, &to) {
                            sys.log(PID, 'E', LOG_TAG, format!("move: {e}"));
                            failed = Some(message(sys, &e));
                        }
                    }
                }
                match failed {
                    Some(m) => picker.error = Some(m),
                    None => {
                        self.picker = None;
                        self.selected.clear();
                    }
                }
            }
            _ => return false,
        }
        true
    }

    fn handle_dialog(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if matches!(event, UiEvent::Back)
            || matches!(event, UiEvent::Click(t) if t == "dialog_cancel")
        {
            self.dialog = None;
            sys.request(Request::ClearFocus);
            return true;
        }
        let mut close = false;
        match (self.dialog.as_mut(), event) {
            (Some(Dialog::Delete { paths }), UiEvent::Click(tag)) if tag == "delete_ok" => {
                for path in paths.iter() {
                    if let Err(e) = storage::delete(sys, path) {
                        sys.log(PID, 'E', LOG_TAG, format!("delete: {e}"));
                    }
                }
                close = true;
            }
            (Some(Dialog::Rename { name, .. }), UiEvent::TextChanged { tag, text })
                if tag == "rename_name" =>
            {
                *name = text.clone();
            }
            (Some(Dialog::Rename { .. }), UiEvent::Click(tag)) if tag == "rename_name" => {}
            (Some(Dialog::Rename { path, name, error }), UiEvent::Click(tag))
                if tag == "rename_ok" =>
            {
                let new_name = name.trim();
                let to = storage::join(storage::parent_of(path), new_name);
                match storage::rename(sys, path, &to) {
                    Ok(()) => close = true,
                    Err(_) if to == *path => close = true,
                    Err(_) if !storage::valid_name(new_name) => {
                        *error = Some(tr(sys, "rename_error").to_string())
                    }
                    Err(e) => *error = Some(message(sys, &e)),
                }
            }
            _ => return false,
        }
        if close {
            self.dialog = None;
            self.selected.clear();
            sys.request(Request::ClearFocus);
        }
        true
    }

    fn handle_drawer(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Back => self.drawer = false,
            UiEvent::Click(tag) if tag == "drawer_scrim" => self.drawer = false,
            UiEvent::Click(tag) => match ROOTS.iter().find(|r| r.tag() == tag) {
                Some(&root) => self.open_root(sys, root),
                None => return false,
            },
            _ => return false,
        }
        true
    }

    fn handle_browser(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Back if !self.selected.is_empty() => self.selected.clear(),
            UiEvent::Back if !self.at_top() => {
                let parent = storage::parent_of(&self.dir).to_string();
                self.open_dir(sys, parent);
            }
            UiEvent::Back => return false,
            UiEvent::Click(tag) if tag == "show_roots" => self.drawer = true,
            UiEvent::Click(tag) if tag == "up" && !self.at_top() => {
                let parent = storage::parent_of(&self.dir).to_string();
                self.open_dir(sys, parent);
            }
            UiEvent::Click(tag) if tag == "sel_close" => self.selected.clear(),
            UiEvent::Click(tag) if tag == "sel_all" => {
                self.selected = self.listing(sys).into_iter().map(|e| e.path).collect();
            }
            UiEvent::Click(tag) if tag == "sel_delete" && !self.selected.is_empty() => {
                self.dialog = Some(Dialog::Delete {
                    paths: self.selected.iter().cloned().collect(),
                });
            }
            UiEvent::Click(tag) if tag == "sel_rename" && self.selected.len() == 1 => {
                let path = self.selected.iter().next().cloned().unwrap_or_default();
                self.dialog = Some(Dialog::Rename {
                    name: storage::name_of(&path).to_string(),
                    path,
                    error: None,
                });
                sys.request(Request::Focus {
                    tag: "rename_name".to_string(),
                });
            }
            UiEvent::Click(tag) if tag == "sel_move" && !self.selected.is_empty() => {
                self.picker = Some(Picker {
                    paths: self.selected.iter().cloned().collect(),
                    dir: ROOT.to_string(),
                    error: None,
                });
            }
            UiEvent::Click(tag) if tag.starts_with("crumb:") => {
                let dir = tag["crumb:".len()..].to_string();
                self.open_dir(sys, dir);
            }
            UiEvent::LongClick(tag) if tag.starts_with("doc:") => {
                self.toggle(tag["doc:".len()..].to_string());
            }
            UiEvent::Click(tag) if tag.starts_with("doc:") => {
                let path = tag["doc:".len()..].to_string();
                if !self.selected.is_empty() {
                    self.toggle(path);
                } else if storage::is_dir(sys, &path) {
                    self.open_dir(sys, path);
                } else if let Some(intent) = view_intent(&path) {
                    sys.request(Request::Launch {
                        package: crate::apps::browser::PACKAGE.into(),
                        intent: Some(intent),
                    });
                }
                // Other files would go to a viewer app, which this phone does not have.
            }
            _ => return false,
        }
        true
    }
}

impl App for Files {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.picker {
            Some(_) => PICK_ACTIVITY,
            None => FILES_ACTIVITY,
        }
        .to_string()
    }

    fn render(&self, sys: &System) -> View {
        if let Some(picker) = &self.picker {
            return screens::render_picker(sys, picker);
        }
        match &self.dialog {
            Some(dialog) => screens::render_dialog(sys, dialog),
            None if self.drawer => screens::drawer(sys, self.root),
            None => screens::render_browser(sys, self),
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        self.refresh(sys);
        if self.picker.is_some() {
            return self.handle_picker(event, sys);
        }
        if self.dialog.is_some() {
            return self.handle_dialog(event, sys);
        }
        if self.drawer {
            return self.handle_drawer(event, sys);
        }
        self.handle_browser(event, sys)
    }
}

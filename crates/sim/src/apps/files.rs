//! Files (`com.google.android.documentsui`, Android 14's DocumentsUI): FilesActivity browses the
//! internal storage root (named by the device name, as DocumentsUI titles it) and its folders
//! under a breadcrumb; a tap opens a folder, a long press starts the selection (Delete, "Move
//! to…", Rename, Select all). "Move to…" opens PickActivity, which browses folders for the
//! destination and moves there with "Move".
//!
//! Like Markor it keeps no files of its own ([`storage`]): what it lists is `/sdcard` as it
//! stands, and MediaStore, which rescans shared storage on every query, follows its changes.

mod screens;

use std::collections::BTreeSet;

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::storage::{self, Entry, StorageError};
use crate::locale;
use crate::system::{Namespace, Request, System};
use crate::view::View;

pub const PACKAGE: &str = "com.google.android.documentsui";
pub const FILES_ACTIVITY: &str = "com.android.documentsui.files.FilesActivity";
const PICK_ACTIVITY: &str = "com.android.documentsui.picker.PickActivity";
/// The internal storage root (`/storage/emulated/0`).
pub const ROOT: &str = "/sdcard";
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
        create: |_| Box::new(Files::default()),
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

/// The `VIEW` intent DocumentsUI sends for a web page: the document's URI in the external
/// storage provider, typed `text/html`, which Chrome (the phone's one app for it) opens.
fn view_intent(path: &str) -> Option<crate::app::Intent> {
    let lower = path.to_ascii_lowercase();
    if !(lower.ends_with(".html") || lower.ends_with(".htm")) {
        return None;
    }
    let relative = path.strip_prefix(ROOT)?.trim_start_matches('/');
    let encoded: String = format!("primary:{relative}")
        .bytes()
        .map(|b| match b {
            b if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect();
    Some(crate::app::Intent {
        action: Some("android.intent.action.VIEW".into()),
        data: Some(format!(
            "content://com.android.externalstorage.documents/document/{encoded}"
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
    dir: String,
    selected: BTreeSet<String>,
    dialog: Option<Dialog>,
    picker: Option<Picker>,
}

impl Default for Files {
    fn default() -> Self {
        Files {
            dir: ROOT.to_string(),
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
    /// What changed on disk: a folder that went away shows the root; vanished entries drop
    /// out of the selection.
    fn refresh(&mut self, sys: &System) {
        if !storage::is_dir(sys, &self.dir) {
            self.dir = ROOT.to_string();
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
                let path = storage::join(&picker.dir, &tag["doc:".len()..]);
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

    fn handle_browser(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Back if !self.selected.is_empty() => self.selected.clear(),
            UiEvent::Back if self.dir != ROOT => {
                let parent = storage::parent_of(&self.dir).to_string();
                self.open_dir(sys, parent);
            }
            UiEvent::Back => return false,
            UiEvent::Click(tag) if tag == "up" => {
                let parent = storage::parent_of(&self.dir).to_string();
                self.open_dir(sys, parent);
            }
            UiEvent::Click(tag) if tag == "sel_close" => self.selected.clear(),
            UiEvent::Click(tag) if tag == "sel_all" => {
                self.selected = sorted(sys, &self.dir).into_iter().map(|e| e.path).collect();
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
                self.toggle(storage::join(&self.dir, &tag["doc:".len()..]));
            }
            UiEvent::Click(tag) if tag.starts_with("doc:") => {
                let path = storage::join(&self.dir, &tag["doc:".len()..]);
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
        self.handle_browser(event, sys)
    }
}

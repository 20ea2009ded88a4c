//! Simple Gallery Pro (`com.simplemobiletools.gallery.pro`, 6.28.1, the version code 396
//! AndroidWorld installs): MainActivity's grid of folders that hold images (MediaStore's buckets,
//! each with its newest image as thumbnail and its count), MediaActivity's grid of one folder's
//! images (newest first, each with its file name), and ViewPagerActivity, which shows one image
//! over the whole screen with the overflow menu's "Copy to" and "Move to": PickDirectoryDialog
//! lists the gallery's folders, and its "Other folder" opens Simple Commons' folder picker for
//! any other (an empty Download has no images, so it is only reachable there, as on the phone).
//!
//! The phone is in the state AndroidWorld's setup leaves it: storage permissions granted and
//! "All files" access allowed, so the folders show straight away. The app keeps nothing of its
//! own: the folders are MediaStore's and the files the phone's ([`pictures`], [`storage`]).
//! File names show under the thumbnails (the "Show file names" option on), since the tasks tell
//! images apart by name.

mod screens;

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::folder_picker::FolderPicker;
use crate::apps::storage::{self, StorageError};
use crate::apps::widgets::DialogResult;
use crate::locale;
use crate::system::{Request, System};
use crate::view::View;

pub const PACKAGE: &str = "com.simplemobiletools.gallery.pro";
pub const MAIN_ACTIVITY: &str = "com.simplemobiletools.gallery.pro.activities.MainActivity";
const MEDIA_ACTIVITY: &str = "com.simplemobiletools.gallery.pro.activities.MediaActivity";
const VIEWER_ACTIVITY: &str = "com.simplemobiletools.gallery.pro.activities.ViewPagerActivity";
/// The process id its log lines carry.
const PID: u32 = 3655;
const LOG_TAG: &str = "SimpleGallery";

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
        create: |_| Box::new(Gallery::default()),
        install: |_| {},
        on_home_screen: false,
    }
}

/// Whether a transfer keeps the original ("Copy to") or not ("Move to").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Transfer {
    Copy,
    Move,
}

#[derive(Debug, Clone, PartialEq)]
enum Dialog {
    /// The viewer's overflow menu.
    Menu,
    /// PickDirectoryDialog: the gallery's folders, and "Other folder".
    PickDirectory(Transfer),
    /// Simple Commons' folder picker behind "Other folder".
    OtherFolder(Transfer, FolderPicker),
}

#[derive(Debug, Clone, Default)]
struct Gallery {
    /// The folder MediaActivity shows.
    folder: Option<String>,
    /// The image ViewPagerActivity shows.
    viewing: Option<String>,
    dialog: Option<Dialog>,
}

impl Gallery {
    /// What changed on disk since the last event: a viewed image or a folder that went away.
    fn refresh(&mut self, sys: &System) {
        if self
            .viewing
            .as_ref()
            .is_some_and(|p| !storage::exists(sys, p))
        {
            self.viewing = None;
            self.dialog = None;
        }
        if self
            .folder
            .as_ref()
            .is_some_and(|d| !storage::is_dir(sys, d))
        {
            self.folder = None;
        }
    }

    /// Copies or moves the viewed image into `dir` under its own name; a move shows the image
    /// where it went, as the pager follows the file.
    fn transfer(&mut self, sys: &mut System, how: Transfer, dir: &str) {
        self.dialog = None;
        let Some(from) = self.viewing.clone() else {
            return;
        };
        let to = storage::join(dir, storage::name_of(&from));
        if to == from {
            return;
        }
        let result = match how {
            Transfer::Copy => storage::copy(sys, &from, &to),
            Transfer::Move => storage::rename(sys, &from, &to),
        };
        match result {
            Ok(()) => {
                sys.log(PID, 'I', LOG_TAG, format!("{how:?} {from} -> {to}"));
                if how == Transfer::Move {
                    self.viewing = Some(to);
                }
            }
            Err(e) => Self::fail(sys, &e),
        }
    }

    fn fail(sys: &mut System, e: &StorageError) {
        sys.log(PID, 'E', LOG_TAG, format!("copy/move failed: {e}"));
    }

    fn handle_dialog(&mut self, dialog: Dialog, event: &UiEvent, sys: &mut System) -> bool {
        match (dialog, event) {
            (Dialog::OtherFolder(how, mut picker), _) => match picker.handle(event, sys) {
                Some(DialogResult::Ok(dir)) => self.transfer(sys, how, &dir),
                Some(DialogResult::Cancel) => self.dialog = None,
                Some(DialogResult::Pending) => {
                    self.dialog = Some(Dialog::OtherFolder(how, picker));
                    sys.request(Request::ResetScroll {
                        tag: "picker_list".to_string(),
                    });
                }
                None => return false,
            },
            (_, UiEvent::Back) => self.dialog = None,
            (Dialog::Menu, UiEvent::Click(tag)) => match tag.as_str() {
                "menu_copy_to" => self.dialog = Some(Dialog::PickDirectory(Transfer::Copy)),
                "menu_move_to" => self.dialog = Some(Dialog::PickDirectory(Transfer::Move)),
                _ => self.dialog = None,
            },
            (Dialog::PickDirectory(how), UiEvent::Click(tag)) => {
                if tag == "pick_cancel" {
                    self.dialog = None;
                } else if tag == "pick_other" {
                    let start = self
                        .viewing
                        .as_deref()
                        .map(storage::parent_of)
                        .unwrap_or(crate::apps::folder_picker::ROOT)
                        .to_string();
                    self.dialog = Some(Dialog::OtherFolder(how, FolderPicker::new(sys, &start)));
                } else if let Some(dir) = tag.strip_prefix("pick_dir:") {
                    self.transfer(sys, how, dir);
                } else {
                    return false;
                }
            }
            _ => return false,
        }
        true
    }
}

impl App for Gallery {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        if self.viewing.is_some() {
            VIEWER_ACTIVITY
        } else if self.folder.is_some() {
            MEDIA_ACTIVITY
        } else {
            MAIN_ACTIVITY
        }
        .to_string()
    }

    fn render(&self, sys: &System) -> View {
        let screen = match (&self.viewing, &self.folder) {
            (Some(path), _) => screens::viewer(sys, path),
            (None, Some(dir)) => screens::folder(sys, dir),
            (None, None) => screens::folders(sys),
        };
        match &self.dialog {
            None => screen,
            Some(Dialog::Menu) => screen.child(screens::menu(sys)),
            Some(Dialog::PickDirectory(_)) => {
                let current = self.viewing.as_deref().map(storage::parent_of);
                screen.child(screens::pick_directory(sys, current))
            }
            Some(Dialog::OtherFolder(_, picker)) => screen.child(picker.render(sys, PACKAGE)),
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        self.refresh(sys);
        if let Some(dialog) = self.dialog.clone() {
            return self.handle_dialog(dialog, event, sys);
        }
        match event {
            UiEvent::Back | UiEvent::Click(_) if self.viewing.is_some() => {
                if matches!(event, UiEvent::Click(t) if t == "more") {
                    self.dialog = Some(Dialog::Menu);
                } else if matches!(event, UiEvent::Back)
                    || matches!(event, UiEvent::Click(t) if t == "up")
                {
                    self.viewing = None;
                } else {
                    return false;
                }
            }
            UiEvent::Back | UiEvent::Click(_) if self.folder.is_some() => {
                if matches!(event, UiEvent::Back) || matches!(event, UiEvent::Click(t) if t == "up")
                {
                    self.folder = None;
                } else if let UiEvent::Click(tag) = event {
                    let Some(name) = tag.strip_prefix("medium:") else {
                        return false;
                    };
                    let dir = self.folder.clone().unwrap_or_default();
                    self.viewing = Some(storage::join(&dir, name));
                }
            }
            UiEvent::Click(tag) => {
                let Some(dir) = tag.strip_prefix("dir:") else {
                    return false;
                };
                self.folder = Some(dir.to_string());
                sys.request(Request::ResetScroll {
                    tag: "media".to_string(),
                });
            }
            _ => return false,
        }
        true
    }
}

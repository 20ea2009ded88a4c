//! Markor (`net.gsantner.markor`, 2.11.1, the version code 146 AndroidWorld installs): a
//! notebook of plain text files under `/storage/emulated/0/Documents/Markor`. MainActivity's
//! Files tab lists the notebook (folders first, then notes, by name or by date), the "+" button
//! opens "Create new file" (a name, Markdown `.md` or Plain text `.txt`, or "Folder" to make a
//! folder of that name), a tap opens a folder or a note, a long press starts the selection
//! (Delete, Rename, Move to a folder picked in "Select folder", Select all), and DocumentActivity
//! edits a note's text.
//!
//! The notes are the files ([`storage`]): the app holds only where it is (folder, selection,
//! open dialog, open note), so `cat`, `ls`, `mv` and `adb push` see and change exactly what it
//! shows. The editor writes the note as it changes, as Markor's autosave does when the activity
//! pauses (the phone has no pause callback for apps), so a note is on disk whenever an agent or
//! a check looks.

mod screens;

use std::collections::BTreeSet;

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::storage::{self, Entry, StorageError};
use crate::locale;
use crate::system::{Request, System};
use crate::view::View;

pub const PACKAGE: &str = "net.gsantner.markor";
pub const MAIN_ACTIVITY: &str = "net.gsantner.markor.activity.MainActivity";
const DOCUMENT_ACTIVITY: &str = "net.gsantner.markor.activity.DocumentActivity";
/// The notebook: AndroidWorld's `MARKOR_DATA`, `/storage/emulated/0/Documents/Markor`.
pub const NOTEBOOK: &str = "/sdcard/Documents/Markor";
/// The process id its log lines carry.
const PID: u32 = 3517;
const LOG_TAG: &str = "Markor";
/// Extensions a typed name may already carry; "Create new file" adds the format's otherwise.
const NOTE_EXTENSIONS: [&str; 4] = [".md", ".txt", ".markdown", ".text"];

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
        create: |sys| Box::new(Markor::created(sys)),
        // `pm clear` drops Markor's preferences; the notebook is shared storage and stays.
        install: |_| {},
        on_home_screen: false,
    }
}

/// The file types "Create new file" offers that AndroidWorld's notes use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Markdown,
    PlainText,
}

impl Format {
    const ALL: [Format; 2] = [Format::Markdown, Format::PlainText];

    fn extension(self) -> &'static str {
        match self {
            Format::Markdown => ".md",
            Format::PlainText => ".txt",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Format::Markdown => "markdown",
            Format::PlainText => "plaintext",
        }
    }

    fn tag(self) -> String {
        format!("format:{}", self.extension())
    }
}

/// The file name "Create new file" makes of a typed name and the extension field (which the
/// format fills in and the user may change or empty): as typed when the name already ends in a
/// note extension, else with the extension.
fn file_name(typed: &str, extension: &str) -> String {
    let name = typed.trim();
    let lower = name.to_lowercase();
    if NOTE_EXTENSIONS.iter().any(|e| lower.ends_with(e)) {
        name.to_string()
    } else {
        format!("{name}{}", extension.trim())
    }
}

/// The list's order ("Sort by"); folders always come first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SortBy {
    Name,
    Date,
}

#[derive(Debug, Clone, PartialEq)]
enum Dialog {
    NewFile {
        name: String,
        /// The extension field (`new_file_dialog__ext`).
        extension: String,
        error: Option<String>,
    },
    Rename {
        path: String,
        name: String,
        error: Option<String>,
    },
    Delete {
        paths: Vec<String>,
    },
    /// "Select folder" for a move: the folder being browsed.
    Move {
        paths: Vec<String>,
        dir: String,
        error: Option<String>,
    },
    Sort,
}

#[derive(Debug, Clone)]
struct Markor {
    /// The folder the Files tab shows.
    dir: String,
    /// Paths selected by a long press (the action mode shows while any is).
    selected: BTreeSet<String>,
    dialog: Option<Dialog>,
    /// The note open in DocumentActivity.
    editor: Option<String>,
    sort: SortBy,
    reverse: bool,
}

impl Markor {
    /// A new process: the Files tab at the notebook, which Markor makes when it is missing.
    fn created(sys: &mut System) -> Self {
        if let Err(e) = storage::ensure_dir(sys, NOTEBOOK) {
            sys.log(
                PID,
                'E',
                LOG_TAG,
                format!("cannot create the notebook: {e}"),
            );
        }
        Markor {
            dir: NOTEBOOK.to_string(),
            selected: BTreeSet::new(),
            dialog: None,
            editor: None,
            sort: SortBy::Name,
            reverse: false,
        }
    }

    /// What changed on disk since the last event: a folder that went away shows the notebook,
    /// and selected entries that went away are no longer selected.
    fn refresh(&mut self, sys: &System) {
        if !storage::is_dir(sys, &self.dir) {
            self.dir = NOTEBOOK.to_string();
        }
        self.selected.retain(|p| storage::exists(sys, p));
        if self.selected.is_empty()
            && matches!(
                self.dialog,
                Some(Dialog::Delete { .. }) | Some(Dialog::Rename { .. })
            )
        {
            self.dialog = None;
        }
    }

    /// The folder's entries as the list shows them: folders first, each group in the chosen
    /// order (newest first by date, as Markor sorts by date).
    fn entries(&self, sys: &System) -> Vec<Entry> {
        let mut entries = storage::list(sys, &self.dir);
        entries.sort_by(|a, b| {
            let order = match self.sort {
                SortBy::Name => a.name.to_lowercase().cmp(&b.name.to_lowercase()),
                SortBy::Date => b.modified.cmp(&a.modified),
            };
            let order = if self.reverse { order.reverse() } else { order };
            b.is_dir.cmp(&a.is_dir).then(order)
        });
        entries
    }

    fn fail(sys: &mut System, what: &str, e: &StorageError) {
        sys.log(PID, 'E', LOG_TAG, format!("{what}: {e}"));
    }

    /// The words a dialog shows for a failed change.
    fn message(sys: &System, e: &StorageError) -> String {
        match e {
            StorageError::Exists(name) => {
                locale::format(&sys.locale, PACKAGE, "file_or_folder_exists", &[name])
            }
            StorageError::InvalidName(_) => tr(sys, "enter_a_name").to_string(),
            other => other.to_string(),
        }
    }

    fn open_note(&mut self, sys: &mut System, path: String) {
        self.editor = Some(path);
        sys.request(Request::Focus {
            tag: "editor".to_string(),
        });
    }

    fn close_dialog(&mut self, sys: &mut System) {
        self.dialog = None;
        sys.request(Request::ClearFocus);
    }

    fn handle_editor(&mut self, path: &str, event: &UiEvent, sys: &mut System) -> bool {
        let text = match event {
            UiEvent::TextChanged { tag, text } if tag == "editor" => text.clone(),
            // A new line: the editor is multi-line, ENTER types one.
            UiEvent::EditorAction(tag) if tag == "editor" => storage::read_text(sys, path) + "\n",
            UiEvent::Click(tag) if tag == "editor" => return true,
            // Save writes what the editor shows; the note is on disk already (see the module doc).
            UiEvent::Click(tag) if tag == "save" => storage::read_text(sys, path),
            UiEvent::Back => {
                self.editor = None;
                sys.request(Request::ClearFocus);
                return true;
            }
            UiEvent::Click(tag) if tag == "up" => {
                self.editor = None;
                sys.request(Request::ClearFocus);
                return true;
            }
            _ => return false,
        };
        if let Err(e) = storage::write_text(sys, path, &text) {
            Self::fail(sys, "save", &e);
        }
        true
    }

    fn handle_files(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Back if !self.selected.is_empty() => self.selected.clear(),
            UiEvent::Back if self.dir != NOTEBOOK => self.go_up(sys),
            UiEvent::Back => return false,
            UiEvent::Click(tag) if tag == "up" || tag == "entry_up" => self.go_up(sys),
            UiEvent::Click(tag) if tag == "new" => {
                self.dialog = Some(Dialog::NewFile {
                    name: String::new(),
                    extension: Format::Markdown.extension().to_string(),
                    error: None,
                });
                sys.request(Request::Focus {
                    tag: "new_name".to_string(),
                });
            }
            UiEvent::Click(tag) if tag == "sort" => self.dialog = Some(Dialog::Sort),
            UiEvent::Click(tag) if tag == "sel_close" => self.selected.clear(),
            UiEvent::Click(tag) if tag == "sel_all" => {
                self.selected = self.entries(sys).into_iter().map(|e| e.path).collect();
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
                self.dialog = Some(Dialog::Move {
                    paths: self.selected.iter().cloned().collect(),
                    dir: NOTEBOOK.to_string(),
                    error: None,
                });
            }
            UiEvent::LongClick(tag) => {
                let Some(name) = tag.strip_prefix("entry:") else {
                    return false;
                };
                let path = storage::join(&self.dir, name);
                if !self.selected.remove(&path) {
                    self.selected.insert(path);
                }
            }
            UiEvent::Click(tag) => {
                let Some(name) = tag.strip_prefix("entry:") else {
                    return false;
                };
                let path = storage::join(&self.dir, name);
                if !self.selected.is_empty() {
                    if !self.selected.remove(&path) {
                        self.selected.insert(path);
                    }
                } else if storage::is_dir(sys, &path) {
                    self.dir = path;
                    sys.request(Request::ResetScroll {
                        tag: "files".to_string(),
                    });
                } else {
                    self.open_note(sys, path);
                }
            }
            _ => return false,
        }
        true
    }

    fn go_up(&mut self, sys: &mut System) {
        if self.dir != NOTEBOOK {
            self.dir = storage::parent_of(&self.dir).to_string();
            self.selected.clear();
            sys.request(Request::ResetScroll {
                tag: "files".to_string(),
            });
        }
    }

    fn handle_dialog(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if matches!(event, UiEvent::Back)
            || matches!(event, UiEvent::Click(t) if t == "dialog_cancel")
        {
            self.close_dialog(sys);
            return true;
        }
        let Some(dialog) = self.dialog.as_mut() else {
            return false;
        };
        // What to do once the dialog is let go of.
        let mut close = false;
        let mut open = None;
        match (dialog, event) {
            (Dialog::NewFile { name, .. }, UiEvent::TextChanged { tag, text })
                if tag == "new_name" =>
            {
                *name = text.clone();
            }
            (Dialog::NewFile { extension, .. }, UiEvent::TextChanged { tag, text })
                if tag == "new_ext" =>
            {
                *extension = text.clone();
            }
            (Dialog::NewFile { extension, .. }, UiEvent::Click(tag))
                if Format::ALL.iter().any(|f| f.tag() == *tag) =>
            {
                if let Some(f) = Format::ALL.into_iter().find(|f| f.tag() == *tag) {
                    *extension = f.extension().to_string();
                }
            }
            (
                Dialog::NewFile {
                    name,
                    extension,
                    error,
                },
                UiEvent::Click(tag),
            ) if tag == "new_ok" || tag == "new_folder" => {
                let folder = tag == "new_folder";
                let typed = name.trim();
                let file = if folder {
                    typed.to_string()
                } else {
                    file_name(typed, extension)
                };
                if typed.is_empty() || !storage::valid_name(&file) {
                    *error = Some(tr(sys, "enter_a_name").to_string());
                    return true;
                }
                let path = storage::join(&self.dir, &file);
                let made = if folder {
                    storage::create_dir(sys, &path)
                } else {
                    storage::create_file(sys, &path)
                };
                match made {
                    Ok(()) => {
                        close = true;
                        open = Some(path).filter(|_| !folder);
                    }
                    Err(e) => *error = Some(Self::message(sys, &e)),
                }
            }
            (Dialog::Rename { name, .. }, UiEvent::TextChanged { tag, text })
                if tag == "rename_name" =>
            {
                *name = text.clone();
            }
            (Dialog::Rename { path, name, error }, UiEvent::Click(tag)) if tag == "rename_ok" => {
                let new_name = name.trim().to_string();
                if !storage::valid_name(&new_name) {
                    *error = Some(tr(sys, "enter_a_name").to_string());
                    return true;
                }
                let to = storage::join(storage::parent_of(path), &new_name);
                match storage::rename(sys, path, &to) {
                    Ok(()) => close = true,
                    // The same name: nothing to do.
                    Err(_) if to == *path => close = true,
                    Err(e) => *error = Some(Self::message(sys, &e)),
                }
            }
            (Dialog::Delete { paths }, UiEvent::Click(tag)) if tag == "delete_ok" => {
                for path in std::mem::take(paths) {
                    if let Err(e) = storage::delete(sys, &path) {
                        Self::fail(sys, "delete", &e);
                    }
                }
                close = true;
            }
            (Dialog::Move { dir, paths, .. }, UiEvent::Click(tag)) if tag.starts_with("pick:") => {
                let target = storage::join(dir, &tag["pick:".len()..]);
                // A folder being moved cannot take itself.
                if !paths.contains(&target) {
                    *dir = target;
                }
            }
            (Dialog::Move { dir, .. }, UiEvent::Click(tag)) if tag == "pick_up" => {
                if *dir != NOTEBOOK {
                    *dir = storage::parent_of(dir).to_string();
                }
            }
            (Dialog::Move { dir, paths, error }, UiEvent::Click(tag)) if tag == "move_ok" => {
                let (dir, paths) = (dir.clone(), paths.clone());
                let mut failed = None;
                for path in paths {
                    let to = storage::join(&dir, storage::name_of(&path));
                    if to != path {
                        if let Err(e) = storage::rename(sys, &path, &to) {
                            failed = Some(Self::message(sys, &e));
                        }
                    }
                }
                match failed {
                    Some(message) => *error = Some(message),
                    None => close = true,
                }
            }
            (Dialog::Sort, UiEvent::Click(tag)) if tag.starts_with("sort:") => {
                match &tag["sort:".len()..] {
                    "name" => self.sort = SortBy::Name,
                    "date" => self.sort = SortBy::Date,
                    "reverse" => self.reverse = !self.reverse,
                    _ => return false,
                }
                close = true;
            }
            (_, UiEvent::Click(tag))
                if ["new_name", "new_ext", "rename_name"].contains(&tag.as_str()) => {}
            _ => return false,
        }
        if close {
            // A finished rename, move or delete ends the selection.
            self.selected.clear();
            self.close_dialog(sys);
        }
        if let Some(path) = open {
            self.open_note(sys, path);
        }
        true
    }
}

impl App for Markor {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.editor {
            Some(_) => DOCUMENT_ACTIVITY,
            None => MAIN_ACTIVITY,
        }
        .to_string()
    }

    fn render(&self, sys: &System) -> View {
        if let Some(path) = &self.editor {
            return screens::render_editor(sys, path);
        }
        match &self.dialog {
            Some(dialog) => screens::render_dialog(sys, self, dialog),
            None => screens::render_files(sys, self),
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        self.refresh(sys);
        if let Some(path) = self.editor.clone() {
            return self.handle_editor(&path, event, sys);
        }
        if self.dialog.is_some() {
            return self.handle_dialog(event, sys);
        }
        self.handle_files(event, sys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_files_take_the_format_extension_unless_typed() {
        assert_eq!(file_name("shopping", ".md"), "shopping.md");
        assert_eq!(file_name(" todo ", ".txt"), "todo.txt");
        assert_eq!(file_name("notes.txt", ".md"), "notes.txt");
        assert_eq!(file_name("Notes.MD", ".txt"), "Notes.MD");
        assert_eq!(file_name("v1.2", ".md"), "v1.2.md");
        assert_eq!(file_name("x7Kp2mQa", ""), "x7Kp2mQa");
    }
}

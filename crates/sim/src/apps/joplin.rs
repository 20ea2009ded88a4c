//! Joplin (`net.cozic.joplin`, the version code 2097740 AndroidWorld installs): notebooks and
//! notes in `databases/joplin.sqlite` ([`store`]), as AndroidWorld's `joplin_app_utils` writes
//! them for its Notes* information-retrieval classes. The notes screen lists a notebook's notes
//! (or all of them), a to-do with its checkbox; the sidebar (the toolbar's menu button) lists
//! the notebooks; a note opens on its own screen, which shows its title, its whole body and, for
//! a to-do, the checkbox. Ticking a to-do writes its completion time. The toolbar's search opens
//! the search screen: a field, and the notes whose title or body holds what is typed in it.
//!
//! Not a [`records`](super::records) app: Joplin's rows live in two tables joined by text uuids
//! (a note's `parent_id` names its notebook), and its screens are notebook → note list → note,
//! which the records machinery's one table with integer keys does not model.
//!
//! The tables are the only state that lasts: they are re-read on create and before every event,
//! so AndroidWorld's pulled-and-pushed database, `sqlite3` edits and `pm clear` need nothing
//! special. What is on screen (the notebook, the open note, the sidebar) is plain data.

mod screens;
pub mod store;

use crate::app::{App, AppInfo, UiEvent};
use crate::locale;
use crate::system::{Request, System};
use crate::view::View;

use store::{Folder, Note};

pub const PACKAGE: &str = "net.cozic.joplin";
pub const ACTIVITY: &str = "net.cozic.joplin.MainActivity";
pub use store::DB_PATH;
const PID: u32 = 3633;
const TAG: &str = "Joplin";

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn rid(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |sys| Box::new(Joplin::created(sys)),
        install: |sys| {
            if let Err(e) = store::open(sys) {
                sys.log(PID, 'E', TAG, format!("cannot create {DB_PATH}: {e}"));
            }
        },
        on_home_screen: false,
    }
}

/// Which notes the list shows.
#[derive(Debug, Clone, PartialEq)]
enum Shown {
    All,
    Folder(String),
}

#[derive(Clone)]
struct Joplin {
    folders: Vec<Folder>,
    notes: Vec<Note>,
    shown: Shown,
    sidebar: bool,
    /// The note open on the note screen.
    open: Option<String>,
    /// The search screen's query, while it is shown (over the list, under an open note).
    search: Option<String>,
}

impl Joplin {
    /// A new process: all notes, as the app opens with no notebook picked.
    fn created(sys: &mut System) -> Joplin {
        let mut app = Joplin {
            folders: Vec::new(),
            notes: Vec::new(),
            shown: Shown::All,
            sidebar: false,
            open: None,
            search: None,
        };
        app.reload(sys);
        app
    }

    fn reload(&mut self, sys: &mut System) {
        let read = store::open(sys).and_then(|db| Ok((store::folders(&db)?, store::notes(&db)?)));
        match read {
            Ok((folders, notes)) => {
                self.folders = folders;
                self.notes = notes;
            }
            Err(e) => sys.log(PID, 'E', TAG, format!("cannot read notes: {e}")),
        }
        // A notebook or note deleted behind the app's back is no longer shown.
        if let Shown::Folder(id) = &self.shown {
            if !self.folders.iter().any(|f| &f.id == id) {
                self.shown = Shown::All;
            }
        }
        if let Some(id) = &self.open {
            if !self.notes.iter().any(|n| &n.id == id) {
                self.open = None;
            }
        }
    }

    /// The notes the list shows, in its order.
    fn listed(&self) -> Vec<&Note> {
        self.notes
            .iter()
            .filter(|n| match &self.shown {
                Shown::All => true,
                Shown::Folder(id) => &n.parent_id == id,
            })
            .collect()
    }

    /// The notes the search finds: those whose title or body holds the query, ignoring case, in
    /// the list's order; nothing before a word is typed.
    fn found(&self) -> Vec<&Note> {
        let Some(q) = self
            .search
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty())
        else {
            return Vec::new();
        };
        let q = q.to_lowercase();
        self.notes
            .iter()
            .filter(|n| n.title.to_lowercase().contains(&q) || n.body.to_lowercase().contains(&q))
            .collect()
    }

    /// The list's title: the notebook's name, or "All notes".
    fn title(&self, sys: &System) -> String {
        match &self.shown {
            Shown::All => tr(sys, "all_notes").to_string(),
            Shown::Folder(id) => self
                .folders
                .iter()
                .find(|f| &f.id == id)
                .map(|f| f.title.clone())
                .unwrap_or_default(),
        }
    }

    fn toggle(&mut self, sys: &mut System, id: &str) {
        let Some(done) = self.notes.iter().find(|n| n.id == id).map(Note::done) else {
            return;
        };
        let now = sys.clock.now().and_utc().timestamp_millis();
        match store::open(sys).and_then(|db| store::set_completed(&db, id, !done, now)) {
            Ok(true) => sys.log(PID, 'I', TAG, format!("to-do {id} completed: {}", !done)),
            Ok(false) => {}
            Err(e) => sys.log(PID, 'E', TAG, format!("cannot save to-do {id}: {e}")),
        }
        self.reload(sys);
    }

    fn handle_sidebar(&mut self, event: &UiEvent) -> bool {
        match event {
            UiEvent::Click(t) if t == "all_notes" => self.shown = Shown::All,
            // A notebook; the scrim, or anything else outside the panel, only closes it.
            UiEvent::Click(t) => {
                if let Some(id) = t.strip_prefix("folder:") {
                    self.shown = Shown::Folder(id.to_string());
                }
            }
            UiEvent::Back => {}
            _ => return false,
        }
        self.sidebar = false;
        true
    }
}

impl App for Joplin {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        ACTIVITY.to_string()
    }

    fn render(&self, sys: &System) -> View {
        if let Some(note) = self
            .open
            .as_ref()
            .and_then(|id| self.notes.iter().find(|n| &n.id == id))
        {
            let folder = self.folders.iter().find(|f| f.id == note.parent_id);
            return screens::note(sys, note, folder.map(|f| f.title.as_str()));
        }
        if let Some(query) = &self.search {
            return screens::search(sys, query, &self.found());
        }
        let list = screens::notes(
            sys,
            &self.title(sys),
            &self.listed(),
            self.folders.is_empty(),
        );
        if self.sidebar {
            let current = match &self.shown {
                Shown::All => None,
                Shown::Folder(id) => Some(id.as_str()),
            };
            return screens::with_sidebar(sys, list, &self.folders, current);
        }
        list
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        self.reload(sys);
        if self.sidebar {
            let handled = self.handle_sidebar(event);
            sys.request(Request::ResetScroll {
                tag: "notes".to_string(),
            });
            return handled;
        }
        if let Some(id) = self.open.clone() {
            return match event {
                UiEvent::Click(t) if t == "up" => {
                    self.open = None;
                    true
                }
                UiEvent::Back => {
                    self.open = None;
                    true
                }
                UiEvent::Click(t) if t == "note_todo" => {
                    self.toggle(sys, &id);
                    true
                }
                _ => false,
            };
        }
        if self.search.is_some() {
            match event {
                UiEvent::TextChanged { tag, text } if tag == "search_query" => {
                    self.search = Some(text.clone());
                    return true;
                }
                UiEvent::EditorAction(_) => {
                    sys.request(Request::ClearFocus);
                    return true;
                }
                UiEvent::Back => {
                    self.search = None;
                    return true;
                }
                UiEvent::Click(t) if t == "up" => {
                    self.search = None;
                    return true;
                }
                // A found note opens (and Back comes back here), a to-do's box ticks, as in the list.
                _ => {}
            }
        }
        match event {
            UiEvent::Click(t) if t == "sidebar" => self.sidebar = true,
            UiEvent::Click(t) if t == "search" => {
                self.search = Some(String::new());
                sys.request(Request::Focus {
                    tag: "search_query".into(),
                });
            }
            UiEvent::Click(t) => {
                if let Some(id) = t.strip_prefix("todo:") {
                    let id = id.to_string();
                    self.toggle(sys, &id);
                } else if let Some(id) = t.strip_prefix("note:") {
                    self.open = Some(id.to_string());
                    sys.request(Request::ResetScroll {
                        tag: "note".to_string(),
                    });
                    // The note's screen replaces the search field, and the keyboard goes with it.
                    sys.request(Request::ClearFocus);
                } else {
                    return false;
                }
            }
            // Back from a notebook shows all notes first, then leaves.
            UiEvent::Back if self.shown != Shown::All => self.shown = Shown::All,
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(id: &str, folder: &str) -> Note {
        Note {
            id: id.to_string(),
            parent_id: folder.to_string(),
            title: id.to_string(),
            body: String::new(),
            is_todo: false,
            todo_completed: 0,
        }
    }

    fn app() -> Joplin {
        Joplin {
            folders: vec![
                Folder {
                    id: "f1".into(),
                    title: "Recipes".into(),
                },
                Folder {
                    id: "f2".into(),
                    title: "Work".into(),
                },
            ],
            notes: vec![note("a", "f1"), note("b", "f2"), note("c", "f1")],
            shown: Shown::All,
            sidebar: true,
            open: None,
            search: None,
        }
    }

    #[test]
    fn a_notebook_picked_in_the_sidebar_lists_only_its_notes() {
        let mut app = app();
        assert_eq!(app.listed().len(), 3);
        assert!(app.handle_sidebar(&UiEvent::Click("folder:f1".into())));
        assert!(!app.sidebar);
        let ids: Vec<&str> = app.listed().iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["a", "c"]);
        app.sidebar = true;
        assert!(app.handle_sidebar(&UiEvent::Click("all_notes".into())));
        assert_eq!(app.listed().len(), 3);
    }

    #[test]
    fn the_search_finds_notes_by_title_or_body_ignoring_case() {
        let mut app = app();
        app.notes[1].body = "25 attendees were present".into();
        app.search = Some(String::new());
        assert!(app.found().is_empty());
        app.search = Some("ATTENDEES".into());
        let ids: Vec<&str> = app.found().iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["b"]);
        app.search = Some("c".into());
        let ids: Vec<&str> = app.found().iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["c"]);
    }

    #[test]
    fn tapping_outside_the_sidebar_closes_it_and_keeps_the_notebook() {
        let mut app = app();
        app.shown = Shown::Folder("f2".into());
        assert!(app.handle_sidebar(&UiEvent::Click("scrim".into())));
        assert!(!app.sidebar);
        assert_eq!(app.shown, Shown::Folder("f2".into()));
    }
}

//! The one way to build a "records" app: rows of one SQLite table at the app's real path and
//! schema, shown as a list (title, subtitle, trailing value per row), an add/edit form with a field
//! per column a user edits (text, multi-line text, a money amount stored in cents, a choice among
//! fixed ids), a detail page with Edit and Delete, and multi-select delete (a long press starts
//! the selection, taps add or remove rows, "Select All", Delete with a confirmation). An app such
//! as Pro Expense or Broccoli is a [`Spec`]: its package, table, fields, how a row reads, and the
//! first-run pages it shows until they are done.
//!
//! The table is the only state that lasts: it is re-read on create and before every event, so
//! `sqlite3` edits, AndroidWorld's pulled-and-pushed databases, `pm clear`, force-stop and
//! snapshots need nothing special. What is on screen (the page, the form's text, the selection)
//! is plain data a snapshot copies.

mod screens;
pub mod store;

use std::collections::BTreeSet;

use crate::app::{App, UiEvent};
use crate::locale;
use crate::system::{Request, System};
use crate::view::View;

/// How a field is edited, stored and shown.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// One line of text (TEXT).
    Text,
    /// Several lines of text (TEXT): ingredients, directions, notes.
    Multiline,
    /// A money amount typed as `12.34`, stored as an INTEGER count of cents, shown `$12.34`.
    Money,
    /// One of fixed ids (INTEGER), each with the string resource that names it.
    Choice(&'static [(i64, &'static str)]),
}

/// A column the form edits.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub column: &'static str,
    /// The string resource of its label (and the empty input's hint).
    pub label: &'static str,
    /// The resource id (tail) of its input.
    pub id: &'static str,
    pub kind: Kind,
    /// Save refuses an empty value (or a zero amount).
    pub required: bool,
}

/// A number column the app reads for its rows (a record's `stamps`): an epoch-milliseconds time,
/// or another measure the app shows but the form never edits (a track's distance or duration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stamp {
    /// Set to the clock when the row is made.
    Created,
    /// Set to the clock when the row is made and on every save.
    Modified,
    /// Shown but never written by the form (a task's due or completion time, a track's distance,
    /// set by whoever wrote the row): a new row leaves it to the column's default.
    Kept,
}

/// A page shown on first launch until its last button is pressed.
#[derive(Debug, Clone, Copy)]
pub struct IntroPage {
    /// String resources of the title and the button.
    pub title: &'static str,
    pub button: &'static str,
    pub button_id: &'static str,
    /// The choices offered (shown as given: language and currency names); the first is selected.
    pub options: &'static [&'static str],
}

/// First-run pages and the shared_prefs file whose presence says they are done.
#[derive(Debug, Clone, Copy)]
pub struct Intro {
    pub pages: &'static [IntroPage],
    pub prefs_path: &'static str,
    pub prefs_xml: &'static str,
}

/// Resource id tails of the list's parts.
#[derive(Debug, Clone, Copy)]
pub struct Ids {
    pub list: &'static str,
    pub row: &'static str,
    pub title: &'static str,
    pub subtitle: &'static str,
    pub trailing: &'static str,
    /// The add button; empty for an app whose rows are made elsewhere (OpenTracks records a
    /// track, it has no form for a new one).
    pub fab: &'static str,
    pub save: &'static str,
}

/// String resources of the screens' titles. Buttons use the names every records app defines:
/// `save`, `edit`, `delete`, `cancel`, `confirm`, `select_all`, `delete_items`,
/// `will_be_deleted`, `no_item`, `back`, `add`, `close`.
#[derive(Debug, Clone, Copy)]
pub struct Titles {
    pub list: &'static str,
    pub new: &'static str,
    pub edit: &'static str,
    pub detail: &'static str,
}

/// One records app.
pub struct Spec {
    pub package: &'static str,
    pub activity: &'static str,
    /// The process id and tag its log lines carry.
    pub pid: u32,
    pub tag: &'static str,
    pub db_path: &'static str,
    /// `CREATE TABLE IF NOT EXISTS …` for every table the app's database has.
    pub schema: &'static str,
    pub table: &'static str,
    pub key: &'static str,
    /// The list's `ORDER BY`.
    pub order_by: &'static str,
    pub fields: &'static [Field],
    pub stamps: &'static [(&'static str, Stamp)],
    /// The field whose value titles a row.
    pub title_field: usize,
    /// A row's second line and its value at the end (amount, servings).
    pub subtitle: fn(&System, &Record) -> String,
    pub trailing: fn(&System, &Record) -> String,
    /// Labelled values the detail page shows below the fields (string resource of the label, the
    /// value): a track's statistics. `None`: the subtitle's one line instead.
    pub facts: Option<fn(&System, &Record) -> Vec<(&'static str, String)>>,
    pub titles: Titles,
    pub ids: Ids,
    pub intro: Option<Intro>,
    /// The app's primary colour (toolbar accents, FAB, selection).
    pub accent: [u8; 4],
}

impl Spec {
    pub fn tr(&self, sys: &System, name: &'static str) -> &'static str {
        locale::string(&sys.locale, self.package, name)
    }

    pub fn rid(&self, name: &str) -> String {
        format!("{}:id/{name}", self.package)
    }

    /// The label a choice field shows for a stored id.
    pub fn choice_label(&self, sys: &System, field: usize, value: &str) -> String {
        match self.fields.get(field).map(|f| f.kind) {
            Some(Kind::Choice(options)) => options
                .iter()
                .find(|(id, _)| id.to_string() == value)
                .map(|(_, name)| self.tr(sys, name).to_string())
                .unwrap_or_default(),
            _ => value.to_string(),
        }
    }

    /// A field's stored value as a reader sees it (`$12.34`, the choice's name, the text).
    pub fn shown(&self, sys: &System, field: usize, value: &str) -> String {
        match self.fields.get(field).map(|f| f.kind) {
            Some(Kind::Money) => format!("${}", cents_text(value.parse().unwrap_or(0))),
            Some(Kind::Choice(_)) => self.choice_label(sys, field, value),
            _ => value.to_string(),
        }
    }
}

/// An epoch-ms time's day in the locale's medium form ("Oct 16, 2023"; the phone's zone is UTC),
/// as records apps show due days and start days.
pub fn day(sys: &System, ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| locale::format_date(t.date_naive(), &sys.locale, locale::DateStyle::Medium))
        .unwrap_or_default()
}

/// `12345` cents as `123.45`.
pub fn cents_text(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let c = cents.abs();
    format!("{sign}{}.{:02}", c / 100, c % 100)
}

/// A typed amount (`123`, `123.4`, `123.45`, `$1,234.50`) in cents; `None` when it is no amount.
pub fn parse_cents(text: &str) -> Option<i64> {
    let t: String = text
        .trim()
        .trim_start_matches('$')
        .chars()
        .filter(|c| *c != ',')
        .collect();
    let (whole, frac) = t.split_once('.').unwrap_or((&t, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
        || frac.len() > 2
    {
        return None;
    }
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac: i64 = format!("{frac:0<2}").parse().ok()?;
    whole.checked_mul(100)?.checked_add(frac)
}

/// One row: its key, each field's stored value as text (cents, choice id, text), and its stamps.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub id: i64,
    pub values: Vec<String>,
    pub stamps: Vec<i64>,
}

/// A records app's `AppInfo::create`: the app with its first-run pages when they are not done.
pub fn create(sys: &mut System, spec: &'static Spec) -> Box<dyn App> {
    Box::new(RecordsApp::created(sys, spec))
}

/// A records app's `AppInfo::install` (first boot and `pm clear`): its database, with no rows.
pub fn install(sys: &mut System, spec: &'static Spec) {
    if let Err(e) = store::open(sys, spec) {
        sys.log(
            spec.pid,
            'E',
            spec.tag,
            format!("cannot create {}: {e}", spec.db_path),
        );
    }
}

/// The add/edit form: the record it edits (`None`: a new one) and each field's text as typed
/// (an amount as `12.34`, a choice as its id).
#[derive(Debug, Clone, PartialEq)]
struct Form {
    id: Option<i64>,
    values: Vec<String>,
    /// The field whose value Save refused.
    missing: Option<usize>,
}

#[derive(Debug, Clone, PartialEq)]
enum Page {
    Detail(i64),
    Form(Form),
}

/// A records app's running state.
#[derive(Clone)]
struct RecordsApp {
    spec: &'static Spec,
    records: Vec<Record>,
    /// Pages over the list, top last.
    stack: Vec<Page>,
    /// The rows picked in selection mode (`None`: not selecting).
    selection: Option<BTreeSet<i64>>,
    /// The rows the confirmation dialog asks to delete.
    confirm: Option<Vec<i64>>,
    /// The first-run page showing and the option picked on it.
    intro: Option<(usize, usize)>,
}

impl RecordsApp {
    fn created(sys: &mut System, spec: &'static Spec) -> RecordsApp {
        let intro = spec
            .intro
            .filter(|intro| !intro_done(sys, intro))
            .map(|_| (0, 0));
        let mut app = RecordsApp {
            spec,
            records: Vec::new(),
            stack: Vec::new(),
            selection: None,
            confirm: None,
            intro,
        };
        app.reload(sys);
        app
    }

    fn reload(&mut self, sys: &mut System) {
        let spec = self.spec;
        match store::open(sys, spec).and_then(|db| store::list(&db, spec)) {
            Ok(records) => self.records = records,
            Err(e) => sys.log(spec.pid, 'E', spec.tag, format!("cannot read rows: {e}")),
        }
        // Rows deleted behind the app's back leave its pages and selection.
        let ids: BTreeSet<i64> = self.records.iter().map(|r| r.id).collect();
        self.stack.retain(|p| match p {
            Page::Detail(id) => ids.contains(id),
            Page::Form(f) => f.id.is_none_or(|id| ids.contains(&id)),
        });
        if let Some(sel) = &mut self.selection {
            sel.retain(|id| ids.contains(id));
        }
    }

    fn record(&self, id: i64) -> Option<&Record> {
        self.records.iter().find(|r| r.id == id)
    }

    fn open_form(&mut self, sys: &mut System, id: Option<i64>) {
        let spec = self.spec;
        let values = match id.and_then(|id| self.record(id)) {
            Some(r) => spec
                .fields
                .iter()
                .zip(&r.values)
                .map(|(f, v)| match f.kind {
                    Kind::Money => cents_text(v.parse().unwrap_or(0)),
                    _ => v.clone(),
                })
                .collect(),
            None => spec
                .fields
                .iter()
                .map(|f| match f.kind {
                    Kind::Choice(options) => options
                        .first()
                        .map(|(id, _)| id.to_string())
                        .unwrap_or_default(),
                    _ => String::new(),
                })
                .collect(),
        };
        self.stack.push(Page::Form(Form {
            id,
            values,
            missing: None,
        }));
        // A new form opens at its top, whatever the last one was scrolled to.
        sys.request(Request::ResetScroll {
            tag: "form".to_string(),
        });
        sys.request(Request::Focus {
            tag: "f:0".to_string(),
        });
    }

    fn delete(&mut self, sys: &mut System, ids: &[i64]) {
        let spec = self.spec;
        match store::open(sys, spec).and_then(|db| store::delete(&db, spec, ids)) {
            Ok(n) => sys.log(spec.pid, 'I', spec.tag, format!("deleted {n} rows")),
            Err(e) => sys.log(spec.pid, 'E', spec.tag, format!("cannot delete: {e}")),
        }
        self.selection = None;
        self.reload(sys);
    }

    fn save(&mut self, sys: &mut System) {
        let spec = self.spec;
        let Some(Page::Form(form)) = self.stack.last_mut() else {
            return;
        };
        let mut stored = Vec::with_capacity(spec.fields.len());
        for (i, (f, v)) in spec.fields.iter().zip(&form.values).enumerate() {
            let value = match f.kind {
                Kind::Money => match parse_cents(v) {
                    Some(c) => c.to_string(),
                    None if v.trim().is_empty() && !f.required => "0".to_string(),
                    None => {
                        form.missing = Some(i);
                        return;
                    }
                },
                _ => v.trim().to_string(),
            };
            if f.required && (value.is_empty() || (f.kind == Kind::Money && value == "0")) {
                form.missing = Some(i);
                return;
            }
            stored.push(value);
        }
        let id = form.id;
        let now = sys.clock.now().and_utc().timestamp_millis();
        let result = store::open(sys, spec).and_then(|db| match id {
            Some(id) => store::update(&db, spec, id, &stored, now).map(|_| id),
            None => store::insert(&db, spec, &stored, now),
        });
        match result {
            Ok(id) => sys.log(spec.pid, 'I', spec.tag, format!("saved row {id}")),
            Err(e) => sys.log(spec.pid, 'E', spec.tag, format!("cannot save: {e}")),
        }
        self.stack.pop();
        sys.request(Request::ClearFocus);
        self.reload(sys);
    }

    fn handle_intro(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let (Some((page, _)), Some(intro)) = (self.intro, self.spec.intro) else {
            return false;
        };
        let UiEvent::Click(tag) = event else {
            // Back leaves the app before the pages are done.
            return false;
        };
        if let Some(option) = tag.strip_prefix("intro_opt:").and_then(|o| o.parse().ok()) {
            self.intro = Some((page, option));
        } else if tag == "intro_next" {
            if page + 1 < intro.pages.len() {
                self.intro = Some((page + 1, 0));
            } else {
                if let Err(e) = write_prefs(sys, &intro) {
                    sys.log(
                        self.spec.pid,
                        'E',
                        self.spec.tag,
                        format!("cannot write {}: {e}", intro.prefs_path),
                    );
                }
                self.intro = None;
            }
        } else {
            return false;
        }
        true
    }

    fn handle_confirm(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Some(ids) = self.confirm.clone() else {
            return false;
        };
        match event {
            UiEvent::Click(t) if t == "confirm_ok" => {
                self.confirm = None;
                if let Some(Page::Detail(_)) = self.stack.last() {
                    self.stack.pop();
                }
                self.delete(sys, &ids);
            }
            UiEvent::Click(t) if t == "confirm_cancel" => self.confirm = None,
            UiEvent::Back => self.confirm = None,
            // The dialog is modal: nothing under it takes a tap.
            _ => {}
        }
        true
    }

    fn handle_form(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let spec = self.spec;
        let Some(Page::Form(form)) = self.stack.last_mut() else {
            return false;
        };
        match event {
            UiEvent::TextChanged { tag, text } => {
                let Some(i) = field_index(tag) else {
                    return false;
                };
                if let Some(v) = form.values.get_mut(i) {
                    *v = text.clone();
                    form.missing = None;
                }
            }
            UiEvent::EditorAction(_) => sys.request(Request::ClearFocus),
            UiEvent::Click(tag) if tag == "form_save" => self.save(sys),
            UiEvent::Click(tag) if tag == "up" => {
                self.stack.pop();
                sys.request(Request::ClearFocus);
            }
            UiEvent::Click(tag) => {
                let Some(rest) = tag.strip_prefix("f:") else {
                    return false;
                };
                match rest.split_once(':') {
                    // A choice: `f:<field>:<id>`.
                    Some((i, id)) => {
                        let Some(i) = i.parse::<usize>().ok() else {
                            return false;
                        };
                        if let (Some(v), Some(Kind::Choice(_))) =
                            (form.values.get_mut(i), spec.fields.get(i).map(|f| f.kind))
                        {
                            *v = id.to_string();
                            form.missing = None;
                        }
                        sys.request(Request::ClearFocus);
                    }
                    None => sys.request(Request::Focus { tag: tag.clone() }),
                }
            }
            UiEvent::Back => {
                self.stack.pop();
                sys.request(Request::ClearFocus);
            }
            _ => return false,
        }
        true
    }

    fn handle_detail(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Some(Page::Detail(id)) = self.stack.last().cloned() else {
            return false;
        };
        match event {
            UiEvent::Click(t) if t == "detail_edit" => self.open_form(sys, Some(id)),
            UiEvent::Click(t) if t == "detail_delete" => self.confirm = Some(vec![id]),
            UiEvent::Click(t) if t == "up" => {
                self.stack.pop();
            }
            UiEvent::Back => {
                self.stack.pop();
            }
            _ => return false,
        }
        true
    }

    fn handle_list(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let row = |tag: &str| {
            tag.strip_prefix("row:")
                .and_then(|id| id.parse::<i64>().ok())
        };
        match event {
            UiEvent::LongClick(tag) => {
                let Some(id) = row(tag) else { return false };
                self.selection.get_or_insert_with(BTreeSet::new).insert(id);
            }
            UiEvent::Click(tag)
                if tag == "fab" && self.selection.is_none() && !self.spec.ids.fab.is_empty() =>
            {
                self.open_form(sys, None)
            }
            UiEvent::Click(tag) if tag == "sel_close" => self.selection = None,
            UiEvent::Click(tag) if tag == "sel_all" => {
                self.selection = Some(self.records.iter().map(|r| r.id).collect());
            }
            UiEvent::Click(tag) if tag == "sel_delete" => {
                if let Some(sel) = self.selection.as_ref().filter(|s| !s.is_empty()) {
                    self.confirm = Some(sel.iter().copied().collect());
                }
            }
            UiEvent::Click(tag) => {
                let Some(id) = row(tag) else { return false };
                match &mut self.selection {
                    Some(sel) => {
                        if !sel.remove(&id) {
                            sel.insert(id);
                        }
                        if sel.is_empty() {
                            self.selection = None;
                        }
                    }
                    None => {
                        self.stack.push(Page::Detail(id));
                        sys.request(Request::ResetScroll {
                            tag: "detail".to_string(),
                        });
                    }
                }
            }
            UiEvent::Back if self.selection.is_some() => self.selection = None,
            _ => return false,
        }
        true
    }
}

/// `f:<n>`: the editable field `n`.
fn field_index(tag: &str) -> Option<usize> {
    tag.strip_prefix("f:")?.parse().ok()
}

fn intro_done(sys: &System, intro: &Intro) -> bool {
    sys.host_path(intro.prefs_path).is_some_and(|p| p.is_file())
}

fn write_prefs(sys: &System, intro: &Intro) -> std::io::Result<()> {
    let path = sys
        .host_path(intro.prefs_path)
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, intro.prefs_xml)
}

impl App for RecordsApp {
    fn package(&self) -> &'static str {
        self.spec.package
    }

    fn activity(&self) -> String {
        self.spec.activity.to_string()
    }

    fn render(&self, sys: &System) -> View {
        let spec = self.spec;
        if let (Some((page, option)), Some(intro)) = (self.intro, spec.intro) {
            if let Some(p) = intro.pages.get(page) {
                return screens::intro(sys, spec, p, option);
            }
        }
        // A dialog replaces the tree while open, as the dump shows only its window.
        if let Some(ids) = &self.confirm {
            return screens::confirm(sys, spec, ids.len());
        }
        match self.stack.last() {
            Some(Page::Form(form)) => {
                screens::form(sys, spec, &form.values, form.id.is_some(), form.missing)
            }
            Some(Page::Detail(id)) => match self.record(*id) {
                Some(r) => screens::detail(sys, spec, r),
                None => screens::list(sys, spec, &self.records, self.selection.as_ref()),
            },
            None => screens::list(sys, spec, &self.records, self.selection.as_ref()),
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if self.intro.is_some() {
            return self.handle_intro(event, sys);
        }
        self.reload(sys);
        if self.confirm.is_some() {
            return self.handle_confirm(event, sys);
        }
        match self.stack.last() {
            Some(Page::Form(_)) => self.handle_form(event, sys),
            Some(Page::Detail(_)) => self.handle_detail(event, sys),
            None => self.handle_list(event, sys),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_typed_in_dollars_and_kept_in_cents() {
        assert_eq!(parse_cents("123.45"), Some(12345));
        assert_eq!(parse_cents("123.4"), Some(12340));
        assert_eq!(parse_cents("$1,234"), Some(123400));
        assert_eq!(parse_cents(".5"), Some(50));
        assert_eq!(parse_cents("12.345"), None);
        assert_eq!(parse_cents("abc"), None);
        assert_eq!(parse_cents(""), None);
        assert_eq!(cents_text(12305), "123.05");
        assert_eq!(cents_text(1000), "10.00");
    }
}

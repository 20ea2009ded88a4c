//! Contacts (com.google.android.contacts): the sorted, scrollable contact list with search, the
//! contact editor (create and edit: first/last name, phone with its label, email; Save), and the
//! contact card with call / text actions, favourite, edit and delete. Contacts are stored through
//! the contacts provider ([`crate::providers::contacts`]).

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::communication::{self, CONTACTS_PACKAGE, CONTACTS_PID};
use crate::locale;
use crate::providers::contacts::{self as store, Contact, ContactDraft, PHONE_TYPES};
use crate::providers::now_ms;
use crate::system::{Request, System};
use crate::view::View;

mod screens;

use screens::{render_card, render_editor, render_list};

pub const PACKAGE: &str = CONTACTS_PACKAGE;
const LIST_ACTIVITY: &str = "com.android.contacts.activities.PeopleActivity";
const EDITOR_ACTIVITY: &str = "com.android.contacts.activities.ContactEditorActivity";
const CARD_ACTIVITY: &str = "com.android.contacts.quickcontact.QuickContactActivity";
const SPINNER: &str = "android.widget.Spinner";

fn id(name: &str) -> String {
    format!("com.google.android.contacts:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: LIST_ACTIVITY,
        create: |sys| {
            let _ = sys;
            Box::new(Contacts::default())
        },
        install,
        on_home_screen: true,
    }
}

const GIVEN: [&str; 16] = [
    "Alice", "Bruno", "Chloe", "Daniel", "Emma", "Farah", "George", "Hana", "Ivan", "Julia",
    "Kenji", "Laura", "Miguel", "Nora", "Oliver", "Priya",
];
const FAMILY: [&str; 12] = [
    "Anderson", "Brown", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Kim", "Martin", "Novak",
    "Patel", "Schmidt",
];
const AREA_CODES: [&str; 8] = ["212", "312", "415", "617", "650", "718", "206", "303"];

/// Seeds a realistic address book on first boot (an existing store is left alone, as
/// `pm clear` of the app leaves the provider's data).
fn install(sys: &mut System) {
    use rand::seq::SliceRandom;
    use rand::Rng;
    let Ok(conn) = store::open(sys) else {
        return;
    };
    let existing: i64 = conn
        .query_row("SELECT COUNT(*) FROM raw_contacts", [], |r| r.get(0))
        .unwrap_or(1);
    if existing > 0 {
        return;
    }
    let mut given: Vec<&str> = GIVEN.to_vec();
    given.shuffle(&mut sys.rng);
    let now = now_ms(sys);
    for (i, first) in given.iter().take(10).enumerate() {
        let last = FAMILY[sys.rng.gen_range(0..FAMILY.len())];
        let area = AREA_CODES[sys.rng.gen_range(0..AREA_CODES.len())];
        let draft = ContactDraft {
            first: first.to_string(),
            last: last.to_string(),
            phone: format!("({area}) 555-{:04}", sys.rng.gen_range(100..10_000)),
            phone_type: PHONE_TYPES[sys.rng.gen_range(0..3)].0,
            email: if sys.rng.gen_bool(0.5) {
                format!(
                    "{}.{}@example.com",
                    first.to_lowercase(),
                    last.to_lowercase()
                )
            } else {
                String::new()
            },
        };
        match store::insert(&conn, &draft, now) {
            Ok(contact_id) if i < 2 => {
                let _ = store::set_starred(&conn, contact_id, true);
            }
            Ok(_) => {}
            Err(_) => return,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Screen {
    List {
        /// `Some` while the search view is open.
        search: Option<String>,
    },
    Card {
        contact_id: i64,
        menu: bool,
        confirm_delete: bool,
    },
    Editor {
        /// The contact being edited, `None` when creating one.
        contact_id: Option<i64>,
        draft: ContactDraft,
        label_menu: bool,
    },
}

#[derive(Debug, Clone)]
struct Contacts {
    screen: Screen,
}

impl Default for Contacts {
    fn default() -> Self {
        Contacts {
            screen: Screen::List { search: None },
        }
    }
}

/// The editor's fields: event tag, hint (a string resource), resource id (what goldens aim at,
/// whatever the locale).
const FIELDS: [(&str, &str, &str); 4] = [
    ("first", "first_name", "first_name"),
    ("last", "last_name", "last_name"),
    ("phone", "phone", "phone_number"),
    ("email", "email", "email"),
];

/// A string of Contacts' `res/` in the phone's locale.
fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

/// The label Contacts shows for a phone type (`Phone.TYPE_*`), in the phone's locale.
pub fn phone_type_label(sys: &System, kind: i64) -> &'static str {
    tr(
        sys,
        match kind {
            2 => "type_mobile",
            3 => "type_work",
            1 => "type_home",
            _ => "type_other",
        },
    )
}

impl Contacts {
    fn open_editor(&mut self, sys: &mut System, contact: Option<&Contact>) {
        let (action, data) = match contact {
            Some(c) => (
                "android.intent.action.EDIT",
                format!(
                    "content://com.android.contacts/contacts/lookup/0r{}/{}",
                    c.raw_id, c.id
                ),
            ),
            None => (
                "android.intent.action.INSERT",
                "content://com.android.contacts/contacts".to_string(),
            ),
        };
        sys.log(
            communication::SYSTEM_SERVER_PID,
            'I',
            "ActivityTaskManager",
            format!(
                "START u0 {{act={action} dat={data} typ=vnd.android.cursor.dir/contact flg=0x10000000 cmp={PACKAGE}/{EDITOR_ACTIVITY}}} from uid 10123"
            ),
        );
        let draft = contact
            .map(|c| ContactDraft {
                first: c.first.clone(),
                last: c.last.clone(),
                phone: c.primary_phone().unwrap_or("").to_string(),
                phone_type: c.phones.first().map(|(_, t)| *t).unwrap_or(2),
                email: c.emails.first().cloned().unwrap_or_default(),
            })
            .unwrap_or(ContactDraft {
                phone_type: 2,
                ..ContactDraft::default()
            });
        self.screen = Screen::Editor {
            contact_id: contact.map(|c| c.id),
            draft,
            label_menu: false,
        };
        sys.request(Request::Focus {
            tag: "first".to_string(),
        });
    }

    fn save(&mut self, sys: &mut System) {
        let Screen::Editor {
            contact_id, draft, ..
        } = &self.screen
        else {
            return;
        };
        if draft.is_empty() {
            self.screen = Screen::List { search: None };
            sys.request(Request::ClearFocus);
            return;
        }
        let now = now_ms(sys);
        let result = store::open(sys).and_then(|conn| match contact_id {
            Some(id) => store::update(&conn, *id, draft, now).map(|_| *id),
            None => store::insert(&conn, draft, now),
        });
        match result {
            Ok(id) => {
                sys.log(
                    CONTACTS_PID,
                    'I',
                    "ContactSaveService",
                    format!("Saved contact {id}"),
                );
                self.screen = card(id);
            }
            Err(e) => sys.log(
                CONTACTS_PID,
                'E',
                "ContactSaveService",
                format!("Problem persisting user edits: {e}"),
            ),
        }
        sys.request(Request::ClearFocus);
    }
}

fn card(contact_id: i64) -> Screen {
    Screen::Card {
        contact_id,
        menu: false,
        confirm_delete: false,
    }
}

fn load(sys: &System, contact_id: i64) -> Option<Contact> {
    let conn = store::open(sys).ok()?;
    store::get(&conn, contact_id).ok().flatten()
}

impl App for Contacts {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.screen {
            Screen::List { .. } => LIST_ACTIVITY,
            Screen::Card { .. } => CARD_ACTIVITY,
            Screen::Editor { .. } => EDITOR_ACTIVITY,
        }
        .to_string()
    }

    fn render(&self, sys: &System) -> View {
        match &self.screen {
            Screen::List { search } => render_list(sys, search.as_deref()),
            Screen::Card {
                contact_id,
                menu,
                confirm_delete,
            } => match load(sys, *contact_id) {
                Some(c) => render_card(sys, &c, *menu, *confirm_delete),
                None => render_list(sys, None),
            },
            Screen::Editor {
                contact_id,
                draft,
                label_menu,
            } => render_editor(sys, contact_id.is_some(), draft, *label_menu),
        }
    }

    fn new_intent(&mut self, intent: &crate::app::Intent, sys: &mut System) {
        match intent.action.as_deref() {
            Some(communication::ACTION_VIEW) => {
                if let Some(id) = communication::intent_contact_id(intent) {
                    self.screen = card(id);
                }
            }
            Some(communication::ACTION_INSERT) => {
                self.open_editor(sys, None);
                if let Screen::Editor { draft, .. } = &mut self.screen {
                    // `ContactsContract.Intents.Insert` extras: NAME goes through the name
                    // splitter (the last word is the family name), PHONE and EMAIL as given.
                    if let Some(name) = intent.extra("name").map(str::trim) {
                        let (first, last) = name.rsplit_once(' ').unwrap_or((name, ""));
                        draft.first = first.trim().to_string();
                        draft.last = last.to_string();
                    }
                    if let Some(phone) = intent.extra("phone") {
                        draft.phone = phone.to_string();
                    }
                    if let Some(email) = intent.extra("email") {
                        draft.email = email.to_string();
                    }
                }
            }
            _ => {}
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        // A card whose contact vanished (deleted elsewhere) shows the list.
        if let Screen::Card { contact_id, .. } = self.screen {
            if load(sys, contact_id).is_none() {
                self.screen = Screen::List { search: None };
            }
        }
        let screen = self.screen.clone();
        match (screen, event) {
            (Screen::List { search: Some(_) }, UiEvent::Back)
            | (Screen::List { search: Some(_) }, UiEvent::Click(_))
                if is_up(event) =>
            {
                self.screen = Screen::List { search: None };
                sys.request(Request::ClearFocus);
            }
            (Screen::List { .. }, UiEvent::Click(tag)) => match tag.as_str() {
                "create" => self.open_editor(sys, None),
                "search" => {
                    self.screen = Screen::List {
                        search: Some(String::new()),
                    };
                    sys.request(Request::Focus {
                        tag: "search_text".to_string(),
                    });
                }
                "search_text" => {}
                other => match other.strip_prefix("contact:").map(str::parse::<i64>) {
                    Some(Ok(id)) => {
                        self.screen = card(id);
                        sys.request(Request::ClearFocus);
                    }
                    _ => return false,
                },
            },
            (Screen::List { search: Some(_) }, UiEvent::TextChanged { tag, text })
                if tag == "search_text" =>
            {
                self.screen = Screen::List {
                    search: Some(text.clone()),
                };
            }
            (
                Screen::Card {
                    confirm_delete: true,
                    contact_id,
                    ..
                },
                event,
            ) => match event {
                UiEvent::Click(tag) if tag == "delete_confirm" => {
                    if let Ok(conn) = store::open(sys) {
                        if let Err(e) = store::delete(&conn, contact_id) {
                            sys.log(
                                CONTACTS_PID,
                                'E',
                                "ContactSaveService",
                                format!("delete failed: {e}"),
                            );
                        }
                    }
                    self.screen = Screen::List { search: None };
                }
                UiEvent::Click(tag) if tag == "delete_cancel" => self.screen = card(contact_id),
                UiEvent::Back => self.screen = card(contact_id),
                _ => return false,
            },
            (
                Screen::Card {
                    menu: true,
                    contact_id,
                    ..
                },
                event,
            ) => match event {
                UiEvent::Click(tag) if tag == "menu_delete" => {
                    self.screen = Screen::Card {
                        contact_id,
                        menu: false,
                        confirm_delete: true,
                    }
                }
                UiEvent::Click(tag) if tag == "menu_edit" => {
                    let contact = load(sys, contact_id);
                    self.open_editor(sys, contact.as_ref());
                }
                _ => self.screen = card(contact_id),
            },
            (Screen::Card { contact_id, .. }, UiEvent::Click(tag)) => {
                let Some(contact) = load(sys, contact_id) else {
                    return false;
                };
                let number = contact.primary_phone().unwrap_or("").to_string();
                match tag.as_str() {
                    "up" => self.screen = Screen::List { search: None },
                    "edit" => self.open_editor(sys, Some(&contact)),
                    "more" => {
                        self.screen = Screen::Card {
                            contact_id,
                            menu: true,
                            confirm_delete: false,
                        }
                    }
                    "star" => {
                        if let Ok(conn) = store::open(sys) {
                            let _ = store::set_starred(&conn, contact_id, !contact.starred);
                        }
                    }
                    "call" if !number.is_empty() => communication::place_call_from(sys, &number),
                    "text" if !number.is_empty() => communication::text_from(sys, &number),
                    other => {
                        if let Some(n) = other.strip_prefix("call:") {
                            let n = n.to_string();
                            communication::place_call_from(sys, &n);
                        } else if let Some(n) = other.strip_prefix("text:") {
                            let n = n.to_string();
                            communication::text_from(sys, &n);
                        } else {
                            return false;
                        }
                    }
                }
            }
            (Screen::Card { .. }, UiEvent::Back) => self.screen = Screen::List { search: None },
            (
                Screen::Editor {
                    contact_id,
                    mut draft,
                    label_menu,
                },
                event,
            ) => {
                match event {
                    UiEvent::TextChanged { tag, text } => {
                        let field = match tag.as_str() {
                            "first" => &mut draft.first,
                            "last" => &mut draft.last,
                            "phone" => &mut draft.phone,
                            "email" => &mut draft.email,
                            _ => return false,
                        };
                        *field = text.clone();
                    }
                    UiEvent::Click(tag) if tag == "save" => {
                        self.screen = Screen::Editor {
                            contact_id,
                            draft,
                            label_menu: false,
                        };
                        self.save(sys);
                        return true;
                    }
                    UiEvent::Click(tag) if tag == "cancel" => {
                        self.leave_editor(sys, contact_id);
                        return true;
                    }
                    UiEvent::Back if label_menu => {
                        self.screen = Screen::Editor {
                            contact_id,
                            draft,
                            label_menu: false,
                        };
                        return true;
                    }
                    UiEvent::Back => {
                        // Leaving the editor with changes saves them, as Contacts does.
                        self.screen = Screen::Editor {
                            contact_id,
                            draft,
                            label_menu: false,
                        };
                        self.save(sys);
                        return true;
                    }
                    UiEvent::Click(tag) if tag == "phone_label" => {
                        self.screen = Screen::Editor {
                            contact_id,
                            draft,
                            label_menu: !label_menu,
                        };
                        return true;
                    }
                    UiEvent::Click(tag) if tag.starts_with("label:") => {
                        draft.phone_type = tag["label:".len()..].parse().unwrap_or(2);
                        self.screen = Screen::Editor {
                            contact_id,
                            draft,
                            label_menu: false,
                        };
                        return true;
                    }
                    UiEvent::Click(tag) if FIELDS.iter().any(|(t, _, _)| t == tag) => {}
                    UiEvent::EditorAction(tag) => {
                        if let Some(i) = FIELDS.iter().position(|(t, _, _)| t == tag) {
                            if let Some((next, _, _)) = FIELDS.get(i + 1) {
                                sys.request(Request::Focus {
                                    tag: next.to_string(),
                                });
                            }
                        }
                    }
                    _ => return false,
                }
                self.screen = Screen::Editor {
                    contact_id,
                    draft,
                    label_menu,
                };
            }
            _ => return false,
        }
        true
    }
}

impl Contacts {
    fn leave_editor(&mut self, sys: &mut System, contact_id: Option<i64>) {
        self.screen = match contact_id {
            Some(id) => card(id),
            None => Screen::List { search: None },
        };
        sys.request(Request::ClearFocus);
    }
}

fn is_up(event: &UiEvent) -> bool {
    matches!(event, UiEvent::Back) || matches!(event, UiEvent::Click(t) if t == "up")
}

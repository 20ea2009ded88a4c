//! The embedded phone's Phone, Contacts and Messages apps and the content providers behind
//! `content query`: apps driven through their event contract on a real `System` (real SQLite
//! files in a temporary root), checked through view trees, provider queries and logcat.

use chrono::NaiveDate;

use droidmcp::geom::Bounds;
use droidmcp::sim::app::{App, AppInfo, UiEvent};
use droidmcp::sim::apps::{clipper, contacts, dialer, messages, role_request, simple_sms};
use droidmcp::sim::providers::{self, ProviderError, Row};
use droidmcp::sim::system::{Request, SimClock, System};
use droidmcp::sim::telephony;
use droidmcp::sim::view::{Metrics, View};

use crate::util::metrics;

/// A phone's services over a fresh temporary root, with the three apps installed.
struct Rig {
    sys: System,
    _root: tempfile::TempDir,
}

fn rig_with(seed: u64, m: Metrics) -> Rig {
    let root = tempfile::tempdir().expect("temp dir");
    let mut sys = System::new(
        root.path().to_path_buf(),
        SimClock::virtual_at(
            NaiveDate::from_ymd_opt(2026, 11, 23)
                .and_then(|d| d.and_hms_opt(10, 0, 0))
                .expect("valid date"),
        ),
        m,
        seed,
    );
    for info in [dialer::info(), contacts::info(), messages::info()] {
        (info.install)(&mut sys);
    }
    Rig { sys, _root: root }
}

fn rig() -> Rig {
    rig_with(7, metrics(1080, 2400, 420, 1.0))
}

fn launch(info: AppInfo, sys: &mut System) -> Box<dyn App> {
    (info.create)(sys)
}

/// Taps the view with resource id `id` (it must be on screen and clickable), like a finger would.
fn tap_id(app: &mut dyn App, sys: &mut System, id: &str) {
    let tree = app.render(sys);
    let view = tree
        .find_by_id(id)
        .unwrap_or_else(|| panic!("no view {id} on screen"));
    assert!(view.flags.clickable, "{id} is not clickable");
    assert!(view.flags.enabled, "{id} is disabled");
    let tag = view.tag.clone().expect("clickable views carry a tag");
    assert!(
        app.handle(&UiEvent::Click(tag), sys),
        "{id} tap not handled"
    );
}

/// Types into the editable view whose hint or id matches, as the IME does (full new text).
fn type_into(app: &mut dyn App, sys: &mut System, hint_or_id: &str, text: &str) {
    let tree = app.render(sys);
    let view = find(&tree, &|v| {
        v.hint == hint_or_id || v.resource_id == hint_or_id
    })
    .unwrap_or_else(|| panic!("no field {hint_or_id}"));
    let tag = view.tag.clone().expect("editable views carry a tag");
    assert!(app.handle(
        &UiEvent::TextChanged {
            tag,
            text: text.into()
        },
        sys
    ));
}

/// Taps the clickable view that shows `text` itself or in a direct child (a list row).
fn tap_text(app: &mut dyn App, sys: &mut System, text: &str) {
    let tree = app.render(sys);
    let view = find(&tree, &|v| {
        v.flags.clickable
            && v.class != "android.widget.EditText"
            && (v.text == text || v.children.iter().any(|c| c.text == text))
    })
    .unwrap_or_else(|| panic!("nothing clickable shows {text:?}"));
    let tag = view.tag.clone().expect("clickable views carry a tag");
    assert!(
        app.handle(&UiEvent::Click(tag), sys),
        "tap on {text:?} not handled"
    );
}

fn find<'a>(view: &'a View, pred: &dyn Fn(&View) -> bool) -> Option<&'a View> {
    if pred(view) {
        return Some(view);
    }
    view.children.iter().find_map(|c| find(c, pred))
}

fn text_of(app: &dyn App, sys: &System, id: &str) -> String {
    app.render(sys)
        .find_by_id(id)
        .unwrap_or_else(|| panic!("no view {id}"))
        .text
        .clone()
}

fn query(sys: &System, uri: &str, projection: &[&str], selection: Option<&str>) -> Vec<Row> {
    let projection: Vec<String> = projection.iter().map(|s| s.to_string()).collect();
    providers::query(
        sys,
        uri,
        (!projection.is_empty()).then_some(projection.as_slice()),
        selection,
        None,
    )
    .unwrap_or_else(|e| panic!("{uri}: {e}"))
}

fn value<'a>(row: &'a Row, column: &str) -> &'a str {
    row.iter()
        .find(|(c, _)| c == column)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no column {column} in {row:?}"))
}

fn logged(sys: &System, tag: &str, needle: &str) -> bool {
    sys.logcat
        .entries
        .iter()
        .any(|e| e.tag == tag && e.message.contains(needle))
}

fn dial(app: &mut dyn App, sys: &mut System, digits: &str) {
    tap_id(app, sys, "com.android.dialer:id/fab");
    for d in digits.chars() {
        let key = match d {
            '0' => "zero",
            '1' => "one",
            '2' => "two",
            '3' => "three",
            '4' => "four",
            '5' => "five",
            '6' => "six",
            '7' => "seven",
            '8' => "eight",
            '9' => "nine",
            '*' => "star",
            '#' => "pound",
            _ => panic!("not a key: {d}"),
        };
        tap_id(app, sys, &format!("com.android.dialer:id/{key}"));
    }
}

#[test]
fn dialing_a_number_shows_the_in_call_screen_and_ending_it_logs_the_call() {
    let mut rig = rig();
    let sys = &mut rig.sys;
    let mut app = launch(dialer::info(), sys);
    assert!(logged(sys, "Dialer", "MainActivity.onCreate"));
    dial(app.as_mut(), sys, "3017130622");
    assert_eq!(
        text_of(app.as_ref(), sys, "com.android.dialer:id/digits"),
        "(301) 713-0622"
    );
    tap_id(
        app.as_mut(),
        sys,
        "com.android.dialer:id/dialpad_floating_action_button",
    );
    assert_eq!(app.activity(), "com.android.incallui.InCallActivity");
    let screen = app.render(sys);
    assert!(screen
        .find_by_id("com.android.dialer:id/incall_end_call")
        .is_some());
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.android.dialer:id/contactgrid_contact_name"
        )
        .replace(' ', ""),
        "(301)713-0622"
    );
    assert!(logged(sys, "Telecom", "EventRecord added as Call"));
    assert_eq!(sys.telephony.state(), telephony::CALL_STATE_OFFHOOK);
    assert!(telephony::dump_registry(sys).contains("\n    mCallState=2\n"));
    assert!(telephony::dump_registry(sys).contains("\n    mCallIncomingNumber=3017130622\n"));

    sys.clock.advance_ms(65_000);
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.android.dialer:id/contactgrid_bottom_timer"
        ),
        "01:05"
    );
    tap_id(app.as_mut(), sys, "com.android.dialer:id/incall_end_call");
    assert!(logged(sys, "Telecom", "InCallController: onCallRemoved"));
    assert_eq!(sys.telephony.state(), telephony::CALL_STATE_IDLE);
    assert_ne!(app.activity(), "com.android.incallui.InCallActivity");

    let calls = query(
        sys,
        "content://call_log/calls",
        &["number", "duration", "type"],
        Some("number='3017130622'"),
    );
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(value(&calls[0], "duration"), "65");
    assert_eq!(value(&calls[0], "type"), "2");
    // The Recents tab shows it first.
    let recents = app.render(sys);
    let first = recents
        .find_by_id("com.android.dialer:id/primary_text")
        .expect("a recents row");
    assert_eq!(first.text, "(301) 713-0622");
}

#[test]
fn emergency_numbers_take_the_emergency_path() {
    let mut rig = rig();
    let sys = &mut rig.sys;
    let mut app = launch(dialer::info(), sys);
    dial(app.as_mut(), sys, "911");
    tap_id(
        app.as_mut(),
        sys,
        "com.android.dialer:id/dialpad_floating_action_button",
    );
    assert!(logged(sys, "Telecom", "Emergency number detected"));
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.android.dialer:id/contactgrid_status_text"
        ),
        "Emergency call"
    );
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.android.dialer:id/contactgrid_contact_name"
        ),
        "911"
    );
    // A normal number does not log it.
    let mut rig = self::rig();
    let sys = &mut rig.sys;
    let mut app = launch(dialer::info(), sys);
    dial(app.as_mut(), sys, "11489");
    tap_id(
        app.as_mut(),
        sys,
        "com.android.dialer:id/dialpad_floating_action_button",
    );
    assert!(!logged(sys, "Telecom", "Emergency number detected"));
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.android.dialer:id/contactgrid_contact_name"
        ),
        "11489"
    );
}

#[test]
fn dialpad_backspace_and_redial() {
    let mut rig = rig();
    let sys = &mut rig.sys;
    let mut app = launch(dialer::info(), sys);
    dial(app.as_mut(), sys, "2234");
    tap_id(app.as_mut(), sys, "com.android.dialer:id/deleteButton");
    assert_eq!(
        text_of(app.as_ref(), sys, "com.android.dialer:id/digits"),
        "223"
    );
    // Typing with the IME keeps only dialable characters.
    type_into(
        app.as_mut(),
        sys,
        "com.android.dialer:id/digits",
        "223-4458x",
    );
    assert_eq!(
        text_of(app.as_ref(), sys, "com.android.dialer:id/digits"),
        "223-4458"
    );
    tap_id(
        app.as_mut(),
        sys,
        "com.android.dialer:id/dialpad_floating_action_button",
    );
    tap_id(app.as_mut(), sys, "com.android.dialer:id/incall_end_call");
    // The empty dialpad's call button brings back the last number.
    tap_id(app.as_mut(), sys, "com.android.dialer:id/fab");
    tap_id(
        app.as_mut(),
        sys,
        "com.android.dialer:id/dialpad_floating_action_button",
    );
    assert_eq!(
        text_of(app.as_ref(), sys, "com.android.dialer:id/digits"),
        "223-4458"
    );
    assert!(app.handle(&UiEvent::Back, sys), "back closes the dialpad");
    assert!(app
        .render(sys)
        .find_by_id("com.android.dialer:id/digits")
        .is_none());
}

#[test]
fn creating_a_contact_stores_it_where_content_query_finds_it() {
    let mut rig = rig();
    let sys = &mut rig.sys;
    let mut app = launch(contacts::info(), sys);
    tap_id(
        app.as_mut(),
        sys,
        "com.google.android.contacts:id/floating_action_button",
    );
    assert_eq!(
        app.activity(),
        "com.android.contacts.activities.ContactEditorActivity"
    );
    assert!(logged(
        sys,
        "ActivityTaskManager",
        "android.intent.action.INSERT"
    ));
    type_into(app.as_mut(), sys, "First name", "Ada");
    type_into(app.as_mut(), sys, "Last name", "Lovelace");
    type_into(app.as_mut(), sys, "Phone", "+1 415-555-0199");
    type_into(app.as_mut(), sys, "Email", "ada@example.com");
    // Phone label: Mobile by default, Work after picking it.
    let tree = app.render(sys);
    assert!(find(&tree, &|v| v.resource_id
        == "com.google.android.contacts:id/spinner"
        && v.content_desc == "Mobile")
    .is_some());
    let label = find(&tree, &|v| {
        v.resource_id == "com.google.android.contacts:id/spinner" && v.content_desc == "Mobile"
    })
    .and_then(|v| v.tag.clone())
    .expect("label spinner");
    app.handle(&UiEvent::Click(label), sys);
    let tree = app.render(sys);
    let work = find(&tree, &|v| v.text == "Work" && v.flags.clickable)
        .and_then(|v| v.tag.clone())
        .expect("Work in the label menu");
    app.handle(&UiEvent::Click(work), sys);
    assert!(find(&app.render(sys), &|v| v.resource_id
        == "com.google.android.contacts:id/spinner"
        && v.content_desc == "Work")
    .is_some());
    tap_id(
        app.as_mut(),
        sys,
        "com.google.android.contacts:id/toolbar_button",
    );
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.google.android.contacts:id/large_title"
        ),
        "Ada Lovelace"
    );

    let phones = query(
        sys,
        "content://com.android.contacts/data/phones",
        &["display_name", "data1", "data2", "data4"],
        Some("display_name='Ada Lovelace'"),
    );
    assert_eq!(phones.len(), 1, "{phones:?}");
    assert_eq!(value(&phones[0], "data1"), "+1 415-555-0199");
    assert_eq!(value(&phones[0], "data2"), "3");
    assert_eq!(value(&phones[0], "data4"), "+14155550199");
    // AndroidWorld's check: the legacy phones URI with display_name:number.
    let legacy = query(
        sys,
        "content://contacts/phones",
        &["display_name", "number"],
        Some("display_name = 'Ada Lovelace'"),
    );
    assert_eq!(
        legacy,
        vec![vec![
            ("display_name".to_string(), "Ada Lovelace".to_string()),
            ("number".to_string(), "+1 415-555-0199".to_string())
        ]]
    );
    let emails = query(
        sys,
        "content://com.android.contacts/data/emails",
        &["data1"],
        None,
    );
    assert!(emails
        .iter()
        .any(|r| value(r, "data1") == "ada@example.com"));
}

#[test]
fn contact_list_is_sorted_and_searchable_and_contacts_can_be_edited_and_deleted() {
    let mut rig = rig();
    let sys = &mut rig.sys;
    let mut app = launch(contacts::info(), sys);
    let tree = app.render(sys);
    let mut names = Vec::new();
    collect_text(
        &tree,
        "com.google.android.contacts:id/cliv_name_textview",
        &mut names,
    );
    assert_eq!(names.len(), 10, "seeded contacts: {names:?}");
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(names, sorted);

    // Search narrows the list.
    tap_id(
        app.as_mut(),
        sys,
        "com.google.android.contacts:id/open_search_bar",
    );
    let target = names[3].clone();
    type_into(app.as_mut(), sys, "Search contacts", &target);
    let mut found = Vec::new();
    collect_text(
        &app.render(sys),
        "com.google.android.contacts:id/cliv_name_textview",
        &mut found,
    );
    assert_eq!(found, vec![target.clone()]);

    // Open it, edit the first name, save.
    tap_text(app.as_mut(), sys, &target);
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.google.android.contacts:id/large_title"
        ),
        target
    );
    tap_id(
        app.as_mut(),
        sys,
        "com.google.android.contacts:id/menu_edit",
    );
    assert!(logged(
        sys,
        "ActivityTaskManager",
        "android.intent.action.EDIT"
    ));
    type_into(app.as_mut(), sys, "First name", "Zed");
    tap_id(
        app.as_mut(),
        sys,
        "com.google.android.contacts:id/toolbar_button",
    );
    let renamed = text_of(
        app.as_ref(),
        sys,
        "com.google.android.contacts:id/large_title",
    );
    assert!(renamed.starts_with("Zed "), "{renamed}");
    let rows = query(
        sys,
        "content://com.android.contacts/contacts",
        &["display_name"],
        Some(&format!("display_name = '{}'", renamed.replace('\'', "''"))),
    );
    assert_eq!(rows.len(), 1);

    // Delete through the overflow menu and the confirmation dialog.
    let more = find(&app.render(sys), &|v| v.content_desc == "More options")
        .and_then(|v| v.tag.clone())
        .expect("overflow");
    app.handle(&UiEvent::Click(more), sys);
    tap_text(app.as_mut(), sys, "Delete");
    tap_id(app.as_mut(), sys, "android:id/button1");
    let rows = query(
        sys,
        "content://com.android.contacts/contacts",
        &["_id"],
        Some(&format!("display_name = '{}'", renamed.replace('\'', "''"))),
    );
    assert!(rows.is_empty());
    assert_eq!(
        query(sys, "content://contacts/people", &["_id"], None).len(),
        9
    );
}

fn collect_text(view: &View, id: &str, out: &mut Vec<String>) {
    if view.resource_id == id {
        out.push(view.text.clone());
    }
    for c in &view.children {
        collect_text(c, id, out);
    }
}

#[test]
fn calling_from_a_contact_card_opens_the_dialer_in_call_with_the_name() {
    let mut rig = rig();
    let sys = &mut rig.sys;
    let mut contacts_app = launch(contacts::info(), sys);
    let tree = contacts_app.render(sys);
    let first_row = find(&tree, &|v| {
        v.tag.as_deref().is_some_and(|t| t.starts_with("contact:"))
    })
    .and_then(|v| v.tag.clone())
    .expect("a contact row");
    contacts_app.handle(&UiEvent::Click(first_row), sys);
    let name = text_of(
        contacts_app.as_ref(),
        sys,
        "com.google.android.contacts:id/large_title",
    );
    let call = find(&contacts_app.render(sys), &|v| {
        v.content_desc == "Call" && v.flags.clickable
    })
    .and_then(|v| v.tag.clone())
    .expect("call action");
    sys.requests.clear();
    contacts_app.handle(&UiEvent::Click(call), sys);
    // Contacts starts the Dialer with ACTION_CALL through the framework; the Dialer has Telecom
    // place the call when the intent arrives.
    let intent = sys
        .requests
        .iter()
        .find_map(|r| match r {
            Request::Launch {
                package,
                intent: Some(intent),
            } if package == dialer::PACKAGE => Some(intent.clone()),
            _ => None,
        })
        .expect("an intent for the dialer");
    assert_eq!(intent.action.as_deref(), Some("android.intent.action.CALL"));
    assert!(intent
        .data
        .as_deref()
        .is_some_and(|d| d.starts_with("tel:")));
    let mut dialer_app = launch(dialer::info(), sys);
    dialer_app.new_intent(&intent, sys);
    assert!(logged(sys, "Telecom", "EventRecord added as Call"));
    assert_eq!(
        text_of(
            dialer_app.as_ref(),
            sys,
            "com.android.dialer:id/contactgrid_contact_name"
        ),
        name
    );
    sys.requests.clear();
    tap_id(
        dialer_app.as_mut(),
        sys,
        "com.android.dialer:id/incall_end_call",
    );
    // The call came from Contacts, so the in-call screen finishes back to it.
    assert!(sys.requests.contains(&Request::FinishTask {
        package: dialer::PACKAGE.to_string()
    }));
    let calls = query(
        sys,
        "content://call_log/calls",
        &["name", "type"],
        Some("name IS NOT NULL"),
    );
    assert_eq!(value(&calls[0], "name"), name);
}

#[test]
fn sending_an_sms_from_a_new_chat_stores_a_sent_row() {
    let mut rig = rig();
    let sys = &mut rig.sys;
    let mut app = launch(messages::info(), sys);
    let seeded = query(sys, "content://sms", &["_id"], None).len();
    assert!(seeded >= 4, "seeded messages: {seeded}");
    tap_id(
        app.as_mut(),
        sys,
        "com.google.android.apps.messaging:id/start_chat_fab",
    );
    type_into(
        app.as_mut(),
        sys,
        "com.google.android.apps.messaging:id/recipient_text_view",
        "+1 555-010-4477",
    );
    let tag = app
        .render(sys)
        .find_by_id("com.google.android.apps.messaging:id/recipient_text_view")
        .and_then(|v| v.tag.clone())
        .expect("To field");
    assert!(app.handle(&UiEvent::EditorAction(tag), sys));
    assert!(logged(sys, "BugleUsageStatistics", "BUGLE CREATE"));
    assert_eq!(
        app.activity(),
        "com.google.android.apps.messaging.ui.conversation.ConversationActivity"
    );
    let send = app
        .render(sys)
        .find_by_id("com.google.android.apps.messaging:id/send_message_button_icon")
        .map(|v| v.flags.enabled);
    assert_eq!(
        send,
        Some(false),
        "send is disabled while the draft is empty"
    );
    type_into(
        app.as_mut(),
        sys,
        "com.google.android.apps.messaging:id/compose_message_text",
        "See you at 7",
    );
    tap_id(
        app.as_mut(),
        sys,
        "com.google.android.apps.messaging:id/send_message_button_icon",
    );
    let sent = query(
        sys,
        "content://sms/sent",
        &["address", "body", "type", "thread_id"],
        Some("body = 'See you at 7'"),
    );
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(value(&sent[0], "address"), "+15550104477");
    assert_eq!(value(&sent[0], "type"), "2");
    // The bubble is on screen and the compose field is empty again.
    let tree = app.render(sys);
    assert!(find(&tree, &|v| v.resource_id.ends_with("message_text")
        && v.text == "See you at 7")
    .is_some());
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.google.android.apps.messaging:id/compose_message_text"
        ),
        ""
    );
    // Back to the list: the new conversation is on top with its snippet, marked as the user's
    // own as Google Messages marks it.
    assert!(app.handle(&UiEvent::Back, sys));
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.google.android.apps.messaging:id/conversation_snippet"
        ),
        "You: See you at 7"
    );
    // Inbox rows are not in the sent box.
    let inbox = query(sys, "content://sms/inbox", &["type"], None);
    assert!(inbox.iter().all(|r| value(r, "type") == "1"));
    let threads = query(
        sys,
        "content://mms-sms/conversations",
        &["_id", "snippet"],
        None,
    );
    assert_eq!(value(&threads[0], "snippet"), "See you at 7");
}

#[test]
fn rows_written_with_sqlite_show_up_in_messages() {
    let mut rig = rig();
    let sys = &mut rig.sys;
    let conn = sys
        .open_db(providers::telephony::DB_PATH)
        .expect("mmssms.db");
    conn.execute_batch("DELETE FROM sms; DELETE FROM threads;")
        .expect("clear like AndroidWorld's setup");
    let thread = providers::telephony::thread_for(&conn, "+16505550100").expect("thread");
    conn.execute(
        "INSERT INTO sms (thread_id, address, date, type, body, read) VALUES (?1, '+16505550100', 1, 1, 'Hey give me a call', 0)",
        [thread],
    )
    .expect("insert");
    let app = launch(messages::info(), sys);
    assert_eq!(
        text_of(
            app.as_ref(),
            sys,
            "com.google.android.apps.messaging:id/conversation_snippet"
        ),
        "Hey give me a call"
    );
    // A row with no valid thread (the tasks' `thread_id = 0` inserts) is filed into its
    // address's thread: a new one for a new address, the existing one otherwise.
    conn.execute_batch(
        "INSERT INTO sms (thread_id, address, date, type, body, read) VALUES (0, '+16505550177', 5, 1, 'Are you coming tonight?', 0);
         INSERT INTO sms (thread_id, address, date, type, body, read) VALUES (0, '+16505550100', 3, 1, 'Second text', 0);",
    )
    .expect("orphan inserts");
    let rows = query(sys, "content://sms", &["thread_id"], Some("thread_id = 0"));
    assert!(rows.is_empty(), "{rows:?}");
    let threads = query(
        sys,
        "content://mms-sms/conversations",
        &["_id", "snippet", "message_count"],
        None,
    );
    assert_eq!(threads.len(), 2, "{threads:?}");
    assert_eq!(value(&threads[0], "snippet"), "Are you coming tonight?");
    assert_eq!(value(&threads[1], "message_count"), "2");
    let mut snippets = Vec::new();
    collect_text(
        &app.render(sys),
        "com.google.android.apps.messaging:id/conversation_snippet",
        &mut snippets,
    );
    assert_eq!(snippets, ["Are you coming tonight?", "Second text"]);
}

#[test]
fn provider_queries_honour_projection_selection_sort_and_reject_bad_input() {
    let rig = rig();
    let sys = &rig.sys;
    let all = query(sys, "content://sms", &[], None);
    // Without a projection every column of the real sms table comes back, in table order.
    let columns: Vec<&str> = all[0].iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        columns,
        [
            "_id",
            "thread_id",
            "address",
            "person",
            "date",
            "date_sent",
            "protocol",
            "read",
            "status",
            "type",
            "reply_path_present",
            "subject",
            "body",
            "service_center",
            "locked",
            "sub_id",
            "error_code",
            "creator",
            "seen"
        ]
    );
    // Default order is newest first; an explicit sort overrides it.
    let dates: Vec<i64> = all
        .iter()
        .map(|r| value(r, "date").parse().unwrap())
        .collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]));
    let projection = vec!["date".to_string()];
    let asc = providers::query(
        sys,
        "content://sms",
        Some(&projection),
        None,
        Some("date ASC"),
    )
    .expect("sorted");
    assert_eq!(value(&asc[0], "date"), dates.last().unwrap().to_string());
    // NULL prints as NULL.
    assert_eq!(value(&all[0], "subject"), "NULL");
    // By id.
    let id = value(&all[0], "_id").to_string();
    assert_eq!(
        query(sys, &format!("content://sms/{id}"), &["_id"], None).len(),
        1
    );

    assert!(matches!(
        providers::query(sys, "content://nope/x", None, None, None),
        Err(ProviderError::UnknownUri(_))
    ));
    assert!(matches!(
        providers::query(sys, "content://sms/bogus/1/2", None, None, None),
        Err(ProviderError::UnknownUri(_))
    ));
    let bad_column = vec!["nosuch".to_string()];
    assert!(providers::query(sys, "content://sms", Some(&bad_column), None, None).is_err());
    let injected = vec!["body) FROM sms; DROP TABLE sms; --".to_string()];
    assert!(providers::query(sys, "content://sms", Some(&injected), None, None).is_err());
    assert!(providers::query(
        sys,
        "content://sms",
        None,
        Some("1); DROP TABLE sms; --"),
        None
    )
    .is_err());
    assert!(providers::query(
        sys,
        "content://sms",
        None,
        Some("0 = (SELECT COUNT(*) FROM (SELECT 1)) OR 1"),
        None
    )
    .is_ok());
    assert_eq!(query(sys, "content://sms", &["_id"], None).len(), all.len());

    // Call log, contacts and the calendar (no Calendar DB yet: no rows, not an error).
    assert!(!query(sys, "content://call_log/calls", &[], None).is_empty());
    assert_eq!(
        query(
            sys,
            "content://com.android.contacts/raw_contacts",
            &["_id"],
            None
        )
        .len(),
        10
    );
    assert!(query(sys, "content://com.android.calendar/events", &[], None).is_empty());
}

#[test]
fn calendar_events_come_from_the_calendar_apps_database() {
    let rig = rig();
    let sys = &rig.sys;
    let conn = sys
        .open_db(providers::calendar::DB_PATH)
        .expect("calendar.db");
    conn.execute_batch(
        "CREATE TABLE Events (_id INTEGER PRIMARY KEY, calendar_id INTEGER, title TEXT,
           description TEXT, eventLocation TEXT, dtstart INTEGER, dtend INTEGER, allDay INTEGER,
           eventTimezone TEXT, deleted INTEGER DEFAULT 0);
         INSERT INTO Events (calendar_id, title, dtstart, dtend, allDay, eventTimezone)
           VALUES (1, 'Dentist', 2000, 3000, 0, 'UTC'), (1, 'Standup', 1000, 1500, 0, 'UTC');",
    )
    .expect("events");
    let rows = query(
        sys,
        "content://com.android.calendar/events",
        &["title"],
        None,
    );
    assert_eq!(
        rows.iter().map(|r| value(r, "title")).collect::<Vec<_>>(),
        ["Standup", "Dentist"]
    );
    let one = query(
        sys,
        "content://com.android.calendar/events",
        &["title", "dtstart"],
        Some("title LIKE 'Den%'"),
    );
    assert_eq!(value(&one[0], "dtstart"), "2000");
}

#[test]
fn seeding_is_deterministic_per_seed() {
    let names = |seed| {
        let rig = rig_with(seed, metrics(1080, 2400, 420, 1.0));
        query(
            &rig.sys,
            "content://contacts/phones",
            &["display_name", "number"],
            None,
        )
    };
    assert_eq!(names(3), names(3));
    assert_ne!(names(3), names(4));
}

#[test]
fn layouts_stay_inside_the_content_area_at_every_density_and_font_scale() {
    for m in [
        metrics(1080, 2160, 440, 1.0),
        metrics(1080, 2400, 420, 1.15),
        metrics(2560, 1600, 320, 0.85),
    ] {
        let mut rig = rig_with(1, m);
        let sys = &mut rig.sys;
        let mut d = launch(dialer::info(), sys);
        tap_id(d.as_mut(), sys, "com.android.dialer:id/fab");
        let tree = d.render(sys);
        let key = tree
            .find_by_id("com.android.dialer:id/five")
            .expect("key 5");
        assert!(
            inside(key.bounds, m.content),
            "{:?} in {:?}",
            key.bounds,
            m.content
        );
        let fab = tree
            .find_by_id("com.android.dialer:id/dialpad_floating_action_button")
            .expect("call button");
        assert!(inside(fab.bounds, m.content));
        assert_eq!(fab.bounds.width(), m.dp(64.0));
        for info in [contacts::info(), messages::info()] {
            let app = launch(info, sys);
            let tree = app.render(sys);
            assert!(inside(tree.bounds, m.content));
        }
    }
}

fn inside(b: Bounds, outer: Bounds) -> bool {
    b.left >= outer.left && b.top >= outer.top && b.right <= outer.right && b.bottom <= outer.bottom
}

/// Checks what the framework relies on in one rendered screen: every clickable, editable or
/// scrollable view carries a tag, views stay inside the content area horizontally and below its
/// top (lists may run past the bottom; the framework clips them), and resource ids belong to the
/// app's resource package or to `android`.
fn assert_well_formed(tree: &View, m: &Metrics, id_package: &str, screen: &str) {
    fn walk(v: &View, m: &Metrics, pkg: &str, screen: &str) {
        if v.flags.clickable || v.flags.scrollable {
            assert!(
                v.tag.is_some(),
                "{screen}: {} {:?} has no tag",
                v.class,
                v.resource_id
            );
        }
        let c = m.content;
        assert!(
            v.bounds.left >= c.left && v.bounds.right <= c.right && v.bounds.top >= c.top,
            "{screen}: {:?} {:?} at {:?} leaves {:?}",
            v.resource_id,
            v.text,
            v.bounds,
            c
        );
        assert!(
            v.resource_id.is_empty()
                || v.resource_id.starts_with(&format!("{pkg}:id/"))
                || v.resource_id.starts_with("android:id/"),
            "{screen}: foreign id {}",
            v.resource_id
        );
        for child in &v.children {
            walk(child, m, pkg, screen);
        }
    }
    walk(tree, m, id_package, screen);
}

/// An app, its resource package, and the taps (by resource id or content-desc) to reach a screen.
type Scenario = (fn() -> AppInfo, &'static str, &'static [&'static str]);

#[test]
fn every_screen_is_well_formed() {
    // (app, resource package, taps by resource id or content-desc to reach the screen)
    let scenarios: &[Scenario] = &[
        (dialer::info, "com.android.dialer", &[]),
        (
            dialer::info,
            "com.android.dialer",
            &["com.android.dialer:id/speed_dial_tab"],
        ),
        (
            dialer::info,
            "com.android.dialer",
            &["com.android.dialer:id/contacts_tab"],
        ),
        (
            dialer::info,
            "com.android.dialer",
            &["com.android.dialer:id/fab", "com.android.dialer:id/seven"],
        ),
        (
            dialer::info,
            "com.android.dialer",
            &[
                "com.android.dialer:id/fab",
                "com.android.dialer:id/one",
                "com.android.dialer:id/dialpad_floating_action_button",
            ],
        ),
        (
            dialer::info,
            "com.android.dialer",
            &[
                "com.android.dialer:id/fab",
                "com.android.dialer:id/one",
                "com.android.dialer:id/dialpad_floating_action_button",
                "Keypad",
            ],
        ),
        (contacts::info, "com.google.android.contacts", &[]),
        (
            contacts::info,
            "com.google.android.contacts",
            &["com.google.android.contacts:id/open_search_bar"],
        ),
        (
            contacts::info,
            "com.google.android.contacts",
            &["Create contact"],
        ),
        (
            contacts::info,
            "com.google.android.contacts",
            &["Create contact", "com.google.android.contacts:id/spinner"],
        ),
        (messages::info, "com.google.android.apps.messaging", &[]),
        (
            messages::info,
            "com.google.android.apps.messaging",
            &["com.google.android.apps.messaging:id/start_chat_fab"],
        ),
        (
            messages::info,
            "com.google.android.apps.messaging",
            &["com.google.android.apps.messaging:id/swipeableContainer"],
        ),
        // Not the default SMS app yet: PermissionController's role request dialog, its ids.
        (simple_sms::info, role_request::PACKAGE, &[]),
        (
            simple_sms::info,
            simple_sms::PACKAGE,
            &["com.simplemobiletools.smsmessenger:id/conversations_fab"],
        ),
        (
            simple_sms::info,
            simple_sms::PACKAGE,
            &["com.simplemobiletools.smsmessenger:id/conversation_frame"],
        ),
        (clipper::info, clipper::PACKAGE, &[]),
    ];
    for m in [metrics(1080, 2400, 420, 1.0), metrics(2560, 1600, 320, 1.3)] {
        for (info, pkg, taps) in scenarios {
            let mut rig = rig_with(5, m);
            let sys = &mut rig.sys;
            // Simple SMS Messenger first shows the role request dialog (the scenario without
            // taps); made the default SMS app, it shows its own screens.
            if *pkg == simple_sms::PACKAGE && !taps.is_empty() {
                droidmcp::sim::roles::add_holder(sys, droidmcp::sim::roles::SMS, pkg, 0)
                    .expect("Simple SMS qualifies for the SMS role");
            }
            let mut app = launch(info(), sys);
            for t in taps.iter() {
                let tree = app.render(sys);
                let tag = find(&tree, &|v| {
                    (v.resource_id == *t || v.content_desc == *t) && v.flags.clickable
                })
                .and_then(|v| v.tag.clone())
                .unwrap_or_else(|| panic!("{pkg}: nothing clickable called {t}"));
                assert!(app.handle(&UiEvent::Click(tag), sys), "{pkg}: tap {t}");
            }
            let screen = format!("{pkg} after {taps:?}");
            assert_well_formed(&app.render(sys), &sys.metrics, pkg, &screen);
        }
    }
}

/// The same apps driven only through `Phone::exec`, as an adb client drives a real phone.
mod through_the_shell {
    use droidmcp::sim::Phone;

    use crate::util::sh;

    fn boot() -> Phone {
        crate::util::boot(11)
    }

    /// One `<node>`'s attributes from a dump.
    type Node = Vec<(String, String)>;

    fn nodes(phone: &Phone) -> Vec<Node> {
        let xml = sh(phone, "uiautomator dump /dev/tty");
        let mut reader = quick_xml::Reader::from_str(&xml);
        let mut out = Vec::new();
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Start(e)) | Ok(quick_xml::events::Event::Empty(e))
                    if e.name().as_ref() == b"node" =>
                {
                    out.push(
                        e.attributes()
                            .map(|a| {
                                let a = a.expect("well-formed attribute");
                                (
                                    String::from_utf8_lossy(a.key.as_ref()).into_owned(),
                                    a.unescape_value().expect("escaped value").into_owned(),
                                )
                            })
                            .collect(),
                    );
                }
                Ok(quick_xml::events::Event::Eof) => break,
                Err(e) => panic!("dump does not parse: {e}"),
                _ => {}
            }
        }
        out
    }

    fn attr<'a>(node: &'a Node, name: &str) -> &'a str {
        node.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    }

    fn find(phone: &Phone, attr_name: &str, value: &str) -> Option<Node> {
        nodes(phone)
            .into_iter()
            .find(|n| attr(n, attr_name) == value)
    }

    /// Taps the centre of the first node whose `attr_name` equals `value`.
    fn tap(phone: &Phone, attr_name: &str, value: &str) {
        let node = find(phone, attr_name, value)
            .unwrap_or_else(|| panic!("no node with {attr_name}={value:?} on screen"));
        let b = attr(&node, "bounds");
        let nums: Vec<i32> = b
            .split(|c: char| !c.is_ascii_digit() && c != '-')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().expect("bounds number"))
            .collect();
        let (x, y) = ((nums[0] + nums[2]) / 2, (nums[1] + nums[3]) / 2);
        sh(phone, &format!("input tap {x} {y}"));
    }

    #[test]
    fn dial_call_end_and_read_the_call_log() {
        let phone = boot();
        sh(
            &phone,
            "am start -n com.google.android.dialer/.extensions.GoogleDialtactsActivity",
        );
        tap(&phone, "resource-id", "com.android.dialer:id/fab");
        for key in ["four", "zero", "two", "seven", "seven", "one", "seven"] {
            tap(
                &phone,
                "resource-id",
                &format!("com.android.dialer:id/{key}"),
            );
        }
        let digits = find(&phone, "resource-id", "com.android.dialer:id/digits").expect("digits");
        assert_eq!(attr(&digits, "text"), "402-7717");
        tap(
            &phone,
            "resource-id",
            "com.android.dialer:id/dialpad_floating_action_button",
        );
        let end = find(
            &phone,
            "resource-id",
            "com.android.dialer:id/incall_end_call",
        )
        .expect("in-call screen");
        assert_eq!(attr(&end, "enabled"), "true");
        let name = find(
            &phone,
            "resource-id",
            "com.android.dialer:id/contactgrid_contact_name",
        )
        .expect("contact grid");
        assert_eq!(attr(&name, "text"), "402-7717");
        assert!(sh(&phone, "dumpsys window").contains("com.android.incallui.InCallActivity"));
        sh(&phone, "sleep 3");
        tap(
            &phone,
            "resource-id",
            "com.android.dialer:id/incall_end_call",
        );
        let log = sh(&phone, "logcat -d -s Telecom:I");
        assert!(log.contains("InCallController: onCallRemoved"), "{log}");
        let calls = sh(
            &phone,
            "content query --uri content://call_log/calls --projection number:type --where \"number='4027717'\"",
        );
        assert_eq!(calls, "Row: 0 number=4027717, type=2\n");
    }

    #[test]
    fn emergency_call_logs_telecom_line() {
        let phone = boot();
        sh(
            &phone,
            "monkey -p com.google.android.dialer -c android.intent.category.LAUNCHER 1",
        );
        tap(&phone, "resource-id", "com.android.dialer:id/fab");
        for key in ["nine", "one", "one"] {
            tap(
                &phone,
                "resource-id",
                &format!("com.android.dialer:id/{key}"),
            );
        }
        tap(&phone, "content-desc", "dial");
        let log = sh(&phone, "logcat -d -s Telecom:I");
        assert!(log.contains("Emergency number detected"), "{log}");
    }

    #[test]
    fn send_an_sms_and_read_it_back() {
        let phone = boot();
        sh(
            &phone,
            "monkey -p com.google.android.apps.messaging -c android.intent.category.LAUNCHER 1",
        );
        tap(
            &phone,
            "resource-id",
            "com.google.android.apps.messaging:id/start_chat_fab",
        );
        sh(&phone, "input text 5550104477");
        sh(&phone, "input keyevent 66");
        tap(
            &phone,
            "resource-id",
            "com.google.android.apps.messaging:id/compose_message_text",
        );
        sh(&phone, "input text Running%slate");
        // Back hides the keyboard, which covers the compose bar (the framework does not resize
        // windows for the IME).
        sh(&phone, "input keyevent 4");
        tap(
            &phone,
            "resource-id",
            "com.google.android.apps.messaging:id/send_message_button_icon",
        );
        let sent = sh(
            &phone,
            "content query --uri content://sms/sent --projection address:body:type --where \"body='Running late'\"",
        );
        assert_eq!(
            sent,
            "Row: 0 address=+15550104477, body=Running late, type=2\n"
        );
        let sql = sh(
            &phone,
            "sqlite3 /data/data/com.android.providers.telephony/databases/mmssms.db \"SELECT address, body FROM sms WHERE type=2 AND body='Running late'\"",
        );
        assert_eq!(sql, "+15550104477|Running late\n");
    }

    #[test]
    fn create_a_contact_and_find_it_through_the_provider() {
        let phone = boot();
        sh(
            &phone,
            "monkey -p com.google.android.contacts -c android.intent.category.LAUNCHER 1",
        );
        tap(&phone, "content-desc", "Create contact");
        let log = sh(&phone, "logcat -d -s ActivityTaskManager:I");
        assert!(log.contains("android.intent.action.INSERT"), "{log}");
        tap(&phone, "hint", "First name");
        sh(&phone, "input text Grace");
        tap(&phone, "hint", "Last name");
        sh(&phone, "input text Hopper");
        tap(&phone, "hint", "Phone");
        sh(&phone, "input text 6505550111");
        tap(&phone, "text", "Save");
        let title = find(
            &phone,
            "resource-id",
            "com.google.android.contacts:id/large_title",
        )
        .expect("contact card");
        assert_eq!(attr(&title, "text"), "Grace Hopper");
        let phones = sh(
            &phone,
            "content query --uri content://com.android.contacts/data/phones --projection display_name:data1 --where \"display_name='Grace Hopper'\"",
        );
        assert_eq!(
            phones,
            "Row: 0 display_name=Grace Hopper, data1=6505550111\n"
        );
        // AndroidWorld's ContactsAddContact check, verbatim.
        let legacy = sh(
            &phone,
            "content query --uri content://contacts/phones/ --projection display_name:number",
        );
        assert!(
            legacy.contains("display_name=Grace Hopper, number=6505550111\n"),
            "{legacy}"
        );
        // Call from the card: the dialer's in-call screen shows the contact's name.
        tap(&phone, "content-desc", "Call");
        let name = find(
            &phone,
            "resource-id",
            "com.android.dialer:id/contactgrid_contact_name",
        )
        .expect("in-call screen");
        assert_eq!(attr(&name, "text"), "Grace Hopper");
        let focus = sh(&phone, "dumpsys window");
        assert!(
            focus.contains("com.google.android.dialer/com.android.incallui.InCallActivity"),
            "{focus}"
        );
        tap(
            &phone,
            "resource-id",
            "com.android.dialer:id/incall_end_call",
        );
        assert!(find(
            &phone,
            "resource-id",
            "com.google.android.contacts:id/large_title"
        )
        .is_some());
    }
}

//! Simple Calendar Pro on the embedded phone, driven as AndroidWorld and an agent drive it: its
//! package and activities (`pm`, `am start -W -n`), Room's `events.db` at the app's path with the
//! columns AndroidWorld's `CalendarEvent` reads, `pm clear`, and the screens (month grid, day list,
//! event editor with the time pickers and repetition, delete from the editor and from a long
//! press, search) through `input` and `uiautomator dump`, checked with `sqlite3`.

use droidmcp::hierarchy::{Hierarchy, Node};
use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const PKG: &str = "com.simplemobiletools.calendar.pro";
const MAIN: &str =
    "com.simplemobiletools.calendar.pro/com.simplemobiletools.calendar.pro.activities.MainActivity";
const DB: &str = "/data/data/com.simplemobiletools.calendar.pro/databases/events.db";
/// 2023-10-15 00:00 UTC, AndroidWorld's day (a Sunday).
const OCT_15: i64 = 1_697_328_000;
const HOUR: i64 = 3600;
const DAY: i64 = 86_400;
/// The columns of AndroidWorld's `sqlite_schema_utils.CalendarEvent`, which it builds from
/// `SELECT *` rows by keyword: one more or less and its reads fail.
const AW_COLUMNS: &[&str] = &[
    "id",
    "start_ts",
    "end_ts",
    "title",
    "location",
    "description",
    "reminder_1_minutes",
    "reminder_2_minutes",
    "reminder_3_minutes",
    "reminder_1_type",
    "reminder_2_type",
    "reminder_3_type",
    "repeat_interval",
    "repeat_rule",
    "repeat_limit",
    "repetition_exceptions",
    "attendees",
    "import_id",
    "time_zone",
    "flags",
    "event_type",
    "parent_id",
    "last_updated",
    "source",
    "availability",
    "color",
    "type",
];

fn id(name: &str) -> String {
    format!("{PKG}:id/{name}")
}

fn tap_id(phone: &Phone, name: &str) {
    let h = screen(phone);
    let n = by_id(&h, &id(name));
    assert!(n.clickable, "{name} is not clickable: {}", h.xml);
    tap(phone, n.bounds);
}

fn by_desc<'h>(h: &'h Hierarchy, desc: &str) -> &'h Node {
    find(h, &|n| n.content_desc == desc).unwrap_or_else(|| panic!("no {desc:?} in {}", h.xml))
}

fn by_text<'h>(h: &'h Hierarchy, text: &str) -> &'h Node {
    find(h, &|n| n.text == text).unwrap_or_else(|| panic!("no {text:?} in {}", h.xml))
}

fn tap_desc(phone: &Phone, desc: &str) {
    tap(phone, by_desc(&screen(phone), desc).bounds);
}

fn tap_text(phone: &Phone, text: &str) {
    tap(phone, by_text(&screen(phone), text).bounds);
}

fn long_press_text(phone: &Phone, text: &str) {
    let c = by_text(&screen(phone), text).bounds.center();
    sh(
        phone,
        &format!("input swipe {} {} {} {} 800", c.x, c.y, c.x, c.y),
    );
}

fn texts_of(h: &Hierarchy, name: &str) -> Vec<String> {
    h.nodes
        .iter()
        .filter(|n| n.resource_id == id(name))
        .map(|n| n.text.clone())
        .collect()
}

fn sql(phone: &Phone, query: &str) -> String {
    sh(phone, &format!("sqlite3 {DB} \"{query}\""))
}

/// Inserts an event as AndroidWorld's `insert_rows_to_remote_db` does (every column but `id`).
fn insert(phone: &Phone, start: i64, minutes: i64, title: &str, description: &str) {
    sql(
        phone,
        &format!(
            "INSERT INTO events (start_ts, end_ts, title, location, description, \
             reminder_1_minutes, reminder_2_minutes, reminder_3_minutes, reminder_1_type, \
             reminder_2_type, reminder_3_type, repeat_interval, repeat_rule, repeat_limit, \
             repetition_exceptions, attendees, import_id, time_zone, flags, event_type, parent_id, \
             last_updated, source, availability, color, type) VALUES ({start}, {}, '{title}', '', \
             '{description}', -1, -1, -1, 0, 0, 0, 0, 0, 0, '[]', '', '', 'UTC', 0, 1, 0, 0, \
             'imported-ics', 0, 0, 0)",
            start + minutes * 60
        ),
    );
}

/// A phone on AndroidWorld's moment (2023-10-15 15:34 UTC, 12-hour clock) with Simple Calendar
/// Pro open on its month.
fn calendar_on_aw_day() -> Phone {
    let phone = boot(0);
    sh(&phone, "date 101515342023.00");
    sh(&phone, "settings put system time_12_24 12");
    phone
}

fn open(phone: &Phone) {
    let out = sh(phone, &format!("am start -W -n {MAIN}"));
    assert!(out.contains("Status: ok"), "{out}");
}

/// Taps the clock face's number (a TextView; the header's CompoundButton has the same desc).
fn tap_face(phone: &Phone, desc: &str) {
    let h = screen(phone);
    let n = find(&h, &|n| {
        n.content_desc == desc && n.class == "android.widget.TextView"
    })
    .unwrap_or_else(|| panic!("no {desc:?} on the clock face in {}", h.xml));
    tap(phone, n.bounds);
}

/// Picks `hour12` o'clock, `minute` and the half of the day on the open time picker, then OK.
fn pick_time(phone: &Phone, hour12: u32, minute: u32, pm: bool) {
    tap_face(phone, &format!("{hour12} o'clock"));
    tap_face(phone, &format!("{minute} minutes"));
    let period = if pm { "pm" } else { "am" };
    let h = screen(phone);
    tap(
        phone,
        by_id(
            &h,
            &format!("{PKG}:id/material_clock_period_{period}_button"),
        )
        .bounds,
    );
    let h = screen(phone);
    tap(
        phone,
        by_id(&h, &format!("{PKG}:id/material_timepicker_ok_button")).bounds,
    );
}

#[test]
fn the_app_is_installed_with_rooms_database_at_its_path() {
    let phone = boot(0);
    assert!(sh(&phone, "pm list packages").contains(&format!("package:{PKG}\n")));
    assert_eq!(
        sh(
            &phone,
            &format!(
                "cmd package resolve-activity --brief -c android.intent.category.LAUNCHER {PKG}"
            )
        ),
        "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n\
         com.simplemobiletools.calendar.pro/.activities.SplashActivity.Orange\n"
    );
    let columns = sql(&phone, "SELECT name FROM pragma_table_info('events')");
    assert_eq!(columns.lines().collect::<Vec<_>>(), AW_COLUMNS);
    assert_eq!(sql(&phone, "PRAGMA user_version"), "8\n");
    assert_eq!(
        sql(&phone, "SELECT id, title FROM event_types"),
        "1|Regular event\n"
    );
    // AndroidWorld's `launch_app('simple calendar pro')`.
    open(&phone);
    assert!(sh(&phone, "dumpsys window").contains(&format!("{PKG}/{PKG}.activities.MainActivity")));
    // `pm clear` leaves the empty database the app makes again.
    insert(&phone, OCT_15 + 10 * HOUR, 30, "Team lunch", "");
    sh(&phone, &format!("pm clear {PKG}"));
    assert_eq!(sql(&phone, "SELECT count(*) FROM events"), "0\n");
    assert_eq!(sql(&phone, "SELECT count(*) FROM event_types"), "1\n");
}

#[test]
fn an_event_made_in_the_editor_is_stored_as_androidworld_reads_it() {
    let phone = calendar_on_aw_day();
    insert(&phone, OCT_15 + 7 * DAY + 9 * HOUR, 30, "Bug Bash", "");
    open(&phone);
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "top_value"), ["October"]);
    // The month shows the events' titles; a day opens its daily view.
    tap(&phone, by_desc(&h, "Sunday, October 22, 2023").bounds);
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "event_item_title"), ["Bug Bash"]);
    assert_eq!(texts_of(&h, "event_item_time"), ["9:00 AM – 9:30 AM"]);
    tap_id(&phone, "calendar_fab");
    // A new event starts at the next full hour on the day on show and lasts 0 minutes.
    let h = screen(&phone);
    assert_eq!(
        texts_of(&h, "event_start_date"),
        ["Sunday, October 22, 2023"]
    );
    assert_eq!(texts_of(&h, "event_start_time"), ["4:00 PM"]);
    assert_eq!(texts_of(&h, "event_end_time"), ["4:00 PM"]);
    sh(&phone, "input text Scrum%smeeting");
    tap_id(&phone, "event_description");
    sh(&phone, "input text We%swill%splan.");
    sh(&phone, "input keyevent KEYCODE_BACK");
    tap_id(&phone, "event_start_time");
    pick_time(&phone, 2, 0, true);
    // The end moved with the start.
    assert_eq!(texts_of(&screen(&phone), "event_end_time"), ["2:00 PM"]);
    tap_id(&phone, "event_end_time");
    pick_time(&phone, 2, 45, true);
    tap_id(&phone, "save");
    let start = OCT_15 + 7 * DAY + 14 * HOUR;
    assert_eq!(
        sql(
            &phone,
            "SELECT start_ts, end_ts, title, location, description, repeat_interval, \
             repeat_rule, repeat_limit, flags, reminder_1_minutes, time_zone, event_type, source \
             FROM events WHERE title = 'Scrum meeting'"
        ),
        format!(
            "{start}|{}|Scrum meeting||We will plan.|0|0|0|0|10|UTC|1|simple-calendar\n",
            start + 45 * 60
        )
    );
    // Back on the daily view, both events in time order; the row AndroidWorld added is untouched.
    let h = screen(&phone);
    assert_eq!(
        texts_of(&h, "event_item_title"),
        ["Bug Bash", "Scrum meeting"]
    );
    assert_eq!(
        sql(
            &phone,
            "SELECT last_updated, source FROM events WHERE title = 'Bug Bash'"
        ),
        "0|imported-ics\n"
    );
}

#[test]
fn a_weekly_repetition_takes_the_start_days_bit_and_repeats_on_it() {
    let phone = calendar_on_aw_day();
    open(&phone);
    // Tuesday October 17.
    tap_desc(&phone, "Tuesday, October 17, 2023");
    tap_id(&phone, "calendar_fab");
    sh(&phone, "input text Standup");
    sh(&phone, "input keyevent KEYCODE_BACK");
    tap_id(&phone, "event_repetition");
    tap_text(&phone, "Weekly");
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "event_repetition"), ["Weekly"]);
    assert_eq!(
        texts_of(&h, "event_repetition_rule"),
        ["Repeat on: Tuesday"]
    );
    assert_eq!(texts_of(&h, "event_repetition_limit"), ["Forever"]);
    tap_id(&phone, "save");
    assert_eq!(
        sql(
            &phone,
            "SELECT repeat_interval, repeat_rule, repeat_limit FROM events"
        ),
        "604800|2|0\n"
    );
    // A week later it is there again, and not on the Wednesday.
    tap_id(&phone, "top_right_arrow");
    assert!(texts_of(&screen(&phone), "event_item_title").is_empty());
    for _ in 0..6 {
        tap_id(&phone, "top_right_arrow");
    }
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "top_value"), ["Tuesday, October 24, 2023"]);
    assert_eq!(texts_of(&h, "event_item_title"), ["Standup"]);
    // Deleting this occurrence only keeps the series and skips the day.
    tap_text(&phone, "Standup");
    tap_id(&phone, "delete");
    tap_text(&phone, "Delete the selected occurrence only");
    let h = screen(&phone);
    tap(&phone, by_id(&h, "android:id/button1").bounds);
    assert_eq!(
        sql(&phone, "SELECT repetition_exceptions FROM events"),
        "[\"20231024\"]\n"
    );
    assert!(texts_of(&screen(&phone), "event_item_title").is_empty());
}

#[test]
fn events_go_from_the_editor_and_from_a_long_press_selection() {
    let phone = calendar_on_aw_day();
    let day = OCT_15 + 5 * DAY;
    insert(&phone, day + 8 * HOUR, 30, "Data Dive", "");
    insert(&phone, day + 12 * HOUR, 60, "Team lunch", "");
    insert(&phone, day + 18 * HOUR, 45, "Movie night", "");
    insert(&phone, day + DAY + 9 * HOUR, 15, "Concert", "");
    open(&phone);
    tap_desc(&phone, "Friday, October 20, 2023");
    // The editor shows the event; Delete asks, Yes removes the row.
    tap_text(&phone, "Movie night");
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "event_title"), ["Movie night"]);
    assert_eq!(texts_of(&h, "event_start_time"), ["6:00 PM"]);
    tap_id(&phone, "delete");
    let h = screen(&phone);
    assert_eq!(
        by_id(&h, "android:id/message").text,
        "Are you sure you want to proceed with the deletion?"
    );
    tap(&phone, by_id(&h, "android:id/button1").bounds);
    // A long press starts the selection; taps add to it; Delete removes both.
    long_press_text(&phone, "Data Dive");
    tap_text(&phone, "Team lunch");
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "action_bar_title"), ["2 selected"]);
    tap_id(&phone, "cab_delete");
    let h = screen(&phone);
    tap(&phone, by_id(&h, "android:id/button1").bounds);
    assert_eq!(sql(&phone, "SELECT title FROM events"), "Concert\n");
    // Back leaves the day for the month.
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert_eq!(texts_of(&screen(&phone), "top_value"), ["October"]);
}

#[test]
fn search_and_the_event_list_find_events_the_shell_added() {
    let phone = calendar_on_aw_day();
    open(&phone);
    // Rows pushed while the app runs show on its next frame.
    insert(
        &phone,
        OCT_15 + DAY + 10 * HOUR,
        30,
        "Coffee with CEO",
        "Bring notes",
    );
    insert(
        &phone,
        OCT_15 - 3 * DAY + 10 * HOUR,
        30,
        "Board meeting",
        "",
    );
    tap_id(&phone, "top_toolbar_search");
    sh(&phone, "input text coffee");
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "event_item_title"), ["Coffee with CEO"]);
    assert_eq!(
        texts_of(&h, "event_section_title"),
        ["Monday, October 16, 2023"]
    );
    sh(&phone, "input keyevent KEYCODE_BACK");
    sh(&phone, "input keyevent KEYCODE_BACK");
    // The simple event list shows what is upcoming, not the past.
    tap_id(&phone, "change_view");
    tap_text(&phone, "Simple event list");
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "event_item_title"), ["Coffee with CEO"]);
    assert_eq!(texts_of(&h, "event_item_description"), ["Bring notes"]);
}

//! Pro Expense (`com.arduia.expense`) on the embedded phone, driven as AndroidWorld and an agent
//! drive it: `pm clear`, `am start -W -n`, its set-up pages, the entry form typed into with `input
//! text`, rows written with `sqlite3` behind the app's back, the detail page's delete and the
//! list's multi-select delete; every check reads `accounting.db` as AndroidWorld's
//! `is_successful` does.

use droidmcp::hierarchy::{Hierarchy, Node};
use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const PKG: &str = "com.arduia.expense";
const MAIN: &str = "com.arduia.expense/com.arduia.expense.ui.MainActivity";
const DB: &str = "/data/data/com.arduia.expense/databases/accounting.db";

fn id(name: &str) -> String {
    format!("{PKG}:id/{name}")
}

fn by_text<'h>(h: &'h Hierarchy, text: &str) -> &'h Node {
    find(h, &|n| n.text == text).unwrap_or_else(|| panic!("no {text:?} in {}", h.xml))
}

fn tap_id(phone: &Phone, name: &str) {
    let h = screen(phone);
    tap(phone, by_id(&h, &id(name)).bounds);
}

fn tap_text(phone: &Phone, text: &str) {
    let h = screen(phone);
    tap(phone, by_text(&h, text).bounds);
}

fn long_press_text(phone: &Phone, text: &str) {
    let h = screen(phone);
    let c = by_text(&h, text).bounds.center();
    sh(
        phone,
        &format!("input swipe {} {} {} {} 800", c.x, c.y, c.x, c.y),
    );
}

fn sql(phone: &Phone, statement: &str) -> String {
    sh(phone, &format!("sqlite3 {DB} \"{statement}\""))
}

fn texts_of(h: &Hierarchy, name: &str) -> Vec<String> {
    h.nodes
        .iter()
        .filter(|n| n.resource_id == id(name))
        .map(|n| n.text.clone())
        .collect()
}

/// Starts the app as AndroidWorld does and taps through its set-up pages as `ExpenseApp.setup`
/// does (Next, then Continue).
fn start_and_set_up(phone: &Phone) {
    let out = sh(phone, &format!("am start -W -n {MAIN}"));
    assert!(out.contains("Status: ok"), "{out}");
    let h = screen(phone);
    by_text(&h, "Choose Language");
    tap_text(phone, "Next");
    by_text(&screen(phone), "Choose Currency");
    tap_text(phone, "Continue");
    by_text(&screen(phone), "Expense Logs");
}

fn insert(phone: &Phone, name: &str, cents: i64, category: i64, note: &str, ms: i64) {
    sql(
        phone,
        &format!(
            "INSERT INTO expense (name, amount, category, note, created_date, modified_date) \
             VALUES ('{name}', {cents}, {category}, '{note}', {ms}, {ms})"
        ),
    );
}

#[test]
fn installed_listed_and_cleared_like_the_apk() {
    let phone = boot(1);
    assert!(sh(&phone, "pm list packages").contains(&format!("package:{PKG}\n")));
    start_and_set_up(&phone);
    // The set-up pages are done once: a new process goes straight to the list.
    sh(&phone, &format!("am force-stop {PKG}"));
    sh(&phone, &format!("am start -W -n {MAIN}"));
    by_text(&screen(&phone), "No Items");
    insert(&phone, "Coffee", 450, 3, "Urgent", 1_697_371_200_000);
    assert_eq!(sql(&phone, "SELECT count(*) FROM expense"), "1\n");
    assert_eq!(sh(&phone, &format!("pm clear {PKG}")), "Success\n");
    // Room's empty table is there at once (AndroidWorld's `table_exists`), the rows are gone and
    // the set-up pages come back.
    assert_eq!(sql(&phone, "SELECT count(*) FROM expense"), "0\n");
    sh(&phone, &format!("am start -W -n {MAIN}"));
    by_text(&screen(&phone), "Choose Language");
}

#[test]
fn an_expense_typed_into_the_form_is_one_row_in_cents() {
    let phone = boot(2);
    start_and_set_up(&phone);
    tap_id(&phone, "fb_main_add");
    tap_id(&phone, "edt_name");
    sh(&phone, "input text Coffee");
    tap_id(&phone, "edt_amount");
    sh(&phone, "input text 12.3");
    tap_id(&phone, "edt_note");
    sh(&phone, "input text Urgent");
    let h = screen(&phone);
    let food = find(&h, &|n| {
        n.resource_id == id("chip_category") && n.text == "Food"
    })
    .unwrap_or_else(|| panic!("no Food chip in {}", h.xml));
    tap(&phone, food.bounds);
    tap_id(&phone, "btn_save");
    assert_eq!(
        sql(
            &phone,
            "SELECT name, amount, category, note, created_date = modified_date FROM expense"
        ),
        "Coffee|1230|3|Urgent|1\n"
    );
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "tv_name"), ["Coffee"]);
    assert_eq!(texts_of(&h, "tv_amount"), ["$12.30"]);
    assert!(texts_of(&h, "tv_date")[0].starts_with("Food · "));
}

#[test]
fn a_required_field_left_empty_saves_nothing() {
    let phone = boot(3);
    start_and_set_up(&phone);
    tap_id(&phone, "fb_main_add");
    tap_id(&phone, "edt_name");
    sh(&phone, "input text Taxi");
    tap_id(&phone, "btn_save");
    by_id(&screen(&phone), &id("tv_error"));
    assert_eq!(sql(&phone, "SELECT count(*) FROM expense"), "0\n");
}

#[test]
fn rows_written_behind_the_app_show_and_delete_from_the_detail_page() {
    let phone = boot(4);
    start_and_set_up(&phone);
    sh(&phone, &format!("am force-stop {PKG}"));
    insert(&phone, "Groceries", 4599, 3, "A need", 1_697_000_000_000);
    insert(&phone, "Taxi Fare", 1250, 7, "Urgent", 1_697_100_000_000);
    sh(&phone, &format!("am start -W -n {MAIN}"));
    let h = screen(&phone);
    // Newest first.
    assert_eq!(texts_of(&h, "tv_name"), ["Taxi Fare", "Groceries"]);
    tap_text(&phone, "Groceries");
    let h = screen(&phone);
    assert_eq!(by_id(&h, &id("tv_amount")).text, "$45.99");
    assert_eq!(by_id(&h, &id("tv_category")).text, "Food");
    tap_id(&phone, "btn_delete");
    by_text(&screen(&phone), "1 item will be deleted!");
    tap_text(&phone, "Confirm");
    assert_eq!(
        sql(&phone, "SELECT name FROM expense"),
        "Taxi Fare\n",
        "only the row deleted on the detail page went"
    );
    assert_eq!(texts_of(&screen(&phone), "tv_name"), ["Taxi Fare"]);
}

#[test]
fn multi_select_deletes_exactly_the_picked_rows() {
    let phone = boot(5);
    start_and_set_up(&phone);
    for (i, name) in ["Rent", "Books", "Gas", "Shoes"].iter().enumerate() {
        insert(
            &phone,
            name,
            1000 + i as i64,
            1,
            "",
            1_697_000_000_000 + i as i64,
        );
    }
    sh(&phone, &format!("am force-stop {PKG}"));
    sh(&phone, &format!("am start -W -n {MAIN}"));
    long_press_text(&phone, "Books");
    // Each row's checkbox is named for its record, not for the category and date beside it.
    let boxes: Vec<String> = screen(&phone)
        .nodes
        .iter()
        .filter(|n| n.resource_id == id("cb_select"))
        .map(|n| n.content_desc.clone())
        .collect();
    assert_eq!(boxes, ["Shoes", "Gas", "Books", "Rent"]);
    tap_text(&phone, "Shoes");
    // A second tap takes a row back out of the selection.
    tap_text(&phone, "Gas");
    tap_text(&phone, "Gas");
    by_text(&screen(&phone), "2 selected");
    tap_id(&phone, "btn_delete");
    by_text(&screen(&phone), "2 items will be deleted!");
    tap_text(&phone, "Confirm");
    assert_eq!(
        sql(&phone, "SELECT name FROM expense ORDER BY expense_id"),
        "Rent\nGas\n"
    );
    // Cancel deletes nothing; Select All picks every row.
    long_press_text(&phone, "Rent");
    tap_id(&phone, "btn_select_all");
    by_text(&screen(&phone), "2 selected");
    tap_id(&phone, "btn_delete");
    tap_text(&phone, "Cancel");
    assert_eq!(sql(&phone, "SELECT count(*) FROM expense"), "2\n");
}

#[test]
fn editing_rewrites_the_row_and_its_modified_date() {
    let phone = boot(6);
    start_and_set_up(&phone);
    insert(
        &phone,
        "Gym",
        3000,
        9,
        "Monthly recurring",
        1_600_000_000_000,
    );
    sh(&phone, &format!("am force-stop {PKG}"));
    sh(&phone, &format!("am start -W -n {MAIN}"));
    tap_text(&phone, "Gym");
    tap_id(&phone, "btn_edit");
    assert_eq!(by_id(&screen(&phone), &id("edt_amount")).text, "30.00");
    tap_id(&phone, "edt_amount");
    sh(&phone, "input keyevent KEYCODE_MOVE_END");
    for _ in 0..5 {
        sh(&phone, "input keyevent KEYCODE_DEL");
    }
    sh(&phone, "input text 35.5");
    tap_id(&phone, "btn_save");
    assert_eq!(
        sql(
            &phone,
            "SELECT name, amount, category, created_date, modified_date > created_date FROM expense"
        ),
        "Gym|3550|9|1600000000000|1\n"
    );
}

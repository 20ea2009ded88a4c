//! Markor on the embedded phone, driven as AndroidWorld and an agent drive it (`am start -W -n`,
//! `uiautomator dump`, `input tap`/`text`/long press, Back) and checked the way AndroidWorld
//! checks it: the notebook's files with `cat`, `ls -ll -au` and `find`.

use droidmcp::geom::Bounds;
use droidmcp::hierarchy::Hierarchy;
use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const MARKOR: &str = "net.gsantner.markor";
const MAIN: &str = "net.gsantner.markor/net.gsantner.markor.activity.MainActivity";
const NOTEBOOK: &str = "/storage/emulated/0/Documents/Markor";

fn id(name: &str) -> String {
    format!("{MARKOR}:id/{name}")
}

fn tap_id(phone: &Phone, name: &str) {
    let h = screen(phone);
    tap(phone, by_id(&h, name).bounds);
}

fn row<'h>(h: &'h Hierarchy, title: &str) -> Bounds {
    let t = find(h, &|n| {
        n.resource_id == id("ui__filesystem_item__title") && n.text == title
    })
    .unwrap_or_else(|| panic!("no row {title:?} in {}", h.xml));
    t.bounds
}

fn tap_row(phone: &Phone, title: &str) {
    let b = row(&screen(phone), title);
    tap(phone, b);
}

fn long_press_row(phone: &Phone, title: &str) {
    let c = row(&screen(phone), title).center();
    sh(
        phone,
        &format!("input swipe {} {} {} {} 800", c.x, c.y, c.x, c.y),
    );
}

fn tap_text(phone: &Phone, text: &str) {
    let h = screen(phone);
    let n = find(&h, &|n| n.text == text).unwrap_or_else(|| panic!("no {text:?} in {}", h.xml));
    tap(phone, n.bounds);
}

fn titles(phone: &Phone) -> Vec<String> {
    screen(phone)
        .nodes
        .iter()
        .filter(|n| n.resource_id == id("ui__filesystem_item__title"))
        .map(|n| n.text.clone())
        .collect()
}

fn open_markor(phone: &Phone) {
    let out = sh(phone, &format!("am start -W -n {MAIN}"));
    assert!(out.contains("Status: ok"), "{out}");
}

/// Files as AndroidWorld's `file_utils.create_file` writes them.
fn create_file(phone: &Phone, dir: &str, name: &str, content: &str) {
    sh(phone, &format!("mkdir -p {dir}"));
    sh(phone, &format!("echo '{content}' > {dir}/{name}"));
}

/// `ls DIR -ll -au` as AndroidWorld parses it: (name, change time) of the regular files.
fn file_times(phone: &Phone, dir: &str) -> Vec<(String, String)> {
    sh(phone, &format!("ls {dir} -ll -au"))
        .lines()
        .filter(|l| l.starts_with('-'))
        .map(|l| {
            let parts: Vec<&str> = l.split_whitespace().collect();
            (parts[8..].join(" "), format!("{} {}", parts[5], parts[6]))
        })
        .collect()
}

#[test]
fn a_note_made_in_markor_is_a_file_adb_reads() {
    let phone = boot(3);
    open_markor(&phone);
    assert!(sh(&phone, "dumpsys window | grep mCurrentFocus").contains(MAIN));
    tap_id(&phone, &id("fab_add_new_item"));
    sh(&phone, "input text groceries");
    tap_text(&phone, "Plain text (.txt)");
    tap_id(&phone, "android:id/button1");
    // The editor is open on the new, empty file.
    let h = screen(&phone);
    assert_eq!(
        by_id(&h, &id("document__fragment__edit__highlighting_editor")).text,
        ""
    );
    assert_eq!(sh(&phone, &format!("cat {NOTEBOOK}/groceries.txt")), "");
    sh(&phone, "input text milk");
    sh(&phone, "input keyevent KEYCODE_ENTER");
    sh(&phone, "input text eggs");
    sh(&phone, "input keyevent KEYCODE_BACK");
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert_eq!(
        sh(&phone, &format!("cat {NOTEBOOK}/groceries.txt")),
        "milk\neggs"
    );
    assert_eq!(titles(&phone), vec!["groceries.txt"]);
    // A folder from the same dialog.
    tap_id(&phone, &id("fab_add_new_item"));
    sh(&phone, "input text Recipes");
    tap_id(&phone, "android:id/button3");
    assert_eq!(titles(&phone), vec!["Recipes", "groceries.txt"]);
    assert_eq!(
        sh(&phone, &format!("find {NOTEBOOK} -type d")),
        format!("{NOTEBOOK}\n{NOTEBOOK}/Recipes\n")
    );
    // A name that is taken is refused in the dialog, and nothing changes.
    tap_id(&phone, &id("fab_add_new_item"));
    sh(&phone, "input text groceries.txt");
    tap_id(&phone, "android:id/button1");
    let h = screen(&phone);
    assert!(
        by_id(&h, &id("dialog_error"))
            .text
            .contains("already exists"),
        "{}",
        h.xml
    );
}

#[test]
fn the_editor_has_markors_save_button_and_it_keeps_the_note_open() {
    let phone = boot(5);
    open_markor(&phone);
    tap_id(&phone, &id("fab_add_new_item"));
    sh(&phone, "input text merged");
    tap_id(&phone, "android:id/button1");
    sh(&phone, "input text first");
    // Goals say "save the note": the toolbar's Save is there by its name, as in Markor 2.11.1.
    let h = screen(&phone);
    let save = by_id(&h, &id("action_save"));
    assert_eq!(save.content_desc, "Save");
    assert!(save.clickable, "{}", h.xml);
    tap(&phone, save.bounds);
    let h = screen(&phone);
    assert_eq!(
        by_id(&h, &id("document__fragment__edit__highlighting_editor")).text,
        "first"
    );
    assert_eq!(sh(&phone, &format!("cat {NOTEBOOK}/merged.md")), "first");
}

#[test]
fn notes_pushed_over_adb_move_rename_and_delete_in_the_app() {
    let phone = boot(4);
    let books = format!("{NOTEBOOK}/BookNotes");
    let daily = format!("{NOTEBOOK}/DailyNotes");
    create_file(&phone, &books, "plot.md", "chapter one");
    create_file(&phone, &books, "quotes.md", "to be");
    sh(&phone, &format!("mkdir -p {daily}"));
    open_markor(&phone);
    assert_eq!(titles(&phone), vec!["BookNotes", "DailyNotes"]);
    tap_row(&phone, "BookNotes");
    assert_eq!(titles(&phone), vec!["..", "plot.md", "quotes.md"]);
    // Move plot.md to DailyNotes.
    long_press_row(&phone, "plot.md");
    tap_id(&phone, &id("action_move_selected_items"));
    // "Select folder" starts at the notebook.
    tap_row(&phone, "DailyNotes");
    tap_id(&phone, "android:id/button1");
    assert_eq!(
        sh(&phone, &format!("find {NOTEBOOK} -type f")),
        format!("{books}/quotes.md\n{daily}/plot.md\n")
    );
    assert_eq!(sh(&phone, &format!("cat {daily}/plot.md")), "chapter one\n");
    // Rename quotes.md.
    long_press_row(&phone, "quotes.md");
    tap_id(&phone, &id("action_rename_selected_item"));
    for _ in 0.."quotes.md".len() {
        sh(&phone, "input keyevent KEYCODE_DEL");
    }
    sh(&phone, "input text sayings.txt");
    tap_id(&phone, "android:id/button1");
    assert_eq!(titles(&phone), vec!["..", "sayings.txt"]);
    assert_eq!(sh(&phone, &format!("cat {books}/sayings.txt")), "to be\n");
    // Delete it, confirming.
    long_press_row(&phone, "sayings.txt");
    tap_id(&phone, &id("action_delete_selected_items"));
    tap_id(&phone, "android:id/button1");
    assert_eq!(titles(&phone), vec![".."]);
    assert_eq!(sh(&phone, &format!("ls {books}")), "");
    // A file written over adb while the app shows the folder is on the next frame.
    create_file(&phone, &books, "late.md", "hi");
    assert_eq!(titles(&phone), vec!["..", "late.md"]);
}

#[test]
fn deleting_the_newest_note_leaves_the_others_times_alone() {
    let phone = boot(5);
    sh(&phone, "date 0601120024.00");
    create_file(&phone, NOTEBOOK, "a.md", "first");
    sh(&phone, "date 0601090024.00");
    create_file(&phone, NOTEBOOK, "b.txt", "second");
    sh(&phone, "date 0601153024.00");
    create_file(&phone, NOTEBOOK, "c.md", "third");
    sh(&phone, "date 0601100024.00");
    let before = file_times(&phone, NOTEBOOK);
    assert_eq!(
        before,
        vec![
            (
                "a.md".to_string(),
                "2024-06-01 12:00:00.000000000".to_string()
            ),
            (
                "b.txt".to_string(),
                "2024-06-01 09:00:00.000000000".to_string()
            ),
            (
                "c.md".to_string(),
                "2024-06-01 15:30:00.000000000".to_string()
            ),
        ]
    );
    open_markor(&phone);
    // Sorted by date, the newest comes first.
    tap_id(&phone, &id("action_sort"));
    tap_text(&phone, "Date");
    assert_eq!(titles(&phone), vec!["c.md", "a.md", "b.txt"]);
    long_press_row(&phone, "c.md");
    tap_id(&phone, &id("action_delete_selected_items"));
    tap_id(&phone, "android:id/button1");
    sh(&phone, "sleep 5");
    assert_eq!(file_times(&phone, NOTEBOOK), before[..2].to_vec());
    // All the rest at once: long press one, select all, delete.
    long_press_row(&phone, "a.md");
    tap_id(&phone, &id("action_select_all"));
    tap_id(&phone, &id("action_delete_selected_items"));
    tap_id(&phone, "android:id/button1");
    assert_eq!(sh(&phone, &format!("ls -1 {NOTEBOOK}")), "");
}

#[test]
fn markor_is_a_sideloaded_package_that_snapshots_carry() {
    let phone = boot(6);
    assert!(sh(&phone, "pm list packages").contains("package:net.gsantner.markor\n"));
    assert!(sh(&phone, &format!("pm clear {MARKOR}")).contains("Success"));
    phone.save_snapshot("before").expect("saved");
    create_file(&phone, NOTEBOOK, "kept.md", "x");
    let stamped = file_times(&phone, NOTEBOOK);
    phone.save_snapshot("with_note").expect("saved");
    sh(&phone, &format!("rm -r {NOTEBOOK}/*"));
    phone.load_snapshot("with_note").expect("loaded");
    assert_eq!(file_times(&phone, NOTEBOOK), stamped);
    phone.load_snapshot("before").expect("loaded");
    open_markor(&phone);
    assert!(titles(&phone).is_empty());
    let h = screen(&phone);
    assert_eq!(by_id(&h, &id("empty_hint")).text, "Empty directory");
}

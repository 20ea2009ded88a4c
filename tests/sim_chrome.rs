//! Chrome's tabs and History on the embedded phone, driven over the shell as an agent drives it:
//! the tab switcher button says (and draws) how many tabs are open, New tab adds one, the switcher
//! selects and closes them, an intent from another app opens its page in a tab of its own, and the
//! app menu's History (HistoryActivity) lists the visits newest first and opens one again.

use droidmcp::hierarchy::{Hierarchy, Node};
use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const ID: &str = "com.android.chrome:id/";

fn view(phone: &Phone, url: &str) {
    sh(
        phone,
        &format!("am start -a android.intent.action.VIEW -d {url}"),
    );
}

fn all<'h>(h: &'h Hierarchy, id: &str) -> Vec<&'h Node> {
    h.nodes
        .iter()
        .filter(|n| n.resource_id == format!("{ID}{id}"))
        .collect()
}

fn tap_id(phone: &Phone, id: &str) {
    let h = screen(phone);
    tap(phone, by_id(&h, &format!("{ID}{id}")).bounds);
}

/// The app menu's History.
fn open_history(phone: &Phone) {
    tap_id(phone, "menu_button");
    tap(
        phone,
        find(&screen(phone), &|n| n.text == "History")
            .unwrap()
            .bounds,
    );
}

fn tabs_desc(phone: &Phone) -> String {
    by_id(&screen(phone), &format!("{ID}tab_switcher_button"))
        .content_desc
        .clone()
}

#[test]
fn chrome_counts_its_tabs_and_the_switcher_selects_and_closes_them() {
    let phone = boot(3);
    view(&phone, "https://example.org/first");
    assert_eq!(tabs_desc(&phone), "1 open tab, tap to switch tabs");

    tap_id(&phone, "optional_toolbar_button");
    let h = screen(&phone);
    assert_eq!(
        by_id(&h, &format!("{ID}tab_switcher_button")).content_desc,
        "2 open tabs, tap to switch tabs"
    );
    // An empty omnibox: uiautomator reports an empty field's hint as its text.
    assert_eq!(
        by_id(&h, &format!("{ID}url_bar")).text,
        "Search or type URL"
    );
    // The count is drawn in the button: its pixels differ from the toolbar's background.
    let button = by_id(&h, &format!("{ID}tab_switcher_button")).bounds;
    sh(&phone, "screencap -p /sdcard/tabs.png");
    let png = phone.read_file("/sdcard/tabs.png").unwrap();
    let img = image::load_from_memory(&png).unwrap().to_rgba8();
    let bg = img
        .get_pixel(button.left as u32 + 2, button.top as u32 + 2)
        .0;
    assert!(crate::util::inked(&img, button, bg) > 50);

    // Another app's link opens in the new tab's empty page, and the next one in a tab of its own.
    view(&phone, "https://example.org/second");
    assert_eq!(tabs_desc(&phone), "2 open tabs, tap to switch tabs");
    assert_eq!(
        by_id(&screen(&phone), &format!("{ID}url_bar")).text,
        "example.org/second"
    );
    tap_id(&phone, "optional_toolbar_button");
    tap_id(&phone, "tab_switcher_button");
    let h = screen(&phone);
    let titles: Vec<&str> = all(&h, "tab_title")
        .iter()
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(
        titles,
        ["example.org/first", "example.org/second", "New tab"]
    );
    let selected: Vec<bool> = all(&h, "card_view").iter().map(|n| n.selected).collect();
    assert_eq!(selected, [false, false, true]);

    let close = find(&h, &|n| n.content_desc == "Close New tab tab").expect("a close button");
    tap(&phone, close.bounds);
    let h = screen(&phone);
    assert_eq!(all(&h, "card_view").len(), 2, "{}", h.xml);
    tap(&phone, all(&h, "card_view")[0].bounds);
    let h = screen(&phone);
    assert_eq!(by_id(&h, &format!("{ID}url_bar")).text, "example.org/first");
    assert_eq!(
        by_id(&h, &format!("{ID}tab_switcher_button")).content_desc,
        "2 open tabs, tap to switch tabs"
    );
    view(&phone, "https://example.org/third");
    assert_eq!(tabs_desc(&phone), "3 open tabs, tap to switch tabs");

    // Back from the switcher returns to the tab; with every tab closed, Back leaves Chrome.
    tap_id(&phone, "tab_switcher_button");
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert!(find(&screen(&phone), &|n| n.resource_id
        == format!("{ID}url_bar"))
    .is_some());
    tap_id(&phone, "tab_switcher_button");
    for _ in 0..3 {
        let h = screen(&phone);
        tap(&phone, all(&h, "action_button")[0].bounds);
    }
    assert!(all(&screen(&phone), "card_view").is_empty());
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert!(!sh(&phone, "dumpsys window").contains("mCurrentFocus=Window{0 u0 com.android.chrome"));
}

#[test]
fn chrome_history_lists_visits_newest_first_and_opens_one_again() {
    let phone = boot(4);
    sh(&phone, "logcat -c");
    view(&phone, "https://example.org/a");
    view(&phone, "https://example.org/b");
    tap_id(&phone, "menu_button");
    let h = screen(&phone);
    let items: Vec<&str> = all(&h, "menu_item_text")
        .iter()
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(items, ["New tab", "History"]);
    tap(&phone, find(&h, &|n| n.text == "History").unwrap().bounds);

    let log = sh(&phone, "logcat -d -s ActivityTaskManager:I");
    assert!(
        log.contains(
            "START u0 {cmp=com.android.chrome/org.chromium.chrome.browser.history.HistoryActivity}"
        ),
        "{log}"
    );
    assert!(sh(&phone, "dumpsys activity activities").contains("HistoryActivity"));
    let h = screen(&phone);
    assert!(find(&h, &|n| n.text == "Today").is_some(), "{}", h.xml);
    let titles: Vec<&str> = all(&h, "title").iter().map(|n| n.text.as_str()).collect();
    assert_eq!(titles, ["example.org/b", "example.org/a"]);
    let domains: Vec<&str> = all(&h, "domain").iter().map(|n| n.text.as_str()).collect();
    assert_eq!(domains, ["example.org", "example.org"]);

    // An entry opens in the tab, and the visit is recorded as Chrome records it.
    tap(&phone, all(&h, "list_item")[1].bounds);
    let h = screen(&phone);
    assert_eq!(by_id(&h, &format!("{ID}url_bar")).text, "example.org/a");
    let visits = sh(
        &phone,
        "sqlite3 /data/data/com.android.chrome/app_chrome/Default/History \
         \"SELECT visit_count FROM urls WHERE url = 'https://example.org/a'\"",
    );
    assert_eq!(visits.trim(), "2");

    // History opened again lists the visit just made first; Back returns to the tab.
    open_history(&phone);
    let h = screen(&phone);
    let titles: Vec<&str> = all(&h, "title").iter().map(|n| n.text.as_str()).collect();
    assert_eq!(titles, ["example.org/a", "example.org/b"]);
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert!(find(&screen(&phone), &|n| n.resource_id
        == format!("{ID}url_bar"))
    .is_some());
}

#[test]
fn chrome_history_is_empty_on_a_new_phone_and_says_so() {
    let phone = boot(5);
    sh(
        &phone,
        "am start -n com.android.chrome/com.google.android.apps.chrome.Main",
    );
    open_history(&phone);
    let h = screen(&phone);
    assert!(all(&h, "list_item").is_empty());
    assert_eq!(
        by_id(&h, &format!("{ID}empty_view")).text,
        "Sites you visit will appear here"
    );
}

//! The embedded phone's system UI driven through its shell: the clipboard (Clipper's broadcasts,
//! the floating text toolbar, the cut/copy/paste keys).

use droidmcp::geom::Bounds;
use droidmcp::hierarchy::{parse, Hierarchy, Node};
use droidmcp::sim::Phone;

use crate::util::{boot, sh};

pub fn screen(phone: &Phone) -> Hierarchy {
    let out = sh(phone, "uiautomator dump /dev/tty");
    parse(out.as_bytes()).expect("the dump parses")
}

pub fn find<'h>(h: &'h Hierarchy, pred: &dyn Fn(&Node) -> bool) -> Option<&'h Node> {
    h.nodes.iter().find(|n| pred(n))
}

pub fn by_id<'h>(h: &'h Hierarchy, id: &str) -> &'h Node {
    find(h, &|n| n.resource_id == id).unwrap_or_else(|| panic!("no {id} in {}", h.xml))
}

pub fn tap(phone: &Phone, b: Bounds) {
    let c = b.center();
    sh(phone, &format!("input tap {} {}", c.x, c.y));
}

fn long_press(phone: &Phone, b: Bounds) {
    let c = b.center();
    sh(
        phone,
        &format!("input swipe {} {} {} {} 800", c.x, c.y, c.x, c.y),
    );
}

const TOOLBAR_ITEM: &str = "android:id/floating_toolbar_menu_item_text";

/// The toolbar's items as shown: (title, its clickable button's content description and bounds).
fn toolbar(h: &Hierarchy) -> Vec<(String, String, Bounds)> {
    h.nodes
        .iter()
        .filter(|n| n.resource_id == TOOLBAR_ITEM)
        .map(|n| {
            let button = &h.nodes[n.parent.expect("an item sits in its button").0 as usize];
            assert!(button.clickable, "the item's LinearLayout takes the click");
            (n.text.clone(), button.content_desc.clone(), button.bounds)
        })
        .collect()
}

fn item(h: &Hierarchy, title: &str) -> Bounds {
    toolbar(h)
        .into_iter()
        .find(|(t, _, _)| t == title)
        .unwrap_or_else(|| panic!("no {title} in the toolbar: {:?}", toolbar(h)))
        .2
}

/// The primary clip as the emulator's host end of the clipboard pipe holds it (the console's
/// `clipboard get`): read without an app, so without focus and without changing the phone.
fn clip(phone: &Phone) -> String {
    let out = phone.console("clipboard get");
    out.strip_suffix("\r\nOK\r\n")
        .unwrap_or_else(|| panic!("clipboard get: {out:?}"))
        .to_string()
}

#[test]
fn clipper_broadcasts_answer_as_the_clipper_app_does() {
    let phone = boot(0);
    // Clipper in front holds focus, so its receiver may read the clip (Android 10+).
    sh(&phone, "am start -W -n ca.zgrs.clipper/.Main");
    assert_eq!(
        sh(&phone, "am broadcast -a clipper.get"),
        "Broadcasting: Intent { act=clipper.get flg=0x400000 }\nBroadcast completed: result=0, data=\"\"\n"
    );
    assert_eq!(
        sh(&phone, "am broadcast -a clipper.set"),
        "Broadcasting: Intent { act=clipper.set flg=0x400000 }\nBroadcast completed: result=0, data=\"No text is provided. Use -e text \"text to be pasted\"\"\n"
    );
    assert_eq!(
        sh(&phone, "am broadcast -a clipper.set -e text 'Grüße, 世界 🙂'"),
        "Broadcasting: Intent { act=clipper.set flg=0x400000 (has extras) }\nBroadcast completed: result=-1, data=\"Text is copied into clipboard.\"\n"
    );
    assert_eq!(
        sh(
            &phone,
            "am broadcast -n ca.zgrs.clipper/.ClipperReceiver -a get"
        ),
        "Broadcasting: Intent { act=get flg=0x400000 cmp=ca.zgrs.clipper/.ClipperReceiver }\nBroadcast completed: result=-1, data=\"Grüße, 世界 🙂\"\n"
    );
    // A broadcast no receiver takes completes with nothing set.
    assert_eq!(
        sh(&phone, "am broadcast -a com.example.NOTHING"),
        "Broadcasting: Intent { act=com.example.NOTHING flg=0x400000 }\nBroadcast completed: result=0\n"
    );
    // Android 14's ClipboardService has no shell command: Binder's default answer.
    let out = phone.exec("cmd clipboard get");
    assert_eq!(out.exit_code, 0);
    assert_eq!(out.stdout_text(), "");
    assert_eq!(out.stderr_text(), "No shell command implementation.\n");
}

/// Android 10+ gives the clip only to the app with input focus: with Clipper behind the home
/// screen or the shade, its receiver still sets the clip but reads none, and ClipboardService
/// logs the refusal; in front again, it reads the clip. The emulator's host end still has it.
#[test]
fn clipper_reads_the_clip_only_while_it_has_focus() {
    let phone = boot(0);
    sh(
        &phone,
        "am broadcast -a clipper.set -e text 'from the background'",
    );
    let refused = "Broadcasting: Intent { act=clipper.get flg=0x400000 }\nBroadcast completed: result=0, data=\"\"\n";
    assert_eq!(sh(&phone, "am broadcast -a clipper.get"), refused);
    assert!(sh(&phone, "logcat -d -s ClipboardService").contains(
        "E ClipboardService: Denying clipboard access to ca.zgrs.clipper, application is not in \
         focus nor is it a system service for user 0"
    ));
    assert_eq!(clip(&phone), "from the background");

    sh(&phone, "am start -W -n ca.zgrs.clipper/.Main");
    let read = "Broadcasting: Intent { act=clipper.get flg=0x400000 }\nBroadcast completed: result=-1, data=\"from the background\"\n";
    assert_eq!(sh(&phone, "am broadcast -a clipper.get"), read);
    // The shade takes focus from the app under it.
    sh(&phone, "cmd statusbar expand-notifications");
    assert_eq!(sh(&phone, "am broadcast -a clipper.get"), refused);
    sh(&phone, "cmd statusbar collapse");
    assert_eq!(sh(&phone, "am broadcast -a clipper.get"), read);
}

/// Messages with a new conversation open and the compose field focused.
fn compose(phone: &Phone) -> Hierarchy {
    sh(phone, "monkey -p com.google.android.apps.messaging 1");
    let h = screen(phone);
    tap(
        phone,
        by_id(&h, "com.google.android.apps.messaging:id/start_chat_fab").bounds,
    );
    sh(phone, "input text 5551234567");
    sh(phone, "input keyevent 66");
    screen(phone)
}

const COMPOSE: &str = "com.google.android.apps.messaging:id/compose_message_text";

#[test]
fn long_press_offers_the_floating_toolbar_and_paste_cut_copy_round_trip_unicode() {
    let phone = boot(1);
    let h = compose(&phone);
    let field = by_id(&h, COMPOSE).bounds;
    // Nothing on the clipboard: a long press on the empty field shows no toolbar.
    long_press(&phone, field);
    assert!(toolbar(&screen(&phone)).is_empty());

    sh(
        &phone,
        "am broadcast -a clipper.set -e text 'Grüße aus 東京'",
    );
    long_press(&phone, field);
    let h = screen(&phone);
    let items = toolbar(&h);
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(
        (items[0].0.as_str(), items[0].1.as_str()),
        ("Paste", "Paste")
    );
    let paste = find(&h, &|n| n.resource_id == TOOLBAR_ITEM).unwrap();
    assert_eq!(paste.package, "com.google.android.apps.messaging");
    assert!(
        items[0].2.bottom <= field.top,
        "the toolbar sits above the field"
    );
    tap(&phone, items[0].2);
    let h = screen(&phone);
    assert_eq!(by_id(&h, COMPOSE).text, "Grüße aus 東京");
    assert!(toolbar(&h).is_empty(), "a toolbar click closes it");

    // A long press on text selects a word: Cut, Copy, Paste, Select all, in Editor's order.
    long_press(&phone, field);
    let h = screen(&phone);
    let titles: Vec<String> = toolbar(&h).into_iter().map(|(t, _, _)| t).collect();
    assert_eq!(titles, ["Cut", "Copy", "Paste", "Select all"]);
    tap(&phone, item(&h, "Select all"));
    let h = screen(&phone);
    let titles: Vec<String> = toolbar(&h).into_iter().map(|(t, _, _)| t).collect();
    assert_eq!(titles, ["Cut", "Copy", "Paste"], "all is selected already");
    tap(&phone, item(&h, "Cut"));
    // An empty EditText dumps its hint as its text, as uiautomator does.
    assert_eq!(by_id(&screen(&phone), COMPOSE).text, "Text message");
    assert_eq!(clip(&phone), "Grüße aus 東京");

    // ctrl+v and KEYCODE_PASTE paste at the end of the focused field; typing over a selection
    // replaces it.
    sh(&phone, "input keycombination 113 50");
    sh(&phone, "input keyevent 279");
    assert_eq!(
        by_id(&screen(&phone), COMPOSE).text,
        "Grüße aus 東京Grüße aus 東京"
    );
    sh(&phone, "input keycombination 113 29");
    sh(&phone, "input text ok");
    assert_eq!(by_id(&screen(&phone), COMPOSE).text, "ok");
    // ctrl+a, ctrl+c: the field's text becomes the clip.
    sh(&phone, "input keycombination 113 29");
    sh(&phone, "input keyevent KEYCODE_COPY");
    assert_eq!(clip(&phone), "ok");
    // Back closes the toolbar first, keeping the keyboard's field.
    long_press(&phone, field);
    assert!(!toolbar(&screen(&phone)).is_empty());
    sh(&phone, "input keyevent 4");
    let h = screen(&phone);
    assert!(toolbar(&h).is_empty());
    assert_eq!(by_id(&h, COMPOSE).text, "ok");
}

#[test]
fn a_sent_message_can_be_copied_from_its_bubble() {
    let phone = boot(2);
    let h = compose(&phone);
    tap(&phone, by_id(&h, COMPOSE).bounds);
    sh(&phone, "input text 'Gate 42 at noon'");
    let h = screen(&phone);
    tap(
        &phone,
        by_id(
            &h,
            "com.google.android.apps.messaging:id/send_message_button_icon",
        )
        .bounds,
    );
    let h = screen(&phone);
    let bubble = by_id(&h, "com.google.android.apps.messaging:id/message_text");
    assert!(bubble.long_clickable);
    long_press(&phone, bubble.bounds);
    let h = screen(&phone);
    let titles: Vec<String> = toolbar(&h).into_iter().map(|(t, _, _)| t).collect();
    assert_eq!(
        titles,
        ["Copy", "Select all"],
        "a TextView offers no cut or paste"
    );
    tap(&phone, item(&h, "Select all"));
    tap(&phone, item(&screen(&phone), "Copy"));
    assert_eq!(clip(&phone), "Gate 42 at noon");
}

const SHELL_POSTED: &str = "posting:\n  Notification(channel=shellcmd shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x0 color=0x00000000 vis=PRIVATE)\n";

fn focus(phone: &Phone) -> String {
    sh(phone, "dumpsys window")
        .lines()
        .find(|l| l.contains("mCurrentFocus"))
        .unwrap_or_default()
        .trim()
        .to_string()
}

#[test]
fn the_shade_opens_from_the_status_bar_lists_notifications_and_fires_their_intents() {
    let phone = boot(3);
    assert_eq!(
        sh(
            &phone,
            "cmd notification post -t 'Invoice ready' -c activity -a android.intent.action.VIEW https://example.com/inv/7 invoice 'March invoice'"
        ),
        SHELL_POSTED
    );
    assert_eq!(
        sh(
            &phone,
            "cmd notification post -t Reminder note 'Water the plants'"
        ),
        SHELL_POSTED
    );
    // Reposting the same tag replaces; a notification without TEXT is refused with the usage.
    sh(
        &phone,
        "cmd notification post -t Reminder note 'Water the ferns'",
    );
    let bad = phone.exec("cmd notification post onlytag");
    assert!(bad
        .stdout_text()
        .starts_with("usage: cmd notification post [flags] <tag> <text>"));
    assert_ne!(bad.exit_code, 0);

    // A swipe down from the status bar pulls the shade: it is the focused window and the dump.
    let launcher_focus = focus(&phone);
    sh(&phone, "input swipe 540 10 540 1400 300");
    assert!(
        focus(&phone).ends_with("u0 NotificationShade}"),
        "{}",
        focus(&phone)
    );
    let h = screen(&phone);
    assert!(h.nodes.iter().all(|n| n.package == "com.android.systemui"));
    let rows: Vec<&Node> = h
        .nodes
        .iter()
        .filter(|n| n.resource_id == "com.android.systemui:id/expandableNotificationRow")
        .collect();
    assert_eq!(rows.len(), 2);
    let texts = |id: &str| -> Vec<String> {
        h.nodes
            .iter()
            .filter(|n| n.resource_id == id)
            .map(|n| n.text.clone())
            .collect()
    };
    // Newest first; the app name, relative time, title and text as the template ids carry them.
    assert_eq!(texts("android:id/title"), ["Reminder", "Invoice ready"]);
    assert_eq!(
        texts("android:id/text"),
        ["Water the ferns", "March invoice"]
    );
    assert_eq!(texts("android:id/app_name_text"), ["Shell", "Shell"]);
    assert_eq!(texts("android:id/time"), ["now", "now"]);
    assert_eq!(
        by_id(&h, "com.android.systemui:id/dismiss_text").text,
        "Clear all"
    );

    // Swiping one sideways dismisses it; back closes the shade and gives focus back.
    let reminder = rows[0].bounds;
    let y = reminder.center().y;
    sh(
        &phone,
        &format!(
            "input swipe {} {y} {} {y} 200",
            reminder.left + 20,
            reminder.right - 20
        ),
    );
    let h = screen(&phone);
    assert_eq!(
        h.nodes
            .iter()
            .filter(|n| n.resource_id == "android:id/title")
            .count(),
        1
    );
    sh(&phone, "input keyevent 4");
    assert_eq!(focus(&phone), launcher_focus);

    // `cmd statusbar` opens it too; a tap fires the content intent into the app that takes it.
    assert_eq!(sh(&phone, "cmd statusbar expand-notifications"), "");
    let h = screen(&phone);
    tap(
        &phone,
        find(&h, &|n| n.text == "Invoice ready").unwrap().bounds,
    );
    assert!(
        focus(&phone).contains("com.android.chrome"),
        "{}",
        focus(&phone)
    );
    let h = screen(&phone);
    assert!(by_id(&h, "com.android.chrome:id/url_bar")
        .text
        .contains("example.com/inv/7"));
    // A shell-posted notification has no FLAG_AUTO_CANCEL: it stays after the tap; Clear all
    // removes it.
    sh(&phone, "input keyevent KEYCODE_NOTIFICATION");
    let h = screen(&phone);
    assert!(find(&h, &|n| n.text == "Invoice ready").is_some());
    tap(
        &phone,
        by_id(&h, "com.android.systemui:id/dismiss_text").bounds,
    );
    assert!(focus(&phone).contains("com.android.chrome"));
    sh(&phone, "cmd statusbar expand-notifications");
    let h = screen(&phone);
    assert_eq!(
        by_id(&h, "com.android.systemui:id/no_notifications").text,
        "No notifications"
    );
    assert_eq!(sh(&phone, "cmd statusbar collapse"), "");
    assert!(focus(&phone).contains("com.android.chrome"));
}

#[test]
fn the_toolbar_and_the_shade_speak_the_phone_language() {
    let phone = Phone::new(droidmcp::sim::SimConfig {
        seed: 4,
        locale: "ko-KR".into(),
        ..droidmcp::sim::SimConfig::default()
    })
    .expect("phone boots");
    sh(&phone, "am broadcast -a clipper.set -e text 안녕");
    let h = compose(&phone);
    long_press(&phone, by_id(&h, COMPOSE).bounds);
    let items = toolbar(&screen(&phone));
    assert_eq!(items.len(), 1);
    assert_eq!(
        (items[0].0.as_str(), items[0].1.as_str()),
        ("붙여넣기", "붙여넣기")
    );
    sh(&phone, "cmd statusbar expand-notifications");
    assert_eq!(
        by_id(&screen(&phone), "com.android.systemui:id/no_notifications").text,
        "알림 없음"
    );
}

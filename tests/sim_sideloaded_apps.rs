//! The apps AndroidWorld sideloads onto its AVD, on the embedded phone: Simple SMS Messenger
//! (conversation list, new conversation by number or contact, thread with reply, copy a message,
//! paste it back) and Clipper (its Main activity), driven through the shell as AndroidWorld and an
//! agent drive them (`am start -n`, `uiautomator dump`, `input tap`/`text`/long press), checked
//! through the telephony provider and the command outputs tools parse.

use droidmcp::geom::Bounds;
use droidmcp::hierarchy::{Hierarchy, Node};
use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const SMS: &str = "com.simplemobiletools.smsmessenger";
const MAIN: &str =
    "com.simplemobiletools.smsmessenger/com.simplemobiletools.smsmessenger.activities.MainActivity";

fn id(name: &str) -> String {
    format!("{SMS}:id/{name}")
}

fn tap_id(phone: &Phone, name: &str) {
    let h = screen(phone);
    let n = by_id(&h, &id(name));
    assert!(n.clickable, "{name} is not clickable: {}", h.xml);
    tap(phone, n.bounds);
}

/// Types `text` (no spaces) into the thread's message field and taps SMS.
fn send_in_thread(phone: &Phone, text: &str) {
    tap_id(phone, "thread_type_message");
    sh(phone, &format!("input text {text}"));
    tap_id(phone, "thread_send_message");
}

fn long_press(phone: &Phone, b: Bounds) {
    let c = b.center();
    sh(
        phone,
        &format!("input swipe {} {} {} {} 800", c.x, c.y, c.x, c.y),
    );
}

fn by_desc<'h>(h: &'h Hierarchy, desc: &str) -> &'h Node {
    find(h, &|n| n.content_desc == desc).unwrap_or_else(|| panic!("no {desc:?} in {}", h.xml))
}

fn texts_of(h: &Hierarchy, name: &str) -> Vec<String> {
    h.nodes
        .iter()
        .filter(|n| n.resource_id == id(name))
        .map(|n| n.text.clone())
        .collect()
}

/// Back until the activity on top changes (the first Back may only hide the keyboard).
fn leave(phone: &Phone) {
    let before = top_activity(phone);
    for _ in 0..3 {
        sh(phone, "input keyevent KEYCODE_BACK");
        if top_activity(phone) != before {
            return;
        }
    }
    panic!("Back did not leave {before}");
}

fn top_activity(phone: &Phone) -> String {
    sh(phone, "am stack list | grep visible=true")
}

/// A phone whose default SMS app is Simple SMS Messenger, as AndroidWorld's one-time setup
/// leaves its AVD (otherwise MainActivity first asks for the role).
fn default_messenger(seed: u64) -> Phone {
    let phone = boot(seed);
    sh(
        &phone,
        &format!("cmd role add-role-holder android.app.role.SMS {SMS}"),
    );
    phone
}

/// A phone with no texts, in Simple SMS Messenger's conversation list.
fn empty_messenger() -> Phone {
    let phone = default_messenger(0);
    let db = "/data/data/com.android.providers.telephony/databases/mmssms.db";
    sh(
        &phone,
        &format!("sqlite3 {db} 'DELETE FROM sms; DELETE FROM threads;'"),
    );
    sh(&phone, &format!("am start -n {MAIN}"));
    phone
}

#[test]
fn the_sideloaded_apps_answer_the_package_and_activity_managers() {
    let phone = default_messenger(0);
    let packages = sh(&phone, "pm list packages");
    for p in [
        "package:com.simplemobiletools.smsmessenger\n",
        "package:ca.zgrs.clipper\n",
    ] {
        assert!(packages.contains(p), "{p} missing from {packages}");
    }
    assert_eq!(
        sh(
            &phone,
            &format!(
                "cmd package resolve-activity --brief -c android.intent.category.LAUNCHER {SMS}"
            )
        ),
        "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n\
         com.simplemobiletools.smsmessenger/.activities.SplashActivity.Orange\n"
    );
    // AndroidWorld's `launch_app('clipper')` and what it reads back.
    assert_eq!(
        sh(&phone, "am start -n ca.zgrs.clipper/ca.zgrs.clipper.Main"),
        "Starting: Intent { cmp=ca.zgrs.clipper/.Main }\n"
    );
    assert!(top_activity(&phone)
        .contains("visible=true topActivity=ComponentInfo{ca.zgrs.clipper/ca.zgrs.clipper.Main}"));
    let h = screen(&phone);
    assert_eq!(
        by_id(&h, "ca.zgrs.clipper:id/head").text,
        "Clipper service is started."
    );
    assert_eq!(
        by_id(&h, "ca.zgrs.clipper:id/sub").text,
        "You can now copy to or paste from clipboard using the following commands in adb \
         shell:\n \n 1. am broadcast -a clipper.set -e text 'This may be pasted now' \n 2. am \
         broadcast -a clipper.get"
    );
    assert_eq!(
        sh(
            &phone,
            "am broadcast -a clipper.set -e text 'Order No: A123456'"
        ),
        "Broadcasting: Intent { act=clipper.set flg=0x400000 (has extras) }\n\
         Broadcast completed: result=-1, data=\"Text is copied into clipboard.\"\n"
    );
    // Back finishes Clipper and shows what was under it.
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert!(top_activity(&phone).contains("nexuslauncher"));

    assert_eq!(
        sh(&phone, &format!("am start -n {MAIN}")),
        "Starting: Intent { cmp=com.simplemobiletools.smsmessenger/.activities.MainActivity }\n"
    );
    assert!(sh(
        &phone,
        "dumpsys activity activities | grep mResumedActivity"
    )
    .contains(" u0 com.simplemobiletools.smsmessenger/.activities.MainActivity t"));
    assert_eq!(sh(&phone, &format!("am force-stop {SMS}")), "");
    assert!(top_activity(&phone).contains("nexuslauncher"));
    // Its launcher entry is an alias of SplashActivity, which hands over to MainActivity.
    sh(&phone, &format!("monkey -p {SMS} 1"));
    assert!(top_activity(&phone).contains(
        "topActivity=ComponentInfo{com.simplemobiletools.smsmessenger/com.simplemobiletools.smsmessenger.activities.MainActivity}"
    ));
    assert!(sh(&phone, "dumpsys activity recents")
        .contains("realActivity={com.simplemobiletools.smsmessenger/.activities.SplashActivity}"));
    sh(&phone, &format!("am force-stop {SMS}"));
    // Only the drawer lists them, as on AndroidWorld's AVD: the home screen is unchanged.
    sh(&phone, "input keyevent KEYCODE_HOME");
    let home = screen(&phone);
    assert!(find(&home, &|n| n.text == "SMS Messenger" || n.text == "Clipper").is_none());
}

#[test]
fn a_text_to_a_typed_number_lands_in_the_sent_box() {
    let phone = empty_messenger();
    let h = screen(&phone);
    assert_eq!(
        by_id(&h, &id("no_conversations_placeholder")).text,
        "No stored conversations have been found"
    );
    tap_id(&phone, "conversations_fab");
    assert!(top_activity(&phone).contains("activities.NewConversationActivity}"));
    // The ✓ shows from the third character on.
    sh(&phone, "input text +1");
    assert!(find(&screen(&phone), &|n| n.resource_id
        == id("new_conversation_confirm"))
    .is_none());
    sh(&phone, "input text 6505550199");
    tap_id(&phone, "new_conversation_confirm");
    assert!(top_activity(&phone).contains("activities.ThreadActivity}"));
    let h = screen(&phone);
    let send = by_id(&h, &id("thread_send_message"));
    assert_eq!(
        (send.text.as_str(), send.content_desc.as_str()),
        ("SMS", "OK")
    );
    assert!(!send.enabled, "nothing typed yet");
    assert_eq!(
        by_id(&h, &id("thread_type_message")).hint,
        "Type a message…"
    );
    assert!(
        find(&h, &|n| n.text == "+16505550199").is_some(),
        "the title is the number"
    );
    sh(&phone, "input text 'Meet%sat%snoon'");
    tap_id(&phone, "thread_send_message");
    let sent = sh(
        &phone,
        "content query --uri content://sms/sent --projection address:body:type:read:creator",
    );
    assert_eq!(
        sent,
        "Row: 0 address=+16505550199, body=Meet at noon, type=2, read=1, \
         creator=com.simplemobiletools.smsmessenger\n"
    );
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "thread_message_body"), ["Meet at noon"]);
    // Empty again: the field shows its hint, as uiautomator reports an empty EditText.
    assert_eq!(
        by_id(&h, &id("thread_type_message")).text,
        "Type a message…"
    );
    assert!(find(&h, &|n| n.resource_id == id("thread_success")).is_some());
    // Back returns to New conversation (still holding the number), then to the list.
    leave(&phone);
    assert_eq!(
        by_id(&screen(&phone), &id("new_conversation_address")).text,
        "+16505550199"
    );
    leave(&phone);
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "conversation_address"), ["+16505550199"]);
    assert_eq!(texts_of(&h, "conversation_body_short"), ["Meet at noon"]);
}

#[test]
fn a_reply_goes_to_the_thread_it_was_typed_in_and_reading_marks_it_read() {
    let phone = empty_messenger();
    assert_eq!(phone.console("sms send +16505550142 Lunch at 1?"), "OK\r\n");
    assert_eq!(phone.console("sms send +14155550100 Newest one"), "OK\r\n");
    let h = screen(&phone);
    // Newest first.
    assert_eq!(
        texts_of(&h, "conversation_address"),
        ["+14155550100", "+16505550142"]
    );
    let row = h
        .nodes
        .iter()
        .filter(|n| n.resource_id == id("conversation_frame"))
        .nth(1)
        .expect("two rows");
    tap(&phone, row.bounds);
    let h = screen(&phone);
    assert_eq!(texts_of(&h, "thread_message_body"), ["Lunch at 1?"]);
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://sms/inbox --projection address:read --sort _id"
        ),
        "Row: 0 address=+16505550142, read=1\nRow: 1 address=+14155550100, read=0\n"
    );
    send_in_thread(&phone, "Sure");
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://sms/sent --projection address:body"
        ),
        "Row: 0 address=+16505550142, body=Sure\n"
    );
    assert_eq!(
        texts_of(&screen(&phone), "thread_message_body"),
        ["Lunch at 1?", "Sure"]
    );
}

#[test]
fn a_contact_is_found_by_name_and_texted_at_its_number() {
    let phone = empty_messenger();
    // AndroidWorld's `contacts_utils.add_contact`: the INSERT intent, then Save.
    sh(
        &phone,
        "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact -e name \"Zoe Quist\" -e phone +12125550123",
    );
    let save = find(&screen(&phone), &|n| n.text.eq_ignore_ascii_case("save"))
        .expect("a Save button")
        .bounds;
    tap(&phone, save);
    // The INSERT intent's NAME extra filled the name (first and last) before Save.
    assert!(sh(&phone, "content query --uri content://com.android.contacts/data --projection display_name:data1 --where \"mimetype='vnd.android.cursor.item/phone_v2'\"")
        .contains(" display_name=Zoe Quist, data1=+12125550123\n"));
    sh(&phone, &format!("am start -n {MAIN}"));
    tap_id(&phone, "conversations_fab");
    sh(&phone, "input text 'zoe'");
    let h = screen(&phone);
    assert_eq!(
        texts_of(&h, "item_contact_name"),
        ["Zoe Quist"],
        "{}",
        h.xml
    );
    assert_eq!(texts_of(&h, "item_contact_number"), ["+12125550123"]);
    let row = find(&h, &|n| n.resource_id == id("item_contact_frame")).expect("a row");
    tap(&phone, row.bounds);
    let h = screen(&phone);
    assert!(
        find(&h, &|n| n.text == "Zoe Quist").is_some(),
        "titled by name: {}",
        h.xml
    );
    send_in_thread(&phone, "Hi");
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://sms/sent --projection address:body"
        ),
        "Row: 0 address=+12125550123, body=Hi\n"
    );
    // The list names the conversation after the contact.
    leave(&phone);
    leave(&phone);
    assert_eq!(
        texts_of(&screen(&phone), "conversation_address"),
        ["Zoe Quist"]
    );
}

#[test]
fn a_sent_message_is_copied_and_pasted_back_to_resend_it() {
    let phone = empty_messenger();
    tap_id(&phone, "conversations_fab");
    sh(&phone, "input text +16505550142");
    tap_id(&phone, "new_conversation_confirm");
    sh(&phone, "input text 'The code is 4471'");
    tap_id(&phone, "thread_send_message");
    let h = screen(&phone);
    let bubble = by_id(&h, &id("thread_message_body")).bounds;
    long_press(&phone, bubble);
    let h = screen(&phone);
    assert!(
        find(&h, &|n| n.text == "1 / 1").is_some(),
        "one of one selected"
    );
    let copy = by_desc(&h, "Copy to clipboard");
    assert!(copy.clickable);
    tap(&phone, copy.bounds);
    // Read as the emulator's host end holds it: Clipper would need focus to read it.
    assert_eq!(phone.console("clipboard get"), "The code is 4471\r\nOK\r\n");
    // The action mode closed: the thread's own toolbar is back.
    let h = screen(&phone);
    assert!(find(&h, &|n| n.resource_id == id("action_mode_bar")).is_none());
    assert!(find(&h, &|n| n.content_desc == "Dial number").is_some());
    let field = by_id(&h, &id("thread_type_message")).bounds;
    long_press(&phone, field);
    let h = screen(&phone);
    tap(&phone, by_desc(&h, "Paste").bounds);
    assert_eq!(
        by_id(&screen(&phone), &id("thread_type_message")).text,
        "The code is 4471"
    );
    tap_id(&phone, "thread_send_message");
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://sms/sent --projection address:body --sort '_id DESC'"
        ),
        "Row: 0 address=+16505550142, body=The code is 4471\n\
         Row: 1 address=+16505550142, body=The code is 4471\n"
    );
}

#[test]
fn an_sms_intent_opens_the_thread_with_the_text_ready() {
    let phone = empty_messenger();
    sh(
        &phone,
        &format!("am start -a android.intent.action.SENDTO -d sms:+16505550177 --es sms_body 'Ping' -p {SMS}"),
    );
    assert!(top_activity(&phone).contains("activities.ThreadActivity}"));
    let h = screen(&phone);
    assert_eq!(by_id(&h, &id("thread_type_message")).text, "Ping");
    assert!(by_id(&h, &id("thread_send_message")).enabled);
}

/// AndroidWorld's push of playlist.db first empties Retro Music's `databases/` (`rm -r
/// databases/*`), taking the playback service's `music_playback_state.db` with it, and force-stops
/// the app. Nothing brings the file back while the app is stopped; starting the app does, with
/// an empty queue, as MusicService's `restoreState` opens MusicPlaybackQueueStore.
#[test]
fn retro_music_recreates_its_queue_database_when_it_starts() {
    let phone = boot(0);
    let dir = "/data/data/code.name.monkey.retromusic/databases";
    sh(&phone, &format!("rm -r {dir}/*"));
    sh(&phone, "am force-stop code.name.monkey.retromusic");
    sh(
        &phone,
        "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///storage/emulated/0/Music",
    );
    assert_eq!(sh(&phone, &format!("ls {dir}")).trim(), "");
    sh(
        &phone,
        "am start -W -n code.name.monkey.retromusic/.activities.MainActivity",
    );
    let files = sh(&phone, &format!("ls {dir}"));
    assert!(files.contains("music_playback_state.db"), "{files}");
    assert_eq!(
        sh(
            &phone,
            &format!("sqlite3 {dir}/music_playback_state.db 'SELECT count(*) FROM playing_queue'")
        )
        .trim(),
        "0"
    );
}

//! An incoming call as Android 14 shows it: InCallUI's notification. While the phone is in use it
//! is a heads-up over the app in front (Decline, Answer) that stays until the call stops ringing;
//! its body opens the incoming-call screen; with the screen off its full-screen intent brings that
//! screen up instead; with heads-up switched off only the shade lists it. Read back as an adb
//! client would (`uiautomator dump`, `dumpsys notification`, `dumpsys window`). `uiautomator
//! dump` writes the active window only, as the real tool does, so the heads-up itself is read in
//! the crate's own tests (`sim::apps::dialer::tests`); here its buttons are reached through the shade.

use droidmcp::sim::Phone;

use crate::util::{boot, sh, tap_node};

const DIALER: &str = "com.google.android.dialer";

fn dump(phone: &Phone) -> String {
    sh(phone, "uiautomator dump /dev/tty")
}

fn focused(phone: &Phone) -> String {
    sh(phone, "dumpsys window | grep mCurrentFocus")
}

fn call_state(phone: &Phone) -> String {
    let out = sh(phone, "dumpsys telephony.registry");
    out.lines()
        .find_map(|l| l.trim_start().strip_prefix("mCallState="))
        .unwrap_or_else(|| panic!("no mCallState in {out}"))
        .to_string()
}

/// Whether SystemUI's notification window (the heads-up, or the shade) is on screen.
fn notification_window(phone: &Phone) -> bool {
    sh(phone, "dumpsys window windows").contains("NotificationShade")
}

/// The Dialer's records in `dumpsys notification --noredact`, uid and hash left out.
fn dialer_records(phone: &Phone) -> String {
    let out = sh(phone, "dumpsys notification --noredact");
    let mut records = String::new();
    let mut inside = false;
    for line in out.lines() {
        if line.starts_with("    NotificationRecord(") {
            inside = line.contains(&format!("pkg={DIALER} "));
        }
        if inside {
            let line = match line.find(": pkg=") {
                Some(i) if line.starts_with("    NotificationRecord(0x") => {
                    format!("    NotificationRecord({}", &line[i + 2..])
                }
                _ => line.to_string(),
            };
            records.push_str(&line);
            records.push('\n');
        }
    }
    records.replace(&uid(&out), "UID")
}

fn uid(dump: &str) -> String {
    dump.lines()
        .find(|l| l.contains(&format!("key=0|{DIALER}|")))
        .and_then(|l| l.split('|').nth(4))
        .and_then(|l| l.split(':').next())
        .unwrap_or("none")
        .to_string()
}

#[test]
fn a_call_that_rings_while_the_phone_is_in_use_is_a_heads_up_over_the_app() {
    let phone = boot(11);
    sh(&phone, "monkey -p com.android.settings 1");
    assert_eq!(phone.console("gsm call 6505550123"), "OK\r\n");
    assert_eq!(call_state(&phone), "1");
    // Settings stays in front; the call is a window of SystemUI's over it.
    assert!(
        focused(&phone).contains("com.android.settings"),
        "{}",
        focused(&phone)
    );
    assert!(notification_window(&phone));
    assert_eq!(
        dialer_records(&phone),
        "    NotificationRecord(pkg=com.google.android.dialer user=UserHandle{0} id=1 tag=null importance=4 key=0|com.google.android.dialer|1|null|UID: Notification(channel=phone_incoming_call shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x6a color=0x00000000 vis=PRIVATE))\n      uid=UID userId=0\n      extras={\n        android.title=String ((650) 555-0123)\n        android.text=String (Incoming call)\n      }\n"
    );
    // It rings on: no timeout takes it away, and neither a swipe nor "Clear all" in the shade.
    sh(&phone, "sleep 30");
    assert!(notification_window(&phone));
    sh(&phone, "cmd statusbar expand-notifications");
    let shade = dump(&phone);
    for node in [
        "text=\"(650) 555-0123\" resource-id=\"android:id/title\"",
        "text=\"Incoming call\" resource-id=\"android:id/text\"",
        "text=\"Decline\" resource-id=\"android:id/action0\"",
        "text=\"Answer\" resource-id=\"android:id/action0\"",
    ] {
        assert!(shade.contains(node), "{node}: {shade}");
    }
    assert!(
        !shade.contains("com.android.systemui:id/dismiss_text"),
        "{shade}"
    );
    sh(&phone, "input swipe 100 400 1000 400");
    assert!(dialer_records(&phone).contains("channel=phone_incoming_call"));
    sh(&phone, "cmd statusbar collapse");

    // The caller gives up: the heads-up goes, the missed-call notification comes.
    assert_eq!(phone.console("gsm cancel 6505550123"), "OK\r\n");
    assert!(!notification_window(&phone));
    assert_eq!(
        dialer_records(&phone),
        "    NotificationRecord(pkg=com.google.android.dialer user=UserHandle{0} id=1 tag=GroupSummary_MissedCall importance=3 key=0|com.google.android.dialer|1|GroupSummary_MissedCall|UID: Notification(channel=phone_missed_call shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x10 color=0x00000000 vis=PRIVATE))\n      uid=UID userId=0\n      extras={\n        android.title=String (Missed call)\n        android.text=String ((650) 555-0123)\n      }\n"
    );
    assert!(focused(&phone).contains("com.android.settings"));
}

#[test]
fn answer_in_the_shade_answers_and_shows_the_in_call_screen() {
    let phone = boot(12);
    sh(&phone, "input keyevent KEYCODE_HOME");
    assert_eq!(phone.console("gsm call 4155550142"), "OK\r\n");
    sh(&phone, "input keyevent KEYCODE_NOTIFICATION");
    tap_node(&phone, "text=\"Answer\" resource-id=\"android:id/action0\"");
    assert_eq!(call_state(&phone), "2");
    // The shade closes over the in-call screen the answer brought up.
    assert!(
        focused(&phone).contains(&format!("{DIALER}/com.android.incallui.InCallActivity")),
        "{}",
        focused(&phone)
    );
    let screen = dump(&phone);
    assert!(
        screen.contains("com.android.dialer:id/incall_end_call"),
        "{screen}"
    );
    assert!(!notification_window(&phone));
    assert_eq!(dialer_records(&phone), "");
    sh(&phone, "sleep 12");
    tap_node(
        &phone,
        "resource-id=\"com.android.dialer:id/incall_end_call\"",
    );
    assert_eq!(call_state(&phone), "0");
    let calls = sh(
        &phone,
        "content query --uri content://call_log/calls --projection number:type:duration",
    );
    assert!(
        calls.contains("number=4155550142, type=1, duration=12"),
        "{calls}"
    );
    // The in-call screen finishes and the home screen it rang over is back.
    assert!(
        focused(&phone).contains("com.google.android.apps.nexuslauncher"),
        "{}",
        focused(&phone)
    );
}

#[test]
fn decline_in_the_shade_rejects_the_call_where_it_rang() {
    let phone = boot(13);
    sh(&phone, "monkey -p com.google.android.deskclock 1");
    assert_eq!(phone.console("gsm call 2125550100"), "OK\r\n");
    sh(&phone, "cmd statusbar expand-notifications");
    tap_node(
        &phone,
        "text=\"Decline\" resource-id=\"android:id/action0\"",
    );
    assert_eq!(call_state(&phone), "0");
    sh(&phone, "cmd statusbar collapse");
    assert!(!notification_window(&phone));
    assert!(focused(&phone).contains("com.google.android.deskclock"));
    let calls = sh(
        &phone,
        "content query --uri content://call_log/calls --projection number:type:duration",
    );
    assert!(
        calls.contains("number=2125550100, type=5, duration=0"),
        "{calls}"
    );
    // A declined call leaves no notification.
    assert_eq!(dialer_records(&phone), "");
}

#[test]
fn a_call_on_a_screen_that_is_off_brings_up_the_incoming_screen() {
    let phone = boot(15);
    sh(&phone, "input keyevent KEYCODE_SLEEP");
    assert!(sh(&phone, "dumpsys power").contains("mWakefulness=Asleep"));
    assert_eq!(phone.console("gsm call 6505550188"), "OK\r\n");
    // The full-screen intent starts InCallActivity, which turns the screen on.
    assert!(sh(&phone, "dumpsys power").contains("mWakefulness=Awake"));
    assert!(focused(&phone).contains("com.android.incallui.InCallActivity"));
    assert!(dump(&phone).contains("com.android.dialer:id/two_button_answer_button"));
    assert!(!notification_window(&phone));
    assert!(sh(&phone, "logcat -d -s PowerManagerService:I").contains("INCOMING_CALL"));
    // Power puts it to sleep while it rings; Power again shows the incoming screen still.
    sh(&phone, "input keyevent KEYCODE_POWER");
    assert!(sh(&phone, "dumpsys power").contains("mWakefulness=Asleep"));
    sh(&phone, "input keyevent KEYCODE_POWER");
    assert!(focused(&phone).contains("com.android.incallui.InCallActivity"));
    assert!(dump(&phone).contains("com.android.dialer:id/two_button_answer_button"));
    // With its own screen up, InCallUI posts the call quietly on the ongoing-call channel.
    assert!(dialer_records(&phone).contains(
        "id=1 tag=null importance=3 key=0|com.google.android.dialer|1|null|UID: Notification(channel=phone_ongoing_call "
    ));
    assert_eq!(phone.console("gsm cancel 6505550188"), "OK\r\n");
    assert!(!focused(&phone).contains("InCallActivity"));
}

#[test]
fn with_heads_up_switched_off_a_call_on_a_phone_in_use_is_only_in_the_shade() {
    let phone = boot(16);
    assert_eq!(
        sh(&phone, "settings get global heads_up_notifications_enabled"),
        "1\n"
    );
    // AndroidWorld's SMS tasks switch heads-up off this way.
    sh(
        &phone,
        "settings put global heads_up_notifications_enabled 0",
    );
    sh(&phone, "input keyevent KEYCODE_HOME");
    assert_eq!(phone.console("gsm call 6505550199"), "OK\r\n");
    assert_eq!(call_state(&phone), "1");
    // Android 14 SystemUI: NO_FSI_NO_HUN_OR_KEYGUARD, neither heads-up nor full-screen.
    assert!(!notification_window(&phone));
    assert!(
        focused(&phone).contains("com.google.android.apps.nexuslauncher"),
        "{}",
        focused(&phone)
    );
    // The notification's body in the shade opens the incoming screen.
    sh(&phone, "cmd statusbar expand-notifications");
    tap_node(&phone, "text=\"Incoming call\"");
    assert!(focused(&phone).contains("com.android.incallui.InCallActivity"));
    assert!(dump(&phone).contains("com.android.dialer:id/two_button_decline_button"));
    assert!(dialer_records(&phone).contains("channel=phone_ongoing_call"));
}

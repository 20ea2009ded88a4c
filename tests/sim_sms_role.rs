//! The default SMS app is the SMS role (Android 10+): `cmd role` as RoleShellCommand prints it,
//! `settings put secure sms_default_application` alone moves nothing, Simple SMS Messenger asks for
//! the role through PermissionController's dialog, and texts go to the holder, which posts and
//! clears the notification. Driven through the shell and the emulator console, as AndroidWorld
//! drives an AVD.

use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const ROLE: &str = "android.app.role.SMS";
const SMS_APP: &str = "com.simplemobiletools.smsmessenger";
const MESSAGES: &str = "com.google.android.apps.messaging";
const MAIN: &str = "com.simplemobiletools.smsmessenger/.activities.MainActivity";
const PC: &str = "com.google.android.permissioncontroller";
const FAILED: &str = "Error: see logcat for details.\njava.util.concurrent.ExecutionException: java.lang.RuntimeException: Failed\n";

fn holders(phone: &Phone) -> String {
    sh(phone, &format!("cmd role get-role-holders {ROLE}"))
}

/// `cmd role add-role-holder` for Simple SMS Messenger, as AndroidWorld's setup ends up.
fn make_simple_sms_default(phone: &Phone) {
    sh(phone, &format!("cmd role add-role-holder {ROLE} {SMS_APP}"));
}

fn top_activity(phone: &Phone) -> String {
    sh(phone, "am stack list | grep visible=true")
}

fn logcat(phone: &Phone) -> String {
    sh(phone, "logcat -d")
}

#[test]
fn cmd_role_prints_holders_and_errors_as_role_shell_command_does() {
    let phone = boot(0);
    assert_eq!(holders(&phone), format!("{MESSAGES}\n"));
    assert_eq!(
        sh(
            &phone,
            "cmd role get-role-holders --user 0 android.app.role.BROWSER"
        ),
        "com.android.chrome\n"
    );
    assert_eq!(
        sh(&phone, "cmd role get-role-holders android.app.role.NOPE"),
        "\n"
    );

    let help = phone.exec("cmd role");
    assert_eq!(help.exit_code, 255);
    assert_eq!(
        help.stdout_text(),
        "Role (role) commands:\n  help or -h\n    Print this help text.\n\n  get-role-holders [--user USER_ID] ROLE\n  add-role-holder [--user USER_ID] ROLE PACKAGE [FLAGS]\n  remove-role-holder [--user USER_ID] ROLE PACKAGE [FLAGS]\n  clear-role-holders [--user USER_ID] ROLE [FLAGS]\n  set-bypassing-role-qualification true|false\n\n"
    );
    let unknown = phone.exec("cmd role list-roles");
    assert_eq!(
        (unknown.exit_code, unknown.stdout_text()),
        (255, "Unknown command: list-roles\n".to_string())
    );
    let missing = phone.exec("cmd role add-role-holder android.app.role.SMS");
    assert_eq!(missing.exit_code, 255);
    assert_eq!(
        missing.stderr_text(),
        "\nException occurred while executing 'add-role-holder':\njava.lang.IllegalArgumentException: Argument expected after \"android.app.role.SMS\"\n"
    );

    // The controller refuses; the shell says only "Failed", logcat says why.
    for (line, why) in [
        (
            "cmd role add-role-holder android.app.role.SMS com.android.chrome",
            "Package does not qualify for the role, package: com.android.chrome, role: android.app.role.SMS",
        ),
        (
            "cmd role add-role-holder android.app.role.NOPE com.android.chrome",
            "Unknown role: android.app.role.NOPE",
        ),
        (
            "cmd role add-role-holder android.app.role.SMS com.simplemobiletools.smsmessenger 2",
            "flags is invalid, flags: 0x2",
        ),
    ] {
        let out = phone.exec(line);
        assert_eq!((out.exit_code, out.stdout_text()), (255, String::new()), "{line}");
        assert_eq!(out.stderr_text(), FAILED, "{line}");
        assert!(logcat(&phone).contains(&format!(" E RoleControllerServiceImpl: {why}\n")), "{line}");
    }
    assert_eq!(holders(&phone), format!("{MESSAGES}\n"));

    let add = phone.exec(&format!("cmd role add-role-holder {ROLE} {SMS_APP}"));
    assert_eq!(
        (add.exit_code, add.stdout_text(), add.stderr_text()),
        (0, String::new(), String::new())
    );
    assert_eq!(holders(&phone), format!("{SMS_APP}\n"));

    // Removing the holder leaves the role to its fallback, the default holder.
    sh(
        &phone,
        &format!("cmd role remove-role-holder {ROLE} {SMS_APP}"),
    );
    assert_eq!(holders(&phone), format!("{MESSAGES}\n"));
    assert!(logcat(&phone).contains(
        " I RoleControllerServiceImpl: Adding package as fallback role holder, package: com.google.android.apps.messaging, role: android.app.role.SMS\n"
    ));
    make_simple_sms_default(&phone);
    sh(&phone, &format!("cmd role clear-role-holders {ROLE}"));
    assert_eq!(holders(&phone), format!("{MESSAGES}\n"));

    // Another user: none exists, so holders are empty and a change never answers.
    assert_eq!(
        sh(
            &phone,
            &format!("cmd role get-role-holders --user 10 {ROLE}")
        ),
        "\n"
    );
    let other = phone.exec(&format!(
        "cmd role add-role-holder --user 10 {ROLE} {SMS_APP}"
    ));
    assert_eq!(
        (other.exit_code, other.stderr_text()),
        (
            255,
            "Error: see logcat for details.\njava.util.concurrent.TimeoutException\n".to_string()
        )
    );
}

#[test]
fn the_setting_alone_moves_nothing_and_texts_go_to_the_holder() {
    let phone = boot(1);
    // AndroidWorld's `set_default_app`: the setting changes, the role (and delivery) does not.
    sh(
        &phone,
        &format!("settings put secure sms_default_application {SMS_APP}"),
    );
    assert_eq!(
        sh(&phone, "settings get secure sms_default_application"),
        format!("{SMS_APP}\n")
    );
    assert_eq!(holders(&phone), format!("{MESSAGES}\n"));
    assert_eq!(phone.console("sms send 6505550142 First"), "OK\r\n");
    let log = logcat(&phone);
    assert!(
        log.contains(" D GsmInboundSmsHandler: Delivering SMS to: com.google.android.apps.messaging com.google.android.apps.messaging.shared.receiver.SmsDeliverReceiver\n"),
        "{log}"
    );
    let n = sh(&phone, "dumpsys notification --noredact");
    assert!(n.contains("pkg=com.google.android.apps.messaging "), "{n}");

    make_simple_sms_default(&phone);
    sh(&phone, &format!("am force-stop {MESSAGES}"));
    assert_eq!(phone.console("sms send 6505550143 Second"), "OK\r\n");
    assert!(logcat(&phone).contains(
        " D GsmInboundSmsHandler: Delivering SMS to: com.simplemobiletools.smsmessenger com.simplemobiletools.smsmessenger.receivers.SmsReceiver\n"
    ));
    let n = sh(&phone, "dumpsys notification --noredact");
    let thread = sh(
        &phone,
        "content query --uri content://sms/inbox --projection thread_id --where \"address='6505550143'\"",
    );
    let thread = thread
        .trim()
        .rsplit('=')
        .next()
        .unwrap_or_default()
        .to_string();
    // The app's uid, as the package manager gave it at install.
    let uid = sh(
        &phone,
        "pm list packages -U com.simplemobiletools.smsmessenger",
    );
    let uid = uid
        .trim()
        .rsplit("uid:")
        .next()
        .unwrap_or_default()
        .to_string();
    let record = format!(
        " pkg=com.simplemobiletools.smsmessenger user=UserHandle{{0}} id={thread} tag=null importance=3 key=0|com.simplemobiletools.smsmessenger|{thread}|null|{uid}: Notification(channel=simple_sms_messenger shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x10 color=0x00000000 vis=PRIVATE))\n      uid={uid} userId=0\n      extras={{\n        android.title=String (6505550143)\n        android.text=String (Second)\n      }}\n"
    );
    assert!(n.contains(&record), "{n}");
    assert!(!n.contains("pkg=com.google.android.apps.messaging "), "{n}");

    // Its "Mark as Read" button marks the thread read and clears the notification.
    sh(&phone, "cmd statusbar expand-notifications");
    let shade = screen(&phone);
    let button = find(&shade, &|n| n.text == "Mark as Read").expect("Mark as Read in the shade");
    tap(&phone, button.bounds);
    assert!(!sh(&phone, "dumpsys notification").contains(SMS_APP));
    let read = sh(
        &phone,
        "content query --uri content://sms/inbox --projection read --where \"address='6505550143'\"",
    );
    assert_eq!(read, "Row: 0 read=1\n");
}

#[test]
fn opening_the_thread_in_simple_sms_clears_its_notification() {
    let phone = boot(2);
    make_simple_sms_default(&phone);
    assert_eq!(phone.console("sms send 6505550144 Open me"), "OK\r\n");
    sh(&phone, &format!("am start -n {MAIN}"));
    let list = screen(&phone);
    let row = find(&list, &|n| n.text == "Open me").expect("the conversation row");
    tap(&phone, row.bounds);
    assert!(top_activity(&phone).contains("activities.ThreadActivity"));
    assert!(!sh(&phone, "dumpsys notification").contains(SMS_APP));

    // The notification's own tap opens the thread too (ThreadActivity with thread_id).
    sh(&phone, &format!("am force-stop {SMS_APP}"));
    assert_eq!(phone.console("sms send 6505550145 Tap me"), "OK\r\n");
    sh(&phone, "cmd statusbar expand-notifications");
    let shade = screen(&phone);
    let body = find(&shade, &|n| n.text == "Tap me").expect("the notification in the shade");
    tap(&phone, body.bounds);
    assert!(top_activity(&phone).contains("activities.ThreadActivity"));
    assert!(screen(&phone).nodes.iter().any(|n| n.text == "Tap me"));
    assert!(!sh(&phone, "dumpsys notification").contains(SMS_APP));
}

/// The role request dialog as Simple SMS Messenger's MainActivity starts it.
fn dialog(phone: &Phone) -> droidmcp::hierarchy::Hierarchy {
    sh(phone, &format!("am start -n {MAIN}"));
    assert!(
        top_activity(phone).contains(&format!(
            "topActivity=ComponentInfo{{{PC}/com.android.permissioncontroller.role.ui.RequestRoleActivity}}"
        )),
        "{}",
        top_activity(phone)
    );
    screen(phone)
}

#[test]
fn simple_sms_asks_for_the_role_and_set_as_default_makes_it_the_holder() {
    let phone = boot(3);
    let h = dialog(&phone);
    assert!(
        sh(&phone, "dumpsys window | grep mCurrentFocus").contains(&format!(
            "u0 {PC}/com.android.permissioncontroller.role.ui.RequestRoleActivity}}"
        ))
    );
    assert_eq!(
        by_id(&h, &format!("{PC}:id/title")).text,
        "Set SMS Messenger as your default SMS app?"
    );
    let rows: Vec<(String, bool)> = h
        .nodes
        .iter()
        .filter(|n| n.class == "android.widget.RadioButton")
        .map(|n| (n.package.clone(), n.checked))
        .collect();
    assert_eq!(rows, vec![(PC.to_string(), true), (PC.to_string(), false)]);
    let titles: Vec<&str> = h
        .nodes
        .iter()
        .filter(|n| n.resource_id == format!("{PC}:id/title"))
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(
        titles,
        [
            "Set SMS Messenger as your default SMS app?",
            "Messages",
            "SMS Messenger"
        ]
    );
    assert_eq!(
        by_id(&h, &format!("{PC}:id/subtitle")).text,
        "Current default"
    );
    let set = by_id(&h, "android:id/button1");
    assert_eq!((set.text.as_str(), set.enabled), ("Set as default", false));
    assert_eq!(by_id(&h, "android:id/button2").text, "Cancel");

    // AndroidWorld's setup: "SMS Messenger", then "Set as default".
    let row = find(&h, &|n| n.text == "SMS Messenger").expect("the row");
    tap(&phone, row.bounds);
    let h = screen(&phone);
    let subtitles: Vec<&str> = h
        .nodes
        .iter()
        .filter(|n| n.resource_id == format!("{PC}:id/subtitle"))
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(
        subtitles,
        [
            "Current default",
            "This app will be given access to your Camera, Contacts, Files and media, Microphone, Phone, and SMS"
        ]
    );
    let set = by_id(&h, "android:id/button1");
    assert!(set.enabled);
    tap(&phone, set.bounds);
    assert_eq!(holders(&phone), format!("{SMS_APP}\n"));
    assert!(top_activity(&phone).contains(&format!(
        "topActivity=ComponentInfo{{{SMS_APP}/{SMS_APP}.activities.MainActivity}}"
    )));
    assert!(logcat(&phone).contains(
        " I RequestRoleFragment: Application added as a role holder, role: android.app.role.SMS, package: com.simplemobiletools.smsmessenger\n"
    ));
    // Held now, so the next start asks nothing.
    sh(&phone, &format!("am force-stop {SMS_APP}"));
    sh(&phone, &format!("am start -n {MAIN}"));
    assert!(
        top_activity(&phone).contains(&format!("{SMS_APP}/{SMS_APP}.activities.MainActivity}}"))
    );
}

#[test]
fn cancel_or_back_finishes_the_app_and_the_next_request_offers_dont_ask_again() {
    let phone = boot(4);
    let h = dialog(&phone);
    assert!(find(&h, &|n| n.resource_id == format!("{PC}:id/dont_ask_again")).is_none());
    tap(&phone, by_id(&h, "android:id/button2").bounds);
    assert!(
        top_activity(&phone).contains("nexuslauncher"),
        "{}",
        top_activity(&phone)
    );
    assert_eq!(holders(&phone), format!("{MESSAGES}\n"));
    assert!(logcat(&phone).contains(
        " I RequestRoleFragment: Dialog cancelled, role: android.app.role.SMS, package: com.simplemobiletools.smsmessenger\n"
    ));

    let h = dialog(&phone);
    let check = by_id(&h, &format!("{PC}:id/dont_ask_again"));
    assert_eq!(
        (check.text.as_str(), check.checked),
        ("Don\u{2019}t ask again", false)
    );
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert!(top_activity(&phone).contains("nexuslauncher"));

    // "Don't ask again" then "Set as default": later starts end at once.
    let h = dialog(&phone);
    tap(&phone, by_id(&h, &format!("{PC}:id/dont_ask_again")).bounds);
    tap(&phone, by_id(&screen(&phone), "android:id/button1").bounds);
    assert_eq!(holders(&phone), format!("{MESSAGES}\n"));
    sh(&phone, &format!("am start -n {MAIN}"));
    assert!(
        !top_activity(&phone).contains(SMS_APP),
        "{}",
        top_activity(&phone)
    );
}

#[test]
fn a_thread_read_in_simple_sms_stays_unread_while_it_is_not_the_default() {
    let phone = boot(6);
    assert_eq!(phone.console("sms send 6505550147 Still unread"), "OK\r\n");
    sh(
        &phone,
        &format!("am start -a android.intent.action.SENDTO -d sms:6505550147 -p {SMS_APP}"),
    );
    assert!(top_activity(&phone).contains("activities.ThreadActivity"));
    let read = "content query --uri content://sms/inbox --projection read --where \"address='6505550147'\"";
    assert_eq!(sh(&phone, read), "Row: 0 read=0\n");
    sh(&phone, &format!("am force-stop {SMS_APP}"));
    make_simple_sms_default(&phone);
    sh(
        &phone,
        &format!("am start -a android.intent.action.SENDTO -d sms:6505550147 -p {SMS_APP}"),
    );
    assert_eq!(sh(&phone, read), "Row: 0 read=1\n");
}

#[test]
fn the_role_survives_a_snapshot_and_sendto_follows_it() {
    let phone = boot(5);
    assert_eq!(phone.console("avd snapshot save before"), "OK\r\n");
    make_simple_sms_default(&phone);
    assert_eq!(phone.console("avd snapshot save held"), "OK\r\n");
    assert_eq!(phone.console("avd snapshot load before"), "OK\r\n");
    assert_eq!(holders(&phone), format!("{MESSAGES}\n"));
    assert_eq!(phone.console("avd snapshot load held"), "OK\r\n");
    assert_eq!(holders(&phone), format!("{SMS_APP}\n"));
    // The holder is SENDTO's preferred activity for sms: addresses.
    sh(
        &phone,
        "am start -a android.intent.action.SENDTO -d sms:6505550146",
    );
    assert!(top_activity(&phone).contains(&format!("{SMS_APP}.activities.ThreadActivity")));
}

#[test]
fn the_dialers_message_buttons_open_the_default_sms_app() {
    let phone = boot(6);
    make_simple_sms_default(&phone);
    // The missed-call notification's "Message" sends SENDTO, which the holder takes.
    assert_eq!(phone.console("gsm call 4155550177"), "OK\r\n");
    assert_eq!(phone.console("gsm cancel 4155550177"), "OK\r\n");
    sh(&phone, "cmd statusbar expand-notifications");
    let h = screen(&phone);
    let message = find(&h, &|n| n.text == "Message").expect("the missed call's Message button");
    tap(&phone, message.bounds);
    let top = top_activity(&phone);
    assert!(
        top.contains(&format!("{SMS_APP}.activities.ThreadActivity")),
        "{top}"
    );
    assert!(!top.contains(MESSAGES), "{top}");
}

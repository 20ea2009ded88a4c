//! Calls and texts that arrive on the embedded phone: the emulator console (`gsm call`,
//! `gsm cancel`, `sms send`) rings and texts it, the Dialer answers and declines, and the result
//! is read back only as an adb client would (`dumpsys telephony.registry`, `content query`,
//! `dumpsys activity`, `uiautomator dump`).

use droidmcp::sim::Phone;

use crate::util::{boot, sh};

fn dump(phone: &Phone) -> String {
    sh(phone, "uiautomator dump /dev/tty")
}

fn tap_id(phone: &Phone, id: &str) {
    let xml = dump(phone);
    let needle = format!("resource-id=\"{id}\"");
    let start = xml
        .find(&needle)
        .unwrap_or_else(|| panic!("no {id} on screen: {xml}"));
    let node = &xml[xml[..start].rfind("<node ").expect("inside a node")..];
    let b = node.find("bounds=\"").expect("bounds") + 8;
    let end = node[b..].find('"').expect("bounds end");
    let bounds = droidmcp::geom::Bounds::parse(&node[b..b + end]).expect("bounds parse");
    let c = bounds.center();
    sh(phone, &format!("input tap {} {}", c.x, c.y));
}

fn call_state(phone: &Phone) -> String {
    let out = sh(phone, "dumpsys telephony.registry");
    let line = |key: &str| {
        out.lines()
            .find_map(|l| l.trim_start().strip_prefix(key))
            .unwrap_or_else(|| panic!("no {key} in {out}"))
            .to_string()
    };
    format!("{}:{}", line("mCallState="), line("mCallIncomingNumber="))
}

fn focused(phone: &Phone) -> String {
    sh(phone, "dumpsys window | grep mCurrentFocus")
}

fn calls(phone: &Phone) -> String {
    sh(
        phone,
        "content query --uri content://call_log/calls --projection number:type:duration:new",
    )
}

#[test]
fn an_incoming_call_rings_over_another_app_and_answering_it_goes_off_hook() {
    let phone = boot(3);
    sh(&phone, "monkey -p com.android.settings 1");
    assert_eq!(call_state(&phone), "0:");
    assert_eq!(phone.console("gsm call 6505550123"), "OK\r\n");
    assert_eq!(call_state(&phone), "1:6505550123");
    // InCallUI's heads-up over Settings; the notification's body opens the incoming screen.
    assert!(focused(&phone).contains("com.android.settings"));
    sh(&phone, "cmd statusbar expand-notifications");
    tap_id(&phone, "android:id/title");
    assert!(focused(&phone).contains("com.android.incallui.InCallActivity"));
    let screen = dump(&phone);
    assert!(screen.contains("com.android.dialer:id/two_button_answer_button"));
    assert!(screen.contains("text=\"Incoming call\""));
    assert!(screen.contains("text=\"(650) 555-0123\""), "{screen}");
    assert_eq!(
        phone.console("gsm list"),
        "inbound from 6505550123 : incoming\r\nOK\r\n"
    );

    tap_id(&phone, "com.android.dialer:id/two_button_answer_button");
    assert_eq!(call_state(&phone), "2:6505550123");
    assert!(dump(&phone).contains("com.android.dialer:id/incall_end_call"));
    assert_eq!(
        phone.console("gsm list"),
        "inbound from 6505550123 : active\r\nOK\r\n"
    );
    sh(&phone, "sleep 42");
    tap_id(&phone, "com.android.dialer:id/incall_end_call");
    assert_eq!(call_state(&phone), "0:6505550123");
    // The in-call screen finishes and Settings, which it rang over, is back.
    assert!(
        focused(&phone).contains("com.android.settings"),
        "{}",
        focused(&phone)
    );
    let rows = calls(&phone);
    assert!(
        rows.contains("number=6505550123, type=1, duration=42, new=0"),
        "{rows}"
    );
}

#[test]
fn a_call_the_caller_gives_up_on_is_missed_with_a_notification_and_a_declined_one_is_rejected() {
    let phone = boot(4);
    assert_eq!(phone.console("gsm call 4155550199"), "OK\r\n");
    sh(&phone, "sleep 5");
    assert_eq!(phone.console("gsm cancel 4155550199"), "OK\r\n");
    assert_eq!(call_state(&phone), "0:4155550199");
    assert!(!focused(&phone).contains("InCallActivity"));
    let rows = calls(&phone);
    assert!(
        rows.contains("number=4155550199, type=3, duration=0, new=1"),
        "{rows}"
    );
    let notifications = sh(&phone, "dumpsys notification --noredact");
    assert!(
        notifications.contains("com.google.android.dialer"),
        "{notifications}"
    );

    // Declined on the incoming screen, which the screen being off brought up.
    sh(&phone, "input keyevent KEYCODE_SLEEP");
    assert_eq!(phone.console("gsm call 2125550100"), "OK\r\n");
    tap_id(&phone, "com.android.dialer:id/two_button_decline_button");
    assert_eq!(call_state(&phone), "0:2125550100");
    assert!(calls(&phone).contains("number=2125550100, type=5, duration=0"));
    // KEYCODE_ENDCALL declines a ringing call too, as AndroidWorld ends one.
    assert_eq!(phone.console("gsm call 2125550101"), "OK\r\n");
    sh(&phone, "input keyevent KEYCODE_ENDCALL");
    assert_eq!(call_state(&phone), "0:2125550101");
    assert!(calls(&phone).contains("number=2125550101, type=5"));
    // Recents shows the declined call as the Dialer shows a call type it has no icon for: missed.
    sh(&phone, "monkey -p com.google.android.dialer 1");
    let recents = dump(&phone);
    assert!(
        recents.contains("content-desc=\"Call (212) 555-0101, Missed call, "),
        "{recents}"
    );
}

#[test]
fn the_console_answers_as_the_emulator_console_does() {
    let phone = boot(5);
    assert_eq!(
        phone.console("gsm call"),
        "KO: missing argument, try 'gsm call <phonenumber>'\r\n"
    );
    assert_eq!(
        phone.console("gsm call 555-1234"),
        "KO: bad phone number format, use digits, # and + only\r\n"
    );
    assert_eq!(
        phone.console("gsm cancel 5551234"),
        "KO: could not cancel this number\r\n"
    );
    assert_eq!(
        phone.console("sms send 5551234"),
        "KO: missing argument, try 'sms send <phonenumber> <text message>'\r\n"
    );
    assert_eq!(
        phone.console("sms send abc hello"),
        "KO: bad phone number format, must be [+](0-9)*\r\n"
    );
    assert_eq!(
        phone.console("frobnicate"),
        "KO: unknown command, try 'help'\r\n"
    );
    assert_eq!(phone.console("gsm list"), "OK\r\n");
    // `gsm accept` answers a ringing call from the network's side.
    assert_eq!(phone.console("gsm call +16505550111"), "OK\r\n");
    assert_eq!(phone.console("gsm accept +16505550111"), "OK\r\n");
    assert_eq!(call_state(&phone), "2:+16505550111");
    assert_eq!(phone.console("gsm cancel +16505550111"), "OK\r\n");
    assert!(calls(&phone).contains("number=+16505550111, type=1"));
}

#[test]
fn a_text_that_arrives_is_unread_in_the_inbox_first_in_messages_and_notified() {
    let phone = boot(6);
    assert_eq!(
        phone.console("sms send 6505550142 Meet at 6 St, Dover\\nthanks"),
        "OK\r\n"
    );
    let inbox = sh(
        &phone,
        "content query --uri content://sms/inbox --projection address:body:type:read --sort 'date DESC'",
    );
    let first = inbox.lines().next().unwrap_or("");
    assert_eq!(
        first, "Row: 0 address=6505550142, body=Meet at 6 St, Dover",
        "{inbox}"
    );
    assert!(inbox.contains("thanks, type=1, read=0"), "{inbox}");
    let notifications = sh(&phone, "dumpsys notification --noredact");
    assert!(
        notifications.contains("com.google.android.apps.messaging"),
        "{notifications}"
    );
    sh(&phone, "monkey -p com.google.android.apps.messaging 1");
    let list = dump(&phone);
    let first_row = &list[list
        .find("resource-id=\"com.google.android.apps.messaging:id/swipeableContainer\"")
        .expect("a conversation row")..];
    let desc = first_row
        .split("content-desc=\"")
        .nth(1)
        .and_then(|d| d.split('"').next())
        .unwrap_or_default();
    assert!(
        desc.starts_with("(650) 555-0142, Unread, Meet at 6 St, Dover"),
        "the new conversation is listed first, unread: {desc}"
    );
}

#[test]
fn apps_pass_intents_through_the_framework_not_the_filesystem() {
    let phone = boot(7);
    sh(
        &phone,
        "am start -a android.intent.action.CALL -d tel:2025550143",
    );
    assert_eq!(call_state(&phone), "2:2025550143");
    assert!(focused(&phone).contains("InCallActivity"));
    sh(&phone, "input keyevent KEYCODE_ENDCALL");
    assert!(calls(&phone).contains("number=2025550143, type=2"));
    sh(
        &phone,
        "am start -a android.intent.action.SENDTO -d smsto:2025550143",
    );
    assert!(
        focused(&phone).contains("ConversationActivity"),
        "{}",
        focused(&phone)
    );
    let files = sh(&phone, "ls -R /data");
    assert!(!files.contains("sim_intents"), "{files}");
    assert!(!files.contains("sim_telecom"), "{files}");
}

#[test]
fn the_incoming_call_and_the_missed_call_notification_speak_the_phone_language() {
    // Environment 104 is a French (Canada) phone.
    let env = droidmcp::env::Environment::resolve("104").expect("env 104");
    let phone = Phone::new(env.sim_config(0, droidmcp::sim::ClockMode::Virtual)).expect("boots");
    assert_eq!(phone.console("gsm call 4155550199"), "OK\r\n");
    // The notification in the Dialer's words (InCallUI's French strings).
    sh(&phone, "cmd statusbar expand-notifications");
    let notification = dump(&phone);
    for text in ["Appel entrant", "Refuser", "Répondre"] {
        assert!(
            notification.contains(&format!("\"{text}\"")),
            "{text}: {notification}"
        );
    }
    tap_id(&phone, "android:id/title");
    let screen = dump(&phone);
    for text in [
        "Appel entrant",
        "Répondre",
        "Refuser",
        "Appuyez pour répondre ou refuser",
    ] {
        assert!(screen.contains(&format!("\"{text}\"")), "{text}: {screen}");
    }
    assert!(!screen.contains("\"Answer\""), "{screen}");
    assert_eq!(phone.console("gsm cancel 4155550199"), "OK\r\n");
    sh(&phone, "cmd statusbar expand-notifications");
    let shade = dump(&phone);
    for text in ["Appel manqué", "Rappeler", "Message"] {
        assert!(shade.contains(&format!("\"{text}\"")), "{text}: {shade}");
    }
    assert!(!shade.contains("Missed call"), "{shade}");
}

#[test]
fn messages_calls_a_texter_back_on_the_number_the_text_came_from() {
    // AndroidWorld's PhoneCallTextSender: `sms send 5558742547 …`, then the agent calls from the
    // conversation. Bugle dials the sender's address as delivered, not its E.164 form, so the
    // in-call screen shows the ten digits AndroidWorld compares.
    let phone = boot(8);
    assert_eq!(
        phone.console("sms send 5558742547 Hey give me a call"),
        "OK\r\n"
    );
    sh(&phone, "monkey -p com.google.android.apps.messaging 1");
    let list = dump(&phone);
    assert!(list.contains("text=\"(555) 874-2547\""), "{list}");
    tap_id(
        &phone,
        "com.google.android.apps.messaging:id/swipeableContainer",
    );
    // Bugle names a number of the phone's own country nationally in the conversation too.
    let conversation = dump(&phone);
    assert!(
        conversation.contains("text=\"(555) 874-2547\""),
        "{conversation}"
    );
    tap_id(&phone, "com.google.android.apps.messaging:id/action_call");
    assert_eq!(call_state(&phone), "2:5558742547");
    let screen = dump(&phone);
    assert!(
        screen.contains(
            "text=\"(555) 874-2547\" resource-id=\"com.android.dialer:id/contactgrid_contact_name\""
        ),
        "{screen}"
    );
    sh(&phone, "input keyevent KEYCODE_ENDCALL");
    assert!(calls(&phone).contains("number=5558742547, type=2"));
}

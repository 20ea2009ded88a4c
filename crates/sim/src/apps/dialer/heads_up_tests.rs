//! The incoming call's heads-up as SystemUI draws it, read from the phone's windows (what the
//! accessibility forwarder sends; `uiautomator dump` writes the active window only, which the
//! heads-up never is) and tapped where it shows.

use crate::framework::Framework;
use crate::phone::SimConfig;
use crate::screen::WindowKind;
use crate::view::View;
use crate::{console, dump, shell};

fn phone(seed: u64) -> (Framework, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = SimConfig {
        seed,
        ..SimConfig::default()
    };
    let fw = Framework::boot(config, dir.path().to_path_buf(), "sim-0".into());
    (fw, dir)
}

fn sh(fw: &mut Framework, line: &str) -> String {
    let out = shell::exec(fw, line);
    assert!(out.success(), "{line}: {}", out.stderr_text());
    out.stdout_text()
}

fn heads_up(fw: &mut Framework) -> Option<View> {
    fw.windows()
        .into_iter()
        .find(|w| w.kind == WindowKind::HeadsUp)
        .map(|w| w.root)
}

/// Taps the heads-up's view with this resource id and text.
fn tap(fw: &mut Framework, id: &str, text: &str) {
    fn find<'a>(v: &'a View, id: &str, text: &str) -> Option<&'a View> {
        if v.resource_id == id && v.text == text {
            return Some(v);
        }
        v.children.iter().find_map(|c| find(c, id, text))
    }
    let root = heads_up(fw).expect("a heads-up");
    let at = find(&root, id, text)
        .unwrap_or_else(|| panic!("no {id} {text:?} in the heads-up"))
        .bounds
        .center();
    fw.tap(at);
}

fn focus(fw: &mut Framework) -> String {
    sh(fw, "dumpsys window | grep mCurrentFocus")
}

fn call_state(fw: &mut Framework) -> String {
    let out = sh(fw, "dumpsys telephony.registry");
    out.lines()
        .find_map(|l| l.trim_start().strip_prefix("mCallState="))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_heads_up_names_the_caller_with_decline_and_answer() {
    let (mut fw, _dir) = phone(21);
    sh(&mut fw, "monkey -p com.android.settings 1");
    assert_eq!(console::run(&mut fw, "gsm call 6505550123"), "OK\r\n");
    let card = heads_up(&mut fw).expect("a heads-up");
    let xml = dump::to_xml(&card, 0, false);
    let nodes: Vec<String> = xml
        .split("<node ")
        .skip(1)
        .map(|n| {
            let n = &n[..n.find(" bounds=").unwrap_or(n.len())];
            n.split(" checkable=").next().unwrap_or(n).to_string()
                + if n.contains("clickable=\"true\"") {
                    " clickable"
                } else {
                    ""
                }
        })
        .collect();
    assert_eq!(
        nodes,
        [
            "index=\"0\" text=\"\" resource-id=\"com.android.systemui:id/heads_up_status_bar_view\" class=\"android.widget.FrameLayout\" package=\"com.android.systemui\" content-desc=\"\"",
            "index=\"0\" text=\"\" resource-id=\"com.android.systemui:id/expanded\" class=\"android.widget.FrameLayout\" package=\"com.android.systemui\" content-desc=\"\" clickable",
            "index=\"0\" text=\"Phone\" resource-id=\"android:id/app_name_text\" class=\"android.widget.TextView\" package=\"com.android.systemui\" content-desc=\"\"",
            "index=\"1\" text=\"(650) 555-0123\" resource-id=\"android:id/title\" class=\"android.widget.TextView\" package=\"com.android.systemui\" content-desc=\"\"",
            "index=\"2\" text=\"Incoming call\" resource-id=\"android:id/text\" class=\"android.widget.TextView\" package=\"com.android.systemui\" content-desc=\"\"",
            "index=\"3\" text=\"Decline\" resource-id=\"android:id/action0\" class=\"android.widget.Button\" package=\"com.android.systemui\" content-desc=\"\" clickable",
            "index=\"4\" text=\"Answer\" resource-id=\"android:id/action0\" class=\"android.widget.Button\" package=\"com.android.systemui\" content-desc=\"\" clickable",
        ]
    );
    // No timeout: it is there while the call rings, and gone once the caller hangs up.
    sh(&mut fw, "sleep 60");
    assert!(heads_up(&mut fw).is_some());
    assert!(focus(&mut fw).contains("com.android.settings"));
    assert_eq!(console::run(&mut fw, "gsm cancel 6505550123"), "OK\r\n");
    assert!(heads_up(&mut fw).is_none());
}

#[test]
fn answer_on_the_heads_up_answers_and_brings_up_the_in_call_screen() {
    let (mut fw, _dir) = phone(22);
    sh(&mut fw, "input keyevent KEYCODE_HOME");
    assert_eq!(console::run(&mut fw, "gsm call 4155550142"), "OK\r\n");
    tap(&mut fw, "android:id/action0", "Answer");
    assert_eq!(call_state(&mut fw), "2");
    assert!(
        focus(&mut fw).contains("com.google.android.dialer/com.android.incallui.InCallActivity"),
        "{}",
        focus(&mut fw)
    );
    assert!(heads_up(&mut fw).is_none());
    let screen = sh(&mut fw, "uiautomator dump /dev/tty");
    assert!(screen.contains("com.android.dialer:id/incall_end_call"));
    assert!(screen.contains("text=\"(415) 555-0142\""), "{screen}");
}

#[test]
fn decline_on_the_heads_up_rejects_the_call_and_leaves_the_app_in_front() {
    let (mut fw, _dir) = phone(23);
    sh(&mut fw, "monkey -p com.google.android.deskclock 1");
    assert_eq!(console::run(&mut fw, "gsm call 2125550100"), "OK\r\n");
    tap(&mut fw, "android:id/action0", "Decline");
    assert_eq!(call_state(&mut fw), "0");
    assert!(heads_up(&mut fw).is_none());
    assert!(focus(&mut fw).contains("com.google.android.deskclock"));
    let calls = sh(
        &mut fw,
        "content query --uri content://call_log/calls --projection number:type",
    );
    assert!(calls.contains("number=2125550100, type=5"), "{calls}");
}

#[test]
fn the_heads_up_body_opens_the_incoming_screen_and_the_heads_up_goes() {
    let (mut fw, _dir) = phone(24);
    sh(&mut fw, "input keyevent KEYCODE_HOME");
    assert_eq!(console::run(&mut fw, "gsm call 6505550177"), "OK\r\n");
    tap(&mut fw, "android:id/title", "(650) 555-0177");
    assert_eq!(call_state(&mut fw), "1");
    assert!(focus(&mut fw).contains("com.android.incallui.InCallActivity"));
    assert!(heads_up(&mut fw).is_none());
    let screen = sh(&mut fw, "uiautomator dump /dev/tty");
    assert!(screen.contains("com.android.dialer:id/two_button_answer_button"));
    // Answering there leaves no notification behind.
    let answer = screen
        .find("com.android.dialer:id/two_button_answer_button")
        .map(|i| &screen[i..])
        .and_then(|s| s.split("bounds=\"").nth(1))
        .and_then(|s| s.split('"').next())
        .and_then(droidmcp_geom::Bounds::parse)
        .expect("answer button bounds");
    fw.tap(answer.center());
    assert_eq!(call_state(&mut fw), "2");
    assert!(!sh(&mut fw, "dumpsys notification").contains("pkg=com.google.android.dialer"));
}

#[test]
fn a_second_call_during_a_call_in_the_background_is_a_heads_up_and_answer_holds_the_first() {
    let (mut fw, _dir) = phone(25);
    sh(
        &mut fw,
        "am start -a android.intent.action.CALL -d tel:2025550143",
    );
    sh(&mut fw, "input keyevent KEYCODE_HOME");
    assert_eq!(console::run(&mut fw, "gsm call 6505550123"), "OK\r\n");
    // The in-call screen is not in front, so InCallUI's notification is the loud one.
    assert!(heads_up(&mut fw).is_some());
    tap(&mut fw, "android:id/action0", "Answer");
    assert_eq!(
        console::run(&mut fw, "gsm list"),
        "outbound to  2025550143 : held\r\ninbound from 6505550123 : active\r\nOK\r\n"
    );
    assert!(focus(&mut fw).contains("com.android.incallui.InCallActivity"));
    assert!(heads_up(&mut fw).is_none());
}

#[test]
fn a_call_waiting_behind_the_in_call_screen_is_quiet() {
    let (mut fw, _dir) = phone(26);
    sh(
        &mut fw,
        "am start -a android.intent.action.CALL -d tel:2025550143",
    );
    assert_eq!(console::run(&mut fw, "gsm call 6505550123"), "OK\r\n");
    // The in-call screen shows the waiting call; no heads-up covers it.
    assert!(heads_up(&mut fw).is_none());
    let screen = sh(&mut fw, "uiautomator dump /dev/tty");
    assert!(
        screen.contains("com.android.dialer:id/two_button_answer_button"),
        "{screen}"
    );
    assert!(sh(&mut fw, "dumpsys notification").contains("channel=phone_ongoing_call"));
}

//! The embedded phone's clock, driven through `Phone::exec`: observing never moves it, a virtual
//! clock moves only with input, `sleep` and setting, a real one with the host's clock; timers ring
//! and alarms fire.

use droidmcp::hierarchy::{parse, Hierarchy, Node};
use droidmcp::sim::{ClockMode, Phone, SimConfig};

use crate::util::{boot, sh};

const CLOCK: &str = "com.google.android.deskclock";

fn epoch(phone: &Phone) -> i64 {
    sh(phone, "date +%s")
        .trim()
        .parse()
        .expect("date +%s prints a number")
}

fn dump(phone: &Phone) -> Hierarchy {
    parse(sh(phone, "uiautomator dump /dev/tty").as_bytes()).expect("dump parses")
}

fn node(h: &Hierarchy, what: &str) -> Option<Node> {
    h.nodes
        .iter()
        .find(|n| n.resource_id == what || n.content_desc == what || n.text == what)
        .cloned()
}

fn tap(phone: &Phone, what: &str) {
    let h = dump(phone);
    let n = node(&h, what).unwrap_or_else(|| panic!("nothing on screen matches {what:?}"));
    let c = n.bounds.center();
    sh(phone, &format!("input tap {} {}", c.x, c.y));
}

fn text_of(phone: &Phone, resource_id: &str) -> String {
    node(&dump(phone), resource_id)
        .unwrap_or_else(|| panic!("no {resource_id} on screen"))
        .text
}

/// Opens the Clock's Timer tab, types `digits` and starts the timer.
fn start_timer(phone: &Phone, digits: &[u8]) {
    sh(
        phone,
        &format!("monkey -p {CLOCK} -c android.intent.category.LAUNCHER 1"),
    );
    tap(phone, "Timer");
    for d in digits {
        tap(phone, &format!("{CLOCK}:id/timer_setup_digit_{d}"));
    }
    tap(phone, "Start");
}

#[test]
fn observing_never_moves_a_virtual_clock() {
    let phone = boot(0);
    let t0 = epoch(&phone);
    for line in [
        "uiautomator dump /dev/tty",
        "uiautomator dump",
        "screencap -p",
        "screencap /sdcard/s.png",
        "dumpsys window",
        "dumpsys activity activities",
        "logcat -d",
        "getprop",
    ] {
        phone.exec(line);
        assert_eq!(epoch(&phone), t0, "`{line}` moved the clock");
    }
    // Input and sleep do move it: a tap is one frame, sleep its argument.
    sh(&phone, "input tap 10 1000");
    let t1 = epoch(&phone);
    assert!((0..=1).contains(&(t1 - t0)));
    sh(&phone, "sleep 90");
    assert_eq!(epoch(&phone) - t1, 90);
}

#[test]
fn the_shell_sets_the_clock_in_every_toybox_form() {
    let phone = boot(0);
    // What the task `set_time` op sends: MMDDhhmmCCYY.ss.
    assert_eq!(
        sh(&phone, "date 112309302026.15"),
        "Mon Nov 23 09:30:15 UTC 2026\n"
    );
    assert_eq!(
        sh(&phone, "date +%Y-%m-%dT%H:%M:%S"),
        "2026-11-23T09:30:15\n"
    );
    sh(&phone, "date -s '2026-12-24 18:00:00'");
    assert_eq!(sh(&phone, "date +%F_%T"), "2026-12-24_18:00:00\n");
    sh(&phone, "cmd alarm set-time 1795424703000");
    assert_eq!(epoch(&phone), 1_795_424_703);
    assert_eq!(
        sh(&phone, "date -d @0 +%F"),
        "1970-01-01\n",
        "-d only converts"
    );
    assert_eq!(epoch(&phone), 1_795_424_703);
    let bad = phone.exec("date 99999999");
    assert_eq!(bad.exit_code, 1);
    assert_eq!(bad.stderr_text(), "date: bad date 99999999\n");
    let bad = phone.exec("cmd alarm set-time soon");
    assert_eq!(bad.exit_code, 255);
    assert!(bad.stderr_text().contains("NumberFormatException"));
    assert!(
        sh(&phone, "logcat -d -s AlarmManager:I").contains("Setting time of day to sec=1795424703")
    );
    // The status bar and the launcher read the new time.
    let h = dump(&phone);
    assert!(
        h.xml.contains("Mon, Nov 23"),
        "launcher date follows the clock"
    );
}

#[test]
fn a_timer_rings_with_times_up_and_a_notification() {
    let phone = boot(0);
    start_timer(&phone, &[1, 0]);
    assert_eq!(
        text_of(&phone, &format!("{CLOCK}:id/timer_time_text")),
        "0:10"
    );
    // Dumps while the timer runs do not eat into it.
    for _ in 0..20 {
        dump(&phone);
    }
    assert_eq!(
        text_of(&phone, &format!("{CLOCK}:id/timer_time_text")),
        "0:10"
    );
    sh(&phone, "sleep 4");
    assert_eq!(
        text_of(&phone, &format!("{CLOCK}:id/timer_time_text")),
        "0:06"
    );
    sh(&phone, "sleep 9");
    let h = dump(&phone);
    assert_eq!(
        node(&h, &format!("{CLOCK}:id/timer_label")).unwrap().text,
        "Time's up"
    );
    assert_eq!(
        node(&h, &format!("{CLOCK}:id/timer_time_text"))
            .unwrap()
            .text,
        "-0:03"
    );
    let log = sh(&phone, "logcat -d");
    assert!(
        log.contains("Events: [Timer] [Expire] [DeskClock]"),
        "{log}"
    );
    assert!(log.contains(&format!("enqueueNotificationInternal: pkg={CLOCK}")));
    // The heads-up notification is its own window over the app, with Stop and +1:00.
    assert!(sh(&phone, "dumpsys window windows").contains("NotificationShade"));
    let png = phone.exec("screencap -p").stdout;
    assert_eq!(&png[..4], b"\x89PNG");
    tap(&phone, "Stop");
    let h = dump(&phone);
    assert!(node(&h, &format!("{CLOCK}:id/timer_label")).is_none());
    assert!(!sh(&phone, "dumpsys window windows").contains("NotificationShade"));
}

#[test]
fn a_timer_rings_while_another_app_is_in_front() {
    let phone = boot(0);
    start_timer(&phone, &[5]);
    sh(&phone, "input keyevent HOME");
    sh(&phone, "sleep 6");
    // The launcher is in front; the ringing timer is a heads-up over it.
    assert!(sh(&phone, "dumpsys window windows").contains("NotificationShade"));
    assert!(sh(&phone, "logcat -d").contains("Events: [Timer] [Expire]"));
}

#[test]
fn an_enabled_alarm_fires_when_its_time_comes() {
    let phone = boot(0);
    let db = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db";
    sh(&phone, "date 060307002024.00");
    sh(
        &phone,
        &format!("monkey -p {CLOCK} -c android.intent.category.LAUNCHER 1"),
    );
    // The weekday 8:30 alarm, switched on from the shell; the Clock schedules it when it next
    // reads its database (on the next tap).
    sh(
        &phone,
        &format!("sqlite3 {db} 'UPDATE alarm_templates SET enabled=1 WHERE hour=8 AND minutes=30'"),
    );
    tap(&phone, &format!("{CLOCK}:id/tab_menu_alarm"));
    sh(&phone, "input keyevent HOME");
    let next = sh(&phone, "cmd alarm get-next-alarm 0");
    // 2024-06-03 08:30 UTC.
    assert_eq!(next, "Next alarm clock at 1717403400000\n");
    sh(&phone, "sleep 5400");
    let log = sh(&phone, "logcat -d -s AlarmClock:*");
    assert!(log.contains("Events: [Alarm] [Fire] [DeskClock]"), "{log}");
    let shade = sh(&phone, "dumpsys window windows");
    assert!(shade.contains("NotificationShade"));
    // A repeating alarm is scheduled again for the next weekday.
    assert_eq!(
        sh(&phone, "cmd alarm get-next-alarm 0"),
        "Next alarm clock at 1717489800000\n"
    );
}

#[test]
fn a_real_clock_follows_the_host_and_not_the_observer() {
    let phone = Phone::new(SimConfig {
        clock: ClockMode::Real,
        ..SimConfig::default()
    })
    .expect("phone boots");
    let host = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs() as i64
    };
    let t0 = epoch(&phone);
    assert!((t0 - host()).abs() <= 1, "phone {t0}, host {}", host());
    start_timer(&phone, &[3, 0, 0]);
    let first = text_of(&phone, &format!("{CLOCK}:id/timer_time_text"));
    for _ in 0..30 {
        dump(&phone);
        phone.exec("screencap -p");
    }
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let later = text_of(&phone, &format!("{CLOCK}:id/timer_time_text"));
    let secs = |t: &str| {
        let (m, s) = t.split_once(':').expect("m:ss");
        m.parse::<i64>().unwrap() * 60 + s.parse::<i64>().unwrap()
    };
    let gone = secs(&first) - secs(&later);
    // 2.1 s of wall time plus the dumps' own run time; never the 30+ s the dumps used to cost.
    assert!((2..=5).contains(&gone), "{first} then {later}");
    let t1 = epoch(&phone);
    assert!((t1 - host()).abs() <= 1);
    // Setting the time moves a real clock too, which then runs on from there.
    sh(&phone, "date 010100002030.00");
    let set = epoch(&phone);
    assert!((set - 1_893_456_000).abs() <= 1, "{set}");
}

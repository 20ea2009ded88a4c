//! Whole-phone snapshots of the embedded phone through the emulator console's `avd snapshot
//! save|load|list|delete`, and the same operations on `Phone`: a loaded phone reads back, through
//! the shell and pulls alone, exactly as it did when it was saved.

use droidmcp::sim::snapshot::{SnapshotError, BASELINE};
use droidmcp::sim::system::ClockMode;
use droidmcp::sim::{Phone, SimConfig};

use crate::util::{boot, sh};

const DATABASES: [&str; 5] = [
    "/data/data/com.android.providers.telephony/databases/mmssms.db",
    "/data/data/com.android.providers.contacts/databases/calllog.db",
    "/data/data/com.android.providers.contacts/databases/contacts2.db",
    "/data/data/com.android.providers.calendar/databases/calendar.db",
    "/data/user_de/0/com.google.android.deskclock/databases/alarms.db",
];

/// Everything an adb client can read of the phone's state that a task could look at.
fn observe(phone: &Phone) -> Vec<(String, Vec<u8>)> {
    let mut seen = Vec::new();
    for line in [
        "content query --uri content://sms",
        "content query --uri content://call_log/calls",
        "content query --uri content://com.android.contacts/contacts",
        "settings list global",
        "settings list secure",
        "settings list system",
        "date",
        "dumpsys window | grep mCurrentFocus",
        "uiautomator dump /dev/tty",
        "cmd alarm get-next-alarm",
        "dumpsys telephony.registry | grep mCallState",
        "logcat -d",
        "ls -R /data /sdcard",
    ] {
        seen.push((line.to_string(), phone.exec(line).stdout));
    }
    // The clip as the emulator's host end holds it: Clipper's receiver reads none from the
    // background, and its refusal would add a log line to every observation.
    seen.push((
        "clipboard get".to_string(),
        phone.console("clipboard get").into_bytes(),
    ));
    for db in DATABASES {
        seen.push((db.to_string(), phone.read_file(db).unwrap_or_default()));
    }
    seen
}

fn assert_same(label: &str, a: &[(String, Vec<u8>)], b: &[(String, Vec<u8>)]) {
    for ((what, x), (_, y)) in a.iter().zip(b) {
        assert!(
            x == y,
            "{label}: `{what}` differs:\n--- expected\n{}\n--- got\n{}",
            String::from_utf8_lossy(x),
            String::from_utf8_lossy(y)
        );
    }
}

/// What an episode leaves behind: a text sent, an alarm set, the clock moved, a setting changed,
/// an app open with a dialog, a call ringing, a clip on the clipboard.
fn use_phone(phone: &Phone) {
    sh(
        phone,
        "sqlite3 /data/data/com.android.providers.telephony/databases/mmssms.db \
         \"INSERT INTO sms (address, body, date, type, read) VALUES ('+16505550100', 'see you', 1, 2, 1)\"",
    );
    sh(
        phone,
        "sqlite3 /data/user_de/0/com.google.android.deskclock/databases/alarms.db \
         \"INSERT INTO alarm_templates (hour, minutes, enabled, daysofweek, vibrate, label, ringtone, delete_after_use) \
           VALUES (6, 30, 1, 0, 1, 'gym', '', 0)\"",
    );
    sh(phone, "date 060712002024.00");
    sh(phone, "settings put system screen_brightness 30");
    sh(phone, "am broadcast -a clipper.set -e text secret");
    sh(phone, "monkey -p com.google.android.deskclock 1");
    assert_eq!(phone.console("gsm call 6505550123"), "OK\r\n");
}

#[test]
fn loading_the_boot_snapshot_gives_back_a_freshly_booted_phone() {
    let fresh = observe(&boot(4));
    let phone = boot(4);
    use_phone(&phone);
    assert_ne!(observe(&phone), fresh, "using the phone changed nothing");
    assert_eq!(phone.console("avd snapshot load default_boot"), "OK\r\n");
    assert_same("after load", &fresh, &observe(&phone));
    // The random source came back too: the same draws follow on both phones.
    let twin = boot(4);
    let draw = "monkey -p com.google.android.contacts 1; uiautomator dump /dev/tty";
    assert_eq!(sh(&phone, draw), sh(&twin, draw));
}

#[test]
fn a_snapshot_keeps_a_running_app_as_it_stood() {
    let phone = boot(1);
    sh(&phone, "monkey -p com.google.android.dialer 1");
    sh(&phone, "input text 555");
    let screen = sh(&phone, "uiautomator dump /dev/tty");
    assert_eq!(phone.console("avd snapshot save dialing"), "OK\r\n");
    use_phone(&phone);
    assert_eq!(phone.console("avd snapshot load dialing"), "OK\r\n");
    assert_eq!(sh(&phone, "uiautomator dump /dev/tty"), screen);
    // Loading twice is loading once. (Compared load to load: reading the contacts provider
    // writes its database, so a read before the save would differ from one after the load.)
    let first = observe(&phone);
    use_phone(&phone);
    assert_eq!(phone.console("avd snapshot load dialing"), "OK\r\n");
    assert_same("after a second load", &first, &observe(&phone));
}

#[test]
fn the_console_answers_snapshot_commands_as_the_emulator() {
    let phone = boot(0);
    let list = phone.console("avd snapshot list");
    let mut lines = list.split("\r\n");
    assert_eq!(
        lines.next(),
        Some("List of snapshots present on all disks:")
    );
    assert_eq!(
        lines.next(),
        Some("ID        TAG                 VM SIZE                DATE       VM CLOCK")
    );
    let row = lines.next().expect("the boot snapshot's row");
    assert!(row.starts_with("--        default_boot        "), "{row:?}");
    // VM SIZE right-aligned in 7, DATE in 20, VM CLOCK in 15: 62 columns in all.
    assert_eq!(row.len(), 10 + 20 + 7 + 20 + 15, "{row:?}");
    // VM CLOCK: the time the phone had been running, `HH:MM:SS.mmm` right-aligned in 15.
    let clock = &row[row.len() - 15..];
    assert!(clock.starts_with("   00:00:0"), "{row:?}");
    assert_eq!(&clock[11..12], ".", "{row:?}");
    assert_eq!(lines.next(), Some("OK"));

    assert_eq!(
        phone.console("avd snapshot save"),
        "KO: Argument missing, try 'avd snapshot save <name>'\r\n"
    );
    assert_eq!(
        phone.console("avd snapshot load"),
        "KO: Argument missing, try 'avd snapshot load <name>'\r\n"
    );
    assert_eq!(
        phone.console("avd snapshot load nope"),
        "KO: Device 'system' does not have the requested snapshot 'nope'\r\n\
         KO: Snapshot load failure: unknown failure\r\n"
    );
    assert_eq!(phone.console("avd snapshot save mine"), "OK\r\n");
    let list = phone.console("avd snapshot list");
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.strip_prefix("--"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names, ["default_boot", "mine"]);
    // Deleting a snapshot no disk has is not an error to QEMU.
    assert_eq!(phone.console("avd snapshot delete nope"), "OK\r\n");
    assert_eq!(phone.console("avd snapshot del mine"), "OK\r\n");
    assert_eq!(phone.console("avd snapshot delete default_boot"), "OK\r\n");
    assert_eq!(
        phone.console("avd snapshot list"),
        "There is no snapshot available.\r\nOK\r\n"
    );
    let help = phone.console("avd snapshot");
    assert!(help.starts_with(
        "allows you to save and restore the virtual device state in snapshots\r\n\r\navailable sub-commands:\r\n    list             list available state snapshots\r\n"
    ));
    assert!(
        help.ends_with("\r\nKO: missing sub-command\r\n"),
        "{help:?}"
    );
    assert!(phone
        .console("avd snapshot frobnicate")
        .ends_with("KO:  bad sub-command\r\n"));
}

#[test]
fn snapshots_are_not_files_on_the_phone() {
    let phone = boot(0);
    let tree = sh(&phone, "ls -R /");
    assert_eq!(phone.console("avd snapshot save one"), "OK\r\n");
    assert_eq!(sh(&phone, "ls -R /"), tree);
}

#[test]
fn the_rust_api_is_the_console_and_its_errors_are_typed() {
    let phone = boot(2);
    let names = |p: &Phone| -> Vec<String> { p.snapshots().into_iter().map(|s| s.name).collect() };
    assert_eq!(names(&phone), [BASELINE]);
    phone.save_snapshot("a").expect("saves");
    assert_eq!(names(&phone), [BASELINE, "a"]);
    assert!(phone.snapshots()[1].size > 0);
    assert!(matches!(
        phone.load_snapshot("b"),
        Err(SnapshotError::NotFound(n)) if n == "b"
    ));
    assert!(matches!(
        phone.save_snapshot(""),
        Err(SnapshotError::EmptyName)
    ));
    sh(&phone, "settings put global wifi_on 0");
    phone.load_snapshot("a").expect("loads");
    assert_eq!(sh(&phone, "settings get global wifi_on"), "1\n");
    phone.delete_snapshot("a").expect("deletes");
    assert!(matches!(
        phone.delete_snapshot("a"),
        Err(SnapshotError::NotFound(_))
    ));
}

#[test]
fn a_real_clock_takes_the_host_time_again_after_a_load() {
    let phone = Phone::new(SimConfig {
        clock: ClockMode::Real,
        ..SimConfig::default()
    })
    .expect("phone boots");
    sh(&phone, "date 060712002024.00");
    assert_eq!(sh(&phone, "date +%Y"), "2024\n");
    assert_eq!(phone.console("avd snapshot load default_boot"), "OK\r\n");
    let phone_secs: i64 = sh(&phone, "date +%s").trim().parse().expect("seconds");
    let host_secs = chrono::Utc::now().timestamp();
    assert!(
        (phone_secs - host_secs).abs() <= 5,
        "phone {phone_secs} host {host_secs}"
    );
}

#[test]
fn a_virtual_clock_stands_at_the_snapshots_time_after_a_load() {
    let phone = boot(5);
    sh(&phone, "date 010112002030.00");
    assert_eq!(phone.console("avd snapshot save y2030"), "OK\r\n");
    sh(&phone, "date 060712002024.00");
    assert_eq!(phone.console("avd snapshot load y2030"), "OK\r\n");
    assert_eq!(sh(&phone, "date +%Y%m%d%H%M"), "203001011200\n");
}

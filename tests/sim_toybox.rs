//! The embedded phone's toybox and mksh as AndroidWorld's task code drives them: `find`, `ls -ll -au`,
//! options after operands, pathname expansion, `cp -a DIR/.`, `restorecon`, `setprop`, the shell user
//! before and after adb's root switch, and the `dumpsys` lines it greps. Byte for byte.

use droidmcp::sim::Phone;

use crate::util::{boot, sh};

/// A small tree under /sdcard/t: a/1.txt (3 bytes), a/b/2.txt (empty), c.log (5 bytes), empty dir e.
pub fn tree(phone: &Phone) {
    sh(
        phone,
        "mkdir -p /sdcard/t/a/b /sdcard/t/e && echo hi > /sdcard/t/a/1.txt && touch /sdcard/t/a/b/2.txt && echo four > /sdcard/t/c.log",
    );
}

#[test]
fn find_prints_paths_as_spelled_in_toybox_order() {
    let phone = boot(0);
    tree(&phone);
    assert_eq!(
        sh(&phone, "find /sdcard/t"),
        "/sdcard/t\n/sdcard/t/a\n/sdcard/t/a/1.txt\n/sdcard/t/a/b\n/sdcard/t/a/b/2.txt\n/sdcard/t/c.log\n/sdcard/t/e\n"
    );
    // AndroidWorld's check_file_or_folder_exists: the aliases keep their spelling.
    assert_eq!(
        sh(&phone, "find /storage/emulated/0/t -type f -o -type d"),
        "/storage/emulated/0/t\n/storage/emulated/0/t/a\n/storage/emulated/0/t/a/1.txt\n/storage/emulated/0/t/a/b\n/storage/emulated/0/t/a/b/2.txt\n/storage/emulated/0/t/c.log\n/storage/emulated/0/t/e\n"
    );
    assert_eq!(
        sh(&phone, "find /sdcard/t/ -name '*.txt'"),
        "/sdcard/t/a/1.txt\n/sdcard/t/a/b/2.txt\n"
    );
    assert_eq!(
        sh(&phone, "find /sdcard/t -mindepth 1 -maxdepth 1 -type d"),
        "/sdcard/t/a\n/sdcard/t/e\n"
    );
    assert_eq!(sh(&phone, "find /sdcard/t -maxdepth 0"), "/sdcard/t\n");
    assert_eq!(
        sh(&phone, "find /sdcard/t -empty"),
        "/sdcard/t/a/b/2.txt\n/sdcard/t/e\n"
    );
    assert_eq!(
        sh(&phone, "find /sdcard/t ! -type d -size -1"),
        "/sdcard/t/a/b/2.txt\n"
    );
    assert_eq!(
        sh(&phone, "find /sdcard/t \\( -name a -o -name e \\) -print"),
        "/sdcard/t/a\n/sdcard/t/e\n"
    );
    assert_eq!(
        sh(&phone, "find /sdcard/t -name c.log -print0"),
        "/sdcard/t/c.log\0"
    );
}

#[test]
fn find_delete_empties_storage_depth_first() {
    let phone = boot(0);
    tree(&phone);
    // AndroidWorld's storage reset: files go, directories stay. toybox gives `-delete` no
    // `-print` of its own, so the default one still prints what was deleted.
    assert_eq!(
        sh(&phone, "find /storage/emulated/0/t -mindepth 1 -type f -delete"),
        "/storage/emulated/0/t/a/1.txt\n/storage/emulated/0/t/a/b/2.txt\n/storage/emulated/0/t/c.log\n"
    );
    assert_eq!(
        sh(&phone, "find /sdcard/t"),
        "/sdcard/t\n/sdcard/t/a\n/sdcard/t/a/b\n/sdcard/t/e\n"
    );
    // -delete forces depth-first order, so a directory is removed after its contents.
    assert_eq!(
        sh(&phone, "find /sdcard/t -mindepth 1 -delete"),
        "/sdcard/t/a/b\n/sdcard/t/a\n/sdcard/t/e\n"
    );
    assert_eq!(sh(&phone, "find /sdcard/t"), "/sdcard/t\n");
}

#[test]
fn find_errors_are_toyboxs() {
    let phone = boot(0);
    tree(&phone);
    let cases = [
        ("find /sdcard/t -bogus", "find: bad arg '-bogus'\n"),
        ("find /sdcard/t -name", "find: '-name' needs 1 arg\n"),
        ("find /sdcard/t -type q", "find: bad -type 'q'\n"),
        ("find /sdcard/t ! -o -print", "find: bad arg '-o'\n"),
        ("find /sdcard/t -print \\)", "find: bad arg ')'\n"),
    ];
    for (line, stderr) in cases {
        let out = phone.exec(line);
        assert_eq!(
            (
                out.stdout_text().as_str(),
                out.stderr_text().as_str(),
                out.exit_code
            ),
            ("", stderr, 1),
            "{line}"
        );
    }
    let out = phone.exec("find /sdcard/nope /sdcard/t/e");
    assert_eq!(
        (out.stdout_text(), out.stderr_text(), out.exit_code),
        (
            "/sdcard/t/e\n".to_string(),
            "find: '/sdcard/nope': No such file or directory\n".to_string(),
            1
        )
    );
}

#[test]
fn ls_takes_options_after_operands_and_long_full_time() {
    let phone = boot(0);
    // AndroidWorld sets the clock with `date MMDDhhmmYY.ss`.
    sh(&phone, "date 101512002023.30");
    tree(&phone);
    // A day later the files keep the time they were written at; /sdcard, which nothing on the
    // phone wrote, shows the clock's.
    sh(&phone, "date 101612002023.30");
    let stamp = "2023-10-15 12:00";
    // AndroidWorld's get_file_list_with_metadata.
    let full = "2023-10-15 12:00:30.000000000 +0000";
    let now = "2023-10-16 12:00:30.000000000 +0000";
    assert_eq!(
        sh(&phone, "ls /sdcard/t -ll -au"),
        format!(
            "total 20\n\
             drwxrwx--x 2 root sdcard_rw 4096 {full} .\n\
             drwxrwx--x 2 root sdcard_rw 4096 {now} ..\n\
             drwxrwx--x 2 root sdcard_rw 4096 {full} a\n\
             -rw-rw---- 1 root sdcard_rw    5 {full} c.log\n\
             drwxrwx--x 2 root sdcard_rw 4096 {full} e\n"
        )
    );
    assert_eq!(
        sh(&phone, "ls -l /sdcard/t/a"),
        format!(
            "total 8\n\
             -rw-rw---- 1 root sdcard_rw    3 {stamp} 1.txt\n\
             drwxrwx--x 2 root sdcard_rw 4096 {stamp} b\n"
        )
    );
    assert_eq!(sh(&phone, "ls /sdcard/t -1"), "a\nc.log\ne\n");
    assert_eq!(sh(&phone, "ls -d /sdcard/t"), "/sdcard/t\n");
    let bad = phone.exec("ls -j /sdcard");
    assert_eq!(
        (bad.stderr_text().as_str(), bad.exit_code),
        ("ls: Unknown option 'j' (see \"ls --help\")\n", 1)
    );
}

#[test]
fn chmod_and_restorecon_as_app_snapshots_use_them() {
    let phone = boot(0);
    tree(&phone);
    // Options after operands (toybox permutes them), then the mode is the first operand.
    assert_eq!(sh(&phone, "chmod 777 -R /sdcard/t"), "");
    assert_eq!(sh(&phone, "restorecon -RD /sdcard/t"), "");
    let out = phone.exec("restorecon -RD /sdcard/nope");
    assert_eq!(
        (out.stderr_text().as_str(), out.exit_code),
        (
            "restorecon: restorecon failed: /sdcard/nope: No such file or directory\n",
            1
        )
    );
    let out = phone.exec("chmod 777");
    assert_eq!(
        (out.stderr_text().as_str(), out.exit_code),
        ("chmod: Needs 2 arguments (see \"chmod --help\")\n", 1)
    );
    // An unknown letter makes the argument the mode (`?` in toybox's optstring).
    assert_eq!(sh(&phone, "chmod -w /sdcard/t/c.log"), "");
}

#[test]
fn pathname_expansion_and_copying_a_directorys_contents() {
    let phone = boot(0);
    tree(&phone);
    assert_eq!(
        sh(&phone, "echo /sdcard/t/*"),
        "/sdcard/t/a /sdcard/t/c.log /sdcard/t/e\n"
    );
    assert_eq!(sh(&phone, "echo /sdcard/t/a/*.txt"), "/sdcard/t/a/1.txt\n");
    assert_eq!(
        sh(&phone, "echo '/sdcard/t/*' /sdcard/t/\\*"),
        "/sdcard/t/* /sdcard/t/*\n"
    );
    assert_eq!(sh(&phone, "echo /sdcard/t/*.none"), "/sdcard/t/*.none\n");
    assert_eq!(
        sh(
            &phone,
            "for f in /sdcard/t/?.log /sdcard/t/[ab]; do echo $f; done"
        ),
        "/sdcard/t/c.log\n/sdcard/t/a\n"
    );
    // AndroidWorld's app snapshots: copy a directory's contents, clear one with a glob.
    assert_eq!(
        sh(
            &phone,
            "mkdir -p /sdcard/snap && cp -a /sdcard/t/. /sdcard/snap/"
        ),
        ""
    );
    assert_eq!(sh(&phone, "ls /sdcard/snap"), "a\nc.log\ne\n");
    assert_eq!(sh(&phone, "cat /sdcard/snap/a/1.txt"), "hi\n");
    assert_eq!(sh(&phone, "rm -r /sdcard/snap/*"), "");
    assert_eq!(sh(&phone, "ls -1 /sdcard/snap"), "");
}

#[test]
fn the_shell_user_and_adbs_root_property() {
    let phone = boot(0);
    assert_eq!(sh(&phone, "whoami"), "shell\n");
    assert_eq!(sh(&phone, "id -u"), "2000\n");
    assert_eq!(sh(&phone, "getprop ro.debuggable"), "1\n");
    assert_eq!(sh(&phone, "getprop ro.build.type"), "userdebug\n");
    // The shell user may not set system properties…
    let out = phone.exec("setprop persist.sys.timezone Europe/Paris");
    assert_eq!(
        (out.stderr_text().as_str(), out.exit_code),
        (
            "Failed to set property 'persist.sys.timezone' to 'Europe/Paris'.\nSee dmesg for error reason.\n",
            1
        )
    );
    // …but may set adb's own, which is what `adb root` does.
    assert_eq!(sh(&phone, "setprop service.adb.root 1"), "");
    assert_eq!(
        sh(&phone, "whoami; echo $USER $LOGNAME; id -u; id -un"),
        "root\nroot root\n0\nroot\n"
    );
    assert_eq!(
        sh(&phone, "id"),
        "uid=0(root) gid=0(root) groups=0(root),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) context=u:r:su:s0\n"
    );
    assert_eq!(
        sh(
            &phone,
            "setprop persist.sys.timezone UTC; getprop persist.sys.timezone"
        ),
        "UTC\n"
    );
    // Read-only properties that have a value stay, even for root.
    assert_eq!(phone.exec("setprop ro.debuggable 0").exit_code, 1);
    assert_eq!(sh(&phone, "setprop service.adb.root 0; whoami"), "shell\n");
}

#[test]
fn dumpsys_input_and_window_carry_the_frames_and_rotation() {
    let phone = boot(0);
    let frames = sh(&phone, "dumpsys input | grep logicalFrame");
    // Once in the touchscreen's mapper, once in the reader's configuration, as a real dump has it.
    let viewport = "      Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation=0, logicalFrame=[0, 0, 1080, 2400], physicalFrame=[0, 0, 1080, 2400], deviceSize=[1080, 2400], isActive=[1]\n";
    assert_eq!(frames, viewport.repeat(2));
    assert_eq!(sh(&phone, "dumpsys input | grep physicalFrame"), frames);
    // android_env's get_orientation reads the touchscreen's rotation (Android 13/14 print a number).
    assert_eq!(
        sh(
            &phone,
            "dumpsys input | grep -e SurfaceOrientation -e InputDeviceOrientation"
        ),
        "      InputDeviceOrientation: 0\n"
    );
    let dump = sh(&phone, "dumpsys input");
    assert!(
        dump.contains(&format!("  Device 2: virtio_input_multi_touch_1\n    Touch Input Mapper (mode - DIRECT):\n{viewport}      DisplayBounds: 1080x2400\n      PhysicalFrameInRotatedDisplay: Rect{{0, 0, 1080, 2400}}\n      InputDeviceOrientation: 0\n  Configuration:\n")),
        "{dump}"
    );
    assert_eq!(
        sh(&phone, "dumpsys window | grep mCurrentRotation"),
        "      mCurrentRotation=ROTATION_0\n"
    );
    // A smaller logical size is letterboxed onto the panel, centred.
    sh(&phone, "wm size 720x1280");
    assert_eq!(
        sh(&phone, "dumpsys input | grep -o 'logicalFrame=.*isActive'"),
        "logicalFrame=[0, 0, 720, 1280], physicalFrame=[0, 240, 1080, 2160], deviceSize=[1080, 2400], isActive\n".repeat(2)
    );
}

/// Android 14's BatteryService.dumpInternal prints these fifteen fields after its header, in this
/// order; parsers that split on the line (device_status among them) read every one.
#[test]
fn dumpsys_battery_prints_android_14s_fields_in_order() {
    let phone = boot(0);
    let dump = sh(&phone, "dumpsys battery");
    let mut lines = dump.lines();
    assert_eq!(lines.next(), Some("Current Battery Service state:"));
    let fields: Vec<(&str, &str)> = lines
        .map(|l| {
            let l = l
                .strip_prefix("  ")
                .unwrap_or_else(|| panic!("not indented: {l:?}"));
            l.split_once(": ")
                .unwrap_or_else(|| panic!("no value: {l:?}"))
        })
        .collect();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        keys,
        [
            "AC powered",
            "USB powered",
            "Wireless powered",
            "Dock powered",
            "Max charging current",
            "Max charging voltage",
            "Charge counter",
            "status",
            "health",
            "present",
            "level",
            "scale",
            "voltage",
            "temperature",
            "technology",
        ]
    );
    for (k, v) in &fields[..4] {
        assert!(*v == "true" || *v == "false", "{k}: {v}");
    }
    for (k, v) in fields
        .iter()
        .skip(4)
        .filter(|(k, _)| *k != "present" && *k != "technology")
    {
        assert!(v.parse::<i64>().is_ok(), "{k}: {v} is not an int");
    }
    let battery = droidmcp::device::status::battery(&dump);
    assert_eq!((battery.percent, battery.status), (Some(100), Some("full")));
    assert_eq!(battery.plugged, ["usb"]);
}

#[test]
fn service_call_sets_the_time_zone_androidworld_asks_for() {
    let phone = boot(0);
    assert_eq!(
        sh(&phone, "service call alarm 3 s16 UTC"),
        "Result: Parcel(00000000    '....')\n"
    );
    assert_eq!(sh(&phone, "getprop persist.sys.timezone"), "UTC\n");
    assert_eq!(sh(&phone, "service check alarm"), "Service alarm: found\n");
    let out = phone.exec("service call nosuch 1");
    assert_eq!(
        (out.stderr_text().as_str(), out.exit_code),
        ("service: Service nosuch does not exist\n", 10)
    );
    // A zone the phone cannot keep is refused, not pretended.
    assert_eq!(
        phone
            .exec("service call alarm 3 s16 Europe/Paris")
            .exit_code,
        1
    );
    assert_eq!(sh(&phone, "getprop persist.sys.timezone"), "UTC\n");
}

/// The id of `package`'s task in `am stack list`.
fn task_id(phone: &Phone, package: &str) -> String {
    sh(phone, "am stack list")
        .lines()
        .find(|l| l.contains(package))
        .and_then(|l| l.trim().strip_prefix("taskId="))
        .and_then(|l| l.split(':').next())
        .unwrap_or_else(|| panic!("{package} has a task"))
        .to_string()
}

#[test]
fn am_stack_remove_closes_a_recent_task() {
    let phone = boot(0);
    sh(&phone, "am start -n com.android.settings/.Settings");
    let id = task_id(&phone, "com.android.settings");
    assert_eq!(sh(&phone, &format!("am stack remove {id}")), "");
    assert!(!sh(&phone, "am stack list").contains("com.android.settings"));
    // An id that is gone is no error.
    assert_eq!(sh(&phone, &format!("am stack remove {id}")), "");
}

/// AndroidWorld's `close_recents` (every task's `tear_down`): it collects every `id=(\d+)` in
/// `dumpsys activity recents` and sends `am stack remove` for each. The visible recent tasks'
/// `RecentTaskInfo` lines carry ` id=TASK`; home is never among them, so the launcher comes back
/// to the front and the app's task is gone, as on an emulator.
#[test]
fn close_recents_finds_the_task_ids_and_clears_the_apps() {
    let phone = boot(0);
    sh(
        &phone,
        "monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1",
    );
    sh(&phone, "am start -n com.android.settings/.Settings");
    let dump = sh(&phone, "dumpsys activity recents");
    let settings_id = task_id(&phone, "com.android.settings");
    let head = format!(
        "  * RecentTaskInfo #0: \n    id={settings_id} userId=0 hasTask=true lastActiveTime="
    );
    assert!(dump.contains(&head), "{dump}");
    assert!(
        dump.contains(
            "\n    baseIntent=Intent { flg=0x10000000 cmp=com.android.settings/.Settings }\n"
        ),
        "{dump}"
    );
    assert!(dump.contains(
        "\n    isExcluded=false activityType=standard windowingMode=fullscreen supportsMultiWindow=true\n"
    ));
    let visible = &dump[dump
        .find("  Visible recent tasks (most recent first):\n")
        .expect("visible list")..];
    assert!(
        !visible.contains("nexuslauncher"),
        "home is not a visible recent task: {visible}"
    );
    assert_eq!(
        visible.matches("  * RecentTaskInfo #").count(),
        2,
        "{visible}"
    );

    let ids: Vec<String> = regex::Regex::new(r"id=(\d+)")
        .unwrap()
        .captures_iter(&dump)
        .map(|c| c[1].to_string())
        .collect();
    assert!(ids.contains(&settings_id), "{ids:?}");
    for id in &ids {
        assert_eq!(sh(&phone, &format!("am stack remove {id}")), "");
    }
    let list = sh(&phone, "am stack list");
    assert!(
        !list.contains("deskclock") && !list.contains("com.android.settings"),
        "{list}"
    );
    assert!(
        sh(
            &phone,
            "dumpsys activity activities | grep mResumedActivity"
        )
        .contains("nexuslauncher"),
        "home is in front again"
    );
    assert!(!sh(&phone, "dumpsys activity recents").contains("Visible recent tasks"));
}

/// AndroidWorld's `close_app` (`am force-stop`) and `clear_app_data` (`pm clear`) in every
/// `tear_down`: a force-stopped package's notifications go with it, as NotificationManagerService
/// drops them; `am kill` leaves them, and another package's stay.
#[test]
fn force_stop_and_pm_clear_take_the_apps_notifications() {
    let phone = boot(0);
    let messaging = |phone: &Phone| {
        sh(phone, "dumpsys notification")
            .matches("pkg=com.google.android.apps.messaging ")
            .count()
    };
    phone.console("sms send 5551234 hello");
    sh(
        &phone,
        "cmd notification post -t Reminder note 'Water the plants'",
    );
    assert_eq!(messaging(&phone), 1);
    sh(&phone, "am kill com.google.android.apps.messaging");
    assert_eq!(messaging(&phone), 1, "a kill leaves them");
    assert_eq!(
        sh(&phone, "am force-stop com.google.android.apps.messaging"),
        ""
    );
    assert_eq!(messaging(&phone), 0, "force-stop takes them");
    assert!(sh(&phone, "dumpsys notification").contains("pkg=com.android.shell "));

    phone.console("sms send 5551234 again");
    assert_eq!(messaging(&phone), 1);
    assert_eq!(
        sh(&phone, "pm clear com.google.android.apps.messaging"),
        "Success\n"
    );
    assert_eq!(messaging(&phone), 0, "clearing data takes them");
    assert!(sh(&phone, "dumpsys notification").contains("pkg=com.android.shell "));
}

/// AndroidWorld's PhoneAnswerCall `tear_down`: the Dialer is force-stopped while the call rings,
/// then `KEYCODE_ENDCALL` ends it. The Dialer's process takes the call's end without an activity,
/// so no task of it is listed, as no process started for a broadcast (an SMS) is, until opened.
#[test]
fn a_process_started_for_a_broadcast_lists_no_task() {
    let phone = boot(0);
    let listed = |phone: &Phone, package: &str| {
        [
            sh(phone, "am stack list"),
            sh(phone, "dumpsys activity recents"),
            sh(phone, "dumpsys activity activities"),
        ]
        .iter()
        .map(|out| out.contains(package))
        .collect::<Vec<_>>()
    };
    // The incoming screen, which a call on a screen that is off brings up.
    sh(&phone, "input keyevent KEYCODE_SLEEP");
    phone.console("gsm call 5551234");
    assert_eq!(
        listed(&phone, "com.google.android.dialer"),
        [true; 3],
        "the in-call screen"
    );
    sh(&phone, "am force-stop com.google.android.dialer");
    sh(&phone, "input keyevent KEYCODE_ENDCALL");
    assert!(sh(&phone, "dumpsys telephony.registry").contains("\n    mCallState=0\n"));
    assert_eq!(listed(&phone, "com.google.android.dialer"), [false; 3]);

    phone.console("sms send 5551234 hello");
    assert_eq!(
        listed(&phone, "com.google.android.apps.messaging"),
        [false; 3]
    );
    sh(
        &phone,
        "monkey -p com.google.android.apps.messaging -c android.intent.category.LAUNCHER 1",
    );
    assert_eq!(
        listed(&phone, "com.google.android.apps.messaging"),
        [true; 3],
        "opened"
    );
}

/// AndroidWorld's Phone and Contacts tasks start from an empty call log and contacts provider:
/// `content delete --uri content://call_log/calls` (ContentCommand prints nothing) and `pm clear
/// com.android.providers.contacts`, a system package with only data, which the provider recreates
/// empty.
#[test]
fn content_delete_and_pm_clear_of_a_provider_empty_what_androidworld_resets() {
    let phone = boot(0);
    assert!(sh(
        &phone,
        "content query --uri content://call_log/calls --projection number"
    )
    .starts_with("Row: 0 number="));
    // A selection deletes only the rows it matches.
    assert_eq!(
        sh(
            &phone,
            "content delete --uri content://call_log/calls --where 'type=3'"
        ),
        ""
    );
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://call_log/calls --where 'type=3'"
        ),
        "No result found.\n"
    );
    assert!(sh(&phone, "content query --uri content://call_log/calls").starts_with("Row: 0 "));
    assert_eq!(
        sh(&phone, "content delete --uri content://call_log/calls"),
        ""
    );
    assert_eq!(
        sh(&phone, "content query --uri content://call_log/calls"),
        "No result found.\n"
    );

    sh(
        &phone,
        "content insert --uri content://settings/secure --bind name:s:aw_probe --bind value:s:1",
    );
    assert_eq!(
        sh(
            &phone,
            "content delete --uri content://settings/secure --where \"name='aw_probe'\""
        ),
        ""
    );
    assert_eq!(sh(&phone, "settings get secure aw_probe"), "null\n");

    assert!(sh(
        &phone,
        "content query --uri content://com.android.contacts/contacts"
    )
    .starts_with("Row: 0 "));
    assert_eq!(
        sh(&phone, "pm clear com.android.providers.contacts"),
        "Success\n"
    );
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://com.android.contacts/contacts"
        ),
        "No result found.\n"
    );
    let unknown = phone.exec("pm clear com.example.missing");
    assert_eq!(
        (unknown.exit_code, unknown.stdout_text()),
        (255, String::new())
    );
    assert_eq!(
        unknown.stderr_text(),
        "Exception occurred while executing 'clear':\njava.lang.IllegalArgumentException: Unknown package: com.example.missing\n"
    );
}

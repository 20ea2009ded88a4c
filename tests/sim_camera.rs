//! Camera (AOSP Camera2, `com.android.camera2`) on the embedded phone, reached and read only as
//! an adb client would: AndroidWorld's launch (`am start -n …/com.android.camera.CameraLauncher`),
//! the activity the activity manager reports for the alias, the app drawer, the viewfinder's
//! controls and the photo the shutter stores.

use crate::util::{boot, sh, tap_node};

const ROOT: &str = "com.android.camera2:id/";

fn dump(phone: &droidmcp::sim::Phone) -> String {
    sh(phone, "uiautomator dump /dev/tty")
}

#[test]
fn androidworlds_launch_of_the_alias_runs_camera_activity() {
    let phone = boot(0);
    assert_eq!(
        sh(
            &phone,
            "am start -n com.android.camera2/com.android.camera.CameraLauncher"
        ),
        "Starting: Intent { cmp=com.android.camera2/com.android.camera.CameraLauncher }\n"
    );
    // android_env reads the current activity from `am stack list`; AndroidWorld's OpenApp check
    // compares its package.
    let stacks = sh(&phone, "am stack list");
    assert!(
        stacks.contains(
            "visible=true topActivity=ComponentInfo{com.android.camera2/com.android.camera.CameraActivity}"
        ),
        "{stacks}"
    );
    let resumed = sh(
        &phone,
        "dumpsys activity activities | grep mResumedActivity",
    );
    assert!(
        resumed.contains(" u0 com.android.camera2/com.android.camera.CameraActivity t"),
        "{resumed}"
    );
    // The task is named by the alias in its intent and by the target everywhere else.
    let recents = sh(&phone, "dumpsys activity recents");
    assert!(
        recents.contains(
            "\n    baseIntent=Intent { flg=0x10000000 cmp=com.android.camera2/com.android.camera.CameraLauncher }\n    baseActivity={com.android.camera2/com.android.camera.CameraActivity}\n    topActivity={com.android.camera2/com.android.camera.CameraActivity}\n    realActivity={com.android.camera2/com.android.camera.CameraActivity}\n"
        ),
        "{recents}"
    );
    let resolved = sh(
        &phone,
        "cmd package resolve-activity -c android.intent.category.LAUNCHER com.android.camera2",
    );
    assert!(
        resolved.contains("  name=com.android.camera.CameraLauncher\n")
            && resolved.contains(" targetActivity=com.android.camera.CameraActivity "),
        "{resolved}"
    );
    assert!(sh(&phone, "pm list packages com.android.camera2")
        .lines()
        .any(|l| l == "package:com.android.camera2"));
    assert_eq!(
        sh(
            &phone,
            "cmd package resolve-activity --brief -c android.intent.category.LAUNCHER com.android.camera2"
        )
        .lines()
        .last(),
        Some("com.android.camera2/com.android.camera.CameraLauncher")
    );
}

#[test]
fn camera_is_in_the_app_drawer_not_on_the_home_screen() {
    let phone = boot(0);
    assert!(!dump(&phone).contains("content-desc=\"Camera\""));
    // A swipe up on the home screen opens the drawer, as an agent opens it.
    sh(&phone, "input swipe 540 1800 540 600 300");
    assert!(dump(&phone).contains("id/apps_list_view"));
    tap_node(&phone, "text=\"Camera\"");
    let focus = sh(&phone, "dumpsys window | grep mCurrentFocus");
    assert!(
        focus.contains("com.android.camera2/com.android.camera.CameraActivity"),
        "{focus}"
    );
    let screen = dump(&phone);
    for node in ["preview_content", "shutter_button", "mode_options_toggle"] {
        assert!(
            screen.contains(&format!("{ROOT}{node}")),
            "{node}: {screen}"
        );
    }
    assert!(screen.contains("content-desc=\"Shutter\""));
}

#[test]
fn the_shutter_stores_camera2_named_jpegs_and_the_options_toggle() {
    let phone = boot(1);
    sh(&phone, "date 112709152026.05");
    sh(&phone, "monkey -p com.android.camera2 1");
    assert_eq!(
        phone.exec("ls /sdcard/Pictures").stdout_text(),
        "",
        "no photos on a fresh phone"
    );
    tap_node(&phone, &format!("{ROOT}shutter_button"));
    tap_node(&phone, &format!("{ROOT}shutter_button"));
    let files = sh(&phone, "ls /sdcard/Pictures");
    let names: Vec<&str> = files.lines().collect();
    assert_eq!(names.len(), 2, "{files}");
    assert!(names[0].starts_with("IMG_20261127_0915"), "{files}");
    assert!(names[0].ends_with(".jpg"), "{files}");
    // Two shots within one second do not overwrite each other.
    let with_suffix = names.iter().filter(|n| n.ends_with("_1.jpg")).count();
    let distinct_seconds = names[0][..19] != names[1][..19];
    assert!(with_suffix == 1 || distinct_seconds, "{files}");
    let photo = phone
        .read_file(&format!("/sdcard/Pictures/{}", names[0]))
        .expect("the photo is on shared storage");
    let decoded =
        image::load_from_memory_with_format(&photo, image::ImageFormat::Jpeg).expect("a JPEG");
    assert_eq!((decoded.width(), decoded.height()), (640, 480));

    tap_node(&phone, "content-desc=\"Options\"");
    let options = dump(&phone);
    assert!(
        options.contains("content-desc=\"Back camera\""),
        "{options}"
    );
    assert!(options.contains("content-desc=\"Flash off\""), "{options}");
    tap_node(&phone, &format!("{ROOT}camera_toggle_button"));
    tap_node(&phone, &format!("{ROOT}flash_toggle_button"));
    let switched = dump(&phone);
    assert!(
        switched.contains("content-desc=\"Front camera\""),
        "{switched}"
    );
    assert!(
        switched.contains("content-desc=\"Flash auto\""),
        "{switched}"
    );
    tap_node(&phone, &format!("{ROOT}grid_lines_toggle_button"));
    assert!(dump(&phone).contains(&format!("{ROOT}grid_lines\"")));
    // A tap on the preview folds the options back behind the toggle.
    tap_node(&phone, &format!("{ROOT}preview_content"));
    assert!(dump(&phone).contains(&format!("{ROOT}mode_options_toggle")));
}

//! Settings on the embedded phone as an agent meets it, through `Phone::exec` only: the Android 14
//! homepage, scrolling, About phone against `getprop`, search, and the Display pages.

use droidmcp::hierarchy::{parse, Hierarchy, Node};
use droidmcp::sim::Phone;

use crate::util::{boot, sh};

const SETTINGS: &str = "com.android.settings";

fn dump(phone: &Phone) -> Hierarchy {
    parse(sh(phone, "uiautomator dump /dev/tty").as_bytes()).expect("dump parses")
}

fn titles(h: &Hierarchy) -> Vec<String> {
    h.nodes
        .iter()
        .filter(|n| n.resource_id == "android:id/title")
        .map(|n| n.text.clone())
        .collect()
}

fn find(h: &Hierarchy, text: &str) -> Option<Node> {
    h.nodes.iter().find(|n| n.text == text).cloned()
}

/// Taps the row titled `text`, scrolling down the list until it shows.
fn open(phone: &Phone, text: &str) {
    for _ in 0..12 {
        let h = dump(phone);
        if let Some(n) = find(&h, text) {
            let c = n.bounds.center();
            sh(phone, &format!("input tap {} {}", c.x, c.y));
            return;
        }
        sh(phone, "input swipe 540 1800 540 900 300");
    }
    panic!("no row {text:?} in Settings");
}

fn summary_of(h: &Hierarchy, title: &str) -> String {
    let i = h
        .nodes
        .iter()
        .position(|n| n.text == title && n.resource_id == "android:id/title")
        .unwrap_or_else(|| panic!("no row {title:?}"));
    h.nodes[i + 1..]
        .iter()
        .find(|n| n.resource_id == "android:id/summary" || n.resource_id == "android:id/title")
        .filter(|n| n.resource_id == "android:id/summary")
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

/// The bounds of the first SeekBar on screen.
fn slider(h: &Hierarchy, what: &str) -> droidmcp::geom::Bounds {
    h.nodes
        .iter()
        .find(|n| n.class == "android.widget.SeekBar")
        .unwrap_or_else(|| panic!("no {what}"))
        .bounds
}

fn launch(phone: &Phone) {
    sh(
        phone,
        &format!("monkey -p {SETTINGS} -c android.intent.category.LAUNCHER 1"),
    );
}

#[test]
fn the_homepage_lists_every_android_14_entry_and_scrolls() {
    let phone = boot(0);
    launch(&phone);
    assert!(
        !titles(&dump(&phone)).contains(&"About phone".to_string()),
        "the first screen cannot hold all seventeen"
    );
    let mut seen: Vec<String> = Vec::new();
    for _ in 0..8 {
        for t in titles(&dump(&phone)) {
            if !seen.contains(&t) {
                seen.push(t);
            }
        }
        sh(&phone, "input swipe 540 1800 540 900 300");
    }
    let expected = [
        "Network & internet",
        "Connected devices",
        "Apps",
        "Notifications",
        "Battery",
        "Storage",
        "Sound & vibration",
        "Display",
        "Wallpaper & style",
        "Accessibility",
        "Security & privacy",
        "Location",
        "Safety & emergency",
        "Passwords & accounts",
        "Digital Wellbeing & parental controls",
        "System",
        "About phone",
    ];
    assert_eq!(seen, expected, "in order, each once, reached by scrolling");
}

#[test]
fn about_phone_matches_getprop() {
    let phone = boot(0);
    launch(&phone);
    open(&phone, "About phone");
    let h = dump(&phone);
    assert_eq!(
        summary_of(&h, "Model"),
        sh(&phone, "getprop ro.product.model").trim()
    );
    assert_eq!(summary_of(&h, "Model"), "Pixel 6");
    assert_eq!(summary_of(&h, "Android version"), "14");
    let build = sh(&phone, "getprop ro.build.display.id");
    open(&phone, "Build number");
    assert_eq!(summary_of(&dump(&phone), "Build number"), build.trim());
    open(&phone, "Android version");
    let h = dump(&phone);
    assert_eq!(
        summary_of(&h, "Android security update"),
        "February 5, 2024"
    );
    assert!(sh(&phone, "logcat -d -s SettingsActivity:D").contains("FirmwareVersionSettings"));
}

#[test]
fn search_finds_pages_and_switches() {
    let phone = boot(0);
    launch(&phone);
    let h = dump(&phone);
    let bar = h
        .nodes
        .iter()
        .find(|n| n.resource_id == format!("{SETTINGS}:id/search_action_bar"))
        .expect("search bar")
        .bounds
        .center();
    sh(&phone, &format!("input tap {} {}", bar.x, bar.y));
    for (query, hit) in [
        ("about", "About phone"),
        ("version", "Android version"),
        ("wifi", "Wi-Fi"),
        ("adaptive", "Adaptive brightness"),
        ("font", "Font size"),
        ("do not disturb", "Do Not Disturb"),
        ("battery saver", "Battery Saver"),
        ("24-hour", "Use 24-hour format"),
    ] {
        sh(&phone, "input keyevent KEYCODE_MOVE_END");
        for _ in 0..20 {
            sh(&phone, "input keyevent DEL");
        }
        sh(
            &phone,
            &format!("input text '{}'", query.replace(' ', "%s")),
        );
        let h = dump(&phone);
        assert!(
            titles(&h).iter().any(|t| t == hit),
            "searching {query:?} should list {hit:?}: {:?}",
            titles(&h)
        );
    }
    // A result opens the page that holds it.
    let h = dump(&phone);
    let n = find(&h, "Use 24-hour format").expect("result");
    let c = n.bounds.center();
    sh(&phone, &format!("input tap {} {}", c.x, c.y));
    let h = dump(&phone);
    assert!(
        find(&h, "Set time automatically").is_some(),
        "Date & time opened"
    );
}

/// AndroidWorld's SystemBrightnessMin/Max read `settings get system screen_brightness` and want
/// exactly `1` or `255`: the slider's two ends (a tap in the track's end padding counts as the end,
/// as `AbsSeekBar` clamps it), while a tap a little short of an end is not the end.
#[test]
fn the_brightness_slider_ends_are_exactly_1_and_255() {
    let phone = boot(0);
    sh(&phone, "settings put system screen_brightness 255");
    launch(&phone);
    open(&phone, "Display");
    let seek = slider(&dump(&phone), "brightness slider");
    let y = seek.center().y;
    let level = |phone: &Phone| sh(phone, "settings get system screen_brightness");
    sh(
        &phone,
        &format!("input swipe {} {y} 0 {y} 300", seek.center().x),
    );
    assert_eq!(level(&phone), "1\n", "dragged past the start");
    sh(&phone, &format!("input tap {} {y}", seek.right - 20));
    assert_eq!(level(&phone), "255\n", "a tap in the end padding");
    sh(&phone, &format!("input tap {} {y}", seek.left + 20));
    assert_eq!(level(&phone), "1\n", "a tap in the start padding");
    sh(&phone, &format!("input tap {} {y}", seek.right - 60));
    let short = level(&phone).trim().parse::<i32>().unwrap();
    assert!((200..255).contains(&short), "short of the end: {short}");
}

#[test]
fn display_keeps_adaptive_brightness_and_has_its_font_size_page() {
    let phone = boot(0);
    launch(&phone);
    open(&phone, "Display");
    let adaptive = sh(&phone, "settings get system screen_brightness_mode");
    assert_eq!(adaptive, "1\n");
    let seek = slider(&dump(&phone), "brightness slider");
    let y = seek.center().y;
    sh(
        &phone,
        // Dragged past the end of the track, as a finger flinging it to the maximum does.
        &format!("input swipe {} {y} 1079 {y} 300", seek.left + 10),
    );
    assert_eq!(sh(&phone, "settings get system screen_brightness"), "255\n");
    assert_eq!(
        sh(&phone, "settings get system screen_brightness_mode"),
        adaptive,
        "dragging the slider must not switch adaptive brightness off"
    );
    // Display's summary promises font size: the page is there and its slider scales text.
    open(&phone, "Display size and text");
    let seek = slider(&dump(&phone), "font size slider");
    let y = seek.center().y;
    sh(
        &phone,
        &format!("input swipe {} {y} 1079 {y} 300", seek.center().x),
    );
    assert_eq!(sh(&phone, "settings get system font_scale"), "2.0\n");
}

/// The title in the collapsing toolbar of the page on screen (empty on the homepage).
fn page_title(phone: &Phone) -> String {
    dump(phone)
        .nodes
        .iter()
        .find(|n| n.resource_id == "com.android.settings:id/collapsing_toolbar")
        .map(|n| n.content_desc.clone())
        .unwrap_or_default()
}

fn focus(phone: &Phone) -> String {
    sh(phone, "dumpsys window | grep mCurrentFocus")
}

/// `am start -a android.settings.…` opens the page itself, in the manifest's shortcut activity, and
/// Back from it leaves Settings (no homepage under it), as on Android 14.
#[test]
fn settings_actions_open_their_pages_directly() {
    let phone = boot(0);
    assert_eq!(
        sh(&phone, "am start -a android.settings.DISPLAY_SETTINGS"),
        "Starting: Intent { act=android.settings.DISPLAY_SETTINGS }\n"
    );
    assert_eq!(page_title(&phone), "Display");
    slider(&dump(&phone), "brightness slider");
    let shown = focus(&phone);
    assert!(
        shown.contains(
            "com.android.settings/com.android.settings.Settings$DisplaySettingsActivity}"
        ),
        "{shown}"
    );
    // A page opened from the shortcut goes back to it, not to the homepage.
    open(&phone, "Display size and text");
    assert!(focus(&phone).contains("com.android.settings.SubSettings}"));
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert_eq!(page_title(&phone), "Display");
    assert!(focus(&phone).contains("Settings$DisplaySettingsActivity}"));
    sh(&phone, "input keyevent KEYCODE_BACK");
    assert!(!focus(&phone).contains(SETTINGS), "{}", focus(&phone));

    for (action, title, activity) in [
        (
            "WIFI_SETTINGS",
            "Internet",
            "NetworkProviderSettingsActivity",
        ),
        (
            "BLUETOOTH_SETTINGS",
            "Bluetooth",
            "BluetoothDashboardActivity",
        ),
        (
            "SOUND_SETTINGS",
            "Sound & vibration",
            "SoundSettingsActivity",
        ),
        ("DATE_SETTINGS", "Date & time", "DateTimeSettingsActivity"),
        (
            "LOCATION_SOURCE_SETTINGS",
            "Location",
            "LocationSettingsActivity",
        ),
        (
            "APPLICATION_SETTINGS",
            "All apps",
            "ManageApplicationsActivity",
        ),
    ] {
        sh(&phone, &format!("am start -a android.settings.{action}"));
        assert_eq!(page_title(&phone), title, "{action}");
        assert!(
            focus(&phone).contains(&format!("Settings${activity}}}")),
            "{action}: {}",
            focus(&phone)
        );
    }
    // The general action is the homepage, wherever Settings stood.
    sh(&phone, "am start -a android.settings.SETTINGS");
    assert_eq!(page_title(&phone), "");
    assert!(focus(&phone).contains("com.android.settings.Settings}"));
}

/// A switch preference's switch is listed by its row's title (Android's accessibility announces
/// it so), not as a nameless `switch #switch_widget` a model must pair with the row by position.
#[test]
fn settings_switches_are_named_by_their_rows_title_in_the_element_list() {
    use droidmcp::hierarchy::{ElementList, Options, Role};
    let phone = boot(0);
    for (action, title) in [
        ("WIRELESS_SETTINGS", "Airplane mode"),
        ("WIFI_SETTINGS", "Wi-Fi"),
        ("BLUETOOTH_SETTINGS", "Use Bluetooth"),
    ] {
        sh(&phone, &format!("am start -a android.settings.{action}"));
        let list = ElementList::from_hierarchy(&dump(&phone), &Options::default());
        let switches: Vec<_> = list
            .elements
            .iter()
            .filter(|e| e.role == Role::Switch)
            .collect();
        assert!(!switches.is_empty(), "{action}: no switch");
        for e in &switches {
            assert!(!e.label().is_empty(), "{action}: nameless switch {e:?}");
        }
        let named: Vec<String> = switches
            .iter()
            .map(|e| droidmcp::hierarchy::format::compact_line(e, false))
            .collect();
        assert!(
            named.iter().any(|l| l.ends_with(&format!(": {title}"))),
            "{action}: {named:?}"
        );
    }
}

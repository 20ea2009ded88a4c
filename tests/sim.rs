//! The embedded phone driven only through `Phone::exec`, as an adb client drives a real phone.

use droidmcp::sim::{Phone, Profile, SimConfig};

use crate::util::{boot, sh};

fn dump(phone: &Phone) -> String {
    let out = sh(phone, "uiautomator dump /dev/tty");
    out.strip_suffix("UI hierchary dumped to: /dev/tty\n")
        .expect("dump ends with the dumped-to line")
        .to_string()
}

/// Attribute names of every `<node>` in a dump, in document order (parsed with quick-xml).
fn node_attributes(xml: &str) -> Vec<Vec<String>> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut nodes = Vec::new();
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Start(e)) | Ok(quick_xml::events::Event::Empty(e)) => {
                if e.name().as_ref() == b"node" {
                    nodes.push(
                        e.attributes()
                            .map(|a| {
                                String::from_utf8_lossy(
                                    a.expect("well-formed attribute").key.as_ref(),
                                )
                                .into_owned()
                            })
                            .collect(),
                    );
                }
            }
            Ok(quick_xml::events::Event::Eof) => break,
            Err(e) => panic!("dump does not parse: {e}"),
            _ => {}
        }
    }
    nodes
}

fn shared_dir() -> Option<std::path::PathBuf> {
    let manifest = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // The repo's own copy first (a clean checkout has it), then the shared research folder.
    [manifest.join("tests"), crate::util::shared_dir()]
        .into_iter()
        .find(|d| d.join("corpus/uiautomator/INDEX.tsv").exists())
}

#[test]
fn boots_to_the_launcher_and_dumps_one_line_xml() {
    let phone = boot(0);
    let xml = dump(&phone);
    assert!(xml.starts_with("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"com.google.android.apps.nexuslauncher\""));
    assert!(xml.ends_with("</hierarchy>"));
    assert!(!xml.contains('\n'));
    assert!(
        !xml.contains("com.android.systemui"),
        "uiautomator dumps only the active window"
    );
    assert_eq!(
        sh(&phone, "uiautomator dump"),
        "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    );
    assert_eq!(sh(&phone, "cat /sdcard/window_dump.xml"), xml);
    assert!(!node_attributes(&xml).is_empty());
    let compressed = sh(&phone, "uiautomator dump --compressed /dev/tty");
    assert!(compressed.len() < xml.len() + 40);
}

#[test]
fn dump_attributes_match_real_android_14_dumps() {
    let phone = boot(0);
    let ours = node_attributes(&dump(&phone));
    let Some(shared) = shared_dir() else {
        panic!("the real uiautomator corpus is missing (set DROIDMCP_SHARED)");
    };
    let index =
        std::fs::read_to_string(shared.join("corpus/uiautomator/INDEX.tsv")).expect("corpus index");
    let mut compared = 0;
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(file), Some(notes)) = (cols.first(), cols.get(8)) else {
            continue;
        };
        if !notes.contains("extra attrs: drawing-order,hint;") {
            continue;
        }
        let Ok(real) = std::fs::read_to_string(shared.join("corpus/uiautomator").join(file)) else {
            continue;
        };
        for real_node in node_attributes(&real)
            .into_iter()
            .filter(|n| n[0] != "NAF")
            .take(3)
        {
            assert_eq!(real_node, ours[0], "{file}");
            compared += 1;
        }
    }
    assert!(compared >= 10, "compared {compared} real nodes");
    assert!(ours
        .iter()
        .all(|n| n == &ours[0] || n[0] == "NAF" && n[1..] == ours[0][..]));
}

#[test]
fn monkey_and_am_start_change_the_foreground_app() {
    let phone = boot(0);
    let out = sh(
        &phone,
        "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1",
    );
    assert!(out.contains("Events injected: 1"));
    let focus = sh(&phone, "dumpsys window | grep mCurrentFocus");
    assert!(focus.trim().starts_with("mCurrentFocus=Window{"), "{focus}");
    assert!(focus.contains(" u0 com.android.settings/com.android.settings.Settings}"));
    let top = sh(
        &phone,
        "dumpsys activity activities | grep topResumedActivity",
    );
    assert!(top.contains("u0 com.android.settings/.Settings t"), "{top}");
    let log = sh(&phone, "logcat -d -s ActivityTaskManager:I");
    assert!(log.contains(" I ActivityTaskManager: START u0 {act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp=com.android.settings/.Settings}"), "{log}");
    assert!(sh(&phone, "logcat -d ActivityManager:I *:S").contains("Start proc"));

    let bad = phone.exec("monkey -p com.example.nope -c android.intent.category.LAUNCHER 1");
    assert_eq!(bad.exit_code, 252);
    assert_eq!(
        bad.stderr_text(),
        "** No activities found to run, monkey aborted.\n"
    );

    let out = sh(
        &phone,
        "am start -n com.google.android.deskclock/com.android.deskclock.DeskClock",
    );
    assert_eq!(
        out,
        "Starting: Intent { cmp=com.google.android.deskclock/com.android.deskclock.DeskClock }\n"
    );
    assert!(sh(&phone, "dumpsys window").contains("mCurrentFocus=Window{"));
    assert!(sh(&phone, "logcat -d | grep -c 'START.*com.android.deskclock'").trim() == "1");
    let err = phone.exec("am start -n com.android.settings/.Nope");
    assert_ne!(err.exit_code, 0);
    assert!(err.stderr_text().contains(
        "Error: Activity class {com.android.settings/com.android.settings.Nope} does not exist."
    ));
    assert_eq!(
        sh(
            &phone,
            "cmd package resolve-activity --brief com.android.settings"
        )
        .lines()
        .last(),
        Some("com.android.settings/.Settings")
    );
    // The home app declares HOME, not LAUNCHER: it is no app to launch from a list of apps.
    let launcher = "com.google.android.apps.nexuslauncher";
    assert_eq!(
        sh(
            &phone,
            &format!("cmd package resolve-activity --brief -c android.intent.category.LAUNCHER {launcher}")
        ),
        "No activity found\n"
    );
    assert!(sh(
        &phone,
        "cmd package resolve-activity --brief -c android.intent.category.LAUNCHER com.google.android.deskclock"
    )
    .ends_with("com.google.android.deskclock/com.android.deskclock.DeskClock\n"));
    assert!(sh(
        &phone,
        "cmd package resolve-activity --brief -a android.intent.action.MAIN -c android.intent.category.HOME"
    )
    .contains(launcher));
}

#[test]
fn navigation_bar_taps_and_keys() {
    let phone = boot(0);
    sh(&phone, "monkey -p com.android.settings 1");
    // Pixel 6: 2400 px tall, navigation bar 48dp = 126 px; Home is in the middle.
    sh(&phone, "input tap 540 2337");
    assert!(sh(&phone, "dumpsys window | grep mCurrentFocus").contains("nexuslauncher"));
    sh(&phone, "input keyevent APP_SWITCH");
    let overview = dump(&phone);
    assert!(overview.contains("content-desc=\"Settings\""));
    assert!(overview.contains("text=\"Clear all\""));
    sh(&phone, "input keyevent HOME");
    sh(&phone, "monkey -p com.android.settings 1; input keyevent 4");
    assert!(sh(&phone, "dumpsys window | grep mCurrentFocus").contains("nexuslauncher"));
    // Taps outside the screen do nothing and succeed, like the real `input`.
    sh(&phone, "input tap -5 99999");
}

#[test]
fn settings_content_and_volume_keys() {
    let phone = boot(0);
    assert_eq!(sh(&phone, "settings get global airplane_mode_on"), "0\n");
    assert_eq!(sh(&phone, "settings get secure ui_night_mode"), "1\n");
    assert_eq!(sh(&phone, "settings get system nope"), "null\n");
    sh(&phone, "settings put global airplane_mode_on 1");
    assert_eq!(sh(&phone, "settings get global airplane_mode_on"), "1\n");
    assert!(sh(&phone, "settings list global").contains("airplane_mode_on=1\n"));
    assert_eq!(
        sh(&phone, "settings delete system nope"),
        "Deleted 0 rows\n"
    );
    let row = sh(
        &phone,
        "content query --uri content://settings/global --where \"name='airplane_mode_on'\"",
    );
    assert!(row.starts_with("Row: 0 _id="), "{row}");
    assert!(row.ends_with(", name=airplane_mode_on, value=1\n"), "{row}");
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://settings/global --where \"name='zzz'\""
        ),
        "No result found.\n"
    );
    let bad = phone.exec("settings get");
    assert_eq!(bad.exit_code, 255);
    let before = sh(&phone, "settings get system volume_music_speaker");
    sh(&phone, "input keyevent VOLUME_UP");
    let after = sh(&phone, "settings get system volume_music_speaker");
    assert_eq!(
        after.trim().parse::<i32>().unwrap(),
        before.trim().parse::<i32>().unwrap() + 1
    );
    assert!(sh(&phone, "logcat -d -s vol.Events:I")
        .contains("vol.Events: writeEvent level_changed STREAM_MUSIC 6"));
    assert!(sh(&phone, "logcat -d -s SettingsProvider:V")
        .contains("content://settings/global/airplane_mode_on"));
    assert!(
        sh(&phone, "media volume --stream 3 --get").contains("[V] volume is 6 in range [0..15]")
    );
}

#[test]
fn shell_language_and_files() {
    let phone = boot(0);
    assert_eq!(sh(&phone, "false; echo $?"), "1\n");
    assert_eq!(sh(&phone, "false && echo no || echo yes"), "yes\n");
    assert_eq!(sh(&phone, "echo 'a b' \"c d\" | grep -o 'b c'"), "b c\n");
    assert_eq!(sh(&phone, "printf_missing 2>/dev/null; echo $?"), "127\n");
    let out = phone.exec("foo");
    assert_eq!(
        (out.exit_code, out.stderr_text().as_str()),
        (127, "/system/bin/sh: foo: not found\n")
    );
    sh(
        &phone,
        "mkdir -p /sdcard/a/b && echo hi > /sdcard/a/b/f.txt && echo there >> /sdcard/a/b/f.txt",
    );
    assert_eq!(sh(&phone, "cat /sdcard/a/b/f.txt"), "hi\nthere\n");
    assert_eq!(
        sh(&phone, "cat /storage/emulated/0/a/b/f.txt | wc -l"),
        "2\n"
    );
    assert_eq!(sh(&phone, "ls /sdcard/a/b"), "f.txt\n");
    assert_eq!(
        phone.read_file("/sdcard/a/b/f.txt").unwrap(),
        b"hi\nthere\n"
    );
    phone
        .write_file("/data/local/tmp/pushed", b"x", 0o644)
        .unwrap();
    assert_eq!(sh(&phone, "cat /data/local/tmp/pushed"), "x");
    sh(&phone, "rm -r /sdcard/a");
    let missing = phone.exec("cat /sdcard/a/b/f.txt");
    assert_eq!(
        (missing.exit_code, missing.stderr_text().as_str()),
        (1, "cat: /sdcard/a/b/f.txt: No such file or directory\n")
    );
    assert_eq!(sh(&phone, "echo Hello | grep -ci hello"), "1\n");
    assert_eq!(
        sh(&phone, "echo one two | head -n 1 | tail -1"),
        "one two\n"
    );
    let db = "/data/local/tmp/t.db";
    sh(
        &phone,
        &format!("sqlite3 {db} \"CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 'x'), (2, NULL)\""),
    );
    assert_eq!(
        sh(&phone, &format!("sqlite3 {db} 'SELECT * FROM t'")),
        "1|x\n2|\n"
    );
    let err = phone.exec(&format!("sqlite3 {db} 'SELECT * FROM nope'"));
    assert_eq!(err.exit_code, 1);
    assert!(err.stderr_text().starts_with("Error: "));
    let syntax = phone.exec("echo 'unterminated");
    assert_eq!(syntax.exit_code, 1);
    assert!(syntax
        .stderr_text()
        .starts_with("/system/bin/sh: syntax error"));
}

#[test]
fn device_properties_clock_and_display() {
    let phone = boot(7);
    assert_eq!(sh(&phone, "getprop ro.build.version.sdk"), "34\n");
    assert_eq!(sh(&phone, "getprop ro.product.model"), "Pixel 6\n");
    assert_eq!(sh(&phone, "wm size"), "Physical size: 1080x2400\n");
    assert_eq!(sh(&phone, "wm density"), "Physical density: 420\n");
    let t0: i64 = sh(&phone, "date +%s").trim().parse().unwrap();
    sh(&phone, "sleep 60");
    let t1: i64 = sh(&phone, "date +%s").trim().parse().unwrap();
    assert!((60..62).contains(&(t1 - t0)), "{t0} {t1}");
    sh(&phone, "wm size 720x1280");
    assert_eq!(
        sh(&phone, "wm size"),
        "Physical size: 1080x2400\nOverride size: 720x1280\n"
    );
    assert!(dump(&phone).contains("bounds=\"[0,0][720,1280]\""));
    let raw = phone.exec("screencap").stdout;
    assert_eq!(
        &raw[..16],
        &[208, 2, 0, 0, 0, 5, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    );
    assert_eq!(raw.len(), 16 + 720 * 1280 * 4);
    let tablet = Phone::new(SimConfig {
        profile: Profile::TABLET,
        ..SimConfig::default()
    })
    .unwrap();
    assert_eq!(sh(&tablet, "wm size"), "Physical size: 2560x1600\n");
    let png = tablet.exec("screencap -p").stdout;
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn same_seed_same_bytes() {
    let script = [
        "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1",
        "input swipe 540 1800 540 600",
        "input keyevent HOME",
        "input keyevent APP_SWITCH",
        "date",
    ];
    let run = |seed| {
        let phone = boot(seed);
        let mut out = Vec::new();
        for line in script {
            out.extend(phone.exec(line).stdout);
        }
        out.extend(phone.exec("uiautomator dump /dev/tty").stdout);
        out.extend(phone.exec("screencap -p").stdout);
        out.extend(phone.exec("logcat -d").stdout);
        out
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
}

#[test]
fn garbage_never_panics_and_fails_like_sh() {
    use rand::{Rng, SeedableRng};
    let phone = boot(0);
    let words = [
        "input",
        "tap",
        "swipe",
        "keyevent",
        "text",
        "am",
        "start",
        "-n",
        "pm",
        "clear",
        "settings",
        "put",
        "get",
        "global",
        "logcat",
        "-s",
        "uiautomator",
        "dump",
        "screencap",
        "-p",
        "wm",
        "size",
        "0x0",
        "99999x1",
        "content",
        "query",
        "--uri",
        "monkey",
        "-1",
        "sqlite3",
        "'",
        "\"",
        "\\",
        "|",
        "||",
        "&&",
        ";",
        ">",
        ">>",
        "2>&1",
        "<",
        "$?",
        "${",
        "💥",
        "-9999999999999",
        "NaN",
        "1e308",
        "%s",
        "cat",
        "/..",
        "../../etc/passwd",
        "rm",
        "-rf",
        "/",
        "grep",
        "-E",
        "(",
        "[",
        "*",
        "date",
        "+%Q",
        "sleep",
        "inf",
        "dumpsys",
        "cmd",
        "broadcast",
        "-a",
        "ADB_INPUT_B64",
        "--es",
        "msg",
        "!!!",
        "ime",
        "set",
        "com.android.adbkeyboard/.AdbIME",
        "head",
        "-n",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    for _ in 0..600 {
        let n = rng.gen_range(0..8);
        let mut line: Vec<String> = (0..n)
            .map(|_| words[rng.gen_range(0..words.len())].to_string())
            .collect();
        if rng.gen_bool(0.2) {
            let junk: String = (0..rng.gen_range(0..20))
                .map(|_| char::from_u32(rng.gen_range(0..0x3000)).unwrap_or('?'))
                .collect();
            line.push(junk);
        }
        let line = line.join(" ");
        let out = phone.exec(&line);
        assert!(
            !out.stderr_text().contains("has stopped"),
            "`{line}` crashed"
        );
    }
    assert_eq!(sh(&phone, "echo alive"), "alive\n");
}

/// The centre of the first node whose attributes contain `needle` (e.g. `resource-id="…"`).
fn center(xml: &str, needle: &str) -> (i32, i32) {
    let start = xml
        .find(needle)
        .unwrap_or_else(|| panic!("no node with {needle}"));
    let node_start = xml[..start].rfind("<node ").expect("inside a node");
    let node = &xml[node_start..];
    let b = node.find("bounds=\"").expect("bounds") + 8;
    let end = node[b..].find('"').expect("bounds end");
    let bounds = droidmcp::geom::Bounds::parse(&node[b..b + end]).expect("bounds parse");
    let c = bounds.center();
    (c.x, c.y)
}

fn tap(phone: &Phone, xml: &str, needle: &str) {
    let (x, y) = center(xml, needle);
    sh(phone, &format!("input tap {x} {y}"));
}

#[test]
fn typing_into_the_launcher_search_field() {
    let phone = boot(0);
    tap(&phone, &dump(&phone), "id/all_apps_handle");
    let drawer = dump(&phone);
    assert!(
        drawer.contains("id/search_box_input"),
        "the app drawer has a search field"
    );
    // Typing with no focused field does nothing.
    sh(&phone, "input text zzz");
    assert!(!dump(&phone).contains("text=\"zzz\""));
    tap(&phone, &drawer, "id/search_box_input");
    let focused = dump(&phone);
    let (_, y) = center(&focused, "id/search_box_input");
    assert!(focused.contains("class=\"android.widget.EditText\" package=\"com.google.android.apps.nexuslauncher\" content-desc=\"\" checkable=\"false\" checked=\"false\" clickable=\"true\" enabled=\"true\" focusable=\"true\" focused=\"true\""));
    assert!(sh(&phone, "dumpsys input_method").contains("mInputShown=true"));
    sh(&phone, "input text 'Cal%sc'");
    assert!(dump(&phone).contains("text=\"Cal c\""));
    sh(&phone, "input keyevent DEL DEL");
    assert!(dump(&phone).contains("text=\"Cal\""));
    // The keyboard is drawn (screencap) but, as on Android 14, not dumped.
    assert!(!dump(&phone).contains("inputmethod"));
    // ADBKeyboard: arbitrary Unicode once it is the IME.
    sh(
        &phone,
        "ime enable com.android.adbkeyboard/.AdbIME && ime set com.android.adbkeyboard/.AdbIME",
    );
    sh(&phone, "am broadcast -a ADB_CLEAR_TEXT");
    use base64::Engine;
    for text in [
        "안녕하세요",
        "مرحبا",
        "😀 emoji",
        "quote's \"double\" & <tag>",
    ] {
        let b64 = base64::engine::general_purpose::STANDARD.encode(text);
        sh(&phone, "am broadcast -a ADB_CLEAR_TEXT");
        let out = sh(
            &phone,
            &format!("am broadcast -a ADB_INPUT_B64 --es msg {b64}"),
        );
        assert!(out.starts_with("Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000"));
        let escaped = text
            .replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(
            dump(&phone).contains(&format!("text=\"{escaped}\"")),
            "{text}"
        );
    }
    assert!(y > 0);
}

#[test]
fn swiping_a_real_list_scrolls_it() {
    let phone = boot(0);
    // At a large density ten contacts no longer fit on screen (layout scales with density).
    sh(&phone, "wm density 800");
    sh(
        &phone,
        "monkey -p com.google.android.contacts -c android.intent.category.LAUNCHER 1",
    );
    let before = dump(&phone);
    assert!(before.contains("text=\"Alice Kim\""));
    sh(&phone, "input swipe 540 1900 540 700 1000");
    let after = dump(&phone);
    assert!(
        !after.contains("text=\"Alice Kim\""),
        "the first contact scrolled off"
    );
    sh(&phone, "input swipe 540 700 540 1900 1000");
    assert!(dump(&phone).contains("text=\"Alice Kim\""));
    assert!(
        !dump(&phone).contains("text=\"Oliver Patel\""),
        "the last contact is below the fold"
    );
    sh(&phone, "input swipe 540 1900 540 400 60");
    assert!(
        dump(&phone).contains("text=\"Oliver Patel\""),
        "a fling reaches the end"
    );
}

#[test]
fn screencap_draws_system_bars_and_the_keyboard() {
    let phone = boot(0);
    let decode = |png: Vec<u8>| image::load_from_memory(&png).expect("valid PNG").to_rgba8();
    let home = decode(phone.exec("screencap -p").stdout);
    assert_eq!(home.dimensions(), (1080, 2400));
    // The status bar clock (left) and the navigation bar's home button (centre) put dark pixels on light.
    let dark_in = |img: &image::RgbaImage, x0: u32, y0: u32, x1: u32, y1: u32| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let p = img.get_pixel(x, y);
                (p[0] as u32 + p[1] as u32 + p[2] as u32) < 200
            })
            .count()
    };
    assert!(dark_in(&home, 0, 0, 300, 63) > 50, "status bar clock");
    let nav_bg = *home.get_pixel(5, 2395);
    let icon_pixels = (2274..2400)
        .flat_map(|y| (440..640).map(move |x| (x, y)))
        .filter(|&(x, y)| *home.get_pixel(x, y) != nav_bg)
        .count();
    assert!(icon_pixels > 50, "home button");
    tap(&phone, &dump(&phone), "id/all_apps_handle");
    tap(&phone, &dump(&phone), "id/search_box_input");
    let typing = decode(phone.exec("screencap -p").stdout);
    let changed = (1500..2274)
        .filter(|&y| typing.get_pixel(100, y) != home.get_pixel(100, y))
        .count();
    assert!(
        changed > 300,
        "the keyboard covers the bottom of the screen"
    );
    assert!(
        dark_in(&typing, 0, 1600, 1080, 2274) > 500,
        "key labels are drawn"
    );
    // Screen off: black frame.
    sh(&phone, "input keyevent POWER");
    let off = decode(phone.exec("screencap -p").stdout);
    assert!(off.pixels().all(|p| p.0 == [0, 0, 0, 255]));
    assert!(sh(&phone, "dumpsys power").contains("mWakefulness=Asleep"));
}

#[test]
fn font_scale_and_density_change_the_layout() {
    let phone = boot(0);
    sh(&phone, "monkey -p com.android.settings 1");
    let normal = dump(&phone);
    sh(&phone, "settings put system font_scale 1.5");
    let large = dump(&phone);
    assert_ne!(normal, large);
    sh(&phone, "settings put system font_scale 1.0; wm density 280");
    let dense = dump(&phone);
    assert_ne!(normal, dense);
    sh(&phone, "wm density reset");
    assert_eq!(dump(&phone), normal);
}

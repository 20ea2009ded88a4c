//! The renderer behind `screencap` and the Settings and Launcher apps: real pixels for each app's
//! screen (text, icons, widgets, CJK/Hangul glyphs, dark theme) and the settings and logcat lines
//! the apps write.

use droidmcp::geom::Bounds;
use droidmcp::sim::render::{render_scaled, Scale, Theme};
use droidmcp::sim::view::{class, Role, Style, View};
use image::RgbaImage;

use crate::util::inked;

const W: u32 = 1080;
const H: u32 = 2400;

fn scale() -> Scale {
    Scale::DEFAULT
}

/// Saves a rendered frame for eyeballing (kept in the target dir, never asserted on).
fn save(img: &RgbaImage, name: &str) {
    let dir = std::env::temp_dir().join("droidmcp-sim-render");
    let _ = std::fs::create_dir_all(&dir);
    let _ = img.save(dir.join(format!("{name}.png")));
}

fn text_view(text: &str, b: Bounds) -> View {
    View::new(class::TEXT_VIEW, b).text(text).style(Style {
        text_size_sp: Some(20.0),
        ..Style::default()
    })
}

#[test]
fn text_draws_dark_pixels_inside_its_bounds_only() {
    let b = Bounds::new(40, 100, 1040, 200);
    let root = View::new(class::FRAME_LAYOUT, Bounds::new(0, 0, 1080, 2400))
        .child(text_view("Network & internet", b));
    let img = render_scaled(&[root], W, H, Theme { dark: false }, scale());
    save(&img, "text");
    let bg = img.get_pixel(5, 5).0;
    assert!(inked(&img, b, bg) > 500, "text should leave glyph pixels");
    assert_eq!(inked(&img, Bounds::new(0, 0, 1080, 99), bg), 0);
    assert_eq!(inked(&img, Bounds::new(0, 201, 1080, 2400), bg), 0);
}

/// An EditText of `field` holding `text` on a white frame `height` px tall, and that background.
fn edit_text_frame(field: Bounds, text: &str, height: u32) -> (RgbaImage, [u8; 4]) {
    let root = View::new(class::FRAME_LAYOUT, Bounds::new(0, 0, 1080, height as i32)).child(
        View::new(class::EDIT_TEXT, field)
            .text(text)
            .editable("field"),
    );
    let img = render_scaled(&[root], W, height, Theme { dark: false }, scale());
    let bg = img.get_pixel(5, 5).0;
    (img, bg)
}

#[test]
fn a_note_editor_shows_its_text_from_the_top() {
    // Markor's editor fills the screen below its toolbar; its text starts at the top, as the
    // app's gravity `top` lays it out, so a screenshot shows a note where the note begins.
    let note = "Date, Item, Amount\n\n2023-09-26, Monitor Stand, $49.67";
    let (img, bg) = edit_text_frame(Bounds::new(0, 200, 1080, 1600), note, 1700);
    save(&img, "note_editor");
    assert!(inked(&img, Bounds::new(0, 200, 1080, 500), bg) > 500);
    assert_eq!(inked(&img, Bounds::new(0, 600, 1080, 1500), bg), 0);
    // A one-line field still centres its text.
    let (img, bg) = edit_text_frame(Bounds::new(0, 100, 1080, 247), "Title", 300);
    assert_eq!(inked(&img, Bounds::new(0, 100, 1080, 130), bg), 0);
    assert!(inked(&img, Bounds::new(0, 140, 1080, 210), bg) > 100);
}

#[test]
fn cjk_and_hangul_draw_real_glyphs_not_notdef_boxes() {
    use droidmcp::sim::render::text::resolve;
    for c in ['设', '置', '日', 'の', '한', '국', 'É', 'ß'] {
        assert_ne!(resolve(c, false).1 .0, 0, "{c} has a glyph");
    }
    let frame = |t: &str| {
        let b = Bounds::new(40, 100, 1040, 200);
        let root =
            View::new(class::FRAME_LAYOUT, Bounds::new(0, 0, 1080, 400)).child(text_view(t, b));
        render_scaled(&[root], W, 400, Theme { dark: false }, scale())
    };
    // Three private-use characters draw the fallback font's .notdef box three times.
    let tofu = frame("\u{E000}\u{E001}\u{E002}");
    for (i, text) in ["한국어", "设置了", "日本語"].iter().enumerate() {
        let img = frame(text);
        save(&img, &format!("script-{i}"));
        let bg = img.get_pixel(5, 5).0;
        assert!(
            inked(&img, Bounds::new(40, 100, 1040, 200), bg) > 300,
            "{text} leaves ink"
        );
        assert_ne!(img, tofu, "{text} must not render as .notdef boxes");
    }
}

#[test]
fn emoji_draw_from_the_bundled_emoji_font_not_notdef_boxes() {
    use droidmcp::sim::render::text::{resolve, Face};
    for c in ['😀', '👍', '❤', '🎉', '☕', '🚀'] {
        let (face, id) = resolve(c, false);
        assert_eq!(face, Face::Emoji, "{c} comes from the emoji font");
        assert_ne!(id.0, 0, "{c} has a glyph");
    }
    // Latin and CJK keep their own faces.
    assert_eq!(resolve('A', false).0, Face::Regular);
    assert_eq!(resolve('设', false).0, Face::Fallback);
    let frame = |t: &str| {
        let b = Bounds::new(40, 100, 1040, 200);
        let root =
            View::new(class::FRAME_LAYOUT, Bounds::new(0, 0, 1080, 400)).child(text_view(t, b));
        render_scaled(&[root], W, 400, Theme { dark: false }, scale())
    };
    let tofu = frame("\u{E000}\u{E001}\u{E002}");
    let img = frame("😀👍🎉");
    save(&img, "emoji");
    let bg = img.get_pixel(5, 5).0;
    assert!(inked(&img, Bounds::new(40, 100, 1040, 200), bg) > 300);
    assert_ne!(img, tofu, "emoji must not render as .notdef boxes");
    // Each emoji draws its own shape.
    assert_ne!(frame("😀"), frame("👍"));
}

#[test]
fn switch_pixels_follow_checked() {
    let b = Bounds::new(40, 40, 1040, 200);
    let frame = |on: bool| {
        let root = View::new(class::FRAME_LAYOUT, Bounds::new(0, 0, 1080, 240))
            .child(View::new(class::SWITCH, b).checked(on));
        render_scaled(&[root], W, 240, Theme { dark: false }, scale())
    };
    let (on, off) = (frame(true), frame(false));
    let bg = on.get_pixel(5, 5).0;
    assert!(inked(&on, b, bg) > 1000 && inked(&off, b, bg) > 500);
    let differing = on
        .pixels()
        .zip(off.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        differing > 2000,
        "checked and unchecked switches differ ({differing} px)"
    );
}

/// Every widget class and every named icon on one screen.
fn gallery(switch_on: bool) -> View {
    let s = scale();
    let row = |i: i32| {
        Bounds::new(
            s.dp(16.0),
            100 + i * s.dp(64.0),
            1080 - s.dp(16.0),
            100 + i * s.dp(64.0) + s.dp(56.0),
        )
    };
    let mut root = View::new(class::FRAME_LAYOUT, Bounds::new(0, 0, 1080, 2400));
    root = root
        .child(View::new(class::BUTTON, row(0)).text("Force stop"))
        .child(View::new(class::SWITCH, row(1)).text("Airplane mode").checked(switch_on))
        .child(View::new(class::CHECK_BOX, row(2)).text("Repeat").checked(true))
        .child(View::new(class::RADIO_BUTTON, row(3)).text("English").checked(true))
        .child({
            let mut v = View::new(class::SEEK_BAR, row(4));
            v.range = Some((60, 100));
            v
        })
        .child(View::new(class::EDIT_TEXT, row(5)).hint("Search settings"))
        .child(text_view("设置 한국어 日本語 Ελληνικά", row(6)))
        .child(
            View::new(class::TEXT_VIEW, row(7))
                .text("A very long summary that cannot possibly fit on a single line of this phone screen")
                .style(Style { text_role: Some(Role::Secondary), ..Style::default() }),
        );
    let names = [
        "back",
        "home",
        "recents",
        "add",
        "alarm",
        "wifi",
        "bluetooth",
        "airplane",
        "battery",
        "search",
        "call",
        "call_end",
        "message",
        "send",
        "backspace",
        "settings",
        "more",
        "display",
        "sound",
        "apps",
        "info",
        "language",
        "devices",
        "calculator",
        "calendar",
        "person",
        "timer",
        "stopwatch",
        "delete",
        "nope",
    ];
    let size = s.dp(40.0);
    for (i, name) in names.iter().enumerate() {
        let x = s.dp(16.0) + (i as i32 % 10) * (size + s.dp(8.0));
        let y = 100 + 9 * s.dp(64.0) + (i as i32 / 10) * (size + s.dp(8.0));
        root = root.child(
            View::new(class::IMAGE_BUTTON, Bounds::new(x, y, x + size, y + size))
                .desc(name.to_string())
                .style(Style {
                    icon: Some(name),
                    ..Style::default()
                }),
        );
    }
    root
}

#[test]
fn gallery_renders_widgets_icons_and_scripts() {
    let img = render_scaled(&[gallery(true)], W, H, Theme { dark: false }, scale());
    save(&img, "gallery");
    let img = render_scaled(&[gallery(false)], W, H, Theme { dark: true }, scale());
    save(&img, "gallery-dark");
}

mod apps {
    //! Settings and Launcher driven through the App contract (the framework's role played by the
    //! helpers below: hit-testing a tap, delivering the event, rendering the frame).

    use super::*;
    use chrono::NaiveDate;
    use droidmcp::sim::app::{App, UiEvent};
    use droidmcp::sim::apps::{launcher, settings};
    use droidmcp::sim::system::{Namespace, Request, SimClock, System};
    use droidmcp::sim::view::Metrics;

    pub struct Rig {
        pub sys: System,
        pub app: Box<dyn App>,
        _dir: tempfile::TempDir,
    }

    fn metrics() -> Metrics {
        let s = scale();
        Metrics {
            width: W as i32,
            height: H as i32,
            density: s.density,
            font_scale: s.font_scale,
            content: Bounds::new(0, s.dp(24.0), W as i32, H as i32 - s.dp(48.0)),
        }
    }

    impl Rig {
        pub fn new(create: fn(&mut System) -> Box<dyn App>) -> Rig {
            let dir = tempfile::tempdir().expect("temp dir");
            let mut sys = System::new(
                dir.path().to_path_buf(),
                SimClock::virtual_at(
                    NaiveDate::from_ymd_opt(2026, 11, 23)
                        .and_then(|d| d.and_hms_opt(9, 30, 0))
                        .expect("valid date"),
                ),
                metrics(),
                0,
            );
            let app = create(&mut sys);
            Rig {
                sys,
                app,
                _dir: dir,
            }
        }

        pub fn frame(&self) -> View {
            self.app.render(&self.sys)
        }

        pub fn png(&self, dark: bool, name: &str) -> RgbaImage {
            let img = render_scaled(&[self.frame()], W, H, Theme { dark }, scale());
            save(&img, name);
            img
        }

        /// Taps the centre of the first view showing `text` (or with that content-desc), as
        /// `input tap` would: the deepest clickable view under the point gets the click.
        pub fn tap(&mut self, text: &str) {
            let frame = self.frame();
            let target = find(&frame, &|v| v.text == text || v.content_desc == text)
                .unwrap_or_else(|| panic!("no view shows {text:?}"));
            let p = target.bounds.center();
            let tag = clickable_at(&frame, p)
                .unwrap_or_else(|| panic!("nothing clickable under {text:?}"));
            self.send(UiEvent::Click(tag));
        }

        pub fn send(&mut self, e: UiEvent) -> bool {
            self.app.handle(&e, &mut self.sys)
        }

        pub fn seek(&mut self, title: &str, value: i32) {
            let frame = self.frame();
            let row = find(&frame, &|v| {
                v.children.iter().any(|c| c.text == title)
                    && v.children.iter().any(|c| c.range.is_some())
            })
            .unwrap_or_else(|| panic!("no slider titled {title:?}"));
            let bar = row
                .children
                .iter()
                .find(|c| c.range.is_some())
                .expect("row has a seek bar");
            let tag = bar.tag.clone().expect("seek bar has a tag");
            self.send(UiEvent::Seek { tag, value });
        }

        pub fn log_matches(&self, tag: &str, level: char, pattern: &str) -> bool {
            let re = regex::Regex::new(pattern).expect("valid regex");
            self.sys
                .logcat
                .entries
                .iter()
                .any(|e| e.tag == tag && e.level == level && re.is_match(&e.message))
        }

        pub fn setting(&self, ns: Namespace, key: &str) -> Option<String> {
            self.sys.settings.get(ns, key).map(str::to_string)
        }
    }

    pub fn find<'a>(v: &'a View, pred: &dyn Fn(&View) -> bool) -> Option<&'a View> {
        if pred(v) {
            return Some(v);
        }
        v.children.iter().find_map(|c| find(c, pred))
    }

    fn clickable_at(v: &View, p: droidmcp::geom::Point) -> Option<String> {
        if !v.bounds.contains(p) {
            return None;
        }
        for c in v.children.iter().rev() {
            if let Some(t) = clickable_at(c, p) {
                return Some(t);
            }
        }
        (v.flags.clickable && v.flags.enabled)
            .then(|| v.tag.clone())
            .flatten()
    }

    /// Apps > "See all N apps", N being every installed app.
    fn see_all_apps() -> String {
        format!("See all {} apps", droidmcp::sim::apps::catalog().len())
    }

    fn settings_rig() -> Rig {
        Rig::new(settings::info().create)
    }

    /// (taps from the homepage, the switch row to tap, namespace, key, value after, log tag,
    /// level, B-MoCA's success regex).
    const TOGGLES: &[(&[&str], &str, Namespace, &str, &str, &str, char, &str)] = &[
        (
            &["Network & internet"],
            "Airplane mode",
            Namespace::Global,
            "airplane_mode_on",
            "1",
            "PhoneGlobals",
            'I',
            "^(.*?)Turning radio off(.*?)airplane",
        ),
        (
            &["Network & internet", "Internet"],
            "Wi-Fi",
            Namespace::Global,
            "wifi_on",
            "0",
            "WifiService",
            'I',
            "^(.*?)setWifiEnabled(.*?)com.android.settings(.*?)enable=false",
        ),
        (
            &["Display"],
            "Dark theme",
            Namespace::Secure,
            "ui_night_mode",
            "2",
            "SettingsProvider",
            'V',
            "^(.*?)content://settings/secure/dark_mode",
        ),
        (
            &["Sound & vibration"],
            "Vibrate for calls",
            Namespace::System,
            "vibrate_when_ringing",
            "1",
            "SettingsProvider",
            'V',
            "^(.*?)vibrate_when_ringing",
        ),
        (
            &["Connected devices", "Connection preferences", "Bluetooth"],
            "Use Bluetooth",
            Namespace::Global,
            "bluetooth_on",
            "1",
            "BluetoothManagerService",
            'D',
            "^enable\\(\\).*packageName=com.android.settings",
        ),
    ];

    #[test]
    fn toggles_write_settings_and_log_benchmark_lines() {
        for (path, switch, ns, key, value, tag, level, re) in TOGGLES {
            let mut rig = settings_rig();
            for step in *path {
                rig.tap(step);
            }
            let before = rig.png(false, &format!("settings-{key}-before"));
            rig.tap(switch);
            assert_eq!(rig.setting(*ns, key).as_deref(), Some(*value), "{switch}");
            assert!(
                rig.log_matches(tag, *level, re),
                "{switch}: no {tag}:{level} line matching {re}"
            );
            let after = rig.png(false, &format!("settings-{key}-after"));
            assert_ne!(
                before, after,
                "{switch}: flipping the switch must change the pixels"
            );
        }
    }

    #[test]
    fn sliders_write_volume_and_brightness() {
        let mut rig = settings_rig();
        rig.tap("Display");
        let adaptive = rig.setting(Namespace::System, "screen_brightness_mode");
        rig.seek("Brightness level", 30);
        assert_eq!(
            rig.setting(Namespace::System, "screen_brightness")
                .as_deref(),
            Some("30")
        );
        // Dragging the slider leaves Adaptive brightness as the user set it.
        assert_eq!(
            rig.setting(Namespace::System, "screen_brightness_mode"),
            adaptive
        );
        assert!(rig.log_matches(
            "DisplayPowerController",
            'V',
            "^(.*?)Brightness(.*?)reason changing to: 'manual'"
        ));

        let mut rig = settings_rig();
        rig.tap("Sound & vibration");
        for (title, key, stream, value) in [
            ("Media volume", "volume_music_speaker", "STREAM_MUSIC", 9),
            (
                "Call volume",
                "volume_voice_earpiece",
                "STREAM_VOICE_CALL",
                5,
            ),
            (
                "Ring & notification volume",
                "volume_ring_speaker",
                "STREAM_RING",
                7,
            ),
            ("Alarm volume", "volume_alarm_speaker", "STREAM_ALARM", 7),
        ] {
            rig.seek(title, value);
            assert_eq!(
                rig.setting(Namespace::System, key),
                Some(value.to_string()),
                "{title}"
            );
            assert!(
                rig.log_matches("vol.Events", 'I', &format!("^(.*?){stream} {value}$")),
                "{title}"
            );
        }
        rig.seek("Media volume", 99);
        assert_eq!(
            rig.setting(Namespace::System, "volume_music_speaker")
                .as_deref(),
            Some("15")
        );
        rig.png(false, "settings-sound");
    }

    #[test]
    fn navigation_logs_fragments_and_activities() {
        let mut rig = settings_rig();
        assert_eq!(rig.app.activity(), "com.android.settings.Settings");
        rig.tap("Apps");
        rig.tap(&see_all_apps());
        assert!(rig.log_matches(
            "SettingsActivity",
            'D',
            "^(.*?)Switching to fragment com.android.settings.applications.manageapplications.ManageApplications"
        ));
        assert_eq!(rig.app.activity(), "com.android.settings.SubSettings");
        rig.png(false, "settings-all-apps");
        rig.tap("Clock");
        rig.tap("Storage & cache");
        rig.png(false, "settings-storage");
        assert!(rig.send(UiEvent::Back));
        assert!(rig.send(UiEvent::Back));
        assert!(rig.send(UiEvent::Back));
        assert!(rig.send(UiEvent::Back));
        assert_eq!(rig.app.activity(), "com.android.settings.Settings");
        assert!(
            !rig.send(UiEvent::Back),
            "back on the homepage leaves Settings"
        );

        let mut rig = settings_rig();
        rig.tap("Connected devices");
        rig.tap("Connection preferences");
        rig.tap("Bluetooth");
        assert!(rig.log_matches(
            "PrefCtrlListHelper",
            'D',
            "^(.*?)com.android.settings.bluetooth.BluetoothDeviceRenamePreferenceController"
        ));

        let mut rig = settings_rig();
        // System sits below the homepage's fold; this rig does not scroll (tests/sim_settings.rs
        // reaches it by scrolling on a phone), so its row is clicked by tag.
        assert!(rig.send(UiEvent::Click("nav:system".into())));
        for step in ["Languages & input", "Languages", "Add a language"] {
            rig.tap(step);
        }
        assert!(rig.log_matches("ActivityTaskManager", 'I', "^(.*?)LocalePicker"));
        assert!(rig
            .app
            .activity()
            .ends_with("LocalePickerWithRegionActivity"));
        rig.png(false, "settings-add-language");
        rig.tap("한국어 (대한민국)");
        assert_eq!(
            rig.setting(Namespace::System, "system_locales").as_deref(),
            Some("en-US,ko-KR")
        );
        assert!(find(&rig.frame(), &|v| v.text == "2. 한국어 (대한민국)").is_some());
    }

    #[test]
    fn search_finds_pages_and_opens_them() {
        let mut rig = settings_rig();
        rig.tap("Search settings");
        assert_eq!(
            rig.sys.requests.pop(),
            Some(Request::Focus {
                tag: "search_field".into()
            })
        );
        assert!(rig.send(UiEvent::TextChanged {
            tag: "search_field".into(),
            text: "blue".into(),
        }));
        rig.png(false, "settings-search");
        rig.tap("Bluetooth");
        assert!(rig.log_matches(
            "PrefCtrlListHelper",
            'D',
            "BluetoothDeviceRenamePreferenceController"
        ));
        assert!(find(&rig.frame(), &|v| v.text == "Use Bluetooth").is_some());
    }

    #[test]
    fn settings_put_from_the_shell_shows_in_the_ui() {
        let mut rig = settings_rig();
        rig.tap("Network & internet");
        let airplane = |rig: &Rig| {
            let frame = rig.frame();
            let row = find(&frame, &|v| {
                v.children
                    .iter()
                    .any(|c| find(c, &|t| t.text == "Airplane mode").is_some())
                    && v.flags.clickable
            })
            .expect("airplane row")
            .clone();
            find(&row, &|v| v.resource_id == "android:id/switch_widget")
                .expect("switch")
                .flags
                .checked
        };
        assert!(!airplane(&rig));
        rig.sys
            .settings
            .put(Namespace::Global, "airplane_mode_on", "1");
        assert!(airplane(&rig));
    }

    #[test]
    fn clear_storage_deletes_app_data_after_confirming() {
        let mut rig = settings_rig();
        let file = rig
            .sys
            .host_path("/data/data/com.google.android.deskclock/databases/alarms.db")
            .expect("path");
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(&file, vec![0u8; 4096]).expect("write");
        for step in ["Apps", &see_all_apps(), "Clock", "Storage & cache"] {
            rig.tap(step);
        }
        assert!(find(&rig.frame(), &|v| v.text == "4.00 kB").is_some());
        rig.tap("Clear storage");
        rig.png(false, "settings-clear-storage-dialog");
        assert!(file.exists(), "nothing is deleted before OK");
        rig.tap("OK");
        assert!(!file.exists());
        assert!(rig.log_matches(
            "ActivityManager",
            'I',
            "Force stopping com.google.android.deskclock .*clear data"
        ));
    }

    #[test]
    fn settings_screens_render_with_text_and_dark_theme() {
        let rig = settings_rig();
        let light = rig.png(false, "settings-home");
        let frame = rig.frame();
        let title = find(&frame, &|v| v.text == "Network & internet")
            .expect("title")
            .bounds;
        let bg = light
            .get_pixel(title.right as u32 - 2, title.top as u32 + 1)
            .0;
        assert!(
            inked(&light, title, bg) > 300,
            "title text leaves dark pixels"
        );
        let dark = rig.png(true, "settings-home-dark");
        let p = dark.get_pixel(W / 2, H - 300).0;
        assert!(
            p[0] < 60 && p[1] < 60 && p[2] < 60,
            "dark theme background is dark: {p:?}"
        );
        let p = light.get_pixel(W / 2, H - 300).0;
        assert!(
            p[0] > 200 && p[1] > 200 && p[2] > 200,
            "light theme background is light: {p:?}"
        );
    }

    #[test]
    fn launcher_home_grid_drawer_and_launch() {
        let mut rig = Rig::new(launcher::info().create);
        let home = rig.png(false, "launcher-home");
        let frame = rig.frame();
        assert!(find(&frame, &|v| v.resource_id.ends_with(":id/workspace")).is_some());
        assert!(find(&frame, &|v| v.resource_id.ends_with(":id/hotseat")).is_some());
        let clock =
            find(&frame, &|v| v.text == "Clock" && v.content_desc == "Clock").expect("Clock icon");
        assert!(
            inked(
                &home,
                clock.bounds,
                super::super::sim_render::WALLPAPER_PROBE
            ) > 200
        );
        rig.tap("Settings");
        assert_eq!(
            rig.sys.requests.pop(),
            Some(Request::Launch {
                package: "com.android.settings".into(),
                intent: None,
            })
        );
        rig.tap("Apps list");
        let frame = rig.frame();
        let list =
            find(&frame, &|v| v.resource_id.ends_with(":id/apps_list_view")).expect("drawer list");
        let labels: Vec<&str> = list.children.iter().map(|v| v.text.as_str()).collect();
        let mut sorted = labels.clone();
        sorted.sort_by_key(|l| l.to_lowercase());
        assert_eq!(labels, sorted);
        // Every installed app but the launcher itself.
        assert_eq!(labels.len(), droidmcp::sim::apps::catalog().len() - 1);
        assert!(labels.contains(&"Markor") && labels.contains(&"Files"));
        rig.png(true, "launcher-drawer-dark");
        rig.send(UiEvent::TextChanged {
            tag: "search_box".into(),
            text: "calc".into(),
        });
        let frame = rig.frame();
        let list =
            find(&frame, &|v| v.resource_id.ends_with(":id/apps_list_view")).expect("drawer list");
        assert_eq!(list.children.len(), 1);
        rig.tap("Calculator");
        assert_eq!(
            rig.sys
                .requests
                .iter()
                .find(|r| matches!(r, Request::Launch { .. })),
            Some(&Request::Launch {
                package: "com.google.android.calculator".into(),
                intent: None,
            })
        );
        assert!(
            find(&rig.frame(), &|v| v.resource_id.ends_with(":id/workspace")).is_some(),
            "launching closes the drawer"
        );
    }

    #[test]
    fn launcher_labels_follow_the_locale() {
        let mut rig = Rig::new(launcher::info().create);
        rig.sys.locale = "ko-KR".into();
        let img = rig.png(false, "launcher-home-ko");
        let frame = rig.frame();
        let icon = find(&frame, &|v| v.text == "설정").expect("Korean Settings label");
        let _ = img;
        let _ = icon;
    }
}

/// Any pixel colour far from the wallpaper counts as ink on the launcher's home screen.
const WALLPAPER_PROBE: [u8; 4] = [0x23, 0x3A, 0x5E, 0xFF];

mod phone {
    //! The same apps through the phone's shell, as an adb client drives them: `screencap -p`
    //! returns PNGs of what the dump says is on screen.

    use droidmcp::sim::{Phone, SimConfig};

    fn sh(phone: &Phone, line: &str) -> Vec<u8> {
        let out = phone.exec(line);
        assert!(out.success(), "`{line}` failed: {}", out.stderr_text());
        out.stdout
    }

    /// Taps the centre of the node whose text is `text`.
    fn tap(phone: &Phone, text: &str) {
        tap_attr(phone, "text", text)
    }

    /// Taps the centre of the node whose attribute `attr` is `value`.
    fn tap_attr(phone: &Phone, attr: &str, text: &str) {
        let xml = String::from_utf8(sh(phone, "uiautomator dump /dev/tty")).expect("utf-8 dump");
        let escaped = text.replace('&', "&amp;");
        let re = regex::Regex::new(&format!(
            r#" {attr}="{}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]""#,
            regex::escape(&escaped)
        ))
        .expect("valid regex");
        let c = re
            .captures(&xml)
            .unwrap_or_else(|| panic!("{text:?} not on screen"));
        let n = |i: usize| c[i].parse::<i32>().expect("number");
        sh(
            phone,
            &format!("input tap {} {}", (n(1) + n(3)) / 2, (n(2) + n(4)) / 2),
        );
    }

    fn screencap(phone: &Phone, name: &str) -> image::RgbaImage {
        let png = sh(phone, "screencap -p");
        let img = image::load_from_memory(&png)
            .expect("screencap -p is a PNG")
            .to_rgba8();
        super::save(&img, name);
        img
    }

    fn distinct_colours(img: &image::RgbaImage) -> usize {
        let mut seen = std::collections::HashSet::new();
        for p in img.pixels().step_by(7) {
            seen.insert(p.0);
        }
        seen.len()
    }

    #[test]
    fn screencap_of_launcher_and_settings_through_the_shell() {
        let phone = Phone::new(SimConfig::default()).expect("phone boots");
        let home = screencap(&phone, "phone-home");
        assert_eq!((home.width(), home.height()), (1080, 2400));
        assert!(distinct_colours(&home) > 50, "home screen is not blank");

        tap(&phone, "Settings");
        tap(&phone, "Network & internet");
        let before = screencap(&phone, "phone-network");
        tap(&phone, "Airplane mode");
        let after = screencap(&phone, "phone-network-airplane");
        assert_ne!(before, after);
        let v =
            String::from_utf8(sh(&phone, "settings get global airplane_mode_on")).expect("utf-8");
        assert_eq!(v.trim(), "1");
        let log = String::from_utf8(sh(&phone, "logcat -d -s PhoneGlobals:I")).expect("utf-8");
        assert!(log.contains("Turning radio off - airplane"), "{log}");

        sh(&phone, "settings put secure ui_night_mode 2");
        let dark = screencap(&phone, "phone-network-dark");
        let p = dark.get_pixel(540, 2000).0;
        assert!(
            p[0] < 60 && p[1] < 60 && p[2] < 60,
            "dark theme background: {p:?}"
        );

        // The launcher's search pill opens the drawer with the keyboard up; typing filters it.
        sh(&phone, "input keyevent KEYCODE_HOME");
        tap_attr(&phone, "content-desc", "Search");
        sh(&phone, "input text cal");
        let img = screencap(&phone, "phone-drawer-keyboard-dark");
        let xml = String::from_utf8(sh(&phone, "uiautomator dump /dev/tty")).expect("utf-8 dump");
        assert!(xml.contains(r#"text="Calculator""#) && xml.contains(r#"text="Calendar""#));
        assert!(
            !xml.contains(r#"text="Clock""#),
            "the drawer is filtered by the typed query"
        );
        assert!(distinct_colours(&img) > 50);
    }
}

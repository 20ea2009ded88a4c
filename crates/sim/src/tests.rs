//! Framework tests with a fixture app that has one of each thing the framework handles (an editable
//! field, a long list, a SeekBar, a long-clickable row), driven through the shell like an adb client.

use std::sync::{Arc, Mutex};

use droidmcp_geom::{Bounds, Point};

use super::app::{App, AppInfo, UiEvent};
use super::framework::Framework;
use super::phone::SimConfig;
use super::screen::WindowKind;
use super::shell;
use super::system::System;
use super::view::{class, View};

const PKG: &str = "org.droidmcp.fixture";

#[derive(Default)]
struct Seen {
    text: String,
    submitted: Vec<String>,
    clicks: Vec<String>,
    long_clicks: Vec<String>,
    seek: Option<i32>,
    list_seek: Option<i32>,
}

/// The list row that holds a seek bar instead of an item.
const LIST_SEEK_ROW: i32 = 4;

#[derive(Clone)]
struct Fixture {
    seen: Arc<Mutex<Seen>>,
}

impl App for Fixture {
    fn package(&self) -> &'static str {
        PKG
    }

    fn activity(&self) -> String {
        format!("{PKG}.MainActivity")
    }

    fn render(&self, sys: &System) -> View {
        let m = sys.metrics;
        let c = m.content;
        let seen = self.seen.lock().expect("fixture lock");
        let row = m.dp(56.0);
        let field = View::new(
            class::EDIT_TEXT,
            Bounds::new(c.left, c.top, c.right, c.top + row),
        )
        .id(format!("{PKG}:id/name"))
        .text(seen.text.clone())
        .hint("Name")
        .editable("name");
        let seek = View::new(
            class::SEEK_BAR,
            Bounds::new(c.left, c.top + row, c.right, c.top + 2 * row),
        )
        .id(format!("{PKG}:id/seek"));
        let seek = View {
            tag: Some("seek".into()),
            range: Some((seen.seek.unwrap_or(0), 100)),
            ..seek
        };
        let list_top = c.top + 2 * row;
        let items = (0..40).map(|i| {
            let top = list_top + i * row;
            let b = Bounds::new(c.left, top, c.right, top + row);
            if i == LIST_SEEK_ROW {
                // A slider row as Settings draws one: inset, nothing clickable beside it.
                let bar = View::new(
                    class::SEEK_BAR,
                    Bounds::new(c.left + m.dp(48.0), top, c.right - m.dp(48.0), top + row),
                );
                return View {
                    tag: Some("list_seek".into()),
                    range: Some((seen.list_seek.unwrap_or(0), 100)),
                    ..bar
                };
            }
            View::new(class::TEXT_VIEW, b)
                .text(format!("Item {i}"))
                .on_click(format!("item:{i}"))
                .long_clickable()
        });
        View::new(class::FRAME_LAYOUT, c)
            .child(field)
            .child(seek)
            .child(
                View::new(
                    class::RECYCLER_VIEW,
                    Bounds::new(c.left, list_top, c.right, c.bottom),
                )
                .id(format!("{PKG}:id/list"))
                .scrollable("list")
                .children(items),
            )
    }

    fn handle(&mut self, event: &UiEvent, _sys: &mut System) -> bool {
        let mut seen = self.seen.lock().expect("fixture lock");
        match event {
            UiEvent::TextChanged { text, .. } => seen.text = text.clone(),
            UiEvent::EditorAction(_) => {
                let t = seen.text.clone();
                seen.submitted.push(t);
            }
            UiEvent::Click(tag) => seen.clicks.push(tag.clone()),
            UiEvent::LongClick(tag) => seen.long_clicks.push(tag.clone()),
            UiEvent::Seek { tag, value } if tag == "list_seek" => seen.list_seek = Some(*value),
            UiEvent::Seek { value, .. } => seen.seek = Some(*value),
            UiEvent::Back | UiEvent::Alarm(_) | UiEvent::Broadcast(_) | UiEvent::Stroke { .. } => {
                return false
            }
        }
        true
    }
}

thread_local! {
    static SEEN: Arc<Mutex<Seen>> = Arc::new(Mutex::new(Seen::default()));
}

fn create(_: &mut System) -> Box<dyn App> {
    Box::new(Fixture {
        seen: SEEN.with(|s| s.clone()),
    })
}

/// A booted framework with the fixture installed and in front.
fn phone() -> (Framework, tempfile::TempDir, Arc<Mutex<Seen>>) {
    phone_in(SimConfig::default())
}

fn phone_in(config: SimConfig) -> (Framework, tempfile::TempDir, Arc<Mutex<Seen>>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut fw = Framework::boot(config, dir.path().to_path_buf(), "sim-0".into());
    fw.catalog.push(AppInfo {
        package: PKG,
        launch_activity: "org.droidmcp.fixture.MainActivity",
        create,
        install: |_| {},
        on_home_screen: true,
    });
    let seen = SEEN.with(|s| {
        *s.lock().expect("fixture lock") = Seen::default();
        s.clone()
    });
    let out = shell::exec(&mut fw, &format!("am start -n {PKG}/.MainActivity"));
    assert!(out.success(), "{}", out.stderr_text());
    (fw, dir, seen)
}

fn sh(fw: &mut Framework, line: &str) -> String {
    let out = shell::exec(fw, line);
    assert!(out.success(), "{line}: {}", out.stderr_text());
    out.stdout_text()
}

fn dump(fw: &mut Framework) -> String {
    sh(fw, "uiautomator dump /dev/tty")
}

fn center_of(fw: &mut Framework, kind: WindowKind, tag: &str) -> Point {
    let w = fw
        .windows()
        .into_iter()
        .find(|w| w.kind == kind)
        .expect("window");
    w.root
        .find_by_tag(tag)
        .expect("view with tag")
        .bounds
        .center()
}

#[test]
fn tapping_a_field_focuses_it_and_typing_goes_in() {
    let (mut fw, _dir, seen) = phone();
    sh(&mut fw, "input text nothing-focused");
    assert_eq!(seen.lock().unwrap().text, "");
    let p = center_of(&mut fw, WindowKind::App, "name");
    sh(&mut fw, &format!("input tap {} {}", p.x, p.y));
    assert!(dump(&mut fw).contains(r#"resource-id="org.droidmcp.fixture:id/name" class="android.widget.EditText" package="org.droidmcp.fixture" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true""#));
    assert!(sh(&mut fw, "dumpsys input_method").contains("mInputShown=true"));
    sh(&mut fw, "input text 'hello%sworld'");
    sh(&mut fw, "input keyevent DEL 67");
    assert_eq!(seen.lock().unwrap().text, "hello wor");
    sh(&mut fw, "input keyevent ENTER");
    assert_eq!(
        seen.lock().unwrap().submitted,
        vec!["hello wor".to_string()]
    );
    // Keys of the on-screen keyboard type too.
    let key = center_of(&mut fw, WindowKind::Ime, "ime:x");
    sh(&mut fw, &format!("input tap {} {}", key.x, key.y));
    assert_eq!(seen.lock().unwrap().text, "hello worx");
    // Non-ASCII fails in `input text` like the real tool, and types nothing.
    let out = shell::exec(&mut fw, "input text 'héllo'");
    assert_eq!(out.exit_code, 255);
    assert_eq!(seen.lock().unwrap().text, "hello worx");
}

#[test]
fn adb_keyboard_broadcasts_type_unicode_only_when_it_is_the_ime() {
    let (mut fw, _dir, seen) = phone();
    let p = center_of(&mut fw, WindowKind::App, "name");
    sh(&mut fw, &format!("input tap {} {}", p.x, p.y));
    use base64::Engine;
    let text = "안녕 😀 مرحبا \"it's\"";
    let b64 = base64::engine::general_purpose::STANDARD.encode(text);
    let out = sh(
        &mut fw,
        &format!("am broadcast -a ADB_INPUT_B64 --es msg {b64}"),
    );
    assert_eq!(out, "Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n");
    assert_eq!(
        seen.lock().unwrap().text,
        "",
        "Gboard is the IME; the broadcast has no receiver"
    );
    sh(
        &mut fw,
        "ime enable com.android.adbkeyboard/.AdbIME; ime set com.android.adbkeyboard/.AdbIME",
    );
    sh(
        &mut fw,
        &format!("am broadcast -a ADB_INPUT_B64 --es msg {b64}"),
    );
    assert_eq!(seen.lock().unwrap().text, text);
    assert!(dump(&mut fw).contains("text=\"안녕 😀 مرحبا &quot;it's&quot;\""));
    sh(&mut fw, "am broadcast -a ADB_CLEAR_TEXT");
    assert_eq!(seen.lock().unwrap().text, "");
    sh(&mut fw, "am broadcast -a ADB_INPUT_TEXT --es msg 'a b'; am broadcast -a ADB_EDITOR_CODE --ei code 6");
    assert_eq!(seen.lock().unwrap().submitted, vec!["a b".to_string()]);
}

#[test]
fn swipes_scroll_lists_and_fast_swipes_fling_further() {
    let (mut fw, _dir, _seen) = phone();
    assert!(dump(&mut fw).contains("text=\"Item 0\""));
    sh(&mut fw, "input swipe 540 1800 540 1200 1000");
    let after_drag = dump(&mut fw);
    assert!(
        !after_drag.contains("text=\"Item 0\""),
        "a 600px drag moves item 0 off the list"
    );
    let offset_drag = fw.scroll[&(PKG.to_string(), "list".to_string())];
    assert_eq!(offset_drag, 600);
    sh(&mut fw, "input swipe 540 1200 540 1800 1000");
    assert_eq!(fw.scroll[&(PKG.to_string(), "list".to_string())], 0);
    sh(&mut fw, "input swipe 540 1800 540 1200 100");
    assert!(fw.scroll[&(PKG.to_string(), "list".to_string())] > 600);
    // Overscroll clamps at the end of the content.
    for _ in 0..10 {
        sh(&mut fw, "input swipe 540 1800 540 300 50");
    }
    let end = dump(&mut fw);
    assert!(end.contains("text=\"Item 39\""));
    // Items that leave the list are clipped to it: no node lies above the list's top.
    let list_top = fw.sys.metrics.content.top + fw.sys.metrics.dp(112.0);
    assert!(!end.contains(&format!("][1080,{}]\" drawing-order", list_top - 1)));
}

#[test]
fn long_press_and_seek() {
    let (mut fw, _dir, seen) = phone();
    let item = center_of(&mut fw, WindowKind::App, "item:2");
    sh(
        &mut fw,
        &format!("input swipe {0} {1} {0} {1} 800", item.x, item.y),
    );
    assert_eq!(seen.lock().unwrap().long_clicks, vec!["item:2".to_string()]);
    sh(&mut fw, &format!("input tap {} {}", item.x, item.y));
    assert_eq!(seen.lock().unwrap().clicks, vec!["item:2".to_string()]);
    let seek = center_of(&mut fw, WindowKind::App, "seek");
    sh(&mut fw, &format!("input tap {} {}", seek.x, seek.y));
    assert_eq!(seen.lock().unwrap().seek, Some(50));
    // The track ends 16dp inside the bar: a touch in the padding gives the end value.
    let pad = fw.sys.metrics.dp(16.0);
    sh(&mut fw, &format!("input tap {} {}", 1080 - pad / 2, seek.y));
    assert_eq!(seen.lock().unwrap().seek, Some(100));
    sh(
        &mut fw,
        &format!("input tap {} {}", pad + (1080 - 2 * pad) / 4, seek.y),
    );
    assert_eq!(seen.lock().unwrap().seek, Some(25));
}

#[test]
fn a_seek_bar_runs_right_to_left_in_urdu() {
    let (mut fw, _dir, seen) = phone_in(SimConfig {
        locale: "ur-PK".into(),
        ..SimConfig::default()
    });
    let seek = center_of(&mut fw, WindowKind::App, "seek");
    let pad = fw.sys.metrics.dp(16.0);
    // The right end is the start: a touch there is the minimum, a quarter from it 25.
    sh(&mut fw, &format!("input tap {} {}", 1080 - pad / 2, seek.y));
    assert_eq!(seen.lock().unwrap().seek, Some(0));
    sh(
        &mut fw,
        &format!("input tap {} {}", 1080 - pad - (1080 - 2 * pad) / 4, seek.y),
    );
    assert_eq!(seen.lock().unwrap().seek, Some(25));
    sh(
        &mut fw,
        &format!("input swipe {} {1} 0 {1} 500", seek.x, seek.y),
    );
    assert_eq!(seen.lock().unwrap().seek, Some(100));
}

#[test]
fn a_swipe_along_a_list_scrolls_it_even_from_a_seek_bar_and_a_sideways_drag_seeks() {
    let (mut fw, _dir, seen) = phone();
    let key = (PKG.to_string(), "list".to_string());
    let bar = center_of(&mut fw, WindowKind::App, "list_seek");
    // Up along the list from the middle of the bar: AbsSeekBar in a scrolling container leaves a
    // vertical drag to the list.
    sh(
        &mut fw,
        &format!(
            "input swipe {0} {1} {0} {2} 1000",
            bar.x,
            bar.y,
            bar.y - 300
        ),
    );
    assert_eq!(fw.scroll[&key], 300);
    assert_eq!(seen.lock().unwrap().list_seek, None);
    // From the row's empty start, where nothing is clickable, the list still takes the swipe.
    let bar = center_of(&mut fw, WindowKind::App, "list_seek");
    let edge = fw.sys.metrics.dp(16.0);
    sh(
        &mut fw,
        &format!("input swipe {0} {1} {0} {2} 1000", edge, bar.y, bar.y + 100),
    );
    assert_eq!(fw.scroll[&key], 200);
    // Sideways along the bar: it drags to where the finger lifts.
    let bar = center_of(&mut fw, WindowKind::App, "list_seek");
    sh(
        &mut fw,
        &format!("input swipe {} {1} 1080 {1} 500", bar.x, bar.y),
    );
    assert_eq!(seen.lock().unwrap().list_seek, Some(100));
    assert_eq!(fw.scroll[&key], 200);
}

#[test]
fn back_hides_the_keyboard_then_leaves_the_app() {
    let (mut fw, _dir, _seen) = phone();
    let p = center_of(&mut fw, WindowKind::App, "name");
    sh(&mut fw, &format!("input tap {} {}", p.x, p.y));
    assert!(fw.ime_visible);
    sh(&mut fw, "input keyevent BACK");
    assert!(!fw.ime_visible);
    assert_eq!(fw.foreground_package(), PKG);
    sh(&mut fw, "input keyevent KEYCODE_BACK");
    assert_ne!(fw.foreground_package(), PKG);
    // The task stays in recents and comes back with its state.
    sh(&mut fw, "input keyevent APP_SWITCH");
    assert!(dump(&mut fw).contains(&format!("content-desc=\"{PKG}\"")));
    let card = center_of(&mut fw, WindowKind::Overview, "overview:task:11");
    sh(&mut fw, &format!("input tap {} {}", card.x, card.y));
    assert_eq!(fw.foreground_package(), PKG);
}

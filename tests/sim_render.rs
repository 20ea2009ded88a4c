//! The renderer behind `screencap` and the Settings and Launcher apps: real pixels for each app's
//! screen (text, icons, widgets, CJK/Hangul glyphs, dark theme) and the settings and logcat lines
//! the apps write.

use droidmcp::geom::Bounds;
use droidmcp::sim::render::{render_scaled, Scale, Theme};
use droidmcp::sim::view::{class, Role, Style, View};
use image::RgbaImage;

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

/// How many pixels inside `b` differ from `bg` by more than a small tolerance.
fn inked(img: &RgbaImage, b: Bounds, bg: [u8; 4]) -> usize {
    let mut n = 0;
    for y in b.top.max(0)..b.bottom.min(img.height() as i32) {
        for x in b.left.max(0)..b.right.min(img.width() as i32) {
            let p = img.get_pixel(x as u32, y as u32).0;
            let d: i32 = (0..3).map(|c| (p[c] as i32 - bg[c] as i32).abs()).sum();
            if d > 60 {
                n += 1;
            }
        }
    }
    n
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

//! Frame-render throughput of the embedded phone's renderer: a Settings homepage and a Launcher home
//! screen at Pixel 6 (1080×2400) and tablet (2560×1600) sizes and OsmAnd's map at Pixel 6 size,
//! cold (first frame, empty glyph cache) and warm (mean of repeated frames), plus PNG encoding of one frame; the Settings homepage and
//! launcher also in Hindi and Arabic, whose text goes through shaping.

use std::time::Instant;

use chrono::NaiveDate;
use droidmcp::geom::Bounds;
use droidmcp::sim::app::AppInfo;
use droidmcp::sim::apps::{launcher, osmand, settings};
use droidmcp::sim::render::{render_scaled, Scale, Theme};
use droidmcp::sim::system::{SimClock, System};
use droidmcp::sim::view::Metrics;

fn system(width: i32, height: i32, density: f32, root: &std::path::Path) -> System {
    let dp = |v: f32| (v * density).round() as i32;
    System::new(
        root.to_path_buf(),
        SimClock::virtual_at(
            NaiveDate::from_ymd_opt(2026, 11, 23)
                .and_then(|d| d.and_hms_opt(9, 30, 0))
                .expect("valid date"),
        ),
        Metrics {
            width,
            height,
            density,
            font_scale: 1.0,
            content: Bounds::new(0, dp(24.0), width, height - dp(48.0)),
        },
        0,
    )
}

fn bench(name: &str, locale: &str, info: AppInfo, width: i32, height: i32, density: f32) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut sys = system(width, height, density, dir.path());
    sys.locale = locale.into();
    let app = (info.create)(&mut sys);
    let scale = Scale {
        density,
        font_scale: 1.0,
    };
    let tree = app.render(&sys);
    let t = Instant::now();
    let first = render_scaled(
        std::slice::from_ref(&tree),
        width as u32,
        height as u32,
        Theme { dark: false },
        scale,
    );
    let cold = t.elapsed();
    let n = 50;
    let t = Instant::now();
    for i in 0..n {
        let img = render_scaled(
            std::slice::from_ref(&tree),
            width as u32,
            height as u32,
            Theme { dark: i % 2 == 1 },
            scale,
        );
        std::hint::black_box(img);
    }
    let warm = t.elapsed() / n;
    let t = Instant::now();
    let mut png = Vec::new();
    first
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("png encodes");
    let encode = t.elapsed();
    println!(
        "{name:<28} {width}x{height}  first frame {:>7.2} ms  warm frame {:>6.2} ms  png encode {:>7.2} ms ({} KiB)",
        cold.as_secs_f64() * 1e3,
        warm.as_secs_f64() * 1e3,
        encode.as_secs_f64() * 1e3,
        png.len() / 1024
    );
}

fn main() {
    bench(
        "settings home (pixel6)",
        "en-US",
        settings::info(),
        1080,
        2400,
        420.0 / 160.0,
    );
    bench(
        "launcher home (pixel6)",
        "en-US",
        launcher::info(),
        1080,
        2400,
        420.0 / 160.0,
    );
    // OsmAnd's map: land, woods, the Rhine, roads and place labels painted as vectors.
    bench(
        "osmand map (pixel6)",
        "en-US",
        osmand::info(),
        1080,
        2400,
        420.0 / 160.0,
    );
    bench(
        "settings home (tablet)",
        "en-US",
        settings::info(),
        2560,
        1600,
        2.0,
    );
    // The complex scripts: Devanagari conjuncts and matras, Arabic joining right to left.
    for (name, locale) in [
        ("settings home hi-IN (pixel6)", "hi-IN"),
        ("settings home ar-EG (pixel6)", "ar-EG"),
        ("launcher home hi-IN (pixel6)", "hi-IN"),
    ] {
        let info = if name.starts_with("launcher") {
            launcher::info()
        } else {
            settings::info()
        };
        bench(name, locale, info, 1080, 2400, 420.0 / 160.0);
    }
}

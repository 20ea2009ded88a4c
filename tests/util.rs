//! Shared helpers for integration tests.

use std::path::PathBuf;

/// The shared research corpus and data (`../shared` beside the checkout, or `DROIDMCP_SHARED`).
#[allow(dead_code)]
pub fn shared_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("DROIDMCP_SHARED") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

/// Boots an embedded phone with the default configuration and the given seed.
#[allow(dead_code)]
pub fn boot(seed: u64) -> droidmcp::sim::Phone {
    droidmcp::sim::Phone::new(droidmcp::sim::SimConfig {
        seed,
        ..droidmcp::sim::SimConfig::default()
    })
    .expect("phone boots")
}

/// Runs a shell command on the phone that must succeed; returns stdout.
#[allow(dead_code)]
pub fn sh(phone: &droidmcp::sim::Phone, line: &str) -> String {
    let out = phone.exec(line);
    assert!(
        out.success(),
        "`{line}` failed ({}): {}",
        out.exit_code,
        out.stderr_text()
    );
    out.stdout_text()
}

/// Screen metrics as the framework lays them out: status bar 24dp, navigation bar 48dp.
#[allow(dead_code)]
pub fn metrics(
    width: i32,
    height: i32,
    density_dpi: i32,
    font_scale: f32,
) -> droidmcp::sim::view::Metrics {
    let density = density_dpi as f32 / 160.0;
    let status = (24.0 * density).round() as i32;
    let nav = (48.0 * density).round() as i32;
    droidmcp::sim::view::Metrics {
        width,
        height,
        density,
        font_scale,
        content: droidmcp::geom::Bounds::new(0, status, width, height - nav),
    }
}

/// How many pixels inside `b` differ clearly from `bg`.
#[allow(dead_code)]
pub fn inked(img: &image::RgbaImage, b: droidmcp::geom::Bounds, bg: [u8; 4]) -> usize {
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

//! The frames a judge is shown with the agent's action drawn on them (issue 37): a recorded golden
//! episode on the embedded phone, its frames read back from the store as judges get them, decoded
//! and compared with the clean frames pixel by pixel. A marked frame is the clean frame before the
//! step, at its size, with only the mark changed; the typed-text band comes only with typing.

use std::sync::Arc;

use droidmcp::episode::replay::{run_instance, Solution};
use droidmcp::judge::source;
use droidmcp::store::Store;
use image::RgbaImage;

fn decode(jpeg: &[u8]) -> RgbaImage {
    image::load_from_memory_with_format(jpeg, image::ImageFormat::Jpeg)
        .expect("a frame decodes as JPEG")
        .to_rgba8()
}

/// Mean per-channel difference over the pixels `keep` picks, the share of them off by more than
/// 32 in some channel (JPEG's loss on re-encoding stays below both; a misdecoded frame does not),
/// and how many were compared.
fn difference(a: &RgbaImage, b: &RgbaImage, keep: impl Fn(u32, u32) -> bool) -> (f64, f64, usize) {
    let (mut sum, mut off, mut n) = (0u64, 0usize, 0usize);
    for (x, y, p) in a.enumerate_pixels() {
        if !keep(x, y) {
            continue;
        }
        let q = b.get_pixel(x, y);
        let mut worst = 0;
        for c in 0..3 {
            let d = p.0[c].abs_diff(q.0[c]);
            sum += d as u64;
            worst = worst.max(d);
        }
        off += usize::from(worst > 32);
        n += 1;
    }
    (
        sum as f64 / (3 * n.max(1)) as f64,
        off as f64 / n.max(1) as f64,
        n,
    )
}

/// Pixels on the phone's red-ish mark colour (the ring, a swipe's path).
fn red(p: &image::Rgba<u8>) -> bool {
    p.0[0] > 170 && p.0[1] < 110 && p.0[2] < 110
}

#[tokio::test]
async fn marked_frames_are_the_clean_frame_before_the_step_with_only_the_mark_drawn() {
    let catalog = crate::util::catalog();
    // Open, tap, type twice, back, tap: every kind of mark and every kind of step without one.
    let task = catalog.get("aw.sms.send").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("episodes.db")).unwrap();
    let phone: Arc<dyn droidmcp::device::Shell> = Arc::new(crate::util::boot(3));
    let report = run_instance(&task, 3, phone, Some(store.clone()), Solution::Golden)
        .await
        .unwrap();
    assert!(report.verdict.success, "{:?}", report.verdict);
    let evidence = source::from_store(&store, &report.episode, None).unwrap();
    let kinds: Vec<&str> = evidence
        .steps
        .iter()
        .map(|s| s.action_json["kind"].as_str().unwrap_or_default())
        .collect();
    assert!(
        kinds.contains(&"tap") && kinds.contains(&"type") && kinds.contains(&"key"),
        "{kinds:?}"
    );
    let mut tapped = 0;
    for step in &evidence.steps {
        let kind = step.action_json["kind"].as_str().unwrap_or_default();
        let clean = decode(step.before.as_ref().expect("a frame before every step"));
        let after = decode(step.screenshot.as_ref().expect("a frame after every step"));
        let marked = decode(&step.before_marked().unwrap());
        // The phone's screen at the frame's size: as tall and wide as the clean frame, portrait
        // like the phone (1080×2400 scaled to a long edge of 1024).
        assert_eq!(
            marked.dimensions(),
            clean.dimensions(),
            "step {}",
            step.number
        );
        assert_eq!(clean.dimensions(), after.dimensions());
        let (w, h) = clean.dimensions();
        assert_eq!(h, 1024);
        assert!(
            (w as f64 / h as f64 - 1080.0 / 2400.0).abs() < 0.01,
            "{w}x{h}"
        );
        // Where the mark is: a ring (and a swipe's path) around the touch in frame pixels, the
        // band across the top for typing; JPEG blocks around them may shift a little too.
        let radius = (w.min(h) as f64 / 22.0).max(6.0);
        let reach = radius * 1.25 + 16.0;
        let touch = step.action_json["point"].as_array().map(|xy| {
            (
                xy[0].as_f64().unwrap() / step.scale,
                xy[1].as_f64().unwrap() / step.scale,
            )
        });
        let band = if kind == "type" {
            (radius * 2.4) as u32 + 16
        } else {
            0
        };
        let outside = |x: u32, y: u32| {
            let near_touch = touch.is_some_and(|(tx, ty)| {
                ((x as f64 - tx).powi(2) + (y as f64 - ty).powi(2)).sqrt() < reach
            });
            !near_touch && y >= band
        };
        let (mean, off, n) = difference(&clean, &marked, outside);
        assert!(
            n as f64 > 0.8 * (w * h) as f64,
            "step {}: {n} pixels compared",
            step.number
        );
        assert!(
            mean < 1.5 && off < 0.005,
            "step {} ({kind}): outside the mark the marked frame differs from the clean one by {mean:.2} on average, {:.2}% of pixels by more than 32",
            step.number,
            off * 100.0
        );
        eprintln!(
            "step {} ({kind}): outside the mark {mean:.2} on average, {:.3}% of pixels off by more than 32",
            step.number,
            off * 100.0
        );
        // The band is there for typing only (not for a key's name or an app's package).
        let top = difference(&clean, &marked, |_, y| y < (radius * 2.0) as u32);
        if kind == "type" {
            assert!(top.0 > 20.0, "step {}: no band for typed text", step.number);
        } else {
            assert!(
                top.0 < 1.5,
                "step {} ({kind}): a band for an action that typed nothing",
                step.number
            );
        }
        // A touch is ringed on the frame before it, where the finger landed.
        if let (Some((tx, ty)), "tap") = (touch, kind) {
            let on_ring = (0..32).filter(|i| {
                let a = *i as f64 / 32.0 * std::f64::consts::TAU;
                let (x, y) = (tx + radius * a.cos(), ty + radius * a.sin());
                x >= 0.0
                    && y >= 0.0
                    && (x as u32) < w
                    && (y as u32) < h
                    && red(marked.get_pixel(x as u32, y as u32))
            });
            assert!(
                on_ring.count() >= 24,
                "step {}: no ring around the touch",
                step.number
            );
            tapped += 1;
        }
    }
    assert!(tapped >= 2);
    let sizes: Vec<usize> = evidence
        .steps
        .iter()
        .filter_map(|s| s.screenshot.as_ref().map(Vec::len))
        .collect();
    eprintln!(
        "frames after each step: mean {} bytes, max {}",
        sizes.iter().sum::<usize>() / sizes.len().max(1),
        sizes.iter().max().unwrap_or(&0)
    );
    // For a person to look at: each marked frame as it decodes, as PNG.
    if let Some(dir) = std::env::var_os("DROIDMCP_FRAMES_DUMP") {
        for step in &evidence.steps {
            decode(&step.before_marked().unwrap())
                .save(std::path::Path::new(&dir).join(format!("step{}-marked.png", step.number)))
                .unwrap();
        }
    }
}

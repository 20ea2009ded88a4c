//! Latency of the embedded phone's shell commands, of what a screenshot adds to `screencap` (scaling,
//! JPEG), of booting a phone and of restoring one from a snapshot, and its memory per phone. Prints
//! a Markdown table.
//!
//! Run: `cargo bench --bench sim` (optionally `-- N` phones for the memory figure, default 20).

use std::time::{Duration, Instant};

use droidmcp::device::image;
use droidmcp::sim::{Phone, SimConfig};

#[path = "rss.rs"]
mod rss;

use rss::rss_kib;

/// Runs `f` `n` times; returns (median, p95).
fn measure(n: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[n / 2], times[(n * 95 / 100).min(n - 1)])
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

fn main() {
    let phones: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(20);
    let phone = Phone::new(SimConfig::default()).expect("phone boots");
    let run = |line: &str| {
        let out = phone.exec(line);
        assert!(out.success(), "{line}: {}", out.stderr_text());
        out.stdout.len()
    };
    println!("| operation (Pixel 6, 1080x2400) | median ms | p95 ms | output bytes |");
    println!("|---|---|---|---|");
    let row = |name: &str, n: usize, line: &str| {
        let bytes = run(line);
        let (med, p95) = measure(n, || {
            run(line);
        });
        println!("| `{name}` | {} | {} | {bytes} |", ms(med), ms(p95));
    };
    row(
        "input tap 540 1200 (home screen)",
        200,
        "input tap 540 1200",
    );
    run("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1");
    row("input tap (Settings list)", 200, "input tap 540 1900");
    run("input keyevent HOME");
    row(
        "uiautomator dump /dev/tty (launcher)",
        100,
        "uiautomator dump /dev/tty",
    );
    run("monkey -p com.google.android.contacts 1");
    row(
        "uiautomator dump /dev/tty (Contacts)",
        100,
        "uiautomator dump /dev/tty",
    );
    row("screencap (raw RGBA)", 30, "screencap");
    row("screencap -p (PNG)", 30, "screencap -p");
    // What a screenshot adds to the raw frame (Settings on screen): scaling to the long edge MCP
    // clients get by default, then the JPEG they get by default.
    run("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1");
    row("screencap (raw RGBA, Settings)", 30, "screencap");
    let frame = image::raw_frame(phone.exec("screencap").stdout).expect("a raw RGBA frame");
    let factor = image::downscale_factor(frame.width(), frame.height(), 1024);
    let (scale_med, scale_p95) = measure(30, || {
        image::scale(&frame, factor);
    });
    let small = image::scale(&frame, factor);
    println!(
        "| scale the frame to {}x{} (`device::image::scale`) | {} | {} | - |",
        small.width(),
        small.height(),
        ms(scale_med),
        ms(scale_p95)
    );
    let jpeg = image::encode(&small, image::Encoding::Jpeg(80)).expect("encodes");
    let (jpeg_med, jpeg_p95) = measure(30, || {
        image::encode(&small, image::Encoding::Jpeg(80)).expect("encodes");
    });
    println!(
        "| JPEG q80 of it (`device::image::encode`) | {} | {} | {} |",
        ms(jpeg_med),
        ms(jpeg_p95),
        jpeg.len()
    );
    row(
        "dumpsys window | grep mCurrentFocus",
        200,
        "dumpsys window | grep mCurrentFocus",
    );
    row(
        "settings get global airplane_mode_on",
        500,
        "settings get global airplane_mode_on",
    );

    // Boot and teardown apart: dropping a phone removes its folder, which is no part of a cold start.
    let mut booted = Vec::new();
    let (boot_med, boot_p95) = measure(20, || {
        booted.push(Phone::new(SimConfig::default()).expect("phone boots"));
    });
    println!(
        "| phone boot (`Phone::new`) | {} | {} | - |",
        ms(boot_med),
        ms(boot_p95)
    );
    let mut drops: Vec<Duration> = booted
        .into_iter()
        .map(|p| {
            let t = Instant::now();
            drop(p);
            t.elapsed()
        })
        .collect();
    drops.sort();
    println!(
        "| phone teardown (drop: folder removed) | {} | {} | - |",
        ms(drops[drops.len() / 2]),
        ms(drops[drops.len() * 95 / 100])
    );

    // Whole-phone snapshots, side by side with the boot above: a phone changed as an episode
    // changes it (a text written, Clock opened, the clock set) is put back to its boot snapshot.
    let used = Phone::new(SimConfig::default()).expect("phone boots");
    let console = |line: &str| {
        let reply = used.console(line);
        assert!(reply.ends_with("OK\r\n"), "{line}: {reply}");
    };
    let mut loads = Vec::new();
    for _ in 0..50 {
        let out = used.exec(
            "sqlite3 /data/data/com.android.providers.telephony/databases/mmssms.db \
             \"INSERT INTO sms (address, body, date, type) VALUES ('5551234', 'hi', 0, 2)\"; \
             monkey -p com.google.android.deskclock 1; date 060712002024.00",
        );
        assert!(out.success(), "{}", out.stderr_text());
        let t = Instant::now();
        console("avd snapshot load default_boot");
        loads.push(t.elapsed());
    }
    loads.sort();
    println!(
        "| `avd snapshot load default_boot` (after changes) | {} | {} | - |",
        ms(loads[loads.len() / 2]),
        ms(loads[loads.len() * 95 / 100])
    );
    let (save_med, save_p95) = measure(50, || console("avd snapshot save bench"));
    println!(
        "| `avd snapshot save NAME` | {} | {} | - |",
        ms(save_med),
        ms(save_p95)
    );

    let before = rss_kib().unwrap_or(0);
    let mut fleet = Vec::new();
    for seed in 0..phones {
        let p = Phone::new(SimConfig {
            seed: seed as u64,
            ..SimConfig::default()
        })
        .expect("phone boots");
        // A phone that has been used: two apps open and a screenshot's worth of rendering done.
        p.exec("monkey -p com.android.settings 1; monkey -p com.google.android.deskclock 1; uiautomator dump; screencap -p /sdcard/s.png");
        fleet.push(p);
    }
    let after = rss_kib().unwrap_or(0);
    println!();
    println!(
        "memory: {phones} used phones added {} KiB RSS, {} KiB per phone",
        after.saturating_sub(before),
        after.saturating_sub(before) / phones.max(1) as u64
    );
    drop(fleet);
}

//! Hundreds of embedded phones in one process (issue 26): N phones booted side by side, the RSS they
//! add idle and after each was used (two apps opened, a dump, a screenshot), the median cold start
//! (`Phone::new`) and the median restore of each phone's boot snapshot after that use (what every
//! episode of a run starts with). One process per N: `benches/fleet-figures` runs 1, 64, 256 and
//! 512 and the 216-task oracle suite over 16 phones, and prints the table BENCHMARKS.md keeps.
//!
//! Run: `cargo bench --profile dev --bench fleet -- N` (default 64).

use std::time::{Duration, Instant};

use droidmcp::sim::{Phone, SimConfig};

#[path = "rss.rs"]
mod rss;

fn rss_kib() -> u64 {
    rss::rss_kib().expect("VmRSS in /proc/self/status")
}

fn median(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1000.0
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(64);
    // One phone booted and dropped first, so the figures leave out what the first boot of a process
    // pays once (fonts, resources, the allocator's first arenas).
    drop(Phone::new(SimConfig::default()).expect("phone boots"));
    let before = rss_kib();
    let mut boots = Vec::with_capacity(n);
    let mut phones = Vec::with_capacity(n);
    for seed in 0..n {
        let t = Instant::now();
        let phone = Phone::new(SimConfig {
            seed: seed as u64,
            ..SimConfig::default()
        })
        .expect("phone boots");
        boots.push(t.elapsed());
        phones.push(phone);
    }
    let idle = rss_kib();
    for phone in &phones {
        let out = phone.exec(
            "monkey -p com.android.settings 1; monkey -p com.google.android.deskclock 1; \
             uiautomator dump; screencap -p /sdcard/s.png",
        );
        assert!(out.success(), "{}", out.stderr_text());
    }
    let used = rss_kib();
    let mut restores = Vec::with_capacity(n);
    for phone in &phones {
        let t = Instant::now();
        let reply = phone.console("avd snapshot load default_boot");
        restores.push(t.elapsed());
        assert!(reply.starts_with("OK"), "{reply}");
    }
    let restored = rss_kib();
    let per = |kib: u64| kib.saturating_sub(before) as f64 / n as f64;
    println!(
        "| {n} | {:.0} | {:.0} | {:.0} | {:.1} | {:.2} | {:.1} |",
        per(idle),
        per(used),
        per(restored),
        restored as f64 / 1024.0,
        median(boots),
        median(restores)
    );
}

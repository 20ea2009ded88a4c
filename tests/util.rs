//! Shared helpers for integration tests.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use droidmcp::task::{Catalog, Task};

/// The suite's task files (`tasks/` of the checkout).
pub fn tasks_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tasks")
}

/// The suite's catalog, loaded once for the whole test binary: a load checks every step of every
/// file, and the tests asked for it hundreds of times. Every file must load cleanly.
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let (catalog, errors) = Catalog::load_dir(&tasks_dir());
        assert!(
            errors.is_empty(),
            "task files must load cleanly:\n{}",
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
        catalog
    })
}

/// The suite's task `id`.
pub fn task(id: &str) -> Arc<Task> {
    catalog()
        .get(id)
        .unwrap_or_else(|e| panic!("no task {id}: {e}"))
}

/// Every task of the suite, in id order.
pub fn suite() -> Vec<Arc<Task>> {
    catalog().iter().cloned().collect()
}

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

/// A server `--detach` started (`serve`, `sim`): its pid, the address it announced and its log,
/// as the command printed them. Dropping it stops the server (SIGTERM) and removes the log, so a
/// test leaves nothing behind however it ends.
pub struct Detached {
    pub pid: i32,
    /// The word after "on" in the announcement (`… serving adb on 127.0.0.1:PORT`), if any.
    pub addr: Option<String>,
    log: Option<PathBuf>,
}

impl Detached {
    /// Reads what a successful `--detach` printed; panics with the output when it is not there.
    pub fn from_output(out: &std::process::Output) -> Detached {
        let stdout = String::from_utf8_lossy(&out.stdout);
        let pid = stdout
            .split("as pid ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|digits| digits.parse().ok())
            .unwrap_or_else(|| {
                panic!(
                    "no pid in: {stdout}{}",
                    String::from_utf8_lossy(&out.stderr)
                )
            });
        let addr = stdout
            .split_whitespace()
            .skip_while(|w| *w != "on")
            .nth(1)
            .map(str::to_string);
        let log = stdout
            .split("(output: ")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
            .map(PathBuf::from);
        Detached { pid, addr, log }
    }

    /// SIGKILL: the server vanishes as a crashed emulator or an unplugged phone does.
    pub fn kill(&self) {
        // SAFETY: a signal to a pid this test started.
        unsafe {
            libc::kill(self.pid, libc::SIGKILL);
        }
    }
}

impl Drop for Detached {
    fn drop(&mut self) {
        // SAFETY: a signal to a pid this test started (gone already when killed).
        unsafe {
            libc::kill(self.pid, libc::SIGTERM);
        }
        if let Some(log) = &self.log {
            let _ = std::fs::remove_file(log);
        }
    }
}

/// Taps the centre of the first node of the current uiautomator dump whose attributes contain
/// `needle` (`resource-id="pkg:id/name"`, `content-desc="Shutter"`, `text="Camera"`).
#[allow(dead_code)]
pub fn tap_node(phone: &droidmcp::sim::Phone, needle: &str) {
    let xml = sh(phone, "uiautomator dump /dev/tty");
    let at = xml
        .find(needle)
        .unwrap_or_else(|| panic!("no {needle} on screen: {xml}"));
    let node = &xml[xml[..at].rfind("<node ").expect("inside a node")..];
    let b = node.find("bounds=\"").expect("bounds") + 8;
    let end = node[b..].find('"').expect("bounds end");
    let c = droidmcp::geom::Bounds::parse(&node[b..b + end])
        .expect("bounds parse")
        .center();
    sh(phone, &format!("input tap {} {}", c.x, c.y));
}

//! Android behaviour over a [`Shell`]: actions, observations and app management expressed as shell
//! commands and file pulls, identical for real phones and the embedded phone.
//!
//! Brief overview: [`Device`] wraps an `Arc<dyn Shell>` and turns intents (tap, type, open an app, dump
//! the UI, take a screenshot) into the command lines built in [`command`], reading the answers with
//! [`parse`]. [`apps`] ranks launchable apps against what a person calls them. [`open`] resolves a device
//! spec (`sim`, `sim:7`, an adb serial) to a shell.
//!
//! **Architecture Invariant:** `device/` never asks whether its `Shell` is ADB or the embedded phone;
//! a behaviour that only works on one of them is a bug in that shell, not a branch here.

pub mod apps;
pub mod command;
pub mod console;
pub mod image;
pub mod parse;
pub mod shell;
pub mod status;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use apps::{AppEntry, AppMatch};
pub use parse::{Foreground, ScreenSize};
pub use shell::{Bounded, Limits, Shell, ShellError, ShellOutput};
pub use status::DeviceStatus;

use command::{sh_quote, TextRoute};
use droidmcp_geom::Point;
use droidmcp_hierarchy::Selector;
use parse::DumpOutcome;

/// Why a device operation failed.
#[derive(Debug, thiserror::Error)]
pub enum DeviceError {
    #[error(transparent)]
    Shell(#[from] ShellError),
    #[error("`{command}` failed (exit {exit_code}): {message}")]
    Command {
        command: String,
        exit_code: i32,
        message: String,
    },
    #[error("uiautomator dump failed after {attempts} attempts: {reason}")]
    Dump { attempts: u32, reason: String },
    #[error("screencap returned no image ({0})")]
    Screenshot(String),
    #[error("cannot read the screen size from `wm size`: {0:?}")]
    ScreenSize(String),
    #[error("typing {0} needs the ADBKeyboard IME (com.android.adbkeyboard/.AdbIME), which is not installed on this device; only printable ASCII can be typed without it")]
    NoUnicodeIme(String),
    #[error("no launchable activity for package {0}")]
    NotLaunchable(String),
    #[error("unknown device {spec:?}: {reason}")]
    UnknownDevice { spec: String, reason: String },
    #[error("cannot open {spec:?}: {max} embedded phones are open, the most this server keeps, and each is in use (a session, an episode or a replay holds it); use one of them or close a session first")]
    TooManyPhones { spec: String, max: usize },
    #[error("the device cannot resolve the string resource {reference} (`cmd overlay lookup`, Android 10 and later): {message}")]
    Resource { reference: String, message: String },
}

impl DeviceError {
    /// True when the device itself is gone (the session cannot continue on it).
    pub fn is_device_lost(&self) -> bool {
        matches!(self, DeviceError::Shell(e) if e.is_device_lost())
    }
}

/// [`Device::string_resource`] over any shell (checks read through theirs).
pub async fn string_resource(
    shell: &dyn Shell,
    package: &str,
    name: &str,
) -> Result<String, DeviceError> {
    let out = shell.exec(&command::string_lookup(package, name)).await?;
    let stdout = out.stdout_text();
    if !out.success() || stdout.starts_with("Error") || stdout.is_empty() {
        return Err(DeviceError::Resource {
            reference: format!("@{package}:string/{name}"),
            message: failure_message(&out),
        });
    }
    Ok(parse::resource_value(&stdout))
}

/// What a failed command said: its stderr, else its stdout, cut to 300 characters.
fn failure_message(out: &ShellOutput) -> String {
    [out.stderr_text(), out.stdout_text()]
        .iter()
        .map(|s| s.trim())
        .find(|s| !s.is_empty())
        .unwrap_or("no output")
        .chars()
        .take(300)
        .collect()
}

/// [`Device::resolve_strings`] over any shell.
pub async fn resolve_strings(
    shell: &dyn Shell,
    selector: &Selector,
) -> Result<Selector, DeviceError> {
    let mut texts = std::collections::HashMap::new();
    for r in selector.string_refs() {
        if !texts.contains_key(r) {
            texts.insert(
                r.clone(),
                string_resource(shell, &r.package, &r.name).await?,
            );
        }
    }
    Ok(selector
        .resolve_strings(|r| texts.get(r).cloned().ok_or(()))
        .expect("every reference was looked up above"))
}

/// How hard [`Device::dump_xml`] tries.
#[derive(Debug, Clone, Copy)]
pub struct DumpPolicy {
    pub attempts: u32,
    pub pause: Duration,
}

impl Default for DumpPolicy {
    fn default() -> Self {
        DumpPolicy {
            attempts: 3,
            pause: Duration::from_millis(300),
        }
    }
}

/// Where uiautomator writes when `/dev/tty` gives nothing usable.
pub const DUMP_FILE: &str = "/sdcard/window_dump.xml";

#[derive(Default)]
struct Cache {
    size: Option<ScreenSize>,
    launchable: Option<Vec<Foreground>>,
    /// package → launcher label seen on the launcher's screen.
    learned_labels: BTreeMap<String, String>,
}

/// One Android device, driven through its shell. Cheap to clone.
#[derive(Clone)]
pub struct Device {
    shell: Arc<dyn Shell>,
    /// std mutex: held only for map lookups, never across an await.
    cache: Arc<Mutex<Cache>>,
    pub dump_policy: DumpPolicy,
}

impl Device {
    /// A device over `shell` with the default [`Limits`] on every command.
    pub fn new(shell: Arc<dyn Shell>) -> Device {
        Device::with_limits(shell, Limits::default())
    }

    /// A device whose every command, pull and push runs under `limits` (timeout, output cap,
    /// cancellation): the shell is wrapped in [`Bounded`], and [`Device::shell_handle`] hands out the
    /// wrapped one, so episodes and checks on this device get the same bounds.
    pub fn with_limits(shell: Arc<dyn Shell>, limits: Limits) -> Device {
        Device {
            shell: Arc::new(Bounded::new(shell, limits)),
            cache: Arc::new(Mutex::new(Cache::default())),
            dump_policy: DumpPolicy::default(),
        }
    }

    pub fn serial(&self) -> &str {
        self.shell.serial()
    }

    /// The device as told apart from others with the same serial ([`Shell::device_key`]).
    pub fn device_key(&self) -> String {
        self.shell.device_key()
    }

    pub fn shell_handle(&self) -> Arc<dyn Shell> {
        self.shell.clone()
    }

    /// How many holders the shell has besides this `Device` (episodes, replays, checks keep one).
    pub fn shell_held_elsewhere(&self) -> usize {
        Arc::strong_count(&self.shell) - 1
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache
            .lock()
            .expect("device cache lock is never poisoned: no panics while held")
    }

    /// Runs a command line and returns its output whatever the exit code.
    pub async fn shell(&self, command_line: &str) -> Result<ShellOutput, DeviceError> {
        Ok(self.shell.exec(command_line).await?)
    }

    /// Runs a command line that must succeed; Android's tools also report some failures on stdout
    /// with exit 0 (`Error: …`, `Exception`), which count as failures too.
    pub async fn run(&self, command_line: &str) -> Result<ShellOutput, DeviceError> {
        let out = self.shell.exec(command_line).await?;
        let stdout = out.stdout_text();
        let failed_quietly = stdout.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("Error:") || l.starts_with("Exception") || l.contains("Error type ")
        });
        if !out.success() || failed_quietly {
            return Err(DeviceError::Command {
                command: command_line.chars().take(200).collect(),
                exit_code: out.exit_code,
                message: failure_message(&out),
            });
        }
        Ok(out)
    }

    /// Runs a command whose stdout is binary data (a raw frame, a PNG): only the exit code says
    /// whether it failed. Its output is never turned into text to look for `Error:` lines, which
    /// for a 10 MB frame cost more than taking it.
    pub async fn run_binary(&self, command_line: &str) -> Result<ShellOutput, DeviceError> {
        let out = self.shell.exec(command_line).await?;
        if !out.success() {
            let message: String = out.stderr_text().trim().chars().take(300).collect();
            return Err(DeviceError::Command {
                command: command_line.chars().take(200).collect(),
                exit_code: out.exit_code,
                message: if message.is_empty() {
                    "no error output".into()
                } else {
                    message
                },
            });
        }
        Ok(out)
    }

    pub async fn tap(&self, p: Point) -> Result<(), DeviceError> {
        self.run(&command::tap(p)).await.map(drop)
    }

    pub async fn double_tap(&self, p: Point) -> Result<(), DeviceError> {
        // One command line so both taps land within the double-tap timeout even over a slow link.
        let tap = command::tap(p);
        self.run(&format!("{tap}; {tap}")).await.map(drop)
    }

    pub async fn long_press(&self, p: Point, duration_ms: u32) -> Result<(), DeviceError> {
        self.run(&command::swipe(p, p, duration_ms)).await.map(drop)
    }

    pub async fn swipe(&self, from: Point, to: Point, duration_ms: u32) -> Result<(), DeviceError> {
        self.run(&command::swipe(from, to, duration_ms))
            .await
            .map(drop)
    }

    pub async fn keys(&self, codes: &[u32]) -> Result<(), DeviceError> {
        if codes.is_empty() {
            return Ok(());
        }
        self.run(&command::keyevents(codes)).await.map(drop)
    }

    /// Types into the focused field; returns the route the text took.
    pub async fn type_text(&self, text: &str) -> Result<TextRoute, DeviceError> {
        let route = command::text_route(text);
        if text.is_empty() {
            return Ok(route);
        }
        if route.is_broadcast() {
            let restore = self.ensure_adb_keyboard(text).await?;
            let sent = self.run(route.command()).await;
            if let Some(previous) = restore {
                // Best effort: the text is typed either way; a failed restore leaves AdbIME active.
                let _ = self
                    .shell(&format!("ime set {}", sh_quote(&previous)))
                    .await;
            }
            sent?;
        } else {
            self.run(route.command()).await?;
        }
        Ok(route)
    }

    /// Makes ADBKeyboard the active IME when the phone lists it; returns the IME to restore afterwards.
    /// A shell without the `ime` command (none on the embedded phone's list) gets the broadcast as is.
    async fn ensure_adb_keyboard(&self, text: &str) -> Result<Option<String>, DeviceError> {
        let list = self.shell("ime list -s").await?;
        if list.exit_code == 127 {
            return Ok(None);
        }
        let listed = list
            .stdout_text()
            .lines()
            .any(|l| l.trim() == command::ADB_KEYBOARD_IME);
        if !listed {
            let preview: String = text.chars().take(20).collect();
            return Err(DeviceError::NoUnicodeIme(format!("{preview:?}")));
        }
        let current = self
            .shell("settings get secure default_input_method")
            .await?
            .stdout_text()
            .trim()
            .to_string();
        if current == command::ADB_KEYBOARD_IME {
            return Ok(None);
        }
        self.run(&format!(
            "ime enable {ime} && ime set {ime}",
            ime = command::ADB_KEYBOARD_IME
        ))
        .await?;
        Ok((!current.is_empty() && current != "null").then_some(current))
    }

    /// The text of a string resource in the device's current locale, as `cmd overlay lookup`
    /// prints it (OverlayManagerService loads the package's resources with the current
    /// configuration). This is how a selector that names a label by its resource finds it in any
    /// language; a device without the command or the resource is an error, never an empty text.
    pub async fn string_resource(&self, package: &str, name: &str) -> Result<String, DeviceError> {
        string_resource(self.shell.as_ref(), package, name).await
    }

    /// `selector` with every string resource it names replaced by its text on this device
    /// ([`Device::string_resource`]); a selector without any comes back as it is.
    pub async fn resolve_strings(&self, selector: &Selector) -> Result<Selector, DeviceError> {
        resolve_strings(self.shell.as_ref(), selector).await
    }

    /// The size input coordinates live in (override when set), cached after the first read.
    pub async fn screen_size(&self) -> Result<ScreenSize, DeviceError> {
        if let Some(size) = self.cache().size {
            return Ok(size);
        }
        let out = self.run("wm size").await?.stdout_text();
        let size = parse::wm_size(&out).ok_or_else(|| DeviceError::ScreenSize(out.clone()))?;
        self.cache().size = Some(size);
        Ok(size)
    }

    /// `screencap -p`, checked to be a PNG.
    pub async fn screencap_png(&self) -> Result<Vec<u8>, DeviceError> {
        let out = self.run_binary("screencap -p").await?;
        if !out.stdout.starts_with(b"\x89PNG\r\n\x1a\n") {
            let head: String = String::from_utf8_lossy(&out.stdout[..out.stdout.len().min(80)])
                .chars()
                .filter(|c| !c.is_control())
                .collect();
            return Err(DeviceError::Screenshot(if head.is_empty() {
                "empty output".into()
            } else {
                head
            }));
        }
        Ok(out.stdout)
    }

    /// The screen's pixels. Where moving bytes is cheap (the embedded phone, an emulator or adb
    /// server on this host) the raw frame of `screencap` is read directly, skipping the device's PNG
    /// encode and our decode; over USB or Wi-Fi, where a 1080×2400 raw frame (10 MB) costs far more
    /// than its 50–100 KB PNG, `screencap -p`. A raw frame in a format we don't read falls back to
    /// PNG.
    pub async fn screen_pixels(&self) -> Result<::image::RgbaImage, DeviceError> {
        if frames_are_cheap(self.serial()) {
            let out = self.run_binary("screencap").await?;
            if let Some(img) = self::image::raw_frame(out.stdout) {
                return Ok(img);
            }
        }
        let png = self.screencap_png().await?;
        self::image::decode_png(&png).map_err(|e| DeviceError::Screenshot(e.to_string()))
    }

    /// The screen scaled so its long side is at most `max_edge` pixels, encoded as `encoding`
    /// (what judges are shown of a step).
    pub async fn screenshot_scaled(
        &self,
        max_edge: u32,
        encoding: self::image::Encoding,
    ) -> Result<self::image::Screenshot, DeviceError> {
        let pixels = self.screen_pixels().await?;
        let factor = self::image::downscale_factor(pixels.width(), pixels.height(), max_edge);
        let scaled = self::image::scale(&pixels, factor);
        self::image::finish(&scaled, encoding, factor)
            .map_err(|e| DeviceError::Screenshot(e.to_string()))
    }

    /// The UI hierarchy as uiautomator dumps it, retried on the known transient failures. Never
    /// returns an empty screen for a failed dump.
    pub async fn dump_xml(&self) -> Result<String, DeviceError> {
        let attempts = self.dump_policy.attempts.max(1);
        let mut reason = String::new();
        for attempt in 1..=attempts {
            let out = self.shell("uiautomator dump /dev/tty").await?;
            let mut outcome = parse::dump_output(&out.stdout_text());
            if !matches!(outcome, DumpOutcome::Xml(_)) {
                // Some builds refuse /dev/tty; the file route is the documented one.
                let via_file = self
                    .shell(&format!(
                        "rm -f {DUMP_FILE}; uiautomator dump {DUMP_FILE} >/dev/null && cat {DUMP_FILE}"
                    ))
                    .await?;
                let second = parse::dump_output(&via_file.stdout_text());
                if matches!(second, DumpOutcome::Xml(_)) {
                    outcome = second;
                }
            }
            match outcome {
                DumpOutcome::Xml(xml) => return Ok(xml),
                DumpOutcome::Transient(why) => reason = why,
                DumpOutcome::Garbage(why) => {
                    // Not a known transient failure (e.g. no uiautomator at all): retrying won't help.
                    let err = out.stderr_text();
                    let reason = if err.trim().is_empty() {
                        why
                    } else {
                        err.trim().to_string()
                    };
                    return Err(DeviceError::Dump {
                        attempts: attempt,
                        reason,
                    });
                }
            }
            if attempt < attempts {
                tokio::time::sleep(self.dump_policy.pause).await;
            }
        }
        Err(DeviceError::Dump { attempts, reason })
    }

    /// The app in front, from `dumpsys activity activities`, else `dumpsys window`.
    pub async fn foreground(&self) -> Result<Option<Foreground>, DeviceError> {
        let activities = self.shell("dumpsys activity activities").await?;
        if let Some(fg) = parse::resumed_activity(&activities.stdout_text()) {
            return Ok(Some(fg));
        }
        let window = self.shell("dumpsys window").await?;
        Ok(parse::focused_window(&window.stdout_text()))
    }

    /// Battery, radios, volumes, brightness, time, language, screen and the app in front, read with
    /// Android's own tools in one command line ([`status::status_command`]).
    pub async fn status(&self) -> Result<DeviceStatus, DeviceError> {
        let out = self.shell(&status::status_command()).await?;
        let mut status = status::parse_status(&out.stdout_text());
        status.foreground = self.foreground().await?.map(|f| match f.activity {
            Some(a) => format!("{}/{a}", f.package),
            None => f.package,
        });
        Ok(status)
    }

    /// Launchable apps with the names they answer to (the package list is read once per device).
    pub async fn apps(&self) -> Result<Vec<AppEntry>, DeviceError> {
        let cached = self.cache().launchable.clone();
        let found = match cached {
            Some(found) => found,
            None => {
                let found = self.launchable().await?;
                self.cache().launchable = Some(found.clone());
                found
            }
        };
        let learned = self.cache().learned_labels.clone();
        Ok(found
            .into_iter()
            .map(|fg| AppEntry {
                names: apps::names_for(&fg.package, &learned),
                package: fg.package,
                activity: fg.activity,
            })
            .collect())
    }

    async fn launchable(&self) -> Result<Vec<Foreground>, DeviceError> {
        let out = self.shell(command::QUERY_LAUNCHER_ACTIVITIES).await?;
        if out.success() {
            let found = parse::launcher_activities(&out.stdout_text());
            if !found.is_empty() {
                return Ok(found);
            }
        }
        // Builds without query-activities: ask per package which has a launcher activity.
        let pm = self.run("pm list packages").await?;
        let mut found = Vec::new();
        for package in parse::package_list(&pm.stdout_text()) {
            let out = self.shell(&command::resolve_launcher(&package)).await?;
            if let Some(fg) = parse::launcher_activities(&out.stdout_text())
                .into_iter()
                .find(|fg| fg.package == package)
            {
                found.push(fg);
            }
        }
        Ok(found)
    }

    /// Remembers the launcher label an app showed (from the launcher's own screen).
    pub fn learn_label(&self, package: &str, label: &str) {
        self.cache()
            .learned_labels
            .insert(package.to_string(), label.to_string());
    }

    /// Starts an app's launcher activity.
    pub async fn launch(&self, app: &AppEntry) -> Result<(), DeviceError> {
        match &app.activity {
            Some(activity) => self
                .run(&command::start_activity(&app.package, activity))
                .await
                .map(drop),
            None => {
                let out = self.run(&command::monkey_launch(&app.package)).await?;
                if out.stdout_text().contains("No activities found") {
                    return Err(DeviceError::NotLaunchable(app.package.clone()));
                }
                Ok(())
            }
        }
    }
}

/// Whether the device behind `serial` sits on this host, so raw frames cost a memory copy rather
/// than a USB or network transfer: the embedded phone and local emulators (`emulator-5554`,
/// `localhost:5555`, `127.0.0.1:5555`).
fn frames_are_cheap(serial: &str) -> bool {
    sim_seed(serial).is_some()
        || serial.starts_with("emulator-")
        || serial.starts_with("localhost:")
        || serial.starts_with("127.0.0.1:")
}

/// `sim` → seed 0, `sim:7` → 7, `sim-7` (the serial form) → 7; `None` when the spec is not a sim.
pub fn sim_seed(spec: &str) -> Option<Result<u64, String>> {
    let rest = spec
        .strip_prefix("sim")
        .filter(|r| r.is_empty() || r.starts_with([':', '-']))?;
    if rest.is_empty() {
        return Some(Ok(0));
    }
    Some(
        rest[1..]
            .parse()
            .map_err(|_| format!("the seed in {spec:?} is not a number")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_specs() {
        assert_eq!(sim_seed("sim"), Some(Ok(0)));
        assert_eq!(sim_seed("sim:42"), Some(Ok(42)));
        assert_eq!(sim_seed("sim-42"), Some(Ok(42)));
        assert!(matches!(sim_seed("sim:x"), Some(Err(_))));
        assert_eq!(sim_seed("emulator-5554"), None);
        assert_eq!(sim_seed("simulator"), None);
    }
}

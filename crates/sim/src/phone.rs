//! The [`Phone`] handle: boots the embedded phone and runs shell command lines against it.

use std::sync::{Arc, Mutex};

use droidmcp_device::{Shell, ShellError, ShellOutput};

use super::apps::launcher::home::HomeScreen;
use super::framework::Framework;
use super::render::Wallpaper;
use super::snapshot::{self, SnapshotError, SnapshotInfo};
use super::system::ClockMode;
use super::{shell, system};

/// Screen size and density of a real device model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    pub model: &'static str,
    pub width: i32,
    pub height: i32,
    pub density: i32,
}

impl Profile {
    pub const PIXEL_3: Profile = Profile {
        name: "pixel3",
        model: "Pixel 3",
        width: 1080,
        height: 2160,
        density: 440,
    };
    pub const PIXEL_4: Profile = Profile {
        name: "pixel4",
        model: "Pixel 4",
        width: 1080,
        height: 2280,
        density: 440,
    };
    pub const PIXEL_5: Profile = Profile {
        name: "pixel5",
        model: "Pixel 5",
        width: 1080,
        height: 2340,
        density: 440,
    };
    pub const PIXEL_6: Profile = Profile {
        name: "pixel6",
        model: "Pixel 6",
        width: 1080,
        height: 2400,
        density: 420,
    };
    pub const TABLET: Profile = Profile {
        name: "tablet",
        model: "Pixel Tablet",
        width: 2560,
        height: 1600,
        density: 320,
    };

    /// The Android emulator's WXGA tablet, as B-MoCA configures it (landscape, mdpi).
    pub const WXGA_TABLET: Profile = Profile {
        name: "wxga-tablet",
        model: "WXGA Tablet",
        width: 1200,
        height: 800,
        density: 160,
    };

    pub const ALL: [Profile; 6] = [
        Profile::PIXEL_3,
        Profile::PIXEL_4,
        Profile::PIXEL_5,
        Profile::PIXEL_6,
        Profile::TABLET,
        Profile::WXGA_TABLET,
    ];

    pub fn by_name(name: &str) -> Option<Profile> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
    }
}

/// How to boot a phone.
#[derive(Debug, Clone, PartialEq)]
pub struct SimConfig {
    pub seed: u64,
    pub profile: Profile,
    pub locale: String,
    pub font_scale: f32,
    pub dark_mode: bool,
    /// A density other than the profile's physical one (what `wm density N` sets).
    pub density: Option<i32>,
    /// The home-screen wallpaper.
    pub wallpaper: Wallpaper,
    /// The home-screen layout written to the launcher's database at boot; `None` leaves the
    /// launcher's default workspace.
    pub home: Option<HomeScreen>,
    /// Virtual (deterministic, the default) or real time; see [`ClockMode`].
    pub clock: ClockMode,
    /// The name of the device environment this configuration came from, if any.
    pub environment: Option<String>,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            seed: 0,
            profile: Profile::PIXEL_6,
            locale: "en-US".into(),
            font_scale: 1.0,
            dark_mode: false,
            density: None,
            wallpaper: Wallpaper::Plain,
            home: None,
            clock: ClockMode::Virtual,
            environment: None,
        }
    }
}

/// Why a phone could not boot.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("cannot create the phone's data directory: {0}")]
    DataDir(#[source] std::io::Error),
    #[error("cannot save the phone's boot snapshot: {0}")]
    Baseline(#[source] SnapshotError),
}

struct PhoneState {
    framework: Framework,
    /// The accessibility forwarder's sending thread is running (`a11y::forwarder`).
    forwarding: bool,
    /// Owns the directory standing for the phone's `/`; dropped (deleted) with the phone.
    _data: tempfile::TempDir,
}

/// A cloneable handle to one embedded phone.
#[derive(Clone)]
pub struct Phone {
    serial: Arc<str>,
    state: Arc<Mutex<PhoneState>>,
}

/// Directories a fresh phone has.
const BOOT_DIRS: [&str; 9] = [
    "/sdcard/Download",
    "/sdcard/Pictures",
    "/sdcard/DCIM",
    "/sdcard/Movies",
    "/data/local/tmp",
    "/data/data",
    "/data/user_de/0",
    "/system/bin",
    "/dev",
];

impl Phone {
    /// Boots a phone: a private data directory, default settings, every app installed, the launcher
    /// on screen.
    pub fn new(config: SimConfig) -> Result<Phone, SimError> {
        let data = super::datadir::create().map_err(SimError::DataDir)?;
        for dir in BOOT_DIRS {
            let host = data.path().join(dir.trim_start_matches('/'));
            std::fs::create_dir_all(host).map_err(SimError::DataDir)?;
        }
        let serial = format!("sim-{}", config.seed);
        let mut framework = Framework::boot(config, data.path().to_path_buf(), serial.clone());
        framework
            .save_snapshot(snapshot::BASELINE)
            .map_err(SimError::Baseline)?;
        Ok(Phone {
            serial: serial.into(),
            state: Arc::new(Mutex::new(PhoneState {
                framework,
                forwarding: false,
                _data: data,
            })),
        })
    }

    pub fn serial(&self) -> String {
        self.serial.to_string()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, PhoneState> {
        // A panic inside an app is caught in `exec`; the state stays usable, so a poisoned lock is fine.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one command line as `/system/bin/sh -c` would on the phone.
    pub fn exec(&self, command_line: &str) -> ShellOutput {
        self.exec_interruptible(command_line, system::Interrupt::default())
    }

    /// Runs a command line that `interrupt` can cancel: before it starts (it then does not run) or
    /// while it runs (long-running tools stop, like a process killed by SIGINT, exit 130).
    pub fn exec_interruptible(
        &self,
        command_line: &str,
        interrupt: system::Interrupt,
    ) -> ShellOutput {
        let mut state = self.lock();
        if interrupt.is_raised() {
            return ShellOutput::fail("interrupted\n", 130);
        }
        let fw = &mut state.framework;
        fw.interrupt = interrupt;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            shell::exec(fw, command_line)
        }));
        let interrupted = fw.interrupt.is_raised();
        fw.interrupt = system::Interrupt::default();
        let out = if interrupted {
            ShellOutput::fail("interrupted\n", 130)
        } else {
            match result {
                Ok(out) => out,
                Err(_) => {
                    // An app crashed: Android kills its process and shows the launcher behind it.
                    let crashed = fw.foreground_package().to_string();
                    fw.sys.log(
                        system::pid::SYSTEM_SERVER,
                        'E',
                        "AndroidRuntime",
                        format!("FATAL EXCEPTION: main\nProcess: {crashed}"),
                    );
                    fw.force_stop(&crashed);
                    fw.sys.requests.clear();
                    ShellOutput::fail(format!("{crashed} has stopped\n"), 1)
                }
            }
        };
        self.start_forwarder(&mut state);
        out
    }

    /// Starts the accessibility forwarder's sending thread when a command just gave it work (its
    /// service enabled, tree logging on, a gRPC port set) and it is not running. The thread holds
    /// the phone weakly: it ends when the phone is dropped or the forwarder has nothing to do.
    fn start_forwarder(&self, state: &mut PhoneState) {
        if state.forwarding || !state.framework.a11y.should_run(&state.framework.sys) {
            return;
        }
        let weak = Arc::downgrade(&self.state);
        let poll = move |outcome: &super::a11y::Outcome| {
            let phone = weak.upgrade()?;
            let mut state = phone.lock().unwrap_or_else(|e| e.into_inner());
            // An app whose view tree panics must not kill the thread with `forwarding` still set.
            let job = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                super::a11y::next_job(&mut state.framework, outcome)
            }))
            .ok()
            .flatten();
            if job.is_none() {
                state.forwarding = false;
            }
            job
        };
        match super::a11y::forwarder::spawn(poll) {
            Ok(_) => state.forwarding = true,
            Err(e) => tracing::warn!("cannot start the accessibility forwarder: {e}"),
        }
    }

    /// Runs one emulator console line (`gsm call 5551234`) and returns what the console prints.
    pub fn console(&self, line: &str) -> String {
        let mut state = self.lock();
        let fw = &mut state.framework;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::console::run(fw, line)
        }))
        .unwrap_or_else(|_| "KO: internal error\r\n".to_string())
    }

    /// Saves the whole phone as snapshot `name` (`avd snapshot save NAME`), replacing one of that
    /// name.
    pub fn save_snapshot(&self, name: &str) -> Result<(), SnapshotError> {
        self.lock().framework.save_snapshot(name)
    }

    /// Loads snapshot `name` (`avd snapshot load NAME`); the phone booted with
    /// [`snapshot::BASELINE`].
    pub fn load_snapshot(&self, name: &str) -> Result<(), SnapshotError> {
        self.lock().framework.load_snapshot(name)
    }

    /// The saved snapshots, oldest first (`avd snapshot list`).
    pub fn snapshots(&self) -> Vec<SnapshotInfo> {
        self.lock().framework.snapshots()
    }

    /// Deletes snapshot `name` (`avd snapshot delete NAME`).
    pub fn delete_snapshot(&self, name: &str) -> Result<(), SnapshotError> {
        self.lock().framework.delete_snapshot(name)
    }

    /// Reads a file by Android path.
    pub fn read_file(&self, path: &str) -> std::io::Result<Vec<u8>> {
        let state = self.lock();
        let host = shell::resolve_path(&state.framework, path).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::PermissionDenied, path.to_string())
        })?;
        if host.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{path}: is a directory"),
            ));
        }
        // MediaProvider learns of a file through FUSE the moment it is written, so its database,
        // read from outside, already has the row. This phone scans when the store is opened;
        // reading the database file opens it first, so a pull sees what a real phone's would.
        if path.starts_with(super::providers::media::DB_PATH) {
            // A store that cannot be opened is read as the file stands.
            let _ = super::providers::media::open(&state.framework.sys);
        }
        std::fs::read(host)
    }

    /// Writes a file by Android path, creating parent directories.
    pub fn write_file(&self, path: &str, data: &[u8], _mode: u32) -> std::io::Result<()> {
        let mut state = self.lock();
        let host = shell::resolve_path(&state.framework, path).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::PermissionDenied, path.to_string())
        })?;
        if let Some(dir) = host.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(host, data)?;
        let sys = &mut state.framework.sys;
        let now = sys.clock.now();
        sys.file_times.stamp(path, now);
        Ok(())
    }

    /// The boot configuration.
    pub fn config(&self) -> SimConfig {
        self.lock().framework.config.clone()
    }
}

#[async_trait::async_trait]
impl Shell for Phone {
    fn serial(&self) -> &str {
        &self.serial
    }

    fn environment(&self) -> Option<String> {
        self.lock().framework.config.environment.clone()
    }

    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        let phone = self.clone();
        let line = command_line.to_string();
        let interrupt = system::Interrupt::default();
        // Dropping this future (a timeout, a cancelled request) raises the interrupt, so the blocking
        // command stops and releases the phone instead of running on unseen.
        let mut armed = RaiseOnDrop(Some(interrupt.clone()));
        let result =
            tokio::task::spawn_blocking(move || phone.exec_interruptible(&line, interrupt))
                .await
                .map_err(|e| ShellError::Disconnected {
                    serial: self.serial.to_string(),
                    reason: e.to_string(),
                });
        armed.0 = None;
        result
    }

    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        self.read_file(path).map_err(|e| file_error(path, e))
    }

    async fn console(&self, line: &str) -> Result<String, ShellError> {
        let phone = self.clone();
        let line = line.to_string();
        tokio::task::spawn_blocking(move || phone.console(&line))
            .await
            .map_err(|e| ShellError::Disconnected {
                serial: self.serial.to_string(),
                reason: e.to_string(),
            })
    }

    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        self.write_file(path, data, mode)
            .map_err(|e| file_error(path, e))
    }
}

/// Raises an interrupt when dropped while still armed.
struct RaiseOnDrop(Option<system::Interrupt>);

impl Drop for RaiseOnDrop {
    fn drop(&mut self) {
        if let Some(interrupt) = self.0.take() {
            interrupt.raise();
        }
    }
}

fn file_error(path: &str, e: std::io::Error) -> ShellError {
    match e.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::InvalidInput => ShellError::NoSuchFile {
            path: path.to_string(),
        },
        _ => ShellError::PermissionDenied {
            path: path.to_string(),
        },
    }
}

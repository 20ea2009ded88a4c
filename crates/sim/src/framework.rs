//! The embedded phone's framework: the task stack of running apps, input focus and the IME, scroll
//! offsets, the screen's power state, and the dispatch of input to apps.
//!
//! Brief overview: [`Framework`] owns the [`System`] and every running [`App`]. The shell layer calls
//! its input methods ([`Framework::tap`], [`Framework::swipe`], [`Framework::key`],
//! [`Framework::type_text`]) and reads the screen through [`Framework::windows`]; after every event
//! the requests apps raised ([`Request`]) are carried out here.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use droidmcp_geom::{Bounds, Point};

use super::app::{App, AppInfo, UiEvent};
use super::apps;
use super::keyboard::KeyboardState;
use super::phone::{Profile, SimConfig};
use super::screen::{self, Window};
use super::system::{pid, ClockMode, Namespace, Request, SimClock, System};
use super::telephony;
use super::view::Metrics;

mod input;

pub use input::typed_char;

/// One running app: its UI object and the ids Android would give its task and process.
pub struct Task {
    pub app: Box<dyn App>,
    pub package: &'static str,
    pub id: u32,
    pub pid: u32,
    /// The intent that started the task, as `Intent.toString` prints its inside (`act=… cmp=…`):
    /// the recents dump's `baseIntent`.
    pub intent: String,
    /// When the task last came to the front (`SystemClock.elapsedRealtime` ms): the recents
    /// dump's `lastActiveTime`.
    pub last_active_ms: u128,
    /// It has been in front. A process started only to take a broadcast (an SMS, a call's end, an
    /// alarm) runs without an activity, so Android lists no task for it (`am stack list`,
    /// `dumpsys activity`, the overview) until it is opened.
    pub shown: bool,
}

impl Task {
    /// The package of the activity on top of the task.
    pub fn top_package(&self) -> &'static str {
        self.app.activity_package()
    }

    /// The top activity as `ComponentName.flattenToShortString` prints it.
    pub fn top_component(&self) -> String {
        Framework::short_component(self.top_package(), &self.app.activity())
    }
}

impl Clone for Task {
    fn clone(&self) -> Task {
        Task {
            app: self.app.clone_app(),
            package: self.package,
            id: self.id,
            pid: self.pid,
            intent: self.intent.clone(),
            last_active_ms: self.last_active_ms,
            shown: self.shown,
        }
    }
}

/// The display as `wm` sees it: the profile's physical values and any overrides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Display {
    pub profile: Profile,
    pub size_override: Option<(i32, i32)>,
    pub density_override: Option<i32>,
}

impl Display {
    pub fn size(&self) -> (i32, i32) {
        self.size_override
            .unwrap_or((self.profile.width, self.profile.height))
    }

    pub fn density(&self) -> i32 {
        self.density_override.unwrap_or(self.profile.density)
    }
}

/// Who asked for an activity start; decides the intent text in the `START u0 {…}` log line.
#[derive(Debug, Clone, PartialEq)]
pub enum Launcher {
    /// The home screen, an app's request, or monkey: a MAIN/LAUNCHER intent.
    Home,
    /// `am start`: the intent as the shell built it (`act=… cmp=…`), from uid 2000.
    Shell(String),
}

/// Why an app could not be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    #[error("no launchable activity in package {0}")]
    UnknownPackage(String),
}

/// Key codes the framework reacts to (`KeyEvent.KEYCODE_*`).
pub mod keycode {
    pub const HOME: i32 = 3;
    pub const BACK: i32 = 4;
    pub const CALL: i32 = 5;
    pub const ENDCALL: i32 = 6;
    pub const STAR: i32 = 17;
    pub const POUND: i32 = 18;
    pub const VOLUME_UP: i32 = 24;
    pub const VOLUME_DOWN: i32 = 25;
    pub const POWER: i32 = 26;
    pub const TAB: i32 = 61;
    pub const SPACE: i32 = 62;
    pub const ENTER: i32 = 66;
    pub const DEL: i32 = 67;
    pub const MENU: i32 = 82;
    pub const NOTIFICATION: i32 = 83;
    pub const FORWARD_DEL: i32 = 112;
    pub const CTRL_LEFT: i32 = 113;
    pub const CTRL_RIGHT: i32 = 114;
    pub const VOLUME_MUTE: i32 = 164;
    pub const APP_SWITCH: i32 = 187;
    pub const SLEEP: i32 = 223;
    pub const CUT: i32 = 277;
    pub const COPY: i32 = 278;
    pub const PASTE: i32 = 279;
    pub const WAKEUP: i32 = 224;
}

/// The framework state of one phone.
pub struct Framework {
    pub sys: System,
    /// Raised when the shell command being run is cancelled (its caller timed out or went away);
    /// long-running tools stop on it.
    pub interrupt: super::system::Interrupt,
    pub config: SimConfig,
    pub catalog: Vec<AppInfo>,
    /// Running tasks bottom to top; the last one is in the foreground. The launcher is always present.
    pub stack: Vec<Task>,
    /// The focused editable view: (package, tag).
    pub focus: Option<(String, String)>,
    /// Selected text and its floating toolbar (`selection.rs`).
    pub selection: Option<super::selection::Selection>,
    pub ime_visible: bool,
    pub keyboard: KeyboardState,
    /// Scroll offsets in px per (package, scroll container tag).
    pub scroll: BTreeMap<(String, String), i32>,
    pub screen_on: bool,
    /// The recents (overview) screen is showing.
    pub overview: bool,
    /// The notification shade is pulled down (`shade.rs`).
    pub shade_open: bool,
    pub display: Display,
    /// `input motionevent DOWN` position and time, until the matching `UP`.
    pub pending_touch: Option<(Point, i64)>,
    /// The serial `getprop ro.serialno` reports.
    pub serial: String,
    pub(super) next_task_id: u32,
    pub(super) next_pid: u32,
    /// Saved whole-phone snapshots (`avd snapshot save|load`), `default_boot` among them.
    pub snapshots: super::snapshot::Store,
    /// android_env's AccessibilityForwarder: its `LogFlags` and sending loop (`a11y.rs`).
    pub a11y: super::a11y::Forwarder,
}

/// How far one event moves the simulated clock (one frame).
pub const EVENT_MS: i64 = 16;

impl Framework {
    /// Boots: default settings, every app's first-boot install, the launcher on screen.
    pub fn boot(config: SimConfig, root: std::path::PathBuf, serial: String) -> Framework {
        let display = Display {
            profile: config.profile,
            size_override: None,
            density_override: config.density.filter(|d| *d != config.profile.density),
        };
        let mut sys = System::new(
            root,
            match config.clock {
                ClockMode::Virtual => SimClock::virtual_at(boot_time(config.seed)),
                ClockMode::Real => SimClock::real(),
            },
            metrics_for(&display, config.font_scale),
            config.seed,
        );
        sys.settings = super::defaults::settings(&config);
        sys.locale = config.locale.replace('_', "-");
        sys.properties = super::defaults::properties(&config, &serial)
            .into_iter()
            .collect();
        let mut fw = Framework {
            sys,
            interrupt: Default::default(),
            config,
            catalog: apps::catalog(),
            stack: Vec::new(),
            focus: None,
            selection: None,
            ime_visible: false,
            keyboard: KeyboardState::default(),
            scroll: BTreeMap::new(),
            screen_on: true,
            overview: false,
            shade_open: false,
            display,
            pending_touch: None,
            serial: String::new(),
            next_task_id: 10,
            next_pid: 0,
            snapshots: Default::default(),
            a11y: Default::default(),
        };
        fw.serial = serial;
        fw.next_pid = 4000 + (fw.config.seed % 1000) as u32;
        fw.sys.log(
            pid::SYSTEM_SERVER,
            'I',
            "SystemServer",
            "Entered the Android system server!",
        );
        for i in 0..fw.catalog.len() {
            (fw.catalog[i].install)(&mut fw.sys);
        }
        fw.sys.requests.clear();
        if let Err(e) = fw.sys.write_boot_id() {
            // Only episodes read it, to notice a restart; without it they cannot, and say nothing.
            fw.sys.log(
                pid::SYSTEM_SERVER,
                'E',
                "SystemServer",
                format!("cannot write the boot id: {e}"),
            );
        }
        // MediaProvider creates its database as the phone boots: a read of the phone's databases
        // then finds it from the start, so the rows of files pushed before that read (a task's
        // setup) are in it then, and are not taken later for files the agent added.
        if let Err(e) = crate::providers::media::create(&fw.sys) {
            fw.sys.log(
                pid::SYSTEM_SERVER,
                'E',
                "MediaProvider",
                format!("cannot open external.db: {e}"),
            );
        }
        fw.apply_home_config();
        fw.sys.log(
            pid::SYSTEM_SERVER,
            'I',
            "ActivityManager",
            "System now ready",
        );
        let home = apps::launcher::PACKAGE;
        if fw.launch(home, Launcher::Home).is_err() {
            // The catalog always holds the launcher; a phone without one still answers the shell.
        }
        fw.sys
            .log(pid::SYSTEM_SERVER, 'I', "ActivityManager", "Boot completed");
        fw
    }

    /// Writes the boot configuration's home-screen layout and wallpaper where the launcher and the
    /// wallpaper service keep them, as restoring a backup onto a fresh phone would.
    fn apply_home_config(&mut self) {
        use apps::launcher::home;
        if let Some(layout) = &self.config.home {
            if let Err(e) = home::write(&self.sys, layout) {
                self.sys.log(
                    pid::SYSTEM_SERVER,
                    'E',
                    "Launcher",
                    format!("cannot write launcher.db: {e}"),
                );
            }
        }
        if self.config.wallpaper != super::render::Wallpaper::Plain {
            if let Err(e) = home::write_wallpaper(&self.sys, self.config.wallpaper) {
                self.sys.log(
                    pid::SYSTEM_SERVER,
                    'E',
                    "WallpaperManagerService",
                    format!("cannot write wallpaper_info.xml: {e}"),
                );
            }
        }
    }

    /// Recomputes screen metrics from the display and the font-scale setting (call after either changes).
    pub fn refresh_metrics(&mut self) {
        let font_scale = self
            .sys
            .settings
            .get(Namespace::System, "font_scale")
            .and_then(|v| v.trim().parse::<f32>().ok())
            .filter(|f| f.is_finite() && *f > 0.1 && *f < 10.0)
            .unwrap_or(self.config.font_scale);
        self.sys.metrics = metrics_for(&self.display, font_scale);
        // Like adjustResize: while the keyboard is up, apps lay out above it, so what the user types
        // into and the buttons beside it stay reachable.
        if self.ime_visible && self.focus.is_some() && !self.overview {
            self.sys.metrics.content.bottom -= super::keyboard::height(&self.sys.metrics);
        }
    }

    pub fn app_info(&self, package: &str) -> Option<&AppInfo> {
        self.catalog.iter().find(|a| a.package == package)
    }

    /// The task in the foreground.
    pub fn foreground(&self) -> Option<&Task> {
        self.stack.last()
    }

    /// Whether an activity of `package` holds input focus, as WindowManager's `isUidFocused` says:
    /// it is on top of the foreground task, the screen is on, and neither the shade nor the
    /// overview has taken focus (the same window `dumpsys window`'s mCurrentFocus names).
    pub fn has_input_focus(&self, package: &str) -> bool {
        self.screen_on
            && !self.shade_open
            && !self.overview
            && self
                .foreground()
                .is_some_and(|t| t.top_package() == package)
    }

    /// Package of the window that has input focus (the launcher while the overview shows).
    pub fn foreground_package(&self) -> &str {
        if self.overview {
            return apps::launcher::PACKAGE;
        }
        self.foreground().map(|t| t.package).unwrap_or("")
    }

    /// `pkg/.Activity` (short form when the class lives in the package), as Android prints components.
    pub fn short_component(package: &str, activity: &str) -> String {
        match activity.strip_prefix(package) {
            Some(rest) if rest.starts_with('.') => format!("{package}/{rest}"),
            _ => format!("{package}/{activity}"),
        }
    }

    fn uid_of(&self, package: &str) -> String {
        if package == apps::settings::PACKAGE {
            return "1000".into();
        }
        let idx = self
            .catalog
            .iter()
            .position(|a| a.package == package)
            .unwrap_or(0);
        format!("u0a{}", 120 + idx)
    }

    /// Starts `package`'s launcher activity, or brings its task to the front.
    pub fn launch(&mut self, package: &str, launcher: Launcher) -> Result<(), LaunchError> {
        let Some(info) = self.catalog.iter().find(|a| a.package == package) else {
            return Err(LaunchError::UnknownPackage(package.to_string()));
        };
        let package: &'static str = info.package;
        let create = info.create;
        let activity = info.launch_activity;
        let short = Framework::short_component(package, activity);
        self.overview = false;
        self.hide_ime();
        let intent = match &launcher {
            Launcher::Home => format!(
                "act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10200000 cmp={short}"
            ),
            Launcher::Shell(intent) => intent.clone(),
        };
        let uid = match launcher {
            Launcher::Home => "10093",
            Launcher::Shell(_) => "2000",
        };
        self.sys.log(
            pid::SYSTEM_SERVER,
            'I',
            "ActivityTaskManager",
            format!("START u0 {{{intent}}} with LAUNCH_SINGLE_TASK from uid {uid} (BAL_ALLOW_PERMISSION) result code=0"),
        );
        if let Some(pos) = self.stack.iter().position(|t| t.package == package) {
            let task = self.stack.remove(pos);
            self.push_front(task);
        } else {
            let reason = format!("next-top-activity {{{package}/{activity}}}");
            let mut task = self.start_process(package, create, &reason);
            task.intent = intent;
            self.push_front(task);
            let ms = 250 + self.sys.rng_u32() % 300;
            self.sys.clock.advance_ms(ms as i64);
            self.sys.log(
                pid::SYSTEM_SERVER,
                'I',
                "ActivityTaskManager",
                format!("Displayed {short} for user 0: +{ms}ms"),
            );
        }
        self.process_requests();
        Ok(())
    }

    /// Hands an intent to a running package's app (after [`Framework::launch`] started or raised it).
    pub fn deliver_intent(&mut self, package: &str, intent: &super::app::Intent) {
        if let Some(task) = self.stack.iter_mut().find(|t| t.package == package) {
            task.app.new_intent(intent, &mut self.sys);
        }
        self.process_requests();
    }

    /// Starts `package`'s process and builds its app object, logging ActivityManager's line with
    /// why (`next-top-activity {…}`, `broadcast {…}`). The caller places the task.
    fn start_process(
        &mut self,
        package: &'static str,
        create: fn(&mut System) -> Box<dyn App>,
        reason: &str,
    ) -> Task {
        let pid = self.next_pid;
        self.next_pid += 1 + (self.sys.rng_u32() % 40);
        let uid = self.uid_of(package);
        self.sys.log(
            pid::SYSTEM_SERVER,
            'I',
            "ActivityManager",
            format!("Start proc {pid}:{package}/{uid} for {reason}"),
        );
        let app = create(&mut self.sys);
        let id = self.next_task_id;
        self.next_task_id += 1;
        let short = Framework::short_component(package, &app.activity());
        Task {
            app,
            package,
            id,
            pid,
            intent: format!("flg=0x10000000 cmp={short}"),
            last_active_ms: self.sys.clock.uptime().as_millis(),
            shown: false,
        }
    }

    /// Puts `task` in front of the others, as the task now in use.
    fn push_front(&mut self, mut task: Task) {
        task.last_active_ms = self.sys.clock.uptime().as_millis();
        task.shown = true;
        self.stack.push(task);
    }

    /// The tasks Android lists (`am stack list`, `dumpsys activity`, the overview), front first:
    /// every task that has been in front, not the processes started only for a broadcast.
    pub fn tasks(&self) -> impl Iterator<Item = &Task> {
        self.stack.iter().rev().filter(|t| t.shown)
    }

    /// Hands an event to `package`'s app wherever it is in the stack (a notification button, a
    /// due alarm), starting its process behind the others when it is not running.
    pub fn deliver(&mut self, package: &str, event: UiEvent) -> bool {
        let pos = match self.stack.iter().position(|t| t.package == package) {
            Some(pos) => pos,
            None => {
                let Some((package, create)) = self.app_info(package).map(|a| (a.package, a.create))
                else {
                    return false;
                };
                let task = self.start_process(package, create, &format!("broadcast {{{package}}}"));
                self.stack.insert(0, task);
                0
            }
        };
        let handled = self.stack[pos].app.handle(&event, &mut self.sys);
        self.process_requests();
        handled
    }

    /// Tells the Dialer (the InCallService Telecom binds) that calls changed somewhere else: a call
    /// rang, the caller gave up, a key or the console answered or ended one. What a ringing call
    /// shows (a heads-up, or the in-call screen on a screen that was off) follows from InCallUI's
    /// notification, brought up to date after the Dialer has heard (`process_requests`).
    pub fn telephony_changed(&mut self) {
        self.deliver(
            apps::dialer::PACKAGE,
            UiEvent::Broadcast(telephony::ACTION_PHONE_STATE.into()),
        );
    }

    /// Fires every AlarmManager alarm whose time has come, earliest first. Called before each shell
    /// command, so a real clock's alarms fire when the phone is next used, and after the clock moves.
    pub fn run_due_alarms(&mut self) {
        // Bounded: an app may schedule a new alarm from its handler that is already due.
        for _ in 0..64 {
            let now = self.sys.clock.now();
            let Some(index) = (0..self.sys.alarms.len())
                .filter(|&i| self.sys.alarms[i].at <= now)
                .min_by_key(|&i| self.sys.alarms[i].at)
            else {
                return;
            };
            let alarm = self.sys.alarms.remove(index);
            self.deliver(&alarm.package, UiEvent::Alarm(alarm.action));
        }
    }

    /// The soonest alarm clock the user set (what `AlarmManager.getNextAlarmClock` returns).
    pub fn next_alarm_clock(&self) -> Option<chrono::NaiveDateTime> {
        self.sys
            .alarms
            .iter()
            .filter(|a| a.alarm_clock)
            .map(|a| a.at)
            .min()
    }

    /// Sets the wall clock (`date`, `cmd alarm set-time`) as AlarmManagerService does, then fires
    /// what came due.
    pub fn set_time(&mut self, now: chrono::NaiveDateTime) {
        self.sys.clock.set(now);
        self.sys.log(
            pid::SYSTEM_SERVER,
            'I',
            "AlarmManager",
            format!("Setting time of day to sec={}", now.and_utc().timestamp()),
        );
        self.run_due_alarms();
    }

    /// `sleep`: phone time passes (virtual: at once; real: waited for), then due alarms fire.
    pub fn sleep_ms(&mut self, ms: i64) {
        self.sys.clock.sleep_ms(ms, &self.interrupt);
        self.run_due_alarms();
    }

    /// Drops a package's task and process (`am force-stop`, `pm clear`); true when it was running.
    /// Removes an app's task (its own `finishAndRemoveTask`, `am stack remove`); the process
    /// stays. Home's task is never removed.
    pub fn remove_task(&mut self, package: &str) {
        if package == apps::launcher::PACKAGE {
            return;
        }
        self.stack.retain(|t| t.package != package);
        self.scroll.retain(|(p, _), _| *p != package);
        if self.focus.as_ref().is_some_and(|(p, _)| *p == package) {
            self.hide_ime();
        }
    }

    /// `am force-stop` and `pm clear` (ActivityManager's `forceStopPackage`): the task and process
    /// go as in [`Framework::force_stop`], and so do the package's notifications, which
    /// NotificationManagerService drops for a force-stopped package. A crash or a kill leaves them.
    pub fn force_stop_package(&mut self, package: &str) {
        self.force_stop(package);
        self.sys.cancel_package_notifications(package);
    }

    pub fn force_stop(&mut self, package: &str) -> bool {
        if package == apps::launcher::PACKAGE {
            // The home app restarts at once on a real phone; keep the same object.
            return false;
        }
        let Some(pos) = self.stack.iter().position(|t| t.package == package) else {
            return false;
        };
        let task = self.stack.remove(pos);
        self.sys.log(
            pid::SYSTEM_SERVER,
            'I',
            "ActivityManager",
            format!(
                "Force stopping {package} appid={} user=0: from pid 1",
                10000 + task.id
            ),
        );
        self.scroll.retain(|(p, _), _| p != package);
        if self.focus.as_ref().is_some_and(|(p, _)| p == package) {
            self.hide_ime();
        }
        true
    }

    /// Sends an event to the foreground app and carries out what it requested; false when unhandled.
    pub fn dispatch(&mut self, event: UiEvent) -> bool {
        let Some(task) = self.stack.last_mut() else {
            return false;
        };
        let handled = task.app.handle(&event, &mut self.sys);
        self.process_requests();
        handled
    }

    /// Carries out the requests apps queued on the [`System`].
    /// Last, InCallUI's call notification follows what the apps did to the calls and the screen.
    pub fn process_requests(&mut self) {
        // Bounded: a request may start an app whose creation queues more requests.
        for _ in 0..16 {
            if self.sys.requests.is_empty() {
                break;
            }
            let requests = std::mem::take(&mut self.sys.requests);
            for request in requests {
                match request {
                    Request::Launch { package, intent } => {
                        if self.launch(&package, Launcher::Home).is_ok() {
                            if let Some(intent) = intent {
                                self.deliver_intent(&package, &intent);
                            }
                        }
                    }
                    Request::Focus { tag } => {
                        let package = self.foreground_package().to_string();
                        self.focus = Some((package, tag));
                        self.ime_visible = true;
                    }
                    Request::ClearFocus => self.hide_ime(),
                    Request::Finish => self.finish_foreground(),
                    Request::FinishTask { package } => self.remove_task(&package),
                    Request::ResetScroll { tag } => {
                        let package = self.foreground_package().to_string();
                        self.scroll.remove(&(package, tag));
                    }
                    Request::ScrollIntoView { container, view } => {
                        self.scroll_into_view(&container, &view)
                    }
                }
            }
        }
        self.sys.requests.clear();
        self.update_call_notification();
    }

    /// Moves the foreground app's scroll container `container` the least that shows all of the
    /// view tagged `view` (its top first when it is taller than the container), within the
    /// container's scroll range.
    fn scroll_into_view(&mut self, container: &str, view: &str) {
        let Some(task) = self.stack.last() else {
            return;
        };
        let root = task.app.render(&self.sys);
        let Some(list) = root.find_by_tag(container) else {
            return;
        };
        let Some(target) = list.find_by_tag(view) else {
            return;
        };
        let limit = screen::scroll_limit(list);
        let key = (task.package.to_string(), container.to_string());
        let current = self.scroll.get(&key).copied().unwrap_or(0).min(limit);
        let (top, bottom) = (
            target.bounds.top - list.bounds.top,
            target.bounds.bottom - list.bounds.top,
        );
        let height = list.bounds.height();
        let mut next = current;
        if bottom > next + height {
            next = bottom - height;
        }
        if top < next {
            next = top;
        }
        self.scroll.insert(key, next.clamp(0, limit));
    }

    fn finish_foreground(&mut self) {
        if self.stack.len() <= 1 || self.foreground_package() == apps::launcher::PACKAGE {
            return;
        }
        if let Some(task) = self.stack.pop() {
            self.scroll.retain(|(p, _), _| p != task.package);
        }
        self.hide_ime();
    }

    fn hide_ime(&mut self) {
        self.focus = None;
        self.ime_visible = false;
        self.keyboard = KeyboardState::default();
    }

    /// The windows on screen, bottom to top.
    pub fn windows(&mut self) -> Vec<Window> {
        self.refresh_metrics();
        screen::compose(self)
    }

    /// The rendered content of the focused window (what `uiautomator dump` writes): the shade
    /// when it is down, else the foreground app or the recents screen.
    pub fn app_window(&mut self) -> Option<Window> {
        self.windows()
            .into_iter()
            .rev()
            .find(|w| w.kind.is_app_content())
    }
}

impl System {
    /// Draws from the phone's seeded random source.
    pub fn rng_u32(&mut self) -> u32 {
        use rand::RngCore;
        self.rng.next_u32()
    }
}

/// Screen metrics for a display: status bar 24dp, navigation bar 48dp (tablets: 48dp at the bottom too).
pub fn metrics_for(display: &Display, font_scale: f32) -> Metrics {
    let (width, height) = display.size();
    let density = display.density() as f32 / 160.0;
    let status = (24.0 * density).round() as i32;
    let nav = (48.0 * density).round() as i32;
    Metrics {
        width,
        height,
        density,
        font_scale,
        content: Bounds::new(0, status, width, (height - nav).max(status)),
    }
}

/// The boot wall-clock time: a weekday morning in 2024 picked by the seed, so runs differ by seed but
/// never by host time.
pub fn boot_time(seed: u64) -> chrono::NaiveDateTime {
    let day = NaiveDate::from_ymd_opt(2024, 6, 3).expect("2024-06-03 is a valid date");
    let days = (seed % 28) as i64;
    let minutes = ((seed / 28) % 600) as i64;
    day.and_hms_opt(8, 0, 0).expect("08:00:00 is a valid time")
        + chrono::Duration::days(days)
        + chrono::Duration::minutes(minutes)
}

//! Services the embedded phone's framework offers its apps: settings, logcat, the simulated clock,
//! the filesystem (real files under a private host directory, addressed by Android paths), a seeded
//! random source, screen metrics, and requests back to the framework.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::view::Metrics;

/// The three `settings` namespaces, as `settings get|put|list` address them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Namespace {
    Global,
    Secure,
    System,
}

impl Namespace {
    pub fn parse(s: &str) -> Option<Namespace> {
        match s {
            "global" => Some(Namespace::Global),
            "secure" => Some(Namespace::Secure),
            "system" => Some(Namespace::System),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Namespace::Global => "global",
            Namespace::Secure => "secure",
            Namespace::System => "system",
        }
    }
}

/// Android's settings provider: string values per namespace.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    values: BTreeMap<(Namespace, String), String>,
}

impl Settings {
    pub fn get(&self, ns: Namespace, key: &str) -> Option<&str> {
        self.values.get(&(ns, key.to_string())).map(String::as_str)
    }

    pub fn put(&mut self, ns: Namespace, key: &str, value: impl Into<String>) {
        self.values.insert((ns, key.to_string()), value.into());
    }

    pub fn delete(&mut self, ns: Namespace, key: &str) -> bool {
        self.values.remove(&(ns, key.to_string())).is_some()
    }

    /// `key=value` pairs of one namespace in key order, as `settings list` prints them.
    pub fn list(&self, ns: Namespace) -> impl Iterator<Item = (&str, &str)> {
        self.values
            .iter()
            .filter(move |((n, _), _)| *n == ns)
            .map(|((_, k), v)| (k.as_str(), v.as_str()))
    }

    /// An integer setting, or `default` when it is missing or not a number.
    pub fn get_int(&self, ns: Namespace, key: &str, default: i64) -> i64 {
        self.get(ns, key)
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(default)
    }
}

/// One logcat entry.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    pub time: NaiveDateTime,
    pub pid: u32,
    pub tid: u32,
    /// V, D, I, W, E, F.
    pub level: char,
    pub tag: String,
    pub message: String,
}

/// Logcat's main buffer: a bounded ring, oldest entries dropped first.
#[derive(Debug, Clone)]
pub struct Logcat {
    pub entries: std::collections::VecDeque<LogEntry>,
    pub capacity: usize,
}

impl Default for Logcat {
    fn default() -> Self {
        Logcat {
            entries: Default::default(),
            capacity: 20_000,
        }
    }
}

/// Where the phone's wall clock comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockMode {
    /// Moves only when the phone is told to (input events, `sleep`, `date`, `cmd alarm set-time`), so
    /// the same commands on the same seed give the same bytes: replays and tests.
    #[default]
    Virtual,
    /// Keeps real time from the host's clock, as a phone on a desk does: a served phone (`serve`,
    /// `sim --adb`, the manual CLI), where a person or an agent waits in real seconds.
    Real,
}

/// The phone's wall clock (UTC). Observing it never moves it; in [`ClockMode::Virtual`] only input,
/// `sleep` and explicit setting do, in [`ClockMode::Real`] it runs with the host's monotonic clock
/// from the instant it was last set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimClock {
    mode: ClockMode,
    /// The time at `anchor` (virtual: the time, full stop).
    base: NaiveDateTime,
    anchor: std::time::Instant,
    /// Time the phone has been running (`SystemClock.elapsedRealtime`) at `anchor` (virtual: in
    /// full); setting the wall clock does not move it.
    uptime: std::time::Duration,
}

impl SimClock {
    /// A virtual clock standing at `now`.
    pub fn virtual_at(now: NaiveDateTime) -> SimClock {
        SimClock {
            mode: ClockMode::Virtual,
            base: now,
            anchor: std::time::Instant::now(),
            uptime: std::time::Duration::ZERO,
        }
    }

    /// A real clock showing the host's current UTC time.
    pub fn real() -> SimClock {
        SimClock {
            mode: ClockMode::Real,
            base: chrono::Utc::now().naive_utc(),
            anchor: std::time::Instant::now(),
            uptime: std::time::Duration::ZERO,
        }
    }

    pub fn mode(&self) -> ClockMode {
        self.mode
    }

    /// The current wall-clock time.
    pub fn now(&self) -> NaiveDateTime {
        match self.mode {
            ClockMode::Virtual => self.base,
            ClockMode::Real => {
                let elapsed = chrono::Duration::from_std(self.anchor.elapsed())
                    .unwrap_or(chrono::Duration::zero());
                self.base + elapsed
            }
        }
    }

    /// Time taken by something the phone did (a frame, a gesture, an app start). A real clock
    /// already ran while it happened, so only a virtual one moves.
    pub fn advance_ms(&mut self, ms: i64) {
        if self.mode == ClockMode::Virtual {
            self.base += chrono::Duration::milliseconds(ms.max(0));
            self.uptime += std::time::Duration::from_millis(ms.max(0) as u64);
        }
    }

    /// Sets the wall clock (`date`, `cmd alarm set-time`); a real clock runs on from there.
    pub fn set(&mut self, now: NaiveDateTime) {
        self.uptime = self.uptime();
        self.base = now;
        self.anchor = std::time::Instant::now();
    }

    /// Network time turned on (`settings put global auto_time 1`): a real clock takes the
    /// host's time, as a phone takes the network's; a virtual clock has no network to ask and
    /// stays where it is.
    pub fn network_time(&mut self) {
        if self.mode == ClockMode::Real {
            self.set(chrono::Utc::now().naive_utc());
        }
    }

    /// How long the phone has been running (`SystemClock.elapsedRealtime`).
    pub fn uptime(&self) -> std::time::Duration {
        match self.mode {
            ClockMode::Virtual => self.uptime,
            ClockMode::Real => self.uptime + self.anchor.elapsed(),
        }
    }

    /// The clock stopped at this instant, for a snapshot: its time and uptime now.
    pub fn frozen(&self) -> SimClock {
        SimClock {
            mode: self.mode,
            base: self.now(),
            anchor: std::time::Instant::now(),
            uptime: self.uptime(),
        }
    }

    /// A clock loaded from a snapshot taken with [`SimClock::frozen`]. A virtual clock stands at
    /// the snapshot's time; a real one takes the host's time again, as an emulator's guest clock
    /// does after a snapshot load, and its uptime runs on from the snapshot's.
    pub fn thawed(self) -> SimClock {
        match self.mode {
            ClockMode::Virtual => self,
            ClockMode::Real => SimClock {
                mode: ClockMode::Real,
                base: chrono::Utc::now().naive_utc(),
                anchor: std::time::Instant::now(),
                uptime: self.uptime,
            },
        }
    }

    /// Waits `ms` of phone time (`sleep`): a virtual clock jumps, a real one is waited for, until
    /// `interrupt` is raised (the command was cancelled: it must not keep holding the phone).
    pub fn sleep_ms(&mut self, ms: i64, interrupt: &Interrupt) {
        match self.mode {
            ClockMode::Virtual => self.advance_ms(ms),
            ClockMode::Real => interrupt.sleep(std::time::Duration::from_millis(ms.max(0) as u64)),
        }
    }
}

/// An AlarmManager alarm: at `at`, the app `package` receives [`UiEvent::Alarm`] with `action`
/// (its process is started for it when it is not running).
///
/// [`UiEvent::Alarm`]: super::app::UiEvent::Alarm
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledAlarm {
    pub at: NaiveDateTime,
    pub package: String,
    pub action: String,
    /// An alarm clock the user set (`AlarmManager.setAlarmClock`), as opposed to an app's timer;
    /// `cmd alarm get-next-alarm` and the status bar report only these.
    pub alarm_clock: bool,
}

/// A posted notification, as NotificationManagerService keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    pub package: String,
    pub id: i32,
    pub channel: String,
    pub title: String,
    pub text: String,
    /// Buttons: (tag the owning app receives as a click, label).
    pub actions: Vec<(String, String)>,
    /// Shown as a heads-up over the screen until cancelled (a ringing timer or alarm).
    pub heads_up: bool,
    pub when: NaiveDateTime,
    /// The content intent: what a tap on the notification's body starts in `package` (the
    /// launcher activity when `None`).
    pub intent: Option<crate::app::Intent>,
    /// The tag it was posted with (`notify(tag, id, …)`): notifications are keyed by package,
    /// tag and id.
    pub tag: Option<String>,
    /// The app the content intent starts when another package made it (`cmd notification post -c
    /// activity …` posts as the shell); `None` is `package` itself.
    pub target: Option<String>,
    /// `FLAG_AUTO_CANCEL`: a tap on the body also dismisses it.
    pub auto_cancel: bool,
    /// Posted ongoing by a foreground service (`startForeground`: `FLAG_ONGOING_EVENT`,
    /// `FLAG_NO_CLEAR`), as InCallUI posts its call notification: no swipe or "Clear all" removes
    /// it; only the app does.
    pub ongoing: bool,
    /// The full-screen intent (`setFullScreenIntent`), started in `package` instead of a heads-up
    /// when SystemUI decides the device is not in use ([`crate::shade`]); an incoming call's.
    pub full_screen: Option<crate::app::Intent>,
}

/// Something an app asks of the framework, carried out after the event that raised it.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Start an app's launcher activity (or bring it to front), delivering `intent` if given.
    Launch {
        package: String,
        intent: Option<crate::app::Intent>,
    },
    /// Move input focus (and the IME) to the editable view with this tag.
    Focus { tag: String },
    /// Hide the IME and clear focus.
    ClearFocus,
    /// Finish the requesting app (as if back left it).
    Finish,
    /// Finish `package`'s task wherever it is in the stack (an in-call screen whose call ended
    /// while another app was in front).
    FinishTask { package: String },
    /// Reset the named scroll container to the top.
    ResetScroll { tag: String },
    /// Scroll the container tagged `container` just far enough that the view tagged `view` is
    /// wholly inside it (RecyclerView's `smoothScrollToPosition`, a child's
    /// `requestRectangleOnScreen`): an expanded card, a new row.
    ScrollIntoView { container: String, view: String },
}

/// Everything an app may use. Owned by the phone; lent to apps during render and event handling.
pub struct System {
    pub settings: Settings,
    pub logcat: Logcat,
    pub clock: SimClock,
    pub metrics: Metrics,
    pub locale: String,
    pub rng: ChaCha8Rng,
    /// Host directory that stands for the phone's `/`.
    pub root: PathBuf,
    pub requests: Vec<Request>,
    /// AlarmManager's pending alarms, unordered.
    pub alarms: Vec<ScheduledAlarm>,
    /// Posted notifications, oldest first.
    pub notifications: Vec<Notification>,
    /// ClipboardService's primary clip.
    pub clipboard: super::clipboard::Clipboard,
    /// The read-only system properties `getprop` reports (`ro.product.model`,
    /// `ro.build.version.release`…), fixed at boot from [`super::defaults::properties`].
    pub properties: BTreeMap<String, String>,
    /// The modem's calls and Telecom's call state.
    pub telephony: super::telephony::Telephony,
    /// RoleManager's role holders (the default SMS app among them).
    pub roles: super::roles::Roles,
    /// When each file last changed on the phone's clock (`ls -l`, the file apps).
    pub file_times: super::file_times::FileTimes,
}

impl System {
    /// A system with nothing set yet: default settings, no properties, `en-US`, no alarms,
    /// notifications or calls. Boot fills in the rest; app tests use it bare.
    pub fn new(root: PathBuf, clock: SimClock, metrics: Metrics, seed: u64) -> System {
        System {
            settings: Settings::default(),
            logcat: Logcat::default(),
            clock,
            metrics,
            locale: "en-US".into(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            root,
            requests: Vec::new(),
            alarms: Vec::new(),
            notifications: Vec::new(),
            clipboard: Default::default(),
            properties: BTreeMap::new(),
            telephony: Default::default(),
            roles: Default::default(),
            file_times: Default::default(),
        }
    }
}

#[cfg(test)]
impl System {
    /// A bare Pixel 6 system whose clock stands at `now`, for apps' unit tests (en-US until the
    /// test sets a locale).
    pub fn bare_at(now: NaiveDateTime) -> System {
        System::new(
            std::env::temp_dir(),
            SimClock::virtual_at(now),
            Metrics {
                width: 1080,
                height: 2400,
                density: 2.625,
                font_scale: 1.0,
                content: droidmcp_geom::Bounds::new(0, 63, 1080, 2274),
            },
            0,
        )
    }
}

/// The cancellation of one shell command: a flag, plus the SQLite statement (if any) to interrupt
/// at once. Cloned handles share it.
#[derive(Clone, Default)]
pub struct Interrupt(std::sync::Arc<InterruptState>);

#[derive(Default)]
pub struct InterruptState {
    raised: std::sync::atomic::AtomicBool,
    sqlite: std::sync::Mutex<Option<rusqlite::InterruptHandle>>,
    /// Wakes a real-time `sleep` when the interrupt is raised.
    wake: std::sync::Condvar,
    sleeping: std::sync::Mutex<()>,
}

impl Interrupt {
    pub fn raise(&self) {
        {
            let _guard = self.0.sleeping.lock().unwrap_or_else(|e| e.into_inner());
            self.0
                .raised
                .store(true, std::sync::atomic::Ordering::SeqCst);
            self.0.wake.notify_all();
        }
        if let Some(handle) = self.sqlite_slot().as_ref() {
            handle.interrupt();
        }
    }

    /// Waits `d`, or less when the interrupt is raised meanwhile.
    pub fn sleep(&self, d: std::time::Duration) {
        let deadline = std::time::Instant::now() + d;
        let mut guard = self.0.sleeping.lock().unwrap_or_else(|e| e.into_inner());
        while !self.is_raised() {
            let now = std::time::Instant::now();
            if now >= deadline {
                return;
            }
            guard = match self.0.wake.wait_timeout(guard, deadline - now) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        }
    }

    pub fn is_raised(&self) -> bool {
        self.0.raised.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Makes [`Interrupt::raise`] interrupt `conn`'s running statement (until the next watch).
    pub fn watch(&self, conn: &rusqlite::Connection) {
        *self.sqlite_slot() = Some(conn.get_interrupt_handle());
        if self.is_raised() {
            conn.get_interrupt_handle().interrupt();
        }
    }

    fn sqlite_slot(&self) -> std::sync::MutexGuard<'_, Option<rusqlite::InterruptHandle>> {
        self.0.sqlite.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl System {
    /// The host path backing an absolute Android path; `None` for paths that escape the root.
    pub fn host_path(&self, android_path: &str) -> Option<PathBuf> {
        let mut out = self.root.clone();
        for part in Path::new(android_path).components() {
            match part {
                std::path::Component::RootDir | std::path::Component::CurDir => {}
                std::path::Component::Normal(p) => out.push(p),
                std::path::Component::ParentDir | std::path::Component::Prefix(_) => return None,
            }
        }
        Some(out)
    }

    /// Writes a fresh boot id where Linux keeps it (`/proc/sys/kernel/random/boot_id`, a version 4
    /// UUID). Random, not drawn from the seed: it exists to tell one boot from the next, also of
    /// a phone with the same seed, and episodes read it to notice a phone that restarted under them.
    pub fn write_boot_id(&self) -> std::io::Result<()> {
        let bits = rand::random::<u128>() & !(0xf << 76) & !(0x3 << 62) | (0x4 << 76) | (0x2 << 62);
        let hex = format!("{bits:032x}");
        let id = format!(
            "{}-{}-{}-{}-{}\n",
            &hex[..8],
            &hex[8..12],
            &hex[12..16],
            &hex[16..20],
            &hex[20..]
        );
        let path = self
            .host_path("/proc/sys/kernel/random/boot_id")
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, id)
    }

    /// Opens (creating parent directories) the SQLite database at an Android path.
    pub fn open_db(&self, android_path: &str) -> rusqlite::Result<rusqlite::Connection> {
        let path = self
            .host_path(android_path)
            .ok_or_else(|| rusqlite::Error::InvalidPath(PathBuf::from(android_path)))?;
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let conn = rusqlite::Connection::open(path)?;
        // The phone's files live in a throwaway folder: syncing them to disk buys nothing and
        // costs hundreds of fsyncs per boot.
        conn.pragma_update(None, "synchronous", "OFF")?;
        Ok(conn)
    }

    /// Appends a logcat line as the given process would write it.
    pub fn log(&mut self, pid: u32, level: char, tag: &str, message: impl Into<String>) {
        let entry = LogEntry {
            time: self.clock.now(),
            pid,
            tid: pid,
            level,
            tag: tag.to_string(),
            message: message.into(),
        };
        if self.logcat.entries.len() >= self.logcat.capacity {
            self.logcat.entries.pop_front();
        }
        self.logcat.entries.push_back(entry);
    }

    /// A system property, empty when unset (as `getprop KEY` prints it).
    pub fn property(&self, key: &str) -> &str {
        self.properties.get(key).map(String::as_str).unwrap_or("")
    }

    pub fn request(&mut self, request: Request) {
        self.requests.push(request);
    }

    /// Schedules (or moves) `package`'s alarm named `action`.
    pub fn set_alarm(&mut self, package: &str, action: &str, at: NaiveDateTime, alarm_clock: bool) {
        self.cancel_alarm(package, action);
        self.alarms.push(ScheduledAlarm {
            at,
            package: package.to_string(),
            action: action.to_string(),
            alarm_clock,
        });
    }

    /// Cancels `package`'s alarms whose action is `action`, or starts with it when it ends in `*`.
    pub fn cancel_alarm(&mut self, package: &str, action: &str) {
        let matches = |a: &ScheduledAlarm| match action.strip_suffix('*') {
            Some(prefix) => a.action.starts_with(prefix),
            None => a.action == action,
        };
        self.alarms
            .retain(|a| !(a.package == package && matches(a)));
    }

    /// Posts (or replaces, by package and id) a notification, logging NotificationService's line.
    pub fn notify(&mut self, notification: Notification) {
        self.notifications.retain(|n| {
            !(n.package == notification.package
                && n.id == notification.id
                && n.tag == notification.tag)
        });
        self.log(
            pid::SYSTEM_SERVER,
            'D',
            "NotificationService",
            format!(
                "enqueueNotificationInternal: pkg={} id={} notification=Notification(channel={} title={})",
                notification.package, notification.id, notification.channel, notification.title
            ),
        );
        self.notifications.push(notification);
    }

    /// Removes every notification `package` posted, as NotificationManagerService does when the
    /// package is force-stopped or its data cleared.
    pub fn cancel_package_notifications(&mut self, package: &str) {
        self.notifications.retain(|n| n.package != package);
    }

    /// Removes a notification posted without a tag; true when it was posted.
    pub fn cancel_notification(&mut self, package: &str, id: i32) -> bool {
        let before = self.notifications.len();
        self.notifications
            .retain(|n| !(n.package == package && n.id == id && n.tag.is_none()));
        self.notifications.len() != before
    }
}

/// Audio streams as Android numbers them (`AudioManager.STREAM_*`), with the `settings system` key
/// that persists each one's speaker volume and its index range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stream {
    VoiceCall,
    Ring,
    Music,
    Alarm,
    Notification,
}

impl Stream {
    pub const ALL: [Stream; 5] = [
        Stream::VoiceCall,
        Stream::Ring,
        Stream::Music,
        Stream::Alarm,
        Stream::Notification,
    ];

    /// `AudioManager.STREAM_*` number (as `media volume --stream N` takes it).
    pub fn number(self) -> i32 {
        match self {
            Stream::VoiceCall => 0,
            Stream::Ring => 2,
            Stream::Music => 3,
            Stream::Alarm => 4,
            Stream::Notification => 5,
        }
    }

    pub fn from_number(n: i32) -> Option<Stream> {
        Stream::ALL.into_iter().find(|s| s.number() == n)
    }

    /// The name SystemUI's `vol.Events` log uses.
    pub fn name(self) -> &'static str {
        match self {
            Stream::VoiceCall => "STREAM_VOICE_CALL",
            Stream::Ring => "STREAM_RING",
            Stream::Music => "STREAM_MUSIC",
            Stream::Alarm => "STREAM_ALARM",
            Stream::Notification => "STREAM_NOTIFICATION",
        }
    }

    /// The `settings system` key holding the stream's volume index.
    pub fn setting(self) -> &'static str {
        match self {
            Stream::VoiceCall => "volume_voice_earpiece",
            Stream::Ring => "volume_ring_speaker",
            Stream::Music => "volume_music_speaker",
            Stream::Alarm => "volume_alarm_speaker",
            Stream::Notification => "volume_notification_speaker",
        }
    }

    /// (min, max) volume index, AOSP defaults.
    pub fn range(self) -> (i32, i32) {
        match self {
            Stream::VoiceCall => (1, 5),
            Stream::Ring => (0, 7),
            Stream::Music => (0, 15),
            Stream::Alarm => (1, 7),
            Stream::Notification => (0, 7),
        }
    }

    /// AOSP `AudioSystem.DEFAULT_STREAM_VOLUME`.
    pub fn default_index(self) -> i32 {
        match self {
            Stream::VoiceCall => 4,
            Stream::Ring => 5,
            Stream::Music => 5,
            Stream::Alarm => 6,
            Stream::Notification => 5,
        }
    }
}

/// Well-known process ids, so log lines carry the pid of the process that really writes them.
pub mod pid {
    pub const SYSTEM_SERVER: u32 = 1432;
    pub const SYSTEMUI: u32 = 1811;
    pub const PHONE: u32 = 2093;
    pub const PERMISSION_CONTROLLER: u32 = 2514;
    pub const SETTINGS_PROVIDER: u32 = SYSTEM_SERVER;
}

impl System {
    /// Writes a setting as Android's SettingsProvider does, logging the change notification so logcat
    /// checks see it. Apps and the `settings` shell command both go through here.
    pub fn put_setting(&mut self, ns: Namespace, key: &str, value: impl Into<String>) {
        let value = value.into();
        if self.settings.get(ns, key) == Some(value.as_str()) {
            return;
        }
        self.settings.put(ns, key, value);
        self.log(
            pid::SETTINGS_PROVIDER,
            'V',
            "SettingsProvider",
            format!("Notifying for 0: content://settings/{}/{key}", ns.as_str()),
        );
    }

    /// Deletes a setting; true when it existed.
    pub fn delete_setting(&mut self, ns: Namespace, key: &str) -> bool {
        let existed = self.settings.delete(ns, key);
        if existed {
            self.log(
                pid::SETTINGS_PROVIDER,
                'V',
                "SettingsProvider",
                format!("Notifying for 0: content://settings/{}/{key}", ns.as_str()),
            );
        }
        existed
    }

    /// Turns airplane mode on or off the way the Settings toggle does (setting, radio log lines).
    pub fn set_airplane_mode(&mut self, on: bool) {
        self.put_setting(
            Namespace::Global,
            "airplane_mode_on",
            if on { "1" } else { "0" },
        );
        let message = if on {
            "Turning radio off - airplane"
        } else {
            "Turning radio on - airplane"
        };
        self.log(pid::PHONE, 'I', "PhoneGlobals", message);
        self.log(
            pid::SYSTEM_SERVER,
            'I',
            "ConnectivityService",
            format!("setAirplaneMode({on})"),
        );
    }

    /// Turns Wi-Fi on or off on behalf of `caller` (a package), logging WifiService's line.
    pub fn set_wifi_enabled(&mut self, on: bool, caller: &str) {
        self.put_setting(Namespace::Global, "wifi_on", if on { "1" } else { "0" });
        self.log(
            pid::SYSTEM_SERVER,
            'I',
            "WifiService",
            format!("setWifiEnabled package={caller} uid=1000 enable={on}"),
        );
    }

    /// Turns Bluetooth on or off on behalf of `caller`.
    pub fn set_bluetooth_enabled(&mut self, on: bool, caller: &str) {
        self.put_setting(
            Namespace::Global,
            "bluetooth_on",
            if on { "1" } else { "0" },
        );
        let verb = if on { "enable" } else { "disable" };
        self.log(
            pid::SYSTEM_SERVER,
            'D',
            "BluetoothManagerService",
            format!("{verb}(): mBluetooth=null, packageName={caller}"),
        );
    }

    /// Sets the screen brightness (1..=255), as the brightness slider does. Adaptive brightness
    /// (`screen_brightness_mode`) stays as the user set it: with it on, Android 14 takes the drag
    /// as a correction to the adaptive curve rather than switching it off.
    pub fn set_brightness(&mut self, level: i32) {
        let level = level.clamp(1, 255);
        let previous = self
            .settings
            .get_int(Namespace::System, "screen_brightness", 102);
        self.put_setting(Namespace::System, "screen_brightness", level.to_string());
        self.log(
            pid::SYSTEM_SERVER,
            'V',
            "DisplayPowerController",
            format!(
                "Brightness [{:.6}] reason changing to: 'manual', previous reason: 'manual' (was {:.6}).",
                level as f32 / 255.0,
                previous as f32 / 255.0
            ),
        );
    }

    /// Switches the system dark theme (`secure ui_night_mode`: 1 = no, 2 = yes).
    pub fn set_dark_mode(&mut self, on: bool) {
        self.put_setting(
            Namespace::Secure,
            "ui_night_mode",
            if on { "2" } else { "1" },
        );
        self.log(
            pid::SYSTEM_SERVER,
            'V',
            "UiModeManager",
            format!(
                "updateConfigurationLocked: mNightMode={}",
                if on { 2 } else { 1 }
            ),
        );
    }

    /// True when the system dark theme is on.
    pub fn dark_mode(&self) -> bool {
        self.settings.get_int(Namespace::Secure, "ui_night_mode", 1) == 2
    }

    /// A stream's volume index.
    pub fn volume(&self, stream: Stream) -> i32 {
        self.settings.get_int(
            Namespace::System,
            stream.setting(),
            stream.default_index() as i64,
        ) as i32
    }

    /// Sets a stream's volume index (clamped to its range), logging SystemUI's `vol.Events` line.
    pub fn set_volume(&mut self, stream: Stream, index: i32) {
        let (min, max) = stream.range();
        let index = index.clamp(min, max);
        self.put_setting(Namespace::System, stream.setting(), index.to_string());
        self.log(
            pid::SYSTEMUI,
            'I',
            "vol.Events",
            format!("writeEvent level_changed {} {index}", stream.name()),
        );
    }

    /// The simulated time as milliseconds since the Unix epoch (the clock is UTC).
    pub fn now_millis(&self) -> i64 {
        self.clock.now().and_utc().timestamp_millis()
    }
}

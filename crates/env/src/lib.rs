//! Device environments: a named, seeded configuration of the phone an agent meets (device model,
//! density, font scale, dark theme, wallpaper, home-screen layout, locale), after B-MoCA, which runs
//! every task in 35 training and 10 test environments to ask whether an agent still works when the
//! phone looks different.
//!
//! - [`catalog`] holds B-MoCA's 45 by id (`environments/bmoca.tsv`, compiled in and validated);
//! - [`random`] draws unlimited others over the same axes from a seed (`random:SEED`);
//! - [`Environment::sim_config`] boots the embedded phone in one; [`apply`] sets one on a running
//!   phone over its shell (what adb can change), restores it and reports what it could not set;
//! (`run::report::environments` breaks stored episodes' success down by environment and factor.)
//!
//! An environment is named by a string everywhere a phone starts: `105`, `random:7`, `default`.

pub mod apply;
pub mod catalog;
pub mod random;

use droidmcp_sim::apps::launcher::home::{Favorite, HomeScreen, Place};
use droidmcp_sim::render::Wallpaper;
use droidmcp_sim::{ClockMode, Profile, SimConfig};

/// Which half of B-MoCA an environment belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    Train,
    Test,
}

impl Split {
    pub fn as_str(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Test => "test",
        }
    }

    pub fn parse(s: &str) -> Option<Split> {
        match s.trim() {
            "train" => Some(Split::Train),
            "test" => Some(Split::Test),
            _ => None,
        }
    }
}

/// The B-MoCA device models (plus the embedded phone's Pixel Tablet).
pub const DEVICES: [Profile; 6] = Profile::ALL;

/// The fifteen B-MoCA locales.
pub const LOCALES: [&str; 15] = [
    "en-US",
    "es-US",
    "fr-CA",
    "zh-Hans-CN",
    "hi-IN",
    "ja-JP",
    "ru-MD",
    "ar-AE",
    "de-DE",
    "ak-GH",
    "pt-BR",
    "pt-PT",
    "ko-KR",
    "ur-PK",
    "ar-EG",
];

/// An app B-MoCA places on home screens: its name in the environment tables and its launch
/// component on a stock emulator image (the embedded phone has the seven with a `sim` package and
/// Chrome; a shortcut to an app that is not installed is dropped by the launcher, as Launcher3 does).
pub struct HomeApp {
    pub name: &'static str,
    pub package: &'static str,
    pub activity: &'static str,
}

pub const HOME_APPS: [HomeApp; 18] = [
    HomeApp {
        name: "Calculator",
        package: "com.google.android.calculator",
        activity: "com.android.calculator2.Calculator",
    },
    HomeApp {
        name: "Calendar",
        package: "com.google.android.calendar",
        activity: "com.android.calendar.AllInOneActivity",
    },
    HomeApp {
        name: "Clock",
        package: "com.google.android.deskclock",
        activity: "com.android.deskclock.DeskClock",
    },
    HomeApp {
        name: "Contacts",
        package: "com.google.android.contacts",
        activity: "com.android.contacts.activities.PeopleActivity",
    },
    HomeApp {
        name: "Messages",
        package: "com.google.android.apps.messaging",
        activity: "com.google.android.apps.messaging.ui.ConversationListActivity",
    },
    HomeApp {
        name: "Phone",
        package: "com.google.android.dialer",
        activity: "com.google.android.dialer.extensions.GoogleDialtactsActivity",
    },
    HomeApp {
        name: "Settings",
        package: "com.android.settings",
        activity: "com.android.settings.Settings",
    },
    HomeApp {
        name: "Chrome",
        package: "com.android.chrome",
        activity: "com.google.android.apps.chrome.Main",
    },
    HomeApp {
        name: "Maps",
        package: "com.google.android.apps.maps",
        activity: "com.google.android.maps.MapsActivity",
    },
    HomeApp {
        name: "YouTube",
        package: "com.google.android.youtube",
        activity: "com.google.android.youtube.app.honeycomb.Shell$HomeActivity",
    },
    HomeApp {
        name: "Gmail",
        package: "com.google.android.gm",
        activity: "com.google.android.gm.ConversationListActivityGmail",
    },
    HomeApp {
        name: "Photos",
        package: "com.google.android.apps.photos",
        activity: "com.google.android.apps.photos.home.HomeActivity",
    },
    HomeApp {
        name: "Camera",
        package: "com.android.camera2",
        activity: "com.android.camera.CameraLauncher",
    },
    HomeApp {
        name: "Files",
        package: "com.google.android.documentsui",
        activity: "com.android.documentsui.LauncherActivity",
    },
    HomeApp {
        name: "Instagram",
        package: "com.instagram.android",
        activity: "com.instagram.android.activity.MainTabActivity",
    },
    HomeApp {
        name: "Wikipedia",
        package: "org.wikipedia",
        activity: "org.wikipedia.main.MainActivity",
    },
    HomeApp {
        name: "Snapseed",
        package: "com.niksoftware.snapseed",
        activity: "com.google.android.apps.snapseed.MainActivity",
    },
    HomeApp {
        name: "Walmart",
        package: "com.walmart.android",
        activity: "com.walmart.android.app.main.MainActivity",
    },
];

pub fn home_app(name: &str) -> Option<&'static HomeApp> {
    HOME_APPS.iter().find(|a| a.name.eq_ignore_ascii_case(name))
}

/// Where one app sits on the home screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub app: &'static HomeApp,
    pub place: Place,
}

impl std::fmt::Debug for HomeApp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for HomeApp {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for HomeApp {}

/// The home screen: grid size, dock size and the apps on them; the rest are in the drawer only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeLayout {
    pub columns: i32,
    pub rows: i32,
    pub hotseat: i32,
    pub slots: Vec<Slot>,
}

impl HomeLayout {
    pub fn to_home_screen(&self) -> HomeScreen {
        HomeScreen {
            columns: self.columns,
            rows: self.rows,
            hotseat: self.hotseat,
            favorites: self
                .slots
                .iter()
                .map(|s| Favorite {
                    package: s.app.package.to_string(),
                    activity: s.app.activity.to_string(),
                    title: s.app.name.to_string(),
                    place: s.place,
                })
                .collect(),
        }
    }

    /// A short fingerprint of the layout (for reports: which environments share a layout).
    pub fn signature(&self) -> String {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.columns, self.rows, self.hotseat).hash(&mut h);
        for s in &self.slots {
            (s.app.name, s.place).hash(&mut h);
        }
        format!(
            "{}x{}-{:06x}",
            self.columns,
            self.rows,
            h.finish() & 0xFF_FFFF
        )
    }
}

/// One device environment.
#[derive(Debug, Clone, PartialEq)]
pub struct Environment {
    /// How it is named: `105`, `random:7`, `default`.
    pub name: String,
    pub split: Option<Split>,
    pub device: Profile,
    /// Screen density in dpi (B-MoCA sets it with `wm density`).
    pub density: i32,
    pub font_scale: f32,
    pub dark: bool,
    pub wallpaper: Wallpaper,
    /// `None`: the launcher's default workspace.
    pub home: Option<HomeLayout>,
    /// BCP 47 tag (`ko-KR`, `zh-Hans-CN`).
    pub locale: String,
}

/// Why an environment name does not resolve.
#[derive(Debug, Clone, thiserror::Error, PartialEq)]
pub enum EnvError {
    #[error("unknown environment {0:?}: use a B-MoCA id (000-034 train, 100-109 test), random:SEED, default, or a split (train, test)")]
    Unknown(String),
    #[error("environment {name:?}: {reason}")]
    Invalid { name: String, reason: String },
    #[error("environments/bmoca.tsv line {line}: {reason}")]
    Table { line: usize, reason: String },
}

impl Default for Environment {
    /// The embedded phone as it boots with no environment: Pixel 6, en-US, light, the plain
    /// wallpaper and the default workspace.
    fn default() -> Environment {
        let config = SimConfig::default();
        Environment {
            name: "default".into(),
            split: None,
            device: config.profile,
            density: config.profile.density,
            font_scale: config.font_scale,
            dark: config.dark_mode,
            wallpaper: config.wallpaper,
            home: None,
            locale: config.locale,
        }
    }
}

impl Environment {
    /// Resolves a name: a B-MoCA id (`105`, `5` = `005`), `random:SEED`, or `default`.
    pub fn resolve(name: &str) -> Result<Environment, EnvError> {
        let name = name.trim();
        if name == "default" {
            return Ok(Environment::default());
        }
        if let Some(seed) = name.strip_prefix("random:") {
            let seed: u64 = seed.trim().parse().map_err(|_| EnvError::Invalid {
                name: name.into(),
                reason: "the seed must be a number".into(),
            })?;
            return Ok(random::draw(seed));
        }
        catalog::get(name).cloned()
    }

    /// Several environments: a split (`train`, `test`, `all`) or a comma-separated list of names.
    pub fn resolve_many(spec: &str) -> Result<Vec<Environment>, EnvError> {
        match spec.trim() {
            "all" => Ok(catalog::load()?.to_vec()),
            s => match Split::parse(s) {
                Some(split) => catalog::split(split),
                None => s.split(',').map(Environment::resolve).collect(),
            },
        }
    }

    /// The embedded phone's boot configuration in this environment.
    pub fn sim_config(&self, seed: u64, clock: ClockMode) -> SimConfig {
        SimConfig {
            seed,
            profile: self.device,
            locale: self.locale.clone(),
            font_scale: self.font_scale,
            dark_mode: self.dark,
            density: Some(self.density),
            wallpaper: self.wallpaper,
            home: self.home.as_ref().map(HomeLayout::to_home_screen),
            clock,
            environment: Some(self.name.clone()),
        }
    }

    /// The factors B-MoCA varies, by name, for breaking results down.
    pub fn factors(&self) -> Vec<(&'static str, String)> {
        vec![
            ("device", self.device.model.to_string()),
            ("density", self.density.to_string()),
            ("font_scale", format!("{}", self.font_scale)),
            ("dark", if self.dark { "dark" } else { "light" }.to_string()),
            ("wallpaper", self.wallpaper.name().to_string()),
            (
                "home",
                self.home
                    .as_ref()
                    .map_or("default".to_string(), HomeLayout::signature),
            ),
            ("locale", self.locale.clone()),
        ]
    }

    /// One line saying what the environment is.
    pub fn describe(&self) -> String {
        format!(
            "env {}{}: {} {}dpi font {} {} wallpaper {} {} home {}",
            self.name,
            self.split
                .map_or(String::new(), |s| format!(" ({})", s.as_str())),
            self.device.model,
            self.density,
            self.font_scale,
            if self.dark { "dark" } else { "light" },
            self.wallpaper.name(),
            self.locale,
            self.home
                .as_ref()
                .map_or("default".to_string(), |h| format!(
                    "{} icons on {}x{}",
                    h.slots.len(),
                    h.columns,
                    h.rows
                )),
        )
    }
}

/// A device spec with an environment: `sim:3@105` boots sim seed 3 in environment 105. Returns the
/// device part and the environment part.
pub fn split_spec(spec: &str) -> (&str, Option<&str>) {
    match spec.split_once('@') {
        Some((device, env)) => (device, Some(env)),
        None => (spec, None),
    }
}

/// `spec` with the environment `env` attached (replacing one it had).
pub fn with_env(spec: &str, env: &str) -> String {
    format!("{}@{}", split_spec(spec).0, env.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_ids_random_default_and_splits() {
        assert_eq!(Environment::resolve("105").unwrap().locale, "ko-KR");
        assert_eq!(Environment::resolve("5").unwrap().name, "005");
        assert_eq!(
            Environment::resolve("random:7"),
            Environment::resolve("random:7")
        );
        assert_eq!(
            Environment::resolve("default").unwrap(),
            Environment::default()
        );
        assert!(matches!(
            Environment::resolve("200"),
            Err(EnvError::Unknown(_))
        ));
        assert!(matches!(
            Environment::resolve("random:x"),
            Err(EnvError::Invalid { .. })
        ));
        assert_eq!(Environment::resolve_many("test").unwrap().len(), 10);
        assert_eq!(Environment::resolve_many("train").unwrap().len(), 35);
        assert_eq!(Environment::resolve_many("000,109").unwrap().len(), 2);
        assert_eq!(split_spec("sim:3@105"), ("sim:3", Some("105")));
        assert_eq!(with_env("sim:3@105", "random:2"), "sim:3@random:2");
    }
}

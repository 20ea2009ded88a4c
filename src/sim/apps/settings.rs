//! Settings (com.android.settings): the homepage and the pages benchmark tasks visit (Network &
//! internet / Internet with Wi-Fi and airplane mode, Connected devices / Bluetooth, Apps / app info
//! with Force stop and Clear storage, Display with brightness and dark theme, Sound & vibration
//! volumes, System / Languages / Add a language).
//!
//! Every switch and slider reads its value from the settings provider on each frame (so
//! `settings put` from the shell shows up at once) and writes the key Android stores it under,
//! logging the lines real Android writes (`PhoneGlobals` airplane, `WifiService` setWifiEnabled,
//! `DisplayPowerController` brightness, `vol.Events` stream levels, `SettingsProvider` change
//! notifications, `SettingsActivity` fragment switches).

mod list;

use list::{Action, Dialog, Item, MainSwitch, PageView};

use crate::sim::app::{App, AppInfo, UiEvent};
use crate::sim::system::{pid, Namespace, Request, Stream, System};
use crate::sim::view::View;

pub const PACKAGE: &str = "com.android.settings";
const ACTIVITY: &str = "com.android.settings.Settings";
const SUB_SETTINGS: &str = "com.android.settings.SubSettings";
const LOCALE_PICKER: &str = "com.android.settings.localepicker.LocalePickerWithRegionActivity";
const SEARCH_ACTIVITY: &str = "com.android.settings.search.SearchActivity";

/// What "Search settings" finds: (entry title, page tag, where it lives).
const SEARCH_INDEX: &[(&str, &str, &str)] = &[
    ("Network & internet", "network", ""),
    ("Internet", "internet", "Network & internet"),
    ("Wi-Fi", "internet", "Network & internet > Internet"),
    ("Airplane mode", "network", "Network & internet"),
    ("Connected devices", "connected_devices", ""),
    (
        "Connection preferences",
        "connection_preferences",
        "Connected devices",
    ),
    (
        "Bluetooth",
        "bluetooth",
        "Connected devices > Connection preferences",
    ),
    ("Apps", "apps", ""),
    ("See all apps", "all_apps", "Apps"),
    ("Display", "display", ""),
    ("Brightness level", "display", "Display"),
    ("Adaptive brightness", "display", "Display"),
    ("Dark theme", "display", "Display"),
    ("Sound & vibration", "sound", ""),
    ("Media volume", "sound", "Sound & vibration"),
    ("Call volume", "sound", "Sound & vibration"),
    ("Ring & notification volume", "sound", "Sound & vibration"),
    ("Alarm volume", "sound", "Sound & vibration"),
    ("Vibrate for calls", "sound", "Sound & vibration"),
    ("System", "system", ""),
    ("Languages & input", "languages_input", "System"),
    ("Languages", "languages", "System > Languages & input"),
    (
        "Add a language",
        "add_language",
        "System > Languages & input > Languages",
    ),
];

/// The Settings process's id in its own log lines (the framework's other processes are in
/// [`pid`]).
const PID_SETTINGS: u32 = 3120;

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        labels: &[
            ("en", "Settings"),
            ("de", "Einstellungen"),
            ("fr", "Paramètres"),
            ("es", "Ajustes"),
            ("ja", "設定"),
            ("ko", "설정"),
            ("zh", "设置"),
        ],
        launch_activity: ACTIVITY,
        create: |_| Box::new(Screen::default()),
        install: |_| {},
        on_home_screen: true,
    }
}

/// The pages of the Settings app.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Page {
    Home,
    Network,
    Internet,
    ConnectedDevices,
    ConnectionPreferences,
    Bluetooth,
    Apps,
    AllApps,
    AppInfo(String),
    AppStorage(String),
    Display,
    Sound,
    System,
    LanguagesInput,
    Languages,
    AddLanguage,
    Search,
}

impl Page {
    fn from_tag(tag: &str) -> Option<Page> {
        Some(match tag {
            "network" => Page::Network,
            "internet" => Page::Internet,
            "connected_devices" => Page::ConnectedDevices,
            "connection_preferences" => Page::ConnectionPreferences,
            "bluetooth" => Page::Bluetooth,
            "apps" => Page::Apps,
            "all_apps" => Page::AllApps,
            "display" => Page::Display,
            "sound" => Page::Sound,
            "system" => Page::System,
            "languages_input" => Page::LanguagesInput,
            "languages" => Page::Languages,
            "add_language" => Page::AddLanguage,
            _ => return None,
        })
    }

    /// The fragment SettingsActivity logs when it shows this page.
    fn fragment(&self) -> &'static str {
        match self {
            Page::Home => "com.android.settings.homepage.TopLevelSettings",
            Page::Network => "com.android.settings.network.NetworkDashboardFragment",
            Page::Internet => "com.android.settings.network.NetworkProviderSettings",
            Page::ConnectedDevices => {
                "com.android.settings.connecteddevice.ConnectedDeviceDashboardFragment"
            }
            Page::ConnectionPreferences => {
                "com.android.settings.connecteddevice.AdvancedConnectedDeviceDashboardFragment"
            }
            Page::Bluetooth => "com.android.settings.connecteddevice.BluetoothDashboardFragment",
            Page::Apps => "com.android.settings.applications.AppDashboardFragment",
            Page::AllApps => {
                "com.android.settings.applications.manageapplications.ManageApplications"
            }
            Page::AppInfo(_) => {
                "com.android.settings.applications.appinfo.AppInfoDashboardFragment"
            }
            Page::AppStorage(_) => "com.android.settings.applications.AppStorageSettings",
            Page::Display => "com.android.settings.DisplaySettings",
            Page::Sound => "com.android.settings.notification.SoundSettings",
            Page::System => "com.android.settings.system.SystemDashboardFragment",
            Page::LanguagesInput => "com.android.settings.language.LanguageAndInputSettings",
            Page::Languages => "com.android.settings.localepicker.LocaleListEditor",
            Page::AddLanguage => "com.android.settings.localepicker.LocalePickerWithRegion",
            Page::Search => "com.android.settings.search.SearchFragment",
        }
    }

    fn scroll_tag(&self) -> String {
        let name = match self {
            Page::AppInfo(p) => format!("app_info:{p}"),
            Page::AppStorage(p) => format!("app_storage:{p}"),
            other => format!("{other:?}").to_lowercase(),
        };
        format!("list:{name}")
    }
}

/// The volume sliders of Settings > Sound & vibration: (slider tag, title, icon, stream).
const VOLUMES: [(&str, &str, &str, Stream); 4] = [
    ("volume_music", "Media volume", "sound", Stream::Music),
    ("volume_call", "Call volume", "call", Stream::VoiceCall),
    (
        "volume_ring",
        "Ring & notification volume",
        "ring",
        Stream::Ring,
    ),
    ("volume_alarm", "Alarm volume", "alarm", Stream::Alarm),
];

/// Languages the "Add a language" picker offers: (tag, name as the picker shows it).
const LANGUAGES: [(&str, &str); 10] = [
    ("en-US", "English (United States)"),
    ("en-GB", "English (United Kingdom)"),
    ("de-DE", "Deutsch (Deutschland)"),
    ("es-ES", "Español (España)"),
    ("fr-FR", "Français (France)"),
    ("it-IT", "Italiano (Italia)"),
    ("pt-BR", "Português (Brasil)"),
    ("ja-JP", "日本語 (日本)"),
    ("ko-KR", "한국어 (대한민국)"),
    ("zh-CN", "中文 (中国)"),
];

fn language_name(tag: &str) -> String {
    LANGUAGES
        .iter()
        .find(|(t, _)| t.eq_ignore_ascii_case(tag) || t.replace('-', "_").eq_ignore_ascii_case(tag))
        .map(|(_, n)| n.to_string())
        .unwrap_or_else(|| tag.to_string())
}

/// What a confirmed dialog does.
#[derive(Debug, Clone, PartialEq)]
enum Pending {
    ForceStop(String),
    ClearStorage(String),
}

#[derive(Default)]
struct Screen {
    /// Pages below the current one; empty on the homepage.
    back_stack: Vec<Page>,
    page: Option<Page>,
    dialog: Option<(Dialog, Pending)>,
    /// What is typed in the search page's box.
    query: String,
}

fn flag(sys: &System, ns: Namespace, key: &str, default: i64) -> bool {
    sys.settings.get_int(ns, key, default) != 0
}

fn on_off(on: bool) -> String {
    if on { "On" } else { "Off" }.to_string()
}

fn nav(tag: &str, title: &str, summary: impl Into<String>, icon: Option<&'static str>) -> Item {
    Item::Nav {
        tag: format!("nav:{tag}"),
        title: title.to_string(),
        summary: summary.into(),
        icon,
    }
}

fn toggle(
    tag: &str,
    title: &str,
    summary: impl Into<String>,
    checked: bool,
    icon: Option<&'static str>,
) -> Item {
    Item::Toggle {
        tag: format!("toggle:{tag}"),
        title: title.to_string(),
        summary: summary.into(),
        checked,
        icon,
    }
}

fn info_row(title: &str, summary: impl Into<String>) -> Item {
    Item::Info {
        title: title.to_string(),
        summary: summary.into(),
    }
}

/// The languages the user has added, primary first (`system_locales`, else the phone's locale).
fn locales(sys: &System) -> Vec<String> {
    match sys.settings.get(Namespace::System, "system_locales") {
        Some(v) if !v.trim().is_empty() => v.split(',').map(|s| s.trim().to_string()).collect(),
        _ => vec![sys.locale.clone()],
    }
}

/// Bytes under an Android directory (0 when it does not exist).
fn dir_size(sys: &System, android_path: &str) -> u64 {
    fn walk(p: &std::path::Path) -> u64 {
        let Ok(entries) = std::fs::read_dir(p) else {
            return 0;
        };
        entries
            .flatten()
            .map(|e| match e.metadata() {
                Ok(m) if m.is_dir() => walk(&e.path()),
                Ok(m) => m.len(),
                Err(_) => 0,
            })
            .sum()
    }
    sys.host_path(android_path).map(|p| walk(&p)).unwrap_or(0)
}

fn human_size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.2} MB", bytes as f64 / (1u64 << 20) as f64)
    } else if bytes >= 1024 {
        format!("{:.2} kB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

/// The directories an app's data lives in (credential- and device-protected storage).
fn data_dirs(package: &str) -> [String; 2] {
    [
        format!("/data/data/{package}"),
        format!("/data/user_de/0/{package}"),
    ]
}

fn brightness(sys: &System) -> i32 {
    sys.settings
        .get_int(Namespace::System, "screen_brightness", 102)
        .clamp(0, 255) as i32
}

impl Screen {
    fn current(&self) -> Page {
        self.page.clone().unwrap_or(Page::Home)
    }

    fn open(&mut self, page: Page, sys: &mut System) {
        let from = self.current();
        self.back_stack.push(from);
        let component = match page {
            Page::AddLanguage => ".localepicker.LocalePickerWithRegionActivity",
            Page::Search => ".search.SearchActivity",
            _ => ".SubSettings",
        };
        sys.log(
            pid::SYSTEM_SERVER,
            'I',
            "ActivityTaskManager",
            format!("START u0 {{cmp={PACKAGE}/{component} (has extras)}} from uid 1000"),
        );
        sys.log(
            PID_SETTINGS,
            'D',
            "SettingsActivity",
            format!("Switching to fragment {}", page.fragment()),
        );
        if page == Page::Bluetooth {
            sys.log(
                PID_SETTINGS,
                'D',
                "PrefCtrlListHelper",
                "Could not find Context-only controller for pref: \
                 com.android.settings.bluetooth.BluetoothDeviceRenamePreferenceController",
            );
        }
        sys.request(Request::ResetScroll {
            tag: page.scroll_tag(),
        });
        self.page = Some(page);
    }

    fn back(&mut self) -> bool {
        if self.dialog.take().is_some() {
            return true;
        }
        match self.back_stack.pop() {
            Some(Page::Home) | None if self.page.is_none() => false,
            Some(Page::Home) | None => {
                self.page = None;
                true
            }
            Some(p) => {
                self.page = Some(p);
                true
            }
        }
    }

    fn view(&self, sys: &System) -> PageView {
        let page = self.current();
        let (title, main_switch, items) = match &page {
            Page::Home => (
                String::new(),
                None,
                vec![
                    nav(
                        "network",
                        "Network & internet",
                        "Mobile, Wi-Fi, hotspot",
                        Some("wifi"),
                    ),
                    nav(
                        "connected_devices",
                        "Connected devices",
                        "Bluetooth, pairing",
                        Some("devices"),
                    ),
                    nav(
                        "apps",
                        "Apps",
                        "Assistant, recent apps, default apps",
                        Some("apps"),
                    ),
                    nav(
                        "sound",
                        "Sound & vibration",
                        "Volume, haptics, Do Not Disturb",
                        Some("sound"),
                    ),
                    nav(
                        "display",
                        "Display",
                        "Dark theme, font size, brightness",
                        Some("display"),
                    ),
                    nav(
                        "system",
                        "System",
                        "Languages, gestures, time, backup",
                        Some("info"),
                    ),
                ],
            ),
            Page::Network => {
                let wifi = flag(sys, Namespace::Global, "wifi_on", 1);
                let airplane = flag(sys, Namespace::Global, "airplane_mode_on", 0);
                (
                    "Network & internet".into(),
                    None,
                    vec![
                        nav(
                            "internet",
                            "Internet",
                            if airplane && !wifi {
                                "Airplane mode is on".to_string()
                            } else if wifi {
                                "AndroidWifi".to_string()
                            } else {
                                "Off".to_string()
                            },
                            Some("wifi"),
                        ),
                        toggle("airplane", "Airplane mode", "", airplane, Some("airplane")),
                    ],
                )
            }
            Page::Internet => {
                let wifi = flag(sys, Namespace::Global, "wifi_on", 1);
                let mut items = vec![toggle("wifi", "Wi-Fi", "", wifi, Some("wifi"))];
                if wifi {
                    items.push(info_row("AndroidWifi", "Connected"));
                } else {
                    items.push(info_row("To see available networks, turn Wi-Fi on", ""));
                }
                ("Internet".into(), None, items)
            }
            Page::ConnectedDevices => (
                "Connected devices".into(),
                None,
                vec![nav(
                    "connection_preferences",
                    "Connection preferences",
                    "Bluetooth, NFC",
                    Some("devices"),
                )],
            ),
            Page::ConnectionPreferences => (
                "Connection preferences".into(),
                None,
                vec![nav(
                    "bluetooth",
                    "Bluetooth",
                    on_off(flag(sys, Namespace::Global, "bluetooth_on", 0)),
                    Some("bluetooth"),
                )],
            ),
            Page::Bluetooth => {
                let on = flag(sys, Namespace::Global, "bluetooth_on", 0);
                let name = sys
                    .settings
                    .get(Namespace::Global, "device_name")
                    .unwrap_or("Pixel")
                    .to_string();
                let mut items = vec![info_row("Device name", name)];
                if on {
                    items.push(info_row("Pair new device", ""));
                }
                (
                    "Bluetooth".into(),
                    Some(MainSwitch {
                        tag: "toggle:bluetooth".into(),
                        text: "Use Bluetooth".into(),
                        checked: on,
                    }),
                    items,
                )
            }
            Page::Apps => {
                let n = super::catalog().len();
                (
                    "Apps".into(),
                    None,
                    vec![nav(
                        "all_apps",
                        &format!("See all {n} apps"),
                        "",
                        Some("apps"),
                    )],
                )
            }
            Page::AllApps => {
                let mut apps: Vec<(String, &'static str)> = super::catalog()
                    .iter()
                    .map(|a| (a.label(&sys.locale).to_string(), a.package))
                    .collect();
                apps.sort_by_key(|(label, _)| label.to_lowercase());
                let items = apps
                    .into_iter()
                    .map(|(label, package)| Item::Nav {
                        tag: format!("app:{package}"),
                        summary: human_size(
                            data_dirs(package).iter().map(|d| dir_size(sys, d)).sum(),
                        ),
                        title: label,
                        icon: None,
                    })
                    .collect();
                ("All apps".into(), None, items)
            }
            Page::AppInfo(package) => {
                let label = super::catalog()
                    .iter()
                    .find(|a| a.package == package)
                    .map(|a| a.label(&sys.locale).to_string())
                    .unwrap_or_else(|| package.clone());
                let used: u64 = data_dirs(package).iter().map(|d| dir_size(sys, d)).sum();
                (
                    "App info".into(),
                    None,
                    vec![
                        Item::Entity {
                            title: label,
                            summary: "Installed".into(),
                            icon: None,
                        },
                        Item::Buttons(vec![
                            Action::new(
                                "btn:open",
                                "Open",
                                "com.android.settings:id/button1",
                                true,
                            ),
                            Action::new(
                                "btn:force_stop",
                                "Force stop",
                                "com.android.settings:id/button2",
                                CAN_FORCE_STOP,
                            ),
                        ]),
                        Item::Nav {
                            tag: "nav:app_storage".into(),
                            title: "Storage & cache".into(),
                            summary: format!("{} used in internal storage", human_size(used)),
                            icon: None,
                        },
                    ],
                )
            }
            Page::AppStorage(package) => {
                let data: u64 = data_dirs(package).iter().map(|d| dir_size(sys, d)).sum();
                let cache = dir_size(sys, &format!("/data/data/{package}/cache"));
                (
                    "Storage & cache".into(),
                    None,
                    vec![
                        Item::Buttons(vec![
                            Action::new(
                                "btn:clear_storage",
                                "Clear storage",
                                "com.android.settings:id/button1",
                                true,
                            ),
                            Action::new(
                                "btn:clear_cache",
                                "Clear cache",
                                "com.android.settings:id/button2",
                                true,
                            ),
                        ]),
                        Item::Category("Space used".into()),
                        info_row("User data", human_size(data.saturating_sub(cache))),
                        info_row("Cache", human_size(cache)),
                        info_row("Total", human_size(data)),
                    ],
                )
            }
            Page::Display => (
                "Display".into(),
                None,
                vec![
                    Item::Category("Brightness".into()),
                    Item::Slider {
                        tag: "seek:brightness".into(),
                        title: "Brightness level".into(),
                        value: brightness(sys),
                        max: 255,
                        icon: Some("display"),
                    },
                    toggle(
                        "adaptive_brightness",
                        "Adaptive brightness",
                        "Optimize brightness level for available light",
                        flag(sys, Namespace::System, "screen_brightness_mode", 0),
                        None,
                    ),
                    Item::Category("Appearance".into()),
                    toggle(
                        "dark_theme",
                        "Dark theme",
                        "",
                        sys.dark_mode(),
                        Some("dark_mode"),
                    ),
                ],
            ),
            Page::Sound => {
                let mut items: Vec<Item> = VOLUMES
                    .iter()
                    .map(|(tag, title, icon, stream)| {
                        let max = stream.range().1;
                        Item::Slider {
                            tag: format!("seek:{tag}"),
                            title: title.to_string(),
                            value: sys.volume(*stream).clamp(0, max),
                            max,
                            icon: Some(icon),
                        }
                    })
                    .collect();
                items.push(toggle(
                    "vibrate_when_ringing",
                    "Vibrate for calls",
                    "",
                    flag(sys, Namespace::System, "vibrate_when_ringing", 0),
                    None,
                ));
                ("Sound & vibration".into(), None, items)
            }
            Page::System => (
                "System".into(),
                None,
                vec![nav(
                    "languages_input",
                    "Languages & input",
                    "Gboard",
                    Some("language"),
                )],
            ),
            Page::LanguagesInput => (
                "Languages & input".into(),
                None,
                vec![
                    nav(
                        "languages",
                        "Languages",
                        language_name(&locales(sys)[0]),
                        Some("language"),
                    ),
                    info_row("On-screen keyboard", "Gboard"),
                ],
            ),
            Page::Languages => {
                let mut items: Vec<Item> = locales(sys)
                    .iter()
                    .enumerate()
                    .map(|(i, l)| info_row(&format!("{}. {}", i + 1, language_name(l)), ""))
                    .collect();
                items.push(nav("add_language", "Add a language", "", Some("add")));
                ("Languages".into(), None, items)
            }
            Page::Search => {
                let q = self.query.trim().to_lowercase();
                let mut items = vec![Item::Field {
                    tag: "search_field".into(),
                    text: self.query.clone(),
                    hint: "Search settings".into(),
                    id: "com.android.settings:id/search_src_text".into(),
                }];
                if !q.is_empty() {
                    items.extend(
                        SEARCH_INDEX
                            .iter()
                            .filter(|(title, ..)| title.to_lowercase().contains(&q))
                            .map(|(title, tag, path)| nav(tag, title, *path, None)),
                    );
                }
                ("Search".into(), None, items)
            }
            Page::AddLanguage => (
                "Add a language".into(),
                None,
                LANGUAGES
                    .iter()
                    .map(|(tag, name)| Item::Nav {
                        tag: format!("lang:{tag}"),
                        title: name.to_string(),
                        summary: String::new(),
                        icon: None,
                    })
                    .collect(),
            ),
        };
        PageView {
            title,
            main_switch,
            items,
            scroll_tag: page.scroll_tag(),
        }
    }

    fn toggle(&mut self, key: &str, sys: &mut System) -> bool {
        match key {
            "airplane" => {
                let on = !flag(sys, Namespace::Global, "airplane_mode_on", 0);
                sys.set_airplane_mode(on);
            }
            "wifi" => {
                let on = !flag(sys, Namespace::Global, "wifi_on", 1);
                sys.set_wifi_enabled(on, PACKAGE);
            }
            "bluetooth" => {
                let on = !flag(sys, Namespace::Global, "bluetooth_on", 0);
                sys.set_bluetooth_enabled(on, PACKAGE);
            }
            "adaptive_brightness" => {
                let on = !flag(sys, Namespace::System, "screen_brightness_mode", 0);
                sys.put_setting(
                    Namespace::System,
                    "screen_brightness_mode",
                    (on as i32).to_string(),
                );
            }
            "dark_theme" => {
                let dark = !sys.dark_mode();
                sys.set_dark_mode(dark);
                // DarkUIPreferenceController records that the dark theme explanation was seen.
                sys.put_setting(Namespace::Secure, "dark_mode_dialog_seen", "1");
            }
            "vibrate_when_ringing" => {
                let on = !flag(sys, Namespace::System, "vibrate_when_ringing", 0);
                sys.put_setting(
                    Namespace::System,
                    "vibrate_when_ringing",
                    (on as i32).to_string(),
                );
            }
            _ => return false,
        }
        true
    }

    fn seek(&mut self, key: &str, value: i32, sys: &mut System) -> bool {
        if key == "brightness" {
            sys.set_brightness(value);
            return true;
        }
        match VOLUMES.iter().find(|(tag, ..)| *tag == key) {
            Some((.., stream)) => {
                sys.set_volume(*stream, value);
                true
            }
            None => false,
        }
    }

    fn button(&mut self, action: &str, sys: &mut System) -> bool {
        let package = match self.current() {
            Page::AppInfo(p) | Page::AppStorage(p) => p,
            _ => return false,
        };
        match action {
            "open" => sys.request(Request::Launch {
                package,
                intent: None,
            }),
            "force_stop" if CAN_FORCE_STOP => {
                self.dialog = Some((
                    Dialog {
                        title: "Force stop?".into(),
                        message: "If you force stop an app, it may misbehave.".into(),
                        confirm: "OK".into(),
                    },
                    Pending::ForceStop(package),
                ))
            }
            "clear_storage" => {
                self.dialog = Some((
                    Dialog {
                        title: "Delete app data?".into(),
                        message:
                            "All this app's data will be deleted permanently. This includes all \
                                  files, settings, accounts, databases, etc."
                                .into(),
                        confirm: "OK".into(),
                    },
                    Pending::ClearStorage(package),
                ))
            }
            "clear_cache" => {
                if let Some(p) = sys.host_path(&format!("/data/data/{package}/cache")) {
                    let _ = std::fs::remove_dir_all(p);
                }
            }
            _ => return false,
        }
        true
    }

    fn confirm(&mut self, sys: &mut System) {
        let Some((_, pending)) = self.dialog.take() else {
            return;
        };
        match pending {
            Pending::ForceStop(package) => force_stop(sys, &package, "from pid 3120"),
            Pending::ClearStorage(package) => {
                force_stop(sys, &package, "clear data");
                for dir in data_dirs(&package) {
                    if let Some(p) = sys.host_path(&dir) {
                        let _ = std::fs::remove_dir_all(p);
                    }
                }
                if let Some(app) = super::catalog().into_iter().find(|a| a.package == package) {
                    (app.install)(sys);
                }
            }
        }
    }
}

/// Logs ActivityManager's force-stop line. Stopping the running app itself needs a framework
/// request that [`Request`] does not offer yet, so the Force stop button stays disabled and
/// clearing storage only replaces the data on disk.
fn force_stop(sys: &mut System, package: &str, reason: &str) {
    sys.log(
        pid::SYSTEM_SERVER,
        'I',
        "ActivityManager",
        format!("Force stopping {package} appid=10100 user=0: {reason}"),
    );
}

/// Whether the framework can stop another app on Settings' behalf (see [`force_stop`]).
const CAN_FORCE_STOP: bool = false;

impl App for Screen {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        match self.current() {
            Page::Home => ACTIVITY,
            Page::AddLanguage => LOCALE_PICKER,
            Page::Search => SEARCH_ACTIVITY,
            _ => SUB_SETTINGS,
        }
        .to_string()
    }

    fn render(&self, sys: &System) -> View {
        list::build(
            &sys.metrics,
            &self.view(sys),
            self.dialog.as_ref().map(|(d, _)| d),
        )
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let tag = match event {
            UiEvent::Back => return self.back(),
            UiEvent::Click(tag) => tag.as_str(),
            UiEvent::TextChanged { tag, text } if tag == "search_field" => {
                self.query = text.clone();
                return true;
            }
            UiEvent::Seek { tag, value } => {
                return tag
                    .strip_prefix("seek:")
                    .is_some_and(|key| self.seek(key, *value, sys));
            }
            _ => return false,
        };
        if let Some(rest) = tag.strip_prefix("dialog:") {
            if rest == "ok" {
                self.confirm(sys);
            } else {
                self.dialog = None;
            }
            return true;
        }
        if self.dialog.is_some() {
            // A modal dialog swallows taps outside it.
            return true;
        }
        if tag == "up" {
            return self.back();
        }
        if tag == "search" || tag == "search_field" {
            if tag == "search" {
                self.query.clear();
                self.open(Page::Search, sys);
            }
            sys.request(Request::Focus {
                tag: "search_field".into(),
            });
            return true;
        }
        if let Some(key) = tag.strip_prefix("nav:") {
            let page = match (key, self.current()) {
                ("app_storage", Page::AppInfo(p)) => Some(Page::AppStorage(p)),
                _ => Page::from_tag(key),
            };
            return match page {
                Some(p) => {
                    self.open(p, sys);
                    true
                }
                None => false,
            };
        }
        if let Some(package) = tag.strip_prefix("app:") {
            self.open(Page::AppInfo(package.to_string()), sys);
            return true;
        }
        if let Some(key) = tag.strip_prefix("toggle:") {
            return self.toggle(key, sys);
        }
        if let Some(action) = tag.strip_prefix("btn:") {
            return self.button(action, sys);
        }
        if let Some(lang) = tag.strip_prefix("lang:") {
            let mut list = locales(sys);
            if !list.iter().any(|l| l.eq_ignore_ascii_case(lang)) {
                list.push(lang.to_string());
            }
            sys.put_setting(Namespace::System, "system_locales", list.join(","));
            return self.back();
        }
        false
    }
}

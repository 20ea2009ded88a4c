//! What each Settings page shows, as on a Pixel with Android 14: the homepage's seventeen entries,
//! the pages under them, About phone (from the system properties `getprop` reads), and the search
//! index, which is built by walking every page from the homepage so it finds each page and switch.
//!
//! Values are read from the settings provider and the system properties on every frame; nothing is
//! copied into the app.

use super::list::{Action, Item, MainSwitch};
use crate::sim::system::{Namespace, Stream, System};

/// The pages of the Settings app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Page {
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
    Notifications,
    Battery,
    Storage,
    Sound,
    Display,
    TextReading,
    Wallpaper,
    Accessibility,
    Security,
    Location,
    Emergency,
    Accounts,
    Wellbeing,
    System,
    LanguagesInput,
    Languages,
    AddLanguage,
    DateTime,
    About,
    AndroidVersion,
    Hardware,
    Search,
}

/// Static pages by tag (the `nav:<tag>` rows that open them), with the fragment SettingsActivity
/// logs for each.
const PAGES: &[(&str, Page, &str)] = &[
    (
        "network",
        Page::Network,
        "com.android.settings.network.NetworkDashboardFragment",
    ),
    (
        "internet",
        Page::Internet,
        "com.android.settings.network.NetworkProviderSettings",
    ),
    (
        "connected_devices",
        Page::ConnectedDevices,
        "com.android.settings.connecteddevice.ConnectedDeviceDashboardFragment",
    ),
    (
        "connection_preferences",
        Page::ConnectionPreferences,
        "com.android.settings.connecteddevice.AdvancedConnectedDeviceDashboardFragment",
    ),
    (
        "bluetooth",
        Page::Bluetooth,
        "com.android.settings.connecteddevice.BluetoothDashboardFragment",
    ),
    (
        "apps",
        Page::Apps,
        "com.android.settings.applications.AppDashboardFragment",
    ),
    (
        "all_apps",
        Page::AllApps,
        "com.android.settings.applications.manageapplications.ManageApplications",
    ),
    (
        "notifications",
        Page::Notifications,
        "com.android.settings.notification.ConfigureNotificationSettings",
    ),
    (
        "battery",
        Page::Battery,
        "com.android.settings.fuelgauge.batteryusage.PowerUsageSummary",
    ),
    (
        "storage",
        Page::Storage,
        "com.android.settings.deviceinfo.StorageDashboardFragment",
    ),
    (
        "sound",
        Page::Sound,
        "com.android.settings.notification.SoundSettings",
    ),
    (
        "display",
        Page::Display,
        "com.android.settings.DisplaySettings",
    ),
    (
        "text_reading",
        Page::TextReading,
        "com.android.settings.accessibility.TextReadingPreferenceFragment",
    ),
    (
        "wallpaper",
        Page::Wallpaper,
        "com.android.settings.wallpaper.WallpaperTypeSettings",
    ),
    (
        "accessibility",
        Page::Accessibility,
        "com.android.settings.accessibility.AccessibilitySettings",
    ),
    (
        "security",
        Page::Security,
        "com.android.settings.security.SecurityAdvancedSettings",
    ),
    (
        "location",
        Page::Location,
        "com.android.settings.location.LocationSettings",
    ),
    (
        "emergency",
        Page::Emergency,
        "com.android.settings.emergency.EmergencyDashboardFragment",
    ),
    (
        "accounts",
        Page::Accounts,
        "com.android.settings.accounts.AccountDashboardFragment",
    ),
    (
        "wellbeing",
        Page::Wellbeing,
        "com.android.settings.dashboard.profileselector.ProfileSelectFragment",
    ),
    (
        "system",
        Page::System,
        "com.android.settings.system.SystemDashboardFragment",
    ),
    (
        "languages_input",
        Page::LanguagesInput,
        "com.android.settings.language.LanguageAndInputSettings",
    ),
    (
        "languages",
        Page::Languages,
        "com.android.settings.localepicker.LocaleListEditor",
    ),
    (
        "add_language",
        Page::AddLanguage,
        "com.android.settings.localepicker.LocalePickerWithRegion",
    ),
    (
        "date_time",
        Page::DateTime,
        "com.android.settings.datetime.DateTimeSettings",
    ),
    (
        "about",
        Page::About,
        "com.android.settings.deviceinfo.aboutphone.MyDeviceInfoFragment",
    ),
    (
        "android_version",
        Page::AndroidVersion,
        "com.android.settings.deviceinfo.firmwareversion.FirmwareVersionSettings",
    ),
    (
        "hardware",
        Page::Hardware,
        "com.android.settings.deviceinfo.hardwareinfo.HardwareInfoFragment",
    ),
];

impl Page {
    pub fn from_tag(tag: &str) -> Option<Page> {
        PAGES
            .iter()
            .find(|(t, ..)| *t == tag)
            .map(|(_, p, _)| p.clone())
    }

    /// The fragment SettingsActivity logs when it shows this page.
    pub fn fragment(&self) -> &'static str {
        match self {
            Page::Home => "com.android.settings.homepage.TopLevelSettings",
            Page::AppInfo(_) => {
                "com.android.settings.applications.appinfo.AppInfoDashboardFragment"
            }
            Page::AppStorage(_) => "com.android.settings.applications.AppStorageSettings",
            Page::Search => "com.android.settings.search.SearchFragment",
            page => PAGES
                .iter()
                .find(|(_, p, _)| p == page)
                .map(|(.., f)| *f)
                .unwrap_or("com.android.settings.SubSettings"),
        }
    }

    pub fn scroll_tag(&self) -> String {
        let name = match self {
            Page::AppInfo(p) => format!("app_info:{p}"),
            Page::AppStorage(p) => format!("app_storage:{p}"),
            other => format!("{other:?}").to_lowercase(),
        };
        format!("list:{name}")
    }
}

/// The volume sliders of Settings > Sound & vibration: (slider tag, title, icon, stream).
pub const VOLUMES: [(&str, &str, &str, Stream); 4] = [
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

/// Android 14's font size steps (`font_scale`), smallest to largest, as the slider offers them.
pub const FONT_SCALES: [f32; 7] = [0.85, 1.0, 1.15, 1.3, 1.5, 1.8, 2.0];

/// Languages the "Add a language" picker offers: (tag, name as the picker shows it).
pub const LANGUAGES: [(&str, &str); 10] = [
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

pub fn language_name(tag: &str) -> String {
    LANGUAGES
        .iter()
        .find(|(t, _)| t.eq_ignore_ascii_case(tag) || t.replace('-', "_").eq_ignore_ascii_case(tag))
        .map(|(_, n)| n.to_string())
        .unwrap_or_else(|| tag.to_string())
}

/// The languages the user has added, primary first (`system_locales`, else the phone's locale).
pub fn locales(sys: &System) -> Vec<String> {
    match sys.settings.get(Namespace::System, "system_locales") {
        Some(v) if !v.trim().is_empty() => v.split(',').map(|s| s.trim().to_string()).collect(),
        _ => vec![sys.locale.clone()],
    }
}

pub fn flag(sys: &System, ns: Namespace, key: &str, default: i64) -> bool {
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

fn info(title: &str, summary: impl Into<String>) -> Item {
    Item::Info {
        title: title.to_string(),
        summary: summary.into(),
    }
}

/// Bytes under an Android directory (0 when it does not exist).
pub fn dir_size(sys: &System, android_path: &str) -> u64 {
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

pub fn human_size(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.2} GB", bytes as f64 / (1u64 << 30) as f64)
    } else if bytes >= 1 << 20 {
        format!("{:.2} MB", bytes as f64 / (1u64 << 20) as f64)
    } else if bytes >= 1024 {
        format!("{:.2} kB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

/// The directories an app's data lives in (credential- and device-protected storage).
pub fn data_dirs(package: &str) -> [String; 2] {
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

/// The font-size step closest to the current `font_scale`.
pub fn font_step(sys: &System) -> i32 {
    let scale = sys
        .settings
        .get(Namespace::System, "font_scale")
        .and_then(|v| v.trim().parse::<f32>().ok())
        .unwrap_or(1.0);
    FONT_SCALES
        .iter()
        .enumerate()
        .min_by(|(_, a), (_, b)| {
            (*a - scale)
                .abs()
                .partial_cmp(&(*b - scale).abs())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map_or(1, |(i, _)| i as i32)
}

/// Storage the system image takes on a fresh Pixel 6 with Android 14, and the device's capacity.
const SYSTEM_BYTES: u64 = 15_246_163_968;
const CAPACITY_BYTES: u64 = 128_000_000_000;

fn storage_used(sys: &System) -> u64 {
    SYSTEM_BYTES + dir_size(sys, "/data") + dir_size(sys, "/sdcard")
}

/// `2024-02-05` → `February 5, 2024`, as About phone words the security patch.
fn long_date(iso: &str) -> String {
    chrono::NaiveDate::parse_from_str(iso, "%Y-%m-%d")
        .map(|d| d.format("%B %-d, %Y").to_string())
        .unwrap_or_else(|_| iso.to_string())
}

/// Title, main switch and rows of a page. `query` is the search box's text (Search page only).
pub fn content(page: &Page, sys: &System, query: &str) -> (String, Option<MainSwitch>, Vec<Item>) {
    let title = |t: &str| t.to_string();
    match page {
        Page::Home => (String::new(), None, home(sys)),
        Page::Network => {
            let wifi = flag(sys, Namespace::Global, "wifi_on", 1);
            let airplane = flag(sys, Namespace::Global, "airplane_mode_on", 0);
            let internet = if airplane && !wifi {
                "Airplane mode is on".to_string()
            } else if wifi {
                "AndroidWifi".to_string()
            } else {
                "Off".to_string()
            };
            (
                title("Network & internet"),
                None,
                vec![
                    nav("internet", "Internet", internet, Some("wifi")),
                    info("SIMs", "T-Mobile"),
                    toggle("airplane", "Airplane mode", "", airplane, Some("airplane")),
                    info("Hotspot & tethering", "Off"),
                    info("Data Saver", "Off"),
                    info("VPN", "None"),
                    info("Private DNS", "Automatic"),
                ],
            )
        }
        Page::Internet => {
            let wifi = flag(sys, Namespace::Global, "wifi_on", 1);
            let mut items = vec![toggle("wifi", "Wi-Fi", "", wifi, Some("wifi"))];
            if wifi {
                items.push(info("AndroidWifi", "Connected"));
            } else {
                items.push(info("To see available networks, turn Wi-Fi on", ""));
            }
            items.push(info(
                "Network preferences",
                "Wi-Fi turns back on automatically",
            ));
            (title("Internet"), None, items)
        }
        Page::ConnectedDevices => (
            title("Connected devices"),
            None,
            vec![
                info("Pair new device", ""),
                nav(
                    "connection_preferences",
                    "Connection preferences",
                    "Bluetooth, Android Auto, NFC",
                    Some("devices"),
                ),
            ],
        ),
        Page::ConnectionPreferences => (
            title("Connection preferences"),
            None,
            vec![
                nav(
                    "bluetooth",
                    "Bluetooth",
                    on_off(flag(sys, Namespace::Global, "bluetooth_on", 0)),
                    Some("bluetooth"),
                ),
                info("Cast", "Not connected"),
                info("Printing", "1 print service on"),
                info("Android Auto", "Use apps on your car screen"),
                info("NFC", "On"),
            ],
        ),
        Page::Bluetooth => {
            let on = flag(sys, Namespace::Global, "bluetooth_on", 0);
            let name = sys
                .settings
                .get(Namespace::Global, "device_name")
                .unwrap_or("Pixel")
                .to_string();
            let mut items = vec![info("Device name", name)];
            if on {
                items.push(info("Pair new device", ""));
            }
            (
                title("Bluetooth"),
                Some(MainSwitch {
                    tag: "toggle:bluetooth".into(),
                    text: "Use Bluetooth".into(),
                    checked: on,
                }),
                items,
            )
        }
        Page::Apps => {
            let n = crate::sim::apps::catalog().len();
            (
                title("Apps"),
                None,
                vec![
                    Item::Category("Recently opened apps".into()),
                    nav("all_apps", &format!("See all {n} apps"), "", Some("apps")),
                    info("Default apps", "Chrome, Phone, and Messages"),
                    info("Screen time", "Today"),
                    info("Unused apps", "0 unused apps"),
                    info("App battery usage", ""),
                    info("Special app access", "1 app can use unrestricted data"),
                ],
            )
        }
        Page::AllApps => {
            let mut apps: Vec<(String, &'static str)> = crate::sim::apps::catalog()
                .iter()
                .map(|a| (a.label(&sys.locale).to_string(), a.package))
                .collect();
            apps.sort_by_key(|(label, _)| label.to_lowercase());
            let items = apps
                .into_iter()
                .map(|(label, package)| Item::Nav {
                    tag: format!("app:{package}"),
                    summary: human_size(data_dirs(package).iter().map(|d| dir_size(sys, d)).sum()),
                    title: label,
                    icon: None,
                })
                .collect();
            (title("All apps"), None, items)
        }
        Page::AppInfo(package) => app_info(sys, package),
        Page::AppStorage(package) => app_storage(sys, package),
        Page::Notifications => {
            let dnd = sys.settings.get_int(Namespace::Global, "zen_mode", 0) != 0;
            (
                title("Notifications"),
                None,
                vec![
                    info("App notifications", "Notifications are on for all apps"),
                    info(
                        "Notification history",
                        "Show recent and snoozed notifications",
                    ),
                    Item::Category("Conversation".into()),
                    info("Conversations", "No priority conversations"),
                    info("Bubbles", "On / Conversations can appear as floating icons"),
                    Item::Category("Privacy".into()),
                    info(
                        "Notifications on lock screen",
                        "Show conversations, default, and silent",
                    ),
                    Item::Category("General".into()),
                    toggle("dnd", "Do Not Disturb", "", dnd, Some("notifications")),
                ],
            )
        }
        Page::Battery => {
            let saver = flag(sys, Namespace::Global, "low_power", 0);
            let percent = flag(sys, Namespace::System, "status_bar_show_battery_percent", 0);
            (
                title("Battery"),
                None,
                vec![
                    info("100%", "Full charge lasts about 1 day"),
                    info("Battery usage", "View usage for past 24 hours"),
                    toggle("battery_saver", "Battery Saver", "", saver, Some("battery")),
                    info(
                        "Adaptive preferences",
                        "Adaptive Battery and Adaptive Charging",
                    ),
                    toggle(
                        "battery_percentage",
                        "Battery percentage",
                        "Show battery percentage in status bar",
                        percent,
                        None,
                    ),
                ],
            )
        }
        Page::Storage => {
            let used = storage_used(sys);
            let apps: u64 = dir_size(sys, "/data/data") + dir_size(sys, "/data/user_de");
            (
                title("Storage"),
                None,
                vec![
                    info(
                        &format!("{} used", human_size(used)),
                        format!(
                            "{}% used - {} free",
                            used * 100 / CAPACITY_BYTES,
                            human_size(CAPACITY_BYTES - used)
                        ),
                    ),
                    info("Apps", human_size(apps)),
                    info(
                        "Images",
                        human_size(
                            dir_size(sys, "/sdcard/Pictures") + dir_size(sys, "/sdcard/DCIM"),
                        ),
                    ),
                    info(
                        "Documents & other",
                        human_size(dir_size(sys, "/sdcard/Download")),
                    ),
                    info("System", human_size(SYSTEM_BYTES)),
                    info("Trash", "0 B"),
                ],
            )
        }
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
            let dnd = sys.settings.get_int(Namespace::Global, "zen_mode", 0) != 0;
            items.push(toggle("dnd", "Do Not Disturb", "", dnd, None));
            items.push(toggle(
                "vibrate_when_ringing",
                "Vibrate for calls",
                "",
                flag(sys, Namespace::System, "vibrate_when_ringing", 0),
                None,
            ));
            items.push(info("Phone ringtone", "The Big Adventure"));
            items.push(info("Default notification sound", "Popcorn"));
            items.push(info("Default alarm sound", "Fresh start"));
            (title("Sound & vibration"), None, items)
        }
        Page::Display => {
            let timeout = sys
                .settings
                .get_int(Namespace::System, "screen_off_timeout", 60_000);
            (
                title("Display"),
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
                    nav(
                        "text_reading",
                        "Display size and text",
                        "Font size, display size, bold text",
                        None,
                    ),
                    Item::Category("Other display controls".into()),
                    toggle(
                        "auto_rotate",
                        "Auto-rotate screen",
                        "",
                        flag(sys, Namespace::System, "accelerometer_rotation", 0),
                        None,
                    ),
                    info("Screen timeout", timeout_text(timeout)),
                ],
            )
        }
        Page::TextReading => {
            let step = font_step(sys);
            let bold = sys
                .settings
                .get_int(Namespace::Secure, "font_weight_adjustment", 0)
                > 0;
            (
                title("Display size and text"),
                None,
                vec![
                    Item::Slider {
                        tag: "seek:font_size".into(),
                        title: "Font size".into(),
                        value: step,
                        max: FONT_SCALES.len() as i32 - 1,
                        icon: None,
                    },
                    info("Display size", "Make everything bigger or smaller"),
                    toggle("bold_text", "Bold text", "", bold, None),
                ],
            )
        }
        Page::Wallpaper => (
            title("Wallpaper & style"),
            None,
            vec![
                info("Change wallpaper", "Home screen and lock screen"),
                info("Wallpaper colors", "Colors from your wallpaper"),
                toggle(
                    "dark_theme",
                    "Dark theme",
                    "",
                    sys.dark_mode(),
                    Some("dark_mode"),
                ),
                info("Themed icons", "Off"),
                info("App grid", "4x5"),
            ],
        ),
        Page::Accessibility => {
            let inversion = flag(
                sys,
                Namespace::Secure,
                "accessibility_display_inversion_enabled",
                0,
            );
            (
                title("Accessibility"),
                None,
                vec![
                    Item::Category("Display".into()),
                    nav("text_reading", "Display size and text", "", Some("display")),
                    info("Color and motion", ""),
                    toggle("color_inversion", "Color inversion", "", inversion, None),
                    Item::Category("Screen readers".into()),
                    info("TalkBack", "Off / Speak items on screen"),
                    Item::Category("Interaction controls".into()),
                    info("Accessibility Menu", "Off"),
                    info("Switch Access", "Off"),
                ],
            )
        }
        Page::Security => (
            title("Security & privacy"),
            None,
            vec![
                info("Device unlock", "Screen lock: None"),
                info("App security", "Apps scanned by Google Play Protect"),
                info("Privacy", "Permissions, account activity, personal data"),
                info(
                    "More security & privacy",
                    "Encryption, credentials, and more",
                ),
            ],
        ),
        Page::Location => {
            let on = sys.settings.get_int(Namespace::Secure, "location_mode", 3) != 0;
            (
                title("Location"),
                Some(MainSwitch {
                    tag: "toggle:location".into(),
                    text: "Use location".into(),
                    checked: on,
                }),
                vec![
                    info("Recent access", "No apps have accessed location recently"),
                    info(
                        "App location permissions",
                        "0 of 9 apps have access to location",
                    ),
                    info("Location services", ""),
                ],
            )
        }
        Page::Emergency => (
            title("Safety & emergency"),
            None,
            vec![
                info("Emergency SOS", "Off"),
                info("Medical information", "Add medical information"),
                info("Emergency contacts", "No emergency contacts"),
                info("Crisis alerts", "On"),
                info("Wireless emergency alerts", ""),
            ],
        ),
        Page::Accounts => (
            title("Passwords & accounts"),
            None,
            vec![
                info("Passwords", "0 saved passwords"),
                info("Autofill service", "Google"),
                Item::Category("Accounts for owner".into()),
                info("Add account", ""),
            ],
        ),
        Page::Wellbeing => (
            title("Digital Wellbeing & parental controls"),
            None,
            vec![
                info("Screen time", "0 minutes today"),
                info("Dashboard", "App timers"),
                info("Bedtime mode", "Off"),
                info("Focus mode", "Off"),
                info(
                    "Parental controls",
                    "Add content restrictions and set other limits",
                ),
            ],
        ),
        Page::System => (
            title("System"),
            None,
            vec![
                nav(
                    "languages_input",
                    "Languages & input",
                    "Gboard",
                    Some("language"),
                ),
                info("Gestures", ""),
                nav(
                    "date_time",
                    "Date & time",
                    "GMT+00:00 Coordinated Universal Time",
                    Some("access_time"),
                ),
                info("Backup", "Off"),
                info("Reset options", ""),
                info("Multiple users", "Signed in as Owner"),
                info("System update", "Updated to Android 14"),
            ],
        ),
        Page::LanguagesInput => (
            title("Languages & input"),
            None,
            vec![
                nav(
                    "languages",
                    "Languages",
                    language_name(&locales(sys)[0]),
                    Some("language"),
                ),
                info("On-screen keyboard", "Gboard"),
            ],
        ),
        Page::Languages => {
            let mut items: Vec<Item> = locales(sys)
                .iter()
                .enumerate()
                .map(|(i, l)| info(&format!("{}. {}", i + 1, language_name(l)), ""))
                .collect();
            items.push(nav("add_language", "Add a language", "", Some("add")));
            (title("Languages"), None, items)
        }
        Page::AddLanguage => (
            title("Add a language"),
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
        Page::DateTime => {
            let now = sys.clock.now();
            let h24 = crate::sim::apps::widgets::uses_24h(sys);
            (
                title("Date & time"),
                None,
                vec![
                    toggle(
                        "auto_time",
                        "Set time automatically",
                        "",
                        flag(sys, Namespace::Global, "auto_time", 1),
                        None,
                    ),
                    info("Date", now.format("%B %-d, %Y").to_string()),
                    info(
                        "Time",
                        if h24 {
                            now.format("%H:%M").to_string()
                        } else {
                            now.format("%-I:%M %p").to_string()
                        },
                    ),
                    Item::Category("Time zone".into()),
                    toggle(
                        "auto_time_zone",
                        "Set time zone automatically",
                        "",
                        flag(sys, Namespace::Global, "auto_time_zone", 1),
                        None,
                    ),
                    info("Time zone", "GMT+00:00 Coordinated Universal Time"),
                    Item::Category("Time format".into()),
                    toggle("use_24h", "Use 24-hour format", "1:00 PM", h24, None),
                ],
            )
        }
        Page::About => {
            let name = sys
                .settings
                .get(Namespace::Global, "device_name")
                .unwrap_or(sys.property("ro.product.model"))
                .to_string();
            (
                title("About phone"),
                None,
                vec![
                    Item::Category("Basic info".into()),
                    info("Device name", name),
                    info("Phone number (SIM slot 1)", "Unknown"),
                    info("Emergency information", ""),
                    info("Legal information", ""),
                    Item::Category("Device details".into()),
                    info("SIM status (SIM slot 1)", "T-Mobile"),
                    nav("hardware", "Model", sys.property("ro.product.model"), None),
                    info("IMEI (SIM slot 1)", "358240051111110"),
                    nav(
                        "android_version",
                        "Android version",
                        sys.property("ro.build.version.release"),
                        None,
                    ),
                    Item::Category("Device identifiers".into()),
                    info("IP address", "10.0.2.16"),
                    info("Wi-Fi MAC address", "Not available"),
                    info("Bluetooth address", "Unavailable"),
                    info("Up time", up_time(sys)),
                    info("Build number", sys.property("ro.build.display.id")),
                ],
            )
        }
        Page::AndroidVersion => (
            title("Android version"),
            None,
            vec![
                info("Android version", sys.property("ro.build.version.release")),
                info(
                    "Android security update",
                    long_date(sys.property("ro.build.version.security_patch")),
                ),
                info("Google Play system update", "February 1, 2024"),
                info("Baseband version", "g5123b-130914-240205-B-11405587"),
                info(
                    "Kernel version",
                    "5.10.189-android13-4-00012-g1d82b24c9c8c-ab11183421",
                ),
                info("Build number", sys.property("ro.build.display.id")),
            ],
        ),
        Page::Hardware => (
            title("Model & hardware"),
            None,
            vec![
                info("Model", sys.property("ro.product.model")),
                info("Serial number", sys.property("ro.serialno")),
                info("Hardware version", "MP1.0"),
            ],
        ),
        Page::Search => {
            let mut items = vec![Item::Field {
                tag: "search_field".into(),
                text: query.to_string(),
                hint: "Search settings".into(),
                id: "com.android.settings:id/search_src_text".into(),
            }];
            items.extend(search(sys, query));
            (title("Search"), None, items)
        }
    }
}

fn home(sys: &System) -> Vec<Item> {
    let used = storage_used(sys);
    let location = sys.settings.get_int(Namespace::Secure, "location_mode", 3) != 0;
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
            "notifications",
            "Notifications",
            "Notification history, conversations",
            Some("notifications"),
        ),
        nav("battery", "Battery", "100%", Some("battery")),
        nav(
            "storage",
            "Storage",
            format!(
                "{}% used - {} free",
                used * 100 / CAPACITY_BYTES,
                human_size(CAPACITY_BYTES - used)
            ),
            Some("storage"),
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
            "wallpaper",
            "Wallpaper & style",
            "Colors, themed icons, app grid",
            Some("image"),
        ),
        nav(
            "accessibility",
            "Accessibility",
            "Display, interaction, audio",
            Some("person"),
        ),
        nav(
            "security",
            "Security & privacy",
            "App security, device lock, permissions",
            Some("lock"),
        ),
        nav(
            "location",
            "Location",
            if location {
                "On - 0 apps have access to location"
            } else {
                "Off"
            },
            Some("location"),
        ),
        nav(
            "emergency",
            "Safety & emergency",
            "Emergency SOS, medical info, alerts",
            Some("flag"),
        ),
        nav(
            "accounts",
            "Passwords & accounts",
            "Saved passwords, autofill, synced accounts",
            Some("account"),
        ),
        nav(
            "wellbeing",
            "Digital Wellbeing & parental controls",
            "Screen time, app timers, bedtime schedules",
            Some("bedtime"),
        ),
        nav(
            "system",
            "System",
            "Languages, gestures, time, backup",
            Some("system"),
        ),
        nav(
            "about",
            "About phone",
            sys.property("ro.product.model"),
            Some("info"),
        ),
    ]
}

fn timeout_text(ms: i64) -> String {
    let secs = ms / 1000;
    if secs < 60 {
        format!("After {secs} seconds of inactivity")
    } else if secs == 60 {
        "After 1 minute of inactivity".to_string()
    } else {
        format!("After {} minutes of inactivity", secs / 60)
    }
}

/// Time since boot: the phone booted when its log began.
fn up_time(sys: &System) -> String {
    let boot = sys
        .logcat
        .entries
        .front()
        .map(|e| e.time)
        .unwrap_or_else(|| sys.clock.now());
    let secs = (sys.clock.now() - boot).num_seconds().max(0);
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

fn app_info(sys: &System, package: &str) -> (String, Option<MainSwitch>, Vec<Item>) {
    let label = crate::sim::apps::catalog()
        .iter()
        .find(|a| a.package == package)
        .map(|a| a.label(&sys.locale).to_string())
        .unwrap_or_else(|| package.to_string());
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
                Action::new("btn:open", "Open", "com.android.settings:id/button1", true),
                Action::new(
                    "btn:force_stop",
                    "Force stop",
                    "com.android.settings:id/button2",
                    super::CAN_FORCE_STOP,
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

fn app_storage(sys: &System, package: &str) -> (String, Option<MainSwitch>, Vec<Item>) {
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
            info("User data", human_size(data.saturating_sub(cache))),
            info("Cache", human_size(cache)),
            info("Total", human_size(data)),
        ],
    )
}

/// Lower-case letters and digits only, so "wifi" finds "Wi-Fi" and "about" finds "About phone".
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every row reachable from the homepage: (title, the page tag a result opens, breadcrumb). A row
/// that opens a page leads there; any other row leads to the page that holds it.
pub fn index(sys: &System) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    // (page, its tag, breadcrumb of the page)
    let mut queue: Vec<(Page, String, String)> = vec![(Page::Home, String::new(), String::new())];
    let mut seen: Vec<Page> = vec![Page::Home];
    let mut i = 0;
    while i < queue.len() {
        let (page, tag, path) = queue[i].clone();
        i += 1;
        let (page_title, main_switch, items) = content(&page, sys, "");
        let here = if path.is_empty() {
            page_title.clone()
        } else {
            format!("{path} > {page_title}")
        };
        if let Some(sw) = main_switch {
            out.push((sw.text, tag.clone(), here.clone()));
        }
        for item in items {
            let (title, target) = match item {
                Item::Nav { tag: t, title, .. } => {
                    (title, t.strip_prefix("nav:").map(str::to_string))
                }
                Item::Toggle { title, .. }
                | Item::Slider { title, .. }
                | Item::Info { title, .. } => (title, None),
                _ => continue,
            };
            match target
                .as_deref()
                .and_then(|t| Page::from_tag(t).map(|p| (t, p)))
            {
                Some((t, p)) => {
                    out.push((title, t.to_string(), here.clone()));
                    if !seen.contains(&p) {
                        seen.push(p.clone());
                        queue.push((p, t.to_string(), here.clone()));
                    }
                }
                None if !tag.is_empty() => out.push((title, tag.clone(), here.clone())),
                None => {}
            }
        }
    }
    out
}

/// Search results for `query`: rows whose title contains it, letters and digits compared.
fn search(sys: &System, query: &str) -> Vec<Item> {
    let q = fold(query);
    if q.is_empty() {
        return Vec::new();
    }
    let mut seen = Vec::new();
    index(sys)
        .into_iter()
        .filter(|(title, ..)| fold(title).contains(&q))
        .filter(|(title, tag, _)| {
            let key = (title.clone(), tag.clone());
            let fresh = !seen.contains(&key);
            seen.push(key);
            fresh
        })
        .map(|(title, tag, path)| nav(&tag, &title, path.trim_start_matches(" > "), None))
        .collect()
}

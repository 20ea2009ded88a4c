//! What each Settings page shows, as on a Pixel with Android 14: the homepage's seventeen entries,
//! the pages under them, About phone (from the system properties `getprop` reads), and the search
//! index, which is built by walking every page from the homepage so it finds each page and switch.
//!
//! Values are read from the settings provider and the system properties on every frame; nothing is
//! copied into the app.

use super::list::{Action, Item, MainSwitch};

mod apps;
mod connections;
mod device;
mod system;

/// A page: its title, the main switch at its top if it has one, and its items.
type Content = (String, Option<MainSwitch>, Vec<Item>);

fn title(t: &str) -> String {
    t.to_string()
}
use crate::locale::{self, DateStyle};
use crate::system::{Namespace, Stream, System};

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

/// The volume sliders of Settings > Sound & vibration: (slider tag, title's string resource, icon,
/// stream).
pub const VOLUMES: [(&str, &str, &str, Stream); 4] = [
    (
        "volume_music",
        "media_volume_option_title",
        "sound",
        Stream::Music,
    ),
    (
        "volume_call",
        "call_volume_option_title",
        "call",
        Stream::VoiceCall,
    ),
    (
        "volume_ring",
        "ring_volume_option_title",
        "ring",
        Stream::Ring,
    ),
    (
        "volume_alarm",
        "alarm_volume_option_title",
        "alarm",
        Stream::Alarm,
    ),
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

/// Settings' string resource `name` in the phone's language.
fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, super::PACKAGE, name)
}

fn on_off(sys: &System, on: bool) -> &'static str {
    tr(
        sys,
        if on {
            "switch_on_text"
        } else {
            "switch_off_text"
        },
    )
}

fn off(sys: &System) -> &'static str {
    on_off(sys, false)
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

/// A size as Formatter.formatFileSize writes it, the number in the locale's digits and separator.
pub fn human_size(sys: &System, bytes: u64) -> String {
    let n = |v: f64| locale::format_decimal(v, 2, &sys.locale);
    if bytes >= 1 << 30 {
        format!("{} GB", n(bytes as f64 / (1u64 << 30) as f64))
    } else if bytes >= 1 << 20 {
        format!("{} MB", n(bytes as f64 / (1u64 << 20) as f64))
    } else if bytes >= 1024 {
        format!("{} kB", n(bytes as f64 / 1024.0))
    } else {
        format!("{} B", locale::format_integer(bytes as i64, &sys.locale))
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

/// "15% used - 108.65 GB free".
fn storage_line(sys: &System, used: u64) -> String {
    let percent = locale::format(
        &sys.locale,
        super::PACKAGE,
        "battery_header_percent",
        &[&(used * 100 / CAPACITY_BYTES)],
    );
    let free = human_size(sys, CAPACITY_BYTES - used);
    locale::format(
        &sys.locale,
        super::PACKAGE,
        "storage_summary",
        &[&percent, &free],
    )
}

fn storage_used(sys: &System) -> u64 {
    SYSTEM_BYTES + dir_size(sys, "/data") + dir_size(sys, "/sdcard")
}

/// `2024-02-05` → `February 5, 2024` (`2024년 2월 5일`…), as About phone words the security patch.
fn long_date(sys: &System, iso: &str) -> String {
    chrono::NaiveDate::parse_from_str(iso, "%Y-%m-%d")
        .map(|d| locale::format_date(d, &sys.locale, DateStyle::Long))
        .unwrap_or_else(|_| iso.to_string())
}

/// Title, main switch and rows of a page. `query` is the search box's text (Search page only).
pub fn content(page: &Page, sys: &System, query: &str) -> Content {
    match page {
        Page::Home => (String::new(), None, home(sys)),
        Page::Network => connections::network(sys),
        Page::Internet => connections::internet(sys),
        Page::ConnectedDevices => connections::connected_devices(sys),
        Page::ConnectionPreferences => connections::connection_preferences(sys),
        Page::Bluetooth => connections::bluetooth(sys),
        Page::Apps => apps::apps(sys),
        Page::AllApps => apps::all_apps(sys),
        Page::AppInfo(package) => app_info(sys, package),
        Page::AppStorage(package) => app_storage(sys, package),
        Page::Notifications => apps::notifications(sys),
        Page::Battery => device::battery(sys),
        Page::Storage => device::storage(sys),
        Page::Sound => device::sound(sys),
        Page::Display => device::display(sys),
        Page::TextReading => device::text_reading(sys),
        Page::Wallpaper => device::wallpaper(sys),
        Page::Accessibility => device::accessibility(sys),
        Page::Security => system::security(sys),
        Page::Location => system::location(sys),
        Page::Emergency => system::emergency(sys),
        Page::Accounts => system::accounts(sys),
        Page::Wellbeing => system::wellbeing(sys),
        Page::System => system::system_page(sys),
        Page::LanguagesInput => system::languages_input(sys),
        Page::Languages => system::languages(sys),
        Page::AddLanguage => system::add_language(sys),
        Page::DateTime => system::date_time(sys),
        Page::About => system::about(sys),
        Page::AndroidVersion => system::android_version(sys),
        Page::Hardware => system::hardware(sys),
        Page::Search => {
            let mut items = vec![Item::Field {
                tag: "search_field".into(),
                text: query.to_string(),
                hint: tr(sys, "search_menu").into(),
                id: "com.android.settings:id/search_src_text".into(),
            }];
            items.extend(search(sys, query));
            (title(tr(sys, "search_settings")), None, items)
        }
    }
}

fn home(sys: &System) -> Vec<Item> {
    let used = storage_used(sys);
    let location = sys.settings.get_int(Namespace::Secure, "location_mode", 3) != 0;
    vec![
        nav(
            "network",
            tr(sys, "network_dashboard_title"),
            tr(sys, "network_dashboard_summary_mobile"),
            Some("wifi"),
        ),
        nav(
            "connected_devices",
            tr(sys, "connected_devices_dashboard_title"),
            tr(sys, "connected_devices_dashboard_default_summary"),
            Some("devices"),
        ),
        nav(
            "apps",
            tr(sys, "apps_dashboard_title"),
            tr(sys, "app_and_notification_dashboard_summary"),
            Some("apps"),
        ),
        nav(
            "notifications",
            tr(sys, "configure_notification_settings"),
            tr(sys, "notification_dashboard_summary"),
            Some("notifications"),
        ),
        nav(
            "battery",
            tr(sys, "power_usage_summary_title"),
            "100%",
            Some("battery"),
        ),
        nav(
            "storage",
            tr(sys, "storage_settings"),
            storage_line(sys, used),
            Some("storage"),
        ),
        nav(
            "sound",
            tr(sys, "sound_settings"),
            tr(sys, "sound_dashboard_summary"),
            Some("sound"),
        ),
        nav(
            "display",
            tr(sys, "display_settings"),
            tr(sys, "display_dashboard_summary"),
            Some("display"),
        ),
        nav(
            "wallpaper",
            tr(sys, "style_and_wallpaper_settings_title"),
            tr(sys, "style_and_wallpaper_settings_summary"),
            Some("image"),
        ),
        nav(
            "accessibility",
            tr(sys, "accessibility_settings"),
            tr(sys, "accessibility_settings_summary"),
            Some("person"),
        ),
        nav(
            "security",
            tr(sys, "security_settings_title"),
            tr(sys, "security_dashboard_summary"),
            Some("lock"),
        ),
        nav(
            "location",
            tr(sys, "location_settings_title"),
            if location {
                plural(sys, "location_settings_summary_location_on", 0)
            } else {
                off(sys).to_string()
            },
            Some("location"),
        ),
        nav(
            "emergency",
            tr(sys, "emergency_dashboard_title"),
            tr(sys, "emergency_dashboard_summary"),
            Some("flag"),
        ),
        nav(
            "accounts",
            tr(sys, "account_dashboard_title"),
            tr(sys, "account_dashboard_default_summary"),
            Some("account"),
        ),
        nav(
            "wellbeing",
            tr(sys, "digital_wellbeing_title"),
            tr(sys, "digital_wellbeing_summary"),
            Some("bedtime"),
        ),
        nav(
            "system",
            tr(sys, "header_category_system"),
            tr(sys, "system_dashboard_summary"),
            Some("system"),
        ),
        nav(
            "about",
            tr(sys, "about_settings"),
            sys.property("ro.product.model"),
            Some("info"),
        ),
    ]
}

fn timeout_text(sys: &System, ms: i64) -> String {
    let secs = ms / 1000;
    let span = if secs < 60 {
        plural(sys, "duration_seconds", secs)
    } else {
        plural(sys, "duration_minutes", secs / 60)
    };
    locale::format(
        &sys.locale,
        super::PACKAGE,
        "screen_timeout_summary",
        &[&span],
    )
}

/// Settings' `<plurals>` resource `name` for `count`, the count its one argument.
fn plural(sys: &System, name: &str, count: i64) -> String {
    locale::plural(&sys.locale, super::PACKAGE, name, count, &[&count])
}

/// A per-SIM title ("Phone number (SIM slot 1)") for the phone's one SIM.
fn slot(sys: &System, name: &str) -> String {
    locale::format(&sys.locale, super::PACKAGE, name, &[&1])
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
    let label = crate::apps::catalog()
        .iter()
        .find(|a| a.package == package)
        .map(|a| a.label(&sys.locale).to_string())
        .unwrap_or_else(|| package.to_string());
    let used: u64 = data_dirs(package).iter().map(|d| dir_size(sys, d)).sum();
    (
        tr(sys, "application_info_label").into(),
        None,
        vec![
            Item::Entity {
                title: label,
                summary: tr(sys, "installed").into(),
                icon: None,
            },
            Item::Buttons(vec![
                Action::new(
                    "btn:open",
                    tr(sys, "launch_instant_app"),
                    "com.android.settings:id/button1",
                    true,
                ),
                Action::new(
                    "btn:force_stop",
                    tr(sys, "force_stop"),
                    "com.android.settings:id/button2",
                    super::CAN_FORCE_STOP,
                ),
            ]),
            Item::Nav {
                tag: "nav:app_storage".into(),
                title: tr(sys, "storage_settings_for_app").into(),
                summary: locale::format(
                    &sys.locale,
                    super::PACKAGE,
                    "storage_summary_format",
                    &[&human_size(sys, used)],
                ),
                icon: None,
            },
        ],
    )
}

fn app_storage(sys: &System, package: &str) -> (String, Option<MainSwitch>, Vec<Item>) {
    let data: u64 = data_dirs(package).iter().map(|d| dir_size(sys, d)).sum();
    let cache = dir_size(sys, &format!("/data/data/{package}/cache"));
    (
        tr(sys, "storage_settings_for_app").into(),
        None,
        vec![
            Item::Buttons(vec![
                Action::new(
                    "btn:clear_storage",
                    tr(sys, "clear_user_data_text"),
                    "com.android.settings:id/button1",
                    true,
                ),
                Action::new(
                    "btn:clear_cache",
                    tr(sys, "clear_cache_btn_text"),
                    "com.android.settings:id/button2",
                    true,
                ),
            ]),
            Item::Category(tr(sys, "app_storage_space_used").into()),
            info(
                tr(sys, "data_size_label"),
                human_size(sys, data.saturating_sub(cache)),
            ),
            info(tr(sys, "cache_size_label"), human_size(sys, cache)),
            info(tr(sys, "total_size_label"), human_size(sys, data)),
        ],
    )
}

/// Lower-case letters and digits only, so "wifi" finds tr(sys, "wifi_settings") and "about" finds tr(sys, "about_settings").
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

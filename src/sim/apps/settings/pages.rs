//! What each Settings page shows, as on a Pixel with Android 14: the homepage's seventeen entries,
//! the pages under them, About phone (from the system properties `getprop` reads), and the search
//! index, which is built by walking every page from the homepage so it finds each page and switch.
//!
//! Values are read from the settings provider and the system properties on every frame; nothing is
//! copied into the app.

use chrono::Timelike;

use super::list::{Action, Item, MainSwitch};
use crate::sim::locale::{self, DateStyle};
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
pub fn content(page: &Page, sys: &System, query: &str) -> (String, Option<MainSwitch>, Vec<Item>) {
    let title = |t: &str| t.to_string();
    match page {
        Page::Home => (String::new(), None, home(sys)),
        Page::Network => {
            let wifi = flag(sys, Namespace::Global, "wifi_on", 1);
            let airplane = flag(sys, Namespace::Global, "airplane_mode_on", 0);
            let internet = if airplane && !wifi {
                tr(sys, "condition_airplane_title").to_string()
            } else if wifi {
                "AndroidWifi".to_string()
            } else {
                off(sys).to_string()
            };
            (
                title(tr(sys, "network_dashboard_title")),
                None,
                vec![
                    nav(
                        "internet",
                        tr(sys, "provider_internet_settings"),
                        internet,
                        Some("wifi"),
                    ),
                    info(tr(sys, "sim_settings_title"), "T-Mobile"),
                    toggle(
                        "airplane",
                        tr(sys, "airplane_mode"),
                        "",
                        airplane,
                        Some("airplane"),
                    ),
                    info(tr(sys, "tether_settings_title_all"), off(sys)),
                    info(tr(sys, "data_saver_title"), off(sys)),
                    info(tr(sys, "vpn_settings_title"), tr(sys, "vpn_lockdown_none")),
                    info(
                        tr(sys, "select_private_dns_configuration_title"),
                        tr(sys, "private_dns_mode_opportunistic"),
                    ),
                ],
            )
        }
        Page::Internet => {
            let wifi = flag(sys, Namespace::Global, "wifi_on", 1);
            let mut items = vec![toggle(
                "wifi",
                tr(sys, "wifi_settings"),
                "",
                wifi,
                Some("wifi"),
            )];
            if wifi {
                items.push(info("AndroidWifi", tr(sys, "wifi_connected")));
            } else {
                items.push(info(tr(sys, "wifi_empty_list_wifi_off"), ""));
            }
            items.push(info(
                tr(sys, "wifi_configure_settings_preference_title"),
                tr(sys, "wifi_configure_settings_preference_summary_wakeup_on"),
            ));
            (title(tr(sys, "provider_internet_settings")), None, items)
        }
        Page::ConnectedDevices => (
            title(tr(sys, "connected_devices_dashboard_title")),
            None,
            vec![
                info(tr(sys, "bluetooth_pairing_pref_title"), ""),
                nav(
                    "connection_preferences",
                    tr(sys, "connected_device_connections_title"),
                    tr(sys, "connected_devices_dashboard_connections_summary"),
                    Some("devices"),
                ),
            ],
        ),
        Page::ConnectionPreferences => (
            title(tr(sys, "connected_device_connections_title")),
            None,
            vec![
                nav(
                    "bluetooth",
                    tr(sys, "bluetooth_settings_title"),
                    on_off(sys, flag(sys, Namespace::Global, "bluetooth_on", 0)),
                    Some("bluetooth"),
                ),
                info(
                    tr(sys, "wifi_display_settings_title"),
                    tr(sys, "wifi_display_status_not_connected"),
                ),
                info(
                    tr(sys, "print_settings"),
                    plural(sys, "print_settings_summary", 1),
                ),
                info(
                    tr(sys, "android_auto_title"),
                    tr(sys, "android_auto_summary"),
                ),
                info(tr(sys, "nfc_quick_toggle_title"), on_off(sys, true)),
            ],
        ),
        Page::Bluetooth => {
            let on = flag(sys, Namespace::Global, "bluetooth_on", 0);
            let name = sys
                .settings
                .get(Namespace::Global, "device_name")
                .unwrap_or("Pixel")
                .to_string();
            let mut items = vec![info(tr(sys, "bluetooth_device_name"), name)];
            if on {
                items.push(info(tr(sys, "bluetooth_pairing_pref_title"), ""));
            }
            (
                title(tr(sys, "bluetooth_settings_title")),
                Some(MainSwitch {
                    tag: "toggle:bluetooth".into(),
                    text: tr(sys, "bluetooth_main_switch_title").into(),
                    checked: on,
                }),
                items,
            )
        }
        Page::Apps => {
            let n = crate::sim::apps::catalog().len();
            (
                title(tr(sys, "apps_dashboard_title")),
                None,
                vec![
                    Item::Category(tr(sys, "recent_app_category_title").into()),
                    nav(
                        "all_apps",
                        &locale::format(&sys.locale, super::PACKAGE, "see_all_apps_title", &[&n]),
                        "",
                        Some("apps"),
                    ),
                    info(
                        tr(sys, "app_default_dashboard_title"),
                        tr(sys, "default_apps_summary"),
                    ),
                    info(tr(sys, "screen_time_title"), tr(sys, "today")),
                    info(
                        tr(sys, "unused_apps"),
                        plural(sys, "unused_apps_summary", 0),
                    ),
                    info(tr(sys, "app_battery_usage_title"), ""),
                    info(
                        tr(sys, "special_access"),
                        plural(sys, "special_access_summary", 1),
                    ),
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
                    summary: human_size(
                        sys,
                        data_dirs(package).iter().map(|d| dir_size(sys, d)).sum(),
                    ),
                    title: label,
                    icon: None,
                })
                .collect();
            (title(tr(sys, "all_apps")), None, items)
        }
        Page::AppInfo(package) => app_info(sys, package),
        Page::AppStorage(package) => app_storage(sys, package),
        Page::Notifications => {
            let dnd = sys.settings.get_int(Namespace::Global, "zen_mode", 0) != 0;
            (
                title(tr(sys, "configure_notification_settings")),
                None,
                vec![
                    info(
                        tr(sys, "app_notifications_title"),
                        tr(sys, "app_notification_listing_summary_zero"),
                    ),
                    info(
                        tr(sys, "notification_history"),
                        tr(sys, "notification_history_summary"),
                    ),
                    Item::Category(tr(sys, "conversation_notifs_category").into()),
                    info(
                        tr(sys, "conversations_category_title"),
                        tr(sys, "no_conversations"),
                    ),
                    info(
                        tr(sys, "notification_bubbles_title"),
                        tr(sys, "notifications_bubble_setting_on_summary"),
                    ),
                    Item::Category(tr(sys, "privacy_dashboard_title").into()),
                    info(
                        tr(sys, "lock_screen_notifs_title"),
                        tr(sys, "lock_screen_notifs_show_all_summary"),
                    ),
                    Item::Category(tr(sys, "notification_header_general").into()),
                    toggle(
                        "dnd",
                        tr(sys, "zen_mode_settings_title"),
                        "",
                        dnd,
                        Some("notifications"),
                    ),
                ],
            )
        }
        Page::Battery => {
            let saver = flag(sys, Namespace::Global, "low_power", 0);
            let percent = flag(sys, Namespace::System, "status_bar_show_battery_percent", 0);
            (
                title(tr(sys, "power_usage_summary_title")),
                None,
                vec![
                    info(
                        &locale::format(
                            &sys.locale,
                            super::PACKAGE,
                            "battery_header_percent",
                            &[&100],
                        ),
                        tr(sys, "battery_full_charge_last"),
                    ),
                    info(
                        tr(sys, "advanced_battery_preference_title"),
                        tr(sys, "advanced_battery_preference_summary"),
                    ),
                    toggle(
                        "battery_saver",
                        tr(sys, "battery_saver"),
                        "",
                        saver,
                        Some("battery"),
                    ),
                    info(
                        tr(sys, "adaptive_preferences_title"),
                        tr(sys, "adaptive_preferences_summary"),
                    ),
                    toggle(
                        "battery_percentage",
                        tr(sys, "battery_percentage"),
                        tr(sys, "battery_percentage_description"),
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
                title(tr(sys, "storage_settings")),
                None,
                vec![
                    info(
                        &locale::format(
                            &sys.locale,
                            super::PACKAGE,
                            "storage_size_used",
                            &[&human_size(sys, used)],
                        ),
                        storage_line(sys, used),
                    ),
                    info(tr(sys, "storage_apps"), human_size(sys, apps)),
                    info(
                        tr(sys, "storage_images"),
                        human_size(
                            sys,
                            dir_size(sys, "/sdcard/Pictures") + dir_size(sys, "/sdcard/DCIM"),
                        ),
                    ),
                    info(
                        tr(sys, "storage_documents_and_other"),
                        human_size(sys, dir_size(sys, "/sdcard/Download")),
                    ),
                    info(tr(sys, "storage_system"), human_size(sys, SYSTEM_BYTES)),
                    info(tr(sys, "storage_trash"), human_size(sys, 0)),
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
                        title: tr(sys, title).to_string(),
                        value: sys.volume(*stream).clamp(0, max),
                        max,
                        icon: Some(icon),
                    }
                })
                .collect();
            let dnd = sys.settings.get_int(Namespace::Global, "zen_mode", 0) != 0;
            items.push(toggle(
                "dnd",
                tr(sys, "zen_mode_settings_title"),
                "",
                dnd,
                None,
            ));
            items.push(toggle(
                "vibrate_when_ringing",
                tr(sys, "vibrate_when_ringing_title"),
                "",
                flag(sys, Namespace::System, "vibrate_when_ringing", 0),
                None,
            ));
            items.push(info(tr(sys, "ringtone_title"), "The Big Adventure"));
            items.push(info(tr(sys, "notification_ringtone_title"), "Popcorn"));
            items.push(info(tr(sys, "alarm_ringtone_title"), "Fresh start"));
            (title(tr(sys, "sound_settings")), None, items)
        }
        Page::Display => {
            let timeout = sys
                .settings
                .get_int(Namespace::System, "screen_off_timeout", 60_000);
            (
                title(tr(sys, "display_settings")),
                None,
                vec![
                    Item::Category(tr(sys, "brightness_title").into()),
                    Item::Slider {
                        tag: "seek:brightness".into(),
                        title: tr(sys, "brightness").into(),
                        value: brightness(sys),
                        max: 255,
                        icon: Some("display"),
                    },
                    toggle(
                        "adaptive_brightness",
                        tr(sys, "auto_brightness_title"),
                        tr(sys, "auto_brightness_summary"),
                        flag(sys, Namespace::System, "screen_brightness_mode", 0),
                        None,
                    ),
                    Item::Category(tr(sys, "category_name_appearance").into()),
                    toggle(
                        "dark_theme",
                        tr(sys, "dark_ui_mode"),
                        "",
                        sys.dark_mode(),
                        Some("dark_mode"),
                    ),
                    nav(
                        "text_reading",
                        tr(sys, "accessibility_text_reading_options_title"),
                        tr(sys, "text_reading_summary"),
                        None,
                    ),
                    Item::Category(tr(sys, "category_name_display_controls").into()),
                    toggle(
                        "auto_rotate",
                        tr(sys, "accelerometer_title"),
                        "",
                        flag(sys, Namespace::System, "accelerometer_rotation", 0),
                        None,
                    ),
                    info(tr(sys, "screen_timeout"), timeout_text(sys, timeout)),
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
                title(tr(sys, "accessibility_text_reading_options_title")),
                None,
                vec![
                    Item::Slider {
                        tag: "seek:font_size".into(),
                        title: tr(sys, "title_font_size").into(),
                        value: step,
                        max: FONT_SCALES.len() as i32 - 1,
                        icon: None,
                    },
                    info(
                        tr(sys, "screen_zoom_title"),
                        tr(sys, "screen_zoom_short_summary"),
                    ),
                    toggle("bold_text", tr(sys, "force_bold_text"), "", bold, None),
                ],
            )
        }
        Page::Wallpaper => (
            title(tr(sys, "style_and_wallpaper_settings_title")),
            None,
            vec![
                info(
                    tr(sys, "wallpaper_change"),
                    tr(sys, "wallpaper_change_summary"),
                ),
                info(
                    tr(sys, "wallpaper_colors"),
                    tr(sys, "wallpaper_colors_summary"),
                ),
                toggle(
                    "dark_theme",
                    tr(sys, "dark_ui_mode"),
                    "",
                    sys.dark_mode(),
                    Some("dark_mode"),
                ),
                info(tr(sys, "themed_icon_title"), off(sys)),
                info(tr(sys, "grid_title"), "4x5"),
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
                title(tr(sys, "accessibility_settings")),
                None,
                vec![
                    Item::Category(tr(sys, "display_settings").into()),
                    nav(
                        "text_reading",
                        tr(sys, "accessibility_text_reading_options_title"),
                        "",
                        Some("display"),
                    ),
                    info(tr(sys, "accessibility_color_and_motion_title"), ""),
                    toggle(
                        "color_inversion",
                        tr(sys, "accessibility_display_inversion_preference_title"),
                        "",
                        inversion,
                        None,
                    ),
                    Item::Category(tr(sys, "screen_reader_category_title").into()),
                    info("TalkBack", tr(sys, "talkback_summary")),
                    Item::Category(tr(sys, "interaction_control_category_title").into()),
                    info(tr(sys, "accessibility_menu_title"), off(sys)),
                    info(tr(sys, "switch_access_title"), off(sys)),
                ],
            )
        }
        Page::Security => (
            title(tr(sys, "security_settings_title")),
            None,
            vec![
                info(
                    tr(sys, "security_settings_device_unlock"),
                    tr(sys, "unlock_set_unlock_mode_off"),
                ),
                info(
                    tr(sys, "app_security_title"),
                    tr(sys, "app_security_summary"),
                ),
                info(
                    tr(sys, "privacy_dashboard_title"),
                    tr(sys, "privacy_dashboard_summary"),
                ),
                info(
                    tr(sys, "security_advanced_settings"),
                    tr(sys, "security_advanced_settings_summary"),
                ),
            ],
        ),
        Page::Location => {
            let on = sys.settings.get_int(Namespace::Secure, "location_mode", 3) != 0;
            (
                title(tr(sys, "location_settings_title")),
                Some(MainSwitch {
                    tag: "toggle:location".into(),
                    text: tr(sys, "location_settings_primary_switch_title").into(),
                    checked: on,
                }),
                vec![
                    info(
                        tr(sys, "location_category_recent_location_access"),
                        tr(sys, "location_no_recent_accesses"),
                    ),
                    info(
                        tr(sys, "location_app_level_permissions"),
                        locale::format(
                            &sys.locale,
                            super::PACKAGE,
                            "location_app_permission_summary_location_on",
                            &[&0, &9],
                        ),
                    ),
                    info(tr(sys, "location_services_preference_title"), ""),
                ],
            )
        }
        Page::Emergency => (
            title(tr(sys, "emergency_dashboard_title")),
            None,
            vec![
                info(tr(sys, "emergency_gesture_screen_title"), off(sys)),
                info(
                    tr(sys, "emergency_info_title"),
                    tr(sys, "emergency_info_summary"),
                ),
                info(
                    tr(sys, "emergency_contacts_title"),
                    tr(sys, "emergency_contacts_summary"),
                ),
                info(tr(sys, "crisis_alerts_title"), "On"),
                info(tr(sys, "cell_broadcast_settings"), ""),
            ],
        ),
        Page::Accounts => (
            title(tr(sys, "account_dashboard_title")),
            None,
            vec![
                info(
                    tr(sys, "passwords_title"),
                    plural(sys, "autofill_passwords_count", 0),
                ),
                info(tr(sys, "autofill_app"), "Google"),
                Item::Category(tr(sys, "account_for_owner").into()),
                info(tr(sys, "add_account_label"), ""),
            ],
        ),
        Page::Wellbeing => (
            title(tr(sys, "digital_wellbeing_title")),
            None,
            vec![
                info(
                    tr(sys, "screen_time_title"),
                    plural(sys, "screen_time_minutes_today", 0),
                ),
                info(
                    tr(sys, "wellbeing_dashboard"),
                    tr(sys, "wellbeing_app_timers"),
                ),
                info(tr(sys, "bedtime_mode"), off(sys)),
                info(tr(sys, "focus_mode"), off(sys)),
                info(
                    tr(sys, "parental_controls"),
                    tr(sys, "parental_controls_summary"),
                ),
            ],
        ),
        Page::System => (
            title(tr(sys, "header_category_system")),
            None,
            vec![
                nav(
                    "languages_input",
                    tr(sys, "language_settings"),
                    "Gboard",
                    Some("language"),
                ),
                info(tr(sys, "gesture_preference_title"), ""),
                nav(
                    "date_time",
                    tr(sys, "date_and_time"),
                    tr(sys, "zone_utc"),
                    Some("access_time"),
                ),
                info(tr(sys, "backup_settings_title"), off(sys)),
                info(tr(sys, "reset_dashboard_title"), ""),
                info(tr(sys, "user_settings_title"), tr(sys, "users_summary")),
                info(
                    tr(sys, "system_update_settings_list_item_title"),
                    locale::format(
                        &sys.locale,
                        super::PACKAGE,
                        "android_version_summary",
                        &[&sys.property("ro.build.version.release")],
                    ),
                ),
            ],
        ),
        Page::LanguagesInput => (
            title(tr(sys, "language_settings")),
            None,
            vec![
                nav(
                    "languages",
                    tr(sys, "languages_settings"),
                    language_name(&locales(sys)[0]),
                    Some("language"),
                ),
                info(tr(sys, "virtual_keyboard_category"), "Gboard"),
            ],
        ),
        Page::Languages => {
            let mut items: Vec<Item> = locales(sys)
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    info(
                        &format!(
                            "{}. {}",
                            locale::format_integer(i as i64 + 1, &sys.locale),
                            language_name(l)
                        ),
                        "",
                    )
                })
                .collect();
            items.push(nav(
                "add_language",
                tr(sys, "add_a_language"),
                "",
                Some("add"),
            ));
            (title(tr(sys, "languages_settings")), None, items)
        }
        Page::AddLanguage => (
            title(tr(sys, "add_a_language")),
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
                title(tr(sys, "date_and_time")),
                None,
                vec![
                    toggle(
                        "auto_time",
                        tr(sys, "date_time_auto"),
                        "",
                        flag(sys, Namespace::Global, "auto_time", 1),
                        None,
                    ),
                    info(
                        tr(sys, "date_time_set_date_title"),
                        locale::format_date(now.date(), &sys.locale, DateStyle::Long),
                    ),
                    info(
                        tr(sys, "date_time_set_time_title"),
                        locale::format_time(now.hour(), now.minute(), &sys.locale, h24),
                    ),
                    Item::Category(tr(sys, "date_time_set_timezone_title").into()),
                    toggle(
                        "auto_time_zone",
                        tr(sys, "zone_auto_title"),
                        "",
                        flag(sys, Namespace::Global, "auto_time_zone", 1),
                        None,
                    ),
                    info(tr(sys, "date_time_set_timezone_title"), tr(sys, "zone_utc")),
                    Item::Category(tr(sys, "time_format_category_title").into()),
                    toggle(
                        "use_24h",
                        tr(sys, "date_time_24hour"),
                        locale::format_time(13, 0, &sys.locale, false),
                        h24,
                        None,
                    ),
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
                title(tr(sys, "about_settings")),
                None,
                vec![
                    Item::Category(tr(sys, "my_device_info_basic_info_category_title").into()),
                    info(tr(sys, "bluetooth_device_name"), name),
                    info(
                        &slot(sys, "status_number_sim_slot"),
                        tr(sys, "device_info_default"),
                    ),
                    info(tr(sys, "emergency_info_title_about"), ""),
                    info(tr(sys, "legal_information"), ""),
                    Item::Category(tr(sys, "my_device_info_device_details_category_title").into()),
                    info(&slot(sys, "sim_status_title_sim_slot"), "T-Mobile"),
                    nav(
                        "hardware",
                        tr(sys, "model_info"),
                        sys.property("ro.product.model"),
                        None,
                    ),
                    info(&slot(sys, "imei_multi_sim"), "358240051111110"),
                    nav(
                        "android_version",
                        tr(sys, "firmware_version"),
                        sys.property("ro.build.version.release"),
                        None,
                    ),
                    Item::Category(
                        tr(sys, "my_device_info_device_identifiers_category_title").into(),
                    ),
                    info(tr(sys, "wifi_ip_address"), "10.0.2.16"),
                    info(
                        tr(sys, "status_wifi_mac_address"),
                        tr(sys, "status_not_available"),
                    ),
                    info(tr(sys, "status_bt_address"), tr(sys, "status_unavailable")),
                    info(tr(sys, "status_up_time"), up_time(sys)),
                    info(tr(sys, "build_number"), sys.property("ro.build.display.id")),
                ],
            )
        }
        Page::AndroidVersion => (
            title(tr(sys, "firmware_version")),
            None,
            vec![
                info(
                    tr(sys, "firmware_version"),
                    sys.property("ro.build.version.release"),
                ),
                info(
                    tr(sys, "security_patch"),
                    long_date(sys, sys.property("ro.build.version.security_patch")),
                ),
                info(tr(sys, "module_version"), long_date(sys, "2024-02-01")),
                info(
                    tr(sys, "baseband_version"),
                    "g5123b-130914-240205-B-11405587",
                ),
                info(
                    tr(sys, "kernel_version"),
                    "5.10.189-android13-4-00012-g1d82b24c9c8c-ab11183421",
                ),
                info(tr(sys, "build_number"), sys.property("ro.build.display.id")),
            ],
        ),
        Page::Hardware => (
            title(tr(sys, "hardware_info")),
            None,
            vec![
                info(tr(sys, "model_info"), sys.property("ro.product.model")),
                info(tr(sys, "status_serial_number"), sys.property("ro.serialno")),
                info(tr(sys, "hardware_revision"), "MP1.0"),
            ],
        ),
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
    let label = crate::sim::apps::catalog()
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

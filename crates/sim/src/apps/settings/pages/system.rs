//! Settings pages: Security, Location, Emergency, Accounts, Digital Wellbeing, System and the pages
//! under it (languages, date & time), About phone and its Android version and hardware pages.

use chrono::Timelike;

use super::super::list::{Item, MainSwitch};
use super::{
    flag, info, language_name, locales, long_date, nav, off, plural, slot, title, toggle, tr,
    up_time, Content, LANGUAGES,
};
use crate::locale::{self, DateStyle};
use crate::system::{Namespace, System};

pub(super) fn security(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn location(sys: &System) -> Content {
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
                    crate::apps::settings::PACKAGE,
                    "location_app_permission_summary_location_on",
                    &[&0, &9],
                ),
            ),
            info(tr(sys, "location_services_preference_title"), ""),
        ],
    )
}

pub(super) fn emergency(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn accounts(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn wellbeing(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn system_page(sys: &System) -> Content {
    (
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
                    crate::apps::settings::PACKAGE,
                    "android_version_summary",
                    &[&sys.property("ro.build.version.release")],
                ),
            ),
        ],
    )
}

pub(super) fn languages_input(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn languages(sys: &System) -> Content {
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

pub(super) fn add_language(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn date_time(sys: &System) -> Content {
    let now = sys.clock.now();
    let h24 = crate::apps::widgets::uses_24h(sys);
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

pub(super) fn about(sys: &System) -> Content {
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
            Item::Category(tr(sys, "my_device_info_device_identifiers_category_title").into()),
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

pub(super) fn android_version(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn hardware(sys: &System) -> Content {
    (
        title(tr(sys, "hardware_info")),
        None,
        vec![
            info(tr(sys, "model_info"), sys.property("ro.product.model")),
            info(tr(sys, "status_serial_number"), sys.property("ro.serialno")),
            info(tr(sys, "hardware_revision"), "MP1.0"),
        ],
    )
}

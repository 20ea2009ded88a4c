//! Settings pages: Network & internet, Internet, Connected devices, Connection preferences and
//! Bluetooth.

use super::super::list::MainSwitch;
use super::{flag, info, nav, off, on_off, plural, title, toggle, tr, Content};
use crate::system::{Namespace, System};

pub(super) fn network(sys: &System) -> Content {
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

pub(super) fn internet(sys: &System) -> Content {
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

pub(super) fn connected_devices(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn connection_preferences(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn bluetooth(sys: &System) -> Content {
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

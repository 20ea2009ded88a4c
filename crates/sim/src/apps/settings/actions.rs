//! The `android.settings.*` intent actions Settings' manifest routes to its pages (the
//! `Settings$…Activity` shortcuts in AOSP's `packages/apps/Settings/AndroidManifest.xml`), for
//! the pages this phone has. Outside code opens a page directly with them (`am start -a
//! android.settings.DISPLAY_SETTINGS`) instead of tapping through the homepage.

use super::pages::Page;

/// Action, the page it opens, and the activity class Android 14 reports for it.
const ACTIONS: &[(&str, Page, &str)] = &[
    (
        "android.settings.WIRELESS_SETTINGS",
        Page::Network,
        "Settings$NetworkDashboardActivity",
    ),
    // Android 12+ routes Wi-Fi to the combined Internet page (priority 1 filter).
    (
        "android.settings.WIFI_SETTINGS",
        Page::Internet,
        "Settings$NetworkProviderSettingsActivity",
    ),
    (
        "android.settings.BLUETOOTH_SETTINGS",
        Page::Bluetooth,
        "Settings$BluetoothDashboardActivity",
    ),
    (
        "android.settings.APPLICATION_SETTINGS",
        Page::AllApps,
        "Settings$ManageApplicationsActivity",
    ),
    (
        "android.settings.MANAGE_APPLICATIONS_SETTINGS",
        Page::AllApps,
        "Settings$ManageApplicationsActivity",
    ),
    (
        "android.settings.MANAGE_ALL_APPLICATIONS_SETTINGS",
        Page::AllApps,
        "Settings$ManageApplicationsActivity",
    ),
    (
        "android.settings.NOTIFICATION_SETTINGS",
        Page::Notifications,
        "Settings$ConfigureNotificationSettingsActivity",
    ),
    (
        "android.settings.INTERNAL_STORAGE_SETTINGS",
        Page::Storage,
        "Settings$StorageDashboardActivity",
    ),
    (
        "android.settings.SOUND_SETTINGS",
        Page::Sound,
        "Settings$SoundSettingsActivity",
    ),
    (
        "android.settings.DISPLAY_SETTINGS",
        Page::Display,
        "Settings$DisplaySettingsActivity",
    ),
    (
        "android.settings.ACCESSIBILITY_SETTINGS",
        Page::Accessibility,
        "Settings$AccessibilitySettingsActivity",
    ),
    (
        "android.settings.LOCATION_SOURCE_SETTINGS",
        Page::Location,
        "Settings$LocationSettingsActivity",
    ),
    (
        "android.settings.LOCALE_SETTINGS",
        Page::Languages,
        "Settings$LocalePickerActivity",
    ),
    (
        "android.settings.DATE_SETTINGS",
        Page::DateTime,
        "Settings$DateTimeSettingsActivity",
    ),
    (
        "android.settings.DEVICE_INFO_SETTINGS",
        Page::About,
        "Settings$MyDeviceInfoActivity",
    ),
];

/// The page an action opens and its activity's fully qualified class.
pub fn page_for(action: &str) -> Option<(Page, String)> {
    ACTIONS
        .iter()
        .find(|(a, ..)| *a == action)
        .map(|(_, page, class)| (page.clone(), format!("{}.{class}", super::PACKAGE)))
}

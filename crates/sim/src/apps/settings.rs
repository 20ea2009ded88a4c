//! Settings (com.android.settings) as on a Pixel with Android 14: the homepage's seventeen entries,
//! the pages benchmark tasks visit (Network & internet / Internet with Wi-Fi and airplane mode,
//! Connected devices / Bluetooth, Apps / app info with Force stop and Clear storage, Display with
//! brightness, adaptive brightness, dark theme and Display size and text, Sound & vibration
//! volumes, System / Languages / Add a language, Date & time), About phone with the model, Android
//! version and build number `getprop` reports, and a search over every page and switch. What each
//! page shows is in [`pages`]; this file is the page stack, dialogs and what taps do.
//!
//! Every switch and slider reads its value from the settings provider on each frame (so
//! `settings put` from the shell shows up at once) and writes the key Android stores it under,
//! logging the lines real Android writes (`PhoneGlobals` airplane, `WifiService` setWifiEnabled,
//! `DisplayPowerController` brightness, `vol.Events` stream levels, `SettingsProvider` change
//! notifications, `SettingsActivity` fragment switches).

mod actions;
mod list;
mod pages;

use list::{Dialog, PageView};
use pages::{data_dirs, flag, locales, Page, FONT_SCALES, VOLUMES};

use crate::app::{App, AppInfo, Intent, UiEvent};
use crate::locale;
use crate::system::{pid, Namespace, Request, System};
use crate::view::View;

pub const PACKAGE: &str = "com.android.settings";
const ACTIVITY: &str = "com.android.settings.Settings";
const SUB_SETTINGS: &str = "com.android.settings.SubSettings";
const LOCALE_PICKER: &str = "com.android.settings.localepicker.LocalePickerWithRegionActivity";
const SEARCH_ACTIVITY: &str = "com.android.settings.search.SearchActivity";

/// The Settings process's id in its own log lines (the framework's other processes are in
/// [`pid`]).
const PID_SETTINGS: u32 = 3120;

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |_| Box::new(Screen::default()),
        install: |_| {},
        on_home_screen: true,
    }
}

/// What a confirmed dialog does.
#[derive(Debug, Clone, PartialEq)]
enum Pending {
    ForceStop(String),
    ClearStorage(String),
}

#[derive(Clone, Default)]
struct Screen {
    /// Pages below the current one; empty on the homepage.
    back_stack: Vec<Page>,
    page: Option<Page>,
    dialog: Option<(Dialog, Pending)>,
    /// What is typed in the search page's box.
    query: String,
    /// The `Settings$…Activity` class when an `android.settings.*` intent opened the page at the
    /// bottom of the back stack: that activity is on screen there, and Back from it finishes it
    /// instead of showing the homepage, as the shortcut activities have no homepage under them.
    shortcut: Option<String>,
}

impl Screen {
    fn current(&self) -> Page {
        self.page.clone().unwrap_or(Page::Home)
    }

    /// Starts the page an `android.settings.*` action names as a fresh shortcut activity;
    /// `android.settings.SETTINGS` is the homepage itself.
    fn open_action(&mut self, action: &str, sys: &mut System) {
        if action == "android.settings.SETTINGS" {
            *self = Screen::default();
            return;
        }
        let Some((page, class)) = actions::page_for(action) else {
            return;
        };
        sys.log(
            PID_SETTINGS,
            'D',
            "SettingsActivity",
            format!("Switching to fragment {}", page.fragment()),
        );
        sys.request(Request::ResetScroll {
            tag: page.scroll_tag(),
        });
        *self = Screen {
            page: Some(page),
            shortcut: Some(class),
            ..Screen::default()
        };
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
        if self.back_stack.is_empty() && self.shortcut.is_some() {
            return false;
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
        let (title, main_switch, items) = pages::content(&page, sys, &self.query);
        let tr = |name| locale::string(&sys.locale, PACKAGE, name).to_string();
        PageView {
            title,
            main_switch,
            items,
            scroll_tag: page.scroll_tag(),
            home_title: tr("settings_label"),
            search_hint: tr("search_menu"),
            navigate_up: locale::string(&sys.locale, "android", "action_bar_up_description").into(),
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
            "adaptive_brightness" => flip(sys, Namespace::System, "screen_brightness_mode", 0),
            "dark_theme" => {
                let dark = !sys.dark_mode();
                sys.set_dark_mode(dark);
                // DarkUIPreferenceController records that the dark theme explanation was seen.
                sys.put_setting(Namespace::Secure, "dark_mode_dialog_seen", "1");
            }
            "vibrate_when_ringing" => flip(sys, Namespace::System, "vibrate_when_ringing", 0),
            "dnd" => {
                let on = sys.settings.get_int(Namespace::Global, "zen_mode", 0) == 0;
                // ZEN_MODE_IMPORTANT_INTERRUPTIONS (1) is what the Do Not Disturb switch turns on.
                sys.put_setting(Namespace::Global, "zen_mode", if on { "1" } else { "0" });
            }
            "battery_saver" => flip(sys, Namespace::Global, "low_power", 0),
            "battery_percentage" => {
                flip(sys, Namespace::System, "status_bar_show_battery_percent", 0)
            }
            "auto_rotate" => flip(sys, Namespace::System, "accelerometer_rotation", 0),
            "color_inversion" => flip(
                sys,
                Namespace::Secure,
                "accessibility_display_inversion_enabled",
                0,
            ),
            "bold_text" => {
                let bold = sys
                    .settings
                    .get_int(Namespace::Secure, "font_weight_adjustment", 0)
                    > 0;
                // FontStyle.FONT_WEIGHT_BOLD - FONT_WEIGHT_NORMAL = 300.
                sys.put_setting(
                    Namespace::Secure,
                    "font_weight_adjustment",
                    if bold { "0" } else { "300" },
                );
            }
            "location" => {
                let on = sys.settings.get_int(Namespace::Secure, "location_mode", 3) != 0;
                // LOCATION_MODE_ON (3) / LOCATION_MODE_OFF (0).
                sys.put_setting(
                    Namespace::Secure,
                    "location_mode",
                    if on { "0" } else { "3" },
                );
            }
            "auto_time" => flip(sys, Namespace::Global, "auto_time", 1),
            "auto_time_zone" => flip(sys, Namespace::Global, "auto_time_zone", 1),
            "use_24h" => {
                let h24 = crate::apps::widgets::uses_24h(sys);
                sys.put_setting(
                    Namespace::System,
                    "time_12_24",
                    if h24 { "12" } else { "24" },
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
        if key == "font_size" {
            let scale = FONT_SCALES[value.clamp(0, FONT_SCALES.len() as i32 - 1) as usize];
            sys.put_setting(
                Namespace::System,
                "font_scale",
                crate::defaults::format_float(scale),
            );
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
                    Dialog::new(sys, "force_stop_dlg_title", "force_stop_dlg_text"),
                    Pending::ForceStop(package),
                ))
            }
            "clear_storage" => {
                self.dialog = Some((
                    Dialog::new(sys, "clear_data_dlg_title", "clear_data_dlg_text"),
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
                sys.cancel_package_notifications(&package);
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

/// Flips a 0/1 setting as a switch preference does.
fn flip(sys: &mut System, ns: Namespace, key: &str, default: i64) {
    let on = !flag(sys, ns, key, default);
    sys.put_setting(ns, key, (on as i32).to_string());
}

impl App for Screen {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn new_intent(&mut self, intent: &Intent, sys: &mut System) {
        if let Some(action) = intent.action.as_deref() {
            self.open_action(action, sys);
        }
    }

    fn activity(&self) -> String {
        if let Some(class) = self
            .shortcut
            .as_ref()
            .filter(|_| self.back_stack.is_empty())
        {
            return class.clone();
        }
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

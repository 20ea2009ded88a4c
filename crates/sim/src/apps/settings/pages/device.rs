//! Settings pages: Battery, Storage, Sound & vibration, Display, Display size and text, Wallpaper
//! and Accessibility.

use super::super::list::Item;
use super::{
    brightness, dir_size, flag, font_step, human_size, info, nav, off, storage_line, storage_used,
    timeout_text, title, toggle, tr, Content, FONT_SCALES, SYSTEM_BYTES, VOLUMES,
};
use crate::locale;
use crate::system::{Namespace, System};

pub(super) fn battery(sys: &System) -> Content {
    let saver = flag(sys, Namespace::Global, "low_power", 0);
    let percent = flag(sys, Namespace::System, "status_bar_show_battery_percent", 0);
    (
        title(tr(sys, "power_usage_summary_title")),
        None,
        vec![
            info(
                &locale::format(
                    &sys.locale,
                    crate::apps::settings::PACKAGE,
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

pub(super) fn storage(sys: &System) -> Content {
    let used = storage_used(sys);
    let apps: u64 = dir_size(sys, "/data/data") + dir_size(sys, "/data/user_de");
    (
        title(tr(sys, "storage_settings")),
        None,
        vec![
            info(
                &locale::format(
                    &sys.locale,
                    crate::apps::settings::PACKAGE,
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

pub(super) fn sound(sys: &System) -> Content {
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

pub(super) fn display(sys: &System) -> Content {
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

pub(super) fn text_reading(sys: &System) -> Content {
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

pub(super) fn wallpaper(sys: &System) -> Content {
    (
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
    )
}

pub(super) fn accessibility(sys: &System) -> Content {
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

//! Settings pages: Apps, All apps and Notifications (an app's own info and storage pages stay
//! beside the search in pages.rs).

use super::super::list::Item;
use super::{data_dirs, dir_size, human_size, info, nav, plural, title, toggle, tr, Content};
use crate::locale;
use crate::system::{Namespace, System};

pub(super) fn apps(sys: &System) -> Content {
    let n = crate::apps::catalog().len();
    (
        title(tr(sys, "apps_dashboard_title")),
        None,
        vec![
            Item::Category(tr(sys, "recent_app_category_title").into()),
            nav(
                "all_apps",
                &locale::format(
                    &sys.locale,
                    crate::apps::settings::PACKAGE,
                    "see_all_apps_title",
                    &[&n],
                ),
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

pub(super) fn all_apps(sys: &System) -> Content {
    let mut apps: Vec<(String, &'static str)> = crate::apps::catalog()
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

pub(super) fn notifications(sys: &System) -> Content {
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

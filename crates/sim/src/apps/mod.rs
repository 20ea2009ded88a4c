//! The apps installed on the embedded phone. Package names, activities and resource ids match the
//! real apps so task files run unchanged on a real device.

use super::app::AppInfo;

pub mod audio_recorder;
pub mod broccoli;
pub mod browser;
pub mod calculator;
pub mod calendar;
pub mod camera;
pub mod clipper;
pub mod clock;
pub mod communication;
pub mod contacts;
pub mod dialer;
pub mod draw;
pub mod expense;
pub mod files;
pub mod folder_picker;
pub mod gallery;
pub mod joplin;
pub mod launcher;
pub mod markor;
pub mod messages;
pub mod opentracks;
pub mod osmand;
pub mod pictures;
pub mod records;
pub mod retro;
pub mod role_request;
pub mod settings;
pub mod simple_calendar;
pub mod simple_sms;
pub mod storage;
pub mod tasks;
pub mod texting;
pub mod vlc;
pub mod widgets;

/// The category an app's main activity declares beside `MAIN`: the home app's is `HOME`, so it is
/// no launchable app (`resolve-activity -c LAUNCHER` and the app lists built on it skip it), while
/// every other app's is `LAUNCHER`.
pub fn main_category(package: &str) -> &'static str {
    if package == launcher::PACKAGE {
        "android.intent.category.HOME"
    } else {
        "android.intent.category.LAUNCHER"
    }
}

/// The activity a launcher entry that is an `<activity-alias>` runs (Camera2's CameraLauncher runs
/// CameraActivity); `None` for an entry that is itself the activity. The activity manager names
/// the target (ActivityRecord, a task's `realActivity`) and the package manager prints it as
/// `targetActivity`.
pub fn alias_target(package: &str, activity: &str) -> Option<&'static str> {
    match (package, activity) {
        (camera::PACKAGE, camera::LAUNCH_ACTIVITY) => Some(camera::ACTIVITY),
        (simple_sms::PACKAGE, simple_sms::LAUNCH_ACTIVITY) => Some(simple_sms::SPLASH_ACTIVITY),
        (simple_calendar::PACKAGE, simple_calendar::LAUNCH_ACTIVITY) => {
            Some(simple_calendar::SPLASH_ACTIVITY)
        }
        _ => None,
    }
}

/// Whether `am start -n` may name `class` of the app: its launcher entry, or another exported
/// activity that shows the same first screen (the Simple Mobile Tools apps' MainActivity, which
/// AndroidWorld starts by name while the launcher entry is an alias of their SplashActivity).
pub fn starts_by_name(info: &AppInfo, class: &str) -> bool {
    info.launch_activity == class
        || (info.package == simple_sms::PACKAGE && class == simple_sms::MAIN_ACTIVITY)
        || (info.package == simple_calendar::PACKAGE && class == simple_calendar::MAIN_ACTIVITY)
        || (info.package == vlc::PACKAGE && class == vlc::MAIN_ACTIVITY)
        || (info.package == audio_recorder::PACKAGE && class == audio_recorder::MAIN_ACTIVITY)
}

/// Every installed app, in the order the package manager lists them.
pub fn catalog() -> Vec<AppInfo> {
    vec![
        launcher::info(),
        settings::info(),
        clock::info(),
        calculator::info(),
        dialer::info(),
        contacts::info(),
        messages::info(),
        calendar::info(),
        browser::info(),
        camera::info(),
        // Preinstalled in the drawer: DocumentsUI's Files.
        files::info(),
        // Sideloaded (AndroidWorld's apps): in the app drawer only, as on its AVD.
        simple_sms::info(),
        simple_calendar::info(),
        clipper::info(),
        expense::info(),
        broccoli::info(),
        tasks::info(),
        markor::info(),
        joplin::info(),
        opentracks::info(),
        gallery::info(),
        draw::info(),
        retro::info(),
        vlc::info(),
        audio_recorder::info(),
        osmand::info(),
    ]
}

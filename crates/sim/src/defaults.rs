//! What a freshly flashed phone holds before anyone touches it: settings defaults and system properties.

use super::phone::SimConfig;
use super::system::{Namespace, Settings, Stream};

/// Android 14 defaults for the settings benchmarks and agents read.
pub fn settings(config: &SimConfig) -> Settings {
    let mut s = Settings::default();
    let global: &[(&str, &str)] = &[
        ("adb_enabled", "1"),
        ("airplane_mode_on", "0"),
        ("airplane_mode_radios", "cell,bluetooth,uwb,wifi,wimax"),
        ("animator_duration_scale", "1.0"),
        ("auto_time", "1"),
        ("auto_time_zone", "1"),
        ("bluetooth_on", "1"),
        ("boot_count", "1"),
        ("data_roaming", "0"),
        ("development_settings_enabled", "0"),
        ("device_name", config.profile.model),
        ("device_provisioned", "1"),
        // SettingsProvider's DatabaseHelper loads it from `def_heads_up_enabled` (1).
        ("heads_up_notifications_enabled", "1"),
        ("mobile_data", "1"),
        ("stay_on_while_plugged_in", "0"),
        ("transition_animation_scale", "1.0"),
        ("usb_mass_storage_enabled", "1"),
        ("wifi_on", "1"),
        ("wifi_sleep_policy", "2"),
        ("window_animation_scale", "1.0"),
        ("zen_mode", "0"),
    ];
    for (k, v) in global {
        s.put(Namespace::Global, k, *v);
    }
    let secure: &[(&str, &str)] = &[
        ("android_id", "5f2b1c9a7e3d4b60"),
        ("accessibility_enabled", "0"),
        ("default_input_method", "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"),
        ("enabled_input_methods", "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME:com.android.adbkeyboard/.AdbIME"),
        ("location_mode", "3"),
        ("navigation_mode", "0"),
        ("screensaver_enabled", "0"),
        ("show_ime_with_hard_keyboard", "1"),
        ("ui_night_mode", if config.dark_mode { "2" } else { "1" }),
        ("user_setup_complete", "1"),
    ];
    for (k, v) in secure {
        s.put(Namespace::Secure, k, *v);
    }
    let font_scale = format_float(config.font_scale);
    let system: Vec<(&str, String)> = vec![
        ("accelerometer_rotation", "0".into()),
        ("dtmf_tone", "1".into()),
        ("font_scale", font_scale),
        ("haptic_feedback_enabled", "1".into()),
        ("screen_brightness", "102".into()),
        ("screen_brightness_mode", "1".into()),
        ("screen_off_timeout", "60000".into()),
        ("sound_effects_enabled", "1".into()),
        ("user_rotation", "0".into()),
        ("vibrate_when_ringing", "0".into()),
    ];
    for (k, v) in system {
        s.put(Namespace::System, k, v);
    }
    for stream in Stream::ALL {
        s.put(
            Namespace::System,
            stream.setting(),
            stream.default_index().to_string(),
        );
    }
    s
}

/// Floats as Android's settings store them (`1.0`, `1.15`).
pub fn format_float(value: f32) -> String {
    let s = format!("{value}");
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

/// System properties `getprop` reports at boot, in key order. The build is `userdebug`, as the
/// emulator images benchmarks run on are: `adb root` works (AndroidWorld roots before every task).
pub fn properties(config: &SimConfig, serial: &str) -> Vec<(String, String)> {
    let p = config.profile;
    let locale = config.locale.replace('_', "-");
    let device = p.name.to_string();
    let mut props: Vec<(String, String)> = vec![
        ("dalvik.vm.heapsize".into(), "512m".into()),
        ("gsm.sim.operator.alpha".into(), "T-Mobile".into()),
        ("init.svc.adbd".into(), "running".into()),
        ("persist.sys.locale".into(), locale),
        ("persist.sys.timezone".into(), "UTC".into()),
        ("ro.board.platform".into(), "gs101".into()),
        ("ro.boot.serialno".into(), serial.into()),
        (
            "ro.build.characteristics".into(),
            if p.width > p.height {
                "tablet".into()
            } else {
                "default".into()
            },
        ),
        ("ro.build.display.id".into(), "UQ1A.240205.004".into()),
        (
            "ro.build.fingerprint".into(),
            format!("google/{device}/{device}:14/UQ1A.240205.004/11269751:userdebug/dev-keys"),
        ),
        ("ro.build.id".into(), "UQ1A.240205.004".into()),
        ("ro.build.tags".into(), "dev-keys".into()),
        ("ro.build.type".into(), "userdebug".into()),
        ("ro.build.version.release".into(), "14".into()),
        ("ro.build.version.sdk".into(), "34".into()),
        (
            "ro.build.version.security_patch".into(),
            "2024-02-05".into(),
        ),
        ("ro.debuggable".into(), "1".into()),
        ("ro.hardware".into(), device.clone()),
        ("ro.product.brand".into(), "google".into()),
        ("ro.product.cpu.abi".into(), "arm64-v8a".into()),
        ("ro.product.device".into(), device.clone()),
        ("ro.product.manufacturer".into(), "Google".into()),
        ("ro.product.model".into(), p.model.into()),
        ("ro.product.name".into(), device),
        ("ro.sf.lcd_density".into(), p.density.to_string()),
        ("ro.serialno".into(), serial.into()),
        ("sys.boot_completed".into(), "1".into()),
    ];
    props.sort();
    props
}

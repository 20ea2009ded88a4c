//! Packages: `pm`/`cmd package` (list, path, clear, dump, features, resolve-activity,
//! query-activities), `dumpsys package PKG`, and app ops (`appops`/`cmd appops`).

use crate::apps;
use crate::framework::Framework;
use crate::keyboard;
use droidmcp_device::ShellOutput;

use super::intent::{matching_apps, parse_intent, Intent};

/// Pixel 6 / Android 14 system features, as `pm list features` prints them (sorted by name).
const FEATURES: &[&str] = &[
    "reqGlEsVersion=0x30002",
    "android.hardware.audio.low_latency",
    "android.hardware.audio.output",
    "android.hardware.biometrics.face",
    "android.hardware.bluetooth",
    "android.hardware.bluetooth_le",
    "android.hardware.camera",
    "android.hardware.camera.any",
    "android.hardware.camera.autofocus",
    "android.hardware.camera.flash",
    "android.hardware.camera.front",
    "android.hardware.fingerprint",
    "android.hardware.location",
    "android.hardware.location.gps",
    "android.hardware.location.network",
    "android.hardware.microphone",
    "android.hardware.nfc",
    "android.hardware.ram.normal",
    "android.hardware.screen.landscape",
    "android.hardware.screen.portrait",
    "android.hardware.sensor.accelerometer",
    "android.hardware.sensor.compass",
    "android.hardware.sensor.gyroscope",
    "android.hardware.sensor.light",
    "android.hardware.sensor.proximity",
    "android.hardware.telephony",
    "android.hardware.telephony.gsm",
    "android.hardware.touchscreen",
    "android.hardware.touchscreen.multitouch",
    "android.hardware.touchscreen.multitouch.distinct",
    "android.hardware.touchscreen.multitouch.jazzhand",
    "android.hardware.usb.accessory",
    "android.hardware.usb.host",
    "android.hardware.wifi",
    "android.hardware.wifi.direct",
    "android.software.activities_on_secondary_displays",
    "android.software.app_widgets",
    "android.software.autofill",
    "android.software.backup",
    "android.software.companion_device_setup",
    "android.software.cts",
    "android.software.device_admin",
    "android.software.home_screen",
    "android.software.input_methods",
    "android.software.live_wallpaper",
    "android.software.managed_users",
    "android.software.midi",
    "android.software.picture_in_picture",
    "android.software.print",
    "android.software.voice_recognizers",
    "android.software.webview",
];

pub const SYSTEM_PACKAGES: [(&str, &str, bool); 10] = [
    ("android", "/system/framework/framework-res.apk", false),
    (
        "com.android.shell",
        "/system/priv-app/Shell/Shell.apk",
        false,
    ),
    (
        "com.android.systemui",
        "/system_ext/priv-app/SystemUIGoogle/SystemUIGoogle.apk",
        false,
    ),
    (
        "com.android.providers.settings",
        "/system/priv-app/SettingsProvider/SettingsProvider.apk",
        false,
    ),
    (
        "com.android.providers.telephony",
        "/system/priv-app/TelephonyProvider/TelephonyProvider.apk",
        false,
    ),
    (
        "com.android.providers.contacts",
        "/system/priv-app/ContactsProvider/ContactsProvider.apk",
        false,
    ),
    (
        "com.android.providers.calendar",
        "/system/priv-app/CalendarProvider/CalendarProvider.apk",
        false,
    ),
    (
        keyboard::PACKAGE,
        "/product/app/LatinIMEGooglePrebuilt/LatinIMEGooglePrebuilt.apk",
        false,
    ),
    (
        "com.android.adbkeyboard",
        "/data/app/~~Q2FkYmtleWJvYXJkAA==/com.android.adbkeyboard-1/base.apk",
        true,
    ),
    // android_env's accessibility forwarder, installed by AndroidWorld's AVD setup (`sim::a11y`).
    (
        crate::a11y::PACKAGE,
        "/data/app/~~YTExeWZvcndhcmRlcgA=/com.google.androidenv.accessibilityforwarder-1/base.apk",
        true,
    ),
];

fn apk_path(package: &str) -> String {
    let name: String = package.rsplit('.').next().unwrap_or(package).to_string();
    let mut cap = name.chars();
    let name = match cap.next() {
        Some(c) => c.to_uppercase().collect::<String>() + cap.as_str(),
        None => name,
    };
    format!("/product/app/{name}/{name}.apk")
}

/// Every installed package: (name, apk path, third-party).
fn packages(fw: &Framework) -> Vec<(String, String, bool)> {
    let mut all: Vec<(String, String, bool)> = fw
        .catalog
        .iter()
        .map(|a| (a.package.to_string(), apk_path(a.package), false))
        .collect();
    all.extend(
        SYSTEM_PACKAGES
            .iter()
            .map(|(p, path, third)| (p.to_string(), path.to_string(), *third)),
    );
    all
}

/// Whether `package` is installed (an app of the catalog or a system package).
pub fn installed(fw: &Framework, package: &str) -> bool {
    packages(fw).iter().any(|(p, ..)| p == package)
}

fn ok_empty() -> ShellOutput {
    ShellOutput::ok(Vec::new())
}

pub fn pm(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let sub = args.first().map(String::as_str).unwrap_or("");
    let rest = args.get(1..).unwrap_or(&[]);
    match sub {
        "list" if rest.first().map(String::as_str) == Some("packages") => {
            let opts: Vec<&str> = rest[1..].iter().map(String::as_str).filter(|a| a.starts_with('-')).collect();
            let filter = rest[1..].iter().find(|a| !a.starts_with('-')).cloned().unwrap_or_default();
            let with_path = opts.iter().any(|o| o.contains('f'));
            let third = opts.iter().any(|o| o.contains('3'));
            let system = opts.iter().any(|o| o.contains('s'));
            let with_uid = opts.iter().any(|o| o.contains('U'));
            let mut s = String::new();
            for (i, (p, path, is_third)) in packages(fw).into_iter().enumerate() {
                if (third && !is_third) || (system && is_third) || !p.contains(&filter) {
                    continue;
                }
                let path = if with_path { format!("{path}=") } else { String::new() };
                let uid = if with_uid { format!(" uid:{}", 10100 + i) } else { String::new() };
                s.push_str(&format!("package:{path}{p}{uid}\n"));
            }
            ShellOutput::ok(s)
        }
        "list" if rest.first().map(String::as_str) == Some("features") => {
            let mut s = String::new();
            for f in FEATURES {
                s.push_str(&format!("feature:{f}\n"));
            }
            ShellOutput::ok(s)
        }
        "list" => ShellOutput::fail(format!("Error: unknown list type '{}'\n", rest.first().map(String::as_str).unwrap_or("")), 255),
        "path" => {
            let Some(p) = rest.iter().find(|a| !a.starts_with('-')) else {
                return ShellOutput::fail("Error: no package specified\n", 255);
            };
            match packages(fw).into_iter().find(|(name, _, _)| name == p) {
                Some((_, path, _)) => ShellOutput::ok(format!("package:{path}\n")),
                None => ShellOutput { exit_code: 1, ..ShellOutput::default() },
            }
        }
        "clear" => {
            let Some(p) = rest.iter().find(|a| !a.starts_with('-')).cloned() else {
                return ShellOutput::fail("Error: no package specified\n", 255);
            };
            // A system package without an app object (the contacts and telephony providers) has
            // only its data to lose: `pm clear com.android.providers.contacts` empties the contacts
            // and the call log, which the provider recreates empty on its next use.
            let install = fw.app_info(&p).map(|a| a.install);
            if install.is_none() && !installed(fw, &p) {
                return ShellOutput::fail(
                    format!("Exception occurred while executing 'clear':\njava.lang.IllegalArgumentException: Unknown package: {p}\n"),
                    255,
                );
            }
            fw.force_stop_package(&p);
            // The app's external files (`Android/data/<package>` on shared storage) go too, as
            // `pm clear` deletes them on Android.
            for dir in [format!("/data/data/{p}"), format!("/data/user/0/{p}"), format!("/data/user_de/0/{p}"), format!("/sdcard/Android/data/{p}")] {
                if let Some(h) = fw.sys.host_path(&dir) {
                    let _ = std::fs::remove_dir_all(h);
                }
            }
            if let Some(install) = install {
                install(&mut fw.sys);
            }
            fw.sys.requests.clear();
            ShellOutput::ok("Success\n")
        }
        "grant" | "revoke" | "enable" | "disable-user" | "set-home-activity" => ok_empty(),
        "dump" => match rest.iter().find(|a| !a.starts_with('-')) {
            Some(p) => ShellOutput::ok(dump_package(fw, p)),
            None => ShellOutput::fail("Error: no package specified\n", 255),
        },
        "install" | "install-create" | "install-write" | "install-commit" => ShellOutput::fail(
            "Failure [INSTALL_FAILED_INTERNAL_ERROR: the embedded phone cannot install APKs]\n",
            1,
        ),
        // Every package here is part of the system image, which `pm uninstall` cannot remove.
        "uninstall" => match rest.iter().find(|a| !a.starts_with('-')) {
            Some(_) => ShellOutput::fail("Failure [DELETE_FAILED_INTERNAL_ERROR]\n", 1),
            None => ShellOutput::fail("Error: package name not specified\n", 255),
        },
        "" | "help" => ShellOutput::ok("Package manager (package) commands:\n  help\n    Print this help text.\n  path [--user USER_ID] PACKAGE\n    Print the path to the .apk of the given PACKAGE.\n  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U] [FILTER]\n    Prints all packages; optionally only those whose name contains\n    the text in FILTER.\n  clear [--user USER_ID] [--cache-only] PACKAGE\n    Deletes data associated with a package.\n"),
        other => ShellOutput::fail(format!("Unknown command: {other}\n"), 255),
    }
}

/// `--brief`/`--components` and the intent arguments of resolve-activity and query-activities.
fn intent_query(args: &[String]) -> Result<(Intent, bool, bool), ShellOutput> {
    let brief = args.iter().any(|a| a == "--brief");
    let components = args.iter().any(|a| a == "--components");
    let rest: Vec<String> = args
        .iter()
        .filter(|a| *a != "--brief" && *a != "--components")
        .cloned()
        .collect();
    match parse_intent(&rest) {
        Ok((intent, _)) => Ok((intent, brief, components)),
        Err(e) => Err(ShellOutput::fail(format!("{e}\n"), 255)),
    }
}

/// `printResolveInfo`: the ResolveInfo as `ri.dump(prefix)` prints it, or brief/components forms.
fn resolve_info(
    info: &crate::app::AppInfo,
    prefix: &str,
    brief: bool,
    components: bool,
    is_default: bool,
) -> String {
    let comp = Framework::short_component(info.package, info.launch_activity);
    let head = format!(
        "{prefix}priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault={is_default}\n"
    );
    if components {
        return format!("{prefix}{comp}\n");
    }
    if brief {
        return format!("{head}{prefix}{comp}\n");
    }
    format!(
        "{head}{prefix}ActivityInfo:\n{prefix}  name={}\n{prefix}  packageName={}\n{prefix}  enabled=true exported=true directBootAware=false\n{prefix}  taskAffinity={} targetActivity={} persistableMode=PERSIST_ROOT_ONLY\n{prefix}  launchMode=0 flags=0x3 privateFlags=0x0 theme=0x0\n{prefix}  screenOrientation=-1 configChanges=0x4000fb3 softInputMode=0x0\n{prefix}  lockTaskLaunchMode=LOCK_TASK_LAUNCH_MODE_DEFAULT\n{prefix}  resizeMode=RESIZE_MODE_RESIZEABLE\n",
        info.launch_activity,
        info.package,
        info.package,
        crate::apps::alias_target(info.package, info.launch_activity).unwrap_or("null")
    )
}

pub fn resolve_activity(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (intent, brief, components) = match intent_query(args) {
        Ok(q) => q,
        Err(out) => return out,
    };
    match matching_apps(fw, &intent).first() {
        Some(info) => ShellOutput::ok(resolve_info(info, "", brief, components, true)),
        None => ShellOutput::ok("No activity found\n"),
    }
}

pub fn query_activities(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (intent, brief, components) = match intent_query(args) {
        Ok(q) => q,
        Err(out) => return out,
    };
    let found = matching_apps(fw, &intent);
    if found.is_empty() {
        return ShellOutput::ok("No activities found\n");
    }
    let mut s = String::new();
    if components {
        for info in &found {
            s.push_str(&resolve_info(info, "", false, true, false));
        }
        return ShellOutput::ok(s);
    }
    s.push_str(&format!("{} activities found:\n", found.len()));
    for (i, info) in found.iter().enumerate() {
        s.push_str(&format!("  Activity #{i}:\n"));
        s.push_str(&resolve_info(info, "    ", brief, false, false));
    }
    ShellOutput::ok(s)
}

/// The uid Android gives a package here: system apps that share `android.uid.system` get 1000.
pub fn uid_of(fw: &Framework, package: &str) -> Option<u32> {
    if package == "android"
        || package == apps::settings::PACKAGE
        || package == "com.android.providers.settings"
    {
        return Some(1000);
    }
    packages(fw)
        .iter()
        .position(|(p, _, _)| p == package)
        .map(|i| 10100 + i as u32)
}

/// `dumpsys package PKG` / `pm dump PKG`: the package section tools read (version, paths, flags,
/// signatures, install times, the launcher activity).
pub fn dump_package(fw: &Framework, package: &str) -> String {
    let Some((_, path, third)) = packages(fw).into_iter().find(|(p, _, _)| p == package) else {
        return format!("Unable to find package: {package}\n");
    };
    let uid = uid_of(fw, package).unwrap_or(10100);
    let code_path = path
        .rsplit_once('/')
        .map(|(d, _)| d)
        .unwrap_or(&path)
        .to_string();
    let hash = |salt: u32| super::window::hash(fw.config.seed ^ 0x7061_636b, salt + uid);
    let flags = if third {
        "[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]"
    } else {
        "[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]"
    };
    let install_time = "2009-01-01 00:00:00";
    let mut s = String::new();
    if let Some(info) = fw.app_info(package) {
        if package != apps::launcher::PACKAGE {
            s.push_str(&format!(
                "Activity Resolver Table:\n  Non-Data Actions:\n      android.intent.action.MAIN:\n        {} {} filter {}\n          Action: \"android.intent.action.MAIN\"\n          Category: \"android.intent.category.LAUNCHER\"\n\n",
                hash(1),
                Framework::short_component(info.package, info.launch_activity),
                hash(2)
            ));
        }
    }
    s.push_str(&format!(
        "Packages:\n  Package [{package}] ({}):\n    userId={uid}\n    pkg=Package{{{} {package}}}\n    codePath={code_path}\n    resourcePath={code_path}\n    legacyNativeLibraryDir={code_path}/lib\n    extractNativeLibs=false\n    primaryCpuAbi=arm64-v8a\n    secondaryCpuAbi=null\n    cpuAbiOverride=null\n    versionCode=34 minSdk=34 targetSdk=34\n    minExtensionVersions=[]\n    versionName=14\n    usesNonSdkApi=false\n    splits=[base]\n    apkSigningVersion=3\n    flags={flags}\n    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION ]\n    forceQueryable=false\n    dataDir=/data/user/0/{package}\n    supportsScreens=[small, medium, large, xlarge, resizeable, anyDensity]\n    timeStamp={install_time}\n    lastUpdateTime={install_time}\n    installerPackageName=null\n    signatures=PackageSignatures{{{} version:3, signatures:[{}], past signatures:[]}}\n    installPermissionsFixed=true\n    pkgFlags={flags}\n    User 0: ceDataInode=0 installed=true hidden=false suspended=false distractionFlags=0 stopped=false notLaunched=false enabled=0 instant=false virtual=false\n      firstInstallTime={install_time}\n      installReason=0\n      dataDir=/data/user/0/{package}\n",
        hash(3),
        hash(4),
        hash(5),
        hash(6)
    ));
    s
}

/// App ops tools set and read (`appops set PKG OP MODE`, `appops get PKG [OP]`), kept per package
/// in `/data/system/appops/PKG` as `OP MODE` lines (Android keeps them in `appops.xml`).
const OPS: &[&str] = &[
    "ACCESS_NOTIFICATIONS",
    "ACTIVATE_VPN",
    "AUDIO_MEDIA_VOLUME",
    "CALL_PHONE",
    "CAMERA",
    "COARSE_LOCATION",
    "FINE_LOCATION",
    "GET_USAGE_STATS",
    "MANAGE_EXTERNAL_STORAGE",
    "MOCK_LOCATION",
    "POST_NOTIFICATION",
    "PROJECT_MEDIA",
    "READ_CALENDAR",
    "READ_CALL_LOG",
    "READ_CLIPBOARD",
    "READ_CONTACTS",
    "READ_EXTERNAL_STORAGE",
    "READ_SMS",
    "RECEIVE_SMS",
    "RECORD_AUDIO",
    "REQUEST_INSTALL_PACKAGES",
    "RUN_ANY_IN_BACKGROUND",
    "RUN_IN_BACKGROUND",
    "SCHEDULE_EXACT_ALARM",
    "SEND_SMS",
    "SYSTEM_ALERT_WINDOW",
    "TOAST_WINDOW",
    "WAKE_LOCK",
    "WRITE_CALENDAR",
    "WRITE_CALL_LOG",
    "WRITE_CLIPBOARD",
    "WRITE_CONTACTS",
    "WRITE_EXTERNAL_STORAGE",
    "WRITE_SETTINGS",
];
const MODES: &[&str] = &["allow", "ignore", "deny", "default", "foreground"];

/// `CAMERA`, `camera` or the public name `android:camera` → `CAMERA`.
fn op_name(op: &str) -> String {
    op.strip_prefix("android:")
        .unwrap_or(op)
        .to_ascii_uppercase()
}

fn appops_path(package: &str) -> String {
    format!("/data/system/appops/{package}")
}

fn read_ops(fw: &Framework, package: &str) -> Vec<(String, String)> {
    let data = super::fs::read(fw, &appops_path(package)).unwrap_or_default();
    String::from_utf8_lossy(&data)
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(o, m)| (o.to_string(), m.to_string()))
        .collect()
}

pub fn appops(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let words: Vec<&String> = {
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(a) = args.get(i) {
            i += 1;
            if a == "--user" || a == "--uid" {
                i += (a == "--user") as usize;
                continue;
            }
            out.push(a);
        }
        out
    };
    let usage = "AppOps service (appops) commands:\n  help\n    Print this help text.\n  set [--user <USER_ID>] <PACKAGE | UID> <OP> <MODE>\n    Set the mode for a particular application and operation.\n  get [--user <USER_ID>] <PACKAGE | UID> [<OP>]\n    Return the mode for a particular application and optional operation.\n  reset [--user <USER_ID>] [<PACKAGE>]\n    Reset the given application or all applications to default modes.\n";
    let Some(verb) = words.first() else {
        return ShellOutput::ok(usage);
    };
    let known_package = |p: &str| uid_of(fw, p).is_some();
    match verb.as_str() {
        "set" => {
            let (Some(p), Some(op), Some(mode)) = (words.get(1), words.get(2), words.get(3)) else {
                return ShellOutput::fail("Error: No package specified\n", 255);
            };
            if !known_package(p) {
                return ShellOutput::fail(format!("Error: No UID for {p} in user 0\n"), 255);
            }
            let op = op_name(op);
            if !OPS.contains(&op.as_str()) {
                return ShellOutput::fail(format!("Error: Unknown operation string: {op}\n"), 255);
            }
            if !MODES.contains(&mode.as_str()) {
                return ShellOutput::fail(format!("Error: Mode {mode} is not valid\n"), 255);
            }
            let mut ops: Vec<(String, String)> = read_ops(fw, p)
                .into_iter()
                .filter(|(o, _)| *o != op)
                .collect();
            if mode.as_str() != "default" {
                ops.push((op, mode.to_string()));
            }
            ops.sort();
            let text: String = ops.iter().map(|(o, m)| format!("{o} {m}\n")).collect();
            let _ = super::fs::mkdir_all(fw, "/data/system/appops");
            match super::fs::write(fw, &appops_path(p), text.as_bytes(), false) {
                Ok(()) => ShellOutput::ok(Vec::new()),
                Err(e) => ShellOutput::fail(format!("Error: {e}\n"), 255),
            }
        }
        "get" => {
            let Some(p) = words.get(1) else {
                return ShellOutput::fail("Error: No package specified\n", 255);
            };
            if !known_package(p) {
                return ShellOutput::fail(format!("Error: No UID for {p} in user 0\n"), 255);
            }
            let want = words.get(2).map(|o| op_name(o));
            if let Some(op) = &want {
                if !OPS.contains(&op.as_str()) {
                    return ShellOutput::fail(
                        format!("Error: Unknown operation string: {op}\n"),
                        255,
                    );
                }
            }
            let ops: Vec<(String, String)> = read_ops(fw, p)
                .into_iter()
                .filter(|(o, _)| want.as_ref().is_none_or(|w| w == o))
                .collect();
            if ops.is_empty() {
                return match want {
                    Some(op) => ShellOutput::ok(format!("{op}: default\n")),
                    None => ShellOutput::ok("No operations.\n"),
                };
            }
            let s: String = ops.iter().map(|(o, m)| format!("{o}: {m}\n")).collect();
            ShellOutput::ok(s)
        }
        "reset" => {
            let targets: Vec<String> = match words.get(1) {
                Some(p) => vec![p.to_string()],
                None => packages(fw).into_iter().map(|(p, _, _)| p).collect(),
            };
            for p in targets {
                let _ = super::fs::remove(fw, &appops_path(&p));
            }
            ShellOutput::ok("Reset all modes for: user 0\n")
        }
        "help" => ShellOutput::ok(usage),
        other => ShellOutput::fail(format!("Unknown command: {other}\n"), 255),
    }
}

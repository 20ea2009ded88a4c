//! Activities, packages, windows and services: `am`, `monkey`, `cmd`, `pm`, `dumpsys`, `wm`, `ime`.

use base64::Engine;

use crate::device::ShellOutput;
use crate::sim::apps;
use crate::sim::framework::{Framework, Launcher};
use crate::sim::keyboard;
use crate::sim::screen::WindowKind;
use crate::sim::system::Namespace;

use crate::sim::keyboard::ADB_IME;
const GBOARD_IME: &str =
    "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME";

/// Packages that exist on the phone besides the apps: (package, apk path, third-party).
const SYSTEM_PACKAGES: [(&str, &str, bool); 8] = [
    ("android", "/system/framework/framework-res.apk", false),
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

fn ok_empty() -> ShellOutput {
    ShellOutput::ok(Vec::new())
}

// ---- wm ----

pub fn wm(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let sub = args.first().map(String::as_str);
    let arg = args.get(1).map(String::as_str);
    match sub {
        Some("size") => {
            match arg {
                None => {
                    let p = fw.display.profile;
                    let mut s = format!("Physical size: {}x{}\n", p.width, p.height);
                    if let Some((w, h)) = fw.display.size_override {
                        s.push_str(&format!("Override size: {w}x{h}\n"));
                    }
                    return ShellOutput::ok(s);
                }
                Some("reset") => fw.display.size_override = None,
                Some(size) => {
                    let parsed = size
                        .split_once(['x', 'X'])
                        .and_then(|(w, h)| Some((w.parse::<i32>().ok()?, h.parse::<i32>().ok()?)))
                        .filter(|(w, h)| (1..=8192).contains(w) && (1..=8192).contains(h));
                    match parsed {
                        Some(s) => fw.display.size_override = Some(s),
                        None => return ShellOutput::fail(format!("Error: bad size {size}\n"), 255),
                    }
                }
            }
            fw.refresh_metrics();
            ok_empty()
        }
        Some("density") => {
            match arg {
                None => {
                    let mut s = format!("Physical density: {}\n", fw.display.profile.density);
                    if let Some(d) = fw.display.density_override {
                        s.push_str(&format!("Override density: {d}\n"));
                    }
                    return ShellOutput::ok(s);
                }
                Some("reset") => fw.display.density_override = None,
                Some(d) => match d.parse::<i32>() {
                    Ok(d) if (72..=1200).contains(&d) => fw.display.density_override = Some(d),
                    _ => return ShellOutput::fail(format!("Error: bad number {d}\n"), 255),
                },
            }
            fw.refresh_metrics();
            ok_empty()
        }
        Some("user-rotation") => ShellOutput::ok("lock 0\n"),
        _ => ShellOutput::ok(
            "Window manager (window) commands:\n  help\n      Print this help text.\n  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]\n    Return or override display size.\n    width and height in pixels unless suffixed with 'dp'.\n  density [reset|DENSITY] [-d DISPLAY_ID]\n    Return or override display density.\n",
        ),
    }
}

// ---- am ----

/// An intent as `am` builds it from the command line.
#[derive(Debug, Default, Clone)]
struct Intent {
    action: Option<String>,
    categories: Vec<String>,
    data: Option<String>,
    mime: Option<String>,
    component: Option<(String, String)>,
    package: Option<String>,
    extras: Vec<(String, String)>,
    flags: Option<String>,
}

impl Intent {
    /// `act=… cat=[…] dat=… typ=… flg=… cmp=…` as Intent.toShortString prints it.
    fn describe(&self, flags: Option<&str>) -> String {
        let mut parts = Vec::new();
        if let Some(a) = &self.action {
            parts.push(format!("act={a}"));
        }
        if !self.categories.is_empty() {
            parts.push(format!("cat=[{}]", self.categories.join(",")));
        }
        if let Some(d) = &self.data {
            parts.push(format!("dat={d}"));
        }
        if let Some(t) = &self.mime {
            parts.push(format!("typ={t}"));
        }
        if let Some(f) = flags.map(str::to_string).or_else(|| self.flags.clone()) {
            parts.push(format!("flg={f}"));
        }
        if let Some(p) = &self.package {
            if self.component.is_none() {
                parts.push(format!("pkg={p}"));
            }
        }
        if let Some((p, a)) = &self.component {
            parts.push(format!("cmp={}", Framework::short_component(p, a)));
        }
        if !self.extras.is_empty() {
            parts.push("(has extras)".into());
        }
        parts.join(" ")
    }

    fn extra(&self, key: &str) -> Option<&str> {
        self.extras
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Parses `am` intent arguments; returns the intent and the flags that were not intent parts.
fn parse_intent(args: &[String]) -> Result<(Intent, Vec<String>), String> {
    let mut intent = Intent::default();
    let mut other = Vec::new();
    let mut i = 0;
    let value = |i: &mut usize, opt: &str| -> Result<String, String> {
        *i += 1;
        args.get(*i - 1)
            .cloned()
            .ok_or_else(|| format!("Error: No value specified for {opt}"))
    };
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-a" => intent.action = Some(value(&mut i, a)?),
            "-c" => intent.categories.push(value(&mut i, a)?),
            "-d" => intent.data = Some(value(&mut i, a)?),
            "-t" => intent.mime = Some(value(&mut i, a)?),
            "-f" => intent.flags = Some(value(&mut i, a)?),
            "-p" => intent.package = Some(value(&mut i, a)?),
            "-n" => {
                let c = value(&mut i, a)?;
                intent.component = Some(
                    split_component(&c).ok_or_else(|| format!("Error: Bad component name: {c}"))?,
                );
            }
            "--es" | "--ei" | "--ez" | "--el" | "--ef" | "--eu" | "--ecn" | "--eia" | "--esa"
            | "-e" => {
                let k = value(&mut i, a)?;
                let v = value(&mut i, a)?;
                intent.extras.push((k, v));
            }
            "--esn" => {
                let k = value(&mut i, a)?;
                intent.extras.push((k, String::new()));
            }
            "--user"
            | "--display"
            | "--windowingMode"
            | "--activityType"
            | "-P"
            | "--start-profiler"
            | "--receiver-permission" => {
                value(&mut i, a)?;
            }
            s if s.starts_with('-') => other.push(s.to_string()),
            s => {
                if let Some(c) = split_component(s).filter(|_| s.contains('/') && !s.contains(':'))
                {
                    intent.component = Some(c);
                } else {
                    intent.data = Some(s.to_string());
                }
            }
        }
    }
    Ok((intent, other))
}

/// `pkg/.Act` or `pkg/full.Class` → (package, fully qualified class).
fn split_component(s: &str) -> Option<(String, String)> {
    let (p, a) = s.split_once('/')?;
    if p.is_empty() || a.is_empty() {
        return None;
    }
    let class = if a.starts_with('.') {
        format!("{p}{a}")
    } else {
        a.to_string()
    };
    Some((p.to_string(), class))
}

/// The package that handles an implicit intent's action on this phone.
fn resolve_action(fw: &Framework, intent: &Intent) -> Option<&'static str> {
    if let Some(p) = &intent.package {
        return fw.app_info(p).map(|a| a.package);
    }
    let action = intent.action.as_deref()?;
    let package = match action {
        "android.intent.action.MAIN"
            if intent
                .categories
                .iter()
                .any(|c| c == "android.intent.category.HOME") =>
        {
            apps::launcher::PACKAGE
        }
        a if a.starts_with("android.settings.") => apps::settings::PACKAGE,
        "android.intent.action.DIAL" | "android.intent.action.CALL" => apps::dialer::PACKAGE,
        "android.intent.action.SENDTO" | "android.intent.action.SEND" => apps::messages::PACKAGE,
        "android.intent.action.INSERT" | "android.intent.action.EDIT" => {
            match intent.mime.as_deref().or(intent.data.as_deref()) {
                Some(t) if t.contains("event") || t.contains("calendar") => apps::calendar::PACKAGE,
                _ => apps::contacts::PACKAGE,
            }
        }
        "android.intent.action.SET_ALARM"
        | "android.intent.action.SET_TIMER"
        | "android.intent.action.SHOW_ALARMS" => apps::clock::PACKAGE,
        "android.intent.action.VIEW" => {
            let d = intent.data.as_deref().unwrap_or("");
            if d.starts_with("tel:") {
                apps::dialer::PACKAGE
            } else if d.starts_with("sms:") || d.starts_with("smsto:") {
                apps::messages::PACKAGE
            } else if d.starts_with("content://contacts") {
                apps::contacts::PACKAGE
            } else if d.starts_with("content://com.android.calendar") {
                apps::calendar::PACKAGE
            } else {
                return None;
            }
        }
        _ => return None,
    };
    Some(package)
}

pub fn am(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let sub = args.first().map(String::as_str).unwrap_or("");
    let rest = args.get(1..).unwrap_or(&[]);
    match sub {
        "start" | "start-activity" => am_start(fw, rest),
        "force-stop" | "kill" => match rest.iter().find(|a| !a.starts_with('-')) {
            Some(p) => {
                fw.force_stop(p);
                ok_empty()
            }
            None => ShellOutput::fail("Exception occurred while executing 'force-stop':\njava.lang.IllegalArgumentException: Argument expected after \"force-stop\"\n", 255),
        },
        "broadcast" => broadcast(fw, rest),
        "get-current-user" => ShellOutput::ok("0\n"),
        "stack" | "task" if rest.first().map(String::as_str) == Some("list") => ShellOutput::ok(stack_list(fw)),
        "" | "help" => ShellOutput::ok("Activity manager (activity) commands:\n  help\n      Print this help text.\n  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]\n          [--sampling INTERVAL] [--streaming] [-R COUNT] [-S]\n          [--track-allocation] [--user <USER_ID> | current] <INTENT>\n      Start an Activity.\n  force-stop [--user <USER_ID> | all | current] <PACKAGE>\n      Completely stop the given application package.\n  broadcast [--user <USER_ID> | all | current] <INTENT>\n      Send a broadcast Intent.\n"),
        other => ShellOutput::fail(format!("Unknown command: {other}\n"), 255),
    }
}

fn am_start(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (intent, flags) = match parse_intent(args) {
        Ok(x) => x,
        Err(e) => return ShellOutput::fail(format!("{e}\n"), 255),
    };
    let wait = flags.iter().any(|f| f == "-W");
    if flags.iter().any(|f| f == "-S") {
        if let Some((p, _)) = &intent.component {
            fw.force_stop(p);
        }
    }
    let shown = intent.describe(None);
    let mut out = ShellOutput::ok(format!("Starting: Intent {{ {shown} }}\n"));
    let target = match &intent.component {
        Some((p, a)) => match fw.app_info(p) {
            Some(info) if info.launch_activity == a => Some(info.package),
            _ => {
                out.stderr = format!(
                    "Error type 3\nError: Activity class {{{}}} does not exist.\n",
                    format_args!("{p}/{a}")
                )
                .into_bytes();
                out.exit_code = 1;
                return out;
            }
        },
        None => resolve_action(fw, &intent),
    };
    let Some(package) = target else {
        return ShellOutput::fail(
            format!(
                "Error: Activity not started, unable to resolve Intent {{ {} }}\n",
                intent.describe(Some("0x10000000"))
            ),
            1,
        );
    };
    let already_top = fw.foreground_package() == package && !fw.overview;
    let was_running = fw.stack.iter().any(|t| t.package == package);
    let log_intent = intent.describe(Some("0x10000000"));
    let log_intent = if intent.component.is_none() {
        let activity = fw
            .app_info(package)
            .map(|a| a.launch_activity)
            .unwrap_or("");
        format!(
            "{log_intent} cmp={}",
            Framework::short_component(package, activity)
        )
    } else {
        log_intent
    };
    let before = fw.sys.now_millis();
    if fw.launch(package, Launcher::Shell(log_intent)).is_err() {
        return ShellOutput::fail(
            format!("Error: Activity not started, unable to resolve Intent {{ {shown} }}\n"),
            1,
        );
    }
    if already_top {
        out.stdout.extend_from_slice(
            b"Warning: Activity not started, intent has been delivered to currently running top-most instance.\n",
        );
    }
    if wait {
        let took = (fw.sys.now_millis() - before).max(1);
        let activity = fw
            .app_info(package)
            .map(|a| a.launch_activity)
            .unwrap_or("");
        let state = if already_top {
            "Status: delivered to top\nLaunchState: UNKNOWN (0)\n".to_string()
        } else if was_running {
            "Status: ok\nLaunchState: HOT\n".to_string()
        } else {
            "Status: ok\nLaunchState: COLD\n".to_string()
        };
        out.stdout.extend_from_slice(
            format!(
                "{state}Activity: {}\nTotalTime: {took}\nWaitTime: {}\nComplete\n",
                Framework::short_component(package, activity),
                took + 6
            )
            .as_bytes(),
        );
    }
    out
}

fn broadcast(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (intent, _) = match parse_intent(args) {
        Ok(x) => x,
        Err(e) => return ShellOutput::fail(format!("{e}\n"), 255),
    };
    let shown = intent.describe(Some("0x400000"));
    let out = ShellOutput::ok(format!(
        "Broadcasting: Intent {{ {shown} }}\nBroadcast completed: result=0\n"
    ));
    let adb_ime_active = fw
        .sys
        .settings
        .get(Namespace::Secure, "default_input_method")
        == Some(ADB_IME);
    if !adb_ime_active {
        return out;
    }
    match intent.action.as_deref() {
        Some("ADB_INPUT_B64") => {
            let msg = intent.extra("msg").unwrap_or("");
            if let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(msg.trim()) {
                fw.type_text(&String::from_utf8_lossy(&bytes));
            }
        }
        Some("ADB_INPUT_TEXT") => {
            let msg = intent.extra("msg").unwrap_or("").to_string();
            fw.type_text(&msg);
        }
        Some("ADB_INPUT_CHARS") => {
            let chars: String = intent
                .extra("chars")
                .unwrap_or("")
                .split(',')
                .filter_map(|c| c.trim().parse::<u32>().ok().and_then(char::from_u32))
                .collect();
            fw.type_text(&chars);
        }
        Some("ADB_CLEAR_TEXT") => fw.set_text(""),
        Some("ADB_EDITOR_CODE") => fw.editor_action(),
        Some("ADB_INPUT_CODE") => {
            if let Some(code) = intent.extra("code").and_then(|c| c.parse::<i32>().ok()) {
                fw.key(code);
            }
        }
        _ => {}
    }
    out
}

fn stack_list(fw: &Framework) -> String {
    let (w, h) = fw.display.size();
    let mut s = String::new();
    for (i, task) in fw.stack.iter().rev().enumerate() {
        let activity = task.app.activity();
        let visible = i == 0 && !fw.overview;
        s.push_str(&format!(
            "RootTask id={} bounds=[0,0][{w},{h}] displayId=0 userId=0\n configuration={{1.0 310mcc260mnc [{}] ldltr sw411dp w411dp h842dp 420dpi nrml long port finger -keyb/v/h -nav/h winConfig={{ mBounds=Rect(0, 0 - {w}, {h}) mAppBounds=Rect(0, 0 - {w}, {h}) mWindowingMode=fullscreen mActivityType=standard}} s.{}}}\n  taskId={}: {}/{} bounds=[0,0][{w},{h}] userId=0 visible={visible} topActivity=ComponentInfo{{{}/{}}}\n",
            task.id,
            fw.sys.locale.replace('-', "_"),
            task.id,
            task.id,
            task.package,
            activity,
            task.package,
            activity
        ));
    }
    s
}

// ---- monkey ----

pub fn monkey(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let mut out = String::new();
    for a in args {
        out.push_str(&format!("  bash arg: {a}\n"));
    }
    let mut packages = Vec::new();
    let mut count: Option<i64> = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-p" | "-c" | "-s" | "--throttle" | "--pct-touch" | "--pct-motion"
            | "--pct-syskeys" | "--pct-appswitch" | "--pct-anyevent" => {
                let Some(v) = args.get(i) else {
                    return ShellOutput {
                        stdout: out.into_bytes(),
                        stderr: format!("** Error: Missing argument for option: {a}\n")
                            .into_bytes(),
                        exit_code: 1,
                    };
                };
                i += 1;
                if a == "-p" {
                    packages.push(v.clone());
                }
            }
            s if s.starts_with('-') => {}
            s => match s.parse::<i64>() {
                Ok(n) => count = Some(n),
                Err(_) => {
                    return ShellOutput {
                        stdout: out.into_bytes(),
                        stderr: format!("** Error: Invalid argument: {s}\n").into_bytes(),
                        exit_code: 1,
                    }
                }
            },
        }
    }
    let Some(count) = count else {
        return ShellOutput {
            stdout: out.into_bytes(),
            stderr: b"** Error: Count not specified\nusage: monkey [-p ALLOWED_PACKAGE [-p ALLOWED_PACKAGE] ...]\n              [-c MAIN_CATEGORY [-c MAIN_CATEGORY] ...]\n              [--ignore-crashes] [--ignore-timeouts]\n              [-s SEED] [-v [-v] ...]\n              [--throttle MILLISEC] [--randomize-throttle]\n              COUNT\n".to_vec(),
            exit_code: 1,
        };
    };
    let launchable: Vec<&'static str> = if packages.is_empty() {
        fw.catalog.iter().map(|a| a.package).collect()
    } else {
        packages
            .iter()
            .filter_map(|p| fw.app_info(p).map(|a| a.package))
            .collect()
    };
    if launchable.is_empty() {
        return ShellOutput {
            stdout: out.into_bytes(),
            stderr: b"** No activities found to run, monkey aborted.\n".to_vec(),
            exit_code: 252,
        };
    }
    let before = fw.sys.now_millis();
    for n in 0..count.clamp(0, 1000) {
        let pick = launchable[(n as usize + fw.sys.rng_u32() as usize) % launchable.len()];
        let _ = fw.launch(pick, Launcher::Home);
    }
    let took = (fw.sys.now_millis() - before).max(1);
    out.push_str(&format!(
        "Events injected: {}\n## Network stats: elapsed time={took}ms (0ms mobile, 0ms wifi, {took}ms not connected)\n",
        count.max(0)
    ));
    ShellOutput::ok(out)
}

// ---- cmd / pm ----

pub fn cmd(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let service = args.first().map(String::as_str).unwrap_or("");
    let rest = args.get(1..).unwrap_or(&[]);
    let first = rest.first().map(String::as_str).unwrap_or("");
    let second = rest.get(1).map(String::as_str).unwrap_or("");
    match service {
        "package" => match first {
            "resolve-activity" => resolve_activity(fw, &rest[1..]),
            _ => pm(fw, rest),
        },
        "settings" => super::settings::settings(fw, rest),
        "alarm" => super::time::cmd_alarm(fw, rest),
        "activity" => am(fw, rest),
        "window" => wm(fw, rest),
        "input_method" => ime(fw, rest),
        "connectivity" if first == "airplane-mode" => match second {
            "enable" => {
                fw.sys.set_airplane_mode(true);
                ok_empty()
            }
            "disable" => {
                fw.sys.set_airplane_mode(false);
                ok_empty()
            }
            "" => ShellOutput::ok(if fw.sys.settings.get_int(Namespace::Global, "airplane_mode_on", 0) != 0 { "enabled\n" } else { "disabled\n" }),
            _ => ShellOutput::fail(format!("Unsupported argument: {second}\n"), 255),
        },
        "wifi" if first == "set-wifi-enabled" => match second {
            "enabled" | "disabled" => {
                fw.sys.set_wifi_enabled(second == "enabled", "com.android.shell");
                ok_empty()
            }
            _ => ShellOutput::fail("Invalid argument: must be 'enabled' or 'disabled'\n", 255),
        },
        "bluetooth_manager" if first == "enable" || first == "disable" => {
            fw.sys.set_bluetooth_enabled(first == "enable", "com.android.shell");
            ok_empty()
        }
        "uimode" if first == "night" => match second {
            "yes" | "no" => {
                fw.sys.set_dark_mode(second == "yes");
                ShellOutput::ok(format!("Night mode: {second}\n"))
            }
            "" => ShellOutput::ok(if fw.sys.dark_mode() { "Night mode: yes\n" } else { "Night mode: no\n" }),
            _ => ShellOutput::fail(format!("Error: mode must be 'yes', 'no', 'auto' or 'custom_schedule'\n"), 255),
        },
        "" => ShellOutput::fail("cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n", 255),
        "-l" => ShellOutput::ok("Currently running services:\n  activity\n  bluetooth_manager\n  connectivity\n  input_method\n  package\n  settings\n  uimode\n  wifi\n  window\n"),
        other => {
            let known = ["activity", "bluetooth_manager", "connectivity", "input_method", "package", "settings", "uimode", "wifi", "window"];
            if known.contains(&other) {
                ShellOutput::fail(format!("Unknown command: {first}\n"), 255)
            } else {
                ShellOutput::fail(format!("cmd: Can't find service: {other}\n"), 20)
            }
        }
    }
}

fn resolve_activity(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let brief = args.iter().any(|a| a == "--brief");
    let (intent, _) = match parse_intent(
        &args
            .iter()
            .filter(|a| *a != "--brief")
            .cloned()
            .collect::<Vec<_>>(),
    ) {
        Ok(x) => x,
        Err(e) => return ShellOutput::fail(format!("{e}\n"), 255),
    };
    let package = intent
        .data
        .clone()
        .or(intent.package.clone())
        .or(intent.component.as_ref().map(|(p, _)| p.clone()));
    let info = match package {
        Some(p) => fw.app_info(&p),
        None => resolve_action(fw, &intent).and_then(|p| fw.app_info(p)),
    };
    // The main activity matches only the categories it declares (the home app is no LAUNCHER app).
    let declared = |p: &str| {
        let main = crate::sim::apps::main_category(p);
        intent
            .categories
            .iter()
            .all(|c| c == main || c == "android.intent.category.DEFAULT")
    };
    match info.filter(|i| declared(i.package)) {
        Some(info) => {
            let comp = Framework::short_component(info.package, info.launch_activity);
            if brief {
                ShellOutput::ok(format!("priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n{comp}\n"))
            } else {
                ShellOutput::ok(format!(
                    "Activity Resolver Table:\n  priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n  ActivityInfo:\n    name={}\n    packageName={}\n    enabled=true exported=true directBootAware=false\n",
                    info.launch_activity, info.package
                ))
            }
        }
        None => ShellOutput::ok("No activity found\n"),
    }
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
            let Some(install) = fw.app_info(&p).map(|a| a.install) else {
                return ShellOutput::fail(
                    format!("Exception occurred while executing 'clear':\njava.lang.IllegalArgumentException: Unknown package: {p}\n"),
                    255,
                );
            };
            fw.force_stop(&p);
            for dir in [format!("/data/data/{p}"), format!("/data/user/0/{p}"), format!("/data/user_de/0/{p}")] {
                if let Some(h) = fw.sys.host_path(&dir) {
                    let _ = std::fs::remove_dir_all(h);
                }
            }
            install(&mut fw.sys);
            fw.sys.requests.clear();
            ShellOutput::ok("Success\n")
        }
        "grant" | "revoke" | "enable" | "disable-user" | "set-home-activity" => ok_empty(),
        "dump" => match rest.first() {
            Some(p) if fw.app_info(p).is_some() => {
                let info = fw.app_info(p).map(|a| (a.package, a.launch_activity)).unwrap_or_default();
                ShellOutput::ok(format!(
                    "Packages:\n  Package [{}] (5f2b1c9):\n    userId=10120\n    pkg=Package{{5f2b1c9 {}}}\n    codePath={}\n    versionCode=1 minSdk=29 targetSdk=34\n    versionName=14\n  Activities:\n    {}/{}\n",
                    info.0,
                    info.0,
                    apk_path(info.0),
                    info.0,
                    info.1
                ))
            }
            _ => ok_empty(),
        },
        "" | "help" => ShellOutput::ok("Package manager (package) commands:\n  help\n    Print this help text.\n  path [--user USER_ID] PACKAGE\n    Print the path to the .apk of the given PACKAGE.\n  list packages [-f] [-d] [-e] [-s] [-3] [-i] [-l] [-u] [-U] [FILTER]\n    Prints all packages; optionally only those whose name contains\n    the text in FILTER.\n  clear [--user USER_ID] [--cache-only] PACKAGE\n    Deletes data associated with a package.\n"),
        other => ShellOutput::fail(format!("Unknown command: {other}\n"), 255),
    }
}

pub fn ime(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let sub = args.first().map(String::as_str).unwrap_or("");
    let id = args.iter().skip(1).find(|a| !a.starts_with('-')).cloned();
    let known = |id: &str| id == ADB_IME || id == GBOARD_IME;
    match sub {
        "list" => {
            let s = if args.iter().any(|a| a == "-s") {
                format!("{GBOARD_IME}\n{ADB_IME}\n")
            } else {
                format!("{GBOARD_IME}:\n  mId={GBOARD_IME}\n{ADB_IME}:\n  mId={ADB_IME}\n")
            };
            ShellOutput::ok(s)
        }
        "enable" => match id {
            Some(i) if known(&i) => ShellOutput::ok(format!("Input method {i}: already enabled for user #0\n")),
            Some(i) => ShellOutput::fail(format!("Unknown input method {i} cannot be enabled for user #0\n"), 255),
            None => ShellOutput::fail("Error: no input method specified\n", 255),
        },
        "set" => match id {
            Some(i) if known(&i) => {
                fw.sys.put_setting(Namespace::Secure, "default_input_method", i.clone());
                ShellOutput::ok(format!("Input method {i} selected for user #0\n"))
            }
            Some(i) => ShellOutput::fail(format!("Unknown input method {i} cannot be selected for user #0\n"), 255),
            None => ShellOutput::fail("Error: no input method specified\n", 255),
        },
        "reset" => {
            fw.sys.put_setting(Namespace::Secure, "default_input_method", GBOARD_IME);
            ShellOutput::ok(format!("Reset current and enabled IMEs for user #0\n  Selected: {GBOARD_IME}\n"))
        }
        _ => ShellOutput::ok("ime <command>:\n  list [-a] [-s]\n  enable [--user <USER_ID>] <ID>\n  disable [--user <USER_ID>] <ID>\n  set [--user <USER_ID>] <ID>\n  reset [--user <USER_ID>]\n"),
    }
}

// ---- dumpsys ----

/// A stable pseudo object hash for `Window{…}` / `ActivityRecord{…}` names.
fn hash(seed: u64, salt: u32) -> String {
    let x = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((salt as u64).wrapping_mul(0x5851_F42D_4C95_7F2D));
    format!("{:07x}", (x >> 36) & 0xfff_ffff)
}

fn focus_lines(fw: &mut Framework) -> (String, String) {
    let seed = fw.config.seed;
    if !fw.screen_on {
        return ("mCurrentFocus=null".into(), "mFocusedApp=null".into());
    }
    let Some(task) = fw.foreground() else {
        return ("mCurrentFocus=null".into(), "mFocusedApp=null".into());
    };
    let activity = task.app.activity();
    let short = Framework::short_component(task.package, &activity);
    let window = if fw.overview {
        format!(
            "Window{{{} u0 {}/{}}}",
            hash(seed, 1),
            apps::launcher::PACKAGE,
            "com.google.android.apps.nexuslauncher.NexusLauncherActivity"
        )
    } else {
        format!(
            "Window{{{} u0 {}/{}}}",
            hash(seed, task.id),
            task.package,
            activity
        )
    };
    (
        format!("mCurrentFocus={window}"),
        format!(
            "mFocusedApp=ActivityRecord{{{} u0 {short} t{}}}",
            hash(seed, task.id + 100),
            task.id
        ),
    )
}

pub fn dumpsys(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let service = args.first().map(String::as_str).unwrap_or("");
    let sub = args.get(1).map(String::as_str).unwrap_or("");
    match service {
        "window" => {
            fw.refresh_metrics();
            let (focus, app) = focus_lines(fw);
            let m = fw.sys.metrics;
            let p = fw.display.profile;
            let density = fw.display.density();
            let displays = format!(
                "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0 rootTasks=1\n    init={}x{} {}dpi mMinSizeOfResizeableTaskDp=220 cur={}x{} app={}x{} rng={}x{}-{}x{}\n    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion(()) \n    mCurrentRotation=ROTATION_0\n",
                p.width, p.height, density, m.width, m.height, m.width, m.content.bottom, m.width.min(m.height), m.width.min(m.height) - m.content.top, m.width.max(m.height), m.width.max(m.height) - m.content.top
            );
            if sub == "displays" {
                return ShellOutput::ok(format!("{displays}  mCurrentFocus and mFocusedApp:\n    {focus}\n    {app}\n"));
            }
            let mut s = String::from("WINDOW MANAGER WINDOWS (dumpsys window windows)\n");
            let windows = fw.windows();
            for (i, w) in windows.iter().rev().enumerate() {
                let name = match w.kind {
                    WindowKind::StatusBar => "StatusBar".to_string(),
                    WindowKind::NavigationBar => "NavigationBar0".to_string(),
                    WindowKind::HeadsUp => "NotificationShade".to_string(),
                    WindowKind::Ime => "InputMethod".to_string(),
                    WindowKind::App | WindowKind::Overview => {
                        let act = fw.foreground().map(|t| t.app.activity()).unwrap_or_default();
                        format!("{}/{}", w.package, act)
                    }
                };
                s.push_str(&format!(
                    "  Window #{i} Window{{{} u0 {name}}}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{{{} 0:u0a10000}} mClient=android.os.BinderProxy@{}\n    mOwnerUid=10000 showForAllUsers=false package={} appop=NONE\n    mFrame={} isVisible=true\n",
                    hash(fw.config.seed, i as u32 + 7),
                    hash(fw.config.seed, i as u32 + 50),
                    hash(fw.config.seed, i as u32 + 90),
                    w.package,
                    w.root.bounds
                ));
            }
            s.push_str(&format!("\n  {focus}\n  {app}\n  mInputMethodWindow={}\n", if fw.ime_visible { format!("Window{{{} u0 InputMethod}}", hash(fw.config.seed, 3)) } else { "null".into() }));
            s.push('\n');
            s.push_str(&displays);
            ShellOutput::ok(s)
        }
        "activity" => {
            let seed = fw.config.seed;
            let mut s = String::from("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n");
            let mut top = String::new();
            for (i, task) in fw.stack.iter().rev().enumerate() {
                let activity = task.app.activity();
                let short = Framework::short_component(task.package, &activity);
                let record = format!("ActivityRecord{{{} u0 {short} t{}}}", hash(seed, task.id + 100), task.id);
                if i == 0 {
                    top = record.clone();
                }
                s.push_str(&format!(
                    "  * Task{{{} #{} type=standard A={}:{} U=0 visible={} visibleRequested={} mode=fullscreen translucent=false sz=1}}\n    mLastPausedActivity: null\n    * Hist  #0: {record}\n      packageName={} processName={}\n      app=ProcessRecord{{{} {}:{}/u0a120}}\n",
                    hash(seed, task.id + 200),
                    task.id,
                    10000 + task.id,
                    task.package,
                    i == 0,
                    i == 0,
                    task.package,
                    task.package,
                    hash(seed, task.id + 300),
                    task.pid,
                    task.package
                ));
            }
            s.push_str(&format!("\n  ResumedActivity: {top}\n\n  topResumedActivity={top}\n"));
            if sub == "recents" {
                let mut r = String::from("ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\n  Recent tasks:\n");
                for (i, task) in fw.stack.iter().rev().enumerate() {
                    r.push_str(&format!("  * Recent #{i}: Task{{{} #{} type=standard A={}:{} U=0 visible={} mode=fullscreen}}\n", hash(seed, task.id + 200), task.id, 10000 + task.id, task.package, i == 0));
                }
                return ShellOutput::ok(r);
            }
            ShellOutput::ok(s)
        }
        "power" => {
            let on = fw.screen_on;
            ShellOutput::ok(format!(
                "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mWakefulness={}\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  mBatteryLevel=100\n  mHoldingDisplaySuspendBlocker={on}\n  Display Power: state={}\n",
                if on { "Awake" } else { "Asleep" },
                if on { "ON" } else { "OFF" }
            ))
        }
        "input_method" => {
            let current = fw.sys.settings.get(Namespace::Secure, "default_input_method").unwrap_or(GBOARD_IME).to_string();
            ShellOutput::ok(format!(
                "Current Input Method Manager state:\n  mCurMethodId={current}\n  mInputShown={}\n  mServedInputConnection={}\n  isInputViewShown={}\n",
                fw.ime_visible,
                if fw.focus.is_some() { "true" } else { "false" },
                fw.ime_visible
            ))
        }
        "battery" => ShellOutput::ok("Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless powered: false\n  Max charging current: 500000\n  status: 5\n  health: 2\n  present: true\n  level: 100\n  scale: 100\n  voltage: 4400\n  temperature: 250\n  technology: Li-ion\n"),
        "" => ShellOutput::ok("Currently running services:\n  activity\n  battery\n  input_method\n  power\n  window\n"),
        other => ShellOutput::ok(format!("Can't find service: {other}\n")),
    }
}

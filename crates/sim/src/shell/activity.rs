//! Activities and input methods: `am`, `monkey`, `ime`, and `cmd`'s dispatch to services.

use base64::Engine;

use crate::apps;
use crate::clipboard;
use crate::framework::{Framework, Launcher};
use crate::keyboard::ADB_IME;
use crate::system::Namespace;
use droidmcp_device::ShellOutput;

use super::intent::{matching_apps, parse_intent};

pub const GBOARD_IME: &str =
    "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME";

fn ok_empty() -> ShellOutput {
    ShellOutput::ok(Vec::new())
}

pub fn am(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let sub = args.first().map(String::as_str).unwrap_or("");
    let rest = args.get(1..).unwrap_or(&[]);
    match sub {
        "start" | "start-activity" => am_start(fw, rest),
        "force-stop" | "kill" => match rest.iter().find(|a| !a.starts_with('-')) {
            Some(p) if sub == "force-stop" => {
                fw.force_stop_package(p);
                ok_empty()
            }
            Some(p) => {
                fw.force_stop(p);
                ok_empty()
            }
            None => ShellOutput::fail("Exception occurred while executing 'force-stop':\njava.lang.IllegalArgumentException: Argument expected after \"force-stop\"\n", 255),
        },
        "broadcast" => broadcast(fw, rest),
        "instrument" => instrument(rest),
        "get-current-user" => ShellOutput::ok("0\n"),
        "stack" | "task" if rest.first().map(String::as_str) == Some("list") => ShellOutput::ok(stack_list(fw)),
        "stack" if rest.first().map(String::as_str) == Some("remove") => stack_remove(fw, &rest[1..]),
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
            fw.force_stop_package(p);
        }
    }
    let shown = intent.describe(None);
    let mut out = ShellOutput::ok(format!("Starting: Intent {{ {shown} }}\n"));
    let target = match &intent.component {
        Some((p, a))
            if fw
                .app_info(p)
                .is_none_or(|info| !apps::starts_by_name(info, a)) =>
        {
            out.stderr = format!(
                "Error type 3\nError: Activity class {{{}}} does not exist.\n",
                format_args!("{p}/{a}")
            )
            .into_bytes();
            out.exit_code = 1;
            return out;
        }
        _ => matching_apps(fw, &intent).first().map(|a| a.package),
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
    fw.deliver_intent(package, &intent.to_app());
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

/// `am instrument … PKG/RUNNER`: no instrumentation is installed here (nothing can run a test
/// APK), so it fails as Android does for an unknown instrumentation.
fn instrument(args: &[String]) -> ShellOutput {
    let mut i = 0;
    let mut target = None;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-e" => i += 2,
            "-p" | "--user" | "--abi" | "--no-window-animation" => {
                i += (a != "--no-window-animation") as usize
            }
            s if s.starts_with('-') => {}
            s => target = Some(s.to_string()),
        }
    }
    let Some(target) = target else {
        return ShellOutput::fail("Error: No instrumentation component specified\n", 1);
    };
    let Some((p, c)) = super::intent::split_component(&target) else {
        return ShellOutput::fail(format!("Error: Bad component name: {target}\n"), 1);
    };
    ShellOutput {
        stdout: format!("INSTRUMENTATION_STATUS: id=ActivityManagerService\nINSTRUMENTATION_STATUS: Error=Unable to find instrumentation info for: ComponentInfo{{{p}/{c}}}\nINSTRUMENTATION_STATUS_CODE: -1\n").into_bytes(),
        stderr: format!("android.util.AndroidException: INSTRUMENTATION_FAILED: {p}/{c}\n\tat com.android.commands.am.Instrument.run(Instrument.java:549)\n\tat com.android.commands.am.Am.runInstrument(Am.java:196)\n\tat com.android.commands.am.Am.onRun(Am.java:80)\n\tat com.android.internal.os.BaseCommand.run(BaseCommand.java:60)\n\tat com.android.commands.am.Am.main(Am.java:50)\n").into_bytes(),
        exit_code: 1,
    }
}

fn broadcast(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (intent, _) = match parse_intent(args) {
        Ok(x) => x,
        Err(e) => return ShellOutput::fail(format!("{e}\n"), 255),
    };
    let shown = intent.describe(Some("0x400000"));
    let delivered = intent.to_app();
    let component = intent
        .component
        .as_ref()
        .map(|(p, c)| (p.as_str(), c.as_str()));
    let package = intent.package.as_deref();
    // The phone's receivers: Clipper's, then the accessibility forwarder's.
    let clipper_focused = fw.has_input_focus(clipboard::CLIPPER_PACKAGE);
    let received =
        clipboard::clipper_receive(&mut fw.sys, clipper_focused, &delivered, component, package)
            .or_else(|| {
                crate::a11y::receive(&mut fw.a11y, &mut fw.sys, &delivered, component, package)
            });
    let out = ShellOutput::ok(format!(
        "Broadcasting: Intent {{ {shown} }}\n{}",
        clipboard::completion_line(received.as_ref())
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

/// `am stack remove ROOT_TASK_ID` (what AndroidWorld's `close_recents` sends for every id in
/// `dumpsys activity recents`): the task goes, silently, whether or not it existed.
fn stack_remove(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let Some(id) = args.first() else {
        return ShellOutput::fail("Exception occurred while executing 'stack':\njava.lang.IllegalArgumentException: No value specified for root task id\n", 255);
    };
    let Ok(id) = id.parse::<u32>() else {
        return ShellOutput::fail(format!("Exception occurred while executing 'stack':\njava.lang.NumberFormatException: For input string: \"{id}\"\n"), 255);
    };
    if let Some(package) = fw.stack.iter().find(|t| t.id == id).map(|t| t.package) {
        fw.remove_task(package);
    }
    ok_empty()
}

fn stack_list(fw: &Framework) -> String {
    let (w, h) = fw.display.size();
    let mut s = String::new();
    for (i, task) in fw.tasks().enumerate() {
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
            task.top_package(),
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
    // Monkey starts MAIN/LAUNCHER activities; the home app has none.
    let launchable: Vec<&'static str> = fw
        .catalog
        .iter()
        .map(|a| a.package)
        .filter(|p| *p != crate::apps::launcher::PACKAGE)
        .filter(|p| packages.is_empty() || packages.iter().any(|q| q == p))
        .collect();
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
            "resolve-activity" => super::package::resolve_activity(fw, &rest[1..]),
            "query-activities" => super::package::query_activities(fw, &rest[1..]),
            _ => super::package::pm(fw, rest),
        },
        "settings" => super::settings::settings(fw, rest),
        "alarm" => super::time::cmd_alarm(fw, rest),
        "activity" => am(fw, rest),
        "window" => super::window::wm(fw, rest),
        "display" => super::window::cmd_display(fw, rest),
        "appops" => super::package::appops(fw, rest),
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
        "role" => super::role::role(fw, rest),
        "statusbar" => super::statusbar::statusbar(fw, rest),
        "overlay" => super::overlay::overlay(fw, rest),
        "notification" if first == "post" || first == "notify" => {
            super::statusbar::notification(fw, &rest[1..])
        }
        // ClipboardService implements no shell command: Binder's default answers.
        "clipboard" => ShellOutput {
            stdout: Vec::new(),
            stderr: b"No shell command implementation.\n".to_vec(),
            exit_code: 0,
        },
        "" => ShellOutput::fail("cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n", 255),
        "-l" => ShellOutput::ok("Currently running services:\n  activity\n  appops\n  bluetooth_manager\n  clipboard\n  connectivity\n  display\n  input_method\n  notification\n  overlay\n  package\n  role\n  settings\n  statusbar\n  uimode\n  wifi\n  window\n"),
        other => {
            let known = ["activity", "appops", "bluetooth_manager", "clipboard", "connectivity", "display", "input_method", "notification", "overlay", "package", "role", "settings", "statusbar", "uimode", "wifi", "window"];
            if known.contains(&other) {
                ShellOutput::fail(format!("Unknown command: {first}\n"), 255)
            } else {
                ShellOutput::fail(format!("cmd: Can't find service: {other}\n"), 20)
            }
        }
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

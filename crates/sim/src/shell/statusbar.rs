//! `cmd statusbar` (open and close the notification shade) and `cmd notification post`, which
//! posts a notification from `com.android.shell` as `NotificationShellCmd` does, printing the
//! `Notification.toString()` line it prints.

use crate::framework::Framework;
use crate::shade::{SHELL_NOTIFICATION_ID, SHELL_PACKAGE};
use crate::system::Notification;
use droidmcp_device::ShellOutput;

/// `cmd statusbar SUB`.
pub fn statusbar(fw: &mut Framework, args: &[String]) -> ShellOutput {
    match args.first().map(String::as_str).unwrap_or("") {
        "expand-notifications" | "expand-settings" => {
            fw.expand_notifications();
            ShellOutput::ok(Vec::new())
        }
        "collapse" => {
            fw.collapse_panels();
            ShellOutput::ok(Vec::new())
        }
        _ => ShellOutput::ok(STATUSBAR_USAGE),
    }
}

/// `cmd notification post|notify …`.
pub fn notification(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let (out, code) = post(fw, args);
    ShellOutput {
        stdout: out.into_bytes(),
        stderr: Vec::new(),
        exit_code: code,
    }
}

/// `cmd notification post [flags] TAG TEXT`: the notification `NotificationShellCmd` posts for the
/// shell, its content intent resolved to the app that would start. Returns the output and exit code.
fn post(fw: &mut Framework, args: &[String]) -> (String, i32) {
    let mut title = String::new();
    let mut intent: Option<(String, crate::app::Intent)> = None;
    let mut i = 0;
    let mut positional = Vec::new();
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-v" | "--verbose" => {}
            "-t" | "--title" | "title" => {
                i += 1;
                match args.get(i) {
                    Some(t) => title = t.clone(),
                    None => return (missing_arg("-t"), 255),
                }
            }
            "-i" | "--icon" | "icon" | "-I" | "--large-icon" | "--largeicon" | "largeicon"
            | "large-icon" => {
                i += 1;
                if args.get(i).is_none() {
                    return (missing_arg(a), 255);
                }
            }
            "-c" | "--content-intent" | "content-intent" | "--intent" | "intent" => {
                let mut rest = &args[i + 1..];
                if rest
                    .first()
                    .is_some_and(|k| matches!(k.as_str(), "broadcast" | "service" | "activity"))
                {
                    rest = &rest[1..];
                }
                // Intent.parseCommandArgs reads options, then one bare argument (a URI, a
                // component or a package); TAG and TEXT follow it.
                let mut used = intent_words(rest);
                if used < rest.len() {
                    used += 1;
                }
                let (parsed, _) = match super::intent::parse_intent(&rest[..used]) {
                    Ok(x) => x,
                    Err(e) => {
                        return (
                            format!("Error occurred. Check logcat for details. {e}\n"),
                            0,
                        )
                    }
                };
                i = args.len() - rest.len() + used;
                let target = super::intent::matching_apps(fw, &parsed)
                    .first()
                    .map(|a| a.package.to_string());
                if let Some(target) = target {
                    intent = Some((target, parsed.to_app()));
                }
                continue;
            }
            "-h" | "--help" | "--wtf" => return (format!("{NOTIFY_USAGE}\n"), 0),
            s if s.starts_with('-') => return (format!("{NOTIFY_USAGE}\n"), 0),
            _ => positional.push(args[i].clone()),
        }
        i += 1;
    }
    let (Some(tag), Some(text)) = (positional.first(), positional.get(1)) else {
        return (format!("{NOTIFY_USAGE}\n"), 255);
    };
    let (target, intent) = match intent {
        Some((t, i)) => (Some(t), Some(i)),
        None => (None, None),
    };
    let now = fw.sys.clock.now();
    fw.sys.notify(Notification {
        package: SHELL_PACKAGE.into(),
        id: SHELL_NOTIFICATION_ID,
        channel: "shellcmd".into(),
        title,
        text: text.clone(),
        actions: Vec::new(),
        heads_up: false,
        when: now,
        intent,
        tag: Some(tag.clone()),
        target,
        auto_cancel: false,
        ongoing: false,
        full_screen: None,
    });
    (
        "posting:\n  Notification(channel=shellcmd shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x0 color=0x00000000 vis=PRIVATE)\n".into(),
        0,
    )
}

/// How many of `rest`'s words the intent options take: each option and the values it reads.
fn intent_words(rest: &[String]) -> usize {
    let mut n = 0;
    while n < rest.len() && rest[n].starts_with('-') {
        let takes = match rest[n].as_str() {
            "--ez" | "--ei" | "--el" | "--ef" | "--es" | "--eu" | "--ecn" | "--eia" | "--ela"
            | "--efa" | "--esa" | "--esal" | "--eial" | "--elal" | "--efal" => 2,
            "--esn" | "-a" | "-d" | "-t" | "-c" | "-n" | "-f" | "-p" | "--user" | "-e" => 1,
            _ => 0,
        };
        let takes = if rest[n] == "-e" { 2 } else { takes };
        n += 1 + takes;
    }
    n.min(rest.len())
}

fn missing_arg(opt: &str) -> String {
    format!("Error occurred. Check logcat for details. Argument expected after \"{opt}\"\n")
}

const NOTIFY_USAGE: &str = "usage: cmd notification post [flags] <tag> <text>

flags:
  -h|--help
  -v|--verbose
  -t|--title <text>
  -i|--icon <iconspec>
  -I|--large-icon <iconspec>
  -S|--style <style> [styleargs]
  -c|--content-intent <intentspec>

styles: (default none)
  bigtext
  bigpicture --picture <iconspec>
  inbox --line <text> --line <text> ...
  messaging --conversation <title> --message <who>:<text> ...
  media

an <iconspec> is one of
  file:///data/local/tmp/<img.png>
  content://<provider>/<path>
  @[<package>:]drawable/<img>
  data:base64,<B64DATA==>

an <intentspec> is (broadcast|service|activity) <args>
  <args> are as described in `am start`";

/// `cmd statusbar help` (`StatusBarShellCommand`'s commands a tool uses).
const STATUSBAR_USAGE: &str = "Status bar commands:
  help
    Print this help text.

  expand-notifications
    Open the notifications panel.

  expand-settings
    Open the notifications panel and expand quick settings if present.

  collapse
    Collapse the notifications and settings panel.
";

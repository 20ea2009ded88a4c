//! `dumpsys SERVICE [ARGS]`: the services tools read, each in Android 14's format.

use crate::framework::Framework;
use crate::system::Namespace;
use droidmcp_device::ShellOutput;

use super::activity::GBOARD_IME;
use super::window::hash;

pub fn run(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let service = args.first().map(String::as_str).unwrap_or("");
    let sub = args.get(1).map(String::as_str).unwrap_or("");
    match service {
        "window" => super::window::dumpsys_window(fw, sub),
        "display" => super::window::dumpsys_display(fw),
        "input" => super::window::dumpsys_input(fw),
        "SurfaceFlinger" if sub == "--display-id" => super::window::surface_flinger_ids(fw),
        "package" if !sub.is_empty() && !sub.starts_with('-') => {
            ShellOutput::ok(super::package::dump_package(fw, sub))
        }
        "activity" => {
            let seed = fw.config.seed;
            let mut s = String::from("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n");
            let mut top = String::new();
            for (i, task) in fw.tasks().enumerate() {
                let short = task.top_component();
                let record = format!(
                    "ActivityRecord{{{} u0 {short} t{}}}",
                    hash(seed, task.id + 100),
                    task.id
                );
                if i == 0 {
                    top = record.clone();
                }
                s.push_str(&format!(
                    "  * {}\n{}    mLastPausedActivity: null\n    * Hist  #0: {record}\n      packageName={} processName={}\n      app=ProcessRecord{{{} {}:{}/u0a120}}\n",
                    task_string(seed, task, i == 0),
                    if i == 0 { format!("    mResumedActivity: {record}\n") } else { String::new() },
                    task.package,
                    task.package,
                    hash(seed, task.id + 300),
                    task.pid,
                    task.package
                ));
            }
            s.push_str(&format!(
                "\n  ResumedActivity: {top}\n\n  topResumedActivity={top}\n"
            ));
            if sub == "top" {
                return ShellOutput::ok(activity_top(fw));
            }
            if sub == "recents" {
                return ShellOutput::ok(recents(fw));
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
            let current = fw
                .sys
                .settings
                .get(Namespace::Secure, "default_input_method")
                .unwrap_or(GBOARD_IME)
                .to_string();
            ShellOutput::ok(format!(
                "Current Input Method Manager state:\n  mCurMethodId={current}\n  mInputShown={}\n  mServedInputConnection={}\n  isInputViewShown={}\n",
                fw.ime_visible,
                if fw.focus.is_some() { "true" } else { "false" },
                fw.ime_visible
            ))
        }
        "notification" => ShellOutput::ok(notification_records(fw)),
        "telephony.registry" => ShellOutput::ok(crate::telephony::dump_registry(&fw.sys)),
        "battery" => ShellOutput::ok(BATTERY),
        "" => ShellOutput::ok(
            "Currently running services:
  SurfaceFlinger
  activity
  battery
  display
  input
  input_method
  notification
  package
  power
  telephony.registry
  window
",
        ),
        other => ShellOutput::ok(format!("Can't find service: {other}\n")),
    }
}

/// `dumpsys battery`: Android 14's `BatteryService.dumpInternal`, line for line: fifteen lines after
/// the header, in its order and spelling (Android 15 adds `Charging state` and `Charging policy`
/// after `technology`). A full Pixel 6 on a USB port: 500 mA at 5 V, its 4,614 mAh battery as the
/// charge counter (µAh).
const BATTERY: &str = "Current Battery Service state:
  AC powered: false
  USB powered: true
  Wireless powered: false
  Dock powered: false
  Max charging current: 500000
  Max charging voltage: 5000000
  Charge counter: 4614000
  status: 5
  health: 2
  present: true
  level: 100
  scale: 100
  voltage: 4400
  temperature: 250
  technology: Li-ion
";

/// `dumpsys activity top`: the top task's activity, as `ActivityManagerService.dumpActivity` heads it.
fn activity_top(fw: &Framework) -> String {
    let seed = fw.config.seed;
    let Some(task) = fw.foreground() else {
        return String::new();
    };
    format!(
        "TASK {} id={} userId=0\n  ACTIVITY {} {} pid={}\n    Local Activity {} State:\n      mResumed=true mStopped=false mFinished=false\n",
        task.package,
        task.id,
        task.top_component(),
        hash(seed, task.id + 400),
        task.pid,
        hash(seed, task.id + 500)
    )
}

/// A task as `Task.toString` prints it in `dumpsys activity` (activities and recents alike).
fn task_string(seed: u64, task: &crate::framework::Task, front: bool) -> String {
    let kind = if task.package == crate::apps::launcher::PACKAGE {
        "home"
    } else {
        "standard"
    };
    format!(
        "Task{{{} #{} type={kind} A={}:{} U=0 visible={front} visibleRequested={front} mode=fullscreen translucent=false sz=1}}",
        hash(seed, task.id + 200),
        task.id,
        10000 + task.id,
        task.package,
    )
}

/// `dumpsys activity recents`, as `RecentTasks.dump` prints it: the raw list (home included, each
/// task's one-line `Task.toString`; the per-task `Task.dump` detail is left out), then the visible
/// recent tasks (home excluded), each a `RecentTaskInfo.dump` whose ` id=N` is the task id
/// AndroidWorld's `close_recents` collects (with every other `…id=N`) and hands to
/// `am stack remove`.
fn recents(fw: &Framework) -> String {
    let seed = fw.config.seed;
    let launcher = crate::apps::launcher::PACKAGE;
    let mut s = format!(
        "ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\nmRecentsUid={}\nmRecentsComponent=ComponentInfo{{{launcher}/com.android.quickstep.RecentsActivity}}\nmFreezeTaskListReordering=false\nmFreezeTaskListReorderingPendingTimeout=false\n",
        super::package::uid_of(fw, launcher).unwrap_or(10000)
    );
    if fw.tasks().next().is_none() {
        return s;
    }
    s.push_str("  Recent tasks:\n");
    for (i, task) in fw.tasks().enumerate() {
        s.push_str(&format!(
            "  * Recent #{i}: {}\n",
            task_string(seed, task, i == 0)
        ));
    }
    let visible = fw.tasks().filter(|t| t.package != launcher);
    for (i, task) in visible.enumerate() {
        if i == 0 {
            s.push_str("\n  Visible recent tasks (most recent first):\n");
        }
        let info = fw.app_info(task.package);
        // The root activity: the launcher entry, or the activity an alias entry runs.
        let base = info.map_or_else(
            || task.app.activity(),
            |a| {
                crate::apps::alias_target(a.package, a.launch_activity)
                    .unwrap_or(a.launch_activity)
                    .to_string()
            },
        );
        let base = Framework::short_component(task.package, &base);
        let top = task.top_component();
        s.push_str(&format!(
            "  * RecentTaskInfo #{i}: \n    id={} userId=0 hasTask=true lastActiveTime={}\n    baseIntent=Intent {{ {} }}\n    baseActivity={{{base}}}\n    topActivity={{{top}}}\n    realActivity={{{base}}}\n    isExcluded=false activityType=standard windowingMode=fullscreen supportsMultiWindow=true\n    lastSnapshotData {{ taskSize=null contentInsets=null bufferSize=null }}\n",
            task.id, task.last_active_ms, task.intent
        ));
    }
    s
}

/// `dumpsys notification`: NotificationManagerService's list, each record's header line
/// (`NotificationRecord.toString`) with its uid and the title and text extras
/// (`--noredact` form). Other record fields are left out.
fn notification_records(fw: &Framework) -> String {
    let seed = fw.config.seed;
    let mut s = String::from("Current Notification Manager state:\n  Notification List:\n");
    for (i, n) in fw.sys.notifications.iter().enumerate() {
        // The app's uid as the package manager gave it (`pm list packages -U`).
        let uid = super::package::uid_of(fw, &n.package).unwrap_or(10100);
        // IMPORTANCE_HIGH for what may interrupt (a heads-up; a full-screen intent, which the
        // Dialer posts only on its high-importance incoming-call channel), else DEFAULT.
        let importance = if n.heads_up || n.full_screen.is_some() {
            4
        } else {
            3
        };
        let tag = n.tag.as_deref().unwrap_or("null");
        // A foreground service's ongoing notification: ONGOING_EVENT | ONLY_ALERT_ONCE | NO_CLEAR |
        // FOREGROUND_SERVICE, as InCallUI's; the others keep the one value printed before.
        let flags = if n.ongoing { 0x6a } else { 0x10 };
        s.push_str(&format!(
            "    NotificationRecord(0x{}: pkg={} user=UserHandle{{0}} id={} tag={tag} importance={importance} key=0|{}|{}|{tag}|{uid}: Notification(channel={} shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x{flags:x} color=0x00000000 vis=PRIVATE))\n      uid={uid} userId=0\n      extras={{\n        android.title=String ({})\n        android.text=String ({})\n      }}\n",
            hash(seed, 900 + i as u32),
            n.package,
            n.id,
            n.package,
            n.id,
            n.channel,
            n.title,
            n.text
        ));
    }
    s
}

//! The emulator console's telephony commands (`gsm call|accept|cancel|hold|busy|list|status`,
//! `sms send`) and whole-phone snapshots (`avd snapshot list|save|load|del|delete`), answered as
//! the Android emulator's `android/console.c` answers them: output lines end in `\r\n`, success
//! ends with `OK`, failure is one `KO: …` line (a failed snapshot load prints two, as QEMU does).
//!
//! [`run`] is one command line; the TCP console that `adb emu` and `telnet` reach is
//! `crate::adb::console`, and task setup reaches it through `device::Shell::console`.
//!
//! One command is droidmcp's own and left out of `help`: `clipboard get` prints the guest's
//! primary clip (its text, then `\r\nOK\r\n`) as the host end of the emulator's clipboard pipe
//! holds it (system_server's EmulatorClipboardMonitor sends it every change). The emulator's gRPC
//! `getClipboard` reads that copy, never an app, so the phone's gRPC face reads it here; a real
//! console answers `KO: unknown command`.

use super::framework::Framework;
use super::snapshot::{SnapshotError, SnapshotInfo};
use super::telephony::{self, TelephonyError};

/// Runs one console line on the phone and returns everything the console prints for it.
pub fn run(fw: &mut Framework, line: &str) -> String {
    let line = line.trim_end_matches(['\r', '\n']);
    let mut words = line.splitn(2, ' ');
    let group = words.next().unwrap_or("");
    let rest = words.next().map(str::trim_start).unwrap_or("");
    let (command, args) = match rest.split_once(' ') {
        Some((c, a)) => (c, Some(a)),
        None if rest.is_empty() => ("", None),
        None => (rest, None),
    };
    fw.run_due_alarms();
    let reply = match group {
        "avd" => return avd(fw, rest),
        "gsm" => gsm(fw, command, args),
        "sms" => sms(fw, command, args),
        "clipboard" if command == "get" => {
            Ok(format!("{}\r\n", fw.sys.clipboard.text().unwrap_or("")))
        }
        "help" | "h" | "?" => Ok(HELP.to_string()),
        "" => return String::new(),
        _ => Err("unknown command, try 'help'".to_string()),
    };
    match reply {
        Ok(out) => format!("{out}OK\r\n"),
        Err(e) => format!("KO: {e}\r\n"),
    }
}

const HELP: &str = "Android console command help:\r\n\r\n    help|h|?         print a list of commands\r\n    avd              control virtual device execution\r\n    gsm              GSM related commands\r\n    sms              SMS related commands\r\n\r\ntry 'help <command>' for command-specific help\r\n";

/// `avd …`: the virtual device's state; of its sub-commands the phone has `status` and the
/// snapshot commands.
fn avd(fw: &mut Framework, rest: &str) -> String {
    const HELP: Help = Help {
        description:
            "allows you to control (e.g. start/stop) the execution of the virtual device\r\n",
        commands: &[
            ("status", "query virtual device status"),
            ("snapshot", "state snapshot commands"),
        ],
    };
    let (command, args) = split_command(rest);
    match command {
        "status" => "virtual device is running\r\nOK\r\n".to_string(),
        "snapshot" => snapshot(fw, args),
        "" => HELP.missing(),
        _ => HELP.bad(),
    }
}

/// `avd snapshot list|save|load|del|delete`, answered as the emulator's console and its QEMU
/// (`qemu_listvms`, `qemu_savevm`, `qemu_loadvm`, `qemu_delvm`) answer them.
fn snapshot(fw: &mut Framework, rest: &str) -> String {
    const HELP: Help = Help {
        description: "allows you to save and restore the virtual device state in snapshots\r\n",
        commands: &[
            ("list", "list available state snapshots"),
            ("save", "save state snapshot"),
            ("load", "load state snapshot"),
            ("del", "delete state snapshot"),
            ("delete", "delete state snapshot"),
        ],
    };
    let (command, args) = split_command(rest);
    let name = (!args.is_empty()).then_some(args);
    match (command, name) {
        ("list", _) => format!("{}OK\r\n", snapshot_list(&fw.snapshots())),
        ("save", None) => "KO: Argument missing, try 'avd snapshot save <name>'\r\n".into(),
        ("save", Some(name)) => match fw.save_snapshot(name) {
            Ok(()) => "OK\r\n".into(),
            Err(e) => format!("KO: {e}\r\n"),
        },
        ("load", None) => "KO: Argument missing, try 'avd snapshot load <name>'\r\n".into(),
        ("load", Some(name)) => match fw.load_snapshot(name) {
            Ok(()) => "OK\r\n".into(),
            Err(SnapshotError::NotFound(_)) => format!(
                "KO: Device 'system' does not have the requested snapshot '{name}'\r\n\
                 KO: Snapshot load failure: unknown failure\r\n"
            ),
            Err(e) => format!("KO: {e}\r\n"),
        },
        // The emulator's usage line for both names says `list`.
        ("del" | "delete", None) => {
            "KO: Argument missing, try 'avd snapshot list <name>'\r\n".into()
        }
        // QEMU deletes a snapshot no disk has without complaint.
        ("del" | "delete", Some(name)) => match fw.delete_snapshot(name) {
            Ok(()) | Err(SnapshotError::NotFound(_)) => "OK\r\n".into(),
            Err(e) => format!("KO: {e}\r\n"),
        },
        ("", _) => HELP.missing(),
        _ => HELP.bad(),
    }
}

/// `qemu_listvms`'s table (`bdrv_snapshot_dump`: `%-10s%-20s%7s%20s%15s`, the ID column `--` for
/// snapshots on every disk), dated by the phone's clock rather than the host's.
fn snapshot_list(snapshots: &[SnapshotInfo]) -> String {
    if snapshots.is_empty() {
        return "There is no snapshot available.\r\n".into();
    }
    let mut out = String::from("List of snapshots present on all disks:\r\n");
    out.push_str(&format!(
        "{:<10}{:<20}{:>7}{:>20}{:>15}\r\n",
        "ID", "TAG", "VM SIZE", "DATE", "VM CLOCK"
    ));
    for s in snapshots {
        let ms = s.uptime.as_millis();
        let secs = ms / 1000;
        let clock = format!(
            "{:02}:{:02}:{:02}.{:03}",
            secs / 3600,
            (secs / 60) % 60,
            secs % 60,
            ms % 1000
        );
        out.push_str(&format!(
            "{:<10}{:<20}{:>7}{:>20}{:>15}\r\n",
            "--",
            s.name,
            human_size(s.size),
            s.saved_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            clock
        ));
    }
    out
}

/// QEMU's `get_human_readable_size`: bytes up to 999, then one decimal below ten units, whole
/// (rounded) units above.
fn human_size(size: u64) -> String {
    if size <= 999 {
        return size.to_string();
    }
    let mut base: u64 = 1024;
    for (i, suffix) in ['K', 'M', 'G', 'T'].into_iter().enumerate() {
        if size < 10 * base {
            return format!("{:.1}{suffix}", size as f64 / base as f64);
        }
        if size < 1000 * base || i == 3 {
            return format!("{}{suffix}", (size + (base >> 1)) / base);
        }
        base *= 1024;
    }
    unreachable!("the last suffix always answers")
}

/// A command's word and the rest of the line, as the console's `find_command` splits them.
fn split_command(line: &str) -> (&str, &str) {
    match line.split_once(' ') {
        Some((c, a)) => (c, a.trim()),
        None => (line.trim(), ""),
    }
}

/// A command group's help, as the console's `dump_help` prints it before `KO: missing
/// sub-command` or `KO:  bad sub-command`.
struct Help {
    description: &'static str,
    commands: &'static [(&'static str, &'static str)],
}

impl Help {
    fn text(&self) -> String {
        let mut out = format!("{}\r\navailable sub-commands:\r\n", self.description);
        for (name, summary) in self.commands {
            out.push_str(&format!("    {name:<15}  {summary}\r\n"));
        }
        out.push_str("\r\n");
        out
    }

    fn missing(&self) -> String {
        format!("{}KO: missing sub-command\r\n", self.text())
    }

    fn bad(&self) -> String {
        format!("{}KO:  bad sub-command\r\n", self.text())
    }
}

fn gsm(fw: &mut Framework, command: &str, args: Option<&str>) -> Result<String, String> {
    let number = |usage: &str| -> Result<String, String> {
        let n = args
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .ok_or(format!("missing argument, try 'gsm {usage} <phonenumber>'"))?;
        if !telephony::valid_number(n) {
            return Err(TelephonyError::BadNumber.to_string());
        }
        Ok(n.to_string())
    };
    let done = |fw: &mut Framework, r: Result<(), TelephonyError>| {
        r.map_err(|e| e.to_string())?;
        fw.telephony_changed();
        Ok(String::new())
    };
    match command {
        "call" => {
            let n = number("call")?;
            let r = telephony::ring(&mut fw.sys, &n).map(|_| ());
            done(fw, r)
        }
        "accept" => {
            let n = number("accept")?;
            let r = telephony::accept(&mut fw.sys, &n);
            done(fw, r)
        }
        // The emulator's usage text for `cancel` names `gsm call`; kept as it prints it.
        "cancel" => {
            let n = number("call")?;
            let r = telephony::cancel(&mut fw.sys, &n);
            done(fw, r)
        }
        "busy" => {
            let n = number("busy")?;
            let outgoing = fw.sys.telephony.calls().iter().any(|c| {
                c.direction == telephony::Direction::Outgoing
                    && (c.number == n || crate::providers::phone_number::same_line(&c.number, &n))
            });
            if !outgoing {
                return Err(format!("no current outbound call to number '{n}'"));
            }
            let r = telephony::cancel(&mut fw.sys, &n);
            done(fw, r)
        }
        "hold" => {
            let n = number("hold")?;
            let r = telephony::hold(&mut fw.sys, &n);
            done(fw, r)
        }
        "list" => Ok(telephony::list(&fw.sys)),
        "status" => {
            if args.is_some() {
                return Err("no argument required".into());
            }
            Ok("gsm voice state: home\r\ngsm data state:  home\r\n".into())
        }
        "" => Err("missing sub-command, try 'help gsm'".into()),
        other => Err(format!("bad sub-command '{other}', try 'help gsm'")),
    }
}

fn sms(fw: &mut Framework, command: &str, args: Option<&str>) -> Result<String, String> {
    const MISSING: &str = "missing argument, try 'sms send <phonenumber> <text message>'";
    match command {
        "send" => {
            let (from, text) = args.and_then(|a| a.split_once(' ')).ok_or(MISSING)?;
            let digits = from.strip_prefix('+').unwrap_or(from);
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                return Err("bad phone number format, must be [+](0-9)*".into());
            }
            let body = unescape(text).ok_or(
                "badly formatted text", // the emulator prints the escape help before this line
            )?;
            telephony::receive_sms(&mut fw.sys, from, &body).map_err(|e| e.to_string())?;
            Ok(String::new())
        }
        "" => Err("missing sub-command, try 'help sms'".into()),
        other => Err(format!("bad sub-command '{other}', try 'help sms'")),
    }
}

/// The console's message escapes (`sms_utf8_from_message_str`): `\n`, `\xNN`, `\uNNNN`, `\\`;
/// anything else after a backslash is an error.
fn unescape(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            '\\' => out.push('\\'),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::unescape;

    #[test]
    fn message_escapes_follow_the_console() {
        assert_eq!(unescape("a\\nb").as_deref(), Some("a\nb"));
        assert_eq!(unescape("\\x41\\u00e9\\\\").as_deref(), Some("Aé\\"));
        assert_eq!(unescape("bad \\q"), None);
        assert_eq!(unescape("trailing \\"), None);
    }
}

//! The emulator console's telephony commands (`gsm call|accept|cancel|hold|busy|list|status`,
//! `sms send`), answered as the Android emulator's `android/console.c` answers them: output lines
//! end in `\r\n`, success ends with `OK`, failure is one `KO: …` line.
//!
//! [`run`] is one command line; the TCP console that `adb emu` and `telnet` reach is
//! `crate::adb::console`, and task setup reaches it through `device::Shell::console`.

use super::framework::Framework;
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
        "gsm" => gsm(fw, command, args),
        "sms" => sms(fw, command, args),
        "help" | "h" | "?" => Ok(HELP.to_string()),
        "" => return String::new(),
        _ => Err("unknown command, try 'help'".to_string()),
    };
    match reply {
        Ok(out) => format!("{out}OK\r\n"),
        Err(e) => format!("KO: {e}\r\n"),
    }
}

const HELP: &str = "Android console command help:\r\n\r\n    help|h|?         print a list of commands\r\n    gsm              GSM related commands\r\n    sms              SMS related commands\r\n\r\ntry 'help <command>' for command-specific help\r\n";

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
                    && (c.number == n
                        || crate::sim::providers::phone_number::same_line(&c.number, &n))
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

//! The phone's clock from the shell: toybox `date` (show, convert with `-d`, set with `-s` or a
//! positional date), toybox `sleep`, and `cmd alarm` (`set-time`, `get-time`). Setting the clock is
//! allowed to the shell here, as on a rooted emulator, because benchmark setups rely on it.

use chrono::format::{Item, StrftimeItems};
use chrono::{Datelike, NaiveDate, NaiveDateTime, NaiveTime};

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

/// toybox `date [-u] [-I RES] [-r FILE] [-d DATE] [+FORMAT] [-D SET_FORMAT] [SET]`.
pub fn date(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let now = fw.sys.clock.now();
    let mut format = "%a %b %e %H:%M:%S %Z %Y".to_string();
    let mut show: Option<String> = None;
    let mut set_flag: Option<String> = None;
    let mut positional: Vec<&str> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-u" | "--utc" => {}
            "-d" | "-s" | "-D" | "-r" | "-I" => {
                let Some(value) = args.get(i) else {
                    return ShellOutput::fail(
                        format!("date: Missing argument to {a} (see \"date --help\")\n"),
                        1,
                    );
                };
                i += 1;
                match a.as_str() {
                    "-d" => show = Some(value.clone()),
                    "-s" => set_flag = Some(value.clone()),
                    "-I" => match iso_format(value) {
                        Some(f) => format = f.to_string(),
                        None => return ShellOutput::fail(format!("date: bad -I: {value}\n"), 1),
                    },
                    // -D (strptime input format) and -r FILE: not offered; say so as toybox would
                    // for an unusable argument.
                    _ => return ShellOutput::fail(format!("date: bad date {value}\n"), 1),
                }
            }
            s if s.starts_with("-I") => match iso_format(&s[2..]) {
                Some(f) => format = f.to_string(),
                None => return ShellOutput::fail(format!("date: bad -I: {}\n", &s[2..]), 1),
            },
            s if s.starts_with('-')
                && s.len() > 1
                && !s[1..].starts_with(|c: char| c.is_ascii_digit()) =>
            {
                return ShellOutput::fail(
                    format!(
                        "date: Unknown option '{}' (see \"date --help\")\n",
                        s.trim_start_matches('-')
                    ),
                    1,
                )
            }
            s => positional.push(s),
        }
    }
    if positional.len() > 1 {
        return ShellOutput::fail("date: Max 1 argument (see \"date --help\")\n", 1);
    }
    let mut shown = match &show {
        Some(text) => match parse_date(text, now) {
            Some(t) => t,
            None => return ShellOutput::fail(format!("date: bad date {text}\n"), 1),
        },
        None => now,
    };
    let mut set = positional.first().map(|s| s.to_string());
    if let Some(s) = set_flag {
        if set.as_deref().is_some_and(|p| !p.starts_with('+')) {
            return ShellOutput::fail(
                "date: can't set two dates at once (see \"date --help\")\n",
                1,
            );
        }
        // toybox quirk kept: with -s, a `+FORMAT` argument only formats and nothing is set.
        match set.take() {
            Some(f) => format = f[1..].to_string(),
            None => set = Some(s),
        }
    } else if let Some(f) = set.as_deref().and_then(|s| s.strip_prefix('+')) {
        format = f.to_string();
        set = None;
    }
    if let Some(text) = set {
        let Some(t) = parse_date(&text, shown) else {
            return ShellOutput::fail(format!("date: bad date {text}\n"), 1);
        };
        fw.set_time(t);
        shown = t;
    }
    match strftime(shown, &format) {
        Some(text) => ShellOutput::ok(format!("{text}\n")),
        None => ShellOutput::fail(format!("date: bad format '{format}'\n"), 1),
    }
}

fn iso_format(res: &str) -> Option<&'static str> {
    Some(match res.chars().next().unwrap_or('d') {
        'd' => "%F",
        'h' => "%FT%H%:z",
        'm' => "%FT%R%:z",
        's' => "%FT%T%:z",
        'n' => "%FT%T,%N%:z",
        _ => return None,
    })
}

/// Formats as toybox does with strftime; the clock runs in UTC.
fn strftime(t: NaiveDateTime, format: &str) -> Option<String> {
    // chrono has no zone for a naive time, so the zone escapes are substituted first.
    let format = format
        .replace("%Z", "UTC")
        .replace("%:z", "+00:00")
        .replace("%z", "+0000")
        .replace("%N", "%9f");
    let items: Vec<Item> = StrftimeItems::new(&format).collect();
    if items.iter().any(|i| matches!(i, Item::Error)) {
        return None;
    }
    Some(t.and_utc().format_with_items(items.into_iter()).to_string())
}

/// toybox's `xparsedate`: `MMDDhhmm[[CC]YY][.ss]`, `@UNIXTIME[.FRACTION]`, `YYYY-MM-DD [hh:mm[:ss]]`
/// (a `T` may join them) and `hh:mm[:ss]` today; a trailing `Z` or `UTC` is accepted (the phone runs
/// in UTC). Fields missing from the shorter forms come from `now`.
pub fn parse_date(text: &str, now: NaiveDateTime) -> Option<NaiveDateTime> {
    let s = text.trim();
    let s = s
        .strip_suffix("UTC")
        .or_else(|| s.strip_suffix('Z'))
        .unwrap_or(s)
        .trim_end();
    if let Some(epoch) = s.strip_prefix('@') {
        let secs: f64 = epoch.parse().ok().filter(|v: &f64| v.is_finite())?;
        let ms = (secs * 1000.0).round() as i64;
        return chrono::DateTime::from_timestamp_millis(ms).map(|t| t.naive_utc());
    }
    if let Some((date, time)) = s
        .split_once([' ', 'T'])
        .or(Some((s, "")))
        .filter(|(d, _)| d.len() == 10 && d.as_bytes()[4] == b'-' && d.as_bytes()[7] == b'-')
    {
        let date = NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()?;
        let time = if time.trim().is_empty() {
            NaiveTime::MIN
        } else {
            clock_time(time.trim())?
        };
        return Some(date.and_time(time));
    }
    if s.contains(':') {
        return Some(now.date().and_time(clock_time(s)?));
    }
    posix_date(s, now)
}

/// `hh:mm[:ss[.frac]]`.
fn clock_time(s: &str) -> Option<NaiveTime> {
    NaiveTime::parse_from_str(s, "%H:%M:%S%.f")
        .or_else(|_| NaiveTime::parse_from_str(s, "%H:%M"))
        .ok()
}

/// POSIX `MMDDhhmm[[CC]YY][.ss]`. A two-digit year is the one within 50 years of now, as toybox
/// reads it.
fn posix_date(s: &str, now: NaiveDateTime) -> Option<NaiveDateTime> {
    let (main, secs) = match s.split_once('.') {
        Some((m, ss)) if ss.len() == 2 => (m, ss.parse::<u32>().ok()?),
        Some(_) => return None,
        None => (s, 0),
    };
    if !main.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let num = |r: std::ops::Range<usize>| main[r].parse::<u32>().ok();
    let (month, day, hour, minute) = match main.len() {
        8 | 10 | 12 => (num(0..2)?, num(2..4)?, num(4..6)?, num(6..8)?),
        _ => return None,
    };
    let year = match main.len() {
        12 => num(8..12)? as i32,
        10 => {
            let yy = num(8..10)? as i32;
            let century = now.year() - now.year().rem_euclid(100);
            let mut y = century + yy;
            if y > now.year() + 50 {
                y -= 100;
            } else if y <= now.year() - 50 {
                y += 100;
            }
            y
        }
        _ => now.year(),
    };
    NaiveDate::from_ymd_opt(year, month, day)?.and_hms_opt(hour, minute, secs)
}

/// toybox `sleep DURATION...`: seconds with an optional s/m/h/d suffix, fractions allowed.
pub fn sleep(fw: &mut Framework, args: &[String]) -> ShellOutput {
    if args.is_empty() {
        return ShellOutput::fail("sleep: Needs 1 argument (see \"sleep --help\")\n", 1);
    }
    let mut total_ms = 0.0;
    for arg in args {
        let (num, mult) = match arg.chars().last() {
            Some('s') => (&arg[..arg.len() - 1], 1.0),
            Some('m') => (&arg[..arg.len() - 1], 60.0),
            Some('h') => (&arg[..arg.len() - 1], 3600.0),
            Some('d') => (&arg[..arg.len() - 1], 86400.0),
            _ => (arg.as_str(), 1.0),
        };
        match num.parse::<f64>() {
            Ok(s) if s.is_finite() && s >= 0.0 => total_ms += s * mult * 1000.0,
            _ => return ShellOutput::fail(format!("sleep: Not a number '{arg}'\n"), 1),
        }
    }
    // Bounded to a year of phone time, so a typo cannot wedge a virtual clock at the end of time.
    let ms = total_ms.min(365.0 * 86_400_000.0) as i64;
    fw.sleep_ms(ms);
    ShellOutput::ok(Vec::new())
}

const ALARM_HELP: &str = "Alarm manager service (alarm) commands:
  help
    Print this help text.
  set-time TIME
    Set the system clock time to TIME where TIME is milliseconds since the Epoch.
  set-timezone TZ
    Set the system timezone to TZ where TZ is an Olson id.
  get-next-alarm USER_ID
    Prints the next alarm clock time in milliseconds since the Epoch for the given user.
";

/// `cmd alarm …` (AlarmManagerShellCommand).
pub fn cmd_alarm(fw: &mut Framework, args: &[String]) -> ShellOutput {
    match args.first().map(String::as_str) {
        None | Some("help") | Some("-h") => ShellOutput::ok(ALARM_HELP),
        Some("set-time") => {
            let Some(arg) = args.get(1) else {
                return ShellOutput::fail(
                    "Exception occurred while executing 'set-time':\n\
                     java.lang.IllegalArgumentException: Argument expected after \"set-time\"\n",
                    255,
                );
            };
            let Some(t) = arg
                .parse::<i64>()
                .ok()
                .and_then(chrono::DateTime::from_timestamp_millis)
            else {
                return ShellOutput::fail(
                    format!(
                        "Exception occurred while executing 'set-time':\n\
                         java.lang.NumberFormatException: For input string: \"{arg}\"\n"
                    ),
                    255,
                );
            };
            fw.set_time(t.naive_utc());
            ShellOutput::ok(Vec::new())
        }
        Some("set-timezone") => match args.get(1).map(String::as_str) {
            Some("UTC") | Some("GMT") | Some("Etc/UTC") => ShellOutput::ok(Vec::new()),
            Some(other) => ShellOutput::fail(
                format!(
                    "Exception occurred while executing 'set-timezone':\n\
                     java.lang.IllegalArgumentException: Timezone {other} is not supported by this phone (it runs in UTC)\n"
                ),
                255,
            ),
            None => ShellOutput::fail(
                "Exception occurred while executing 'set-timezone':\n\
                 java.lang.IllegalArgumentException: Argument expected after \"set-timezone\"\n",
                255,
            ),
        },
        Some("get-next-alarm") => {
            let next = fw.next_alarm_clock().map_or(0, |t| t.and_utc().timestamp_millis());
            ShellOutput::ok(format!("Next alarm clock at {next}\n"))
        }
        Some(other) => ShellOutput::fail(format!("Unknown command: {other}\n"), 255),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(y: i32, mo: u32, d: u32, h: u32, mi: u32, s: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, mo, d)
            .unwrap()
            .and_hms_opt(h, mi, s)
            .unwrap()
    }

    #[test]
    fn toybox_date_forms_parse() {
        let now = at(2024, 6, 3, 8, 0, 0);
        // What the task `set_time` op sends: MMDDhhmmCCYY.ss.
        assert_eq!(
            parse_date("112309302026.15", now),
            Some(at(2026, 11, 23, 9, 30, 15))
        );
        assert_eq!(
            parse_date("11230930", now),
            Some(at(2024, 11, 23, 9, 30, 0))
        );
        // Two-digit years fall within 50 years of now.
        assert_eq!(
            parse_date("1123093099", now),
            Some(at(1999, 11, 23, 9, 30, 0))
        );
        assert_eq!(
            parse_date("1123093030", now),
            Some(at(2030, 11, 23, 9, 30, 0))
        );
        assert_eq!(
            parse_date("2026-11-23 10:05:07", now),
            Some(at(2026, 11, 23, 10, 5, 7))
        );
        assert_eq!(
            parse_date("2026-11-23T10:05", now),
            Some(at(2026, 11, 23, 10, 5, 0))
        );
        assert_eq!(
            parse_date("2026-11-23", now),
            Some(at(2026, 11, 23, 0, 0, 0))
        );
        assert_eq!(parse_date("13:45", now), Some(at(2024, 6, 3, 13, 45, 0)));
        assert_eq!(parse_date("@0", now), Some(at(1970, 1, 1, 0, 0, 0)));
        for bad in [
            "",
            "tomorrow",
            "1399",
            "13320000",
            "2026-13-01",
            "25:00",
            "@x",
        ] {
            assert_eq!(parse_date(bad, now), None, "{bad:?}");
        }
    }

    #[test]
    fn formats_substitute_the_utc_zone() {
        let t = at(2026, 11, 23, 9, 5, 3);
        assert_eq!(
            strftime(t, "%a %b %e %H:%M:%S %Z %Y").unwrap(),
            "Mon Nov 23 09:05:03 UTC 2026"
        );
        assert_eq!(strftime(t, "%s").unwrap(), "1795424703");
        assert_eq!(
            strftime(t, "%FT%T%:z").unwrap(),
            "2026-11-23T09:05:03+00:00"
        );
        assert!(strftime(t, "%Q").is_none());
    }
}

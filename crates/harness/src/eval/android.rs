//! Parsers for the text real Android tools print, used by the evaluators: `content query` rows,
//! `logcat -v threadtime` lines, `dumpsys window`/`dumpsys activity` focus lines, `settings get`
//! values, shared_prefs XML, and `date +%s`. Pure functions over strings; no device access.

use std::collections::BTreeMap;

/// One `content query` row: column → value (`NULL` becomes `None`), in printed order.
pub type ContentRow = Vec<(String, Option<String>)>;

/// Parses `content query` output: one `Row: N col=value, col=value` line per row. Values may contain
/// `, ` themselves (SMS bodies), so a field ends only where the next `, name=` begins; `No result found.`
/// yields no rows. Lines that continue a multi-line value are appended to the previous field.
pub fn parse_content_rows(output: &str) -> Vec<ContentRow> {
    // Gather each row's full text first: a newline inside a value (message bodies) continues the row.
    let mut texts: Vec<String> = Vec::new();
    for line in output.lines() {
        match line
            .strip_prefix("Row: ")
            .and_then(|rest| rest.split_once(' '))
        {
            Some((index, fields)) if index.chars().all(|c| c.is_ascii_digit()) => {
                texts.push(fields.to_string())
            }
            _ => {
                if let Some(text) = texts.last_mut() {
                    text.push('\n');
                    text.push_str(line);
                }
            }
        }
    }
    texts.iter().map(|t| split_fields(t)).collect()
}

fn split_fields(fields: &str) -> ContentRow {
    // Field starts: position 0, and every ", " followed by an identifier and '='.
    let bytes = fields.as_bytes();
    let mut starts = vec![0usize];
    let mut i = 0;
    while i + 2 < bytes.len() {
        if bytes[i] == b',' && bytes[i + 1] == b' ' {
            let j = i + 2;
            let mut k = j;
            while k < bytes.len() && (bytes[k].is_ascii_alphanumeric() || bytes[k] == b'_') {
                k += 1;
            }
            if k > j && k < bytes.len() && bytes[k] == b'=' && !bytes[j].is_ascii_digit() {
                starts.push(j);
            }
        }
        i += 1;
    }
    let mut row = Vec::new();
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).map(|s| s - 2).unwrap_or(fields.len());
        let field = &fields[start..end];
        let (name, value) = field.split_once('=').unwrap_or((field, ""));
        let value = if value == "NULL" {
            None
        } else {
            Some(value.to_string())
        };
        row.push((name.to_string(), value));
    }
    row
}

/// A value of a content row by column name; `None` when the column is missing or NULL.
pub fn row_get<'a>(row: &'a ContentRow, column: &str) -> Option<&'a str> {
    row.iter()
        .find(|(name, _)| name == column)
        .and_then(|(_, v)| v.as_deref())
}

/// One `logcat -v threadtime` line: `10-15 15:34:01.123  1234  1250 I ActivityTaskManager: START …`.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    /// `MM-DD HH:MM:SS.mmm`, which sorts chronologically within a year.
    pub time: String,
    pub pid: u32,
    pub tid: u32,
    pub level: char,
    pub tag: String,
    pub message: String,
}

/// Parses threadtime lines; banners (`--------- beginning of main`) and damaged lines are skipped.
pub fn parse_logcat(output: &str) -> Vec<LogLine> {
    output.lines().filter_map(parse_log_line).collect()
}

fn parse_log_line(line: &str) -> Option<LogLine> {
    let mut parts = line.split_whitespace();
    let date = parts.next()?;
    let clock = parts.next()?;
    if date.len() != 5 || date.as_bytes().get(2) != Some(&b'-') || !clock.contains(':') {
        return None;
    }
    let pid = parts.next()?.parse().ok()?;
    let tid = parts.next()?.parse().ok()?;
    let level_s = parts.next()?;
    let level = level_s.chars().next()?;
    if level_s.len() != 1 || !"VDIWEFS".contains(level) {
        return None;
    }
    // The tag runs to the first ": " after the level; tags may contain spaces and dots.
    let after_level = line.find(&format!(" {level_s} "))? + 3;
    let rest = &line[after_level..];
    let (tag, message) = match rest.find(": ") {
        Some(i) => (&rest[..i], &rest[i + 2..]),
        None => (rest.trim_end_matches(':'), ""),
    };
    Some(LogLine {
        time: format!("{date} {clock}"),
        pid,
        tid,
        level,
        tag: tag.trim().to_string(),
        message: message.to_string(),
    })
}

/// A logcat filter spec `Tag:Level` (`*` tag matches any); levels order V < D < I < W < E < F.
#[derive(Debug, Clone, PartialEq)]
pub struct LogFilter {
    pub tag: String,
    pub level: char,
}

impl LogFilter {
    /// Parses `ActivityTaskManager:I`; a spec without a level means `V`.
    pub fn parse(spec: &str) -> Option<LogFilter> {
        let (tag, level) = match spec.rsplit_once(':') {
            Some((tag, level)) if level.len() == 1 => (tag, level.chars().next()?),
            Some(_) => return None,
            None => (spec, 'V'),
        };
        if tag.is_empty() || !"VDIWEFS".contains(level) {
            return None;
        }
        Some(LogFilter {
            tag: tag.to_string(),
            level,
        })
    }

    pub fn accepts(&self, line: &LogLine) -> bool {
        (self.tag == "*" || self.tag == line.tag)
            && level_rank(line.level) >= level_rank(self.level)
    }
}

fn level_rank(level: char) -> u8 {
    match level {
        'V' => 0,
        'D' => 1,
        'I' => 2,
        'W' => 3,
        'E' => 4,
        'F' => 5,
        _ => 6,
    }
}

/// The lines logged after a baseline dump taken at task start: everything after the baseline's last
/// line if that line is still in the buffer, otherwise (the ring dropped it) every line not older
/// than its timestamp.
pub fn lines_since<'a>(lines: &'a [LogLine], baseline_last: Option<&LogLine>) -> &'a [LogLine] {
    let Some(last) = baseline_last else {
        return lines;
    };
    if let Some(pos) = lines.iter().rposition(|l| l == last) {
        return &lines[pos + 1..];
    }
    let first_newer = lines
        .iter()
        .position(|l| l.time >= last.time)
        .unwrap_or(lines.len());
    &lines[first_newer..]
}

/// The focused app component from `dumpsys window` (`mCurrentFocus=Window{… u0 pkg/cls}`) or
/// `dumpsys activity activities` (`topResumedActivity=ActivityRecord{… u0 pkg/.Cls t12}`), with a
/// leading-dot class expanded. Returns `(package, activity)`.
pub fn parse_focus(output: &str) -> Option<(String, String)> {
    for key in [
        "mCurrentFocus=",
        "topResumedActivity=",
        "mResumedActivity:",
        "mFocusedApp=",
    ] {
        for line in output.lines() {
            let Some(at) = line.find(key) else { continue };
            let rest = &line[at + key.len()..];
            for token in rest.split(|c: char| c.is_whitespace() || c == '}' || c == '{') {
                if let Some((pkg, cls)) = token.split_once('/') {
                    if pkg.contains('.') && !cls.is_empty() {
                        let cls = if let Some(short) = cls.strip_prefix('.') {
                            format!("{pkg}.{short}")
                        } else {
                            cls.to_string()
                        };
                        return Some((pkg.to_string(), cls));
                    }
                }
            }
        }
    }
    None
}

/// `settings get` prints `null` for a missing key.
pub fn parse_setting(output: &str) -> Option<String> {
    let v = output.trim_end_matches(['\n', '\r']);
    if v == "null" {
        None
    } else {
        Some(v.to_string())
    }
}

/// `date +%s` (seconds) or `date +%s%3N` (milliseconds) → milliseconds.
pub fn parse_epoch_ms(output: &str) -> Option<i64> {
    let t = output.trim();
    let n: i64 = t.parse().ok()?;
    Some(if t.len() <= 10 { n * 1000 } else { n })
}

/// A shared_prefs XML file (`<map><string name="k">v</string><boolean name="b" value="true" /></map>`)
/// as key → value text. Unparseable XML yields an error naming the problem.
pub fn parse_shared_prefs(xml: &str) -> Result<BTreeMap<String, String>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = BTreeMap::new();
    let mut open: Option<String> = None;
    let mut text = String::new();
    loop {
        match reader.read_event() {
            Err(e) => return Err(format!("bad shared_prefs xml: {e}")),
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) if e.name().as_ref() != b"map" => {
                let mut name = None;
                let mut value = None;
                for attr in e.attributes().flatten() {
                    let v = attr
                        .unescape_value()
                        .map_err(|e| format!("bad attribute: {e}"))?
                        .into_owned();
                    match attr.key.as_ref() {
                        b"name" => name = Some(v),
                        b"value" => value = Some(v),
                        _ => {}
                    }
                }
                if let Some(name) = name {
                    match value {
                        Some(v) => {
                            out.insert(name, v);
                        }
                        None => {
                            open = Some(name);
                            text.clear();
                        }
                    }
                }
            }
            Ok(Event::Text(t)) if open.is_some() => {
                text.push_str(&t.unescape().map_err(|e| format!("bad text: {e}"))?);
            }
            Ok(Event::End(_)) => {
                if let Some(name) = open.take() {
                    out.insert(name, std::mem::take(&mut text));
                }
            }
            Ok(_) => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_rows_as_android_prints_them() {
        let out = "Row: 0 _id=3, address=+15550102030, body=Hi, are you free at 5, ok?, date=1697384040000, type=2\n\
                   Row: 1 _id=4, address=NULL, body=Second line\ncontinues here, date=1697384050000, type=1\n";
        let rows = parse_content_rows(out);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            row_get(&rows[0], "body"),
            Some("Hi, are you free at 5, ok?")
        );
        assert_eq!(row_get(&rows[0], "type"), Some("2"));
        assert_eq!(row_get(&rows[1], "address"), None);
        assert_eq!(
            row_get(&rows[1], "body"),
            Some("Second line\ncontinues here")
        );
        assert!(parse_content_rows("No result found.\n").is_empty());
    }

    #[test]
    fn contact_phones_projection() {
        let rows = parse_content_rows("Row: 0 display_name=Ana Lopez, number=+1 555-010-2030\n");
        assert_eq!(row_get(&rows[0], "display_name"), Some("Ana Lopez"));
        assert_eq!(row_get(&rows[0], "number"), Some("+1 555-010-2030"));
    }

    #[test]
    fn logcat_threadtime_lines() {
        let out = "--------- beginning of main\n\
10-15 15:34:01.123  1234  1250 I ActivityTaskManager: START u0 {act=android.intent.action.MAIN cmp=com.google.android.deskclock/com.android.deskclock.DeskClock} from uid 2000\n\
10-15 15:34:02.500  2211  2211 D ConditionProviders.SCP: nextUserAlarmTime=Mon Oct 16 10:30:00 GMT 2023\n\
10-15 15:34:03.000  2211  2211 D AlarmClock: Events: [Stopwatch] [Show Tab] [Tap]\n\
garbage line\n";
        let lines = parse_logcat(out);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].tag, "ActivityTaskManager");
        assert_eq!(lines[0].level, 'I');
        assert!(lines[0].message.starts_with("START u0"));
        assert_eq!(lines[1].tag, "ConditionProviders.SCP");
        assert_eq!(lines[2].message, "Events: [Stopwatch] [Show Tab] [Tap]");
        let f = LogFilter::parse("AlarmClock:D").unwrap();
        assert!(f.accepts(&lines[2]) && !f.accepts(&lines[0]));
        let info = LogFilter::parse("AlarmClock:I").unwrap();
        assert!(!info.accepts(&lines[2]), "D is below I");
        assert!(LogFilter::parse("AlarmClock:X").is_none());
        assert_eq!(lines_since(&lines, Some(&lines[0])).len(), 2);
        let dropped = LogLine {
            time: "10-15 15:34:02.000".into(),
            pid: 1,
            tid: 1,
            level: 'I',
            tag: "x".into(),
            message: "gone".into(),
        };
        assert_eq!(lines_since(&lines, Some(&dropped)).len(), 2);
    }

    #[test]
    fn focus_from_dumpsys() {
        let window = "  mCurrentFocus=Window{a1b2c3 u0 com.google.android.deskclock/com.android.deskclock.DeskClock}\n  mFocusedApp=ActivityRecord{...}\n";
        assert_eq!(
            parse_focus(window),
            Some((
                "com.google.android.deskclock".into(),
                "com.android.deskclock.DeskClock".into()
            ))
        );
        let activities =
            "    topResumedActivity=ActivityRecord{8f1 u0 com.android.settings/.Settings t12}\n";
        assert_eq!(
            parse_focus(activities),
            Some((
                "com.android.settings".into(),
                "com.android.settings.Settings".into()
            ))
        );
        assert_eq!(parse_focus("mCurrentFocus=null\n"), None);
    }

    #[test]
    fn settings_and_dates() {
        assert_eq!(parse_setting("null\n"), None);
        assert_eq!(parse_setting("1\n").as_deref(), Some("1"));
        assert_eq!(parse_epoch_ms("1697384040\n"), Some(1_697_384_040_000));
        assert_eq!(parse_epoch_ms("1697384040123"), Some(1_697_384_040_123));
        assert_eq!(parse_epoch_ms("Sun Oct 15"), None);
    }

    #[test]
    fn shared_prefs() {
        let xml = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    <boolean name=\"pref_dark\" value=\"true\" />\n    <string name=\"textSizeMultiplier\">-5</string>\n    <int name=\"count\" value=\"3\" />\n</map>\n";
        let map = parse_shared_prefs(xml).unwrap();
        assert_eq!(map["pref_dark"], "true");
        assert_eq!(map["textSizeMultiplier"], "-5");
        assert_eq!(map["count"], "3");
        assert!(parse_shared_prefs("<map><string name=\"a\">x</map>").is_err());
    }
}

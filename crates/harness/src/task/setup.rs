//! Setup and teardown steps, and the shell operations each becomes. Every step is an Android shell
//! command or a push, so the same task file prepares a real phone and the embedded one alike.

use droidmcp_device::command::sh_quote;

/// One step, strings possibly holding `{param}` placeholders until the task is instantiated.
#[derive(Debug, Clone, PartialEq)]
pub enum SetupStep {
    Shell {
        cmd: String,
        allow_fail: bool,
    },
    SettingsPut {
        ns: String,
        key: String,
        value: String,
    },
    /// SQL run with `sqlite3 DB 'SQL'` (root on a real device).
    Sql {
        db: String,
        sql: String,
    },
    /// `count` generated rows; column values come from parameter specs drawn per row. Becomes
    /// [`SetupStep::Sql`] when the task is instantiated.
    InsertRows {
        db: String,
        table: String,
        count: u32,
        columns: Vec<(String, super::params::ParamSpec, bool)>,
    },
    PushFile {
        path: String,
        content: String,
        mode: u32,
    },
    /// A picture of `text` (black on white) pushed as a JPEG or PNG by `path`'s extension: the
    /// receipts and lists AndroidWorld puts in the gallery ([`super::text_image`]).
    PushImage {
        path: String,
        text: String,
    },
    /// A generated media file pushed to shared storage ([`droidmcp_sim::media_file`]): a silent MP3
    /// with its ID3 title and artist, or an MP4 (320×240), `duration_ms` long (a template, so a
    /// drawn length), then the media scanner told of it as AndroidWorld tells it.
    PushMedia {
        path: String,
        title: String,
        artist: String,
        duration_ms: String,
    },
    ForceStop {
        package: String,
    },
    ClearApp {
        package: String,
    },
    /// Device clock as `YYYY-MM-DD HH:MM[:SS]`.
    SetTime {
        time: String,
    },
    Launch {
        package: String,
    },
    /// The primary clip, set through the Clipper app's receiver as AndroidWorld does
    /// (`am broadcast -a clipper.set -e text …`).
    SetClipboard {
        text: String,
    },
    Home,
    /// AndroidWorld's `end_call_if_active`: a ringing or active call is hung up with
    /// KEYCODE_ENDCALL, so a call left by the task before does not carry over on a device that
    /// runs episodes one after another. With no call nothing is pressed (ENDCALL then turns the
    /// screen off).
    EndCall,
    Wait {
        ms: u64,
    },
    /// A call from `number` rings (the emulator console's `gsm call`). With `ring_ms` the caller
    /// gives up after that long on the phone's clock (a missed call); with `talk_ms` as well the
    /// call is answered from the network side and lasts that long before the caller hangs up.
    IncomingCall {
        number: String,
        ring_ms: Option<u64>,
        talk_ms: Option<u64>,
    },
    /// A text from `from` arrives (the console's `sms send`), a second after the step before.
    IncomingSms {
        from: String,
        body: String,
    },
    /// `count` texts arrive one second apart, each sender and body drawn from its spec. Becomes
    /// [`SetupStep::IncomingSms`] steps when the task is instantiated.
    IncomingTexts {
        count: super::params::ParamSpec,
        from: super::params::ParamSpec,
        body: super::params::ParamSpec,
    },
    /// A contact written as the contacts provider writes one (see [`super::contact_seed`]).
    Contact(super::contact_seed::SeedContact),
}

/// What running a step means on the device.
#[derive(Debug, Clone, PartialEq)]
pub enum ShellOp {
    Exec {
        command: String,
        allow_fail: bool,
    },
    Push {
        path: String,
        data: Vec<u8>,
        mode: u32,
    },
    /// One emulator console line (`gsm call …`, `sms send …`); it must answer `OK`.
    Console {
        line: String,
    },
}

/// A message as the console's `sms send` takes it: one line, `\\` and `\n` escaped.
fn console_text(body: &str) -> String {
    body.replace('\\', "\\\\")
        .replace("\r\n", "\\n")
        .replace('\n', "\\n")
        .replace('\r', "\\n")
}

/// Provider tables whose rows the phone dates by its clock (the call log, texts and contacts it
/// holds before a task's setup, written relative to the clock when it booted): each database and
/// the SQL that moves its dates by `DELTA` milliseconds.
const DATED_ROWS: [(&str, &str); 3] = [
    (
        droidmcp_sim::providers::calllog::DB_PATH,
        "UPDATE calls SET date = date + DELTA WHERE date > 0",
    ),
    (
        droidmcp_sim::providers::telephony::DB_PATH,
        "UPDATE sms SET date = date + DELTA WHERE date > 0; \
         UPDATE sms SET date_sent = date_sent + DELTA WHERE date_sent > 0; \
         UPDATE threads SET date = date + DELTA WHERE date > 0",
    ),
    (
        droidmcp_sim::providers::contacts::DB_PATH,
        "UPDATE contacts SET contact_last_updated_timestamp = contact_last_updated_timestamp + DELTA \
           WHERE contact_last_updated_timestamp > 0; \
         UPDATE contacts SET last_time_contacted = last_time_contacted + DELTA WHERE last_time_contacted > 0; \
         UPDATE raw_contacts SET last_time_contacted = last_time_contacted + DELTA WHERE last_time_contacted > 0",
    ),
];

/// Sets the clock (network time off, then toybox date's settable form, `MMDDhhmm[[CC]YY][.ss]`;
/// the episode turns network time back on when it ends) and moves the provider
/// rows already on the phone by as much as the clock moved, so they keep their age on the new
/// clock: the phone's own call log and texts stay older than what the task writes after this
/// step, and "most recent", "last", "today" have one meaning. The shift is the clock's own
/// reading before the set, so the same line works on any phone whose shell may read the
/// databases (the embedded phone, a rooted device); a database the shell cannot see is skipped.
fn set_clock(t: chrono::NaiveDateTime) -> String {
    let to_ms = t.and_utc().timestamp_millis();
    let delta = format!("({to_ms} - $was * 1000)");
    // Network time off first, or a real phone would take the network's time back.
    let mut line = format!(
        "settings put global auto_time 0 && was=$(date +%s) && date {}",
        t.format("%m%d%H%M%Y.%S")
    );
    for (db, sql) in DATED_ROWS {
        let sql = sql.replace("DELTA", &delta);
        line.push_str(&format!(
            " && if [ -f {db} ]; then sqlite3 {db} \"{sql}\"; fi"
        ));
    }
    line
}

/// The longest one `sleep` command of setup sleeps: well inside the device-command limit
/// (`device::Limits`, 30 s), so a wait of any length passes on a real-clock phone.
const SLEEP_PIECE_MS: u64 = 10_000;

/// Waiting `ms` on the phone's clock: `sleep` commands of at most [`SLEEP_PIECE_MS`] each. `sleep`
/// moves a virtual clock (replays take no time) and waits on a real one, so a ring or a call lasts
/// that long as the phone sees it.
fn phone_sleep(ms: u64) -> Vec<ShellOp> {
    let mut ops = Vec::new();
    let mut left = ms;
    while left > 0 {
        let piece = left.min(SLEEP_PIECE_MS);
        ops.push(ShellOp::Exec {
            command: format!("sleep {}", piece as f64 / 1000.0),
            allow_fail: false,
        });
        left -= piece;
    }
    ops
}

/// The files `push_media` makes.
enum MediaKind {
    Mp3,
    Mp4,
}

/// What `push_media` makes for `path` and how long it plays, or why it can't.
fn media_kind(path: &str, duration_ms: &str) -> Result<(MediaKind, u64), String> {
    let ms: u64 = duration_ms
        .trim()
        .parse()
        .ok()
        .filter(|ms| (1..=4 * 3_600_000).contains(ms))
        .ok_or_else(|| {
            format!("push_media {path}: duration_ms {duration_ms:?} is not 1..=14400000")
        })?;
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".mp3") {
        Ok((MediaKind::Mp3, ms))
    } else if lower.ends_with(".mp4") {
        Ok((MediaKind::Mp4, ms))
    } else {
        Err(format!("push_media {path}: only .mp3 and .mp4 are made"))
    }
}

impl SetupStep {
    /// Whether this instantiated step can run: what [`SetupStep::ops`] would refuse, without
    /// making the files it pushes. Loading a task file checks every step with sample values, and
    /// drawing its receipts and encoding its songs there made every load of the suite cost a
    /// fifth of a CPU second.
    pub fn check(&self) -> Result<(), String> {
        match self {
            // Any text draws into a picture of the path's format.
            SetupStep::PushImage { .. } => Ok(()),
            SetupStep::PushMedia {
                path, duration_ms, ..
            } => media_kind(path, duration_ms).map(drop),
            _ => self.ops().map(drop),
        }
    }

    /// The operations that carry out this step (an instantiated step: no placeholders left).
    pub fn ops(&self) -> Result<Vec<ShellOp>, String> {
        let exec = |command: String| ShellOp::Exec {
            command,
            allow_fail: false,
        };
        Ok(match self {
            SetupStep::Shell { cmd, allow_fail } => vec![ShellOp::Exec {
                command: cmd.clone(),
                allow_fail: *allow_fail,
            }],
            SetupStep::SettingsPut { ns, key, value } => vec![exec(format!(
                "settings put {} {} {}",
                sh_quote(ns),
                sh_quote(key),
                sh_quote(value)
            ))],
            SetupStep::Sql { db, sql } => {
                vec![exec(format!("sqlite3 {} {}", sh_quote(db), sh_quote(sql)))]
            }
            SetupStep::InsertRows { .. } => {
                return Err("insert_rows must be instantiated before it runs".into())
            }
            SetupStep::PushFile {
                path,
                content,
                mode,
            } => {
                vec![ShellOp::Push {
                    path: path.clone(),
                    data: content.as_bytes().to_vec(),
                    mode: *mode,
                }]
            }
            SetupStep::PushImage { path, text } => vec![ShellOp::Push {
                path: path.clone(),
                data: super::text_image::encode(path, text)?,
                mode: 0o660,
            }],
            SetupStep::PushMedia {
                path,
                title,
                artist,
                duration_ms,
            } => {
                let data = match media_kind(path, duration_ms)? {
                    (MediaKind::Mp3, ms) => droidmcp_sim::media_file::mp3(title, artist, ms),
                    (MediaKind::Mp4, ms) => droidmcp_sim::media_file::mp4(ms, 320, 240),
                };
                let folder = path.rsplit_once('/').map_or("/", |(d, _)| d);
                let uri = format!(
                    "file://{}",
                    folder.replacen("/sdcard", "/storage/emulated/0", 1)
                );
                vec![
                    ShellOp::Push {
                        path: path.clone(),
                        data,
                        mode: 0o644,
                    },
                    ShellOp::Exec {
                        command: format!(
                            "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d {}",
                            sh_quote(&uri)
                        ),
                        allow_fail: true,
                    },
                ]
            }
            SetupStep::ForceStop { package } => {
                vec![exec(format!("am force-stop {}", sh_quote(package)))]
            }
            SetupStep::ClearApp { package } => {
                vec![exec(format!("pm clear {}", sh_quote(package)))]
            }
            SetupStep::SetTime { time } => {
                let t = chrono::NaiveDateTime::parse_from_str(time, "%Y-%m-%d %H:%M:%S")
                    .or_else(|_| chrono::NaiveDateTime::parse_from_str(time, "%Y-%m-%d %H:%M"))
                    .map_err(|e| format!("set_time {time:?}: {e}"))?;
                vec![exec(set_clock(t))]
            }
            SetupStep::Launch { package } => vec![exec(format!(
                "monkey -p {} -c android.intent.category.LAUNCHER 1",
                sh_quote(package)
            ))],
            SetupStep::SetClipboard { text } => vec![exec(format!(
                "am broadcast -a clipper.set -e text {}",
                sh_quote(text)
            ))],
            SetupStep::Home => vec![exec("input keyevent KEYCODE_HOME".into())],
            SetupStep::EndCall => vec![exec(
                "if dumpsys telephony.registry | grep -q 'mCallState=[12]'; then input keyevent KEYCODE_ENDCALL; fi"
                    .into(),
            )],
            SetupStep::Wait { ms } => phone_sleep(*ms),
            SetupStep::IncomingCall {
                number,
                ring_ms,
                talk_ms,
            } => {
                let number = droidmcp_sim::providers::phone_number::strip_separators(number);
                if !droidmcp_sim::telephony::valid_number(&number) {
                    return Err(format!("incoming_call: {number:?} is not a phone number"));
                }
                let console = |line: String| ShellOp::Console { line };
                let mut ops = vec![console(format!("gsm call {number}"))];
                if let Some(ring) = ring_ms {
                    ops.extend(phone_sleep(*ring));
                    if let Some(talk) = talk_ms {
                        ops.push(console(format!("gsm accept {number}")));
                        ops.extend(phone_sleep(*talk));
                    }
                    ops.push(console(format!("gsm cancel {number}")));
                }
                ops
            }
            SetupStep::IncomingSms { from, body } => {
                let from = droidmcp_sim::providers::phone_number::strip_separators(from);
                if from.is_empty()
                    || !from
                        .strip_prefix('+')
                        .unwrap_or(&from)
                        .chars()
                        .all(|c| c.is_ascii_digit())
                {
                    return Err(format!("incoming_sms: {from:?} is not a phone number"));
                }
                // A second apart, so texts that arrive in a row keep their order by date.
                vec![
                    exec("sleep 1".into()),
                    ShellOp::Console {
                        line: format!("sms send {from} {}", console_text(body)),
                    },
                ]
            }
            SetupStep::IncomingTexts { .. } => {
                return Err("incoming_texts must be instantiated before it runs".into())
            }
            SetupStep::Contact(contact) => vec![exec(format!(
                "sqlite3 {} {}",
                sh_quote(super::contact_seed::SeedContact::db()),
                sh_quote(&contact.sql()?)
            ))],
        })
    }

    /// Applies `f` to every string (parameter substitution).
    pub fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        match self {
            SetupStep::Shell { cmd, .. } => *cmd = f(cmd),
            SetupStep::SettingsPut { ns, key, value } => {
                *ns = f(ns);
                *key = f(key);
                *value = f(value);
            }
            SetupStep::Sql { db, sql } => {
                *db = f(db);
                *sql = f(sql);
            }
            SetupStep::InsertRows { db, table, .. } => {
                *db = f(db);
                *table = f(table);
            }
            SetupStep::PushFile { path, content, .. } => {
                *path = f(path);
                *content = f(content);
            }
            SetupStep::PushImage { path, text } => {
                *path = f(path);
                *text = f(text);
            }
            SetupStep::PushMedia {
                path,
                title,
                artist,
                duration_ms,
            } => {
                *path = f(path);
                *title = f(title);
                *artist = f(artist);
                *duration_ms = f(duration_ms);
            }
            SetupStep::ForceStop { package }
            | SetupStep::ClearApp { package }
            | SetupStep::Launch { package } => *package = f(package),
            SetupStep::SetTime { time } => *time = f(time),
            SetupStep::IncomingCall { number, .. } => *number = f(number),
            SetupStep::IncomingSms { from, body } => {
                *from = f(from);
                *body = f(body);
            }
            SetupStep::SetClipboard { text } => *text = f(text),
            SetupStep::Contact(c) => {
                c.first = f(&c.first);
                c.last = f(&c.last);
                c.phone = f(&c.phone);
            }
            SetupStep::Home
            | SetupStep::EndCall
            | SetupStep::Wait { .. }
            | SetupStep::IncomingTexts { .. } => {}
        }
    }

    pub fn describe(&self) -> String {
        match self.ops() {
            Ok(ops) => ops
                .iter()
                .map(|op| match op {
                    ShellOp::Exec { command, .. } => command.clone(),
                    ShellOp::Push { path, data, .. } => {
                        format!("push {path} ({} bytes)", data.len())
                    }
                    ShellOp::Console { line } => format!("console: {line}"),
                })
                .collect::<Vec<_>>()
                .join("; "),
            Err(_) => format!("{self:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_become_android_commands() {
        let sql = SetupStep::Sql {
            db: "/data/data/x/databases/a.db".into(),
            sql: "DELETE FROM t WHERE n='it''s'".into(),
        };
        assert_eq!(
            sql.ops().unwrap(),
            vec![ShellOp::Exec { command: "sqlite3 /data/data/x/databases/a.db 'DELETE FROM t WHERE n='\\''it'\\'''\\''s'\\'''".into(), allow_fail: false }]
        );
        let t = SetupStep::SetTime {
            time: "2023-10-15 15:34".into(),
        };
        let line = t.describe();
        assert!(
            line.starts_with(
                "settings put global auto_time 0 && was=$(date +%s) && date 101515342023.00 && if [ -f "
            ),
            "{line}"
        );
        assert!(line.contains("UPDATE calls SET date = date + (1697384040000 - $was * 1000)"));
        assert!(SetupStep::SetTime {
            time: "yesterday".into()
        }
        .ops()
        .is_err());
        assert_eq!(
            SetupStep::SettingsPut {
                ns: "global".into(),
                key: "airplane_mode_on".into(),
                value: "0".into()
            }
            .describe(),
            "settings put global airplane_mode_on 0"
        );
    }
}

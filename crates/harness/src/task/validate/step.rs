//! One setup or teardown step of a task file checked into a [`SetupStep`]: its op, its fields and
//! the placeholders its text may use.

use std::collections::BTreeMap;

use toml::Spanned;

use crate::task::error::LoadError;
use crate::task::params::{parse_spec, Value};
use crate::task::raw::RawStep;
use crate::task::setup::SetupStep;
use crate::task::template;
use crate::task::template::Context;

use super::{is_identifier, Cx};

pub(super) fn validate_step(
    cx: &Cx<'_>,
    raw: &Spanned<RawStep>,
    field: &str,
    sample: &BTreeMap<String, Value>,
) -> Result<SetupStep, LoadError> {
    let span = raw.span();
    let s = raw.get_ref();
    let op = s.op.get_ref().as_str();
    let err = |f: &str, m: String| cx.err(span.clone(), &format!("{field}: {f}"), m);
    let present: Vec<&str> = [
        ("cmd", s.cmd.is_some()),
        ("ns", s.ns.is_some()),
        ("key", s.key.is_some()),
        ("value", s.value.is_some()),
        ("db", s.db.is_some()),
        ("sql", s.sql.is_some()),
        ("table", s.table.is_some()),
        ("count", s.count.is_some()),
        ("columns", s.columns.is_some()),
        ("path", s.path.is_some()),
        ("content", s.content.is_some()),
        ("mode", s.mode.is_some()),
        ("package", s.package.is_some()),
        ("time", s.time.is_some()),
        ("text", s.text.is_some()),
        ("ms", s.ms.is_some()),
        ("allow_fail", s.allow_fail.is_some()),
        ("number", s.number.is_some()),
        ("ring_ms", s.ring_ms.is_some()),
        ("talk_ms", s.talk_ms.is_some()),
        ("from", s.from.is_some()),
        ("body", s.body.is_some()),
        ("first", s.first.is_some()),
        ("last", s.last.is_some()),
        ("phone", s.phone.is_some()),
        ("starred", s.starred.is_some()),
        ("replace", s.replace.is_some()),
    ]
    .into_iter()
    .filter_map(|(k, p)| p.then_some(k))
    .collect();
    let allowed: &[&str] = match op {
        "shell" => &["cmd", "allow_fail"],
        "settings_put" => &["ns", "key", "value"],
        "sql" => &["db", "sql"],
        "insert_rows" => &["db", "table", "count", "columns"],
        "push_file" => &["path", "content", "mode"],
        "push_image" => &["path", "text"],
        "push_media" => &["path", "title", "artist", "duration_ms"],
        "force_stop" | "clear_app" | "launch" => &["package"],
        "set_time" => &["time"],
        "set_clipboard" => &["text"],
        "home" | "end_call" => &[],
        "wait" => &["ms"],
        "incoming_call" => &["number", "ring_ms", "talk_ms"],
        "incoming_sms" => &["from", "body"],
        "incoming_texts" => &["count", "from", "body"],
        "contact" => &["first", "last", "phone", "starred", "replace"],
        other => {
            return Err(cx.err(
                s.op.span(),
                &format!("{field}: op"),
                format!("unknown op {other:?} (shell, settings_put, sql, insert_rows, push_file, push_image, push_media, force_stop, clear_app, launch, set_time, home, wait, end_call, incoming_call, incoming_sms, incoming_texts, set_clipboard, contact)"),
            ))
        }
    };
    if let Some(extra) = present.iter().find(|k| !allowed.contains(k)) {
        return Err(err(extra, format!("does not apply to op {op:?}")));
    }
    let need = |name: &str, v: &Option<String>| -> Result<String, LoadError> {
        v.clone()
            .ok_or_else(|| err(name, format!("op {op:?} needs {name}")))
    };
    let typed = |name: &str, text: &str, context: Context| -> Result<(), LoadError> {
        template::check_typed(text, context).map_err(|e| err(name, e))
    };
    let step = match op {
        "shell" => {
            let cmd = need("cmd", &s.cmd)?;
            typed("cmd", &cmd, Context::Shell)?;
            SetupStep::Shell {
                cmd,
                allow_fail: s.allow_fail.unwrap_or(false),
            }
        }
        "settings_put" => {
            let ns = need("ns", &s.ns)?;
            if !["global", "secure", "system"].contains(&ns.as_str()) {
                return Err(err(
                    "ns",
                    format!("unknown namespace {ns:?} (global, secure, system)"),
                ));
            }
            let value = match &s.value {
                Some(toml::Value::String(v)) => v.clone(),
                Some(toml::Value::Integer(i)) => i.to_string(),
                Some(toml::Value::Float(f)) => f.to_string(),
                Some(toml::Value::Boolean(b)) => (*b as i32).to_string(),
                _ => return Err(err("value", "settings_put needs a scalar value".into())),
            };
            SetupStep::SettingsPut {
                ns,
                key: need("key", &s.key)?,
                value,
            }
        }
        "sql" => {
            let sql = need("sql", &s.sql)?;
            typed("sql", &sql, Context::Sql)?;
            SetupStep::Sql {
                db: need("db", &s.db)?,
                sql,
            }
        }
        "insert_rows" => {
            let count = s
                .count
                .as_ref()
                .and_then(toml::Value::as_integer)
                .filter(|c| (1..=1000).contains(c))
                .ok_or_else(|| err("count", "count must be in 1..=1000".into()))?;
            let raw_columns = s
                .columns
                .as_ref()
                .ok_or_else(|| err("columns", "insert_rows needs columns".into()))?;
            let table = need("table", &s.table)?;
            if !is_identifier(&table) {
                return Err(err(
                    "table",
                    format!("{table:?} is not a plain SQL table name"),
                ));
            }
            let mut columns = Vec::new();
            for (name, v) in raw_columns {
                if !is_identifier(name) {
                    return Err(err(
                        &format!("columns.{name}"),
                        "column names are plain SQL identifiers (letters, digits, '_')".into(),
                    ));
                }
                let is_template = matches!(v, toml::Value::String(t) if t.contains('{'));
                let spec = parse_spec(v).map_err(|e| err(&format!("columns.{name}"), e))?;
                columns.push((name.clone(), spec, is_template));
            }
            SetupStep::InsertRows {
                db: need("db", &s.db)?,
                table,
                count: count as u32,
                columns,
            }
        }
        "push_file" => {
            let mode = s.mode.unwrap_or(0o644);
            SetupStep::PushFile {
                path: need("path", &s.path)?,
                content: s.content.clone().unwrap_or_default(),
                mode: mode as u32,
            }
        }
        "push_image" => SetupStep::PushImage {
            path: need("path", &s.path)?,
            text: need("text", &s.text)?,
        },
        "push_media" => SetupStep::PushMedia {
            path: need("path", &s.path)?,
            title: s.title.clone().unwrap_or_default(),
            artist: s.artist.clone().unwrap_or_default(),
            duration_ms: match &s.duration_ms {
                Some(toml::Value::String(t)) => t.clone(),
                Some(toml::Value::Integer(n)) => n.to_string(),
                _ => return Err(err("duration_ms", "push_media needs duration_ms".into())),
            },
        },
        "force_stop" => SetupStep::ForceStop {
            package: need("package", &s.package)?,
        },
        "clear_app" => SetupStep::ClearApp {
            package: need("package", &s.package)?,
        },
        "launch" => SetupStep::Launch {
            package: need("package", &s.package)?,
        },
        "set_time" => SetupStep::SetTime {
            time: need("time", &s.time)?,
        },
        "set_clipboard" => SetupStep::SetClipboard {
            text: need("text", &s.text)?,
        },
        "home" => SetupStep::Home,
        "end_call" => SetupStep::EndCall,
        "incoming_call" => {
            let span = |name: &str, v: Option<i64>| -> Result<Option<u64>, LoadError> {
                v.map(|ms| {
                    (0..=60_000)
                        .contains(&ms)
                        .then_some(ms as u64)
                        .ok_or_else(|| err(name, format!("{name} must be in 0..=60000")))
                })
                .transpose()
            };
            let ring_ms = span("ring_ms", s.ring_ms)?;
            let talk_ms = span("talk_ms", s.talk_ms)?;
            if talk_ms.is_some() && ring_ms.is_none() {
                return Err(err(
                    "talk_ms",
                    "talk_ms needs ring_ms (how long it rang before it was answered)".into(),
                ));
            }
            SetupStep::IncomingCall {
                number: need("number", &s.number)?,
                ring_ms,
                talk_ms,
            }
        }
        "incoming_sms" => {
            let text = |name: &str, v: &Option<toml::Value>| match v {
                Some(toml::Value::String(t)) => Ok(t.clone()),
                Some(_) => Err(err(
                    name,
                    format!("{name} is a string (incoming_texts draws them)"),
                )),
                None => Err(err(name, format!("op {op:?} needs {name}"))),
            };
            SetupStep::IncomingSms {
                from: text("from", &s.from)?,
                body: text("body", &s.body)?,
            }
        }
        "incoming_texts" => {
            let spec = |name: &str, v: &Option<toml::Value>| {
                let v = v
                    .as_ref()
                    .ok_or_else(|| err(name, format!("op {op:?} needs {name}")))?;
                parse_spec(v).map_err(|e| err(name, e))
            };
            SetupStep::IncomingTexts {
                count: spec("count", &s.count)?,
                from: spec("from", &s.from)?,
                body: spec("body", &s.body)?,
            }
        }
        "contact" => {
            if s.first.is_none() && s.last.is_none() {
                return Err(err("first", "op \"contact\" needs first or last".into()));
            }
            if s.replace.is_some_and(|id| id < 1) {
                return Err(err(
                    "replace",
                    "replace names a contacts._id (1 or more)".into(),
                ));
            }
            SetupStep::Contact(crate::task::contact_seed::SeedContact {
                first: s.first.clone().unwrap_or_default(),
                last: s.last.clone().unwrap_or_default(),
                phone: need("phone", &s.phone)?,
                starred: s.starred.unwrap_or(false),
                replace: s.replace,
            })
        }
        _ => SetupStep::Wait {
            ms: s
                .ms
                .filter(|ms| (0..=60_000).contains(ms))
                .ok_or_else(|| err("ms", "wait needs ms in 0..=60000".into()))?
                as u64,
        },
    };
    // Placeholders must resolve, and the rendered step must be executable.
    let mut rendered = step.clone();
    let mut bad = None;
    rendered.map_strings(&mut |t| match template::render(t, sample) {
        Ok(r) => r,
        Err(e) => {
            bad.get_or_insert(e);
            t.to_string()
        }
    });
    if let Some(e) = bad {
        return Err(err("", e));
    }
    if !matches!(
        rendered,
        SetupStep::InsertRows { .. } | SetupStep::IncomingTexts { .. }
    ) {
        rendered.check().map_err(|e| err("", e))?;
    }
    Ok(step)
}

//! Parameters as task files write them (`{ choices = [..] }`, `{ range = [lo, hi] }`,
//! `{ gen = "date", … }`), checked key by key so a typo is an error naming the allowed keys.

use chrono::NaiveDate;

use super::{Generator, ParamSpec, RelativeDay, Value};
use crate::task::note_params;

/// Parses a parameter's TOML value. Forms: a literal (string, integer, float, bool); `{ choices = [..] }`
/// whose items are literals or tables with `text` plus extra fields; `{ range = [lo, hi], step = n }`;
/// `{ range = [0.5, 9.5], decimals = 1 }`; `{ add = ["hour", -2] }`; `{ gen = "date", from = "…",
/// to = "…" }`, `{ gen = "time", hours = [9, 17], minutes = [0, 30] }`, `{ gen = "digits", len = 5 }`,
/// and the argument-free generators.
pub fn parse_spec(v: &toml::Value) -> Result<ParamSpec, String> {
    use toml::Value as T;
    let literal = |v: &T| -> Result<Value, String> {
        match v {
            T::String(s) => Ok(Value::plain(s.clone())),
            T::Integer(i) => Ok(Value::plain(i.to_string())),
            T::Float(f) => Ok(Value::plain(f.to_string())),
            T::Boolean(b) => Ok(Value::plain(b.to_string())),
            T::Table(t) => {
                let text = t.get("text").ok_or("a choice table needs a `text` key")?;
                let mut value = Value::plain(scalar(text)?);
                for (k, v) in t {
                    if k != "text" {
                        value.fields.insert(k.clone(), scalar(v)?);
                    }
                }
                Ok(value)
            }
            other => Err(format!("unsupported value {other}")),
        }
    };
    let T::Table(t) = v else {
        return Ok(ParamSpec::Literal(literal(v)?));
    };
    let allowed = |keys: &[&str]| -> Result<(), String> {
        match t.keys().find(|k| !keys.contains(&k.as_str())) {
            Some(k) => Err(format!(
                "unexpected key {k:?} (allowed: {})",
                keys.join(", ")
            )),
            None => Ok(()),
        }
    };
    if let Some(c) = t.get("choices") {
        allowed(&["choices"])?;
        let items = c.as_array().ok_or("choices must be an array")?;
        if items.is_empty() {
            return Err("choices is empty".into());
        }
        return Ok(ParamSpec::Choices(
            items.iter().map(literal).collect::<Result<_, _>>()?,
        ));
    }
    if let Some(r) = t.get("range") {
        let r = r
            .as_array()
            .filter(|a| a.len() == 2)
            .ok_or("range must be [lo, hi]")?;
        if let (Some(lo), Some(hi)) = (r[0].as_integer(), r[1].as_integer()) {
            allowed(&["range", "step"])?;
            let step = t
                .get("step")
                .map(|s| s.as_integer().ok_or("step must be an integer"))
                .transpose()?
                .unwrap_or(1);
            if lo > hi || step <= 0 {
                return Err(format!("empty range [{lo}, {hi}] step {step}"));
            }
            return Ok(ParamSpec::Range { lo, hi, step });
        }
        allowed(&["range", "decimals"])?;
        let f = |v: &T| {
            v.as_float()
                .or(v.as_integer().map(|i| i as f64))
                .ok_or("range bounds must be numbers")
        };
        let (lo, hi) = (f(&r[0])?, f(&r[1])?);
        if lo > hi {
            return Err(format!("empty range [{lo}, {hi}]"));
        }
        let decimals = t
            .get("decimals")
            .and_then(T::as_integer)
            .unwrap_or(2)
            .clamp(0, 9) as usize;
        return Ok(ParamSpec::Decimal { lo, hi, decimals });
    }
    if let Some(a) = t.get("add") {
        allowed(&["add"])?;
        let a = a
            .as_array()
            .filter(|a| a.len() == 2)
            .ok_or("add must be [\"param\", integer]")?;
        let base = a[0]
            .as_str()
            .ok_or("add: first item must be a parameter name")?;
        let delta = a[1]
            .as_integer()
            .ok_or("add: second item must be an integer")?;
        return Ok(ParamSpec::Add {
            base: base.to_string(),
            delta,
        });
    }
    if let Some(m) = t.get("plus_minutes") {
        allowed(&["plus_minutes", "of"])?;
        let name = |v: Option<&T>, what: &str| {
            v.and_then(T::as_str)
                .map(str::to_string)
                .ok_or(format!("plus_minutes: {what} must be a parameter name"))
        };
        return Ok(ParamSpec::PlusMinutes {
            minutes: name(Some(m), "plus_minutes")?,
            base: name(t.get("of"), "of")?,
        });
    }
    if let Some(d) = t.get("date") {
        allowed(&["date", "of", "at"])?;
        let anchor = t
            .get("of")
            .and_then(T::as_str)
            .ok_or("a relative date needs of = \"<the parameter set_time puts on the clock>\"")?;
        let phrases = match d {
            T::String(s) => vec![RelativeDay::parse(s)?],
            T::Array(a) if !a.is_empty() => a
                .iter()
                .map(|p| {
                    p.as_str()
                        .ok_or_else(|| "date: phrases are strings".to_string())
                        .and_then(RelativeDay::parse)
                })
                .collect::<Result<_, _>>()?,
            _ => return Err("date must be a phrase or a non-empty list of phrases".into()),
        };
        let at = match t.get("at") {
            Some(a) => Some(
                a.as_str()
                    .ok_or("at must be the name of a time parameter")?
                    .to_string(),
            ),
            None => None,
        };
        return Ok(ParamSpec::Relative {
            anchor: anchor.to_string(),
            phrases,
            at,
        });
    }
    let gen = t
        .get("gen")
        .and_then(T::as_str)
        .ok_or("a parameter table needs one of choices, range, add, date, gen")?;
    let date = |key: &str| -> Result<NaiveDate, String> {
        let s = t
            .get(key)
            .and_then(T::as_str)
            .ok_or_else(|| format!("gen = \"date\" needs {key} = \"YYYY-MM-DD\""))?;
        NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|e| format!("{key} = {s:?}: {e}"))
    };
    let g = match gen {
        "phone_number" => Generator::PhoneNumber,
        "person" | "name" => Generator::Person,
        "first_name" => Generator::FirstName,
        "last_name" => Generator::LastName,
        "sentence" | "message" => Generator::Sentence,
        "event_title" => Generator::EventTitle,
        "aw_event_title" => Generator::AwEventTitle,
        "aw_event_description" => Generator::AwEventDescription,
        "word" => Generator::Word,
        "address" => Generator::Address,
        "date" => {
            allowed(&["gen", "from", "to"])?;
            let (from, to) = (date("from")?, date("to")?);
            if from > to {
                return Err(format!("from {from} is after to {to}"));
            }
            Generator::Date { from, to }
        }
        "time" | "datetime" => {
            if gen == "time" {
                allowed(&["gen", "hours", "minutes"])?;
            } else {
                allowed(&["gen", "from", "to", "hours", "minutes"])?;
            }
            let hours = match t.get("hours").and_then(T::as_array) {
                Some(h) if h.len() == 2 => {
                    let a = h[0]
                        .as_integer()
                        .filter(|h| (0..24).contains(h))
                        .ok_or("hours must be in 0..=23")?;
                    let b = h[1]
                        .as_integer()
                        .filter(|h| (a..24).contains(h))
                        .ok_or("hours must be [lo, hi] in 0..=23")?;
                    (a as u32, b as u32)
                }
                Some(_) => return Err("hours must be [lo, hi]".into()),
                None => (0, 23),
            };
            let minutes = match t.get("minutes").and_then(T::as_array) {
                Some(m) => m
                    .iter()
                    .map(|m| {
                        m.as_integer()
                            .filter(|m| (0..60).contains(m))
                            .map(|m| m as u32)
                            .ok_or("minutes must be in 0..=59")
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                None => vec![0, 15, 30, 45],
            };
            if gen == "time" {
                Generator::Time { hours, minutes }
            } else {
                let (from, to) = (date("from")?, date("to")?);
                if from > to {
                    return Err(format!("from {from} is after to {to}"));
                }
                Generator::DateTime {
                    from,
                    to,
                    hours,
                    minutes,
                }
            }
        }
        "digits" => {
            allowed(&["gen", "len"])?;
            let len = t
                .get("len")
                .and_then(T::as_integer)
                .filter(|l| (1..=15).contains(l))
                .ok_or("digits needs len in 1..=15")?;
            Generator::Digits { len: len as usize }
        }
        "file_name" => {
            allowed(&["gen", "ext"])?;
            let extensions = match t.get("ext") {
                None => Vec::new(),
                Some(v) => v
                    .as_array()
                    .ok_or("ext must be a list of extensions like \".md\"")?
                    .iter()
                    .map(|e| {
                        e.as_str()
                            .filter(|e| e.len() > 1 && e.starts_with('.'))
                            .map(str::to_string)
                            .ok_or("ext must be a list of extensions like \".md\"")
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            };
            Generator::FileName { extensions }
        }
        "folder_name" => {
            allowed(&["gen", "from"])?;
            let from = t
                .get("from")
                .and_then(T::as_array)
                .filter(|a| !a.is_empty())
                .ok_or("folder_name needs from = [names]")?
                .iter()
                .map(|n| {
                    n.as_str()
                        .filter(|n| note_params::parse_file_name(n, &[]).is_ok())
                        .map(str::to_string)
                        .ok_or("from must list folder names")
                })
                .collect::<Result<Vec<_>, _>>()?;
            Generator::FolderName { from }
        }
        "distinct" => {
            allowed(&["gen", "from", "slot", "of"])?;
            let from = t
                .get("from")
                .and_then(T::as_array)
                .ok_or("distinct needs from = [items]")?
                .iter()
                .map(|n| {
                    n.as_str()
                        .map(str::to_string)
                        .ok_or("from must list strings")
                })
                .collect::<Result<Vec<_>, _>>()?;
            let of = t.get("of").and_then(T::as_integer).unwrap_or(0);
            let slot = t.get("slot").and_then(T::as_integer).unwrap_or(-1);
            if of < 1 || slot < 0 || slot >= of || (from.len() as i64) < of {
                return Err("distinct needs 0 <= slot < of <= the number of items".into());
            }
            Generator::Distinct {
                from,
                slot: slot as usize,
                of: of as usize,
            }
        }
        "random_string" => {
            allowed(&["gen", "len"])?;
            let len = t
                .get("len")
                .and_then(T::as_integer)
                .filter(|l| (1..=64).contains(l))
                .ok_or("random_string needs len in 1..=64")?;
            Generator::RandomString { len: len as usize }
        }
        "text" => Generator::Text,
        "receipt_rows" => Generator::ReceiptRows,
        other => {
            return Err(format!(
                "unknown generator {other:?} (known: {})",
                Generator::NAMES.join(", ")
            ));
        }
    };
    if !matches!(
        g,
        Generator::Date { .. }
            | Generator::Time { .. }
            | Generator::DateTime { .. }
            | Generator::Digits { .. }
            | Generator::FileName { .. }
            | Generator::FolderName { .. }
            | Generator::RandomString { .. }
            | Generator::Distinct { .. }
    ) {
        allowed(&["gen"])?;
    }
    Ok(ParamSpec::Gen(g))
}

fn scalar(v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        other => Err(format!("expected a string or number, got {other}")),
    }
}

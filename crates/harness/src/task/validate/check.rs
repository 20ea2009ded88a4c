//! A task file's checks and matchers checked into [`Check`]s: each probe's fields, its rows and
//! matchers, regexes compiled at load.

use std::collections::BTreeMap;

use crate::eval::android::LogFilter;
use crate::eval::answer::AnswerMatch;
use crate::eval::check::{Expected, FileTest, Probe, RowsTest, SqliteTest, When};
use crate::eval::matcher::{Matcher, NumOp};
use crate::eval::sqlite::RowMatch;
use crate::eval::ui::UiPredicate;
use crate::eval::Check;
use crate::task::raw::RawCheck;
use crate::task::template;
use crate::task::template::Context;
use droidmcp_hierarchy::Selector;

use super::{fe, FieldError};

/// Parses a matcher value: a string (equality), a number (numeric equality), a bool, or a table with
/// one of eq, ne, regex, contains, starts_with, fuzzy (+threshold), phone, num (+tol), gt, ge, lt, le,
/// within_ms, null, not_null.
pub fn parse_matcher(v: &toml::Value) -> Result<Matcher, String> {
    use toml::Value as T;
    let text = |v: &T| -> Result<String, String> {
        match v {
            T::String(s) => Ok(s.clone()),
            T::Integer(i) => Ok(i.to_string()),
            T::Float(f) => Ok(f.to_string()),
            T::Boolean(b) => Ok(b.to_string()),
            other => Err(format!("expected a scalar, got {other}")),
        }
    };
    match v {
        T::String(s) => Ok(Matcher::Eq(s.clone())),
        T::Integer(_) | T::Float(_) => Ok(Matcher::Num {
            op: NumOp::Eq,
            value: text(v)?,
            tol: 0.0,
        }),
        T::Boolean(b) => Ok(Matcher::Eq(b.to_string())),
        T::Table(t) => {
            let tol = t
                .get("tol")
                .and_then(|x| x.as_float().or(x.as_integer().map(|i| i as f64)))
                .unwrap_or(0.0);
            let threshold = t.get("threshold").and_then(T::as_float).unwrap_or(0.9);
            let main: Vec<&String> = t
                .keys()
                .filter(|k| *k != "tol" && *k != "threshold")
                .collect();
            let [key] = main[..] else {
                return Err(format!(
                    "a matcher table needs exactly one test, got {main:?}"
                ));
            };
            let val = &t[key.as_str()];
            let num = |op| {
                Ok(Matcher::Num {
                    op,
                    value: text(val)?,
                    tol,
                })
            };
            match key.as_str() {
                "eq" => Ok(Matcher::Eq(text(val)?)),
                "ne" => Ok(Matcher::Ne(text(val)?)),
                "regex" => Ok(Matcher::Regex(text(val)?)),
                "contains" => Ok(Matcher::Contains(text(val)?)),
                "starts_with" => Ok(Matcher::StartsWith(text(val)?)),
                "fuzzy" => Ok(Matcher::Fuzzy { text: text(val)?, threshold }),
                "phone" => Ok(Matcher::Phone(text(val)?)),
                "num" => num(NumOp::Eq),
                "num_ne" => num(NumOp::Ne),
                "gt" => num(NumOp::Gt),
                "ge" => num(NumOp::Ge),
                "lt" => num(NumOp::Lt),
                "le" => num(NumOp::Le),
                "within_ms" => val.as_integer().filter(|n| *n > 0).map(Matcher::WithinMs).ok_or_else(|| "within_ms needs a positive integer".to_string()),
                "today" if val.as_bool() == Some(true) => Ok(Matcher::Today { at_ms: None }),
                "today" => Err("today = true is the only form".into()),
                "today_at" => Ok(Matcher::Today { at_ms: Some(text(val)?) }),
                "null" => Ok(Matcher::Null),
                "not_null" => Ok(Matcher::NotNull),
                other => Err(format!("unknown matcher {other:?} (eq, ne, regex, contains, starts_with, fuzzy, phone, num, gt, ge, lt, le, within_ms, today, today_at, null, not_null)")),
            }
        }
        other => Err(format!(
            "a matcher is a string, number or table, got {other}"
        )),
    }
}

/// `op` + `value` (`op = "ne", value = "0"`) or a bare matcher `value`.
fn op_value(op: &Option<String>, value: &Option<toml::Value>) -> Result<Matcher, FieldError> {
    let value = value.as_ref().ok_or_else(|| fe("value", "needs value"))?;
    let Some(op) = op else {
        return parse_matcher(value).map_err(|e| fe("value", e));
    };
    let text = match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        _ => return Err(fe("value", "with op, value must be a scalar")),
    };
    let num = |op| Matcher::Num {
        op,
        value: text.clone(),
        tol: 0.0,
    };
    Ok(match op.as_str() {
        "eq" => Matcher::Eq(text),
        "ne" => Matcher::Ne(text),
        "regex" => Matcher::Regex(text),
        "contains" => Matcher::Contains(text),
        "fuzzy" => Matcher::Fuzzy {
            text,
            threshold: 0.9,
        },
        "gt" => num(NumOp::Gt),
        "ge" => num(NumOp::Ge),
        "lt" => num(NumOp::Lt),
        "le" => num(NumOp::Le),
        "num" => num(NumOp::Eq),
        other => {
            return Err(fe(
                "op",
                format!(
                    "unknown op {other:?} (eq, ne, regex, contains, fuzzy, gt, ge, lt, le, num)"
                ),
            ))
        }
    })
}

fn row_match(
    m: &Option<BTreeMap<String, toml::Value>>,
    field: &str,
) -> Result<RowMatch, FieldError> {
    let mut out = Vec::new();
    for (col, v) in m.iter().flatten() {
        out.push((
            col.clone(),
            parse_matcher(v).map_err(|e| fe(&format!("{field}.{col}"), e))?,
        ));
    }
    Ok(out)
}

pub(super) fn validate_check(c: &RawCheck) -> Result<Check, FieldError> {
    let kind = c.kind.get_ref().as_str();
    let present: Vec<&str> = [
        ("gate", c.gate.is_some()),
        ("ns", c.ns.is_some()),
        ("key", c.key.is_some()),
        ("op", c.op.is_some()),
        ("value", c.value.is_some()),
        ("cmd", c.cmd.is_some()),
        ("uri", c.uri.is_some()),
        ("projection", c.projection.is_some()),
        ("where", c.selection.is_some()),
        ("match", c.match_.is_some()),
        ("mode", c.mode.is_some()),
        ("count", c.count.is_some()),
        ("column", c.column.is_some()),
        ("db", c.db.is_some()),
        ("query", c.query.is_some()),
        ("table", c.table.is_some()),
        ("row_key", c.row_key.is_some()),
        ("ignore", c.ignore.is_some()),
        ("expect", c.expect.is_some()),
        ("exact", c.exact.is_some()),
        ("path", c.path.is_some()),
        ("filters", c.filters.is_some()),
        ("regex", c.regex.is_some()),
        ("package", c.package.is_some()),
        ("activity", c.activity.is_some()),
        ("selector", c.selector.is_some()),
        ("attrs", c.attrs.is_some()),
        ("present", c.present.is_some()),
        ("step", c.step.is_some()),
        ("min_ratio", c.min_ratio.is_some()),
        ("expected", c.expected.is_some()),
        ("expected_from", c.expected_from.is_some()),
        ("compare", c.compare.is_some()),
        ("tolerance", c.tolerance.is_some()),
        ("threshold", c.threshold.is_some()),
        ("list", c.list.is_some()),
    ]
    .into_iter()
    .filter_map(|(k, p)| p.then_some(k))
    .collect();
    let allowed: &[&str] = match kind {
        "settings" => &["ns", "key", "op", "value"],
        "shell" => &["cmd", "op", "value", "regex"],
        "content" => &["uri", "projection", "where", "match", "mode", "count", "column"],
        "sqlite" => &["db", "query", "match", "mode", "count", "column", "table", "row_key", "ignore", "expect", "exact", "where"],
        "prefs" => &["path", "key", "op", "value"],
        "file" => &["path", "mode", "value"],
        "logcat" => &["filters", "regex"],
        "foreground" => &["package", "activity"],
        "ui" => &["gate", "selector", "attrs", "present"],
        "tap_inside" => &["step", "selector"],
        "lcs" => &["min_ratio"],
        "answer" => &["expected", "expected_from", "compare", "tolerance", "threshold", "list"],
        other => {
            return Err(fe(
                "kind",
                format!("unknown evaluator {other:?} (settings, shell, content, sqlite, prefs, file, logcat, foreground, ui, tap_inside, lcs, answer)"),
            ))
        }
    };
    let allowed_with_gate: Vec<&str> = allowed.to_vec();
    if let Some(extra) = present.iter().find(|k| !allowed_with_gate.contains(k)) {
        return Err(fe(extra, format!("does not apply to kind {kind:?}")));
    }
    let need = |name: &str, v: &Option<String>| {
        v.clone()
            .ok_or_else(|| fe(name, format!("kind {kind:?} needs {name}")))
    };
    // SQL a provider or sqlite runs, and command lines: values only through typed placeholders.
    let typed_fields: &[(&str, &Option<String>, Context)] = match kind {
        "sqlite" => &[
            ("query", &c.query, Context::Sql),
            ("where", &c.selection, Context::Sql),
        ],
        "content" => &[("where", &c.selection, Context::Sql)],
        "shell" => &[("cmd", &c.cmd, Context::Shell)],
        _ => &[],
    };
    for (name, text, context) in typed_fields {
        if let Some(text) = text {
            template::check_typed(text, *context).map_err(|e| fe(name, e))?;
        }
    }
    let mode = c.mode.as_ref().map(|m| m.get_ref().as_str());
    let rows_test = |default_mode: &str| -> Result<RowsTest, FieldError> {
        let filter = row_match(&c.match_, "match")?;
        Ok(match mode.unwrap_or(default_mode) {
            "exists" => RowsTest::Any(filter),
            "absent" => RowsTest::None(filter),
            "count" => {
                let count = c
                    .count
                    .as_ref()
                    .ok_or_else(|| fe("count", "mode \"count\" needs count"))?;
                RowsTest::Count(filter, parse_matcher(count).map_err(|e| fe("count", e))?)
            }
            "values" => RowsTest::Values {
                filter,
                column: need("column", &c.column)?,
            },
            other => {
                return Err(fe(
                    "mode",
                    format!("unknown mode {other:?} (exists, absent, count, values)"),
                ))
            }
        })
    };
    let probe = match kind {
        "settings" => {
            let ns = need("ns", &c.ns)?;
            if !["global", "secure", "system"].contains(&ns.as_str()) {
                return Err(fe(
                    "ns",
                    format!("unknown namespace {ns:?} (global, secure, system)"),
                ));
            }
            Probe::Settings {
                ns,
                key: need("key", &c.key)?,
                test: op_value(&c.op, &c.value)?,
            }
        }
        "shell" => {
            let test = match (&c.regex, &c.value) {
                (Some(r), None) => Matcher::Regex(r.clone()),
                (None, Some(_)) => op_value(&c.op, &c.value)?,
                _ => {
                    return Err(fe(
                        "regex",
                        "kind \"shell\" needs exactly one of regex, value",
                    ))
                }
            };
            Probe::Shell {
                command: need("cmd", &c.cmd)?,
                test,
            }
        }
        "content" => Probe::Content {
            uri: need("uri", &c.uri)?,
            projection: c.projection.clone().unwrap_or_default(),
            selection: c.selection.clone(),
            rows: rows_test("exists")?,
        },
        "sqlite" => {
            let db = need("db", &c.db)?;
            let key = c.row_key.clone().unwrap_or_else(|| "_id".into());
            let ignore = c.ignore.clone().unwrap_or_default();
            let test = match mode.unwrap_or("exists") {
                "rows_added" => SqliteTest::RowsAdded {
                    table: need("table", &c.table)?,
                    key,
                    ignore,
                    expect: c
                        .expect
                        .iter()
                        .flatten()
                        .enumerate()
                        .map(|(i, row)| row_match(&Some(row.clone()), &format!("expect[{i}]")))
                        .collect::<Result<_, _>>()?,
                    exact: c.exact.unwrap_or(true),
                },
                "rows_removed" => SqliteTest::RowsRemoved {
                    table: need("table", &c.table)?,
                    key,
                    ignore,
                    selection: need("where", &c.selection)?,
                },
                "unchanged" => SqliteTest::Unchanged {
                    table: need("table", &c.table)?,
                    key,
                    ignore,
                    except: c.selection.clone(),
                },
                _ => {
                    if c.table.is_some() || c.expect.is_some() || c.selection.is_some() {
                        return Err(fe(
                            "mode",
                            "table/expect/where belong to rows_added, rows_removed or unchanged",
                        ));
                    }
                    SqliteTest::Query {
                        sql: need("query", &c.query)?,
                        rows: rows_test("exists")?,
                    }
                }
            };
            Probe::Sqlite { db, test }
        }
        "prefs" => Probe::Prefs {
            path: need("path", &c.path)?,
            key: need("key", &c.key)?,
            test: op_value(&c.op, &c.value)?,
        },
        "file" => Probe::File {
            path: need("path", &c.path)?,
            test: match mode.unwrap_or("exists") {
                "exists" => FileTest::Exists,
                "absent" => FileTest::Absent,
                "content" => FileTest::Content(op_value(&None, &c.value)?),
                other => {
                    return Err(fe(
                        "mode",
                        format!("unknown mode {other:?} (exists, absent, content)"),
                    ))
                }
            },
        },
        "logcat" => {
            let filters = c
                .filters
                .iter()
                .flatten()
                .map(|f| {
                    LogFilter::parse(f).ok_or_else(|| {
                        fe(
                            "filters",
                            format!("{f:?} is not Tag:Level (V, D, I, W, E, F)"),
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Probe::Logcat {
                filters,
                regex: need("regex", &c.regex)?,
            }
        }
        "foreground" => {
            let m = |v: &Option<toml::Value>, f: &str| {
                v.as_ref()
                    .map(|v| parse_matcher(v).map_err(|e| fe(f, e)))
                    .transpose()
            };
            let (package, activity) = (m(&c.package, "package")?, m(&c.activity, "activity")?);
            if package.is_none() && activity.is_none() {
                return Err(fe(
                    "package",
                    "kind \"foreground\" needs package or activity",
                ));
            }
            Probe::Foreground { package, activity }
        }
        "ui" => {
            let selector = Selector::parse(&need("selector", &c.selector)?)
                .map_err(|e| fe("selector", e.to_string()))?;
            let mut attrs = Vec::new();
            for (name, v) in c.attrs.iter().flatten() {
                attrs.push((
                    name.clone(),
                    parse_matcher(v).map_err(|e| fe(&format!("attrs.{name}"), e))?,
                ));
            }
            Probe::Ui(UiPredicate {
                selector,
                attrs,
                present: c.present.unwrap_or(true),
            })
        }
        "tap_inside" => {
            let step = c.step.filter(|s| *s < 0).ok_or_else(|| {
                fe(
                    "step",
                    "step counts back from the end: -1 is the last action",
                )
            })?;
            Probe::TapInside {
                from_end: (-step) as usize,
                selector: Selector::parse(&need("selector", &c.selector)?)
                    .map_err(|e| fe("selector", e.to_string()))?,
            }
        }
        "lcs" => Probe::Lcs {
            min_ratio: c
                .min_ratio
                .filter(|r| (0.0..=1.0).contains(r))
                .ok_or_else(|| fe("min_ratio", "min_ratio in [0, 1] required"))?,
        },
        _ => {
            let expected = match (&c.expected, &c.expected_from) {
                (Some(toml::Value::Array(items)), None) => Expected::Literal(
                    items
                        .iter()
                        .map(|i| {
                            i.as_str()
                                .map(str::to_string)
                                .or_else(|| Some(i.to_string()))
                        })
                        .collect::<Option<Vec<_>>>()
                        .unwrap_or_default(),
                ),
                (Some(toml::Value::String(s)), None) => Expected::Literal(vec![s.clone()]),
                (Some(v @ (toml::Value::Integer(_) | toml::Value::Float(_))), None) => {
                    Expected::Literal(vec![v.to_string()])
                }
                (None, Some(from)) => Expected::FromCheck(from.clone()),
                _ => {
                    return Err(fe(
                        "expected",
                        "kind \"answer\" needs exactly one of expected, expected_from",
                    ))
                }
            };
            let how = match c.compare.as_deref().unwrap_or("fuzzy") {
                "exact" => AnswerMatch::Exact,
                "fuzzy" => AnswerMatch::Fuzzy(c.threshold.unwrap_or(0.9)),
                "number" => AnswerMatch::Number(c.tolerance.unwrap_or(0.0)),
                "date" => AnswerMatch::Date,
                "time" => AnswerMatch::Time,
                other => {
                    return Err(fe(
                        "compare",
                        format!("unknown comparison {other:?} (exact, fuzzy, number, date, time)"),
                    ))
                }
            };
            Probe::Answer {
                expected,
                how,
                list: c.list.unwrap_or(false),
            }
        }
    };
    let when = match c.when.as_ref().map(|w| w.get_ref().as_str()) {
        None if kind == "logcat" => When::Stream,
        None | Some("final") => When::Final,
        Some("any_step") => When::AnyStep,
        Some("stream") if kind == "logcat" => When::Stream,
        Some("stream") => return Err(fe("when", "only logcat checks read a stream")),
        Some("last_gated") => {
            let gate = c
                .gate
                .as_ref()
                .ok_or_else(|| fe("gate", "when = \"last_gated\" needs a gate selector"))?;
            When::LastGated(Selector::parse(gate).map_err(|e| fe("gate", e.to_string()))?)
        }
        Some(other) => {
            return Err(fe(
                "when",
                format!("unknown time {other:?} (final, any_step, last_gated, stream)"),
            ))
        }
    };
    if c.gate.is_some() && !matches!(when, When::LastGated(_)) {
        return Err(fe("gate", "gate only applies with when = \"last_gated\""));
    }
    if matches!(when, When::LastGated(_)) && kind != "ui" {
        return Err(fe("when", "last_gated applies to ui checks"));
    }
    let weight = c.weight.unwrap_or(1.0);
    if !(weight >= 0.0 && weight.is_finite()) {
        return Err(fe("weight", "weight must be ≥ 0"));
    }
    Ok(Check {
        id: c.id.get_ref().clone(),
        when,
        weight,
        subgoal: c.subgoal.unwrap_or(false),
        info: c.info.unwrap_or(false),
        probe,
    })
}

//! Raw task tables → [`Task`]: every field checked, every template's placeholders resolved against
//! the declared parameters, every regex compiled, the success expression's names bound to checks. A
//! problem becomes a [`LoadError`] with the file, the line and the field.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use toml::Spanned;

use super::action::Action;
use super::error::{line_of, LoadError};
use super::near_miss::NearMissSpec;
use super::params::{parse_spec, ParamSpec, Value};
use super::raw::{RawCheck, RawStep, RawTask, TaskFile};
use super::setup::SetupStep;
use super::template::Context;
use super::{template, Kind, Task};
use crate::eval::android::LogFilter;
use crate::eval::answer::AnswerMatch;
use crate::eval::check::{Expected, FileTest, Probe, RowsTest, SqliteTest, When};
use crate::eval::matcher::{Matcher, NumOp};
use crate::eval::sqlite::RowMatch;
use crate::eval::ui::UiPredicate;
use crate::eval::{Check, Constraint, Expr};
use crate::hierarchy::Selector;

/// The schema tag files may declare.
pub const SCHEMA: &str = "droidmcp-task/1";

/// Parses one file's text into its tasks; each task is validated on its own, so one bad task does
/// not hide the good ones beside it.
pub fn parse_file(path: &Path, src: &str) -> (Vec<Task>, Vec<LoadError>) {
    let file: TaskFile = match toml::from_str(src) {
        Ok(f) => f,
        Err(e) => {
            let line = e.span().map(|s| line_of(src, s.start));
            return (
                Vec::new(),
                vec![LoadError {
                    path: path.to_path_buf(),
                    line,
                    field: None,
                    message: e.message().trim().to_string(),
                }],
            );
        }
    };
    let mut errors = Vec::new();
    if let Some(schema) = &file.schema {
        if schema.get_ref() != SCHEMA {
            errors.push(LoadError {
                path: path.to_path_buf(),
                line: Some(line_of(src, schema.span().start)),
                field: Some("schema".into()),
                message: format!(
                    "unsupported schema {:?} (expected {SCHEMA:?})",
                    schema.get_ref()
                ),
            });
            return (Vec::new(), errors);
        }
    }
    if file.task.is_empty() {
        errors.push(LoadError {
            path: path.to_path_buf(),
            line: None,
            field: None,
            message: "no [[task]] tables".into(),
        });
    }
    let mut tasks = Vec::new();
    for raw in file.task {
        match validate_task(path, src, raw) {
            Ok(t) => tasks.push(t),
            Err(e) => errors.push(e),
        }
    }
    (tasks, errors)
}

struct Cx<'a> {
    path: &'a Path,
    src: &'a str,
    task: String,
}

impl Cx<'_> {
    fn err(
        &self,
        span: std::ops::Range<usize>,
        field: &str,
        message: impl Into<String>,
    ) -> LoadError {
        LoadError {
            path: self.path.to_path_buf(),
            line: Some(line_of(self.src, span.start)),
            field: Some(if field.is_empty() {
                format!("task {:?}", self.task)
            } else {
                format!("task {:?}: {field}", self.task)
            }),
            message: message.into(),
        }
    }
}

fn validate_task(path: &Path, src: &str, raw: Spanned<RawTask>) -> Result<Task, LoadError> {
    let task_span = raw.span();
    let raw = raw.into_inner();
    let cx = Cx {
        path,
        src,
        task: raw.id.get_ref().clone(),
    };
    let id = raw.id.get_ref();
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    {
        return Err(cx.err(
            raw.id.span(),
            "id",
            "ids use letters, digits, '.', '_' and '-'",
        ));
    }
    let kind = match raw.kind.as_ref().map(|k| k.get_ref().as_str()) {
        None | Some("operation") => Kind::Operation,
        Some("query") => Kind::Query,
        Some("composite") => Kind::Composite,
        Some(other) => {
            let span = raw
                .kind
                .as_ref()
                .map(|k| k.span())
                .unwrap_or(task_span.clone());
            return Err(cx.err(
                span,
                "kind",
                format!("unknown kind {other:?} (operation, query, composite)"),
            ));
        }
    };
    let complexity = raw.complexity.unwrap_or(1.0);
    if !(complexity > 0.0 && complexity <= 20.0) {
        return Err(cx.err(
            task_span.clone(),
            "complexity",
            "complexity must be in (0, 20]",
        ));
    }
    let max_steps = match &raw.max_steps {
        Some(s) if (1..=500).contains(s.get_ref()) => *s.get_ref() as u32,
        Some(s) => return Err(cx.err(s.span(), "max_steps", "max_steps must be in 1..=500")),
        None => (10.0 * complexity).ceil() as u32,
    };

    // Parameters: generators and literals first (in name order), then derived ones.
    let mut params: Vec<(String, ParamSpec)> = Vec::new();
    let mut derived = Vec::new();
    for (name, value) in &raw.params {
        let spec = parse_spec(value.get_ref())
            .map_err(|e| cx.err(value.span(), &format!("params.{name}"), e))?;
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || name.starts_with(|c: char| c.is_ascii_digit())
        {
            return Err(cx.err(
                value.span(),
                &format!("params.{name}"),
                "parameter names use letters, digits and '_'",
            ));
        }
        if !spec.bases().is_empty() {
            if let Some(base) = spec
                .bases()
                .into_iter()
                .find(|b| !raw.params.contains_key(*b))
            {
                return Err(cx.err(
                    value.span(),
                    &format!("params.{name}"),
                    format!("unknown parameter {base:?}"),
                ));
            }
            derived.push((name.clone(), spec));
        } else {
            params.push((name.clone(), spec));
        }
    }
    // Derived parameters after what they build on (a relative day before the end computed from it).
    while !derived.is_empty() {
        let ready = derived.iter().position(|(_, spec): &(String, ParamSpec)| {
            spec.bases()
                .iter()
                .all(|b| params.iter().any(|(n, _)| n == b))
        });
        match ready {
            Some(i) => params.push(derived.remove(i)),
            None => {
                return Err(cx.err(
                    task_span.clone(),
                    &format!("params.{}", derived[0].0),
                    "derived parameters build on each other in a cycle",
                ))
            }
        }
    }
    // Sample values (seed 0) to validate every template against.
    let sample = sample_values(&params).map_err(|e| cx.err(task_span.clone(), "params", e))?;
    let render =
        |s: &str, span: std::ops::Range<usize>, field: &str| -> Result<String, LoadError> {
            template::render(s, &sample).map_err(|e| cx.err(span, field, e))
        };
    render(raw.goal.get_ref(), raw.goal.span(), "goal")?;

    let setup = raw
        .setup
        .iter()
        .enumerate()
        .map(|(i, s)| validate_step(&cx, s, &format!("setup[{i}]"), &sample))
        .collect::<Result<Vec<_>, _>>()?;
    // A relative date means "relative to the device's clock", so its anchor must be what setup puts
    // on that clock.
    for (name, spec) in &params {
        if let ParamSpec::Relative { anchor, .. } = spec {
            // Relative to another relative day: that one is checked against the clock.
            if params
                .iter()
                .any(|(n, s)| n == anchor && matches!(s, ParamSpec::Relative { .. }))
            {
                continue;
            }
            let sets_clock = setup.iter().any(|step| match step {
                SetupStep::SetTime { time } => template::placeholders(time)
                    .unwrap_or_default()
                    .iter()
                    .any(|h| &h.name == anchor),
                _ => false,
            });
            if !sets_clock {
                return Err(cx.err(
                    task_span.clone(),
                    &format!("params.{name}"),
                    format!("relative to {anchor:?}, but no set_time step puts {{{anchor}…}} on the device's clock"),
                ));
            }
        }
    }
    let teardown = raw
        .teardown
        .iter()
        .enumerate()
        .map(|(i, s)| validate_step(&cx, s, &format!("teardown[{i}]"), &sample))
        .collect::<Result<Vec<_>, _>>()?;
    let record = raw.record.map(|r| r.shell).unwrap_or_default();
    for cmd in &record {
        render(cmd, task_span.clone(), "record.shell")?;
        template::check_typed(cmd, Context::Shell)
            .map_err(|e| cx.err(task_span.clone(), "record.shell", e))?;
    }

    let mut checks: Vec<Check> = Vec::new();
    for raw_check in &raw.check {
        let span = raw_check.span();
        let c = raw_check.get_ref();
        let field = format!("check {:?}", c.id.get_ref());
        let check = validate_check(c)
            .map_err(|(f, e)| cx.err(span.clone(), &format!("{field}: {f}"), e))?;
        if checks.iter().any(|other| other.id == check.id) {
            return Err(cx.err(c.id.span(), &field, "duplicate check id"));
        }
        if let Probe::Answer {
            expected: Expected::FromCheck(from),
            ..
        } = &check.probe
        {
            if !checks.iter().any(|other| &other.id == from) {
                return Err(cx.err(
                    span,
                    &format!("{field}: expected_from"),
                    format!("{from:?} is not a check declared before this one"),
                ));
            }
        }
        // Render with sample values: unknown placeholders and regexes broken by substitution show up
        // here, at load, rather than mid-episode.
        let rendered = render_sample(&check, Check::map_strings, &sample)
            .map_err(|e| cx.err(span.clone(), &field, e))?;
        if let Some(e) = regex_problem(&rendered) {
            return Err(cx.err(span, &format!("{field}: regex"), e));
        }
        checks.push(check);
    }
    if checks.is_empty() {
        return Err(cx.err(
            task_span.clone(),
            "check",
            "a task needs at least one [[task.check]]",
        ));
    }
    if kind == Kind::Query
        && !checks
            .iter()
            .any(|c| matches!(c.probe, Probe::Answer { .. }))
    {
        return Err(cx.err(
            task_span.clone(),
            "check",
            "a query task needs an answer check",
        ));
    }

    let mut constraints = Vec::new();
    for raw_c in &raw.constraint {
        let span = raw_c.span();
        let c = raw_c.get_ref();
        let field = format!("constraint {:?}", c.id.get_ref());
        let constraint = super::constraints::validate(c)
            .map_err(|(f, e)| cx.err(span.clone(), &format!("{field}: {f}"), e))?;
        // Constraint results are reported beside the check results, under their ids.
        if checks.iter().any(|k| k.id == constraint.id)
            || constraints
                .iter()
                .any(|k: &Constraint| k.id == constraint.id)
        {
            return Err(cx.err(
                c.id.span(),
                &field,
                "duplicate id (constraints and checks share one namespace)",
            ));
        }
        let rendered = render_sample(&constraint, Constraint::map_strings, &sample)
            .map_err(|e| cx.err(span.clone(), &field, e))?;
        if let Some(e) = constraint_regex_problem(&rendered) {
            return Err(cx.err(span, &format!("{field}: regex"), e));
        }
        constraints.push(constraint);
    }

    let success = match &raw.success {
        Some(s) => {
            let expr = Expr::parse(s.get_ref()).map_err(|e| cx.err(s.span(), "success", e))?;
            if let Some(name) = expr
                .names()
                .into_iter()
                .find(|n| !checks.iter().any(|c| c.id == *n))
            {
                return Err(cx.err(s.span(), "success", format!("unknown check {name:?}")));
            }
            expr
        }
        None => Expr::All(
            checks
                .iter()
                .filter(|c| !c.info)
                .map(|c| Expr::Check(c.id.clone()))
                .collect(),
        ),
    };

    let parse_actions =
        |list: &[Spanned<toml::Value>], what: &str| -> Result<Vec<Action>, LoadError> {
            list.iter()
                .enumerate()
                .map(|(i, a)| {
                    let action = Action::parse(a.get_ref())
                        .and_then(|action| {
                            render_sample(&action, Action::map_strings, &sample)?;
                            Ok(action)
                        })
                        .map_err(|e| cx.err(a.span(), &format!("{what}[{i}]"), e))?;
                    Ok(action)
                })
                .collect()
        };
    let golden = parse_actions(&raw.golden, "golden")?;
    if golden.is_empty() {
        return Err(cx.err(task_span, "golden", "every task needs a golden solution"));
    }
    if kind == Kind::Query && !golden.iter().any(|a| matches!(a, Action::Answer(_))) {
        return Err(cx.err(
            task_span,
            "golden",
            "a query task's golden solution must answer",
        ));
    }
    let wrong = raw
        .wrong
        .as_deref()
        .map(|w| parse_actions(w, "wrong"))
        .transpose()?;
    let near_miss = match &raw.near_miss {
        Some(list) => parse_near_misses(list.get_ref(), &params, &constraints, &sample)
            .map_err(|e| cx.err(list.span(), "near_miss", e))?,
        None => Vec::new(),
    };

    Ok(Task {
        id: id.clone(),
        goal: raw.goal.into_inner(),
        apps: raw.apps,
        kind,
        complexity,
        max_steps,
        tags: raw.tags,
        require_finish: raw.require_finish.unwrap_or(true),
        partial_credit: raw.partial_credit.unwrap_or(kind == Kind::Composite),
        params,
        setup,
        teardown,
        record,
        checks,
        constraints,
        success,
        golden,
        wrong,
        near_miss,
        source: raw.source,
        file: path.to_path_buf(),
    })
}

/// `near_miss = ["t", { a = "{noise_a}" }, { breaks = "c", actions = [...] }]`: names of drawn
/// parameters, parameter → template, or a detour that breaks constraint `c`.
fn parse_near_misses(
    list: &[toml::Value],
    params: &[(String, ParamSpec)],
    constraints: &[crate::eval::Constraint],
    sample: &BTreeMap<String, Value>,
) -> Result<Vec<NearMissSpec>, String> {
    let param = |name: &str| -> Result<&ParamSpec, String> {
        params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s)
            .ok_or_else(|| format!("{name:?} is not a parameter of this task"))
    };
    let mut out = Vec::new();
    for item in list {
        out.push(match item {
            toml::Value::String(name) => match param(name)? {
                // A relative day drawn from several phrases is redrawn as another phrase.
                ParamSpec::Relative { phrases, .. } if phrases.len() > 1 => {
                    NearMissSpec::Redraw(name.clone())
                }
                spec if matches!(spec, ParamSpec::Literal(_)) || spec.is_derived() => {
                    return Err(format!(
                        "{name:?} is fixed or derived; vary a drawn parameter instead"
                    ))
                }
                _ => NearMissSpec::Redraw(name.clone()),
            },
            toml::Value::Table(t) if t.contains_key("breaks") => {
                parse_detour(t, constraints, sample)?
            }
            toml::Value::Table(t) if !t.is_empty() => {
                let mut pairs = Vec::new();
                for (name, v) in t {
                    if matches!(param(name)?, ParamSpec::Add { .. }) {
                        return Err(format!("{name:?} is derived; set what it builds on"));
                    }
                    let tmpl = v
                        .as_str()
                        .ok_or_else(|| format!("{name}: a template string, like \"{{other}}\""))?;
                    template::render(tmpl, sample).map_err(|e| format!("{name}: {e}"))?;
                    pairs.push((name.clone(), tmpl.to_string()));
                }
                NearMissSpec::Set(pairs)
            }
            other => {
                return Err(format!(
                    "each near miss is a parameter name or a table of parameter = template, got {other}"
                ))
            }
        });
    }
    if out.is_empty() {
        return Err("an empty list; leave near_miss out to vary every drawn parameter".into());
    }
    Ok(out)
}

/// `{ breaks = "c", actions = [...] }`: the task done by a way constraint `c` forbids.
fn parse_detour(
    t: &toml::map::Map<String, toml::Value>,
    constraints: &[crate::eval::Constraint],
    sample: &BTreeMap<String, Value>,
) -> Result<NearMissSpec, String> {
    if let Some(extra) = t.keys().find(|k| *k != "breaks" && *k != "actions") {
        return Err(format!("{extra:?}: a detour has only breaks and actions"));
    }
    let constraint = t["breaks"]
        .as_str()
        .filter(|c| constraints.iter().any(|k| k.id == *c))
        .ok_or_else(|| format!("breaks: {} is not a constraint of this task", t["breaks"]))?
        .to_string();
    let list = t
        .get("actions")
        .and_then(toml::Value::as_array)
        .filter(|a| !a.is_empty())
        .ok_or_else(|| {
            "a detour needs actions (the solution that breaks the constraint)".to_string()
        })?;
    let mut actions = Vec::new();
    for (i, a) in list.iter().enumerate() {
        let action = Action::parse(a)
            .and_then(|action| {
                render_sample(&action, Action::map_strings, sample)?;
                Ok(action)
            })
            .map_err(|e| format!("actions[{i}]: {e}"))?;
        actions.push(action);
    }
    Ok(NearMissSpec::Breaks {
        constraint,
        actions,
    })
}

/// `item` with every string rendered with the sample values: unknown placeholders and values that
/// break what they are put into show up at load, rather than mid-episode.
fn render_sample<T: Clone>(
    item: &T,
    map: fn(&mut T, &mut dyn FnMut(&str) -> String),
    sample: &BTreeMap<String, Value>,
) -> Result<T, String> {
    Ok(super::render_all(std::slice::from_ref(item), sample, map)?.remove(0))
}

fn constraint_regex_problem(c: &crate::eval::Constraint) -> Option<String> {
    use crate::eval::constraint::Rule;
    let m = match &c.rule {
        Rule::App { package } => Some(package),
        Rule::Page { activity, .. } => activity.as_ref(),
        Rule::Actions { text, .. } => text.as_ref(),
        Rule::Element { .. } => None,
    };
    match m {
        Some(Matcher::Regex(r)) => regex::Regex::new(r).err().map(|e| format!("/{r}/: {e}")),
        _ => None,
    }
}

fn sample_values(params: &[(String, ParamSpec)]) -> Result<BTreeMap<String, Value>, String> {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    let mut values = BTreeMap::new();
    for (name, spec) in params {
        let v = spec
            .draw(&mut rng, &values)
            .map_err(|e| format!("{name}: {e}"))?;
        values.insert(name.clone(), v);
    }
    Ok(values)
}

fn regex_problem(check: &Check) -> Option<String> {
    let compile = |r: &str| regex::Regex::new(r).err().map(|e| format!("/{r}/: {e}"));
    let matcher = |m: &Matcher| match m {
        Matcher::Regex(r) => compile(r),
        _ => None,
    };
    match &check.probe {
        Probe::Logcat { regex, .. } => compile(regex),
        Probe::Settings { test, .. } | Probe::Shell { test, .. } | Probe::Prefs { test, .. } => {
            matcher(test)
        }
        // Selector regexes are compiled when the selector is parsed.
        Probe::Ui(p) => p.attrs.iter().find_map(|(_, m)| matcher(m)),
        Probe::Foreground { package, activity } => {
            package.iter().chain(activity.iter()).find_map(matcher)
        }
        _ => None,
    }
}

fn validate_step(
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
        "force_stop" | "clear_app" | "launch" => &["package"],
        "set_time" => &["time"],
        "set_clipboard" => &["text"],
        "home" => &[],
        "wait" => &["ms"],
        "incoming_call" => &["number", "ring_ms", "talk_ms"],
        "incoming_sms" => &["from", "body"],
        "incoming_texts" => &["count", "from", "body"],
        "contact" => &["first", "last", "phone", "starred", "replace"],
        other => {
            return Err(cx.err(
                s.op.span(),
                &format!("{field}: op"),
                format!("unknown op {other:?} (shell, settings_put, sql, insert_rows, push_file, force_stop, clear_app, launch, set_time, home, wait, incoming_call, incoming_sms, incoming_texts, set_clipboard, contact)"),
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
        rendered.ops().map_err(|e| err("", e))?;
    }
    Ok(step)
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

type FieldError = (String, String);

fn fe(field: &str, message: impl Into<String>) -> FieldError {
    (field.to_string(), message.into())
}

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

fn validate_check(c: &RawCheck) -> Result<Check, FieldError> {
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

/// Loads one task from text (tests, `tasks show` of a single file).
pub fn parse_one(path: &Path, src: &str) -> Result<Arc<Task>, Vec<LoadError>> {
    let (mut tasks, errors) = parse_file(path, src);
    if !errors.is_empty() {
        return Err(errors);
    }
    match tasks.len() {
        1 => Ok(Arc::new(tasks.remove(0))),
        n => Err(vec![LoadError {
            path: path.to_path_buf(),
            line: None,
            field: None,
            message: format!("expected one task, found {n}"),
        }]),
    }
}

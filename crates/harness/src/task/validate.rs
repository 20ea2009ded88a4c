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
use super::raw::{RawTask, TaskFile};
use super::setup::SetupStep;
use super::template::Context;
use super::{template, Kind, Task};
use crate::eval::check::{Expected, Probe};
use crate::eval::matcher::Matcher;
use crate::eval::{Check, Constraint, Expr};

mod check;
mod step;

pub use check::parse_matcher;
use check::validate_check;
use step::validate_step;

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

/// `near_miss = ["t", { a = "{noise_a}" }, { "b.f" = "x" }, { breaks = "c", actions = [...] }]`:
/// names of drawn parameters, parameter (or one field of it) → template, or a detour that breaks
/// constraint `c`.
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
                    // `param.field` sets one field of a drawn value (one move of a route).
                    let (base, field) = match name.split_once('.') {
                        Some((base, field)) => (base, Some(field)),
                        None => (name.as_str(), None),
                    };
                    if matches!(param(base)?, ParamSpec::Add { .. }) {
                        return Err(format!("{name:?} is derived; set what it builds on"));
                    }
                    if let Some(field) = field {
                        if !sample.get(base).is_some_and(|v| v.fields.contains_key(field)) {
                            return Err(format!("{base:?} has no field {field:?}"));
                        }
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

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

type FieldError = (String, String);

fn fe(field: &str, message: impl Into<String>) -> FieldError {
    (field.to_string(), message.into())
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

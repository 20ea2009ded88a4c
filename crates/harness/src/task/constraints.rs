//! `[[task.constraint]]` tables → [`Constraint`]s: each kind's arguments checked, matchers and
//! selectors parsed (the hierarchy's one selector grammar), so a bad constraint is a load error with
//! the file, line and field like every other part of a task.

use crate::eval::constraint::{Constraint, Rule, STEP_KINDS};
use droidmcp_hierarchy::Selector;

use super::raw::RawConstraint;
use super::validate::parse_matcher;

/// The field that is wrong and why.
pub type FieldError = (String, String);

fn fe(field: &str, message: impl Into<String>) -> FieldError {
    (field.to_string(), message.into())
}

/// Validates one constraint table.
pub fn validate(c: &RawConstraint) -> Result<Constraint, FieldError> {
    let id = c.id.get_ref();
    if id.is_empty()
        || !id
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || "._-".contains(ch))
    {
        return Err(fe("id", "ids use letters, digits, '.', '_' and '-'"));
    }
    let kind = c.kind.get_ref().as_str();
    let present: Vec<&str> = [
        ("package", c.package.is_some()),
        ("activity", c.activity.is_some()),
        ("screen", c.screen.is_some()),
        ("selector", c.selector.is_some()),
        ("action", c.action.is_some()),
        ("text", c.text.is_some()),
        ("max", c.max.is_some()),
    ]
    .into_iter()
    .filter_map(|(k, p)| p.then_some(k))
    .collect();
    let allowed: &[&str] = match kind {
        "app" => &["package"],
        "page" => &["activity", "screen"],
        "element" => &["selector", "max"],
        "actions" => &["action", "text", "max"],
        other => {
            return Err(fe(
                "kind",
                format!("unknown constraint {other:?} (app, page, element, actions)"),
            ))
        }
    };
    if let Some(extra) = present.iter().find(|k| !allowed.contains(k)) {
        return Err(fe(
            extra,
            format!("does not apply to a {kind:?} constraint"),
        ));
    }
    let matcher = |v: &Option<toml::Value>, field: &str| {
        v.as_ref()
            .map(|v| parse_matcher(v).map_err(|e| fe(field, e)))
            .transpose()
    };
    let selector = |s: &str, field: &str| Selector::parse(s).map_err(|e| fe(field, e.to_string()));
    let max = match c.max {
        None => 0,
        Some(n) if (0..=1000).contains(&n) => n as u32,
        Some(_) => return Err(fe("max", "max must be in 0..=1000")),
    };
    let rule = match kind {
        "app" => Rule::App {
            package: matcher(&c.package, "package")?
                .ok_or_else(|| fe("package", "an app constraint needs package"))?,
        },
        "page" => {
            let activity = matcher(&c.activity, "activity")?;
            let screen = c
                .screen
                .as_deref()
                .map(|s| selector(s, "screen"))
                .transpose()?;
            if activity.is_none() && screen.is_none() {
                return Err(fe(
                    "activity",
                    "a page constraint needs activity or screen (a selector the page shows)",
                ));
            }
            Rule::Page { activity, screen }
        }
        "element" => Rule::Element {
            selector: selector(
                c.selector
                    .as_deref()
                    .ok_or_else(|| fe("selector", "an element constraint needs selector"))?,
                "selector",
            )?,
            max,
        },
        _ => {
            let action = c
                .action
                .clone()
                .ok_or_else(|| fe("action", "an actions constraint needs action"))?;
            if !STEP_KINDS.contains(&action.as_str()) {
                return Err(fe(
                    "action",
                    format!("unknown step kind {action:?} ({})", STEP_KINDS.join(", ")),
                ));
            }
            Rule::Actions {
                kind: action,
                text: matcher(&c.text, "text")?,
                max,
            }
        }
    };
    Ok(Constraint {
        id: id.clone(),
        rule,
    })
}

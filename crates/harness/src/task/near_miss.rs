//! Near misses: an instance's golden solution with one parameter off (another day, hour, recipient,
//! value), which must not succeed. They are data: the task file names which parameters to vary, or
//! which values a wrong reading of the screen would give, and nothing here knows any task.
//!
//! A varied parameter gets another value its own spec draws, preferring one that differs in every
//! part the golden solution uses (another `pair` with another product, not just another text), and
//! the parameters derived from it follow. A set parameter takes a value rendered from the instance
//! (`{ a = "{noise_a}" }`: the title of the event on the neighbouring day).

use std::collections::{BTreeMap, BTreeSet};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::params::{ParamSpec, Value};
use super::{template, Action, TaskInstance};

/// How one near miss is made (a task file's `near_miss` item).
#[derive(Debug, Clone, PartialEq)]
pub enum NearMissSpec {
    /// Another value of this parameter, drawn by its spec.
    Redraw(String),
    /// These parameters set to templates over the instance's values.
    Set(Vec<(String, String)>),
    /// The task done by a way that breaks this constraint: these actions instead of the golden ones.
    Breaks {
        constraint: String,
        actions: Vec<Action>,
    },
}

/// One near miss of an instance: what changed and the actions to replay.
#[derive(Debug, Clone, PartialEq)]
pub struct NearMiss {
    /// `t = 14:30 (not 09:30)`.
    pub label: String,
    pub actions: Vec<Action>,
    /// The constraint a detour breaks: the replay must fail with a violation of it.
    pub breaks: Option<String>,
}

/// Attempts at drawing a value that differs in every used part before settling for any other text.
const DRAWS: u64 = 64;

impl TaskInstance {
    /// The near misses of this instance: the task's `near_miss` list, or by default every drawn
    /// parameter the golden solution uses. A near miss that leaves the golden solution unchanged is
    /// an error for a declared one (the task file is wrong) and skipped for a default one.
    pub fn near_misses(&self) -> Result<Vec<NearMiss>, String> {
        let task = &self.task;
        let declared = !task.near_miss.is_empty();
        let specs: Vec<NearMissSpec> = if declared {
            task.near_miss.clone()
        } else {
            task.params
                .iter()
                .filter(|(_, spec)| !matches!(spec, ParamSpec::Literal(_)) && !spec.is_derived())
                .map(|(name, _)| NearMissSpec::Redraw(name.clone()))
                .collect()
        };
        let mut out = Vec::new();
        for spec in specs {
            let (label, values) = match &spec {
                NearMissSpec::Redraw(name) => match self.redraw(name)? {
                    Some(v) => v,
                    None if declared => {
                        return Err(format!("near miss {name:?}: its spec draws no other value"))
                    }
                    None => continue,
                },
                NearMissSpec::Set(pairs) => self.set(pairs)?,
                NearMissSpec::Breaks {
                    constraint,
                    actions,
                } => {
                    let actions = task.render_actions(actions, &self.params)?;
                    if actions == self.golden {
                        return Err(format!(
                            "the detour breaking {constraint:?} is the golden solution"
                        ));
                    }
                    out.push(NearMiss {
                        label: format!("breaks {constraint}"),
                        actions,
                        breaks: Some(constraint.clone()),
                    });
                    continue;
                }
            };
            let values = super::params::for_week_start(&values, self.first_day);
            let actions = task.render_actions(&task.golden, &values)?;
            if actions == self.golden {
                if declared {
                    return Err(format!(
                        "near miss {label} leaves the golden solution unchanged"
                    ));
                }
                continue;
            }
            out.push(NearMiss {
                label,
                actions,
                breaks: None,
            });
        }
        Ok(out)
    }

    /// Another value for `name`, then the derived parameters recomputed.
    fn redraw(&self, name: &str) -> Result<Option<(String, BTreeMap<String, Value>)>, String> {
        let task = &self.task;
        let spec = task
            .params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s)
            .ok_or_else(|| format!("near miss: unknown parameter {name:?}"))?;
        let original = &self.params[name];
        let used = used_fields(&task.golden, name);
        // Seeded by the instance and the parameter, so a near miss is as repeatable as its instance.
        let salt = name
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64));
        let mut rng =
            ChaCha8Rng::seed_from_u64(self.seed.wrapping_mul(0x9E37_79B9).wrapping_add(salt));
        let mut fallback = None;
        for _ in 0..DRAWS {
            let candidate = spec.draw(&mut rng, &self.params)?;
            if candidate.text == original.text {
                continue;
            }
            let all_differ = used.iter().all(|field| match field {
                None => true,
                Some(f) => candidate.fields.get(f) != original.fields.get(f),
            });
            if all_differ {
                fallback = Some(candidate);
                break;
            }
            fallback.get_or_insert(candidate);
        }
        let Some(value) = fallback else {
            return Ok(None);
        };
        let label = format!("{name} = {} (not {})", value.text, original.text);
        let mut values = self.params.clone();
        values.insert(name.to_string(), value);
        rederive(task, &mut values, &[name])?;
        Ok(Some((label, values)))
    }

    fn set(&self, pairs: &[(String, String)]) -> Result<(String, BTreeMap<String, Value>), String> {
        let mut values = self.params.clone();
        let mut label = Vec::new();
        for (name, tmpl) in pairs {
            if let Some((base, field)) = name.split_once('.') {
                // One field of a drawn value set, the rest of it kept.
                let text = template::render(tmpl, &self.params)?;
                let mut value = values[base].clone();
                let was = value.fields.insert(field.to_string(), text.clone());
                label.push(format!("{name} = {text} (not {})", was.unwrap_or_default()));
                values.insert(base.to_string(), value);
                continue;
            }
            let value = whole_placeholder(tmpl)
                .and_then(|other| self.params.get(other).cloned())
                .map(Ok)
                .unwrap_or_else(|| template::render(tmpl, &self.params).map(Value::plain))?;
            label.push(format!(
                "{name} = {} (not {})",
                value.text, self.params[name].text
            ));
            values.insert(name.clone(), value);
        }
        // A relative day set to another day (today instead of tomorrow) stays set; what builds on
        // it (the event's end) follows.
        let set: Vec<&str> = pairs
            .iter()
            .map(|(n, _)| n.split_once('.').map_or(n.as_str(), |(base, _)| base))
            .collect();
        rederive(&self.task, &mut values, &set)?;
        Ok((label.join(", "), values))
    }
}

/// Recomputes the derived parameters (but those in `keep`) from the values they build on; a relative
/// date keeps the phrase it was drawn with.
fn rederive(
    task: &super::Task,
    values: &mut BTreeMap<String, Value>,
    keep: &[&str],
) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for (name, spec) in &task.params {
        if keep.contains(&name.as_str()) {
            continue;
        }
        let v = match spec {
            ParamSpec::Relative {
                anchor,
                phrases,
                at,
            } => {
                let kept = values[name].fields.get("phrase");
                let phrase = phrases.iter().find(|p| Some(&p.phrase) == kept);
                let one = ParamSpec::Relative {
                    anchor: anchor.clone(),
                    phrases: phrase.into_iter().cloned().collect(),
                    at: at.clone(),
                };
                if phrase.is_some() { one } else { spec.clone() }.draw(&mut rng, values)?
            }
            spec if spec.is_derived() => spec.draw(&mut rng, values)?,
            _ => continue,
        };
        values.insert(name.clone(), v);
    }
    Ok(())
}

/// `{name}` alone (no field, no format): the whole value, fields included, is meant.
fn whole_placeholder(tmpl: &str) -> Option<&str> {
    let inner = tmpl.strip_prefix('{')?.strip_suffix('}')?;
    inner
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_')
        .then_some(inner)
}

/// The parts of parameter `name` the golden solution uses: `None` for its text, `Some(field)`.
fn used_fields(golden: &[Action], name: &str) -> BTreeSet<Option<String>> {
    let mut used = BTreeSet::new();
    for action in golden {
        let mut action = action.clone();
        action.map_strings(&mut |s| {
            for h in template::placeholders(s).unwrap_or_default() {
                if h.name == name {
                    used.insert(h.field.clone());
                }
            }
            s.to_string()
        });
    }
    used
}

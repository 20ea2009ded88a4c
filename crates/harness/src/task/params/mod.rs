//! Task parameters: literals, choices, integer and decimal ranges, derived values, and generators
//! (phone numbers, names, dates, times, sentences, event titles, …), all drawn from one seeded
//! ChaCha stream so a (task, seed) pair always gives the same instance.
//!
//! A value is text plus named fields (`{date.weekday}`, `{number.digits}`), which lets one draw
//! feed a goal sentence, an SQL insert and a check in the forms each needs.

mod generator;
mod moments;
mod parse;
mod relative_day;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub use generator::Generator;
pub use moments::{date_value, for_week_start, time_value};
pub use parse::parse_spec;
pub use relative_day::RelativeDay;

use moments::plus_minutes;
/// A parameter value: its text and named fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Value {
    pub text: String,
    pub fields: BTreeMap<String, String>,
}

impl Value {
    pub fn plain(text: impl Into<String>) -> Value {
        Value {
            text: text.into(),
            fields: BTreeMap::new(),
        }
    }

    fn with(mut self, key: &str, value: impl ToString) -> Value {
        self.fields.insert(key.to_string(), value.to_string());
        self
    }
}

/// How a parameter gets its value.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamSpec {
    Literal(Value),
    Choices(Vec<Value>),
    Range {
        lo: i64,
        hi: i64,
        step: i64,
    },
    Decimal {
        lo: f64,
        hi: f64,
        decimals: usize,
    },
    /// Another parameter plus a constant (`{ add = ["hour", -2] }`), evaluated after the others.
    Add {
        base: String,
        delta: i64,
    },
    /// A day relative to another parameter's date (`{ date = "tomorrow", of = "now" }`), the moment a
    /// `set_time` step puts on the device's clock; one of `phrases` is drawn. Evaluated after the
    /// others, like [`ParamSpec::Add`].
    Relative {
        anchor: String,
        phrases: Vec<RelativeDay>,
        /// A time parameter: the value is then that moment of the day (as `gen = "datetime"` gives).
        at: Option<String>,
    },
    /// A moment or time of day plus a parameter's minutes (`{ plus_minutes = "dur", of = "start" }`):
    /// an event's end from its start and drawn length.
    PlusMinutes {
        base: String,
        minutes: String,
    },
    Gen(Generator),
}

impl ParamSpec {
    /// Whether this parameter is computed from others (drawn after them, recomputed when they move).
    pub fn is_derived(&self) -> bool {
        !self.bases().is_empty()
    }

    /// The parameters this one is computed from.
    pub fn bases(&self) -> Vec<&str> {
        match self {
            ParamSpec::Add { base, .. } => vec![base],
            ParamSpec::Relative { anchor, at, .. } => std::iter::once(anchor.as_str())
                .chain(at.as_deref())
                .collect(),
            ParamSpec::PlusMinutes { base, minutes } => vec![base, minutes],
            _ => vec![],
        }
    }
}

impl ParamSpec {
    /// Draws a value; `known` holds parameters drawn so far (for [`ParamSpec::Add`]).
    pub fn draw(
        &self,
        rng: &mut ChaCha8Rng,
        known: &BTreeMap<String, Value>,
    ) -> Result<Value, String> {
        Ok(match self {
            ParamSpec::Literal(v) => v.clone(),
            ParamSpec::Choices(options) => options[rng.gen_range(0..options.len())].clone(),
            ParamSpec::Range { lo, hi, step } => {
                let steps = (hi - lo) / step;
                Value::plain((lo + rng.gen_range(0..=steps) * step).to_string())
            }
            ParamSpec::Decimal { lo, hi, decimals } => {
                let x: f64 = rng.gen_range(*lo..=*hi);
                Value::plain(format!("{x:.decimals$}"))
            }
            ParamSpec::Add { base, delta } => {
                let b = known
                    .get(base)
                    .ok_or_else(|| format!("add: unknown parameter {base:?}"))?;
                let n: i64 = b.text.trim().parse().map_err(|_| {
                    format!("add: parameter {base:?} = {:?} is not an integer", b.text)
                })?;
                Value::plain((n + delta).to_string())
            }
            ParamSpec::Relative {
                anchor,
                phrases,
                at,
            } => {
                let get = |name: &String| {
                    known
                        .get(name)
                        .ok_or_else(|| format!("relative date: unknown parameter {name:?}"))
                };
                let at = at.as_ref().map(get).transpose()?;
                phrases[rng.gen_range(0..phrases.len())].value(anchor, get(anchor)?, at)?
            }
            ParamSpec::PlusMinutes { base, minutes } => {
                let get = |name: &String| {
                    known
                        .get(name)
                        .ok_or_else(|| format!("plus_minutes: unknown parameter {name:?}"))
                };
                let n: i64 = get(minutes)?.text.trim().parse().map_err(|_| {
                    format!(
                        "plus_minutes: {minutes:?} = {:?} is not a number of minutes",
                        get(minutes).map(|v| v.text.clone()).unwrap_or_default()
                    )
                })?;
                plus_minutes(base, get(base)?, n)?
            }
            ParamSpec::Gen(g) => g.draw(rng),
        })
    }

    /// The value a client's override stands for, validated the way this parameter's generator would
    /// have drawn it: a choice must be one of the choices, a number must lie in the range (on its
    /// step), a date or time inside the generator's bounds, a phone number a `+1` number, and so on.
    /// Dates, times and phone numbers get their fields; a choice keeps its fields.
    pub fn parse_override(&self, text: &str) -> Result<Value, String> {
        match self {
            ParamSpec::Literal(v) if v.text == text => Ok(v.clone()),
            ParamSpec::Literal(v) => Err(format!("fixed to {:?}; {text:?} is not it", v.text)),
            ParamSpec::Choices(options) => options
                .iter()
                .find(|o| o.text == text)
                .cloned()
                .ok_or_else(|| {
                    format!(
                        "{text:?} is not one of {:?}",
                        options.iter().map(|o| o.text.as_str()).collect::<Vec<_>>()
                    )
                }),
            ParamSpec::Range { lo, hi, step } => match text.trim().parse::<i64>() {
                Ok(n) if (*lo..=*hi).contains(&n) && (n - lo) % step == 0 => {
                    Ok(Value::plain(n.to_string()))
                }
                _ if *step == 1 => Err(format!("{text:?} is not an integer in [{lo}, {hi}]")),
                _ => Err(format!(
                    "{text:?} is not an integer in [{lo}, {hi}] in steps of {step}"
                )),
            },
            ParamSpec::Decimal { lo, hi, decimals } => {
                let t = text.trim();
                let places = t.split_once('.').map_or(0, |(_, f)| f.len());
                match t.parse::<f64>() {
                    Ok(x) if x.is_finite() && x >= *lo && x <= *hi && places <= *decimals => {
                        Ok(Value::plain(format!("{x:.decimals$}")))
                    }
                    _ => Err(format!(
                        "{text:?} is not a number in [{lo}, {hi}] with at most {decimals} decimals"
                    )),
                }
            }
            ParamSpec::Add { .. } | ParamSpec::Relative { .. } | ParamSpec::PlusMinutes { .. } => {
                Err(format!(
                    "derived from {}; override that instead",
                    self.bases().join(" and ")
                ))
            }
            ParamSpec::Gen(g) => g.parse(text),
        }
    }
}

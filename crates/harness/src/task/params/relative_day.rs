//! Days named relative to today (`tomorrow`, `in two weeks`, `next friday`), as a goal says them
//! and as a relative-date parameter resolves them against the moment the clock is set to.

use chrono::{Datelike, Duration, NaiveDate};

use super::moments::{date_value, datetime_value, with_month_cells};
use super::Value;

/// A day named relative to today, as people say it: `today`, `tomorrow`, `yesterday`, `today+N`,
/// `today-N`, `in N days`, `in two weeks`, `N days ago`, `this friday` (the next Friday, today
/// included), `next friday` (the first Friday after today). `phrase` is how a goal says it.
#[derive(Debug, Clone, PartialEq)]
pub struct RelativeDay {
    pub phrase: String,
    rule: DayRule,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum DayRule {
    Offset(i64),
    /// The first day with this weekday on or after today (`this`), or strictly after (`next`).
    Weekday {
        day: chrono::Weekday,
        strictly_after: bool,
    },
}

const NUMBER_WORDS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

impl RelativeDay {
    pub fn parse(text: &str) -> Result<RelativeDay, String> {
        let lower = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let count = |w: &str| -> Option<i64> {
            w.parse::<i64>()
                .ok()
                .or_else(|| NUMBER_WORDS.iter().position(|n| *n == w).map(|n| n as i64))
        };
        let unit = |w: &str| -> Option<i64> {
            match w.trim_end_matches('s') {
                "day" => Some(1),
                "week" => Some(7),
                _ => None,
            }
        };
        let weekday = |w: &str| -> Option<chrono::Weekday> {
            let d = w.parse::<chrono::Weekday>().ok()?;
            // chrono also takes "mon"; a goal should say the whole name.
            (w.len() > 3).then_some(d)
        };
        let rule = match words.as_slice() {
            ["today"] => DayRule::Offset(0),
            ["tomorrow"] => DayRule::Offset(1),
            ["yesterday"] => DayRule::Offset(-1),
            [w] if w.starts_with("today") => {
                let rest = &w["today".len()..];
                let (sign, n) = rest.split_at(1.min(rest.len()));
                match (sign, n.parse::<i64>()) {
                    ("+", Ok(n)) => DayRule::Offset(n),
                    ("-", Ok(n)) => DayRule::Offset(-n),
                    _ => return Err(format!("{text:?}: today+N or today-N")),
                }
            }
            ["in", n, u] => match (count(n), unit(u)) {
                (Some(n), Some(u)) => DayRule::Offset(n * u),
                _ => return Err(format!("{text:?}: in N days|weeks")),
            },
            [n, u, "ago"] => match (count(n), unit(u)) {
                (Some(n), Some(u)) => DayRule::Offset(-n * u),
                _ => return Err(format!("{text:?}: N days|weeks ago")),
            },
            [which @ ("this" | "next"), w] => match weekday(w) {
                Some(day) => DayRule::Weekday {
                    day,
                    strictly_after: *which == "next",
                },
                None => return Err(format!("{text:?}: {which} <weekday name>")),
            },
            _ => {
                return Err(format!(
                "{text:?} is not a relative day (today, tomorrow, yesterday, today+N, in N days, \
                     in N weeks, N days ago, this <weekday>, next <weekday>)"
            ))
            }
        };
        // The goal's wording: weekday names capitalised, the rest as written.
        let phrase = text
            .split_whitespace()
            .map(|w| match weekday(&w.to_ascii_lowercase()) {
                Some(_) => {
                    let mut c = w.chars();
                    c.next()
                        .map(|f| {
                            f.to_uppercase()
                                .chain(c.flat_map(char::to_lowercase))
                                .collect()
                        })
                        .unwrap_or_default()
                }
                None => w.to_string(),
            })
            .collect::<Vec<String>>()
            .join(" ");
        Ok(RelativeDay { phrase, rule })
    }

    /// The day this names when today is `today`.
    pub fn resolve(&self, today: NaiveDate) -> NaiveDate {
        match self.rule {
            DayRule::Offset(n) => today + Duration::days(n),
            DayRule::Weekday {
                day,
                strictly_after,
            } => {
                let ahead = (7 + day.num_days_from_monday() as i64
                    - today.weekday().num_days_from_monday() as i64)
                    % 7;
                let ahead = if ahead == 0 && strictly_after {
                    7
                } else {
                    ahead
                };
                today + Duration::days(ahead)
            }
        }
    }

    /// The value of this day from the anchor's value (a date, or a moment with a `date` field), at
    /// the time of day `at` if given.
    pub(super) fn value(
        &self,
        anchor_name: &str,
        anchor: &Value,
        at: Option<&Value>,
    ) -> Result<Value, String> {
        let text = anchor.fields.get("date").unwrap_or(&anchor.text);
        let today = NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| {
            format!("relative date: {anchor_name:?} = {text:?} is not a date or moment")
        })?;
        let date = self.resolve(today);
        let day = with_month_cells(date_value(date), date, today);
        let v = match at {
            None => day,
            Some(t) if t.fields.contains_key("ms_of_day") => datetime_value(day, t.clone()),
            Some(t) => return Err(format!("relative date: at = {:?} is not a time", t.text)),
        };
        Ok(v.with("phrase", &self.phrase))
    }
}

//! Task parameters: literals, choices, integer and decimal ranges, derived values, and generators
//! (phone numbers, names, dates, times, sentences, event titles, …), all drawn from one seeded
//! ChaCha stream so a (task, seed) pair always gives the same instance.
//!
//! A value is text plus named fields (`{date.weekday}`, `{number.digits}`), which lets one draw
//! feed a goal sentence, an SQL insert and a check in the forms each needs.

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate, Timelike, Weekday};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

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
    fn value(
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

/// A built-in generator.
#[derive(Debug, Clone, PartialEq)]
pub enum Generator {
    /// `+1` and ten digits (AndroidWorld's format); fields `digits`, `national`, `dashed`.
    PhoneNumber,
    /// Given and family name; fields `first`, `last`.
    Person,
    FirstName,
    LastName,
    /// A day in `[from, to]`; fields `year`, `month`, `day`, `month_name`, `weekday`, `long`
    /// (`October 16 2023`), `epoch_ms` (UTC midnight).
    Date {
        from: NaiveDate,
        to: NaiveDate,
    },
    /// A time of day with hour in `[hours.0, hours.1]` and minute from `minutes`; fields `hour`,
    /// `minute`, `hour12`, `ampm`, `hhmm`, `ms_of_day`.
    Time {
        hours: (u32, u32),
        minutes: Vec<u32>,
    },
    /// A moment (UTC) on a day in `[from, to]` at a time as [`Generator::Time`] draws it; the text is
    /// epoch milliseconds, fields are the date's and the time's.
    DateTime {
        from: NaiveDate,
        to: NaiveDate,
        hours: (u32, u32),
        minutes: Vec<u32>,
    },
    Sentence,
    EventTitle,
    /// AndroidWorld's calendar event title and description ([`super::aw_events`]).
    AwEventTitle,
    AwEventDescription,
    Word,
    Address,
    Digits {
        len: usize,
    },
    /// A file name as AndroidWorld draws one (`note_params`), ending in one of `extensions`
    /// (none when empty); fields `stem`, `ext`.
    FileName {
        extensions: Vec<String>,
    },
    /// A folder's name drawn from `from`; an override may name any folder (a file name without
    /// extension), so a harness can hand over the folder AndroidWorld drew.
    FolderName {
        from: Vec<String>,
    },
    /// `len` letters and digits (AndroidWorld's `generate_random_string`).
    RandomString {
        len: usize,
    },
    /// A note's text: a sentence when drawn, any printable text as an override.
    Text,
    /// One of `from`, drawn from its `slot`-th of `of` equal slices, so parameters that share a
    /// pool with other slots never draw the same item (AndroidWorld's `random.sample` of songs);
    /// an override may be any item of the pool.
    Distinct {
        from: Vec<String>,
        slot: usize,
        of: usize,
    },
}

impl Generator {
    pub const NAMES: &'static [&'static str] = &[
        "phone_number",
        "person",
        "first_name",
        "last_name",
        "date",
        "time",
        "datetime",
        "sentence",
        "event_title",
        "aw_event_title",
        "aw_event_description",
        "word",
        "address",
        "digits",
        "file_name",
        "folder_name",
        "random_string",
        "text",
        "distinct",
    ];
}

const FIRST: &[&str] = &[
    "Alice", "Bob", "Carol", "David", "Emma", "Frank", "Grace", "Hiro", "Isabel", "Jamal", "Keiko",
    "Liam", "Maria", "Noah", "Olivia", "Pedro", "Quinn", "Rosa", "Samir", "Tara", "Uma", "Victor",
    "Wen", "Yusuf",
];
const LAST: &[&str] = &[
    "Johnson", "Smith", "Garcia", "Nguyen", "Okafor", "Schmidt", "Rossi", "Kowalski", "Tanaka",
    "Silva", "Brown", "Clark", "Haddad", "Larsen", "Moreau", "Patel",
];
const SENTENCES: &[&str] = &[
    "Running late, be there in ten minutes.",
    "Can you pick up milk on the way home?",
    "The meeting moved to Thursday afternoon.",
    "Happy birthday! Hope you have a great day.",
    "Did you get the tickets for Saturday?",
    "I left my keys at your place.",
    "Dinner is ready whenever you are.",
    "Please call me back when you can.",
    "The package arrived this morning.",
    "Let's meet at the usual cafe at noon.",
    "Thanks for your help with the move.",
    "Remember to bring the charger.",
    "The train is delayed by twenty minutes.",
    "Can we reschedule our call to Monday?",
    "I'll send the report by end of day.",
    "Good luck with the interview tomorrow!",
];
const EVENT_PREFIX: &[&str] = &[
    "Meeting with",
    "Call with",
    "Workshop on",
    "Appointment for",
    "Catch up on",
    "Review session for",
];
const EVENT_SUBJECT: &[&str] = &[
    "the design team",
    "budget planning",
    "the dentist",
    "quarterly goals",
    "project Apollo",
    "the landlord",
    "hiring plans",
    "the book club",
    "marketing",
    "travel plans",
];
const WORDS: &[&str] = &[
    "apple", "river", "orbit", "maple", "copper", "lantern", "harbor", "meadow", "summit", "velvet",
];
const ADDRESSES: &[&str] = &[
    "123 Main St Springfield",
    "42 Elm Street Portland",
    "900 Market St San Francisco",
    "17 Harbor Road Boston",
    "5 Lake View Drive Austin",
    "250 Oak Avenue Denver",
];
const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn pick<'a>(rng: &mut ChaCha8Rng, list: &[&'a str]) -> &'a str {
    list[rng.gen_range(0..list.len())]
}

/// The value of a date (shared by the generator and literal dates in task files).
pub fn date_value(d: NaiveDate) -> Value {
    let epoch_ms = d
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc().timestamp_millis())
        .unwrap_or_default();
    let month_name = MONTHS[d.month0() as usize];
    let v = Value::plain(d.format("%Y-%m-%d").to_string())
        .with("year", d.year())
        .with("month", d.month())
        .with("day", d.day())
        .with("month_name", month_name)
        .with("weekday", d.format("%A"))
        .with("long", format!("{month_name} {} {}", d.day(), d.year()))
        .with("epoch_ms", epoch_ms)
        .with("epoch_s", epoch_ms / 1000);
    with_month_cells(v, d, d)
}

/// Where `d` sits in the month grid a calendar shows for the month of `shown` (six weeks in
/// reading order, the week starting on `first`): what a golden taps for a day whatever language
/// the days are named in. A relative day counts from its anchor's month (the one the calendar
/// opens on); it may fall outside that grid (negative or past 41), where no cell shows it.
fn month_cell(d: NaiveDate, shown: NaiveDate, first: Weekday) -> i64 {
    let first_of_month = shown.with_day(1).unwrap_or(shown);
    let lead =
        (first_of_month.weekday().num_days_from_sunday() + 7 - first.num_days_from_sunday()) % 7;
    (d - (first_of_month - Duration::days(lead as i64))).num_days()
}

/// The suffix of the `month_cell_*` field for weeks starting on `day`.
fn week_suffix(day: Weekday) -> String {
    format!("month_cell_{}", day.to_string().to_ascii_lowercase())
}

/// `v` with `month_cell` (a Sunday-first grid, as en-US shows it) and `month_cell_mon`,
/// `month_cell_sat`… for grids whose week starts on another day (the locale's, see
/// [`for_week_start`]).
fn with_month_cells(mut v: Value, d: NaiveDate, shown: NaiveDate) -> Value {
    v = v.with("month_cell", month_cell(d, shown, Weekday::Sun));
    for day in std::iter::successors(Some(Weekday::Sun), |d| Some(d.succ())).take(7) {
        v = v.with(&week_suffix(day), month_cell(d, shown, day));
    }
    v
}

/// The parameters as a phone whose calendar weeks start on `first` lays out a month grid: every
/// `…month_cell` field takes the value of its `…month_cell_<day>` variant.
pub fn for_week_start(params: &BTreeMap<String, Value>, first: Weekday) -> BTreeMap<String, Value> {
    let suffix = week_suffix(first);
    params
        .iter()
        .map(|(name, v)| {
            let mut v = v.clone();
            let moved: Vec<(String, String)> = v
                .fields
                .iter()
                .filter_map(|(k, x)| {
                    let base = k.strip_suffix(&suffix)?;
                    Some((format!("{base}month_cell"), x.clone()))
                })
                .collect();
            v.fields.extend(moved);
            (name.clone(), v)
        })
        .collect()
}

/// The value of a time of day.
pub fn time_value(hour: u32, minute: u32) -> Value {
    let (h12, ampm) = match hour {
        0 => (12, "AM"),
        1..=11 => (hour, "AM"),
        12 => (12, "PM"),
        _ => (hour - 12, "PM"),
    };
    Value::plain(format!("{hour:02}:{minute:02}"))
        .with("hour", hour)
        .with("minute", minute)
        .with("hour12", h12)
        .with("ampm", ampm)
        .with("hhmm", format!("{hour:02}{minute:02}"))
        .with("ms_of_day", (hour * 3600 + minute * 60) as i64 * 1000)
}

impl Generator {
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> Value {
        match self {
            Generator::PhoneNumber => {
                let mut national = String::new();
                national.push(char::from(b'2' + rng.gen_range(0..8u8)));
                for _ in 0..9 {
                    national.push(char::from(b'0' + rng.gen_range(0..10u8)));
                }
                phone_value(&national)
            }
            Generator::Person => {
                let (f, l) = (pick(rng, FIRST), pick(rng, LAST));
                Value::plain(format!("{f} {l}"))
                    .with("first", f)
                    .with("last", l)
            }
            Generator::FirstName => Value::plain(pick(rng, FIRST)),
            Generator::LastName => Value::plain(pick(rng, LAST)),
            Generator::Date { from, to } => {
                let span = (*to - *from).num_days().max(0);
                date_value(*from + Duration::days(rng.gen_range(0..=span)))
            }
            Generator::Time { hours, minutes } => {
                let h = rng.gen_range(hours.0..=hours.1);
                let m = if minutes.is_empty() {
                    0
                } else {
                    minutes[rng.gen_range(0..minutes.len())]
                };
                time_value(h, m)
            }
            Generator::DateTime {
                from,
                to,
                hours,
                minutes,
            } => {
                let d = Generator::Date {
                    from: *from,
                    to: *to,
                }
                .draw(rng);
                let t = Generator::Time {
                    hours: *hours,
                    minutes: minutes.clone(),
                }
                .draw(rng);
                datetime_value(d, t)
            }
            Generator::Sentence => Value::plain(pick(rng, SENTENCES)),
            Generator::EventTitle => {
                let (p, s) = (pick(rng, EVENT_PREFIX), pick(rng, EVENT_SUBJECT));
                Value::plain(format!("{p} {s}"))
            }
            Generator::AwEventTitle => Value::plain(super::aw_events::title(rng)),
            Generator::AwEventDescription => Value::plain(super::aw_events::description(rng)),
            Generator::Word => Value::plain(pick(rng, WORDS)),
            Generator::Address => Value::plain(pick(rng, ADDRESSES)),
            Generator::FileName { extensions } => {
                super::note_params::draw_file_name(rng, extensions)
            }
            Generator::FolderName { from } => {
                Value::plain(from[rng.gen_range(0..from.len())].clone())
            }
            Generator::RandomString { len } => {
                Value::plain(super::note_params::random_string(rng, *len))
            }
            Generator::Distinct { from, slot, of } => {
                let (lo, hi) = distinct_slice(from.len(), *slot, *of);
                Value::plain(from[rng.gen_range(lo..hi)].clone())
            }
            Generator::Text => Value::plain(pick(rng, SENTENCES)),
            Generator::Digits { len } => {
                let mut s = String::new();
                s.push(char::from(b'1' + rng.gen_range(0..9u8)));
                for _ in 1..*len {
                    s.push(char::from(b'0' + rng.gen_range(0..10u8)));
                }
                Value::plain(s)
            }
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

/// The longest sentence an override may give (longer than any a task types).
const MAX_SENTENCE: usize = 300;

/// A first or last name: letters, with the hyphens and apostrophes names carry (Jean-Luc, O'Neil).
fn is_name(text: &str) -> bool {
    text.chars().next().is_some_and(char::is_alphabetic)
        && text
            .chars()
            .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
}

impl Generator {
    /// A value given as text, checked against what this generator can draw (see
    /// [`ParamSpec::parse_override`]).
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        let words_from = |list: &[&str], what: &str| -> Result<Value, String> {
            list.iter()
                .find(|w| **w == text)
                .map(|w| Value::plain(*w))
                .ok_or_else(|| {
                    format!(
                        "{text:?} is not a {what} this task knows ({})",
                        list.join(", ")
                    )
                })
        };
        match self {
            Generator::PhoneNumber => {
                // Any ten digits, as AndroidWorld draws them (`generate_random_number`); a seed
                // draws only valid area codes.
                let national = text.strip_prefix("+1").unwrap_or("");
                let ok = national.len() == 10 && national.bytes().all(|b| b.is_ascii_digit());
                if !ok {
                    return Err(format!(
                        "{text:?} is not a phone number of the form +1 and ten digits"
                    ));
                }
                Ok(phone_value(national))
            }
            // Names, words and sentences are what an agent reads and types, so any well-formed
            // one will do (another benchmark's draws, `scripts/android-world --drive`); the pools
            // only decide what a seed draws.
            Generator::Person => match text.split_once(' ') {
                Some((f, l)) if is_name(f) && is_name(l) => {
                    Ok(Value::plain(text).with("first", f).with("last", l))
                }
                _ => Err(format!(
                    "{text:?} is not \"First Last\": two names of letters (such as {} {})",
                    FIRST[0], LAST[0]
                )),
            },
            Generator::FirstName | Generator::LastName if is_name(text) => Ok(Value::plain(text)),
            Generator::FirstName | Generator::LastName => Err(format!(
                "{text:?} is not a name of letters (such as {})",
                FIRST[0]
            )),
            Generator::Word if !text.is_empty() && text.chars().all(char::is_alphabetic) => {
                Ok(Value::plain(text))
            }
            Generator::Word => Err(format!(
                "{text:?} is not a word of letters (such as {})",
                WORDS[0]
            )),
            Generator::Sentence => {
                let t = text.trim();
                if t.is_empty() || t.len() > MAX_SENTENCE || t.chars().any(char::is_control) {
                    Err(format!(
                        "{text:?} is not a sentence: one line of 1 to {MAX_SENTENCE} bytes"
                    ))
                } else {
                    Ok(Value::plain(t))
                }
            }
            Generator::Address => words_from(ADDRESSES, "address"),
            Generator::EventTitle => {
                let ok = EVENT_PREFIX.iter().any(|p| {
                    text.strip_prefix(p)
                        .and_then(|rest| rest.strip_prefix(' '))
                        .is_some_and(|s| EVENT_SUBJECT.contains(&s))
                });
                if ok {
                    Ok(Value::plain(text))
                } else {
                    Err(format!(
                        "{text:?} is not an event title this task knows (one of {} followed by one of {})",
                        EVENT_PREFIX.join(", "),
                        EVENT_SUBJECT.join(", ")
                    ))
                }
            }
            Generator::AwEventTitle if super::aw_events::is_title(text) => Ok(Value::plain(text)),
            Generator::AwEventDescription if super::aw_events::is_description(text) => {
                Ok(Value::plain(text))
            }
            Generator::AwEventTitle | Generator::AwEventDescription => Err(format!(
                "{text:?} is not what AndroidWorld's events_generator writes"
            )),
            Generator::Date { from, to } => {
                let d = NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
                    .map_err(|_| format!("{text:?} is not a date YYYY-MM-DD"))?;
                if d < *from || d > *to {
                    return Err(format!("{d} is outside [{from}, {to}]"));
                }
                Ok(date_value(d))
            }
            Generator::Time { hours, minutes } => parse_time(text, *hours, minutes),
            Generator::DateTime {
                from,
                to,
                hours,
                minutes,
            } => {
                let (d, t) = text
                    .trim()
                    .split_once(' ')
                    .ok_or_else(|| format!("{text:?} is not \"YYYY-MM-DD HH:MM\""))?;
                let d = Generator::Date {
                    from: *from,
                    to: *to,
                }
                .parse(d)?;
                let t = parse_time(t, *hours, minutes)?;
                Ok(datetime_value(d, t))
            }
            Generator::FileName { extensions } => {
                super::note_params::parse_file_name(text, extensions)
            }
            Generator::FolderName { .. } => {
                super::note_params::parse_file_name(text, &[]).map(|v| Value::plain(v.text))
            }
            Generator::RandomString { len } => super::note_params::parse_random_string(text, *len),
            Generator::Text => super::note_params::parse_text(text),
            Generator::Distinct { from, .. } => from
                .iter()
                .find(|f| *f == text)
                .map(|f| Value::plain(f.clone()))
                .ok_or_else(|| format!("{text:?} is not one of {from:?}")),
            Generator::Digits { len } => {
                let ok = text.len() == *len
                    && text.bytes().all(|b| b.is_ascii_digit())
                    && !text.starts_with('0');
                if ok {
                    Ok(Value::plain(text))
                } else {
                    Err(format!(
                        "{text:?} is not {len} digits without a leading zero"
                    ))
                }
            }
        }
    }
}

/// `HH:MM` with the hour in `hours` and the minute one of `minutes` (any minute when empty).
fn parse_time(text: &str, hours: (u32, u32), minutes: &[u32]) -> Result<Value, String> {
    let (h, m) = text
        .trim()
        .split_once(':')
        .and_then(|(h, m)| Some((h.parse::<u32>().ok()?, m.parse::<u32>().ok()?)))
        .filter(|(_, m)| *m < 60)
        .ok_or_else(|| format!("{text:?} is not a time HH:MM"))?;
    if !(hours.0..=hours.1).contains(&h) {
        return Err(format!("hour {h} is outside {}..={}", hours.0, hours.1));
    }
    if !minutes.is_empty() && !minutes.contains(&m) {
        return Err(format!("minute {m} is not one of {minutes:?}"));
    }
    Ok(time_value(h, m))
}

fn phone_value(national: &str) -> Value {
    let dashed = format!("{}-{}-{}", &national[..3], &national[3..6], &national[6..]);
    Value::plain(format!("+1{national}"))
        .with("digits", format!("1{national}"))
        .with("national", national)
        .with("dashed", dashed)
}

/// `base` (a moment from `datetime_value`, or a time of day) plus `n` minutes; a time of day wraps
/// at midnight.
fn plus_minutes(name: &str, base: &Value, n: i64) -> Result<Value, String> {
    if base.fields.contains_key("date") {
        let ms: i64 = base
            .text
            .parse()
            .map_err(|_| format!("plus_minutes: {name:?} = {:?} is not a moment", base.text))?;
        let t = chrono::DateTime::from_timestamp_millis(ms + n * 60_000)
            .ok_or_else(|| format!("plus_minutes: {name:?} is out of range"))?
            .naive_utc();
        Ok(datetime_value(
            date_value(t.date()),
            time_value(t.hour(), t.minute()),
        ))
    } else {
        let ms: i64 = base
            .fields
            .get("ms_of_day")
            .and_then(|m| m.parse().ok())
            .ok_or_else(|| format!("plus_minutes: {name:?} is not a time or moment"))?;
        let minute = (ms / 60_000 + n).rem_euclid(24 * 60);
        Ok(time_value((minute / 60) as u32, (minute % 60) as u32))
    }
}

/// A date and a time of day as one moment: the text is epoch milliseconds (UTC), the fields are
/// `epoch_s` (the moment in seconds), the date's (prefixed `date_`) and the time's.
fn datetime_value(d: Value, t: Value) -> Value {
    let day_ms: i64 = d.fields["epoch_ms"].parse().unwrap_or_default();
    let tod_ms: i64 = t.fields["ms_of_day"].parse().unwrap_or_default();
    let mut v = Value::plain((day_ms + tod_ms).to_string());
    // Seconds for the apps that store them (Simple Calendar Pro's `start_ts`).
    v.fields
        .insert("epoch_s".into(), ((day_ms + tod_ms) / 1000).to_string());
    v.fields
        .extend(d.fields.into_iter().map(|(k, x)| (format!("date_{k}"), x)));
    v.fields.extend(t.fields);
    v.fields.insert("date".into(), d.text);
    v.fields.insert("time".into(), t.text);
    v
}

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
                        .filter(|n| super::note_params::parse_file_name(n, &[]).is_ok())
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

/// The items `[lo, hi)` of a pool of `len` that slot `slot` of `of` draws from: equal slices, the
/// last taking what is left over.
fn distinct_slice(len: usize, slot: usize, of: usize) -> (usize, usize) {
    let size = len / of;
    let lo = slot * size;
    let hi = if slot + 1 == of { len } else { lo + size };
    (lo, hi)
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn spec(src: &str) -> Result<ParamSpec, String> {
        let v: toml::Value =
            toml::from_str::<toml::Table>(&format!("p = {src}")).unwrap()["p"].clone();
        parse_spec(&v)
    }

    #[test]
    fn month_cells_follow_the_week_start() {
        // June 2024 starts on a Saturday.
        let d = NaiveDate::from_ymd_opt(2024, 6, 3).expect("date");
        let v = date_value(d);
        assert_eq!(v.fields["month_cell"], "8", "Sunday grid from May 26");
        assert_eq!(v.fields["month_cell_mon"], "7", "Monday grid from May 27");
        assert_eq!(v.fields["month_cell_sat"], "2", "Saturday grid from June 1");
        let mut params = BTreeMap::new();
        params.insert("d".to_string(), v);
        params.insert(
            "now".to_string(),
            datetime_value(date_value(d), time_value(9, 0)),
        );
        let monday = for_week_start(&params, Weekday::Mon);
        assert_eq!(monday["d"].fields["month_cell"], "7");
        assert_eq!(monday["now"].fields["date_month_cell"], "7");
        let sunday = for_week_start(&params, Weekday::Sun);
        assert_eq!(sunday["d"].fields["month_cell"], "8");
    }

    #[test]
    fn same_seed_same_values() {
        let specs = [
            "{ gen = \"phone_number\" }",
            "{ gen = \"person\" }",
            "{ gen = \"date\", from = \"2023-10-16\", to = \"2023-10-31\" }",
            "{ gen = \"time\", hours = [8, 11], minutes = [0, 30] }",
            "{ range = [1, 9] }",
            "{ choices = [\"a\", \"b\", \"c\"] }",
        ];
        for s in specs {
            let p = spec(s).unwrap();
            let a = p
                .draw(&mut ChaCha8Rng::seed_from_u64(7), &BTreeMap::new())
                .unwrap();
            let b = p
                .draw(&mut ChaCha8Rng::seed_from_u64(7), &BTreeMap::new())
                .unwrap();
            assert_eq!(a, b, "{s}");
        }
    }

    #[test]
    fn distinct_slots_never_draw_the_same_item_and_take_any_item_as_override() {
        let pool = "[\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\"]";
        let slots: Vec<ParamSpec> = (0..3)
            .map(|k| {
                spec(&format!(
                    "{{ gen = \"distinct\", from = {pool}, slot = {k}, of = 3 }}"
                ))
                .unwrap()
            })
            .collect();
        for seed in 0..50 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let drawn: Vec<String> = slots
                .iter()
                .map(|p| p.draw(&mut rng, &BTreeMap::new()).unwrap().text)
                .collect();
            assert!(["a", "b"].contains(&drawn[0].as_str()), "{drawn:?}");
            assert!(["c", "d"].contains(&drawn[1].as_str()), "{drawn:?}");
            assert!(["e", "f", "g"].contains(&drawn[2].as_str()), "{drawn:?}");
        }
        assert_eq!(slots[0].parse_override("g").unwrap().text, "g");
        assert!(slots[0].parse_override("z").is_err());
        assert!(spec(&format!(
            "{{ gen = \"distinct\", from = {pool}, slot = 3, of = 3 }}"
        ))
        .is_err());
    }

    #[test]
    fn generated_values_have_their_fields() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let n = Generator::PhoneNumber.draw(&mut rng);
        assert!(n.text.starts_with("+1") && n.text.len() == 12);
        assert_eq!(n.fields["digits"], n.text[1..]);
        let d = spec("{ gen = \"date\", from = \"2023-10-16\", to = \"2023-10-16\" }")
            .unwrap()
            .draw(&mut rng, &BTreeMap::new())
            .unwrap();
        assert_eq!(d.text, "2023-10-16");
        assert_eq!(d.fields["weekday"], "Monday");
        assert_eq!(d.fields["long"], "October 16 2023");
        assert_eq!(d.fields["epoch_ms"], "1697414400000");
        let t = time_value(13, 5);
        assert_eq!(
            (
                t.text.as_str(),
                t.fields["hour12"].as_str(),
                t.fields["ampm"].as_str()
            ),
            ("13:05", "1", "PM")
        );
        assert_eq!(time_value(0, 0).fields["hour12"], "12");
        let choice = spec("{ choices = [{ text = \"weekday\", mask = 31 }] }")
            .unwrap()
            .draw(&mut rng, &BTreeMap::new())
            .unwrap();
        assert_eq!(choice.fields["mask"], "31");
    }

    #[test]
    fn derived_and_overrides() {
        let mut known = BTreeMap::new();
        known.insert("hour".to_string(), Value::plain("13"));
        let add = spec("{ add = [\"hour\", -2] }").unwrap();
        assert_eq!(
            add.draw(&mut ChaCha8Rng::seed_from_u64(0), &known)
                .unwrap()
                .text,
            "11"
        );
        let range = spec("{ range = [5, 11] }").unwrap();
        assert_eq!(range.parse_override("7").unwrap().text, "7");
        assert!(range.parse_override("12").is_err());
        assert!(spec("{ choices = [\"a\"] }")
            .unwrap()
            .parse_override("b")
            .is_err());
        assert!(add.parse_override("3").unwrap_err().contains("derived"));
    }

    #[test]
    fn overrides_are_checked_by_their_generator() {
        let ok = |src: &str, text: &str| spec(src).unwrap().parse_override(text);
        let time = "{ gen = \"time\", hours = [5, 20], minutes = [0, 30] }";
        let t = ok(time, "13:30").unwrap();
        assert_eq!(
            (t.fields["hour12"].as_str(), t.fields["ampm"].as_str()),
            ("1", "PM")
        );
        for (src, text, needle) in [
            (time, "23:00", "hour 23 is outside 5..=20"),
            (time, "13:15", "minute 15 is not one of [0, 30]"),
            (time, "noon", "not a time"),
            ("{ range = [1, 9] }", "seven", "not an integer in [1, 9]"),
            ("{ range = [0, 30], step = 5 }", "7", "steps of 5"),
            (
                "{ range = [0.5, 2.5], decimals = 1 }",
                "0.25",
                "at most 1 decimals",
            ),
            (
                "{ gen = \"date\", from = \"2024-06-04\", to = \"2024-06-14\" }",
                "2024-07-01",
                "outside",
            ),
            (
                "{ gen = \"phone_number\" }",
                "555-0100",
                "+1 and ten digits",
            ),
            ("{ gen = \"digits\", len = 4 }", "12345", "4 digits"),
            (
                "{ gen = \"person\" }",
                "Robert'); DROP TABLE x;--",
                "First Last",
            ),
            ("{ gen = \"word\" }", "two words", "word of letters"),
            ("{ gen = \"sentence\" }", "line\nbreak", "one line"),
            ("\"fixed\"", "other", "fixed to"),
        ] {
            let e = ok(src, text).unwrap_err();
            assert!(e.contains(needle), "{src} with {text:?}: {e}");
        }
        // Another benchmark's draws: any well-formed name or sentence.
        let p = ok("{ gen = \"person\" }", "Louis Lopez").unwrap();
        assert_eq!(
            (p.fields["first"].as_str(), p.fields["last"].as_str()),
            ("Louis", "Lopez")
        );
        let m = ok(
            "{ gen = \"sentence\" }",
            "Pick up groceries: Milk and Bread.",
        )
        .unwrap();
        assert_eq!(m.text, "Pick up groceries: Milk and Bread.");
        let n = ok("{ gen = \"phone_number\" }", "+12025550143").unwrap();
        assert_eq!(n.fields["dashed"], "202-555-0143");
        let d = ok(
            "{ gen = \"date\", from = \"2024-06-04\", to = \"2024-06-14\" }",
            "2024-06-05",
        )
        .unwrap();
        assert_eq!(d.fields["weekday"], "Wednesday");
        let p = ok("{ gen = \"person\" }", "Alice Smith").unwrap();
        assert_eq!(p.fields["last"], "Smith");
    }

    #[test]
    fn relative_days_follow_the_anchor() {
        // 2024-06-05 is a Wednesday.
        let today = NaiveDate::from_ymd_opt(2024, 6, 5).unwrap();
        for (phrase, want, shown) in [
            ("today", "2024-06-05", "today"),
            ("tomorrow", "2024-06-06", "tomorrow"),
            ("yesterday", "2024-06-04", "yesterday"),
            ("today+3", "2024-06-08", "today+3"),
            ("today-2", "2024-06-03", "today-2"),
            ("in two weeks", "2024-06-19", "in two weeks"),
            ("in 3 days", "2024-06-08", "in 3 days"),
            ("2 weeks ago", "2024-05-22", "2 weeks ago"),
            ("this friday", "2024-06-07", "this Friday"),
            ("this wednesday", "2024-06-05", "this Wednesday"),
            ("next wednesday", "2024-06-12", "next Wednesday"),
            ("next Monday", "2024-06-10", "next Monday"),
        ] {
            let r = RelativeDay::parse(phrase).unwrap();
            assert_eq!(r.resolve(today).to_string(), want, "{phrase}");
            assert_eq!(r.phrase, shown);
        }
        for bad in [
            "someday",
            "this fri",
            "in two fortnights",
            "today+x",
            "next",
        ] {
            assert!(RelativeDay::parse(bad).is_err(), "{bad}");
        }
        // From a drawn moment, at a drawn time; the end follows the start across midnight.
        let mut known = BTreeMap::new();
        known.insert(
            "now".to_string(),
            datetime_value(date_value(today), time_value(15, 34)),
        );
        known.insert("t".to_string(), time_value(23, 30));
        known.insert("dur".to_string(), Value::plain("45"));
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let start = spec("{ date = \"tomorrow\", of = \"now\", at = \"t\" }")
            .unwrap()
            .draw(&mut rng, &known)
            .unwrap();
        assert_eq!(start.fields["date"], "2024-06-06");
        assert_eq!(start.fields["phrase"], "tomorrow");
        assert_eq!(start.text, "1717716600000");
        known.insert("start".to_string(), start);
        let end = spec("{ plus_minutes = \"dur\", of = \"start\" }")
            .unwrap()
            .draw(&mut rng, &known)
            .unwrap();
        assert_eq!(
            (end.fields["date"].as_str(), end.fields["time"].as_str()),
            ("2024-06-07", "00:15")
        );
        let wrapped = spec("{ plus_minutes = \"dur\", of = \"t\" }")
            .unwrap()
            .draw(&mut rng, &known)
            .unwrap();
        assert_eq!(wrapped.text, "00:15");
        assert!(spec("{ date = \"tomorrow\" }")
            .unwrap_err()
            .contains("of ="));
    }

    #[test]
    fn bad_specs_say_why() {
        for (src, needle) in [
            ("{ gen = \"zebra\" }", "unknown generator"),
            ("{ range = [9, 1] }", "empty range"),
            ("{ choices = [] }", "empty"),
            (
                "{ gen = \"date\", from = \"2023-13-01\", to = \"2023-10-01\" }",
                "from",
            ),
            ("{ gen = \"time\", hours = [8, 30] }", "hours"),
            ("{ range = [1, 2], colour = 3 }", "colour"),
            ("{ foo = 1 }", "needs one of"),
        ] {
            let e = spec(src).unwrap_err();
            assert!(e.contains(needle), "{src}: {e}");
        }
    }
}

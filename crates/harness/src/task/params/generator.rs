//! The built-in generators (phone numbers, names, dates, sentences, file names, …): what each
//! draws from the seeded stream, and which texts an override may give in place of a draw.

use chrono::{Duration, NaiveDate};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::moments::{date_value, datetime_value, parse_time, time_value};
use super::Value;
use crate::task::{aw_events, note_params, receipt_params};

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
    /// AndroidWorld's calendar event title and description ([`aw_events`]).
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
    /// A receipt's transaction lines ([`receipt_params`]).
    ReceiptRows,
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
        "receipt_rows",
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
fn pick<'a>(rng: &mut ChaCha8Rng, list: &[&'a str]) -> &'a str {
    list[rng.gen_range(0..list.len())]
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
            Generator::AwEventTitle => Value::plain(aw_events::title(rng)),
            Generator::AwEventDescription => Value::plain(aw_events::description(rng)),
            Generator::Word => Value::plain(pick(rng, WORDS)),
            Generator::Address => Value::plain(pick(rng, ADDRESSES)),
            Generator::FileName { extensions } => note_params::draw_file_name(rng, extensions),
            Generator::FolderName { from } => {
                Value::plain(from[rng.gen_range(0..from.len())].clone())
            }
            Generator::RandomString { len } => Value::plain(note_params::random_string(rng, *len)),
            Generator::Text => Value::plain(pick(rng, SENTENCES)),
            Generator::ReceiptRows => receipt_params::draw(rng),
            Generator::Distinct { from, slot, of } => {
                let (lo, hi) = distinct_slice(from.len(), *slot, *of);
                Value::plain(from[rng.gen_range(lo..hi)].clone())
            }
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
            Generator::AwEventTitle if aw_events::is_title(text) => Ok(Value::plain(text)),
            Generator::AwEventDescription if aw_events::is_description(text) => {
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
            Generator::FileName { extensions } => note_params::parse_file_name(text, extensions),
            Generator::FolderName { .. } => {
                note_params::parse_file_name(text, &[]).map(|v| Value::plain(v.text))
            }
            Generator::RandomString { len } => note_params::parse_random_string(text, *len),
            Generator::Text => note_params::parse_text(text),
            Generator::ReceiptRows => receipt_params::parse(text),
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

fn phone_value(national: &str) -> Value {
    let dashed = format!("{}-{}-{}", &national[..3], &national[3..6], &national[6..]);
    Value::plain(format!("+1{national}"))
        .with("digits", format!("1{national}"))
        .with("national", national)
        .with("dashed", dashed)
}

/// The items `[lo, hi)` of a pool of `len` that slot `slot` of `of` draws from: equal slices, the
/// last taking what is left over.
fn distinct_slice(len: usize, slot: usize, of: usize) -> (usize, usize) {
    let size = len / of;
    let lo = slot * size;
    let hi = if slot + 1 == of { len } else { lo + size };
    (lo, hi)
}

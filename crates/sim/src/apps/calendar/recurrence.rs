//! Repeat rules: the RFC 5545 `RRULE` text the calendar provider keeps in `Events.rrule`, the
//! choices the editor offers, and which days a repeating event falls on.
//!
//! The editor writes what Google Calendar writes for its simple choices (`FREQ=DAILY`,
//! `FREQ=WEEKLY;WKST=SU;BYDAY=MO`, `FREQ=MONTHLY`, `FREQ=YEARLY`), repeating forever. A rule
//! written by someone else (`sqlite3`, a sync adapter) is read by its `FREQ`, `INTERVAL`, `COUNT`,
//! `UNTIL` and weekly `BYDAY` parts; one it cannot read shows as "Custom" and is expanded as a
//! single event rather than guessed at.

use chrono::{Datelike, NaiveDate, Weekday};

use crate::locale;

/// How often an event repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freq {
    Daily,
    Weekly,
    Monthly,
    Yearly,
}

/// A parsed `RRULE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub freq: Freq,
    pub interval: u32,
    /// Weekly rules: the weekdays (empty: the start's weekday).
    pub by_day: Vec<Weekday>,
    pub count: Option<u32>,
    /// The last day an occurrence may start on.
    pub until: Option<NaiveDate>,
}

/// The editor's choices, in the order its dialog lists them.
pub const CHOICES: [Option<Freq>; 5] = [
    None,
    Some(Freq::Daily),
    Some(Freq::Weekly),
    Some(Freq::Monthly),
    Some(Freq::Yearly),
];

fn day_code(d: Weekday) -> &'static str {
    match d {
        Weekday::Mon => "MO",
        Weekday::Tue => "TU",
        Weekday::Wed => "WE",
        Weekday::Thu => "TH",
        Weekday::Fri => "FR",
        Weekday::Sat => "SA",
        Weekday::Sun => "SU",
    }
}

fn parse_day(code: &str) -> Option<Weekday> {
    // `BYDAY=1MO` (the first Monday) is monthly-only; a weekly rule names plain days.
    Some(match code {
        "MO" => Weekday::Mon,
        "TU" => Weekday::Tue,
        "WE" => Weekday::Wed,
        "TH" => Weekday::Thu,
        "FR" => Weekday::Fri,
        "SA" => Weekday::Sat,
        "SU" => Weekday::Sun,
        _ => return None,
    })
}

impl Rule {
    /// The rule the editor writes for `freq` on an event starting on `start`.
    pub fn simple(freq: Freq, start: NaiveDate) -> Rule {
        Rule {
            freq,
            interval: 1,
            by_day: if freq == Freq::Weekly {
                vec![start.weekday()]
            } else {
                vec![]
            },
            count: None,
            until: None,
        }
    }

    pub fn parse(text: &str) -> Option<Rule> {
        let mut rule = Rule {
            freq: Freq::Daily,
            interval: 1,
            by_day: vec![],
            count: None,
            until: None,
        };
        let mut freq = None;
        for part in text.trim().trim_start_matches("RRULE:").split(';') {
            let (k, v) = part.split_once('=')?;
            match k {
                "FREQ" => {
                    freq = Some(match v {
                        "DAILY" => Freq::Daily,
                        "WEEKLY" => Freq::Weekly,
                        "MONTHLY" => Freq::Monthly,
                        "YEARLY" => Freq::Yearly,
                        _ => return None,
                    })
                }
                "INTERVAL" => rule.interval = v.parse().ok().filter(|n| *n > 0)?,
                "COUNT" => rule.count = Some(v.parse().ok()?),
                "UNTIL" => {
                    rule.until = Some(NaiveDate::parse_from_str(v.get(..8)?, "%Y%m%d").ok()?)
                }
                "BYDAY" => {
                    rule.by_day = v.split(',').map(parse_day).collect::<Option<_>>()?;
                }
                "WKST" => {}
                _ => return None,
            }
        }
        rule.freq = freq?;
        if rule.freq != Freq::Weekly && !rule.by_day.is_empty() {
            return None;
        }
        Some(rule)
    }

    /// The `RRULE` text, in the order Google Calendar writes it.
    pub fn to_rrule(&self) -> String {
        let mut parts = vec![format!(
            "FREQ={}",
            match self.freq {
                Freq::Daily => "DAILY",
                Freq::Weekly => "WEEKLY",
                Freq::Monthly => "MONTHLY",
                Freq::Yearly => "YEARLY",
            }
        )];
        if self.freq == Freq::Weekly {
            parts.push("WKST=SU".into());
        }
        if let Some(until) = self.until {
            parts.push(format!("UNTIL={}T235959Z", until.format("%Y%m%d")));
        }
        if let Some(c) = self.count {
            parts.push(format!("COUNT={c}"));
        }
        if self.interval > 1 {
            parts.push(format!("INTERVAL={}", self.interval));
        }
        if !self.by_day.is_empty() {
            let days: Vec<&str> = self.by_day.iter().map(|d| day_code(*d)).collect();
            parts.push(format!("BYDAY={}", days.join(",")));
        }
        parts.join(";")
    }

    /// Whether an occurrence of an event first starting on `start` starts on `day`.
    pub fn occurs_on(&self, start: NaiveDate, day: NaiveDate) -> bool {
        if day < start || self.until.is_some_and(|u| day > u) {
            return false;
        }
        let n = self.interval as i64;
        let index = match self.freq {
            Freq::Daily => {
                let d = (day - start).num_days();
                (d % n == 0).then_some(d / n)
            }
            Freq::Weekly => {
                let days = if self.by_day.is_empty() {
                    vec![start.weekday()]
                } else {
                    self.by_day.clone()
                };
                let week = |d: NaiveDate| {
                    (d - start).num_days().div_euclid(7)
                        + i64::from(
                            d.weekday().num_days_from_sunday()
                                < start.weekday().num_days_from_sunday(),
                        )
                };
                let w = week(day);
                (days.contains(&day.weekday()) && w % n == 0).then(|| {
                    // Occurrences before this one: whole periods, then this week's earlier days.
                    let per = days.len() as i64;
                    (w / n) * per
                        + days
                            .iter()
                            .filter(|d| {
                                d.num_days_from_sunday() < day.weekday().num_days_from_sunday()
                            })
                            .count() as i64
                })
            }
            Freq::Monthly => {
                let months = (day.year() - start.year()) as i64 * 12 + day.month() as i64
                    - start.month() as i64;
                (day.day() == start.day() && months % n == 0).then_some(months / n)
            }
            Freq::Yearly => {
                let years = (day.year() - start.year()) as i64;
                (day.day() == start.day() && day.month() == start.month() && years % n == 0)
                    .then_some(years / n)
            }
        };
        match (index, self.count) {
            (None, _) => false,
            (Some(i), Some(c)) => i < c as i64,
            (Some(_), None) => true,
        }
    }

    /// How the editor and the details page say it: "Every week on Monday" (in `loc`'s language).
    pub fn describe(&self, loc: &str, start: NaiveDate) -> String {
        let n = self.interval;
        let f = |name: &str, args: &[&dyn std::fmt::Display]| {
            locale::format(loc, super::PACKAGE, name, args)
        };
        match self.freq {
            Freq::Daily if n > 1 => f("every_n_days", &[&n]),
            Freq::Daily => f("every_day", &[]),
            Freq::Weekly => {
                let days = if self.by_day.is_empty() {
                    vec![start.weekday()]
                } else {
                    self.by_day.clone()
                };
                let names: Vec<&str> = days.iter().map(|d| weekday_name(loc, *d)).collect();
                let names = names.join(", ");
                if n > 1 {
                    f("every_n_weeks_on", &[&n, &names])
                } else {
                    f("every_week_on", &[&names])
                }
            }
            Freq::Monthly if n > 1 => f("every_n_months_on", &[&n, &start.day()]),
            Freq::Monthly => f("every_month_on", &[&start.day()]),
            Freq::Yearly => {
                let day = locale::format(
                    loc,
                    super::PACKAGE,
                    "month_day",
                    &[&month_name(loc, start.month0()), &start.day()],
                );
                if n > 1 {
                    f("every_n_years_on", &[&n, &day])
                } else {
                    f("every_year_on", &[&day])
                }
            }
        }
    }
}

/// A weekday's full name in `loc`'s language (Calendar's `weekdays` array, Sunday first).
fn weekday_name(loc: &str, d: Weekday) -> &'static str {
    locale::array(loc, super::PACKAGE, "weekdays")
        .get(d.num_days_from_sunday() as usize)
        .map_or("", String::as_str)
}

/// A month's full name in `loc`'s language (Calendar's `months` array).
fn month_name(loc: &str, month0: u32) -> &'static str {
    locale::array(loc, super::PACKAGE, "months")
        .get(month0 as usize)
        .map_or("", String::as_str)
}

/// What the editor's repeat row and dialog show for a choice.
pub fn choice_label(loc: &str, freq: Option<Freq>, start: NaiveDate) -> String {
    match freq {
        None => locale::string(loc, super::PACKAGE, "does_not_repeat").to_string(),
        Some(f) => Rule::simple(f, start).describe(loc, start),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn rules_round_trip_and_expand() {
        let start = d(2024, 6, 3); // a Monday
        let weekly = Rule::simple(Freq::Weekly, start);
        assert_eq!(weekly.to_rrule(), "FREQ=WEEKLY;WKST=SU;BYDAY=MO");
        assert_eq!(Rule::parse(&weekly.to_rrule()), Some(weekly.clone()));
        assert!(weekly.occurs_on(start, d(2024, 6, 17)));
        assert!(!weekly.occurs_on(start, d(2024, 6, 18)));
        assert!(!weekly.occurs_on(start, d(2024, 5, 27)));
        assert_eq!(weekly.describe("en-US", start), "Every week on Monday");
        let daily = Rule::parse("FREQ=DAILY;COUNT=3").unwrap();
        assert!(daily.occurs_on(start, d(2024, 6, 5)));
        assert!(!daily.occurs_on(start, d(2024, 6, 6)));
        let biweekly = Rule::parse("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH").unwrap();
        assert!(biweekly.occurs_on(start, d(2024, 6, 6)));
        assert!(!biweekly.occurs_on(start, d(2024, 6, 10)));
        assert!(biweekly.occurs_on(start, d(2024, 6, 17)));
        let monthly = Rule::parse("FREQ=MONTHLY;UNTIL=20240831T235959Z").unwrap();
        assert!(monthly.occurs_on(start, d(2024, 8, 3)));
        assert!(!monthly.occurs_on(start, d(2024, 9, 3)));
        assert!(Rule::parse("FREQ=HOURLY").is_none());
        assert!(Rule::parse("FREQ=MONTHLY;BYDAY=1MO").is_none());
        assert_eq!(Rule::simple(Freq::Yearly, start).to_rrule(), "FREQ=YEARLY");
    }
}

//! One value test used by every evaluator that compares a string it read from the device: equality,
//! regex, fuzzy text, phone-number digits, numeric comparison with tolerance, and recency of a
//! millisecond timestamp against the device clock.

use super::text;

/// How a numeric matcher compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumOp {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

impl NumOp {
    pub fn name(self) -> &'static str {
        match self {
            NumOp::Eq => "==",
            NumOp::Ne => "!=",
            NumOp::Gt => ">",
            NumOp::Ge => ">=",
            NumOp::Lt => "<",
            NumOp::Le => "<=",
        }
    }
}

/// A test on one string value. Strings may hold task parameters (`{number}`) until the task is
/// instantiated; [`Matcher::render`] substitutes them.
#[derive(Debug, Clone, PartialEq)]
pub enum Matcher {
    /// Exactly equal (after trimming surrounding whitespace).
    Eq(String),
    Ne(String),
    /// Regex search anywhere in the value.
    Regex(String),
    Contains(String),
    StartsWith(String),
    /// difflib ratio ≥ threshold, case- and whitespace-insensitive.
    Fuzzy {
        text: String,
        threshold: f64,
    },
    /// Same phone number by digits (a leading country code 1 is optional).
    Phone(String),
    /// Numeric comparison; `tol` widens equality.
    Num {
        op: NumOp,
        value: String,
        tol: f64,
    },
    /// A millisecond epoch within this many ms before (or at) the device's current time.
    WithinMs(i64),
    /// A millisecond epoch on the device's current day (UTC, the clock checks and calendar rows
    /// use); with `at_ms`, exactly that many ms after the day's midnight.
    Today {
        at_ms: Option<String>,
    },
    /// The value is missing (`null`, NULL, or no such row/key).
    Null,
    /// Any value that is not missing.
    NotNull,
}

/// The outcome of one matcher application, with a human-readable reason when it fails.
pub type MatchResult = Result<(), String>;

impl Matcher {
    /// Applies the matcher; `value` is `None` when the device reported nothing (settings `null`,
    /// SQL NULL). `now_ms` is the device clock, needed only by [`Matcher::WithinMs`].
    pub fn check(&self, value: Option<&str>, now_ms: Option<i64>) -> MatchResult {
        // A number reads the same in any script: "١+١" on an Arabic phone is the "1+1" a task
        // expects.
        let folded = value.map(text::ascii_digits);
        let value = folded.as_deref();
        match (self, value) {
            (Matcher::Null, None) => Ok(()),
            (Matcher::Null, Some(v)) => Err(format!("expected no value, got {v:?}")),
            (Matcher::NotNull, Some(_)) => Ok(()),
            (Matcher::NotNull, None) => Err("expected a value, got null".into()),
            (Matcher::Ne(want), v) => {
                if v.map(str::trim) == Some(want.trim()) {
                    Err(format!("expected anything but {want:?}"))
                } else {
                    Ok(())
                }
            }
            (_, None) => Err(format!("expected {}, got null", self.describe())),
            (Matcher::Eq(want), Some(v)) => {
                if v.trim() == want.trim() {
                    Ok(())
                } else {
                    Err(format!("expected {want:?}, got {v:?}"))
                }
            }
            (Matcher::Regex(pattern), Some(v)) => match regex::Regex::new(pattern) {
                Ok(re) if re.is_match(v) => Ok(()),
                Ok(_) => Err(format!("{v:?} does not match /{pattern}/")),
                Err(e) => Err(format!("bad regex /{pattern}/: {e}")),
            },
            (Matcher::Contains(want), Some(v)) => {
                if v.contains(want.as_str()) {
                    Ok(())
                } else {
                    Err(format!("{v:?} does not contain {want:?}"))
                }
            }
            (Matcher::StartsWith(want), Some(v)) => {
                if v.trim().starts_with(want.as_str()) {
                    Ok(())
                } else {
                    Err(format!("{v:?} does not start with {want:?}"))
                }
            }
            (
                Matcher::Fuzzy {
                    text: want,
                    threshold,
                },
                Some(v),
            ) => {
                let r = text::ratio(&text::normalize(want), &text::normalize(v));
                if r >= *threshold {
                    Ok(())
                } else {
                    Err(format!(
                        "{v:?} is {r:.2} similar to {want:?} (needs {threshold})"
                    ))
                }
            }
            (Matcher::Phone(want), Some(v)) => {
                if text::same_phone_number(want, v) {
                    Ok(())
                } else {
                    Err(format!("phone number {v:?} is not {want:?}"))
                }
            }
            (
                Matcher::Num {
                    op,
                    value: want,
                    tol,
                },
                Some(v),
            ) => {
                let want_n =
                    parse_number(want).ok_or_else(|| format!("{want:?} is not a number"))?;
                let got = parse_number(v).ok_or_else(|| format!("{v:?} is not a number"))?;
                let ok = match op {
                    NumOp::Eq => (got - want_n).abs() <= *tol,
                    NumOp::Ne => (got - want_n).abs() > *tol,
                    NumOp::Gt => got > want_n,
                    NumOp::Ge => got >= want_n - tol,
                    NumOp::Lt => got < want_n,
                    NumOp::Le => got <= want_n + tol,
                };
                if ok {
                    Ok(())
                } else {
                    Err(format!("{got} is not {} {want_n}", op.name()))
                }
            }
            (Matcher::WithinMs(window), Some(v)) => {
                let now = now_ms.ok_or("the device clock could not be read")?;
                let t = parse_number(v).ok_or_else(|| format!("{v:?} is not a timestamp"))? as i64;
                if t <= now + 1000 && now - t <= *window {
                    Ok(())
                } else {
                    Err(format!(
                        "timestamp {t} is not within {window} ms before {now}"
                    ))
                }
            }
            (Matcher::Today { at_ms }, Some(v)) => {
                const DAY: i64 = 86_400_000;
                let now = now_ms.ok_or("the device clock could not be read")?;
                let midnight = now - now.rem_euclid(DAY);
                let t = parse_number(v).ok_or_else(|| format!("{v:?} is not a timestamp"))? as i64;
                let day = |ms: i64| {
                    chrono::DateTime::from_timestamp_millis(ms)
                        .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
                        .unwrap_or_else(|| ms.to_string())
                };
                match at_ms {
                    None if (midnight..midnight + DAY).contains(&t) => Ok(()),
                    None => Err(format!(
                        "{} is not on the device's day {}",
                        day(t),
                        day(midnight)
                    )),
                    Some(at) => {
                        let at = parse_number(at)
                            .ok_or_else(|| format!("{at:?} is not a number"))?
                            as i64;
                        if t == midnight + at {
                            Ok(())
                        } else {
                            Err(format!(
                                "{} is not {} (today on the device)",
                                day(t),
                                day(midnight + at)
                            ))
                        }
                    }
                }
            }
        }
    }

    /// Whether checking needs the device clock.
    pub fn uses_clock(&self) -> bool {
        matches!(self, Matcher::WithinMs(_) | Matcher::Today { .. })
    }

    /// Short text for evidence (`== "10"`, `~ "hello" (0.9)`).
    pub fn describe(&self) -> String {
        match self {
            Matcher::Eq(s) => format!("== {s:?}"),
            Matcher::Ne(s) => format!("!= {s:?}"),
            Matcher::Regex(s) => format!("=~ /{s}/"),
            Matcher::Contains(s) => format!("contains {s:?}"),
            Matcher::StartsWith(s) => format!("starts with {s:?}"),
            Matcher::Fuzzy { text, threshold } => format!("~ {text:?} ({threshold})"),
            Matcher::Phone(s) => format!("phone {s:?}"),
            Matcher::Num { op, value, tol } if *tol > 0.0 => {
                format!("{} {value} ±{tol}", op.name())
            }
            Matcher::Num { op, value, .. } => format!("{} {value}", op.name()),
            Matcher::WithinMs(ms) => format!("within {ms} ms of now"),
            Matcher::Today { at_ms: None } => "today".into(),
            Matcher::Today { at_ms: Some(ms) } => format!("today + {ms} ms"),
            Matcher::Null => "null".into(),
            Matcher::NotNull => "not null".into(),
        }
    }

    /// Applies `f` to every string this matcher holds (parameter substitution).
    pub fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        match self {
            Matcher::Eq(s)
            | Matcher::Ne(s)
            | Matcher::Regex(s)
            | Matcher::Contains(s)
            | Matcher::StartsWith(s)
            | Matcher::Phone(s)
            | Matcher::Fuzzy { text: s, .. }
            | Matcher::Num { value: s, .. }
            | Matcher::Today { at_ms: Some(s) } => *s = f(s),
            Matcher::Today { at_ms: None } => {}
            Matcher::WithinMs(_) | Matcher::Null | Matcher::NotNull => {}
        }
    }
}

/// Parses `42`, ` 4.5 `, `1e3`; also accepts a trailing `%` (volume and brightness labels).
pub fn parse_number(s: &str) -> Option<f64> {
    let t = s.trim().trim_end_matches('%').trim();
    t.parse::<f64>().ok().filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(op: NumOp, v: &str) -> Matcher {
        Matcher::Num {
            op,
            value: v.into(),
            tol: 0.0,
        }
    }

    #[test]
    fn table() {
        let cases: &[(Matcher, Option<&str>, bool)] = &[
            (Matcher::Eq("1".into()), Some("1\n"), true),
            (Matcher::Eq("1".into()), Some("0"), false),
            (Matcher::Eq("1".into()), None, false),
            (Matcher::Ne("0".into()), Some("1"), true),
            (Matcher::Ne("0".into()), None, true),
            (Matcher::Ne("0".into()), Some("0"), false),
            (Matcher::Regex("^1[0-9]$".into()), Some("12"), true),
            (Matcher::Regex("(".into()), Some("12"), false),
            // Numbers in the phone's script read as the task's ASCII ones.
            (Matcher::Eq("1+1".into()), Some("١+١"), true),
            (Matcher::Eq("1+1".into()), Some("١+٢"), false),
            (
                Matcher::StartsWith("4.44".into()),
                Some("٤٫٤٤٧٢١٣٥٩٥٥"),
                true,
            ),
            (Matcher::Regex("^1[0-9]$".into()), Some("\u{200F}١٢"), true),
            (num(NumOp::Eq, "1234.5"), Some("١٢٣٤٫٥"), true),
            (Matcher::Eq("42".into()), Some("४२"), true),
            (
                Matcher::Fuzzy {
                    text: "Call mom".into(),
                    threshold: 0.9,
                },
                Some("call Mom "),
                true,
            ),
            (
                Matcher::Phone("+1 555-010-2030".into()),
                Some("5550102030"),
                true,
            ),
            (num(NumOp::Gt, "1"), Some("4"), true),
            (num(NumOp::Gt, "4"), Some("4"), false),
            (num(NumOp::Le, "4"), Some(" 4 "), true),
            (num(NumOp::Eq, "4.44"), Some("4.444"), false),
            (
                Matcher::Num {
                    op: NumOp::Eq,
                    value: "4.44".into(),
                    tol: 0.01,
                },
                Some("4.444"),
                true,
            ),
            (num(NumOp::Eq, "5"), Some("five"), false),
            (Matcher::StartsWith("4.44".into()), Some("4.4444444"), true),
            (Matcher::Null, None, true),
            (Matcher::NotNull, None, false),
        ];
        for (m, v, want) in cases {
            assert_eq!(m.check(*v, None).is_ok(), *want, "{m:?} on {v:?}");
        }
    }

    #[test]
    fn within_ms_uses_device_clock() {
        let m = Matcher::WithinMs(300_000);
        assert!(m
            .check(Some("1697384000000"), Some(1_697_384_100_000))
            .is_ok());
        assert!(m
            .check(Some("1697384000000"), Some(1_697_384_400_001))
            .is_err());
        assert!(m.check(Some("1697384000000"), None).is_err());
    }

    #[test]
    fn today_is_the_device_day() {
        // 2024-06-05 08:30 UTC on the device.
        let now = Some(1_717_576_200_000);
        let today = Matcher::Today { at_ms: None };
        assert!(today.check(Some("1717545600000"), now).is_ok(), "midnight");
        assert!(today.check(Some("1717631999999"), now).is_ok(), "last ms");
        assert!(today.check(Some("1717632000000"), now).is_err(), "tomorrow");
        let at_ten = Matcher::Today {
            at_ms: Some("36000000".into()),
        };
        assert!(at_ten.check(Some("1717581600000"), now).is_ok());
        let e = at_ten.check(Some("1717585200000"), now).unwrap_err();
        assert!(
            e.contains("2024-06-05 11:00") && e.contains("2024-06-05 10:00"),
            "{e}"
        );
        assert!(at_ten.check(Some("1717581600000"), None).is_err());
    }
}

//! Agent answers for query tasks, compared with AndroidWorld's rules: exact, fuzzy (difflib ≥ 0.9),
//! a number with tolerance, a date, a time, or an unordered comma-separated list of any of those.

use chrono::{NaiveDate, NaiveTime};

use super::text;

/// How an answer item is compared with an expected item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AnswerMatch {
    Exact,
    Fuzzy(f64),
    Number(f64),
    Date,
    Time,
}

/// Compares `answer` with `expected`. With `list`, both sides are split on commas and must have the
/// same number of items, matched in any order.
pub fn compare(
    answer: &str,
    expected: &[String],
    how: AnswerMatch,
    list: bool,
) -> Result<(), String> {
    let got: Vec<String> = if list {
        text::split_list(answer)
    } else {
        vec![answer.trim().to_string()]
    };
    if got.len() != expected.len() {
        return Err(format!(
            "answer has {} item(s) {got:?}, expected {} {expected:?}",
            got.len(),
            expected.len()
        ));
    }
    let mut used = vec![false; got.len()];
    for want in expected {
        let hit = got
            .iter()
            .enumerate()
            .find(|(i, g)| !used[*i] && item_matches(g, want, how));
        match hit {
            Some((i, _)) => used[i] = true,
            None => return Err(format!("no answer item matches {want:?} (got {got:?})")),
        }
    }
    Ok(())
}

fn item_matches(got: &str, want: &str, how: AnswerMatch) -> bool {
    match how {
        AnswerMatch::Exact => got.trim() == want.trim(),
        AnswerMatch::Fuzzy(t) => text::fuzzy_eq(got, want, t),
        AnswerMatch::Number(tol) => match (first_number(got), first_number(want)) {
            (Some(a), Some(b)) => (a - b).abs() <= tol,
            _ => false,
        },
        AnswerMatch::Date => match (parse_date(got), parse_date(want)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        },
        AnswerMatch::Time => match (parse_time(got), parse_time(want)) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        },
    }
}

/// The first number in free text (`"about 42.5 km"` → 42.5; thousands separators allowed).
pub fn first_number(s: &str) -> Option<f64> {
    let re = regex::Regex::new(r"-?\d[\d,]*(\.\d+)?").expect("static regex");
    re.find(s)
        .and_then(|m| m.as_str().replace(',', "").parse().ok())
}

/// Dates as people and the benchmarks write them: `2023-10-16`, `October 16 2023`, `Oct 16, 2023`,
/// `16 October 2023`, `10/16/2023`.
pub fn parse_date(s: &str) -> Option<NaiveDate> {
    let cleaned = s.trim().replace(',', "");
    let cleaned = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    for fmt in [
        "%Y-%m-%d",
        "%B %d %Y",
        "%b %d %Y",
        "%d %B %Y",
        "%d %b %Y",
        "%m/%d/%Y",
        "%A %B %d %Y",
    ] {
        if let Ok(d) = NaiveDate::parse_from_str(&cleaned, fmt) {
            return Some(d);
        }
    }
    None
}

/// Times: `15:30`, `3:30 PM`, `3:30pm`, `3pm`, `15h`.
pub fn parse_time(s: &str) -> Option<NaiveTime> {
    let t = s.trim().to_lowercase().replace(' ', "").replace('.', "");
    let (body, pm) = if let Some(b) = t.strip_suffix("pm") {
        (b.to_string(), Some(true))
    } else if let Some(b) = t.strip_suffix("am") {
        (b.to_string(), Some(false))
    } else {
        (t.trim_end_matches('h').to_string(), None)
    };
    let (h, m) = match body.split_once(':') {
        Some((h, m)) => (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?),
        None => (body.parse::<u32>().ok()?, 0),
    };
    let h = match pm {
        Some(true) if h < 12 => h + 12,
        Some(false) if h == 12 => 0,
        _ => h,
    };
    NaiveTime::from_hms_opt(h, m, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn table() {
        let cases: &[(&str, &[&str], AnswerMatch, bool, bool)] = &[
            ("Bug Bash", &["Bug Bash"], AnswerMatch::Exact, false, true),
            ("bug bash", &["Bug Bash"], AnswerMatch::Exact, false, false),
            (
                "bug bash",
                &["Bug Bash"],
                AnswerMatch::Fuzzy(0.9),
                false,
                true,
            ),
            (
                "Data Dive, Bug Bash",
                &["Bug Bash", "Data Dive"],
                AnswerMatch::Fuzzy(0.9),
                true,
                true,
            ),
            (
                "Data Dive",
                &["Bug Bash", "Data Dive"],
                AnswerMatch::Fuzzy(0.9),
                true,
                false,
            ),
            (
                "Data Dive, Gym, Bug Bash",
                &["Bug Bash", "Data Dive"],
                AnswerMatch::Fuzzy(0.9),
                true,
                false,
            ),
            ("It is 42.", &["42"], AnswerMatch::Number(0.0), false, true),
            ("4.44", &["4.4444"], AnswerMatch::Number(0.01), false, true),
            ("1,234", &["1234"], AnswerMatch::Number(0.0), false, true),
            (
                "October 16, 2023",
                &["2023-10-16"],
                AnswerMatch::Date,
                false,
                true,
            ),
            (
                "Oct 17 2023",
                &["2023-10-16"],
                AnswerMatch::Date,
                false,
                false,
            ),
            ("3:30 PM", &["15:30"], AnswerMatch::Time, false, true),
            ("12am", &["00:00"], AnswerMatch::Time, false, true),
            ("nonsense", &["15:30"], AnswerMatch::Time, false, false),
        ];
        for (answer, expected, how, list, want) in cases {
            assert_eq!(
                compare(answer, &v(expected), *how, *list).is_ok(),
                *want,
                "{answer:?} vs {expected:?} ({how:?}, list={list})"
            );
        }
    }
}

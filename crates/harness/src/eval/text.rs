//! Text comparison shared by every evaluator: difflib-style similarity (the ratio AndroidWorld's
//! checks use, threshold 0.9), digit-only and whitespace normalisation, and comma-list splitting.

/// `s` with every decimal digit in ASCII (Arabic-Indic ٠–٩, Persian ۰–۹, Devanagari ०–९,
/// fullwidth…), the Arabic decimal and thousands separators as `.` and `,`, and the invisible
/// bidi marks Android puts around numbers in right-to-left text dropped. Borrowed when there is
/// nothing to change.
pub fn ascii_digits(s: &str) -> std::borrow::Cow<'_, str> {
    let changes = |c: char| {
        (!c.is_ascii() && digit_value(c).is_some())
            || matches!(
                c,
                '\u{066B}' | '\u{066C}' | '\u{200E}' | '\u{200F}' | '\u{061C}'
            )
    };
    if !s.chars().any(changes) {
        return std::borrow::Cow::Borrowed(s);
    }
    s.chars()
        .filter_map(|c| match c {
            '\u{066B}' => Some('.'),
            '\u{066C}' => Some(','),
            '\u{200E}' | '\u{200F}' | '\u{061C}' => None,
            c => Some(
                digit_value(c)
                    .and_then(|d| char::from_digit(d, 10))
                    .unwrap_or(c),
            ),
        })
        .collect::<String>()
        .into()
}

/// The value of a decimal digit (Unicode `Nd`) in the scripts the phone's locales write.
fn digit_value(c: char) -> Option<u32> {
    let zero = match c {
        '0'..='9' => '0',
        '\u{0660}'..='\u{0669}' => '\u{0660}',
        '\u{06F0}'..='\u{06F9}' => '\u{06F0}',
        '\u{0966}'..='\u{096F}' => '\u{0966}',
        '\u{09E6}'..='\u{09EF}' => '\u{09E6}',
        '\u{FF10}'..='\u{FF19}' => '\u{FF10}',
        _ => return None,
    };
    Some(c as u32 - zero as u32)
}

/// Python `difflib.SequenceMatcher(None, a, b).ratio()`: 2·M / (|a| + |b|) where M counts the
/// characters in the recursively found longest matching blocks (Ratcliff/Obershelp). Both empty → 1.0.
pub fn ratio(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let matches = matching_chars(&a, &b);
    2.0 * matches as f64 / (a.len() + b.len()) as f64
}

fn matching_chars(a: &[char], b: &[char]) -> usize {
    let (mut best_i, mut best_j, mut best_len) = (0, 0, 0);
    // Dynamic programming over the previous row of match lengths keeps this O(|a|·|b|) in time and
    // O(|b|) in memory; answers are short strings (titles, messages), so this is cheap.
    let mut prev = vec![0usize; b.len() + 1];
    for i in 0..a.len() {
        let mut cur = vec![0usize; b.len() + 1];
        for j in 0..b.len() {
            if a[i] == b[j] {
                cur[j + 1] = prev[j] + 1;
                if cur[j + 1] > best_len {
                    best_len = cur[j + 1];
                    best_i = i + 1 - best_len;
                    best_j = j + 1 - best_len;
                }
            }
        }
        prev = cur;
    }
    if best_len == 0 {
        return 0;
    }
    best_len
        + matching_chars(&a[..best_i], &b[..best_j])
        + matching_chars(&a[best_i + best_len..], &b[best_j + best_len..])
}

/// Case-insensitive, whitespace-collapsed similarity ≥ `threshold` (AndroidWorld's `fuzzy_match`).
pub fn fuzzy_eq(a: &str, b: &str, threshold: f64) -> bool {
    ratio(&normalize(a), &normalize(b)) >= threshold
}

/// Lowercase, trimmed, runs of whitespace collapsed to one space.
pub fn normalize(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Only the ASCII digits of `s` (phone numbers compare this way: `+1 (555) 010-2030` → `15550102030`).
pub fn digits(s: &str) -> String {
    s.chars().filter(|c| c.is_ascii_digit()).collect()
}

/// Phone numbers are equal when their digits are, allowing a missing country code `1` on either side.
pub fn same_phone_number(a: &str, b: &str) -> bool {
    let (a, b) = (digits(a), digits(b));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let strip = |s: &str| -> String {
        if s.len() == 11 && s.starts_with('1') {
            s[1..].to_string()
        } else {
            s.to_string()
        }
    };
    strip(&a) == strip(&b)
}

/// Splits an answer like `"Bug Bash, Data Dive"` into trimmed, non-empty items.
pub fn split_list(s: &str) -> Vec<String> {
    s.split([',', '\n'])
        .map(|p| p.trim().trim_end_matches('.').trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_matches_python_difflib() {
        // Values computed with CPython's difflib.SequenceMatcher(None, a, b).ratio().
        let cases = [
            ("abcd", "bcde", 0.75),
            ("hello world", "hello world", 1.0),
            ("", "", 1.0),
            ("abc", "", 0.0),
            (
                "The quick brown fox",
                "The quick brown fax",
                0.9473684210526315,
            ),
            (
                "Meeting with Alice",
                "meeting with alice",
                0.8888888888888888,
            ),
        ];
        for (a, b, want) in cases {
            let got = ratio(a, b);
            assert!(
                (got - want).abs() < 1e-9,
                "{a:?} vs {b:?}: got {got}, want {want}"
            );
        }
    }

    #[test]
    fn fuzzy_is_case_and_space_insensitive() {
        assert!(fuzzy_eq("Meeting  with Alice", "meeting with alice", 0.9));
        assert!(!fuzzy_eq("Meeting with Alice", "Lunch with Bob", 0.9));
    }

    #[test]
    fn phone_numbers_compare_by_digits() {
        assert!(same_phone_number("+1 (555) 010-2030", "5550102030"));
        assert!(same_phone_number("+15550102030", "1-555-010-2030"));
        assert!(!same_phone_number("+15550102031", "5550102030"));
        assert!(!same_phone_number("", ""));
    }

    #[test]
    fn lists_split_on_commas_and_lines() {
        assert_eq!(
            split_list("Bug Bash, Data Dive.\nGym"),
            ["Bug Bash", "Data Dive", "Gym"]
        );
        assert!(split_list(" , ").is_empty());
    }
}

//! Phone-number text the way Android's `PhoneNumberUtils` treats it for the phone's region (US):
//! stripping separators, E.164 normalisation, caller-id matching, display formatting and
//! emergency numbers.

/// Keeps the dialable characters (digits, `+`, `*`, `#`), as `PhoneNumberUtils.stripSeparators`.
pub fn strip_separators(number: &str) -> String {
    number
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '+' | '*' | '#'))
        .collect()
}

/// Only the digits.
pub fn digits(number: &str) -> String {
    number.chars().filter(char::is_ascii_digit).collect()
}

/// E.164 for a US number (`(650) 555-0123` → `+16505550123`); `None` when it is not one.
pub fn normalize(number: &str) -> Option<String> {
    let stripped = strip_separators(number);
    if let Some(rest) = stripped.strip_prefix('+') {
        let d = digits(rest);
        return (d.len() >= 8 && d.len() == rest.len()).then(|| format!("+{d}"));
    }
    let d = digits(&stripped);
    if d.len() != stripped.len() {
        return None;
    }
    match d.len() {
        10 if !d.starts_with(['0', '1']) => Some(format!("+1{d}")),
        11 if d.starts_with('1') => Some(format!("+{d}")),
        _ => None,
    }
}

/// Whether two numbers reach the same line (`PhoneNumberUtils.compare`: the last 7 digits agree).
pub fn same_line(a: &str, b: &str) -> bool {
    let (a, b) = (digits(a), digits(b));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let tail = |s: &str| s[s.len().saturating_sub(7)..].to_string();
    if a.len() < 7 || b.len() < 7 {
        return a == b;
    }
    tail(&a) == tail(&b)
}

/// `phone_lookup.min_match`: the last 7 digits reversed.
pub fn min_match(number: &str) -> String {
    let d = digits(number);
    d[d.len().saturating_sub(7)..].chars().rev().collect()
}

/// How the in-call screen and call log show a dialled number: the US national pattern when one
/// applies to the digits, otherwise the number as dialled (`formatInOriginalFormat`).
pub fn format_for_display(number: &str) -> String {
    let stripped = strip_separators(number);
    if stripped.contains(['*', '#']) {
        return stripped;
    }
    if let Some(rest) = stripped.strip_prefix("+1") {
        if rest.len() == 10 && !rest.starts_with(['0', '1']) {
            return format!("+1 {}-{}-{}", &rest[..3], &rest[3..6], &rest[6..]);
        }
        return stripped;
    }
    let d = stripped.as_str();
    match d.len() {
        7 if !d.starts_with(['0', '1']) => format!("{}-{}", &d[..3], &d[3..]),
        10 if !d.starts_with(['0', '1']) => {
            format!("({}) {}-{}", &d[..3], &d[3..6], &d[6..])
        }
        11 if d.starts_with('1') && !d[1..].starts_with(['0', '1']) => {
            format!("1 {}-{}-{}", &d[1..4], &d[4..7], &d[7..])
        }
        _ => stripped,
    }
}

/// How Messages names a number it has no contact for (Bugle's `PhoneUtils.formatForDisplay`): a
/// number of the phone's own country (US, +1) in the national pattern, whether it arrived as
/// `+16505550123` or `6505550123`; any other as [`format_for_display`] shows it.
pub fn format_national(number: &str) -> String {
    match normalize(number) {
        Some(e164) if e164.starts_with("+1") => format_for_display(&e164[2..]),
        _ => format_for_display(number),
    }
}

/// The dialpad's as-you-type formatting (`PhoneNumberFormattingTextWatcher`, US).
pub fn format_as_you_type(typed: &str) -> String {
    let raw = strip_separators(typed);
    if raw.is_empty() || raw.contains(['*', '#']) || raw[1..].contains('+') {
        return raw;
    }
    if let Some(rest) = raw.strip_prefix("+1") {
        return match national(rest, " ") {
            Some(n) if !rest.is_empty() => format!("+1 {n}"),
            _ => raw,
        };
    }
    if raw.starts_with('+') {
        return raw;
    }
    if let Some(rest) = raw.strip_prefix('1') {
        if rest.is_empty() {
            return raw;
        }
        return match national(rest, "-") {
            Some(n) => format!("1 {n}"),
            None => raw,
        };
    }
    if raw.starts_with('0') {
        return raw;
    }
    match raw.len() {
        0..=3 => raw,
        4..=7 => format!("{}-{}", &raw[..3], &raw[3..]),
        8..=10 => format!("({}) {}-{}", &raw[..3], &raw[3..6], &raw[6..]),
        _ => raw,
    }
}

/// `NNN-NNN-NNNN` grouping for the national part after a `1` or `+1` prefix (`sep` after the area
/// code); `None` past ten digits.
fn national(rest: &str, sep: &str) -> Option<String> {
    if rest.starts_with(['0', '1']) {
        return None;
    }
    Some(match rest.len() {
        0..=3 => rest.to_string(),
        4..=6 => format!("{}{sep}{}", &rest[..3], &rest[3..]),
        7..=10 => format!("{}{sep}{}-{}", &rest[..3], &rest[3..6], &rest[6..]),
        _ => return None,
    })
}

/// Numbers Telecom routes as emergency calls on a US SIM (plus the GSM-mandated ones).
pub fn is_emergency(number: &str) -> bool {
    matches!(
        strip_separators(number).as_str(),
        "112" | "911" | "999" | "000" | "08" | "110" | "118" | "119"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_formatting_matches_the_bmoca_expectations() {
        // (dialled, what contactgrid_contact_name shows with spaces removed)
        let cases = [
            ("11489", "11489"),
            ("311311", "311311"),
            ("1234578", "1234578"),
            ("2234458", "223-4458"),
            ("4027717", "402-7717"),
            ("3017130622", "(301)713-0622"),
            ("8007721213", "(800)772-1213"),
            ("(202) 456-1111", "(202)456-1111"),
            ("911", "911"),
        ];
        for (dialled, shown) in cases {
            assert_eq!(
                format_for_display(dialled).replace(' ', ""),
                shown,
                "{dialled}"
            );
        }
    }

    #[test]
    fn messages_shows_us_numbers_nationally() {
        assert_eq!(format_national("+16505550123"), "(650) 555-0123");
        assert_eq!(format_national("6505550123"), "(650) 555-0123");
        assert_eq!(format_national("+447911123456"), "+447911123456");
        assert_eq!(format_national("32665"), "32665");
    }

    #[test]
    fn as_you_type_groups_like_the_dialpad() {
        let cases = [
            ("2", "2"),
            ("223", "223"),
            ("2234", "223-4"),
            ("2234458", "223-4458"),
            ("22344581", "(223) 445-81"),
            ("3017130622", "(301) 713-0622"),
            ("13017130622", "1 301-713-0622"),
            ("+13017130622", "+1 301 713-0622"),
            ("*#06#", "*#06#"),
            ("301713062299", "301713062299"),
        ];
        for (typed, shown) in cases {
            assert_eq!(format_as_you_type(typed), shown, "{typed}");
        }
    }

    #[test]
    fn normalisation_and_matching() {
        assert_eq!(normalize("(650) 555-0123").as_deref(), Some("+16505550123"));
        assert_eq!(
            normalize("+1 650 555 0123").as_deref(),
            Some("+16505550123")
        );
        assert_eq!(normalize("911"), None);
        assert!(same_line("+16505550123", "555-0123"));
        assert!(!same_line("911", "112"));
        assert_eq!(min_match("+16505550123"), "3210555");
        assert!(is_emergency("9-1-1"));
        assert!(!is_emergency("9110"));
    }
}

//! The phone's locale: which language a string is shown in, which way text runs, and how dates
//! and numbers read.
//!
//! Strings are Android string resources: `res/<package>/values[-qualifier]/strings.xml` at the
//! repository root, compiled in (`res.rs`), looked up with [`string`], [`format`], [`plural`] and
//! [`array`]. Each app's strings live under its own package (its launcher label is `app_label`);
//! system UI's under `com.android.systemui`, the framework's (dialog buttons) under `android`.

use std::fmt::Display;

pub mod coverage;
pub mod datetime;
mod formatter;
pub mod numbers;
mod plural;
pub mod res;

/// The language part of a BCP 47 tag (`ko` of `ko-KR`, `zh` of `zh-Hans-CN`).
pub fn language(locale: &str) -> &str {
    locale.split(['-', '_']).next().unwrap_or("")
}

/// Whether the locale's script runs right to left (Arabic, Urdu, Persian, Hebrew), so layouts
/// mirror.
pub fn is_rtl(locale: &str) -> bool {
    matches!(language(locale), "ar" | "ur" | "fa" | "he" | "iw")
}

/// The region part of a tag, upper-cased (`KR` of `ko-KR`, `CN` of `zh-Hans-CN`), if any.
pub fn region(locale: &str) -> Option<String> {
    locale
        .split(['-', '_'])
        .skip(1)
        .find(|p| p.len() == 2 || (p.len() == 3 && p.bytes().all(|b| b.is_ascii_digit())))
        .map(str::to_ascii_uppercase)
}

/// The string resource `name` of `package` in the locale (`res/<package>/values*/strings.xml`,
/// region → language → default, as Android resolves it).
///
/// A name the default `values/` lacks is a programming error: debug builds (the tests) panic
/// with the name, release builds show the name itself, so the screen says what is missing.
pub fn string<'a>(locale: &str, package: &str, name: &'a str) -> &'a str {
    match res::resources()
        .lookup(locale, package, name)
        .map(|e| &e.value)
    {
        Some(res::Value::Text(t)) => t,
        other => missing(package, name, "<string>", other.is_some()),
    }
}

/// The string resource `name` with its `%1$s`/`%1$d`/`%s` placeholders filled from `args` as
/// `String.format(locale, …)` fills them (numbers in the locale's digits).
pub fn format(locale: &str, package: &str, name: &str, args: &[&dyn Display]) -> String {
    formatter::java_format(string(locale, package, name), locale, args)
}

/// The `<plurals>` resource `name` for `count` (the locale's CLDR category, `other` when the
/// translation lacks it), placeholders filled from `args` (pass `count` among them when the text
/// shows it).
pub fn plural(
    locale: &str,
    package: &str,
    name: &str,
    count: i64,
    args: &[&dyn Display],
) -> String {
    match res::resources()
        .lookup(locale, package, name)
        .map(|e| &e.value)
    {
        Some(res::Value::Plurals(items)) => {
            let wanted = plural::category(locale, count);
            let text = items
                .iter()
                .find(|(q, _)| q == wanted)
                .or_else(|| items.iter().find(|(q, _)| q == "other"))
                .map_or("", |(_, t)| t.as_str());
            formatter::java_format(text, locale, args)
        }
        other => missing(package, name, "<plurals>", other.is_some()).to_string(),
    }
}

/// The `<string-array>` resource `name` in the locale.
pub fn array(locale: &str, package: &str, name: &str) -> &'static [String] {
    match res::resources()
        .lookup(locale, package, name)
        .map(|e| &e.value)
    {
        Some(res::Value::Array(items)) => items,
        other => {
            missing(package, name, "<string-array>", other.is_some());
            &[]
        }
    }
}

fn missing<'a>(package: &str, name: &'a str, kind: &str, wrong_kind: bool) -> &'a str {
    let problem = if wrong_kind { "is no" } else { "has no" };
    debug_assert!(
        false,
        "res/{package}/values/strings.xml {problem} {kind} {name:?}"
    );
    name
}

pub use datetime::{default_24h, format_date, format_time, DateStyle, Width};
pub use numbers::{format_decimal, format_integer, localize_digits};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rtl_and_lookup_fall_back_to_english() {
        assert!(is_rtl("ar-EG") && is_rtl("ur-PK") && !is_rtl("ko-KR"));
        let launcher = crate::apps::launcher::PACKAGE;
        assert_eq!(
            string("ko-KR", launcher, "all_apps_search_bar_hint"),
            "앱 검색"
        );
        assert_eq!(
            string("ak-GH", launcher, "all_apps_search_bar_hint"),
            "Search apps"
        );
    }
}

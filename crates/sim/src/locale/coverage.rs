//! Checks over the compiled-in string resources that no single lookup can make: every translated
//! name exists in the default `values/`, translations take the default's arguments, and the apps
//! declared finished are translated into every B-MoCA locale's language.

use std::collections::BTreeSet;

use super::res::{self, resources, Entries, Value};

/// Packages whose every translatable string must resolve to a translation in every B-MoCA
/// locale but Akan (Android's apps ship no `values-ak`; an ak-GH phone shows English, as here).
pub const TRANSLATED: &[&str] = &[
    "com.google.android.apps.nexuslauncher",
    "com.google.android.deskclock",
    "com.google.android.calculator",
    "com.google.android.contacts",
    "com.google.android.dialer",
    "com.google.android.apps.messaging",
    "com.google.android.calendar",
    "com.android.settings",
    "com.android.systemui",
    "android",
];

/// Locales whose language Android's own apps do not translate into.
const UNTRANSLATED_LANGUAGES: &[&str] = &["en", "ak"];

/// One problem found in the resources, as a sentence naming the file and the string.
pub fn problems() -> Vec<String> {
    let res = resources();
    let mut out = Vec::new();
    for (package, qualifier, entries) in res.files() {
        if qualifier == "values" {
            continue;
        }
        let file = format!("res/{package}/{qualifier}/strings.xml");
        let Some(default) = res.file(package, "values") else {
            out.push(format!("{file}: the package has no values/strings.xml"));
            continue;
        };
        for (name, entry) in entries {
            let Some(base) = default.get(name) else {
                out.push(format!("{file}: {name:?} is not in values/strings.xml"));
                continue;
            };
            if !base.translatable {
                out.push(format!("{file}: {name:?} is translatable=\"false\""));
            }
            if let Some(p) = argument_mismatch(&base.value, &entry.value) {
                out.push(format!("{file}: {name:?} {p}"));
            }
        }
    }
    out
}

/// How a translation's placeholders or shape differ from the default's, if they do.
fn argument_mismatch(base: &Value, tr: &Value) -> Option<String> {
    let args_of = |v: &Value| -> BTreeSet<(usize, char)> {
        match v {
            Value::Text(t) => res::format_args_of(t).into_iter().collect(),
            Value::Plurals(items) => items
                .iter()
                .flat_map(|(_, t)| res::format_args_of(t))
                .collect(),
            Value::Array(items) => items.iter().flat_map(|t| res::format_args_of(t)).collect(),
        }
    };
    match (base, tr) {
        (Value::Text(_), Value::Text(_)) => (args_of(base) != args_of(tr))
            .then(|| format!("takes {:?}, the default {:?}", args_of(tr), args_of(base))),
        // A plural's `one` may spell the number out, so only unknown arguments are wrong.
        (Value::Plurals(_), Value::Plurals(items)) => {
            let known = args_of(base);
            let unknown: Vec<_> = args_of(tr).difference(&known).copied().collect();
            let has_other = items.iter().any(|(q, _)| q == "other");
            (!unknown.is_empty() || !has_other)
                .then(|| format!("has unknown arguments {unknown:?} or no `other` item"))
        }
        (Value::Array(a), Value::Array(b)) => {
            (a.len() != b.len()).then(|| format!("has {} items, the default {}", b.len(), a.len()))
        }
        _ => Some("is a different kind of resource than the default".into()),
    }
}

/// For each package and locale: (translated, translatable) string counts, where translated means
/// the locale resolves the name to a file other than the default.
pub fn coverage(locales: &[&str]) -> Vec<(&'static str, String, usize, usize)> {
    let res = resources();
    let mut out = Vec::new();
    for package in res.packages() {
        let Some(default) = res.file(package, "values") else {
            continue;
        };
        let names: Vec<&String> = translatable(default).collect();
        for locale in locales {
            let dirs: Vec<String> = res::qualifiers(locale)
                .into_iter()
                .filter(|q| q != "values")
                .collect();
            let done = names
                .iter()
                .filter(|n| {
                    dirs.iter().any(|q| {
                        res.file(package, q)
                            .is_some_and(|e| e.contains_key(n.as_str()))
                    })
                })
                .count();
            out.push((package, locale.to_string(), done, names.len()));
        }
    }
    out
}

fn translatable(entries: &Entries) -> impl Iterator<Item = &String> {
    entries
        .iter()
        .filter(|(_, e)| e.translatable)
        .map(|(n, _)| n)
}

/// Whether a locale's language is one the translated packages must cover.
pub fn must_translate(locale: &str) -> bool {
    !UNTRANSLATED_LANGUAGES.contains(&super::language(locale))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locale::res::files::FILES;

    #[test]
    fn every_resource_file_parses() {
        for (package, qualifier, text) in FILES {
            if let Err(e) = res::parse(text) {
                panic!("res/{package}/{qualifier}/strings.xml: {e}");
            }
        }
        assert!(FILES.len() > 20, "resources compiled in: {}", FILES.len());
    }

    #[test]
    fn translations_match_the_default_strings() {
        let problems = problems();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn every_app_has_a_label() {
        for app in crate::apps::catalog() {
            let default = resources().file(app.package, "values");
            assert!(
                default.is_some_and(|e| e.contains_key("app_label")),
                "res/{}/values/strings.xml has no app_label",
                app.package
            );
        }
    }
}

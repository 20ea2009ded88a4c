//! Placeholder strings: `{name}`, `{name.field}`, `{name:02}` (zero-padded number), `{name:sql}`
//! (SQL literal), `{name:sh}` (one shell word), `{name:re}` (regex-escaped), `{name:upper}`,
//! `{name:lower}`; `{{`/`}}` are literal braces. A `{` not followed by a letter or `_` is literal
//! too, so regex quantifiers such as `\d{3}` need no escaping.
//!
//! SQL and shell text accept only typed placeholders ([`Context`]): a value always reaches `sqlite3`
//! or `sh` through [`sql_quote`] or [`sh_quote`], never spliced in raw, so a parameter override
//! cannot change the statement or the command around it.

use std::collections::BTreeMap;

use super::params::Value;
pub use droidmcp_device::command::sh_quote;

/// One placeholder found in a template.
#[derive(Debug, Clone, PartialEq)]
pub struct Placeholder {
    pub name: String,
    pub field: Option<String>,
    pub format: Option<String>,
}

enum Piece<'a> {
    Text(&'a str),
    Brace(char),
    Hole(Placeholder),
}

fn pieces(s: &str) -> Result<Vec<Piece<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find(['{', '}']) {
        out.push(Piece::Text(&rest[..i]));
        let after = &rest[i + 1..];
        let c = rest.as_bytes()[i];
        if c == b'}' {
            // A lone '}' is literal (regex quantifier closers); '}}' is one literal brace.
            let skip = if after.starts_with('}') { 2 } else { 1 };
            out.push(Piece::Brace('}'));
            rest = &rest[i + skip..];
            continue;
        }
        if after.starts_with('{') {
            out.push(Piece::Brace('{'));
            rest = &after[1..];
            continue;
        }
        let starts_ident = after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let close = after.find('}');
        match (starts_ident, close) {
            (true, Some(end)) => {
                let inner = &after[..end];
                let (path, format) = match inner.split_once(':') {
                    Some((p, f)) => (p, Some(f.to_string())),
                    None => (inner, None),
                };
                let (name, field) = match path.split_once('.') {
                    Some((n, f)) => (n, Some(f.to_string())),
                    None => (path, None),
                };
                let valid = |s: &str| {
                    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                };
                if !valid(name) || field.as_deref().is_some_and(|f| !valid(f)) {
                    // Not a placeholder (e.g. a JSON-ish literal); keep the brace.
                    out.push(Piece::Brace('{'));
                    rest = after;
                    continue;
                }
                if let Some(f) = &format {
                    let ok = matches!(f.as_str(), "sql" | "sh" | "re" | "upper" | "lower")
                        || (f.len() >= 2
                            && f.starts_with('0')
                            && f[1..].chars().all(|c| c.is_ascii_digit()));
                    if !ok {
                        return Err(format!(
                            "{{{inner}}}: unknown format {f:?} (use 02, sql, sh, re, upper, lower)"
                        ));
                    }
                }
                out.push(Piece::Hole(Placeholder {
                    name: name.to_string(),
                    field,
                    format,
                }));
                rest = &after[end + 1..];
            }
            _ => {
                out.push(Piece::Brace('{'));
                rest = after;
            }
        }
    }
    out.push(Piece::Text(rest));
    Ok(out)
}

/// The placeholders a template uses (errors for malformed formats).
pub fn placeholders(s: &str) -> Result<Vec<Placeholder>, String> {
    Ok(pieces(s)?
        .into_iter()
        .filter_map(|p| match p {
            Piece::Hole(h) => Some(h),
            _ => None,
        })
        .collect())
}

/// Where a template's text ends up, which decides the placeholders it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// A statement `sqlite3` or a content provider runs: only `{x:sql}`.
    Sql,
    /// A command line `sh` parses: only `{x:sh}`.
    Shell,
}

impl Context {
    fn format(self) -> &'static str {
        match self {
            Context::Sql => "sql",
            Context::Shell => "sh",
        }
    }
}

/// Refuses any placeholder in `s` that is not typed for `context` (`{x}` in SQL must be `{x:sql}`).
pub fn check_typed(s: &str, context: Context) -> Result<(), String> {
    let want = context.format();
    for h in placeholders(s)? {
        if h.format.as_deref() != Some(want) {
            let path = match &h.field {
                Some(f) => format!("{}.{f}", h.name),
                None => h.name.clone(),
            };
            let written = match &h.format {
                Some(f) => format!("{{{path}:{f}}}"),
                None => format!("{{{path}}}"),
            };
            let what = match context {
                Context::Sql => "SQL",
                Context::Shell => "a shell command",
            };
            return Err(format!(
                "{written} in {what}: placeholders here must be typed, write {{{path}:{want}}} (the value is quoted for you)"
            ));
        }
    }
    Ok(())
}

/// The one SQL quoter: a canonical integer stays a number (so `{d.epoch_ms:sql} + 3600000` is
/// arithmetic), anything else becomes a single-quoted string with `'` doubled.
pub fn sql_quote(text: &str) -> String {
    let canonical_int = text.parse::<i64>().is_ok_and(|n| n.to_string() == text);
    if canonical_int {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "''"))
    }
}

/// Substitutes values; an unknown name or field is an error naming it.
pub fn render(s: &str, values: &BTreeMap<String, Value>) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    for piece in pieces(s)? {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Brace(c) => out.push(c),
            Piece::Hole(h) => {
                let value = values
                    .get(&h.name)
                    .ok_or_else(|| format!("unknown parameter {:?}", h.name))?;
                let text = match &h.field {
                    None => value.text.clone(),
                    Some(f) => value
                        .fields
                        .get(f)
                        .cloned()
                        .ok_or_else(|| format!("parameter {:?} has no field {f:?}", h.name))?,
                };
                out.push_str(&apply_format(&text, h.format.as_deref()));
            }
        }
    }
    Ok(out)
}

fn apply_format(text: &str, format: Option<&str>) -> String {
    match format {
        None => text.to_string(),
        Some("sql") => sql_quote(text),
        Some("sh") => sh_quote(text),
        Some("re") => regex::escape(text),
        Some("upper") => text.to_uppercase(),
        Some("lower") => text.to_lowercase(),
        Some(width) => {
            let w: usize = width[1..].parse().unwrap_or(0);
            match text.parse::<i64>() {
                Ok(n) if n < 0 => format!("-{:0w$}", -n, w = w.saturating_sub(1)),
                Ok(n) => format!("{n:0w$}"),
                Err(_) => text.to_string(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vals() -> BTreeMap<String, Value> {
        let mut m = BTreeMap::new();
        m.insert("h".to_string(), Value::plain("7"));
        let mut name = Value::plain("Ann O'Neil");
        name.fields.insert("first".into(), "Ann".into());
        m.insert("name".to_string(), name);
        m
    }

    #[test]
    fn renders_fields_and_formats() {
        let v = vals();
        assert_eq!(render("{h:02}:30 {name.first}", &v).unwrap(), "07:30 Ann");
        assert_eq!(
            render("WHERE n={name:sql} AND h={h:sql}", &v).unwrap(),
            "WHERE n='Ann O''Neil' AND h=7"
        );
        assert_eq!(
            render("echo {name:sh}", &v).unwrap(),
            "echo 'Ann O'\\''Neil'"
        );
        assert_eq!(render("^\\d{3}-{h}{{x}}", &v).unwrap(), "^\\d{3}-7{x}");
        assert_eq!(render("a.b{name:re}", &v).unwrap(), "a.bAnn O'Neil");
        assert_eq!(render("{\"id\": 1}", &v).unwrap(), "{\"id\": 1}");
    }

    #[test]
    fn unknown_names_and_formats_are_errors() {
        let v = vals();
        assert!(render("{nope}", &v).unwrap_err().contains("nope"));
        assert!(render("{name.last}", &v).unwrap_err().contains("last"));
        assert!(placeholders("{h:bold}").unwrap_err().contains("bold"));
        assert_eq!(placeholders("{h} {name.first:upper}").unwrap().len(), 2);
    }

    #[test]
    fn sql_and_shell_take_only_typed_placeholders() {
        assert!(check_typed("DELETE FROM t WHERE a = {h:sql}", Context::Sql).is_ok());
        let e = check_typed("WHERE a = '{name.first}'", Context::Sql).unwrap_err();
        assert!(
            e.contains("{name.first} in SQL") && e.contains("{name.first:sql}"),
            "{e}"
        );
        let e = check_typed("echo {h:sql}", Context::Shell).unwrap_err();
        assert!(
            e.contains("{h:sql} in a shell command") && e.contains("{h:sh}"),
            "{e}"
        );
        assert!(check_typed("grep -E 'x{3}' f {{h}}", Context::Shell).is_ok());
    }

    #[test]
    fn sql_quote_keeps_integers_and_quotes_the_rest() {
        assert_eq!(sql_quote("1717372800000"), "1717372800000");
        assert_eq!(sql_quote("-4"), "-4");
        for (text, quoted) in [
            ("+15550100", "'+15550100'"),
            ("007", "'007'"),
            ("1.5", "'1.5'"),
            ("", "''"),
            ("it's", "'it''s'"),
            ("1; DROP TABLE x", "'1; DROP TABLE x'"),
        ] {
            assert_eq!(sql_quote(text), quoted);
        }
    }
}

//! Selectors: name an element by its id, text, description, resource id, class, role or index,
//! and resolve the name to elements (or hierarchy nodes) and to the point a tap should land on.
//!
//! String form (terms are ANDed; values may be JSON-quoted to hold spaces or a term-like text):
//!
//! | form | matches |
//! |---|---|
//! | `#12` or `12` | element id 12 |
//! | `text:OK` | text (own or folded) equal to `OK` |
//! | `text~=ok` | text containing `ok`, ignoring case |
//! | `text:/^\d+ alarms?$/` | text matching the regex |
//! | `desc:…`, `desc~=…`, `desc:/…/` | the content description, likewise |
//! | `hint:…`, `hint~=…` | the hint, likewise |
//! | `any:…`, `any~=…`, or a bare `Sign in` | any shown string (text, description, hint, folded) |
//! | `text:@com.android.settings:string/sound_settings` (also `~=`, and for `desc`/`hint`/`any`) | the string resource in the phone's current language |
//! | `id:com.x:id/fab` or `id:fab` | resource id, in full or its part after `:id/` |
//! | `class:Button` or `class:android.widget.Button` | class, short or full |
//! | `role:switch` | the element's role |
//! | `index:2` | the uiautomator `index` attribute |
//! | `nth:1` | the second (0-based) of the elements the other terms match |
//!
//! A string-resource value (Android's reference syntax `@package:string/name`) names a label the
//! way an app's code does, so one selector finds the row in every language. It is resolved on the
//! device, in its current locale, each time the selector is matched
//! ([`Selector::resolve_strings`]: the session asks the device through `cmd overlay lookup`);
//! `%1$s`/`%1$d` placeholders in the resolved text match any text. An unresolved selector matches
//! nothing, and [`Selector::find`] says so. A literal text starting with `@` is written quoted.

use std::fmt;

use regex::Regex;

use super::elements::{Element, ElementId, ElementList, Role};
use super::node::{resource_id_tail, short_class, Hierarchy, Node, NodeId};
use droidmcp_geom::Point;

/// A string resource named in Android's reference syntax: `@com.android.settings:string/name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StringRef {
    pub package: String,
    pub name: String,
}

impl StringRef {
    /// `@package:string/name` (the leading `@` included). Other resource types are refused: only a
    /// string is shown as one piece of text.
    pub fn parse(v: &str) -> Result<StringRef, String> {
        let body = v
            .strip_prefix('@')
            .ok_or_else(|| format!("{v:?} is not a resource reference"))?;
        let shape = || {
            format!(
                "string resource {v:?}: expected @package:string/name \
                 (e.g. @com.android.settings:string/sound_settings)"
            )
        };
        let (package, rest) = body.split_once(':').ok_or_else(shape)?;
        let (kind, name) = rest.split_once('/').ok_or_else(shape)?;
        let word = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        };
        if !word(package) || !word(name) || name.contains('.') {
            return Err(shape());
        }
        if kind != "string" {
            return Err(format!(
                "string resource {v:?}: only string resources can be matched, not {kind}"
            ));
        }
        Ok(StringRef {
            package: package.to_string(),
            name: name.to_string(),
        })
    }
}

impl fmt::Display for StringRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}:string/{}", self.package, self.name)
    }
}

/// How a string value is compared.
#[derive(Debug, Clone)]
pub enum Matcher {
    Exact(String),
    /// Case-insensitive substring; stored lowercased.
    Contains(String),
    Regex(Regex),
    /// A string resource not yet resolved on a device: matches nothing until
    /// [`Selector::resolve_strings`] replaces it (`contains` for the `~=` form).
    Resource {
        reference: StringRef,
        contains: bool,
    },
}

impl Matcher {
    pub fn matches(&self, s: &str) -> bool {
        match self {
            Matcher::Exact(v) => s == v,
            Matcher::Contains(v) => s.to_lowercase().contains(v.as_str()),
            Matcher::Regex(re) => re.is_match(s),
            Matcher::Resource { .. } => false,
        }
    }

    /// The matcher a resolved resource text gives: exact (or contains) when it is plain, a regex
    /// whose placeholders match any text when it is a format string.
    fn for_resolved(text: &str, contains: bool) -> Matcher {
        let placeholder = Regex::new(r"%(?:\d+\$)?[sd]").expect("valid regex");
        if !placeholder.is_match(text) {
            let text = text.replace("%%", "%");
            return if contains {
                Matcher::Contains(text.to_lowercase())
            } else {
                Matcher::Exact(text)
            };
        }
        let literal = |part: &str| regex::escape(&part.replace("%%", "%"));
        let body = placeholder
            .split(text)
            .map(literal)
            .collect::<Vec<_>>()
            .join(".+?");
        let pattern = if contains {
            format!("(?i){body}")
        } else {
            format!("^{body}$")
        };
        Matcher::Regex(Regex::new(&pattern).expect("escaped literal parts form a valid regex"))
    }
}

impl PartialEq for Matcher {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Matcher::Exact(a), Matcher::Exact(b)) => a == b,
            (Matcher::Contains(a), Matcher::Contains(b)) => a == b,
            (Matcher::Regex(a), Matcher::Regex(b)) => a.as_str() == b.as_str(),
            (
                Matcher::Resource {
                    reference: a,
                    contains: x,
                },
                Matcher::Resource {
                    reference: b,
                    contains: y,
                },
            ) => a == b && x == y,
            _ => false,
        }
    }
}

/// One condition of a selector.
#[derive(Debug, Clone, PartialEq)]
pub enum Criterion {
    Id(ElementId),
    Text(Matcher),
    Desc(Matcher),
    Hint(Matcher),
    Any(Matcher),
    /// A full resource id (`com.x:id/fab`) or its tail (`fab`).
    ResourceId(String),
    /// A short (`Button`) or full (`android.widget.Button`) class name.
    Class(String),
    Role(Role),
    Index(u32),
}

/// A parsed selector: every criterion must hold; `nth` picks one of the matches (0-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Selector {
    pub criteria: Vec<Criterion>,
    pub nth: Option<usize>,
}

/// Why a selector string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("selector {input:?}: {reason}")]
pub struct SelectorError {
    pub input: String,
    pub reason: String,
}

/// Why a selector found nothing to act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    #[error("no element matches {0}")]
    NoMatch(String),
    #[error("{selector} matches {count} elements; nth:{nth} is out of range")]
    NthOutOfRange {
        selector: String,
        count: usize,
        nth: usize,
    },
    #[error("{selector} names the string resource {reference}, which must be resolved on the device first")]
    Unresolved { selector: String, reference: String },
}

const KEYS: [&str; 10] = [
    "text", "desc", "hint", "any", "id", "res", "class", "role", "index", "nth",
];

/// What a criterion is checked against; built from an element or a raw node.
struct Subject<'a> {
    id: Option<ElementId>,
    texts: Vec<&'a str>,
    desc: &'a str,
    hint: &'a str,
    resource_id: &'a str,
    class: &'a str,
    role: Role,
    index: u32,
}

impl<'a> Subject<'a> {
    fn of_element(e: &'a Element) -> Self {
        let mut texts = vec![e.text.as_str()];
        texts.extend(e.folded.iter().map(String::as_str));
        Subject {
            id: Some(e.id),
            texts,
            desc: &e.desc,
            hint: &e.hint,
            resource_id: &e.resource_id,
            class: &e.class,
            role: e.role,
            index: e.index,
        }
    }

    fn of_node(n: &'a Node) -> Self {
        Subject {
            id: None,
            texts: vec![n.text.trim()],
            desc: n.content_desc.trim(),
            hint: n.hint.trim(),
            resource_id: &n.resource_id,
            class: &n.class,
            role: Role::of(n),
            index: n.index,
        }
    }
}

impl Criterion {
    fn holds(&self, s: &Subject<'_>) -> bool {
        match self {
            Criterion::Id(id) => s.id == Some(*id),
            Criterion::Text(m) => s.texts.iter().any(|t| !t.is_empty() && m.matches(t)),
            Criterion::Desc(m) => !s.desc.is_empty() && m.matches(s.desc),
            Criterion::Hint(m) => !s.hint.is_empty() && m.matches(s.hint),
            Criterion::Any(m) => s
                .texts
                .iter()
                .chain([&s.desc, &s.hint])
                .any(|t| !t.is_empty() && m.matches(t)),
            Criterion::ResourceId(id) => {
                !s.resource_id.is_empty()
                    && (s.resource_id == id || resource_id_tail(s.resource_id) == id)
            }
            Criterion::Class(c) => {
                s.class.eq_ignore_ascii_case(c) || short_class(s.class).eq_ignore_ascii_case(c)
            }
            Criterion::Role(r) => s.role == *r,
            Criterion::Index(i) => s.index == *i,
        }
    }
}

impl Selector {
    /// A selector for one element id.
    pub fn id(id: ElementId) -> Selector {
        Selector {
            criteria: vec![Criterion::Id(id)],
            nth: None,
        }
    }

    pub fn parse(input: &str) -> Result<Selector, SelectorError> {
        let err = |reason: String| SelectorError {
            input: input.to_string(),
            reason,
        };
        let s = input.trim();
        if s.is_empty() {
            return Err(err("empty selector".into()));
        }
        let mut selector = Selector {
            criteria: Vec::new(),
            nth: None,
        };
        let mut rest = s;
        let mut first = true;
        while !rest.is_empty() {
            let (key, op, after) = match split_key(rest) {
                Some(parts) => parts,
                None if first => ("", Op::Exact, rest),
                None => return Err(err(format!("expected key:value at {rest:?}"))),
            };
            first = false;
            let (value, remaining) = read_value(after).map_err(err)?;
            rest = remaining.trim_start();
            selector.push(key, op, value).map_err(err)?;
        }
        Ok(selector)
    }

    fn push(&mut self, key: &str, op: Op, value: Value) -> Result<(), String> {
        let matcher = |value: Value| -> Result<Matcher, String> {
            Ok(match (op, value) {
                (op, Value::Resource(reference)) => Matcher::Resource {
                    reference,
                    contains: op == Op::Contains,
                },
                (_, Value::Regex(re)) => {
                    Matcher::Regex(Regex::new(&re).map_err(|e| format!("bad regex /{re}/: {e}"))?)
                }
                (Op::Contains, Value::Plain(v)) => Matcher::Contains(v.to_lowercase()),
                (Op::Exact, Value::Plain(v)) => Matcher::Exact(v),
            })
        };
        let plain = |value: Value, key: &str| match value {
            Value::Plain(v) if op == Op::Exact => Ok(v),
            _ => Err(format!("{key}: takes an exact value")),
        };
        let number = |value: Value, key: &str| -> Result<u32, String> {
            let v = plain(value, key)?;
            v.trim()
                .parse()
                .map_err(|_| format!("{key}: expects a number, got {v:?}"))
        };
        let criterion = match key {
            "" => match &value {
                Value::Plain(v) if parse_element_id(v).is_some() => {
                    Criterion::Id(parse_element_id(v).expect("checked above"))
                }
                _ => Criterion::Any(matcher(value)?),
            },
            "text" => Criterion::Text(matcher(value)?),
            "desc" => Criterion::Desc(matcher(value)?),
            "hint" => Criterion::Hint(matcher(value)?),
            "any" => Criterion::Any(matcher(value)?),
            "id" | "res" => {
                let v = plain(value, key)?;
                match parse_element_id(&v) {
                    Some(id) if v.starts_with('#') => Criterion::Id(id),
                    _ => Criterion::ResourceId(v),
                }
            }
            "class" => Criterion::Class(plain(value, key)?),
            "role" => {
                let v = plain(value, key)?;
                Criterion::Role(Role::parse(&v).ok_or_else(|| format!("unknown role {v:?}"))?)
            }
            "index" => Criterion::Index(number(value, key)?),
            "nth" => {
                self.nth = Some(number(value, key)? as usize);
                return Ok(());
            }
            other => return Err(format!("unknown key {other:?}")),
        };
        self.criteria.push(criterion);
        Ok(())
    }

    fn holds(&self, s: &Subject<'_>) -> bool {
        self.criteria.iter().all(|c| c.holds(s))
    }

    /// Every matching element in id order (`nth` applied).
    pub fn select<'a>(&self, list: &'a ElementList) -> Vec<&'a Element> {
        let all = list
            .elements
            .iter()
            .filter(|e| self.holds(&Subject::of_element(e)));
        match self.nth {
            Some(n) => all.skip(n).take(1).collect(),
            None => all.collect(),
        }
    }

    /// The string resources this selector names, in order.
    pub fn string_refs(&self) -> impl Iterator<Item = &StringRef> {
        self.criteria.iter().filter_map(|c| match c {
            Criterion::Text(Matcher::Resource { reference, .. })
            | Criterion::Desc(Matcher::Resource { reference, .. })
            | Criterion::Hint(Matcher::Resource { reference, .. })
            | Criterion::Any(Matcher::Resource { reference, .. }) => Some(reference),
            _ => None,
        })
    }

    /// This selector with every string resource replaced by its text as `lookup` resolves it (the
    /// device, in its current locale). A selector without resources comes back unchanged.
    pub fn resolve_strings<E>(
        &self,
        mut lookup: impl FnMut(&StringRef) -> Result<String, E>,
    ) -> Result<Selector, E> {
        let mut out = self.clone();
        for c in &mut out.criteria {
            if let Criterion::Text(m)
            | Criterion::Desc(m)
            | Criterion::Hint(m)
            | Criterion::Any(m) = c
            {
                if let Matcher::Resource {
                    reference,
                    contains,
                } = m
                {
                    *m = Matcher::for_resolved(&lookup(reference)?, *contains);
                }
            }
        }
        Ok(out)
    }

    /// The first matching element (the `nth` one when given).
    pub fn find<'a>(&self, list: &'a ElementList) -> Result<&'a Element, SelectError> {
        if let Some(reference) = self.string_refs().next() {
            return Err(SelectError::Unresolved {
                selector: self.to_string(),
                reference: reference.to_string(),
            });
        }
        if let Some(e) = self.select(list).into_iter().next() {
            return Ok(e);
        }
        let without_nth = Selector {
            criteria: self.criteria.clone(),
            nth: None,
        };
        match (self.nth, without_nth.select(list).len()) {
            (Some(nth), count) if count > 0 => Err(SelectError::NthOutOfRange {
                selector: self.to_string(),
                count,
                nth,
            }),
            _ => Err(SelectError::NoMatch(self.to_string())),
        }
    }

    /// Where to tap for this selector: the centre of the element it finds.
    pub fn point(&self, list: &ElementList) -> Result<Point, SelectError> {
        self.find(list).map(|e| e.center)
    }

    /// Matching nodes of the raw hierarchy, visible or not (for checks that look past the
    /// compressed list). Element ids never match here.
    pub fn select_nodes(&self, h: &Hierarchy) -> Vec<NodeId> {
        let all = h
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| self.holds(&Subject::of_node(n)))
            .map(|(i, _)| NodeId(i as u32));
        match self.nth {
            Some(n) => all.skip(n).take(1).collect(),
            None => all.collect(),
        }
    }
}

impl Matcher {
    fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        match self {
            Matcher::Exact(v) => *v = f(v),
            Matcher::Contains(v) => *v = f(v).to_lowercase(),
            Matcher::Regex(re) => {
                let rendered = f(re.as_str());
                match Regex::new(&rendered) {
                    Ok(new) => *re = new,
                    // Task files are validated with sample values, so this needs a parameter value
                    // that breaks the pattern; keeping the unrendered pattern matches nothing real.
                    Err(e) => tracing::warn!("selector regex /{rendered}/ after substitution: {e}"),
                }
            }
            // A resource name is not a template.
            Matcher::Resource { .. } => {}
        }
    }
}

impl Criterion {
    fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        match self {
            Criterion::Text(m) | Criterion::Desc(m) | Criterion::Hint(m) | Criterion::Any(m) => {
                m.map_strings(f)
            }
            Criterion::ResourceId(v) | Criterion::Class(v) => *v = f(v),
            Criterion::Id(_) | Criterion::Role(_) | Criterion::Index(_) => {}
        }
    }
}

impl Selector {
    /// Applies `f` to every string value (parameter substitution in task files).
    pub fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        self.criteria.iter_mut().for_each(|c| c.map_strings(f));
    }
}

impl std::str::FromStr for Selector {
    type Err = SelectorError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Selector::parse(s)
    }
}

impl ElementList {
    /// A selector that finds exactly this element in this list, preferring the most readable:
    /// resource id, text, description, then combinations, then `nth`.
    pub fn selector_for(&self, id: ElementId) -> Option<Selector> {
        let e = self.get(id)?;
        let mut candidates: Vec<Vec<Criterion>> = Vec::new();
        let res = (!e.resource_id.is_empty()).then(|| Criterion::ResourceId(e.resource_id.clone()));
        let text = (!e.text.is_empty()).then(|| Criterion::Text(Matcher::Exact(e.text.clone())));
        let desc = (!e.desc.is_empty()).then(|| Criterion::Desc(Matcher::Exact(e.desc.clone())));
        let folded = e
            .folded
            .first()
            .map(|t| Criterion::Text(Matcher::Exact(t.clone())));
        let label = text.clone().or(desc.clone()).or(folded.clone());
        for c in [&res, &text, &desc, &folded].into_iter().flatten() {
            candidates.push(vec![c.clone()]);
        }
        if let (Some(r), Some(l)) = (&res, &label) {
            candidates.push(vec![r.clone(), l.clone()]);
        }
        let class = Criterion::Class(e.class.clone());
        let base = label.or(res).unwrap_or(class);
        for criteria in candidates {
            let s = Selector {
                criteria,
                nth: None,
            };
            let found = s.select(self);
            if found.len() == 1 && found[0].id == id {
                return Some(s);
            }
        }
        let s = Selector {
            criteria: vec![base],
            nth: None,
        };
        let position = s.select(self).iter().position(|m| m.id == id)?;
        Some(Selector {
            nth: Some(position),
            ..s
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Exact,
    Contains,
}

enum Value {
    Plain(String),
    Regex(String),
    Resource(StringRef),
}

fn parse_element_id(v: &str) -> Option<ElementId> {
    let digits = v.strip_prefix('#').unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().map(ElementId)
}

/// `key:` or `key~=` (or `key=`) at the start of `s`.
fn split_key(s: &str) -> Option<(&str, Op, &str)> {
    KEYS.iter().find_map(|key| {
        let after = s.strip_prefix(key)?;
        if let Some(v) = after.strip_prefix("~=") {
            Some((*key, Op::Contains, v))
        } else if let Some(v) = after.strip_prefix(':').or_else(|| after.strip_prefix('=')) {
            Some((*key, Op::Exact, v))
        } else {
            None
        }
    })
}

/// Reads one value: a JSON string, a `/regex/`, or plain text up to the next ` key:` term.
fn read_value(s: &str) -> Result<(Value, &str), String> {
    if s.starts_with('"') {
        let mut de = serde_json::Deserializer::from_str(s).into_iter::<String>();
        return match de.next() {
            Some(Ok(v)) => Ok((Value::Plain(v), &s[de.byte_offset()..])),
            _ => Err(format!("unterminated quoted value {s:?}")),
        };
    }
    let end = next_term(s).unwrap_or(s.len());
    let raw = s[..end].trim_end();
    legacy_form(raw)?;
    if raw.len() >= 2 && raw.starts_with('/') && raw.ends_with('/') {
        return Ok((Value::Regex(raw[1..raw.len() - 1].to_string()), &s[end..]));
    }
    if raw.starts_with('@') {
        return Ok((Value::Resource(StringRef::parse(raw)?), &s[end..]));
    }
    Ok((Value::Plain(raw.to_string()), &s[end..]))
}

/// Refuses the spellings of the task files' former selector grammar, which would otherwise read as
/// values that match nothing: `a:x&b:y` (terms are separated by spaces), `x#2` (that is `nth:2`) and
/// `key~:x` (that is `key~=x`). A value that really holds these is written quoted.
fn legacy_form(raw: &str) -> Result<(), String> {
    for key in KEYS {
        if raw.contains(&format!("&{key}:")) || raw.contains(&format!("&{key}~")) {
            return Err(format!(
                "terms are separated by spaces, not `&` (quote a value holding `&{key}:`)"
            ));
        }
        if raw.starts_with(&format!("{key}~:")) {
            return Err(format!(
                "`{key}~:` is written `{key}~=` (contains, ignoring case)"
            ));
        }
    }
    if let Some((body, n)) = raw.rsplit_once('#') {
        if !body.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "`{raw}`: the n-th match is written ` nth:{n}` (quote a value ending in `#{n}`)"
            ));
        }
    }
    Ok(())
}

/// Byte offset of the next whitespace-preceded `key:` / `key~=` term in `s`.
fn next_term(s: &str) -> Option<usize> {
    let mut prev_space = false;
    for (i, c) in s.char_indices() {
        if prev_space && split_key(&s[i..]).is_some() {
            return Some(i);
        }
        prev_space = c.is_whitespace();
    }
    None
}

fn write_value(f: &mut fmt::Formatter<'_>, v: &str) -> fmt::Result {
    let needs_quotes = v.is_empty()
        || v.starts_with('"')
        || v.starts_with('@')
        || v.starts_with('/')
        || v.chars().any(|c| c.is_whitespace() || c.is_control());
    if needs_quotes {
        f.write_str(&serde_json::to_string(v).map_err(|_| fmt::Error)?)
    } else {
        f.write_str(v)
    }
}

fn write_matcher(f: &mut fmt::Formatter<'_>, key: &str, m: &Matcher) -> fmt::Result {
    match m {
        Matcher::Exact(v) => {
            write!(f, "{key}:")?;
            write_value(f, v)
        }
        Matcher::Contains(v) => {
            write!(f, "{key}~=")?;
            write_value(f, v)
        }
        Matcher::Regex(re) => write!(f, "{key}:/{}/", re.as_str()),
        Matcher::Resource {
            reference,
            contains,
        } => write!(f, "{key}{}{reference}", if *contains { "~=" } else { ":" }),
    }
}

impl fmt::Display for Criterion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Criterion::Id(id) => write!(f, "#{id}"),
            Criterion::Text(m) => write_matcher(f, "text", m),
            Criterion::Desc(m) => write_matcher(f, "desc", m),
            Criterion::Hint(m) => write_matcher(f, "hint", m),
            Criterion::Any(m) => write_matcher(f, "any", m),
            Criterion::ResourceId(v) => {
                f.write_str("id:")?;
                write_value(f, v)
            }
            Criterion::Class(v) => {
                f.write_str("class:")?;
                write_value(f, v)
            }
            Criterion::Role(r) => write!(f, "role:{r}"),
            Criterion::Index(i) => write!(f, "index:{i}"),
        }
    }
}

impl fmt::Display for Selector {
    /// The canonical string form; parsing it gives back an equal selector.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.criteria.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        if let Some(n) = self.nth {
            if !self.criteria.is_empty() {
                f.write_str(" ")?;
            }
            write!(f, "nth:{n}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expect: &str) {
        let s = Selector::parse(input).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.to_string(), expect, "{input}");
        assert_eq!(Selector::parse(&s.to_string()).unwrap(), s);
    }

    #[test]
    fn string_forms() {
        check("#12", "#12");
        check("12", "#12");
        check("text:OK", "text:OK");
        check("text:Sign in", r#"text:"Sign in""#);
        check(
            "text:Sign in class:Button",
            r#"text:"Sign in" class:Button"#,
        );
        check("desc~=Alarm", "desc~=alarm");
        check("id:com.x:id/fab", "id:com.x:id/fab");
        check("id:fab nth:2", "id:fab nth:2");
        check(r"text:/^\d+ alarms?$/", r"text:/^\d+ alarms?$/");
        check(r#"text:"a text:b""#, r#"text:"a text:b""#);
        check("Sign in", r#"any:"Sign in""#);
        check("role:toggle index:3", "role:switch index:3");
        check("id:#4", "#4");
    }

    #[test]
    fn rejects_bad_selectors() {
        for bad in [
            "",
            "text:/[/",
            "role:wat",
            "index:x",
            "nth:-1",
            r#"text:"open"#,
            "id~=x",
            "class:TextView&desc:6 o'clock",
            "id:seekbar#3",
            "desc~:June 3",
            "text:@com.android.settings:plurals/see_all_apps",
            "text:@sound_settings",
            "text:@com.android.settings:string/",
            "id:@com.android.settings:string/sound_settings",
        ] {
            assert!(Selector::parse(bad).is_err(), "{bad:?} should fail");
        }
    }

    #[test]
    fn string_resource_forms() {
        check(
            "text:@com.android.settings:string/sound_settings",
            "text:@com.android.settings:string/sound_settings",
        );
        check("desc~=@android:string/ok", "desc~=@android:string/ok");
        check(
            "@com.android.settings:string/wifi_settings nth:1",
            "any:@com.android.settings:string/wifi_settings nth:1",
        );
        // Quoted, an `@` is literal text.
        check(r#"text:"@home""#, r#"text:"@home""#);
        let s = Selector::parse("text:@com.android.settings:string/sound_settings").unwrap();
        let refs: Vec<String> = s.string_refs().map(|r| r.to_string()).collect();
        assert_eq!(refs, ["@com.android.settings:string/sound_settings"]);
        assert!(Selector::parse(r#"text:"@home""#)
            .unwrap()
            .string_refs()
            .next()
            .is_none());
    }

    fn list(xml_rows: &[&str]) -> ElementList {
        let nodes: String = xml_rows
            .iter()
            .enumerate()
            .map(|(i, t)| {
                format!(
                    r#"<node index="{i}" text="{t}" resource-id="android:id/title" class="android.widget.TextView" package="com.android.settings" content-desc="" clickable="true" enabled="true" bounds="[0,{}][1080,{}]" />"#,
                    i * 100,
                    i * 100 + 90
                )
            })
            .collect();
        let xml = format!(
            r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" class="android.widget.FrameLayout" package="com.android.settings" bounds="[0,0][1080,2400]">{nodes}</node></hierarchy>"#
        );
        let h = crate::parse(xml.as_bytes()).unwrap();
        ElementList::from_hierarchy(&h, &crate::Options::default())
    }

    #[test]
    fn string_resources_match_once_resolved() {
        let rows = list(&["소리 및 진동", "디스플레이", "앱 12개 모두 보기"]);
        let sound = Selector::parse("text:@com.android.settings:string/sound_settings").unwrap();
        // Unresolved, the selector refuses to match rather than finding nothing.
        assert!(matches!(
            sound.find(&rows),
            Err(SelectError::Unresolved { .. })
        ));
        let korean = |r: &StringRef| -> Result<String, String> {
            match r.name.as_str() {
                "sound_settings" => Ok("소리 및 진동".into()),
                "display_settings" => Ok("디스플레이".into()),
                "see_all_apps_title" => Ok("앱 %1$d개 모두 보기".into()),
                other => Err(format!("no {other}")),
            }
        };
        let resolved = sound.resolve_strings(korean).unwrap();
        assert_eq!(resolved.to_string(), r#"text:"소리 및 진동""#);
        assert_eq!(resolved.find(&rows).unwrap().text, "소리 및 진동");
        let contains = Selector::parse("text~=@com.android.settings:string/display_settings")
            .unwrap()
            .resolve_strings(korean)
            .unwrap();
        assert_eq!(contains.find(&rows).unwrap().text, "디스플레이");
        // A format string's placeholders match whatever the app filled in.
        let all = Selector::parse("text:@com.android.settings:string/see_all_apps_title")
            .unwrap()
            .resolve_strings(korean)
            .unwrap();
        assert_eq!(all.find(&rows).unwrap().text, "앱 12개 모두 보기");
        // The lookup's error is the resolution's error.
        let missing = Selector::parse("text:@com.android.settings:string/nope").unwrap();
        assert_eq!(
            missing.resolve_strings(korean).unwrap_err(),
            "no nope".to_string()
        );
        // Resolution leaves other terms alone.
        let plain = Selector::parse("id:title nth:1").unwrap();
        assert_eq!(plain.resolve_strings(korean).unwrap(), plain);
    }
}

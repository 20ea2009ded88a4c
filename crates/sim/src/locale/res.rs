//! Android string resources: `res/<package>/values[-qualifier]/strings.xml` in the platform's own
//! format, compiled into the binary by `build.rs` and parsed once with quick-xml.
//!
//! What aapt2 does to a resource's text is done here too: XML entities decoded, inline markup
//! (`<xliff:g>`, `<b>`) dropped for its text, whitespace runs collapsed and the ends trimmed outside
//! double quotes, the quotes themselves removed, and the backslash escapes (`\n`, `\t`, `\'`, `\"`,
//! `\\`, `\@`, `\?`, `\uXXXX`) resolved. An unescaped apostrophe outside quotes is an error, as it is
//! for aapt2.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

pub(super) mod files {
    include!(concat!(env!("OUT_DIR"), "/res_files.rs"));
}

/// A resource's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `<string>`
    Text(String),
    /// `<plurals>`: (quantity, text), quantities as CLDR names them (`zero`, `one`, `two`, `few`,
    /// `many`, `other`).
    Plurals(Vec<(String, String)>),
    /// `<string-array>`
    Array(Vec<String>),
}

/// One named resource of one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub value: Value,
    /// False for `translatable="false"`: only the default file may define it.
    pub translatable: bool,
}

/// Why a strings.xml file was refused.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ResError {
    #[error("malformed XML at byte {position}: {message}")]
    Xml { position: u64, message: String },
    #[error("<{element}> without a name attribute at byte {position}")]
    NoName { element: String, position: u64 },
    #[error("{name:?} is defined twice")]
    Duplicate { name: String },
    #[error("{name:?}: unescaped apostrophe (write \\' or put the text in double quotes)")]
    Apostrophe { name: String },
    #[error("{name:?}: bad \\u escape")]
    Unicode { name: String },
    #[error("<item> outside <plurals> or <string-array> at byte {position}")]
    StrayItem { position: u64 },
}

/// The entries of one strings.xml, by name.
pub type Entries = BTreeMap<String, Entry>;

/// Every compiled-in file: package → `values*` directory → entries.
pub struct Resources {
    packages: BTreeMap<&'static str, BTreeMap<&'static str, Entries>>,
}

/// The phone's resources, parsed on first use. The files are part of the program, so a malformed
/// one is a build defect: the tests parse every file and name the file and position.
pub fn resources() -> &'static Resources {
    static RES: OnceLock<Resources> = OnceLock::new();
    RES.get_or_init(|| {
        let mut packages: BTreeMap<&'static str, BTreeMap<&'static str, Entries>> = BTreeMap::new();
        for (package, qualifier, text) in files::FILES {
            let entries = parse(text)
                .unwrap_or_else(|e| panic!("res/{package}/{qualifier}/strings.xml: {e}"));
            packages
                .entry(package)
                .or_default()
                .insert(qualifier, entries);
        }
        Resources { packages }
    })
}

impl Resources {
    /// The entry `name` of `package` as the locale resolves it: region, then language, then the
    /// default `values/` (Android's fallback).
    pub fn lookup(
        &'static self,
        locale: &str,
        package: &str,
        name: &str,
    ) -> Option<&'static Entry> {
        let dirs = self.packages.get(package)?;
        qualifiers(locale)
            .iter()
            .find_map(|q| dirs.get(q.as_str())?.get(name))
    }

    /// Every file as (package, `values*` directory, entries), sorted.
    pub fn files(&self) -> impl Iterator<Item = (&'static str, &'static str, &Entries)> + '_ {
        self.packages
            .iter()
            .flat_map(|(p, dirs)| dirs.iter().map(move |(q, e)| (*p, *q, e)))
    }

    /// The packages that have resources.
    pub fn packages(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.packages.keys().copied()
    }

    /// One file's entries.
    pub fn file(&self, package: &str, qualifier: &str) -> Option<&Entries> {
        self.packages.get(package)?.get(qualifier)
    }
}

/// The `values*` directories a locale reads, most specific first: `zh-Hans-CN` →
/// `values-zh-rCN`, `values-zh`, `values`. (Android also tries CLDR parent locales such as es-419
/// for es-US; the phone ships none of those directories.)
pub fn qualifiers(locale: &str) -> Vec<String> {
    let mut parts = locale.split(['-', '_']);
    let language = parts.next().unwrap_or("").to_ascii_lowercase();
    let region = parts
        .find(|p| p.len() == 2 || (p.len() == 3 && p.bytes().all(|b| b.is_ascii_digit())))
        .map(str::to_ascii_uppercase);
    let mut out = Vec::with_capacity(3);
    if !language.is_empty() {
        if let Some(region) = region {
            out.push(format!("values-{language}-r{region}"));
        }
        out.push(format!("values-{language}"));
    }
    out.push("values".to_string());
    out
}

/// Parses one strings.xml.
pub fn parse(xml: &str) -> Result<Entries, ResError> {
    let mut reader = Reader::from_str(xml);
    let mut entries = Entries::new();
    // The resource being read: its element, name, translatable flag, and items so far.
    let mut open: Option<(Kind, String, bool, Vec<(String, String)>)> = None;
    // Inside a <string> or <item>: the quantity (for plurals), the raw text, and the depth of
    // inline markup.
    let mut text: Option<(String, String, usize)> = None;
    let pos = |r: &Reader<&[u8]>| r.buffer_position();
    loop {
        let event = reader.read_event().map_err(|e| ResError::Xml {
            position: pos(&reader),
            message: e.to_string(),
        })?;
        match event {
            Event::Eof => break,
            Event::Start(e) => {
                if let Some((_, _, depth)) = &mut text {
                    *depth += 1;
                    continue;
                }
                let element = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                let kind = match element.as_str() {
                    "string" => Some(Kind::String),
                    "plurals" => Some(Kind::Plurals),
                    "string-array" => Some(Kind::Array),
                    _ => None,
                };
                if let Some(kind) = kind {
                    let attrs = Attrs::of(&e);
                    let name = attrs.name.ok_or(ResError::NoName {
                        element,
                        position: pos(&reader),
                    })?;
                    let skip = attrs.product.is_some_and(|p| p != "default");
                    let name = if skip { String::new() } else { name };
                    open = Some((kind, name, attrs.translatable, Vec::new()));
                    if kind == Kind::String {
                        text = Some((String::new(), String::new(), 0));
                    }
                } else if element == "item" {
                    if open.is_none() {
                        return Err(ResError::StrayItem {
                            position: pos(&reader),
                        });
                    }
                    text = Some((Attrs::of(&e).quantity.unwrap_or_default(), String::new(), 0));
                }
            }
            Event::Empty(e) => {
                // `<string name="x"/>` is an empty string, `<item/>` an empty item; anything else
                // (`<br/>` inside a string) has no text.
                let attrs = Attrs::of(&e);
                match (e.name().as_ref(), &mut open) {
                    (b"string", None) => {
                        let name = attrs.name.ok_or(ResError::NoName {
                            element: "string".into(),
                            position: pos(&reader),
                        })?;
                        insert(
                            &mut entries,
                            name,
                            Value::Text(String::new()),
                            attrs.translatable,
                        )?;
                    }
                    (b"item", Some((_, _, _, items))) if text.is_none() => {
                        items.push((attrs.quantity.unwrap_or_default(), String::new()));
                    }
                    _ => {}
                }
            }
            Event::Text(t) => {
                if let Some((_, raw, _)) = &mut text {
                    let s = t.unescape().map_err(|e| ResError::Xml {
                        position: pos(&reader),
                        message: e.to_string(),
                    })?;
                    raw.push_str(&s);
                }
            }
            Event::CData(t) => {
                if let Some((_, raw, _)) = &mut text {
                    raw.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::End(_) => {
                if let Some((_, _, depth)) = &mut text {
                    if *depth > 0 {
                        *depth -= 1;
                        continue;
                    }
                }
                let name = open.as_ref().map(|o| o.1.clone()).unwrap_or_default();
                if let Some((quantity, raw, _)) = text.take() {
                    let value = aapt_text(&raw, &name)?;
                    match &mut open {
                        Some((Kind::String, ..)) => {
                            let (_, name, translatable, _) = open.take().expect("open string");
                            if !name.is_empty() {
                                insert(&mut entries, name, Value::Text(value), translatable)?;
                            }
                        }
                        Some((_, _, _, items)) => items.push((quantity, value)),
                        None => {}
                    }
                } else if let Some((kind, name, translatable, items)) = open.take() {
                    let value = match kind {
                        Kind::Plurals => Value::Plurals(items),
                        Kind::Array => Value::Array(items.into_iter().map(|(_, t)| t).collect()),
                        Kind::String => Value::Text(String::new()),
                    };
                    if !name.is_empty() {
                        insert(&mut entries, name, value, translatable)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(entries)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    String,
    Plurals,
    Array,
}

struct Attrs {
    name: Option<String>,
    quantity: Option<String>,
    product: Option<String>,
    translatable: bool,
}

impl Attrs {
    fn of(e: &BytesStart) -> Attrs {
        let mut a = Attrs {
            name: None,
            quantity: None,
            product: None,
            translatable: true,
        };
        for attr in e.attributes().flatten() {
            let v = attr
                .unescape_value()
                .map(|v| v.into_owned())
                .unwrap_or_default();
            match attr.key.as_ref() {
                b"name" => a.name = Some(v),
                b"quantity" => a.quantity = Some(v),
                b"product" => a.product = Some(v),
                b"translatable" => a.translatable = v != "false",
                _ => {}
            }
        }
        a
    }
}

fn insert(
    entries: &mut Entries,
    name: String,
    value: Value,
    translatable: bool,
) -> Result<(), ResError> {
    if entries.contains_key(&name) {
        return Err(ResError::Duplicate { name });
    }
    entries.insert(
        name,
        Entry {
            value,
            translatable,
        },
    );
    Ok(())
}

/// A resource's raw text as aapt2 compiles it (see the module doc).
fn aapt_text(raw: &str, name: &str) -> Result<String, ResError> {
    let mut out = String::with_capacity(raw.len());
    let mut quoted = false;
    // A whitespace run waiting to become one space (only if more text follows).
    let mut space = false;
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c.is_whitespace() && !quoted {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    let ch = u32::from_str_radix(&hex, 16)
                        .ok()
                        .filter(|_| hex.len() == 4)
                        .and_then(char::from_u32)
                        .ok_or_else(|| ResError::Unicode { name: name.into() })?;
                    out.push(ch);
                }
                Some(other) => out.push(other),
                None => {}
            },
            '"' => quoted = !quoted,
            '\'' if !quoted => return Err(ResError::Apostrophe { name: name.into() }),
            c => out.push(c),
        }
    }
    Ok(out)
}

/// The format arguments a string uses, as (1-based index, conversion), sequential `%s` numbered
/// in order; `%%` and `%n` are no arguments.
pub fn format_args_of(text: &str) -> Vec<(usize, char)> {
    let mut args = Vec::new();
    let mut next = 1;
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '%' {
            continue;
        }
        let spec: String = std::iter::from_fn(|| {
            chars
                .next_if(|(_, c)| !c.is_ascii_alphabetic() && *c != '%')
                .map(|(_, c)| c)
        })
        .collect();
        let Some((_, conv)) = chars.next() else { break };
        if conv == '%' || conv == 'n' {
            continue;
        }
        let index = match spec.split_once('$') {
            Some((i, _)) => i.parse().unwrap_or(0),
            None => {
                next += 1;
                next - 1
            }
        };
        args.push((index, conv));
    }
    args.sort();
    args.dedup();
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aapt_rules_for_text() {
        let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="a">  Don\'t   stop
        now </string>
    <string name="b">"  keep   'spaces' "</string>
    <string name="c">Line\nTwo \u00e9 \@home &amp; \"q\"</string>
    <string name="d"><xliff:g id="n" example="3">%1$d</xliff:g> min</string>
    <string name="e" translatable="false">x</string>
    <string name="f" product="tablet">tablet</string>
    <string name="f" product="default">phone</string>
    <string name="g"/>
    <plurals name="p"><item quantity="one">%d minute</item><item quantity="other">%d minutes</item></plurals>
    <string-array name="arr"><item>One</item><item>Two</item></string-array>
</resources>"#;
        let e = parse(xml).expect("parses");
        let text = |n: &str| match &e[n].value {
            Value::Text(t) => t.clone(),
            v => panic!("{v:?}"),
        };
        assert_eq!(text("a"), "Don't stop now");
        assert_eq!(text("b"), "  keep   'spaces' ");
        assert_eq!(text("c"), "Line\nTwo é @home & \"q\"");
        assert_eq!(text("d"), "%1$d min");
        assert!(!e["e"].translatable);
        assert_eq!(text("f"), "phone");
        assert_eq!(text("g"), "");
        assert_eq!(
            e["p"].value,
            Value::Plurals(vec![
                ("one".into(), "%d minute".into()),
                ("other".into(), "%d minutes".into())
            ])
        );
        assert_eq!(
            e["arr"].value,
            Value::Array(vec!["One".into(), "Two".into()])
        );
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let r = |s: &str| parse(&format!("<resources>{s}</resources>"));
        assert_eq!(
            r("<string name=\"x\">l'heure</string>"),
            Err(ResError::Apostrophe { name: "x".into() })
        );
        assert_eq!(
            r("<string name=\"x\">a</string><string name=\"x\">b</string>"),
            Err(ResError::Duplicate { name: "x".into() })
        );
        assert!(matches!(
            r("<string>a</string>"),
            Err(ResError::NoName { .. })
        ));
        assert!(matches!(
            r("<string name=\"x\">a</strin>"),
            Err(ResError::Xml { .. })
        ));
        assert!(matches!(
            r("<string name=\"x\">\\u12</string>"),
            Err(ResError::Unicode { .. })
        ));
    }

    #[test]
    fn qualifiers_fall_back_region_then_language_then_default() {
        assert_eq!(
            qualifiers("zh-Hans-CN"),
            ["values-zh-rCN", "values-zh", "values"]
        );
        assert_eq!(
            qualifiers("pt_PT"),
            ["values-pt-rPT", "values-pt", "values"]
        );
        assert_eq!(
            qualifiers("es-419"),
            ["values-es-r419", "values-es", "values"]
        );
        assert_eq!(qualifiers(""), ["values"]);
    }

    #[test]
    fn format_arguments_are_read_positionally() {
        assert_eq!(format_args_of("%1$s at %2$d%%"), [(1, 's'), (2, 'd')]);
        assert_eq!(format_args_of("%s and %s"), [(1, 's'), (2, 's')]);
        assert_eq!(format_args_of("%2$s, %1$s"), [(1, 's'), (2, 's')]);
        assert_eq!(format_args_of("100%% sure%n"), []);
        assert_eq!(format_args_of("%1$.1f"), [(1, 'f')]);
    }
}

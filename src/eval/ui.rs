//! UI element predicates over `uiautomator dump` XML: find the nodes a [`UiSelector`] names (resource
//! id, text, content-desc, class, hint, nth match) and test their attributes. Used by UI checks on the
//! final screen, any step, or the last step where a page gate holds, and by action-history checks
//! that need an element's bounds.

use crate::geom::Bounds;

use super::matcher::Matcher;

/// One node of a dump with the attributes checks read. Flags are kept as the strings the dump has
/// (`"true"`/`"false"`) so attribute matchers treat every attribute alike.
#[derive(Debug, Clone, PartialEq)]
pub struct UiNode {
    pub attrs: Vec<(String, String)>,
    pub bounds: Option<Bounds>,
}

impl UiNode {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Every `<node>` of a dump in document order. Tool messages around the XML (`UI hierchary dumped
/// to: …`) are ignored; XML that cannot be read is an error naming the position.
pub fn parse_nodes(xml: &str) -> Result<Vec<UiNode>, String> {
    use quick_xml::events::Event;
    let start = xml.find('<').ok_or("no xml in the dump")?;
    let end = xml.rfind('>').map(|e| e + 1).unwrap_or(xml.len());
    let mut reader = quick_xml::Reader::from_str(&xml[start..end.max(start)]);
    let mut nodes = Vec::new();
    let mut saw_hierarchy = false;
    loop {
        match reader.read_event() {
            Err(e) => {
                return Err(format!(
                    "bad hierarchy xml at byte {}: {e}",
                    reader.buffer_position()
                ))
            }
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => match e.name().as_ref() {
                b"hierarchy" => saw_hierarchy = true,
                b"node" => {
                    let mut attrs = Vec::new();
                    for attr in e.attributes().with_checks(false).flatten() {
                        let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
                        let value = attr
                            .unescape_value()
                            .map(|v| v.into_owned())
                            .unwrap_or_else(|_| String::from_utf8_lossy(&attr.value).into_owned());
                        attrs.push((key, value));
                    }
                    let bounds = attrs
                        .iter()
                        .find(|(k, _)| k == "bounds")
                        .and_then(|(_, v)| parse_bounds(v));
                    nodes.push(UiNode { attrs, bounds });
                }
                _ => {}
            },
            Ok(_) => {}
        }
    }
    if !saw_hierarchy {
        return Err("no <hierarchy> element in the dump".into());
    }
    Ok(nodes)
}

/// `[0,63][1080,189]` → bounds.
pub fn parse_bounds(s: &str) -> Option<Bounds> {
    let nums: Vec<i32> = s
        .split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter(|p| !p.is_empty())
        .map(|p| p.parse().ok())
        .collect::<Option<Vec<_>>>()?;
    match nums[..] {
        [l, t, r, b] => Some(Bounds::new(l, t, r, b)),
        _ => None,
    }
}

/// Which nodes a check or a golden action means. Every set field must hold; `resource_id` matches the
/// full id or its tail after `:id/`; `index` picks the nth match (0-based) in document order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct UiSelector {
    pub resource_id: Option<String>,
    pub text: Option<String>,
    pub text_contains: Option<String>,
    pub text_regex: Option<String>,
    pub content_desc: Option<String>,
    pub desc_contains: Option<String>,
    pub class: Option<String>,
    pub hint: Option<String>,
    pub index: Option<usize>,
}

impl UiSelector {
    /// Parses the short form used in task files: `id:formula`, `text:Save`, `text~:Sav`,
    /// `desc:Start`, `desc~:Pause`, `class:android.widget.EditText`, `hint:First name`, optionally
    /// `#N` at the end for the nth match, and `&` to combine (`class:…EditText&hint:Phone`).
    pub fn parse(s: &str) -> Result<UiSelector, String> {
        let (body, index) = match s.rsplit_once('#') {
            Some((body, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
                (body, n.parse().ok())
            }
            _ => (s, None),
        };
        let mut sel = UiSelector {
            index,
            ..Default::default()
        };
        for part in split_parts(body) {
            let (key, value) = part.split_once(':').ok_or_else(|| {
                format!("selector {s:?}: expected kind:value (id:, text:, desc:, class:, hint:)")
            })?;
            let value = value.to_string();
            match key.trim() {
                "id" => sel.resource_id = Some(value),
                "text" => sel.text = Some(value),
                "text~" => sel.text_contains = Some(value),
                "text/" => sel.text_regex = Some(value),
                "desc" => sel.content_desc = Some(value),
                "desc~" => sel.desc_contains = Some(value),
                "class" => sel.class = Some(value),
                "hint" => sel.hint = Some(value),
                other => return Err(format!("selector {s:?}: unknown kind {other:?}")),
            }
        }
        if sel
            == (UiSelector {
                index,
                ..Default::default()
            })
        {
            return Err(format!("selector {s:?} names nothing"));
        }
        Ok(sel)
    }

    pub fn matches(&self, node: &UiNode) -> bool {
        let attr = |k: &str| node.get(k).unwrap_or("");
        if let Some(id) = &self.resource_id {
            let rid = attr("resource-id");
            let tail = rid.rsplit_once(":id/").map(|(_, t)| t).unwrap_or(rid);
            if rid != id && tail != id {
                return false;
            }
        }
        if self.text.as_deref().is_some_and(|t| attr("text") != t) {
            return false;
        }
        if self
            .text_contains
            .as_deref()
            .is_some_and(|t| !attr("text").contains(t))
        {
            return false;
        }
        if let Some(re) = &self.text_regex {
            match regex::Regex::new(re) {
                Ok(re) if re.is_match(attr("text")) => {}
                _ => return false,
            }
        }
        if self
            .content_desc
            .as_deref()
            .is_some_and(|d| attr("content-desc") != d)
        {
            return false;
        }
        if self
            .desc_contains
            .as_deref()
            .is_some_and(|d| !attr("content-desc").contains(d))
        {
            return false;
        }
        if let Some(c) = &self.class {
            let class = attr("class");
            if class != c && class.rsplit('.').next() != Some(c.as_str()) {
                return false;
            }
        }
        if self.hint.as_deref().is_some_and(|h| attr("hint") != h) {
            return false;
        }
        true
    }

    /// The nodes this selector picks (all matches, or the single `index`-th one).
    pub fn select<'a>(&self, nodes: &'a [UiNode]) -> Vec<&'a UiNode> {
        let all: Vec<&UiNode> = nodes.iter().filter(|n| self.matches(n)).collect();
        match self.index {
            Some(i) => all.get(i).map(|n| vec![*n]).unwrap_or_default(),
            None => all,
        }
    }

    /// Applies `f` to every string field (parameter substitution).
    pub fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        for field in [
            &mut self.resource_id,
            &mut self.text,
            &mut self.text_contains,
            &mut self.text_regex,
            &mut self.content_desc,
            &mut self.desc_contains,
            &mut self.class,
            &mut self.hint,
        ]
        .into_iter()
        .flatten()
        {
            *field = f(field);
        }
    }

    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let fields = [
            ("id", &self.resource_id),
            ("text", &self.text),
            ("text~", &self.text_contains),
            ("text/", &self.text_regex),
            ("desc", &self.content_desc),
            ("desc~", &self.desc_contains),
            ("class", &self.class),
            ("hint", &self.hint),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                parts.push(format!("{k}:{v}"));
            }
        }
        let mut s = parts.join("&");
        if let Some(i) = self.index {
            s.push_str(&format!("#{i}"));
        }
        s
    }
}

/// Splits `a:x&b:y` at each `&` that starts another `kind:` part, so values may contain `&`
/// (`text:Sound & vibration`).
fn split_parts(body: &str) -> Vec<&str> {
    const KINDS: [&str; 8] = [
        "id:", "text:", "text~:", "text/:", "desc:", "desc~:", "class:", "hint:",
    ];
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, _) in body.match_indices('&') {
        if KINDS.iter().any(|k| body[i + 1..].starts_with(k)) {
            parts.push(&body[start..i]);
            start = i + 1;
        }
    }
    parts.push(&body[start..]);
    parts
}

/// A UI predicate: the selected element exists (or not) and its attributes satisfy the matchers.
#[derive(Debug, Clone, PartialEq)]
pub struct UiPredicate {
    pub selector: UiSelector,
    /// Attribute name as the dump spells it (`text`, `enabled`, `checked`, `content-desc`) → test.
    pub attrs: Vec<(String, Matcher)>,
    /// False: the check passes when no element matches.
    pub present: bool,
}

impl UiPredicate {
    /// Tests one screen; `Ok(value)` carries the matched element's text (or desc) for evidence.
    pub fn test(&self, nodes: &[UiNode]) -> Result<String, String> {
        let candidates = self.selector.select(nodes);
        if !self.present {
            return if candidates.is_empty() {
                Ok(String::new())
            } else {
                Err(format!("{} is on screen", self.selector.describe()))
            };
        }
        if candidates.is_empty() {
            return Err(format!("no element matches {}", self.selector.describe()));
        }
        let mut last_err = String::new();
        for node in candidates {
            match self.attrs.iter().try_for_each(|(name, m)| {
                m.check(node.get(name), None)
                    .map_err(|e| format!("{name}: {e}"))
            }) {
                Ok(()) => {
                    let shown = node
                        .get("text")
                        .filter(|t| !t.is_empty())
                        .or(node.get("content-desc"));
                    return Ok(shown.unwrap_or("").to_string());
                }
                Err(e) => last_err = e,
            }
        }
        Err(format!("{}: {last_err}", self.selector.describe()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.google.android.calculator" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="2+24÷3" resource-id="com.google.android.calculator:id/formula" class="android.widget.EditText" package="com.google.android.calculator" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="true" password="false" selected="false" bounds="[0,300][1080,500]" /><node index="1" text="" resource-id="com.google.android.calculator:id/clr" class="android.widget.Button" package="com.google.android.calculator" content-desc="clear" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[810,1200][1080,1400]" /></node></hierarchy>UI hierchary dumped to: /dev/tty"#;

    #[test]
    fn finds_formula_by_id_tail_and_full_id() {
        let nodes = parse_nodes(DUMP).unwrap();
        assert_eq!(nodes.len(), 3);
        for id in ["formula", "com.google.android.calculator:id/formula"] {
            let p = UiPredicate {
                selector: UiSelector {
                    resource_id: Some(id.into()),
                    ..Default::default()
                },
                attrs: vec![("text".into(), Matcher::Eq("2+24÷3".into()))],
                present: true,
            };
            assert_eq!(p.test(&nodes).as_deref(), Ok("2+24÷3"));
        }
        let wrong = UiPredicate {
            selector: UiSelector::parse("id:formula").unwrap(),
            attrs: vec![("text".into(), Matcher::Eq("2+24".into()))],
            present: true,
        };
        assert!(wrong.test(&nodes).is_err());
        let absent = UiPredicate {
            selector: UiSelector::parse("id:result_final").unwrap(),
            attrs: vec![],
            present: false,
        };
        assert!(absent.test(&nodes).is_ok());
    }

    #[test]
    fn selector_short_forms() {
        let s = UiSelector::parse("class:Button&desc:clear#0").unwrap();
        let nodes = parse_nodes(DUMP).unwrap();
        assert_eq!(
            s.select(&nodes)[0].bounds,
            Some(Bounds::new(810, 1200, 1080, 1400))
        );
        assert!(UiSelector::parse("bogus").is_err());
        assert!(UiSelector::parse("color:red").is_err());
        assert_eq!(
            UiSelector::parse("text~:24#1").unwrap().describe(),
            "text~:24#1"
        );
    }

    #[test]
    fn damaged_dumps_are_errors_not_panics() {
        assert!(parse_nodes("ERROR: could not get idle state.").is_err());
        assert!(parse_nodes("<hierarchy><node bounds=\"[0,0][1,1]\"></hierarchy>").is_err());
    }
}

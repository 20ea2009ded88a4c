//! Golden-solution actions: what a reference agent does, by selector rather than coordinates, so a
//! solution survives screen sizes, densities and layouts. Selectors are the hierarchy's one grammar
//! (`id:save`, `text:"Sound & vibration"`, `desc~=June 3`, `class:Switch desc:"9:00 AM" nth:1`).

use crate::eval::history::RefAction;
use droidmcp_device::command;
use droidmcp_hierarchy::Selector;

/// One reference action.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Open an app by launcher label or package.
    Open(String),
    Tap(Selector),
    /// A tap at a relative position inside the element (`[0.95, 0.5]`: near its end), for seek
    /// bars and sliders. The x fraction runs from the element's start, its right edge in a
    /// right-to-left locale, as a mirrored SeekBar's values do.
    TapAt {
        selector: Selector,
        fx: f64,
        fy: f64,
    },
    LongPress(Selector),
    /// Type text, into the selected field (tapping it first) or the focused one.
    Type {
        text: String,
        into: Option<Selector>,
        submit: bool,
    },
    /// `back`, `home`, `enter`, `delete`, `recents`, or a keycode name/number.
    Key(String),
    /// Swipe from the middle of the screen, or of the element `on` selects (a drawing canvas),
    /// the finger moving `up`, `down`, `left` or `right`.
    Swipe {
        direction: String,
        on: Option<Selector>,
    },
    /// Scroll until the selector is on screen, at most 10 swipes; `direction` is where the content
    /// comes from (`down`, the default: further down the list, so the finger moves up).
    ScrollTo {
        selector: Selector,
        direction: String,
    },
    Wait(u64),
    Answer(String),
    Finish,
}

/// A golden's selector. One whose number terms (`nth:{d.month_cell}`, `index:…`) are placeholders
/// cannot be parsed before substitution: the rest is checked now (with `0` for each placeholder)
/// and the whole text is kept, to be parsed by [`map_selector`] once the values are in.
fn parse_selector(text: &str) -> Result<Selector, String> {
    use droidmcp_hierarchy::{Criterion, Matcher};
    match Selector::parse(text) {
        Ok(selector) => Ok(selector),
        Err(e) if text.contains('{') => {
            let probe = regex::Regex::new(r"\{[^{}]*\}")
                .expect("valid regex")
                .replace_all(text, "0");
            Selector::parse(&probe).map_err(|_| e.to_string())?;
            Ok(Selector {
                criteria: vec![Criterion::Any(Matcher::Exact(text.to_string()))],
                nth: None,
            })
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Substitutes parameters in a selector. A selector kept whole by [`parse_selector`], or one that is
/// a single placeholder (`tap = "{label.row}"`, a whole selector drawn from a choice table: `row =
/// "class:CheckedTextView nth:2"`), is parsed after substitution. That is how a golden picks an
/// element by position (a dropdown row, a day of the month grid), so it works in every language
/// the element's text is shown in.
fn map_selector(sel: &mut Selector, f: &mut dyn FnMut(&str) -> String) {
    use droidmcp_hierarchy::{Criterion, Matcher};
    if let ([Criterion::Any(Matcher::Exact(v))], None) = (sel.criteria.as_slice(), sel.nth) {
        let whole =
            v.starts_with('{') && v.ends_with('}') && v[1..].find(['{', '}']) == Some(v.len() - 2);
        if whole || (v.contains('{') && Selector::parse(v).is_err()) {
            let rendered = f(v);
            match Selector::parse(&rendered) {
                Ok(parsed) => *sel = parsed,
                // Keeping the text matches nothing real, so the golden replay of that choice fails
                // and says which selector it could not find.
                Err(e) => {
                    tracing::warn!("selector {rendered:?} from a parameter: {e}");
                    sel.criteria = vec![Criterion::Any(Matcher::Exact(rendered))];
                }
            }
            return;
        }
    }
    sel.map_strings(f)
}

impl Action {
    /// Parses one golden entry: `{ open = "Clock" }`, `{ tap = "id:fab" }`, `{ long_press = "…" }`,
    /// `{ type = "text", into = "id:…", submit = true }`, `{ key = "back" }`, `{ swipe = "up" }`,
    /// `{ scroll_to = "text:…", direction = "down" }`, `{ wait = 500 }`, `{ answer = "…" }`,
    /// `{ finish = true }`.
    pub fn parse(v: &toml::Value) -> Result<Action, String> {
        let t = v
            .as_table()
            .ok_or("an action must be a table like { tap = \"id:save\" }")?;
        let s = |key: &str| -> Result<String, String> {
            t.get(key)
                .and_then(|v| v.as_str())
                .map(str::to_string)
                .ok_or_else(|| format!("{key} needs a string"))
        };
        let sel = |key: &str| -> Result<Selector, String> { parse_selector(&s(key)?) };
        let only = |keys: &[&str]| -> Result<(), String> {
            match t.keys().find(|k| !keys.contains(&k.as_str())) {
                Some(k) => Err(format!("unexpected key {k:?} in this action")),
                None => Ok(()),
            }
        };
        let verb = ["open", "tap", "long_press", "type", "key", "swipe", "scroll_to", "wait", "answer", "finish"]
            .into_iter()
            .find(|k| t.contains_key(*k))
            .ok_or("unknown action (open, tap, long_press, type, key, swipe, scroll_to, wait, answer, finish)")?;
        Ok(match verb {
            "open" => {
                only(&["open"])?;
                Action::Open(s("open")?)
            }
            "tap" if t.contains_key("at") => {
                only(&["tap", "at"])?;
                let at = t
                    .get("at")
                    .and_then(|v| v.as_array())
                    .filter(|a| a.len() == 2);
                let f = |v: &toml::Value| {
                    v.as_float()
                        .or(v.as_integer().map(|i| i as f64))
                        .filter(|f| (0.0..=1.0).contains(f))
                };
                match at.map(|a| (f(&a[0]), f(&a[1]))) {
                    Some((Some(fx), Some(fy))) => Action::TapAt {
                        selector: sel("tap")?,
                        fx,
                        fy,
                    },
                    _ => return Err("at must be [fx, fy] with fractions in 0..=1".into()),
                }
            }
            "tap" => {
                only(&["tap"])?;
                Action::Tap(sel("tap")?)
            }
            "long_press" => {
                only(&["long_press"])?;
                Action::LongPress(sel("long_press")?)
            }
            "type" => {
                only(&["type", "into", "submit"])?;
                let into = if t.contains_key("into") {
                    Some(sel("into")?)
                } else {
                    None
                };
                let submit = t.get("submit").and_then(|v| v.as_bool()).unwrap_or(false);
                Action::Type {
                    text: s("type")?,
                    into,
                    submit,
                }
            }
            "key" => {
                only(&["key"])?;
                Action::Key(s("key")?)
            }
            "swipe" => {
                only(&["swipe", "on"])?;
                let d = s("swipe")?;
                if !["up", "down", "left", "right"].contains(&d.as_str()) {
                    return Err(format!("swipe direction {d:?} (up, down, left, right)"));
                }
                Action::Swipe {
                    direction: d,
                    on: if t.contains_key("on") {
                        Some(sel("on")?)
                    } else {
                        None
                    },
                }
            }
            "scroll_to" => {
                only(&["scroll_to", "direction"])?;
                let direction = if t.contains_key("direction") {
                    s("direction")?
                } else {
                    "down".into()
                };
                if !["up", "down", "left", "right"].contains(&direction.as_str()) {
                    return Err(format!(
                        "scroll direction {direction:?} (up, down, left, right)"
                    ));
                }
                Action::ScrollTo {
                    selector: sel("scroll_to")?,
                    direction,
                }
            }
            "wait" => {
                only(&["wait"])?;
                let ms = t
                    .get("wait")
                    .and_then(|v| v.as_integer())
                    .filter(|ms| (0..=60_000).contains(ms));
                Action::Wait(ms.ok_or("wait needs milliseconds in 0..=60000")? as u64)
            }
            "answer" => {
                only(&["answer"])?;
                Action::Answer(s("answer")?)
            }
            _ => {
                only(&["finish"])?;
                Action::Finish
            }
        })
    }

    /// Applies `f` to every string (parameter substitution).
    pub fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        match self {
            Action::Open(s) | Action::Key(s) | Action::Answer(s) => *s = f(s),
            Action::Swipe { direction, on } => {
                *direction = f(direction);
                if let Some(sel) = on {
                    map_selector(sel, f);
                }
            }
            Action::Tap(sel) | Action::LongPress(sel) | Action::TapAt { selector: sel, .. } => {
                map_selector(sel, f)
            }
            Action::Type { text, into, .. } => {
                *text = f(text);
                if let Some(sel) = into {
                    map_selector(sel, f);
                }
            }
            Action::ScrollTo { selector, .. } => map_selector(selector, f),
            Action::Wait(_) | Action::Finish => {}
        }
    }

    /// The reference form used by LCS checks and trajectory metrics (`None` for actions that are not
    /// a fixed step on the device: waits, answers, finish, and scrolling, whose number of swipes
    /// depends on the screen). Swipes name the finger's direction, keys their canonical name.
    pub fn reference(&self) -> Option<RefAction> {
        let r = |kind: &str, selector: Option<Selector>, text: Option<String>| {
            Some(RefAction {
                kind: kind.into(),
                selector,
                text,
            })
        };
        match self {
            Action::Open(app) => r("open_app", None, Some(app.clone())),
            Action::Tap(s) | Action::TapAt { selector: s, .. } => r("tap", Some(s.clone()), None),
            Action::LongPress(s) => r("long_press", Some(s.clone()), None),
            Action::Type { text, .. } => r("type", None, Some(text.clone())),
            Action::Key(k) => {
                let name = command::keycode(k)
                    .and_then(command::key_name)
                    .map(str::to_string)
                    .unwrap_or_else(|| k.clone());
                r("key", None, Some(name))
            }
            Action::Swipe { direction, on } => r("swipe", on.clone(), Some(direction.clone())),
            Action::ScrollTo { .. } | Action::Wait(_) | Action::Answer(_) | Action::Finish => None,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Action::Open(a) => format!("open {a}"),
            Action::Tap(s) => format!("tap {s}"),
            Action::TapAt { selector, fx, fy } => format!("tap {selector} at ({fx}, {fy})"),
            Action::LongPress(s) => format!("long_press {s}"),
            Action::Type {
                text,
                into: Some(s),
                ..
            } => format!("type {text:?} into {s}"),
            Action::Type { text, .. } => format!("type {text:?}"),
            Action::Key(k) => format!("key {k}"),
            Action::Swipe {
                direction,
                on: None,
            } => format!("swipe {direction}"),
            Action::Swipe {
                direction,
                on: Some(s),
            } => format!("swipe {direction} on {s}"),
            Action::ScrollTo {
                selector,
                direction,
            } => format!("scroll {direction} to {selector}"),
            Action::Wait(ms) => format!("wait {ms}ms"),
            Action::Answer(a) => format!("answer {a:?}"),
            Action::Finish => "finish".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<Action, String> {
        let v: toml::Value =
            toml::from_str::<toml::Table>(&format!("a = {src}")).unwrap()["a"].clone();
        Action::parse(&v)
    }

    #[test]
    fn forms() {
        assert_eq!(
            parse("{ open = \"Clock\" }").unwrap(),
            Action::Open("Clock".into())
        );
        assert!(matches!(
            parse("{ type = \"hi\", into = \"id:compose\", submit = true }").unwrap(),
            Action::Type { submit: true, .. }
        ));
        assert_eq!(parse("{ wait = 10 }").unwrap(), Action::Wait(10));
        assert!(parse("{ tap = \"role:nonsense\" }").is_err());
        assert!(parse("{ tap = \"id:x\", extra = 1 }")
            .unwrap_err()
            .contains("extra"));
        assert!(parse("{ fly = \"up\" }")
            .unwrap_err()
            .contains("unknown action"));
        assert!(parse("{ swipe = \"sideways\" }").is_err());
        assert!(
            parse("{ tap = \"id:x&text:y\" }").is_err(),
            "one selector grammar"
        );
        assert_eq!(
            parse("{ key = \"KEYCODE_BACK\" }")
                .unwrap()
                .reference()
                .unwrap()
                .text
                .as_deref(),
            Some("back")
        );
        assert!(parse("{ scroll_to = \"text:Display\" }")
            .unwrap()
            .reference()
            .is_none());
    }
}

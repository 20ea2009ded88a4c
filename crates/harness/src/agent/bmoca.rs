//! B-MoCA's text agent format: the observation its LLM agents read and the function calls they
//! answer with.
//!
//! The observation is the view hierarchy as B-MoCA's `parse_obs` lists it: every node with bounds,
//! children before their parent (the order of XML end events), each as
//! `{'numeric_tag': N, 'resource_id': …, 'class': …, 'content_description': …, 'text': …, 'checked': …}`
//! with `checked` true when the node is checked, selected or focused. The reply's `Action:` is one
//! of `dual-gesture(touch y, touch x, lift y, lift x)` (normalised; a tap when the two points lie
//! within 0.14 of each other, a swipe otherwise), `tap(numeric tag)`, `swipe("up"|"down"|"left"|
//! "right")` or `press("HOME"|"BACK"|"OVERVIEW")`. B-MoCA's agents never say they are done: its
//! environment ends the episode when the task's success detector fires after a step.

use std::sync::LazyLock;

use regex::Regex;

use crate::session::{self, Target};
use droidmcp_device::ScreenSize;
use droidmcp_geom::{Bounds, Point};
use droidmcp_hierarchy::{Hierarchy, NodeId};

/// A dual gesture whose touch and lift points are at most this far apart (normalised) is a tap.
const TAP_DISTANCE: f64 = 0.14;
/// Where `swipe(direction)` starts and ends, as fractions of the screen (B-MoCA's fixed swipe).
const SWIPE_NEAR: f64 = 0.2;
const SWIPE_FAR: f64 = 0.8;
const SWIPE_MS: u32 = 300;

/// One turn's observation: the listing the model reads and each numeric tag's bounds.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    pub text: String,
    pub bounds: Vec<Bounds>,
}

/// Lists `h` as B-MoCA's `parse_obs` does (with the `checked` attribute, without bounding boxes).
pub fn listing(h: &Hierarchy) -> Listing {
    let mut order = Vec::with_capacity(h.nodes.len());
    for root in &h.roots {
        post_order(h, *root, &mut order);
    }
    let mut items = Vec::with_capacity(order.len());
    let mut bounds = Vec::with_capacity(order.len());
    for (tag, id) in order.into_iter().enumerate() {
        let n = &h.nodes[id.index()];
        let checked = n.checked || n.selected || n.focused;
        items.push(format!(
            "{{'numeric_tag': {tag}, 'resource_id': {}, 'class': {}, 'content_description': {}, 'text': {}, 'checked': '{checked}'}}",
            py_str(n.resource_id_tail()),
            py_str(n.short_class()),
            py_str(&n.content_desc),
            py_str(&n.text),
        ));
        bounds.push(n.bounds);
    }
    Listing {
        text: format!("[{}]", items.join(", ")),
        bounds,
    }
}

fn post_order(h: &Hierarchy, id: NodeId, out: &mut Vec<NodeId>) {
    for child in &h.nodes[id.index()].children {
        post_order(h, *child, out);
    }
    out.push(id);
}

/// A string as Python's `repr` writes it (single quotes unless the text holds one and no double).
pub(crate) fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// Why a reply is no B-MoCA action.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CallError {
    #[error("the reply is empty")]
    Empty,
    #[error("no function call found; answer with one of dual-gesture(...), tap(N), swipe(\"up\"), press(\"HOME\")")]
    NoCall,
    #[error("tap takes a numeric tag, got {0:?}")]
    BadTag(String),
    #[error("tap({0}): no UI element has numeric tag {0} (the observation lists {1})")]
    NoSuchTag(usize, usize),
    #[error("dual-gesture takes four numbers between 0 and 1, got ({0})")]
    BadGesture(String),
    #[error("swipe takes \"up\", \"down\", \"left\" or \"right\", got {0:?}")]
    BadDirection(String),
    #[error("press takes \"HOME\", \"BACK\" or \"OVERVIEW\", got {0:?}")]
    BadButton(String),
}

static CALL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\b(dual-gesture|dual_gesture|tap|swipe|press)\s*\(\s*([^)]*?)\s*\)"#)
        .expect("the call pattern compiles")
});

/// Reads the action out of a reply (the call after `Action:` when there is one, else the last call
/// in the reply) and aims it with this turn's `listing` on a screen of `size`.
pub fn parse(
    reply: &str,
    listing: &Listing,
    size: ScreenSize,
) -> Result<(String, session::Action), CallError> {
    if reply.trim().is_empty() {
        return Err(CallError::Empty);
    }
    let tail = reply
        .rfind("Action:")
        .map_or(reply, |i| &reply[i + "Action:".len()..]);
    let call = CALL
        .captures_iter(tail)
        .next()
        .or_else(|| CALL.captures_iter(reply).last())
        .ok_or(CallError::NoCall)?;
    let name = call[1].to_ascii_lowercase().replace('_', "-");
    let args = call[2].trim();
    let unquoted = args.trim_matches(|c| c == '"' || c == '\'').trim();
    let point = |y: f64, x: f64| {
        Target::Point(Point::new(
            (x * size.width as f64).round() as i32,
            (y * size.height as f64).round() as i32,
        ))
    };
    let action = match name.as_str() {
        "tap" => {
            let tag: usize = unquoted
                .parse()
                .map_err(|_| CallError::BadTag(unquoted.to_string()))?;
            let b = listing
                .bounds
                .get(tag)
                .ok_or(CallError::NoSuchTag(tag, listing.bounds.len()))?;
            session::Action::Tap(Target::Point(b.center()))
        }
        "dual-gesture" => {
            let v: Vec<f64> = args
                .split(',')
                .map(|a| a.trim().parse::<f64>())
                .collect::<Result<_, _>>()
                .map_err(|_| CallError::BadGesture(args.to_string()))?;
            let [ty, tx, ly, lx] = v[..] else {
                return Err(CallError::BadGesture(args.to_string()));
            };
            if v.iter().any(|c| !(0.0..=1.0).contains(c)) {
                return Err(CallError::BadGesture(args.to_string()));
            }
            if ((ty - ly).powi(2) + (tx - lx).powi(2)).sqrt() <= TAP_DISTANCE {
                session::Action::Tap(point(ty, tx))
            } else {
                session::Action::Swipe {
                    from: point(ty, tx),
                    to: point(ly, lx),
                    duration_ms: SWIPE_MS,
                }
            }
        }
        "swipe" => {
            let (from, to) = match unquoted.to_ascii_lowercase().as_str() {
                "up" => ((SWIPE_FAR, 0.5), (SWIPE_NEAR, 0.5)),
                "down" => ((SWIPE_NEAR, 0.5), (SWIPE_FAR, 0.5)),
                "left" => ((0.5, SWIPE_FAR), (0.5, SWIPE_NEAR)),
                "right" => ((0.5, SWIPE_NEAR), (0.5, SWIPE_FAR)),
                _ => return Err(CallError::BadDirection(unquoted.to_string())),
            };
            session::Action::Swipe {
                from: point(from.0, from.1),
                to: point(to.0, to.1),
                duration_ms: SWIPE_MS,
            }
        }
        _ => {
            let key = match unquoted.to_ascii_uppercase().as_str() {
                "HOME" => "home",
                "BACK" => "back",
                "OVERVIEW" => "overview",
                _ => return Err(CallError::BadButton(unquoted.to_string())),
            };
            session::Action::PressKey { key: key.into() }
        }
    };
    Ok((format!("{name}({args})"), action))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DUMP: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="p" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="It's 5" resource-id="com.x:id/title" class="android.widget.TextView" package="p" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="true" bounds="[0,100][1080,200]" /><node index="1" text="" resource-id="" class="android.widget.ImageButton" package="p" content-desc="More" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[980,0][1080,100]" /></node></hierarchy>"#;

    fn size() -> ScreenSize {
        ScreenSize {
            width: 1080,
            height: 2400,
            physical_width: 1080,
            physical_height: 2400,
            overridden: false,
        }
    }

    #[test]
    fn lists_children_before_parents_as_parse_obs_does() {
        let h = droidmcp_hierarchy::parse(DUMP.as_bytes()).unwrap();
        let l = listing(&h);
        assert_eq!(
            l.text,
            "[{'numeric_tag': 0, 'resource_id': 'title', 'class': 'TextView', 'content_description': '', 'text': \"It's 5\", 'checked': 'true'}, \
             {'numeric_tag': 1, 'resource_id': '', 'class': 'ImageButton', 'content_description': 'More', 'text': '', 'checked': 'false'}, \
             {'numeric_tag': 2, 'resource_id': '', 'class': 'FrameLayout', 'content_description': '', 'text': '', 'checked': 'false'}]"
        );
        assert_eq!(l.bounds.len(), 3);
    }

    #[test]
    fn reads_each_call_and_aims_it() {
        let h = droidmcp_hierarchy::parse(DUMP.as_bytes()).unwrap();
        let l = listing(&h);
        let at = |x, y| Target::Point(Point::new(x, y));
        let reply = "- Description: a title.\n- Thought: open the menu.\n- Action: tap(1)";
        assert_eq!(
            parse(reply, &l, size()).unwrap(),
            ("tap(1)".into(), session::Action::Tap(at(1030, 50)))
        );
        assert_eq!(
            parse("Action: dual-gesture(0.5, 0.5, 0.52, 0.5)", &l, size())
                .unwrap()
                .1,
            session::Action::Tap(at(540, 1200))
        );
        assert_eq!(
            parse("Action: dual-gesture(0.8, 0.5, 0.2, 0.5)", &l, size())
                .unwrap()
                .1,
            session::Action::Swipe {
                from: at(540, 1920),
                to: at(540, 480),
                duration_ms: SWIPE_MS
            }
        );
        assert_eq!(
            parse("Action: swipe(\"up\")", &l, size()).unwrap().1,
            session::Action::Swipe {
                from: at(540, 1920),
                to: at(540, 480),
                duration_ms: SWIPE_MS
            }
        );
        assert_eq!(
            parse("Action: press(\"OVERVIEW\")", &l, size()).unwrap().1,
            session::Action::PressKey {
                key: "overview".into()
            }
        );
        // The call after "Action:" counts, not one the thought mentions.
        assert_eq!(
            parse(
                "- Thought: tap(0) is wrong.\n- Action: press(\"BACK\")",
                &l,
                size()
            )
            .unwrap()
            .0,
            "press(\"BACK\")"
        );
    }

    #[test]
    fn says_what_is_wrong_with_a_bad_call() {
        let h = droidmcp_hierarchy::parse(DUMP.as_bytes()).unwrap();
        let l = listing(&h);
        assert_eq!(parse("  ", &l, size()), Err(CallError::Empty));
        assert_eq!(parse("I would tap it", &l, size()), Err(CallError::NoCall));
        assert_eq!(
            parse("Action: tap(9)", &l, size()),
            Err(CallError::NoSuchTag(9, 3))
        );
        assert!(matches!(
            parse("Action: dual-gesture(0.5, 1.5, 0.5, 0.5)", &l, size()),
            Err(CallError::BadGesture(_))
        ));
        assert!(matches!(
            parse("Action: swipe(\"sideways\")", &l, size()),
            Err(CallError::BadDirection(_))
        ));
        assert!(matches!(
            parse("Action: press(\"MENU\")", &l, size()),
            Err(CallError::BadButton(_))
        ));
    }
}

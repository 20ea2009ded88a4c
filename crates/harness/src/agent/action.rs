//! The reference agents' action vocabulary and the parser that reads it out of a model's reply.
//!
//! One JSON object per turn, in AndroidWorld's `JSONAction` spelling (`{"action_type": "click",
//! "index": 4}`) with the aliases models actually write (`tap`, `type`, `press_key`, `finish`…).
//! Targets are an element `index` from the element list, a `selector` in the hierarchy's grammar
//! (`id:search_box`, `text:Alarm`), or `x`/`y` screen pixels. The parser takes the object out of code
//! fences and prose ([`droidmcp_llm::extract_json_object`]) and says precisely what is wrong otherwise,
//! so the agent can ask the model once to repair its reply.

use serde_json::Value;

use crate::session::{self, Direction, Target};
use droidmcp_geom::Point;
use droidmcp_hierarchy::Selector;

/// What the model asked for in one turn.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentAction {
    /// Something to do on the phone (one or more steps of the episode).
    Act(session::Action),
    /// The answer to the task's question (ends the episode for the agent).
    Answer(String),
    /// The goal is reached (`status: complete`).
    Done,
    /// The model says the goal cannot be reached (`status: infeasible`); ends the episode unfinished.
    Infeasible,
}

/// Why a reply could not be used as an action.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ActionError {
    #[error("the reply is empty")]
    Empty,
    #[error("the reply holds no JSON object")]
    NoJson,
    #[error("the JSON object does not parse: {0}")]
    BadJson(String),
    #[error("no `action_type` field")]
    NoType,
    #[error("unknown action_type {0:?}; use one of {ACTION_TYPES}")]
    UnknownType(String),
    #[error("{action}: {problem}")]
    BadField {
        action: &'static str,
        problem: String,
    },
}

/// The action types a reply may use, as listed in errors and prompts.
pub const ACTION_TYPES: &str = "click, long_press, input_text, keyboard_enter, navigate_back, \
navigate_home, scroll, swipe, drag, open_app, wait, answer, status";

/// How long a `wait` action waits unless it says (`"seconds"`).
const WAIT_MS: u64 = 1_000;
/// A swipe's duration unless it says (`"duration_ms"`).
const SWIPE_MS: u32 = 300;
/// A drag's duration unless it says: slow enough that a slider follows the finger, not a fling.
const DRAG_MS: u32 = 600;
/// How far a `scroll` with `until` may go looking.
const SCROLL_UNTIL_SWIPES: u32 = 10;

/// A gesture's `duration_ms` when given (the session bounds it), else `default`.
fn duration(v: &Value, default: u32) -> u32 {
    v.get("duration_ms")
        .and_then(Value::as_u64)
        .map_or(default, |ms| ms.min(u32::MAX as u64) as u32)
}

/// Parses AndroidWorld's reply form, `Reason: …` then `Action: {…}`: the reason (empty when the
/// reply gives none) and the action (the JSON after the last `Action:`, else the first in the reply).
pub fn parse_reasoned(reply: &str) -> Result<(String, AgentAction), ActionError> {
    let lower = reply.to_ascii_lowercase();
    let marker = lower.rfind("action:");
    let action = match marker {
        Some(at) => parse(&reply[at + "action:".len()..]).or_else(|_| parse(reply)),
        None => parse(reply),
    }?;
    let upto = marker.unwrap_or(reply.len());
    let reason = match lower[..upto].find("reason:") {
        Some(at) => &reply[at + "reason:".len()..upto],
        None if marker.is_some() => &reply[..upto],
        None => "",
    };
    Ok((reason.trim().to_string(), action))
}

/// Parses one model reply into an action.
pub fn parse(reply: &str) -> Result<AgentAction, ActionError> {
    if reply.trim().is_empty() {
        return Err(ActionError::Empty);
    }
    let json = droidmcp_llm::extract_json_object(reply).ok_or(ActionError::NoJson)?;
    let v: Value = serde_json::from_str(json).map_err(|e| ActionError::BadJson(e.to_string()))?;
    let kind = ["action_type", "action", "type"]
        .iter()
        .find_map(|k| v.get(*k).and_then(Value::as_str))
        .ok_or(ActionError::NoType)?
        .trim()
        .to_ascii_lowercase();
    let act = |a: session::Action| Ok(AgentAction::Act(a));
    match kind.as_str() {
        "click" | "tap" => act(session::Action::Tap(target(&v, "click")?)),
        "double_tap" => act(session::Action::DoubleTap(target(&v, "double_tap")?)),
        "long_press" => act(session::Action::LongPress {
            target: target(&v, "long_press")?,
            duration_ms: duration(&v, session::LONG_PRESS_MS),
        }),
        "input_text" | "type" | "type_text" => {
            let text = string(&v, &["text"], "input_text")?;
            let into = optional_target(&v, "input_text")?;
            act(session::Action::TypeText {
                text,
                into,
                clear: v.get("clear").and_then(Value::as_bool).unwrap_or(false),
                submit: v.get("submit").and_then(Value::as_bool).unwrap_or(false),
            })
        }
        "keyboard_enter" | "enter" => key("enter"),
        "navigate_back" | "back" => key("back"),
        "navigate_home" | "home" => key("home"),
        "press_key" | "key" => key(&string(&v, &["key", "keycode"], "press_key")?),
        "scroll" => {
            let until = match v.get("until").and_then(Value::as_str) {
                None => None,
                Some(text) => Some(match Selector::parse(text) {
                    // A selector names its criteria (`text:`, `id:`, `desc~=`); anything else is
                    // the text to look for.
                    Ok(sel) if text.contains(':') || text.contains("~=") => Target::Selector(sel),
                    _ => Target::Text(text.to_string()),
                }),
            };
            act(session::Action::Scroll {
                direction: direction(&v, "scroll")?,
                container: optional_target(&v, "scroll")?,
                max_swipes: if until.is_some() {
                    SCROLL_UNTIL_SWIPES
                } else {
                    1
                },
                until,
            })
        }
        "swipe" => act(session::Action::SwipeDirection {
            direction: direction(&v, "swipe")?,
            from: optional_target(&v, "swipe")?,
            distance: None,
            duration_ms: duration(&v, SWIPE_MS),
        }),
        "drag" => act(drag(&v)?),
        "open_app" | "open" => act(session::Action::OpenApp {
            app: string(&v, &["app_name", "app", "name"], "open_app")?,
        }),
        "wait" => act(session::Action::Wait {
            ms: v
                .get("seconds")
                .and_then(Value::as_f64)
                .filter(|s| s.is_finite() && *s >= 0.0)
                .map_or(WAIT_MS, |s| {
                    (s * 1000.0).min(session::MAX_WAIT_MS as f64) as u64
                }),
        }),
        "answer" => Ok(AgentAction::Answer(string(
            &v,
            &["text", "answer"],
            "answer",
        )?)),
        "finish" | "done" | "complete" => Ok(AgentAction::Done),
        "status" => match v
            .get("goal_status")
            .or_else(|| v.get("status"))
            .and_then(Value::as_str)
            .map(|s| s.trim().to_ascii_lowercase())
            .as_deref()
        {
            Some("complete" | "completed" | "done" | "success") => Ok(AgentAction::Done),
            Some("infeasible" | "impossible" | "failed") => Ok(AgentAction::Infeasible),
            other => Err(ActionError::BadField {
                action: "status",
                problem: format!(
                    "goal_status must be \"complete\" or \"infeasible\", not {}",
                    other.map_or("missing".to_string(), |s| format!("{s:?}"))
                ),
            }),
        },
        other => Err(ActionError::UnknownType(other.to_string())),
    }
}

/// A finger drawn along element `index` from `from_fx` (default its middle: a slider's thumb jumps
/// to where it is touched) to `fx`, both fractions of its width (`fy` of its height, default the
/// middle), so a slider ends where `fx` says.
fn drag(v: &Value) -> Result<session::Action, ActionError> {
    let bad = |problem: &str| ActionError::BadField {
        action: "drag",
        problem: problem.to_string(),
    };
    let id = match optional_target(v, "drag")? {
        Some(Target::Element(id) | Target::ElementAt { id, .. }) => id,
        _ => return Err(bad("needs the `index` of the element to drag along")),
    };
    let fraction = |k: &str| v.get(k).and_then(Value::as_f64);
    let fx = fraction("fx").ok_or_else(|| bad("needs `fx`, where the drag ends (0.0 to 1.0)"))?;
    let from_fx = fraction("from_fx").unwrap_or(0.5);
    let fy = fraction("fy").unwrap_or(0.5);
    if ![fx, from_fx, fy].iter().all(|f| (0.0..=1.0).contains(f)) {
        return Err(bad(
            "`fx`, `from_fx` and `fy` are fractions from 0.0 to 1.0",
        ));
    }
    Ok(session::Action::Swipe {
        from: Target::ElementAt {
            id,
            fx: from_fx,
            fy,
        },
        to: Target::ElementAt { id, fx, fy },
        duration_ms: duration(v, DRAG_MS),
    })
}

fn key(name: &str) -> Result<AgentAction, ActionError> {
    Ok(AgentAction::Act(session::Action::PressKey {
        key: name.to_string(),
    }))
}

fn string(v: &Value, keys: &[&str], action: &'static str) -> Result<String, ActionError> {
    keys.iter()
        .find_map(|k| v.get(*k))
        .and_then(|x| match x {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .ok_or_else(|| ActionError::BadField {
            action,
            problem: format!("needs a `{}` string", keys[0]),
        })
}

fn direction(v: &Value, action: &'static str) -> Result<Direction, ActionError> {
    let d = string(v, &["direction"], action)?;
    Direction::parse(&d).ok_or_else(|| ActionError::BadField {
        action,
        problem: format!("direction {d:?} is not up, down, left or right"),
    })
}

/// The target a touch needs: `index` (or `element`), `selector`, or `x` and `y`.
fn target(v: &Value, action: &'static str) -> Result<Target, ActionError> {
    optional_target(v, action)?.ok_or_else(|| ActionError::BadField {
        action,
        problem: "needs a target: `index` (an element id), `selector`, or `x` and `y`".into(),
    })
}

/// `fx`/`fy`, fractions of a target's width and height (a missing one is the middle); `None`
/// when neither is given.
fn fractions(v: &Value) -> Result<Option<(f64, f64)>, ActionError> {
    let get = |k: &'static str| -> Result<Option<f64>, ActionError> {
        match v.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(x) => x
                .as_f64()
                .filter(|f| (0.0..=1.0).contains(f))
                .map(Some)
                .ok_or_else(|| ActionError::BadField {
                    action: "target",
                    problem: format!("`{k}` {x} is not a fraction from 0.0 to 1.0"),
                }),
        }
    };
    Ok(match (get("fx")?, get("fy")?) {
        (None, None) => None,
        (fx, fy) => Some((fx.unwrap_or(0.5), fy.unwrap_or(0.5))),
    })
}

fn optional_target(v: &Value, action: &'static str) -> Result<Option<Target>, ActionError> {
    let bad = |problem: String| ActionError::BadField { action, problem };
    if let Some(index) = v.get("index").or_else(|| v.get("element")) {
        if index.is_null() {
            return Ok(None);
        }
        let id = index
            .as_u64()
            .or_else(|| {
                index
                    .as_str()
                    .and_then(|s| s.trim().trim_start_matches('#').parse().ok())
            })
            .filter(|id| *id <= u32::MAX as u64)
            .ok_or_else(|| bad(format!("index {index} is not an element id")))?
            as u32;
        // A point along the element (a slider's value) when fractions are given.
        return Ok(Some(match fractions(v)? {
            Some((fx, fy)) => Target::ElementAt { id, fx, fy },
            None => Target::Element(id),
        }));
    }
    if let Some(sel) = v.get("selector").and_then(Value::as_str) {
        let selector = Selector::parse(sel).map_err(|e| bad(format!("selector {sel:?}: {e}")))?;
        return Ok(Some(match fractions(v)? {
            Some((fx, fy)) => Target::Within { selector, fx, fy },
            None => Target::Selector(selector),
        }));
    }
    match (v.get("x"), v.get("y")) {
        (None, None) => Ok(None),
        (Some(x), Some(y)) => {
            let coord = |c: &Value| {
                c.as_f64()
                    .filter(|n| n.is_finite() && (0.0..=100_000.0).contains(n))
                    .map(|n| n.round() as i32)
            };
            match (coord(x), coord(y)) {
                (Some(x), Some(y)) => Ok(Some(Target::Point(Point::new(x, y)))),
                _ => Err(bad(format!("x {x} and y {y} must be screen pixels"))),
            }
        }
        _ => Err(bad("a point needs both `x` and `y`".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(reply: &str) -> session::Action {
        match parse(reply).unwrap() {
            AgentAction::Act(a) => a,
            other => panic!("not an action: {other:?}"),
        }
    }

    #[test]
    fn reads_json_in_fences_and_prose() {
        let reply = "Reason: the alarm tab is there.\n```json\n{\"action_type\": \"click\", \"index\": 7}\n```\nThat should do it.";
        assert_eq!(act(reply), session::Action::Tap(Target::Element(7)));
        assert_eq!(
            act("{\"action\": \"tap\", \"element\": \"#3\"}"),
            session::Action::Tap(Target::Element(3))
        );
    }

    #[test]
    fn every_target_form() {
        assert_eq!(
            act(r#"{"action_type":"click","x":540,"y":1200}"#),
            session::Action::Tap(Target::Point(Point::new(540, 1200)))
        );
        assert!(matches!(
            act(r#"{"action_type":"click","selector":"id:fab"}"#),
            session::Action::Tap(Target::Selector(_))
        ));
        assert!(matches!(
            act(r#"{"action_type":"click","selector":"id:seekbar","fx":0.9}"#),
            session::Action::Tap(Target::Within { fx, fy, .. }) if fx == 0.9 && fy == 0.5
        ));
    }

    #[test]
    fn ends_and_answers() {
        assert_eq!(
            parse(r#"{"action_type":"status","goal_status":"complete"}"#).unwrap(),
            AgentAction::Done
        );
        assert_eq!(
            parse(r#"{"action_type":"status","goal_status":"infeasible"}"#).unwrap(),
            AgentAction::Infeasible
        );
        assert_eq!(
            parse(r#"{"action_type":"answer","text":3}"#).unwrap(),
            AgentAction::Answer("3".into())
        );
    }

    #[test]
    fn bad_replies_say_what_is_wrong() {
        assert_eq!(parse("  "), Err(ActionError::Empty));
        assert_eq!(parse("I will tap the button"), Err(ActionError::NoJson));
        assert!(matches!(
            parse("{\"action_type\": }"),
            Err(ActionError::BadJson(_))
        ));
        assert_eq!(parse("{\"index\": 3}"), Err(ActionError::NoType));
        assert_eq!(
            parse("{\"action_type\": \"fly\"}"),
            Err(ActionError::UnknownType("fly".into()))
        );
        let e = parse("{\"action_type\": \"click\"}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("needs a target"), "{e}");
        let e = parse("{\"action_type\": \"click\", \"x\": 5}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("both `x` and `y`"), "{e}");
        let e = parse("{\"action_type\": \"scroll\", \"direction\": \"sideways\"}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("sideways"), "{e}");
        let e = parse("{\"action_type\": \"click\", \"index\": -2}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not an element id"), "{e}");
    }
}

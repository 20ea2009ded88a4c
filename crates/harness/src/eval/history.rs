//! The agent's steps as evaluators see them, and checks over that history: "the tap at step −k fell
//! inside element E's bounds" (A3) and the longest common subsequence against a reference solution
//! (AndroidArena), which also feeds the trajectory metrics in [`super::metrics`].
//!
//! A step is compared by what the finger did, never by how the agent aimed it: a tap by
//! coordinates, by element id or by text that lands on the same spot is the same step.

use std::sync::Arc;

use droidmcp_geom::Point;
use droidmcp_hierarchy::{Hierarchy, Selector};

use super::text;
use super::ui::point_in_selected;

/// One recorded step, reduced to what history checks, trajectory metrics and constraints compare.
#[derive(Debug, Clone, Default)]
pub struct ActionRecord {
    /// The action as the agent asked for it (`tap #12`, `open Contacts`), for people.
    pub action: String,
    /// `tap`, `long_press`, `double_tap`, `type`, `swipe`, `key`, `open_app`, `wait`; the tool's
    /// name when the step failed before any gesture.
    pub kind: String,
    /// Where a touch landed (a swipe's start), in device pixels.
    pub point: Option<Point>,
    /// Typed text, the finger's direction of a swipe, key name, or app package.
    pub text: Option<String>,
    /// The screen the step was aimed at, as the agent saw it.
    pub screen_before: Option<Arc<Hierarchy>>,
    /// Other names of what `text` names (an app's label beside its package).
    pub aliases: Vec<String>,
    /// The step failed (it still counts as a step, but never as doing a reference action).
    pub failed: bool,
    /// The centre of the field text was typed into.
    pub field: Option<Point>,
    /// The app in front after the step.
    pub foreground: Option<String>,
    /// The focused activity after the step, when the episode read it (page constraints).
    pub activity: Option<String>,
    /// The settled screen after the step.
    pub screen_after: Option<Arc<Hierarchy>>,
}

/// A reference action: a kind plus what it targets (by selector for touches, text otherwise).
#[derive(Debug, Clone, PartialEq)]
pub struct RefAction {
    pub kind: String,
    pub selector: Option<Selector>,
    pub text: Option<String>,
}

/// Whether an agent step does what a reference action does (AndroidArena's `is_same_action`, with
/// selectors in place of xpaths): same kind; a touch on the element the reference selects on the
/// screen the agent saw; typed text similar (ratio ≥ 0.6, as AA's difflib fallback); directions,
/// app and key names equal ignoring case.
pub fn same_action(actual: &ActionRecord, reference: &RefAction) -> bool {
    if actual.failed || normalize_kind(&actual.kind) != normalize_kind(&reference.kind) {
        return false;
    }
    if let Some(sel) = &reference.selector {
        let (Some(p), Some(screen)) = (actual.point, actual.screen_before.as_deref()) else {
            return false;
        };
        return point_in_selected(p, sel, screen);
    }
    match (&reference.text, &actual.text) {
        (Some(want), Some(got)) if normalize_kind(&reference.kind) == "type" => {
            text::ratio(want, got) >= 0.6
        }
        (Some(want), Some(got)) => {
            want.eq_ignore_ascii_case(got)
                || actual.aliases.iter().any(|a| want.eq_ignore_ascii_case(a))
        }
        (None, _) => true,
        (Some(_), None) => false,
    }
}

fn normalize_kind(kind: &str) -> &str {
    match kind {
        "type_text" | "set_text" | "input_text" => "type",
        "press_key" => "key",
        "open" | "launch" => "open_app",
        "click" => "tap",
        k => k,
    }
}

/// The tap (or long press) `from_end` steps before the end (1 = last step) landed on the element
/// `selector` picks on the screen it was aimed at.
pub fn tap_inside(
    actions: &[ActionRecord],
    from_end: usize,
    sel: &Selector,
) -> Result<String, String> {
    if from_end == 0 || from_end > actions.len() {
        return Err(format!(
            "there is no step -{from_end} ({} steps)",
            actions.len()
        ));
    }
    let a = &actions[actions.len() - from_end];
    let Some(p) = a.point else {
        return Err(format!(
            "step -{from_end} is a {} without a touch point",
            a.kind
        ));
    };
    let Some(screen) = a.screen_before.as_deref() else {
        return Err(format!("step -{from_end} has no recorded screen"));
    };
    if point_in_selected(p, sel, screen) {
        Ok(format!("{} at {p}", a.kind))
    } else {
        Err(format!("{} at {p} is not on {sel}", a.kind))
    }
}

/// Indices `(reference_i, actual_j)` of one longest common subsequence under [`same_action`], in order.
pub fn lcs(reference: &[RefAction], actual: &[ActionRecord]) -> Vec<(usize, usize)> {
    let (n, m) = (reference.len(), actual.len());
    let mut table = vec![vec![0usize; m + 1]; n + 1];
    let same: Vec<Vec<bool>> = reference
        .iter()
        .map(|r| actual.iter().map(|a| same_action(a, r)).collect())
        .collect();
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i][j] = if same[i][j] {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        if same[i][j] && table[i][j] == table[i + 1][j + 1] + 1 {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCREEN: &str = r#"<hierarchy><node text="Save" resource-id="com.google.android.deskclock:id/save" class="android.widget.Button" content-desc="" bounds="[100,100][300,200]" /><node text="Cancel" resource-id="" class="android.widget.Button" content-desc="" bounds="[400,100][600,200]" /></hierarchy>"#;

    fn tap(x: i32, y: i32) -> ActionRecord {
        ActionRecord {
            kind: "tap".into(),
            point: Some(Point::new(x, y)),
            text: None,
            screen_before: Some(Arc::new(
                droidmcp_hierarchy::parse(SCREEN.as_bytes()).unwrap(),
            )),
            aliases: vec![],
            failed: false,
            ..ActionRecord::default()
        }
    }

    #[test]
    fn tap_at_step_minus_k() {
        let sel = Selector::parse("text:Save").unwrap();
        let actions = vec![tap(150, 150), tap(500, 150)];
        assert!(tap_inside(&actions, 2, &sel).is_ok());
        assert!(tap_inside(&actions, 1, &sel).is_err());
        assert!(tap_inside(&actions, 3, &sel).is_err());
        assert!(tap_inside(&actions, 0, &sel).is_err());
    }

    #[test]
    fn lcs_skips_detours_and_failed_steps() {
        let reference = vec![
            RefAction {
                kind: "open_app".into(),
                selector: None,
                text: Some("clock".into()),
            },
            RefAction {
                kind: "tap".into(),
                selector: Some(Selector::parse("id:save").unwrap()),
                text: None,
            },
        ];
        let failed = ActionRecord {
            failed: true,
            ..tap(150, 150)
        };
        let actual = vec![
            ActionRecord {
                kind: "open_app".into(),
                point: None,
                text: Some("com.google.android.deskclock".into()),
                screen_before: None,
                aliases: vec!["Clock".into()],
                failed: false,
                ..ActionRecord::default()
            },
            tap(500, 150),
            failed,
            tap(150, 150),
        ];
        assert_eq!(lcs(&reference, &actual), vec![(0, 0), (1, 3)]);
        assert!(lcs(&reference, &[]).is_empty());
    }
}

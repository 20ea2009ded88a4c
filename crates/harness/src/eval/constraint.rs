//! Constraints over the trajectory (AndroidArena's constrained tasks): apps not to open, pages not to
//! visit, elements not to touch more than so many times, a budget of some action. They are judged
//! from the recorded steps alone — what the finger did on the screen it was aimed at, the app and
//! activity in front after each step — never from the device at check time, since a constraint is
//! about the way the agent went, not where it ended up.
//!
//! A broken constraint fails the episode whatever the checks say ([`enforce`]); its result names the
//! step that broke it (1-based index and what it did), and joins the check results so every front
//! end, the store and `report` (AndroidArena's constraint-violation ratio by level) see it.

use std::fmt;

use droidmcp_geom::Point;
use droidmcp_hierarchy::Selector;

use super::check::CheckResult;
use super::history::ActionRecord;
use super::matcher::Matcher;
use super::ui::point_in_selected;
use super::Verdict;

/// One declared constraint.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    pub id: String,
    pub rule: Rule,
}

/// What the agent must not do.
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// No step may leave this app in front (opening it, or being sent to it by another app).
    App { package: Matcher },
    /// No step may land on this page: the focused activity matches, or the screen shows the
    /// selected element (pages that share an activity).
    Page {
        activity: Option<Matcher>,
        screen: Option<Selector>,
    },
    /// At most `max` touches (taps, long presses, double taps, text typed into it) on an element the
    /// selector picks on the screen the step was aimed at.
    Element { selector: Selector, max: u32 },
    /// At most `max` steps of this kind (`key`, `swipe`, `tap`, …) whose text (key name, direction,
    /// typed text, package) matches.
    Actions {
        kind: String,
        text: Option<Matcher>,
        max: u32,
    },
}

/// AndroidArena's three levels of constraint. A capped action count restricts what the agent's
/// actions touch, so it counts as component level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    App,
    Page,
    Component,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::App, Level::Page, Level::Component];

    pub fn as_str(self) -> &'static str {
        match self {
            Level::App => "app",
            Level::Page => "page",
            Level::Component => "component",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The step that broke a constraint.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    pub constraint: String,
    pub level: Level,
    /// 1-based index of the step in the episode.
    pub step: usize,
    /// What the step did, as the agent asked for it (`tap #12`, `open_app Contacts`).
    pub did: String,
    /// What made it a violation (`Contacts (com.google.android.contacts) came to the front`).
    pub why: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} constraint {:?} broken at step {} ({}): {}",
            self.level, self.constraint, self.step, self.did, self.why
        )
    }
}

/// The step kinds an action budget may count (the kinds history checks compare).
pub const STEP_KINDS: [&str; 8] = [
    "tap",
    "double_tap",
    "long_press",
    "swipe",
    "type",
    "key",
    "open_app",
    "wait",
];

impl Constraint {
    pub fn level(&self) -> Level {
        match self.rule {
            Rule::App { .. } => Level::App,
            Rule::Page { .. } => Level::Page,
            Rule::Element { .. } | Rule::Actions { .. } => Level::Component,
        }
    }

    /// The selector a page or element rule picks elements with (its string references are read
    /// on the device before judging).
    pub fn selector(&self) -> Option<&Selector> {
        match &self.rule {
            Rule::Page {
                screen: Some(s), ..
            } => Some(s),
            Rule::Element { selector, .. } => Some(selector),
            _ => None,
        }
    }

    /// [`Constraint::selector`], to put the resolved one in its place.
    pub fn selector_mut(&mut self) -> Option<&mut Selector> {
        match &mut self.rule {
            Rule::Page {
                screen: Some(s), ..
            } => Some(s),
            Rule::Element { selector, .. } => Some(selector),
            _ => None,
        }
    }

    /// Whether judging it needs the focused activity after each step (read by the episode).
    pub fn needs_activity(&self) -> bool {
        matches!(
            self.rule,
            Rule::Page {
                activity: Some(_),
                ..
            }
        )
    }

    /// Applies `f` to every string the constraint holds (parameter substitution).
    pub fn map_strings(&mut self, f: &mut dyn FnMut(&str) -> String) {
        match &mut self.rule {
            Rule::App { package } => package.map_strings(f),
            Rule::Page { activity, screen } => {
                if let Some(m) = activity {
                    m.map_strings(f);
                }
                if let Some(s) = screen {
                    s.map_strings(f);
                }
            }
            Rule::Element { selector, .. } => selector.map_strings(f),
            Rule::Actions { text, .. } => {
                if let Some(m) = text {
                    m.map_strings(f);
                }
            }
        }
    }

    /// The first step that breaks the constraint, or how it was kept.
    pub fn judge(&self, steps: &[ActionRecord]) -> Result<String, Violation> {
        let broken = |i: usize, why: String| Violation {
            constraint: self.id.clone(),
            level: self.level(),
            step: i + 1,
            did: steps[i].action.clone(),
            why,
        };
        match &self.rule {
            Rule::App { package } => {
                for (i, s) in steps.iter().enumerate() {
                    if let Some(pkg) = &s.foreground {
                        if package.check(Some(pkg), None).is_ok() {
                            return Err(broken(i, format!("{pkg} came to the front")));
                        }
                    }
                }
                Ok(format!("no step opened it in {} steps", steps.len()))
            }
            Rule::Page { activity, screen } => {
                for (i, s) in steps.iter().enumerate() {
                    if let (Some(m), Some(act)) = (activity, &s.activity) {
                        if m.check(Some(act), None).is_ok() {
                            return Err(broken(i, format!("it opened {act}")));
                        }
                    }
                    if let (Some(sel), Some(h)) = (screen, &s.screen_after) {
                        if !super::ui::select(sel, h).is_empty() {
                            return Err(broken(i, format!("the screen after it shows {sel}")));
                        }
                    }
                }
                Ok(format!("no step visited it in {} steps", steps.len()))
            }
            Rule::Element { selector, max } => {
                let mut count = 0;
                for (i, s) in steps.iter().enumerate() {
                    if touches(s, selector) {
                        count += 1;
                        if count > *max {
                            return Err(broken(
                                i,
                                format!("touch {count} of {selector} (at most {max} allowed)"),
                            ));
                        }
                    }
                }
                Ok(format!("{count} touch(es) of at most {max}"))
            }
            Rule::Actions { kind, text, max } => {
                let mut count = 0;
                for (i, s) in steps.iter().enumerate() {
                    let text_ok = text
                        .as_ref()
                        .is_none_or(|m| m.check(s.text.as_deref(), None).is_ok());
                    if !s.failed && s.kind == *kind && text_ok {
                        count += 1;
                        if count > *max {
                            return Err(broken(
                                i,
                                format!("{kind} step {count} (at most {max} allowed)"),
                            ));
                        }
                    }
                }
                Ok(format!("{count} {kind} step(s) of at most {max}"))
            }
        }
    }

    /// The constraint's outcome as a check result (stored and shown beside the checks).
    fn result(&self, outcome: &Result<String, Violation>) -> CheckResult {
        let (passed, value, reason) = match outcome {
            Ok(kept) => (
                true,
                format!("{} constraint kept: {kept}", self.level()),
                None,
            ),
            Err(v) => (
                false,
                format!("{} constraint broken at step {}", self.level(), v.step),
                Some(format!("step {} ({}): {}", v.step, v.did, v.why)),
            ),
        };
        CheckResult {
            id: self.id.clone(),
            passed,
            inconclusive: None,
            value,
            values: Vec::new(),
            reason,
            evidence: Vec::new(),
        }
    }
}

/// Whether a successful step touched an element the selector picks on the screen it was aimed at:
/// where a tap landed, or the field text was typed into.
fn touches(s: &ActionRecord, selector: &Selector) -> bool {
    let point: Option<Point> = match s.kind.as_str() {
        "tap" | "double_tap" | "long_press" => s.point,
        "type" => s.field,
        _ => None,
    };
    match (point, s.screen_before.as_deref()) {
        (Some(p), Some(h)) if !s.failed => point_in_selected(p, selector, h),
        _ => false,
    }
}

/// Judges every constraint on the steps, adds their results to the verdict's checks, and fails the
/// verdict (score 0, the first violation as its gate) when any was broken. A broken constraint
/// decides the outcome, so checks that could not read the device no longer make it inconclusive.
pub fn enforce(verdict: &mut Verdict, constraints: &[Constraint], steps: &[ActionRecord]) {
    for c in constraints {
        let outcome = c.judge(steps);
        verdict.checks.push(c.result(&outcome));
        if let Err(v) = outcome {
            verdict.violations.push(v);
        }
    }
    if let Some(first) = verdict.violations.first() {
        verdict.success = false;
        verdict.score = 0.0;
        verdict.inconclusive = None;
        let why = first.to_string();
        verdict.gate = Some(match verdict.gate.take() {
            Some(g) => format!("{g}; {why}"),
            None => why,
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::eval::matcher::Matcher;

    const DIALPAD: &str = r#"<hierarchy><node text="" resource-id="com.google.android.dialer:id/dialpad_floating_action_button" class="android.widget.ImageButton" content-desc="Call" clickable="true" bounds="[400,1800][680,2000]" /><node text="1" resource-id="com.google.android.dialer:id/one" class="android.widget.FrameLayout" content-desc="" clickable="true" bounds="[0,900][360,1100]" /></hierarchy>"#;

    fn step(kind: &str, action: &str) -> ActionRecord {
        ActionRecord {
            kind: kind.into(),
            action: action.into(),
            ..ActionRecord::default()
        }
    }

    fn tap(x: i32, y: i32) -> ActionRecord {
        ActionRecord {
            point: Some(Point::new(x, y)),
            screen_before: Some(Arc::new(
                droidmcp_hierarchy::parse(DIALPAD.as_bytes()).unwrap(),
            )),
            ..step("tap", &format!("tap {x},{y}"))
        }
    }

    fn constraint(rule: Rule) -> Constraint {
        Constraint {
            id: "c".into(),
            rule,
        }
    }

    #[test]
    fn app_constraint_names_the_step_that_brought_the_app_forward() {
        let c = constraint(Rule::App {
            package: Matcher::Eq("com.google.android.contacts".into()),
        });
        let mut steps = vec![step("open_app", "open Phone"), step("tap", "tap #4")];
        steps[0].foreground = Some("com.google.android.dialer".into());
        assert!(c.judge(&steps).is_ok());
        steps[1].foreground = Some("com.google.android.contacts".into());
        let v = c.judge(&steps).unwrap_err();
        assert_eq!((v.step, v.did.as_str(), v.level), (2, "tap #4", Level::App));
        assert!(v.to_string().contains("step 2 (tap #4)"), "{v}");
    }

    #[test]
    fn element_constraint_counts_touches_on_the_screen_aimed_at() {
        let c = constraint(Rule::Element {
            selector: Selector::parse("id:dialpad_floating_action_button").unwrap(),
            max: 1,
        });
        let steps = vec![tap(100, 1000), tap(500, 1900), tap(100, 1000)];
        assert_eq!(c.judge(&steps), Ok("1 touch(es) of at most 1".into()));
        let mut twice = steps.clone();
        twice.push(tap(600, 1950));
        let v = c.judge(&twice).unwrap_err();
        assert_eq!(v.step, 4);
        // A failed tap touched nothing.
        twice[3].failed = true;
        assert!(c.judge(&twice).is_ok());
    }

    #[test]
    fn page_and_action_budget_constraints() {
        let page = constraint(Rule::Page {
            activity: Some(Matcher::Contains("SearchActivity".into())),
            screen: None,
        });
        let mut steps = vec![step("tap", "tap #1"), step("key", "press back")];
        steps[0].activity = Some("com.android.settings/.SearchActivity".into());
        assert_eq!(page.judge(&steps).unwrap_err().step, 1);
        steps[1].text = Some("back".into());
        let budget = constraint(Rule::Actions {
            kind: "key".into(),
            text: Some(Matcher::Eq("back".into())),
            max: 0,
        });
        let v = budget.judge(&steps).unwrap_err();
        assert_eq!((v.step, v.level), (2, Level::Component));
        let mut verdict =
            crate::eval::score(&[], vec![], &crate::eval::Expr::All(vec![]), false, true);
        assert!(verdict.success);
        enforce(&mut verdict, &[page, budget], &steps);
        assert!(!verdict.success);
        assert_eq!(verdict.score, 0.0);
        assert_eq!(verdict.violations.len(), 2);
        assert_eq!(verdict.checks.len(), 2);
        assert!(verdict.gate.as_deref().unwrap().contains("step 1 (tap #1)"));
    }
}

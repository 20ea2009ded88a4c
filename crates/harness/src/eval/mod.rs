//! Rule-based evaluators: every check a task file can declare, each returning pass/fail, a value and
//! its evidence, and the scoring that composes them into a verdict.
//!
//! Brief overview: [`check::Check`] is one declared check (a [`check::Probe`] saying what to read and
//! how to judge it, and a [`check::When`]); [`check::Check::evaluate`] fetches what it needs through
//! [`droidmcp_device::Shell`] and hands it to pure functions in the sibling modules — [`android`]
//! (parsers for real tool output), [`matcher`], [`sqlite`] (before/after diffs on pulled databases),
//! [`ui`], [`history`], [`answer`], [`text`]. [`expr::Expr`] composes check results into success and
//! [`score`] turns them into a [`Verdict`]. [`metrics`] holds AndroidArena's trajectory metrics and
//! [`constraint`] its constraints over the trajectory.

pub mod android;
pub mod answer;
pub mod changes;
pub mod check;
pub mod constraint;
pub mod expr;
pub mod facts;
pub mod history;
pub mod matcher;
pub mod metrics;
pub mod sqlite;
pub mod text;
pub mod ui;

pub use check::{Check, CheckResult, Context, DeviceLost, Evidence, Probe, When};
pub use constraint::{Constraint, Violation};
pub use expr::Expr;
pub use matcher::Matcher;

/// How an episode scored.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub success: bool,
    /// The device is in the goal state (the success rule holds on what the checks read), whether or
    /// not the agent said it was done: what a B-MoCA success detector reports after each step.
    pub reached: bool,
    /// In [0, 1]: 1/0 by success, or the weighted share of passed checks for partial-credit tasks.
    pub score: f64,
    /// Share of sub-goal checks that passed (`None` when the task declares none).
    pub subgoal_rate: Option<f64>,
    pub checks: Vec<CheckResult>,
    /// Why the episode cannot score, when the agent never declared it finished.
    pub gate: Option<String>,
    /// Set when checks that could not read the device decide the outcome: the episode says nothing
    /// about the agent (never `success`, score 0, counted apart by reports). Names those checks.
    pub inconclusive: Option<String>,
    /// Constraints the trajectory broke (see [`constraint::enforce`]); any one fails the episode.
    pub violations: Vec<Violation>,
}

impl Verdict {
    /// `success`, `failure` or `inconclusive`.
    pub fn kind(&self) -> &'static str {
        if self.success {
            "success"
        } else if self.inconclusive.is_some() {
            "inconclusive"
        } else {
            "failure"
        }
    }
}

/// Scores check results. `finished` is false when the task requires the agent to declare it
/// finished (AndroidWorld) and it did not; such an episode scores 0 whatever the checks say.
pub fn score(
    checks: &[Check],
    results: Vec<CheckResult>,
    success: &Expr,
    partial: bool,
    finished: bool,
) -> Verdict {
    let passed = |id: &str| results.iter().any(|r| r.id == id && r.passed);
    let known = |id: &str| match results.iter().find(|r| r.id == id) {
        Some(r) if r.inconclusive.is_some() => None,
        Some(r) => Some(r.passed),
        None => Some(false),
    };
    let outcome = success.eval_known(&known);
    let expr_ok = outcome == Some(true);
    let scored: Vec<&Check> = checks.iter().filter(|c| !c.info).collect();
    let total_weight: f64 = scored.iter().map(|c| c.weight).sum();
    let partial_score = if total_weight > 0.0 {
        scored
            .iter()
            .filter(|c| passed(&c.id))
            .map(|c| c.weight)
            .sum::<f64>()
            / total_weight
    } else {
        0.0
    };
    let subgoals: Vec<&&Check> = scored.iter().filter(|c| c.subgoal).collect();
    let subgoal_rate = if subgoals.is_empty() {
        None
    } else {
        Some(subgoals.iter().filter(|c| passed(&c.id)).count() as f64 / subgoals.len() as f64)
    };
    let gate = (!finished).then(|| "the agent did not declare the task finished".to_string());
    let success_flag = expr_ok && finished;
    // Not finishing is the agent's own failure, whatever the device said.
    let inconclusive = (finished && outcome.is_none()).then(|| {
        let unread: Vec<&str> = results
            .iter()
            .filter(|r| r.inconclusive.is_some())
            .map(|r| r.id.as_str())
            .collect();
        format!(
            "could not read the device for check(s) {}",
            unread.join(", ")
        )
    });
    let score = match (finished, success_flag, partial) {
        _ if inconclusive.is_some() => 0.0,
        (false, _, _) => 0.0,
        (true, true, _) => 1.0,
        (true, false, true) => partial_score.max(0.0),
        (true, false, false) => 0.0,
    };
    Verdict {
        success: success_flag,
        reached: expr_ok,
        score,
        subgoal_rate,
        checks: results,
        gate,
        inconclusive,
        violations: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::check::Probe;

    fn check(id: &str, weight: f64, subgoal: bool, info: bool) -> Check {
        Check {
            id: id.into(),
            when: When::Final,
            weight,
            subgoal,
            info,
            probe: Probe::Lcs { min_ratio: 1.0 },
        }
    }

    fn result(id: &str, passed: bool) -> CheckResult {
        CheckResult {
            id: id.into(),
            passed,
            inconclusive: None,
            value: String::new(),
            values: vec![],
            reason: None,
            evidence: vec![],
        }
    }

    #[test]
    fn composite_partial_credit_and_subgoals() {
        let checks = [
            check("a", 1.0, true, false),
            check("b", 3.0, true, false),
            check("truth", 1.0, false, true),
        ];
        let expr = Expr::parse("all(a, b)").unwrap();
        let v = score(
            &checks,
            vec![result("a", false), result("b", true), result("truth", true)],
            &expr,
            true,
            true,
        );
        assert!(!v.success);
        assert_eq!(v.score, 0.75);
        assert_eq!(v.subgoal_rate, Some(0.5));
        let v = score(
            &checks,
            vec![result("a", false), result("b", true)],
            &expr,
            false,
            true,
        );
        assert_eq!(v.score, 0.0, "all-or-nothing task");
    }

    #[test]
    fn unread_checks_make_the_verdict_inconclusive_only_when_they_decide_it() {
        let checks = [check("a", 1.0, false, false), check("b", 1.0, false, false)];
        let unread = CheckResult {
            inconclusive: Some("`settings get` timed out".into()),
            ..result("b", false)
        };
        let all = Expr::parse("all(a, b)").unwrap();
        let v = score(
            &checks,
            vec![result("a", true), unread.clone()],
            &all,
            true,
            true,
        );
        assert_eq!(v.kind(), "inconclusive");
        assert!(!v.success);
        assert_eq!(v.score, 0.0);
        assert!(v.inconclusive.as_deref().unwrap().contains('b'));
        // A failure the unread check cannot rescue stays a failure.
        let v = score(
            &checks,
            vec![result("a", false), unread.clone()],
            &all,
            true,
            true,
        );
        assert_eq!(v.kind(), "failure");
        // A success it cannot spoil stays a success.
        let any = Expr::parse("any(a, b)").unwrap();
        let v = score(
            &checks,
            vec![result("a", true), unread.clone()],
            &any,
            true,
            true,
        );
        assert_eq!(v.kind(), "success");
        // Not declaring the task finished is the agent's failure whatever the device said.
        let v = score(&checks, vec![result("a", true), unread], &all, true, false);
        assert_eq!(v.kind(), "failure");
    }

    #[test]
    fn unfinished_episode_scores_zero() {
        let checks = [check("a", 1.0, false, false)];
        let v = score(
            &checks,
            vec![result("a", true)],
            &Expr::parse("a").unwrap(),
            false,
            false,
        );
        assert!(!v.success);
        assert_eq!(v.score, 0.0);
        assert!(v.gate.is_some());
        assert_eq!(v.subgoal_rate, None);
    }
}

//! AndroidArena's trajectory metrics against a reference (golden) solution, over the longest common
//! subsequence (LCS) of the reference's actions and the agent's steps (`history::lcs`):
//!
//! - **Task Reward (TR)**: how much of the way to the goal the agent's steps cover, weighted toward
//!   the goal: each reference action the LCS matched at distance k from the reference's last action
//!   adds γᵏ (γ = 0.9), over Σγᵏ of every reference action (AndroidArena's normalised TR).
//! - **Task Completion Ratio (TCR)**: progress, k/L, k the 1-based position in the reference of the
//!   last reference action the LCS matched, L the reference's length.
//! - **Reversed Redundancy Ratio (RRR)**: efficiency, L/L̂ with L̂ the steps taken, on successes only
//!   (AndroidArena multiplies it by the success); above 1 the agent took a shorter route.
//!
//! The LCS measures progress along one route, the reference's, while AndroidArena's own premise is
//! that several action sequences complete a task. The checks, not the LCS, say whether the goal was
//! reached, so the route figures are read against them:
//!
//! - a successful episode reached the goal, the end of every route: TR = TCR = 1, whatever route it
//!   took (a shorter one than the reference's matched only part of it and scored 0.5 before);
//! - a failed episode did not: its last step did not have the reference's last action's effect (the
//!   state the checks read), so that action counts as not done even when a step looked like it (a
//!   "Save" tapped on a wrong form), and TR and TCR stay below 1.
//!
//! `reference_matched` (|LCS|/L) keeps the raw share of the reference the steps matched, whatever
//! the outcome; and the share of repeated consecutive actions is reported beside them.

use super::history::{lcs, ActionRecord, RefAction};

/// The figures for one episode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrajectoryMetrics {
    pub task_reward: f64,
    pub completion_ratio: f64,
    pub reversed_redundancy: f64,
    pub repeat_ratio: f64,
    /// The share of the reference's actions the steps matched (|LCS| / L), outcome aside.
    pub reference_matched: f64,
}

pub const GAMMA: f64 = 0.9;

/// Computes the metrics of `actual` against `reference`; `success` is the checks' verdict (see the
/// module docs for how it bounds TR and TCR, and gates RRR as in AndroidArena).
pub fn trajectory(
    reference: &[RefAction],
    actual: &[ActionRecord],
    success: bool,
) -> TrajectoryMetrics {
    let pairs = lcs(reference, actual);
    let n = reference.len();
    let reference_matched = if n == 0 {
        1.0
    } else {
        pairs.len() as f64 / n as f64
    };
    // Reference positions counted as done: on a failure, not the last one (its effect is missing).
    let done: Vec<usize> = pairs
        .iter()
        .map(|(i, _)| *i)
        .filter(|i| success || *i + 1 < n)
        .collect();
    let (task_reward, completion_ratio) = if success {
        (1.0, 1.0)
    } else if n == 0 {
        // Nothing to match and the goal not reached: no progress to show.
        (0.0, 0.0)
    } else {
        // A fold from +0.0: `Sum for f64` starts at -0.0, and a trajectory matching nothing
        // printed as "-0.000" in reports.
        let weight = |i: usize| GAMMA.powi((n - 1 - i) as i32);
        let got: f64 = done.iter().map(|i| weight(*i)).fold(0.0, |a, b| a + b);
        let best: f64 = (0..n).map(weight).sum();
        let tcr = done.last().map_or(0.0, |i| (i + 1) as f64 / n as f64);
        (got / best, tcr)
    };
    let reversed_redundancy = match (success, actual.len()) {
        (false, _) => 0.0,
        // No step taken where none was needed: nothing redundant.
        (true, 0) => 1.0,
        (true, taken) => n as f64 / taken as f64,
    };
    TrajectoryMetrics {
        task_reward,
        completion_ratio,
        reversed_redundancy,
        repeat_ratio: repeat_ratio(actual),
        reference_matched,
    }
}

/// The share of actions identical to the one just before (same kind, point and text).
pub fn repeat_ratio(actual: &[ActionRecord]) -> f64 {
    if actual.len() < 2 {
        return 0.0;
    }
    let repeats = actual
        .windows(2)
        .filter(|w| w[0].kind == w[1].kind && w[0].point == w[1].point && w[0].text == w[1].text)
        .count();
    repeats as f64 / (actual.len() - 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> ActionRecord {
        ActionRecord {
            kind: "key".into(),
            point: None,
            text: Some(name.into()),
            screen_before: None,
            aliases: vec![],
            failed: false,
            ..ActionRecord::default()
        }
    }

    fn rkey(name: &str) -> RefAction {
        RefAction {
            kind: "key".into(),
            selector: None,
            text: Some(name.into()),
        }
    }

    fn keys(names: &[&str]) -> Vec<ActionRecord> {
        names.iter().map(|n| key(n)).collect()
    }

    fn rkeys(names: &[&str]) -> Vec<RefAction> {
        names.iter().map(|n| rkey(n)).collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn perfect_run_scores_one() {
        let r = [rkey("home"), rkey("back")];
        let m = trajectory(&r, &[key("home"), key("back")], true);
        assert_eq!(
            m,
            TrajectoryMetrics {
                task_reward: 1.0,
                completion_ratio: 1.0,
                reversed_redundancy: 1.0,
                repeat_ratio: 0.0,
                reference_matched: 1.0,
            }
        );
    }

    /// A success by a shorter route than the reference's: the first two reference actions, then
    /// another way to the goal. AndroidArena's k/L read 0.5; the goal was reached, so progress is
    /// complete, and RRR shows the shorter route.
    #[test]
    fn a_success_by_a_shorter_route_is_complete() {
        let m = trajectory(
            &rkeys(&["home", "a", "b", "c"]),
            &keys(&["home", "a", "x"]),
            true,
        );
        assert_eq!((m.task_reward, m.completion_ratio), (1.0, 1.0));
        assert!(close(m.reversed_redundancy, 4.0 / 3.0), "{m:?}");
        assert_eq!(m.reference_matched, 0.5);
    }

    /// Four steps that reached the goal where the reference takes eight (matching its third and
    /// last actions): AndroidArena's normalised TR read (γ⁵ + 1) / Σγᵏ = 0.279.
    #[test]
    fn a_four_step_success_rewards_one_and_twice_the_efficiency() {
        let reference = rkeys(&["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"]);
        let m = trajectory(&reference, &keys(&["r2", "x", "y", "r7"]), true);
        assert_eq!((m.task_reward, m.completion_ratio), (1.0, 1.0));
        assert_eq!(m.reversed_redundancy, 2.0);
        assert_eq!(m.reference_matched, 0.25);
    }

    /// A failure whose steps include the reference's last action (a "Save" tapped on a wrong
    /// form): AndroidArena's k/L read 1.0. The checks say its effect is missing, so it counts as
    /// not done.
    #[test]
    fn a_failure_never_completes() {
        let r = rkeys(&["a", "b", "c"]);
        let only_last = trajectory(&r, &keys(&["c"]), false);
        assert_eq!(
            (only_last.task_reward, only_last.completion_ratio),
            (0.0, 0.0)
        );
        assert!(close(only_last.reference_matched, 1.0 / 3.0));
        let all_steps = trajectory(&r, &keys(&["a", "b", "c"]), false);
        assert!(
            close(all_steps.completion_ratio, 2.0 / 3.0),
            "{all_steps:?}"
        );
        // γ² + γ of 1 + γ + γ²
        assert!(close(all_steps.task_reward, 1.71 / 2.71), "{all_steps:?}");
        assert_eq!(all_steps.reference_matched, 1.0);
        assert_eq!(
            all_steps.reversed_redundancy, 0.0,
            "RRR counts successes only"
        );
    }

    #[test]
    fn later_reference_actions_weigh_more() {
        let r = rkeys(&["a", "b", "c"]);
        let first = trajectory(&r, &[key("a")], false);
        let second = trajectory(&r, &[key("b")], false);
        // γ² / (1 + γ + γ²) vs γ / (1 + γ + γ²)
        assert!(close(first.task_reward, 0.81 / 2.71));
        assert!(close(second.task_reward, 0.9 / 2.71));
        assert!(close(first.completion_ratio, 1.0 / 3.0));
        assert!(close(second.completion_ratio, 2.0 / 3.0));
    }

    #[test]
    fn redundancy_and_repeats() {
        let r = [rkey("a")];
        let m = trajectory(&r, &[key("x"), key("x"), key("a"), key("a")], true);
        assert_eq!(m.reversed_redundancy, 0.25);
        assert!((m.repeat_ratio - 2.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn an_empty_reference_is_done_by_any_successful_trajectory() {
        let m = trajectory(&[], &[], true);
        assert_eq!(
            (m.task_reward, m.completion_ratio, m.reversed_redundancy),
            (1.0, 1.0, 1.0)
        );
        let detour = trajectory(&[], &[key("x")], true);
        assert_eq!((detour.task_reward, detour.completion_ratio), (1.0, 1.0));
        assert_eq!(detour.reversed_redundancy, 0.0, "every step was redundant");
        let failed = trajectory(&[], &[], false);
        assert_eq!(
            (
                failed.task_reward,
                failed.completion_ratio,
                failed.reversed_redundancy
            ),
            (0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn a_trajectory_matching_nothing_rewards_positive_zero() {
        let m = trajectory(&[rkey("a"), rkey("b")], &[key("x")], false);
        assert!(
            m.task_reward == 0.0 && m.task_reward.is_sign_positive(),
            "{m:?}"
        );
        assert_eq!(format!("{:.3}", m.task_reward), "0.000");
    }
}

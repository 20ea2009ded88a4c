//! AndroidArena's trajectory metrics against a reference solution: Task Reward (TR, γ = 0.9 over the
//! LCS, later reference actions weigh more), Task Completion Ratio (TCR), Reversed Redundancy Ratio
//! (RRR, on successes only), and the share of repeated consecutive actions.

use super::history::{lcs, ActionRecord, RefAction};

/// The four figures for one episode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrajectoryMetrics {
    pub task_reward: f64,
    pub completion_ratio: f64,
    pub reversed_redundancy: f64,
    pub repeat_ratio: f64,
}

pub const GAMMA: f64 = 0.9;

/// Computes the metrics of `actual` against `reference`; `success` gates RRR as in AndroidArena.
pub fn trajectory(
    reference: &[RefAction],
    actual: &[ActionRecord],
    success: bool,
) -> TrajectoryMetrics {
    let pairs = lcs(reference, actual);
    let n = reference.len();
    // TR: each matched reference action at offset k from the end of the reference adds γ^k,
    // normalised by the reward of matching every reference action.
    // A reference with no fixed step (a question answered from what the phone shows at the
    // start) is matched whole by any trajectory: nothing in it was left undone.
    let task_reward = if n == 0 {
        1.0
    } else {
        // A fold from +0.0: `Sum for f64` starts at -0.0, and a trajectory matching nothing
        // printed as "-0.000" in reports.
        let got: f64 = pairs
            .iter()
            .map(|(i, _)| GAMMA.powi((n - 1 - i) as i32))
            .fold(0.0, |a, b| a + b);
        // Summed in the order `got` is, so matching every action gives exactly 1.
        let best: f64 = (0..n).map(|i| GAMMA.powi((n - 1 - i) as i32)).sum();
        got / best
    };
    let completion_ratio = match pairs.last() {
        _ if n == 0 => 1.0,
        Some((i, _)) => (*i + 1) as f64 / n as f64,
        None => 0.0,
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
                repeat_ratio: 0.0
            }
        );
    }

    #[test]
    fn later_reference_actions_weigh_more() {
        let r = [rkey("a"), rkey("b"), rkey("c")];
        let first_only = trajectory(&r, &[key("a")], false);
        let last_only = trajectory(&r, &[key("c")], false);
        // γ^2 / (1 + γ + γ²) vs 1 / (1 + γ + γ²)
        assert!((first_only.task_reward - 0.81 / 2.71).abs() < 1e-9);
        assert!((last_only.task_reward - 1.0 / 2.71).abs() < 1e-9);
        assert!((first_only.completion_ratio - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(last_only.completion_ratio, 1.0);
        assert_eq!(
            first_only.reversed_redundancy, 0.0,
            "RRR counts successes only"
        );
    }

    #[test]
    fn redundancy_and_repeats() {
        let r = [rkey("a")];
        let m = trajectory(&r, &[key("x"), key("x"), key("a"), key("a")], true);
        assert_eq!(m.reversed_redundancy, 0.25);
        assert!((m.repeat_ratio - 2.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn an_empty_reference_is_done_by_any_trajectory() {
        let m = trajectory(&[], &[], true);
        assert_eq!(
            (m.task_reward, m.completion_ratio, m.reversed_redundancy),
            (1.0, 1.0, 1.0)
        );
        let detour = trajectory(&[], &[key("x")], true);
        assert_eq!((detour.task_reward, detour.completion_ratio), (1.0, 1.0));
        assert_eq!(detour.reversed_redundancy, 0.0, "every step was redundant");
        assert_eq!(trajectory(&[], &[], false).reversed_redundancy, 0.0);
    }

    #[test]
    fn a_trajectory_matching_nothing_rewards_positive_zero() {
        let m = trajectory(&[rkey("a")], &[key("x")], false);
        assert!(
            m.task_reward == 0.0 && m.task_reward.is_sign_positive(),
            "{m:?}"
        );
        assert_eq!(format!("{:.3}", m.task_reward), "0.000");
    }
}

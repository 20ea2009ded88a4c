//! Cross-validation: two judges from different model families judge the same evidence; agreement gives
//! the verdict, disagreement goes to review (or to a tie-breaker judge). A [`Policy`] then decides how the
//! panel's verdict and a task's rule-based result combine.

use super::config::JudgeError;
use super::evidence::{Evidence, Mode};
use super::judge::{Judge, JudgeOutcome};
use super::verdict::VerdictKind;

/// The panel's conclusion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Success,
    Failure,
    /// The judges (or the rule and the judges) disagree and no tie-breaker settled it.
    NeedsReview,
    /// A judge could not give a verdict (endpoint failure, unparseable replies, spend cap).
    Undecided,
}

impl Outcome {
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Failure => "failure",
            Outcome::NeedsReview => "needs_review",
            Outcome::Undecided => "undecided",
        }
    }

    fn from_verdict(kind: VerdictKind) -> Outcome {
        match kind {
            VerdictKind::Success => Outcome::Success,
            VerdictKind::Failure => Outcome::Failure,
            VerdictKind::Undecided => Outcome::Undecided,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Outcome::Success => Some(true),
            Outcome::Failure => Some(false),
            _ => None,
        }
    }
}

/// How rule-based checks and judges combine when a task has both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The rule decides; judges are not consulted.
    RuleOnly,
    /// The rule decides when the task has one; judges run and disagreements are surfaced.
    RuleFirst,
    /// Judges decide; the rule, if any, is only compared.
    JudgesOnly,
    /// Success needs both the rule and the judges; any difference goes to review.
    BothAgree,
}

impl Policy {
    pub fn parse(s: &str) -> Option<Policy> {
        match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "rule_only" => Some(Policy::RuleOnly),
            "rule_first" => Some(Policy::RuleFirst),
            "judges_only" => Some(Policy::JudgesOnly),
            "both_agree" | "both" => Some(Policy::BothAgree),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Policy::RuleOnly => "rule_only",
            Policy::RuleFirst => "rule_first",
            Policy::JudgesOnly => "judges_only",
            Policy::BothAgree => "both_agree",
        }
    }

    /// Whether judges need to run at all under this policy.
    pub fn uses_judges(&self) -> bool {
        *self != Policy::RuleOnly
    }
}

/// What the panel concluded and every judge's outcome behind it.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelVerdict {
    pub outcome: Outcome,
    pub judges: Vec<JudgeOutcome>,
    /// Set when the first two disagreed (or one was undecided) and a tie-breaker was asked.
    pub tie_breaker: Option<JudgeOutcome>,
}

/// The final score of an episode under a policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Combined {
    pub outcome: Outcome,
    /// `rule`, `judges`, `rule+judges`.
    pub decided_by: &'static str,
    /// The rule and the judges both decided and differ.
    pub rule_judge_disagreement: bool,
}

/// Two cross-validating judges and an optional tie-breaker.
#[derive(Debug, Clone)]
pub struct Panel {
    first: Judge,
    second: Judge,
    tie_breaker: Option<Judge>,
}

impl Panel {
    /// Builds a panel; the two judges must come from different model families (the point of
    /// cross-validation is independent errors).
    pub fn new(
        first: Judge,
        second: Judge,
        tie_breaker: Option<Judge>,
    ) -> Result<Panel, JudgeError> {
        if first.config().family == second.config().family {
            return Err(JudgeError::Config {
                path: format!("judges/{}.toml", second.config().name).into(),
                message: format!(
                    "judges {} and {} are both of family {:?}; cross-validation needs two different families",
                    first.config().name,
                    second.config().name,
                    first.config().family
                ),
            });
        }
        Ok(Panel {
            first,
            second,
            tie_breaker,
        })
    }

    pub fn judges(&self) -> impl Iterator<Item = &Judge> {
        [&self.first, &self.second]
            .into_iter()
            .chain(self.tie_breaker.as_ref())
    }

    /// Runs both judges concurrently on the same evidence, then the tie-breaker if needed.
    pub async fn judge(&self, evidence: &Evidence, mode: Mode) -> PanelVerdict {
        let (a, b) = tokio::join!(
            self.first.judge(evidence, mode),
            self.second.judge(evidence, mode)
        );
        let (ka, kb) = (a.verdict.kind, b.verdict.kind);
        if ka == kb {
            return PanelVerdict {
                outcome: Outcome::from_verdict(ka),
                judges: vec![a, b],
                tie_breaker: None,
            };
        }
        let Some(tie) = &self.tie_breaker else {
            let outcome = if ka == VerdictKind::Undecided || kb == VerdictKind::Undecided {
                Outcome::Undecided
            } else {
                Outcome::NeedsReview
            };
            return PanelVerdict {
                outcome,
                judges: vec![a, b],
                tie_breaker: None,
            };
        };
        let t = tie.judge(evidence, mode).await;
        let kt = t.verdict.kind;
        // The tie-breaker settles only by siding with a decided judge; it never outvotes two on its own.
        let outcome = if kt != VerdictKind::Undecided && (kt == ka || kt == kb) {
            Outcome::from_verdict(kt)
        } else if ka == VerdictKind::Undecided || kb == VerdictKind::Undecided {
            Outcome::Undecided
        } else {
            Outcome::NeedsReview
        };
        PanelVerdict {
            outcome,
            judges: vec![a, b],
            tie_breaker: Some(t),
        }
    }
}

/// Combines a rule-based result (`None` when the task has no rule) with the panel's verdict.
pub fn combine(policy: Policy, rule: Option<bool>, panel: Option<&PanelVerdict>) -> Combined {
    let judged = panel.map(|p| p.outcome);
    let disagreement =
        matches!((rule, judged.and_then(|o| o.as_bool())), (Some(r), Some(j)) if r != j);
    let from_rule = |r: bool| {
        if r {
            Outcome::Success
        } else {
            Outcome::Failure
        }
    };
    let (outcome, decided_by) = match (policy, rule, judged) {
        (Policy::RuleOnly, Some(r), _) => (from_rule(r), "rule"),
        (Policy::RuleOnly, None, _) => (Outcome::Undecided, "rule"),
        (Policy::RuleFirst, Some(r), _) => (from_rule(r), "rule"),
        (Policy::RuleFirst | Policy::JudgesOnly, _, Some(j)) => (j, "judges"),
        (Policy::RuleFirst | Policy::JudgesOnly, _, None) => (Outcome::Undecided, "judges"),
        (Policy::BothAgree, Some(r), Some(j)) => match j.as_bool() {
            Some(jb) if jb == r => (from_rule(r), "rule+judges"),
            Some(_) => (Outcome::NeedsReview, "rule+judges"),
            None => (j, "rule+judges"),
        },
        (Policy::BothAgree, None, Some(j)) => (j, "judges"),
        (Policy::BothAgree, Some(r), None) => (from_rule(r), "rule"),
        (Policy::BothAgree, None, None) => (Outcome::Undecided, "rule+judges"),
    };
    Combined {
        outcome,
        decided_by,
        rule_judge_disagreement: disagreement,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn panel(outcome: Outcome) -> PanelVerdict {
        PanelVerdict {
            outcome,
            judges: vec![],
            tie_breaker: None,
        }
    }

    #[test]
    fn policies_combine_rule_and_judges() {
        let yes = panel(Outcome::Success);
        let no = panel(Outcome::Failure);
        let c = combine(Policy::RuleFirst, Some(true), Some(&no));
        assert_eq!(
            (c.outcome, c.decided_by, c.rule_judge_disagreement),
            (Outcome::Success, "rule", true)
        );
        let c = combine(Policy::JudgesOnly, Some(true), Some(&no));
        assert_eq!(
            (c.outcome, c.rule_judge_disagreement),
            (Outcome::Failure, true)
        );
        assert_eq!(
            combine(Policy::BothAgree, Some(true), Some(&no)).outcome,
            Outcome::NeedsReview
        );
        assert_eq!(
            combine(Policy::BothAgree, Some(true), Some(&yes)).outcome,
            Outcome::Success
        );
        assert_eq!(
            combine(Policy::RuleFirst, None, Some(&yes)).outcome,
            Outcome::Success
        );
        assert_eq!(
            combine(Policy::RuleOnly, None, Some(&yes)).outcome,
            Outcome::Undecided
        );
        assert_eq!(
            combine(Policy::JudgesOnly, None, Some(&panel(Outcome::Undecided))).outcome,
            Outcome::Undecided
        );
    }
}

//! Calibration: how far to trust the judges, measured on episodes whose rule-based outcome is known.
//! Per judge: accuracy, precision and recall on success, coverage (share decided); for the pair: Cohen's
//! κ, agreement rate, and the error rate among agreed verdicts (A3 reports about 3% for two agreeing
//! judges).

use serde_json::{json, Value};

use super::verdict::VerdictKind;

/// One labelled episode: the known outcome and what each judge said (in panel order).
#[derive(Debug, Clone, PartialEq)]
pub struct Labelled {
    pub episode: String,
    pub truth: bool,
    pub verdicts: Vec<VerdictKind>,
}

/// One judge's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeStats {
    pub judge: String,
    pub episodes: usize,
    pub decided: usize,
    /// Correct verdicts over all episodes (an undecided verdict counts as not correct).
    pub accuracy: f64,
    /// Correct verdicts over decided episodes.
    pub accuracy_decided: f64,
    pub precision: f64,
    pub recall: f64,
}

/// Figures for the first two judges together.
#[derive(Debug, Clone, PartialEq)]
pub struct PairStats {
    /// Episodes where both decided.
    pub both_decided: usize,
    pub agreement_rate: f64,
    pub kappa: f64,
    /// Episodes where both decided and agreed.
    pub agreed: usize,
    /// Share of agreed verdicts that contradict the known outcome.
    pub error_rate_when_agreed: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub judges: Vec<JudgeStats>,
    pub pair: Option<PairStats>,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Computes the report; `names` gives the judges in panel order.
pub fn calibrate(names: &[String], episodes: &[Labelled]) -> Report {
    let judges = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mut decided = 0;
            let mut correct = 0;
            let (mut tp, mut fp, mut fneg) = (0, 0, 0);
            for e in episodes {
                let Some(said) = e.verdicts.get(i).and_then(|v| v.as_bool()) else {
                    if e.truth {
                        fneg += 1;
                    }
                    continue;
                };
                decided += 1;
                if said == e.truth {
                    correct += 1;
                }
                match (said, e.truth) {
                    (true, true) => tp += 1,
                    (true, false) => fp += 1,
                    (false, true) => fneg += 1,
                    (false, false) => {}
                }
            }
            JudgeStats {
                judge: name.clone(),
                episodes: episodes.len(),
                decided,
                accuracy: ratio(correct, episodes.len()),
                accuracy_decided: ratio(correct, decided),
                precision: ratio(tp, tp + fp),
                recall: ratio(tp, tp + fneg),
            }
        })
        .collect();
    let pair = (names.len() >= 2).then(|| pair_stats(episodes));
    Report { judges, pair }
}

fn pair_stats(episodes: &[Labelled]) -> PairStats {
    let both: Vec<(bool, bool, bool)> = episodes
        .iter()
        .filter_map(|e| {
            let a = e.verdicts.first()?.as_bool()?;
            let b = e.verdicts.get(1)?.as_bool()?;
            Some((a, b, e.truth))
        })
        .collect();
    let n = both.len();
    let agreed: Vec<&(bool, bool, bool)> = both.iter().filter(|(a, b, _)| a == b).collect();
    let po = ratio(agreed.len(), n);
    let a_yes = ratio(both.iter().filter(|(a, _, _)| *a).count(), n);
    let b_yes = ratio(both.iter().filter(|(_, b, _)| *b).count(), n);
    let pe = a_yes * b_yes + (1.0 - a_yes) * (1.0 - b_yes);
    // κ is undefined when chance agreement is total (both always say the same thing); report 1 if they agree.
    let kappa = if n == 0 {
        0.0
    } else if (1.0 - pe).abs() < 1e-12 {
        if po >= 1.0 {
            1.0
        } else {
            0.0
        }
    } else {
        (po - pe) / (1.0 - pe)
    };
    let wrong_agreed = agreed.iter().filter(|(a, _, t)| a != t).count();
    PairStats {
        both_decided: n,
        agreement_rate: po,
        kappa,
        agreed: agreed.len(),
        error_rate_when_agreed: ratio(wrong_agreed, agreed.len()),
    }
}

impl Report {
    /// A fixed-width table for the terminal.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{:<24} {:>8} {:>8} {:>9} {:>9} {:>10} {:>7}\n",
            "judge", "episodes", "decided", "accuracy", "acc(dec)", "precision", "recall"
        );
        for j in &self.judges {
            s.push_str(&format!(
                "{:<24} {:>8} {:>8} {:>9.3} {:>9.3} {:>10.3} {:>7.3}\n",
                j.judge,
                j.episodes,
                j.decided,
                j.accuracy,
                j.accuracy_decided,
                j.precision,
                j.recall
            ));
        }
        if let Some(p) = &self.pair {
            s.push_str(&format!(
                "pair: both decided {}, agreement {:.3}, Cohen's kappa {:.3}, agreed {}, error rate when agreed {:.3}\n",
                p.both_decided, p.agreement_rate, p.kappa, p.agreed, p.error_rate_when_agreed
            ));
        }
        s
    }

    pub fn to_json(&self) -> Value {
        json!({
            "judges": self.judges.iter().map(|j| json!({
                "judge": j.judge, "episodes": j.episodes, "decided": j.decided, "accuracy": j.accuracy,
                "accuracy_decided": j.accuracy_decided, "precision": j.precision, "recall": j.recall,
            })).collect::<Vec<_>>(),
            "pair": self.pair.as_ref().map(|p| json!({
                "both_decided": p.both_decided, "agreement_rate": p.agreement_rate, "kappa": p.kappa,
                "agreed": p.agreed, "error_rate_when_agreed": p.error_rate_when_agreed,
            })),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use VerdictKind::*;

    fn ep(truth: bool, a: VerdictKind, b: VerdictKind) -> Labelled {
        Labelled {
            episode: String::new(),
            truth,
            verdicts: vec![a, b],
        }
    }

    #[test]
    fn figures_match_a_hand_computed_example() {
        // 10 episodes: A is right 8 times, B 5 times (one undecided).
        let eps = vec![
            ep(true, Success, Success),
            ep(true, Success, Success),
            ep(true, Success, Failure),
            ep(true, Failure, Failure),
            ep(true, Success, Undecided),
            ep(false, Failure, Failure),
            ep(false, Failure, Failure),
            ep(false, Success, Success),
            ep(false, Failure, Success),
            ep(false, Failure, Failure),
        ];
        let r = calibrate(&["a".into(), "b".into()], &eps);
        let a = &r.judges[0];
        assert_eq!((a.decided, a.accuracy), (10, 0.8));
        assert!((a.precision - 0.8).abs() < 1e-9 && (a.recall - 0.8).abs() < 1e-9);
        let b = &r.judges[1];
        assert_eq!(b.decided, 9);
        assert!((b.accuracy - 0.5).abs() < 1e-9);
        assert!((b.recall - 0.4).abs() < 1e-9, "{}", b.recall); // 2 of 5 successes found
        let p = r.pair.unwrap();
        assert_eq!((p.both_decided, p.agreed), (9, 7));
        // po = 7/9; A yes 4/9, B yes 4/9 → pe = (16+25)/81; kappa = (63/81 - 41/81)/(40/81) = 0.55
        assert!((p.kappa - 0.55).abs() < 1e-9, "{}", p.kappa);
        assert!((p.error_rate_when_agreed - 2.0 / 7.0).abs() < 1e-9); // episodes 4 and 8
    }
}

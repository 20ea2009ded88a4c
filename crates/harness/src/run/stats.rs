//! Rates with their uncertainty: Wilson score intervals for a proportion, and Newcombe's hybrid
//! score interval for the difference of two (how `report --compare` says whether a change is real).

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A proportion `k / n` with its 95% Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub k: u32,
    pub n: u32,
}

impl Rate {
    pub fn new(k: u32, n: u32) -> Rate {
        Rate { k, n }
    }

    /// `None` when there is nothing to divide by.
    pub fn value(&self) -> Option<f64> {
        (self.n > 0).then(|| self.k as f64 / self.n as f64)
    }

    /// The 95% Wilson score interval (`(0, 1)` for `n = 0`).
    pub fn wilson(&self) -> (f64, f64) {
        if self.n == 0 {
            return (0.0, 1.0);
        }
        let n = self.n as f64;
        let p = self.k as f64 / n;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// `83.3% [64.5, 93.3] (25/30)`, or `-` with nothing to count.
    pub fn show(&self) -> String {
        match self.value() {
            None => "-".to_string(),
            Some(p) => {
                let (lo, hi) = self.wilson();
                format!(
                    "{:.1}% [{:.1}, {:.1}] ({}/{})",
                    p * 100.0,
                    lo * 100.0,
                    hi * 100.0,
                    self.k,
                    self.n
                )
            }
        }
    }
}

/// `b − a` with Newcombe's 95% interval (method 10), from each rate's Wilson interval.
pub fn difference(a: Rate, b: Rate) -> Option<(f64, f64, f64)> {
    let (pa, pb) = (a.value()?, b.value()?);
    let (la, ua) = a.wilson();
    let (lb, ub) = b.wilson();
    let d = pb - pa;
    let lo = d - ((pb - lb).powi(2) + (ua - pa).powi(2)).sqrt();
    let hi = d + ((ub - pb).powi(2) + (pa - la).powi(2)).sqrt();
    Some((d, lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605.
        let (lo, hi) = Rate::new(81, 263).wilson();
        assert!(close(lo, 0.2553) && close(hi, 0.3662), "{lo} {hi}");
        let (lo, hi) = Rate::new(15, 148).wilson();
        assert!(close(lo, 0.0624) && close(hi, 0.1605), "{lo} {hi}");
        // Extremes stay inside [0, 1] and are not degenerate.
        let (lo, hi) = Rate::new(0, 10).wilson();
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
        let (lo, hi) = Rate::new(10, 10).wilson();
        assert!(close(lo, 0.7225) && close(hi, 1.0), "{lo} {hi}");
        assert_eq!(Rate::new(0, 0).show(), "-");
    }

    #[test]
    fn newcombe_difference_matches_published_values() {
        // Newcombe (1998), table II example (56/70 vs 48/80): difference 0.2 → 0.0524–0.3339.
        let (d, lo, hi) = difference(Rate::new(48, 80), Rate::new(56, 70)).unwrap();
        assert!(
            close(d, 0.2) && close(lo, 0.0524) && close(hi, 0.3339),
            "{d} {lo} {hi}"
        );
    }
}

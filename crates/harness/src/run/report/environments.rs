//! Success broken down by environment and by each factor an environment varies, as B-MoCA's
//! analysis of generalization does: over the stored episodes that ran in a named environment, the
//! rule-based success rate per environment, per device, density, font scale, theme, wallpaper,
//! home layout and locale.

use std::collections::BTreeMap;

use crate::store::{Store, StoreError};
use droidmcp_env::Environment;

/// Episodes sharing one value of one factor.
#[derive(Debug, Clone, PartialEq)]
pub struct FactorFigures {
    /// `env`, `split`, `device`, `density`, `font_scale`, `dark`, `wallpaper`, `home`, `locale`.
    pub factor: &'static str,
    pub value: String,
    pub episodes: usize,
    /// Episodes with a success or failure verdict (inconclusive and aborted ones are left out of
    /// the rate, as in the per-task report).
    pub scored: usize,
    pub successes: usize,
}

impl FactorFigures {
    pub fn success_rate(&self) -> Option<f64> {
        (self.scored > 0).then(|| self.successes as f64 / self.scored as f64)
    }
}

/// The breakdown over every episode with an environment, factor by factor; an environment name
/// that no longer resolves is counted under `env` only.
pub fn breakdown(store: &Store) -> Result<Vec<FactorFigures>, StoreError> {
    let rows: Vec<(String, Option<String>)> = store.with_connection(|c| {
        let mut stmt = c.prepare(
            "SELECT env, verdict FROM episodes WHERE env IS NOT NULL ORDER BY started_at, id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        rows.collect()
    })?;
    let mut acc: BTreeMap<(usize, &'static str, String), FactorFigures> = BTreeMap::new();
    let mut resolved: BTreeMap<String, Option<Environment>> = BTreeMap::new();
    for (env, verdict) in rows {
        let environment = resolved
            .entry(env.clone())
            .or_insert_with(|| Environment::resolve(&env).ok())
            .clone();
        let mut factors: Vec<(&'static str, String)> = vec![("env", env)];
        if let Some(e) = &environment {
            if let Some(split) = e.split {
                factors.push(("split", split.as_str().to_string()));
            }
            factors.extend(e.factors());
        }
        for (order, (factor, value)) in factors.into_iter().enumerate() {
            let f = acc
                .entry((order_of(factor, order), factor, value.clone()))
                .or_insert_with(|| FactorFigures {
                    factor,
                    value,
                    episodes: 0,
                    scored: 0,
                    successes: 0,
                });
            f.episodes += 1;
            match verdict.as_deref() {
                Some("success") => {
                    f.scored += 1;
                    f.successes += 1;
                }
                Some("failure") => f.scored += 1,
                _ => {}
            }
        }
    }
    Ok(acc.into_values().collect())
}

/// Factors print in a fixed order (env first) whatever environments contributed them.
fn order_of(factor: &str, fallback: usize) -> usize {
    const ORDER: [&str; 9] = [
        "env",
        "split",
        "device",
        "density",
        "font_scale",
        "dark",
        "wallpaper",
        "home",
        "locale",
    ];
    ORDER
        .iter()
        .position(|f| *f == factor)
        .unwrap_or(ORDER.len() + fallback)
}

/// The breakdown as a text table.
pub fn table(rows: &[FactorFigures]) -> String {
    let mut s = format!(
        "{:<11} {:<24} {:>5} {:>7} {:>8}\n",
        "factor", "value", "eps", "scored", "SR rule"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<11} {:<24} {:>5} {:>7} {:>8}\n",
            r.factor,
            r.value,
            r.episodes,
            r.scored,
            r.success_rate()
                .map_or_else(|| "-".to_string(), |x| format!("{x:.3}"))
        ));
    }
    s
}

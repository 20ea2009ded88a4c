//! Which instances a run holds: tasks picked by id, glob, tag and source, each with seeds derived
//! from the run's seed (as AndroidWorld derives its instance seeds), in each environment asked for.

use std::sync::Arc;

use crate::task::{Catalog, Task};

use super::RunError;

/// Where a task comes from, as the papers' tables group them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    BMoca,
    AndroidWorld,
    AndroidArena,
    /// Tasks droidmcp wrote itself.
    Own,
}

impl Source {
    pub const ALL: [Source; 4] = [
        Source::BMoca,
        Source::AndroidWorld,
        Source::AndroidArena,
        Source::Own,
    ];

    pub fn parse(s: &str) -> Option<Source> {
        let norm: String = s
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        match norm.as_str() {
            "bmoca" => Some(Source::BMoca),
            "androidworld" | "aw" => Some(Source::AndroidWorld),
            "androidarena" | "arena" => Some(Source::AndroidArena),
            "own" | "droidmcp" => Some(Source::Own),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Source::BMoca => "b-moca",
            Source::AndroidWorld => "androidworld",
            Source::AndroidArena => "androidarena",
            Source::Own => "own",
        }
    }

    /// The paper a task file's `source` line credits (AndroidArena's constraints over AndroidWorld
    /// tasks count as AndroidArena's: the constraint is what they add).
    pub fn of(task: &Task) -> Source {
        let s = task.source.as_deref().unwrap_or("");
        if s.starts_with("AndroidArena") {
            Source::AndroidArena
        } else if s.starts_with("AndroidWorld") {
            Source::AndroidWorld
        } else if s.starts_with("B-MoCA") {
            Source::BMoca
        } else {
            Source::Own
        }
    }
}

/// What a run selects from the catalog.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Selection {
    /// Task ids or globs (`aw.sms.*`, `*.wifi_*`); empty: every task.
    pub patterns: Vec<String>,
    /// A task must carry every one of these tags.
    pub tags: Vec<String>,
    /// A task must come from one of these; empty: any.
    pub sources: Vec<Source>,
}

impl Selection {
    /// The catalog's tasks this selection picks, in catalog order; an error names a pattern that
    /// picks nothing (a typo must not shrink a run silently).
    pub fn pick(&self, catalog: &Catalog) -> Result<Vec<Arc<Task>>, RunError> {
        for p in &self.patterns {
            if !catalog.iter().any(|t| glob(p, &t.id)) {
                return Err(RunError::Spec(format!(
                    "no task matches {p:?} (see `droidmcp tasks list`)"
                )));
            }
        }
        let picked: Vec<Arc<Task>> = catalog
            .iter()
            .filter(|t| self.patterns.is_empty() || self.patterns.iter().any(|p| glob(p, &t.id)))
            .filter(|t| self.tags.iter().all(|tag| t.tags.iter().any(|x| x == tag)))
            .filter(|t| self.sources.is_empty() || self.sources.contains(&Source::of(t)))
            .cloned()
            .collect();
        if picked.is_empty() {
            return Err(RunError::Spec(
                "the selection picks no task (check --tag and --source)".into(),
            ));
        }
        Ok(picked)
    }
}

/// `*` matches any run of characters, `?` one; everything else matches itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Iterative matcher with one backtrack point: linear in practice, never exponential.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// One instance of a run: a task, a seed, an environment.
#[derive(Debug, Clone)]
pub struct Instance {
    pub task: Arc<Task>,
    pub seed: u64,
    /// The device environment (`None`: the phone's default).
    pub env: Option<String>,
}

impl Instance {
    /// What identifies the instance in the store across attempts and re-runs: `task#seed@env`.
    pub fn key(&self) -> String {
        match &self.env {
            Some(env) => format!("{}#{}@{env}", self.task.id, self.seed),
            None => format!("{}#{}", self.task.id, self.seed),
        }
    }
}

/// The seed of a task's `index`th instance in a run seeded `run_seed`: a stable hash, so the same run
/// seed gives the same instances whatever else the run holds, and different tasks different seeds.
pub fn instance_seed(run_seed: u64, task: &str, index: u32) -> u64 {
    let h = crate::session::fnv1a(format!("{run_seed}:{task}:{index}").as_bytes());
    // Task parameters draw from 32-bit seeds in the rest of the suite (task_start's random seeds).
    h % (u32::MAX as u64 + 1)
}

/// Every instance: each task × `seeds` derived seeds × each environment, grouped by environment so a
/// phone switches environments as rarely as possible.
pub fn instances(
    tasks: &[Arc<Task>],
    seeds: u32,
    run_seed: u64,
    envs: &[Option<String>],
) -> Vec<Instance> {
    let mut out = Vec::new();
    for env in envs {
        for task in tasks {
            for i in 0..seeds {
                out.push(Instance {
                    task: task.clone(),
                    seed: instance_seed(run_seed, &task.id, i),
                    env: env.clone(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("aw.sms.*", "aw.sms.reply"));
        assert!(glob("*wifi*", "aw.system.wifi_off"));
        assert!(glob("bmoca.clock.tab_?larm", "bmoca.clock.tab_alarm"));
        assert!(glob("exact.id", "exact.id"));
        assert!(!glob("aw.sms.*", "aw.calendar.add"));
        assert!(!glob("a*b", "a-b-c"));
        assert!(glob("*", ""));
    }

    #[test]
    fn seeds_are_stable_and_differ_by_task_and_index() {
        let a = instance_seed(42, "t1", 0);
        assert_eq!(a, instance_seed(42, "t1", 0));
        assert_ne!(a, instance_seed(42, "t1", 1));
        assert_ne!(a, instance_seed(42, "t2", 0));
        assert_ne!(a, instance_seed(43, "t1", 0));
        assert!(a <= u32::MAX as u64);
    }

    #[test]
    fn sources_parse_loosely() {
        assert_eq!(Source::parse("B-MoCA"), Some(Source::BMoca));
        assert_eq!(Source::parse("android_world"), Some(Source::AndroidWorld));
        assert_eq!(Source::parse("AndroidArena"), Some(Source::AndroidArena));
        assert_eq!(Source::parse("own"), Some(Source::Own));
        assert_eq!(Source::parse("mobile-env"), None);
    }
}

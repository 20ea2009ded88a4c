//! Runs in the store: a run's name and its specification, and one row per attempt at each of its
//! instances, committed as the attempt ends — so a run killed half way keeps every finished
//! instance, and re-running it by name knows what is left.
//!
//! Tables: `runs` (name, specification JSON, created), `run_results` (run, instance key, task,
//! seed, environment, attempt, outcome `success|failure|errored`, whether the outcome is final, the
//! episode, the agent's ending and log, the per-episode metrics). An instance is done once it has a
//! final row; an `errored` attempt is final only when it was the last one allowed.

use rusqlite::{params, OptionalExtension};

use super::{Store, StoreError};

/// One attempt at one instance of a run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunResultRow {
    pub run: String,
    /// `task#seed@env`: what identifies the instance across attempts and re-runs.
    pub instance: String,
    pub task_id: String,
    pub seed: u64,
    pub env: Option<String>,
    pub attempt: u32,
    /// `success`, `failure` or `errored`.
    pub outcome: String,
    /// The instance needs no more attempts.
    pub is_final: bool,
    pub episode_id: Option<String>,
    /// The agent declared the task done or answered.
    pub finished: bool,
    pub success: bool,
    /// Fraction of the task's checks that passed (AndroidWorld's progress / sub-goal rate).
    pub progress: Option<f64>,
    pub steps: u32,
    pub max_steps: u32,
    /// Tokens and cost, `None` where the agent reports none (a command agent).
    pub tokens: Option<u64>,
    pub cost_usd: Option<f64>,
    pub wall_ms: u64,
    /// How the agent ended (`done`, `answered`, `out_of_steps`, `exited 1`…).
    pub ending: String,
    /// Why an errored attempt errored.
    pub error: Option<String>,
    /// Settings changed outside the task's own (JSON list of `namespace key: before → after`).
    pub side_effects: String,
    /// The agent's log (JSON): turns with tokens and cost, or a process's output.
    pub agent_log: String,
    /// Trajectory metrics and constraint violations (JSON), when the task has a reference.
    pub metrics: String,
    pub at: String,
    /// The device that played the attempt (`sim:3`, `SERVER/SERIAL`).
    pub device: Option<String>,
    /// Whether the attempt's episode began from the phone's baseline snapshot (read from the
    /// episode, not stored with the row); `None` when no episode was recorded.
    pub restored: Option<bool>,
}

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs(
  name TEXT PRIMARY KEY, spec TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS run_results(
  run TEXT NOT NULL, instance TEXT NOT NULL, task_id TEXT NOT NULL, seed INTEGER NOT NULL, env TEXT,
  attempt INTEGER NOT NULL, outcome TEXT NOT NULL, is_final INTEGER NOT NULL, episode_id TEXT,
  finished INTEGER NOT NULL, success INTEGER NOT NULL, progress REAL, steps INTEGER NOT NULL,
  max_steps INTEGER NOT NULL, tokens INTEGER NOT NULL, cost_usd REAL NOT NULL, wall_ms INTEGER NOT NULL,
  ending TEXT NOT NULL, error TEXT, side_effects TEXT NOT NULL, agent_log TEXT NOT NULL,
  metrics TEXT NOT NULL, at TEXT NOT NULL,
  PRIMARY KEY(run, instance, attempt));
CREATE TABLE IF NOT EXISTS run_devices(
  run TEXT NOT NULL, device TEXT NOT NULL, source TEXT NOT NULL, set_aside TEXT, at TEXT NOT NULL,
  PRIMARY KEY(run, device));
";

/// A device a run leased or tried to, and why it was set aside if it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunDeviceRow {
    pub device: String,
    pub source: String,
    /// Why the run stopped using it (could not be leased, lost, failed too often).
    pub set_aside: Option<String>,
}

const RESULT_COLUMNS: &str = "run, instance, task_id, seed, env, attempt, outcome, is_final, episode_id, finished, success, progress, steps, max_steps, tokens, cost_usd, wall_ms, ending, error, side_effects, agent_log, metrics, at, device, usage_known";

impl Store {
    /// The specification a run was created with, if the run exists.
    pub fn run_spec(&self, name: &str) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            c.query_row("SELECT spec FROM runs WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .optional()
        })
    }

    /// Records a new run (a run of that name must not exist yet).
    pub fn insert_run(&self, name: &str, spec: &str, at: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO runs(name, spec, created_at) VALUES (?1, ?2, ?3)",
                params![name, spec, at],
            )
            .map(|_| ())
        })
    }

    /// Names of every run, oldest first.
    pub fn runs(&self) -> Result<Vec<String>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare("SELECT name FROM runs ORDER BY created_at, name")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        })
    }

    pub fn insert_run_result(&self, r: &RunResultRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                &format!("INSERT INTO run_results({RESULT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)"),
                params![
                    r.run,
                    r.instance,
                    r.task_id,
                    r.seed as i64,
                    r.env,
                    r.attempt,
                    r.outcome,
                    r.is_final,
                    r.episode_id,
                    r.finished,
                    r.success,
                    r.progress,
                    r.steps,
                    r.max_steps,
                    // Unknown usage is stored as 0 with `usage_known` false (the columns predate it).
                    r.tokens.unwrap_or(0) as i64,
                    r.cost_usd.unwrap_or(0.0),
                    r.wall_ms as i64,
                    r.ending,
                    r.error,
                    r.side_effects,
                    r.agent_log,
                    r.metrics,
                    r.at,
                    r.device,
                    r.tokens.is_some() && r.cost_usd.is_some(),
                ],
            )
            .map(|_| ())
        })
    }

    /// Every attempt of a run, in the order they ended.
    pub fn run_results(&self, run: &str) -> Result<Vec<RunResultRow>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT {}, e.restored FROM run_results r LEFT JOIN episodes e ON e.id = r.episode_id
                 WHERE r.run = ?1 ORDER BY r.at, r.instance, r.attempt",
                RESULT_COLUMNS
                    .split(", ")
                    .map(|c| format!("r.{c}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))?;
            let rows = stmt.query_map([run], |r| {
                Ok(RunResultRow {
                    run: r.get(0)?,
                    instance: r.get(1)?,
                    task_id: r.get(2)?,
                    seed: r.get::<_, i64>(3)? as u64,
                    env: r.get(4)?,
                    attempt: r.get(5)?,
                    outcome: r.get(6)?,
                    is_final: r.get(7)?,
                    episode_id: r.get(8)?,
                    finished: r.get(9)?,
                    success: r.get(10)?,
                    progress: r.get(11)?,
                    steps: r.get(12)?,
                    max_steps: r.get(13)?,
                    tokens: r
                        .get::<_, bool>(24)?
                        .then(|| r.get::<_, i64>(14).map(|t| t as u64))
                        .transpose()?,
                    cost_usd: r.get::<_, bool>(24)?.then(|| r.get(15)).transpose()?,
                    wall_ms: r.get::<_, i64>(16)? as u64,
                    ending: r.get(17)?,
                    error: r.get(18)?,
                    side_effects: r.get(19)?,
                    agent_log: r.get(20)?,
                    metrics: r.get(21)?,
                    at: r.get(22)?,
                    device: r.get(23)?,
                    restored: r.get(25)?,
                })
            })?;
            rows.collect()
        })
    }

    /// Records that `run` holds `device` (from `source`), or set it aside and why; the latest call
    /// for a device wins.
    pub fn set_run_device(
        &self,
        run: &str,
        device: &str,
        source: &str,
        set_aside: Option<&str>,
        at: &str,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO run_devices(run, device, source, set_aside, at) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(run, device) DO UPDATE SET source = ?3, set_aside = ?4, at = ?5",
                params![run, device, source, set_aside, at],
            )
            .map(|_| ())
        })
    }

    /// The devices `run` leased or tried to, in the order first seen.
    pub fn run_devices(&self, run: &str) -> Result<Vec<RunDeviceRow>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT device, source, set_aside FROM run_devices WHERE run = ?1 ORDER BY rowid",
            )?;
            let rows = stmt.query_map([run], |r| {
                Ok(RunDeviceRow {
                    device: r.get(0)?,
                    source: r.get(1)?,
                    set_aside: r.get(2)?,
                })
            })?;
            rows.collect()
        })
    }
}

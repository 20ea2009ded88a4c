//! Episode storage: SQLite (rusqlite, WAL) with one row per episode, per step and per check result,
//! each committed as it happens so a crash loses nothing already done; `export_jsonl` writes them
//! out one episode per line.
//!
//! Tables: `episodes` (task, seed, parameters, goal, device, status, answer, score…), `steps`
//! (episode, index, time, action JSON, screen XML, recorded shell outputs JSON), `check_results`
//! (episode, run number, check id, pass, value, reason, evidence JSON). JSON columns are written
//! with `serde_json::json!` from plain values; no core type derives `Serialize`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::json;

use crate::eval::CheckResult;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("episode store {path}: {source}")]
    Sql {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("episode store {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// A handle to the store; clones share one connection (std mutex: no lock is held across an await,
/// every call is a short synchronous transaction).
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
    path: String,
}

/// One episode as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeRow {
    pub id: String,
    pub task_id: String,
    pub seed: u64,
    /// Parameter name → value text.
    pub params: Vec<(String, String)>,
    pub goal: String,
    pub device: String,
    pub status: String,
    pub started_at: String,
    pub ended_at: Option<String>,
    pub max_steps: u32,
    pub answer: Option<String>,
    pub finished: bool,
    pub success: Option<bool>,
    pub score: Option<f64>,
    pub subgoal_rate: Option<f64>,
    /// Commands run by setup, one per line.
    pub setup_log: String,
}

/// One step as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRow {
    pub index: u32,
    pub at: String,
    /// The action as JSON text (written by the session).
    pub action: String,
    pub screen: Option<String>,
    /// Recorded shell outputs as JSON text (`{"cmd": "output"}`).
    pub recorded: String,
}

const SCHEMA: &str = "
PRAGMA journal_mode=WAL;
PRAGMA synchronous=NORMAL;
CREATE TABLE IF NOT EXISTS episodes(
  id TEXT PRIMARY KEY, task_id TEXT NOT NULL, seed INTEGER NOT NULL, params TEXT NOT NULL, goal TEXT NOT NULL,
  device TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT, max_steps INTEGER NOT NULL,
  answer TEXT, finished INTEGER NOT NULL DEFAULT 0, success INTEGER, score REAL, subgoal_rate REAL,
  setup_log TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS steps(
  episode_id TEXT NOT NULL, idx INTEGER NOT NULL, at TEXT NOT NULL, action TEXT NOT NULL, screen TEXT,
  recorded TEXT NOT NULL DEFAULT '{}', PRIMARY KEY(episode_id, idx));
CREATE TABLE IF NOT EXISTS check_results(
  episode_id TEXT NOT NULL, run INTEGER NOT NULL, check_id TEXT NOT NULL, passed INTEGER NOT NULL,
  value TEXT NOT NULL, reason TEXT, evidence TEXT NOT NULL, at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS check_results_episode ON check_results(episode_id, run);
";

impl Store {
    /// Opens (creating) the store at `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
                path: path.display().to_string(),
                source,
            })?;
        }
        let conn = Connection::open(path).map_err(|source| StoreError::Sql {
            path: path.display().to_string(),
            source,
        })?;
        Store::init(conn, path.display().to_string())
    }

    /// A private in-memory store (tests, one-shot CLI runs).
    pub fn in_memory() -> Result<Store, StoreError> {
        let conn = Connection::open_in_memory().map_err(|source| StoreError::Sql {
            path: ":memory:".into(),
            source,
        })?;
        Store::init(conn, ":memory:".into())
    }

    fn init(conn: Connection, path: String) -> Result<Store, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .and_then(|_| conn.execute_batch(SCHEMA))
            .map_err(|source| StoreError::Sql {
                path: path.clone(),
                source,
            })?;
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
            path,
        })
    }

    /// Where the store lives by default: `DROIDMCP_STORE`, else `$XDG_DATA_HOME/droidmcp/episodes.db`,
    /// else `~/.local/share/droidmcp/episodes.db`.
    pub fn default_path() -> PathBuf {
        if let Ok(p) = std::env::var("DROIDMCP_STORE") {
            return PathBuf::from(p);
        }
        let base = std::env::var("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|_| std::env::var("HOME").map(|h| PathBuf::from(h).join(".local/share")))
            .unwrap_or_else(|_| PathBuf::from("."));
        base.join("droidmcp").join("episodes.db")
    }

    fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        let conn = self
            .conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&conn).map_err(|source| StoreError::Sql {
            path: self.path.clone(),
            source,
        })
    }

    pub fn insert_episode(&self, e: &EpisodeRow) -> Result<(), StoreError> {
        let params = json!(e
            .params
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect::<serde_json::Map<_, _>>())
        .to_string();
        self.with(|c| {
            c.execute(
                "INSERT INTO episodes(id, task_id, seed, params, goal, device, status, started_at, ended_at, max_steps, answer, finished, success, score, subgoal_rate, setup_log)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
                params![
                    e.id, e.task_id, e.seed as i64, params, e.goal, e.device, e.status, e.started_at, e.ended_at,
                    e.max_steps, e.answer, e.finished, e.success, e.score, e.subgoal_rate, e.setup_log
                ],
            )
            .map(|_| ())
        })
    }

    /// Updates the mutable fields of an episode (status, answer, outcome, end time).
    pub fn update_episode(&self, e: &EpisodeRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE episodes SET status=?2, ended_at=?3, answer=?4, finished=?5, success=?6, score=?7, subgoal_rate=?8 WHERE id=?1",
                params![e.id, e.status, e.ended_at, e.answer, e.finished, e.success, e.score, e.subgoal_rate],
            )
            .map(|_| ())
        })
    }

    pub fn insert_step(&self, episode: &str, s: &StepRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO steps(episode_id, idx, at, action, screen, recorded) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![episode, s.index, s.at, s.action, s.screen, s.recorded],
            )
            .map(|_| ())
        })
    }

    /// Stores one evaluation run's results in one transaction.
    pub fn insert_checks(
        &self,
        episode: &str,
        run: u32,
        at: &str,
        results: &[CheckResult],
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let tx = c.unchecked_transaction()?;
            for r in results {
                let evidence = json!(r
                    .evidence
                    .iter()
                    .map(|e| json!({"command": e.command, "output": e.output}))
                    .collect::<Vec<_>>())
                .to_string();
                tx.execute(
                    "INSERT INTO check_results(episode_id, run, check_id, passed, value, reason, evidence, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![episode, run, r.id, r.passed, r.value, r.reason, evidence, at],
                )?;
            }
            tx.commit()
        })
    }

    pub fn episode(&self, id: &str) -> Result<Option<EpisodeRow>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT id, task_id, seed, params, goal, device, status, started_at, ended_at, max_steps, answer, finished, success, score, subgoal_rate, setup_log FROM episodes WHERE id=?1",
                [id],
                episode_from_row,
            )
            .optional()
        })
    }

    pub fn steps(&self, id: &str) -> Result<Vec<StepRow>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare("SELECT idx, at, action, screen, recorded FROM steps WHERE episode_id=?1 ORDER BY idx")?;
            let rows = stmt.query_map([id], |r| {
                Ok(StepRow { index: r.get(0)?, at: r.get(1)?, action: r.get(2)?, screen: r.get(3)?, recorded: r.get(4)? })
            })?;
            rows.collect()
        })
    }

    /// Writes every episode as one JSON line (episode fields, its steps without screens, and the check
    /// results of its last evaluation run). Returns how many were written.
    pub fn export_jsonl(&self, out: &mut dyn std::io::Write) -> Result<usize, StoreError> {
        let ids: Vec<String> = self.with(|c| {
            let mut stmt = c.prepare("SELECT id FROM episodes ORDER BY started_at, id")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        })?;
        let io = |source| StoreError::Io {
            path: self.path.clone(),
            source,
        };
        for id in &ids {
            let Some(e) = self.episode(id)? else { continue };
            let steps = self.steps(id)?;
            let checks: Vec<serde_json::Value> = self.with(|c| {
                let mut stmt = c.prepare(
                    "SELECT check_id, passed, value, reason, evidence FROM check_results WHERE episode_id=?1 AND run=(SELECT MAX(run) FROM check_results WHERE episode_id=?1) ORDER BY rowid",
                )?;
                let rows = stmt.query_map([id], |r| {
                    let evidence: String = r.get(4)?;
                    Ok(json!({
                        "id": r.get::<_, String>(0)?,
                        "passed": r.get::<_, bool>(1)?,
                        "value": r.get::<_, String>(2)?,
                        "reason": r.get::<_, Option<String>>(3)?,
                        "evidence": serde_json::from_str::<serde_json::Value>(&evidence).unwrap_or(serde_json::Value::Null),
                    }))
                })?;
                rows.collect()
            })?;
            let line = json!({
                "id": e.id,
                "task": e.task_id,
                "seed": e.seed,
                "params": e.params.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
                "goal": e.goal,
                "device": e.device,
                "status": e.status,
                "started_at": e.started_at,
                "ended_at": e.ended_at,
                "max_steps": e.max_steps,
                "answer": e.answer,
                "finished": e.finished,
                "success": e.success,
                "score": e.score,
                "subgoal_rate": e.subgoal_rate,
                "steps": steps.iter().map(|s| json!({
                    "index": s.index,
                    "at": s.at,
                    "action": serde_json::from_str::<serde_json::Value>(&s.action).unwrap_or_else(|_| json!(s.action)),
                    "recorded": serde_json::from_str::<serde_json::Value>(&s.recorded).unwrap_or(serde_json::Value::Null),
                })).collect::<Vec<_>>(),
                "checks": checks,
            });
            writeln!(out, "{line}").map_err(io)?;
        }
        Ok(ids.len())
    }

    /// Runs `f` on the store's connection, for modules that keep their own tables beside the
    /// episodes (judge verdicts).
    pub fn with_connection<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let mut conn = self
            .conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut conn).map_err(|source| StoreError::Sql {
            path: self.path.clone(),
            source,
        })
    }
}

fn episode_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<EpisodeRow> {
    let params: String = r.get(3)?;
    let params = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&params)
        .map(|m| {
            m.into_iter()
                .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default();
    Ok(EpisodeRow {
        id: r.get(0)?,
        task_id: r.get(1)?,
        seed: r.get::<_, i64>(2)? as u64,
        params,
        goal: r.get(4)?,
        device: r.get(5)?,
        status: r.get(6)?,
        started_at: r.get(7)?,
        ended_at: r.get(8)?,
        max_steps: r.get(9)?,
        answer: r.get(10)?,
        finished: r.get(11)?,
        success: r.get(12)?,
        score: r.get(13)?,
        subgoal_rate: r.get(14)?,
        setup_log: r.get(15)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evidence;

    fn row(id: &str) -> EpisodeRow {
        EpisodeRow {
            id: id.into(),
            task_id: "clock.alarm".into(),
            seed: 3,
            params: vec![("hour".into(), "10".into())],
            goal: "Set an alarm".into(),
            device: "sim-0".into(),
            status: "running".into(),
            started_at: "2026-01-01T00:00:00Z".into(),
            ended_at: None,
            max_steps: 10,
            answer: None,
            finished: false,
            success: None,
            score: None,
            subgoal_rate: None,
            setup_log: "am force-stop x".into(),
        }
    }

    #[test]
    fn writes_are_durable_and_exported() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/episodes.db");
        let store = Store::open(&path).unwrap();
        store.insert_episode(&row("e1")).unwrap();
        store
            .insert_step(
                "e1",
                &StepRow {
                    index: 1,
                    at: "t".into(),
                    action: "{\"kind\":\"tap\"}".into(),
                    screen: Some("<hierarchy/>".into()),
                    recorded: "{}".into(),
                },
            )
            .unwrap();
        let result = CheckResult {
            id: "db".into(),
            passed: true,
            value: "1".into(),
            values: vec![],
            reason: None,
            evidence: vec![Evidence {
                command: "settings get global x".into(),
                output: "1\n".into(),
            }],
        };
        store.insert_checks("e1", 1, "t", &[result]).unwrap();
        let mut e = row("e1");
        e.status = "ended".into();
        e.score = Some(1.0);
        store.update_episode(&e).unwrap();
        // A second handle on the same file sees everything (committed, WAL).
        let other = Store::open(&path).unwrap();
        assert_eq!(other.episode("e1").unwrap().unwrap().status, "ended");
        assert_eq!(other.steps("e1").unwrap().len(), 1);
        let mut out = Vec::new();
        assert_eq!(other.export_jsonl(&mut out).unwrap(), 1);
        let line: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(line["task"], "clock.alarm");
        assert_eq!(line["steps"][0]["action"]["kind"], "tap");
        assert_eq!(line["checks"][0]["evidence"][0]["output"], "1\n");
        assert_eq!(line["params"]["hour"], "10");
        let mode: String = other
            .with(|c| c.query_row("PRAGMA journal_mode", [], |r| r.get(0)))
            .unwrap();
        assert_eq!(mode, "wal");
    }
}

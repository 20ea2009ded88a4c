//! Episode storage: SQLite (rusqlite, WAL) with one row per episode, per step and per check result,
//! each committed as it happens so a crash loses nothing already done; `export_jsonl` writes them
//! out one episode per line.
//!
//! Tables: `episodes` (task, seed, parameters, goal, device, status, answer, score, verdict…),
//! `steps` (episode, index, time, action JSON, settled screen XML after the step, recorded shell
//! outputs JSON, the screen the step was aimed at when it is not the previous step's),
//! `check_results` (episode, run number, check id, pass, inconclusive reason, value, reason, evidence
//! JSON), the frames and device facts judges are shown (`evidence.rs`) and the runs of `droidmcp run`
//! (`runs.rs`). JSON columns are written with `serde_json::json!` from plain values; no core type derives
//! `Serialize`.
//!
//! **Who owns an open episode.** Every process that opens a file store takes an exclusive lock on a
//! file of its own under `<store>.owners/` and writes its token into the episodes it starts. A process
//! that dies (killed, crashed, power cut) loses its lock with it, so [`Store::abort_orphans`] can tell
//! an episode whose process is gone from one another live process is still running, and marks only the
//! former `aborted`, steps kept. Several servers and CLI runs can share one store.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::json;

use crate::eval::CheckResult;

mod evidence;
mod runs;
pub use evidence::{FrameKind, FrameRow, PictureRow};
pub use runs::{RunDeviceRow, RunResultRow};

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
    owner: Arc<Owner>,
}

/// This process's claim on the episodes it starts: a token, and (for file stores) the locked file that
/// proves the process is alive. Dropping the last handle releases the lock and removes the file.
struct Owner {
    token: String,
    lock: Option<(PathBuf, std::fs::File)>,
}

impl Drop for Owner {
    fn drop(&mut self) {
        if let Some((path, file)) = self.lock.take() {
            drop(file);
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Where the owner lock files of the store at `path` live.
fn owners_dir(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".owners");
    path.with_file_name(name)
}

/// Whether the process that wrote `token` still holds its lock. A missing file or a lock we can take
/// means it is gone (the lock dies with its process); we then remove the stale file.
fn owner_alive(dir: &Path, token: &str) -> bool {
    if token.is_empty() || token.contains(['/', '\\']) || token.starts_with('.') {
        return false;
    }
    let path = dir.join(token);
    let Ok(file) = std::fs::OpenOptions::new().write(true).open(&path) else {
        return false;
    };
    match file.try_lock() {
        Ok(()) => {
            drop(file);
            let _ = std::fs::remove_file(&path);
            false
        }
        Err(_) => true,
    }
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
    /// `success`, `failure` or `inconclusive` from the last check, when there was one.
    pub verdict: Option<String>,
    /// The last check ran while the episode was still running.
    pub provisional: bool,
    /// Why the episode was aborted (device lost, the process running it ended).
    pub abort_reason: Option<String>,
    /// Setup began from the phone's boot snapshot; false for a phone without snapshots (a real
    /// one), whose episodes a report should read with that in mind.
    pub restored: bool,
    /// Commands run by setup, one per line.
    pub setup_log: String,
    /// The device environment the episode ran in (`105`, `random:7`), when the phone had one.
    pub env: Option<String>,
}

/// One step as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRow {
    pub index: u32,
    pub at: String,
    /// The action as JSON text (written by the session).
    pub action: String,
    pub screen: Option<String>,
    /// The screen the step was aimed at, when it is not the previous step's `screen` (the first
    /// step's always; later ones when the screen moved between steps).
    pub screen_before: Option<String>,
    /// Recorded shell outputs as JSON text (`{"cmd": "output"}`).
    pub recorded: String,
}

/// Set outside the schema's transaction (SQLite ignores a journal mode set inside one).
const PRAGMAS: &str = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;";

const SCHEMA: &str = "
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

/// Columns added after the first release, added to older stores on open.
const ADDED_COLUMNS: [(&str, &str, &str); 10] = [
    ("episodes", "owner", "TEXT"),
    ("episodes", "verdict", "TEXT"),
    ("episodes", "provisional", "INTEGER NOT NULL DEFAULT 0"),
    ("episodes", "abort_reason", "TEXT"),
    ("check_results", "inconclusive", "TEXT"),
    ("episodes", "env", "TEXT"),
    ("steps", "screen_before", "TEXT"),
    ("episodes", "restored", "INTEGER NOT NULL DEFAULT 0"),
    ("run_results", "device", "TEXT"),
    // Whether `tokens` and `cost_usd` were reported (a command agent reports neither).
    ("run_results", "usage_known", "INTEGER NOT NULL DEFAULT 1"),
];

/// Statuses of episodes some process may still act on (see `episode::Status::is_open`).
const OPEN_STATUSES: &str = "('running', 'finished', 'failed')";

const EPISODE_COLUMNS: &str = "id, task_id, seed, params, goal, device, status, started_at, ended_at, max_steps, answer, finished, success, score, subgoal_rate, setup_log, verdict, provisional, abort_reason, env, restored";

fn has_column(c: &Connection, table: &str, column: &str) -> rusqlite::Result<bool> {
    c.query_row(
        &format!("SELECT COUNT(*) > 0 FROM pragma_table_info('{table}') WHERE name = ?1"),
        [column],
        |r| r.get(0),
    )
}

fn migrate(c: &Connection) -> rusqlite::Result<()> {
    for (table, column, decl) in ADDED_COLUMNS {
        if !has_column(c, table, column)? {
            c.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {decl}"))?;
        }
    }
    Ok(())
}

/// Whether the store already has every table, index and column this version writes: then opening
/// it takes no write lock at all (a run's workers write while others open the store to read).
fn up_to_date(c: &Connection) -> rusqlite::Result<bool> {
    let present: i64 = c.query_row(
        "SELECT COUNT(*) FROM sqlite_master WHERE name IN \
         ('episodes', 'steps', 'check_results', 'check_results_episode', 'runs', 'run_results', \
          'run_devices')",
        [],
        |r| r.get(0),
    )?;
    if present < 7 {
        return Ok(false);
    }
    for table in evidence::TABLES {
        let exists: bool = c.query_row(
            "SELECT COUNT(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = ?1",
            [table],
            |r| r.get(0),
        )?;
        if !exists {
            return Ok(false);
        }
    }
    for (table, column, _) in ADDED_COLUMNS {
        if !has_column(c, table, column)? {
            return Ok(false);
        }
    }
    Ok(true)
}

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
        let io = |source| StoreError::Io {
            path: path.display().to_string(),
            source,
        };
        let token = new_token();
        let dir = owners_dir(path);
        std::fs::create_dir_all(&dir).map_err(io)?;
        let lock_path = dir.join(&token);
        let file = std::fs::File::create(&lock_path).map_err(io)?;
        file.lock().map_err(io)?;
        let owner = Owner {
            token,
            lock: Some((lock_path, file)),
        };
        Store::init(conn, path.display().to_string(), owner)
    }

    /// A private in-memory store (tests, one-shot CLI runs).
    pub fn in_memory() -> Result<Store, StoreError> {
        let conn = Connection::open_in_memory().map_err(|source| StoreError::Sql {
            path: ":memory:".into(),
            source,
        })?;
        let owner = Owner {
            token: new_token(),
            lock: None,
        };
        Store::init(conn, ":memory:".into(), owner)
    }

    fn init(mut conn: Connection, path: String, owner: Owner) -> Result<Store, StoreError> {
        // One process at a time creates and migrates the schema: two opening an older store at
        // once would otherwise both add a missing column, and the second would fail.
        let schema = |conn: &mut Connection| {
            if up_to_date(conn)? {
                return Ok(());
            }
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            tx.execute_batch(SCHEMA)?;
            tx.execute_batch(runs::SCHEMA)?;
            tx.execute_batch(evidence::SCHEMA)?;
            migrate(&tx)?;
            tx.commit()
        };
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .and_then(|_| conn.execute_batch(PRAGMAS))
            .and_then(|_| schema(&mut conn))
            .map_err(|source| StoreError::Sql {
                path: path.clone(),
                source,
            })?;
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
            path,
            owner: Arc::new(owner),
        })
    }

    /// Marks `aborted` every open episode whose process is gone (see the module docs), keeping its
    /// steps and answer; returns their ids. Episodes of live processes, this one included, are left
    /// alone. Call it once at start-up.
    pub fn abort_orphans(&self) -> Result<Vec<String>, StoreError> {
        let dir = (self.path != ":memory:").then(|| owners_dir(Path::new(&self.path)));
        let owners: Vec<Option<String>> = self.with(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT DISTINCT owner FROM episodes WHERE status IN {OPEN_STATUSES}"
            ))?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        })?;
        let mut aborted = Vec::new();
        let at = chrono::Utc::now()
            .format("%Y-%m-%dT%H:%M:%S%.3fZ")
            .to_string();
        for owner in owners {
            let token = owner.clone().unwrap_or_default();
            if token == self.owner.token {
                continue;
            }
            if let Some(dir) = &dir {
                if owner_alive(dir, &token) {
                    continue;
                }
            } else {
                continue;
            }
            let ids: Vec<String> = self.with(|c| {
                let tx = c.unchecked_transaction()?;
                let ids = {
                    let mut stmt = tx.prepare(&format!(
                        "SELECT id FROM episodes WHERE owner IS ?1 AND status IN {OPEN_STATUSES} ORDER BY started_at"
                    ))?;
                    let rows = stmt.query_map([&owner], |r| r.get(0))?;
                    rows.collect::<rusqlite::Result<Vec<String>>>()?
                };
                tx.execute(
                    &format!(
                        "UPDATE episodes SET status='aborted', ended_at=?2, abort_reason=?3 WHERE owner IS ?1 AND status IN {OPEN_STATUSES}"
                    ),
                    params![
                        owner,
                        at,
                        "the process running the episode ended before it did (server killed or restarted)"
                    ],
                )?;
                tx.commit()?;
                Ok(ids)
            })?;
            aborted.extend(ids);
        }
        Ok(aborted)
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
                "INSERT INTO episodes(id, task_id, seed, params, goal, device, status, started_at, ended_at, max_steps, answer, finished, success, score, subgoal_rate, setup_log, verdict, provisional, abort_reason, owner, env, restored)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)",
                params![
                    e.id, e.task_id, e.seed as i64, params, e.goal, e.device, e.status, e.started_at, e.ended_at,
                    e.max_steps, e.answer, e.finished, e.success, e.score, e.subgoal_rate, e.setup_log,
                    e.verdict, e.provisional, e.abort_reason, self.owner.token, e.env, e.restored
                ],
            )
            .map(|_| ())
        })
    }

    /// Updates the mutable fields of an episode (status, answer, outcome, end time).
    pub fn update_episode(&self, e: &EpisodeRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE episodes SET status=?2, ended_at=?3, answer=?4, finished=?5, success=?6, score=?7, subgoal_rate=?8, verdict=?9, provisional=?10, abort_reason=?11 WHERE id=?1",
                params![e.id, e.status, e.ended_at, e.answer, e.finished, e.success, e.score, e.subgoal_rate, e.verdict, e.provisional, e.abort_reason],
            )
            .map(|_| ())
        })
    }

    pub fn insert_step(&self, episode: &str, s: &StepRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO steps(episode_id, idx, at, action, screen, recorded, screen_before) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![episode, s.index, s.at, s.action, s.screen, s.recorded, s.screen_before],
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
                    "INSERT INTO check_results(episode_id, run, check_id, passed, value, reason, evidence, at, inconclusive) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                    params![episode, run, r.id, r.passed, r.value, r.reason, evidence, at, r.inconclusive],
                )?;
            }
            tx.commit()
        })
    }

    pub fn episode(&self, id: &str) -> Result<Option<EpisodeRow>, StoreError> {
        self.with(|c| {
            c.query_row(
                &format!("SELECT {EPISODE_COLUMNS} FROM episodes WHERE id=?1"),
                [id],
                episode_from_row,
            )
            .optional()
        })
    }

    pub fn steps(&self, id: &str) -> Result<Vec<StepRow>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare("SELECT idx, at, action, screen, recorded, screen_before FROM steps WHERE episode_id=?1 ORDER BY idx")?;
            let rows = stmt.query_map([id], |r| {
                Ok(StepRow { index: r.get(0)?, at: r.get(1)?, action: r.get(2)?, screen: r.get(3)?, recorded: r.get(4)?, screen_before: r.get(5)? })
            })?;
            rows.collect()
        })
    }

    /// Writes every episode as one JSON line (see [`Store::episode_json`]). Returns how many were
    /// written.
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
        let mut written = 0;
        for id in &ids {
            let Some(line) = self.episode_json(id)? else {
                continue;
            };
            writeln!(out, "{line}").map_err(io)?;
            written += 1;
        }
        Ok(written)
    }

    /// One episode as exported: its fields, its steps without screens, and the check results of its
    /// last evaluation run. `None` for an unknown id.
    pub fn episode_json(&self, id: &str) -> Result<Option<serde_json::Value>, StoreError> {
        let Some(e) = self.episode(id)? else {
            return Ok(None);
        };
        let steps = self.steps(id)?;
        let checks: Vec<serde_json::Value> = self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT check_id, passed, value, reason, evidence, inconclusive FROM check_results WHERE episode_id=?1 AND run=(SELECT MAX(run) FROM check_results WHERE episode_id=?1) ORDER BY rowid",
            )?;
            let rows = stmt.query_map([id], |r| {
                let evidence: String = r.get(4)?;
                Ok(json!({
                    "id": r.get::<_, String>(0)?,
                    "passed": r.get::<_, bool>(1)?,
                    "inconclusive": r.get::<_, Option<String>>(5)?,
                    "value": r.get::<_, String>(2)?,
                    "reason": r.get::<_, Option<String>>(3)?,
                    "evidence": serde_json::from_str::<serde_json::Value>(&evidence).unwrap_or(serde_json::Value::Null),
                }))
            })?;
            rows.collect()
        })?;
        Ok(Some(json!({
            "id": e.id,
            "task": e.task_id,
            "seed": e.seed,
            "params": e.params.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "goal": e.goal,
            "device": e.device,
            "env": e.env,
            "status": e.status,
            "abort_reason": e.abort_reason,
            "restored": e.restored,
            "started_at": e.started_at,
            "ended_at": e.ended_at,
            "max_steps": e.max_steps,
            "answer": e.answer,
            "finished": e.finished,
            "verdict": e.verdict,
            "provisional": e.provisional,
            "success": e.success,
            "score": e.score,
            "subgoal_rate": e.subgoal_rate,
            "setup": e.setup_log.lines().collect::<Vec<_>>(),
            "steps": steps.iter().map(step_json).collect::<Vec<_>>(),
            "checks": checks,
        })))
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
        verdict: r.get(16)?,
        provisional: r.get(17)?,
        abort_reason: r.get(18)?,
        env: r.get(19)?,
        restored: r.get(20)?,
    })
}

/// A stored step as JSON (no screen: screens are large and kept for checks and judges).
pub fn step_json(s: &StepRow) -> serde_json::Value {
    json!({
        "index": s.index,
        "at": s.at,
        "action": serde_json::from_str::<serde_json::Value>(&s.action).unwrap_or_else(|_| json!(s.action)),
        "recorded": serde_json::from_str::<serde_json::Value>(&s.recorded).unwrap_or(serde_json::Value::Null),
    })
}

/// A token naming this process's claim on its episodes (pid for people reading the store, random
/// for uniqueness across hosts and pid reuse).
fn new_token() -> String {
    format!("{}-{:016x}", std::process::id(), rand::random::<u64>())
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
            verdict: None,
            provisional: false,
            abort_reason: None,
            restored: true,
            setup_log: "am force-stop x".into(),
            env: None,
        }
    }

    #[test]
    fn processes_opening_an_older_store_at_once_all_migrate_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        let old = Store::open(&path).unwrap();
        old.with(|c| {
            c.execute_batch("ALTER TABLE episodes DROP COLUMN restored; ALTER TABLE steps DROP COLUMN screen_before")
        })
        .unwrap();
        drop(old);
        let opened: Vec<_> = (0..8)
            .map(|_| {
                let path = path.clone();
                std::thread::spawn(move || Store::open(&path).map(|_| ()))
            })
            .map(|t| t.join().unwrap())
            .collect();
        assert!(opened.iter().all(|r| r.is_ok()), "{opened:?}");
        let store = Store::open(&path).unwrap();
        let present: bool = store
            .with(|c| {
                c.query_row(
                    "SELECT COUNT(*) = 1 FROM pragma_table_info('episodes') WHERE name = 'restored'",
                    [],
                    |r| r.get(0),
                )
            })
            .unwrap();
        assert!(present);
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
                    screen_before: Some("<hierarchy rotation=\"0\"/>".into()),
                    recorded: "{}".into(),
                },
            )
            .unwrap();
        let result = CheckResult {
            id: "db".into(),
            passed: true,
            inconclusive: None,
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

    #[test]
    fn only_episodes_of_dead_processes_are_aborted() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("episodes.db");
        let first = Store::open(&path).unwrap();
        first.insert_episode(&row("open")).unwrap();
        first
            .insert_step(
                "open",
                &StepRow {
                    index: 1,
                    at: "t".into(),
                    action: "{}".into(),
                    screen: None,
                    screen_before: None,
                    recorded: "{}".into(),
                },
            )
            .unwrap();
        let mut ended = row("ended");
        ended.status = "ended".into();
        first.insert_episode(&ended).unwrap();
        // A second process while the first lives: nothing to abort, its own episodes included.
        let second = Store::open(&path).unwrap();
        assert_eq!(second.abort_orphans().unwrap(), Vec::<String>::new());
        assert_eq!(first.abort_orphans().unwrap(), Vec::<String>::new());
        assert_eq!(second.episode("open").unwrap().unwrap().status, "running");
        // The first process goes away: its open episode is aborted, with its steps, once.
        drop(first);
        assert_eq!(second.abort_orphans().unwrap(), vec!["open".to_string()]);
        let e = second.episode("open").unwrap().unwrap();
        assert_eq!(e.status, "aborted");
        assert!(e.abort_reason.unwrap().contains("process"));
        assert!(e.ended_at.is_some());
        assert_eq!(second.steps("open").unwrap().len(), 1);
        assert_eq!(second.episode("ended").unwrap().unwrap().status, "ended");
        assert!(second.abort_orphans().unwrap().is_empty());
    }

    #[test]
    fn older_stores_gain_the_new_columns() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let c = Connection::open(&path).unwrap();
            c.execute_batch(
                "CREATE TABLE episodes(id TEXT PRIMARY KEY, task_id TEXT NOT NULL, seed INTEGER NOT NULL, params TEXT NOT NULL, goal TEXT NOT NULL,
                  device TEXT NOT NULL, status TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT, max_steps INTEGER NOT NULL,
                  answer TEXT, finished INTEGER NOT NULL DEFAULT 0, success INTEGER, score REAL, subgoal_rate REAL,
                  setup_log TEXT NOT NULL DEFAULT '');
                 INSERT INTO episodes(id, task_id, seed, params, goal, device, status, started_at, max_steps)
                   VALUES ('old', 't', 1, '{}', 'g', 'sim-0', 'running', 'x', 5);",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        // Written before owners existed: no live process claims it.
        assert_eq!(store.abort_orphans().unwrap(), vec!["old".to_string()]);
        assert_eq!(store.episode("old").unwrap().unwrap().status, "aborted");
    }
}

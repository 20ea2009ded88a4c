//! Persisting verdicts: every judge's verdict with its raw replies, token usage, latency and cost, and
//! every panel's combined result, in the same SQLite database as the episodes.

use rusqlite::{params, Connection};

use super::judge::JudgeOutcome;
use super::panel::{Combined, PanelVerdict, Policy};

/// Creates the verdict tables if they are missing.
pub fn migrate(db: &Connection) -> rusqlite::Result<()> {
    db.execute_batch(
        "CREATE TABLE IF NOT EXISTS judge_verdicts (
            id INTEGER PRIMARY KEY,
            episode_id TEXT NOT NULL,
            panel_id INTEGER NOT NULL REFERENCES panel_verdicts(id),
            judge TEXT NOT NULL,
            family TEXT NOT NULL,
            mode TEXT NOT NULL,
            role TEXT NOT NULL,
            verdict TEXT NOT NULL,
            confidence REAL NOT NULL,
            reason TEXT NOT NULL,
            cited_steps TEXT NOT NULL,
            raw_replies TEXT NOT NULL,
            prompt_tokens INTEGER NOT NULL,
            completion_tokens INTEGER NOT NULL,
            latency_ms INTEGER NOT NULL,
            cost_usd REAL NOT NULL,
            calls INTEGER NOT NULL,
            error TEXT,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
        );
        CREATE INDEX IF NOT EXISTS judge_verdicts_episode ON judge_verdicts(episode_id);
        CREATE TABLE IF NOT EXISTS panel_verdicts (
            id INTEGER PRIMARY KEY,
            episode_id TEXT NOT NULL,
            mode TEXT NOT NULL,
            policy TEXT NOT NULL,
            panel_outcome TEXT NOT NULL,
            rule_result TEXT,
            outcome TEXT NOT NULL,
            decided_by TEXT NOT NULL,
            rule_judge_disagreement INTEGER NOT NULL,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
        );
        CREATE INDEX IF NOT EXISTS panel_verdicts_episode ON panel_verdicts(episode_id);
        CREATE TABLE IF NOT EXISTS human_verdicts (
            id INTEGER PRIMARY KEY,
            episode_id TEXT NOT NULL,
            panel_id INTEGER REFERENCES panel_verdicts(id),
            verdict TEXT NOT NULL CHECK (verdict IN ('success', 'failure')),
            note TEXT NOT NULL,
            reviewer TEXT NOT NULL,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
        );
        CREATE INDEX IF NOT EXISTS human_verdicts_episode ON human_verdicts(episode_id);",
    )
}

fn insert_outcome(
    db: &Connection,
    episode: &str,
    panel_id: i64,
    role: &str,
    o: &JudgeOutcome,
) -> rusqlite::Result<()> {
    let cited = serde_json::to_string(&o.verdict.cited_steps).unwrap_or_else(|_| "[]".into());
    let raw = serde_json::to_string(&o.raw_replies).unwrap_or_else(|_| "[]".into());
    db.execute(
        "INSERT INTO judge_verdicts (episode_id, panel_id, judge, family, mode, role, verdict, confidence, reason,
            cited_steps, raw_replies, prompt_tokens, completion_tokens, latency_ms, cost_usd, calls, error)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
        params![
            episode,
            panel_id,
            o.judge,
            o.family,
            o.mode.as_str(),
            role,
            o.verdict.kind.as_str(),
            o.verdict.confidence,
            o.verdict.reason,
            cited,
            raw,
            o.prompt_tokens as i64,
            o.completion_tokens as i64,
            o.latency.as_millis() as i64,
            o.cost_usd,
            o.calls,
            o.error,
        ],
    )?;
    Ok(())
}

/// Writes a panel's verdicts and the combined result in one transaction.
pub fn record(
    db: &mut Connection,
    episode: &str,
    policy: Policy,
    rule: Option<bool>,
    panel: &PanelVerdict,
    combined: &Combined,
) -> rusqlite::Result<()> {
    let tx = db.transaction()?;
    let mode = panel
        .judges
        .first()
        .map(|o| o.mode.as_str())
        .unwrap_or("final_state");
    tx.execute(
        "INSERT INTO panel_verdicts (episode_id, mode, policy, panel_outcome, rule_result, outcome, decided_by,
            rule_judge_disagreement) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            episode,
            mode,
            policy.as_str(),
            panel.outcome.as_str(),
            rule.map(|r| if r { "success" } else { "failure" }),
            combined.outcome.as_str(),
            combined.decided_by,
            combined.rule_judge_disagreement,
        ],
    )?;
    let panel_id = tx.last_insert_rowid();
    for o in &panel.judges {
        insert_outcome(&tx, episode, panel_id, "judge", o)?;
    }
    if let Some(t) = &panel.tie_breaker {
        insert_outcome(&tx, episode, panel_id, "tie_breaker", t)?;
    }
    tx.commit()
}

/// An episode waiting for a person: its latest combined verdict is `needs_review`, or rule and judges differ,
/// and nobody has recorded a verdict on it since.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewItem {
    pub episode_id: String,
    pub outcome: String,
    pub panel_outcome: String,
    pub rule_result: Option<String>,
    pub reasons: Vec<(String, String, String)>,
}

/// Episodes whose latest panel verdict needs review or where rule and judges disagree.
pub fn review_queue(db: &Connection) -> rusqlite::Result<Vec<ReviewItem>> {
    let mut stmt = db.prepare(
        "SELECT p.episode_id, p.outcome, p.panel_outcome, p.rule_result, p.id FROM panel_verdicts p
         WHERE p.id = (SELECT MAX(id) FROM panel_verdicts q WHERE q.episode_id = p.episode_id)
           AND (p.outcome = 'needs_review' OR p.panel_outcome = 'needs_review' OR p.rule_judge_disagreement = 1)
           AND NOT EXISTS (SELECT 1 FROM human_verdicts h WHERE h.episode_id = p.episode_id AND h.panel_id >= p.id)
         ORDER BY p.id",
    )?;
    let items: Vec<(i64, ReviewItem)> = stmt
        .query_map([], |r| {
            Ok((
                r.get(4)?,
                ReviewItem {
                    episode_id: r.get(0)?,
                    outcome: r.get(1)?,
                    panel_outcome: r.get(2)?,
                    rule_result: r.get(3)?,
                    reasons: Vec::new(),
                },
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut reasons = db.prepare(
        "SELECT judge, verdict, reason FROM judge_verdicts WHERE panel_id = ?1 ORDER BY id",
    )?;
    items
        .into_iter()
        .map(|(panel_id, mut item)| {
            item.reasons = reasons
                .query_map([panel_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<_>>()?;
            Ok(item)
        })
        .collect()
}

/// Why a person's verdict was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum HumanVerdictError {
    #[error("episode {0:?} has no judge verdict to review (judge it first: `droidmcp judge {0}`)")]
    NotJudged(String),
    #[error(transparent)]
    Db(#[from] rusqlite::Error),
}

/// Records a person's verdict on an episode the panel judged: it takes the episode out of the review
/// queue and becomes the known outcome [`reviewed`] hands to calibration. The review CLI and the live
/// page both come here.
pub fn record_human(
    db: &Connection,
    episode: &str,
    success: bool,
    note: &str,
    reviewer: &str,
) -> Result<(), HumanVerdictError> {
    let panel: Option<i64> = db.query_row(
        "SELECT MAX(id) FROM panel_verdicts WHERE episode_id = ?1",
        [episode],
        |r| r.get(0),
    )?;
    let panel = panel.ok_or_else(|| HumanVerdictError::NotJudged(episode.to_string()))?;
    db.execute(
        "INSERT INTO human_verdicts (episode_id, panel_id, verdict, note, reviewer) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![episode, panel, if success { "success" } else { "failure" }, note, reviewer],
    )?;
    Ok(())
}

/// A person's latest verdict on an episode: (`success` or `failure`, note, reviewer, when).
pub fn human_verdict(
    db: &Connection,
    episode: &str,
) -> rusqlite::Result<Option<(String, String, String, String)>> {
    let mut stmt = db.prepare(
        "SELECT verdict, note, reviewer, created_at FROM human_verdicts WHERE episode_id = ?1 ORDER BY id DESC LIMIT 1",
    )?;
    let mut rows = stmt.query_map([episode], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
    })?;
    rows.next().transpose()
}

/// The latest verdict of the judges themselves (`success`, `failure`, `needs_review`,
/// `undecided`) on each episode a panel judged, by episode id: what the panel said, not the
/// outcome its policy made of it with the rules (under `rule_first` that is the rule's verdict,
/// which always agrees with the rules).
pub fn panel_outcomes(
    db: &Connection,
) -> rusqlite::Result<std::collections::BTreeMap<String, String>> {
    let mut stmt =
        db.prepare("SELECT episode_id, panel_outcome FROM panel_verdicts ORDER BY id")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    // Later rows overwrite earlier ones: the latest judging of an episode counts.
    rows.collect()
}

/// Every judge verdict recorded for an episode, oldest first: (judge, family, role, verdict,
/// confidence, reason, error).
#[allow(clippy::type_complexity)]
pub fn judge_verdicts(
    db: &Connection,
    episode: &str,
) -> rusqlite::Result<Vec<(String, String, String, String, f64, String, Option<String>)>> {
    let mut stmt = db.prepare(
        "SELECT judge, family, role, verdict, confidence, reason, error FROM judge_verdicts WHERE episode_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map([episode], |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
        ))
    })?;
    rows.collect()
}

/// The episodes a person reviewed, labelled for calibration: the person's latest verdict is the known
/// outcome; the verdicts are those of `names`' judges (panel order) in the panel run the person
/// reviewed (`undecided` for a judge that did not take part).
pub fn reviewed(
    db: &Connection,
    names: &[String],
) -> rusqlite::Result<Vec<super::calibrate::Labelled>> {
    use super::verdict::VerdictKind;
    let mut stmt = db.prepare(
        "SELECT h.episode_id, h.verdict, h.panel_id FROM human_verdicts h
         WHERE h.id = (SELECT MAX(id) FROM human_verdicts g WHERE g.episode_id = h.episode_id)
         ORDER BY h.id",
    )?;
    let rows: Vec<(String, String, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut said = db.prepare(
        "SELECT verdict FROM judge_verdicts WHERE panel_id = ?1 AND judge = ?2 ORDER BY id LIMIT 1",
    )?;
    rows.into_iter()
        .map(|(episode, verdict, panel)| {
            let verdicts = names
                .iter()
                .map(|name| {
                    let v: Option<String> = said
                        .query_map(params![panel, name], |r| r.get(0))?
                        .next()
                        .transpose()?;
                    Ok(v.and_then(|v| VerdictKind::parse(&v))
                        .unwrap_or(VerdictKind::Undecided))
                })
                .collect::<rusqlite::Result<_>>()?;
            Ok(super::calibrate::Labelled {
                episode,
                truth: verdict == "success",
                verdicts,
            })
        })
        .collect()
}

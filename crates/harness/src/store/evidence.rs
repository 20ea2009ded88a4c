//! What judges are shown of an episode beyond its steps: a scaled screenshot of the phone before
//! the first step, after every step and at the end, and the device facts read when the episode was
//! checked (the settings, provider rows and database rows its rules read, or those its goal names).
//!
//! Tables: `frames` (episode, kind `start|step|end`, step number, time, size, JPEG bytes, and for the
//! end frame the screen dump it shows), `facts` (episode, order, where the fact came from, the
//! command, what it printed). A frame is written once per (episode, kind, step); facts are replaced
//! as a whole each time the episode is checked, so they always describe the latest check.

use rusqlite::params;

use super::{Store, StoreError};
use crate::eval::facts::Fact;

/// When a frame was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    /// After setup, before the agent's first step.
    Start,
    /// After step `step` settled.
    Step,
    /// When the agent finished or answered (or when the episode was checked, if it never did).
    End,
}

impl FrameKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            FrameKind::Start => "start",
            FrameKind::Step => "step",
            FrameKind::End => "end",
        }
    }

    fn parse(s: &str) -> FrameKind {
        match s {
            "start" => FrameKind::Start,
            "end" => FrameKind::End,
            _ => FrameKind::Step,
        }
    }
}

/// One stored screenshot.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameRow {
    pub kind: FrameKind,
    /// The step the frame follows (0 for the start frame; the last step's number for the end).
    pub step: u32,
    pub at: String,
    pub width: u32,
    pub height: u32,
    /// Screen pixels per frame pixel (the frame is scaled down to a bounded size).
    pub scale: f64,
    pub jpeg: Vec<u8>,
    /// The screen dump the frame shows, kept for the end frame (steps keep theirs in `steps`).
    pub screen: Option<String>,
}

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS frames(
  episode_id TEXT NOT NULL, kind TEXT NOT NULL, step INTEGER NOT NULL, at TEXT NOT NULL,
  width INTEGER NOT NULL, height INTEGER NOT NULL, scale REAL NOT NULL, jpeg BLOB NOT NULL, screen TEXT,
  PRIMARY KEY(episode_id, kind, step));
CREATE TABLE IF NOT EXISTS facts(
  episode_id TEXT NOT NULL, seq INTEGER NOT NULL, source TEXT NOT NULL, command TEXT NOT NULL,
  output TEXT NOT NULL, PRIMARY KEY(episode_id, seq));
CREATE TABLE IF NOT EXISTS pictures(
  episode_id TEXT NOT NULL, path TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
  jpeg BLOB NOT NULL, PRIMARY KEY(episode_id, path));
";

/// The tables above, for the store's up-to-date check.
pub(super) const TABLES: [&str; 3] = ["frames", "facts", "pictures"];

/// A picture file the goal names, as the episode left it, scaled like a frame.
#[derive(Debug, Clone, PartialEq)]
pub struct PictureRow {
    /// Where the file is on the phone.
    pub path: String,
    pub width: u32,
    pub height: u32,
    pub jpeg: Vec<u8>,
}

impl Store {
    /// Stores a frame; a second frame of the same kind and step replaces the first (an end frame
    /// taken again when the agent answers after finishing).
    pub fn insert_frame(&self, episode: &str, f: &FrameRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT OR REPLACE INTO frames(episode_id, kind, step, at, width, height, scale, jpeg, screen) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![episode, f.kind.as_str(), f.step, f.at, f.width, f.height, f.scale, f.jpeg, f.screen],
            )
            .map(|_| ())
        })
    }

    /// An episode's frames: start, then steps in order, then the end.
    pub fn frames(&self, episode: &str) -> Result<Vec<FrameRow>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT kind, step, at, width, height, scale, jpeg, screen FROM frames WHERE episode_id=?1 \
                 ORDER BY CASE kind WHEN 'start' THEN 0 WHEN 'step' THEN 1 ELSE 2 END, step",
            )?;
            let rows = stmt.query_map([episode], |r| {
                Ok(FrameRow {
                    kind: FrameKind::parse(&r.get::<_, String>(0)?),
                    step: r.get(1)?,
                    at: r.get(2)?,
                    width: r.get(3)?,
                    height: r.get(4)?,
                    scale: r.get(5)?,
                    jpeg: r.get(6)?,
                    screen: r.get(7)?,
                })
            })?;
            rows.collect()
        })
    }

    /// Replaces an episode's facts with `facts`, in one transaction.
    pub fn replace_facts(&self, episode: &str, facts: &[Fact]) -> Result<(), StoreError> {
        self.with(|c| {
            let tx = c.unchecked_transaction()?;
            tx.execute("DELETE FROM facts WHERE episode_id=?1", [episode])?;
            for (seq, f) in facts.iter().enumerate() {
                tx.execute(
                    "INSERT INTO facts(episode_id, seq, source, command, output) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![episode, seq as i64, f.source, f.command, f.output],
                )?;
            }
            tx.commit()
        })
    }

    /// Replaces an episode's pictures with `pictures`, in one transaction.
    pub fn replace_pictures(
        &self,
        episode: &str,
        pictures: &[PictureRow],
    ) -> Result<(), StoreError> {
        self.with(|c| {
            let tx = c.unchecked_transaction()?;
            tx.execute("DELETE FROM pictures WHERE episode_id=?1", [episode])?;
            for p in pictures {
                tx.execute(
                    "INSERT OR REPLACE INTO pictures(episode_id, path, width, height, jpeg) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![episode, p.path, p.width, p.height, p.jpeg],
                )?;
            }
            tx.commit()
        })
    }

    /// An episode's pictures, by path.
    pub fn pictures(&self, episode: &str) -> Result<Vec<PictureRow>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT path, width, height, jpeg FROM pictures WHERE episode_id=?1 ORDER BY path",
            )?;
            let rows = stmt.query_map([episode], |r| {
                Ok(PictureRow {
                    path: r.get(0)?,
                    width: r.get(1)?,
                    height: r.get(2)?,
                    jpeg: r.get(3)?,
                })
            })?;
            rows.collect()
        })
    }

    /// An episode's facts, in the order they were read.
    pub fn facts(&self, episode: &str) -> Result<Vec<Fact>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT source, command, output FROM facts WHERE episode_id=?1 ORDER BY seq",
            )?;
            let rows = stmt.query_map([episode], |r| {
                Ok(Fact {
                    source: r.get(0)?,
                    command: r.get(1)?,
                    output: r.get(2)?,
                })
            })?;
            rows.collect()
        })
    }
}

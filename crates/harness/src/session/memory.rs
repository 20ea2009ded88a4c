//! What a phone remembers for every client that acts on it: the observations handed out (by digest)
//! and the step log.
//!
//! Why per phone and not per session: an MCP client on the stateless protocol (`2026-07-28`) gets a
//! fresh session for every call, and several clients (an agent, the page, a replay) may share one
//! phone. A digest names an observation *of this phone*, so any client may act against it; the
//! step log is the phone's trajectory, whoever moved the finger.

use std::collections::VecDeque;
use std::sync::Mutex;

use super::{Screen, Step};

/// How many observations a phone keeps for digest lookups (all clients together).
pub const KEPT_OBSERVATIONS: usize = 32;
/// How many entries the step log keeps; older ones are dropped (their numbers stay taken).
pub const KEPT_STEPS: usize = 1000;

/// The phone-wide memory held by a [`super::DeviceSlot`].
#[derive(Default)]
pub struct PhoneMemory {
    /// std mutexes: held only for a push or a lookup, never across an await.
    observations: Mutex<VecDeque<Screen>>,
    steps: Mutex<StepLog>,
}

#[derive(Default)]
struct StepLog {
    /// Entries dropped from the front (so numbering goes on).
    dropped: usize,
    entries: VecDeque<Step>,
}

impl PhoneMemory {
    /// Remembers an observation handed to a client; seeing the same screen again moves it to the
    /// back, so the most recent observations are the ones kept.
    pub fn remember(&self, screen: &Screen) {
        let digest = screen.digest();
        let mut seen = lock(&self.observations);
        seen.retain(|s| s.digest() != digest);
        if seen.len() == KEPT_OBSERVATIONS {
            seen.pop_front();
        }
        seen.push_back(screen.clone());
    }

    /// The observation with this digest, if the phone still keeps it.
    pub fn observation(&self, digest: &str) -> Option<Screen> {
        lock(&self.observations)
            .iter()
            .rev()
            .find(|s| s.digest() == digest)
            .cloned()
    }

    /// Numbers `step` in the phone's log and keeps it without its screens: the log says what
    /// happened (history, the steps resource), while the screens before and after go with the
    /// returned step to whoever records it (an episode). Kept with them, a busy phone's log held
    /// ~85 MB (1,000 steps × two parsed screens) for no reader.
    pub fn push_step(&self, mut step: Step) -> Step {
        let mut log = lock(&self.steps);
        step.index = log.dropped + log.entries.len();
        if log.entries.len() == KEPT_STEPS {
            log.entries.pop_front();
            log.dropped += 1;
        }
        let (before, after) = (step.before.take(), step.after.take());
        log.entries.push_back(step.clone());
        step.before = before;
        step.after = after;
        step
    }

    /// Notes on log entry `index` the task episode that recorded it and its number there.
    pub fn mark_episode(&self, index: usize, episode: &str, number: Option<u32>) {
        let mut log = lock(&self.steps);
        let Some(i) = index.checked_sub(log.dropped) else {
            return;
        };
        if let Some(step) = log.entries.get_mut(i) {
            step.episode = Some((episode.to_string(), number));
        }
    }

    /// The kept entries of the step log, oldest first, without their screens.
    pub fn steps(&self) -> Vec<Step> {
        lock(&self.steps).entries.iter().cloned().collect()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

//! Where evidence comes from: episodes recorded in the store (goal, answer, each step's action and the
//! screen after it), with screens compressed into the same element lists agents see, plus — when the
//! device is still at hand — the live final screen and screenshot.

use crate::device::Device;
use crate::hierarchy::{self, ElementList, Options, RenderOptions};
use crate::store::{Store, StoreError};

use super::evidence::{Evidence, StepEvidence};

/// Why evidence could not be assembled.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("unknown episode {0:?} (not in the store)")]
    UnknownEpisode(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A screen dump as the compact element list (or a note saying why it cannot be shown).
pub fn compact_screen(xml: &str) -> String {
    match hierarchy::parse(xml.as_bytes()) {
        Ok(h) => {
            let list = ElementList::from_hierarchy(&h, &Options::default());
            hierarchy::render(&h, &list, &RenderOptions::default())
        }
        Err(e) => format!("(screen not readable: {e})"),
    }
}

/// The action as recorded (JSON), in one line.
fn action_text(action_json: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(action_json) {
        Ok(v) => v.to_string(),
        Err(_) => action_json.trim().to_string(),
    }
}

/// Builds the evidence of a stored episode; `kind` is the task kind when the task is known.
pub fn from_store(
    store: &Store,
    episode_id: &str,
    kind: Option<&str>,
) -> Result<Evidence, SourceError> {
    let row = store
        .episode(episode_id)?
        .ok_or_else(|| SourceError::UnknownEpisode(episode_id.to_string()))?;
    let steps: Vec<StepEvidence> = store
        .steps(episode_id)?
        .into_iter()
        .map(|s| StepEvidence {
            number: s.index as usize + 1,
            action: action_text(&s.action),
            elements: s.screen.as_deref().map(compact_screen).unwrap_or_default(),
            foreground: String::new(),
            screenshot: None,
        })
        .collect();
    let final_elements = steps
        .iter()
        .rev()
        .find(|s| !s.elements.is_empty())
        .map(|s| s.elements.clone())
        .unwrap_or_else(|| "(no screen was recorded: the agent took no step)".to_string());
    Ok(Evidence {
        goal: row.goal,
        kind: kind.unwrap_or("operation").to_string(),
        answer: row.answer,
        steps,
        final_elements,
        final_foreground: String::new(),
        final_screenshot: None,
        essential_states: Vec::new(),
    })
}

/// Replaces the final screen with what the device shows now (elements, foreground, screenshot), for
/// judging right after an episode while its device is still at hand.
pub async fn with_live_final_screen(mut evidence: Evidence, device: &Device) -> Evidence {
    if let Ok(xml) = device.dump_xml().await {
        evidence.final_elements = compact_screen(&xml);
    }
    if let Ok(Some(fg)) = device.foreground().await {
        evidence.final_foreground = match fg.activity {
            Some(activity) => format!("{}/{}", fg.package, activity),
            None => fg.package,
        };
    }
    if let Ok(png) = device.screencap_png().await {
        evidence.final_screenshot = Some(png);
    }
    evidence
}

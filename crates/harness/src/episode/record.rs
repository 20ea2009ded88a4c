//! Steps as the store, history checks and trajectory metrics see them, and the step sinks through
//! which a session hands its steps to an episode.

use serde_json::json;

use super::{Episode, EpisodeError, Episodes, Status, StepOutcome};
use crate::eval::history::ActionRecord;
use crate::session::{ElementRef, Gesture, Recorded, Screen, Step, StepSink};
use crate::store::StepRow;
/// `previous` is the step before (none for the first): the screen `step` was aimed at is kept only
/// when it is not the one `previous` settled on, so a report can tell what every touch hit.
pub(super) fn step_row(step: &Step, previous: Option<&Step>, at: &str) -> StepRow {
    let element = |e: &ElementRef| json!({"id": e.id, "role": e.role, "label": e.label});
    let record = action_record(step);
    let mut action = json!({
        "kind": record.kind,
        "action": step.action,
        "point": record.point.map(|p| json!([p.x, p.y])),
        "text": record.text,
        "aliases": record.aliases,
        "error": step.error,
        "aimed_at": step.aimed_at,
    });
    if let Some(a) = &step.activity {
        action["activity"] = json!(a);
    }
    match &step.gesture {
        Some(Gesture::Swipe {
            to, duration_ms, ..
        }) => {
            action["end"] = json!([to.x, to.y]);
            action["duration_ms"] = json!(duration_ms);
        }
        Some(Gesture::LongPress { duration_ms, .. }) => action["duration_ms"] = json!(duration_ms),
        Some(Gesture::Type {
            cleared, submitted, ..
        }) => {
            action["clear"] = json!(cleared);
            action["submit"] = json!(submitted);
        }
        _ => {}
    }
    if let Some(e) = step.gesture.as_ref().and_then(Gesture::element) {
        let key = if matches!(step.gesture, Some(Gesture::Type { .. })) {
            "field"
        } else {
            "element"
        };
        action[key] = element(e);
    }
    let recorded: serde_json::Map<String, serde_json::Value> = step
        .recorded
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    StepRow {
        index: step.index as u32 + 1,
        at: at.to_string(),
        action: action.to_string(),
        screen: step.after.as_ref().map(|s| s.xml.clone()),
        screen_before: step
            .before
            .as_ref()
            .filter(|_| {
                step.aimed_at.is_none()
                    || previous.and_then(|p| p.observation_digest.as_ref())
                        != step.aimed_at.as_ref()
            })
            .map(|s| s.xml.clone()),
        recorded: serde_json::Value::Object(recorded).to_string(),
    }
}

/// A step as history checks and trajectory metrics see it: what the finger did, on the screen it
/// was aimed at; the tool's name when the step failed before any gesture.
pub fn action_record(step: &Step) -> ActionRecord {
    let g = step.gesture.as_ref();
    let hierarchy = |s: &Option<Screen>| s.as_ref().map(|s| s.hierarchy().clone());
    ActionRecord {
        action: step.action.clone(),
        kind: g.map(Gesture::kind).unwrap_or(step.kind).to_string(),
        point: g.and_then(Gesture::point),
        text: g.and_then(Gesture::text),
        screen_before: hierarchy(&step.before),
        aliases: match g {
            Some(Gesture::OpenApp { label, .. }) => vec![label.clone()],
            _ => Vec::new(),
        },
        failed: step.error.is_some(),
        field: match g {
            Some(Gesture::Type { field: Some(f), .. }) => Some(f.center),
            _ => None,
        },
        foreground: step.foreground.clone(),
        activity: step.activity.clone(),
        screen_after: hierarchy(&step.after),
    }
}

/// An episode records the steps of the session it is attached to (golden replays attach one).
#[async_trait::async_trait]
impl StepSink for tokio::sync::Mutex<Episode> {
    async fn record(&self, _session: &str, step: &Step) -> Recorded {
        let mut ep = self.lock().await;
        let outcome = ep.record_step(step).await;
        recorded(
            &ep.id.clone(),
            outcome,
            ep.instance.task.max_steps,
            step.refused,
        )
    }
}

/// The registry records each step in the open episode on the step's device, if any.
#[async_trait::async_trait]
impl StepSink for Episodes {
    async fn record(&self, session: &str, step: &Step) -> Recorded {
        match self.open_on_device(&step.device_key).await {
            Some(ep) => ep.record(session, step).await,
            None => Recorded::default(),
        }
    }
}

/// What the agent is told about a step: its number and the steps left; a refused attempt gets no
/// number (it is no step) but still the steps left.
fn recorded(
    id: &str,
    outcome: Result<StepOutcome, EpisodeError>,
    max: u32,
    refused: bool,
) -> Recorded {
    match outcome {
        Ok(o) => Recorded {
            episode: Some(id.to_string()),
            episode_step: (!refused).then_some(o.index),
            steps_left: Some(o.steps_left),
            refused,
            stop: (o.status == Status::Failed)
                .then(|| format!("task episode {id} went past its step limit of {max}")),
        },
        Err(e) => {
            // A closed or finished episode refusing the step is the expected answer, not a fault.
            if !e.is_conflict() {
                tracing::warn!("episode step not recorded: {e}");
            }
            Recorded {
                episode: Some(id.to_string()),
                episode_step: None,
                steps_left: None,
                refused,
                stop: Some(e.to_string()),
            }
        }
    }
}

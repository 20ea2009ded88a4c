//! Where evidence comes from: episodes recorded in the store (goal, answer, each step's action and the
//! screen after it, the frames before and after every step, the end state and the device facts read
//! when the episode was checked), with screens compressed into the same element lists agents see.

use std::collections::BTreeMap;

use crate::store::{FrameKind, FrameRow, Store, StoreError};
use droidmcp_geom::Bounds;
use droidmcp_hierarchy::{self as hierarchy, ElementList, Options};

use super::evidence::{Evidence, StepEvidence};

/// Why evidence could not be assembled.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("unknown episode {0:?} (not in the store)")]
    UnknownEpisode(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A screen dump as the compact element list agents see, every element with its resource id's tail
/// (`#formula`) even when it has text: two fields showing numbers (a calculator's formula and result)
/// are told apart by it (or a note saying why the screen cannot be shown).
pub fn compact_screen(xml: &str) -> String {
    compact_screen_seen(xml, None)
}

/// [`compact_screen`] with each slider's thumb position read from the frame of that screen (a JPEG
/// and its screen pixels per frame pixel) as agents get it (`at~0%`): the dump holds no slider
/// value, and "turn brightness to the minimum" is decided by one.
pub fn compact_screen_seen(xml: &str, frame: Option<(&[u8], f64)>) -> String {
    let h = match hierarchy::parse(xml.as_bytes()) {
        Ok(h) => h,
        Err(e) => return format!("(screen not readable: {e})"),
    };
    let list = ElementList::from_hierarchy(&h, &Options::default());
    let mut out = format!(
        "# {} {}x{}\n",
        list.package.as_deref().unwrap_or("?"),
        list.screen.width(),
        list.screen.height()
    );
    for e in &list.elements {
        let line = hierarchy::format::compact_line(e, false);
        let tail = e.resource_id_tail();
        let tagged = format!(" #{tail}");
        if tail.is_empty() || line.contains(&tagged) {
            out.push_str(&line);
        } else {
            // After the id and role, where an element without strings shows its tail.
            let at = line
                .match_indices(' ')
                .nth(1)
                .map_or(line.len(), |(i, _)| i);
            out.push_str(&line[..at]);
            out.push_str(&tagged);
            out.push_str(&line[at..]);
        }
        out.push('\n');
    }
    let sliders: Vec<_> = list
        .elements
        .iter()
        .filter(|e| e.role == hierarchy::Role::Slider)
        .collect();
    let Some((jpeg, scale)) = frame.filter(|_| !sliders.is_empty()) else {
        return out;
    };
    let Ok(img) = image::load_from_memory(jpeg) else {
        return out;
    };
    let img = img.to_rgba8();
    let to_frame = |v: i32| (v as f64 / scale.max(f64::MIN_POSITIVE)).round() as i32;
    let readings: Vec<(u32, f64)> = sliders
        .iter()
        .filter_map(|e| {
            let b = e.bounds;
            let on_frame = Bounds::new(
                to_frame(b.left),
                to_frame(b.top),
                to_frame(b.right),
                to_frame(b.bottom),
            );
            hierarchy::slider::thumb_fraction(&img, on_frame).map(|f| (e.id.0, f))
        })
        .collect();
    hierarchy::slider::annotate(&out, &readings)
}

/// The app a dump shows: the package of its first node (the focused window's root).
fn package_of(xml: &str) -> String {
    let Some(at) = xml.find(" package=\"") else {
        return String::new();
    };
    let rest = &xml[at + " package=\"".len()..];
    rest[..rest.find('"').unwrap_or(0)].to_string()
}

/// The action as recorded (JSON), in one line.
fn action_text(action: &serde_json::Value, raw: &str) -> String {
    if action.is_null() {
        raw.trim().to_string()
    } else {
        action.to_string()
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
    let frames = store.frames(episode_id)?;
    let after: BTreeMap<u32, &FrameRow> = frames
        .iter()
        .filter(|f| f.kind == FrameKind::Step)
        .map(|f| (f.step, f))
        .collect();
    let start = frames.iter().find(|f| f.kind == FrameKind::Start);
    let end = frames.iter().find(|f| f.kind == FrameKind::End);
    let steps: Vec<StepEvidence> = store
        .steps(episode_id)?
        .into_iter()
        .map(|s| {
            // Stored steps are numbered from 1: that number is the one judges see and cite.
            let action: serde_json::Value =
                serde_json::from_str(&s.action).unwrap_or(serde_json::Value::Null);
            let before = if s.index <= 1 {
                start
            } else {
                after.get(&(s.index - 1)).copied()
            };
            StepEvidence {
                number: s.index as usize,
                action: action_text(&action, &s.action),
                elements: s
                    .screen
                    .as_deref()
                    .map(|xml| {
                        let frame = after.get(&s.index).map(|f| (&f.jpeg[..], f.scale));
                        compact_screen_seen(xml, frame)
                    })
                    .unwrap_or_default(),
                foreground: s.screen.as_deref().map(package_of).unwrap_or_default(),
                scale: before
                    .or(after.get(&s.index).copied())
                    .map_or(1.0, |f| f.scale),
                before: before.map(|f| f.jpeg.clone()),
                screenshot: after.get(&s.index).map(|f| f.jpeg.clone()),
                action_json: action,
            }
        })
        .collect();
    let (final_elements, final_foreground) = match end.and_then(|f| Some((f, f.screen.as_deref()?)))
    {
        Some((frame, xml)) => (
            compact_screen_seen(xml, Some((&frame.jpeg[..], frame.scale))),
            package_of(xml),
        ),
        None => steps
            .iter()
            .rev()
            .find(|s| !s.elements.is_empty())
            .map(|s| (s.elements.clone(), s.foreground.clone()))
            .unwrap_or_else(|| {
                (
                    "(no screen was recorded: the agent took no step)".to_string(),
                    String::new(),
                )
            }),
    };
    let final_screenshot = end
        .or_else(|| after.values().next_back().copied())
        .or(start)
        .map(|f| f.jpeg.clone());
    Ok(Evidence {
        goal: row.goal,
        kind: kind.unwrap_or("operation").to_string(),
        answer: row.answer,
        steps,
        final_elements,
        final_foreground,
        final_screenshot,
        facts: store.facts(episode_id)?,
        pictures: store
            .pictures(episode_id)?
            .into_iter()
            .map(|p| (p.path, p.jpeg))
            .collect(),
        essential_states: Vec::new(),
    })
}

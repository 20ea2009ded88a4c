//! Demonstrations: a person does a task by hand on the page and the episode becomes an
//! imitation-learning dataset.
//!
//! `POST /v1/demos` starts a task episode on a device (the same `Episodes::start` an agent's
//! `task_start` uses) and marks the device as being demonstrated. While it is, every
//! `POST /v1/actions` on that device also writes one dataset row before acting: the screenshot and
//! element list the person saw, then the action in our form and in B-MoCA's normalized dual-gesture
//! form. The action itself still runs through `Session::act`, so the episode records its steps as it
//! would an agent's. `POST /v1/demos/{id}/finish` declares the task done, checks it and closes the
//! dataset. The dataset is `steps.jsonl` plus `step-NNN.png` files in
//! `<store dir>/datasets/<episode>/`, each file downloadable from `GET /v1/demos/{id}/files/{name}`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::phone_wire::{ActionIn, ElementOut, ScreenOut, TargetIn};
use super::ApiError;

/// `POST /v1/demos`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DemoStart {
    /// Task id from `GET /v1/tasks`.
    pub task: String,
    /// Seed of the task's parameters; random when omitted.
    pub seed: Option<u64>,
    /// Device spec; the default device when omitted.
    pub device: Option<String>,
}

/// A demonstration as the page shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DemoOut {
    /// The episode id (also the demonstration's id).
    pub episode: String,
    pub task: String,
    pub goal: String,
    pub device: String,
    pub max_steps: u32,
    /// Rows written to the dataset so far.
    pub steps: u32,
    /// `recording`, `finished` or `abandoned`.
    pub status: String,
    /// Files of the dataset so far (`steps.jsonl`, `step-000.png`, …).
    pub files: Vec<String>,
    /// After finishing: whether the episode's checks passed.
    pub success: Option<bool>,
    pub score: Option<f64>,
}

/// `POST /v1/replays`: replay a task's solution on a served device, as an agent would, for a person
/// to watch.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplayStart {
    pub task: String,
    pub seed: Option<u64>,
    /// Device spec; the default device when omitted.
    pub device: Option<String>,
    /// `golden` (default), `wrong` or `empty`.
    pub solution: Option<String>,
    /// Wait this long before each action (0–10000 ms, default 0) so the page can follow.
    pub pace_ms: Option<u64>,
}

/// A replay started in the background.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ReplayOut {
    pub episode: String,
    pub task: String,
    pub goal: String,
    pub device: String,
    /// Actions (and answer/finish) the replay will take.
    pub actions: usize,
    /// `running`.
    pub status: String,
}

/// One live demonstration and where its dataset goes.
pub struct Demo {
    pub out: DemoOut,
    dir: PathBuf,
}

impl Demo {
    /// Creates the dataset directory for a freshly started episode.
    pub fn create(out: DemoOut, datasets: &Path) -> Result<Demo, ApiError> {
        let dir = datasets.join(&out.episode);
        std::fs::create_dir_all(&dir).map_err(|e| io_error(&dir, e))?;
        Ok(Demo { out, dir })
    }

    pub fn is_recording(&self) -> bool {
        self.out.status == "recording"
    }

    /// Writes the row for `action` taken on `before` (screenshot, elements, both action forms).
    pub fn write_step(
        &mut self,
        before: &ScreenOut,
        action: &ActionIn,
        outcome: Result<&str, &str>,
    ) -> Result<(), ApiError> {
        let index = self.out.steps;
        let image = format!("step-{index:03}.png");
        if let Some(shot) = &before.screenshot {
            use base64::Engine as _;
            let png = base64::engine::general_purpose::STANDARD
                .decode(&shot.data)
                .map_err(|e| {
                    ApiError::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "internal",
                        format!("screenshot: {e}"),
                    )
                })?;
            let path = self.dir.join(&image);
            std::fs::write(&path, png).map_err(|e| io_error(&path, e))?;
        }
        let (w, h) = (before.size[0] as f64, before.size[1] as f64);
        let row = serde_json::json!({
            "episode": self.out.episode,
            "task": self.out.task,
            "goal": self.out.goal,
            "step": index,
            "image": before.screenshot.as_ref().map(|_| image.clone()),
            "image_scale": before.screenshot.as_ref().map(|s| s.scale),
            "screen": before.size,
            "foreground": before.foreground.as_ref().map(|f| f.package.clone()),
            "elements": before.compact,
            "element_list": before.elements.iter().map(element_row).collect::<Vec<_>>(),
            "action": action_json(action, &before.elements),
            "dual_gesture": dual_gesture(action, &before.elements, w, h),
            "result": match outcome { Ok(d) => serde_json::json!({"ok": true, "action": d}),
                                      Err(e) => serde_json::json!({"ok": false, "error": e}) },
        });
        let path = self.dir.join("steps.jsonl");
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| io_error(&path, e))?;
        writeln!(file, "{row}").map_err(|e| io_error(&path, e))?;
        self.out.steps += 1;
        for name in ["steps.jsonl".to_string(), image] {
            if self.dir.join(&name).exists() && !self.out.files.contains(&name) {
                self.out.files.push(name);
            }
        }
        Ok(())
    }

    /// A file of this dataset, by bare name (no paths).
    pub fn file(&self, name: &str) -> Result<Response, ApiError> {
        if !self.out.files.iter().any(|f| f == name) {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("demonstration {} has no file {name:?}", self.out.episode),
            ));
        }
        let path = self.dir.join(name);
        let bytes = std::fs::read(&path).map_err(|e| io_error(&path, e))?;
        let mime = if name.ends_with(".png") {
            "image/png"
        } else {
            "application/jsonl"
        };
        Ok(([(header::CONTENT_TYPE, mime)], bytes).into_response())
    }
}

fn io_error(path: &Path, e: std::io::Error) -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        format!("{}: {e}", path.display()),
    )
}

fn element_row(e: &ElementOut) -> serde_json::Value {
    serde_json::json!({"id": e.id, "role": e.role, "text": e.text, "desc": e.desc,
                       "resource_id": e.resource_id, "bounds": e.bounds})
}

/// Where a target lands on the screen the person saw.
fn point(t: &TargetIn, elements: &[ElementOut]) -> Option<(f64, f64)> {
    if let (Some(x), Some(y)) = (t.x, t.y) {
        return Some((x as f64, y as f64));
    }
    let e = match (&t.element, &t.text) {
        (Some(id), _) => elements.iter().find(|e| e.id == *id),
        (None, Some(text)) => elements
            .iter()
            .find(|e| e.text == *text || e.desc == *text || e.folded.iter().any(|f| f == text)),
        _ => None,
    }?;
    Some((e.center[0] as f64, e.center[1] as f64))
}

/// Our action with its targets resolved to points on the screen the person saw.
fn action_json(a: &ActionIn, elements: &[ElementOut]) -> serde_json::Value {
    let mut v = serde_json::to_value(a).unwrap_or_default();
    let resolve = |t: &TargetIn| point(t, elements).map(|(x, y)| [x as i32, y as i32]);
    match a {
        ActionIn::Tap { at } | ActionIn::DoubleTap { at } | ActionIn::LongPress { at, .. } => {
            v["point"] = serde_json::json!(resolve(at));
        }
        ActionIn::Swipe { from, to, .. } => {
            v["from_point"] = serde_json::json!(resolve(from));
            v["to_point"] = serde_json::json!(resolve(to));
        }
        _ => {}
    }
    v
}

/// B-MoCA's action: `(y_touch, x_touch, y_lift, x_lift)`, each normalized to [0, 1] by the screen
/// size. A tap touches and lifts at one point; a swipe moves between two; back, home and overview
/// are taps on the navigation bar at x = 0.22, 0.50, 0.78 and y = 0.95. Actions with no gesture
/// form (typing, opening an app by name, long presses, other keys) are `null`.
pub fn dual_gesture(a: &ActionIn, elements: &[ElementOut], w: f64, h: f64) -> Option<[f64; 4]> {
    let norm = |(x, y): (f64, f64)| ((y / h).clamp(0.0, 1.0), (x / w).clamp(0.0, 1.0));
    let round = |v: f64| (v * 10_000.0).round() / 10_000.0;
    let gesture =
        |a: (f64, f64), b: (f64, f64)| Some([round(a.0), round(a.1), round(b.0), round(b.1)]);
    match a {
        ActionIn::Tap { at } => {
            let p = norm(point(at, elements)?);
            gesture(p, p)
        }
        ActionIn::Swipe { from, to, .. } => {
            gesture(norm(point(from, elements)?), norm(point(to, elements)?))
        }
        ActionIn::PressKey { key } => {
            let x = match key.trim().to_ascii_lowercase().as_str() {
                "back" | "4" => 0.22,
                "home" | "3" => 0.50,
                "recents" | "overview" | "app_switch" | "187" => 0.78,
                _ => return None,
            };
            gesture((0.95, x), (0.95, x))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: i32, y: i32) -> TargetIn {
        TargetIn {
            x: Some(x),
            y: Some(y),
            ..TargetIn::default()
        }
    }

    #[test]
    fn gestures_normalize_to_the_screen_in_y_x_order() {
        let tap = ActionIn::Tap { at: at(540, 1200) };
        assert_eq!(
            dual_gesture(&tap, &[], 1080.0, 2400.0),
            Some([0.5, 0.5, 0.5, 0.5])
        );
        let swipe = ActionIn::Swipe {
            from: at(540, 1920),
            to: at(540, 480),
            duration_ms: None,
        };
        assert_eq!(
            dual_gesture(&swipe, &[], 1080.0, 2400.0),
            Some([0.8, 0.5, 0.2, 0.5])
        );
        let back = ActionIn::PressKey { key: "back".into() };
        assert_eq!(
            dual_gesture(&back, &[], 1080.0, 2400.0),
            Some([0.95, 0.22, 0.95, 0.22])
        );
        let typed = ActionIn::TypeText {
            text: "hi".into(),
            clear: false,
            submit: false,
        };
        assert_eq!(dual_gesture(&typed, &[], 1080.0, 2400.0), None);
    }
}

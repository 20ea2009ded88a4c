//! Watching an episode and the review queue, for the live page and any harness.
//!
//! | Method and path | Body | Answer |
//! | --- | --- | --- |
//! | `GET /v1/episodes/{id}/watch` | – | `EpisodeWatch`: goal, status, each step with the screen before and after, checks, judge and human verdicts |
//! | `GET /v1/review` | – | `ReviewQueue`: episodes whose judges, or judges and rule, disagree |
//! | `POST /v1/review/{id}` | `HumanVerdictIn` | `HumanVerdictOut` |
//!
//! A human verdict goes through `judge::record::record_human`, the same call `droidmcp review
//! EPISODE --verdict …` makes; it leaves the queue and `droidmcp judge calibrate` counts it.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::phone::Body;
use super::ApiError;
use crate::episode::{EpisodeError, Episodes};
use crate::judge::record;
use crate::store::Store;

pub fn router(episodes: Arc<Episodes>) -> Router {
    Router::new()
        .route("/v1/episodes/{id}/watch", get(watch))
        .route("/v1/review", get(queue))
        .route("/v1/review/{id}", post(verdict))
        .with_state(episodes)
}

type Shared = State<Arc<Episodes>>;

fn store(eps: &Episodes) -> Result<&Store, ApiError> {
    eps.store().ok_or_else(|| EpisodeError::NotStored.into())
}

fn db_error(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        format!("episode store: {e}"),
    )
}

/// Runs `f` on the store after making sure the verdict tables exist.
fn with_verdicts<T>(
    store: &Store,
    f: impl FnOnce(&mut rusqlite::Connection) -> rusqlite::Result<T>,
) -> Result<T, ApiError> {
    store
        .with_connection(|c| {
            record::migrate(c)?;
            f(c)
        })
        .map_err(db_error)
}

/// One step as a watcher sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct WatchStep {
    pub index: u32,
    pub at: String,
    /// The action as recorded (kind, point, element, text…).
    #[schema(value_type = Object)]
    pub action: serde_json::Value,
    /// The compact element list of the screen the action was aimed at (the previous step's
    /// settled screen; `None` for the first step, whose screen the store does not keep).
    pub before: Option<String>,
    /// The compact element list of the settled screen after it.
    pub after: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct JudgeOut {
    pub judge: String,
    pub family: String,
    /// `judge` or `tie_breaker`.
    pub role: String,
    /// `success`, `failure` or `undecided`.
    pub verdict: String,
    pub confidence: f64,
    pub reason: String,
    pub error: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HumanOut {
    pub verdict: String,
    pub note: String,
    pub reviewer: String,
    pub at: String,
}

/// `GET /v1/episodes/{id}/watch`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EpisodeWatch {
    /// The episode as `GET /v1/episodes/{id}/export` gives it, steps left out (see `steps`): id,
    /// task, goal, status, answer, verdict, score, the last check results…
    #[schema(value_type = Object)]
    pub episode: serde_json::Value,
    pub steps: Vec<WatchStep>,
    pub judges: Vec<JudgeOut>,
    pub human: Option<HumanOut>,
}

#[utoipa::path(get, path = "/v1/episodes/{id}/watch", tag = "episodes",
    params(("id" = String, Path, description = "Episode id")),
    responses((status = 200, body = EpisodeWatch), (status = 404, body = super::wire::ErrorBody)))]
pub async fn watch(
    State(eps): Shared,
    Path(id): Path<String>,
) -> Result<Json<EpisodeWatch>, ApiError> {
    let store = store(&eps)?;
    let mut episode = eps.export(&id)?;
    if let Some(o) = episode.as_object_mut() {
        o.remove("steps");
    }
    let rows = eps.steps(&id).await?;
    let compact = |xml: &Option<String>| xml.as_deref().map(crate::judge::source::compact_screen);
    let mut before = None;
    let steps = rows
        .iter()
        .map(|r| {
            let after = compact(&r.screen);
            let step = WatchStep {
                index: r.index,
                at: r.at.clone(),
                action: serde_json::from_str(&r.action)
                    .unwrap_or(serde_json::Value::String(r.action.clone())),
                before: before.take(),
                after: after.clone(),
            };
            before = after;
            step
        })
        .collect();
    let (judges, human) = with_verdicts(store, |c| {
        Ok((
            record::judge_verdicts(c, &id)?,
            record::human_verdict(c, &id)?,
        ))
    })?;
    Ok(Json(EpisodeWatch {
        episode,
        steps,
        judges: judges
            .into_iter()
            .map(
                |(judge, family, role, verdict, confidence, reason, error)| JudgeOut {
                    judge,
                    family,
                    role,
                    verdict,
                    confidence,
                    reason,
                    error,
                },
            )
            .collect(),
        human: human.map(|(verdict, note, reviewer, at)| HumanOut {
            verdict,
            note,
            reviewer,
            at,
        }),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewItemOut {
    pub episode: String,
    pub task: Option<String>,
    pub goal: Option<String>,
    /// The combined outcome (`needs_review`, or the verdict that clashes with the rule).
    pub outcome: String,
    /// What the judges said together.
    pub panel: String,
    /// The rule-based result, when the task has rules.
    pub rule: Option<String>,
    /// Each judge's verdict and reason.
    pub judges: Vec<[String; 3]>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReviewQueue {
    pub items: Vec<ReviewItemOut>,
}

#[utoipa::path(get, path = "/v1/review", tag = "episodes",
    responses((status = 200, description = "Episodes whose judges, or judges and rule, disagree, and nobody has reviewed since", body = ReviewQueue)))]
pub async fn queue(State(eps): Shared) -> Result<Json<ReviewQueue>, ApiError> {
    let store = store(&eps)?;
    let items = with_verdicts(store, |c| record::review_queue(c))?;
    let items = items
        .into_iter()
        .map(|i| {
            let row = store.episode(&i.episode_id).ok().flatten();
            ReviewItemOut {
                task: row.as_ref().map(|r| r.task_id.clone()),
                goal: row.map(|r| r.goal),
                episode: i.episode_id,
                outcome: i.outcome,
                panel: i.panel_outcome,
                rule: i.rule_result,
                judges: i.reasons.into_iter().map(|(a, b, c)| [a, b, c]).collect(),
            }
        })
        .collect();
    Ok(Json(ReviewQueue { items }))
}

/// `POST /v1/review/{id}`: what a person says the episode achieved.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HumanVerdictIn {
    /// `success` or `failure`.
    pub verdict: String,
    #[serde(default)]
    pub note: String,
    /// Who is reviewing (default `web`).
    pub reviewer: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HumanVerdictOut {
    pub episode: String,
    pub verdict: String,
    /// Episodes still waiting for a person.
    pub queue: usize,
}

#[utoipa::path(post, path = "/v1/review/{id}", tag = "episodes", request_body = HumanVerdictIn,
    params(("id" = String, Path, description = "Episode id")),
    responses(
        (status = 200, description = "Recorded; the episode leaves the queue and calibration counts it", body = HumanVerdictOut),
        (status = 400, body = super::wire::ErrorBody),
        (status = 404, description = "Unknown episode, or no judge verdict on it", body = super::wire::ErrorBody)))]
pub async fn verdict(
    State(eps): Shared,
    Path(id): Path<String>,
    Body(body): Body<HumanVerdictIn>,
) -> Result<Json<HumanVerdictOut>, ApiError> {
    let success = match body.verdict.as_str() {
        "success" => true,
        "failure" => false,
        other => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_request",
                format!("verdict must be \"success\" or \"failure\", got {other:?}"),
            ))
        }
    };
    let store = store(&eps)?;
    if store.episode(&id).map_err(db_error)?.is_none() {
        return Err(EpisodeError::UnknownEpisode(id).into());
    }
    let reviewer = body.reviewer.unwrap_or_else(|| "web".into());
    let recorded = with_verdicts(store, |c| {
        Ok(record::record_human(c, &id, success, &body.note, &reviewer))
    })?;
    recorded.map_err(|e| match e {
        record::HumanVerdictError::NotJudged(_) => {
            ApiError::new(StatusCode::NOT_FOUND, "not_found", e.to_string())
        }
        record::HumanVerdictError::Db(e) => db_error(e),
    })?;
    let queue = with_verdicts(store, |c| record::review_queue(c))?.len();
    Ok(Json(HumanVerdictOut {
        episode: id,
        verdict: body.verdict,
        queue,
    }))
}

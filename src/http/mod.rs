//! The plain HTTP API (REST), a thin front end over sessions and task episodes.
//!
//! Task routes (each handler parses its input, calls one [`Episodes`] method and maps the result):
//!
//! | Method and path | Body | Answer |
//! | --- | --- | --- |
//! | `GET /v1/tasks` | – | `{"tasks": [TaskInfo…]}` |
//! | `GET /v1/tasks/{id}` | – | `TaskInfo` |
//! | `POST /v1/tasks/{id}/start` | `{"seed"?: u64, "params"?: {name: value}, "device"?: str}` | `Started` |
//! | `POST /v1/episodes/{id}/answer` | `{"answer": str}` | `Summary` |
//! | `POST /v1/episodes/{id}/finish` | – | `Summary` |
//! | `POST /v1/episodes/{id}/check` | – | `Report` |
//! | `POST /v1/episodes/{id}/end` | – | `Summary` |
//! | `GET /v1/episodes/{id}` | – | `Summary` |
//! | `GET /v1/episodes/{id}/steps` | – | `Steps` |
//! | `GET /v1/episodes/{id}/export` | – | the episode as `droidmcp episodes export` writes it |
//!
//! Runs (`/v1/runs`, `droidmcp run` over REST) are in [`runs`].
//!
//! This is the harness's surface: it sees parameters, setup, checks and evidence, and the guard opens
//! it only to the harness token (`mcp::http::Door`). Agents get the MCP tools (`crate::mcp`), which
//! show none of that before the episode ends. A check of a running
//! episode answers `"provisional": true`. Episodes a previous server process left open are
//! `aborted` (steps kept) and still answer here.
//!
//! Errors are `{"error": message, "kind": "not_found" | "bad_request" | "conflict" | "device_lost" |
//! "internal"}` with 404, 400, 409, 502 or 500. The wire types are in [`wire`] (documented there);
//! nothing outside this module derives `Serialize` for them.

pub mod demo;
pub mod openapi;
pub mod phone;
pub mod phone_wire;
pub mod review;
pub mod runs;
pub mod wire;

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use crate::episode::{EpisodeError, Episodes};
use wire::{AnswerBody, ErrorBody, StartBody};

/// The task routes over shared [`Episodes`], to be merged beside the MCP router.
pub fn router(episodes: Arc<Episodes>) -> Router {
    Router::new()
        .route("/v1/tasks", get(list_tasks))
        .route("/v1/tasks/{id}", get(show_task))
        .route("/v1/tasks/{id}/start", post(start))
        .route("/v1/episodes/{id}", get(episode))
        .route("/v1/episodes/{id}/answer", post(answer))
        .route("/v1/episodes/{id}/finish", post(finish))
        .route("/v1/episodes/{id}/check", post(check))
        .route("/v1/episodes/{id}/end", post(end))
        .route("/v1/episodes/{id}/steps", get(steps))
        .route("/v1/episodes/{id}/export", get(export))
        .with_state(episodes)
}

type Shared = State<Arc<Episodes>>;

/// An error answer: the status and the one JSON error shape of the API.
pub struct ApiError(StatusCode, ErrorBody);

impl ApiError {
    pub fn new(status: StatusCode, kind: &str, message: impl Into<String>) -> ApiError {
        ApiError(
            status,
            ErrorBody {
                error: message.into(),
                kind: kind.into(),
            },
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(self.1)).into_response()
    }
}

impl From<EpisodeError> for ApiError {
    fn from(e: EpisodeError) -> ApiError {
        let (status, kind) = if e.is_not_found() || matches!(e, EpisodeError::NotStored) {
            (StatusCode::NOT_FOUND, "not_found")
        } else if e.is_conflict() {
            (StatusCode::CONFLICT, "conflict")
        } else if matches!(
            e,
            EpisodeError::DeviceLost { .. } | EpisodeError::NoDevice(_)
        ) {
            (StatusCode::BAD_GATEWAY, "device_lost")
        } else if e.is_client_error() {
            (StatusCode::BAD_REQUEST, "bad_request")
        } else {
            (StatusCode::INTERNAL_SERVER_ERROR, "internal")
        };
        ApiError(
            status,
            ErrorBody {
                error: e.to_string(),
                kind: kind.into(),
            },
        )
    }
}

#[utoipa::path(get, path = "/v1/tasks", tag = "tasks",
    responses((status = 200, description = "Every task of the catalog as the harness sees it", body = wire::TaskList)))]
async fn list_tasks(State(eps): Shared) -> Json<wire::TaskList> {
    Json(wire::TaskList {
        tasks: eps
            .catalog()
            .iter()
            .map(|t| wire::TaskInfo::from_task(t))
            .collect(),
    })
}

#[utoipa::path(get, path = "/v1/tasks/{id}", tag = "tasks",
    params(("id" = String, Path, description = "Task id")),
    responses((status = 200, body = wire::TaskInfo), (status = 404, body = ErrorBody)))]
async fn show_task(
    State(eps): Shared,
    Path(id): Path<String>,
) -> Result<Json<wire::TaskInfo>, ApiError> {
    let task = eps.catalog().get(&id).map_err(EpisodeError::from)?;
    Ok(Json(wire::TaskInfo::from_task(&task)))
}

#[utoipa::path(post, path = "/v1/tasks/{id}/start", tag = "tasks", request_body(content = StartBody, description = "Optional; without it the seed is drawn and the default device used"),
    params(("id" = String, Path, description = "Task id")),
    responses((status = 200, description = "The episode, after its setup ran", body = wire::Started),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn start(
    State(eps): Shared,
    Path(id): Path<String>,
    body: Option<Json<StartBody>>,
) -> Result<Json<wire::Started>, ApiError> {
    let body = body.map(|Json(b)| b).unwrap_or_default();
    let params: BTreeMap<String, String> = body
        .params
        .into_iter()
        .map(|(k, v)| (k, wire::param_text(&v)))
        .collect();
    let device = body
        .env
        .as_deref()
        .map(|env| crate::env::with_env(body.device.as_deref().unwrap_or("sim"), env))
        .or(body.device);
    let started = eps
        .start(&id, body.seed, &params, device.as_deref())
        .await?;
    Ok(Json(wire::Started::from(&started)))
}

#[utoipa::path(get, path = "/v1/episodes/{id}", tag = "episodes",
    params(("id" = String, Path, description = "Episode id")),
    responses((status = 200, description = "The episode as it stands; `restored` says whether it began from the phone's baseline snapshot", body = wire::Summary),
        (status = 404, body = ErrorBody)))]
pub async fn episode(
    State(eps): Shared,
    Path(id): Path<String>,
) -> Result<Json<wire::Summary>, ApiError> {
    Ok(Json(wire::Summary::from(&eps.summary(&id).await?)))
}

#[utoipa::path(post, path = "/v1/episodes/{id}/answer", tag = "episodes", request_body = AnswerBody,
    params(("id" = String, Path, description = "Episode id")),
    responses((status = 200, body = wire::Summary), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn answer(
    State(eps): Shared,
    Path(id): Path<String>,
    Json(body): Json<AnswerBody>,
) -> Result<Json<wire::Summary>, ApiError> {
    eps.answer(&id, &body.answer).await?;
    Ok(Json(wire::Summary::from(&eps.summary(&id).await?)))
}

#[utoipa::path(post, path = "/v1/episodes/{id}/finish", tag = "episodes",
    params(("id" = String, Path, description = "Episode id")),
    responses((status = 200, body = wire::Summary), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn finish(
    State(eps): Shared,
    Path(id): Path<String>,
) -> Result<Json<wire::Summary>, ApiError> {
    eps.finish(&id).await?;
    Ok(Json(wire::Summary::from(&eps.summary(&id).await?)))
}

#[utoipa::path(post, path = "/v1/episodes/{id}/check", tag = "episodes",
    params(("id" = String, Path, description = "Episode id")),
    responses((status = 200, description = "The checks run on the device now; `provisional` while the episode is running", body = wire::Report),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn check(State(eps): Shared, Path(id): Path<String>) -> Result<Json<wire::Report>, ApiError> {
    Ok(Json(wire::Report::from(&eps.check(&id).await?)))
}

#[utoipa::path(post, path = "/v1/episodes/{id}/end", tag = "episodes",
    params(("id" = String, Path, description = "Episode id")),
    responses((status = 200, body = wire::Summary), (status = 404, body = ErrorBody)))]
pub async fn end(
    State(eps): Shared,
    Path(id): Path<String>,
) -> Result<Json<wire::Summary>, ApiError> {
    Ok(Json(wire::Summary::from(&eps.end(&id).await?)))
}

#[utoipa::path(get, path = "/v1/episodes/{id}/steps", tag = "episodes",
    params(("id" = String, Path, description = "Episode id")),
    responses((status = 200, body = wire::Steps), (status = 404, body = ErrorBody)))]
async fn steps(State(eps): Shared, Path(id): Path<String>) -> Result<Json<wire::Steps>, ApiError> {
    let rows = eps.steps(&id).await?;
    Ok(Json(wire::Steps::new(&id, &rows)))
}

#[utoipa::path(get, path = "/v1/episodes/{id}/export", tag = "episodes",
    params(("id" = String, Path, description = "Episode id")),
    responses((status = 200, description = "The episode as `droidmcp episodes export` writes it", body = Object),
        (status = 404, body = ErrorBody)))]
async fn export(
    State(eps): Shared,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    Ok(Json(eps.export(&id)?))
}

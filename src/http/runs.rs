//! Runs over REST: the same as `droidmcp run`, started in the background, with live status and the
//! report.
//!
//! | Method and path | Body | Answer |
//! | --- | --- | --- |
//! | `POST /v1/runs` | [`RunBody`] | 202 `RunStatus` (the run plays in the background; a name that exists resumes it) |
//! | `GET /v1/runs` | – | `{"runs": [RunStatus…]}` (this server's runs and the store's) |
//! | `GET /v1/runs/{name}` | – | `RunStatus` with `report` (the figures `report --run --json` prints) |
//! | `GET /v1/runs/{name}/report.md` | – | the Markdown report |
//! | `GET /v1/runs/{name}/report.svg` | – | success by tag and environment, with intervals |
//!
//! Only reference agents start over REST: a command agent is a host process, which the command line
//! starts (`droidmcp run --agent-cmd`), never a request.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::phone::Body;
use super::ApiError;
use crate::agent::{ReferenceAgent, Style};
use crate::llm::{ChatClient, Endpoint, EndpointLimits, SpendCap};
use crate::run::plan::{Selection, Source};
use crate::run::report::RunReport;
use crate::run::{AgentSpec, Progress, RunSpec};
use crate::store::Store;
use crate::task::Catalog;

/// `POST /v1/runs`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RunBody {
    pub name: String,
    #[serde(default)]
    pub tasks: Vec<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub sources: Vec<String>,
    pub seeds: Option<u32>,
    pub run_seed: Option<u64>,
    /// Environments as `--env` takes them (`test`, `000,105`, `random:7`).
    pub env: Option<String>,
    pub max_steps: Option<u32>,
    pub agent: AgentBody,
    pub phones: Option<u32>,
    pub retries: Option<u32>,
    pub episode_timeout_s: Option<u64>,
}

/// The reference agent a REST run uses.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentBody {
    /// `t3a`, `m3a` or `bmoca`.
    pub style: String,
    pub model: String,
    pub base_url: String,
    pub api_key_env: Option<String>,
}

/// A run as REST reports it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RunStatus {
    pub name: String,
    /// `running`, `done`, `failed` (the run as a whole stopped; its error says why) or `stored`
    /// (in the store, not started by this server).
    pub status: String,
    pub error: Option<String>,
    pub total: usize,
    pub done: usize,
    pub success: usize,
    pub errored: usize,
    /// Tokens and cost of the attempts that reported them (a command agent reports none).
    pub tokens: u64,
    pub cost_usd: f64,
    /// Attempts whose agent reported no tokens or cost.
    pub usage_unknown: usize,
    pub line: String,
    /// The figures `report --run NAME --json` prints (only on `GET /v1/runs/{name}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub report: Option<serde_json::Value>,
}

#[derive(Clone)]
struct Live {
    status: &'static str,
    error: Option<String>,
    progress: Progress,
}

/// What the run routes share.
pub struct Runs {
    catalog: Arc<Catalog>,
    store: Option<Store>,
    live: Mutex<BTreeMap<String, Live>>,
}

impl Runs {
    pub fn new(catalog: Arc<Catalog>, store: Option<Store>) -> Arc<Runs> {
        Arc::new(Runs {
            catalog,
            store,
            live: Mutex::new(BTreeMap::new()),
        })
    }

    fn live(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Live>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn store(&self) -> Result<&Store, ApiError> {
        self.store.as_ref().ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                "this server keeps no store, so it has no runs",
            )
        })
    }

    fn status(&self, name: &str, with_report: bool) -> Result<RunStatus, ApiError> {
        let store = self.store()?;
        let live = self.live().get(name).cloned();
        if live.is_none() && store.run_spec(name).map_err(internal)?.is_none() {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("no run named {name:?}"),
            ));
        }
        let report = RunReport::load(name, store, &self.catalog).map_err(internal)?;
        let (status, error, progress) = match live {
            Some(l) => (l.status, l.error, l.progress),
            None => {
                let json = report.json();
                let mut p = Progress {
                    total: report.rows.len(),
                    done: report.rows.len(),
                    success: json["success"]["k"].as_u64().unwrap_or(0) as usize,
                    errored: json["errored"].as_u64().unwrap_or(0) as usize,
                    ..Progress::default()
                };
                for r in &report.rows {
                    p.add_usage(r);
                }
                ("stored", None, p)
            }
        };
        Ok(RunStatus {
            name: name.to_string(),
            status: status.to_string(),
            error,
            total: progress.total,
            done: progress.done,
            success: progress.success,
            errored: progress.errored,
            tokens: progress.tokens,
            cost_usd: progress.cost_usd,
            usage_unknown: progress.usage_unknown,
            line: progress.line(),
            report: with_report.then(|| report.json()),
        })
    }

    fn report(&self, name: &str) -> Result<RunReport, ApiError> {
        let store = self.store()?;
        if store.run_spec(name).map_err(internal)?.is_none() {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("no run named {name:?}"),
            ));
        }
        RunReport::load(name, store, &self.catalog).map_err(internal)
    }
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
}

pub fn router(runs: Arc<Runs>) -> Router {
    Router::new()
        .route("/v1/runs", get(list).post(start))
        .route("/v1/runs/{name}", get(show))
        .route("/v1/runs/{name}/report.md", get(markdown))
        .route("/v1/runs/{name}/report.svg", get(svg))
        .with_state(runs)
}

type Shared = State<Arc<Runs>>;

/// `value` when `range` holds it, else a 400 naming the field and its range.
fn within<T: PartialOrd + std::fmt::Display>(
    field: &str,
    value: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ApiError> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(bad(format!(
            "{field} must be {} to {} (got {value})",
            range.start(),
            range.end()
        )))
    }
}

fn spec_of(body: RunBody) -> Result<(RunSpec, Style), ApiError> {
    if body.name.trim().is_empty() || body.name.len() > 200 {
        return Err(bad("name must be 1 to 200 characters"));
    }
    let sources = body
        .sources
        .iter()
        .map(|s| Source::parse(s).ok_or_else(|| bad(format!("unknown source {s:?}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let style = Style::parse(&body.agent.style).ok_or_else(|| {
        bad(format!(
            "unknown agent style {:?}; use t3a, m3a or bmoca",
            body.agent.style
        ))
    })?;
    if !(body.agent.base_url.starts_with("http://") || body.agent.base_url.starts_with("https://"))
    {
        return Err(bad("agent.base_url must start with http:// or https://"));
    }
    let envs = match &body.env {
        Some(spec) => crate::env::Environment::resolve_many(spec)
            .map_err(|e| bad(e.to_string()))?
            .into_iter()
            .map(|e| Some(e.name))
            .collect(),
        None => vec![None],
    };
    // Out-of-range numbers are refused, not clamped: the run a client gets is the run it asked for.
    let phones = within("phones", body.phones.unwrap_or(1), 1..=64)?;
    let seeds = within("seeds", body.seeds.unwrap_or(1), 1..=1000)?;
    let max_steps = body
        .max_steps
        .map(|n| within("max_steps", n, 1..=500))
        .transpose()?;
    let retries = within("retries", body.retries.unwrap_or(2), 0..=10)?;
    let episode_timeout_s = within(
        "episode_timeout_s",
        body.episode_timeout_s.unwrap_or(600),
        1..=86_400,
    )?;
    let spec = RunSpec {
        name: body.name,
        selection: Selection {
            patterns: body.tasks,
            tags: body.tags,
            sources,
        },
        seeds,
        run_seed: body.run_seed.unwrap_or(0),
        envs,
        max_steps,
        agent: AgentSpec::Reference {
            style,
            model: body.agent.model,
            base_url: body.agent.base_url,
            api_key_env: body.agent.api_key_env,
        },
        phones,
        devices: vec![],
        fleet: Default::default(),
        retries,
        episode_timeout_s,
    };
    Ok((spec, style))
}

#[utoipa::path(post, path = "/v1/runs", tag = "runs", request_body = RunBody,
    responses(
        (status = 202, description = "The run plays in the background; a name that exists resumes it", body = RunStatus),
        (status = 400, body = super::wire::ErrorBody),
        (status = 404, description = "The server keeps no store", body = super::wire::ErrorBody),
        (status = 409, description = "Running already, or stored with another specification", body = super::wire::ErrorBody)))]
pub async fn start(
    State(runs): Shared,
    Body(body): Body<RunBody>,
) -> Result<impl IntoResponse, ApiError> {
    let store = runs.store()?.clone();
    let (spec, style) = spec_of(body)?;
    let name = spec.name.clone();
    if runs
        .live()
        .get(&name)
        .is_some_and(|l| l.status == "running")
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            format!("run {name:?} is already running"),
        ));
    }
    // Refuse a bad selection or a changed specification now, not in the background.
    spec.selection
        .pick(&runs.catalog)
        .map_err(|e| bad(e.to_string()))?;
    if let Some(stored) = store.run_spec(&name).map_err(internal)? {
        if stored != spec.record().to_string() {
            return Err(ApiError::new(StatusCode::CONFLICT, "conflict",
                format!("run {name:?} exists with another specification; resume it with the same body or pick another name")));
        }
    }
    let AgentSpec::Reference {
        model,
        base_url,
        api_key_env,
        ..
    } = &spec.agent
    else {
        unreachable!("REST runs are built with a reference agent");
    };
    let mut endpoint = Endpoint::new(format!("agent {}", style.name()), base_url, model.clone());
    endpoint.api_key_env = api_key_env.clone();
    endpoint.max_concurrency = spec.phones as usize;
    let client = ChatClient::new(
        endpoint,
        &EndpointLimits::default(),
        Arc::new(SpendCap::new(None)),
    )
    .map_err(|e| bad(e.to_string()))?;
    let agent = Arc::new(ReferenceAgent::new(style, Arc::new(client)));
    runs.live().insert(
        name.clone(),
        Live {
            status: "running",
            error: None,
            progress: Progress::default(),
        },
    );
    let catalog = runs.catalog.clone();
    let task_runs = runs.clone();
    let progress_runs = runs.clone();
    let progress_name = name.clone();
    let reply_name = name.clone();
    tokio::spawn(async move {
        let result = crate::run::execute(spec, catalog, store, None, Some(agent), move |p| {
            if let Some(l) = progress_runs.live().get_mut(&progress_name) {
                l.progress = p.clone();
            }
        })
        .await;
        if let Some(l) = task_runs.live().get_mut(&name) {
            match result {
                Ok(s) => {
                    l.status = "done";
                    l.progress = s.progress;
                }
                Err(e) => {
                    l.status = "failed";
                    l.error = Some(e.to_string());
                }
            }
        }
    });
    Ok((StatusCode::ACCEPTED, Json(runs.status(&reply_name, false)?)))
}

/// `{"runs": [...]}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct RunList {
    pub runs: Vec<RunStatus>,
}

#[utoipa::path(get, path = "/v1/runs", tag = "runs",
    responses((status = 200, description = "This server's runs and the store's", body = RunList),
        (status = 404, description = "The server keeps no store", body = super::wire::ErrorBody)))]
pub async fn list(State(runs): Shared) -> Result<Json<RunList>, ApiError> {
    let store = runs.store()?;
    let mut names = store.runs().map_err(internal)?;
    for n in runs.live().keys() {
        if !names.contains(n) {
            names.push(n.clone());
        }
    }
    let all = names
        .iter()
        .map(|n| runs.status(n, false))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Json(RunList { runs: all }))
}

#[utoipa::path(get, path = "/v1/runs/{name}", tag = "runs", params(("name" = String, Path, description = "Run name")),
    responses((status = 200, description = "Live status with the report's figures", body = RunStatus),
        (status = 404, body = super::wire::ErrorBody)))]
pub async fn show(
    State(runs): Shared,
    Path(name): Path<String>,
) -> Result<Json<RunStatus>, ApiError> {
    Ok(Json(runs.status(&name, true)?))
}

#[utoipa::path(get, path = "/v1/runs/{name}/report.md", tag = "runs", params(("name" = String, Path, description = "Run name")),
    responses((status = 200, description = "The Markdown report", content_type = "text/markdown", body = String),
        (status = 404, body = super::wire::ErrorBody)))]
pub async fn markdown(
    State(runs): Shared,
    Path(name): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let r = runs.report(&name)?;
    Ok((
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        r.markdown(),
    ))
}

#[utoipa::path(get, path = "/v1/runs/{name}/report.svg", tag = "runs", params(("name" = String, Path, description = "Run name")),
    responses((status = 200, description = "Success by tag and environment with 95% intervals", content_type = "image/svg+xml", body = String),
        (status = 404, body = super::wire::ErrorBody)))]
pub async fn svg(
    State(runs): Shared,
    Path(name): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let r = runs.report(&name)?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], r.svg()))
}

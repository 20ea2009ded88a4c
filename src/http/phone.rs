//! The phone routes of the REST API: the device pool, the settled screen (elements with the MCP
//! `screen` tool's ids, screenshot), actions, apps, and a server-sent change feed. Every action goes
//! through [`Session::act`], the one action path, on a session this front end keeps per device.
//!
//! | Method and path | Body / query | Answer |
//! | --- | --- | --- |
//! | `GET /v1/devices` | – | `DeviceList` |
//! | `GET /v1/screen` | `?device&screenshot&max_edge&xml` | `ScreenOut` |
//! | `POST /v1/actions` | `ActRequest` | `ActResult` |
//! | `GET /v1/apps` | `?device` | `AppList` |
//! | `GET /v1/events` | `?device` | `text/event-stream` of `event: screen` (`ChangeEvent`) |
//! | `POST /v1/demos` | `DemoStart` | `DemoOut` (see [`super::demo`]) |
//! | `GET /v1/demos/{id}` | – | `DemoOut` |
//! | `POST /v1/demos/{id}/finish` | – | `DemoOut`, checked |
//! | `GET /v1/demos/{id}/files/{name}` | – | `steps.jsonl` or a `step-NNN.png` |
//!
//! Errors use the one JSON shape of the API (`{"error", "kind"}`, see [`super::ApiError`]),
//! malformed JSON and bad query strings included.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{FromRequest, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine as _;
use futures::Stream;

use super::demo::{Demo, DemoOut, DemoStart, ReplayOut, ReplayStart};
use super::phone_wire::*;
use super::ApiError;
use crate::device::image::Encoding;
use crate::episode::Episodes;
use crate::mcp::ServerState;
use crate::session::{Control, ObserveOptions, Screen, Session, SessionError};

type DemoSlot = Arc<tokio::sync::Mutex<Demo>>;

/// The sessions this front end acts through, one per device spec, shared by every page and REST
/// client of the process; and the demonstrations being recorded.
pub struct Phones {
    state: Arc<ServerState>,
    sessions: Mutex<BTreeMap<String, Arc<Session>>>,
    episodes: Arc<Episodes>,
    /// Where demonstration datasets are written (`<dir>/<episode>/`).
    datasets: PathBuf,
    /// By episode id.
    demos: Mutex<BTreeMap<String, DemoSlot>>,
    /// Replays running on a device: device spec → episode id.
    replays: Mutex<BTreeMap<String, String>>,
}

impl Phones {
    pub fn new(state: Arc<ServerState>, episodes: Arc<Episodes>, datasets: PathBuf) -> Arc<Phones> {
        Arc::new(Phones {
            state,
            sessions: Mutex::new(BTreeMap::new()),
            episodes,
            datasets,
            demos: Mutex::new(BTreeMap::new()),
            replays: Mutex::new(BTreeMap::new()),
        })
    }

    fn replays(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, String>> {
        self.replays.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Refuses a person's action (or a new demonstration) on a device a replay is driving: the
    /// replay's trajectory would no longer be the one it replays.
    fn not_replaying(&self, spec: &str) -> Result<(), ApiError> {
        match self.replays().get(spec) {
            Some(episode) => Err(ApiError::new(
                StatusCode::CONFLICT,
                "busy",
                format!(
                    "{spec} is running a replay (episode {episode}); actions from the page are refused until it ends"
                ),
            )),
            None => Ok(()),
        }
    }

    fn demos(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, DemoSlot>> {
        self.demos.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn demo(&self, id: &str) -> Result<DemoSlot, ApiError> {
        self.demos().get(id).cloned().ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("unknown demonstration {id:?}"),
            )
        })
    }

    /// The demonstration being recorded on `spec`, if any.
    async fn recording_on(&self, spec: &str) -> Option<DemoSlot> {
        let all: Vec<DemoSlot> = self.demos().values().cloned().collect();
        for d in all {
            let g = d.lock().await;
            if g.is_recording() && g.out.device == spec {
                drop(g);
                return Some(d);
            }
        }
        None
    }

    fn spec(&self, device: Option<&str>) -> String {
        device
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or(self.state.hub.pool().default_spec())
            .to_string()
    }

    /// The session on `device`, opening the device on first use.
    pub async fn session(&self, device: Option<&str>) -> Result<(String, Arc<Session>), ApiError> {
        let spec = self.spec(device);
        let known = self.lock().get(&spec).cloned();
        if let Some(s) = known {
            return Ok((spec, s));
        }
        let opened = self
            .state
            .hub
            .open("web", Some(&spec))
            .await
            .map_err(|e| session_error(&e))?;
        let s = self.lock().entry(spec.clone()).or_insert(opened).clone();
        Ok((spec, s))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Arc<Session>>> {
        self.sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The phone routes over shared [`Phones`].
pub fn router(phones: Arc<Phones>) -> Router {
    Router::new()
        .route("/v1/devices", get(devices))
        .route("/v1/screen", get(screen))
        .route("/v1/actions", post(act))
        .route("/v1/apps", get(apps))
        .route("/v1/events", get(events))
        .route("/v1/demos", post(demo_start))
        .route("/v1/demos/{id}", get(demo_show))
        .route("/v1/demos/{id}/finish", post(demo_finish))
        .route("/v1/demos/{id}/files/{name}", get(demo_file))
        .route("/v1/replays", post(replay_start))
        .with_state(phones)
}

type Shared = State<Arc<Phones>>;

/// A session failure in the API's error shape: the caller's mistakes are 400, unknown devices 404,
/// a lost device 502, anything else 500.
pub fn session_error(e: &SessionError) -> ApiError {
    use crate::device::DeviceError;
    let (status, kind) = match e {
        SessionError::Device(DeviceError::UnknownDevice { .. }) => {
            (StatusCode::NOT_FOUND, "not_found")
        }
        e if e.is_device_lost() => (StatusCode::BAD_GATEWAY, "device_lost"),
        e if e.is_bad_request() => (StatusCode::BAD_REQUEST, "bad_request"),
        SessionError::Cancelled => (StatusCode::SERVICE_UNAVAILABLE, "cancelled"),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, "device_error"),
    };
    ApiError::new(status, kind, e.to_string())
}

/// `Json<T>` whose rejections (malformed JSON, wrong field types, unknown fields) answer in the
/// API's error shape instead of axum's plain text.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(e) => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_request",
                format!("malformed request body: {}", e.body_text()),
            )),
        }
    }
}

/// `Query<T>` with rejections in the API's error shape.
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(Params(v)),
            Err(e) => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_request",
                format!("bad query string: {}", e.body_text()),
            )),
        }
    }
}

#[utoipa::path(get, path = "/v1/devices", tag = "phone",
    responses((status = 200, description = "The devices this server has open, and the default", body = DeviceList)))]
pub async fn devices(State(phones): Shared) -> Json<DeviceList> {
    let pool = phones.state.hub.pool();
    let default = pool.default_spec().to_string();
    let mut devices: Vec<DeviceOut> = pool
        .list()
        .into_iter()
        .map(|d| DeviceOut {
            spec: d.spec,
            serial: d.serial,
            leases: d.leases,
            open: true,
            state: "device".into(),
            model: None,
        })
        .collect();
    let default_open = devices.iter().any(|d| {
        d.spec == default || (default == "sim" && d.serial == "sim-0") || d.serial == default
    });
    if !default_open {
        devices.insert(
            0,
            DeviceOut {
                spec: default.clone(),
                serial: default.clone(),
                leases: 0,
                open: false,
                state: "device".into(),
                model: None,
            },
        );
    }
    let adb = match adb_devices(pool.adb_server()).await {
        Ok(found) => {
            for d in found {
                match devices
                    .iter_mut()
                    .find(|o| o.serial == d.serial || o.spec == d.serial)
                {
                    Some(open) => {
                        open.state = d.state;
                        open.model = d.model;
                    }
                    None => devices.push(DeviceOut {
                        spec: d.serial.clone(),
                        serial: d.serial,
                        leases: 0,
                        open: false,
                        state: d.state,
                        model: d.model,
                    }),
                }
            }
            None
        }
        Err(why) => Some(why),
    };
    Json(DeviceList {
        default,
        devices,
        adb,
    })
}

/// The devices the adb server knows. Listing never starts a server (as `droidmcp devices` would):
/// opening the page must not leave an adb daemon behind; when none listens, the answer says so.
async fn adb_devices(server: Option<&str>) -> Result<Vec<crate::adb::DeviceEntry>, String> {
    let addr = crate::adb::server_address(server).map_err(|e| e.to_string())?;
    let listening = tokio::time::timeout(
        Duration::from_millis(500),
        tokio::net::TcpStream::connect(&addr),
    )
    .await;
    if !matches!(listening, Ok(Ok(_))) {
        return Err(format!(
            "no adb server at {addr}: start one (`adb start-server`) to list real phones and emulators"
        ));
    }
    let server = crate::adb::AdbServer::new(&addr)
        .map_err(|e| e.to_string())?
        .never_start();
    match tokio::time::timeout(Duration::from_secs(3), server.devices()).await {
        Ok(Ok(found)) => Ok(found),
        Ok(Err(e)) => Err(format!("adb server at {addr}: {e}")),
        Err(_) => Err(format!("adb server at {addr} did not answer within 3 s")),
    }
}

#[utoipa::path(get, path = "/v1/screen", tag = "phone", params(ScreenQuery),
    responses(
        (status = 200, description = "The settled screen", body = ScreenOut),
        (status = 400, description = "Bad query", body = super::wire::ErrorBody),
        (status = 404, description = "Unknown device", body = super::wire::ErrorBody),
        (status = 502, description = "The device vanished", body = super::wire::ErrorBody)))]
pub async fn screen(
    State(phones): Shared,
    Params(q): Params<ScreenQuery>,
) -> Result<Json<ScreenOut>, ApiError> {
    let max_edge = q.max_edge.unwrap_or(1024);
    if !(64..=4096).contains(&max_edge) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("max_edge must be 64–4096, got {max_edge}"),
        ));
    }
    let (spec, session) = phones.session(q.device.as_deref()).await?;
    let shot = q.screenshot.unwrap_or(true);
    Ok(Json(
        read_screen(&spec, &session, shot, max_edge, q.xml).await?,
    ))
}

/// The settled screen through `Session::observe`, with elements parsed by `session::Screen` so the
/// ids are the MCP `screen` tool's.
async fn read_screen(
    spec: &str,
    session: &Session,
    screenshot: bool,
    max_edge: u32,
    xml: bool,
) -> Result<ScreenOut, ApiError> {
    let opts = ObserveOptions {
        elements: true,
        screenshot,
        annotate: false,
        max_edge,
        encoding: Encoding::Png,
        xml: true,
    };
    let ctl = Control::default();
    let generation = *session.changes().await.borrow();
    let obs = session
        .observe(&opts, &ctl)
        .await
        .map_err(|e| session_error(&e))?;
    let parsed = Screen::parse(obs.xml.clone().unwrap_or_default()).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "device_error",
            format!("the UI hierarchy could not be read: {e}"),
        )
    })?;
    let list = parsed.list();
    let h = parsed.hierarchy();
    Ok(ScreenOut {
        device: spec.to_string(),
        serial: obs.serial.clone(),
        foreground: obs.foreground.as_ref().map(|f| ForegroundOut {
            package: f.package.clone(),
            activity: f.activity.clone(),
        }),
        size: [obs.size.width, obs.size.height],
        digest: obs.digest.clone(),
        generation,
        elements: list
            .elements
            .iter()
            .map(|e| ElementOut::from_element(list, h, e))
            .collect(),
        compact: obs.elements.clone().unwrap_or_default(),
        screenshot: obs.screenshot.as_ref().map(|s| ScreenshotOut {
            mime: s.encoding.mime().into(),
            data: base64::engine::general_purpose::STANDARD.encode(&s.bytes),
            width: s.width,
            height: s.height,
            scale: s.scale,
        }),
        xml: xml.then(|| parsed.xml.clone()),
    })
}

#[utoipa::path(post, path = "/v1/actions", tag = "phone", request_body = ActRequest,
    responses(
        (status = 200, description = "The action ran and the UI settled (or the time bound passed)", body = ActResult),
        (status = 400, description = "Malformed body, bad arguments, a stale element id, a point off screen, an unknown app or key", body = super::wire::ErrorBody),
        (status = 404, description = "Unknown device", body = super::wire::ErrorBody),
        (status = 409, description = "The device is busy with a replay", body = super::wire::ErrorBody),
        (status = 502, description = "The device vanished", body = super::wire::ErrorBody)))]
pub async fn act(
    State(phones): Shared,
    Body(req): Body<ActRequest>,
) -> Result<Json<ActResult>, ApiError> {
    let action = req
        .action
        .action()
        .map_err(|m| ApiError::new(StatusCode::BAD_REQUEST, "bad_request", m))?;
    let (spec, session) = phones.session(req.device.as_deref()).await?;
    phones.not_replaying(&spec)?;
    // While a demonstration is recorded here, the row holds the screen the person acted on.
    let demo = phones.recording_on(&spec).await;
    let before = match &demo {
        Some(_) => Some(read_screen(&spec, &session, true, 1024, false).await?),
        None => None,
    };
    let result = session.act(action, None, &Control::default()).await;
    if let (Some(demo), Some(before)) = (demo, before) {
        let outcome = match &result {
            Ok(o) => Ok(o.action.as_str()),
            Err(e) => Err(e.to_string()),
        };
        let outcome = outcome.as_ref().map(|s| *s).map_err(String::as_str);
        demo.lock()
            .await
            .write_step(&before, &req.action, outcome)?;
    }
    let outcome = result.map_err(|e| session_error(&e))?;
    Ok(Json(ActResult::from(&outcome)))
}

#[utoipa::path(get, path = "/v1/apps", tag = "phone", params(DeviceQuery),
    responses(
        (status = 200, description = "Launchable apps", body = AppList),
        (status = 404, description = "Unknown device", body = super::wire::ErrorBody)))]
pub async fn apps(
    State(phones): Shared,
    Params(q): Params<DeviceQuery>,
) -> Result<Json<AppList>, ApiError> {
    let (_, session) = phones.session(q.device.as_deref()).await?;
    let apps = session.apps().await.map_err(|e| session_error(&e))?;
    let mut apps: Vec<AppOut> = apps
        .iter()
        .map(|a| AppOut {
            label: a.label().to_string(),
            package: a.package.clone(),
            activity: a.activity.clone(),
        })
        .collect();
    apps.sort_by_key(|a| a.label.to_lowercase());
    Ok(Json(AppList { apps }))
}

#[utoipa::path(get, path = "/v1/events", tag = "phone", params(DeviceQuery),
    responses((status = 200, description = "Server-sent events: `event: screen` with a ChangeEvent each time anyone acts on the device (coalesced), and one at connection", content_type = "text/event-stream", body = ChangeEvent)))]
pub async fn events(
    State(phones): Shared,
    Params(q): Params<DeviceQuery>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let (spec, session) = phones.session(q.device.as_deref()).await?;
    let rx = session.changes().await;
    // The first event tells the page what is current; later ones follow each change.
    let stream = futures::stream::unfold((rx, true), move |(mut rx, first)| {
        let spec = spec.clone();
        async move {
            if !first && rx.changed().await.is_err() {
                return None;
            }
            let generation = *rx.borrow_and_update();
            let data = serde_json::to_string(&ChangeEvent {
                device: spec,
                generation,
            })
            .expect("a ChangeEvent always serializes");
            Some((Ok(Event::default().event("screen").data(data)), (rx, false)))
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

#[utoipa::path(post, path = "/v1/demos", tag = "demos", request_body = DemoStart,
    responses(
        (status = 200, description = "The task episode started; actions on this device are recorded as dataset rows", body = DemoOut),
        (status = 404, description = "Unknown task or device", body = super::wire::ErrorBody),
        (status = 409, description = "A demonstration is already being recorded on this device", body = super::wire::ErrorBody)))]
pub async fn demo_start(
    State(phones): Shared,
    Body(req): Body<DemoStart>,
) -> Result<Json<DemoOut>, ApiError> {
    let (spec, _) = phones.session(req.device.as_deref()).await?;
    phones.not_replaying(&spec)?;
    if let Some(d) = phones.recording_on(&spec).await {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            format!(
                "demonstration {} is already being recorded on {spec}; finish it first",
                d.lock().await.out.episode
            ),
        ));
    }
    let started = phones
        .episodes
        .start(&req.task, req.seed, &BTreeMap::new(), Some(&spec))
        .await?;
    let out = DemoOut {
        episode: started.episode.clone(),
        task: started.task.clone(),
        goal: started.goal.clone(),
        device: spec,
        max_steps: started.max_steps,
        steps: 0,
        status: "recording".into(),
        files: Vec::new(),
        success: None,
        score: None,
    };
    let demo = Demo::create(out.clone(), &phones.datasets)?;
    phones
        .demos()
        .insert(out.episode.clone(), Arc::new(tokio::sync::Mutex::new(demo)));
    Ok(Json(out))
}

#[utoipa::path(get, path = "/v1/demos/{id}", tag = "demos",
    params(("id" = String, Path, description = "The demonstration's episode id")),
    responses((status = 200, body = DemoOut), (status = 404, body = super::wire::ErrorBody)))]
pub async fn demo_show(
    State(phones): Shared,
    Path(id): Path<String>,
) -> Result<Json<DemoOut>, ApiError> {
    Ok(Json(phones.demo(&id)?.lock().await.out.clone()))
}

#[utoipa::path(post, path = "/v1/demos/{id}/finish", tag = "demos",
    params(("id" = String, Path, description = "The demonstration's episode id")),
    responses(
        (status = 200, description = "Finished, checked and torn down; the dataset is complete", body = DemoOut),
        (status = 404, body = super::wire::ErrorBody),
        (status = 409, description = "Already finished", body = super::wire::ErrorBody)))]
pub async fn demo_finish(
    State(phones): Shared,
    Path(id): Path<String>,
) -> Result<Json<DemoOut>, ApiError> {
    let demo = phones.demo(&id)?;
    let mut d = demo.lock().await;
    if !d.is_recording() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "conflict",
            format!("demonstration {id} is {}", d.out.status),
        ));
    }
    phones.episodes.finish(&id).await?;
    let report = phones.episodes.check(&id).await?;
    phones.episodes.end(&id).await?;
    d.out.status = "finished".into();
    d.out.success = Some(report.verdict.success);
    d.out.score = Some(report.verdict.score);
    Ok(Json(d.out.clone()))
}

#[utoipa::path(get, path = "/v1/demos/{id}/files/{name}", tag = "demos",
    params(("id" = String, Path, description = "The demonstration's episode id"),
           ("name" = String, Path, description = "`steps.jsonl` or `step-NNN.png`")),
    responses(
        (status = 200, description = "The file", content_type = "application/octet-stream"),
        (status = 404, body = super::wire::ErrorBody)))]
pub async fn demo_file(
    State(phones): Shared,
    Path((id, name)): Path<(String, String)>,
) -> Result<axum::response::Response, ApiError> {
    phones.demo(&id)?.lock().await.file(&name)
}

#[utoipa::path(post, path = "/v1/replays", tag = "episodes", request_body = ReplayStart,
    responses(
        (status = 200, description = "The episode started and its replay runs in the background; watch it at /v1/episodes/{id}/watch", body = ReplayOut),
        (status = 400, description = "Unknown solution, or the task has no such trajectory", body = super::wire::ErrorBody),
        (status = 404, description = "Unknown task or device", body = super::wire::ErrorBody),
        (status = 409, description = "A replay or demonstration already runs on this device", body = super::wire::ErrorBody)))]
pub async fn replay_start(
    State(phones): Shared,
    Body(req): Body<ReplayStart>,
) -> Result<Json<ReplayOut>, ApiError> {
    use crate::episode::replay::{replay_paced, solution_actions, Solution};
    let solution = match req.solution.as_deref().unwrap_or("golden") {
        "golden" => Solution::Golden,
        "wrong" => Solution::Wrong,
        "empty" => Solution::Empty,
        other => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad_request",
                format!("unknown solution {other:?}; use golden, wrong or empty"),
            ))
        }
    };
    let pace = Duration::from_millis(req.pace_ms.unwrap_or(0).min(10_000));
    let (spec, _) = phones.session(req.device.as_deref()).await?;
    phones.not_replaying(&spec)?;
    if phones.recording_on(&spec).await.is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "busy",
            format!("a demonstration is being recorded on {spec}; finish it first"),
        ));
    }
    let started = phones
        .episodes
        .start(&req.task, req.seed, &BTreeMap::new(), Some(&spec))
        .await?;
    let id = started.episode.clone();
    let episode = phones.episodes.get(&id)?;
    let actions = solution_actions(episode.lock().await.instance(), solution);
    let Some(actions) = actions else {
        let _ = phones.episodes.end(&id).await;
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_request",
            format!("task {} has no {solution:?} trajectory", req.task),
        ));
    };
    let session = phones
        .state
        .hub
        .open("replay", Some(&spec))
        .await
        .map_err(|e| session_error(&e))?;
    session.set_step_sink(episode.clone());
    phones.replays().insert(spec.clone(), id.clone());
    let planned = actions.len();
    let runner = phones.clone();
    let (task_spec, task_id) = (spec.clone(), id.clone());
    tokio::spawn(async move {
        let replayed = replay_paced(&session, &episode, &actions, pace).await;
        if let Err(e) = &replayed {
            tracing::info!("replay of {task_id} stopped: {e}");
            let _ = runner.episodes.finish(&task_id).await;
        }
        if let Err(e) = runner.episodes.check(&task_id).await {
            tracing::warn!("replay of {task_id}: check failed: {e}");
        }
        let _ = runner.episodes.end(&task_id).await;
        runner.replays().remove(&task_spec);
    });
    Ok(Json(ReplayOut {
        episode: id,
        task: started.task,
        goal: started.goal,
        device: spec,
        actions: planned,
        status: "running".into(),
    }))
}

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
//!
//! Errors use the one JSON shape of the API (`{"error", "kind"}`, see [`super::ApiError`]),
//! malformed JSON and bad query strings included.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine as _;
use futures::Stream;

use super::phone_wire::*;
use super::ApiError;
use crate::device::image::Encoding;
use crate::mcp::ServerState;
use crate::session::{Control, ObserveOptions, Screen, Session, SessionError};

/// The sessions this front end acts through, one per device spec, shared by every page and REST
/// client of the process.
pub struct Phones {
    state: Arc<ServerState>,
    sessions: Mutex<BTreeMap<String, Arc<Session>>>,
}

impl Phones {
    pub fn new(state: Arc<ServerState>) -> Arc<Phones> {
        Arc::new(Phones {
            state,
            sessions: Mutex::new(BTreeMap::new()),
        })
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
            },
        );
    }
    Json(DeviceList { default, devices })
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
    let opts = ObserveOptions {
        elements: true,
        screenshot: q.screenshot.unwrap_or(true),
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
    let xml = obs.xml.clone().unwrap_or_default();
    let parsed = Screen::parse(xml).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "device_error",
            format!("the UI hierarchy could not be read: {e}"),
        )
    })?;
    let list = parsed.list();
    let h = parsed.hierarchy();
    Ok(Json(ScreenOut {
        device: spec,
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
        xml: q.xml.then(|| parsed.xml.clone()),
    }))
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
    let (_, session) = phones.session(req.device.as_deref()).await?;
    let outcome = session
        .act(action, None, &Control::default())
        .await
        .map_err(|e| session_error(&e))?;
    Ok(Json(ActResult {
        ok: true,
        action: outcome.action,
        detail: outcome.detail,
        elapsed_ms: outcome.elapsed_ms,
        settled: outcome.settled,
    }))
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

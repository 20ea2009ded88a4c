//! The HTTP side: MCP's streamable HTTP transport mounted at `/mcp` in an axum router, behind a guard
//! that rejects foreign `Host`/`Origin` headers (DNS rebinding) and checks credentials for two doors:
//! the **agent's** (`/mcp` on an agent-surface server, the phone routes) opened by the agent's bearer
//! token (or by nothing on a loopback bind without one), and the **harness's** (task definitions with
//! their goldens, starting/checking/exporting/watching episodes, replays, runs, review, demonstrations,
//! the page) opened only by the harness token, which an agent is never given.
//!
//! [`router`] builds the app so other front ends (the REST API in `src/http/`) can `merge` their routes
//! beside `/mcp` and get the same guard by wrapping with [`Guard::layer`]. [`serve`] runs it with a
//! header-read timeout; [`sessions`](super::sessions) keeps the MCP sessions' places.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::sessions::{ClientKey, Sessions};
use super::{inbound, DroidMcp, ServerState, Surface};

/// Which credential a path needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Door {
    /// The phone: what an agent may use (the agent's token, or none on a token-less loopback bind).
    Agent,
    /// The answer key and the benchmark's controls: only the harness token.
    Harness,
}

/// The paths of the agent's door; every other path is the harness's, so a route added later is
/// closed to agents until someone decides otherwise. `/mcp` is the agent's unless the server gives
/// MCP clients the harness's task tools (`serve --harness`).
const AGENT_PATHS: &[&str] = &[
    "/v1/devices",
    "/v1/screen",
    "/v1/actions",
    "/v1/apps",
    "/v1/events",
    "/openapi.json",
    "/web/app.js",
    "/web/app.css",
    "/web/fallback.ttf",
];

impl Door {
    /// The door of `path` on a server whose MCP clients get `surface`'s task tools.
    pub fn of(path: &str, surface: Surface) -> Door {
        if path == "/mcp" || path.starts_with("/mcp/") {
            return match surface {
                Surface::Agent => Door::Agent,
                Surface::Harness => Door::Harness,
            };
        }
        if AGENT_PATHS.contains(&path) {
            Door::Agent
        } else {
            Door::Harness
        }
    }
}

/// Who may talk to the HTTP server.
#[derive(Debug, Clone)]
pub struct Guard {
    /// Host names (without port) accepted in `Host` and `Origin`.
    pub allowed_hosts: Vec<String>,
    /// The port the server listens on: an `Origin` must name it (a page of another local server is
    /// another origin).
    pub port: u16,
    /// When set, the agent's door needs `Authorization: Bearer <token>`.
    pub token: Option<String>,
    /// The harness's door needs this token; `None`: this server has no harness door (an agent-surface
    /// server of a run) and refuses every harness path.
    pub harness_token: Option<String>,
    /// Which task tools `/mcp` serves, hence which door it is.
    pub surface: Surface,
    /// Whole origins (`scheme://host[:port]`, lower case) accepted besides this server's own: the
    /// page's origin when a reverse proxy serves it under another name or port.
    pub allowed_origins: Vec<String>,
}

/// Why a bind configuration is refused.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    #[error("binding {0} exposes the phone beyond this machine; set a bearer token (--token or DROIDMCP_TOKEN)")]
    TokenRequired(SocketAddr),
    #[error(
        "the bearer token must be printable characters without spaces; got an empty or blank one"
    )]
    BlankToken,
    #[error("the harness token must differ from the agent's token: an agent holding its token would open the harness's door")]
    SameTokens,
    #[error("--allow-origin takes an origin as browsers send it, http(s)://HOST[:PORT] with no path; got {0:?}")]
    BadOrigin(String),
}

fn token_ok(t: &str) -> bool {
    !t.is_empty() && !t.chars().any(|c| c.is_whitespace() || c.is_control())
}

impl Guard {
    /// The guard for a server bound to `bind` (its real address, port included): loopback names
    /// always, plus the bound address and `extra_hosts`; a non-loopback bind requires a token. No
    /// harness door until [`Guard::with_harness`].
    pub fn for_bind(
        bind: SocketAddr,
        token: Option<String>,
        extra_hosts: &[String],
    ) -> Result<Guard, BindError> {
        if token.as_deref().is_some_and(|t| !token_ok(t)) {
            return Err(BindError::BlankToken);
        }
        let loopback = bind.ip().is_loopback();
        if !loopback && token.is_none() {
            return Err(BindError::TokenRequired(bind));
        }
        let mut allowed_hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if !bind.ip().is_unspecified() {
            allowed_hosts.push(bind.ip().to_string());
        }
        allowed_hosts.extend(extra_hosts.iter().map(|h| h.to_ascii_lowercase()));
        Ok(Guard {
            allowed_hosts,
            port: bind.port(),
            token,
            harness_token: None,
            surface: Surface::Agent,
            allowed_origins: Vec::new(),
        })
    }

    /// Also accepts pages from `origins` (each `http(s)://host[:port]`), e.g. the public origin of
    /// a reverse proxy in front of the server.
    pub fn with_origins(mut self, origins: &[String]) -> Result<Guard, BindError> {
        for origin in origins {
            let lower = origin.trim_end_matches('/').to_ascii_lowercase();
            let authority = lower
                .strip_prefix("http://")
                .or_else(|| lower.strip_prefix("https://"));
            if authority.and_then(host_and_port).is_none() {
                return Err(BindError::BadOrigin(origin.clone()));
            }
            self.allowed_origins.push(lower);
        }
        Ok(self)
    }

    /// Opens the harness's door to `token` (which must differ from the agent's).
    pub fn with_harness(mut self, token: String) -> Result<Guard, BindError> {
        if !token_ok(&token) {
            return Err(BindError::BlankToken);
        }
        if self
            .token
            .as_deref()
            .is_some_and(|t| constant_time_eq(t.as_bytes(), token.as_bytes()))
        {
            return Err(BindError::SameTokens);
        }
        self.harness_token = Some(token);
        Ok(self)
    }

    /// Makes `/mcp` the door of `surface`'s task tools.
    pub fn with_surface(mut self, surface: Surface) -> Guard {
        self.surface = surface;
        self
    }

    /// Whether `authority` (`host[:port]`, nothing else) names an allowed host.
    fn host_allowed(&self, authority: &str) -> bool {
        let Some((name, _)) = host_and_port(authority) else {
            return false;
        };
        self.allowed_hosts
            .iter()
            .any(|h| h.eq_ignore_ascii_case(&name))
    }

    /// Whether an `Origin` (`scheme://host[:port]`) is this server: an allowed host on our port.
    fn origin_allowed(&self, origin: &str) -> bool {
        let lower = origin.to_ascii_lowercase();
        if self.allowed_origins.contains(&lower) {
            return true;
        }
        let (authority, default_port) = if let Some(a) = lower.strip_prefix("http://") {
            (a, 80)
        } else if let Some(a) = lower.strip_prefix("https://") {
            (a, 443)
        } else {
            return false;
        };
        let Some((name, port)) = host_and_port(authority) else {
            return false;
        };
        port.unwrap_or(default_port) == self.port
            && self
                .allowed_hosts
                .iter()
                .any(|h| h.eq_ignore_ascii_case(&name))
    }

    /// Checks one request to `path`; `Err` is the response to send instead.
    pub fn check(&self, path: &str, headers: &HeaderMap) -> Result<(), (StatusCode, &'static str)> {
        // Two Host (or Origin) headers are a smuggling attempt or a broken proxy; neither is a client
        // we should guess for.
        if headers.get_all(header::HOST).iter().count() > 1 {
            return Err((
                StatusCode::BAD_REQUEST,
                "bad request: more than one Host header",
            ));
        }
        if headers.get_all(header::ORIGIN).iter().count() > 1 {
            return Err((
                StatusCode::FORBIDDEN,
                "forbidden: more than one Origin header",
            ));
        }
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .ok_or((StatusCode::FORBIDDEN, "forbidden: missing Host header"))?;
        if !self.host_allowed(host) {
            return Err((
                StatusCode::FORBIDDEN,
                "forbidden: Host header is not allowed",
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin
                .to_str()
                .map_err(|_| (StatusCode::FORBIDDEN, "forbidden: invalid Origin header"))?;
            if !self.origin_allowed(origin) {
                return Err((
                    StatusCode::FORBIDDEN,
                    "forbidden: Origin header is not allowed",
                ));
            }
        }
        let presented = presented_tokens(headers);
        let holds = |t: &Option<String>| {
            t.as_deref().is_some_and(|t| {
                presented
                    .iter()
                    .any(|p| constant_time_eq(p.as_bytes(), t.as_bytes()))
            })
        };
        // The harness token opens both doors: the harness drives phones too.
        if holds(&self.harness_token) {
            return Ok(());
        }
        match Door::of(path, self.surface) {
            Door::Agent if self.token.is_none() || holds(&self.token) => Ok(()),
            Door::Agent => Err((
                StatusCode::UNAUTHORIZED,
                "unauthorized: bearer token required",
            )),
            Door::Harness if self.harness_token.is_none() => Err((
                StatusCode::FORBIDDEN,
                "forbidden: this server serves agents only; the harness API is not here",
            )),
            Door::Harness if holds(&self.token) => Err((
                StatusCode::FORBIDDEN,
                "forbidden: this is the harness's API (tasks, episodes, runs, replays, review); \
                 the agent's token does not open it, only the harness token does",
            )),
            Door::Harness => Err((
                StatusCode::UNAUTHORIZED,
                "unauthorized: the harness token is required here (serve prints where it is kept)",
            )),
        }
    }

    /// Wraps `router` so every route passes [`Guard::check`] first.
    pub fn layer(self, router: axum::Router) -> axum::Router {
        router.layer(axum::middleware::from_fn_with_state(Arc::new(self), guard))
    }
}

/// The tokens a request presents: `Authorization: Bearer` and the page's cookie (a browser cannot
/// add the header to a page load or an EventSource; the token form stores it in a same-site cookie,
/// see `crate::web`).
fn presented_tokens(headers: &HeaderMap) -> Vec<String> {
    let mut out: Vec<String> = headers
        .get_all(header::AUTHORIZATION)
        .iter()
        .filter_map(|h| h.to_str().ok())
        .filter_map(bearer_credentials)
        .map(String::from)
        .collect();
    out.extend(crate::web::token_cookie(headers));
    out
}

/// Who is asking, for the per-client share of MCP sessions: the token it presented, else its address.
pub fn client_key(headers: &HeaderMap, peer: Option<IpAddr>) -> ClientKey {
    match presented_tokens(headers).first() {
        Some(t) => ClientKey::token(t),
        None => ClientKey::peer(peer),
    }
}

async fn guard(State(g): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    match g.check(req.uri().path(), req.headers()) {
        Ok(()) => next.run(req).await,
        Err((status, _)) if status == StatusCode::UNAUTHORIZED && req.uri().path() == "/" => {
            crate::web::token_form()
        }
        Err((status, msg)) => {
            let mut resp = (status, msg).into_response();
            if status == StatusCode::UNAUTHORIZED {
                resp.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    header::HeaderValue::from_static("Bearer"),
                );
            }
            resp
        }
    }
}

/// The host and port of an authority that is exactly `host[:port]` (RFC 9110 `Host`; an `Origin`'s
/// part after the scheme): `example.com:8080` → (`example.com`, 8080), `[::1]` → (`::1`, none).
/// `None` for anything else, such as user info (`127.0.0.1:80@evil.com`), a path, or an empty or
/// non-numeric port.
fn host_and_port(authority: &str) -> Option<(String, Option<u16>)> {
    let a = authority.trim();
    let port = |p: &str| -> Option<u16> {
        if p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        p.parse().ok()
    };
    if let Some(rest) = a.strip_prefix('[') {
        let (ip, tail) = rest.split_once(']')?;
        ip.parse::<std::net::Ipv6Addr>().ok()?;
        let p = match tail {
            "" => None,
            t => Some(port(t.strip_prefix(':')?)?),
        };
        return Some((ip.to_ascii_lowercase(), p));
    }
    let (host, p) = match a.split_once(':') {
        Some((h, p)) => (h, Some(port(p)?)),
        None => (a, None),
    };
    let reg_name = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    (reg_name || host.parse::<IpAddr>().is_ok()).then(|| (host.to_ascii_lowercase(), p))
}

/// The credentials of `Authorization: Bearer <token>`; the scheme is case-insensitive (RFC 9110), the
/// token one run of non-space characters.
fn bearer_credentials(value: &str) -> Option<&str> {
    let (scheme, rest) = value.trim().split_once(' ')?;
    let token = rest.trim_start_matches(' ');
    (scheme.eq_ignore_ascii_case("bearer")
        && !token.is_empty()
        && !token.chars().any(char::is_whitespace))
    .then_some(token)
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// How many MCP sessions the HTTP transport keeps at once (see [`super::sessions`] for who makes room).
pub const MAX_SESSIONS: usize = 64;

/// How long a client may take to send a request's headers; a connection that sends none (or half)
/// is closed after this, so idle sockets cannot pile up.
pub const HEADER_READ: Duration = Duration::from_secs(10);

/// What the `/mcp` middleware needs: the server and its session table.
struct Gate {
    sessions: Arc<Sessions>,
}

/// The MCP endpoint as an axum router (`/mcp`), unguarded; `shutdown` ends its sessions.
pub fn mcp_routes(state: Arc<ServerState>, shutdown: CancellationToken) -> axum::Router {
    mcp_routes_with(state, shutdown, super::sessions::Limits::default())
}

/// [`mcp_routes`] with session limits of the caller's choosing.
pub fn mcp_routes_with(
    state: Arc<ServerState>,
    shutdown: CancellationToken,
    limits: super::sessions::Limits,
) -> axum::Router {
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown)
        // The Guard checks Host/Origin for every route, with the bind-aware allow list.
        .disable_allowed_hosts();
    let mut manager = LocalSessionManager::default();
    // A backstop only: the session table closes sessions idle past `idle_max` itself.
    manager.session_config.keep_alive = Some(limits.idle_max + Duration::from_secs(60));
    let manager = Arc::new(manager);
    let gate = Arc::new(Gate {
        sessions: Sessions::new(manager.clone(), limits),
    });
    let service =
        StreamableHttpService::new(move || Ok(DroidMcp::new(state.clone())), manager, config);
    axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(gate, screen_request))
}

/// Before rmcp sees a request: answers a body that is not a usable JSON-RPC message with the error
/// [`inbound::check`] gives, finds an `initialize` a place among the sessions (503 when none can be
/// made), and keeps a session marked busy while a request of it runs.
async fn screen_request(State(gate): State<Arc<Gate>>, req: Request, next: Next) -> Response {
    let session = req
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    if req.method() == axum::http::Method::DELETE {
        let resp = next.run(req).await;
        if let (Some(id), true) = (session, resp.status().is_success()) {
            gate.sessions.forget(&id);
        }
        return resp;
    }
    if req.method() != axum::http::Method::POST {
        return next.run(req).await;
    }
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    let client = client_key(req.headers(), peer);
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, inbound::MAX_MESSAGE_BYTES).await {
        Ok(b) => b,
        Err(_) => {
            let e = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
                "message": format!("parse error: body longer than {} bytes", inbound::MAX_MESSAGE_BYTES)}});
            return (StatusCode::PAYLOAD_TOO_LARGE, axum::Json(e)).into_response();
        }
    };
    if let Err(reply) = inbound::check(&bytes) {
        let status = if reply["error"]["code"] == -32700 {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::OK
        };
        return (status, axum::Json(reply)).into_response();
    }
    let req = Request::from_parts(parts, axum::body::Body::from(bytes.clone()));
    if let Some(id) = session {
        let running = gate.sessions.begin(&id);
        let resp = next.run(req).await;
        return match running {
            Some(r) => held_until_sent(resp, r),
            None => resp,
        };
    }
    // Only `initialize` opens a session; any other request without a session id is stateless
    // (protocol 2026-07-28) or refused by rmcp, and takes no place.
    let initialize = serde_json::from_slice::<serde_json::Value>(&bytes)
        .is_ok_and(|v| v["method"] == "initialize");
    if !initialize {
        return next.run(req).await;
    }
    let place = match gate.sessions.admit(client).await {
        Ok(p) => p,
        Err(busy) => {
            let e = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000,
                "message": format!("{busy}; idle sessions are closed to make room, least recently used first, \
                    so this clears as soon as one request ends")}});
            let mut resp = (StatusCode::SERVICE_UNAVAILABLE, axum::Json(e)).into_response();
            resp.headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
            return resp;
        }
    };
    let resp = next.run(req).await;
    if let Some(id) = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
    {
        place.opened(id);
    }
    resp
}

/// `resp` with its body holding `running` until the body is sent or dropped (rmcp answers a request
/// with an SSE stream whose headers go out before the tool has run).
fn held_until_sent(resp: Response, running: super::sessions::Running) -> Response {
    use futures::StreamExt;
    let (parts, body) = resp.into_parts();
    let stream = body.into_data_stream().map(move |chunk| {
        let _held = &running;
        chunk
    });
    Response::from_parts(parts, axum::body::Body::from_stream(stream))
}

/// The whole HTTP app: `/mcp` plus `extra` routes (e.g. the REST API), all behind `guard`.
pub fn router(
    state: Arc<ServerState>,
    guard: Guard,
    extra: Option<axum::Router>,
    shutdown: CancellationToken,
) -> axum::Router {
    let mut app = mcp_routes(state, shutdown);
    if let Some(extra) = extra {
        app = app.merge(extra);
    }
    guard.layer(app)
}

/// Serves `app` on `listener` until `shutdown` is cancelled, with the [`HEADER_READ`] limit.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    serve_with(listener, app, shutdown, HEADER_READ).await
}

/// [`serve`] with a header-read limit of the caller's choosing. Requests carry the peer's address as
/// `ConnectInfo<SocketAddr>`. On shutdown, connections finish the request they are answering.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    shutdown: CancellationToken,
    header_read: Duration,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;
    // HTTP/1.1 only, as axum's default `serve` was.
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_read);
    // Every connection task holds a receiver; shutdown waits until all are gone.
    let (all_closed, open) = tokio::sync::watch::channel(());
    loop {
        let (tcp, peer) = tokio::select! {
            _ = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors or a connection reset before accept: the listener is fine.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        // Replies are small writes answered by the next request: with Nagle's algorithm on, each
        // waits for the client's delayed ACK (40 ms on Linux), which was the whole cost of a call.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY on an accepted connection: {e}");
        }
        let app = app.clone();
        let service =
            hyper::service::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
                req.extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                app.clone().oneshot(req.map(axum::body::Body::new))
            });
        let builder = builder.clone();
        let stop = shutdown.clone();
        let open = open.clone();
        tokio::spawn(async move {
            let conn = builder
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            let served = tokio::select! {
                r = conn.as_mut() => r,
                _ = stop.cancelled() => {
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            if let Err(e) = served {
                tracing::debug!("connection from {peer}: {e}");
            }
            drop(open);
        });
    }
    drop(open);
    all_closed.closed().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn origins_passed_by_the_operator_are_accepted_whole_and_nothing_near_them() {
        let g = Guard::for_bind(
            "127.0.0.1:8765".parse().unwrap(),
            None,
            &["phone.example.com".to_string()],
        )
        .unwrap()
        .with_origins(&["https://Phone.example.com/".to_string()])
        .unwrap();
        let check = |origin: &str| {
            g.check(
                "/mcp",
                &headers(&[("host", "phone.example.com"), ("origin", origin)]),
            )
        };
        assert!(check("https://phone.example.com").is_ok());
        for other in [
            "http://phone.example.com",
            "https://phone.example.com:8443",
            "https://evil.phone.example.com",
            "https://phone.example.com.evil",
        ] {
            assert!(check(other).is_err(), "{other}");
        }
        for bad in [
            "phone.example.com",
            "https://phone.example.com/app",
            "ftp://x",
            "https://",
        ] {
            let refused = Guard::for_bind("127.0.0.1:8765".parse().unwrap(), None, &[])
                .unwrap()
                .with_origins(&[bad.to_string()]);
            assert!(matches!(refused, Err(BindError::BadOrigin(_))), "{bad}");
        }
    }

    #[test]
    fn loopback_guard_rejects_foreign_host_and_origin() {
        let g = Guard::for_bind("127.0.0.1:8765".parse().unwrap(), None, &[]).unwrap();
        let check = |h: &[(&'static str, &str)]| g.check("/mcp", &headers(h));
        assert!(check(&[("host", "127.0.0.1:8765")]).is_ok());
        assert!(check(&[("host", "localhost:8765")]).is_ok());
        assert!(check(&[("host", "[::1]:8765")]).is_ok());
        assert_eq!(
            check(&[("host", "evil.example:8765")]).unwrap_err().0,
            StatusCode::FORBIDDEN
        );
        assert!(check(&[("host", "localhost"), ("origin", "http://localhost:8765")]).is_ok());
        // Another port on this machine is another origin (another local web app).
        for origin in [
            "http://localhost:3000",
            "http://localhost",
            "https://localhost",
            "http://evil.example:8765",
            "null",
        ] {
            assert!(
                check(&[("host", "localhost"), ("origin", origin)]).is_err(),
                "{origin}"
            );
        }
        // Two Host headers, or two Origins, are refused whatever they say.
        assert!(check(&[("host", "localhost"), ("host", "localhost")]).is_err());
        assert!(check(&[
            ("host", "localhost"),
            ("origin", "http://localhost:8765"),
            ("origin", "http://localhost:8765")
        ])
        .is_err());
        assert!(g.check("/mcp", &HeaderMap::new()).is_err());
        let https = Guard::for_bind("127.0.0.1:443".parse().unwrap(), None, &[]).unwrap();
        assert!(https
            .check(
                "/mcp",
                &headers(&[("host", "localhost"), ("origin", "https://localhost")])
            )
            .is_ok());
    }

    #[test]
    fn non_loopback_bind_needs_a_token_and_checks_it() {
        let bind: SocketAddr = "0.0.0.0:8765".parse().unwrap();
        assert!(Guard::for_bind(bind, None, &[]).is_err());
        let g = Guard::for_bind(bind, Some("s3cret".into()), &["phone.lan".into()]).unwrap();
        let ok = headers(&[
            ("host", "phone.lan:8765"),
            ("authorization", "Bearer s3cret"),
        ]);
        assert!(g.check("/mcp", &ok).is_ok());
        let wrong = headers(&[("host", "phone.lan:8765"), ("authorization", "Bearer nope")]);
        assert_eq!(
            g.check("/mcp", &wrong).unwrap_err().0,
            StatusCode::UNAUTHORIZED
        );
        let none = headers(&[("host", "phone.lan:8765")]);
        assert_eq!(
            g.check("/mcp", &none).unwrap_err().0,
            StatusCode::UNAUTHORIZED
        );
    }

    #[test]
    fn the_agents_token_opens_the_phone_and_only_the_harness_token_opens_the_answer_key() {
        let bind: SocketAddr = "127.0.0.1:8765".parse().unwrap();
        let g = Guard::for_bind(bind, Some("agent".into()), &[])
            .unwrap()
            .with_harness("harness".into())
            .unwrap();
        let with = |t: Option<&str>| {
            let mut h = headers(&[("host", "localhost:8765")]);
            if let Some(t) = t {
                h.insert("authorization", format!("Bearer {t}").parse().unwrap());
            }
            h
        };
        let harness = [
            "/",
            "/v1/tasks",
            "/v1/tasks/aw.x/start",
            "/v1/episodes/e1/check",
            "/v1/episodes/e1/export",
            "/v1/episodes/e1/watch",
            "/v1/replays",
            "/v1/runs",
            "/v1/review",
            "/v1/demos",
            "/v1/something-added-later",
            "//v1/tasks",
            "/v1/screen/../tasks",
        ];
        for path in harness {
            assert_eq!(
                g.check(path, &with(Some("agent"))).unwrap_err().0,
                StatusCode::FORBIDDEN,
                "{path}"
            );
            assert_eq!(
                g.check(path, &with(None)).unwrap_err().0,
                StatusCode::UNAUTHORIZED,
                "{path}"
            );
            assert!(g.check(path, &with(Some("harness"))).is_ok(), "{path}");
        }
        for path in [
            "/mcp",
            "/v1/screen",
            "/v1/actions",
            "/v1/events",
            "/openapi.json",
        ] {
            assert!(g.check(path, &with(Some("agent"))).is_ok(), "{path}");
            assert!(g.check(path, &with(Some("harness"))).is_ok(), "{path}");
            assert_eq!(
                g.check(path, &with(None)).unwrap_err().0,
                StatusCode::UNAUTHORIZED
            );
        }
        // A harness-mode server's /mcp hands out the answer key: the harness's door.
        let hm = g.clone().with_surface(Surface::Harness);
        assert_eq!(
            hm.check("/mcp", &with(Some("agent"))).unwrap_err().0,
            StatusCode::FORBIDDEN
        );
        assert!(hm.check("/mcp", &with(Some("harness"))).is_ok());
        // No harness token: no harness door at all, even on a token-less loopback bind.
        let agents_only = Guard::for_bind(bind, None, &[]).unwrap();
        assert!(agents_only.check("/mcp", &with(None)).is_ok());
        assert_eq!(
            agents_only.check("/v1/tasks", &with(None)).unwrap_err().0,
            StatusCode::FORBIDDEN
        );
        assert!(matches!(
            Guard::for_bind(bind, Some("same".into()), &[])
                .unwrap()
                .with_harness("same".into()),
            Err(BindError::SameTokens)
        ));
    }

    #[test]
    fn host_origin_and_authorization_are_parsed_strictly() {
        let g =
            Guard::for_bind("127.0.0.1:8765".parse().unwrap(), Some("t0k".into()), &[]).unwrap();
        let auth = ("authorization", "Bearer t0k");
        for host in [
            "127.0.0.1:8765@evil.com",
            "127.0.0.1:",
            "127.0.0.1:80x",
            "127.0.0.1:99999",
            "127.0.0.1/x",
            "",
            "[::1",
            "[::1]:",
            "evil.com#127.0.0.1",
        ] {
            assert_eq!(
                g.check("/mcp", &headers(&[("host", host), auth]))
                    .unwrap_err()
                    .0,
                StatusCode::FORBIDDEN,
                "{host}"
            );
        }
        assert!(g
            .check("/mcp", &headers(&[("host", "LOCALHOST:8765"), auth]))
            .is_ok());
        for origin in [
            "http://localhost:1@evil.com",
            "http://localhost/",
            "http://localhost:8765/",
            "ftp://localhost:8765",
            "null",
        ] {
            let h = headers(&[("host", "localhost"), ("origin", origin), auth]);
            assert_eq!(
                g.check("/mcp", &h).unwrap_err().0,
                StatusCode::FORBIDDEN,
                "{origin}"
            );
        }
        assert!(g
            .check(
                "/mcp",
                &headers(&[
                    ("host", "localhost"),
                    ("origin", "HTTP://Localhost:8765"),
                    auth
                ])
            )
            .is_ok());
        for value in ["bearer t0k", "BEARER t0k", "Bearer   t0k"] {
            assert!(
                g.check(
                    "/mcp",
                    &headers(&[("host", "localhost"), ("authorization", value)])
                )
                .is_ok(),
                "{value}"
            );
        }
        for value in [
            "Bearer",
            "Bearer ",
            "Basic t0k",
            "Bearer t0k extra",
            "Bearert0k",
        ] {
            let h = headers(&[("host", "localhost"), ("authorization", value)]);
            assert_eq!(
                g.check("/mcp", &h).unwrap_err().0,
                StatusCode::UNAUTHORIZED,
                "{value}"
            );
        }
        for blank in ["", "   ", "a b"] {
            assert!(matches!(
                Guard::for_bind("127.0.0.1:1".parse().unwrap(), Some(blank.into()), &[]),
                Err(BindError::BlankToken)
            ));
        }
    }
}

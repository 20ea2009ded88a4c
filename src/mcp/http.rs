//! The HTTP side: MCP's streamable HTTP transport mounted at `/mcp` in an axum router, behind a guard
//! that rejects foreign `Host`/`Origin` headers (DNS rebinding) and, when configured, requests without
//! the bearer token.
//!
//! [`router`] builds the app so other front ends (the REST API in `src/http/`) can `merge` their routes
//! beside `/mcp` and get the same guard by wrapping with [`Guard::layer`].

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::{inbound, DroidMcp, ServerState};

/// Who may talk to the HTTP server.
#[derive(Debug, Clone)]
pub struct Guard {
    /// Host names (without port) accepted in `Host` and `Origin`.
    pub allowed_hosts: Vec<String>,
    /// When set, every request needs `Authorization: Bearer <token>`.
    pub token: Option<String>,
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
}

impl Guard {
    /// The guard for a server bound to `bind`: loopback names always, plus the bound address and
    /// `extra_hosts`; a non-loopback bind requires a token.
    pub fn for_bind(
        bind: SocketAddr,
        token: Option<String>,
        extra_hosts: &[String],
    ) -> Result<Guard, BindError> {
        if let Some(t) = &token {
            if t.is_empty() || t.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(BindError::BlankToken);
            }
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
            token,
        })
    }

    /// Whether `authority` (`host[:port]`, nothing else) names an allowed host.
    fn host_allowed(&self, authority: &str) -> bool {
        let Some(name) = host_name(authority) else {
            return false;
        };
        self.allowed_hosts
            .iter()
            .any(|h| h.eq_ignore_ascii_case(&name))
    }

    /// Checks one request's headers; `Err` is the response to send instead.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), (StatusCode, &'static str)> {
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
            let lower = origin.to_ascii_lowercase();
            let authority = lower
                .strip_prefix("http://")
                .or_else(|| lower.strip_prefix("https://"))
                .ok_or((
                    StatusCode::FORBIDDEN,
                    "forbidden: Origin header is not allowed",
                ))?;
            if !self.host_allowed(authority) {
                return Err((
                    StatusCode::FORBIDDEN,
                    "forbidden: Origin header is not allowed",
                ));
            }
        }
        if let Some(token) = &self.token {
            let presented = headers
                .get(header::AUTHORIZATION)
                .and_then(|h| h.to_str().ok())
                .and_then(bearer_credentials);
            // A browser cannot add the header to a page load or an EventSource; the live page's
            // token form stores it in a same-site cookie instead (see `crate::web`).
            let cookie = crate::web::token_cookie(headers);
            let matches = |p: &str| constant_time_eq(p.as_bytes(), token.as_bytes());
            if !presented.is_some_and(matches) && !cookie.is_some_and(|c| matches(&c)) {
                return Err((
                    StatusCode::UNAUTHORIZED,
                    "unauthorized: bearer token required",
                ));
            }
        }
        Ok(())
    }

    /// Wraps `router` so every route passes [`Guard::check`] first.
    pub fn layer(self, router: axum::Router) -> axum::Router {
        router.layer(axum::middleware::from_fn_with_state(Arc::new(self), guard))
    }
}

async fn guard(State(g): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    match g.check(req.headers()) {
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

/// The host of an authority that is exactly `host[:port]` (RFC 9110 `Host`; an `Origin`'s part after
/// the scheme): `example.com:8080` → `example.com`, `[::1]:80` → `::1`. `None` for anything else,
/// such as user info (`127.0.0.1:80@evil.com`), a path, or an empty or non-numeric port.
fn host_name(authority: &str) -> Option<String> {
    let a = authority.trim();
    let port_ok = |p: &str| {
        p.is_empty()
            || (p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) && p.parse::<u16>().is_ok())
    };
    if let Some(rest) = a.strip_prefix('[') {
        let (ip, tail) = rest.split_once(']')?;
        ip.parse::<std::net::Ipv6Addr>().ok()?;
        let port = match tail {
            "" => "",
            t => t.strip_prefix(':').filter(|p| !p.is_empty())?,
        };
        return port_ok(port).then(|| ip.to_ascii_lowercase());
    }
    let (host, port) = match a.split_once(':') {
        Some((h, p)) => (h, Some(p)),
        None => (a, None),
    };
    if port.is_some_and(|p| p.is_empty() || !port_ok(p)) {
        return None;
    }
    let reg_name = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
    (reg_name || host.parse::<IpAddr>().is_ok()).then(|| host.to_ascii_lowercase())
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

/// How many MCP sessions the HTTP transport keeps at once; an `initialize` beyond it gets 503. Idle
/// sessions end after [`SESSION_IDLE`], so a client that forgets to close frees its place.
pub const MAX_SESSIONS: usize = 64;
pub const SESSION_IDLE: std::time::Duration = std::time::Duration::from_secs(600);

/// The MCP endpoint as an axum router (`/mcp`), unguarded; `shutdown` ends its sessions.
pub fn mcp_routes(state: Arc<ServerState>, shutdown: CancellationToken) -> axum::Router {
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown)
        // The Guard checks Host/Origin for every route, with the bind-aware allow list.
        .disable_allowed_hosts();
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_IDLE);
    let factory_state = state.clone();
    let service = StreamableHttpService::new(
        move || Ok(DroidMcp::new(factory_state.clone())),
        sessions.into(),
        config,
    );
    axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn_with_state(state, screen_request))
}

/// Before rmcp sees a POST: refuses a new session when [`MAX_SESSIONS`] are open (503), and answers
/// a body that is not a usable JSON-RPC message with the error [`inbound::check`] gives.
async fn screen_request(
    State(state): State<Arc<ServerState>>,
    req: Request,
    next: Next,
) -> Response {
    if req.method() != axum::http::Method::POST {
        return next.run(req).await;
    }
    let new_session = !req.headers().contains_key("mcp-session-id");
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
    if new_session && state.connections() >= MAX_SESSIONS {
        let e = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000,
            "message": format!("server busy: {MAX_SESSIONS} MCP sessions are open, the most this server keeps; \
                close one (HTTP DELETE /mcp with its Mcp-Session-Id) or retry after idle ones expire ({} s)",
                SESSION_IDLE.as_secs())}});
        let mut resp = (StatusCode::SERVICE_UNAVAILABLE, axum::Json(e)).into_response();
        resp.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("30"));
        return resp;
    }
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes)))
        .await
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

/// Serves `app` on `listener` until `shutdown` is cancelled.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    // Replies are small writes answered by the next request: with Nagle's algorithm on, each waits
    // for the client's delayed ACK (40 ms on Linux), which was the whole cost of a call over HTTP.
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY on an accepted connection: {e}");
        }
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn loopback_guard_rejects_foreign_host_and_origin() {
        let g = Guard::for_bind("127.0.0.1:8765".parse().unwrap(), None, &[]).unwrap();
        assert!(g.check(&headers(&[("host", "127.0.0.1:8765")])).is_ok());
        assert!(g.check(&headers(&[("host", "localhost:8765")])).is_ok());
        assert!(g.check(&headers(&[("host", "[::1]:8765")])).is_ok());
        assert_eq!(
            g.check(&headers(&[("host", "evil.example:8765")]))
                .unwrap_err()
                .0,
            StatusCode::FORBIDDEN
        );
        assert!(g
            .check(&headers(&[
                ("host", "localhost"),
                ("origin", "http://localhost:3000")
            ]))
            .is_ok());
        assert!(g
            .check(&headers(&[
                ("host", "localhost"),
                ("origin", "http://evil.example")
            ]))
            .is_err());
        assert!(g
            .check(&headers(&[("host", "localhost"), ("origin", "null")]))
            .is_err());
        assert!(g.check(&HeaderMap::new()).is_err());
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
        assert!(g.check(&ok).is_ok());
        let wrong = headers(&[("host", "phone.lan:8765"), ("authorization", "Bearer nope")]);
        assert_eq!(g.check(&wrong).unwrap_err().0, StatusCode::UNAUTHORIZED);
        let none = headers(&[("host", "phone.lan:8765")]);
        assert_eq!(g.check(&none).unwrap_err().0, StatusCode::UNAUTHORIZED);
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
            "127.0.0.1/x",
            "",
            "[::1",
            "evil.com#127.0.0.1",
        ] {
            assert_eq!(
                g.check(&headers(&[("host", host), auth])).unwrap_err().0,
                StatusCode::FORBIDDEN,
                "{host}"
            );
        }
        assert!(g
            .check(&headers(&[("host", "LOCALHOST:8765"), auth]))
            .is_ok());
        for origin in [
            "http://localhost:1@evil.com",
            "http://localhost/",
            "ftp://localhost",
            "null",
        ] {
            let h = headers(&[("host", "localhost"), ("origin", origin), auth]);
            assert_eq!(
                g.check(&h).unwrap_err().0,
                StatusCode::FORBIDDEN,
                "{origin}"
            );
        }
        assert!(g
            .check(&headers(&[
                ("host", "localhost"),
                ("origin", "HTTP://Localhost:3000"),
                auth
            ]))
            .is_ok());
        for value in ["bearer t0k", "BEARER t0k", "Bearer   t0k"] {
            assert!(
                g.check(&headers(&[("host", "localhost"), ("authorization", value)]))
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
                g.check(&h).unwrap_err().0,
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

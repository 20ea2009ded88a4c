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

use super::{DroidMcp, ServerState};

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
}

impl Guard {
    /// The guard for a server bound to `bind`: loopback names always, plus the bound address and
    /// `extra_hosts`; a non-loopback bind requires a token.
    pub fn for_bind(
        bind: SocketAddr,
        token: Option<String>,
        extra_hosts: &[String],
    ) -> Result<Guard, BindError> {
        let token = token.filter(|t| !t.is_empty());
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

    fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host);
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
            let authority = origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                .ok_or((
                    StatusCode::FORBIDDEN,
                    "forbidden: Origin header is not allowed",
                ))?;
            if !self.host_allowed(authority.trim_end_matches('/')) {
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
                .and_then(|h| h.strip_prefix("Bearer "))
                .map(str::trim);
            if !presented.is_some_and(|p| constant_time_eq(p.as_bytes(), token.as_bytes())) {
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

/// `example.com:8080` → `example.com`; `[::1]:80` → `::1`.
fn host_name(authority: &str) -> String {
    let a = authority.trim();
    if let Some(rest) = a.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("").to_ascii_lowercase();
    }
    if a.parse::<IpAddr>().is_ok() {
        return a.to_ascii_lowercase();
    }
    a.rsplit_once(':')
        .map(|(h, _)| h)
        .unwrap_or(a)
        .to_ascii_lowercase()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The MCP endpoint as an axum router (`/mcp`), unguarded; `shutdown` ends its sessions.
pub fn mcp_routes(state: Arc<ServerState>, shutdown: CancellationToken) -> axum::Router {
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown)
        // The Guard checks Host/Origin for every route, with the bind-aware allow list.
        .disable_allowed_hosts();
    let service = StreamableHttpService::new(
        move || Ok(DroidMcp::new(state.clone())),
        LocalSessionManager::default().into(),
        config,
    );
    axum::Router::new().nest_service("/mcp", service)
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
}

//! The live page at `/`: plain HTML, CSS and JavaScript compiled into the binary (no build step),
//! a front end over the REST API (`/v1/…`) and its change feed (`/v1/events`). It holds no logic
//! of its own beyond drawing and turning pointer gestures into `POST /v1/actions` calls; see
//! `docs/web.md`.

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const STYLE: &str = include_str!("assets/app.css");
const TOKEN_FORM: &str = include_str!("assets/token.html");

/// The cookie the token form sets; the guard accepts it like `Authorization: Bearer`.
pub const TOKEN_COOKIE: &str = "droidmcp_token";

/// The token a browser presented in the [`TOKEN_COOKIE`] cookie (percent-decoded, as the form
/// stores it with `encodeURIComponent`).
pub fn token_cookie(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == TOKEN_COOKIE)
        .and_then(|(_, value)| percent_decode(value))
}

fn percent_decode(s: &str) -> Option<String> {
    let mut out = Vec::with_capacity(s.len());
    let mut bytes = s.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex = [bytes.next()?, bytes.next()?];
            out.push(u8::from_str_radix(std::str::from_utf8(&hex).ok()?, 16).ok()?);
        } else {
            out.push(b);
        }
    }
    String::from_utf8(out).ok()
}

/// What a browser gets at `/` when the server has a token and the request carries none: a form
/// (no phone data) that keeps the token in a same-site cookie, also filled from `/#token=…`.
pub fn token_form() -> axum::response::Response {
    (
        axum::http::StatusCode::UNAUTHORIZED,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::WWW_AUTHENTICATE, "Bearer"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        TOKEN_FORM,
    )
        .into_response()
}

fn asset(mime: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, mime),
            // The page is tiny and changes with the binary; never serve a stale copy.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// `/`, `/web/app.js`, `/web/app.css`.
pub fn router() -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX) }),
        )
        .route(
            "/web/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/web/app.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
        .route("/web/fallback.ttf", get(fallback_font))
}

/// The embedded phone's CJK fallback font, so the element panel shows what the phone shows even on
/// a host without CJK fonts.
async fn fallback_font() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "font/ttf"),
            (header::CACHE_CONTROL, "max-age=86400"),
        ],
        crate::sim::render::text::DROID_FALLBACK,
    )
}

/// Everything served beside `/mcp`: the task routes, the phone routes, `/openapi.json` and this
/// page. The caller wraps the result (with `/mcp`) in the one HTTP guard.
/// Demonstration datasets go to `datasets/` beside the episode store.
pub fn routes(
    state: std::sync::Arc<crate::mcp::ServerState>,
    episodes: std::sync::Arc<crate::episode::Episodes>,
    datasets: std::path::PathBuf,
) -> Router {
    let episodes_for_phones = episodes.clone();
    let episodes_for_review = episodes.clone();
    let runs = crate::http::runs::Runs::new(episodes.catalog().clone(), episodes.store().cloned());
    crate::http::router(episodes)
        .merge(crate::http::review::router(episodes_for_review))
        .merge(crate::http::runs::router(runs))
        .merge(crate::http::phone::router(crate::http::phone::Phones::new(
            state,
            episodes_for_phones,
            datasets,
        )))
        .merge(crate::http::openapi::router())
        .merge(router())
}

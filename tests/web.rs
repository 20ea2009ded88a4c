//! The live page's server side: the change feed, the phone REST routes with their one error shape,
//! `/openapi.json`, and the guard around all of it. The page itself runs in Chromium in
//! `scripts/suites/web`.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures::StreamExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use droidmcp::episode::{Episodes, PoolDevices};
use droidmcp::mcp::http::Guard;
use droidmcp::mcp::ServerState;
use droidmcp::session::{Action, Control, DevicePool, Hub, Target};
use droidmcp::store::Store;

fn state() -> (Arc<ServerState>, Arc<Episodes>) {
    let state = ServerState::new(Hub::new(Arc::new(DevicePool::new(None, None))));
    let catalog = crate::util::catalog();
    let eps = Arc::new(Episodes::new(
        Arc::new(catalog.clone()),
        Some(Store::in_memory().unwrap()),
        Arc::new(PoolDevices(state.hub.pool().clone())),
    ));
    // As `serve` does: steps of any session on the pool's devices reach their open episode.
    state.hub.pool().set_step_sink(eps.clone());
    (state, eps)
}

/// The routes `serve` mounts beside `/mcp`; datasets go to a temporary directory that lives as
/// long as the returned guard.
fn routes(state: Arc<ServerState>, eps: Arc<Episodes>) -> (axum::Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let app = droidmcp::web::routes(state, eps, dir.path().join("datasets"));
    (app, dir)
}

fn app() -> (axum::Router, tempfile::TempDir) {
    let (state, eps) = state();
    routes(state, eps)
}

fn request(method: &str, uri: &str, body: &str) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

async fn call(app: &axum::Router, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let res = app
        .clone()
        .oneshot(request(method, uri, body))
        .await
        .unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| json!({"raw": String::from_utf8_lossy(&bytes)}));
    (status, value)
}

#[tokio::test]
async fn the_change_feed_wakes_watchers_whoever_acts() {
    let hub = Hub::new(Arc::new(DevicePool::new(None, None)));
    let watcher = hub.open("web", None).await.unwrap();
    let agent = hub.open("mcp", None).await.unwrap();
    let mut rx = watcher.changes().await;
    let start = *rx.borrow_and_update();
    agent
        .act(
            Action::PressKey { key: "home".into() },
            None,
            &Control::default(),
        )
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(5), rx.changed())
        .await
        .expect("the watcher woke")
        .unwrap();
    assert!(*rx.borrow() > start);
    // A refused action never reached the device: watchers are not woken for nothing.
    let before = *rx.borrow_and_update();
    let err = agent
        .act(
            Action::Tap(Target::Element(9999)),
            None,
            &Control::default(),
        )
        .await;
    assert!(err.is_err());
    assert!(!rx.has_changed().unwrap());
    assert_eq!(*rx.borrow_and_update(), before);
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (app, _dir) = app();
    let res = app.clone().oneshot(request("GET", "/", "")).await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    let html = String::from_utf8_lossy(&html);
    assert!(html.contains("/web/app.js") && html.contains("/web/app.css"));
    for (path, mime) in [
        ("/web/app.js", "text/javascript"),
        ("/web/app.css", "text/css"),
        ("/web/fallback.ttf", "font/ttf"),
    ] {
        let res = app.clone().oneshot(request("GET", path, "")).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert!(res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with(mime));
    }
}

#[tokio::test]
async fn rest_acts_through_the_session_and_reads_the_screen_back() {
    let (app, _dir) = app();
    let (status, screen) = call(&app, "GET", "/v1/screen?screenshot=false", "").await;
    assert_eq!(status, StatusCode::OK, "{screen}");
    let clock = screen["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["text"] == "Clock")
        .expect("the launcher shows Clock")
        .clone();
    assert!(clock["selector"].as_str().unwrap().contains("Clock"));
    assert!(screen["compact"]
        .as_str()
        .unwrap()
        .contains(clock["line"].as_str().unwrap()));
    let body = json!({"action": {"kind": "tap", "at": {"element": clock["id"]}}}).to_string();
    let (status, done) = call(&app, "POST", "/v1/actions", &body).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    // The reply says what was hit and what resulted, as the MCP tools do.
    assert_eq!(done["action"], format!("tap #{}", clock["id"]));
    let echo = done["echo"].as_str().unwrap();
    assert!(echo.starts_with(&format!("tap #{}", clock["id"])), "{echo}");
    assert!(
        echo.contains("\"Clock\"") && echo.contains("foreground now com.google.android.deskclock"),
        "{echo}"
    );
    assert_eq!(done["target"]["label"], "Clock");
    assert_eq!(done["foreground"], "com.google.android.deskclock");
    assert_eq!(done["foreground_changed"], true);
    let (_, after) = call(&app, "GET", "/v1/screen?screenshot=true&max_edge=256", "").await;
    assert_eq!(
        after["foreground"]["package"],
        "com.google.android.deskclock"
    );
    assert!(after["generation"].as_u64().unwrap() > screen["generation"].as_u64().unwrap());
    assert!(after["screenshot"]["width"].as_u64().unwrap() <= 256);
    let (_, devices) = call(&app, "GET", "/v1/devices", "").await;
    assert_eq!(devices["default"], "sim");
    assert_eq!(devices["devices"][0]["open"], true);
    let (_, apps) = call(&app, "GET", "/v1/apps", "").await;
    assert!(apps["apps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["package"] == "com.android.settings"));
}

#[tokio::test]
async fn bad_input_answers_in_the_one_error_shape() {
    let (app, _dir) = app();
    let cases: &[(&str, &str, &str, StatusCode, &str)] = &[
        (
            "POST",
            "/v1/actions",
            "{\"action\": ",
            StatusCode::BAD_REQUEST,
            "malformed request body",
        ),
        (
            "POST",
            "/v1/actions",
            "{\"action\": {\"kind\": \"fly\"}}",
            StatusCode::BAD_REQUEST,
            "fly",
        ),
        (
            "POST",
            "/v1/actions",
            "{\"action\": {\"kind\": \"tap\"}}",
            StatusCode::BAD_REQUEST,
            "say where",
        ),
        (
            "POST",
            "/v1/actions",
            "{\"action\": {\"kind\": \"tap\", \"at\": {\"x\": 5}}}",
            StatusCode::BAD_REQUEST,
            "both `x` and `y`",
        ),
        (
            "POST",
            "/v1/actions",
            "{\"action\": {\"kind\": \"press_key\", \"key\": \"warp\"}}",
            StatusCode::BAD_REQUEST,
            "unknown key",
        ),
        (
            "POST",
            "/v1/actions",
            "{\"action\": {\"kind\": \"tap\", \"at\": {\"element\": 4242}}}",
            StatusCode::BAD_REQUEST,
            "not on the current screen",
        ),
        (
            "POST",
            "/v1/actions",
            "{\"device\": \"sim:x\", \"action\": {\"kind\": \"press_key\", \"key\": \"home\"}}",
            StatusCode::NOT_FOUND,
            "unknown device",
        ),
        (
            "GET",
            "/v1/screen?device=sim:zz",
            "",
            StatusCode::NOT_FOUND,
            "unknown device",
        ),
        (
            "GET",
            "/v1/screen?max_edge=5",
            "",
            StatusCode::BAD_REQUEST,
            "max_edge",
        ),
        (
            "GET",
            "/v1/screen?bogus=1",
            "",
            StatusCode::BAD_REQUEST,
            "bad query string",
        ),
    ];
    for (method, uri, body, status, needle) in cases {
        let (got, value) = call(&app, method, uri, body).await;
        assert_eq!(got, *status, "{method} {uri} {body}: {value}");
        let error = value["error"].as_str().unwrap_or_default();
        assert!(error.contains(needle), "{uri} {body}: {value}");
        assert!(value["kind"].is_string(), "{value}");
    }
}

#[tokio::test]
async fn the_event_stream_announces_the_current_generation_then_each_change() {
    let (state, eps) = state();
    let (app, _dir) = routes(state.clone(), eps);
    let res = app
        .clone()
        .oneshot(request("GET", "/v1/events", ""))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let mut stream = res.into_body().into_data_stream();
    let mut next = async || {
        let chunk = tokio::time::timeout(Duration::from_secs(10), stream.next())
            .await
            .expect("an event in time")
            .unwrap()
            .unwrap();
        String::from_utf8(chunk.to_vec()).unwrap()
    };
    let first = next().await;
    assert!(first.starts_with("event: screen\n"), "{first}");
    // An MCP-side session acting on the same phone produces the next event.
    let agent = state.hub.open("mcp", None).await.unwrap();
    agent
        .act(
            Action::PressKey { key: "home".into() },
            None,
            &Control::default(),
        )
        .await
        .unwrap();
    let second = next().await;
    assert!(second.contains("\"generation\":"), "{second}");
    assert_ne!(first, second);
}

#[tokio::test]
async fn the_openapi_document_covers_the_routes_and_the_error_shape() {
    let doc = serde_json::to_value(droidmcp::http::openapi::document()).unwrap();
    for path in [
        "/v1/devices",
        "/v1/screen",
        "/v1/actions",
        "/v1/apps",
        "/v1/events",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }
    // The episode summary, and whether the episode began from a restored phone.
    assert!(doc["paths"]["/v1/episodes/{id}"]["get"].is_object());
    assert!(doc["paths"]["/v1/episodes/{id}/end"]["post"].is_object());
    assert_eq!(
        doc["components"]["schemas"]["Summary"]["properties"]["restored"]["type"],
        "boolean"
    );
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["ErrorBody"]["required"], json!(["error", "kind"]));
    assert!(schemas["ActionIn"].is_object());
    let (app, _dir) = app();
    let (status, served) = call(&app, "GET", "/openapi.json", "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(served, doc);
}

/// Every REST route the server serves, with its methods, read from the routers' source (axum's
/// `Router` cannot list its routes): `.route("PATH", get(…).post(…))` in `src/http` and `src/web`.
fn served_routes() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let method = regex::Regex::new(r"\b(get|post|put|delete|patch)\(").unwrap();
    let mut routes = Vec::new();
    for dir in ["http", "web"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(path).unwrap();
            for call in text.split(".route(").skip(1) {
                // The call's arguments: up to the end of the statement or of the function.
                let call = call.split([';']).next().unwrap();
                let call = call.split("\n}").next().unwrap();
                let path = call.split('"').nth(1).unwrap();
                for m in method.captures_iter(call) {
                    routes.push((m[1].to_string(), path.to_string()));
                }
            }
        }
    }
    routes.sort();
    routes
}

#[test]
fn every_rest_route_served_is_in_the_openapi_document() {
    let doc = serde_json::to_value(droidmcp::http::openapi::document()).unwrap();
    let routes = served_routes();
    assert!(routes.len() >= 30, "{routes:?}");
    // The page and its assets, and the document itself, are no REST API.
    let page = |p: &str| p == "/" || p.starts_with("/web/") || p == "/openapi.json";
    let missing: Vec<String> = routes
        .iter()
        .filter(|(_, path)| !page(path))
        .filter(|(method, path)| !doc["paths"][path][method].is_object())
        .map(|(method, path)| format!("{} {path}", method.to_uppercase()))
        .collect();
    assert!(
        missing.is_empty(),
        "served but not in /openapi.json: {missing:?}"
    );
}

#[tokio::test]
async fn the_guard_wraps_the_page_and_the_rest_routes() {
    let (state, eps) = state();
    let guard = Guard::for_bind("127.0.0.1:8765".parse().unwrap(), None, &[])
        .unwrap()
        .with_harness("h4rness".into())
        .unwrap();
    let (extra, _dir) = routes(state.clone(), eps);
    let app = droidmcp::mcp::http::router(
        state.clone(),
        guard,
        Some(extra),
        tokio_util::sync::CancellationToken::new(),
    );
    for uri in ["/", "/v1/screen", "/openapi.json"] {
        let evil = Request::builder()
            .uri(uri)
            .header("host", "attacker.example")
            .header("authorization", "Bearer h4rness")
            .body(Body::empty())
            .unwrap();
        assert_eq!(
            app.clone().oneshot(evil).await.unwrap().status(),
            StatusCode::FORBIDDEN,
            "{uri}"
        );
    }
    // The page is the harness's; the phone routes are open on a token-less loopback bind.
    let (status, _) = call(&app, "GET", "/", "").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = call(&app, "GET", "/v1/devices", "").await;
    assert_eq!(status, StatusCode::OK);
    let page = Request::builder()
        .uri("/")
        .header("host", "127.0.0.1:8765")
        .header("authorization", "Bearer h4rness")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        app.clone().oneshot(page).await.unwrap().status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_demonstration_writes_one_dataset_row_per_action_and_finishes_checked() {
    let (state, eps) = state();
    let (app, dir) = routes(state, eps);
    let (status, demo) = call(
        &app,
        "POST",
        "/v1/demos",
        r#"{"task": "bmoca.calculator.open", "seed": 1}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{demo}");
    let id = demo["episode"].as_str().unwrap().to_string();
    assert_eq!(demo["status"], "recording");
    // A second demonstration on the same phone is refused while this one records.
    let (status, busy) = call(&app, "POST", "/v1/demos", r#"{"task": "bmoca.clock.open"}"#).await;
    assert_eq!(status, StatusCode::CONFLICT, "{busy}");
    let (_, screen) = call(&app, "GET", "/v1/screen?screenshot=false", "").await;
    let icon = screen["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["text"] == "Calculator")
        .unwrap()
        .clone();
    let tap =
        json!({"action": {"kind": "tap", "at": {"x": icon["center"][0], "y": icon["center"][1]}}});
    let (status, _) = call(&app, "POST", "/v1/actions", &tap.to_string()).await;
    assert_eq!(status, StatusCode::OK);
    let back = r#"{"action": {"kind": "press_key", "key": "back"}}"#;
    assert_eq!(
        call(&app, "POST", "/v1/actions", back).await.0,
        StatusCode::OK
    );
    let (status, done) = call(&app, "POST", &format!("/v1/demos/{id}/finish"), "").await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["status"], "finished");
    assert_eq!(done["steps"], 2);
    // The episode is stored like an agent's, with the two actions as its steps.
    let (_, episode) = call(&app, "GET", &format!("/v1/episodes/{id}"), "").await;
    assert_eq!(episode["steps"], 2, "{episode}");
    assert_eq!(episode["finished"], true, "{episode}");
    let rows: Vec<Value> =
        std::fs::read_to_string(dir.path().join("datasets").join(&id).join("steps.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["action"]["kind"], "tap");
    assert_eq!(rows[1]["dual_gesture"], json!([0.95, 0.22, 0.95, 0.22]));
    assert_eq!(rows[1]["foreground"], "com.google.android.calculator");
    let res = app
        .clone()
        .oneshot(request(
            "GET",
            &format!("/v1/demos/{id}/files/step-000.png"),
            "",
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let png = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let (status, err) = call(&app, "GET", &format!("/v1/demos/{id}/files/..%2Fx"), "").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
    assert_eq!(
        call(&app, "POST", &format!("/v1/demos/{id}/finish"), "")
            .await
            .0,
        StatusCode::CONFLICT
    );
}

/// Polls `GET /v1/episodes/{id}/watch` until the episode ended.
async fn watch_until_ended(app: &axum::Router, id: &str) -> Value {
    for _ in 0..200 {
        let (status, w) = call(app, "GET", &format!("/v1/episodes/{id}/watch"), "").await;
        assert_eq!(status, StatusCode::OK, "{w}");
        if w["episode"]["status"] == "ended" {
            return w;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("episode {id} did not end");
}

#[tokio::test]
async fn a_replay_refuses_page_actions_on_its_device_and_can_be_watched_step_by_step() {
    let (state, eps) = state();
    let (app, _dir) = routes(state, eps);
    let body = r#"{"task": "bmoca.calculator.input_1", "seed": 3, "pace_ms": 700}"#;
    let (status, replay) = call(&app, "POST", "/v1/replays", body).await;
    assert_eq!(status, StatusCode::OK, "{replay}");
    let id = replay["episode"].as_str().unwrap().to_string();
    assert_eq!(replay["actions"], 3);
    // While it runs, a person's action, a demonstration and a second replay are refused, clearly.
    let tap = r#"{"action": {"kind": "press_key", "key": "home"}}"#;
    let (status, busy) = call(&app, "POST", "/v1/actions", tap).await;
    assert_eq!(status, StatusCode::CONFLICT, "{busy}");
    assert_eq!(busy["kind"], "busy");
    assert!(
        busy["error"]
            .as_str()
            .unwrap()
            .contains(&format!("running a replay (episode {id})")),
        "{busy}"
    );
    let (status, _) = call(&app, "POST", "/v1/demos", r#"{"task": "bmoca.clock.open"}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = call(&app, "POST", "/v1/replays", body).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Watching it: the goal, each step with the screen before and after, then the checks.
    let (_, early) = call(&app, "GET", &format!("/v1/episodes/{id}/watch"), "").await;
    assert_eq!(early["episode"]["goal"], "input 1 in Calculator");
    let w = watch_until_ended(&app, &id).await;
    let steps = w["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "{w}");
    assert_eq!(steps[0]["action"]["kind"], "open_app");
    assert!(steps[0]["before"].is_null());
    assert_eq!(
        steps[1]["before"], steps[0]["after"],
        "a step's before is the screen the last one left"
    );
    assert!(
        steps[1]["after"].as_str().unwrap().contains("digit_1")
            || steps[1]["after"].as_str().unwrap().contains("1")
    );
    assert_eq!(w["episode"]["verdict"], "success", "{w}");
    assert_eq!(w["episode"]["checks"][0]["id"], "formula");
    assert_eq!(w["episode"]["checks"][0]["passed"], true);
    assert!(w["judges"].as_array().unwrap().is_empty() && w["human"].is_null());
    // Once it ended, the page may act again.
    assert_eq!(
        call(&app, "POST", "/v1/actions", tap).await.0,
        StatusCode::OK
    );
    // Bad replays answer in the error shape.
    let (status, bad) = call(
        &app,
        "POST",
        "/v1/replays",
        r#"{"task": "bmoca.calculator.input_1", "solution": "perfect"}"#,
    )
    .await;
    assert_eq!(
        (status, bad["kind"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_request")),
        "{bad}"
    );
    let (status, _) = call(&app, "POST", "/v1/replays", r#"{"task": "no.such.task"}"#).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_human_verdict_empties_the_review_queue_and_calibration_counts_it() {
    use droidmcp::judge::{calibrate, record};
    let (state, eps) = state();
    let (app, _dir) = routes(state, eps.clone());
    let (_, replay) = call(
        &app,
        "POST",
        "/v1/replays",
        r#"{"task": "bmoca.calculator.input_1", "seed": 1, "solution": "wrong"}"#,
    )
    .await;
    let id = replay["episode"].as_str().unwrap().to_string();
    let w = watch_until_ended(&app, &id).await;
    assert_eq!(w["episode"]["verdict"], "failure");
    // Nothing judged yet: nothing to review, and a verdict on an unjudged episode is refused.
    let (_, queue) = call(&app, "GET", "/v1/review", "").await;
    assert_eq!(queue["items"], json!([]));
    let (status, err) = call(
        &app,
        "POST",
        &format!("/v1/review/{id}"),
        r#"{"verdict": "failure"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
    assert!(
        err["error"].as_str().unwrap().contains("no judge verdict"),
        "{err}"
    );
    // The judges split (as a panel run records it): one says success, the other failure, and the
    // rule says failure.
    let store = eps.store().unwrap();
    store
        .with_connection(|c| {
            record::migrate(c)?;
            c.execute(
                "INSERT INTO panel_verdicts (episode_id, mode, policy, panel_outcome, rule_result, outcome, decided_by, rule_judge_disagreement)
                 VALUES (?1, 'final_state', 'rule_first', 'needs_review', 'failure', 'needs_review', 'judges split', 1)",
                [&id],
            )?;
            let panel = c.last_insert_rowid();
            for (judge, family, verdict) in [("alpha", "a", "success"), ("beta", "b", "failure")] {
                c.execute(
                    "INSERT INTO judge_verdicts (episode_id, panel_id, judge, family, mode, role, verdict, confidence, reason,
                        cited_steps, raw_replies, prompt_tokens, completion_tokens, latency_ms, cost_usd, calls)
                     VALUES (?1, ?2, ?3, ?4, 'final_state', 'judge', ?5, 0.8, 'because', '[]', '[]', 1, 1, 1, 0.0, 1)",
                    rusqlite::params![id, panel, judge, family, verdict],
                )?;
            }
            Ok(())
        })
        .unwrap();
    let (_, queue) = call(&app, "GET", "/v1/review", "").await;
    assert_eq!(queue["items"].as_array().unwrap().len(), 1, "{queue}");
    assert_eq!(queue["items"][0]["episode"], id.as_str());
    assert_eq!(queue["items"][0]["task"], "bmoca.calculator.input_1");
    assert_eq!(
        queue["items"][0]["judges"][0],
        json!(["alpha", "success", "because"])
    );
    let (_, w) = call(&app, "GET", &format!("/v1/episodes/{id}/watch"), "").await;
    assert_eq!(w["judges"].as_array().unwrap().len(), 2, "{w}");
    for (body, status) in [
        (r#"{"verdict": "maybe"}"#, StatusCode::BAD_REQUEST),
        (
            r#"{"verdict": "failure", "extra": 1}"#,
            StatusCode::BAD_REQUEST,
        ),
        ("{", StatusCode::BAD_REQUEST),
    ] {
        let (got, err) = call(&app, "POST", &format!("/v1/review/{id}"), body).await;
        assert_eq!(got, status, "{body}: {err}");
        assert!(err["kind"].is_string());
    }
    let (status, err) = call(
        &app,
        "POST",
        "/v1/review/ep-nope",
        r#"{"verdict": "failure"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
    let (status, done) = call(
        &app,
        "POST",
        &format!("/v1/review/{id}"),
        r#"{"verdict": "failure", "note": "pressed 2"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["queue"], 0);
    let (_, queue) = call(&app, "GET", "/v1/review", "").await;
    assert_eq!(queue["items"], json!([]));
    let (_, w) = call(&app, "GET", &format!("/v1/episodes/{id}/watch"), "").await;
    assert_eq!(w["human"]["verdict"], "failure");
    assert_eq!(w["human"]["note"], "pressed 2");
    // Calibration counts it: the person's verdict is the known outcome, alpha was wrong, beta right.
    let names = vec!["alpha".to_string(), "beta".to_string()];
    let labelled = store
        .with_connection(|c| record::reviewed(c, &names))
        .unwrap();
    assert_eq!(labelled.len(), 1);
    assert!(!labelled[0].truth);
    let report = calibrate::calibrate(&names, &labelled);
    assert_eq!(report.judges[0].accuracy, 0.0);
    assert_eq!(report.judges[1].accuracy, 1.0);
}

#[tokio::test]
async fn the_device_picker_says_why_adb_devices_are_missing() {
    let state = ServerState::new(Hub::new(Arc::new(DevicePool::new(
        None,
        Some("127.0.0.1:1".into()),
    ))));
    let catalog = crate::util::catalog();
    let eps = Arc::new(Episodes::new(
        Arc::new(catalog.clone()),
        None,
        Arc::new(PoolDevices(state.hub.pool().clone())),
    ));
    let (app, _dir) = routes(state, eps);
    let (status, list) = call(&app, "GET", "/v1/devices", "").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        list["adb"]
            .as_str()
            .unwrap()
            .contains("no adb server at 127.0.0.1:1"),
        "{list}"
    );
    assert_eq!(list["devices"][0]["spec"], "sim");
    assert_eq!(list["devices"][0]["state"], "device");
    // Without a store there is no review queue to show, and the answer says why.
    let (status, err) = call(&app, "GET", "/v1/review", "").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{err}");
}

#[tokio::test]
async fn with_a_token_the_page_asks_for_it_and_a_cookie_carries_it() {
    let (state, eps) = state();
    let guard = Guard::for_bind("127.0.0.1:8765".parse().unwrap(), Some("agent".into()), &[])
        .unwrap()
        .with_harness("s3cr;t/x".into())
        .unwrap();
    let (extra, _dir) = routes(state.clone(), eps);
    let app = droidmcp::mcp::http::router(
        state,
        guard,
        Some(extra),
        tokio_util::sync::CancellationToken::new(),
    );
    let get = |uri: &str, header: Option<(&str, &str)>| {
        let mut b = Request::builder().uri(uri).header("host", "127.0.0.1:8765");
        if let Some((k, v)) = header {
            b = b.header(k, v);
        }
        b.body(Body::empty()).unwrap()
    };
    // The page without the token: the token form (no phone data), still 401.
    let res = app.clone().oneshot(get("/", None)).await.unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    let html = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    let html = String::from_utf8_lossy(&html);
    assert!(
        html.contains("droidmcp_token=") && html.contains("#token="),
        "{html}"
    );
    assert!(!html.contains("/web/app.js"));
    // The REST routes without it: 401, plain.
    let res = app.clone().oneshot(get("/v1/devices", None)).await.unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    // The agent's token in the cookie opens the phone routes but not the page (the harness's).
    for (uri, status) in [
        ("/v1/devices", StatusCode::OK),
        ("/", StatusCode::FORBIDDEN),
        ("/v1/tasks", StatusCode::FORBIDDEN),
    ] {
        let res = app
            .clone()
            .oneshot(get(uri, Some(("cookie", "droidmcp_token=agent"))))
            .await
            .unwrap();
        assert_eq!(res.status(), status, "{uri}");
    }
    // The cookie the form sets (encodeURIComponent of the harness token) opens everything, as the
    // header does.
    let cookie = "theme=dark; droidmcp_token=s3cr%3Bt%2Fx";
    for uri in ["/", "/v1/devices", "/openapi.json", "/v1/tasks"] {
        let res = app
            .clone()
            .oneshot(get(uri, Some(("cookie", cookie))))
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{uri}");
    }
    let res = app
        .clone()
        .oneshot(get(
            "/v1/devices",
            Some(("authorization", "Bearer s3cr;t/x")),
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    for wrong in [
        "droidmcp_token=s3cr",
        "droidmcp_token=%ZZ",
        "other=s3cr%3Bt%2Fx",
    ] {
        let res = app
            .clone()
            .oneshot(get("/v1/devices", Some(("cookie", wrong))))
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED, "{wrong}");
    }
}

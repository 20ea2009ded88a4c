//! The task suite end to end on the embedded phone, through the same `Device`/`Shell` layer a real
//! phone uses: every task's golden solution scores 1.0 on several seeds, an empty trajectory and a
//! plausible wrong one do not succeed; bad task files fail at load with file/line/field errors while
//! good ones still serve; episode misuse and a lost device give clear errors.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use droidmcp::device::{self, Shell, ShellError, ShellOutput};
use droidmcp::session::episode::{DeviceSource, Episode, EpisodeError, Episodes, Status};
use droidmcp::store::Store;
use droidmcp::task::replay::{
    attach, replay, run_instance, solution_actions, ReplayError, SharedEpisode, Solution,
};
use droidmcp::task::{validate, Catalog, Task};

fn tasks_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tasks")
}

fn suite() -> Vec<Arc<Task>> {
    let (catalog, errors) = Catalog::load_dir(&tasks_dir());
    assert!(
        errors.is_empty(),
        "task files must load cleanly:\n{}",
        errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    catalog.iter().cloned().collect()
}

async fn sim(seed: u64) -> Arc<dyn Shell> {
    device::open(Some(&format!("sim:{seed}")), None)
        .await
        .expect("the embedded phone boots")
}

/// Runs `solution` for every task × seed, several phones at a time; returns the failures.
async fn run_suite(seeds: &[u64], solution: Solution, want_success: bool) -> Vec<String> {
    let tasks = suite();
    let limit = Arc::new(tokio::sync::Semaphore::new(6));
    let mut set = tokio::task::JoinSet::new();
    for task in tasks {
        for &seed in seeds {
            let task = task.clone();
            let limit = limit.clone();
            set.spawn(async move {
                let _permit = limit.acquire().await.expect("semaphore open");
                let outcome = run_instance(&task, seed, sim(seed).await, None, solution).await;
                match outcome {
                    Ok(r)
                        if r.verdict.success == want_success
                            && (!want_success || r.verdict.score >= 1.0) =>
                    {
                        None
                    }
                    Ok(r) => Some(format!(
                        "{} seed {seed}: success={} score={} failed checks: {:?}",
                        task.id,
                        r.verdict.success,
                        r.verdict.score,
                        r.verdict
                            .checks
                            .iter()
                            .filter(|c| !c.passed)
                            .map(|c| (&c.id, &c.reason))
                            .collect::<Vec<_>>()
                    )),
                    Err(e) => Some(format!("{} seed {seed}: {e}", task.id)),
                }
            });
        }
    }
    let mut failures = Vec::new();
    while let Some(done) = set.join_next().await {
        if let Some(f) = done.expect("replay task did not panic") {
            failures.push(f);
        }
    }
    failures.sort();
    failures
}

#[test]
fn suite_has_at_least_120_templates_on_every_app() {
    let tasks = suite();
    assert!(tasks.len() >= 120, "{} tasks", tasks.len());
    for app in [
        "clock",
        "calculator",
        "phone",
        "contacts",
        "messages",
        "settings",
        "calendar",
    ] {
        assert!(
            tasks.iter().any(|t| t.apps.iter().any(|a| a == app)),
            "no task for {app}"
        );
    }
    let bmoca = tasks
        .iter()
        .filter(|t| t.tags.iter().any(|g| g == "b-moca"))
        .count();
    let aw = tasks
        .iter()
        .filter(|t| t.tags.iter().any(|g| g == "android-world"))
        .count();
    assert!(
        bmoca >= 70 && aw >= 30,
        "b-moca {bmoca}, android-world {aw}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_golden_solution_scores_one_on_several_seeds() {
    let failures = run_suite(&[0, 1, 2], Solution::Golden, true).await;
    assert!(
        failures.is_empty(),
        "{} golden failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_trajectories_never_succeed() {
    let failures = run_suite(&[3], Solution::Empty, false).await;
    assert!(
        failures.is_empty(),
        "{} empty trajectories succeeded:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plausible_wrong_trajectories_never_succeed() {
    for task in suite() {
        let inst = task.instantiate(4, &BTreeMap::new()).unwrap();
        assert!(
            solution_actions(&inst, Solution::Wrong).is_some(),
            "{} has no wrong trajectory",
            task.id
        );
    }
    let failures = run_suite(&[4], Solution::Wrong, false).await;
    assert!(
        failures.is_empty(),
        "{} wrong trajectories succeeded:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn same_seed_same_instance() {
    for task in suite() {
        let a = task.instantiate(11, &BTreeMap::new()).unwrap();
        let b = task.instantiate(11, &BTreeMap::new()).unwrap();
        assert_eq!((a.goal, a.params), (b.goal, b.params), "{}", task.id);
    }
}

// ---- bad task files ----

fn load_errors(src: &str) -> Vec<String> {
    let (_, errors) = validate::parse_file(Path::new("tasks/bad.toml"), src);
    errors.iter().map(|e| e.to_string()).collect()
}

const GOOD: &str = r#"
[[task]]
id = "good.one"
goal = "open the clock"
check = [{ id = "fg", kind = "foreground", package = "com.google.android.deskclock" }]
golden = [{ open = "Clock" }, { finish = true }]
"#;

#[test]
fn bad_files_fail_with_file_line_and_field() {
    let cases: &[(&str, &str)] = &[
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncheck = [{ id = \"a\", kind = \"sqlite_row\" }]\ngolden = [{ finish = true }]\n",
         "tasks/bad.toml: line 4: task \"x\": check \"a\": kind: unknown evaluator \"sqlite_row\""),
        ("[[task]]\nid = \"x\"\ngoal = \"alarm at {hour}\"\ncheck = [{ id = \"a\", kind = \"foreground\", package = \"p\" }]\ngolden = [{ finish = true }]\n",
         "line 3: task \"x\": goal: unknown parameter \"hour\""),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\nparams = { h = { range = [9, 1] } }\ncheck = [{ id = \"a\", kind = \"foreground\", package = \"p\" }]\ngolden = [{ finish = true }]\n",
         "line 4: task \"x\": params.h: empty range"),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncheck = [{ id = \"a\", kind = \"logcat\", filters = [\"Tag:Q\"], regex = \"x\" }]\ngolden = [{ finish = true }]\n",
         "check \"a\": filters: \"Tag:Q\" is not Tag:Level"),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncheck = [{ id = \"a\", kind = \"logcat\", regex = \"(unclosed\" }]\ngolden = [{ finish = true }]\n",
         "check \"a\": regex: /(unclosed/"),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncheck = [{ id = \"a\", kind = \"foreground\", package = \"p\" }]\nsuccess = \"all(a, b)\"\ngolden = [{ finish = true }]\n",
         "line 5: task \"x\": success: unknown check \"b\""),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncheck = [{ id = \"a\", kind = \"foreground\", package = \"p\" }]\n",
         "golden: every task needs a golden solution"),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncheck = [{ id = \"a\", kind = \"settings\", ns = \"global\", key = \"k\", value = \"1\", regex = \"x\" }]\ngolden = [{ finish = true }]\n",
         "check \"a\": regex: does not apply to kind \"settings\""),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\nsetup = [{ op = \"reboot\" }]\ncheck = [{ id = \"a\", kind = \"foreground\", package = \"p\" }]\ngolden = [{ finish = true }]\n",
         "line 4: task \"x\": setup[0]: op: unknown op \"reboot\""),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncheck = [{ id = \"a\", kind = \"foreground\", package = \"p\" }]\ngolden = [{ tap = \"id:x&text:y\" }]\n",
         "golden[0]: selector \"id:x&text:y\": terms are separated by spaces"),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncolour = \"red\"\n", "line 4"),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\nkind = \"query\"\ncheck = [{ id = \"a\", kind = \"foreground\", package = \"p\" }]\ngolden = [{ finish = true }]\n",
         "a query task needs an answer check"),
        ("[[task]]\nid = \"x\"\ngoal = \"g\"\ncheck = [{ id = \"b\", kind = \"answer\", expected_from = \"later\" }, { id = \"later\", kind = \"foreground\", package = \"p\" }]\ngolden = [{ finish = true }]\n",
         "expected_from: \"later\" is not a check declared before this one"),
        ("not toml at all [", "tasks/bad.toml: line 1"),
    ];
    for (src, want) in cases {
        let errors = load_errors(src);
        assert!(
            errors.iter().any(|e| e.contains(want)),
            "wanted {want:?}, got {errors:?}"
        );
    }
}

#[test]
fn good_tasks_still_serve_beside_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("good.toml"), GOOD).unwrap();
    std::fs::write(
        dir.path().join("bad.toml"),
        "[[task]]\nid = \"bad\"\ngoal = \"{nope}\"\n",
    )
    .unwrap();
    let (catalog, errors) = Catalog::load_dir(dir.path());
    assert_eq!(catalog.len(), 1);
    assert!(catalog.get("good.one").is_ok());
    assert_eq!(errors.len(), 1);
    assert!(errors[0].to_string().contains("bad.toml"), "{}", errors[0]);
    let unknown = catalog.get("good.on").unwrap_err().to_string();
    assert!(
        unknown.contains("unknown task \"good.on\"") && unknown.contains("good.one"),
        "{unknown}"
    );
}

// ---- episodes ----

/// A phone whose cable can be pulled: after `unplug()`, every call fails as a lost device would.
struct Unpluggable {
    inner: Arc<dyn Shell>,
    gone: AtomicBool,
}

#[async_trait]
impl Shell for Unpluggable {
    fn serial(&self) -> &str {
        self.inner.serial()
    }
    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        if self.gone.load(Ordering::SeqCst) {
            return Err(ShellError::Disconnected {
                serial: self.serial().into(),
                reason: "cable pulled".into(),
            });
        }
        self.inner.exec(command_line).await
    }
    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        if self.gone.load(Ordering::SeqCst) {
            return Err(ShellError::Disconnected {
                serial: self.serial().into(),
                reason: "cable pulled".into(),
            });
        }
        self.inner.pull(path).await
    }
    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        self.inner.push(path, data, mode).await
    }
}

/// Replays `actions` as an agent on the episode's phone (through `Session::act`).
async fn replay_on(
    ep: &SharedEpisode,
    actions: &[droidmcp::task::Action],
) -> Result<(), ReplayError> {
    let shell = ep.lock().await.shell().clone();
    let session = attach(shell, ep).await?;
    replay(&session, ep, actions).await
}

fn shared(ep: Episode) -> SharedEpisode {
    Arc::new(tokio::sync::Mutex::new(ep))
}

fn task(id: &str) -> Arc<Task> {
    let (catalog, _) = Catalog::load_dir(&tasks_dir());
    catalog.get(id).unwrap()
}

#[tokio::test]
async fn device_lost_mid_episode_aborts_and_keeps_steps() {
    let store = Store::in_memory().unwrap();
    let shell = Arc::new(Unpluggable {
        inner: sim(0).await,
        gone: AtomicBool::new(false),
    });
    let t = task("bmoca.clock.alarm_1030_weekday");
    let inst = t.instantiate(0, &BTreeMap::new()).unwrap();
    let ep = shared(
        Episode::start(inst.clone(), shell.clone(), Some(store.clone()))
            .await
            .unwrap(),
    );
    replay_on(&ep, &inst.golden[..3]).await.unwrap();
    let mut ep = ep.lock().await;
    shell.gone.store(true, Ordering::SeqCst);
    let err = ep.check().await.unwrap_err();
    assert!(matches!(err, EpisodeError::DeviceLost { .. }), "{err}");
    assert_eq!(ep.status(), Status::Aborted);
    assert_eq!(ep.steps().len(), 3);
    let row = store.episode(&ep.id).unwrap().unwrap();
    assert_eq!(row.status, "aborted");
    assert_eq!(store.steps(&ep.id).unwrap().len(), 3);
    assert!(ep
        .check()
        .await
        .unwrap_err()
        .to_string()
        .contains("aborted"));
}

#[tokio::test]
async fn episode_misuse_gives_clear_errors() {
    let t = task("bmoca.clock.open");
    let inst = t.instantiate(0, &BTreeMap::new()).unwrap();
    let mut ep = Episode::start(inst, sim(0).await, None).await.unwrap();
    let err = ep.answer("42").unwrap_err().to_string();
    assert!(
        err.contains("operation task") && err.contains("task_finish"),
        "{err}"
    );
    ep.end().await.unwrap();
    let err = ep.check().await.unwrap_err().to_string();
    assert!(
        err.contains("is ended") && err.contains("checking"),
        "{err}"
    );
    assert!(ep.finish().is_err());

    let params: BTreeMap<String, String> = [("hour".to_string(), "7".to_string())].into();
    let err = task("aw.clock.alarm_at_time")
        .instantiate(0, &params)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("unknown parameter \"hour\"") && err.contains("t"),
        "{err}"
    );
    let params: BTreeMap<String, String> = [("a".to_string(), "12".to_string())].into();
    let err = task("calculator.add_params")
        .instantiate(0, &params)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not an integer in [1, 9]"), "{err}");
}

#[tokio::test]
async fn steps_past_the_limit_fail_the_episode() {
    let t = task("bmoca.clock.open");
    let inst = t.instantiate(0, &BTreeMap::new()).unwrap();
    let golden = inst.golden.clone();
    let ep = shared(Episode::start(inst, sim(0).await, None).await.unwrap());
    let key = droidmcp::task::Action::Key("back".into());
    let mut actions = vec![key.clone(); t.max_steps as usize];
    actions.extend(golden);
    replay_on(&ep, &actions).await.unwrap();
    let mut ep = ep.lock().await;
    assert_eq!(ep.status(), Status::Failed);
    let report = ep.check().await.unwrap();
    assert!(!report.verdict.success);
    assert_eq!(report.verdict.score, 0.0);
    assert!(report.verdict.gate.unwrap().contains("step limit"));
}

#[tokio::test]
async fn unfinished_episodes_score_zero_and_answers_are_checked() {
    // Golden actions without the final `finish`: the checks pass but the episode cannot score.
    let t = task("bmoca.clock.tab_timer");
    let inst = t.instantiate(0, &BTreeMap::new()).unwrap();
    let golden: Vec<_> = inst
        .golden
        .iter()
        .filter(|a| !matches!(a, droidmcp::task::Action::Finish))
        .cloned()
        .collect();
    let ep = shared(Episode::start(inst, sim(0).await, None).await.unwrap());
    replay_on(&ep, &golden).await.unwrap();
    let mut ep = ep.lock().await;
    let r = ep.check().await.unwrap();
    assert!(r.verdict.checks.iter().all(|c| c.passed));
    assert!(!r.verdict.success && r.verdict.gate.is_some());
    ep.finish().unwrap();
    assert!(ep.check().await.unwrap().verdict.success);
}

struct SimDevices;

#[async_trait]
impl DeviceSource for SimDevices {
    async fn shell(&self, device: Option<&str>) -> Result<Arc<dyn Shell>, String> {
        device::open(Some(device.unwrap_or("sim")), None)
            .await
            .map_err(|e| e.to_string())
    }
}

fn episodes(store: Option<Store>) -> Arc<Episodes> {
    let (catalog, _) = Catalog::load_dir(&tasks_dir());
    Arc::new(Episodes::new(
        Arc::new(catalog),
        store,
        Arc::new(SimDevices),
    ))
}

#[tokio::test]
async fn http_routes_run_an_episode() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;

    let eps = episodes(Some(Store::in_memory().unwrap()));
    let app = droidmcp::http::router(eps.clone());
    let call = |method: &str, uri: &str, body: &str| {
        Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let json = |bytes: &[u8]| -> serde_json::Value { serde_json::from_slice(bytes).unwrap() };

    let res = app
        .clone()
        .oneshot(call("GET", "/v1/tasks", ""))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let body = axum::body::to_bytes(res.into_body(), usize::MAX)
        .await
        .unwrap();
    assert!(json(&body)["tasks"].as_array().unwrap().len() >= 120);

    let res = app
        .clone()
        .oneshot(call("POST", "/v1/tasks/nope.nope/start", "{}"))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    let res = app
        .clone()
        .oneshot(call(
            "POST",
            "/v1/tasks/calculator.product_query/start",
            r#"{"seed": 3}"#,
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let started = json(
        &axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap(),
    );
    let id = started["episode"].as_str().unwrap().to_string();
    assert!(started["goal"].as_str().unwrap().starts_with("What is "));

    // Act like an agent would, through the device layer, then answer over HTTP.
    let inst = task("calculator.product_query")
        .instantiate(3, &BTreeMap::new())
        .unwrap();
    let answer = match inst.golden.last() {
        Some(droidmcp::task::Action::Answer(a)) => a.clone(),
        other => panic!("{other:?}"),
    };
    {
        let ep = eps.get(&id).unwrap();
        let acts: Vec<_> = inst.golden[..inst.golden.len() - 1].to_vec();
        replay_on(&ep, &acts).await.unwrap();
    }
    let res = app
        .clone()
        .oneshot(call(
            "POST",
            &format!("/v1/episodes/{id}/answer"),
            &format!(r#"{{"answer": "{answer}"}}"#),
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .clone()
        .oneshot(call("POST", &format!("/v1/episodes/{id}/check"), ""))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let report = json(
        &axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap(),
    );
    assert_eq!(report["success"], true, "{report}");
    assert_eq!(report["score"], 1.0);
    assert!(report["checks"][0]["evidence"].as_array().unwrap().len() >= 2);

    let res = app
        .clone()
        .oneshot(call("POST", &format!("/v1/episodes/{id}/end"), ""))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let res = app
        .clone()
        .oneshot(call("POST", &format!("/v1/episodes/{id}/check"), ""))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::CONFLICT);
    let res = app
        .clone()
        .oneshot(call("GET", &format!("/v1/episodes/{id}"), ""))
        .await
        .unwrap();
    let summary = json(
        &axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap(),
    );
    assert_eq!(summary["status"], "ended");

    let res = app
        .clone()
        .oneshot(call(
            "POST",
            "/v1/tasks/bmoca.clock.open/start",
            r#"{"seed": 1}"#,
        ))
        .await
        .unwrap();
    let op = json(
        &axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap(),
    )["episode"]
        .as_str()
        .unwrap()
        .to_string();
    let res = app
        .clone()
        .oneshot(call(
            "POST",
            &format!("/v1/episodes/{op}/answer"),
            r#"{"answer": "x"}"#,
        ))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let res = app
        .clone()
        .oneshot(call("POST", "/v1/episodes/ep-missing/check", ""))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    let mut out = Vec::new();
    assert_eq!(eps.store().unwrap().export_jsonl(&mut out).unwrap(), 2);
}

//! The reference agents against a stand-in that refuses what OpenAI refuses (the only stand-in: a
//! paid API): reasoning models play every agent at default flags, a refused request says why and
//! is not retried; M3A shows the screen and its marked copy and keeps its summaries; T3A and M3A
//! set a slider by the value they read.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use droidmcp::agent::action::{self, AgentAction};
use droidmcp::agent::Style;
use droidmcp::device::Shell;
use droidmcp::llm::{ChatClient, Endpoint, EndpointLimits, LlmError, Message, Part, SpendCap};
use droidmcp::run::AgentSpec;
use droidmcp::session::{Control, DevicePool, ObserveOptions, Session};
use droidmcp::sim::{Phone, SimConfig};
use droidmcp::store::Store;
use serde_json::Value;

use crate::oracle_model::{message_text, oracle, Model, Policy};
use crate::run::{catalog, instances_of, sample, spec};

/// B-MoCA's way to open Calculator: tap its numeric tag, or open the app list first.
fn bmoca_policy(prompt: &str) -> Option<String> {
    let observation = prompt.split("Current observation: ").nth(1)?;
    Some(bmoca_find_calculator(observation))
}

/// A B-MoCA reply that taps Calculator's numeric tag in the parse_obs listing, or opens the app
/// list when the screen does not show it. Never says it is done.
pub fn bmoca_find_calculator(observation: &str) -> String {
    let calculator = regex::Regex::new(
        r"\{'numeric_tag': (\d+), [^}]*'(?:content_description|text)': 'Calculator'",
    )
    .unwrap();
    let action = match calculator.captures(observation) {
        Some(c) => format!("tap({})", &c[1]),
        None => "swipe(\"up\")".to_string(),
    };
    format!("- Description: a screen.\n- Thought: find Calculator.\n- Action: {action}")
}

/// The oracle in the form each agent asks for: M3A's `Reason: … Action: {…}` and one-line
/// summaries, T3A's bare JSON, B-MoCA's function calls.
fn every_agent(oracle: Policy) -> Policy {
    Arc::new(move |prompt: &str| {
        if let Some(reply) = bmoca_policy(prompt) {
            return reply;
        }
        if prompt.contains("Summary of this step:") {
            return "Summary of this step: the golden move, as planned.\nignored".into();
        }
        let action = oracle(prompt);
        if prompt.contains("then with the marks") {
            format!("Reason: it is the golden move.\nAction: {action}")
        } else {
            action
        }
    })
}

fn image_parts(message: &Value) -> Vec<image::RgbaImage> {
    message["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["image_url"]["url"].as_str())
        .map(|url| {
            let data = url.split_once("base64,").unwrap().1;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(data)
                .unwrap();
            image::load_from_memory(&bytes).unwrap().to_rgba8()
        })
        .collect()
}

#[test]
fn reasoning_models_play_t3a_m3a_and_bmoca_at_default_flags_without_a_refused_request() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let catalog = catalog();
    let tasks = sample(&catalog, 3);
    let probe = spec("probe", tasks.clone(), AgentSpec::Command(String::new()), 1);
    let model = rt.block_on(Model::start(
        every_agent(oracle(&instances_of(&catalog, &probe))),
        Duration::ZERO,
    ));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let plays = [
        ("t3a", "t3a", tasks.join(","), "o4-mini"),
        ("m3a", "m3a", tasks.join(","), "gpt-5-mini"),
        (
            "bmoca",
            "bmoca",
            "bmoca.calculator.open".to_string(),
            "o4-mini",
        ),
        // The first o1 models refuse system messages and reply formats: T3A reads text only.
        ("t3a-o1-mini", "t3a", tasks.join(","), "o1-mini"),
    ];
    for (run, agent, tasks, name) in &plays {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
            .args(["run", run, "--tasks", tasks, "--agent", agent])
            .args(["--model", name, "--base-url", &model.base, "--phones", "1"])
            .arg("--store")
            .arg(&db)
            .output()
            .unwrap();
        let refused = model.refused.lock().unwrap().clone();
        assert!(refused.is_empty(), "{agent}: refused {refused:?}");
        assert!(
            out.status.success(),
            "{agent}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows = Store::open(&db).unwrap().run_results(run).unwrap();
        assert!(!rows.is_empty());
        for r in &rows {
            assert_eq!(
                (r.outcome.as_str(), r.error.as_deref()),
                ("success", None),
                "{agent}: {r:?}"
            );
        }
    }
    let requests = model.requests.lock().unwrap().clone();
    for r in &requests {
        let name = r["model"].as_str().unwrap();
        assert!(
            r.get("max_tokens").is_none() && r.get("temperature").is_none(),
            "{r}"
        );
        assert!(
            r["max_completion_tokens"].as_u64().unwrap() >= 512,
            "{name}"
        );
        let text: String = r["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(message_text)
            .collect();
        // B-MoCA's replies are text: no JSON mode, whose output its parser could not read.
        if text.contains("Current observation: ") {
            assert!(r.get("response_format").is_none(), "{r}");
        }
    }
}

/// `run --help` names every reference agent where it describes `--agent`.
#[test]
fn run_help_lists_every_reference_agent() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
        .args(["run", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    let agent = help
        .split("--agent <AGENT>")
        .nth(1)
        .and_then(|rest| rest.split("\n      --").next())
        .unwrap_or_else(|| panic!("{help}"));
    for style in ["t3a", "m3a", "bmoca"] {
        assert!(agent.contains(style), "{style} missing from:{agent}");
    }
    for flag in ["--reasoning", "--reasoning-effort <REASONING_EFFORT>"] {
        assert!(
            help.lines()
                .any(|l| l.trim() == flag || l.trim().starts_with(&format!("{flag} "))),
            "{flag} missing from:\n{help}"
        );
    }
}

#[tokio::test]
async fn a_refused_request_is_reported_in_the_endpoints_words_and_never_retried() {
    let model = Model::start(Arc::new(|_: &str| "{}".to_string()), Duration::ZERO).await;
    let client = ChatClient::new(
        Endpoint::new("agent test", &model.base, "o4-mini"),
        &EndpointLimits::default(),
        Arc::new(SpendCap::new(None)),
    )
    .unwrap()
    .with_backoff(Duration::from_millis(1));
    // JSON mode with no word of JSON in the messages: OpenAI's 400.
    let asked = [Message::user(vec![Part::Text("Say hello.".into())])];
    match client.complete(&asked, None).await {
        Err(LlmError::Refused {
            status, message, ..
        }) => {
            assert_eq!(status, 400);
            assert!(
                message.contains("must contain the word 'json'"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(*model.calls.lock().unwrap(), 1, "a 400 is not retried");
    // The same words asked for as text go through.
    assert!(client.complete_text(&asked).await.is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_m3a_request_shows_the_screen_and_its_marked_copy_and_its_summaries_are_kept() {
    let catalog = catalog();
    let tasks = vec!["bmoca.settings.brightness_down".to_string()];
    let probe = spec("m3a", tasks, AgentSpec::Command(String::new()), 1);
    let model = Model::start(
        every_agent(oracle(&instances_of(&catalog, &probe))),
        Duration::ZERO,
    )
    .await;
    let run = droidmcp::run::RunSpec {
        agent: AgentSpec::Reference {
            style: Style::M3a,
            model: "scripted".into(),
            base_url: model.base.clone(),
            api_key_env: None,
        },
        ..probe
    };
    let store = Store::in_memory().unwrap();
    let agent = model.agent_of(Style::M3a, "scripted");
    droidmcp::run::execute(
        run,
        catalog.clone(),
        store.clone(),
        None,
        Some(agent),
        |_| {},
    )
    .await
    .unwrap();
    let row = &store.run_results("m3a").unwrap()[0];
    assert_eq!(row.outcome, "success", "{row:?}");
    let requests = model.requests.lock().unwrap().clone();
    let (actions, summaries): (Vec<&Value>, Vec<&Value>) = requests
        .iter()
        .partition(|r| !message_text(&r["messages"][1]).contains("Summary of this step:"));
    // Each action request: a system message saying what the marks are, then the screen twice.
    let first = actions[0];
    assert_eq!(first["messages"][0]["role"], "system");
    let system = message_text(&first["messages"][0]);
    assert!(
        system.contains("numeric label")
            && system.contains("The label's number is the element's index"),
        "{system}"
    );
    let user = &first["messages"][1];
    let text = message_text(user);
    assert!(
        text.contains("first as it is, then with the marks"),
        "{text}"
    );
    let images = image_parts(user);
    assert_eq!(images.len(), 2, "the raw and the marked screenshot");
    let (raw, marked) = (&images[0], &images[1]);
    assert_eq!(raw.dimensions(), marked.dimensions());
    let changed = raw
        .pixels()
        .zip(marked.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 60))
        .count();
    let share = changed as f64 / (raw.width() * raw.height()) as f64;
    assert!(
        changed >= 100 && share < 0.5,
        "the marks change part of the picture, not all of it: {changed} px, {share}"
    );
    assert!(
        first.get("response_format").is_none(),
        "M3A's replies are text"
    );
    // Each summary request: its own system message, the action with its reason, both element
    // lists, the marked screens before and after.
    assert!(!summaries.is_empty());
    for s in &summaries {
        assert_eq!(s["messages"][0]["role"], "system");
        let text = message_text(&s["messages"][1]);
        assert!(
            text.contains("The reason you chose it: it is the golden move."),
            "{text}"
        );
        assert!(
            text.contains("The element list before the action:\n"),
            "{text}"
        );
        assert!(
            text.contains("The element list after the action:\n"),
            "{text}"
        );
        assert_eq!(image_parts(&s["messages"][1]).len(), 2);
    }
    // The log keeps every reason and summary, and the next request's history shows the summary.
    let log: Value = serde_json::from_str(&row.agent_log).unwrap();
    let acted: Vec<&Value> = log["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["action"].is_string())
        .collect();
    assert!(!acted.is_empty());
    for t in &acted {
        assert_eq!(t["reason"], "it is the golden move.", "{t}");
        assert_eq!(t["summary"], "the golden move, as planned.", "{t}");
    }
    let second = message_text(&actions[1]["messages"][1]);
    let first_step = format!(
        "1. {} → the golden move, as planned.",
        acted[0]["action"].as_str().unwrap()
    );
    assert!(second.contains(&first_step), "{second}");
}

async fn settings_display() -> (Session, Arc<dyn Shell>) {
    let shell: Arc<dyn Shell> = Arc::new(Phone::new(SimConfig::default()).expect("phone boots"));
    let pool = Arc::new(DevicePool::new(Some("phone".into()), None));
    pool.insert("phone", shell.clone());
    let s = Session::open(pool, "agent", None).await.unwrap();
    for a in [
        r#"{"action_type": "open_app", "app_name": "Settings"}"#,
        r#"{"action_type": "click", "selector": "text:Display"}"#,
    ] {
        agent_act(&s, a).await;
    }
    (s, shell)
}

async fn agent_act(s: &Session, reply: &str) -> droidmcp::session::ActOutcome {
    let AgentAction::Act(a) = action::parse_reasoned(reply).unwrap().1 else {
        panic!("{reply} is no phone action");
    };
    s.act(a, None, &Control::default())
        .await
        .unwrap_or_else(|e| panic!("{reply}: {e}"))
}

/// The brightness slider's line and its `at~N%`.
async fn brightness(s: &Session) -> (u32, u32) {
    let list = s
        .observe(&ObserveOptions::default(), &Control::default())
        .await
        .unwrap()
        .elements
        .unwrap();
    let line = list
        .lines()
        .find(|l| l.contains(" slider ") && l.contains("Brightness level"))
        .unwrap_or_else(|| panic!("{list}"));
    let id = line.split(' ').next().unwrap().parse().unwrap();
    let at = line
        .split(" at~")
        .nth(1)
        .and_then(|r| r.split('%').next())
        .unwrap_or_else(|| panic!("no reading: {line}"))
        .parse()
        .unwrap();
    (id, at)
}

#[tokio::test]
async fn a_slider_is_set_to_the_value_the_model_asks_by_drag_or_by_tap() {
    let (s, _shell) = settings_display().await;
    let (id, _) = brightness(&s).await;
    let out = agent_act(
        &s,
        &format!(
            "Reason: dim it.\nAction: {{\"action_type\": \"drag\", \"index\": {id}, \"fx\": 0.3}}"
        ),
    )
    .await;
    assert_eq!(out.no_effect, None, "{out:?}");
    let (_, at) = brightness(&s).await;
    assert!((28..=32).contains(&at), "dragged to 30%, reads {at}%");
    let out = agent_act(
        &s,
        &format!("{{\"action_type\": \"click\", \"index\": {id}, \"fx\": 0.75}}"),
    )
    .await;
    assert!(out.slider.is_some_and(|r| r.moved()), "{out:?}");
    let (_, at) = brightness(&s).await;
    assert!((73..=77).contains(&at), "tapped at 75%, reads {at}%");
    // A swipe across the element by direction moves it too.
    let out = agent_act(
        &s,
        &format!("{{\"action_type\": \"swipe\", \"direction\": \"left\", \"index\": {id}}}"),
    )
    .await;
    assert!(out.slider.is_some_and(|r| r.moved()), "{out:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_judge_on_a_reasoning_model_is_asked_as_openai_accepts() {
    let verdict =
        r#"{"verdict": "success", "confidence": 0.9, "reason": "Airplane mode is checked."}"#;
    let model = Model::start(Arc::new(move |_: &str| verdict.to_string()), Duration::ZERO).await;
    let dir = tempfile::tempdir().unwrap();
    // By name; o1-mini, which takes no system message nor reply format; and a deployment whose
    // name says nothing, marked in its judge file.
    let judges = [
        ("reasoner", "model = \"o3-mini\"\n"),
        ("first-o1", "model = \"o1-mini\"\n"),
        (
            "deployment",
            "model = \"house-model\"\nreasoning_effort = \"low\"\ntemperature = 0.2\n",
        ),
    ];
    for (name, lines) in judges {
        std::fs::write(
            dir.path().join(format!("{name}.toml")),
            format!("family = \"gpt\"\nbase_url = \"{}\"\n{lines}", model.base),
        )
        .unwrap();
        let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_droidmcp"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["judge", "ping", name, "--judges"])
            .arg(dir.path())
            .output()
            .await
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("verdict: success"),
            "{name}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(model.refused.lock().unwrap().is_empty(), "{name}");
    }
    let requests = model.requests.lock().unwrap();
    assert_eq!(requests.len(), 3);
    assert!(requests
        .iter()
        .all(|r| r.get("temperature").is_none() && r.get("max_completion_tokens").is_some()));
    let by_model = |m: &str| requests.iter().find(|r| r["model"] == m).unwrap();
    assert_eq!(by_model("house-model")["reasoning_effort"], "low");
    let first_o1 = by_model("o1-mini");
    assert!(first_o1.get("response_format").is_none(), "{first_o1}");
    assert!(first_o1["messages"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["role"] != "system"));
}

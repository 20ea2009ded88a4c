//! The device layer and sessions on the embedded phone, through `Session` (the API boundary): typing
//! round trips on both routes, element targets, errors the model acts on, app opening by name,
//! observations, step records, several sessions at once.

use std::sync::Arc;

use droidmcp::device::Shell;
use droidmcp::geom::Point;
use droidmcp::session::{
    Action, Control, DevicePool, Direction, ObserveOptions, Session, SessionError, Target,
};
use droidmcp::sim::{Phone, SimConfig};

async fn session_with(config: SimConfig) -> (Session, Arc<dyn Shell>) {
    let shell: Arc<dyn Shell> = Arc::new(Phone::new(config).expect("phone boots"));
    let pool = Arc::new(DevicePool::new(Some("phone".into()), None));
    pool.insert("phone", shell.clone());
    let session = Session::open(pool, "test", None)
        .await
        .expect("session opens");
    (session, shell)
}

async fn session() -> (Session, Arc<dyn Shell>) {
    session_with(SimConfig::default()).await
}

async fn act(s: &Session, action: Action) -> Result<droidmcp::session::ActOutcome, SessionError> {
    s.act(action, None, &Control::default()).await
}

async fn xml(s: &Session) -> droidmcp::hierarchy::Hierarchy {
    let xml = s.hierarchy_xml(&Control::default()).await.unwrap();
    droidmcp::hierarchy::parse(xml.as_bytes()).unwrap()
}

/// The launcher's app-drawer search field: its centre and current text.
async fn search_field(s: &Session) -> (Point, String) {
    let h = xml(s).await;
    let node = h
        .nodes
        .iter()
        .find(|n| n.resource_id.ends_with("search_box_input"))
        .expect("the drawer shows its search field");
    (node.bounds.center(), node.text.clone())
}

const TEXTS: &[&str] = &[
    // `input text` route: printable ASCII, shell metacharacters included.
    "hello world",
    "it's \"quoted\"",
    "a; touch /sdcard/pwned1",
    "$(touch /sdcard/pwned2)",
    "`touch /sdcard/pwned3`",
    "x && touch /sdcard/pwned4 || true",
    "x | tee /sdcard/pwned5 > /sdcard/pwned6",
    "100% sure",
    "back\\slash * ? ~ # !",
    // broadcast route: a literal %s, non-ASCII, emoji.
    "50%s literal",
    "Grüße, Zoë",
    "안녕하세요",
    "مرحبا بالعالم",
    "👍🏽 ok",
    "ünïcode $(touch /sdcard/pwned7) ; `touch /sdcard/pwned8`",
];

#[tokio::test]
async fn any_text_arrives_exactly_and_runs_nothing() {
    let (s, shell) = session().await;
    act(&s, Action::Tap(Target::Text("Apps list".into())))
        .await
        .unwrap();
    let (field, _) = search_field(&s).await;
    for text in TEXTS {
        act(
            &s,
            Action::TypeText {
                text: text.to_string(),
                into: Some(Target::Point(field)),
                clear: true,
                submit: false,
            },
        )
        .await
        .unwrap_or_else(|e| panic!("typing {text:?}: {e}"));
        let (_, got) = search_field(&s).await;
        assert_eq!(&got, text, "typed {text:?}");
    }
    for n in 1..=8 {
        let path = format!("/sdcard/pwned{n}");
        assert!(shell.pull(&path).await.is_err(), "{path} was created");
    }
    // The broadcast route put the previous keyboard back.
    let ime = shell
        .exec("settings get secure default_input_method")
        .await
        .unwrap();
    assert!(
        !ime.stdout_text().contains("adbkeyboard"),
        "{}",
        ime.stdout_text()
    );
}

#[tokio::test]
async fn clear_empties_the_whole_field_and_typing_needs_a_focused_field() {
    let (s, _) = session().await;
    // On the home screen nothing is focused: typing is refused instead of reporting text typed.
    let nothing = act(
        &s,
        Action::TypeText {
            text: "lost".into(),
            into: None,
            clear: false,
            submit: false,
        },
    )
    .await
    .unwrap_err();
    assert!(matches!(nothing, SessionError::NothingFocused), "{nothing}");
    act(&s, Action::Tap(Target::Text("Apps list".into())))
        .await
        .unwrap();
    let (field, _) = search_field(&s).await;
    // Surrounding spaces count: clearing "  x  " used to leave "  x " behind.
    for (text, clear) in [("  x  ", true), ("NEW", true)] {
        act(
            &s,
            Action::TypeText {
                text: text.into(),
                into: Some(Target::Point(field)),
                clear,
                submit: false,
            },
        )
        .await
        .unwrap();
    }
    let (_, got) = search_field(&s).await;
    assert_eq!(got, "NEW");
}

#[tokio::test]
async fn typing_with_submit_presses_enter() {
    let (s, _) = session().await;
    let steps_before = s.steps().await.len();
    act(&s, Action::Tap(Target::Text("Apps list".into())))
        .await
        .unwrap();
    let (field, _) = search_field(&s).await;
    let out = act(
        &s,
        Action::TypeText {
            text: "Clock".into(),
            into: Some(Target::Point(field)),
            clear: true,
            submit: true,
        },
    )
    .await
    .unwrap();
    assert!(out.detail.unwrap().contains("input text"));
    assert_eq!(s.steps().await.len(), steps_before + 2);
}

#[tokio::test]
async fn bad_targets_are_errors_that_name_the_problem() {
    let (s, _) = session().await;
    let stale = act(&s, Action::Tap(Target::Element(9999)))
        .await
        .unwrap_err();
    assert!(
        matches!(stale, SessionError::StaleElement { id: 9999, .. }),
        "{stale}"
    );
    assert!(stale.to_string().contains("call `screen`"));
    for p in [
        Point::new(5000, 10),
        Point::new(-1, 10),
        Point::new(10, 2400),
    ] {
        let off = act(&s, Action::Tap(Target::Point(p))).await.unwrap_err();
        assert!(matches!(off, SessionError::OutOfScreen { .. }), "{off}");
    }
    let missing = act(&s, Action::Tap(Target::Text("no such label".into())))
        .await
        .unwrap_err();
    assert!(matches!(missing, SessionError::TextNotFound(_)));
    let key = act(&s, Action::PressKey { key: "warp".into() })
        .await
        .unwrap_err();
    assert!(key.to_string().contains("back"), "{key}");
    let wait = act(&s, Action::Wait { ms: 10_000_000 }).await.unwrap_err();
    assert!(matches!(wait, SessionError::BadArgument(_)));
    // Refused attempts are logged with their error, marked as refusals; the session still works.
    let steps = s.steps().await;
    assert!(steps.iter().all(|st| st.error.is_some() && st.refused));
    assert_eq!(steps.len(), 7);
    act(&s, Action::PressKey { key: "home".into() })
        .await
        .unwrap();
    let last = s.steps().await.pop().unwrap();
    assert!(last.error.is_none() && !last.refused);
}

#[tokio::test]
async fn apps_open_by_name_in_the_phones_language_or_suggest_the_closest() {
    let (s, _) = session().await;
    for (query, package) in [
        ("clock", "com.google.android.deskclock"),
        ("Settings", "com.android.settings"),
        (
            "com.google.android.calculator",
            "com.google.android.calculator",
        ),
        ("calc", "com.google.android.calculator"),
    ] {
        let out = s
            .act(
                Action::OpenApp { app: query.into() },
                Some(&ObserveOptions::default()),
                &Control::default(),
            )
            .await
            .unwrap();
        let fg = out.observation.unwrap().foreground.unwrap();
        assert_eq!(fg.package, package, "open {query:?}");
    }
    let err = act(
        &s,
        Action::OpenApp {
            app: "spreadsheet".into(),
        },
    )
    .await
    .unwrap_err();
    match &err {
        SessionError::UnknownApp { suggestions, .. } => assert_eq!(suggestions.len(), 3),
        other => panic!("{other}"),
    }
    let (de, _) = session_with(SimConfig {
        locale: "de-DE".into(),
        ..SimConfig::default()
    })
    .await;
    let out = de
        .act(
            Action::OpenApp { app: "Uhr".into() },
            Some(&ObserveOptions::default()),
            &Control::default(),
        )
        .await
        .unwrap();
    assert_eq!(
        out.observation.unwrap().foreground.unwrap().package,
        "com.google.android.deskclock"
    );
}

#[tokio::test]
async fn observations_carry_elements_a_scaled_screenshot_and_changes() {
    let (s, _) = session().await;
    let opts = ObserveOptions {
        screenshot: true,
        ..ObserveOptions::default()
    };
    let first = s.observe(&opts, &Control::default()).await.unwrap();
    assert_eq!((first.size.width, first.size.height), (1080, 2400));
    let shot = first.screenshot.unwrap();
    assert_eq!(shot.height, 1024);
    assert!((shot.scale - 2400.0 / 1024.0).abs() < 0.01);
    assert!(shot.bytes.starts_with(&[0xFF, 0xD8]), "JPEG by default");
    assert!(first.elements.unwrap().contains("Clock"));
    let out = s
        .act(
            Action::Tap(Target::Text("Clock".into())),
            Some(&ObserveOptions::default()),
            &Control::default(),
        )
        .await
        .unwrap();
    assert!(out.settled);
    let obs = out.observation.unwrap();
    assert_eq!(
        obs.foreground.unwrap().package,
        "com.google.android.deskclock"
    );
    let changes = obs.changes.unwrap();
    assert_eq!(changes.kind, droidmcp::session::ChangeKind::AppSwitch);
    assert_eq!(
        changes.text,
        "switched to Clock (com.google.android.deskclock)"
    );
    let step = s.steps().await.pop().unwrap();
    assert_eq!(
        step.observation_digest.as_deref(),
        Some(obs.digest.as_str())
    );
    // Read off the settled dump: no extra `dumpsys` per step.
    assert_eq!(
        step.foreground.as_deref(),
        Some("com.google.android.deskclock")
    );
}

#[tokio::test]
async fn scrolling_a_list_until_a_label_appears() {
    let (s, shell) = session().await;
    // At a large density the Settings list no longer fits on one screen.
    shell.exec("wm density 800").await.unwrap();
    act(
        &s,
        Action::OpenApp {
            app: "settings".into(),
        },
    )
    .await
    .unwrap();
    let out = act(
        &s,
        Action::Scroll {
            direction: Direction::Down,
            container: None,
            until: Some(Target::Text("System".into())),
            max_swipes: 15,
        },
    )
    .await
    .unwrap();
    assert!(out.detail.unwrap().contains("found \"System\""));
    let err = act(
        &s,
        Action::Scroll {
            direction: Direction::Down,
            container: None,
            until: Some(Target::Text("no such row anywhere".into())),
            max_swipes: 30,
        },
    )
    .await
    .unwrap_err();
    assert!(
        matches!(
            err,
            SessionError::ScrollExhausted {
                reached_end: true,
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn sessions_on_different_phones_run_side_by_side() {
    let pool = Arc::new(DevicePool::new(None, None));
    let a = Session::open(pool.clone(), "a", Some("sim:1"))
        .await
        .unwrap();
    let b = Session::open(pool.clone(), "b", Some("sim:2"))
        .await
        .unwrap();
    let (ra, rb) = tokio::join!(
        act(
            &a,
            Action::OpenApp {
                app: "clock".into()
            }
        ),
        act(
            &b,
            Action::OpenApp {
                app: "calculator".into()
            }
        ),
    );
    ra.unwrap();
    rb.unwrap();
    let opts = ObserveOptions::default();
    let fa = a.observe(&opts, &Control::default()).await.unwrap();
    let fb = b.observe(&opts, &Control::default()).await.unwrap();
    assert_eq!(
        fa.foreground.unwrap().package,
        "com.google.android.deskclock"
    );
    assert_eq!(
        fb.foreground.unwrap().package,
        "com.google.android.calculator"
    );
    assert_eq!(pool.list().len(), 2);
    // A second session on the same phone shares it and sees the first one's work.
    let c = Session::open(pool.clone(), "c", Some("sim-1"))
        .await
        .unwrap();
    let fc = c.observe(&opts, &Control::default()).await.unwrap();
    assert_eq!(
        fc.foreground.unwrap().package,
        "com.google.android.deskclock"
    );
    assert_eq!(pool.list().iter().map(|d| d.leases).sum::<usize>(), 3);
}

#[tokio::test]
async fn a_cancelled_wait_stops_early() {
    let (s, _) = session().await;
    let ctl = Control::default();
    let cancel = ctl.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        cancel.cancel();
    });
    let started = std::time::Instant::now();
    let err = s
        .act(Action::Wait { ms: 30_000 }, None, &ctl)
        .await
        .unwrap_err();
    assert!(matches!(err, SessionError::Cancelled));
    assert!(started.elapsed().as_secs() < 20);
}

/// A selector that names a string resource (`any:@package:string/name`) finds the label in the
/// phone's language: the device resolves it with `cmd overlay lookup`, each time it aims. A name
/// the device cannot resolve is a typed error that says so, never a silent miss.
#[tokio::test]
async fn string_resource_selectors_resolve_in_the_phones_language() {
    let env = droidmcp::env::Environment::resolve("105").unwrap();
    let (s, shell) = session_with(env.sim_config(0, droidmcp::sim::ClockMode::Virtual)).await;
    let device = droidmcp::device::Device::new(shell.clone());
    let contacts = "com.google.android.contacts";
    assert_eq!(
        device
            .string_resource(contacts, "search_contacts")
            .await
            .unwrap(),
        "연락처 검색"
    );
    let missing = device
        .string_resource(contacts, "no_such_string")
        .await
        .unwrap_err();
    assert!(
        matches!(&missing, droidmcp::device::DeviceError::Resource { message, .. }
            if message.contains("failed to get the resource")),
        "{missing}"
    );
    act(
        &s,
        Action::OpenApp {
            app: "contacts".into(),
        },
    )
    .await
    .unwrap();
    let selector = |text: &str| Target::Selector(text.parse().unwrap());
    let out = act(
        &s,
        Action::Tap(selector(
            "any:@com.google.android.contacts:string/search_contacts",
        )),
    )
    .await
    .unwrap();
    assert!(
        out.target
            .as_ref()
            .is_some_and(|e| e.describe().contains("연락처 검색")),
        "{out:?}"
    );
    let err = act(
        &s,
        Action::Tap(selector(
            "text:@com.google.android.contacts:string/no_such_string",
        )),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string().contains(
            "cannot resolve the string resource @com.google.android.contacts:string/no_such_string"
        ),
        "{err}"
    );
}

/// The id of the first element of a compact element list whose strings start with `label`.
fn id_of(elements: &str, label: &str) -> u32 {
    elements
        .lines()
        .find(|l| l.contains(&format!(": {label}")))
        .and_then(|l| l.split(' ').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no {label:?} in\n{elements}"))
}

#[tokio::test]
async fn an_id_seen_before_a_home_pressed_outside_the_session_is_refused_not_tapped_on_the_launcher(
) {
    let (s, shell) = session().await;
    act(
        &s,
        Action::OpenApp {
            app: "Settings".into(),
        },
    )
    .await
    .unwrap();
    let seen = s
        .observe(&ObserveOptions::default(), &Control::default())
        .await
        .unwrap();
    let row = id_of(seen.elements.as_deref().unwrap(), "Network & internet");
    // HOME over adb: no session acted, so nothing told the session its screen went stale.
    shell.exec("input keyevent KEYCODE_HOME").await.unwrap();
    let err = act(&s, Action::Tap(Target::Element(row)))
        .await
        .unwrap_err();
    assert!(matches!(err, SessionError::ElementGone { .. }), "{err}");
    assert!(err.to_string().contains("Network & internet"), "{err}");
    let fg = String::from_utf8(
        shell
            .exec("dumpsys activity activities | grep topResumedActivity")
            .await
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(fg.contains("nexuslauncher"), "the tap went somewhere: {fg}");
    assert!(s.steps().await.last().unwrap().refused);
}

#[tokio::test]
async fn tapping_one_alarms_expand_arrow_twice_never_lands_on_the_next_alarms() {
    let (s, shell) = session().await;
    act(
        &s,
        Action::OpenApp {
            app: "Clock".into(),
        },
    )
    .await
    .unwrap();
    let seen = s
        .observe(&ObserveOptions::default(), &Control::default())
        .await
        .unwrap();
    let list = seen.elements.clone().unwrap();
    let first = id_of(&list, "Expand alarm");
    let ctl = Control::default();
    let out = s
        .act_seen(
            Action::Tap(Target::Element(first)),
            Some(&seen.digest),
            None,
            &ctl,
        )
        .await
        .unwrap();
    let tapped = out.target.clone().unwrap();
    // The arrow it tapped is now "Collapse alarm": nothing on the new screen is that arrow.
    assert!(out.after.is_none(), "reported as {:?}", out.after);
    // The same id again, read against the same observation: the 8:30 card's arrow is gone, and the
    // 9:00 card's lookalike is not it.
    let again = s
        .act_seen(
            Action::Tap(Target::Element(first)),
            Some(&seen.digest),
            None,
            &ctl,
        )
        .await
        .map(|o| o.target)
        .unwrap_err();
    assert!(
        matches!(again.error, SessionError::ElementGone { .. }),
        "{}",
        again.error
    );
    let dump = String::from_utf8(
        shell
            .exec("uiautomator dump /dev/tty")
            .await
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(
        dump.matches("Collapse alarm").count(),
        1,
        "one card expanded ({tapped:?})"
    );
}

//! What belongs to the phone rather than to one session, through `Session` on the embedded phone:
//! a digest any client got aims another client's action; the step log is the phone's, with refused
//! attempts marked; focus is read from the phone before typing; a gesture on a slider reads the
//! thumb before and after, so it never answers "no effect" for a change it made, and observations
//! show each slider's position.

use std::sync::Arc;

use droidmcp::device::Shell;
use droidmcp::session::{
    ActOutcome, Action, Control, DevicePool, Direction, ObserveOptions, Session, Target,
};
use droidmcp::sim::{Phone, SimConfig};

async fn phone() -> (Arc<DevicePool>, Arc<dyn Shell>) {
    let shell: Arc<dyn Shell> = Arc::new(Phone::new(SimConfig::default()).expect("phone boots"));
    let pool = Arc::new(DevicePool::new(Some("phone".into()), None));
    pool.insert("phone", shell.clone());
    (pool, shell)
}

async fn open(pool: &Arc<DevicePool>, id: &str) -> Session {
    Session::open(pool.clone(), id, None)
        .await
        .expect("session opens")
}

async fn act(s: &Session, action: Action) -> ActOutcome {
    s.act(action, None, &Control::default())
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn elements(s: &Session) -> (String, String) {
    let obs = s
        .observe(&ObserveOptions::default(), &Control::default())
        .await
        .unwrap();
    (obs.elements.unwrap(), obs.digest)
}

fn id_of(list: &str, needle: &str) -> u32 {
    list.lines()
        .find(|l| l.contains(needle) && l.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no line with {needle:?} in:\n{list}"))
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

async fn setting(shell: &Arc<dyn Shell>, key: &str) -> String {
    shell
        .exec(&format!("settings get system {key}"))
        .await
        .unwrap()
        .stdout_text()
        .trim()
        .to_string()
}

#[tokio::test]
async fn a_digest_one_session_got_aims_another_sessions_tap() {
    let (pool, _) = phone().await;
    let (agent, page) = (open(&pool, "agent").await, open(&pool, "page").await);
    act(
        &agent,
        Action::OpenApp {
            app: "Settings".into(),
        },
    )
    .await;
    let (list, digest) = elements(&page).await;
    let display = id_of(&list, ": Display");
    // The agent never observed: the page's digest still names an observation of this phone.
    let out = agent
        .act_seen(
            Action::Tap(Target::Element(display)),
            Some(&digest),
            None,
            &Control::default(),
        )
        .await
        .unwrap_or_else(|f| panic!("{}", f.error));
    assert_eq!(out.target.unwrap().label, "Display");
    // One log for the phone: both sessions see the open and the tap.
    let steps = page.steps().await;
    assert_eq!(steps.len(), 2, "{steps:?}");
    // The log names the screens by digest and keeps none of them (episodes record those).
    let tap = &steps[1];
    assert_eq!(tap.observation_digest.as_deref().map(str::len), Some(16));
    assert!(tap.before.is_none() && tap.after.is_none(), "{tap:?}");
    assert_eq!(agent.steps().await.len(), 2);
    let refused = agent
        .act_seen(
            Action::Tap(Target::Element(1)),
            Some("0123456789abcdef"),
            None,
            &Control::default(),
        )
        .await
        .unwrap_err();
    assert!(refused.error.to_string().contains("unknown observation"));
    let last = page.steps().await.pop().unwrap();
    assert!(last.refused && last.gesture.is_none(), "{last:?}");
}

#[tokio::test]
async fn typing_reads_focus_from_the_phone_not_from_a_remembered_screen() {
    let (pool, shell) = phone().await;
    let s = open(&pool, "agent").await;
    act(&s, Action::Tap(Target::Text("Apps list".into()))).await;
    elements(&s).await;
    // Something outside any session (a task's setup, another tool) focuses the drawer's search
    // field: no session acted, so nothing told this one its screen is stale.
    let h = droidmcp::hierarchy::parse(
        s.hierarchy_xml(&Control::default())
            .await
            .unwrap()
            .as_bytes(),
    )
    .unwrap();
    let field = h
        .nodes
        .iter()
        .find(|n| n.resource_id.ends_with("search_box_input"))
        .unwrap()
        .bounds
        .center();
    act(&s, Action::PressKey { key: "back".into() }).await;
    act(&s, Action::Tap(Target::Text("Apps list".into()))).await;
    shell
        .exec(&format!("input tap {} {}", field.x, field.y))
        .await
        .unwrap();
    let out = act(
        &s,
        Action::TypeText {
            text: "Clock".into(),
            into: None,
            clear: false,
            submit: false,
        },
    )
    .await;
    assert_eq!(out.field_text.as_deref(), Some("Clock"));
}

#[tokio::test]
async fn a_brightness_swipe_and_a_volume_tap_report_what_they_changed() {
    let (pool, shell) = phone().await;
    let s = open(&pool, "agent").await;
    act(
        &s,
        Action::OpenApp {
            app: "Settings".into(),
        },
    )
    .await;
    act(&s, Action::Tap(Target::Text("Display".into()))).await;
    let (list, _) = elements(&s).await;
    let line = list
        .lines()
        .find(|l| l.contains("slider") && l.contains("Brightness level"))
        .unwrap_or_else(|| panic!("{list}"));
    assert!(
        line.contains(" at~"),
        "the slider line shows its position: {line}"
    );
    let slider = id_of(&list, "slider");
    let before = setting(&shell, "screen_brightness").await;
    let out = act(
        &s,
        Action::SwipeDirection {
            direction: Direction::Left,
            from: Some(Target::Element(slider)),
            distance: Some(300),
            duration_ms: 300,
        },
    )
    .await;
    assert_ne!(setting(&shell, "screen_brightness").await, before);
    assert_eq!(out.no_effect, None, "{out:?}");
    let reading = out.slider.expect("a swipe on a slider reads its thumb");
    assert!(reading.moved(), "{reading:?}");
    assert!(reading.after.unwrap() < reading.before.unwrap());

    act(&s, Action::PressKey { key: "back".into() }).await;
    act(&s, Action::Tap(Target::Text("Sound & vibration".into()))).await;
    let (list, _) = elements(&s).await;
    let call = list
        .lines()
        .find(|l| l.contains("slider") && l.contains("Call volume"))
        .unwrap_or_else(|| panic!("{list}"));
    // Near the start of the bar: a tap where the thumb already is would rightly change nothing.
    let at = call
        .split(" @")
        .nth(1)
        .unwrap()
        .split([' ', ':'])
        .next()
        .unwrap();
    let (x, y) = at.split_once(',').unwrap();
    let point = droidmcp::geom::Point::new(x.parse::<i32>().unwrap() - 300, y.parse().unwrap());
    let before = shell
        .exec("media volume --stream 0 --get")
        .await
        .unwrap()
        .stdout_text();
    let out = act(&s, Action::Tap(Target::Point(point))).await;
    let after = shell
        .exec("media volume --stream 0 --get")
        .await
        .unwrap()
        .stdout_text();
    assert_ne!(before, after, "the tap moved the call volume");
    assert_eq!(out.no_effect, None, "{out:?}");
    assert!(out.slider.is_some_and(|r| r.moved()), "{:?}", out.slider);
}

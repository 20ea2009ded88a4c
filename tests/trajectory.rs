//! Trajectory metrics and history checks do not depend on how an agent aims: one successful
//! airplane-mode trajectory played through `Session::act` by coordinates, by element ids and by
//! text scores the same, step for step, and every tap counts as the reference action it performs.

use std::collections::BTreeMap;
use std::sync::Arc;

use droidmcp::episode::replay::{attach, SharedEpisode};
use droidmcp::episode::{action_record, Episode, Report};
use droidmcp::eval::history::tap_inside;
use droidmcp::geom::Point;
use droidmcp::hierarchy::Selector;
use droidmcp::session::{Action, Control, Direction, ObserveOptions, Target};
use droidmcp::task::Catalog;

#[derive(Clone, Copy, Debug)]
enum Aim {
    Coordinates,
    ElementIds,
    Text,
}

/// The id and centre of the element list line showing `label` (as an agent reads `screen`).
fn find_line(elements: &str, label: &str) -> (u32, Point) {
    let line = elements
        .lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("{label:?} not in:\n{elements}"));
    let id = line
        .split_whitespace()
        .next()
        .and_then(|t| t.trim_start_matches('#').parse().ok())
        .unwrap_or_else(|| panic!("no id in {line:?}"));
    let at = line.split('@').nth(1).expect("centre");
    let at: String = at
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .collect();
    let (x, y) = at.split_once(',').expect("x,y");
    (id, Point::new(x.parse().unwrap(), y.parse().unwrap()))
}

async fn play(
    aim: Aim,
) -> (
    Report,
    Vec<String>,
    Vec<droidmcp::eval::history::ActionRecord>,
) {
    let catalog = crate::util::catalog();
    let task = catalog.get("bmoca.settings.airplane_on").unwrap();
    let inst = task.instantiate(0, &BTreeMap::new()).unwrap();
    let shell = droidmcp::fleet::open(Some("sim:0"), None).await.unwrap();
    let episode: SharedEpisode = Arc::new(tokio::sync::Mutex::new(
        Episode::start(inst, shell.clone(), None).await.unwrap(),
    ));
    let session = attach(shell, &episode).await.unwrap();
    let ctl = Control::default();
    session
        .act(
            Action::OpenApp {
                app: "Settings".into(),
            },
            None,
            &ctl,
        )
        .await
        .unwrap();
    session
        .act(
            Action::Scroll {
                direction: Direction::Down,
                container: None,
                until: Some(Target::Text("Network & internet".into())),
                max_swipes: 10,
            },
            None,
            &ctl,
        )
        .await
        .unwrap();
    let mut echoes = Vec::new();
    for label in ["Network & internet", "Airplane mode"] {
        let target = match aim {
            Aim::Text => Target::Text(label.into()),
            Aim::ElementIds | Aim::Coordinates => {
                let obs = session
                    .observe(&ObserveOptions::default(), &ctl)
                    .await
                    .unwrap();
                let (id, at) = find_line(obs.elements.as_deref().unwrap(), label);
                match aim {
                    Aim::ElementIds => Target::Element(id),
                    _ => Target::Point(at),
                }
            }
        };
        let out = session.act(Action::Tap(target), None, &ctl).await.unwrap();
        let t = out.target.expect("a tap names what it hit");
        echoes.push(format!(
            "{} {} {:?} {:?}",
            t.role,
            t.label,
            out.point,
            out.after.and_then(|a| a.checked)
        ));
    }
    let mut ep = episode.lock().await;
    ep.finish().unwrap();
    let records: Vec<_> = ep.steps().iter().map(action_record).collect();
    let report = ep.check().await.unwrap();
    (report, echoes, records)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_the_same_by_coordinates_element_ids_and_text() {
    let mut runs = Vec::new();
    for aim in [Aim::Coordinates, Aim::ElementIds, Aim::Text] {
        runs.push((aim, play(aim).await));
    }
    let (_, (first, first_echoes, first_records)) = &runs[0];
    let metrics = first.metrics.expect("the task has a reference solution");
    assert!(first.verdict.success, "{:?}", first.verdict);
    assert_eq!(metrics.task_reward, 1.0, "{metrics:?}");
    assert_eq!(metrics.completion_ratio, 1.0, "{metrics:?}");
    assert!(metrics.reversed_redundancy > 0.0);
    let airplane = Selector::parse("text:\"Airplane mode\"").unwrap();
    for (aim, (report, echoes, records)) in &runs {
        assert_eq!(report.verdict.success, first.verdict.success, "{aim:?}");
        assert_eq!(report.verdict.score, first.verdict.score, "{aim:?}");
        assert_eq!(report.metrics, first.metrics, "{aim:?}");
        assert_eq!(report.steps_used, first.steps_used, "{aim:?}");
        assert_eq!(
            echoes, first_echoes,
            "{aim:?}: same elements hit at the same points"
        );
        let kinds: Vec<_> = records
            .iter()
            .map(|r| (&r.kind, r.point, &r.text))
            .collect();
        let first_kinds: Vec<_> = first_records
            .iter()
            .map(|r| (&r.kind, r.point, &r.text))
            .collect();
        assert_eq!(kinds, first_kinds, "{aim:?}");
        assert!(tap_inside(records, 1, &airplane).is_ok(), "{aim:?}");
    }
}

const ANSWER_ON_A_PHONE_ASLEEP: &str = r#"schema = "droidmcp-task/1"

[[task]]
id = "aw.phone.answer_call.screen_off"
source = "AndroidWorld PhoneAnswerCall with the phone asleep when the call comes: the Dialer's full-screen intent brings the incoming screen up"
goal = "Answer the incoming phone call and ensure the In-Call UI is displayed with options like 'Hold'."
apps = ["phone"]
max_steps = 6
tags = ["android-world", "phone", "incoming", "easy", "parameterized"]
params = { number = { gen = "phone_number" }, button = "two_button_answer_button" }
setup = [
  { op = "end_call" },
  { op = "force_stop", package = "com.google.android.dialer" },
  { op = "home" },
  { op = "shell", cmd = "input keyevent KEYCODE_SLEEP" },
  { op = "incoming_call", number = "{number}" },
]
check = [
  { id = "offhook", kind = "shell", cmd = "dumpsys telephony.registry", regex = "(?m)^ *mCallState=2$" },
  { id = "caller", kind = "shell", cmd = "dumpsys telephony.registry", regex = "(?m)^ *mCallIncomingNumber={number:re}$" },
  { id = "end_call", kind = "ui", selector = "id:com.android.dialer:id/incall_end_call", attrs = { enabled = "true" } },
  { id = "hold", kind = "ui", selector = "id:com.android.dialer:id/incall_fifth_button" },
]
# Declining instead of answering.
near_miss = [{ button = "two_button_decline_button" }]
golden = [
  { scroll_to = "id:contactgrid_contact_name text~={number.dashed}" },
  { tap = "id:{button}" },
  { finish = true },
]
"#;

/// A stored episode scores the same trajectory metrics in `report` as it did live, also when its
/// first action is a tap (answering a call that rang at setup on a phone asleep, whose incoming
/// screen came up full-screen): the store keeps the screen that tap was aimed at, which no earlier
/// step settled on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_episodes_keep_the_screen_their_first_tap_was_aimed_at() {
    use droidmcp::episode::replay::{run_instance, Solution};
    // The suite's answer-call task answers a heads-up from the shade (a key first); this one
    // rings a phone that is asleep, so the incoming screen is what the first tap aims at.
    let tasks = tempfile::tempdir().unwrap();
    std::fs::write(tasks.path().join("asleep.toml"), ANSWER_ON_A_PHONE_ASLEEP).unwrap();
    let (catalog, errors) = Catalog::load_dir(tasks.path());
    assert!(errors.is_empty(), "{errors:?}");
    let task = catalog.get("aw.phone.answer_call.screen_off").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = droidmcp::store::Store::open(&dir.path().join("e.db")).unwrap();
    let shell = droidmcp::fleet::open(Some("sim:0"), None).await.unwrap();
    let live = run_instance(&task, 0, shell, Some(store.clone()), Solution::Golden)
        .await
        .unwrap();
    assert!(live.verdict.success, "{:?}", live.verdict);
    let metrics = live.metrics.expect("the task has a reference solution");
    assert_eq!(metrics.task_reward, 1.0, "{metrics:?}");
    let rows = droidmcp::judge::report::report(&store, &catalog).unwrap();
    let row = rows.iter().find(|r| r.task == task.id).unwrap();
    assert_eq!(row.task_reward, Some(metrics.task_reward), "{row:?}");
    assert_eq!(row.completion_ratio, Some(1.0), "{row:?}");
}

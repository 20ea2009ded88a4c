//! Constrained tasks end to end on the embedded phone: a golden solution keeps its constraints; the
//! same task done a forbidden way (a detour near miss) fails on the constraint, naming the step
//! that broke it; the store keeps the outcome and `report` turns it into AndroidArena's
//! constraint-violation ratio by level; bad constraint tables fail at load with file, line, field.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use droidmcp::device::Shell;
use droidmcp::episode::replay::{run_instance, Solution};
use droidmcp::episode::Report;
use droidmcp::eval::constraint::Level;
use droidmcp::judge::report;
use droidmcp::store::Store;
use droidmcp::task::{validate, Task};

use crate::util::{catalog, task};

async fn sim(seed: u64) -> Arc<dyn Shell> {
    droidmcp::fleet::open(Some(&format!("sim:{seed}")), None)
        .await
        .unwrap()
}

/// The index of the instance's detour that breaks `constraint`.
fn detour(task: &Arc<Task>, seed: u64, constraint: &str) -> usize {
    let inst = task.instantiate(seed, &BTreeMap::new()).unwrap();
    inst.near_misses()
        .unwrap()
        .iter()
        .position(|n| n.breaks.as_deref() == Some(constraint))
        .unwrap_or_else(|| panic!("{} has no detour breaking {constraint}", task.id))
}

async fn run(task: &Arc<Task>, seed: u64, solution: Solution, store: Option<Store>) -> Report {
    run_instance(task, seed, sim(seed).await, store, solution)
        .await
        .unwrap_or_else(|e| panic!("{} {solution:?}: {e}", task.id))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_golden_that_opens_a_forbidden_app_fails_naming_the_step() {
    let t = task("constrained.sms_without_contacts");
    let golden = run(&t, 1, Solution::Golden, None).await;
    assert!(golden.verdict.success, "{:?}", golden.verdict);
    assert!(golden.verdict.violations.is_empty());
    let kept = golden
        .verdict
        .checks
        .iter()
        .find(|c| c.id == "no_contacts")
        .unwrap();
    assert!(
        kept.passed && kept.value.contains("app constraint kept"),
        "{kept:?}"
    );

    // The same solution, but opening Contacts first: the message is sent all the same.
    let broken = run(
        &t,
        1,
        Solution::NearMiss(detour(&t, 1, "no_contacts")),
        None,
    )
    .await;
    assert!(!broken.verdict.success);
    assert_eq!(broken.verdict.score, 0.0);
    let failed: Vec<&str> = broken
        .verdict
        .checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(failed, ["no_contacts"], "only the constraint fails");
    let [v] = &broken.verdict.violations[..] else {
        panic!("{:?}", broken.verdict.violations)
    };
    assert_eq!(
        (v.constraint.as_str(), v.level, v.step),
        ("no_contacts", Level::App, 1)
    );
    assert!(v.did.contains("Contacts"), "{v}");
    assert!(v.why.contains("com.google.android.contacts"), "{v}");
    let gate = broken.verdict.gate.as_deref().unwrap();
    assert!(gate.contains("step 1 ("), "{gate}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_and_component_constraints_name_their_steps() {
    // A page known by its activity: the episode reads the focused activity after every step.
    let t = task("constrained.display_toggle_without_search");
    let r = run(&t, 0, Solution::NearMiss(detour(&t, 0, "no_search")), None).await;
    let v = &r.verdict.violations[0];
    assert_eq!((v.level, v.step), (Level::Page, 2));
    assert!(v.why.contains("SearchActivity"), "{v}");
    // A page known by what its screen shows.
    let t = task("constrained.alarm_without_timer_page");
    let r = run(
        &t,
        2,
        Solution::NearMiss(detour(&t, 2, "no_timer_page")),
        None,
    )
    .await;
    assert_eq!(r.verdict.violations[0].step, 2);
    // An element touched once too often: the second tap of the dialpad's call button.
    let t = task("constrained.call_button_once");
    let r = run(&t, 0, Solution::NearMiss(detour(&t, 0, "call_once")), None).await;
    let v = &r.verdict.violations[0];
    assert_eq!((v.level, v.step), (Level::Component, 5));
    assert!(v.why.contains("touch 2"), "{v}");
    let golden = run(&t, 0, Solution::Golden, None).await;
    assert!(golden.verdict.success, "{:?}", golden.verdict);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn report_shows_the_violation_ratio_by_level() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("episodes.db")).unwrap();
    let app = task("constrained.sms_without_contacts");
    let page = task("constrained.alarm_without_timer_page");
    run(&app, 0, Solution::Golden, Some(store.clone())).await;
    let d = detour(&app, 0, "no_contacts");
    run(&app, 0, Solution::NearMiss(d), Some(store.clone())).await;
    run(&page, 0, Solution::Golden, Some(store.clone())).await;
    // An unconstrained task's episode does not count.
    run(
        &task("aw.sms.send"),
        0,
        Solution::Golden,
        Some(store.clone()),
    )
    .await;

    let figures = report::report(&store, catalog()).unwrap();
    let all = figures.iter().find(|f| f.task == "ALL").unwrap();
    assert_eq!(all.episodes, 4);
    assert_eq!((all.constrained.episodes, all.constrained.violated), (3, 1));
    assert_eq!(all.constrained.ratio(), Some(1.0 / 3.0));
    let level = |l: Level| all.by_level.iter().find(|(x, _)| *x == l).map(|(_, v)| *v);
    assert_eq!(level(Level::App).and_then(|v| v.ratio()), Some(0.5));
    assert_eq!(level(Level::Page).and_then(|v| v.ratio()), Some(0.0));
    assert_eq!(level(Level::Component), None);
    let per_task = figures.iter().find(|f| f.task == app.id).unwrap();
    assert_eq!(per_task.constrained.ratio(), Some(0.5));
    let table = report::table(&figures);
    assert!(
        table.contains("constraint violation ratio: 1 of 3 constrained episodes (0.333); app 0.500 (1/2); page 0.000 (0/1)"),
        "{table}"
    );
}

#[test]
fn bad_constraints_fail_with_file_line_and_field() {
    let head = "[[task]]\nid = \"x\"\ngoal = \"g\"\nparams = { n = { range = [1, 3] } }\ncheck = [{ id = \"a\", kind = \"foreground\", package = \"p\" }]\ngolden = [{ tap = \"id:b{n}\" }, { finish = true }]\n";
    let cases: &[(&str, &str)] = &[
        ("constraint = [{ id = \"c\", kind = \"window\" }]\n",
         "tasks/bad.toml: line 7: task \"x\": constraint \"c\": kind: unknown constraint \"window\" (app, page, element, actions)"),
        ("constraint = [{ id = \"c\", kind = \"page\" }]\n",
         "line 7: task \"x\": constraint \"c\": activity: a page constraint needs activity or screen"),
        ("constraint = [{ id = \"c\", kind = \"element\", selector = \"id:x&text:y\" }]\n",
         "constraint \"c\": selector: selector \"id:x&text:y\""),
        ("constraint = [{ id = \"c\", kind = \"app\", package = \"p\", max = 2 }]\n",
         "constraint \"c\": max: does not apply to a \"app\" constraint"),
        ("constraint = [{ id = \"c\", kind = \"actions\", action = \"fling\" }]\n",
         "constraint \"c\": action: unknown step kind \"fling\""),
        ("constraint = [{ id = \"c\", kind = \"app\", package = { regex = \"(\" } }]\n",
         "constraint \"c\": regex: /(/"),
        ("constraint = [{ id = \"c\", kind = \"element\", selector = \"id:{zz}\" }]\n",
         "constraint \"c\": unknown parameter \"zz\""),
        ("constraint = [{ id = \"a\", kind = \"app\", package = \"p\" }]\n",
         "constraint \"a\": duplicate id (constraints and checks share one namespace)"),
        ("constraint = [{ id = \"c\", kind = \"app\", package = \"p\" }]\nnear_miss = [{ breaks = \"d\", actions = [{ finish = true }] }]\n",
         "near_miss: breaks: \"d\" is not a constraint of this task"),
        ("constraint = [{ id = \"c\", kind = \"app\", package = \"p\" }]\nnear_miss = [{ breaks = \"c\" }]\n",
         "near_miss: a detour needs actions"),
        ("constraint = [{ id = \"c\", kind = \"app\", package = \"p\" }]\nnear_miss = [{ breaks = \"c\", actions = [{ tap = \"id:{zz}\" }] }]\n",
         "near_miss: actions[0]: unknown parameter \"zz\""),
    ];
    for (tail, want) in cases {
        let src = format!("{head}{tail}");
        let (_, errors) = validate::parse_file(Path::new("tasks/bad.toml"), &src);
        let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert!(
            errors.iter().any(|e| e.contains(want)),
            "wanted {want:?}, got {errors:?}"
        );
    }
    // A detour identical to the golden solution is refused when near misses are made.
    let src = format!("{head}constraint = [{{ id = \"c\", kind = \"app\", package = \"p\" }}]\nnear_miss = [{{ breaks = \"c\", actions = [{{ tap = \"id:b{{n}}\" }}, {{ finish = true }}] }}]\n");
    let t = validate::parse_one(Path::new("tasks/ok.toml"), &src).unwrap();
    let e = t
        .instantiate(0, &BTreeMap::new())
        .unwrap()
        .near_misses()
        .unwrap_err();
    assert!(e.contains("is the golden solution"), "{e}");
}

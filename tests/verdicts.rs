//! Verdicts a capable agent can trust (issue 21): the phone's own texts and calls are older than
//! the task's after its setup on every seed, a check reads the outcome rather than the path, and
//! a wrong answer does not score.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use droidmcp::device::{self, Shell};
use droidmcp::episode::replay::{run_actions, run_instance, Solution};
use droidmcp::episode::Episode;
use droidmcp::task::{Action, Catalog, Task};

fn task(id: &str) -> Arc<Task> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tasks");
    let (catalog, _) = Catalog::load_dir(&dir);
    catalog.get(id).unwrap().clone()
}

async fn sim(seed: u64) -> Arc<dyn Shell> {
    device::open(Some(&format!("sim:{seed}")), None)
        .await
        .expect("the embedded phone boots")
}

/// The first row's `column` of a `content query` sorted newest first.
async fn newest(shell: &Arc<dyn Shell>, uri: &str, filter: &str, column: &str) -> String {
    let out = shell
        .exec(&format!(
            "content query --uri {uri} --projection {column}:date --where \"{filter}\" --sort \"date DESC\""
        ))
        .await
        .unwrap()
        .stdout_text();
    let first = out.lines().next().unwrap_or_default().to_string();
    first
        .split(", ")
        .find_map(|f| f.split_once(&format!("{column}=")).map(|(_, v)| v.to_string()))
        .unwrap_or_else(|| panic!("no {column} in {out:?}"))
}

fn digits(s: &str) -> String {
    let d: String = s.chars().filter(char::is_ascii_digit).collect();
    d.trim_start_matches('1').to_string()
}

#[tokio::test]
async fn the_most_recent_text_and_missed_call_are_the_tasks_on_every_seed() {
    let reply = task("aw.sms.reply_most_recent");
    let missed = task("cross.missed_call_to_contact");
    for seed in 0..10 {
        let shell = sim(seed).await;
        let inst = reply.instantiate(seed, &BTreeMap::new()).unwrap();
        let number = inst.params["number"].text.clone();
        let _ep = Episode::start(inst, shell.clone(), None).await.unwrap();
        let got = newest(&shell, "content://sms/inbox", "type=1", "address").await;
        assert_eq!(digits(&got), digits(&number), "seed {seed}: newest text");

        let shell = sim(seed).await;
        let inst = missed.instantiate(seed, &BTreeMap::new()).unwrap();
        let target = inst.params["an"].text.clone();
        let _ep = Episode::start(inst, shell.clone(), None).await.unwrap();
        let got = newest(&shell, "content://call_log/calls", "type=3", "number").await;
        assert_eq!(digits(&got), digits(&target), "seed {seed}: newest missed call");
    }
}

#[tokio::test]
async fn the_alarm_tab_check_reads_the_tab_not_a_logged_tap() {
    // Clock opens on its Alarm tab: an agent that opens it and stops has done the task.
    let t = task("bmoca.clock.tab_alarm");
    let inst = t.instantiate(0, &BTreeMap::new()).unwrap();
    let actions = [Action::Open("Clock".into()), Action::Finish];
    let report = run_actions(inst, &actions, sim(0).await, None, false)
        .await
        .unwrap();
    assert!(report.verdict.success, "{:?}", report.verdict.checks);
    // Another tab is not the Alarm page, with or without the log line.
    let outcome = run_instance(&t, 0, sim(0).await, None, Solution::Wrong)
        .await
        .unwrap();
    assert!(!outcome.verdict.success);
}

#[tokio::test]
async fn another_instances_answer_is_not_a_wrong_answer_when_it_is_the_right_one() {
    let t = task("aw.calendar.ir_events_on_date");
    for seed in 0..10 {
        let outcome = run_instance(&t, seed, sim(seed).await, None, Solution::Wrong)
            .await
            .unwrap();
        assert!(
            !outcome.verdict.success,
            "seed {seed}: the wrong answer scored {:?}",
            outcome.verdict.checks
        );
    }
}

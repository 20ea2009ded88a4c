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
        .find_map(|f| {
            f.split_once(&format!("{column}="))
                .map(|(_, v)| v.to_string())
        })
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
        assert_eq!(
            digits(&got),
            digits(&target),
            "seed {seed}: newest missed call"
        );
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

/// The bounds of the first node whose attributes hold `needle`, from a dump.
fn bounds_of(xml: &str, needle: &str) -> Option<droidmcp::geom::Bounds> {
    let at = xml.find(needle)?;
    let node = &xml[xml[..at].rfind("<node ")?..];
    let b = node.find("bounds=\"")? + 8;
    let end = node[b..].find('"')?;
    droidmcp::geom::Bounds::parse(&node[b..b + end])
}

fn tap(phone: &droidmcp::sim::Phone, needle: &str) {
    let xml = crate::util::sh(phone, "uiautomator dump /dev/tty");
    let c = bounds_of(&xml, needle)
        .unwrap_or_else(|| panic!("no {needle} on screen: {xml}"))
        .center();
    crate::util::sh(phone, &format!("input tap {} {}", c.x, c.y));
}

#[test]
fn the_dialers_digits_take_keys_without_a_soft_keyboard_and_nothing_moves() {
    let phone = crate::util::boot(3);
    let sh = |line: &str| crate::util::sh(&phone, line);
    sh("monkey -p com.google.android.dialer 1");
    tap(&phone, "resource-id=\"com.android.dialer:id/fab\"");
    let before = sh("uiautomator dump /dev/tty");
    let key = "resource-id=\"com.android.dialer:id/one\"";
    tap(&phone, "resource-id=\"com.android.dialer:id/digits\"");
    sh("input text 5551234");
    let after = sh("uiautomator dump /dev/tty");
    assert!(sh("dumpsys input_method").contains("mInputShown=false"));
    assert!(after.contains("text=\"555-1234\""), "{after}");
    assert_eq!(bounds_of(&before, key), bounds_of(&after, key));
    // The call log's rows under the pad are not on screen: none reaches below the pad's top.
    let pad =
        bounds_of(&after, "resource-id=\"com.android.dialer:id/dialpad_view\"").expect("the pad");
    let mut rest = after.as_str();
    while let Some(at) = rest.find("call_log_entry_root") {
        let row = bounds_of(rest, "call_log_entry_root").expect("row bounds");
        assert!(
            row.bottom <= pad.top,
            "a row under the pad is in the dump: {row:?}"
        );
        rest = &rest[at + 1..];
    }
}

#[test]
fn call_log_rows_say_they_call_and_missed_calls_draw_their_arrow() {
    let phone = crate::util::boot(0);
    let sh = |line: &str| crate::util::sh(&phone, line);
    sh("sqlite3 /data/data/com.android.providers.contacts/databases/calllog.db \
        \"DELETE FROM calls; INSERT INTO calls (number, date, duration, type, new) VALUES ('6505550123', 1717390000000, 0, 3, 1)\"");
    sh("monkey -p com.google.android.dialer 1");
    let xml = sh("uiautomator dump /dev/tty");
    assert!(
        xml.contains("content-desc=\"Call (650) 555-0123, Missed call, "),
        "{xml}"
    );
    let icon = bounds_of(&xml, "com.android.dialer:id/call_type_icons").expect("icon");
    let png = phone.exec("screencap -p").stdout;
    let img = image::load_from_memory(&png).unwrap().to_rgba8();
    let red = (icon.left..icon.right)
        .flat_map(|x| (icon.top..icon.bottom).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let p = img.get_pixel(x as u32, y as u32);
            p[0] > 180 && p[1] < 110 && p[2] < 110
        })
        .count();
    assert!(red > 10, "no red arrow drawn in {icon:?}");
}

#[test]
fn messages_lists_the_users_own_last_text_as_you_and_not_unread() {
    let phone = crate::util::boot(0);
    let sh = |line: &str| crate::util::sh(&phone, line);
    let db = "/data/data/com.android.providers.telephony/databases/mmssms.db";
    sh(&format!(
        "sqlite3 {db} \"INSERT INTO sms (address, body, date, type, read) VALUES ('+16505550177', 'Are we on?', 1717390000000, 1, 1); \
         INSERT INTO sms (address, body, date, type, read) VALUES ('+16505550177', 'Yes, at six', 1717390060000, 2, 0)\""
    ));
    sh("monkey -p com.google.android.apps.messaging 1");
    let xml = sh("uiautomator dump /dev/tty");
    assert!(xml.contains("text=\"You: Yes, at six\""), "{xml}");
    let row = xml
        .split("<node ")
        .find(|n| n.contains("You: Yes, at six") && n.contains("swipeableContainer"))
        .expect("the conversation row");
    assert!(!row.contains("Unread"), "{row}");
}

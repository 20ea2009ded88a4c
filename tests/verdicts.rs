//! Verdicts a capable agent can trust (issue 21): the phone's own texts and calls are older than
//! the task's after its setup on every seed, a check reads the outcome rather than the path, and
//! a wrong answer does not score.

use std::collections::BTreeMap;
use std::sync::Arc;

use droidmcp::device::Shell;
use droidmcp::episode::replay::{run_actions, run_instance, Solution};
use droidmcp::episode::Episode;
use droidmcp::task::Action;

use crate::util::task;

async fn sim(seed: u64) -> Arc<dyn Shell> {
    droidmcp::fleet::open(Some(&format!("sim:{seed}")), None)
        .await
        .expect("the embedded phone boots")
}

const SMS: &str = "/data/data/com.android.providers.telephony/databases/mmssms.db";
const CALLS: &str = "/data/data/com.android.providers.contacts/databases/calllog.db";
const EVENTS: &str = "/data/data/com.android.providers.calendar/databases/calendar.db";
const SIMPLE_EVENTS: &str = "/data/data/com.simplemobiletools.calendar.pro/databases/events.db";

/// What the phone must say after a time-relative task's setup, whatever the seed.
enum Want {
    /// The same phone number as this template over the instance's parameters.
    Phone(&'static str),
    /// The same text.
    Text(&'static str),
    /// Anything but this text.
    Not(&'static str),
}

/// Every task whose goal leans on the clock (most recent, last, just, next, unread, a relative day
/// beside a same-title event today): a query over the phone after setup, and what it must give.
/// "Newest" is read from the provider's own dates, so the phone's own texts and calls (dated by
/// its clock at boot) and the task's noise are both in the race. `$(date +%s)` is the phone's
/// clock after setup.
const TIME_RELATIVE: &[(&str, &str, &str, Want)] = &[
    ("aw.sms.reply_most_recent", SMS, "SELECT address FROM sms WHERE type = 1 ORDER BY date DESC LIMIT 1", Want::Phone("{number}")),
    ("aw.sms.reply_most_recent.live", SMS, "SELECT address FROM sms WHERE type = 1 ORDER BY date DESC LIMIT 1", Want::Phone("{number}")),
    ("aw.phone.call_text_sender", SMS, "SELECT address FROM sms WHERE type = 1 ORDER BY date DESC LIMIT 1", Want::Phone("{number}")),
    ("aw.sms.send_received_address", SMS, "SELECT body FROM sms WHERE type = 1 AND address = '{sender}' ORDER BY date DESC LIMIT 1", Want::Text("{addr}")),
    ("messages.forward_last_text", SMS, "SELECT body FROM sms WHERE type = 1 AND address = '{sender}' ORDER BY date DESC LIMIT 1", Want::Text("{text}")),
    ("messages.ir_last_text_from", SMS, "SELECT body FROM sms WHERE type = 1 AND address = '{number}' ORDER BY date DESC LIMIT 1", Want::Text("{message}")),
    ("aw.sms.resend", SMS, "SELECT body FROM sms WHERE type = 2 ORDER BY date DESC LIMIT 1", Want::Text("{message}")),
    ("messages.ir_unread_count", SMS, "SELECT COUNT(*) FROM sms WHERE type = 1 AND read = 0", Want::Text("{k}")),
    ("cross.missed_call_to_contact", CALLS, "SELECT number FROM calls WHERE type = 3 ORDER BY date DESC LIMIT 1", Want::Phone("{an}")),
    ("cross.missed_call_to_sms", CALLS, "SELECT number FROM calls WHERE type = 3 ORDER BY date DESC LIMIT 1", Want::Phone("{an}")),
    ("aw.phone.return_missed_call", CALLS, "SELECT number FROM calls WHERE type = 3 ORDER BY date DESC LIMIT 1", Want::Phone("{number}")),
    ("aw.sms.send_after_call", CALLS, "SELECT number FROM calls WHERE type = 3 ORDER BY date DESC LIMIT 1", Want::Phone("{number}")),
    ("phone.call_back_last_caller", CALLS, "SELECT number FROM calls WHERE type IN (1, 3) ORDER BY date DESC LIMIT 1", Want::Phone("{number}")),
    ("aw.phone.redial", CALLS, "SELECT number FROM calls WHERE duration > 0 ORDER BY date DESC LIMIT 1", Want::Phone("{number}")),
    ("aw.calendar.ir_next_event", EVENTS, "SELECT title FROM Events WHERE dtstart > $(date +%s)000 ORDER BY dtstart LIMIT 1", Want::Text("{x}")),
    ("aw.calendar.ir_next_meeting_with", EVENTS, "SELECT date(dtstart / 1000, 'unixepoch') FROM Events WHERE title = 'Meeting with {person}' AND dtstart > $(date +%s)000 ORDER BY dtstart LIMIT 1", Want::Text("{d}")),
    // Next week starts on the Monday after today by the phone's clock.
    ("aw.calendar.ir_events_in_next_week", EVENTS, "SELECT date($(date +%s), 'unixepoch', '+1 day', 'weekday 1')", Want::Text("{m}")),
    ("calendar.ir_count_next_week", EVENTS, "SELECT date($(date +%s), 'unixepoch', '+1 day', 'weekday 1')", Want::Text("{m}")),
    // Simple Calendar Pro keeps seconds.
    ("aw.simple_calendar.ir_next_event", SIMPLE_EVENTS, "SELECT title FROM events WHERE start_ts > $(date +%s) ORDER BY start_ts LIMIT 1", Want::Text("{x}")),
    ("aw.simple_calendar.ir_next_meeting_with_person", SIMPLE_EVENTS, "SELECT date(start_ts, 'unixepoch') FROM events WHERE title = 'Drinks with {person}' AND start_ts > $(date +%s) ORDER BY start_ts LIMIT 1", Want::Text("{d}")),
    ("aw.simple_calendar.ir_events_in_next_week", SIMPLE_EVENTS, "SELECT date($(date +%s), 'unixepoch', '+1 day', 'weekday 1')", Want::Text("{m}")),
    // The day named is never today, where the same title sits as noise.
    ("aw.calendar.delete_one_event_relative", EVENTS, "SELECT date($(date +%s), 'unixepoch')", Want::Not("{d}")),
    ("aw.calendar.ir_location_relative", EVENTS, "SELECT date($(date +%s), 'unixepoch')", Want::Not("{d}")),
];

fn digits(s: &str) -> String {
    let d: String = s.chars().filter(char::is_ascii_digit).collect();
    d.trim_start_matches('1').to_string()
}

/// One time-relative instance: what is wrong with it after setup, if anything.
async fn time_relative_fault(
    id: &str,
    seed: u64,
    db: &str,
    sql: &str,
    want: &Want,
) -> Option<String> {
    let t = task(id);
    let inst = t.instantiate(seed, &BTreeMap::new()).unwrap();
    let render = |tmpl: &str| droidmcp::task::template::render(tmpl, &inst.params).unwrap();
    let sql = render(sql);
    let expected = match want {
        Want::Phone(t) | Want::Text(t) | Want::Not(t) => render(t),
    };
    let shell = sim(seed).await;
    let _ep = Episode::start(inst, shell.clone(), None).await.unwrap();
    let got = shell
        .exec(&format!("sqlite3 {db} \"{sql}\""))
        .await
        .unwrap()
        .stdout_text()
        .trim()
        .to_string();
    let ok = match want {
        Want::Phone(_) => !got.is_empty() && digits(&got) == digits(&expected),
        Want::Text(_) => got == expected,
        Want::Not(_) => !got.is_empty() && got != expected,
    };
    (!ok).then(|| format!("{id} seed {seed}: {sql} gave {got:?}, want {expected:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_relative_tasks_name_the_target_not_the_noise_on_every_seed() {
    no_fault_on_any_seed(TIME_RELATIVE, |(id, db, sql, want), seed| {
        time_relative_fault(id, seed, db, sql, want)
    })
    .await;
}

/// Looks for `fault` in seeds 0..10 of every row, four phones at a time, and fails naming each.
async fn no_fault_on_any_seed<R, Fut>(rows: &'static [R], fault: fn(&'static R, u64) -> Fut)
where
    R: Sync,
    Fut: std::future::Future<Output = Option<String>> + Send + 'static,
{
    let limit = Arc::new(tokio::sync::Semaphore::new(4));
    let mut set = tokio::task::JoinSet::new();
    for row in rows {
        for seed in 0..10 {
            let limit = limit.clone();
            set.spawn(async move {
                let _permit = limit.acquire().await.unwrap();
                fault(row, seed).await
            });
        }
    }
    let mut faults = Vec::new();
    while let Some(done) = set.join_next().await {
        faults.extend(done.unwrap());
    }
    faults.sort();
    assert!(faults.is_empty(), "{}", faults.join("\n"));
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

/// Replays `actions` on a fresh phone for an instance of `id` (seed 0), runs `then` on the phone
/// before the check (a harness clearing the log) and returns the report.
async fn checked_after(
    id: &str,
    actions: &[Action],
    then: Option<&str>,
) -> droidmcp::episode::Report {
    use droidmcp::episode::replay::{attach, replay};
    let inst = task(id).instantiate(0, &BTreeMap::new()).unwrap();
    let shell = sim(0).await;
    let ep = Arc::new(tokio::sync::Mutex::new(
        Episode::start(inst, shell.clone(), None).await.unwrap(),
    ));
    let session = attach(shell.clone(), &ep).await.unwrap();
    replay(&session, &ep, actions).await.unwrap();
    if let Some(line) = then {
        shell.exec(line).await.unwrap();
    }
    let mut ep = ep.lock().await;
    let report = ep.check().await.unwrap();
    ep.end().await.unwrap();
    report
}

fn check_passed(report: &droidmcp::episode::Report, id: &str) -> bool {
    report
        .verdict
        .checks
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no check {id}"))
        .passed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn page_theme_and_call_checks_read_the_state_when_the_log_line_is_gone() {
    // B-MoCA's log line is evidence, not the outcome: once the buffer no longer holds it (a harness
    // cleared it, a busy phone rotated it, another build never printed it), the page on screen,
    // the theme setting and the call in progress still say the task is done.
    for id in [
        "bmoca.settings.app_info_list",
        "bmoca.settings.bluetooth_page",
        "bmoca.settings.dark_theme",
        "bmoca.phone.call_911",
    ] {
        let golden = task(id).instantiate(0, &BTreeMap::new()).unwrap().golden;
        let report = checked_after(id, &golden, Some("logcat -c")).await;
        assert!(!check_passed(&report, "log"), "{id}: the log was cleared");
        assert!(
            report.verdict.success,
            "{id}: the state was reached: {:?}",
            report.verdict.checks
        );
        // The state checks can fail: the wrong trajectory (the page before, the theme untouched,
        // 912) does not score.
        let wrong = run_instance(&task(id), 0, sim(0).await, None, Solution::Wrong)
            .await
            .unwrap();
        assert!(!wrong.verdict.success, "{id}: {:?}", wrong.verdict.checks);
    }
}

#[tokio::test]
async fn the_dark_theme_check_reads_the_theme_toggled_twice_is_light() {
    // Toggling twice writes the setting (B-MoCA's line) but leaves the theme light; with the
    // line gone, only the theme speaks, and it says light.
    let id = "bmoca.settings.dark_theme";
    let mut twice = task(id).instantiate(0, &BTreeMap::new()).unwrap().golden;
    let finish = twice.pop().unwrap();
    let toggle = twice.last().unwrap().clone();
    twice.extend([toggle, finish]);
    let report = checked_after(id, &twice, Some("logcat -c")).await;
    assert!(!check_passed(&report, "dark"));
    assert!(!report.verdict.success);
}

#[tokio::test]
async fn a_chat_opened_from_the_conversation_list_is_a_chat_started() {
    // Opening a conversation from the list logs no BUGLE CREATE line, but the agent is in a chat
    // ready to type: the outcome the task asks for.
    let id = "bmoca.messages.start_chat";
    let actions = [
        Action::Open("Messages".into()),
        Action::Tap(droidmcp::hierarchy::Selector::parse("id:conversation_name nth:0").unwrap()),
        Action::Finish,
    ];
    let report = checked_after(id, &actions, None).await;
    assert!(!check_passed(&report, "log"));
    assert!(report.verdict.success, "{:?}", report.verdict.checks);
    // The new-chat screen with no recipient is no chat yet.
    let wrong = run_instance(&task(id), 0, sim(0).await, None, Solution::Wrong)
        .await
        .unwrap();
    assert!(!wrong.verdict.success, "{:?}", wrong.verdict.checks);
}

/// Delete tasks whose goal names its targets by title among noise rows: the table, the named
/// column and the parameters that name the targets. AndroidWorld draws every row's title unique,
/// so its goals name exactly the rows to delete.
const NAMED_TARGETS: &[(&str, &str, &str, &[&str])] = &[
    (
        "aw.recipe.delete_single_with_noise",
        "/data/data/com.flauschcode.broccoli/databases/broccoli recipes",
        "title",
        &["r1"],
    ),
    (
        "aw.recipe.delete_multiple_with_noise",
        "/data/data/com.flauschcode.broccoli/databases/broccoli recipes",
        "title",
        &["r1", "r2", "r3"],
    ),
    (
        "aw.expense.delete_single",
        "/data/data/com.arduia.expense/databases/accounting.db expense",
        "name",
        &["e1"],
    ),
    (
        "aw.expense.delete_multiple",
        "/data/data/com.arduia.expense/databases/accounting.db expense",
        "name",
        &["e1", "e2", "e3"],
    ),
    (
        "aw.expense.delete_multiple_2",
        "/data/data/com.arduia.expense/databases/accounting.db expense",
        "name",
        &["e1", "e2", "e3"],
    ),
];

/// One instance: how many rows carry a name the goal gives, if not exactly the targets.
async fn named_target_fault(
    id: &str,
    seed: u64,
    at: &str,
    column: &str,
    targets: &[&str],
) -> Option<String> {
    let inst = task(id).instantiate(seed, &BTreeMap::new()).unwrap();
    let (db, table) = at.split_once(' ').unwrap();
    let names: Vec<String> = targets
        .iter()
        .map(|p| droidmcp::task::template::render(&format!("{{{p}:sql}}"), &inst.params).unwrap())
        .collect();
    let sql = format!(
        "SELECT count(*) FROM {table} WHERE {column} IN ({})",
        names.join(", ")
    );
    let shell = sim(seed).await;
    let _ep = Episode::start(inst, shell.clone(), None).await.unwrap();
    let got = sqlite(&shell, db, &sql).await;
    (got != targets.len().to_string()).then(|| {
        format!(
            "{id} seed {seed}: {got} rows carry the {} names the goal gives",
            targets.len()
        )
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delete_goals_name_only_their_targets_among_the_noise_on_every_seed() {
    no_fault_on_any_seed(NAMED_TARGETS, |(id, at, column, targets), seed| {
        named_target_fault(id, seed, at, column, targets)
    })
    .await;
}

/// Runs one SQL statement (any quotes in it) on the phone and gives its trimmed output.
async fn sqlite(shell: &Arc<dyn Shell>, db: &str, sql: &str) -> String {
    let quoted = format!("'{}'", sql.replace('\'', r"'\''"));
    shell
        .exec(&format!("sqlite3 {db} {quoted}"))
        .await
        .unwrap()
        .stdout_text()
        .trim()
        .to_string()
}

/// The recipe an agent saved, as `{p}` fields of the instance with `edit` applied to each, checked.
async fn recipe_added_as(seed: u64, edit: fn(&str, String) -> String) -> bool {
    let inst = task("aw.recipe.add_single")
        .instantiate(seed, &BTreeMap::new())
        .unwrap();
    let field = |col: &str, tmpl: &str| {
        let v = droidmcp::task::template::render(tmpl, &inst.params).unwrap();
        format!("'{}'", edit(col, v).replace('\'', "''"))
    };
    let sql = format!(
        "INSERT INTO recipes (title, description, servings, preparationTime, source, ingredients, \
         directions, favorite, imageName) VALUES ({}, {}, {}, {}, '', {}, {}, 0, '')",
        field("title", "{r1}"),
        field("description", "{s1}"),
        field("servings", "{v1}"),
        field("preparationTime", "{p1}"),
        field("ingredients", "{i1}"),
        field("directions", "{r1.dir} {a1}"),
    );
    let shell = sim(seed).await;
    let mut ep = Episode::start(inst, shell.clone(), None).await.unwrap();
    sqlite(
        &shell,
        "/data/data/com.flauschcode.broccoli/databases/broccoli",
        &sql,
    )
    .await;
    ep.finish().unwrap();
    ep.check().await.unwrap().verdict.success
}

#[tokio::test]
async fn an_added_recipes_free_text_is_matched_as_androidworld_matches_it() {
    // AndroidWorld compares every text field of a recipe with `fuzzy_match` (case-insensitive,
    // difflib ratio >= 0.9): a title typed in lower case, a capital in the servings and the
    // directions' closing period left off are the recipe it asked for.
    let typed = |col: &str, v: String| match col {
        "title" => v.to_lowercase(),
        "servings" => v.replacen('s', "S", 1),
        "directions" => v.trim_end_matches('.').to_string(),
        _ => v,
    };
    assert!(recipe_added_as(4, typed).await);
    // Another preparation time is another recipe.
    let other = |col: &str, v: String| {
        if col == "preparationTime" {
            "overnight".into()
        } else {
            v
        }
    };
    assert!(!recipe_added_as(4, other).await);
}

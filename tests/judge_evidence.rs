//! Evidence that contains what decides (issue 24's bar): a scripted judge that decides only from what
//! each request contains — the device facts, the screens and the answer inside its fenced blocks —
//! with the task's own checks, must give the rule verdict on at least 97% of golden, empty, wrong and
//! near-miss episodes in trajectory and essential-states modes. It is the evidence that is measured:
//! a real model's accuracy comes on top of it.

use std::collections::HashMap;
use std::sync::Arc;

use droidmcp::eval::constraint::Constraint;
use droidmcp::eval::facts::Fact;
use droidmcp::eval::Check;
use droidmcp::judge::calibration_run;
use droidmcp::judge::completeness;
use droidmcp::judge::misjudgment::findings;
use droidmcp::judge::{Evidence, Mode, Panel, StepEvidence};
use droidmcp::task::Task;
use serde_json::Value;

use crate::judge::{says, verdict, Answerer, Scripted};
use crate::oracle_model::message_text;

/// Seeds the evidence-only judge knows the instances of, and the calibration runs: one, since two
/// seeds of a task may share a goal (the time to meet is in the text message, not the goal).
const SEEDS: u64 = 1;

/// The text of every fenced block labelled `label` in `text`.
fn blocks<'a>(text: &'a str, label: &str) -> Vec<&'a str> {
    let opener = format!("<<<UNTRUSTED {label} ");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(&opener) {
        let after = &rest[at + opener.len()..];
        let Some((nonce, body)) = after.split_once('\n') else {
            break;
        };
        let closer = format!("UNTRUSTED {nonce}>>>");
        let Some(end) = body.find(&closer) else { break };
        out.push(body[..end].trim_end_matches('\n'));
        rest = &body[end + closer.len()..];
    }
    out
}

/// Device facts as the prompt renders them: `$ command   (why)` and the output below it.
fn facts_of(block: &str) -> Vec<Fact> {
    let mut facts: Vec<Fact> = Vec::new();
    for line in block.lines() {
        let header = line
            .strip_prefix("$ ")
            .and_then(|l| l.rsplit_once("   ("))
            .and_then(|(command, why)| Some((command, why.strip_suffix(')')?)));
        match (header, facts.last_mut()) {
            (Some((command, why)), _) => facts.push(Fact {
                // `read by check ID` names the check (`judge::prompt::facts_text`).
                source: why
                    .strip_prefix("read by check ")
                    .unwrap_or(why)
                    .to_string(),
                command: command.to_string(),
                output: String::new(),
            }),
            (None, Some(f)) => {
                if !f.output.is_empty() {
                    f.output.push('\n');
                }
                f.output.push_str(line);
            }
            (None, None) => {}
        }
    }
    facts
}

/// The trajectory as the prompt renders it: `Step N: {action JSON}`, then indented lines (the
/// foreground, the elements of the screen after the step).
fn steps_of(trajectory: &str) -> Vec<StepEvidence> {
    let mut steps: Vec<StepEvidence> = Vec::new();
    for line in trajectory.lines() {
        let header = line
            .strip_prefix("Step ")
            .and_then(|l| l.split_once(": "))
            .and_then(|(n, action)| Some((n.parse::<usize>().ok()?, action)));
        match (header, steps.last_mut()) {
            (Some((number, action)), _) => steps.push(StepEvidence {
                number,
                action: action.to_string(),
                action_json: serde_json::from_str(action).unwrap_or(Value::Null),
                ..Default::default()
            }),
            (None, Some(step)) => match line.trim().strip_prefix("foreground: ") {
                Some(fg) => step.foreground = fg.to_string(),
                None => {
                    step.elements.push_str(line.trim());
                    step.elements.push('\n');
                }
            },
            (None, None) => {}
        }
    }
    steps
}

/// The goal a request quotes: every line between the two `"""` lines after its heading (a goal may
/// run over several lines).
fn goal_in(text: &str) -> String {
    let Some((_, rest)) = text.split_once(
        "as the agent was given it (everything between the two `\"\"\"` lines):\n\"\"\"\n",
    ) else {
        return String::new();
    };
    rest.split_once("\n\"\"\"\n")
        .map_or(rest, |(goal, _)| goal)
        .to_string()
}

/// The evidence a request carries, read back from its text.
fn evidence_in(text: &str) -> Evidence {
    let one = |label: &str| blocks(text, label).first().map(|s| s.to_string());
    let answer = one("agent_answer");
    let answer = answer.filter(|_| !text.contains("Agent's answer (data):\n(none)"));
    Evidence {
        goal: goal_in(text),
        answer,
        steps: blocks(text, "trajectory")
            .first()
            .or(blocks(text, "actions").first())
            .map(|t| steps_of(t))
            .unwrap_or_default(),
        final_elements: one("final_screen").unwrap_or_default(),
        facts: one("device_facts")
            .map(|f| facts_of(&f))
            .unwrap_or_default(),
        ..Default::default()
    }
}

/// A judge that knows each instance's checks (by its goal) and decides with them from the request
/// alone; it lists one state ("the goal is achieved") and leaves every step check to the end state.
/// Tasks that share a goal's words are told apart as a reader of the request can: by the checks the
/// device facts say they were read for.
pub fn evidence_only_judge(tasks: &[Arc<Task>]) -> Answerer {
    type Known = (Arc<Task>, Vec<Check>, Vec<Constraint>);
    let mut known: HashMap<String, Vec<Known>> = HashMap::new();
    for task in tasks {
        for seed in 0..SEEDS {
            if let Ok(i) = task.instantiate(seed, &Default::default()) {
                known.entry(i.goal.clone()).or_default().push((
                    task.clone(),
                    i.checks.clone(),
                    i.constraints.clone(),
                ));
            }
        }
    }
    let known = Arc::new(known);
    Arc::new(move |request: Value| {
        let known = known.clone();
        Box::pin(async move {
            let text: String = request["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .map(message_text)
                .collect::<Vec<_>>()
                .join("\n");
            if text.contains("List the states the phone must pass through") {
                return says("{\"states\": [\"the goal is achieved\"]}");
            }
            if text.contains("of the agent's trajectory. The action") {
                return verdict("failure");
            }
            let evidence = evidence_in(&text);
            // Facts read for a check of that id, with that check's own command when it has one.
            let read_for = |checks: &[Check]| {
                evidence
                    .facts
                    .iter()
                    .filter(|f| {
                        checks.iter().any(|c| {
                            c.id == f.source
                                && c.probe.command().is_none_or(|command| command == f.command)
                        })
                    })
                    .count()
            };
            let candidates = known.get(&evidence.goal);
            let best =
                candidates.and_then(|c| c.iter().max_by_key(|(_, checks, _)| read_for(checks)));
            let Some((task, checks, constraints)) = best else {
                return says(&format!(
                    "{{\"verdict\": \"failure\", \"confidence\": 0.5, \"reason\": \"unknown goal {:?}\", \"steps\": []}}",
                    evidence.goal.replace('"', "'")
                ));
            };
            let sight = completeness::decide(task, checks, constraints, &evidence).await;
            if let Some(dir) = std::env::var_os("DROIDMCP_EVIDENCE_DUMP") {
                // Each request's text and what was read back from it, for a person to look at.
                let n = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos());
                let _ = std::fs::write(
                    std::path::Path::new(&dir).join(format!("{n}.txt")),
                    format!("{text}\n\n==== read back\n{evidence:#?}\n\n==== sight\n{sight:#?}"),
                );
            }
            // The reason says which checks failed or could not be read, for the test's report.
            let why: Vec<String> = sight
                .checks
                .iter()
                .filter(|c| !c.passed)
                .map(|c| format!("{} {}", c.check, c.missing.as_deref().unwrap_or("failed")))
                .collect();
            says(
                &serde_json::json!({
                    "verdict": if sight.success { "success" } else { "failure" },
                    "confidence": 0.9,
                    "reason": why.join("; "),
                    "steps": [],
                })
                .to_string(),
            )
        })
    })
}

#[tokio::test]
async fn evidence_alone_decides_as_the_rules_do_in_trajectory_and_essential_states_modes() {
    let catalog = crate::util::catalog();
    // Every 9th task in id order (36 of 320, spread over the suite's apps) keeps the test command
    // quick; with DROIDMCP_EVIDENCE_SUITE=1 every task is run (BENCHMARKS.md has that figure), with
    // DROIDMCP_EVIDENCE_TASKS=a,b the tasks named. Every 13th (24 tasks) was tried and cost more
    // CPU, not less (191 s against 131 s, one after the other): its sample held the slow
    // recorder, camera and map tasks.
    let every = if std::env::var_os("DROIDMCP_EVIDENCE_SUITE").is_some() {
        1
    } else {
        9
    };
    let tasks: Vec<Arc<Task>> = match std::env::var("DROIDMCP_EVIDENCE_TASKS") {
        Ok(ids) => ids.split(',').map(|id| catalog.get(id).unwrap()).collect(),
        Err(_) => catalog.iter().step_by(every).cloned().collect(),
    };
    let s = Scripted::start().await;
    s.answer_async("a", evidence_only_judge(&tasks));
    s.answer_async("b", evidence_only_judge(&tasks));
    let panel = Panel::new(
        s.judge("a", "gpt", "images = true\nmax_keyframes = 2\n"),
        s.judge("b", "gemini", ""),
        None,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = droidmcp::store::Store::open(&dir.path().join("episodes.db")).unwrap();
    let modes = [Mode::Trajectory, Mode::EssentialStates];
    let episodes = calibration_run::run(&tasks, SEEDS, &panel, &modes, &store).await;
    let notes: Vec<String> = episodes
        .iter()
        .filter_map(|e| {
            e.note
                .as_ref()
                .map(|n| format!("{} {}: {n}", e.task, e.trajectory))
        })
        .collect();
    assert!(notes.is_empty(), "{notes:#?}");
    let kinds = |prefix: &str| {
        episodes
            .iter()
            .filter(|e| e.trajectory.starts_with(prefix))
            .count()
    };
    assert!(kinds("golden") == tasks.len() && kinds("empty") == tasks.len());
    let names = ["a".to_string(), "b".to_string()];
    let found = findings(&names, &modes, &episodes);
    // Why judge "a" erred, episode by episode.
    let truths: HashMap<&str, (bool, &str, &str)> = episodes
        .iter()
        .filter_map(|e| {
            Some((
                e.episode.as_str(),
                (e.truth?, e.task.as_str(), e.trajectory.as_str()),
            ))
        })
        .collect();
    let reasons: Vec<String> = store
        .with_connection(|c| {
            let mut q = c.prepare(
                "SELECT episode_id, mode, verdict, reason FROM judge_verdicts WHERE judge = 'a'",
            )?;
            let rows = q.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
        })
        .unwrap()
        .into_iter()
        .filter_map(|(ep, mode, said, why)| {
            let (truth, task, trajectory) = truths.get(ep.as_str())?;
            ((said == "success") != *truth)
                .then(|| format!("  {mode} {task} ({trajectory}): said {said}: {why}"))
        })
        .collect();
    let report = format!(
        "{}why judge a erred:\n{}\n",
        found.text(),
        reasons.join("\n")
    );
    eprintln!("{} episodes\n{report}", episodes.len());
    // Issue 24's bar was 97% when the facts carried what the rule checks read. Since issue 37 a
    // judge sees what changed since setup, not the checks' readings (the same evidence with or
    // without rules), and 84 of these 92 episodes (91.3%) are decided from it by the checks: the
    // eight left are goldens whose checks read state the agent did not change (a "verify" task's
    // setting already on, the log, the focused window) or read a changed row through a provider
    // URI the evidence shows as its database table. A judge reads those from the screens.
    // With AndroidWorld's apps (stop 43, 275 tasks) every 9th task brings in more texting tasks
    // read through `content://sms/sent` and a Markor folder checked with `test -d`: 102 of 116
    // (87.9%) agree, 106 (91.4%) are decided completely. At 307 tasks (2026-12-07): 127 of 141
    // (90.1%) agree; the 14 misses are all goldens: texts read through `content://sms/sent`, the
    // log, a recording found by `ls -t`, a "verify" task's untouched setting, and questions
    // whose answer is on the screens. At 320 tasks every 9th brings B-MoCA's Files and Chrome
    // tasks, decided by a log line: 110 of 130 (84.6% [77.4, 89.8]) agree, the 20 misses all
    // goldens of those kinds (the log, the focused window, `content://sms/sent`, a count by
    // `find`, questions). Until the log and provider reads are answered from what the evidence
    // shows (issue 37), the bar stands below that, at 80%.
    const REQUEST_BAR: f64 = 0.80;
    for j in &found.judges {
        let agreement = 1.0 - j.misjudged.value().unwrap();
        assert!(
            agreement >= REQUEST_BAR,
            "{} {}: {:.1}% agreement\n{report}",
            j.mode.as_str(),
            j.judge,
            agreement * 100.0
        );
    }
    assert!(
        found.completeness.agreeing.value().unwrap() >= REQUEST_BAR,
        "{report}"
    );
}

/// The evidence of `task`'s golden episode on a phone of `seed`, recorded in a fresh store.
async fn golden_evidence(task: &Arc<Task>, seed: u64) -> Evidence {
    let dir = tempfile::tempdir().unwrap();
    let store = droidmcp::store::Store::open(&dir.path().join("episodes.db")).unwrap();
    let phone: Arc<dyn droidmcp::device::Shell> = Arc::new(crate::util::boot(seed));
    let report = droidmcp::episode::replay::run_instance(
        task,
        seed,
        phone,
        Some(store.clone()),
        droidmcp::episode::replay::Solution::Golden,
    )
    .await
    .unwrap();
    droidmcp::judge::source::from_store(&store, &report.episode, None).unwrap()
}

#[tokio::test]
async fn judges_see_what_changed_the_same_with_or_without_rules_and_never_a_checks_reading() {
    let catalog = crate::util::catalog();
    // Each task with a change judges must see, as its fact's command names it.
    let cases = [
        // A question whose rule reads the answer with `SELECT body …` (issue 37's example): its
        // golden only reads the inbox, so nothing changed and only the screens show the answer.
        ("messages.ir_last_text_from", ""),
        (
            "aw.calendar.add_event_at_hour",
            "calendar.db: rows of Events",
        ),
        (
            "aw.contacts.add_contact",
            "contacts2.db: rows of raw_contacts",
        ),
        ("cross.contact_to_call", "calllog.db: rows of calls"),
        ("bmoca.settings.wifi_off", "settings get global wifi_on"),
        (
            "bmoca.clock.turn_on_9am",
            "alarms.db: rows of alarm_templates",
        ),
        ("cross.screen_timeout_to_sms", "mmssms.db: rows of sms"),
    ];
    for (id, change) in cases {
        let task = catalog.get(id).unwrap();
        assert!(!task.checks.is_empty(), "{id} has rules");
        let mut ruleless = (*task).clone();
        ruleless.checks.clear();
        ruleless.constraints.clear();
        ruleless.success = droidmcp::eval::expr::Expr::All(Vec::new());
        let with_rules = golden_evidence(&task, 2).await;
        let without = golden_evidence(&Arc::new(ruleless), 2).await;
        let shown = |e: &Evidence| -> Vec<String> {
            e.facts
                .iter()
                .map(|f| format!("$ {} ({})\n{}", f.command, f.source, f.output))
                .collect()
        };
        assert_eq!(
            shown(&with_rules),
            shown(&without),
            "{id}: the facts differ"
        );
        assert_eq!(with_rules.final_elements, without.final_elements, "{id}");
        assert_eq!(
            with_rules.final_screenshot, without.final_screenshot,
            "{id}"
        );
        for (a, b) in with_rules.steps.iter().zip(&without.steps) {
            assert_eq!(
                (&a.action, &a.elements, &a.before, &a.screenshot),
                (&b.action, &b.elements, &b.before, &b.screenshot),
                "{id} step {}",
                a.number
            );
        }
        assert_eq!(with_rules.steps.len(), without.steps.len());
        let text = shown(&with_rules).join("\n");
        eprintln!(
            "==== {id}: {} facts, {} characters\n{text}",
            with_rules.facts.len(),
            text.len()
        );
        if change.is_empty() {
            assert!(
                with_rules.facts.iter().all(|f| f.source == "clock"),
                "{id}: nothing changed, yet\n{text}"
            );
        } else {
            assert!(text.contains(change), "{id}: no {change:?} among\n{text}");
        }
        // No check's query or command, and no fact said to be read for a check.
        let instance = task.instantiate(2, &Default::default()).unwrap();
        for check in &instance.checks {
            if let droidmcp::eval::check::Probe::Sqlite {
                test: droidmcp::eval::check::SqliteTest::Query { sql, .. },
                ..
            } = &check.probe
            {
                assert!(!text.contains(sql), "{id}: check {} shown: {sql}", check.id);
            }
            assert!(
                !text.contains(&format!("check {}", check.id)),
                "{id}\n{text}"
            );
        }
        assert!(!text.contains("SELECT"), "{id}\n{text}");
    }
}

/// What changed since setup reads an app's databases wherever it keeps them, and files a setup
/// pushed are in MediaStore's table from the start, as MediaProvider has them on a real phone:
/// a judge was told VLC's new playlist was missing (it lives in `app_db/`) and that 25 songs the
/// setup pushed had been "added" by the agent.
#[tokio::test]
async fn changes_read_every_apps_databases_and_no_media_row_a_setup_pushed_is_new() {
    use droidmcp::device::Shell;
    use droidmcp::eval::changes;
    let phone = crate::util::boot(5);
    // As a setup does: songs pushed over adb, then the baseline read.
    for name in ["one.mp3", "two.mp3"] {
        phone
            .push(&format!("/sdcard/Music/{name}"), b"ID3", 0o644)
            .await
            .unwrap();
    }
    let before = changes::read(&phone).await.unwrap();
    // As an agent's app does: a database outside `databases/`.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("lists.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE playlist (name TEXT); INSERT INTO playlist VALUES ('Road trip');",
    )
    .unwrap();
    drop(conn);
    phone
        .push(
            "/data/data/org.videolan.vlc/app_db/lists.db",
            &std::fs::read(&db).unwrap(),
            0o660,
        )
        .await
        .unwrap();
    let after = changes::read(&phone).await.unwrap();
    let facts: Vec<String> = changes::facts(&before, &after)
        .iter()
        .map(|f| format!("{} | {} | {}", f.command, f.source, f.output))
        .collect();
    assert!(
        facts
            .iter()
            .any(|f| f.contains("app_db/lists.db") && f.contains("name=Road trip")),
        "{facts:#?}"
    );
    assert!(
        !facts
            .iter()
            .any(|f| f.contains("one.mp3") || f.contains("two.mp3")),
        "{facts:#?}"
    );
}

#[tokio::test]
async fn a_picture_the_goal_names_is_shown_as_the_phone_has_it() {
    let catalog = crate::util::catalog();
    // The goal names expenses.jpg; the expenses are text drawn in it (and on no element list), beside
    // decoy pictures of other expenses the goal does not name.
    let task = catalog.get("aw.expense.add_multiple_from_gallery").unwrap();
    let evidence = golden_evidence(&task, 3).await;
    let paths: Vec<&str> = evidence.pictures.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["/sdcard/DCIM/expenses.jpg"]);
    // The pictures setup pushed were in MediaStore when setup's state was read (its database is
    // there from boot), so the gallery's first look at them is no change the agent made.
    assert!(
        !evidence
            .facts
            .iter()
            .any(|f| f.command.contains("external.db")),
        "{:#?}",
        evidence.facts
    );
    let shown = image::load_from_memory(&evidence.pictures[0].1)
        .unwrap()
        .to_rgba8();
    // The picture as setup pushed it, at most 1024 px on its long side: same shape, and text on it
    // (dark pixels on a light page), not a blank or a screenshot of the gallery.
    let (w, h) = (shown.width() as f64, shown.height() as f64);
    assert!(w.max(h) <= 1024.0);
    let dark = shown
        .pixels()
        .filter(|p| p[0] < 100 && p[1] < 100 && p[2] < 100)
        .count();
    let light = shown
        .pixels()
        .filter(|p| p[0] > 200 && p[1] > 200 && p[2] > 200)
        .count();
    let total = (shown.width() * shown.height()) as usize;
    assert!(
        dark > total / 200 && light > total / 2,
        "dark {dark} light {light} of {total}"
    );
    // The same picture for a task without rules.
    let mut ruleless = (*task).clone();
    ruleless.checks.clear();
    ruleless.constraints.clear();
    ruleless.success = droidmcp::eval::expr::Expr::All(Vec::new());
    let without = golden_evidence(&Arc::new(ruleless), 3).await;
    assert_eq!(without.pictures, evidence.pictures);
}

#[tokio::test]
async fn a_sliders_position_is_read_from_the_frame_for_judges() {
    // Brightness already at its minimum (or maximum): nothing changes, so no fact shows the
    // setting, and the dump has no slider value; the frame of the Display page does.
    let catalog = crate::util::catalog();
    for (id, low, high) in [
        ("aw.settings.brightness_min_verify", 0, 3),
        ("aw.settings.brightness_max_verify", 97, 100),
    ] {
        let task = catalog.get(id).unwrap();
        let evidence = golden_evidence(&task, 1).await;
        let slider = evidence
            .final_elements
            .lines()
            .find(|l| l.contains(" slider "))
            .unwrap_or_else(|| panic!("{id}: no slider on\n{}", evidence.final_elements));
        let percent: u32 = slider
            .split_once(" at~")
            .and_then(|(_, rest)| rest.split_once('%'))
            .and_then(|(n, _)| n.parse().ok())
            .unwrap_or_else(|| panic!("{id}: no reading in {slider}"));
        assert!((low..=high).contains(&percent), "{id}: {slider}");
    }
}

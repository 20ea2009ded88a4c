//! Evaluators on real command output from the embedded phone (which prints what Android prints):
//! `content query` rows, logcat threadtime lines, `dumpsys window`, `settings get`, pulled SQLite.

use std::collections::BTreeMap;
use std::sync::Arc;

use droidmcp::device::Shell;
use droidmcp::eval::android;
use droidmcp::eval::check::{Check, Context, Probe, RowsTest, SqliteTest, When};
use droidmcp::eval::matcher::Matcher;
use droidmcp::eval::sqlite::DbSnapshot;

async fn sim() -> Arc<dyn Shell> {
    droidmcp::fleet::open(Some("sim:5"), None).await.unwrap()
}

async fn run(
    shell: &dyn Shell,
    before: &BTreeMap<String, DbSnapshot>,
    probe: Probe,
) -> droidmcp::eval::CheckResult {
    let check = Check {
        id: "c".into(),
        when: When::Final,
        weight: 1.0,
        subgoal: false,
        info: false,
        probe,
    };
    let values = BTreeMap::new();
    let ctx = Context {
        shell,
        before,
        screens: &[],
        actions: &[],
        reference: &[],
        answer: None,
        log_baseline: None,
        values: &values,
    };
    check.evaluate(&ctx).await.unwrap()
}

const ALARMS: &str = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db";

#[tokio::test]
async fn parsers_read_the_phones_own_output() {
    let shell = sim().await;
    let rows = android::parse_content_rows(
        &shell
            .exec("content query --uri content://sms/inbox --projection address:body")
            .await
            .unwrap()
            .stdout_text(),
    );
    assert!(!rows.is_empty(), "the phone seeds conversations");
    assert!(rows
        .iter()
        .all(|r| android::row_get(r, "address").is_some()));
    shell
        .exec("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
        .await
        .unwrap();
    let log = android::parse_logcat(
        &shell
            .exec("logcat -d -v threadtime")
            .await
            .unwrap()
            .stdout_text(),
    );
    assert!(log.iter().any(|l| l.tag == "ActivityTaskManager"
        && l.level == 'I'
        && l.message.contains("com.google.android.deskclock")));
    let focus =
        android::parse_focus(&shell.exec("dumpsys window").await.unwrap().stdout_text()).unwrap();
    assert_eq!(focus.0, "com.google.android.deskclock");
    assert_eq!(
        android::parse_setting(
            &shell
                .exec("settings get global no_such_key")
                .await
                .unwrap()
                .stdout_text()
        ),
        None
    );
}

#[tokio::test]
async fn sqlite_rows_added_and_nothing_else_changed() {
    let shell = sim().await;
    let before: BTreeMap<String, DbSnapshot> = [(
        ALARMS.to_string(),
        DbSnapshot::pull(shell.as_ref(), ALARMS).await.unwrap(),
    )]
    .into();
    let added = |exact| Probe::Sqlite {
        db: ALARMS.into(),
        test: SqliteTest::RowsAdded {
            table: "alarm_templates".into(),
            key: "_id".into(),
            ignore: vec![],
            expect: vec![vec![
                ("hour".into(), Matcher::Eq("7".into())),
                ("minutes".into(), Matcher::Eq("15".into())),
            ]],
            exact,
        },
    };
    assert!(
        !run(shell.as_ref(), &before, added(true)).await.passed,
        "nothing added yet"
    );
    let sql = "INSERT INTO alarm_templates(hour, minutes, daysofweek, enabled, vibrate, label) VALUES (7, 15, 0, 1, 1, '')";
    assert!(shell
        .exec(&format!("sqlite3 {ALARMS} \"{sql}\""))
        .await
        .unwrap()
        .success());
    let r = run(shell.as_ref(), &before, added(true)).await;
    assert!(r.passed, "{r:?}");
    assert!(r.evidence.iter().any(|e| e.command.starts_with("pull ")));
    // Changing an existing row breaks "nothing else changed".
    shell
        .exec(&format!(
            "sqlite3 {ALARMS} \"UPDATE alarm_templates SET enabled = 1 WHERE hour = 8\""
        ))
        .await
        .unwrap();
    let r = run(shell.as_ref(), &before, added(true)).await;
    assert!(!r.passed && r.reason.unwrap().contains("other than the new ones"));
    let count = run(
        shell.as_ref(),
        &before,
        Probe::Sqlite {
            db: ALARMS.into(),
            test: SqliteTest::Query {
                sql: "SELECT * FROM alarm_templates".into(),
                rows: RowsTest::Count(vec![], Matcher::Eq("3".into())),
            },
        },
    )
    .await;
    assert!(count.passed, "{count:?}");
}

#[tokio::test]
async fn settings_and_content_checks_keep_evidence() {
    let shell = sim().await;
    let none = BTreeMap::new();
    shell
        .exec("settings put global airplane_mode_on 1")
        .await
        .unwrap();
    let r = run(
        shell.as_ref(),
        &none,
        Probe::Settings {
            ns: "global".into(),
            key: "airplane_mode_on".into(),
            test: Matcher::Ne("0".into()),
        },
    )
    .await;
    assert!(r.passed);
    assert_eq!(
        r.evidence[0].command,
        "settings get global airplane_mode_on"
    );
    assert_eq!(r.evidence[0].output.trim(), "1");
    let r = run(
        shell.as_ref(),
        &none,
        Probe::Content {
            uri: "content://sms/sent".into(),
            projection: vec!["address".into(), "body".into()],
            selection: None,
            rows: RowsTest::Any(vec![(
                "body".into(),
                Matcher::Fuzzy {
                    text: "no such message anywhere".into(),
                    threshold: 0.9,
                },
            )]),
        },
    )
    .await;
    assert!(!r.passed);
    assert!(
        r.evidence[0].output.contains("Row: 0"),
        "raw output is kept: {:?}",
        r.evidence
    );
}

//! Verdicts the infrastructure cannot spoil: every device command runs under a timeout, an output cap
//! and cancellation (a real hang on the embedded phone: a recursive SQLite query that never ends), and
//! a check that cannot read the device is inconclusive, never the agent's failure.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use droidmcp::device::{Device, Limits, Shell, ShellError};
use droidmcp::eval::check::{Check, Context, Probe, When};
use droidmcp::eval::Matcher;

/// A query SQLite can run forever in constant memory: it holds the phone for as long as it runs.
const HANG: &str = "sqlite3 /data/local/tmp/hang.db 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c;'";

fn phone() -> Arc<dyn Shell> {
    Arc::new(droidmcp::sim::Phone::new(Default::default()).expect("the embedded phone boots"))
}

fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout: Duration::from_millis(timeout_ms),
        ..Limits::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_command_times_out_and_frees_the_phone_for_everyone() {
    let device = Device::with_limits(phone(), limits(1_000));
    let other = device.clone();
    let started = Instant::now();
    let hung = tokio::spawn(async move { device.shell(HANG).await });
    // Another session wants the screen while the phone is busy: it waits for the timeout, not forever.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let dump = tokio::time::timeout(Duration::from_secs(20), other.dump_xml())
        .await
        .expect("the dump must not wait for the hung command to finish on its own");
    assert!(dump
        .expect("the dump works once the phone is free")
        .contains("<hierarchy"));
    let err = hung.await.unwrap().expect_err("the hang must time out");
    let text = err.to_string();
    assert!(
        text.contains("did not finish within 1 s") && text.contains("sqlite3"),
        "{text}"
    );
    assert!(!matches!(&err, droidmcp::device::DeviceError::Shell(e) if e.is_device_lost()));
    assert!(started.elapsed() < Duration::from_secs(20));
    // And the phone answers at once afterwards.
    let out = other.shell("echo still here").await.unwrap();
    assert_eq!(out.stdout_text(), "still here\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_a_command_cancels_it_on_the_phone() {
    let shell = phone();
    let hung = {
        let shell = shell.clone();
        tokio::spawn(async move { shell.exec(HANG).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    hung.abort();
    // Without cancellation the phone would stay locked by the query forever.
    let out = tokio::time::timeout(Duration::from_secs(20), shell.exec("echo free"))
        .await
        .expect("the cancelled query must release the phone")
        .unwrap();
    assert_eq!(out.stdout_text(), "free\n");
}

#[tokio::test]
async fn output_past_the_cap_is_an_error_not_a_truncated_answer() {
    let device = Device::with_limits(
        phone(),
        Limits {
            max_output: 1_000,
            ..Limits::default()
        },
    );
    let err = device.shell("uiautomator dump /dev/tty").await.unwrap_err();
    assert!(err.to_string().contains("more than 1000 bytes"), "{err}");
    let err = device
        .shell_handle()
        .pull("/system/bin/../../data/local/tmp/none")
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        ShellError::NoSuchFile { .. } | ShellError::PermissionDenied { .. }
    ));
    assert_eq!(device.shell("echo ok").await.unwrap().stdout_text(), "ok\n");
}

fn check(id: &str, probe: Probe) -> Check {
    Check {
        id: id.into(),
        when: When::Final,
        weight: 1.0,
        subgoal: false,
        info: false,
        probe,
    }
}

async fn evaluate(shell: &dyn Shell, c: &Check) -> droidmcp::eval::CheckResult {
    let before = BTreeMap::new();
    let values = BTreeMap::new();
    let ctx = Context {
        shell,
        before: &before,
        screens: &[],
        actions: &[],
        reference: &[],
        answer: None,
        log_baseline: None,
        values: &values,
    };
    c.evaluate(&ctx).await.expect("the device is not lost")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checks_that_cannot_read_the_device_are_inconclusive() {
    let device = Device::with_limits(phone(), limits(1_000));
    let shell = device.shell_handle();

    // A command that hangs past the timeout.
    let r = evaluate(
        shell.as_ref(),
        &check(
            "hang",
            Probe::Shell {
                command: HANG.into(),
                test: Matcher::Eq("1".into()),
            },
        ),
    )
    .await;
    assert!(!r.passed);
    assert!(
        r.inconclusive
            .as_deref()
            .unwrap()
            .contains("did not finish"),
        "{r:?}"
    );

    // App data on a production phone (no root): adb refuses the pull and `ls` says so.
    let no_root = NoRoot(shell.clone());
    let r = evaluate(
        &no_root,
        &check(
            "prefs",
            Probe::Prefs {
                path: "/data/data/com.android.settings/shared_prefs/x.xml".into(),
                key: "k".into(),
                test: Matcher::Eq("v".into()),
            },
        ),
    )
    .await;
    assert!(!r.passed);
    assert!(
        r.inconclusive
            .as_deref()
            .unwrap_or_default()
            .contains("permission denied"),
        "{r:?}"
    );
    let r = evaluate(
        &no_root,
        &check(
            "file",
            Probe::File {
                path: "/data/data/com.android.settings/x".into(),
                test: droidmcp::eval::check::FileTest::Absent,
            },
        ),
    )
    .await;
    assert!(
        !r.passed,
        "an unreadable directory must not pass as an absent file: {r:?}"
    );
    assert!(
        r.inconclusive
            .as_deref()
            .unwrap_or_default()
            .contains("permission denied"),
        "{r:?}"
    );

    // A read tool that fails: `settings` with a namespace Android does not have.
    let r = evaluate(
        shell.as_ref(),
        &check(
            "settings",
            Probe::Settings {
                ns: "nowhere".into(),
                key: "wifi_on".into(),
                test: Matcher::Eq("0".into()),
            },
        ),
    )
    .await;
    assert!(!r.passed);
    assert!(r.inconclusive.is_some(), "{r:?}");

    // The same probes on readable state still pass and fail on the agent's work.
    let ok = evaluate(
        shell.as_ref(),
        &check(
            "wifi",
            Probe::Settings {
                ns: "global".into(),
                key: "wifi_on".into(),
                test: Matcher::Eq("1".into()),
            },
        ),
    )
    .await;
    assert!(ok.passed && ok.inconclusive.is_none(), "{ok:?}");
    let absent = evaluate(
        shell.as_ref(),
        &check(
            "missing prefs",
            Probe::Prefs {
                path: "/data/data/com.android.settings/shared_prefs/none.xml".into(),
                key: "k".into(),
                test: Matcher::Eq("v".into()),
            },
        ),
    )
    .await;
    assert!(
        !absent.passed && absent.inconclusive.is_none(),
        "{absent:?}"
    );
}

/// What a production phone (no root) answers for app data: adb's sync service refuses the pull
/// (`AdbShell` maps that to `PermissionDenied`) and toybox `ls` prints `Permission denied`.
struct NoRoot(Arc<dyn Shell>);

#[async_trait::async_trait]
impl Shell for NoRoot {
    fn serial(&self) -> &str {
        self.0.serial()
    }

    async fn exec(&self, command_line: &str) -> Result<droidmcp::device::ShellOutput, ShellError> {
        match command_line.strip_prefix("ls ") {
            Some(path) if path.contains("/data/data/") => Ok(droidmcp::device::ShellOutput::fail(
                format!("ls: {path}: Permission denied\n"),
                1,
            )),
            _ => self.0.exec(command_line).await,
        }
    }

    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        if path.starts_with("/data/data/") {
            return Err(ShellError::PermissionDenied { path: path.into() });
        }
        self.0.pull(path).await
    }

    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        self.0.push(path, data, mode).await
    }
}

/// A served phone keeps real time, so `sleep 600` really waits: cancelled, it must let go at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_time_sleep_is_cancelled_by_the_timeout() {
    let phone = droidmcp::sim::Phone::new(droidmcp::sim::SimConfig {
        clock: droidmcp::sim::ClockMode::Real,
        ..Default::default()
    })
    .unwrap();
    let device = Device::with_limits(Arc::new(phone), limits(1_000));
    let started = Instant::now();
    let err = device.shell("sleep 600").await.unwrap_err();
    assert!(
        err.to_string().contains("did not finish within 1 s"),
        "{err}"
    );
    let out = tokio::time::timeout(Duration::from_secs(10), device.shell("echo awake"))
        .await
        .expect("the interrupted sleep must release the phone")
        .unwrap();
    assert_eq!(out.stdout_text(), "awake\n");
    assert!(started.elapsed() < Duration::from_secs(10));
}

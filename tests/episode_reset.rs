//! Every episode starts from a known phone: the boot snapshot is loaded before setup (through the
//! emulator console the embedded phone answers), so what an earlier episode did never reaches a
//! later one; a second episode on a phone aborts the first with a reason its agent reads; a phone
//! keeping real time is back on real time when an episode that set its clock ends, and every
//! calendar task puts it on the calendar's month whatever the host's date; a phone
//! without snapshots runs without a restore and the store says so.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use droidmcp::device::{Shell, ShellError, ShellOutput};
use droidmcp::episode::{DeviceSource, Episode, EpisodeError, Episodes, Status};
use droidmcp::sim::system::ClockMode;
use droidmcp::sim::{Phone, SimConfig};
use droidmcp::store::Store;

use crate::util::{boot, sh};

/// Every episode gets the same phone, as a served phone's episodes do.
struct OnePhone(Arc<dyn Shell>);

#[async_trait]
impl DeviceSource for OnePhone {
    async fn shell(&self, _device: Option<&str>) -> Result<Arc<dyn Shell>, String> {
        Ok(self.0.clone())
    }
}

fn episodes(phone: &Phone, store: Option<Store>) -> Episodes {
    let catalog = crate::util::catalog();
    Episodes::new(
        Arc::new(catalog.clone()),
        store,
        Arc::new(OnePhone(Arc::new(phone.clone()))),
    )
}

/// The providers and settings as an adb client reads them.
fn providers_and_settings(phone: &Phone) -> Vec<(String, Vec<u8>)> {
    let mut seen: Vec<(String, Vec<u8>)> = [
        "content query --uri content://sms",
        "content query --uri content://call_log/calls",
        "content query --uri content://com.android.contacts/contacts",
        "content query --uri content://com.android.contacts/data",
        "settings list global",
        "settings list secure",
        "settings list system",
        "date +%s",
        "cmd alarm get-next-alarm",
        "sqlite3 /data/user_de/0/com.google.android.deskclock/databases/alarms.db 'SELECT * FROM alarm_templates'",
        "sqlite3 /data/data/com.android.providers.calendar/databases/calendar.db 'SELECT * FROM Events'",
    ]
    .into_iter()
    .map(|line| (line.to_string(), phone.exec(line).stdout))
    .collect();
    for db in [
        "/data/data/com.android.providers.telephony/databases/mmssms.db",
        "/data/data/com.android.providers.contacts/databases/calllog.db",
        "/data/data/com.android.providers.contacts/databases/contacts2.db",
    ] {
        seen.push((db.into(), phone.read_file(db).unwrap_or_default()));
    }
    seen
}

const A: &str = "aw.sms.reply_most_recent";
const B: &str = "messages.ir_last_text_from";

#[tokio::test]
async fn an_episode_starts_on_the_phone_a_fresh_one_would_have() {
    let phone = boot(6);
    let eps = episodes(&phone, None);
    let a = eps.start(A, Some(1), &BTreeMap::new(), None).await.unwrap();
    // What the agent of A leaves behind: a text sent, an alarm added, the clock and a setting moved.
    sh(
        &phone,
        "sqlite3 /data/data/com.android.providers.telephony/databases/mmssms.db \
         \"INSERT INTO sms (address, body, date, type, read) VALUES ('+16505550100', 'on my way', 1, 2, 1)\"",
    );
    sh(
        &phone,
        "sqlite3 /data/user_de/0/com.google.android.deskclock/databases/alarms.db \
         \"INSERT INTO alarm_templates (hour, minutes, enabled, daysofweek, vibrate, label, ringtone, delete_after_use) \
           VALUES (5, 45, 1, 0, 1, 'run', '', 0)\"",
    );
    sh(&phone, "date 121509002025.00");
    sh(&phone, "settings put system screen_brightness 12");
    eps.end(&a.episode).await.unwrap();
    eps.start(B, Some(2), &BTreeMap::new(), None).await.unwrap();

    let fresh = boot(6);
    episodes(&fresh, None)
        .start(B, Some(2), &BTreeMap::new(), None)
        .await
        .unwrap();
    for ((what, want), (_, got)) in providers_and_settings(&fresh)
        .iter()
        .zip(&providers_and_settings(&phone))
    {
        assert!(
            want == got,
            "`{what}` differs from a fresh phone's:\n--- fresh\n{}\n--- after episode A\n{}",
            String::from_utf8_lossy(want),
            String::from_utf8_lossy(got)
        );
    }
}

#[tokio::test]
async fn starting_an_episode_aborts_the_one_running_on_that_phone() {
    let phone = boot(0);
    let eps = episodes(&phone, Some(Store::in_memory().unwrap()));
    let a = eps.start(A, Some(1), &BTreeMap::new(), None).await.unwrap();
    let b = eps.start(B, Some(2), &BTreeMap::new(), None).await.unwrap();
    let err = eps.answer(&a.episode, "hello").await.unwrap_err();
    assert!(matches!(err, EpisodeError::Closed { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("aborted")
            && text.contains(&format!("another episode (task {B}) was started")),
        "{text}"
    );
    let summary = eps.summary(&a.episode).await.unwrap();
    assert_eq!(summary.status, Status::Aborted);
    assert!(summary.abort_reason.unwrap().contains("another episode"));
    assert_eq!(
        eps.summary(&b.episode).await.unwrap().status,
        Status::Running
    );
    let stored = eps.export(&a.episode).unwrap();
    assert_eq!(stored["status"], "aborted");
    assert_eq!(stored["restored"], true);
}

/// Finishing takes the verdict: what is done on the phone afterwards (here over adb, as a person
/// or another tool would) cannot change it, and the next episode's start ends the finished one
/// instead of aborting it.
#[tokio::test]
async fn a_finished_episode_keeps_its_verdict_and_the_next_start_ends_it() {
    let phone = boot(2);
    let eps = episodes(&phone, Some(Store::in_memory().unwrap()));
    let a = eps
        .start("aw.settings.wifi_off", Some(1), &BTreeMap::new(), None)
        .await
        .unwrap();
    sh(&phone, "settings put global wifi_on 0");
    eps.finish(&a.episode).await.unwrap();
    let report = eps.check(&a.episode).await.unwrap();
    assert!(report.verdict.success && !report.provisional, "{report:?}");
    // Wi-Fi back on after the agent said it was done: the verdict stands.
    sh(&phone, "settings put global wifi_on 1");
    let again = eps.check(&a.episode).await.unwrap();
    assert_eq!(again, report);

    eps.start(B, Some(2), &BTreeMap::new(), None).await.unwrap();
    let summary = eps.summary(&a.episode).await.unwrap();
    assert_eq!(summary.status, Status::Ended);
    assert_eq!(summary.abort_reason, None);
    let stored = eps.export(&a.episode).unwrap();
    assert_eq!(stored["status"], "ended", "{stored}");
}

#[tokio::test]
async fn a_phone_keeping_real_time_is_on_real_time_again_when_an_episode_ends() {
    let phone = Phone::new(SimConfig {
        clock: ClockMode::Real,
        ..SimConfig::default()
    })
    .unwrap();
    let eps = episodes(&phone, None);
    let a = eps.start(A, Some(1), &BTreeMap::new(), None).await.unwrap();
    assert_eq!(sh(&phone, "date +%Y-%m-%d"), "2024-06-03\n");
    eps.end(&a.episode).await.unwrap();
    let phone_secs: i64 = sh(&phone, "date +%s").trim().parse().unwrap();
    let host_secs = chrono::Utc::now().timestamp();
    assert!(
        (phone_secs - host_secs).abs() <= 5,
        "phone {phone_secs}, host {host_secs}"
    );
}

#[tokio::test]
async fn every_calendar_task_puts_the_phone_on_its_june_2024_calendar_whatever_the_host_date() {
    // A phone keeping real time shows the host's date (2026 or later) after the boot snapshot
    // loads: only the task's own `set_time` puts it in the month its events are in.
    let phone = Phone::new(SimConfig {
        clock: ClockMode::Real,
        ..SimConfig::default()
    })
    .unwrap();
    let eps = episodes(&phone, None);
    let catalog = crate::util::catalog();
    let calendar: Vec<String> = catalog
        .iter()
        .filter(|t| t.apps.iter().any(|a| a == "calendar"))
        .map(|t| t.id.clone())
        .collect();
    assert!(calendar.len() >= 40, "{calendar:?}");
    let mut wrong = Vec::new();
    for id in &calendar {
        let started = eps
            .start(id, Some(11), &BTreeMap::new(), None)
            .await
            .unwrap();
        let month = sh(&phone, "date +%Y-%m");
        if month != "2024-06\n" {
            wrong.push(format!("{id}: {}", month.trim()));
        }
        eps.end(&started.episode).await.unwrap();
    }
    assert!(
        wrong.is_empty(),
        "calendar tasks that leave the clock off June 2024: {wrong:?}"
    );
}

/// A phone without an emulator console (a real phone): the embedded phone's shell and files,
/// but `console` refuses as `AdbShell` does for a USB serial.
struct NoConsole(Phone);

#[async_trait]
impl Shell for NoConsole {
    fn serial(&self) -> &str {
        "R5CT30ABCDE"
    }
    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        Ok(self.0.exec(command_line))
    }
    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        Shell::pull(&self.0, path).await
    }
    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        Shell::push(&self.0, path, data, mode).await
    }
}

#[tokio::test]
async fn a_phone_without_snapshots_runs_without_a_restore_and_the_store_says_so() {
    let store = Store::in_memory().unwrap();
    let catalog = crate::util::catalog();
    let instance = catalog
        .get(B)
        .unwrap()
        .instantiate(2, &BTreeMap::new())
        .unwrap();
    let shell: Arc<dyn Shell> = Arc::new(NoConsole(boot(0)));
    let ep = Episode::start(instance, shell, Some(store.clone()))
        .await
        .unwrap();
    assert!(!ep.restored());
    assert!(ep
        .setup_log()
        .iter()
        .any(|l| l.contains("no restore: ") && l.contains("no emulator console")));
    let row = store.episode(&ep.id).unwrap().unwrap();
    assert!(!row.restored);
    // `droidmcp report` lists it, so nobody reads its verdict as one from a clean phone.
    let figures = droidmcp::judge::report::report(&store, &catalog).unwrap();
    let all = figures.iter().find(|f| f.task == "ALL").unwrap();
    assert_eq!(all.unrestored, [ep.id.clone()]);
    assert!(droidmcp::judge::report::table(&figures).contains(&format!(
        "ran without a restore (setup alone reset the phone): 1 of 1 episodes: {}",
        ep.id
    )));
}

/// Episodes on phones without a console, for the REST summary.
struct RealPhones;

#[async_trait]
impl droidmcp::episode::DeviceSource for RealPhones {
    async fn shell(&self, _device: Option<&str>) -> Result<Arc<dyn Shell>, String> {
        Ok(Arc::new(NoConsole(boot(0))))
    }
}

#[tokio::test]
async fn the_rest_summary_says_an_episode_ran_without_a_restore() {
    let catalog = crate::util::catalog();
    let eps = Arc::new(droidmcp::episode::Episodes::new(
        Arc::new(catalog.clone()),
        None,
        Arc::new(RealPhones),
    ));
    let started = eps.start(B, Some(2), &BTreeMap::new(), None).await.unwrap();
    let summary = eps.summary(&started.episode).await.unwrap();
    let wire = serde_json::to_value(droidmcp::http::wire::Summary::from(&summary)).unwrap();
    assert_eq!(wire["restored"], false, "{wire}");
}

/// One serial whose phone can be replaced by a freshly booted one, as an emulator or `droidmcp
/// sim` started again on the same port is: no command fails across the swap.
struct Restarting {
    serial: String,
    phone: std::sync::Mutex<Phone>,
}

impl Restarting {
    fn now(&self) -> Phone {
        self.phone.lock().unwrap().clone()
    }
}

#[async_trait]
impl Shell for Restarting {
    fn serial(&self) -> &str {
        &self.serial
    }
    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        Ok(self.now().exec(command_line))
    }
    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        Shell::pull(&self.now(), path).await
    }
    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        Shell::push(&self.now(), path, data, mode).await
    }
    async fn console(&self, line: &str) -> Result<String, ShellError> {
        Shell::console(&self.now(), line).await
    }
}

#[tokio::test]
async fn a_phone_that_restarted_under_an_episode_aborts_it_instead_of_scoring_a_fresh_phone() {
    let catalog = crate::util::catalog();
    let instance = || {
        catalog
            .get(B)
            .unwrap()
            .instantiate(2, &BTreeMap::new())
            .unwrap()
    };
    let first = boot(0);
    let shell = Arc::new(Restarting {
        serial: first.serial().to_string(),
        phone: std::sync::Mutex::new(first),
    });
    let store = Store::in_memory().unwrap();

    // Without a restart, checking is as usual, as often as asked.
    let mut steady = Episode::start(instance(), shell.clone(), Some(store.clone()))
        .await
        .unwrap();
    steady.check().await.unwrap();
    steady.check().await.unwrap();

    let mut ep = Episode::start(instance(), shell.clone(), Some(store.clone()))
        .await
        .unwrap();
    *shell.phone.lock().unwrap() = boot(0);
    let err = ep.check().await.unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, EpisodeError::DeviceLost { .. })
            && text.contains("the phone restarted during the episode"),
        "{text}"
    );
    assert_eq!(ep.status(), Status::Aborted);
    let row = store.episode(&ep.id).unwrap().unwrap();
    assert!(
        row.abort_reason
            .as_deref()
            .is_some_and(|r| r.contains("restarted")),
        "{:?}",
        row.abort_reason
    );
}

#[test]
fn the_phone_has_a_boot_id_per_boot_that_snapshots_keep() {
    let read = |p: &Phone| sh(p, "cat /proc/sys/kernel/random/boot_id");
    let phone = boot(0);
    let id = read(&phone);
    let bytes = id.as_bytes();
    assert_eq!(bytes.len(), 37, "{id:?}");
    assert_eq!(bytes[36], b'\n');
    assert_eq!(bytes[14], b'4', "a version 4 UUID: {id}");
    assert!(b"89ab".contains(&bytes[19]), "RFC 4122 variant: {id}");
    // Another boot of the same seed is another boot.
    assert_ne!(read(&boot(0)), id);
    // A snapshot holds the boot id of the boot it was taken in, as an emulator's RAM snapshot does.
    assert_eq!(read(&phone), id);
    let loaded = phone.console("avd snapshot load default_boot");
    assert!(loaded.trim_end().ends_with("OK"), "{loaded:?}");
    assert_eq!(read(&phone), id);
}

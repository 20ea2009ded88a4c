//! Faults a served phone must survive: a client that asks for a device behind an adb server that is
//! not running, an oversized argument, a write escape through the phone's `sqlite3`, a device lost
//! mid-episode, and setup waits longer than one device command may take.

use std::sync::Arc;
use std::time::Duration;

use droidmcp::session::{Action, Control, DevicePool, Hub};
use droidmcp::sim::ClockMode;

use crate::util::{boot, sh};

#[tokio::test]
async fn a_served_pool_never_starts_an_adb_server_and_names_adb_server_instead() {
    // Port 1 on loopback: nothing listens, so a pool that may start servers would run
    // `adb -P 1 start-server` here.
    let pool = DevicePool::new(None, Some("127.0.0.1:1".into())).serving_clients();
    let err = pool
        .lease(Some("emulator-5554"))
        .await
        .err()
        .expect("no server, no device")
        .to_string();
    assert!(err.contains("--adb-server"), "{err}");
    assert!(err.contains("adb start-server"), "{err}");
    assert!(
        !err.contains("failed") && !err.contains("after `adb start-server`"),
        "a server was started (or tried): {err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_argument_is_refused_without_waiting_for_the_device() {
    let pool = Arc::new(DevicePool::new(None, None).with_sim_clock(ClockMode::Real));
    let hub = Hub::new(pool);
    let session = hub.open("big", None).await.unwrap();
    let other = hub.open("busy", None).await.unwrap();
    // Another session holds the phone's turn for a few seconds.
    let busy = tokio::spawn(async move {
        other
            .act(Action::Wait { ms: 4000 }, None, &Control::default())
            .await
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let huge = "x".repeat(1 << 20);
    for action in [
        Action::OpenApp { app: huge.clone() },
        Action::PressKey { key: huge.clone() },
        Action::TypeText {
            text: huge.clone(),
            into: None,
            clear: false,
            submit: false,
        },
    ] {
        let refused = tokio::time::timeout(
            Duration::from_millis(2500),
            session.act(action, None, &Control::default()),
        )
        .await
        .expect("refused at once, not after the other session's turn");
        let err = refused.err().expect("too large");
        assert!(err.to_string().contains("at most"), "{err}");
    }
    assert!(
        !busy.is_finished(),
        "the other session's wait really held the turn"
    );
    busy.await.unwrap().unwrap();
}

#[test]
fn the_phones_sqlite3_refuses_to_move_its_files_to_the_host() {
    let phone = boot(1);
    let dir = tempfile::tempdir().unwrap();
    let db = "/data/local/tmp/escape.db";
    for pragma in [
        format!("PRAGMA temp_store_directory = '{}';", dir.path().display()),
        format!(
            "pragma MAIN.\"TEMP_STORE_DIRECTORY\"='{}';",
            dir.path().display()
        ),
        format!("PRAGMA data_store_directory = '{}';", dir.path().display()),
    ] {
        let out = phone.exec(&format!("sqlite3 {db} \"{}\"", pragma.replace('"', "\\\"")));
        assert_eq!(out.exit_code, 1, "{pragma}: {}", out.stderr_text());
        assert!(out.stderr_text().contains("not authorized"), "{pragma}");
    }
    sh(
        &phone,
        &format!("sqlite3 {db} 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'"),
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing was written to the host folder"
    );
}

#[tokio::test]
async fn a_served_pool_caps_its_embedded_phones_and_closes_the_least_recently_used_one_nobody_holds(
) {
    use droidmcp::session::MAX_SERVED_PHONES;
    let pool = DevicePool::new(None, None).serving_clients();
    let mut held = Vec::new();
    for n in 1..=MAX_SERVED_PHONES {
        held.push(pool.lease(Some(&format!("sim:{n}"))).await.unwrap());
    }
    let err = pool.lease(Some("sim:99")).await.err().expect("capped");
    assert!(
        err.to_string().contains("the most this server keeps"),
        "{err}"
    );
    // Nobody holds sim:16 any more: it makes room.
    held.pop();
    let _extra = pool.lease(Some("sim:99")).await.unwrap();
    let open: Vec<String> = pool.list().into_iter().map(|d| d.spec).collect();
    assert_eq!(open.len(), MAX_SERVED_PHONES, "{open:?}");
    assert!(
        !open.contains(&format!("sim:{MAX_SERVED_PHONES}")),
        "{open:?}"
    );
    assert!(open.contains(&"sim:99".to_string()));
    // Two more go unused, sim:3 first: the least recently used makes room, not the first by name
    // ("sim:12" sorts before "sim:3").
    let sim3 = held.remove(2);
    drop(sim3);
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let sim12 = held.remove(10);
    drop(sim12);
    let _another = pool.lease(Some("sim:100")).await.unwrap();
    let open: Vec<String> = pool.list().into_iter().map(|d| d.spec).collect();
    assert!(!open.contains(&"sim:3".to_string()), "{open:?}");
    assert!(open.contains(&"sim:12".to_string()), "{open:?}");
}

#[test]
fn a_long_setup_wait_runs_on_the_phones_clock_in_pieces_within_the_command_limit() {
    use droidmcp::task::setup::ShellOp;
    use droidmcp::task::SetupStep;
    let limit = droidmcp::device::Limits::default().timeout;
    let ops = |step: SetupStep| step.ops().unwrap();
    let sleeps = |ops: &[ShellOp]| -> Vec<f64> {
        ops.iter()
            .filter_map(|op| match op {
                ShellOp::Exec { command, .. } => command.strip_prefix("sleep ")?.parse().ok(),
                _ => None,
            })
            .collect()
    };
    // The three `.live` waits: 30 s between calls, a 40 s and a 45 s call.
    let wait = sleeps(&ops(SetupStep::Wait { ms: 30_000 }));
    assert_eq!(wait.iter().sum::<f64>(), 30.0);
    let call = ops(SetupStep::IncomingCall {
        number: "5551234".into(),
        ring_ms: Some(4_000),
        talk_ms: Some(45_000),
    });
    assert_eq!(sleeps(&call).iter().sum::<f64>(), 49.0);
    for s in wait.iter().chain(&sleeps(&call)) {
        assert!(
            *s < limit.as_secs_f64() / 2.0,
            "a {s} s sleep nears the {limit:?} limit"
        );
    }
    // Every task file's setup obeys the same bound.
    let catalog = crate::util::catalog();
    for task in catalog.iter() {
        let inst = task.instantiate(1, &Default::default()).unwrap();
        for step in &inst.setup {
            for s in sleeps(&step.ops().unwrap()) {
                assert!(s < limit.as_secs_f64() / 2.0, "{}: sleep {s}", task.id);
            }
        }
    }
}

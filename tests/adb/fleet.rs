//! A run over devices from every kind of source at once (issue 26): three Debian `adb` servers on
//! loopback ports, each with `droidmcp sim --adb` phones connected to it, and one more phone that
//! only a provider command can lease (it starts the phone and prints its endpoint). The oracle agent
//! plays a few tasks through `droidmcp run`; one server's phone is killed in the middle of an
//! episode. That episode is `errored`, the phone is set aside, another device plays the instance
//! again, and the totals come out right.

use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Output, Stdio};

use droidmcp::run::report::RunReport;
use droidmcp::run::{AgentSpec, RunSpec};
use droidmcp::store::Store;

use super::*;
use crate::oracle_model::{oracle, Model};
use crate::util::Detached;

/// A private adb server on its own port, killed (by port) when dropped.
struct Server {
    adb: PathBuf,
    port: u16,
}

impl Server {
    fn start(adb: &std::path::Path) -> Server {
        let server = Server {
            adb: adb.to_path_buf(),
            port: free_port(),
        };
        let out = server.cli(&["start-server"]);
        assert!(out.status.success(), "adb start-server: {out:?}");
        server
    }

    fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn cli(&self, args: &[&str]) -> Output {
        Command::new(&self.adb)
            .arg("-P")
            .arg(self.port.to_string())
            .args(args)
            .env("ADB_EMU", "0")
            .stdin(Stdio::null())
            .output()
            .expect("run adb")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.cli(&["kill-server"]);
    }
}

/// A `droidmcp sim --adb 127.0.0.1:0` process of this test, stopped when dropped.
struct SimProcess {
    addr: String,
    process: Detached,
}

impl SimProcess {
    fn start(seed: u32) -> SimProcess {
        let out = Command::new(env!("CARGO_BIN_EXE_droidmcp"))
            .args(["sim", "--adb", "127.0.0.1:0", "--detach", "--seed"])
            .arg(seed.to_string())
            .stdin(Stdio::null())
            .output()
            .expect("droidmcp sim");
        assert!(
            out.status.success(),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let process = Detached::from_output(&out);
        let addr = process
            .addr
            .clone()
            .unwrap_or_else(|| panic!("{}", text(&out.stdout)));
        SimProcess { addr, process }
    }

    /// SIGKILL: the phone vanishes as a crashed emulator or an unplugged phone does.
    fn kill(&self) {
        self.process.kill();
    }
}

/// The instances a run of `tasks` in `env` holds, for the oracle model to know their moves.
fn probe(tasks: Vec<String>, env: Option<&str>) -> RunSpec {
    RunSpec {
        envs: vec![env.map(str::to_string)],
        ..crate::run::spec("probe", tasks, AgentSpec::Command(String::new()), 1)
    }
}

/// Running episodes on the phone at `serial`, as the run's store has them.
fn running_on(db: &std::path::Path, serial: &str) -> i64 {
    let Ok(store) = Store::open(db) else { return 0 };
    store
        .with_connection(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM episodes e WHERE e.device = ?1 AND e.status = 'running' \
                 AND EXISTS (SELECT 1 FROM steps s WHERE s.episode_id = e.id)",
                [serial],
                |r| r.get(0),
            )
        })
        .unwrap_or(0)
}

#[test]
fn a_run_spreads_over_three_adb_servers_and_a_provider_and_a_lost_phone_is_played_elsewhere() {
    let Some(adb) = adb_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let servers: Vec<Server> = (0..3).map(|_| Server::start(&adb)).collect();
    let mut phones = Vec::new();
    for (i, server) in servers.iter().enumerate() {
        for n in 0..2 {
            let phone = SimProcess::start(10 * i as u32 + n);
            let out = server.cli(&["connect", &phone.addr]);
            assert!(
                text(&out.stdout).contains("connected to"),
                "adb connect {}: {out:?}",
                phone.addr
            );
            phones.push((server.addr(), phone));
        }
    }
    // The farm: leasing starts a phone and prints `HOST:PORT PID`; releasing stops that pid.
    let lease = dir.path().join("lease.sh");
    std::fs::write(
        &lease,
        format!(
            "out=$('{}' sim --adb 127.0.0.1:0 --detach --seed 99) || exit 1\n\
             addr=$(printf '%s\\n' \"$out\" | sed -n 's/.*serving adb on \\([0-9.:]*\\).*/\\1/p' | head -n 1)\n\
             pid=$(printf '%s\\n' \"$out\" | sed -n 's/.*as pid \\([0-9]*\\).*/\\1/p')\n\
             echo \"leased $addr for ${{DROIDMCP_TTL_S}}s\" >&2\n\
             echo \"$addr $pid\"\n",
            env!("CARGO_BIN_EXE_droidmcp")
        ),
    )
    .unwrap();
    let provider = dir.path().join("farm.toml");
    std::fs::write(
        &provider,
        format!(
            "name = \"farm\"\ndevices = 1\nlease = \"sh {}\"\nrelease = \"kill {{handle}}\"\n",
            lease.display()
        ),
    )
    .unwrap();

    let catalog = crate::run::catalog();
    let tasks = crate::run::sample(&catalog, 10);
    let probe = probe(tasks.clone(), None);
    // Slow enough that an episode is still going when its phone is killed.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(Model::start(
        oracle(&crate::run::instances_of(&catalog, &probe)),
        Duration::from_millis(150),
    ));
    let db = dir.path().join("runs.db");
    let log = dir.path().join("run.log");
    let mut run = Command::new(env!("CARGO_BIN_EXE_droidmcp"));
    run.args(["run", "fleet", "--tasks", &tasks.join(",")])
        .args(["--agent", "t3a", "--model", "m", "--base-url", &model.base])
        .args(["--retries", "2", "--lease-ttl", "3", "--store"])
        .arg(&db)
        .arg("--provider")
        .arg(&provider);
    for server in &servers {
        run.args(["--adb-server", &server.addr()]);
    }
    let mut child = run
        .env("ADB_EMU", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let read_log = || std::fs::read_to_string(&log).unwrap_or_default();

    // The second server's first phone dies once an episode on it has taken a step.
    let (victim_server, victim) = &phones[2];
    let started = std::time::Instant::now();
    while running_on(&db, &victim.addr) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no episode ever ran on {}:\n{}",
            victim.addr,
            read_log()
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended early:\n{}",
            read_log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    victim.kill();
    let status = child.wait().unwrap();
    assert!(status.success(), "the run: {status}\n{}", read_log());

    let store = Store::open(&db).unwrap();
    let rows = store.run_results("fleet").unwrap();
    let victim_name = format!("{victim_server}/{}", victim.addr);
    // Every device played: the six on the servers (the victim until it died) and the farm's phone,
    // connected through the first server.
    let played: BTreeSet<String> = rows.iter().filter_map(|r| r.device.clone()).collect();
    let mut expected: BTreeSet<String> = phones
        .iter()
        .map(|(server, phone)| format!("{server}/{}", phone.addr))
        .collect();
    let farm: Vec<&String> = played.iter().filter(|d| !expected.contains(*d)).collect();
    assert_eq!(
        farm.len(),
        1,
        "played {played:?}, servers' phones {expected:?}"
    );
    assert!(
        farm[0].starts_with(&format!("{}/127.0.0.1:", servers[0].addr())),
        "{farm:?}"
    );
    expected.insert(farm[0].clone());
    assert_eq!(played, expected);
    // The killed episode errored, and its instance was played again on another device.
    let lost: Vec<_> = rows
        .iter()
        .filter(|r| r.device.as_deref() == Some(victim_name.as_str()) && r.outcome == "errored")
        .collect();
    assert_eq!(lost.len(), 1, "{rows:#?}");
    assert!(!lost[0].is_final, "{:?}", lost[0]);
    assert!(
        lost[0]
            .error
            .as_deref()
            .unwrap_or("")
            .contains("device lost"),
        "{:?}",
        lost[0].error
    );
    let again: Vec<_> = rows
        .iter()
        .filter(|r| r.instance == lost[0].instance && r.attempt == lost[0].attempt + 1)
        .collect();
    assert_eq!(again.len(), 1, "{rows:#?}");
    assert_ne!(again[0].device.as_deref(), Some(victim_name.as_str()));
    // Totals: one final row per instance, every one a success; the one retry counted apart.
    let mut finals: BTreeMap<&str, u32> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.is_final) {
        *finals.entry(r.instance.as_str()).or_default() += 1;
    }
    assert_eq!(finals.len(), tasks.len(), "{finals:?}");
    assert!(finals.values().all(|n| *n == 1), "{finals:?}");
    let failed: Vec<_> = rows
        .iter()
        .filter(|r| r.is_final && !r.success)
        .map(|r| (&r.instance, &r.device, &r.ending, &r.error))
        .collect();
    assert!(failed.is_empty(), "{failed:#?}\n{}", read_log());
    assert_eq!(rows.len(), tasks.len() + 1, "{rows:#?}");
    // The report says which device was set aside and why.
    let report = RunReport::load("fleet", &store, &catalog).unwrap();
    let line = report
        .devices
        .iter()
        .find(|d| d.device == victim_name)
        .unwrap_or_else(|| panic!("{:?}", report.devices));
    assert_eq!((line.attempts, line.errored), (1, 1), "{line:?}");
    assert!(
        line.set_aside.as_deref().unwrap_or("").starts_with("lost:"),
        "{line:?}"
    );
    assert!(
        report.markdown().contains("## Devices"),
        "{}",
        report.markdown()
    );
    assert_eq!(
        report
            .devices
            .iter()
            .filter(|d| d.set_aside.is_some())
            .count(),
        1,
        "{:?}",
        report.devices
    );
}

/// A device that errors every attempt it plays is set aside after `--device-failures` of them and
/// listed with the reason; its attempts go to the other device. Here the adb phone cannot play in a
/// device environment (only an embedded phone boots in one), a fault of the device's, never the
/// agent's.
#[test]
fn a_device_failing_k_times_is_set_aside_and_the_run_finishes_on_the_others() {
    let Some(adb) = adb_binary() else { return };
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&adb);
    let phone = SimProcess::start(1);
    let catalog = crate::run::catalog();
    let tasks = crate::run::sample(&catalog, 4);
    let probe = probe(tasks.clone(), Some("105"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let model = rt.block_on(Model::start(
        oracle(&crate::run::instances_of(&catalog, &probe)),
        Duration::ZERO,
    ));
    let db = dir.path().join("runs.db");
    let out = Command::new(env!("CARGO_BIN_EXE_droidmcp"))
        .args(["--env", "105", "run", "k", "--tasks", &tasks.join(",")])
        .args(["--agent", "t3a", "--model", "m", "--base-url", &model.base])
        .args(["--phones", "1", "--connect", &phone.addr])
        .args(["--adb-server", &server.addr(), "--device-failures", "2"])
        .args(["--retries", "3", "--store"])
        .arg(&db)
        .env("ADB_EMU", "0")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let store = Store::open(&db).unwrap();
    let rows = store.run_results("k").unwrap();
    let adb_name = format!("{}/{}", server.addr(), phone.addr);
    let on_adb: Vec<_> = rows
        .iter()
        .filter(|r| r.device.as_deref() == Some(adb_name.as_str()))
        .collect();
    assert_eq!(on_adb.len(), 2, "{rows:#?}");
    assert!(
        on_adb.iter().all(|r| r.outcome == "errored" && !r.is_final),
        "{on_adb:#?}"
    );
    let finals: Vec<_> = rows.iter().filter(|r| r.is_final).collect();
    assert_eq!(finals.len(), tasks.len(), "{rows:#?}");
    assert!(
        finals
            .iter()
            .all(|r| r.success && r.device.as_deref() == Some("sim:0")),
        "{finals:#?}"
    );
    let report = RunReport::load("k", &store, &catalog).unwrap();
    let line = report
        .devices
        .iter()
        .find(|d| d.device == adb_name)
        .unwrap_or_else(|| panic!("{:?}", report.devices));
    assert_eq!(
        line.set_aside.as_deref(),
        Some("2 errored attempts (the limit)"),
        "{line:?}"
    );
    assert_eq!((line.attempts, line.errored), (2, 2));
    let md = report.markdown();
    assert!(
        md.contains(&format!(
            "| {adb_name} | adb connect via {} | 2 | 2 | 2 errored attempts (the limit) |",
            server.addr()
        )),
        "{md}"
    );
}

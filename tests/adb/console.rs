//! The emulator console: the embedded phone served as `emulator-N` (console on N, adbd on N+1,
//! announced to the adb server as an emulator announces itself), Debian's `adb emu` against it, and
//! our `AdbShell::console` running a task's incoming call through a real adb server.

use droidmcp::adb::console;
use droidmcp::episode::replay::{run_instance, Solution};
use droidmcp::task::Catalog;

use super::*;

/// The phone on a console port and the adbd on the port after it, both loopback.
struct Emulator {
    console_port: u16,
    _adbd: tokio::sync::oneshot::Sender<()>,
    _console: tokio::sync::oneshot::Sender<()>,
}

impl Emulator {
    async fn start(shell: Arc<dyn Shell>, token: Option<&str>) -> Emulator {
        Emulator::start_announcing(shell, token, None).await
    }

    /// With `server`, the adbd announces itself to that adb server again after a restart, as
    /// `droidmcp sim --emulator` does.
    async fn start_announcing(
        shell: Arc<dyn Shell>,
        token: Option<&str>,
        server: Option<AdbServer>,
    ) -> Emulator {
        // An even console port whose successor is free too. Linux hands out odd ports for
        // `bind(0)`, so the port taken becomes the adbd's and the one before it the console's.
        let (console_listener, adbd_listener) = loop {
            let adbd = TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let port = adbd.local_addr().unwrap().port();
            if port % 2 == 0 {
                continue;
            }
            if let Ok(console) = TcpListener::bind(("127.0.0.1", port - 1)).await {
                break (console, adbd);
            }
        };
        let console_port = console_listener.local_addr().unwrap().port();
        let (adbd, adbd_stop) = tokio::sync::oneshot::channel::<()>();
        let adb_port = adbd_listener.local_addr().unwrap().port();
        let on_restart = server.map(|server| -> adb::OnRestart {
            Arc::new(move || {
                let server = server.clone();
                tokio::spawn(async move { server.reannounce_emulator(adb_port).await });
            })
        });
        tokio::spawn(adb::serve_with(
            adbd_listener,
            shell.clone(),
            identity(),
            async move {
                let _ = adbd_stop.await;
            },
            on_restart,
        ));
        let (console_stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(console::serve(
            console_listener,
            shell,
            token.map(str::to_string),
            async move {
                let _ = stopped.await;
            },
        ));
        Emulator {
            console_port,
            _adbd: adbd,
            _console: console_stop,
        }
    }

    fn serial(&self) -> String {
        format!("emulator-{}", self.console_port)
    }
}

/// A private adb server (no port scan) to which the emulator announces itself; `home` is the
/// HOME its clients see (where `adb emu` reads the console token).
struct EmuRig {
    adb: PathBuf,
    port: u16,
    home: tempfile::TempDir,
    emulator: Emulator,
}

impl EmuRig {
    async fn start(adb: PathBuf, shell: Arc<dyn Shell>, token: Option<&str>) -> EmuRig {
        let home = tempfile::tempdir().unwrap();
        if let Some(t) = token {
            std::fs::write(home.path().join(".emulator_console_auth_token"), t).unwrap();
        }
        let port = free_port();
        let server = AdbServer::new(&format!("127.0.0.1:{port}")).expect("address");
        let rig = EmuRig {
            adb,
            port,
            home,
            emulator: Emulator::start_announcing(shell, token, Some(server)).await,
        };
        let started = rig.cli(&["start-server"]).await;
        assert!(started.status.success(), "adb start-server: {started:?}");
        let server = rig.server();
        let adbd_port = rig.emulator.console_port + 1;
        let serial = rig.emulator.serial();
        for _ in 0..100 {
            server
                .register_emulator(adbd_port)
                .await
                .expect("host:emulator");
            let devices = server.devices().await.expect("devices");
            if devices
                .iter()
                .any(|d| d.serial == serial && d.state == "device")
            {
                let entry = devices.iter().find(|d| d.serial == serial).unwrap();
                assert_eq!(entry.transport(), "emulator");
                return rig;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{serial} never became ready: {:?}", server.devices().await);
    }

    fn server(&self) -> AdbServer {
        AdbServer::new(&format!("127.0.0.1:{}", self.port)).expect("address")
    }

    async fn cli(&self, args: &[&str]) -> std::process::Output {
        adb_cli(&self.adb, self.port, args, Some(self.home.path())).await
    }

    async fn emu(&self, args: &[&str]) -> String {
        let serial = self.emulator.serial();
        let mut full = vec!["-s", serial.as_str(), "emu"];
        full.extend_from_slice(args);
        let out = self.cli(&full).await;
        assert!(out.status.success(), "adb emu {args:?}: {out:?}");
        text(&out.stdout)
    }

    async fn shell_line(&self, line: &str) -> String {
        let serial = self.emulator.serial();
        text(&self.cli(&["-s", &serial, "shell", line]).await.stdout)
    }
}

impl Drop for EmuRig {
    fn drop(&mut self) {
        let _ = std::process::Command::new(&self.adb)
            .args(["-P", &self.port.to_string(), "kill-server"])
            .output();
    }
}

/// `adb emu` authenticates with the token in HOME, rings the phone, lists the call and accepts it;
/// an unknown command is a `KO:` as on an emulator.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_adb_emu_rings_the_embedded_phone_through_its_console() {
    let Some(adb) = adb_binary() else { return };
    let rig = EmuRig::start(adb, sim_shell(sim_phone()), Some("s3cr3tT0ken")).await;
    rig.emu(&["gsm", "call", "5551234"]).await;
    let registry = rig.shell_line("dumpsys telephony.registry").await;
    assert!(registry.contains("mCallState=1"), "{registry}");
    assert!(
        registry.contains("mCallIncomingNumber=5551234"),
        "{registry}"
    );
    let list = rig.emu(&["gsm", "list"]).await;
    assert!(list.contains("inbound from 5551234"), "{list}");
    rig.emu(&["gsm", "accept", "5551234"]).await;
    let registry = rig.shell_line("dumpsys telephony.registry").await;
    assert!(registry.contains("mCallState=2"), "{registry}");
    let bogus = rig.emu(&["bogus"]).await;
    assert!(bogus.contains("KO: unknown command"), "{bogus}");
}

/// `adb -s emulator-N root` as AndroidWorld sends it before every task: adbd restarts as root, the
/// adb server reconnects to the emulator by itself and commands keep working, as root.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_adb_root_on_an_emulator_serial_and_commands_keep_working() {
    let Some(adb) = adb_binary() else { return };
    let rig = EmuRig::start(adb, sim_shell(sim_phone()), None).await;
    let serial = rig.emulator.serial();
    let root = rig.cli(&["-s", &serial, "root"]).await;
    assert_eq!(
        (text(&root.stdout).as_str(), root.status.code()),
        ("restarting adbd as root\n", Some(0)),
        "{root:?}"
    );
    let mut user = String::new();
    for _ in 0..200 {
        user = rig.shell_line("whoami").await;
        if !user.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(user, "root\n");
    assert_eq!(rig.shell_line("echo $USER").await, "root\n");
}

/// Without the right token nothing runs: the console refuses the command and the phone stays idle;
/// our client names the token file it used.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_console_token_is_refused_and_runs_nothing() {
    let phone = sim_phone();
    let emulator = Emulator::start(sim_shell(phone.clone()), Some("right")).await;
    let dir = tempfile::tempdir().unwrap();
    let wrong = dir.path().join("token");
    std::fs::write(&wrong, "wrong\n").unwrap();
    let addr = format!("127.0.0.1:{}", emulator.console_port);
    let err = console::send(&addr, Some(&wrong), "gsm call 5551234")
        .await
        .unwrap_err();
    assert!(
        matches!(err, console::ConsoleError::Refused { .. }),
        "{err}"
    );
    assert!(err.to_string().contains(wrong.to_str().unwrap()), "{err}");
    let missing = dir.path().join("absent");
    let err = console::send(&addr, Some(&missing), "gsm list")
        .await
        .unwrap_err();
    assert!(
        matches!(err, console::ConsoleError::NoToken { .. }),
        "{err}"
    );
    // A raw client that skips `auth` gets KO for the command.
    let mut raw = TcpStream::connect(&addr).await.unwrap();
    raw.write_all(b"gsm call 5551234\nquit\n").await.unwrap();
    let mut seen = String::new();
    raw.read_to_string(&mut seen).await.unwrap();
    assert!(
        seen.starts_with("Android Console: Authentication required\r\n"),
        "{seen:?}"
    );
    assert!(
        seen.ends_with("KO: unknown command, try 'help'\r\n"),
        "{seen:?}"
    );
    let registry = phone.exec("dumpsys telephony.registry").stdout_text();
    assert!(registry.contains("mCallState=0"), "{registry}");
    let right = dir.path().join("right");
    std::fs::write(&right, "right").unwrap();
    let reply = console::send(&addr, Some(&right), "gsm call 5551234")
        .await
        .unwrap();
    assert_eq!(reply, "OK\r\n");
}

/// A task whose setup rings the phone (`incoming_call` → `gsm call`) runs over a real adb server
/// on `emulator-N`: `AdbShell::console` reaches the console beside the server, the golden answers
/// the call; the next task's `end_call` hangs up what the first left active.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_incoming_call_task_runs_on_an_emulator_serial_through_real_adb() {
    let Some(adb) = adb_binary() else { return };
    // No token: our client in this process reads the real HOME, the emulator asks for none.
    let rig = EmuRig::start(adb, sim_shell(sim_phone()), None).await;
    let tasks = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tasks");
    let (catalog, _) = Catalog::load_dir(&tasks);
    let shell: Arc<dyn Shell> = Arc::new(
        AdbShell::new(&format!("127.0.0.1:{}", rig.port), &rig.emulator.serial())
            .await
            .unwrap(),
    );
    for id in ["aw.phone.answer_call", "aw.phone.return_missed_call.live"] {
        let task = catalog.get(id).unwrap();
        let report = run_instance(&task, 0, shell.clone(), None, Solution::Golden)
            .await
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(report.verdict.success, "{id}: {:?}", report.verdict);
    }
}

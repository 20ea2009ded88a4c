//! adbd's `root:` and `unroot:` services as an emulator's userdebug image answers them: AOSP adbd's
//! texts, `service.adb.root` set through the shell, and every connection dropped when adbd
//! restarts, after which a new connection runs as the new user. Debian's `adb root` then waits for
//! the device to come back and exits 0.

use super::*;

/// Opens `service` on a fresh connection and returns what the device wrote before closing it.
async fn one_shot(addr: SocketAddr, service: &str) -> String {
    let (mut peer, _) = RawPeer::handshake(addr, VERSION_SKIP_CHECKSUM, MAX_PAYLOAD as u32).await;
    let remote = peer.open(1, service).await;
    let (data, _) = peer.read_stream(1, remote).await;
    text(&data)
}

/// Opens `service` (`root:` or `unroot:` that changes the user) and returns adbd's answer once the
/// connection has gone: adbd exits after closing the stream, and a connection made before it has
/// exited is dropped with it, so a client waits for the drop (as `adb root` waits for the device
/// to go) before it connects again.
async fn restarting(addr: SocketAddr, service: &str) -> String {
    let (mut peer, _) = RawPeer::handshake(addr, VERSION_SKIP_CHECKSUM, MAX_PAYLOAD as u32).await;
    let remote = peer.open(1, service).await;
    let (reply, _) = peer.read_stream(1, remote).await;
    assert!(peer.recv().await.is_none(), "the connection outlived adbd");
    text(&reply)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn root_restarts_adbd_and_the_next_connection_is_root() {
    let phone = sim_phone();
    let adbd = start_adbd(sim_shell(phone.clone())).await;
    assert_eq!(one_shot(adbd.addr, "shell:whoami").await, "shell\n");

    assert_eq!(
        restarting(adbd.addr, "root:").await,
        "restarting adbd as root\n"
    );
    assert_eq!(one_shot(adbd.addr, "shell:whoami").await, "root\n");
    assert_eq!(
        one_shot(adbd.addr, "shell:getprop service.adb.root").await,
        "1\n"
    );
    assert_eq!(
        one_shot(adbd.addr, "root:").await,
        "adbd is already running as root\n"
    );
    assert_eq!(
        restarting(adbd.addr, "unroot:").await,
        "restarting adbd as non root\n"
    );
    assert_eq!(one_shot(adbd.addr, "shell:id -u").await, "2000\n");
    assert_eq!(
        one_shot(adbd.addr, "unroot:").await,
        "adbd not running as root\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_drops_every_connection_not_just_the_askers() {
    let adbd = start_adbd(sim_shell(sim_phone())).await;
    let (mut bystander, _) =
        RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, MAX_PAYLOAD as u32).await;
    assert_eq!(
        one_shot(adbd.addr, "root:").await,
        "restarting adbd as root\n"
    );
    assert!(bystander.recv().await.is_none());
}

/// Debian's `adb root` over an `adb connect` transport: it prints adbd's answer, waits for the
/// device to go and come back, and exits 0; commands keep working as root.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_adb_root_and_unroot_over_a_network_transport() {
    let Some(adb) = adb_binary() else { return };
    let rig = AdbRig::start(adb, sim_shell(sim_phone())).await;
    let root = rig.device(&["root"]).await;
    assert_eq!(
        (text(&root.stdout).as_str(), root.status.code()),
        ("restarting adbd as root\n", Some(0)),
        "{root:?}"
    );
    assert_eq!(wait_for_user(&rig).await, "root");
    let again = rig.device(&["root"]).await;
    assert_eq!(
        (text(&again.stdout).as_str(), again.status.code()),
        ("adbd is already running as root\n", Some(0))
    );
    let unroot = rig.device(&["unroot"]).await;
    assert_eq!(
        (text(&unroot.stdout).as_str(), unroot.status.code()),
        ("restarting adbd as non root\n", Some(0))
    );
    assert_eq!(wait_for_user(&rig).await, "shell");
}

/// `whoami` once the device is back (the adb server reconnects on its own schedule).
async fn wait_for_user(rig: &AdbRig) -> String {
    for _ in 0..200 {
        let out = rig.device(&["shell", "whoami"]).await;
        if out.status.success() {
            return text(&out.stdout).trim().to_string();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{} never came back after the adbd restart", rig.serial);
}

/// `adb pull` of a folder: the tree arrives with its files' bytes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_adb_pulls_a_folder() {
    let Some(adb) = adb_binary() else { return };
    let phone = sim_phone();
    phone.exec("mkdir -p '/sdcard/Pull me/sub' && echo one > '/sdcard/Pull me/a.txt' && echo two > '/sdcard/Pull me/sub/b c.txt'");
    let rig = AdbRig::start(adb, sim_shell(phone)).await;
    let dest = tempfile::tempdir().unwrap();
    let out = rig
        .device(&["pull", "/sdcard/Pull me", dest.path().to_str().unwrap()])
        .await;
    assert!(out.status.success(), "{out:?}");
    let root = dest.path().join("Pull me");
    assert_eq!(
        std::fs::read_to_string(root.join("a.txt")).unwrap(),
        "one\n"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("sub/b c.txt")).unwrap(),
        "two\n"
    );
}

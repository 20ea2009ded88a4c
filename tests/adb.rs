//! ADB: the embedded adbd against scripted bytes (hermetic), and against Debian's real `adb` server and
//! client plus our own [`AdbShell`] (gated by `DROIDMCP_ADB`, which `scripts/suites/adb` sets).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use droidmcp::adb::packet::{
    Command, Packet, MAX_PAYLOAD, VERSION_CHECKSUM, VERSION_SKIP_CHECKSUM,
};
use droidmcp::adb::shell_v2::{Channel, ShellPacket};
use droidmcp::adb::sync::{self, SyncFrame};
use droidmcp::adb::{self as adb, AdbServer, AdbShell, Identity};
use droidmcp::device::{Device, Shell, ShellError, ShellOutput};
use droidmcp::sim::{Phone, SimConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

mod console;
mod fleet;
mod root;

// ---------------------------------------------------------------------------------------------------
// Fixtures

/// A real `/bin/sh` on the host working in a temp directory, with files by host path: lets protocol
/// tests produce arbitrary output sizes, exit codes and files without depending on what the embedded
/// phone implements. Tests use paths under [`HostShell::path`] so `sh` and sync see the same files.
struct HostShell {
    root: tempfile::TempDir,
}

impl HostShell {
    fn new() -> Arc<HostShell> {
        Arc::new(HostShell {
            root: tempfile::tempdir().expect("temp dir"),
        })
    }

    /// An absolute path inside this shell's directory.
    fn path(&self, name: &str) -> String {
        self.root.path().join(name).to_string_lossy().into_owned()
    }
}

fn file_error(path: &str, e: std::io::Error) -> ShellError {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => ShellError::PermissionDenied { path: path.into() },
        _ => ShellError::NoSuchFile { path: path.into() },
    }
}

#[async_trait::async_trait]
impl Shell for HostShell {
    fn serial(&self) -> &str {
        "host-sh"
    }

    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        let out = tokio::process::Command::new("sh")
            .arg("-c")
            .arg(command_line)
            .current_dir(self.root.path())
            .output()
            .await
            .map_err(|e| ShellError::Io {
                serial: "host-sh".into(),
                source: e,
            })?;
        Ok(ShellOutput {
            stdout: out.stdout,
            stderr: out.stderr,
            exit_code: out.status.code().unwrap_or(255),
        })
    }

    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        std::fs::read(path).map_err(|e| file_error(path, e))
    }

    async fn push(&self, path: &str, data: &[u8], _mode: u32) -> Result<(), ShellError> {
        let target = PathBuf::from(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| file_error(path, e))?;
        }
        std::fs::write(target, data).map_err(|e| file_error(path, e))
    }
}

fn identity() -> Identity {
    Identity::new("oriole", "Pixel 6", "oriole")
}

/// An adbd on a free loopback port serving `shell`; dropping the handle stops it (the phone vanishes).
struct Adbd {
    addr: SocketAddr,
    _stop: tokio::sync::oneshot::Sender<()>,
}

async fn start_adbd(shell: Arc<dyn Shell>) -> Adbd {
    start_adbd_as(shell, identity()).await
}

async fn start_adbd_as(shell: Arc<dyn Shell>, identity: Identity) -> Adbd {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("local addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(adb::serve(listener, shell, identity, async move {
        let _ = stopped.await;
    }));
    Adbd { addr, _stop: stop }
}

fn sim_phone() -> Phone {
    Phone::new(SimConfig::default()).expect("phone boots")
}

fn sim_shell(phone: Phone) -> Arc<dyn Shell> {
    Arc::new(phone)
}

/// A scripted device-transport peer (what the adb server is to a phone).
struct RawPeer {
    stream: TcpStream,
    buf: Vec<u8>,
    checksum: bool,
}

impl RawPeer {
    async fn connect(addr: SocketAddr) -> RawPeer {
        let stream = TcpStream::connect(addr).await.expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        RawPeer {
            stream,
            buf: Vec::new(),
            checksum: false,
        }
    }

    /// Connects and completes the CNXN exchange, returning the device's CNXN.
    async fn handshake(addr: SocketAddr, version: u32, maxdata: u32) -> (RawPeer, Packet) {
        let mut peer = RawPeer::connect(addr).await;
        peer.checksum = version == VERSION_CHECKSUM;
        peer.send(Packet::new(
            Command::Cnxn,
            version,
            maxdata,
            b"host::features=shell_v2,cmd,stat_v2\0".to_vec(),
        ))
        .await;
        let reply = peer.recv().await.expect("CNXN reply");
        assert_eq!(reply.command, Command::Cnxn);
        (peer, reply)
    }

    async fn send(&mut self, packet: Packet) {
        let bytes = packet.encode(self.checksum);
        self.stream.write_all(&bytes).await.expect("write");
    }

    async fn send_raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.stream.write_all(bytes).await
    }

    /// The next packet, or `None` when the device closed the connection.
    async fn recv(&mut self) -> Option<Packet> {
        self.recv_raw().await.map(|(packet, _)| packet)
    }

    /// The next packet with its raw bytes (to check the checksum field).
    async fn recv_raw(&mut self) -> Option<(Packet, Vec<u8>)> {
        loop {
            if let Some((packet, used)) =
                Packet::parse(&self.buf, MAX_PAYLOAD).expect("valid packet")
            {
                let raw: Vec<u8> = self.buf.drain(..used).collect();
                return Some((packet, raw));
            }
            let mut chunk = [0u8; 65536];
            let n = tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut chunk))
                .await
                .expect("device answers within 10 s")
                .ok()?;
            if n == 0 {
                return None;
            }
            self.buf.extend_from_slice(&chunk[..n]);
        }
    }

    /// Opens `service` as stream `local`, returning the device's id for it.
    async fn open(&mut self, local: u32, service: &str) -> u32 {
        self.send(Packet::new(
            Command::Open,
            local,
            0,
            format!("{service}\0").into_bytes(),
        ))
        .await;
        let reply = self.recv().await.expect("OPEN reply");
        assert_eq!(
            (reply.command, reply.arg1),
            (Command::Okay, local),
            "{reply:?}"
        );
        reply.arg0
    }

    /// Reads the stream's data until the device's CLSE, acknowledging every WRTE; also returns the
    /// largest WRTE payload seen.
    async fn read_stream(&mut self, local: u32, remote: u32) -> (Vec<u8>, usize) {
        let mut data = Vec::new();
        let mut largest = 0;
        loop {
            let packet = self.recv().await.expect("stream packet");
            assert_eq!(packet.arg1, local, "{packet:?}");
            match packet.command {
                Command::Wrte => {
                    largest = largest.max(packet.payload.len());
                    data.extend_from_slice(&packet.payload);
                    self.send(Packet::new(Command::Okay, local, remote, Vec::new()))
                        .await;
                }
                Command::Clse => return (data, largest),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    /// Writes `parts` on a stream one WRTE at a time (each waiting for its OKAY, acknowledging any
    /// WRTE the device sends meanwhile), then reads until the device's CLSE; returns all it wrote.
    async fn converse(&mut self, local: u32, remote: u32, parts: &[&[u8]]) -> Vec<u8> {
        let mut data = Vec::new();
        for part in parts {
            self.send(Packet::new(Command::Wrte, local, remote, part.to_vec()))
                .await;
            loop {
                let packet = self.recv().await.expect("stream packet");
                assert_eq!(packet.arg1, local, "{packet:?}");
                match packet.command {
                    Command::Okay => break,
                    Command::Wrte => {
                        data.extend_from_slice(&packet.payload);
                        self.send(Packet::new(Command::Okay, local, remote, Vec::new()))
                            .await;
                    }
                    Command::Clse => return data,
                    other => panic!("unexpected {other:?}"),
                }
            }
        }
        data.extend(self.read_stream(local, remote).await.0);
        data
    }
}

fn demux(bytes: &[u8]) -> ShellOutput {
    let mut out = ShellOutput::default();
    let mut at = 0;
    while let Some((packet, used)) = ShellPacket::parse(&bytes[at..]).expect("v2 packet") {
        at += used;
        match packet.channel {
            Channel::Stdout => out.stdout.extend(packet.data),
            Channel::Stderr => out.stderr.extend(packet.data),
            Channel::Exit => out.exit_code = i32::from(packet.data[0]),
            _ => {}
        }
    }
    assert_eq!(at, bytes.len(), "trailing bytes after the exit packet");
    out
}

async fn v2_exec(peer: &mut RawPeer, local: u32, command: &str) -> ShellOutput {
    let remote = peer
        .open(local, &format!("shell,v2,TERM=xterm,raw:{command}"))
        .await;
    let (bytes, _) = peer.read_stream(local, remote).await;
    demux(&bytes)
}

// ---------------------------------------------------------------------------------------------------
// Scripted bytes against the embedded adbd (hermetic)

#[tokio::test]
async fn cnxn_is_answered_with_banner_and_no_auth() {
    let adbd = start_adbd(sim_shell(sim_phone())).await;
    let (_, reply) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    assert_eq!(reply.arg0, VERSION_SKIP_CHECKSUM);
    assert_eq!(reply.arg1, 256 * 1024, "maxdata is lowered to ours");
    let banner = String::from_utf8(reply.payload).unwrap();
    assert_eq!(
        banner,
        "device::ro.product.name=oriole;ro.product.model=Pixel 6;ro.product.device=oriole;\
         features=shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,fixed_push_symlink_timestamp"
    );
}

#[tokio::test]
async fn a_cnxn_split_at_every_byte_boundary_is_reassembled() {
    let adbd = start_adbd(HostShell::new()).await;
    let bytes = Packet::new(
        Command::Cnxn,
        VERSION_SKIP_CHECKSUM,
        4096,
        b"host::\0".to_vec(),
    )
    .encode(false);
    for cut in 1..bytes.len() {
        let mut peer = RawPeer::connect(adbd.addr).await;
        peer.send_raw(&bytes[..cut]).await.unwrap();
        tokio::task::yield_now().await;
        peer.send_raw(&bytes[cut..]).await.unwrap();
        let reply = peer.recv().await.expect("CNXN reply");
        assert_eq!(reply.command, Command::Cnxn, "cut at {cut}");
    }
}

#[tokio::test]
async fn several_packets_in_one_write_are_all_served() {
    let adbd = start_adbd(HostShell::new()).await;
    let mut peer = RawPeer::connect(adbd.addr).await;
    let mut bytes = Packet::new(
        Command::Cnxn,
        VERSION_SKIP_CHECKSUM,
        4096,
        b"host::\0".to_vec(),
    )
    .encode(false);
    bytes.extend(
        Packet::new(Command::Open, 5, 0, b"shell,v2,raw:echo one\0".to_vec()).encode(false),
    );
    bytes.extend(
        Packet::new(Command::Open, 6, 0, b"shell,v2,raw:echo two\0".to_vec()).encode(false),
    );
    peer.send_raw(&bytes).await.unwrap();
    let mut outputs = std::collections::HashMap::<u32, Vec<u8>>::new();
    let mut closed = 0;
    while closed < 2 {
        let packet = peer.recv().await.expect("packet");
        match packet.command {
            Command::Cnxn | Command::Okay => {}
            Command::Wrte => {
                outputs
                    .entry(packet.arg1)
                    .or_default()
                    .extend(&packet.payload);
                peer.send(Packet::new(
                    Command::Okay,
                    packet.arg1,
                    packet.arg0,
                    Vec::new(),
                ))
                .await;
            }
            Command::Clse => closed += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(demux(&outputs[&5]).stdout, b"one\n");
    assert_eq!(demux(&outputs[&6]).stdout, b"two\n");
}

#[tokio::test]
async fn shell_v2_carries_stdout_stderr_and_exit_code() {
    let adbd = start_adbd(HostShell::new()).await;
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    let out = v2_exec(&mut peer, 1, "echo out; echo err >&2; exit 3").await;
    assert_eq!(
        (out.stdout.as_slice(), out.stderr.as_slice(), out.exit_code),
        (&b"out\n"[..], &b"err\n"[..], 3)
    );
}

#[tokio::test]
async fn the_embedded_phone_reports_unknown_commands_with_127() {
    let adbd = start_adbd(sim_shell(sim_phone())).await;
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    let out = v2_exec(&mut peer, 1, "no-such-tool --flag").await;
    assert_eq!(out.exit_code, 127);
    assert!(
        out.stderr_text().contains("no-such-tool: not found"),
        "{out:?}"
    );
}

#[tokio::test]
async fn shell_v1_and_exec_are_raw_streams() {
    let adbd = start_adbd(HostShell::new()).await;
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    let remote = peer.open(1, "shell:echo v1").await;
    assert_eq!(peer.read_stream(1, remote).await.0, b"v1\n");
    // adb 29's exec-out quotes every argument after the first.
    let remote = peer.open(2, "exec:printf '\\000\\001\\377'").await;
    assert_eq!(peer.read_stream(2, remote).await.0, [0u8, 1, 255]);
}

#[tokio::test]
async fn interactive_shells_and_unknown_services_are_refused_with_clse() {
    let adbd = start_adbd(HostShell::new()).await;
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    for (local, service) in [
        (1, "shell:"),
        (2, "shell,v2,TERM=xterm,pty:"),
        (3, "abb_exec:package"),
    ] {
        peer.send(Packet::new(
            Command::Open,
            local,
            0,
            format!("{service}\0").into_bytes(),
        ))
        .await;
        let reply = peer.recv().await.expect("reply");
        assert_eq!(
            (reply.command, reply.arg0, reply.arg1),
            (Command::Clse, 0, local),
            "{service}"
        );
    }
    // The connection still serves.
    assert_eq!(v2_exec(&mut peer, 4, "echo alive").await.stdout, b"alive\n");
}

#[tokio::test]
async fn writes_respect_maxdata_and_wait_for_each_okay() {
    let adbd = start_adbd(HostShell::new()).await;
    let (mut peer, reply) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 4096).await;
    assert_eq!(reply.arg1, 4096);
    let remote = peer.open(1, "exec:head -c 20000 /dev/zero").await;
    let first = peer.recv().await.expect("first WRTE");
    assert_eq!((first.command, first.payload.len()), (Command::Wrte, 4096));
    // Without our OKAY nothing more may arrive.
    let more = tokio::time::timeout(Duration::from_millis(300), peer.recv()).await;
    assert!(
        more.is_err(),
        "a second WRTE arrived before the first was acknowledged: {more:?}"
    );
    peer.send(Packet::new(Command::Okay, 1, remote, Vec::new()))
        .await;
    let (rest, largest) = peer.read_stream(1, remote).await;
    assert_eq!(first.payload.len() + rest.len(), 20000);
    assert!(largest <= 4096);
}

#[tokio::test]
async fn the_old_protocol_version_gets_checksums() {
    let adbd = start_adbd(HostShell::new()).await;
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_CHECKSUM, 4096).await;
    peer.send(Packet::new(
        Command::Open,
        1,
        0,
        b"exec:echo sum\0".to_vec(),
    ))
    .await;
    let _okay = peer.recv().await;
    let (wrte, raw) = peer.recv_raw().await.expect("WRTE");
    assert_eq!(wrte.payload, b"sum\n");
    let check = u32::from_le_bytes([raw[16], raw[17], raw[18], raw[19]]);
    assert_eq!(check, droidmcp::adb::packet::checksum(b"sum\n"));
}

#[tokio::test]
async fn several_streams_run_at_once() {
    let adbd = start_adbd(HostShell::new()).await;
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    // A slow stream opened first must not hold back a quick one opened after it.
    let slow = peer.open(1, "exec:sleep 1; echo slow").await;
    let quick = peer.open(2, "exec:echo quick").await;
    let first = peer.recv().await.expect("packet");
    assert_eq!(
        (first.command, first.arg1, first.payload.as_slice()),
        (Command::Wrte, 2, &b"quick\n"[..])
    );
    peer.send(Packet::new(Command::Okay, 2, quick, Vec::new()))
        .await;
    let clse = peer.recv().await.expect("CLSE");
    assert_eq!((clse.command, clse.arg1), (Command::Clse, 2));
    assert_eq!(peer.read_stream(1, slow).await.0, b"slow\n");
}

/// Sync requests as one byte string: push `content` to `path`, then stat and pull it back.
fn sync_script(path: &str, content: &[u8]) -> Vec<u8> {
    let mut bytes = SyncFrame::request(sync::SEND, format!("{path},33188").as_bytes());
    for chunk in content.chunks(sync::DATA_MAX) {
        bytes.extend(SyncFrame::request(sync::DATA, chunk));
    }
    bytes.extend(sync::encode_status(sync::DONE, 0));
    bytes.extend(SyncFrame::request(sync::STA2, path.as_bytes()));
    bytes.extend(SyncFrame::request(sync::RECV, path.as_bytes()));
    bytes.extend(sync::encode_status(sync::QUIT, 0));
    bytes
}

fn expected_sync_replies(content: &[u8]) -> Vec<u8> {
    let mut bytes = sync::encode_status(sync::OKAY, 0);
    bytes.extend(
        sync::FileStat {
            error: 0,
            mode: sync::S_IFREG | 0o644,
            size: content.len() as u64,
            mtime: 0,
        }
        .encode_v2(sync::STA2),
    );
    for chunk in content.chunks(sync::DATA_MAX) {
        bytes.extend(SyncFrame::request(sync::DATA, chunk));
    }
    bytes.extend(sync::encode_status(sync::DONE, 0));
    bytes
}

#[tokio::test]
async fn sync_requests_split_at_every_boundary_or_batched_round_trip() {
    let shell = HostShell::new();
    let adbd = start_adbd(shell.clone()).await;
    let content = b"alarm rows".to_vec();
    let target = shell.path("Download/a.txt");
    let script = sync_script(&target, &content);
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    // Every split of the whole script into two WRTEs, then the whole script in one.
    let mut local = 1;
    for cut in (1..script.len()).chain(std::iter::once(script.len())) {
        let remote = peer.open(local, "sync:").await;
        let parts: Vec<&[u8]> = [&script[..cut], &script[cut..]]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect();
        let replies = peer.converse(local, remote, &parts).await;
        assert_eq!(replies, expected_sync_replies(&content), "cut at {cut}");
        local += 1;
    }
    assert_eq!(std::fs::read(&target).unwrap(), content);
}

#[tokio::test]
async fn sync_reports_missing_files_like_adbd() {
    let adbd = start_adbd(HostShell::new()).await;
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    let remote = peer.open(1, "sync:").await;
    let mut script = SyncFrame::request(sync::STA2, b"/nope");
    script.extend(SyncFrame::request(sync::STAT, b"/nope"));
    script.extend(SyncFrame::request(sync::RECV, b"/nope"));
    script.extend(sync::encode_status(sync::QUIT, 0));
    let mut expected = sync::FileStat::missing(sync::ENOENT).encode_v2(sync::STA2);
    expected.extend(sync::FileStat::missing(sync::ENOENT).encode_v1());
    expected.extend(sync::encode_fail("open failed: No such file or directory"));
    assert_eq!(peer.converse(1, remote, &[&script]).await, expected);
}

#[tokio::test]
async fn a_bad_sync_request_closes_only_its_stream() {
    let adbd = start_adbd(HostShell::new()).await;
    let (mut peer, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    let remote = peer.open(1, "sync:").await;
    assert_eq!(peer.converse(1, remote, &[b"BOGUS\0\0\0"]).await, b"");
    assert_eq!(v2_exec(&mut peer, 2, "echo fine").await.stdout, b"fine\n");
}

/// Deterministic noise (xorshift) so a failure replays.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.max(1);
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

#[tokio::test]
async fn random_and_truncated_packets_never_stop_the_phone_serving_others() {
    let adbd = start_adbd(sim_shell(sim_phone())).await;
    // A healthy client stays connected throughout.
    let (mut healthy, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    let valid = Packet::new(Command::Open, 1, 0, b"shell,v2,raw:x\0".to_vec()).encode(false);
    let cnxn = Packet::new(
        Command::Cnxn,
        VERSION_SKIP_CHECKSUM,
        4096,
        b"host::\0".to_vec(),
    )
    .encode(false);
    for seed in 1..=60u64 {
        let mut attacker = RawPeer::connect(adbd.addr).await;
        let junk = match seed % 6 {
            0 => noise(seed, 200),
            // A valid header announcing a huge payload.
            1 => {
                let mut p = cnxn.clone();
                p[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
                p
            }
            // Truncated: a CNXN then half an OPEN, then hang up.
            2 => [cnxn.clone(), valid[..valid.len() / 2].to_vec()].concat(),
            // Garbage after a good handshake.
            3 => [cnxn.clone(), noise(seed, 64)].concat(),
            // OPEN before CNXN.
            4 => valid.clone(),
            // Streams for ids that were never opened, stray OKAY/CLSE, an empty service.
            _ => [
                cnxn.clone(),
                Packet::new(Command::Wrte, 9, 77, b"data".to_vec()).encode(false),
                Packet::new(Command::Okay, 9, 78, Vec::new()).encode(false),
                Packet::new(Command::Clse, 9, 79, Vec::new()).encode(false),
                Packet::new(Command::Open, 3, 0, Vec::new()).encode(false),
                Packet::new(Command::Open, 0, 0, b"sync:\0".to_vec()).encode(false),
            ]
            .concat(),
        };
        let _ = attacker.send_raw(&junk).await;
        drop(attacker);
    }
    let out = v2_exec(&mut healthy, 1, "still-here").await;
    assert_eq!(out.exit_code, 127);
    let (mut fresh, _) = RawPeer::handshake(adbd.addr, VERSION_SKIP_CHECKSUM, 1 << 20).await;
    assert_eq!(v2_exec(&mut fresh, 1, "fresh").await.exit_code, 127);
}

// ---------------------------------------------------------------------------------------------------
// Real Debian `adb` (server and client): gated by DROIDMCP_ADB, which scripts/suites/adb sets.

/// The `adb` binary to use, or `None` (with a note on stderr) when the interop tests are not enabled.
fn adb_binary() -> Option<PathBuf> {
    let Ok(path) = std::env::var("DROIDMCP_ADB") else {
        eprintln!("not run: set DROIDMCP_ADB=/usr/bin/adb (scripts/suites/adb does) to test against real adb");
        return None;
    };
    let path = PathBuf::from(path);
    assert!(
        path.is_file(),
        "DROIDMCP_ADB={} does not exist: install adb (apt-get install -y adb)",
        path.display()
    );
    Some(path)
}

/// A port for an adb server to listen on, free now and outside the kernel's ephemeral range, so no
/// listener bound to port 0 (our adbds, `sim --adb 127.0.0.1:0`) nor any outgoing connection can
/// take it between this call and the server's start; each call in this process gets another.
fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let (low, _) = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| {
            let mut ends = range.split_whitespace().map(|p| p.parse::<u16>().ok());
            Some((ends.next()??, ends.next()??))
        })
        .unwrap_or((32768, 60999));
    // Below the ephemeral range, above the well-known ports; each test process starts at its
    // own offset so two test binaries running at once rarely meet.
    let base = 10_000u16;
    let span = low.saturating_sub(base).max(1000);
    let _ = NEXT.compare_exchange(
        0,
        (std::process::id() % u32::from(span)) as u16,
        Ordering::AcqRel,
        Ordering::Acquire,
    );
    for _ in 0..span {
        let port = base + NEXT.fetch_add(1, Ordering::AcqRel) % span;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port in {base}..{}", base + span)
}

/// `adb -P PORT args…` without emulator probing (and with `home` as its HOME when given), bounded:
/// a call that has not finished in 60 s fails the test with the command line rather than hanging it.
async fn adb_cli(
    adb: &std::path::Path,
    port: u16,
    args: &[&str],
    home: Option<&std::path::Path>,
) -> std::process::Output {
    let mut command = tokio::process::Command::new(adb);
    command
        .arg("-P")
        .arg(port.to_string())
        .args(args)
        .env("ADB_EMU", "0")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    if let Some(home) = home {
        command.env("HOME", home);
    }
    tokio::time::timeout(Duration::from_secs(60), command.output())
        .await
        .unwrap_or_else(|_| panic!("`adb -P {port} {}` did not finish in 60 s", args.join(" ")))
        .expect("run adb")
}

/// A private adb server (its own port, no emulator probing) connected to one of our adbds; dropping it
/// kills that server only.
struct AdbRig {
    adb: PathBuf,
    port: u16,
    serial: String,
    _adbd: Adbd,
}

impl AdbRig {
    async fn start(adb: PathBuf, shell: Arc<dyn Shell>) -> AdbRig {
        AdbRig::start_as(adb, shell, identity()).await
    }

    async fn start_as(adb: PathBuf, shell: Arc<dyn Shell>, identity: Identity) -> AdbRig {
        let adbd = start_adbd_as(shell, identity).await;
        let port = free_port();
        let rig = AdbRig {
            adb,
            port,
            serial: adbd.addr.to_string(),
            _adbd: adbd,
        };
        let started = rig.cli(&["start-server"]).await;
        assert!(started.status.success(), "adb start-server: {started:?}");
        let server = rig.server();
        let message = server
            .connect_device(&rig.serial)
            .await
            .expect("host:connect");
        assert!(message.contains("connected to"), "{message}");
        // The transport is usable once the server lists the device as `device`.
        for _ in 0..100 {
            let devices = server.devices().await.expect("devices");
            if devices
                .iter()
                .any(|d| d.serial == rig.serial && d.state == "device")
            {
                return rig;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{} never became ready", rig.serial);
    }

    fn server(&self) -> AdbServer {
        AdbServer::new(&format!("127.0.0.1:{}", self.port)).expect("address")
    }

    async fn shell(&self) -> AdbShell {
        AdbShell::new(&format!("127.0.0.1:{}", self.port), &self.serial)
            .await
            .expect("AdbShell")
    }

    async fn cli(&self, args: &[&str]) -> std::process::Output {
        adb_cli(&self.adb, self.port, args, None).await
    }

    /// `adb -s SERIAL args…`
    async fn device(&self, args: &[&str]) -> std::process::Output {
        let mut full = vec!["-s", self.serial.as_str()];
        full.extend_from_slice(args);
        self.cli(&full).await
    }
}

impl Drop for AdbRig {
    fn drop(&mut self) {
        let _ = std::process::Command::new(&self.adb)
            .args(["-P", &self.port.to_string(), "kill-server"])
            .output();
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_adb_connects_lists_and_runs_commands() {
    let Some(adb) = adb_binary() else { return };
    let rig = AdbRig::start(adb, HostShell::new()).await;
    let devices = rig.cli(&["devices", "-l"]).await;
    let listing = text(&devices.stdout);
    assert!(
        listing.contains(&format!("{} ", rig.serial))
            && listing.contains("device product:oriole model:Pixel_6 device:oriole"),
        "{listing}"
    );
    let echo = rig.device(&["shell", "echo", "hi"]).await;
    assert_eq!(
        (text(&echo.stdout).as_str(), echo.status.code()),
        ("hi\n", Some(0))
    );
    assert_eq!(rig.device(&["shell", "false"]).await.status.code(), Some(1));
    assert_eq!(
        rig.device(&["shell", "exit 3"]).await.status.code(),
        Some(3)
    );
    let err = rig.device(&["shell", "echo oops >&2"]).await;
    assert_eq!(text(&err.stderr), "oops\n");
    let state = rig.device(&["get-state"]).await;
    assert_eq!(text(&state.stdout).trim(), "device");
    let features = rig.device(&["features"]).await;
    assert!(text(&features.stdout).contains("shell_v2"), "{features:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_adb_push_pull_and_exec_out_are_byte_exact() {
    let Some(adb) = adb_binary() else { return };
    let host = HostShell::new();
    let rig = AdbRig::start(adb, host.clone()).await;
    let remote = host.path("blob.bin");
    let dir = tempfile::tempdir().unwrap();
    let original = noise(7, 3 * 1024 * 1024 + 17);
    let local = dir.path().join("blob.bin");
    std::fs::write(&local, &original).unwrap();
    let push = rig
        .device(&["push", local.to_str().unwrap(), &remote])
        .await;
    assert!(push.status.success(), "{push:?}");
    let back = dir.path().join("back.bin");
    let pull = rig.device(&["pull", &remote, back.to_str().unwrap()]).await;
    assert!(pull.status.success(), "{pull:?}");
    assert!(
        std::fs::read(&back).unwrap() == original,
        "pull differs from push"
    );
    let cat = rig.device(&["exec-out", "cat", &remote]).await;
    assert!(cat.stdout == original, "exec-out differs");
    let missing = rig
        .device(&["pull", &host.path("none"), back.to_str().unwrap()])
        .await;
    assert!(!missing.status.success());
    // adb 29 prints this error on stdout.
    let said = text(&missing.stdout) + &text(&missing.stderr);
    assert!(said.contains("No such file or directory"), "{missing:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn our_client_through_real_adb_server_to_our_adbd() {
    let Some(adb) = adb_binary() else { return };
    let host = HostShell::new();
    let rig = AdbRig::start(adb, host.clone()).await;
    let server = rig.server();
    assert_eq!(server.version().await.unwrap(), 41);
    let features = server.features(&rig.serial).await.unwrap();
    assert!(features.iter().any(|f| f == "shell_v2"), "{features:?}");
    let shell = rig.shell().await;
    assert!(shell.has_shell_v2().await.unwrap());
    let out = shell.exec("echo out; echo err >&2; exit 5").await.unwrap();
    assert_eq!(
        (out.stdout_text(), out.stderr_text(), out.exit_code),
        ("out\n".into(), "err\n".into(), 5)
    );
    assert!(shell.is_root().await.unwrap() == (host_uid() == 0));
    let bytes = shell.exec_out("printf '\\000\\r\\n\\377'").await.unwrap();
    assert_eq!(bytes, [0u8, b'\r', b'\n', 255]);
    // Push, stat, list and pull through one kept sync session.
    let data = noise(3, 200_000);
    let file = host.path("tmp/x.bin");
    shell.push(&file, &data, 0o644).await.unwrap();
    assert_eq!(shell.stat(&file).await.unwrap().size, 200_000);
    let listing = shell.list(&host.path("tmp")).await.unwrap();
    let names: Vec<&str> = listing.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["x.bin"]);
    assert!(shell.stat(&host.path("tmp")).await.unwrap().is_dir());
    assert!(shell.pull(&file).await.unwrap() == data);
    assert!(matches!(
        shell.pull(&host.path("none.db")).await,
        Err(ShellError::NoSuchFile { .. })
    ));
    // A failed transfer does not spoil the next one.
    assert!(shell.pull(&file).await.unwrap() == data);
    // Many commands at once on one device.
    let runs = (0..16).map(|i| {
        let shell = shell.clone();
        async move {
            shell
                .exec(&format!("echo {i}"))
                .await
                .unwrap()
                .stdout_text()
        }
    });
    let outs = futures::future::join_all(runs).await;
    for (i, out) in outs.iter().enumerate() {
        assert_eq!(out, &format!("{i}\n"));
    }
    // The tracker sees the device.
    let mut tracker = server.track_devices().await.unwrap();
    let now = tracker.next().await.unwrap();
    assert!(
        now.iter()
            .any(|d| d.serial == rig.serial && d.state == "device"),
        "{now:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn devices_without_shell_v2_still_give_exit_codes() {
    let Some(adb) = adb_binary() else { return };
    let legacy = Identity {
        features: Vec::new(),
        ..identity()
    };
    let rig = AdbRig::start_as(adb, HostShell::new(), legacy).await;
    let shell = rig.shell().await;
    assert!(!shell.has_shell_v2().await.unwrap());
    let cases = [
        ("echo hi", "hi\n", 0),
        ("printf 'no newline'", "no newline", 0),
        ("exit 3", "", 3),
        ("false # a trailing comment", "", 1),
        ("echo out; echo err >&2", "out\nerr\n", 0),
    ];
    for (command, stdout, code) in cases {
        let out = shell.exec(command).await.expect(command);
        assert_eq!(
            (out.stdout_text().as_str(), out.exit_code),
            (stdout, code),
            "{command}"
        );
    }
    // Real adb on a legacy device: the exit code is lost, as on old phones.
    assert_eq!(
        rig.device(&["shell", "exit 3"]).await.status.code(),
        Some(0)
    );
}

fn host_uid() -> u32 {
    // The host shell runs as whoever runs the tests.
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(u32::MAX)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_that_vanishes_mid_command_is_reported_lost() {
    let Some(adb) = adb_binary() else { return };
    let mut rig = AdbRig::start(adb, HostShell::new()).await;
    let shell = rig.shell().await;
    let running = tokio::spawn({
        let shell = shell.clone();
        async move { shell.exec("sleep 30").await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Stop the adbd: its connections drop, as when a phone is unplugged.
    let (replacement, _) = tokio::sync::oneshot::channel();
    rig._adbd._stop = replacement;
    let result = tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the command ends when the device goes")
        .unwrap();
    let err = result.expect_err("no output from a vanished device");
    assert!(err.is_device_lost(), "{err}");
    let again = shell.exec("echo hi").await.expect_err("device is gone");
    assert!(again.is_device_lost(), "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_server_is_a_clear_error() {
    // A port nobody listens on, on a non-loopback-looking name so no server is started.
    let port = free_port();
    let err = AdbShell::new(&format!("localhost.invalid:{port}"), "x")
        .await
        .err()
        .expect("error");
    assert!(err.is_device_lost(), "{err}");
    let message = err.to_string();
    assert!(message.contains("no adb server"), "{message}");
}

/// A listener that accepts and never speaks (a wedged server, or adbd itself on the port): every
/// request ends with an error naming what went unanswered instead of waiting forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_never_answers_is_a_timeout_not_a_hang() {
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = silent.local_addr().unwrap();
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((stream, _)) = silent.accept().await {
            open.push(stream);
        }
    });
    let server = AdbServer::new(&addr.to_string())
        .unwrap()
        .with_reply_timeout(Duration::from_millis(300));
    let err = tokio::time::timeout(Duration::from_secs(10), server.devices())
        .await
        .expect("the reply timeout ends the request")
        .unwrap_err();
    assert!(
        err.to_string().contains("no reply to host:devices-l"),
        "{err}"
    );
    let err = tokio::time::timeout(Duration::from_secs(10), server.open("x", "shell:true"))
        .await
        .expect("the reply timeout ends the request")
        .unwrap_err();
    assert!(
        err.to_string().contains("no reply to host:transport:x"),
        "{err}"
    );
    held.abort();
}

// ---------------------------------------------------------------------------------------------------
// One scenario list, two transports: the embedded phone in-process, and the same phone through
// AdbShell → real adb server → our adbd.

/// Runs a device-level scenario once against the in-process phone and once over real adb
/// (`AdbShell` → Debian's adb server → our adbd → the same kind of phone).
/// Every device command is bounded (30 s) already; this bounds a scenario as a whole, so a stall
/// fails the test with its name instead of holding the suite.
const SCENARIO_LIMIT: Duration = Duration::from_secs(120);

macro_rules! phone_test {
    ($name:ident, |$device:ident| $body:block) => {
        mod $name {
            use super::*;

            async fn scenario($device: Device) $body

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn in_process() {
                scenario(Device::new(sim_shell(sim_phone()))).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn over_adb() {
                let Some(adb) = adb_binary() else { return };
                let rig = AdbRig::start(adb, sim_shell(sim_phone())).await;
                let device = Device::new(Arc::new(rig.shell().await));
                tokio::time::timeout(SCENARIO_LIMIT, scenario(device))
                    .await
                    .expect("the scenario over real adb finished in time");
            }
        }
    };
}

phone_test!(unknown_commands_fail_with_127, |device| {
    let out = device.shell("definitely-not-a-tool").await.unwrap();
    assert_eq!(out.exit_code, 127);
    assert!(out.stderr_text().contains("not found"), "{out:?}");
});

phone_test!(pulling_a_missing_file_says_so, |device| {
    let err = device
        .shell_handle()
        .pull("/sdcard/does-not-exist.txt")
        .await
        .unwrap_err();
    assert!(matches!(err, ShellError::NoSuchFile { .. }), "{err}");
});

phone_test!(exit_codes_survive_the_transport, |device| {
    assert_eq!(device.shell("false").await.unwrap().exit_code, 1);
    assert_eq!(device.shell("exit 3").await.unwrap().exit_code, 3);
    assert_eq!(device.shell("true").await.unwrap().exit_code, 0);
});

phone_test!(a_pushed_file_pulls_back_byte_exact, |device| {
    let shell = device.shell_handle();
    let data = noise(11, 150_000);
    shell
        .push("/sdcard/Download/blob.bin", &data, 0o644)
        .await
        .unwrap();
    assert!(shell.pull("/sdcard/Download/blob.bin").await.unwrap() == data);
});

phone_test!(screen_size_is_the_profile, |device| {
    let size = device.screen_size().await.unwrap();
    assert_eq!((size.width, size.height), (1080, 2400));
});

phone_test!(screenshots_are_pngs_of_the_screen, |device| {
    let png = device.screencap_png().await.unwrap();
    let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap();
    assert_eq!((image.width(), image.height()), (1080, 2400));
    // The raw-frame path (taken on this host) reads the very pixels the PNG holds.
    let pixels = device.screen_pixels().await.unwrap();
    assert!(pixels == image.to_rgba8(), "raw frame and PNG differ");
});

phone_test!(a_launched_app_is_in_front_and_in_the_dump, |device| {
    let apps = device.apps().await.unwrap();
    let clock = apps
        .iter()
        .find(|a| a.package == "com.google.android.deskclock")
        .expect("the Clock app is installed");
    device.launch(clock).await.unwrap();
    let front = device.foreground().await.unwrap().expect("an app in front");
    assert_eq!(front.package, "com.google.android.deskclock");
    let xml = device.dump_xml().await.unwrap();
    assert!(xml.contains("<hierarchy") && xml.contains("com.google.android.deskclock"));
});

/// The Clock's alarm database, where Android keeps it.
const ALARMS_DB: &str = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db";

phone_test!(app_databases_pull_and_open_with_sqlite, |device| {
    let shell = device.shell_handle();
    let db = shell.pull(ALARMS_DB).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("alarms.db");
    std::fs::write(&path, db).unwrap();
    for side in ["-wal", "-shm"] {
        if let Ok(bytes) = shell.pull(&format!("{ALARMS_DB}{side}")).await {
            std::fs::write(dir.path().join(format!("alarms.db{side}")), bytes).unwrap();
        }
    }
    let conn = rusqlite::Connection::open(&path).unwrap();
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'alarm_templates'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 1);
});

/// Debian's adb client driving the embedded phone the way a person would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_adb_drives_the_embedded_phone() {
    let Some(adb) = adb_binary() else { return };
    let rig = AdbRig::start(adb, sim_shell(sim_phone())).await;
    let tap = rig.device(&["shell", "input", "tap", "540", "1200"]).await;
    assert!(tap.status.success(), "{tap:?}");
    let dump = rig
        .device(&["shell", "uiautomator", "dump", "/dev/tty"])
        .await;
    let xml = text(&dump.stdout);
    assert!(xml.contains("<hierarchy rotation="), "{xml}");
    assert!(xml.contains("UI hierchary dumped to: /dev/tty"), "{xml}");
    let shot = rig.device(&["exec-out", "screencap", "-p"]).await;
    let image = image::load_from_memory_with_format(&shot.stdout, image::ImageFormat::Png)
        .expect("exec-out screencap -p is a PNG");
    assert_eq!((image.width(), image.height()), (1080, 2400));
    let dir = tempfile::tempdir().unwrap();
    let local = dir.path().join("alarms.db");
    let pull = rig
        .device(&["pull", ALARMS_DB, local.to_str().unwrap()])
        .await;
    assert!(pull.status.success(), "{pull:?}");
    let conn = rusqlite::Connection::open(&local).unwrap();
    let _: i64 = conn
        .query_row("SELECT count(*) FROM alarm_templates", [], |r| r.get(0))
        .expect("alarm_templates is readable");
    let note = dir.path().join("note.txt");
    std::fs::write(&note, "pushed by adb\n").unwrap();
    let push = rig
        .device(&["push", note.to_str().unwrap(), "/sdcard/Download/note.txt"])
        .await;
    assert!(push.status.success(), "{push:?}");
    let cat = rig
        .device(&["shell", "cat", "/sdcard/Download/note.txt"])
        .await;
    assert_eq!(text(&cat.stdout), "pushed by adb\n");
    assert_eq!(rig.device(&["shell", "false"]).await.status.code(), Some(1));
    assert_eq!(
        rig.device(&["shell", "exit 3"]).await.status.code(),
        Some(3)
    );
}

/// A hung command over real adb: the client's timeout closes the stream, adbd drops the command (the
/// embedded phone interrupts it), and the phone answers again at once, over adb and in-process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_adb_a_hung_command_times_out_and_frees_the_phone() {
    let Some(adb) = adb_binary() else { return };
    let phone = sim_phone();
    let rig = AdbRig::start(adb, sim_shell(phone.clone())).await;
    let device = Device::with_limits(
        Arc::new(rig.shell().await),
        droidmcp::device::Limits {
            timeout: Duration::from_secs(2),
            ..Default::default()
        },
    );
    let hang = "sqlite3 /data/local/tmp/hang.db 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c;'";
    let err = device
        .shell(hang)
        .await
        .expect_err("the hang must time out");
    assert!(
        err.to_string().contains("did not finish within 2 s"),
        "{err}"
    );
    let direct = tokio::task::spawn_blocking(move || phone.exec("echo free"));
    let direct = tokio::time::timeout(Duration::from_secs(15), direct)
        .await
        .expect("adbd must cancel the command when its stream closes")
        .unwrap();
    assert_eq!(direct.stdout_text(), "free\n");
    let out = device.shell("echo over adb").await.unwrap();
    assert_eq!(out.stdout_text(), "over adb\n");
}

/// `wm size`, `wm density`, font scale and night mode as the phone reports them over adb.
async fn display_state(shell: &AdbShell) -> (String, String, String, String, (u32, u32)) {
    let run = |c: &'static str| async move { shell.exec(c).await.unwrap().stdout_text() };
    let png = shell.exec_out("screencap -p").await.unwrap();
    let shot = image::load_from_memory(&png).expect("screencap is a PNG");
    (
        run("wm size").await,
        run("wm density").await,
        run("settings get system font_scale").await,
        run("cmd uimode night").await,
        (shot.width(), shot.height()),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_environment_applies_and_restores_through_real_adb() {
    use droidmcp::env::{apply, Environment};
    let Some(adb) = adb_binary() else { return };
    let rig = AdbRig::start(adb, sim_shell(sim_phone())).await;
    let shell = rig.shell().await;
    // A B-MoCA environment that changes every factor adb can reach: another device, density,
    // font scale and the dark theme.
    let env = Environment::resolve_many("all")
        .unwrap()
        .into_iter()
        .find(|e| {
            e.dark && e.font_scale != 1.0 && (e.device.width, e.device.height) != (1080, 2400)
        })
        .expect("B-MoCA has a dark, scaled environment on another device");
    let before = display_state(&shell).await;
    assert_eq!(
        before,
        (
            "Physical size: 1080x2400\n".to_string(),
            "Physical density: 420\n".to_string(),
            "1.0\n".to_string(),
            "Night mode: no\n".to_string(),
            (1080, 2400)
        )
    );
    let done = apply::apply(&shell, &env).await.unwrap();
    let outcome = |f: &str| {
        done.factors
            .iter()
            .find(|(n, _)| *n == f)
            .unwrap()
            .1
            .clone()
    };
    for f in ["device", "density", "font_scale", "dark"] {
        assert_eq!(outcome(f), apply::Outcome::Applied, "{}", done.describe());
    }
    // The shell is adb's `shell` user, not root: what needs root is reported, not pretended.
    let missed: Vec<&str> = done.not_applied().iter().map(|(f, _)| *f).collect();
    assert!(missed.contains(&"wallpaper"), "{missed:?}");
    assert_eq!(
        missed.contains(&"locale"),
        env.locale != "en-US",
        "{}",
        done.describe()
    );
    assert!(done
        .not_applied()
        .iter()
        .all(|(_, why)| why.contains("root")));

    let (w, h) = (env.device.width, env.device.height);
    let after = display_state(&shell).await;
    assert_eq!(
        after.0,
        format!("Physical size: 1080x2400\nOverride size: {w}x{h}\n")
    );
    assert_eq!(
        after.1,
        format!("Physical density: 420\nOverride density: {}\n", env.density)
    );
    assert_eq!(after.2.trim().parse::<f32>().unwrap(), env.font_scale);
    assert_eq!(after.3, "Night mode: yes\n");
    assert_eq!(
        after.4,
        (w as u32, h as u32),
        "the screen itself changed size"
    );
    // The dump is laid out on the new screen.
    let dump = shell
        .exec("uiautomator dump /dev/tty")
        .await
        .unwrap()
        .stdout_text();
    assert!(
        dump.contains(&format!("bounds=\"[0,0][{w},{h}]\"")),
        "{dump}"
    );

    apply::restore(&shell, &done).await.unwrap();
    assert_eq!(display_state(&shell).await, before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_lost_mid_episode_aborts_it_and_keeps_its_steps() {
    use droidmcp::episode::replay::{attach, SharedEpisode};
    use droidmcp::episode::{Episode, Status};
    use droidmcp::session::{Action, Control};
    let Some(adb) = adb_binary() else { return };
    let mut rig = AdbRig::start(adb, sim_shell(sim_phone())).await;
    let shell: Arc<dyn Shell> = Arc::new(rig.shell().await);
    let catalog = crate::util::catalog();
    let inst = catalog
        .get("aw.settings.wifi_off")
        .unwrap()
        .instantiate(1, &Default::default())
        .unwrap();
    let episode: SharedEpisode = Arc::new(tokio::sync::Mutex::new(
        Episode::start(inst, shell.clone(), None).await.unwrap(),
    ));
    let session = attach(shell, &episode).await.unwrap();
    let ctl = Control::default();
    let home = || Action::PressKey { key: "home".into() };
    session.act(home(), None, &ctl).await.unwrap();
    // The phone goes away (unplugged, or its emulator killed).
    let (replacement, _) = tokio::sync::oneshot::channel();
    rig._adbd._stop = replacement;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let err = session.act(home(), None, &ctl).await.expect_err("lost");
    assert!(err.is_device_lost(), "{err}");
    let ep = episode.lock().await;
    assert_eq!(
        ep.status(),
        Status::Aborted,
        "a lost device ends the episode"
    );
    assert!(!ep.steps().is_empty(), "its steps are kept");
    drop(ep);
    // Whatever answers next, nothing more is recorded.
    let again = session.act(home(), None, &ctl).await;
    assert!(again.is_err());
}

/// Every emulator host lists an `emulator-5554`: a phone is told apart by its adb server too. Here
/// one phone is listed by two servers under the same serial; to the episodes they are two devices
/// (nothing tells a process they are one), so an episode started through the second server leaves
/// the first server's episode open, while a second episode through the same server supersedes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_serial_on_two_adb_servers_is_two_devices_to_the_episodes() {
    use droidmcp::episode::{DeviceSource, Episodes, Status};
    struct NoDevices;
    #[async_trait::async_trait]
    impl DeviceSource for NoDevices {
        async fn shell(&self, _device: Option<&str>) -> Result<Arc<dyn Shell>, String> {
            Err("this test starts its episodes on shells it made".into())
        }
    }
    let Some(adb) = adb_binary() else { return };
    let first = AdbRig::start(adb.clone(), sim_shell(sim_phone())).await;
    let second = AdbRig::start(adb, sim_shell(sim_phone())).await;
    let serial = first.serial.clone();
    let also = second.server();
    let message = also.connect_device(&serial).await.expect("host:connect");
    assert!(message.contains("connected to"), "{message}");
    for _ in 0..100 {
        let listed = also.devices().await.expect("devices");
        if listed
            .iter()
            .any(|d| d.serial == serial && d.state == "device")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let via_first: Arc<dyn Shell> = Arc::new(first.shell().await);
    let via_second: Arc<dyn Shell> = Arc::new(
        AdbShell::new(&format!("127.0.0.1:{}", second.port), &serial)
            .await
            .expect("the phone through the second server"),
    );
    assert_eq!(via_first.serial(), via_second.serial());
    assert_ne!(via_first.device_key(), via_second.device_key());

    let catalog = crate::util::catalog();
    let instance = |seed| {
        catalog
            .get("aw.settings.wifi_off")
            .unwrap()
            .instantiate(seed, &Default::default())
            .unwrap()
    };
    let eps = Arc::new(Episodes::new(
        Arc::new(catalog.clone()),
        None,
        Arc::new(NoDevices),
    ));
    let on_first = eps
        .start_instance(instance(1), via_first.clone())
        .await
        .unwrap();
    let on_second = eps
        .start_instance(instance(2), via_second.clone())
        .await
        .unwrap();
    // A step on either server's phone is that phone's episode's, though the serial is the same.
    let pool = Arc::new(droidmcp::session::DevicePool::new(None, None));
    pool.insert("first", via_first.clone());
    pool.insert("second", via_second);
    pool.set_step_sink(eps.clone());
    let step_on = |device: &'static str, key: &'static str| {
        let pool = pool.clone();
        async move {
            let session = droidmcp::session::Session::open(pool, device, Some(device))
                .await
                .unwrap();
            let outcome = session
                .act(
                    droidmcp::session::Action::PressKey { key: key.into() },
                    None,
                    &Default::default(),
                )
                .await
                .unwrap();
            outcome.episode.and_then(|r| r.episode_step)
        }
    };
    assert_eq!(step_on("second", "HOME").await, Some(1));
    assert_eq!(step_on("second", "BACK").await, Some(2));
    assert_eq!(step_on("first", "HOME").await, Some(1));
    let steps = |id: String| {
        let eps = &eps;
        async move { eps.summary(&id).await.unwrap().steps }
    };
    assert_eq!(steps(on_second.episode.clone()).await, 2);
    assert_eq!(steps(on_first.episode.clone()).await, 1);
    let status = |id: String| {
        let eps = &eps;
        async move { eps.summary(&id).await.unwrap().status }
    };
    assert_eq!(status(on_first.episode.clone()).await, Status::Running);
    assert_eq!(status(on_second.episode.clone()).await, Status::Running);
    let again = eps.start_instance(instance(3), via_first).await.unwrap();
    assert_eq!(status(on_first.episode).await, Status::Aborted);
    assert_eq!(status(on_second.episode).await, Status::Running);
    assert_eq!(status(again.episode).await, Status::Running);
}

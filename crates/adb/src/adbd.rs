//! The device side of ADB: serves any [`Shell`] (normally the embedded phone) to real adb servers and
//! clients over TCP, as `adbd` does for `adb connect`.
//!
//! Brief overview: [`serve`] accepts connections; each connection runs a reader loop that parses
//! [`Packet`]s, answers the host's CNXN with ours (no AUTH), opens streams on OPEN and routes WRTE/OKAY/
//! CLSE to them. Each stream is a task owning a [`StreamIo`] and running one service
//! ([`super::services`]). Stream state (one diagram, as h2 does):
//!
//! ```text
//!   OPEN ──► open ──(our WRTE)──► awaiting OKAY ──(OKAY)──► open ──(service done)──► CLSE sent
//!              └──────────────(peer CLSE, at any point)──────────────► closed, nothing sent
//! ```
//!
//! **Invariant:** at most one unacknowledged WRTE per stream (adb has no windowing without
//! `delayed_ack`, which we do not advertise), and every WRTE we receive gets an OKAY.
//! **Invariant:** errors have the scope of what broke: a bad header drops that connection only; a bad
//! request on a stream closes that stream only; the listener keeps serving everyone else.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

use super::packet::{
    Banner, Command, Packet, MAX_PAYLOAD, MAX_PAYLOAD_V1, VERSION_CHECKSUM, VERSION_SKIP_CHECKSUM,
};
use super::services::{self, Service};
use droidmcp_device::Shell;

/// The largest payload we accept and send once connected (adbd's own choice; the host's 1 MiB is
/// lowered to this by negotiation).
pub const MAX_DATA: usize = 256 * 1024;

/// Features we implement and therefore advertise; `abb`, `abb_exec` and `delayed_ack` are left out.
pub const FEATURES: [&str; 6] = [
    "shell_v2",
    "cmd",
    "stat_v2",
    "ls_v2",
    "fixed_push_mkdir",
    "fixed_push_symlink_timestamp",
];

/// How the device names itself in its CNXN banner (what `adb devices -l` shows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// `ro.product.name` (`product:` in `adb devices -l`).
    pub product: String,
    /// `ro.product.model` (`model:`; adb shows spaces as `_`).
    pub model: String,
    /// `ro.product.device` (`device:`).
    pub device: String,
    /// Features to advertise; [`FEATURES`] normally. An empty list makes the phone look like a
    /// pre-Android-7 device (no shell v2, so no exit codes), to exercise clients' fallbacks.
    pub features: Vec<String>,
}

impl Identity {
    /// A device with every feature we implement.
    pub fn new(product: &str, model: &str, device: &str) -> Identity {
        Identity {
            product: product.to_string(),
            model: model.to_string(),
            device: device.to_string(),
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
        }
    }

    /// Asks the shell with `getprop`, keeping `fallback` for any property it cannot answer.
    pub async fn probe(shell: &dyn Shell, fallback: Identity) -> Identity {
        let prop = |name: &'static str| async move {
            match shell.exec(&format!("getprop {name}")).await {
                Ok(out) if out.success() => {
                    let value = out.stdout_text().trim().to_string();
                    (!value.is_empty()).then_some(value)
                }
                _ => None,
            }
        };
        Identity {
            product: prop("ro.product.name").await.unwrap_or(fallback.product),
            model: prop("ro.product.model").await.unwrap_or(fallback.model),
            device: prop("ro.product.device").await.unwrap_or(fallback.device),
            features: fallback.features,
        }
    }

    /// The CNXN payload: `device::ro.product.name=…;ro.product.model=…;ro.product.device=…;features=…`.
    pub fn banner(&self) -> Vec<u8> {
        Banner {
            system_type: "device".into(),
            properties: vec![
                ("ro.product.name".into(), self.product.clone()),
                ("ro.product.model".into(), self.model.clone()),
                ("ro.product.device".into(), self.device.clone()),
            ],
            features: self.features.clone(),
        }
        .encode()
    }
}

/// What adbd does once it restarted (a `root:`/`unroot:` that changed the shell's user): an
/// emulator announces itself to the adb server again.
pub type OnRestart = Arc<dyn Fn() + Send + Sync>;

/// What every connection of one adbd shares.
struct Device {
    shell: Arc<dyn Shell>,
    banner: Vec<u8>,
    /// Cancelled when the server stops.
    stop: tokio_util::sync::CancellationToken,
    /// The connections of this adbd "process": a child of `stop`, replaced when adbd restarts
    /// (after `root:`/`unroot:`), which drops every connection as adbd's exit does. The listener
    /// stays, standing for init starting adbd again at once.
    generation: Mutex<tokio_util::sync::CancellationToken>,
    on_restart: Option<OnRestart>,
}

impl Device {
    fn generation(&self) -> std::sync::MutexGuard<'_, tokio_util::sync::CancellationToken> {
        self.generation
            .lock()
            .expect("generation lock is never poisoned: no panics while held")
    }

    /// The token that ends connections accepted now.
    fn connections(&self) -> tokio_util::sync::CancellationToken {
        self.generation().clone()
    }

    /// adbd exits and init starts it again: every current connection drops.
    fn restart(&self) {
        let old = std::mem::replace(&mut *self.generation(), self.stop.child_token());
        old.cancel();
        if let Some(hook) = &self.on_restart {
            hook();
        }
    }
}

/// Serves `shell` on `listener` until `shutdown` completes, then drops every connection (a phone that
/// vanished, as far as its peers can tell). Each connection runs on its own task, so one misbehaving
/// peer never stalls or kills the others.
pub async fn serve(
    listener: TcpListener,
    shell: Arc<dyn Shell>,
    identity: Identity,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    serve_with(listener, shell, identity, shutdown, None).await
}

/// [`serve`], calling `on_restart` each time adbd restarts.
pub async fn serve_with(
    listener: TcpListener,
    shell: Arc<dyn Shell>,
    identity: Identity,
    shutdown: impl Future<Output = ()>,
    on_restart: Option<OnRestart>,
) -> std::io::Result<()> {
    let stop = tokio_util::sync::CancellationToken::new();
    let device = Arc::new(Device {
        shell,
        banner: identity.banner(),
        generation: Mutex::new(stop.child_token()),
        stop: stop.clone(),
        on_restart,
    });
    tokio::pin!(shutdown);
    // Dropping the guard on every return path cancels the connections too.
    let _stop_connections = stop.clone().drop_guard();
    loop {
        tokio::select! {
            _ = &mut shutdown => return Ok(()),
            accepted = listener.accept() => {
                let (socket, peer) = match accepted {
                    Ok(pair) => pair,
                    Err(e) => {
                        // Per-connection accept failures (e.g. the peer reset before accept) are not fatal.
                        tracing::debug!("adbd: accept failed: {e}");
                        continue;
                    }
                };
                let device = device.clone();
                let stop = device.connections();
                tokio::spawn(async move {
                    if let Err(e) = serve_connection(socket, device, stop).await {
                        tracing::debug!("adbd: connection from {peer} dropped: {e}");
                    }
                });
            }
        }
    }
}

/// Why one connection ended abnormally.
#[derive(Debug, thiserror::Error)]
enum ConnectionError {
    #[error(transparent)]
    Packet(#[from] super::packet::PacketError),
    #[error("{0} before CNXN")]
    NotConnected(&'static str),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The write half shared by the reader loop and every stream task, with the negotiated parameters.
pub(crate) struct PacketWriter {
    /// `None` once the connection ended, so the socket closes even while stream tasks still run.
    half: tokio::sync::Mutex<Option<OwnedWriteHalf>>,
    checksum: AtomicBool,
    maxdata: AtomicUsize,
}

impl PacketWriter {
    async fn send(&self, packet: Packet) -> std::io::Result<()> {
        let bytes = packet.encode(self.checksum.load(Ordering::Relaxed));
        let mut half = self.half.lock().await;
        match half.as_mut() {
            Some(half) => half.write_all(&bytes).await,
            None => Err(std::io::ErrorKind::NotConnected.into()),
        }
    }

    fn maxdata(&self) -> usize {
        self.maxdata.load(Ordering::Relaxed)
    }
}

/// What the reader loop hands a stream.
enum Inbound {
    Data(Vec<u8>),
    Ack,
    Closed,
}

struct StreamEntry {
    remote: u32,
    inbound: mpsc::UnboundedSender<Inbound>,
}

type StreamTable = Arc<Mutex<HashMap<u32, StreamEntry>>>;

fn lock(table: &StreamTable) -> std::sync::MutexGuard<'_, HashMap<u32, StreamEntry>> {
    table
        .lock()
        .expect("stream table lock is never poisoned: no panics while held")
}

async fn serve_connection(
    socket: TcpStream,
    device: Arc<Device>,
    stop: tokio_util::sync::CancellationToken,
) -> Result<(), ConnectionError> {
    // Without NODELAY every small reply waits for the peer's delayed ACK (~40 ms per command).
    socket.set_nodelay(true)?;
    let (mut read_half, write_half) = socket.into_split();
    let writer = Arc::new(PacketWriter {
        half: tokio::sync::Mutex::new(Some(write_half)),
        checksum: AtomicBool::new(false),
        maxdata: AtomicUsize::new(MAX_PAYLOAD_V1),
    });
    let streams: StreamTable = Arc::new(Mutex::new(HashMap::new()));
    let mut next_local: u32 = 1;
    let mut connected = false;
    let mut buf: Vec<u8> = Vec::with_capacity(64 * 1024);
    let mut chunk = vec![0u8; 64 * 1024];

    let result = loop {
        let limit = if connected {
            MAX_PAYLOAD
        } else {
            MAX_PAYLOAD_V1
        };
        let parsed = match Packet::parse(&buf, limit) {
            Ok(parsed) => parsed,
            Err(e) => break Err(e.into()),
        };
        let Some((packet, used)) = parsed else {
            let read = tokio::select! {
                _ = stop.cancelled() => break Ok(()),
                read = read_half.read(&mut chunk) => read,
            };
            match read {
                Ok(0) => break Ok(()),
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
                Err(e) => break Err(e.into()),
            }
            continue;
        };
        buf.drain(..used);
        match packet.command {
            Command::Cnxn => {
                let version = packet.arg0.min(VERSION_SKIP_CHECKSUM);
                let maxdata = (packet.arg1 as usize).clamp(MAX_PAYLOAD_V1, MAX_DATA);
                writer
                    .checksum
                    .store(version <= VERSION_CHECKSUM, Ordering::Relaxed);
                writer.maxdata.store(maxdata, Ordering::Relaxed);
                // A repeated CNXN means the host restarted its side: forget every stream.
                for (_, entry) in lock(&streams).drain() {
                    let _ = entry.inbound.send(Inbound::Closed);
                }
                connected = true;
                let reply = Packet::new(
                    Command::Cnxn,
                    version,
                    maxdata as u32,
                    device.banner.clone(),
                );
                if let Err(e) = writer.send(reply).await {
                    break Err(e.into());
                }
            }
            _ if !connected => break Err(ConnectionError::NotConnected("packet")),
            Command::Open => {
                let remote = packet.arg0;
                if remote == 0 {
                    continue;
                }
                let service = Service::parse(&packet.payload);
                let reply = if matches!(service, Service::Refused(_)) {
                    Packet::new(Command::Clse, 0, remote, Vec::new())
                } else {
                    let local = next_local;
                    next_local = next_local.wrapping_add(1).max(1);
                    let (tx, rx) = mpsc::unbounded_channel();
                    lock(&streams).insert(
                        local,
                        StreamEntry {
                            remote,
                            inbound: tx,
                        },
                    );
                    let io = StreamIo {
                        local,
                        remote,
                        writer: writer.clone(),
                        inbound: rx,
                        pending: VecDeque::new(),
                        peer_closed: false,
                        table: streams.clone(),
                    };
                    let device = device.clone();
                    // The OKAY must precede the stream's first WRTE, so it is sent before the task runs.
                    let okay = Packet::new(Command::Okay, local, remote, Vec::new());
                    if let Err(e) = writer.send(okay).await {
                        break Err(e.into());
                    }
                    tokio::spawn(async move {
                        let mut io = io;
                        let after = services::run(service, &mut io, device.shell.as_ref()).await;
                        io.close().await;
                        if after == services::After::Restart {
                            device.restart();
                        }
                    });
                    continue;
                };
                if let Err(e) = writer.send(reply).await {
                    break Err(e.into());
                }
            }
            Command::Wrte => {
                let (remote, local) = (packet.arg0, packet.arg1);
                let inbound = match lock(&streams).get(&local) {
                    Some(entry) if entry.remote == remote => Some(entry.inbound.clone()),
                    _ => None,
                };
                if let Some(inbound) = inbound {
                    // Acknowledge before the service sees the data, so our OKAY always precedes any
                    // reply the data provokes.
                    let ack = Packet::new(Command::Okay, local, remote, Vec::new());
                    if let Err(e) = writer.send(ack).await {
                        break Err(e.into());
                    }
                    let _ = inbound.send(Inbound::Data(packet.payload));
                }
            }
            Command::Okay => {
                if let Some(entry) = lock(&streams).get(&packet.arg1) {
                    let _ = entry.inbound.send(Inbound::Ack);
                }
            }
            Command::Clse => {
                if let Some(entry) = lock(&streams).remove(&packet.arg1) {
                    let _ = entry.inbound.send(Inbound::Closed);
                }
            }
            // We never ask for AUTH or TLS, and SYNC is obsolete: nothing to answer.
            Command::Auth | Command::Stls | Command::Sync => {}
        }
    };
    for (_, entry) in lock(&streams).drain() {
        let _ = entry.inbound.send(Inbound::Closed);
    }
    // A stream task stuck writing to a peer that stopped reading holds the lock; give up on a clean
    // close then (the half drops with the last task).
    if let Ok(mut half) =
        tokio::time::timeout(std::time::Duration::from_secs(1), writer.half.lock()).await
    {
        half.take();
    }
    result
}

/// The peer closed the stream (or the connection dropped) while we were writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("stream closed by the peer")]
pub struct StreamClosed;

/// One open stream as its service sees it: ordered reads, and writes that respect flow control.
pub struct StreamIo {
    local: u32,
    remote: u32,
    writer: Arc<PacketWriter>,
    inbound: mpsc::UnboundedReceiver<Inbound>,
    /// Data that arrived while we were waiting for an OKAY.
    pending: VecDeque<Vec<u8>>,
    peer_closed: bool,
    table: StreamTable,
}

impl StreamIo {
    /// The next chunk the peer wrote, or `None` once it closed the stream.
    pub async fn read(&mut self) -> Option<Vec<u8>> {
        if let Some(data) = self.pending.pop_front() {
            return Some(data);
        }
        if self.peer_closed {
            return None;
        }
        loop {
            match self.inbound.recv().await {
                Some(Inbound::Data(data)) => return Some(data),
                // An OKAY we were not waiting for: tolerated, as adb peers send stray ones.
                Some(Inbound::Ack) => continue,
                Some(Inbound::Closed) | None => {
                    self.peer_closed = true;
                    return None;
                }
            }
        }
    }

    /// Writes `data` as WRTE packets of at most maxdata bytes, waiting for the OKAY of each.
    pub async fn write(&mut self, data: &[u8]) -> Result<(), StreamClosed> {
        let maxdata = self.writer.maxdata();
        for piece in data.chunks(maxdata) {
            if self.peer_closed {
                return Err(StreamClosed);
            }
            let packet = Packet::new(Command::Wrte, self.local, self.remote, piece.to_vec());
            self.writer.send(packet).await.map_err(|_| StreamClosed)?;
            loop {
                match self.inbound.recv().await {
                    Some(Inbound::Ack) => break,
                    Some(Inbound::Data(data)) => self.pending.push_back(data),
                    Some(Inbound::Closed) | None => {
                        self.peer_closed = true;
                        return Err(StreamClosed);
                    }
                }
            }
        }
        Ok(())
    }

    /// Ends the stream: sends CLSE unless the peer already closed it.
    pub async fn close(mut self) {
        let removed = lock(&self.table).remove(&self.local).is_some();
        self.inbound.close();
        if removed && !self.peer_closed {
            let clse = Packet::new(Command::Clse, self.local, self.remote, Vec::new());
            let _ = self.writer.send(clse).await;
        }
    }
}

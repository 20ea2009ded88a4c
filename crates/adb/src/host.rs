//! The adb server's "smart socket" protocol (client side): requests framed as `%04x` + service, replies
//! `OKAY` or `FAIL %04x message`, and the host services (`host:version`, `host:devices-l`,
//! `host:track-devices`, `host:connect`, `host:disconnect`, `host-serial:S:features`) plus opening a
//! device service through `host:transport:SERIAL`.
//!
//! Each device command needs its own TCP connection to the server (the connection becomes the device
//! stream), so [`AdbServer::dial`] sets `TCP_NODELAY` and is cheap; pooling lives in
//! [`super::client::AdbShell`].

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// The default server address (`adb`'s own default).
pub const DEFAULT_SERVER: &str = "127.0.0.1:5037";

/// Why talking to the adb server failed.
#[derive(Debug, thiserror::Error)]
pub enum AdbError {
    #[error("no adb server at {addr} ({reason}); {hint}")]
    NoServer {
        addr: String,
        reason: String,
        hint: String,
    },
    #[error("adb server at {addr}: {source}")]
    Io {
        addr: String,
        #[source]
        source: std::io::Error,
    },
    /// The server answered FAIL, e.g. `device 'X' not found`. The message names the server: a
    /// client started without the caller's `ADB_SERVER_SOCKET` (an MCP client's launcher) asks
    /// another server than the one the person meant.
    #[error("adb server at {addr}: {service}: {message}{}", missing_hint(.message))]
    Failed {
        addr: String,
        service: String,
        message: String,
    },
    #[error("adb server at {addr}: malformed reply to {service}: {reason}")]
    Protocol {
        addr: String,
        service: String,
        reason: String,
    },
    #[error("invalid adb server address {0:?}: expected host:port or tcp:host:port")]
    BadAddress(String),
}

impl AdbError {
    /// True when the server said the device is gone or not (yet) usable.
    pub fn is_device_missing(&self) -> bool {
        matches!(self, AdbError::Failed { message, .. }
            if message.contains("not found") || message.contains("offline")
                || message.contains("unauthorized") || message.contains("no devices"))
    }
}

/// What to try when the server does not know a device.
fn missing_hint(message: &str) -> &'static str {
    if message.contains("not found") || message.contains("no devices") {
        " (is the device on another adb server? pass --adb-server HOST:PORT or set ADB_SERVER_SOCKET=tcp:HOST:PORT; `droidmcp devices` lists what this one knows)"
    } else {
        ""
    }
}

/// Picks the server address: the explicit `--adb-server`, else `ADB_SERVER_SOCKET` (`tcp:host:port`),
/// else `ANDROID_ADB_SERVER_PORT` on loopback, else [`DEFAULT_SERVER`].
pub fn server_address(explicit: Option<&str>) -> Result<String, AdbError> {
    let chosen = match explicit {
        Some(addr) => addr.to_string(),
        None => match std::env::var("ADB_SERVER_SOCKET") {
            Ok(value) if !value.trim().is_empty() => value,
            // adb itself honours this, so a tool run beside `adb` on a private server must too.
            _ => match std::env::var("ANDROID_ADB_SERVER_PORT") {
                Ok(port) if !port.trim().is_empty() => format!("127.0.0.1:{}", port.trim()),
                _ => DEFAULT_SERVER.to_string(),
            },
        },
    };
    normalize_address(&chosen)
}

/// `tcp:host:port`, `host:port` or `:port` → `host:port`.
pub fn normalize_address(text: &str) -> Result<String, AdbError> {
    let trimmed = text.trim();
    let rest = trimmed.strip_prefix("tcp:").unwrap_or(trimmed);
    let Some((host, port)) = rest.rsplit_once(':') else {
        return Err(AdbError::BadAddress(text.to_string()));
    };
    if port.parse::<u16>().is_err() {
        return Err(AdbError::BadAddress(text.to_string()));
    }
    let host = if host.is_empty() { "127.0.0.1" } else { host };
    Ok(format!("{host}:{port}"))
}

/// One device as `host:devices-l` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceEntry {
    pub serial: String,
    /// `device`, `offline`, `unauthorized`, `recovery`, …
    pub state: String,
    pub product: Option<String>,
    pub model: Option<String>,
    pub device: Option<String>,
    /// `usb:1-1` for USB devices; absent for TCP ones.
    pub usb: Option<String>,
    pub transport_id: Option<u64>,
}

impl DeviceEntry {
    /// How the device is attached: `usb`, `tcp` (an `adb connect`ed host:port) or `emulator`.
    pub fn transport(&self) -> &'static str {
        if self.usb.is_some() {
            "usb"
        } else if self.serial.starts_with("emulator-") {
            "emulator"
        } else if self.serial.contains(':') {
            "tcp"
        } else {
            "usb"
        }
    }
}

/// Parses the text of `host:devices-l` (or the shorter `host:devices` / `track-devices` lines).
pub fn parse_devices(text: &str) -> Vec<DeviceEntry> {
    let mut devices = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let (Some(serial), Some(state)) = (words.next(), words.next()) else {
            continue;
        };
        let mut entry = DeviceEntry {
            serial: serial.to_string(),
            state: state.to_string(),
            product: None,
            model: None,
            device: None,
            usb: None,
            transport_id: None,
        };
        for word in words {
            let Some((key, value)) = word.split_once(':') else {
                continue;
            };
            match key {
                "product" => entry.product = Some(value.to_string()),
                "model" => entry.model = Some(value.to_string()),
                "device" => entry.device = Some(value.to_string()),
                "usb" => entry.usb = Some(value.to_string()),
                "transport_id" => entry.transport_id = value.parse().ok(),
                _ => {}
            }
        }
        devices.push(entry);
    }
    devices
}

/// Writes one smart-socket request: `%04x` length, then the service name.
pub async fn send_request<S: AsyncWrite + Unpin>(
    stream: &mut S,
    service: &str,
) -> std::io::Result<()> {
    let mut request = format!("{:04x}", service.len()).into_bytes();
    request.extend_from_slice(service.as_bytes());
    stream.write_all(&request).await
}

/// What a smart-socket status said.
#[derive(Debug)]
pub enum Status {
    Okay,
    Fail(String),
}

/// Reads `OKAY`, or `FAIL` with its message.
pub async fn read_status<S: AsyncRead + Unpin>(stream: &mut S) -> std::io::Result<Status> {
    let mut word = [0u8; 4];
    stream.read_exact(&mut word).await?;
    match &word {
        b"OKAY" => Ok(Status::Okay),
        b"FAIL" => Ok(Status::Fail(
            String::from_utf8_lossy(&read_block(stream).await?).into_owned(),
        )),
        other => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "expected OKAY or FAIL, got {:?}",
                String::from_utf8_lossy(other)
            ),
        )),
    }
}

/// Reads a `%04x`-prefixed block.
pub async fn read_block<S: AsyncRead + Unpin>(stream: &mut S) -> std::io::Result<Vec<u8>> {
    let mut hex = [0u8; 4];
    stream.read_exact(&mut hex).await?;
    let len = std::str::from_utf8(&hex)
        .ok()
        .and_then(|h| usize::from_str_radix(h, 16).ok())
        .ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("bad length prefix {:?}", String::from_utf8_lossy(&hex)),
            )
        })?;
    let mut block = vec![0u8; len];
    stream.read_exact(&mut block).await?;
    Ok(block)
}

/// A handle on one adb server (local or remote), by address.
#[derive(Debug, Clone)]
pub struct AdbServer {
    addr: String,
    /// Whether a refused local address may be answered by starting `adb start-server`: yes for the
    /// CLI a person runs, never for a server acting for its clients (an agent's `select_device`
    /// must not leave a daemon behind that scans for emulators).
    start_local: bool,
    /// How long a request's reply may take ([`REPLY_TIMEOUT`] unless set).
    reply_timeout: Duration,
}

const DIAL_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a request's reply may take by default. The server answers host services at once and a device
/// service once the device opened it; `host:connect` waits for the device's handshake, which adb
/// itself bounds at 10 s. Past this the port is not an adb server that is answering (a wedged
/// server, or another protocol's listener on the port that waits for us to speak first).
const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

impl AdbServer {
    /// `addr` is `host:port` (or `tcp:host:port`).
    pub fn new(addr: &str) -> Result<AdbServer, AdbError> {
        Ok(AdbServer {
            addr: normalize_address(addr)?,
            start_local: true,
            reply_timeout: REPLY_TIMEOUT,
        })
    }

    /// This server with replies awaited at most `limit` (a remote server over a slow link may
    /// need more than the default; a health probe less).
    pub fn with_reply_timeout(mut self, limit: Duration) -> AdbServer {
        self.reply_timeout = limit;
        self
    }

    /// This server as a handle that never starts one: a refused address is an error that says how
    /// to start it or where else to point (`--adb-server`).
    pub fn never_start(mut self) -> AdbServer {
        self.start_local = false;
        self
    }

    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// Opens a fresh connection to the server, starting a local server with `adb start-server` when
    /// none is listening and `adb` is installed.
    pub async fn dial(&self) -> Result<TcpStream, AdbError> {
        match self.try_dial().await {
            Ok(stream) => Ok(stream),
            Err(e)
                if e.kind() == std::io::ErrorKind::ConnectionRefused
                    && self.is_local()
                    && !self.start_local =>
            {
                Err(AdbError::NoServer {
                    addr: self.addr.clone(),
                    reason: e.to_string(),
                    hint: "this server does not start an adb server for its clients: start one \
                           (`adb start-server`) or restart droidmcp with --adb-server HOST:PORT \
                           naming a running one"
                        .into(),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused && self.is_local() => {
                self.start_local_server(&e).await?;
                self.try_dial().await.map_err(|e| AdbError::NoServer {
                    addr: self.addr.clone(),
                    reason: format!("still unreachable after `adb start-server`: {e}"),
                    hint: "check `adb start-server` by hand".into(),
                })
            }
            Err(e) => Err(AdbError::NoServer {
                addr: self.addr.clone(),
                reason: e.to_string(),
                hint: "is the adb server running there (`adb -a -P PORT nodaemon server` on that host)?"
                    .into(),
            }),
        }
    }

    async fn try_dial(&self) -> std::io::Result<TcpStream> {
        let stream = tokio::time::timeout(DIAL_TIMEOUT, TcpStream::connect(&self.addr))
            .await
            .map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::TimedOut, "connect timed out")
            })??;
        stream.set_nodelay(true)?;
        Ok(stream)
    }

    fn is_local(&self) -> bool {
        let host = self.addr.rsplit_once(':').map_or("", |(h, _)| h);
        host == "localhost"
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
            || self
                .addr
                .parse::<SocketAddr>()
                .is_ok_and(|a| a.ip().is_loopback())
    }

    fn port(&self) -> &str {
        self.addr.rsplit_once(':').map_or("5037", |(_, p)| p)
    }

    async fn start_local_server(&self, refused: &std::io::Error) -> Result<(), AdbError> {
        let adb = std::env::var("DROIDMCP_ADB").unwrap_or_else(|_| "adb".into());
        let start = tokio::process::Command::new(&adb)
            .args(["-P", self.port(), "start-server"])
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true)
            .output();
        // `adb start-server` waits for the server it forked to say it is up; a port held by
        // something that is not an adb server can keep it waiting.
        let output = match tokio::time::timeout(self.reply_timeout, start).await {
            Ok(output) => output,
            Err(_) => {
                return Err(AdbError::NoServer {
                    addr: self.addr.clone(),
                    reason: format!(
                        "{refused}; `{adb} -P {} start-server` did not finish within {:?}",
                        self.port(),
                        self.reply_timeout
                    ),
                    hint: "is another program listening on that port?".into(),
                })
            }
        };
        match output {
            Ok(out) if out.status.success() => Ok(()),
            Ok(out) => Err(AdbError::NoServer {
                addr: self.addr.clone(),
                reason: format!(
                    "{refused}; `{adb} -P {} start-server` failed: {}",
                    self.port(),
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
                hint: "run `adb start-server` by hand to see why".into(),
            }),
            Err(e) => Err(AdbError::NoServer {
                addr: self.addr.clone(),
                reason: format!("{refused}; cannot run `{adb}`: {e}"),
                hint: "install adb (Debian/Ubuntu: `apt-get install adb`; macOS: `brew install \
                       android-platform-tools`; else Android SDK platform-tools) or pass \
                       --adb-server HOST:PORT"
                    .into(),
            }),
        }
    }

    fn io_error(&self, source: std::io::Error) -> AdbError {
        AdbError::Io {
            addr: self.addr.clone(),
            source,
        }
    }

    /// Waits at most the reply timeout for `reply` to `service`.
    async fn reply<T>(
        &self,
        service: &str,
        reply: impl std::future::Future<Output = std::io::Result<T>>,
    ) -> Result<T, AdbError> {
        match tokio::time::timeout(self.reply_timeout, reply).await {
            Ok(read) => read.map_err(|e| self.io_error(e)),
            Err(_) => Err(self.io_error(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("no reply to {service} within {:?}", self.reply_timeout),
            ))),
        }
    }

    /// Sends `service` on `stream` and reads its status, turning FAIL into [`AdbError::Failed`].
    pub async fn request(&self, stream: &mut TcpStream, service: &str) -> Result<(), AdbError> {
        send_request(stream, service)
            .await
            .map_err(|e| self.io_error(e))?;
        match self.reply(service, read_status(stream)).await? {
            Status::Okay => Ok(()),
            Status::Fail(message) => Err(AdbError::Failed {
                addr: self.addr.clone(),
                service: service.to_string(),
                message,
            }),
        }
    }

    /// A host service answered with one `%04x` block (`host:version`, `host:devices-l`, …).
    pub async fn query(&self, service: &str) -> Result<Vec<u8>, AdbError> {
        let mut stream = self.dial().await?;
        self.request(&mut stream, service).await?;
        self.reply(service, read_block(&mut stream)).await
    }

    /// Tells the server an emulator's adbd listens on 127.0.0.1:`adb_port` (what an emulator sends
    /// when it starts, `host:emulator:PORT`); the server then lists it as `emulator-<adb_port - 1>`.
    /// The server sends no reply to this request.
    pub async fn register_emulator(&self, adb_port: u16) -> Result<(), AdbError> {
        let mut stream = self.dial().await?;
        send_request(&mut stream, &format!("host:emulator:{adb_port}"))
            .await
            .map_err(|e| self.io_error(e))?;
        // Let the server read the request before the socket closes.
        let _ = tokio::time::timeout(Duration::from_millis(200), stream.read_u8()).await;
        Ok(())
    }

    /// Announces an emulator again after its adbd restarted (`adb root`), as an emulator does when
    /// its guest adbd comes back: the server dropped the transport with the connection and does not
    /// redial emulators by itself. Retries for up to ~5 s, until the server lists `emulator-N` as a
    /// device again (the old transport may still be on its way out at the first attempt).
    pub async fn reannounce_emulator(&self, adb_port: u16) {
        let serial = format!("emulator-{}", adb_port.saturating_sub(1));
        for _ in 0..50 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if self.register_emulator(adb_port).await.is_err() {
                continue;
            }
            let back = self.devices().await.is_ok_and(|devices| {
                devices
                    .iter()
                    .any(|d| d.serial == serial && d.state == "device")
            });
            if back {
                return;
            }
        }
        tracing::debug!(
            "{serial} did not come back on the adb server at {}",
            self.addr
        );
    }

    /// The server's protocol version (41 for adb 1.0.41).
    pub async fn version(&self) -> Result<u32, AdbError> {
        let block = self.query("host:version").await?;
        let text = String::from_utf8_lossy(&block);
        u32::from_str_radix(text.trim(), 16).map_err(|_| AdbError::Protocol {
            addr: self.addr.clone(),
            service: "host:version".into(),
            reason: format!("not a hex version: {text:?}"),
        })
    }

    /// Every device the server knows, in any state.
    pub async fn devices(&self) -> Result<Vec<DeviceEntry>, AdbError> {
        let block = self.query("host:devices-l").await?;
        Ok(parse_devices(&String::from_utf8_lossy(&block)))
    }

    /// `adb connect HOST:PORT`; returns the server's message (`connected to …`, `already connected to …`).
    pub async fn connect_device(&self, target: &str) -> Result<String, AdbError> {
        let service = format!("host:connect:{target}");
        let message = String::from_utf8_lossy(&self.query(&service).await?).into_owned();
        // The server answers OKAY even when the connection failed; only the text tells.
        if message.contains("connected to") && !message.contains("failed") {
            Ok(message)
        } else {
            Err(AdbError::Failed {
                addr: self.addr.clone(),
                service,
                message,
            })
        }
    }

    /// `adb disconnect HOST:PORT`.
    pub async fn disconnect_device(&self, target: &str) -> Result<String, AdbError> {
        let service = format!("host:disconnect:{target}");
        Ok(String::from_utf8_lossy(&self.query(&service).await?).into_owned())
    }

    /// The features both the server and the device support.
    pub async fn features(&self, serial: &str) -> Result<Vec<String>, AdbError> {
        let block = self
            .query(&format!("host-serial:{serial}:features"))
            .await?;
        Ok(String::from_utf8_lossy(&block)
            .trim()
            .split(',')
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect())
    }

    /// A connection already switched to `serial`'s transport, ready for one device service.
    pub async fn transport(&self, serial: &str) -> Result<TcpStream, AdbError> {
        let mut stream = self.dial().await?;
        self.request(&mut stream, &format!("host:transport:{serial}"))
            .await?;
        Ok(stream)
    }

    /// Opens a device service (`shell,v2,raw:…`, `exec:…`, `sync:`) on `serial`; the returned
    /// connection carries that service's bytes until EOF.
    pub async fn open(&self, serial: &str, service: &str) -> Result<TcpStream, AdbError> {
        let mut stream = self.transport(serial).await?;
        self.request(&mut stream, service).await?;
        Ok(stream)
    }

    /// `host:track-devices`: the device list now and after every change.
    pub async fn track_devices(&self) -> Result<DeviceTracker, AdbError> {
        let mut stream = self.dial().await?;
        self.request(&mut stream, "host:track-devices").await?;
        Ok(DeviceTracker {
            stream,
            server: self.clone(),
        })
    }

    /// Asks the server to exit (`adb kill-server`).
    pub async fn kill(&self) -> Result<(), AdbError> {
        let mut stream = self.try_dial().await.map_err(|e| self.io_error(e))?;
        self.request(&mut stream, "host:kill").await
    }
}

/// The live device list from `host:track-devices`.
pub struct DeviceTracker {
    stream: TcpStream,
    server: AdbServer,
}

impl DeviceTracker {
    /// Waits for the next list (the first comes at once); serial and state only.
    pub async fn next(&mut self) -> Result<Vec<DeviceEntry>, AdbError> {
        let block = read_block(&mut self.stream)
            .await
            .map_err(|e| self.server.io_error(e))?;
        Ok(parse_devices(&String::from_utf8_lossy(&block)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_devices_l() {
        let text = "127.0.0.1:5599         device product:simphone model:SimPhone device:sim transport_id:1\n\
                    emulator-5554\toffline\n\
                    0A1B2C3D               unauthorized usb:1-1 transport_id:4\n";
        let devices = parse_devices(text);
        assert_eq!(devices.len(), 3);
        assert_eq!(devices[0].model.as_deref(), Some("SimPhone"));
        assert_eq!(devices[0].transport(), "tcp");
        assert_eq!(devices[0].transport_id, Some(1));
        assert_eq!(devices[1].state, "offline");
        assert_eq!(devices[1].transport(), "emulator");
        assert_eq!(devices[2].transport(), "usb");
    }

    #[test]
    fn normalizes_addresses() {
        assert_eq!(
            normalize_address("tcp:10.0.0.2:5037").unwrap(),
            "10.0.0.2:5037"
        );
        assert_eq!(normalize_address(":5038").unwrap(), "127.0.0.1:5038");
        assert!(normalize_address("nohost").is_err());
        assert!(normalize_address("h:99999").is_err());
    }
}

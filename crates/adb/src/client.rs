//! [`AdbShell`]: the [`Shell`] of one real device (phone, emulator, or an `adb connect`ed embedded phone)
//! reached through an adb server, local or remote.
//!
//! Every command needs its own server connection (the host protocol turns the connection into the
//! device stream), so the shell keeps a small pool of connections already switched to the device's
//! transport and refills it in the background: a command then costs one request, one OKAY and its
//! output, with no process spawn. A `sync:` session is kept between pulls and pushes, since one sync
//! stream may carry many requests.
//!
//! Exit codes come from shell v2 (`shell,v2,raw:`); devices without `shell_v2` (before Android 7) get
//! `shell:` with a marker line carrying `$?`.

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use tokio::io::{AsyncReadExt, BufReader};
use tokio::net::TcpStream;

use super::host::{AdbError, AdbServer};
use super::shell_v2::{self, Channel};
use super::sync::{self, FileStat, SyncError};
use droidmcp_device::{Shell, ShellError, ShellOutput};

/// Pre-connected transport connections kept ready per device.
const POOL_SIZE: usize = 2;

/// The marker the shell v1 fallback prints before `$?`.
const EXIT_MARKER: &str = "__droidmcp_exit=";

/// One device behind an adb server.
#[derive(Clone)]
pub struct AdbShell {
    inner: Arc<Inner>,
}

/// What the device (and server) support, learned once per shell.
#[derive(Debug, Clone, Copy)]
struct Features {
    shell_v2: bool,
    stat_v2: bool,
}

struct Inner {
    server: AdbServer,
    serial: String,
    features: tokio::sync::OnceCell<Features>,
    /// Connections already past `host:transport:SERIAL`, waiting for a service.
    pool: Mutex<Vec<TcpStream>>,
    refilling: std::sync::atomic::AtomicBool,
    /// An open `sync:` session between file transfers.
    sync: tokio::sync::Mutex<Option<BufReader<TcpStream>>>,
}

impl AdbShell {
    /// Connects to `serial` through the adb server at `server_addr` (`host:port`), learning what the
    /// device supports. Fails with [`ShellError::Unreachable`] when the server or device is not there.
    pub async fn new(server_addr: &str, serial: &str) -> Result<AdbShell, ShellError> {
        let server = AdbServer::new(server_addr).map_err(|e| to_shell_error(serial, e))?;
        AdbShell::with_server(server, serial).await
    }

    /// Like [`AdbShell::new`] with a server handle already made.
    pub async fn with_server(server: AdbServer, serial: &str) -> Result<AdbShell, ShellError> {
        let shell = AdbShell::lazy(server, serial);
        shell.features().await?;
        shell.refill();
        Ok(shell)
    }

    /// A shell that contacts the server only on its first command (usable from synchronous code, and
    /// before the device is plugged in); errors then surface from that command.
    pub fn lazy(server: AdbServer, serial: &str) -> AdbShell {
        AdbShell {
            inner: Arc::new(Inner {
                server,
                serial: serial.to_string(),
                features: tokio::sync::OnceCell::new(),
                pool: Mutex::new(Vec::new()),
                refilling: std::sync::atomic::AtomicBool::new(false),
                sync: tokio::sync::Mutex::new(None),
            }),
        }
    }

    async fn features(&self) -> Result<Features, ShellError> {
        let inner = &self.inner;
        let features = inner
            .features
            .get_or_try_init(|| async {
                let list = inner
                    .server
                    .features(&inner.serial)
                    .await
                    .map_err(|e| to_shell_error(&inner.serial, e))?;
                let has = |name: &str| list.iter().any(|f| f == name);
                Ok::<_, ShellError>(Features {
                    shell_v2: has("shell_v2"),
                    stat_v2: has("stat_v2"),
                })
            })
            .await?;
        Ok(*features)
    }

    /// One shell per device the server lists as ready (`device` state).
    pub async fn all(server_addr: &str) -> Result<Vec<AdbShell>, ShellError> {
        let server = AdbServer::new(server_addr).map_err(|e| to_shell_error("*", e))?;
        let devices = server.devices().await.map_err(|e| to_shell_error("*", e))?;
        let mut shells = Vec::new();
        for device in devices.into_iter().filter(|d| d.state == "device") {
            shells.push(AdbShell::with_server(server.clone(), &device.serial).await?);
        }
        Ok(shells)
    }

    /// True when commands carry real exit codes and separate stderr (shell v2).
    pub async fn has_shell_v2(&self) -> Result<bool, ShellError> {
        Ok(self.features().await?.shell_v2)
    }

    /// Whether the shell runs as root (`id -u` is 0): only then are other apps' databases readable.
    pub async fn is_root(&self) -> Result<bool, ShellError> {
        let out = self.exec("id -u").await?;
        Ok(out.success() && out.stdout_text().trim() == "0")
    }

    /// Runs `command_line` through `exec:` and returns its raw stdout: binary-safe on every Android
    /// version (no PTY), e.g. `screencap -p`.
    pub async fn exec_out(&self, command_line: &str) -> Result<Vec<u8>, ShellError> {
        let mut stream = self.open(&format!("exec:{command_line}")).await?;
        let mut out = Vec::new();
        stream
            .read_to_end(&mut out)
            .await
            .map_err(|e| self.lost(format!("reading exec output: {e}")))?;
        Ok(out)
    }

    /// `lstat` of a device path (v2 when the device supports it).
    pub async fn stat(&self, path: &str) -> Result<FileStat, ShellError> {
        let stat_v2 = self.features().await?.stat_v2;
        let owned = path.to_string();
        self.with_sync(path, move |stream| {
            let owned = owned.clone();
            Box::pin(async move {
                if stat_v2 {
                    sync::stat_v2(stream, &owned).await
                } else {
                    sync::stat_v1(stream, &owned).await
                }
            })
        })
        .await
    }

    /// The entries of a device directory.
    pub async fn list(&self, path: &str) -> Result<Vec<(String, FileStat)>, ShellError> {
        let owned = path.to_string();
        self.with_sync(path, move |stream| {
            let owned = owned.clone();
            Box::pin(async move { sync::list(stream, &owned).await })
        })
        .await
    }

    fn lost(&self, reason: String) -> ShellError {
        ShellError::Disconnected {
            serial: self.inner.serial.clone(),
            reason,
        }
    }

    fn take_pooled(&self) -> Option<TcpStream> {
        self.inner
            .pool
            .lock()
            .expect("pool lock is never poisoned: no panics while held")
            .pop()
    }

    /// Tops the pool up in the background, one dialer at a time.
    fn refill(&self) {
        use std::sync::atomic::Ordering;
        if self.inner.refilling.swap(true, Ordering::AcqRel) {
            return;
        }
        let inner = self.inner.clone();
        tokio::spawn(async move {
            loop {
                let len = inner
                    .pool
                    .lock()
                    .expect("pool lock is never poisoned: no panics while held")
                    .len();
                if len >= POOL_SIZE {
                    break;
                }
                match inner.server.transport(&inner.serial).await {
                    Ok(stream) => inner
                        .pool
                        .lock()
                        .expect("pool lock is never poisoned: no panics while held")
                        .push(stream),
                    // The next command dials itself and reports the error properly.
                    Err(_) => break,
                }
            }
            inner.refilling.store(false, Ordering::Release);
        });
    }

    /// A connection carrying `service` on this device, from the pool when one is ready. A pooled
    /// connection may have gone stale (the server dropped it); then the service is retried once on a
    /// fresh one, which is safe because a failed request never reached the device.
    async fn open(&self, service: &str) -> Result<TcpStream, ShellError> {
        let serial = &self.inner.serial;
        if let Some(mut stream) = self.take_pooled() {
            self.refill();
            if self
                .inner
                .server
                .request(&mut stream, service)
                .await
                .is_ok()
            {
                return Ok(stream);
            }
        }
        let stream = self
            .inner
            .server
            .open(serial, service)
            .await
            .map_err(|e| to_shell_error(serial, e))?;
        self.refill();
        Ok(stream)
    }

    /// The command printed more than `cap` bytes: returning drops the stream, which ends it.
    fn too_much(&self, command_line: &str, cap: usize) -> ShellError {
        ShellError::TooMuchOutput {
            serial: self.inner.serial.clone(),
            what: command_line.chars().take(120).collect(),
            limit: cap,
        }
    }

    async fn exec_v2(&self, command_line: &str, cap: usize) -> Result<ShellOutput, ShellError> {
        let stream = self.open(&format!("shell,v2,raw:{command_line}")).await?;
        let mut reader = BufReader::new(stream);
        let mut output = ShellOutput::default();
        loop {
            let mut header = [0u8; shell_v2::HEADER_LEN];
            if let Err(e) = reader.read_exact(&mut header).await {
                return Err(self.lost(format!("stream ended before the exit code: {e}")));
            }
            let len = u32::from_le_bytes([header[1], header[2], header[3], header[4]]) as usize;
            if len > shell_v2::MAX_PACKET {
                return Err(ShellError::Protocol {
                    serial: self.inner.serial.clone(),
                    reason: format!("shell v2 packet of {len} bytes"),
                });
            }
            if output.stdout.len() + output.stderr.len() + len > cap {
                return Err(self.too_much(command_line, cap));
            }
            let mut data = vec![0u8; len];
            if let Err(e) = reader.read_exact(&mut data).await {
                return Err(self.lost(format!("stream ended inside a packet: {e}")));
            }
            match Channel::from_id(header[0]) {
                Channel::Stdout => output.stdout.extend_from_slice(&data),
                Channel::Stderr => output.stderr.extend_from_slice(&data),
                Channel::Exit => {
                    output.exit_code = data.first().copied().map_or(255, i32::from);
                    return Ok(output);
                }
                _ => {}
            }
        }
    }

    async fn exec_v1(&self, command_line: &str, cap: usize) -> Result<ShellOutput, ShellError> {
        // A subshell so `exit N` still reaches the marker; the newline ends a trailing `# comment`.
        let wrapped = format!("({command_line}\n); r=$?; echo; echo {EXIT_MARKER}$r");
        let stream = self.open(&format!("shell:{wrapped}")).await?;
        let mut out = Vec::new();
        // Room for the exit marker line past the cap.
        let room = cap.saturating_add(EXIT_MARKER.len() + 16);
        stream
            .take((room as u64).saturating_add(1))
            .read_to_end(&mut out)
            .await
            .map_err(|e| self.lost(format!("reading shell output: {e}")))?;
        if out.len() > room {
            return Err(self.too_much(command_line, cap));
        }
        split_exit_marker(&out).ok_or_else(|| self.lost("stream ended before the exit code".into()))
    }

    /// Runs `op` on the kept sync session (opening one when needed) and keeps the session for the next
    /// transfer only when it ended cleanly (a FAIL makes adbd close the stream).
    async fn with_sync<T, F>(&self, path: &str, op: F) -> Result<T, ShellError>
    where
        F: for<'a> Fn(
            &'a mut BufReader<TcpStream>,
        ) -> std::pin::Pin<
            Box<dyn std::future::Future<Output = Result<T, SyncError>> + Send + 'a>,
        >,
    {
        let mut kept = self.inner.sync.lock().await;
        if let Some(mut stream) = kept.take() {
            match op(&mut stream).await {
                Ok(value) => {
                    *kept = Some(stream);
                    return Ok(value);
                }
                // A kept session the server dropped meanwhile: fall through to a fresh one.
                Err(SyncError::Io(_)) => {}
                Err(e) => return Err(self.sync_error(path, e)),
            }
        }
        let mut stream = BufReader::new(self.open("sync:").await?);
        match op(&mut stream).await {
            Ok(value) => {
                *kept = Some(stream);
                Ok(value)
            }
            Err(e) => Err(self.sync_error(path, e)),
        }
    }

    fn sync_error(&self, path: &str, e: SyncError) -> ShellError {
        match e {
            SyncError::Failed(message) if message.contains("No such file") => {
                ShellError::NoSuchFile {
                    path: path.to_string(),
                }
            }
            SyncError::Failed(message) if message.contains("Permission denied") => {
                ShellError::PermissionDenied {
                    path: path.to_string(),
                }
            }
            SyncError::Failed(message) => ShellError::Protocol {
                serial: self.inner.serial.clone(),
                reason: format!("{path}: {message}"),
            },
            SyncError::Unexpected(reason) => ShellError::Protocol {
                serial: self.inner.serial.clone(),
                reason: format!("{path}: {reason}"),
            },
            SyncError::Io(e) => self.lost(format!("{path}: {e}")),
        }
    }
}

/// Splits v1 output into the command's bytes and the exit code printed after [`EXIT_MARKER`]. Output
/// that arrives after the marker line (stderr a device flushed late) is kept as output.
fn split_exit_marker(out: &[u8]) -> Option<ShellOutput> {
    let marker = format!("\n{EXIT_MARKER}");
    let at = out
        .windows(marker.len())
        .rposition(|w| w == marker.as_bytes())?;
    let after = &out[at + marker.len()..];
    let line_end = after
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(after.len());
    let exit_code = String::from_utf8_lossy(&after[..line_end])
        .trim()
        .parse()
        .ok()?;
    let mut stdout = out[..at].to_vec();
    stdout.extend_from_slice(after.get(line_end + 1..).unwrap_or_default());
    Some(ShellOutput {
        stdout,
        stderr: Vec::new(),
        exit_code,
    })
}

/// Maps a server-level failure onto the device layer's error, keeping "the device is gone" visible.
fn to_shell_error(serial: &str, e: AdbError) -> ShellError {
    match e {
        AdbError::NoServer { .. } => ShellError::Unreachable {
            serial: serial.to_string(),
            reason: e.to_string(),
        },
        AdbError::Failed { .. } if e.is_device_missing() => ShellError::Unreachable {
            serial: serial.to_string(),
            reason: e.to_string(),
        },
        AdbError::Io { source, .. } => ShellError::Io {
            serial: serial.to_string(),
            source,
        },
        other => ShellError::Protocol {
            serial: serial.to_string(),
            reason: other.to_string(),
        },
    }
}

/// The console port an emulator's serial names (`emulator-5554` → 5554).
pub fn console_port(serial: &str) -> Option<u16> {
    serial.strip_prefix("emulator-")?.parse().ok()
}

#[async_trait]
impl Shell for AdbShell {
    fn serial(&self) -> &str {
        &self.inner.serial
    }

    fn device_key(&self) -> String {
        format!("{}/{}", self.inner.server.addr(), self.inner.serial)
    }

    /// An emulator's console listens beside the adb server that found it (as `adb emu` assumes:
    /// the server's host, the port in the serial); other devices have none.
    async fn console(&self, line: &str) -> Result<String, ShellError> {
        let serial = &self.inner.serial;
        let Some(port) = console_port(serial) else {
            return Err(ShellError::NoConsole {
                serial: serial.clone(),
            });
        };
        let server = self.inner.server.addr();
        let host = server.rsplit_once(':').map_or("127.0.0.1", |(h, _)| h);
        let addr = format!("{host}:{port}");
        let token = super::console::token_path();
        super::console::send(&addr, token.as_deref(), line)
            .await
            .map_err(|source| ShellError::Console {
                serial: serial.clone(),
                source,
            })
    }

    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        self.exec_capped(command_line, usize::MAX).await
    }

    async fn exec_capped(
        &self,
        command_line: &str,
        max_output: usize,
    ) -> Result<ShellOutput, ShellError> {
        if self.features().await?.shell_v2 {
            self.exec_v2(command_line, max_output).await
        } else {
            self.exec_v1(command_line, max_output).await
        }
    }

    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        let owned = path.to_string();
        self.with_sync(path, move |stream| {
            let owned = owned.clone();
            Box::pin(async move { sync::recv(stream, &owned).await })
        })
        .await
    }

    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        let owned = path.to_string();
        let data = data.to_vec();
        let mtime = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as u32);
        self.with_sync(path, move |stream| {
            let (owned, data) = (owned.clone(), data.clone());
            Box::pin(async move { sync::send(stream, &owned, mode, &data, mtime).await })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_marker_restores_output_and_code() {
        let out = format!("hello\n\n{EXIT_MARKER}3\n");
        let parsed = split_exit_marker(out.as_bytes()).unwrap();
        assert_eq!(parsed.stdout, b"hello\n");
        assert_eq!(parsed.exit_code, 3);
        let no_newline = format!("x\n{EXIT_MARKER}0\n");
        assert_eq!(
            split_exit_marker(no_newline.as_bytes()).unwrap().stdout,
            b"x"
        );
        assert!(split_exit_marker(b"cut off").is_none());
        let late = format!("out\n\n{EXIT_MARKER}0\nerr\n");
        assert_eq!(
            split_exit_marker(late.as_bytes()).unwrap().stdout,
            b"out\nerr\n"
        );
    }
}

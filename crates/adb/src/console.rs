//! The emulator console over TCP, both ends. An emulator listens on 127.0.0.1:<console port> (the
//! number in its serial, `emulator-5554`) and its adbd on the port after it; `adb emu …`, `telnet`
//! and AndroidWorld's `adb emu gsm call` reach the console there, authenticating with the token in
//! `~/.emulator_console_auth_token`.
//!
//! - [`serve`] answers as the emulator's `android/console.cpp` does: the banner (with the
//!   authentication prompt when a token is set), `auth`, `help`, `quit`/`exit`, and every other line
//!   run by a shell that has a console (the embedded phone, `sim::console`).
//! - [`send`] is the client [`crate::AdbShell::console`] uses for an `emulator-N` serial.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

pub use droidmcp_device::console::ConsoleError;
use droidmcp_device::Shell;

/// The token file the emulator reads and `adb emu` sends from: `$HOME/.emulator_console_auth_token`.
pub fn token_path() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|home| Path::new(&home).join(".emulator_console_auth_token"))
}

/// The token an emulator would require, as the emulator decides it: the file's content (trimmed);
/// no file → a new random token written there, owner-only (the emulator creates it on first start);
/// an empty file → no authentication.
pub fn load_or_create_token(path: &Path) -> std::io::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => {
            // A token other users can read is no secret: an older droidmcp wrote it 0644.
            use std::os::unix::fs::PermissionsExt;
            if std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0) {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
            }
            Ok(Some(text.trim().to_string()).filter(|t| !t.is_empty()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let token = droidmcp_secret::random_token(16);
            droidmcp_secret::write_private(path, &token)?;
            Ok(Some(token))
        }
        Err(e) => Err(e),
    }
}

const READY: &str = "Android Console: type 'help' for a list of commands\r\nOK\r\n";
const UNAUTHENTICATED_HELP: &str = "Android console commands:\r\n\r\n    help|h|?         print a list of commands\r\n    auth             user authentication for the emulator console\r\n    quit|exit        quit control session\r\n\r\ntry 'help <command>' for command-specific help\r\nOK\r\n";
/// Longer lines are refused and the connection closed (a console line is a short command).
const MAX_LINE: usize = 4096;

fn banner(token: Option<&str>) -> String {
    match token {
        None => READY.to_string(),
        Some(_) => {
            let path = token_path().map_or_else(
                || "~/.emulator_console_auth_token".to_string(),
                |p| p.display().to_string(),
            );
            format!(
                "Android Console: Authentication required\r\n\
                 Android Console: type 'auth <auth_token>' to authenticate\r\n\
                 Android Console: you can find your <auth_token> in \r\n'{path}'\r\nOK\r\n"
            )
        }
    }
}

/// Serves the console of `shell` on `listener` until `shutdown` completes. `token`: what `auth`
/// must give before any command runs (`None`: no authentication, as with an empty token file).
pub async fn serve(
    listener: TcpListener,
    shell: Arc<dyn Shell>,
    token: Option<String>,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    tokio::pin!(shutdown);
    let token: Arc<Option<String>> = Arc::new(token);
    let stop = tokio_util::sync::CancellationToken::new();
    let _stop_connections = stop.clone().drop_guard();
    loop {
        tokio::select! {
            _ = &mut shutdown => return Ok(()),
            accepted = listener.accept() => {
                let Ok((socket, peer)) = accepted else { continue };
                let (shell, token, stop) = (shell.clone(), token.clone(), stop.clone());
                tokio::spawn(async move {
                    tokio::select! {
                        _ = stop.cancelled() => {}
                        r = serve_connection(socket, shell, token.as_deref()) => {
                            if let Err(e) = r {
                                tracing::debug!("console: connection from {peer} dropped: {e}");
                            }
                        }
                    }
                });
            }
        }
    }
}

async fn serve_connection(
    socket: TcpStream,
    shell: Arc<dyn Shell>,
    token: Option<&str>,
) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(banner(token).as_bytes()).await?;
    let mut authenticated = token.is_none();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut lines)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .await?;
        if n == 0 {
            return Ok(());
        }
        if n > MAX_LINE {
            write.write_all(b"KO: line too long\r\n").await?;
            return Ok(());
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let reply = match word {
            "" => continue,
            "quit" | "q" | "exit" | "x" => return Ok(()),
            "auth" => match token {
                Some(t) if rest.trim() == t => {
                    authenticated = true;
                    READY.to_string()
                }
                Some(_) => {
                    "KO: authentication token does not match ~/.emulator_console_auth_token\r\n"
                        .to_string()
                }
                None => "OK\r\n".to_string(),
            },
            "help" | "h" | "?" if !authenticated => UNAUTHENTICATED_HELP.to_string(),
            _ if !authenticated => "KO: unknown command, try 'help'\r\n".to_string(),
            _ => shell
                .console(line)
                .await
                .unwrap_or_else(|e| format!("KO: {e}\r\n")),
        };
        write.write_all(reply.as_bytes()).await?;
    }
}

const REPLY_TIMEOUT: Duration = Duration::from_secs(10);

/// `work`'s result, or [`ConsoleError::Timeout`] when the console takes longer than
/// [`REPLY_TIMEOUT`].
async fn within<T>(addr: &str, work: impl Future<Output = T>) -> Result<T, ConsoleError> {
    tokio::time::timeout(REPLY_TIMEOUT, work)
        .await
        .map_err(|_| ConsoleError::Timeout {
            addr: addr.to_string(),
            secs: REPLY_TIMEOUT.as_secs(),
        })
}

/// Reads lines up to and including the one that ends a console reply (`OK`, or `KO: …`).
async fn read_reply(
    lines: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
    addr: &str,
) -> Result<String, ConsoleError> {
    let mut reply = String::new();
    loop {
        let mut line = String::new();
        let n = within(addr, lines.read_line(&mut line))
            .await?
            .map_err(|source| ConsoleError::Io {
                addr: addr.to_string(),
                source,
            })?;
        if n == 0 {
            return Err(ConsoleError::Closed {
                addr: addr.to_string(),
            });
        }
        reply.push_str(&line);
        let bare = line.trim_end();
        if bare == "OK" || bare.starts_with("KO") {
            return Ok(reply);
        }
        if reply.len() > 1 << 20 {
            return Err(ConsoleError::Io {
                addr: addr.to_string(),
                source: std::io::Error::other("reply longer than 1 MiB"),
            });
        }
    }
}

/// Runs one console line on the emulator whose console listens on `addr`, authenticating with the
/// token in `token_file` when the console asks; returns what the console printed for the line
/// (lines ending in `OK`, or a `KO: …` line).
pub async fn send(
    addr: &str,
    token_file: Option<&Path>,
    line: &str,
) -> Result<String, ConsoleError> {
    let io = |source| ConsoleError::Io {
        addr: addr.to_string(),
        source,
    };
    let stream = within(addr, TcpStream::connect(addr))
        .await?
        .map_err(|source| ConsoleError::Connect {
            addr: addr.to_string(),
            source,
        })?;
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    let greeting = read_reply(&mut lines, addr).await?;
    if greeting.contains("Authentication required") {
        let path = token_file.map_or_else(
            || "~/.emulator_console_auth_token".into(),
            |p| p.display().to_string(),
        );
        let token = token_file
            .ok_or_else(|| "HOME is not set".to_string())
            .and_then(|p| std::fs::read_to_string(p).map_err(|e| e.to_string()))
            .map_err(|reason| ConsoleError::NoToken {
                addr: addr.to_string(),
                path: path.clone(),
                reason,
            })?;
        write
            .write_all(format!("auth {}\n", token.trim()).as_bytes())
            .await
            .map_err(io)?;
        let reply = read_reply(&mut lines, addr).await?;
        if !reply.trim_end().ends_with("OK") {
            return Err(ConsoleError::Refused {
                addr: addr.to_string(),
                path,
                reply: reply.trim().to_string(),
            });
        }
    }
    // One line only: a newline inside would run a second command unseen.
    let line = line.replace(['\r', '\n'], " ");
    write
        .write_all(format!("{}\n", line.trim()).as_bytes())
        .await
        .map_err(io)?;
    let reply = read_reply(&mut lines, addr).await?;
    let _ = write.write_all(b"quit\n").await;
    Ok(reply)
}

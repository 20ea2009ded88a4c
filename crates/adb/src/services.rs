//! The device services the embedded adbd runs on an open stream: `shell:` (v1), `shell,v2,…:`, `exec:`,
//! `sync:`, `root:` and `unroot:`, each answered from a [`Shell`].

use super::adbd::StreamIo;
use super::shell_v2;
use super::sync::{
    encode_dent, encode_dent_v2, encode_fail, encode_list_end, encode_status, FileStat, SyncFrame,
    DATA, DATA_MAX, DONE, EACCES, ENOENT, LIS2, LIST, LST2, OKAY, QUIT, RECV, SEND, STA2, STAT,
    S_IFDIR, S_IFREG,
};
use droidmcp_device::command::sh_quote;
use droidmcp_device::{Shell, ShellError};

/// What an OPEN asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Service {
    /// `shell:CMD`: one stream, stdout and stderr mixed, no exit code.
    ShellV1(String),
    /// `shell,v2,…:CMD`: shell v2 packets with the exit code.
    ShellV2(String),
    /// `exec:CMD`: raw bytes, no exit code (what `adb exec-out` uses).
    Exec(String),
    /// `sync:`: file transfer.
    Sync,
    /// `root:` (true) or `unroot:` (false): restart adbd as root or as the shell user.
    Root(bool),
    /// Anything we do not serve, answered with CLSE; the text says why.
    Refused(String),
}

impl Service {
    /// Parses an OPEN payload (the host sends it NUL-terminated).
    pub fn parse(payload: &[u8]) -> Service {
        let text = String::from_utf8_lossy(payload);
        let text = text.trim_end_matches('\0');
        if let Some(command) = text.strip_prefix("exec:") {
            return Service::Exec(command.to_string());
        }
        match text {
            "sync:" => return Service::Sync,
            "root:" => return Service::Root(true),
            "unroot:" => return Service::Root(false),
            _ => {}
        }
        if let Some(rest) = text.strip_prefix("shell") {
            let Some((args, command)) = rest.split_once(':') else {
                return Service::Refused(format!("malformed shell service {text:?}"));
            };
            if command.is_empty() {
                return Service::Refused("interactive shells are not supported".into());
            }
            let v2 = args.split(',').any(|arg| arg == "v2");
            return if v2 {
                Service::ShellV2(command.to_string())
            } else {
                Service::ShellV1(command.to_string())
            };
        }
        Service::Refused(format!("unknown service {text:?}"))
    }
}

/// What adbd does once a service's stream is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// Nothing: keep serving.
    Continue,
    /// Restart: adbd exits when a `root:`/`unroot:` stream that changed `service.adb.root` closes
    /// (`exit_on_close`), and init starts it again as the new user; every connection drops.
    Restart,
}

/// Runs `service` on `io` until it is done; the caller closes the stream, then does what the
/// answer says.
pub async fn run(service: Service, io: &mut StreamIo, shell: &dyn Shell) -> After {
    if let Service::Root(root) = service {
        let (reply, after) = switch_user(shell, root).await;
        // The property is set even if the peer went away meanwhile: adbd restarts either way.
        let _ = io.write(reply.as_bytes()).await;
        return after;
    }
    // A closed stream just ends the service: the peer went away, nobody is left to tell.
    let _ = match service {
        Service::ShellV1(command) | Service::Exec(command) => {
            let Some(result) = exec_until_closed(io, shell, &command).await else {
                return After::Continue;
            };
            let bytes = match result {
                Ok(out) => [out.stdout, out.stderr].concat(),
                Err(e) => format!("{e}\n").into_bytes(),
            };
            io.write(&bytes).await
        }
        Service::ShellV2(command) => {
            let Some(result) = exec_until_closed(io, shell, &command).await else {
                return After::Continue;
            };
            let bytes = match result {
                Ok(out) => shell_v2::encode_result(&out.stdout, &out.stderr, out.exit_code),
                Err(e) => shell_v2::encode_result(b"", format!("{e}\n").as_bytes(), 255),
            };
            io.write(&bytes).await
        }
        Service::Sync => serve_sync(io, shell).await,
        Service::Root(_) | Service::Refused(_) => Ok(()),
    };
    After::Continue
}

/// adbd's `restart_root_service`/`restart_unroot_service`: the answer by the shell's current user
/// and the build (`ro.debuggable`), setting `service.adb.root` through the shell when adbd must
/// restart. The texts are AOSP adbd's, which `adb root` prints and searches for "restarting".
async fn switch_user(shell: &dyn Shell, root: bool) -> (String, After) {
    let run = |command: &'static str| async move {
        shell
            .exec(command)
            .await
            .map(|out| (out.success(), out.stdout_text().trim().to_string()))
    };
    let answer = async {
        let is_root = run("id -u").await?.1 == "0";
        Ok::<_, ShellError>(match (root, is_root) {
            (true, true) => (
                "adbd is already running as root\n".to_string(),
                After::Continue,
            ),
            (false, false) => ("adbd not running as root\n".to_string(), After::Continue),
            (true, false) if run("getprop ro.debuggable").await?.1 != "1" => (
                "adbd cannot run as root in production builds\n".to_string(),
                After::Continue,
            ),
            (true, false) => match run("setprop service.adb.root 1").await? {
                (true, _) => ("restarting adbd as root\n".to_string(), After::Restart),
                (false, _) => (
                    "failed to set service.adb.root\n".to_string(),
                    After::Continue,
                ),
            },
            (false, true) => match run("setprop service.adb.root 0").await? {
                (true, _) => ("restarting adbd as non root\n".to_string(), After::Restart),
                (false, _) => (
                    "failed to set service.adb.root\n".to_string(),
                    After::Continue,
                ),
            },
        })
    };
    answer
        .await
        .unwrap_or_else(|e: ShellError| (format!("{e}\n"), After::Continue))
}

/// Runs a command until it finishes, or until the peer closes the stream (a client that timed out or
/// was interrupted): the command's future is then dropped, which cancels it on the shell, as adbd
/// kills the process of a closed shell stream. Commands take no stdin here, so what the peer writes
/// meanwhile is discarded.
async fn exec_until_closed(
    io: &mut StreamIo,
    shell: &dyn Shell,
    command: &str,
) -> Option<Result<droidmcp_device::ShellOutput, ShellError>> {
    let closed = async { while io.read().await.is_some() {} };
    tokio::select! {
        result = shell.exec(command) => Some(result),
        () = closed => None,
    }
}

/// Where a sync session is between requests.
enum SyncState {
    Idle,
    /// Collecting the DATA chunks of a SEND until its DONE.
    Receiving {
        path: String,
        mode: u32,
        data: Vec<u8>,
    },
}

async fn serve_sync(io: &mut StreamIo, shell: &dyn Shell) -> Result<(), super::adbd::StreamClosed> {
    let mut buf: Vec<u8> = Vec::new();
    let mut state = SyncState::Idle;
    loop {
        let frame = match SyncFrame::parse_request(&buf) {
            Ok(Some((frame, used))) => {
                buf.drain(..used);
                frame
            }
            Ok(None) => match io.read().await {
                Some(more) => {
                    buf.extend_from_slice(&more);
                    continue;
                }
                None => return Ok(()),
            },
            // A bad request loses the framing of this stream only: close it.
            Err(e) => {
                tracing::debug!("adbd sync: {e}");
                return Ok(());
            }
        };
        let reply = match (&mut state, frame.id) {
            (SyncState::Receiving { data, .. }, DATA) => {
                data.extend_from_slice(&frame.payload);
                continue;
            }
            (SyncState::Receiving { path, mode, data }, DONE) => {
                let reply = match shell.push(path, data, *mode & 0o7777).await {
                    Ok(()) => encode_status(OKAY, 0),
                    Err(e) => encode_fail(&failure("write", &e)),
                };
                state = SyncState::Idle;
                reply
            }
            (SyncState::Receiving { .. }, _) => {
                tracing::debug!("adbd sync: request in the middle of a SEND");
                return Ok(());
            }
            (SyncState::Idle, QUIT) => return Ok(()),
            (SyncState::Idle, SEND) => {
                let target = String::from_utf8_lossy(&frame.payload).into_owned();
                // `path,mode`; a path may itself contain commas, so split at the last one.
                let (path, mode) = match target.rsplit_once(',') {
                    Some((path, mode)) => (path.to_string(), mode.parse().unwrap_or(0o644)),
                    None => (target, 0o644),
                };
                state = SyncState::Receiving {
                    path,
                    mode,
                    data: Vec::new(),
                };
                continue;
            }
            (SyncState::Idle, id) => {
                let path = String::from_utf8_lossy(&frame.payload).into_owned();
                answer(id, &path, shell).await
            }
        };
        io.write(&reply).await?;
    }
}

/// The reply to one path request (STAT, STA2, LST2, LIST, LIS2, RECV).
async fn answer(id: [u8; 4], path: &str, shell: &dyn Shell) -> Vec<u8> {
    match id {
        STAT => stat(shell, path).await.encode_v1(),
        STA2 | LST2 => stat(shell, path).await.encode_v2(id),
        LIST | LIS2 => {
            let mut out = Vec::new();
            for (name, entry) in list(shell, path).await {
                out.extend(if id == LIST {
                    encode_dent(&name, &entry)
                } else {
                    encode_dent_v2(&name, &entry)
                });
            }
            out.extend(encode_list_end(id == LIS2));
            out
        }
        RECV => match shell.pull(path).await {
            Ok(content) => {
                let mut out = Vec::with_capacity(content.len() + content.len() / DATA_MAX * 8 + 16);
                for chunk in content.chunks(DATA_MAX) {
                    out.extend(SyncFrame::request(DATA, chunk));
                }
                out.extend(encode_status(DONE, 0));
                out
            }
            Err(e) => encode_fail(&failure("open", &e)),
        },
        _ => encode_fail("unsupported sync request"),
    }
}

/// adbd's wording: `open failed: No such file or directory`.
fn failure(operation: &str, e: &ShellError) -> String {
    let reason = match e {
        ShellError::NoSuchFile { .. } => "No such file or directory".to_string(),
        ShellError::PermissionDenied { .. } => "Permission denied".to_string(),
        other => other.to_string(),
    };
    format!("{operation} failed: {reason}")
}

/// `lstat` as far as a [`Shell`] can tell: a path that pulls is a regular file of that size; one that
/// does not but lists with `ls` is a directory. (The trait carries no metadata, so times are 0.)
async fn stat(shell: &dyn Shell, path: &str) -> FileStat {
    match shell.pull(path).await {
        Ok(content) => FileStat {
            error: 0,
            mode: S_IFREG | 0o644,
            size: content.len() as u64,
            mtime: 0,
        },
        Err(ShellError::PermissionDenied { .. }) => FileStat::missing(EACCES),
        Err(_) => match shell.exec(&format!("ls -a {}", sh_quote(path))).await {
            Ok(out) if out.success() => FileStat {
                error: 0,
                mode: S_IFDIR | 0o755,
                size: 4096,
                mtime: 0,
            },
            _ => FileStat::missing(ENOENT),
        },
    }
}

/// The entries of a directory with their stats, from `ls -a` (one name per line: names may hold
/// spaces).
async fn list(shell: &dyn Shell, path: &str) -> Vec<(String, FileStat)> {
    let Ok(out) = shell.exec(&format!("ls -a {}", sh_quote(path))).await else {
        return Vec::new();
    };
    if !out.success() {
        return Vec::new();
    }
    let mut entries = Vec::new();
    for name in out.stdout_text().lines() {
        if name.is_empty() || name == "." || name == ".." {
            continue;
        }
        let child = format!("{}/{}", path.trim_end_matches('/'), name);
        entries.push((name.to_string(), stat(shell, &child).await));
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_services_like_adbd() {
        let cases = [
            ("shell:echo hi\0", Service::ShellV1("echo hi".into())),
            (
                "shell,v2,TERM=xterm,raw:echo hi\0",
                Service::ShellV2("echo hi".into()),
            ),
            ("shell,v2,raw:false", Service::ShellV2("false".into())),
            (
                "exec:screencap '-p'\0",
                Service::Exec("screencap '-p'".into()),
            ),
            ("sync:\0", Service::Sync),
            ("root:\0", Service::Root(true)),
            ("unroot:\0", Service::Root(false)),
        ];
        for (text, expected) in cases {
            assert_eq!(Service::parse(text.as_bytes()), expected, "{text}");
        }
        for refused in ["shell:\0", "shell,v2,pty:", "abb:x", "root:x", ""] {
            assert!(matches!(
                Service::parse(refused.as_bytes()),
                Service::Refused(_)
            ));
        }
    }
}

//! The one seam between Android behaviour and the transport that carries it.
//!
//! A [`Shell`] runs an Android shell command line and moves files. The embedded phone
//! (`sim::Phone`) implements it in-process; the ADB client implements it over the wire.
//! **Invariant:** nothing above this trait asks which implementation it holds.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;

/// What a shell command line produced, as `adb shell` (shell v2) reports it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShellOutput {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub exit_code: i32,
}

impl ShellOutput {
    pub fn ok(stdout: impl Into<Vec<u8>>) -> Self {
        ShellOutput {
            stdout: stdout.into(),
            stderr: Vec::new(),
            exit_code: 0,
        }
    }

    pub fn fail(stderr: impl Into<Vec<u8>>, exit_code: i32) -> Self {
        ShellOutput {
            stdout: Vec::new(),
            stderr: stderr.into(),
            exit_code,
        }
    }

    pub fn success(&self) -> bool {
        self.exit_code == 0
    }

    /// stdout as text, lossily decoded (Android's tools write UTF-8).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

/// Why a shell operation could not be carried out at all (as opposed to a command that ran and failed,
/// which is an `Ok(ShellOutput)` with a non-zero exit code).
#[derive(Debug, thiserror::Error)]
pub enum ShellError {
    #[error("device {serial} is not reachable: {reason}")]
    Unreachable { serial: String, reason: String },
    #[error("device {serial} disconnected: {reason}")]
    Disconnected { serial: String, reason: String },
    #[error("{path}: no such file on device")]
    NoSuchFile { path: String },
    #[error("{path}: permission denied (state that needs root is unreachable on this device)")]
    PermissionDenied { path: String },
    #[error("protocol error talking to {serial}: {reason}")]
    Protocol { serial: String, reason: String },
    #[error("i/o error talking to {serial}: {source}")]
    Io {
        serial: String,
        #[source]
        source: std::io::Error,
    },
    /// The command did not finish in time; it was cancelled and the device is free again.
    #[error("`{what}` on {serial} did not finish within {} s and was cancelled", .after.as_secs_f32())]
    TimedOut {
        serial: String,
        what: String,
        after: Duration,
    },
    /// The device has no emulator console (a real phone): incoming calls and texts cannot be
    /// simulated on it.
    #[error("{serial} has no emulator console to simulate calls and texts on (only emulators, `emulator-N`, and the embedded phone have one)")]
    NoConsole { serial: String },
    /// The emulator has a console but the command could not be run there (unreachable port,
    /// authentication refused, no answer).
    #[error("{serial}: {source}")]
    Console {
        serial: String,
        #[source]
        source: crate::console::ConsoleError,
    },
    /// The command printed more than the output cap allows; its output was dropped.
    #[error("`{what}` on {serial} produced more than {limit} bytes of output")]
    TooMuchOutput {
        serial: String,
        what: String,
        limit: usize,
    },
}

impl ShellError {
    /// True when the device is gone and the session must end its episode as aborted.
    pub fn is_device_lost(&self) -> bool {
        matches!(
            self,
            ShellError::Unreachable { .. }
                | ShellError::Disconnected { .. }
                | ShellError::Io { .. }
        )
    }
}

/// Bounds every device command runs under (see [`Bounded`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long one command, pull or push may take before it is cancelled.
    pub timeout: Duration,
    /// How many bytes one command may print (stdout and stderr together) or one pull may return.
    pub max_output: usize,
}

impl Default for Limits {
    /// 30 s (a `uiautomator dump` of a busy screen takes a few seconds on a real phone; nothing
    /// droidmcp runs needs more) and 64 MiB (a full-resolution tablet screenshot is under 10 MiB).
    fn default() -> Limits {
        Limits {
            timeout: Duration::from_secs(30),
            max_output: 64 << 20,
        }
    }
}

/// Android's shell and file transfer on one device.
///
/// **Cancellation:** dropping a returned future cancels the operation. Implementations must stop the
/// command on the device when that happens (the ADB client closes the stream, which makes adbd end
/// the command; the embedded phone interrupts it), so a cancelled or timed-out command does not keep
/// holding the phone.
#[async_trait]
pub trait Shell: Send + Sync {
    /// The device's serial (`emulator-5554`, `127.0.0.1:5555`, `sim-<seed>`).
    fn serial(&self) -> &str;

    /// What tells this device apart from every other one this process may hold: the serial, and
    /// for a device behind an adb server also that server (`10.0.0.2:5037/emulator-5554`), since
    /// every emulator host has an `emulator-5554`. Wrappers pass their inner shell's key on.
    fn device_key(&self) -> String {
        self.serial().to_string()
    }

    /// The device environment the phone was started in or set to (`105`, `random:7`), when one
    /// was; episodes record it.
    fn environment(&self) -> Option<String> {
        None
    }

    /// Runs one command line through `/system/bin/sh -c`, returning its output and exit code.
    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError>;

    /// Reads a whole file (adb sync RECV).
    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError>;

    /// Writes a whole file with the given mode bits (adb sync SEND).
    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError>;

    /// Sends one line to the emulator console (`gsm call 5551234`, `sms send 5551234 hi`) and
    /// returns what the console printed for it: lines ending in `OK`, or a `KO: …` line.
    async fn console(&self, _line: &str) -> Result<String, ShellError> {
        Err(ShellError::NoConsole {
            serial: self.serial().to_string(),
        })
    }

    /// Runs a command whose output may not exceed `max_output` bytes. Implementations that stream
    /// output should stop reading once past it; the default checks after the fact.
    async fn exec_capped(
        &self,
        command_line: &str,
        max_output: usize,
    ) -> Result<ShellOutput, ShellError> {
        let out = self.exec(command_line).await?;
        if out.stdout.len() + out.stderr.len() > max_output {
            return Err(ShellError::TooMuchOutput {
                serial: self.serial().to_string(),
                what: shown(command_line),
                limit: max_output,
            });
        }
        Ok(out)
    }
}

/// A command line as error messages show it (long setup SQL cut short).
fn shown(command_line: &str) -> String {
    const MAX: usize = 120;
    if command_line.chars().count() <= MAX {
        command_line.to_string()
    } else {
        let cut: String = command_line.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

/// A [`Shell`] that runs every operation of another under [`Limits`]: a timeout (after which the
/// operation's future is dropped, which cancels it on the device) and an output cap. `Device::new`
/// wraps every shell in one, so sessions, episodes, checks and replays all get the bounds.
pub struct Bounded {
    inner: Arc<dyn Shell>,
    limits: Limits,
}

impl Bounded {
    pub fn new(inner: Arc<dyn Shell>, limits: Limits) -> Bounded {
        Bounded { inner, limits }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    async fn timed<T>(
        &self,
        what: impl FnOnce() -> String,
        op: impl std::future::Future<Output = Result<T, ShellError>>,
    ) -> Result<T, ShellError> {
        match tokio::time::timeout(self.limits.timeout, op).await {
            Ok(result) => result,
            Err(_) => Err(ShellError::TimedOut {
                serial: self.inner.serial().to_string(),
                what: what(),
                after: self.limits.timeout,
            }),
        }
    }
}

#[async_trait]
impl Shell for Bounded {
    fn serial(&self) -> &str {
        self.inner.serial()
    }

    fn device_key(&self) -> String {
        self.inner.device_key()
    }

    fn environment(&self) -> Option<String> {
        self.inner.environment()
    }

    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        self.exec_capped(command_line, self.limits.max_output).await
    }

    async fn exec_capped(
        &self,
        command_line: &str,
        max_output: usize,
    ) -> Result<ShellOutput, ShellError> {
        let cap = max_output.min(self.limits.max_output);
        self.timed(
            || shown(command_line),
            self.inner.exec_capped(command_line, cap),
        )
        .await
    }

    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        let data = self
            .timed(|| format!("pull {path}"), self.inner.pull(path))
            .await?;
        if data.len() > self.limits.max_output {
            return Err(ShellError::TooMuchOutput {
                serial: self.inner.serial().to_string(),
                what: format!("pull {path}"),
                limit: self.limits.max_output,
            });
        }
        Ok(data)
    }

    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        self.timed(|| format!("push {path}"), self.inner.push(path, data, mode))
            .await
    }

    async fn console(&self, line: &str) -> Result<String, ShellError> {
        self.timed(|| format!("console {line}"), self.inner.console(line))
            .await
    }
}

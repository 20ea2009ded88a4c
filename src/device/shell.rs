//! The one seam between Android behaviour and the transport that carries it.
//!
//! A [`Shell`] runs an Android shell command line and moves files. The embedded phone
//! (`sim::Phone`) implements it in-process; the ADB client implements it over the wire.
//! **Invariant:** nothing above this trait asks which implementation it holds.

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

/// Android's shell and file transfer on one device.
#[async_trait]
pub trait Shell: Send + Sync {
    /// The device's serial (`emulator-5554`, `127.0.0.1:5555`, `sim-<seed>`).
    fn serial(&self) -> &str;

    /// Runs one command line through `/system/bin/sh -c`, returning its output and exit code.
    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError>;

    /// Reads a whole file (adb sync RECV).
    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError>;

    /// Writes a whole file with the given mode bits (adb sync SEND).
    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError>;
}

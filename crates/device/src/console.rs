//! What can go wrong talking to an emulator's console (`adb::console` speaks it; a [`crate::Shell`]
//! reports it as [`crate::ShellError::Console`]), here so the shell's error type needs nothing above.

/// Why a console command could not be run.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    #[error("cannot reach the emulator console at {addr}: {source}")]
    Connect {
        addr: String,
        source: std::io::Error,
    },
    #[error("emulator console at {addr}: {source}")]
    Io {
        addr: String,
        source: std::io::Error,
    },
    #[error("emulator console at {addr} did not answer within {secs} s")]
    Timeout { addr: String, secs: u64 },
    #[error("emulator console at {addr} closed the connection before answering")]
    Closed { addr: String },
    #[error(
        "emulator console at {addr} requires authentication but {path} cannot be read ({reason})"
    )]
    NoToken {
        addr: String,
        path: String,
        reason: String,
    },
    #[error("emulator console at {addr} refused the token from {path}: {reply}")]
    Refused {
        addr: String,
        path: String,
        reply: String,
    },
}

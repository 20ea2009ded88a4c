//! The `droidmcp` binary: parses arguments, runs one subcommand, maps errors to exit codes.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = droidmcp::cli::Cli::parse_args();
    if !cli.command.serves() {
        // A listing piped into `head` ends quietly when the reader goes, as `ls | head` does
        // (Rust ignores SIGPIPE, and `println!` then panics on EPIPE). Servers keep ignoring it: a
        // client that hangs up is an error on that connection, not the end of the process.
        #[cfg(unix)]
        // SAFETY: restoring a signal's default disposition before any thread is started.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("droidmcp: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    runtime.spawn(remove_phone_folders_on_sigterm());
    let outcome = runtime.block_on(droidmcp::cli::run(cli));
    // Phones a server still holds (and reference cycles never dropped) take their folders with them.
    droidmcp::sim::datadir::remove_all();
    match outcome {
        Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("droidmcp: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// `kill` (SIGTERM) ends the process as the default action would (exit 143), after removing the
/// embedded phones' folders.
async fn remove_phone_folders_on_sigterm() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            if term.recv().await.is_some() {
                droidmcp::sim::datadir::remove_all();
                std::process::exit(143);
            }
        }
    }
}

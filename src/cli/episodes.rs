//! `droidmcp episodes export --jsonl`: recorded episodes out of the store.

use std::path::PathBuf;

use super::Global;
use crate::store::Store;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Write every stored episode (with steps and check results) as JSON lines to stdout.
    Export {
        /// JSON lines (the only format).
        #[arg(long, required = true)]
        jsonl: bool,
        /// Store file (default: $DROIDMCP_STORE or ~/.local/share/droidmcp/episodes.db).
        #[arg(long)]
        store: Option<PathBuf>,
    },
}

pub async fn run(_global: &Global, cmd: Command) -> anyhow::Result<i32> {
    match cmd {
        Command::Export { jsonl: _, store } => {
            let path = store.unwrap_or_else(Store::default_path);
            if !path.exists() {
                anyhow::bail!("no episode store at {}", path.display());
            }
            let store = Store::open(&path)?;
            let mut out = std::io::stdout().lock();
            let n = store.export_jsonl(&mut out)?;
            eprintln!("{n} episode(s) exported from {}", path.display());
            Ok(0)
        }
    }
}

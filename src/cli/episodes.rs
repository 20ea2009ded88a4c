//! `droidmcp episodes`.

use super::Global;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// List them.
    List,
}

pub async fn run(_global: &Global, _cmd: Command) -> anyhow::Result<i32> {
    anyhow::bail!("`droidmcp episodes` is not built yet")
}

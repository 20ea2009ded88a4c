//! `droidmcp serve`.

use super::Global;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub async fn run(_global: &Global, _args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("`droidmcp serve` is not built yet")
}

//! Manual control verbs: `tap`, `swipe`, `type`, `key`, `open`, `screen`, `screenshot`, `apps`.

use super::Global;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Tap a point.
    Tap { x: i32, y: i32 },
}

pub async fn run(_global: &Global, _cmd: Command) -> anyhow::Result<i32> {
    anyhow::bail!("manual control is not built yet")
}

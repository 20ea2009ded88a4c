//! `droidmcp judge`: score episodes with the LLM judge panel, calibrate it, and check a judge config.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use super::Global;
use crate::judge::client::{ChatClient, EndpointLimits, SpendCap};
use crate::judge::config::PanelConfig;
use crate::judge::prompt::Prompts;
use crate::judge::{Evidence, Judge, JudgeConfig, Mode};

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Directory of judge configs and panel.toml.
    #[arg(long, global = true, default_value = "judges")]
    judges: PathBuf,
    /// Directory of prompt templates overriding the built-in ones.
    #[arg(long, global = true, default_value = "prompts")]
    prompts: PathBuf,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Send one small, fixed piece of evidence to a judge and print its parsed verdict (checks that the
    /// endpoint, key, model and structured output work; says nothing about verdict quality).
    Ping {
        /// Judge name (file stem in the judges directory).
        name: String,
    },
}

pub async fn run(_global: &Global, args: Args) -> anyhow::Result<i32> {
    match args.command {
        Some(Command::Ping { name }) => ping(&args.judges, &args.prompts, &name).await,
        None => {
            anyhow::bail!("name an episode to judge, or a subcommand (see `droidmcp judge --help`)")
        }
    }
}

/// Loads one judge by name with the shared limits and spend cap of this run.
pub(crate) fn load_judge(
    judges: &std::path::Path,
    prompts: &std::path::Path,
    name: &str,
    limits: &EndpointLimits,
    spend: Arc<SpendCap>,
) -> anyhow::Result<Judge> {
    let path = judges.join(format!("{name}.toml"));
    let config = JudgeConfig::load(&path).with_context(|| format!("judge {name:?}"))?;
    let client = ChatClient::new(config, limits, spend)?;
    Ok(Judge::new(client, Prompts::load(prompts)?))
}

/// The panel configured in `judges/panel.toml`, with its mode, policy and spend cap.
pub(crate) fn load_panel(
    judges: &std::path::Path,
    prompts: &std::path::Path,
) -> anyhow::Result<(crate::judge::Panel, PanelConfig)> {
    let config = PanelConfig::load(&judges.join(crate::judge::config::PANEL_FILE))?;
    let limits = EndpointLimits::default();
    let spend = Arc::new(SpendCap::new(config.spend_cap_usd));
    let first = load_judge(judges, prompts, &config.first, &limits, spend.clone())?;
    let second = load_judge(judges, prompts, &config.second, &limits, spend.clone())?;
    let tie = match &config.tie_breaker {
        Some(name) => Some(load_judge(judges, prompts, name, &limits, spend.clone())?),
        None => None,
    };
    Ok((crate::judge::Panel::new(first, second, tie)?, config))
}

async fn ping(
    judges: &std::path::Path,
    prompts: &std::path::Path,
    name: &str,
) -> anyhow::Result<i32> {
    let judge = load_judge(
        judges,
        prompts,
        name,
        &EndpointLimits::default(),
        Arc::new(SpendCap::new(None)),
    )?;
    let evidence = Evidence {
        goal: "Turn on airplane mode".into(),
        kind: "operation".into(),
        final_elements:
            "[1] switch \"Airplane mode\" checked (540,620)\n[2] text \"Network & internet\"".into(),
        final_foreground: "com.android.settings/.Settings$NetworkDashboardActivity".into(),
        ..Evidence::default()
    };
    let outcome = judge.judge(&evidence, Mode::FinalState).await;
    println!(
        "judge: {} ({}, {})",
        outcome.judge,
        outcome.family,
        judge.config().model
    );
    println!("verdict: {}", outcome.verdict.kind.as_str());
    println!("confidence: {}", outcome.verdict.confidence);
    println!("reason: {}", outcome.verdict.reason);
    println!(
        "usage: {} prompt + {} completion tokens, {} calls, {} ms, ${:.6}",
        outcome.prompt_tokens,
        outcome.completion_tokens,
        outcome.calls,
        outcome.latency.as_millis(),
        outcome.cost_usd
    );
    for (i, raw) in outcome.raw_replies.iter().enumerate() {
        println!("reply {}: {}", i + 1, raw.replace('\n', " "));
    }
    match outcome.error {
        Some(e) => {
            eprintln!("droidmcp: judge {name} gave no verdict: {e}");
            Ok(1)
        }
        None => Ok(0),
    }
}

//! `droidmcp run`: an agent through the benchmark (see `crate::run`).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::Args as ClapArgs;

use super::Global;
use crate::agent::{ReferenceAgent, Style};
use crate::fleet::provider::ProviderConfig;
use crate::llm::{ChatClient, Effort, Endpoint, EndpointLimits, ResponseFormat, SpendCap};
use crate::run::plan::{Selection, Source};
use crate::run::{AgentSpec, FleetSpec, RunSpec, Shard};
use crate::store::Store;
use crate::task::Catalog;

/// Runs an agent over tasks on one or more phones; re-running a name resumes it.
///
/// The agent is either a reference agent over an OpenAI-compatible endpoint (`--agent t3a|m3a|bmoca`
/// with `--model` and `--base-url`; the key from `--api-key-env`), or your own command
/// (`--agent-cmd`), spawned once per episode with DROIDMCP_MCP_URL (the episode phone's
/// agent-surface MCP endpoint), DROIDMCP_GOAL, DROIDMCP_MAX_STEPS and DROIDMCP_EPISODE in its
/// environment (and `{url}`, `{goal}`, `{max_steps}`, `{episode}` replaced in the command).
#[derive(Debug, ClapArgs)]
#[command(
    after_help = "Examples:\n  droidmcp run smoke --tasks 'aw.system.*' --agent-cmd 'python3 examples/mcp_agent.py'\n  droidmcp run gpt-t3a --source androidworld --seeds 3 --agent t3a --model gpt-4o-mini --base-url https://api.openai.com/v1 --api-key-env OPENAI_API_KEY --phones 4\n  droidmcp run gpt-t3a        # resume it\n  droidmcp report --run gpt-t3a"
)]
pub struct Args {
    /// The run's name: re-running a name plays only what it has not finished.
    pub name: String,
    /// Task ids or globs (`aw.sms.*`); default every task.
    #[arg(long = "tasks", num_args = 1.., value_delimiter = ',')]
    pub tasks: Vec<String>,
    /// Only tasks carrying this tag (repeatable: all of them).
    #[arg(long = "tag")]
    pub tags: Vec<String>,
    /// Only tasks from these sources: b-moca, androidworld, androidarena, own.
    #[arg(long = "source", value_delimiter = ',')]
    pub sources: Vec<String>,
    /// Instances per task, each with a seed derived from --run-seed.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub seeds: u32,
    /// The seed instance seeds are derived from.
    #[arg(long, default_value_t = 0)]
    pub run_seed: u64,
    /// A step limit for every task (default: each task's own, AndroidWorld's 10 × complexity).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=500))]
    pub max_steps: Option<u32>,
    /// Reference agent: t3a (AndroidWorld's text agent), m3a (AndroidWorld's multimodal agent: the
    /// screenshot and its marked copy beside the elements) or bmoca (B-MoCA's text agent).
    #[arg(long, conflicts_with = "agent_cmd", value_parser = ["t3a", "m3a", "bmoca"])]
    pub agent: Option<String>,
    /// Model name for the reference agent.
    #[arg(long, requires = "agent")]
    pub model: Option<String>,
    /// OpenAI-compatible base URL up to /v1 for the reference agent.
    #[arg(long, requires = "agent")]
    pub base_url: Option<String>,
    /// Environment variable holding the endpoint's API key.
    #[arg(long, requires = "agent")]
    pub api_key_env: Option<String>,
    /// How the endpoint is asked for T3A's JSON replies: json_object (default), json_schema,
    /// json_object_schema, none. M3A's and B-MoCA's replies are text, asked for without one.
    #[arg(long, default_value = "json_object")]
    pub response_format: String,
    /// Treat the model as a reasoning model (max_completion_tokens, no temperature) whatever its
    /// name; OpenAI's o-series and gpt-5 models are recognised by name.
    #[arg(long, requires = "agent")]
    pub reasoning: bool,
    /// A reasoning model's effort: none, minimal, low, medium, high, xhigh (implies --reasoning).
    #[arg(long, requires = "agent")]
    pub reasoning_effort: Option<String>,
    /// USD per million input and output tokens, for the cost figures.
    #[arg(long, num_args = 2, value_names = ["IN", "OUT"])]
    pub price: Option<Vec<f64>>,
    /// Stop calling the model once this much (USD) is spent.
    #[arg(long)]
    pub spend_cap: Option<f64>,
    /// Longest one model request may take, in seconds (a local model on a busy CPU needs minutes).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub request_timeout: u64,
    /// Your own agent: a command run once per episode (see above).
    #[arg(long)]
    pub agent_cmd: Option<String>,
    /// Embedded phones playing at once (default 1 unless --device names adb devices).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=1024))]
    pub phones: Option<u32>,
    /// An adb serial that plays too (repeatable): on the home adb server, or with --adb-server,
    /// only these serials of those servers.
    #[arg(long = "adb-device")]
    pub devices: Vec<String>,
    /// A HOST:PORT endpoint to `adb connect` through the home adb server and play on (repeatable):
    /// a phone in `adb tcpip` mode, an emulator container, `droidmcp sim --adb`.
    #[arg(long = "connect", value_name = "HOST:PORT")]
    pub connect: Vec<String>,
    /// A farm's lease and release commands (a TOML file; see docs/fleet.md), repeatable.
    #[arg(long = "provider", value_name = "FILE")]
    pub providers: Vec<PathBuf>,
    /// How long a device lease lasts unrenewed, in seconds; heartbeats renew it every third of that.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub lease_ttl: u64,
    /// Errored attempts after which a device is set aside for the rest of the run.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub device_failures: u32,
    /// Play only shard I of N of the instances (another process, with its own store, plays the
    /// others; `droidmcp report --run NAME --store A --store B` reads them together).
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<Shard>,
    /// Attempts after an errored one (infrastructure trouble), per instance.
    #[arg(long, default_value_t = 2)]
    pub retries: u32,
    /// Longest an agent may take for one episode, in seconds.
    #[arg(long, default_value_t = 600)]
    pub episode_timeout: u64,
    /// The store the run lives in (default: the episode store).
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// Draw N random device environments from the run seed (in addition to --env).
    #[arg(long)]
    pub random_envs: Option<u32>,
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).map_err(|e| e.to_string())
}

/// Where the run's devices beyond the embedded phones come from.
fn fleet(global: &Global, args: &Args) -> anyhow::Result<FleetSpec> {
    let providers = args
        .providers
        .iter()
        .map(|p| ProviderConfig::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FleetSpec {
        adb_servers: global.adb_servers.clone(),
        connect: args.connect.clone(),
        providers,
        lease_ttl_s: args.lease_ttl,
        max_device_failures: args.device_failures,
        shard: args.shard,
    })
}

fn selection_given(a: &Args) -> bool {
    !a.tasks.is_empty()
        || !a.tags.is_empty()
        || !a.sources.is_empty()
        || a.agent.is_some()
        || a.agent_cmd.is_some()
}

/// The environments a run plays in: `--env` (one, a split, a list) and `--random-envs N`.
fn envs(global: &Global, args: &Args) -> anyhow::Result<Vec<Option<String>>> {
    let mut envs: Vec<Option<String>> = match &global.env {
        Some(spec) => crate::env::Environment::resolve_many(spec)?
            .into_iter()
            .map(|e| Some(e.name))
            .collect(),
        None => Vec::new(),
    };
    if let Some(n) = args.random_envs {
        envs.extend((0..n).map(|i| {
            Some(format!(
                "random:{}",
                crate::run::plan::instance_seed(args.run_seed, "env", i)
            ))
        }));
    }
    if envs.is_empty() {
        envs.push(None);
    }
    Ok(envs)
}

fn spec(global: &Global, args: &Args, phones: u32, fleet: FleetSpec) -> anyhow::Result<RunSpec> {
    let sources = args
        .sources
        .iter()
        .map(|s| {
            Source::parse(s).with_context(|| {
                format!(
                    "unknown --source {s:?}; use {}",
                    Source::ALL.map(Source::name).join(", ")
                )
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let agent = match (&args.agent, &args.agent_cmd) {
        (Some(style), None) => AgentSpec::Reference {
            style: Style::parse(style)
                .with_context(|| format!("unknown --agent {style:?}; use t3a, m3a or bmoca"))?,
            model: args.model.clone().context("--agent needs --model")?,
            base_url: args.base_url.clone().context("--agent needs --base-url")?,
            api_key_env: args.api_key_env.clone(),
        },
        (None, Some(cmd)) if !cmd.trim().is_empty() => AgentSpec::Command(cmd.clone()),
        _ => anyhow::bail!(
            "say which agent plays: --agent t3a|m3a|bmoca (with --model and --base-url) or --agent-cmd CMD"
        ),
    };
    Ok(RunSpec {
        name: args.name.clone(),
        selection: Selection {
            patterns: args.tasks.clone(),
            tags: args.tags.clone(),
            sources,
        },
        seeds: args.seeds,
        run_seed: args.run_seed,
        envs: envs(global, args)?,
        max_steps: args.max_steps,
        agent,
        phones,
        devices: args.devices.clone(),
        retries: args.retries,
        episode_timeout_s: args.episode_timeout,
        fleet,
    })
}

fn reference_agent(args: &Args, spec: &RunSpec) -> anyhow::Result<Option<Arc<ReferenceAgent>>> {
    let AgentSpec::Reference {
        style,
        model,
        base_url,
        api_key_env,
    } = &spec.agent
    else {
        return Ok(None);
    };
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        anyhow::bail!("--base-url {base_url:?} must start with http:// or https://");
    }
    let mut endpoint = Endpoint::new(format!("agent {}", style.name()), base_url, model.clone());
    endpoint.api_key_env = api_key_env.clone();
    endpoint.response_format = ResponseFormat::parse(&args.response_format).with_context(|| {
        format!(
            "--response-format {:?} is not one of {}",
            args.response_format,
            ResponseFormat::NAMES
        )
    })?;
    let effort = args
        .reasoning_effort
        .as_deref()
        .map(|e| {
            Effort::parse(e).with_context(|| {
                format!("--reasoning-effort {e:?} is not one of {}", Effort::NAMES)
            })
        })
        .transpose()?;
    if let Some(p) = &args.price {
        endpoint.usd_per_million_input = p[0];
        endpoint.usd_per_million_output = p[1];
    }
    // Every device may ask at once; an adb server's devices are not counted until leased.
    let fleet = &spec.fleet;
    endpoint.max_concurrency = (spec.phones as usize
        + spec.devices.len()
        + fleet.connect.len()
        + fleet
            .providers
            .iter()
            .map(|p| p.devices as usize)
            .sum::<usize>()
        + 16 * fleet.adb_servers.len())
    .max(1);
    endpoint.timeout = std::time::Duration::from_secs(args.request_timeout);
    let mut client = ChatClient::new(
        endpoint,
        &EndpointLimits::default(),
        Arc::new(SpendCap::new(args.spend_cap)),
    )?;
    if args.reasoning || effort.is_some() {
        client = client.with_reasoning(effort);
    }
    Ok(Some(Arc::new(ReferenceAgent::new(
        *style,
        Arc::new(client),
    ))))
}

pub async fn run(global: &Global, args: Args) -> anyhow::Result<i32> {
    let store_path = args.store.clone().unwrap_or_else(Store::default_path);
    let store = Store::open(&store_path)
        .with_context(|| format!("opening the store {}", store_path.display()))?;
    if let Ok(ids) = store.abort_orphans() {
        if !ids.is_empty() {
            eprintln!(
                "droidmcp: {} episode(s) a killed run left open are now aborted; their instances play again",
                ids.len()
            );
        }
    }
    let fleet = fleet(global, &args)?;
    let remote = !args.devices.is_empty()
        || !fleet.adb_servers.is_empty()
        || !fleet.connect.is_empty()
        || !fleet.providers.is_empty();
    let phones = args.phones.unwrap_or(if remote { 0 } else { 1 });
    let spec = match (store.run_spec(&args.name)?, selection_given(&args)) {
        (Some(stored), false) => RunSpec {
            fleet,
            ..RunSpec::from_record(&args.name, &stored, phones, args.devices.clone())?
        },
        _ => spec(global, &args, phones, fleet)?,
    };
    let (catalog, errors) = Catalog::load_dir(&crate::task::catalog::default_dir());
    for e in &errors {
        eprintln!("droidmcp: {e}");
    }
    let agent = reference_agent(&args, &spec)?;
    let tty = std::io::stderr().is_terminal();
    let name = spec.name.clone();
    let summary = crate::run::execute(
        spec,
        Arc::new(catalog),
        store.clone(),
        global.adb_server().map(str::to_string),
        agent,
        move |p| {
            if tty {
                eprint!("\r\x1b[2K[run {name}] {}", p.line());
            } else {
                eprintln!("[run {name}] {}", p.line());
            }
        },
    )
    .await?;
    if tty {
        eprintln!();
    }
    println!(
        "run {}: {} instances, {} played now ({} skipped as finished), success {}, errored {}; `droidmcp report --run {}` for the tables",
        args.name,
        summary.progress.total,
        summary.attempts,
        summary.skipped,
        summary.progress.success,
        summary.progress.errored,
        args.name
    );
    // "0 steps" alone does not say that the model answered nothing usable: say what it answered.
    let finals = crate::run::report::finals(&store.run_results(&args.name)?);
    let no_step: Vec<_> = finals
        .iter()
        .filter_map(|r| Some((r, crate::run::no_step::why_no_step(r)?)))
        .collect();
    for (row, why) in no_step.iter().take(10) {
        println!("  {} took no step: {why}", row.instance);
    }
    if no_step.len() > 10 {
        println!(
            "  … and {} more (`droidmcp report --run {}`)",
            no_step.len() - 10,
            args.name
        );
    }
    Ok(if summary.progress.done == summary.progress.total {
        0
    } else {
        1
    })
}

//! The command line: one binary, `droidmcp`, with subcommands. Each subcommand lives in its own file
//! and only parses arguments and calls the library; none holds logic of its own.

use clap::{Args, Parser, Subcommand};

mod detach;
mod devices;
mod episodes;
mod hierarchy;
mod judge;
mod manual;
mod remote;
mod run;
mod serve;
mod shell;
mod sim;
mod tasks;

/// Puts an Android phone in the hands of any LLM: MCP server, HTTP API, tasks and judges.
#[derive(Debug, Parser)]
#[command(name = "droidmcp", version, about)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand understands.
#[derive(Debug, Clone, Args)]
pub struct Global {
    /// Device to use: `sim` (the embedded phone, default), `sim:SEED`, or an adb serial.
    #[arg(long, global = true, env = "DROIDMCP_DEVICE")]
    pub device: Option<String>,
    /// adb server address (host:port); default from ADB_SERVER_SOCKET, else 127.0.0.1:5037. `run`
    /// takes it repeatedly: every ready device of every server named plays (the first is also the
    /// server `--connect` and `--provider` endpoints are connected through); other commands use
    /// the first.
    #[arg(long = "adb-server", global = true, value_name = "HOST:PORT")]
    pub adb_servers: Vec<String>,
    /// Device environment the embedded phone starts in: a B-MoCA id (000-034 train, 100-109 test),
    /// `random:SEED`, or `default`; `tasks replay` also sweeps `train`, `test`, `all` or a list
    /// (`000,105`).
    #[arg(long, global = true, env = "DROIDMCP_ENV", value_parser = parse_env)]
    pub env: Option<String>,
    /// A running `droidmcp serve --http` (its URL) whose phone the manual verbs (`tap`, `open`,
    /// `screen`, …) act on; by default the one running on this machine, if any.
    #[arg(long, global = true, env = "DROIDMCP_SERVER", value_name = "URL")]
    pub server: Option<String>,
}

/// Checks an `--env` value names environments (one or a sweep).
fn parse_env(s: &str) -> Result<String, String> {
    crate::env::Environment::resolve_many(s)
        .map(|_| s.trim().to_string())
        .map_err(|e| e.to_string())
}

impl Global {
    /// The adb server devices are opened through (the first `--adb-server`).
    pub fn adb_server(&self) -> Option<&str> {
        self.adb_servers.first().map(String::as_str)
    }

    /// The device new sessions get: `--device` (default `sim`) with `--env` attached.
    pub fn device_spec(&self) -> Option<String> {
        match &self.env {
            Some(env) => Some(crate::env::with_env(
                self.device.as_deref().unwrap_or("sim"),
                env,
            )),
            None => self.device.clone(),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the MCP server (stdio or streamable HTTP) and the HTTP API.
    Serve(serve::Args),
    /// Run one shell command line on the device, like `adb shell`.
    Shell(shell::Args),
    /// Run the embedded phone on its own, optionally as an adbd reachable with `adb connect`.
    Sim(sim::Args),
    /// Print the compressed element list of a uiautomator dump.
    Hierarchy(hierarchy::Args),
    /// List connected devices.
    Devices(devices::Args),
    /// List, show and replay tasks.
    #[command(subcommand)]
    Tasks(tasks::Command),
    /// Export recorded episodes.
    #[command(subcommand)]
    Episodes(episodes::Command),
    /// Score episodes with LLM judges, calibrate the judge panel, check a judge's endpoint.
    Judge(judge::Args),
    /// List episodes whose judges disagree (with each other or with the rule checks).
    Review(judge::ReviewArgs),
    /// Run an agent (a reference agent over a model, or your command) through tasks on phones.
    Run(run::Args),
    /// Trajectory metrics (TR, TCR, RRR) and success rates by rule and by judges over stored
    /// episodes; with `--run NAME`, a run's tables.
    Report(judge::ReportArgs),
    #[command(flatten)]
    Manual(manual::Command),
}

impl Command {
    /// Whether the command serves clients (MCP, HTTP, adb, agent processes) rather than printing a
    /// result: those outlive a reader that hangs up.
    pub fn serves(&self) -> bool {
        matches!(self, Command::Serve(_) | Command::Sim(_) | Command::Run(_))
    }
}

/// Runs the parsed command line; the returned number is the process exit code.
pub async fn run(cli: Cli) -> anyhow::Result<i32> {
    let global = cli.global;
    match cli.command {
        Command::Serve(args) => serve::run(&global, args).await,
        Command::Shell(args) => shell::run(&global, args).await,
        Command::Sim(args) => sim::run(&global, args).await,
        Command::Hierarchy(args) => hierarchy::run(&global, args).await,
        Command::Devices(args) => devices::run(&global, args).await,
        Command::Tasks(cmd) => tasks::run(&global, cmd).await,
        Command::Episodes(cmd) => episodes::run(&global, cmd).await,
        Command::Judge(args) => judge::run(&global, args).await,
        Command::Review(args) => judge::review(args).await,
        Command::Run(args) => run::run(&global, args).await,
        Command::Report(args) => judge::report(args).await,
        Command::Manual(cmd) => manual::run(&global, cmd).await,
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every subcommand, flag and argument carries help text (`--help` is the reference).
    #[test]
    fn every_flag_and_argument_says_what_it_does() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let id = arg.get_id().as_str();
                if id == "help" || id == "version" || arg.is_hide_set() {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
            for sub in cmd.get_subcommands() {
                let name = format!("{path} {}", sub.get_name());
                if sub.get_about().is_none() && sub.get_name() != "help" {
                    missing.push(format!("{name} (the subcommand)"));
                }
                walk(sub, &name, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&super::Cli::command(), "droidmcp", &mut missing);
        assert!(missing.is_empty(), "no help text: {missing:#?}");
    }
}

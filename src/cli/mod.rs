//! The command line: one binary, `droidmcp`, with subcommands. Each subcommand lives in its own file
//! and only parses arguments and calls the library; none holds logic of its own.

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

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

/// Options every subcommand accepts; each subcommand's help shows those it uses
/// ([`GLOBALS_USED`]).
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

/// The global options each subcommand uses (by the subcommand's name; a nested one, `tasks
/// replay`, by its own). The others are hidden from its help: still accepted (a script may set
/// `DROIDMCP_DEVICE` for every command), but a reader of `judge --help` is not told of phones
/// the judges never open. Subcommands not listed (the manual verbs) use all of them.
const GLOBALS_USED: &[(&str, &[&str])] = &[
    ("serve", &["device", "adb_servers", "env"]),
    ("shell", &["device", "adb_servers", "env"]),
    ("sim", &["adb_servers", "env"]),
    ("hierarchy", &[]),
    ("devices", &["adb_servers"]),
    ("tasks", &[]),
    ("replay", &["device", "adb_servers", "env"]),
    ("episodes", &[]),
    ("judge", &[]),
    ("review", &[]),
    ("run", &["adb_servers", "env"]),
    ("report", &[]),
];

/// The global options (their ids) every subcommand accepts.
const GLOBAL_IDS: [&str; 4] = ["device", "adb_servers", "env", "server"];

impl Cli {
    /// The command line's definition, with each subcommand's help narrowed to the global options
    /// it uses (clap shows every global option under every subcommand).
    pub fn definition() -> clap::Command {
        fn narrow(cmd: clap::Command, used: Option<&[&str]>) -> clap::Command {
            let names: Vec<String> = cmd
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect();
            let mut cmd = match used {
                // Only those the command has (clap gives none to its generated `help`).
                Some(used) => GLOBAL_IDS
                    .into_iter()
                    .filter(|id| !used.contains(id))
                    .filter(|id| cmd.get_arguments().any(|a| a.get_id() == *id))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .fold(cmd, |cmd, id| cmd.mut_arg(id, |a| a.hide(true))),
                None => cmd,
            };
            for name in names {
                let own = GLOBALS_USED
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, ids)| *ids);
                cmd = cmd.mut_subcommand(&name, |sub| narrow(sub, own.or(used)));
            }
            cmd
        }
        let mut root = Cli::command();
        // Building propagates the global options into every subcommand, where they can be hidden.
        root.build();
        narrow(root, None)
    }

    /// Parses the process's arguments (exits with clap's message on an error, or after printing
    /// help). Parsing is clap's own over [`Cli::command`]; only help is rendered from
    /// [`Cli::definition`]: options hidden after clap's build propagated them stopped parsing
    /// right (`devices --adb-server A` printed help, `run --help` asked for `--server`'s value).
    pub fn parse_args() -> Cli {
        let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
        match Cli::command().try_get_matches_from(&args) {
            Ok(matches) => Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit()),
            Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
                let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
                let long = words.contains(&"--help");
                print!("{}", Cli::help_for(&words, long));
                std::process::exit(0)
            }
            Err(e) => e.exit(),
        }
    }

    /// The help of the (sub)command the words name, narrowed as [`Cli::definition`] narrows it.
    fn help_for(words: &[&str], long: bool) -> String {
        // The words that name subcommands: not options, not the value of a global option that
        // takes one (`--device sim` names no `sim` subcommand), and not `help` itself.
        let mut path = Vec::new();
        let mut skip_value = false;
        for w in words {
            if skip_value {
                skip_value = false;
                continue;
            }
            if matches!(*w, "--device" | "--adb-server" | "--env" | "--server") {
                skip_value = true;
                continue;
            }
            if w.starts_with('-') || (path.is_empty() && *w == "help") {
                continue;
            }
            path.push(*w);
        }
        let mut cmd = Cli::definition();
        let mut sub = &mut cmd;
        for name in path {
            if sub.find_subcommand(name).is_none() {
                break;
            }
            sub = sub.find_subcommand_mut(name).expect("found above");
        }
        if long {
            sub.render_long_help().to_string()
        } else {
            sub.render_help().to_string()
        }
    }
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

    fn help(path: &[&str]) -> String {
        let mut cmd = super::Cli::definition();
        let mut sub = &mut cmd;
        for name in path {
            sub = sub.find_subcommand_mut(name).unwrap();
        }
        sub.render_long_help().to_string()
    }

    /// A subcommand's help lists its own options and the global ones it uses, not the others.
    #[test]
    fn subcommand_help_shows_only_the_global_options_it_uses() {
        let judge = help(&["judge"]);
        for absent in [
            "--device",
            "--server",
            "--adb-server",
            "--env",
            "manual verbs",
        ] {
            assert!(
                !judge.contains(absent),
                "judge --help shows {absent}:\n{judge}"
            );
        }
        assert!(judge.contains("--judges"), "{judge}");
        let devices = help(&["devices"]);
        assert!(
            devices.contains("--adb-server") && !devices.contains("--server <URL>"),
            "{devices}"
        );
        let replay = help(&["tasks", "replay"]);
        assert!(
            replay.contains("--device") && replay.contains("--env"),
            "{replay}"
        );
        assert!(!replay.contains("--server"), "{replay}");
        let tap = help(&["tap"]);
        assert!(
            tap.contains("--server") && tap.contains("--device"),
            "{tap}"
        );
        let root = super::Cli::definition().render_long_help().to_string();
        assert!(
            root.contains("--server") && root.contains("--device"),
            "{root}"
        );
        // Hidden, not gone: a global option set for every command is still accepted.
        let parsed = super::Cli::definition()
            .try_get_matches_from(["droidmcp", "judge", "--device", "sim", "--help"]);
        assert_eq!(
            parsed.unwrap_err().kind(),
            clap::error::ErrorKind::DisplayHelp
        );
    }
}

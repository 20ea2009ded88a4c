//! `droidmcp serve`: the MCP server over stdio (default) or streamable HTTP at `/mcp`.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use tokio_util::sync::CancellationToken;

use super::Global;
use crate::mcp::http::{self, Guard};
use crate::mcp::{self, ServerState, Surface};
use crate::session::{DevicePool, Hub};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Serve one MCP client over stdin/stdout (the default; for Claude Desktop, Cursor, …).
    #[arg(long, conflicts_with = "http")]
    pub stdio: bool,
    /// Serve streamable HTTP on this address (path /mcp), e.g. 127.0.0.1:8765 or localhost:8765.
    #[arg(long, value_name = "ADDR", value_parser = parse_bind)]
    pub http: Option<SocketAddr>,
    /// The agent's bearer token: required on /mcp and the phone routes (required for non-loopback
    /// binds). It never opens the harness API.
    #[arg(long, env = "DROIDMCP_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// The harness's bearer token: the only key to the harness API (tasks with their goldens,
    /// episodes' checks, exports and watch, replays, runs, review, demonstrations, the page). Default:
    /// the token kept in --harness-token-file, created there (mode 0600) when missing.
    #[arg(long, env = "DROIDMCP_HARNESS_TOKEN", hide_env_values = true)]
    pub harness_token: Option<String>,
    /// Where the harness token is kept when --harness-token is not given [default: harness-token
    /// beside the episode store].
    #[arg(long, value_name = "PATH")]
    pub harness_token_file: Option<std::path::PathBuf>,
    /// Extra host name accepted in Host/Origin headers (repeatable), e.g. a LAN name.
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// Extra origin accepted for pages and browser clients (repeatable), as the browser sends it:
    /// `https://phone.example.com` when a reverse proxy serves this server under another name or
    /// port (add its name with --allow-host too).
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,
    /// Give MCP clients the harness's task tools (start with seed/params/device, check with evidence,
    /// end, export) instead of the agent's. Never point an agent at a harness-mode server: it would see
    /// the answer key.
    #[arg(long)]
    pub harness: bool,
    /// With --http: keep serving in the background and return once it listens (prints the
    /// addresses and the pid to stop it with). The manual verbs then act on its phone.
    #[arg(long, requires = "http")]
    pub detach: bool,
}

/// The line `serve --http` prints once it listens (what `--detach` waits for).
const READY: &str = "droidmcp: listening; Ctrl-C stops it.";

/// `HOST:PORT` with a name or an address; a name that resolves to several addresses (`localhost`:
/// 127.0.0.1 and ::1) binds its first IPv4 one, as browsers and curl try it first.
fn parse_bind(text: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    let addrs: Vec<SocketAddr> = text
        .to_socket_addrs()
        .map_err(|e| format!("{text:?} is not HOST:PORT ({e})"))?
        .collect();
    addrs
        .iter()
        .find(|a| a.is_ipv4())
        .or(addrs.first())
        .copied()
        .ok_or_else(|| format!("{text:?} resolves to no address"))
}

/// The shared state every front end of this process uses (MCP clients get the agent's task tools).
/// A served embedded phone keeps real time: people and agents wait on it in real seconds.
pub fn state(global: &Global) -> Arc<ServerState> {
    state_for(global, Surface::Agent)
}

fn state_for(global: &Global, surface: Surface) -> Arc<ServerState> {
    let pool = Arc::new(
        DevicePool::new(
            global.device_spec(),
            global.adb_server().map(str::to_string),
        )
        .with_sim_clock(crate::sim::ClockMode::Real)
        .serving_clients(),
    );
    pool.close_unused_phones_in_background();
    ServerState::with_surface(Hub::new(pool), surface)
}

pub async fn run(global: &Global, args: Args) -> anyhow::Result<i32> {
    if args.detach {
        return super::detach::detach(READY);
    }
    // stdout carries the protocol under stdio, so logs go to stderr.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("DROIDMCP_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .try_init();
    let surface = if args.harness {
        Surface::Harness
    } else {
        Surface::Agent
    };
    let state = state_for(global, surface);
    let episodes = enable_tasks(&state);
    match args.http {
        None => {
            mcp::serve_stdio(state).await?;
            Ok(0)
        }
        Some(bind) => {
            let listener = tokio::net::TcpListener::bind(bind)
                .await
                .with_context(|| format!("cannot listen on {bind}"))?;
            let local = listener.local_addr()?;
            let (harness_token, kept_in) = match args.harness_token {
                Some(t) => (t, None),
                None => {
                    let path = args.harness_token_file.unwrap_or_else(|| {
                        crate::store::Store::default_path().with_file_name("harness-token")
                    });
                    match crate::secret::load_or_create(&path, 32) {
                        Ok(token) => (token, Some(path)),
                        Err(e) => {
                            // Still a harness door, with a token only this start-up message shows.
                            let token = crate::secret::random_token(32);
                            eprintln!(
                                "droidmcp: cannot keep the harness token in {} ({e}); this run's harness token is {token}",
                                path.display()
                            );
                            (token, None)
                        }
                    }
                }
            };
            let token = args.token.clone();
            let guard = Guard::for_bind(local, args.token, &args.allow_hosts)?
                .with_origins(&args.allow_origins)?
                .with_harness(harness_token.clone())?
                .with_surface(surface);
            let shutdown = CancellationToken::new();
            let datasets = crate::store::Store::default_path()
                .parent()
                .map(|d| d.join("datasets"))
                .unwrap_or_else(|| "datasets".into());
            let extra = crate::web::routes(state.clone(), episodes, datasets);
            let app = http::router(state, guard, Some(extra), shutdown.clone());
            eprintln!("droidmcp: MCP over streamable HTTP at http://{local}/mcp");
            eprintln!("droidmcp: phone REST API under /v1 (devices, screen, actions, apps, events), /openapi.json");
            match &kept_in {
                Some(path) => eprintln!(
                    "droidmcp: harness API (tasks, episodes, runs, review, replays) and the page need the harness \
                     token in {} (mode 0600); never give it to an agent",
                    path.display()
                ),
                None => eprintln!(
                    "droidmcp: harness API (tasks, episodes, runs, review, replays) and the page need the harness \
                     token (--harness-token); never give it to an agent"
                ),
            }
            let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
            eprintln!(
                "droidmcp: live page at {}",
                page_link(local, &harness_token, kept_in.as_deref(), terminal)
            );
            // The manual verbs (`droidmcp tap`, `open`, …) act on this server's phone while it runs,
            // through the phone routes: the agent's door, with the agent's token.
            let _announced = super::remote::Announcement::write(local, token.as_deref());
            eprintln!("{READY}");
            let stop = shutdown.clone();
            tokio::spawn(async move {
                let _ = tokio::signal::ctrl_c().await;
                stop.cancel();
            });
            http::serve(listener, app, shutdown).await?;
            Ok(0)
        }
    }
}

/// Loads the task catalog (load errors go to stderr; good tasks still serve) and the episode store,
/// and makes them available to the MCP task tools and the HTTP task routes.
pub fn enable_tasks(state: &Arc<ServerState>) -> Arc<crate::episode::Episodes> {
    let (catalog, errors) = crate::task::Catalog::load_dir(&crate::task::catalog::default_dir());
    for e in &errors {
        eprintln!("droidmcp: {e}");
    }
    let store = match crate::store::Store::open(&crate::store::Store::default_path()) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("droidmcp: episodes will not be stored: {e}");
            None
        }
    };
    if let Some(store) = &store {
        match store.abort_orphans() {
            Ok(ids) if !ids.is_empty() => eprintln!(
                "droidmcp: {} episode(s) left open by a process that ended are now aborted (steps kept): {}",
                ids.len(),
                ids.join(", ")
            ),
            Ok(_) => {}
            Err(e) => eprintln!("droidmcp: cannot mark orphaned episodes aborted: {e}"),
        }
    }
    let devices = Arc::new(crate::episode::PoolDevices(state.hub.pool().clone()));
    let episodes = Arc::new(crate::episode::Episodes::new(
        Arc::new(catalog),
        store,
        devices,
    ));
    let _ = state.tasks.set(episodes.clone());
    // Every session's steps on a device with an open episode are that episode's steps.
    state.hub.pool().set_step_sink(episodes.clone());
    episodes
}

/// The live page's link as `serve` prints it, ready to open: with the harness token filled in for
/// a person at a terminal; when stderr goes to a log (`--detach`, a supervisor), a shell word that
/// reads the token from its file, so the token itself never lands in a log an agent might read.
fn page_link(
    local: SocketAddr,
    token: &str,
    kept_in: Option<&std::path::Path>,
    terminal: bool,
) -> String {
    match (terminal, kept_in) {
        (true, _) => format!("http://{local}/#token={token}"),
        (false, Some(path)) => format!(
            "\"http://{local}/#token=$(cat {})\"",
            crate::device::command::sh_quote(&path.display().to_string())
        ),
        (false, None) => format!("http://{local}/#token=<your --harness-token>"),
    }
}

#[cfg(test)]
mod tests {
    use super::page_link;

    #[test]
    fn the_page_link_carries_the_token_or_reads_it_from_its_file() {
        let local = "127.0.0.1:8765".parse().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a b's").join("harness-token");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "Tok3n").unwrap();
        assert_eq!(
            page_link(local, "Tok3n", Some(&file), true),
            "http://127.0.0.1:8765/#token=Tok3n"
        );
        let logged = page_link(local, "Tok3n", Some(&file), false);
        assert!(!logged.contains("Tok3n"), "{logged}");
        // Pasted into a shell, it is the link with the token read from the file.
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("printf %s {logged}"))
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "http://127.0.0.1:8765/#token=Tok3n"
        );
    }
}

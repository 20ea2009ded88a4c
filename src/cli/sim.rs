//! `droidmcp sim`: boots the embedded phone and serves it as an adbd until Ctrl-C.

use std::sync::Arc;

use anyhow::Context;

use super::Global;
use crate::adb::{self, Identity};
use crate::device::Shell;
use crate::grpc;
use crate::sim::{ClockMode, Phone, Profile};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Serve the phone to real adb clients on this address (e.g. 127.0.0.1:5600), like a phone's
    /// `adb tcpip`; then `adb connect` to it.
    #[arg(long, value_name = "HOST:PORT", conflicts_with = "emulator")]
    pub adb: Option<String>,
    /// Serve the phone as an emulator does: its console on 127.0.0.1:PORT (`adb emu`, telnet;
    /// authenticated with ~/.emulator_console_auth_token, created if missing) and its adbd on PORT+1,
    /// announced to the adb server, which then lists it as `emulator-PORT`. PORT is even, 5554–5584
    /// for adb's own scan to find it too.
    #[arg(long, value_name = "PORT")]
    pub emulator: Option<u16>,
    /// With --emulator: serve the emulator's gRPC controller (EmulatorController, SnapshotService;
    /// what android_env connects to) on 127.0.0.1:PORT, as the emulator's `-grpc PORT`. Default
    /// 8554 for console 5554, and as far above 8554 as the console is above 5554; when that
    /// default is taken the phone serves without gRPC and says so.
    #[arg(long, value_name = "PORT", requires = "emulator")]
    pub grpc: Option<u16>,
    /// Allow --adb to listen on a non-loopback address. The phone's shell then is a root-capable
    /// shell (files, databases, settings of the embedded phone) for anyone who can reach the port.
    #[arg(long)]
    pub allow_remote: bool,
    /// Seed of the phone (same seed, same phone).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Device profile (overrides --env's): pixel3, pixel4, pixel5, pixel6, tablet, wxga-tablet.
    #[arg(long)]
    pub profile: Option<String>,
    /// Keep serving in the background and return once it listens (prints the address and the pid
    /// to stop it with).
    #[arg(long)]
    pub detach: bool,
}

/// The codename real phones of a profile report as `ro.product.name`/`ro.product.device`.
fn codename(profile: &Profile) -> &'static str {
    match profile.name {
        "pixel3" => "blueline",
        "pixel4" => "flame",
        "pixel5" => "redfin",
        "tablet" => "tangorpro",
        "wxga-tablet" => "emulator64_x86_64",
        _ => "oriole",
    }
}

pub async fn run(global: &Global, args: Args) -> anyhow::Result<i32> {
    if args.detach {
        return super::detach::detach("Ctrl-C stops it.");
    }
    let env = match &global.env {
        Some(name) => crate::env::Environment::resolve(name)?,
        None => crate::env::Environment::default(),
    };
    // A served phone keeps real time, as the phone on a desk that adb tools expect.
    let mut config = env.sim_config(args.seed, ClockMode::Real);
    if let Some(name) = &args.profile {
        config.profile = Profile::by_name(name).with_context(|| {
            let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name).collect();
            format!(
                "unknown profile {name:?}; choose one of {}",
                names.join(", ")
            )
        })?;
        config.density = None;
    }
    let profile = config.profile;
    let (addr, console_port) = match (args.adb, args.emulator) {
        (Some(addr), _) => (addr, None),
        (None, Some(port)) => {
            anyhow::ensure!(
                port % 2 == 0 && port < u16::MAX,
                "--emulator {port}: an emulator's console port is even and its adbd listens on the next one"
            );
            (format!("127.0.0.1:{}", port + 1), Some(port))
        }
        (None, None) => anyhow::bail!(
            "nothing to serve: pass --adb HOST:PORT (e.g. --adb 127.0.0.1:5600) or --emulator PORT (e.g. 5554)"
        ),
    };
    let exposed = resolves_beyond_loopback(&addr)
        .with_context(|| format!("--adb {addr}: not a HOST:PORT address"))?;
    if exposed && !args.allow_remote {
        anyhow::bail!(
            "refusing to serve adb on {addr}: that address is reachable from other machines, and \
             the embedded phone's adb gives whoever connects a shell that can read and change every \
             file, database and setting of the phone with no authentication. Use 127.0.0.1:PORT, or \
             pass --allow-remote if you mean to expose it"
        );
    }
    let phone = Phone::new(config).context("booting the embedded phone")?;
    let shell: Arc<dyn Shell> = Arc::new(phone);
    let fallback = Identity::new(codename(&profile), profile.model, codename(&profile));
    let identity = Identity::probe(shell.as_ref(), fallback).await;
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    if exposed {
        eprintln!(
            "warning: serving adb on {local} to the network (--allow-remote): anyone who can reach \
             this port gets an unauthenticated shell on the embedded phone"
        );
    }
    let grpc = match console_port {
        Some(port) => serve_grpc(&shell, args.grpc, port).await?,
        None => None,
    };
    let (console, on_restart) = match console_port {
        Some(port) => {
            let (console, server) = serve_console(global, &shell, port, local.port()).await?;
            let adb_port = local.port();
            // An emulator announces itself again when its adbd comes back (after `adb root`).
            let hook: adb::OnRestart = Arc::new(move || {
                let server = server.clone();
                tokio::spawn(async move { server.reannounce_emulator(adb_port).await });
            });
            (Some(console), Some(hook))
        }
        None => (None, None),
    };
    match console_port {
        Some(port) => println!(
            "embedded phone ({}, seed {}, {}) is serving as emulator-{port}: console on \
             127.0.0.1:{port}, adbd on {local}{}\n\
             then e.g.:     adb -s emulator-{port} emu gsm call 5551234\n\
             \x20              adb -s emulator-{port} shell uiautomator dump /dev/tty\n\
             Ctrl-C stops it.",
            identity.model,
            args.seed,
            env.describe(),
            match &grpc {
                Some((addr, _)) => format!(", gRPC on {addr}"),
                None => String::new(),
            }
        ),
        None => println!(
            "embedded phone ({}, seed {}, {}) is serving adb on {local}\n\
             connect with:  adb connect {local}\n\
             then e.g.:     adb -s {local} shell uiautomator dump /dev/tty\n\
             Ctrl-C stops it.",
            identity.model,
            args.seed,
            env.describe()
        ),
    }
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    adb::serve_with(listener, Arc::clone(&shell), identity, shutdown, on_restart)
        .await
        .context("adbd stopped")?;
    drop(console);
    drop(grpc);
    Ok(0)
}

/// Starts the emulator gRPC endpoint on 127.0.0.1 (`--grpc PORT`, else [`grpc::default_port`]);
/// it stops when the returned guard drops. A taken default port is a warning, not a failure, so a
/// phone still serves beside a real emulator that holds 8554.
async fn serve_grpc(
    shell: &Arc<dyn Shell>,
    asked: Option<u16>,
    console_port: u16,
) -> anyhow::Result<Option<(std::net::SocketAddr, tokio_util::sync::DropGuard)>> {
    let port = asked.unwrap_or_else(|| grpc::default_port(console_port));
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
        Ok(l) => l,
        Err(e) if asked.is_none() => {
            eprintln!("note: no emulator gRPC endpoint: 127.0.0.1:{port} is taken ({e}); pass --grpc PORT for another port");
            return Ok(None);
        }
        Err(e) => {
            return Err(e).with_context(|| format!("cannot listen on 127.0.0.1:{port} for gRPC"))
        }
    };
    let addr = listener.local_addr()?;
    let stop = tokio_util::sync::CancellationToken::new();
    let stopped = stop.clone();
    let shell = Arc::clone(shell);
    tokio::spawn(async move {
        if let Err(e) = grpc::serve(listener, shell, stopped.cancelled_owned()).await {
            eprintln!("gRPC endpoint stopped: {e}");
        }
    });
    Ok(Some((addr, stop.drop_guard())))
}

/// Starts the console on 127.0.0.1:`port` and announces the adbd on `adb_port` to the adb server
/// (a warning when no server runs: a server started later finds ports 5555–5585 by itself). The
/// console stops when the returned handle drops; the server is returned for announcing again.
async fn serve_console(
    global: &Global,
    shell: &Arc<dyn Shell>,
    port: u16,
    adb_port: u16,
) -> anyhow::Result<(tokio_util::sync::DropGuard, adb::AdbServer)> {
    let token = match adb::console::token_path() {
        Some(path) => adb::console::load_or_create_token(&path)
            .with_context(|| format!("reading the console token {}", path.display()))?,
        None => None,
    };
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .with_context(|| format!("cannot listen on 127.0.0.1:{port} for the console"))?;
    let stop = tokio_util::sync::CancellationToken::new();
    let stopped = stop.clone();
    let shell = Arc::clone(shell);
    tokio::spawn(async move {
        if let Err(e) = adb::console::serve(listener, shell, token, stopped.cancelled()).await {
            eprintln!("console stopped: {e}");
        }
    });
    let server = adb::AdbServer::new(&adb::server_address(global.adb_server())?)?;
    if let Err(e) = server.register_emulator(adb_port).await {
        eprintln!("note: could not announce emulator-{port} to the adb server ({e}); an adb server started later finds it on its own when the port is in 5554–5584");
    }
    Ok((stop.drop_guard(), server))
}

/// Whether a `HOST:PORT` resolves to any address other than loopback.
fn resolves_beyond_loopback(addr: &str) -> anyhow::Result<bool> {
    use std::net::ToSocketAddrs;
    let addrs: Vec<std::net::SocketAddr> = addr.to_socket_addrs()?.collect();
    anyhow::ensure!(!addrs.is_empty(), "no address");
    Ok(addrs.iter().any(|a| !a.ip().is_loopback()))
}

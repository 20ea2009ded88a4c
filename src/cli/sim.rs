//! `droidmcp sim`: boots the embedded phone and serves it as an adbd until Ctrl-C.

use std::sync::Arc;

use anyhow::Context;

use super::Global;
use crate::adb::{self, Identity};
use crate::device::Shell;
use crate::sim::{ClockMode, Phone, Profile};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Serve the phone to real adb clients on this address (e.g. 127.0.0.1:5600), like a phone's
    /// `adb tcpip`; then `adb connect` to it.
    #[arg(long, value_name = "HOST:PORT")]
    pub adb: Option<String>,
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
    let Some(addr) = args.adb else {
        anyhow::bail!("nothing to serve: pass --adb HOST:PORT (e.g. --adb 127.0.0.1:5600)");
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
    println!(
        "embedded phone ({}, seed {}, {}) is serving adb on {local}\n\
         connect with:  adb connect {local}\n\
         then e.g.:     adb -s {local} shell uiautomator dump /dev/tty\n\
         Ctrl-C stops it.",
        identity.model,
        args.seed,
        env.describe()
    );
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    adb::serve(listener, Arc::clone(&shell), identity, shutdown)
        .await
        .context("adbd stopped")?;
    Ok(0)
}

/// Whether a `HOST:PORT` resolves to any address other than loopback.
fn resolves_beyond_loopback(addr: &str) -> anyhow::Result<bool> {
    use std::net::ToSocketAddrs;
    let addrs: Vec<std::net::SocketAddr> = addr.to_socket_addrs()?.collect();
    anyhow::ensure!(!addrs.is_empty(), "no address");
    Ok(addrs.iter().any(|a| !a.ip().is_loopback()))
}

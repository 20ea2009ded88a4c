//! `droidmcp shell`: runs one command line on the device, printing its output raw and exiting with its
//! exit code, like `adb shell`.

use std::io::Write;

use anyhow::Context;

use super::Global;

/// Run one shell command line (joined with spaces, as `adb shell` does) on a fresh embedded phone,
/// or on the adb device `--device` names.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Device profile of the embedded phone (overrides --env's): pixel3, pixel4, pixel5, pixel6,
    /// tablet, wxga-tablet.
    #[arg(long)]
    pub profile: Option<String>,
    /// Locale of the embedded phone (e.g. en-US, ko-KR; overrides --env's).
    #[arg(long)]
    pub locale: Option<String>,
    /// Boot the embedded phone in dark mode.
    #[arg(long)]
    pub dark: bool,
    /// Font scale of the embedded phone (overrides --env's).
    #[arg(long)]
    pub font_scale: Option<f32>,
    /// The command line.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,
}

/// Which embedded phone a `--device` value names.
pub enum SimDevice {
    Sim { seed: u64 },
    Other(String),
}

/// `None`/`sim` → seed 0, `sim:SEED` → that seed; anything else is not the embedded phone.
pub fn parse_sim_device(device: Option<&str>) -> anyhow::Result<SimDevice> {
    match device {
        None | Some("sim") | Some("") => Ok(SimDevice::Sim { seed: 0 }),
        Some(d) => match d.strip_prefix("sim:").or_else(|| d.strip_prefix("sim-")) {
            Some(seed) => Ok(SimDevice::Sim {
                seed: seed
                    .parse()
                    .map_err(|_| anyhow::anyhow!("--device {d}: the seed must be a number"))?,
            }),
            None => Ok(SimDevice::Other(d.to_string())),
        },
    }
}

pub async fn run(global: &Global, args: Args) -> anyhow::Result<i32> {
    let line = args.command.join(" ");
    let seed = match parse_sim_device(global.device.as_deref())? {
        SimDevice::Sim { seed } => seed,
        SimDevice::Other(serial) => {
            let boots = args.profile.is_some()
                || args.locale.is_some()
                || args.dark
                || args.font_scale.is_some();
            anyhow::ensure!(
                !boots,
                "--profile, --locale, --dark and --font-scale choose how the embedded phone boots; device {serial} is not it"
            );
            let shell = crate::fleet::open(Some(&serial), global.adb_server()).await?;
            let out = shell.exec(&line).await?;
            return emit(out);
        }
    };
    let env = match &global.env {
        Some(name) => crate::env::Environment::resolve(name)?,
        None => crate::env::Environment::default(),
    };
    let mut config = env.sim_config(seed, crate::sim::ClockMode::Virtual);
    if let Some(name) = &args.profile {
        let names: Vec<&str> = crate::sim::Profile::ALL.iter().map(|p| p.name).collect();
        config.profile = crate::sim::Profile::by_name(name)
            .with_context(|| format!("--profile {name}: unknown profile ({})", names.join(", ")))?;
        config.density = None;
    }
    if let Some(locale) = &args.locale {
        config.locale = locale.clone();
    }
    if let Some(scale) = args.font_scale {
        config.font_scale = scale;
    }
    config.dark_mode |= args.dark;
    let phone = crate::sim::Phone::new(config).context("cannot boot the embedded phone")?;
    let out = tokio::task::spawn_blocking(move || phone.exec(&line))
        .await
        .context("the embedded phone's shell stopped")?;
    emit(out)
}

/// Prints a command's output raw and passes its exit code on, as `adb shell` does.
fn emit(out: crate::device::ShellOutput) -> anyhow::Result<i32> {
    std::io::stdout().write_all(&out.stdout)?;
    std::io::stdout().flush()?;
    std::io::stderr().write_all(&out.stderr)?;
    Ok(out.exit_code)
}

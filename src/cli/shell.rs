//! `droidmcp shell`: runs one command line on the device, printing its output raw and exiting with its
//! exit code, like `adb shell`.

use std::io::Write;

use anyhow::Context;

use super::Global;

/// Run one shell command line (joined with spaces, as `adb shell` does).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Device profile of the embedded phone: pixel3, pixel6, tablet.
    #[arg(long, default_value = "pixel6")]
    pub profile: String,
    /// Locale of the embedded phone (e.g. en-US, ko-KR).
    #[arg(long, default_value = "en-US")]
    pub locale: String,
    /// Boot the embedded phone in dark mode.
    #[arg(long)]
    pub dark: bool,
    /// Font scale of the embedded phone.
    #[arg(long, default_value_t = 1.0)]
    pub font_scale: f32,
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
    let seed = match parse_sim_device(global.device.as_deref())? {
        SimDevice::Sim { seed } => seed,
        SimDevice::Other(serial) => anyhow::bail!(
            "device {serial}: only the embedded phone (`sim` or `sim:SEED`) is supported by `droidmcp shell` so far"
        ),
    };
    let profile = crate::sim::Profile::by_name(&args.profile).with_context(|| {
        format!(
            "--profile {}: unknown profile (pixel3, pixel6, tablet)",
            args.profile
        )
    })?;
    let config = crate::sim::SimConfig {
        seed,
        profile,
        locale: args.locale.clone(),
        font_scale: args.font_scale,
        dark_mode: args.dark,
        clock: crate::sim::ClockMode::Virtual,
    };
    let phone = crate::sim::Phone::new(config).context("cannot boot the embedded phone")?;
    let line = args.command.join(" ");
    let out = tokio::task::spawn_blocking(move || phone.exec(&line))
        .await
        .context("the embedded phone's shell stopped")?;
    std::io::stdout().write_all(&out.stdout)?;
    std::io::stdout().flush()?;
    std::io::stderr().write_all(&out.stderr)?;
    Ok(out.exit_code)
}

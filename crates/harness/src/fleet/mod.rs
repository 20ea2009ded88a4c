//! Where a run's devices come from: every kind of phone farm reduced to one seam.
//!
//! A [`Source`] lists the devices it can hand out, leases one for a time-to-live and says how to
//! reach it (an [`Endpoint`]: an embedded phone of this process, or a serial on an adb server),
//! renews the lease on every heartbeat, and takes it back. Four kinds of source:
//!
//! - [`embedded::Embedded`]: N embedded phones, booted once and restored from their boot snapshot
//!   at the start of every episode;
//! - [`adb_server::AdbServerSource`]: every device an adb server lists (`--adb-server HOST:PORT`,
//!   one source per server, on this host or another; `--adb-device` narrows it to named serials);
//! - [`connect::Connect`]: static `host:port` endpoints, `adb connect`ed through the home server;
//! - [`provider::Provider`]: a farm behind commands the user configures — one leases a device and
//!   prints its endpoint, one releases it (recipes for STF, Genymotion SaaS and docker-android in
//!   docs/fleet.md).
//!
//! [`Fleet`] leases every device of every source, keeps each lease alive with heartbeats (a lease
//! whose heartbeat fails or that outlives its TTL unrenewed is *lost*), sets aside a device that was
//! lost or failed too often, asks the same source for a replacement, and releases everything at the
//! end.
//!
//! **Architecture Invariant:** above this module a device is an [`Endpoint`] opened into a
//! `device::Shell`; nothing in the runner asks which kind of source a device came from. Why: a farm
//! added later is one more `Source`, and the runner's retry and set-aside rules hold for it as they
//! are.

pub mod adb_server;
pub mod connect;
pub mod embedded;
mod held;
mod open;
pub mod provider;
mod source;

pub use held::{Fleet, FleetConfig, Held, SetAside};
pub use open::{open, open_configured, open_with_clock};
pub use source::{Endpoint, Grant, Source};

/// Why a source could not list, lease, renew or release a device.
#[derive(Debug, thiserror::Error)]
pub enum FleetError {
    #[error("{source_name}: {reason}")]
    Source { source_name: String, reason: String },
    #[error(transparent)]
    Adb(#[from] droidmcp_adb::AdbError),
    #[error("provider {name}: `{command}` {what}")]
    Command {
        name: String,
        command: String,
        what: String,
    },
    #[error("provider file {path}: {reason}")]
    Config { path: String, reason: String },
}

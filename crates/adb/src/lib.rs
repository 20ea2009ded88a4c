//! ADB: the adb server's host protocol (client side, for real phones and emulators) and the device-side
//! transport that serves the embedded phone to real adb clients.
//!
//! Brief overview, layered frame → connection → command (as mini-redis and h2 are):
//! - frames, pure bytes ↔ values with no I/O: [`packet`] (the device transport's 24-byte messages),
//!   [`shell_v2`] (stdout/stderr/exit packets inside a shell stream), [`sync`] (file transfer requests
//!   and replies, plus its client commands);
//! - client: [`host`] (smart-socket requests to an adb server: devices, connect, transport switch) and
//!   [`client::AdbShell`] (a pooled [`droidmcp_device::Shell`] for one device);
//! - device side: [`adbd`] (connections, streams, flow control) and [`services`] (`shell:`,
//!   `shell,v2,…:`, `exec:`, `sync:` answered from any `Shell`, normally the embedded phone);
//! - [`console`]: the emulator console over TCP, served for the embedded phone and dialled for an
//!   `emulator-N` serial.

pub mod adbd;
pub mod client;
pub mod console;
pub mod host;
pub mod packet;
pub mod services;
pub mod shell_v2;
pub mod sync;

pub use adbd::{serve, serve_with, Identity, OnRestart};
pub use client::AdbShell;
pub use host::{server_address, AdbError, AdbServer, DeviceEntry};

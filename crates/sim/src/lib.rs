//! The embedded phone: a simulated Android device that interprets Android's shell commands
//! (`input`, `uiautomator dump`, `screencap`, `am`, `pm`, `settings`, `logcat`, `content`, …) and keeps
//! app state where Android keeps it.
//!
//! Brief overview: [`Phone`] is a cloneable handle (an `Arc<Mutex<…>>`; std's mutex because no lock is
//! held across an await) around the framework state: the window stack of running [`app::App`]s, focus
//! and IME, scroll offsets, and the [`system::System`] services apps use. [`Phone::exec`] is the whole
//! public surface, exactly as `adb shell` would see it; `Phone` also implements
//! [`droidmcp_device::Shell`] so the device layer drives it like any real phone.

pub mod a11y;
pub mod app;
pub mod apps;
pub mod clipboard;
pub mod console;
pub mod datadir;
pub mod defaults;
pub mod dump;
pub mod file_times;
pub mod framework;
pub mod keyboard;
pub mod locale;
pub mod media;
pub mod media_file;
pub mod phone;
pub mod providers;
pub mod render;
pub mod roles;
pub mod screen;
pub mod selection;
pub mod shade;
pub mod shell;
pub mod snapshot;
pub mod system;
pub mod telephony;
pub mod view;

pub use phone::{Phone, Profile, SimConfig, SimError};
pub use system::ClockMode;

#[cfg(test)]
mod tests;

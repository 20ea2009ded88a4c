//! The [`Phone`] handle: boots the embedded phone and runs shell command lines against it.

use std::sync::{Arc, Mutex};

use crate::device::ShellOutput;

/// Screen size and density of a real device model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    pub name: &'static str,
    pub model: &'static str,
    pub width: i32,
    pub height: i32,
    pub density: i32,
}

impl Profile {
    pub const PIXEL_3: Profile = Profile {
        name: "pixel3",
        model: "Pixel 3",
        width: 1080,
        height: 2160,
        density: 440,
    };
    pub const PIXEL_6: Profile = Profile {
        name: "pixel6",
        model: "Pixel 6",
        width: 1080,
        height: 2400,
        density: 420,
    };
    pub const TABLET: Profile = Profile {
        name: "tablet",
        model: "Pixel Tablet",
        width: 2560,
        height: 1600,
        density: 320,
    };

    pub const ALL: [Profile; 3] = [Profile::PIXEL_3, Profile::PIXEL_6, Profile::TABLET];

    pub fn by_name(name: &str) -> Option<Profile> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
    }
}

/// How to boot a phone.
#[derive(Debug, Clone, PartialEq)]
pub struct SimConfig {
    pub seed: u64,
    pub profile: Profile,
    pub locale: String,
    pub font_scale: f32,
    pub dark_mode: bool,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            seed: 0,
            profile: Profile::PIXEL_6,
            locale: "en-US".into(),
            font_scale: 1.0,
            dark_mode: false,
        }
    }
}

/// Why a phone could not boot.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("cannot create the phone's data directory: {0}")]
    DataDir(#[source] std::io::Error),
}

struct PhoneState {
    serial: String,
}

/// A cloneable handle to one embedded phone.
#[derive(Clone)]
pub struct Phone {
    state: Arc<Mutex<PhoneState>>,
}

impl Phone {
    pub fn new(config: SimConfig) -> Result<Phone, SimError> {
        Ok(Phone {
            state: Arc::new(Mutex::new(PhoneState {
                serial: format!("sim-{}", config.seed),
            })),
        })
    }

    pub fn serial(&self) -> String {
        self.state
            .lock()
            .expect("phone state lock is never poisoned: no panics while held")
            .serial
            .clone()
    }

    /// Runs one command line as `/system/bin/sh -c` would on the phone.
    pub fn exec(&self, command_line: &str) -> ShellOutput {
        let name = command_line.split_whitespace().next().unwrap_or("");
        ShellOutput::fail(format!("/system/bin/sh: {name}: not found\n"), 127)
    }

    /// Reads a file by Android path.
    pub fn read_file(&self, path: &str) -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            path.to_string(),
        ))
    }

    /// Writes a file by Android path, creating parent directories.
    pub fn write_file(&self, path: &str, _data: &[u8], _mode: u32) -> std::io::Result<()> {
        Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            path.to_string(),
        ))
    }
}

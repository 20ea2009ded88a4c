//! The embedded phone seen through the [`Shell`] trait, so the device layer drives it like any phone.

use async_trait::async_trait;

use super::shell::{Shell, ShellError, ShellOutput};
use crate::sim::Phone;

/// An in-process shell on an embedded [`Phone`].
pub struct SimShell {
    phone: Phone,
    serial: String,
}

impl SimShell {
    pub fn new(phone: Phone) -> SimShell {
        let serial = phone.serial();
        SimShell { phone, serial }
    }

    pub fn phone(&self) -> &Phone {
        &self.phone
    }
}

#[async_trait]
impl Shell for SimShell {
    fn serial(&self) -> &str {
        &self.serial
    }

    async fn exec(&self, command_line: &str) -> Result<ShellOutput, ShellError> {
        Ok(self.phone.exec(command_line))
    }

    async fn pull(&self, path: &str) -> Result<Vec<u8>, ShellError> {
        self.phone.read_file(path).map_err(|e| io_error(path, e))
    }

    async fn push(&self, path: &str, data: &[u8], mode: u32) -> Result<(), ShellError> {
        self.phone
            .write_file(path, data, mode)
            .map_err(|e| io_error(path, e))
    }
}

fn io_error(path: &str, e: std::io::Error) -> ShellError {
    match e.kind() {
        std::io::ErrorKind::NotFound => ShellError::NoSuchFile { path: path.into() },
        std::io::ErrorKind::PermissionDenied => ShellError::PermissionDenied { path: path.into() },
        _ => ShellError::Protocol {
            serial: "sim".into(),
            reason: format!("{path}: {e}"),
        },
    }
}

//! Why a session call failed: [`SessionError`], with messages written for the model reading them.

use droidmcp_device::image::ImageError;
use droidmcp_device::{command, DeviceError};

/// Why a session call failed. Messages are written for the model reading them.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("device {serial} vanished: {source}")]
    DeviceLost {
        serial: String,
        #[source]
        source: DeviceError,
    },
    #[error(transparent)]
    Device(DeviceError),
    #[error(
        "element {id} is not on the current screen ({count} elements); call `screen` for fresh ids"
    )]
    StaleElement { id: u32, count: usize },
    #[error("no element shows the text {0:?} on the current screen")]
    TextNotFound(String),
    #[error("{0} is not on the current screen")]
    NoMatch(String),
    #[error(
        "element {id} ({was}) from the observation you acted on is no longer on screen; #{id} is now {now}. Call `screen` for fresh ids"
    )]
    ElementGone { id: u32, was: String, now: String },
    #[error("unknown observation {0:?}: the phone keeps the digests of its last {n} observations; call `screen` again", n = super::KEPT_OBSERVATIONS)]
    UnknownObservation(String),
    #[error("no field is focused; pass `element` or tap a field first")]
    NothingFocused,
    #[error("tapping {0} focused no text field; pass the field itself as `element`")]
    NotAField(String),
    #[error("the field still holds {remaining} characters after clearing")]
    ClearFailed { remaining: usize },
    #[error("no more actions: {0}")]
    Stopped(String),
    #[error("point ({x},{y}) is outside the {width}x{height} screen")]
    OutOfScreen {
        x: i32,
        y: i32,
        width: i32,
        height: i32,
    },
    #[error("no app matches {query:?}; closest: {}", suggestions.join(", "))]
    UnknownApp {
        query: String,
        suggestions: Vec<String>,
    },
    #[error("unknown key {key:?}; use a keycode number or one of: {}", command::key_names().join(", "))]
    UnknownKey { key: String },
    #[error("{0}")]
    BadArgument(String),
    #[error("scrolled {swipes} times without finding {query:?} (the list stopped moving: {reached_end})")]
    ScrollExhausted {
        query: String,
        swipes: u32,
        reached_end: bool,
    },
    #[error("the UI hierarchy could not be read: {0}")]
    Hierarchy(String),
    #[error(transparent)]
    Image(#[from] ImageError),
    #[error("cancelled")]
    Cancelled,
}

impl SessionError {
    /// True when the device is gone; the client should pick another device.
    pub fn is_device_lost(&self) -> bool {
        matches!(self, SessionError::DeviceLost { .. })
    }

    /// True when the caller sent something unusable (as opposed to a device-side failure).
    pub fn is_bad_request(&self) -> bool {
        matches!(
            self,
            SessionError::StaleElement { .. }
                | SessionError::TextNotFound(_)
                | SessionError::NoMatch(_)
                | SessionError::ElementGone { .. }
                | SessionError::UnknownObservation(_)
                | SessionError::NothingFocused
                | SessionError::NotAField(_)
                | SessionError::Stopped(_)
                | SessionError::OutOfScreen { .. }
                | SessionError::UnknownApp { .. }
                | SessionError::UnknownKey { .. }
                | SessionError::BadArgument(_)
        )
    }

    pub(crate) fn from_device(serial: &str, e: DeviceError) -> SessionError {
        if e.is_device_lost() {
            SessionError::DeviceLost {
                serial: serial.to_string(),
                source: e,
            }
        } else {
            SessionError::Device(e)
        }
    }
}

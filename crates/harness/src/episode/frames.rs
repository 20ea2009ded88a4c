//! What an episode keeps for judges besides its steps: a scaled screenshot before the first step,
//! after every step and at the end, the end screen's dump, the pictures the goal names, and the
//! device facts read when it is checked. Kept only for episodes with a store (nobody else reads
//! them).

use std::sync::Arc;

use super::episode::now;
use crate::store::{FrameKind, FrameRow, PictureRow};
use droidmcp_device::image::{self, Encoding, ImageError};
use droidmcp_device::{Device, DeviceError, Shell, ShellError};

/// Frames are scaled so their long side is at most this many pixels (what vision models take in
/// without tiling, and what A3's judges were shown).
const MAX_EDGE: u32 = 1024;
/// JPEG quality of stored frames: legible text at a fraction of a PNG's size.
const QUALITY: u8 = 80;

/// Takes a frame of what `shell`'s screen shows now; with `dump`, the screen's dump too (the end
/// frame keeps it, since no step recorded that screen).
pub(super) async fn capture(
    shell: &Arc<dyn Shell>,
    kind: FrameKind,
    step: u32,
    dump: bool,
) -> Result<FrameRow, DeviceError> {
    let device = Device::new(shell.clone());
    let frame = device
        .screenshot_scaled(MAX_EDGE, Encoding::Jpeg(QUALITY))
        .await?;
    let screen = if dump {
        Some(device.dump_xml().await?)
    } else {
        None
    };
    Ok(FrameRow {
        kind,
        step,
        at: now(),
        width: frame.width,
        height: frame.height,
        scale: frame.scale,
        jpeg: frame.bytes,
        screen,
    })
}

/// Why a picture the goal names could not be kept.
#[derive(Debug, thiserror::Error)]
pub(super) enum PictureError {
    #[error("cannot read it: {0}")]
    Device(#[from] ShellError),
    #[error("{0}")]
    Image(#[from] ImageError),
}

/// The picture file at `path` as a judge is shown it: pulled from the phone and scaled like a
/// frame.
pub(super) async fn picture(shell: &dyn Shell, path: &str) -> Result<PictureRow, PictureError> {
    let bytes = shell.pull(path).await?;
    let shot = image::picture(&bytes, MAX_EDGE, Encoding::Jpeg(QUALITY))?;
    Ok(PictureRow {
        path: path.to_string(),
        width: shot.width,
        height: shot.height,
        jpeg: shot.bytes,
    })
}

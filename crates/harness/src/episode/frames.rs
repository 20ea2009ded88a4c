//! What an episode keeps for judges besides its steps: a scaled screenshot before the first step,
//! after every step and at the end, the end screen's dump, and the device facts read when it is
//! checked. Kept only for episodes with a store (nobody else reads them).

use std::sync::Arc;

use super::episode::now;
use crate::store::{FrameKind, FrameRow};
use droidmcp_device::image::Encoding;
use droidmcp_device::{Device, DeviceError, Shell};

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

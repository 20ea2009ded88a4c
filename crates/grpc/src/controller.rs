//! `EmulatorController`: status, touch, keys, screenshots and the clipboard, each carried out with
//! the shell commands any adb client would send the phone.

use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use image::RgbaImage;
use tonic::{Request, Response, Status};

use super::keys::{self, Key};
use super::proto::control::{
    emulator_controller_server::EmulatorController,
    image_format::ImgFormat,
    image_transport::TransportChannel,
    keyboard_event::{KeyCodeType, KeyEventType},
    ClipData, EmulatorStatus, Entry, EntryList, Image, ImageFormat, KeyboardEvent, TouchEvent,
};
use super::status;
use droidmcp_device::command::sh_quote;
use droidmcp_device::image::{encode, scale, Encoding};
use droidmcp_device::{Device, Shell};

/// The controller of one served phone.
pub struct Controller {
    device: Device,
    started: Instant,
    /// The identifier of the finger that is down, if any. The phone has one pointer (`input
    /// motionevent`), so a second finger is ignored while the first is down. Held across the
    /// command so the touches of concurrent calls reach the phone in order.
    finger: tokio::sync::Mutex<Option<i32>>,
}

impl Controller {
    pub fn new(shell: Arc<dyn Shell>) -> Controller {
        Controller {
            device: Device::new(shell),
            started: Instant::now(),
            finger: tokio::sync::Mutex::new(None),
        }
    }

    async fn run(&self, command: &str) -> Result<(), Status> {
        self.device.run(command).await.map(drop).map_err(status)
    }

    async fn key(&self, code: u32) -> Result<(), Status> {
        self.device.keys(&[code]).await.map_err(status)
    }

    async fn type_text(&self, text: &str) -> Result<(), Status> {
        self.device.type_text(text).await.map(drop).map_err(status)
    }
}

/// The size a `width`×`height` frame is scaled to for a request of `want_w`×`want_h` (0: no limit
/// on that side): as large as fits both limits, keeping the aspect ratio, as the emulator does.
pub fn fitted(width: u32, height: u32, want_w: u32, want_h: u32) -> (u32, u32) {
    let mut s = f64::INFINITY;
    if want_w > 0 {
        s = s.min(want_w as f64 / width.max(1) as f64);
    }
    if want_h > 0 {
        s = s.min(want_h as f64 / height.max(1) as f64);
    }
    if !s.is_finite() {
        return (width, height);
    }
    // Never past a limit, whatever the rounding.
    let side = |n: u32, limit: u32| {
        let v = ((n as f64 * s).round() as u32).max(1);
        if limit > 0 {
            v.min(limit)
        } else {
            v
        }
    };
    let (w, h) = (side(width, want_w), side(height, want_h));
    (w, h)
}

/// The frame at `w`×`h`: shrunk by area averaging (the screenshot path's scaler), enlarged with a
/// triangle filter.
fn resized(frame: RgbaImage, w: u32, h: u32) -> RgbaImage {
    if (w, h) == frame.dimensions() {
        frame
    } else if w < frame.width() {
        let small = scale(&frame, frame.width() as f64 / w as f64);
        if small.dimensions() == (w, h) {
            small
        } else {
            image::imageops::resize(&small, w, h, image::imageops::FilterType::Triangle)
        }
    } else {
        image::imageops::resize(&frame, w, h, image::imageops::FilterType::Triangle)
    }
}

#[tonic::async_trait]
impl EmulatorController for Controller {
    /// Booted when Android says so (`sys.boot_completed`, what the emulator itself polls on P and
    /// later); uptime is how long this endpoint has served, the emulator's process lifetime.
    async fn get_status(&self, _: Request<()>) -> Result<Response<EmulatorStatus>, Status> {
        let booted = self
            .device
            .shell("getprop sys.boot_completed")
            .await
            .map_err(status)?
            .stdout_text()
            .trim()
            == "1";
        let size = self.device.screen_size().await.map_err(status)?;
        let entry = |key: &str, value: i32| Entry {
            key: key.into(),
            value: value.to_string(),
        };
        Ok(Response::new(EmulatorStatus {
            version: format!("droidmcp {} (embedded phone)", env!("CARGO_PKG_VERSION")),
            uptime: self.started.elapsed().as_millis() as u64,
            booted,
            vm_config: None,
            hardware_config: Some(EntryList {
                entry: vec![
                    entry("hw.lcd.width", size.physical_width),
                    entry("hw.lcd.height", size.physical_height),
                ],
            }),
        }))
    }

    /// Each touch with pressure puts the finger down or moves it, one without lifts it (`input
    /// motionevent DOWN|MOVE|UP`, so the framework sees one gesture from the first point to the
    /// last); a lift of a finger that is not down is nothing, as android_env sends one before
    /// every observation.
    async fn send_touch(&self, request: Request<TouchEvent>) -> Result<Response<()>, Status> {
        let event = request.into_inner();
        if event.display != 0 {
            return Err(Status::not_found(format!(
                "display {}: the embedded phone has one display, 0",
                event.display
            )));
        }
        let mut finger = self.finger.lock().await;
        for t in event.touches {
            let action = match (*finger, t.pressure > 0) {
                (None, true) => "DOWN",
                (Some(id), true) if id == t.identifier => "MOVE",
                (Some(id), false) if id == t.identifier => "UP",
                _ => continue,
            };
            self.run(&format!("input motionevent {action} {} {}", t.x, t.y))
                .await?;
            *finger = (action != "UP").then_some(t.identifier);
        }
        Ok(Response::new(()))
    }

    /// `text` is typed; a W3C `key` or an evdev/XKB `keyCode` is pressed once, on its key-down (or
    /// key-press): the phone's `input keyevent` is a whole press, so the key-up that follows a
    /// key-down sends nothing.
    async fn send_key(&self, request: Request<KeyboardEvent>) -> Result<Response<()>, Status> {
        let event = request.into_inner();
        if !event.text.is_empty() {
            self.type_text(&event.text).await?;
            return Ok(Response::new(()));
        }
        if event.event_type() == KeyEventType::Keyup {
            return Ok(Response::new(()));
        }
        if !event.key.is_empty() {
            match keys::from_w3c(&event.key) {
                Some(Key::Code(code)) => self.key(code).await?,
                Some(Key::Text(text)) => self.type_text(&text).await?,
                None => {
                    return Err(Status::invalid_argument(format!(
                        "key {:?}: not a key the embedded phone knows (a W3C name such as GoBack, \
                         GoHome, AppSwitch, Enter, or one printable ASCII character)",
                        event.key
                    )))
                }
            }
            return Ok(Response::new(()));
        }
        let evdev = match event.code_type() {
            KeyCodeType::Evdev => event.key_code,
            KeyCodeType::Xkb => event.key_code - 8,
            other => {
                return Err(Status::invalid_argument(format!(
                "codeType {}: the embedded phone translates Linux key codes only (XKB or Evdev)",
                other.as_str_name()
            )))
            }
        };
        let code = u32::try_from(evdev)
            .ok()
            .and_then(keys::from_evdev)
            .ok_or_else(|| {
                Status::invalid_argument(format!(
                    "keyCode {} ({}): no Android key for evdev code {evdev} in Generic.kl",
                    event.key_code,
                    event.code_type().as_str_name()
                ))
            })?;
        self.key(code).await?;
        Ok(Response::new(()))
    }

    /// `screencap`'s frame, scaled to fit the requested size and packed as asked.
    async fn get_screenshot(
        &self,
        request: Request<ImageFormat>,
    ) -> Result<Response<Image>, Status> {
        let want = request.into_inner();
        if want.display != 0 {
            return Err(Status::not_found(format!(
                "display {}: the embedded phone has one display, 0",
                want.display
            )));
        }
        if want
            .transport
            .as_ref()
            .is_some_and(|t| t.channel() == TransportChannel::Mmap)
        {
            return Err(Status::unimplemented(
                "the MMAP image transport is not implemented by droidmcp's embedded phone; leave \
                 transport unset to get the pixels in the reply",
            ));
        }
        let frame = self.device.screen_pixels().await.map_err(status)?;
        let (w, h) = fitted(frame.width(), frame.height(), want.width, want.height);
        let frame = resized(frame, w, h);
        let format = want.format();
        let bytes = match format {
            ImgFormat::Rgba8888 => frame.into_raw(),
            ImgFormat::Rgb888 => frame
                .into_raw()
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect(),
            ImgFormat::Png => {
                encode(&frame, Encoding::Png).map_err(|e| Status::internal(e.to_string()))?
            }
        };
        let timestamp_us = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_micros() as u64)
            .unwrap_or(0);
        #[allow(deprecated)]
        let image = Image {
            format: Some(ImageFormat {
                format: format as i32,
                width: w,
                height: h,
                ..ImageFormat::default()
            }),
            width: w,
            height: h,
            image: bytes,
            seq: 0,
            timestamp_us,
        };
        Ok(Response::new(image))
    }

    /// The primary clip's text as the emulator reads it: the host's copy that the guest's
    /// clipboard monitor keeps (the console's `clipboard get`), not an app's read, which Android
    /// refuses to an app without focus.
    async fn get_clipboard(&self, _: Request<()>) -> Result<Response<ClipData>, Status> {
        let out = self
            .device
            .shell_handle()
            .console("clipboard get")
            .await
            .map_err(|e| status(e.into()))?;
        let text = out.strip_suffix("\r\nOK\r\n").ok_or_else(|| {
            Status::internal(format!("the console's `clipboard get` answered {out:?}"))
        })?;
        Ok(Response::new(ClipData {
            text: text.to_string(),
        }))
    }

    /// Sets the primary clip through Clipper's `clipper.set` broadcast (the guest side of the
    /// emulator's clipboard sharing has no shell command on Android 14).
    async fn set_clipboard(&self, request: Request<ClipData>) -> Result<Response<()>, Status> {
        let text = request.into_inner().text;
        self.run(&format!(
            "am broadcast -a clipper.set -e text {}",
            sh_quote(&text)
        ))
        .await?;
        Ok(Response::new(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_within_both_limits_keeping_aspect() {
        assert_eq!(fitted(1080, 2400, 0, 0), (1080, 2400));
        assert_eq!(fitted(1080, 2400, 540, 0), (540, 1200));
        assert_eq!(fitted(1080, 2400, 540, 600), (270, 600));
        assert_eq!(fitted(1080, 2400, 0, 4800), (2160, 4800));
    }
}

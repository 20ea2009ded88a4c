//! Camera2's video mode: the mode drawer a swipe from the left edge opens (ModeListView: Camera,
//! Video), the recording timer, and the file a recording leaves: an MP4 (H.264 picture track and
//! AAC sound track, as MediaRecorder writes for the CamcorderProfile) named
//! `VID_yyyyMMdd_HHmmss.mp4` in shared storage's `Movies`, the folder AndroidWorld's
//! CameraTakeVideo lists; MediaStore finds it there as a video row.

use chrono::NaiveDateTime;

use crate::apps::widgets::format_elapsed;
use crate::media::{aac, h264, mp4};
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

use super::{frame_rgb, id, tr, FRAME_HEIGHT, FRAME_WIDTH};

/// Where videos go (`Environment.DIRECTORY_MOVIES` of shared storage).
pub const VIDEO_DIR: &str = "/sdcard/Movies";
/// CamcorderProfile's frame rate for the emulator's camera.
const FPS: u32 = 30;

/// The shooting modes the drawer lists, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Photo,
    Video,
}

impl Mode {
    const ALL: [Mode; 2] = [Mode::Photo, Mode::Video];

    fn label(self) -> &'static str {
        match self {
            Mode::Photo => "mode_camera",
            Mode::Video => "mode_video",
        }
    }

    fn icon(self) -> &'static str {
        match self {
            Mode::Photo => "camera",
            Mode::Video => "videocam",
        }
    }

    pub fn tag(self) -> &'static str {
        match self {
            Mode::Photo => "mode:photo",
            Mode::Video => "mode:video",
        }
    }

    pub fn from_tag(tag: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.tag() == tag)
    }
}

/// The file name Camera2 gives a video started at `at`.
pub fn video_name(at: NaiveDateTime) -> String {
    format!("VID_{}.mp4", at.format("%Y%m%d_%H%M%S"))
}

/// Encodes `ms` of the synthetic frame (with silence) and stores it under [`VIDEO_DIR`] as the
/// video started at `started`; a name already taken gets Camera2's `_1`, `_2` … suffix. Returns
/// the Android path written.
pub fn save(
    sys: &mut System,
    front: bool,
    started: NaiveDateTime,
    ms: u64,
) -> std::io::Result<String> {
    let base = video_name(started);
    let stem = base.trim_end_matches(".mp4");
    let (android, host) = (0..100)
        .map(|n| match n {
            0 => format!("{VIDEO_DIR}/{base}"),
            n => format!("{VIDEO_DIR}/{stem}_{n}.mp4"),
        })
        .filter_map(|p| sys.host_path(&p).map(|h| (p, h)))
        .find(|(_, h)| !h.exists())
        .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::AlreadyExists))?;
    let picture = h264::Yuv420::from_rgb(
        u32::from(FRAME_WIDTH),
        u32::from(FRAME_HEIGHT),
        &frame_rgb(front),
    );
    let data = mp4::write(
        &[
            mp4::Track::still_video(&picture, ms, FPS),
            mp4::Track::silence(aac::Format::DEFAULT, ms),
        ],
        started.and_utc().timestamp(),
    );
    if let Some(dir) = host.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&host, data)?;
    // The file closes when recording stops: that is its modification time.
    let now = sys.clock.now();
    sys.file_times.stamp(&android, now);
    Ok(android)
}

/// The mode drawer over the left of the screen: one row per mode, the current one highlighted.
pub fn mode_list(sys: &System, current: Mode) -> View {
    let m = &sys.metrics;
    let c = m.content;
    let panel = Bounds::new(c.left, c.top, c.left + c.width() * 3 / 4, c.bottom);
    let row_h = m.dp(72.0);
    let mut list = View::new(class::FRAME_LAYOUT, c)
        .id(id("mode_list_layout"))
        .on_click("mode_list_close")
        .child(
            View::new(class::LINEAR_LAYOUT, panel)
                .id(id("mode_list"))
                .style(Style {
                    background: Some([33, 33, 33, 235]),
                    ..Style::default()
                }),
        );
    let mut y = panel.top + m.dp(24.0);
    for mode in Mode::ALL {
        let row = Bounds::new(panel.left, y, panel.right, y + row_h);
        y += row_h;
        let icon = m.dp(32.0);
        let icon_box = Bounds::new(
            row.left + m.dp(24.0),
            row.top + (row_h - icon) / 2,
            row.left + m.dp(24.0) + icon,
            row.top + (row_h + icon) / 2,
        );
        let colour = if mode == current {
            [0x4F, 0xC3, 0xF7, 255]
        } else {
            [255, 255, 255, 255]
        };
        list = list.child(
            View::new(class::FRAME_LAYOUT, row)
                .id(id("mode_selector_item"))
                .on_click(mode.tag())
                .selected(mode == current)
                .child(
                    View::new(class::IMAGE_VIEW, icon_box)
                        .id(id("selector_icon"))
                        .style(Style {
                            icon: Some(mode.icon()),
                            text_color: Some(colour),
                            ..Style::default()
                        }),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        Bounds::new(icon_box.right + m.dp(24.0), row.top, row.right, row.bottom),
                    )
                    .id(id("selector_text"))
                    .text(tr(sys, mode.label()))
                    .style(Style {
                        text_size_sp: Some(18.0),
                        text_color: Some(colour),
                        ..Style::default()
                    }),
                ),
        );
    }
    list
}

/// The recording timer at the top of the preview: a red dot and the time recorded.
pub fn recording_time(sys: &System, preview: Bounds, ms: u64) -> View {
    let m = &sys.metrics;
    let h = m.dp(36.0);
    let w = m.dp(112.0);
    let cx = (preview.left + preview.right) / 2;
    let b = Bounds::new(
        cx - w / 2,
        preview.top + m.dp(16.0),
        cx + w / 2,
        preview.top + m.dp(16.0) + h,
    );
    View::new(class::TEXT_VIEW, b)
        .id(id("recording_time"))
        .text(format_elapsed(ms))
        .style(Style {
            background: Some([0, 0, 0, 128]),
            corner_radius: h / 2,
            text_color: Some([255, 255, 255, 255]),
            text_size_sp: Some(16.0),
            center_text: true,
            ..Style::default()
        })
}

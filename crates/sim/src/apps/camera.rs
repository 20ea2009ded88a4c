//! Camera (com.android.camera2): AOSP Camera2 as the emulator system images ship it, the app
//! AndroidWorld opens as "camera" (`com.android.camera2/com.android.camera.CameraLauncher`, an
//! activity-alias whose target, CameraActivity, is what the activity manager reports).
//!
//! Its photo viewfinder: the preview (a TextureView, 4:3 under the status bar), the bottom bar
//! with the shutter, and the mode options behind the three-dot toggle (flash, front/back camera,
//! grid lines), each a MultiToggleImageButton whose content-desc names its current state. The
//! shutter stores a JPEG `IMG_yyyyMMdd_HHmmss.jpg` in `Pictures` of shared storage, where Camera2
//! (2.0.002) saves photos on Android 12 and later images and the folder AndroidWorld's
//! CameraTakePhoto lists (`PHOTOS_DATA`), drawn from the emulator's synthetic camera frame rather
//! than a scene.
//!
//! The phone is in the state AndroidWorld's setup leaves it: Camera2 holds its default camera,
//! microphone and storage grants and AndroidWorld granted location and clicked through the
//! first-run prompt, so the viewfinder opens straight away. A swipe from the left opens the mode
//! drawer (Camera, Video); video mode records with the same shutter ([`video`]). The filmstrip and
//! the settings screen are not modelled.

mod video;

use std::time::Duration;

use chrono::NaiveDateTime;

use crate::app::{App, AppInfo, UiEvent};
use crate::locale;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

pub const PACKAGE: &str = "com.android.camera2";
/// The launcher's entry: an `<activity-alias>` of [`ACTIVITY`].
pub const LAUNCH_ACTIVITY: &str = "com.android.camera.CameraLauncher";
/// The activity that runs (ActivityRecord names an alias's target).
pub const ACTIVITY: &str = "com.android.camera.CameraActivity";
/// Where photos go: `Environment.DIRECTORY_PICTURES` of shared storage, beside videos in `Movies`
/// ([`VIDEO_DIR`]), not the `DCIM/Camera` of older Camera2 builds' `Storage.DIRECTORY`.
pub const PHOTO_DIR: &str = "/sdcard/Pictures";
pub use video::{video_name, VIDEO_DIR};

/// The synthetic frame's size: the emulator's virtual back camera at 640×480 (4:3).
const FRAME_WIDTH: u16 = 640;
const FRAME_HEIGHT: u16 = 480;

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: LAUNCH_ACTIVITY,
        create: |_| Box::new(Camera::default()),
        install: |_| {},
        // Not on a fresh Pixel's home screen; in the app drawer.
        on_home_screen: false,
    }
}

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

/// `flash_toggle_button`'s states in the order a tap cycles them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Flash {
    #[default]
    Off,
    Auto,
    On,
}

impl Flash {
    fn next(self) -> Flash {
        match self {
            Flash::Off => Flash::Auto,
            Flash::Auto => Flash::On,
            Flash::On => Flash::Off,
        }
    }

    fn desc(self) -> &'static str {
        match self {
            Flash::Off => "accessibility_flash_off",
            Flash::Auto => "accessibility_flash_auto",
            Flash::On => "accessibility_flash_on",
        }
    }
}

/// A video being recorded: when it started on the wall clock (its file's name) and on the
/// uptime clock (its length).
#[derive(Debug, Clone)]
struct Recording {
    started: NaiveDateTime,
    since: Duration,
}

#[derive(Debug, Clone, Default)]
struct Camera {
    front: bool,
    flash: Flash,
    grid_lines: bool,
    /// The mode options row is open (the three-dot toggle was tapped).
    options_open: bool,
    mode: video::Mode,
    /// The mode drawer is open (a swipe from the left).
    mode_list_open: bool,
    recording: Option<Recording>,
}

/// The file name Camera2 gives a photo taken at `at` (`IMG_yyyyMMdd_HHmmss.jpg`).
pub fn photo_name(at: NaiveDateTime) -> String {
    format!("IMG_{}.jpg", at.format("%Y%m%d_%H%M%S"))
}

impl Camera {
    /// Takes a photo: encodes the current frame and stores it under [`PHOTO_DIR`]. A second shot
    /// in the same second gets Camera2's `_1`, `_2` … suffix rather than overwriting the first.
    fn take_photo(&self, sys: &mut System) {
        let now = sys.clock.now();
        let base = photo_name(now);
        let stem = base.trim_end_matches(".jpg");
        let path = (0..100)
            .map(|n| match n {
                0 => format!("{PHOTO_DIR}/{base}"),
                n => format!("{PHOTO_DIR}/{stem}_{n}.jpg"),
            })
            .find(|p| sys.host_path(p).is_some_and(|h| !h.exists()));
        let Some((android, host)) = path.and_then(|p| sys.host_path(&p).map(|h| (p, h))) else {
            return;
        };
        let result = frame_jpeg(self.front).and_then(|bytes| {
            if let Some(dir) = host.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&host, bytes)
        });
        match result {
            Ok(()) => sys.log(
                crate::system::pid::SYSTEM_SERVER,
                'I',
                "CAM_PhotoModule",
                format!("saved {android}"),
            ),
            Err(e) => sys.log(
                crate::system::pid::SYSTEM_SERVER,
                'E',
                "CAM_PhotoModule",
                format!("could not save {android}: {e}"),
            ),
        }
    }

    /// The shutter in video mode: starts a recording, or stops it and stores the video.
    fn video_shutter(&mut self, sys: &mut System) {
        let Some(rec) = self.recording.take() else {
            self.options_open = false;
            self.recording = Some(Recording {
                started: sys.clock.now(),
                since: sys.clock.uptime(),
            });
            return;
        };
        let ms = sys.clock.uptime().saturating_sub(rec.since).as_millis() as u64;
        let (level, message) = match video::save(sys, self.front, rec.started, ms) {
            Ok(path) => ('I', format!("saved {path} ({ms} ms)")),
            Err(e) => ('E', format!("could not save video: {e}")),
        };
        sys.log(
            crate::system::pid::SYSTEM_SERVER,
            level,
            "CAM_VideoModule",
            message,
        );
    }
}

/// The emulator's synthetic camera frame, RGB: a colour gradient, tinted differently for the
/// front camera, so two shots of the two cameras differ as real ones would.
fn frame_rgb(front: bool) -> Vec<u8> {
    let (w, h) = (usize::from(FRAME_WIDTH), usize::from(FRAME_HEIGHT));
    let mut pixels = Vec::with_capacity(w * h * 3);
    for y in 0..h {
        for x in 0..w {
            let r = (x * 255 / w) as u8;
            let g = (y * 255 / h) as u8;
            pixels.extend_from_slice(&[r, g, if front { 200 } else { 90 }]);
        }
    }
    pixels
}

/// The synthetic frame as a JPEG.
fn frame_jpeg(front: bool) -> std::io::Result<Vec<u8>> {
    let pixels = frame_rgb(front);
    let mut out = Vec::new();
    jpeg_encoder::Encoder::new(&mut out, 85)
        .encode(
            &pixels,
            FRAME_WIDTH,
            FRAME_HEIGHT,
            jpeg_encoder::ColorType::Rgb,
        )
        .map_err(std::io::Error::other)?;
    Ok(out)
}

impl App for Camera {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        ACTIVITY.to_string()
    }

    fn render(&self, sys: &System) -> View {
        let m = sys.metrics;
        let c = m.content;
        let black = [0, 0, 0, 255];
        let white = [255, 255, 255, 255];
        // The shutter's bar sits below a 4:3 preview, or beside it on a landscape screen (a
        // tablet, as Camera2 lays out there), and always keeps room for the shutter.
        let bar_room = m.dp(96.0);
        let landscape = c.width() > c.height();
        let preview = if landscape {
            Bounds::new(
                c.left,
                c.top,
                (c.left + c.height() * 4 / 3).min(c.right - bar_room),
                c.bottom,
            )
        } else {
            Bounds::new(
                c.left,
                c.top,
                c.right,
                (c.top + c.width() * 4 / 3).min(c.bottom - bar_room),
            )
        };
        let mut app_root = View::new(class::FRAME_LAYOUT, c)
            .id(id("camera_app_root"))
            .child(
                View::new(class::VIEW, preview)
                    .id(id("preview_content"))
                    .on_click("preview")
                    .style(Style {
                        background: Some(if self.front {
                            [70, 60, 90, 255]
                        } else {
                            [60, 80, 70, 255]
                        }),
                        ..Style::default()
                    }),
            );
        if self.grid_lines {
            let line = m.dp(1.0).max(1);
            let grid = (1..3).flat_map(|i| {
                let x = preview.left + preview.width() * i / 3;
                let y = preview.top + preview.height() * i / 3;
                [
                    Bounds::new(x, preview.top, x + line, preview.bottom),
                    Bounds::new(preview.left, y, preview.right, y + line),
                ]
            });
            let mut lines = View::new(class::VIEW, preview).id(id("grid_lines"));
            for b in grid {
                lines = lines.child(View::new(class::VIEW, b).style(Style {
                    background: Some([255, 255, 255, 140]),
                    ..Style::default()
                }));
            }
            app_root = app_root.child(lines);
        }

        // The mode options sit along the preview's bottom edge, the toggle at its right end.
        let button = m.dp(48.0);
        let row_top = preview.bottom - m.dp(8.0) - button;
        let overlay = Bounds::new(preview.left, row_top, preview.right, preview.bottom);
        let mut options = View::new(class::FRAME_LAYOUT, overlay).id(id("mode_options_overlay"));
        if self.options_open {
            let toggles = [
                ("flash_toggle_button", tr(sys, self.flash.desc()), "flash"),
                (
                    "camera_toggle_button",
                    tr(
                        sys,
                        if self.front {
                            "accessibility_front_camera"
                        } else {
                            "accessibility_back_camera"
                        },
                    ),
                    "camera_toggle",
                ),
                (
                    "grid_lines_toggle_button",
                    tr(
                        sys,
                        if self.grid_lines {
                            "accessibility_grid_on"
                        } else {
                            "accessibility_grid_off"
                        },
                    ),
                    "grid_lines",
                ),
            ];
            let cell = overlay.width() / toggles.len() as i32;
            let mut row = View::new(class::LINEAR_LAYOUT, overlay).id(id("mode_options"));
            for (i, (name, desc, tag)) in toggles.into_iter().enumerate() {
                let cx = overlay.left + cell * i as i32 + cell / 2;
                row = row.child(
                    View::new(
                        class::IMAGE_BUTTON,
                        Bounds::new(cx - button / 2, row_top, cx + button / 2, row_top + button),
                    )
                    .id(id(name))
                    .desc(desc)
                    .on_click(tag)
                    .style(Style {
                        icon: Some(match tag {
                            "flash" => "display",
                            "camera_toggle" => "refresh",
                            _ => "apps",
                        }),
                        text_color: Some(white),
                        ..Style::default()
                    }),
                );
            }
            options = options.child(row);
        } else {
            options = options.child(
                View::new(
                    class::IMAGE_VIEW,
                    Bounds::new(
                        overlay.right - m.dp(8.0) - button,
                        row_top,
                        overlay.right - m.dp(8.0),
                        row_top + button,
                    ),
                )
                .id(id("mode_options_toggle"))
                .desc(tr(sys, "accessibility_mode_options"))
                .on_click("options")
                .style(Style {
                    icon: Some("more_horiz"),
                    text_color: Some(white),
                    ..Style::default()
                }),
            );
        }
        app_root = app_root.child(options);

        let bar = if landscape {
            Bounds::new(preview.right, c.top, c.right, c.bottom)
        } else {
            Bounds::new(c.left, preview.bottom, c.right, c.bottom)
        };
        let shutter = m.dp(72.0);
        let (cx, cy) = ((bar.left + bar.right) / 2, (bar.top + bar.bottom) / 2);
        app_root = app_root.child(
            View::new(class::FRAME_LAYOUT, bar)
                .id(id("bottom_bar"))
                .style(Style {
                    background: Some(black),
                    ..Style::default()
                })
                .child(
                    View::new(
                        class::IMAGE_VIEW,
                        Bounds::new(
                            cx - shutter / 2,
                            cy - shutter / 2,
                            cx + shutter / 2,
                            cy + shutter / 2,
                        ),
                    )
                    .id(id("shutter_button"))
                    .desc(tr(sys, "accessibility_shutter_button"))
                    .on_click("shutter")
                    .style(match (self.mode, self.recording.is_some()) {
                        (video::Mode::Photo, _) => Style {
                            background: Some(white),
                            corner_radius: shutter / 2,
                            ..Style::default()
                        },
                        // Video: a red button, showing a stop square while recording.
                        (video::Mode::Video, recording) => Style {
                            background: Some([0xF4, 0x43, 0x36, 255]),
                            corner_radius: shutter / 2,
                            icon: recording.then_some("stop"),
                            text_color: Some(white),
                            ..Style::default()
                        },
                    }),
                ),
        );
        if let Some(rec) = &self.recording {
            let ms = sys.clock.uptime().saturating_sub(rec.since).as_millis() as u64;
            app_root = app_root.child(video::recording_time(sys, preview, ms));
        }
        let mut root = View::new(class::FRAME_LAYOUT, c)
            .id(id("activity_root_view"))
            .style(Style {
                background: Some(black),
                ..Style::default()
            })
            .child(app_root);
        if self.mode_list_open {
            root = root.child(video::mode_list(sys, self.mode));
        }
        root
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let tag = match event {
            UiEvent::Click(tag) => tag.as_str(),
            UiEvent::Back if self.mode_list_open => {
                self.mode_list_open = false;
                return true;
            }
            // Leaving the viewfinder stops a recording and keeps what was recorded.
            UiEvent::Back if self.recording.is_some() => {
                self.video_shutter(sys);
                return false;
            }
            _ => return false,
        };
        if self.mode_list_open {
            match video::Mode::from_tag(tag) {
                Some(mode) => self.mode = mode,
                None if tag == "mode_list_close" || tag == crate::app::swipe::LEFT => {}
                None => return false,
            }
            self.mode_list_open = false;
            return true;
        }
        match tag {
            "shutter" => match self.mode {
                video::Mode::Photo => self.take_photo(sys),
                video::Mode::Video => self.video_shutter(sys),
            },
            crate::app::swipe::RIGHT if self.recording.is_none() => {
                self.options_open = false;
                self.mode_list_open = true;
            }
            "options" => self.options_open = true,
            // A tap on the preview closes the options row (and focuses there, which has no
            // visible effect on the synthetic frame).
            "preview" => self.options_open = false,
            "flash" => self.flash = self.flash.next(),
            "camera_toggle" => self.front = !self.front,
            "grid_lines" => self.grid_lines = !self.grid_lines,
            _ => return false,
        }
        true
    }
}

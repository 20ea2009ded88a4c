//! Simple Draw Pro (`com.simplemobiletools.draw.pro`, the version code 79 AndroidWorld installs):
//! MainActivity's canvas (`my_canvas`), which a finger draws on (each swipe a stroke in the
//! brush's colour and width, painted into the canvas bitmap), Undo, Clear, and Save, which opens
//! SaveImageDialog (`dialog_save_image.xml`): the folder (`save_image_path`, "Internal/Simple
//! Draw" until changed through Simple Commons' folder picker), the file name (prefilled
//! `image_<date and time>`) and the format (PNG, SVG or JPG). OK writes
//! `<folder>/<name>.<extension>`: the canvas bitmap as PNG or JPEG, or its strokes as SVG paths
//! over the background, as the app's `Svg.saveSvg` writes them.
//!
//! The drawing lives in the activity (the real app keeps its paths in the view, and `pm clear`
//! or a force stop loses them); the saved files are the phone's ([`storage`]).

use std::io::Cursor;

use chrono::NaiveDateTime;

use crate::app::{App, AppInfo, UiEvent};
use crate::apps::communication::{self, at, palette, text_style};
use crate::apps::folder_picker::{FolderPicker, ROOT};
use crate::apps::storage;
use crate::apps::widgets::{
    button, columns, dialog_card, dialog_frame, inset, with_card_children, DialogResult, Rows,
};
use crate::locale;
use crate::render::{sdf, Canvas};
use crate::system::{Request, System};
use crate::view::{class, Picture, Style, View};
use droidmcp_geom::{Bounds, Point};

pub const PACKAGE: &str = "com.simplemobiletools.draw.pro";
pub const MAIN_ACTIVITY: &str = "com.simplemobiletools.draw.pro.activities.MainActivity";
/// SaveImageDialog's folder when none was chosen: `internalStoragePath/Simple Draw`.
pub const DEFAULT_FOLDER: &str = "/sdcard/Simple Draw";
const PID: u32 = 3702;
const LOG_TAG: &str = "SimpleDraw";
/// The brush as the app starts: black, 10dp wide, on a white background.
const BRUSH: [u8; 4] = [0, 0, 0, 255];
const BACKGROUND: [u8; 4] = [255, 255, 255, 255];
const BRUSH_DP: f32 = 10.0;

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: MAIN_ACTIVITY,
        create: |sys| Box::new(Draw::created(sys)),
        install: |_| {},
        on_home_screen: false,
    }
}

/// The formats SaveImageDialog offers, in its radio group's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
    Jpg,
}

impl Format {
    const ALL: [Format; 3] = [Format::Png, Format::Svg, Format::Jpg];

    fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Svg => "svg",
            Format::Jpg => "jpg",
        }
    }
}

/// One straight piece of a stroke, in canvas px.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    pub from: (f32, f32),
    pub to: (f32, f32),
    pub width: f32,
    pub color: [u8; 4],
}

#[derive(Debug, Clone, PartialEq)]
struct SaveDialog {
    folder: String,
    name: String,
    format: Format,
    error: Option<&'static str>,
    /// The folder picker opened from the path.
    picker: Option<FolderPicker>,
}

#[derive(Debug, Clone)]
struct Draw {
    strokes: Vec<Segment>,
    /// The strokes painted on the background, the size of the canvas view.
    bitmap: Picture,
    save: Option<SaveDialog>,
    /// The folder the last save went to (`config.lastSaveFolder`).
    last_folder: Option<String>,
}

/// The canvas view's bounds: the content under the toolbar, over the bottom tool row.
fn canvas_bounds(sys: &System) -> Bounds {
    let m = sys.metrics;
    let c = m.content;
    Bounds::new(c.left, c.top + m.dp(64.0), c.right, c.bottom - m.dp(56.0))
}

/// The blank canvas of `b`'s size.
fn blank(b: Bounds) -> image::RgbaImage {
    image::RgbaImage::from_pixel(
        b.width().max(1) as u32,
        b.height().max(1) as u32,
        image::Rgba(BACKGROUND),
    )
}

/// Paints `segments` onto `img`.
fn paint(img: image::RgbaImage, segments: &[Segment]) -> image::RgbaImage {
    let mut canvas = Canvas::over(img);
    for s in segments {
        let hw = s.width / 2.0;
        let area = Bounds::new(
            (s.from.0.min(s.to.0) - hw - 1.0).floor() as i32,
            (s.from.1.min(s.to.1) - hw - 1.0).floor() as i32,
            (s.from.0.max(s.to.0) + hw + 2.0).ceil() as i32,
            (s.from.1.max(s.to.1) + hw + 2.0).ceil() as i32,
        );
        canvas.fill_sdf(area, s.color, |x, y| sdf::segment(x, y, s.from, s.to, hw));
    }
    canvas.into_image()
}

/// The strokes as Simple Draw's SVG: the background, then each stroke as a round-capped path.
pub fn svg(width: u32, height: u32, segments: &[Segment]) -> String {
    let hex = |c: [u8; 4]| format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
    let mut out = format!(
        "<svg width=\"{width}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">\
         <rect width=\"{width}\" height=\"{height}\" fill=\"{}\"/>",
        hex(BACKGROUND)
    );
    for s in segments {
        out.push_str(&format!(
            "<path d=\"M{:.1},{:.1} L{:.1},{:.1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{:.1}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
            s.from.0, s.from.1, s.to.0, s.to.1, hex(s.color), s.width
        ));
    }
    out.push_str("</svg>");
    out
}

/// The bytes a save writes in `format`.
pub fn encode(
    bitmap: &image::RgbaImage,
    segments: &[Segment],
    format: Format,
) -> Result<Vec<u8>, image::ImageError> {
    let mut out = Cursor::new(Vec::new());
    match format {
        Format::Png => bitmap.write_to(&mut out, image::ImageFormat::Png)?,
        Format::Jpg => image::DynamicImage::ImageRgba8(bitmap.clone())
            .to_rgb8()
            .write_to(&mut out, image::ImageFormat::Jpeg)?,
        Format::Svg => return Ok(svg(bitmap.width(), bitmap.height(), segments).into_bytes()),
    }
    Ok(out.into_inner())
}

/// `getCurrentFormattedDateTime`'s name for a new drawing: `image_yyyy_MM_dd_HH_mm_ss`.
fn default_name(now: NaiveDateTime) -> String {
    format!("image_{}", now.format("%Y_%m_%d_%H_%M_%S"))
}

/// Simple Commons' `humanizePath`: shared storage's root reads "Internal".
fn humanize(sys: &System, path: &str) -> String {
    match path.strip_prefix(ROOT) {
        Some(rest) => format!("{}{}", tr(sys, "internal"), rest),
        None => path.to_string(),
    }
}

impl Draw {
    fn created(sys: &System) -> Draw {
        Draw {
            strokes: Vec::new(),
            bitmap: Picture::new(blank(canvas_bounds(sys))),
            save: None,
            last_folder: None,
        }
    }

    fn stroke(&mut self, sys: &System, from: Point, to: Point) {
        let b = canvas_bounds(sys);
        let local = |p: Point| ((p.x - b.left) as f32, (p.y - b.top) as f32);
        let s = Segment {
            from: local(from),
            to: local(to),
            width: sys.metrics.dp(BRUSH_DP) as f32,
            color: BRUSH,
        };
        self.strokes.push(s);
        let img = std::mem::take(std::sync::Arc::make_mut(&mut self.bitmap.0));
        self.bitmap = Picture::new(paint(img, &[s]));
    }

    /// Paints the strokes afresh (after an undo or a clear).
    fn repaint(&mut self, sys: &System) {
        self.bitmap = Picture::new(paint(blank(canvas_bounds(sys)), &self.strokes));
    }

    fn open_save(&mut self, sys: &mut System) {
        self.save = Some(SaveDialog {
            folder: self
                .last_folder
                .clone()
                .unwrap_or_else(|| DEFAULT_FOLDER.to_string()),
            name: default_name(sys.clock.now()),
            format: Format::Png,
            error: None,
            picker: None,
        });
        sys.request(Request::Focus {
            tag: "save_name".to_string(),
        });
    }

    fn handle_save(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Some(dialog) = self.save.as_mut() else {
            return false;
        };
        if let Some(picker) = dialog.picker.as_mut() {
            match picker.handle(event, sys) {
                Some(DialogResult::Ok(dir)) => {
                    dialog.folder = dir;
                    dialog.picker = None;
                }
                Some(DialogResult::Cancel) => dialog.picker = None,
                Some(DialogResult::Pending) => sys.request(Request::ResetScroll {
                    tag: "picker_list".to_string(),
                }),
                None => return false,
            }
            return true;
        }
        match event {
            UiEvent::Back => self.save = None,
            UiEvent::TextChanged { tag, text } if tag == "save_name" => dialog.name = text.clone(),
            UiEvent::Click(tag) => match tag.as_str() {
                "save_name" => {}
                "save_path" => {
                    // The picker takes focus from the name field, so the keyboard goes down.
                    dialog.picker = Some(FolderPicker::new(sys, &dialog.folder));
                    sys.request(Request::ClearFocus);
                }
                "save_cancel" => {
                    self.save = None;
                    sys.request(Request::ClearFocus);
                }
                "save_ok" => self.save_drawing(sys),
                other => {
                    let Some(f) = Format::ALL
                        .into_iter()
                        .find(|f| other == format!("format:{}", f.extension()))
                    else {
                        return false;
                    };
                    dialog.format = f;
                }
            },
            _ => return false,
        }
        true
    }

    /// SaveImageDialog's OK: checks the name, then writes `<folder>/<name>.<extension>`.
    fn save_drawing(&mut self, sys: &mut System) {
        let Some(dialog) = self.save.as_mut() else {
            return;
        };
        let name = dialog.name.trim().to_string();
        if name.is_empty() {
            dialog.error = Some("empty_name");
            return;
        }
        let file = format!("{name}.{}", dialog.format.extension());
        if !storage::valid_name(&file) {
            dialog.error = Some("invalid_name");
            return;
        }
        let path = storage::join(&dialog.folder, &file);
        let (folder, format) = (dialog.folder.clone(), dialog.format);
        let written = encode(&self.bitmap.0, &self.strokes, format)
            .map_err(|e| e.to_string())
            .and_then(|bytes| storage::write_bytes(sys, &path, &bytes).map_err(|e| e.to_string()));
        match written {
            Ok(()) => {
                sys.log(PID, 'I', LOG_TAG, format!("saved {path}"));
                self.last_folder = Some(folder);
                self.save = None;
                sys.request(Request::ClearFocus);
            }
            Err(e) => sys.log(PID, 'E', LOG_TAG, format!("cannot save {path}: {e}")),
        }
    }

    fn render_main(&self, sys: &System) -> View {
        let m = sys.metrics;
        let p = palette(sys);
        let c = m.content;
        let bar_area = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
        let actions = vec![
            communication::toolbar_action(sys, bar_area, 2, tr(sys, "save"), "done")
                .id(id("menu_save"))
                .on_click("save"),
            communication::toolbar_action(sys, bar_area, 1, tr(sys, "clear"), "clear")
                .id(id("menu_clear"))
                .on_click("clear"),
            communication::toolbar_action(sys, bar_area, 0, tr(sys, "more_options"), "more"),
        ];
        let bar = communication::toolbar(sys, c, PACKAGE, "", None).children(actions);
        let canvas = canvas_bounds(sys);
        let tools = Bounds::new(c.left, canvas.bottom, c.right, c.bottom);
        let undo = View::new(
            class::IMAGE_VIEW,
            at(tools, m.dp(8.0), m.dp(4.0), m.dp(48.0), m.dp(48.0)),
        )
        .id(id("undo"))
        .desc(tr(sys, "undo"))
        .on_click("undo")
        .enabled(!self.strokes.is_empty())
        .style(Style {
            icon: Some("back"),
            text_color: Some(p.on_surface),
            ..Style::default()
        });
        let color = View::new(
            class::IMAGE_VIEW,
            at(
                tools,
                tools.width() - m.dp(56.0),
                m.dp(8.0),
                m.dp(40.0),
                m.dp(40.0),
            ),
        )
        .id(id("color_picker"))
        .style(Style {
            background: Some(BRUSH),
            corner_radius: m.dp(20.0),
            ..Style::default()
        });
        communication::root(sys)
            .id(id("main_holder"))
            .child(bar)
            .child(
                View::new(class::VIEW, canvas)
                    .id(id("my_canvas"))
                    .drawing("canvas")
                    .style(Style {
                        picture: Some(self.bitmap.clone()),
                        ..Style::default()
                    }),
            )
            .child(undo)
            .child(color)
    }

    fn render_save(&self, sys: &System, dialog: &SaveDialog) -> View {
        let m = sys.metrics;
        let p = palette(sys);
        let card = dialog_card(&m, m.dp(420.0));
        let mut rows = Rows::new(inset(card, m.dp(24.0)));
        let mut children = vec![
            View::new(class::TEXT_VIEW, rows.take(m.sp(36.0)))
                .id("android:id/alertTitle")
                .text(tr(sys, "save_as"))
                .style(text_style(20.0, p.on_surface)),
            View::new(class::TEXT_VIEW, rows.take(m.sp(20.0)))
                .id(id("save_image_path_label"))
                .text(tr(sys, "path"))
                .style(text_style(12.0, p.secondary_text)),
            View::new(class::TEXT_VIEW, rows.take(m.dp(40.0)))
                .id(id("save_image_path"))
                .text(humanize(sys, &dialog.folder))
                .on_click("save_path")
                .style(text_style(16.0, p.on_surface)),
            View::new(class::EDIT_TEXT, rows.take(m.dp(56.0)))
                .id(id("save_image_filename"))
                .text(dialog.name.clone())
                .hint(tr(sys, "filename"))
                .editable("save_name")
                .style(text_style(16.0, p.on_surface)),
        ];
        let radios = columns(rows.take(m.dp(48.0)), 3);
        for (f, b) in Format::ALL.into_iter().zip(radios) {
            let name = match f {
                Format::Png => "png",
                Format::Svg => "svg",
                Format::Jpg => "jpg",
            };
            children.push(
                View::new(class::RADIO_BUTTON, b)
                    .id(id(&format!("save_image_radio_{name}")))
                    .text(tr(sys, name))
                    .on_click(format!("format:{}", f.extension()))
                    .checked(dialog.format == f)
                    .style(text_style(15.0, p.on_surface)),
            );
        }
        if let Some(error) = dialog.error {
            children.push(
                View::new(class::TEXT_VIEW, rows.take(m.sp(24.0)))
                    .id(id("save_image_error"))
                    .text(tr(sys, error))
                    .style(text_style(14.0, [211, 47, 47, 255])),
            );
        }
        rows.take(m.dp(8.0));
        let cols = columns(rows.take(m.dp(48.0)), 4);
        children.push(button(cols[2], tr(sys, "cancel"), "save_cancel").id("android:id/button2"));
        children.push(button(cols[3], tr(sys, "ok"), "save_ok").id("android:id/button1"));
        with_card_children(dialog_frame(&m, card), children)
    }
}

impl App for Draw {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        MAIN_ACTIVITY.to_string()
    }

    fn render(&self, sys: &System) -> View {
        let main = self.render_main(sys);
        match &self.save {
            None => main,
            // The picker is a dialog window of its own over the save dialog's: only the top one
            // is on screen for the dump, as uiautomator dumps the focused window.
            Some(SaveDialog {
                picker: Some(picker),
                ..
            }) => main.child(picker.render(sys, PACKAGE)),
            Some(dialog) => main.child(self.render_save(sys, dialog)),
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        if self.save.is_some() {
            return self.handle_save(event, sys);
        }
        match event {
            UiEvent::Stroke { tag, from, to } if tag == "canvas" => self.stroke(sys, *from, *to),
            UiEvent::Click(tag) if tag == "save" => self.open_save(sys),
            UiEvent::Click(tag) if tag == "undo" => {
                self.strokes.pop();
                self.repaint(sys);
            }
            UiEvent::Click(tag) if tag == "clear" => {
                self.strokes.clear();
                self.repaint(sys);
            }
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line() -> Segment {
        Segment {
            from: (10.0, 10.0),
            to: (90.0, 10.0),
            width: 6.0,
            color: BRUSH,
        }
    }

    #[test]
    fn a_stroke_darkens_the_pixels_along_it_only() {
        let img = paint(blank(Bounds::new(0, 0, 100, 40)), &[line()]);
        assert_eq!(img.get_pixel(50, 10).0, BRUSH);
        assert_eq!(img.get_pixel(50, 30).0, BACKGROUND);
    }

    #[test]
    fn saves_decode_back_in_their_format() {
        let img = paint(blank(Bounds::new(0, 0, 100, 40)), &[line()]);
        for (format, expected) in [
            (Format::Png, image::ImageFormat::Png),
            (Format::Jpg, image::ImageFormat::Jpeg),
        ] {
            let bytes = encode(&img, &[line()], format).unwrap();
            assert_eq!(image::guess_format(&bytes).unwrap(), expected);
            let back = image::load_from_memory(&bytes).unwrap().to_rgba8();
            assert_eq!((back.width(), back.height()), (100, 40));
            assert!(back.get_pixel(50, 10).0[0] < 60);
        }
        let text = String::from_utf8(encode(&img, &[line()], Format::Svg).unwrap()).unwrap();
        assert!(text.starts_with("<svg width=\"100\" height=\"40\""));
        assert!(text.contains("M10.0,10.0 L90.0,10.0"));
    }

    #[test]
    fn new_drawings_are_named_for_the_moment() {
        let t = chrono::NaiveDate::from_ymd_opt(2023, 10, 15)
            .unwrap()
            .and_hms_opt(14, 3, 9)
            .unwrap();
        assert_eq!(default_name(t), "image_2023_10_15_14_03_09");
    }
}

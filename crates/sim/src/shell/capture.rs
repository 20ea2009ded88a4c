//! `uiautomator dump` and `screencap`: the screen as XML and as pixels.

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::ImageEncoder;

use crate::dump;
use crate::framework::Framework;
use crate::render::{self, Scale, Theme};
use droidmcp_device::ShellOutput;

use super::fs;

const UIAUTOMATOR_USAGE: &str = "Usage: uiautomator <subcommand> [options]

Available subcommands:

help: displays help message

runtest: executes UI automation tests
    runtest <class spec> [options]
    <class spec>: <JARS> < -c <CLASSES> | -e class <CLASSES> >
      <JARS>: a list of jar files containing test classes and dependencies. If
        the path is relative, it's assumed to be under /data/local/tmp. Use
        absolute path if the file is elsewhere. Multiple files can be
        specified, separated by space.
      <CLASSES>: a list of test class names to run, separated by comma. To
        a single method, use TestClass#testMethod format. The -e or -c option
        may be repeated. This option is not required and if not provided then
        all the tests in provided jars will be run automatically.
    options:
      --nohup: trap SIG_HUP, so test won't terminate even if parent process
               is terminated, e.g. USB is disconnected.
      -e debug [true|false]: wait for debugger to connect before starting.
      -e runner [CLASS]: use specified test runner class instead. If
        unspecified, framework default runner will be used.
      -e <NAME> <VALUE>: other name-value pairs to be passed to test classes.
        May be repeated.
      -e outputFormat simple | -s: enabled less verbose JUnit style output.

dump: creates an XML dump of current UI hierarchy
    dump [--verbose][file]
      [--compressed]: dumps compressed layout information.
      [file]: the location where the dumped XML should be stored, default is
      /sdcard/window_dump.xml

events: prints out accessibility events until terminated
";

/// The dump of the active window, as `uiautomator dump` writes it.
pub fn dump_xml(fw: &mut Framework, compressed: bool) -> Option<String> {
    if !fw.screen_on {
        return None;
    }
    let window = fw.app_window()?;
    Some(dump::to_xml(&window.root, 0, compressed))
}

pub fn uiautomator(fw: &mut Framework, args: &[String]) -> ShellOutput {
    if args.first().map(String::as_str) != Some("dump") {
        return ShellOutput::ok(UIAUTOMATOR_USAGE);
    }
    let mut compressed = false;
    let mut file = "/sdcard/window_dump.xml".to_string();
    for a in &args[1..] {
        match a.as_str() {
            "--compressed" => compressed = true,
            "--verbose" => {}
            other => file = other.to_string(),
        }
    }
    // Observing never moves the clock: the real tool's wait for accessibility quiet is time the
    // phone spends idle, not time the dump takes out of a virtual clock.
    let Some(xml) = dump_xml(fw, compressed) else {
        return ShellOutput::ok("ERROR: null root node returned by UiTestAutomationBridge.\n");
    };
    if file == "/dev/tty" || file == "/dev/stdout" {
        let mut out = xml.into_bytes();
        out.extend_from_slice(format!("UI hierchary dumped to: {file}\n").as_bytes());
        return ShellOutput::ok(out);
    }
    match fs::write(fw, &file, xml.as_bytes(), false) {
        Ok(()) => ShellOutput::ok(format!("UI hierchary dumped to: {file}\n")),
        Err(e) => ShellOutput::fail(format!("ERROR: could not write dump to {file}: {e}\n"), 1),
    }
}

/// The screen's pixels, RGBA, at the display's size.
pub fn screen_pixels(fw: &mut Framework) -> image::RgbaImage {
    let windows = fw.windows();
    let m = fw.sys.metrics;
    let (w, h) = (m.width.max(1) as u32, m.height.max(1) as u32);
    if !fw.screen_on {
        return image::RgbaImage::from_pixel(w, h, image::Rgba([0, 0, 0, 255]));
    }
    let roots: Vec<_> = windows.into_iter().map(|w| w.root).collect();
    render::render_scaled(
        &roots,
        w,
        h,
        Theme {
            dark: fw.sys.dark_mode(),
        },
        Scale {
            density: m.density,
            font_scale: m.font_scale,
        },
    )
}

/// PNG bytes of an image (fast compression: screenshots are taken often).
pub fn png(img: &image::RgbaImage) -> Vec<u8> {
    let mut out = Vec::new();
    let encoder = PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Sub);
    if encoder
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .is_err()
    {
        out.clear();
    }
    out
}

/// screencap's raw format: width, height, pixel format (1 = RGBA_8888) and colour space (1 = sRGB) as
/// little-endian u32s, then the pixels.
pub fn raw(img: &image::RgbaImage) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + img.as_raw().len());
    for v in [img.width(), img.height(), 1, 1] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(img.as_raw());
    out
}

pub fn screencap(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let mut as_png = false;
    let mut file = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-p" => as_png = true,
            "-h" => return ShellOutput::fail(SCREENCAP_USAGE, 1),
            "-d" => {
                if args.get(i).and_then(|d| d.parse::<u64>().ok()).is_none() {
                    return ShellOutput::fail(SCREENCAP_USAGE, 1);
                }
                i += 1;
            }
            "-a" | "-j" => {}
            s if s.starts_with('-') => return ShellOutput::fail(SCREENCAP_USAGE, 1),
            s => file = Some(s.to_string()),
        }
    }
    if let Some(f) = &file {
        if f.ends_with(".png") {
            as_png = true;
        }
    }
    let img = screen_pixels(fw);
    let bytes = if as_png { png(&img) } else { raw(&img) };
    match file {
        None => ShellOutput::ok(bytes),
        Some(f) => match fs::write(fw, &f, &bytes, false) {
            Ok(()) => ShellOutput::ok(Vec::new()),
            Err(e) => ShellOutput::fail(format!("Error opening file: {f} ({e})\n"), 1),
        },
    }
}

const SCREENCAP_USAGE: &str = "usage: screencap [-hp] [-d display-id] [FILENAME]
   -h: this message
   -p: save the file as a png.
   -d: specify the physical display ID to capture (default: 0)
       see \"dumpsys SurfaceFlinger --display-id\" for valid display IDs.
If FILENAME ends with .png it will be saved as a png.
If FILENAME is not given, the results will be printed to stdout.
";

//! Simple Gallery Pro and Simple Draw Pro on the embedded phone, driven as AndroidWorld and an agent
//! drive them (`am start -W -n`, `uiautomator dump`, `input tap`/`swipe`/`text`) and checked the way
//! AndroidWorld checks them: the files under shared storage (`find`), and the screenshot an agent
//! reads the receipt from.

use droidmcp::hierarchy::Hierarchy;
use droidmcp::sim::Phone;

use crate::sim_system_ui::{find, screen, tap};
use crate::util::{boot, sh};

const GALLERY: &str = "com.simplemobiletools.gallery.pro";
const DRAW: &str = "com.simplemobiletools.draw.pro";

fn tap_node(phone: &Phone, pred: &dyn Fn(&droidmcp::hierarchy::Node) -> bool, what: &str) {
    let h = screen(phone);
    let n = find(&h, pred).unwrap_or_else(|| panic!("no {what} in {}", h.xml));
    tap(phone, n.bounds);
}

fn tap_id_text(phone: &Phone, package: &str, id: &str, text: &str) {
    let rid = format!("{package}:id/{id}");
    tap_node(
        phone,
        &|n| n.resource_id == rid && n.text == text,
        &format!("{id} {text:?}"),
    );
}

fn tap_id(phone: &Phone, id: &str) {
    tap_node(
        phone,
        &|n| n.resource_id == id || n.resource_id.ends_with(&format!(":id/{id}")),
        id,
    );
}

fn screencap(phone: &Phone) -> image::RgbaImage {
    let out = phone.exec("screencap -p");
    assert!(out.success());
    image::load_from_memory(&out.stdout)
        .expect("screencap -p is a PNG")
        .to_rgba8()
}

fn has_id(h: &Hierarchy, id: &str) -> bool {
    h.nodes
        .iter()
        .any(|n| n.resource_id.ends_with(&format!(":id/{id}")))
}

/// A receipt as AndroidWorld's setup leaves it: the image pushed to DCIM, nothing in Download.
fn receipt_phone() -> Phone {
    let phone = boot(7);
    let jpeg = droidmcp::task::text_image::encode(
        "/sdcard/DCIM/receipt_a1b2_sunny_river.jpg",
        "Gadget Gurus Co.\nInnovating the Future\n\n2023-04-11, Webcam, $42.17",
    )
    .unwrap();
    sh(
        &phone,
        "mkdir -p /sdcard/DCIM /sdcard/Download /sdcard/Pictures",
    );
    phone
        .write_file("/sdcard/DCIM/receipt_a1b2_sunny_river.jpg", &jpeg, 0o660)
        .unwrap();
    phone
}

#[test]
fn the_gallery_shows_the_receipt_and_saves_a_copy_in_download() {
    let phone = receipt_phone();
    let out = sh(
        &phone,
        &format!("am start -W -n {GALLERY}/{GALLERY}.activities.MainActivity"),
    );
    assert!(out.contains("Status: ok"), "{out}");
    let folders = screen(&phone);
    let names: Vec<&str> = folders
        .nodes
        .iter()
        .filter(|n| n.resource_id == format!("{GALLERY}:id/dir_name"))
        .map(|n| n.text.as_str())
        .collect();
    // Only folders with images: the empty Download and Pictures are not there.
    assert_eq!(names, ["DCIM"]);
    tap_id_text(&phone, GALLERY, "dir_name", "DCIM");
    tap_id_text(
        &phone,
        GALLERY,
        "medium_name",
        "receipt_a1b2_sunny_river.jpg",
    );
    let viewer = screen(&phone);
    assert!(has_id(&viewer, "gestures_view"), "{}", viewer.xml);

    // The photo is on the screen: dark ink on white paper in the viewer's area, on black.
    let shot = screencap(&phone);
    let (w, h) = shot.dimensions();
    let mid: Vec<[u8; 4]> = (h / 4..h * 3 / 4)
        .step_by(3)
        .flat_map(|y| (0..w).step_by(3).map(move |x| (x, y)))
        .map(|(x, y)| shot.get_pixel(x, y).0)
        .collect();
    let white = mid
        .iter()
        .filter(|p| p[0] > 240 && p[1] > 240 && p[2] > 240)
        .count();
    let ink = mid
        .iter()
        .filter(|p| p[0] < 90 && p[1] < 90 && p[2] < 90)
        .count();
    assert!(
        white > mid.len() / 10,
        "the receipt's paper shows ({white} of {})",
        mid.len()
    );
    assert!(ink > 100, "its text shows ({ink} dark pixels)");

    tap_node(
        &phone,
        &|n| n.content_desc == "More options",
        "More options",
    );
    tap_node(&phone, &|n| n.text == "Copy to", "Copy to");
    // Download holds no image, so PickDirectoryDialog does not offer it.
    let pick = screen(&phone);
    assert!(
        !pick.nodes.iter().any(|n| n.text == "Download"),
        "{}",
        pick.xml
    );
    tap_id(&phone, "android:id/button3");
    tap_id_text(&phone, GALLERY, "breadcrumb_text", "Internal");
    tap_id_text(&phone, GALLERY, "list_item_name", "Download");
    tap_id(&phone, "android:id/button1");

    let found = sh(
        &phone,
        "find /storage/emulated/0/Download -type f -o -type d",
    );
    assert!(
        found
            .lines()
            .any(|l| l == "/storage/emulated/0/Download/receipt_a1b2_sunny_river.jpg"),
        "{found}"
    );
    let original = phone
        .read_file("/sdcard/DCIM/receipt_a1b2_sunny_river.jpg")
        .unwrap();
    let copy = phone
        .read_file("/sdcard/Download/receipt_a1b2_sunny_river.jpg")
        .unwrap();
    assert_eq!(original, copy, "a copy, and the original stays");
    // The copy is in MediaStore, so Download is now one of the gallery's folders.
    sh(&phone, "input keyevent KEYCODE_BACK");
    sh(&phone, "input keyevent KEYCODE_BACK");
    let folders = screen(&phone);
    assert!(
        folders.nodes.iter().any(|n| n.text == "Download"),
        "{}",
        folders.xml
    );
}

#[test]
fn a_drawing_is_saved_where_and_as_the_dialog_says() {
    let phone = boot(3);
    sh(&phone, "mkdir -p /sdcard/Pictures");
    let out = sh(
        &phone,
        &format!("am start -W -n {DRAW}/{DRAW}.activities.MainActivity"),
    );
    assert!(out.contains("Status: ok"), "{out}");
    let h = screen(&phone);
    let canvas = find(&h, &|n| n.resource_id == format!("{DRAW}:id/my_canvas"))
        .expect("the canvas")
        .bounds;
    let y = canvas.top + canvas.height() / 2;
    sh(
        &phone,
        &format!(
            "input swipe {} {y} {} {y} 300",
            canvas.left + 100,
            canvas.right - 100
        ),
    );

    tap_id(&phone, "menu_save");
    let dialog = screen(&phone);
    let path = find(&dialog, &|n| {
        n.resource_id == format!("{DRAW}:id/save_image_path")
    })
    .unwrap();
    assert_eq!(path.text, "Internal/Simple Draw");
    let name = find(&dialog, &|n| {
        n.resource_id == format!("{DRAW}:id/save_image_filename")
    })
    .unwrap();
    assert!(name.text.starts_with("image_"), "{}", name.text);

    tap_id(&phone, "save_image_path");
    tap_id_text(&phone, DRAW, "list_item_name", "Pictures");
    tap_id(&phone, "android:id/button1");
    let dialog = screen(&phone);
    let path = find(&dialog, &|n| {
        n.resource_id == format!("{DRAW}:id/save_image_path")
    })
    .unwrap();
    assert_eq!(path.text, "Internal/Pictures");
    // The typed name replaces the prefilled one (ADBKeyboard's clear, then the text).
    let field = find(&dialog, &|n| {
        n.resource_id == format!("{DRAW}:id/save_image_filename")
    })
    .unwrap();
    tap(&phone, field.bounds);
    let len = field.text.chars().count();
    for _ in 0..len {
        sh(&phone, "input keyevent KEYCODE_DEL");
    }
    sh(&phone, "input text dolor_copy_fancy_cat");
    tap_id(&phone, "save_image_radio_jpg");
    tap_id(&phone, "android:id/button1");

    let found = sh(
        &phone,
        "find /storage/emulated/0/Pictures -type f -o -type d",
    );
    assert!(
        found
            .lines()
            .any(|l| l == "/storage/emulated/0/Pictures/dolor_copy_fancy_cat.jpg"),
        "{found}"
    );
    let bytes = phone
        .read_file("/sdcard/Pictures/dolor_copy_fancy_cat.jpg")
        .unwrap();
    assert_eq!(
        image::guess_format(&bytes).unwrap(),
        image::ImageFormat::Jpeg
    );
    let img = image::load_from_memory(&bytes).unwrap().to_rgb8();
    assert_eq!(
        (img.width() as i32, img.height() as i32),
        (canvas.width(), canvas.height())
    );
    let row = (canvas.height() / 2) as u32;
    assert!(
        img.get_pixel(img.width() / 2, row).0[0] < 80,
        "the stroke is in the file"
    );
    assert!(
        img.get_pixel(img.width() / 2, row + 200).0[0] > 200,
        "and nothing else"
    );
}

//! Files (DocumentsUI) on the embedded phone, driven over adb as an agent drives it: folders under
//! the breadcrumb, the selection's Move/Rename/Delete, MediaStore following what it changes, and the
//! navigation drawer's roots with the line DirectoryFragment logs for each directory shown (what
//! B-MoCA's Files tasks read).

use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const DOCS: &str = "com.google.android.documentsui";

fn tap_id(phone: &Phone, name: &str) {
    let h = screen(phone);
    tap(phone, by_id(&h, name).bounds);
}

/// DocumentsUI's list under the breadcrumb: the names shown.
fn documents(phone: &Phone) -> Vec<String> {
    screen(phone)
        .nodes
        .iter()
        .filter(|n| n.resource_id == "android:id/title")
        .map(|n| n.text.clone())
        .collect()
}

fn tap_document(phone: &Phone, name: &str) {
    let h = screen(phone);
    let n = find(&h, &|n| {
        n.resource_id == "android:id/title" && n.text == name
    })
    .unwrap_or_else(|| panic!("no {name:?} in {}", h.xml));
    tap(phone, n.bounds);
}

fn long_press_document(phone: &Phone, name: &str) {
    let h = screen(phone);
    let n = find(&h, &|n| {
        n.resource_id == "android:id/title" && n.text == name
    })
    .unwrap_or_else(|| panic!("no {name:?} in {}", h.xml));
    let c = n.bounds.center();
    sh(
        phone,
        &format!("input swipe {} {} {} {} 800", c.x, c.y, c.x, c.y),
    );
}

#[test]
fn files_moves_renames_and_deletes_what_media_store_then_lists() {
    let phone = boot(7);
    sh(&phone, "find /sdcard -mindepth 1 -type f -delete");
    sh(
        &phone,
        "mkdir -p /sdcard/Download /sdcard/Music /sdcard/Movies",
    );
    sh(&phone, "echo a > /sdcard/Download/song.mp3");
    sh(&phone, "echo b > /sdcard/Download/trailer.mp4");
    let out = sh(
        &phone,
        &format!("am start -W -n {DOCS}/com.android.documentsui.files.FilesActivity"),
    );
    assert!(out.contains("Status: ok"), "{out}");
    // The root is titled by the device name and lists folders first.
    let h = screen(&phone);
    let crumb = by_id(&h, &format!("{DOCS}:id/breadcrumb_text"));
    assert_eq!(
        crumb.text,
        sh(&phone, "settings get global device_name").trim()
    );
    tap_document(&phone, "Download");
    assert_eq!(documents(&phone), vec!["song.mp3", "trailer.mp4"]);
    // Move song.mp3 to Music through "Move to…".
    long_press_document(&phone, "song.mp3");
    tap_id(&phone, &format!("{DOCS}:id/action_menu_move_to"));
    tap_document(&phone, "Music");
    tap_id(&phone, "android:id/button1");
    assert_eq!(documents(&phone), vec!["trailer.mp4"]);
    assert_eq!(sh(&phone, "cat /sdcard/Music/song.mp3"), "a\n");
    // Rename the trailer, then delete it.
    long_press_document(&phone, "trailer.mp4");
    tap_id(&phone, &format!("{DOCS}:id/action_menu_rename"));
    for _ in 0.."trailer.mp4".len() {
        sh(&phone, "input keyevent KEYCODE_DEL");
    }
    sh(&phone, "input text teaser.mp4");
    tap_id(&phone, "android:id/button1");
    assert_eq!(sh(&phone, "ls /sdcard/Download"), "teaser.mp4\n");
    long_press_document(&phone, "teaser.mp4");
    tap_id(&phone, &format!("{DOCS}:id/action_menu_delete"));
    tap_id(&phone, "android:id/button1");
    assert_eq!(sh(&phone, "ls /sdcard/Download"), "");
    // MediaStore follows: the Download collection is empty, the song is in Music.
    let rows = sh(
        &phone,
        "content query --uri content://media/external/file --projection _data",
    );
    assert!(
        rows.contains("_data=/storage/emulated/0/Music/song.mp3"),
        "{rows}"
    );
    assert!(!rows.contains("/Download/"), "{rows}");
}

fn directory_lines(phone: &Phone) -> String {
    sh(phone, "logcat -d -s DirectoryFragment:D")
}

fn open_root(phone: &Phone, title: &str) {
    let h = screen(phone);
    let show = find(&h, &|n| n.content_desc == "Show roots")
        .unwrap_or_else(|| panic!("no Show roots in {}", h.xml));
    tap(phone, show.bounds);
    let h = screen(phone);
    let root = find(&h, &|n| {
        n.resource_id == "android:id/title" && n.text == title
    })
    .unwrap_or_else(|| panic!("no root {title:?} in {}", h.xml));
    tap(phone, root.bounds);
}

#[test]
fn files_roots_list_each_kind_of_media_and_log_each_directory_shown() {
    let phone = boot(7);
    sh(&phone, "find /sdcard -mindepth 1 -type f -delete");
    sh(
        &phone,
        "mkdir -p /sdcard/DCIM/Camera /sdcard/Music /sdcard/Movies /sdcard/Download",
    );
    sh(&phone, "echo i > /sdcard/DCIM/Camera/beach.jpg");
    sh(&phone, "echo s > /sdcard/Music/song.mp3");
    sh(&phone, "echo v > /sdcard/Movies/clip.mp4");
    sh(&phone, "echo d > /sdcard/Download/notes.txt");
    sh(&phone, "logcat -c");
    let out = sh(
        &phone,
        &format!("am start -W -n {DOCS}/com.android.documentsui.files.FilesActivity"),
    );
    assert!(out.contains("Status: ok"), "{out}");
    // The storage root it opens on, by the external storage provider's document URI.
    let log = directory_lines(&phone);
    assert!(
        log.contains("D DirectoryFragment: Showing directory: Document{docId=primary:, name=")
            && log.contains(
                "derivedUri=content://com.android.externalstorage.documents/document/primary%3A}"
            ),
        "{log}"
    );
    // The drawer lists the roots in DocumentsUI's order, the device's storage last.
    let h = screen(&phone);
    let show = find(&h, &|n| n.content_desc == "Show roots").expect("Show roots");
    tap(&phone, show.bounds);
    let device = sh(&phone, "settings get global device_name");
    assert_eq!(
        documents(&phone),
        vec!["Images", "Videos", "Audio", "Downloads", device.trim()]
    );
    sh(&phone, "input keyevent KEYCODE_BACK");
    // Each media root lists its kind from anywhere in shared storage, and says which it shows.
    for (title, file, uri) in [
        (
            "Images",
            "beach.jpg",
            "media.documents/document/images_root",
        ),
        ("Videos", "clip.mp4", "media.documents/document/videos_root"),
        ("Audio", "song.mp3", "media.documents/document/audio_root"),
        (
            "Downloads",
            "notes.txt",
            "downloads.documents/document/downloads",
        ),
    ] {
        open_root(&phone, title);
        assert_eq!(documents(&phone), vec![file], "{title}");
        let h = screen(&phone);
        assert!(
            find(&h, &|n| n.text == title).is_some(),
            "{title} titles the list: {}",
            h.xml
        );
        let log = directory_lines(&phone);
        assert!(
            log.lines().last().is_some_and(|l| l.contains(uri)),
            "{title}: {log}"
        );
    }
    // A media root's files are acted on where they are: delete the song from Audio.
    open_root(&phone, "Audio");
    long_press_document(&phone, "song.mp3");
    tap_id(&phone, &format!("{DOCS}:id/action_menu_delete"));
    tap_id(&phone, "android:id/button1");
    assert_eq!(sh(&phone, "ls /sdcard/Music"), "");
    let h = screen(&phone);
    assert!(find(&h, &|n| n.text == "No items").is_some(), "{}", h.xml);
}

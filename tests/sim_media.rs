//! MediaStore on the embedded phone, as `content` reaches it over adb: every file in shared storage
//! has a row in the collection of its kind, written files show up at the next query with ids that
//! stay, and a delete through the provider removes the files (AndroidWorld clears Downloads with
//! `content delete --uri content://media/external/downloads` before its file tasks).

use crate::util::{boot, sh};

/// The values of `column` in `content query` output, row by row.
fn column(out: &str, column: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("Row: "))
        .filter_map(|l| {
            l.split(", ")
                .find_map(|cell| cell.rsplit(' ').next()?.strip_prefix(&format!("{column}=")))
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn collections_list_the_files_of_their_kind() {
    let phone = boot(0);
    sh(
        &phone,
        "mkdir -p /sdcard/DCIM/Camera /sdcard/Music && echo a > /sdcard/Download/notes.txt && \
         echo b > /sdcard/Download/receipt.jpg && echo c > /sdcard/DCIM/Camera/IMG_1.jpg && \
         echo d > /sdcard/Music/song.mp3 && echo e > /sdcard/.hidden.jpg",
    );
    let downloads = sh(
        &phone,
        "content query --uri content://media/external/downloads --projection _display_name:mime_type:relative_path",
    );
    assert_eq!(
        downloads,
        "Row: 0 _display_name=notes.txt, mime_type=text/plain, relative_path=Download/\n\
         Row: 1 _display_name=receipt.jpg, mime_type=image/jpeg, relative_path=Download/\n"
    );
    let images = sh(
        &phone,
        "content query --uri content://media/external_primary/images/media --projection _data:bucket_display_name --sort _data",
    );
    assert_eq!(
        images,
        "Row: 0 _data=/storage/emulated/0/DCIM/Camera/IMG_1.jpg, bucket_display_name=Camera\n\
         Row: 1 _data=/storage/emulated/0/Download/receipt.jpg, bucket_display_name=Download\n"
    );
    // A gallery groups by bucket_id: Java's String.hashCode of the lower-cased folder path, the
    // value Camera's folder has on every phone.
    let camera = sh(
        &phone,
        "content query --uri content://media/external/images/media --projection bucket_id --where \"bucket_display_name='Camera'\"",
    );
    assert_eq!(camera, "Row: 0 bucket_id=-1739773001\n");
    // Unknown volumes and collections are refused.
    assert!(!phone
        .exec("content query --uri content://media/internal/file")
        .success());
    assert!(!phone
        .exec("content query --uri content://media/external/images")
        .success());
    let audio = sh(
        &phone,
        "content query --uri content://media/external/audio/media --projection title:_size",
    );
    assert_eq!(audio, "Row: 0 title=song, _size=2\n");
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://media/external/video/media"
        ),
        "No result found.\n"
    );
    // Folders are rows of the `file` collection too, as MediaProvider keeps them.
    let files = sh(
        &phone,
        "content query --uri content://media/external/file --projection _data --where \"format=12289\"",
    );
    assert!(
        files.contains("_data=/storage/emulated/0/DCIM/Camera\n"),
        "{files}"
    );
    assert!(!sh(&phone, "content query --uri content://media/external/file").contains(".hidden"));
}

#[test]
fn rows_follow_the_files_and_keep_their_ids() {
    let phone = boot(0);
    sh(
        &phone,
        "echo a > /sdcard/Download/a.txt && echo b > /sdcard/Download/b.txt",
    );
    let q = "content query --uri content://media/external/downloads --projection _id:_display_name";
    let before = sh(&phone, q);
    let ids = column(&before, "_id");
    assert_eq!(ids.len(), 2, "{before}");
    sh(
        &phone,
        "rm /sdcard/Download/a.txt && echo c > /sdcard/Download/c.txt",
    );
    let after = sh(&phone, q);
    assert_eq!(column(&after, "_display_name"), ["b.txt", "c.txt"]);
    // b.txt keeps its row; c.txt gets a new one.
    assert_eq!(column(&after, "_id")[0], ids[1]);
    assert_ne!(column(&after, "_id")[1], ids[0]);
    // A row by id, and a size that changed.
    sh(&phone, "echo longer-now > /sdcard/Download/b.txt");
    let one = sh(
        &phone,
        &format!(
            "content query --uri content://media/external/file/{} --projection _size",
            ids[1]
        ),
    );
    assert_eq!(one, "Row: 0 _size=11\n");
}

#[test]
fn deleting_downloads_removes_the_files_and_nothing_else() {
    let phone = boot(0);
    sh(
        &phone,
        "mkdir -p /sdcard/Download/sub /sdcard/Documents && echo a > /sdcard/Download/a.txt && \
         echo b > /sdcard/Download/sub/b.pdf && echo c > /sdcard/Documents/keep.md",
    );
    // ContentCommand's delete prints nothing on success.
    assert_eq!(
        sh(
            &phone,
            "content delete --uri content://media/external/downloads"
        ),
        ""
    );
    assert_eq!(sh(&phone, "find /sdcard/Download -type f"), "");
    assert_eq!(sh(&phone, "cat /sdcard/Documents/keep.md"), "c\n");
    assert_eq!(
        sh(
            &phone,
            "content query --uri content://media/external/downloads"
        ),
        "No result found.\n"
    );
    // A selection narrows the delete; the folder stays while it holds a file the delete spared.
    sh(
        &phone,
        "echo x > /sdcard/Download/sub/x.txt && echo y > /sdcard/Download/sub/y.txt",
    );
    sh(
        &phone,
        "content delete --uri content://media/external/file --where \"_display_name='x.txt' OR _display_name='sub'\"",
    );
    assert_eq!(sh(&phone, "ls /sdcard/Download/sub"), "y.txt\n");
    // A URI the provider does not have is refused as Android refuses it.
    let out = phone.exec("content delete --uri content://media/external/nothing");
    assert!(!out.success());
    assert!(
        out.stderr_text().contains("Unknown URI"),
        "{}",
        out.stderr_text()
    );
}

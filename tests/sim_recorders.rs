//! Audio Recorder (`com.dimowner.audiorecorder`) and Camera2's video mode on the embedded phone,
//! driven as AndroidWorld and an agent drive them: `am start -n`, taps on the record and shutter
//! buttons, the phone's clock run on with `sleep`, the rename dialog typed into with `input text`.
//! Every file is pulled and decoded here with a reader of its own (boxes, sample tables, the AAC
//! config and the H.264 sequence parameter set), so a recording is checked to be a real M4A/MP4 of
//! the length recorded, not only a name in a folder.

use droidmcp::hierarchy::Hierarchy;
use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const AR: &str = "com.dimowner.audiorecorder";
const AR_START: &str =
    "com.dimowner.audiorecorder/com.dimowner.audiorecorder.app.welcome.WelcomeActivity";
/// AndroidWorld's `device_constants.AUDIORECORDER_DATA`.
const RECORDS: &str =
    "/storage/emulated/0/Android/data/com.dimowner.audiorecorder/files/Music/records";
const CAMERA_START: &str = "com.android.camera2/com.android.camera.CameraLauncher";

/// How much longer than the time slept a recording may be: the taps that start and stop it, the
/// screen dumps between, and the last partial frame.
const SLACK_MS: u64 = 300;

fn ar_id(name: &str) -> String {
    format!("{AR}:id/{name}")
}

fn tap_id(phone: &Phone, id: &str) {
    let h = screen(phone);
    tap(phone, by_id(&h, id).bounds);
}

fn text_of(h: &Hierarchy, id: &str) -> String {
    by_id(h, id).text.clone()
}

fn ls(phone: &Phone, dir: &str) -> Vec<String> {
    sh(phone, &format!("ls {dir}"))
        .lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect()
}

// --- an MP4 reader of the test's own ---------------------------------------------------------

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// The child boxes of `data` as (type, body); panics on a size that runs past the end.
fn boxes(data: &[u8]) -> Vec<(String, &[u8])> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let size = u32_at(data, at) as usize;
        assert!(
            size >= 8 && at + size <= data.len(),
            "box at {at} of size {size} in {} bytes",
            data.len()
        );
        out.push((
            String::from_utf8_lossy(&data[at + 4..at + 8]).to_string(),
            &data[at + 8..at + size],
        ));
        at += size;
    }
    out
}

fn child<'a>(data: &'a [u8], path: &[&str]) -> &'a [u8] {
    let mut cur = data;
    for kind in path {
        cur = boxes(cur)
            .into_iter()
            .find(|(k, _)| k == kind)
            .unwrap_or_else(|| panic!("no {kind} box"))
            .1;
    }
    cur
}

struct Track<'a> {
    handler: String,
    timescale: u32,
    duration: u32,
    entry: (String, &'a [u8]),
    /// Each sample's bytes, found through stsz/stsc/stco.
    samples: Vec<&'a [u8]>,
    sample_delta: u32,
}

fn tracks(file: &[u8]) -> Vec<Track<'_>> {
    let top = boxes(file);
    assert_eq!(top[0].0, "ftyp", "a file starts with ftyp");
    let moov = child(file, &["moov"]);
    boxes(moov)
        .into_iter()
        .filter(|(k, _)| k == "trak")
        .map(|(_, trak)| {
            let mdhd = child(trak, &["mdia", "mdhd"]);
            let hdlr = child(trak, &["mdia", "hdlr"]);
            let stbl = child(trak, &["mdia", "minf", "stbl"]);
            let stsd = child(stbl, &["stsd"]);
            let entry = boxes(&stsd[8..]).remove(0);
            let stsz = child(stbl, &["stsz"]);
            let count = u32_at(stsz, 8) as usize;
            let sizes: Vec<usize> = (0..count)
                .map(|i| u32_at(stsz, 12 + 4 * i) as usize)
                .collect();
            let stsc = child(stbl, &["stsc"]);
            assert_eq!(u32_at(stsc, 4), 1, "one stsc run");
            assert_eq!(
                u32_at(stsc, 12) as usize,
                count,
                "all samples in the one chunk"
            );
            let stco = child(stbl, &["stco"]);
            let mut at = u32_at(stco, 8) as usize;
            let samples = sizes
                .iter()
                .map(|&n| {
                    let s = &file[at..at + n];
                    at += n;
                    s
                })
                .collect();
            let stts = child(stbl, &["stts"]);
            Track {
                handler: String::from_utf8_lossy(&hdlr[8..12]).to_string(),
                timescale: u32_at(mdhd, 12),
                duration: u32_at(mdhd, 16),
                entry,
                samples,
                sample_delta: u32_at(stts, 12),
            }
        })
        .collect()
}

fn duration_ms(t: &Track) -> u64 {
    u64::from(t.duration) * 1000 / u64::from(t.timescale)
}

/// The AAC track: an mp4a entry whose esds carries AAC-LC, 44.1 kHz, stereo, and frames of 1024
/// samples that each start with a channel-pair element and end in ID_END.
fn check_aac(t: &Track, ms: u64) {
    assert_eq!(t.handler, "soun");
    assert_eq!(t.entry.0, "mp4a");
    let entry = t.entry.1;
    assert_eq!(u16::from_be_bytes([entry[16], entry[17]]), 2, "stereo");
    assert_eq!(u32_at(entry, 24) >> 16, 44100);
    let esds = child(&entry[28..], &["esds"]);
    let asc = &esds[esds.len() - 5..esds.len() - 3];
    assert_eq!(asc[0] >> 3, 2, "AAC LC");
    assert_eq!((asc[0] & 7) << 1 | asc[1] >> 7, 4, "44.1 kHz");
    assert_eq!(asc[1] >> 3 & 0xF, 2, "two channels");
    assert_eq!(t.timescale, 44100);
    assert_eq!(t.sample_delta, 1024);
    assert_eq!(t.duration as usize, t.samples.len() * 1024);
    assert!(
        t.samples.iter().all(|s| s[0] >> 5 == 1),
        "channel pair elements"
    );
    let got = duration_ms(t);
    // The taps around the recording take the phone's clock a few frames on.
    assert!(
        got >= ms && got < ms + SLACK_MS,
        "{got} ms of audio for {ms} ms recorded"
    );
}

/// Unsigned Exp-Golomb from a bit position.
fn ue(bits: &[u8], pos: &mut usize) -> u32 {
    let bit = |p: usize| bits[p / 8] >> (7 - p % 8) & 1;
    let mut zeros = 0;
    while bit(*pos) == 0 {
        zeros += 1;
        *pos += 1;
    }
    *pos += 1;
    let mut v = 0u32;
    for _ in 0..zeros {
        v = v << 1 | u32::from(bit(*pos));
        *pos += 1;
    }
    (1 << zeros) - 1 + v
}

/// The H.264 track: an avc1 entry whose avcC's SPS decodes to the entry's size; the first
/// sample an IDR picture, the rest P pictures; length-prefixed NAL units filling each sample.
fn check_avc(t: &Track, ms: u64) -> (u32, u32) {
    assert_eq!(t.handler, "vide");
    assert_eq!(t.entry.0, "avc1");
    let entry = t.entry.1;
    let (w, h) = (
        u32::from(u16::from_be_bytes([entry[24], entry[25]])),
        u32::from(u16::from_be_bytes([entry[26], entry[27]])),
    );
    let avcc = child(&entry[78..], &["avcC"]);
    let sps_len = usize::from(u16::from_be_bytes([avcc[6], avcc[7]]));
    let sps = &avcc[8..8 + sps_len];
    assert_eq!(sps[0] & 0x1F, 7, "an SPS");
    assert_eq!(sps[1], 66, "Baseline");
    let mut pos = 32; // after the header byte, profile, constraints and level
    let rbsp = &sps[..];
    ue(rbsp, &mut pos); // seq_parameter_set_id
    let log2_frame_num = ue(rbsp, &mut pos) + 4;
    assert_eq!(ue(rbsp, &mut pos), 2, "pic_order_cnt_type");
    ue(rbsp, &mut pos); // max_num_ref_frames
    pos += 1;
    let mbs_w = ue(rbsp, &mut pos) + 1;
    let mbs_h = ue(rbsp, &mut pos) + 1;
    assert_eq!(
        (mbs_w * 16, mbs_h * 16),
        (w, h),
        "SPS size matches the sample entry"
    );
    assert!(log2_frame_num >= 4);
    for (i, s) in t.samples.iter().enumerate() {
        let len = u32_at(s, 0) as usize;
        assert_eq!(
            len + 4,
            s.len(),
            "sample {i} is one length-prefixed NAL unit"
        );
        let kind = s[4] & 0x1F;
        assert_eq!(kind, if i == 0 { 5 } else { 1 }, "sample {i}'s NAL type");
    }
    // The key frame carries every macroblock's raw samples (384 bytes each).
    assert!(t.samples[0].len() as u32 > mbs_w * mbs_h * 384);
    let got = duration_ms(t);
    assert!(
        got >= ms && got < ms + SLACK_MS,
        "{got} ms of video for {ms} ms recorded"
    );
    (w, h)
}

// --- Audio Recorder --------------------------------------------------------------------------

#[test]
fn audio_recorder_is_installed_with_its_records_folder() {
    let phone = boot(0);
    assert!(sh(&phone, "pm list packages").contains(&format!("package:{AR}\n")));
    // AndroidWorld's initialize_task lists the folder before anything was recorded.
    let out = phone.exec(&format!("ls {RECORDS} -ll -au"));
    assert!(out.success(), "{}", out.stderr_text());
    assert!(
        !out.stdout_text().lines().any(|l| l.starts_with('-')),
        "{}",
        out.stdout_text()
    );
    sh(&phone, &format!("am start -W -n {AR_START}"));
    let h = screen(&phone);
    by_id(&h, &ar_id("btn_record"));
    assert_eq!(text_of(&h, &ar_id("txt_progress")), "00:00");
    let window = sh(&phone, "dumpsys window");
    assert!(
        window.contains("com.dimowner.audiorecorder.app.main.MainActivity"),
        "{window}"
    );
}

#[test]
fn a_recording_lasts_as_long_as_the_clock_ran_and_takes_the_name_typed() {
    let phone = boot(1);
    sh(&phone, &format!("am start -W -n {AR_START}"));
    tap_id(&phone, &ar_id("btn_record"));
    sh(&phone, "sleep 4");
    let h = screen(&phone);
    assert_eq!(text_of(&h, &ar_id("txt_progress")), "00:04");
    assert_eq!(text_of(&h, &ar_id("txt_name")), "Recording…");
    // A pause is left out of the recording.
    tap_id(&phone, &ar_id("btn_record"));
    sh(&phone, "sleep 10");
    tap_id(&phone, &ar_id("btn_record"));
    sh(&phone, "sleep 1");
    tap_id(&phone, &ar_id("btn_record_stop"));

    // The file is there before the dialog is answered, under the counter's name.
    assert_eq!(ls(&phone, RECORDS), vec!["Record-1.m4a"]);
    let h = screen(&phone);
    assert_eq!(text_of(&h, &ar_id("dialog_title")), "New name");
    assert_eq!(text_of(&h, &ar_id("input_name")), "Record-1");
    // Clear the field as a user does (the cursor is at the end), then type the new name.
    for _ in 0.."Record-1".len() {
        sh(&phone, "input keyevent KEYCODE_DEL");
    }
    sh(&phone, "input text meeting_final.m4a");
    tap_id(&phone, &ar_id("dialog_positive_btn"));

    // The app keeps its extension after the typed name, as AndroidWorld's check expects.
    assert_eq!(ls(&phone, RECORDS), vec!["meeting_final.m4a.m4a"]);
    let found = sh(&phone, &format!("find {RECORDS} -type f -o -type d"));
    assert!(
        found.contains(&format!("{RECORDS}/meeting_final.m4a.m4a\n")),
        "{found}"
    );
    let data = phone
        .read_file(&format!("{RECORDS}/meeting_final.m4a.m4a"))
        .unwrap();
    let ts = tracks(&data);
    assert_eq!(ts.len(), 1);
    check_aac(&ts[0], 5000);
    let h = screen(&phone);
    assert_eq!(text_of(&h, &ar_id("txt_name")), "meeting_final.m4a");
    assert_eq!(text_of(&h, &ar_id("txt_progress")), "00:05");
}

#[test]
fn cancel_keeps_the_apps_name_and_the_counter_moves_on() {
    let phone = boot(2);
    sh(&phone, &format!("am start -W -n {AR_START}"));
    for secs in [2, 3] {
        tap_id(&phone, &ar_id("btn_record"));
        sh(&phone, &format!("sleep {secs}"));
        tap_id(&phone, &ar_id("btn_record_stop"));
        tap_id(&phone, &ar_id("dialog_negative_btn"));
    }
    assert_eq!(ls(&phone, RECORDS), vec!["Record-1.m4a", "Record-2.m4a"]);
    for (name, ms) in [("Record-1.m4a", 2000), ("Record-2.m4a", 3000)] {
        let data = phone.read_file(&format!("{RECORDS}/{name}")).unwrap();
        check_aac(&tracks(&data)[0], ms);
    }
    // The records list shows both, newest first, with their lengths.
    tap_id(&phone, &ar_id("btn_records_list"));
    let h = screen(&phone);
    let names: Vec<&str> = h
        .nodes
        .iter()
        .filter(|n| n.resource_id == ar_id("list_item_name"))
        .map(|n| n.text.as_str())
        .collect();
    assert_eq!(names.len(), 2);
    assert!(find(&h, &|n| n.resource_id == ar_id("list_item_duration")
        && n.text == "00:03")
    .is_some());
    // pm clear empties the app's external folder and the counter starts again.
    sh(&phone, &format!("pm clear {AR}"));
    assert!(ls(&phone, RECORDS).is_empty());
    sh(&phone, &format!("am start -W -n {AR_START}"));
    tap_id(&phone, &ar_id("btn_record"));
    sh(&phone, "sleep 1");
    tap_id(&phone, &ar_id("btn_record_stop"));
    assert_eq!(ls(&phone, RECORDS), vec!["Record-1.m4a"]);
}

#[test]
fn a_name_taken_is_refused_in_the_dialog() {
    let phone = boot(3);
    sh(&phone, &format!("am start -W -n {AR_START}"));
    tap_id(&phone, &ar_id("btn_record"));
    sh(&phone, "sleep 1");
    tap_id(&phone, &ar_id("btn_record_stop"));
    tap_id(&phone, &ar_id("dialog_negative_btn"));
    tap_id(&phone, &ar_id("btn_record"));
    sh(&phone, "sleep 1");
    tap_id(&phone, &ar_id("btn_record_stop"));
    for _ in 0.."Record-2".len() {
        sh(&phone, "input keyevent KEYCODE_DEL");
    }
    sh(&phone, "input text Record-1");
    tap_id(&phone, &ar_id("dialog_positive_btn"));
    let h = screen(&phone);
    assert_eq!(
        text_of(&h, &ar_id("txt_error")),
        "File with this name is already exists!"
    );
    assert_eq!(ls(&phone, RECORDS), vec!["Record-1.m4a", "Record-2.m4a"]);
}

// --- Camera video ----------------------------------------------------------------------------

fn cam_id(name: &str) -> String {
    format!("com.android.camera2:id/{name}")
}

#[test]
fn a_fresh_phone_has_a_movies_folder() {
    let phone = boot(0);
    let out = phone.exec("ls /sdcard/Movies");
    assert!(out.success(), "{}", out.stderr_text());
    assert_eq!(out.stdout_text(), "");
}

#[test]
fn video_mode_records_an_mp4_into_movies_with_its_mediastore_row() {
    let phone = boot(4);
    sh(&phone, &format!("am start -W -n {CAMERA_START}"));
    // The mode drawer opens with a swipe from the left edge.
    sh(&phone, "input swipe 10 900 700 900 300");
    let h = screen(&phone);
    let video = find(&h, &|n| {
        n.resource_id == cam_id("selector_text") && n.text == "Video"
    })
    .expect("the drawer lists Video");
    tap(&phone, video.bounds);
    tap_id(&phone, &cam_id("shutter_button"));
    sh(&phone, "sleep 3");
    assert_eq!(text_of(&screen(&phone), &cam_id("recording_time")), "00:03");
    tap_id(&phone, &cam_id("shutter_button"));

    let files = ls(&phone, "/sdcard/Movies");
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        files[0].starts_with("VID_") && files[0].ends_with(".mp4"),
        "{files:?}"
    );
    // No photo was taken.
    assert_eq!(phone.exec("ls /sdcard/Pictures").stdout_text(), "");
    let data = phone
        .read_file(&format!("/sdcard/Movies/{}", files[0]))
        .unwrap();
    let ts = tracks(&data);
    assert_eq!(ts.len(), 2);
    assert_eq!(check_avc(&ts[0], 3000), (640, 480));
    check_aac(&ts[1], 3000);
    let rows = sh(
        &phone,
        "content query --uri content://media/external/video/media --projection _display_name:mime_type:relative_path",
    );
    assert!(
        rows.contains(&format!("_display_name={}", files[0])),
        "{rows}"
    );
    assert!(rows.contains("mime_type=video/mp4"), "{rows}");
}

#[test]
fn photo_mode_stays_the_default_and_back_stops_a_recording() {
    let phone = boot(5);
    sh(&phone, &format!("am start -W -n {CAMERA_START}"));
    // The shutter takes a photo until the drawer switches modes.
    tap_id(&phone, &cam_id("shutter_button"));
    assert!(ls(&phone, "/sdcard/Movies").is_empty());
    sh(&phone, "input swipe 10 900 700 900 300");
    let h = screen(&phone);
    let video = find(&h, &|n| {
        n.resource_id == cam_id("selector_text") && n.text == "Video"
    })
    .unwrap();
    tap(&phone, video.bounds);
    tap_id(&phone, &cam_id("shutter_button"));
    sh(&phone, "sleep 2");
    sh(&phone, "input keyevent KEYCODE_BACK");
    let files = ls(&phone, "/sdcard/Movies");
    assert_eq!(files.len(), 1, "{files:?}");
    let data = phone
        .read_file(&format!("/sdcard/Movies/{}", files[0]))
        .unwrap();
    check_avc(&tracks(&data)[0], 2000);
}

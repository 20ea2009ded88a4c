//! The emulator gRPC controller of `droidmcp sim --emulator`, called by a tonic client over TCP
//! against an embedded phone: what each call does is checked through the phone's own shell and
//! console, the paths adb clients use.

use std::sync::Arc;

use droidmcp::device::Shell;
use droidmcp::grpc::proto::control::{
    emulator_controller_client::EmulatorControllerClient,
    image_format::ImgFormat,
    keyboard_event::{KeyCodeType, KeyEventType},
    snapshot_filter::LoadStatus,
    snapshot_service_client::SnapshotServiceClient,
    BatteryState, ClipData, ImageFormat, KeyboardEvent, SnapshotFilter, SnapshotPackage, Touch,
    TouchEvent,
};
use droidmcp::sim::Phone;
use tonic::transport::Channel;

use crate::util::{boot, sh};

/// A phone served over gRPC on a free loopback port; the endpoint stops when this drops.
struct Served {
    phone: Phone,
    channel: Channel,
    _stop: tokio_util::sync::DropGuard,
}

async fn serve(seed: u64) -> Served {
    let phone = boot(seed);
    let shell: Arc<dyn Shell> = Arc::new(phone.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let stop = tokio_util::sync::CancellationToken::new();
    let stopped = stop.clone();
    tokio::spawn(droidmcp::grpc::serve(
        listener,
        shell,
        stopped.cancelled_owned(),
    ));
    let channel = Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect()
        .await
        .expect("the gRPC endpoint accepts a connection");
    Served {
        phone,
        channel,
        _stop: stop.drop_guard(),
    }
}

impl Served {
    fn controller(&self) -> EmulatorControllerClient<Channel> {
        EmulatorControllerClient::new(self.channel.clone()).max_decoding_message_size(usize::MAX)
    }
    fn snapshots(&self) -> SnapshotServiceClient<Channel> {
        SnapshotServiceClient::new(self.channel.clone())
    }
    fn focus(&self) -> String {
        sh(&self.phone, "dumpsys window")
            .lines()
            .find(|l| l.contains("mCurrentFocus="))
            .unwrap_or_default()
            .trim()
            .to_string()
    }
}

/// The centre of the first node whose `text` is `text` in a `uiautomator dump`.
fn centre_of(phone: &Phone, text: &str) -> (i32, i32) {
    let xml = sh(phone, "uiautomator dump /dev/tty");
    let re = regex::Regex::new(&format!(
        r#"text="{}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]""#,
        regex::escape(text)
    ))
    .unwrap();
    let c = re
        .captures(&xml)
        .unwrap_or_else(|| panic!("no {text:?} on screen"));
    let n = |i: usize| c[i].parse::<i32>().unwrap();
    ((n(1) + n(3)) / 2, (n(2) + n(4)) / 2)
}

fn touch(x: i32, y: i32, down: bool) -> TouchEvent {
    TouchEvent {
        touches: vec![Touch {
            x,
            y,
            pressure: i32::from(down),
            ..Touch::default()
        }],
        display: 0,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn status_says_booted_with_the_screen_size() {
    let s = serve(0).await;
    let status = s.controller().get_status(()).await.unwrap().into_inner();
    assert!(status.booted);
    let hw: Vec<(String, String)> = status
        .hardware_config
        .unwrap()
        .entry
        .into_iter()
        .map(|e| (e.key, e.value))
        .collect();
    let (w, h) = sh(&s.phone, "wm size")
        .trim()
        .strip_prefix("Physical size: ")
        .and_then(|s| s.split_once('x'))
        .map(|(w, h)| (w.to_string(), h.to_string()))
        .unwrap();
    assert_eq!(
        hw,
        vec![("hw.lcd.width".into(), w), ("hw.lcd.height".into(), h)]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn screenshots_are_screencaps_frame_in_each_format() {
    let s = serve(0).await;
    let frame = droidmcp::device::image::raw_frame(s.phone.exec("screencap").stdout).unwrap();
    let (w, h) = frame.dimensions();
    let mut c = s.controller();

    let rgba = c
        .get_screenshot(ImageFormat {
            format: ImgFormat::Rgba8888 as i32,
            ..ImageFormat::default()
        })
        .await
        .unwrap()
        .into_inner();
    let f = rgba.format.unwrap();
    assert_eq!((f.width, f.height), (w, h));
    assert!(
        rgba.image == frame.as_raw()[..],
        "RGBA8888 is screencap's frame byte for byte"
    );

    let rgb = c
        .get_screenshot(ImageFormat {
            format: ImgFormat::Rgb888 as i32,
            width: w / 2,
            ..ImageFormat::default()
        })
        .await
        .unwrap()
        .into_inner();
    let f = rgb.format.unwrap();
    assert_eq!((f.width, f.height), (w / 2, h / 2));
    assert_eq!(rgb.image.len(), (w / 2 * h / 2 * 3) as usize);

    // Both limits: the frame fits the tighter one and keeps its aspect ratio.
    let png = c
        .get_screenshot(ImageFormat {
            format: ImgFormat::Png as i32,
            width: w / 2,
            height: h / 4,
            ..ImageFormat::default()
        })
        .await
        .unwrap()
        .into_inner();
    let decoded = image::load_from_memory(&png.image).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (w / 4, h / 4));
    let f = png.format.unwrap();
    assert_eq!((f.width, f.height), (w / 4, h / 4));

    let err = c
        .get_screenshot(ImageFormat {
            display: 1,
            ..ImageFormat::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::NotFound);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_touch_down_and_lift_taps_and_a_lone_lift_does_nothing() {
    let s = serve(0).await;
    let mut c = s.controller();
    let home = s.focus();
    // android_env lifts the finger before every observation, whether or not it was down.
    c.send_touch(touch(10, 10, false)).await.unwrap();
    assert_eq!(s.focus(), home);
    let (x, y) = centre_of(&s.phone, "Clock");
    c.send_touch(touch(x, y, true)).await.unwrap();
    c.send_touch(touch(x, y, false)).await.unwrap();
    assert!(
        s.focus().contains("com.google.android.deskclock"),
        "{}",
        s.focus()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn keys_by_xkb_code_and_w3c_name() {
    let s = serve(0).await;
    let mut c = s.controller();
    let home = s.focus();
    sh(
        &s.phone,
        "am start -n com.google.android.deskclock/com.android.deskclock.DeskClock",
    );
    assert_ne!(s.focus(), home);
    // KEY_BACK (evdev 158) as X11 numbers it; the key-up that follows sends nothing more.
    for event_type in [KeyEventType::Keydown, KeyEventType::Keyup] {
        c.send_key(KeyboardEvent {
            code_type: KeyCodeType::Xkb as i32,
            event_type: event_type as i32,
            key_code: 158 + 8,
            ..KeyboardEvent::default()
        })
        .await
        .unwrap();
    }
    assert_eq!(s.focus(), home);
    sh(
        &s.phone,
        "am start -n com.google.android.deskclock/com.android.deskclock.DeskClock",
    );
    c.send_key(KeyboardEvent {
        event_type: KeyEventType::Keypress as i32,
        key: "GoHome".into(),
        ..KeyboardEvent::default()
    })
    .await
    .unwrap();
    assert_eq!(s.focus(), home);

    let err = c
        .send_key(KeyboardEvent {
            code_type: KeyCodeType::Win as i32,
            key_code: 0x41,
            ..KeyboardEvent::default()
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument);
    assert!(err.message().contains("XKB or Evdev"), "{}", err.message());
}

#[tokio::test(flavor = "multi_thread")]
async fn clipboard_round_trips_and_is_the_phones() {
    let s = serve(0).await;
    let mut c = s.controller();
    let text = "it's \"quoted\"\nand $HOME";
    c.set_clipboard(ClipData { text: text.into() })
        .await
        .unwrap();
    assert_eq!(c.get_clipboard(()).await.unwrap().into_inner().text, text);
    // The same clip as an adb client reads it, with Clipper in front (Android 10+ refuses
    // the clip to an app without focus; the emulator's own read needs none).
    sh(&s.phone, "am start -W -n ca.zgrs.clipper/.Main");
    assert!(sh(&s.phone, "am broadcast -a clipper.get").contains(&format!("data=\"{text}\"")));
}

/// The snapshot names `ListSnapshots` gives with the filter android_env uses.
async fn listed(snaps: &mut SnapshotServiceClient<Channel>) -> Vec<String> {
    let all = SnapshotFilter {
        status_filter: LoadStatus::All as i32,
    };
    let list = snaps.list_snapshots(all).await.unwrap().into_inner();
    list.snapshots.into_iter().map(|d| d.snapshot_id).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn snapshots_save_list_load_delete_as_the_console_sees_them() {
    let s = serve(0).await;
    let mut snaps = s.snapshots();
    let package = |id: &str| SnapshotPackage {
        snapshot_id: id.into(),
        ..SnapshotPackage::default()
    };

    sh(&s.phone, "settings put system screen_brightness 40");
    let saved = snaps
        .save_snapshot(package("grpc_a"))
        .await
        .unwrap()
        .into_inner();
    assert!(saved.success, "{:?}", String::from_utf8_lossy(&saved.err));
    let names = listed(&mut snaps).await;
    assert!(names.contains(&"grpc_a".to_string()), "{names:?}");
    assert!(s.phone.console("avd snapshot list").contains("grpc_a"));

    sh(&s.phone, "settings put system screen_brightness 200");
    let loaded = snaps
        .load_snapshot(package("grpc_a"))
        .await
        .unwrap()
        .into_inner();
    assert!(loaded.success);
    assert_eq!(
        sh(&s.phone, "settings get system screen_brightness"),
        "40\n"
    );

    let missing = snaps
        .load_snapshot(package("nope"))
        .await
        .unwrap()
        .into_inner();
    assert!(!missing.success);
    assert_eq!(
        String::from_utf8_lossy(&missing.err),
        "Device 'system' does not have the requested snapshot 'nope'; Snapshot load failure: unknown failure"
    );

    assert!(
        snaps
            .delete_snapshot(package("grpc_a"))
            .await
            .unwrap()
            .into_inner()
            .success
    );
    let names = listed(&mut snaps).await;
    assert!(!names.contains(&"grpc_a".to_string()), "{names:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn unimplemented_methods_say_so_by_name() {
    let s = serve(0).await;
    let err = s
        .controller()
        .set_battery(BatteryState::default())
        .await
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::Unimplemented);
    assert!(
        err.message().starts_with(
            "/android.emulation.control.EmulatorController/setBattery is not implemented by droidmcp's embedded phone; it serves getStatus, sendTouch,"
        ),
        "{}",
        err.message()
    );
}

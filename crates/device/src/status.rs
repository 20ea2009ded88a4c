//! The everyday state of a phone in one read: battery, radios, volume, brightness, time, language,
//! screen. Read with Android's own tools (`dumpsys battery`, `settings get`, `media volume`, `date`,
//! `getprop`, `dumpsys window displays`) in one shell command line, so it costs one round trip on a
//! real phone and works wherever those tools do. Each section is parsed on its own: a tool a device
//! lacks leaves its fields `None` instead of failing the whole read.

use super::parse::{self, ScreenSize};

/// The volume streams reported, with the numbers `media volume --stream` takes (AudioSystem).
pub const STREAMS: [(&str, u8); 5] = [
    ("call", 0),
    ("ring", 2),
    ("media", 3),
    ("alarm", 4),
    ("notification", 5),
];

/// Battery state from `dumpsys battery`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Battery {
    /// Percent (level scaled by `scale`).
    pub percent: Option<u32>,
    /// BatteryManager's status: charging, discharging, not charging, full, unknown.
    pub status: Option<&'static str>,
    /// Power sources plugged in: `ac`, `usb`, `wireless`, `dock`.
    pub plugged: Vec<&'static str>,
}

/// A stream's volume index and its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Volume {
    pub stream: &'static str,
    pub index: i32,
    pub min: i32,
    pub max: i32,
}

/// What [`super::Device::status`] reads.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DeviceStatus {
    pub battery: Battery,
    pub airplane_mode: Option<bool>,
    pub wifi: Option<bool>,
    pub bluetooth: Option<bool>,
    pub mobile_data: Option<bool>,
    pub volumes: Vec<Volume>,
    /// `screen_brightness`, 0–255.
    pub brightness: Option<u32>,
    pub auto_brightness: Option<bool>,
    /// The phone's local time as `date` prints it (`2026-11-26 23:40:12 +0000`).
    pub time: Option<String>,
    /// Olson id (`persist.sys.timezone`).
    pub timezone: Option<String>,
    /// BCP 47 tag (`persist.sys.locale`, else `ro.product.locale`).
    pub locale: Option<String>,
    pub size: Option<ScreenSize>,
    /// 0, 90, 180 or 270 degrees.
    pub rotation: Option<u32>,
    /// `package/activity` in front.
    pub foreground: Option<String>,
}

/// The one command line [`parse_status`] reads; each section starts with a `@@name` marker line.
pub fn status_command() -> String {
    let mut parts = vec![
        "echo @@battery; dumpsys battery".to_string(),
        "echo @@airplane; settings get global airplane_mode_on".into(),
        "echo @@wifi; settings get global wifi_on".into(),
        "echo @@bluetooth; settings get global bluetooth_on".into(),
        "echo @@data; settings get global mobile_data".into(),
        "echo @@brightness; settings get system screen_brightness".into(),
        "echo @@brightness_mode; settings get system screen_brightness_mode".into(),
        "echo @@time; date '+%Y-%m-%d %H:%M:%S %z'".into(),
        "echo @@timezone; getprop persist.sys.timezone".into(),
        "echo @@locale; getprop persist.sys.locale".into(),
        "echo @@product_locale; getprop ro.product.locale".into(),
        "echo @@size; wm size".into(),
        "echo @@displays; dumpsys window displays".into(),
    ];
    for (name, n) in STREAMS {
        parts.push(format!(
            "echo @@volume_{name}; media volume --stream {n} --get"
        ));
    }
    parts.join("; ")
}

/// Reads the output of [`status_command`].
pub fn parse_status(out: &str) -> DeviceStatus {
    let section = |name: &str| -> &str {
        let marker = format!("@@{name}\n");
        let Some(start) = out.find(&marker).map(|i| i + marker.len()) else {
            return "";
        };
        let rest = &out[start..];
        // Sections end where the next marker line starts.
        let end = rest
            .match_indices("@@")
            .find(|(i, _)| *i == 0 || rest.as_bytes()[i - 1] == b'\n')
            .map(|(i, _)| i)
            .unwrap_or(rest.len());
        &rest[..end]
    };
    let setting = |name: &str| {
        let v = section(name).trim();
        (!v.is_empty() && v != "null").then(|| v.to_string())
    };
    let flag = |name: &str| {
        setting(name)
            .and_then(|v| v.parse::<i64>().ok())
            .map(|v| v != 0)
    };
    let prop = |name: &str| setting(name);
    DeviceStatus {
        battery: battery(section("battery")),
        airplane_mode: flag("airplane"),
        wifi: flag("wifi"),
        bluetooth: flag("bluetooth"),
        mobile_data: flag("data"),
        volumes: STREAMS
            .iter()
            .filter_map(|(name, _)| volume(name, section(&format!("volume_{name}"))))
            .collect(),
        brightness: setting("brightness").and_then(|v| v.parse().ok()),
        auto_brightness: flag("brightness_mode"),
        time: setting("time"),
        timezone: prop("timezone"),
        locale: prop("locale").or_else(|| prop("product_locale")),
        size: parse::wm_size(section("size")),
        rotation: rotation(section("displays")),
        foreground: None,
    }
}

/// `dumpsys battery` (BatteryService.dumpInternal): `level`/`scale`, `status` (BatteryManager's
/// BATTERY_STATUS_* numbers) and the `… powered: true` lines.
pub fn battery(dump: &str) -> Battery {
    let mut fields = std::collections::BTreeMap::new();
    for line in dump.lines() {
        if let Some((k, v)) = line.trim().split_once(':') {
            fields.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    let num = |k: &str| fields.get(k).and_then(|v| v.parse::<u32>().ok());
    let percent = match (num("level"), num("scale")) {
        (Some(l), Some(s)) if s > 0 => Some((l * 100 + s / 2) / s),
        (Some(l), None) => Some(l),
        _ => None,
    };
    let status = num("status").map(|s| match s {
        2 => "charging",
        3 => "discharging",
        4 => "not charging",
        5 => "full",
        _ => "unknown",
    });
    let plugged = [
        ("AC powered", "ac"),
        ("USB powered", "usb"),
        ("Wireless powered", "wireless"),
        ("Dock powered", "dock"),
    ]
    .into_iter()
    .filter(|(k, _)| fields.get(*k).is_some_and(|v| v == "true"))
    .map(|(_, name)| name)
    .collect();
    Battery {
        percent,
        status,
        plugged,
    }
}

/// `media volume --get`: `[V] volume is 5 in range [0..25]`.
pub fn volume(stream: &'static str, out: &str) -> Option<Volume> {
    let line = out.lines().find_map(|l| l.split_once("volume is "))?.1;
    let (index, range) = line.split_once(" in range [")?;
    let (min, max) = range.trim_end_matches(']').split_once("..")?;
    Some(Volume {
        stream,
        index: index.trim().parse().ok()?,
        min: min.trim().parse().ok()?,
        max: max.trim().trim_end_matches(']').parse().ok()?,
    })
}

/// `dumpsys window displays`: DisplayRotation's `mRotation=N` (Surface.ROTATION_*), in degrees.
pub fn rotation(dump: &str) -> Option<u32> {
    let at = dump.find("mRotation=")? + "mRotation=".len();
    let n: u32 = dump[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()?;
    (n < 4).then_some(n * 90)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Pixel on Android 14, charging over USB (BatteryService.dumpInternal).
    const BATTERY: &str = "Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless powered: false\n  Dock powered: false\n  Max charging current: 500000\n  Max charging voltage: 5000000\n  Charge counter: 2966000\n  status: 2\n  health: 2\n  present: true\n  level: 73\n  scale: 100\n  voltage: 4213\n  temperature: 285\n  technology: Li-ion\n";

    #[test]
    fn battery_reads_level_status_and_power_sources() {
        let b = battery(BATTERY);
        assert_eq!(b.percent, Some(73));
        assert_eq!(b.status, Some("charging"));
        assert_eq!(b.plugged, vec!["usb"]);
        assert_eq!(battery("Can't find service: battery\n"), Battery::default());
    }

    #[test]
    fn volume_and_rotation_read_androids_lines() {
        let v = volume(
            "media",
            "[V] will get volume\n[V] will control stream=3 (STREAM_MUSIC)\n[V] Connecting to AudioService\n[V] volume is 5 in range [0..25]\n",
        )
        .unwrap();
        assert_eq!((v.index, v.min, v.max), (5, 0, 25));
        assert_eq!(volume("ring", "Error: unknown stream\n"), None);
        assert_eq!(
            rotation("  DisplayRotation\n    mRotation=1 mDeferredRotationPauseCount=0\n"),
            Some(90)
        );
        assert_eq!(rotation("nothing"), None);
    }

    #[test]
    fn sections_parse_independently_and_missing_tools_leave_gaps() {
        let out = format!(
            "@@battery\n{BATTERY}@@airplane\n0\n@@wifi\n1\n@@bluetooth\nnull\n@@data\n1\n@@brightness\n102\n@@brightness_mode\n0\n@@time\n2026-11-26 23:40:12 +0100\n@@timezone\nEurope/Berlin\n@@locale\n\n@@product_locale\nen-US\n@@size\nPhysical size: 1080x2400\n@@displays\n    mRotation=0 mDeferredRotationPauseCount=0\n@@volume_call\n/system/bin/sh: media: not found\n@@volume_media\n[V] volume is 5 in range [0..25]\n"
        );
        let s = parse_status(&out);
        assert_eq!(s.battery.percent, Some(73));
        assert_eq!(
            (s.airplane_mode, s.wifi, s.bluetooth, s.mobile_data),
            (Some(false), Some(true), None, Some(true))
        );
        assert_eq!((s.brightness, s.auto_brightness), (Some(102), Some(false)));
        assert_eq!(s.time.as_deref(), Some("2026-11-26 23:40:12 +0100"));
        assert_eq!(s.timezone.as_deref(), Some("Europe/Berlin"));
        assert_eq!(s.locale.as_deref(), Some("en-US"));
        assert_eq!(s.size.map(|z| (z.width, z.height)), Some((1080, 2400)));
        assert_eq!(s.rotation, Some(0));
        assert_eq!(s.volumes.len(), 1);
        assert_eq!(s.volumes[0].stream, "media");
    }
}

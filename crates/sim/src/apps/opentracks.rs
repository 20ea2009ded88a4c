//! OpenTracks (`de.dennisguse.opentracks`, the version code 5705 AndroidWorld installs): recorded
//! tracks in `databases/database.db`, table `tracks` (`_id`, `name`, `description`, `category`,
//! `activity_type`, `starttime`/`stoptime` in epoch ms, `totaldistance` in meters, `totaltime` and
//! `movingtime` in ms, speeds, elevations, `uuid`), as AndroidWorld's
//! `sqlite_schema_utils.SportsActivity` reads and writes it (every column of that dataclass and no
//! other, since it reads rows back with `SELECT *`). A [`records`] app: TrackListActivity's list
//! (name; activity type, distance and total time; the day it started), a track's page with its
//! statistics, Edit (name, activity type, description), Delete and multi-select delete.
//!
//! Tracks are made by recording, which needs a GPS fix the phone does not simulate, so the list
//! has no add button. Distances are shown in the unit system OpenTracks picks for the locale:
//! miles for the United States (AndroidWorld's AVD, whose tasks round distances to 0.01 mi so the
//! shown figure converts back to the stored meters), kilometers elsewhere.

use chrono::{DateTime, Timelike};

use super::records::{self, Field, Ids, Kind, Record, Spec, Stamp, Titles};
use crate::app::AppInfo;
use crate::locale;
use crate::system::System;

pub const PACKAGE: &str = "de.dennisguse.opentracks";
pub const ACTIVITY: &str = "de.dennisguse.opentracks.TrackListActivity";
pub const DB_PATH: &str = "/data/data/de.dennisguse.opentracks/databases/database.db";

/// `TracksColumns.CREATE_TABLE` after the app's upgrades (the columns AndroidWorld's
/// `SportsActivity` has), its uuid index, and the trackpoints and markers tables beside it.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tracks (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT, category TEXT, starttime INTEGER, stoptime INTEGER, numpoints INTEGER, totaldistance FLOAT, totaltime INTEGER, movingtime INTEGER, avgspeed FLOAT, avgmovingspeed FLOAT, maxspeed FLOAT, minelevation FLOAT, maxelevation FLOAT, elevationgain FLOAT, icon TEXT, uuid BLOB, elevationloss FLOAT, starttime_offset INTEGER, activity_type TEXT);
CREATE UNIQUE INDEX IF NOT EXISTS tracks_uuid_index ON tracks(uuid);
CREATE TABLE IF NOT EXISTS trackpoints (_id INTEGER PRIMARY KEY AUTOINCREMENT, trackid INTEGER NOT NULL, longitude INTEGER, latitude INTEGER, time INTEGER, elevation FLOAT, accuracy FLOAT, speed FLOAT, bearing FLOAT, sensor_heartrate FLOAT, sensor_cadence FLOAT, sensor_power FLOAT, elevation_gain FLOAT, elevation_loss FLOAT, type TEXT, sensor_distance FLOAT, accuracy_vertical FLOAT, FOREIGN KEY (trackid) REFERENCES tracks(_id) ON UPDATE CASCADE ON DELETE CASCADE);
CREATE TABLE IF NOT EXISTS markers (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT, category TEXT, icon TEXT, trackid INTEGER NOT NULL, longitude INTEGER, latitude INTEGER, time INTEGER, elevation FLOAT, accuracy FLOAT, bearing FLOAT, photoUrl TEXT, FOREIGN KEY (trackid) REFERENCES tracks(_id) ON UPDATE CASCADE ON DELETE CASCADE);
";

const METERS_PER_MILE: f64 = 1609.344;

const FIELDS: &[Field] = &[
    Field {
        column: "name",
        label: "track_edit_name",
        id: "track_edit_name",
        kind: Kind::Text,
        required: true,
    },
    Field {
        column: "category",
        label: "track_edit_activity_type",
        id: "track_edit_activity_type",
        kind: Kind::Text,
        required: false,
    },
    Field {
        column: "description",
        label: "track_edit_description",
        id: "track_edit_description",
        kind: Kind::Multiline,
        required: false,
    },
];

/// Where the columns the list reads sit in a record's stamps (see `SPEC.stamps`).
const START: usize = 0;
const DISTANCE: usize = 1;
const TOTAL_TIME: usize = 2;
const MOVING_TIME: usize = 3;

fn stamp(r: &Record, i: usize) -> i64 {
    r.stamps.get(i).copied().unwrap_or_default()
}

/// A distance in meters as OpenTracks shows it: two decimals of the locale's unit.
pub fn distance(sys: &System, meters: i64) -> String {
    if sys.locale.ends_with("-US") {
        format!("{:.2} mi", meters as f64 / METERS_PER_MILE)
    } else {
        format!("{:.2} km", meters as f64 / 1000.0)
    }
}

/// A time span in ms as Android's `DateUtils.formatElapsedTime` writes it: `M:SS` or `H:MM:SS`.
pub fn elapsed(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    }
}

/// "Oct 12, 2023, 8:00 AM": when a track started (the phone's zone is UTC).
fn started(sys: &System, ms: i64) -> String {
    let Some(t) = DateTime::from_timestamp_millis(ms) else {
        return String::new();
    };
    let h24 = locale::default_24h(&sys.locale);
    format!(
        "{}, {}",
        records::day(sys, ms),
        locale::format_time(t.hour(), t.minute(), &sys.locale, h24)
    )
}

/// A row's second line: "running · 2.80 mi · 1:00:00".
fn summary(sys: &System, r: &Record) -> String {
    let category = r.values.get(1).map(String::as_str).unwrap_or("");
    let figures = format!(
        "{} · {}",
        distance(sys, stamp(r, DISTANCE)),
        elapsed(stamp(r, TOTAL_TIME))
    );
    if category.is_empty() {
        figures
    } else {
        format!("{category} · {figures}")
    }
}

/// The day the track started, at the row's end.
fn start_day(sys: &System, r: &Record) -> String {
    records::day(sys, stamp(r, START))
}

/// The track page's statistics.
fn statistics(sys: &System, r: &Record) -> Vec<(&'static str, String)> {
    vec![
        ("stats_start", started(sys, stamp(r, START))),
        ("stats_distance", distance(sys, stamp(r, DISTANCE))),
        ("stats_total_time", elapsed(stamp(r, TOTAL_TIME))),
        ("stats_moving_time", elapsed(stamp(r, MOVING_TIME))),
    ]
}

pub static SPEC: Spec = Spec {
    package: PACKAGE,
    activity: ACTIVITY,
    pid: 3651,
    tag: "OpenTracks",
    db_path: DB_PATH,
    schema: SCHEMA,
    table: "tracks",
    key: "_id",
    // TrackListActivity's `ORDER BY starttime DESC`: the newest track first.
    order_by: "starttime DESC, _id DESC",
    fields: FIELDS,
    stamps: &[
        ("starttime", Stamp::Kept),
        ("totaldistance", Stamp::Kept),
        ("totaltime", Stamp::Kept),
        ("movingtime", Stamp::Kept),
    ],
    title_field: 0,
    subtitle: summary,
    trailing: start_day,
    facts: Some(statistics),
    titles: Titles {
        list: "app_name",
        new: "track_edit_title",
        edit: "track_edit_title",
        detail: "track_detail_title",
    },
    ids: Ids {
        list: "track_list",
        row: "track_list_item",
        title: "track_list_item_name",
        subtitle: "track_list_item_summary",
        trailing: "track_list_item_date",
        fab: "",
        save: "track_edit_save",
    },
    intro: None,
    accent: [0, 121, 107, 255],
};

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |sys| records::create(sys, &SPEC),
        install: |sys| records::install(sys, &SPEC),
        on_home_screen: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_times_read_as_android_formats_them() {
        assert_eq!(elapsed(3_600_000), "1:00:00");
        assert_eq!(elapsed(45 * 60_000), "45:00");
        assert_eq!(elapsed(270 * 60_000 + 5_000), "4:30:05");
        assert_eq!(elapsed(59_000), "00:59");
    }
}

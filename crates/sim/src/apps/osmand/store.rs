//! OsmAnd's data where the real app keeps it and AndroidWorld reads it:
//! - favourites: `Android/data/net.osmand/files/favorites/favorites.gpx`, GPX 1.1 `<wpt>`s with a
//!   `<name>` (AndroidWorld rewrites the file with ElementTree, which renames the namespace
//!   `ns0:`, so reading goes by local names);
//! - map markers: `databases/map_markers_db`, table `map_markers` with the columns of
//!   AndroidWorld's `OsmAndMapMarker` row (MapMarkersDbHelper's, plus `title`);
//! - tracks: `Android/data/net.osmand/files/tracks/<name>.gpx`, one `<trk>` whose `<trkseg>` runs
//!   through the planned points in order.

use chrono::{DateTime, NaiveDateTime};
use quick_xml::events::Event;
use rusqlite::{params, Connection};

use crate::apps::storage::{self, StorageError};
use crate::system::System;

/// The app's external files (AndroidWorld's `/data/media/0/Android/data/net.osmand/files`).
pub const FILES: &str = "/sdcard/Android/data/net.osmand/files";
pub const FAVORITES: &str = "/sdcard/Android/data/net.osmand/files/favorites/favorites.gpx";
pub const TRACKS: &str = "/sdcard/Android/data/net.osmand/files/tracks";
/// The internal files folder, whose `backup` AndroidWorld empties with the favourites.
pub const INTERNAL_BACKUP: &str = "/data/data/net.osmand/files/backup";
pub const MARKERS_DB: &str = "/data/data/net.osmand/databases/map_markers_db";

const MARKERS_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS map_markers (marker_id TEXT PRIMARY KEY, marker_lat double, marker_lon double, marker_description TEXT, marker_active int, marker_added long, marker_visited long, group_name TEXT, group_key TEXT, marker_color int, marker_next_key TEXT, marker_disabled int, marker_selected int, marker_map_object_name TEXT, title TEXT);
CREATE TABLE IF NOT EXISTS map_markers_groups (group_marker_id TEXT PRIMARY KEY, group_marker_name TEXT, group_marker_type int, group_marker_disabled int, group_marker_categories TEXT);
";

const GPX_HEADER: &str = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<gpx version=\"1.1\" creator=\"OsmAnd Maps 4.6.13 (4.6.13.1)\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:osmand=\"https://osmand.net\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n";

/// A saved point: a favourite, a marker or a track's waypoint.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub name: String,
    pub lat: f64,
    pub lon: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("map_markers_db: {0}")]
    Db(#[from] rusqlite::Error),
}

/// Creates what the app makes on its first start: its folders and the markers database.
pub fn install(sys: &mut System) -> Result<(), StoreError> {
    for dir in [storage::parent_of(FAVORITES), TRACKS, INTERNAL_BACKUP] {
        storage::ensure_dir(sys, dir)?;
    }
    open_markers(sys)?;
    Ok(())
}

pub fn open_markers(sys: &System) -> rusqlite::Result<Connection> {
    let db = sys.open_db(MARKERS_DB)?;
    db.execute_batch(MARKERS_SCHEMA)?;
    Ok(db)
}

/// The `<wpt>`s of a GPX text (any namespace prefix), with their names.
pub fn read_waypoints(gpx: &str) -> Vec<Point> {
    read_points(gpx, b"wpt")
}

fn read_points(gpx: &str, element: &[u8]) -> Vec<Point> {
    let mut reader = quick_xml::Reader::from_str(gpx);
    let mut points = Vec::new();
    let mut current: Option<Point> = None;
    let mut in_name = false;
    loop {
        match reader.read_event() {
            Ok(ev @ (Event::Start(_) | Event::Empty(_))) => {
                let (e, empty) = match &ev {
                    Event::Start(e) => (e, false),
                    Event::Empty(e) => (e, true),
                    _ => continue,
                };
                if e.local_name().as_ref() == b"name" && !empty {
                    in_name = current.is_some();
                    continue;
                }
                if e.local_name().as_ref() != element {
                    continue;
                }
                let attr = |key: &[u8]| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.local_name().as_ref() == key)
                        .and_then(|a| String::from_utf8_lossy(&a.value).parse::<f64>().ok())
                };
                if let (Some(lat), Some(lon)) = (attr(b"lat"), attr(b"lon")) {
                    let point = Point {
                        name: String::new(),
                        lat,
                        lon,
                    };
                    if empty {
                        points.push(point);
                    } else {
                        current = Some(point);
                    }
                }
            }
            Ok(Event::Text(t)) if in_name => {
                if let (Some(p), Ok(text)) = (current.as_mut(), t.unescape()) {
                    p.name.push_str(&text);
                }
            }
            Ok(Event::End(e)) if e.local_name().as_ref() == b"name" => in_name = false,
            Ok(Event::End(e)) if e.local_name().as_ref() == element => {
                points.extend(current.take());
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
    points.extend(current);
    points
}

fn escape(text: &str) -> String {
    quick_xml::escape::escape(text).into_owned()
}

fn gpx_time(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// The favourites in the file (none when it is missing or unreadable).
pub fn favorites(sys: &System) -> Vec<Point> {
    read_waypoints(&storage::read_text(sys, FAVORITES))
}

/// Adds a favourite, writing the whole file as OsmAnd's FavouritesFileHelper does.
pub fn add_favorite(sys: &mut System, point: Point) -> Result<(), StoreError> {
    let mut all = favorites(sys);
    all.push(point);
    let now = sys.clock.now();
    let mut gpx = String::from(GPX_HEADER);
    gpx.push_str("  <metadata>\n    <name>favorites</name>\n  </metadata>\n");
    for p in &all {
        gpx.push_str(&format!(
            "  <wpt lat=\"{}\" lon=\"{}\">\n    <time>{}</time>\n    <name>{}</name>\n    <extensions>\n      <osmand:icon>special_star</osmand:icon>\n      <osmand:background>circle</osmand:background>\n      <osmand:color>#eecc22</osmand:color>\n    </extensions>\n  </wpt>\n",
            p.lat,
            p.lon,
            gpx_time(now),
            escape(&p.name)
        ));
    }
    gpx.push_str("</gpx>\n");
    storage::ensure_dir(sys, storage::parent_of(FAVORITES))?;
    storage::write_text(sys, FAVORITES, &gpx)?;
    Ok(())
}

/// The active markers, oldest first.
pub fn markers(db: &Connection) -> rusqlite::Result<Vec<Point>> {
    let mut stmt = db.prepare(
        "SELECT marker_description, marker_lat, marker_lon FROM map_markers \
         WHERE marker_active = 1 ORDER BY marker_added",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(Point {
            name: r.get::<_, Option<String>>(0)?.unwrap_or_default(),
            lat: r.get(1)?,
            lon: r.get(2)?,
        })
    })?;
    rows.collect()
}

/// Adds an active marker as MapMarkersDbHelper.addMarker writes it.
pub fn add_marker(db: &Connection, point: &Point, added_ms: i64) -> rusqlite::Result<()> {
    let count: i64 = db.query_row("SELECT count(*) FROM map_markers", [], |r| r.get(0))?;
    let id = format!("{:08x}{:04x}", added_ms as u64 & 0xffff_ffff, count);
    db.execute(
        "INSERT INTO map_markers (marker_id, marker_lat, marker_lon, marker_description, \
         marker_active, marker_added, marker_visited, group_name, group_key, marker_color, \
         marker_next_key, marker_disabled, marker_selected, marker_map_object_name, title) \
         VALUES (?1, ?2, ?3, ?4, 1, ?5, 0, '', '', 0, 'marker_end', 0, 0, '', ?6)",
        params![id, point.lat, point.lon, point.name, added_ms, point.name],
    )?;
    Ok(())
}

/// The points a planned route's track runs through: the waypoints and, between each pair, the
/// straight line sampled as OsmAnd's "straight line" routing mode samples it.
fn track_points(waypoints: &[Point]) -> Vec<(f64, f64)> {
    const STEPS: usize = 8;
    let mut out = Vec::new();
    for (i, w) in waypoints.iter().enumerate() {
        if let Some(next) = waypoints.get(i + 1) {
            for s in 0..STEPS {
                let t = s as f64 / STEPS as f64;
                out.push((
                    w.lat + (next.lat - w.lat) * t,
                    w.lon + (next.lon - w.lon) * t,
                ));
            }
        } else {
            out.push((w.lat, w.lon));
        }
    }
    out
}

/// The file a track of this name is saved as.
pub fn track_path(name: &str) -> String {
    storage::join(TRACKS, &format!("{name}.gpx"))
}

/// Saves a planned route as a track: the waypoints as `<wpt>`s and the line through them as one
/// track segment.
pub fn save_track(sys: &mut System, name: &str, waypoints: &[Point]) -> Result<String, StoreError> {
    let now = sys.clock.now();
    let mut gpx = String::from(GPX_HEADER);
    gpx.push_str(&format!(
        "  <metadata>\n    <name>{}</name>\n    <time>{}</time>\n  </metadata>\n",
        escape(name),
        gpx_time(now)
    ));
    for w in waypoints {
        gpx.push_str(&format!(
            "  <wpt lat=\"{}\" lon=\"{}\">\n    <name>{}</name>\n  </wpt>\n",
            w.lat,
            w.lon,
            escape(&w.name)
        ));
    }
    gpx.push_str(&format!(
        "  <trk>\n    <name>{}</name>\n    <trkseg>\n",
        escape(name)
    ));
    for (lat, lon) in track_points(waypoints) {
        gpx.push_str(&format!(
            "      <trkpt lat=\"{lat:.7}\" lon=\"{lon:.7}\">\n        <ele>NaN</ele>\n      </trkpt>\n"
        ));
    }
    gpx.push_str("    </trkseg>\n  </trk>\n</gpx>\n");
    storage::ensure_dir(sys, TRACKS)?;
    let path = track_path(name);
    storage::write_text(sys, &path, &gpx)?;
    Ok(path)
}

/// The saved tracks' names (file names without `.gpx`), by name.
pub fn tracks(sys: &System) -> Vec<String> {
    storage::list(sys, TRACKS)
        .into_iter()
        .filter(|e| !e.is_dir)
        .filter_map(|e| e.name.strip_suffix(".gpx").map(str::to_string))
        .collect()
}

/// The name OsmAnd proposes for a new planned track: the date and time it was made.
pub fn default_track_name(at_ms: i64) -> String {
    DateTime::from_timestamp_millis(at_ms)
        .map(|t| t.format("Plan_%Y-%m-%d_%H-%M").to_string())
        .unwrap_or_else(|| "Plan".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waypoints_read_whatever_the_namespace_prefix() {
        // What AndroidWorld's ElementTree writes back after emptying the favourites.
        let et = "<ns0:gpx xmlns:ns0=\"http://www.topografix.com/GPX/1/1\" version=\"1.1\"><ns0:metadata><ns0:name>favorites</ns0:name></ns0:metadata><ns0:wpt lat=\"47.1\" lon=\"9.5\"><ns0:name>Home &amp; work</ns0:name></ns0:wpt></ns0:gpx>";
        assert_eq!(
            read_waypoints(et),
            [Point {
                name: "Home & work".into(),
                lat: 47.1,
                lon: 9.5
            }]
        );
        assert!(read_waypoints("<ns0:gpx xmlns:ns0=\"x\" />").is_empty());
        assert!(read_waypoints("").is_empty());
    }

    #[test]
    fn a_track_runs_through_its_waypoints_in_order() {
        let w = |name: &str, lat, lon| Point {
            name: name.into(),
            lat,
            lon,
        };
        let pts = track_points(&[w("a", 47.0, 9.5), w("b", 47.2, 9.6), w("c", 47.1, 9.4)]);
        assert_eq!(pts.first(), Some(&(47.0, 9.5)));
        assert_eq!(pts.last(), Some(&(47.1, 9.4)));
        assert!(pts.contains(&(47.2, 9.6)));
        assert_eq!(pts.len(), 17);
    }
}

//! OsmAnd on the embedded phone, driven as an agent drives it (`am start -W -n` on MapActivity,
//! `uiautomator dump`, `input tap`/`text`) and checked where AndroidWorld reads it: favourites in
//! `/data/media/0/Android/data/net.osmand/files/favorites/favorites.gpx`, markers in
//! `map_markers_db`, tracks as GPX files under `.../files/tracks`.
//!
//! With `OSMAND_SHOTS=<dir>` the screens are also written there as PNGs to look at.

use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

const OSMAND: &str = "net.osmand";
const MAP: &str = "net.osmand/net.osmand.plus.activities.MapActivity";
const FILES: &str = "/data/media/0/Android/data/net.osmand/files";
const MARKERS_DB: &str = "/data/data/net.osmand/databases/map_markers_db";

fn id(name: &str) -> String {
    format!("{OSMAND}:id/{name}")
}

fn tap_id(phone: &Phone, name: &str) {
    let h = screen(phone);
    tap(phone, by_id(&h, &id(name)).bounds);
}

fn tap_text(phone: &Phone, text: &str) {
    let h = screen(phone);
    let n = find(&h, &|n| n.text == text).unwrap_or_else(|| panic!("no {text:?} in {}", h.xml));
    tap(phone, n.bounds);
}

fn shot(phone: &Phone, name: &str) {
    let Ok(dir) = std::env::var("OSMAND_SHOTS") else {
        return;
    };
    sh(phone, "screencap -p /sdcard/osmand_shot.png");
    let png = phone
        .read_file("/sdcard/osmand_shot.png")
        .expect("the shot");
    std::fs::write(format!("{dir}/{name}.png"), png).expect("write the shot");
    sh(phone, "rm /sdcard/osmand_shot.png");
}

fn open(phone: &Phone) {
    let out = sh(phone, &format!("am start -W -n {MAP}"));
    assert!(out.contains("Status: ok"), "{out}");
}

/// Searches from the map and opens the result titled `title`.
fn search_and_open(phone: &Phone, query: &str, title: &str) {
    tap_id(phone, "map_search_button");
    sh(phone, &format!("input text {query}"));
    let h = screen(phone);
    let row = find(&h, &|n| n.resource_id == id("title") && n.text == title)
        .unwrap_or_else(|| panic!("no result {title:?} in {}", h.xml));
    tap(phone, row.bounds);
}

#[test]
fn favourites_and_markers_land_where_androidworld_reads_them() {
    let phone = boot(5);
    assert!(sh(&phone, "pm list packages").contains("package:net.osmand\n"));
    // AndroidWorld's checks find the app's folders before anything is saved.
    assert!(sh(&phone, &format!("ls {FILES}")).contains("tracks"));
    open(&phone);
    assert!(sh(&phone, "dumpsys window | grep mCurrentFocus").contains(MAP));
    shot(&phone, "map");
    search_and_open(&phone, "Balzers", "Balzers");
    let h = screen(&phone);
    assert_eq!(by_id(&h, &id("context_menu_line1")).text, "Balzers");
    assert_eq!(
        by_id(&h, &id("context_menu_coordinates")).text,
        "47.06888, 9.50616"
    );
    shot(&phone, "place");
    tap_id(&phone, "context_menu_fav_button");
    shot(&phone, "favorite_dialog");
    tap(&phone, by_id(&screen(&phone), "android:id/button1").bounds);
    let gpx = sh(&phone, &format!("cat {FILES}/favorites/favorites.gpx"));
    assert!(
        gpx.contains("<wpt lat=\"47.0688832\" lon=\"9.5061564\">")
            && gpx.contains("<name>Balzers</name>"),
        "{gpx}"
    );
    tap_id(&phone, "context_menu_marker_button");
    let rows = sh(
        &phone,
        &format!("sqlite3 {MARKERS_DB} 'SELECT marker_lat, marker_lon, marker_active, title FROM map_markers'"),
    );
    assert_eq!(rows.trim(), "47.0688832|9.5061564|1|Balzers");
    // AndroidWorld's cleanup rewrites favourites with ElementTree (namespace `ns0:`, no points);
    // the next favourite still lands in a file it can read.
    sh(
        &phone,
        &format!(
            "echo '<ns0:gpx xmlns:ns0=\"http://www.topografix.com/GPX/1/1\" version=\"1.1\"><ns0:metadata><ns0:name>favorites</ns0:name></ns0:metadata></ns0:gpx>' > {FILES}/favorites/favorites.gpx"
        ),
    );
    tap_id(&phone, "context_menu_close_btn");
    search_and_open(&phone, "47.1663432,9.5103085", "47.1663432, 9.5103085");
    tap_id(&phone, "context_menu_fav_button");
    tap(&phone, by_id(&screen(&phone), "android:id/button1").bounds);
    let gpx = sh(&phone, &format!("cat {FILES}/favorites/favorites.gpx"));
    assert_eq!(gpx.matches("<wpt ").count(), 1, "{gpx}");
    assert!(
        gpx.contains("lat=\"47.1663432\" lon=\"9.5103085\""),
        "{gpx}"
    );
    shot(&phone, "map_with_pins");
    // `pm clear` leaves no favourites, no markers and empty folders.
    assert!(sh(&phone, &format!("pm clear {OSMAND}")).contains("Success"));
    assert_eq!(sh(&phone, &format!("ls {FILES}/tracks")), "");
    assert_eq!(
        sh(
            &phone,
            &format!("sqlite3 {MARKERS_DB} 'SELECT count(*) FROM map_markers'")
        )
        .trim(),
        "0"
    );
}

#[test]
fn a_planned_route_is_saved_as_a_track_through_its_points_in_order() {
    let phone = boot(6);
    open(&phone);
    tap_id(&phone, "map_menu_button");
    shot(&phone, "menu");
    tap_text(&phone, "Plan a route");
    for (query, title) in [
        ("Ruggell", "Ruggell"),
        ("Schonberg", "Schönberg"),
        ("Balzers", "Balzers"),
    ] {
        tap_id(&phone, "add_point_button");
        search_and_open_from_search(&phone, query, title);
    }
    let h = screen(&phone);
    assert!(find(&h, &|n| n.text == "3. Balzers").is_some(), "{}", h.xml);
    shot(&phone, "plan");
    tap_id(&phone, "save_button");
    let h = screen(&phone);
    let name = by_id(&h, &id("name_edit_text")).text.clone();
    assert!(name.starts_with("Plan_"), "{name}");
    shot(&phone, "save_track");
    tap(&phone, by_id(&h, "android:id/button1").bounds);
    let files = sh(&phone, &format!("ls {FILES}/tracks"));
    assert_eq!(files.trim(), format!("{name}.gpx"));
    let gpx = sh(&phone, &format!("cat {FILES}/tracks/{name}.gpx"));
    let at = |needle: &str| {
        gpx.find(needle)
            .unwrap_or_else(|| panic!("no {needle} in {gpx}"))
    };
    let ruggell = at("<trkpt lat=\"47.2397600\" lon=\"9.5262837\">");
    let schoenberg = at("<trkpt lat=\"47.1303814\" lon=\"9.5930117\">");
    let balzers = at("<trkpt lat=\"47.0688832\" lon=\"9.5061564\">");
    assert!(ruggell < schoenberg && schoenberg < balzers);
    // The saved track is listed under My places.
    tap_id(&phone, "map_menu_button");
    tap_text(&phone, "Tracks");
    assert!(find(&screen(&phone), &|n| n.text == name).is_some());
}

/// The search screen is already open (Add point): type and pick.
fn search_and_open_from_search(phone: &Phone, query: &str, title: &str) {
    sh(phone, &format!("input text {query}"));
    let h = screen(phone);
    let row = find(&h, &|n| n.resource_id == id("title") && n.text == title)
        .unwrap_or_else(|| panic!("no result {title:?} in {}", h.xml));
    tap(phone, row.bounds);
}

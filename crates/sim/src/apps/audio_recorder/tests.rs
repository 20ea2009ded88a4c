use std::time::Duration;

use super::*;

#[test]
fn durations_read_as_the_app_formats_them() {
    assert_eq!(format_duration(0), "00:00");
    assert_eq!(format_duration(5_999), "00:05");
    assert_eq!(format_duration(61_000), "01:01");
    assert_eq!(format_duration(3_723_000), "1:02:03");
}

#[test]
fn a_pause_is_left_out_of_the_length() {
    let s = Duration::from_secs;
    let mut r = Recording {
        before: Duration::ZERO,
        since: Some(s(10)),
    };
    assert_eq!(r.elapsed(s(14)), s(4));
    // Paused at 14 s, resumed at 30 s: the 16 s between do not count.
    r.before += s(14) - s(10);
    r.since = None;
    assert_eq!(r.elapsed(s(20)), s(4));
    r.since = Some(s(30));
    assert_eq!(r.elapsed(s(31)), s(5));
}

#[test]
fn prefs_values_are_read_by_key_and_type() {
    let xml = "<map>\n    <long name=\"record_counter\" value=\"7\" />\n    \
               <boolean name=\"ask_to_rename_after_stop\" value=\"false\" />\n</map>";
    assert_eq!(pref_value(xml, "long", "record_counter"), Some("7"));
    assert_eq!(
        pref_value(xml, "boolean", "ask_to_rename_after_stop"),
        Some("false")
    );
    assert_eq!(pref_value(xml, "long", "other"), None);
}

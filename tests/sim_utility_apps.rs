//! Clock, Calculator and Calendar of the embedded phone, driven through the app contract the
//! framework uses (render a tree, deliver events addressed by the tapped view's tag) and checked
//! by their view trees, logcat and the real SQLite files they write.

use chrono::{NaiveDate, NaiveDateTime};
use droidmcp::geom::Bounds;
use droidmcp::sim::app::{App, AppInfo, UiEvent};
use droidmcp::sim::apps::{calculator, calendar, clock};
use droidmcp::sim::system::{SimClock, System};
use droidmcp::sim::view::View;

use crate::util::inked;

/// 2026-11-23 09:15, a Monday.
fn monday_morning() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 23)
        .unwrap()
        .and_hms_opt(9, 15, 0)
        .unwrap()
}

/// A phone-sized system (Pixel 6 at the given font scale) on a private root.
fn system(root: &std::path::Path, width: i32, height: i32, dpi: i32, font_scale: f32) -> System {
    System::new(
        root.to_path_buf(),
        SimClock::virtual_at(monday_morning()),
        crate::util::metrics(width, height, dpi, font_scale),
        0,
    )
}

/// One app on a fresh phone, tapped by what the dump shows.
struct Harness {
    _dir: tempfile::TempDir,
    sys: System,
    app: Box<dyn App>,
}

impl Harness {
    fn new(info: AppInfo) -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let mut sys = system(dir.path(), 1080, 2400, 420, 1.0);
        (info.install)(&mut sys);
        let app = (info.create)(&mut sys);
        Harness {
            _dir: dir,
            sys,
            app,
        }
    }

    fn screen(&self) -> View {
        self.app.render(&self.sys)
    }

    fn find(&self, pred: &dyn Fn(&View) -> bool) -> Option<View> {
        fn walk(v: &View, pred: &dyn Fn(&View) -> bool) -> Option<View> {
            if pred(v) {
                return Some(v.clone());
            }
            v.children.iter().find_map(|c| walk(c, pred))
        }
        walk(&self.screen(), pred)
    }

    fn by_id(&self, name: &str) -> Option<View> {
        let full = format!("{}:id/{name}", self.app.package());
        self.find(&|v| v.resource_id == full || v.resource_id == name)
    }

    fn text_of(&self, name: &str) -> String {
        self.by_id(name)
            .unwrap_or_else(|| panic!("no view {name}"))
            .text
    }

    fn send(&mut self, event: UiEvent) -> bool {
        let handled = self.app.handle(&event, &mut self.sys);
        self.sys.requests.clear();
        handled
    }

    fn tap(&mut self, v: View) {
        assert!(v.flags.clickable, "{v:?} is not clickable");
        let tag = v.tag.clone().expect("clickable views carry a tag");
        assert!(
            self.send(UiEvent::Click(tag)),
            "tap on {v:?} was not handled"
        );
    }

    fn tap_id(&mut self, name: &str) {
        let v = self.by_id(name).unwrap_or_else(|| panic!("no view {name}"));
        self.tap(v);
    }

    fn tap_desc(&mut self, desc: &str) {
        let v = self
            .find(&|v| v.content_desc == desc && v.flags.clickable)
            .unwrap_or_else(|| panic!("no clickable view described {desc:?}"));
        self.tap(v);
    }

    fn tap_text(&mut self, text: &str) {
        let v = self
            .find(&|v| v.text == text && v.flags.clickable)
            .unwrap_or_else(|| panic!("no clickable view with text {text:?}"));
        self.tap(v);
    }

    fn type_into(&mut self, name: &str, text: &str) {
        let v = self
            .by_id(name)
            .unwrap_or_else(|| panic!("no field {name}"));
        let tag = v.tag.expect("editable views carry a tag");
        self.send(UiEvent::TextChanged {
            tag,
            text: text.into(),
        });
    }

    fn log_has(&self, tag: &str, needle: &str) -> bool {
        self.sys
            .logcat
            .entries
            .iter()
            .any(|e| e.tag == tag && e.message.contains(needle))
    }

    fn sql(&self, db: &str, query: &str) -> Vec<String> {
        let conn = self.sys.open_db(db).unwrap();
        let mut stmt = conn.prepare(query).unwrap();
        let cols = stmt.column_count();
        stmt.query_map([], |r| {
            Ok((0..cols)
                .map(|i| {
                    let v: rusqlite::types::Value = r.get(i)?;
                    Ok(match v {
                        rusqlite::types::Value::Null => String::new(),
                        rusqlite::types::Value::Integer(i) => i.to_string(),
                        rusqlite::types::Value::Real(f) => f.to_string(),
                        rusqlite::types::Value::Text(t) => t,
                        rusqlite::types::Value::Blob(_) => "<blob>".into(),
                    })
                })
                .collect::<rusqlite::Result<Vec<_>>>()?
                .join("|"))
        })
        .unwrap()
        .collect::<rusqlite::Result<Vec<_>>>()
        .unwrap()
    }
}

const ALARMS_DB: &str = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db";
const CALENDAR_DB: &str = "/data/data/com.android.providers.calendar/databases/calendar.db";

#[test]
fn clock_fresh_install_has_deskclocks_two_default_alarms() {
    let h = Harness::new(clock::info());
    assert_eq!(
        h.sql(
            ALARMS_DB,
            "select hour,minutes,daysofweek,enabled,vibrate,label from alarm_templates order by _id"
        ),
        vec!["8|30|31|0|1|", "9|0|96|0|1|"]
    );
    let times: Vec<String> = ["8:30 AM", "9:00 AM"]
        .iter()
        .filter(|t| h.find(&|v| v.text == **t).is_some())
        .map(|t| t.to_string())
        .collect();
    assert_eq!(times, vec!["8:30 AM", "9:00 AM"]);
}

#[test]
fn clock_creates_a_weekday_alarm_at_10_30_through_the_time_picker() {
    let mut h = Harness::new(clock::info());
    h.tap_id("fab");
    h.tap_desc("10 o'clock");
    h.tap_desc("30 minutes");
    h.tap_id("material_clock_period_am_button");
    h.tap_id("material_timepicker_ok_button");
    for day in 1..=5 {
        h.tap_id(&format!("day_button_{day}"));
    }
    assert_eq!(
        h.sql(
            ALARMS_DB,
            "select hour,minutes,daysofweek,enabled from alarm_templates where hour=10"
        ),
        vec!["10|30|31|1"]
    );
    // The next firing is later today (Monday 09:15 now); month is 0-based as java.util.Calendar counts.
    assert_eq!(
        h.sql(
            ALARMS_DB,
            "select year,month,day,hour,minutes,alarm_state from alarm_instances"
        ),
        vec!["2026|10|23|10|30|0"]
    );
    assert!(h.log_has("AlarmClock", "Created new alarm instance"));
    assert!(h.log_has("AlarmClock", "Events: [Alarm] [Create] [DeskClock]"));
    assert!(h.log_has(
        "ConditionProviders.SCP",
        "nextUserAlarmTime=Mon Nov 23 10:30:00 GMT 2026"
    ));
    let checked: Vec<bool> = (0..7)
        .map(|d| h.by_id(&format!("day_button_{d}")).unwrap().flags.checked)
        .collect();
    assert_eq!(checked, vec![false, true, true, true, true, true, false]);
    assert_eq!(
        h.by_id("days_of_week")
            .map(|v| v.text)
            .filter(|t| t.contains("Mon"))
            .as_deref(),
        Some("Mon, Tue, Wed, Thu, Fri")
    );
}

#[test]
fn clock_keyboard_mode_sets_any_minute_in_the_afternoon() {
    let mut h = Harness::new(clock::info());
    h.tap_id("fab");
    h.tap_id("material_timepicker_mode_button");
    let fields: Vec<String> = ["material_hour_text_input", "material_minute_text_input"]
        .iter()
        .map(|id| h.by_id(id).unwrap().children[0].tag.clone().unwrap())
        .collect();
    h.send(UiEvent::TextChanged {
        tag: fields[0].clone(),
        text: "1".into(),
    });
    h.send(UiEvent::TextChanged {
        tag: fields[1].clone(),
        text: "37".into(),
    });
    h.tap_id("material_clock_period_pm_button");
    h.tap_id("material_timepicker_ok_button");
    assert_eq!(
        h.sql(
            ALARMS_DB,
            "select hour,minutes,enabled from alarm_templates where hour>12"
        ),
        vec!["13|37|1"]
    );
    assert!(h.log_has("ConditionProviders.SCP", "13:37:00"));
}

#[test]
fn clock_switch_enables_an_alarm_and_delete_removes_it() {
    let mut h = Harness::new(clock::info());
    let nine = h
        .find(&|v| v.resource_id.ends_with(":id/onoff") && v.content_desc == "9:00 AM")
        .unwrap();
    assert!(!nine.flags.checked);
    h.tap(nine);
    assert_eq!(
        h.sql(
            ALARMS_DB,
            "select enabled from alarm_templates where hour=9"
        ),
        vec!["1"]
    );
    assert!(
        h.find(&|v| v.resource_id.ends_with(":id/onoff") && v.content_desc == "9:00 AM")
            .unwrap()
            .flags
            .checked
    );
    assert!(h.log_has(
        "ConditionProviders.SCP",
        "nextUserAlarmTime=Sat Nov 28 09:00:00 GMT 2026"
    ));

    let card = h.find(&|v| v.content_desc == "8:30 AM Alarm").unwrap();
    h.tap(card);
    h.tap_id("delete");
    assert_eq!(
        h.sql(ALARMS_DB, "select hour,minutes from alarm_templates"),
        vec!["9|0"]
    );
}

#[test]
fn clock_label_dialog_writes_the_label() {
    let mut h = Harness::new(clock::info());
    let card = h.find(&|v| v.content_desc == "9:00 AM Alarm").unwrap();
    h.tap(card);
    h.tap_id("edit_label");
    h.type_into("label_input_field", "Gym");
    h.tap_id("android:id/button1");
    assert_eq!(
        h.sql(ALARMS_DB, "select label from alarm_templates where hour=9"),
        vec!["Gym"]
    );
    assert!(h.find(&|v| v.content_desc == "9:00 AM Gym").is_some());
}

#[test]
fn clock_stopwatch_runs_on_the_sim_clock() {
    let mut h = Harness::new(clock::info());
    h.tap_desc("Stopwatch");
    assert!(h.log_has("AlarmClock", "Events: [Stopwatch] [Show Tab] [Tap]"));
    // Paused and reset: a Start control, and the tab named twice (item and label).
    assert!(h.find(&|v| v.content_desc == "Start").is_some());
    let named = {
        fn count(v: &View) -> usize {
            (v.text == "Stopwatch" || v.content_desc == "Stopwatch") as usize
                + v.children.iter().map(count).sum::<usize>()
        }
        count(&h.screen())
    };
    assert!(named >= 2);
    h.tap_desc("Start");
    assert!(h.log_has("AlarmClock", "Events: [Stopwatch] [Start] [DeskClock]"));
    assert!(h.find(&|v| v.content_desc == "Pause").is_some());
    assert!(h.find(&|v| v.content_desc == "Lap").is_some());
    h.sys.clock.advance_ms(5_250);
    assert_eq!(h.text_of("stopwatch_time_text"), "0:05.25");
    h.tap_desc("Lap");
    h.tap_desc("Pause");
    h.sys.clock.advance_ms(10_000);
    assert_eq!(h.text_of("stopwatch_time_text"), "0:05.25");
    assert_eq!(h.text_of("lap_total"), "0:05.25");
    h.tap_desc("Reset");
    assert_eq!(h.text_of("stopwatch_time_text"), "0:00.00");
}

#[test]
fn clock_timer_entry_shows_the_typed_duration_and_counts_down() {
    let mut h = Harness::new(clock::info());
    h.tap_desc("Timer");
    for d in ["1", "2", "3", "4", "5"] {
        h.tap_id(&format!("timer_setup_digit_{d}"));
    }
    let setup = h.by_id("timer_setup_time").unwrap();
    assert_eq!(setup.text, "01h 23m 45s");
    assert_eq!(setup.content_desc, "1 hours, 23 minutes, 45 seconds");
    h.tap_desc("Start");
    h.sys.clock.advance_ms(45_000);
    assert_eq!(h.text_of("timer_time_text"), "1:23:00");
    h.tap_desc("Pause");
    h.sys.clock.advance_ms(60_000);
    assert_eq!(h.text_of("timer_time_text"), "1:23:00");
}

#[test]
fn calculator_shows_formula_preview_and_final_result_like_google_calculator() {
    let mut h = Harness::new(calculator::info());
    // B-MoCA's "open Calculator" check: the clear key is there and enabled at launch.
    assert!(h.by_id("clr").unwrap().flags.enabled);
    for key in [
        "digit_2", "op_add", "digit_2", "digit_4", "op_div", "digit_3",
    ] {
        h.tap_id(key);
    }
    assert_eq!(h.text_of("formula"), "2+24÷3");
    assert_eq!(h.text_of("result_preview"), "10");
    // An operator trailing the formula leaves nothing to preview ("2+" shows no result).
    h.tap_id("op_add");
    assert_eq!(h.text_of("result_preview"), "");
    h.tap_id("del");
    h.tap_id("eq");
    assert_eq!(h.text_of("result_final"), "10");
    assert!(h.by_id("result_preview").is_none());
    h.tap_id("clr");
    assert_eq!(h.text_of("formula"), "");

    // Harmonic mean of 4 and 5 with the parentheses key.
    for key in [
        "digit_2", "op_mul", "digit_4", "op_mul", "digit_5", "op_div", "parens", "digit_4",
        "op_add", "digit_5", "parens",
    ] {
        h.tap_id(key);
    }
    assert_eq!(h.text_of("formula"), "2×4×5÷(4+5)");
    h.tap_id("eq");
    // After "=" the formula gives way to the result, as in Google Calculator.
    assert_eq!(h.text_of("formula"), "");
    assert!(h.text_of("result_final").starts_with("4.44"));

    h.tap_id("clr");
    for key in ["digit_7", "op_div", "digit_0", "eq"] {
        h.tap_id(key);
    }
    assert_eq!(h.text_of("result_final"), "Can't divide by 0");
}

#[test]
fn calculator_advanced_pad_expands_and_types_functions() {
    let mut h = Harness::new(calculator::info());
    assert!(h.by_id("fun_cos").is_none());
    h.tap_id("op_sqrt");
    h.tap_id("digit_2");
    h.tap_id("digit_5");
    assert_eq!(h.text_of("formula"), "√25");
    assert_eq!(h.text_of("result_preview"), "5");
    h.tap_id("clr");
    h.tap_id("collapse_expand");
    h.tap_id("toggle_mode");
    assert_eq!(h.text_of("deg_rad"), "DEG");
    h.tap_id("fun_cos");
    h.tap_id("digit_6");
    h.tap_id("digit_0");
    assert_eq!(h.text_of("formula"), "cos(60");
    assert_eq!(h.text_of("result_preview"), "0.5");
}

#[test]
fn calendar_creates_an_event_with_the_editor_and_deletes_it() {
    let mut h = Harness::new(calendar::info());
    assert_eq!(
        h.sql(CALENDAR_DB, "select _id, account_type from Calendars"),
        vec!["1|LOCAL"]
    );
    h.tap_desc("Create new event and more");
    h.tap_id("speed_dial_event_container");
    h.type_into("input", "Dentist");
    h.type_into("description", "Bring the forms");
    // Start: Wednesday Nov 25 at 2:30 PM; the end follows, an hour later.
    h.tap_id("start_date");
    h.tap_desc("25 November 2026");
    h.tap_id("android:id/button1");
    h.tap_id("start_time");
    h.tap_desc("2 o'clock");
    h.tap_desc("30 minutes");
    h.tap_id("material_clock_period_pm_button");
    h.tap_id("material_timepicker_ok_button");
    assert_eq!(h.text_of("end_time"), "3:30 PM");
    h.tap_id("save");

    let start = NaiveDate::from_ymd_opt(2026, 11, 25)
        .unwrap()
        .and_hms_opt(14, 30, 0)
        .unwrap()
        .and_utc()
        .timestamp_millis();
    assert_eq!(
        h.sql(
            CALENDAR_DB,
            "select calendar_id,title,description,dtstart,dtend,allDay,eventTimezone,deleted from Events"
        ),
        vec![format!(
            "1|Dentist|Bring the forms|{start}|{}|0|UTC|0",
            start + 3_600_000
        )]
    );
    assert_eq!(
        h.sql(CALENDAR_DB, "select begin,end from Instances"),
        vec![format!("{start}|{}", start + 3_600_000)]
    );

    // The month grid counts it; the day view lists it; details delete it.
    let cell = h
        .find(&|v| v.content_desc == "Wednesday, November 25, 2026, 1 event")
        .unwrap();
    h.tap(cell);
    h.tap_desc("Dentist, 2:30 PM – 3:30 PM");
    assert_eq!(h.text_of("title"), "Dentist");
    h.tap_desc("Delete");
    h.tap_id("android:id/button1");
    assert!(h.sql(CALENDAR_DB, "select _id from Events").is_empty());
    assert!(h
        .find(&|v| v.text == "Nothing planned. Tap to create.")
        .is_some());
}

#[test]
fn calendar_all_day_event_spans_utc_midnights() {
    let mut h = Harness::new(calendar::info());
    h.tap_desc("Switch to day view");
    h.tap_text("Nothing planned. Tap to create.");
    h.type_into("input", "Holiday");
    h.tap_id("all_day_switch");
    assert!(h.by_id("start_time").is_none());
    h.tap_id("save");
    let midnight = NaiveDate::from_ymd_opt(2026, 11, 23)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc()
        .timestamp_millis();
    assert_eq!(
        h.sql(CALENDAR_DB, "select title,allDay,dtstart,dtend from Events"),
        vec![format!("Holiday|1|{midnight}|{}", midnight + 86_400_000)]
    );
    assert!(h.find(&|v| v.content_desc == "Holiday, All day").is_some());
}

/// Every clickable view of every screen lies inside the content area with a usable size, on
/// phones and a tablet at different densities and font scales (layout scales with both).
#[test]
fn layouts_fit_the_content_area_on_every_profile() {
    let profiles = [
        (1080, 2160, 440, 1.0),
        (1080, 2400, 420, 1.3),
        (2560, 1600, 320, 1.0),
        (720, 1280, 320, 0.85),
    ];
    for (w, hgt, dpi, scale) in profiles {
        for info in [clock::info(), calculator::info(), calendar::info()] {
            let mut h = Harness::new(info);
            h.sys = system(h._dir.path(), w, hgt, dpi, scale);
            let content = h.sys.metrics.content;
            let mut screens = vec![h.screen()];
            // Visit a second screen per app: an open picker or the advanced pad.
            let next = ["fab", "collapse_expand", "floating_action_button"]
                .iter()
                .find(|id| h.by_id(id).is_some())
                .copied();
            if let Some(id) = next {
                h.tap_id(id);
                screens.push(h.screen());
            }
            fn check(v: &View, content: Bounds, where_: &str) {
                if v.flags.clickable {
                    let b = v.bounds;
                    assert!(
                        b.left >= content.left
                            && b.right <= content.right
                            && b.top >= content.top
                            && b.bottom <= content.bottom
                            && b.width() > 0
                            && b.height() > 0,
                        "{where_}: {} {:?} at {b} outside {content}",
                        v.resource_id,
                        v.content_desc
                    );
                }
                // Children of scroll containers may lie below the fold.
                if !v.flags.scrollable {
                    for c in &v.children {
                        check(c, content, where_);
                    }
                }
            }
            for s in &screens {
                check(
                    s,
                    content,
                    &format!("{} on {w}x{hgt}@{dpi}", h.app.package()),
                );
            }
        }
    }
}

/// AndroidWorld's "turn on the 9:00 alarm" check reads `09:00` on a 24-hour phone.
#[test]
fn clock_follows_the_24_hour_setting() {
    let mut h = Harness::new(clock::info());
    h.sys
        .settings
        .put(droidmcp::sim::system::Namespace::System, "time_12_24", "24");
    assert!(h.find(&|v| v.text == "09:00").is_some());
    h.tap_id("fab");
    assert!(h.by_id("material_clock_period_am_button").is_none());
    h.tap_desc("17 o'clock");
    h.tap_desc("45 minutes");
    h.tap_id("material_timepicker_ok_button");
    assert_eq!(
        h.sql(
            ALARMS_DB,
            "select hour,minutes from alarm_templates where hour=17"
        ),
        vec!["17|45"]
    );
    assert!(h.find(&|v| v.text == "17:45").is_some());
}

/// Each app's screen renders to a non-trivial picture in both themes, with glyphs where its key
/// texts are (the formula, the alarm time, the month name).
#[test]
fn screenshots_show_each_apps_texts_in_light_and_dark_themes() {
    use droidmcp::sim::render::{render_scaled, Scale, Theme};
    let cases: [(AppInfo, &[&str], &str); 3] = [
        (clock::info(), &[], "digital_clock"),
        (
            calculator::info(),
            &[
                "digit_2", "op_add", "digit_2", "digit_4", "op_div", "digit_3",
            ],
            "formula",
        ),
        (calendar::info(), &[], "date_picker_text_view"),
    ];
    for (info, taps, text_id) in cases {
        let mut h = Harness::new(info);
        for t in taps {
            h.tap_id(t);
        }
        let screen = h.screen();
        let text_view = h.by_id(text_id).unwrap();
        assert!(!text_view.text.is_empty(), "{text_id} has text");
        for dark in [false, true] {
            let img = render_scaled(
                std::slice::from_ref(&screen),
                1080,
                2400,
                Theme { dark },
                Scale::DEFAULT,
            );
            let corner = img.get_pixel(2, 2).0;
            let colours: std::collections::HashSet<[u8; 4]> =
                img.pixels().step_by(97).map(|p| p.0).collect();
            assert!(colours.len() > 8, "{text_id}: a nearly blank screen");
            let ink = inked(&img, text_view.bounds, corner);
            assert!(
                ink > 200,
                "{text_id} (dark={dark}): {ink} glyph pixels in {}",
                text_view.bounds
            );
            let _ = img.save(std::env::temp_dir().join(format!(
                "droidmcp-sim-apps-a-{}-{}.png",
                h.app.package(),
                if dark { "dark" } else { "light" }
            )));
        }
    }
}

/// The same apps on a booted phone, driven only through `Phone::exec` as an adb client would:
/// launch with monkey, find elements in `uiautomator dump`, tap their centres, read results with
/// `sqlite3`, `content query`, `logcat` and the dump.
mod shell {
    use droidmcp::hierarchy::{parse, Hierarchy, Node};
    use droidmcp::sim::{Phone, SimConfig};

    use crate::util::sh;

    /// The default phone (seed 0).
    fn boot() -> Phone {
        crate::util::boot(SimConfig::default().seed)
    }

    fn dump(phone: &Phone) -> Hierarchy {
        let xml = sh(phone, "uiautomator dump /dev/tty");
        parse(xml.as_bytes()).expect("dump parses")
    }

    fn find(h: &Hierarchy, pred: impl Fn(&Node) -> bool) -> Option<Node> {
        h.nodes.iter().find(|n| pred(n)).cloned()
    }

    fn tap_node(phone: &Phone, n: &Node) {
        let c = n.bounds.center();
        sh(phone, &format!("input tap {} {}", c.x, c.y));
    }

    /// Taps the first node matching `what`: a resource id (`pkg:id/x` or `android:id/x`), else a
    /// content-desc, else a text.
    fn tap(phone: &Phone, what: &str) {
        let h = dump(phone);
        let n = find(&h, |n| n.resource_id == what)
            .or_else(|| find(&h, |n| n.content_desc == what))
            .or_else(|| find(&h, |n| n.text == what))
            .unwrap_or_else(|| panic!("nothing on screen matches {what:?}: {}", h.xml));
        tap_node(phone, &n);
    }

    /// Taps a number on the time picker's clock face (the hour chip may carry the same desc).
    fn tap_face(phone: &Phone, desc: &str) {
        let h = dump(phone);
        let n = find(&h, |n| {
            n.content_desc == desc && n.class == "android.widget.TextView"
        })
        .unwrap_or_else(|| panic!("no clock-face number {desc:?}"));
        tap_node(phone, &n);
    }

    fn text_of(phone: &Phone, resource_id: &str) -> String {
        let h = dump(phone);
        find(&h, |n| n.resource_id == resource_id)
            .unwrap_or_else(|| panic!("no {resource_id} on screen"))
            .text
    }

    const CLOCK: &str = "com.google.android.deskclock";
    const ALARMS_DB: &str = "/data/user_de/0/com.google.android.deskclock/databases/alarms.db";

    #[test]
    fn clock_weekday_alarm_at_10_30_lands_in_alarms_db() {
        let phone = boot();
        sh(
            &phone,
            "monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1",
        );
        assert!(sh(&phone, "logcat -d -s ActivityTaskManager:I").contains("com.android.deskclock"));
        tap(&phone, &format!("{CLOCK}:id/fab"));
        tap_face(&phone, "10 o'clock");
        tap_face(&phone, "30 minutes");
        tap(
            &phone,
            &format!("{CLOCK}:id/material_clock_period_am_button"),
        );
        tap(&phone, &format!("{CLOCK}:id/material_timepicker_ok_button"));
        for day in ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"] {
            tap(&phone, day);
        }
        assert_eq!(
            sh(
                &phone,
                &format!("sqlite3 {ALARMS_DB} \"select hour,minutes,daysofweek,enabled from alarm_templates where hour=10\"")
            ),
            "10|30|31|1\n"
        );
        let scp = sh(&phone, "logcat -d -s ConditionProviders.SCP:D");
        assert!(
            regex::Regex::new(r"nextUserAlarmTime(.*?)10:30:00")
                .unwrap()
                .is_match(&scp),
            "{scp}"
        );
        let alarm_log = sh(&phone, "logcat -d -s AlarmClock:I");
        assert!(
            alarm_log.contains("Created new alarm instance"),
            "{alarm_log}"
        );
        // The dump shows the new card with Monday to Friday checked.
        let h = dump(&phone);
        let checked: Vec<bool> = (0..7)
            .map(|d| {
                find(&h, |n| {
                    n.resource_id == format!("{CLOCK}:id/day_button_{d}")
                })
                .expect("day buttons of the expanded card")
                .checked
            })
            .collect();
        assert_eq!(checked, vec![false, true, true, true, true, true, false]);
    }

    #[test]
    fn clock_tabs_log_deskclock_events_and_stopwatch_runs() {
        let phone = boot();
        sh(
            &phone,
            "monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1",
        );
        tap(&phone, "Stopwatch");
        tap(&phone, "Start");
        let log = sh(&phone, "logcat -d -s AlarmClock:D");
        assert!(
            log.contains("Events: [Stopwatch] [Show Tab] [Tap]"),
            "{log}"
        );
        assert!(
            log.contains("Events: [Stopwatch] [Start] [DeskClock]"),
            "{log}"
        );
        let h = dump(&phone);
        assert!(find(&h, |n| n.content_desc == "Pause").is_some());
        assert!(find(&h, |n| n.content_desc == "Lap").is_some());
        assert!(sh(&phone, "dumpsys window").contains("com.android.deskclock.DeskClock"));
    }

    /// AndroidWorld's ClockTimerEntry check, on the commands it sends: after `pm clear` (its
    /// `initialize_task`) and the digits typed on the Timer tab, android_env's current activity
    /// (`am stack list | grep -E visible=true`, the `{…}` it cuts out) names DeskClock and the dump
    /// holds `12h 48m 56s` / `12 hours, 48 minutes, 56 seconds`; pressing Start leaves neither.
    #[test]
    fn clock_timer_entry_as_androidworld_reads_it() {
        let phone = boot();
        assert_eq!(sh(&phone, &format!("pm clear {CLOCK}")), "Success\n");
        sh(
            &phone,
            &format!("monkey -p {CLOCK} -c android.intent.category.LAUNCHER 1"),
        );
        tap(&phone, "Timer");
        for d in ["1", "2", "4", "8", "5", "6"] {
            tap(&phone, &format!("{CLOCK}:id/timer_setup_digit_{d}"));
        }
        let visible = sh(&phone, "am stack list | grep -E visible=true");
        let activity = regex::Regex::new(r".*\{(.*)\}")
            .unwrap()
            .captures(&visible)
            .map(|c| c[1].to_string());
        assert_eq!(
            activity.as_deref(),
            Some("com.google.android.deskclock/com.android.deskclock.DeskClock")
        );
        let set = |h: &Hierarchy| {
            find(h, |n| {
                n.text == "12h 48m 56s" || n.content_desc == "12 hours, 48 minutes, 56 seconds"
            })
            .is_some()
        };
        assert!(set(&dump(&phone)));
        tap(&phone, "Start");
        assert!(
            !set(&dump(&phone)),
            "a started timer is no longer the entry"
        );
    }

    #[test]
    fn calculator_formula_reads_back_from_the_dump() {
        let phone = boot();
        sh(
            &phone,
            "monkey -p com.google.android.calculator -c android.intent.category.LAUNCHER 1",
        );
        let id = |name: &str| format!("com.google.android.calculator:id/{name}");
        let h = dump(&phone);
        assert!(find(&h, |n| n.resource_id == id("clr") && n.enabled).is_some());
        for key in [
            "digit_2", "op_add", "digit_2", "digit_4", "op_div", "digit_3",
        ] {
            tap(&phone, &id(key));
        }
        assert_eq!(text_of(&phone, &id("formula")), "2+24÷3");
        assert_eq!(text_of(&phone, &id("result_preview")), "10");
        tap(&phone, &id("eq"));
        assert_eq!(text_of(&phone, &id("result_final")), "10");
    }

    #[test]
    fn calendar_event_typed_with_the_ime_is_in_the_provider() {
        let phone = boot();
        sh(
            &phone,
            "monkey -p com.google.android.calendar -c android.intent.category.LAUNCHER 1",
        );
        tap(&phone, "Create new event and more");
        tap(
            &phone,
            "com.google.android.calendar:id/speed_dial_event_container",
        );
        // The title field has focus and the keyboard is up, as in Google Calendar.
        sh(&phone, "input text Dentist");
        tap(&phone, "com.google.android.calendar:id/save");
        let rows = sh(
            &phone,
            "sqlite3 /data/data/com.android.providers.calendar/databases/calendar.db \"select title,calendar_id,allDay,deleted from Events\"",
        );
        assert_eq!(rows, "Dentist|1|0|0\n");
        let query = sh(
            &phone,
            "content query --uri content://com.android.calendar/events --projection title:dtstart",
        );
        assert!(
            query.starts_with("Row: 0 title=Dentist, dtstart="),
            "{query}"
        );
    }
}

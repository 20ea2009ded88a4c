use chrono::{NaiveDate, Weekday};
use rand::SeedableRng;

use super::moments::datetime_value;
use super::*;

fn spec(src: &str) -> Result<ParamSpec, String> {
    let v: toml::Value = toml::from_str::<toml::Table>(&format!("p = {src}")).unwrap()["p"].clone();
    parse_spec(&v)
}

#[test]
fn month_cells_follow_the_week_start() {
    // June 2024 starts on a Saturday.
    let d = NaiveDate::from_ymd_opt(2024, 6, 3).expect("date");
    let v = date_value(d);
    assert_eq!(v.fields["month_cell"], "8", "Sunday grid from May 26");
    assert_eq!(v.fields["month_cell_mon"], "7", "Monday grid from May 27");
    assert_eq!(v.fields["month_cell_sat"], "2", "Saturday grid from June 1");
    let mut params = BTreeMap::new();
    params.insert("d".to_string(), v);
    params.insert(
        "now".to_string(),
        datetime_value(date_value(d), time_value(9, 0)),
    );
    let monday = for_week_start(&params, Weekday::Mon);
    assert_eq!(monday["d"].fields["month_cell"], "7");
    assert_eq!(monday["now"].fields["date_month_cell"], "7");
    let sunday = for_week_start(&params, Weekday::Sun);
    assert_eq!(sunday["d"].fields["month_cell"], "8");
}

#[test]
fn same_seed_same_values() {
    let specs = [
        "{ gen = \"phone_number\" }",
        "{ gen = \"person\" }",
        "{ gen = \"date\", from = \"2023-10-16\", to = \"2023-10-31\" }",
        "{ gen = \"time\", hours = [8, 11], minutes = [0, 30] }",
        "{ range = [1, 9] }",
        "{ choices = [\"a\", \"b\", \"c\"] }",
    ];
    for s in specs {
        let p = spec(s).unwrap();
        let a = p
            .draw(&mut ChaCha8Rng::seed_from_u64(7), &BTreeMap::new())
            .unwrap();
        let b = p
            .draw(&mut ChaCha8Rng::seed_from_u64(7), &BTreeMap::new())
            .unwrap();
        assert_eq!(a, b, "{s}");
    }
}

#[test]
fn distinct_slots_never_draw_the_same_item_and_take_any_item_as_override() {
    let pool = "[\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\"]";
    let slots: Vec<ParamSpec> = (0..3)
        .map(|k| {
            spec(&format!(
                "{{ gen = \"distinct\", from = {pool}, slot = {k}, of = 3 }}"
            ))
            .unwrap()
        })
        .collect();
    for seed in 0..50 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let drawn: Vec<String> = slots
            .iter()
            .map(|p| p.draw(&mut rng, &BTreeMap::new()).unwrap().text)
            .collect();
        assert!(["a", "b"].contains(&drawn[0].as_str()), "{drawn:?}");
        assert!(["c", "d"].contains(&drawn[1].as_str()), "{drawn:?}");
        assert!(["e", "f", "g"].contains(&drawn[2].as_str()), "{drawn:?}");
    }
    assert_eq!(slots[0].parse_override("g").unwrap().text, "g");
    assert!(slots[0].parse_override("z").is_err());
    assert!(spec(&format!(
        "{{ gen = \"distinct\", from = {pool}, slot = 3, of = 3 }}"
    ))
    .is_err());
}

#[test]
fn generated_values_have_their_fields() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let n = Generator::PhoneNumber.draw(&mut rng);
    assert!(n.text.starts_with("+1") && n.text.len() == 12);
    assert_eq!(n.fields["digits"], n.text[1..]);
    let d = spec("{ gen = \"date\", from = \"2023-10-16\", to = \"2023-10-16\" }")
        .unwrap()
        .draw(&mut rng, &BTreeMap::new())
        .unwrap();
    assert_eq!(d.text, "2023-10-16");
    assert_eq!(d.fields["weekday"], "Monday");
    assert_eq!(d.fields["long"], "October 16 2023");
    assert_eq!(d.fields["epoch_ms"], "1697414400000");
    let t = time_value(13, 5);
    assert_eq!(
        (
            t.text.as_str(),
            t.fields["hour12"].as_str(),
            t.fields["ampm"].as_str()
        ),
        ("13:05", "1", "PM")
    );
    assert_eq!(time_value(0, 0).fields["hour12"], "12");
    let choice = spec("{ choices = [{ text = \"weekday\", mask = 31 }] }")
        .unwrap()
        .draw(&mut rng, &BTreeMap::new())
        .unwrap();
    assert_eq!(choice.fields["mask"], "31");
}

#[test]
fn derived_and_overrides() {
    let mut known = BTreeMap::new();
    known.insert("hour".to_string(), Value::plain("13"));
    let add = spec("{ add = [\"hour\", -2] }").unwrap();
    assert_eq!(
        add.draw(&mut ChaCha8Rng::seed_from_u64(0), &known)
            .unwrap()
            .text,
        "11"
    );
    let range = spec("{ range = [5, 11] }").unwrap();
    assert_eq!(range.parse_override("7").unwrap().text, "7");
    assert!(range.parse_override("12").is_err());
    assert!(spec("{ choices = [\"a\"] }")
        .unwrap()
        .parse_override("b")
        .is_err());
    assert!(add.parse_override("3").unwrap_err().contains("derived"));
}

#[test]
fn overrides_are_checked_by_their_generator() {
    let ok = |src: &str, text: &str| spec(src).unwrap().parse_override(text);
    let time = "{ gen = \"time\", hours = [5, 20], minutes = [0, 30] }";
    let t = ok(time, "13:30").unwrap();
    assert_eq!(
        (t.fields["hour12"].as_str(), t.fields["ampm"].as_str()),
        ("1", "PM")
    );
    for (src, text, needle) in [
        (time, "23:00", "hour 23 is outside 5..=20"),
        (time, "13:15", "minute 15 is not one of [0, 30]"),
        (time, "noon", "not a time"),
        ("{ range = [1, 9] }", "seven", "not an integer in [1, 9]"),
        ("{ range = [0, 30], step = 5 }", "7", "steps of 5"),
        (
            "{ range = [0.5, 2.5], decimals = 1 }",
            "0.25",
            "at most 1 decimals",
        ),
        (
            "{ gen = \"date\", from = \"2024-06-04\", to = \"2024-06-14\" }",
            "2024-07-01",
            "outside",
        ),
        (
            "{ gen = \"phone_number\" }",
            "555-0100",
            "+1 and ten digits",
        ),
        ("{ gen = \"digits\", len = 4 }", "12345", "4 digits"),
        (
            "{ gen = \"person\" }",
            "Robert'); DROP TABLE x;--",
            "First Last",
        ),
        ("{ gen = \"word\" }", "two words", "word of letters"),
        ("{ gen = \"sentence\" }", "line\nbreak", "one line"),
        ("\"fixed\"", "other", "fixed to"),
    ] {
        let e = ok(src, text).unwrap_err();
        assert!(e.contains(needle), "{src} with {text:?}: {e}");
    }
    // Another benchmark's draws: any well-formed name or sentence.
    let p = ok("{ gen = \"person\" }", "Louis Lopez").unwrap();
    assert_eq!(
        (p.fields["first"].as_str(), p.fields["last"].as_str()),
        ("Louis", "Lopez")
    );
    let m = ok(
        "{ gen = \"sentence\" }",
        "Pick up groceries: Milk and Bread.",
    )
    .unwrap();
    assert_eq!(m.text, "Pick up groceries: Milk and Bread.");
    let n = ok("{ gen = \"phone_number\" }", "+12025550143").unwrap();
    assert_eq!(n.fields["dashed"], "202-555-0143");
    let d = ok(
        "{ gen = \"date\", from = \"2024-06-04\", to = \"2024-06-14\" }",
        "2024-06-05",
    )
    .unwrap();
    assert_eq!(d.fields["weekday"], "Wednesday");
    let p = ok("{ gen = \"person\" }", "Alice Smith").unwrap();
    assert_eq!(p.fields["last"], "Smith");
}

#[test]
fn relative_days_follow_the_anchor() {
    // 2024-06-05 is a Wednesday.
    let today = NaiveDate::from_ymd_opt(2024, 6, 5).unwrap();
    for (phrase, want, shown) in [
        ("today", "2024-06-05", "today"),
        ("tomorrow", "2024-06-06", "tomorrow"),
        ("yesterday", "2024-06-04", "yesterday"),
        ("today+3", "2024-06-08", "today+3"),
        ("today-2", "2024-06-03", "today-2"),
        ("in two weeks", "2024-06-19", "in two weeks"),
        ("in 3 days", "2024-06-08", "in 3 days"),
        ("2 weeks ago", "2024-05-22", "2 weeks ago"),
        ("this friday", "2024-06-07", "this Friday"),
        ("this wednesday", "2024-06-05", "this Wednesday"),
        ("next wednesday", "2024-06-12", "next Wednesday"),
        ("next Monday", "2024-06-10", "next Monday"),
    ] {
        let r = RelativeDay::parse(phrase).unwrap();
        assert_eq!(r.resolve(today).to_string(), want, "{phrase}");
        assert_eq!(r.phrase, shown);
    }
    for bad in [
        "someday",
        "this fri",
        "in two fortnights",
        "today+x",
        "next",
    ] {
        assert!(RelativeDay::parse(bad).is_err(), "{bad}");
    }
    // From a drawn moment, at a drawn time; the end follows the start across midnight.
    let mut known = BTreeMap::new();
    known.insert(
        "now".to_string(),
        datetime_value(date_value(today), time_value(15, 34)),
    );
    known.insert("t".to_string(), time_value(23, 30));
    known.insert("dur".to_string(), Value::plain("45"));
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let start = spec("{ date = \"tomorrow\", of = \"now\", at = \"t\" }")
        .unwrap()
        .draw(&mut rng, &known)
        .unwrap();
    assert_eq!(start.fields["date"], "2024-06-06");
    assert_eq!(start.fields["phrase"], "tomorrow");
    assert_eq!(start.text, "1717716600000");
    known.insert("start".to_string(), start);
    let end = spec("{ plus_minutes = \"dur\", of = \"start\" }")
        .unwrap()
        .draw(&mut rng, &known)
        .unwrap();
    assert_eq!(
        (end.fields["date"].as_str(), end.fields["time"].as_str()),
        ("2024-06-07", "00:15")
    );
    let wrapped = spec("{ plus_minutes = \"dur\", of = \"t\" }")
        .unwrap()
        .draw(&mut rng, &known)
        .unwrap();
    assert_eq!(wrapped.text, "00:15");
    assert!(spec("{ date = \"tomorrow\" }")
        .unwrap_err()
        .contains("of ="));
}

#[test]
fn bad_specs_say_why() {
    for (src, needle) in [
        ("{ gen = \"zebra\" }", "unknown generator"),
        ("{ range = [9, 1] }", "empty range"),
        ("{ choices = [] }", "empty"),
        (
            "{ gen = \"date\", from = \"2023-13-01\", to = \"2023-10-01\" }",
            "from",
        ),
        ("{ gen = \"time\", hours = [8, 30] }", "hours"),
        ("{ range = [1, 2], colour = 3 }", "colour"),
        ("{ foo = 1 }", "needs one of"),
    ] {
        let e = spec(src).unwrap_err();
        assert!(e.contains(needle), "{src}: {e}");
    }
}

//! Dates, times of day and moments as parameter values: the fields a goal, an SQL insert and a
//! calendar's month grid each read (`{d.long}`, `{d.epoch_ms}`, `{d.month_cell}`, `{t.hour12}`).

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate, Timelike, Weekday};

use super::Value;

/// The value of a date (shared by the generator and literal dates in task files).
pub fn date_value(d: NaiveDate) -> Value {
    let epoch_ms = d
        .and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc().timestamp_millis())
        .unwrap_or_default();
    // chrono names months in English, as the goals and AndroidWorld's dates (`October 16 2023`) do.
    let month_name = d.format("%B").to_string();
    let v = Value::plain(d.format("%Y-%m-%d").to_string())
        .with("year", d.year())
        .with("month", d.month())
        .with("day", d.day())
        .with("month_name", &month_name)
        .with("weekday", d.format("%A"))
        .with("long", format!("{month_name} {} {}", d.day(), d.year()))
        .with("epoch_ms", epoch_ms)
        .with("epoch_s", epoch_ms / 1000);
    with_month_cells(v, d, d)
}

/// Where `d` sits in the month grid a calendar shows for the month of `shown` (six weeks in
/// reading order, the week starting on `first`): what a golden taps for a day whatever language
/// the days are named in. A relative day counts from its anchor's month (the one the calendar
/// opens on); it may fall outside that grid (negative or past 41), where no cell shows it.
fn month_cell(d: NaiveDate, shown: NaiveDate, first: Weekday) -> i64 {
    let first_of_month = shown.with_day(1).unwrap_or(shown);
    let lead =
        (first_of_month.weekday().num_days_from_sunday() + 7 - first.num_days_from_sunday()) % 7;
    (d - (first_of_month - Duration::days(lead as i64))).num_days()
}

/// The suffix of the `month_cell_*` field for weeks starting on `day`.
fn week_suffix(day: Weekday) -> String {
    format!("month_cell_{}", day.to_string().to_ascii_lowercase())
}

/// `v` with `month_cell` (a Sunday-first grid, as en-US shows it) and `month_cell_mon`,
/// `month_cell_sat`… for grids whose week starts on another day (the locale's, see
/// [`for_week_start`]).
pub(super) fn with_month_cells(mut v: Value, d: NaiveDate, shown: NaiveDate) -> Value {
    v = v.with("month_cell", month_cell(d, shown, Weekday::Sun));
    for day in std::iter::successors(Some(Weekday::Sun), |d| Some(d.succ())).take(7) {
        v = v.with(&week_suffix(day), month_cell(d, shown, day));
    }
    v
}

/// The parameters as a phone whose calendar weeks start on `first` lays out a month grid: every
/// `…month_cell` field takes the value of its `…month_cell_<day>` variant.
pub fn for_week_start(params: &BTreeMap<String, Value>, first: Weekday) -> BTreeMap<String, Value> {
    let suffix = week_suffix(first);
    params
        .iter()
        .map(|(name, v)| {
            let mut v = v.clone();
            let moved: Vec<(String, String)> = v
                .fields
                .iter()
                .filter_map(|(k, x)| {
                    let base = k.strip_suffix(&suffix)?;
                    Some((format!("{base}month_cell"), x.clone()))
                })
                .collect();
            v.fields.extend(moved);
            (name.clone(), v)
        })
        .collect()
}

/// The value of a time of day.
pub fn time_value(hour: u32, minute: u32) -> Value {
    let (h12, ampm) = match hour {
        0 => (12, "AM"),
        1..=11 => (hour, "AM"),
        12 => (12, "PM"),
        _ => (hour - 12, "PM"),
    };
    Value::plain(format!("{hour:02}:{minute:02}"))
        .with("hour", hour)
        .with("minute", minute)
        .with("hour12", h12)
        .with("ampm", ampm)
        .with("hhmm", format!("{hour:02}{minute:02}"))
        .with("ms_of_day", (hour * 3600 + minute * 60) as i64 * 1000)
}

/// `HH:MM` with the hour in `hours` and the minute one of `minutes` (any minute when empty).
pub(super) fn parse_time(text: &str, hours: (u32, u32), minutes: &[u32]) -> Result<Value, String> {
    let (h, m) = text
        .trim()
        .split_once(':')
        .and_then(|(h, m)| Some((h.parse::<u32>().ok()?, m.parse::<u32>().ok()?)))
        .filter(|(_, m)| *m < 60)
        .ok_or_else(|| format!("{text:?} is not a time HH:MM"))?;
    if !(hours.0..=hours.1).contains(&h) {
        return Err(format!("hour {h} is outside {}..={}", hours.0, hours.1));
    }
    if !minutes.is_empty() && !minutes.contains(&m) {
        return Err(format!("minute {m} is not one of {minutes:?}"));
    }
    Ok(time_value(h, m))
}

/// `base` (a moment from `datetime_value`, or a time of day) plus `n` minutes; a time of day wraps
/// at midnight.
pub(super) fn plus_minutes(name: &str, base: &Value, n: i64) -> Result<Value, String> {
    if base.fields.contains_key("date") {
        let ms: i64 = base
            .text
            .parse()
            .map_err(|_| format!("plus_minutes: {name:?} = {:?} is not a moment", base.text))?;
        let t = chrono::DateTime::from_timestamp_millis(ms + n * 60_000)
            .ok_or_else(|| format!("plus_minutes: {name:?} is out of range"))?
            .naive_utc();
        Ok(datetime_value(
            date_value(t.date()),
            time_value(t.hour(), t.minute()),
        ))
    } else {
        let ms: i64 = base
            .fields
            .get("ms_of_day")
            .and_then(|m| m.parse().ok())
            .ok_or_else(|| format!("plus_minutes: {name:?} is not a time or moment"))?;
        let minute = (ms / 60_000 + n).rem_euclid(24 * 60);
        Ok(time_value((minute / 60) as u32, (minute % 60) as u32))
    }
}

/// A date and a time of day as one moment: the text is epoch milliseconds (UTC), the fields are
/// `epoch_s` (the moment in seconds), the date's (prefixed `date_`) and the time's.
pub(super) fn datetime_value(d: Value, t: Value) -> Value {
    let day_ms: i64 = d.fields["epoch_ms"].parse().unwrap_or_default();
    let tod_ms: i64 = t.fields["ms_of_day"].parse().unwrap_or_default();
    let mut v = Value::plain((day_ms + tod_ms).to_string());
    // Seconds for the apps that store them (Simple Calendar Pro's `start_ts`).
    v.fields
        .insert("epoch_s".into(), ((day_ms + tod_ms) / 1000).to_string());
    v.fields
        .extend(d.fields.into_iter().map(|(k, x)| (format!("date_{k}"), x)));
    v.fields.extend(t.fields);
    v.fields.insert("date".into(), d.text);
    v.fields.insert("time".into(), t.text);
    v
}

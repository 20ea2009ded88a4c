//! EventActivity: the one screen Simple Calendar Pro shows an event in, new or existing
//! (`activity_event.xml`): title, location, description, the all-day box, start and end dates
//! and times (the framework's date picker and the Material time picker, shared with Google
//! Calendar), the repetition and its days, and the toolbar's Save and Delete. Changing the start
//! keeps the event's length, as the app does; a weekly repetition follows the start's weekday.
//!
//! The editor only edits a copy of the event: what Save and Delete mean for the database is the
//! app's ([`Outcome`]).

use chrono::{Duration, NaiveDate, NaiveTime, Timelike};

use super::screens::{date_text, time_text};
use super::store::{self, Event};
use super::{id, tr};
use crate::app::UiEvent;
use crate::apps::communication::{self, palette, text_style};
use crate::apps::widgets::{
    self, button, columns, dialog_card, dialog_frame, inset, label, with_card_children, DatePicker,
    DialogResult, Rows, TimePicker,
};
use crate::system::{Request, System};
use crate::view::{class, View};
use droidmcp_geom::Bounds;

/// The repetition dialog's choices: (string, `repeat_interval`).
const REPEATS: [(&str, i64); 5] = [
    ("no_repetition", 0),
    ("daily", store::DAY),
    ("weekly", store::WEEK),
    ("monthly", store::MONTH),
    ("yearly", store::YEAR),
];

/// What Delete removes of a repeating event (`DeleteEventDialog`'s radio group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Occurrence,
    Future,
    All,
}

#[derive(Debug, Clone, PartialEq)]
enum Picker {
    StartDate(DatePicker),
    EndDate(DatePicker),
    StartTime(TimePicker),
    EndTime(TimePicker),
    Repeat,
    /// The delete confirmation with the chosen scope.
    Delete(Scope),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Editor {
    pub event: Event,
    /// The day of the occurrence the event was opened from (a repeating event's).
    pub occurrence: NaiveDate,
    picker: Option<Picker>,
    /// Why the last Save was refused (the app's toast, shown over the form here).
    refused: Option<&'static str>,
}

/// What the user asked the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The event was the editor's; it stays open.
    Stay,
    /// Not the editor's event.
    Ignored,
    /// Up or Back: leave without saving.
    Close,
    Save(Event),
    Delete(Scope),
}

impl Editor {
    pub fn new(event: Event, occurrence: NaiveDate) -> Editor {
        Editor {
            event,
            occurrence,
            picker: None,
            refused: None,
        }
    }

    /// Starts the event on `date`, keeping its length and time of day.
    fn move_start(&mut self, date: NaiveDate, time: NaiveTime) {
        let e = &mut self.event;
        let length = e.end - e.start;
        e.start = date.and_time(time);
        e.end = e.start + length;
        if e.repeat_interval > 0 && e.repeat_interval % store::WEEK == 0 {
            e.repeat_rule = store::weekday_bit(date);
        }
    }

    pub fn handle(&mut self, event: &UiEvent, sys: &mut System) -> Outcome {
        if self.picker.is_some() {
            return self.handle_picker(event);
        }
        let e = &mut self.event;
        match event {
            UiEvent::TextChanged { tag, text } => match tag.as_str() {
                "ed_title" => e.title = text.clone(),
                "ed_location" => e.location = text.clone(),
                "ed_description" => e.description = text.clone(),
                _ => return Outcome::Ignored,
            },
            UiEvent::EditorAction(_) => sys.request(Request::ClearFocus),
            UiEvent::Back => return Outcome::Close,
            UiEvent::Click(tag) => match tag.as_str() {
                "ed_up" => return Outcome::Close,
                "ed_save" => {
                    self.refused = refusal(sys, e);
                    if self.refused.is_none() {
                        return Outcome::Save(e.clone());
                    }
                }
                "ed_delete" if e.id.is_some() => {
                    let scope = if e.repeats() {
                        Scope::Occurrence
                    } else {
                        Scope::All
                    };
                    self.picker = Some(Picker::Delete(scope));
                }
                "ed_title" | "ed_location" | "ed_description" => {
                    sys.request(Request::Focus { tag: tag.clone() })
                }
                "ed_all_day" => e.all_day = !e.all_day,
                "ed_repeat" => self.picker = Some(Picker::Repeat),
                "ed_start_date" => {
                    self.picker = Some(Picker::StartDate(DatePicker::new(e.start.date())))
                }
                "ed_end_date" => self.picker = Some(Picker::EndDate(DatePicker::new(e.end.date()))),
                "ed_start_time" | "ed_end_time" => {
                    let t = if tag == "ed_start_time" {
                        e.start
                    } else {
                        e.end
                    };
                    let p = TimePicker::new(t.hour(), t.minute(), widgets::uses_24h(sys));
                    self.picker = Some(if tag == "ed_start_time" {
                        Picker::StartTime(p)
                    } else {
                        Picker::EndTime(p)
                    });
                }
                _ => return Outcome::Ignored,
            },
            _ => return Outcome::Ignored,
        }
        Outcome::Stay
    }

    fn handle_picker(&mut self, event: &UiEvent) -> Outcome {
        if *event == UiEvent::Back {
            self.picker = None;
            return Outcome::Stay;
        }
        let Some(picker) = self.picker.as_mut() else {
            return Outcome::Ignored;
        };
        let e = &mut self.event;
        let done = match picker {
            Picker::Repeat => {
                let UiEvent::Click(tag) = event else {
                    return Outcome::Stay;
                };
                let Some((_, interval)) = tag
                    .strip_prefix("rep:")
                    .and_then(|i| i.parse::<usize>().ok())
                    .and_then(|i| REPEATS.get(i))
                else {
                    return Outcome::Stay;
                };
                e.repeat_interval = *interval;
                e.repeat_rule = match *interval {
                    store::WEEK => store::weekday_bit(e.start.date()),
                    store::MONTH | store::YEAR => store::REPEAT_SAME_DAY,
                    _ => 0,
                };
                true
            }
            Picker::Delete(scope) => match event {
                UiEvent::Click(t) if t == "del_yes" => {
                    let scope = *scope;
                    self.picker = None;
                    return Outcome::Delete(scope);
                }
                UiEvent::Click(t) if t == "del_no" => true,
                UiEvent::Click(t) => {
                    *scope = match t.as_str() {
                        "del_scope_one" => Scope::Occurrence,
                        "del_scope_future" => Scope::Future,
                        "del_scope_all" => Scope::All,
                        _ => return Outcome::Stay,
                    };
                    false
                }
                _ => false,
            },
            Picker::StartDate(p) | Picker::EndDate(p) => match p.handle(event) {
                None | Some(DialogResult::Pending) => false,
                Some(DialogResult::Cancel) => true,
                Some(DialogResult::Ok(date)) => {
                    if matches!(picker, Picker::StartDate(_)) {
                        let time = self.event.start.time();
                        self.picker = None;
                        self.move_start(date, time);
                        return Outcome::Stay;
                    }
                    e.end = date.and_time(e.end.time());
                    true
                }
            },
            Picker::StartTime(p) | Picker::EndTime(p) => match p.handle(event) {
                None | Some(DialogResult::Pending) => false,
                Some(DialogResult::Cancel) => true,
                Some(DialogResult::Ok((h, m))) => {
                    let t = NaiveTime::from_hms_opt(h, m, 0).unwrap_or(NaiveTime::MIN);
                    if matches!(picker, Picker::StartTime(_)) {
                        let date = self.event.start.date();
                        self.picker = None;
                        self.move_start(date, t);
                        return Outcome::Stay;
                    }
                    e.end = e.end.date().and_time(t);
                    true
                }
            },
        };
        if done {
            self.picker = None;
        }
        Outcome::Stay
    }

    pub fn render(&self, sys: &System) -> View {
        let m = &sys.metrics;
        match &self.picker {
            Some(Picker::StartDate(p) | Picker::EndDate(p)) => return p.render(m),
            Some(Picker::StartTime(p) | Picker::EndTime(p)) => return p.render(super::PACKAGE, m),
            Some(Picker::Repeat) => return self.repeat_dialog(sys),
            Some(Picker::Delete(scope)) => return self.delete_dialog(sys, *scope),
            None => {}
        }
        let e = &self.event;
        let p = palette(sys);
        let area = m.content;
        let mut rows = Rows::new(area);
        let bar = rows.take(m.dp(64.0));
        let title = tr(
            sys,
            if e.id.is_some() {
                "edit_event"
            } else {
                "new_event"
            },
        );
        let mut toolbar = communication::toolbar(
            sys,
            area,
            super::PACKAGE,
            title,
            Some(("ed_up", tr(sys, "back"))),
        )
        .id(id("event_toolbar"))
        .child(
            communication::toolbar_action(sys, bar, 0, tr(sys, "save"), "check")
                .id(id("save"))
                .on_click("ed_save"),
        );
        if e.id.is_some() {
            toolbar = toolbar.child(
                communication::toolbar_action(sys, bar, 1, tr(sys, "delete"), "delete")
                    .id(id("delete"))
                    .on_click("ed_delete"),
            );
        }
        let pad =
            |b: Bounds| Bounds::new(b.left + m.dp(16.0), b.top, b.right - m.dp(16.0), b.bottom);
        let field = |b: Bounds, name: &str, text: &str, hint: &str, tag: &str| {
            View::new(class::EDIT_TEXT, pad(b))
                .id(id(name))
                .text(text)
                .hint(hint)
                .editable(tag)
                .style(text_style(16.0, p.on_surface))
        };
        let mut form = Vec::new();
        if let Some(why) = self.refused {
            form.push(
                label(pad(rows.take(m.dp(40.0))), why, 14.0)
                    .id(id("event_error"))
                    .style(text_style(14.0, [211, 47, 47, 255])),
            );
        }
        form.extend([
            field(
                rows.take(m.dp(56.0)),
                "event_title",
                &e.title,
                tr(sys, "title"),
                "ed_title",
            ),
            field(
                rows.take(m.dp(56.0)),
                "event_location",
                &e.location,
                tr(sys, "location"),
                "ed_location",
            ),
            field(
                rows.take(m.dp(72.0)),
                "event_description",
                &e.description,
                tr(sys, "description"),
                "ed_description",
            ),
            View::new(class::CHECK_BOX, pad(rows.take(m.dp(56.0))))
                .id(id("event_all_day"))
                .text(tr(sys, "all_day"))
                .on_click("ed_all_day")
                .checked(e.all_day),
        ]);
        for (which, at) in [("start", e.start), ("end", e.end)] {
            let cols = columns(pad(rows.take(m.dp(48.0))), 3);
            let date_b = Bounds::new(cols[0].left, cols[0].top, cols[1].right, cols[1].bottom);
            form.push(
                View::new(class::TEXT_VIEW, date_b)
                    .id(id(&format!("event_{which}_date")))
                    .text(date_text(sys, at.date()))
                    .on_click(format!("ed_{which}_date")),
            );
            if !e.all_day {
                form.push(
                    View::new(class::TEXT_VIEW, cols[2])
                        .id(id(&format!("event_{which}_time")))
                        .text(time_text(sys, at.time()))
                        .on_click(format!("ed_{which}_time")),
                );
            }
        }
        form.push(
            label(
                pad(rows.take(m.dp(48.0))),
                tr(sys, "minutes_before").replace("%d", "10"),
                16.0,
            )
            .id(id("event_reminder_1")),
        );
        form.push(
            View::new(class::TEXT_VIEW, pad(rows.take(m.dp(48.0))))
                .id(id("event_repetition"))
                .text(repeat_label(sys, e))
                .desc(format!(
                    "{}: {}",
                    tr(sys, "repetition"),
                    repeat_label(sys, e)
                ))
                .on_click("ed_repeat"),
        );
        if e.repeats() {
            if let Some(rule) = e.rule().filter(|r| !r.by_day.is_empty()) {
                let days: Vec<&str> = rule
                    .by_day
                    .iter()
                    .map(|d| {
                        crate::locale::datetime::weekday(
                            *d,
                            &sys.locale,
                            crate::locale::datetime::Width::Wide,
                        )
                    })
                    .collect();
                form.push(
                    label(
                        pad(rows.take(m.dp(48.0))),
                        format!("{}: {}", tr(sys, "repeat_on"), days.join(", ")),
                        16.0,
                    )
                    .id(id("event_repetition_rule")),
                );
            }
            form.push(
                label(pad(rows.take(m.dp(48.0))), limit_label(sys, e), 16.0)
                    .id(id("event_repetition_limit")),
            );
        }
        form.push(
            label(pad(rows.take(m.dp(48.0))), tr(sys, "regular_event"), 16.0).id(id("event_type")),
        );
        let scroll = View::new(
            class::SCROLL_VIEW,
            Bounds::new(area.left, bar.bottom, area.right, area.bottom),
        )
        .id(id("event_scrollview"))
        .scrollable("event_scrollview")
        .children(form);
        communication::root(sys).child(toolbar).child(scroll)
    }

    /// `RadioGroupDialog` of the repetition choices (`rep:N`).
    fn repeat_dialog(&self, sys: &System) -> View {
        let m = &sys.metrics;
        let card = dialog_card(m, m.dp(32.0) + m.dp(52.0) * REPEATS.len() as i32);
        let mut rows = Rows::new(inset(card, m.dp(16.0)));
        let children = REPEATS
            .iter()
            .enumerate()
            .map(|(i, (name, interval))| {
                View::new(class::RADIO_BUTTON, rows.take(m.dp(52.0)))
                    .text(tr(sys, *name))
                    .on_click(format!("rep:{i}"))
                    .checked(self.event.repeat_interval == *interval)
            })
            .collect();
        with_card_children(dialog_frame(m, card), children)
    }

    /// `DeleteEventDialog`: the question, the scope of a repeating event, Yes and No.
    fn delete_dialog(&self, sys: &System, scope: Scope) -> View {
        let m = &sys.metrics;
        let repeats = self.event.repeats();
        let card = dialog_card(m, m.dp(if repeats { 360.0 } else { 200.0 }));
        let mut rows = Rows::new(inset(card, m.dp(24.0)));
        let question = if repeats {
            tr(sys, "event_is_repeatable")
        } else {
            tr(sys, "proceed_with_deletion")
        };
        let mut children =
            vec![label(rows.take(m.sp(56.0)), question, 16.0).id("android:id/message")];
        if repeats {
            for (name, tag, s) in [
                ("delete_one_only", "del_scope_one", Scope::Occurrence),
                (
                    "delete_future_occurrences",
                    "del_scope_future",
                    Scope::Future,
                ),
                ("delete_all_occurrences", "del_scope_all", Scope::All),
            ] {
                children.push(
                    View::new(class::RADIO_BUTTON, rows.take(m.dp(52.0)))
                        .text(tr(sys, name))
                        .on_click(tag)
                        .checked(scope == s),
                );
            }
        }
        rows.take(m.dp(8.0));
        let cols = columns(rows.take(m.dp(48.0)), 4);
        children.push(button(cols[2], tr(sys, "no"), "del_no").id("android:id/button2"));
        children.push(button(cols[3], tr(sys, "yes"), "del_yes").id("android:id/button1"));
        with_card_children(dialog_frame(m, card), children)
    }
}

/// Why Save is refused (the app's toast), if it is.
fn refusal(sys: &System, e: &Event) -> Option<&'static str> {
    if e.title.trim().is_empty() {
        Some(tr(sys, "title_empty"))
    } else if e.end < e.start {
        Some(tr(sys, "end_before_start"))
    } else {
        None
    }
}

/// The repetition row's text: "No repetition", "Daily", "Weekly", …
pub fn repeat_label(sys: &System, e: &Event) -> &'static str {
    let i = e.repeat_interval;
    let name = REPEATS
        .iter()
        .rev()
        .find(|(_, unit)| *unit > 0 && i > 0 && i % unit == 0)
        .map_or("no_repetition", |(name, _)| *name);
    tr(sys, name)
}

/// How long a repetition runs: "Forever", "Repeat till …", "After N times".
fn limit_label(sys: &System, e: &Event) -> String {
    match e.repeat_limit {
        0 => tr(sys, "forever").to_string(),
        n if n < 0 => tr(sys, "stop_after_times").replace("%d", &(-n).to_string()),
        ts => {
            let day =
                chrono::DateTime::from_timestamp(ts, 0).map_or(e.start.date(), |t| t.date_naive());
            format!("{} {}", tr(sys, "repeat_till"), date_text(sys, day))
        }
    }
}

/// The repeat limit that ends a series before the occurrence on `day` (`addEventRepeatLimit`:
/// one second before that occurrence starts).
pub fn limit_before(e: &Event, day: NaiveDate) -> i64 {
    (day.and_time(e.start.time()) - Duration::seconds(1))
        .and_utc()
        .timestamp()
}

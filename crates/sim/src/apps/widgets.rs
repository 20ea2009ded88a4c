//! Small building blocks the embedded phone's apps share: a row/column layout cursor, common view
//! shapes (label, button, dialog card), the Material time picker (Clock and Calendar both use it) and
//! the framework date picker dialog.
//!
//! Widgets are plain state structs: `render` builds views whose tags start with the widget's own
//! prefix, and `handle` answers the events carrying those tags, so an app embeds a picker by keeping
//! one in its state and forwarding events to it first.

use chrono::{Datelike, NaiveDate};

use crate::app::UiEvent;
use crate::system::{Namespace, System};
use crate::view::{class, Metrics, Role, Style, View};
use droidmcp_geom::Bounds;

/// uiautomator's class for checkable Material buttons (chips, toggle-group buttons).
pub const COMPOUND_BUTTON: &str = "android.widget.CompoundButton";

/// Hands out horizontal bands of an area from top to bottom.
#[derive(Debug, Clone, Copy)]
pub struct Rows {
    pub area: Bounds,
    pub y: i32,
}

impl Rows {
    pub fn new(area: Bounds) -> Rows {
        Rows { area, y: area.top }
    }

    /// The next band of `height` px across the full width.
    pub fn take(&mut self, height: i32) -> Bounds {
        let b = Bounds::new(self.area.left, self.y, self.area.right, self.y + height);
        self.y += height;
        b
    }

    /// Whatever is left down to the bottom of the area.
    pub fn rest(&self) -> Bounds {
        Bounds::new(
            self.area.left,
            self.y,
            self.area.right,
            self.area.bottom.max(self.y),
        )
    }
}

/// Splits `b` into `n` equal columns (the last one absorbs rounding).
pub fn columns(b: Bounds, n: i32) -> Vec<Bounds> {
    let n = n.max(1);
    let w = b.width() / n;
    (0..n)
        .map(|i| {
            let right = if i == n - 1 {
                b.right
            } else {
                b.left + w * (i + 1)
            };
            Bounds::new(b.left + w * i, b.top, right, b.bottom)
        })
        .collect()
}

/// Shrinks a rectangle by `px` on every side.
pub fn inset(b: Bounds, px: i32) -> Bounds {
    Bounds::new(b.left + px, b.top + px, b.right - px, b.bottom - px)
}

/// A full resource id of `package`.
pub fn rid(package: &str, name: &str) -> String {
    format!("{package}:id/{name}")
}

/// A non-clickable TextView with a text size in sp.
pub fn label(b: Bounds, text: impl Into<String>, size_sp: f32) -> View {
    View::new(class::TEXT_VIEW, b).text(text).style(Style {
        text_size_sp: Some(size_sp),
        ..Style::default()
    })
}

/// A rounded search pill over `bar` (id `id`): a magnifier icon at the start, then the view
/// `field` builds over the remaining text area (an input field or a clickable title).
pub fn search_pill(
    m: &Metrics,
    bar: Bounds,
    id: String,
    field: impl FnOnce(Bounds) -> View,
) -> View {
    let icon = m.dp(24.0);
    let icon_top = bar.top + (bar.height() - icon) / 2;
    let text_area = Bounds::new(
        bar.left + m.dp(56.0),
        bar.top,
        bar.right - m.dp(16.0),
        bar.bottom,
    );
    View::new(class::FRAME_LAYOUT, bar)
        .id(id)
        .style(Style {
            background_role: Some(Role::SurfaceVariant),
            corner_radius: bar.height() / 2,
            ..Style::default()
        })
        .child(
            View::new(
                class::IMAGE_VIEW,
                Bounds::new(
                    bar.left + m.dp(16.0),
                    icon_top,
                    bar.left + m.dp(16.0) + icon,
                    icon_top + icon,
                ),
            )
            .style(Style {
                icon: Some("search"),
                ..Style::default()
            }),
        )
        .child(field(text_area))
}

/// A clickable text button (`android.widget.Button`).
pub fn button(b: Bounds, text: impl Into<String>, tag: impl Into<String>) -> View {
    View::new(class::BUTTON, b)
        .text(text)
        .on_click(tag)
        .style(Style {
            center_text: true,
            text_size_sp: Some(14.0),
            ..Style::default()
        })
}

/// A centred dialog card of `height` px inside `area`, as a FrameLayout with a surface background.
pub fn dialog_card(m: &Metrics, height: i32) -> Bounds {
    let area = m.content;
    let margin = m.dp(24.0);
    let h = height.min(area.height() - 2 * margin);
    let top = area.top + (area.height() - h) / 2;
    Bounds::new(area.left + margin, top, area.right - margin, top + h)
}

/// The scrim and card every dialog sits in.
pub fn dialog_frame(m: &Metrics, card: Bounds) -> View {
    View::new(class::FRAME_LAYOUT, m.content)
        .style(Style {
            background: Some([0, 0, 0, 96]),
            ..Style::default()
        })
        .child(View::new(class::FRAME_LAYOUT, card).style(Style {
            background_role: Some(Role::SurfaceVariant),
            corner_radius: m.dp(28.0),
            ..Style::default()
        }))
}

/// The framework ids of an AlertDialog's button bar (positive, negative, neutral).
const DIALOG_BUTTONS: [&str; 3] = [
    "android:id/button1",
    "android:id/button2",
    "android:id/button3",
];

/// Adds children to the card (the first child) of a [`dialog_frame`]. Where they run past the
/// card (a 550 dpi phone, a large font), the card does what AlertDialog does: its button bar stays
/// on screen at the card's bottom and the rest scrolls in the space above it, so every button
/// can be tapped and every field reached on any screen.
pub fn with_card_children(mut frame: View, children: Vec<View>) -> View {
    let Some(card) = frame.children.first_mut() else {
        return frame;
    };
    let b = card.bounds;
    let bottom = children.iter().map(|c| c.bounds.bottom).max();
    if bottom.is_none_or(|bottom| bottom <= b.bottom) {
        card.children.extend(children);
        return frame;
    }
    // The content's own inset from the card's top is kept below the button bar too.
    let pad = children
        .iter()
        .map(|c| c.bounds.top - b.top)
        .min()
        .unwrap_or(0)
        .clamp(0, b.height() / 8);
    let (mut bar, content): (Vec<View>, Vec<View>) = children
        .into_iter()
        .partition(|c| DIALOG_BUTTONS.contains(&c.resource_id.as_str()));
    let mut scroll_bottom = b.bottom - pad;
    if let (Some(top), Some(low)) = (
        bar.iter().map(|c| c.bounds.top).min(),
        bar.iter().map(|c| c.bounds.bottom).max(),
    ) {
        let dy = b.bottom - pad - low;
        for button in &mut bar {
            button.shift(0, dy);
        }
        scroll_bottom = top + dy;
    }
    // Tagged by the dialog's title, so one dialog's scroll position is not another's.
    let title = content.first().map_or("", |c| c.text.as_str());
    let tag = format!("dialog_content:{title}");
    card.children.push(
        View::new(
            class::SCROLL_VIEW,
            Bounds::new(b.left, b.top, b.right, scroll_bottom),
        )
        .scrollable(tag)
        .children(content),
    );
    card.children.extend(bar);
    frame
}

/// An app's `store::open`: opens (creating on first use) the app's SQLite database.
pub type StoreOpener = fn(&System) -> rusqlite::Result<rusqlite::Connection>;

/// Opens an app's SQLite store; a failure is logged as an error under the app's `pid` and `tag`
/// (the screen then shows what it has rather than failing the tap).
pub fn open_store(
    sys: &mut System,
    open: StoreOpener,
    db_path: &str,
    pid: u32,
    tag: &str,
) -> Option<rusqlite::Connection> {
    match open(sys) {
        Ok(db) => Some(db),
        Err(e) => {
            sys.log(pid, 'E', tag, format!("cannot open {db_path}: {e}"));
            None
        }
    }
}

/// Installs an app's SQLite store by opening (creating) it; a failure is logged as an error under
/// the app's `pid` and `tag`, since install has no caller to report to.
pub fn install_store(sys: &mut System, open: StoreOpener, db_path: &str, pid: u32, tag: &str) {
    if let Err(e) = open(sys) {
        sys.log(pid, 'E', tag, format!("cannot create {db_path}: {e}"));
    }
}

/// A recording's length as recorders show it: `mm:ss`, or `h:mm:ss` from an hour on (Audio
/// Recorder's TimeUtils.formatTimeIntervalHourMinSec2, Camera2's recording timer).
pub fn format_elapsed(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

/// Whether times show on the 24-hour clock: the user's choice (`settings put system time_12_24
/// 24` or `12`), else the locale's own clock (`DateFormat.is24HourFormat`).
pub fn uses_24h(sys: &System) -> bool {
    match sys.settings.get(Namespace::System, "time_12_24") {
        Some("24") => true,
        Some("12") => false,
        _ => crate::locale::default_24h(&sys.locale),
    }
}

/// A time of day as the phone shows it in its locale: "8:30 AM", "오전 8:30", "08:30".
pub fn format_time(sys: &System, hour: u32, minute: u32) -> String {
    crate::locale::format_time(hour, minute, &sys.locale, uses_24h(sys))
}

/// A time of day on the 24-hour ("08:30") or 12-hour ("8:30 AM") clock.
pub fn format_hm(is_24h: bool, hour: u32, minute: u32) -> String {
    if is_24h {
        format!("{hour:02}:{minute:02}")
    } else {
        format_time_12h(hour, minute)
    }
}

/// "8:30 AM" for 08:30, as the US English locale formats a time.
pub fn format_time_12h(hour: u32, minute: u32) -> String {
    let (h12, suffix) = hour_12(hour);
    format!("{h12}:{minute:02} {suffix}")
}

/// The 12-hour clock hour and its AM/PM suffix for a 24-hour hour.
pub fn hour_12(hour: u32) -> (u32, &'static str) {
    let suffix = if hour < 12 { "AM" } else { "PM" };
    let h = hour % 12;
    (if h == 0 { 12 } else { h }, suffix)
}

/// What a dialog widget did with an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialogResult<T> {
    /// The event was the widget's but the dialog stays open.
    Pending,
    Ok(T),
    Cancel,
}

/// Which half of the time the clock face edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Selecting {
    Hour,
    Minute,
}

/// Material Components' time picker dialog (`MaterialTimePicker`): a clock face of hour then minute
/// numbers (two rings of hours on the 24-hour clock), AM/PM toggle buttons on the 12-hour clock,
/// and a keyboard mode with two EditTexts.
#[derive(Debug, Clone, PartialEq)]
pub struct TimePicker {
    /// 0..=23.
    pub hour: u32,
    pub minute: u32,
    selecting: Selecting,
    keyboard: bool,
    is_24h: bool,
    hour_text: String,
    minute_text: String,
}

impl TimePicker {
    const TAG: &'static str = "tp:";

    pub fn new(hour: u32, minute: u32, is_24h: bool) -> TimePicker {
        let mut p = TimePicker {
            hour: hour % 24,
            minute: minute % 60,
            selecting: Selecting::Hour,
            keyboard: false,
            is_24h,
            hour_text: String::new(),
            minute_text: format!("{:02}", minute % 60),
        };
        p.hour_text = p.hour_label();
        p
    }

    /// The hour as the chip and field show it: "9" (12-hour) or "09" (24-hour).
    fn hour_label(&self) -> String {
        if self.is_24h {
            format!("{:02}", self.hour)
        } else {
            hour_12(self.hour).0.to_string()
        }
    }

    fn is_pm(&self) -> bool {
        self.hour >= 12
    }

    fn set_hour_12(&mut self, h12: u32) {
        let base = h12 % 12;
        self.hour = if self.is_pm() { base + 12 } else { base };
    }

    /// Reacts to an event; `None` when the event is not the picker's.
    pub fn handle(&mut self, event: &UiEvent) -> Option<DialogResult<(u32, u32)>> {
        let (tag, text) = match event {
            UiEvent::Click(tag) => (tag.as_str(), None),
            UiEvent::TextChanged { tag, text } => (tag.as_str(), Some(text.as_str())),
            UiEvent::EditorAction(tag) => (tag.as_str(), None),
            _ => return None,
        };
        let action = tag.strip_prefix(Self::TAG)?;
        if let Some(text) = text {
            let digits: String = text
                .chars()
                .filter(|c| c.is_ascii_digit())
                .take(2)
                .collect();
            if action == "hour_input" {
                self.hour_text = digits;
                if let Ok(h) = self.hour_text.parse::<u32>() {
                    if self.is_24h && h < 24 {
                        self.hour = h;
                    } else if !self.is_24h && (1..=12).contains(&h) {
                        self.set_hour_12(h);
                    }
                }
            } else if action == "minute_input" {
                self.minute_text = digits;
                if let Ok(m) = self.minute_text.parse::<u32>() {
                    if m < 60 {
                        self.minute = m;
                    }
                }
            }
            return Some(DialogResult::Pending);
        }
        match action {
            "ok" => return Some(DialogResult::Ok((self.hour, self.minute))),
            "cancel" => return Some(DialogResult::Cancel),
            "hour_chip" => self.selecting = Selecting::Hour,
            "minute_chip" => self.selecting = Selecting::Minute,
            "am" if self.is_pm() => self.hour -= 12,
            "pm" if !self.is_pm() => self.hour += 12,
            "mode" => {
                self.keyboard = !self.keyboard;
                self.hour_text = self.hour_label();
                self.minute_text = format!("{:02}", self.minute);
            }
            "hour_input" | "minute_input" => {}
            other => {
                if let Some(h) = other.strip_prefix("H").and_then(|v| v.parse::<u32>().ok()) {
                    self.hour = h % 24;
                    self.selecting = Selecting::Minute;
                } else if let Some(h) = other.strip_prefix("h").and_then(|v| v.parse::<u32>().ok())
                {
                    self.set_hour_12(h);
                    self.selecting = Selecting::Minute;
                } else if let Some(m) = other.strip_prefix("m").and_then(|v| v.parse::<u32>().ok())
                {
                    self.minute = m % 60;
                }
            }
        }
        Some(DialogResult::Pending)
    }

    /// The dialog, covering the app's content area.
    pub fn render(&self, package: &str, m: &Metrics) -> View {
        let id = |name: &str| rid(package, name);
        let tag = |name: &str| format!("{}{name}", Self::TAG);
        let card = dialog_card(
            m,
            if self.keyboard {
                m.dp(300.0)
            } else {
                m.dp(560.0)
            },
        );
        let body = inset(card, m.dp(24.0));
        let mut rows = Rows::new(body);
        let mut children = Vec::new();
        let title = if self.keyboard {
            "Enter time"
        } else {
            "Select time"
        };
        children.push(label(rows.take(m.sp(32.0)), title, 12.0).id(id("header_title")));
        rows.take(m.dp(12.0));

        // Hour and minute chips (or fields), then the AM/PM toggle group to the right.
        let line = rows.take(m.dp(80.0));
        let cols = columns(line, 8);
        let hour_b = Bounds::new(cols[0].left, line.top, cols[2].right, line.bottom);
        let colon_b = Bounds::new(cols[3].left, line.top, cols[3].right, line.bottom);
        let minute_b = Bounds::new(cols[4].left, line.top, cols[6].right, line.bottom);
        let period_b = cols[7];
        if self.keyboard {
            let field = |b: Bounds, name: &str, text: &str, input: &str, hint: &str| {
                View::new(class::LINEAR_LAYOUT, b).id(id(name)).child(
                    View::new(class::EDIT_TEXT, b)
                        .text(text)
                        .hint(hint)
                        .editable(tag(input))
                        .style(Style {
                            text_size_sp: Some(40.0),
                            center_text: true,
                            background_role: Some(Role::SurfaceVariant),
                            ..Style::default()
                        }),
                )
            };
            children.push(field(
                hour_b,
                "material_hour_text_input",
                &self.hour_text,
                "hour_input",
                "hour",
            ));
            children.push(field(
                minute_b,
                "material_minute_text_input",
                &self.minute_text,
                "minute_input",
                "minute",
            ));
        } else {
            let chip =
                |b: Bounds, name: &str, text: String, desc: String, action: &str, on: bool| {
                    View::new(COMPOUND_BUTTON, b)
                        .id(id(name))
                        .text(text)
                        .desc(desc)
                        .on_click(tag(action))
                        .checked(on)
                        .style(Style {
                            text_size_sp: Some(48.0),
                            center_text: true,
                            background_role: Some(if on {
                                Role::Accent
                            } else {
                                Role::SurfaceVariant
                            }),
                            corner_radius: m.dp(8.0),
                            ..Style::default()
                        })
                };
            children.push(chip(
                hour_b,
                "material_hour_tv",
                self.hour_label(),
                format!(
                    "{} o'clock",
                    if self.is_24h {
                        self.hour
                    } else {
                        hour_12(self.hour).0
                    }
                ),
                "hour_chip",
                self.selecting == Selecting::Hour,
            ));
            children.push(chip(
                minute_b,
                "material_minute_tv",
                format!("{:02}", self.minute),
                format!("{} minutes", self.minute),
                "minute_chip",
                self.selecting == Selecting::Minute,
            ));
        }
        children.push(label(colon_b, ":", 48.0));
        let halves = Rows::new(period_b).area;
        let mid = halves.top + halves.height() / 2;
        let period = |b: Bounds, name: &str, text: &str, action: &str, on: bool| {
            View::new(COMPOUND_BUTTON, b)
                .id(id(name))
                .text(text)
                .on_click(tag(action))
                .checked(on)
                .style(Style {
                    center_text: true,
                    background_role: Some(if on {
                        Role::Accent
                    } else {
                        Role::SurfaceVariant
                    }),
                    ..Style::default()
                })
        };
        if !self.is_24h {
            children.push(
                View::new(class::LINEAR_LAYOUT, period_b)
                    .id(id("material_clock_period_toggle"))
                    .child(period(
                        Bounds::new(period_b.left, period_b.top, period_b.right, mid),
                        "material_clock_period_am_button",
                        "AM",
                        "am",
                        !self.is_pm(),
                    ))
                    .child(period(
                        Bounds::new(period_b.left, mid, period_b.right, period_b.bottom),
                        "material_clock_period_pm_button",
                        "PM",
                        "pm",
                        self.is_pm(),
                    )),
            );
        }
        rows.take(m.dp(24.0));

        if !self.keyboard {
            // On a dense screen (550-700 dpi at font scale 0.85) the face shrinks so the
            // buttons below it stay inside the card, as the dialog's layout does in landscape.
            let room = rows.rest().height() - m.dp(16.0 + 48.0);
            let side = body.width().min(m.dp(256.0)).min(room).max(m.dp(160.0));
            let face_row = rows.take(side);
            let left = face_row.left + (face_row.width() - side) / 2;
            let face = Bounds::new(left, face_row.top, left + side, face_row.top + side);
            children.push(self.clock_face(package, m, face));
            rows.take(m.dp(16.0));
        }

        let buttons = rows.take(m.dp(48.0));
        let cols = columns(buttons, 4);
        children.push(
            View::new(class::IMAGE_BUTTON, cols[0])
                .id(id("material_timepicker_mode_button"))
                .desc(if self.keyboard {
                    "Switch to clock mode for the time input."
                } else {
                    "Switch to text input mode for the time input."
                })
                .on_click(tag("mode"))
                .style(Style {
                    icon: Some(if self.keyboard { "clock" } else { "keyboard" }),
                    ..Style::default()
                }),
        );
        children.push(
            button(cols[2], "Cancel", tag("cancel")).id(id("material_timepicker_cancel_button")),
        );
        children.push(button(cols[3], "OK", tag("ok")).id(id("material_timepicker_ok_button")));
        with_card_children(dialog_frame(m, card), children)
    }

    fn clock_face(&self, package: &str, m: &Metrics, face: Bounds) -> View {
        let c = face.center();
        let radius = face.width() as f32 / 2.0 - m.dp(24.0) as f32;
        let inner_ring = self.is_24h && self.selecting == Selecting::Hour;
        // A number's touch target is 48dp where the ring has room, and never so wide that it
        // reaches a neighbour's: square targets of numbers 30° apart (1 and 2 o'clock are 0.366 r
        // apart across and down) must stay under that gap, or on a shrunken face (a dense screen)
        // a tap on 10 lands on 11.
        let ring = if inner_ring { radius * 0.62 } else { radius };
        let cell = m.dp(48.0).min((ring * 0.36) as i32).max(1);
        let count = if inner_ring { 24u32 } else { 12 };
        let numbers: Vec<View> = (0..count)
            .map(|i| {
                let angle = ((i % 12) as f32) * std::f32::consts::PI / 6.0;
                let r = if i >= 12 { radius * 0.62 } else { radius };
                let x = c.x + (r * angle.sin()).round() as i32;
                let y = c.y - (r * angle.cos()).round() as i32;
                let b = Bounds::new(x - cell / 2, y - cell / 2, x + cell / 2, y + cell / 2);
                let (text, desc, action, on) = match self.selecting {
                    // 24-hour clock: 00 and 1–11 outside, 12–23 inside.
                    Selecting::Hour if self.is_24h => {
                        let text = if i == 0 {
                            "00".to_string()
                        } else {
                            i.to_string()
                        };
                        (
                            text,
                            format!("{i} o'clock"),
                            format!("H{i}"),
                            self.hour == i,
                        )
                    }
                    Selecting::Hour => {
                        let h = if i == 0 { 12 } else { i };
                        let on = hour_12(self.hour).0 == h;
                        (h.to_string(), format!("{h} o'clock"), format!("h{h}"), on)
                    }
                    Selecting::Minute => {
                        let mm = i * 5;
                        (
                            format!("{mm:02}"),
                            format!("{mm} minutes"),
                            format!("m{mm}"),
                            self.minute == mm,
                        )
                    }
                };
                View::new(class::TEXT_VIEW, b)
                    .text(text)
                    .desc(desc)
                    .on_click(format!("{}{action}", Self::TAG))
                    .selected(on)
                    .style(Style {
                        center_text: true,
                        text_size_sp: Some(16.0),
                        background_role: on.then_some(Role::Accent),
                        corner_radius: cell / 2,
                        ..Style::default()
                    })
            })
            .collect();
        // A clock face reads clockwise in every locale.
        View::new(class::VIEW_GROUP, face)
            .id(rid(package, "material_clock_face"))
            .layout_ltr()
            .style(Style {
                background_role: Some(Role::SurfaceVariant),
                corner_radius: face.width() / 2,
                ..Style::default()
            })
            .children(numbers)
    }
}

/// Android's DatePickerDialog (calendar mode): a month grid with previous/next arrows and OK/Cancel.
#[derive(Debug, Clone, PartialEq)]
pub struct DatePicker {
    pub date: NaiveDate,
    /// First day of the month on show.
    shown: NaiveDate,
}

impl DatePicker {
    const TAG: &'static str = "dp:";

    pub fn new(date: NaiveDate) -> DatePicker {
        DatePicker {
            date,
            shown: first_of_month(date),
        }
    }

    /// Reacts to an event; `None` when the event is not the picker's.
    pub fn handle(&mut self, event: &UiEvent) -> Option<DialogResult<NaiveDate>> {
        let UiEvent::Click(tag) = event else {
            return None;
        };
        let action = tag.strip_prefix(Self::TAG)?;
        match action {
            "ok" => return Some(DialogResult::Ok(self.date)),
            "cancel" => return Some(DialogResult::Cancel),
            "prev" => self.shown = add_months(self.shown, -1),
            "next" => self.shown = add_months(self.shown, 1),
            other => {
                if let Some(day) = other.strip_prefix("d").and_then(|d| d.parse::<u32>().ok()) {
                    if let Some(d) = self.shown.with_day(day) {
                        self.date = d;
                    }
                }
            }
        }
        Some(DialogResult::Pending)
    }

    pub fn render(&self, m: &Metrics) -> View {
        let tag = |name: &str| format!("{}{name}", Self::TAG);
        let card = dialog_card(m, m.dp(540.0));
        let body = inset(card, m.dp(16.0));
        let mut rows = Rows::new(body);
        let mut children = Vec::new();
        children.push(
            label(
                rows.take(m.sp(28.0)),
                self.date.format("%Y").to_string(),
                14.0,
            )
            .id("android:id/date_picker_header_year"),
        );
        children.push(
            label(
                rows.take(m.sp(44.0)),
                self.date.format("%a, %b %-d").to_string(),
                32.0,
            )
            .id("android:id/date_picker_header_date"),
        );
        rows.take(m.dp(8.0));
        let nav = rows.take(m.dp(48.0));
        let cols = columns(nav, 7);
        children.push(
            View::new(class::IMAGE_BUTTON, cols[0])
                .id("android:id/prev")
                .desc("Previous month")
                .on_click(tag("prev"))
                .style(Style {
                    icon: Some("arrow_back"),
                    ..Style::default()
                }),
        );
        children.push(
            label(
                Bounds::new(cols[1].left, nav.top, cols[5].right, nav.bottom),
                self.shown.format("%B %Y").to_string(),
                14.0,
            )
            .id("android:id/month_name"),
        );
        children.push(
            View::new(class::IMAGE_BUTTON, cols[6])
                .id("android:id/next")
                .desc("Next month")
                .on_click(tag("next"))
                .style(Style {
                    icon: Some("chevron_right"),
                    ..Style::default()
                }),
        );
        let grid_b = rows.take(m.dp(7.0 * 44.0));
        let mut grid = View::new(class::VIEW_GROUP, grid_b).id("android:id/month_view");
        let week_rows = columns_vertical(grid_b, 7);
        for (c, name) in columns(week_rows[0], 7)
            .into_iter()
            .zip(["S", "M", "T", "W", "T", "F", "S"])
        {
            grid = grid.child(label(c, name, 12.0));
        }
        let offset = self.shown.weekday().num_days_from_sunday() as i32;
        for day in 1..=days_in_month(self.shown) {
            let slot = offset + day as i32 - 1;
            let row = 1 + slot / 7;
            let col = slot % 7;
            let Some(row_b) = week_rows.get(row as usize) else {
                continue;
            };
            let b = columns(*row_b, 7)[col as usize];
            let date = self.shown.with_day(day).unwrap_or(self.shown);
            grid = grid.child(
                View::new(class::VIEW, b)
                    .text(day.to_string())
                    .desc(date.format("%-d %B %Y").to_string())
                    .on_click(tag(&format!("d{day}")))
                    .checked(date == self.date)
                    .style(Style {
                        center_text: true,
                        background_role: (date == self.date).then_some(Role::Accent),
                        text_role: (date == self.date).then_some(Role::OnAccent),
                        corner_radius: b.height() / 2,
                        ..Style::default()
                    }),
            );
        }
        children.push(grid);
        let buttons = rows.take(m.dp(48.0));
        let cols = columns(buttons, 4);
        children.push(button(cols[2], "Cancel", tag("cancel")).id("android:id/button2"));
        children.push(button(cols[3], "OK", tag("ok")).id("android:id/button1"));
        with_card_children(dialog_frame(m, card), children)
    }
}

/// Splits `b` into `n` equal rows.
pub fn columns_vertical(b: Bounds, n: i32) -> Vec<Bounds> {
    let n = n.max(1);
    let h = b.height() / n;
    (0..n)
        .map(|i| Bounds::new(b.left, b.top + h * i, b.right, b.top + h * (i + 1)))
        .collect()
}

pub fn first_of_month(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

/// The first of the month `delta` months from `first` (which is a first of month).
pub fn add_months(first: NaiveDate, delta: i32) -> NaiveDate {
    let months = first.year() * 12 + first.month0() as i32 + delta;
    NaiveDate::from_ymd_opt(months.div_euclid(12), months.rem_euclid(12) as u32 + 1, 1)
        .unwrap_or(first)
}

pub fn days_in_month(first: NaiveDate) -> u32 {
    let next = add_months(first_of_month(first), 1);
    (next - first_of_month(first)).num_days() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn click(p: &mut TimePicker, action: &str) -> Option<DialogResult<(u32, u32)>> {
        p.handle(&UiEvent::Click(format!("tp:{action}")))
    }

    #[test]
    fn clock_face_picks_hour_then_minute_then_pm() {
        let mut p = TimePicker::new(8, 0, false);
        click(&mut p, "h1");
        click(&mut p, "m30");
        click(&mut p, "pm");
        assert_eq!(click(&mut p, "ok"), Some(DialogResult::Ok((13, 30))));
    }

    #[test]
    fn keyboard_mode_accepts_any_minute_and_ignores_bad_text() {
        let mut p = TimePicker::new(8, 0, false);
        click(&mut p, "mode");
        p.handle(&UiEvent::TextChanged {
            tag: "tp:hour_input".into(),
            text: "10".into(),
        });
        p.handle(&UiEvent::TextChanged {
            tag: "tp:minute_input".into(),
            text: "37".into(),
        });
        p.handle(&UiEvent::TextChanged {
            tag: "tp:minute_input".into(),
            text: "99".into(),
        });
        assert_eq!(click(&mut p, "ok"), Some(DialogResult::Ok((10, 37))));
        assert_eq!(p.handle(&UiEvent::Click("other".into())), None);
    }

    #[test]
    fn twelve_oclock_maps_to_noon_and_midnight() {
        let mut p = TimePicker::new(9, 0, false);
        click(&mut p, "h12");
        assert_eq!(p.hour, 0);
        click(&mut p, "pm");
        assert_eq!(p.hour, 12);
        assert_eq!(format_time_12h(0, 5), "12:05 AM");
        assert_eq!(format_time_12h(12, 0), "12:00 PM");
    }

    #[test]
    fn twenty_four_hour_clock_has_both_rings_and_no_am_pm() {
        let mut p = TimePicker::new(9, 0, true);
        click(&mut p, "H17");
        click(&mut p, "m45");
        assert_eq!(click(&mut p, "ok"), Some(DialogResult::Ok((17, 45))));
        let mut p = TimePicker::new(9, 0, true);
        click(&mut p, "mode");
        p.handle(&UiEvent::TextChanged {
            tag: "tp:hour_input".into(),
            text: "21".into(),
        });
        assert_eq!(click(&mut p, "ok"), Some(DialogResult::Ok((21, 0))));
    }

    /// The clock face of a dense screen (Pixel 6 at 700 dpi, font 0.85: environment 108) shrinks;
    /// its numbers' touch targets must still not overlap, or a tap on 10 lands on 11.
    #[test]
    fn a_shrunken_clock_face_keeps_every_number_apart() {
        let m = Metrics {
            width: 1080,
            height: 2400,
            density: 700.0 / 160.0,
            font_scale: 0.85,
            content: Bounds::new(0, 105, 1080, 2190),
        };
        for is_24h in [false, true] {
            let p = TimePicker::new(8, 0, is_24h);
            let dialog = p.render("com.google.android.deskclock", &m);
            let face = dialog
                .find_by_id("com.google.android.deskclock:id/material_clock_face")
                .expect("a clock face");
            let numbers: Vec<Bounds> = face.children.iter().map(|v| v.bounds).collect();
            assert_eq!(numbers.len(), if is_24h { 24 } else { 12 });
            for (i, a) in numbers.iter().enumerate() {
                assert!(face.bounds.contains(a.center()));
                for b in &numbers[i + 1..] {
                    assert!(
                        a.intersect(b).is_empty(),
                        "24h {is_24h}: {a:?} overlaps {b:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn date_picker_moves_across_months() {
        let mut p = DatePicker::new(NaiveDate::from_ymd_opt(2026, 12, 30).unwrap());
        p.handle(&UiEvent::Click("dp:next".into()));
        p.handle(&UiEvent::Click("dp:d2".into()));
        assert_eq!(
            p.handle(&UiEvent::Click("dp:ok".into())),
            Some(DialogResult::Ok(
                NaiveDate::from_ymd_opt(2027, 1, 2).unwrap()
            ))
        );
        assert_eq!(
            days_in_month(NaiveDate::from_ymd_opt(2028, 2, 1).unwrap()),
            29
        );
    }
}

//! The notification shade, as SystemUI draws it on Android 14: a swipe down from the status bar
//! (or `cmd statusbar expand-notifications`) pulls it over the screen; it lists the posted
//! notifications newest first (app name, time, title, text, action buttons) in
//! `notification_stack_scroller`; a tap on one fires its content intent, a sideways swipe dismisses
//! it, "Clear all" dismisses every one that is not ongoing; back, home, a swipe up or
//! `cmd statusbar collapse` close it. While it is open it is the focused window
//! (`mCurrentFocus=Window{… NotificationShade}`), so `uiautomator dump` writes it.
//!
//! Notifications also come from the shell (`cmd notification post`, in `shell/statusbar.rs`).

use chrono::NaiveDateTime;

use droidmcp_geom::{Bounds, Point};

use super::app::UiEvent;
use super::framework::{Framework, Launcher};
use super::screen::SYSTEMUI;
use super::system::Notification;
use super::view::{class, Role, Style, View};

/// Tags of the shade's views: `shade:row:<index>` for a notification's body,
/// `shade:action:<index>|<action tag>` for its buttons.
const ROW_PREFIX: &str = "shade:row:";
const ACTION_PREFIX: &str = "shade:action:";
const CLEAR_ALL: &str = "shade:clear_all";
const STACK: &str = "shade:stack";

/// The package and id `cmd notification post` posts under (`NotificationShellCmd`).
pub const SHELL_PACKAGE: &str = "com.android.shell";
pub const SHELL_NOTIFICATION_ID: i32 = 1138;

/// Ongoing notifications (a ringing timer or alarm, shown heads-up; a call's) cannot be swiped
/// away or cleared; everything else can.
fn clearable(n: &Notification) -> bool {
    !n.heads_up && !n.ongoing
}

/// What SystemUI does with a notification an app posts anew with a full-screen intent (an incoming
/// call's), by Android 14's `NotificationInterruptStateProviderImpl.getFullScreenIntentDecision`
/// for a notification of high importance on a phone with no keyguard, dream or DND here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interruption {
    /// The screen is off (`FSI_DEVICE_NOT_INTERACTIVE`): the full-screen intent starts.
    FullScreen,
    /// The phone is in use and heads-up is on (`NO_FSI_EXPECTED_TO_HUN`): a heads-up instead.
    HeadsUp,
    /// In use with heads-up switched off and no keyguard (`NO_FSI_NO_HUN_OR_KEYGUARD`): neither;
    /// since b/231322873 SystemUI no longer starts the intent then, so only the shade lists it.
    Quiet,
}

/// `Settings.Global.HEADS_UP_NOTIFICATIONS_ENABLED` as SystemUI reads it: off unless set to a
/// value other than `HEADS_UP_OFF` (0), an unset key counting as off.
fn heads_up_enabled(fw: &Framework) -> bool {
    const HEADS_UP_OFF: i64 = 0;
    fw.sys.settings.get_int(
        super::system::Namespace::Global,
        "heads_up_notifications_enabled",
        HEADS_UP_OFF,
    ) != HEADS_UP_OFF
}

/// SystemUI's full-screen-intent decision for a notification posted now (see [`Interruption`]).
pub fn interruption(fw: &Framework) -> Interruption {
    if !fw.screen_on {
        Interruption::FullScreen
    } else if heads_up_enabled(fw) {
        Interruption::HeadsUp
    } else {
        Interruption::Quiet
    }
}

/// The notification header's relative time (`DateTimeView` in its shortest form, from the
/// framework's strings): "now", "5m", "3h", "2d"; "5 Min.", "٥ د".
fn ago(when: NaiveDateTime, now: NaiveDateTime, locale: &str) -> String {
    let minutes = (now - when).num_minutes().max(0);
    let (name, n) = match minutes {
        0 => return super::locale::string(locale, "android", "now_string_shortest").to_string(),
        m if m < 60 => ("duration_minutes_shortest", m),
        m if m < 60 * 24 => ("duration_hours_shortest", m / 60),
        m => ("duration_days_shortest", m / (60 * 24)),
    };
    super::locale::plural(locale, "android", name, n, &[&n])
}

/// The label the shade shows for a notification's package.
fn app_name(fw: &Framework, package: &str) -> String {
    if package == SHELL_PACKAGE {
        return "Shell".into();
    }
    fw.app_info(package)
        .map(|a| a.label(&fw.sys.locale).to_string())
        .unwrap_or_else(|| package.to_string())
}

/// The shade's view tree over the whole screen.
pub fn view(fw: &Framework) -> View {
    let m = fw.sys.metrics;
    let screen = Bounds::new(0, 0, m.width, m.height);
    let id = |name: &str| format!("{SYSTEMUI}:id/{name}");
    let pad = m.dp(16.0);
    let now = fw.sys.clock.now();
    let text = |b: Bounds, s: &str, rid: &str, size: f32, role: Role, bold: bool| {
        View::new(class::TEXT_VIEW, b).id(rid).text(s).style(Style {
            text_size_sp: Some(size),
            text_role: Some(role),
            bold,
            ..Style::default()
        })
    };
    // The header: clock and date, as the expanded status bar shows them.
    let header_h = m.dp(72.0);
    let (clock, _) = super::screen::status_clock(&fw.sys);
    let header = View::new(class::FRAME_LAYOUT, Bounds::new(0, 0, m.width, header_h))
        .id(id("split_shade_status_bar"))
        .child(text(
            Bounds::new(pad, m.dp(16.0), pad + m.dp(96.0), m.dp(48.0)),
            &clock,
            &id("clock"),
            20.0,
            Role::Primary,
            false,
        ))
        .child(text(
            Bounds::new(pad + m.dp(104.0), m.dp(20.0), m.width - pad, m.dp(44.0)),
            &super::locale::format_date(
                now.date(),
                &fw.sys.locale,
                super::locale::DateStyle::MonthDayWeekday,
            ),
            &id("date"),
            14.0,
            Role::Secondary,
            false,
        ));

    let stack_b = Bounds::new(0, header_h, m.width, m.content.bottom);
    let mut stack = View::new(class::SCROLL_VIEW, stack_b)
        .id(id("notification_stack_scroller"))
        .scrollable(STACK);
    let (left, right) = (m.dp(8.0), m.width - m.dp(8.0));
    let line = m.dp(24.0);
    let mut top = header_h + m.dp(8.0);
    for (index, n) in fw.sys.notifications.iter().enumerate().rev() {
        let has_actions = !n.actions.is_empty();
        let height = pad + 3 * line + if has_actions { m.dp(44.0) } else { 0 } + pad / 2;
        let card = Bounds::new(left, top, right, top + height);
        let row = |i: i32, from: i32, to: i32| {
            Bounds::new(
                from,
                top + pad / 2 + i * line,
                to,
                top + pad / 2 + (i + 1) * line,
            )
        };
        let name = app_name(fw, &n.package);
        let name_w = m.dp(8.0) * name.chars().count().min(24) as i32 + m.dp(8.0);
        let mut body = View::new(class::FRAME_LAYOUT, card)
            .id(id("expandableNotificationRow"))
            .on_click(format!("{ROW_PREFIX}{index}"))
            .long_clickable()
            .style(Style {
                background_role: Some(Role::SurfaceVariant),
                corner_radius: m.dp(24.0),
                ..Style::default()
            })
            .child(text(
                row(0, left + pad, left + pad + name_w),
                &name,
                "android:id/app_name_text",
                12.0,
                Role::Secondary,
                false,
            ))
            .child(text(
                row(0, left + pad + name_w, right - pad),
                &ago(n.when, now, &fw.sys.locale),
                "android:id/time",
                12.0,
                Role::Secondary,
                false,
            ))
            .child(text(
                row(1, left + pad, right - pad),
                &n.title,
                "android:id/title",
                16.0,
                Role::Primary,
                true,
            ))
            .child(text(
                row(2, left + pad, right - pad),
                &n.text,
                "android:id/text",
                14.0,
                Role::Primary,
                false,
            ));
        let actions_top = top + pad / 2 + 3 * line + m.dp(4.0);
        body = body.children(action_buttons(
            n,
            left + pad,
            actions_top,
            &m,
            "android:id/action0",
            &|action| format!("{ACTION_PREFIX}{index}|{action}"),
        ));
        stack = stack.child(body);
        top += height + m.dp(8.0);
    }
    if fw.sys.notifications.is_empty() {
        stack = stack.child(text(
            Bounds::new(pad, top + m.dp(16.0), m.width - pad, top + m.dp(48.0)),
            super::locale::string(&fw.sys.locale, SYSTEMUI, "empty_shade_text"),
            &id("no_notifications"),
            16.0,
            Role::Secondary,
            false,
        ));
    } else if fw.sys.notifications.iter().any(clearable) {
        let b = Bounds::new(
            m.width - pad - m.dp(112.0),
            top + m.dp(8.0),
            m.width - pad,
            top + m.dp(48.0),
        );
        stack = stack.child(
            View::new(class::BUTTON, b)
                .id(id("dismiss_text"))
                .text(super::locale::string(
                    &fw.sys.locale,
                    SYSTEMUI,
                    "clear_all_notifications_text",
                ))
                .on_click(CLEAR_ALL)
                .style(Style {
                    text_role: Some(Role::Primary),
                    background_role: Some(Role::SurfaceVariant),
                    corner_radius: m.dp(20.0),
                    center_text: true,
                    ..Style::default()
                }),
        );
    }
    View::new(class::FRAME_LAYOUT, screen)
        .id(id("notification_panel"))
        .style(Style {
            background_role: Some(Role::Surface),
            ..Style::default()
        })
        .child(header)
        .child(stack)
}

/// A notification's action buttons in a row from (`left`, `top`), as its template lays them out
/// (the heads-up card and the shade both show them); `tag` names each button's click.
pub fn action_buttons(
    n: &Notification,
    left: i32,
    top: i32,
    m: &super::view::Metrics,
    id: &str,
    tag: &dyn Fn(&str) -> String,
) -> Vec<View> {
    let width = m.dp(96.0);
    let mut x = left;
    n.actions
        .iter()
        .map(|(action, label)| {
            let b = Bounds::new(x, top, x + width, top + m.dp(36.0));
            x += width + m.dp(8.0);
            View::new(class::BUTTON, b)
                .id(id)
                .text(label.as_str())
                .on_click(tag(action))
                .style(Style {
                    text_role: Some(Role::Accent),
                    bold: true,
                    ..Style::default()
                })
        })
        .collect()
}

impl Framework {
    /// `cmd statusbar expand-notifications`, or a swipe down from the status bar.
    pub fn expand_notifications(&mut self) {
        self.overview = false;
        self.selection = None;
        self.shade_open = true;
    }

    /// `cmd statusbar collapse`, back, home.
    pub fn collapse_panels(&mut self) {
        if self.shade_open {
            self.shade_open = false;
            self.scroll
                .remove(&(SYSTEMUI.to_string(), STACK.to_string()));
        }
    }

    fn notification_at(&self, index: &str) -> Option<Notification> {
        let i: usize = index.parse().ok()?;
        self.sys.notifications.get(i).cloned()
    }

    /// A tap in the shade: a notification's body fires its content intent (starting the app that
    /// posted it when it has none) and closes the shade; a button goes to the app that posted it;
    /// "Clear all" dismisses every clearable notification.
    pub(super) fn shade_click(&mut self, tag: &str) {
        if tag == CLEAR_ALL {
            self.sys.notifications.retain(|n| !clearable(n));
            self.collapse_panels();
            return;
        }
        if let Some(index) = tag.strip_prefix(ROW_PREFIX) {
            let Some(n) = self.notification_at(index) else {
                return;
            };
            self.collapse_panels();
            let target = n.target.clone().unwrap_or_else(|| n.package.clone());
            if self.launch(&target, Launcher::Home).is_ok() {
                if let Some(intent) = &n.intent {
                    self.deliver_intent(&target, intent);
                }
            }
            if n.auto_cancel {
                self.cancel_posted(&n);
            }
            return;
        }
        if let Some((index, action)) = tag
            .strip_prefix(ACTION_PREFIX)
            .and_then(|t| t.split_once('|'))
        {
            if let Some(n) = self.notification_at(index) {
                let before = self.foreground().map(|t| (t.package, t.app.activity()));
                self.deliver(&n.package, UiEvent::Click(action.to_string()));
                // An action that starts an activity (Answer bringing up the in-call screen)
                // closes the shade over it, as SystemUI does for activity launches.
                if self.foreground().map(|t| (t.package, t.app.activity())) != before {
                    self.collapse_panels();
                }
            }
        }
    }

    fn cancel_posted(&mut self, n: &Notification) {
        self.sys
            .notifications
            .retain(|p| !(p.package == n.package && p.id == n.id && p.tag == n.tag));
    }

    /// A swipe while the shade is open: sideways on a notification dismisses it (when it is not
    /// ongoing), up closes the shade, down scrolls the list back.
    pub(super) fn shade_swipe(&mut self, from: Point, to: Point) {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if dx.abs() > dy.abs() {
            let windows = self.windows();
            let row = windows
                .iter()
                .rev()
                .find(|w| w.kind == super::screen::WindowKind::Shade)
                .and_then(|w| {
                    super::screen::find_at(&w.root, from, &|v| {
                        v.tag.as_deref().is_some_and(|t| t.starts_with(ROW_PREFIX))
                    })
                })
                .and_then(|v| v.tag.clone());
            if let Some(n) = row
                .as_deref()
                .and_then(|t| t.strip_prefix(ROW_PREFIX))
                .and_then(|i| self.notification_at(i))
            {
                if clearable(&n) {
                    self.cancel_posted(&n);
                }
            }
        } else if dy < 0 {
            self.collapse_panels();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notification_times_speak_the_locale() {
        let now = chrono::NaiveDate::from_ymd_opt(2024, 6, 3)
            .and_then(|d| d.and_hms_opt(12, 0, 0))
            .expect("valid");
        let before = |m| now - chrono::Duration::minutes(m);
        assert_eq!(ago(now, now, "en-US"), "now");
        assert_eq!(ago(before(5), now, "en-US"), "5m");
        assert_eq!(ago(before(180), now, "en-US"), "3h");
        assert_eq!(ago(before(2 * 1440), now, "en-US"), "2d");
        assert_eq!(ago(before(5), now, "de-DE"), "5 Min.");
        assert_eq!(ago(now, now, "ko-KR"), "지금");
        // Arabic-Indic digits where the locale uses them.
        assert_eq!(ago(before(5), now, "ar-EG"), "٥ د");
        assert_eq!(ago(before(5), now, "ar-AE"), "5 د");
    }
}

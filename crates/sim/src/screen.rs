//! Screen composition: turns the framework state into the windows on screen (app or overview, status
//! bar, navigation bar, keyboard) with scroll offsets applied, off-screen views dropped, visible bounds
//! clipped, focus marked; and hit-testing on the result, so input lands where the dump says.

use std::collections::BTreeMap;

use chrono::Timelike;

use droidmcp_geom::{Bounds, Point};

use super::apps;
use super::framework::Framework;
use super::keyboard;
use super::system::{Namespace, System};
use super::view::{class, Style, View};

pub const SYSTEMUI: &str = "com.android.systemui";
pub const NAV_BACK: &str = "nav:back";
pub const NAV_HOME: &str = "nav:home";
pub const NAV_RECENTS: &str = "nav:recents";
pub const OVERVIEW_CLEAR_ALL: &str = "overview:clear_all";
pub const OVERVIEW_TASK_PREFIX: &str = "overview:task:";
const OVERVIEW_SCROLL: &str = "overview:panel";
/// Tags of a heads-up notification's views: `notif:<package>|<action tag>`; an empty action is
/// the notification's body (which opens the app).
pub const NOTIFICATION_PREFIX: &str = "notif:";

/// What a window is, bottom to top in z-order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowKind {
    /// The foreground app's activity window.
    App,
    /// The recents screen (drawn by the launcher on Pixel phones).
    Overview,
    StatusBar,
    NavigationBar,
    /// A heads-up notification over the top of the screen (a ringing timer or alarm).
    HeadsUp,
    /// The notification shade, pulled down over everything but the keyboard.
    Shade,
    Ime,
}

impl WindowKind {
    /// The window that holds the foreground content (what `uiautomator dump` writes).
    pub fn is_app_content(self) -> bool {
        matches!(
            self,
            WindowKind::App | WindowKind::Overview | WindowKind::Shade
        )
    }
}

/// A scroll container's limits as laid out this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scrollable {
    /// Largest offset in px (content extent minus the container's size).
    pub limit: i32,
    pub horizontal: bool,
}

/// One window with its laid-out view tree (absolute, visible bounds).
#[derive(Debug, Clone)]
pub struct Window {
    pub kind: WindowKind,
    pub package: String,
    pub root: View,
    /// Scroll containers of this window by tag.
    pub scrollables: BTreeMap<String, Scrollable>,
}

/// The windows on screen, bottom to top. Metrics must be fresh (`Framework::windows` does that).
pub fn compose(fw: &Framework) -> Vec<Window> {
    let m = fw.sys.metrics;
    let screen = Bounds::new(0, 0, m.width, m.height);
    let mut windows = Vec::new();
    let (kind, package, content) = if fw.overview {
        (
            WindowKind::Overview,
            apps::launcher::PACKAGE.to_string(),
            overview(fw),
        )
    } else if let Some(task) = fw.foreground() {
        (
            WindowKind::App,
            task.top_package().to_string(),
            task.app.render(&fw.sys),
        )
    } else {
        (
            WindowKind::App,
            apps::launcher::PACKAGE.to_string(),
            View::new(class::FRAME_LAYOUT, m.content),
        )
    };
    // Arabic and Urdu lay every window out from the right (the overview's cards and the IME
    // keep their order).
    let rtl = super::locale::is_rtl(&fw.sys.locale);
    let mirror = |mut v: View| {
        if rtl {
            v.mirror(screen.left, screen.right);
        }
        v
    };
    let content = if fw.overview {
        content
    } else {
        mirror(content)
    };
    let decor = View::new(class::FRAME_LAYOUT, screen).child(
        View::new(class::LINEAR_LAYOUT, screen).child(
            View::new(class::FRAME_LAYOUT, m.content)
                .id("android:id/content")
                .child(content),
        ),
    );
    let focus = fw
        .focus
        .as_ref()
        .filter(|(p, _)| *p == package)
        .map(|(_, t)| t.as_str());
    let mut app = lay_out(kind, &package, decor, screen, focus, Some(&fw.scroll));
    if kind == WindowKind::App {
        if let Some(toolbar) = super::selection::toolbar_for(fw, &package, &app.root) {
            let toolbar = lay_out(kind, &package, toolbar, screen, None, None);
            app.root.children.push(toolbar.root);
        }
    }
    windows.push(app);

    let status = mirror(status_bar(fw));
    windows.push(lay_out(
        WindowKind::StatusBar,
        SYSTEMUI,
        status,
        screen,
        None,
        None,
    ));
    let nav = mirror(navigation_bar(fw));
    windows.push(lay_out(
        WindowKind::NavigationBar,
        SYSTEMUI,
        nav,
        screen,
        None,
        None,
    ));
    if fw.shade_open {
        let shade = mirror(super::shade::view(fw));
        windows.push(lay_out(
            WindowKind::Shade,
            SYSTEMUI,
            shade,
            screen,
            None,
            Some(&fw.scroll),
        ));
        return windows;
    }
    if let Some(card) = heads_up(fw).map(mirror) {
        windows.push(lay_out(
            WindowKind::HeadsUp,
            SYSTEMUI,
            card,
            screen,
            None,
            None,
        ));
    }
    if fw.ime_visible && fw.focus.is_some() && !fw.overview {
        // The app area ends above the keyboard; the keyboard itself spans the space below it.
        let mut full = m;
        full.content.bottom += keyboard::height(&m);
        let ime = keyboard::render(&full, fw.keyboard);
        windows.push(lay_out(
            WindowKind::Ime,
            keyboard::PACKAGE,
            ime,
            screen,
            None,
            None,
        ));
    }
    windows
}

fn lay_out(
    kind: WindowKind,
    package: &str,
    root: View,
    screen: Bounds,
    focus: Option<&str>,
    offsets: Option<&BTreeMap<(String, String), i32>>,
) -> Window {
    let mut placer = Placer {
        package,
        focus,
        offsets,
        scrollables: BTreeMap::new(),
    };
    let root_bounds = root.bounds.intersect(&screen);
    let root = placer
        .place(root, screen, 0, 0)
        .unwrap_or_else(|| View::new(class::FRAME_LAYOUT, root_bounds));
    Window {
        kind,
        package: package.to_string(),
        root,
        scrollables: placer.scrollables,
    }
}

struct Placer<'a> {
    package: &'a str,
    focus: Option<&'a str>,
    offsets: Option<&'a BTreeMap<(String, String), i32>>,
    scrollables: BTreeMap<String, Scrollable>,
}

impl Placer<'_> {
    /// Shifts a subtree by its ancestors' scroll offsets, clips it to what is visible, and drops what is not.
    fn place(&mut self, mut v: View, clip: Bounds, dx: i32, dy: i32) -> Option<View> {
        v.bounds = v.bounds.offset(dx, dy);
        if v.package.is_empty() {
            v.package = self.package.to_string();
        }
        if let (Some(focus), Some(tag)) = (self.focus, v.tag.as_deref()) {
            if focus == tag {
                v.flags.focused = true;
            }
        }
        let visible = v.bounds.intersect(&clip);
        if visible.is_empty() {
            return None;
        }
        let (mut cdx, mut cdy) = (dx, dy);
        if v.flags.scrollable {
            if let Some(tag) = v.tag.clone() {
                let horizontal = extends_horizontally(&v, dx, dy);
                let limit = if horizontal {
                    v.children
                        .iter()
                        .map(|c| c.bounds.right + dx)
                        .max()
                        .unwrap_or(0)
                        - v.bounds.right
                } else {
                    scroll_limit_shifted(&v, dy)
                }
                .max(0);
                self.scrollables
                    .insert(tag.clone(), Scrollable { limit, horizontal });
                let offset = self
                    .offsets
                    .and_then(|o| o.get(&(self.package.to_string(), tag)))
                    .copied()
                    .unwrap_or(0)
                    .clamp(0, limit);
                if horizontal {
                    cdx -= offset;
                } else {
                    cdy -= offset;
                }
            }
        }
        let children = std::mem::take(&mut v.children);
        v.children = children
            .into_iter()
            .filter_map(|c| self.place(c, visible, cdx, cdy))
            .collect();
        v.bounds = visible;
        Some(v)
    }
}

/// How far a vertical scroll container laid out by its app (unscrolled) can scroll: from its
/// bottom to its lowest child's.
pub fn scroll_limit(v: &View) -> i32 {
    scroll_limit_shifted(v, 0).max(0)
}

/// [`scroll_limit`] of a container whose children are still `dy` px from where they will be drawn
/// (an outer scroller's offset not yet applied to them).
fn scroll_limit_shifted(v: &View, dy: i32) -> i32 {
    v.children
        .iter()
        .map(|c| c.bounds.bottom + dy)
        .max()
        .unwrap_or(0)
        - v.bounds.bottom
}

fn extends_horizontally(v: &View, dx: i32, dy: i32) -> bool {
    if v.class == class::HORIZONTAL_SCROLL_VIEW {
        return true;
    }
    let right = v
        .children
        .iter()
        .map(|c| c.bounds.right + dx)
        .max()
        .unwrap_or(0);
    let bottom = v
        .children
        .iter()
        .map(|c| c.bounds.bottom + dy)
        .max()
        .unwrap_or(0);
    right > v.bounds.right && bottom <= v.bounds.bottom
}

/// The topmost window under `p` and the view there that takes the touch. A window that contains `p`
/// swallows it even when nothing in it is touchable (`None` then), as opaque windows do.
pub fn hit(windows: &[Window], p: Point) -> Option<(WindowKind, View)> {
    for w in windows.iter().rev() {
        if !w.root.bounds.contains(p) {
            continue;
        }
        let target = find_at(&w.root, p, &|v| {
            v.flags.clickable
                || v.flags.long_clickable
                || v.range.is_some()
                || (v.class == class::EDIT_TEXT && v.tag.is_some())
        })?;
        let mut shallow = target.clone();
        shallow.children.clear();
        return Some((w.kind, shallow));
    }
    None
}

/// The kind of the topmost window under `p`.
pub fn window_at(windows: &[Window], p: Point) -> Option<WindowKind> {
    windows
        .iter()
        .rev()
        .find(|w| w.root.bounds.contains(p))
        .map(|w| w.kind)
}

/// The deepest view under `p` matching `pred`, later (drawn-on-top) siblings first.
pub fn find_at<'v>(view: &'v View, p: Point, pred: &dyn Fn(&View) -> bool) -> Option<&'v View> {
    if !view.bounds.contains(p) || !view.flags.enabled && view.flags.clickable {
        return None;
    }
    for child in view.children.iter().rev() {
        if let Some(found) = find_at(child, p, pred) {
            return Some(found);
        }
    }
    pred(view).then_some(view)
}

/// Visits every view depth-first.
pub fn collect(view: &View, f: &mut dyn FnMut(&View)) {
    f(view);
    for c in &view.children {
        collect(c, f);
    }
}

/// SystemUI's clock (the status bar's and the shade header's) as (text, description): the time
/// in the locale's clock and digits, without the AM/PM marker on the 12-hour clock, which the
/// description keeps.
pub fn status_clock(sys: &System) -> (String, String) {
    let time = sys.clock.now();
    let h24 = apps::widgets::uses_24h(sys);
    let (hour, minute) = (time.hour(), time.minute());
    let desc = super::locale::format_time(hour, minute, &sys.locale, h24);
    let text = if h24 {
        desc.clone()
    } else {
        let marker = super::locale::datetime::am_pm(hour, &sys.locale);
        desc.replace(marker, "").trim().to_string()
    };
    (text, desc)
}

fn status_bar(fw: &Framework) -> View {
    let m = fw.sys.metrics;
    let h = m.content.top;
    let id = |name: &str| format!("{SYSTEMUI}:id/{name}");
    let (text, desc) = status_clock(&fw.sys);
    let icon_style = |icon: &'static str| Style {
        icon: Some(icon),
        ..Style::default()
    };
    let pad = m.dp(16.0);
    let icon = m.dp(16.0);
    let top = (h - icon) / 2;
    let mut right = m.width - pad;
    let mut icons = Vec::new();
    let mut push_icon = |name: &str, desc: &str, style: &'static str, w: i32| {
        let b = Bounds::new(right - w, top, right, top + icon);
        right -= w + m.dp(4.0);
        icons.push(
            View::new(class::IMAGE_VIEW, b)
                .id(id(name))
                .desc(desc)
                .style(icon_style(style)),
        );
    };
    let ui = |name: &str| super::locale::string(&fw.sys.locale, SYSTEMUI, name).to_string();
    let battery = super::locale::format(
        &fw.sys.locale,
        SYSTEMUI,
        "accessibility_battery_level",
        &[&100],
    );
    push_icon("battery", &battery, "battery", m.dp(24.0));
    let airplane = fw
        .sys
        .settings
        .get_int(Namespace::Global, "airplane_mode_on", 0)
        != 0;
    let wifi = fw.sys.settings.get_int(Namespace::Global, "wifi_on", 1) != 0;
    if airplane {
        push_icon(
            "airplane",
            &ui("accessibility_airplane_mode"),
            "airplanemode",
            icon,
        );
    } else {
        push_icon(
            "mobile_signal",
            &ui("accessibility_phone_four_bars"),
            "cell",
            icon,
        );
    }
    if wifi {
        push_icon(
            "wifi_signal",
            &ui("accessibility_wifi_signal_full"),
            "network",
            icon,
        );
    }
    let clock = View::new(
        class::TEXT_VIEW,
        Bounds::new(
            pad,
            top - m.dp(2.0),
            pad + m.dp(48.0),
            top + icon + m.dp(2.0),
        ),
    )
    .id(id("clock"))
    .text(text)
    .desc(desc);
    View::new(class::FRAME_LAYOUT, Bounds::new(0, 0, m.width, h))
        .id(id("status_bar"))
        .child(clock)
        .children(icons)
}

/// The newest heads-up notification as SystemUI draws it: app name, title, text and action
/// buttons on a card below the status bar.
fn heads_up(fw: &Framework) -> Option<View> {
    let n = fw.sys.notifications.iter().rev().find(|n| n.heads_up)?;
    let m = fw.sys.metrics;
    let id = |name: &str| format!("{SYSTEMUI}:id/{name}");
    let app = fw
        .app_info(&n.package)
        .map(|a| a.label(&fw.sys.locale))
        .unwrap_or(n.package.as_str());
    let pad = m.dp(16.0);
    let (left, right) = (m.dp(8.0), m.width - m.dp(8.0));
    let top = m.content.top + m.dp(4.0);
    let line = m.dp(24.0);
    let card = Bounds::new(left, top, right, top + m.dp(128.0));
    let tag = |action: &str| format!("{NOTIFICATION_PREFIX}{}|{action}", n.package);
    let row = |i: i32| {
        Bounds::new(
            left + pad,
            top + pad / 2 + i * line,
            right - pad,
            top + pad / 2 + (i + 1) * line,
        )
    };
    let text = |b: Bounds, s: &str, rid: &str, size: f32, bold: bool| {
        View::new(class::TEXT_VIEW, b).id(rid).text(s).style(Style {
            text_size_sp: Some(size),
            bold,
            text_role: Some(super::view::Role::Primary),
            ..Style::default()
        })
    };
    let mut body = View::new(class::FRAME_LAYOUT, card)
        .id(id("expanded"))
        .on_click(tag(""))
        .style(Style {
            background_role: Some(super::view::Role::SurfaceVariant),
            corner_radius: m.dp(24.0),
            ..Style::default()
        })
        .child(text(row(0), app, "android:id/app_name_text", 12.0, false))
        .child(text(row(1), &n.title, "android:id/title", 16.0, true))
        .child(text(row(2), &n.text, "android:id/text", 14.0, false));
    let actions_top = top + pad / 2 + 3 * line + m.dp(4.0);
    // The card's content is the posting app's notification template, framework layouts with
    // `android:id/…` ids, as in the shade.
    body = body.children(super::shade::action_buttons(
        n,
        left + pad,
        actions_top,
        &m,
        "android:id/action0",
        &tag,
    ));
    Some(
        View::new(class::FRAME_LAYOUT, card)
            .id(id("heads_up_status_bar_view"))
            .child(body),
    )
}

fn navigation_bar(fw: &Framework) -> View {
    let m = fw.sys.metrics;
    let b = Bounds::new(0, m.content.bottom, m.width, m.height);
    let id = |name: &str| format!("{SYSTEMUI}:id/{name}");
    let w = m.dp(80.0).min(m.width / 3);
    let centre = m.width / 2;
    let gap = m.width / 4;
    let ui = |name: &'static str| -> &'static str {
        super::locale::string(&fw.sys.locale, SYSTEMUI, name)
    };
    let button = |name: &str, desc: &str, tag: &str, icon: &'static str, cx: i32, long: bool| {
        let v = View::new(
            class::IMAGE_VIEW,
            Bounds::new(cx - w / 2, b.top, cx + w / 2, b.bottom),
        )
        .id(id(name))
        .desc(desc)
        .on_click(tag)
        .style(Style {
            icon: Some(icon),
            ..Style::default()
        });
        if long {
            v.long_clickable()
        } else {
            v
        }
    };
    View::new(class::FRAME_LAYOUT, b)
        .id(id("navigation_bar_frame"))
        .style(Style {
            background: Some(if fw.sys.dark_mode() {
                [0, 0, 0, 255]
            } else {
                [243, 243, 243, 255]
            }),
            ..Style::default()
        })
        .child(button(
            "back",
            ui("accessibility_back"),
            NAV_BACK,
            "back",
            centre - gap,
            true,
        ))
        .child(button(
            "home",
            ui("accessibility_home"),
            NAV_HOME,
            "home",
            centre,
            false,
        ))
        .child(button(
            "recent_apps",
            ui("accessibility_recent"),
            NAV_RECENTS,
            "recents",
            centre + gap,
            true,
        ))
}

fn overview(fw: &Framework) -> View {
    let m = fw.sys.metrics;
    let c = m.content;
    let id = |name: &str| format!("{}:id/{name}", apps::launcher::PACKAGE);
    let launcher = apps::launcher::PACKAGE;
    let recents: Vec<_> = fw.tasks().filter(|t| t.package != launcher).collect();
    let mut root = View::new(class::FRAME_LAYOUT, c)
        .id(id("overview_panel"))
        .style(Style {
            background: Some([48, 48, 48, 255]),
            ..Style::default()
        });
    if recents.is_empty() {
        let h = m.dp(40.0);
        let mid = c.top + c.height() / 2;
        return root.child(
            View::new(
                class::TEXT_VIEW,
                Bounds::new(c.left, mid - h / 2, c.right, mid + h / 2),
            )
            .text(super::locale::string(
                &fw.sys.locale,
                apps::launcher::PACKAGE,
                "recents_empty_message",
            ))
            .style(Style {
                center_text: true,
                text_color: Some([255, 255, 255, 255]),
                ..Style::default()
            }),
        );
    }
    let card_w = c.width() * 7 / 10;
    let gap = m.dp(16.0);
    let card_top = c.top + m.dp(72.0);
    let card_bottom = c.bottom - m.dp(96.0);
    let mut x = c.left + (c.width() - card_w) / 2;
    let mut cards = Vec::new();
    for task in recents {
        let label = fw
            .app_info(task.package)
            .map(|a| a.label(&fw.sys.locale))
            .unwrap_or(task.package);
        let icon_h = m.dp(40.0);
        cards.push(
            View::new(
                class::FRAME_LAYOUT,
                Bounds::new(x, card_top - icon_h, x + card_w, card_bottom),
            )
            .id(id("task"))
            .child(
                View::new(
                    class::TEXT_VIEW,
                    Bounds::new(x, card_top - icon_h, x + card_w, card_top),
                )
                .id(id("icon"))
                .text(label)
                .style(Style {
                    center_text: true,
                    text_color: Some([255, 255, 255, 255]),
                    ..Style::default()
                }),
            )
            .child(
                View::new(
                    class::FRAME_LAYOUT,
                    Bounds::new(x, card_top, x + card_w, card_bottom),
                )
                .id(id("snapshot"))
                .desc(label)
                .on_click(format!("{OVERVIEW_TASK_PREFIX}{}", task.id))
                .style(Style {
                    background: Some([250, 250, 250, 255]),
                    corner_radius: m.dp(16.0),
                    ..Style::default()
                }),
            ),
        );
        x += card_w + gap;
    }
    let panel = View::new(
        class::RECYCLER_VIEW,
        Bounds::new(c.left, card_top - m.dp(40.0), c.right, card_bottom),
    )
    .scrollable(OVERVIEW_SCROLL)
    .children(cards);
    let bw = m.dp(120.0);
    let clear = View::new(
        class::BUTTON,
        Bounds::new(
            c.left + (c.width() - bw) / 2,
            c.bottom - m.dp(72.0),
            c.left + (c.width() + bw) / 2,
            c.bottom - m.dp(24.0),
        ),
    )
    .id(id("clear_all"))
    .text(super::locale::string(
        &fw.sys.locale,
        apps::launcher::PACKAGE,
        "recents_clear_all",
    ))
    .on_click(OVERVIEW_CLEAR_ALL)
    .style(Style {
        background: Some([230, 230, 230, 255]),
        corner_radius: m.dp(24.0),
        center_text: true,
        ..Style::default()
    });
    root.children.push(panel);
    root.children.push(clear);
    root
}

//! Chrome's screens around the page: the toolbar (omnibox, New tab, the tab switcher button that
//! shows how many tabs are open, the app menu's button), the app menu, the tab switcher's grid and
//! the History page. Ids and descriptions are Chrome's own, as uiautomator shows them.

use chrono::{DateTime, Datelike};
use droidmcp_geom::Bounds;

use super::history::Entry;
use super::{display_url, BrowserTab, ID, PACKAGE};
use crate::apps::communication::{self, at, palette, text_style};
use crate::locale::{self, DateStyle};
use crate::render::{Drawing, Shape};
use crate::system::System;
use crate::view::{class, Role, Style, View};

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{ID}{name}")
}

/// The toolbar's height.
pub(super) fn bar_height(sys: &System) -> i32 {
    sys.metrics.dp(56.0)
}

/// What a tab is called in the switcher and the History page: its address as the omnibox shows
/// it, or "New tab".
pub(super) fn tab_title(sys: &System, tab: &BrowserTab) -> String {
    tab.url
        .as_deref()
        .map_or_else(|| tr(sys, "new_tab").to_string(), display_url)
}

/// The toolbar: the omnibox, then New tab, the tab switcher and the app menu's buttons.
pub(super) fn toolbar(sys: &System, omnibox_text: String, tabs: usize) -> View {
    let m = &sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = Bounds::new(c.left, c.top, c.right, c.top + bar_height(sys));
    let button = |slot: i32| {
        let size = m.dp(48.0);
        let left = bar.right - m.dp(4.0) - size * (slot + 1);
        Bounds::new(
            left,
            bar.top + m.dp(4.0),
            left + size,
            bar.top + m.dp(4.0) + size,
        )
    };
    let field = Bounds::new(
        c.left + m.dp(12.0),
        c.top + m.dp(8.0),
        button(2).left - m.dp(4.0),
        bar.bottom - m.dp(8.0),
    );
    let icon = |icon: &'static str| Style {
        icon: Some(icon),
        text_color: Some(p.on_surface),
        ..Style::default()
    };
    // The tab switcher button is a rounded square (the recents glyph) with the count painted in
    // it; its description says the count in words.
    let switcher = button(1);
    let center = switcher.center();
    let count = Drawing {
        shapes: vec![Shape::Label {
            center: (center.x as f32, center.y as f32),
            text: if tabs > 99 {
                ":D".into()
            } else {
                tabs.to_string()
            },
            size_px: m.sp(11.0) as f32,
            color: p.on_surface,
            halo: p.surface,
            bold: true,
        }],
    };
    View::new(class::FRAME_LAYOUT, bar)
        .id(id("toolbar"))
        .style(Style {
            background_role: Some(Role::Surface),
            ..Style::default()
        })
        .child(
            View::new(class::EDIT_TEXT, field)
                .id(id("url_bar"))
                .text(omnibox_text)
                .hint(tr(sys, "search_or_type_url"))
                .editable("url_bar")
                .style(Style {
                    text_size_sp: Some(16.0),
                    corner_radius: m.dp(20.0),
                    background_role: Some(Role::SurfaceVariant),
                    ..Style::default()
                }),
        )
        .child(
            View::new(class::IMAGE_BUTTON, button(2))
                .id(id("optional_toolbar_button"))
                .desc(tr(sys, "new_tab"))
                .on_click("new_tab")
                .style(icon("add")),
        )
        .child(
            View::new(class::IMAGE_BUTTON, switcher)
                .id(id("tab_switcher_button"))
                .desc(locale::plural(
                    &sys.locale,
                    PACKAGE,
                    "accessibility_toolbar_btn_tabswitcher_toggle",
                    tabs as i64,
                    &[&tabs],
                ))
                .on_click("tab_switcher")
                .style(Style {
                    drawing: Some(std::sync::Arc::new(count)),
                    ..icon("overview")
                }),
        )
        .child(
            View::new(class::IMAGE_BUTTON, button(0))
                .id(id("menu_button"))
                .desc(tr(sys, "more_options"))
                .on_click("menu")
                .style(icon("more_vert")),
        )
}

/// The app menu, dropped from the menu button: the items this Chrome does.
pub(super) fn menu(sys: &System) -> View {
    communication::overflow_menu(
        sys,
        &[
            ("menu_new_tab", tr(sys, "new_tab")),
            ("menu_history", tr(sys, "history")),
        ],
        240.0,
        &id("app_menu_list"),
        &id("menu_item_text"),
    )
}

/// The tab switcher: a bar with New tab, and the open tabs as a two-column grid of cards, each
/// with its title and a close button; the current tab's card is selected.
pub(super) fn switcher(sys: &System, tabs: &[BrowserTab], current: usize) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = Bounds::new(c.left, c.top, c.right, c.top + bar_height(sys));
    let new_tab = communication::toolbar_action(sys, bar, 0, tr(sys, "new_tab"), "add")
        .id(id("new_tab_view_button"))
        .on_click("new_tab");
    let grid = Bounds::new(c.left, bar.bottom, c.right, c.bottom);
    let gap = m.dp(12.0);
    let width = (grid.width() - gap * 3) / 2;
    let height = m.dp(220.0);
    let cards = tabs.iter().enumerate().map(|(i, tab)| {
        let title = tab_title(sys, tab);
        let card = at(
            grid,
            gap + (width + gap) * (i as i32 % 2),
            gap + (height + gap) * (i as i32 / 2),
            width,
            height,
        );
        let title_h = m.dp(40.0);
        View::new(class::FRAME_LAYOUT, card)
            .id(id("card_view"))
            .on_click(format!("tab:{i}"))
            .selected(i == current)
            .style(Style {
                background: Some(p.card),
                corner_radius: m.dp(12.0),
                border: (i == current).then_some((m.dp(2.0), p.accent)),
                ..Style::default()
            })
            .child(
                View::new(
                    class::TEXT_VIEW,
                    at(card, m.dp(12.0), m.dp(10.0), width - m.dp(56.0), m.dp(24.0)),
                )
                .id(id("tab_title"))
                .text(title.clone())
                .style(text_style(14.0, p.on_surface)),
            )
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    at(card, width - m.dp(44.0), m.dp(4.0), m.dp(40.0), m.dp(32.0)),
                )
                .id(id("action_button"))
                .desc(locale::format(&sys.locale, PACKAGE, "close_tab", &[&title]))
                .on_click(format!("close_tab:{i}"))
                .style(Style {
                    icon: Some("clear"),
                    text_color: Some(p.on_surface),
                    ..Style::default()
                }),
            )
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    Bounds::new(
                        card.left + m.dp(4.0),
                        card.top + title_h,
                        card.right - m.dp(4.0),
                        card.bottom - m.dp(4.0),
                    ),
                )
                .id(id("tab_thumbnail"))
                .style(Style {
                    background: Some(p.surface),
                    corner_radius: m.dp(8.0),
                    ..Style::default()
                }),
            )
    });
    communication::root(sys)
        .id(id("coordinator"))
        .child(
            View::new(class::FRAME_LAYOUT, bar)
                .id(id("toolbar"))
                .child(new_tab),
        )
        .child(
            View::new(class::RECYCLER_VIEW, grid)
                .id(id("tab_list_recycler_view"))
                .scrollable("tabs")
                .children(cards),
        )
}

/// HistoryActivity: each page once at its last visit, newest first, under a header per day
/// ("Today", else the date).
pub(super) fn history(sys: &System, entries: &[Entry]) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let toolbar = communication::toolbar(
        sys,
        c,
        PACKAGE,
        tr(sys, "history"),
        Some(("up", tr(sys, "navigate_up"))),
    );
    let list = Bounds::new(c.left, c.top + m.dp(64.0), c.right, c.bottom);
    let today = sys.clock.now().date();
    let mut rows = Vec::new();
    let mut top = 0;
    let mut day = None;
    for (i, e) in entries.iter().enumerate() {
        let date = DateTime::from_timestamp_millis(e.visited_ms).map(|t| t.date_naive());
        if date != day {
            day = date;
            let text = match date {
                Some(d) if d == today => tr(sys, "today").to_string(),
                Some(d) if d.year() == today.year() => {
                    locale::format_date(d, &sys.locale, DateStyle::MonthDayWeekday)
                }
                Some(d) => locale::format_date(d, &sys.locale, DateStyle::Medium),
                None => String::new(),
            };
            rows.push(
                View::new(
                    class::TEXT_VIEW,
                    at(
                        list,
                        m.dp(16.0),
                        top + m.dp(12.0),
                        list.width() - m.dp(32.0),
                        m.dp(24.0),
                    ),
                )
                .text(text)
                .style(text_style(14.0, p.secondary_text)),
            );
            top += m.dp(48.0);
        }
        let row = at(list, 0, top, list.width(), m.dp(64.0));
        let title = if e.title.is_empty() {
            display_url(&e.url)
        } else {
            e.title.clone()
        };
        // The title over the host, both after the icon.
        let line = |top_dp: f32, height_dp: f32| {
            let place = at(
                row,
                m.dp(64.0),
                m.dp(top_dp),
                row.width() - m.dp(80.0),
                m.dp(height_dp),
            );
            View::new(class::TEXT_VIEW, place)
        };
        rows.push(
            View::new(class::LINEAR_LAYOUT, row)
                .id(id("list_item"))
                .on_click(format!("visit:{i}"))
                .child(
                    communication::leading_icon(sys, row, 32.0, "globe", p.secondary_text)
                        .id(id("favicon")),
                )
                .child(
                    line(10.0, 24.0)
                        .id(id("title"))
                        .text(title)
                        .style(text_style(16.0, p.on_surface)),
                )
                .child(
                    line(34.0, 20.0)
                        .id(id("domain"))
                        .text(host(&e.url))
                        .style(text_style(14.0, p.secondary_text)),
                ),
        );
        top += m.dp(64.0);
    }
    if entries.is_empty() {
        rows.push(
            communication::centered_text(
                list,
                m.dp(48.0),
                m.dp(24.0),
                tr(sys, "no_history"),
                text_style(16.0, p.secondary_text),
            )
            .id(id("empty_view")),
        );
    }
    communication::root(sys)
        .id(id("history_page"))
        .child(toolbar)
        .child(
            View::new(class::RECYCLER_VIEW, list)
                .id(id("recycler_view"))
                .scrollable("history")
                .children(rows),
        )
}

/// What the History page shows under a title: the address's host, or the file for a local page.
fn host(url: &str) -> String {
    let shown = display_url(url);
    match url.split_once("://") {
        Some(("http" | "https", rest)) => rest.split(['/', '?', '#']).next().unwrap_or(rest).into(),
        _ => shown,
    }
}

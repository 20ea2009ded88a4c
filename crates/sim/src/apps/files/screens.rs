//! DocumentsUI's screens: FilesActivity's directory (`fragment_directory.xml`, the breadcrumb
//! `horizontal_breadcrumb`, list items `item_doc_list.xml` with title, date and size), its
//! selection action mode (`action_mode_menu.xml`), the Delete and Rename dialogs,
//! PickActivity for "Move to…" with its Cancel and Move buttons, and the navigation drawer of
//! roots (`fragment_roots.xml`, `item_root.xml`).

use chrono::Timelike;

use super::{id, root_title, sorted, tr, Dialog, Files, Picker, Root, PACKAGE, ROOT, ROOTS};
use crate::apps::communication::{self, at, palette, text_style};
use crate::apps::storage::{self, Entry};
use crate::apps::widgets::{
    button, columns, dialog_card, dialog_frame, format_time, inset, label, with_card_children, Rows,
};
use crate::locale::{self, DateStyle};
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// The folders from a root's `base` (titled `title`) down to `dir`, each with its title.
fn crumbs(base: &str, title: String, dir: &str) -> Vec<(String, String)> {
    let mut out = vec![(base.to_string(), title)];
    let rest = dir.strip_prefix(base).unwrap_or("");
    let mut path = base.to_string();
    for part in rest.split('/').filter(|p| !p.is_empty()) {
        path = storage::join(&path, part);
        out.push((path.clone(), part.to_string()));
    }
    out
}

/// The breadcrumb: each folder from the root, tappable, separated by chevrons.
fn breadcrumb(sys: &System, area: Bounds, all: &[(String, String)]) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let mut x = area.left + m.dp(16.0);
    let mut bar = View::new(class::HORIZONTAL_SCROLL_VIEW, area).id(id("horizontal_breadcrumb"));
    for (i, (path, title)) in all.iter().enumerate() {
        let w = m.sp(9.0) * title.chars().count() as i32 + m.dp(16.0);
        let last = i + 1 == all.len();
        bar = bar.child(
            View::new(
                class::TEXT_VIEW,
                Bounds::new(x, area.top, x + w, area.bottom),
            )
            .id(id("breadcrumb_text"))
            .text(title.clone())
            .on_click(format!("crumb:{path}"))
            .style(Style {
                bold: last,
                ..text_style(14.0, if last { p.accent } else { p.secondary_text })
            }),
        );
        x += w + m.dp(8.0);
    }
    bar
}

/// A list item's second line: the date and time of the last change, and a file's size.
fn details(sys: &System, e: &Entry) -> (String, String) {
    let date = format!(
        "{} {}",
        locale::format_date(e.modified.date(), &sys.locale, DateStyle::Medium),
        format_time(sys, e.modified.hour(), e.modified.minute())
    );
    let size = if e.is_dir {
        String::new()
    } else if e.size < 1000 {
        format!("{} B", e.size)
    } else {
        format!("{:.2} kB", e.size as f64 / 1000.0)
    };
    (date, size)
}

/// `item_doc_list.xml`: icon, name, date and size.
fn item(sys: &System, b: Bounds, e: &Entry, selected: bool) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let (date, size) = details(sys, e);
    let text_left = m.dp(72.0);
    let width = b.width() - text_left - m.dp(16.0);
    let icon = match (selected, e.is_dir) {
        (true, _) => "check",
        (false, true) => "folder",
        (false, false) => "file",
    };
    let mut row = View::new(class::LINEAR_LAYOUT, b)
        .id(id("item_root"))
        .on_click(format!("doc:{}", e.path))
        .long_clickable()
        .selected(selected)
        .style(Style {
            background: selected.then_some(p.card),
            ..Style::default()
        })
        .child(
            communication::leading_icon(sys, b, 40.0, icon, p.secondary_text).id(id("icon_mime")),
        )
        .child(
            View::new(
                class::TEXT_VIEW,
                at(b, text_left, m.dp(10.0), width, m.sp(24.0)),
            )
            .id("android:id/title")
            .text(e.name.clone())
            .style(text_style(16.0, p.on_surface)),
        )
        .child(
            View::new(
                class::TEXT_VIEW,
                at(b, text_left, m.dp(10.0) + m.sp(24.0), width / 2, m.sp(20.0)),
            )
            .id(id("date"))
            .text(date)
            .style(text_style(13.0, p.secondary_text)),
        );
    if !size.is_empty() {
        row = row.child(
            View::new(
                class::TEXT_VIEW,
                at(
                    b,
                    text_left + width / 2,
                    m.dp(10.0) + m.sp(24.0),
                    width / 2,
                    m.sp(20.0),
                ),
            )
            .id(id("size"))
            .text(size)
            .style(text_style(13.0, p.secondary_text)),
        );
    }
    row
}

/// The directory list of `entries` in `area` (`dir_list`), or "No items".
fn directory(
    sys: &System,
    area: Bounds,
    entries: &[Entry],
    selected: &dyn Fn(&Entry) -> bool,
) -> View {
    let m = sys.metrics;
    if entries.is_empty() {
        return communication::centered_text(
            area,
            m.dp(96.0),
            m.sp(28.0),
            tr(sys, "empty"),
            text_style(16.0, palette(sys).secondary_text),
        )
        .id(id("message"));
    }
    let row_height = m.dp(72.0);
    View::new(class::RECYCLER_VIEW, area)
        .id(id("dir_list"))
        .scrollable("dir_list")
        .children(entries.iter().enumerate().map(|(i, e)| {
            let b = communication::row_bounds(area, area.top, row_height, i);
            item(sys, b, e, selected(e))
        }))
}

pub(super) fn render_browser(sys: &System, app: &Files) -> View {
    let m = sys.metrics;
    let c = m.content;
    let bar_bounds = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let action = |slot, desc: &str, icon, tag: &str, id_name: &str| {
        communication::toolbar_action(sys, bar_bounds, slot, desc, icon)
            .id(id(id_name))
            .on_click(tag)
    };
    let trail = app
        .base()
        .map(|base| crumbs(base, app.root.title(sys), &app.dir));
    let bar = if app.selected.is_empty() {
        let title = match &trail {
            Some(trail) => trail.last().map(|(_, t)| t.clone()).unwrap_or_default(),
            None => app.root.title(sys),
        };
        // At a root's top the navigation button opens the drawer ("Show roots").
        let nav = if app.at_top() {
            ("show_roots", tr(sys, "show_roots"), "menu")
        } else {
            ("up", tr(sys, "navigate_up"), "back")
        };
        communication::toolbar_with_nav(sys, c, PACKAGE, &title, Some(nav))
    } else {
        let count = locale::format(
            &sys.locale,
            PACKAGE,
            "elements_selected",
            &[&app.selected.len()],
        );
        let mut bar = communication::toolbar(
            sys,
            c,
            PACKAGE,
            &count,
            Some(("sel_close", tr(sys, "close"))),
        )
        .child(action(
            3,
            tr(sys, "menu_delete"),
            "delete",
            "sel_delete",
            "action_menu_delete",
        ))
        .child(action(
            2,
            tr(sys, "menu_move"),
            "move",
            "sel_move",
            "action_menu_move_to",
        ))
        .child(action(
            0,
            tr(sys, "menu_select_all"),
            "select_all",
            "sel_all",
            "action_menu_select_all",
        ));
        if app.selected.len() == 1 {
            bar = bar.child(action(
                1,
                tr(sys, "menu_rename"),
                "edit",
                "sel_rename",
                "action_menu_rename",
            ));
        }
        bar
    };
    let crumb_h = if trail.is_some() { m.dp(48.0) } else { 0 };
    let crumb_area = Bounds::new(
        c.left,
        bar_bounds.bottom,
        c.right,
        bar_bounds.bottom + crumb_h,
    );
    let list_area = Bounds::new(c.left, crumb_area.bottom, c.right, c.bottom);
    let entries = app.listing(sys);
    let mut screen = communication::root(sys).id(id("drawer_layout")).child(bar);
    if let Some(trail) = &trail {
        screen = screen.child(breadcrumb(sys, crumb_area, trail));
    }
    screen.child(directory(sys, list_area, &entries, &|e: &Entry| {
        app.selected.contains(&e.path)
    }))
}

/// The navigation drawer: the roots, the current one highlighted, and a scrim that closes it.
/// The list behind is left out: DrawerLayout hides its content from accessibility while a drawer
/// is open, so uiautomator shows only the drawer.
pub(super) fn drawer(sys: &System, current: Root) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let width = (c.width() * 85 / 100).min(m.dp(320.0));
    let panel = Bounds::new(c.left, c.top, c.left + width, c.bottom);
    let scrim = View::new(class::VIEW, c)
        .on_click("drawer_scrim")
        .style(Style {
            background: Some([0, 0, 0, 110]),
            ..Style::default()
        });
    let row_h = m.dp(56.0);
    let title_h = m.dp(64.0);
    let list = Bounds::new(panel.left, panel.top + title_h, panel.right, panel.bottom);
    let rows = ROOTS.iter().enumerate().map(|(i, &root)| {
        let b = communication::row_bounds(list, list.top, row_h, i);
        let picked = root == current;
        View::new(class::LINEAR_LAYOUT, b)
            .id(id("item_root"))
            .on_click(root.tag())
            .selected(picked)
            .style(Style {
                background: picked.then_some(p.card),
                ..Style::default()
            })
            .child(
                communication::leading_icon(sys, b, 24.0, root.icon(), p.secondary_text)
                    .id("android:id/icon"),
            )
            .child(
                communication::row_label(
                    sys,
                    b,
                    72.0,
                    root.title(sys),
                    text_style(16.0, p.on_surface),
                )
                .id("android:id/title"),
            )
    });
    let drawer = View::new(class::LINEAR_LAYOUT, panel)
        .id(id("drawer_roots"))
        .style(Style {
            background: Some(p.surface),
            ..Style::default()
        })
        .child(
            View::new(
                class::TEXT_VIEW,
                at(
                    panel,
                    m.dp(16.0),
                    m.dp(20.0),
                    width - m.dp(32.0),
                    m.sp(28.0),
                ),
            )
            .text(tr(sys, "app_label"))
            .style(Style {
                bold: true,
                ..text_style(20.0, p.on_surface)
            }),
        )
        .child(
            View::new(class::LIST_VIEW, list)
                .id(id("roots_list"))
                .children(rows),
        );
    communication::root(sys).child(scrim).child(drawer)
}

/// PickActivity for "Move to…": the folder being browsed (its files greyed out, as a folder
/// picker shows them), Cancel and Move at the bottom.
pub(super) fn render_picker(sys: &System, picker: &Picker) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = communication::toolbar(
        sys,
        c,
        PACKAGE,
        tr(sys, "move_to"),
        Some(("pick_cancel", tr(sys, "cancel"))),
    );
    let crumb_area = Bounds::new(c.left, c.top + m.dp(64.0), c.right, c.top + m.dp(112.0));
    let buttons_area = Bounds::new(c.left, c.bottom - m.dp(64.0), c.right, c.bottom);
    let error_h = picker.error.as_ref().map_or(0, |_| m.sp(40.0));
    let list_area = Bounds::new(
        c.left,
        crumb_area.bottom,
        c.right,
        buttons_area.top - error_h,
    );
    let entries: Vec<Entry> = sorted(sys, &picker.dir)
        .into_iter()
        .filter(|e| !picker.paths.contains(&e.path))
        .collect();
    let mut list = directory(sys, list_area, &entries, &|_: &Entry| false);
    // Files cannot be picked as a destination.
    for (row, e) in list.children.iter_mut().zip(&entries) {
        row.flags.enabled = e.is_dir;
    }
    let cols = columns(inset(buttons_area, m.dp(8.0)), 4);
    let mut root = communication::root(sys)
        .id(id("drawer_layout"))
        .child(bar)
        .child(breadcrumb(
            sys,
            crumb_area,
            &crumbs(ROOT, root_title(sys), &picker.dir),
        ))
        .child(list);
    if let Some(error) = &picker.error {
        root = root.child(
            View::new(
                class::TEXT_VIEW,
                Bounds::new(
                    c.left + m.dp(16.0),
                    list_area.bottom,
                    c.right - m.dp(16.0),
                    buttons_area.top,
                ),
            )
            .id(id("error"))
            .text(error.clone())
            .style(text_style(14.0, [211, 47, 47, 255])),
        );
    }
    root.child(button(cols[2], tr(sys, "cancel"), "pick_cancel").id("android:id/button2"))
        .child(
            button(cols[3], tr(sys, "menu_move_here"), "pick_move")
                .id("android:id/button1")
                .style(Style {
                    center_text: true,
                    bold: true,
                    ..text_style(14.0, p.accent)
                }),
        )
}

pub(super) fn render_dialog(sys: &System, dialog: &Dialog) -> View {
    let m = &sys.metrics;
    let card = dialog_card(m, m.dp(240.0));
    let mut rows = Rows::new(inset(card, m.dp(24.0)));
    let mut children = Vec::new();
    let positive = match dialog {
        Dialog::Delete { paths } => {
            let text = match paths.as_slice() {
                [one] => locale::format(
                    &sys.locale,
                    PACKAGE,
                    "delete_filename_confirmation_message",
                    &[&storage::name_of(one)],
                ),
                many => locale::format(
                    &sys.locale,
                    PACKAGE,
                    "delete_items_confirmation_message",
                    &[&many.len()],
                ),
            };
            children.push(label(rows.take(m.sp(72.0)), text, 18.0).id("android:id/message"));
            "delete_ok"
        }
        Dialog::Rename { name, error, .. } => {
            children.push(
                label(rows.take(m.sp(32.0)), tr(sys, "rename"), 20.0).id("android:id/alertTitle"),
            );
            children.push(
                View::new(class::EDIT_TEXT, rows.take(m.dp(56.0)))
                    .id("android:id/text1")
                    .text(name.clone())
                    .editable("rename_name")
                    .style(text_style(18.0, palette(sys).on_surface)),
            );
            if let Some(error) = error {
                children.push(
                    View::new(class::TEXT_VIEW, rows.take(m.sp(40.0)))
                        .id(id("error"))
                        .text(error.clone())
                        .style(text_style(14.0, [211, 47, 47, 255])),
                );
            }
            "rename_ok"
        }
    };
    rows.take(m.dp(8.0));
    let cols = columns(rows.take(m.dp(48.0)), 4);
    children.push(button(cols[2], tr(sys, "cancel"), "dialog_cancel").id("android:id/button2"));
    children.push(button(cols[3], tr(sys, "ok"), positive).id("android:id/button1"));
    with_card_children(dialog_frame(m, card), children)
}

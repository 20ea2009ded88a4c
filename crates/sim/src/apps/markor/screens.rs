//! Markor's screens: the Files tab (`fragment__filesystem_viewer.xml`, each row
//! `opoc_filesystem_item.xml`: icon, name and a line with the date and size), its selection
//! action mode, DocumentActivity's editor (`document__fragment__edit.xml`) and the dialogs
//! ("Create new file" `new_file_dialog.xml`, Rename, Delete, "Select folder", "Sort by"), built
//! from the app's state and the folder on disk on every frame.

use chrono::Timelike;

use super::{id, tr, Dialog, Format, Markor, SortBy, NOTEBOOK, PACKAGE};
use crate::apps::communication::{self, at, filled, palette, text_style};
use crate::apps::storage::{self, Entry};
use crate::apps::widgets::{
    button, columns, dialog_card, dialog_frame, format_time, inset, label, with_card_children, Rows,
};
use crate::locale::{self, DateStyle};
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// Markor's default primary colour (`primary`, a dark blue-grey).
const PRIMARY: [u8; 4] = [69, 90, 100, 255];
/// Markor's accent (`accent`, amber), the "+" button's fill.
const ACCENT: [u8; 4] = [255, 179, 0, 255];

/// The toolbar title of a folder: its name ("Markor" for the notebook).
fn folder_title(dir: &str) -> &str {
    storage::name_of(dir)
}

/// A row's second line: the last change in the locale's date and time, and a file's size.
fn description(sys: &System, e: &Entry) -> String {
    let when = format!(
        "{} {}",
        locale::format_date(e.modified.date(), &sys.locale, DateStyle::Medium),
        format_time(sys, e.modified.hour(), e.modified.minute())
    );
    if e.is_dir {
        return when;
    }
    let size = if e.size < 1024 {
        format!("{} B", e.size)
    } else {
        format!("{:.1} KB", e.size as f64 / 1024.0)
    };
    format!("{when} · {size}")
}

pub(super) fn render_files(sys: &System, app: &Markor) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar_bounds = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let selecting = !app.selected.is_empty();
    let action = |slot, desc: &str, icon, tag: &str, id_name: &str| {
        communication::toolbar_action(sys, bar_bounds, slot, desc, icon)
            .id(id(id_name))
            .on_click(tag)
    };
    let bar = if selecting {
        let count = locale::format(
            &sys.locale,
            PACKAGE,
            "selected_count",
            &[&app.selected.len()],
        );
        let mut bar = communication::toolbar(
            sys,
            c,
            PACKAGE,
            &count,
            Some(("sel_close", tr(sys, "done"))),
        )
        .child(action(
            3,
            tr(sys, "delete"),
            "delete",
            "sel_delete",
            "action_delete_selected_items",
        ))
        .child(action(
            2,
            tr(sys, "move"),
            "move",
            "sel_move",
            "action_move_selected_items",
        ))
        .child(action(
            0,
            tr(sys, "select_all"),
            "select_all",
            "sel_all",
            "action_select_all",
        ));
        if app.selected.len() == 1 {
            bar = bar.child(action(
                1,
                tr(sys, "rename"),
                "edit",
                "sel_rename",
                "action_rename_selected_item",
            ));
        }
        bar
    } else {
        let up = (app.dir != NOTEBOOK).then(|| ("up", tr(sys, "navigate_up")));
        communication::toolbar(sys, c, PACKAGE, folder_title(&app.dir), up).child(action(
            0,
            tr(sys, "sort_by"),
            "sort",
            "sort",
            "action_sort",
        ))
    };
    let body = Bounds::new(c.left, bar_bounds.bottom, c.right, c.bottom);
    let row_height = m.dp(64.0);
    let mut rows: Vec<View> = Vec::new();
    if app.dir != NOTEBOOK {
        let b = communication::row_bounds(body, body.top, row_height, 0);
        rows.push(row(sys, b, "entry_up", "..", "", "folder", false));
    }
    let entries = app.entries(sys);
    for e in &entries {
        let b = communication::row_bounds(body, body.top, row_height, rows.len());
        let selected = app.selected.contains(&e.path);
        let icon = match (selected, e.is_dir) {
            (true, _) => "check",
            (false, true) => "folder",
            (false, false) => "file",
        };
        rows.push(row(
            sys,
            b,
            &format!("entry:{}", e.name),
            &e.name,
            &description(sys, e),
            icon,
            selected,
        ));
    }
    let mut root = communication::root(sys)
        .id(id("main__activity__root"))
        .child(bar);
    if entries.is_empty() {
        root = root.child(
            communication::centered_text(
                body,
                m.dp(96.0),
                m.sp(28.0),
                tr(sys, "empty_directory"),
                text_style(16.0, p.secondary_text),
            )
            .id(id("empty_hint")),
        );
    }
    root = root.child(
        View::new(class::RECYCLER_VIEW, body)
            .id(id("ui__filesystem_dialog__recycler_view"))
            .scrollable("files")
            .children(rows),
    );
    if selecting {
        return root;
    }
    let size = m.dp(56.0);
    let right = c.right - m.dp(16.0);
    let bottom = c.bottom - m.dp(16.0);
    root.child(
        View::new(
            class::IMAGE_BUTTON,
            Bounds::new(right - size, bottom - size, right, bottom),
        )
        .id(id("fab_add_new_item"))
        .desc(tr(sys, "create_new_file"))
        .on_click("new")
        .style(Style {
            icon: Some("add"),
            ..filled(ACCENT, [255, 255, 255, 255], size / 2)
        }),
    )
}

/// One row of the list: `opoc_filesystem_item.xml`.
fn row(
    sys: &System,
    b: Bounds,
    tag: &str,
    title: &str,
    subtitle: &str,
    icon: &'static str,
    selected: bool,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let text_left = m.dp(72.0);
    let width = b.width() - text_left - m.dp(16.0);
    let title_top = if subtitle.is_empty() {
        (b.height() - m.sp(24.0)) / 2
    } else {
        m.dp(10.0)
    };
    let mut view = View::new(class::LINEAR_LAYOUT, b)
        .id(id("ui__filesystem_item__root"))
        .on_click(tag)
        .long_clickable()
        .selected(selected)
        .style(Style {
            background: selected.then_some(p.card),
            ..Style::default()
        })
        .child(
            communication::leading_icon(sys, b, 40.0, icon, PRIMARY)
                .id(id("ui__filesystem_item__image")),
        )
        .child(
            View::new(
                class::TEXT_VIEW,
                at(b, text_left, title_top, width, m.sp(24.0)),
            )
            .id(id("ui__filesystem_item__title"))
            .text(title)
            .style(text_style(16.0, p.on_surface)),
        );
    if !subtitle.is_empty() {
        view = view.child(
            View::new(
                class::TEXT_VIEW,
                at(b, text_left, m.dp(10.0) + m.sp(24.0), width, m.sp(20.0)),
            )
            .id(id("ui__filesystem_item__description"))
            .text(subtitle)
            .style(text_style(13.0, p.secondary_text)),
        );
    }
    view
}

/// DocumentActivity: the note's name over the whole text, which is the file's, and the toolbar's
/// Save (`action_save`, always shown in 2.11.1's `document__edit__menu.xml`).
pub(super) fn render_editor(sys: &System, path: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar_bounds = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let bar = communication::toolbar(
        sys,
        c,
        PACKAGE,
        storage::name_of(path),
        Some(("up", tr(sys, "navigate_up"))),
    )
    .child(
        communication::toolbar_action(sys, bar_bounds, 0, tr(sys, "save"), "save")
            .id(id("action_save"))
            .on_click("save"),
    );
    let body = Bounds::new(c.left, c.top + m.dp(64.0), c.right, c.bottom);
    communication::root(sys)
        .id(id("document__activity__root"))
        .child(bar)
        .child(
            View::new(class::EDIT_TEXT, inset(body, m.dp(8.0)))
                .id(id("document__fragment__edit__highlighting_editor"))
                .text(storage::read_text(sys, path))
                .editable("editor")
                .style(text_style(16.0, p.on_surface)),
        )
}

/// A dialog's title at the top of its card.
fn title(rows: &mut Rows, sys: &System, text: &str) -> View {
    label(rows.take(sys.metrics.sp(32.0)), text, 20.0).id("android:id/alertTitle")
}

/// A one-line text field of a dialog.
fn field(rows: &mut Rows, sys: &System, id_name: &str, text: &str, tag: &str) -> View {
    let p = palette(sys);
    View::new(class::EDIT_TEXT, rows.take(sys.metrics.dp(56.0)))
        .id(id(id_name))
        .text(text)
        .hint(tr(sys, "name"))
        .editable(tag)
        .style(text_style(18.0, p.on_surface))
}

/// The error a change ran into, in red under the fields.
fn error_line(rows: &mut Rows, sys: &System, error: &Option<String>) -> Option<View> {
    let text = error.as_ref()?;
    Some(
        View::new(class::TEXT_VIEW, rows.take(sys.metrics.sp(40.0)))
            .id(id("dialog_error"))
            .text(text.clone())
            .style(text_style(14.0, [211, 47, 47, 255])),
    )
}

/// The button row: (text, tag, framework id) from left to right over the last columns.
fn buttons(rows: &mut Rows, sys: &System, items: &[(&str, &str, &str)]) -> Vec<View> {
    rows.take(sys.metrics.dp(8.0));
    let cols = columns(rows.take(sys.metrics.dp(48.0)), 4);
    let first = cols.len() - items.len();
    items
        .iter()
        .zip(&cols[first..])
        .map(|((text, tag, button_id), b)| button(*b, *text, *tag).id(*button_id))
        .collect()
}

/// A choice row of a dialog (RadioButton or CheckBox) that applies with a tap.
fn choice(
    rows: &mut Rows,
    sys: &System,
    kind: &'static str,
    text: &str,
    tag: &str,
    on: bool,
) -> View {
    View::new(kind, rows.take(sys.metrics.dp(48.0)))
        .text(text)
        .on_click(tag)
        .checked(on)
        .style(text_style(16.0, palette(sys).on_surface))
}

pub(super) fn render_dialog(sys: &System, app: &Markor, dialog: &Dialog) -> View {
    let m = &sys.metrics;
    let cancel = (tr(sys, "cancel"), "dialog_cancel", "android:id/button2");
    let ok = |tag| (tr(sys, "ok"), tag, "android:id/button1");
    let (card, children) = match dialog {
        Dialog::NewFile {
            name,
            extension,
            error,
        } => {
            let card = dialog_card(m, m.dp(420.0));
            let mut rows = Rows::new(inset(card, m.dp(24.0)));
            let mut v = vec![
                title(&mut rows, sys, tr(sys, "create_new_file")),
                field(&mut rows, sys, "new_file_dialog__name", name, "new_name"),
                label(rows.take(m.sp(28.0)), tr(sys, "type"), 14.0),
            ];
            for f in Format::ALL {
                v.push(
                    choice(
                        &mut rows,
                        sys,
                        class::RADIO_BUTTON,
                        &format!("{} ({})", tr(sys, f.label()), f.extension()),
                        &f.tag(),
                        f.extension() == extension.trim(),
                    )
                    .id(id("new_file_dialog__type")),
                );
            }
            v.push(
                View::new(class::EDIT_TEXT, rows.take(m.dp(48.0)))
                    .id(id("new_file_dialog__ext"))
                    .text(extension.clone())
                    .editable("new_ext")
                    .style(text_style(16.0, palette(sys).on_surface)),
            );
            v.extend(error_line(&mut rows, sys, error));
            v.extend(buttons(
                &mut rows,
                sys,
                &[
                    cancel,
                    (tr(sys, "folder"), "new_folder", "android:id/button3"),
                    ok("new_ok"),
                ],
            ));
            (card, v)
        }
        Dialog::Rename { name, error, .. } => {
            let card = dialog_card(m, m.dp(240.0));
            let mut rows = Rows::new(inset(card, m.dp(24.0)));
            let mut v = vec![
                title(&mut rows, sys, tr(sys, "rename")),
                field(&mut rows, sys, "new_name", name, "rename_name"),
            ];
            v.extend(error_line(&mut rows, sys, error));
            v.extend(buttons(&mut rows, sys, &[cancel, ok("rename_ok")]));
            (card, v)
        }
        Dialog::Delete { paths } => {
            let card = dialog_card(m, m.dp(240.0));
            let mut rows = Rows::new(inset(card, m.dp(24.0)));
            let names: Vec<&str> = paths.iter().map(|p| storage::name_of(p)).collect();
            let message = locale::format(
                &sys.locale,
                PACKAGE,
                "do_you_really_want_to_delete_this_witharg",
                &[&names.join(", ")],
            );
            let mut v = vec![
                title(&mut rows, sys, tr(sys, "delete")),
                label(rows.take(m.sp(72.0)), message, 16.0).id("android:id/message"),
            ];
            v.extend(buttons(&mut rows, sys, &[cancel, ok("delete_ok")]));
            (card, v)
        }
        Dialog::Move { paths, dir, error } => {
            let card = dialog_card(m, m.dp(560.0));
            let mut rows = Rows::new(inset(card, m.dp(24.0)));
            let mut v = vec![
                title(&mut rows, sys, tr(sys, "select_folder")),
                label(
                    rows.take(m.sp(24.0)),
                    dir.strip_prefix("/sdcard/Documents/").unwrap_or(dir),
                    14.0,
                )
                .id(id("ui__filesystem_dialog__current_folder")),
            ];
            let list_area = Bounds::new(
                rows.area.left,
                rows.y,
                rows.area.right,
                rows.area.bottom - m.dp(64.0) - error.as_ref().map_or(0, |_| m.sp(40.0)),
            );
            rows.y = list_area.bottom;
            let mut items = Vec::new();
            let row_height = m.dp(56.0);
            if dir != NOTEBOOK {
                let b = communication::row_bounds(list_area, list_area.top, row_height, 0);
                items.push(row(sys, b, "pick_up", "..", "", "folder", false));
            }
            for e in storage::list(sys, dir)
                .iter()
                .filter(|e| e.is_dir && !paths.contains(&e.path))
            {
                let b =
                    communication::row_bounds(list_area, list_area.top, row_height, items.len());
                items.push(row(
                    sys,
                    b,
                    &format!("pick:{}", e.name),
                    &e.name,
                    "",
                    "folder",
                    false,
                ));
            }
            v.push(
                View::new(class::RECYCLER_VIEW, list_area)
                    .id(id("ui__filesystem_dialog__recycler_view"))
                    .scrollable("move_folders")
                    .children(items),
            );
            v.extend(error_line(&mut rows, sys, error));
            v.extend(buttons(&mut rows, sys, &[cancel, ok("move_ok")]));
            (card, v)
        }
        Dialog::Sort => {
            let card = dialog_card(m, m.dp(280.0));
            let mut rows = Rows::new(inset(card, m.dp(24.0)));
            let v = vec![
                title(&mut rows, sys, tr(sys, "sort_by")),
                choice(
                    &mut rows,
                    sys,
                    class::RADIO_BUTTON,
                    tr(sys, "by_name"),
                    "sort:name",
                    app.sort == SortBy::Name,
                ),
                choice(
                    &mut rows,
                    sys,
                    class::RADIO_BUTTON,
                    tr(sys, "by_date"),
                    "sort:date",
                    app.sort == SortBy::Date,
                ),
                choice(
                    &mut rows,
                    sys,
                    class::CHECK_BOX,
                    tr(sys, "reverse_order"),
                    "sort:reverse",
                    app.reverse,
                ),
            ];
            (card, v)
        }
    };
    with_card_children(dialog_frame(m, card), children)
}

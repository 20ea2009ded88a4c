//! Simple Commons' FilePickerDialog in folder mode (`dialog_filepicker.xml`,
//! `item_filepicker_list.xml`, `item_breadcrumb.xml`), which the Simple Mobile Tools apps open to
//! choose where a file goes: Simple Gallery's "Copy to" / "Move to" behind "Other folder", Simple
//! Draw's save folder. Breadcrumbs from "Internal" down to the folder shown, its subfolders by
//! name (a tap opens one), and OK, which picks the folder shown.
//!
//! The folders are the phone's ([`storage`]); the picker holds only where it is. Its strings are
//! the Simple Commons ones each app ships, so the calling app's package names them.

use crate::app::UiEvent;
use crate::apps::communication::{at, palette, text_style};
use crate::apps::storage;
use crate::apps::widgets::{
    button, columns, dialog_frame, inset, with_card_children, DialogResult, Rows,
};
use crate::locale;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// Shared storage's root, which the first breadcrumb ("Internal") stands for.
pub const ROOT: &str = "/sdcard";

/// Where the picker is.
#[derive(Debug, Clone, PartialEq)]
pub struct FolderPicker {
    pub dir: String,
}

impl FolderPicker {
    /// A picker opened at `dir` (the root when `dir` is not a folder on the phone).
    pub fn new(sys: &System, dir: &str) -> FolderPicker {
        let dir = if dir.starts_with(ROOT) && storage::is_dir(sys, dir) {
            dir.to_string()
        } else {
            ROOT.to_string()
        };
        FolderPicker { dir }
    }

    /// Reacts to an event: `Ok` with the folder shown when OK is tapped, `Cancel` on Cancel or on
    /// Back at the root (Back elsewhere goes up a folder, as the dialog's key listener does).
    pub fn handle(&mut self, event: &UiEvent, sys: &System) -> Option<DialogResult<String>> {
        let result = match event {
            UiEvent::Back if self.dir != ROOT => {
                self.dir = storage::parent_of(&self.dir).to_string();
                DialogResult::Pending
            }
            UiEvent::Back => DialogResult::Cancel,
            UiEvent::Click(tag) if tag == "picker_cancel" => DialogResult::Cancel,
            UiEvent::Click(tag) if tag == "picker_ok" => DialogResult::Ok(self.dir.clone()),
            UiEvent::Click(tag) => {
                if let Some(path) = tag.strip_prefix("crumb:") {
                    self.dir = path.to_string();
                } else if let Some(name) = tag.strip_prefix("picker_dir:") {
                    let path = storage::join(&self.dir, name);
                    if storage::is_dir(sys, &path) {
                        self.dir = path;
                    }
                } else {
                    return None;
                }
                DialogResult::Pending
            }
            _ => return None,
        };
        Some(result)
    }

    /// The dialog over the calling app's screen; `package` names the strings and ids.
    pub fn render(&self, sys: &System, package: &'static str) -> View {
        let m = sys.metrics;
        let p = palette(sys);
        let tr = |name| locale::string(&sys.locale, package, name);
        let rid = |name: &str| format!("{package}:id/{name}");
        let card = inset(m.content, m.dp(24.0));
        let frame = dialog_frame(&m, card);
        let mut rows = Rows::new(inset(card, m.dp(24.0)));
        let mut children = vec![View::new(class::TEXT_VIEW, rows.take(m.sp(36.0)))
            .id("android:id/alertTitle")
            .text(tr("select_folder"))
            .style(text_style(20.0, p.on_surface))];
        // Breadcrumbs: "Internal" then each folder below the root, each a tap away.
        let crumb_row = rows.take(m.dp(40.0));
        let mut crumbs = vec![(tr("internal").to_string(), ROOT.to_string())];
        let mut path = ROOT.to_string();
        for part in self
            .dir
            .trim_start_matches(ROOT)
            .split('/')
            .filter(|s| !s.is_empty())
        {
            path = storage::join(&path, part);
            crumbs.push((part.to_string(), path.clone()));
        }
        let mut x = 0;
        let mut crumb_views = Vec::new();
        for (i, (name, path)) in crumbs.iter().enumerate() {
            let text = if i == 0 {
                name.clone()
            } else {
                format!("> {name}")
            };
            let width = m.sp(9.0) * text.chars().count() as i32 + m.dp(8.0);
            crumb_views.push(
                View::new(
                    class::TEXT_VIEW,
                    at(crumb_row, x, 0, width, crumb_row.height()),
                )
                .id(rid("breadcrumb_text"))
                .text(text)
                .on_click(format!("crumb:{path}"))
                .style(Style {
                    text_color: Some(if i + 1 == crumbs.len() {
                        p.accent
                    } else {
                        p.secondary_text
                    }),
                    text_size_sp: Some(15.0),
                    ..Style::default()
                }),
            );
            x += width;
        }
        children.push(
            View::new(class::LINEAR_LAYOUT, crumb_row)
                .id(rid("filepicker_breadcrumbs"))
                .children(crumb_views),
        );
        let list_area = rows.rest();
        let list_area = Bounds::new(
            list_area.left,
            list_area.top,
            list_area.right,
            list_area.bottom - m.dp(56.0),
        );
        let row_h = m.dp(64.0);
        let folders: Vec<storage::Entry> = storage::list(sys, &self.dir)
            .into_iter()
            .filter(|e| e.is_dir)
            .collect();
        let items = folders.iter().enumerate().map(|(i, e)| {
            let b = at(list_area, 0, i as i32 * row_h, list_area.width(), row_h);
            let count = storage::list(sys, &e.path).len();
            View::new(class::RELATIVE_LAYOUT, b)
                .id(rid("list_item_holder"))
                .on_click(format!("picker_dir:{}", e.name))
                .child(
                    View::new(
                        class::IMAGE_VIEW,
                        at(b, 0, m.dp(12.0), m.dp(40.0), m.dp(40.0)),
                    )
                    .id(rid("list_item_icon"))
                    .style(Style {
                        icon: Some("folder"),
                        text_color: Some(p.accent),
                        ..Style::default()
                    }),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(b, m.dp(56.0), m.dp(8.0), b.width() - m.dp(56.0), m.sp(26.0)),
                    )
                    .id(rid("list_item_name"))
                    .text(e.name.clone())
                    .style(text_style(16.0, p.on_surface)),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(
                            b,
                            m.dp(56.0),
                            m.dp(8.0) + m.sp(26.0),
                            b.width() - m.dp(56.0),
                            m.sp(20.0),
                        ),
                    )
                    .id(rid("list_item_details"))
                    .text(locale::format(
                        &sys.locale,
                        package,
                        "items_count",
                        &[&count],
                    ))
                    .style(text_style(13.0, p.secondary_text)),
                )
        });
        children.push(
            View::new(class::RECYCLER_VIEW, list_area)
                .id(rid("filepicker_list"))
                .scrollable("picker_list")
                .children(items),
        );
        let bar = Bounds::new(
            list_area.left,
            list_area.bottom + m.dp(8.0),
            list_area.right,
            list_area.bottom + m.dp(56.0),
        );
        let cols = columns(bar, 4);
        children.push(button(cols[2], tr("cancel"), "picker_cancel").id("android:id/button2"));
        children.push(button(cols[3], tr("ok"), "picker_ok").id("android:id/button1"));
        with_card_children(frame, children)
    }
}

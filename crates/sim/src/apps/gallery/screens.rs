//! Simple Gallery Pro's screens: MainActivity (`activity_main.xml`, `directory_item_grid_square.xml`),
//! MediaActivity (`activity_media.xml`, `photo_item_grid.xml`), ViewPagerActivity
//! (`activity_medium.xml`, `menu_viewpager.xml`'s overflow) and PickDirectoryDialog
//! (`dialog_directory_picker.xml`), built from MediaStore and the files on every frame.

use super::{id, tr, PACKAGE};
use crate::apps::communication::{self, at, palette, text_style};
use crate::apps::pictures::{self, Folder};
use crate::apps::storage;
use crate::apps::widgets::{
    button, columns, dialog_card, dialog_frame, inset, with_card_children, Rows,
};
use crate::locale;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// The folder grid's and the media grid's columns (`dir_column_cnt`, `media_column_cnt`).
const FOLDER_COLUMNS: i32 = 2;
const MEDIA_COLUMNS: i32 = 3;
/// The longest side thumbnails are decoded at, and the viewer's.
const THUMB_PX: u32 = 384;
const FULL_PX: u32 = 2048;

fn toolbar(sys: &System, title: &str, up: bool, actions: Vec<View>) -> View {
    let up = up.then(|| ("up", tr(sys, "navigate_up")));
    communication::toolbar(sys, sys.metrics.content, PACKAGE, title, up).children(actions)
}

/// The body under the 64dp toolbar.
fn body(sys: &System) -> Bounds {
    let c = sys.metrics.content;
    Bounds::new(c.left, c.top + sys.metrics.dp(64.0), c.right, c.bottom)
}

/// A square thumbnail of the image at `path` filling `b`, on a grey ground while it has none.
fn thumbnail(sys: &System, b: Bounds, path: &str, view_id: &str) -> View {
    View::new(class::IMAGE_VIEW, b)
        .id(id(view_id))
        .style(Style {
            background: Some([224, 224, 224, 255]),
            picture: pictures::load(sys, path, THUMB_PX),
            ..Style::default()
        })
}

/// A caption over the bottom of a thumbnail, white on a dark band as the grid draws names.
fn caption(sys: &System, cell: Bounds, lines: &[(&str, String)]) -> Vec<View> {
    let m = sys.metrics;
    let line_h = m.sp(22.0);
    let band_h = line_h * lines.len() as i32 + m.dp(8.0);
    let band = Bounds::new(cell.left, cell.bottom - band_h, cell.right, cell.bottom);
    let mut views = vec![View::new(class::VIEW, band).style(Style {
        background: Some([0, 0, 0, 128]),
        ..Style::default()
    })];
    for (i, (view_id, text)) in lines.iter().enumerate() {
        views.push(
            View::new(
                class::TEXT_VIEW,
                at(
                    band,
                    m.dp(8.0),
                    m.dp(4.0) + line_h * i as i32,
                    band.width() - m.dp(16.0),
                    line_h,
                ),
            )
            .id(id(view_id))
            .text(text.clone())
            .style(text_style(14.0, [255, 255, 255, 255])),
        );
    }
    views
}

/// MainActivity: the folders with images, two to a row.
pub(super) fn folders(sys: &System) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let area = body(sys);
    let folders = pictures::folders(sys);
    let side = area.width() / FOLDER_COLUMNS;
    let cells = folders
        .iter()
        .enumerate()
        .map(|(i, f)| folder_cell(sys, grid_cell(area, side, FOLDER_COLUMNS, i), f));
    let mut root = communication::root(sys)
        .id(id("directories_holder"))
        .child(toolbar(
            sys,
            tr(sys, "app_launcher_name"),
            false,
            Vec::new(),
        ));
    if folders.is_empty() {
        root = root.child(
            communication::centered_text(
                area,
                m.dp(96.0),
                m.sp(28.0),
                tr(sys, "no_media_with_filters"),
                text_style(16.0, p.secondary_text),
            )
            .id(id("directories_empty_placeholder")),
        );
    }
    root.child(
        View::new(class::RECYCLER_VIEW, area)
            .id(id("directories_grid"))
            .scrollable("folders")
            .children(cells),
    )
}

/// The `index`th square cell of a grid of `cols` columns of `side` px.
fn grid_cell(area: Bounds, side: i32, cols: i32, index: usize) -> Bounds {
    let (row, col) = (index as i32 / cols, index as i32 % cols);
    at(area, col * side, row * side, side, side)
}

fn folder_cell(sys: &System, cell: Bounds, f: &Folder) -> View {
    let m = sys.metrics;
    let inner = inset(cell, m.dp(1.0));
    let newest = f.images.first().cloned().unwrap_or_default();
    View::new(class::RELATIVE_LAYOUT, inner)
        .id(id("dir_holder"))
        .on_click(format!("dir:{}", f.path))
        .child(thumbnail(sys, inner, &newest, "dir_thumbnail"))
        .children(caption(
            sys,
            inner,
            &[
                ("dir_name", f.name.clone()),
                ("photo_cnt", f.images.len().to_string()),
            ],
        ))
}

/// MediaActivity: one folder's images, three to a row, each with its name.
pub(super) fn folder(sys: &System, dir: &str) -> View {
    let area = body(sys);
    let side = area.width() / MEDIA_COLUMNS;
    let images = pictures::images_in(sys, dir);
    let cells = images.iter().enumerate().map(|(i, path)| {
        let cell = inset(grid_cell(area, side, MEDIA_COLUMNS, i), sys.metrics.dp(1.0));
        let name = storage::name_of(path);
        View::new(class::RELATIVE_LAYOUT, cell)
            .id(id("media_item_holder"))
            .on_click(format!("medium:{name}"))
            .long_clickable()
            .child(thumbnail(sys, cell, path, "medium_thumbnail"))
            .children(caption(sys, cell, &[("medium_name", name.to_string())]))
    });
    communication::root(sys)
        .id(id("media_holder"))
        .child(toolbar(sys, storage::name_of(dir), true, Vec::new()))
        .child(
            View::new(class::RECYCLER_VIEW, area)
                .id(id("media_grid"))
                .scrollable("media")
                .children(cells),
        )
}

/// ViewPagerActivity: the image over the whole screen on black, under a toolbar naming it.
pub(super) fn viewer(sys: &System, path: &str) -> View {
    let m = sys.metrics;
    let c = m.content;
    let more = communication::toolbar_action(
        sys,
        Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0)),
        0,
        tr(sys, "more_options"),
        "more",
    )
    .on_click("more");
    let bar = toolbar(sys, storage::name_of(path), true, vec![more]).style(Style {
        background: Some([255, 255, 255, 255]),
        ..Style::default()
    });
    View::new(class::FRAME_LAYOUT, c)
        .id(id("view_pager_holder"))
        .style(Style {
            background: Some([0, 0, 0, 255]),
            ..Style::default()
        })
        .child(
            View::new(class::IMAGE_VIEW, body(sys))
                .id(id("gestures_view"))
                .desc(storage::name_of(path))
                .style(Style {
                    picture: pictures::load(sys, path, FULL_PX),
                    ..Style::default()
                }),
        )
        .child(bar)
}

/// The viewer's overflow menu, under the toolbar's right edge.
pub(super) fn menu(sys: &System) -> View {
    communication::overflow_menu(
        sys,
        &[
            ("menu_copy_to", tr(sys, "copy_to")),
            ("menu_move_to", tr(sys, "move_to")),
        ],
        200.0,
        "",
        "android:id/title",
    )
}

/// PickDirectoryDialog: the gallery's folders but the image's own, a tap picks one; "Other
/// folder" opens the folder picker.
pub(super) fn pick_directory(sys: &System, current: Option<&str>) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let folders: Vec<Folder> = pictures::folders(sys)
        .into_iter()
        .filter(|f| Some(f.path.as_str()) != current)
        .collect();
    let card = dialog_card(&m, m.dp(520.0));
    let mut rows = Rows::new(inset(card, m.dp(24.0)));
    let mut children = vec![View::new(class::TEXT_VIEW, rows.take(m.sp(36.0)))
        .id("android:id/alertTitle")
        .text(tr(sys, "select_destination"))
        .style(text_style(20.0, p.on_surface))];
    let rest = rows.rest();
    let grid = Bounds::new(rest.left, rest.top, rest.right, rest.bottom - m.dp(56.0));
    let side = grid.width() / 3;
    let cells = folders.iter().enumerate().map(|(i, f)| {
        let cell = inset(grid_cell(grid, side, 3, i), m.dp(2.0));
        View::new(class::RELATIVE_LAYOUT, cell)
            .id(id("dir_holder"))
            .on_click(format!("pick_dir:{}", f.path))
            .child(thumbnail(
                sys,
                cell,
                f.images.first().map(String::as_str).unwrap_or(""),
                "dir_thumbnail",
            ))
            .children(caption(sys, cell, &[("dir_name", f.name.clone())]))
    });
    if folders.is_empty() {
        children.push(
            View::new(
                class::TEXT_VIEW,
                at(grid, 0, m.dp(16.0), grid.width(), m.sp(48.0)),
            )
            .id(id("directories_empty_placeholder"))
            .text(locale::string(
                &sys.locale,
                PACKAGE,
                "no_media_with_filters",
            ))
            .style(text_style(15.0, p.secondary_text)),
        );
    }
    children.push(
        View::new(class::RECYCLER_VIEW, grid)
            .id(id("directories_grid"))
            .scrollable("pick_folders")
            .children(cells),
    );
    let bar = Bounds::new(
        grid.left,
        grid.bottom + m.dp(8.0),
        grid.right,
        grid.bottom + m.dp(56.0),
    );
    let cols = columns(bar, 3);
    children.push(button(cols[0], tr(sys, "other_folder"), "pick_other").id("android:id/button3"));
    children.push(button(cols[2], tr(sys, "cancel"), "pick_cancel").id("android:id/button2"));
    with_card_children(dialog_frame(&m, card), children)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_cells_run_left_to_right_then_down() {
        let area = Bounds::new(0, 100, 300, 1000);
        assert_eq!(grid_cell(area, 100, 3, 0), Bounds::new(0, 100, 100, 200));
        assert_eq!(grid_cell(area, 100, 3, 2), Bounds::new(200, 100, 300, 200));
        assert_eq!(grid_cell(area, 100, 3, 4), Bounds::new(100, 200, 200, 300));
    }
}

//! Joplin's screens in the phone's style: the notes list under its toolbar (menu, the notebook's
//! name, search), the search screen (a field, the notes found), the sidebar over it (All notes, then the notebooks), and a note's own screen
//! (its notebook in the toolbar, the title with a to-do's checkbox, the body line by line).

use super::store::{Folder, Note};
use super::{rid, tr, PACKAGE};
use crate::apps::communication::{self, at, palette, text_style};
use crate::apps::widgets::Rows;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// Joplin's blue (the checkbox, the selected notebook) and its dark sidebar.
const BLUE: [u8; 4] = [16, 113, 211, 255];
const SIDEBAR: [u8; 4] = [49, 54, 64, 255];
const SIDEBAR_TEXT: [u8; 4] = [224, 226, 230, 255];
const SIDEBAR_PICKED: [u8; 4] = [69, 78, 94, 255];

/// Characters a 16sp line holds across the screen, for a wrapped paragraph's height.
const CHARS_PER_LINE: usize = 38;

fn bar(sys: &System) -> Bounds {
    let c = sys.metrics.content;
    Bounds::new(c.left, c.top, c.right, c.top + sys.metrics.dp(64.0))
}

/// The notes list: a to-do's checkbox (ticked when done) before its title, a note's title alone.
pub(super) fn notes(sys: &System, title: &str, notes: &[&Note], no_folders: bool) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let top = bar(sys);
    let toolbar = communication::toolbar(sys, c, PACKAGE, "", None)
        .child(
            View::new(
                class::IMAGE_BUTTON,
                at(top, m.dp(4.0), m.dp(8.0), m.dp(48.0), m.dp(48.0)),
            )
            .id(rid("sidebar_button"))
            .desc(tr(sys, "sidebar"))
            .on_click("sidebar")
            .style(Style {
                icon: Some("menu"),
                text_color: Some(p.on_surface),
                ..Style::default()
            }),
        )
        .child(
            View::new(
                class::TEXT_VIEW,
                at(
                    top,
                    m.dp(64.0),
                    m.dp(16.0),
                    top.width() - m.dp(128.0),
                    m.dp(32.0),
                ),
            )
            .id(rid("title"))
            .text(title)
            .style(text_style(20.0, p.on_surface)),
        )
        .child(
            communication::toolbar_action(sys, top, 0, tr(sys, "search"), "search")
                .id(rid("search_button"))
                .on_click("search"),
        );
    let body = Bounds::new(c.left, top.bottom, c.right, c.bottom);
    let root = communication::root(sys).child(toolbar);
    if notes.is_empty() {
        let empty = if no_folders {
            tr(sys, "no_notebooks")
        } else {
            tr(sys, "no_notes")
        };
        return root.child(
            communication::centered_text(
                body,
                m.dp(48.0),
                m.sp(48.0),
                empty,
                text_style(16.0, p.secondary_text),
            )
            .id(rid("empty")),
        );
    }
    let height = m.dp(56.0);
    let rows = notes
        .iter()
        .enumerate()
        .map(|(i, n)| note_row(sys, n, communication::row_bounds(body, body.top, height, i)));
    root.child(
        View::new(class::RECYCLER_VIEW, body)
            .id(rid("note_list"))
            .scrollable("notes")
            .children(rows),
    )
}

/// The search screen: Back and the query's field in the toolbar, the notes found under it.
pub(super) fn search(sys: &System, query: &str, found: &[&Note]) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let top = bar(sys);
    let toolbar = communication::toolbar(sys, c, PACKAGE, "", Some(("up", tr(sys, "back")))).child(
        View::new(
            class::EDIT_TEXT,
            at(
                top,
                m.dp(64.0),
                m.dp(8.0),
                top.width() - m.dp(80.0),
                m.dp(48.0),
            ),
        )
        .id(rid("search_query"))
        .text(query)
        .hint(tr(sys, "search_hint"))
        .editable("search_query")
        .style(text_style(18.0, p.on_surface)),
    );
    let body = Bounds::new(c.left, top.bottom, c.right, c.bottom);
    let height = m.dp(56.0);
    let rows = found
        .iter()
        .enumerate()
        .map(|(i, n)| note_row(sys, n, communication::row_bounds(body, body.top, height, i)));
    communication::root(sys).child(toolbar).child(
        View::new(class::RECYCLER_VIEW, body)
            .id(rid("search_results"))
            .scrollable("search")
            .children(rows),
    )
}

fn note_row(sys: &System, n: &Note, b: Bounds) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let text_left = if n.is_todo { m.dp(56.0) } else { m.dp(16.0) };
    let mut row = View::new(class::VIEW_GROUP, b)
        .id(rid("note_item"))
        .on_click(format!("note:{}", n.id));
    if n.is_todo {
        row = row.child(
            View::new(
                class::CHECK_BOX,
                at(
                    b,
                    m.dp(12.0),
                    (b.height() - m.dp(32.0)) / 2,
                    m.dp(32.0),
                    m.dp(32.0),
                ),
            )
            .id(rid("todo_checkbox"))
            .desc(n.title.clone())
            .checked(n.done())
            .on_click(format!("todo:{}", n.id))
            .style(Style {
                text_color: Some(BLUE),
                ..Style::default()
            }),
        );
    }
    let color = if n.done() {
        p.secondary_text
    } else {
        p.on_surface
    };
    row.child(
        View::new(
            class::TEXT_VIEW,
            at(
                b,
                text_left,
                (b.height() - m.sp(24.0)) / 2,
                b.width() - text_left - m.dp(16.0),
                m.sp(24.0),
            ),
        )
        .id(rid("note_title"))
        .text(n.title.clone())
        .style(text_style(16.0, color)),
    )
    .child(
        // The divider under each row.
        View::new(
            class::VIEW,
            Bounds::new(b.left + m.dp(16.0), b.bottom - 1, b.right, b.bottom),
        )
        .style(Style {
            background: Some(p.card),
            ..Style::default()
        }),
    )
}

/// The list with the sidebar open over it: a scrim that closes it, and the panel with All notes
/// and every notebook, the one shown highlighted.
pub(super) fn with_sidebar(
    sys: &System,
    list: View,
    folders: &[Folder],
    current: Option<&str>,
) -> View {
    let m = sys.metrics;
    let c = m.content;
    let width = (c.width() * 85 / 100).min(m.dp(320.0));
    let panel = Bounds::new(c.left, c.top, c.left + width, c.bottom);
    let scrim = View::new(class::VIEW, c)
        .desc(tr(sys, "close_sidebar"))
        .on_click("scrim")
        .hides_below()
        .style(Style {
            background: Some([0, 0, 0, 110]),
            ..Style::default()
        });
    let mut rows = Rows::new(panel);
    let mut children = vec![
        View::new(class::TEXT_VIEW, inset_row(sys, rows.take(m.dp(64.0))))
            .text(tr(sys, "app_label"))
            .style(Style {
                bold: true,
                ..text_style(20.0, SIDEBAR_TEXT)
            }),
    ];
    let item = |b: Bounds, text: &str, tag: String, picked: bool, icon: &'static str| {
        View::new(class::VIEW_GROUP, b)
            .id(rid("sidebar_item"))
            .on_click(tag)
            .selected(picked)
            .style(Style {
                background: picked.then_some(SIDEBAR_PICKED),
                ..Style::default()
            })
            .child(communication::leading_icon(
                sys,
                b,
                24.0,
                icon,
                SIDEBAR_TEXT,
            ))
            .child(
                communication::row_label(sys, b, 56.0, text, text_style(16.0, SIDEBAR_TEXT))
                    .id(rid("sidebar_item_title")),
            )
    };
    children.push(item(
        rows.take(m.dp(48.0)),
        tr(sys, "all_notes"),
        "all_notes".to_string(),
        current.is_none(),
        "storage",
    ));
    children.push(
        View::new(class::TEXT_VIEW, inset_row(sys, rows.take(m.dp(40.0))))
            .text(tr(sys, "notebooks"))
            .style(text_style(13.0, SIDEBAR_TEXT)),
    );
    let list_area = rows.rest();
    let folder_rows = folders.iter().enumerate().map(|(i, f)| {
        let b = communication::row_bounds(list_area, list_area.top, m.dp(48.0), i);
        item(
            b,
            &f.title,
            format!("folder:{}", f.id),
            current == Some(f.id.as_str()),
            "apps",
        )
    });
    children.push(
        View::new(class::SCROLL_VIEW, list_area)
            .id(rid("folder_list"))
            .scrollable("folders")
            .children(folder_rows),
    );
    list.child(scrim).child(
        View::new(class::VIEW_GROUP, panel)
            .id(rid("sidebar"))
            .style(Style {
                background: Some(SIDEBAR),
                ..Style::default()
            })
            .children(children),
    )
}

fn inset_row(sys: &System, b: Bounds) -> Bounds {
    let m = sys.metrics;
    Bounds::new(
        b.left + m.dp(16.0),
        b.top + m.dp(12.0),
        b.right - m.dp(16.0),
        b.bottom,
    )
}

/// A note's screen: its notebook in the toolbar, the title (after a to-do's checkbox) and the
/// body, each line of it a paragraph as the viewer lays it out.
pub(super) fn note(sys: &System, n: &Note, folder: Option<&str>) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let toolbar = communication::toolbar(
        sys,
        c,
        PACKAGE,
        folder.unwrap_or(""),
        Some(("up", tr(sys, "back"))),
    );
    let body = Bounds::new(c.left, c.top + m.dp(64.0), c.right, c.bottom);
    let mut rows = Rows::new(Bounds::new(
        body.left + m.dp(16.0),
        body.top + m.dp(8.0),
        body.right - m.dp(16.0),
        body.bottom,
    ));
    let head = rows.take(m.dp(48.0));
    let mut children = Vec::new();
    let mut title_left = 0;
    if n.is_todo {
        children.push(
            View::new(
                class::CHECK_BOX,
                at(head, 0, m.dp(8.0), m.dp(32.0), m.dp(32.0)),
            )
            .id(rid("note_todo_checkbox"))
            .desc(tr(sys, "todo"))
            .checked(n.done())
            .on_click("note_todo")
            .style(Style {
                text_color: Some(BLUE),
                ..Style::default()
            }),
        );
        title_left = m.dp(44.0);
    }
    children.push(
        View::new(
            class::TEXT_VIEW,
            at(
                head,
                title_left,
                m.dp(8.0),
                head.width() - title_left,
                m.sp(32.0),
            ),
        )
        .id(rid("note_title_view"))
        .text(n.title.clone())
        .style(Style {
            bold: true,
            ..text_style(22.0, p.on_surface)
        }),
    );
    rows.take(m.dp(12.0));
    for line in n.body.lines() {
        // A blank line is the space between paragraphs.
        if line.trim().is_empty() {
            rows.take(m.sp(12.0));
            continue;
        }
        let wrapped = line.chars().count().div_ceil(CHARS_PER_LINE).max(1) as i32;
        children.push(
            View::new(class::TEXT_VIEW, rows.take(m.sp(24.0) * wrapped))
                .id(rid("note_body"))
                .text(line)
                .style(text_style(16.0, p.on_surface)),
        );
    }
    communication::root(sys).child(toolbar).child(
        View::new(class::SCROLL_VIEW, body)
            .id(rid("note_view"))
            .scrollable("note")
            .children(children),
    )
}

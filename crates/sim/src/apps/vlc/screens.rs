//! VLC's screens: MainActivity's toolbar and bottom navigation (Video, Browse, Playlists), the
//! video list (`video_list_card`: `ml_item_title`, `ml_item_time`), the browser
//! (`browser_item`: `title`, `text`), playlists and a playlist's media, the selection's action
//! bar, and the bottom sheets SavePlaylistDialog and DuplicationWarningDialog.

use super::store::{self, duration_text, Media};
use super::{id, tr, Dialog, Tab, Vlc, INTERNAL, PACKAGE};
use crate::apps::communication::{self, at, filled, palette, text_style};
use crate::apps::storage;
use crate::apps::widgets::{columns, inset, Rows};
use crate::locale;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// VLC's orange.
const ORANGE: [u8; 4] = [255, 136, 0, 255];

fn item(
    sys: &System,
    b: Bounds,
    tag: Option<String>,
    title: &str,
    text: &str,
    icon: &'static str,
    on: bool,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let left = m.dp(88.0);
    let width = b.width() - left - m.dp(16.0);
    let mut v = View::new(class::LINEAR_LAYOUT, b)
        .selected(on)
        .style(Style {
            background: on.then_some(p.card),
            ..Style::default()
        })
        .child(
            View::new(
                class::IMAGE_VIEW,
                at(
                    b,
                    m.dp(16.0),
                    (b.height() - m.dp(40.0)) / 2,
                    m.dp(56.0),
                    m.dp(40.0),
                ),
            )
            .id(id("ml_item_thumbnail"))
            .style(Style {
                icon: Some(if on { "check" } else { icon }),
                text_color: Some([255, 255, 255, 255]),
                ..filled(
                    if on { ORANGE } else { [96, 96, 96, 255] },
                    [255, 255, 255, 255],
                    m.dp(4.0),
                )
            }),
        )
        .child(
            View::new(class::TEXT_VIEW, at(b, left, m.dp(10.0), width, m.sp(24.0)))
                .id(id("ml_item_title"))
                .text(title)
                .style(text_style(16.0, p.on_surface)),
        );
    if !text.is_empty() {
        v = v.child(
            View::new(
                class::TEXT_VIEW,
                at(b, left, m.dp(10.0) + m.sp(24.0), width, m.sp(20.0)),
            )
            .id(id("ml_item_time"))
            .text(text)
            .style(text_style(14.0, p.secondary_text)),
        );
    }
    if let Some(tag) = tag {
        let long = tag.starts_with("media:");
        v = v.on_click(tag);
        if long {
            v = v.long_clickable();
        }
    }
    v
}

fn media_line(m: &Media) -> String {
    if m.duration > 0 {
        duration_text(m.duration)
    } else {
        String::new()
    }
}

pub(super) fn render_main(sys: &System, app: &Vlc) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = Bounds::new(c.left, c.top, c.right, c.top + m.dp(56.0));
    let nav = Bounds::new(c.left, c.bottom - m.dp(64.0), c.right, c.bottom);
    let body = Bounds::new(c.left, bar.bottom, c.right, nav.top);
    let conn = Vlc::library(sys);
    let h = m.dp(72.0);
    let (title, up, rows): (String, bool, Vec<View>) = match app.tab {
        Tab::Video => {
            let videos = conn
                .as_ref()
                .and_then(|c| store::videos(c).ok())
                .unwrap_or_default();
            let rows = videos
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    item(
                        sys,
                        communication::row_bounds(body, body.top, h, i),
                        Some(format!("media:{}", v.id)),
                        &v.title,
                        &media_line(v),
                        "play",
                        app.selected.contains(&v.id),
                    )
                })
                .collect();
            (tr(sys, "video").to_string(), false, rows)
        }
        Tab::Browse => match &app.dir {
            None => (
                tr(sys, "browse").to_string(),
                false,
                vec![item(
                    sys,
                    communication::row_bounds(body, body.top, h, 0),
                    Some("storage:internal".into()),
                    tr(sys, "internal_memory"),
                    "",
                    "storage",
                    false,
                )],
            ),
            Some(dir) => {
                let rows = storage::list(sys, dir)
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let b = communication::row_bounds(body, body.top, h, i);
                        if e.is_dir {
                            return item(
                                sys,
                                b,
                                Some(format!("folder:{}", e.name)),
                                &e.name,
                                "",
                                "folder",
                                false,
                            );
                        }
                        let media = conn.as_ref().and_then(|c| {
                            store::media_of_path(
                                c,
                                &e.path.replacen("/sdcard", "/storage/emulated/0", 1),
                            )
                        });
                        match media {
                            Some(mid) => item(
                                sys,
                                b,
                                Some(format!("media:{mid}")),
                                &e.name,
                                "",
                                "play",
                                app.selected.contains(&mid),
                            ),
                            None => item(sys, b, None, &e.name, "", "file", false),
                        }
                    })
                    .collect();
                let title = if dir == INTERNAL {
                    tr(sys, "internal_memory").to_string()
                } else {
                    storage::name_of(dir).to_string()
                };
                (title, true, rows)
            }
        },
        Tab::Playlists => match app.playlist {
            None => {
                let playlists = conn
                    .as_ref()
                    .and_then(|c| store::playlists(c).ok())
                    .unwrap_or_default();
                let rows = playlists
                    .iter()
                    .enumerate()
                    .map(|(i, pl)| {
                        let line = format!(
                            "{} · {}",
                            locale::format(&sys.locale, PACKAGE, "media_count", &[&pl.count]),
                            duration_text(pl.duration)
                        );
                        item(
                            sys,
                            communication::row_bounds(body, body.top, h, i),
                            Some(format!("playlist:{}", pl.id)),
                            &pl.name,
                            &line,
                            "menu",
                            false,
                        )
                    })
                    .collect();
                (tr(sys, "playlists").to_string(), false, rows)
            }
            Some(pl) => {
                let name = conn
                    .as_ref()
                    .and_then(|c| store::playlist_name(c, pl))
                    .unwrap_or_default();
                let media = conn
                    .as_ref()
                    .and_then(|c| store::playlist_media(c, pl).ok())
                    .unwrap_or_default();
                let rows = media
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        item(
                            sys,
                            communication::row_bounds(body, body.top, h, i),
                            None,
                            &v.title,
                            &media_line(v),
                            "play",
                            false,
                        )
                    })
                    .collect();
                (name, true, rows)
            }
        },
    };
    let empty = rows.is_empty();
    let toolbar = if app.selected.is_empty() {
        let up = up.then(|| ("up", tr(sys, "navigate_up")));
        communication::toolbar(sys, c, PACKAGE, &title, up).id(id("main_toolbar"))
    } else {
        let count = locale::format(
            &sys.locale,
            PACKAGE,
            "selected_count",
            &[&app.selected.len()],
        );
        communication::toolbar(
            sys,
            c,
            PACKAGE,
            &count,
            Some(("sel_close", tr(sys, "close"))),
        )
        .id(id("action_mode_bar"))
        .style(Style {
            background: Some(p.card),
            ..Style::default()
        })
        .child(
            communication::toolbar_action(sys, bar, 0, tr(sys, "add_to_playlist"), "add")
                .id(id("action_video_add_playlist"))
                .on_click("sel_add_to_playlist"),
        )
    };
    let mut root = communication::root(sys)
        .id(id("coordinator"))
        .child(toolbar);
    if empty {
        root = root.child(
            communication::centered_text(
                body,
                m.dp(96.0),
                m.sp(28.0),
                tr(sys, "nothing_to_display"),
                text_style(16.0, p.secondary_text),
            )
            .id(id("empty_loading")),
        );
    }
    root = root.child(
        View::new(class::RECYCLER_VIEW, body)
            .id(id("list"))
            .scrollable("list")
            .children(rows),
    );
    let tabs = [
        (Tab::Video, "video", "tab:video", "nav_video", "play"),
        (
            Tab::Browse,
            "browse",
            "tab:browse",
            "nav_directories",
            "folder",
        ),
        (
            Tab::Playlists,
            "playlists",
            "tab:playlists",
            "nav_playlists",
            "menu",
        ),
    ];
    let nav_view =
        View::new(class::FRAME_LAYOUT, nav)
            .id(id("navigation"))
            .style(Style {
                background: Some(p.surface),
                ..Style::default()
            })
            .children(tabs.into_iter().zip(columns(nav, 3)).map(
                |((tab, name, tag, rid, icon), b)| {
                    let on = app.tab == tab;
                    let color = if on { ORANGE } else { p.secondary_text };
                    View::new(class::FRAME_LAYOUT, b)
                        .id(id(rid))
                        .desc(tr(sys, name))
                        .on_click(tag)
                        .selected(on)
                        .child(
                            View::new(
                                class::IMAGE_VIEW,
                                at(
                                    b,
                                    b.width() / 2 - m.dp(12.0),
                                    m.dp(8.0),
                                    m.dp(24.0),
                                    m.dp(24.0),
                                ),
                            )
                            .style(Style {
                                icon: Some(icon),
                                text_color: Some(color),
                                ..Style::default()
                            }),
                        )
                        .child(
                            View::new(
                                class::TEXT_VIEW,
                                at(b, 0, m.dp(36.0), b.width(), m.sp(20.0)),
                            )
                            .text(tr(sys, name))
                            .style(Style {
                                center_text: true,
                                ..text_style(12.0, color)
                            }),
                        )
                },
            ));
    root.child(nav_view)
}

/// A bottom sheet over a scrim that cancels it when tapped outside.
fn sheet(sys: &System, screen: View, height: i32, children: Vec<View>) -> View {
    let m = sys.metrics;
    let c = m.content;
    let b = Bounds::new(c.left, c.bottom - height, c.right, c.bottom);
    screen.child(
        View::new(class::FRAME_LAYOUT, c)
            .id(id("touch_outside"))
            .on_click("outside")
            .style(Style {
                background: Some([0, 0, 0, 110]),
                ..Style::default()
            })
            .child(
                View::new(class::FRAME_LAYOUT, b)
                    .id(id("design_bottom_sheet"))
                    .on_click("sheet")
                    .style(Style {
                        background: Some(palette(sys).surface),
                        corner_radius: m.dp(16.0),
                        ..Style::default()
                    })
                    .children(children),
            ),
    )
}

fn sheet_button(sys: &System, b: Bounds, text: &str, rid: &str, tag: &str) -> View {
    View::new(class::BUTTON, b)
        .id(id(rid))
        .text(text)
        .on_click(tag)
        .style(filled(ORANGE, [255, 255, 255, 255], sys.metrics.dp(20.0)))
}

pub(super) fn render_dialog(sys: &System, screen: View, dialog: &Dialog) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    match dialog {
        Dialog::AddTo { name, .. } => {
            let playlists = Vlc::library(sys)
                .and_then(|c| store::playlists(&c).ok())
                .unwrap_or_default();
            let shown = playlists.len().min(6) as i32;
            let height = m.dp(200.0) + m.dp(56.0) * shown;
            let c = m.content;
            let mut rows = Rows::new(inset(
                Bounds::new(c.left, c.bottom - height, c.right, c.bottom),
                m.dp(16.0),
            ));
            let mut v = vec![View::new(class::TEXT_VIEW, rows.take(m.sp(32.0)))
                .id(id("dialog_playlist_title"))
                .text(tr(sys, "add_to_playlist"))
                .style(Style {
                    bold: true,
                    ..text_style(20.0, p.on_surface)
                })];
            let line = rows.take(m.dp(56.0));
            v.push(
                View::new(
                    class::EDIT_TEXT,
                    Bounds::new(line.left, line.top, line.right - m.dp(112.0), line.bottom),
                )
                .id(id("dialog_playlist_name"))
                .text(name.clone())
                .hint(tr(sys, "playlist_name_hint"))
                .editable("playlist_name")
                .style(text_style(16.0, p.on_surface)),
            );
            v.push(sheet_button(
                sys,
                Bounds::new(
                    line.right - m.dp(104.0),
                    line.top + m.dp(6.0),
                    line.right,
                    line.bottom - m.dp(6.0),
                ),
                tr(sys, "create"),
                "dialog_playlist_save",
                "save",
            ));
            if !playlists.is_empty() {
                v.push(
                    View::new(class::TEXT_VIEW, rows.take(m.sp(32.0)))
                        .text(tr(sys, "existing_playlists"))
                        .style(text_style(14.0, p.secondary_text)),
                );
            }
            for pl in playlists.iter().take(6) {
                v.push(
                    View::new(class::TEXT_VIEW, rows.take(m.dp(56.0)))
                        .id(id("title"))
                        .text(pl.name.clone())
                        .on_click(format!("add_to:{}", pl.id))
                        .style(text_style(16.0, p.on_surface)),
                );
            }
            sheet(sys, screen, height, v)
        }
        Dialog::Duplicates {
            playlist,
            media,
            dups,
        } => {
            let name = Vlc::library(sys)
                .and_then(|c| store::playlist_name(&c, *playlist))
                .unwrap_or_default();
            let three = dups.len() < media.len();
            let height = m.dp(240.0);
            let c = m.content;
            let mut rows = Rows::new(inset(
                Bounds::new(c.left, c.bottom - height, c.right, c.bottom),
                m.dp(16.0),
            ));
            let message = locale::format(
                &sys.locale,
                PACKAGE,
                "duplication_message",
                &[&dups.len(), &name],
            );
            let mut v = vec![
                View::new(class::TEXT_VIEW, rows.take(m.sp(32.0)))
                    .id(id("title"))
                    .text(tr(sys, "duplication_title"))
                    .style(Style {
                        bold: true,
                        ..text_style(20.0, p.on_surface)
                    }),
                View::new(class::TEXT_VIEW, rows.take(m.sp(48.0)))
                    .id(id("secondary_textview"))
                    .text(message)
                    .style(text_style(15.0, p.secondary_text)),
            ];
            rows.take(m.dp(16.0));
            let cols = columns(rows.take(m.dp(48.0)), 3);
            let gap = m.dp(4.0);
            let shrink = |b: Bounds| Bounds::new(b.left + gap, b.top, b.right - gap, b.bottom);
            if three {
                v.push(sheet_button(
                    sys,
                    shrink(cols[0]),
                    tr(sys, "add_all"),
                    "add_all_button",
                    "add_all_button",
                ));
                v.push(sheet_button(
                    sys,
                    shrink(cols[1]),
                    tr(sys, "add_new_only"),
                    "add_new_button",
                    "add_new_button",
                ));
            } else {
                v.push(sheet_button(
                    sys,
                    shrink(cols[1]),
                    tr(sys, "add_button"),
                    "add_all_button",
                    "add_all_button",
                ));
            }
            v.push(sheet_button(
                sys,
                shrink(cols[2]),
                tr(sys, "cancel"),
                "cancel_button",
                "cancel_button",
            ));
            sheet(sys, screen, height, v)
        }
    }
}

//! Retro Music's screens: MainActivity's library (toolbar, the Songs and Playlists tabs of the
//! bottom navigation, the mini player), the selection's action bar, a playlist's page, the playing
//! queue, search, the dialogs (`CreatePlaylistDialog`, `AddToPlaylistDialog`, rename, delete, the
//! playlist menu) and the document picker "Save as file" opens. Rows are `item_list.xml`: `title`,
//! `text` (artist and length, or a playlist's song count and length), `image`.

use super::store::{self, duration_text, Playlist, Song};
use super::{id, tr, Dialog, Page, Retro, Tab, PACKAGE};
use crate::apps::communication::{self, at, filled, palette, text_style};
use crate::apps::storage;
use crate::apps::widgets::{
    button, columns, dialog_card, dialog_frame, inset, label, with_card_children, Rows,
};
use crate::locale;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// Retro's default accent (`md_deep_purple_A200`-like violet of its default theme).
const ACCENT: [u8; 4] = [124, 77, 255, 255];
const ON_ACCENT: [u8; 4] = [255, 255, 255, 255];

fn toolbar_action(sys: &System, bar: Bounds, slot: i32, desc: &str, icon: &'static str) -> View {
    communication::toolbar_action(sys, bar, slot, desc, icon)
}

/// One `item_list.xml` row: an image, the title and the line under it.
fn row(
    sys: &System,
    b: Bounds,
    tag: &str,
    title: &str,
    text: &str,
    icon: &'static str,
    on: bool,
) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let text_left = m.dp(72.0);
    let width = b.width() - text_left - m.dp(16.0);
    View::new(class::LINEAR_LAYOUT, b)
        .on_click(tag)
        .long_clickable()
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
                    (b.height() - m.dp(44.0)) / 2,
                    m.dp(44.0),
                    m.dp(44.0),
                ),
            )
            .id(id("image"))
            .style(Style {
                icon: Some(if on { "check" } else { icon }),
                text_color: Some(ON_ACCENT),
                ..filled(ACCENT, ON_ACCENT, m.dp(8.0))
            }),
        )
        .child(
            View::new(
                class::TEXT_VIEW,
                at(b, text_left, m.dp(10.0), width, m.sp(24.0)),
            )
            .id(id("title"))
            .text(title)
            .style(text_style(16.0, p.on_surface)),
        )
        .child(
            View::new(
                class::TEXT_VIEW,
                at(b, text_left, m.dp(10.0) + m.sp(24.0), width, m.sp(20.0)),
            )
            .id(id("text"))
            .text(text)
            .style(text_style(14.0, p.secondary_text)),
        )
}

fn song_line(s: &Song) -> String {
    format!("{} • {}", s.artist, duration_text(s.duration))
}

fn playlist_line(sys: &System, songs: i64, duration: i64) -> String {
    format!(
        "{} • {}",
        locale::format(&sys.locale, PACKAGE, "song_count", &[&songs]),
        duration_text(duration)
    )
}

/// A list of song rows under `top`, tagged `song:<id>` (or `queue:<index>` in the queue).
fn song_rows(
    sys: &System,
    body: Bounds,
    songs: &[Song],
    selected: &[i64],
    queue: bool,
) -> Vec<View> {
    let h = sys.metrics.dp(72.0);
    songs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let tag = if queue {
                format!("queue:{i}")
            } else {
                format!("song:{}", s.id)
            };
            row(
                sys,
                communication::row_bounds(body, body.top, h, i),
                &tag,
                &s.title,
                &song_line(s),
                "sound",
                selected.contains(&s.id),
            )
        })
        .collect()
}

fn list(body: Bounds, tag: &str, rows: Vec<View>) -> View {
    View::new(class::RECYCLER_VIEW, body)
        .id(id("recyclerView"))
        .scrollable(tag)
        .children(rows)
}

fn empty(sys: &System, body: Bounds, text: &str) -> View {
    communication::centered_text(
        body,
        sys.metrics.dp(96.0),
        sys.metrics.sp(28.0),
        text,
        text_style(16.0, palette(sys).secondary_text),
    )
    .id(id("empty"))
}

/// The selection's action bar: close, "N selected", Add to playlist, Add to playing queue and
/// the overflow (Play next).
fn selection_bar(sys: &System, c: Bounds, count: usize) -> View {
    let title = locale::format(&sys.locale, PACKAGE, "x_selected", &[&count]);
    let bar = Bounds::new(c.left, c.top, c.right, c.top + sys.metrics.dp(64.0));
    communication::toolbar(
        sys,
        c,
        PACKAGE,
        &title,
        Some(("sel_close", tr(sys, "close"))),
    )
    .id(id("cab"))
    .style(Style {
        background: Some(palette(sys).card),
        ..Style::default()
    })
    .child(
        toolbar_action(sys, bar, 0, tr(sys, "more_options"), "more_vert")
            .id(id("action_more"))
            .on_click("sel_more"),
    )
    .child(
        toolbar_action(sys, bar, 1, tr(sys, "action_add_to_playing_queue"), "menu")
            .id(id("action_add_to_current_playing"))
            .on_click("sel_add_to_queue"),
    )
    .child(
        toolbar_action(sys, bar, 2, tr(sys, "action_add_to_playlist"), "add")
            .id(id("action_add_to_playlist"))
            .on_click("sel_add_to_playlist"),
    )
}

/// The bottom navigation and, while a queue exists, the mini player above it; returns them with
/// the top of what they cover.
fn bottom(sys: &System, app: &Retro, c: Bounds) -> (Vec<View>, i32) {
    let m = sys.metrics;
    let p = palette(sys);
    let nav = Bounds::new(c.left, c.bottom - m.dp(64.0), c.right, c.bottom);
    let tabs = columns(nav, 2);
    let mut views = vec![View::new(class::FRAME_LAYOUT, nav)
        .id(id("bottomNavigationView"))
        .style(Style {
            background: Some(p.surface),
            ..Style::default()
        })
        .children(
            [
                (Tab::Songs, "songs", "tab:songs", "action_song", "sound"),
                (
                    Tab::Playlists,
                    "playlists",
                    "tab:playlists",
                    "action_playlist",
                    "menu",
                ),
            ]
            .into_iter()
            .zip(tabs)
            .map(|((tab, name, tag, rid, icon), b)| {
                let on = app.tab == tab && app.pages.is_empty();
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
                            text_color: Some(if on { ACCENT } else { p.secondary_text }),
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
                            ..text_style(12.0, if on { ACCENT } else { p.secondary_text })
                        }),
                    )
            }),
        )];
    let queue = Retro::queue(sys);
    let Some(song) = app
        .playing
        .and_then(|i| queue.get(i))
        .or_else(|| queue.first())
    else {
        return (views, nav.top);
    };
    let mini = Bounds::new(c.left, nav.top - m.dp(56.0), c.right, nav.top);
    views.push(
        View::new(class::FRAME_LAYOUT, mini)
            .id(id("miniPlayerFragment"))
            .on_click("mini_player")
            .style(Style {
                background: Some(p.card),
                ..Style::default()
            })
            .child(
                View::new(
                    class::TEXT_VIEW,
                    at(
                        mini,
                        m.dp(16.0),
                        m.dp(16.0),
                        mini.width() - m.dp(88.0),
                        m.sp(24.0),
                    ),
                )
                .id(id("miniPlayerTitle"))
                .text(format!("{} • {}", song.title, song.artist))
                .style(text_style(15.0, p.on_surface)),
            )
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    at(
                        mini,
                        mini.width() - m.dp(56.0),
                        m.dp(8.0),
                        m.dp(40.0),
                        m.dp(40.0),
                    ),
                )
                .id(id("miniPlayerPlayPauseButton"))
                .style(Style {
                    icon: Some(if app.playing.is_some() {
                        "pause"
                    } else {
                        "play"
                    }),
                    text_color: Some(p.on_surface),
                    ..Style::default()
                }),
            ),
    );
    (views, mini.top)
}

pub(super) fn render_library(sys: &System, app: &Retro) -> View {
    let m = sys.metrics;
    let c = m.content;
    let p = palette(sys);
    let bar = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let (bottom_views, bottom_top) = bottom(sys, app, c);
    let mut body = Bounds::new(c.left, bar.bottom, c.right, bottom_top);
    let up = Some(("up", tr(sys, "navigate_up")));
    let mut root = communication::root(sys).id(id("main_content"));
    match app.page() {
        None => {
            let toolbar = if app.selected.is_empty() {
                let mut t = communication::toolbar(sys, c, PACKAGE, tr(sys, "app_label"), None)
                    .child(
                        toolbar_action(sys, bar, 0, tr(sys, "action_search"), "search")
                            .id(id("action_search"))
                            .on_click("search"),
                    );
                if app.tab == Tab::Playlists {
                    t = t.child(
                        toolbar_action(sys, bar, 1, tr(sys, "action_new_playlist"), "add")
                            .id(id("action_new_playlist"))
                            .on_click("new_playlist"),
                    );
                }
                t
            } else {
                selection_bar(sys, c, app.selected.len())
            };
            root = root.child(toolbar);
            match app.tab {
                Tab::Songs => {
                    let songs = store::songs(sys);
                    if songs.is_empty() {
                        root = root.child(empty(sys, body, tr(sys, "no_songs")));
                    }
                    root = root.child(list(
                        body,
                        "songs",
                        song_rows(sys, body, &songs, &app.selected, false),
                    ));
                }
                Tab::Playlists => {
                    let playlists: Vec<Playlist> = store::open_playlists(sys)
                        .and_then(|c| store::playlists(&c))
                        .unwrap_or_default();
                    if playlists.is_empty() {
                        root = root.child(empty(sys, body, tr(sys, "no_playlists")));
                    }
                    let h = m.dp(72.0);
                    let rows = playlists
                        .iter()
                        .enumerate()
                        .map(|(i, pl)| {
                            let b = communication::row_bounds(body, body.top, h, i);
                            row(
                                sys,
                                b,
                                &format!("playlist:{}", pl.id),
                                &pl.name,
                                &playlist_line(sys, pl.songs, pl.duration),
                                "menu",
                                false,
                            )
                            .child(
                                View::new(
                                    class::IMAGE_BUTTON,
                                    at(
                                        b,
                                        b.width() - m.dp(56.0),
                                        (h - m.dp(48.0)) / 2,
                                        m.dp(48.0),
                                        m.dp(48.0),
                                    ),
                                )
                                .id(id("menu"))
                                .desc(tr(sys, "more_options"))
                                .on_click(format!("playlist_menu:{}", pl.id))
                                .style(Style {
                                    icon: Some("more_vert"),
                                    text_color: Some(p.secondary_text),
                                    ..Style::default()
                                }),
                            )
                        })
                        .collect();
                    root = root.child(list(body, "playlists", rows));
                }
            }
        }
        Some(Page::Playlist(pl)) => {
            let conn = store::open_playlists(sys).ok();
            let name = conn
                .as_ref()
                .and_then(|c| store::playlist_name(c, *pl))
                .unwrap_or_default();
            let songs = conn
                .as_ref()
                .and_then(|c| store::playlist_songs(c, *pl).ok())
                .unwrap_or_default();
            let total: i64 = songs.iter().map(|s| s.duration).sum();
            root = root.child(
                communication::toolbar(sys, c, PACKAGE, &name, up).child(
                    toolbar_action(sys, bar, 0, tr(sys, "more_options"), "more_vert")
                        .id(id("action_more"))
                        .on_click(format!("playlist_menu:{pl}")),
                ),
            );
            let header = Bounds::new(c.left, body.top, c.right, body.top + m.dp(72.0));
            root = root
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(
                            header,
                            m.dp(16.0),
                            m.dp(8.0),
                            header.width() - m.dp(160.0),
                            m.sp(22.0),
                        ),
                    )
                    .id(id("title"))
                    .text(name.clone())
                    .style(Style {
                        bold: true,
                        ..text_style(18.0, p.on_surface)
                    }),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(
                            header,
                            m.dp(16.0),
                            m.dp(8.0) + m.sp(26.0),
                            header.width() - m.dp(160.0),
                            m.sp(20.0),
                        ),
                    )
                    .id(id("songCountText"))
                    .text(playlist_line(sys, songs.len() as i64, total))
                    .style(text_style(14.0, p.secondary_text)),
                )
                .child(
                    View::new(
                        class::BUTTON,
                        at(
                            header,
                            header.width() - m.dp(128.0),
                            m.dp(16.0),
                            m.dp(112.0),
                            m.dp(40.0),
                        ),
                    )
                    .id(id("playAction"))
                    .text(tr(sys, "action_play"))
                    .on_click("play_playlist")
                    .style(Style {
                        icon: Some("play"),
                        ..filled(ACCENT, ON_ACCENT, m.dp(20.0))
                    }),
                );
            body.top = header.bottom;
            if songs.is_empty() {
                root = root.child(empty(sys, body, tr(sys, "no_songs")));
            }
            root = root.child(list(
                body,
                "playlist_songs",
                song_rows(sys, body, &songs, &[], false),
            ));
        }
        Some(Page::Queue) => {
            let queue = Retro::queue(sys);
            root = root.child(
                communication::toolbar(sys, c, PACKAGE, tr(sys, "now_playing_queue"), up).child(
                    toolbar_action(sys, bar, 0, tr(sys, "action_clear_playing_queue"), "delete")
                        .id(id("action_clear_playing_queue"))
                        .on_click("clear_queue"),
                ),
            );
            let playing: Vec<i64> = app
                .playing
                .and_then(|i| queue.get(i))
                .map(|s| vec![s.id])
                .unwrap_or_default();
            root = root.child(list(
                body,
                "queue",
                song_rows(sys, body, &queue, &playing, true),
            ));
        }
        Some(Page::Search(query)) => {
            let field = Bounds::new(
                c.left + m.dp(64.0),
                bar.top + m.dp(8.0),
                c.right - m.dp(16.0),
                bar.bottom - m.dp(8.0),
            );
            root = root
                .child(communication::toolbar(sys, c, PACKAGE, "", up))
                .child(
                    View::new(class::EDIT_TEXT, field)
                        .id(id("searchView"))
                        .text(query.clone())
                        .hint(tr(sys, "search_hint"))
                        .editable("search_text")
                        .style(text_style(18.0, p.on_surface)),
                );
            let q = query.trim().to_lowercase();
            let found: Vec<Song> = if q.is_empty() {
                Vec::new()
            } else {
                store::songs(sys)
                    .into_iter()
                    .filter(|s| {
                        [&s.title, &s.artist, &s.album]
                            .iter()
                            .any(|t| t.to_lowercase().contains(&q))
                    })
                    .collect()
            };
            if !q.is_empty() && found.is_empty() {
                root = root.child(empty(sys, body, tr(sys, "no_results")));
            }
            root = root.child(list(
                body,
                "search",
                song_rows(sys, body, &found, &[], false),
            ));
        }
        Some(Page::SaveTo { .. }) => {}
    }
    if app.page().is_none() || matches!(app.page(), Some(Page::Queue | Page::Playlist(_))) {
        root = root.children(bottom_views);
    }
    root
}

/// A dialog's title.
fn title(rows: &mut Rows, sys: &System, text: &str) -> View {
    label(rows.take(sys.metrics.sp(36.0)), text, 20.0).id("android:id/alertTitle")
}

/// Buttons right-aligned over the last columns: (text, tag, id).
fn buttons(rows: &mut Rows, sys: &System, items: &[(&str, &str, &str)]) -> Vec<View> {
    rows.take(sys.metrics.dp(8.0));
    let cols = columns(rows.take(sys.metrics.dp(48.0)), 3);
    let first = cols.len() - items.len();
    items
        .iter()
        .zip(&cols[first..])
        .map(|((text, tag, bid), b)| button(*b, *text, *tag).id(*bid))
        .collect()
}

/// A menu or list item of a dialog.
fn item(rows: &mut Rows, sys: &System, text: &str, tag: &str) -> View {
    View::new(class::TEXT_VIEW, rows.take(sys.metrics.dp(52.0)))
        .id(id("title"))
        .text(text)
        .on_click(tag)
        .style(text_style(16.0, palette(sys).on_surface))
}

fn field(rows: &mut Rows, sys: &System, rid: &str, text: &str, tag: &str) -> View {
    View::new(class::EDIT_TEXT, rows.take(sys.metrics.dp(56.0)))
        .id(id(rid))
        .text(text)
        .hint(tr(sys, "playlist_name_empty"))
        .editable(tag)
        .style(text_style(18.0, palette(sys).on_surface))
}

pub(super) fn render_dialog(sys: &System, screen: View, dialog: &Dialog) -> View {
    let m = &sys.metrics;
    let cancel = (
        tr(sys, "action_cancel"),
        "dialog_cancel",
        "android:id/button2",
    );
    let (height, build): (i32, Box<dyn Fn(&mut Rows) -> Vec<View>>) = match dialog {
        Dialog::NewPlaylist { name, .. } => (
            m.dp(220.0),
            Box::new(move |rows| {
                let mut v = vec![
                    title(rows, sys, tr(sys, "new_playlist_title")),
                    field(rows, sys, "actionNewPlaylist", name, "new_playlist_name"),
                ];
                v.extend(buttons(
                    rows,
                    sys,
                    &[
                        cancel,
                        (tr(sys, "create_action"), "create", "android:id/button1"),
                    ],
                ));
                v
            }),
        ),
        Dialog::AddTo(_) => {
            let playlists = store::open_playlists(sys)
                .and_then(|c| store::playlists(&c))
                .unwrap_or_default();
            (
                m.dp(180.0) + m.dp(52.0) * playlists.len().min(8) as i32,
                Box::new(move |rows| {
                    let mut v = vec![
                        title(rows, sys, tr(sys, "add_playlist_title")),
                        item(rows, sys, tr(sys, "action_new_playlist"), "new_playlist"),
                    ];
                    for pl in playlists.iter().take(8) {
                        v.push(item(rows, sys, &pl.name, &format!("add_to:{}", pl.id)));
                    }
                    v.extend(buttons(rows, sys, &[cancel]));
                    v
                }),
            )
        }
        Dialog::SelectionMenu => (
            m.dp(200.0),
            Box::new(move |rows| {
                vec![
                    item(rows, sys, tr(sys, "action_play_next"), "sel_play_next"),
                    item(
                        rows,
                        sys,
                        tr(sys, "action_add_to_playing_queue"),
                        "sel_add_to_queue",
                    ),
                    item(
                        rows,
                        sys,
                        tr(sys, "action_add_to_playlist"),
                        "sel_add_to_playlist",
                    ),
                ]
            }),
        ),
        Dialog::PlaylistMenu(_) => (
            m.dp(260.0),
            Box::new(move |rows| {
                vec![
                    item(rows, sys, tr(sys, "action_play"), "pl_play"),
                    item(rows, sys, tr(sys, "action_rename"), "pl_rename"),
                    item(rows, sys, tr(sys, "action_delete"), "pl_delete"),
                    item(rows, sys, tr(sys, "save_playlist_title"), "pl_save"),
                ]
            }),
        ),
        Dialog::Rename { name, .. } => (
            m.dp(220.0),
            Box::new(move |rows| {
                let mut v = vec![
                    title(rows, sys, tr(sys, "rename_playlist_title")),
                    field(rows, sys, "actionNewPlaylist", name, "rename_name"),
                ];
                v.extend(buttons(
                    rows,
                    sys,
                    &[
                        cancel,
                        (tr(sys, "action_rename"), "rename_ok", "android:id/button1"),
                    ],
                ));
                v
            }),
        ),
        Dialog::Delete(pl) => {
            let name = store::open_playlists(sys)
                .ok()
                .and_then(|c| store::playlist_name(&c, *pl))
                .unwrap_or_default();
            (
                m.dp(220.0),
                Box::new(move |rows| {
                    let mut v = vec![
                        title(rows, sys, tr(sys, "delete_playlist_title")),
                        label(
                            rows.take(m.sp(48.0)),
                            locale::format(&sys.locale, PACKAGE, "delete_playlist_x", &[&name]),
                            16.0,
                        )
                        .id("android:id/message"),
                    ];
                    v.extend(buttons(
                        rows,
                        sys,
                        &[
                            cancel,
                            (tr(sys, "action_delete"), "delete_ok", "android:id/button1"),
                        ],
                    ));
                    v
                }),
            )
        }
    };
    let card = dialog_card(m, height);
    let mut rows = Rows::new(inset(card, m.dp(24.0)));
    let children = build(&mut rows);
    screen.child(with_card_children(dialog_frame(m, card), children))
}

fn picker_id(name: &str) -> String {
    format!("com.google.android.documentsui:id/{name}")
}

/// DocumentsUI's PickActivity for ACTION_CREATE_DOCUMENT: the folder's title, its entries (folders
/// open; files are shown greyed), and the bottom bar with the file name and SAVE.
pub(super) fn render_picker(sys: &System, dir: &str, name: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let title = if dir == super::DOWNLOADS {
        tr(sys, "picker_downloads").to_string()
    } else {
        storage::name_of(dir).to_string()
    };
    let bar = communication::toolbar(
        sys,
        c,
        "com.google.android.documentsui",
        &title,
        Some(("picker_cancel", tr(sys, "picker_cancel"))),
    );
    let save_bar = Bounds::new(c.left, c.bottom - m.dp(72.0), c.right, c.bottom);
    let body = Bounds::new(c.left, c.top + m.dp(64.0), c.right, save_bar.top);
    let h = m.dp(64.0);
    let rows: Vec<View> = storage::list(sys, dir)
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let b = communication::row_bounds(body, body.top, h, i);
            let mut v = View::new(class::LINEAR_LAYOUT, b)
                .id(picker_id("item_root"))
                .child(communication::leading_icon(
                    sys,
                    b,
                    32.0,
                    if e.is_dir { "folder" } else { "file" },
                    p.secondary_text,
                ))
                .child(
                    communication::row_label(
                        sys,
                        b,
                        72.0,
                        e.name.clone(),
                        text_style(
                            16.0,
                            if e.is_dir {
                                p.on_surface
                            } else {
                                p.secondary_text
                            },
                        ),
                    )
                    .id("android:id/title"),
                );
            if e.is_dir {
                v = v.on_click(format!("picker_dir:{}", e.name));
            }
            v
        })
        .collect();
    let cols = Bounds::new(
        save_bar.left + m.dp(16.0),
        save_bar.top + m.dp(12.0),
        save_bar.right - m.dp(128.0),
        save_bar.bottom - m.dp(12.0),
    );
    communication::root(sys)
        .id(picker_id("drawer_layout"))
        .child(bar)
        .child(
            View::new(class::RECYCLER_VIEW, body)
                .id(picker_id("dir_list"))
                .scrollable("picker")
                .children(rows),
        )
        .child(
            View::new(class::FRAME_LAYOUT, save_bar)
                .id(picker_id("container_save"))
                .style(Style {
                    background: Some(p.card),
                    ..Style::default()
                })
                .child(
                    View::new(class::EDIT_TEXT, cols)
                        .id("android:id/title")
                        .text(name)
                        .editable("picker_name")
                        .style(text_style(16.0, p.on_surface)),
                )
                .child(
                    View::new(
                        class::BUTTON,
                        at(
                            save_bar,
                            save_bar.width() - m.dp(112.0),
                            m.dp(14.0),
                            m.dp(96.0),
                            m.dp(44.0),
                        ),
                    )
                    .id("android:id/button1")
                    .text(tr(sys, "picker_save"))
                    .on_click("picker_save")
                    .style(filled(p.accent, p.on_accent, m.dp(22.0))),
                ),
        )
}

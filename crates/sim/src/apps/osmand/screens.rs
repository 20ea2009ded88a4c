//! OsmAnd's screens, built from the app's state and its saved data on every frame: the map
//! (MapActivity's map with its round buttons: search, zoom, menu), the context menu of a place
//! (name, type, coordinates, Favorite and Marker), the "Plan a route" panel, the side menu, the
//! search screen, My places (favourites, markers, tracks) and the two dialogs (add favourite, save
//! track).

use super::map::{self, Overlays};
use super::store::{self, Point};
use super::{id, tr, Dialog, OsmAnd, Screen, Spot, Tab, PACKAGE};
use crate::apps::communication::{self, at, filled, palette, text_style};
use crate::apps::widgets::{
    button, columns, dialog_card, dialog_frame, inset, label, with_card_children, Rows,
};
use crate::locale;
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// OsmAnd's brand colours: the day theme's blue accent and the bottom sheets' white.
const ACCENT: [u8; 4] = [35, 124, 232, 255];
const SHEET: [u8; 4] = [255, 255, 255, 255];
const TEXT: [u8; 4] = [33, 33, 33, 255];
const SECONDARY: [u8; 4] = [117, 117, 117, 255];

pub(super) fn render(sys: &System, app: &OsmAnd) -> View {
    let mut root = match &app.screen {
        Screen::Map => render_map(sys, app),
        Screen::Search { query, .. } => render_search(sys, query),
        Screen::MyPlaces(tab) => render_my_places(sys, *tab),
    };
    match &app.dialog {
        Some(Dialog::Menu) => root = root.child(render_menu(sys)),
        Some(d) => root = root.child(render_dialog(sys, d)),
        None => {}
    }
    root
}

/// The saved points the map shows.
fn saved(sys: &System) -> (Vec<Point>, Vec<Point>) {
    let markers = store::open_markers(sys)
        .and_then(|db| store::markers(&db))
        .unwrap_or_default();
    (store::favorites(sys), markers)
}

/// A round white map button with an icon.
fn map_button(b: Bounds, id_name: &str, desc: &str, icon: &'static str, tag: &str) -> View {
    View::new(class::IMAGE_BUTTON, b)
        .id(id(id_name))
        .desc(desc)
        .on_click(tag)
        .style(Style {
            icon: Some(icon),
            ..filled(SHEET, TEXT, b.width() / 2)
        })
}

fn render_map(sys: &System, app: &OsmAnd) -> View {
    let m = sys.metrics;
    let c = m.content;
    let (favorites, markers) = saved(sys);
    let route: Vec<Point> = app
        .plan
        .iter()
        .flatten()
        .map(|s| Point {
            name: s.name.clone(),
            lat: s.lat,
            lon: s.lon,
        })
        .collect();
    let drawing = map::drawing(
        app.center,
        app.zoom,
        c,
        m.density,
        &Overlays {
            favorites: &favorites,
            markers: &markers,
            route: &route,
            selected: app.card.as_ref().map(|s| (s.lat, s.lon)),
        },
    );
    let map_view = View::new(class::VIEW, c)
        .id(id("MapView"))
        .desc("Map")
        .style(Style {
            drawing: Some(drawing),
            ..Style::default()
        });
    let size = m.dp(48.0);
    let pad = m.dp(12.0);
    let mut root = View::new(class::FRAME_LAYOUT, c)
        .id(id("MapHudLayout"))
        .child(map_view)
        .child(map_button(
            Bounds::new(
                c.right - pad - size,
                c.top + pad,
                c.right - pad,
                c.top + pad + size,
            ),
            "map_search_button",
            tr(sys, "search_button"),
            "search",
            "search",
        ));
    let mid = c.top + c.height() / 2;
    root = root
        .child(map_button(
            Bounds::new(
                c.right - pad - size,
                mid - size - m.dp(4.0),
                c.right - pad,
                mid - m.dp(4.0),
            ),
            "map_zoom_in_button",
            tr(sys, "zoomIn"),
            "add",
            "zoom_in",
        ))
        .child(map_button(
            Bounds::new(
                c.right - pad - size,
                mid + m.dp(4.0),
                c.right - pad,
                mid + m.dp(4.0) + size,
            ),
            "map_zoom_out_button",
            tr(sys, "zoomOut"),
            "remove",
            "zoom_out",
        ));
    let mut bottom = c.bottom;
    if let Some(plan) = &app.plan {
        let panel = plan_panel(sys, plan);
        bottom = panel.bounds.top;
        root = root.child(panel);
    } else if let Some(spot) = &app.card {
        let card = context_menu(sys, spot);
        bottom = card.bounds.top;
        root = root.child(card);
    } else {
        root = root.child(map_button(
            Bounds::new(
                c.left + pad,
                c.bottom - pad - size,
                c.left + pad + size,
                c.bottom - pad,
            ),
            "map_menu_button",
            tr(sys, "menu"),
            "menu",
            "menu",
        ));
    }
    if let Some(note) = app.note {
        let b = Bounds::new(
            c.left + m.dp(16.0),
            bottom - m.dp(16.0) - m.dp(48.0),
            c.right - m.dp(16.0),
            bottom - m.dp(16.0),
        );
        root = root.child(
            View::new(class::TEXT_VIEW, b)
                .id(id("snackbar_text"))
                .text(tr(sys, note))
                .style(Style {
                    background: Some([50, 50, 50, 255]),
                    text_color: Some([255, 255, 255, 255]),
                    text_size_sp: Some(14.0),
                    corner_radius: m.dp(4.0),
                    center_text: true,
                    ..Style::default()
                }),
        );
    }
    root
}

/// A bottom sheet of `height` over the map.
fn sheet(sys: &System, height: i32, id_name: &str) -> View {
    let c = sys.metrics.content;
    View::new(
        class::LINEAR_LAYOUT,
        Bounds::new(c.left, c.bottom - height, c.right, c.bottom),
    )
    .id(id(id_name))
    .style(Style {
        background: Some(SHEET),
        corner_radius: sys.metrics.dp(12.0),
        ..Style::default()
    })
}

/// A sheet's action: an icon over a label, in the accent colour.
fn sheet_action(
    b: Bounds,
    id_name: &str,
    text: &str,
    desc: &str,
    icon: &'static str,
    tag: &str,
) -> View {
    View::new(class::BUTTON, b)
        .id(id(id_name))
        .text(text)
        .desc(desc)
        .on_click(tag)
        .style(Style {
            icon: Some(icon),
            // A background of its own keeps the renderer from filling the button with the accent.
            background: Some(SHEET),
            text_color: Some(ACCENT),
            text_size_sp: Some(14.0),
            center_text: true,
            bold: true,
            ..Style::default()
        })
}

/// The context menu of a place: name, type and country, coordinates, then Favorite and Marker.
fn context_menu(sys: &System, spot: &Spot) -> View {
    let m = sys.metrics;
    let card = sheet(sys, m.dp(216.0), "context_menu_main");
    let b = card.bounds;
    let mut rows = Rows::new(inset(b, m.dp(16.0)));
    let title_band = rows.take(m.sp(32.0));
    let title = View::new(
        class::TEXT_VIEW,
        Bounds::new(
            title_band.left,
            title_band.top,
            title_band.right - m.dp(48.0),
            title_band.bottom,
        ),
    )
    .id(id("context_menu_line1"))
    .text(spot.name.clone())
    .style(Style {
        bold: true,
        ..text_style(20.0, TEXT)
    });
    let close = View::new(
        class::IMAGE_BUTTON,
        Bounds::new(
            title_band.right - m.dp(40.0),
            title_band.top - m.dp(4.0),
            title_band.right,
            title_band.top + m.dp(36.0),
        ),
    )
    .id(id("context_menu_close_btn"))
    .desc(tr(sys, "shared_string_close"))
    .on_click("card_close")
    .style(Style {
        icon: Some("close"),
        text_color: Some(SECONDARY),
        ..Style::default()
    });
    let detail = View::new(class::TEXT_VIEW, rows.take(m.sp(24.0)))
        .id(id("context_menu_line2"))
        .text(spot.detail.clone())
        .style(text_style(15.0, SECONDARY));
    let coords = View::new(class::TEXT_VIEW, rows.take(m.sp(24.0)))
        .id(id("context_menu_coordinates"))
        .text(spot.coords())
        .style(text_style(15.0, SECONDARY));
    rows.take(m.dp(12.0));
    let cols = columns(rows.take(m.dp(64.0)), 2);
    card.children([
        title,
        close,
        detail,
        coords,
        sheet_action(
            cols[0],
            "context_menu_fav_button",
            tr(sys, "shared_string_favorite"),
            tr(sys, "add_to_favorites"),
            "star",
            "card_favorite",
        ),
        sheet_action(
            cols[1],
            "context_menu_marker_button",
            tr(sys, "shared_string_marker"),
            tr(sys, "add_marker"),
            "flag",
            "card_marker",
        ),
    ])
}

/// "Plan a route": the points in order, Add point, Undo and Save.
fn plan_panel(sys: &System, plan: &[Spot]) -> View {
    let m = sys.metrics;
    let shown = plan.len().min(4);
    let height = m.dp(176.0) + m.sp(28.0) * shown.max(1) as i32;
    let panel = sheet(sys, height, "measurement_tool_panel");
    let b = panel.bounds;
    let mut rows = Rows::new(inset(b, m.dp(16.0)));
    let title_band = rows.take(m.sp(32.0));
    let mut children = vec![
        View::new(
            class::TEXT_VIEW,
            Bounds::new(
                title_band.left,
                title_band.top,
                title_band.right - m.dp(48.0),
                title_band.bottom,
            ),
        )
        .id(id("measurement_tool_title"))
        .text(tr(sys, "plan_a_route"))
        .style(Style {
            bold: true,
            ..text_style(20.0, TEXT)
        }),
        View::new(
            class::IMAGE_BUTTON,
            Bounds::new(
                title_band.right - m.dp(40.0),
                title_band.top - m.dp(4.0),
                title_band.right,
                title_band.top + m.dp(36.0),
            ),
        )
        .id(id("measurement_tool_close"))
        .desc(tr(sys, "shared_string_close"))
        .on_click("plan_cancel")
        .style(Style {
            icon: Some("close"),
            text_color: Some(SECONDARY),
            ..Style::default()
        }),
        View::new(class::TEXT_VIEW, rows.take(m.sp(24.0)))
            .id(id("measurement_points_text_view"))
            .text(locale::format(
                &sys.locale,
                PACKAGE,
                "points_count",
                &[&plan.len()],
            ))
            .style(text_style(14.0, SECONDARY)),
    ];
    if plan.is_empty() {
        children.push(
            View::new(class::TEXT_VIEW, rows.take(m.sp(28.0)))
                .text(tr(sys, "plan_route_empty"))
                .style(text_style(13.0, SECONDARY)),
        );
    }
    // The last points, as the panel's list scrolls to the newest.
    for (i, s) in plan.iter().enumerate().skip(plan.len() - shown) {
        children.push(
            View::new(class::TEXT_VIEW, rows.take(m.sp(28.0)))
                .id(id("measure_point_title"))
                .text(format!("{}. {}", i + 1, s.name))
                .style(text_style(16.0, TEXT)),
        );
    }
    rows.take(m.dp(8.0));
    let cols = columns(rows.take(m.dp(56.0)), 3);
    children.push(
        button(cols[0], tr(sys, "add_point"), "plan_add")
            .id(id("add_point_button"))
            .style(filled(ACCENT, [255, 255, 255, 255], m.dp(8.0))),
    );
    children.push(
        button(cols[1], tr(sys, "shared_string_undo"), "plan_undo")
            .id(id("undo_point_button"))
            .enabled(!plan.is_empty())
            .style(Style {
                background: Some(SHEET),
                text_color: Some(ACCENT),
                center_text: true,
                ..Style::default()
            }),
    );
    children.push(
        button(cols[2], tr(sys, "shared_string_save"), "plan_save")
            .id(id("save_button"))
            .enabled(plan.len() >= 2)
            .style(Style {
                background: Some(SHEET),
                text_color: Some(if plan.len() >= 2 { ACCENT } else { SECONDARY }),
                center_text: true,
                bold: true,
                ..Style::default()
            }),
    );
    panel.children(children)
}

/// The side menu: search, My places' lists and "Plan a route".
fn render_menu(sys: &System) -> View {
    let m = sys.metrics;
    let c = m.content;
    let width = c.width() * 4 / 5;
    let drawer = Bounds::new(c.left, c.top, c.left + width, c.bottom);
    let mut rows = Rows::new(Bounds::new(
        drawer.left,
        drawer.top + m.dp(16.0),
        drawer.right,
        drawer.bottom,
    ));
    let head = rows.take(m.dp(64.0));
    let mut items = vec![View::new(
        class::TEXT_VIEW,
        Bounds::new(head.left + m.dp(24.0), head.top, head.right, head.bottom),
    )
    .text(tr(sys, "app_label"))
    .style(Style {
        bold: true,
        ..text_style(22.0, TEXT)
    })];
    for (text, icon, tag) in [
        (tr(sys, "search_button"), "search", "menu:search"),
        (
            tr(sys, "shared_string_my_favorites"),
            "star",
            "menu:favorites",
        ),
        (tr(sys, "map_markers"), "flag", "menu:markers"),
        (tr(sys, "shared_string_tracks"), "folder", "menu:tracks"),
        (tr(sys, "plan_a_route"), "location", "menu:plan"),
    ] {
        let b = rows.take(m.dp(56.0));
        items.push(
            View::new(class::LINEAR_LAYOUT, b)
                .on_click(tag)
                .child(
                    View::new(
                        class::IMAGE_VIEW,
                        at(b, m.dp(20.0), m.dp(16.0), m.dp(24.0), m.dp(24.0)),
                    )
                    .style(Style {
                        icon: Some(icon),
                        text_color: Some(SECONDARY),
                        ..Style::default()
                    }),
                )
                .child(
                    View::new(
                        class::TEXT_VIEW,
                        at(b, m.dp(72.0), 0, b.width() - m.dp(88.0), b.height()),
                    )
                    .id(id("title"))
                    .text(text)
                    .style(text_style(16.0, TEXT)),
                ),
        );
    }
    View::new(class::FRAME_LAYOUT, c)
        .on_click("menu_scrim")
        .style(Style {
            background: Some([0, 0, 0, 96]),
            ..Style::default()
        })
        .child(
            View::new(class::LINEAR_LAYOUT, drawer)
                .id(id("menu_items"))
                .style(Style {
                    background: Some(SHEET),
                    ..Style::default()
                })
                .children(items),
        )
}

fn render_search(sys: &System, query: &str) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let bar = Bounds::new(c.left, c.top, c.right, c.top + m.dp(64.0));
    let toolbar = View::new(class::VIEW_GROUP, bar)
        .id(id("toolbar"))
        .style(Style {
            background: Some(ACCENT),
            ..Style::default()
        })
        .child(
            View::new(
                class::IMAGE_BUTTON,
                at(bar, m.dp(4.0), m.dp(8.0), m.dp(48.0), m.dp(48.0)),
            )
            .desc(tr(sys, "shared_string_back"))
            .on_click("search_back")
            .style(Style {
                icon: Some("back"),
                text_color: Some([255, 255, 255, 255]),
                ..Style::default()
            }),
        )
        .child(
            View::new(
                class::EDIT_TEXT,
                at(
                    bar,
                    m.dp(64.0),
                    m.dp(8.0),
                    bar.width() - m.dp(120.0),
                    m.dp(48.0),
                ),
            )
            .id(id("searchEditText"))
            .text(query)
            .hint(tr(sys, "search_hint"))
            .editable("search")
            .style(text_style(18.0, [255, 255, 255, 255])),
        )
        .child(
            View::new(
                class::IMAGE_BUTTON,
                at(
                    bar,
                    bar.width() - m.dp(52.0),
                    m.dp(8.0),
                    m.dp(48.0),
                    m.dp(48.0),
                ),
            )
            .id(id("clearButton"))
            .desc(tr(sys, "shared_string_close"))
            .on_click("search_clear")
            .style(Style {
                icon: Some("close"),
                text_color: Some([255, 255, 255, 255]),
                ..Style::default()
            }),
        );
    let body = Bounds::new(c.left, bar.bottom, c.right, c.bottom);
    let results = OsmAnd::results(query);
    let row_height = m.dp(72.0);
    let rows: Vec<View> = results
        .iter()
        .enumerate()
        .map(|(i, s)| {
            communication::two_line_row(
                sys,
                communication::row_bounds(body, body.top, row_height, i),
                (&id("title"), &id("subtitle")),
                &s.name,
                &s.detail,
                &format!("result:{i}"),
            )
            .id(id("search_result"))
        })
        .collect();
    let mut root = communication::root(sys).child(toolbar);
    if results.is_empty() && !query.trim().is_empty() {
        root = root.child(
            communication::centered_text(
                body,
                m.dp(48.0),
                m.sp(28.0),
                tr(sys, "search_nothing_found"),
                text_style(16.0, p.secondary_text),
            )
            .id(id("empty_search")),
        );
    }
    root.child(
        View::new(class::RECYCLER_VIEW, body)
            .id(id("list"))
            .scrollable("results")
            .children(rows),
    )
}

fn render_my_places(sys: &System, tab: Tab) -> View {
    let m = sys.metrics;
    let p = palette(sys);
    let c = m.content;
    let toolbar = communication::toolbar(
        sys,
        c,
        PACKAGE,
        tr(sys, "shared_string_my_places"),
        Some(("places_back", tr(sys, "shared_string_back"))),
    );
    let tabs_band = Bounds::new(c.left, c.top + m.dp(64.0), c.right, c.top + m.dp(112.0));
    let tabs: Vec<View> = columns(tabs_band, 3)
        .into_iter()
        .zip([
            (
                Tab::Favorites,
                "shared_string_my_favorites",
                "tab:favorites",
            ),
            (Tab::Markers, "map_markers", "tab:markers"),
            (Tab::Tracks, "shared_string_tracks", "tab:tracks"),
        ])
        .map(|(b, (t, name, tag))| {
            View::new(class::TEXT_VIEW, b)
                .text(tr(sys, name))
                .on_click(tag)
                .selected(t == tab)
                .style(Style {
                    text_color: Some(if t == tab { ACCENT } else { p.secondary_text }),
                    text_size_sp: Some(14.0),
                    center_text: true,
                    bold: t == tab,
                    ..Style::default()
                })
        })
        .collect();
    let items: Vec<(String, String)> = match tab {
        Tab::Favorites => store::favorites(sys)
            .into_iter()
            .map(|f| (f.name, format!("{:.5}, {:.5}", f.lat, f.lon)))
            .collect(),
        Tab::Markers => store::open_markers(sys)
            .and_then(|db| store::markers(&db))
            .unwrap_or_default()
            .into_iter()
            .map(|f| (f.name, format!("{:.5}, {:.5}", f.lat, f.lon)))
            .collect(),
        Tab::Tracks => store::tracks(sys)
            .into_iter()
            .map(|name| (name, String::new()))
            .collect(),
    };
    let body = Bounds::new(c.left, tabs_band.bottom, c.right, c.bottom);
    let row_height = m.dp(72.0);
    let rows: Vec<View> = items
        .iter()
        .enumerate()
        .map(|(i, (title, subtitle))| {
            communication::two_line_row(
                sys,
                communication::row_bounds(body, body.top, row_height, i),
                (&id("title"), &id("description")),
                title,
                subtitle,
                &format!("item:{i}"),
            )
        })
        .collect();
    let mut root = communication::root(sys).child(toolbar).children(tabs);
    if items.is_empty() {
        root = root.child(communication::centered_text(
            body,
            m.dp(48.0),
            m.sp(28.0),
            tr(sys, "no_items"),
            text_style(16.0, p.secondary_text),
        ));
    }
    root.child(
        View::new(class::RECYCLER_VIEW, body)
            .id(id("recycler_view"))
            .scrollable("places")
            .children(rows),
    )
}

fn render_dialog(sys: &System, dialog: &Dialog) -> View {
    let m = &sys.metrics;
    let (title, text, field_id, tag, hint, error) = match dialog {
        Dialog::AddFavorite { name } => (
            tr(sys, "favourites_edit_dialog_title"),
            name.as_str(),
            "name_edit",
            "favorite_name",
            tr(sys, "shared_string_name"),
            None,
        ),
        Dialog::SaveTrack { name, error } => (
            tr(sys, "save_as_new_track"),
            name.as_str(),
            "name_edit_text",
            "track_name",
            tr(sys, "file_name"),
            error.as_deref(),
        ),
        Dialog::Menu => return render_menu(sys),
    };
    let card = dialog_card(m, m.dp(if error.is_some() { 280.0 } else { 240.0 }));
    let mut rows = Rows::new(inset(card, m.dp(24.0)));
    let mut v = vec![
        label(rows.take(m.sp(32.0)), title, 20.0).id("android:id/alertTitle"),
        View::new(class::EDIT_TEXT, rows.take(m.dp(56.0)))
            .id(id(field_id))
            .text(text)
            .hint(hint)
            .editable(tag)
            .style(text_style(18.0, palette(sys).on_surface)),
    ];
    if let Some(e) = error {
        v.push(
            View::new(class::TEXT_VIEW, rows.take(m.sp(32.0)))
                .id(id("error_text"))
                .text(e)
                .style(text_style(14.0, [211, 47, 47, 255])),
        );
    }
    rows.take(m.dp(16.0));
    let cols = columns(rows.take(m.dp(48.0)), 4);
    v.push(
        button(cols[2], tr(sys, "shared_string_cancel"), "dialog_cancel").id("android:id/button2"),
    );
    v.push(button(cols[3], tr(sys, "shared_string_save"), "dialog_save").id("android:id/button1"));
    with_card_children(dialog_frame(m, card), v)
}

//! Pixel Launcher (com.google.android.apps.nexuslauncher): the home screen (a grid of the apps
//! marked `on_home_screen` over the wallpaper, the hotseat search pill) and the all-apps drawer
//! (every installed app sorted by label, with a search box that filters them). Tapping an icon asks
//! the framework to launch the app. Resource ids follow the real launcher (`workspace`, `hotseat`,
//! `apps_view`, `apps_list_view`, `search_container_all_apps`, `icon`).
//!
//! The drawer opens from the `all_apps_handle` arrow, the hotseat search pill or a swipe up on the
//! home screen (the framework's `swipe:up`); a swipe down in the drawer closes it.

use crate::app::{swipe, App, AppInfo, UiEvent};
use crate::apps::widgets;
use crate::locale;
use crate::render::text;
use crate::system::{Request, System};
use crate::view::{class, Metrics, Role, Style, View};
use droidmcp_geom::Bounds;

pub const PACKAGE: &str = "com.google.android.apps.nexuslauncher";
const ACTIVITY: &str = "com.google.android.apps.nexuslauncher.NexusLauncherActivity";
const ID: &str = "com.google.android.apps.nexuslauncher:id/";

const WHITE: [u8; 4] = [0xFF, 0xFF, 0xFF, 0xFF];

pub mod home;

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |_| Box::new(Screen::default()),
        install: |_| {},
        on_home_screen: false,
    }
}

/// The icon the renderer draws for an app, by package.
fn icon_for(package: &str) -> &'static str {
    match package {
        p if p.contains("deskclock") => "clock",
        p if p.contains("calculator") => "calculator",
        p if p.contains("calendar") => "calendar",
        p if p.contains("dialer") => "call",
        p if p.contains("contacts") => "person",
        p if p.contains("messaging") || p.contains("mms") || p.contains("smsmessenger") => {
            "message"
        }
        "com.android.settings" => "settings",
        "net.osmand" => "location",
        // An unknown name makes the renderer draw the label's initial.
        _ => "app",
    }
}

#[derive(Clone, Default)]
struct Screen {
    drawer_open: bool,
    query: String,
}

/// An app as the launcher lists it.
struct Entry {
    package: &'static str,
    label: &'static str,
}

fn entries(sys: &System) -> Vec<Entry> {
    super::catalog()
        .into_iter()
        .filter(|a| a.package != PACKAGE)
        .map(|a| Entry {
            package: a.package,
            label: a.label(&sys.locale),
        })
        .collect()
}

/// One app icon (BubbleTextView): the icon over the label, text and content-desc both the label.
fn icon_view(e: &Entry, cell: Bounds, id: Option<&str>, on_wallpaper: bool, icon_px: i32) -> View {
    let mut v = View::new(class::TEXT_VIEW, cell)
        .text(e.label)
        .desc(e.label)
        .on_click(format!("launch:{}", e.package))
        .long_clickable()
        .style(Style {
            icon: Some(icon_for(e.package)),
            icon_px: Some(icon_px),
            text_size_sp: Some(12.0),
            text_color: on_wallpaper.then_some(WHITE),
            text_role: Some(Role::Primary),
            center_text: true,
            ..Style::default()
        });
    if let Some(id) = id {
        v = v.id(format!("{ID}{id}"));
    }
    v
}

/// A grid of `columns` × `rows` cells over `area`, laid out from the left; the framework mirrors
/// the whole window in right-to-left locales, so cell 0 ends up at the reading direction's start.
struct Grid {
    area: Bounds,
    columns: i32,
    cell_h: i32,
}

impl Grid {
    fn cell(&self, col: i32, row: i32) -> Bounds {
        let cell_w = self.area.width() / self.columns.max(1);
        let left = self.area.left + col * cell_w;
        let top = self.area.top + row * self.cell_h;
        Bounds::new(left, top, left + cell_w, top + self.cell_h)
    }

    /// Launcher3 sizes icons to the cell: a little over half its smaller side, at most 60dp.
    fn icon_px(&self, m: &Metrics) -> i32 {
        let cell_w = self.area.width() / self.columns.max(1);
        (cell_w.min(self.cell_h) * 11 / 20).min(m.dp(60.0))
    }
}

fn columns(m: &Metrics) -> i32 {
    // Four columns on phones, more on wide screens (the tablet profile), as Launcher3's grid does.
    ((m.content.width() as f32 / m.density) / 100.0)
        .floor()
        .clamp(4.0, 8.0) as i32
}

impl Screen {
    fn home(&self, sys: &System) -> View {
        let m = &sys.metrics;
        let c = m.content;
        let pad = m.dp(16.0);
        let layout = home::load(sys, &super::catalog(), columns(m));
        let date = locale::format_date(
            sys.clock.now().date(),
            &sys.locale,
            locale::DateStyle::MonthDayWeekday,
        );
        let mut root = View::new(class::FRAME_LAYOUT, c)
            .id(format!("{ID}drag_layer"))
            .style(Style {
                wallpaper: Some(home::wallpaper(sys)),
                ..Style::default()
            });
        let inner = Bounds::new(c.left + pad, c.top, c.right - pad, c.bottom);
        let pill_h = m.dp(72.0);
        let dock_h = if layout.hotseat > 0 { m.dp(88.0) } else { 0 };
        let hotseat_h = pill_h + dock_h;
        let workspace = Bounds::new(c.left, c.top, c.right, c.bottom - hotseat_h);
        let handle = m.dp(48.0);
        let grid = Grid {
            area: Bounds::new(
                inner.left,
                workspace.top,
                inner.right,
                workspace.bottom - handle,
            ),
            columns: layout.columns,
            cell_h: (workspace.height() - handle) / layout.rows.max(1),
        };
        let dock = Grid {
            area: Bounds::new(
                inner.left,
                workspace.bottom,
                inner.right,
                workspace.bottom + dock_h,
            ),
            columns: layout.hotseat.max(1),
            cell_h: dock_h,
        };
        let apps = entries(sys);
        let entry = |package: &str| apps.iter().find(|e| e.package == package);
        let mut icons = Vec::new();
        let mut docked = Vec::new();
        for f in &layout.favorites {
            let Some(e) = entry(&f.package) else { continue };
            match f.place {
                home::Place::Workspace { col, row }
                    if (0..layout.columns).contains(&col) && (1..layout.rows).contains(&row) =>
                {
                    icons.push(icon_view(
                        e,
                        grid.cell(col, row),
                        None,
                        true,
                        grid.icon_px(m),
                    ));
                }
                home::Place::Hotseat { slot } if (0..layout.hotseat).contains(&slot) => {
                    docked.push(icon_view(
                        e,
                        dock.cell(slot, 0),
                        None,
                        true,
                        dock.icon_px(m),
                    ));
                }
                // A shortcut off the grid (a row-0 cell under the date, a slot past the dock)
                // is not shown, as Launcher3 skips items that do not fit.
                _ => {}
            }
        }
        // The date ("At a glance") spans the top row, from the reading direction's start.
        let date_row = grid.cell(0, 0);
        let date_bounds = Bounds::new(
            inner.left + m.dp(8.0),
            date_row.top + m.dp(16.0),
            inner.right,
            date_row.top + m.dp(72.0),
        );
        let date_style = text::TextStyle {
            size_px: m.sp(22.0) as f32,
            color: WHITE,
            bold: false,
            center: false,
            rtl: false,
        };
        let date_w =
            (text::measure(&date, &date_style).ceil() as i32 + m.dp(8.0)).min(date_bounds.width());
        let date_bounds = Bounds::new(
            date_bounds.left,
            date_bounds.top,
            date_bounds.left + date_w,
            date_bounds.bottom,
        );
        root = root.child(
            View::new(class::FRAME_LAYOUT, workspace)
                .id(format!("{ID}workspace"))
                .child(
                    View::new(class::TEXT_VIEW, date_bounds)
                        .id(format!("{ID}date"))
                        .text(date.clone())
                        .desc(date)
                        .style(Style {
                            text_size_sp: Some(22.0),
                            text_color: Some(WHITE),
                            ..Style::default()
                        }),
                )
                .child(View::new(class::VIEW_GROUP, workspace).children(icons)),
        );
        let hy = workspace.bottom - handle;
        let cx = (c.left + c.right) / 2;
        root = root.child(
            View::new(
                class::IMAGE_VIEW,
                Bounds::new(cx - handle / 2, hy, cx + handle / 2, hy + handle),
            )
            .id(format!("{ID}all_apps_handle"))
            .desc(locale::string(
                &sys.locale,
                PACKAGE,
                "all_apps_button_label",
            ))
            .on_click("all_apps")
            .style(Style {
                icon: Some("collapse"),
                text_color: Some(WHITE),
                ..Style::default()
            }),
        );
        let hotseat = Bounds::new(c.left, workspace.bottom, c.right, c.bottom);
        let pill = Bounds::new(
            hotseat.left + m.dp(24.0),
            hotseat.bottom - pill_h + m.dp(12.0),
            hotseat.right - m.dp(24.0),
            hotseat.bottom - m.dp(12.0),
        );
        let icon = m.dp(24.0);
        let it = pill.top + (pill.height() - icon) / 2;
        let icon_left = pill.left + m.dp(16.0);
        root.child(
            View::new(class::FRAME_LAYOUT, hotseat)
                .id(format!("{ID}hotseat"))
                .children(docked)
                .child(
                    View::new(class::FRAME_LAYOUT, pill)
                        .id(format!("{ID}search_container_hotseat"))
                        .desc(locale::string(&sys.locale, PACKAGE, "search_bar_label"))
                        .on_click("search")
                        .style(Style {
                            background: Some([0xFF, 0xFF, 0xFF, 0xE6]),
                            corner_radius: pill.height() / 2,
                            ..Style::default()
                        })
                        .child(
                            View::new(
                                class::IMAGE_VIEW,
                                Bounds::new(icon_left, it, icon_left + icon, it + icon),
                            )
                            .style(Style {
                                icon: Some("search"),
                                text_color: Some([0x44, 0x47, 0x46, 0xFF]),
                                ..Style::default()
                            }),
                        ),
                ),
        )
    }

    fn drawer(&self, sys: &System) -> View {
        let m = &sys.metrics;
        let c = m.content;
        let pad = m.dp(16.0);
        let bar = Bounds::new(
            c.left + pad,
            c.top + m.dp(16.0),
            c.right - pad,
            c.top + m.dp(72.0),
        );
        let mut apps = entries(sys);
        apps.sort_by_key(|e| e.label.to_lowercase());
        let q = self.query.trim().to_lowercase();
        if !q.is_empty() {
            apps.retain(|e| e.label.to_lowercase().contains(&q));
        }
        let list_area = Bounds::new(
            c.left + pad,
            bar.bottom + m.dp(16.0),
            c.right - pad,
            c.bottom,
        );
        let grid = Grid {
            area: list_area,
            columns: columns(m),
            cell_h: m.dp(104.0),
        };
        let icon_px = m.dp(56.0).min(grid.icon_px(m));
        let icons: Vec<View> = apps
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let (col, row) = (i as i32 % grid.columns, i as i32 / grid.columns);
                icon_view(e, grid.cell(col, row), Some("icon"), false, icon_px)
            })
            .collect();
        View::new(class::FRAME_LAYOUT, c)
            .id(format!("{ID}apps_view"))
            .style(Style {
                background_role: Some(Role::Surface),
                ..Style::default()
            })
            .child(widgets::search_pill(
                m,
                bar,
                format!("{ID}search_container_all_apps"),
                |text_area| {
                    View::new(class::EDIT_TEXT, text_area)
                        .id(format!("{ID}search_box_input"))
                        .text(self.query.clone())
                        .hint(locale::string(
                            &sys.locale,
                            PACKAGE,
                            "all_apps_search_bar_hint",
                        ))
                        .editable("search_box")
                        .style(Style {
                            // The pill is the field's background, so no underline.
                            background: Some([0, 0, 0, 0]),
                            text_size_sp: Some(16.0),
                            ..Style::default()
                        })
                },
            ))
            .child(
                View::new(class::RECYCLER_VIEW, list_area)
                    .id(format!("{ID}apps_list_view"))
                    .scrollable("apps_list_view")
                    .children(icons),
            )
    }

    fn open_drawer(&mut self, sys: &mut System) {
        self.drawer_open = true;
        sys.request(Request::ResetScroll {
            tag: "apps_list_view".into(),
        });
    }

    fn close_drawer(&mut self, sys: &mut System) {
        self.drawer_open = false;
        self.query.clear();
        sys.request(Request::ClearFocus);
    }
}

impl App for Screen {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        ACTIVITY.to_string()
    }

    fn render(&self, sys: &System) -> View {
        if self.drawer_open {
            self.drawer(sys)
        } else {
            self.home(sys)
        }
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            // Swiping up on the home screen opens the drawer, as the arrow does; swiping down in
            // the drawer (past its list, which scrolls first) closes it.
            UiEvent::Click(tag) if tag == "all_apps" || (tag == swipe::UP && !self.drawer_open) => {
                self.open_drawer(sys);
                true
            }
            UiEvent::Click(tag) if tag == swipe::DOWN && self.drawer_open => {
                self.close_drawer(sys);
                true
            }
            UiEvent::Click(tag) if tag == "search" => {
                self.open_drawer(sys);
                sys.request(Request::Focus {
                    tag: "search_box".into(),
                });
                true
            }
            UiEvent::Click(tag) if tag == "search_box" => {
                sys.request(Request::Focus {
                    tag: "search_box".into(),
                });
                true
            }
            UiEvent::Click(tag) => match tag.strip_prefix("launch:") {
                Some(package) => {
                    sys.request(Request::Launch {
                        package: package.to_string(),
                        intent: None,
                    });
                    if self.drawer_open {
                        self.close_drawer(sys);
                    }
                    true
                }
                None => false,
            },
            UiEvent::TextChanged { tag, text } if tag == "search_box" => {
                self.query = text.clone();
                true
            }
            UiEvent::EditorAction(tag) if tag == "search_box" => {
                // ENTER launches the first match, as the launcher's search does.
                let q = self.query.trim().to_lowercase();
                let mut apps = entries(sys);
                apps.sort_by_key(|e| e.label.to_lowercase());
                if let Some(first) = apps
                    .iter()
                    .find(|e| !q.is_empty() && e.label.to_lowercase().contains(&q))
                {
                    sys.request(Request::Launch {
                        package: first.package.to_string(),
                        intent: None,
                    });
                    self.close_drawer(sys);
                }
                true
            }
            // Back closes the drawer; on the home screen it does nothing (the launcher never finishes).
            UiEvent::Back => {
                if self.drawer_open {
                    self.close_drawer(sys);
                }
                true
            }
            _ => false,
        }
    }
}

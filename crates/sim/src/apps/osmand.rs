//! OsmAnd (`net.osmand`, MapActivity as AndroidWorld starts it): an offline map of Liechtenstein
//! ([`places`]) drawn by the phone's renderer, search by place name or "lat, lon", a place's
//! context menu with Favorite and Marker, "Plan a route" that adds points in order and saves
//! them as a GPX track, and the My places lists (favourites, markers, tracks).
//!
//! The app keeps what it shows on the map (centre, zoom, the open card, the route being planned);
//! what it saves lives where AndroidWorld reads it ([`store`]): favourites.gpx, map_markers_db
//! and the tracks folder, so adb and the app see the same data.

mod map;
mod places;
mod screens;
mod store;

pub use places::{Place, PLACES};

use crate::app::{swipe, App, AppInfo, UiEvent};
use crate::locale;
use crate::system::{Request, System};
use crate::view::View;

pub const PACKAGE: &str = "net.osmand";
pub const ACTIVITY: &str = "net.osmand.plus.activities.MapActivity";
const PID: u32 = 3623;
const LOG_TAG: &str = "OsmAnd";
/// Zoom levels the map offers (the country fills the screen at the first view's).
const MIN_ZOOM: i32 = 8;
const MAX_ZOOM: i32 = 17;
const HOME_ZOOM: i32 = 11;
/// The zoom a place opens at.
const PLACE_ZOOM: i32 = 13;

fn tr(sys: &System, name: &'static str) -> &'static str {
    locale::string(&sys.locale, PACKAGE, name)
}

fn id(name: &str) -> String {
    format!("{PACKAGE}:id/{name}")
}

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |sys| Box::new(OsmAnd::created(sys)),
        install,
        on_home_screen: false,
    }
}

/// First boot and `pm clear`: the app's folders (Android clears an app's external files with its
/// data) and an empty markers database.
fn install(sys: &mut System) {
    if let Some(h) = sys.host_path(store::FILES) {
        let _ = std::fs::remove_dir_all(h);
    }
    if let Err(e) = store::install(sys) {
        sys.log(PID, 'E', LOG_TAG, format!("install: {e}"));
    }
}

/// A point search found or the user picked: a named place or typed coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct Spot {
    pub name: String,
    /// The line under the name: the place's type and country, or "Location".
    pub detail: String,
    pub lat: f64,
    pub lon: f64,
}

impl Spot {
    fn of_place(p: &Place) -> Spot {
        Spot {
            name: p.name.to_string(),
            detail: format!("{} • {}", p.kind, places::COUNTRY),
            lat: p.lat,
            lon: p.lon,
        }
    }

    fn point(&self) -> store::Point {
        store::Point {
            name: self.name.clone(),
            lat: self.lat,
            lon: self.lon,
        }
    }

    /// "47.06888, 9.50616": the coordinates as the context menu shows them.
    pub fn coords(&self) -> String {
        format!("{:.5}, {:.5}", self.lat, self.lon)
    }
}

/// What search is for: showing a place, or adding a point to the route being planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Explore,
    RoutePoint,
}

/// The My places tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Favorites,
    Markers,
    Tracks,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Screen {
    Map,
    Search { query: String, purpose: Purpose },
    MyPlaces(Tab),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Dialog {
    /// The side menu over the map.
    Menu,
    AddFavorite {
        name: String,
    },
    SaveTrack {
        name: String,
        error: Option<String>,
    },
}

#[derive(Debug, Clone)]
pub struct OsmAnd {
    pub center: (f64, f64),
    pub zoom: i32,
    pub screen: Screen,
    /// The context menu of a place, over the map.
    pub card: Option<Spot>,
    /// The route being planned ("Plan a route" open), its points in order.
    pub plan: Option<Vec<Spot>>,
    pub dialog: Option<Dialog>,
    /// A short confirmation over the map (a snackbar), until the next action.
    pub note: Option<&'static str>,
}

impl OsmAnd {
    fn created(sys: &mut System) -> Self {
        // A process started after `rm -rf tracks/*` or a push finds its folders again.
        if let Err(e) = store::install(sys) {
            sys.log(PID, 'E', LOG_TAG, format!("start: {e}"));
        }
        OsmAnd {
            center: places::HOME,
            zoom: HOME_ZOOM,
            screen: Screen::Map,
            card: None,
            plan: None,
            dialog: None,
            note: None,
        }
    }

    fn focus(sys: &mut System, tag: &str) {
        sys.request(Request::Focus {
            tag: tag.to_string(),
        });
    }

    /// What a search shows: typed coordinates first, then the places whose names match.
    pub fn results(query: &str) -> Vec<Spot> {
        let mut out = Vec::new();
        if let Some((lat, lon)) = places::parse_coords(query) {
            out.push(Spot {
                name: format!("{lat}, {lon}"),
                detail: "Location".to_string(),
                lat,
                lon,
            });
        }
        out.extend(places::search(query).iter().map(Spot::of_place));
        out
    }

    fn open_search(&mut self, sys: &mut System, purpose: Purpose) {
        self.screen = Screen::Search {
            query: String::new(),
            purpose,
        };
        self.dialog = None;
        Self::focus(sys, "search");
    }

    /// Pan by a share of the screen (a swipe moves the map with the finger).
    fn pan(&mut self, sys: &System, dx_screens: f64, dy_screens: f64) {
        let c = sys.metrics.content;
        let view = map::Projection::new(self.center, self.zoom, c, sys.metrics.density);
        let (dlat, dlon) = view.degrees(
            c.width() as f64 * dx_screens,
            c.height() as f64 * dy_screens,
        );
        self.center = (
            (self.center.0 + dlat).clamp(-85.0, 85.0),
            (self.center.1 + dlon).clamp(-180.0, 180.0),
        );
    }

    fn handle_map(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Back if self.card.is_some() => self.card = None,
            UiEvent::Back if self.plan.is_some() => self.plan = None,
            UiEvent::Back => return false,
            UiEvent::Click(t) if t == "zoom_in" => self.zoom = (self.zoom + 1).min(MAX_ZOOM),
            UiEvent::Click(t) if t == "zoom_out" => self.zoom = (self.zoom - 1).max(MIN_ZOOM),
            UiEvent::Click(t) if t == "search" => self.open_search(sys, Purpose::Explore),
            UiEvent::Click(t) if t == "menu" => self.dialog = Some(Dialog::Menu),
            UiEvent::Click(t) if t == swipe::LEFT => self.pan(sys, 0.33, 0.0),
            UiEvent::Click(t) if t == swipe::RIGHT => self.pan(sys, -0.33, 0.0),
            UiEvent::Click(t) if t == swipe::UP => self.pan(sys, 0.0, 0.33),
            UiEvent::Click(t) if t == swipe::DOWN => self.pan(sys, 0.0, -0.33),
            UiEvent::Click(t) if t == "card_close" => self.card = None,
            UiEvent::Click(t) if t == "card_favorite" => {
                let name = self
                    .card
                    .as_ref()
                    .map(|s| s.name.clone())
                    .unwrap_or_default();
                self.dialog = Some(Dialog::AddFavorite { name });
                Self::focus(sys, "favorite_name");
            }
            UiEvent::Click(t) if t == "card_marker" => {
                let Some(spot) = self.card.clone() else {
                    return false;
                };
                let added = sys.now_millis();
                let result = store::open_markers(sys)
                    .and_then(|db| store::add_marker(&db, &spot.point(), added));
                match result {
                    Ok(()) => self.note = Some("marker_added"),
                    Err(e) => sys.log(PID, 'E', LOG_TAG, format!("add marker: {e}")),
                }
            }
            UiEvent::Click(t) if t == "plan_add" => self.open_search(sys, Purpose::RoutePoint),
            UiEvent::Click(t) if t == "plan_undo" => {
                if let Some(plan) = self.plan.as_mut() {
                    plan.pop();
                }
            }
            UiEvent::Click(t) if t == "plan_cancel" => self.plan = None,
            UiEvent::Click(t) if t == "plan_save" => {
                if self.plan.as_ref().is_some_and(|p| p.len() >= 2) {
                    self.dialog = Some(Dialog::SaveTrack {
                        name: store::default_track_name(sys.now_millis()),
                        error: None,
                    });
                    Self::focus(sys, "track_name");
                }
            }
            _ => return false,
        }
        true
    }

    fn handle_search(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let Screen::Search { query, purpose } = &mut self.screen else {
            return false;
        };
        let purpose = *purpose;
        let pick = |tag: &str, query: &str| {
            let i: usize = tag.strip_prefix("result:")?.parse().ok()?;
            Self::results(query).into_iter().nth(i)
        };
        match event {
            UiEvent::Back => {}
            UiEvent::Click(t) if t == "search_back" => {}
            UiEvent::TextChanged { tag, text } if tag == "search" => {
                *query = text.clone();
                return true;
            }
            UiEvent::Click(t) if t == "search" || t == "search_clear" => {
                if t == "search_clear" {
                    query.clear();
                }
                return true;
            }
            // ENTER opens the first result, as OsmAnd's search does.
            UiEvent::EditorAction(t) if t == "search" => {
                let Some(spot) = Self::results(query).into_iter().next() else {
                    return true;
                };
                self.picked(spot, purpose);
            }
            UiEvent::Click(t) if t.starts_with("result:") => {
                let Some(spot) = pick(t, query) else {
                    return false;
                };
                self.picked(spot, purpose);
            }
            _ => return false,
        }
        self.screen = Screen::Map;
        sys.request(Request::ClearFocus);
        true
    }

    fn picked(&mut self, spot: Spot, purpose: Purpose) {
        self.center = (spot.lat, spot.lon);
        match purpose {
            Purpose::Explore => {
                self.zoom = self.zoom.max(PLACE_ZOOM);
                self.card = Some(spot);
            }
            Purpose::RoutePoint => self.plan.get_or_insert_with(Vec::new).push(spot),
        }
        self.screen = Screen::Map;
    }

    fn handle_my_places(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        match event {
            UiEvent::Back => self.screen = Screen::Map,
            UiEvent::Click(t) if t == "places_back" => self.screen = Screen::Map,
            UiEvent::Click(t) if t == "tab:favorites" => {
                self.screen = Screen::MyPlaces(Tab::Favorites)
            }
            UiEvent::Click(t) if t == "tab:markers" => self.screen = Screen::MyPlaces(Tab::Markers),
            UiEvent::Click(t) if t == "tab:tracks" => self.screen = Screen::MyPlaces(Tab::Tracks),
            UiEvent::Click(t) if t.starts_with("item:") => {
                let Screen::MyPlaces(tab) = self.screen else {
                    return false;
                };
                let i: usize = t["item:".len()..].parse().unwrap_or(usize::MAX);
                let point = match tab {
                    Tab::Favorites => store::favorites(sys).into_iter().nth(i),
                    Tab::Markers => store::open_markers(sys)
                        .and_then(|db| store::markers(&db))
                        .ok()
                        .and_then(|m| m.into_iter().nth(i)),
                    Tab::Tracks => None,
                };
                if let Some(p) = point {
                    self.center = (p.lat, p.lon);
                    self.zoom = self.zoom.max(PLACE_ZOOM);
                    self.card = Some(Spot {
                        detail: tr(sys, "location").to_string(),
                        name: p.name,
                        lat: p.lat,
                        lon: p.lon,
                    });
                    self.screen = Screen::Map;
                }
            }
            _ => return false,
        }
        true
    }

    fn handle_dialog(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        let cancel = matches!(event, UiEvent::Back)
            || matches!(event, UiEvent::Click(t) if t == "dialog_cancel" || t == "menu_scrim");
        if cancel {
            self.dialog = None;
            sys.request(Request::ClearFocus);
            return true;
        }
        let Some(dialog) = self.dialog.as_mut() else {
            return false;
        };
        match (dialog, event) {
            (Dialog::Menu, UiEvent::Click(t)) => {
                match t.as_str() {
                    "menu:search" => {
                        self.open_search(sys, Purpose::Explore);
                        return true;
                    }
                    "menu:plan" => {
                        self.card = None;
                        self.plan = Some(Vec::new());
                    }
                    "menu:favorites" => self.screen = Screen::MyPlaces(Tab::Favorites),
                    "menu:markers" => self.screen = Screen::MyPlaces(Tab::Markers),
                    "menu:tracks" => self.screen = Screen::MyPlaces(Tab::Tracks),
                    _ => return false,
                }
                self.dialog = None;
            }
            (Dialog::AddFavorite { name }, UiEvent::TextChanged { tag, text })
                if tag == "favorite_name" =>
            {
                *name = text.clone();
            }
            (Dialog::AddFavorite { name }, UiEvent::Click(t)) if t == "dialog_save" => {
                let Some(spot) = self.card.clone() else {
                    self.dialog = None;
                    return true;
                };
                let name = match name.trim() {
                    "" => spot.name.clone(),
                    n => n.to_string(),
                };
                let point = store::Point {
                    name,
                    ..spot.point()
                };
                match store::add_favorite(sys, point) {
                    Ok(()) => self.note = Some("favorite_added"),
                    Err(e) => sys.log(PID, 'E', LOG_TAG, format!("add favorite: {e}")),
                }
                self.dialog = None;
                sys.request(Request::ClearFocus);
            }
            (Dialog::SaveTrack { name, error }, UiEvent::TextChanged { tag, text })
                if tag == "track_name" =>
            {
                *name = text.clone();
                *error = None;
            }
            (Dialog::SaveTrack { name, error }, UiEvent::Click(t)) if t == "dialog_save" => {
                let file = name.trim().to_string();
                if file.is_empty() || !crate::apps::storage::valid_name(&file) {
                    *error = Some(tr(sys, "file_name_empty").to_string());
                    return true;
                }
                if crate::apps::storage::exists(sys, &store::track_path(&file)) {
                    *error = Some(tr(sys, "file_exists").to_string());
                    return true;
                }
                let points: Vec<store::Point> =
                    self.plan.iter().flatten().map(Spot::point).collect();
                match store::save_track(sys, &file, &points) {
                    Ok(_) => {
                        self.plan = None;
                        self.note = Some("track_saved");
                        self.dialog = None;
                        sys.request(Request::ClearFocus);
                    }
                    Err(e) => *error = Some(e.to_string()),
                }
            }
            (_, UiEvent::Click(t)) if t == "favorite_name" || t == "track_name" => {}
            _ => return false,
        }
        true
    }
}

impl App for OsmAnd {
    fn package(&self) -> &'static str {
        PACKAGE
    }

    fn activity(&self) -> String {
        ACTIVITY.to_string()
    }

    fn render(&self, sys: &System) -> View {
        screens::render(sys, self)
    }

    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool {
        // A confirmation shows until the next thing the user does.
        self.note = None;
        if self.dialog.is_some() {
            return self.handle_dialog(event, sys);
        }
        match self.screen {
            Screen::Map => self.handle_map(event, sys),
            Screen::Search { .. } => self.handle_search(event, sys),
            Screen::MyPlaces(_) => self.handle_my_places(event, sys),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_offers_typed_coordinates_before_places() {
        let r = OsmAnd::results("47.0688832, 9.5061564");
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].lat, r[0].lon), (47.0688832, 9.5061564));
        let r = OsmAnd::results("Malbun, Liechtenstein");
        assert_eq!(r[0].name, "Malbun");
        assert_eq!(r[0].coords(), "47.10262, 9.60831");
    }
}

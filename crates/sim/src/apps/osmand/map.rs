//! The map view's paint: the offline Liechtenstein ([`places`]) projected onto the screen at the
//! map's centre and zoom, in OsmAnd's default day style (land, woods, the Rhine, the border, roads
//! by class, place labels), with the user's favourites, markers and the route being planned on
//! top.

use std::sync::Arc;

use super::places::{self, RoadClass};
use super::store::Point;
use crate::render::{Drawing, Shape};
use droidmcp_geom::Bounds;

type Rgba = [u8; 4];

const OUTSIDE: Rgba = [236, 233, 226, 255];
const LAND: Rgba = [248, 246, 240, 255];
const FOREST: Rgba = [205, 228, 190, 255];
const WATER: Rgba = [170, 211, 223, 255];
const BORDER: Rgba = [172, 96, 172, 170];
const LABEL: Rgba = [51, 51, 51, 255];
const HALO: Rgba = [255, 255, 255, 220];
const WHITE: Rgba = [255, 255, 255, 255];
pub const FAVORITE: Rgba = [238, 204, 34, 255];
pub const MARKER: Rgba = [228, 60, 48, 255];
pub const ROUTE: Rgba = [32, 112, 232, 255];

/// Web Mercator's scale near the map's centre: screen pixels per degree of longitude and
/// latitude at a zoom (256 dp tiles, as OsmAnd draws them at the phone's density).
#[derive(Debug, Clone, Copy)]
pub struct Projection {
    center: (f64, f64),
    origin: (f64, f64),
    px_per_lon: f64,
    px_per_lat: f64,
}

impl Projection {
    pub fn new(center: (f64, f64), zoom: i32, bounds: Bounds, density: f32) -> Projection {
        let px_per_lon = 256.0 * 2f64.powi(zoom) / 360.0 * density as f64;
        Projection {
            center,
            origin: (
                (bounds.left + bounds.right) as f64 / 2.0,
                (bounds.top + bounds.bottom) as f64 / 2.0,
            ),
            px_per_lon,
            px_per_lat: px_per_lon / center.0.to_radians().cos().max(0.05),
        }
    }

    /// Screen pixels of a (lat, lon).
    pub fn xy(&self, lat: f64, lon: f64) -> (f32, f32) {
        (
            (self.origin.0 + (lon - self.center.1) * self.px_per_lon) as f32,
            (self.origin.1 - (lat - self.center.0) * self.px_per_lat) as f32,
        )
    }

    /// Degrees (lat, lon) a move of (dx, dy) pixels on screen spans (y grows southwards).
    pub fn degrees(&self, dx: f64, dy: f64) -> (f64, f64) {
        (-dy / self.px_per_lat, dx / self.px_per_lon)
    }

    fn path(&self, points: &[(f64, f64)]) -> Vec<(f32, f32)> {
        points.iter().map(|&(lat, lon)| self.xy(lat, lon)).collect()
    }
}

/// What the map shows beside the country itself.
pub struct Overlays<'a> {
    pub favorites: &'a [Point],
    pub markers: &'a [Point],
    pub route: &'a [Point],
    /// The place whose card is open.
    pub selected: Option<(f64, f64)>,
}

/// The map's paint for `bounds`.
pub fn drawing(
    center: (f64, f64),
    zoom: i32,
    bounds: Bounds,
    density: f32,
    overlays: &Overlays,
) -> Arc<Drawing> {
    let p = Projection::new(center, zoom, bounds, density);
    let dp = |v: f32| v * density;
    // Lines thicken with the zoom as OsmAnd's style widens roads.
    let z = (zoom - 11).clamp(-3, 6) as f32;
    let road_width = |base: f32| dp((base * (1.0 + 0.35 * z)).max(1.0));
    let frame = [
        (bounds.left as f32, bounds.top as f32),
        (bounds.right as f32, bounds.top as f32),
        (bounds.right as f32, bounds.bottom as f32),
        (bounds.left as f32, bounds.bottom as f32),
    ];
    let mut shapes = vec![
        Shape::Area {
            points: frame.to_vec(),
            color: OUTSIDE,
        },
        Shape::Area {
            points: p.path(places::BORDER),
            color: LAND,
        },
        Shape::Area {
            points: p.path(places::FOREST),
            color: FOREST,
        },
        Shape::Line {
            points: p.path(places::RHINE),
            width: road_width(5.0),
            color: WATER,
        },
    ];
    let mut border = p.path(places::BORDER);
    border.extend(border.first().copied());
    shapes.push(Shape::Line {
        points: border,
        width: dp(2.0),
        color: BORDER,
    });
    // Casings first, then fills, minor roads under major ones.
    for class in [RoadClass::Minor, RoadClass::Secondary, RoadClass::Main] {
        let (fill, casing, base) = match class {
            RoadClass::Main => ([252, 196, 130, 255], [214, 140, 80, 255], 4.0),
            RoadClass::Secondary => ([246, 244, 172, 255], [190, 180, 110, 255], 3.0),
            RoadClass::Minor => (WHITE, [190, 186, 180, 255], 2.2),
        };
        let roads: Vec<_> = places::ROADS.iter().filter(|r| r.class == class).collect();
        for r in &roads {
            shapes.push(Shape::Line {
                points: p.path(r.points),
                width: road_width(base) + dp(1.5),
                color: casing,
            });
        }
        for r in &roads {
            shapes.push(Shape::Line {
                points: p.path(r.points),
                width: road_width(base),
                color: fill,
            });
        }
    }
    if overlays.route.len() >= 2 {
        let line: Vec<(f64, f64)> = overlays.route.iter().map(|w| (w.lat, w.lon)).collect();
        shapes.push(Shape::Line {
            points: p.path(&line),
            width: dp(4.0),
            color: ROUTE,
        });
    }
    let label_size = dp(if zoom >= 13 { 15.0 } else { 13.0 });
    for place in places::PLACES {
        let (x, y) = p.xy(place.lat, place.lon);
        shapes.push(Shape::Dot {
            center: (x, y),
            radius: dp(3.0),
            color: [120, 120, 120, 255],
            ring: Some((WHITE, dp(1.0))),
        });
        shapes.push(Shape::Label {
            center: (x, y - dp(12.0)),
            text: place.name.to_string(),
            size_px: label_size,
            color: LABEL,
            halo: HALO,
            bold: place.kind == "Town",
        });
    }
    let pin = |shapes: &mut Vec<Shape>, lat: f64, lon: f64, color: Rgba, r: f32| {
        shapes.push(Shape::Dot {
            center: p.xy(lat, lon),
            radius: dp(r),
            color,
            ring: Some((WHITE, dp(2.0))),
        });
    };
    for f in overlays.favorites {
        pin(&mut shapes, f.lat, f.lon, FAVORITE, 7.0);
    }
    for m in overlays.markers {
        pin(&mut shapes, m.lat, m.lon, MARKER, 7.0);
    }
    for (i, w) in overlays.route.iter().enumerate() {
        pin(&mut shapes, w.lat, w.lon, ROUTE, 9.0);
        shapes.push(Shape::Label {
            center: p.xy(w.lat, w.lon),
            text: (i + 1).to_string(),
            size_px: dp(11.0),
            color: WHITE,
            halo: ROUTE,
            bold: true,
        });
    }
    if let Some((lat, lon)) = overlays.selected {
        let (x, y) = p.xy(lat, lon);
        shapes.push(Shape::Dot {
            center: (x, y - dp(14.0)),
            radius: dp(10.0),
            color: ROUTE,
            ring: Some((WHITE, dp(2.0))),
        });
        shapes.push(Shape::Line {
            points: vec![(x, y - dp(4.0)), (x, y)],
            width: dp(3.0),
            color: ROUTE,
        });
    }
    Arc::new(Drawing { shapes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_projects_to_the_middle_and_north_is_up() {
        let b = Bounds::new(0, 0, 1000, 2000);
        let p = Projection::new((47.1, 9.5), 12, b, 2.625);
        assert_eq!(p.xy(47.1, 9.5), (500.0, 1000.0));
        let (x, y) = p.xy(47.2, 9.6);
        assert!(x > 500.0 && y < 1000.0);
        let (dlat, dlon) = p.degrees(100.0, 0.0);
        assert!(dlat.abs() < 1e-12 && dlon > 0.0);
    }
}

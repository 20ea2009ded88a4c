//! The offline map the phone's OsmAnd carries: a small hand-drawn Liechtenstein (AndroidWorld
//! preloads the real Liechtenstein map and draws its places from it). Place names and coordinates
//! are AndroidWorld's own twelve (`osmand.py`, `_PRELOADED_MAP_LOCATIONS`); the border, the Rhine,
//! the wooded mountains and the roads between the places are our own rough sketch, not map data.
//!
//! Search reads the places by name ("Balzers", "Balzers, Liechtenstein") or as a "lat, lon" pair.

/// A named place on the map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Place {
    pub name: &'static str,
    /// What search shows under the name (OSM's place type).
    pub kind: &'static str,
    pub lat: f64,
    pub lon: f64,
}

const fn place(name: &'static str, kind: &'static str, lat: f64, lon: f64) -> Place {
    Place {
        name,
        kind,
        lat,
        lon,
    }
}

pub const COUNTRY: &str = "Liechtenstein";

/// AndroidWorld's twelve places, by name.
pub const PLACES: [Place; 12] = [
    place("Balzers", "Village", 47.0688832, 9.5061564),
    place("Bendern", "Village", 47.2122151, 9.5062101),
    place("Malbun", "Village", 47.1026191, 9.6083057),
    place("Nendeln", "Village", 47.1973857, 9.5430636),
    place("Oberplanken", "Hamlet", 47.1784977, 9.5450163),
    place("Planken", "Village", 47.1858882, 9.5452201),
    place("Rotenboden", "Hamlet", 47.1275785, 9.5387131),
    place("Ruggell", "Village", 47.23976, 9.5262837),
    place("Schaan", "Town", 47.1663432, 9.5103085),
    place("Schaanwald", "Village", 47.2165476, 9.5699984),
    place("Schönberg", "Peak", 47.1303814, 9.5930117),
    place("Triesen", "Village", 47.106997, 9.5274854),
];

/// The map's first view: the middle of the country.
pub const HOME: (f64, f64) = (47.16, 9.55);

/// The border, clockwise from the northern tip (lat, lon).
pub const BORDER: &[(f64, f64)] = &[
    (47.2705, 9.5310),
    (47.2560, 9.5570),
    (47.2400, 9.5600),
    (47.2330, 9.5820),
    (47.2240, 9.5950),
    (47.2130, 9.6150),
    (47.1970, 9.6160),
    (47.1800, 9.6150),
    (47.1600, 9.6270),
    (47.1450, 9.6330),
    (47.1250, 9.6360),
    (47.1050, 9.6290),
    (47.0850, 9.6230),
    (47.0640, 9.6070),
    (47.0560, 9.5830),
    (47.0490, 9.5500),
    (47.0520, 9.5180),
    (47.0600, 9.4890),
    (47.0800, 9.4870),
    (47.1050, 9.4950),
    (47.1350, 9.5060),
    (47.1600, 9.4900),
    (47.1850, 9.4800),
    (47.2100, 9.4880),
    (47.2350, 9.4880),
    (47.2550, 9.5040),
];

/// The Rhine along the western border, south to north.
pub const RHINE: &[(f64, f64)] = &[
    (47.0300, 9.4950),
    (47.0600, 9.4850),
    (47.0800, 9.4830),
    (47.1050, 9.4910),
    (47.1350, 9.5020),
    (47.1600, 9.4860),
    (47.1850, 9.4760),
    (47.2100, 9.4840),
    (47.2350, 9.4840),
    (47.2550, 9.5000),
    (47.2800, 9.5250),
    (47.3000, 9.5400),
];

/// The wooded mountains east of the valley.
pub const FOREST: &[(f64, f64)] = &[
    (47.2050, 9.5600),
    (47.1950, 9.6100),
    (47.1600, 9.6200),
    (47.1300, 9.6300),
    (47.0800, 9.6150),
    (47.0580, 9.5700),
    (47.0600, 9.5350),
    (47.0850, 9.5300),
    (47.1200, 9.5330),
    (47.1550, 9.5300),
    (47.1800, 9.5380),
];

/// How a road is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoadClass {
    /// The valley's main road: orange with a darker casing.
    Main,
    /// Roads between villages: yellow.
    Secondary,
    /// Mountain roads: white.
    Minor,
}

pub struct Road {
    pub class: RoadClass,
    pub points: &'static [(f64, f64)],
}

/// Roads between the places, drawn by hand between their coordinates.
pub const ROADS: &[Road] = &[
    // Balzers – Triesen – Schaan – Nendeln – Schaanwald – the Austrian border.
    Road {
        class: RoadClass::Main,
        points: &[
            (47.0550, 9.4990),
            (47.0688832, 9.5061564),
            (47.0850, 9.5140),
            (47.106997, 9.5274854),
            (47.1250, 9.5250),
            (47.1410, 9.5215),
            (47.1663432, 9.5103085),
            (47.1850, 9.5250),
            (47.1973857, 9.5430636),
            (47.2070, 9.5560),
            (47.2165476, 9.5699984),
            (47.2260, 9.6000),
        ],
    },
    // Schaan – Bendern – Ruggell and on north.
    Road {
        class: RoadClass::Secondary,
        points: &[
            (47.1663432, 9.5103085),
            (47.1900, 9.5040),
            (47.2122151, 9.5062101),
            (47.2250, 9.5150),
            (47.23976, 9.5262837),
            (47.2620, 9.5300),
        ],
    },
    // Bendern – Nendeln.
    Road {
        class: RoadClass::Secondary,
        points: &[
            (47.2122151, 9.5062101),
            (47.2060, 9.5250),
            (47.1973857, 9.5430636),
        ],
    },
    // Schaan up to Oberplanken and Planken.
    Road {
        class: RoadClass::Minor,
        points: &[
            (47.1663432, 9.5103085),
            (47.1720, 9.5300),
            (47.1784977, 9.5450163),
            (47.1858882, 9.5452201),
            (47.1973857, 9.5430636),
        ],
    },
    // Vaduz up to Rotenboden, Steg and Malbun.
    Road {
        class: RoadClass::Minor,
        points: &[
            (47.1410, 9.5215),
            (47.1330, 9.5320),
            (47.1275785, 9.5387131),
            (47.1180, 9.5500),
            (47.1120, 9.5700),
            (47.1060, 9.5900),
            (47.1026191, 9.6083057),
        ],
    },
    // Triesen up to Rotenboden.
    Road {
        class: RoadClass::Minor,
        points: &[
            (47.106997, 9.5274854),
            (47.1170, 9.5340),
            (47.1275785, 9.5387131),
        ],
    },
    // Steg to the Schönberg.
    Road {
        class: RoadClass::Minor,
        points: &[
            (47.1120, 9.5700),
            (47.1220, 9.5840),
            (47.1303814, 9.5930117),
        ],
    },
];

/// The name AndroidWorld gives a place: "Balzers, Liechtenstein".
pub fn full_name(p: &Place) -> String {
    format!("{}, {COUNTRY}", p.name)
}

/// A "lat, lon" pair in the text: exactly two numbers, as OsmAnd's search reads coordinates (and
/// AndroidWorld's `_parse_coords`); `None` unless both are in range.
pub fn parse_coords(text: &str) -> Option<(f64, f64)> {
    let numbers: Vec<f64> = text
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|s| s.chars().any(|c| c.is_ascii_digit()))
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match numbers[..] {
        [lat, lon] if lat.abs() <= 90.0 && lon.abs() <= 180.0 => Some((lat, lon)),
        _ => None,
    }
}

/// Folds case and the umlauts a user may type without ("Schonberg").
fn fold(s: &str) -> String {
    s.to_lowercase()
        .replace('ö', "o")
        .replace('ü', "u")
        .replace('ä', "a")
}

/// The places a query finds: every word of the query starts a word of the place's full name, in
/// the dataset's order.
pub fn search(query: &str) -> Vec<Place> {
    let q = fold(query);
    let words: Vec<&str> = q
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return Vec::new();
    }
    PLACES
        .iter()
        .filter(|p| {
            let name = fold(&full_name(p));
            let name_words: Vec<&str> = name
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|w| !w.is_empty())
                .collect();
            words
                .iter()
                .all(|w| name_words.iter().any(|n| n.starts_with(w)))
        })
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_finds_places_by_androidworlds_names_and_prefixes() {
        let names = |q: &str| search(q).iter().map(|p| p.name).collect::<Vec<_>>();
        assert_eq!(names("Balzers, Liechtenstein"), ["Balzers"]);
        assert_eq!(names("schaan"), ["Schaan", "Schaanwald"]);
        assert_eq!(names("Schonberg"), ["Schönberg"]);
        assert_eq!(names("Schönberg, Liechtenstein"), ["Schönberg"]);
        assert!(names("Vienna").is_empty());
        assert!(names("  ").is_empty());
    }

    #[test]
    fn coordinates_are_two_numbers() {
        assert_eq!(
            parse_coords("47.0688832, 9.5061564"),
            Some((47.0688832, 9.5061564))
        );
        assert_eq!(parse_coords("47.1 9.5"), Some((47.1, 9.5)));
        assert_eq!(parse_coords("Balzers"), None);
        assert_eq!(parse_coords("1, 2, 3"), None);
        assert_eq!(parse_coords("95, 9"), None);
    }

    #[test]
    fn every_place_lies_inside_the_border() {
        for p in PLACES {
            let mut inside = false;
            let n = BORDER.len();
            for i in 0..n {
                let (a, b) = (BORDER[i], BORDER[(i + n - 1) % n]);
                if (a.0 > p.lat) != (b.0 > p.lat)
                    && p.lon < (b.1 - a.1) * (p.lat - a.0) / (b.0 - a.0) + a.1
                {
                    inside = !inside;
                }
            }
            assert!(inside, "{} is outside the border", p.name);
        }
    }
}

//! The home-screen wallpapers, drawn procedurally: B-MoCA's thirteen by name (its authors ship
//! photos; we draw a recognisable stand-in for each from its name, so no image files are bundled and
//! every environment's home screen looks different) and the embedded phone's plain default.
//!
//! One function, [`pixel`], gives a wallpaper's colour at a point of the screen; the launcher's
//! background ([`paint`]) and the image pushed to a real device both come from it.

use image::RgbaImage;

use super::canvas::{Canvas, Rgba};
use droidmcp_geom::Bounds;

/// A wallpaper by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wallpaper {
    /// The embedded phone's own default: a flat dark blue.
    Plain,
    Default,
    Red,
    Blue,
    Paper,
    Sky,
    Doughnut,
    Food,
    Colors,
    Rainbow,
    Galaxy,
    Pyramid,
    Ocean,
    Canyon,
}

impl Wallpaper {
    /// B-MoCA's thirteen, in the order of their file names.
    pub const BMOCA: [Wallpaper; 13] = [
        Wallpaper::Default,
        Wallpaper::Red,
        Wallpaper::Blue,
        Wallpaper::Paper,
        Wallpaper::Sky,
        Wallpaper::Doughnut,
        Wallpaper::Food,
        Wallpaper::Colors,
        Wallpaper::Rainbow,
        Wallpaper::Galaxy,
        Wallpaper::Pyramid,
        Wallpaper::Ocean,
        Wallpaper::Canyon,
    ];

    /// The name B-MoCA's files use (`12_ocean`), or `plain`.
    pub fn name(self) -> &'static str {
        match self {
            Wallpaper::Plain => "plain",
            Wallpaper::Default => "00_default",
            Wallpaper::Red => "01_red",
            Wallpaper::Blue => "02_blue",
            Wallpaper::Paper => "03_paper",
            Wallpaper::Sky => "04_sky",
            Wallpaper::Doughnut => "05_doughnut",
            Wallpaper::Food => "07_food",
            Wallpaper::Colors => "08_colors",
            Wallpaper::Rainbow => "09_rainbow",
            Wallpaper::Galaxy => "10_galaxy",
            Wallpaper::Pyramid => "11_pyramid",
            Wallpaper::Ocean => "12_ocean",
            Wallpaper::Canyon => "13_canyon",
        }
    }

    /// By file name (`12_ocean`) or bare word (`ocean`), case-insensitive.
    pub fn by_name(name: &str) -> Option<Wallpaper> {
        let name = name.trim().to_ascii_lowercase();
        std::iter::once(Wallpaper::Plain)
            .chain(Wallpaper::BMOCA)
            .find(|w| {
                let full = w.name();
                full == name || full.split_once('_').is_some_and(|(_, word)| word == name)
            })
    }

    /// Whether white labels need a shadow to read on it (light wallpapers).
    pub fn is_light(self) -> bool {
        matches!(
            self,
            Wallpaper::Paper | Wallpaper::Sky | Wallpaper::Rainbow | Wallpaper::Doughnut
        )
    }
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    let t = t.clamp(0.0, 1.0);
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// A deterministic hash of a cell to [0, 1) (stars, sprinkles, paper grain).
fn hash(x: i32, y: i32) -> f32 {
    let mut h = (x as u32).wrapping_mul(0x9E37_79B1) ^ (y as u32).wrapping_mul(0x85EB_CA77);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    (h & 0xFFFF) as f32 / 65536.0
}

fn hsv(h: f32, s: f32, v: f32) -> [f32; 3] {
    let h = h.rem_euclid(1.0) * 6.0;
    let i = h.floor();
    let f = h - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    match i as i32 {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

/// The wallpaper's colour at pixel (`x`, `y`) of a `w`×`h` screen (0–1 per channel).
pub fn pixel(wallpaper: Wallpaper, x: i32, y: i32, w: i32, h: i32) -> [f32; 3] {
    let (u, v) = (x as f32 / w.max(1) as f32, y as f32 / h.max(1) as f32);
    let aspect = h.max(1) as f32 / w.max(1) as f32;
    // Distance from a centre in screen-width units, so circles stay round on any screen.
    let dist = |cx: f32, cy: f32| ((u - cx).powi(2) + ((v - cy) * aspect).powi(2)).sqrt();
    match wallpaper {
        Wallpaper::Plain => [
            0x23 as f32 / 255.0,
            0x3A as f32 / 255.0,
            0x5E as f32 / 255.0,
        ],
        Wallpaper::Default => {
            let base = mix([0.05, 0.30, 0.33], [0.20, 0.13, 0.36], v);
            let blob = (1.0 - dist(0.8, 0.25) / 0.6).max(0.0);
            let blob2 = (1.0 - dist(0.15, 0.75) / 0.5).max(0.0);
            mix(
                mix(base, [0.35, 0.62, 0.55], blob),
                [0.55, 0.40, 0.70],
                blob2,
            )
        }
        Wallpaper::Red => {
            let band = ((u + v * 0.6) * 9.0).sin() * 0.5 + 0.5;
            mix(
                [0.55, 0.04, 0.08],
                [0.85, 0.18, 0.15],
                band * (1.0 - v * 0.5),
            )
        }
        Wallpaper::Blue => mix([0.10, 0.35, 0.85], [0.02, 0.08, 0.30], v),
        Wallpaper::Paper => {
            let grain = hash(x / 3, y / 3) * 0.06 + hash(x / 17, y / 2) * 0.03;
            let c = 0.90 - grain;
            [c + 0.03, c, c - 0.08]
        }
        Wallpaper::Sky => {
            let sky = mix([0.25, 0.55, 0.92], [0.75, 0.88, 1.0], v);
            let cloud = [
                (0.25, 0.2, 0.12),
                (0.4, 0.22, 0.1),
                (0.75, 0.45, 0.14),
                (0.6, 0.47, 0.1),
            ]
            .iter()
            .map(|&(cx, cy, r)| (1.0 - dist(cx, cy) / r).clamp(0.0, 1.0))
            .fold(0.0f32, f32::max);
            mix(sky, [1.0, 1.0, 1.0], (cloud * 3.0).min(1.0))
        }
        Wallpaper::Doughnut => {
            let d = dist(0.5, 0.5);
            let pink = [0.98, 0.78, 0.84];
            if (0.17..0.40).contains(&d) {
                let sprinkle = hash(x / 12, y / 12);
                if d < 0.36 && sprinkle > 0.93 {
                    hsv(sprinkle * 7.0, 0.8, 0.95)
                } else if d < 0.36 {
                    [0.55, 0.30, 0.18]
                } else {
                    [0.86, 0.62, 0.36]
                }
            } else {
                pink
            }
        }
        Wallpaper::Food => {
            let table = mix([0.85, 0.45, 0.15], [0.60, 0.25, 0.08], v);
            let plate = dist(0.5, 0.45);
            if plate < 0.32 {
                let inner = dist(0.5, 0.45) < 0.24;
                let tomato = dist(0.42, 0.40) < 0.07 || dist(0.58, 0.50) < 0.06;
                if tomato {
                    [0.85, 0.12, 0.10]
                } else if inner {
                    [0.97, 0.93, 0.80]
                } else {
                    [0.95, 0.95, 0.95]
                }
            } else {
                table
            }
        }
        Wallpaper::Colors => hsv(u * 0.9 + (v * 6.0).floor() * 0.13, 0.75, 0.9),
        Wallpaper::Rainbow => {
            let d = dist(0.5, 1.0);
            let ring = (d - 0.45) / 0.35;
            if (0.0..1.0).contains(&ring) {
                hsv(ring * 0.8, 0.7, 1.0)
            } else {
                mix([0.55, 0.80, 1.0], [0.90, 0.96, 1.0], v)
            }
        }
        Wallpaper::Galaxy => {
            let nebula = (1.0 - dist(0.45, 0.5) / 0.55).max(0.0).powi(2);
            let base = mix([0.02, 0.02, 0.08], [0.35, 0.10, 0.45], nebula);
            let s = hash(x / 4, y / 4);
            if s > 0.995 {
                [1.0, 1.0, 0.95]
            } else {
                base
            }
        }
        Wallpaper::Pyramid => {
            let horizon = 0.62;
            if v < horizon {
                // The pyramid's two faces against a pale sky.
                let half = (horizon - v) * 0.9 / aspect * 1.8;
                let apex = 0.5;
                if (u - apex).abs() < 0.42 - half && v > 0.3 {
                    if u < apex {
                        [0.85, 0.65, 0.35]
                    } else {
                        [0.65, 0.45, 0.22]
                    }
                } else {
                    mix([0.55, 0.75, 0.95], [0.95, 0.85, 0.70], v / horizon)
                }
            } else {
                mix(
                    [0.90, 0.75, 0.45],
                    [0.75, 0.55, 0.30],
                    (v - horizon) / (1.0 - horizon),
                )
            }
        }
        Wallpaper::Ocean => {
            let horizon = 0.4;
            if v < horizon {
                mix([0.45, 0.70, 0.95], [0.80, 0.92, 1.0], v / horizon)
            } else {
                let wave = ((u * 14.0 + v * 40.0).sin() * 0.5 + 0.5) * 0.12;
                let deep = mix([0.05, 0.45, 0.65], [0.0, 0.15, 0.35], (v - horizon) / 0.6);
                mix(deep, [0.7, 0.9, 1.0], wave)
            }
        }
        Wallpaper::Canyon => {
            let strata = ((v * 22.0 + (u * 5.0).sin() * 0.8).sin() * 0.5 + 0.5) * 0.25;
            let rock = mix([0.80, 0.40, 0.18], [0.50, 0.18, 0.08], v);
            mix(rock, [0.95, 0.70, 0.45], strata)
        }
    }
}

fn to_rgba(c: [f32; 3], dim: f32) -> Rgba {
    let q = |f: f32| (f * dim * 255.0).round().clamp(0.0, 255.0) as u8;
    [q(c[0]), q(c[1]), q(c[2]), 0xFF]
}

/// How much the dark theme dims the wallpaper (the launcher's scrim in night mode).
fn dim(dark: bool) -> f32 {
    if dark {
        0.6
    } else {
        1.0
    }
}

/// Paints the wallpaper into `area` (clipped), as laid out over the whole screen.
pub fn paint(canvas: &mut Canvas, wallpaper: Wallpaper, area: Bounds, dark: bool) {
    let screen = canvas.screen();
    let clip = canvas.clip().intersect(&area);
    let d = dim(dark);
    for y in clip.top..clip.bottom {
        for x in clip.left..clip.right {
            let c = pixel(wallpaper, x, y, screen.width(), screen.height());
            canvas.blend_pixel(x, y, to_rgba(c, d), 1.0);
        }
    }
}

/// The wallpaper as an image of a device's screen size, e.g. to push to a real device.
pub fn image(wallpaper: Wallpaper, width: u32, height: u32, dark: bool) -> RgbaImage {
    let d = dim(dark);
    RgbaImage::from_fn(width, height, |x, y| {
        image::Rgba(to_rgba(
            pixel(wallpaper, x as i32, y as i32, width as i32, height as i32),
            d,
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_thirteen_differ() {
        for w in Wallpaper::BMOCA {
            assert_eq!(Wallpaper::by_name(w.name()), Some(w));
        }
        assert_eq!(Wallpaper::by_name("ocean"), Some(Wallpaper::Ocean));
        assert_eq!(Wallpaper::by_name("06_forest"), None);
        let thumbs: Vec<RgbaImage> = Wallpaper::BMOCA
            .iter()
            .map(|&w| image(w, 54, 120, false))
            .collect();
        for i in 0..thumbs.len() {
            for j in i + 1..thumbs.len() {
                assert_ne!(thumbs[i], thumbs[j], "{i} and {j} look the same");
            }
        }
        assert_ne!(
            image(Wallpaper::Ocean, 20, 40, true),
            image(Wallpaper::Ocean, 20, 40, false)
        );
    }
}

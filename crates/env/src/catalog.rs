//! B-MoCA's 45 environments, compiled in from `environments/bmoca.tsv` and validated on first use:
//! every id unique and in its split's range, every device, locale, wallpaper and app known, every
//! shortcut on the grid and no two in one cell.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::{home_app, EnvError, Environment, HomeLayout, Slot, Split, DEVICES, LOCALES};
use droidmcp_sim::apps::launcher::home::Place;
use droidmcp_sim::render::Wallpaper;

const TABLE: &str = include_str!("../environments/bmoca.tsv");
/// B-MoCA's home screens: a 5×5 grid (row 0 holds the date) and a five-slot dock.
const GRID: i32 = 5;
const DOCK: i32 = 5;

/// Every environment, train then test, or the first problem with the table.
pub fn load() -> Result<&'static [Environment], EnvError> {
    static CATALOG: OnceLock<Result<Vec<Environment>, EnvError>> = OnceLock::new();
    match CATALOG.get_or_init(|| parse(TABLE)) {
        Ok(envs) => Ok(envs),
        Err(e) => Err(e.clone()),
    }
}

/// One environment by id (`105`; `5` is `005`).
pub fn get(id: &str) -> Result<&'static Environment, EnvError> {
    let id = id.trim();
    let padded = match id.parse::<u32>() {
        Ok(n) if id.len() < 3 => format!("{n:03}"),
        _ => id.to_string(),
    };
    load()?
        .iter()
        .find(|e| e.name == padded)
        .ok_or_else(|| EnvError::Unknown(id.to_string()))
}

/// The environments of one split, in id order.
pub fn split(split: Split) -> Result<Vec<Environment>, EnvError> {
    Ok(load()?
        .iter()
        .filter(|e| e.split == Some(split))
        .cloned()
        .collect())
}

/// Parses and validates the table (header and `#` comment lines skipped).
pub fn parse(text: &str) -> Result<Vec<Environment>, EnvError> {
    let mut envs: Vec<Environment> = Vec::new();
    let mut header_seen = false;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let err = |reason: String| EnvError::Table {
            line: line_no,
            reason,
        };
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if !header_seen {
            header_seen = true;
            if !line.starts_with("id\t") {
                return Err(err("the first row must be the header (id, split, …)".into()));
            }
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [id, split, device, dpi, font, locale, wallpaper, dark, dock, grid] = cols[..] else {
            return Err(err(format!(
                "expected 10 tab-separated columns, found {}",
                cols.len()
            )));
        };
        let split =
            Split::parse(split).ok_or_else(|| err(format!("split {split:?}: train or test")))?;
        let n: u32 = id
            .parse()
            .ok()
            .filter(|_| id.len() == 3)
            .ok_or_else(|| err(format!("id {id:?}: three digits")))?;
        let range = match split {
            Split::Train => 0..=34,
            Split::Test => 100..=109,
        };
        if !range.contains(&n) {
            return Err(err(format!(
                "id {id} is outside the {} range",
                split.as_str()
            )));
        }
        if envs.iter().any(|e| e.name == id) {
            return Err(err(format!("id {id} appears twice")));
        }
        let device = DEVICES
            .iter()
            .find(|p| p.name == device)
            .copied()
            .ok_or_else(|| err(format!("unknown device {device:?}")))?;
        let density: i32 = dpi
            .parse()
            .ok()
            .filter(|d| (100..=800).contains(d))
            .ok_or_else(|| err(format!("dpi {dpi:?}: a number from 100 to 800")))?;
        let font_scale: f32 = font
            .parse()
            .ok()
            .filter(|f: &f32| (0.5..=2.0).contains(f))
            .ok_or_else(|| err(format!("font scale {font:?}: 0.5 to 2.0")))?;
        if !LOCALES.contains(&locale) {
            return Err(err(format!("locale {locale:?} is not one of B-MoCA's")));
        }
        let wallpaper = Wallpaper::by_name(wallpaper)
            .filter(|w| Wallpaper::BMOCA.contains(w))
            .ok_or_else(|| err(format!("unknown wallpaper {wallpaper:?}")))?;
        let dark = match dark {
            "yes" => true,
            "no" => false,
            other => return Err(err(format!("dark {other:?}: yes or no"))),
        };
        let slots = parse_slots(dock, grid).map_err(err)?;
        envs.push(Environment {
            name: id.to_string(),
            split: Some(split),
            device,
            density,
            font_scale,
            dark,
            wallpaper,
            home: Some(HomeLayout {
                columns: GRID,
                rows: GRID,
                hotseat: DOCK,
                slots,
            }),
            locale: locale.to_string(),
        });
    }
    Ok(envs)
}

/// `Clock@0, Messages@1` (dock slots) and `Instagram@0,1; Camera@4,1` (grid cells col,row); `-` is
/// none.
fn parse_slots(dock: &str, grid: &str) -> Result<Vec<Slot>, String> {
    let mut slots = Vec::new();
    let mut taken = BTreeSet::new();
    let mut apps = BTreeSet::new();
    let items = |s: &'static str, list: &str| -> Vec<String> {
        if list.trim() == "-" {
            return Vec::new();
        }
        list.split(s)
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    };
    for item in items(",", dock) {
        let (name, at) = item
            .split_once('@')
            .ok_or(format!("dock item {item:?}: App@SLOT"))?;
        let slot: i32 = at
            .trim()
            .parse()
            .map_err(|_| format!("dock item {item:?}: bad slot"))?;
        if !(0..DOCK).contains(&slot) {
            return Err(format!("dock item {item:?}: slot outside 0-{}", DOCK - 1));
        }
        slots.push((name.trim().to_string(), Place::Hotseat { slot }));
    }
    for item in items(";", grid) {
        let (name, at) = item
            .split_once('@')
            .ok_or(format!("grid item {item:?}: App@COL,ROW"))?;
        let (c, r) = at
            .split_once(',')
            .ok_or(format!("grid item {item:?}: App@COL,ROW"))?;
        let (col, row): (i32, i32) = match (c.trim().parse(), r.trim().parse()) {
            (Ok(c), Ok(r)) => (c, r),
            _ => return Err(format!("grid item {item:?}: bad cell")),
        };
        if !(0..GRID).contains(&col) || !(1..GRID).contains(&row) {
            return Err(format!(
                "grid item {item:?}: cell outside the grid (rows 1-4, row 0 is the date)"
            ));
        }
        slots.push((name.trim().to_string(), Place::Workspace { col, row }));
    }
    slots
        .into_iter()
        .map(|(name, place)| {
            let app = home_app(&name).ok_or(format!("unknown app {name:?}"))?;
            if !taken.insert(place) {
                return Err(format!("two apps at {place:?}"));
            }
            if !apps.insert(app.name) {
                return Err(format!("{} placed twice", app.name));
            }
            Ok(Slot { app, place })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use droidmcp_sim::locale::coverage;

    #[test]
    fn all_45_load_and_match_the_paper() {
        let all = load().expect("table loads");
        assert_eq!(all.len(), 45);
        assert_eq!(split(Split::Train).unwrap().len(), 35);
        assert_eq!(split(Split::Test).unwrap().len(), 10);
        let e = get("000").unwrap();
        assert_eq!(
            (e.device.name, e.density, e.font_scale),
            ("pixel3", 330, 1.15)
        );
        let home = e.home.as_ref().unwrap();
        assert_eq!(home.slots.len(), 18);
        assert!(home
            .slots
            .iter()
            .any(|s| s.app.name == "Clock" && s.place == Place::Hotseat { slot: 0 }));
        let t = get("109").unwrap();
        assert_eq!(
            (t.device.name, t.locale.as_str(), t.density),
            ("wxga-tablet", "ar-EG", 160)
        );
        let locales: BTreeSet<&str> = all.iter().map(|e| e.locale.as_str()).collect();
        assert_eq!(locales.len(), 15);
        let wallpapers: BTreeSet<Wallpaper> = all.iter().map(|e| e.wallpaper).collect();
        assert_eq!(wallpapers.len(), 13);
    }

    #[test]
    fn bad_rows_are_refused_with_their_line() {
        let head = "id\tsplit\tdevice\tdpi\tfont_scale\tlocale\twallpaper\tdark\tdock\tgrid\n";
        let ok = "000\ttrain\tpixel3\t440\t1.0\ten-US\t00_default\tno\tClock@0\tPhone@1,1\n";
        assert_eq!(parse(&format!("{head}{ok}")).unwrap().len(), 1);
        for (bad, want) in [
            (ok.replace("000\ttrain", "100\ttrain"), "range"),
            (ok.replace("pixel3", "pixel9"), "device"),
            (ok.replace("en-US", "xx-XX"), "locale"),
            (ok.replace("00_default", "06_forest"), "wallpaper"),
            (ok.replace("Phone@1,1", "Phone@1,0"), "grid"),
            (ok.replace("Phone@1,1", "Clock@1,1"), "twice"),
            (ok.replace("Phone@1,1", "Fax@1,1"), "unknown app"),
        ] {
            let e = parse(&format!("{head}{bad}")).unwrap_err().to_string();
            assert!(e.contains("line 2") && e.contains(want), "{e}");
        }
    }

    /// The sim's translated apps against this catalog's locales (the check lives above the phone,
    /// which knows nothing of device environments).
    fn bmoca_locales() -> Vec<&'static str> {
        let mut all: Vec<&str> = load()
            .expect("catalog")
            .iter()
            .map(|e| e.locale.as_str())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    #[test]
    fn finished_packages_are_translated_into_every_bmoca_language() {
        let locales = bmoca_locales();
        assert_eq!(locales.len(), 15, "{locales:?}");
        let mut gaps = Vec::new();
        for (package, locale, done, total) in coverage::coverage(&locales) {
            // `cargo test -- --nocapture` prints the table for the packages still in progress.
            println!("{package:45} {locale:11} {done:4}/{total}");
            if coverage::TRANSLATED.contains(&package)
                && coverage::must_translate(&locale)
                && done < total
            {
                gaps.push(format!("{package} in {locale}: {done}/{total}"));
            }
        }
        assert!(
            gaps.is_empty(),
            "untranslated strings:\n{}",
            gaps.join("\n")
        );
    }
}

//! The home screen's layout as Launcher3 keeps it: the `favorites` table of
//! `databases/launcher.db` (one row per shortcut, `container` -100 for the workspace and -101 for
//! the hotseat, `cellX`/`cellY` on the grid, the hotseat slot in `screen` and `cellX`) and the grid
//! size in the `idp_grid_name` preference. Applying an environment writes these files, on the
//! embedded phone at boot and on an emulator over adb, which is what B-MoCA does with its
//! `home_screen_db/*.db` files; the launcher reads them on every frame, so an edit with `sqlite3`
//! shows at once. Without a database the default workspace applies, as on a fresh phone.

use rusqlite::{params, Connection};

use crate::app::AppInfo;
use crate::render::Wallpaper;
use crate::system::System;

pub const DB_PATH: &str = "/data/data/com.google.android.apps.nexuslauncher/databases/launcher.db";
pub const PREFS_PATH: &str =
    "/data/data/com.google.android.apps.nexuslauncher/shared_prefs/com.android.launcher3.prefs.xml";

/// Launcher3's `favorites` schema (the columns a shortcut row uses; widgets and folders are not
/// modelled).
pub const SCHEMA: &str =
    "CREATE TABLE IF NOT EXISTS favorites (_id INTEGER PRIMARY KEY, title TEXT, \
intent TEXT, container INTEGER, screen INTEGER, cellX INTEGER, cellY INTEGER, spanX INTEGER, \
spanY INTEGER, itemType INTEGER, appWidgetId INTEGER NOT NULL DEFAULT -1, iconPackage TEXT, \
iconResource TEXT, icon BLOB, appWidgetProvider TEXT, modified INTEGER NOT NULL DEFAULT 0, \
restored INTEGER NOT NULL DEFAULT 0, profileId INTEGER DEFAULT 0, rank INTEGER NOT NULL DEFAULT 0, \
options INTEGER NOT NULL DEFAULT 0, appWidgetSource INTEGER NOT NULL DEFAULT -1)";

pub const CONTAINER_DESKTOP: i64 = -100;
pub const CONTAINER_HOTSEAT: i64 = -101;

/// Where a shortcut sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    /// A slot of the dock (0 = leftmost in a left-to-right locale).
    Hotseat { slot: i32 },
    /// A cell of home screen 0 (row 0 is the top row, where the date sits).
    Workspace { col: i32, row: i32 },
}

/// One shortcut: an app's launch component and its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Favorite {
    pub package: String,
    pub activity: String,
    pub title: String,
    pub place: Place,
}

impl Favorite {
    /// The `intent` column as Launcher3 writes it (`Intent.toUri(0)`).
    pub fn intent_uri(&self) -> String {
        format!(
            "#Intent;action=android.intent.action.MAIN;category=android.intent.category.LAUNCHER;\
             launchFlags=0x10200000;component={}/{};end",
            self.package, self.activity
        )
    }
}

/// A home screen: the grid and its shortcuts. Apps without a shortcut are only in the drawer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HomeScreen {
    pub columns: i32,
    pub rows: i32,
    pub hotseat: i32,
    pub favorites: Vec<Favorite>,
}

impl HomeScreen {
    /// The grid name Launcher3 stores in `idp_grid_name` (`5_by_5`).
    pub fn grid_name(&self) -> String {
        format!("{}_by_{}", self.columns, self.rows)
    }

    /// A fresh phone's workspace: the apps marked `on_home_screen`, row by row from the second row,
    /// on a grid as wide as the screen allows (four columns on phones, more on tablets).
    pub fn default_for(apps: &[AppInfo], columns: i32) -> HomeScreen {
        let favorites = apps
            .iter()
            .filter(|a| a.on_home_screen)
            .enumerate()
            .map(|(i, a)| Favorite {
                package: a.package.to_string(),
                activity: a.launch_activity.to_string(),
                title: a.label("en-US").to_string(),
                place: Place::Workspace {
                    col: i as i32 % columns,
                    row: 1 + i as i32 / columns,
                },
            })
            .collect();
        HomeScreen {
            columns,
            rows: 5,
            hotseat: columns,
            favorites,
        }
    }
}

/// Writes the layout into the launcher's database and preferences (replacing any shortcuts).
pub fn write(sys: &System, home: &HomeScreen) -> rusqlite::Result<()> {
    let db = sys.open_db(DB_PATH)?;
    write_db(&db, home)?;
    if let Some(path) = sys.host_path(PREFS_PATH) {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(path, prefs_xml(home));
    }
    Ok(())
}

/// The `favorites` rows of `home` in a database (used for the phone and for files pushed over adb).
pub fn write_db(db: &Connection, home: &HomeScreen) -> rusqlite::Result<()> {
    db.execute_batch(SCHEMA)?;
    db.execute("DELETE FROM favorites", [])?;
    for (i, f) in home.favorites.iter().enumerate() {
        let (container, screen, x, y) = match f.place {
            Place::Hotseat { slot } => (CONTAINER_HOTSEAT, slot, slot, 0),
            Place::Workspace { col, row } => (CONTAINER_DESKTOP, 0, col, row),
        };
        db.execute(
            "INSERT INTO favorites (_id, title, intent, container, screen, cellX, cellY, spanX, spanY, itemType, rank) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, 1, 0, ?8)",
            params![i as i64 + 1, f.title, f.intent_uri(), container, screen, x, y, screen],
        )?;
    }
    Ok(())
}

/// `com.android.launcher3.prefs.xml` with the grid size.
pub fn prefs_xml(home: &HomeScreen) -> String {
    format!(
        "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n    \
         <string name=\"idp_grid_name\">{}</string>\n    <int name=\"hotseat_count\" value=\"{}\" />\n</map>\n",
        home.grid_name(),
        home.hotseat
    )
}

/// The layout on the phone: the database's shortcuts of installed apps on the stored grid, or the
/// default workspace when the launcher has no database yet. Reading never creates the files.
pub fn load(sys: &System, apps: &[AppInfo], default_columns: i32) -> HomeScreen {
    let default = || HomeScreen::default_for(apps, default_columns);
    let Some(path) = sys.host_path(DB_PATH).filter(|p| p.is_file()) else {
        return default();
    };
    let Ok(db) = Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
    else {
        return default();
    };
    let (columns, rows, hotseat) = sys
        .host_path(PREFS_PATH)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|xml| parse_prefs(&xml))
        .unwrap_or((default_columns, 5, default_columns));
    let rows_of = |db: &Connection| -> rusqlite::Result<Vec<Favorite>> {
        let mut stmt = db.prepare(
            "SELECT title, intent, container, screen, cellX, cellY FROM favorites \
             WHERE itemType = 0 AND (container = -101 OR (container = -100 AND screen = 0)) ORDER BY _id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, Option<String>>(0)?.unwrap_or_default(),
                r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                r.get::<_, i64>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, i64>(5)?,
            ))
        })?;
        Ok(rows
            .filter_map(Result::ok)
            .filter_map(|(title, intent, container, screen, x, y)| {
                let (package, activity) = component(&intent)?;
                // Launcher3 drops shortcuts of apps that are not installed.
                apps.iter().find(|a| a.package == package)?;
                let place = if container == CONTAINER_HOTSEAT {
                    Place::Hotseat {
                        slot: screen as i32,
                    }
                } else {
                    Place::Workspace {
                        col: x as i32,
                        row: y as i32,
                    }
                };
                Some(Favorite {
                    package,
                    activity,
                    title,
                    place,
                })
            })
            .collect())
    };
    match rows_of(&db) {
        Ok(favorites) => HomeScreen {
            columns,
            rows,
            hotseat,
            favorites,
        },
        Err(_) => default(),
    }
}

/// The wallpaper service's record of the current wallpaper (its `name` attribute names it).
pub const WALLPAPER_INFO: &str = "/data/system/users/0/wallpaper_info.xml";

/// Records `wallpaper` as the current one.
pub fn write_wallpaper(sys: &System, wallpaper: Wallpaper) -> std::io::Result<()> {
    let path = sys
        .host_path(WALLPAPER_INFO)
        .ok_or_else(|| std::io::Error::other("bad path"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(
        path,
        wallpaper_info_xml(wallpaper, sys.metrics.width, sys.metrics.height),
    )
}

/// `wallpaper_info.xml` as WallpaperManagerService writes it, naming the image.
pub fn wallpaper_info_xml(wallpaper: Wallpaper, width: i32, height: i32) -> String {
    format!(
        "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<wp id=\"1\" width=\"{width}\" \
         height=\"{height}\" name=\"{}\" backup=\"false\" />\n",
        wallpaper.name()
    )
}

/// The current wallpaper (the phone's plain default when none was set).
pub fn wallpaper(sys: &System) -> Wallpaper {
    sys.host_path(WALLPAPER_INFO)
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|xml| {
            let name = xml.split(" name=\"").nth(1)?.split('"').next()?.to_string();
            Wallpaper::by_name(&name)
        })
        .unwrap_or(Wallpaper::Plain)
}

/// `component=pkg/cls` of an intent URI, with a relative class (`.Main`) made absolute.
fn component(intent: &str) -> Option<(String, String)> {
    let c = intent
        .split(';')
        .find_map(|part| part.strip_prefix("component="))?;
    let (package, class) = c.split_once('/')?;
    let class = match class.strip_prefix('.') {
        Some(rest) => format!("{package}.{rest}"),
        None => class.to_string(),
    };
    Some((package.to_string(), class))
}

/// (columns, rows, hotseat) from the preferences file.
fn parse_prefs(xml: &str) -> Option<(i32, i32, i32)> {
    let grid = xml
        .split("name=\"idp_grid_name\">")
        .nth(1)?
        .split('<')
        .next()?;
    let (c, r) = grid.split_once("_by_")?;
    let (c, r) = (c.trim().parse::<i32>().ok()?, r.trim().parse::<i32>().ok()?);
    let hotseat = xml
        .split("name=\"hotseat_count\" value=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .and_then(|s| s.parse::<i32>().ok())
        .unwrap_or(c);
    Some((c.clamp(2, 10), r.clamp(2, 10), hotseat.clamp(0, 10)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn component_and_prefs_parse() {
        assert_eq!(
            component("#Intent;action=android.intent.action.MAIN;component=com.a/.Main;end"),
            Some(("com.a".into(), "com.a.Main".into()))
        );
        let home = HomeScreen {
            columns: 5,
            rows: 5,
            hotseat: 5,
            favorites: vec![],
        };
        assert_eq!(parse_prefs(&prefs_xml(&home)), Some((5, 5, 5)));
        assert_eq!(parse_prefs("<map/>"), None);
    }
}

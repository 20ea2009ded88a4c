//! Broccoli (`com.flauschcode.broccoli`, the version code 1020600 AndroidWorld installs): recipes
//! in Room's `broccoli` database, table `recipes` (`recipeId`, `title`, `imageName`,
//! `description`, `servings`, `preparationTime`, `source`, `ingredients`, `directions`,
//! `favorite`), as AndroidWorld's `sqlite_schema_utils.Recipe` reads and writes it. A [`records`]
//! app: the list (title and description, sorted by title), the recipe form, the detail page with
//! Edit and Delete, and multi-select delete.

use super::records::{self, Field, Ids, Kind, Record, Spec, Titles};
use crate::app::AppInfo;
use crate::system::System;

pub const PACKAGE: &str = "com.flauschcode.broccoli";
pub const ACTIVITY: &str = "com.flauschcode.broccoli.MainActivity";
pub const DB_PATH: &str = "/data/data/com.flauschcode.broccoli/databases/broccoli";

/// The `Recipe` entity (text columns default to empty, `favorite` to 0, as the app writes a new
/// recipe) and the category tables beside it.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS `recipes` (`recipeId` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, `imageName` TEXT DEFAULT '', `description` TEXT DEFAULT '', `servings` TEXT DEFAULT '', `preparationTime` TEXT DEFAULT '', `source` TEXT DEFAULT '', `ingredients` TEXT DEFAULT '', `directions` TEXT DEFAULT '', `favorite` INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS `categories` (`categoryId` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `name` TEXT);
CREATE TABLE IF NOT EXISTS `recipes_with_categories` (`recipeId` INTEGER NOT NULL, `categoryId` INTEGER NOT NULL, PRIMARY KEY(`recipeId`, `categoryId`));
CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY, identity_hash TEXT);
";

const fn text(column: &'static str, label: &'static str, id: &'static str, kind: Kind) -> Field {
    Field {
        column,
        label,
        id,
        kind,
        required: false,
    }
}

const FIELDS: &[Field] = &[
    Field {
        required: true,
        ..text("title", "title", "new_title", Kind::Text)
    },
    text(
        "description",
        "description",
        "new_description",
        Kind::Multiline,
    ),
    text("servings", "servings", "new_servings", Kind::Text),
    text(
        "preparationTime",
        "preparation_time",
        "new_preparation_time",
        Kind::Text,
    ),
    text("source", "source", "new_source", Kind::Text),
    text(
        "ingredients",
        "ingredients",
        "new_ingredients",
        Kind::Multiline,
    ),
    text(
        "directions",
        "directions",
        "new_directions",
        Kind::Multiline,
    ),
];

/// A card's second line: the description.
fn description(_: &System, r: &Record) -> String {
    r.values.get(1).cloned().unwrap_or_default()
}

/// Broccoli's cards show no value at the end.
fn nothing(_: &System, _: &Record) -> String {
    String::new()
}

pub static SPEC: Spec = Spec {
    package: PACKAGE,
    activity: ACTIVITY,
    pid: 3529,
    tag: "Broccoli",
    db_path: DB_PATH,
    schema: SCHEMA,
    table: "recipes",
    key: "recipeId",
    // RecipeDAO's `ORDER BY title`.
    order_by: "title COLLATE NOCASE, recipeId",
    fields: FIELDS,
    stamps: &[],
    title_field: 0,
    subtitle: description,
    trailing: nothing,
    facts: None,
    titles: Titles {
        list: "recipes",
        new: "new_recipe",
        edit: "edit_recipe",
        detail: "recipe",
    },
    ids: Ids {
        list: "recycler_view",
        row: "card_view",
        title: "card_text_view_title",
        subtitle: "card_text_view_description",
        trailing: "card_text_view_servings",
        fab: "fab",
        save: "button_save",
    },
    intro: None,
    accent: [76, 140, 74, 255],
};

pub fn info() -> AppInfo {
    AppInfo {
        package: PACKAGE,
        launch_activity: ACTIVITY,
        create: |sys| records::create(sys, &SPEC),
        install: |sys| records::install(sys, &SPEC),
        on_home_screen: false,
    }
}

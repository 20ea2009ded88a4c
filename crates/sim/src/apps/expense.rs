//! Pro Expense (`com.arduia.expense`, Arduia's Pro Expense, the version code 11 AndroidWorld
//! installs): expense logs in Room's `accounting.db`, table `expense` (`expense_id`, `name`,
//! `amount` in cents, `category` 1–11, `note`, `created_date` and `modified_date` in epoch ms), as
//! AndroidWorld's `sqlite_schema_utils.Expense` reads and writes it. A [`records`] app: the list
//! (name, category and date, amount), the entry form (name, amount, category, note), the detail
//! page with Edit and Delete, and multi-select delete.
//!
//! First launch (after install or `pm clear`) shows the app's two set-up pages, "Choose
//! Language" (Next) and "Choose Currency" (Continue), which AndroidWorld's `ExpenseApp.setup`
//! taps through; Continue writes the app's shared_prefs, so they do not come back.

use chrono::DateTime;

use super::records::{self, Field, Ids, Intro, IntroPage, Kind, Record, Spec, Stamp, Titles};
use crate::app::AppInfo;
use crate::locale::{self, DateStyle};
use crate::system::System;

pub const PACKAGE: &str = "com.arduia.expense";
pub const ACTIVITY: &str = "com.arduia.expense.ui.MainActivity";
pub const DB_PATH: &str = "/data/data/com.arduia.expense/databases/accounting.db";
/// The shared_prefs file that says the set-up pages are done.
pub const PREFS_PATH: &str = "/data/data/com.arduia.expense/shared_prefs/accounting_app_pref.xml";

/// `ExpenseEnt` in Room's DDL (amount kept as a Long count of cents by `AmountTypeConverter`),
/// beside the `backup` table and Room's identity table.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS `expense` (`expense_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `name` TEXT, `amount` INTEGER NOT NULL, `category` INTEGER NOT NULL, `note` TEXT, `created_date` INTEGER NOT NULL, `modified_date` INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS `backup` (`backup_id` INTEGER NOT NULL, `name` TEXT NOT NULL, `path` TEXT NOT NULL, `created_date` INTEGER NOT NULL, `item_total` INTEGER NOT NULL, `worker_id` TEXT NOT NULL, `is_completed` INTEGER NOT NULL, PRIMARY KEY(`backup_id`));
CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY, identity_hash TEXT);
";

/// The category ids the app stores and the strings that name them (AndroidWorld's
/// `Expense.category_id_to_name`).
pub const CATEGORIES: &[(i64, &str)] = &[
    (1, "others"),
    (2, "income"),
    (3, "food"),
    (4, "housing"),
    (5, "social"),
    (6, "entertainment"),
    (7, "transportation"),
    (8, "clothes"),
    (9, "health_care"),
    (10, "education"),
    (11, "donation"),
];

const FIELDS: &[Field] = &[
    Field {
        column: "name",
        label: "name",
        id: "edt_name",
        kind: Kind::Text,
        required: true,
    },
    Field {
        column: "amount",
        label: "amount",
        id: "edt_amount",
        kind: Kind::Money,
        required: true,
    },
    Field {
        column: "category",
        label: "category",
        id: "chip_category",
        kind: Kind::Choice(CATEGORIES),
        required: true,
    },
    Field {
        column: "note",
        label: "note",
        id: "edt_note",
        kind: Kind::Multiline,
        required: false,
    },
];

const PREFS_XML: &str = "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>
<map>
    <boolean name=\"pref_first_user\" value=\"false\" />
    <string name=\"pref_selected_lang\">en</string>
    <string name=\"pref_currency_symbol\">$</string>
</map>
";

/// "Food · Oct 3, 2023": the category and the day the expense was logged.
fn subtitle(sys: &System, r: &Record) -> String {
    let category = SPEC.choice_label(sys, 2, r.values.get(2).map(String::as_str).unwrap_or(""));
    let day = r
        .stamps
        .first()
        .and_then(|ms| DateTime::from_timestamp_millis(*ms))
        .map(|t| locale::format_date(t.date_naive(), &sys.locale, DateStyle::Medium))
        .unwrap_or_default();
    format!("{category} · {day}")
}

fn amount(sys: &System, r: &Record) -> String {
    SPEC.shown(sys, 1, r.values.get(1).map(String::as_str).unwrap_or("0"))
}

pub static SPEC: Spec = Spec {
    package: PACKAGE,
    activity: ACTIVITY,
    pid: 3467,
    tag: "ProExpense",
    db_path: DB_PATH,
    schema: SCHEMA,
    table: "expense",
    key: "expense_id",
    // ExpenseDao's `ORDER BY created_date DESC`.
    order_by: "created_date DESC, expense_id DESC",
    fields: FIELDS,
    stamps: &[
        ("created_date", Stamp::Created),
        ("modified_date", Stamp::Modified),
    ],
    title_field: 0,
    subtitle,
    trailing: amount,
    facts: None,
    titles: Titles {
        list: "expense_logs",
        new: "expense_entry",
        edit: "update_data",
        detail: "expense_detail",
    },
    ids: Ids {
        list: "rv_expense",
        row: "cl_expense_item",
        title: "tv_name",
        subtitle: "tv_date",
        trailing: "tv_amount",
        fab: "fb_main_add",
        save: "btn_save",
    },
    intro: Some(Intro {
        pages: &[
            IntroPage {
                title: "choose_language",
                button: "next",
                button_id: "btn_next",
                options: &["English", "မြန်မာ"],
            },
            IntroPage {
                title: "choose_currency",
                button: "continue_home",
                button_id: "btn_continue",
                options: &["US Dollar ($)", "Euro (€)", "Myanmar Kyat (MMK)"],
            },
        ],
        prefs_path: PREFS_PATH,
        prefs_xml: PREFS_XML,
    }),
    accent: [0, 121, 107, 255],
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

//! Tasks (`org.tasks`, the version code 130605 AndroidWorld installs): tasks in Room's
//! `database`, table `tasks` (`_id`, `title`, `importance` 0 high … 3 none, `dueDate`,
//! `hideUntil`, `completed`, `created`, `modified` in epoch ms, `notes`, …), as AndroidWorld's
//! `sqlite_schema_utils.Task` reads and writes it. A [`records`] app: the task list (title, due
//! day and completion, priority), the task editor (name, priority, description), the task page
//! with Edit and Delete, and multi-select delete.
//!
//! The list shows every task, completed ones after the open ones (the real app's "show
//! completed" and "show hidden" on), so a reader sees every task AndroidWorld's questions ask
//! about. A due time whose seconds are zero is the app's "no time" (`Task.hasDueTime`), so a due
//! day is shown without a time, as the app shows AndroidWorld's rows. Deleting removes the row
//! (the real app marks it `deleted`, then purges it).

use chrono::{DateTime, Timelike};

use super::records::{self, Field, Ids, Kind, Record, Spec, Stamp, Titles};
use crate::app::AppInfo;
use crate::locale;
use crate::system::System;

pub const PACKAGE: &str = "org.tasks";
pub const ACTIVITY: &str = "com.todoroo.astrid.activity.MainActivity";
pub const DB_PATH: &str = "/data/data/org.tasks/databases/database";

/// The `Task` entity's table in Room's DDL (the NOT NULL counters default to 0, as the app's
/// `Task()` constructor leaves them, so a row written with only some columns is whole) and
/// Room's identity table.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS `tasks` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, `importance` INTEGER NOT NULL DEFAULT 3, `dueDate` INTEGER NOT NULL DEFAULT 0, `hideUntil` INTEGER NOT NULL DEFAULT 0, `created` INTEGER NOT NULL DEFAULT 0, `modified` INTEGER NOT NULL DEFAULT 0, `completed` INTEGER NOT NULL DEFAULT 0, `deleted` INTEGER NOT NULL DEFAULT 0, `notes` TEXT, `estimatedSeconds` INTEGER NOT NULL DEFAULT 0, `elapsedSeconds` INTEGER NOT NULL DEFAULT 0, `timerStart` INTEGER NOT NULL DEFAULT 0, `notificationFlags` INTEGER NOT NULL DEFAULT 0, `lastNotified` INTEGER NOT NULL DEFAULT 0, `recurrence` TEXT, `repeat_from` INTEGER NOT NULL DEFAULT 0, `calendarUri` TEXT, `remoteId` TEXT, `collapsed` INTEGER NOT NULL DEFAULT 0, `parent` INTEGER NOT NULL DEFAULT 0, `order` INTEGER, `read_only` INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS `t_rid` ON `tasks` (`remoteId`);
CREATE INDEX IF NOT EXISTS `active_and_visible` ON `tasks` (`completed`, `deleted`, `hideUntil`);
CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY, identity_hash TEXT);
";

/// The priorities the app stores (`Task.Priority`) and their names; a new task's is the first,
/// none, as the app's default priority setting leaves it.
pub const PRIORITIES: &[(i64, &str)] = &[
    (3, "priority_none"),
    (0, "priority_high"),
    (1, "priority_medium"),
    (2, "priority_low"),
];

const FIELDS: &[Field] = &[
    Field {
        column: "title",
        label: "title",
        id: "title",
        kind: Kind::Text,
        required: true,
    },
    Field {
        column: "importance",
        label: "priority",
        id: "priority",
        kind: Kind::Choice(PRIORITIES),
        required: true,
    },
    Field {
        column: "notes",
        label: "notes",
        id: "notes",
        kind: Kind::Multiline,
        required: false,
    },
];

/// Where the due and completion times sit in a record's stamps (see `SPEC.stamps`).
const DUE: usize = 2;
const COMPLETED: usize = 3;

/// "Due Oct 16, 2023 · Completed Oct 12, 2023": the due day (with its time when the task has one)
/// and, for a done task, the day it was done.
fn when(sys: &System, r: &Record) -> String {
    let tr = |name| SPEC.tr(sys, name);
    let due = r.stamps.get(DUE).copied().unwrap_or_default();
    let mut text = if due > 0 {
        let mut due_text = format!("{} {}", tr("due"), records::day(sys, due));
        // `Task.hasDueTime`: a due time is kept with a non-zero seconds field.
        if due % 60_000 > 0 {
            if let Some(t) = DateTime::from_timestamp_millis(due) {
                let h24 = locale::default_24h(&sys.locale);
                due_text.push_str(&format!(
                    ", {}",
                    locale::format_time(t.hour(), t.minute(), &sys.locale, h24)
                ));
            }
        }
        due_text
    } else {
        tr("no_due_date").to_string()
    };
    let completed = r.stamps.get(COMPLETED).copied().unwrap_or_default();
    if completed > 0 {
        text.push_str(&format!(
            " · {} {}",
            tr("completed"),
            records::day(sys, completed)
        ));
    }
    text
}

/// The priority's name at the row's end; nothing for none.
fn priority(sys: &System, r: &Record) -> String {
    match r.values.get(1).map(String::as_str) {
        Some("3") | None => String::new(),
        Some(v) => SPEC.choice_label(sys, 1, v),
    }
}

pub static SPEC: Spec = Spec {
    package: PACKAGE,
    activity: ACTIVITY,
    pid: 3581,
    tag: "Tasks",
    db_path: DB_PATH,
    schema: SCHEMA,
    table: "tasks",
    key: "_id",
    // Open tasks before done ones, then by due day (none last), priority and age, as the app's
    // default sort ("by due date") lists them.
    order_by: "completed > 0, dueDate = 0, dueDate, importance, _id",
    fields: FIELDS,
    stamps: &[
        ("created", Stamp::Created),
        ("modified", Stamp::Modified),
        ("dueDate", Stamp::Kept),
        ("completed", Stamp::Kept),
    ],
    title_field: 0,
    subtitle: when,
    trailing: priority,
    facts: None,
    titles: Titles {
        list: "my_tasks",
        new: "new_task",
        edit: "edit_task",
        detail: "task",
    },
    ids: Ids {
        list: "recycler_view",
        row: "row",
        title: "title",
        subtitle: "due_date",
        trailing: "priority_text",
        fab: "fab",
        save: "save",
    },
    intro: None,
    accent: [33, 150, 243, 255],
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

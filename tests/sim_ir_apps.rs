//! The apps of AndroidWorld's information-retrieval classes on the embedded phone, driven through
//! the shell: rows written into the app's database as AndroidWorld writes them (every column of its
//! `sqlite_schema_utils` dataclass) are what the screens show, long lists scroll, and `pm clear`
//! leaves an empty database at the real path.

use droidmcp::sim::Phone;

use crate::sim_system_ui::{by_id, find, screen, tap};
use crate::util::{boot, sh};

mod tasks {
    use super::*;

    const PKG: &str = "org.tasks";
    const MAIN: &str = "org.tasks/com.todoroo.astrid.activity.MainActivity";
    const DB: &str = "/data/data/org.tasks/databases/database";
    /// Monday October 16 2023 00:00 UTC, in ms.
    const OCT16: i64 = 1_697_414_400_000;
    const DAY: i64 = 86_400_000;

    fn id(name: &str) -> String {
        format!("{PKG}:id/{name}")
    }

    fn sql(phone: &Phone, statement: &str) -> String {
        sh(phone, &format!("sqlite3 {DB} \"{statement}\""))
    }

    /// A row with every column AndroidWorld's `Task` dataclass writes, in its order.
    fn insert(phone: &Phone, title: &str, importance: i64, due: i64, completed: i64) {
        sql(
            phone,
            &format!(
                "INSERT INTO tasks (\\\"title\\\", \\\"importance\\\", \\\"dueDate\\\", \
                 \\\"hideUntil\\\", \\\"created\\\", \\\"modified\\\", \\\"completed\\\", \
                 \\\"deleted\\\", \\\"notes\\\", \\\"estimatedSeconds\\\", \\\"elapsedSeconds\\\", \
                 \\\"timerStart\\\", \\\"notificationFlags\\\", \\\"lastNotified\\\", \
                 \\\"recurrence\\\", \\\"repeat_from\\\", \\\"calendarUri\\\", \\\"remoteId\\\", \
                 \\\"collapsed\\\", \\\"parent\\\", \\\"order\\\", \\\"read_only\\\") VALUES \
                 ('{title}', {importance}, {due}, {}, {}, {}, {completed}, 0, 'Bring the slides.', \
                 0, 0, 0, 0, 0, NULL, 0, NULL, '1234', 0, 0, NULL, 0)",
                due - 6 * DAY,
                due - 25_200_000,
                due - 25_200_000
            ),
        );
    }

    fn texts(phone: &Phone, rid: &str) -> Vec<String> {
        screen(phone)
            .nodes
            .iter()
            .filter(|n| n.resource_id == id(rid))
            .map(|n| n.text.clone())
            .collect()
    }

    #[test]
    fn androidworlds_rows_show_due_day_priority_and_completion_open_ones_first() {
        let phone = boot(21);
        insert(&phone, "Plan team outing", 3, OCT16 + 2 * DAY, 0);
        insert(&phone, "Code Review", 0, OCT16 + 9 * 3_600_000, 0);
        insert(&phone, "Call Grandma", 1, OCT16, OCT16 - 3 * DAY);
        let out = sh(&phone, &format!("am start -W -n {MAIN}"));
        assert!(out.contains("Status: ok"), "{out}");
        assert_eq!(
            texts(&phone, "title"),
            ["Code Review", "Plan team outing", "Call Grandma"]
        );
        assert_eq!(
            texts(&phone, "due_date"),
            [
                "Due Oct 16, 2023",
                "Due Oct 18, 2023",
                "Due Oct 16, 2023 · Completed Oct 13, 2023"
            ]
        );
        // High and Medium are named; none shows nothing.
        assert_eq!(texts(&phone, "priority_text"), ["High", "Medium"]);
        // A task's page shows its description.
        let h = screen(&phone);
        tap(
            &phone,
            find(&h, &|n| n.text == "Code Review").expect("row").bounds,
        );
        assert_eq!(texts(&phone, "tv_notes"), ["Bring the slides."]);
        assert_eq!(texts(&phone, "tv_importance"), ["High"]);
    }

    #[test]
    fn a_long_list_scrolls_to_its_last_task_and_pm_clear_empties_the_table() {
        let phone = boot(22);
        for k in 0..25 {
            insert(&phone, &format!("Task{k:02}"), 2, OCT16 + k * DAY, 0);
        }
        sh(&phone, &format!("am start -W -n {MAIN}"));
        assert!(!texts(&phone, "title").contains(&"Task24".to_string()));
        for _ in 0..12 {
            if texts(&phone, "title").contains(&"Task24".to_string()) {
                break;
            }
            sh(&phone, "input swipe 540 1800 540 600 300");
        }
        assert!(texts(&phone, "title").contains(&"Task24".to_string()));
        sh(&phone, "pm clear org.tasks");
        assert_eq!(sql(&phone, "SELECT COUNT(*) FROM tasks"), "0\n");
        sh(&phone, &format!("am start -W -n {MAIN}"));
        assert!(texts(&phone, "title").is_empty());
    }

    #[test]
    fn a_task_typed_into_the_editor_is_one_row_with_no_priority_and_no_due_day() {
        let phone = boot(23);
        sh(&phone, &format!("am start -W -n {MAIN}"));
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("fab")).bounds);
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("title")).bounds);
        sh(&phone, "input text Buy%smilk");
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("save")).bounds);
        assert_eq!(
            sql(
                &phone,
                "SELECT title, importance, dueDate, completed, deleted FROM tasks"
            ),
            "Buy milk|3|0|0|0\n"
        );
        assert_eq!(texts(&phone, "due_date"), ["No due date"]);
    }
}

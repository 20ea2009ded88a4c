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

mod joplin {
    use super::*;

    const MAIN: &str = "net.cozic.joplin/.MainActivity";
    const DB: &str = "/data/data/net.cozic.joplin/databases/joplin.sqlite";
    const YESTERDAY: i64 = 1_697_297_640_000;

    fn id(name: &str) -> String {
        format!("net.cozic.joplin:id/{name}")
    }

    fn sql(phone: &Phone, statement: &str) -> String {
        sh(phone, &format!("sqlite3 {DB} \"{statement}\""))
    }

    /// A notebook with every column AndroidWorld's `JoplinFolder` writes (all but `deleted_time`).
    fn folder(phone: &Phone, id: &str, title: &str) {
        sql(
            phone,
            &format!(
                "INSERT INTO folders (\\\"title\\\", \\\"id\\\", \\\"created_time\\\", \
                 \\\"updated_time\\\", \\\"user_created_time\\\", \\\"user_updated_time\\\", \
                 \\\"encryption_cipher_text\\\", \\\"encryption_applied\\\", \\\"parent_id\\\", \
                 \\\"is_shared\\\", \\\"share_id\\\", \\\"master_key_id\\\", \\\"icon\\\", \
                 \\\"user_data\\\") VALUES ('{title}', '{id}', {YESTERDAY}, {YESTERDAY}, \
                 {YESTERDAY}, {YESTERDAY}, '', 0, '', 0, '', '', '', '')"
            ),
        );
    }

    /// A note with every column AndroidWorld's `JoplinNote` writes, in its order.
    fn note(phone: &Phone, id: &str, folder: &str, title: &str, body: &str, todo: (i64, i64)) {
        sql(
            phone,
            &format!(
                "INSERT INTO notes (\\\"parent_id\\\", \\\"title\\\", \\\"body\\\", \
                 \\\"created_time\\\", \\\"updated_time\\\", \\\"is_conflict\\\", \\\"latitude\\\", \
                 \\\"longitude\\\", \\\"altitude\\\", \\\"author\\\", \\\"source_url\\\", \
                 \\\"is_todo\\\", \\\"todo_due\\\", \\\"todo_completed\\\", \\\"source\\\", \
                 \\\"source_application\\\", \\\"application_data\\\", \\\"order\\\", \
                 \\\"user_created_time\\\", \\\"user_updated_time\\\", \
                 \\\"encryption_cipher_text\\\", \\\"encryption_applied\\\", \
                 \\\"markup_language\\\", \\\"is_shared\\\", \\\"share_id\\\", \
                 \\\"conflict_original_id\\\", \\\"master_key_id\\\", \\\"user_data\\\", \
                 \\\"id\\\") VALUES ('{folder}', '{title}', '{body}', {YESTERDAY}, {YESTERDAY}, \
                 0, 0.0, 0.0, 0.0, '', '', {}, 0, {}, '', '', '', 0.0, {YESTERDAY}, {YESTERDAY}, \
                 '', 0, 1, 0, '', '', '', '', '{id}')",
                todo.0, todo.1
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

    fn seed(phone: &Phone) {
        folder(phone, "f0000000000000000000000000000001", "Work");
        folder(phone, "f0000000000000000000000000000002", "Recipes");
        note(
            phone,
            "a0000000000000000000000000000001",
            "f0000000000000000000000000000002",
            "Lasagna",
            "Ingredients:\n- 1 cup ricotta\n- 2 tablespoons tahini\n",
            (0, 0),
        );
        note(
            phone,
            "a0000000000000000000000000000002",
            "f0000000000000000000000000000001",
            "Work Tasks",
            "Complete quarterly report.",
            (1, 0),
        );
        note(
            phone,
            "a0000000000000000000000000000003",
            "f0000000000000000000000000000001",
            "Budget Spreadsheet",
            "Track expenses.",
            (1, 1),
        );
    }

    #[test]
    fn androidworlds_notes_list_with_to_do_checkboxes_and_open_on_their_own_screen() {
        let phone = boot(31);
        seed(&phone);
        let out = sh(&phone, &format!("am start -W -n {MAIN}"));
        assert!(out.contains("Status: ok"), "{out}");
        // All notes: the open to-do first, then by title (all updated at the same moment).
        assert_eq!(texts(&phone, "title"), ["All notes"]);
        assert_eq!(
            texts(&phone, "note_title"),
            ["Work Tasks", "Budget Spreadsheet", "Lasagna"]
        );
        let h = screen(&phone);
        let boxes: Vec<bool> = h
            .nodes
            .iter()
            .filter(|n| n.resource_id == id("todo_checkbox"))
            .map(|n| n.checked)
            .collect();
        assert_eq!(boxes, [false, true], "{}", h.xml);
        // The note's screen shows its notebook and every line of its body.
        tap(
            &phone,
            find(&h, &|n| n.text == "Lasagna").expect("row").bounds,
        );
        assert_eq!(texts(&phone, "note_title_view"), ["Lasagna"]);
        assert_eq!(
            texts(&phone, "note_body"),
            ["Ingredients:", "- 1 cup ricotta", "- 2 tablespoons tahini"]
        );
        assert!(find(&screen(&phone), &|n| n.text == "Recipes").is_some());
    }

    #[test]
    fn the_sidebar_lists_notebooks_by_title_and_picking_one_shows_its_notes() {
        let phone = boot(32);
        seed(&phone);
        sh(&phone, &format!("am start -W -n {MAIN}"));
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("sidebar_button")).bounds);
        assert_eq!(
            texts(&phone, "sidebar_item_title"),
            ["All notes", "Recipes", "Work"]
        );
        // The open sidebar hides the list it covers from accessibility, as DrawerLayout does: an
        // agent is never offered a note it cannot touch.
        assert!(texts(&phone, "note_title").is_empty());
        assert!(texts(&phone, "sidebar_button").is_empty());
        let h = screen(&phone);
        tap(
            &phone,
            find(&h, &|n| {
                n.resource_id == id("sidebar_item_title") && n.text == "Work"
            })
            .expect("Work")
            .bounds,
        );
        assert_eq!(texts(&phone, "title"), ["Work"]);
        assert_eq!(
            texts(&phone, "note_title"),
            ["Work Tasks", "Budget Spreadsheet"]
        );
        // Back shows all notes again.
        sh(&phone, "input keyevent KEYCODE_BACK");
        assert_eq!(texts(&phone, "title"), ["All notes"]);
    }

    #[test]
    fn the_toolbars_search_finds_notes_by_title_or_body_and_opens_them() {
        let phone = boot(34);
        seed(&phone);
        sh(&phone, &format!("am start -W -n {MAIN}"));
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("search_button")).bounds);
        // The field is focused: typing searches titles and bodies, ignoring case.
        sh(&phone, "input text TAHINI");
        assert_eq!(texts(&phone, "note_title"), ["Lasagna"]);
        // A search opened again starts empty, finding nothing until a word is typed. (The first
        // Back may only hide the keyboard, as Android's does.)
        sh(&phone, "input keyevent KEYCODE_BACK");
        if texts(&phone, "title") != ["All notes"] {
            sh(&phone, "input keyevent KEYCODE_BACK");
        }
        assert_eq!(texts(&phone, "title"), ["All notes"]);
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("search_button")).bounds);
        // An empty field dumps its hint, as Android's does.
        assert_eq!(texts(&phone, "search_query"), ["Search…"]);
        assert!(texts(&phone, "note_title").is_empty());
        sh(&phone, "input text budget");
        assert_eq!(texts(&phone, "note_title"), ["Budget Spreadsheet"]);
        let h = screen(&phone);
        tap(
            &phone,
            find(&h, &|n| n.text == "Budget Spreadsheet")
                .expect("found")
                .bounds,
        );
        assert_eq!(texts(&phone, "note_body"), ["Track expenses."]);
        // Back returns to the results, and Back again to the list.
        sh(&phone, "input keyevent KEYCODE_BACK");
        assert_eq!(texts(&phone, "search_query"), ["budget"]);
        assert_eq!(texts(&phone, "note_title"), ["Budget Spreadsheet"]);
        sh(&phone, "input keyevent KEYCODE_BACK");
        assert_eq!(texts(&phone, "title"), ["All notes"]);
    }

    #[test]
    fn ticking_a_to_do_stores_its_completion_time_and_pm_clear_empties_the_tables() {
        let phone = boot(33);
        seed(&phone);
        sh(&phone, &format!("am start -W -n {MAIN}"));
        let h = screen(&phone);
        let open = find(&h, &|n| {
            n.resource_id == id("todo_checkbox") && n.content_desc == "Work Tasks"
        })
        .expect("the open to-do's checkbox");
        tap(&phone, open.bounds);
        let done = sql(
            &phone,
            "SELECT todo_completed > 0 FROM notes WHERE title = 'Work Tasks'",
        );
        assert_eq!(done, "1\n");
        let h = screen(&phone);
        let ticked = find(&h, &|n| {
            n.resource_id == id("todo_checkbox") && n.content_desc == "Work Tasks"
        })
        .expect("the to-do's checkbox");
        assert!(ticked.checked, "{}", h.xml);
        sh(&phone, "pm clear net.cozic.joplin");
        assert_eq!(sql(&phone, "SELECT COUNT(*) FROM notes"), "0\n");
        assert_eq!(sql(&phone, "SELECT COUNT(*) FROM folders"), "0\n");
        sh(&phone, &format!("am start -W -n {MAIN}"));
        assert!(texts(&phone, "note_title").is_empty());
        assert_eq!(texts(&phone, "empty").len(), 1);
    }
}

mod opentracks {
    use super::*;

    const MAIN: &str = "de.dennisguse.opentracks/de.dennisguse.opentracks.TrackListActivity";
    const DB: &str = "/data/data/de.dennisguse.opentracks/databases/database.db";
    /// Thursday October 12 2023 08:00 UTC, in ms.
    const OCT12_8AM: i64 = 1_697_097_600_000;

    fn id(name: &str) -> String {
        format!("de.dennisguse.opentracks:id/{name}")
    }

    fn sql(phone: &Phone, statement: &str) -> String {
        sh(phone, &format!("sqlite3 {DB} \"{statement}\""))
    }

    /// A track with every column AndroidWorld's `SportsActivity` writes (distance a REAL, as
    /// Python's float is stored), in its order.
    fn insert(phone: &Phone, name: &str, category: &str, start: i64, minutes: i64, meters: f64) {
        let ms = minutes * 60_000;
        sql(
            phone,
            &format!(
                "INSERT INTO tracks (\\\"name\\\", \\\"description\\\", \\\"category\\\", \
                 \\\"activity_type\\\", \\\"starttime\\\", \\\"stoptime\\\", \\\"numpoints\\\", \
                 \\\"totaldistance\\\", \\\"totaltime\\\", \\\"movingtime\\\", \\\"avgspeed\\\", \
                 \\\"avgmovingspeed\\\", \\\"maxspeed\\\", \\\"minelevation\\\", \
                 \\\"maxelevation\\\", \\\"elevationgain\\\", \\\"icon\\\", \\\"uuid\\\", \
                 \\\"elevationloss\\\", \\\"starttime_offset\\\") VALUES ('{name}', 'Quick one.', \
                 '{category}', '{category}', {start}, {}, 0, {meters:.1}, {ms}, {ms}, 0.001, 0.001, \
                 0.0, 0.0, 0.0, 120, NULL, randomblob(16), 80, 0)",
                start + ms
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
    fn androidworlds_tracks_list_newest_first_with_type_distance_time_and_day() {
        let phone = boot(41);
        insert(&phone, "Morning Run", "running", OCT12_8AM, 60, 4506.0);
        insert(
            &phone,
            "Laps around the lake",
            "swimming",
            OCT12_8AM + 86_400_000,
            45,
            998.0,
        );
        let out = sh(&phone, &format!("am start -W -n {MAIN}"));
        assert!(out.contains("Status: ok"), "{out}");
        assert_eq!(
            texts(&phone, "track_list_item_name"),
            ["Laps around the lake", "Morning Run"]
        );
        // 4506 m is 2.80 mi on the phone's en-US locale, as on AndroidWorld's AVD.
        assert_eq!(
            texts(&phone, "track_list_item_summary"),
            ["swimming · 0.62 mi · 45:00", "running · 2.80 mi · 1:00:00"]
        );
        assert_eq!(
            texts(&phone, "track_list_item_date"),
            ["Oct 13, 2023", "Oct 12, 2023"]
        );
        // Recording needs GPS: the list has no add button.
        assert!(!screen(&phone)
            .nodes
            .iter()
            .any(|n| n.resource_id == id("fab")));
        // A track's page shows when it started and its statistics.
        let h = screen(&phone);
        tap(
            &phone,
            find(&h, &|n| n.text == "Morning Run").expect("row").bounds,
        );
        assert_eq!(texts(&phone, "tv_stats_start"), ["Oct 12, 2023, 8:00 AM"]);
        assert_eq!(texts(&phone, "tv_stats_distance"), ["2.80 mi"]);
        assert_eq!(texts(&phone, "tv_stats_total_time"), ["1:00:00"]);
        assert_eq!(texts(&phone, "tv_category"), ["running"]);
    }

    #[test]
    fn editing_a_track_keeps_its_statistics_and_pm_clear_empties_the_table() {
        let phone = boot(42);
        insert(&phone, "Slow day", "hiking", OCT12_8AM, 90, 3000.0);
        sh(&phone, &format!("am start -W -n {MAIN}"));
        let h = screen(&phone);
        tap(
            &phone,
            find(&h, &|n| n.text == "Slow day").expect("row").bounds,
        );
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("btn_edit")).bounds);
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("track_edit_activity_type")).bounds);
        sh(&phone, "input keyevent KEYCODE_MOVE_END");
        sh(&phone, "input text %sup");
        let h = screen(&phone);
        tap(&phone, by_id(&h, &id("track_edit_save")).bounds);
        assert_eq!(
            sql(
                &phone,
                "SELECT name, category, totaldistance, totaltime FROM tracks"
            ),
            "Slow day|hiking up|3000.0|5400000\n"
        );
        sh(&phone, "pm clear de.dennisguse.opentracks");
        assert_eq!(sql(&phone, "SELECT COUNT(*) FROM tracks"), "0\n");
    }
}

//! What changed on the phone since setup: every setting, every row of every app's databases (or,
//! where they cannot be read, of the content providers apps share), every app's shared
//! preferences and the files in shared storage, read when setup is done and again when the episode
//! ends, and the difference as device facts for judges.
//!
//! A judge is shown the same facts whether or not a task has rules: what the agent changed,
//! never what a rule check reads or expects (a check's query and its result handed a judge the
//! answer to a question task). Reading everything rather than what the goal's words name keeps
//! out the noise (a call-log dump for "Call with Mom") and the gaps (no contacts for a task that
//! shares a contact's number).

use std::collections::{BTreeMap, BTreeSet};

use super::android::{self, ContentRow};
use super::facts::{self, Fact};
use super::sqlite::{DbError, DbSnapshot};
use droidmcp_device::{Shell, ShellError};

/// The namespaces `settings list` reads.
const NAMESPACES: [&str; 3] = ["system", "secure", "global"];

/// Every setting by `namespace/key`.
pub type Settings = BTreeMap<String, String>;

/// The providers read through `content query` when the apps' databases cannot be (a phone without
/// root), with the app that owns each as task files name it (`apps = ["messages"]`).
pub const PROVIDERS: [(&str, &str); 4] = [
    ("content://sms", "messages"),
    ("content://call_log/calls", "phone"),
    ("content://com.android.contacts/data", "contacts"),
    ("content://com.android.calendar/events", "calendar"),
];

/// Each provider's rows as `content query` prints them (`Row: N col=value, ...` with the row
/// number cut off, so a row that moved is not a change), sorted, by provider URI. A provider the
/// device does not answer is left out, before and after alike.
pub type Data = BTreeMap<&'static str, Vec<String>>;

/// Where apps keep their databases and preferences (credential-encrypted and device-encrypted
/// storage).
const APP_DIRS: [&str; 2] = ["/data/data", "/data/user_de/0"];
/// Shared storage, where apps and people keep files.
const STORAGE: &str = "/sdcard";
/// Tables every SQLite database or Android adds for itself.
const BOOKKEEPING: [&str; 3] = ["android_metadata", "sqlite_sequence", "room_master_table"];
/// MediaStore's database (Android 11+): a row per file and folder in shared storage, which the
/// files' own facts already show; its unchanged rows would be a listing of storage, not context.
const MEDIA_DB: &str = "/data/data/com.android.providers.media.module/databases/external.db";
/// Rows shown per table and side.
const MAX_ROWS: usize = 50;

/// Database path → table → rows.
type Tables = BTreeMap<String, BTreeMap<String, Vec<ContentRow>>>;

/// The phone's state as far as changes go.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PhoneState {
    pub settings: Settings,
    databases: Tables,
    /// Read only when no app database could be.
    pub providers: Data,
    /// Preferences file → key → value.
    prefs: BTreeMap<String, BTreeMap<String, String>>,
    /// File path → its `ls -l` line (size and time).
    files: BTreeMap<String, String>,
    /// File path → its text, for the small text files a person writes and reads (notes, lists).
    texts: BTreeMap<String, String>,
}

/// The text files whose words are shown, not only their sizes: a note's content is what a task
/// about it asks for (and a file with no extension, as Markor saves a note named without one, when
/// its bytes are text).
const TEXT_EXTENSIONS: [&str; 10] = [
    "txt", "md", "csv", "json", "html", "gpx", "m3u", "m3u8", "vcf", "ics",
];
/// The largest text file whose words are shown.
const MAX_TEXT: usize = 4096;

/// Whether `path` with the `ls -l` line `line` (`SIZE DATE TIME`) is a small text file.
fn is_small_text(path: &str, line: &str) -> bool {
    let size = line
        .split_whitespace()
        .next()
        .and_then(|s| s.parse::<usize>().ok());
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    size.is_some_and(|n| n <= MAX_TEXT) && ext.is_none_or(|e| TEXT_EXTENSIONS.contains(&e.as_str()))
}

/// Reads every setting through `settings list`; a namespace the device cannot list is skipped (its
/// changes then go unseen, which nobody can tell from none).
pub async fn read_settings(shell: &dyn Shell) -> Settings {
    let mut all = Settings::new();
    for ns in NAMESPACES {
        let Ok(out) = shell.exec(&format!("settings list {ns}")).await else {
            continue;
        };
        if !out.success() {
            continue;
        }
        for line in out.stdout_text().lines() {
            if let Some((k, v)) = line.split_once('=') {
                all.insert(format!("{ns}/{}", k.trim()), v.to_string());
            }
        }
    }
    all
}

/// Reads the rows of every provider in [`PROVIDERS`].
pub async fn read_providers(shell: &dyn Shell) -> Data {
    let mut all = Data::new();
    for (uri, _) in PROVIDERS {
        let Ok(out) = shell.exec(&format!("content query --uri {uri}")).await else {
            continue;
        };
        if !out.success() {
            continue;
        }
        let mut rows: Vec<String> = out
            .stdout_text()
            .lines()
            .filter_map(|l| l.strip_prefix("Row: "))
            .map(|l| l.split_once(' ').map_or("", |(_, cols)| cols).to_string())
            .collect();
        rows.sort();
        all.insert(uri, rows);
    }
    all
}

/// The paths `find` lists under `roots` matching `pattern` (none when it cannot look there).
async fn find(shell: &dyn Shell, roots: &[&str], pattern: &str) -> Result<Vec<String>, ShellError> {
    let command = format!("find {} -type f -path '{pattern}'", roots.join(" "));
    let out = match shell.exec(&command).await {
        Ok(out) => out,
        Err(e) if e.is_device_lost() => return Err(e),
        Err(_) => return Ok(Vec::new()),
    };
    // `find` exits non-zero when one root is missing; the paths it did list still count.
    Ok(out
        .stdout_text()
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('/'))
        .map(String::from)
        .collect())
}

/// Every table of the database at `path`, or `None` when it cannot be read.
async fn read_database(
    shell: &dyn Shell,
    path: &str,
) -> Result<Option<BTreeMap<String, Vec<ContentRow>>>, ShellError> {
    let snapshot = match DbSnapshot::pull(shell, path).await {
        Ok(s) => s,
        Err(DbError::Shell { source, .. }) if source.is_device_lost() => return Err(source),
        Err(_) => return Ok(None),
    };
    let Ok(names) = snapshot.query("SELECT name FROM sqlite_master WHERE type = 'table'") else {
        return Ok(None);
    };
    let mut tables = BTreeMap::new();
    for name in names.iter().filter_map(|r| r.first()?.1.clone()) {
        if BOOKKEEPING.contains(&name.as_str()) {
            continue;
        }
        if let Ok(rows) = snapshot.table(&name) {
            tables.insert(name, rows);
        }
    }
    Ok(Some(tables))
}

/// Each regular file under shared storage with its `ls -l` line.
async fn read_files(shell: &dyn Shell) -> Result<BTreeMap<String, String>, ShellError> {
    let out = match shell.exec(&format!("ls -lR {STORAGE}/")).await {
        Ok(out) => out,
        Err(e) if e.is_device_lost() => return Err(e),
        Err(_) => return Ok(BTreeMap::new()),
    };
    let mut files = BTreeMap::new();
    let mut dir = STORAGE.to_string();
    for line in out.stdout_text().lines() {
        if let Some(heading) = line.strip_suffix(':').filter(|l| l.starts_with('/')) {
            // `ls -R /sdcard/` names subdirectories `/sdcard//Download` on some builds.
            dir = heading.replace("//", "/").trim_end_matches('/').to_string();
            continue;
        }
        // `-rw-rw---- 1 u0_a1 media_rw 1234 2024-06-05 08:00 name`: regular files only.
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() >= 8 && words[0].starts_with('-') {
            let path = format!("{dir}/{}", words[7..].join(" "));
            // The harness's own screen dumps are no change of the agent's.
            if path != droidmcp_device::DUMP_FILE {
                files.insert(path, words[4..7].join(" "));
            }
        }
    }
    Ok(files)
}

/// Reads the phone's state: settings, app databases (the providers instead when none can be
/// read), preferences and shared storage. Only a lost device is an error; what cannot be read is
/// left out on both sides.
pub async fn read(shell: &dyn Shell) -> Result<PhoneState, ShellError> {
    let mut state = PhoneState {
        settings: read_settings(shell).await,
        ..PhoneState::default()
    };
    // Every database file, named `*.db` or not (Broccoli's `broccoli`, Tasks' `database`), and
    // every `*.db` an app keeps elsewhere in its data (VLC's `app_db/vlc_media.db`); a journal
    // beside one is no database of its own.
    let mut databases: BTreeSet<String> = find(shell, &APP_DIRS, "*/databases/*")
        .await?
        .into_iter()
        .collect();
    databases.extend(find(shell, &APP_DIRS, "*.db").await?);
    let journals = ["-wal", "-shm", "-journal"];
    for path in databases
        .into_iter()
        .filter(|p| !journals.iter().any(|j| p.ends_with(j)))
    {
        if let Some(tables) = read_database(shell, &path).await? {
            state.databases.insert(path, tables);
        }
    }
    if state.databases.is_empty() {
        state.providers = read_providers(shell).await;
    }
    for path in find(shell, &APP_DIRS, "*/shared_prefs/*.xml").await? {
        let data = match shell.pull(&path).await {
            Ok(data) => data,
            Err(e) if e.is_device_lost() => return Err(e),
            Err(_) => continue,
        };
        if let Ok(map) = android::parse_shared_prefs(&String::from_utf8_lossy(&data)) {
            state.prefs.insert(path, map);
        }
    }
    state.files = read_files(shell).await?;
    for (path, line) in &state.files {
        if !is_small_text(path, line) {
            continue;
        }
        match shell.pull(path).await {
            Ok(data) => {
                // A file with no extension may hold anything: only text is shown as words.
                match String::from_utf8(data) {
                    Ok(text) if !text.contains('\0') => {
                        state.texts.insert(path.clone(), text);
                    }
                    _ => {}
                }
            }
            Err(e) if e.is_device_lost() => return Err(e),
            Err(_) => {}
        }
    }
    Ok(state)
}

/// The settings that differ between `before` and `after`: key, value before, value after.
pub fn changed_settings(
    before: &Settings,
    after: &Settings,
) -> Vec<(String, Option<String>, Option<String>)> {
    let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    keys.into_iter()
        .filter(|k| before.get(*k) != after.get(*k))
        .map(|k| (k.clone(), before.get(k).cloned(), after.get(k).cloned()))
        .collect()
}

/// The rows of `a` that `b` lacks, counting duplicates (both sorted).
pub fn multiset_minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut j = 0;
    for row in a {
        while j < b.len() && b[j] < *row {
            j += 1;
        }
        if j < b.len() && b[j] == *row {
            j += 1;
        } else {
            out.push(row.clone());
        }
    }
    out
}

/// Rows added, removed and changed (before, after) in one table: by its `_id` or `id` column when
/// it has one, otherwise rows are compared whole.
fn table_diff(
    before: &[ContentRow],
    after: &[ContentRow],
) -> (
    Vec<ContentRow>,
    Vec<ContentRow>,
    Vec<(ContentRow, ContentRow)>,
) {
    let has = |col: &str| {
        before
            .iter()
            .chain(after)
            .next()
            .is_some_and(|r| r.iter().any(|(c, _)| c == col))
    };
    if let Some(key) = ["_id", "id"].into_iter().find(|k| has(k)) {
        let d = super::sqlite::diff_rows(before, after, key, &[]);
        return (d.added, d.removed, d.changed);
    }
    let mut removed: Vec<ContentRow> = before.to_vec();
    let mut added = Vec::new();
    for row in after {
        match removed.iter().position(|r| r == row) {
            Some(at) => {
                removed.remove(at);
            }
            None => added.push(row.clone()),
        }
    }
    (added, removed, Vec::new())
}

/// The rows of `all` left when each row of `taken` is taken out once, in `all`'s order.
fn multiset_minus_rows(all: &[ContentRow], taken: &[ContentRow]) -> Vec<ContentRow> {
    let mut taken: Vec<&ContentRow> = taken.iter().collect();
    all.iter()
        .filter(|row| match taken.iter().position(|t| t == row) {
            Some(at) => {
                taken.swap_remove(at);
                false
            }
            None => true,
        })
        .cloned()
        .collect()
}

/// The source a change's fact carries: the judge reads it beside the command.
fn since_setup(before: Option<&str>) -> String {
    match before {
        Some(v) => format!("changed since setup, was {v}"),
        None => "added since setup".into(),
    }
}

/// What changed between `before` (setup done) and `after` (the episode's end), as facts: each
/// changed setting as `settings get` prints it now, each changed table's rows now and as setup
/// left them and the latest of its rows that did not change (what a change is read against: the
/// recipes a deletion left, the last call a redial repeats), each changed provider's rows,
/// preference and file.
pub fn facts(before: &PhoneState, after: &PhoneState) -> Vec<Fact> {
    let mut out = Vec::new();
    for (key, was, now) in changed_settings(&before.settings, &after.settings) {
        let (ns, name) = key.split_once('/').unwrap_or(("system", key.as_str()));
        out.push(Fact {
            source: since_setup(Some(was.as_deref().unwrap_or("null"))),
            command: format!("settings get {ns} {name}"),
            output: now.unwrap_or_else(|| "null".into()),
        });
    }
    let empty = BTreeMap::new();
    let dbs: BTreeSet<&String> = before
        .databases
        .keys()
        .chain(after.databases.keys())
        .collect();
    for db in dbs {
        let (b, a) = (
            before.databases.get(db).unwrap_or(&empty),
            after.databases.get(db).unwrap_or(&empty),
        );
        let tables: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
        for table in tables {
            let (setup, now) = (
                b.get(table).map_or(&[][..], |r| &r[..]),
                a.get(table).map_or(&[][..], |r| &r[..]),
            );
            let (added, removed, changed) = table_diff(setup, now);
            if added.is_empty() && removed.is_empty() && changed.is_empty() {
                continue;
            }
            let mut now_rows = added.clone();
            now_rows.extend(changed.iter().map(|(_, a)| a.clone()));
            let mut setup_rows = removed.clone();
            setup_rows.extend(changed.iter().map(|(b, _)| b.clone()));
            let summary = format!(
                "{} rows at setup, {} now: {} added, {} removed, {} changed\n",
                setup.len(),
                now.len(),
                added.len(),
                removed.len(),
                changed.len()
            );
            out.push(Fact {
                source: "changed since setup".into(),
                command: facts::changed_command(db, table),
                output: format!("{summary}{}", facts::rows_lines(&now_rows, MAX_ROWS))
                    .trim_end()
                    .to_string(),
            });
            out.push(Fact {
                source: "changed since setup".into(),
                command: facts::changed_at_setup_command(db, table),
                output: match facts::rows_lines(&setup_rows, MAX_ROWS).trim_end() {
                    "" => "(none)".to_string(),
                    rows => rows.to_string(),
                },
            });
            let unchanged = multiset_minus_rows(now, &now_rows);
            if !unchanged.is_empty() && db != MEDIA_DB {
                out.push(Fact {
                    source: "unchanged beside the change".into(),
                    command: facts::unchanged_command(db, table),
                    output: facts::last_rows_lines(&unchanged, MAX_ROWS)
                        .trim_end()
                        .to_string(),
                });
            }
        }
    }
    for (uri, _) in PROVIDERS {
        let (Some(b), Some(a)) = (before.providers.get(uri), after.providers.get(uri)) else {
            continue;
        };
        let (added, removed) = (multiset_minus(a, b), multiset_minus(b, a));
        if added.is_empty() && removed.is_empty() {
            continue;
        }
        let mut text = format!("{} added, {} removed\n", added.len(), removed.len());
        for (what, rows) in [("added", &added), ("removed", &removed)] {
            for row in rows.iter().take(MAX_ROWS) {
                text.push_str(&format!("{what}: {row}\n"));
            }
        }
        out.push(Fact {
            source: "changed since setup".into(),
            command: format!("content query --uri {uri}"),
            output: text.trim_end().to_string(),
        });
    }
    let no_prefs = BTreeMap::new();
    let files: BTreeSet<&String> = before.prefs.keys().chain(after.prefs.keys()).collect();
    for path in files {
        let (b, a) = (
            before.prefs.get(path).unwrap_or(&no_prefs),
            after.prefs.get(path).unwrap_or(&no_prefs),
        );
        let keys: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
        for key in keys.into_iter().filter(|k| b.get(*k) != a.get(*k)) {
            out.push(Fact {
                source: since_setup(b.get(key).map(String::as_str)),
                command: facts::prefs_command(path, key),
                output: a.get(key).cloned().unwrap_or_else(|| "(not set)".into()),
            });
        }
    }
    let paths: BTreeSet<&String> = before.files.keys().chain(after.files.keys()).collect();
    for path in paths {
        let (b, a) = (before.files.get(path), after.files.get(path));
        let (bt, at) = (before.texts.get(path), after.texts.get(path));
        if b == a && bt == at {
            continue;
        }
        out.push(Fact {
            source: since_setup(b.map(String::as_str)),
            command: format!("ls -l {}", droidmcp_device::command::sh_quote(path)),
            output: a.cloned().unwrap_or_else(|| "(removed)".into()),
        });
        // A text file's words now, when they changed.
        if let Some(text) = at.filter(|t| Some(*t) != bt) {
            out.push(Fact {
                source: match bt {
                    Some(_) => "changed since setup".into(),
                    None => "added since setup".into(),
                },
                command: facts::cat_command(path),
                output: text.clone(),
            });
        }
    }
    out
}

/// Whether `goal` (lower case) names the file at `path` by its file name: a name with an extension,
/// standing as a word of its own ("a" in "a.txt" is no name, nor "notes.txt" in "mynotes.txt").
fn names_file(goal: &str, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    name.contains('.')
        && goal.match_indices(&name).any(|(i, _)| {
            let before = goal[..i].chars().next_back();
            let after = goal[i + name.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
}

/// The files the goal names by file name that did not change (a goal's "the recipes in
/// recipes.txt"): what changed leaves them out, yet a judge needs them to tell a right copy from a
/// wrong one. A small text file's words are given; another file only its `ls -l` line (a picture's
/// content is shown to judges as an image: [`pictures_named`]).
pub fn named_in_goal(goal: &str, before: &PhoneState, after: &PhoneState) -> Vec<Fact> {
    let goal = goal.to_lowercase();
    let mut out = Vec::new();
    for (path, line) in &after.files {
        if !names_file(&goal, path) || before.files.get(path) != Some(line) {
            continue;
        }
        let text = after.texts.get(path);
        if text.is_some() && before.texts.get(path) != text {
            continue;
        }
        let source = "named in the goal, unchanged since setup".to_string();
        match text {
            Some(text) => out.push(Fact {
                source,
                command: facts::cat_command(path),
                output: text.clone(),
            }),
            None => out.push(Fact {
                source,
                command: format!("ls -l {}", droidmcp_device::command::sh_quote(path)),
                output: line.clone(),
            }),
        }
    }
    out
}

/// The picture files in shared storage the goal names by file name (a goal's "the expenses in
/// expenses.jpg"), changed or not: what they show is what such a goal is about, and no list of
/// elements or facts carries it; a judge is shown each as an image.
pub fn pictures_named(goal: &str, state: &PhoneState) -> Vec<String> {
    let goal = goal.to_lowercase();
    state
        .files
        .keys()
        .filter(|path| {
            let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
            ext.is_some_and(|e| PICTURE_EXTENSIONS.contains(&e.as_str())) && names_file(&goal, path)
        })
        .cloned()
        .collect()
}

/// The picture files a judge can be shown (the formats phones keep photos and screenshots in).
const PICTURE_EXTENSIONS: [&str; 3] = ["jpg", "jpeg", "png"];

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[(&str, &str)]) -> ContentRow {
        cells
            .iter()
            .map(|(c, v)| (c.to_string(), Some(v.to_string())))
            .collect()
    }

    #[test]
    fn every_kind_of_change_becomes_a_fact_and_nothing_unchanged_does() {
        let mut before = PhoneState::default();
        before
            .settings
            .insert("system/screen_off_timeout".into(), "30000".into());
        before.settings.insert("global/wifi_on".into(), "1".into());
        let events = vec![
            row(&[("_id", "1"), ("title", "Gym")]),
            row(&[("_id", "3"), ("title", "Lunch")]),
        ];
        before.databases.insert(
            "/data/data/p/databases/calendar.db".into(),
            [("Events".to_string(), events.clone())].into(),
        );
        before
            .files
            .insert("/sdcard/a.txt".into(), "3 2024-06-05 08:00".into());
        let mut after = before.clone();
        after
            .settings
            .insert("system/screen_off_timeout".into(), "600000".into());
        let mut now = events;
        now.push(row(&[("_id", "2"), ("title", "Dentist")]));
        now[0] = row(&[("_id", "1"), ("title", "Gym at 7")]);
        after.databases.insert(
            "/data/data/p/databases/calendar.db".into(),
            [("Events".to_string(), now)].into(),
        );
        after
            .files
            .insert("/sdcard/b.txt".into(), "5 2024-06-05 08:01".into());
        after.texts.insert("/sdcard/b.txt".into(), "hello".into());
        let facts = facts(&before, &after);
        let text: Vec<String> = facts
            .iter()
            .map(|f| format!("{} | {} | {}", f.command, f.source, f.output))
            .collect();
        assert_eq!(text.len(), 6, "{text:#?}");
        assert_eq!(
            text[0],
            "settings get system screen_off_timeout | changed since setup, was 30000 | 600000"
        );
        assert!(text[1].contains("rows of Events added or changed since setup"));
        assert!(text[1].contains("2 rows at setup, 3 now: 1 added, 0 removed, 1 changed"));
        assert!(text[1].contains("title=Dentist") && text[1].contains("title=Gym at 7"));
        assert!(!text[1].contains("Lunch"));
        assert!(text[2].contains("as setup left them") && text[2].ends_with("title=Gym"));
        // The row beside the change, which did not change, for what the change is read against.
        assert_eq!(
            text[3],
            "sqlite /data/data/p/databases/calendar.db: rows of Events unchanged since setup | \
             unchanged beside the change | Row: 0 _id=3, title=Lunch"
        );
        let text: Vec<String> = text[..3].iter().chain(&text[4..]).cloned().collect();
        assert_eq!(
            text[3],
            "ls -l /sdcard/b.txt | added since setup | 5 2024-06-05 08:01"
        );
        // A small text file's words are shown with it.
        assert_eq!(text[4], "cat /sdcard/b.txt | added since setup | hello");
        assert!(is_small_text(
            "/sdcard/Documents/Markor/n.md",
            "120 2024-06-05 08:01"
        ));
        assert!(!is_small_text("/sdcard/DCIM/a.jpg", "120 2024-06-05 08:01"));
        // A note saved with no extension is read (and kept only if its bytes are text); a dot in a
        // folder's name is no extension.
        assert!(is_small_text(
            "/sdcard/Documents/Markor/xc06LmmI",
            "64 2024-06-05 08:01"
        ));
        assert!(!is_small_text(
            "/sdcard/Android/data/net.osmand/a.obf",
            "64 2024-06-05 08:01"
        ));
        assert!(is_small_text(
            "/sdcard/Music/road.m3u",
            "64 2024-06-05 08:01"
        ));
        assert!(!is_small_text("/sdcard/big.txt", "99999 2024-06-05 08:01"));
        assert!(super::facts(&before, &before).is_empty());
    }

    #[test]
    fn unchanged_files_the_goal_names_are_shown_and_no_others() {
        let mut before = PhoneState::default();
        for (path, line) in [
            (
                "/sdcard/Documents/Markor/recipes.txt",
                "80 2024-06-05 08:00",
            ),
            ("/sdcard/Documents/Markor/other.txt", "5 2024-06-05 08:00"),
            ("/sdcard/DCIM/expenses.jpg", "9000 2024-06-05 08:00"),
            ("/sdcard/Download/myrecipes.txt", "5 2024-06-05 08:00"),
            ("/sdcard/notes.md", "5 2024-06-05 08:00"),
        ] {
            before.files.insert(path.into(), line.into());
        }
        before.texts.insert(
            "/sdcard/Documents/Markor/recipes.txt".into(),
            "Tacos: 4 servings".into(),
        );
        before.texts.insert("/sdcard/notes.md".into(), "old".into());
        let mut after = before.clone();
        after.texts.insert("/sdcard/notes.md".into(), "new".into());
        let goal = "Add the recipes from Recipes.txt in Markor, and the expenses in expenses.jpg; \
                    notes.md too.";
        let text: Vec<String> = named_in_goal(goal, &before, &after)
            .iter()
            .map(|f| format!("{} | {} | {}", f.command, f.source, f.output))
            .collect();
        // notes.md changed (what changed shows it); myrecipes.txt only contains the name.
        assert_eq!(
            text,
            [
                "ls -l /sdcard/DCIM/expenses.jpg | named in the goal, unchanged since setup | 9000 2024-06-05 08:00",
                "cat /sdcard/Documents/Markor/recipes.txt | named in the goal, unchanged since setup | Tacos: 4 servings",
            ]
        );
        // The picture is shown as an image, whether or not it changed; text files are not pictures.
        assert_eq!(pictures_named(goal, &after), ["/sdcard/DCIM/expenses.jpg"]);
        assert!(pictures_named("Add the expenses in my_expenses.jpg.", &after).is_empty());
    }
}

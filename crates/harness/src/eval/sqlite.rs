//! App SQLite state: pull a database with its `-wal` and `-shm` files through [`Shell::pull`], read it
//! with rusqlite on the host, and compare before/after the agent acted (AndroidWorld's
//! `validate_rows_addition_integrity` and friends): rows added, rows removed, nothing else changed.

use std::path::PathBuf;

use droidmcp_device::{Shell, ShellError};

use super::android::ContentRow;
use super::matcher::Matcher;

/// A pulled copy of one app database, WAL folded in, readable on the host.
#[derive(Debug)]
pub struct DbSnapshot {
    _dir: tempfile::TempDir,
    path: PathBuf,
    /// The Android path it came from.
    pub source: String,
}

/// Why a database could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{path}: {source}")]
    Shell {
        path: String,
        #[source]
        source: ShellError,
    },
    #[error("{path}: cannot write a local copy: {source}")]
    Local {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Sql {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
}

impl DbError {
    pub fn is_device_lost(&self) -> bool {
        matches!(self, DbError::Shell { source, .. } if source.is_device_lost())
    }
}

impl DbSnapshot {
    /// Pulls `db` and, when present, `db-wal` and `db-shm`, then checkpoints the WAL into the copy so
    /// the snapshot is one self-contained file.
    pub async fn pull(shell: &dyn Shell, db: &str) -> Result<DbSnapshot, DbError> {
        let main = shell.pull(db).await.map_err(|source| DbError::Shell {
            path: db.to_string(),
            source,
        })?;
        let dir = tempfile::tempdir().map_err(|source| DbError::Local {
            path: db.to_string(),
            source,
        })?;
        let name = db
            .rsplit('/')
            .next()
            .filter(|n| !n.is_empty())
            .unwrap_or("app.db");
        let path = dir.path().join(name);
        let write = |p: PathBuf, data: &[u8]| {
            std::fs::write(p, data).map_err(|source| DbError::Local {
                path: db.to_string(),
                source,
            })
        };
        write(path.clone(), &main)?;
        for suffix in ["-wal", "-shm"] {
            match shell.pull(&format!("{db}{suffix}")).await {
                Ok(data) => write(dir.path().join(format!("{name}{suffix}")), &data)?,
                Err(ShellError::NoSuchFile { .. }) => {}
                Err(e) if e.is_device_lost() => {
                    return Err(DbError::Shell {
                        path: db.to_string(),
                        source: e,
                    })
                }
                // A WAL that cannot be read (permissions) leaves the main file, which is still a
                // consistent if older database.
                Err(_) => {}
            }
        }
        let snap = DbSnapshot {
            _dir: dir,
            path,
            source: db.to_string(),
        };
        let conn = snap.open()?;
        let _ = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);");
        Ok(snap)
    }

    /// A snapshot of a local database file (tests, fixtures).
    pub fn from_file(file: &std::path::Path, source: &str) -> Result<DbSnapshot, DbError> {
        let data = std::fs::read(file).map_err(|e| DbError::Local {
            path: source.to_string(),
            source: e,
        })?;
        let dir = tempfile::tempdir().map_err(|e| DbError::Local {
            path: source.to_string(),
            source: e,
        })?;
        let path = dir.path().join("copy.db");
        std::fs::write(&path, data).map_err(|e| DbError::Local {
            path: source.to_string(),
            source: e,
        })?;
        Ok(DbSnapshot {
            _dir: dir,
            path,
            source: source.to_string(),
        })
    }

    fn open(&self) -> Result<rusqlite::Connection, DbError> {
        rusqlite::Connection::open(&self.path).map_err(|source| DbError::Sql {
            path: self.source.clone(),
            source,
        })
    }

    /// Runs a query; every value comes back as text (integers and reals as SQLite prints them, blobs
    /// as hex, NULL as `None`).
    pub fn query(&self, sql: &str) -> Result<Vec<ContentRow>, DbError> {
        let conn = self.open()?;
        let err = |source| DbError::Sql {
            path: self.source.clone(),
            source,
        };
        let mut stmt = conn.prepare(sql).map_err(err)?;
        let names: Vec<String> = stmt.column_names().iter().map(|s| s.to_string()).collect();
        let mut rows = stmt.query([]).map_err(err)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(err)? {
            let mut r = Vec::with_capacity(names.len());
            for (i, name) in names.iter().enumerate() {
                let v = row.get_ref(i).map_err(err)?;
                r.push((name.clone(), value_text(v)));
            }
            out.push(r);
        }
        Ok(out)
    }

    /// Every row of a table.
    pub fn table(&self, table: &str) -> Result<Vec<ContentRow>, DbError> {
        self.query(&format!("SELECT * FROM \"{}\"", table.replace('"', "\"\"")))
    }
}

fn value_text(v: rusqlite::types::ValueRef<'_>) -> Option<String> {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(f) => Some(f.to_string()),
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Some(b.iter().map(|x| format!("{x:02x}")).collect()),
    }
}

/// Column tests one row must pass.
pub type RowMatch = Vec<(String, Matcher)>;

/// Whether a row passes every column test.
pub fn row_matches(row: &ContentRow, tests: &RowMatch, now_ms: Option<i64>) -> Result<(), String> {
    for (column, m) in tests {
        let present = row.iter().any(|(n, _)| n == column);
        if !present {
            return Err(format!("no column {column:?}"));
        }
        let v = row
            .iter()
            .find(|(n, _)| n == column)
            .and_then(|(_, v)| v.as_deref());
        m.check(v, now_ms).map_err(|e| format!("{column}: {e}"))?;
    }
    Ok(())
}

/// Why no row matches `tests`, told on the row that comes closest (the most expected columns
/// matching; the first such row): every expected column with that row's value, matched or not.
/// Naming only the first row's first mismatch would blame a field that is not the difference
/// (`got "Alice Kim"` while a `Keiko Larsen` row exists whose number is what differs).
pub fn closest_miss(rows: &[ContentRow], tests: &RowMatch, now_ms: Option<i64>) -> String {
    let judged = |row: &ContentRow| -> Vec<(&str, Result<Option<String>, String>)> {
        tests
            .iter()
            .map(|(column, m)| {
                let verdict = match row.iter().find(|(n, _)| n == column) {
                    None => Err("no such column".to_string()),
                    Some((_, v)) => m.check(v.as_deref(), now_ms).map(|_| v.clone()),
                };
                (column.as_str(), verdict)
            })
            .collect()
    };
    let best = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (i, judged(r)))
        .max_by_key(|(i, fields)| {
            (
                fields.iter().filter(|(_, v)| v.is_ok()).count(),
                std::cmp::Reverse(*i),
            )
        });
    let Some((index, fields)) = best else {
        return "no rows".into();
    };
    let fields: Vec<String> = fields
        .into_iter()
        .map(|(column, verdict)| match verdict {
            Ok(Some(v)) => format!("{column} = {v:?} (as expected)"),
            Ok(None) => format!("{column} = NULL (as expected)"),
            Err(e) => format!("{column}: {e}"),
        })
        .collect();
    format!(
        "closest is row {} of {}: {}",
        index + 1,
        rows.len(),
        fields.join("; ")
    )
}

/// What changed in one table between two snapshots, rows identified by a key column.
#[derive(Debug, Default, PartialEq)]
pub struct TableDiff {
    pub added: Vec<ContentRow>,
    pub removed: Vec<ContentRow>,
    /// (before, after) pairs whose non-ignored columns differ.
    pub changed: Vec<(ContentRow, ContentRow)>,
}

/// Compares rows by `key`; columns in `ignore` may change freely (modified timestamps, sync flags).
pub fn diff_rows(
    before: &[ContentRow],
    after: &[ContentRow],
    key: &str,
    ignore: &[String],
) -> TableDiff {
    let key_of = |r: &ContentRow| -> Option<String> {
        r.iter()
            .find(|(n, _)| n == key)
            .and_then(|(_, v)| v.clone())
    };
    let strip = |r: &ContentRow| -> ContentRow {
        r.iter()
            .filter(|(n, _)| !ignore.contains(n))
            .cloned()
            .collect()
    };
    let mut diff = TableDiff::default();
    for b in before {
        match after.iter().find(|a| key_of(a) == key_of(b)) {
            None => diff.removed.push(b.clone()),
            Some(a) if strip(a) != strip(b) => diff.changed.push((b.clone(), a.clone())),
            Some(_) => {}
        }
    }
    for a in after {
        if !before.iter().any(|b| key_of(b) == key_of(a)) {
            diff.added.push(a.clone());
        }
    }
    diff
}

/// Assigns each expected row to a distinct actual row that matches it (bipartite matching, so the
/// order of `expected` does not matter). Returns the failure for the first unmatched expectation.
pub fn match_all(
    expected: &[RowMatch],
    rows: &[ContentRow],
    now_ms: Option<i64>,
) -> Result<(), String> {
    let ok: Vec<Vec<bool>> = expected
        .iter()
        .map(|e| {
            rows.iter()
                .map(|r| row_matches(r, e, now_ms).is_ok())
                .collect()
        })
        .collect();
    let mut owner: Vec<Option<usize>> = vec![None; rows.len()];
    fn augment(e: usize, ok: &[Vec<bool>], owner: &mut [Option<usize>], seen: &mut [bool]) -> bool {
        for r in 0..owner.len() {
            if ok[e][r] && !seen[r] {
                seen[r] = true;
                if owner[r].is_none_or(|o| augment(o, ok, owner, seen)) {
                    owner[r] = Some(e);
                    return true;
                }
            }
        }
        false
    }
    for e in 0..expected.len() {
        let mut seen = vec![false; rows.len()];
        if !augment(e, &ok, &mut owner, &mut seen) {
            // The rows other expectations took are still candidates to compare with: the
            // closest row is what the agent most likely meant.
            let why = closest_miss(rows, &expected[e], now_ms);
            return Err(format!("expected row #{} not found ({why})", e + 1));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(fields: &[(&str, &str)]) -> ContentRow {
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), Some(v.to_string())))
            .collect()
    }

    #[test]
    fn a_missing_row_is_explained_on_the_closest_row_field_by_field() {
        let rows = vec![
            row(&[("name", "Alice Kim"), ("number", "6505550100")]),
            row(&[("name", "Keiko Larsen"), ("number", "6505550199")]),
        ];
        let want: RowMatch = vec![
            ("name".into(), Matcher::Eq("Keiko Larsen".into())),
            ("number".into(), Matcher::Eq("6505550123".into())),
        ];
        let why = match_all(&[want.clone()], &rows, None).unwrap_err();
        assert!(why.contains("closest is row 2 of 2"), "{why}");
        assert!(
            why.contains("name = \"Keiko Larsen\" (as expected)"),
            "{why}"
        );
        assert!(why.contains("number: "), "{why}");
        assert!(why.contains("6505550199"), "{why}");
        assert!(!why.contains("Alice"), "{why}");
        assert_eq!(closest_miss(&[], &want, None), "no rows");
    }

    fn alarms_db(dir: &std::path::Path, rows: &[(i64, i64, i64, i64)]) -> PathBuf {
        let path = dir.join("alarms.db");
        let _ = std::fs::remove_file(&path);
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE alarm_templates(_id INTEGER PRIMARY KEY, hour INTEGER NOT NULL, minutes INTEGER NOT NULL, daysofweek INTEGER NOT NULL, enabled INTEGER NOT NULL, vibrate INTEGER, label TEXT);",
        )
        .unwrap();
        for (i, (h, m, d, e)) in rows.iter().enumerate() {
            conn.execute(
                "INSERT INTO alarm_templates VALUES (?1, ?2, ?3, ?4, ?5, 1, NULL)",
                [i as i64 + 1, *h, *m, *d, *e],
            )
            .unwrap();
        }
        path
    }

    #[test]
    fn reads_real_sqlite_file_as_text_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = alarms_db(dir.path(), &[(8, 30, 31, 1), (9, 0, 0, 0)]);
        let snap = DbSnapshot::from_file(&path, "alarms.db").unwrap();
        let rows = snap
            .query("SELECT hour, minutes, label FROM alarm_templates ORDER BY _id")
            .unwrap();
        assert_eq!(
            rows[0],
            vec![
                ("hour".into(), Some("8".into())),
                ("minutes".into(), Some("30".into())),
                ("label".into(), None)
            ]
        );
        assert!(snap.query("SELECT nope FROM alarm_templates").is_err());
    }

    #[test]
    fn diff_finds_added_removed_changed() {
        let dir = tempfile::tempdir().unwrap();
        let before =
            DbSnapshot::from_file(&alarms_db(dir.path(), &[(8, 30, 31, 1), (9, 0, 0, 0)]), "b")
                .unwrap();
        let after = DbSnapshot::from_file(
            &alarms_db(dir.path(), &[(8, 30, 31, 0), (9, 0, 0, 0), (10, 30, 31, 1)]),
            "a",
        )
        .unwrap();
        let (b, a) = (
            before.table("alarm_templates").unwrap(),
            after.table("alarm_templates").unwrap(),
        );
        let d = diff_rows(&b, &a, "_id", &[]);
        assert_eq!(d.added.len(), 1);
        assert!(d.removed.is_empty());
        assert_eq!(d.changed.len(), 1, "alarm 1 was disabled");
        let d = diff_rows(&b, &a, "_id", &["enabled".to_string()]);
        assert!(d.changed.is_empty());
        let want: RowMatch = vec![
            ("hour".into(), Matcher::Eq("10".into())),
            ("daysofweek".into(), Matcher::Eq("31".into())),
        ];
        assert!(match_all(&[want.clone()], &d.added, None).is_ok());
        assert!(
            match_all(&[want.clone(), want], &d.added, None).is_err(),
            "one row cannot satisfy two expectations"
        );
    }

    #[test]
    fn matching_is_order_independent() {
        let row = |t: &str| -> ContentRow { vec![("title".into(), Some(t.into()))] };
        let rows = vec![row("Meeting with Ana"), row("Meeting")];
        let broad: RowMatch = vec![("title".into(), Matcher::Contains("Meeting".into()))];
        let narrow: RowMatch = vec![("title".into(), Matcher::Eq("Meeting with Ana".into()))];
        assert!(match_all(&[broad, narrow], &rows, None).is_ok());
    }
}

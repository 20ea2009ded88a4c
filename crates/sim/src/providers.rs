//! Content providers behind `content query --uri content://…` for app data (SMS, contacts, call log,
//! calendar), reading the same SQLite files the apps write.
//!
//! Brief overview: each submodule owns one Android provider's database the way the real provider
//! does (schema, the views it queries, and the writes apps make through it): [`telephony`]
//! (`mmssms.db`), [`contacts`] (`contacts2.db`), [`calllog`] (`calllog.db`) and [`calendar`] (the
//! Calendar app's `calendar.db`, read only) and [`media`] (MediaStore's `external.db`, in step with
//! shared storage). [`query`] maps a URI to a table or view plus a fixed
//! filter, then lets SQLite evaluate the caller's projection, selection and sort order, exactly as
//! Android's providers hand them to SQLite.

use rusqlite::types::ValueRef;
use rusqlite::Connection;

use super::system::System;

pub mod calendar;
pub mod calllog;
pub mod contacts;
pub mod media;
pub mod phone_number;
pub mod telephony;

/// One result row: column names and values as `content query` prints them (`NULL` for null).
pub type Row = Vec<(String, String)>;

/// Why a provider query failed, worded as Android's `content` tool reports it.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("Unknown URI {0}")]
    UnknownUri(String),
    #[error("{0}")]
    Query(String),
}

impl From<rusqlite::Error> for ProviderError {
    fn from(e: rusqlite::Error) -> Self {
        ProviderError::Query(e.to_string())
    }
}

/// Where a URI's rows come from: a table or view in one database, a filter the URI implies, and
/// the provider's default sort order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Source {
    pub db: Db,
    pub table: &'static str,
    /// SQL the URI adds to the caller's selection (`type=2` for `content://sms/sent`).
    pub filter: Option<String>,
    pub default_sort: Option<&'static str>,
}

/// The provider databases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Db {
    Telephony,
    Contacts,
    CallLog,
    Calendar,
    Media,
}

impl Db {
    fn open(self, sys: &System) -> rusqlite::Result<Connection> {
        match self {
            Db::Telephony => telephony::open_for_query(sys),
            Db::Contacts => contacts::open(sys),
            Db::CallLog => calllog::open(sys),
            Db::Calendar => calendar::open(sys),
            Db::Media => media::open(sys),
        }
    }
}

/// The source a URI names.
fn source_of(uri: &str) -> Result<Source, ProviderError> {
    let unknown = || ProviderError::UnknownUri(uri.to_string());
    let rest = uri.strip_prefix("content://").ok_or_else(unknown)?;
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match authority {
        "sms" | "mms-sms" => telephony::source(authority, &segments),
        "com.android.contacts" | "contacts" => contacts::source(authority, &segments),
        "call_log" => calllog::source(&segments),
        "com.android.calendar" => calendar::source(&segments),
        "media" => media::source(&segments),
        _ => None,
    }
    .ok_or_else(unknown)
}

/// `content delete`: removes the rows of `uri` that match `selection` (all of them without one),
/// as the provider's `delete` does for a URI backed by a table (`content://call_log/calls`,
/// `content://sms`); returns how many went. A URI over one of the providers' views is refused, as
/// the phone does not carry out those providers' cascades.
pub fn delete(sys: &System, uri: &str, selection: Option<&str>) -> Result<usize, ProviderError> {
    let source = source_of(uri)?;
    let conn = source.db.open(sys)?;
    let is_table: bool = conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [source.table],
        |r| r.get::<_, i64>(0),
    )? > 0;
    if !is_table {
        return Err(ProviderError::Query(format!(
            "Cannot delete from URL: {uri}"
        )));
    }
    let clauses: Vec<String> = source
        .filter
        .iter()
        .map(String::as_str)
        .chain(selection.filter(|s| !s.trim().is_empty()))
        .map(|c| format!("({c})"))
        .collect();
    let where_sql = if clauses.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", clauses.join(" AND "))
    };
    if source.db == Db::Media {
        // MediaStore's rows stand for files: the files go with them.
        return media::delete(sys, &conn, &where_sql);
    }
    Ok(conn.execute(&format!("DELETE FROM {}{where_sql}", source.table), [])?)
}

/// Runs a query against the provider that owns `uri`.
pub fn query(
    sys: &System,
    uri: &str,
    projection: Option<&[String]>,
    selection: Option<&str>,
    sort: Option<&str>,
) -> Result<Vec<Row>, ProviderError> {
    let source = source_of(uri)?;
    let conn = source.db.open(sys)?;
    run(&conn, &source, projection, selection, sort)
}

/// Builds and runs the SELECT for one query on a connection that may not write.
fn run(
    conn: &Connection,
    source: &Source,
    projection: Option<&[String]>,
    selection: Option<&str>,
    sort: Option<&str>,
) -> Result<Vec<Row>, ProviderError> {
    if !table_exists(conn, source.table)? {
        return Ok(Vec::new());
    }
    let columns = match projection {
        Some(cols) if !cols.is_empty() => {
            for c in cols {
                if !is_identifier(c) && c != "*" {
                    return Err(ProviderError::Query(format!("Invalid column {c}")));
                }
            }
            cols.join(", ")
        }
        _ => "*".to_string(),
    };
    for clause in [selection, sort].into_iter().flatten() {
        if has_statement_break(clause) {
            return Err(ProviderError::Query(format!(
                "unrecognized token: \";\" in {clause:?}"
            )));
        }
    }
    let mut sql = format!("SELECT {columns} FROM {}", source.table);
    let conditions: Vec<String> = [source.filter.clone(), selection.map(str::to_string)]
        .into_iter()
        .flatten()
        .filter(|c| !c.trim().is_empty())
        .map(|c| format!("({c})"))
        .collect();
    if !conditions.is_empty() {
        sql.push_str(" WHERE ");
        sql.push_str(&conditions.join(" AND "));
    }
    if let Some(order) = sort
        .filter(|s| !s.trim().is_empty())
        .or(source.default_sort)
    {
        sql.push_str(" ORDER BY ");
        sql.push_str(order);
    }
    // The caller's selection and sort are raw SQL, as on Android; query_only keeps them from writing.
    conn.pragma_update(None, "query_only", true)?;
    let result = select_rows(conn, &sql);
    conn.pragma_update(None, "query_only", false)?;
    result
}

fn select_rows(conn: &Connection, sql: &str) -> Result<Vec<Row>, ProviderError> {
    let mut stmt = conn.prepare(sql)?;
    let names: Vec<String> = stmt.column_names().iter().map(|s| s.to_string()).collect();
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let mut values = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            values.push((name.clone(), value_text(row.get_ref(i)?)));
        }
        out.push(values);
    }
    Ok(out)
}

/// A cell as `content query` prints it.
fn value_text(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Null => "NULL".to_string(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => f.to_string(),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(_) => "BLOB".to_string(),
    }
}

fn table_exists(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT COUNT(*) FROM sqlite_master WHERE name = ?1 AND type IN ('table', 'view')",
        [name],
        |r| r.get::<_, i64>(0),
    )
    .map(|n| n > 0)
}

/// Whether SQL text ends its statement early (a `;` outside quotes), which a WHERE or ORDER BY
/// clause never needs.
fn has_statement_break(sql: &str) -> bool {
    let mut quote: Option<char> = None;
    for c in sql.chars() {
        match (quote, c) {
            (None, '\'' | '"' | '`') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ';') => return true,
            _ => {}
        }
    }
    false
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A numeric row id from a URI segment (`content://sms/12`).
pub(crate) fn row_id(segment: &str) -> Option<i64> {
    segment.parse::<i64>().ok().filter(|id| *id >= 0)
}

/// Milliseconds since the epoch on the simulated clock (Android stores UTC ms).
pub fn now_ms(sys: &System) -> i64 {
    sys.clock.now().and_utc().timestamp_millis()
}

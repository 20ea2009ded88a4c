//! A records app's table: opened (and made) at the app's path with its schema, read as
//! [`Record`]s, written by the form and emptied of rows by delete. Values go through bound
//! parameters; table and column names come from the app's [`Spec`], never from input.

use rusqlite::types::Value;
use rusqlite::{params_from_iter, Connection};

use super::{Kind, Record, Spec, Stamp};
use crate::system::System;

/// Opens the app's database, making its tables when they are missing (a new install, `pm
/// clear`, or a file someone replaced with an empty one).
pub fn open(sys: &System, spec: &Spec) -> rusqlite::Result<Connection> {
    let db = sys.open_db(spec.db_path)?;
    db.execute_batch(spec.schema)?;
    Ok(db)
}

/// A stored value as the form keeps it: text as is, an amount in whole cents (a REAL written by
/// another writer is rounded), a choice's id.
fn as_text(kind: Kind, value: Value) -> String {
    match (kind, value) {
        (_, Value::Null) => String::new(),
        (_, Value::Integer(i)) => i.to_string(),
        (Kind::Money | Kind::Choice(_), Value::Real(f)) => (f.round() as i64).to_string(),
        (_, Value::Real(f)) => f.to_string(),
        (_, Value::Text(t)) => t,
        (_, Value::Blob(b)) => String::from_utf8_lossy(&b).into_owned(),
    }
}

/// A stamp's stored value as a whole number: an integer as is, a REAL (a distance another writer
/// stored as a float) rounded, anything else 0.
fn as_number(value: Value) -> i64 {
    match value {
        Value::Integer(i) => i,
        Value::Real(f) => f.round() as i64,
        _ => 0,
    }
}

/// Every row, in the app's order.
pub fn list(db: &Connection, spec: &Spec) -> rusqlite::Result<Vec<Record>> {
    let columns: Vec<&str> = std::iter::once(spec.key)
        .chain(spec.fields.iter().map(|f| f.column))
        .chain(spec.stamps.iter().map(|(c, _)| *c))
        .collect();
    let sql = format!(
        "SELECT {} FROM {} ORDER BY {}",
        columns.join(", "),
        spec.table,
        spec.order_by
    );
    let mut stmt = db.prepare(&sql)?;
    let rows = stmt.query_map([], |r| {
        let n = spec.fields.len();
        let values = spec
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| r.get::<_, Value>(i + 1).map(|v| as_text(f.kind, v)))
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let stamps = (0..spec.stamps.len())
            .map(|i| r.get::<_, Value>(n + 1 + i).map(as_number))
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Record {
            id: r.get(0)?,
            values,
            stamps,
        })
    })?;
    rows.collect()
}

/// A form value as its column stores it.
fn as_value(kind: Kind, text: &str) -> Value {
    match kind {
        Kind::Text | Kind::Multiline => Value::Text(text.to_string()),
        Kind::Money | Kind::Choice(_) => Value::Integer(text.parse().unwrap_or(0)),
    }
}

/// Adds a row (stamped `now`); returns its key.
pub fn insert(db: &Connection, spec: &Spec, values: &[String], now: i64) -> rusqlite::Result<i64> {
    let mut columns: Vec<&str> = spec.fields.iter().map(|f| f.column).collect();
    let mut bound: Vec<Value> = spec
        .fields
        .iter()
        .zip(values)
        .map(|(f, v)| as_value(f.kind, v))
        .collect();
    for (column, stamp) in spec.stamps {
        if *stamp != Stamp::Kept {
            columns.push(column);
            bound.push(Value::Integer(now));
        }
    }
    let marks = vec!["?"; columns.len()].join(", ");
    db.execute(
        &format!(
            "INSERT INTO {} ({}) VALUES ({marks})",
            spec.table,
            columns.join(", ")
        ),
        params_from_iter(bound),
    )?;
    Ok(db.last_insert_rowid())
}

/// Rewrites a row's fields and its modified stamp.
pub fn update(
    db: &Connection,
    spec: &Spec,
    id: i64,
    values: &[String],
    now: i64,
) -> rusqlite::Result<usize> {
    let mut sets: Vec<String> = spec
        .fields
        .iter()
        .map(|f| format!("{} = ?", f.column))
        .collect();
    let mut bound: Vec<Value> = spec
        .fields
        .iter()
        .zip(values)
        .map(|(f, v)| as_value(f.kind, v))
        .collect();
    for (column, stamp) in spec.stamps {
        if *stamp == Stamp::Modified {
            sets.push(format!("{column} = ?"));
            bound.push(Value::Integer(now));
        }
    }
    bound.push(Value::Integer(id));
    db.execute(
        &format!(
            "UPDATE {} SET {} WHERE {} = ?",
            spec.table,
            sets.join(", "),
            spec.key
        ),
        params_from_iter(bound),
    )
}

/// Deletes the rows with these keys; returns how many went.
pub fn delete(db: &Connection, spec: &Spec, ids: &[i64]) -> rusqlite::Result<usize> {
    let mut n = 0;
    for id in ids {
        n += db.execute(
            &format!("DELETE FROM {} WHERE {} = ?1", spec.table, spec.key),
            [id],
        )?;
    }
    Ok(n)
}

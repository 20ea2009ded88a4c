//! Content providers behind `content query --uri content://…` for app data (SMS, contacts, call log,
//! calendar), reading the same SQLite files the apps write.

use super::system::System;

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

/// Runs a query against the provider that owns `uri`.
pub fn query(
    _sys: &System,
    uri: &str,
    _projection: Option<&[String]>,
    _selection: Option<&str>,
    _sort: Option<&str>,
) -> Result<Vec<Row>, ProviderError> {
    Err(ProviderError::UnknownUri(uri.to_string()))
}

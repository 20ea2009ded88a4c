//! The SQLite store: episodes, steps, check results and verdicts, committed as they happen.

//! Task errors. Load errors name the file, the line and the field (`tasks/clock.toml: line 12:
//! check "db": kind: unknown evaluator "sqlite_row"`); instance errors name the task and parameter.

use std::fmt;
use std::path::PathBuf;

/// A task file (or one task in it) that cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    pub path: PathBuf,
    pub line: Option<usize>,
    /// Dotted location of the bad field (`task "x": check "db": regex`).
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ": line {line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

/// 1-based line of a byte offset in `src`.
pub fn line_of(src: &str, offset: usize) -> usize {
    src.as_bytes()[..offset.min(src.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// Why a task could not be instantiated or found.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    #[error("unknown task {id:?}{}", hint(.suggestions))]
    UnknownTask {
        id: String,
        suggestions: Vec<String>,
    },
    #[error("task {task}: unknown parameter {name:?} (parameters: {known})")]
    UnknownParam {
        task: String,
        name: String,
        known: String,
    },
    #[error("task {task}: parameter {name}: {message}")]
    BadParam {
        task: String,
        name: String,
        message: String,
    },
    #[error("task {task}: {message}")]
    Render { task: String, message: String },
}

fn hint(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", suggestions.join(", "))
    }
}

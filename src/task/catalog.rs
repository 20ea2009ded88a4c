//! The task catalog: every `*.toml` under a directory, loaded and validated. Broken files and tasks are
//! reported and skipped; the good ones serve.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::{LoadError, TaskError};
use super::validate::parse_file;
use super::Task;

/// Validated tasks by id.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    tasks: BTreeMap<String, Arc<Task>>,
}

impl Catalog {
    /// Loads every `*.toml` file below `dir` (sorted, recursive). Returns the catalog of good tasks
    /// and every load error; a duplicate id keeps the first and reports the second.
    pub fn load_dir(dir: &Path) -> (Catalog, Vec<LoadError>) {
        let mut files = Vec::new();
        let mut errors = Vec::new();
        collect(dir, &mut files, &mut errors);
        files.sort();
        let mut catalog = Catalog::default();
        for path in files {
            match std::fs::read_to_string(&path) {
                Ok(src) => catalog.add_source(&path, &src, &mut errors),
                Err(e) => errors.push(LoadError {
                    path,
                    line: None,
                    field: None,
                    message: format!("cannot read: {e}"),
                }),
            }
        }
        (catalog, errors)
    }

    /// Adds the tasks of one file's text.
    pub fn add_source(&mut self, path: &Path, src: &str, errors: &mut Vec<LoadError>) {
        let (tasks, errs) = parse_file(path, src);
        errors.extend(errs);
        for task in tasks {
            if let Some(existing) = self.tasks.get(&task.id) {
                errors.push(LoadError {
                    path: path.to_path_buf(),
                    line: None,
                    field: Some(format!("task {:?}", task.id)),
                    message: format!(
                        "duplicate id (first defined in {})",
                        existing.file.display()
                    ),
                });
                continue;
            }
            self.tasks.insert(task.id.clone(), Arc::new(task));
        }
    }

    pub fn get(&self, id: &str) -> Result<Arc<Task>, TaskError> {
        self.tasks.get(id).cloned().ok_or_else(|| {
            let mut near: Vec<(f64, &String)> = self
                .tasks
                .keys()
                .map(|k| (strsim::jaro_winkler(k, id), k))
                .filter(|(s, _)| *s > 0.8)
                .collect();
            near.sort_by(|a, b| b.0.total_cmp(&a.0));
            TaskError::UnknownTask {
                id: id.to_string(),
                suggestions: near.into_iter().take(3).map(|(_, k)| k.clone()).collect(),
            }
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<Task>> {
        self.tasks.values()
    }

    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<LoadError>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(LoadError {
                path: dir.to_path_buf(),
                line: None,
                field: None,
                message: format!("cannot read directory: {e}"),
            });
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files, errors);
        } else if path.extension().is_some_and(|e| e == "toml") {
            files.push(path);
        }
    }
}

/// The task directory: `DROIDMCP_TASKS`, else `tasks/` in the working directory, else the crate's.
pub fn default_dir() -> PathBuf {
    data_dir("tasks", "DROIDMCP_TASKS")
}

/// One of the repository's data directories (`tasks`, `judges`): `$VAR` when set, else `./NAME` in
/// the working directory, else the one in the checkout this binary was built from, else the copy
/// compiled into the binary ([`super::bundled`]), so commands work from any directory and without
/// a checkout.
pub fn data_dir(name: &str, var: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from(name);
    if local.is_dir() {
        return local;
    }
    let checkout = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(name);
    if checkout.is_dir() {
        return checkout;
    }
    super::bundled::unpacked(name).unwrap_or(checkout)
}

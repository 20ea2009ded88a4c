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

/// The task directory: `DROIDMCP_TASKS`, else `tasks/` in the working directory, else the suite
/// the binary carries.
pub fn default_dir() -> PathBuf {
    data_dir("tasks", "DROIDMCP_TASKS")
}

/// One of the repository's data directories (`tasks`, `judges`): `$VAR` when set, else `./NAME` in
/// the working directory, else the copy compiled into the binary, unpacked into the user's cache
/// ([`super::bundled`]), so commands work from any directory and without a checkout. Never the
/// checkout the binary was built in: a wheel or `cargo install` carries that machine's path, and
/// a directory that happens to exist there would outrank what the binary ships.
pub fn data_dir(name: &str, var: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os(var).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from(name);
    if local.is_dir() {
        return local;
    }
    super::bundled::unpacked(name)
}

/// A data directory named on the command line (`--judges judges/local`): the path itself when it
/// is a directory (relative to the working directory), else the same path inside [`data_dir`]'s
/// directory with a leading `NAME/` dropped, so `judges/local` and `local` both name the bundled
/// panel `judges/local/` and the commands the docs give work from any directory.
pub fn given_data_dir(given: &Path, name: &str, var: &str) -> Result<PathBuf, DataDirError> {
    if given.is_dir() {
        return Ok(given.to_path_buf());
    }
    inside_data_dir(given, name, &data_dir(name, var))
}

fn inside_data_dir(given: &Path, name: &str, root: &Path) -> Result<PathBuf, DataDirError> {
    let not_found = || DataDirError {
        given: given.to_path_buf(),
        root: root.to_path_buf(),
        available: subdirs(root),
    };
    if given.is_absolute() {
        return Err(not_found());
    }
    let rest = given.strip_prefix(name).unwrap_or(given);
    let inside = root.join(rest);
    if inside.is_dir() {
        Ok(inside)
    } else {
        Err(not_found())
    }
}

/// The subdirectories of `root`, for an error that says what there is.
fn subdirs(root: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    found
}

/// A directory given on the command line that is neither here nor in the data directory.
#[derive(Debug, thiserror::Error)]
#[error(
    "no directory {} here, nor in {} (the ones there: {})",
    .given.display(),
    .root.display(),
    listed(.available)
)]
pub struct DataDirError {
    pub given: PathBuf,
    pub root: PathBuf,
    pub available: Vec<String>,
}

fn listed(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::inside_data_dir;
    use std::path::Path;

    /// `--judges judges/local` and `--judges local` name the bundled panel wherever the command
    /// runs; a name that is not there says what is.
    #[test]
    fn a_given_directory_is_looked_up_in_the_data_directory() {
        let data = tempfile::tempdir().unwrap();
        let local = data.path().join("local");
        std::fs::create_dir(&local).unwrap();
        // "panels" stands for "judges": the test's working directory (the checkout) has judges/.
        assert_eq!(
            inside_data_dir(Path::new("panels/local"), "panels", data.path()).unwrap(),
            local
        );
        assert_eq!(
            inside_data_dir(Path::new("local"), "panels", data.path()).unwrap(),
            local
        );
        let e = inside_data_dir(Path::new("panels/cloud"), "panels", data.path()).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("panels/cloud") && text.contains("local"),
            "{text}"
        );
        assert!(inside_data_dir(Path::new("/nowhere/local"), "panels", data.path()).is_err());
    }
}

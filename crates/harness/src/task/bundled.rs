//! The task suite and the judge configs compiled into the binary (build.rs), unpacked into the
//! user's cache when the binary runs outside a checkout: an installed wheel or `cargo install`
//! finds `tasks/` and `judges/` as a checkout does, and every reader keeps reading a directory.

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/data_files.rs"));

/// The bundled `name` directory (`tasks`, `judges`) written under
/// `$XDG_CACHE_HOME/droidmcp/data-VERSION/` (else `~/.cache/…`, else the temporary directory);
/// files already there with the same text are left alone. When it cannot be written the path is
/// returned all the same (a warning says why), and reading it then names it.
pub fn unpacked(name: &str) -> PathBuf {
    let base = cache_base().join(format!("data-{}", env!("CARGO_PKG_VERSION")));
    unpack_into(&base, name).unwrap_or_else(|e| {
        tracing::warn!(
            "cannot unpack the bundled {name} into {}: {e}",
            base.display()
        );
        base.join(name)
    })
}

fn unpack_into(base: &Path, name: &str) -> std::io::Result<PathBuf> {
    let prefix = format!("{name}/");
    for (rel, text) in FILES.iter().filter(|(rel, _)| rel.starts_with(&prefix)) {
        write_if_changed(&base.join(rel), text)?;
    }
    Ok(base.join(name))
}

fn cache_base() -> PathBuf {
    let home_cache = || std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache"));
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(home_cache)
        .unwrap_or_else(std::env::temp_dir)
        .join("droidmcp")
}

/// Writes through a temporary file and a rename, so a process reading the file beside another that
/// unpacks never sees half of it.
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|t| t == text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_suite_and_the_judges_are_bundled() {
        let tasks = super::FILES
            .iter()
            .filter(|(p, _)| p.starts_with("tasks/"))
            .count();
        assert!(tasks >= 10, "{tasks} task files");
        assert!(super::FILES.iter().any(|(p, _)| *p == "judges/panel.toml"));
        assert!(super::FILES
            .iter()
            .any(|(p, _)| *p == "judges/local/panel.toml"));
    }

    /// Unpacked, the bundled suite is the checkout's: the same tasks load from it.
    #[test]
    fn the_unpacked_suite_loads_as_the_checkouts() {
        let cache = tempfile::tempdir().unwrap();
        let dir = super::unpack_into(cache.path(), "tasks").unwrap();
        let (bundled, errors) = crate::task::Catalog::load_dir(&dir);
        assert!(errors.is_empty(), "{errors:?}");
        let checkout = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tasks");
        let (tasks, _) = crate::task::Catalog::load_dir(&checkout);
        assert_eq!(bundled.len(), tasks.len());
        // A second unpack leaves the files as they are.
        assert_eq!(super::unpack_into(cache.path(), "tasks").unwrap(), dir);
    }
}

//! Token files: written owner-only (mode 0600) from the first byte, so no other user of the machine
//! can read a credential in the window between creating a file and tightening it.

use std::io::Write;
use std::path::Path;

/// A fresh random token of `len` letters and digits (from the OS-seeded thread RNG).
pub fn random_token(len: usize) -> String {
    use rand::distributions::{Alphanumeric, DistString};
    Alphanumeric.sample_string(&mut rand::thread_rng(), len)
}

/// Writes `text` to `path`, readable and writable by its owner only (an existing file is tightened
/// first, then replaced).
pub fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    if path.exists() {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()
}

/// The token kept in `path`, created when missing. A file other users could read (or an empty one)
/// gets a new token: one that may have been read is not a secret any more.
pub fn load_or_create(path: &Path, len: usize) -> std::io::Result<String> {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path) {
        if meta.permissions().mode() & 0o077 == 0 {
            let text = std::fs::read_to_string(path)?;
            let token = text.trim();
            if !token.is_empty() && !token.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Ok(token.to_string());
            }
        }
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let token = random_token(len);
    write_private(path, &token)?;
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_token_file_is_owner_only_and_a_readable_one_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/token");
        let t = load_or_create(&path, 32).unwrap();
        assert_eq!(t.len(), 32);
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(
            load_or_create(&path, 32).unwrap(),
            t,
            "kept across restarts"
        );
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let renewed = load_or_create(&path, 32).unwrap();
        assert_ne!(renewed, t);
        assert_eq!(mode(&path), 0o600);
    }
}

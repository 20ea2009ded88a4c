//! Shared helpers for integration tests.

use std::path::PathBuf;

/// The shared research corpus and data (`../shared` beside the checkout, or `DROIDMCP_SHARED`).
#[allow(dead_code)]
pub fn shared_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("DROIDMCP_SHARED") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

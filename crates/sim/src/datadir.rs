//! The host folders that stand for embedded phones' `/`.
//!
//! Each phone gets its own temporary folder, named for the process that made it
//! (`droidmcp-sim-<pid>-XXXXXX`). It goes away with the phone, at the end of the process
//! ([`remove_all`], for phones still held when the process ends: a server keeps its phones to the
//! last moment), and, when the process was killed before it could do either, at the next boot of
//! any phone by a later process ([`create`] sweeps folders whose process is gone).

use std::path::PathBuf;
use std::sync::{Mutex, Once};

/// The prefix every phone folder's name starts with.
const PREFIX: &str = "droidmcp-sim-";

/// Folders this process made (some may already be gone with their phone).
static MADE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static SWEEP: Once = Once::new();

/// A new phone folder; the first call of a process also removes the folders of dead processes.
pub fn create() -> std::io::Result<tempfile::TempDir> {
    SWEEP.call_once(sweep);
    let dir = tempfile::Builder::new()
        .prefix(&format!("{PREFIX}{}-", std::process::id()))
        .tempdir()?;
    MADE.lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(dir.path().to_path_buf());
    Ok(dir)
}

/// Removes every phone folder this process made; called as the process ends.
pub fn remove_all() {
    for dir in MADE.lock().unwrap_or_else(|p| p.into_inner()).drain(..) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Removes phone folders whose owning process no longer runs. Only where the system says which
/// processes run (`/proc`); elsewhere folders of killed processes stay for the OS to clear.
fn sweep() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = owner(&name.to_string_lossy()) else {
            continue;
        };
        if !process_is_gone(pid) {
            continue;
        }
        let _ = std::fs::remove_dir_all(entry.path());
    }
}

/// The process id in a phone folder's name (`droidmcp-sim-<pid>-XXXXXX`).
fn owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?;
    let (pid, suffix) = rest.split_once('-')?;
    (!suffix.is_empty()).then_some(())?;
    pid.parse().ok()
}

fn process_is_gone(pid: u32) -> bool {
    let proc = std::path::Path::new("/proc");
    proc.join("self").exists() && !proc.join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_say_their_owner() {
        assert_eq!(owner("droidmcp-sim-4242-a1B2c3"), Some(4242));
        assert_eq!(owner("droidmcp-sim-a1B2c3"), None);
        assert_eq!(owner("droidmcp-sim-4242-"), None);
        assert_eq!(owner("other-4242-x"), None);
    }

    #[test]
    fn a_dead_processs_folder_is_swept_and_a_live_ones_kept() {
        let tmp = std::env::temp_dir();
        // Pid numbers above the kernel's maximum (4194304) never run.
        let dead = tmp.join(format!("{PREFIX}4194305-sweeptest"));
        let live = tmp.join(format!("{PREFIX}{}-sweeptest", std::process::id()));
        for d in [&dead, &live] {
            std::fs::create_dir_all(d.join("data")).unwrap();
        }
        sweep();
        assert!(!dead.exists(), "the dead process's folder stays");
        assert!(live.exists(), "a live process's folder was removed");
        std::fs::remove_dir_all(live).unwrap();
    }
}

//! The host folders that stand for embedded phones' `/`.
//!
//! Each phone gets its own temporary folder, named for the process that made it
//! (`droidmcp-sim-<pid>-XXXXXX`). It goes away with the phone, at the end of the process
//! ([`remove_all`], for phones still held when the process ends: a server keeps its phones to the
//! last moment), and, when the process was killed before it could do either, at the next boot of
//! any phone by a later process ([`create`] sweeps folders whose process is gone).
//!
//! The folders live in memory when the host has room there ([`base`]): a phone's files are a few
//! hundred KB, but a run makes and deletes them by the thousand, and on a disk filesystem (ext4)
//! creating them cost more than everything else in an episode (78 B-MoCA goldens replayed in 22.4 s
//! with the folders under /tmp, 8.3 s under /dev/shm, same binary, same machine).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, OnceLock};

/// The prefix every phone folder's name starts with.
const PREFIX: &str = "droidmcp-sim-";

/// Folders this process made (some may already be gone with their phone).
static MADE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static SWEEP: Once = Once::new();

/// Free space a memory filesystem must have to hold phone folders: a container's 64 MiB `/dev/shm`
/// would fill up in a long run, so phones stay on disk there.
const MEMORY_ROOM: u64 = 256 << 20;

/// Where phone folders are made: `DROIDMCP_SIM_DIR` when set; else `/dev/shm` (a memory filesystem
/// on Linux) when it is a writable folder with [`MEMORY_ROOM`] free; else the temporary folder.
pub fn base() -> &'static Path {
    static BASE: OnceLock<PathBuf> = OnceLock::new();
    BASE.get_or_init(|| {
        if let Some(dir) = std::env::var_os("DROIDMCP_SIM_DIR").filter(|d| !d.is_empty()) {
            return PathBuf::from(dir);
        }
        let shm = Path::new("/dev/shm");
        if free_bytes(shm).is_some_and(|free| free >= MEMORY_ROOM) && writable(shm) {
            return shm.to_path_buf();
        }
        std::env::temp_dir()
    })
}

/// The bytes an unprivileged process may still write under `dir`, if the system says.
fn free_bytes(dir: &Path) -> Option<u64> {
    let stat = rustix::fs::statvfs(dir).ok()?;
    Some(stat.f_bavail * stat.f_frsize)
}

/// Whether a folder can be made under `dir` (a read-only or foreign-owned mount cannot).
fn writable(dir: &Path) -> bool {
    tempfile::Builder::new()
        .prefix("droidmcp-probe-")
        .tempdir_in(dir)
        .is_ok()
}

/// A new phone folder; the first call of a process also removes the folders of dead processes.
pub fn create() -> std::io::Result<tempfile::TempDir> {
    SWEEP.call_once(sweep);
    let dir = tempfile::Builder::new()
        .prefix(&format!("{PREFIX}{}-", std::process::id()))
        .tempdir_in(base())?;
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

/// Removes phone folders whose owning process no longer runs, wherever this process makes them
/// and in the temporary folder (where an earlier process with other settings may have made them).
/// Only where the system says which processes run (`/proc`); elsewhere folders of killed processes
/// stay for the OS to clear.
fn sweep() {
    let mut places = vec![base().to_path_buf(), std::env::temp_dir()];
    places.dedup();
    for place in places {
        sweep_in(&place);
    }
}

fn sweep_in(place: &Path) {
    let Ok(entries) = std::fs::read_dir(place) else {
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
    fn phone_folders_are_made_where_base_says_and_room_is_measured() {
        let dir = create().unwrap();
        assert_eq!(dir.path().parent(), Some(base()));
        assert!(free_bytes(base()).is_some_and(|free| free > 0));
        assert!(writable(&std::env::temp_dir()));
        assert!(!writable(&dir.path().join("missing")));
        assert_eq!(free_bytes(&dir.path().join("missing")), None);
    }

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

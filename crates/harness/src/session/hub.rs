//! The sessions alive in one process, shared by the front ends (MCP connections, HTTP API, CLI): opens
//! sessions on the shared [`DevicePool`] and finds them again by id.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use super::{DevicePool, Session, SessionError};

/// Every live session of the process, by id.
pub struct Hub {
    pool: Arc<DevicePool>,
    next: AtomicU64,
    /// std mutex: map access only. Weak so a session ends when its front end drops it.
    live: Mutex<BTreeMap<String, Weak<Session>>>,
}

impl Hub {
    pub fn new(pool: Arc<DevicePool>) -> Hub {
        Hub {
            pool,
            next: AtomicU64::new(1),
            live: Mutex::new(BTreeMap::new()),
        }
    }

    pub fn pool(&self) -> &Arc<DevicePool> {
        &self.pool
    }

    fn live(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Weak<Session>>> {
        self.live
            .lock()
            .expect("hub lock is never poisoned: no panics while held")
    }

    /// Opens a session on `device` (the pool default when `None`); `prefix` names the front end.
    pub async fn open(
        &self,
        prefix: &str,
        device: Option<&str>,
    ) -> Result<Arc<Session>, SessionError> {
        let id = format!("{prefix}-{}", self.next.fetch_add(1, Ordering::SeqCst));
        let session = Arc::new(Session::open(self.pool.clone(), id.clone(), device).await?);
        let mut live = self.live();
        live.retain(|_, s| s.strong_count() > 0);
        live.insert(id, Arc::downgrade(&session));
        Ok(session)
    }

    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        self.live().get(id).and_then(Weak::upgrade)
    }

    /// Ids of the sessions still alive.
    pub fn ids(&self) -> Vec<String> {
        self.live()
            .iter()
            .filter(|(_, s)| s.strong_count() > 0)
            .map(|(id, _)| id.clone())
            .collect()
    }
}

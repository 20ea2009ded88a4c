//! The places of MCP sessions over streamable HTTP, so that no client can lock the others out.
//!
//! rmcp keeps the sessions ([`LocalSessionManager`]); this table knows, for each, who opened it (a
//! [`ClientKey`]: the token it presented, else its address), when it was last used and whether a
//! request is running on it. When the cap is reached, a new `initialize` makes room by closing:
//!
//! 1. the least recently used session idle past [`Limits::idle_first`] (abandoned, most likely);
//! 2. else the least recently used idle session of the client holding the most sessions (at least as
//!    many as the newcomer: a client never loses a place to someone holding more), which is the
//!    newcomer itself when it holds the most, so one client cycles through its own share;
//! 3. else nothing: every session has a request running, and the newcomer gets 503 with
//!    `Retry-After` and why.
//!
//! Closing a session costs its client nothing it relies on: observations and the step log live on the
//! phone (`session/memory.rs`), episodes in the registry by device (a closed session's episode stays
//! open, answerable from a new session, and is aborted or ended by the usual rules). Its client gets
//! 404 on the old id and, as the protocol says, initializes again. Stateless requests (protocol
//! `2026-07-28`, no `initialize`) never take a place.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::SessionManager;

/// Who opened a session: a digest of the token it presented, else its address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ClientKey(String);

impl ClientKey {
    /// A token is kept only as a keyed hash (a key of this process), so the table never holds a
    /// credential.
    pub fn token(token: &str) -> ClientKey {
        use std::hash::BuildHasher;
        static KEY: std::sync::OnceLock<std::collections::hash_map::RandomState> =
            std::sync::OnceLock::new();
        let h = KEY.get_or_init(Default::default).hash_one(token);
        ClientKey(format!("token:{h:016x}"))
    }

    pub fn peer(ip: Option<IpAddr>) -> ClientKey {
        ClientKey(match ip {
            Some(ip) => format!("peer:{ip}"),
            None => "peer:unknown".into(),
        })
    }
}

/// How many sessions, and how idle one must be to go first.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub cap: usize,
    /// A session unused this long goes before any other when room is needed.
    pub idle_first: Duration,
    /// A session unused this long is closed whether or not room is needed.
    pub idle_max: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            cap: 64,
            idle_first: Duration::from_secs(60),
            idle_max: Duration::from_secs(600),
        }
    }
}

struct Entry {
    client: ClientKey,
    last_used: Instant,
    running: usize,
}

#[derive(Default)]
struct Table {
    open: HashMap<Arc<str>, Entry>,
    /// Places promised to `initialize` requests still being answered.
    reserved: usize,
}

/// Why a new session was refused.
#[derive(Debug, Clone, thiserror::Error)]
#[error("server busy: all {cap} MCP sessions this server keeps have a request running; retry in a moment")]
pub struct Busy {
    pub cap: usize,
}

/// The session table of one HTTP server.
pub struct Sessions {
    manager: Arc<LocalSessionManager>,
    table: Mutex<Table>,
    limits: Limits,
}

impl Sessions {
    pub fn new(manager: Arc<LocalSessionManager>, limits: Limits) -> Arc<Sessions> {
        Arc::new(Sessions {
            manager,
            table: Mutex::new(Table::default()),
            limits,
        })
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many sessions hold a place now.
    pub fn open(&self) -> usize {
        self.table().open.len()
    }

    /// Forgets sessions rmcp no longer has (closed by DELETE or ended) and closes those unused past
    /// `idle_max`.
    async fn sweep(&self) {
        let known: Vec<Arc<str>> = self.manager.sessions.read().await.keys().cloned().collect();
        let stale: Vec<Arc<str>> = {
            let mut t = self.table();
            t.open.retain(|id, _| known.contains(id));
            let now = Instant::now();
            t.open
                .iter()
                .filter(|(_, e)| e.running == 0 && now - e.last_used >= self.limits.idle_max)
                .map(|(id, _)| id.clone())
                .collect()
        };
        for id in stale {
            self.close(&id).await;
        }
    }

    async fn close(&self, id: &Arc<str>) {
        self.table().open.remove(id);
        if let Err(e) = self.manager.close_session(id).await {
            tracing::debug!("closing MCP session {id}: {e}");
        }
    }

    /// Makes room for a new session of `client`, closing one as the module says when the cap is
    /// reached. The place is held until the [`Place`] is dropped or [`Place::opened`].
    pub async fn admit(self: &Arc<Self>, client: ClientKey) -> Result<Place, Busy> {
        self.sweep().await;
        loop {
            let victim = {
                let mut t = self.table();
                if t.open.len() + t.reserved < self.limits.cap {
                    t.reserved += 1;
                    return Ok(Place {
                        sessions: self.clone(),
                        client,
                        pending: true,
                    });
                }
                choose_victim(&t.open, &client, Instant::now(), self.limits.idle_first)
            };
            match victim {
                Some(id) => {
                    tracing::info!("MCP sessions at their cap: closing {id} to make room");
                    self.close(&id).await;
                }
                None => {
                    return Err(Busy {
                        cap: self.limits.cap,
                    })
                }
            }
        }
    }

    /// A request on session `id` begins; it counts as running until the returned value is dropped
    /// (the response's body ends). `None` for a session this table does not know.
    pub fn begin(self: &Arc<Self>, id: &str) -> Option<Running> {
        let mut t = self.table();
        let key = t.open.get_key_value(id)?.0.clone();
        let e = t.open.get_mut(id)?;
        e.running += 1;
        e.last_used = Instant::now();
        Some(Running {
            sessions: self.clone(),
            id: key,
        })
    }

    /// Session `id` was closed by its client.
    pub fn forget(&self, id: &str) {
        self.table().open.remove(id);
    }
}

/// The session to close for a newcomer `client` when the table is full, if any.
fn choose_victim(
    open: &HashMap<Arc<str>, Entry>,
    client: &ClientKey,
    now: Instant,
    idle_first: Duration,
) -> Option<Arc<str>> {
    let idle = || open.iter().filter(|(_, e)| e.running == 0);
    let lru = |it: &mut dyn Iterator<Item = (&Arc<str>, &Entry)>| {
        it.min_by_key(|(_, e)| e.last_used)
            .map(|(id, _)| id.clone())
    };
    if let Some(id) = lru(&mut idle().filter(|(_, e)| now - e.last_used >= idle_first)) {
        return Some(id);
    }
    let mut held: HashMap<&ClientKey, usize> = HashMap::new();
    for e in open.values() {
        *held.entry(&e.client).or_default() += 1;
    }
    let mine = held.get(client).copied().unwrap_or(0);
    // Clients from the biggest holder down, as long as they hold at least as many as the newcomer.
    let mut holders: Vec<(&ClientKey, usize)> =
        held.into_iter().filter(|(_, n)| *n >= mine).collect();
    holders.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0 .0.cmp(&b.0 .0)));
    holders
        .into_iter()
        .find_map(|(c, _)| lru(&mut idle().filter(|(_, e)| &e.client == c)))
}

/// A place promised to an `initialize` being answered.
pub struct Place {
    sessions: Arc<Sessions>,
    client: ClientKey,
    pending: bool,
}

impl Place {
    /// rmcp opened session `id` in this place.
    pub fn opened(mut self, id: &str) {
        let mut t = self.sessions.table();
        t.reserved -= 1;
        self.pending = false;
        t.open.insert(
            Arc::from(id),
            Entry {
                client: self.client.clone(),
                last_used: Instant::now(),
                running: 0,
            },
        );
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if self.pending {
            self.sessions.table().reserved -= 1;
        }
    }
}

/// A request running on a session.
pub struct Running {
    sessions: Arc<Sessions>,
    id: Arc<str>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(e) = self.sessions.table().open.get_mut(&self.id) {
            e.running = e.running.saturating_sub(1);
            e.last_used = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(client: &str, ago: u64, running: usize, now: Instant) -> Entry {
        Entry {
            client: ClientKey(client.into()),
            last_used: now - Duration::from_secs(ago),
            running,
        }
    }

    #[test]
    fn the_victim_is_an_abandoned_session_then_the_biggest_holders_least_recent() {
        let now = Instant::now() + Duration::from_secs(1000);
        let first = Duration::from_secs(60);
        let mut open: HashMap<Arc<str>, Entry> = HashMap::new();
        open.insert("a1".into(), entry("a", 5, 0, now));
        open.insert("a2".into(), entry("a", 9, 0, now));
        open.insert("a3".into(), entry("a", 20, 1, now));
        open.insert("b1".into(), entry("b", 30, 0, now));
        let b = ClientKey("b".into());
        let c = ClientKey("c".into());
        // Nothing idle past a minute: the biggest holder's (a) least recent idle one (a3 is running).
        assert_eq!(choose_victim(&open, &c, now, first).as_deref(), Some("a2"));
        // Long idle goes first, whoever holds it.
        open.insert("b2".into(), entry("b", 100, 0, now));
        assert_eq!(choose_victim(&open, &c, now, first).as_deref(), Some("b2"));
        open.remove("b2");
        // A client holding as many as the biggest cycles through its own.
        let mut one: HashMap<Arc<str>, Entry> = HashMap::new();
        one.insert("b1".into(), entry("b", 3, 0, now));
        one.insert("b2".into(), entry("b", 2, 0, now));
        assert_eq!(choose_victim(&one, &b, now, first).as_deref(), Some("b1"));
        // Everything running: no victim.
        let mut busy: HashMap<Arc<str>, Entry> = HashMap::new();
        busy.insert("a1".into(), entry("a", 300, 1, now));
        assert_eq!(choose_victim(&busy, &c, now, first), None);
        // Nobody with at least as many as the newcomer has an idle one: no victim.
        let mut mine: HashMap<Arc<str>, Entry> = HashMap::new();
        mine.insert("c1".into(), entry("c", 3, 1, now));
        mine.insert("c2".into(), entry("c", 3, 1, now));
        mine.insert("a1".into(), entry("a", 3, 0, now));
        assert_eq!(choose_victim(&mine, &c, now, first), None);
    }
}

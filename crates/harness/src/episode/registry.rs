//! [`Episodes`]: the live episodes and the task catalog, shared by the MCP tools, the HTTP routes,
//! the CLI and the runner, and the [`DeviceSource`] they get their devices from.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::episode::Episode;
use super::record::step_row;
use super::{EpisodeError, Report, Status};
use crate::session::DevicePool;
use crate::store::{EpisodeRow, StepRow, Store};
use crate::task::{Catalog, Kind};
use droidmcp_device::Shell;
/// Gives an episode its device: `None` means the default (the embedded phone).
#[async_trait::async_trait]
pub trait DeviceSource: Send + Sync {
    async fn shell(&self, device: Option<&str>) -> Result<Arc<dyn Shell>, String>;
}

/// The live episodes and the task catalog, shared by the MCP tools, the HTTP routes and the CLI.
pub struct Episodes {
    catalog: Arc<Catalog>,
    store: Option<Store>,
    devices: Arc<dyn DeviceSource>,
    live: std::sync::Mutex<HashMap<String, Arc<tokio::sync::Mutex<Episode>>>>,
}

/// A started episode as front ends report it.
#[derive(Debug, Clone, PartialEq)]
pub struct Started {
    pub episode: String,
    pub task: String,
    pub goal: String,
    pub kind: Kind,
    pub max_steps: u32,
    pub seed: u64,
    pub params: Vec<(String, String)>,
    pub device: String,
    pub setup: Vec<String>,
}

/// A read-only view of an episode for `GET /v1/episodes/{id}`, from the live episode or, for one
/// no longer in memory (ended by a previous process), from the store.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub episode: String,
    pub task: String,
    pub goal: String,
    pub status: Status,
    pub steps: u32,
    pub max_steps: u32,
    pub answer: Option<String>,
    pub finished: bool,
    pub device: String,
    /// The last check: `success`, `failure` or `inconclusive`, and its score.
    pub last_verdict: Option<String>,
    pub last_score: Option<f64>,
    pub provisional: bool,
    pub abort_reason: Option<String>,
    /// The phone was restored to its baseline snapshot before setup; false on a phone without
    /// snapshots (a real device), where only the task's setup reset what it reads.
    pub restored: bool,
}

impl Episodes {
    pub fn new(
        catalog: Arc<Catalog>,
        store: Option<Store>,
        devices: Arc<dyn DeviceSource>,
    ) -> Episodes {
        Episodes {
            catalog,
            store,
            devices,
            live: Default::default(),
        }
    }

    pub fn catalog(&self) -> &Arc<Catalog> {
        &self.catalog
    }

    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    /// Instantiates a task and sets it up on a device. A seed is drawn when none is given.
    pub async fn start(
        &self,
        task_id: &str,
        seed: Option<u64>,
        params: &BTreeMap<String, String>,
        device: Option<&str>,
    ) -> Result<Started, EpisodeError> {
        let task = self.catalog.get(task_id)?;
        let seed = seed.unwrap_or_else(|| rand::random::<u32>() as u64);
        let instance = task.instantiate(seed, params)?;
        let shell = self
            .devices
            .shell(device)
            .await
            .map_err(EpisodeError::NoDevice)?;
        self.start_instance(instance, shell).await
    }

    /// Sets up an instance the caller drew (the runner: its own step budget, the phone it leased)
    /// on `shell` and registers the episode, so the task tools and step sinks find it.
    pub async fn start_instance(
        &self,
        instance: crate::task::TaskInstance,
        shell: Arc<dyn Shell>,
    ) -> Result<Started, EpisodeError> {
        self.supersede_on(shell.as_ref(), &instance.task.id).await;
        let ep = Episode::start(instance, shell, self.store.clone()).await?;
        let task = ep.instance.task.clone();
        let started = Started {
            episode: ep.id.clone(),
            task: task.id.clone(),
            goal: ep.instance.goal.clone(),
            kind: task.kind,
            max_steps: task.max_steps,
            seed: ep.instance.seed,
            params: ep
                .instance
                .params
                .iter()
                .map(|(k, v)| (k.clone(), v.text.clone()))
                .collect(),
            device: ep.device().to_string(),
            setup: ep.setup_log.clone(),
        };
        self.live
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(ep.id.clone(), Arc::new(tokio::sync::Mutex::new(ep)));
        Ok(started)
    }

    /// Aborts the open episodes on `device` before another one starts there: a phone runs one
    /// episode at a time, and the new one's restore and setup would change the phone under the
    /// old one. Their agents see why on their next call.
    /// Supersedes the open episode on `shell`'s device, told apart by its key: another server's
    /// phone with the same serial keeps its episode.
    async fn supersede_on(&self, shell: &dyn Shell, task: &str) {
        let key = shell.device_key();
        for ep in self.live_episodes() {
            let mut ep = ep.lock().await;
            if ep.device_key() == key && ep.status().is_open() {
                ep.supersede(&format!(
                    "another episode (task {task}) was started on {}",
                    shell.serial()
                ));
            }
        }
    }

    /// Every live episode (taken out of the map, so none is locked while the map is).
    fn live_episodes(&self) -> Vec<Arc<tokio::sync::Mutex<Episode>>> {
        self.live
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .cloned()
            .collect()
    }

    /// A live episode. One that only the store knows (its process ended) is closed: acting on it
    /// says so instead of calling it unknown.
    pub fn get(&self, id: &str) -> Result<Arc<tokio::sync::Mutex<Episode>>, EpisodeError> {
        let live = self
            .live
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned();
        if let Some(ep) = live {
            return Ok(ep);
        }
        match self.stored(id)? {
            Some(row) => Err(EpisodeError::Closed {
                id: id.to_string(),
                status: Status::parse(&row.status)
                    .unwrap_or(Status::Aborted)
                    .as_str(),
                what: "acting on it from this process",
                reason: row.abort_reason,
            }),
            None => Err(EpisodeError::UnknownEpisode(id.to_string())),
        }
    }

    fn stored(&self, id: &str) -> Result<Option<EpisodeRow>, EpisodeError> {
        match &self.store {
            Some(store) => Ok(store.episode(id)?),
            None => Ok(None),
        }
    }

    /// Marks `aborted` the episodes a dead process left open in the store (steps kept); returns
    /// their ids. Run once when a server starts.
    pub fn abort_orphans(&self) -> Result<Vec<String>, EpisodeError> {
        match &self.store {
            Some(store) => Ok(store.abort_orphans()?),
            None => Ok(Vec::new()),
        }
    }

    /// The recorded steps of a live or stored episode, oldest first.
    pub async fn steps(&self, id: &str) -> Result<Vec<StepRow>, EpisodeError> {
        if let Some(store) = &self.store {
            if store.episode(id)?.is_some() {
                return Ok(store.steps(id)?);
            }
        }
        let ep = self.get(id)?;
        let guard = ep.lock().await;
        Ok(guard
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                step_row(
                    s,
                    i.checked_sub(1).map(|p| &guard.steps[p]),
                    &s.started_at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
                )
            })
            .collect())
    }

    /// An episode as the store exports it (fields, steps, last check results).
    pub fn export(&self, id: &str) -> Result<serde_json::Value, EpisodeError> {
        let Some(store) = &self.store else {
            return Err(EpisodeError::NotStored);
        };
        store
            .episode_json(id)?
            .ok_or_else(|| EpisodeError::UnknownEpisode(id.to_string()))
    }

    /// The open episode running on a device (by [`Episode::device_key`], so another host's phone
    /// with the same serial is another device), for the session's step hook.
    pub async fn open_on_device(
        &self,
        device_key: &str,
    ) -> Option<Arc<tokio::sync::Mutex<Episode>>> {
        for ep in self.live_episodes() {
            let guard = ep.lock().await;
            if guard.status().is_open() && guard.device_key() == device_key {
                drop(guard);
                return Some(ep);
            }
        }
        None
    }

    /// Records the answer and takes the episode's verdict at once, so nothing done on the phone
    /// afterwards (by the agent or anyone else) changes it.
    pub async fn answer(&self, id: &str, text: &str) -> Result<(), EpisodeError> {
        let ep = self.get(id)?;
        let mut ep = ep.lock().await;
        ep.answer(text)?;
        ep.check().await.map(drop)
    }

    /// Declares the task done and takes the episode's verdict at once (see [`Self::answer`]).
    pub async fn finish(&self, id: &str) -> Result<(), EpisodeError> {
        let ep = self.get(id)?;
        let mut ep = ep.lock().await;
        ep.finish()?;
        ep.check().await.map(drop)
    }

    pub async fn check(&self, id: &str) -> Result<Report, EpisodeError> {
        self.get(id)?.lock().await.check().await
    }

    pub async fn end(&self, id: &str) -> Result<Summary, EpisodeError> {
        let ep = self.get(id)?;
        let mut guard = ep.lock().await;
        guard.end().await?;
        Ok(summary(&guard))
    }

    pub async fn summary(&self, id: &str) -> Result<Summary, EpisodeError> {
        match self.get(id) {
            Ok(ep) => Ok(summary(&*ep.lock().await)),
            Err(EpisodeError::Closed { .. }) => {
                let (Some(store), Some(row)) = (&self.store, self.stored(id)?) else {
                    return Err(EpisodeError::UnknownEpisode(id.to_string()));
                };
                let steps = store.steps(id)?.len() as u32;
                Ok(Summary {
                    episode: row.id,
                    task: row.task_id,
                    goal: row.goal,
                    status: Status::parse(&row.status).unwrap_or(Status::Aborted),
                    steps,
                    max_steps: row.max_steps,
                    answer: row.answer,
                    finished: row.finished,
                    device: row.device,
                    last_verdict: row.verdict,
                    last_score: row.score,
                    provisional: row.provisional,
                    abort_reason: row.abort_reason,
                    restored: row.restored,
                })
            }
            Err(e) => Err(e),
        }
    }
}

fn summary(ep: &Episode) -> Summary {
    Summary {
        episode: ep.id.clone(),
        task: ep.instance.task.id.clone(),
        goal: ep.instance.goal.clone(),
        status: ep.status,
        steps: ep.steps.len() as u32,
        max_steps: ep.instance.task.max_steps,
        answer: ep.answer.clone(),
        finished: ep.finished,
        device: ep.device().to_string(),
        last_verdict: ep.last.as_ref().map(|v| v.kind().to_string()),
        last_score: ep.last.as_ref().map(|v| v.score),
        provisional: ep.provisional,
        abort_reason: ep.abort_reason.clone(),
        restored: ep.restored,
    }
}

/// Devices for episodes from the session layer's pool (the same phone the session acts on).
pub struct PoolDevices(pub Arc<DevicePool>);

#[async_trait::async_trait]
impl DeviceSource for PoolDevices {
    async fn shell(&self, device: Option<&str>) -> Result<Arc<dyn Shell>, String> {
        let lease = self.0.lease(device).await.map_err(|e| e.to_string())?;
        Ok(lease.slot().device.shell_handle())
    }
}

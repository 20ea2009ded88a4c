//! What a run holds, as recorded in the store when it is created: re-running it by name with no
//! selection options resumes it as recorded, and a re-run whose options differ is refused (its
//! finished rows would not mean what the new options say).
//!
//! The record is JSON written with `serde_json::json!` and read back field by field; no core type
//! derives `Serialize`.

use serde_json::{json, Value};

use super::plan::{Selection, Source};
use super::RunError;
use crate::agent::Style;
use crate::fleet::provider::ProviderConfig;

/// Which agent plays the episodes.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentSpec {
    /// A reference agent over an OpenAI-compatible endpoint.
    Reference {
        style: Style,
        model: String,
        base_url: String,
        /// The environment variable holding the API key (its value is never recorded).
        api_key_env: Option<String>,
    },
    /// A command spawned per episode (see [`super::command`]).
    Command(String),
}

/// A run: its name, instances, agent, phones and limits.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSpec {
    pub name: String,
    pub selection: Selection,
    /// Instances per task (each with its own derived seed).
    pub seeds: u32,
    pub run_seed: u64,
    /// Device environments, each instance played in each (`None`: the phone's default).
    pub envs: Vec<Option<String>>,
    /// A step limit for every task; `None`: each task's own (AndroidWorld's 10 × complexity unless
    /// the task file says otherwise).
    pub max_steps: Option<u32>,
    pub agent: AgentSpec,
    /// How many embedded phones play at once.
    pub phones: u32,
    /// adb serials that play too, one episode each at a time.
    pub devices: Vec<String>,
    /// Attempts after an errored one, per instance.
    pub retries: u32,
    /// Longest an agent may take for one episode, in seconds.
    pub episode_timeout_s: u64,
    /// Devices beyond the embedded phones and `devices`, and how they are held.
    pub fleet: FleetSpec,
}

/// Where a run's other devices come from and how they are held. Not part of the record: a run may
/// resume on other devices, and each shard of it plays on its own.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetSpec {
    /// adb servers whose every ready device plays (`--adb-server`, repeatable; `devices` narrows
    /// them to named serials).
    pub adb_servers: Vec<String>,
    /// `host:port` endpoints to `adb connect` through the home adb server.
    pub connect: Vec<String>,
    /// Farms behind lease and release commands.
    pub providers: Vec<ProviderConfig>,
    /// How long a lease lasts unrenewed, in seconds (heartbeats renew it every third of that).
    pub lease_ttl_s: u64,
    /// Errored attempts after which a device is set aside.
    pub max_device_failures: u32,
    /// This process plays one shard of the run's instances (`--shard i/n`).
    pub shard: Option<Shard>,
}

impl Default for FleetSpec {
    fn default() -> FleetSpec {
        let held = crate::fleet::FleetConfig::default();
        FleetSpec {
            adb_servers: Vec::new(),
            connect: Vec::new(),
            providers: Vec::new(),
            lease_ttl_s: held.ttl.as_secs(),
            max_device_failures: held.max_failures,
            shard: None,
        }
    }
}

/// Shard `index` (1-based) of `count`: every `count`-th instance of the plan, starting at `index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// `i/n` with 1 ≤ i ≤ n.
    pub fn parse(text: &str) -> Result<Shard, RunError> {
        let bad = || RunError::Spec(format!("--shard {text:?}: expected i/n with 1 <= i <= n"));
        let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether the plan's `position`-th instance (0-based) is this shard's.
    pub fn holds(&self, position: usize) -> bool {
        position % self.count as usize == (self.index - 1) as usize
    }
}

impl RunSpec {
    /// The record kept in the store: what decides which instances the run holds and how they are
    /// played. Phones and devices are left out: a run may resume on other phones.
    pub fn record(&self) -> Value {
        let agent = match &self.agent {
            AgentSpec::Reference {
                style,
                model,
                base_url,
                api_key_env,
            } => json!({"kind": "reference", "style": style.name(), "model": model,
                        "base_url": base_url, "api_key_env": api_key_env}),
            AgentSpec::Command(cmd) => json!({"kind": "command", "command": cmd}),
        };
        json!({
            "tasks": self.selection.patterns,
            "tags": self.selection.tags,
            "sources": self.selection.sources.iter().map(|s| s.name()).collect::<Vec<_>>(),
            "seeds": self.seeds,
            "run_seed": self.run_seed,
            "envs": self.envs,
            "max_steps": self.max_steps,
            "agent": agent,
            "retries": self.retries,
            "episode_timeout_s": self.episode_timeout_s,
        })
    }

    /// The run recorded as `record` under `name`, to be played on `phones` and `devices`.
    pub fn from_record(
        name: &str,
        record: &str,
        phones: u32,
        devices: Vec<String>,
    ) -> Result<RunSpec, RunError> {
        let bad = |what: &str| {
            RunError::Spec(format!(
                "run {name:?}: its stored record has no valid {what}"
            ))
        };
        let v: Value = serde_json::from_str(record).map_err(|_| bad("JSON"))?;
        let strings = |key: &str| -> Result<Vec<String>, RunError> {
            v.get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| bad(key))?
                .iter()
                .map(|s| s.as_str().map(str::to_string).ok_or_else(|| bad(key)))
                .collect()
        };
        let sources = strings("sources")?
            .iter()
            .map(|s| Source::parse(s).ok_or_else(|| bad("sources")))
            .collect::<Result<_, _>>()?;
        let envs = v
            .get("envs")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("envs"))?
            .iter()
            .map(|e| match e {
                Value::Null => Ok(None),
                Value::String(s) => Ok(Some(s.clone())),
                _ => Err(bad("envs")),
            })
            .collect::<Result<_, _>>()?;
        let a = v.get("agent").ok_or_else(|| bad("agent"))?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let agent = match a.get("kind").and_then(Value::as_str) {
            Some("reference") => AgentSpec::Reference {
                style: text(a, "style")
                    .as_deref()
                    .and_then(Style::parse)
                    .ok_or_else(|| bad("agent style"))?,
                model: text(a, "model").ok_or_else(|| bad("agent model"))?,
                base_url: text(a, "base_url").ok_or_else(|| bad("agent base_url"))?,
                api_key_env: text(a, "api_key_env"),
            },
            Some("command") => {
                AgentSpec::Command(text(a, "command").ok_or_else(|| bad("agent command"))?)
            }
            _ => return Err(bad("agent kind")),
        };
        let number = |key: &str| v.get(key).and_then(Value::as_u64).ok_or_else(|| bad(key));
        Ok(RunSpec {
            name: name.to_string(),
            selection: Selection {
                patterns: strings("tasks")?,
                tags: strings("tags")?,
                sources,
            },
            seeds: number("seeds")? as u32,
            run_seed: number("run_seed")?,
            envs,
            max_steps: v.get("max_steps").and_then(Value::as_u64).map(|n| n as u32),
            agent,
            phones,
            devices,
            retries: number("retries")? as u32,
            episode_timeout_s: number("episode_timeout_s")?,
            fleet: FleetSpec::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_the_same_run() {
        let spec = RunSpec {
            name: "r".into(),
            selection: Selection {
                patterns: vec!["aw.*".into()],
                tags: vec!["easy".into()],
                sources: vec![Source::AndroidWorld],
            },
            seeds: 3,
            run_seed: 42,
            envs: vec![None, Some("105".into())],
            max_steps: Some(12),
            agent: AgentSpec::Reference {
                style: Style::M3a,
                model: "m".into(),
                base_url: "http://127.0.0.1:1/v1".into(),
                api_key_env: Some("KEY".into()),
            },
            phones: 2,
            devices: vec![],
            retries: 2,
            episode_timeout_s: 300,
            fleet: FleetSpec::default(),
        };
        let back = RunSpec::from_record("r", &spec.record().to_string(), 2, vec![]).unwrap();
        assert_eq!(back, spec);
        let e = RunSpec::from_record("r", "{\"tasks\": 3}", 1, vec![])
            .unwrap_err()
            .to_string();
        assert!(e.contains("run \"r\"") && e.contains("has no valid"), "{e}");
    }

    #[test]
    fn two_shards_split_the_plan_between_them() {
        let (a, b) = (
            Shard::parse("1/2").unwrap(),
            Shard::parse(" 2 / 2 ").unwrap(),
        );
        let held: Vec<(bool, bool)> = (0..5).map(|p| (a.holds(p), b.holds(p))).collect();
        assert!(held.iter().all(|(x, y)| x != y), "{held:?}");
        for bad in ["0/2", "3/2", "2", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}

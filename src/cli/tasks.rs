//! `droidmcp tasks list|show|replay`: the task catalog and golden replay on the embedded phone.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use super::Global;
use crate::episode::replay::{run_instance_from, Solution, Start};
use crate::episode::Baseline;
use crate::task::{Catalog, Task};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// List the tasks (id, kind, apps, goal template); load errors go to stderr.
    List {
        /// One JSON object per line instead of a table.
        #[arg(long)]
        json: bool,
        /// Task directory (default: $DROIDMCP_TASKS, ./tasks, or the crate's tasks/).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Show one task: its template, and the instance a seed gives (parameters, setup, checks, golden).
    Show {
        /// Task id (`droidmcp tasks list`).
        id: String,
        /// The instance's seed (its drawn parameters).
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Task directory (default: $DROIDMCP_TASKS, ./tasks, or the crate's tasks/).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Replay golden solutions on fresh embedded phones (or --device), one line per instance; exits 1
    /// if any instance scores below 1.0 (or, with --wrong/--empty/--near-miss, if any succeeds).
    /// `--suite` runs golden, empty, wrong and every near miss of each instance (the whole sweep).
    Replay {
        /// Task ids or globs (`aw.clock.*`, `*.wifi_*`), as `run --tasks` takes them.
        ids: Vec<String>,
        /// Every task of the directory (instead of naming ids).
        #[arg(long)]
        all: bool,
        /// Instances per task (seeds 0..N).
        #[arg(long, default_value_t = 1)]
        seeds: u64,
        /// Replay a plausible wrong trajectory instead; an instance passes if it does NOT succeed.
        #[arg(long, conflicts_with_all = ["empty", "near_miss", "suite"])]
        wrong: bool,
        /// Replay nothing (finish at once); an instance passes if it does NOT succeed.
        #[arg(long, conflicts_with_all = ["near_miss", "suite"])]
        empty: bool,
        /// Replay every near miss (the golden with one parameter off); each must run all its
        /// actions and NOT succeed.
        #[arg(long, conflicts_with = "suite")]
        near_miss: bool,
        /// Golden, empty, the plausible wrong trajectory and every near miss of each instance: one
        /// command for every sweep a task must pass.
        #[arg(long)]
        suite: bool,
        /// Replays at a time, each on its own phone (default: 1 with --device, else the number of
        /// cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Record every replayed episode in this store, for `droidmcp report` (success by
        /// environment and by factor after an `--env` sweep).
        #[arg(long)]
        store: Option<PathBuf>,
        /// Set a parameter instead of drawing it (`--param name=value`, repeatable; checked
        /// against the parameter's spec).
        #[arg(long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
        params: Vec<(String, String)>,
        /// Play on the phone as it is (with --device): no boot-snapshot restore and no setup, for
        /// data another harness set up (scripts/android-world --drive, over AndroidWorld's setup).
        #[arg(long)]
        no_setup: bool,
        /// Task directory (default: $DROIDMCP_TASKS, ./tasks, or the crate's tasks/).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
}

fn parse_param(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name.to_string(), value.to_string())),
        _ => Err(format!("{text:?} is not NAME=VALUE")),
    }
}

fn load(dir: Option<PathBuf>) -> (Catalog, usize) {
    let dir = dir.unwrap_or_else(crate::task::catalog::default_dir);
    let (catalog, errors) = Catalog::load_dir(&dir);
    for e in &errors {
        eprintln!("droidmcp: {e}");
    }
    (catalog, errors.len())
}

pub async fn run(global: &Global, cmd: Command) -> anyhow::Result<i32> {
    match cmd {
        Command::List { json, dir } => {
            let (catalog, _) = load(dir);
            let mut out = std::io::stdout().lock();
            for t in catalog.iter() {
                if json {
                    writeln!(
                        out,
                        "{}",
                        serde_json::to_string(&crate::http::wire::TaskInfo::from_task(t))?
                    )?;
                } else {
                    writeln!(
                        out,
                        "{:<44} {:<10} {:<10} {}",
                        t.id,
                        t.kind.as_str(),
                        t.apps.join(","),
                        t.goal
                    )?;
                }
            }
            Ok(0)
        }
        Command::Show { id, seed, dir } => {
            let (catalog, _) = load(dir);
            let task = catalog.get(&id)?;
            show(&task, seed)?;
            Ok(0)
        }
        Command::Replay {
            ids,
            all,
            seeds,
            wrong,
            empty,
            near_miss,
            suite,
            jobs,
            store,
            params,
            no_setup,
            dir,
        } => {
            if no_setup
                && global
                    .device
                    .as_deref()
                    .is_none_or(|d| d.starts_with("sim"))
            {
                anyhow::bail!(
                    "--no-setup plays on a phone someone else set up: name it with --device \
                     (a new embedded phone has nothing set up)"
                );
            }
            let start = Arc::new(Start {
                params: params.into_iter().collect(),
                baseline: if no_setup {
                    Baseline::AsFound
                } else {
                    Baseline::Setup
                },
            });
            let (catalog, load_errors) = load(dir);
            // `--env` on a replay sweeps: every instance runs once per environment named.
            let envs: Vec<Option<String>> = match &global.env {
                Some(spec) => crate::env::Environment::resolve_many(spec)?
                    .into_iter()
                    .map(|e| Some(e.name))
                    .collect(),
                None => vec![None],
            };
            let store = match store {
                Some(path) => Some(
                    crate::store::Store::open(&path)
                        .with_context(|| format!("opening the episode store {}", path.display()))?,
                ),
                None => None,
            };
            let tasks: Vec<Arc<Task>> = if all || ids.is_empty() {
                if !all {
                    anyhow::bail!("name task ids or pass --all");
                }
                catalog.iter().cloned().collect()
            } else {
                // Ids or globs, picked as `run --tasks` picks them.
                crate::run::plan::Selection {
                    patterns: ids.clone(),
                    ..Default::default()
                }
                .pick(&catalog)?
            };
            let mut failures = 0;
            let started = std::time::Instant::now();
            let jobs = jobs.unwrap_or_else(|| match global.device {
                Some(_) => 1,
                None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            });
            let limit = Arc::new(tokio::sync::Semaphore::new(jobs.max(1)));
            let mut running = tokio::task::JoinSet::new();
            for task in &tasks {
                for seed in 0..seeds {
                    let instance = task.instantiate(seed, &start.params)?;
                    let near = match instance.near_misses() {
                        Ok(n) => Arc::new(n),
                        Err(e) => {
                            failures += 1;
                            println!("FAIL {} seed={seed} near misses: {e}", task.id);
                            Arc::default()
                        }
                    };
                    let near_runs = || (0..near.len()).map(Solution::NearMiss);
                    let solutions: Vec<Solution> = if wrong {
                        vec![Solution::Wrong]
                    } else if empty {
                        vec![Solution::Empty]
                    } else if near_miss {
                        near_runs().collect()
                    } else if suite {
                        [Solution::Golden, Solution::Empty, Solution::Wrong]
                            .into_iter()
                            .chain(near_runs())
                            .collect()
                    } else {
                        vec![Solution::Golden]
                    };
                    for solution in solutions {
                        for env in &envs {
                            let (global, task, near, limit, env, store, start) = (
                                global.clone(),
                                task.clone(),
                                near.clone(),
                                limit.clone(),
                                env.clone(),
                                store.clone(),
                                start.clone(),
                            );
                            running.spawn(async move {
                                let _permit = limit.acquire_owned().await;
                                let outcome = replay_one(
                                    &global,
                                    &task,
                                    seed,
                                    env.as_deref(),
                                    store,
                                    solution,
                                    &near,
                                    &start,
                                )
                                .await;
                                (task.id.clone(), seed, env, outcome)
                            });
                        }
                    }
                }
            }
            let mut count = 0;
            let mut by_env: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
            while let Some(done) = running.join_next().await {
                let (id, seed, env, outcome) = done?;
                let (ok, line) = outcome?;
                count += 1;
                if !ok {
                    failures += 1;
                }
                let env_text = env.as_ref().map_or(String::new(), |e| format!(" env={e}"));
                if let Some(env) = env {
                    let tally = by_env.entry(env).or_default();
                    tally.0 += 1;
                    tally.1 += usize::from(ok);
                }
                println!(
                    "{} {id} seed={seed}{env_text} {line}",
                    if ok { "PASS" } else { "FAIL" }
                );
            }
            for (env, (runs, passed)) in &by_env {
                println!("env {env}: {passed}/{runs} as expected");
            }
            let secs = started.elapsed().as_secs_f64();
            println!(
                "{count} instance(s), {failures} failed, {:.1}s ({:.2} instances/s)",
                secs,
                count as f64 / secs.max(1e-9)
            );
            Ok(if failures > 0 || load_errors > 0 {
                1
            } else {
                0
            })
        }
    }
}

/// One replay on a fresh phone: whether it scored as it must, and the line that says how.
async fn replay_one(
    global: &Global,
    task: &Arc<Task>,
    seed: u64,
    env: Option<&str>,
    store: Option<crate::store::Store>,
    solution: Solution,
    near: &[crate::task::NearMiss],
    start: &Start,
) -> anyhow::Result<(bool, String)> {
    let device = global
        .device
        .clone()
        .unwrap_or_else(|| format!("sim:{seed}"));
    let on_sim = device.starts_with("sim");
    let spec = match env {
        Some(env) if on_sim => crate::env::with_env(&device, env),
        _ => device,
    };
    let mut shell = crate::fleet::open(Some(&spec), global.adb_server())
        .await
        .with_context(|| format!("opening device {spec}"))?;
    // A real device is put into the environment over its shell, and restored afterwards.
    let mut applied = None;
    if let (Some(name), false) = (env, on_sim) {
        let environment = crate::env::Environment::resolve(name)?;
        let done = crate::env::apply::apply(shell.as_ref(), &environment)
            .await
            .with_context(|| format!("applying environment {name} to {spec}"))?;
        let raw = shell.clone();
        shell = Arc::new(crate::env::apply::InEnvironment::new(raw.clone(), &done));
        applied = Some((raw, done));
    }
    let outcome = replay_scored(task, seed, start, shell, store, solution, near).await;
    let Some((raw, done)) = applied else {
        return outcome;
    };
    crate::env::apply::restore(raw.as_ref(), &done)
        .await
        .with_context(|| format!("restoring {spec} after environment {}", done.env))?;
    let missing: Vec<String> = done
        .not_applied()
        .into_iter()
        .map(|(factor, why)| format!("{factor} ({why})"))
        .collect();
    outcome.map(|(ok, line)| {
        if missing.is_empty() {
            (ok, line)
        } else {
            (
                ok,
                format!("{line}  [env not applied: {}]", missing.join("; ")),
            )
        }
    })
}

/// Runs one replay and says whether it scored as it must.
async fn replay_scored(
    task: &Arc<Task>,
    seed: u64,
    start: &Start,
    shell: Arc<dyn crate::device::Shell>,
    store: Option<crate::store::Store>,
    solution: Solution,
    near: &[crate::task::NearMiss],
) -> anyhow::Result<(bool, String)> {
    let (what, want_steps) = match solution {
        Solution::NearMiss(i) => (
            format!("near miss {}", near[i].label),
            Task::reference_of(&near[i].actions).len() as u32,
        ),
        Solution::Golden => ("golden".to_string(), 0),
        Solution::Empty => ("empty".to_string(), 0),
        Solution::Wrong => ("wrong".to_string(), 0),
    };
    Ok(
        match run_instance_from(task, seed, start, shell, store, solution).await {
            Ok(r) => {
                let ok = match solution {
                    Solution::Golden => r.verdict.success && r.verdict.score >= 1.0,
                    // A near miss that stopped short is an aborted run, not a wrong one.
                    // A detour must fail on the constraint it breaks.
                    Solution::NearMiss(i) => {
                        !r.verdict.success
                            && r.steps_used >= want_steps
                            && near[i].breaks.as_ref().is_none_or(|c| {
                                r.verdict.violations.iter().any(|v| &v.constraint == c)
                            })
                    }
                    _ => !r.verdict.success,
                };
                let failed: Vec<String> = r
                    .verdict
                    .checks
                    .iter()
                    .filter(|c| !c.passed)
                    .map(|c| format!("{}: {}", c.id, c.reason.clone().unwrap_or_default()))
                    .collect();
                let detail = if !ok && !failed.is_empty() {
                    format!("  [{}]", failed.join("; "))
                } else {
                    String::new()
                };
                // The answer as JSON text, for a harness that hands it on (scripts/android-world).
                let answer = r
                    .answer
                    .as_ref()
                    .map(|a| format!(" answer {}", serde_json::Value::from(a.as_str())))
                    .unwrap_or_default();
                (
                    ok,
                    format!(
                        "{what} score {:.2} steps {}/{}{answer}{detail}",
                        r.verdict.score, r.steps_used, r.max_steps
                    ),
                )
            }
            Err(e) => (false, format!("{what} error: {e}")),
        },
    )
}

fn show(task: &Arc<Task>, seed: u64) -> anyhow::Result<()> {
    let inst = task.instantiate(seed, &Default::default())?;
    println!("id:         {}", task.id);
    println!("file:       {}", task.file.display());
    println!(
        "kind:       {}   complexity {}   max_steps {}",
        task.kind.as_str(),
        task.complexity,
        task.max_steps
    );
    println!("apps:       {}", task.apps.join(", "));
    println!("tags:       {}", task.tags.join(", "));
    if let Some(s) = &task.source {
        println!("source:     {s}");
    }
    println!("template:   {}", task.goal);
    println!("seed {seed}:    {}", inst.goal);
    for (k, v) in &inst.params {
        println!("  param {k} = {}", v.text);
    }
    for s in &inst.setup {
        println!("  setup: {}", s.describe());
    }
    for c in &inst.checks {
        println!("  check {} ({:?}): {:?}", c.id, c.when, c.probe);
    }
    for a in &inst.golden {
        println!("  golden: {}", a.describe());
    }
    match inst.near_misses() {
        Ok(near) => {
            for n in near {
                println!("  near miss: {}", n.label);
            }
        }
        Err(e) => println!("  near misses: {e}"),
    }
    Ok(())
}

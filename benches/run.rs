//! The runner's own cost: the whole task suite played by the oracle agent (the T3A reference agent
//! against a scripted model answering each turn with the golden move, no model latency) through
//! `droidmcp run` on 1, 2 and 4 embedded phones, side by side with golden replays (`tasks replay`'s
//! path: the same moves applied straight to a phone) of the same instances. The difference per step
//! is what the runner and the agent loop add: prompts, the element list each turn, the model's HTTP
//! round trip, parsing, the settings and app-data reads around each episode, the run store.
//! Prints its figures (BENCHMARKS.md, "Benchmark: runner").

// The tests read what the model was asked (`requests`, `refused`); the benchmark only times it.
#[allow(dead_code)]
#[path = "../tests/oracle_model.rs"]
mod oracle_model;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use droidmcp::agent::Style;
use droidmcp::episode::replay::{run_instance, Solution};
use droidmcp::run::plan::{self, Instance, Selection};
use droidmcp::run::{AgentSpec, RunSpec};
use droidmcp::store::Store;
use droidmcp::task::Catalog;

use oracle_model::{oracle, Model};

/// Golden replays of `instances`, `phones` at a time, each on a freshly booted phone.
async fn replay(instances: &[Instance], phones: usize) -> (usize, f64) {
    let limit = Arc::new(tokio::sync::Semaphore::new(phones));
    let started = Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for inst in instances {
        let (limit, task, seed) = (limit.clone(), inst.task.clone(), inst.seed);
        set.spawn(async move {
            let _permit = limit.acquire().await.expect("semaphore open");
            let shell = droidmcp::fleet::open(Some("sim:0"), None)
                .await
                .expect("phone boots");
            matches!(run_instance(&task, seed, shell, None, Solution::Golden).await, Ok(r) if r.verdict.success)
        });
    }
    let mut ok = 0;
    while let Some(r) = set.join_next().await {
        ok += r.map(|s| s as usize).unwrap_or(0);
    }
    (ok, started.elapsed().as_secs_f64())
}

#[derive(Default)]
struct Played {
    /// Model calls: one per agent turn, and the summary after each action.
    turns: u32,
    success: usize,
    errored: usize,
    steps: u64,
    secs: f64,
}

async fn run(model: &Model, tasks: &[String], phones: u32) -> Played {
    let catalog = catalog();
    let spec = RunSpec {
        name: format!("bench-{phones}-{}", tasks.len()),
        selection: Selection {
            patterns: tasks.to_vec(),
            ..Selection::default()
        },
        seeds: 1,
        run_seed: 0,
        envs: vec![None],
        max_steps: None,
        agent: AgentSpec::Reference {
            style: Style::T3a,
            model: "scripted".into(),
            base_url: model.base.clone(),
            api_key_env: None,
        },
        phones,
        devices: vec![],
        fleet: Default::default(),
        retries: 0,
        episode_timeout_s: 300,
    };
    let store = Store::in_memory().expect("store");
    let calls_before = *model.calls.lock().expect("calls");
    let started = Instant::now();
    let summary = droidmcp::run::execute(
        spec.clone(),
        catalog,
        store.clone(),
        None,
        Some(model.agent(Style::T3a)),
        |_| {},
    )
    .await
    .expect("the run plays");
    let secs = started.elapsed().as_secs_f64();
    let turns = *model.calls.lock().expect("calls") - calls_before;
    let rows = store.run_results(&spec.name).expect("rows");
    Played {
        turns,
        success: summary.progress.success,
        errored: summary.progress.errored,
        steps: rows.iter().map(|r| r.steps as u64).sum(),
        secs,
    }
}

fn catalog() -> Arc<Catalog> {
    let (catalog, errors) = Catalog::load_dir(&droidmcp::task::catalog::default_dir());
    assert!(errors.is_empty(), "task files must load: {errors:?}");
    Arc::new(catalog)
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let catalog = catalog();
    let all: Vec<_> = catalog.iter().cloned().collect();
    let instances = plan::instances(&all, 1, 0, &[None]);
    // The oracle finds a goal's moves by its text: instances whose goal text another instance
    // shares play in a later round of the run (same name, resumed), each round with its own oracle.
    let mut rounds: Vec<(HashSet<String>, Vec<Instance>)> = Vec::new();
    for inst in &instances {
        let goal = inst
            .task
            .instantiate(inst.seed, &Default::default())
            .expect("instance")
            .goal;
        match rounds.iter_mut().find(|(goals, _)| !goals.contains(&goal)) {
            Some((goals, round)) => {
                goals.insert(goal);
                round.push(inst.clone());
            }
            None => rounds.push((HashSet::from([goal]), vec![inst.clone()])),
        }
    }
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!(
        "runner vs golden replay: all {} tasks, seed 0 of run seed 0, the run in {} round(s) of distinct goal texts, {cores} cores",
        instances.len(),
        rounds.len()
    );
    let models: Vec<(Model, Vec<String>)> = rounds
        .iter()
        .map(|(_, round)| {
            let model = rt.block_on(Model::start(oracle(round), Duration::ZERO));
            (model, round.iter().map(|i| i.task.id.clone()).collect())
        })
        .collect();
    println!("| phones | replay: ok, wall, instances/s | run (oracle agent): success, errored, steps, model calls, wall, instances/s | runner overhead per step |");
    println!("|---|---|---|---|");
    // Phone counts from the arguments (`-- 16`), else 1, 2 and 4.
    let mut counts: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if counts.is_empty() {
        counts = vec![1, 2, 4];
    }
    for phones in counts {
        let (ok, replay_secs) = rt.block_on(replay(&instances, phones as usize));
        let played = models
            .iter()
            .map(|(model, tasks)| rt.block_on(run(model, tasks, phones)))
            .fold(Played::default(), |a, b| Played {
                turns: a.turns + b.turns,
                success: a.success + b.success,
                errored: a.errored + b.errored,
                steps: a.steps + b.steps,
                secs: a.secs + b.secs,
            });
        let n = instances.len() as f64;
        // Phone-seconds the runner spent beyond the replay, per step the agent took.
        let overhead_ms =
            (played.secs - replay_secs) * phones as f64 * 1000.0 / played.steps.max(1) as f64;
        println!(
            "| {phones} | {ok}, {replay_secs:.1} s, {:.2}/s | {}, {}, {}, {}, {:.1} s, {:.2}/s | {overhead_ms:.1} ms |",
            n / replay_secs,
            played.success,
            played.errored,
            played.steps,
            played.turns,
            played.secs,
            n / played.secs
        );
    }
}

//! The runner's own cost: the whole task suite played by the oracle agent (the T3A reference agent
//! against a scripted model answering each turn with the golden move, no model latency) through
//! `droidmcp run` on 1, 2 and 4 embedded phones, side by side with golden replays (`tasks replay`'s
//! path: the same moves applied straight to a phone) of the same instances. The difference per step
//! is what the runner and the agent loop add: prompts, the element list each turn, the model's HTTP
//! round trip, parsing, the settings and app-data reads around each episode, the run store.
//! Prints its figures (BENCHMARKS.md, "Benchmark: runner").

#[path = "../tests/oracle_model.rs"]
mod oracle_model;

use std::collections::HashMap;
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
            let shell = droidmcp::device::open(Some("sim:0"), None)
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
        name: format!("bench-{phones}"),
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
    // shares cannot be told apart by it, so they are left out (and counted).
    let mut by_goal: HashMap<String, usize> = HashMap::new();
    for i in &instances {
        let goal = i
            .task
            .instantiate(i.seed, &Default::default())
            .expect("instance")
            .goal;
        *by_goal.entry(goal).or_default() += 1;
    }
    let instances: Vec<Instance> = instances
        .into_iter()
        .filter(|i| {
            by_goal[&i
                .task
                .instantiate(i.seed, &Default::default())
                .expect("instance")
                .goal]
                == 1
        })
        .collect();
    let tasks: Vec<String> = instances.iter().map(|i| i.task.id.clone()).collect();
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!(
        "runner vs golden replay: {} of {} tasks (the rest share a goal text), seed 0 of run seed 0, {cores} cores",
        instances.len(),
        all.len()
    );
    let model = rt.block_on(Model::start(oracle(&instances), Duration::ZERO));
    println!("| phones | replay: ok, wall, instances/s | run (oracle agent): success, errored, steps, model calls, wall, instances/s | runner overhead per step |");
    println!("|---|---|---|---|");
    for phones in [1u32, 2, 4] {
        let (ok, replay_secs) = rt.block_on(replay(&instances, phones as usize));
        let played = rt.block_on(run(&model, &tasks, phones));
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

//! Golden replay of the whole task suite on the embedded phone: instances per second with one phone
//! at a time, and with N phones replaying in parallel. Prints its figures (see docs/bench-tasks.md).

use std::sync::Arc;
use std::time::Instant;

use droidmcp::episode::replay::{run_instance, Solution};
use droidmcp::task::Catalog;

async fn pass(parallel: usize) -> (usize, usize, f64) {
    let (catalog, errors) =
        Catalog::load_dir(&std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tasks"));
    assert!(errors.is_empty(), "task files must load");
    let tasks: Vec<_> = catalog.iter().cloned().collect();
    let limit = Arc::new(tokio::sync::Semaphore::new(parallel));
    let started = Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for task in tasks {
        let limit = limit.clone();
        set.spawn(async move {
            let _permit = limit.acquire().await.expect("semaphore open");
            let shell = droidmcp::fleet::open(Some("sim:0"), None).await.expect("phone boots");
            matches!(run_instance(&task, 0, shell, None, Solution::Golden).await, Ok(r) if r.verdict.success)
        });
    }
    let (mut n, mut ok) = (0, 0);
    while let Some(r) = set.join_next().await {
        n += 1;
        ok += r.map(|s| s as usize).unwrap_or(0);
    }
    (n, ok, started.elapsed().as_secs_f64())
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!("golden replay of tasks/ on the embedded phone ({cores} cores)");
    for parallel in [1, 4, 8] {
        let (n, ok, secs) = rt.block_on(pass(parallel));
        println!("{parallel:>2} phone(s) in parallel: {n} instances ({ok} succeeded) in {secs:.1} s = {:.2} instances/s", n as f64 / secs);
    }
}

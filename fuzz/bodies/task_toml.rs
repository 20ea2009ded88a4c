//! Fuzz target: any text as a task file — TOML, validation (placeholders, typed `{x:sql}`/`{x:sh}`,
//! checks, goldens, constraints, parameter generators) — and every task that loads, instantiated
//! with a seed. Errors are values; nothing may panic.

use std::collections::BTreeMap;
use std::path::Path;

use droidmcp::task::Catalog;

pub fn run(data: &[u8]) {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let mut catalog = Catalog::default();
    let mut errors = Vec::new();
    catalog.add_source(Path::new("fuzz.toml"), src, &mut errors);
    for task in catalog.iter() {
        for seed in [0, 7] {
            if let Ok(instance) = task.instantiate(seed, &BTreeMap::new()) {
                for step in &instance.setup {
                    let _ = step.ops();
                }
            }
        }
    }
}

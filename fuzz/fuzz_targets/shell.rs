//! cargo-fuzz entry for `shell`: the body (what is fuzzed and why) is `fuzz/bodies/shell.rs`,
//! shared with the corpus replay that `cargo test` runs on stable (tests/fuzz_replay.rs).

#![no_main]

#[path = "../bodies/shell.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::run(data));

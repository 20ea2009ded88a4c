//! Every cargo-fuzz target (fuzz/fuzz_targets/) on stable, inside `cargo test`: the same body the
//! fuzzer runs (fuzz/bodies/), over the seed corpora `scripts/fuzz-seeds` writes from real captures
//! and a fixed set of mutants of them (bit flips, cuts, splices, repeated and boundary bytes). The
//! test command used to build the crate a second time on nightly for ten seconds of coverage-guided
//! fuzzing per target, about a third of a fresh CI run; the coverage-guided campaign is now
//! `benches/fuzz-campaign` (and `DROIDMCP_FUZZ=1 scripts/suites/fuzz`), and what it finds joins the
//! corpora this replays. A panic fails the test with the input saved under
//! `target/fuzz-artifacts/TARGET/`, where `cargo +nightly fuzz run TARGET FILE` reproduces it; an
//! input that runs past the limit fails it as a hang, with the input saved the same way.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "../fuzz/bodies/adb_frames.rs"]
mod adb_frames;
#[path = "../fuzz/bodies/parse.rs"]
mod parse;
#[path = "../fuzz/bodies/replies.rs"]
mod replies;
#[path = "../fuzz/bodies/rest_bodies.rs"]
mod rest_bodies;
#[path = "../fuzz/bodies/shell.rs"]
mod shell;
#[path = "../fuzz/bodies/task_toml.rs"]
mod task_toml;

/// Mutants per target: enough that every seed is cut, flipped and spliced several times, few enough
/// that the slowest target (task files, instantiated twice each) stays within seconds.
const MUTANTS: usize = 10_000;
/// The limit for one target's whole replay; one input is far below it, so passing it means a loop.
const HANG: Duration = Duration::from_secs(300);
/// libFuzzer's `-max_len` in scripts/fuzz-lib.sh: mutants grow no longer than the fuzzer's inputs.
const MAX_LEN: usize = 65536;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The seed corpora, written once per test run by the same script the fuzzer starts from.
fn corpus() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = std::process::Command::new("python3")
            .arg(root().join("scripts/fuzz-seeds"))
            .arg(dir.path())
            .output()
            .expect("python3 runs scripts/fuzz-seeds");
        assert!(
            out.status.success(),
            "scripts/fuzz-seeds failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
    .path()
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = corpus().join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("no seed corpus for {target} in {}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .collect();
    files.sort();
    let seeds: Vec<Vec<u8>> = files
        .iter()
        .map(|p| std::fs::read(p).expect("seed"))
        .collect();
    assert!(
        !seeds.is_empty(),
        "scripts/fuzz-seeds wrote no seeds for {target}"
    );
    seeds
}

/// Byte values and strings that sit on the edges parsers check: length fields, signs, nesting.
const INTERESTING: &[&[u8]] = &[
    b"\0",
    b"\xff",
    b"\x7f",
    b"\x80",
    b"\xff\xff\xff\xff",
    b"\0\0\0\x80",
    b"-1",
    b"4294967296",
    b"9223372036854775808",
    b"1e309",
    b"NaN",
    b"\"",
    b"'",
    b"\\",
    b"$(",
    b"`",
    b"{{",
    b"[[",
    b"<",
    b"&#",
    b"\xc3",
    b"\xe2\x80\xae",
];

/// One mutant of `seeds[i]`, as libFuzzer's default mutators make them.
fn mutate(rng: &mut ChaCha8Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seeds[rng.gen_range(0..seeds.len())].clone();
    for _ in 0..rng.gen_range(1..=4) {
        let len = data.len();
        match rng.gen_range(0..8) {
            0 if len > 0 => {
                let i = rng.gen_range(0..len);
                data[i] ^= 1 << rng.gen_range(0..8);
            }
            1 if len > 0 => {
                let i = rng.gen_range(0..len);
                data[i] = rng.gen();
            }
            2 if len > 0 => data.truncate(rng.gen_range(0..len)),
            3 if len > 1 => {
                let a = rng.gen_range(0..len);
                let b = rng.gen_range(a..=len.min(a + 64));
                data.drain(a..b);
            }
            4 => {
                let at = rng.gen_range(0..=len);
                let word = INTERESTING[rng.gen_range(0..INTERESTING.len())];
                data.splice(at..at, word.iter().copied());
            }
            5 if len > 0 => {
                // A stretch repeated many times: deep nesting, long runs, counts that add up.
                let a = rng.gen_range(0..len);
                let b = rng.gen_range(a..=len.min(a + 16));
                let piece = data[a..b].to_vec();
                for _ in 0..rng.gen_range(2..64) {
                    data.splice(b..b, piece.iter().copied());
                }
            }
            6 => {
                let other = &seeds[rng.gen_range(0..seeds.len())];
                let at = rng.gen_range(0..=len);
                let from = rng.gen_range(0..=other.len());
                data.truncate(at);
                data.extend_from_slice(&other[from..]);
            }
            _ => {
                let at = rng.gen_range(0..=len);
                let n = rng.gen_range(1..8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
                data.splice(at..at, bytes);
            }
        }
    }
    data.truncate(MAX_LEN);
    data
}

fn save(target: &str, kind: &str, input: &[u8]) -> PathBuf {
    use sha1::{Digest, Sha1};
    let dir = root().join("target/fuzz-artifacts").join(target);
    std::fs::create_dir_all(&dir).expect("artifact dir");
    let name: String = Sha1::digest(input)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let path = dir.join(format!("{kind}-{name}"));
    std::fs::write(&path, input).expect("artifact");
    path
}

/// Runs `body` over the seeds and the mutants on a thread of its own, so a loop is reported as a
/// hang with its input instead of stalling the test binary.
fn replay(target: &'static str, body: fn(&[u8])) {
    let seeds = seeds(target);
    let current: Arc<Mutex<Vec<u8>>> = Arc::default();
    let (done, finished) = mpsc::channel();
    let shared = Arc::clone(&current);
    std::thread::spawn(move || {
        // The seed of the mutants is fixed: a failure here fails the same way on every run.
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
        let mut crashes = Vec::new();
        let mut runs = 0usize;
        let inputs = seeds
            .iter()
            .cloned()
            .chain((0..MUTANTS).map(|_| mutate(&mut rng, &seeds)));
        for input in inputs {
            *shared.lock().unwrap_or_else(|p| p.into_inner()) = input.clone();
            if catch_unwind(AssertUnwindSafe(|| body(&input))).is_err() {
                crashes.push(save(target, "crash", &input));
            }
            runs += 1;
        }
        let _ = done.send((runs, crashes));
    });
    match finished.recv_timeout(HANG) {
        Ok((runs, crashes)) => {
            assert!(runs > MUTANTS, "{target}: only {runs} inputs ran");
            assert!(
                crashes.is_empty(),
                "{target}: {} of {runs} inputs panicked; reproduce with `cargo +nightly fuzz run {target} FILE`: {crashes:#?}",
                crashes.len()
            );
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            let input = current.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let path = save(target, "timeout", &input);
            panic!(
                "{target}: still running after {HANG:?}; the input in progress is {}",
                path.display()
            );
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{target}: the replay thread died"),
    }
}

#[test]
fn fuzz_targets_are_all_replayed() {
    // A target added to fuzz/Cargo.toml without a replay here would be fuzzed only by hand.
    let manifest =
        std::fs::read_to_string(root().join("fuzz/Cargo.toml")).expect("fuzz/Cargo.toml");
    let mut targets: Vec<&str> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|n| *n != "droidmcp-fuzz")
        .collect();
    targets.sort();
    assert_eq!(
        targets,
        [
            "adb_frames",
            "parse",
            "replies",
            "rest_bodies",
            "shell",
            "task_toml"
        ]
    );
}

#[test]
fn mutants_differ_from_their_seeds() {
    // A mutator that returned its seed would replay the corpus MUTANTS times over.
    let seeds = vec![b"<hierarchy rotation=\"0\"></hierarchy>".to_vec()];
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let changed = (0..100)
        .filter(|_| mutate(&mut rng, &seeds) != seeds[0])
        .count();
    assert!(
        changed >= 90,
        "only {changed} of 100 mutants differ from the seed"
    );
}

#[test]
#[should_panic(expected = "1 of 10")]
fn a_panicking_input_fails_the_replay() {
    // The harness itself: one input that panics must fail the test, not vanish in catch_unwind.
    use std::sync::atomic::{AtomicBool, Ordering};
    static PANICKED: AtomicBool = AtomicBool::new(false);
    replay("replies", |_| {
        assert!(
            PANICKED.swap(true, Ordering::SeqCst),
            "the first input panics"
        )
    });
}

#[test]
fn replay_adb_frames() {
    replay("adb_frames", adb_frames::run);
}

#[test]
fn replay_parse() {
    replay("parse", parse::run);
}

#[test]
fn replay_replies() {
    replay("replies", replies::run);
}

#[test]
fn replay_rest_bodies() {
    replay("rest_bodies", rest_bodies::run);
}

#[test]
fn replay_shell() {
    replay("shell", shell::run);
}

#[test]
fn replay_task_toml() {
    replay("task_toml", task_toml::run);
}

# Shared by scripts/suites/fuzz and benches/fuzz-campaign: cargo-fuzz on the nightly toolchain, the
# seed corpora, and one time-boxed run of a target with its figures in FUZZ_LINE.
# Targets build without a sanitizer: the code under test is safe Rust (a panic is the finding), and
# coverage instrumentation alone builds and runs several times faster than with AddressSanitizer.

FUZZ_CORPUS="${DROIDMCP_FUZZ_CORPUS:-$PWD/target/fuzz-corpus}"
# Debug assertions and overflow checks are on in both builds: an overflow is a finding too. The
# test command's short runs set FUZZ_BUILD=--dev (fuzz/Cargo.toml's dev profile, opt-level 1: the
# release build with one codegen unit took most of the whole suite's time on two cores); the
# campaign builds release (cargo-fuzz's default) for speed per execution.
FUZZ_FLAGS=(--sanitizer none "${FUZZ_BUILD:---release}")

fuzz_prepare() {
  if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "installing cargo-fuzz" >&2
    cargo +nightly install --locked -q cargo-fuzz
  fi
  scripts/fuzz-seeds "$FUZZ_CORPUS" >&2
  cargo +nightly fuzz build "${FUZZ_FLAGS[@]}" >&2
}

fuzz_targets() {
  cargo +nightly fuzz list
}

# fuzz_run TARGET SECONDS: new inputs go to a scratch folder, so the seeds stay as scripts/fuzz-seeds
# writes them and every run starts from the same corpus. Returns non-zero on a crash, leak or hang.
fuzz_run() {
  local target=$1 seconds=$2 scratch log rc=0
  scratch=$(mktemp -d); log=$(mktemp)
  mkdir -p "$FUZZ_CORPUS/$target"
  cargo +nightly fuzz run "${FUZZ_FLAGS[@]}" "$target" "$scratch" "$FUZZ_CORPUS/$target" -- \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 \
    > "$log" 2>&1 || rc=$?
  local execs rate cov ft corpus
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  corpus=$(grep -oE 'corp: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  FUZZ_LINE="$target | $seconds | ${execs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | ${corpus:-?} | $([ $rc = 0 ] && echo 0 || echo "1 (see fuzz/artifacts/$target)")"
  if [ $rc != 0 ]; then
    tail -40 "$log" >&2
  fi
  rm -rf "$scratch" "$log"
  return $rc
}

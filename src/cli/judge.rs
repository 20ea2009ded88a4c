//! `droidmcp judge`: score episodes with the LLM judge panel, calibrate it, and check a judge config.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use super::Global;
use std::collections::BTreeMap;

use crate::judge::calibrate::Labelled;
use crate::judge::config::PanelConfig;
use crate::judge::panel::{combine, Combined, Outcome};
use crate::judge::prompt::Prompts;
use crate::judge::{calibration_run, record, source};
use crate::judge::{Evidence, Judge, JudgeConfig, Mode, PanelVerdict, Policy};
use crate::llm::{EndpointLimits, SpendCap};
use crate::store::Store;
use crate::task::{Catalog, Task};

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Episode id to judge (from `task_start`, `droidmcp episodes export`, or the HTTP API).
    episode: Option<String>,
    /// Judge every stored episode of the tasks in this task file (typically tasks with no rule yet).
    #[arg(long, conflicts_with = "episode")]
    task_file: Option<PathBuf>,
    /// Judge the episodes of a run (`droidmcp run NAME`; errored ones have nothing to judge); its
    /// report then compares the panel's verdicts with the run's outcomes.
    #[arg(long, conflicts_with_all = ["episode", "task_file"])]
    run: Option<String>,
    /// How judges combine with rule checks: rule_only, rule_first, judges_only, both_agree
    /// (default: panel.toml's, or judges_only with --task-file).
    #[arg(long)]
    policy: Option<String>,
    /// final_state, trajectory or essential_states (default: panel.toml's).
    #[arg(long)]
    mode: Option<String>,
    /// Episode store (default: DROIDMCP_STORE or ~/.local/share/droidmcp/episodes.db).
    #[arg(long, global = true)]
    store: Option<PathBuf>,
    /// Directory of judge configs and panel.toml: a path here, else a bundled panel by name
    /// (`judges/local` or `local`). Default: $DROIDMCP_JUDGES, else ./judges, else the bundled
    /// judges/ (unpacked into ~/.cache/droidmcp/data-VERSION/).
    #[arg(long, global = true)]
    judges: Option<PathBuf>,
    /// Directory of prompt templates overriding the built-in ones.
    #[arg(long, global = true, default_value = "prompts")]
    prompts: PathBuf,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Send one small, fixed piece of evidence to a judge and print its parsed verdict (checks that the
    /// endpoint, key, model and structured output work; says nothing about verdict quality).
    Ping {
        /// Judge name (file stem in the judges directory).
        name: String,
    },
    /// Measure the panel against rule-based ground truth: replays golden, empty, wrong and near-miss
    /// trajectories of tasks on the embedded phone, judges each in every mode asked for, and reports
    /// accuracy, precision/recall, Cohen's κ, agreement, the error rate among agreed verdicts,
    /// misjudgment per mode with its interval, false successes and failures by task, and how
    /// complete the evidence is (the episode decided from its evidence alone).
    Calibrate {
        /// Task ids (default: every task).
        tasks: Vec<String>,
        /// Modes to judge in, comma-separated or repeated (default: panel.toml's).
        #[arg(long = "mode", value_delimiter = ',')]
        modes: Vec<String>,
        /// Seeds per task.
        #[arg(long, default_value_t = 1)]
        seeds: u64,
        /// At most this many tasks (after filtering), to bound cost.
        #[arg(long)]
        limit: Option<usize>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Only the episodes a person reviewed (`droidmcp review`, the live page): no replays.
        #[arg(long)]
        reviewed_only: bool,
    },
}

/// `droidmcp review`: episodes whose judges disagree (or disagree with the rule); with an episode
/// and `--verdict`, records a person's verdict on it (calibration then counts it).
#[derive(Debug, clap::Args)]
pub struct ReviewArgs {
    /// Episode to record a verdict on (with --verdict).
    #[arg(requires = "verdict")]
    episode: Option<String>,
    /// `success` or `failure`: what the episode achieved, as a person judges it.
    #[arg(long, requires = "episode")]
    verdict: Option<String>,
    /// Why (kept with the verdict).
    #[arg(long, default_value = "")]
    note: String,
    /// Who is reviewing.
    #[arg(long, default_value = "cli")]
    reviewer: String,
    /// Episode store (default: DROIDMCP_STORE or ~/.local/share/droidmcp/episodes.db).
    #[arg(long)]
    store: Option<PathBuf>,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    json: bool,
}

/// `droidmcp report`: trajectory metrics and success rates over the stored episodes.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The store to read (default: the episode store). With --run, repeatable: the stores of one
    /// run's shards (`droidmcp run --shard i/n`), read as one run.
    #[arg(long)]
    store: Vec<PathBuf>,
    /// One JSON object per line instead of tables.
    #[arg(long)]
    json: bool,
    /// A run's tables (`droidmcp run NAME`): AndroidWorld's, B-MoCA's, AndroidArena's, with 95%
    /// Wilson intervals.
    #[arg(long)]
    run: Option<String>,
    /// With --run: compare with this run (per-instance flips, the difference with its interval).
    #[arg(long, requires = "run")]
    compare: Option<String>,
    /// With --run: write the report into this directory (report.md, instances.csv, report.json,
    /// success.svg).
    #[arg(long, requires = "run")]
    out: Option<PathBuf>,
}

fn open_store(path: Option<&std::path::Path>) -> anyhow::Result<Store> {
    let path = path.map(PathBuf::from).unwrap_or_else(Store::default_path);
    let store = Store::open(&path)
        .with_context(|| format!("opening the episode store {}", path.display()))?;
    store.with_connection(|c| record::migrate(c))?;
    Ok(store)
}

fn judges_dir(args: &Args) -> anyhow::Result<PathBuf> {
    use crate::task::catalog::{data_dir, given_data_dir};
    Ok(match &args.judges {
        Some(given) => given_data_dir(given, "judges", "DROIDMCP_JUDGES")?,
        None => data_dir("judges", "DROIDMCP_JUDGES"),
    })
}

fn load_catalog() -> Catalog {
    // Bad task files are reported by `droidmcp tasks`; judging only needs the good ones.
    Catalog::load_dir(&crate::task::catalog::default_dir()).0
}

pub async fn run(_global: &Global, args: Args) -> anyhow::Result<i32> {
    match &args.command {
        Some(Command::Ping { name }) => ping(&judges_dir(&args)?, &args.prompts, name).await,
        Some(Command::Calibrate {
            tasks,
            modes,
            seeds,
            limit,
            json,
            reviewed_only,
        }) => calibrate(&args, tasks, modes, *seeds, *limit, *json, *reviewed_only).await,
        None => match (&args.episode, &args.task_file) {
            _ if args.run.is_some() => {
                let name = args.run.as_deref().unwrap_or_default();
                let ids = episodes_of_run(&args, name)?;
                judge_episodes(&args, &ids, None).await
            }
            (Some(episode), _) => judge_episodes(&args, std::slice::from_ref(episode), None).await,
            (None, Some(file)) => {
                let (ids, kinds) = episodes_of_task_file(&args, file)?;
                if ids.is_empty() {
                    anyhow::bail!("no stored episodes of the tasks in {}", file.display());
                }
                judge_episodes(&args, &ids, Some(kinds)).await
            }
            (None, None) => anyhow::bail!(
                "name an episode to judge, --task-file, or a subcommand (see `droidmcp judge --help`)"
            ),
        },
    }
}

fn policy_and_mode(
    args: &Args,
    panel: &PanelConfig,
    default_policy: Option<Policy>,
) -> anyhow::Result<(Policy, Mode)> {
    let policy = match &args.policy {
        Some(p) => Policy::parse(p).with_context(|| format!("unknown policy {p:?}"))?,
        None => default_policy.unwrap_or(panel.policy),
    };
    let mode = match &args.mode {
        Some(m) => Mode::parse(m).with_context(|| format!("unknown mode {m:?}"))?,
        None => panel.mode,
    };
    Ok((policy, mode))
}

/// The episodes of the run `name` that played (the final attempt of each instance, errored left out).
fn episodes_of_run(args: &Args, name: &str) -> anyhow::Result<Vec<String>> {
    let store = open_store(args.store.as_deref())?;
    if store.run_spec(name)?.is_none() {
        anyhow::bail!("no run named {name:?} in the store");
    }
    let rows = crate::run::report::finals(&store.run_results(name)?);
    let ids: Vec<String> = rows
        .into_iter()
        .filter(|r| r.outcome != "errored")
        .filter_map(|r| r.episode_id)
        .collect();
    if ids.is_empty() {
        anyhow::bail!("run {name:?} has no played episodes to judge");
    }
    Ok(ids)
}

/// Stored episodes of the tasks defined in `file`, with each episode's task kind.
fn episodes_of_task_file(
    args: &Args,
    file: &std::path::Path,
) -> anyhow::Result<(Vec<String>, BTreeMap<String, String>)> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let mut catalog = Catalog::default();
    let mut errors = Vec::new();
    catalog.add_source(file, &text, &mut errors);
    if let Some(e) = errors.first() {
        anyhow::bail!("{e}");
    }
    let kinds: BTreeMap<String, String> = catalog
        .iter()
        .map(|t| (t.id.clone(), t.kind.as_str().to_string()))
        .collect();
    let store = open_store(args.store.as_deref())?;
    let rows = store.with_connection(|c| {
        let mut stmt = c.prepare("SELECT id, task_id FROM episodes ORDER BY started_at, id")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
    })?;
    let mut episode_kinds = BTreeMap::new();
    let mut ids = Vec::new();
    for (id, task) in rows {
        if let Some(kind) = kinds.get(&task) {
            episode_kinds.insert(id.clone(), kind.clone());
            ids.push(id);
        }
    }
    Ok((ids, episode_kinds))
}

async fn judge_episodes(
    args: &Args,
    ids: &[String],
    kinds: Option<BTreeMap<String, String>>,
) -> anyhow::Result<i32> {
    let (panel, config) = load_panel(&judges_dir(args)?, &args.prompts)?;
    // A task file names tasks nobody has written a trusted rule for: judges decide unless told otherwise.
    let (policy, mode) =
        policy_and_mode(args, &config, kinds.as_ref().map(|_| Policy::JudgesOnly))?;
    let store = open_store(args.store.as_deref())?;
    let catalog = load_catalog();
    let mut undecided = 0;
    for id in ids {
        let row = store
            .episode(id)?
            .with_context(|| format!("unknown episode {id:?}"))?;
        let kind = match &kinds {
            Some(k) => k.get(id).cloned(),
            None => catalog
                .get(&row.task_id)
                .ok()
                .map(|t| t.kind.as_str().to_string()),
        };
        let evidence = source::from_store(&store, id, kind.as_deref())?;
        let verdict = panel.judge(&evidence, mode).await;
        let combined = combine(policy, row.success, Some(&verdict));
        store
            .with_connection(|c| record::record(c, id, policy, row.success, &verdict, &combined))?;
        if matches!(combined.outcome, Outcome::Undecided | Outcome::NeedsReview) {
            undecided += 1;
        }
        print_verdict(id, &row.task_id, row.success, &verdict, &combined);
    }
    // Exit 2 when any episode still needs a person, so scripts can tell.
    Ok(if undecided > 0 { 2 } else { 0 })
}

fn print_verdict(id: &str, task: &str, rule: Option<bool>, v: &PanelVerdict, c: &Combined) {
    let rule = rule
        .map(|r| if r { "success" } else { "failure" })
        .unwrap_or("-");
    let clash = if c.rule_judge_disagreement {
        "; RULE AND JUDGES DISAGREE"
    } else {
        ""
    };
    println!(
        "{id} {task}: {} (decided by {}; rule {rule}; panel {}{clash})",
        c.outcome.as_str(),
        c.decided_by,
        v.outcome.as_str(),
    );
    for o in v.judges.iter().chain(v.tie_breaker.as_ref()) {
        let detail = o.error.clone().unwrap_or_else(|| o.verdict.reason.clone());
        println!(
            "  {} ({}): {} {:.2} — {detail}",
            o.judge,
            o.family,
            o.verdict.kind.as_str(),
            o.verdict.confidence
        );
    }
}

async fn calibrate(
    args: &Args,
    tasks: &[String],
    modes: &[String],
    seeds: u64,
    limit: Option<usize>,
    json: bool,
    reviewed_only: bool,
) -> anyhow::Result<i32> {
    let (panel, config) = load_panel(&judges_dir(args)?, &args.prompts)?;
    let (_, default_mode) = policy_and_mode(args, &config, None)?;
    let modes: Vec<Mode> = if modes.is_empty() {
        vec![default_mode]
    } else {
        modes
            .iter()
            .map(|m| Mode::parse(m).with_context(|| format!("unknown mode {m:?}")))
            .collect::<anyhow::Result<_>>()?
    };
    let catalog = load_catalog();
    let mut chosen: Vec<Arc<Task>> = if tasks.is_empty() {
        catalog.iter().cloned().collect()
    } else {
        tasks
            .iter()
            .map(|t| catalog.get(t))
            .collect::<Result<_, _>>()?
    };
    if let Some(n) = limit {
        chosen.truncate(n);
    }
    let store = open_store(args.store.as_deref())?;
    let names: Vec<String> = panel.judges().map(|j| j.config().name.clone()).collect();
    // Episodes a person reviewed count with the person's verdict as the known outcome.
    let reviewed = store.with_connection(|c| record::reviewed(c, &names))?;
    let episodes = if reviewed_only {
        Vec::new()
    } else {
        calibration_run::run(&chosen, seeds.max(1), &panel, &modes, &store).await
    };
    for e in &episodes {
        if let Some(note) = &e.note {
            eprintln!("{} seed {} {}: {note}", e.task, e.seed, e.trajectory);
        }
    }
    let by_person = reviewed.len();
    if episodes.iter().all(|e| e.labelled.is_empty()) && reviewed.is_empty() {
        anyhow::bail!("no calibration episode could be run");
    }
    let findings = crate::judge::misjudgment::findings(&names, &modes, &episodes);
    let mut reports = Vec::new();
    for &mode in &modes {
        let mut labelled: Vec<Labelled> = episodes
            .iter()
            .filter_map(|e| e.in_mode(mode).cloned())
            .collect();
        labelled.extend(reviewed.iter().cloned());
        reports.push((
            mode,
            crate::judge::calibrate::calibrate(&names, &labelled),
            labelled,
        ));
    }
    if json {
        let per_mode: serde_json::Map<String, serde_json::Value> = reports
            .iter()
            .map(|(mode, report, _)| (mode.as_str().to_string(), report.to_json()))
            .collect();
        println!(
            "{}",
            serde_json::json!({"modes": per_mode, "findings": findings.to_json()})
        );
    } else {
        for (mode, report, labelled) in &reports {
            let positives = labelled.iter().filter(|l| l.truth).count();
            println!(
                "{} episodes ({} successes; {} labelled by a person's review), mode {}",
                labelled.len(),
                positives,
                by_person,
                mode.as_str()
            );
            print!("{}", report.table());
        }
        print!("{}", findings.text());
    }
    Ok(0)
}

/// `droidmcp review`.
pub async fn review(args: ReviewArgs) -> anyhow::Result<i32> {
    let store = open_store(args.store.as_deref())?;
    if let (Some(episode), Some(verdict)) = (&args.episode, &args.verdict) {
        let success = match verdict.as_str() {
            "success" => true,
            "failure" => false,
            other => anyhow::bail!("--verdict must be success or failure, got {other:?}"),
        };
        store.with_connection(|c| {
            Ok(record::record_human(
                c,
                episode,
                success,
                &args.note,
                &args.reviewer,
            ))
        })??;
        println!("{episode}: recorded {verdict} (calibration counts it)");
        return Ok(0);
    }
    let queue = store.with_connection(|c| record::review_queue(c))?;
    if args.json {
        for item in &queue {
            let judges: Vec<_> = item
                .reasons
                .iter()
                .map(|(judge, verdict, reason)| {
                    serde_json::json!({"judge": judge, "verdict": verdict, "reason": reason})
                })
                .collect();
            let line = serde_json::json!({"episode": item.episode_id, "outcome": item.outcome,
                "panel": item.panel_outcome, "rule": item.rule_result, "judges": judges});
            println!("{line}");
        }
    } else if queue.is_empty() {
        println!("nothing to review");
    } else {
        for item in &queue {
            println!(
                "{}: {} (panel {}, rule {})",
                item.episode_id,
                item.outcome,
                item.panel_outcome,
                item.rule_result.as_deref().unwrap_or("-")
            );
            for (judge, verdict, reason) in &item.reasons {
                println!("  {judge}: {verdict} — {reason}");
            }
        }
    }
    Ok(0)
}

/// `droidmcp report`.
pub async fn report(args: ReportArgs) -> anyhow::Result<i32> {
    if let Some(run) = &args.run {
        let stores = match args.store.as_slice() {
            [] => vec![open_store(None)?],
            paths => paths
                .iter()
                .map(|p| open_store(Some(p)))
                .collect::<anyhow::Result<Vec<_>>>()?,
        };
        return run_report(
            &stores,
            run,
            args.compare.as_deref(),
            args.out.as_deref(),
            args.json,
        );
    }
    if args.store.len() > 1 {
        anyhow::bail!("several --store are read together only for a run's report (--run NAME)");
    }
    let store = open_store(args.store.first().map(PathBuf::as_path))?;
    let rows = crate::judge::report::report(&store, &load_catalog())?;
    if args.json {
        for r in &rows {
            let line = serde_json::json!({"task": r.task, "episodes": r.episodes,
                "rule_scored": r.rule_scored, "rule_success_rate": r.rule_success_rate,
                "rule_inconclusive": r.rule_inconclusive, "aborted": r.aborted,
                "judged": r.judged, "judge_success_rate": r.judge_success_rate,
                "with_reference": r.with_reference, "task_reward": r.task_reward,
                "completion_ratio": r.completion_ratio, "reversed_redundancy": r.reversed_redundancy,
                "repeat_ratio": r.repeat_ratio, "reference_matched": r.reference_matched,
                "constrained_episodes": r.constrained.episodes,
                "constraint_violations": r.constrained.violated,
                "violation_ratio": r.constrained.ratio(),
                "unrestored": r.unrestored,
                "violation_ratio_by_level": r.by_level.iter()
                    .map(|(l, v)| (l.as_str().to_string(), serde_json::json!(v.ratio())))
                    .collect::<serde_json::Map<_, _>>()});
            println!("{line}");
        }
    } else {
        print!("{}", crate::judge::report::table(&rows));
    }
    // Episodes that ran in named device environments: success by environment and by factor.
    let by_env = crate::run::report::environments::breakdown(&store)?;
    if args.json {
        for r in &by_env {
            let line = serde_json::json!({"factor": r.factor, "value": r.value,
                "episodes": r.episodes, "rule_scored": r.scored,
                "rule_success_rate": r.success_rate()});
            println!("{line}");
        }
    } else if !by_env.is_empty() {
        println!("\nby environment and factor:");
        print!("{}", crate::run::report::environments::table(&by_env));
    }
    Ok(0)
}

/// Loads one judge by name with the shared limits and spend cap of this run.
pub(crate) fn load_judge(
    judges: &std::path::Path,
    prompts: &std::path::Path,
    name: &str,
    limits: &EndpointLimits,
    spend: Arc<SpendCap>,
) -> anyhow::Result<Judge> {
    let path = judges.join(format!("{name}.toml"));
    let config = JudgeConfig::load(&path).with_context(|| format!("judge {name:?}"))?;
    Ok(Judge::new(config, limits, spend, Prompts::load(prompts)?)?)
}

/// The panel configured in `judges/panel.toml`, with its mode, policy and spend cap.
pub(crate) fn load_panel(
    judges: &std::path::Path,
    prompts: &std::path::Path,
) -> anyhow::Result<(crate::judge::Panel, PanelConfig)> {
    let config = PanelConfig::load(&judges.join(crate::judge::config::PANEL_FILE))?;
    let limits = EndpointLimits::default();
    let spend = Arc::new(SpendCap::new(config.spend_cap_usd));
    let first = load_judge(judges, prompts, &config.first, &limits, spend.clone())?;
    let second = load_judge(judges, prompts, &config.second, &limits, spend.clone())?;
    let tie = match &config.tie_breaker {
        Some(name) => Some(load_judge(judges, prompts, name, &limits, spend.clone())?),
        None => None,
    };
    Ok((crate::judge::Panel::new(first, second, tie)?, config))
}

async fn ping(
    judges: &std::path::Path,
    prompts: &std::path::Path,
    name: &str,
) -> anyhow::Result<i32> {
    let judge = load_judge(
        judges,
        prompts,
        name,
        &EndpointLimits::default(),
        Arc::new(SpendCap::new(None)),
    )?;
    let evidence = Evidence {
        goal: "Turn on airplane mode".into(),
        kind: "operation".into(),
        final_elements:
            "[1] switch \"Airplane mode\" checked (540,620)\n[2] text \"Network & internet\"".into(),
        final_foreground: "com.android.settings/.Settings$NetworkDashboardActivity".into(),
        ..Evidence::default()
    };
    let outcome = judge.judge(&evidence, Mode::FinalState).await;
    println!(
        "judge: {} ({}, {})",
        outcome.judge,
        outcome.family,
        judge.config().endpoint.model
    );
    println!("verdict: {}", outcome.verdict.kind.as_str());
    println!("confidence: {}", outcome.verdict.confidence);
    println!("reason: {}", outcome.verdict.reason);
    println!(
        "usage: {} prompt + {} completion tokens, {} calls, {} ms, ${:.6}",
        outcome.prompt_tokens,
        outcome.completion_tokens,
        outcome.calls,
        outcome.latency.as_millis(),
        outcome.cost_usd
    );
    for (i, raw) in outcome.raw_replies.iter().enumerate() {
        println!("reply {}: {}", i + 1, raw.replace('\n', " "));
    }
    match outcome.error {
        Some(e) => {
            eprintln!("droidmcp: judge {name} gave no verdict: {e}");
            Ok(1)
        }
        None => Ok(0),
    }
}

/// `report --run NAME`: the run's tables on stdout (or JSON), optionally written out and compared.
fn run_report(
    stores: &[Store],
    name: &str,
    compare: Option<&str>,
    out: Option<&std::path::Path>,
    json: bool,
) -> anyhow::Result<i32> {
    use crate::run::report::RunReport;
    let catalog = load_catalog();
    let load = |name: &str| -> anyhow::Result<RunReport> {
        let mut specs = Vec::new();
        for store in stores {
            match store.run_spec(name)? {
                Some(spec) => specs.push(spec),
                None => {
                    let known = store.runs()?;
                    anyhow::bail!(
                        "no run named {name:?} in the store (runs: {})",
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    );
                }
            }
        }
        // Shards of one run share its specification; different ones are different runs.
        if specs.windows(2).any(|w| w[0] != w[1]) {
            anyhow::bail!(
                "the stores hold different runs named {name:?} (their specifications differ), not shards of one"
            );
        }
        Ok(RunReport::load_all(name, stores, &catalog)?)
    };
    let report = load(name)?;
    if json {
        println!("{}", report.json());
    } else {
        print!("{}", report.markdown());
    }
    if let Some(other) = compare {
        print!("\n{}", report.compare(&load(other)?));
    }
    if let Some(dir) = out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (file, text) in [
            ("report.md", report.markdown()),
            ("instances.csv", report.csv()),
            ("report.json", report.json().to_string()),
            ("success.svg", report.svg()),
        ] {
            let path = dir.join(file);
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        }
        eprintln!("droidmcp: report written to {}", dir.display());
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    /// The documented local-only panel loads: two local judges of different families, no key.
    #[test]
    fn the_local_panel_needs_no_cloud_account() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("judges/local");
        let (panel, _) = super::load_panel(&dir, std::path::Path::new("prompts")).unwrap();
        for judge in panel.judges() {
            let endpoint = &judge.config().endpoint;
            assert!(
                endpoint.base_url.starts_with("http://127.0.0.1:"),
                "{}",
                endpoint.base_url
            );
            assert!(
                endpoint.api_key().unwrap().is_none(),
                "{}",
                judge.config().name
            );
        }
    }
}

//! The JSON bodies of the task API (HTTP, and the MCP task tools' structured results), converted
//! from session types by hand so internal renames never break clients.
//!
//! Example `POST /v1/episodes/ep-…/check` answer:
//!
//! ```json
//! {"episode": "ep-1a2b", "task": "clock.alarm_weekdays", "status": "finished", "success": true,
//!  "score": 1.0, "subgoal_rate": null, "steps_used": 9, "max_steps": 14, "gate": null,
//!  "checks": [{"id": "db", "passed": true, "value": "1 matching of 3 rows", "reason": null,
//!              "evidence": [{"command": "pull /data/user_de/0/…/alarms.db (+ -wal, -shm)", "output": "ok"}]}],
//!  "metrics": {"task_reward": 1.0, "completion_ratio": 1.0, "reversed_redundancy": 1.0, "repeat_ratio": 0.0, "reference_matched": 1.0}}
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::episode::{Report as CoreReport, Started as CoreStarted, Summary as CoreSummary};
use crate::eval::{CheckResult, Verdict};
use crate::store::StepRow;
use crate::task::Task;

#[derive(Debug, Default, Deserialize, schemars::JsonSchema, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartBody {
    /// Seed for the task's parameters (same seed, same instance); random when omitted.
    pub seed: Option<u64>,
    /// Parameter overrides by name (strings or numbers).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub params: BTreeMap<String, serde_json::Value>,
    /// Device spec (`sim`, `sim:7`, an adb serial); the default device when omitted.
    pub device: Option<String>,
    /// Device environment the embedded phone starts in: a B-MoCA id (`105`), `random:SEED` or
    /// `default` (the episode runs on `sim…@ENV`).
    pub env: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerBody {
    /// The answer to the task's question.
    pub answer: String,
}

/// A parameter override as text (numbers keep their JSON spelling).
pub fn param_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The one error shape of the REST API.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: String,
    pub kind: String,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TaskList {
    pub tasks: Vec<TaskInfo>,
}

/// A task as the agent may see it: no parameters, checks or solution.
#[derive(Debug, Serialize, Deserialize)]
pub struct AgentTaskInfo {
    pub id: String,
    /// The goal template (placeholders unfilled).
    pub goal: String,
    pub apps: Vec<String>,
    pub max_steps: u32,
}

impl AgentTaskInfo {
    pub fn from_task(t: &Task) -> AgentTaskInfo {
        AgentTaskInfo {
            id: t.id.clone(),
            goal: t.goal.clone(),
            apps: t.apps.clone(),
            max_steps: t.max_steps,
        }
    }
}

/// A started episode as the agent may see it: the goal and the step limit, nothing else.
#[derive(Debug, Serialize, Deserialize)]
pub struct AgentStarted {
    pub episode: String,
    pub goal: String,
    pub max_steps: u32,
}

impl From<&CoreStarted> for AgentStarted {
    fn from(s: &CoreStarted) -> AgentStarted {
        AgentStarted {
            episode: s.episode.clone(),
            goal: s.goal.clone(),
            max_steps: s.max_steps,
        }
    }
}

/// A task as the harness sees it.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TaskInfo {
    pub id: String,
    pub goal: String,
    pub kind: String,
    pub apps: Vec<String>,
    pub tags: Vec<String>,
    pub complexity: f64,
    pub max_steps: u32,
    pub params: Vec<String>,
    pub checks: Vec<String>,
    pub golden_steps: usize,
    pub source: Option<String>,
}

impl TaskInfo {
    pub fn from_task(t: &Task) -> TaskInfo {
        TaskInfo {
            id: t.id.clone(),
            goal: t.goal.clone(),
            kind: t.kind.as_str().into(),
            apps: t.apps.clone(),
            tags: t.tags.clone(),
            complexity: t.complexity,
            max_steps: t.max_steps,
            params: t.params.iter().map(|(n, _)| n.clone()).collect(),
            checks: t.checks.iter().map(|c| c.id.clone()).collect(),
            golden_steps: t.golden.len(),
            source: t.source.clone(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Started {
    pub episode: String,
    pub task: String,
    pub goal: String,
    pub kind: String,
    pub max_steps: u32,
    pub seed: u64,
    pub params: BTreeMap<String, String>,
    pub device: String,
    /// Setup commands that ran, in order.
    pub setup: Vec<String>,
}

impl From<&CoreStarted> for Started {
    fn from(s: &CoreStarted) -> Started {
        Started {
            episode: s.episode.clone(),
            task: s.task.clone(),
            goal: s.goal.clone(),
            kind: s.kind.as_str().into(),
            max_steps: s.max_steps,
            seed: s.seed,
            params: s.params.iter().cloned().collect(),
            device: s.device.clone(),
            setup: s.setup.clone(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Evidence {
    pub command: String,
    pub output: String,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CheckOut {
    pub id: String,
    pub passed: bool,
    /// Why the check could not read the device, when it could not (it then says nothing about the
    /// agent).
    pub inconclusive: Option<String>,
    pub value: String,
    pub reason: Option<String>,
    pub evidence: Vec<Evidence>,
}

impl From<&CheckResult> for CheckOut {
    fn from(r: &CheckResult) -> CheckOut {
        CheckOut {
            id: r.id.clone(),
            passed: r.passed,
            inconclusive: r.inconclusive.clone(),
            value: r.value.clone(),
            reason: r.reason.clone(),
            evidence: r
                .evidence
                .iter()
                .map(|e| Evidence {
                    command: e.command.clone(),
                    output: e.output.clone(),
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Metrics {
    pub task_reward: f64,
    pub completion_ratio: f64,
    pub reversed_redundancy: f64,
    pub repeat_ratio: f64,
    /// The share of the reference's actions the steps matched (|LCS| / L), outcome aside.
    pub reference_matched: f64,
}

#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Report {
    pub episode: String,
    pub task: String,
    pub status: String,
    /// `success`, `failure` or `inconclusive` (checks that could not read the device decide it).
    pub verdict: String,
    /// The episode was still running: the agent may still change the outcome.
    pub provisional: bool,
    /// Which checks could not read the device, when the verdict is inconclusive.
    pub inconclusive: Option<String>,
    pub success: bool,
    pub score: f64,
    pub subgoal_rate: Option<f64>,
    pub steps_used: u32,
    pub max_steps: u32,
    /// Why the episode could not score (not finished, past the step limit).
    pub gate: Option<String>,
    pub checks: Vec<CheckOut>,
    pub metrics: Option<Metrics>,
}

impl From<&CoreReport> for Report {
    fn from(r: &CoreReport) -> Report {
        let v: &Verdict = &r.verdict;
        Report {
            episode: r.episode.clone(),
            task: r.task.clone(),
            status: r.status.as_str().into(),
            verdict: v.kind().into(),
            provisional: r.provisional,
            inconclusive: v.inconclusive.clone(),
            success: v.success,
            score: v.score,
            subgoal_rate: v.subgoal_rate,
            steps_used: r.steps_used,
            max_steps: r.max_steps,
            gate: v.gate.clone(),
            checks: v.checks.iter().map(CheckOut::from).collect(),
            metrics: r.metrics.map(|m| Metrics {
                task_reward: m.task_reward,
                completion_ratio: m.completion_ratio,
                reversed_redundancy: m.reversed_redundancy,
                repeat_ratio: m.repeat_ratio,
                reference_matched: m.reference_matched,
            }),
        }
    }
}

/// An episode as it stands (`GET /v1/episodes/{id}`, and the answer of answer, finish and end).
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Summary {
    pub episode: String,
    pub task: String,
    pub goal: String,
    pub status: String,
    pub steps: u32,
    pub max_steps: u32,
    pub answer: Option<String>,
    pub finished: bool,
    pub device: String,
    /// The last check's verdict: `success`, `failure` or `inconclusive`.
    pub last_verdict: Option<String>,
    pub last_score: Option<f64>,
    pub last_success: Option<bool>,
    /// The last check ran while the episode was running.
    pub provisional: bool,
    /// Why the episode was aborted (device lost, the server running it ended).
    pub abort_reason: Option<String>,
    /// The phone was restored to its baseline snapshot before setup. False on a phone without
    /// snapshots (a real device): only the task's setup reset what the task reads, and state left
    /// by earlier episodes may remain.
    pub restored: bool,
}

impl From<&CoreSummary> for Summary {
    fn from(s: &CoreSummary) -> Summary {
        Summary {
            episode: s.episode.clone(),
            task: s.task.clone(),
            goal: s.goal.clone(),
            status: s.status.as_str().into(),
            steps: s.steps,
            max_steps: s.max_steps,
            answer: s.answer.clone(),
            finished: s.finished,
            device: s.device.clone(),
            last_verdict: s.last_verdict.clone(),
            last_score: s.last_score,
            last_success: s.last_verdict.as_ref().map(|v| v == "success"),
            provisional: s.provisional,
            abort_reason: s.abort_reason.clone(),
            restored: s.restored,
        }
    }
}

/// `GET /v1/episodes/{id}/steps`: the recorded steps (actions and recorded shell outputs; screens
/// are left out).
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Steps {
    pub episode: String,
    #[schema(value_type = Vec<Object>)]
    pub steps: Vec<serde_json::Value>,
}

impl Steps {
    pub fn new(episode: &str, rows: &[StepRow]) -> Steps {
        Steps {
            episode: episode.to_string(),
            steps: rows.iter().map(crate::store::step_json).collect(),
        }
    }
}

//! The task tools, in two sets over the same [`Episodes`](crate::episode::Episodes):
//!
//! - the **agent's** (the default server): `task_list` (id, goal template, apps, step limit),
//!   `task_start` (episode id, the instance's goal and step limit, nothing else), `task_answer` (once)
//!   and `task_finish`. Nothing here shows a parameter, a setup command, a check, an expected value or
//!   a check's reason: not in results and not in errors.
//! - the **harness's** (`serve --harness`): the same four with everything the harness needs (seed,
//!   overrides, device, setup log), plus `task_check` (full evidence; provisional while the episode
//!   runs), `task_end`, `task_status` and `task_export`.
//!
//! Each tool parses its arguments, calls one `Episodes` method and returns the JSON bodies of
//! `crate::http::wire`. Actions the agent takes through the phone tools while an episode is open on
//! its device are recorded as the episode's steps.

use std::collections::BTreeMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router, ErrorData as McpError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{reply, DroidMcp};
use crate::episode::{EpisodeError, Episodes};
use crate::http::wire;
use crate::task::TaskError;

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct TaskListArgs {
    /// Only tasks with this tag: an app name, `cross-app`, `query`, `b-moca`, `android-world`, ….
    pub tag: Option<String>,
    /// Tasks to skip (the reply's `next_offset`).
    #[schemars(range(min = 0))]
    pub offset: Option<u32>,
    /// Page size (default 40).
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<u32>,
}

impl TaskListArgs {
    /// The page of `items` these arguments ask for, its text header and its structured frame.
    fn page<'a, T: serde::Serialize>(
        &self,
        items: &'a [T],
    ) -> Result<(&'a [T], String, serde_json::Value), McpError> {
        let offset = self.offset.unwrap_or(0) as usize;
        let limit = super::params::page_limit(self.limit, 40, 200)?;
        let (page, next) = reply::page(items, offset, limit);
        let mut head = match (items.len(), page.len()) {
            (0, _) => "no tasks match".to_string(),
            (total, 0) => format!("{total} tasks; none from offset {offset}"),
            (total, n) => format!("tasks {}-{} of {total}", offset + 1, offset + n),
        };
        let mut value = serde_json::json!({"total": items.len(), "offset": offset});
        if let Some(n) = next {
            head.push_str(&format!(" (more: offset {n}; narrow with `tag`)"));
            value["next_offset"] = serde_json::json!(n);
        }
        value["tasks"] = to_value(&page);
        Ok((page, head, value))
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentStartArgs {
    /// Task id from `task_list`.
    pub task: String,
    /// Seed of the task instance, when the run must be reproducible; random when omitted.
    pub seed: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HarnessStartArgs {
    /// Task id from `task_list`.
    pub task: String,
    /// Seed for the task's parameters; the same seed gives the same instance.
    pub seed: Option<u64>,
    /// Parameter overrides by name (each checked by its generator).
    #[serde(default)]
    pub params: BTreeMap<String, serde_json::Value>,
    /// Device spec (`sim`, `sim:7`, an adb serial); defaults to the device this connection acts on.
    pub device: Option<String>,
    /// Device environment the embedded phone starts in: a B-MoCA id (`105`), `random:SEED` or
    /// `default`; the episode then runs on that phone (`sim:SEED@ENV`, returned as `device`).
    pub env: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EpisodeArgs {
    /// Episode id returned by `task_start`.
    pub episode: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TaskAnswerArgs {
    /// Episode id returned by `task_start`.
    pub episode: String,
    /// The answer to the task's question.
    pub answer: String,
}

fn ok_json(text: String, value: serde_json::Value) -> CallToolResult {
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(value);
    r
}

fn error_kind(e: &EpisodeError) -> &'static str {
    if e.is_not_found() {
        "not_found"
    } else if matches!(e, EpisodeError::DeviceLost { .. }) {
        "device_lost"
    } else if e.is_conflict() {
        "conflict"
    } else if e.is_client_error() {
        "bad_request"
    } else {
        "error"
    }
}

fn error_result(message: String, kind: &str) -> CallToolResult {
    let mut r = CallToolResult::error(vec![ContentBlock::text(format!("error: {message}"))]);
    r.structured_content = Some(serde_json::json!({"ok": false, "error": message, "kind": kind}));
    r
}

/// An episode error as the harness reads it: everything.
fn harness_error(e: &EpisodeError) -> CallToolResult {
    error_result(e.to_string(), error_kind(e))
}

/// An episode error as the agent may read it. Setup failures and instantiation errors quote setup
/// commands and parameter values, and a lost device's reason may quote a command: those details go
/// to the server log (and the harness's store), the agent gets what happened in general terms.
fn agent_error(e: &EpisodeError) -> CallToolResult {
    let message = match e {
        EpisodeError::Setup { task, index, .. } => {
            tracing::warn!("{e}");
            format!("task {task} could not be set up on the device (setup step {index} failed); the harness can read the details in the server log")
        }
        EpisodeError::Task(TaskError::UnknownTask { .. }) => e.to_string(),
        EpisodeError::Task(_) => {
            tracing::warn!("{e}");
            "the task could not be instantiated; the harness can read why in the server log".into()
        }
        EpisodeError::DeviceLost { id, .. } => {
            tracing::warn!("{e}");
            format!("episode {id} aborted: the device was lost")
        }
        other => other.to_string(),
    };
    error_result(message, error_kind(e))
}

fn disabled() -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(
        "error: tasks are not enabled on this server",
    )])
}

fn to_value<T: serde::Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

fn tagged<'a>(
    eps: &'a Episodes,
    tag: &'a Option<String>,
) -> impl Iterator<Item = &'a std::sync::Arc<crate::task::Task>> {
    eps.catalog().iter().filter(move |t| {
        tag.as_ref()
            .is_none_or(|tag| t.tags.iter().any(|x| x == tag))
    })
}

impl DroidMcp {
    pub(super) fn episodes(&self) -> Option<&std::sync::Arc<Episodes>> {
        self.state.tasks.get()
    }

    /// The device an episode starts on when the caller names none: the one this connection acts on.
    async fn own_device(&self) -> Result<String, CallToolResult> {
        match self.session().await {
            Ok(s) => Ok(s.serial().await),
            Err(e) => Err(super::reply::error(&e, 0)),
        }
    }

    async fn answer(
        &self,
        a: TaskAnswerArgs,
        on_error: fn(&EpisodeError) -> CallToolResult,
    ) -> CallToolResult {
        let Some(eps) = self.episodes() else {
            return disabled();
        };
        match eps.answer(&a.episode, &a.answer).await {
            Ok(()) => ok_json(
                format!(
                    "answer recorded for {}; the task is finished (only this first answer counts)",
                    a.episode
                ),
                serde_json::json!({"ok": true}),
            ),
            Err(e) => on_error(&e),
        }
    }

    async fn finish(
        &self,
        a: EpisodeArgs,
        on_error: fn(&EpisodeError) -> CallToolResult,
    ) -> CallToolResult {
        let Some(eps) = self.episodes() else {
            return disabled();
        };
        match eps.finish(&a.episode).await {
            Ok(()) => ok_json(
                format!("{} finished", a.episode),
                serde_json::json!({"ok": true}),
            ),
            Err(e) => on_error(&e),
        }
    }
}

#[tool_router(router = agent_task_tools, vis = "pub(super)")]
impl DroidMcp {
    #[tool(
        name = "task_list",
        description = "List the benchmark tasks, a page at a time: id, step limit and goal template (apps in the structured result).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn agent_task_list(
        &self,
        Parameters(a): Parameters<TaskListArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.episodes() else {
            return Ok(disabled());
        };
        let tasks: Vec<wire::AgentTaskInfo> = tagged(eps, &a.tag)
            .map(|t| wire::AgentTaskInfo::from_task(t))
            .collect();
        let (page, mut text, value) = a.page(&tasks)?;
        for t in page {
            text.push_str(&format!("\n{} ({} steps): {}", t.id, t.max_steps, t.goal));
        }
        Ok(ok_json(text, value))
    }

    #[tool(
        name = "task_start",
        description = "Start a task on this phone: sets it up and returns the episode id, the goal and the step limit. Act with the phone tools, then answer the goal's question with task_answer or, for any other goal, call task_finish when it is achieved. The harness scores the episode afterwards.",
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn agent_task_start(
        &self,
        Parameters(a): Parameters<AgentStartArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.episodes() else {
            return Ok(disabled());
        };
        let device = match self.own_device().await {
            Ok(d) => d,
            Err(r) => return Ok(r),
        };
        match eps
            .start(&a.task, a.seed, &BTreeMap::new(), Some(&device))
            .await
        {
            Ok(s) => {
                let w = wire::AgentStarted::from(&s);
                let text = format!(
                    "episode {}: {}\n(at most {} steps)",
                    w.episode, w.goal, w.max_steps
                );
                Ok(ok_json(text, to_value(&w)))
            }
            Err(e) => Ok(agent_error(&e)),
        }
    }

    #[tool(
        name = "task_answer",
        description = "Answer the task's question (this also finishes it). Only the first answer counts: a second one is refused.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn agent_task_answer(
        &self,
        Parameters(a): Parameters<TaskAnswerArgs>,
    ) -> Result<CallToolResult, McpError> {
        Ok(self.answer(a, agent_error).await)
    }

    #[tool(
        name = "task_finish",
        description = "Declare the task done (an episode scores only after this or task_answer).",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn agent_task_finish(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        Ok(self.finish(a, agent_error).await)
    }
}

#[tool_router(router = harness_task_tools, vis = "pub(super)")]
impl DroidMcp {
    #[tool(
        name = "task_list",
        description = "List the benchmark tasks, 40 per page (id, goal template, kind, apps, tags, parameters, checks, step limit). Pass `offset` (the reply's `next_offset`) for more, `tag` to narrow.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn harness_task_list(
        &self,
        Parameters(a): Parameters<TaskListArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.episodes() else {
            return Ok(disabled());
        };
        let tasks: Vec<wire::TaskInfo> = tagged(eps, &a.tag)
            .map(|t| wire::TaskInfo::from_task(t))
            .collect();
        let (page, mut text, value) = a.page(&tasks)?;
        for t in page {
            text.push_str(&format!("\n{} [{}] {}", t.id, t.kind, t.goal));
        }
        Ok(ok_json(text, value))
    }

    #[tool(
        name = "task_start",
        description = "Harness: start an episode with a seed, parameter overrides and a device. Returns the episode id, the goal to give the agent, the step limit, the parameters and the setup log (keep these from the agent).",
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn harness_task_start(
        &self,
        Parameters(a): Parameters<HarnessStartArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.episodes() else {
            return Ok(disabled());
        };
        let device = match a.device {
            Some(d) => d,
            None => match self.own_device().await {
                Ok(d) => d,
                Err(r) => return Ok(r),
            },
        };
        let params = a
            .params
            .iter()
            .map(|(k, v)| (k.clone(), wire::param_text(v)))
            .collect();
        let device = match &a.env {
            Some(env) => crate::env::with_env(&device, env),
            None => device,
        };
        match eps.start(&a.task, a.seed, &params, Some(&device)).await {
            Ok(s) => {
                let w = wire::Started::from(&s);
                let text = format!(
                    "episode {} (seed {}, device {}): {}\n(step limit {}, kind {}; params {:?})",
                    w.episode, w.seed, w.device, w.goal, w.max_steps, w.kind, w.params
                );
                Ok(ok_json(text, to_value(&w)))
            }
            Err(e) => Ok(harness_error(&e)),
        }
    }

    #[tool(
        name = "task_answer",
        description = "Record the agent's answer (once: a second answer is refused). Also finishes the episode.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn harness_task_answer(
        &self,
        Parameters(a): Parameters<TaskAnswerArgs>,
    ) -> Result<CallToolResult, McpError> {
        Ok(self.answer(a, harness_error).await)
    }

    #[tool(
        name = "task_finish",
        description = "Declare the episode finished on the agent's behalf.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn harness_task_finish(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        Ok(self.finish(a, harness_error).await)
    }

    #[tool(
        description = "Harness: score an episode: verdict (success, failure or inconclusive when the device could not be read), score in [0,1], per-check results with evidence, sub-goal rate, steps used. A check of a running episode is provisional.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn task_check(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.episodes() else {
            return Ok(disabled());
        };
        match eps.check(&a.episode).await {
            Ok(r) => {
                let w = wire::Report::from(&r);
                let lines: Vec<String> = w
                    .checks
                    .iter()
                    .map(|c| {
                        let mark = match (c.passed, &c.inconclusive) {
                            (true, _) => "✓",
                            (false, Some(_)) => "?",
                            (false, None) => "✗",
                        };
                        format!(
                            "  {mark} {}: {}{}",
                            c.id,
                            c.value,
                            c.reason
                                .as_ref()
                                .map(|r| format!(" ({r})"))
                                .unwrap_or_default()
                        )
                    })
                    .collect();
                let text = format!(
                    "{}: {}{} score={:.2} steps {}/{}{}\n{}",
                    w.episode,
                    w.verdict,
                    if w.provisional {
                        " (provisional: the episode is still running)"
                    } else {
                        ""
                    },
                    w.score,
                    w.steps_used,
                    w.max_steps,
                    w.gate
                        .as_ref()
                        .map(|g| format!(" ({g})"))
                        .unwrap_or_default(),
                    lines.join("\n")
                );
                Ok(ok_json(text, to_value(&w)))
            }
            Err(e) => Ok(harness_error(&e)),
        }
    }

    #[tool(
        description = "Harness: end an episode: runs the task's teardown; no more steps or checks afterwards.",
        annotations(
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn task_end(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.episodes() else {
            return Ok(disabled());
        };
        match eps.end(&a.episode).await {
            Ok(s) => {
                let w = wire::Summary::from(&s);
                Ok(ok_json(
                    format!("{} ended ({} steps)", w.episode, w.steps),
                    to_value(&w),
                ))
            }
            Err(e) => Ok(harness_error(&e)),
        }
    }

    #[tool(
        description = "Harness: an episode's status, step count, answer and last verdict (also for episodes a previous server left aborted).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn task_status(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.episodes() else {
            return Ok(disabled());
        };
        match eps.summary(&a.episode).await {
            Ok(s) => {
                let w = wire::Summary::from(&s);
                Ok(ok_json(
                    format!(
                        "{}: {} ({} of {} steps){}",
                        w.episode,
                        w.status,
                        w.steps,
                        w.max_steps,
                        w.abort_reason
                            .as_ref()
                            .map(|r| format!("; {r}"))
                            .unwrap_or_default()
                    ),
                    to_value(&w),
                ))
            }
            Err(e) => Ok(harness_error(&e)),
        }
    }

    #[tool(
        description = "Harness: an episode as stored (fields, parameters, setup log, steps, last check results), as `droidmcp episodes export` writes it.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn task_export(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.episodes() else {
            return Ok(disabled());
        };
        match eps.export(&a.episode) {
            Ok(v) => Ok(ok_json(v.to_string(), v)),
            Err(e) => Ok(harness_error(&e)),
        }
    }
}

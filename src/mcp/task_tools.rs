//! The task tools: `task_list`, `task_start`, `task_answer`, `task_finish`, `task_check`, `task_end`.
//! Each parses its arguments, calls one [`Episodes`](crate::session::episode::Episodes) method and
//! returns the same JSON bodies as the HTTP API (`crate::http::wire`). Actions the agent takes through
//! the phone tools while an episode is open on its device are recorded as the episode's steps.

use std::collections::BTreeMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router, ErrorData as McpError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::DroidMcp;
use crate::http::wire;
use crate::session::episode::EpisodeError;

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct TaskListArgs {
    /// Only tasks with this tag (`b-moca`, `android-world`, `clock`, `query`, …).
    pub tag: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TaskStartArgs {
    /// Task id from `task_list`.
    pub task: String,
    /// Seed for the task's parameters; the same seed gives the same instance.
    pub seed: Option<u64>,
    /// Parameter overrides by name.
    #[serde(default)]
    pub params: BTreeMap<String, serde_json::Value>,
    /// Device spec; defaults to the device this connection acts on.
    pub device: Option<String>,
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

fn episode_error(e: &EpisodeError) -> CallToolResult {
    let kind = if e.is_not_found() {
        "not_found"
    } else if matches!(e, EpisodeError::DeviceLost { .. }) {
        "device_lost"
    } else if e.is_client_error() {
        "bad_request"
    } else {
        "error"
    };
    let mut r = CallToolResult::error(vec![ContentBlock::text(format!("error: {e}"))]);
    r.structured_content =
        Some(serde_json::json!({"ok": false, "error": e.to_string(), "kind": kind}));
    r
}

fn disabled() -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(
        "error: tasks are not enabled on this server",
    )])
}

fn to_value<T: serde::Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

#[tool_router(router = task_tools, vis = "pub(super)")]
impl DroidMcp {
    #[tool(
        description = "List the benchmark tasks (id, goal template, kind, apps, tags, step limit)."
    )]
    async fn task_list(
        &self,
        Parameters(a): Parameters<TaskListArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.state.tasks.get() else {
            return Ok(disabled());
        };
        let tasks: Vec<wire::TaskInfo> = eps
            .catalog()
            .iter()
            .filter(|t| {
                a.tag
                    .as_ref()
                    .is_none_or(|tag| t.tags.iter().any(|x| x == tag))
            })
            .map(|t| wire::TaskInfo::from_task(t))
            .collect();
        let text = tasks
            .iter()
            .map(|t| format!("{} [{}] {}", t.id, t.kind, t.goal))
            .collect::<Vec<_>>()
            .join("\n");
        Ok(ok_json(
            text,
            serde_json::json!({ "tasks": to_value(&tasks) }),
        ))
    }

    #[tool(
        description = "Start a task episode: sets the phone up and returns the episode id, the goal to achieve and the step limit. Then act with the phone tools; finish with task_answer (questions) or task_finish, and score with task_check."
    )]
    async fn task_start(
        &self,
        Parameters(a): Parameters<TaskStartArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.state.tasks.get() else {
            return Ok(disabled());
        };
        let device = match a.device {
            Some(d) => Some(d),
            None => match self.session().await {
                Ok(s) => Some(s.serial().await),
                Err(e) => return Ok(super::reply::error(&e, 0)),
            },
        };
        let params = a
            .params
            .iter()
            .map(|(k, v)| (k.clone(), wire::param_text(v)))
            .collect();
        match eps.start(&a.task, a.seed, &params, device.as_deref()).await {
            Ok(s) => {
                let w = wire::Started::from(&s);
                let text = format!(
                    "episode {}: {}\n(step limit {}, kind {})",
                    w.episode, w.goal, w.max_steps, w.kind
                );
                Ok(ok_json(text, to_value(&w)))
            }
            Err(e) => Ok(episode_error(&e)),
        }
    }

    #[tool(description = "Give the answer to a question task (also declares it finished).")]
    async fn task_answer(
        &self,
        Parameters(a): Parameters<TaskAnswerArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.state.tasks.get() else {
            return Ok(disabled());
        };
        match eps.answer(&a.episode, &a.answer).await {
            Ok(()) => Ok(ok_json(
                format!("answer recorded for {}", a.episode),
                serde_json::json!({"ok": true}),
            )),
            Err(e) => Ok(episode_error(&e)),
        }
    }

    #[tool(
        description = "Declare the task done (an episode scores only after this or task_answer)."
    )]
    async fn task_finish(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.state.tasks.get() else {
            return Ok(disabled());
        };
        match eps.finish(&a.episode).await {
            Ok(()) => Ok(ok_json(
                format!("{} finished", a.episode),
                serde_json::json!({"ok": true}),
            )),
            Err(e) => Ok(episode_error(&e)),
        }
    }

    #[tool(
        description = "Score an episode now: success, score in [0,1], per-check results with evidence, sub-goal rate, steps used."
    )]
    async fn task_check(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.state.tasks.get() else {
            return Ok(disabled());
        };
        match eps.check(&a.episode).await {
            Ok(r) => {
                let w = wire::Report::from(&r);
                let lines: Vec<String> = w
                    .checks
                    .iter()
                    .map(|c| {
                        format!(
                            "  {} {}: {}{}",
                            if c.passed { "✓" } else { "✗" },
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
                    "{}: success={} score={:.2} steps {}/{}{}\n{}",
                    w.episode,
                    w.success,
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
            Err(e) => Ok(episode_error(&e)),
        }
    }

    #[tool(
        description = "End an episode: runs the task's teardown; no more steps or checks afterwards."
    )]
    async fn task_end(
        &self,
        Parameters(a): Parameters<EpisodeArgs>,
    ) -> Result<CallToolResult, McpError> {
        let Some(eps) = self.state.tasks.get() else {
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
            Err(e) => Ok(episode_error(&e)),
        }
    }
}

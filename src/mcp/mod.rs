//! The MCP server: the phone's tools, prompts and resources over stdio and streamable HTTP (rmcp).
//!
//! Brief overview: [`DroidMcp`] is one MCP connection (rmcp builds one per stdio process or HTTP
//! session). It holds the shared [`ServerState`] (a [`Hub`] of sessions over one device pool) and,
//! lazily, its own [`Session`]. Tools are split by concern: [`actions`] (tap, type, open, …) and
//! [`observe`] (screen, screenshot, hierarchy, apps, devices); [`params`] holds their argument types
//! (→ JSON Schema), [`reply`] turns session results into MCP content. [`http`] mounts the streamable
//! HTTP transport in an axum router guarded against DNS rebinding and, optionally, by a bearer token.
//!
//! **Architecture Invariant:** a tool body parses arguments, calls one `Session` method and formats
//! the result; anything smarter belongs in `session/` so the HTTP API and the CLI get it too.

// MCP logging is deprecated by SEP-2577 but still what clients (and the conformance suite) speak.
#![allow(deprecated)]

mod actions;
pub mod agent_surface;
pub mod http;
pub mod inbound;
mod observe;
mod params;
pub(crate) mod reply;
pub mod schema;
pub mod sessions;
mod task_tools;

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::handler::server::router::prompt::PromptRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::service::RequestContext;
use rmcp::{
    prompt, prompt_handler, prompt_router, tool_handler, ErrorData as McpError, RoleServer,
    ServiceExt,
};
use serde_json::Value;
use tokio::sync::OnceCell;
use tokio::task::JoinHandle;

use crate::session::{Action, Control, Hub, ObserveOptions, Session, SessionError};
use params::ObserveArgs;

/// The agent prompt shipped with the server.
pub const AGENT_PROMPT: &str = include_str!("../../prompts/agent.md");

/// Which task tools MCP clients get.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Surface {
    /// The agent's (default): `task_list`, `task_start`, `task_answer`, `task_finish`, showing the
    /// goal and step limit and nothing of the answer key.
    #[default]
    Agent,
    /// The harness's (`serve --harness`): start with seed, overrides and device; check with
    /// evidence; end; status; export.
    Harness,
}

/// State shared by every MCP connection (and the HTTP API) of one process.
pub struct ServerState {
    pub hub: Hub,
    /// Task episodes, when the server was started with tasks enabled (`serve` enables them).
    pub tasks: std::sync::OnceLock<Arc<crate::episode::Episodes>>,
    pub surface: Surface,
}

impl ServerState {
    /// A server for agents (the default surface).
    pub fn new(hub: Hub) -> Arc<ServerState> {
        ServerState::with_surface(hub, Surface::Agent)
    }

    pub fn with_surface(hub: Hub, surface: Surface) -> Arc<ServerState> {
        Arc::new(ServerState {
            hub,
            tasks: std::sync::OnceLock::new(),
            surface,
        })
    }
}

/// The MCP server's `instructions` for agents.
const AGENT_INSTRUCTIONS: &str = "Operate an Android phone. Call `screen` to see the element list, act with tap/type_text/scroll/press_key/open_app using element ids (pass the screen's `digest` with them), pass observe: true to get the new screen in the same call. `device_status` answers battery, network, volume, brightness, time and the like in one call. The `operate_phone` prompt explains the workflow.\n\nBenchmark tasks: `task_list` shows them; `task_start` sets the phone up and gives you an episode id, the goal and the step limit. A step is an action that reached the phone; looking (screen, screenshot, hierarchy, device_status, history) is free, and a call refused before reaching the phone (stale digest, unknown element, nothing focused, bad arguments) costs no step. Every action reply says how many steps are left. If the goal asks a question, reply with `task_answer` (only the first answer counts); otherwise call `task_finish` when the goal is achieved. The harness that gave you the task scores it afterwards.";

/// The MCP server's `instructions` in harness mode: the protocol a harness follows.
const HARNESS_INSTRUCTIONS: &str = "Harness mode: you run benchmark episodes on Android phones and score them; an agent does the work. Protocol: (1) `task_start` with task, seed, params and device: the phone is set up and you get the episode id, the goal, the step limit, the parameters and the setup log; (2) give the agent the goal and the step limit only (never the parameters, setup, checks or expected values); (3) the agent acts through the phone tools of a default (agent) droidmcp server on the same device, and ends with `task_answer` (questions, once) or `task_finish`, or runs out of steps; (4) `task_check` scores: verdict success, failure or inconclusive (the device could not be read, not the agent's fault), score, checks with evidence; a check while the episode runs is provisional; (5) `task_end` runs the teardown; `task_export` returns the stored episode. The same is available over REST at /v1 (see docs/tasks.md). The phone tools (screen, tap, type_text, …) are here too.";

/// One MCP connection.
#[derive(Clone)]
pub struct DroidMcp {
    state: Arc<ServerState>,
    session: Arc<OnceCell<Arc<Session>>>,
    /// The client's `logging/setLevel`; `None` until it asks for log messages.
    log_level: Arc<std::sync::Mutex<Option<LoggingLevel>>>,
    /// Resource URIs the client subscribed to, and the task that watches the screen for them.
    subscriptions: Arc<std::sync::Mutex<Subscriptions>>,
    tool_router: ToolRouter<DroidMcp>,
    prompt_router: PromptRouter<DroidMcp>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct GoalArgs {
    /// What the agent should achieve on the phone.
    pub goal: Option<String>,
}

#[prompt_router]
impl DroidMcp {
    /// How to operate the phone with these tools, optionally with a goal to work towards.
    #[prompt(name = "operate_phone")]
    async fn operate_phone(
        &self,
        Parameters(a): Parameters<GoalArgs>,
    ) -> Result<Vec<PromptMessage>, McpError> {
        let mut text = AGENT_PROMPT.to_string();
        if let Some(goal) = a.goal.filter(|g| !g.trim().is_empty()) {
            text.push_str(&format!("\n\n## Your goal\n\n{goal}\n"));
        }
        Ok(vec![PromptMessage::new_text(Role::User, text)])
    }
}

impl DroidMcp {
    pub fn new(state: Arc<ServerState>) -> DroidMcp {
        let tasks = match state.surface {
            Surface::Agent => Self::agent_task_tools(),
            Surface::Harness => Self::harness_task_tools(),
        };
        let mut tool_router = Self::action_tools() + Self::observe_tools() + tasks;
        schema::finish(&mut tool_router);
        DroidMcp {
            state,
            session: Arc::new(OnceCell::new()),
            log_level: Arc::new(std::sync::Mutex::new(None)),
            subscriptions: Arc::new(std::sync::Mutex::new(Subscriptions::default())),
            tool_router,
            prompt_router: Self::prompt_router(),
        }
    }

    fn subscriptions(&self) -> std::sync::MutexGuard<'_, Subscriptions> {
        self.subscriptions
            .lock()
            .expect("subscription lock is never poisoned: no panics while held")
    }

    /// This connection's session, opened on first use on the default device.
    async fn session(&self) -> Result<Arc<Session>, SessionError> {
        self.session
            .get_or_try_init(|| self.state.hub.open("mcp", None))
            .await
            .cloned()
    }

    /// Cancellation from the client and a progress forwarder for this request.
    fn control(&self, ctx: &RequestContext<RoleServer>) -> (Control, ProgressForwarder) {
        let token = ctx.meta.get_progress_token();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let forwarder = ProgressForwarder::start(ctx.peer.clone(), token, rx);
        (
            Control {
                cancel: ctx.ct.clone(),
                progress: Some(tx),
            },
            forwarder,
        )
    }

    async fn act(
        &self,
        action: Action,
        seen: Option<&str>,
        args: &ObserveArgs,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let observe = args.options();
        let started = Instant::now();
        let session = match self.session().await {
            Ok(s) => s,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        let (ctl, progress) = self.control(&ctx);
        // Steps reach an open task episode on this device through the pool's step sink.
        let result = session.act_seen(action, seen, observe.as_ref(), &ctl).await;
        progress.finish().await;
        let (level, line) = match &result {
            Ok(o) => (
                LoggingLevel::Info,
                format!("{} ok in {} ms", o.action, o.elapsed_ms),
            ),
            Err(f) => (LoggingLevel::Warning, format!("action failed: {}", f.error)),
        };
        self.log(&ctx, level, line).await;
        Ok(match result {
            Ok(outcome) => reply::action(&outcome),
            Err(f) => reply::act_error(&f, started.elapsed().as_millis() as u64),
        })
    }

    /// Sends a `notifications/message` when the client asked for this level.
    async fn log(&self, ctx: &RequestContext<RoleServer>, level: LoggingLevel, line: String) {
        let wanted = *self
            .log_level
            .lock()
            .expect("log level lock is never poisoned: no panics while held");
        if wanted.is_some_and(|w| level as u8 >= w as u8) {
            let mut param = LoggingMessageNotificationParam::new(level, serde_json::json!(line));
            param.logger = Some("droidmcp".into());
            let _ = ctx.peer.notify_logging_message(param).await;
        }
    }

    async fn observe(
        &self,
        opts: ObserveOptions,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let started = Instant::now();
        let session = match self.session().await {
            Ok(s) => s,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        let (ctl, progress) = self.control(&ctx);
        let (result, asked) = observe_fitting(&session, opts, &ctl).await;
        progress.finish().await;
        let elapsed = started.elapsed().as_millis() as u64;
        Ok(match result {
            Ok(obs) => reply::shrunk(reply::observation(&obs, elapsed), &obs, asked),
            Err(e) => reply::error(&e, elapsed),
        })
    }
}

/// The largest screenshot a reply carries, in encoded bytes. MCP clients take a reply as one
/// message and the official Python SDK's HTTP client refuses a server-sent event over 1 MiB; base64
/// makes the image 4/3 its size, and the element list and JSON need room beside it.
pub(crate) const MAX_IMAGE_BYTES: usize = 640 * 1024;

/// Observes with `opts`; a screenshot over [`MAX_IMAGE_BYTES`] is taken again with its long edge
/// cut by a quarter until it fits (never below 256 px). Returns the long edge asked for when the
/// image had to be made smaller, so the reply can say so.
pub(crate) async fn observe_fitting(
    session: &Session,
    mut opts: ObserveOptions,
    ctl: &Control,
) -> (
    Result<crate::session::Observation, SessionError>,
    Option<u32>,
) {
    let mut asked = None;
    loop {
        let result = session.observe(&opts, ctl).await;
        let too_big = matches!(&result, Ok(obs) if obs
            .screenshot
            .as_ref()
            .is_some_and(|s| s.bytes.len() > MAX_IMAGE_BYTES));
        if !too_big || opts.max_edge <= 256 {
            return (result, asked);
        }
        asked.get_or_insert(opts.max_edge);
        opts.max_edge = (opts.max_edge * 3 / 4).max(256);
    }
}

/// Sends `notifications/progress` for one request when the client asked for them: each report the
/// session makes, plus a heartbeat every second so long calls never look hung.
struct ProgressForwarder {
    task: Option<JoinHandle<()>>,
}

impl ProgressForwarder {
    fn start(
        peer: rmcp::Peer<RoleServer>,
        token: Option<ProgressToken>,
        mut rx: tokio::sync::mpsc::UnboundedReceiver<crate::session::Progress>,
    ) -> ProgressForwarder {
        let Some(token) = token else {
            return ProgressForwarder { task: None };
        };
        let task = tokio::spawn(async move {
            let started = Instant::now();
            let mut sent = 0f64;
            let mut beat = tokio::time::interval_at(
                tokio::time::Instant::now() + Duration::from_secs(1),
                Duration::from_secs(1),
            );
            loop {
                let message = tokio::select! {
                    p = rx.recv() => match p {
                        Some(p) => p.message,
                        None => break,
                    },
                    _ = beat.tick() => format!("working, {} s", started.elapsed().as_secs()),
                };
                sent += 1.0;
                let param =
                    ProgressNotificationParam::new(token.clone(), sent).with_message(message);
                if peer.notify_progress(param).await.is_err() {
                    break;
                }
            }
        });
        ProgressForwarder { task: Some(task) }
    }

    /// Stops the heartbeat once the call has its answer.
    async fn finish(self) {
        if let Some(task) = self.task {
            task.abort();
            let _ = task.await;
        }
    }
}

/// Resources: the current screen as text (elements), XML and image.
const RES_ELEMENTS: &str = "android://screen/elements";
const RES_XML: &str = "android://screen/hierarchy.xml";
const RES_SCREENSHOT: &str = "android://screen/screenshot.png";
const RES_STEPS: &str = "android://session/steps";

/// The client's resource subscriptions on one connection.
#[derive(Default)]
struct Subscriptions {
    uris: std::collections::BTreeSet<String>,
    watcher: Option<JoinHandle<()>>,
}

impl Drop for Subscriptions {
    fn drop(&mut self) {
        if let Some(w) = self.watcher.take() {
            w.abort();
        }
    }
}

/// Goals the `operate_phone` prompt's `goal` argument completes to (`completion/complete`).
const GOAL_EXAMPLES: &[&str] = &[
    "Set an alarm for 7:00 AM labelled Gym, repeating on weekdays",
    "Turn on dark theme and set brightness to half",
    "Add a contact and send them a text message",
    "Work out 12.5 * 4 - 3 in Calculator",
    "Create a calendar event tomorrow at 10:00",
    "Start a 5 minute timer and tell me the time remaining",
    "Find the Android version in About phone",
];

/// Clips long text in a failed call's reply: an error must never echo a megabyte of input back.
fn clip_error(mut result: CallToolResult) -> CallToolResult {
    if result.is_error != Some(true) {
        return result;
    }
    for block in &mut result.content {
        if let ContentBlock::Text(t) = block {
            t.text = crate::session::clip(&t.text, MAX_ERROR_CHARS);
        }
    }
    if let Some(Value::Object(obj)) = &mut result.structured_content {
        if let Some(Value::String(e)) = obj.get_mut("error") {
            *e = crate::session::clip(e, MAX_ERROR_CHARS);
        }
    }
    result
}

/// The longest error text a reply carries.
const MAX_ERROR_CHARS: usize = 600;

#[tool_handler(router = self.tool_router)]
#[prompt_handler(router = self.prompt_router)]
impl rmcp::ServerHandler for DroidMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_logging()
                .enable_completions()
                .build(),
        )
        .with_server_info(Implementation::new(
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(match self.state.surface {
            Surface::Agent => AGENT_INSTRUCTIONS,
            Surface::Harness => HARNESS_INSTRUCTIONS,
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let tcc = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        match self.tool_router.call(tcc).await {
            Ok(CallToolResponse::Complete(r)) => Ok(CallToolResponse::Complete(clip_error(r))),
            Ok(other) => Ok(other),
            Err(mut e) => {
                e.message = crate::session::clip(&e.message, MAX_ERROR_CHARS).into();
                Err(e)
            }
        }
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, McpError> {
        let known = matches!(&request.r#ref, Reference::Prompt(p) if p.name == "operate_phone")
            && request.argument.name == "goal";
        if !known {
            return Err(McpError::invalid_params(
                "completions exist only for the `goal` argument of the `operate_phone` prompt",
                None,
            ));
        }
        let typed = request.argument.value.to_lowercase();
        let values: Vec<String> = GOAL_EXAMPLES
            .iter()
            .filter(|g| g.to_lowercase().contains(typed.trim()))
            .map(|g| g.to_string())
            .collect();
        let mut info = CompletionInfo::default();
        info.total = Some(values.len() as u32);
        info.has_more = Some(false);
        info.values = values;
        Ok(CompleteResult::new(info))
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let uri = request.uri.as_str();
        if ![RES_ELEMENTS, RES_XML, RES_SCREENSHOT, RES_STEPS].contains(&uri) {
            return Err(McpError::resource_not_found(
                format!("no resource {}", crate::session::clip(uri, 200)),
                None,
            ));
        }
        let session = self
            .session()
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        let mut subs = self.subscriptions();
        subs.uris.insert(uri.to_string());
        if subs.watcher.as_ref().is_none_or(|w| w.is_finished()) {
            subs.watcher = Some(tokio::spawn(watch_screen(
                session,
                ctx.peer.clone(),
                self.subscriptions.clone(),
            )));
        }
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        let mut subs = self.subscriptions();
        subs.uris.remove(request.uri.as_str());
        if subs.uris.is_empty() {
            if let Some(w) = subs.watcher.take() {
                w.abort();
            }
        }
        Ok(())
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        *self
            .log_level
            .lock()
            .expect("log level lock is never poisoned: no panics while held") = Some(request.level);
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        Ok(ListResourcesResult {
            resources: vec![
                Resource::new(RES_ELEMENTS, "screen-elements")
                    .with_description("The current screen's compressed element list")
                    .with_mime_type("text/plain"),
                Resource::new(RES_XML, "screen-hierarchy")
                    .with_description("The current screen's uiautomator XML")
                    .with_mime_type("application/xml"),
                Resource::new(RES_SCREENSHOT, "screen-screenshot")
                    .with_description("A PNG screenshot of the current screen (long edge 1024 px)")
                    .with_mime_type("image/png"),
                Resource::new(RES_STEPS, "session-steps")
                    .with_description(
                        "The steps taken on this phone (by any client), refused attempts marked",
                    )
                    .with_mime_type("application/json"),
            ],
            ..Default::default()
        })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let uri = request.uri.as_str();
        let opts = match uri {
            RES_ELEMENTS => ObserveOptions::default(),
            RES_XML => ObserveOptions {
                elements: false,
                xml: true,
                ..ObserveOptions::default()
            },
            RES_SCREENSHOT => ObserveOptions {
                elements: false,
                screenshot: true,
                encoding: crate::device::image::Encoding::Png,
                ..ObserveOptions::default()
            },
            RES_STEPS => ObserveOptions::default(),
            _ => {
                return Err(McpError::resource_not_found(
                    format!("no resource {uri}"),
                    None,
                ))
            }
        };
        let session = self
            .session()
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        if uri == RES_STEPS {
            let steps = reply::steps_json(&session.steps().await);
            return Ok(ReadResourceResult::new(vec![ResourceContents::text(
                steps.to_string(),
                uri,
            )
            .with_mime_type("application/json")])
            .into());
        }
        let (ctl, progress) = self.control(&ctx);
        let obs = session.observe(&opts, &ctl).await;
        progress.finish().await;
        let obs = obs.map_err(|e| McpError::internal_error(e.to_string(), None))?;
        let contents = match uri {
            RES_ELEMENTS => ResourceContents::text(obs.elements.unwrap_or_default(), uri)
                .with_mime_type("text/plain"),
            RES_XML => ResourceContents::text(obs.xml.unwrap_or_default(), uri)
                .with_mime_type("application/xml"),
            _ => {
                use base64::Engine;
                let shot = obs
                    .screenshot
                    .ok_or_else(|| McpError::internal_error("no screenshot taken", None))?;
                ResourceContents::blob(
                    base64::engine::general_purpose::STANDARD.encode(&shot.bytes),
                    uri,
                )
                .with_mime_type(shot.encoding.mime())
            }
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

/// Sends `notifications/resources/updated` for the subscribed resources each time the session's device
/// changes (any session acted on it), once that action has settled. Ends when the client goes away.
async fn watch_screen(
    session: Arc<Session>,
    peer: rmcp::Peer<RoleServer>,
    subs: Arc<std::sync::Mutex<Subscriptions>>,
) {
    loop {
        session.screen_changed().await;
        let uris: Vec<String> = subs
            .lock()
            .expect("subscription lock is never poisoned: no panics while held")
            .uris
            .iter()
            .cloned()
            .collect();
        for uri in uris {
            let param = ResourceUpdatedNotificationParam::new(uri);
            if peer.notify_resource_updated(param).await.is_err() || peer.is_transport_closed() {
                return;
            }
        }
    }
}

/// Serves one MCP connection over stdin/stdout until the client closes it.
pub async fn serve_stdio(state: Arc<ServerState>) -> Result<(), TransportError> {
    let running = DroidMcp::new(state)
        .serve(inbound::screened(tokio::io::stdin(), tokio::io::stdout()))
        .await
        .map_err(|e| TransportError(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| TransportError(e.to_string()))?;
    Ok(())
}

/// Serves one MCP connection over any byte stream pair (tests use `tokio::io::duplex`).
pub async fn serve_io<R, W>(
    state: Arc<ServerState>,
    read: R,
    write: W,
) -> Result<(), TransportError>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let running = DroidMcp::new(state)
        .serve(inbound::screened(read, write))
        .await
        .map_err(|e| TransportError(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| TransportError(e.to_string()))?;
    Ok(())
}

/// A transport failure, as rmcp describes it (the library keeps anyhow out).
#[derive(Debug, thiserror::Error)]
#[error("mcp transport: {0}")]
pub struct TransportError(pub String);

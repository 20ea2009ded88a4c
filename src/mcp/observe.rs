//! The observation and device tools: `screen`, `screenshot`, `hierarchy`, `list_apps`, `devices`,
//! `select_device`. Each calls one `Session` method and formats the answer.

use std::time::Instant;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{tool, tool_router, ErrorData as McpError, RoleServer};
use serde_json::json;

use super::params::*;
use super::{reply, DroidMcp};
use crate::session::ObserveOptions;

/// The `screen` tool's description: what it returns and how to read an element line. The same
/// notation is in prompts/agent.md and docs/hierarchy.md; `hierarchy::format::Format` is the reference.
const SCREEN_DESCRIPTION: &str = "The current screen, settled: foreground app, screen size, what changed since your last look, the element list and its `digest`; optionally a screenshot (`annotate` draws the ids on it).

Each element is one line: `ID ROLE @X,Y [actions] [state] [: strings]`, e.g. `12 switch @972,640 checked: Wi-Fi`, `5 input @540,700 focused empty: hint: Search`, `3 list @540,1394 more-down`.
- ID: pass it as `element` with this screen's `digest`: an element that moved since is followed, one that is gone is refused.
- ROLE: btn, input, checkbox, switch, radio, tab, slider, progress, select, list, web, image, text, view. btn/tab tap, input takes text, checkbox/switch/radio toggle, list scrolls.
- @X,Y: the centre in screen pixels, where a tap lands.
- action words beyond the role's own: tap, long (long-press), type, scroll, toggle; `-tap`: does NOT take taps.
- state words: checked/unchecked, selected, focused, disabled, password, empty (no text), `at~42%` (a slider's thumb, read from the screen), and on scrollables more-up/more-down/more-left/more-right when an item is cut at that edge (no word does not prove the end).
- `: strings`: text, description and text inside, joined by ` | `; `hint: …` is a field's placeholder, not its content. A line break, tab, backslash or double quote in them is written `\\n`, `\\t`, `\\\\`, `\\\"` as in JSON (type the text itself, not the escape).";

impl DroidMcp {
    /// The task episode open on the phone `steps` were taken on, if any.
    async fn open_episode(&self, steps: &[crate::session::Step]) -> Option<String> {
        let device_key = &steps.last()?.device_key;
        let ep = self.episodes()?.open_on_device(device_key).await?;
        let id = ep.lock().await.id.clone();
        Some(id)
    }
}

#[tool_router(router = observe_tools, vis = "pub(super)")]
impl DroidMcp {
    #[tool(
        description = SCREEN_DESCRIPTION,
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = super::schema::observation()
    )]
    async fn screen(
        &self,
        Parameters(a): Parameters<ScreenArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let opts = match (encoding(a.format.as_deref(), None), max_edge(a.max_edge)) {
            (Ok(encoding), Ok(max_edge)) => ObserveOptions {
                elements: a.elements.unwrap_or(true),
                screenshot: a.screenshot || a.annotate,
                annotate: a.annotate,
                max_edge,
                encoding,
                xml: false,
            },
            (Err(e), _) | (_, Err(e)) => return Ok(reply::bad_args(&e)),
        };
        self.observe(opts, ctx).await
    }

    #[tool(
        description = "A screenshot as an image, its long edge scaled to `max_edge`; the reply's `scale` maps image pixels to screen pixels (multiply).",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = super::schema::screenshot()
    )]
    async fn screenshot(
        &self,
        Parameters(a): Parameters<ScreenshotArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let opts = match (
            encoding(a.format.as_deref(), a.quality),
            max_edge(a.max_edge),
        ) {
            (Ok(encoding), Ok(max_edge)) => ObserveOptions {
                elements: false,
                screenshot: true,
                annotate: a.annotate,
                max_edge,
                encoding,
                xml: false,
            },
            (Err(e), _) | (_, Err(e)) => return Ok(reply::bad_args(&e)),
        };
        let started = Instant::now();
        let session = match self.session().await {
            Ok(s) => s,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        let (ctl, progress) = self.control(&ctx);
        let (result, asked) = super::observe_fitting(&session, opts, &ctl).await;
        progress.finish().await;
        let elapsed = started.elapsed().as_millis() as u64;
        Ok(match result {
            Ok(obs) => {
                let r = match &obs.screenshot {
                    Some(shot) => reply::screenshot(shot, elapsed),
                    None => reply::observation(&obs, elapsed),
                };
                reply::shrunk(r, &obs, asked)
            }
            Err(e) => reply::error(&e, elapsed),
        })
    }

    #[tool(
        description = "The UI hierarchy: the compressed element list, or uiautomator's raw XML with `raw: true`.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = super::schema::observation()
    )]
    async fn hierarchy(
        &self,
        Parameters(a): Parameters<HierarchyArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let opts = ObserveOptions {
            elements: !a.raw,
            xml: a.raw,
            ..ObserveOptions::default()
        };
        self.observe(opts, ctx).await
    }

    #[tool(description = "Launchable apps on the device: label and package.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = super::schema::apps()
    )]
    async fn list_apps(&self) -> Result<CallToolResult, McpError> {
        let started = Instant::now();
        let session = match self.session().await {
            Ok(s) => s,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        let elapsed = || started.elapsed().as_millis() as u64;
        Ok(match session.apps().await {
            Ok(apps) => reply::apps(&apps, elapsed()),
            Err(e) => reply::error(&e, elapsed()),
        })
    }

    #[tool(
        description = "The phone's everyday state in one call: battery and charging, airplane mode, Wi-Fi, Bluetooth and mobile data, volumes with their ranges, brightness, time and time zone, language, screen size and rotation, the app in front. Read with Android's own commands; changes nothing and costs no step.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = super::schema::device_status()
    )]
    async fn device_status(&self) -> Result<CallToolResult, McpError> {
        let started = Instant::now();
        let session = match self.session().await {
            Ok(s) => s,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        let elapsed = || started.elapsed().as_millis() as u64;
        Ok(match session.device_status().await {
            Ok(status) => reply::device_status(&status, elapsed()),
            Err(e) => reply::error(&e, elapsed()),
        })
    }

    #[tool(
        description = "Devices this server has open and the one this session uses. `sim` (the embedded phone) is always available.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = super::schema::devices()
    )]
    async fn devices(&self) -> Result<CallToolResult, McpError> {
        let current = match self.session().await {
            Ok(s) => s.serial().await,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        let list = self.state.hub.pool().list();
        let mut text = format!("current: {current}\n");
        for d in &list {
            text.push_str(&format!(
                "{} (spec {}, {} session(s))\n",
                d.serial, d.spec, d.leases
            ));
        }
        text.push_str("available: sim, sim:SEED, or an adb serial");
        Ok(reply::text(
            text,
            json!({
                "ok": true,
                "current": current,
                "devices": list.iter().map(|d| json!({"serial": d.serial, "spec": d.spec, "sessions": d.leases})).collect::<Vec<_>>(),
            }),
        ))
    }

    #[tool(
        description = "Switch this session to another device: `sim`, `sim:SEED`, or an adb serial.",
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = super::schema::selected()
    )]
    async fn select_device(
        &self,
        Parameters(a): Parameters<SelectDeviceArgs>,
    ) -> Result<CallToolResult, McpError> {
        let session = match self.session().await {
            Ok(s) => s,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        Ok(match session.select_device(&a.device).await {
            Ok(serial) => reply::text(
                format!("now using {serial}"),
                json!({"ok": true, "serial": serial}),
            ),
            Err(e) => reply::error(&e, 0),
        })
    }

    #[tool(description = "The steps taken on this phone so far (action, time, outcome), oldest first, a page at a time, in stretches marked by task episode; during a task episode, only its own steps. In an episode a step has the number the step counter gave it (from 1); refused attempts, which cost no step, are listed with `-`.",
        annotations(read_only_hint = true, open_world_hint = false),
        output_schema = super::schema::history()
    )]
    async fn history(
        &self,
        Parameters(a): Parameters<HistoryArgs>,
    ) -> Result<CallToolResult, McpError> {
        let session = match self.session().await {
            Ok(s) => s,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        let limit = page_limit(a.limit, 20, 100)?;
        let offset = a.offset.unwrap_or(0) as usize;
        let mut steps = session.steps().await;
        // During a task episode the agent sees its own steps only: an earlier run of the same
        // task on this phone would show it the way.
        if let Some(id) = self.open_episode(&steps).await {
            steps.retain(|s| s.episode.as_ref().is_some_and(|(e, _)| *e == id));
        }
        Ok(reply::history(&steps, offset, limit))
    }
}

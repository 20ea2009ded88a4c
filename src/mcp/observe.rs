//! The observation and device tools: `screen`, `screenshot`, `hierarchy`, `list_apps`, `devices`,
//! `select_device`. Each calls one `Session` method and formats the answer.

use std::time::Instant;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::service::RequestContext;
use rmcp::{tool, tool_router, ErrorData as McpError, RoleServer};
use serde_json::json;

use super::params::*;
use super::{reply, DroidMcp};
use crate::session::ObserveOptions;

#[tool_router(router = observe_tools, vis = "pub(super)")]
impl DroidMcp {
    #[tool(
        description = "The current screen, settled: foreground app, screen size, and the compressed element list (ids usable by tap/type_text/scroll); optionally a screenshot (annotate draws the ids on it)."
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
        description = "A screenshot as an image, its long edge scaled to `max_edge` (default 1024); the reply gives the scale factor to map image pixels to screen pixels."
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
        let result = session.observe(&opts, &ctl).await;
        progress.finish().await;
        let elapsed = started.elapsed().as_millis() as u64;
        Ok(match result {
            Ok(obs) => match &obs.screenshot {
                Some(shot) => reply::screenshot(shot, elapsed),
                None => reply::observation(&obs, elapsed),
            },
            Err(e) => reply::error(&e, elapsed),
        })
    }

    #[tool(
        description = "The UI hierarchy: the compressed element list, or uiautomator's raw XML with `raw: true`."
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

    #[tool(description = "Launchable apps on the device: label and package.")]
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
        description = "Devices this server has open and the one this session uses. `sim` (the embedded phone) is always available."
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
        description = "Switch this session to another device: `sim`, `sim:SEED`, or an adb serial."
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

    #[tool(description = "The steps this session has taken so far (action, time, outcome).")]
    async fn history(&self) -> Result<CallToolResult, McpError> {
        let session = match self.session().await {
            Ok(s) => s,
            Err(e) => return Ok(reply::error(&e, 0)),
        };
        let steps = session.steps();
        let text = steps
            .iter()
            .map(|s| {
                format!(
                    "{}. {} ({} ms){}",
                    s.index,
                    s.action,
                    s.elapsed_ms,
                    s.error
                        .as_ref()
                        .map(|e| format!(" error: {e}"))
                        .unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        let mut r = CallToolResult::success(vec![ContentBlock::text(if text.is_empty() {
            "no steps yet".to_string()
        } else {
            text
        })]);
        r.structured_content = Some(json!({"ok": true, "steps": reply::steps_json(&steps)}));
        Ok(r)
    }
}

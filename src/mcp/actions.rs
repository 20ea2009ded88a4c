//! The action tools: each parses its arguments into a `session::Action` and calls `Session::act`.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use rmcp::{tool, tool_router, ErrorData as McpError, RoleServer};

use super::params::*;
use super::{reply, DroidMcp};
use crate::geom::Point;
use crate::session::{Action, Target};

#[tool_router(router = action_tools, vis = "pub(super)")]
impl DroidMcp {
    #[tool(
        description = "Tap an element (id from `screen`, or visible text) or a point.",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = true),
        output_schema = super::schema::action()
    )]
    async fn tap(
        &self,
        Parameters(a): Parameters<TapArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match a.target.target() {
            Ok(t) => {
                self.act(Action::Tap(t), a.target.seen.seen(), &a.observe, ctx)
                    .await
            }
            Err(e) => Ok(reply::bad_args(&e)),
        }
    }

    #[tool(description = "Double-tap an element or a point (e.g. to zoom maps or select a word).",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = true),
        output_schema = super::schema::action()
    )]
    async fn double_tap(
        &self,
        Parameters(a): Parameters<TapArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match a.target.target() {
            Ok(t) => {
                let seen = a.target.seen.seen();
                self.act(Action::DoubleTap(t), seen, &a.observe, ctx).await
            }
            Err(e) => Ok(reply::bad_args(&e)),
        }
    }

    #[tool(
        description = "Long-press an element or a point (context menus, selection, drag handles).",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = true),
        output_schema = super::schema::action()
    )]
    async fn long_press(
        &self,
        Parameters(a): Parameters<LongPressArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match a.target.target() {
            Ok(target) => {
                let action = Action::LongPress {
                    target,
                    duration_ms: a.duration_ms.unwrap_or(800),
                };
                self.act(action, a.target.seen.seen(), &a.observe, ctx)
                    .await
            }
            Err(e) => Ok(reply::bad_args(&e)),
        }
    }

    #[tool(
        description = "Swipe the finger in a direction (`up` shows what is below; from `element`, over `distance` px) or from (x1,y1) to (x2,y2). For lists prefer `scroll`.",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = true),
        output_schema = super::schema::action()
    )]
    async fn swipe(
        &self,
        Parameters(a): Parameters<SwipeArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let duration_ms = a.duration_ms.unwrap_or(300);
        let action = match (&a.direction, a.x1, a.y1, a.x2, a.y2) {
            (Some(d), None, None, None, None) => match direction(d) {
                Ok(direction) => Action::SwipeDirection {
                    direction,
                    from: a.element.map(Target::Element),
                    distance: a.distance,
                    duration_ms,
                },
                Err(e) => return Ok(reply::bad_args(&e)),
            },
            (None, Some(x1), Some(y1), Some(x2), Some(y2)) if a.element.is_none() => Action::Swipe {
                from: Target::Point(Point::new(x1, y1)),
                to: Target::Point(Point::new(x2, y2)),
                duration_ms,
            },
            _ => {
                return Ok(reply::bad_args(
                    "give either `direction` (optionally with `element`/`distance`) or all of x1, y1, x2, y2",
                ))
            }
        };
        self.act(action, a.seen.seen(), &a.observe, ctx).await
    }

    #[tool(
        description = "Scroll a list (`element`, default the largest): `down` reveals what is further down. With `until_text`, scrolls until that text is on screen (reports its id) or the list stops moving.",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = true),
        output_schema = super::schema::action()
    )]
    async fn scroll(
        &self,
        Parameters(a): Parameters<ScrollArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let direction = match direction(&a.direction) {
            Ok(d) => d,
            Err(e) => return Ok(reply::bad_args(&e)),
        };
        let action = Action::Scroll {
            direction,
            container: a.element.map(Target::Element),
            until: a
                .until_text
                .filter(|t| !t.trim().is_empty())
                .map(Target::Text),
            max_swipes: a.max_swipes.unwrap_or(10),
        };
        self.act(action, a.seen.seen(), &a.observe, ctx).await
    }

    #[tool(
        description = "Type text into the focused field, or into `element` (tapped first). Any Unicode text arrives exactly as given.",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = true),
        output_schema = super::schema::action()
    )]
    async fn type_text(
        &self,
        Parameters(a): Parameters<TypeTextArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        let action = Action::TypeText {
            text: a.text,
            into: a.element.map(Target::Element),
            clear: a.clear,
            submit: a.submit,
        };
        self.act(action, a.seen.seen(), &a.observe, ctx).await
    }

    #[tool(
        description = "Press a key, by name or Android keycode.",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = true),
        output_schema = super::schema::action()
    )]
    async fn press_key(
        &self,
        Parameters(a): Parameters<PressKeyArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.act(Action::PressKey { key: a.key }, None, &a.observe, ctx)
            .await
    }

    #[tool(
        description = "Open an app by its name in any language or by package. Unknown names get the closest matches back.",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = true),
        output_schema = super::schema::action()
    )]
    async fn open_app(
        &self,
        Parameters(a): Parameters<OpenAppArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.act(Action::OpenApp { app: a.app }, None, &a.observe, ctx)
            .await
    }

    #[tool(
        description = "Wait for `ms` milliseconds (e.g. for a download or animation), then let the UI settle. Reports progress each second; cancellable. In a task episode it counts as a step, as AndroidWorld's wait action does.",
        // Not read-only: a tool is read-only exactly when it costs no step, and a wait is a move
        // the agent makes (the phone runs on meanwhile) that the step limit must bound.
        annotations(read_only_hint = false, destructive_hint = false, idempotent_hint = false, open_world_hint = false),
        output_schema = super::schema::action()
    )]
    async fn wait(
        &self,
        Parameters(a): Parameters<WaitArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        self.act(Action::Wait { ms: a.ms }, None, &a.observe, ctx)
            .await
    }
}

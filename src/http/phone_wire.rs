//! The JSON bodies of the phone routes (devices, screen, actions, apps, events), converted from
//! session types by hand; their `ToSchema` derives are what `/openapi.json` documents.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::geom::Point;
use crate::hierarchy::{format, Element, ElementList, Hierarchy};
use crate::session::{ActOutcome, Action, Direction, ElementRef, Target, LONG_PRESS_MS};

/// Which device a request is about.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct DeviceQuery {
    /// Device spec (`sim`, `sim:7`, an adb serial); the server's default device when omitted.
    pub device: Option<String>,
}

/// What `GET /v1/screen` should include.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ScreenQuery {
    /// Device spec; the default device when omitted.
    pub device: Option<String>,
    /// Include a PNG screenshot (base64). Default true.
    pub screenshot: Option<bool>,
    /// Long edge limit of the screenshot in pixels (64–4096, default 1024).
    pub max_edge: Option<u32>,
    /// Include the raw uiautomator XML.
    #[serde(default)]
    pub xml: bool,
}

/// One device of the pool.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DeviceOut {
    /// The spec it was opened with (`sim`, `sim:7`, a serial).
    pub spec: String,
    /// Its serial (`sim-0` for the embedded phone with seed 0).
    pub serial: String,
    /// Sessions holding it now (MCP connections, this page, episodes).
    pub leases: usize,
    /// Whether the server has opened it yet (the default device opens on first use).
    pub open: bool,
    /// `device`, `offline`, `unauthorized`… for adb devices; `device` for embedded phones.
    pub state: String,
    /// The model, for adb devices that report one.
    pub model: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DeviceList {
    /// The spec a request without `device` uses.
    pub default: String,
    pub devices: Vec<DeviceOut>,
    /// Why real devices are missing from the list (no adb server running, …), when they are.
    pub adb: Option<String>,
}

/// Foreground app.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ForegroundOut {
    pub package: String,
    pub activity: Option<String>,
}

/// A screenshot as base64 in JSON, so that image and elements come from one observation.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ScreenshotOut {
    pub mime: String,
    /// Base64 of the image bytes.
    pub data: String,
    pub width: u32,
    pub height: u32,
    /// Screen pixels per image pixel (screen x = image x × scale).
    pub scale: f64,
}

/// One element, with the same id the MCP `screen` tool gives it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ElementOut {
    pub id: u32,
    /// Role short name (`btn`, `input`, `switch`, …).
    pub role: String,
    pub text: String,
    pub desc: String,
    pub hint: String,
    /// Strings of non-actionable children folded into this element.
    pub folded: Vec<String>,
    /// The name accessibility gives a toggle that shows no string: its row's label.
    pub name: String,
    pub resource_id: String,
    pub class: String,
    pub actions: Vec<String>,
    pub state: Vec<String>,
    /// `[left, top, right, bottom]` in screen pixels (right/bottom exclusive).
    pub bounds: [i32; 4],
    /// Where a tap lands.
    pub center: [i32; 2],
    /// The element's line in the compact list the model reads.
    pub line: String,
    /// A selector that finds exactly this element on this screen (`text:OK`, `res:…`).
    pub selector: Option<String>,
    /// The uiautomator attributes of the node the element was made from, in dump order.
    pub attributes: Vec<[String; 2]>,
}

impl ElementOut {
    pub fn from_element(list: &ElementList, h: &Hierarchy, e: &Element) -> ElementOut {
        let b = e.bounds;
        let node = e.nodes.first().and_then(|n| h.nodes.get(n.index()));
        ElementOut {
            id: e.id.0,
            role: e.role.as_str().into(),
            text: e.text.clone(),
            desc: e.desc.clone(),
            hint: e.hint.clone(),
            folded: e.folded.clone(),
            name: e.name.clone(),
            resource_id: e.resource_id.clone(),
            class: e.class.clone(),
            actions: e.actions.words().into_iter().map(String::from).collect(),
            state: e.state.words().into_iter().map(String::from).collect(),
            bounds: [b.left, b.top, b.right, b.bottom],
            center: [e.center.x, e.center.y],
            line: format::compact_line(e, false),
            selector: list.selector_for(e.id).map(|s| s.to_string()),
            attributes: node.map(node_attributes).unwrap_or_default(),
        }
    }
}

/// A node's attributes as `uiautomator dump` writes them.
fn node_attributes(n: &crate::hierarchy::Node) -> Vec<[String; 2]> {
    let b = n.bounds;
    let flag = |v: bool| v.to_string();
    let mut out: Vec<[String; 2]> = vec![
        ["index".into(), n.index.to_string()],
        ["text".into(), n.text.clone()],
        ["resource-id".into(), n.resource_id.clone()],
        ["class".into(), n.class.clone()],
        ["package".into(), n.package.clone()],
        ["content-desc".into(), n.content_desc.clone()],
        ["hint".into(), n.hint.clone()],
        ["checkable".into(), flag(n.checkable)],
        ["checked".into(), flag(n.checked)],
        ["clickable".into(), flag(n.clickable)],
        ["enabled".into(), flag(n.enabled)],
        ["focusable".into(), flag(n.focusable)],
        ["focused".into(), flag(n.focused)],
        ["scrollable".into(), flag(n.scrollable)],
        ["long-clickable".into(), flag(n.long_clickable)],
        ["password".into(), flag(n.password)],
        ["selected".into(), flag(n.selected)],
        ["visible-to-user".into(), flag(n.visible_to_user)],
        [
            "bounds".into(),
            format!("[{},{}][{},{}]", b.left, b.top, b.right, b.bottom),
        ],
    ];
    out.extend(n.extra.iter().map(|(k, v)| [k.clone(), v.clone()]));
    out
}

/// The settled screen of a device.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ScreenOut {
    /// The spec the request named (or the default).
    pub device: String,
    pub serial: String,
    pub foreground: Option<ForegroundOut>,
    /// `[width, height]` in screen pixels.
    pub size: [i32; 2],
    /// Fingerprint of the element list (equal digests, equal screens).
    pub digest: String,
    /// The device's change counter when this screen was read (see `/v1/events`).
    pub generation: u64,
    pub elements: Vec<ElementOut>,
    /// The compact element list, exactly as the MCP `screen` tool shows it.
    pub compact: String,
    pub screenshot: Option<ScreenshotOut>,
    pub xml: Option<String>,
}

/// Where an action lands: a point (`x` and `y`), an element id from the last screen, or visible text.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TargetIn {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub y: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl TargetIn {
    fn given(&self) -> usize {
        [
            self.x.is_some() || self.y.is_some(),
            self.element.is_some(),
            self.text.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }

    fn target(&self) -> Result<Target, String> {
        if self.given() > 1 {
            return Err("give only one of `element`, `text`, or `x`+`y`".into());
        }
        if let Some(id) = self.element {
            return Ok(Target::Element(id));
        }
        if let Some(text) = &self.text {
            if text.trim().is_empty() {
                return Err("`text` must not be empty".into());
            }
            return Ok(Target::Text(text.clone()));
        }
        match (self.x, self.y) {
            (Some(x), Some(y)) => Ok(Target::Point(Point::new(x, y))),
            (None, None) => Err(
                "say where: give `element` (an id from the screen), `text`, or both `x` and `y`"
                    .into(),
            ),
            _ => Err("give both `x` and `y`".into()),
        }
    }
}

/// One action, tagged by `kind`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ActionIn {
    Tap {
        #[serde(default)]
        at: TargetIn,
    },
    DoubleTap {
        #[serde(default)]
        at: TargetIn,
    },
    LongPress {
        #[serde(default)]
        at: TargetIn,
        /// How long to hold (600–10000 ms; default 800).
        duration_ms: Option<u32>,
    },
    /// A finger drag from `from` to `to`.
    Swipe {
        from: TargetIn,
        to: TargetIn,
        /// 50–10000 ms, default 300.
        duration_ms: Option<u32>,
    },
    /// Moves list content so that what lies in `direction` comes into view.
    Scroll {
        /// `up`, `down`, `left` or `right`.
        direction: String,
        /// Stop when an element shows this text.
        until_text: Option<String>,
    },
    /// Types into the focused field (any script: ASCII via `input text`, the rest via the IME).
    TypeText {
        text: String,
        #[serde(default)]
        clear: bool,
        #[serde(default)]
        submit: bool,
    },
    /// `back`, `home`, `recents`, `enter`, … or a keycode.
    PressKey { key: String },
    /// An app by name or package.
    OpenApp { app: String },
}

impl ActionIn {
    pub fn action(&self) -> Result<Action, String> {
        let direction = |d: &str| {
            Direction::parse(d)
                .ok_or_else(|| format!("unknown direction {d:?}; use up, down, left or right"))
        };
        Ok(match self {
            ActionIn::Tap { at } => Action::Tap(at.target()?),
            ActionIn::DoubleTap { at } => Action::DoubleTap(at.target()?),
            ActionIn::LongPress { at, duration_ms } => Action::LongPress {
                target: at.target()?,
                duration_ms: duration_ms.unwrap_or(800).max(LONG_PRESS_MS),
            },
            ActionIn::Swipe {
                from,
                to,
                duration_ms,
            } => Action::Swipe {
                from: from.target()?,
                to: to.target()?,
                duration_ms: duration_ms.unwrap_or(300),
            },
            ActionIn::Scroll {
                direction: d,
                until_text,
            } => Action::Scroll {
                direction: direction(d)?,
                container: None,
                until: until_text
                    .clone()
                    .filter(|t| !t.trim().is_empty())
                    .map(Target::Text),
                max_swipes: 10,
            },
            ActionIn::TypeText {
                text,
                clear,
                submit,
            } => {
                if text.is_empty() && !clear && !submit {
                    return Err("`text` is empty: nothing to type".into());
                }
                Action::TypeText {
                    text: text.clone(),
                    into: None,
                    clear: *clear,
                    submit: *submit,
                }
            }
            ActionIn::PressKey { key } => Action::PressKey { key: key.clone() },
            ActionIn::OpenApp { app } => Action::OpenApp { app: app.clone() },
        })
    }
}

/// `POST /v1/actions`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActRequest {
    /// Device spec; the default device when omitted.
    pub device: Option<String>,
    pub action: ActionIn,
}

/// An element an action touched, as it was on the screen aimed at (or on the settled screen after).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TouchedOut {
    pub id: u32,
    /// Role short name (`btn`, `input`, `switch`, …).
    pub role: String,
    /// What it is called by: its text, else its description, folded text or hint.
    pub label: String,
    /// Where the touch lands (`[x, y]`, screen pixels).
    pub point: [i32; 2],
    /// For checkable elements: whether it is checked.
    pub checked: Option<bool>,
}

impl From<&ElementRef> for TouchedOut {
    fn from(e: &ElementRef) -> TouchedOut {
        TouchedOut {
            id: e.id,
            role: e.role.into(),
            label: e.label.clone(),
            point: [e.center.x, e.center.y],
            checked: e.checked,
        }
    }
}

/// What an action did: what it hit and what resulted. The screen after it arrives through
/// `/v1/events` and `GET /v1/screen`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ActResult {
    pub ok: bool,
    /// The action as asked (`tap #12`, `swipe (540,1800) -> (540,600)`).
    pub action: String,
    /// The one-line reply the MCP tools give: what was hit and what resulted
    /// (`tap #12 btn "Wi-Fi" @540,1200: ok in 31 ms; now checked`).
    pub echo: String,
    /// Extra facts (`opened Clock (com.google.android.deskclock)`, `typed via IME broadcast`).
    pub detail: Option<String>,
    /// The element acted on, as it was on the screen aimed at.
    pub target: Option<TouchedOut>,
    /// Where the touch landed (a swipe's start).
    pub point: Option<[i32; 2]>,
    /// A swipe's end.
    pub end: Option<[i32; 2]>,
    /// The acted-on element on the settled screen afterwards; absent when it is gone.
    pub after: Option<TouchedOut>,
    /// The text now in the field typed into.
    pub field_text: Option<String>,
    /// The foreground package after the action, and whether the action changed it.
    pub foreground: Option<String>,
    pub foreground_changed: bool,
    /// Set when the action visibly changed nothing: what that means and what to try instead.
    pub no_effect: Option<String>,
    pub elapsed_ms: u64,
    /// Whether the UI settled within the time bound.
    pub settled: bool,
}

impl From<&ActOutcome> for ActResult {
    fn from(o: &ActOutcome) -> ActResult {
        ActResult {
            ok: true,
            action: o.action.clone(),
            echo: crate::mcp::reply::action_echo(o),
            detail: o.detail.clone(),
            target: o.target.as_ref().map(TouchedOut::from),
            point: o.point.map(|p| [p.x, p.y]),
            end: o.end.map(|p| [p.x, p.y]),
            after: o.after.as_ref().map(TouchedOut::from),
            field_text: o.field_text.clone(),
            foreground: o.foreground.clone(),
            foreground_changed: o.foreground_changed,
            no_effect: o.no_effect.clone(),
            elapsed_ms: o.elapsed_ms,
            settled: o.settled,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AppOut {
    pub label: String,
    pub package: String,
    pub activity: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AppList {
    pub apps: Vec<AppOut>,
}

/// The data of an `event: screen` on `/v1/events`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ChangeEvent {
    pub device: String,
    /// The device's change counter; it grows with every action by anyone.
    pub generation: u64,
}

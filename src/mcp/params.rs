//! The tools' argument types: what clients send, with doc comments that become the JSON Schema the
//! model reads. Conversion into session types (and the argument checks that need more than serde)
//! lives here too, so the tool bodies stay one call long.

use schemars::JsonSchema;
use serde::Deserialize;

use rmcp::ErrorData as McpError;

use crate::device::image::Encoding;
use crate::geom::Point;
use crate::session::{Direction, ObserveOptions, Target};

/// Where to act: a point (`x` and `y`), an element id from the last `screen`, or visible text.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct TargetArgs {
    /// X in screen pixels (with `y`).
    pub x: Option<i32>,
    /// Y in screen pixels (with `x`).
    pub y: Option<i32>,
    /// Element id from `screen`.
    #[schemars(range(min = 1))]
    pub element: Option<u32>,
    /// Visible text or description of the element (first match).
    pub text: Option<String>,
    #[serde(flatten)]
    pub seen: SeenArgs,
}

impl TargetArgs {
    pub fn target(&self) -> Result<Target, String> {
        self.optional_target()?.ok_or_else(|| {
            "say where: give `element` (an id from `screen`), `text`, or both `x` and `y`"
                .to_string()
        })
    }

    pub fn optional_target(&self) -> Result<Option<Target>, String> {
        let given = [
            self.x.is_some() || self.y.is_some(),
            self.element.is_some(),
            self.text.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count();
        if given > 1 {
            return Err("give only one of `element`, `text`, or `x`+`y`".into());
        }
        if let Some(id) = self.element {
            return Ok(Some(Target::Element(id)));
        }
        if let Some(text) = &self.text {
            if text.trim().is_empty() {
                return Err("`text` must not be empty".into());
            }
            return Ok(Some(Target::Text(text.clone())));
        }
        match (self.x, self.y) {
            (Some(x), Some(y)) => Ok(Some(Target::Point(Point::new(x, y)))),
            (None, None) => Ok(None),
            _ => Err("give both `x` and `y`".into()),
        }
    }
}

/// Which screen an action's element ids come from. Only tools that take an element carry it: on the
/// others it would be one more argument to read that changes nothing. What a digest does is said
/// once, in the `screen` tool's description.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SeenArgs {
    /// The `digest` of the `screen` the id comes from.
    #[serde(default)]
    pub digest: Option<String>,
}

impl SeenArgs {
    /// The digest ids are aimed at, when given (blank counts as not given).
    pub fn seen(&self) -> Option<&str> {
        self.digest
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
    }
}

/// Whether to return the screen after the action.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ObserveArgs {
    /// Also return the settled screen.
    #[serde(default)]
    pub observe: bool,
    /// Also return a screenshot.
    #[serde(default)]
    pub screenshot: bool,
}

impl ObserveArgs {
    pub fn options(&self) -> Option<ObserveOptions> {
        (self.observe || self.screenshot).then(|| ObserveOptions {
            screenshot: self.screenshot,
            ..ObserveOptions::default()
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TapArgs {
    #[serde(flatten)]
    pub target: TargetArgs,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct LongPressArgs {
    #[serde(flatten)]
    pub target: TargetArgs,
    /// Hold time in ms (default 800).
    #[schemars(range(min = 600, max = 10000))]
    pub duration_ms: Option<u32>,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SwipeArgs {
    /// Finger direction; or give x1,y1,x2,y2.
    #[schemars(extend("enum" = ["up", "down", "left", "right"]))]
    pub direction: Option<String>,
    /// Start X.
    pub x1: Option<i32>,
    /// Start Y.
    pub y1: Option<i32>,
    /// End X.
    pub x2: Option<i32>,
    /// End Y.
    pub y2: Option<i32>,
    /// With `direction`: start on this element (default: screen centre).
    #[schemars(range(min = 1))]
    pub element: Option<u32>,
    /// With `direction`: distance in px (default a third of the screen).
    #[schemars(range(min = 1))]
    pub distance: Option<i32>,
    /// Duration in ms (default 300).
    #[schemars(range(min = 50, max = 10000))]
    pub duration_ms: Option<u32>,
    #[serde(flatten)]
    pub seen: SeenArgs,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ScrollArgs {
    /// What to reveal.
    #[schemars(extend("enum" = ["up", "down", "left", "right"]))]
    pub direction: String,
    /// Container element id (default: the largest scrollable).
    #[schemars(range(min = 1))]
    pub element: Option<u32>,
    /// Keep scrolling until this text shows.
    pub until_text: Option<String>,
    /// With `until_text`: most swipes (default 10).
    #[schemars(range(min = 1, max = 50))]
    pub max_swipes: Option<u32>,
    #[serde(flatten)]
    pub seen: SeenArgs,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TypeTextArgs {
    /// Any Unicode text; `\n` is a newline, not ENTER.
    pub text: String,
    /// Field to type into (tapped first); default: the focused one.
    #[schemars(range(min = 1))]
    pub element: Option<u32>,
    /// Empty the field first.
    #[serde(default)]
    pub clear: bool,
    /// Press ENTER after.
    #[serde(default)]
    pub submit: bool,
    #[serde(flatten)]
    pub seen: SeenArgs,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PressKeyArgs {
    /// `back`, `home`, `recents`, `enter`, `delete`, `volume_up`, `volume_down`, `power`, `tab`,
    /// `search`, … or a keycode (`4`, `KEYCODE_BACK`).
    pub key: String,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct OpenAppArgs {
    /// App name in any language ("clock", "Uhr", "Settings") or package.
    pub app: String,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct WaitArgs {
    /// Milliseconds to wait.
    #[schemars(range(max = 60000))]
    pub ms: u64,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ScreenArgs {
    /// Include the element list (default true).
    pub elements: Option<bool>,
    /// Include a screenshot.
    #[serde(default)]
    pub screenshot: bool,
    /// Draw element ids on the screenshot.
    #[serde(default)]
    pub annotate: bool,
    /// Screenshot long edge in px (default 1024).
    #[schemars(range(min = 64, max = 4096))]
    pub max_edge: Option<u32>,
    /// Screenshot format (default jpeg).
    #[schemars(extend("enum" = ["jpeg", "png"]))]
    pub format: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ScreenshotArgs {
    /// Draw element ids on the image.
    #[serde(default)]
    pub annotate: bool,
    /// Long edge in px (default 1024).
    #[schemars(range(min = 64, max = 4096))]
    pub max_edge: Option<u32>,
    /// Format (default jpeg).
    #[schemars(extend("enum" = ["jpeg", "png"]))]
    pub format: Option<String>,
    /// JPEG quality (default 80).
    #[schemars(range(min = 1, max = 100))]
    pub quality: Option<u8>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct HierarchyArgs {
    /// Return uiautomator's raw XML instead of the compressed element list.
    #[serde(default)]
    pub raw: bool,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct HistoryArgs {
    /// Entries to skip (the reply's `next_offset`).
    #[schemars(range(min = 0))]
    pub offset: Option<u32>,
    /// Page size (default 20).
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SelectDeviceArgs {
    /// `sim` (the embedded phone), `sim:SEED`, or an adb serial from `devices`.
    pub device: String,
}

pub fn direction(s: &str) -> Result<Direction, String> {
    Direction::parse(s)
        .ok_or_else(|| format!("direction must be up, down, left or right, not {s:?}"))
}

pub fn encoding(format: Option<&str>, quality: Option<u8>) -> Result<Encoding, String> {
    match format.map(|f| f.trim().to_ascii_lowercase()).as_deref() {
        Some("png") => Ok(Encoding::Png),
        None | Some("jpeg") | Some("jpg") => {
            Ok(Encoding::Jpeg(quality.unwrap_or(80).clamp(1, 100)))
        }
        Some(other) => Err(format!("format must be png or jpeg, not {other:?}")),
    }
}

pub fn max_edge(v: Option<u32>) -> Result<u32, String> {
    match v {
        None => Ok(1024),
        Some(n) if (64..=4096).contains(&n) => Ok(n),
        Some(n) => Err(format!("max_edge must be 64–4096, not {n}")),
    }
}

/// A page size: `default` when omitted, refused outside 1..=`max` (as the schema declares) rather
/// than silently changed, so a reply never covers another page than the one asked for.
pub fn page_limit(limit: Option<u32>, default: u32, max: u32) -> Result<usize, McpError> {
    match limit.unwrap_or(default) {
        n if (1..=max).contains(&n) => Ok(n as usize),
        n => Err(McpError::invalid_params(
            format!("limit must be 1 to {max} (got {n})"),
            None,
        )),
    }
}

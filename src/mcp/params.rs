//! The tools' argument types: what clients send, with doc comments that become the JSON Schema the
//! model reads. Conversion into session types (and the argument checks that need more than serde)
//! lives here too, so the tool bodies stay one call long.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::device::image::Encoding;
use crate::geom::Point;
use crate::session::{Direction, ObserveOptions, Target};

/// Where to act: a point (`x` and `y`), an element id from the last `screen`, or visible text.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct TargetArgs {
    /// X coordinate in screen pixels (give `y` too).
    pub x: Option<i32>,
    /// Y coordinate in screen pixels (give `x` too).
    pub y: Option<i32>,
    /// Element id from the latest `screen` element list (the number that starts its line: `12 btn …`).
    #[schemars(range(min = 1))]
    pub element: Option<u32>,
    /// Visible text or content description of the element to act on (first match).
    pub text: Option<String>,
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

/// Which screen the action's element ids come from, and whether to return the screen after it.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ObserveArgs {
    /// Return the settled screen (element list and what changed) after the action.
    #[serde(default)]
    pub observe: bool,
    /// With `observe`: also return a screenshot.
    #[serde(default)]
    pub screenshot: bool,
    /// The `digest` of the screen the element ids come from (from `screen` or an earlier reply).
    /// An element that moved is followed to its new id; one that is gone is refused. Without it,
    /// ids are read against this session's last screen.
    #[serde(default)]
    pub digest: Option<String>,
}

impl ObserveArgs {
    /// The digest ids are aimed at, when given (blank counts as not given).
    pub fn seen(&self) -> Option<&str> {
        self.digest
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
    }

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
    /// How long to hold, in ms (600–10000; default 800).
    #[schemars(range(min = 600, max = 10000))]
    pub duration_ms: Option<u32>,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SwipeArgs {
    /// Finger direction: `up`, `down`, `left`, `right` (`up` moves content up, showing what is below).
    /// Either this or `x1,y1,x2,y2`.
    #[schemars(extend("enum" = ["up", "down", "left", "right"]))]
    pub direction: Option<String>,
    /// Start X of a point-to-point swipe.
    pub x1: Option<i32>,
    /// Start Y of a point-to-point swipe.
    pub y1: Option<i32>,
    /// End X of a point-to-point swipe.
    pub x2: Option<i32>,
    /// End Y of a point-to-point swipe.
    pub y2: Option<i32>,
    /// With `direction`: start on this element id instead of the screen centre.
    #[schemars(range(min = 1))]
    pub element: Option<u32>,
    /// With `direction`: distance in pixels (default a third of the screen).
    #[schemars(range(min = 1))]
    pub distance: Option<i32>,
    /// Duration in ms (50–10000; default 300).
    #[schemars(range(min = 50, max = 10000))]
    pub duration_ms: Option<u32>,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ScrollArgs {
    /// Where the content should move to reveal: `down` shows what is further down the list, `up`
    /// what is above, `left`/`right` likewise.
    #[schemars(extend("enum" = ["up", "down", "left", "right"]))]
    pub direction: String,
    /// Scrollable container's element id (default: the largest scrollable on screen).
    #[schemars(range(min = 1))]
    pub element: Option<u32>,
    /// Keep scrolling until an element shows this text; fails if it never appears.
    pub until_text: Option<String>,
    /// With `until_text`: give up after this many swipes (1–50; default 10).
    #[schemars(range(min = 1, max = 50))]
    pub max_swipes: Option<u32>,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TypeTextArgs {
    /// The text to type, any Unicode; `\n` is typed as a newline, not as ENTER.
    pub text: String,
    /// Element id of the field to type into (tapped first); default: the focused field.
    #[schemars(range(min = 1))]
    pub element: Option<u32>,
    /// Delete the field's current text first.
    #[serde(default)]
    pub clear: bool,
    /// Press ENTER afterwards (submits searches and forms).
    #[serde(default)]
    pub submit: bool,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PressKeyArgs {
    /// `back`, `home`, `recents` (overview), `enter`, `delete`, `volume_up`, `volume_down`, `power`,
    /// `tab`, `search`, … or an Android keycode number (`4`) or name (`KEYCODE_BACK`).
    pub key: String,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct OpenAppArgs {
    /// App name as a person would say it, in any language the phone uses ("clock", "Uhr",
    /// "Settings"), or a package name ("com.android.settings").
    pub app: String,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct WaitArgs {
    /// How long to wait, in ms (0–60000); then the UI is allowed to settle.
    #[schemars(range(max = 60000))]
    pub ms: u64,
    #[serde(flatten)]
    pub observe: ObserveArgs,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ScreenArgs {
    /// Include the element list (default true).
    pub elements: Option<bool>,
    /// Include a screenshot (default false).
    #[serde(default)]
    pub screenshot: bool,
    /// Draw each element's id on the screenshot.
    #[serde(default)]
    pub annotate: bool,
    /// Screenshot long-edge limit in pixels (64–4096; default 1024).
    #[schemars(range(min = 64, max = 4096))]
    pub max_edge: Option<u32>,
    /// Screenshot format: `jpeg` (default, smaller) or `png` (lossless).
    #[schemars(extend("enum" = ["jpeg", "png"]))]
    pub format: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ScreenshotArgs {
    /// Draw each element's id on the screenshot (set-of-marks).
    #[serde(default)]
    pub annotate: bool,
    /// Long-edge limit in pixels (64–4096; default 1024). The reply states the scale factor.
    #[schemars(range(min = 64, max = 4096))]
    pub max_edge: Option<u32>,
    /// `jpeg` (default, smaller) or `png` (lossless).
    #[schemars(extend("enum" = ["jpeg", "png"]))]
    pub format: Option<String>,
    /// JPEG quality 1–100 (default 80).
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
    /// Skip this many steps (default 0); the reply gives `next_offset` while more remain.
    #[schemars(range(min = 0))]
    pub offset: Option<u32>,
    /// At most this many steps (1–100; default 20).
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

//! What a caller asks a session to do: [`Action`]s aimed at [`Target`]s, and what came of one
//! ([`ActOutcome`]).

use crate::geom::Point;

use super::Observation;

/// Where an action lands.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Point(Point),
    /// An element id from the last observation.
    Element(u32),
    /// The first element showing this text (or content description).
    Text(String),
}

/// A direction on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub fn parse(s: &str) -> Option<Direction> {
        match s.trim().to_ascii_lowercase().as_str() {
            "up" => Some(Direction::Up),
            "down" => Some(Direction::Down),
            "left" => Some(Direction::Left),
            "right" => Some(Direction::Right),
            _ => None,
        }
    }

    pub(crate) fn name(&self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }
}

/// Something to do on the device.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Tap(Target),
    DoubleTap(Target),
    LongPress {
        target: Target,
        duration_ms: u32,
    },
    /// A finger drag between two targets.
    Swipe {
        from: Target,
        to: Target,
        duration_ms: u32,
    },
    /// A finger moving in `direction` (so `up` shows what is below), from `from` or the screen centre.
    SwipeDirection {
        direction: Direction,
        from: Option<Target>,
        distance: Option<i32>,
        duration_ms: u32,
    },
    /// Scrolls content so that what lies in `direction` comes into view (`down`: further down the
    /// list); in `container` or the main scrollable; optionally until an element shows `until`.
    Scroll {
        direction: Direction,
        container: Option<Target>,
        until: Option<String>,
        max_swipes: u32,
    },
    TypeText {
        text: String,
        into: Option<Target>,
        clear: bool,
        submit: bool,
    },
    PressKey {
        key: String,
    },
    OpenApp {
        app: String,
    },
    Wait {
        ms: u64,
    },
}

impl Action {
    /// The tool-level name.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Tap(_) => "tap",
            Action::DoubleTap(_) => "double_tap",
            Action::LongPress { .. } => "long_press",
            Action::Swipe { .. } | Action::SwipeDirection { .. } => "swipe",
            Action::Scroll { .. } => "scroll",
            Action::TypeText { .. } => "type_text",
            Action::PressKey { .. } => "press_key",
            Action::OpenApp { .. } => "open_app",
            Action::Wait { .. } => "wait",
        }
    }

    pub(crate) fn describe(&self) -> String {
        fn t(target: &Target) -> String {
            match target {
                Target::Point(p) => p.to_string(),
                Target::Element(id) => format!("#{id}"),
                Target::Text(s) => format!("{s:?}"),
            }
        }
        match self {
            Action::Tap(x) => format!("tap {}", t(x)),
            Action::DoubleTap(x) => format!("double_tap {}", t(x)),
            Action::LongPress {
                target,
                duration_ms,
            } => format!("long_press {} {duration_ms}ms", t(target)),
            Action::Swipe { from, to, .. } => format!("swipe {} -> {}", t(from), t(to)),
            Action::SwipeDirection {
                direction, from, ..
            } => format!(
                "swipe {}{}",
                direction.name(),
                from.as_ref()
                    .map(|f| format!(" from {}", t(f)))
                    .unwrap_or_default()
            ),
            Action::Scroll {
                direction,
                container,
                until,
                ..
            } => format!(
                "scroll {}{}{}",
                direction.name(),
                container
                    .as_ref()
                    .map(|c| format!(" in {}", t(c)))
                    .unwrap_or_default(),
                until
                    .as_ref()
                    .map(|u| format!(" until {u:?}"))
                    .unwrap_or_default()
            ),
            Action::TypeText {
                text,
                into,
                clear,
                submit,
            } => format!(
                "type_text {text:?}{}{}{}",
                into.as_ref()
                    .map(|i| format!(" into {}", t(i)))
                    .unwrap_or_default(),
                if *clear { " clear" } else { "" },
                if *submit { " submit" } else { "" }
            ),
            Action::PressKey { key } => format!("press_key {key}"),
            Action::OpenApp { app } => format!("open_app {app:?}"),
            Action::Wait { ms } => format!("wait {ms}ms"),
        }
    }
}

/// What an action did.
#[derive(Debug, Clone)]
pub struct ActOutcome {
    pub action: String,
    /// Extra facts (`opened com.x/.Main`, `found "Alarm" as #12 after 2 swipes`).
    pub detail: Option<String>,
    pub elapsed_ms: u64,
    /// Whether the UI settled (identical consecutive element lists) within the time bound.
    pub settled: bool,
    pub observation: Option<Observation>,
}

/// The long-press duration Android treats as a long click, with margin.
pub const LONG_PRESS_MS: u32 = 600;
pub const MAX_WAIT_MS: u64 = 60_000;
pub const MAX_TEXT_CHARS: usize = 5_000;

//! What a caller asks a session to do: [`Action`]s aimed at [`Target`]s, and what came of one
//! ([`ActOutcome`]).

use droidmcp_geom::Point;
use droidmcp_hierarchy::Selector;

use super::{ElementRef, Observation, Recorded, SessionError};

/// Where an action lands.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Point(Point),
    /// An element id from an observation: the session's last one, or the one whose digest the caller
    /// passes to [`super::Session::act_seen`].
    Element(u32),
    /// A point inside element `id` (read as [`Target::Element`] is) at fractions of its width and
    /// height: a place along a slider, where a model sets it by the `at~N%` it reads.
    ElementAt {
        id: u32,
        fx: f64,
        fy: f64,
    },
    /// The element showing this text (or content description).
    Text(String),
    /// The first node a selector picks on the current screen (how golden solutions aim).
    Selector(Selector),
    /// A point inside the node a selector picks, at fractions of its width and height (`fx: 0.95`:
    /// near its right edge), for seek bars and sliders.
    Within {
        selector: Selector,
        fx: f64,
        fy: f64,
    },
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Point(p) => write!(f, "{p}"),
            Target::Element(id) => write!(f, "#{id}"),
            Target::ElementAt { id, fx, fy } => write!(f, "#{id} at ({fx}, {fy})"),
            Target::Text(s) => write!(f, "{s:?}"),
            Target::Selector(s) => write!(f, "[{s}]"),
            Target::Within { selector, fx, fy } => write!(f, "[{selector}] at ({fx}, {fy})"),
        }
    }
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

    pub fn name(&self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }

    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
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
    /// A finger moving in `direction` (so `up` shows what is below), from `from` or the screen
    /// centre, over `distance` px (a third of the screen by default).
    SwipeDirection {
        direction: Direction,
        from: Option<Target>,
        distance: Option<i32>,
        duration_ms: u32,
    },
    /// Scrolls content so that what lies in `direction` comes into view (`down`: further down the
    /// list, so the finger moves up); in `container` or the main scrollable; optionally until an
    /// element matching `until` is on screen. Each swipe is a step of its own.
    Scroll {
        direction: Direction,
        container: Option<Target>,
        until: Option<Target>,
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
    /// Refuses arguments too large to be meant (an app or key name, a text to aim at, text to type)
    /// with [`SessionError::BadArgument`]; cheap, so it runs before the action waits for the device,
    /// and such an attempt is not logged (its description would carry the whole argument).
    pub fn check_sizes(&self) -> Result<(), SessionError> {
        let name = |what: &str, s: &str| {
            if s.len() > MAX_NAME_BYTES {
                Err(SessionError::BadArgument(format!(
                    "{what} is at most {MAX_NAME_BYTES} bytes, got {}",
                    s.len()
                )))
            } else {
                Ok(())
            }
        };
        let target = |t: &Target| match t {
            Target::Text(s) => name("the text to aim at", s),
            _ => Ok(()),
        };
        let maybe = |t: &Option<Target>| t.as_ref().map_or(Ok(()), target);
        match self {
            Action::Tap(t) | Action::DoubleTap(t) | Action::LongPress { target: t, .. } => {
                target(t)
            }
            Action::Swipe { from, to, .. } => target(from).and_then(|_| target(to)),
            Action::SwipeDirection { from, .. } => maybe(from),
            Action::Scroll {
                container, until, ..
            } => maybe(container).and_then(|_| maybe(until)),
            Action::TypeText { text, into, .. } => {
                // Bytes first: a text of more bytes than 4 per allowed character is too long
                // without counting.
                if text.len() > 4 * MAX_TEXT_CHARS || text.chars().count() > MAX_TEXT_CHARS {
                    return Err(SessionError::BadArgument(format!(
                        "text is at most {MAX_TEXT_CHARS} characters"
                    )));
                }
                maybe(into)
            }
            Action::PressKey { key } => name("key", key),
            Action::OpenApp { app } => name("app", app),
            // Its bound is checked where it waits: no size to it, and the refusal is logged.
            Action::Wait { .. } => Ok(()),
        }
    }

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

    /// The action as asked, in one line (`tap #12`, `scroll down until "Alarm"`).
    pub fn describe(&self) -> String {
        let opt = |prefix: &str, t: &Option<Target>| {
            t.as_ref()
                .map(|t| format!(" {prefix} {t}"))
                .unwrap_or_default()
        };
        match self {
            Action::Tap(x) => format!("tap {x}"),
            Action::DoubleTap(x) => format!("double_tap {x}"),
            Action::LongPress {
                target,
                duration_ms,
            } => format!("long_press {target} {duration_ms}ms"),
            Action::Swipe { from, to, .. } => format!("swipe {from} -> {to}"),
            Action::SwipeDirection {
                direction, from, ..
            } => format!("swipe {}{}", direction.name(), opt("from", from)),
            Action::Scroll {
                direction,
                container,
                until,
                ..
            } => format!(
                "scroll {}{}{}",
                direction.name(),
                opt("in", container),
                opt("until", until)
            ),
            Action::TypeText {
                text,
                into,
                clear,
                submit,
            } => format!(
                "type_text {text:?}{}{}{}",
                opt("into", into),
                if *clear { " clear" } else { "" },
                if *submit { " submit" } else { "" }
            ),
            Action::PressKey { key } => format!("press_key {key}"),
            Action::OpenApp { app } => format!("open_app {app:?}"),
            Action::Wait { ms } => format!("wait {ms}ms"),
        }
    }
}

/// A duration the session changed to fit its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clamped {
    pub requested_ms: u64,
    pub used_ms: u64,
}

/// A slider's thumb position from its start (0.0–1.0), read from the screen around a gesture on it;
/// `None` where the thumb could not be read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SliderReading {
    pub before: Option<f64>,
    pub after: Option<f64>,
}

impl SliderReading {
    /// Whether the thumb visibly moved (by more than half a percent).
    pub fn moved(&self) -> bool {
        matches!((self.before, self.after), (Some(a), Some(b)) if (a - b).abs() > 0.005)
    }
}

/// What an action did: what it acted on, the state that resulted, and the steps it recorded.
#[derive(Debug, Clone)]
pub struct ActOutcome {
    /// The action as asked.
    pub action: String,
    /// The element acted on (touched, or the field typed into), as it was on the screen aimed at.
    pub target: Option<ElementRef>,
    /// Where the touch landed (a swipe's start).
    pub point: Option<Point>,
    /// A swipe's end.
    pub end: Option<Point>,
    /// Set when the id the caller gave was found again under another id on a changed screen.
    pub resolved_from: Option<u32>,
    /// The acted-on element on the settled screen afterwards (its checked state, its text now);
    /// `None` when it is gone (or there was none).
    pub after: Option<ElementRef>,
    /// The text now in the field typed into.
    pub field_text: Option<String>,
    /// The foreground package after the action, and whether it changed.
    pub foreground: Option<String>,
    pub foreground_changed: bool,
    /// Durations the session bounded (a long press of 20 s becomes 10 s).
    pub clamped: Option<Clamped>,
    /// Set when the action visibly changed nothing: what that means and what to try instead.
    pub no_effect: Option<String>,
    /// For a gesture on a slider: its thumb position (0–1) read from the screen before and after.
    pub slider: Option<SliderReading>,
    /// Extra facts (`opened Clock (com.google.android.deskclock)`, `found "Alarm" as #12 after 2
    /// swipes`).
    pub detail: Option<String>,
    /// Steps recorded for this action (a scroll records one per swipe; zero when nothing had to be
    /// done, as a scroll-until whose text was already on screen).
    pub steps: usize,
    /// What the task episode made of the last step, when one is recording.
    pub episode: Option<Recorded>,
    pub elapsed_ms: u64,
    /// Whether the UI settled (identical consecutive element lists) within the time bound.
    pub settled: bool,
    pub observation: Option<Observation>,
}

/// The long-press duration Android treats as a long click, with margin.
pub const LONG_PRESS_MS: u32 = 600;
pub const MAX_GESTURE_MS: u32 = 10_000;
pub const MIN_SWIPE_MS: u32 = 50;
pub const MAX_WAIT_MS: u64 = 60_000;
pub const MAX_TEXT_CHARS: usize = 5_000;
/// The longest app name, key name or text to aim at (longer ones are refused before the device is
/// waited for).
pub const MAX_NAME_BYTES: usize = 1_000;
pub const MAX_SWIPES: u32 = 50;

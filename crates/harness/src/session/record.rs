//! The trajectory of a phone: one [`Step`] per attempted gesture, failed ones included, recorded as
//! what the finger did (resolved points, swipe ends and finger direction, the text typed and the
//! field it went to) and the observation it was aimed at. An attempt refused before anything reached
//! the phone is logged too, marked `refused`; episodes do not count it. Episodes, trajectory metrics, history
//! checks and the front ends all read this one type; a [`StepSink`] receives each step as it happens.

use chrono::{DateTime, Utc};

use super::{Direction, ElementRef, Screen};
use droidmcp_geom::Point;

/// What the finger (or the keyboard) did in one step.
#[derive(Debug, Clone, PartialEq)]
pub enum Gesture {
    Tap {
        point: Point,
        /// The element under the point on the screen aimed at.
        element: Option<ElementRef>,
    },
    DoubleTap {
        point: Point,
        element: Option<ElementRef>,
    },
    LongPress {
        point: Point,
        element: Option<ElementRef>,
        duration_ms: u32,
    },
    /// A finger drag; scrolls are swipes too (`direction` is where the finger moved).
    Swipe {
        from: Point,
        to: Point,
        direction: Option<Direction>,
        duration_ms: u32,
    },
    /// Text typed into `field` (the focused field it went to).
    Type {
        text: String,
        field: Option<ElementRef>,
        cleared: bool,
        submitted: bool,
    },
    Key {
        name: String,
        code: u32,
    },
    OpenApp {
        package: String,
        label: String,
    },
    Wait {
        ms: u64,
    },
}

impl Gesture {
    /// The step kind history checks and metrics compare (`tap`, `long_press`, `double_tap`, `swipe`,
    /// `type`, `key`, `open_app`, `wait`).
    pub fn kind(&self) -> &'static str {
        match self {
            Gesture::Tap { .. } => "tap",
            Gesture::DoubleTap { .. } => "double_tap",
            Gesture::LongPress { .. } => "long_press",
            Gesture::Swipe { .. } => "swipe",
            Gesture::Type { .. } => "type",
            Gesture::Key { .. } => "key",
            Gesture::OpenApp { .. } => "open_app",
            Gesture::Wait { .. } => "wait",
        }
    }

    /// Where a touch landed (the start of a swipe).
    pub fn point(&self) -> Option<Point> {
        match self {
            Gesture::Tap { point, .. }
            | Gesture::DoubleTap { point, .. }
            | Gesture::LongPress { point, .. } => Some(*point),
            Gesture::Swipe { from, .. } => Some(*from),
            _ => None,
        }
    }

    /// The text history checks compare: typed text, finger direction, key name, app package.
    pub fn text(&self) -> Option<String> {
        match self {
            Gesture::Swipe { direction, .. } => direction.map(|d| d.name().to_string()),
            Gesture::Type { text, .. } => Some(text.clone()),
            Gesture::Key { name, .. } => Some(name.clone()),
            Gesture::OpenApp { package, .. } => Some(package.clone()),
            _ => None,
        }
    }

    /// The element the gesture went to (the touched element, or the field typed into).
    pub fn element(&self) -> Option<&ElementRef> {
        match self {
            Gesture::Tap { element, .. }
            | Gesture::DoubleTap { element, .. }
            | Gesture::LongPress { element, .. } => element.as_ref(),
            Gesture::Type { field, .. } => field.as_ref(),
            _ => None,
        }
    }
}

/// One attempted action as it happened.
#[derive(Debug, Clone)]
pub struct Step {
    /// 0-based position in the phone's log (an episode numbers its own steps from 1).
    pub index: usize,
    /// The action as the caller asked for it (`tap #12`, `scroll down until "Alarm"`).
    pub action: String,
    /// What the device was made to do; `None` when the action failed before touching the device
    /// (an unknown element, text not on screen).
    pub gesture: Option<Gesture>,
    /// Tool-level kind of the action asked for (`tap`, `scroll`, `type_text`, …).
    pub kind: &'static str,
    pub started_at: DateTime<Utc>,
    pub elapsed_ms: u64,
    /// `None` when the step succeeded, else the error the caller saw.
    pub error: Option<String>,
    /// The step failed because the device was lost (unreachable, disconnected): whatever answers
    /// next may be another phone, or the same one rebooted without the task's setup.
    pub device_lost: bool,
    /// Refused before anything reached the phone (stale or unknown digest, unknown element, nothing
    /// focused, bad arguments): an attempt in the log, never an episode step.
    pub refused: bool,
    /// The screen the step was aimed at, and its digest.
    pub before: Option<Screen>,
    pub aimed_at: Option<String>,
    /// The settled screen after the step, and its digest.
    pub after: Option<Screen>,
    pub observation_digest: Option<String>,
    /// Foreground package after the step (from the settled screen).
    pub foreground: Option<String>,
    /// Serial of the device the step ran on.
    pub serial: String,
    /// The device as told apart from others with the same serial (two hosts' `emulator-5554`):
    /// what an open episode on that device is found by ([`droidmcp_device::Shell::device_key`]).
    pub device_key: String,
    /// Focused activity after the step (`package/class`), read by a task episode whose constraints
    /// name pages by activity (filled by the episode).
    pub activity: Option<String>,
    /// Outputs of a task episode's `record.shell` commands after the step (filled by the episode).
    pub recorded: Vec<(String, String)>,
    /// The task episode that recorded the step and its number there (`None` for a refused
    /// attempt), so the phone's log says which episode each step belonged to.
    pub episode: Option<(String, Option<u32>)>,
}

/// What a sink made of a step: the episode's count and whether the caller must stop acting.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorded {
    /// The id of the episode that recorded it.
    pub episode: Option<String>,
    /// 1-based number of the step in the episode, when one recorded it.
    pub episode_step: Option<u32>,
    pub steps_left: Option<u32>,
    /// The attempt was refused and not counted as a step.
    pub refused: bool,
    /// Why no further step may be taken (the step limit was reached, the episode closed).
    pub stop: Option<String>,
}

/// Receives each step as it is recorded (a task episode, the episode registry).
#[async_trait::async_trait]
pub trait StepSink: Send + Sync {
    async fn record(&self, session_id: &str, step: &Step) -> Recorded;
}

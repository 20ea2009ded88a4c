//! What a judge sees of an episode: the goal, the agent's actions with the screens before and after
//! each, the end state (screen, screenshot, device facts) and the agent's answer. Built from
//! recorded episodes by the caller; the judge never touches a device.

use crate::eval::facts::Fact;

/// How a judge looks at the evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Goal + end screen, screenshot and device facts + answer.
    FinalState,
    /// Goal + the action list with observations (truncated to the token budget) + keyframes + the
    /// end state.
    Trajectory,
    /// The states the goal requires, each judged step by step from the before and after
    /// screenshots (A3's way), then checked against the end state.
    EssentialStates,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "final_state" | "final" => Some(Mode::FinalState),
            "trajectory" => Some(Mode::Trajectory),
            "essential_states" | "essential" => Some(Mode::EssentialStates),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Mode::FinalState => "final_state",
            Mode::Trajectory => "trajectory",
            Mode::EssentialStates => "essential_states",
        }
    }
}

/// One step of the trajectory: the action taken and the screen it led to.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StepEvidence {
    /// The step's number as stored and as judges cite it (the first step is 1).
    pub number: usize,
    /// The action in words (`tap element 12 "Add alarm"`, `type "10:30"`).
    pub action: String,
    /// Compressed element list of the screen after the action.
    pub elements: String,
    /// Foreground app/activity after the action.
    pub foreground: String,
    /// The action as recorded (kind, point and end in screen pixels, text), for judges that take
    /// it in their own format.
    pub action_json: serde_json::Value,
    /// Screen pixels per frame pixel of this step's frames.
    pub scale: f64,
    /// JPEG of the screen the action was taken on, when recorded (clean: [`Self::before_marked`]
    /// draws the action on it).
    pub before: Option<Vec<u8>>,
    /// JPEG of the screen after the action, when recorded (clean: the next action is drawn on
    /// the next step's `before`).
    pub screenshot: Option<Vec<u8>>,
}

impl StepEvidence {
    /// The screen the action was taken on with the action drawn on it (where A3 marks it: a
    /// ring on the frame after the touch would sit on content the touch already changed). Drawn
    /// when a request is built.
    pub fn before_marked(&self) -> Option<Vec<u8>> {
        let before = self.before.as_ref()?;
        Some(super::marks::mark_or_clean(
            before,
            self.scale,
            &self.action_json,
            self.number,
        ))
    }
}

/// Everything a judge may be shown about one episode.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Evidence {
    pub goal: String,
    /// `operation`, `query` or `composite`.
    pub kind: String,
    /// The agent's answer for query tasks.
    pub answer: Option<String>,
    pub steps: Vec<StepEvidence>,
    /// Compressed element list of the end screen.
    pub final_elements: String,
    pub final_foreground: String,
    /// JPEG of the end screen.
    pub final_screenshot: Option<Vec<u8>>,
    /// The picture files the goal names, as the episode left them: (path on the phone, JPEG).
    pub pictures: Vec<(String, Vec<u8>)>,
    /// What the device said when the episode was checked (settings, rows, log lines).
    pub facts: Vec<Fact>,
    /// States the goal requires, when the task file lists them (otherwise a judge proposes them).
    pub essential_states: Vec<String>,
}

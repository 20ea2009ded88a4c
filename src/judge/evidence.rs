//! What a judge sees of an episode: the goal, the agent's actions and observations, the final screen and
//! the agent's answer. Built from recorded episodes (or from a task file and a live device) by the caller;
//! the judge never touches a device.

/// How a judge looks at the evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Goal + final element list + final screenshot + answer.
    FinalState,
    /// Goal + the action list with observations (truncated to the token budget) + keyframes.
    Trajectory,
    /// The states the goal requires, each checked in order against sliding windows of the trajectory.
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
    /// 1-based step number, as cited back by judges.
    pub number: usize,
    /// The action in words (`tap element 12 "Add alarm"`, `type "10:30"`).
    pub action: String,
    /// Compressed element list of the screen after the action.
    pub elements: String,
    /// Foreground app/activity after the action.
    pub foreground: String,
    /// PNG screenshot after the action, when recorded.
    pub screenshot: Option<Vec<u8>>,
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
    /// Compressed element list of the final screen.
    pub final_elements: String,
    pub final_foreground: String,
    pub final_screenshot: Option<Vec<u8>>,
    /// States the goal requires, when the task file lists them (otherwise a judge proposes them).
    pub essential_states: Vec<String>,
}

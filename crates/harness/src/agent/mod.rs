//! Reference agents: baselines that operate the phone towards a goal through any OpenAI-compatible
//! model, as the papers' runners ship them.
//!
//! Brief overview: a [`ReferenceAgent`] of a [`Style`] — [`Style::T3a`] (AndroidWorld's text-only
//! T3A: the element list, and after each action a summary the model writes from the action, its
//! reason and the element lists before and after, see [`summary`]; the summaries are its
//! history), [`Style::M3a`] (AndroidWorld's multimodal M3A, see [`m3a`]: the screenshot and its
//! marked copy beside the element list, its summaries also shown both marked screens), both reading
//! `Reason: … Action: {…}` replies or the bare JSON, [`Style::Bmoca`] (B-MoCA's text
//! agents, replying in text, never in a JSON mode:
//! the view hierarchy as `parse_obs` lists it, function-call actions, see [`bmoca`]) — runs one
//! episode's turns on a
//! [`Session`]: observe → ask the model → parse one [`action::AgentAction`] (one repair request when
//! the reply is unusable, then an invalid turn, never a crash) → act through `Session::act`, the path
//! every actor takes. It returns an [`AgentLog`]: how it ended, each turn with its tokens and cost.
//! It never touches the episode: the runner turns [`Ending::Done`] and [`Ending::Answered`] into
//! `task_finish` / `task_answer`.
//!
//! Prompts live in `prompts/agent-*.md` (compiled in); code only fills their `{{slots}}`.

pub mod action;
pub mod bmoca;
pub mod m3a;
pub mod summary;

use std::sync::Arc;
use std::time::Duration;

use crate::session::{ActOutcome, Control, Observation, ObserveOptions, Session, SessionError};
use action::AgentAction;
use droidmcp_device::image::Encoding;
use droidmcp_llm::{ChatClient, Completion, LlmError, Message, Part};

const SYSTEM: &str = include_str!("../../../../prompts/agent-system.md");
const TURN: &str = include_str!("../../../../prompts/agent-turn.md");
const BMOCA_SYSTEM: &str = include_str!("../../../../prompts/agent-bmoca-system.md");
const BMOCA_TURN: &str = include_str!("../../../../prompts/agent-bmoca.md");
/// How many past actions a B-MoCA prompt shows (its agents' "up to 4 past steps").
const BMOCA_HISTORY: usize = 4;

const REPAIR: &str =
    "Your reply could not be used: {{error}}. Reply again with exactly one JSON object \
holding an `action_type` (one of {{types}}) and its fields, and nothing else.";
const BMOCA_REPAIR: &str = "Your reply could not be used: {{error}}. Answer again, ending with \
`- Action:` and exactly one of the function calls listed.";

/// Which baseline the agent imitates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Text only: the element list and the history of its own step summaries.
    T3a,
    /// A marked screenshot beside the element list; a summary of each step from before/after images.
    M3a,
    /// B-MoCA's text agent: the `parse_obs` listing, function calls, no "done" (the environment's
    /// success detector ends the episode).
    Bmoca,
}

impl Style {
    pub fn parse(s: &str) -> Option<Style> {
        match s.trim().to_ascii_lowercase().as_str() {
            "t3a" => Some(Style::T3a),
            "m3a" => Some(Style::M3a),
            "bmoca" | "b-moca" => Some(Style::Bmoca),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Style::T3a => "t3a",
            Style::M3a => "m3a",
            Style::Bmoca => "bmoca",
        }
    }
}

/// What the agent is told: the goal and its step limit, nothing else.
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    pub text: String,
    pub max_steps: u32,
}

/// How the agent's run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Ending {
    /// The model said the goal is reached.
    Done,
    /// The model answered the question.
    Answered(String),
    /// The model said the goal cannot be reached.
    Infeasible,
    /// The episode refused further steps (its step limit).
    OutOfSteps,
    /// The agent used all its turns without ending (invalid replies count as turns).
    TurnsExhausted,
}

impl Ending {
    pub fn as_str(&self) -> &'static str {
        match self {
            Ending::Done => "done",
            Ending::Answered(_) => "answered",
            Ending::Infeasible => "infeasible",
            Ending::OutOfSteps => "out_of_steps",
            Ending::TurnsExhausted => "turns_exhausted",
        }
    }
}

/// One turn: what the model said, what came of it, and what it cost.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Turn {
    /// 1-based.
    pub number: u32,
    /// The model's reply (the repaired one when a repair was asked for).
    pub reply: String,
    /// T3A and M3A: the reason the reply gave for its action.
    pub reason: Option<String>,
    /// T3A and M3A: the model's summary of the step, the line the later turns' history shows for it.
    pub summary: Option<String>,
    /// The action as the session describes it, when one was taken.
    pub action: Option<String>,
    /// What the phone reported, or why the reply or action was refused.
    pub result: String,
    /// The reply could not be parsed even after a repair request.
    pub invalid: bool,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub cost_usd: f64,
    pub calls: u32,
    pub latency: Duration,
}

impl Turn {
    fn add(&mut self, c: &Completion) {
        self.prompt_tokens += c.prompt_tokens;
        self.completion_tokens += c.completion_tokens;
        self.cost_usd += c.cost_usd;
        self.calls += c.attempts;
        self.latency += c.latency;
    }
}

/// Everything an agent run produced.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentLog {
    pub ending: Ending,
    pub turns: Vec<Turn>,
}

impl AgentLog {
    pub fn tokens(&self) -> u64 {
        self.turns
            .iter()
            .map(|t| t.prompt_tokens + t.completion_tokens)
            .sum()
    }

    pub fn cost_usd(&self) -> f64 {
        self.turns.iter().map(|t| t.cost_usd).sum()
    }
}

/// Why an agent run stopped for a reason that is not the agent's doing (the runner reports it
/// `errored` and may retry), with the turns taken until then.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error("model endpoint: {source}")]
    Model {
        #[source]
        source: LlmError,
        turns: Vec<Turn>,
    },
    #[error("device: {source}")]
    Device {
        #[source]
        source: SessionError,
        turns: Vec<Turn>,
    },
}

impl AgentError {
    pub fn turns(&self) -> &[Turn] {
        match self {
            AgentError::Model { turns, .. } | AgentError::Device { turns, .. } => turns,
        }
    }
}

/// What B-MoCA's environment does after every step: says whether the phone is now in the goal
/// state (the runner asks the episode's checks). The agent never sees why, only that it is over.
pub type SuccessDetector = Arc<dyn Fn() -> futures::future::BoxFuture<'static, bool> + Send + Sync>;

/// A baseline agent over one model.
pub struct ReferenceAgent {
    style: Style,
    client: Arc<ChatClient>,
}

/// Extra turns beyond the step limit for replies that were not actions (invalid, or an action the
/// phone refused before it became a step).
const SPARE_TURNS: u32 = 5;

impl ReferenceAgent {
    pub fn new(style: Style, client: Arc<ChatClient>) -> ReferenceAgent {
        ReferenceAgent { style, client }
    }

    pub fn style(&self) -> Style {
        self.style
    }

    fn observe_options(&self) -> ObserveOptions {
        match self.style {
            Style::M3a => m3a::observe_options(),
            Style::T3a | Style::Bmoca => ObserveOptions {
                elements: self.style == Style::T3a,
                screenshot: false,
                annotate: false,
                max_edge: 1024,
                encoding: Encoding::Jpeg(80),
                xml: self.style == Style::Bmoca,
            },
        }
    }

    /// Works towards `goal` on `session` until the model ends the run, the episode stops taking
    /// steps or the turns run out. For [`Style::Bmoca`], `detector` is asked after every step and
    /// ends the run as done when it says the goal is reached (B-MoCA's agents never say so
    /// themselves); the other styles ignore it.
    pub async fn run(
        &self,
        session: &Session,
        goal: &Goal,
        detector: Option<&SuccessDetector>,
    ) -> Result<AgentLog, AgentError> {
        let ctl = Control::default();
        let mut turns: Vec<Turn> = Vec::new();
        let mut history: Vec<String> = Vec::new();
        let mut steps_left = goal.max_steps;
        let opts = self.observe_options();
        for number in 1..=goal.max_steps + SPARE_TURNS {
            let before = match session.observe(&opts, &ctl).await {
                Ok(o) => o,
                Err(source) => return Err(AgentError::Device { source, turns }),
            };
            let mut turn = Turn {
                number,
                ..Turn::default()
            };
            let listing = (self.style == Style::Bmoca).then(|| {
                before
                    .xml
                    .as_deref()
                    .and_then(|x| droidmcp_hierarchy::parse(x.as_bytes()).ok())
                    .map(|h| bmoca::listing(&h))
                    .unwrap_or_default()
            });
            let frames = match self.style {
                Style::M3a => match m3a::Frames::of(&before) {
                    Ok(f) => Some(f),
                    Err(source) => return Err(AgentError::Device { source, turns }),
                },
                _ => None,
            };
            let messages = match (&listing, &frames) {
                (Some(l), _) => bmoca_messages(goal, &history, l),
                (None, Some(f)) => m3a::turn_messages(
                    goal,
                    steps_left,
                    &history_text(&history),
                    &foreground(&before),
                    &before,
                    f,
                ),
                (None, None) => self.turn_messages(goal, steps_left, &history, &before),
            };
            let size = before.size;
            // What the reply chose: the action, B-MoCA's call as written, M3A's reason.
            let parser = |reply: &str| match (&listing, self.style) {
                (Some(l), _) => bmoca::parse(reply, l, size)
                    .map(|(call, a)| (AgentAction::Act(a), Some(call), None))
                    .map_err(|e| e.to_string()),
                // T3A and M3A both read AndroidWorld's `Reason: … Action: {…}` (or the bare JSON).
                (None, _) => action::parse_reasoned(reply)
                    .map(|(reason, a)| (a, None, Some(reason)))
                    .map_err(|e| e.to_string()),
            };
            let parsed = match self.ask(messages, &mut turn, parser).await {
                Ok(p) => p,
                Err(source) => {
                    turns.push(turn);
                    return Err(AgentError::Model { source, turns });
                }
            };
            let (action, call, reason) = match parsed {
                Ok(a) => a,
                Err(e) => {
                    turn.invalid = true;
                    turn.result = format!("invalid reply: {e}");
                    history.push(match &listing {
                        Some(_) => "(invalid reply)".to_string(),
                        None => format!("{number}. (invalid reply: {e})"),
                    });
                    turns.push(turn);
                    continue;
                }
            };
            turn.reason = reason;
            let ending = match action {
                AgentAction::Done => Some(Ending::Done),
                AgentAction::Answer(text) => Some(Ending::Answered(text)),
                AgentAction::Infeasible => Some(Ending::Infeasible),
                AgentAction::Act(a) => {
                    let described = call.unwrap_or_else(|| a.describe());
                    turn.action = Some(described.clone());
                    match session.act(a, Some(&opts), &ctl).await {
                        Ok(outcome) => {
                            turn.result = result_line(&outcome);
                            if let Some(left) = outcome.episode.as_ref().and_then(|r| r.steps_left)
                            {
                                steps_left = left;
                            }
                            let stop = outcome.episode.as_ref().and_then(|r| r.stop.clone());
                            if self.style == Style::Bmoca {
                                history.push(described.clone());
                                let reached = match detector {
                                    Some(d) => d().await,
                                    None => false,
                                };
                                // The detector runs first: the last allowed step may reach the goal.
                                if reached {
                                    Some(Ending::Done)
                                } else {
                                    stop.map(|_| Ending::OutOfSteps)
                                }
                            } else {
                                let line = match &outcome.observation {
                                    Some(after) => {
                                        let asked = self.summarize(
                                            goal,
                                            &described,
                                            &before,
                                            frames.as_ref(),
                                            after,
                                            &mut turn,
                                        );
                                        match asked.await {
                                            Ok(summary) => summary,
                                            Err(source) => {
                                                turns.push(turn);
                                                return Err(AgentError::Model { source, turns });
                                            }
                                        }
                                    }
                                    None => None,
                                };
                                let line = match line {
                                    Some(summary) => format!("{described} → {summary}"),
                                    None => format!("{described} → {}", turn.result),
                                };
                                history.push(format!("{number}. {line}"));
                                stop.map(|_| Ending::OutOfSteps)
                            }
                        }
                        Err(SessionError::Stopped(why)) => {
                            turn.result = format!("refused: {why}");
                            Some(Ending::OutOfSteps)
                        }
                        Err(e) if e.is_device_lost() || !e.is_bad_request() => {
                            turns.push(turn);
                            return Err(AgentError::Device { source: e, turns });
                        }
                        Err(e) => {
                            turn.result = format!("refused: {e}");
                            history.push(match self.style {
                                Style::Bmoca => described,
                                _ => format!("{number}. {described} → refused: {e}"),
                            });
                            None
                        }
                    }
                }
            };
            turns.push(turn);
            if let Some(ending) = ending {
                return Ok(AgentLog { ending, turns });
            }
        }
        Ok(AgentLog {
            ending: Ending::TurnsExhausted,
            turns,
        })
    }

    fn turn_messages(
        &self,
        goal: &Goal,
        steps_left: u32,
        history: &[String],
        obs: &Observation,
    ) -> Vec<Message> {
        let text = turn_text(
            TURN,
            goal,
            steps_left,
            &history_text(history),
            &foreground(obs),
            obs,
        );
        vec![
            Message::system(SYSTEM),
            Message::user(vec![Part::Text(text)]),
        ]
    }

    /// One request as this style asks: T3A's replies are one JSON object (the endpoint's JSON mode
    /// holds small models to it); M3A's (`Reason: … Action: {…}`) and B-MoCA's
    /// (`- Description / - Thought / - Action`) are text that a JSON mode would contradict.
    async fn complete(&self, messages: &[Message]) -> Result<Completion, LlmError> {
        match self.style {
            Style::T3a => self.client.complete(messages, None).await,
            Style::M3a | Style::Bmoca => self.client.complete_text(messages).await,
        }
    }

    /// Asks for an action, read with `parse`; one repair request when the reply is unusable. `Err`
    /// only when the endpoint failed; an unusable reply is `Ok(Err(why))`.
    async fn ask<T>(
        &self,
        mut messages: Vec<Message>,
        turn: &mut Turn,
        parse: impl Fn(&str) -> Result<T, String>,
    ) -> Result<Result<T, String>, LlmError> {
        let first = self.complete(&messages).await?;
        turn.add(&first);
        turn.reply = first.text.clone();
        let error = match parse(&first.text) {
            Ok(a) => return Ok(Ok(a)),
            Err(e) => e,
        };
        let repair = match self.style {
            Style::Bmoca => droidmcp_llm::fill(BMOCA_REPAIR, &[("error", &error)]),
            _ => droidmcp_llm::fill(
                REPAIR,
                &[("error", &error), ("types", action::ACTION_TYPES)],
            ),
        };
        messages.push(Message::assistant(first.text.clone()));
        messages.push(Message::user(vec![Part::Text(repair)]));
        let second = self.complete(&messages).await?;
        turn.add(&second);
        turn.reply = second.text.clone();
        Ok(parse(&second.text))
    }

    /// T3A's and M3A's summary of a step: asked with the action, its reason, the phone's report
    /// and the element lists before and after (M3A, with `before_frames`, also the marked screens
    /// before and after); kept in the turn. `None` when the model gave none or M3A's after screen
    /// could not be marked (the history then keeps the phone's own report); `Err` when the
    /// endpoint failed, as for an action request.
    async fn summarize(
        &self,
        goal: &Goal,
        action: &str,
        before: &Observation,
        before_frames: Option<&m3a::Frames>,
        after: &Observation,
        turn: &mut Turn,
    ) -> Result<Option<String>, LlmError> {
        let after_frames = match before_frames {
            Some(_) => match m3a::Frames::of(after) {
                Ok(f) => Some(f),
                Err(_) => return Ok(None),
            },
            None => None,
        };
        let step = summary::Step {
            action,
            reason: turn.reason.as_deref().unwrap_or_default(),
            result: &turn.result,
            before,
            after,
        };
        let screens = before_frames.zip(after_frames.as_ref());
        let messages = summary::messages(goal, &step, screens);
        let c = self.client.complete_text(&messages).await?;
        turn.add(&c);
        turn.summary = summary::line(&c.text);
        Ok(turn.summary.clone())
    }
}

/// The history as a prompt shows it.
/// A turn's text: every style's turn template names the goal, the steps left of the limit, the
/// history, the app in front and the element list.
fn turn_text(
    template: &str,
    goal: &Goal,
    steps_left: u32,
    history: &str,
    foreground: &str,
    obs: &Observation,
) -> String {
    droidmcp_llm::fill(
        template,
        &[
            ("goal", &goal.text),
            ("steps_left", &steps_left.to_string()),
            ("max_steps", &goal.max_steps.to_string()),
            ("history", history),
            ("foreground", foreground),
            (
                "elements",
                obs.elements.as_deref().unwrap_or("(no elements)"),
            ),
        ],
    )
}

fn history_text(history: &[String]) -> String {
    if history.is_empty() {
        "(nothing yet)".to_string()
    } else {
        history.join("\n")
    }
}

/// The package in front, as a prompt names it.
fn foreground(obs: &Observation) -> String {
    obs.foreground
        .as_ref()
        .map(|f| f.package.clone())
        .unwrap_or_else(|| "unknown".into())
}

/// One B-MoCA turn: its instruction, the goal, the last actions as a Python list and the listing.
fn bmoca_messages(goal: &Goal, history: &[String], listing: &bmoca::Listing) -> Vec<Message> {
    let recent = &history[history.len().saturating_sub(BMOCA_HISTORY)..];
    let actions = recent
        .iter()
        .map(|a| bmoca::py_str(a))
        .collect::<Vec<_>>()
        .join(", ");
    let text = droidmcp_llm::fill(
        BMOCA_TURN,
        &[
            ("goal", &goal.text),
            ("history", &format!("[{actions}]")),
            ("observation", &listing.text),
        ],
    );
    vec![
        Message::system(BMOCA_SYSTEM),
        Message::user(vec![Part::Text(text)]),
    ]
}

/// What the phone reported for an action, in one line.
fn result_line(o: &ActOutcome) -> String {
    let mut parts = Vec::new();
    if let Some(t) = &o.target {
        parts.push(format!("on {}", t.describe()));
    }
    if o.foreground_changed {
        if let Some(fg) = &o.foreground {
            parts.push(format!("{fg} in front"));
        }
    }
    if let Some(text) = &o.field_text {
        parts.push(format!("field now {text:?}"));
    }
    if let Some(d) = &o.detail {
        parts.push(d.clone());
    }
    if let Some(n) = &o.no_effect {
        parts.push(format!("no effect: {n}"));
    }
    if parts.is_empty() {
        "done".to_string()
    } else {
        parts.join("; ")
    }
}

//! One judge: renders evidence into its prompt for a mode, asks its endpoint, and validates the reply
//! (one repair round, then `undecided`).

use std::time::Duration;

use serde::Deserialize;

use super::config::JudgeConfig;
use super::evidence::{Evidence, Mode, StepEvidence};
use super::prompt::{self, Prompts};
use super::verdict::{parse_reply, ReplyError, Verdict, VerdictKind};
use crate::llm::{ChatClient, Completion, EndpointLimits, Message, Part, Schema, SpendCap};

/// A judge's verdict on one episode with everything it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeOutcome {
    pub judge: String,
    pub family: String,
    pub mode: Mode,
    pub verdict: Verdict,
    /// Every reply text received, in order (repairs and essential-state checks included).
    pub raw_replies: Vec<String>,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub latency: Duration,
    pub cost_usd: f64,
    pub calls: u32,
    /// Why the verdict is undecided, when it is.
    pub error: Option<String>,
}

/// A configured judge.
#[derive(Debug, Clone)]
pub struct Judge {
    config: JudgeConfig,
    client: ChatClient,
    prompts: Prompts,
    /// The verdict's JSON schema, sent with every verdict request.
    verdict_schema: serde_json::Value,
}

/// Accumulates usage over the calls of one judgement.
#[derive(Default)]
struct Tally {
    replies: Vec<String>,
    prompt_tokens: u64,
    completion_tokens: u64,
    latency: Duration,
    cost_usd: f64,
    calls: u32,
}

impl Tally {
    fn add(&mut self, c: &Completion) {
        self.replies.push(match &c.refusal {
            Some(r) if c.text.is_empty() => format!("[refusal] {r}"),
            _ => c.text.clone(),
        });
        self.prompt_tokens += c.prompt_tokens;
        self.completion_tokens += c.completion_tokens;
        self.latency += c.latency;
        self.cost_usd += c.cost_usd;
        self.calls += c.attempts;
    }
}

const REPAIR: &str = "Your reply could not be used: {{error}}. Reply again with exactly one JSON object of the form \
{\"verdict\": \"success\" or \"failure\", \"confidence\": 0 to 1, \"reason\": \"…\", \"steps\": [step numbers]} and nothing else.";

/// Sliding windows over the trajectory for essential-state checks.
const WINDOW: usize = 3;
const STRIDE: usize = 2;

impl Judge {
    /// A judge calling its endpoint under the run's shared `limits` and `spend` cap.
    pub fn new(
        config: JudgeConfig,
        limits: &EndpointLimits,
        spend: std::sync::Arc<SpendCap>,
        prompts: Prompts,
    ) -> Result<Judge, super::JudgeError> {
        let client = ChatClient::new(config.endpoint.clone(), limits, spend)?;
        Ok(Judge {
            config,
            client,
            prompts,
            verdict_schema: super::verdict::json_schema(),
        })
    }

    /// Shortens the client's retry backoff (tests keep retries fast with it).
    pub fn with_backoff(mut self, first: Duration) -> Judge {
        self.client = self.client.with_backoff(first);
        self
    }

    pub fn config(&self) -> &JudgeConfig {
        &self.config
    }

    fn verdict_schema(&self) -> Option<Schema<'_>> {
        Some(Schema {
            name: "verdict",
            schema: &self.verdict_schema,
        })
    }

    /// Judges one episode in one mode. Never fails: problems become an `undecided` verdict with the error.
    pub async fn judge(&self, evidence: &Evidence, mode: Mode) -> JudgeOutcome {
        let mut tally = Tally::default();
        let result = match mode {
            Mode::FinalState => {
                self.ask_verdict(
                    self.final_state_messages(evidence),
                    evidence.steps.len(),
                    &mut tally,
                )
                .await
            }
            Mode::Trajectory => {
                self.ask_verdict(
                    self.trajectory_messages(evidence),
                    evidence.steps.len(),
                    &mut tally,
                )
                .await
            }
            Mode::EssentialStates => self.essential_states(evidence, &mut tally).await,
        };
        let (verdict, error) = match result {
            Ok(v) => (v, None),
            Err(e) => (
                Verdict {
                    kind: VerdictKind::Undecided,
                    confidence: 0.0,
                    reason: String::new(),
                    cited_steps: vec![],
                },
                Some(e),
            ),
        };
        let config = self.config();
        JudgeOutcome {
            judge: config.name.clone(),
            family: config.family.clone(),
            mode,
            verdict,
            raw_replies: tally.replies,
            prompt_tokens: tally.prompt_tokens,
            completion_tokens: tally.completion_tokens,
            latency: tally.latency,
            cost_usd: tally.cost_usd,
            calls: tally.calls,
            error,
        }
    }

    /// The slots every mode fills; evidence from the agent and the phone goes in fenced blocks.
    fn common_slots(evidence: &Evidence, fence: &prompt::Fence) -> Vec<(&'static str, String)> {
        vec![
            ("goal", evidence.goal.clone()),
            (
                "kind",
                if evidence.kind.is_empty() {
                    "operation".into()
                } else {
                    evidence.kind.clone()
                },
            ),
            (
                "answer",
                match &evidence.answer {
                    Some(answer) => fence.wrap("agent_answer", answer),
                    None => "(none)".into(),
                },
            ),
            (
                "foreground",
                fence.wrap("foreground", &evidence.final_foreground),
            ),
            (
                "elements",
                fence.wrap("final_screen", &evidence.final_elements),
            ),
        ]
    }

    fn user_message(
        &self,
        template: &str,
        slots: &[(&str, String)],
        images: Vec<(usize, Vec<u8>)>,
    ) -> Message {
        let refs: Vec<(&str, &str)> = slots.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut parts = vec![Part::Text(crate::llm::fill(template, &refs))];
        if self.config().images {
            for (step, png) in images {
                let label = if step == 0 {
                    "Final screenshot:".to_string()
                } else {
                    format!("Screenshot after step {step}:")
                };
                parts.push(Part::Text(label));
                parts.push(Part::Png(png));
            }
        }
        Message::user(parts)
    }

    fn final_state_messages(&self, evidence: &Evidence) -> Vec<Message> {
        let images = evidence
            .final_screenshot
            .clone()
            .map(|png| vec![(0, png)])
            .unwrap_or_default();
        vec![
            Message::system(self.prompts.system.clone()),
            self.user_message(
                &self.prompts.final_state,
                &Self::common_slots(evidence, &prompt::Fence::new()),
                images,
            ),
        ]
    }

    fn trajectory_messages(&self, evidence: &Evidence) -> Vec<Message> {
        let fence = prompt::Fence::new();
        let mut slots = Self::common_slots(evidence, &fence);
        let fixed = prompt::estimate_tokens(&self.prompts.trajectory)
            + prompt::estimate_tokens(&evidence.final_elements);
        let budget = self.config().token_budget.saturating_sub(fixed).max(200);
        slots.push((
            "trajectory",
            fence.wrap(
                "trajectory",
                &prompt::trajectory_text(&evidence.steps, budget),
            ),
        ));
        let frames = prompt::keyframes(evidence, self.config().max_keyframes);
        vec![
            Message::system(self.prompts.system.clone()),
            self.user_message(&self.prompts.trajectory, &slots, frames),
        ]
    }

    /// Asks, validates, and on an invalid reply asks once more with the reason.
    async fn ask_verdict(
        &self,
        mut messages: Vec<Message>,
        steps: usize,
        tally: &mut Tally,
    ) -> Result<Verdict, String> {
        let first = self
            .client
            .complete(&messages, self.verdict_schema())
            .await
            .map_err(|e| e.to_string())?;
        tally.add(&first);
        let error = match parse_reply(&first.text, steps) {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        messages.push(Message::assistant(first.text.clone()));
        messages.push(Message::user(vec![Part::Text(crate::llm::fill(
            REPAIR,
            &[("error", &reason(&error, &first))],
        ))]));
        let second = self
            .client
            .complete(&messages, self.verdict_schema())
            .await
            .map_err(|e| e.to_string())?;
        tally.add(&second);
        parse_reply(&second.text, steps).map_err(|e| {
            format!(
                "no valid verdict after a repair request: {}",
                reason(&e, &second)
            )
        })
    }

    /// The states the goal requires: from the task file, or proposed by the judge.
    async fn essential_list(
        &self,
        evidence: &Evidence,
        tally: &mut Tally,
    ) -> Result<Vec<String>, String> {
        if !evidence.essential_states.is_empty() {
            return Ok(evidence.essential_states.clone());
        }
        #[derive(Deserialize)]
        struct States {
            states: Vec<String>,
        }
        let ask = crate::llm::fill(&self.prompts.essential_list, &[("goal", &evidence.goal)]);
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"states": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 10}},
            "required": ["states"],
            "additionalProperties": false
        });
        let reply = self
            .client
            .complete(
                &[Message::user(vec![Part::Text(ask)])],
                Some(Schema {
                    name: "essential_states",
                    schema: &schema,
                }),
            )
            .await
            .map_err(|e| e.to_string())?;
        tally.add(&reply);
        let parsed: Option<States> = crate::llm::extract_json_object(&reply.text)
            .and_then(|json| serde_json::from_str(json).ok());
        match parsed {
            Some(s) if !s.states.is_empty() && s.states.len() <= 10 => Ok(s.states),
            _ => Err(format!(
                "the judge did not list essential states: {:?}",
                truncate(&reply.text)
            )),
        }
    }

    /// Checks each essential state, in order, against sliding windows after the previous state's window.
    async fn essential_states(
        &self,
        evidence: &Evidence,
        tally: &mut Tally,
    ) -> Result<Verdict, String> {
        let states = self.essential_list(evidence, tally).await?;
        let steps = &evidence.steps;
        let mut from = 0usize;
        let mut cited = Vec::new();
        let mut confidence: f64 = 1.0;
        for state in &states {
            let mut found = false;
            let mut start = from;
            while start < steps.len().max(1) {
                let window: &[StepEvidence] =
                    &steps[start.min(steps.len())..(start + WINDOW).min(steps.len())];
                let mut slots = vec![("goal", evidence.goal.clone()), ("state", state.clone())];
                let fence = prompt::Fence::new();
                let text = if window.is_empty() {
                    format!(
                        "Final screen:\n{}",
                        fence.wrap("final_screen", &evidence.final_elements)
                    )
                } else {
                    fence.wrap(
                        "steps",
                        &window.iter().map(prompt::describe_step).collect::<String>(),
                    )
                };
                slots.push(("window", text));
                let messages = vec![
                    Message::system(self.prompts.system.clone()),
                    self.user_message(&self.prompts.essential_check, &slots, vec![]),
                ];
                let v = self.ask_verdict(messages, steps.len(), tally).await?;
                if v.kind == VerdictKind::Success {
                    found = true;
                    confidence = confidence.min(v.confidence);
                    cited.extend(v.cited_steps.iter().copied());
                    from = start;
                    break;
                }
                start += STRIDE;
            }
            if !found {
                return Ok(Verdict {
                    kind: VerdictKind::Failure,
                    confidence: 0.8,
                    reason: format!("required state not reached: {state}"),
                    cited_steps: cited,
                });
            }
        }
        Ok(Verdict {
            kind: VerdictKind::Success,
            confidence,
            reason: format!("all {} required states reached", states.len()),
            cited_steps: cited,
        })
    }
}

fn reason(error: &ReplyError, completion: &Completion) -> String {
    match (&completion.refusal, error) {
        (Some(r), ReplyError::Empty) => format!("the model refused: {}", truncate(r)),
        _ => error.to_string(),
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(200).collect()
}

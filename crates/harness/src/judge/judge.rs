//! One judge: renders evidence into its prompt for a mode, asks its endpoint, and validates the reply
//! (one repair round, then `undecided`).

use std::time::Duration;

use serde::Deserialize;

use super::a3rm;
use super::config::{JudgeConfig, JudgeKind};
use super::evidence::{Evidence, Mode, StepEvidence};
use super::prompt::{self, Prompts};
use super::verdict::{parse_reply, ReplyError, Verdict, VerdictKind};
use droidmcp_llm::{ChatClient, Completion, EndpointLimits, Message, Part, Schema, SpendCap};

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

impl Judge {
    /// A judge calling its endpoint under the run's shared `limits` and `spend` cap.
    pub fn new(
        config: JudgeConfig,
        limits: &EndpointLimits,
        spend: std::sync::Arc<SpendCap>,
        prompts: Prompts,
    ) -> Result<Judge, super::JudgeError> {
        let mut client = ChatClient::new(config.endpoint.clone(), limits, spend)?;
        if let Some(effort) = config.reasoning {
            client = client.with_reasoning(effort);
        }
        Ok(Judge {
            config,
            client,
            prompts,
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

    /// Judges one episode in one mode. Never fails: problems become an `undecided` verdict with the error.
    pub async fn judge(&self, evidence: &Evidence, mode: Mode) -> JudgeOutcome {
        let mut tally = Tally::default();
        let result = match mode {
            _ if self.config.kind == JudgeKind::A3rm => self.a3rm(evidence, &mut tally).await,
            // The final state shows no step, so the verdict cites none.
            Mode::FinalState => {
                self.ask_verdict(self.final_state_messages(evidence), 0, &mut tally)
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
            (
                "facts",
                fence.wrap("device_facts", &prompt::facts_text(&evidence.facts)),
            ),
        ]
    }

    /// The prompt, then each image inside its own fenced block: the caption opens the block and
    /// a line after the image closes it, so text drawn in a screenshot is data like screen text.
    fn user_message(
        &self,
        template: &str,
        slots: &[(&str, String)],
        images: Vec<(String, Vec<u8>)>,
        fence: &prompt::Fence,
    ) -> Message {
        let refs: Vec<(&str, &str)> = slots.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut parts = vec![Part::Text(droidmcp_llm::fill(template, &refs))];
        if self.config().images {
            for (caption, jpeg) in images {
                let (open, close) = fence.image_caption(&caption);
                parts.push(Part::Text(open));
                parts.push(Part::Jpeg(jpeg));
                parts.push(Part::Text(close));
            }
        }
        Message::user(parts)
    }

    fn final_state_messages(&self, evidence: &Evidence) -> Vec<Message> {
        let fence = prompt::Fence::new();
        let images = end_images(evidence);
        vec![
            Message::system(self.prompts.system.clone()),
            self.user_message(
                &self.prompts.final_state,
                &Self::common_slots(evidence, &fence),
                images,
                &fence,
            ),
        ]
    }

    fn trajectory_messages(&self, evidence: &Evidence) -> Vec<Message> {
        let fence = prompt::Fence::new();
        let mut slots = Self::common_slots(evidence, &fence);
        let steps = self.steps_text(evidence, &self.prompts.trajectory, &slots);
        slots.push(("trajectory", fence.wrap("trajectory", &steps)));
        let mut images: Vec<(String, Vec<u8>)> =
            prompt::keyframes(evidence, self.config().max_keyframes)
                .into_iter()
                .map(|(step, jpeg)| {
                    (
                        format!("screenshot before step {step} (its action drawn in red)"),
                        jpeg,
                    )
                })
                .collect();
        images.extend(end_images(evidence));
        vec![
            Message::system(self.prompts.system.clone()),
            self.user_message(&self.prompts.trajectory, &slots, images, &fence),
        ]
    }

    /// Asks, validates, and on an invalid reply asks once more with the reason. `steps`: how many
    /// steps the messages show (numbered from 1), the ones the verdict may cite.
    async fn ask_verdict(
        &self,
        mut messages: Vec<Message>,
        steps: usize,
        tally: &mut Tally,
    ) -> Result<Verdict, String> {
        let verdict_schema = super::verdict::json_schema(steps);
        let schema = || {
            Some(Schema {
                name: "verdict",
                schema: &verdict_schema,
            })
        };
        let first = self
            .client
            .complete(&messages, schema())
            .await
            .map_err(|e| e.to_string())?;
        tally.add(&first);
        let error = match parse_reply(&first.text, steps) {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        messages.push(Message::assistant(first.text.clone()));
        messages.push(Message::user(vec![Part::Text(droidmcp_llm::fill(
            REPAIR,
            &[("error", &reason(&error, &first))],
        ))]));
        let second = self
            .client
            .complete(&messages, schema())
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
        let ask = droidmcp_llm::fill(&self.prompts.essential_list, &[("goal", &evidence.goal)]);
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
        let parsed: Option<States> = droidmcp_llm::extract_json_object(&reply.text)
            .and_then(|json| serde_json::from_str(json).ok());
        match parsed {
            Some(s) if !s.states.is_empty() && s.states.len() <= 10 => Ok(s.states),
            _ => Err(format!(
                "the judge did not list essential states: {:?}",
                truncate(&reply.text)
            )),
        }
    }

    /// A3's way: each required state, in order, judged step by step from the screens before and
    /// after the step (a step may reach several); a state no step reached is looked for in the end
    /// state (device facts show what no screen does); then the end state is judged as a whole, with
    /// the agent's answer, so a change made and then undone, or a wrong answer, fails.
    async fn essential_states(
        &self,
        evidence: &Evidence,
        tally: &mut Tally,
    ) -> Result<Verdict, String> {
        let states = self.essential_list(evidence, tally).await?;
        let steps = &evidence.steps;
        let mut next = 0usize;
        let mut reached: Vec<String> = Vec::new();
        let mut cited = Vec::new();
        let mut confidence: f64 = 1.0;
        for (i, step) in steps.iter().enumerate() {
            let previous = i.checked_sub(1).map(|p| &steps[p]);
            while next < states.len() {
                let v = self
                    .ask_verdict(
                        self.step_messages(evidence, &states[next], step, previous),
                        steps.len(),
                        tally,
                    )
                    .await?;
                if v.kind != VerdictKind::Success {
                    break;
                }
                confidence = confidence.min(v.confidence);
                reached.push(format!("{} (step {})", states[next], step.number));
                cited.push(step.number);
                next += 1;
            }
        }
        for state in &states[next..] {
            let v = self
                .ask_verdict(self.end_state_messages(evidence, state), steps.len(), tally)
                .await?;
            if v.kind != VerdictKind::Success {
                return Ok(Verdict {
                    kind: VerdictKind::Failure,
                    confidence: v.confidence.max(0.5),
                    reason: format!("required state not reached: {state}"),
                    cited_steps: cited,
                });
            }
            confidence = confidence.min(v.confidence);
            reached.push(format!("{state} (end state)"));
        }
        let end = self
            .ask_verdict(
                self.end_check_messages(evidence, &reached),
                steps.len(),
                tally,
            )
            .await?;
        Ok(Verdict {
            kind: end.kind,
            confidence: confidence.min(end.confidence),
            reason: if end.kind == VerdictKind::Success {
                format!(
                    "all {} required states reached and held at the end",
                    states.len()
                )
            } else {
                format!("the end state does not hold: {}", end.reason)
            },
            cited_steps: cited.into_iter().chain(end.cited_steps).collect(),
        })
    }

    /// A3RM's way: each state asked of each step (and the `end` step) until one reaches it.
    async fn a3rm(&self, evidence: &Evidence, tally: &mut Tally) -> Result<Verdict, String> {
        let steps = a3rm::steps(evidence);
        let mut cited = Vec::new();
        for state in a3rm::states(evidence) {
            let mut reached = None;
            for step in &steps {
                let reply = self
                    .client
                    .complete(&[self.a3rm_message(evidence, &state, step)], None)
                    .await
                    .map_err(|e| e.to_string())?;
                tally.add(&reply);
                if a3rm::parse(&reply.text).map_err(|e| e.to_string())? {
                    reached = Some(step.number);
                    break;
                }
            }
            match reached {
                Some(n) => cited.extend((n > 0).then_some(n)),
                None => {
                    return Ok(Verdict {
                        kind: VerdictKind::Failure,
                        confidence: 1.0,
                        reason: format!("A3RM: no step reaches \"{state}\""),
                        cited_steps: cited,
                    })
                }
            }
        }
        Ok(Verdict {
            kind: VerdictKind::Success,
            confidence: 1.0,
            reason: "A3RM: every essential state is reached".into(),
            cited_steps: cited,
        })
    }

    /// One A3RM request: its template split at `<image>`, the screenshots in those places.
    fn a3rm_message(&self, evidence: &Evidence, state: &str, step: &a3rm::A3Step) -> Message {
        let text = droidmcp_llm::fill(
            &self.prompts.a3rm,
            &[
                ("action", &step.action.to_string()),
                ("state", state),
                ("task", &evidence.goal),
            ],
        );
        let mut images = [step.before.clone(), step.after.clone()].into_iter();
        let mut parts = Vec::new();
        for (i, piece) in text.split("<image>").enumerate() {
            if i > 0 {
                match images.next().flatten() {
                    Some(jpeg) => parts.push(Part::Jpeg(jpeg)),
                    None => parts.push(Part::Text("(no screenshot was recorded)".into())),
                }
            }
            if !piece.is_empty() {
                parts.push(Part::Text(piece.to_string()));
            }
        }
        Message::user(parts)
    }

    /// Did `step` reach `state`? The screens before and after it, as lists and screenshots.
    fn step_messages(
        &self,
        evidence: &Evidence,
        state: &str,
        step: &StepEvidence,
        previous: Option<&StepEvidence>,
    ) -> Vec<Message> {
        let fence = prompt::Fence::new();
        let before = previous
            .map(|p| p.elements.clone())
            .unwrap_or_else(|| "(the screen before the first step: see its screenshot)".into());
        let slots = vec![
            ("goal", evidence.goal.clone()),
            ("state", state.to_string()),
            ("step", step.number.to_string()),
            ("action", fence.wrap("action", &step.action)),
            ("before", fence.wrap("screen_before", &before)),
            ("after", fence.wrap("screen_after", &step.elements)),
        ];
        let mut images = Vec::new();
        if let Some(jpeg) = step.before_marked() {
            images.push((
                format!(
                    "screenshot before step {} (its action drawn in red)",
                    step.number
                ),
                jpeg,
            ));
        }
        if let Some(jpeg) = &step.screenshot {
            images.push((
                format!("screenshot after step {}", step.number),
                jpeg.clone(),
            ));
        }
        vec![
            Message::system(self.prompts.system.clone()),
            self.user_message(&self.prompts.essential_check, &slots, images, &fence),
        ]
    }

    /// Every step: how the end state was reached, for the end checks (a forbidden page or key, a
    /// change made and undone). Each action comes with the screen after it, as in trajectory mode: a forbidden page shows
    /// only on the screens, and which element a step touched only in the list before it.
    fn actions_slot(
        &self,
        evidence: &Evidence,
        template: &str,
        slots: &[(&str, String)],
        fence: &prompt::Fence,
    ) -> (&'static str, String) {
        let lines = if evidence.steps.is_empty() {
            "(the agent took no step)".to_string()
        } else {
            self.steps_text(evidence, template, slots)
        };
        ("actions", fence.wrap("actions", &lines))
    }

    /// The steps as text (each action, the foreground and the element list after it) within what
    /// the judge's token budget leaves beside `template` and the other `slots`.
    fn steps_text(&self, evidence: &Evidence, template: &str, slots: &[(&str, String)]) -> String {
        let fixed = prompt::estimate_tokens(template)
            + slots
                .iter()
                .map(|(_, v)| prompt::estimate_tokens(v))
                .sum::<usize>();
        let budget = self.config().token_budget.saturating_sub(fixed).max(200);
        prompt::trajectory_text(&evidence.steps, budget)
    }

    /// Does the end state show `state`?
    fn end_state_messages(&self, evidence: &Evidence, state: &str) -> Vec<Message> {
        let fence = prompt::Fence::new();
        let mut slots = Self::common_slots(evidence, &fence);
        slots.push(("state", state.to_string()));
        let actions =
            self.actions_slot(evidence, &self.prompts.essential_end_state, &slots, &fence);
        slots.push(actions);
        vec![
            Message::system(self.prompts.system.clone()),
            self.user_message(
                &self.prompts.essential_end_state,
                &slots,
                end_images(evidence),
                &fence,
            ),
        ]
    }

    /// Is the goal achieved in the end state, given the required states the trajectory reached?
    fn end_check_messages(&self, evidence: &Evidence, reached: &[String]) -> Vec<Message> {
        let fence = prompt::Fence::new();
        let mut slots = Self::common_slots(evidence, &fence);
        slots.push((
            "reached",
            reached
                .iter()
                .map(|r| format!("- {r}\n"))
                .collect::<String>(),
        ));
        let actions =
            self.actions_slot(evidence, &self.prompts.essential_end_check, &slots, &fence);
        slots.push(actions);
        vec![
            Message::system(self.prompts.system.clone()),
            self.user_message(
                &self.prompts.essential_end_check,
                &slots,
                end_images(evidence),
                &fence,
            ),
        ]
    }
}

/// The end screenshot, when there is one, then the pictures the goal names, as images to send.
fn end_images(evidence: &Evidence) -> Vec<(String, Vec<u8>)> {
    let end = evidence
        .final_screenshot
        .clone()
        .map(|jpeg| ("screenshot of the end state".to_string(), jpeg));
    let pictures = evidence.pictures.iter().map(|(path, jpeg)| {
        (
            format!(
                "the picture file {path} (its file name is in the goal; its folder may not be), \
                 as the phone has it at the end"
            ),
            jpeg.clone(),
        )
    });
    end.into_iter().chain(pictures).collect()
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

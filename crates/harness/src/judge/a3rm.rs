//! A3's reward model (A3RM: a vision model fine-tuned to judge essential states, served by vLLM)
//! as a judge beside the chat judges. It takes its trained input format: one user message with the
//! screenshot before a step (the action marked on it) and after it, the action as A3's JSON, one
//! essential state and the instruction; it answers with reasoning and `<answer>yes|no</answer>`.
//! A task passes when every essential state is reached at some step; a question's answer is judged
//! on a last `end` step, as A3 does.
//!
//! A3RM reads no fenced blocks (it was not trained on them): what it is shown is the screenshots,
//! the action and the agent's answer.

use serde_json::{json, Value};

use super::evidence::{Evidence, StepEvidence};

/// One step as A3RM sees it: the action in A3's JSON, the marked screenshot before and the
/// screenshot after.
pub struct A3Step {
    pub number: usize,
    pub action: Value,
    pub before: Option<Vec<u8>>,
    pub after: Option<Vec<u8>>,
}

/// A point of a stored action in frame pixels.
fn xy(v: &Value, scale: f64) -> Option<(i64, i64)> {
    let s = if scale > 0.0 { scale } else { 1.0 };
    Some((
        (v.get(0)?.as_f64()? / s).round() as i64,
        (v.get(1)?.as_f64()? / s).round() as i64,
    ))
}

/// A stored action (`kind`, `point`, `end`, `text`, `action`) in A3's action JSON.
pub fn action(step: &StepEvidence) -> Value {
    let a = &step.action_json;
    let kind = a["kind"].as_str().unwrap_or_default();
    let point = xy(&a["point"], step.scale);
    let text = a["text"].as_str().unwrap_or_default();
    match (kind, point) {
        ("swipe", Some((x1, y1))) => {
            let (x2, y2) = xy(&a["end"], step.scale).unwrap_or((x1, y1));
            json!({"action": "swipe", "x1": x1, "y1": y1, "x2": x2, "y2": y2})
        }
        ("long_press", Some((x, y))) => json!({"action": "long_press", "x": x, "y": y}),
        ("tap" | "double_tap", Some((x, y))) => json!({"action": "tap", "x": x, "y": y}),
        ("type", _) => json!({"action": "type", "text": text}),
        ("open_app", _) => {
            json!({"action": "open", "app": a["aliases"][0].as_str().unwrap_or(text)})
        }
        ("key", _) => {
            let key = format!("{text} {}", a["action"]).to_lowercase();
            if key.contains("back") {
                json!({"action": "back"})
            } else if key.contains("home") {
                json!({"action": "home"})
            } else if key.contains("enter") {
                json!({"action": "enter"})
            } else {
                json!({"action": "wait"})
            }
        }
        _ => json!({"action": "wait"}),
    }
}

/// The steps A3RM judges: each recorded step (before marked, after clean: the next step's
/// before, or the end state for the last), then `end` with the answer on the end state.
pub fn steps(evidence: &Evidence) -> Vec<A3Step> {
    let n = evidence.steps.len();
    let mut out: Vec<A3Step> = evidence
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| A3Step {
            number: s.number,
            action: action(s),
            before: s.before_marked(),
            after: evidence
                .steps
                .get(i + 1)
                .and_then(|next| next.before.clone())
                .or_else(|| evidence.final_screenshot.clone()),
        })
        .collect();
    out.push(A3Step {
        number: n,
        action: json!({"action": "end", "answer": evidence.answer.clone().unwrap_or_default()}),
        before: evidence.final_screenshot.clone(),
        after: evidence.final_screenshot.clone(),
    });
    out
}

/// The states A3RM checks: the task file's, or — A3RM cannot list them — the instruction itself
/// (and, for a question, that its answer is right).
pub fn states(evidence: &Evidence) -> Vec<String> {
    if !evidence.essential_states.is_empty() {
        return evidence.essential_states.clone();
    }
    let mut states = vec![format!("The instruction is carried out: {}", evidence.goal)];
    if evidence.kind == "query" || evidence.answer.is_some() {
        states.push("The correct answer to the question is given".into());
    }
    states
}

/// Why an A3RM reply could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the reply has no <answer>yes</answer> or <answer>no</answer>: {0:?}")]
pub struct NoAnswer(pub String);

/// `yes` → true, `no` → false, from the reply's `<answer>` tag (closed with `</answer>` or, as
/// A3's own prompt spells it, with a second `<answer>`).
pub fn parse(reply: &str) -> Result<bool, NoAnswer> {
    let lower = reply.to_lowercase();
    let start = lower
        .rfind("<answer>")
        .filter(|_| lower.matches("<answer>").count() == 1)
        .or_else(|| lower.find("<answer>"))
        .ok_or_else(|| NoAnswer(reply.chars().take(120).collect()))?;
    let inside = &lower[start + "<answer>".len()..];
    let inside = inside.split('<').next().unwrap_or_default().trim();
    match inside.trim_matches(|c: char| !c.is_alphanumeric()) {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(NoAnswer(reply.chars().take(120).collect())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_from_their_tag_only() {
        assert_eq!(parse("The list is open.\n<answer>yes</answer>"), Ok(true));
        assert_eq!(parse("thinking… <answer> No <answer>"), Ok(false));
        assert_eq!(parse("Yes, clearly.\n<answer>no</answer>"), Ok(false));
        assert!(parse("yes").is_err());
        assert!(parse("<answer>maybe</answer>").is_err());
    }

    #[test]
    fn actions_are_given_in_a3_terms_and_frame_pixels() {
        let step = |a: Value| StepEvidence {
            action_json: a,
            scale: 2.0,
            ..Default::default()
        };
        assert_eq!(
            action(&step(json!({"kind": "tap", "point": [540, 1200]}))),
            json!({"action": "tap", "x": 270, "y": 600})
        );
        assert_eq!(
            action(&step(
                json!({"kind": "swipe", "point": [540, 1800], "end": [540, 600]})
            )),
            json!({"action": "swipe", "x1": 270, "y1": 900, "x2": 270, "y2": 300})
        );
        assert_eq!(
            action(&step(
                json!({"kind": "type", "text": "10:30", "point": [500, 300]})
            )),
            json!({"action": "type", "text": "10:30"})
        );
    }
}

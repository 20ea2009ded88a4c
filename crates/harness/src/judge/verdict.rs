//! Judges' replies: the structured verdict they must give, and the validation that refuses anything else.
//!
//! Wire format a judge must answer with (a JSON object, optionally inside a ```json fence):
//! `{"verdict": "success" | "failure", "confidence": 0.0..=1.0, "reason": "…", "steps": [3, 7]}`.
//! Anything that does not parse into that shape is a [`ReplyError`]; the judge then gets one repair
//! request and, failing again, the verdict is `undecided`.

use serde::Deserialize;

/// The judgement itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VerdictKind {
    Success,
    Failure,
    /// The judge could not be asked or did not answer in the required form.
    Undecided,
}

impl VerdictKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            VerdictKind::Success => "success",
            VerdictKind::Failure => "failure",
            VerdictKind::Undecided => "undecided",
        }
    }

    pub fn parse(s: &str) -> Option<VerdictKind> {
        match s {
            "success" => Some(VerdictKind::Success),
            "failure" => Some(VerdictKind::Failure),
            "undecided" => Some(VerdictKind::Undecided),
            _ => None,
        }
    }

    /// `Some(true)` for success, `Some(false)` for failure, `None` when undecided.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            VerdictKind::Success => Some(true),
            VerdictKind::Failure => Some(false),
            VerdictKind::Undecided => None,
        }
    }
}

/// A validated verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub kind: VerdictKind,
    pub confidence: f64,
    pub reason: String,
    /// Step numbers the judge cites as evidence.
    pub cited_steps: Vec<usize>,
}

/// Why a reply was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplyError {
    #[error("the reply is empty")]
    Empty,
    #[error("the reply contains no JSON object")]
    NoJson,
    #[error("the JSON does not parse: {0}")]
    BadJson(String),
    #[error("\"verdict\" must be \"success\" or \"failure\", got {0:?}")]
    BadVerdict(String),
    #[error("\"confidence\" must be a number in 0..=1, got {0}")]
    BadConfidence(String),
    #[error("cited step {0} is not one of the steps shown ({shown})", shown = shown(*.1))]
    BadStep(usize, usize),
}

#[derive(Deserialize)]
struct RawVerdict {
    verdict: serde_json::Value,
    #[serde(default)]
    confidence: Option<serde_json::Value>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default, alias = "cited_steps")]
    steps: Option<Vec<serde_json::Value>>,
}

fn shown(steps: usize) -> String {
    match steps {
        0 => "none were shown".into(),
        n => format!("1 to {n}"),
    }
}

/// The JSON Schema of a verdict that cites only steps `1..=steps`, the ones the judge was shown
/// (none when it was shown none), for endpoints that constrain decoding to a schema: a small
/// model held to it cannot cite a step 0 or one past the end. The steps are an `enum`, not a
/// `minimum`/`maximum`: llama.cpp's grammar ignores the bounds (Gemma 3 270M cited steps 2 to 14
/// of 3 under them), and `maxItems` stops a model that counts on until its token limit.
pub fn json_schema(steps: usize) -> serde_json::Value {
    // An empty `enum` is a schema some servers refuse: with no step, `maxItems` 0 says it all.
    let items = match steps {
        0 => serde_json::json!({ "type": "integer" }),
        n => serde_json::json!({ "type": "integer", "enum": (1..=n).collect::<Vec<_>>() }),
    };
    let cited = serde_json::json!({ "type": "array", "items": items, "maxItems": steps });
    serde_json::json!({
        "type": "object",
        "properties": {
            "verdict": { "type": "string", "enum": ["success", "failure"] },
            "confidence": { "type": "number", "minimum": 0, "maximum": 1 },
            "reason": { "type": "string" },
            "steps": cited
        },
        "required": ["verdict", "confidence", "reason", "steps"],
        "additionalProperties": false
    })
}

/// Parses and validates a judge's reply: it may cite only the steps it was shown, numbered from 1
/// (`1..=steps_shown`; none when `steps_shown` is 0).
pub fn parse_reply(text: &str, steps_shown: usize) -> Result<Verdict, ReplyError> {
    if text.trim().is_empty() {
        return Err(ReplyError::Empty);
    }
    let json = droidmcp_llm::extract_json_object(text).ok_or(ReplyError::NoJson)?;
    let raw: RawVerdict =
        serde_json::from_str(json).map_err(|e| ReplyError::BadJson(e.to_string()))?;
    let kind = match raw.verdict.as_str().map(|s| s.trim().to_ascii_lowercase()) {
        Some(s) if s == "success" => VerdictKind::Success,
        Some(s) if s == "failure" => VerdictKind::Failure,
        _ => return Err(ReplyError::BadVerdict(raw.verdict.to_string())),
    };
    let confidence = match raw.confidence {
        None => 0.5,
        Some(v) => match v.as_f64() {
            Some(c) if (0.0..=1.0).contains(&c) => c,
            _ => return Err(ReplyError::BadConfidence(v.to_string())),
        },
    };
    let mut cited_steps = Vec::new();
    for step in raw.steps.unwrap_or_default() {
        let n = step
            .as_u64()
            .ok_or_else(|| ReplyError::BadJson(format!("step {step} is not a step number")))?
            as usize;
        if n == 0 || n > steps_shown {
            return Err(ReplyError::BadStep(n, steps_shown));
        }
        cited_steps.push(n);
    }
    Ok(Verdict {
        kind,
        confidence,
        reason: raw.reason.unwrap_or_default(),
        cited_steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_fenced_json_with_prose_around_it() {
        let v = parse_reply(
            "Looking at step 3...\n```json\n{\"verdict\": \"Success\", \"confidence\": 0.9, \"reason\": \"alarm {10:30} set\", \"steps\": [3]}\n```",
            5,
        )
        .unwrap();
        assert_eq!(v.kind, VerdictKind::Success);
        assert_eq!(v.confidence, 0.9);
        assert_eq!(v.reason, "alarm {10:30} set");
        assert_eq!(v.cited_steps, vec![3]);
    }

    #[test]
    fn refuses_what_is_not_a_verdict() {
        assert_eq!(parse_reply("", 0), Err(ReplyError::Empty));
        assert_eq!(
            parse_reply("I'm sorry, I can't help with that.", 0),
            Err(ReplyError::NoJson)
        );
        assert!(matches!(
            parse_reply("{\"verdict\": \"maybe\"}", 0),
            Err(ReplyError::BadVerdict(_))
        ));
        assert!(matches!(
            parse_reply("{\"verdict\": \"success\", \"confidence\": 7}", 0),
            Err(ReplyError::BadConfidence(_))
        ));
        assert!(matches!(
            parse_reply("{\"verdict\": \"success\",", 0),
            Err(ReplyError::NoJson)
        ));
        assert!(matches!(
            parse_reply("{\"verdict\": success}", 0),
            Err(ReplyError::BadJson(_))
        ));
        assert_eq!(
            parse_reply("{\"verdict\": \"failure\", \"steps\": [9]}", 4),
            Err(ReplyError::BadStep(9, 4))
        );
    }

    /// Steps are numbered from 1: a judge shown no steps (an episode where the agent took none, or
    /// the final-state mode) cites none, and step 0 is never one.
    #[test]
    fn a_citation_names_a_step_the_judge_was_shown() {
        let cites = |steps: &str, shown| {
            parse_reply(
                &format!("{{\"verdict\": \"failure\", \"steps\": {steps}}}"),
                shown,
            )
        };
        assert_eq!(cites("[0]", 0), Err(ReplyError::BadStep(0, 0)));
        assert_eq!(cites("[0]", 4), Err(ReplyError::BadStep(0, 4)));
        assert_eq!(cites("[1]", 0), Err(ReplyError::BadStep(1, 0)));
        assert_eq!(cites("[1, 4]", 4).unwrap().cited_steps, vec![1, 4]);
        assert_eq!(cites("[]", 0).unwrap().cited_steps, Vec::<usize>::new());
        assert!(ReplyError::BadStep(0, 0)
            .to_string()
            .contains("none were shown"));
        // The schema a constrained decoder follows allows the same and no more.
        let none = json_schema(0);
        assert_eq!(none["properties"]["steps"]["maxItems"], 0);
        let four = &json_schema(4)["properties"]["steps"];
        assert_eq!(four["items"]["enum"], serde_json::json!([1, 2, 3, 4]));
        assert_eq!(four["maxItems"], 4);
    }

    #[test]
    fn missing_confidence_is_neutral() {
        let v = parse_reply("{\"verdict\": \"failure\"}", 0).unwrap();
        assert_eq!((v.kind, v.confidence), (VerdictKind::Failure, 0.5));
    }
}

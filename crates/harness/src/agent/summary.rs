//! The step summaries AndroidWorld's T3A and M3A write: after each action a second request, with its
//! own system message, summarises the step from the action, its reason, the phone's report and the
//! element lists before and after (M3A also sees both marked screens); the summaries are the
//! history the next turns read.

use crate::session::Observation;
use droidmcp_llm::{Message, Part};

use super::m3a::Frames;
use super::Goal;

const SYSTEM: &str = include_str!("../../../../prompts/agent-summary-system.md");
const SUMMARY: &str = include_str!("../../../../prompts/agent-summary.md");

/// What a summary request is about.
pub struct Step<'a> {
    pub action: &'a str,
    pub reason: &'a str,
    pub result: &'a str,
    pub before: &'a Observation,
    pub after: &'a Observation,
}

/// The summary request: its own system message, the action with its reason and the phone's
/// report and both element lists; with `screens` (M3A), the marked screens before and after.
pub fn messages(goal: &Goal, step: &Step<'_>, screens: Option<(&Frames, &Frames)>) -> Vec<Message> {
    let elements = |o: &Observation| o.elements.clone().unwrap_or_else(|| "(no elements)".into());
    let reason = if step.reason.is_empty() {
        "(none given)"
    } else {
        step.reason
    };
    let (system_screens, images) = match screens {
        Some(_) => (
            ", and two images: the screen before the action, then the screen after it, each with \
             its marks (boxes numbered with the element indexes of its own list)",
            "The first image is the screen before the action, the second the screen after it.\n\n",
        ),
        None => ("", ""),
    };
    let text = droidmcp_llm::fill(
        SUMMARY,
        &[
            ("goal", &goal.text),
            ("action", step.action),
            ("reason", reason),
            ("result", step.result),
            ("before", &elements(step.before)),
            ("after", &elements(step.after)),
            ("images", images),
        ],
    );
    let mut parts = vec![Part::Text(text)];
    if let Some((before, after)) = screens {
        parts.push(Part::Jpeg(before.marked.clone()));
        parts.push(Part::Jpeg(after.marked.clone()));
    }
    vec![
        Message::system(droidmcp_llm::fill(SYSTEM, &[("screens", system_screens)])),
        Message::user(parts),
    ]
}

/// A summary as one history line: the model's first non-empty line, its lead-in dropped.
pub fn line(reply: &str) -> Option<String> {
    let line = reply.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = ["Summary of this step:", "Summary:"]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        .unwrap_or(line)
        .trim();
    (!line.is_empty()).then(|| line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_is_one_line_without_its_lead_in() {
        assert_eq!(
            line("\n Summary of this step: opened Clock; next tap Alarm.\nmore"),
            Some("opened Clock; next tap Alarm.".into())
        );
        assert_eq!(line("  \n"), None);
    }
}

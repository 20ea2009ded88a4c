//! AndroidWorld's calendar event text (`task_evals/single/calendar/events_generator.py`), so the
//! Simple Calendar Pro tasks draw titles and descriptions as AndroidWorld does, and an instance
//! AndroidWorld drew can be replayed by naming its own title and description as overrides.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

const TITLE_PREFIXES: &[&str] = &[
    "Meeting with",
    "Call with",
    "Workshop on",
    "Appointment for",
    "Catch up on",
    "Review session for",
];
/// Who a "… with" title names.
const NAMES: &[&str] = &["Alice", "Bob", "the Team", "HR", "Dr. Smith", "Marketing"];
/// What the other titles are about.
const SUBJECTS: &[&str] = &["Project X", "Annual Report", "Budget Planning", "Campaign"];
const ACTIONS: &[&str] = &[
    "discuss",
    "finalize",
    "plan",
    "celebrate",
    "prepare for",
    "review",
    "explore",
    "understand",
    "organize",
    "strategize about",
];
const DESCRIPTION_SUBJECTS: &[&str] = &[
    "upcoming project milestones",
    "marketing strategies",
    "annual budget",
    "product launch",
    "team roles",
    "client feedback",
    "contract details",
    "software updates",
    "business objectives",
];
const NOTES: &[&str] = &[
    "Please bring relevant documents.",
    "Remember to confirm attendance.",
    "Let's be punctual.",
    "Looking forward to productive discussions.",
    "Snacks will be provided.",
];

fn pick<'a>(rng: &mut ChaCha8Rng, list: &[&'a str]) -> &'a str {
    list[rng.gen_range(0..list.len())]
}

/// `generate_event_title`: a prefix, then a name after "with", else a subject.
pub fn title(rng: &mut ChaCha8Rng) -> String {
    let prefix = pick(rng, TITLE_PREFIXES);
    let rest = if prefix.ends_with(" with") {
        pick(rng, NAMES)
    } else {
        pick(rng, SUBJECTS)
    };
    format!("{prefix} {rest}")
}

/// `generate_event_description`: "We will <action> <subject>." and, half the time, a note.
pub fn description(rng: &mut ChaCha8Rng) -> String {
    let text = format!(
        "We will {} {}.",
        pick(rng, ACTIONS),
        pick(rng, DESCRIPTION_SUBJECTS)
    );
    if rng.gen_bool(0.5) {
        format!("{text} {}", pick(rng, NOTES))
    } else {
        text
    }
}

/// Whether AndroidWorld's title generator can produce `text`.
pub fn is_title(text: &str) -> bool {
    TITLE_PREFIXES.iter().any(|p| {
        text.strip_prefix(p)
            .and_then(|rest| rest.strip_prefix(' '))
            .is_some_and(|rest| {
                let names = if p.ends_with(" with") {
                    NAMES
                } else {
                    SUBJECTS
                };
                names.contains(&rest)
            })
    })
}

/// Whether AndroidWorld's description generator can produce `text`.
pub fn is_description(text: &str) -> bool {
    let Some(body) = text.strip_prefix("We will ") else {
        return false;
    };
    let Some((sentence, note)) = body
        .split_once(". ")
        .map(|(s, n)| (s, Some(n)))
        .or_else(|| body.strip_suffix('.').map(|s| (s, None)))
    else {
        return false;
    };
    let known_sentence = ACTIONS.iter().any(|a| {
        sentence
            .strip_prefix(a)
            .and_then(|rest| rest.strip_prefix(' '))
            .is_some_and(|s| DESCRIPTION_SUBJECTS.contains(&s))
    });
    known_sentence && note.is_none_or(|n| NOTES.contains(&n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn what_is_drawn_is_recognised_and_androidworlds_text_too() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..50 {
            assert!(is_title(&title(&mut rng)));
            assert!(is_description(&description(&mut rng)));
        }
        assert!(is_title("Call with Dr. Smith"));
        assert!(!is_title("Call with Project X"));
        assert!(is_description(
            "We will strategize about annual budget. Snacks will be provided."
        ));
        assert!(is_description("We will plan team roles."));
        assert!(!is_description("We will plan team roles. Bring cake."));
        assert!(!is_description("Plan team roles."));
    }
}

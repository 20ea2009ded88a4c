//! Why an episode ended without a step, read from the agent's log in its row. A reference agent
//! whose model answers nothing it can use (a server speaking another format, a model too small to
//! follow the prompt) otherwise shows only "0 steps, turns_exhausted"; the run's summary and its
//! report say which reply failed and how.

use serde_json::Value;

use crate::store::RunResultRow;

/// How much of a model's reply or a process's output a reason quotes.
const QUOTE: usize = 160;

/// Why the attempt took no step, or `None` when it took one, errored (its error says why) or has
/// no log to read.
pub fn why_no_step(row: &RunResultRow) -> Option<String> {
    if row.steps > 0 || row.outcome == "errored" {
        return None;
    }
    let log: Value = serde_json::from_str(&row.agent_log).ok()?;
    match log.get("turns").and_then(Value::as_array) {
        Some(turns) => reference(&log, turns, &row.ending),
        None => command(&log, &row.ending),
    }
}

fn reference(log: &Value, turns: &[Value], ending: &str) -> Option<String> {
    let agent = log["agent"].as_str().unwrap_or("reference");
    let text = |t: &Value, key: &str| t[key].as_str().unwrap_or("").to_string();
    let Some(first) = turns.first() else {
        // The turns of an agent stopped at the time limit are not logged.
        return Some(match ending {
            "time limit" => format!(
                "the episode's time limit (--episode-timeout) came before the {agent} agent took a \
                 step: a slow model needs a longer one"
            ),
            _ => format!("the {agent} agent ended ({ending}) before its first turn"),
        });
    };
    let invalid: Vec<&Value> = turns.iter().filter(|t| t["invalid"] == true).collect();
    if invalid.len() == turns.len() {
        return Some(format!(
            "none of the model's {} replies was an action the {agent} agent reads (each after a \
             repair request): {}; the first reply began {:?}",
            turns.len(),
            text(first, "result"),
            quote(&text(first, "reply")),
        ));
    }
    let refused: Vec<&Value> = turns
        .iter()
        .filter(|t| !t["action"].is_null() && text(t, "result").starts_with("refused"))
        .collect();
    if let Some(r) = refused.first() {
        return Some(format!(
            "the phone refused the {} action(s) the model chose ({} unusable replies); the first: {} → {}",
            refused.len(),
            invalid.len(),
            text(r, "action"),
            text(r, "result"),
        ));
    }
    Some(format!(
        "the model ended the episode ({ending}) before acting, after {} turn(s); its last reply began {:?}",
        turns.len(),
        quote(&text(turns.last().unwrap_or(first), "reply")),
    ))
}

fn command(log: &Value, ending: &str) -> Option<String> {
    let cmd = log["command"].as_str()?;
    let last_line = |key: &str| {
        log[key]
            .as_str()
            .and_then(|s| s.lines().rev().find(|l| !l.trim().is_empty()))
            .map(|l| quote(l.trim()))
    };
    let said = match (last_line("stderr"), last_line("stdout")) {
        (Some(e), _) => format!("; its stderr ends {e:?}"),
        (None, Some(o)) => format!("; its stdout ends {o:?}"),
        (None, None) => "; it printed nothing".into(),
    };
    Some(format!(
        "the agent command {cmd:?} took no step ({ending}){said}"
    ))
}

fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTE) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::why_no_step;
    use crate::store::RunResultRow;
    use serde_json::json;

    fn row(steps: u32, outcome: &str, log: serde_json::Value) -> RunResultRow {
        RunResultRow {
            steps,
            outcome: outcome.into(),
            ending: "turns_exhausted".into(),
            agent_log: log.to_string(),
            ..RunResultRow::default()
        }
    }

    #[test]
    fn an_episode_with_steps_or_an_error_needs_no_reason() {
        let log =
            json!({"agent": "t3a", "turns": [{"invalid": true, "result": "x", "reply": "y"}]});
        assert_eq!(why_no_step(&row(3, "failure", log.clone())), None);
        assert_eq!(why_no_step(&row(0, "errored", log)), None);
    }

    /// The turns of an agent stopped at the time limit are lost with it: the reason names the
    /// limit, not a model that never answered.
    #[test]
    fn an_agent_stopped_at_the_time_limit_is_told_apart() {
        let mut r = row(0, "failure", json!({"agent": "t3a", "turns": []}));
        r.ending = "time limit".into();
        let why = why_no_step(&r).unwrap();
        assert!(why.contains("--episode-timeout"), "{why}");
    }

    #[test]
    fn a_command_that_took_no_step_quotes_its_last_words() {
        let log = json!({"command": "python3 agent.py", "exit": 0, "stdout": "", "stderr": "ok\nno key set\n\n"});
        let why = why_no_step(&row(0, "failure", log)).unwrap();
        assert!(
            why.contains("python3 agent.py") && why.contains("no key set"),
            "{why}"
        );
    }
}

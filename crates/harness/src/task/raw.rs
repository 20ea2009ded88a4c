//! The task file exactly as TOML gives it (serde structs, spans kept for error lines). Nothing here
//! is trusted; [`super::validate`] turns it into a [`super::Task`].

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// A whole `tasks/*.toml` file: one or more `[[task]]` tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskFile {
    pub schema: Option<Spanned<String>>,
    #[serde(default)]
    pub task: Vec<Spanned<RawTask>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTask {
    pub id: Spanned<String>,
    pub goal: Spanned<String>,
    #[serde(default)]
    pub apps: Vec<String>,
    pub kind: Option<Spanned<String>>,
    pub complexity: Option<f64>,
    pub max_steps: Option<Spanned<i64>>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Score only if the agent declared the task finished (default true, as AndroidWorld).
    pub require_finish: Option<bool>,
    /// Weighted partial credit (default: true for composite tasks).
    pub partial_credit: Option<bool>,
    #[serde(default)]
    pub params: BTreeMap<String, Spanned<toml::Value>>,
    #[serde(default)]
    pub setup: Vec<Spanned<RawStep>>,
    #[serde(default)]
    pub teardown: Vec<Spanned<RawStep>>,
    pub record: Option<RawRecord>,
    #[serde(default)]
    pub check: Vec<Spanned<RawCheck>>,
    /// What the agent must not do on the way (AndroidArena's constrained tasks).
    #[serde(default)]
    pub constraint: Vec<Spanned<RawConstraint>>,
    pub success: Option<Spanned<String>>,
    #[serde(default)]
    pub golden: Vec<Spanned<toml::Value>>,
    /// A plausible wrong trajectory used by tests (must not succeed).
    pub wrong: Option<Vec<Spanned<toml::Value>>>,
    /// Near misses: the golden solution with one parameter off, which must not succeed. Each item
    /// is a parameter name (another value its generator draws), a table of parameter → template
    /// (`{ a = "{noise_a}" }`: the answer the noise gives), or a detour that breaks a constraint
    /// (`{ breaks = "no_contacts", actions = [...] }`). Default: every drawn parameter the golden
    /// solution uses.
    pub near_miss: Option<Spanned<Vec<toml::Value>>>,
    /// Free-form provenance (`b-moca task 37`, `AndroidWorld ContactsAddContact`).
    pub source: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRecord {
    #[serde(default)]
    pub shell: Vec<String>,
}

/// One constraint: `kind` names the rule (`app`, `page`, `element`, `actions`), the other keys are
/// its arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConstraint {
    pub id: Spanned<String>,
    pub kind: Spanned<String>,
    // app
    pub package: Option<toml::Value>,
    // page
    pub activity: Option<toml::Value>,
    pub screen: Option<String>,
    // element
    pub selector: Option<String>,
    // actions
    pub action: Option<String>,
    pub text: Option<toml::Value>,
    // element, actions
    pub max: Option<i64>,
}

/// One setup or teardown step: `op` names it, the other keys are its arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    pub op: Spanned<String>,
    pub cmd: Option<String>,
    pub ns: Option<String>,
    pub key: Option<String>,
    pub value: Option<toml::Value>,
    pub db: Option<String>,
    pub sql: Option<String>,
    pub table: Option<String>,
    pub count: Option<toml::Value>,
    pub columns: Option<BTreeMap<String, toml::Value>>,
    pub path: Option<String>,
    pub content: Option<String>,
    pub mode: Option<i64>,
    pub package: Option<String>,
    pub time: Option<String>,
    pub text: Option<String>,
    pub ms: Option<i64>,
    pub allow_fail: Option<bool>,
    // incoming_call / incoming_sms
    pub number: Option<String>,
    pub ring_ms: Option<i64>,
    pub talk_ms: Option<i64>,
    pub from: Option<toml::Value>,
    pub body: Option<toml::Value>,
    pub first: Option<String>,
    pub last: Option<String>,
    pub phone: Option<String>,
    pub starred: Option<bool>,
    pub replace: Option<i64>,
    // push_media
    pub title: Option<String>,
    pub artist: Option<String>,
    pub duration_ms: Option<toml::Value>,
}

/// One check: `kind` names the evaluator, the other keys are its arguments.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCheck {
    pub id: Spanned<String>,
    pub kind: Spanned<String>,
    pub when: Option<Spanned<String>>,
    pub gate: Option<String>,
    pub weight: Option<f64>,
    pub subgoal: Option<bool>,
    pub info: Option<bool>,
    // settings / prefs / shell
    pub ns: Option<String>,
    pub key: Option<String>,
    pub op: Option<String>,
    pub value: Option<toml::Value>,
    pub cmd: Option<String>,
    // content provider / sqlite
    pub uri: Option<String>,
    pub projection: Option<Vec<String>>,
    #[serde(rename = "where")]
    pub selection: Option<String>,
    #[serde(rename = "match")]
    pub match_: Option<BTreeMap<String, toml::Value>>,
    pub mode: Option<Spanned<String>>,
    pub count: Option<toml::Value>,
    pub column: Option<String>,
    pub db: Option<String>,
    pub query: Option<String>,
    pub table: Option<String>,
    pub row_key: Option<String>,
    pub ignore: Option<Vec<String>>,
    pub expect: Option<Vec<BTreeMap<String, toml::Value>>>,
    pub exact: Option<bool>,
    // files
    pub path: Option<String>,
    // logcat
    pub filters: Option<Vec<String>>,
    pub regex: Option<String>,
    // foreground
    pub package: Option<toml::Value>,
    pub activity: Option<toml::Value>,
    // ui
    pub selector: Option<String>,
    pub attrs: Option<BTreeMap<String, toml::Value>>,
    pub present: Option<bool>,
    // history
    pub step: Option<i64>,
    pub min_ratio: Option<f64>,
    // answer
    pub expected: Option<toml::Value>,
    pub expected_from: Option<String>,
    pub compare: Option<String>,
    pub tolerance: Option<f64>,
    pub threshold: Option<f64>,
    pub list: Option<bool>,
}

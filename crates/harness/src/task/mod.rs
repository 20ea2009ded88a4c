//! Tasks: TOML task files in `tasks/`, loaded and validated into [`Task`]s, instantiated with seeded
//! parameters into [`TaskInstance`]s that an episode (`session::episode`) sets up, checks and tears
//! down.
//!
//! Brief overview: [`raw::TaskFile`] is the file as serde reads it; [`validate`] turns each
//! `[[task]]` into a [`Task`] or a [`LoadError`] naming file, line and field; [`Catalog`] loads a
//! directory, keeping good tasks serving when others are broken. [`Task::instantiate`] draws the
//! parameters ([`params`]) from a seed and renders every template ([`template`]) — the goal, the
//! [`setup::SetupStep`]s, the checks ([`crate::eval::Check`]) and the golden solution
//! ([`action::Action`]).

pub mod action;
pub mod aw_events;
pub mod bundled;
pub mod catalog;
pub mod constraints;
pub mod contact_seed;
pub mod error;
pub mod near_miss;
pub mod note_params;
pub mod params;
pub mod raw;
pub mod receipt_params;
pub mod setup;
pub mod template;
pub mod text_image;
pub mod validate;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use action::Action;
pub use catalog::Catalog;
pub use error::{LoadError, TaskError};
pub use near_miss::{NearMiss, NearMissSpec};
pub use params::{ParamSpec, Value};
pub use setup::SetupStep;

use crate::eval::{Check, Constraint, Expr};

/// What the agent is asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Change the device's state.
    Operation,
    /// Answer a question (`task_answer`).
    Query,
    /// Several sub-goals, scored with weighted partial credit.
    Composite,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Operation => "operation",
            Kind::Query => "query",
            Kind::Composite => "composite",
        }
    }
}

/// A validated task template.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: String,
    pub goal: String,
    pub apps: Vec<String>,
    pub kind: Kind,
    pub complexity: f64,
    pub max_steps: u32,
    pub tags: Vec<String>,
    pub require_finish: bool,
    pub partial_credit: bool,
    /// In drawing order: generators first (by name), then derived parameters.
    pub params: Vec<(String, ParamSpec)>,
    pub setup: Vec<SetupStep>,
    pub teardown: Vec<SetupStep>,
    /// Shell commands whose output is recorded after every step.
    pub record: Vec<String>,
    pub checks: Vec<Check>,
    /// What the agent must not do on the way; any one broken fails the episode.
    pub constraints: Vec<Constraint>,
    pub success: Expr,
    pub golden: Vec<Action>,
    pub wrong: Option<Vec<Action>>,
    /// How the near misses are made; empty: vary every drawn parameter the golden solution uses.
    pub near_miss: Vec<NearMissSpec>,
    pub source: Option<String>,
    /// The file it came from.
    pub file: PathBuf,
}

/// One concrete instance of a task: parameters drawn, every template rendered.
#[derive(Debug, Clone)]
pub struct TaskInstance {
    pub task: Arc<Task>,
    pub seed: u64,
    pub params: BTreeMap<String, Value>,
    pub goal: String,
    pub setup: Vec<SetupStep>,
    pub teardown: Vec<SetupStep>,
    pub record: Vec<String>,
    pub checks: Vec<Check>,
    pub constraints: Vec<Constraint>,
    pub golden: Vec<Action>,
    pub wrong: Option<Vec<Action>>,
    /// The first day of the calendar week on the phone the instance is solved on: goldens that
    /// tap a day of a month grid by position (`nth:{d.month_cell}`) aim for that grid.
    pub first_day: chrono::Weekday,
}

impl TaskInstance {
    /// This instance as it is solved on a phone whose calendar weeks start on `first` (the
    /// locale's, `locale::datetime::first_day_of_week`): its golden and wrong trajectories aim at
    /// the month-grid cells that phone draws.
    pub fn for_week_start(mut self, first: chrono::Weekday) -> Result<TaskInstance, TaskError> {
        let params = params::for_week_start(&self.params, first);
        let err = |message: String| TaskError::Render {
            task: self.task.id.clone(),
            message,
        };
        self.golden = self
            .task
            .render_actions(&self.task.golden, &params)
            .map_err(err)?;
        if let Some(w) = &self.task.wrong {
            self.wrong = Some(self.task.render_actions(w, &params).map_err(err)?);
        }
        self.params = params;
        self.first_day = first;
        Ok(self)
    }
}

impl Task {
    /// Draws parameters from `seed` (overrides replace drawn values and are checked against the
    /// parameter's spec) and renders every template.
    pub fn instantiate(
        self: &Arc<Task>,
        seed: u64,
        overrides: &BTreeMap<String, String>,
    ) -> Result<TaskInstance, TaskError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for name in overrides.keys() {
            if !self.params.iter().any(|(n, _)| n == name) {
                return Err(TaskError::UnknownParam {
                    task: self.id.clone(),
                    name: name.clone(),
                    known: self
                        .params
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
        }
        let mut values = BTreeMap::new();
        for (name, spec) in &self.params {
            // Draw even when overridden so other parameters keep their seeded values.
            let drawn = spec
                .draw(&mut rng, &values)
                .map_err(|message| TaskError::BadParam {
                    task: self.id.clone(),
                    name: name.clone(),
                    message,
                })?;
            let value = match overrides.get(name) {
                Some(text) => spec
                    .parse_override(text)
                    .map_err(|message| TaskError::BadParam {
                        task: self.id.clone(),
                        name: name.clone(),
                        message,
                    })?,
                None => drawn,
            };
            values.insert(name.clone(), value);
        }
        let err = |message: String| TaskError::Render {
            task: self.id.clone(),
            message,
        };
        let goal = template::render(&self.goal, &values).map_err(err)?;
        let setup = self
            .render_steps(&self.setup, &values, &mut rng)
            .map_err(err)?;
        let teardown = self
            .render_steps(&self.teardown, &values, &mut rng)
            .map_err(err)?;
        let record = self
            .record
            .iter()
            .map(|c| template::render(c, &values))
            .collect::<Result<_, _>>()
            .map_err(err)?;
        let checks = render_all(&self.checks, &values, Check::map_strings).map_err(err)?;
        let constraints =
            render_all(&self.constraints, &values, Constraint::map_strings).map_err(err)?;
        let golden = self.render_actions(&self.golden, &values).map_err(err)?;
        let wrong = match &self.wrong {
            Some(w) => Some(self.render_actions(w, &values).map_err(err)?),
            None => None,
        };
        Ok(TaskInstance {
            task: Arc::clone(self),
            seed,
            params: values,
            goal,
            setup,
            teardown,
            record,
            checks,
            constraints,
            golden,
            wrong,
            first_day: chrono::Weekday::Sun,
        })
    }

    /// The instance an episode played, from its seed and the parameter values it stored (every
    /// value, drawn or derived): only the values the seed would not draw are passed as overrides,
    /// since a derived parameter (`add`, relative days) takes none.
    pub fn instance_of_stored(
        self: &Arc<Task>,
        seed: u64,
        stored: &[(String, String)],
    ) -> Result<TaskInstance, TaskError> {
        let drawn = self.instantiate(seed, &BTreeMap::new())?;
        let overrides: BTreeMap<String, String> = stored
            .iter()
            .filter(|(name, text)| drawn.params.get(name).is_none_or(|v| &v.text != text))
            .cloned()
            .collect();
        if overrides.is_empty() {
            return Ok(drawn);
        }
        self.instantiate(seed, &overrides)
    }

    /// Renders a list of actions with given parameter values (also used to replay one instance's
    /// solution against another instance: a plausible wrong trajectory).
    pub fn render_actions(
        &self,
        actions: &[Action],
        values: &BTreeMap<String, Value>,
    ) -> Result<Vec<Action>, String> {
        render_all(actions, values, Action::map_strings)
    }

    fn render_steps(
        &self,
        steps: &[SetupStep],
        values: &BTreeMap<String, Value>,
        rng: &mut ChaCha8Rng,
    ) -> Result<Vec<SetupStep>, String> {
        let mut out = Vec::new();
        for step in render_all(steps, values, SetupStep::map_strings)? {
            match step {
                SetupStep::InsertRows {
                    db,
                    table,
                    count,
                    columns,
                } => {
                    let mut sql = String::new();
                    for _ in 0..count {
                        let mut row_values = values.clone();
                        let mut names = Vec::new();
                        let mut cells = Vec::new();
                        // Derived columns (`add`) are drawn after the columns they build on.
                        let ordered = columns
                            .iter()
                            .filter(|(_, spec, _)| !spec.is_derived())
                            .chain(columns.iter().filter(|(_, spec, _)| spec.is_derived()));
                        for (column, spec, is_template) in ordered {
                            let cell = if *is_template {
                                // A string column is a template over the task's parameters and the
                                // columns drawn before it in this row.
                                let ParamSpec::Literal(v) = spec else {
                                    unreachable!("templates are literals")
                                };
                                Value::plain(template::render(&v.text, &row_values)?)
                            } else {
                                spec.draw(rng, &row_values)?
                            };
                            names.push(format!("\"{column}\""));
                            cells.push(template::sql_quote(&cell.text));
                            row_values.insert(column.clone(), cell);
                        }
                        sql.push_str(&format!(
                            "INSERT INTO \"{table}\" ({}) VALUES ({});",
                            names.join(", "),
                            cells.join(", ")
                        ));
                    }
                    if !sql.is_empty() {
                        out.push(SetupStep::Sql { db, sql });
                    }
                }
                SetupStep::IncomingTexts { count, from, body } => {
                    let n: u32 = count
                        .draw(rng, values)?
                        .text
                        .parse()
                        .ok()
                        .filter(|n| *n <= 50)
                        .ok_or("incoming_texts: count must be a whole number in 0..=50")?;
                    for _ in 0..n {
                        out.push(SetupStep::IncomingSms {
                            from: from.draw(rng, values)?.text,
                            body: body.draw(rng, values)?.text,
                        });
                    }
                }
                other => out.push(other),
            }
        }
        Ok(out)
    }

    /// The reference actions of an instance's golden solution (for LCS checks and metrics).
    pub fn reference_of(golden: &[Action]) -> Vec<crate::eval::history::RefAction> {
        golden.iter().filter_map(Action::reference).collect()
    }
}

fn render_all<T: Clone>(
    items: &[T],
    values: &BTreeMap<String, Value>,
    map: fn(&mut T, &mut dyn FnMut(&str) -> String),
) -> Result<Vec<T>, String> {
    let mut first_err = None;
    let out = items
        .iter()
        .map(|item| {
            let mut item = item.clone();
            map(&mut item, &mut |s| match template::render(s, values) {
                Ok(r) => r,
                Err(e) => {
                    first_err.get_or_insert(e);
                    s.to_string()
                }
            });
            item
        })
        .collect();
    match first_err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

//! Replays a solution (golden or any list of [`Action`]s) on a device through [`Device`] — the same
//! layer agents act through — recording each action as an episode step. Selectors are resolved on the
//! screen the action is taken on; a selector that matches nothing is an error naming it.

use crate::device::{apps, command, Device, DeviceError};
use crate::eval::history::ActionRecord;
use crate::eval::ui::{parse_nodes, UiSelector};
use crate::geom::Point;
use crate::session::episode::{Episode, EpisodeError};

use super::Action;

/// Why a replay stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("step {step} ({action}): {source}")]
    Device {
        step: usize,
        action: String,
        #[source]
        source: DeviceError,
    },
    #[error("step {step} ({action}): no element matches {selector} on the screen")]
    NotFound {
        step: usize,
        action: String,
        selector: String,
    },
    #[error("step {step} ({action}): {message}")]
    Invalid {
        step: usize,
        action: String,
        message: String,
    },
    #[error(transparent)]
    Episode(#[from] EpisodeError),
}

impl ReplayError {
    pub fn is_device_lost(&self) -> bool {
        match self {
            ReplayError::Device { source, .. } => source.is_device_lost(),
            ReplayError::Episode(EpisodeError::DeviceLost { .. }) => true,
            _ => false,
        }
    }
}

/// How many times `scroll_to` swipes before giving up.
const MAX_SCROLLS: usize = 10;

/// Runs `actions` on `device`, recording each device action in `episode`.
pub async fn replay(
    device: &Device,
    episode: &mut Episode,
    actions: &[Action],
) -> Result<(), ReplayError> {
    let mut screen = device
        .dump_xml()
        .await
        .map_err(|source| ReplayError::Device {
            step: 0,
            action: "initial dump".into(),
            source,
        })?;
    for (i, action) in actions.iter().enumerate() {
        let step = i + 1;
        let name = action.describe();
        let dev_err = |source| ReplayError::Device {
            step,
            action: name.clone(),
            source,
        };
        let locate = |xml: &str, sel: &UiSelector| -> Result<Point, ReplayError> {
            let nodes = parse_nodes(xml).map_err(|message| ReplayError::Invalid {
                step,
                action: name.clone(),
                message,
            })?;
            sel.select(&nodes)
                .into_iter()
                .find_map(|n| n.bounds.filter(|b| !b.is_empty()).map(|b| b.center()))
                .ok_or_else(|| ReplayError::NotFound {
                    step,
                    action: name.clone(),
                    selector: sel.describe(),
                })
        };
        let record =
            |kind: &str, point: Option<Point>, text: Option<String>, before: &str| ActionRecord {
                kind: kind.into(),
                point,
                text,
                screen_before: Some(before.to_string()),
            };
        let rec = match action {
            Action::Answer(text) => {
                episode.answer(text)?;
                continue;
            }
            Action::Finish => {
                episode.finish()?;
                continue;
            }
            Action::Wait(ms) => {
                tokio::time::sleep(std::time::Duration::from_millis(*ms)).await;
                continue;
            }
            Action::Open(app) => {
                let entries = device.apps().await.map_err(dev_err)?;
                let best = apps::rank(app, &entries).into_iter().next();
                let entry = match best {
                    Some(m) if m.score >= apps::CONFIDENT || m.entry.package == *app => m.entry,
                    _ => {
                        return Err(ReplayError::Invalid {
                            step,
                            action: name.clone(),
                            message: format!("no app matches {app:?}"),
                        })
                    }
                };
                device.launch(&entry).await.map_err(dev_err)?;
                record("open_app", None, Some(app.clone()), &screen)
            }
            Action::Tap(sel) => {
                let p = locate(&screen, sel)?;
                device.tap(p).await.map_err(dev_err)?;
                record("tap", Some(p), None, &screen)
            }
            Action::TapAt { selector, fx, fy } => {
                let nodes = parse_nodes(&screen).map_err(|message| ReplayError::Invalid {
                    step,
                    action: name.clone(),
                    message,
                })?;
                let b = selector
                    .select(&nodes)
                    .into_iter()
                    .find_map(|n| n.bounds.filter(|b| !b.is_empty()))
                    .ok_or_else(|| ReplayError::NotFound {
                        step,
                        action: name.clone(),
                        selector: selector.describe(),
                    })?;
                let p = Point::new(
                    b.left + ((b.width() - 1) as f64 * fx).round() as i32,
                    b.top + ((b.height() - 1) as f64 * fy).round() as i32,
                );
                device.tap(p).await.map_err(dev_err)?;
                record("tap", Some(p), None, &screen)
            }
            Action::LongPress(sel) => {
                let p = locate(&screen, sel)?;
                device.long_press(p, 1000).await.map_err(dev_err)?;
                record("long_press", Some(p), None, &screen)
            }
            Action::Type { text, into, submit } => {
                let p = match into {
                    Some(sel) => {
                        let p = locate(&screen, sel)?;
                        device.tap(p).await.map_err(dev_err)?;
                        Some(p)
                    }
                    None => None,
                };
                device.type_text(text).await.map_err(dev_err)?;
                if *submit {
                    device.keys(&[66]).await.map_err(dev_err)?;
                }
                record("type", p, Some(text.clone()), &screen)
            }
            Action::Key(key) => {
                let code = command::keycode(key).ok_or_else(|| ReplayError::Invalid {
                    step,
                    action: name.clone(),
                    message: format!("unknown key {key:?}"),
                })?;
                device.keys(&[code]).await.map_err(dev_err)?;
                record("key", None, Some(key.clone()), &screen)
            }
            Action::Swipe(direction) => {
                swipe(device, direction).await.map_err(dev_err)?;
                record("swipe", None, Some(direction.clone()), &screen)
            }
            Action::ScrollTo {
                selector,
                direction,
            } => {
                let mut current = screen.clone();
                let mut found = locate(&current, selector).is_ok();
                let mut swipes = 0;
                while !found && swipes < MAX_SCROLLS {
                    swipe(device, direction).await.map_err(dev_err)?;
                    swipes += 1;
                    current = device.dump_xml().await.map_err(dev_err)?;
                    found = locate(&current, selector).is_ok();
                }
                if !found {
                    return Err(ReplayError::NotFound {
                        step,
                        action: name.clone(),
                        selector: selector.describe(),
                    });
                }
                record("swipe", None, Some(direction.clone()), &screen)
            }
        };
        screen = settle(device).await.map_err(dev_err)?;
        episode.record_step(rec, Some(screen.clone())).await?;
    }
    Ok(())
}

/// A full-screen swipe in `direction` (the finger moves that way), 300 ms.
async fn swipe(device: &Device, direction: &str) -> Result<(), DeviceError> {
    let size = device.screen_size().await?;
    let (w, h) = (size.width, size.height);
    let (from, to) = match direction {
        "up" => (Point::new(w / 2, h * 3 / 4), Point::new(w / 2, h / 4)),
        "down" => (Point::new(w / 2, h / 4), Point::new(w / 2, h * 3 / 4)),
        "left" => (Point::new(w * 4 / 5, h / 2), Point::new(w / 5, h / 2)),
        _ => (Point::new(w / 5, h / 2), Point::new(w * 4 / 5, h / 2)),
    };
    device.swipe(from, to, 300).await
}

/// Dumps until two consecutive dumps agree (at most 4 dumps, 150 ms apart) and returns the last.
async fn settle(device: &Device) -> Result<String, DeviceError> {
    let mut previous = device.dump_xml().await?;
    for _ in 0..3 {
        let next = device.dump_xml().await?;
        if next == previous {
            return Ok(next);
        }
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        previous = next;
    }
    Ok(previous)
}

/// Which solution to replay for an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solution {
    /// The task's golden solution (must score 1.0).
    Golden,
    /// A plausible wrong trajectory (must not succeed): the task's `wrong` list, else the golden
    /// solution of another instance with different parameters (the alarm at the wrong time).
    Wrong,
    /// No actions at all, then finish (must not succeed).
    Empty,
    /// The instance's near miss with this index (see `TaskInstance::near_misses`; must not
    /// succeed).
    NearMiss(usize),
}

/// The actions of `solution` for `instance`; `None` when the task has no wrong trajectory (no
/// `wrong` list and no parameters to vary).
pub fn solution_actions(instance: &super::TaskInstance, solution: Solution) -> Option<Vec<Action>> {
    match solution {
        Solution::Golden => Some(instance.golden.clone()),
        Solution::Empty => Some(vec![Action::Finish]),
        Solution::NearMiss(i) => instance
            .near_misses()
            .ok()?
            .into_iter()
            .nth(i)
            .map(|n| n.actions),
        Solution::Wrong => {
            if let Some(w) = &instance.wrong {
                return Some(w.clone());
            }
            let task = &instance.task;
            (1..50u64).find_map(|k| {
                let other = task
                    .instantiate(instance.seed.wrapping_add(k * 7919), &Default::default())
                    .ok()?;
                let golden = task.render_actions(&task.golden, &other.params).ok()?;
                (golden != instance.golden).then_some(golden)
            })
        }
    }
}

/// Starts an episode of `task` with `seed` on `shell`, replays `solution`, checks, and ends it.
pub async fn run_instance(
    task: &std::sync::Arc<super::Task>,
    seed: u64,
    shell: std::sync::Arc<dyn crate::device::Shell>,
    store: Option<crate::store::Store>,
    solution: Solution,
) -> Result<crate::session::episode::Report, ReplayError> {
    let instance = task
        .instantiate(seed, &Default::default())
        .map_err(EpisodeError::from)?;
    let actions = solution_actions(&instance, solution).ok_or_else(|| ReplayError::Invalid {
        step: 0,
        action: "choose a wrong trajectory".into(),
        message: format!(
            "task {} has no such trajectory ({solution:?}: no `wrong` list, no parameter to vary)",
            task.id
        ),
    })?;
    let device = Device::new(shell.clone());
    let mut episode = Episode::start(instance, shell, store).await?;
    let replayed = replay(&device, &mut episode, &actions).await;
    if let Err(e) = replayed {
        // A wrong trajectory may legitimately fail to find an element; score what happened.
        if solution == Solution::Golden || e.is_device_lost() {
            return Err(e);
        }
        let _ = episode.finish();
    }
    let report = episode.check().await?;
    episode.end().await?;
    Ok(report)
}

//! Manual control verbs: `tap`, `swipe`, `type`, `key`, `open`, `screen`, `screenshot`, `apps`.
//! Each runs one action through the same `Session` the MCP tools use and prints the outcome.

use std::path::PathBuf;

use anyhow::Context;

use super::Global;
use crate::device::image::Encoding;
use crate::geom::Point;
use crate::session::{Action, Control, Direction, ObserveOptions, Target};

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Tap a point (`tap 540 1200`), an element (`tap --element 12`) or text (`tap --text OK`).
    Tap {
        x: Option<i32>,
        y: Option<i32>,
        #[arg(long)]
        element: Option<u32>,
        #[arg(long)]
        text: Option<String>,
    },
    /// Swipe by direction (`swipe up`) or between points (`swipe 500 1800 500 600`).
    Swipe {
        /// `up`/`down`/`left`/`right`, or four numbers x1 y1 x2 y2.
        #[arg(num_args = 1..=4, allow_hyphen_values = true)]
        args: Vec<String>,
        #[arg(long, default_value_t = 300)]
        duration_ms: u32,
    },
    /// Type text into the focused field.
    Type {
        text: String,
        #[arg(long)]
        clear: bool,
        #[arg(long)]
        submit: bool,
    },
    /// Press a key by name (`back`, `home`, `enter`, …) or keycode.
    Key { key: String },
    /// Open an app by name ("clock", "Uhr") or package.
    Open { app: String },
    /// Print the settled screen's element list.
    Screen,
    /// Save a screenshot (PNG, or JPEG when the name ends in .jpg/.jpeg).
    Screenshot {
        out: PathBuf,
        #[arg(long)]
        annotate: bool,
        /// Long-edge limit in pixels (0 keeps the full resolution).
        #[arg(long, default_value_t = 0)]
        max_edge: u32,
    },
    /// List launchable apps.
    Apps,
}

pub async fn run(global: &Global, cmd: Command) -> anyhow::Result<i32> {
    let state = super::serve::state(global);
    let session = state.hub.open("cli", None).await?;
    let ctl = Control::default();
    let action = match cmd {
        Command::Tap {
            x,
            y,
            element,
            text,
        } => Action::Tap(match (x, y, element, text) {
            (Some(x), Some(y), None, None) => Target::Point(Point::new(x, y)),
            (None, None, Some(id), None) => Target::Element(id),
            (None, None, None, Some(t)) => Target::Text(t),
            _ => anyhow::bail!("tap needs X Y, --element ID or --text TEXT"),
        }),
        Command::Swipe { args, duration_ms } => match args.as_slice() {
            [d] => Action::SwipeDirection {
                direction: Direction::parse(d)
                    .with_context(|| format!("{d:?} is not up, down, left or right"))?,
                from: None,
                distance: None,
                duration_ms,
            },
            [x1, y1, x2, y2] => {
                let n = |s: &String| {
                    s.parse::<i32>()
                        .with_context(|| format!("{s:?} is not a number"))
                };
                Action::Swipe {
                    from: Target::Point(Point::new(n(x1)?, n(y1)?)),
                    to: Target::Point(Point::new(n(x2)?, n(y2)?)),
                    duration_ms,
                }
            }
            _ => anyhow::bail!("swipe needs a direction or x1 y1 x2 y2"),
        },
        Command::Type {
            text,
            clear,
            submit,
        } => Action::TypeText {
            text,
            into: None,
            clear,
            submit,
        },
        Command::Key { key } => Action::PressKey { key },
        Command::Open { app } => Action::OpenApp { app },
        Command::Screen => {
            let obs = session.observe(&ObserveOptions::default(), &ctl).await?;
            if let Some(fg) = &obs.foreground {
                println!("foreground: {}", fg.package);
            }
            println!("screen: {}x{}", obs.size.width, obs.size.height);
            println!("{}", obs.elements.unwrap_or_default());
            return Ok(0);
        }
        Command::Screenshot {
            out,
            annotate,
            max_edge,
        } => {
            let jpeg = out
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"));
            let opts = ObserveOptions {
                elements: false,
                screenshot: true,
                annotate,
                max_edge: if max_edge == 0 { u32::MAX } else { max_edge },
                encoding: if jpeg {
                    Encoding::Jpeg(85)
                } else {
                    Encoding::Png
                },
                xml: false,
            };
            let obs = session.observe(&opts, &ctl).await?;
            let shot = obs
                .screenshot
                .context("the device returned no screenshot")?;
            std::fs::write(&out, &shot.bytes)
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!(
                "{}: {}x{} (scale {:.4})",
                out.display(),
                shot.width,
                shot.height,
                shot.scale
            );
            return Ok(0);
        }
        Command::Apps => {
            for app in session.apps().await? {
                println!("{}\t{}", app.package, app.label());
            }
            return Ok(0);
        }
    };
    let outcome = session.act(action, None, &ctl).await?;
    println!("{} ({} ms)", outcome.action, outcome.elapsed_ms);
    if let Some(d) = outcome.detail {
        println!("{d}");
    }
    Ok(0)
}

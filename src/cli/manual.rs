//! Manual control verbs: `tap`, `swipe`, `type`, `key`, `open`, `screen`, `screenshot`, `apps`.
//! Each runs one action through the same `Session` the MCP tools use and prints the outcome: on the
//! phone of a running `droidmcp serve --http` (`--server`, or the one announced while it runs), so a
//! sequence of verbs acts on one phone; else on a phone opened for this command alone.

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
        /// X in screen pixels (with Y).
        x: Option<i32>,
        /// Y in screen pixels (with X).
        y: Option<i32>,
        /// An element id from the last `droidmcp screen`.
        #[arg(long)]
        element: Option<u32>,
        /// Visible text (or description) of the element to tap.
        #[arg(long)]
        text: Option<String>,
    },
    /// Swipe by direction (`swipe up`) or between points (`swipe 500 1800 500 600`).
    Swipe {
        /// `up`/`down`/`left`/`right` (the finger's direction), or four numbers x1 y1 x2 y2.
        #[arg(num_args = 1..=4)]
        args: Vec<String>,
        /// How long the finger moves, in milliseconds.
        #[arg(long, default_value_t = 300)]
        duration_ms: u32,
    },
    /// Type text into the focused field.
    Type {
        /// The text (any script).
        text: String,
        /// Empty the field first.
        #[arg(long)]
        clear: bool,
        /// Press Enter afterwards.
        #[arg(long)]
        submit: bool,
    },
    /// Press a key by name (`back`, `home`, `enter`, …) or keycode.
    Key {
        /// Key name or Android keycode.
        key: String,
    },
    /// Open an app by name ("clock", "Uhr") or package.
    Open {
        /// App name in any language, or package.
        app: String,
    },
    /// Print the settled screen's element list.
    Screen,
    /// Save a screenshot (PNG, or JPEG when the name ends in .jpg/.jpeg).
    Screenshot {
        /// File to write.
        out: PathBuf,
        /// Draw each element's box and id (the MCP `screenshot` tool's marks).
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
    // An explicit device or environment means a phone of its own unless a server is named.
    let own_phone = global.server.is_none() && (global.device.is_some() || global.env.is_some());
    if !own_phone {
        let token = std::env::var("DROIDMCP_TOKEN").ok();
        if let Some(server) = super::remote::Server::find(global.server.as_deref(), token).await {
            return remote(&server, global.device.as_deref(), cmd).await;
        }
        eprintln!(
            "droidmcp: no `droidmcp serve --http` is running, so this command has a fresh embedded \
             phone of its own; `droidmcp serve --http 127.0.0.1:8765 --detach` keeps one for the \
             commands that follow"
        );
    }
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
        Command::Swipe { args, duration_ms } => match swipe_args(&args)? {
            SwipeArgs::Direction(direction) => Action::SwipeDirection {
                direction,
                from: None,
                distance: None,
                duration_ms,
            },
            SwipeArgs::Between(from, to) => Action::Swipe {
                from: Target::Point(from),
                to: Target::Point(to),
                duration_ms,
            },
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
            let fg = obs.foreground.as_ref().map(|f| f.package.as_str());
            let list = obs.elements.as_deref().unwrap_or_default();
            print_screen(fg, obs.size.width, obs.size.height, list);
            return Ok(0);
        }
        Command::Screenshot {
            out,
            annotate,
            max_edge,
        } => {
            let opts = ObserveOptions {
                elements: false,
                screenshot: true,
                annotate,
                max_edge: if max_edge == 0 { u32::MAX } else { max_edge },
                encoding: if is_jpeg(&out) {
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
            save_shot(&out, &shot.bytes, (shot.width, shot.height), shot.scale)?;
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
    print_outcome(
        &outcome.action,
        outcome.elapsed_ms,
        outcome.detail.as_deref(),
    );
    Ok(0)
}

/// What `swipe` was given: a direction, or two points.
enum SwipeArgs {
    Direction(Direction),
    Between(Point, Point),
}

fn swipe_args(args: &[String]) -> anyhow::Result<SwipeArgs> {
    let n = |s: &String| {
        s.parse::<i32>()
            .with_context(|| format!("{s:?} is not a number"))
    };
    match args {
        [d] => Direction::parse(d)
            .map(SwipeArgs::Direction)
            .with_context(|| format!("{d:?} is not up, down, left or right")),
        [x1, y1, x2, y2] => Ok(SwipeArgs::Between(
            Point::new(n(x1)?, n(y1)?),
            Point::new(n(x2)?, n(y2)?),
        )),
        _ => anyhow::bail!("swipe needs a direction or x1 y1 x2 y2"),
    }
}

fn is_jpeg(out: &std::path::Path) -> bool {
    out.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("jpg") || e.eq_ignore_ascii_case("jpeg"))
}

fn save_shot(
    out: &std::path::Path,
    bytes: &[u8],
    (width, height): (u32, u32),
    scale: f64,
) -> anyhow::Result<()> {
    std::fs::write(out, bytes).with_context(|| format!("cannot write {}", out.display()))?;
    println!("{}: {width}x{height} (scale {scale:.4})", out.display());
    Ok(())
}

fn print_screen(foreground: Option<&str>, width: i32, height: i32, elements: &str) {
    if let Some(fg) = foreground {
        println!("foreground: {fg}");
    }
    println!("screen: {width}x{height}");
    println!("{elements}");
}

fn print_outcome(action: &str, elapsed_ms: u64, detail: Option<&str>) {
    println!("{action} ({elapsed_ms} ms)");
    if let Some(d) = detail {
        println!("{d}");
    }
}

/// A swipe's end `distance` from `from` in the finger's `direction`.
fn swipe_end(from: Point, direction: Direction, distance: i32) -> Point {
    match direction {
        Direction::Up => Point::new(from.x, from.y - distance),
        Direction::Down => Point::new(from.x, from.y + distance),
        Direction::Left => Point::new(from.x - distance, from.y),
        Direction::Right => Point::new(from.x + distance, from.y),
    }
}

/// The verb on the phone of a running server, through its REST routes.
async fn remote(
    server: &super::remote::Server,
    device: Option<&str>,
    cmd: Command,
) -> anyhow::Result<i32> {
    use crate::http::phone_wire::{ActionIn, TargetIn};
    let point = |p: Point| TargetIn {
        x: Some(p.x),
        y: Some(p.y),
        ..TargetIn::default()
    };
    let action = match cmd {
        Command::Tap {
            x,
            y,
            element,
            text,
        } => ActionIn::Tap {
            at: TargetIn {
                x,
                y,
                element,
                text,
            },
        },
        Command::Swipe { args, duration_ms } => {
            let (from, to) = match swipe_args(&args)? {
                SwipeArgs::Between(from, to) => (from, to),
                SwipeArgs::Direction(direction) => {
                    // As the session swipes a direction: from the middle, a third of the screen.
                    let [w, h] = server.screen(device, false, 1024).await?.size;
                    let distance = match direction {
                        Direction::Up | Direction::Down => h / 3,
                        Direction::Left | Direction::Right => w / 3,
                    };
                    let from = Point::new(w / 2, h / 2);
                    (from, swipe_end(from, direction, distance))
                }
            };
            ActionIn::Swipe {
                from: point(from),
                to: point(to),
                duration_ms: Some(duration_ms),
            }
        }
        Command::Type {
            text,
            clear,
            submit,
        } => ActionIn::TypeText {
            text,
            clear,
            submit,
        },
        Command::Key { key } => ActionIn::PressKey { key },
        Command::Open { app } => ActionIn::OpenApp { app },
        Command::Screen => {
            let screen = server.screen(device, false, 1024).await?;
            let fg = screen.foreground.as_ref().map(|f| f.package.as_str());
            print_screen(fg, screen.size[0], screen.size[1], &screen.compact);
            return Ok(0);
        }
        Command::Screenshot {
            out,
            annotate,
            max_edge,
        } => {
            anyhow::ensure!(
                !annotate,
                "--annotate is drawn by a phone of this command's own: pass --device, or use the MCP `screenshot` tool of the server at {}",
                server.base()
            );
            let edge = if max_edge == 0 { 4096 } else { max_edge };
            let screen = server.screen(device, true, edge).await?;
            let shot = screen
                .screenshot
                .context("the server returned no screenshot")?;
            let png =
                base64::Engine::decode(&base64::engine::general_purpose::STANDARD, &shot.data)
                    .context("the server's screenshot is not base64")?;
            let bytes = if is_jpeg(&out) {
                // The REST screen carries PNG; a .jpg name gets JPEG as it does locally.
                let mut jpeg = Vec::new();
                image::load_from_memory(&png)
                    .context("decoding the server's PNG")?
                    .to_rgb8()
                    .write_to(
                        &mut std::io::Cursor::new(&mut jpeg),
                        image::ImageFormat::Jpeg,
                    )
                    .context("encoding JPEG")?;
                jpeg
            } else {
                png
            };
            save_shot(&out, &bytes, (shot.width, shot.height), shot.scale)?;
            return Ok(0);
        }
        Command::Apps => {
            for app in server.apps(device).await?.apps {
                println!("{}\t{}", app.package, app.label);
            }
            return Ok(0);
        }
    };
    let outcome = server.act(device, &action).await?;
    print_outcome(
        &outcome.action,
        outcome.elapsed_ms,
        outcome.detail.as_deref(),
    );
    Ok(0)
}

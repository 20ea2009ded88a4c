//! AndroidWorld's M3A: each turn shows the screen twice, as it is and with set-of-marks labels whose
//! numbers are the element list's indexes, and asks for `Reason: … Action: {…}`; after each action
//! the step is summarised ([`super::summary`]) with the marked screens before and after.

use crate::session::{Observation, Screen, SessionError};
use droidmcp_device::image::{self, Encoding, Screenshot};
use droidmcp_llm::{Message, Part};

use super::Goal;

const SYSTEM: &str = include_str!("../../../../prompts/agent-m3a-system.md");
const TURN: &str = include_str!("../../../../prompts/agent-m3a-turn.md");

/// The images M3A is shown, JPEG quality as the other agents' screenshots.
const QUALITY: u8 = 80;

/// One screen as M3A sees it: the screenshot as it is and the same with marks.
#[derive(Debug, Clone)]
pub struct Frames {
    pub raw: Vec<u8>,
    pub marked: Vec<u8>,
}

impl Frames {
    /// Both images of `obs`, which was observed as [`observe_options`] asks: a lossless screenshot
    /// (marks drawn on a JPEG would sit on its artefacts) and the dump its element list came from,
    /// so the marks carry the list's numbers.
    pub fn of(obs: &Observation) -> Result<Frames, SessionError> {
        let (Some(shot), Some(xml)) = (&obs.screenshot, &obs.xml) else {
            return Err(SessionError::Hierarchy(
                "the observation has no screenshot or no dump to mark".into(),
            ));
        };
        let img = decode(shot)?;
        let screen =
            Screen::parse(xml.clone()).map_err(|e| SessionError::Hierarchy(e.to_string()))?;
        let marked = screen.annotate(&img, shot.scale);
        Ok(Frames {
            raw: image::encode(&img, Encoding::Jpeg(QUALITY))?,
            marked: image::encode(&marked, Encoding::Jpeg(QUALITY))?,
        })
    }
}

fn decode(shot: &Screenshot) -> Result<::image::RgbaImage, image::ImageError> {
    match shot.encoding {
        Encoding::Png => image::decode_png(&shot.bytes),
        Encoding::Jpeg(_) => ::image::load_from_memory(&shot.bytes)
            .map(|i| i.to_rgba8())
            .map_err(|e| image::ImageError::Decode(e.to_string())),
    }
}

/// What M3A observes: the element list, a lossless screenshot and the dump (for the marks).
pub fn observe_options() -> crate::session::ObserveOptions {
    crate::session::ObserveOptions {
        elements: true,
        screenshot: true,
        annotate: false,
        max_edge: 1024,
        encoding: Encoding::Png,
        xml: true,
    }
}

/// One action request: the system message, then the goal, history and elements with the two images.
pub fn turn_messages(
    goal: &Goal,
    steps_left: u32,
    history: &str,
    foreground: &str,
    obs: &Observation,
    frames: &Frames,
) -> Vec<Message> {
    let text = super::turn_text(TURN, goal, steps_left, history, foreground, obs);
    vec![
        Message::system(SYSTEM),
        Message::user(vec![
            Part::Text(text),
            Part::Jpeg(frames.raw.clone()),
            Part::Jpeg(frames.marked.clone()),
        ]),
    ]
}

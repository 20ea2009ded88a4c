//! The named icons `Style::icon` refers to, drawn as anti-aliased vector shapes on a 24-unit grid
//! (Material icon proportions) so they stay sharp at every density.

use super::canvas::{sdf, Canvas, Rgba};
use droidmcp_geom::Bounds;

/// One primitive on the 24×24 grid; an icon is the union of its primitives.
#[derive(Debug, Clone, Copy)]
enum P {
    /// x1, y1, x2, y2, stroke width.
    Line(f32, f32, f32, f32, f32),
    /// Filled disc: cx, cy, r.
    Dot(f32, f32, f32),
    /// Circle outline: cx, cy, r, stroke width.
    Ring(f32, f32, f32, f32),
    /// Filled rounded box: left, top, right, bottom, corner radius.
    Fill(f32, f32, f32, f32, f32),
    /// Box outline: left, top, right, bottom, corner radius, stroke width.
    Frame(f32, f32, f32, f32, f32, f32),
    /// Arc: cx, cy, r, stroke width, start and end angle in degrees (0 = right, 90 = down).
    Arc(f32, f32, f32, f32, f32, f32),
    /// Filled polygon.
    Poly(&'static [(f32, f32)]),
}

impl P {
    fn distance(&self, x: f32, y: f32) -> f32 {
        match *self {
            P::Line(x1, y1, x2, y2, w) => sdf::segment(x, y, (x1, y1), (x2, y2), w / 2.0),
            P::Dot(cx, cy, r) => sdf::circle(x, y, cx, cy, r),
            P::Ring(cx, cy, r, w) => sdf::circle(x, y, cx, cy, r).abs() - w / 2.0,
            P::Fill(l, t, r, b, rad) => sdf::round_box(x, y, l, t, r, b, rad),
            P::Frame(l, t, r, b, rad, w) => sdf::round_box(x, y, l, t, r, b, rad).abs() - w / 2.0,
            P::Arc(cx, cy, r, w, a0, a1) => {
                sdf::arc(x, y, (cx, cy), r, w / 2.0, a0.to_radians(), a1.to_radians())
            }
            P::Poly(pts) => sdf::polygon(x, y, pts),
        }
    }
}

const W: f32 = 2.0;

const AIRPLANE_WINGS: &[(f32, f32)] = &[
    (12.0, 8.5),
    (21.0, 13.5),
    (21.0, 15.5),
    (12.0, 12.5),
    (3.0, 15.5),
    (3.0, 13.5),
];
const AIRPLANE_TAIL: &[(f32, f32)] = &[
    (12.0, 17.0),
    (15.5, 19.5),
    (15.5, 21.0),
    (12.0, 20.0),
    (8.5, 21.0),
    (8.5, 19.5),
];
const SEND: &[(f32, f32)] = &[(3.0, 4.0), (21.0, 12.0), (3.0, 20.0), (5.0, 12.0)];
const PLAY: &[(f32, f32)] = &[(8.0, 5.0), (19.0, 12.0), (8.0, 19.0)];
const SPEAKER: &[(f32, f32)] = &[
    (3.0, 9.0),
    (7.0, 9.0),
    (12.0, 4.0),
    (12.0, 20.0),
    (7.0, 15.0),
    (3.0, 15.0),
];
const MESSAGE_TAIL: &[(f32, f32)] = &[(6.0, 16.0), (6.0, 21.0), (11.0, 16.0)];

/// The primitives of a named icon, or `None` for a name the renderer does not know.
fn shapes(name: &str) -> Option<Vec<P>> {
    use P::*;
    let s = match name {
        "back" => vec![
            Line(16.0, 5.0, 7.0, 12.0, W),
            Line(7.0, 12.0, 16.0, 19.0, W),
            Line(16.0, 19.0, 16.0, 5.0, W),
        ],
        "arrow_back" | "navigate_up" => vec![
            Line(5.0, 12.0, 19.0, 12.0, W),
            Line(5.0, 12.0, 11.0, 6.0, W),
            Line(5.0, 12.0, 11.0, 18.0, W),
        ],
        "chevron_right" => vec![
            Line(9.0, 6.0, 15.0, 12.0, W),
            Line(15.0, 12.0, 9.0, 18.0, W),
        ],
        "expand" | "arrow_drop_down" => vec![
            Line(6.0, 9.0, 12.0, 15.0, W),
            Line(12.0, 15.0, 18.0, 9.0, W),
        ],
        "collapse" | "arrow_drop_up" => vec![
            Line(6.0, 15.0, 12.0, 9.0, W),
            Line(12.0, 9.0, 18.0, 15.0, W),
        ],
        "home" => vec![Ring(12.0, 12.0, 7.5, W)],
        "recents" | "overview" => vec![Frame(6.0, 6.0, 18.0, 18.0, 2.0, W)],
        "add" => vec![
            Line(12.0, 5.0, 12.0, 19.0, W),
            Line(5.0, 12.0, 19.0, 12.0, W),
        ],
        "remove" | "minus" => vec![Line(5.0, 12.0, 19.0, 12.0, W)],
        "close" | "clear" => vec![Line(6.0, 6.0, 18.0, 18.0, W), Line(18.0, 6.0, 6.0, 18.0, W)],
        "check" | "done" => vec![
            Line(5.0, 12.5, 10.0, 17.5, W),
            Line(10.0, 17.5, 19.5, 7.0, W),
        ],
        "alarm" => vec![
            Ring(12.0, 13.0, 7.5, W),
            Line(12.0, 9.0, 12.0, 13.0, 1.8),
            Line(12.0, 13.0, 15.0, 15.0, 1.8),
            Line(3.5, 6.5, 7.0, 3.5, W),
            Line(20.5, 6.5, 17.0, 3.5, W),
        ],
        "clock" | "schedule" | "access_time" => vec![
            Ring(12.0, 12.0, 9.0, W),
            Line(12.0, 7.0, 12.0, 12.0, 1.8),
            Line(12.0, 12.0, 15.5, 14.5, 1.8),
        ],
        "timer" | "hourglass" => vec![
            Line(6.0, 3.0, 18.0, 3.0, W),
            Line(6.0, 21.0, 18.0, 21.0, W),
            Line(7.0, 3.0, 17.0, 21.0, 1.8),
            Line(17.0, 3.0, 7.0, 21.0, 1.8),
        ],
        "stopwatch" => vec![
            Ring(12.0, 13.5, 7.5, W),
            Line(12.0, 13.5, 12.0, 9.0, 1.8),
            Fill(10.0, 2.0, 14.0, 4.0, 0.5),
            Line(18.0, 6.0, 19.5, 4.5, 1.8),
        ],
        "bedtime" | "dark_mode" => vec![
            Arc(12.0, 12.0, 8.0, W, 60.0, 330.0),
            Arc(16.0, 8.0, 6.0, 1.5, 100.0, 200.0),
        ],
        "wifi" | "network" => vec![
            Arc(12.0, 20.0, 15.0, W, 225.0, 315.0),
            Arc(12.0, 20.0, 10.0, W, 225.0, 315.0),
            Arc(12.0, 20.0, 5.0, W, 225.0, 315.0),
            Dot(12.0, 19.0, 1.8),
        ],
        "bluetooth" => vec![
            Line(7.0, 7.0, 17.0, 16.5, 1.8),
            Line(17.0, 16.5, 12.0, 21.0, 1.8),
            Line(12.0, 21.0, 12.0, 3.0, 1.8),
            Line(12.0, 3.0, 17.0, 7.5, 1.8),
            Line(17.0, 7.5, 7.0, 17.0, 1.8),
        ],
        "airplane" | "airplanemode" => vec![
            Fill(11.0, 2.5, 13.0, 20.0, 1.0),
            Poly(AIRPLANE_WINGS),
            Poly(AIRPLANE_TAIL),
        ],
        "battery" => vec![
            Frame(7.0, 4.5, 17.0, 21.0, 1.5, 1.8),
            Fill(10.0, 2.0, 14.0, 4.5, 0.5),
            Fill(9.5, 11.0, 14.5, 18.5, 0.5),
        ],
        "signal" | "cell" => vec![Poly(&[(3.0, 21.0), (21.0, 21.0), (21.0, 3.0)])],
        "search" => vec![Ring(10.0, 10.0, 6.0, W), Line(14.5, 14.5, 20.0, 20.0, 2.4)],
        // The call log's call types (Material call_missed, call_received, call_made).
        "call_missed" => vec![
            Line(5.0, 9.0, 12.0, 16.0, W),
            Line(12.0, 16.0, 19.5, 8.5, W),
            Line(5.0, 9.0, 5.0, 14.0, W),
            Line(5.0, 9.0, 10.0, 9.0, W),
        ],
        "call_received" => vec![
            Line(19.0, 5.0, 6.0, 18.0, W),
            Line(6.0, 18.0, 6.0, 11.0, W),
            Line(6.0, 18.0, 13.0, 18.0, W),
        ],
        "call_made" => vec![
            Line(5.0, 19.0, 18.0, 6.0, W),
            Line(18.0, 6.0, 11.0, 6.0, W),
            Line(18.0, 6.0, 18.0, 13.0, W),
        ],
        "call" | "phone" | "dialer" => vec![
            Arc(17.0, 7.0, 10.0, 3.0, 90.0, 180.0),
            Fill(14.5, 14.0, 20.0, 19.5, 1.5),
            Fill(4.5, 4.0, 10.0, 9.5, 1.5),
        ],
        "call_end" => vec![
            Arc(12.0, 19.0, 9.0, 3.0, 200.0, 340.0),
            Fill(2.0, 12.0, 7.5, 16.5, 1.5),
            Fill(16.5, 12.0, 22.0, 16.5, 1.5),
        ],
        "dialpad" => {
            let mut v = Vec::new();
            for r in 0..4 {
                for c in 0..3 {
                    if r < 3 || c == 1 {
                        v.push(Dot(6.0 + 6.0 * c as f32, 3.5 + 5.5 * r as f32, 1.8));
                    }
                }
            }
            v
        }
        "message" | "messages" | "sms" | "chat" => vec![
            Frame(3.5, 3.5, 20.5, 16.5, 2.0, 1.8),
            Poly(MESSAGE_TAIL),
            Line(7.5, 8.5, 16.5, 8.5, 1.6),
            Line(7.5, 11.5, 13.5, 11.5, 1.6),
        ],
        "send" => vec![Poly(SEND)],
        "backspace" | "del" => vec![
            Line(8.0, 5.0, 21.0, 5.0, 1.6),
            Line(21.0, 5.0, 21.0, 19.0, 1.6),
            Line(21.0, 19.0, 8.0, 19.0, 1.6),
            Line(8.0, 19.0, 2.0, 12.0, 1.6),
            Line(2.0, 12.0, 8.0, 5.0, 1.6),
            Line(11.5, 9.0, 17.0, 15.0, 1.6),
            Line(17.0, 9.0, 11.5, 15.0, 1.6),
        ],
        "enter" | "keyboard_return" => vec![
            Line(19.0, 6.0, 19.0, 13.0, W),
            Line(19.0, 13.0, 5.0, 13.0, W),
            Line(5.0, 13.0, 9.5, 8.5, W),
            Line(5.0, 13.0, 9.5, 17.5, W),
        ],
        "shift" => vec![
            Line(12.0, 4.0, 4.0, 12.5, 1.8),
            Line(12.0, 4.0, 20.0, 12.5, 1.8),
            Line(4.0, 12.5, 8.5, 12.5, 1.8),
            Line(15.5, 12.5, 20.0, 12.5, 1.8),
            Line(8.5, 12.5, 8.5, 20.0, 1.8),
            Line(15.5, 12.5, 15.5, 20.0, 1.8),
            Line(8.5, 20.0, 15.5, 20.0, 1.8),
        ],
        "settings" | "gear" => {
            let mut v = vec![Ring(12.0, 12.0, 5.0, 2.6)];
            for k in 0..8 {
                let a = (k as f32 * 45.0).to_radians();
                v.push(Line(
                    12.0 + 7.0 * a.cos(),
                    12.0 + 7.0 * a.sin(),
                    12.0 + 9.5 * a.cos(),
                    12.0 + 9.5 * a.sin(),
                    3.0,
                ));
            }
            v
        }
        "more" | "more_vert" => vec![
            Dot(12.0, 5.0, 2.0),
            Dot(12.0, 12.0, 2.0),
            Dot(12.0, 19.0, 2.0),
        ],
        "more_horiz" => vec![
            Dot(5.0, 12.0, 2.0),
            Dot(12.0, 12.0, 2.0),
            Dot(19.0, 12.0, 2.0),
        ],
        "menu" => vec![
            Line(4.0, 6.0, 20.0, 6.0, W),
            Line(4.0, 12.0, 20.0, 12.0, W),
            Line(4.0, 18.0, 20.0, 18.0, W),
        ],
        "delete" => vec![
            Frame(6.5, 7.5, 17.5, 20.5, 1.5, 1.8),
            Line(4.5, 5.5, 19.5, 5.5, 1.8),
            Fill(9.5, 3.0, 14.5, 5.0, 0.5),
        ],
        // A floppy disk: the body, its shutter and the label's hub.
        "save" => vec![
            Frame(4.5, 4.5, 19.5, 19.5, 1.5, 1.8),
            Fill(7.5, 4.5, 15.0, 9.0, 0.5),
            Ring(12.0, 14.5, 2.2, 1.8),
        ],
        "edit" => vec![
            Line(5.0, 19.0, 17.0, 7.0, 3.0),
            Line(18.5, 5.5, 19.0, 5.0, 3.0),
        ],
        "person" | "contacts" | "account" => {
            vec![Dot(12.0, 8.0, 4.0), Fill(4.5, 14.0, 19.5, 20.5, 4.0)]
        }
        "star" => vec![Poly(&[
            (12.0, 2.5),
            (14.7, 8.8),
            (21.5, 9.3),
            (16.3, 13.8),
            (17.9, 20.5),
            (12.0, 16.9),
            (6.1, 20.5),
            (7.7, 13.8),
            (2.5, 9.3),
            (9.3, 8.8),
        ])],
        "display" | "brightness" | "sun" => {
            let mut v = vec![Dot(12.0, 12.0, 4.0)];
            for k in 0..8 {
                let a = (k as f32 * 45.0).to_radians();
                v.push(Line(
                    12.0 + 6.5 * a.cos(),
                    12.0 + 6.5 * a.sin(),
                    12.0 + 9.0 * a.cos(),
                    12.0 + 9.0 * a.sin(),
                    1.8,
                ));
            }
            v
        }
        "sound" | "volume" | "volume_up" => vec![
            Poly(SPEAKER),
            Arc(12.0, 12.0, 4.5, 1.8, -50.0, 50.0),
            Arc(12.0, 12.0, 8.5, 1.8, -55.0, 55.0),
        ],
        "ring" | "notifications" | "bell" => vec![
            Arc(12.0, 11.0, 6.0, W, 180.0, 360.0),
            Line(6.0, 11.0, 6.0, 16.0, W),
            Line(18.0, 11.0, 18.0, 16.0, W),
            Line(4.0, 17.0, 20.0, 17.0, W),
            Dot(12.0, 20.0, 1.8),
        ],
        "apps" => {
            let mut v = Vec::new();
            for r in 0..3 {
                for c in 0..3 {
                    v.push(Fill(
                        3.5 + 6.5 * c as f32,
                        3.5 + 6.5 * r as f32,
                        7.5 + 6.5 * c as f32,
                        7.5 + 6.5 * r as f32,
                        1.0,
                    ));
                }
            }
            v
        }
        "info" | "system" => vec![
            Ring(12.0, 12.0, 9.0, 1.8),
            Line(12.0, 11.0, 12.0, 17.0, 2.2),
            Dot(12.0, 7.5, 1.4),
        ],
        "language" | "globe" => vec![
            Ring(12.0, 12.0, 9.0, 1.6),
            Line(3.0, 12.0, 21.0, 12.0, 1.4),
            Arc(20.0, 12.0, 10.0, 1.4, 130.0, 230.0),
            Arc(4.0, 12.0, 10.0, 1.4, -50.0, 50.0),
        ],
        "devices" | "connected_devices" => vec![
            Frame(2.5, 5.0, 16.0, 15.0, 1.0, 1.6),
            Line(1.0, 18.5, 16.0, 18.5, 1.8),
            Frame(17.5, 9.0, 22.5, 19.5, 1.0, 1.4),
        ],
        "folder" | "move" => vec![
            Fill(2.5, 7.0, 21.5, 19.5, 1.5),
            Fill(2.5, 4.5, 10.0, 8.0, 1.0),
        ],
        "file" | "note" | "description" => vec![
            Frame(5.0, 2.5, 19.0, 21.5, 1.5, 1.8),
            Line(8.5, 9.0, 15.5, 9.0, 1.6),
            Line(8.5, 13.0, 15.5, 13.0, 1.6),
            Line(8.5, 17.0, 13.0, 17.0, 1.6),
        ],
        "sort" => vec![
            Line(4.0, 7.0, 20.0, 7.0, 2.0),
            Line(4.0, 12.0, 15.0, 12.0, 2.0),
            Line(4.0, 17.0, 10.0, 17.0, 2.0),
        ],
        "select_all" => vec![
            Frame(4.0, 4.0, 20.0, 20.0, 1.0, 1.6),
            Line(8.0, 12.0, 11.0, 15.0, 2.0),
            Line(11.0, 15.0, 16.5, 9.0, 2.0),
        ],
        "storage" => vec![
            Frame(4.0, 4.0, 20.0, 20.0, 2.0, 1.8),
            Line(4.0, 14.0, 20.0, 14.0, 1.6),
            Dot(16.5, 17.0, 1.2),
        ],
        "calculator" => vec![
            Frame(5.0, 2.5, 19.0, 21.5, 2.0, 1.8),
            Fill(8.0, 5.5, 16.0, 9.0, 0.5),
            Dot(9.0, 12.5, 1.2),
            Dot(12.0, 12.5, 1.2),
            Dot(15.0, 12.5, 1.2),
            Dot(9.0, 16.5, 1.2),
            Dot(12.0, 16.5, 1.2),
            Dot(15.0, 16.5, 1.2),
        ],
        "calendar" | "event" => vec![
            Frame(3.5, 5.0, 20.5, 20.5, 2.0, 1.8),
            Line(3.5, 9.5, 20.5, 9.5, 1.8),
            Line(8.0, 3.0, 8.0, 6.5, 1.8),
            Line(16.0, 3.0, 16.0, 6.5, 1.8),
            Fill(12.5, 13.0, 16.5, 17.0, 0.5),
        ],
        "play" | "start" => vec![Poly(PLAY)],
        "pause" => vec![
            Fill(6.5, 5.0, 10.0, 19.0, 0.5),
            Fill(14.0, 5.0, 17.5, 19.0, 0.5),
        ],
        "stop" => vec![Fill(6.0, 6.0, 18.0, 18.0, 1.0)],
        "refresh" | "reset" => vec![
            Arc(12.0, 12.0, 7.5, W, -30.0, 270.0),
            Poly(&[(14.0, 2.5), (20.0, 4.5), (16.0, 9.5)]),
        ],
        "flag" | "lap" => vec![
            Line(6.0, 3.0, 6.0, 21.0, W),
            Poly(&[
                (6.0, 4.0),
                (18.0, 4.0),
                (15.0, 8.0),
                (18.0, 12.0),
                (6.0, 12.0),
            ]),
        ],
        // Material's "music_note": a filled head on a stem with its flag.
        "music_note" | "audio" => vec![
            Dot(9.5, 17.0, 3.5),
            Line(12.2, 17.0, 12.2, 4.0, 1.8),
            Line(12.2, 4.5, 17.5, 6.5, 2.4),
        ],
        // Material's "download": an arrow down onto a tray.
        "download" => vec![
            Line(12.0, 4.0, 12.0, 15.0, 1.8),
            Poly(&[(7.0, 11.0), (17.0, 11.0), (12.0, 16.5)]),
            Line(5.0, 19.5, 19.0, 19.5, 1.8),
        ],
        "mic" => vec![
            Fill(9.0, 3.0, 15.0, 14.0, 3.0),
            Arc(12.0, 10.0, 6.5, 1.8, 0.0, 180.0),
            Line(12.0, 16.5, 12.0, 20.5, 1.8),
        ],
        "keyboard" => vec![
            Frame(2.5, 6.0, 21.5, 18.0, 1.5, 1.6),
            Dot(6.5, 10.0, 1.0),
            Dot(10.0, 10.0, 1.0),
            Dot(14.0, 10.0, 1.0),
            Dot(17.5, 10.0, 1.0),
            Line(8.0, 14.0, 16.0, 14.0, 1.6),
        ],
        "emoji" => vec![
            Ring(12.0, 12.0, 9.0, 1.6),
            Dot(9.0, 10.0, 1.2),
            Dot(15.0, 10.0, 1.2),
            Arc(12.0, 12.0, 5.0, 1.6, 30.0, 150.0),
        ],
        "lock" => vec![
            Fill(5.0, 10.0, 19.0, 21.0, 2.0),
            Arc(12.0, 10.0, 4.5, W, 180.0, 360.0),
        ],
        "location" => vec![
            Ring(12.0, 9.5, 6.0, 2.2),
            Poly(&[(6.8, 12.5), (12.0, 21.5), (17.2, 12.5)]),
        ],
        "photo" | "image" => vec![
            Frame(3.5, 4.5, 20.5, 19.5, 2.0, 1.8),
            Poly(&[
                (6.0, 17.0),
                (10.0, 11.0),
                (13.0, 15.0),
                (15.0, 13.0),
                (18.0, 17.0),
            ]),
        ],
        "camera" => vec![
            Frame(3.0, 7.0, 21.0, 19.5, 2.0, 1.8),
            Fill(8.0, 4.0, 16.0, 7.5, 1.0),
            Ring(12.0, 13.0, 3.5, 1.8),
        ],
        "videocam" => vec![
            Fill(3.0, 6.5, 16.0, 17.5, 2.0),
            Poly(&[(16.5, 10.5), (21.0, 7.0), (21.0, 17.0), (16.5, 13.5)]),
        ],
        "record" => vec![Dot(12.0, 12.0, 7.0)],
        "help" => vec![
            Ring(12.0, 12.0, 9.0, 1.8),
            Arc(12.0, 9.5, 3.0, 1.8, 180.0, 420.0),
            Line(12.0, 12.5, 12.0, 14.0, 1.8),
            Dot(12.0, 17.0, 1.3),
        ],
        _ => return None,
    };
    Some(s)
}

/// Whether the renderer knows how to draw `name`.
pub fn known(name: &str) -> bool {
    shapes(name).is_some()
}

/// Draws the icon `name` scaled to fill the square `area`; returns false for an unknown name.
pub fn draw_icon(canvas: &mut Canvas, name: &str, area: Bounds, color: Rgba) -> bool {
    let Some(prims) = shapes(name) else {
        return false;
    };
    let size = area.width().min(area.height()) as f32;
    let unit = size / 24.0;
    let ox = area.left as f32 + (area.width() as f32 - size) / 2.0;
    let oy = area.top as f32 + (area.height() as f32 - size) / 2.0;
    // Distances are measured on the grid, then converted back to pixels for anti-aliasing.
    canvas.fill_sdf(area, color, |x, y| {
        let gx = (x - ox) / unit;
        let gy = (y - oy) / unit;
        prims
            .iter()
            .map(|p| p.distance(gx, gy))
            .fold(f32::MAX, f32::min)
            * unit
    });
    true
}

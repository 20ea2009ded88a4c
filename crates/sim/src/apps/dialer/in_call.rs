//! InCallUI's screens: the incoming call (Answer / Decline) and the call in progress (its timer
//! from the simulated clock, mute, keypad, speaker, hold, end).

use crate::apps::communication::{self, at, filled, text_style};
use crate::providers::{now_ms, phone_number};
use crate::system::System;
use crate::telephony::{self, Status};
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

use super::dialpad::keypad;
use super::{caller, CallScreen};
use super::{id, tr};

/// `mm:ss` (or `h:mm:ss`) as Android's Chronometer shows elapsed time.
fn elapsed(seconds: i64) -> String {
    let s = seconds.max(0);
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

/// The blue full-screen background of InCallUI.
fn in_call_root(sys: &System) -> View {
    View::new(class::FRAME_LAYOUT, sys.metrics.content).style(Style {
        background: Some([23, 78, 166, 255]),
        ..Style::default()
    })
}

/// InCallUI's contact grid: avatar, status line, caller, phone type and number, call timer.
fn contact_grid(sys: &System, number: &str, status: &str, timer: Option<i64>) -> View {
    let m = sys.metrics;
    let c = m.content;
    let white = [255, 255, 255, 255];
    let dim = [200, 205, 210, 255];
    let (contact, label) = caller(sys, number);
    let shown_number = phone_number::format_for_display(number);
    let name = contact.clone().unwrap_or_else(|| shown_number.clone());
    let grid = at(
        c,
        m.dp(24.0),
        m.dp(12.0),
        c.width() - m.dp(48.0),
        m.dp(200.0),
    );
    let mut contact_grid = View::new(class::LINEAR_LAYOUT, grid)
        .id(id("incall_contact_grid"))
        .child(
            View::new(
                class::IMAGE_VIEW,
                at(
                    grid,
                    (grid.width() - m.dp(56.0)) / 2,
                    0,
                    m.dp(56.0),
                    m.dp(56.0),
                ),
            )
            .id(id("contactgrid_avatar"))
            .style(Style {
                background: Some(communication::avatar_color(&name)),
                corner_radius: m.dp(28.0),
                ..Style::default()
            }),
        );
    if !status.is_empty() {
        contact_grid = contact_grid.child(
            View::new(
                class::TEXT_VIEW,
                at(grid, 0, m.dp(64.0), grid.width(), m.sp(22.0)),
            )
            .id(id("contactgrid_status_text"))
            .text(status)
            .style(Style {
                center_text: true,
                ..text_style(14.0, dim)
            }),
        );
    }
    contact_grid = contact_grid.child(
        View::new(
            class::TEXT_VIEW,
            at(grid, 0, m.dp(64.0) + m.sp(24.0), grid.width(), m.sp(44.0)),
        )
        .id(id("contactgrid_contact_name"))
        .text(name)
        .style(Style {
            center_text: true,
            ..text_style(34.0, white)
        }),
    );
    let bottom_top = m.dp(68.0) + m.sp(68.0);
    if let (Some(label), Some(_)) = (&label, &contact) {
        contact_grid = contact_grid.child(
            View::new(
                class::TEXT_VIEW,
                at(grid, 0, bottom_top, grid.width() / 2, m.sp(22.0)),
            )
            .id(id("contactgrid_bottom_text"))
            .text(format!("{label} {shown_number}"))
            .style(text_style(14.0, dim)),
        );
    }
    if let Some(seconds) = timer {
        contact_grid = contact_grid.child(
            View::new(
                class::TEXT_VIEW,
                at(
                    grid,
                    grid.width() / 2,
                    bottom_top,
                    grid.width() / 2,
                    m.sp(22.0),
                ),
            )
            .id(id("contactgrid_bottom_timer"))
            .text(elapsed(seconds))
            .style(text_style(14.0, dim)),
        );
    }
    contact_grid
}

/// The incoming-call screen: who calls, and the Dialer's two-button answer method (Answer,
/// Decline) with its resource ids.
pub(super) fn render_incoming(sys: &System, call: &telephony::Call) -> View {
    let m = sys.metrics;
    let c = m.content;
    let white = [255, 255, 255, 255];
    let size = m.dp(64.0);
    let top = c.bottom - m.dp(72.0) - size - m.sp(20.0);
    let mut method = View::new(
        class::FRAME_LAYOUT,
        Bounds::new(c.left, top - m.dp(40.0), c.right, c.bottom),
    )
    .id(id("answer_method_container"))
    .child(
        View::new(
            class::TEXT_VIEW,
            Bounds::new(c.left, top - m.dp(40.0), c.right, top - m.dp(12.0)),
        )
        .id(id("two_button_hint_text"))
        .text(tr(sys, "call_incoming_two_button_hint"))
        .style(Style {
            center_text: true,
            ..text_style(14.0, [200, 205, 210, 255])
        }),
    );
    for (i, (button, label, tag, desc, color, icon)) in [
        (
            "two_button_decline_button",
            "two_button_decline_label",
            "decline",
            tr(sys, "call_incoming_decline"),
            [217, 48, 37, 255],
            "call_end",
        ),
        (
            "two_button_answer_button",
            "two_button_answer_label",
            "answer",
            tr(sys, "call_incoming_answer"),
            [30, 142, 62, 255],
            "call",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let center = c.left + c.width() * (1 + 2 * i as i32) / 4;
        let b = Bounds::new(center - size / 2, top, center + size / 2, top + size);
        method = method
            .child(
                View::new(class::IMAGE_BUTTON, b)
                    .id(id(button))
                    .desc(desc)
                    .on_click(tag)
                    .style(Style {
                        icon: Some(icon),
                        ..filled(color, white, size / 2)
                    }),
            )
            .child(
                View::new(
                    class::TEXT_VIEW,
                    Bounds::new(
                        center - m.dp(60.0),
                        b.bottom + m.dp(8.0),
                        center + m.dp(60.0),
                        b.bottom + m.dp(8.0) + m.sp(20.0),
                    ),
                )
                .id(id(label))
                .text(desc)
                .style(Style {
                    center_text: true,
                    ..text_style(14.0, white)
                }),
            );
    }
    in_call_root(sys)
        .child(contact_grid(
            sys,
            &call.number,
            tr(sys, "incoming_call"),
            None,
        ))
        .child(method)
}

pub(super) fn render_in_call(sys: &System, call: &telephony::Call, screen: &CallScreen) -> View {
    let m = sys.metrics;
    let c = m.content;
    let white = [255, 255, 255, 255];
    let held = call.status == Status::Held;
    let emergency = phone_number::is_emergency(&call.number);
    let seconds = (now_ms(sys) - call.connected_ms.unwrap_or(call.created_ms)) / 1000;
    let status = if emergency {
        tr(sys, "emergency_call")
    } else if held {
        tr(sys, "on_hold")
    } else if call.direction == telephony::Direction::Outgoing && seconds < 2 {
        tr(sys, "calling")
    } else {
        ""
    };
    let timer = (status.is_empty() || held).then_some(seconds);
    let mut root = in_call_root(sys).child(contact_grid(sys, &call.number, status, timer));

    let end_size = m.dp(64.0);
    let end = Bounds::new(
        c.left + (c.width() - end_size) / 2,
        c.bottom - m.dp(36.0) - end_size,
        c.left + (c.width() + end_size) / 2,
        c.bottom - m.dp(36.0),
    );
    if screen.keypad {
        let pad_area = Bounds::new(
            c.left,
            end.top - m.dp(16.0) - m.dp(64.0) * 4,
            c.right,
            end.top - m.dp(16.0),
        );
        let mut pad = View::new(class::FRAME_LAYOUT, pad_area).id(id("incall_dialpad_container"));
        if !screen.dtmf.is_empty() {
            pad = pad.child(
                View::new(
                    class::EDIT_TEXT,
                    at(
                        pad_area,
                        m.dp(24.0),
                        -m.dp(56.0),
                        pad_area.width() - m.dp(48.0),
                        m.dp(48.0),
                    ),
                )
                .id(id("digits"))
                .text(screen.dtmf.clone())
                .style(Style {
                    center_text: true,
                    ..text_style(28.0, white)
                }),
            );
        }
        root = root.child(pad.children(keypad(sys, pad_area)));
    } else {
        let buttons = [
            (
                "incall_first_button",
                tr(sys, "mute"),
                "mute",
                screen.muted,
                true,
                "mic_off",
            ),
            (
                "incall_second_button",
                tr(sys, "keypad"),
                "keypad",
                screen.keypad,
                false,
                "dialpad",
            ),
            (
                "incall_third_button",
                tr(sys, "speaker"),
                "speaker",
                screen.speaker,
                true,
                "speaker",
            ),
            (
                "incall_fourth_button",
                tr(sys, "add_call"),
                "add_call",
                false,
                false,
                "add_call",
            ),
            (
                "incall_fifth_button",
                tr(sys, "hold"),
                "hold",
                held,
                true,
                "pause",
            ),
            (
                "incall_sixth_button",
                tr(sys, "video_call"),
                "video",
                false,
                false,
                "videocam",
            ),
        ];
        let grid_area = Bounds::new(
            c.left + m.dp(24.0),
            end.top - m.dp(24.0) - m.dp(96.0) * 2,
            c.right - m.dp(24.0),
            end.top - m.dp(24.0),
        );
        let cell_w = grid_area.width() / 3;
        let cell_h = m.dp(96.0);
        let mut grid_view = View::new(class::VIEW_GROUP, grid_area).id(id("incall_button_grid"));
        for (i, (button_id, label, tag, on, checkable, icon)) in buttons.into_iter().enumerate() {
            let (row, col) = (i as i32 / 3, i as i32 % 3);
            let b = Bounds::new(
                grid_area.left + cell_w * col,
                grid_area.top + cell_h * row,
                grid_area.left + cell_w * (col + 1),
                grid_area.top + cell_h * (row + 1),
            );
            let mut button = View::new(
                if checkable {
                    class::TOGGLE_BUTTON
                } else {
                    class::BUTTON
                },
                b,
            )
            .id(id(button_id))
            .desc(label)
            .enabled(!emergency || tag != "hold")
            .child(
                View::new(
                    class::IMAGE_VIEW,
                    at(
                        b,
                        (b.width() - m.dp(48.0)) / 2,
                        m.dp(8.0),
                        m.dp(48.0),
                        m.dp(48.0),
                    ),
                )
                .style(Style {
                    icon: Some(icon),
                    background: on.then_some(white),
                    corner_radius: m.dp(24.0),
                    text_color: Some(if on { [23, 78, 166, 255] } else { white }),
                    ..Style::default()
                }),
            )
            .child(
                View::new(
                    class::TEXT_VIEW,
                    at(b, 0, m.dp(60.0), b.width(), m.sp(20.0)),
                )
                .text(label)
                .style(Style {
                    center_text: true,
                    ..text_style(12.0, white)
                }),
            );
            if tag != "video" {
                button = button.on_click(tag);
            } else {
                button = button.enabled(false);
            }
            if checkable {
                button = button.checked(on);
            }
            grid_view = grid_view.child(button);
        }
        root = root.child(grid_view);
    }
    root.child(
        View::new(class::IMAGE_BUTTON, end)
            .id(id("incall_end_call"))
            .desc(tr(sys, "end_call"))
            .on_click("end_call")
            .style(Style {
                icon: Some("call_end"),
                ..filled([217, 48, 37, 255], white, end_size / 2)
            }),
    )
}

#[cfg(test)]
mod tests {
    use super::elapsed;

    #[test]
    fn chronometer_format() {
        assert_eq!(elapsed(5), "00:05");
        assert_eq!(elapsed(65), "01:05");
        assert_eq!(elapsed(3725), "1:02:05");
    }
}

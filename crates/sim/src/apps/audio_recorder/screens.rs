//! Audio Recorder's screens in its default theme (Blue Gray): the main screen (activity_main.xml:
//! toolbar, waveform strip, the big timer, name and format line, the bottom panel with settings,
//! delete, record, stop and the records list), the records list (activity_records.xml) and the
//! app's own dialogs (dialog_rename.xml: a white card, "New name", Cancel and Save).

use super::{format_duration, records, tr, AudioRecorder, Dialog, Screen, EXTENSION, PACKAGE};
use crate::apps::widgets::{columns, inset, label, rid, Rows};
use crate::system::System;
use crate::view::{class, Style, View};
use droidmcp_geom::Bounds;

/// Theme Blue Gray: the screen and the darker panels.
const BACKGROUND: [u8; 4] = [0x54, 0x6E, 0x7A, 255];
const PANEL: [u8; 4] = [0x45, 0x5A, 0x64, 255];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const LIGHT: [u8; 4] = [255, 255, 255, 180];
const RED: [u8; 4] = [0xE5, 0x39, 0x35, 255];
const BLACK: [u8; 4] = [0, 0, 0, 222];

fn id(name: &str) -> String {
    rid(PACKAGE, name)
}

fn text(b: Bounds, value: impl Into<String>, size: f32, color: [u8; 4]) -> View {
    View::new(class::TEXT_VIEW, b).text(value).style(Style {
        text_size_sp: Some(size),
        text_color: Some(color),
        center_text: true,
        ..Style::default()
    })
}

fn icon_button(b: Bounds, name: &str, icon: &'static str, tag: &str, color: [u8; 4]) -> View {
    View::new(class::IMAGE_BUTTON, b)
        .id(id(name))
        .on_click(tag)
        .style(Style {
            icon: Some(icon),
            text_color: Some(color),
            ..Style::default()
        })
}

/// A square of `size` centred on (`cx`, `cy`).
fn square(cx: i32, cy: i32, size: i32) -> Bounds {
    Bounds::new(cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2)
}

pub(super) fn render(app: &AudioRecorder, sys: &System) -> View {
    let screen = match app.screen {
        Screen::Main => main(app, sys),
        Screen::Records => records_list(sys),
    };
    match &app.dialog {
        Some(d) => screen.child(dialog(d, sys)),
        None => screen,
    }
}

fn root(sys: &System) -> View {
    View::new(class::FRAME_LAYOUT, sys.metrics.content).style(Style {
        background: Some(BACKGROUND),
        ..Style::default()
    })
}

fn main(app: &AudioRecorder, sys: &System) -> View {
    let m = &sys.metrics;
    let c = m.content;
    let mut rows = Rows::new(c);
    let toolbar = rows.take(m.dp(56.0));
    let small = m.dp(48.0);
    let mut v = root(sys).id(id("main_root")).child(
        View::new(class::LINEAR_LAYOUT, toolbar)
            .id(id("toolbar"))
            .child(text(
                inset(toolbar, m.dp(8.0)),
                tr(sys, "app_name"),
                20.0,
                WHITE,
            ))
            .child(icon_button(
                square(
                    toolbar.right - small / 2 - m.dp(4.0),
                    toolbar.center().y,
                    small,
                ),
                "btn_share",
                "more_vert",
                "share",
                WHITE,
            )),
    );

    let now = sys.clock.uptime();
    let (progress, name) = match (&app.recording, &app.active) {
        (Some(r), _) => (
            format_duration(r.elapsed(now).as_millis() as u64),
            tr(
                sys,
                if r.since.is_some() {
                    "recording_progress"
                } else {
                    "recording_paused"
                },
            )
            .to_string(),
        ),
        (None, Some(file)) => {
            let ms = records(sys)
                .into_iter()
                .find(|r| &r.file == file)
                .map_or(0, |r| r.duration_ms);
            (
                format_duration(ms),
                // One extension off: a name typed as "note.m4a" is saved as note.m4a.m4a.
                file.strip_suffix(&format!(".{EXTENSION}"))
                    .unwrap_or(file)
                    .to_string(),
            )
        }
        (None, None) => (tr(sys, "zero_time").to_string(), String::new()),
    };

    // The bottom panel, then the timer block above it; the waveform strip takes the middle.
    let panel = Bounds::new(c.left, c.bottom - m.dp(112.0), c.right, c.bottom);
    let info = Bounds::new(c.left, panel.top - m.dp(150.0), c.right, panel.top);
    let wave = Bounds::new(c.left, rows.y, c.right, info.top);
    let line = m.dp(2.0).max(1);
    v = v.child(
        View::new(class::VIEW, wave)
            .id(id(if app.recording.is_some() {
                "recording_view"
            } else {
                "record"
            }))
            .child(
                View::new(
                    class::VIEW,
                    Bounds::new(
                        wave.left,
                        wave.center().y - line / 2,
                        wave.right,
                        wave.center().y + line / 2,
                    ),
                )
                .style(Style {
                    background: Some(if app.recording.is_some() { RED } else { LIGHT }),
                    ..Style::default()
                }),
            ),
    );
    let mut info_rows = Rows::new(info);
    v = v.child(
        text(info_rows.take(m.sp(72.0)), progress, 54.0, WHITE)
            .id(id("txt_progress"))
            .style(Style {
                text_size_sp: Some(54.0),
                text_color: Some(WHITE),
                center_text: true,
                bold: true,
                ..Style::default()
            }),
    );
    let name_row = info_rows.take(m.sp(34.0));
    if !name.is_empty() {
        v = v.child(text(name_row, name, 22.0, WHITE).id(id("txt_name")));
    }
    v = v.child(
        text(
            info_rows.take(m.sp(26.0)),
            "M4a, 44.1kHz, 128kbps, Stereo",
            16.0,
            LIGHT,
        )
        .id(id("txt_record_info")),
    );

    let big = m.dp(88.0);
    let (cx, cy) = (panel.center().x, panel.center().y);
    let mut bottom = View::new(class::FRAME_LAYOUT, panel).style(Style {
        background: Some(PANEL),
        ..Style::default()
    });
    bottom = bottom.child(
        icon_button(
            square(panel.left + m.dp(48.0), cy, big * 2 / 3),
            "btn_settings",
            "settings",
            "settings",
            WHITE,
        )
        .desc(tr(sys, "settings")),
    );
    if app.recording.is_some() {
        bottom = bottom.child(
            icon_button(
                square(cx - big, cy, small),
                "btn_record_delete",
                "delete",
                "record_delete",
                WHITE,
            )
            .desc(tr(sys, "delete")),
        );
        bottom = bottom.child(icon_button(
            square(cx + big, cy, small),
            "btn_record_stop",
            "stop",
            "record_stop",
            WHITE,
        ));
    }
    let recording = app.recording.as_ref().is_some_and(|r| r.since.is_some());
    bottom = bottom.child(
        View::new(class::IMAGE_BUTTON, square(cx, cy, big))
            .id(id("btn_record"))
            .desc(tr(
                sys,
                if recording {
                    "pause"
                } else {
                    "start_recording"
                },
            ))
            .on_click("record")
            .style(Style {
                background: Some(RED),
                corner_radius: big / 2,
                icon: Some(if recording { "pause" } else { "mic" }),
                text_color: Some(WHITE),
                ..Style::default()
            }),
    );
    let list = icon_button(
        square(panel.right - m.dp(48.0), cy, big * 2 / 3),
        "btn_records_list",
        "menu",
        "records_list",
        WHITE,
    )
    .desc(tr(sys, "records"))
    .enabled(app.recording.is_none());
    v.child(bottom.child(list))
}

fn records_list(sys: &System) -> View {
    let m = &sys.metrics;
    let c = m.content;
    let mut rows = Rows::new(c);
    let bar = rows.take(m.dp(56.0));
    let button = m.dp(48.0);
    let mut v = root(sys).id(id("records_root")).child(
        View::new(class::FRAME_LAYOUT, bar)
            .id(id("toolbar"))
            .style(Style {
                background: Some(PANEL),
                ..Style::default()
            })
            .child(
                icon_button(
                    square(bar.left + m.dp(28.0), bar.center().y, button),
                    "btn_back",
                    "arrow_back",
                    "back",
                    WHITE,
                )
                .desc("Navigate up"),
            )
            .child(
                label(
                    Bounds::new(
                        bar.left + m.dp(64.0),
                        bar.top,
                        bar.right - m.dp(16.0),
                        bar.bottom,
                    ),
                    tr(sys, "records"),
                    20.0,
                )
                .id(id("txt_title"))
                .style(Style {
                    text_size_sp: Some(20.0),
                    text_color: Some(WHITE),
                    ..Style::default()
                }),
            ),
    );
    let list_area = rows.rest();
    let files = records(sys);
    if files.is_empty() {
        return v.child(text(list_area, tr(sys, "no_records"), 18.0, LIGHT).id(id("txt_empty")));
    }
    let mut list = View::new(class::RECYCLER_VIEW, list_area)
        .id(id("recycler_view"))
        .scrollable("records");
    let row_h = m.dp(72.0);
    let mut y = list_area.top;
    for r in files {
        let row = Bounds::new(list_area.left, y, list_area.right, y + row_h);
        y += row_h;
        let inner = inset(row, m.dp(16.0));
        let halves = columns(inner, 4);
        let stem = r
            .file
            .strip_suffix(&format!(".{EXTENSION}"))
            .unwrap_or(&r.file)
            .to_string();
        list = list.child(
            View::new(class::LINEAR_LAYOUT, row)
                .id(id("container"))
                .on_click(format!("record:{}", r.file))
                .child(
                    label(
                        Bounds::new(
                            inner.left,
                            inner.top - m.dp(6.0),
                            halves[2].right,
                            inner.center().y + m.dp(6.0),
                        ),
                        stem,
                        18.0,
                    )
                    .id(id("list_item_name"))
                    .style(Style {
                        text_size_sp: Some(18.0),
                        text_color: Some(WHITE),
                        bold: true,
                        ..Style::default()
                    }),
                )
                .child(
                    label(
                        Bounds::new(
                            inner.left,
                            inner.center().y + m.dp(6.0),
                            halves[2].right,
                            inner.bottom + m.dp(6.0),
                        ),
                        format!("{EXTENSION}, 44.1kHz"),
                        14.0,
                    )
                    .id(id("list_item_description"))
                    .style(Style {
                        text_size_sp: Some(14.0),
                        text_color: Some(LIGHT),
                        ..Style::default()
                    }),
                )
                .child(
                    text(halves[3], format_duration(r.duration_ms), 16.0, WHITE)
                        .id(id("list_item_duration")),
                ),
        );
    }
    v = v.child(list);
    v
}

fn dialog(d: &Dialog, sys: &System) -> View {
    let m = &sys.metrics;
    let c = m.content;
    let (height, title, ask) = match d {
        Dialog::Rename { .. } => (m.dp(260.0), tr(sys, "record_name"), true),
        Dialog::DiscardRecording => (m.dp(150.0), tr(sys, "delete_this_record"), false),
    };
    let margin = m.dp(24.0);
    let top = c.top + (c.height() - height) / 2;
    let card = Bounds::new(c.left + margin, top, c.right - margin, top + height);
    let mut rows = Rows::new(inset(card, m.dp(20.0)));
    let mut children = vec![label(rows.take(m.sp(36.0)), title, 20.0)
        .id(id("dialog_title"))
        .style(Style {
            text_size_sp: Some(20.0),
            text_color: Some(BLACK),
            bold: true,
            ..Style::default()
        })];
    let (cancel, ok, ok_tag) = match d {
        Dialog::Rename {
            name,
            dont_ask,
            error,
            ..
        } => {
            children.push(
                View::new(class::EDIT_TEXT, rows.take(m.dp(48.0)))
                    .id(id("input_name"))
                    .text(name.clone())
                    .editable("rename_name")
                    .style(Style {
                        text_size_sp: Some(18.0),
                        text_color: Some(BLACK),
                        ..Style::default()
                    }),
            );
            if let Some(e) = error {
                children.push(
                    label(rows.take(m.sp(24.0)), tr(sys, *e), 14.0)
                        .id(id("txt_error"))
                        .style(Style {
                            text_size_sp: Some(14.0),
                            text_color: Some(RED),
                            ..Style::default()
                        }),
                );
            }
            if ask {
                children.push(
                    View::new(class::CHECK_BOX, rows.take(m.dp(44.0)))
                        .id(id("check_box"))
                        .text(tr(sys, "dont_ask_again"))
                        .on_click("dont_ask")
                        .checked(*dont_ask)
                        .style(Style {
                            text_size_sp: Some(16.0),
                            text_color: Some(BLACK),
                            ..Style::default()
                        }),
                );
            }
            (tr(sys, "btn_cancel"), tr(sys, "btn_save"), "rename_save")
        }
        Dialog::DiscardRecording => (tr(sys, "btn_no"), tr(sys, "btn_yes"), "discard_yes"),
    };
    let buttons = Bounds::new(
        card.left,
        card.bottom - m.dp(64.0),
        card.right - m.dp(12.0),
        card.bottom - m.dp(12.0),
    );
    let cols = columns(buttons, 3);
    let button = |b: Bounds, label_text: &str, name: &str, tag: &str, filled: bool| {
        View::new(class::BUTTON, inset(b, m.dp(4.0)))
            .id(id(name))
            .text(label_text)
            .on_click(tag)
            .style(Style {
                center_text: true,
                text_size_sp: Some(14.0),
                text_color: Some(if filled { WHITE } else { PANEL }),
                background: Some(if filled { PANEL } else { WHITE }),
                corner_radius: m.dp(4.0),
                bold: true,
                ..Style::default()
            })
    };
    children.push(button(
        cols[1],
        cancel,
        "dialog_negative_btn",
        "dialog_cancel",
        false,
    ));
    children.push(button(cols[2], ok, "dialog_positive_btn", ok_tag, true));
    View::new(class::FRAME_LAYOUT, c)
        .style(Style {
            background: Some([0, 0, 0, 110]),
            ..Style::default()
        })
        .child(
            View::new(class::LINEAR_LAYOUT, card)
                .id(id("dialog_root"))
                .style(Style {
                    background: Some(WHITE),
                    corner_radius: m.dp(4.0),
                    ..Style::default()
                })
                .children(children),
        )
}

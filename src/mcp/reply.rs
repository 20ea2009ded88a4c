//! Session results as MCP tool results: a readable text block for the model, a JSON object in
//! `structuredContent` for programs, and screenshots as image content (never base64 inside text).

use base64::Engine;

use crate::session::clip;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{json, Value};

use crate::device::image::Screenshot;
use crate::device::{AppEntry, DeviceStatus};
use crate::session::{
    ActFailure, ActOutcome, Changes, ElementRef, Observation, Recorded, SessionError, Step,
};

/// A failed call the model can act on: `isError: true` with the message.
pub fn error(e: &SessionError, elapsed_ms: u64) -> CallToolResult {
    let kind = if e.is_device_lost() {
        "device_lost"
    } else if e.is_bad_request() {
        "bad_request"
    } else if matches!(e, SessionError::Cancelled) {
        "cancelled"
    } else {
        "device_error"
    };
    let mut r = CallToolResult::error(vec![ContentBlock::text(format!("error: {e}"))]);
    r.structured_content = Some(json!({
        "ok": false, "error": e.to_string(), "kind": kind, "elapsed_ms": elapsed_ms
    }));
    r
}

/// A failed action: the error, and during a task episode whether it cost a step and how many are
/// left.
pub fn act_error(f: &ActFailure, elapsed_ms: u64) -> CallToolResult {
    let mut r = error(&f.error, elapsed_ms);
    let Some(rec) = &f.episode else {
        return r;
    };
    let note = match (&rec.stop, rec.refused, rec.steps_left) {
        (Some(stop), _, _) => stop.clone(),
        (None, true, Some(left)) => format!("refused, so not counted as a step; {left} steps left"),
        (None, false, Some(left)) => format!("this counted as a step; {left} steps left"),
        _ => return r,
    };
    if let Some(ContentBlock::Text(t)) = r.content.first_mut() {
        t.text.push_str(&format!("\n({note})"));
    }
    if let Some(v) = &mut r.structured_content {
        v["episode"] = episode_json(rec);
    }
    r
}

fn episode_json(r: &Recorded) -> Value {
    let mut v = json!({
        "step": r.episode_step, "steps_left": r.steps_left, "stop": r.stop,
        "refused": r.refused,
    });
    strip_nulls(&mut v);
    v
}

/// Arguments that parse but make no sense (`x` without `y`, `format: "gif"`).
pub fn bad_args(message: &str) -> CallToolResult {
    let mut r = CallToolResult::error(vec![ContentBlock::text(format!(
        "error: invalid arguments: {message}"
    ))]);
    r.structured_content = Some(json!({"ok": false, "error": message, "kind": "bad_request"}));
    r
}

pub fn action(outcome: &ActOutcome) -> CallToolResult {
    let mut text = action_echo(outcome);
    if let Some(d) = &outcome.detail {
        text.push_str(&format!("\n{d}"));
    }
    if let Some(hint) = &outcome.no_effect {
        text.push_str(&format!("\nno effect: {hint}"));
    }
    let mut blocks = vec![ContentBlock::text(text)];
    let element = |e: &ElementRef| {
        json!({
            "id": e.id, "role": e.role, "label": e.label,
            "point": [e.center.x, e.center.y], "checked": e.checked,
        })
    };
    let mut value = json!({
        "ok": true,
        "action": clip(&outcome.action, MAX_ECHO_CHARS),
        "elapsed_ms": outcome.elapsed_ms,
        "settled": outcome.settled,
        "detail": outcome.detail,
        "target": outcome.target.as_ref().map(element),
        "point": outcome.point.map(|p| json!([p.x, p.y])),
        "end": outcome.end.map(|p| json!([p.x, p.y])),
        "resolved_from": outcome.resolved_from,
        "after": outcome.after.as_ref().map(element),
        "field_text": outcome.field_text,
        "foreground": outcome.foreground,
        "foreground_changed": outcome.foreground_changed,
        "clamped": outcome.clamped.map(|c| json!({"requested_ms": c.requested_ms, "used_ms": c.used_ms})),
        "no_effect": outcome.no_effect,
        "slider": outcome.slider.map(|s| json!({"before": s.before, "after": s.after})),
        "steps": outcome.steps,
        "episode": outcome.episode.as_ref().map(episode_json),
    });
    strip_nulls(&mut value);
    if let Some(obs) = &outcome.observation {
        blocks.extend(observation_blocks(obs));
        value["observation"] = observation_json(obs);
    }
    let mut r = CallToolResult::success(blocks);
    r.structured_content = Some(value);
    r
}

/// The one-line echo of an action: what it acted on and what resulted
/// (`tap #12 btn "Wi-Fi" @540,1200: ok in 31 ms; now checked`).
pub fn action_echo(o: &ActOutcome) -> String {
    let mut line = clip(&o.action, MAX_ECHO_CHARS);
    if let Some(t) = &o.target {
        if !line.contains(&t.describe()) {
            line.push_str(&format!(" → {}", t.describe()));
        }
    }
    match (o.point, o.end) {
        (Some(a), Some(b)) => line.push_str(&format!(" {a}→{b}")),
        (Some(a), None) => line.push_str(&format!(" @{},{}", a.x, a.y)),
        _ => {}
    }
    line.push_str(&format!(": ok in {} ms", o.elapsed_ms));
    let mut facts = Vec::new();
    if let Some(from) = o.resolved_from {
        if let Some(t) = &o.target {
            facts.push(format!("#{from} is now #{} on the changed screen", t.id));
        }
    }
    if let Some(after) = &o.after {
        if let Some(checked) = after.checked {
            facts.push(
                if checked {
                    "now checked"
                } else {
                    "now unchecked"
                }
                .to_string(),
            );
        }
    }
    if let Some(text) = &o.field_text {
        facts.push(format!("field now holds {text:?}"));
    }
    if o.foreground_changed {
        facts.push(format!(
            "foreground now {}",
            o.foreground.as_deref().unwrap_or("unknown")
        ));
    }
    if let Some(s) = o.slider {
        let pct = |f: f64| format!("~{:.0}%", f * 100.0);
        match (s.before, s.after) {
            (Some(a), Some(b)) if s.moved() => facts.push(format!(
                "slider thumb now at {} (was {}; read from the screen)",
                pct(b),
                pct(a)
            )),
            (_, Some(b)) => {
                facts.push(format!("slider thumb at {} (read from the screen)", pct(b)))
            }
            _ => {}
        }
    }
    if let Some(c) = o.clamped {
        facts.push(format!(
            "duration clamped from {} to {} ms",
            c.requested_ms, c.used_ms
        ));
    }
    if o.steps > 1 {
        facts.push(format!("{} steps", o.steps));
    }
    if let Some(r) = &o.episode {
        match (&r.stop, r.episode_step, r.steps_left) {
            (Some(stop), _, _) => facts.push(stop.clone()),
            (None, Some(n), Some(left)) => facts.push(format!("episode step {n}, {left} left")),
            _ => {}
        }
    }
    if !o.settled {
        facts.push("the screen was still changing".into());
    }
    for f in facts {
        line.push_str("; ");
        line.push_str(&f);
    }
    line
}

pub fn observation(obs: &Observation, elapsed_ms: u64) -> CallToolResult {
    let mut value = observation_json(obs);
    value["ok"] = json!(true);
    value["elapsed_ms"] = json!(elapsed_ms);
    let mut r = CallToolResult::success(observation_blocks(obs));
    r.structured_content = Some(value);
    r
}

fn observation_blocks(obs: &Observation) -> Vec<ContentBlock> {
    let mut head = String::new();
    match &obs.foreground {
        Some(fg) => head.push_str(&format!(
            "foreground: {}{}\n",
            fg.package,
            fg.activity
                .as_ref()
                .map(|a| format!("/{a}"))
                .unwrap_or_default()
        )),
        None => head.push_str("foreground: unknown\n"),
    }
    // The digest is what an agent passes back so its ids are read against this very screen.
    head.push_str(&format!(
        "screen: {}x{} px, digest {}\n",
        obs.size.width, obs.size.height, obs.digest
    ));
    if let Some(shot) = &obs.screenshot {
        head.push_str(&format!(
            "screenshot: {}x{} {}, scale {:.4} (screen x = image x * scale)\n",
            shot.width,
            shot.height,
            shot.encoding.mime(),
            shot.scale
        ));
    }
    if let Some(changes) = &obs.changes {
        if changes.text.contains('\n') {
            head.push_str(&format!("changes:\n{}\n", changes.text));
        } else {
            head.push_str(&format!("changes: {}\n", changes.text));
        }
    }
    if let Some(elements) = &obs.elements {
        head.push_str(&format!("elements ({}):\n{elements}", obs.element_count));
    }
    if let Some(xml) = &obs.xml {
        head.push_str(xml);
    }
    let mut blocks = vec![ContentBlock::text(head.trim_end().to_string())];
    if let Some(shot) = &obs.screenshot {
        blocks.push(image(shot));
    }
    blocks
}

/// The observation's facts for programs. The element list, the XML and the image are in the text
/// and image blocks only: structured content never repeats a large payload.
fn observation_json(obs: &Observation) -> Value {
    let mut v = json!({
        "serial": obs.serial,
        "width": obs.size.width,
        "height": obs.size.height,
        "element_count": obs.element_count,
        "digest": obs.digest,
    });
    if let Some(f) = &obs.foreground {
        v["foreground"] = match &f.activity {
            Some(a) => json!({"package": f.package, "activity": a}),
            None => json!({"package": f.package}),
        };
    }
    if let Some(c) = &obs.changes {
        v["changes"] = changes_json(c);
    }
    if let Some(s) = &obs.screenshot {
        v["screenshot"] = json!({
            "mime_type": s.encoding.mime(), "width": s.width, "height": s.height,
            "scale": s.scale, "bytes": s.bytes.len(),
        });
    }
    v
}

fn changes_json(c: &Changes) -> Value {
    let mut v = json!({
        "kind": c.kind.as_str(), "summary": c.text,
        "added": c.added, "removed": c.removed, "changed": c.changed,
    });
    if let Some(p) = &c.packages.0 {
        v["from_package"] = json!(p);
    }
    if let Some(p) = &c.packages.1 {
        v["to_package"] = json!(p);
    }
    v
}

pub fn image(shot: &Screenshot) -> ContentBlock {
    ContentBlock::image(
        base64::engine::general_purpose::STANDARD.encode(&shot.bytes),
        shot.encoding.mime(),
    )
}

/// Says in `r` that its screenshot was made smaller than the `asked` long edge to fit a message
/// (see [`super::MAX_IMAGE_BYTES`]); `r` as it is when nothing was shrunk.
pub fn shrunk(mut r: CallToolResult, obs: &Observation, asked: Option<u32>) -> CallToolResult {
    let (Some(asked), Some(shot)) = (asked, &obs.screenshot) else {
        return r;
    };
    let edge = shot.width.max(shot.height);
    let note = format!(
        "(the image was made {edge} px on its long edge, not the {asked} px asked, to stay \
         under {} KiB: MCP clients refuse larger messages; ask for jpeg for more pixels)",
        super::MAX_IMAGE_BYTES / 1024
    );
    if let Some(ContentBlock::Text(t)) = r.content.first_mut() {
        t.text.push('\n');
        t.text.push_str(&note);
    }
    if let Some(v) = &mut r.structured_content {
        v["shrunk_from_max_edge"] = json!(asked);
    }
    r
}

pub fn screenshot(shot: &Screenshot, elapsed_ms: u64) -> CallToolResult {
    let mut r = CallToolResult::success(vec![
        ContentBlock::text(format!(
            "screenshot {}x{} {}, scale {:.4}: screen x = image x * {:.4}",
            shot.width,
            shot.height,
            shot.encoding.mime(),
            shot.scale,
            shot.scale
        )),
        image(shot),
    ]);
    r.structured_content = Some(json!({
        "ok": true, "mime_type": shot.encoding.mime(), "width": shot.width,
        "height": shot.height, "scale": shot.scale, "bytes": shot.bytes.len(),
        "elapsed_ms": elapsed_ms
    }));
    r
}

pub fn apps(apps: &[AppEntry], elapsed_ms: u64) -> CallToolResult {
    let text = apps
        .iter()
        .map(|a| format!("{} ({})", a.label(), a.package))
        .collect::<Vec<_>>()
        .join("\n");
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(json!({
        "ok": true,
        "elapsed_ms": elapsed_ms,
        "apps": apps.iter().map(|a| {
            let mut v = json!({"label": a.label(), "package": a.package});
            if let Some(activity) = &a.activity {
                v["activity"] = json!(activity);
            }
            v
        }).collect::<Vec<_>>(),
    }));
    r
}

/// `device_status`: one line per topic for the model, the same facts as fields for programs; what
/// the device did not say is left out rather than guessed.
pub fn device_status(s: &DeviceStatus, elapsed_ms: u64) -> CallToolResult {
    let on_off = |b: Option<bool>| match b {
        Some(true) => "on",
        Some(false) => "off",
        None => "unknown",
    };
    let mut lines = Vec::new();
    if let Some(p) = s.battery.percent {
        let mut line = format!("battery: {p}%");
        if let Some(st) = s.battery.status {
            line.push_str(&format!(" {st}"));
        }
        if !s.battery.plugged.is_empty() {
            line.push_str(&format!(" (plugged in: {})", s.battery.plugged.join(", ")));
        }
        lines.push(line);
    }
    lines.push(format!(
        "airplane mode {}, Wi-Fi {}, Bluetooth {}, mobile data {}",
        on_off(s.airplane_mode),
        on_off(s.wifi),
        on_off(s.bluetooth),
        on_off(s.mobile_data)
    ));
    if !s.volumes.is_empty() {
        let v: Vec<String> = s
            .volumes
            .iter()
            .map(|v| format!("{} {} ({}–{})", v.stream, v.index, v.min, v.max))
            .collect();
        lines.push(format!("volume: {}", v.join(", ")));
    }
    if let Some(b) = s.brightness {
        let mode = match s.auto_brightness {
            Some(true) => ", adaptive",
            Some(false) => ", manual",
            None => "",
        };
        lines.push(format!("brightness: {b} (0–255{mode})"));
    }
    if let Some(t) = &s.time {
        let tz = s
            .timezone
            .as_deref()
            .map(|z| format!(" ({z})"))
            .unwrap_or_default();
        lines.push(format!("time: {t}{tz}"));
    }
    if let Some(l) = &s.locale {
        lines.push(format!("language: {l}"));
    }
    if let Some(z) = &s.size {
        let rot = s
            .rotation
            .map(|r| format!(", rotation {r}°"))
            .unwrap_or_default();
        lines.push(format!("screen: {}x{} px{rot}", z.width, z.height));
    }
    if let Some(f) = &s.foreground {
        lines.push(format!("foreground: {f}"));
    }
    let mut value = json!({
        "ok": true,
        "elapsed_ms": elapsed_ms,
        "battery": {"percent": s.battery.percent, "status": s.battery.status, "plugged": s.battery.plugged},
        "airplane_mode": s.airplane_mode, "wifi": s.wifi, "bluetooth": s.bluetooth,
        "mobile_data": s.mobile_data,
        "volumes": s.volumes.iter().map(|v| json!({"stream": v.stream, "index": v.index, "min": v.min, "max": v.max})).collect::<Vec<_>>(),
        "brightness": s.brightness, "auto_brightness": s.auto_brightness,
        "time": s.time, "timezone": s.timezone, "locale": s.locale,
        "width": s.size.map(|z| z.width), "height": s.size.map(|z| z.height),
        "rotation": s.rotation, "foreground": s.foreground,
    });
    strip_nulls(&mut value);
    text(lines.join("\n"), value)
}

/// Absent, not null: output schemas type each field, and null is no string or number.
fn strip_nulls(v: &mut Value) {
    if let Value::Object(fields) = v {
        fields.retain(|_, v| !v.is_null());
        for child in fields.values_mut() {
            strip_nulls(child);
        }
    }
}

pub fn text(text: String, value: Value) -> CallToolResult {
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(value);
    r
}

pub fn steps_json(steps: &[Step]) -> Value {
    Value::Array(
        steps
            .iter()
            .map(|s| {
                let mut v = json!({
                    "index": s.index, "entry": s.index + 1,
                    "action": clip(&s.action, MAX_ECHO_CHARS), "kind": s.kind,
                    "started_at": s.started_at.to_rfc3339(), "elapsed_ms": s.elapsed_ms,
                    "serial": s.serial, "refused": s.refused,
                });
                if let Some((episode, step)) = &s.episode {
                    v["episode"] = json!(episode);
                    if let Some(n) = step {
                        v["episode_step"] = json!(n);
                    }
                }
                for (key, value) in [
                    ("error", &s.error),
                    ("observation_digest", &s.observation_digest),
                    ("foreground", &s.foreground),
                ] {
                    if let Some(value) = value {
                        v[key] = json!(clip(value, MAX_ECHO_CHARS));
                    }
                }
                v
            })
            .collect(),
    )
}

/// The most of a step's action or error a history line repeats.
const MAX_ECHO_CHARS: usize = 300;

/// The `limit` items of `items` from `offset`, and the offset of the next page while more remain.
pub fn page<T>(items: &[T], offset: usize, limit: usize) -> (&[T], Option<usize>) {
    let total = items.len();
    let start = offset.min(total);
    let page = &items[start..offset.saturating_add(limit).min(total)];
    (
        page,
        (start + page.len() < total).then_some(start + page.len()),
    )
}

/// One page of the step list: `limit` steps from `offset`, one line each, oldest first.
pub fn history(steps: &[Step], offset: usize, limit: usize) -> CallToolResult {
    let total = steps.len();
    let refused = steps.iter().filter(|s| s.refused).count();
    let (page, next) = page(steps, offset, limit);
    let mut text = if total == 0 {
        "no steps yet on this phone".to_string()
    } else if page.is_empty() {
        format!("{total} steps; none from offset {offset}")
    } else {
        format!(
            "entries {}-{} of {total} ({} steps, {refused} refused attempts that are no steps)",
            offset + 1,
            offset + page.len(),
            total - refused
        )
    };
    // A line starts with the number the agent's step counter gave it: in a task episode its
    // step number (a refused attempt, no step, gets `-`), elsewhere its 1-based place in the
    // phone's log. A marker line opens each stretch of one episode, or of none.
    let mut stretch: Option<Option<&str>> = None;
    for s in page {
        let episode = s.episode.as_ref().map(|(id, _)| id.as_str());
        if stretch != Some(episode) {
            text.push_str(&match episode {
                Some(id) => format!("\n— episode {id} —"),
                None => "\n— outside any task episode —".to_string(),
            });
            stretch = Some(episode);
        }
        let number = match &s.episode {
            Some((_, Some(n))) => format!("{n}."),
            Some((_, None)) => "-".to_string(),
            None => format!("{}.", s.index + 1),
        };
        let outcome = match (&s.error, s.refused) {
            (Some(e), true) => format!(" refused: {}", clip(e, MAX_ECHO_CHARS)),
            (Some(e), false) => format!(" error: {}", clip(e, MAX_ECHO_CHARS)),
            (None, _) => String::new(),
        };
        text.push_str(&format!(
            "\n{number} {} ({} ms){outcome}",
            clip(&s.action, MAX_ECHO_CHARS),
            s.elapsed_ms,
        ));
    }
    if let Some(n) = next {
        text.push_str(&format!("\nmore: call history with offset {n}"));
    }
    let mut value = json!({"ok": true, "total": total, "refused": refused, "offset": offset,
        "steps": steps_json(page)});
    if let Some(n) = next {
        value["next_offset"] = json!(n);
    }
    let mut r = CallToolResult::success(vec![ContentBlock::text(text)]);
    r.structured_content = Some(value);
    r
}

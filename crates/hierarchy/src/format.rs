//! Renderers: an element list (or a diff) → the text an LLM or a person reads.

use std::fmt::Write as _;

use super::diff::{Diff, Field};
use super::elements::{Element, ElementList};
use super::filter::Window;
use super::wire;

/// The output formats of an observation. This doc is the wire-format reference.
///
/// # `Compact` (default)
///
/// One header line, then one line per element:
///
/// ```text
/// # com.android.settings 1080x2400
/// 1 btn @72,136: Navigate up
/// 2 text @540,330: Network & internet
/// 3 switch @540,470 checked: Wi‑Fi | MyHomeNet
/// 4 list #recycler_view @540,1500 more-down
/// 5 input @540,700 focused empty: hint: Search settings
/// ```
///
/// `id role[ #resource-id-tail] @x,y[ action words][ state words][: strings]`
///
/// - `id`: the [`ElementId`](super::ElementId); the same number labels the element on a marked
///   screenshot and selects it (`#3`).
/// - `role`: the [`Role`](super::Role) short name. A role implies its usual action, which is
///   therefore not repeated: `btn` and `tab` tap, `input` takes typed text (and taps), `checkbox`,
///   `switch` and `radio` toggle (and tap), `list` scrolls.
/// - `#tail`: the resource id after `:id/`, shown only for elements without any string to name them
///   (selectors accept it either way; JSON always carries the full id).
/// - `@x,y`: the centre in device pixels, where a tap lands. With bounds on, `[l,t,r,b]`
///   (right/bottom exclusive) replaces it.
/// - action words beyond the implied one: `tap`, `long` (long-press), `type`, `scroll`, `toggle`;
///   `-tap` (or `-toggle`, …) when the role's usual action is missing.
/// - state words, only when true: `checked`/`unchecked` (checkable elements), `selected`,
///   `focused`, `disabled`, `password`, `empty` (a text field with nothing typed: its hint shows as
///   `hint: …`, never as its text), then for scrollable elements `more-up`, `more-down`,
///   `more-left`, `more-right` where an item is cut at that edge (see `hierarchy::scroll`).
/// - `: strings`: everything the element shows or announces, joined by ` | `: its text, its
///   content description, text folded in from non-actionable nodes inside it, the name a toggle
///   showing no string takes from its row (`8 switch @948,977 checked: Wi‑Fi`, as Android's
///   accessibility announces a Settings switch by its preference's title), and last its hint
///   as `hint: …`. The strings run to the end of the line; newlines, tabs, `\` and `"` inside them
///   are escaped as in JSON (`\n`, `\t`, `\\`, `\"`), everything else, CJK and emoji included, is
///   verbatim.
///
/// When a filter or page hides elements, the header says which: `· 51-100 of 230 (filtered from
/// 412) · next offset 100`.
///
/// # `Json`
///
/// One object, fields omitted when empty or false:
///
/// ```json
/// {"screen":[1080,2400],"package":"com.android.settings","total":4,"matched":4,"offset":0,
///  "elements":[{"id":3,"role":"switch","text":"Wi‑Fi","folded":["MyHomeNet"],
///  "resource_id":"com.android.settings:id/switch_widget","class":"Switch",
///  "actions":["tap","toggle"],"state":["checked"],"bounds":[0,400,1080,540],"center":[540,470]}]}
/// ```
///
/// `bounds` is `[left, top, right, bottom]` and `center` `[x, y]`, both device pixels and always
/// present; `text`, `desc`, `hint`, `folded`, `name` (a toggle's row label), `resource_id`,
/// `actions`, `state` appear when non-empty; `actions` lists every action (none implied).
///
/// # `Xml`
///
/// The dump itself (decoded, tool messages removed): [`Hierarchy::xml`](super::Hierarchy::xml).
/// Filters and paging do not apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Compact,
    Json,
    Xml,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "compact" | "text" => Ok(Format::Compact),
            "json" => Ok(Format::Json),
            "xml" | "raw" => Ok(Format::Xml),
            other => Err(format!(
                "unknown format {other:?} (expected compact, json or xml)"
            )),
        }
    }
}

/// Writes `s` as the body of a JSON string literal (escaped, without the quotes).
pub(crate) fn escape_into(out: &mut String, s: &str) {
    let quoted = serde_json::to_string(s).expect("serializing a str cannot fail");
    out.push_str(&quoted[1..quoted.len() - 1]);
}

/// The `: strings` part of a compact line (empty when the element shows nothing).
fn strings_part(e: &Element) -> String {
    let mut out = String::new();
    let parts = [&e.text, &e.desc]
        .into_iter()
        .chain(&e.folded)
        .chain([&e.name])
        .filter(|s| !s.is_empty());
    for (i, s) in parts.enumerate() {
        out.push_str(if i == 0 { ": " } else { " | " });
        escape_into(&mut out, s);
    }
    if !e.hint.is_empty() {
        out.push_str(if out.is_empty() {
            ": hint: "
        } else {
            " | hint: "
        });
        escape_into(&mut out, &e.hint);
    }
    out
}

/// One element in the compact notation, without a newline.
pub fn compact_line(e: &Element, bounds: bool) -> String {
    let mut line = String::with_capacity(64);
    let _ = write!(line, "{} {}", e.id, e.role);
    let strings = strings_part(e);
    let tail = e.resource_id_tail();
    if !tail.is_empty() && strings.is_empty() {
        let _ = write!(line, " #{tail}");
    }
    if bounds {
        let b = e.bounds;
        let _ = write!(line, " [{},{},{},{}]", b.left, b.top, b.right, b.bottom);
    } else {
        let _ = write!(line, " @{},{}", e.center.x, e.center.y);
    }
    let implied = e.role.implied_actions();
    let actions = e.actions.words();
    if let Some(main) = implied.first() {
        if !actions.contains(main) {
            let _ = write!(line, " -{main}");
        }
    }
    for word in actions {
        if !implied.contains(&word) {
            line.push(' ');
            line.push_str(word);
        }
    }
    for word in e.state.words() {
        line.push(' ');
        line.push_str(word);
    }
    line.push_str(&strings);
    line
}

/// The compact rendering of a window of `list` (see [`Format`]).
pub fn compact(list: &ElementList, window: &Window<'_>, bounds: bool) -> String {
    let mut out = String::with_capacity(64 + window.elements.len() * 48);
    out.push('#');
    if let Some(package) = &list.package {
        let _ = write!(out, " {package}");
    }
    let _ = write!(out, " {}x{}", list.screen.width(), list.screen.height());
    if window.is_partial() {
        let first = window.offset + 1;
        let last = window.offset + window.elements.len();
        let _ = write!(out, " · {first}-{last} of {}", window.matched);
        if window.matched < window.total {
            let _ = write!(out, " (filtered from {})", window.total);
        }
        if let Some(next) = window.next_offset() {
            let _ = write!(out, " · next offset {next}");
        }
    }
    out.push('\n');
    for e in &window.elements {
        out.push_str(&compact_line(e, bounds));
        out.push('\n');
    }
    out
}

/// The JSON rendering of a window of `list` (see [`Format`]).
pub fn json(list: &ElementList, window: &Window<'_>) -> String {
    serde_json::to_string(&wire::Observation::new(list, window))
        .expect("serializing plain structs cannot fail")
}

/// A diff in the compact notation: `+ line` added, `- line` removed, `~ line` changed followed by
/// what it was (`(was: old strings)`, `(was unchecked)`, `(was @10,20)`). Lines use the new ids
/// except for removals.
pub fn compact_diff(diff: &Diff, bounds: bool) -> String {
    let mut out = String::new();
    for e in &diff.added {
        let _ = writeln!(out, "+ {}", compact_line(e, bounds));
    }
    for e in &diff.removed {
        let _ = writeln!(out, "- {}", compact_line(e, bounds));
    }
    for change in &diff.changed {
        let old = &change.old;
        let mut was: Vec<String> = Vec::new();
        for field in &change.fields {
            match field {
                Field::Text | Field::Desc => {
                    let strings = strings_part(old);
                    let text = if strings.is_empty() {
                        ": (nothing)".to_string()
                    } else {
                        strings
                    };
                    if !was.contains(&text) {
                        was.push(text);
                    }
                }
                Field::State => {
                    let words = old.state.words();
                    was.push(if words.is_empty() {
                        " no state".into()
                    } else {
                        format!(" {}", words.join(" "))
                    });
                }
                Field::Actions => was.push(format!(" actions {}", old.actions.words().join(","))),
                Field::Bounds => was.push(format!(" @{},{}", old.center.x, old.center.y)),
            }
        }
        let _ = writeln!(
            out,
            "~ {} (was{})",
            compact_line(&change.new, bounds),
            was.concat()
        );
    }
    out
}

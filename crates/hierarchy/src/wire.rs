//! The serde structs of the JSON observation format (documented on [`super::Format`]). Private:
//! core types never derive `Serialize`; they are converted here by hand, so renaming a field inside
//! the crate cannot change what clients receive.

use serde::Serialize;

use super::elements::{Element, ElementList};
use super::filter::Window;

#[derive(Serialize)]
pub(super) struct Observation<'a> {
    screen: [i32; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    package: Option<&'a str>,
    total: usize,
    matched: usize,
    offset: usize,
    elements: Vec<JsonElement<'a>>,
}

#[derive(Serialize)]
struct JsonElement<'a> {
    id: u32,
    role: &'static str,
    #[serde(skip_serializing_if = "str::is_empty")]
    text: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    desc: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    hint: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    folded: &'a [String],
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    resource_id: &'a str,
    class: &'a str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    actions: Vec<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    state: Vec<&'static str>,
    bounds: [i32; 4],
    center: [i32; 2],
}

impl<'a> Observation<'a> {
    pub(super) fn new(list: &'a ElementList, window: &Window<'a>) -> Self {
        Observation {
            screen: [list.screen.width(), list.screen.height()],
            package: list.package.as_deref(),
            total: window.total,
            matched: window.matched,
            offset: window.offset,
            elements: window
                .elements
                .iter()
                .map(|e| JsonElement::new(e))
                .collect(),
        }
    }
}

impl<'a> JsonElement<'a> {
    fn new(e: &'a Element) -> Self {
        let b = e.bounds;
        JsonElement {
            id: e.id.0,
            role: e.role.as_str(),
            text: &e.text,
            desc: &e.desc,
            hint: &e.hint,
            folded: &e.folded,
            name: &e.name,
            resource_id: &e.resource_id,
            class: &e.class,
            actions: e.actions.words(),
            state: e.state.words(),
            bounds: [b.left, b.top, b.right, b.bottom],
            center: [e.center.x, e.center.y],
        }
    }
}

//! Compression: a [`Hierarchy`] → the flat list of [`Element`]s a person could see or act on.
//!
//! Kept: nodes that can be tapped, long-pressed, toggled, typed into or scrolled, and nodes that
//! show text or a content description. Text of non-actionable descendants is folded into the
//! nearest tappable ancestor (a list row, a React Native pressable), so a row reads as one element
//! with one centre to tap. Dropped: nodes marked `visible-to-user="false"`, and nodes whose bounds,
//! clipped to the screen, are empty. An actionable node with exactly the bounds of the element
//! around it merges into that element (a clickable `FrameLayout` wrapping a clickable `Button` is
//! one control). Element ids count from 1 in document order, so the same screen gives the same ids.

use std::fmt;

use super::node::{Hierarchy, Node, NodeId};
use super::scroll::{self, More};
use droidmcp_geom::{Bounds, Point};

/// An element's number in one [`ElementList`]: 1-based, document order. Shown to the LLM and
/// drawn on marked screenshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ElementId(pub u32);

impl fmt::Display for ElementId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What an element is, judged from its class and flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Button,
    Input,
    Checkbox,
    Switch,
    Radio,
    Tab,
    Slider,
    Progress,
    Select,
    List,
    Web,
    Image,
    Text,
    View,
}

impl Role {
    pub const ALL: [Role; 14] = [
        Role::Button,
        Role::Input,
        Role::Checkbox,
        Role::Switch,
        Role::Radio,
        Role::Tab,
        Role::Slider,
        Role::Progress,
        Role::Select,
        Role::List,
        Role::Web,
        Role::Image,
        Role::Text,
        Role::View,
    ];

    /// The short name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Button => "btn",
            Role::Input => "input",
            Role::Checkbox => "checkbox",
            Role::Switch => "switch",
            Role::Radio => "radio",
            Role::Tab => "tab",
            Role::Slider => "slider",
            Role::Progress => "progress",
            Role::Select => "select",
            Role::List => "list",
            Role::Web => "web",
            Role::Image => "image",
            Role::Text => "text",
            Role::View => "view",
        }
    }

    /// Parses a short name (`btn`) or a few obvious synonyms (`button`, `edit`, `toggle`).
    pub fn parse(s: &str) -> Option<Role> {
        let s = s.trim().to_ascii_lowercase();
        let role = match s.as_str() {
            "button" => Role::Button,
            "edit" | "textfield" | "field" => Role::Input,
            "check" => Role::Checkbox,
            "toggle" => Role::Switch,
            "scroll" => Role::List,
            "img" => Role::Image,
            "txt" | "label" => Role::Text,
            _ => return Role::ALL.into_iter().find(|r| r.as_str() == s),
        };
        Some(role)
    }

    pub(crate) fn of(node: &Node) -> Role {
        let short = node.short_class();
        let has = |needle: &str| short.contains(needle);
        if node.is_editable() {
            Role::Input
        } else if has("Switch") || has("ToggleButton") {
            Role::Switch
        } else if has("CheckBox") || has("CheckedTextView") {
            Role::Checkbox
        } else if has("RadioButton") {
            Role::Radio
        } else if has("SeekBar") || has("RatingBar") || has("Slider") {
            Role::Slider
        } else if has("ProgressBar") {
            Role::Progress
        } else if has("Spinner") {
            Role::Select
        } else if has("WebView") {
            Role::Web
        } else if short.ends_with("Button") {
            Role::Button
        } else if has("Tab") && (node.clickable || node.selected) {
            Role::Tab
        } else if node.scrollable {
            Role::List
        } else if node.checkable {
            Role::Checkbox
        } else if node.clickable || node.long_clickable {
            Role::Button
        } else if has("Image") {
            Role::Image
        } else if has("Text") || !node.text.trim().is_empty() {
            Role::Text
        } else {
            Role::View
        }
    }

    /// The actions this role stands for, left unsaid in the compact notation; the first is the
    /// one the role means (its absence is spelled out).
    pub fn implied_actions(self) -> &'static [&'static str] {
        match self {
            Role::Button | Role::Tab => &["tap"],
            Role::Input => &["type", "tap"],
            Role::Checkbox | Role::Switch | Role::Radio => &["toggle", "tap"],
            Role::List => &["scroll"],
            _ => &[],
        }
    }

    /// Whether the class said more than "some clickable container".
    fn is_specific(self) -> bool {
        !matches!(self, Role::Button | Role::View | Role::Text | Role::Image)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// State worth telling: only deviations from the default are set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct State {
    /// `Some` for checkable elements (checkbox, switch, radio), `None` otherwise.
    pub checked: Option<bool>,
    pub selected: bool,
    pub focused: bool,
    pub disabled: bool,
    pub password: bool,
    /// A text field with nothing typed in it (dumps then show the hint as its text).
    pub empty: bool,
    /// For scrollable containers: the edges beyond which an item is visibly cut.
    pub more: More,
}

impl State {
    /// State words in a fixed order: `checked`/`unchecked`, `selected`, `focused`, `disabled`,
    /// `password`, `empty`, then `more-up`/`more-down`/`more-left`/`more-right`.
    pub fn words(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        match self.checked {
            Some(true) => out.push("checked"),
            Some(false) => out.push("unchecked"),
            None => {}
        }
        for (on, word) in [
            (self.selected, "selected"),
            (self.focused, "focused"),
            (self.disabled, "disabled"),
            (self.password, "password"),
            (self.empty, "empty"),
        ] {
            if on {
                out.push(word);
            }
        }
        out.extend(self.more.words());
        out
    }

    fn of(node: &Node) -> State {
        State {
            checked: node.checkable.then_some(node.checked),
            selected: node.selected,
            focused: node.focused,
            disabled: !node.enabled,
            password: node.password,
            // An empty field's text is its hint in dumps (TextView reads the hint out when empty).
            empty: node.is_editable()
                && (node.text.trim().is_empty() || node.text.trim() == node.hint.trim()),
            more: More::default(),
        }
    }

    fn merge(&mut self, other: State) {
        self.checked = self.checked.or(other.checked);
        self.selected |= other.selected;
        self.focused |= other.focused;
        self.disabled |= other.disabled;
        self.password |= other.password;
        self.empty |= other.empty;
    }
}

/// What can be done to an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Actions {
    pub tap: bool,
    pub long_press: bool,
    pub type_text: bool,
    pub scroll: bool,
    pub toggle: bool,
}

impl Actions {
    /// Action words in a fixed order: `tap`, `long`, `type`, `scroll`, `toggle`.
    pub fn words(&self) -> Vec<&'static str> {
        [
            (self.tap, "tap"),
            (self.long_press, "long"),
            (self.type_text, "type"),
            (self.scroll, "scroll"),
            (self.toggle, "toggle"),
        ]
        .into_iter()
        .filter_map(|(on, word)| on.then_some(word))
        .collect()
    }

    pub fn any(&self) -> bool {
        self.tap || self.long_press || self.type_text || self.scroll || self.toggle
    }

    fn of(node: &Node) -> Actions {
        Actions {
            tap: node.clickable,
            long_press: node.long_clickable,
            type_text: node.is_editable(),
            scroll: node.scrollable,
            toggle: node.checkable,
        }
    }

    fn merge(&mut self, other: Actions) {
        self.tap |= other.tap;
        self.long_press |= other.long_press;
        self.type_text |= other.type_text;
        self.scroll |= other.scroll;
        self.toggle |= other.toggle;
    }

    /// Whether text inside the element belongs to it: a tap target, not a scroll container.
    fn hosts_text(&self) -> bool {
        self.tap || self.long_press || self.toggle || self.type_text
    }
}

/// One thing on screen, as the LLM sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub id: ElementId,
    pub role: Role,
    /// Short class name (`Button`, `TextView`, `ViewGroup`).
    pub class: String,
    /// The node's own `text`, trimmed.
    pub text: String,
    /// The node's own `content-desc`, trimmed (empty when equal to `text`).
    pub desc: String,
    /// The `hint` attribute, trimmed (empty when equal to `text`).
    pub hint: String,
    /// Text and descriptions of non-actionable descendants folded into this element, document
    /// order, leaving out strings contained in one already shown.
    pub folded: Vec<String>,
    /// What accessibility calls an element that shows no string of its own: a switch, checkbox or
    /// radio button inside a tappable row takes the row's label, as Android announces a Settings
    /// switch by its preference's title. Empty otherwise; selectors do not match it (the row shows
    /// the text, and a tap on the row toggles the switch).
    pub name: String,
    /// The full `resource-id` (`com.x:id/fab`), empty when the node has none.
    pub resource_id: String,
    pub state: State,
    pub actions: Actions,
    /// The node's bounds clipped to the screen.
    pub bounds: Bounds,
    /// Where a tap lands: the centre of `bounds`.
    pub center: Point,
    /// The uiautomator `index` attribute (position among siblings).
    pub index: u32,
    /// The nodes this element stands for: the one it was made from first, then the actionable
    /// nodes merged into it, then the nodes whose text was folded in.
    pub nodes: Vec<NodeId>,
}

impl Element {
    /// The `resource-id` after `:id/`.
    pub fn resource_id_tail(&self) -> &str {
        super::node::resource_id_tail(&self.resource_id)
    }

    /// All strings the element shows: its text, description, hint, folded strings, then the name
    /// accessibility gives it.
    pub fn strings(&self) -> impl Iterator<Item = &str> {
        [self.text.as_str(), self.desc.as_str(), self.hint.as_str()]
            .into_iter()
            .chain(self.folded.iter().map(String::as_str))
            .chain([self.name.as_str()])
            .filter(|s| !s.is_empty())
    }

    /// The first thing to call it by: text, else description, else folded text, else the name
    /// accessibility gives it, else hint.
    pub fn label(&self) -> &str {
        [&self.text, &self.desc]
            .into_iter()
            .chain(self.folded.first())
            .chain([&self.name, &self.hint])
            .find(|s| !s.is_empty())
            .map(String::as_str)
            .unwrap_or("")
    }

    /// Folds `s` in unless a string already shown contains it; folded strings that `s` contains
    /// give way to it. Nothing readable is lost, and rows whose description repeats their texts
    /// (common in dialers and chat lists) say it once.
    ///
    /// Past [`DEDUP_LIMIT`] folded strings only the element's own strings are compared, which keeps
    /// a hostile dump (thousands of texts inside one button) linear.
    fn add_string(&mut self, s: &str) {
        if s.is_empty() || self.strings().take(DEDUP_LIMIT).any(|own| own.contains(s)) {
            return;
        }
        if self.folded.len() < DEDUP_LIMIT {
            self.folded.retain(|f| !s.contains(f.as_str()));
        }
        self.folded.push(s.to_string());
    }
}

/// How many of an element's strings a new string is compared with before it is folded in.
const DEDUP_LIMIT: usize = 64;

/// Compression options; [`Options::default`] is what LLMs get.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Keep nodes marked `visible-to-user="false"`.
    pub keep_invisible: bool,
    /// Fold the text of non-actionable descendants into their tappable ancestor.
    pub fold: bool,
    /// A tappable ancestor larger than this share of the screen (a full-screen click catcher) does
    /// not absorb text; its descendants stay elements of their own, with their own location.
    pub max_host_share: f32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            keep_invisible: false,
            fold: true,
            max_host_share: 0.4,
        }
    }
}

/// The elements of one screen plus what they were measured against.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ElementList {
    /// The screen rectangle (union of the top-level nodes' bounds).
    pub screen: Bounds,
    /// The foreground package, when the dump names one.
    pub package: Option<String>,
    /// Elements in id order (`elements[i].id == i + 1`).
    pub elements: Vec<Element>,
}

impl ElementList {
    pub fn from_hierarchy(h: &Hierarchy, options: &Options) -> ElementList {
        let screen = h.screen();
        let mut builder = Builder {
            options,
            screen,
            elements: Vec::new(),
            hosts: Vec::new(),
        };
        // (node, host that absorbs its text, nearest element around it)
        let mut stack: Vec<(NodeId, Option<usize>, Option<usize>)> =
            h.roots.iter().rev().map(|r| (*r, None, None)).collect();
        while let Some((id, host, around)) = stack.pop() {
            let Some(node) = h.node(id) else { continue };
            let (host, around) = builder.visit(id, node, host, around);
            stack.extend(node.children.iter().rev().map(|c| (*c, host, around)));
        }
        let mut elements = builder.elements;
        name_toggles_by_their_rows(&mut elements, &builder.hosts);
        for e in &mut elements {
            let container = e
                .nodes
                .iter()
                .copied()
                .find(|&n| h.node(n).is_some_and(|n| n.scrollable));
            if let Some(container) = container {
                e.state.more = scroll::more(h, container, e.bounds);
            }
        }
        ElementList {
            screen,
            package: h.top_package().map(str::to_string),
            elements,
        }
    }

    pub fn get(&self, id: ElementId) -> Option<&Element> {
        let i = (id.0 as usize).checked_sub(1)?;
        self.elements.get(i).filter(|e| e.id == id)
    }

    /// The element that stands for a hierarchy node (made from it, merged it, or folded its text).
    pub fn element_for_node(&self, node: NodeId) -> Option<&Element> {
        self.elements.iter().find(|e| e.nodes.contains(&node))
    }

    pub fn len(&self) -> usize {
        self.elements.len()
    }

    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }
}

struct Builder<'a> {
    options: &'a Options,
    screen: Bounds,
    elements: Vec<Element>,
    /// For each element, the tappable element its text would have folded into (its row).
    hosts: Vec<Option<usize>>,
}

/// Gives each nameless toggle (a switch, checkbox or radio button showing no string) the title of
/// the row it sits in, as Android's accessibility does: a Settings switch is announced by its
/// preference's title. Done after the walk, as a row's title may come after its switch.
fn name_toggles_by_their_rows(elements: &mut [Element], hosts: &[Option<usize>]) {
    for (i, host) in hosts.iter().enumerate() {
        let Some(row) = host.filter(|&h| h != i) else {
            continue;
        };
        let e = &elements[i];
        let toggle = matches!(e.role, Role::Switch | Role::Checkbox | Role::Radio);
        if toggle && e.strings().next().is_none() {
            let name = row_title(&elements[row]).to_string();
            elements[i].name = name;
        }
    }
}

/// A row's title: its own text, else the first text inside it (a preference's `title`), else its
/// description up to the first comma (a composite description joins title, summary and state:
/// "Bluetooth, On", "Shazam,48.97 MB, On, Switch"; the row's own line shows the rest).
fn row_title(row: &Element) -> &str {
    if !row.text.is_empty() {
        return &row.text;
    }
    if let Some(first) = row.folded.first() {
        return first;
    }
    row.desc.split(',').next().unwrap_or("").trim()
}

impl Builder<'_> {
    /// Decides what one node becomes; returns the host and nearest element for its children.
    fn visit(
        &mut self,
        id: NodeId,
        node: &Node,
        host: Option<usize>,
        around: Option<usize>,
    ) -> (Option<usize>, Option<usize>) {
        let bounds = if self.screen.is_empty() {
            node.bounds
        } else {
            node.bounds.intersect(&self.screen)
        };
        let visible = (node.visible_to_user || self.options.keep_invisible) && !bounds.is_empty();
        if !visible {
            return (host, around);
        }
        let text = node.text.trim();
        let desc = node.content_desc.trim();
        if node.is_actionable() {
            if let Some(outer) = around.filter(|&i| self.elements[i].bounds == bounds) {
                self.merge(outer, id, node);
                return (host, around);
            }
            let index = self.push(id, node, bounds);
            self.hosts[index] = host;
            let actions = self.elements[index].actions;
            let area_ok = (bounds.area() as f64)
                <= self.options.max_host_share as f64 * self.screen.area().max(1) as f64
                || self.screen.is_empty();
            let new_host = (self.options.fold && actions.hosts_text() && area_ok).then_some(index);
            return (new_host, Some(index));
        }
        if text.is_empty() && desc.is_empty() {
            return (host, around);
        }
        if let Some(h) = host {
            let element = &mut self.elements[h];
            element.add_string(text);
            element.add_string(desc);
            element.nodes.push(id);
            return (host, around);
        }
        // Static text that the element around it already shows in full (a label inside a card
        // whose description reads it out), or that covers exactly the same rectangle, adds
        // nothing but a line: it joins that element.
        if let Some(a) = around {
            let element = &mut self.elements[a];
            let shown = |s: &str| {
                s.is_empty()
                    || element
                        .strings()
                        .take(DEDUP_LIMIT)
                        .any(|own| own.contains(s))
            };
            if element.bounds == bounds || (shown(text) && shown(desc)) {
                element.add_string(text);
                element.add_string(desc);
                element.nodes.push(id);
                return (host, around);
            }
        }
        let index = self.push(id, node, bounds);
        (host, Some(index))
    }

    fn push(&mut self, id: NodeId, node: &Node, bounds: Bounds) -> usize {
        let state = State::of(node);
        // An empty field shows its hint as `hint: …`, never as if it were typed text.
        let text = if state.empty {
            String::new()
        } else {
            node.text.trim().to_string()
        };
        let distinct = |s: &str| {
            if s == text {
                String::new()
            } else {
                s.to_string()
            }
        };
        let element = Element {
            id: ElementId(self.elements.len() as u32 + 1),
            role: Role::of(node),
            class: node.short_class().to_string(),
            desc: distinct(node.content_desc.trim()),
            hint: distinct(node.hint.trim()),
            text,
            folded: Vec::new(),
            name: String::new(),
            resource_id: node.resource_id.trim().to_string(),
            state,
            actions: Actions::of(node),
            bounds,
            center: bounds.center(),
            index: node.index,
            nodes: vec![id],
        };
        self.elements.push(element);
        self.hosts.push(None);
        self.elements.len() - 1
    }

    fn merge(&mut self, into: usize, id: NodeId, node: &Node) {
        let element = &mut self.elements[into];
        let role = Role::of(node);
        if role.is_specific() && !element.role.is_specific() {
            element.role = role;
            element.class = node.short_class().to_string();
        }
        let state = State::of(node);
        element.state.merge(state);
        element.actions.merge(Actions::of(node));
        if element.resource_id.is_empty() {
            element.resource_id = node.resource_id.trim().to_string();
        }
        let text = if state.empty { "" } else { node.text.trim() };
        if element.text.is_empty() && !element.strings().any(|own| own == text) {
            element.text = text.to_string();
        } else {
            element.add_string(text);
        }
        element.add_string(node.content_desc.trim());
        if element.hint.is_empty() && !element.strings().any(|own| own == node.hint.trim()) {
            element.hint = node.hint.trim().to_string();
        }
        element.nodes.push(id);
    }
}

//! The typed tree of one `uiautomator dump`: every node in document order in one arena, with its
//! attributes decoded (bounds as integers, flags as bools) and every attribute we do not model kept.

use droidmcp_geom::Bounds;

/// Index of a node in [`Hierarchy::nodes`]; document (pre-)order, so a parent's id is below its
/// children's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "n{}", self.0)
    }
}

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One parsed dump: the `<hierarchy>` element's attributes and all `<node>`s beneath it.
///
/// A dump may hold several top-level nodes (one per window: status bar, app, IME, dialog), so the
/// tree is a forest; [`Hierarchy::roots`] lists them in document order.
#[derive(Debug, Clone, Default)]
pub struct Hierarchy {
    /// The `rotation` attribute of `<hierarchy>` (0–3), when present and numeric.
    pub rotation: Option<u8>,
    /// Every other attribute of `<hierarchy>`, in document order.
    pub attributes: Vec<(String, String)>,
    /// All nodes in document order.
    pub nodes: Vec<Node>,
    /// Top-level nodes in document order.
    pub roots: Vec<NodeId>,
    /// The decoded XML the tree came from (BOM, UTF-16 and tool messages removed), for raw passthrough.
    pub xml: String,
}

/// One `<node>` of a dump.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Node {
    /// The `index` attribute: position among its siblings as uiautomator counted them.
    pub index: u32,
    pub text: String,
    pub resource_id: String,
    pub class: String,
    pub package: String,
    pub content_desc: String,
    /// The `hint` attribute (API 26+ dumps), empty when absent.
    pub hint: String,
    /// Screen rectangle; all zero when the attribute is missing or unreadable.
    pub bounds: Bounds,
    pub checkable: bool,
    pub checked: bool,
    pub clickable: bool,
    pub enabled: bool,
    pub focusable: bool,
    pub focused: bool,
    pub scrollable: bool,
    pub long_clickable: bool,
    pub password: bool,
    pub selected: bool,
    /// `visible-to-user`; dumps that do not carry the attribute count as visible.
    pub visible_to_user: bool,
    /// `NAF="true"`: uiautomator flagged the node as "not accessibility friendly" (no label).
    pub naf: bool,
    pub drawing_order: Option<i32>,
    pub display_id: Option<i32>,
    /// Attributes not modelled above (e.g. `xpos`), in document order.
    pub extra: Vec<(String, String)>,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// 0 for a top-level node.
    pub depth: u16,
}

impl Node {
    /// The class name after the last `.` (`android.widget.Button` → `Button`).
    pub fn short_class(&self) -> &str {
        short_class(&self.class)
    }

    /// The part of `resource-id` after `:id/` (`com.x:id/fab` → `fab`); the whole id when it has none.
    pub fn resource_id_tail(&self) -> &str {
        resource_id_tail(&self.resource_id)
    }

    /// Whether the node takes typed text. Dumps carry no `editable` flag, so this reads the class.
    pub fn is_editable(&self) -> bool {
        is_editable_class(&self.class)
    }

    /// Whether a person could do something to this node: tap, long-press, toggle, type, scroll.
    pub fn is_actionable(&self) -> bool {
        self.clickable
            || self.long_clickable
            || self.checkable
            || self.scrollable
            || self.is_editable()
    }

    /// An attribute by its name in the dump, including the ones modelled as typed fields.
    pub fn attribute(&self, name: &str) -> Option<String> {
        let flag = |b: bool| Some(b.to_string());
        match name {
            "index" => Some(self.index.to_string()),
            "text" => Some(self.text.clone()),
            "resource-id" => Some(self.resource_id.clone()),
            "class" => Some(self.class.clone()),
            "package" => Some(self.package.clone()),
            "content-desc" => Some(self.content_desc.clone()),
            "hint" => Some(self.hint.clone()),
            "bounds" => Some(self.bounds.to_string()),
            "checkable" => flag(self.checkable),
            "checked" => flag(self.checked),
            "clickable" => flag(self.clickable),
            "enabled" => flag(self.enabled),
            "focusable" => flag(self.focusable),
            "focused" => flag(self.focused),
            "scrollable" => flag(self.scrollable),
            "long-clickable" => flag(self.long_clickable),
            "password" => flag(self.password),
            "selected" => flag(self.selected),
            "visible-to-user" => flag(self.visible_to_user),
            "NAF" => flag(self.naf),
            "drawing-order" => self.drawing_order.map(|v| v.to_string()),
            "display-id" => self.display_id.map(|v| v.to_string()),
            _ => self
                .extra
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone()),
        }
    }
}

impl Hierarchy {
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index())
    }

    /// The screen rectangle: the union of the top-level nodes' bounds (each window's root covers
    /// its window; the app or launcher window covers the screen).
    pub fn screen(&self) -> Bounds {
        let mut screen: Option<Bounds> = None;
        for root in &self.roots {
            let Some(b) = self.node(*root).map(|n| n.bounds) else {
                continue;
            };
            if b.is_empty() {
                continue;
            }
            screen = Some(match screen {
                None => b,
                Some(s) => Bounds::new(
                    s.left.min(b.left),
                    s.top.min(b.top),
                    s.right.max(b.right),
                    s.bottom.max(b.bottom),
                ),
            });
        }
        screen.unwrap_or_default()
    }

    /// The package of the first top-level node that is not System UI (the foreground app, usually).
    pub fn top_package(&self) -> Option<&str> {
        let mut fallback = None;
        for root in &self.roots {
            let Some(node) = self.node(*root) else {
                continue;
            };
            if node.package.is_empty() {
                continue;
            }
            if node.package != "com.android.systemui" {
                return Some(&node.package);
            }
            fallback.get_or_insert(node.package.as_str());
        }
        fallback
    }

    /// Nodes whose ancestors include `id`, in document order (the node itself excluded).
    pub fn descendants(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut stack: Vec<NodeId> = self
            .node(id)
            .map(|n| n.children.iter().rev().copied().collect())
            .unwrap_or_default();
        std::iter::from_fn(move || {
            let next = stack.pop()?;
            if let Some(n) = self.node(next) {
                stack.extend(n.children.iter().rev().copied());
            }
            Some(next)
        })
    }
}

pub(crate) fn short_class(class: &str) -> &str {
    class.rsplit(['.', '$']).next().unwrap_or(class)
}

pub(crate) fn resource_id_tail(id: &str) -> &str {
    match id.split_once(":id/") {
        Some((_, tail)) => tail,
        None => id,
    }
}

pub(crate) fn is_editable_class(class: &str) -> bool {
    let short = short_class(class);
    short.ends_with("EditText")
        || short.ends_with("AutoCompleteTextView")
        || short == "SearchAutoComplete"
}

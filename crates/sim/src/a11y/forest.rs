//! The forwarder's `AccessibilityTreeCreator.buildForest`: one `AndroidAccessibilityWindowInfo` per
//! window, bottom to top (the app reverses `getWindows()`, which lists the top window first), each
//! with its tree of nodes in breadth-first order.
//!
//! The nodes come from the same composed windows `uiautomator dump` writes (`screen::compose`), so
//! the forest and the dump can never disagree. The forwarder's service does not ask for
//! unimportant views (`flagDefault|flagRetrieveInteractiveWindows|flagReportViewIds`), so a
//! window's tree holds its root and the views `dump::important` keeps, as `uiautomator dump
//! --compressed` does; a dropped layout's children hang from its nearest kept ancestor.
//!
//! Ids follow `UniqueIdsGenerator`, one per window: the app numbers a node when it is first
//! asked for it, the root first and then each node's children as the breadth-first walk reaches
//! it, so a node's `unique_id` is its place in that walk and `nodes[i].unique_id == i`.

use droidmcp_geom::Bounds;
use droidmcp_protos::android_env::{
    android_accessibility_window_info::WindowType, AndroidAccessibilityAction,
    AndroidAccessibilityForest, AndroidAccessibilityNodeInfo, AndroidAccessibilityTree,
    AndroidAccessibilityWindowInfo, ProtoRect,
};

use super::super::dump;
use super::super::framework::Framework;
use super::super::screen::{Window, WindowKind};
use super::super::view::{class, View};

/// `AccessibilityNodeInfo.AccessibilityAction` ids (the standard actions carry no label).
mod action {
    pub const FOCUS: i32 = 0x1;
    pub const CLEAR_FOCUS: i32 = 0x2;
    pub const CLICK: i32 = 0x10;
    pub const LONG_CLICK: i32 = 0x20;
    pub const ACCESSIBILITY_FOCUS: i32 = 0x40;
    pub const SET_TEXT: i32 = 0x200000;
    /// `R.id.accessibilityActionShowOnScreen`.
    pub const SHOW_ON_SCREEN: i32 = 0x01020036;
}

/// The forest of what is on screen now.
pub fn build(fw: &mut Framework) -> AndroidAccessibilityForest {
    let windows = fw.windows();
    let app_task = fw.foreground().map(|t| t.id).unwrap_or(0);
    // The window with input focus: the shade while it is down, else the app (or recents) window.
    let focused = if windows.iter().any(|w| w.kind == WindowKind::Shade) {
        WindowKind::Shade
    } else {
        windows
            .iter()
            .find(|w| w.kind.is_app_content())
            .map(|w| w.kind)
            .unwrap_or(WindowKind::App)
    };
    AndroidAccessibilityForest {
        windows: windows
            .iter()
            .enumerate()
            .map(|(layer, w)| window(w, window_id(w.kind, app_task), layer, w.kind == focused))
            .collect(),
    }
}

/// Window ids: Android numbers windows as it creates them; SystemUI's and the IME's exist from
/// boot, an app's window comes with its task, so it takes a number after theirs that changes
/// with the task.
fn window_id(kind: WindowKind, app_task: u32) -> i32 {
    match kind {
        WindowKind::StatusBar => 1,
        WindowKind::NavigationBar => 2,
        WindowKind::Shade => 3,
        WindowKind::HeadsUp => 4,
        WindowKind::Ime => 5,
        WindowKind::Overview => 6,
        WindowKind::App => 100 + app_task as i32,
    }
}

fn window_type(kind: WindowKind) -> WindowType {
    match kind {
        // Recents is the launcher's activity on Pixel phones.
        WindowKind::App | WindowKind::Overview => WindowType::TypeApplication,
        WindowKind::Ime => WindowType::TypeInputMethod,
        WindowKind::StatusBar
        | WindowKind::NavigationBar
        | WindowKind::HeadsUp
        | WindowKind::Shade => WindowType::TypeSystem,
    }
}

/// `processWindow`: the window's fields and its tree. `layer` counts from the bottom window (0),
/// so a window in front has the greater layer, as `AccessibilityWindowInfo.getLayer` says.
fn window(w: &Window, id: i32, layer: usize, focused: bool) -> AndroidAccessibilityWindowInfo {
    AndroidAccessibilityWindowInfo {
        bounds_in_screen: Some(rect(w.root.bounds)),
        id,
        layer: layer as i32,
        window_type: window_type(w.kind) as i32,
        is_active: focused,
        is_focused: focused,
        tree: Some(AndroidAccessibilityTree {
            nodes: nodes(&w.root, id),
        }),
        // The app sets neither the display, the title nor picture-in-picture; nothing here has
        // accessibility focus.
        ..Default::default()
    }
}

/// A view as the accessibility service sees it: its kept descendants as children.
struct Kept<'v> {
    view: &'v View,
    /// `getDrawingOrder`: the place among its parent's children, as the dump's `drawing-order`.
    drawing_order: i32,
    children: Vec<Kept<'v>>,
}

fn keep<'v>(v: &'v View, drawing_order: i32) -> Kept<'v> {
    let mut children = Vec::new();
    for (i, c) in v.accessible_children() {
        hoist(c, i as i32 + 1, &mut children);
    }
    Kept {
        view: v,
        drawing_order,
        children,
    }
}

/// Adds `v` to `out` if it is important, else its own kept descendants in its place.
fn hoist<'v>(v: &'v View, drawing_order: i32, out: &mut Vec<Kept<'v>>) {
    if dump::important(v) {
        out.push(keep(v, drawing_order));
    } else {
        for (i, c) in v.accessible_children() {
            hoist(c, i as i32 + 1, out);
        }
    }
}

/// `processNodesInWindow`: the breadth-first walk from the root, numbering as the app does.
fn nodes(root: &View, window_id: i32) -> Vec<AndroidAccessibilityNodeInfo> {
    let root = keep(root, 0);
    let mut out = Vec::new();
    // (node, depth); a node's children are numbered after everything already queued.
    let mut queue = std::collections::VecDeque::from([(&root, 0)]);
    let mut next_id = 1;
    while let Some((k, depth)) = queue.pop_front() {
        let child_ids: Vec<i32> = (next_id..next_id + k.children.len() as i32).collect();
        next_id += k.children.len() as i32;
        queue.extend(k.children.iter().map(|c| (c, depth + 1)));
        out.push(node(k, out.len() as i32, depth, child_ids, window_id));
    }
    out
}

/// `createAndroidAccessibilityNode`: the fields the app copies from `AccessibilityNodeInfo`.
fn node(
    k: &Kept,
    unique_id: i32,
    depth: i32,
    child_ids: Vec<i32>,
    window_id: i32,
) -> AndroidAccessibilityNodeInfo {
    let v = k.view;
    let f = v.flags;
    let editable = v.class == class::EDIT_TEXT;
    // `getTextSelectionStart/End`: an editable field's cursor (fields here keep it at the end of
    // their text); -1 (`UNDEFINED_SELECTION_INDEX`) for everything else.
    let selection = if editable {
        v.text.encode_utf16().count() as i64
    } else {
        -1
    };
    AndroidAccessibilityNodeInfo {
        unique_id,
        bounds_in_screen: Some(rect(v.bounds)),
        class_name: v.class.to_string(),
        content_description: v.content_desc.clone(),
        hint_text: v.hint.clone(),
        package_name: v.package.clone(),
        text: dump::shown_text(v),
        text_selection_start: selection,
        text_selection_end: selection,
        view_id_resource_name: v.resource_id.clone(),
        window_id,
        is_checkable: f.checkable,
        is_checked: f.checked,
        is_clickable: f.clickable,
        is_editable: editable,
        is_enabled: f.enabled,
        is_focusable: f.focusable,
        // The app never copies `isFocused` (nor labels, spans or tooltips), so a real forest
        // says false here whatever has focus.
        is_focused: false,
        is_long_clickable: f.long_clickable,
        is_password: f.password,
        is_scrollable: f.scrollable,
        is_selected: f.selected,
        // Composition drops what is off screen, so every node left is visible.
        is_visible_to_user: true,
        actions: actions(v),
        child_ids,
        depth,
        drawing_order: k.drawing_order,
        ..Default::default()
    }
}

/// The standard actions a framework view offers (`View.onInitializeAccessibilityNodeInfoInternal`
/// and TextView's), in the order it adds them.
fn actions(v: &View) -> Vec<AndroidAccessibilityAction> {
    let f = v.flags;
    let mut ids = Vec::new();
    if f.focusable {
        ids.push(if f.focused {
            action::CLEAR_FOCUS
        } else {
            action::FOCUS
        });
    }
    ids.push(action::ACCESSIBILITY_FOCUS);
    if f.clickable && f.enabled {
        ids.push(action::CLICK);
    }
    if f.long_clickable && f.enabled {
        ids.push(action::LONG_CLICK);
    }
    if v.class == class::EDIT_TEXT && f.enabled {
        ids.push(action::SET_TEXT);
    }
    ids.push(action::SHOW_ON_SCREEN);
    ids.into_iter()
        .map(|id| AndroidAccessibilityAction {
            id,
            label: String::new(),
        })
        .collect()
}

fn rect(b: Bounds) -> ProtoRect {
    ProtoRect {
        left: b.left,
        top: b.top,
        right: b.right,
        bottom: b.bottom,
    }
}

//! The contract between the embedded phone's framework and its apps.
//!
//! An app is a state machine: the framework asks it to [`App::render`] a view tree from its state and
//! feeds it [`UiEvent`]s addressed by view tag. Persistent data lives where Android keeps it (SQLite
//! files and shared_prefs under `/data/...`, reached through [`System`]), so `force-stop` can drop the
//! app object and a new one reads the same data back. Apps ask the framework for things (launch
//! another app, focus a field, finish) through [`System`] requests rather than by touching the
//! framework.

use super::system::System;
use super::view::View;

/// What happened to a view, as the app sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum UiEvent {
    /// A tap on a clickable view with this tag.
    Click(String),
    /// A long press (≥500 ms) on a long-clickable view with this tag.
    LongClick(String),
    /// The IME changed the text of the focused editable view with this tag; carries the new full text.
    TextChanged { tag: String, text: String },
    /// ENTER (IME action) in the focused editable view with this tag.
    EditorAction(String),
    /// A SeekBar with this tag was set to `value` by a tap or drag.
    Seek { tag: String, value: i32 },
    /// A finger moved from `from` to `to` (screen px) over a drawing surface with this tag
    /// ([`crate::view::View::draws`]).
    Stroke {
        tag: String,
        from: droidmcp_geom::Point,
        to: droidmcp_geom::Point,
    },
    /// The back key; an app that does not handle it is finished by the framework.
    Back,
    /// An alarm the app scheduled with [`System::set_alarm`] came due (the app may be in the
    /// background, its process started for the occasion).
    Alarm(String),
    /// A system broadcast the app listens for, by action (`android.intent.action.PHONE_STATE`
    /// after a call rang, was answered or ended somewhere other than the app itself).
    Broadcast(String),
}

/// An intent the framework delivers to an app it starts or brings to front (`am start -a … -d …
/// --es k v`, or another app's request): `onCreate`/`onNewIntent`'s argument.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Intent {
    pub action: Option<String>,
    pub categories: Vec<String>,
    pub data: Option<String>,
    pub mime: Option<String>,
    /// `--es`/`--ei`/… extras as key and value text.
    pub extras: Vec<(String, String)>,
}

impl Intent {
    pub fn extra(&self, key: &str) -> Option<&str> {
        self.extras
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Whether a broadcast's explicit component (`-n pkg/.Class` or `pkg/full.Class`) and package
/// (`-p`) let it reach the receiver `class` of `package`; an implicit broadcast (neither given)
/// reaches every receiver whose filter takes its action.
pub fn broadcast_reaches(
    component: Option<(&str, &str)>,
    target_package: Option<&str>,
    package: &str,
    class: &str,
) -> bool {
    if let Some((p, c)) = component {
        let full = match c.strip_prefix('.') {
            Some(short) => format!("{p}.{short}"),
            None => c.to_string(),
        };
        if p != package || full != class {
            return false;
        }
    }
    target_package.is_none_or(|p| p == package)
}

/// One installed app as the launcher and package manager see it.
pub struct AppInfo {
    pub package: &'static str,
    /// Fully qualified launcher activity (`com.android.deskclock.DeskClock`).
    pub launch_activity: &'static str,
    /// Builds the app's UI state; called on launch and after force-stop.
    pub create: fn(&mut System) -> Box<dyn App>,
    /// Creates the app's persistent data at first boot and after `pm clear` (databases, prefs).
    pub install: fn(&mut System),
    /// Shown in the launcher's home grid (otherwise only in the app drawer).
    pub on_home_screen: bool,
}

impl AppInfo {
    /// The launcher label in a locale such as `de-DE`: the package's `app_label` string resource,
    /// or the package name for an app that has none (as Android shows a label-less app).
    pub fn label(&self, locale: &str) -> &'static str {
        use super::locale::res::{resources, Value};
        match resources().lookup(locale, self.package, "app_label") {
            Some(e) => match &e.value {
                Value::Text(t) => t,
                _ => self.package,
            },
            None => self.package,
        }
    }
}

/// A running app's UI. Its state is plain data, so a whole-phone snapshot can copy a running app
/// as it stands (screen, dialog, typed text), as an emulator snapshot keeps the app's process.
pub trait App: Send + CloneApp {
    fn package(&self) -> &'static str;

    /// The fully qualified class of the activity on screen (for `dumpsys`, logcat and task checks).
    fn activity(&self) -> String;

    /// The package of the activity on top of the app's task: the app's own, or another package's
    /// that the app started for a result into its task (PermissionController's role request
    /// dialog). Window focus, the dump and `am stack list` name it.
    fn activity_package(&self) -> &'static str {
        self.package()
    }

    /// Builds the content area (inside `sys.metrics.content`) from the app's current state.
    fn render(&self, sys: &System) -> View;

    /// Reacts to an event; returns false when the app did not consume it (an unhandled
    /// [`UiEvent::Back`] finishes the app).
    fn handle(&mut self, event: &UiEvent, sys: &mut System) -> bool;

    /// Receives the intent it was started with or brought to front by; apps that only have a
    /// launcher activity ignore it.
    fn new_intent(&mut self, _intent: &Intent, _sys: &mut System) {}
}

/// Copies a running app for a snapshot; every `App` that is `Clone` has it.
pub trait CloneApp {
    fn clone_app(&self) -> Box<dyn App>;
}

impl<T: App + Clone + 'static> CloneApp for T {
    fn clone_app(&self) -> Box<dyn App> {
        Box::new(self.clone())
    }
}

/// Tags of the [`UiEvent::Click`] the framework sends for a swipe that lands on no scrollable
/// container or SeekBar, named by the direction the finger moved (e.g. the launcher opens its app
/// drawer on `swipe:up`). Apps that do not know them return false.
pub mod swipe {
    pub const UP: &str = "swipe:up";
    pub const DOWN: &str = "swipe:down";
    pub const LEFT: &str = "swipe:left";
    pub const RIGHT: &str = "swipe:right";
}

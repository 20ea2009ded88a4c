//! The embedded phone's view tree: what apps build each frame, what `uiautomator dump` writes and
//! what `screencap` draws.
//!
//! Apps rebuild their tree from their state on every frame (there is no retained widget state in
//! views); the framework keeps focus, scroll offsets and the IME, and addresses views by `tag`.
//! Bounds are absolute screen pixels. Children of a scrollable view are laid out in content
//! coordinates (as if unscrolled); the framework shifts them by the scroll offset and drops the ones
//! that leave the container, as Android's RecyclerView does.

use droidmcp_geom::Bounds;

/// Android widget classes the phone uses, spelled as uiautomator reports them.
pub mod class {
    pub const FRAME_LAYOUT: &str = "android.widget.FrameLayout";
    pub const LINEAR_LAYOUT: &str = "android.widget.LinearLayout";
    pub const RELATIVE_LAYOUT: &str = "android.widget.RelativeLayout";
    pub const VIEW_GROUP: &str = "android.view.ViewGroup";
    pub const VIEW: &str = "android.view.View";
    pub const TEXT_VIEW: &str = "android.widget.TextView";
    pub const BUTTON: &str = "android.widget.Button";
    pub const IMAGE_BUTTON: &str = "android.widget.ImageButton";
    pub const IMAGE_VIEW: &str = "android.widget.ImageView";
    pub const EDIT_TEXT: &str = "android.widget.EditText";
    pub const SWITCH: &str = "android.widget.Switch";
    pub const CHECK_BOX: &str = "android.widget.CheckBox";
    pub const SEEK_BAR: &str = "android.widget.SeekBar";
    pub const RECYCLER_VIEW: &str = "androidx.recyclerview.widget.RecyclerView";
    pub const LIST_VIEW: &str = "android.widget.ListView";
    pub const SCROLL_VIEW: &str = "android.widget.ScrollView";
    pub const HORIZONTAL_SCROLL_VIEW: &str = "android.widget.HorizontalScrollView";
    pub const GRID_VIEW: &str = "android.widget.GridView";
    pub const NUMBER_PICKER: &str = "android.widget.NumberPicker";
    pub const TOGGLE_BUTTON: &str = "android.widget.ToggleButton";
    pub const RADIO_BUTTON: &str = "android.widget.RadioButton";
    pub const CHECKED_TEXT_VIEW: &str = "android.widget.CheckedTextView";
}

/// `Widget.Material.SeekBar`'s horizontal padding: its track, and the scale a touch is read on,
/// start and end this far inside the view.
pub const SEEK_BAR_PAD_DP: f32 = 16.0;

/// The boolean attributes uiautomator reports for every node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags {
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
}

/// How the renderer should paint a view beyond its class defaults (pure presentation; never dumped).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Style {
    /// Background fill as RGBA; `None` is transparent.
    pub background: Option<[u8; 4]>,
    /// Text colour as RGBA; `None` is the theme default.
    pub text_color: Option<[u8; 4]>,
    /// Text size in sp (scaled by density and font scale at render time); `None` is 14sp.
    pub text_size_sp: Option<f32>,
    /// A named icon the renderer knows how to draw (e.g. "back", "alarm", "wifi"); `None` draws none.
    pub icon: Option<&'static str>,
    /// Corner radius in px for the background.
    pub corner_radius: i32,
    /// A border inside the bounds: width in px and colour (a web page's CSS `border`).
    pub border: Option<(i32, [u8; 4])>,
    /// Centre the text horizontally instead of left-aligning it.
    pub center_text: bool,
    /// Text colour by theme role, used when `text_color` is `None` (follows light/dark theme).
    pub text_role: Option<Role>,
    /// Background by theme role, used when `background` is `None` (follows light/dark theme).
    pub background_role: Option<Role>,
    /// Draw the text in the medium (bold-ish) weight, as Android titles and buttons do.
    pub bold: bool,
    /// Paint this wallpaper over the view's bounds (the launcher's background).
    pub wallpaper: Option<crate::render::Wallpaper>,
    /// A launcher icon's size in px, when the home-screen grid sets it; `None` fits the cell.
    pub icon_px: Option<i32>,
    /// Laid out right to left (set by [`View::mirror`] in Arabic and Urdu): text is aligned to
    /// the right unless its first strong letter is left-to-right, as a TextView's default
    /// gravity `start` and `firstStrong` text direction do.
    pub rtl: bool,
    /// A bitmap the view shows scaled to fit its bounds, centred (an ImageView's `fitCenter`):
    /// a gallery's photo or thumbnail, a drawing app's canvas.
    pub picture: Option<Picture>,
    /// Vector paint over the background (OsmAnd's map), in screen pixels; shared, so a frame's
    /// copies of the tree do not copy it.
    pub drawing: Option<std::sync::Arc<crate::render::Drawing>>,
}

/// Decoded pixels shared between frames (cheap to clone). Two pictures are equal when they are
/// the same decoded image or hold the same pixels.
#[derive(Clone)]
pub struct Picture(pub std::sync::Arc<image::RgbaImage>);

impl Picture {
    pub fn new(image: image::RgbaImage) -> Picture {
        Picture(std::sync::Arc::new(image))
    }
}

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Picture({}x{})", self.0.width(), self.0.height())
    }
}

impl PartialEq for Picture {
    fn eq(&self, other: &Picture) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0) || *self.0 == *other.0
    }
}

/// Colours the renderer resolves against the light or dark theme, so apps need not know the theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Body text; the window background.
    Primary,
    /// Summaries, hints and captions.
    Secondary,
    /// The theme's accent (switch tracks, FABs, links).
    Accent,
    /// Text or icons drawn on an accent background.
    OnAccent,
    /// The app's background.
    Surface,
    /// Cards, search bars and list containers that stand out from the surface.
    SurfaceVariant,
    /// The IME panel behind the keys.
    Keyboard,
    /// One IME key.
    Key,
    /// Destructive actions (end call, delete).
    Danger,
}

/// One node of the screen.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    pub class: &'static str,
    /// Full resource id (`com.google.android.deskclock:id/fab`) or empty.
    pub resource_id: String,
    pub text: String,
    pub content_desc: String,
    pub hint: String,
    /// Package that owns the view; filled by the framework from the window when empty.
    pub package: String,
    pub bounds: Bounds,
    pub flags: Flags,
    /// The app's handle for events on this view (click, long click, text change, seek); never dumped.
    pub tag: Option<String>,
    /// For a SeekBar: (current, max), so the framework can map a tap/drag position to a value.
    pub range: Option<(i32, i32)>,
    pub style: Style,
    pub children: Vec<View>,
    /// `android:layoutDirection="ltr"`: the subtree keeps its left-to-right arrangement in a
    /// right-to-left locale (dial pads, keypads, clock faces), only moving as a whole.
    pub layout_ltr: bool,
    /// `android:showSoftInputOnFocus="false"` on an editable view: it takes focus and typed keys
    /// but no soft keyboard comes up (the Dialer's digits, which its own dial pad types into).
    pub no_soft_input: bool,
    /// A surface that takes a finger's path (a drawing app's canvas): a swipe that starts on it
    /// is delivered as [`crate::app::UiEvent::Stroke`] instead of scrolling or a direction.
    pub draws: bool,
    /// An open drawer's scrim: the siblings drawn before it are still painted but hidden from
    /// accessibility (DrawerLayout marks its content `importantForAccessibility` no-hide-
    /// descendants while a drawer is open), so neither `uiautomator dump` nor an accessibility
    /// service lists what the drawer covers.
    pub hides_below: bool,
}

impl View {
    /// A view of `class` at `bounds`, enabled, with everything else empty.
    pub fn new(class: &'static str, bounds: Bounds) -> Self {
        View {
            class,
            resource_id: String::new(),
            text: String::new(),
            content_desc: String::new(),
            hint: String::new(),
            package: String::new(),
            bounds,
            flags: Flags {
                enabled: true,
                ..Flags::default()
            },
            tag: None,
            range: None,
            style: Style::default(),
            children: Vec::new(),
            layout_ltr: false,
            no_soft_input: false,
            draws: false,
            hides_below: false,
        }
    }

    /// An open drawer's scrim (see [`View::hides_below`]).
    pub fn hides_below(mut self) -> Self {
        self.hides_below = true;
        self
    }

    /// The children accessibility sees, each with its place among all the children: those from
    /// the last one that hides what is below it (see [`View::hides_below`]), else all.
    pub fn accessible_children(&self) -> impl Iterator<Item = (usize, &View)> {
        let from = self
            .children
            .iter()
            .rposition(|c| c.hides_below)
            .unwrap_or(0);
        self.children.iter().enumerate().skip(from)
    }

    /// A drawing surface with this tag (see [`View::draws`]).
    pub fn drawing(mut self, tag: impl Into<String>) -> Self {
        self.tag = Some(tag.into());
        self.draws = true;
        self
    }

    /// Focus without a soft keyboard (see [`View::no_soft_input`]).
    pub fn no_soft_input(mut self) -> Self {
        self.no_soft_input = true;
        self
    }

    /// Keeps this subtree left to right in a right-to-left locale (see [`View::layout_ltr`]).
    pub fn layout_ltr(mut self) -> Self {
        self.layout_ltr = true;
        self
    }

    /// Mirrors the subtree for a right-to-left locale around the vertical axis between `left` and
    /// `right` (the window's edges): what apps lay out from the left edge ends up from the right,
    /// as Android resolves `start`/`end` in a right-to-left layout direction. A `layout_ltr`
    /// subtree and a horizontal scroller's content keep their inner order and move as a whole.
    pub fn mirror(&mut self, left: i32, right: i32) {
        let b = self.bounds;
        let mirrored = Bounds::new(
            left + right - b.right,
            b.top,
            left + right - b.left,
            b.bottom,
        );
        if self.layout_ltr || self.class == class::HORIZONTAL_SCROLL_VIEW {
            self.shift(mirrored.left - b.left, 0);
            return;
        }
        self.bounds = mirrored;
        self.style.rtl = true;
        for c in &mut self.children {
            c.mirror(left, right);
        }
    }

    /// Moves this view and its subtree by (`dx`, `dy`) px.
    pub fn shift(&mut self, dx: i32, dy: i32) {
        self.bounds = self.bounds.offset(dx, dy);
        for c in &mut self.children {
            c.shift(dx, dy);
        }
    }

    pub fn id(mut self, resource_id: impl Into<String>) -> Self {
        self.resource_id = resource_id.into();
        self
    }

    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    pub fn desc(mut self, desc: impl Into<String>) -> Self {
        self.content_desc = desc.into();
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = hint.into();
        self
    }

    /// Makes the view clickable and names the event the app receives when it is tapped.
    pub fn on_click(mut self, tag: impl Into<String>) -> Self {
        self.flags.clickable = true;
        self.flags.focusable = true;
        self.tag = Some(tag.into());
        self
    }

    /// Makes the view long-clickable as well (the tag is shared with click).
    pub fn long_clickable(mut self) -> Self {
        self.flags.long_clickable = true;
        self
    }

    /// Makes a TextView's text selectable (`android:textIsSelectable`): a long press selects a
    /// word and offers Copy; the framework handles it under the tag `selectable:<key>`.
    pub fn selectable(mut self, key: &str) -> Self {
        self.flags.long_clickable = true;
        self.flags.focusable = true;
        self.tag = Some(format!("{}{key}", crate::selection::SELECTABLE_PREFIX));
        self
    }

    /// Makes the view checkable with the given state (Switch, CheckBox).
    pub fn checked(mut self, checked: bool) -> Self {
        self.flags.checkable = true;
        self.flags.checked = checked;
        self
    }

    pub fn selected(mut self, selected: bool) -> Self {
        self.flags.selected = selected;
        self
    }

    pub fn enabled(mut self, enabled: bool) -> Self {
        self.flags.enabled = enabled;
        self
    }

    pub fn password(mut self) -> Self {
        self.flags.password = true;
        self
    }

    /// Makes the view a scroll container; `tag` keys its scroll offset in the framework.
    pub fn scrollable(mut self, tag: impl Into<String>) -> Self {
        self.flags.scrollable = true;
        self.flags.focusable = true;
        self.tag = Some(tag.into());
        self
    }

    /// An editable text field: typing while it is focused sends `UiEvent::TextChanged` with this tag.
    pub fn editable(mut self, tag: impl Into<String>) -> Self {
        self.flags.clickable = true;
        self.flags.focusable = true;
        self.flags.long_clickable = true;
        self.tag = Some(tag.into());
        self
    }

    pub fn style(mut self, style: Style) -> Self {
        self.style = style;
        self
    }

    pub fn child(mut self, child: View) -> Self {
        self.children.push(child);
        self
    }

    pub fn children(mut self, children: impl IntoIterator<Item = View>) -> Self {
        self.children.extend(children);
        self
    }

    /// Depth-first search by tag.
    pub fn find_by_tag(&self, tag: &str) -> Option<&View> {
        if self.tag.as_deref() == Some(tag) {
            return Some(self);
        }
        self.children.iter().find_map(|c| c.find_by_tag(tag))
    }

    /// Depth-first search by full resource id.
    pub fn find_by_id(&self, resource_id: &str) -> Option<&View> {
        if self.resource_id == resource_id {
            return Some(self);
        }
        self.children.iter().find_map(|c| c.find_by_id(resource_id))
    }
}

/// Density-aware sizes for laying out a frame: apps think in dp/sp, the tree holds px.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    /// Screen size in px.
    pub width: i32,
    pub height: i32,
    /// Pixels per dp (density / 160).
    pub density: f32,
    /// User font scale (Settings > Display > Font size).
    pub font_scale: f32,
    /// The area apps draw in: below the status bar, above the navigation bar.
    pub content: Bounds,
}

impl Metrics {
    /// dp → px, rounded.
    pub fn dp(&self, dp: f32) -> i32 {
        (dp * self.density).round() as i32
    }

    /// sp → px (dp scaled by the font scale), rounded.
    pub fn sp(&self, sp: f32) -> i32 {
        (sp * self.density * self.font_scale).round() as i32
    }
}

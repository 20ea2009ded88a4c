//! Text selection and the floating text toolbar, as `android.widget.Editor` runs them for a
//! TextView: a long press selects the word under the finger (or, in an empty field, places the
//! cursor) and shows the floating toolbar with the items `TextActionModeCallback` offers — "Cut",
//! "Copy", "Paste", "Select all" — whose clicks go to the clipboard service. The same operations
//! answer KEYCODE_CUT/COPY/PASTE (277/278/279) and ctrl+x/c/v/a.
//!
//! The toolbar is drawn by the app's process, so it joins the app's window (package, dump and hit
//! test), placed above the selected view (below it when there is no room), its buttons laid out as
//! `LocalFloatingToolbarPopup` builds them: a clickable LinearLayout whose content description is the
//! item's title, holding the title in `android:id/floating_toolbar_menu_item_text`.
//!
//! The phone's text fields keep no cursor: typing goes to the end of the text, so a paste without
//! a selection appends, and one with a selection replaces it, as on Android with the cursor at the
//! end.

use droidmcp_geom::{Bounds, Point};

use super::app::UiEvent;
use super::framework::Framework;
use super::render::text::{measure, TextStyle};
use super::view::{class, Metrics, Role, Style, View};

/// Tags of the toolbar's buttons: `textsel:<item>`.
pub const TOOLBAR_PREFIX: &str = "textsel:";
/// Tags of TextViews whose text can be selected and copied (`android:textIsSelectable`).
pub const SELECTABLE_PREFIX: &str = "selectable:";

/// A selection in one view of the foreground app, in characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub package: String,
    pub tag: String,
    pub start: usize,
    pub end: usize,
    /// An EditText (cut and paste allowed) rather than a selectable TextView.
    pub editable: bool,
    /// The view's text when the selection was made (a selectable TextView's text cannot change
    /// under it; an EditText's is read again before each operation).
    pub text: String,
}

/// The toolbar's items, in `Editor`'s menu order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Cut,
    Copy,
    Paste,
    SelectAll,
}

impl Item {
    const ALL: [Item; 4] = [Item::Cut, Item::Copy, Item::Paste, Item::SelectAll];

    /// The menu item's name (`android.R.id.cut` …), used in its tag.
    fn name(self) -> &'static str {
        match self {
            Item::Cut => "cut",
            Item::Copy => "copy",
            Item::Paste => "paste",
            Item::SelectAll => "selectAll",
        }
    }

    /// The title in the phone's language (`com.android.internal.R.string.cut` …, whose names
    /// are the items' names).
    fn title(self, locale: &str) -> &'static str {
        super::locale::string(locale, "android", self.name())
    }

    fn from_tag(tag: &str) -> Option<Item> {
        let name = tag.strip_prefix(TOOLBAR_PREFIX)?;
        Item::ALL.into_iter().find(|i| i.name() == name)
    }
}

impl Selection {
    fn has_range(&self) -> bool {
        self.end > self.start
    }

    fn selected(&self) -> String {
        self.text
            .chars()
            .skip(self.start)
            .take(self.end - self.start)
            .collect()
    }

    /// The items `TextActionModeCallback.populateMenuWithItems` shows: cut and copy need a range
    /// (cut an editable one), paste an editable view and text on the clipboard, select all text that
    /// is not all selected already.
    pub fn items(&self, clip_has_text: bool) -> Vec<Item> {
        let len = self.text.chars().count();
        Item::ALL
            .into_iter()
            .filter(|i| match i {
                Item::Cut => self.editable && self.has_range(),
                Item::Copy => self.has_range(),
                Item::Paste => self.editable && clip_has_text,
                Item::SelectAll => len > 0 && !(self.start == 0 && self.end == len),
            })
            .collect()
    }
}

/// The word around character `at`: a run of letters, digits and the marks that join them inside
/// words and numbers (`'`, `.`, `,`, `-`, `_`, `@`, `+`, `:`, `/`), without trailing marks. When `at`
/// falls between words, the nearest word before it (else after it).
pub fn word_at(text: &str, at: usize) -> (usize, usize) {
    let chars: Vec<char> = text.chars().collect();
    let joins = |c: char| "'.,-_@+:/".contains(c);
    let word = |c: char| c.is_alphanumeric();
    if chars.is_empty() {
        return (0, 0);
    }
    let at = at.min(chars.len() - 1);
    let Some(anchor) = (0..=at)
        .rev()
        .find(|&i| word(chars[i]))
        .or_else(|| (at..chars.len()).find(|&i| word(chars[i])))
    else {
        return (0, chars.len());
    };
    let inside = |i: usize| word(chars[i]) || joins(chars[i]);
    let mut start = anchor;
    while start > 0 && inside(start - 1) {
        start -= 1;
    }
    let mut end = anchor + 1;
    while end < chars.len() && inside(end) {
        end += 1;
    }
    while start < end && !word(chars[start]) {
        start += 1;
    }
    while end > start && !word(chars[end - 1]) {
        end -= 1;
    }
    (start, end)
}

/// The character under `x` in a view's single line of text, measured with the font the renderer
/// draws it in (EditTexts inset their text as Material's filled fields do).
fn char_at(view: &View, x: i32, m: &Metrics) -> usize {
    let size_px = view.style.text_size_sp.unwrap_or(14.0) * m.density * m.font_scale;
    let style = TextStyle {
        size_px,
        color: [0, 0, 0, 255],
        bold: view.style.bold,
        center: false,
        rtl: false,
    };
    let inset = if view.class == class::EDIT_TEXT {
        m.dp(16.0)
    } else {
        0
    };
    let dx = (x - view.bounds.left - inset) as f32;
    let mut width = 0.0;
    for (i, c) in view.text.chars().enumerate() {
        let w = measure(&c.to_string(), &style);
        if dx < width + w / 2.0 {
            return i;
        }
        width += w;
    }
    view.text.chars().count()
}

/// The floating toolbar for `items`, anchored to the selected view's on-screen bounds.
pub fn toolbar(items: &[Item], anchor: Bounds, m: &Metrics, locale: &str) -> View {
    let height = m.dp(48.0);
    let pad = m.dp(16.0);
    let widths: Vec<i32> = items
        .iter()
        .map(|i| {
            let style = TextStyle {
                size_px: m.sp(14.0) as f32,
                color: [0, 0, 0, 255],
                bold: true,
                center: false,
                rtl: false,
            };
            measure(i.title(locale), &style).ceil() as i32 + 2 * pad
        })
        .collect();
    let total: i32 = widths.iter().sum();
    let margin = m.dp(8.0);
    let left = (anchor.left + (anchor.width() - total) / 2)
        .clamp(margin, (m.width - margin - total).max(margin));
    let gap = m.dp(8.0);
    let top = if anchor.top - gap - height >= m.content.top {
        anchor.top - gap - height
    } else {
        (anchor.bottom + gap).min(m.content.bottom - height)
    };
    let bar = Bounds::new(left, top, left + total, top + height);
    let mut x = left;
    let buttons = items.iter().zip(&widths).map(|(item, w)| {
        let b = Bounds::new(x, top, x + w, top + height);
        x += w;
        View::new(class::LINEAR_LAYOUT, b)
            .desc(item.title(locale))
            .on_click(format!("{TOOLBAR_PREFIX}{}", item.name()))
            .child(
                View::new(class::BUTTON, b)
                    .id("android:id/floating_toolbar_menu_item_text")
                    .text(item.title(locale))
                    .style(Style {
                        text_role: Some(Role::Primary),
                        bold: true,
                        center_text: true,
                        ..Style::default()
                    }),
            )
    });
    View::new(class::LINEAR_LAYOUT, bar)
        .style(Style {
            background_role: Some(Role::SurfaceVariant),
            corner_radius: m.dp(8.0),
            ..Style::default()
        })
        .children(buttons)
}

/// Where and what the toolbar shows over `window_root` (the laid-out app window), if a selection
/// of this window's package is on screen.
pub fn toolbar_for(fw: &Framework, package: &str, window_root: &View) -> Option<View> {
    let sel = fw.selection.as_ref().filter(|s| s.package == package)?;
    let anchor = window_root.find_by_tag(&sel.tag)?.bounds;
    let items = sel.items(fw.sys.clipboard.text().is_some());
    if items.is_empty() {
        return None;
    }
    Some(toolbar(&items, anchor, &fw.sys.metrics, &fw.sys.locale))
}

impl Framework {
    /// A long press on an EditText or a selectable TextView: selects the word under the finger
    /// (an empty field gets an insertion point and the Paste item). True when it was one.
    pub(super) fn long_press_text(&mut self, target: &View, p: Point) -> bool {
        let Some(tag) = target.tag.clone() else {
            return false;
        };
        let editable = target.class == class::EDIT_TEXT;
        if !editable && !tag.starts_with(SELECTABLE_PREFIX) {
            return false;
        }
        let package = self.foreground_package().to_string();
        let (start, end) = if target.text.is_empty() {
            (0, 0)
        } else {
            word_at(&target.text, char_at(target, p.x, &self.sys.metrics))
        };
        self.selection = Some(Selection {
            package,
            tag,
            start,
            end,
            editable,
            text: target.text.clone(),
        });
        true
    }

    /// A tap on a toolbar button; true when `tag` was one.
    pub(super) fn toolbar_click(&mut self, tag: &str) -> bool {
        let Some(item) = Item::from_tag(tag) else {
            return false;
        };
        match item {
            Item::Cut => self.cut(),
            Item::Copy => self.copy(),
            Item::Paste => self.paste(),
            Item::SelectAll => self.select_all(),
        }
        true
    }

    /// The live selection, its text refreshed from the app for an EditText; `None` (and the
    /// selection dropped) when its view is gone.
    fn current_selection(&mut self) -> Option<Selection> {
        let mut sel = self.selection.clone()?;
        if sel.package != self.foreground_package() || self.overview {
            self.selection = None;
            return None;
        }
        if sel.editable {
            let text = self.stack.last().and_then(|t| {
                t.app
                    .render(&self.sys)
                    .find_by_tag(&sel.tag)
                    .map(|v| v.text.clone())
            });
            let Some(text) = text else {
                self.selection = None;
                return None;
            };
            if text != sel.text {
                let len = text.chars().count();
                sel.start = sel.start.min(len);
                sel.end = sel.end.min(len);
                sel.text = text;
            }
        }
        Some(sel)
    }

    /// The selection in the focused field, or an insertion point at its end (ctrl+v and the
    /// PASTE key act on the focused field with no toolbar).
    fn focused_selection(&mut self) -> Option<Selection> {
        if let Some(sel) = self.current_selection().filter(|s| s.editable) {
            return Some(sel);
        }
        let (tag, text) = self.focused_text()?;
        let len = text.chars().count();
        Some(Selection {
            package: self.foreground_package().to_string(),
            tag,
            start: len,
            end: len,
            editable: true,
            text,
        })
    }

    fn clip_label(&self) -> String {
        self.app_info(self.foreground_package())
            .map(|a| a.label(&self.sys.locale).to_string())
            .unwrap_or_default()
    }

    /// Copy: the selected text becomes the primary clip; the toolbar closes.
    pub fn copy(&mut self) {
        let Some(sel) = self.current_selection().filter(Selection::has_range) else {
            return;
        };
        let (package, label) = (sel.package.clone(), self.clip_label());
        self.sys.clipboard.set(&package, &label, &sel.selected());
        self.selection = None;
    }

    /// Cut: copy, then the selected text leaves the field.
    pub fn cut(&mut self) {
        let Some(sel) = self
            .current_selection()
            .filter(|s| s.editable && s.has_range())
        else {
            return;
        };
        let (package, label) = (sel.package.clone(), self.clip_label());
        self.sys.clipboard.set(&package, &label, &sel.selected());
        self.replace_selection(&sel, "");
    }

    /// Paste: the clip's text replaces the selection (or goes at the end of the focused field).
    pub fn paste(&mut self) {
        let Some(text) = self.sys.clipboard.text().map(str::to_string) else {
            return;
        };
        if let Some(sel) = self.focused_selection() {
            self.replace_selection(&sel, &text);
        }
    }

    /// Select all: the whole text of the selected view (or of the focused field).
    pub fn select_all(&mut self) {
        let sel = match self.current_selection() {
            Some(s) => Some(s),
            None => self.focused_selection(),
        };
        if let Some(mut sel) = sel {
            sel.start = 0;
            sel.end = sel.text.chars().count();
            self.selection = Some(sel);
        }
    }

    /// Typing over a selection in the focused field: the selected text goes first, and the typed
    /// text lands where it was. False when there is no such selection (typing appends).
    pub(super) fn type_over_selection(&mut self, typed: &str) -> bool {
        let focus = self.focus.clone();
        let Some(sel) = self.current_selection().filter(|s| {
            s.editable && s.has_range() && focus.as_ref().is_some_and(|(_, t)| *t == s.tag)
        }) else {
            return false;
        };
        self.replace_selection(&sel, typed);
        true
    }

    fn replace_selection(&mut self, sel: &Selection, with: &str) {
        let mut chars: Vec<char> = sel.text.chars().collect();
        chars.splice(sel.start..sel.end, with.chars());
        self.selection = None;
        self.focus = Some((sel.package.clone(), sel.tag.clone()));
        self.ime_visible = true;
        self.dispatch(UiEvent::TextChanged {
            tag: sel.tag.clone(),
            text: chars.into_iter().collect(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_at_picks_words_numbers_and_neighbours() {
        let t = "Call (555) 123-4567 now.";
        let pick = |at| {
            let (s, e) = word_at(t, at);
            t.chars().skip(s).take(e - s).collect::<String>()
        };
        assert_eq!(pick(1), "Call");
        assert_eq!(pick(7), "555");
        assert_eq!(pick(13), "123-4567");
        assert_eq!(pick(22), "now");
        assert_eq!(pick(4), "Call");
        assert_eq!(word_at("日本語 テキスト", 5), (4, 8));
        assert_eq!(word_at("   ", 1), (0, 3));
    }

    #[test]
    fn items_follow_the_editor_menu_rules() {
        let sel = |editable, start, end| Selection {
            package: "p".into(),
            tag: "t".into(),
            start,
            end,
            editable,
            text: "hello world".into(),
        };
        assert_eq!(
            sel(true, 0, 5).items(true),
            vec![Item::Cut, Item::Copy, Item::Paste, Item::SelectAll]
        );
        assert_eq!(
            sel(false, 0, 5).items(true),
            vec![Item::Copy, Item::SelectAll]
        );
        assert_eq!(sel(true, 0, 11).items(false), vec![Item::Cut, Item::Copy]);
        let empty = Selection {
            text: String::new(),
            ..sel(true, 0, 0)
        };
        assert_eq!(empty.items(true), vec![Item::Paste]);
        assert!(empty.items(false).is_empty());
    }
}

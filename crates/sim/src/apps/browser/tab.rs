//! A tab showing a local page (`file://` or a document a file manager handed over): the page
//! engine (`droidmcp-page`) runs it, and the tab turns its layout into the views Chrome's
//! WebView exposes to uiautomator (an `android.webkit.WebView` whose children are the page's
//! elements with their text and bounds), draws them in the screenshot, and turns taps, finger
//! paths and typing on those views into the page's events.
//!
//! The tab keeps the page as its source plus the inputs it has had, and the document they give:
//! plain data, so a phone snapshot copies a tab as it stands. Each input replays the page
//! (loading it and delivering every input again), which for pages of a few scripts costs a few
//! milliseconds and needs no script engine kept alive between frames.

use std::sync::Arc;

use droidmcp_geom::{Bounds, Point};
use droidmcp_page::{layout, Document, Input, LayoutBox, NodeId, PageError};

use crate::app::UiEvent;
use crate::system::{Request, System};
use crate::view::{class, Picture, Style, View};

const TAP: &str = "page:tap:";
const EDIT: &str = "page:edit:";
const DRAW: &str = "page:draw:";
/// Touch moves a finger's straight path is delivered as (the page sees a drawn line's points).
const MOVES: usize = 8;

#[derive(Clone)]
pub struct Tab {
    source: Arc<str>,
    device_width: f32,
    inputs: Vec<Input>,
    doc: Arc<Document>,
}

impl Tab {
    /// Loads a page for a screen `device_width` CSS px wide (the screen's width in dp).
    pub fn load(source: String, device_width: f32) -> Result<Tab, PageError> {
        let doc = droidmcp_page::replay(&source, device_width, &[])?;
        Ok(Tab {
            source: source.into(),
            device_width,
            inputs: Vec::new(),
            doc: Arc::new(doc),
        })
    }

    /// Script errors so far (for Chrome's log).
    pub fn errors(&self) -> &[String] {
        &self.doc.errors
    }

    fn deliver(&mut self, new: Vec<Input>) -> Result<(), PageError> {
        let mut inputs = self.inputs.clone();
        inputs.extend(new);
        let doc = droidmcp_page::replay(&self.source, self.device_width, &inputs)?;
        self.inputs = inputs;
        self.doc = Arc::new(doc);
        Ok(())
    }

    /// CSS px → screen px for a page shown in `area` (the page fills the WebView's width).
    fn scale(&self, area: Bounds) -> f32 {
        area.width() as f32 / self.doc.viewport_width
    }

    /// The WebView and the page's views inside `area`.
    pub fn render(&self, sys: &System, area: Bounds) -> View {
        let scale = self.scale(area);
        let root = layout(&self.doc);
        let mut web = View::new("android.webkit.WebView", area).style(Style {
            background: Some([255, 255, 255, 255]),
            ..Style::default()
        });
        let px_per_sp = sys.metrics.density * sys.metrics.font_scale;
        let mapper = Mapper {
            doc: &self.doc,
            area,
            scale,
            px_per_sp,
        };
        web.children = mapper.children(&root);
        web
    }

    /// Handles an event on one of the page's views; false for events that are not the page's.
    pub fn handle(&mut self, event: &UiEvent, sys: &mut System, area: Bounds) -> bool {
        let scale = self.scale(area);
        let client = |p: Point| {
            (
                (p.x - area.left) as f32 / scale,
                (p.y - area.top) as f32 / scale,
            )
        };
        let inputs = match event {
            UiEvent::Click(tag) => {
                let Some(node) = node_of(tag, TAP).or_else(|| node_of(tag, EDIT)) else {
                    return false;
                };
                if tag.starts_with(EDIT) {
                    sys.request(Request::Focus { tag: tag.clone() });
                }
                let (x, y) = self.centre(node);
                vec![Input::Tap { node, x, y }]
            }
            UiEvent::TextChanged { tag, text } => {
                let Some(node) = node_of(tag, EDIT) else {
                    return false;
                };
                vec![Input::Text {
                    node,
                    text: text.clone(),
                }]
            }
            UiEvent::EditorAction(tag) if node_of(tag, EDIT).is_some() => {
                sys.request(Request::ClearFocus);
                return true;
            }
            UiEvent::Stroke { tag, from, to } => {
                let Some(node) = node_of(tag, DRAW) else {
                    return false;
                };
                let (x0, y0) = client(*from);
                let (x1, y1) = client(*to);
                let mut path = vec![Input::Down { node, x: x0, y: y0 }];
                for i in 1..=MOVES {
                    let t = i as f32 / MOVES as f32;
                    path.push(Input::Move {
                        node,
                        x: x0 + (x1 - x0) * t,
                        y: y0 + (y1 - y0) * t,
                    });
                }
                path.push(Input::Up { node, x: x1, y: y1 });
                path
            }
            _ => return false,
        };
        if let Err(e) = self.deliver(inputs) {
            sys.log(
                crate::system::pid::SYSTEM_SERVER,
                'W',
                "chromium",
                format!("page input dropped: {e}"),
            );
        }
        true
    }

    /// An element's centre in client coordinates (where a tap on its view lands).
    fn centre(&self, node: NodeId) -> (f32, f32) {
        layout(&self.doc)
            .find(node)
            .map(|b| (b.rect.x + b.rect.w / 2.0, b.rect.y + b.rect.h / 2.0))
            .unwrap_or_default()
    }
}

fn node_of(tag: &str, prefix: &str) -> Option<NodeId> {
    tag.strip_prefix(prefix)?.parse().ok()
}

/// Turns layout boxes into views.
struct Mapper<'a> {
    doc: &'a Document,
    area: Bounds,
    scale: f32,
    px_per_sp: f32,
}

impl Mapper<'_> {
    fn bounds(&self, b: &LayoutBox) -> Bounds {
        let r = b.rect;
        let px = |v: f32| (v * self.scale).round() as i32;
        Bounds::new(
            self.area.left + px(r.x),
            self.area.top + px(r.y),
            self.area.left + px(r.x + r.w),
            self.area.top + px(r.y + r.h),
        )
    }

    fn children(&self, b: &LayoutBox) -> Vec<View> {
        b.children.iter().map(|c| self.view(c)).collect()
    }

    fn text_style(&self, b: &LayoutBox) -> Style {
        Style {
            text_color: Some(b.style.color),
            text_size_sp: Some(b.style.font_size * self.scale / self.px_per_sp),
            center_text: true,
            bold: b.style.bold,
            ..Style::default()
        }
    }

    fn view(&self, b: &LayoutBox) -> View {
        let bounds = self.bounds(b);
        if let Some(text) = &b.text {
            return View::new(class::TEXT_VIEW, bounds)
                .text(text.clone())
                .style(self.text_style(b));
        }
        let el = self.doc.element(b.node);
        let tag = el.map_or("", |e| e.tag.as_str());
        let mut style = self.text_style(b);
        style.background = b.style.background;
        if b.style.border_width > 0.0 {
            let w = (b.style.border_width * self.scale).round().max(1.0) as i32;
            style.border = Some((w, b.style.border_color));
        }
        // An element whose only content is one run of text carries that text itself, as
        // Chrome's accessibility tree folds a heading's or a button's text into its node.
        let only_text = match b.children.as_slice() {
            [one] => one.text.clone(),
            _ => None,
        };
        let mut view = match tag {
            "button" => View::new(class::BUTTON, bounds)
                .text(only_text.clone().unwrap_or_default())
                .on_click(format!("{TAP}{}", b.node)),
            "input" | "textarea" => {
                let e = el.expect("an input is an element");
                View::new(class::EDIT_TEXT, bounds)
                    .text(e.value.clone())
                    .hint(e.attr("placeholder").unwrap_or(""))
                    .editable(format!("{EDIT}{}", b.node))
            }
            "canvas" => {
                let mut v = View::new(class::VIEW, bounds);
                if let Some(c) = self.doc.canvases.get(&b.node) {
                    style.picture = Some(Picture::new(c.bitmap.clone()));
                }
                if self.doc.takes_touch(b.node) {
                    v = v.drawing(format!("{DRAW}{}", b.node));
                }
                v
            }
            _ if only_text.is_some() => {
                // The text sits where the page's alignment puts it inside the element's box.
                style.center_text = b.style.text_center || b.style.justify_center;
                View::new(class::TEXT_VIEW, bounds).text(only_text.clone().unwrap_or_default())
            }
            _ => View::new(class::VIEW, bounds),
        };
        // Chrome names a node by the element's `id` attribute, where uiautomator reads a
        // resource id.
        if let Some(id) = el.and_then(|e| e.attr("id")) {
            view.resource_id = id.to_string();
        }
        if view.tag.is_none() && self.doc.clickable(b.node) {
            view = view.on_click(format!("{TAP}{}", b.node));
        }
        if only_text.is_none() {
            view.children = self.children(b);
        }
        view.style(style)
    }
}

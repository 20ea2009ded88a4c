//! The page engine of the embedded phone's Chrome: it loads an HTML document, runs its scripts
//! in QuickJS against a DOM, lays the page out and holds its canvases, so the phone can draw a
//! local page, expose it to uiautomator as a WebView does, and deliver taps, finger paths and
//! typing to the page's event handlers.
//!
//! A page's state is its source plus the inputs it has had: scripts are deterministic given
//! both (the pages seed their own random numbers), so [`replay`] rebuilds a page exactly, which
//! is how a phone snapshot that copies the app as plain data gets its page back.

pub mod canvas;
pub mod css;
pub mod dom;
pub mod layout;
mod script;

use std::cell::RefCell;
use std::rc::Rc;

pub use dom::{Document, NodeId};
pub use layout::{layout, LayoutBox, Rect};

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PageError {
    #[error("the script engine failed: {0}")]
    Engine(String),
    #[error("node {0} is not in the page")]
    NoNode(NodeId),
}

/// What the user did to the page. Coordinates are client coordinates in CSS px.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// A finger tapped the element.
    Tap { node: NodeId, x: f32, y: f32 },
    /// A finger went down on the element.
    Down { node: NodeId, x: f32, y: f32 },
    /// The finger that went down on the element moved here.
    Move { node: NodeId, x: f32, y: f32 },
    /// The finger that went down on the element lifted here.
    Up { node: NodeId, x: f32, y: f32 },
    /// Typing set a form control's whole value.
    Text { node: NodeId, text: String },
}

/// A live page: its document and the script engine bound to it.
pub struct Page {
    doc: Rc<RefCell<Document>>,
    engine: script::Engine,
}

impl Page {
    /// Parses `html`, lays it out for a screen `device_width` CSS px wide and runs its inline
    /// scripts in document order. Script errors do not fail the load (a browser shows the page
    /// anyway); they are in [`Document::errors`].
    pub fn load(html: &str, device_width: f32) -> Result<Page, PageError> {
        let doc = Rc::new(RefCell::new(Document::parse(html, device_width)));
        let engine = script::Engine::new(doc.clone())?;
        let scripts: Vec<String> = {
            let d = doc.borrow();
            d.elements_by_tag("script")
                .into_iter()
                .filter(|&s| d.element(s).is_some_and(|e| e.attr("src").is_none()))
                .map(|s| d.text_content(s))
                .collect()
        };
        for source in scripts {
            if let Err(e) = engine.eval(&source) {
                doc.borrow_mut().errors.push(e);
            }
        }
        Ok(Page { doc, engine })
    }

    /// Delivers an input to the page's handlers.
    pub fn input(&mut self, input: &Input) -> Result<(), PageError> {
        let (kind, node, x, y, text) = match input {
            Input::Tap { node, x, y } => ("tap", *node, *x, *y, None),
            Input::Down { node, x, y } => ("down", *node, *x, *y, None),
            Input::Move { node, x, y } => ("move", *node, *x, *y, None),
            Input::Up { node, x, y } => ("up", *node, *x, *y, None),
            Input::Text { node, text } => ("text", *node, 0.0, 0.0, Some(text.as_str())),
        };
        if !self.doc.borrow().exists(node) {
            return Err(PageError::NoNode(node));
        }
        if let Err(e) = self.engine.input(kind, node, x, y, text) {
            self.doc.borrow_mut().errors.push(e);
        }
        Ok(())
    }

    /// The document as it stands.
    pub fn document(&self) -> Document {
        self.doc.borrow().clone()
    }
}

/// Loads `html` and delivers `inputs` in order: the page's state after them.
pub fn replay(html: &str, device_width: f32, inputs: &[Input]) -> Result<Document, PageError> {
    let mut page = Page::load(html, device_width)?;
    for input in inputs {
        page.input(input)?;
    }
    Ok(page.document())
}

#[cfg(test)]
mod tests;

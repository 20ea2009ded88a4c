//! UI hierarchy: parse `uiautomator dump` output, compress it into element lists for LLMs, render
//! them, resolve selectors, mark screenshots and diff observations.
//!
//! Brief overview: [`parse`] turns dump bytes into a [`Hierarchy`] (an arena of [`Node`]s);
//! [`ElementList::from_hierarchy`] keeps what a person could see or act on as [`Element`]s with
//! stable [`ElementId`]s; [`render`] (or [`format::compact`] / [`format::json`]) writes a
//! [`Window`] of them in a [`Format`]; a [`Selector`] finds elements and their tap points;
//! [`marks::annotate`] numbers them on a screenshot; [`diff`] says what changed.
//!
//! ```
//! use droidmcp_hierarchy::{self as hierarchy, ElementList, Options, RenderOptions};
//!
//! let dump = br#"<hierarchy rotation="0"><node class="android.widget.FrameLayout" bounds="[0,0][1080,2400]">
//!   <node class="android.widget.Button" text="OK" clickable="true" bounds="[40,100][240,200]" />
//! </node></hierarchy>"#;
//! let h = hierarchy::parse(dump).unwrap();
//! let list = ElementList::from_hierarchy(&h, &Options::default());
//! assert_eq!(list.elements[0].text, "OK");
//! let text = hierarchy::render(&h, &list, &RenderOptions::default());
//! assert!(text.contains("1 btn @140,150: OK"));
//! let ok: hierarchy::Selector = "text:OK".parse().unwrap();
//! assert_eq!(ok.point(&list).unwrap(), droidmcp_geom::Point::new(140, 150));
//! ```

mod diff;
mod elements;
mod filter;
pub mod format;
pub mod marks;
mod node;
mod parse;
mod scroll;
mod selector;
pub mod slider;
mod wire;

pub use diff::{diff, Change, Diff, Field};
pub use elements::{Actions, Element, ElementId, ElementList, Options, Role, State};
pub use filter::{Filter, Page, Window};
pub use format::Format;
pub use marks::annotate;
pub use node::{Hierarchy, Node, NodeId};
pub use parse::{parse, parse_with_limits, Limits, ParseError, ParseErrorKind};
pub use selector::{Criterion, Matcher, SelectError, Selector, SelectorError, StringRef};

/// Everything that shapes one rendered observation.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    pub format: Format,
    /// Show `[l,t,r,b]` instead of the centre (compact format; JSON always has both).
    pub bounds: bool,
    pub filter: Filter,
    pub page: Page,
}

/// Renders `list` (made from `h`) as the options say; [`Format::Xml`] returns the dump itself.
pub fn render(h: &Hierarchy, list: &ElementList, options: &RenderOptions) -> String {
    match options.format {
        Format::Xml => h.xml.clone(),
        Format::Compact => format::compact(
            list,
            &list.window(&options.filter, options.page),
            options.bounds,
        ),
        Format::Json => format::json(list, &list.window(&options.filter, options.page)),
    }
}

//! UI hierarchy: parse uiautomator dumps, compress them into element lists for LLMs, resolve selectors,
//! mark screenshots, diff observations.

mod node;
mod parse;

pub use node::{Hierarchy, Node, NodeId};
pub use parse::{parse, parse_with_limits, Limits, ParseError, ParseErrorKind};

//! Fuzz target: any bytes through the dump parser, and whatever parses through compression and
//! both renderers. Nothing may panic, loop, or allocate beyond the parser's limits.

use droidmcp::hierarchy::{self, format, ElementList, Options, Selector};

pub fn run(data: &[u8]) {
    if let Ok(h) = hierarchy::parse(data) {
        let list = ElementList::from_hierarchy(&h, &Options::default());
        let window = list.all();
        let _ = format::compact(&list, &window, true);
        let _ = format::json(&list, &window);
        if let Some(first) = list.elements.first() {
            let _ = list.selector_for(first.id).map(|s| s.find(&list).is_ok());
        }
    }
    // The same bytes as a selector string.
    if let Ok(text) = std::str::from_utf8(data) {
        if text.len() < 256 {
            let _ = Selector::parse(text);
        }
    }
}

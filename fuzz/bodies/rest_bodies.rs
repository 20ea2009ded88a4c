//! Fuzz target: REST request bodies as the routes read them — `POST /v1/actions` (then turned into a
//! session action, whose size checks run before any device is touched) and a task start's
//! parameters — and selector strings as clients write them. Errors are values; nothing may panic.

use droidmcp::hierarchy::Selector;
use droidmcp::http::phone_wire::ActRequest;
use droidmcp::http::wire::StartBody;

pub fn run(data: &[u8]) {
    if let Ok(req) = serde_json::from_slice::<ActRequest>(data) {
        if let Ok(action) = req.action.action() {
            let _ = action.check_sizes();
        }
    }
    if let Ok(body) = serde_json::from_slice::<StartBody>(data) {
        for v in body.params.values() {
            let _ = droidmcp::http::wire::param_text(v);
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(selector) = Selector::parse(text) {
            let _ = selector.to_string();
        }
    }
}

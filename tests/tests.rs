//! The one integration-test binary; each module tests one area through its public boundary.

mod judge;
mod sim_apps_a;
// Phone, Contacts, Messages and the content providers of the embedded phone.
mod sim_apps_b;
mod sim_render;
mod util;
// uiautomator dumps: parse, compress, select, mark, diff.
mod hierarchy;
// ADB: the embedded adbd with scripted bytes, and real Debian adb + our client (DROIDMCP_ADB).
mod adb;
// MCP server over duplex stdio framing and HTTP: schemas, bad input, fuzz, DNS-rebinding guard.
mod mcp;

//! The one integration-test binary; each module tests one area through its public boundary.

mod util;

mod judge;
mod sim_apps_a;
mod sim_render;
// Phone, Contacts, Messages and the content providers of the embedded phone
mod sim_apps_b;
// uiautomator dumps: parse, compress, select, mark, diff
mod hierarchy;

// ADB: the embedded adbd with scripted bytes, and real Debian adb + our client (DROIDMCP_ADB).
mod adb;

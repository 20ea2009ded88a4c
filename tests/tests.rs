//! The one integration-test binary; each module tests one area through its public boundary.

mod util;

// ADB: the embedded adbd with scripted bytes, and real Debian adb + our client (DROIDMCP_ADB).
mod adb;

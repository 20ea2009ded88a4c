//! The one integration-test binary; each module tests one area through its public boundary.

mod hierarchy;
mod util; // uiautomator dumps: parse, compress, select, mark, diff

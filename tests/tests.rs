//! The one integration-test binary; each module tests one area through its public boundary.

mod sim;
mod util;

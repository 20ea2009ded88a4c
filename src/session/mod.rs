//! Sessions: one client's lease on one device; act, observe, record steps, run task episodes.
//!
//! [`episode`] holds task episodes (setup → steps → check → teardown) and the [`episode::Episodes`]
//! registry that front ends share.

pub mod episode;

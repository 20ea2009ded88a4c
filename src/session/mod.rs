//! Sessions: one client's lease on one device; act, observe, record steps, run task episodes.

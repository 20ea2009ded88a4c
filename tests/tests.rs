//! The one integration-test binary; each module tests one area through its public boundary.

mod util;
// MCP server over duplex stdio framing and HTTP: schemas, bad input, fuzz, DNS-rebinding guard.
mod mcp;

//! The MCP server: the phone's tools, prompts and resources over stdio and streamable HTTP (rmcp).

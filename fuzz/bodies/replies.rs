//! Fuzz target: what a model sends back — a judge's reply (JSON found in any text, validated) and an
//! agent's action (AndroidWorld's JSONAction spelling) — and what a JSON-RPC client sends to the MCP
//! server before rmcp sees it (`mcp::inbound::check`). Errors are values; nothing may panic.

pub fn run(data: &[u8]) {
    let _ = droidmcp::mcp::inbound::check(data);
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = droidmcp::llm::extract_json_object(text);
    for steps in [0, 3] {
        let _ = droidmcp::judge::verdict::parse_reply(text, steps);
    }
    let _ = droidmcp::agent::action::parse(text);
}

//! Screening of inbound JSON-RPC messages before rmcp sees them, for stdio and HTTP alike.
//!
//! rmcp (pinned) drops a line it cannot parse without answering, and answers a request whose
//! parameters do not fit its types with `-32600` and a null id; either way the client waits for its
//! id forever. [`check`] gives every such message the answer JSON-RPC prescribes, with the request's
//! id whenever it can be recovered: `-32700` for bytes that are not JSON (invalid UTF-8, a lone
//! UTF-16 surrogate escape such as `"\ud800"`, a truncated line), `-32602` when a known method gets
//! parameters of the wrong shape (`arguments` that are not an object), `-32601` for an unknown
//! method whose message rmcp cannot represent. [`screened`] applies it to a newline-delimited byte
//! stream (stdio), with a bound on line length.

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};

/// The longest message accepted (a screenshot upload would be far below this).
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// The methods rmcp serves; a malformed request for one of them is an invalid-params error.
const KNOWN_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
];

/// `Ok` when `bytes` is a message rmcp can take as it is; otherwise the error response to send.
pub fn check(bytes: &[u8]) -> Result<(), Value> {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => return Err(parse_error(bytes, &e)),
    };
    // Batches and responses from the client are rmcp's business; only requests are screened.
    let Some(obj) = value.as_object() else {
        return Ok(());
    };
    let (Some(method), Some(id)) = (obj.get("method").and_then(Value::as_str), obj.get("id"))
    else {
        return Ok(());
    };
    // rmcp reads a request whose parameters do not fit as a custom request of the same name and
    // then answers "method not found"; for the methods it serves that is really "invalid params".
    let typed: Result<rmcp::model::ClientJsonRpcMessage, _> = serde_json::from_value(value.clone());
    let e = match typed {
        Ok(rmcp::model::JsonRpcMessage::Request(r))
            if matches!(r.request, rmcp::model::ClientRequest::CustomRequest(_))
                && KNOWN_METHODS.contains(&method) =>
        {
            let params = obj.get("params").cloned().unwrap_or(Value::Null);
            specific_error(method, params)
        }
        Ok(_) => return Ok(()),
        Err(e) => e.to_string(),
    };
    if !KNOWN_METHODS.contains(&method) {
        return Err(error(
            id.clone(),
            -32601,
            format!("method not found: {}", crate::session::clip(method, 80)),
        ));
    }
    let arguments = obj
        .get("params")
        .and_then(|p| p.get("arguments"))
        .filter(|a| !a.is_object() && !a.is_null());
    let message = match (method, arguments) {
        ("tools/call", Some(a)) => format!(
            "invalid params: `arguments` must be an object of the tool's parameters, not {}",
            kind_of(a)
        ),
        _ => format!(
            "invalid params for {method}: {}",
            crate::session::clip(&e, 300)
        ),
    };
    Err(error(id.clone(), -32602, message))
}

/// Why `params` do not fit `method`, in serde's words (the typed request is rebuilt without the
/// custom-request fallback).
fn specific_error(method: &str, params: Value) -> String {
    use rmcp::model::*;
    fn why<T: serde::de::DeserializeOwned>(params: Value) -> String {
        match serde_json::from_value::<T>(params) {
            Ok(_) => "parameters of the wrong shape".to_string(),
            Err(e) => e.to_string(),
        }
    }
    match method {
        "tools/call" => why::<CallToolRequestParams>(params),
        "prompts/get" => why::<GetPromptRequestParams>(params),
        "resources/read" => why::<ReadResourceRequestParams>(params),
        "resources/subscribe" => why::<SubscribeRequestParams>(params),
        "resources/unsubscribe" => why::<UnsubscribeRequestParams>(params),
        "completion/complete" => why::<CompleteRequestParams>(params),
        "logging/setLevel" => why::<SetLevelRequestParams>(params),
        "initialize" => why::<InitializeRequestParams>(params),
        _ => "parameters of the wrong shape".to_string(),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn error(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// `-32700`, with the id of the request when the line parses once lone surrogates are replaced
/// (serde_json, rightly, refuses them), so the client is not left waiting.
fn parse_error(bytes: &[u8], e: &serde_json::Error) -> Value {
    let repaired = std::str::from_utf8(bytes)
        .ok()
        .and_then(replace_lone_surrogates)
        .and_then(|s| serde_json::from_str::<Value>(&s).ok());
    let id = repaired
        .as_ref()
        .and_then(|v| v.get("id"))
        .filter(|id| id.is_string() || id.is_number())
        .cloned()
        .unwrap_or(Value::Null);
    let message = if repaired.is_some() {
        "parse error: a string holds a lone UTF-16 surrogate escape (like \\ud800); \
         characters outside the Basic Multilingual Plane must be sent as a surrogate pair"
            .to_string()
    } else {
        format!("parse error: {e}")
    };
    error(id, -32700, message)
}

/// `s` with each `\uD800`–`\uDFFF` escape that is not part of a valid pair replaced by `\uFFFD`;
/// `None` when there was none.
fn replace_lone_surrogates(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let escape_at = |i: usize| -> Option<u16> {
        let hex = s.get(i + 2..i + 6)?;
        (b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u'))
            .then(|| u16::from_str_radix(hex, 16).ok())
            .flatten()
    };
    let mut out = String::with_capacity(s.len());
    let mut changed = false;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if let Some(u) = escape_at(i) {
                let high = (0xD800..0xDC00).contains(&u);
                let low = (0xDC00..0xE000).contains(&u);
                let paired =
                    high && escape_at(i + 6).is_some_and(|n| (0xDC00..0xE000).contains(&n));
                if paired {
                    out.push_str(&s[i..i + 12]);
                    i += 12;
                    continue;
                }
                if high || low {
                    out.push_str("\\uFFFD");
                    changed = true;
                    i += 6;
                    continue;
                }
            }
            // Any other escape: copy the backslash and the escaped character as they are.
            let next = s[i + 1..].chars().next().map_or(0, char::len_utf8);
            out.push_str(&s[i..i + 1 + next]);
            i += 1 + next;
            continue;
        }
        let len = s[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&s[i..i + len]);
        i += len;
    }
    changed.then_some(out)
}

/// A byte stream pair for rmcp in which every inbound line has passed [`check`]: good lines are
/// forwarded, bad ones answered on `write` directly (between rmcp's own lines, never inside one).
pub fn screened<R, W>(read: R, write: W) -> (DuplexStream, DuplexStream)
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let (rmcp_in, mut feed) = tokio::io::duplex(1 << 20);
    let (rmcp_out, from_rmcp) = tokio::io::duplex(1 << 20);
    let (replies_tx, mut replies) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
    tokio::spawn(async move {
        let mut reader = BufReader::new(read);
        let mut line = Vec::new();
        loop {
            line.clear();
            let (complete, overflow) = match read_line(&mut reader, &mut line).await {
                Ok(r) => r,
                Err(_) => break,
            };
            if overflow {
                let e = error(
                    Value::Null,
                    -32700,
                    format!("parse error: message longer than {MAX_MESSAGE_BYTES} bytes"),
                );
                let _ = replies_tx.send(e.to_string().into_bytes());
            } else if !line.iter().all(u8::is_ascii_whitespace) {
                match check(&line) {
                    Ok(()) => {
                        line.push(b'\n');
                        if feed.write_all(&line).await.is_err() {
                            break;
                        }
                    }
                    Err(reply) => {
                        let _ = replies_tx.send(reply.to_string().into_bytes());
                    }
                }
            }
            if !complete {
                break; // end of input
            }
        }
        let _ = feed.shutdown().await;
    });
    tokio::spawn(async move {
        let mut write = write;
        let mut lines = BufReader::new(from_rmcp);
        let mut line = Vec::new();
        loop {
            line.clear();
            tokio::select! {
                n = lines.read_until(b'\n', &mut line) => match n {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if write.write_all(&line).await.is_err() || write.flush().await.is_err() {
                            break;
                        }
                    }
                },
                Some(mut reply) = replies.recv() => {
                    reply.push(b'\n');
                    if write.write_all(&reply).await.is_err() || write.flush().await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    (rmcp_in, rmcp_out)
}

/// Reads one line (without its newline) into `out`, keeping at most [`MAX_MESSAGE_BYTES`]; returns
/// (ended with a newline, was cut short).
async fn read_line<R: AsyncRead + Unpin>(
    reader: &mut BufReader<R>,
    out: &mut Vec<u8>,
) -> std::io::Result<(bool, bool)> {
    let mut overflow = false;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            return Ok((false, overflow));
        }
        let (chunk, found) = match buf.iter().position(|b| *b == b'\n') {
            Some(n) => (&buf[..n], true),
            None => (buf, false),
        };
        if out.len() + chunk.len() > MAX_MESSAGE_BYTES {
            overflow = true;
            out.clear();
        } else if !overflow {
            out.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(found);
        reader.consume(used);
        if found {
            return Ok((true, overflow));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_get_a_parse_error_with_the_request_id() {
        let line = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"type_text","arguments":{"text":"\ud800"}}}"#;
        let e = check(line).unwrap_err();
        assert_eq!(e["id"], 7);
        assert_eq!(e["error"]["code"], -32700);
        // A proper pair is fine.
        let ok = br#"{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":"\ud83d\ude00"}}"#;
        assert!(check(ok).is_ok());
        assert_eq!(replace_lone_surrogates(r#""\ud83d\ude00\\ud800""#), None);
    }

    #[test]
    fn garbage_and_bad_arguments_get_the_codes_the_spec_gives() {
        let e = check(b"{not json").unwrap_err();
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (Value::Null, json!(-32700))
        );
        assert_eq!(
            check(&[0xff, 0xfe, b'{']).unwrap_err()["error"]["code"],
            -32700
        );
        let bad = br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"tap","arguments":"x"}}"#;
        let e = check(bad).unwrap_err();
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!("a"), json!(-32602))
        );
        assert!(e["error"]["message"].as_str().unwrap().contains("a string"));
        let good = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tap","arguments":{}}}"#;
        assert!(check(good).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_ok());
    }
}

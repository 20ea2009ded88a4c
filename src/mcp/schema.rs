//! Tool schemas that every function-calling API accepts, and the output schemas of our replies.
//!
//! schemars writes what JSON Schema 2020-12 allows: `$ref`s into `$defs`, `"type": ["integer",
//! "null"]` for options, `"format": "uint32"`. OpenAI, Gemini and Anthropic function calling each
//! reject some of that (Gemini has no `$ref`, OpenAI's strict mode no type arrays, nobody knows
//! `uint32`), and the Inspector's `--strict` check flags it. [`portable`] rewrites a generated
//! schema into the common subset: references inlined, optional fields simply not `required`,
//! integers as plain `integer` with their range in `minimum`/`maximum`.
//!
//! The output schemas describe the `structuredContent` every reply carries; errors carry the same
//! object with `ok: false`, `error` and `kind`, so only `ok` is required.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{JsonObject, ToolAnnotations};
use serde_json::{json, Map, Value};

/// Makes every tool of `router` portable: input schemas rewritten by [`portable`], and tools that
/// declare no output schema or annotations (the task tools) given the generic reply schema and
/// conservative hints (the spec's defaults: may change the phone, may reach the outside world).
pub fn finish<S>(router: &mut ToolRouter<S>) {
    for route in router.map.values_mut() {
        let tool = &mut route.attr;
        tool.input_schema = Arc::new(portable(&tool.input_schema));
        let output = tool.output_schema.clone().unwrap_or_else(generic);
        tool.output_schema = Some(Arc::new(portable(&output)));
        if tool.annotations.is_none() {
            tool.annotations = Some(ToolAnnotations::from_raw(
                None,
                Some(false),
                Some(false),
                Some(false),
                Some(false),
            ));
        }
    }
}

/// `schema` in the portable subset (see the module doc).
pub fn portable(schema: &JsonObject) -> JsonObject {
    let defs = schema
        .get("$defs")
        .or_else(|| schema.get("definitions"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut out = Value::Object(schema.clone());
    rewrite(&mut out, &defs, 0);
    let Value::Object(mut obj) = out else {
        unreachable!("rewriting an object keeps it an object")
    };
    obj.remove("$defs");
    obj.remove("definitions");
    obj.remove("$schema");
    obj
}

/// How deep references are inlined; our argument types nest two levels at most.
const MAX_DEPTH: usize = 16;

fn rewrite(v: &mut Value, defs: &Map<String, Value>, depth: usize) {
    match v {
        Value::Object(obj) => {
            // `anyOf: [X, {"type": "null"}]` (an optional reference) → X.
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(alts)) = obj.get(key) {
                    let rest: Vec<Value> = alts
                        .iter()
                        .filter(|a| a.get("type") != Some(&json!("null")))
                        .cloned()
                        .collect();
                    if rest.len() == 1 && rest.len() < alts.len() {
                        obj.remove(key);
                        if let Value::Object(inner) = rest.into_iter().next().unwrap_or_default() {
                            for (k, v) in inner {
                                obj.entry(k).or_insert(v);
                            }
                        }
                    }
                }
            }
            if let Some(target) = obj.get("$ref").and_then(Value::as_str) {
                let name = target.rsplit('/').next().unwrap_or_default();
                if let (Some(def), true) = (defs.get(name), depth < MAX_DEPTH) {
                    let mut inlined = def.clone();
                    rewrite(&mut inlined, defs, depth + 1);
                    obj.remove("$ref");
                    if let Value::Object(inner) = inlined {
                        for (k, v) in inner {
                            obj.entry(k).or_insert(v);
                        }
                    }
                }
            }
            // `"type": ["integer", "null"]` → `"type": "integer"`.
            if let Some(Value::Array(types)) = obj.get("type") {
                let rest: Vec<Value> = types
                    .iter()
                    .filter(|t| *t != &json!("null"))
                    .cloned()
                    .collect();
                if rest.len() == 1 {
                    obj.insert("type".into(), rest[0].clone());
                }
            }
            if obj.get("default") == Some(&Value::Null) {
                obj.remove("default");
            }
            if let Some(Value::Array(values)) = obj.get_mut("enum") {
                values.retain(|v| !v.is_null());
            }
            let integer_format = obj
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| f.starts_with("uint") || f.starts_with("int"));
            if integer_format {
                obj.remove("format");
            }
            for (_, child) in obj.iter_mut() {
                rewrite(child, defs, depth);
            }
        }
        Value::Array(items) => {
            for item in items {
                rewrite(item, defs, depth);
            }
        }
        _ => {}
    }
}

fn object(properties: Value) -> Arc<JsonObject> {
    let mut props = json!({
        "ok": {"type": "boolean", "description": "false when the call failed; then `error` and `kind` say why"},
        "error": {"type": "string"},
        "kind": {"type": "string", "description": "with ok false: bad_request, device_lost, device_error, cancelled, …"},
        "elapsed_ms": {"type": "integer", "minimum": 0},
    });
    if let (Value::Object(base), Value::Object(extra)) = (&mut props, properties) {
        base.extend(extra);
    }
    let Value::Object(schema) = json!({
        "type": "object",
        "properties": props,
        "required": ["ok"],
    }) else {
        unreachable!("a json! object literal")
    };
    Arc::new(schema)
}

fn observation_properties() -> Value {
    json!({
        "serial": {"type": "string"},
        "foreground": {"type": "object", "properties": {
            "package": {"type": "string"}, "activity": {"type": "string"}}},
        "width": {"type": "integer"},
        "height": {"type": "integer"},
        "elements": {"type": "string", "description": "the element list (same text as the reply's text block)"},
        "element_count": {"type": "integer", "minimum": 0},
        "changes": {"type": "object", "description": "what changed since this session's previous observation",
            "properties": {
                "kind": {"type": "string", "enum": ["none", "app_switch", "new_screen", "updated"]},
                "summary": {"type": "string"},
                "added": {"type": "integer"}, "removed": {"type": "integer"}, "changed": {"type": "integer"},
                "from_package": {"type": "string"}, "to_package": {"type": "string"}}},
        "digest": {"type": "string", "description": "fingerprint of this screen; element ids belong to it"},
        "screenshot": {"type": "object", "properties": {
            "mime_type": {"type": "string"}, "width": {"type": "integer"},
            "height": {"type": "integer"}, "scale": {"type": "number"}, "bytes": {"type": "integer"}}},
    })
}

/// `structuredContent` of `screen` and `hierarchy`.
pub fn observation() -> Arc<JsonObject> {
    object(observation_properties())
}

/// `structuredContent` of the action tools.
pub fn action() -> Arc<JsonObject> {
    object(json!({
        "action": {"type": "string", "description": "what was done, as a one-line echo"},
        "detail": {"type": "string"},
        "settled": {"type": "boolean", "description": "whether the screen stopped changing in time"},
        "observation": {"type": "object", "properties": observation_properties()},
    }))
}

/// `structuredContent` of `screenshot`.
pub fn screenshot() -> Arc<JsonObject> {
    object(json!({
        "mime_type": {"type": "string"},
        "width": {"type": "integer"},
        "height": {"type": "integer"},
        "scale": {"type": "number", "description": "screen x = image x * scale"},
        "bytes": {"type": "integer"},
    }))
}

/// `structuredContent` of `list_apps`.
pub fn apps() -> Arc<JsonObject> {
    object(json!({
        "apps": {"type": "array", "items": {"type": "object", "properties": {
            "label": {"type": "string"}, "package": {"type": "string"}, "activity": {"type": "string"}}}},
    }))
}

/// `structuredContent` of `devices`.
pub fn devices() -> Arc<JsonObject> {
    object(json!({
        "current": {"type": "string"},
        "devices": {"type": "array", "items": {"type": "object", "properties": {
            "serial": {"type": "string"}, "spec": {"type": "string"}, "sessions": {"type": "integer"}}}},
    }))
}

/// `structuredContent` of `select_device`.
pub fn selected() -> Arc<JsonObject> {
    object(json!({"serial": {"type": "string"}}))
}

/// `structuredContent` of `history`.
pub fn history() -> Arc<JsonObject> {
    object(json!({
        "total": {"type": "integer", "minimum": 0},
        "offset": {"type": "integer", "minimum": 0},
        "next_offset": {"type": "integer", "minimum": 0},
        "steps": {"type": "array", "items": {"type": "object", "properties": {
            "index": {"type": "integer"}, "action": {"type": "string"}, "kind": {"type": "string"},
            "started_at": {"type": "string"}, "elapsed_ms": {"type": "integer"},
            "error": {"type": "string"}, "observation_digest": {"type": "string"},
            "foreground": {"type": "string"}, "serial": {"type": "string"}}}},
    }))
}

/// For tools that declare none (the task tools): every reply is a JSON object.
pub fn generic() -> Arc<JsonObject> {
    let Value::Object(schema) = json!({"type": "object", "additionalProperties": true}) else {
        unreachable!("a json! object literal")
    };
    Arc::new(schema)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_references_and_integer_formats_become_portable() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "n": {"type": ["integer", "null"], "format": "uint32", "minimum": 0},
                "d": {"anyOf": [{"$ref": "#/$defs/Dir"}, {"type": "null"}], "description": "where"},
                "e": {"$ref": "#/$defs/Dir"},
            },
            "$defs": {"Dir": {"type": "string", "enum": ["up", "down"]}},
        });
        let Value::Object(obj) = schema else { panic!() };
        let out = Value::Object(portable(&obj));
        assert_eq!(
            out,
            json!({
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "minimum": 0},
                    "d": {"type": "string", "enum": ["up", "down"], "description": "where"},
                    "e": {"type": "string", "enum": ["up", "down"]},
                },
            })
        );
        assert!(!out.to_string().contains("null"));
    }
}

//! Tool schemas that every function-calling API accepts, and the output schemas of our replies.
//!
//! schemars writes what JSON Schema 2020-12 allows: `$ref`s into `$defs`, `"type": ["integer",
//! "null"]` for options, `"format": "uint32"`. OpenAI, Gemini and Anthropic function calling each
//! reject some of that (Gemini has no `$ref`, OpenAI's strict mode no type arrays, nobody knows
//! `uint32`), and the Inspector's `--strict` check flags it. [`portable`] rewrites a generated
//! schema into the common subset: references inlined, optional fields simply not `required`,
//! integers as plain `integer` with their range in `minimum`/`maximum`, defaults that say nothing
//! (null, a boolean's `false`) left out.
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
            // A null default says nothing; nor does `false` on a boolean an agent may leave out,
            // and it cost a model ~4 tokens on each of ~30 arguments.
            if matches!(
                obj.get("default"),
                Some(Value::Null) | Some(Value::Bool(false))
            ) {
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
        "ok": {"type": "boolean"},
        "error": {"type": "string"},
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

/// Output schemas name the fields a program reads and type them, nothing more: nested objects are
/// described in the tool's text, once, instead of in every schema that carries them (the tool list
/// cost 9,191 o200k tokens before, half of it output schemas repeated on each action tool).
fn typed(fields: &[(&str, &str)]) -> Value {
    Value::Object(
        fields
            .iter()
            .map(|(k, t)| (k.to_string(), json!({"type": t})))
            .collect(),
    )
}

/// `structuredContent` of `screen` and `hierarchy`.
pub fn observation() -> Arc<JsonObject> {
    object(typed(&[
        ("digest", "string"),
        ("element_count", "integer"),
        ("foreground", "object"),
        ("changes", "object"),
        ("screenshot", "object"),
    ]))
}

/// `structuredContent` of the action tools (`observation` is the `screen` tool's object).
pub fn action() -> Arc<JsonObject> {
    object(typed(&[
        ("action", "string"),
        ("no_effect", "string"),
        ("episode", "object"),
        ("observation", "object"),
    ]))
}

/// `structuredContent` of `screenshot`.
pub fn screenshot() -> Arc<JsonObject> {
    object(typed(&[
        ("scale", "number"),
        ("width", "integer"),
        ("height", "integer"),
    ]))
}

/// `structuredContent` of `list_apps`.
pub fn apps() -> Arc<JsonObject> {
    object(typed(&[("apps", "array")]))
}

/// `structuredContent` of `devices`.
pub fn devices() -> Arc<JsonObject> {
    object(typed(&[("current", "string"), ("devices", "array")]))
}

/// `structuredContent` of `select_device`.
pub fn selected() -> Arc<JsonObject> {
    object(typed(&[("serial", "string")]))
}

/// `structuredContent` of `history`.
pub fn history() -> Arc<JsonObject> {
    object(typed(&[
        ("total", "integer"),
        ("refused", "integer"),
        ("next_offset", "integer"),
        ("steps", "array"),
    ]))
}

/// `structuredContent` of `device_status`; a field the device did not report is absent.
pub fn device_status() -> Arc<JsonObject> {
    object(typed(&[
        ("battery", "object"),
        ("airplane_mode", "boolean"),
        ("wifi", "boolean"),
        ("bluetooth", "boolean"),
        ("mobile_data", "boolean"),
        ("volumes", "array"),
        ("brightness", "integer"),
        ("time", "string"),
        ("timezone", "string"),
        ("locale", "string"),
        ("rotation", "integer"),
        ("foreground", "string"),
    ]))
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
                "b": {"type": "boolean", "default": false},
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
                    "b": {"type": "boolean"},
                    "d": {"type": "string", "enum": ["up", "down"], "description": "where"},
                    "e": {"type": "string", "enum": ["up", "down"]},
                },
            })
        );
        assert!(!out.to_string().contains("null"));
    }
}

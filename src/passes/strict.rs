//! OpenAI strict mode: sanitize, then enforce (seed 000, contract §1).
use crate::lookup::Fields;
use super::spill::strip;
use super::types::common_type;
use super::{is_annotation, is_null_schema, json_text, types_of};
use crate::error::{Error, Result};
use crate::walk::Cx;
use serde_json::{json, Map, Value};

/// `default` is not permitted in strict mode (F37 `'default' is not permitted`);
/// its value is kept as ` (default: X)` in an existing description that does not
/// already mention one (contract §1.1). Either way the keyword is gone from the
/// wire, which the report says (issue 21): `default-inlined` when the
/// description now carries it (or already named a default, which it keeps),
/// lossy `default-dropped` when there was no description to carry it.
pub fn default_to_description(node: &mut Map<String, Value>, cx: &mut Cx) -> Result<()> {
    let Some(default) = node.remove_field("default") else { return Ok(()) };
    cx.count("defaultsInlined");
    let text = json_text(&default);
    let kept = match node.field_mut("description") {
        Some(Value::String(d)) if !d.contains("(default:") => {
            d.push_str(&format!(" (default: {text})"));
            Ok("it was moved into description")
        }
        Some(Value::String(_)) => Ok("the description already names a default"),
        _ => Err("there is no description to carry it"),
    };
    cx.enter("default")?;
    match kept {
        Ok(how) if !cx.opts.quiet => {
            let (path, id) = (cx.path.clone(), cx.target.id);
            cx.report.note("default-inlined", &path, format!("default {text} is not accepted by {id}; {how}"));
        }
        Ok(_) => {}
        Err(why) => cx.lossy("default-dropped", format!("default {text} is not accepted by {} and {why}; it was removed", cx.target.id)),
    }
    cx.leave();
    Ok(())
}

/// Patterns with lookaround or backreferences, features outside the
/// provider's engine (pydantic-ai's OpenAI transformer and the pi-ai Responses
/// walker drop these), are removed (and spilled).
pub fn regex_subset(node: &mut Map<String, Value>, cx: &mut Cx) -> Result<()> {
    if node.field("pattern").and_then(Value::as_str).is_some_and(super::regex::needs_backtracking) {
        strip(node, &["pattern".to_string()], cx);
    }
    Ok(())
}

const CONSTRAINTS: &[&str] = &[
    "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
];

/// With `stripStrictConstraints`, the constraints the first strict release (and
/// fine-tuned models today) reject are stripped and spilled (seed 003 §1.1).
pub fn strip_constraints(node: &mut Map<String, Value>, cx: &mut Cx) -> Result<()> {
    if !cx.opts.strip_strict_constraints {
        return Ok(());
    }
    let keys: Vec<String> = node.keys().filter(|k| CONSTRAINTS.contains(&k.as_str())).cloned().collect();
    strip(node, &keys, cx);
    Ok(())
}

/// Strict nodes need a `type`: inferred from `enum`, `properties` or `items`.
/// Mixed-primitive enums cannot be typed with one keyword; they are left for the
/// checker, which makes the call fail open (seed 000, enum/const inference).
pub fn infer_strict_type(node: &mut Map<String, Value>, cx: &mut Cx) -> Result<()> {
    if node.has("type") || node.has("$ref") || node.has("anyOf") {
        return Ok(());
    }
    let inferred = if let Some(Value::Array(values)) = node.field("enum") {
        let non_null: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        match common_type(&non_null) {
            Some(t) if t != "object" && t != "array" => {
                if non_null.len() < values.len() {
                    Some(json!([t, "null"]))
                } else {
                    Some(json!(t))
                }
            }
            _ => None,
        }
    } else if node.has("properties") {
        Some(json!("object"))
    } else if node.has("items") || node.has("prefixItems") {
        Some(json!("array"))
    } else {
        None
    };
    if let Some(t) = inferred {
        node.insert("type".into(), t);
        cx.count("typesInferred");
    }
    Ok(())
}

/// Every object closed and fully required; optional properties become nullable
/// (contract §1.3). A pure union gets a null branch appended in place; anything
/// else is wrapped, since siblings beside `anyOf` are conjunctive and an appended
/// branch would not make the node nullable.
pub fn enforce_object(node: &mut Map<String, Value>, cx: &mut Cx) -> Result<()> {
    if !types_of(node).contains(&"object") {
        return Ok(());
    }
    match node.field("additionalProperties") {
        None | Some(Value::Bool(false)) => {}
        Some(_) => {
            return Err(Error::StrictUnrepresentable {
                pointer: cx.path.child("additionalProperties"),
                message: "an open map (additionalProperties other than false) cannot be expressed in OpenAI strict mode"
                    .into(),
            })
        }
    }
    let closing = !node.has("additionalProperties");
    node.insert("additionalProperties".into(), Value::Bool(false));
    if !node.has("properties") {
        node.insert("properties".into(), json!({}));
    }
    let required: Vec<String> = node
        .field("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default();
    let undeclared: Vec<&String> =
        required.iter().filter(|r| !node.field("properties").and_then(Value::as_object).is_some_and(|p| p.has(r))).collect();
    if !undeclared.is_empty() {
        let names: Vec<&str> = undeclared.iter().map(|s| s.as_str()).collect();
        cx.lossy(
            "required-undeclared",
            format!("required names without a property were removed (a closed object cannot have them): {}", names.join(", ")),
        );
    }
    let Some(Value::Object(props)) = node.field_mut("properties") else { return Ok(()) };
    // Sorted for the lookups below: a scan per property is quadratic at thousands.
    let mut required: Vec<&str> = required.iter().map(String::as_str).collect();
    required.sort_unstable();
    let mut all = Vec::with_capacity(props.len());
    for (name, schema) in props.iter_mut() {
        all.push(Value::String(name.clone()));
        if required.binary_search(&name.as_str()).is_ok() || accepts_null(schema) {
            continue;
        }
        make_nullable(schema);
        cx.count("optionalToNullable");
    }
    node.insert("required".into(), Value::Array(all));
    if closing {
        super::merge::mark_closed(node, cx);
    }
    Ok(())
}

fn accepts_null(v: &Value) -> bool {
    let Value::Object(m) = v else { return false };
    types_of(m).contains(&"null")
        || m.field("enum").and_then(Value::as_array).is_some_and(|e| e.contains(&Value::Null))
        || m.field("anyOf").and_then(Value::as_array).is_some_and(|b| b.iter().any(|x| is_null_schema(x) || accepts_null(x)))
}

fn make_nullable(schema: &mut Value) {
    let Value::Object(m) = schema else { return };
    let pure = m.has("anyOf") && m.keys().all(|k| k == "anyOf" || is_annotation(k));
    if pure {
        if let Some(Value::Array(branches)) = m.field_mut("anyOf") {
            branches.push(json!({"type": "null"}));
        }
        return;
    }
    let mut inner = std::mem::take(m);
    let mut wrapper = Map::new();
    for key in ["title", "description"] {
        if let Some(v) = inner.remove_field(key) {
            wrapper.insert(key.into(), v);
        }
    }
    let inner = Value::Object(inner);
    // A typeless `inner` is wrapped too; the checker then rejects it and the call fails open.
    wrapper.insert("anyOf".into(), Value::Array(vec![inner, json!({"type": "null"})]));
    *m = wrapper;
}

//! `enum` values the target can carry.
use crate::lookup::Fields;
use super::json_text;
use crate::error::Result;
use crate::context::Cx;
use crate::json;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// Gemini's `Schema.enum` is a list of strings and only allowed on STRING
/// (F19: `enum: only allowed for STRING type`). Non-string members are written as
/// their JSON text (`1` → `"1"`, `true` → `"true"`) on a string node, which keeps
/// them distinct and lets arguments be turned back into the original values.
/// `null` members become the nullable marker (or optionality, where there is none).
pub fn string_enums(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(Value::Array(all)) = node.field(kw::ENUM) else { return Ok(()) };
    if all.is_empty() {
        // An empty repeated proto field is no field: sent, it would read as no
        // enum at all. (As an optional property or a union branch the
        // never-prune has dropped it already; here it is required.)
        node.remove_field(kw::ENUM);
        cx.lossy(
            "empty-enum-removed",
            format!("an empty enum accepts no value, which {} cannot express (its Schema proto reads an empty list as none); it was removed", cx.target.id),
        );
        return Ok(());
    }
    // The usual enum, distinct strings on a string (or untyped) node, is
    // already what the rest of this rule writes: only its type is set.
    let types = super::types_of(node);
    if (types.is_empty() || types.has("string")) && all.iter().all(Value::is_string) && crate::values::distinct_strings(all) {
        if node.field(kw::TYPE).and_then(Value::as_str) != Some("string") {
            node.insert(kw::TYPE.into(), json!("string"));
        }
        return Ok(());
    }
    // Values outside the node's own type are no values of the node (an object
    // node's `enum: ["a"]` accepts nothing); the node becomes a string node, so
    // they would be accepted if kept. A string node keeps every value, since
    // `infer-type` types a mixed enum as a string (its values are then
    // stringified, reported); `null` is the nullable marker's business.
    let declared: Vec<String> = super::types_of(node).iter().map(|t| t.to_string()).collect();
    let fits = |v: &Value| {
        declared.is_empty()
            || declared.iter().any(|t| t == "string")
            || v.is_null()
            || declared.iter().any(|t| crate::values::value_has_type(v, t))
    };
    let typed: Vec<Value> = all.iter().filter(|v| fits(v)).cloned().collect();
    let values = if typed.is_empty() {
        cx.lossy(
            "invalid-type",
            format!("no enum value has the node's type ({}), so it accepts no value, which {} cannot express; the values were kept", declared.join(", "), cx.target.id),
        );
        all.clone()
    } else {
        typed
    };
    let values = &values;
    let had_null = values.iter().any(Value::is_null);
    let mut stringified = false;
    let mut seen = crate::hash::HashSet::default();
    let mut out = Vec::new();
    for v in values {
        let s = match v {
            Value::Null => continue,
            Value::String(s) => s.clone(),
            other => {
                stringified = true;
                json_text(other)
            }
        };
        if seen.insert(s.clone()) {
            out.push(Value::String(s));
        }
    }
    if had_null {
        if cx.target.caps.nullable_marker {
            node.insert(kw::NULLABLE.into(), Value::Bool(true));
        } else {
            cx.mark_null_dropped();
        }
    }
    if out.is_empty() {
        node.remove_field(kw::ENUM);
        if had_null {
            let id = cx.target.id;
            cx.lossy_with("null-type-widened", || format!("an enum of only null became a nullable value of any {id} type"));
        }
        return Ok(());
    }
    if stringified {
        let id = cx.target.id;
        cx.lossy_with("enum-stringified", || format!("non-string enum values were written as strings: {id} only accepts string enums"));
        cx.count("enumsStringified");
    }
    node.insert(kw::ENUM.into(), Value::Array(out));
    if node.field(kw::TYPE).and_then(Value::as_str) != Some("string") {
        node.insert(kw::TYPE.into(), json!("string"));
    }
    Ok(())
}

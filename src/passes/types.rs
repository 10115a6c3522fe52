//! `type`: arrays of types, and nodes without one.
use crate::lookup::Fields;
use super::{apply_branch, types_of};
use crate::error::Result;
use crate::keywords::{self, applies_to, is_annotation};
use crate::values::{common_type, value_has_type};
use crate::profile::TypeArrays;
use crate::context::Cx;
use crate::json;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// Rewrites `type: [...]` into the target's spelling (see `TypeArrays`).
/// Gemini's `Schema.type` is a single enum (footnote 3: `Proto field is not
/// repeating, cannot start list`); Cloud Code Assist has no null marker at all;
/// OpenAI strict documents nullable unions as `anyOf` (seed 000, edge cases).
pub fn type_arrays(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let mode = cx.target.caps.type_arrays;
    let Some(Value::Array(list)) = node.field(kw::TYPE) else {
        if node.field(kw::TYPE).and_then(Value::as_str) == Some("null") && mode != TypeArrays::Keep && mode != TypeArrays::AnyOf {
            null_only(node, cx);
        }
        return Ok(());
    };
    if mode == TypeArrays::Keep {
        return Ok(());
    }
    let mut types: Vec<String> = Vec::new();
    for t in list.iter().filter_map(Value::as_str) {
        if !types.iter().any(|x| x == t) {
            types.push(t.to_string());
        }
    }
    let has_null = types.iter().any(|t| t == "null");
    let real: Vec<String> = types.iter().filter(|t| *t != "null").cloned().collect();
    if real.is_empty() {
        node.insert(kw::TYPE.into(), json!("null"));
        if mode != TypeArrays::AnyOf {
            null_only(node, cx);
        }
        return Ok(());
    }
    match mode {
        TypeArrays::Keep => {}
        TypeArrays::NullableMarker => {
            if real.len() == 1 {
                node.insert(kw::TYPE.into(), Value::String(real[0].clone()));
            } else {
                split(node, &real, cx)?;
            }
            if has_null {
                node.insert(kw::NULLABLE.into(), Value::Bool(true));
            }
        }
        TypeArrays::FirstType => {
            if real.len() > 1 {
                cx.lossy(
                    "type-narrowed",
                    format!("type {:?} became {:?}: {} accepts one type per node", types, real[0], cx.target.id),
                );
                prune_for_type(node, &real[0]);
            }
            node.insert(kw::TYPE.into(), Value::String(real[0].clone()));
            if has_null {
                mark_null_dropped(cx);
            }
        }
        TypeArrays::AnyOf => {
            if real.len() == 1 && !has_null {
                node.insert(kw::TYPE.into(), Value::String(real[0].clone()));
            } else {
                split(node, &types, cx)?;
            }
        }
    }
    cx.count("typeArrayRewrites");
    Ok(())
}

/// A `type` list narrowed to the types its `const` or `enum` values have
/// (`{"type": ["string", "null"], "enum": ["a"]}` is `"type": "string"`):
/// exact, since a value outside the list fails the node anyway, and needed on
/// every target, or the output offers a `null` the tool refuses (issue 22).
/// Values none of which has a listed type leave the node as it was.
pub fn narrow_to_values(node: &mut Map) {
    let Some(Value::Array(list)) = node.field(kw::TYPE) else { return };
    let values: Vec<&Value> = match (node.field(kw::CONST), node.field(kw::ENUM)) {
        (Some(c), _) => vec![c],
        (None, Some(Value::Array(e))) => e.iter().collect(),
        _ => return,
    };
    let kept: Vec<Value> =
        list.iter().filter(|t| t.as_str().is_some_and(|t| values.iter().any(|v| value_has_type(v, t)))).cloned().collect();
    if kept.is_empty() || kept.len() == list.len() {
        return;
    }
    let narrowed = if kept.len() == 1 { kept.into_iter().next().unwrap_or_default() } else { Value::Array(kept) };
    node.insert(kw::TYPE.into(), narrowed);
}

/// Splits a multi-type node into one `anyOf` branch per type, each with only the
/// keywords that apply to its type; annotations stay on the wrapper (the
/// description is hoisted, not copied into every branch).
fn split(node: &mut Map, types: &[String], cx: &mut Cx) -> Result<()> {
    let mut branches = Vec::new();
    for t in types {
        let mut branch = Map::new();
        branch.insert(kw::TYPE.into(), Value::String(t.clone()));
        if t != "null" {
            for (k, v) in node.iter() {
                if k == "type" || is_annotation(k) || k == "nullable" {
                    continue;
                }
                if k == "enum" {
                    let Value::Array(values) = v else { continue };
                    let kept: Vec<Value> = values.iter().filter(|x| value_has_type(x, t)).cloned().collect();
                    if kept.is_empty() {
                        branch.insert("skip".into(), Value::Null);
                    }
                    branch.insert(k.clone(), Value::Array(kept));
                    continue;
                }
                if applies_to(keywords::applies(k), t) {
                    branch.insert(k.clone(), v.clone());
                }
            }
        }
        if branch.has("skip") {
            continue;
        }
        let mut b = Value::Object(branch);
        if let Value::Object(m) = &mut b {
            apply_branch(m, cx)?;
        }
        branches.push(b);
    }
    node.retain(|k, _| is_annotation(k));
    node.insert(kw::ANY_OF.into(), Value::Array(branches));
    Ok(())
}

/// Removes keywords that do not apply to type `t` (after a lossy type choice).
fn prune_for_type(node: &mut Map, t: &str) {
    node.retain(|k, _| k == "type" || applies_to(keywords::applies(k), t));
    if let Some(Value::Array(values)) = node.field_mut(kw::ENUM) {
        values.retain(|v| value_has_type(v, t));
    }
}

/// Records that this node lost its "may be null" so the parent object can make
/// the property optional instead (contract §3.4).
fn mark_null_dropped(cx: &mut Cx) {
    cx.mark_null_dropped();
    cx.count("nullableToOptional");
}

/// A node that only allows `null`: no target without null types can say that.
/// It becomes a nullable string (Gemini) or an optional string (Cloud Code Assist).
fn null_only(node: &mut Map, cx: &mut Cx) {
    // A union branch is left to its parent, which turns null branches into the
    // nullable marker (or optionality) as a whole.
    // Keywords have no escapes, so the raw segment compares as written.
    let parent = cx.path.len().checked_sub(2).and_then(|at| cx.path.raw_segments(at).next());
    if matches!(parent.as_deref(), Some("anyOf" | "oneOf")) {
        return;
    }
    node.insert(kw::TYPE.into(), json!("string"));
    node.remove_field(kw::ENUM);
    if cx.target.caps.nullable_marker {
        node.insert(kw::NULLABLE.into(), Value::Bool(true));
    } else {
        mark_null_dropped(cx);
    }
    let id = cx.target.id;
    cx.lossy_with("null-type-widened", || format!("a null-only schema became a nullable string: {id} has no null type"));
}

/// Gives a typeless node the type its keywords imply; targets whose wire rejects
/// typeless nodes need this (a typeless Gemini `Schema` fails the whole request:
/// providers.md footnote 57). With nothing to go on, `string` is chosen and reported.
pub fn infer_type(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if node.has(kw::TYPE) || dropped_with_keyword(cx) {
        return Ok(());
    }
    if let Some(Value::Array(branches)) = node.field(kw::ANY_OF) {
        if !branches.is_empty() && branches.iter().all(is_typed) {
            return Ok(());
        }
    }
    if let Some(t) = implied(node) {
        if !implied_exactly(node) && cx.under_exclusion() {
            cx.lossy(
                "type-inferred-under-exclusion",
                format!("a schema without a type was given its implied type {t}; inside oneOf or not, accepting less can make the whole accept more"),
            );
        }
        node.insert(kw::TYPE.into(), Value::String(t.to_string()));
        cx.count("typesInferred");
        return Ok(());
    }
    if node.has(kw::ANY_OF) || node.has(kw::ONE_OF) {
        // Typed branches are handled by the union passes; an untyped branch is typed there.
        return Ok(());
    }
    if cx.at_root() && cx.target.caps.root_object {
        // A tool's arguments are an object: a root that says nothing is an
        // object with no declared properties, not a string the root rule
        // would then wrap as a made-up `value` parameter (issue 21).
        node.insert(kw::TYPE.into(), json!("object"));
        return Ok(());
    }
    node.insert(kw::TYPE.into(), json!("string"));
    let id = cx.target.id;
    cx.lossy_with("typeless-node-typed", || format!("a schema without a type became a string: {id} needs a type on every node"));
    Ok(())
}

/// Is the node inside a subschema the target removes with its keyword
/// (`additionalProperties`, `not`, `patternProperties` on Gemini)? It is never
/// sent, so it needs no type: typing `additionalProperties: true` reported a
/// schema that "became a string" beside the report of its removal (issue 21).
/// A map's value and name schemas are sent, as an entry's `value` and `key`,
/// where the target writes open maps as entries (`facts::carried`).
/// Segments are read by the keyword table, as `walk::under_exclusion` does;
/// union and tuple members (`allOf`, `oneOf`, `prefixItems`) are rewritten
/// into kept keywords by the rules, so they do not count.
fn dropped_with_keyword(cx: &Cx) -> bool {
    crate::walk::keyword_segments(cx.path.raw_segments(0)).any(|seg| {
        let seg = seg.as_ref();
        matches!(keywords::slot(seg), keywords::Slot::Schema | keywords::Slot::SchemaMap)
            && !cx.target.caps.keeps(seg)
            && !super::facts::carried(seg, cx)
    })
}

/// Does the implied type accept exactly what the node did? It does when the
/// node lists its values (`const`, or an `enum` of one type); implied by
/// type-specific keywords it excludes every other type, which the node allowed.
pub fn implied_exactly(node: &Map) -> bool {
    if let Some(c) = node.field(kw::CONST) {
        return common_type(std::slice::from_ref(c)).is_some();
    }
    node.field(kw::ENUM).and_then(Value::as_array).is_some_and(|values| common_type(values).is_some())
}

/// The type implied by `enum` values or type-specific keywords.
pub fn implied(node: &Map) -> Option<&'static str> {
    if let Some(c) = node.field(kw::CONST) {
        return common_type(std::slice::from_ref(c));
    }
    if let Some(Value::Array(values)) = node.field(kw::ENUM) {
        let non_null: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        return Some(common_type(&non_null).unwrap_or("string"));
    }
    node.keys().find_map(|k| keywords::implied_type(k))
}

/// A node counts as typed when it has `type`, is a `$ref` (to a typed
/// definition), or is an `anyOf` of typed branches.
pub fn is_typed(v: &Value) -> bool {
    let Value::Object(m) = v else { return false };
    if m.has(kw::TYPE) || m.has(kw::REF) {
        return true;
    }
    match m.field(kw::ANY_OF) {
        Some(Value::Array(b)) => !b.is_empty() && b.iter().all(is_typed),
        _ => false,
    }
}

/// The single non-null type of a node, if it has exactly one.
pub fn single_type(node: &Map) -> Option<&str> {
    let ts: Vec<&str> = types_of(node).iter().copied().filter(|t| *t != "null").collect();
    (ts.len() == 1).then(|| ts[0])
}

//! Unions on a target that has `type` lists but no `anyOf` (WebMCP's input
//! schema subset, webmachinelearning/webmcp#289: `anyOf`, `oneOf` and `allOf`
//! are outside it, and registration throws a `TypeError` on them).
//!
//! A union whose branches each have a different type, and constrain only
//! instances of that type, is the one node with those types as a list:
//! `anyOf: [{type: string, minLength: 1}, {type: null}]` is `type: [string,
//! null], minLength: 1`, exactly, since `minLength` says nothing about null.
//! Any other union is collapsed as Cloud Code Assist collapses it (objects
//! united, same types broadened, else the first branch; lossy and reported),
//! with its null branch kept as `null` in the type list, which loses nothing.
use super::combinators::collapse_unions;
use super::{append_description, is_null_schema, json_text, types_of};
use crate::error::Result;
use crate::keywords::{self, is_annotation, Applies};
use crate::lookup::Fields;
use crate::context::Cx;
use crate::doc::{Map, Value};
use crate::keywords::kw;

pub fn type_unions(node: &mut Map, cx: &mut Cx) -> Result<()> {
    // A root union is merged into the root object by `shapes::root_object`.
    if cx.at_root() || !matches!(node.field(kw::ANY_OF), Some(Value::Array(_))) {
        return Ok(());
    }
    if let Some(folded) = fold(node) {
        *node = folded;
        cx.count("unionsToTypeLists");
        return Ok(());
    }
    let Some(Value::Array(branches)) = node.field_mut(kw::ANY_OF) else { return Ok(()) };
    let before = branches.len();
    branches.retain(|b| !is_null_schema(b));
    let nullable = branches.len() < before;
    collapse_unions(node, cx)?;
    if nullable {
        admit_null(node);
    }
    Ok(())
}

/// The instance types whose keywords are one family (`integer` is a `number`).
fn family(t: &str) -> &str {
    if t == "integer" {
        "number"
    } else {
        t
    }
}

/// `node` with its `anyOf` written as a type list, when that is exact: every
/// branch has one type of its own family, its other keywords apply to that
/// type only (or annotate), the node has no assertion of its own, and either
/// every non-null branch lists its values (`enum`, to which a null branch
/// adds `null`) or none does. The members are moved, not copied: a copy of
/// each folded node's subschemas was quadratic in nested nullable objects.
fn fold(node: &mut Map) -> Option<Map> {
    let (types, listed) = foldable(node)?;
    // The type list (and the values) take the union's place among the keys.
    let at = node.keys().position(|k| k == "anyOf").unwrap_or(0);
    let Some(Value::Array(branches)) = node.shift_remove("anyOf") else { return None };
    let mut out = std::mem::take(node);
    let at = at.min(out.len());
    let mut values: Vec<Value> = Vec::new();
    let mut descriptions: Vec<String> = Vec::new();
    for (b, t) in branches.into_iter().filter_map(Value::into_object).zip(&types) {
        for (k, v) in b {
            match (k.as_str(), v) {
                ("type", _) => {}
                ("enum", Value::Array(e)) => {
                    let fresh: Vec<Value> = e.into_iter().filter(|x| !values.contains(x)).collect();
                    values.extend(fresh);
                }
                ("description", Value::String(d)) => descriptions.push(d),
                (_, v) if !out.has(&k) => {
                    out.insert(k, v);
                }
                _ => {}
            }
        }
        if t == "null" && listed != 0 && !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
    let list: Vec<Value> = types.into_iter().map(Value::String).collect();
    out.shift_insert(at, "type".into(), if list.len() == 1 { list[0].clone() } else { Value::Array(list) });
    if listed != 0 {
        out.shift_insert(at + 1, "enum".into(), Value::Array(values));
    }
    // Each branch's description still says what its values mean.
    for d in descriptions {
        if !out.field(kw::DESCRIPTION).and_then(Value::as_str).is_some_and(|own| own.contains(d.as_str())) {
            append_description(&mut out, &d, "\n\n");
        }
    }
    Some(out)
}

/// Whether `fold` applies to `node`: each branch's type, and how many
/// non-null branches list their values.
fn foldable(node: &Map) -> Option<(Vec<String>, usize)> {
    let Some(Value::Array(branches)) = node.field(kw::ANY_OF) else { return None };
    // The node's own assertions would have to be conjoined with each branch.
    if node.keys().any(|k| k != "anyOf" && !is_annotation(k) && keywords::get(k).is_some()) {
        return None;
    }
    let mut types: Vec<String> = Vec::new();
    let (mut listed, mut non_null) = (0, 0);
    for b in branches {
        let m = b.as_object()?;
        let [t] = types_of(m)[..] else { return None };
        if types.iter().any(|seen| family(seen) == family(t)) {
            return None;
        }
        types.push(t.to_string());
        if t != "null" {
            non_null += 1;
            listed += usize::from(m.has(kw::ENUM));
        }
        for k in m.keys().filter(|k| !matches!(k.as_str(), "type" | "enum") && !is_annotation(k)) {
            match keywords::get(k) {
                Some(kw) if kw.applies == Applies::Any || !keywords::applies_to(kw.applies, t) => return None,
                _ => {}
            }
        }
    }
    if listed != 0 && listed != non_null {
        return None;
    }
    Some((types, listed))
}

/// Adds `null` to what a collapsed node accepts: its type list and its values.
fn admit_null(node: &mut Map) {
    let types: Vec<String> = types_of(node).iter().map(|t| t.to_string()).collect();
    if !types.is_empty() && !types.iter().any(|t| t == "null") {
        let mut list: Vec<Value> = types.into_iter().map(Value::String).collect();
        list.push(Value::String("null".into()));
        node.insert(kw::TYPE.into(), Value::Array(list));
    }
    if let Some(Value::Array(values)) = node.field_mut(kw::ENUM) {
        if !values.iter().any(|v| json_text(v) == "null") {
            values.push(Value::Null);
        }
    }
}

//! The intersection of two schemas, where it can be written without a
//! combinator (`conjoin`): what merging an `allOf` and overlaying the keywords
//! beside a `$ref` on its target both need. Pure: it reads keywords only, and
//! knows no target.
use crate::doc::{json_text, Map, Value};
use crate::hash::HashSet;
use crate::keywords::{self, is_annotation, Bound};
use crate::lookup::Fields;
use crate::keywords::kw;

/// The schema accepting exactly what both `a` and `b` accept, when that can be
/// written without a combinator; `None` when they conflict in a way this cannot
/// express (different patterns, two `anyOf`s, disjoint types).
pub fn conjoin(a: &Map, b: &Map) -> Option<Map> {
    // Keyword by keyword is exact only where each side's applicators see the same
    // members: a name one side declares falls under the other side's
    // `additionalProperties` (and `patternProperties`), and a position in one
    // side's `prefixItems` under the other side's `items`. Merged, those would
    // escape the other side's rule (two closed objects with different
    // properties accept only `{}` together, not both property sets).
    // A `$ref` kept as a reference is opaque here: beside another side's
    // assertions it would become a `$ref` with siblings, merged later with the
    // target already normalized (and, for strict targets, already closed).
    let asserts = |m: &Map| m.keys().any(|k| k != "$ref" && k != "$defs" && !is_annotation(k));
    if (a.has(kw::REF) && a.field(kw::REF) != b.field(kw::REF) && asserts(b))
        || (b.has(kw::REF) && a.field(kw::REF) != b.field(kw::REF) && asserts(a))
        || !covers(a, b)
        || !covers(b, a)
        || (a.field(kw::PREFIX_ITEMS) != b.field(kw::PREFIX_ITEMS) && (constrains(a, "items") || constrains(b, "items")))
    {
        return None;
    }
    let mut out = a.clone();
    for (key, bv) in b {
        let Some(av) = out.field(key) else {
            out.insert(key.clone(), bv.clone());
            continue;
        };
        if av == bv {
            continue;
        }
        let merged = match key.as_str() {
            k if is_annotation(k) => av.clone(),
            "type" => intersect_types(av, bv)?,
            "properties" => {
                let (Value::Object(pa), Value::Object(pb)) = (av, bv) else { return None };
                let mut props = pa.clone();
                for (name, sb) in pb {
                    let merged = match props.get(name) {
                        Some(Value::Object(sa)) => {
                            let Value::Object(sb) = sb else { return None };
                            Value::Object(conjoin(sa, sb)?)
                        }
                        Some(_) => return None,
                        None => sb.clone(),
                    };
                    props.insert(name.clone(), merged);
                }
                Value::Object(props)
            }
            "required" => {
                let (Value::Array(ra), Value::Array(rb)) = (av, bv) else { return None };
                let mut list = ra.clone();
                for r in rb {
                    if !list.contains(r) {
                        list.push(r.clone());
                    }
                }
                Value::Array(list)
            }
            "enum" => {
                let (Value::Array(ea), Value::Array(eb)) = (av, bv) else { return None };
                let keep: HashSet<String> = eb.iter().map(json_text).collect();
                let both: Vec<Value> = ea.iter().filter(|v| keep.contains(&json_text(v))).cloned().collect();
                if both.is_empty() {
                    return None;
                }
                Value::Array(both)
            }
            k if keywords::bound(k) == Some(Bound::Lower) => larger(av, bv)?,
            k if keywords::bound(k) == Some(Bound::Upper) => smaller(av, bv)?,
            "additionalProperties" | "items" => match (av, bv) {
                (Value::Bool(false), _) | (_, Value::Bool(false)) => Value::Bool(false),
                (Value::Object(x), Value::Object(y)) => Value::Object(conjoin(x, y)?),
                _ => return None,
            },
            _ => return None,
        };
        out.insert(key.clone(), merged);
    }
    // OpenAPI's `nullable: true` widens (absent, null is not accepted): the
    // conjunction accepts null only where both sides do.
    if out.field(kw::NULLABLE) == Some(&Value::Bool(true)) && (a.field(kw::NULLABLE) != b.field(kw::NULLABLE)) {
        out.remove_field(kw::NULLABLE);
    }
    Some(out)
}

/// Does `outer` leave every property `inner` declares and `outer` does not
/// unconstrained? Such a name falls under `outer`'s `additionalProperties` and
/// `patternProperties`. (Not `unevaluatedProperties`: beside `allOf` it sees
/// every entry's properties.)
fn covers(outer: &Map, inner: &Map) -> bool {
    let (mine, theirs) = (outer.field(kw::PROPERTIES).and_then(Value::as_object), inner.field(kw::PROPERTIES).and_then(Value::as_object));
    theirs.map_or(true, |t| t.keys().all(|name| mine.is_some_and(|m| m.has(name))))
        || !["additionalProperties", "patternProperties"].iter().any(|r| constrains(outer, r))
}

/// Is `key` present with a schema other than the always-true `{}` / `true`?
fn constrains(m: &Map, key: &str) -> bool {
    match m.field(key) {
        None | Some(Value::Bool(true)) => false,
        Some(Value::Object(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

fn intersect_types(a: &Value, b: &Value) -> Option<Value> {
    let list = |v: &Value| -> Vec<String> {
        match v {
            Value::String(s) => vec![s.clone()],
            Value::Array(xs) => xs.iter().filter_map(|x| x.as_str().map(String::from)).collect(),
            _ => Vec::new(),
        }
    };
    let (la, lb) = (list(a), list(b));
    let mut both: Vec<String> = Vec::new();
    for t in &la {
        let hit = lb.contains(t) || (t == "integer" && lb.iter().any(|x| x == "number"));
        if hit && !both.contains(t) {
            both.push(t.clone());
        }
    }
    for t in &lb {
        if t == "integer" && la.iter().any(|x| x == "number") && !both.contains(t) {
            both.push(t.clone());
        }
    }
    match both.len() {
        0 => None,
        1 => Some(Value::String(both.remove(0))),
        _ => Some(Value::Array(both.into_iter().map(Value::String).collect())),
    }
}

fn larger(a: &Value, b: &Value) -> Option<Value> {
    Some(if a.as_f64()? >= b.as_f64()? { a.clone() } else { b.clone() })
}

fn smaller(a: &Value, b: &Value) -> Option<Value> {
    Some(if a.as_f64()? <= b.as_f64()? { a.clone() } else { b.clone() })
}

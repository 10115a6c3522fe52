//! What the vocabulary says of values, for every layer above the document
//! model: which JSON Schema type a value has (`value_has_type`,
//! `common_type`), what a keyword's value must look like (`bad_shape`,
//! `misses`), and which schemas accept nothing (`is_never`). The keyword
//! table itself (`crate::keywords`) stands below the document model, which
//! interns its keys against it, and knows no value.
use crate::doc::{Map, Value};
use crate::keywords::{is_resolution, kw, shape, Name, Shape, RESOLUTION_BITS, TYPE_NAMES};
use crate::lookup::Fields;

/// Does a JSON value belong to JSON Schema type `t`?
pub fn value_has_type(v: &Value, t: &str) -> bool {
    match (v, t) {
        (Value::Null, "null") | (Value::Bool(_), "boolean") | (Value::String(_), "string") => true,
        (Value::Array(_), "array") | (Value::Object(_), "object") => true,
        (Value::Number(_), "number") => true,
        (Value::Number(n), "integer") => n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

/// The single JSON Schema type of all `values`, if they share one.
pub fn common_type(values: &[Value]) -> Option<&'static str> {
    let mut found: Option<&'static str> = None;
    for v in values {
        let t = match v {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
            Value::Number(_) if value_has_type(v, "integer") => "integer",
            Value::Number(_) => "number",
        };
        found = match (found, t) {
            (None, t) => Some(t),
            (Some(a), b) if a == b => Some(a),
            (Some("integer"), "number") | (Some("number"), "integer") => Some("number"),
            _ => return None,
        };
    }
    found
}

/// A schema that accepts nothing: `{"not": {}}` (the `false` schema), or an
/// empty `enum` (no value is one of none; 2020-12 allows it, an enum "SHOULD
/// have at least one element"; seen on a real MCP server's tool, issue 21),
/// with any other keywords, since keywords only ever add conditions
/// (`z.never().describe()`; `{"not": {}, "$schema": ...}`, whose `$schema` a
/// later rule strips). Not one holding `$defs`, `$id` or an anchor: a `$ref`
/// elsewhere may still lead into it until refs are resolved, and resolving
/// removes those keywords.
pub fn is_never(v: &Value) -> bool {
    v.as_object().is_some_and(is_never_object)
}

/// [`is_never`] for an object's members.
pub fn is_never_object(m: &Map) -> bool {
    (m.field(kw::NOT).is_some_and(|n| n.as_object().is_some_and(Map::is_empty)) || is_empty_enum(m)) && !holds_resolution(m)
}

/// Does this node hold a keyword that only serves resolution? A node whose
/// keys all have a bit (`Map::keys_are_bits`, most nodes) answers by a mask.
pub fn holds_resolution(m: &Map) -> bool {
    if m.keys_are_bits() {
        return m.keyword_bits() & RESOLUTION_BITS != 0;
    }
    m.keys().any(is_resolution)
}

/// `enum: []`: the node accepts no value.
pub fn is_empty_enum(m: &Map) -> bool {
    m.field(kw::ENUM).and_then(Value::as_array).is_some_and(Vec::is_empty)
}

/// Lists up to this long are scanned pairwise; longer ones are sorted first.
pub(crate) const SCAN_UP_TO: usize = 16;

/// No string twice in `items` (all strings). Pairwise for short lists; sorted
/// past that, as OpenAI strict's `required` lists every property (thousands at
/// the root of a large schema, where the pairwise check was quadratic).
pub(crate) fn distinct_strings(items: &[Value]) -> bool {
    if items.len() <= SCAN_UP_TO {
        return items.iter().enumerate().all(|(i, x)| !items[..i].contains(x));
    }
    let mut names: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
    crate::sort::sort(&mut names);
    names.windows(2).all(|w| w[0] != w[1])
}

/// Every item a string, each once (`Shape::DistinctStrings`: `required`).
pub(crate) fn names_once(items: &[Value]) -> bool {
    items.iter().all(Value::is_string) && distinct_strings(items)
}

/// What a keyword's value must be, when it is not.
pub fn bad_shape<N: Name + ?Sized>(key: &N, value: &Value) -> Option<&'static str> {
    misses(shape(key), value)
}

/// What a value of `shape` must be, when `value` is not.
pub fn misses(shape: Shape, value: &Value) -> Option<&'static str> {
    let count = |v: &Value| v.as_u64().is_some() || v.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0);
    let schema = |s: &Value| s.is_object() || s.is_boolean();
    let ok = match shape {
        Shape::Any => true,
        Shape::TypeNames => match value {
            Value::String(t) => TYPE_NAMES.contains(&t.as_str()),
            Value::Array(ts) => {
                !ts.is_empty()
                    && ts.iter().all(|t| t.as_str().is_some_and(|t| TYPE_NAMES.contains(&t)))
                    && distinct_strings(ts)
            }
            _ => false,
        },
        Shape::Array => value.is_array(),
        Shape::DistinctStrings => value.as_array().is_some_and(|r| names_once(r)),
        Shape::Strings => value.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
        Shape::SchemaMap => value.as_object().is_some_and(|p| p.values().all(schema)),
        Shape::SchemaArray => value.as_array().is_some_and(|b| !b.is_empty() && b.iter().all(schema)),
        Shape::Schema => schema(value),
        Shape::Count => count(value),
        Shape::Number => value.is_number(),
        Shape::Positive => value.as_f64().is_some_and(|f| f > 0.0),
        Shape::String => value.is_string(),
        Shape::Boolean => value.is_boolean(),
    };
    (!ok).then_some(shape.what())
}

/// `values` without the ones equal to an earlier one, in their order: a
/// union's branches, once each. Up to `SCAN_UP_TO` values each is compared with
/// those kept; past it they are bucketed by `shallow_hash` first, where
/// comparing each with every one kept made a union of many similar objects
/// quadratic (800 branches: 15.5x the work of 200).
pub fn distinct(values: Vec<Value>) -> Vec<Value> {
    let mut kept: Vec<Value> = Vec::with_capacity(values.len());
    if values.len() <= SCAN_UP_TO {
        for v in values {
            if !kept.contains(&v) {
                kept.push(v);
            }
        }
        return kept;
    }
    let mut buckets: crate::hash::HashMap<u64, Vec<usize>> = Default::default();
    for v in values {
        let bucket = buckets.entry(shallow_hash(&v, 0)).or_default();
        if !bucket.iter().any(|&i| kept[i] == v) {
            bucket.push(kept.len());
            kept.push(v);
        }
    }
    kept
}

/// A hash that equal values share (`Value`'s equality: an object's members
/// in any order), read to `HASHED_LEVELS` JSON levels; below that only each
/// container's size counts, so nested unions are not hashed once per level.
fn shallow_hash(v: &Value, depth: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    const HASHED_LEVELS: usize = 6;
    let mut h = crate::hash::fixed_hasher();
    match v {
        Value::Null => 0u8.hash(&mut h),
        Value::Bool(b) => (1u8, b).hash(&mut h),
        // The number's own hash, which its equality keeps (0.0 and -0.0,
        // equal, hash alike; their texts differ).
        Value::Number(n) => (2u8, n).hash(&mut h),
        Value::String(s) => (3u8, s).hash(&mut h),
        Value::Array(a) => {
            (4u8, a.len()).hash(&mut h);
            if depth < HASHED_LEVELS {
                a.iter().for_each(|x| shallow_hash(x, depth + 1).hash(&mut h));
            }
        }
        Value::Object(m) => {
            (5u8, m.len()).hash(&mut h);
            if depth < HASHED_LEVELS {
                // Summed: the same members in another order hash alike.
                let members = m.iter().fold(0u64, |sum, (k, x)| {
                    let mut hm = crate::hash::fixed_hasher();
                    (k.as_str(), shallow_hash(x, depth + 1)).hash(&mut hm);
                    sum.wrapping_add(hm.finish())
                });
                members.hash(&mut h);
            }
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::distinct;
    use crate::doc::Value;
    use crate::json;

    /// `distinct` keeps what the scan it replaced kept, past the values it
    /// scans too: equal values (0.0 and -0.0, an object's members in another
    /// order) share a bucket, so the later one goes.
    #[test]
    fn distinct_drops_equal_values_past_the_scan() {
        let zero: Value = crate::doc::parse_value("0.0").unwrap();
        let minus_zero: Value = crate::doc::parse_value("-0").unwrap();
        assert_eq!(zero, minus_zero);
        let mut values: Vec<Value> = (0..20).map(|i| json!({"const": i})).collect();
        values.push(json!({"a": 1, "b": [zero.clone()]}));
        values.push(json!({"b": [minus_zero], "a": 1}));
        values.push(json!({"const": 3}));
        let mut scanned: Vec<Value> = Vec::new();
        for v in values.clone() {
            if !scanned.contains(&v) {
                scanned.push(v);
            }
        }
        assert_eq!(scanned.len(), 21);
        let kept = distinct(values);
        assert!(kept == scanned, "distinct kept {} values where the scan kept 21", kept.len());
    }
}

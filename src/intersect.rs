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
    let mut out = a.clone();
    conjoin_into(&mut out, b, &mut None).then_some(out)
}

/// `conjoin` of `a` with every side in turn, in place: true with `a` the
/// conjunction, or false with `a` left part-way (the caller drops it). A fold
/// that copied the growing conjunction once per side, and compared each
/// required name with all before it, was quadratic in the sides (an `allOf`
/// of n objects: a billion instructions for 1,000).
pub fn conjoin_all<'m>(a: &mut Map, sides: impl IntoIterator<Item = &'m Map>) -> bool {
    let mut names = None;
    sides.into_iter().all(|b| conjoin_into(a, b, &mut names))
}

/// Past this many required names, the fold keeps them in a set.
const NAMES_IN_A_SET: usize = 16;

/// One step of `conjoin_all`; `names` holds the string names of `a`'s
/// `required` once a step made it (the fold's; a nested conjunction has its own).
fn conjoin_into(a: &mut Map, b: &Map, names: &mut Option<HashSet<String>>) -> bool {
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
        return false;
    }
    let a_nullable = a.field(kw::NULLABLE).cloned();
    for (key, bv) in b {
        let Some(av) = a.field_mut(key) else {
            a.insert(key.clone(), bv.clone());
            continue;
        };
        if *av == *bv {
            continue;
        }
        let merged = match key.as_str() {
            k if is_annotation(k) => continue,
            "type" => intersect_types(av, bv),
            "properties" => {
                let (Value::Object(pa), Value::Object(pb)) = (av, bv) else { return false };
                for (name, sb) in pb {
                    match pa.get_mut(name) {
                        Some(Value::Object(sa)) => {
                            let Value::Object(sb) = sb else { return false };
                            if !conjoin_into(sa, sb, &mut None) {
                                return false;
                            }
                        }
                        Some(_) => return false,
                        None => drop(pa.insert(name.clone(), sb.clone())),
                    }
                }
                continue;
            }
            "required" => {
                let (Value::Array(list), Value::Array(rb)) = (av, bv) else { return false };
                if names.is_none() && list.len() + rb.len() > NAMES_IN_A_SET {
                    *names = Some(list.iter().filter_map(Value::as_str).map(str::to_owned).collect());
                }
                for r in rb {
                    let new = match (r, names.as_mut()) {
                        (Value::String(n), Some(set)) => set.insert(n.clone()),
                        _ => !list.contains(r),
                    };
                    if new {
                        list.push(r.clone());
                    }
                }
                continue;
            }
            "enum" => {
                let (Value::Array(ea), Value::Array(eb)) = (&*av, bv) else { return false };
                let keep: HashSet<String> = eb.iter().map(json_text).collect();
                let both: Vec<Value> = ea.iter().filter(|v| keep.contains(&json_text(v))).cloned().collect();
                if both.is_empty() {
                    return false;
                }
                Some(Value::Array(both))
            }
            k if keywords::bound(k) == Some(Bound::Lower) => larger(av, bv),
            k if keywords::bound(k) == Some(Bound::Upper) => smaller(av, bv),
            "additionalProperties" | "items" => match (&mut *av, bv) {
                (Value::Bool(false), _) => continue,
                (_, Value::Bool(false)) => Some(Value::Bool(false)),
                (Value::Object(x), Value::Object(y)) => {
                    if !conjoin_into(x, y, &mut None) {
                        return false;
                    }
                    continue;
                }
                _ => return false,
            },
            _ => return false,
        };
        match merged {
            Some(v) => *av = v,
            None => return false,
        }
    }
    // OpenAPI's `nullable: true` widens (absent, null is not accepted): the
    // conjunction accepts null only where both sides do.
    if a.field(kw::NULLABLE) == Some(&Value::Bool(true)) && a_nullable.as_ref() != b.field(kw::NULLABLE) {
        a.remove_field(kw::NULLABLE);
    }
    true
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn side(v: Value) -> Map {
        v.as_object().cloned().unwrap_or_default()
    }

    /// The fold gives what conjoining pairwise gives, past the set's threshold
    /// too: required names in first-seen order, each once (a repeated name, a
    /// name every side lists, a non-string entry compared as it was).
    #[test]
    fn conjoin_all_equals_pairwise_conjoin() {
        let mut sides = vec![side(json!({"type": "object", "required": ["a", 7]}))];
        for i in 0..40 {
            let names = vec![json!(format!("p{}", i % 25)), json!("a"), json!(7)];
            sides.push(side(json!({"type": "object", "properties": {format!("p{}", i % 25): {"type": "string"}}, "required": names})));
        }
        let pairwise = sides[1..].iter().try_fold(sides[0].clone(), |acc, b| conjoin(&acc, b)).expect("conjoinable");
        let mut folded = sides[0].clone();
        assert!(conjoin_all(&mut folded, &sides[1..]));
        assert_eq!(json_text(&Value::Object(folded.clone())), json_text(&Value::Object(pairwise)));
        let required = folded.field(kw::REQUIRED).and_then(Value::as_array).map(Vec::len);
        assert_eq!(required, Some(27), "a, 7 and p0..p24, once each");
    }

    /// A side that conflicts stops the fold with false.
    #[test]
    fn conjoin_all_fails_on_a_conflict() {
        let sides = [side(json!({"type": "string"})), side(json!({"type": "integer"}))];
        let mut acc = side(json!({"type": "string"}));
        assert!(!conjoin_all(&mut acc, &sides));
    }
}

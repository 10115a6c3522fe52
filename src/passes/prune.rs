//! The never-prune: what accepts nothing leaves its unions and properties.
//! The pipeline runs it on every node children first (during the draft
//! upgrade, and again after refs are inlined), and `apply` runs it before a
//! target's rules on each node, so a rule sees a node with its never-parts
//! already gone.
use super::{is_never, types_of};
use crate::keywords::is_annotation;
use crate::lookup::Fields;
use crate::context::Cx;
use crate::json;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// `{"not": {}}` (the `false` schema) accepts nothing: as a union branch it adds
/// nothing, and as an optional property it only says "absent". zod-to-json-schema
/// emits it as a sentinel that breaks llama.cpp and others (seed 001).
/// Drops never-branches from `anyOf`/`oneOf`; folds a union left with one
/// branch into its node when no keyword conflicts. True when a fold happened.
fn prune_unions(node: &mut Map, cx: &mut Cx) -> bool {
    let mut folded = false;
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = node.field_mut(key) else { continue };
        let before = branches.len();
        // A branch that is `false`, or requires a property that is, accepts nothing
        // that is an object. Without `type: "object"` the second still accepts
        // every non-object: dropped from `anyOf` that only narrows, but a value
        // it matched in a `oneOf` may now match one branch instead of two.
        let widens = key == "oneOf"
            && branches.iter().any(|b| requires_never(b) && b.as_object().is_some_and(|m| types_of(m) != ["object"]));
        branches.retain(|b| !is_never(b) && !requires_never(b));
        if widens {
            cx.lossy(
                "one-of-branch-dropped",
                "a oneOf branch requiring a property that accepts nothing was dropped; without a type it matched every non-object, which may now match one branch only",
            );
        }
        for _ in branches.len()..before {
            cx.count("notDrops");
        }
        match branches.len() {
            // Every branch accepts nothing, so the node does (`anyOf: []` is not a schema).
            0 => {
                node.remove_field(key);
                node.insert(kw::NOT.into(), json!({}));
            }
            // A one-branch union is its branch; folded in here, before refs are
            // resolved, a `$ref` branch meets the node's siblings in the same run.
            1 => {
                let Some(Value::Object(b)) = branches.first().cloned() else { continue };
                // The node's own union goes, so the branch's keyword of that name may
                // take its place; every other shared keyword must agree.
                // (`nullable: true` widens: absent on the node, null is not accepted.)
                let fits = b.iter().all(|(k, v)| {
                    k == key
                        || is_annotation(k)
                        || if k == "nullable" { node.field(k) == Some(v) } else { node.field(k).map_or(true, |mine| mine == v) }
                });
                if fits {
                    node.remove_field(key);
                    for (k, v) in b {
                        if !node.has(&k) || k == key {
                            node.insert(k, v);
                        }
                    }
                    cx.count("singleUnionsInlined");
                    folded = true;
                }
            }
            _ => {}
        }
    }
    folded
}

fn requires_never(b: &Value) -> bool {
    let props = b.field(kw::PROPERTIES).and_then(Value::as_object);
    b.field(kw::REQUIRED).and_then(Value::as_array).is_some_and(|r| {
        r.iter().filter_map(Value::as_str).any(|n| props.and_then(|p| p.get(n)).is_some_and(is_never))
    })
}

pub fn prune_never(node: &mut Map, cx: &mut Cx) {
    // Most nodes have none of these keys, and a map answers for a keyword it
    // lacks from its bits (`doc::Map`), with no key compared.
    let unions = node.has(kw::ANY_OF) || node.has(kw::ONE_OF);
    let (mut props, mut additional) = (node.has(kw::PROPERTIES), node.has(kw::ADDITIONAL_PROPERTIES));
    if unions {
        // Repeated: folding a one-branch union can surface another (`anyOf: [{anyOf: [X]}]`).
        while prune_unions(node, cx) {}
        // A folded branch may have brought either keyword.
        (props, additional) = (true, true);
    }
    let never_props = props && node.field(kw::PROPERTIES).and_then(Value::as_object).is_some_and(|p| p.values().any(is_never));
    if never_props {
        let required: Vec<Value> = node.field(kw::REQUIRED).and_then(Value::as_array).cloned().unwrap_or_default();
        // Dropping such a property is exact where its name is refused anyway;
        // where `additionalProperties` (or a pattern) would take it, it may now
        // be sent with any value those allow, which is said.
        let refused = node.field(kw::ADDITIONAL_PROPERTIES).is_some_and(|a| a == &Value::Bool(false) || is_never(a))
            && !node.has(kw::PATTERN_PROPERTIES);
        let mut dropped = Vec::new();
        if let Some(Value::Object(props)) = node.field_mut(kw::PROPERTIES) {
            props.retain(|name, s| {
                let keep = !is_never(s) || required.iter().any(|r| r.as_str() == Some(name.as_str()));
                if !keep {
                    dropped.push(name.clone());
                }
                keep
            });
        }
        for name in dropped {
            cx.count("notDrops");
            if !refused {
                cx.lossy(
                    "never-property-dropped",
                    format!("property {name:?} accepted no value (it could only be absent); it was dropped, and the object's other keywords now let it through"),
                );
            }
        }
    }
    if additional && node.field(kw::ADDITIONAL_PROPERTIES).is_some_and(is_never) {
        node.insert(kw::ADDITIONAL_PROPERTIES.into(), Value::Bool(false));
    }
}

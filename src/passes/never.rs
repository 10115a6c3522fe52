//! Schemas written without `not`. Fireworks cannot read `{"not": {}}` ("JSON
//! Schema not supported: could not understand the instance",
//! openclaw/openclaw#75476). The never-prune already drops such union branches
//! and optional properties; `items` that accepts nothing (a tuple's `items:
//! false`, `z.never()` items) says how many items there may be, which
//! `maxItems` says exactly; any other `not` is removed and reported.
use super::is_never;
use crate::error::Result;
use crate::lookup::Fields;
use crate::context::Cx;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// `items` that accepts nothing: at most the `prefixItems` entries (none
/// without them), written as `maxItems` (the smaller, if there is one already).
/// Both apply to arrays only, so this is exact whatever the node's type.
pub fn never_items(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !node.field(kw::ITEMS).is_some_and(is_never) {
        return Ok(());
    }
    let count = node.field(kw::PREFIX_ITEMS).and_then(Value::as_array).map_or(0, Vec::len) as u64;
    if !node.field(kw::MAX_ITEMS).and_then(Value::as_u64).is_some_and(|m| m <= count) {
        node.insert(kw::MAX_ITEMS.into(), Value::from(count));
    }
    node.remove_field(kw::ITEMS);
    cx.count("neverItemsBounded");
    Ok(())
}

/// Removes `not` (reported), except from a never-schema under `items`, which
/// its parent's `never_items` turns into `maxItems` (children are normalized
/// first, so the parent only sees it if it is still there).
pub fn drop_not(node: &mut Map, cx: &mut Cx) -> Result<()> {
    // (Resolution keywords, which `is_never` also looks for, are gone by now.)
    let never = node.field(kw::NOT).is_some_and(|n| n.as_object().is_some_and(Map::is_empty));
    if !node.has(kw::NOT) || (never && at_items(cx.path.raw_segments(0))) {
        return Ok(());
    }
    node.remove_field(kw::NOT);
    cx.count("keywordsStripped");
    cx.enter("not")?;
    let id = cx.target.id;
    cx.lossy_with("keyword-dropped", || format!("not is not accepted by {id}; it was removed"));
    cx.leave();
    Ok(())
}

/// Is the node at `path` the `items` subschema of its parent (not a property
/// named "items")? `items` holds one schema, so a keyword always follows it:
/// when it is the last keyword of the path, it is the path's last segment.
fn at_items<S: AsRef<str>>(segments: impl Iterator<Item = S>) -> bool {
    crate::walk::keyword_segments(segments).last().is_some_and(|k| k.as_ref() == "items")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn run(schema: Value) -> Value {
        // A profile that keeps every keyword (the rule asks only that), no rules.
        let profile = crate::profile::Profile { id: "openai", caps: &crate::profile::BASE, on_violation: crate::profile::OnViolation::Report };
        let opts = crate::options::Options::default();
        let mut cx = crate::context::Cx::new(profile, &[], &opts);
        let Value::Object(mut m) = schema else { unreachable!() };
        never_items(&mut m, &mut cx).unwrap();
        Value::Object(m)
    }

    #[test]
    fn never_items_become_max_items() {
        assert_eq!(
            run(json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": {"not": {}}})),
            json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "maxItems": 2})
        );
        for max in [3, 0] {
            let s = json!({"type": "array", "items": {"not": {}}, "maxItems": max});
            assert_eq!(run(s), json!({"type": "array", "maxItems": 0}));
        }
    }

    #[test]
    fn items_is_told_from_a_property_named_items() {
        let p = |s: &str| crate::pointer::Pointer::parse_fragment(s).unwrap();
        assert!(at_items(p("/properties/a/items").raw_segments(0)));
        assert!(at_items(p("/items").raw_segments(0)));
        assert!(!at_items(p("/properties/items").raw_segments(0)));
        assert!(at_items(p("/properties/items/items").raw_segments(0)));
        assert!(!at_items(p("/items/properties/x").raw_segments(0)));
        assert!(!at_items(p("/prefixItems/0").raw_segments(0)));
        // at_items reads the path's last keyword, which is its last segment
        // only while `items` holds one schema.
        assert!(matches!(crate::keywords::slot("items"), crate::keywords::Slot::Schema));
    }

    #[test]
    fn any_node_type_takes_the_bound_and_other_items_stay() {
        let nullable = json!({"type": ["array", "null"], "items": {"not": {}}});
        assert_eq!(run(nullable), json!({"type": ["array", "null"], "maxItems": 0}));
        let s = json!({"type": "array", "items": {"type": "string"}});
        assert_eq!(run(s.clone()), s);
    }
}

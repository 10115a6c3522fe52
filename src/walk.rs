//! The walks: every subschema reached through the keyword table, with its
//! JSON pointer, and no target, rule or report in sight (a call's walk with
//! those is `context::post_order`).
use crate::keywords::{self, Slot};
use crate::pointer::Pointer;
use crate::doc::{Map, Value};

/// Is the node at `path` inside a `oneOf` branch or a `not`? There narrowing
/// a subschema can widen the whole: a branch that accepts less can leave a
/// value matching only one `oneOf` branch instead of two, and `not` inverts.
/// Segments are read by the keyword table: a keyword's slot says whether the
/// next segment is a schema, an index or a name.
pub fn under_exclusion(path: &Pointer) -> bool {
    keyword_segments(path).any(|seg| seg == "oneOf" || seg == "not")
}

/// The segments of `path` that name a keyword, outermost first, as written
/// (escaped). Read by the keyword table: after an array or map slot
/// (`anyOf`, `properties`) comes an index or a member name, which is skipped;
/// after any other keyword, the next keyword.
pub fn keyword_segments(path: &Pointer) -> impl Iterator<Item = &str> + '_ {
    let mut next_is_keyword = true;
    path.raw_segments(0).filter(move |seg| {
        if !next_is_keyword {
            next_is_keyword = true;
            return false;
        }
        next_is_keyword = !matches!(keywords::slot(*seg), Slot::SchemaArray | Slot::SchemaMap);
        true
    })
}

/// Read-only visit of every schema node with its pointer (parents first).
/// Depth is bounded by the callers' inputs, which passed through a guarded walk.
pub fn visit(value: &Value, path: &mut Pointer, f: &mut dyn FnMut(&Value, &Pointer)) {
    f(value, path);
    if let Value::Object(node) = value {
        each_child(node, path, &mut |child, path| visit(child, path, f));
    }
}

/// `visit` for a reader that needs no pointer: the same nodes in the same
/// order, with no path kept.
pub fn nodes(value: &Value, f: &mut dyn FnMut(&Value)) {
    f(value);
    let Value::Object(node) = value else { return };
    for (key, child) in node {
        match (keywords::slot(key), child) {
            (Slot::Schema, _) => nodes(child, f),
            (Slot::SchemaArray, Value::Array(items)) => items.iter().for_each(|item| nodes(item, f)),
            (Slot::SchemaMap, Value::Object(entries)) => entries.values().for_each(|entry| nodes(entry, f)),
            _ => {}
        }
    }
}

/// Calls `f` on every subschema directly under `node` (by the keyword
/// table's slots), with its pointer pushed on `path` for the call.
pub fn each_child(node: &Map, path: &mut Pointer, f: &mut dyn FnMut(&Value, &mut Pointer)) {
    for (key, child) in node {
        match (keywords::slot(key), child) {
            (Slot::Schema, _) => {
                path.push_keyword(key);
                f(child, path);
                path.pop();
            }
            (Slot::SchemaArray, Value::Array(items)) => {
                path.push_keyword(key);
                for (i, item) in items.iter().enumerate() {
                    path.push_index(i);
                    f(item, path);
                    path.pop();
                }
                path.pop();
            }
            (Slot::SchemaMap, Value::Object(entries)) => {
                path.push_keyword(key);
                for (name, entry) in entries {
                    path.push(name.as_str());
                    f(entry, path);
                    path.pop();
                }
                path.pop();
            }
            _ => {}
        }
    }
}

/// `each_child` for editing: `f` gets each subschema mutably.
pub fn each_child_mut(node: &mut Map, path: &mut Pointer, f: &mut dyn FnMut(&mut Value, &mut Pointer)) {
    for (key, child) in node.iter_mut() {
        match (keywords::slot(key), child) {
            (Slot::Schema, child) => {
                path.push_keyword(key);
                f(child, path);
                path.pop();
            }
            (Slot::SchemaArray, Value::Array(items)) => {
                path.push_keyword(key);
                for (i, item) in items.iter_mut().enumerate() {
                    path.push_index(i);
                    f(item, path);
                    path.pop();
                }
                path.pop();
            }
            (Slot::SchemaMap, Value::Object(entries)) => {
                path.push_keyword(key);
                for (name, entry) in entries.iter_mut() {
                    path.push(name.as_str());
                    f(entry, path);
                    path.pop();
                }
                path.pop();
            }
            _ => {}
        }
    }
}

/// Deepest nesting of an already-built value, without recursion.
pub fn value_depth(value: &Value) -> usize {
    let mut stack = vec![(value, 0usize)];
    let mut max = 0;
    while let Some((v, d)) = stack.pop() {
        max = max.max(d);
        match v {
            Value::Object(m) => stack.extend(m.values().map(|c| (c, d + 1))),
            Value::Array(a) => stack.extend(a.iter().map(|c| (c, d + 1))),
            _ => {}
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_segments_skip_indexes_and_member_names() {
        let p = |s: &str| Pointer::parse_fragment(s).unwrap();
        let segs = |s: &str| keyword_segments(&p(s)).map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(segs("/properties/not/anyOf/0/items/oneOf"), ["properties", "anyOf", "items", "oneOf"]);
        assert_eq!(segs("/properties/a~1b/$defs/oneOf/not"), ["properties", "$defs", "not"]);
        assert!(segs("").is_empty());
        assert!(!under_exclusion(&p("/properties/oneOf/properties/not")));
        assert!(under_exclusion(&p("/properties/a/not")));
    }

    #[test]
    fn value_depth_counts_levels() {
        assert_eq!(value_depth(&crate::json!({"a": [{"b": 1}]})), 3);
    }
}

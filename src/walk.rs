//! The walks: every subschema reached through the keyword table, with its
//! JSON pointer, and no target, rule or report in sight (a call's walk with
//! those is `context::post_order`).
use crate::keywords::{self, Slot};
use crate::pointer::Pointer;
use crate::doc::{Map, Value};

/// Whether `node` holds no subschema, told by its keys' bits alone: every key
/// is a keyword with a bit, and none has a subschema slot. Most nodes are
/// such leaves (`{"type": "string", "description": ...}`), and the walks
/// skip reading their keys' slots one by one.
#[inline]
pub fn is_leaf(node: &Map) -> bool {
    node.keys_are_bits() && node.keyword_bits() & keywords::SUBSCHEMA_ROWS == 0
}

/// Is the node at the pointer whose segments these are (`raw_segments(0)`
/// of a `Pointer` or a walk's `Path`) inside a `oneOf` branch or a `not`? There narrowing
/// a subschema can widen the whole: a branch that accepts less can leave a
/// value matching only one `oneOf` branch instead of two, and `not` inverts.
/// Segments are read by the keyword table: a keyword's slot says whether the
/// next segment is a schema, an index or a name.
pub fn under_exclusion<S: AsRef<str>>(segments: impl Iterator<Item = S>) -> bool {
    keyword_segments(segments).any(|seg| matches!(seg.as_ref(), "oneOf" | "not"))
}

/// The segments of a pointer (`Pointer::raw_segments(0)`, or a walk's
/// `Path::raw_segments(0)`) that name a keyword, outermost first, as written
/// (escaped). Read by the keyword table: after an array or map slot
/// (`anyOf`, `properties`) comes an index or a member name, which is skipped;
/// after any other keyword, the next keyword.
pub fn keyword_segments<S: AsRef<str>>(segments: impl Iterator<Item = S>) -> impl Iterator<Item = S> {
    let mut next_is_keyword = true;
    segments.filter(move |seg| {
        if !next_is_keyword {
            next_is_keyword = true;
            return false;
        }
        next_is_keyword = !matches!(keywords::slot(seg.as_ref()), Slot::SchemaArray | Slot::SchemaMap);
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

/// Where a walk is, as the steps it took: borrowed from the document, and
/// written out as a pointer only when a reader asks (`pointer`). For a walk
/// that reads many nodes and names few, such as the checker's, pushing every
/// step's text onto a `Pointer` was most of the walk's cost.
#[derive(Default)]
pub struct Trail<'a> {
    steps: Vec<Step<'a>>,
}

#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

impl Trail<'_> {
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// How many steps the pointer has (a subschema of an array or map slot
    /// takes two): at least the number of schemas above the current node.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// The pointer of the current node.
    pub fn pointer(&self) -> Pointer {
        let mut p = Pointer::root();
        for step in &self.steps {
            match *step {
                Step::Key(k) => p.push(k),
                Step::Index(i) => p.push_index(i),
            }
        }
        p
    }
}

/// `visit` with a `Trail` for the pointer: the same nodes in the same order.
pub fn visit_trail<'a>(value: &'a Value, trail: &mut Trail<'a>, f: &mut dyn FnMut(&'a Value, &Trail<'a>)) {
    f(value, trail);
    let Value::Object(node) = value else { return };
    subschemas(node, |key, below, child| {
        trail.steps.push(Step::Key(key));
        trail.steps.extend(below);
        visit_trail(child, trail, f);
        trail.steps.truncate(trail.steps.len() - 1 - usize::from(below.is_some()));
    });
}

/// `visit` for a reader that needs no pointer: the same nodes in the same
/// order, with no path kept.
pub fn nodes(value: &Value, f: &mut dyn FnMut(&Value)) {
    f(value);
    let Value::Object(node) = value else { return };
    subschemas(node, |_, _, child| nodes(child, f));
}

/// Calls `f` on every subschema directly under `node` (by the keyword
/// table's slots), with its pointer pushed on `path` for the call.
pub fn each_child(node: &Map, path: &mut Pointer, f: &mut dyn FnMut(&Value, &mut Pointer)) {
    subschemas(node, |key, below, child| {
        path.push_keyword(key);
        match below {
            Some(Step::Index(i)) => path.push_index(i),
            Some(Step::Key(name)) => path.push(name),
            None => {}
        }
        f(child, path);
        if below.is_some() {
            path.pop();
        }
        path.pop();
    });
}

/// Every subschema directly under `node`, by the keyword table's slots, in
/// member order: `f` gets the keyword, the index or member name below it in
/// an array or map slot, and the subschema. The one reading of the slots for
/// the read-only walks above.
fn subschemas<'a>(node: &'a Map, mut f: impl FnMut(&'a str, Option<Step<'a>>, &'a Value)) {
    if is_leaf(node) {
        return;
    }
    for (key, child) in node {
        match (keywords::slot(key), child) {
            (Slot::Schema, _) => f(key, None, child),
            (Slot::SchemaArray, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    f(key, Some(Step::Index(i)), item);
                }
            }
            (Slot::SchemaMap, Value::Object(entries)) => {
                for (name, entry) in entries {
                    f(key, Some(Step::Key(name)), entry);
                }
            }
            _ => {}
        }
    }
}

/// `each_child` for editing: `f` gets each subschema mutably.
pub fn each_child_mut(node: &mut Map, path: &mut Pointer, f: &mut dyn FnMut(&mut Value, &mut Pointer)) {
    if is_leaf(node) {
        return;
    }
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

    /// `Value::clone_within` copies exactly the values `value_depth` finds
    /// within the limit, at every limit around their depth.
    #[test]
    fn a_copy_within_a_depth_is_the_depth_check_then_a_copy() {
        let values = [
            crate::json!(1),
            crate::json!({}),
            crate::json!([]),
            crate::json!({"a": 1}),
            crate::json!({"a": {}, "b": [1, [2, {"c": [[]]}]]}),
            crate::json!([[[[{"x": null}]]], "s"]),
        ];
        for v in values {
            let depth = value_depth(&v);
            for limit in 0..depth + 2 {
                assert_eq!(v.clone_within(limit), (depth <= limit).then(|| v.clone()), "{v} within {limit}");
            }
        }
        let mut wide = crate::doc::Map::new();
        for i in 0..100 {
            wide.insert(format!("k{i}").into(), crate::json!({"type": "string"}));
        }
        let wide = Value::Object(wide);
        assert!(wide.clone_within(1).is_none());
        let copy = wide.clone_within(2).expect("within");
        assert_eq!(copy, wide);
        assert!(copy.get("k99").is_some(), "a wide copy finds its keys");
    }

    #[test]
    fn keyword_segments_skip_indexes_and_member_names() {
        let p = |s: &str| Pointer::parse_fragment(s).unwrap();
        let segs = |s: &str| {
            let at = p(s);
            keyword_segments(at.raw_segments(0)).map(str::to_owned).collect::<Vec<_>>()
        };
        assert_eq!(segs("/properties/not/anyOf/0/items/oneOf"), ["properties", "anyOf", "items", "oneOf"]);
        assert_eq!(segs("/properties/a~1b/$defs/oneOf/not"), ["properties", "$defs", "not"]);
        assert!(segs("").is_empty());
        assert!(!under_exclusion(p("/properties/oneOf/properties/not").raw_segments(0)));
        assert!(under_exclusion(p("/properties/a/not").raw_segments(0)));
    }

    /// The trail's pointers are the pointers `visit` keeps, node for node
    /// (escapes, indexes, member names that spell keywords).
    #[test]
    fn trail_points_where_visit_points() {
        let doc = crate::json!({
            "type": "object",
            "properties": {"a/b": {"anyOf": [{"type": "string"}, {"items": {"not": {}}}]}, "c~d": true, "items": {"$ref": "#"}},
            "$defs": {"x": {"prefixItems": [{}, {"properties": {"": {}}}]}},
            "enum": [{"type": "not a schema"}]
        });
        let (mut kept, mut lazy) = (Vec::new(), Vec::new());
        visit(&doc, &mut Pointer::root(), &mut |_, p| kept.push(p.to_string()));
        visit_trail(&doc, &mut Trail::default(), &mut |_, t| lazy.push((t.pointer().to_string(), t.is_empty())));
        assert_eq!(kept.len(), 12, "{kept:?}");
        assert_eq!(kept, lazy.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>());
        assert!(lazy.iter().all(|(p, empty)| p.is_empty() == *empty));
        assert!(kept.contains(&"/properties/a~1b/anyOf/1/items/not".to_string()) && kept.contains(&"/properties/c~0d".to_string()));
    }

    #[test]
    fn value_depth_counts_levels() {
        assert_eq!(value_depth(&crate::json!({"a": [{"b": 1}]})), 3);
    }
}

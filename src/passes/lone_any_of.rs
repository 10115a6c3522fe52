//! Rules the Gemini API enforces past its `Schema` proto parser: a request
//! whose schema parses into the proto can still be refused.
//!
//! - An `anyOf` node carries no other field (Gemini 3 models: "schema specified
//!   other fields alongside any_of. When using any_of, it must be the only field
//!   set.", anomalyco/opencode#14700, #14659, lambda-alpha-labs/Graphenium#37).
//! - `required` in an `anyOf` branch only on an OBJECT branch, naming only its
//!   own properties ("any_of[0].required: only allowed for OBJECT type",
//!   "required[0]: property is not defined": goruck/home-generative-agent#525).
//!   A node of another type loses its object fields in `shapes::object_shapes`
//!   (`Caps::object_only_fields`); a branch's `required` names are checked here,
//!   once the union's `properties` are in the branch.
//!
//! The rule runs last but the root's (which merges a root union into the root
//! object): by then `strip-unsupported` has spilled what the proto cannot carry
//! into `description`, so the spilled text moves into the branches with it.
//! Branches are normalized before their union (post-order), so each one is
//! already lone; one a rewrite here leaves as a bare union is spliced.
use super::merge::{as_written, SharedMembers};
use crate::intersect::conjoin;
use super::shapes::declared_required;
use super::{apply, json_text, types_of};
use crate::keywords::is_annotation;
use crate::error::Result;
use crate::lookup::Fields;
use crate::context::Cx;
use crate::json;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// Moves every field beside an `anyOf` into its branches, where Gemini reads
/// them, and cleans each branch's object fields:
/// - assertions (`type`, `enum`, `properties`, `required`, `items`) are
///   conjoined with each branch (`(A ∨ B) ∧ C` is `(A ∧ C) ∨ (B ∧ C)`); a branch
///   they contradict (disjoint types or enums) accepted nothing and is dropped;
/// - `nullable: true` (the union admits null) is set on every branch;
/// - `description` goes into every branch, before a branch's own;
/// - `title`, `default` and `example` go into every branch that has none and
///   whose type admits the value; one no branch takes is dropped, reported;
/// - `propertyOrdering` is rewritten by the branches' own rules.
///
/// The target's other rules keep a union branch's `required` names until here
/// (`shapes::object_shapes`), so names the union's own `properties` declare stay
/// required once those properties are in the branch.
pub fn lone_any_of(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !cx.target.caps.lone_any_of {
        return Ok(());
    }
    // A root union, and a union that is a branch of one, are merged into the
    // root object by `shapes::root_object` (which takes a nested union's
    // description for the root), never written as unions.
    let root_union = cx.path.is_empty() || (cx.path.len() == 2 && super::facts::branch_of_union(&cx.path));
    if !matches!(node.field(kw::ANY_OF), Some(Value::Array(_))) || (root_union && cx.target.caps.root_object) {
        return Ok(());
    }
    if node.len() == 1 {
        // Already alone: only the branches' required names are checked.
        if let Some(Value::Array(branches)) = node.field_mut(kw::ANY_OF) {
            cx.enter("anyOf")?;
            for (i, b) in branches.iter_mut().enumerate() {
                if let Value::Object(b) = b {
                    cx.enter_index(i)?;
                    clean_branch(b, cx);
                    cx.leave();
                }
            }
            cx.leave();
        }
        return Ok(());
    }
    // Every branch but one gets a copy of the siblings: within the budget, or
    // the union gives way to what all its branches require.
    let copies = node.field(kw::ANY_OF).and_then(Value::as_array).map_or(0, |b| b.len().saturating_sub(1));
    match distribution_cost(node.iter().filter(|(k, _)| k.as_str() != "anyOf").map(|(_, v)| v), copies, cx) {
        Some(cost) => cx.distributed += cost,
        None => return collapse_union(node, cx),
    }
    let Some(Value::Array(branches)) = node.remove_field(kw::ANY_OF) else { return Ok(()) };
    let siblings = std::mem::take(node);
    let nullable = siblings.field(kw::NULLABLE) == Some(&Value::Bool(true));
    let description = siblings.field(kw::DESCRIPTION).and_then(Value::as_str).filter(|d| !d.is_empty()).map(str::to_string);
    let carried: Vec<(&crate::doc::Key, &Value)> =
        siblings.iter().filter(|(k, _)| is_annotation(k) && k.as_str() != "description").collect();
    let assertions: Map = siblings
        .iter()
        .filter(|(k, _)| !is_annotation(k) && !matches!(k.as_str(), "nullable" | "propertyOrdering"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    cx.count("anyofSiblingsMoved");

    let mut out: Vec<Value> = Vec::with_capacity(branches.len());
    let mut taken = vec![false; carried.len()];
    for (i, branch) in branches.into_iter().enumerate() {
        let b = match branch {
            Value::Object(b) => b,
            // `true` accepts anything: it becomes the union's own keywords;
            // `false` accepts nothing, with them or without.
            Value::Bool(true) => Map::new(),
            _ => continue,
        };
        cx.enter("anyOf")?;
        cx.enter_index(i)?;
        let placed = into_branch(b, &assertions, nullable, description.as_deref(), &carried, &mut taken, cx);
        cx.leave();
        cx.leave();
        match placed? {
            Some(Value::Object(m)) if m.len() == 1 && matches!(m.field(kw::ANY_OF), Some(Value::Array(_))) => {
                // Conjoined with the union's assertions, a branch that held a
                // union is that union's branches now.
                if let Some(Value::Array(inner)) = m.into_iter().next().map(|(_, v)| v) {
                    out.extend(inner);
                }
            }
            Some(b) => out.push(b),
            None => {}
        }
    }
    for ((key, _), taken) in carried.iter().zip(taken) {
        if taken {
            continue;
        }
        cx.enter(key.as_str())?;
        if key.as_str() == "title" {
            // Every branch has a title of its own (Pydantic's model titles under
            // the field's): a name, not a constraint, as stripping treats it.
            cx.note("any-of-title-dropped", || "title beside anyOf was removed: every branch has its own title".into());
        } else {
            cx.lossy(
                "any-of-sibling-dropped",
                format!("{key} beside anyOf fits no branch, and {} accepts no other field beside anyOf; it was removed", cx.target.id),
            );
        }
        cx.leave();
    }
    let mut unique = crate::values::distinct(out);
    match unique.len() {
        0 => {
            // Every branch contradicted the union's own keywords: nothing is
            // accepted, which the target writes as it writes any `not: {}`.
            node.insert(kw::NOT.into(), json!({}));
            if let Some(d) = description {
                node.insert(kw::DESCRIPTION.into(), Value::String(d));
            }
            cx.count("emptyUnionDrops");
            apply(node, cx)?;
        }
        1 => {
            if let Some(Value::Object(only)) = unique.pop() {
                *node = only;
            }
            cx.count("singleUnionsInlined");
        }
        _ => {
            node.insert(kw::ANY_OF.into(), Value::Array(unique));
        }
    }
    Ok(())
}

/// One branch with the union's fields moved in (`None`: it accepts nothing).
fn into_branch(
    mut b: Map,
    assertions: &Map,
    nullable: bool,
    description: Option<&str>,
    carried: &[(&crate::doc::Key, &Value)],
    taken: &mut [bool],
    cx: &mut Cx,
) -> Result<Option<Value>> {
    if !assertions.is_empty() {
        let (mut x, mut y) = (as_written(assertions, cx), as_written(&b, cx));
        // Members both sides declare are conjoined into new subschemas, whose
        // `propertyOrdering` the rules write again: the sides' own orderings
        // would only conflict.
        let shared = SharedMembers::of(&[&x, &y]);
        for side in [&mut x, &mut y] {
            side.remove_field(kw::PROPERTY_ORDERING);
            shared.rerun(side, cx, &mut |v, _| {
                v.remove_field(kw::PROPERTY_ORDERING);
                Ok(())
            })?;
        }
        b = match conjoin(&x, &y) {
            Some(mut m) => {
                // Conjoined, the branch and the members both sides declared
                // need the rules again (orderings, a merged enum's spelling).
                shared.rerun(&mut m, cx, &mut |v, cx| match v {
                    Value::Object(m) => apply(m, cx),
                    _ => Ok(()),
                })?;
                apply(&mut m, cx)?;
                m
            }
            None if contradicts(assertions, &b) => {
                cx.count("anyofBranchesRuledOut");
                return Ok(None);
            }
            None => {
                // Not written as one schema (two objects declaring one property
                // differently): the branch keeps its own keywords and takes the
                // union's where it has none.
                cx.lossy(
                    "any-of-siblings-overlaid",
                    format!("keywords beside anyOf could not be merged into this branch exactly ({} accepts no other field beside anyOf); the branch's own keywords win a conflict", cx.target.id),
                );
                super::merge::overlay_branch(&mut b, assertions.clone());
                b.remove_field(kw::PROPERTY_ORDERING);
                apply(&mut b, cx)?;
                b
            }
        };
    }
    clean_branch(&mut b, cx);
    if nullable && b.field(kw::NULLABLE) != Some(&Value::Bool(true)) {
        let at = b.keys().position(|k| k == "type").map_or(b.len(), |t| t + 1);
        b.remove_field(kw::NULLABLE);
        b.shift_insert(at.min(b.len()), "nullable".into(), Value::Bool(true));
    }
    if let Some(d) = description {
        match b.field_mut(kw::DESCRIPTION) {
            Some(Value::String(own)) if own.as_str() == d => {}
            Some(Value::String(own)) if !own.is_empty() => *own = format!("{d}\n\n{own}"),
            _ => {
                b.insert(kw::DESCRIPTION.into(), Value::String(d.to_string()));
            }
        }
    }
    for ((key, value), taken) in carried.iter().zip(taken.iter_mut()) {
        if b.has(key) {
            // The branch's own value stands; the union's is said by the
            // branches that have none (or dropped below if none takes it).
            *taken |= b.field(key) == Some(*value);
            continue;
        }
        if key.as_str() == "title" || admits(&b, value) {
            b.insert((*key).clone(), (*value).clone());
            *taken = true;
        }
    }
    Ok(Some(Value::Object(b)))
}

/// An object branch's `required` names only its own properties (kept until
/// here by `object_shapes`; a branch of another type has none left).
fn clean_branch(b: &mut Map, cx: &mut Cx) {
    if types_of(b).has("object") {
        declared_required(b, cx);
    }
}

/// Do the union's assertions and the branch accept no value together? Disjoint
/// types or enums; anything else `conjoin` cannot write is not a contradiction.
pub(super) fn contradicts(assertions: &Map, b: &Map) -> bool {
    ["type", "enum"].iter().any(|k| match (assertions.field(k), b.field(k)) {
        (Some(x), Some(y)) => conjoin(&Map::from_iter([(k.to_string(), x.clone())]), &Map::from_iter([(k.to_string(), y.clone())])).is_none(),
        _ => false,
    })
}

/// Does the branch accept `value` (a `default` or `example`)? Its type, its
/// enum (Gemini's enums hold strings: a number is compared as its JSON text),
/// and `null` only where it is nullable.
fn admits(b: &Map, value: &Value) -> bool {
    if value.is_null() {
        return b.field(kw::NULLABLE) == Some(&Value::Bool(true));
    }
    let types = types_of(b);
    if let Some(Value::Array(values)) = b.field(kw::ENUM) {
        let text = match value {
            Value::String(s) => s.clone(),
            other => json_text(other),
        };
        return values.iter().any(|v| v.as_str() == Some(text.as_str()));
    }
    types.is_empty() || types.iter().any(|t| crate::values::value_has_type(value, t))
}

/// Nodes that `copies` more copies of `values` add, if that fits what is left
/// of `sizeBudget` for distributing union siblings (`Cx::distributed`); `None`
/// past it. Counting stops at what is left, so a large sibling costs no more
/// to refuse than the budget.
pub(super) fn distribution_cost<'v>(values: impl Iterator<Item = &'v Value>, copies: usize, cx: &Cx) -> Option<usize> {
    if copies == 0 {
        return Some(0);
    }
    let left = cx.opts.size_budget(cx.target.caps).saturating_sub(cx.distributed);
    let per_copy = left / copies;
    let mut stack: Vec<&Value> = values.collect();
    let mut nodes = 0usize;
    while let Some(v) = stack.pop() {
        nodes += 1;
        if nodes > per_copy {
            return None;
        }
        match v {
            Value::Object(m) => stack.extend(m.values()),
            Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    Some(nodes * copies)
}

/// A union beside other keywords whose distribution would pass the budget:
/// the node keeps its own keywords and, of the union, what every branch the
/// keywords do not rule out requires: the `type` they all state, `nullable`
/// if one is, the `required` names they share. A widening (the union implied
/// those, and the rest is dropped), reported `any-of-collapsed`. For the
/// common "at least one of" shape (`anyOf: [{required: [a]}, {required: [b]}]`
/// beside `properties`, from Pydantic validators and Zod refinements) that is
/// the object with those properties optional. Nested, each level would
/// otherwise double the output (sizeBudget, `tests/hostile.rs`).
pub(super) fn collapse_union(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(Value::Array(branches)) = node.remove_field(kw::ANY_OF) else { return Ok(()) };
    let count = branches.len();
    let kept: Vec<Map> = branches
        .into_iter()
        .filter_map(|b| match b {
            Value::Object(b) => (!contradicts(node, &b)).then_some(b),
            Value::Bool(true) => Some(Map::new()),
            _ => None,
        })
        .collect();
    let budget = cx.opts.size_budget(cx.target.caps);
    if kept.is_empty() {
        // The node's own keywords rule out every branch: nothing is accepted,
        // as the distribution would have found (exact).
        let description = node.remove_field(kw::DESCRIPTION);
        node.clear();
        node.insert(kw::NOT.into(), json!({}));
        if let Some(d) = description {
            node.insert(kw::DESCRIPTION.into(), d);
        }
        cx.count("emptyUnionDrops");
        return apply(node, cx);
    }
    let first_type = kept[0].field(kw::TYPE).cloned();
    let same_type = first_type.filter(|t| kept.iter().all(|b| b.field(kw::TYPE) == Some(t)));
    let mut shared: Vec<Value> = kept[0].field(kw::REQUIRED).and_then(Value::as_array).cloned().unwrap_or_default();
    for b in &kept[1..] {
        let names = b.field(kw::REQUIRED).and_then(Value::as_array);
        shared.retain(|n| names.is_some_and(|ns| ns.contains(n)));
    }
    if let Some(t) = same_type {
        match node.field(kw::TYPE).cloned() {
            None => {
                node.shift_insert(0, "type".into(), t);
                if !node.has(kw::NULLABLE) && kept.iter().any(|b| b.field(kw::NULLABLE) == Some(&Value::Bool(true))) {
                    node.shift_insert(1, "nullable".into(), Value::Bool(true));
                }
            }
            Some(own) => {
                // Both hold: the narrower of the two (`integer` within `number`).
                let one = |t: Value| Map::from_iter([("type".to_string(), t)]);
                if let Some(t) = conjoin(&one(own), &one(t)).and_then(|mut m| m.remove_field(kw::TYPE)) {
                    node.insert(kw::TYPE.into(), t);
                }
            }
        }
    }
    if !shared.is_empty() {
        match node.field_mut(kw::REQUIRED) {
            Some(Value::Array(own)) => {
                for n in shared {
                    if !own.contains(&n) {
                        own.push(n);
                    }
                }
            }
            _ => {
                node.insert(kw::REQUIRED.into(), Value::Array(shared));
            }
        }
    }
    cx.count("anyofCollapsed");
    cx.lossy(
        "any-of-collapsed",
        format!("copying the keywords beside this anyOf into its {count} branches would add more nodes than sizeBudget ({budget}) leaves for such copies; the union was dropped, keeping what every branch requires (its type and shared required names)"),
    );
    apply(node, cx)
}

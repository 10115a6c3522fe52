//! `oneOf`, `allOf`, and `anyOf` shapes the targets reject.
use crate::lookup::Fields;
use super::merge::{as_written, overlay_branch, as_written_with, is_object_like, reads_as_open, unite_objects, Lifted, SharedMembers};
use crate::intersect::{conjoin, conjoin_all};
use super::types::{is_typed, single_type};
use super::{apply, is_null_schema};
use crate::keywords::is_annotation;
use crate::error::Result;
use crate::profile::OnViolation;
use crate::context::Cx;
use crate::json;
use crate::doc::{Key, Map, Value};
use crate::keywords::kw;

/// `oneOf` → `anyOf`. OpenAI strict and the Responses API reject `oneOf` (F4,
/// seed 000's Responses walker), Gemini's proto has no such field. Lossy unless the
/// branches are provably exclusive (a discriminator property with distinct values).
pub fn one_of_to_any_of(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !node.has(kw::ONE_OF) {
        return Ok(());
    }
    cx.count("oneofRewrites");
    let exclusive = node.field(kw::ONE_OF).and_then(Value::as_array).is_some_and(|b| discriminated(b));
    if !exclusive {
        cx.lossy("one-of-to-any-of", "oneOf became anyOf: a value matching several branches is no longer rejected");
    }
    if node.has(kw::ANY_OF) {
        // Both on one node: each must hold. `(A1 ∨ A2) ∧ (B1 ∨ B2)` is the union of
        // the pairwise conjunctions, exact when every pair conjoins; llama.cpp and
        // mcp-schema-normalize skip such nodes (`union_coexistence_skipped`).
        let one = node.remove_field(kw::ONE_OF).unwrap_or(Value::Null);
        if let Some(product) = cross(node.field(kw::ANY_OF), &one, cx) {
            node.insert(kw::ANY_OF.into(), Value::Array(product));
            cx.count("unionCoexistenceRewrites");
            return Ok(());
        }
        cx.count("unionCoexistenceSkipped");
        let entry = Value::Object(Map::from_iter([("anyOf".to_string(), one)]));
        match node.field_mut(kw::ALL_OF) {
            Some(Value::Array(all)) => all.push(entry),
            _ => {
                node.insert(kw::ALL_OF.into(), Value::Array(vec![entry]));
            }
        }
    } else {
        crate::draft::rename_in_place(node, "oneOf", "anyOf");
    }
    Ok(())
}

/// Every pairwise conjunction of two unions' branches, when each one conjoins
/// and the product stays small (at most 16 branches).
fn cross(a: Option<&Value>, b: &Value, cx: &Cx) -> Option<Vec<Value>> {
    let (Some(Value::Array(a)), Value::Array(b)) = (a, b) else { return None };
    if a.len() * b.len() > 16 {
        return None;
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            out.push(Value::Object(conjoin(&as_written(x.as_object()?, cx), &as_written(y.as_object()?, cx))?));
        }
    }
    Some(out)
}

/// Branches that all require one property with pairwise distinct literal values.
pub fn discriminated(branches: &[Value]) -> bool {
    let Some(Value::Object(first)) = branches.first() else { return false };
    let Some(Value::Object(props)) = first.field(kw::PROPERTIES) else { return false };
    props.keys().any(|name| {
        let mut seen = crate::hash::HashSet::default();
        branches.iter().all(|b| {
            let required = b.field(kw::REQUIRED).and_then(Value::as_array).is_some_and(|r| r.iter().any(|x| x.as_str() == Some(name.as_str())));
            let values = b.pointer(&format!("/properties/{}", crate::pointer::escape(name))).and_then(|p| {
                p.field(kw::ENUM).and_then(Value::as_array).cloned().or_else(|| p.field(kw::CONST).map(|c| vec![c.clone()]))
            });
            required && values.is_some_and(|vs| vs.iter().all(|v| seen.insert(super::json_text(v))))
        })
    })
}

/// `allOf` merged into its node: the entries are conjoined with the node when
/// that is exact, and a single entry's annotations win over the node's
/// (openai-python `_pydantic.py`, seed 000: Pydantic's `allOf: [{$ref}]` with
/// the field's own description). Where it is not exact, targets that accept
/// `allOf` keep it; strict targets fail open; others overlay the entries in
/// order (the first wins a conflict) and report it.
pub fn merge_all_of(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !matches!(node.field(kw::ALL_OF), Some(Value::Array(_))) {
        return Ok(());
    }
    // Which sides the target closed is read on each side whole, before members
    // are lifted out of it below.
    let reopen_node = reads_as_open(node, cx);
    let at = node.keys().position(|k| k == "allOf").unwrap_or(0);
    let mut base = std::mem::take(node);
    let Some(Value::Array(mut all)) = base.remove_field(kw::ALL_OF) else { return Ok(()) };
    let reopen_entry: Vec<bool> = all.iter().map(|e| e.as_object().is_some_and(|m| reads_as_open(m, cx))).collect();
    let shared = SharedMembers::of(&std::iter::once(&base).chain(all.iter().filter_map(Value::as_object)).collect::<Vec<_>>());
    // A member only one side declares is already normalized and comes through
    // the merge unchanged: it is moved out while the sides are copied and
    // conjoined, and moved back after. Copying it at every level made nested
    // allOf chains quadratic.
    let lifted_base = shared.lift(&mut base);
    let lifted: Vec<Lifted> = all.iter_mut().map(|e| e.as_object_mut().map(|m| shared.lift(m)).unwrap_or_default()).collect();
    let entries: Vec<Map> =
        all.iter().zip(&reopen_entry).filter_map(|(e, &reopen)| e.as_object().map(|e| as_written_with(e, reopen, cx))).collect();
    let written = as_written_with(&base, reopen_node, cx);
    let mut acc = written.clone();
    let merged = conjoin_all(&mut acc, &entries).then_some(acc).map(|mut m| {
        if let [only] = entries.as_slice() {
            for (k, v) in only.iter().filter(|(k, _)| is_annotation(k)) {
                m.insert(k.clone(), v.clone());
            }
        }
        m
    });
    let exact = merged.is_some();
    let restore_node = |mut base: Map, mut all: Vec<Value>, lifted_base: Lifted, lifted: Vec<Lifted>| {
        lifted_base.restore(&mut base, None);
        for (l, e) in lifted.into_iter().zip(all.iter_mut()) {
            if let Value::Object(m) = e {
                l.restore(m, None);
            }
        }
        base.shift_insert(at.min(base.len()), "allOf".into(), Value::Array(all));
        base
    };
    let merged = match merged {
        Some(mut m) => {
            lifted_base.restore(&mut m, None);
            for l in lifted {
                l.restore(&mut m, None);
            }
            m
        }
        None if cx.target.caps.all_of => {
            *node = restore_node(base, all, lifted_base, lifted);
            return Ok(());
        }
        // Strict mode cannot write the conjunction, and neither dropping `allOf`
        // (strip-unsupported would) nor overlaying it may widen a strict schema:
        // the call fails open to the relaxed target, which keeps or overlays it
        // and says so. Only the sanitize stage, which never fails open, overlays.
        None if cx.target.on_violation == OnViolation::FailOpen && cx.opts.strict_stage == crate::options::StrictStage::Full => {
            *node = restore_node(base, all, lifted_base, lifted);
            return Err(crate::error::Error::StrictUnrepresentable {
                pointer: cx.path.child("allOf"),
                message: "allOf entries that cannot be merged into one schema (conflicting types, patterns or unions) cannot be expressed in strict mode".into(),
            });
        }
        None => {
            // The first entry wins a conflict: for zod's `pipe` (`allOf: [in, out]`)
            // that is the input the tool receives.
            cx.lossy("all-of-overlaid", "allOf entries conflict; they were overlaid (the first entry wins a conflict)");
            let mut m = written;
            for e in entries.iter().rev() {
                for (k, v) in e {
                    m.insert(k.clone(), v.clone());
                }
            }
            // Overlaid members are taken as written, like the rest of the sides.
            lifted_base.restore(&mut m, Some(cx));
            for l in lifted {
                l.restore(&mut m, Some(cx));
            }
            m
        }
    };
    *node = merged;
    join_descriptions(node, std::iter::once(&base).chain(&entries));
    // (Sides that conjoined hold one pattern, so only an overlay has others.)
    spill_other_patterns(node, std::iter::once(&base).chain(&entries), cx);
    cx.count("allofMerges");
    // Merging can create shapes (a fresh anyOf, a const) earlier rules handle.
    if node.has(kw::ALL_OF) {
        return Ok(());
    }
    if exact {
        // Members that more than one side declares are merged by `conjoin` into
        // new subschemas, which need the rules again (Gemini's propertyOrdering);
        // the members moved back are the normalized ones.
        shared.rerun(node, cx, &mut |v, cx| match v {
            Value::Object(m) => apply(m, cx),
            _ => Ok(()),
        })?;
    }
    apply(node, cx)
}

/// Patterns of an overlaid `allOf` other than the one kept: every one of them
/// holds for the value, but a node has one `pattern` (and a regex for their
/// conjunction needs lookaheads, which no target's subset has). Where the
/// target spills, each goes into the description as a spilled pattern does.
fn spill_other_patterns<'m>(merged: &mut Map, sides: impl Iterator<Item = &'m Map>, cx: &mut Cx) {
    if !super::spill::spills(cx) {
        return;
    }
    let Some(kept) = merged.field(kw::PATTERN).and_then(Value::as_str).map(str::to_owned) else { return };
    let mut others: Vec<&str> = Vec::new();
    let mut seen = crate::hash::HashSet::default();
    for p in sides.filter_map(|side| side.field(kw::PATTERN).and_then(Value::as_str)) {
        if p != kept && seen.insert(p) {
            others.push(p);
        }
    }
    if others.is_empty() {
        return;
    }
    let written: Vec<String> = others.iter().map(|p| format!("{p:?}")).collect();
    cx.lossy(
        "keyword-spilled",
        format!("allOf patterns {} cannot stand beside pattern {:?} on one node; moved into description", written.join(", "), kept),
    );
    for p in others {
        let text = super::spill::render(&[("pattern".into(), Value::String(p.to_string()))], cx.opts.spill);
        super::append_description(merged, &text, super::spill::separator(cx));
    }
}

/// Every side's description in the merge of an `allOf`, each once, in order:
/// the merge keeps one side's annotations, and a description another side
/// held would be lost with them, with what the target had spilled into it
/// (the branches' rules run first: a `maxLength` a strict target cannot
/// keep was reported moved into the description the merge then dropped).
/// A description another contains is not repeated, among the first
/// `crate::values::SCAN_UP_TO`; past them only an equal one is (an allOf of
/// thousands of described sides stays linear).
fn join_descriptions<'m>(merged: &mut Map, sides: impl Iterator<Item = &'m Map>) {
    let mut texts: Vec<&str> = Vec::new();
    let mut seen = crate::hash::HashSet::default();
    for d in sides.filter_map(|side| side.field(kw::DESCRIPTION).and_then(Value::as_str)) {
        if d.is_empty() || !seen.insert(d) {
            continue;
        }
        if texts.len() <= crate::values::SCAN_UP_TO {
            if texts.iter().any(|t| t.contains(d)) {
                continue;
            }
            texts.retain(|t| !d.contains(t));
        }
        texts.push(d);
    }
    if texts.len() > 1 {
        merged.insert(kw::DESCRIPTION.into(), Value::String(texts.join("\n\n")));
    }
}

/// Null branches of an `anyOf`: Gemini says "nullable" with its marker (google-genai
/// `handle_null_fields`); Cloud Code Assist cannot say it at all, so the property
/// becomes optional (contract §3.4). A lone remaining branch is inlined.
pub fn null_unions(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(Value::Array(branches)) = node.field_mut(kw::ANY_OF) else { return Ok(()) };
    if !branches.iter().any(is_null_schema) {
        return Ok(());
    }
    // Moved, not copied: every case below replaces or removes the union.
    let rest: Vec<Value> = std::mem::take(branches).into_iter().filter(|b| !is_null_schema(b)).collect();
    // Beside a `type` without null the null branches add nothing (the node
    // rejects null whatever its union says), so the node does not become nullable.
    let types = super::types_of(node);
    let admits_null = types.is_empty() || types.has("null") || node.field(kw::NULLABLE) == Some(&Value::Bool(true));
    cx.count("nullUnionRewrites");
    match rest.len() {
        0 => {
            node.remove_field(kw::ANY_OF);
            node.insert(kw::TYPE.into(), json!("string"));
            cx.lossy("null-type-widened", "a null-only union became a string");
        }
        1 => {
            node.remove_field(kw::ANY_OF);
            let mut only = rest.into_iter().next().unwrap_or(Value::Null);
            if let Value::Object(b) = &mut only {
                // Only a conflict is asked for: the branch's members the node
                // does not declare are set aside, or the conjunction would copy
                // them, at every level of a chain of nullable objects.
                let shared = SharedMembers::of(&[&*node, &*b]);
                let lifted = shared.lift(b);
                let conflict = conjoin(node, b).is_none();
                lifted.restore(b, None);
                if conflict {
                    cx.lossy(
                        "union-collapsed",
                        "the one non-null branch contradicts its node (nothing satisfied both); the node's own keywords were kept",
                    );
                }
            }
            inline_branch(node, only);
            if !admits_null {
                node.remove_field(kw::NULLABLE);
            }
        }
        // Replaced in place: the union keeps its position among the keys.
        _ => {
            node.insert(kw::ANY_OF.into(), Value::Array(rest));
        }
    }
    if !admits_null {
        return Ok(());
    }
    if cx.target.caps.nullable_marker {
        node.insert(kw::NULLABLE.into(), Value::Bool(true));
    } else {
        cx.mark_null_dropped();
        cx.count("nullableToOptional");
    }
    Ok(())
}

/// Merges a lone branch into its node; the node's own annotations win.
fn inline_branch(node: &mut Map, branch: Value) {
    let Value::Object(b) = branch else { return };
    for (k, v) in b {
        if is_annotation(&k) && node.has(&k) {
            continue;
        }
        if !node.has(&k) {
            node.insert(k, v);
        }
    }
}

/// A "pure" union: only `anyOf` and annotations.
fn is_pure_union(v: &Value) -> bool {
    v.as_object().is_some_and(is_pure_union_object)
}

fn is_pure_union_object(m: &Map) -> bool {
    m.has(kw::ANY_OF) && m.keys().all(|k| k == "anyOf" || is_annotation(k))
}

/// Nested pure unions are spliced into the parent (`(A ∨ B) ∨ C` → `A ∨ B ∨ C`),
/// an empty `anyOf` is removed, and a single-branch `anyOf` is inlined. Strict
/// output must not nest pure unions: OpenRouter's DeepSeek validator rejects
/// branches without `type` (contract §1.3).
pub fn splice_unions(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(Value::Array(branches)) = node.field_mut(kw::ANY_OF) else { return Ok(()) };
    if branches.iter().any(is_pure_union) {
        // The branches move into the spliced list, which takes the union's
        // place: copied, a union nested n deep was copied n times.
        let mut flat = Vec::with_capacity(branches.len());
        let mut hoisted = None;
        for b in std::mem::take(branches) {
            match b {
                Value::Object(mut m) if is_pure_union_object(&m) => {
                    if let Some(Value::String(d)) = m.field(kw::DESCRIPTION) {
                        hoisted.get_or_insert_with(|| d.clone());
                    }
                    if let Some(Value::Array(inner)) = m.remove_field(kw::ANY_OF) {
                        flat.extend(inner);
                    }
                    cx.count("unionsSpliced");
                }
                b => flat.push(b),
            }
        }
        *branches = flat;
        if let (Some(d), false) = (hoisted, node.has(kw::DESCRIPTION)) {
            node.insert(kw::DESCRIPTION.into(), Value::String(d));
        }
    }
    let Some(Value::Array(branches)) = node.field(kw::ANY_OF) else { return Ok(()) };
    match branches.len() {
        // Every branch was ruled out (a sibling `enum` no branch admits, as
        // `distribute_siblings` finds): the node accepts nothing, which
        // dropping the union would turn into accepting everything.
        0 => {
            node.remove_field(kw::ANY_OF);
            node.insert(kw::NOT.into(), json!({}));
            cx.count("emptyUnionDrops");
        }
        1 => {
            let Some(Value::Array(mut branches)) = node.remove_field(kw::ANY_OF) else { return Ok(()) };
            let only = branches.pop().unwrap_or_default();
            match only.as_object().map(|b| conjoin(node, b)) {
                Some(Some(both)) => *node = both,
                Some(None) => {
                    cx.lossy(
                        "union-collapsed",
                        "a one-branch anyOf contradicts its node (nothing satisfied both); the node's own keywords were kept",
                    );
                    inline_branch(node, only);
                }
                None => inline_branch(node, only),
            }
            cx.count("singleUnionsInlined");
        }
        _ => {}
    }
    Ok(())
}

/// Cloud Code Assist accepts no combinator at all (contract §3.3, §3.5): object
/// branches are united into one object, same-type branches collapse to the
/// broadest, and mixed types keep the first non-null branch. All reported lossy.
pub fn collapse_unions(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !matches!(node.field(kw::ANY_OF), Some(Value::Array(_))) {
        return Ok(());
    }
    let Some(Value::Array(branches)) = node.remove_field(kw::ANY_OF) else { return Ok(()) };
    let chosen = if !branches.is_empty() && branches.iter().all(is_object_like) {
        cx.lossy("union-merged", "object branches were merged into one object; properties not in every branch became optional");
        unite_objects(branches.into_iter().filter_map(Value::into_object).collect())
    } else {
        let objects: Vec<&Map> = branches.iter().filter_map(Value::as_object).collect();
        if let Some(t) = same_type(&objects) {
            collapse_same_type(&objects, &t, cx)
        } else {
            let first = branches.iter().position(|b| b.is_object() && is_typed(b)).or_else(|| branches.iter().position(Value::is_object));
            cx.lossy("union-collapsed", "branches of different types were reduced to the first one");
            first.and_then(|i| branches.into_iter().nth(i)).and_then(Value::into_object).unwrap_or_default()
        }
    };
    overlay_branch(node, chosen);
    cx.count("unionCollapses");
    apply(node, cx)
}

fn same_type(branches: &[&Map]) -> Option<String> {
    let first = single_type(branches.first()?)?.to_string();
    branches.iter().all(|b| single_type(b) == Some(first.as_str())).then_some(first)
}

fn collapse_same_type(branches: &[&Map], t: &str, cx: &mut Cx) -> Map {
    if branches.iter().all(|b| b.has(kw::ENUM)) {
        let mut values = Vec::new();
        for b in branches {
            for v in b.field(kw::ENUM).and_then(Value::as_array).into_iter().flatten() {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
        }
        let mut out = Map::new();
        out.insert(kw::TYPE.into(), Value::String(t.into()));
        out.insert(kw::ENUM.into(), Value::Array(values));
        cx.count("enumUnionsMerged");
        return out;
    }
    cx.lossy_with("union-collapsed", || format!("{t} branches were reduced to the least constrained one"));
    let broadest = branches.iter().min_by_key(|b| b.keys().filter(|k| !is_annotation(k)).count()).copied();
    broadest.cloned().unwrap_or_default()
}

/// Sibling keywords beside an `anyOf` are distributed into every branch
/// (`(A ∨ B) ∧ C` → `(A ∧ C) ∨ (B ∧ C)`), so each branch carries its own `type`.
/// OpenAI strict rejects branches without one (F31 `schema must have a 'type'
/// key`), as do Moonshot (F30) and llama.cpp (seed 001). Exact: a branch the
/// siblings cannot be conjoined with leaves the node as it was.
pub fn distribute_siblings(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if cx.path.is_empty() && cx.target.caps.root_object {
        // A root union is merged into the root object by `shapes::root_object`.
        return Ok(());
    }
    let Some(Value::Array(branches)) = node.field(kw::ANY_OF) else { return Ok(()) };
    // Only assertions are distributed; annotations and unknown keys (OpenAPI's
    // `discriminator`, `x-*`) stay on the union.
    let assertion = |k: &Key| {
        k != "anyOf"
            && matches!(
                crate::keywords::get(k).map(|kw| kw.kind),
                Some(crate::keywords::Kind::Validation | crate::keywords::Kind::Applicator)
            )
    };
    if !node.keys().any(&assertion) {
        return Ok(());
    }
    if crate::values::is_never_object(node) {
        // A never-schema beside the union (`not: {}`, `enum: []`) makes every
        // branch one: the union and its assertions constrain nothing. Moved
        // into the branches, it would leave a union of never-schemas that only
        // a second run prunes.
        node.retain(|k, _| k != "anyOf" && !assertion(k));
        node.insert(kw::NOT.into(), json!({}));
        cx.count("emptyUnionDrops");
        return Ok(());
    }
    // Each branch gets a copy: nested, that doubles per level, so past the
    // budget the union gives way to what all its branches require (lossy).
    let copies = branches.len().saturating_sub(1);
    let Some(cost) = super::lone_any_of::distribution_cost(node.iter().filter(|(k, _)| assertion(k)).map(|(_, v)| v), copies, cx) else {
        return super::lone_any_of::collapse_union(node, cx);
    };
    let siblings: Map = node.iter().filter(|(k, _)| assertion(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
    let mut out = Vec::with_capacity(branches.len());
    for b in branches {
        let Value::Object(b) = b else { return Ok(()) };
        let Some(mut merged) = conjoin(&as_written(b, cx), &siblings) else { return Ok(()) };
        if let Some(Value::Array(values)) = merged.field_mut(kw::ENUM) {
            // The siblings' enum narrows to the values this branch's type admits.
            if let Some(t) = b.field(kw::TYPE).and_then(Value::as_str) {
                values.retain(|v| crate::values::value_has_type(v, t));
                if values.is_empty() {
                    continue;
                }
            }
        }
        apply(&mut merged, cx)?;
        out.push(Value::Object(merged));
    }
    node.retain(|k, _| !assertion(k));
    node.insert(kw::ANY_OF.into(), Value::Array(out));
    cx.distributed += cost;
    cx.count("anyofRewrites");
    splice_unions(node, cx)
}

/// Every `anyOf` branch states its own `type` (Moonshot F30: "when using anyOf,
/// type should be defined in anyOf items instead of the parent"; OpenRouter
/// upstreams, F31). A branch's type is inferred from its keywords; a branch
/// with nothing to infer from accepts anything and is spelled as one branch
/// per JSON type, which accepts exactly the same values.
pub fn type_branches(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(Value::Array(branches)) = node.field_mut(kw::ANY_OF) else { return Ok(()) };
    let mut out = Vec::with_capacity(branches.len());
    let mut changed = false;
    for b in branches.drain(..) {
        let Value::Object(mut m) = b else {
            out.push(b);
            continue;
        };
        if m.has(kw::TYPE) || m.has(kw::REF) {
            out.push(Value::Object(m));
            continue;
        }
        changed = true;
        // A union whose other keys validate nothing (annotations, `x-` keys;
        // its assertions were distributed into it) is its branches, already
        // typed: spliced, not copied once per type around a nested union.
        let validates = |k: &Key| {
            k != "anyOf"
                && matches!(
                    crate::keywords::get(k).map(|kw| kw.kind),
                    Some(crate::keywords::Kind::Validation | crate::keywords::Kind::Applicator)
                )
        };
        if let Some(Value::Array(inner)) = m.field(kw::ANY_OF) {
            if !inner.is_empty() && inner.iter().all(is_typed) && !m.keys().any(validates) {
                out.extend(inner.iter().cloned());
                continue;
            }
        }
        // An enum of values of several types (`[null, "a"]`) is one branch per
        // type: typed as one of them (`implied` says string), the others would
        // no longer be accepted, which under `not` accepts them instead.
        if let Some(Value::Array(values)) = m.field(kw::ENUM) {
            let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
            for v in values {
                let t = crate::values::common_type(std::slice::from_ref(v)).unwrap_or("string");
                match groups.iter_mut().find(|(g, _)| *g == t) {
                    Some((_, vs)) => vs.push(v.clone()),
                    None => groups.push((t, vec![v.clone()])),
                }
            }
            if groups.len() > 1 || groups.first().is_some_and(|(t, _)| *t == "null") {
                for (t, vs) in groups {
                    let mut each = m.clone();
                    each.insert(kw::TYPE.into(), Value::String(t.into()));
                    each.insert(kw::ENUM.into(), Value::Array(vs));
                    apply(&mut each, cx)?;
                    out.push(Value::Object(each));
                }
                continue;
            }
        }
        if let Some(t) = super::types::implied(&m) {
            if !super::types::implied_exactly(&m) && cx.under_exclusion() {
                cx.lossy(
                    "branch-typed-under-exclusion",
                    format!("a branch without a type was given its implied type {t}; inside oneOf or not, accepting less can make the whole accept more"),
                );
            }
            m.insert(kw::TYPE.into(), Value::String(t.into()));
            // Typed now, the branch needs what its type needs (items, properties).
            apply(&mut m, cx)?;
            out.push(Value::Object(m));
            continue;
        }
        for t in ["string", "number", "boolean", "object", "array", "null"] {
            let mut each = m.clone();
            each.insert(kw::TYPE.into(), Value::String(t.into()));
            match t {
                "array" => {
                    each.insert(kw::ITEMS.into(), json!({}));
                }
                "object" => {
                    each.insert(kw::PROPERTIES.into(), json!({}));
                }
                _ => {}
            }
            out.push(Value::Object(each));
        }
    }
    if changed {
        cx.count("branchesTyped");
    }
    let unique = crate::values::distinct(out);
    let single = unique.len() == 1;
    node.insert(kw::ANY_OF.into(), Value::Array(unique));
    // Branches that came out equal leave a one-branch union, which is inlined
    // (as the next run's splice would).
    if single {
        return splice_unions(node, cx);
    }
    Ok(())
}

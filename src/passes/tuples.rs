//! Tuples (`prefixItems`) on targets that have none: Gemini's `Schema` proto
//! (`Unknown name "prefixItems"`: googleapis/python-genai#69), Cloud Code
//! Assist, llama.cpp (tuples broken: providers.md footnote d), Ollama's struct,
//! Moonshot, and OpenAI strict, which ignores the keyword and then rejects the
//! array as untyped (`array schema missing items`: pydantic/pydantic-ai#7315,
//! #7333; the JS SDK's strict transform lists it as unsupported).
//!
//! Such a target reads `items` as the schema of every element. Left as it
//! stands, the tuple's `items` (in 2020-12 the elements after the positions)
//! would then contradict a position: `prefixItems: [string, integer]` with
//! `items: boolean` sent as `items: boolean` forbids the integer. So `items`
//! becomes what the target can say: the one schema of a homogeneous tuple
//! (exact, with `maxItems` pinning a closed tuple's length), else any of the
//! position and rest schemas (lossy `tuple-widened`). Strict targets take only
//! the exact form: any other tuple makes the call fail open. `prefixItems`
//! itself is left for `strip-unsupported`, which reports its removal.
//!
//! Lose less: where the target encodes open maps (`facts::encodes_maps`:
//! the strict targets, Google, Cloud Code Assist), a tuple whose positions
//! differ and are all required (Pydantic's `tuple[int, str]`, Zod's and
//! TypeBox's tuples) is instead sent as an object of its positions
//! (`passes::entries`), exact, which `restoreArguments` turns back into the
//! array: strict goes out strict, Gemini keeps each position's type.
//! `tuples: "keep"` gives the behaviour above.
use super::entries::{NOTE_SEPARATOR, REST, TUPLE_NOTE, TUPLE_REST_NOTE};
use super::facts::encodes_maps;
use super::{append_description, apply, is_never};
use crate::keywords::is_annotation;
use crate::options::Tuples;
use crate::error::{Error, Result};
use crate::lookup::Fields;
use crate::profile::OnViolation;
use crate::context::Cx;
use crate::json;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// Rewrites a tuple's `items` for a target without `prefixItems`; says
/// whether `node` was such a tuple.
pub fn to_items(node: &mut Map, cx: &mut Cx) -> Result<bool> {
    let caps = cx.target.caps;
    if caps.keeps(kw::PREFIX_ITEMS) {
        return Ok(false);
    }
    let members = match node.field(kw::PREFIX_ITEMS) {
        Some(Value::Array(members)) if !members.is_empty() => members.clone(),
        _ => return Ok(false),
    };
    let n = members.len();
    let max_items = node.field(kw::MAX_ITEMS).and_then(Value::as_u64);
    // The elements after the positions: `None` when there can be none.
    let rest = match node.field(kw::ITEMS) {
        _ if max_items.is_some_and(|m| m <= n as u64) => None,
        Some(s) if is_never(s) || *s == Value::Bool(false) => None,
        Some(s) => Some(s.clone()),
        None => Some(json!({})),
    };
    let closed = rest.is_none();
    // `maxItems` says a closed tuple's length where the target keeps it (and
    // strict mode's constraint stripping, which ran before, would not remove it).
    let strips_bounds = cx.opts.strip_strict_constraints && cx.rules.iter().any(|p| p.name == "strip-constraints");
    let pin_length = closed && max_items.map_or(true, |m| m > n as u64);
    let can_pin = cx.keeps(kw::MAX_ITEMS) && !strips_bounds;
    let homogeneous = members.iter().all(|m| *m == members[0]) && rest.as_ref().map_or(true, |r| *r == members[0]);
    let exact = homogeneous && (!pin_length || can_pin);
    if !exact && encodes_tuples(cx) && fits_as_object(node, n) {
        as_object(node, members, rest, cx)?;
        return Ok(true);
    }
    if !exact && cx.target.on_violation == OnViolation::FailOpen {
        return Err(Error::StrictUnrepresentable {
            pointer: cx.path.child("prefixItems"),
            message: format!(
                "a tuple (prefixItems) whose positions differ cannot be expressed in {} without widening it",
                cx.target.id
            ),
        });
    }
    let mut schemas: Vec<Value> = Vec::with_capacity(n + 1);
    // An open rest (`{}`, or no `items`) is left out: any of the position
    // schemas describes the elements better than anything at all, and typed
    // targets have no "anything".
    let rest = rest.filter(|r| r.as_object().is_some_and(|m| !m.is_empty()));
    let with_rest = rest.is_some();
    for s in members.into_iter().chain(rest) {
        if !schemas.contains(&s) {
            schemas.push(s);
        }
    }
    if exact {
        // Said exactly by `items` (and `maxItems`): nothing to report.
        node.remove_field(kw::PREFIX_ITEMS);
    }
    let built = schemas.len() > 1;
    let mut items = if built { json!({ "anyOf": schemas }) } else { schemas.remove(0) };
    cx.enter("items")?;
    if !exact {
        cx.lossy(
            "tuple-widened",
            if with_rest {
                "prefixItems (a tuple) and its items became items: any of those schemas, in any position"
            } else {
                "prefixItems (a tuple) became items: any of its member schemas, in any position"
            },
        );
    }
    if built {
        if let Value::Object(m) = &mut items {
            apply(m, cx)?;
        }
    }
    cx.leave();
    node.insert(kw::ITEMS.into(), items);
    if pin_length && can_pin {
        node.insert(kw::MAX_ITEMS.into(), json!(n));
    }
    cx.count("tuplesToItems");
    Ok(true)
}

/// Does this call send tuples as objects? Where it sends open maps as
/// entries (the same targets and stages), unless `tuples: "keep"`.
fn encodes_tuples(cx: &Cx) -> bool {
    cx.opts.tuples == Tuples::Objects && encodes_maps(cx)
}

/// The keys a tuple sent as an object may hold besides annotations: what
/// the object says again (`type`, the positions, the rest and the bounds)
/// and `nullable`, which it keeps.
const TUPLE_KEYS: &[&str] = &["type", "prefixItems", "items", "minItems", "maxItems", "nullable"];

/// Can the tuple `node` of `n` positions go out as an object of them? Every
/// position is required (`minItems` at least their number) and the node says
/// nothing else of arrays.
fn fits_as_object(node: &Map, n: usize) -> bool {
    let typed = match node.field(kw::TYPE) {
        None => true,
        Some(t) => t.as_str() == Some("array"),
    };
    typed
        && node.field(kw::MIN_ITEMS).and_then(Value::as_u64).unwrap_or(0) >= n as u64
        && node.keys().all(|k| TUPLE_KEYS.contains(&k.as_str()) || is_annotation(k))
}

/// Rewrites the tuple `node` (`fits_as_object`; positions `members`, items
/// after them `rest`, `None` when there can be none) as an object of its
/// positions, the position schemas moved into it.
fn as_object(node: &mut Map, members: Vec<Value>, rest: Option<Value>, cx: &mut Cx) -> Result<()> {
    let positions_count = members.len();
    let n = positions_count as u64;
    let min_items = node.field(kw::MIN_ITEMS).and_then(Value::as_u64).unwrap_or(0);
    let max_items = node.field(kw::MAX_ITEMS).and_then(Value::as_u64);
    let with_rest = rest.is_some();
    let mut props = Map::with_capacity(positions_count + 1);
    let mut required: Vec<Value> = Vec::with_capacity(positions_count + 1);
    for (i, m) in members.into_iter().enumerate() {
        props.insert(i.to_string().into(), m);
        required.push(Value::String(i.to_string()));
    }
    if let Some(mut items) = rest {
        cx.enter("properties")?;
        cx.enter(REST)?;
        // The rest as the list's items: normalized where it stood, unless the
        // tuple had no `items` and it is the `{}` that stands for any item.
        if let Value::Object(m) = &mut items {
            cx.enter("items")?;
            apply(m, cx)?;
            cx.leave();
        }
        let mut list = Map::with_capacity(4);
        list.insert(kw::TYPE.into(), json!("array"));
        list.insert(kw::ITEMS.into(), items);
        if min_items > n {
            list.insert(kw::MIN_ITEMS.into(), json!(min_items - n));
            required.push(Value::String(REST.to_string()));
        }
        if let Some(max) = max_items {
            list.insert(kw::MAX_ITEMS.into(), json!(max.saturating_sub(n)));
        }
        apply(&mut list, cx)?;
        cx.leave();
        cx.leave();
        props.insert(REST.into(), Value::Object(list));
    }
    let old = std::mem::take(node);
    if !old.has(kw::TYPE) {
        node.insert(kw::TYPE.into(), json!("object"));
    }
    for (k, v) in old {
        match k.as_str() {
            "type" => drop(node.insert(k, json!("object"))),
            "prefixItems" => {
                node.insert(kw::PROPERTIES.into(), Value::Object(std::mem::take(&mut props)));
                node.insert(kw::REQUIRED.into(), Value::Array(std::mem::take(&mut required)));
            }
            "items" | "minItems" | "maxItems" => {}
            "default" => drop(node.insert(k, positions(v, positions_count, with_rest))),
            "examples" => {
                let v = match v {
                    Value::Array(xs) => Value::Array(xs.into_iter().map(|x| positions(x, positions_count, with_rest)).collect()),
                    other => other,
                };
                node.insert(k, v);
            }
            _ => drop(node.insert(k, v)),
        }
    }
    if cx.keeps(kw::ADDITIONAL_PROPERTIES) {
        node.insert(kw::ADDITIONAL_PROPERTIES.into(), Value::Bool(false));
    }
    append_description(node, if with_rest { TUPLE_REST_NOTE } else { TUPLE_NOTE }, NOTE_SEPARATOR);
    cx.count("tuplesAsObjects");
    cx.note("tuple-as-object", || {
        "a tuple (prefixItems) is sent as an object of its positions \"0\", \"1\", ...; restoreArguments turns it back into the array".into()
    });
    Ok(())
}

/// An array value (a `default` or an example) as the object its tuple is sent
/// as; anything else as it is.
fn positions(v: Value, n: usize, rest: bool) -> Value {
    let Value::Array(items) = v else { return v };
    let mut out = Map::with_capacity(n + 1);
    let mut items = items.into_iter();
    for (i, item) in items.by_ref().take(n).enumerate() {
        out.insert(i.to_string().into(), item);
    }
    let after: Vec<Value> = items.collect();
    if rest && !after.is_empty() {
        out.insert(REST.into(), Value::Array(after));
    }
    Value::Object(out)
}

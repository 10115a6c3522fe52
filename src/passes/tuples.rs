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
use super::{apply, is_never};
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
    node.insert("items".into(), items);
    if pin_length && can_pin {
        node.insert("maxItems".into(), json!(n));
    }
    cx.count("tuplesToItems");
    Ok(true)
}

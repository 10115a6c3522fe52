//! Exclusive numeric bounds written as inclusive ones where that is exact.
//! Gemini's `Schema` (google, and its OpenAI-compatible endpoint) has no
//! `exclusiveMinimum`/`exclusiveMaximum` field ("Unknown name", refused:
//! pontus-espe/agent-sdk-go#23) but takes `minimum`/`maximum`. For integers `x > n` is
//! `x >= floor(n) + 1` and `x < n` is `x <= ceil(n) - 1`; a number has no next
//! value, so there the bound stays for `strip-unsupported` to spill and report.
use super::types_of;
use crate::error::Result;
use crate::lookup::Fields;
use crate::context::Cx;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// Largest integer an `f64` holds exactly (2^53): past it `floor(n) + 1` may
/// round back to `n`.
const EXACT_F64: f64 = 9_007_199_254_740_992.0;

pub fn exclusive_to_inclusive(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !node.has(kw::EXCLUSIVE_MINIMUM) && !node.has(kw::EXCLUSIVE_MAXIMUM) {
        return Ok(());
    }
    // Bounds constrain numbers only, so a null the node also admits is unaffected.
    let types = types_of(node);
    if !types.has("integer") || types.iter().any(|t| *t != "integer" && *t != "null") {
        return Ok(());
    }
    let pairs = [("exclusiveMinimum", "minimum", true), ("exclusiveMaximum", "maximum", false)];
    for (exclusive, inclusive, lower) in pairs {
        // Only where the inclusive bound goes out (not on google with
        // `googleConstraints: "spill"`, which spills the exclusive one as written).
        if !cx.keeps(inclusive) {
            continue;
        }
        let Some(bound) = node.field(exclusive).and_then(|n| next_integer(n, lower)) else { continue };
        // The tighter of the two inclusive bounds holds.
        let tighter = |m: f64| if lower { m >= bound as f64 } else { m <= bound as f64 };
        let kept = node.field(inclusive).and_then(Value::as_f64).is_some_and(tighter);
        if !kept {
            node.insert(inclusive.into(), Value::from(bound));
        }
        node.remove_field(exclusive);
        cx.count("exclusiveBoundsRewritten");
    }
    Ok(())
}

/// The least integer above `n` (`lower`) or the greatest below it, when exact.
fn next_integer(n: &Value, lower: bool) -> Option<i64> {
    if let Some(i) = n.as_i64() {
        return if lower { i.checked_add(1) } else { i.checked_sub(1) };
    }
    let f = n.as_f64()?;
    if !f.is_finite() || f.abs() >= EXACT_F64 {
        return None;
    }
    Some(if lower { f.floor() as i64 + 1 } else { f.ceil() as i64 - 1 })
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
        exclusive_to_inclusive(&mut m, &mut cx).unwrap();
        Value::Object(m)
    }

    #[test]
    fn integer_bounds_become_inclusive_exactly() {
        assert_eq!(run(json!({"type": "integer", "exclusiveMinimum": 0})), json!({"type": "integer", "minimum": 1}));
        assert_eq!(run(json!({"type": "integer", "exclusiveMaximum": 10})), json!({"type": "integer", "maximum": 9}));
        assert_eq!(run(json!({"type": "integer", "exclusiveMinimum": 2.5})), json!({"type": "integer", "minimum": 3}));
        assert_eq!(run(json!({"type": "integer", "exclusiveMaximum": -2.5})), json!({"type": "integer", "maximum": -3}));
        assert_eq!(
            run(json!({"type": ["integer", "null"], "exclusiveMinimum": 0})),
            json!({"type": ["integer", "null"], "minimum": 1})
        );
    }

    #[test]
    fn the_tighter_inclusive_bound_stays() {
        let tighter = json!({"type": "integer", "minimum": 5, "exclusiveMinimum": 0});
        assert_eq!(run(tighter), json!({"type": "integer", "minimum": 5}));
        let looser = json!({"type": "integer", "minimum": 0, "exclusiveMinimum": 0});
        assert_eq!(run(looser), json!({"type": "integer", "minimum": 1}));
    }

    #[test]
    fn numbers_and_inexact_bounds_are_left_alone() {
        for s in [
            json!({"type": "number", "exclusiveMinimum": 0}),
            json!({"exclusiveMinimum": 0}),
            json!({"type": ["integer", "string"], "exclusiveMinimum": 0}),
            json!({"type": "integer", "exclusiveMinimum": 1e300}),
            json!({"type": "integer", "exclusiveMaximum": i64::MIN}),
        ] {
            assert_eq!(run(s.clone()), s);
        }
    }
}

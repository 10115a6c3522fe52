//! `api::normalize_json` for every target and option mix. Beyond "never
//! panics, never hangs" (libFuzzer's -timeout), each result must be:
//! - an envelope: `{"ok"}`, or `{"error"}` with a documented code;
//! - deterministic: the same call gives the same bytes;
//! - accepted: the schema passes its target's checker (OpenAI/Anthropic strict
//!   with `strict: false`: the relaxed target's checker; Cloud Code Assist: the
//!   reported per-tool fallback passes by construction). A `residual-violation`
//!   is a finding: the target's rules did not reach what its checker demands;
//! - bounded: the output stays within a fixed factor of the input;
//! - idempotent: normalizing the output again gives the same schema.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolschema::{api, check, targets};

fuzz_target!(init: common::catch_stack_overflow(), |data: &[u8]| {
    let Some(call) = common::decode(data) else { return };
    let target = call.target;
    let opts = call.options.to_string();
    let what = format!("{} {}", target.id, opts);

    let out = api::normalize_json(call.text, target.id, &opts);
    assert_eq!(out, api::normalize_json(call.text, target.id, &opts), "{what}: not deterministic");
    let Ok(ok) = common::envelope(&out, &what) else { return };

    // Ref inlining is bounded by sizeBudget nodes and spilling by the input's
    // own text, so the output cannot grow without bound.
    assert!(out.len() <= 4_000_000 + 64 * call.text.len(), "{what}: {} output bytes from {} input bytes", out.len(), call.text.len());

    let schema = &ok["schema"];
    let strict = ok.get("strict").and_then(Value::as_bool);
    let sanitize_only = call.options.get("strictStage").is_some();
    let diagnostics = ok["report"]["diagnostics"].as_array().expect("report.diagnostics");
    if let Some(d) = diagnostics.iter().find(|d| d["code"] == "residual-violation") {
        panic!("{what}: the output fails its checker: {}\n  output: {schema:.2000}", d["message"]);
    }
    if !(sanitize_only && target.on_violation == targets::OnViolation::FailOpen) {
        let judge = match (strict, target.relaxed) {
            (Some(false), Some(relaxed)) => targets::get(relaxed).expect("relaxed target"),
            _ => target,
        };
        let violations = check(&toolschema::Value::from(schema), judge);
        assert!(violations.is_empty(), "{what}: {} rejects the output: {violations:?}\n  output: {schema:.2000}", judge.id);
        if target.on_violation == targets::OnViolation::FailOpen && strict == Some(false) {
            assert!(ok.get("strictError").is_some(), "{what}: strict false without strictError");
        }
    }

    let text = schema.to_string();
    let again = api::normalize_json(&text, target.id, &opts);
    match common::envelope(&again, &what) {
        Ok(second) => {
            assert_eq!(second["schema"], *schema, "{what}: not idempotent\n  once:  {text:.2000}\n  twice: {:.2000}", second["schema"]);
            if strict == Some(true) {
                assert_eq!(second.get("strict").and_then(Value::as_bool), Some(true), "{what}: strict once, not twice");
            }
        }
        // Rewrites may add a level or two (a root wrapped as `value`, a
        // nullable wrapper); past maxDepth the second run refuses, as documented.
        Err(code) if code == "too-deep" => {}
        Err(code) => panic!("{what}: the output does not normalize again: {code}\n  output: {text:.2000}"),
    }
});

//! The other JSON entry points the wasm boundary forwards to: the checker, tool
//! lists, WordPress ability compilation and lint, and routing. Each must answer
//! every input with an envelope (never a panic or a hang), deterministically,
//! and a normalized tool list must pass its target's checker tool by tool.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolschema::{api, check, targets};

const ABILITY_TARGETS: &[&str] = &["openai", "anthropic", "google", "default"];

fuzz_target!(init: common::catch_stack_overflow(), |data: &[u8]| {
    let Some(call) = common::decode(data) else { return };
    let target = call.target;
    let opts = call.options.to_string();
    // Header byte 2's top bits pick the entry point; byte 0 still picks the target.
    let run = |text: &str| -> (String, String) {
        match data[2] >> 6 {
            0 => (format!("check {}", target.id), api::check_json(text, target.id)),
            1 => {
                let mut o = call.options.clone();
                o["target"] = Value::String(target.id.into());
                (format!("tools {o}"), api::normalize_tools_json(text, &o.to_string()))
            }
            2 => {
                let t = ABILITY_TARGETS[data[0] as usize % ABILITY_TARGETS.len()];
                (format!("ability {t} {opts}"), api::compile_ability_json(text, t, &opts))
            }
            _ if data[0] & 1 == 0 => ("lint".into(), api::lint_json(text)),
            _ => ("route".into(), api::target_for_json(text)),
        }
    };
    let (what, out) = run(call.text);
    assert_eq!(out, run(call.text).1, "{what}: not deterministic");
    let Ok(ok) = common::envelope(&out, &what) else { return };
    match data[2] >> 6 {
        0 => assert!(ok.is_array(), "{what}: violations are a list: {ok}"),
        1 => {
            // Each tool's schema was normalized for the target (or replaced by the
            // empty-object schema, its error in telemetry): either way the
            // provider must accept it; a tool sent without strict is judged by
            // the relaxed target.
            for rep in ok["telemetry"]["tools"].as_array().expect("telemetry.tools") {
                let i = rep["index"].as_u64().expect("index") as usize;
                // Where the tool sits: Gemini's groups nest it below the list's array.
                let at = rep["pointer"].as_str().expect("pointer");
                let tool = ok["tools"].pointer(at).unwrap_or_else(|| panic!("{what}: no tool at {at} in {:.400}", ok["tools"]));
                let slot = ["/function/parameters", "/parameters", "/input_schema", "/inputSchema", "/parametersJsonSchema"]
                    .iter()
                    .find_map(|p| tool.pointer(p));
                // Every name sent is one the provider accepts.
                if let Some(rule) = target.caps.tool_names {
                    let holder = tool.get("function").filter(|f| f.is_object()).unwrap_or(tool);
                    if let Some(name) = holder.get("name").and_then(Value::as_str) {
                        assert!(rule.accepts(name), "{what}: tool {i} sent as {name:?}, which {} refuses", target.id);
                    }
                }
                let Some(schema) = slot else { continue };
                if rep["report"]["diagnostics"].as_array().is_some_and(|d| d.iter().any(|d| d["code"] == "residual-violation")) {
                    panic!("{what}: tool {i} fails its checker: {rep}");
                }
                if call.options.get("strictStage").is_some() {
                    continue;
                }
                let judge = match (rep["strict"].as_bool(), target.relaxed) {
                    (Some(false), Some(relaxed)) => targets::get(relaxed).expect("relaxed target"),
                    _ => target,
                };
                let violations = check(&toolschema::Value::from(schema), judge);
                assert!(violations.is_empty(), "{what}: tool {i} rejected by {}: {violations:?}\n  {schema:.2000}", judge.id);
            }
        }
        3 if data[0] & 1 == 1 => {
            let id = ok.as_str().unwrap_or_else(|| panic!("{what}: a target id: {ok}"));
            assert!(targets::get(id).is_some(), "{what}: routed to an unknown target {id:?}");
        }
        _ => {}
    }
});

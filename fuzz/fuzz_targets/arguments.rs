//! The round-trip entry points: restore, repair, validate and prepare, over a
//! fuzzed original schema and fuzzed arguments. After the header, the text is
//! `<schema>` SOH `<arguments>` (no SOH: the arguments are `{}`); header byte 0
//! picks the target, byte 1's low bit `emptyStrings`, byte 2's low bits the
//! entry point. Every input gets an envelope (never a panic or a hang),
//! deterministically, and the results keep their promises: prepared arguments
//! said to fit do fit, and preparing them again changes nothing.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use toolschema::api;

fuzz_target!(init: common::catch_stack_overflow(), |data: &[u8]| {
    let Some(call) = common::decode(data) else { return };
    let target = call.target.id;
    let (schema, args) = call.text.split_once('\u{1}').unwrap_or((call.text, "{}"));
    let opts = if data[1] & 1 == 1 { json!({"emptyStrings": true}) } else { json!({}) }.to_string();
    let run = || -> (String, String) {
        match data[2] & 0b11 {
            0 => (format!("restore {target} {opts}"), api::restore_arguments_json(args, schema, target, &opts)),
            1 => ("repair".into(), api::repair_arguments_json(args, schema, &opts)),
            2 => ("validate".into(), api::validate_arguments_json(args, schema, &opts)),
            _ => (format!("prepare {target} {opts}"), api::prepare_tool_call_json(args, schema, target, &opts)),
        }
    };
    let (what, out) = run();
    assert_eq!(out, run().1, "{what}: not deterministic");
    let Ok(ok) = common::envelope(&out, &what) else { return };
    match data[2] & 0b11 {
        2 => assert_eq!(ok["valid"], json!(ok["errors"].as_array().is_some_and(Vec::is_empty)), "{what}: valid disagrees with errors: {ok}"),
        3 => {
            assert_eq!(ok["ok"], json!(ok["errors"].as_array().is_some_and(Vec::is_empty)), "{what}: ok disagrees with errors: {ok}");
            if ok["ok"] == json!(true) {
                let prepared = ok["args"].to_string();
                let check: Value = serde_json::from_str(&api::validate_arguments_json(&prepared, schema, "")).unwrap();
                assert_eq!(check["ok"]["valid"], json!(true), "{what}: prepared arguments do not validate: {prepared} -> {check}");
                // The round trip is the identity on arguments that fit (emptyStrings aside).
                if data[1] & 1 == 0 {
                    let again: Value = serde_json::from_str(&api::prepare_tool_call_json(&prepared, schema, target, &opts)).unwrap();
                    assert_eq!(again["ok"]["args"].to_string(), prepared, "{what}: preparing fitting arguments changed them: {again}");
                    let changes = again["ok"]["report"]["diagnostics"].as_array().map_or(0, |d| d.iter().filter(|d| d["code"] != "pattern-unchecked").count());
                    assert_eq!(changes, 0, "{what}: preparing fitting arguments reported changes: {again}");
                }
            }
        }
        _ => assert!(ok.get("args").is_some() && ok["report"].is_object(), "{what}: {ok}"),
    }
});

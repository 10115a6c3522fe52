//! The core compiled to wasm32 and run by wasm-bindgen-test inside a JS engine:
//! Node here; tests/wasm_browser.rs runs these same cases in headless Chromium.
//!
//! The `#[wasm_bindgen]` exports (src/wasm.rs) sit in a private module, so an
//! integration test cannot name them. They only forward their arguments to
//! `toolschema::api` and return its JSON envelope unchanged, so the cases call
//! `api` directly: still a wasm32 build in a JS engine, with the small wasm
//! stack, the wasm allocator and the engine's own call-stack limit, which is
//! what native `cargo test` cannot show.
//!
//! Run: `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//! cargo test --target wasm32-unknown-unknown --test wasm_node` (`make test-wasm`).
#![cfg(target_arch = "wasm32")]

use toolschema::json;
use toolschema::doc::Value;
use toolschema::api;
use wasm_bindgen_test::wasm_bindgen_test;

/// The host this suite must run in. tests/wasm_browser.rs includes this file
/// as a module and defines its own at its crate root, leaving this one unused.
#[allow(dead_code)]
const HOST: &str = "node";

/// The targets with goldens in the fixture `invalid-keyword-values-repaired`.
/// Targets added later are still normalized, checked and normalized again by
/// `every_target_normalizes_checks_and_is_idempotent`; they get a golden
/// comparison once listed here and in that fixture's `targets`.
const GOLDEN_TARGETS: [&str; 6] = ["openai", "openai-strict", "openai-responses", "google", "cca", "mcp"];

macro_rules! fixture {
    ($name:literal, $($file:tt)+) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/", $name, "/", $($file)+))
    };
}

/// `(target, expected/<target>.json, report/<target>.json)` of `invalid-keyword-values-repaired`.
fn repaired_goldens() -> [(&'static str, &'static str, &'static str); 6] {
    macro_rules! per_target {
        ($($t:literal),*) => {
            [$(($t,
                fixture!("invalid-keyword-values-repaired", concat!("expected/", $t, ".json")),
                fixture!("invalid-keyword-values-repaired", concat!("report/", $t, ".json")))),*]
        };
    }
    per_target!("openai", "openai-strict", "openai-responses", "google", "cca", "mcp")
}

/// Parses without serde_json's 128-level recursion limit: the envelopes of the
/// deep cases nest further than that.
fn parse(text: &str) -> Value {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut de).unwrap_or_else(|e| panic!("{e}: {text:.200}"))
}

/// The `ok` payload of an envelope; panics with the error otherwise.
fn ok(envelope: &str) -> Value {
    let mut v = parse(envelope);
    match v.get_mut("ok") {
        Some(payload) => payload.take(),
        None => panic!("expected an ok envelope, got {envelope:.300}"),
    }
}

/// The `error` of an envelope, checked to carry exactly code, pointer and a message.
fn error(envelope: &str) -> Value {
    let v = parse(envelope);
    let e = v.get("error").unwrap_or_else(|| panic!("expected an error envelope, got {envelope:.300}"));
    let mut keys: Vec<&str> = e.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["code", "message", "pointer"], "{envelope}");
    assert!(!e["message"].as_str().unwrap().is_empty(), "{envelope}");
    e.clone()
}

/// What the fixture harness compares: `{schema, strict?}` and the lossy `[code, pointer]` pairs.
fn golden_view(payload: &Value) -> (Value, Value) {
    let mut golden = json!({"schema": payload["schema"]});
    if let Some(strict) = payload.get("strict") {
        golden["strict"] = strict.clone();
    }
    let lossy = payload["report"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["lossy"] == true)
        .map(|d| json!([d["code"], d["pointer"]]))
        .collect();
    (golden, Value::Array(lossy))
}

/// Every target id this build knows, from `targets_json` (the list JS sees).
fn targets() -> Vec<String> {
    let list = ok(&api::targets_json());
    let ids: Vec<String> = list.as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap().to_string()).collect();
    for id in GOLDEN_TARGETS {
        assert!(ids.iter().any(|t| t == id), "{id} is missing from targets_json: {list}");
    }
    ids
}

#[wasm_bindgen_test]
fn runs_in_the_host_the_suite_names() {
    let global = js_sys::global();
    let has = |name: &str| js_sys::Reflect::has(&global, &name.into()).unwrap();
    let host = if has("document") {
        "browser"
    } else if has("process") {
        "node"
    } else {
        "other"
    };
    assert_eq!(host, crate::HOST);
}

#[wasm_bindgen_test]
fn golden_targets_match_the_native_goldens() {
    let input = fixture!("invalid-keyword-values-repaired", "input.json");
    for (target, expected, report) in repaired_goldens() {
        let (golden, lossy) = golden_view(&ok(&api::normalize_json(input, target, "")));
        assert_eq!(golden, parse(expected), "{target}");
        assert_eq!(lossy, parse(report), "{target}");
    }
}

#[wasm_bindgen_test]
fn every_target_normalizes_checks_and_is_idempotent() {
    // What the fixture harness asks of every target: the output passes the
    // target's checker (OpenAI's when strict mode fell back) and a second
    // normalization changes nothing.
    let input = fixture!("invalid-keyword-values-repaired", "input.json");
    for target in targets() {
        let payload = ok(&api::normalize_json(input, &target, ""));
        let schema = payload["schema"].to_string();
        let judge = if payload["strict"] == false { "openai" } else { target.as_str() };
        assert_eq!(ok(&api::check_json(&schema, judge)), json!([]), "{target}: {schema}");
        assert_eq!(ok(&api::normalize_json(&schema, &target, ""))["schema"], payload["schema"], "{target}: not idempotent");
    }
}

#[wasm_bindgen_test]
fn tool_lists_normalize_each_schema_as_normalize_does() {
    let input = fixture!("invalid-keyword-values-repaired", "input.json");
    let list = format!(r#"{{"tools":[{{"name":"repair","inputSchema":{input}}}]}}"#);
    for target in targets() {
        let alone = ok(&api::normalize_json(input, &target, ""));
        let listed = ok(&api::normalize_tools_json(&list, &json!({"target": target}).to_string()));
        assert_eq!(listed["tools"]["tools"][0]["inputSchema"], alone["schema"], "{target}");
        assert_eq!(listed["telemetry"]["toolsSeen"], 1, "{target}: {}", listed["telemetry"]);
    }
    assert_eq!(error(&api::normalize_tools_json(&list, ""))["code"], "invalid-options");
}

#[wasm_bindgen_test]
fn key_order_survives_the_wasm_build() {
    // Providers generate arguments in schema order, so key order is output.
    let input = r#"{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"integer"},"m":{"type":"boolean"}}}"#;
    let out = ok(&api::normalize_json(input, "mcp", ""));
    let keys: Vec<&str> = out["schema"]["properties"].as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["z", "a", "m"]);
}

#[wasm_bindgen_test]
fn errors_arrive_as_envelopes() {
    let e = error(&api::normalize_json("{", "mcp", ""));
    assert_eq!((e["code"].as_str(), e["pointer"].as_str()), (Some("invalid-json"), Some("")));
    assert_eq!(error(&api::normalize_json("{}", "no-such-target", ""))["code"], "unknown-target");
    assert_eq!(error(&api::normalize_json("{}", "mcp", r#"{"maxDepht": 3}"#))["code"], "invalid-options");
    assert_eq!(error(&api::check_json("[", "google"))["code"], "invalid-json");
    // The fixture F08-schema-given-as-array, on every target.
    let input = fixture!("F08-schema-given-as-array", "input.json");
    let golden = parse(fixture!("F08-schema-given-as-array", "error/mcp.json"));
    for target in targets() {
        let e = error(&api::normalize_json(input, &target, ""));
        assert_eq!(json!({"code": e["code"], "pointer": e["pointer"]}), golden, "{target}");
    }
}

#[wasm_bindgen_test]
fn check_reports_violations_with_pointers() {
    let open = r#"{"type":"object","properties":{"a":{"type":"object","properties":{}}},"required":["a"],"additionalProperties":false}"#;
    let violations = ok(&api::check_json(open, "openai-strict"));
    let found: Vec<(&str, &str)> =
        violations.as_array().unwrap().iter().map(|v| (v["code"].as_str().unwrap(), v["pointer"].as_str().unwrap())).collect();
    assert_eq!(found, [("additional-properties-required", "/properties/a")]);
    assert_eq!(ok(&api::check_json(r#"{"type":"object","properties":{}}"#, "mcp")), json!([]));
}

#[wasm_bindgen_test]
fn ref_bomb_fixture_matches_its_goldens() {
    let input = fixture!("ref-bomb-bounded", "input.json");
    let options = parse(fixture!("ref-bomb-bounded", "fixture.json"))["options"].to_string();
    let cases = [
        ("mcp", fixture!("ref-bomb-bounded", "expected/mcp.json"), fixture!("ref-bomb-bounded", "report/mcp.json")),
        ("google", fixture!("ref-bomb-bounded", "expected/google.json"), fixture!("ref-bomb-bounded", "report/google.json")),
    ];
    for (target, expected, report) in cases {
        let (golden, lossy) = golden_view(&ok(&api::normalize_json(input, target, &options)));
        assert_eq!(golden, parse(expected), "{target}");
        assert_eq!(lossy, parse(report), "{target}");
    }
}

#[wasm_bindgen_test]
fn ref_bomb_with_the_default_budget_stays_bounded_on_every_target() {
    // 2^40 nodes if fully inlined; the default refBudget must stop it within
    // the wasm memory and stack.
    let mut defs = toolschema::doc::Map::new();
    defs.insert("d0".into(), json!({"type": "string", "description": "x".repeat(50)}));
    for i in 1..40 {
        let prev = format!("#/$defs/d{}", i - 1);
        defs.insert(format!("d{i}").into(), json!({"type": "object", "properties": {"a": {"$ref": prev}, "b": {"$ref": prev}}}));
    }
    let input = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d39"}}, "$defs": defs}).to_string();
    for target in targets() {
        let out = ok(&api::normalize_json(&input, &target, ""));
        let len = out["schema"].to_string().len();
        assert!(len < 5_000_000, "{target}: {len} bytes from a {}-byte input", input.len());
    }
}

/// Schema shapes that nest differently: `items` costs one JSON level per
/// schema level (the deepest walk for a given text depth), `properties` and
/// `anyOf` two, and `default` nests plain data that no walker enters.
#[derive(Clone, Copy, Debug)]
enum Shape {
    Properties,
    Items,
    AnyOf,
    Default,
}

const SHAPES: [Shape; 4] = [Shape::Properties, Shape::Items, Shape::AnyOf, Shape::Default];

/// JSON text of a `shape` schema whose nesting is exactly `depth` levels.
fn deep(shape: Shape, depth: usize) -> String {
    let pair = |open: &str, close: &str| {
        // Two levels per wrapper; the leaf makes up the parity.
        let (k, leaf) = if depth % 2 == 1 {
            ((depth - 1) / 2, r#"{"type":"string"}"#)
        } else {
            ((depth - 2) / 2, r#"{"type":"array","items":{"type":"string"}}"#)
        };
        format!("{}{leaf}{}", open.repeat(k), close.repeat(k))
    };
    let text = match shape {
        Shape::Properties => pair(r#"{"type":"object","properties":{"c":"#, "}}"),
        Shape::AnyOf => pair(r#"{"anyOf":["#, r#",{"type":"null"}]}"#),
        Shape::Items => format!(r#"{}{{"type":"string"}}{}"#, r#"{"type":"array","items":"#.repeat(depth - 1), "}".repeat(depth - 1)),
        Shape::Default => format!(r#"{{"type":"array","default":{}{}}}"#, "[".repeat(depth - 1), "]".repeat(depth - 1)),
    };
    assert_eq!(toolschema::json::json_depth(&text), depth, "{shape:?}");
    text
}

/// Every shape at `depth` normalizes on every target: within the default
/// maxDepth (256) the wasm stack and the engine's call stack must suffice.
fn deep_inputs_normalize(depth: usize) {
    let targets = targets();
    for shape in SHAPES {
        let text = deep(shape, depth);
        for target in &targets {
            ok(&api::normalize_json(&text, target, ""));
        }
    }
}

// One test per depth, so a trap names the depth that caused it.
#[wasm_bindgen_test]
fn nesting_50_levels_normalizes() {
    deep_inputs_normalize(50);
}

#[wasm_bindgen_test]
fn nesting_100_levels_normalizes() {
    deep_inputs_normalize(100);
}

#[wasm_bindgen_test]
fn nesting_200_levels_normalizes() {
    deep_inputs_normalize(200);
}

#[wasm_bindgen_test]
fn nesting_250_levels_normalizes() {
    deep_inputs_normalize(250);
}

#[wasm_bindgen_test]
fn nesting_at_the_default_limit_normalizes() {
    deep_inputs_normalize(256);
}

#[wasm_bindgen_test]
fn nesting_past_the_limit_is_too_deep_not_a_trap() {
    let targets = targets();
    for shape in SHAPES {
        for depth in [257, 100_000] {
            let text = deep(shape, depth);
            for target in &targets {
                let e = error(&api::normalize_json(&text, target, ""));
                assert_eq!(e["code"], "too-deep", "{shape:?} {depth} {target}");
            }
        }
    }
    assert_eq!(error(&api::check_json(&deep(Shape::Items, 100_000), "mcp"))["code"], "too-deep");
}

/// The round trip in wasm: the `pattern` engine (regex-lite) runs inside the
/// module, and deep arguments end as `too-deep` within the small wasm stack.
#[wasm_bindgen_test]
fn arguments_are_restored_repaired_and_validated() {
    let schema = json!({"type": "object", "properties": {
        "id": {"type": "string", "pattern": "^[a-z]+-\\d+$"},
        "n": {"type": "integer", "minimum": 1}
    }, "required": ["id"]})
    .to_string();
    let out: Value = serde_json::from_str(&api::prepare_tool_call_json(r#"{"id": "ab-12", "n": "3"}"#, &schema, "openai-strict", "")).unwrap();
    assert_eq!(out["ok"]["ok"], json!(true), "{out}");
    assert_eq!(out["ok"]["args"], json!({"id": "ab-12", "n": 3}));
    let out: Value = serde_json::from_str(&api::validate_arguments_json(r#"{"id": "AB"}"#, &schema, "")).unwrap();
    assert_eq!(out["ok"]["errors"][0]["keyword"], json!("pattern"), "{out}");
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    let out: Value = serde_json::from_str(&api::validate_arguments_json(&deep, r#"{"type": "array"}"#, "")).unwrap();
    assert_eq!(out["error"]["code"], json!("too-deep"), "{out}");
}

/// The string scans read sixteen bytes at a time in this build (SIMD): a
/// string of every length to 40 with a quote, a backslash, a control byte,
/// a multibyte character or nothing at every place parses to its text and
/// writes back as serde_json writes it.
#[wasm_bindgen_test]
fn strings_read_and_write_exactly_at_every_length_and_place() {
    for len in 0..=40 {
        for special in [None, Some('"'), Some('\\'), Some('\n'), Some('\u{1}'), Some('\u{1f}'), Some('é'), Some('\u{7f}')] {
            for at in 0..=len {
                let mut text: String = "a".repeat(len);
                if let Some(c) = special {
                    text.insert(at.min(text.len()), c);
                }
                let written = serde_json::to_string(&text).unwrap();
                let value = toolschema::doc::parse_value(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
                assert_eq!(value.as_str(), Some(text.as_str()), "{written}");
                assert_eq!(toolschema::doc::json_text(&value), written);
                // As a member's key and value, past a prefix that shifts the sixteen-byte reads.
                let object = format!(r#"{{"x":1,{written}:{written}}}"#);
                let value = toolschema::doc::parse_value(&object).unwrap_or_else(|e| panic!("{object}: {e}"));
                assert_eq!(value.get(text.as_str()).and_then(Value::as_str), Some(text.as_str()), "{object}");
                assert_eq!(toolschema::doc::json_text(&value), object);
            }
        }
    }
}

/// This build links its own `memcmp` (src/mem.rs), which every ordering of
/// strings and byte slices calls: strings of every length to 40, one byte
/// changed at every place to bytes on both sides of 0x80, order as a byte by
/// byte comparison says, each way.
#[wasm_bindgen_test]
fn byte_strings_order_exactly_at_every_length_and_place() {
    fn by_bytes(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
        for (x, y) in a.iter().zip(b) {
            if x != y {
                return if x < y { std::cmp::Ordering::Less } else { std::cmp::Ordering::Greater };
            }
        }
        a.len().cmp(&b.len())
    }
    for n in 0..=40usize {
        let a: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8).collect();
        assert_eq!(a.as_slice().cmp(a.as_slice()), std::cmp::Ordering::Equal);
        for at in 0..n {
            for byte in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                let mut b = a.clone();
                b[at] = byte;
                // Through `Ord` and `==` on slices, which call `memcmp`.
                assert_eq!(a.as_slice().cmp(b.as_slice()), by_bytes(&a, &b), "{n} bytes, {byte:#x} at {at}");
                assert_eq!(b.as_slice().cmp(a.as_slice()), by_bytes(&b, &a), "{n} bytes, {byte:#x} at {at}");
                assert_eq!(a == b, by_bytes(&a, &b).is_eq());
            }
        }
    }
}

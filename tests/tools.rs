//! Tool lists: every shape, per-tool isolation, and telemetry that counts what
//! really happened.
use serde_json::{json, Value};
use toolschema::{normalize_tools, targets, Options};

fn run(list: &Value, target: &str) -> toolschema::ToolsOutcome {
    normalize_tools(list, targets::get(target).unwrap(), &Options::default()).unwrap()
}

#[test]
fn every_list_shape_keeps_its_shape() {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string", "minLength": 1}}});
    let lists = [
        (json!([{"type": "function", "function": {"name": "a", "parameters": schema}}]), "/0/function/parameters"),
        (json!([{"type": "function", "name": "a", "parameters": schema}]), "/0/parameters"),
        (json!([{"name": "a", "input_schema": schema}]), "/0/input_schema"),
        (json!([{"name": "a", "inputSchema": schema}]), "/0/inputSchema"),
        (json!({"tools": [{"name": "a", "inputSchema": schema}]}), "/tools/0/inputSchema"),
        (json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": schema}]}}), "/result/tools/0/inputSchema"),
        (json!({"functionDeclarations": [{"name": "a", "parameters": schema}]}), "/functionDeclarations/0/parameters"),
    ];
    for (list, at) in lists {
        let out = run(&list, "google");
        let got = out.tools.pointer(at).unwrap_or_else(|| panic!("{at} in {}", out.tools));
        assert_eq!(got["properties"]["q"], json!({"type": "string", "description": "{minLength: 1}"}), "{at}");
        assert_eq!(out.telemetry.tools_seen, 1);
        assert_eq!(out.telemetry.tools_modified, 1);
        assert_eq!(out.telemetry.tools[0].name.as_deref(), Some("a"));
    }
}

#[test]
fn strict_flags_follow_the_outcome() {
    let list = json!([
        {"type": "function", "function": {"name": "ok", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}},
        {"type": "function", "function": {"name": "map", "parameters": {"type": "object", "additionalProperties": {"type": "string"}}}},
    ]);
    let out = run(&list, "openai-strict");
    assert_eq!(out.tools[0]["function"]["strict"], json!(true));
    assert_eq!(out.tools[1]["function"]["strict"], json!(false));
    assert_eq!(out.telemetry.tools[1].strict_error.as_ref().unwrap().code, "strict-unrepresentable");
}

#[test]
fn one_tool_failing_never_fails_the_list() {
    let list = json!([
        {"name": "bad", "inputSchema": "not a schema"},
        {"name": "good", "inputSchema": {"type": "object", "properties": {}}},
    ]);
    let out = run(&list, "mcp");
    assert_eq!(out.tools[0]["inputSchema"], json!({"type": "object", "properties": {}}));
    assert_eq!(out.telemetry.tools[0].error.as_ref().unwrap()["code"], "not-a-schema");
    assert!(out.telemetry.tools[0].report.has("tool-failed"));
    assert!(out.telemetry.tools[1].error.is_none());
    assert!(out.telemetry.lossy);
}

#[test]
fn a_function_without_parameters_is_left_alone() {
    let list = json!([{"type": "function", "function": {"name": "ping"}}]);
    let out = run(&list, "openai-strict");
    assert_eq!(out.tools, list);
    assert_eq!(out.telemetry.tools_modified, 0);
}

#[test]
fn telemetry_counts_what_happened() {
    // Two refs inlined (one cyclic, kept), a oneOf rewritten, a not-sentinel
    // dropped, an anyOf with siblings distributed, a dangling ref.
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/A"},
            "b": {"$ref": "#/$defs/A"},
            "tree": {"$ref": "#/$defs/Tree"},
            "pick": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "opt": {"anyOf": [{"type": "string"}, {"not": {}}]},
            "obj": {"type": "object", "properties": {"k": {"type": "string"}}, "anyOf": [{"required": ["k"]}, {"properties": {"z": {"type": "integer"}}}]},
            "gone": {"$ref": "#/$defs/Missing"}
        },
        "$defs": {
            "A": {"type": "string"},
            "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}}
        }
    });
    let out = run(&json!([{"name": "t", "inputSchema": schema}]), "llamacpp");
    let c = &out.telemetry.counters;
    assert_eq!(c["refsInlined"], 2, "{c:?}");
    assert!(c["cyclesPreserved"] >= 1, "{c:?}");
    assert_eq!(c["refsUnresolved"], 1, "{c:?}");
    assert_eq!(c["oneofRewrites"], 1, "{c:?}");
    assert_eq!(c["notDrops"], 1, "{c:?}");
    assert_eq!(c["anyofRewrites"], 1, "{c:?}");
    assert_eq!(c["sizeCoarsenings"], 0);
    assert_eq!(c["unionCoexistenceSkipped"], 0);
    for name in toolschema::tools::SEED_COUNTERS {
        assert!(c.contains_key(name), "{name} always reported");
    }
    let tools = &out.tools;
    assert!(tools[0]["inputSchema"]["$defs"]["Tree"].is_object(), "cycle kept with its definition: {tools}");
}

#[test]
fn any_of_and_one_of_on_one_node_are_combined() {
    let schema = json!({"type": "object", "properties": {"v": {
        "anyOf": [{"type": "string"}, {"type": "integer"}],
        "oneOf": [{"minLength": 2}, {"maxLength": 1}]
    }}});
    let out = run(&json!([{"name": "t", "inputSchema": schema}]), "llamacpp");
    let v = &out.tools[0]["inputSchema"]["properties"]["v"];
    assert_eq!(v["anyOf"].as_array().unwrap().len(), 4, "{v}");
    assert!(v.get("oneOf").is_none() && v.get("allOf").is_none());
    assert_eq!(out.telemetry.counters["unionCoexistenceRewrites"], 1);
}

#[test]
fn not_a_list_is_a_clear_error() {
    let e = normalize_tools(&json!({"type": "object"}), targets::get("mcp").unwrap(), &Options::default()).unwrap_err();
    assert_eq!(e.code(), "not-a-schema");
}

#[test]
fn anthropic_strict_keeps_as_many_tools_strict_as_the_request_budget_allows() {
    // 30 tools with 2 optional parameters each: the budget of 24 optional
    // parameters fits 12 of them; the 20-tool limit does not bind first.
    let tool = |i: usize| {
        json!({"name": format!("t{i}"), "input_schema": {"type": "object", "properties": {
            "req": {"type": "string"}, "a": {"type": "string"}, "b": {"type": "integer"}
        }, "required": ["req"]}})
    };
    let list = Value::Array((0..30).map(tool).collect());
    let out = run(&list, "anthropic-strict");
    let strict: Vec<bool> = out.telemetry.tools.iter().map(|t| t.strict == Some(true)).collect();
    assert_eq!(strict.iter().filter(|s| **s).count(), 12, "{strict:?}");
    for (i, t) in out.telemetry.tools.iter().enumerate() {
        assert_eq!(out.tools[i]["strict"], json!(strict[i]));
        if !strict[i] {
            assert!(t.report.has("strict-budget"), "tool {i} says why");
            // Downgraded tools are normalized for the non-strict target.
            assert_eq!(out.tools[i]["input_schema"], toolschema::normalize(&list[i]["input_schema"], targets::get("anthropic").unwrap(), &Options::default()).unwrap().schema);
        }
    }
    // Cheap tools win places first: a tool with no optional parameter is kept.
    let mut list2 = list.as_array().unwrap().clone();
    list2.push(json!({"name": "cheap", "input_schema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}));
    let out2 = run(&Value::Array(list2), "anthropic-strict");
    assert_eq!(out2.telemetry.tools[30].strict, Some(true));
}

#[test]
fn budget_counts_optional_and_union_parameters_through_nesting() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": ["string", "null"]},
        "o": {"type": "object", "properties": {"x": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "y": {"type": "string"}}, "required": ["y"]}
    }, "required": ["o"]});
    assert_eq!(toolschema::tools::budget_use(&schema), (2, 2));
}

/// providers.md F41: `tools.0.custom.input_schema: Field required`.
#[test]
fn f41_anthropic_tool_without_input_schema_gets_one() {
    for target in ["anthropic", "anthropic-strict", "bedrock"] {
        let out = run(&json!([{"name": "ping", "description": "no parameters"}]), target);
        assert_eq!(out.tools[0]["input_schema"]["type"], "object", "{target}");
        assert!(out.tools[0]["input_schema"]["properties"].is_object(), "{target}");
    }
}

/// providers.md F10 ("The compiled grammar is too large") and F12 ("Schema is too complex for
/// compilation"): the strict-tool count of one request is capped.
#[test]
fn f10_f12_anthropic_strict_tool_count_is_capped_at_20() {
    let list: Vec<Value> = (0..25)
        .map(|i| json!({"name": format!("t{i}"), "input_schema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}))
        .collect();
    let out = run(&Value::Array(list), "anthropic-strict");
    assert_eq!(out.telemetry.tools.iter().filter(|t| t.strict == Some(true)).count(), 20);
}

/// providers.md F11/F44: "Schemas contains too many optional parameters (87)" and the
/// 16-union limit, summed over all strict tools of a request.
#[test]
fn f11_f44_optional_and_union_parameters_are_summed_over_tools() {
    let many_optional = json!({"name": "opt", "input_schema": {"type": "object", "properties": (0..30).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect::<serde_json::Map<_, _>>()}});
    let unions = |n: usize| {
        json!({"name": format!("u{n}"), "input_schema": {"type": "object", "properties": (0..9).map(|i| (format!("v{i}"), json!({"type": ["string", "integer"]}))).collect::<serde_json::Map<_, _>>(), "required": (0..9).map(|i| format!("v{i}")).collect::<Vec<_>>()}})
    };
    let out = run(&json!([many_optional, unions(1), unions(2)]), "anthropic-strict");
    let strict: Vec<Option<bool>> = out.telemetry.tools.iter().map(|t| t.strict).collect();
    // 30 optional parameters can never fit in 24; two tools of 9 unions cannot share 16.
    assert_eq!(strict, vec![Some(false), Some(true), Some(false)]);
    for (i, t) in out.telemetry.tools.iter().enumerate() {
        if t.strict == Some(false) {
            assert!(t.report.has("strict-budget"), "{i}");
        }
    }
}

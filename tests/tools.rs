//! Tool lists: every shape, per-tool isolation, and telemetry that counts what
//! really happened.
use toolschema::json;
use toolschema::doc::Value;
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
        let out = run(&list, "cca");
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
        {"type": "function", "function": {"name": "pair", "parameters": {"type": "object", "properties": {"t": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}}}}},
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
    let many_optional = json!({"name": "opt", "input_schema": {"type": "object", "properties": (0..30).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect::<toolschema::doc::Map>()}});
    let unions = |n: usize| {
        json!({"name": format!("u{n}"), "input_schema": {"type": "object", "properties": (0..9).map(|i| (format!("v{i}"), json!({"type": ["string", "integer"]}))).collect::<toolschema::doc::Map>(), "required": (0..9).map(|i| format!("v{i}")).collect::<Vec<_>>()}})
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

/// Names each provider refuses (an MCP server's `github/create_issue`, a name
/// past 64 characters, one starting with a digit on Gemini: kaitranntt/ccs#25)
/// fail a whole request. Every tool-list target with a name rule sends only
/// names it accepts, each different, and the mapping says which tool is which.
#[test]
fn tool_names_fit_each_provider_rule_and_map_back() {
    let long = format!("mcp__{}__search", "very_long_server_namespace_".repeat(3));
    let names = ["github/create_issue", "github_create_issue", "1password.lookup", long.as_str(), "fs:read file", "ok"];
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    for target in targets::TARGETS {
        let Some(rule) = target.caps.tool_names else { continue };
        let list = Value::Array(names.iter().map(|n| json!({"type": "function", "function": {"name": n, "parameters": schema}})).collect());
        let out = run(&list, target.id);
        let sent: Vec<&str> = out.tools.as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
        for name in &sent {
            assert!(rule.accepts(name), "{}: {name:?}", target.id);
        }
        assert_eq!(sent.iter().collect::<std::collections::HashSet<_>>().len(), sent.len(), "{}: {sent:?}", target.id);
        assert_eq!(sent[1], "github_create_issue", "a valid name is kept: {}", target.id);
        assert_eq!(sent[5], "ok");
        for (i, (original, sent)) in names.iter().zip(&sent).enumerate() {
            let t = &out.telemetry.tools[i];
            if original == sent {
                assert!(t.provider_name.is_none() && !out.telemetry.names.contains_key(*sent), "{}: {original}", target.id);
                continue;
            }
            assert_eq!(out.telemetry.names[*sent], *original, "{}", target.id);
            assert_eq!(t.provider_name.as_deref(), Some(*sent));
            assert!(t.modified);
            let d = out.telemetry.diagnostics.iter().find(|d| d.pointer == format!("/{i}/function/name")).expect("reported");
            assert_eq!(d.code, "tool-name-rewritten");
        }
        // The same list gives the same names.
        assert_eq!(run(&list, target.id).tools, out.tools);
    }
    // Targets without a rule (MCP, local grammar backends) keep every name.
    for id in ["mcp", "llamacpp", "ollama", "xgrammar", "llguidance"] {
        let list = json!([{"name": "github/create_issue", "inputSchema": schema}]);
        let out = run(&list, id);
        assert_eq!(out.tools[0]["name"], "github/create_issue", "{id}");
        assert!(out.telemetry.names.is_empty());
    }
}

/// `prepareToolCall` / `restoreArguments` with the name the model called find
/// the original tool, and say which one.
#[test]
fn the_called_name_finds_the_original_tool() {
    use toolschema::api::{prepare_tool_call_json, restore_arguments_json};
    let list = json!({"tools": [
        {"name": "github/create_issue", "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}, "n": {"type": "integer"}}, "required": ["title"]}},
        {"name": "other", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]}}
    ]});
    let sent = run(&list, "openai-strict");
    let called = sent.tools["tools"][0]["name"].as_str().unwrap();
    assert_eq!(called, "github_create_issue");
    let options = json!({"name": called}).to_string();
    let prepared: Value = serde_json::from_str(&prepare_tool_call_json(r#"{"title": "t", "n": null}"#, &list.to_string(), "openai-strict", &options)).unwrap();
    let prepared = &prepared["ok"];
    assert_eq!(prepared["ok"], true, "{prepared}");
    assert_eq!(prepared["args"], json!({"title": "t"}), "the strict null is removed against the original tool's schema");
    assert_eq!(prepared["tool"], json!({"index": 0, "pointer": "/tools/0", "name": "github/create_issue"}));
    let restored: Value = serde_json::from_str(&restore_arguments_json(r#"{"title": "t", "n": null}"#, &list.to_string(), "openai-strict", &options)).unwrap();
    assert_eq!(restored["ok"]["args"], json!({"title": "t"}), "{restored}");
    assert_eq!(restored["ok"]["tool"]["name"], "github/create_issue");
    // The original name is found too; a name no tool has is the model's to fix.
    let by_original = prepare_tool_call_json(r#"{"title": "t"}"#, &list.to_string(), "openai-strict", r#"{"name": "github/create_issue"}"#);
    assert!(by_original.contains(r#""index":0"#), "{by_original}");
    let unknown: Value = serde_json::from_str(&prepare_tool_call_json("{}", &list.to_string(), "openai-strict", r#"{"name": "nope"}"#)).unwrap();
    assert_eq!(unknown["ok"]["ok"], false);
    assert_eq!(unknown["ok"]["errors"][0]["keyword"], "tool");
    assert!(unknown["ok"]["message"].as_str().unwrap().contains("github_create_issue, other"), "{unknown}");
    let unknown = restore_arguments_json("{}", &list.to_string(), "openai-strict", r#"{"name": "nope"}"#);
    assert!(unknown.contains(r#""code":"invalid-options""#), "{unknown}");
}

/// Gemini's own request shapes: `[{functionDeclarations}]` and `{tools:
/// [{functionDeclarations}, {googleSearch}]}` were passed through untouched,
/// `$defs` and all, with no error. Every declaration is normalized, the shape
/// kept; a built-in tool is left alone.
#[test]
fn gemini_request_shapes_are_read() {
    let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string", "minLength": 1}}});
    let decls = json!([{"name": "f", "parameters": schema}, {"name": "g", "parametersJsonSchema": schema}]);
    let expected = toolschema::normalize(&schema, targets::get("google").unwrap(), &Options::default()).unwrap().schema;
    for (list, base) in [
        (json!([{"functionDeclarations": decls}]), "/0/functionDeclarations"),
        (json!({"tools": [{"googleSearch": {}}, {"functionDeclarations": decls}]}), "/tools/1/functionDeclarations"),
    ] {
        let out = run(&list, "google");
        assert_eq!(out.telemetry.tools_seen, 2, "{list}");
        assert_eq!(out.telemetry.tools_modified, 2);
        assert_eq!(out.tools.pointer(&format!("{base}/0/parameters")), Some(&expected), "{}", out.tools);
        assert!(out.tools.pointer(&format!("{base}/1/parametersJsonSchema/$defs")).is_none());
        assert_eq!(out.telemetry.tools[1].pointer, format!("{base}/1"));
        if list.get("tools").is_some() {
            assert_eq!(out.tools["tools"][0], json!({"googleSearch": {}}));
        }
    }
    // What cannot be read is an error at its pointer, never a silent pass.
    for (list, at) in [
        (json!({"tools": [{"functionDeclarations": {"name": "f"}}]}), "/tools/0/functionDeclarations"),
        (json!([{"functionDeclarations": ["f"]}]), "/0/functionDeclarations/0"),
        (json!(["not a tool"]), "/0"),
    ] {
        let e = normalize_tools(&list, targets::get("google").unwrap(), &Options::default()).unwrap_err();
        assert_eq!((e.code(), e.pointer().as_str()), ("not-a-schema", at), "{list}");
    }
}

/// llama.cpp fails to build the tool-call grammar past about 100 KB of tools
/// (ggml-org/llama.cpp#25895: 97,102 bytes worked, 100,026 failed), then
/// generates unconstrained (#19051). The size is measured and, past the
/// ceiling, the tools to leave out are named.
#[test]
fn llamacpp_tool_list_size_is_measured_against_the_grammar_ceiling() {
    let tool = |i: usize, text: usize| {
        json!({"type": "function", "function": {"name": format!("t{i}"), "description": "d".repeat(text),
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}})
    };
    let small = Value::Array((0..58).map(|i| tool(i, 100)).collect());
    let out = run(&small, "llamacpp");
    let size = out.telemetry.list_size.as_ref().unwrap();
    assert_eq!(size.bytes, serde_json::to_string(&out.tools).unwrap().len());
    assert_eq!(size.limit, Some(97_000));
    assert!(size.drop.is_empty() && out.telemetry.diagnostics.is_empty());

    let mut big: Vec<Value> = (0..58).map(|i| tool(i, 1_600)).collect();
    big[7] = tool(7, 6_000);
    let out = run(&Value::Array(big.clone()), "llamacpp");
    let size = out.telemetry.list_size.as_ref().unwrap();
    assert!(size.bytes > 97_000, "{}", size.bytes);
    assert_eq!(size.drop[0], 7, "the largest tool goes first");
    let d = &out.telemetry.diagnostics[0];
    assert_eq!(d.code, "tool-list-too-large");
    assert!(d.message.contains("t7 ("), "{}", d.message);
    // Leaving those out fits; leaving out one fewer does not.
    let without = |n: usize| {
        let keep: Vec<Value> = big.iter().enumerate().filter(|(i, _)| !size.drop[..n].contains(i)).map(|(_, t)| t.clone()).collect();
        run(&Value::Array(keep), "llamacpp").telemetry.list_size.unwrap()
    };
    assert!(without(size.drop.len()).bytes <= 97_000);
    assert!(without(size.drop.len() - 1).bytes > 97_000);

    // Ollama parses calls from text (no grammar): measured, no ceiling.
    let out = run(&Value::Array(big), "ollama");
    let size = out.telemetry.list_size.as_ref().unwrap();
    assert!(size.limit.is_none() && size.drop.is_empty() && out.telemetry.diagnostics.is_empty());
    assert!(run(&small, "openai").telemetry.list_size.is_none());
}

/// A tool passed where a schema is expected read as a schema gave a wrong
/// answer silently: no parameters with `strict: true` (openai-strict), an
/// invented `value` parameter (google), `name`/`inputSchema` as properties
/// (openai). It is an error that names the slot to pass.
#[test]
fn a_tool_passed_as_a_schema_is_refused() {
    use toolschema::api::{check_json, normalize_json, normalize_schema_json};
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    for (tool, slot) in [
        (json!({"name": "search", "description": "Search", "inputSchema": schema}), "tool.inputSchema"),
        (json!({"name": "search", "input_schema": schema}), "tool.input_schema"),
        (json!({"type": "function", "name": "search", "parameters": schema, "strict": true}), "tool.parameters"),
        (json!({"type": "function", "function": {"name": "search", "parameters": schema}}), "tool.function.parameters"),
        (json!({"name": "search", "parametersJsonSchema": schema}), "tool.parametersJsonSchema"),
    ] {
        for target in ["openai-strict", "google", "openai", "mcp"] {
            for out in [normalize_json(&tool.to_string(), target, ""), normalize_schema_json(&tool.to_string(), target, ""), check_json(&tool.to_string(), target)] {
                let v: Value = serde_json::from_str(&out).unwrap();
                assert_eq!(v["error"]["code"], "not-a-schema", "{target} {tool}: {out}");
                assert!(v["error"]["message"].as_str().unwrap().contains(slot), "{out}");
            }
        }
    }
    // Schemas that merely have such names are schemas.
    for schema in [
        json!({"type": "object", "properties": {"name": {"type": "string"}, "parameters": {"type": "object"}}}),
        json!({"name": "x", "parameters": {}, "properties": {"a": {"type": "string"}}}),
        json!({"name": "x", "inputSchema": {}, "type": "object"}),
    ] {
        let out = normalize_json(&schema.to_string(), "openai", "");
        assert!(out.starts_with(r#"{"ok""#), "{schema}: {out}");
    }
}

/// One tool (any shape) stands for a list of one when the call names it.
#[test]
fn one_tool_is_found_by_its_called_name() {
    use toolschema::api::prepare_tool_call_json;
    let tool = json!({"type": "function", "function": {"name": "fs/read", "parameters": {"type": "object", "properties": {"p": {"type": "string"}}, "required": ["p"]}}});
    let out: Value = serde_json::from_str(&prepare_tool_call_json(r#"{"p": "a"}"#, &tool.to_string(), "openai", r#"{"name": "fs_read"}"#)).unwrap();
    assert_eq!(out["ok"]["ok"], true, "{out}");
    assert_eq!(out["ok"]["tool"], json!({"index": 0, "pointer": "", "name": "fs/read"}));
    let out: Value = serde_json::from_str(&prepare_tool_call_json("{}", &tool.to_string(), "openai", r#"{"name": "fs_read"}"#)).unwrap();
    assert_eq!(out["ok"]["ok"], false, "the found tool's schema is applied: {out}");
}

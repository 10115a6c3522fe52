//! Tool lists as JSON text (`tools::text`): the same answer as parsing the
//! text and calling `normalize_tools`, for every list and request shape, every
//! target and the whole corpus, with or without telemetry; the rest of a
//! request body goes through as it is.
mod common;

use toolschema::json;
use toolschema::doc::Value;
use toolschema::tools::text::normalize_tools_text;
use toolschema::{normalize_tools, targets, Error, Options};

/// The corpus as tool lists of up to 12 tools, each in one of the shapes read,
/// most of them wrapped in a request body whose messages must go through.
fn bodies() -> Vec<String> {
    let corpus = common::corpus();
    let messages = json!([
        {"role": "system", "content": "Use the tools. \u{e9}\u{1F600} \"quoted\" \\ back\nslash"},
        {"role": "user", "content": [{"type": "text", "text": "go"}], "n": [1.0, -0.0, 1e5, 12345678901234567890u64, -3]},
    ]);
    let mut out = Vec::new();
    for (chunk, group) in corpus.chunks(12).enumerate() {
        let tool = |i: usize, s: &Value| {
            let name = format!("tool_{chunk}_{i}");
            match chunk % 6 {
                0 => json!({"type": "function", "function": {"name": name, "description": "d", "parameters": s}}),
                1 => json!({"type": "function", "name": name, "parameters": s, "strict": true}),
                2 => json!({"name": name, "input_schema": s}),
                3 | 4 => json!({"name": name, "inputSchema": s}),
                _ => json!({"name": name, "parameters": s}),
            }
        };
        let tools: Vec<Value> = group.iter().enumerate().map(|(i, (_, s))| tool(i, s)).collect();
        let body = match chunk % 6 {
            0 => json!({"model": "m", "messages": messages, "tools": tools, "tool_choice": "auto"}),
            1 => json!(tools),
            2 => json!({"model": "m", "max_tokens": 100, "messages": messages, "tools": tools}),
            3 => json!({"jsonrpc": "2.0", "id": 7, "result": {"tools": tools, "nextCursor": null}}),
            4 => json!({"tools": tools}),
            _ => json!({"contents": messages, "tools": [{"googleSearch": {}}, {"functionDeclarations": tools}]}),
        };
        out.push(serde_json::to_string_pretty(&body).unwrap());
    }
    out
}

#[test]
fn text_in_text_out_matches_the_value_path_on_the_corpus() {
    let opts = Options::default();
    let bodies = bodies();
    for target in targets::TARGETS {
        for body in &bodies {
            let parsed: Value = serde_json::from_str(body).unwrap();
            let want = normalize_tools(&parsed, target, &opts).unwrap();
            let (got, telemetry) = normalize_tools_text(body, target, &opts).unwrap();
            assert_eq!(got, serde_json::to_string(&want.tools).unwrap(), "{}", target.id);
            assert_eq!(serde_json::to_string(&telemetry).unwrap(), serde_json::to_string(&want.telemetry).unwrap(), "{}", target.id);
            // The object API's answer: the envelope and the tools written by hand.
            let answer = toolschema::api::normalize_tools_json(body, &json!({"target": target.id}).to_string());
            assert_eq!(answer, serde_json::to_string(&serde_json::json!({"ok": want})).unwrap(), "{}", target.id);
            // The text export: telemetry when asked; without it the run is
            // quiet, and the body the same.
            let options = json!({"target": target.id}).to_string();
            let with = toolschema::api::normalize_tools_text(body, &options, true);
            assert_eq!(with, format!("o{}\n{got}", serde_json::to_string(&want.telemetry).unwrap()), "{}", target.id);
            assert_eq!(toolschema::api::normalize_tools_text(body, &options, false), format!("o\n{got}"), "{} (quiet)", target.id);
        }
    }
}

#[test]
fn the_rest_of_the_body_is_not_held_to_the_schema_depth_limit() {
    let opts = Options::default();
    let deep = "[".repeat(5_000) + &"]".repeat(5_000);
    let body = format!(r#"{{"messages":{deep},"tools":[{{"name":"a","inputSchema":{{"type":"object","properties":{{"q":{{"type":"string","minLength":1}}}}}}}}]}}"#);
    // Cloud Code Assist spills the `minLength` (google now keeps it).
    let cca = targets::get("cca").unwrap();
    let (out, telemetry) = normalize_tools_text(&body, cca, &opts).unwrap();
    assert!(out.starts_with(&format!(r#"{{"messages":{deep},"tools":[{{"name":"a","inputSchema":{{"#)), "{}", &out[..80]);
    assert_eq!(telemetry.tools_modified, 1);
    let out: Value = serde_json::from_str(&out[out.find(r#""tools""#).unwrap() - 1..].replacen(",", "{", 1)).unwrap();
    assert_eq!(out["tools"][0]["inputSchema"]["properties"]["q"], json!({"type": "string", "description": "{minLength: 1}"}));
}

#[test]
fn tools_nested_past_the_limit_and_bodies_without_tools_are_refused() {
    let opts = Options { max_depth: 8, ..Options::default() };
    let mcp = targets::get("mcp").unwrap();
    let mut schema = json!({"type": "string"});
    for _ in 0..10 {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    let body = json!({"model": "m", "tools": [{"name": "a", "inputSchema": schema}]}).to_string();
    assert!(matches!(normalize_tools_text(&body, mcp, &opts), Err(Error::TooDeep { limit: 12, .. })));
    let none = json!({"model": "m", "messages": []}).to_string();
    assert_eq!(normalize_tools_text(&none, mcp, &opts).unwrap_err().code(), "not-a-schema");
    assert_eq!(normalize_tools_text("{\"tools\": [", mcp, &opts).unwrap_err().code(), "invalid-json");
}

/// A schema past `maxDepth` in a list within the list's own limit fails alone
/// (its tool gets the empty object schema), with telemetry and without it,
/// where the quiet run takes the schemas over instead of copying them.
#[test]
fn a_schema_past_the_limit_fails_alone_with_or_without_telemetry() {
    let mut schema = json!({"type": "string"});
    for _ in 0..4 {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    let body = json!({"tools": [{"name": "deep", "inputSchema": schema}, {"name": "ok", "inputSchema": {"type": "object"}}]}).to_string();
    for target in ["mcp", "google", "cca", "openai-strict"] {
        let options = json!({"target": target, "maxDepth": 8}).to_string();
        let with = toolschema::api::normalize_tools_text(&body, &options, true);
        let without = toolschema::api::normalize_tools_text(&body, &options, false);
        assert!(with.starts_with('o') && without.starts_with('o'), "{target}: {with}");
        let body_of = |answer: &str| answer[answer.find('\n').unwrap() + 1..].to_string();
        assert_eq!(body_of(&with), body_of(&without), "{target}");
        assert!(with.contains("\"code\":\"too-deep\""), "{target}: {with}");
        let out: Value = serde_json::from_str(&body_of(&without)).unwrap();
        assert_eq!(out["tools"][0]["inputSchema"], toolschema::json!({"type": "object", "properties": {}}), "{target}");
    }
}

/// Bodies where the tools array cannot be read straight into values, or
/// where more than one array could be: the answer is still the value
/// path's, and an error the same error.
#[test]
fn bodies_the_capturing_parse_leaves_to_the_document() {
    let t = r#"[{"name": "a", "parameters": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}}}]"#;
    let nested = r#"{"type": "array", "items": "#.repeat(300) + "{}" + &"}".repeat(300);
    let deep = format!(r#"[{{"name": "d", "parameters": {nested}}}]"#);
    let bodies = [
        format!(r#"{{"tools": {t}, "functionDeclarations": {t}}}"#),
        format!(r#"{{"functionDeclarations": {t}, "tools": {t}}}"#),
        format!(r#"{{"tools": {t}, "model": "m", "tools": {t}}}"#),
        format!(r#"{{"tools": 1, "tools": {t}}}"#),
        format!(r#"{{"tools": {t}, "tools": "none"}}"#),
        format!(r#"{{"\u0074ools": {t}}}"#),
        format!(r#"{{"result": {{"tools": {t}}}, "tools": {t}}}"#),
        format!(r#"{{"result": [{t}], "functionDeclarations": {t}}}"#),
        format!(r#"{{"messages": {deep}, "tools": {t}}}"#),
        format!(r#"{{"tools": {t}, "x": [1, 2"#),
    ];
    let opts = Options::default();
    for body in &bodies {
        for target in targets::TARGETS {
            // The core's own parse (serde_json's with no recursion limit).
            let want = toolschema::doc::parse_value(body).map_err(|e| e.to_string().trim_start_matches("input is not valid JSON: ").to_string()).and_then(|parsed| {
                normalize_tools(&parsed, target, &opts).map(|w| serde_json::to_string(&w.tools).unwrap()).map_err(|e| e.code().to_string())
            });
            let got = normalize_tools_text(body, target, &opts).map(|(text, _)| text).map_err(|e| match e {
                Error::InvalidJson { message } => message,
                e => e.code().to_string(),
            });
            assert_eq!(got, want, "{} {body}", target.id);
        }
    }
    // A list nesting past maxDepth and its wrappers is refused whole, as a
    // document parse refused it (the capture stops at that depth).
    for target in targets::TARGETS {
        let got = normalize_tools_text(&format!(r#"{{"tools": {deep}}}"#), target, &opts);
        assert!(matches!(got, Err(Error::TooDeep { .. })), "{}", target.id);
    }
}

/// On a target with a request budget, the tools past the budget are
/// normalized again for the relaxed target from their schemas as they came:
/// the quiet text path gives what the value path gives, on bodies of 30 and
/// 25 tools for anthropic-strict, where the optional-parameter budget and the
/// 20-tool cap bind.
#[test]
fn tools_past_the_request_budget_are_read_again_on_the_quiet_path() {
    let tool = |i: usize, optional: bool| {
        let props = if optional {
            json!({"req": {"type": "string"}, "a": {"type": ["string", "null"], "minLength": 2}, "b": {"type": "integer", "exclusiveMinimum": 0}})
        } else {
            json!({"req": {"type": "string", "format": "email"}})
        };
        json!({"name": format!("t{i}"), "description": "d", "input_schema": {"type": "object", "properties": props, "required": ["req"]}})
    };
    let target = targets::get("anthropic-strict").unwrap();
    let options = json!({"target": target.id}).to_string();
    for (n, optional) in [(30, true), (25, false)] {
        let tools: Vec<Value> = (0..n).map(|i| tool(i, optional)).collect();
        let body = json!({"model": "m", "max_tokens": 100, "messages": [{"role": "user", "content": "go"}], "tools": tools}).to_string();
        let want = normalize_tools(&serde_json::from_str(&body).unwrap(), target, &Options::default()).unwrap();
        let downgraded = want.telemetry.tools.iter().filter(|t| t.strict == Some(false)).count();
        assert!(downgraded >= 5, "the budget binds: {downgraded} downgraded of {n}");
        let want_body = serde_json::to_string(&want.tools).unwrap();
        assert_eq!(toolschema::api::normalize_tools_text(&body, &options, false), format!("o\n{want_body}"), "{n} tools, quiet");
        let (got, _) = normalize_tools_text(&body, target, &Options { quiet: true, ..Options::default() }).unwrap();
        assert_eq!(got, want_body, "{n} tools");
    }
}

/// Definitions at a tool's schema slot are read only where a reference
/// reaches them (the others are checked as JSON and dropped, as the run
/// drops them): in every arrangement the answer is the value path's, with
/// and without telemetry, and an error the same error.
#[test]
fn unreached_definitions_at_tool_slots_answer_as_the_value_path() {
    let deep = r#"{"type": "array", "items": "#.repeat(12) + "{}" + &"}".repeat(12);
    let schema = |defs: &str| format!(r##"{{"type": "object", "properties": {{"a": {{"$ref": "#/$defs/A"}}}}, {defs}}}"##);
    let used = r##""$defs": {"U": {"type": "string", "minLength": 1}, "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "integer", "exclusiveMinimum": 0}, "V": {"type": 5}}"##;
    let schemas = [
        schema(used),
        // Repeated keys, both containers, a repeated container, a deep unused entry.
        schema(r##""$defs": {"A": {"type": "string"}, "U": {}, "A": {"type": "integer"}}"##),
        schema(r##""$defs": {"A": {"type": "string"}}, "definitions": {"U": {"type": "string"}}"##),
        schema(r##""$defs": {"U": {"type": "string"}}, "$defs": {"A": {"type": "boolean"}, "W": {}}"##),
        schema(r##""$defs": {"U": {"type": "string"}, "A": {}}, "$defs": {}"##),
        schema(&format!(r##""$defs": {{"A": {{}}, "Deep": {deep}}}"##)),
        // What moves references keeps every definition.
        schema(r##""$id": "https://example.com/t", "$defs": {"A": {}, "U": {"$anchor": "u"}}"##),
    ];
    let mut bodies = Vec::new();
    for s in &schemas {
        bodies.push(format!(r#"{{"model": "m", "tools": [{{"type": "function", "function": {{"name": "f", "parameters": {s}}}}}, {{"name": "g", "input_schema": {s}}}]}}"#));
        bodies.push(format!(r#"[{{"name": "f", "parameters": {s}}}, {{"name": "g", "inputSchema": {s}, "parameters": {s}}}]"#));
        bodies.push(format!(r#"{{"result": {{"tools": [{{"name": "f", "inputSchema": {s}}}]}}}}"#));
        bodies.push(format!(r#"{{"functionDeclarations": [{{"name": "f", "parametersJsonSchema": {s}}}]}}"#));
        // Gemini's groups: the array's items are not tools; one holds a slot anyway.
        bodies.push(format!(r#"{{"tools": [{{"functionDeclarations": [{{"name": "f", "parameters": {s}}}]}}, {{"parameters": {s}}}]}}"#));
        // A tool whose slot repeats, the last one without definitions.
        bodies.push(format!(r#"{{"tools": [{{"name": "f", "inputSchema": {s}, "inputSchema": {{"type": "object"}}}}]}}"#));
    }
    for body in &bodies {
        for target in targets::TARGETS {
            for max_depth in [256, 6, 12, 13, 14] {
                let opts = Options { max_depth, ..Options::default() };
                let parsed: Value = serde_json::from_str(body).unwrap();
                let want = normalize_tools(&parsed, target, &opts).map_err(|e| e.code().to_string());
                let got = normalize_tools_text(body, target, &opts).map_err(|e| e.code().to_string());
                match (got, want) {
                    (Ok((text, telemetry)), Ok(want)) => {
                        assert_eq!(text, serde_json::to_string(&want.tools).unwrap(), "{} {max_depth} {body}", target.id);
                        assert_eq!(serde_json::to_string(&telemetry).unwrap(), serde_json::to_string(&want.telemetry).unwrap(), "{} {max_depth} {body}", target.id);
                    }
                    // The text path refuses a list nesting past maxDepth and its
                    // wrappers whole (its own count of levels, before and after
                    // this change), where the value path reads each schema alone.
                    (Err(code), Ok(_)) if code == "too-deep" => {}
                    (got, want) => assert_eq!(got.map(|_| ()), want.map(|_| ()), "{} {max_depth} {body}", target.id),
                }
                let options = json!({"target": target.id, "maxDepth": max_depth}).to_string();
                let quiet = toolschema::api::normalize_tools_text(body, &options, false);
                let loud = toolschema::api::normalize_tools_text(body, &options, true);
                assert_eq!(quiet.starts_with('o'), loud.starts_with('o'), "{} {body}", target.id);
                if quiet.starts_with('o') {
                    assert_eq!(quiet[quiet.find('\n').unwrap()..], loud[loud.find('\n').unwrap()..], "{} {body}", target.id);
                }
            }
        }
    }
}

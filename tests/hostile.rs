//! Hostile input: deep, huge, cyclic and exploding schemas get a result or a
//! clear error, never a panic, a stack overflow or unbounded output.
use toolschema::json;
use toolschema::doc::Value;
use toolschema::{api, normalize, targets, Options};

fn all_targets(schema: &Value, opts: &Options) -> Vec<(String, Result<toolschema::Normalized, toolschema::Error>)> {
    targets::TARGETS.iter().map(|t| (t.id.to_string(), normalize(schema, t, opts))).collect()
}

fn nested_text(levels: usize) -> String {
    let mut s = String::with_capacity(levels * 40);
    for _ in 0..levels {
        s.push_str(r#"{"type":"object","properties":{"c":"#);
    }
    s.push_str(r#"{"type":"string"}"#);
    for _ in 0..levels {
        s.push_str("}}");
    }
    s
}

#[test]
fn hundred_thousand_levels_is_a_too_deep_error_for_every_target() {
    let text = nested_text(100_000);
    for t in targets::ids() {
        let out: Value = serde_json::from_str(&api::normalize_json(&text, t, "")).unwrap();
        assert_eq!(out["error"]["code"], "too-deep", "{t}: {out}");
        assert!(out["error"]["message"].as_str().unwrap().contains("maxDepth"));
    }
}

#[test]
fn nesting_up_to_the_limit_normalizes_on_every_target() {
    // 120 object levels = 240 JSON levels, under the default limit of 256.
    let schema: Value = api::parse(&nested_text(120), 256).unwrap();
    for (t, r) in all_targets(&schema, &Options::default()) {
        let out = r.unwrap_or_else(|e| panic!("{t}: {e}"));
        if t == "openai-strict" {
            assert_eq!(out.strict, Some(false), "over OpenAI's 10 levels");
        }
    }
}

#[test]
fn ref_bomb_output_is_bounded() {
    let mut defs = toolschema::doc::Map::new();
    defs.insert("d0".into(), json!({"type": "string", "description": "x".repeat(50)}));
    for i in 1..40 {
        let prev = format!("#/$defs/d{}", i - 1);
        defs.insert(format!("d{i}").into(), json!({"type": "object", "properties": {"a": {"$ref": prev}, "b": {"$ref": prev}}}));
    }
    let schema = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d39"}}, "$defs": defs});
    let input_len = schema.to_string().len();
    for (t, r) in all_targets(&schema, &Options::default()) {
        let out = r.unwrap_or_else(|e| panic!("{t}: {e}"));
        let len = out.schema.to_string().len();
        assert!(len < 5_000_000, "{t}: {len} bytes from a {input_len}-byte input");
        let caps = targets::get(&t).unwrap().caps;
        if caps.recursion && !caps.inline_refs {
            assert!(len < input_len * 4, "{t} keeps refs: {len} bytes from {input_len}");
        } else {
            assert!(
                out.report.has("ref-budget-exceeded") || out.report.has("inline-depth-reached"),
                "{t}: coarsening reported"
            );
        }
    }
}

#[test]
fn long_ref_chains_are_cut_not_overflowed() {
    let mut defs = toolschema::doc::Map::new();
    for i in 0..5000 {
        defs.insert(format!("a{i}").into(), json!({"$ref": format!("#/$defs/a{}", i + 1), "description": "link"}));
    }
    defs.insert("a5000".into(), json!({"type": "integer"}));
    let schema = json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/a0"}}, "$defs": defs});
    for (t, r) in all_targets(&schema, &Options::default()) {
        let out = r.unwrap_or_else(|e| panic!("{t}: {e}"));
        assert!(out.schema.to_string().len() < 1_000_000, "{t}");
    }
}

#[test]
fn huge_enums_and_wide_objects_complete() {
    let values: Vec<Value> = (0..100_000).map(|i| json!(format!("v{i}"))).collect();
    let mut props = toolschema::doc::Map::new();
    for i in 0..6000 {
        props.insert(format!("p{i}").into(), json!({"type": "integer", "minimum": i}));
    }
    let schema = json!({"type": "object", "properties": {"e": {"enum": values}, "o": {"type": "object", "properties": props}}});
    for (t, r) in all_targets(&schema, &Options::default()) {
        let out = r.unwrap_or_else(|e| panic!("{t}: {e}"));
        if t == "openai-strict" {
            assert_eq!(out.strict, Some(false), "over OpenAI's enum and property limits");
            assert_eq!(out.strict_error.unwrap().code, "limit-exceeded");
        }
    }
}

#[test]
fn non_schemas_are_clear_errors() {
    for (text, code) in [
        ("[1]", "not-a-schema"),
        ("\"object\"", "not-a-schema"),
        ("null", "not-a-schema"),
        ("{", "invalid-json"),
        ("{} {}", "invalid-json"),
    ] {
        let out: Value = serde_json::from_str(&api::normalize_json(text, "google", "")).unwrap();
        assert_eq!(out["error"]["code"], code, "{text}");
    }
    let out: Value = serde_json::from_str(&api::normalize_json("{}", "gemini", "")).unwrap();
    assert_eq!(out["error"]["code"], "unknown-target");
    assert!(out["error"]["message"].as_str().unwrap().contains("google"), "names the known targets");
    let out: Value = serde_json::from_str(&api::normalize_json("{}", "google", r#"{"spil": "none"}"#)).unwrap();
    assert_eq!(out["error"]["code"], "invalid-options");
}

#[test]
fn cyclic_pure_ref_loops_terminate() {
    let schema = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}});
    for (t, r) in all_targets(&schema, &Options::default()) {
        r.unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

/// JSON values in `v` (objects, arrays and scalars), counted without recursion.
fn nodes(v: &Value) -> usize {
    let (mut n, mut stack) = (0, vec![v]);
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Object(m) => stack.extend(m.values()),
            Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    n
}

/// Each level a union of "at least one of" branches beside `properties`, the
/// next level among them (Pydantic model validators, Zod refinements, nested).
/// Targets that write a union alone (Gemini) or with typed branches (OpenAI
/// strict, Groq, Moonshot, the grammars) copy the properties into every branch:
/// 2^30 copies of the innermost level, unbounded. `sizeBudget` bounds what the
/// copies add; past it a union collapses, reported at its own pointer.
#[test]
fn unions_beside_properties_nested_thirty_deep_stay_bounded() {
    let mut s = json!({"type": "string"});
    for i in 0..30 {
        s = json!({
            "type": "object",
            "description": format!("level {i}"),
            "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "next": s},
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}]
        });
    }
    let schema = json!({"type": "object", "properties": {"root": s}});
    let input = nodes(&schema);
    for (t, r) in all_targets(&schema, &Options::default()) {
        let out = r.unwrap_or_else(|e| panic!("{t}: {e}"));
        let budget = targets::get(&t).unwrap().caps.size_budget;
        let n = nodes(&out.schema);
        // The copies add at most the budget; each level's own rewrite adds a
        // few nodes (types, closed objects, nullable markers) beside it.
        assert!(n <= 2 * input + budget, "{t}: {n} nodes from {input} (sizeBudget {budget})");
        if ["google", "groq", "moonshot", "llamacpp"].contains(&t.as_str()) {
            let collapsed: Vec<&str> = out.report.diagnostics.iter().filter(|d| d.code == "any-of-collapsed").map(|d| d.pointer.as_str()).collect();
            assert!(!collapsed.is_empty(), "{t}: the collapse is reported");
            assert!(collapsed.iter().all(|p| p.starts_with("/properties/root") && !p.contains("anyOf")), "{t}: at the union's node: {collapsed:?}");
            // The outermost unions collapse; the innermost were distributed.
            assert!(collapsed.contains(&"/properties/root"), "{t}: {collapsed:?}");
        }
    }
}

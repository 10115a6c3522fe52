//! WordPress abilities (seed 002): the corpus's ability schemas compiled for the
//! four WordPress targets; no requirement is lost, and the authoring lint.
use toolschema::json;
use toolschema::doc::Value;
use toolschema::{check, targets, wordpress, Options};

fn abilities() -> Vec<(String, Value)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/wordpress-abilities.json");
    let entries: Vec<Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    entries.into_iter().map(|e| (e["name"].as_str().unwrap_or("?").to_string(), e["schema"].clone())).collect()
}

/// `(path to the object, property name)` for every property a schema requires,
/// by draft-03 `required: true` or a draft-04 array, following `properties` and `items`.
fn required_props(schema: &Value, at: &str, out: &mut Vec<(String, String)>) {
    let Some(m) = schema.as_object() else { return };
    if let Some(Value::Array(r)) = m.get("required") {
        out.extend(r.iter().filter_map(Value::as_str).map(|n| (at.to_string(), n.to_string())));
    }
    if let Some(Value::Object(props)) = m.get("properties") {
        for (name, p) in props {
            if p.get("required") == Some(&json!(true)) {
                out.push((at.to_string(), name.to_string()));
            }
            required_props(p, &format!("{at}/properties/{name}"), out);
        }
    }
    if let Some(items) = m.get("items") {
        required_props(items, &format!("{at}/items"), out);
    }
}

#[test]
fn every_ability_compiles_for_every_wordpress_target_and_keeps_its_requirements() {
    let mut checked = 0;
    for (name, schema) in abilities() {
        let mut wanted = Vec::new();
        required_props(&schema, "", &mut wanted);
        let scalar = !schema.get("type").is_some_and(|t| t == "object") && schema.get("properties").is_none();
        for wp in ["openai", "anthropic", "google", "default"] {
            let out = wordpress::compile_ability_schema(&schema, wp, &Options::default()).unwrap_or_else(|e| panic!("{name} {wp}: {e}"));
            let target = match (wp, out.strict) {
                ("openai" | "default", Some(true)) => "openai-strict",
                ("openai" | "default", _) => "openai",
                ("anthropic", Some(true)) => "anthropic-strict",
                ("anthropic", _) => "anthropic",
                _ => "google",
            };
            assert_eq!(check(&out.schema, targets::get(target).unwrap()), vec![], "{name} {wp}");
            let base = if scalar { "/properties/value" } else { "" };
            for (at, prop) in &wanted {
                let obj = out.schema.pointer(&format!("{base}{at}")).unwrap_or_else(|| panic!("{name} {wp}: {at} gone"));
                let req = obj["required"].as_array().unwrap_or_else(|| panic!("{name} {wp}: no required at {at}: {obj}"));
                assert!(req.contains(&json!(prop)), "{name} {wp}: {prop:?} no longer required at {at}");
                // Required stays required, not merely present-and-nullable.
                let p = &obj["properties"][prop.as_str()];
                assert!(p.get("nullable").is_none() && !p["anyOf"].as_array().is_some_and(|b| b.contains(&json!({"type": "null"}))), "{name} {wp}: {prop} became nullable");
                checked += 1;
            }
            assert!(out.schema.to_string().find("\"context\"").is_none_or(|_| !schema.to_string().contains("\"context\":[")), "{name}: context stripped");
        }
    }
    assert!(checked > 10, "the WordPress corpus has required fields to check ({checked})");
}

#[test]
fn wordpress_only_keywords_go_and_validation_moves_to_descriptions() {
    let schema = json!({"type": "object", "properties": {
        "id": {"type": "integer", "required": true, "minimum": 1, "context": ["view", "edit"], "readonly": true, "arg_options": {"sanitize_callback": "absint"}},
        "color": {"type": "string", "format": "hex-color", "oneOf": [{"pattern": "^#"}, {"enum": ["red"]}]}
    }});
    let out = wordpress::compile_ability_schema(&schema, "openai", &Options::default()).unwrap();
    let mut keys = Vec::new();
    toolschema::walk::visit(&out.schema, &mut Default::default(), &mut |n, _| {
        keys.extend(n.as_object().into_iter().flat_map(|m| m.keys().cloned()));
    });
    for gone in ["context", "readonly", "arg_options", "oneOf", "minimum", "format"] {
        assert!(!keys.iter().any(|k| k == gone), "{gone} in {}", out.schema);
    }
    assert_eq!(out.schema["properties"]["id"]["description"], json!("{minimum: 1}"));
    assert_eq!(out.schema["required"], json!(["id", "color"]));
    assert_eq!(out.strict, Some(true));
}

#[test]
fn scalar_ability_input_is_wrapped() {
    let schema = json!({"type": "string", "enum": ["a", "b"], "required": false});
    for wp in ["openai", "anthropic", "google", "default"] {
        let out = wordpress::compile_ability_schema(&schema, wp, &Options::default()).unwrap();
        assert_eq!(out.schema["type"], "object", "{wp}");
        assert_eq!(out.schema["properties"]["value"]["enum"], json!(["a", "b"]), "{wp}");
        assert!(out.report.has("root-wrapped"), "{wp}");
    }
    let e = wordpress::compile_ability_schema(&schema, "bing", &Options::default()).unwrap_err();
    assert_eq!(e.code(), "unknown-target");
}

#[test]
fn lint_gives_authoring_guidance_with_pointers() {
    let schema = json!({"type": "object", "properties": {
        "id": {"type": "integer", "required": true, "readonly": true},
        "shape": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "inner": {"type": "object", "properties": {}, "additionalProperties": false}
    }});
    let lints: Vec<(String, String)> = wordpress::lint(&schema).into_iter().map(|v| (v.code.to_string(), v.pointer)).collect();
    assert_eq!(
        lints,
        vec![
            ("additional-properties-missing".into(), "".into()),
            ("draft3-required".into(), "/properties/id/required".into()),
            ("readonly-casing".into(), "/properties/id/readonly".into()),
            ("one-of".into(), "/properties/shape/oneOf".into()),
        ]
    );
    assert!(wordpress::lint(&json!({"type": "object", "properties": {}, "additionalProperties": false, "required": []})).is_empty());
}

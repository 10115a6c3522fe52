//! Answers that name what did not change (`doc::write_sharing`): with every
//! `SAME` replaced by the input's value at its place, the shared answer is
//! the plain answer, byte for byte, on the corpus and the fixtures, for every
//! target, from compact and from indented input text.
mod common;

use toolschema::api;
use toolschema::doc::{Map, Value};
use toolschema::targets;

/// What js/share.mjs does: each mark becomes the input's value at its place.
fn assemble(skeleton: Value, input: Option<&Value>) -> Value {
    match skeleton {
        Value::String(s) if s == "\0" => input.expect("a mark has an input value at its place").clone(),
        Value::Object(m) => {
            let here = input.and_then(Value::as_object);
            Value::Object(m.into_iter().map(|(k, v)| {
                let at = here.and_then(|o| o.get(k.as_str()));
                (k, assemble(v, at))
            }).collect::<Map>())
        }
        Value::Array(items) => {
            let here = input.and_then(Value::as_array);
            Value::Array(items.into_iter().enumerate().map(|(i, v)| assemble(v, here.and_then(|a| a.get(i)))).collect())
        }
        other => other,
    }
}

/// The shared answer, assembled, must be the plain one; returns how many
/// bytes of the schema the marks saved.
fn check(text: &str, input: &Value, target: &str, options: &str) -> usize {
    for (plain, shared) in [
        (api::normalize_schema_json(text, target, options), api::normalize_schema_json_sharing(text, target, options)),
        (api::normalize_json(text, target, options), api::normalize_json_sharing(text, target, options)),
    ] {
        let plain: Value = toolschema::doc::from_str(&plain).unwrap();
        let shared: Value = toolschema::doc::from_str(&shared).unwrap();
        if let Some(answer) = shared.get("ok") {
            // Answered plainly: only a schema that went out strict, or one
            // holding a string equal to the mark's.
            assert_eq!(Some(answer), plain.get("ok"));
            let strict = answer.get("strict") == Some(&Value::Bool(true));
            assert!(strict || plain.to_string().contains(r#""\u0000""#), "{target}: {text}");
            continue;
        }
        let (Some(plain), Some(shared)) = (plain.get("ok"), shared.get("shared")) else {
            assert_eq!(plain.get("error"), shared.get("error"), "{target}: {text}");
            return 0;
        };
        let mut assembled = shared.clone();
        let slot = assembled.as_object_mut().unwrap().get_mut("schema").unwrap();
        let schema = std::mem::take(slot);
        let saved = plain["schema"].to_string().len().saturating_sub(schema.to_string().len());
        *slot = assemble(schema, Some(input));
        // Key order counts: compare the text.
        let (want, got) = (plain.to_string(), assembled.to_string());
        assert_eq!(got, want, "{target} {options}: {text}");
        if saved > 0 {
            return saved;
        }
    }
    0
}

#[test]
fn shared_answers_assemble_to_the_plain_answer() {
    let corpus = common::corpus();
    assert!(corpus.len() > 300);
    let ids = targets::ids();
    let (mut saved, mut marked) = (0, 0);
    for (_, schema) in &corpus {
        let compact = schema.to_string();
        let indented = format!("{schema:#}");
        for target in &ids {
            let s = check(&compact, schema, target, "");
            saved += s;
            marked += usize::from(s > 0);
            check(&indented, schema, target, "");
        }
        check(&compact, schema, "openai-strict", r#"{"strictStage":"sanitize"}"#);
    }
    // Most answers share something (a test that marks nothing proves nothing).
    assert!(marked * 2 > corpus.len() * ids.len(), "{marked} of {} answers marked", corpus.len() * ids.len());
    assert!(saved > 1_000_000, "{saved} bytes saved");
}

#[test]
fn fixtures_assemble_to_the_plain_answer() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for dir in std::fs::read_dir(root).unwrap() {
        let path = dir.unwrap().path().join("input.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(input) = toolschema::doc::from_str(&text) else { continue };
        for t in targets::TARGETS {
            check(&text, &input, t.id, "");
            check(&input.to_string(), &input, t.id, "");
        }
    }
}

#[test]
fn tool_lists_assemble_to_the_plain_answer() {
    let corpus = common::corpus();
    let schemas: Vec<&Value> = corpus.iter().filter(|(id, _)| id.starts_with("mcp-")).take(80).map(|(_, s)| s).collect();
    let openai = Value::Array(schemas.iter().enumerate().map(|(i, s)| toolschema::json!({"type": "function", "function": {"name": format!("t{i}"), "parameters": (*s).clone()}})).collect());
    let mcp = toolschema::json!({"tools": schemas.iter().enumerate().map(|(i, s)| toolschema::json!({"name": format!("t{i}"), "inputSchema": (*s).clone()})).collect::<Vec<_>>()});
    let mut marked = 0;
    for list in [openai, mcp] {
        let text = list.to_string();
        for target in targets::ids() {
            let options = format!(r#"{{"target":"{target}"}}"#);
            let plain: Value = toolschema::doc::from_str(&api::normalize_tools_json(&text, &options)).unwrap();
            let shared: Value = toolschema::doc::from_str(&api::normalize_tools_json_sharing(&text, &options)).unwrap();
            let Some(shared) = shared.get("shared") else {
                assert_eq!(shared.get("ok"), plain.get("ok"), "{target}");
                continue;
            };
            let mut assembled = shared.clone();
            let slot = assembled.as_object_mut().unwrap().get_mut("tools").unwrap();
            let skeleton = std::mem::take(slot);
            marked += usize::from(skeleton.to_string().contains(r#""\u0000""#));
            *slot = assemble(skeleton, Some(&list));
            assert_eq!(assembled.to_string(), plain["ok"].to_string(), "{target}");
        }
    }
    assert!(marked > 20, "{marked} lists marked");
}

#[test]
fn edge_cases() {
    let cases = [
        // Unchanged whole: the schema is one mark.
        (r#"{"type":"object","properties":{"a":{"type":"string"}}}"#, "mcp"),
        // A string equal to the mark itself: answered plainly.
        (r#"{"type":"string","enum":["\u0000","b"],"description":"\u0000"}"#, "mcp"),
        (r#"{"type":"object","properties":{"a":{"const":"\u0000"}}}"#, "google"),
        // Keys written with escapes the writer writes differently.
        (r#"{"type":"object","properties":{"\u0061":{"type":"string"},"b\/c":{"type":"integer"}}}"#, "mcp"),
        // Reordered, removed and added members; arrays longer and shorter.
        (r#"{"properties":{"a":{"type":"string"}},"type":"object","additionalProperties":false,"required":["a"]}"#, "google"),
        (r#"{"type":["string","null"],"enum":["a",null]}"#, "google"),
        (r#"{"anyOf":[{"type":"string"},{"type":"null"},{"type":"integer","minimum":1}]}"#, "openai-strict"),
        (r#"{"type":"object","properties":{"__proto__":{"type":"string"},"x":{"type":"number","minimum":1.50}}}"#, "mcp"),
        ("  {\n \"type\" : \"object\" , \"properties\" : { \"a\" : { \"type\" : \"string\" } , \"b\":[ 1 , 2 ] } }  ", "google"),
        (r##"{"$defs":{"A":{"type":"string"}},"type":"object","properties":{"a":{"$ref":"#/$defs/A"},"b":{"$ref":"#/$defs/A"}}}"##, "google"),
        (r#"{"type":"object","properties":{"a":{"type":"string"}},"propertyOrdering":["a"]}"#, "google"),
        // Given back as it came but for its `$schema` (`untouched`): its
        // members marked without reading the input, a string equal to the
        // mark's among them (read back as the input's, which it is).
        (r#"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"}},"description":"\u0000"}"#, "mcp"),
        (r#"{"type":"object","properties":{"a":{"type":"string","description":"\u0000"}},"required":["a"]}"#, "openai-responses"),
    ];
    for (text, target) in cases {
        let input = toolschema::doc::from_str(text).unwrap();
        check(text, &input, target, "");
    }
    // A string value equal to the mark's makes the answer plain.
    let out = api::normalize_schema_json_sharing(r#"{"type":"string","enum":["\u0000"]}"#, "mcp", "");
    assert!(out.starts_with("{\"ok\":"), "{out}");
    // An unchanged schema is one mark.
    let out = api::normalize_schema_json_sharing(r#"{"type":"object","properties":{"a":{"type":"string"}}}"#, "mcp", "");
    assert_eq!(out, format!("{{\"shared\":{{\"schema\":{}}}}}", toolschema::doc::SAME));
    // One that lost only its `$schema`: the root's members, its containers marked.
    let out = api::normalize_schema_json_sharing(
        r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#,
        "mcp",
        "",
    );
    let same = toolschema::doc::SAME;
    assert_eq!(out, format!(r#"{{"shared":{{"schema":{{"type":"object","properties":{same},"required":{same}}}}}}}"#));
}

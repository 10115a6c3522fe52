//! What the JSON entry points answer with, written by `doc::WriteJson`,
//! against serde_json writing the same values through the `Serialize` the
//! Rust API keeps: byte for byte, over the corpus x every target
//! (normalizations with their reports, checks), tool lists in several shapes
//! (telemetry), the round trip's fixtures (restore, repair, validate,
//! prepare) and `{:#}` of every corpus value.
mod common;

use serde::Serialize;
use toolschema::args::{self, RestoreOptions};
use toolschema::doc::{Value, WriteJson};
use toolschema::{json, targets, Options};

fn same<T: WriteJson + Serialize>(what: &str, v: &T) {
    assert_eq!(v.to_json_text(), serde_json::to_string(v).unwrap(), "{what}");
}

#[test]
fn normalizations_and_checks_write_as_serde_writes_them() {
    let mut written = 0;
    for (id, schema) in common::corpus() {
        for t in targets::TARGETS {
            if let Ok(out) = toolschema::normalize(&schema, t, &Options::default()) {
                same(&format!("{id} {}", t.id), &out);
                written += 1;
            }
            same(&format!("check {id} {}", t.id), &toolschema::check(&schema, t));
        }
        same(&format!("lint {id}"), &toolschema::wordpress::lint(&schema));
    }
    assert!(written > 9000, "{written} normalizations written");
}

#[test]
fn telemetry_writes_as_serde_writes_it() {
    let corpus = common::corpus();
    for chunk in corpus.chunks(20) {
        // Names a provider refuses (renamed: `providerName`), a duplicate, a
        // tool without a schema and one that is not a tool, in every shape.
        let mut tools: Vec<Value> = chunk
            .iter()
            .enumerate()
            .map(|(i, (id, schema))| json!({"type": "function", "function": {"name": format!("tool {i}: {}", &id[..id.len().min(30)]), "parameters": schema}}))
            .collect();
        tools.push(json!({"type": "function", "function": {"name": "tool 0"}}));
        tools.push(json!("not a tool"));
        let gemini: Vec<Value> = chunk.iter().enumerate().map(|(i, (_, s))| json!({"name": format!("g{i}"), "parametersJsonSchema": s})).collect();
        for list in [Value::Array(tools.clone()), json!({"tools": tools}), json!([{"functionDeclarations": gemini}])] {
            for t in targets::TARGETS {
                if let Ok(out) = toolschema::tools::normalize_tools(&list, t, &Options::default()) {
                    same(&format!("tools {}", t.id), &out);
                }
            }
        }
    }
}

#[test]
fn round_trip_answers_write_as_serde_writes_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/arguments");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for path in files {
        let f: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let name = path.display().to_string();
        let (schema, args_in) = (&f["schema"], &f["args"]);
        let opts: RestoreOptions = toolschema::doc::from_value(f.get("options").cloned().unwrap_or(Value::Null)).unwrap_or_default();
        let target = targets::get(f.get("target").and_then(Value::as_str).unwrap_or("google")).expect("a known target");
        if let Ok(out) = args::restore(args_in, schema, target, &opts) {
            same(&format!("restore {name}"), &out);
        }
        if let Ok(out) = args::repair(args_in, schema, 256) {
            same(&format!("repair {name}"), &out);
        }
        if let Ok(out) = args::validate(args_in, schema, 256) {
            same(&format!("validate {name}"), &out);
        }
        if let Ok(out) = args::prepare(args_in, schema, target, &opts) {
            same(&format!("prepare {name}"), &out);
        }
    }
    same("unparsable", &args::unparsable("{\"a\": ", "EOF while parsing a value at line 1 column 6"));
    same("failed call", &args::failed_call(json!({"a": 1}), "there is no tool named \"x\"", "tool", "Call one of these tools instead: y".into()));
}

#[test]
fn values_indent_as_serde_indents_them() {
    for (id, schema) in common::corpus() {
        assert_eq!(format!("{schema:#}"), serde_json::to_string_pretty(&schema).unwrap(), "{id}");
        assert_eq!(format!("{schema}"), serde_json::to_string(&schema).unwrap(), "{id}");
    }
    for v in [json!([]), json!({}), json!([[], {}, [1, [2, {}]], {"a": {"b": []}}]), json!("a\"\n\u{1}"), json!(null)] {
        assert_eq!(format!("{v:#}"), serde_json::to_string_pretty(&v).unwrap());
    }
}

//! `untouched` says yes only where the whole run gives the schema back with
//! just the root's `$schema` gone: held against the run itself, target by
//! target, over the corpus, the fixtures' inputs and generated schemas that
//! sit on either side of each of its conditions.
mod common;

use toolschema::doc::{json_text, Value};
use toolschema::json;
use toolschema::options::Options;
use toolschema::untouched::{strip_root, untouched};

fn quiet() -> Options {
    Options { quiet: true, ..Options::default() }
}

/// Options that take the run (any but the defaults do) and change nothing
/// else for the schemas here, all far shallower than either limit.
fn run_options(quiet: bool) -> Options {
    Options { quiet, max_depth: 255, ..Options::default() }
}

/// The report as JSON text.
fn report_text(r: &toolschema::Report) -> String {
    use toolschema::doc::WriteJson;
    let mut out = String::new();
    r.write_json(&mut out);
    out
}

/// For every target: whether `untouched` said yes, after checking that the
/// run agrees wherever it did, quiet and with its report.
fn agree(id: &str, schema: &Value) -> usize {
    let mut yes = 0;
    for target in toolschema::targets::TARGETS {
        for quiet in [true, false] {
            let opts = Options { quiet, ..Options::default() };
            if !untouched(schema, target, &opts) {
                continue;
            }
            yes += 1;
            let run = toolschema::normalize(schema, target, &run_options(quiet)).unwrap_or_else(|e| panic!("{id} on {}: {e}", target.id));
            let mut kept = schema.clone();
            strip_root(&mut kept);
            assert_eq!(json_text(&run.schema), json_text(&kept), "{id} on {}: untouched, but the run changed it", target.id);
            let given = toolschema::normalize(schema, target, &opts).unwrap();
            assert_eq!(json_text(&given.schema), json_text(&run.schema), "{id} on {}", target.id);
            assert_eq!(report_text(&given.report), report_text(&run.report), "{id} on {} (quiet: {quiet})", target.id);
            if !quiet {
                continue;
            }
            // The JSON entry point, and a request body's tools with and without telemetry.
            let text = json_text(schema);
            let answer = toolschema::api::normalize_schema_json(&text, target.id, "{}");
            assert_eq!(answer, format!("{{\"ok\":{{\"schema\":{}}}}}", json_text(&run.schema)), "{id} on {}", target.id);
            if target.id == "openai" {
                let body = format!(r#"{{"model":"m","tools":[{{"type":"function","function":{{"name":"t","parameters":{text}}}}}]}}"#);
                let answer_with = |options: &str, telemetry: bool| toolschema::api::normalize_tools_text(&body, options, telemetry);
                let given = answer_with(r#"{"target":"openai"}"#, true);
                assert!(given.contains(&json_text(&run.schema)), "{id}: {given}");
                assert_eq!(given, answer_with(r#"{"target":"openai","maxDepth":255}"#, true), "{id}");
                assert_eq!(answer_with(r#"{"target":"openai"}"#, false), answer_with(r#"{"target":"openai","maxDepth":255}"#, false), "{id}");
            }
        }
    }
    yes
}

#[test]
fn the_corpus_and_the_fixtures_untouched_are_what_the_run_gives() {
    let mut yes = 0;
    for (id, schema) in common::corpus() {
        yes += agree(&id, &schema);
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for entry in std::fs::read_dir(dir).unwrap() {
        let input = entry.unwrap().path().join("input.json");
        let Ok(text) = std::fs::read_to_string(&input) else { continue };
        let Ok(schema) = toolschema::doc::parse_value(&text) else { continue };
        yes += agree(&input.display().to_string(), &schema);
    }
    // MCP, OpenAI, OpenAI Responses and Mistral take most real schemas so.
    assert!(yes > 600, "untouched said yes {yes} times");
}

/// Small schemas from pieces that each sit on one side of a condition:
/// keywords the run leaves and keywords it rewrites, right and wrong value
/// shapes, booleans where subschemas go, lists where one type goes, empty
/// enums, objects without properties and arrays without items, patterns
/// with and without lookaround, `$schema` at the root and below it.
#[test]
fn generated_schemas_untouched_are_what_the_run_gives() {
    let leaves = [
        json!({"type": "string"}),
        json!({"type": "string", "description": "a name", "minLength": 1, "maxLength": 9}),
        json!({"type": "string", "pattern": "^[a-z]+$", "format": "email"}),
        json!({"type": "string", "pattern": "^(?!x)[a-z]+$"}),
        json!({"type": "string", "enum": ["a", "b"], "default": "a"}),
        json!({"type": "string", "enum": []}),
        json!({"type": ["string", "null"], "enum": ["a"]}),
        json!({"type": "integer", "minimum": 0, "exclusiveMaximum": 10, "examples": [1, 2]}),
        json!({"type": "integer", "exclusiveMinimum": true, "minimum": 0}),
        json!({"type": "number", "multipleOf": 0.5}),
        json!({"type": "boolean", "title": "Flag", "const": true}),
        json!({"type": "array"}),
        json!({"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true}),
        json!({"type": "array", "items": [{"type": "string"}]}),
        json!({"type": "array", "items": true}),
        json!({"type": "object"}),
        json!({"type": "object", "properties": {}, "additionalProperties": true}),
        json!({"type": "object", "properties": {}, "additionalProperties": {"type": "string"}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "a"]}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
        json!({"type": "object", "properties": {"a": {"not": {}}}}),
        json!({"type": "object", "properties": {"a": false}}),
        json!({"type": "date"}),
        json!({"type": "string", "nullable": true}),
        json!({"anyOf": [{"type": "string"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Name"}),
        json!({"anyOf": [{"type": "string"}, {"enum": []}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "string"}]}),
        json!({"anyOf": [{"anyOf": [{"type": "string"}]}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "object", "properties": {"a": {"not": {}}}, "required": ["a"]}, {"type": "null"}]}),
        json!({"anyOf": [{"type": "array"}, {"type": "object"}]}),
        json!({"anyOf": [true, {"type": "null"}]}),
        json!({"type": "object", "properties": {}, "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {}}),
        json!({"type": "object", "properties": {}, "propertyNames": {"pattern": "^(?=a)"}}),
        json!({"type": "object", "properties": {}, "propertyNames": false}),
        json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"$ref": "#/$defs/x"}),
        json!({"not": {"type": "string"}}),
        json!({"type": "string", "x-kind": "id"}),
        json!({"type": "string", "$comment": "c"}),
        json!({"type": "string", "$schema": "http://json-schema.org/draft-07/schema#"}),
        json!({"type": "string", "required": true}),
        json!({"description": "anything"}),
        json!({}),
    ];
    let roots = [
        json!({"type": "object", "properties": {}}),
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {}}),
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {}}),
        json!({"$schema": 4, "type": "object", "properties": {}}),
        json!({"type": "object", "properties": {}, "enum": [{}]}),
        json!({"type": "object", "properties": {}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}),
        json!({"properties": {}}),
        json!({"type": "object"}),
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut yes = 0;
    for case in 0..3000 {
        let mut root = roots[next(roots.len())].clone();
        let Value::Object(m) = &mut root else { unreachable!() };
        if m.contains_key("properties") {
            let mut props = toolschema::doc::Map::new();
            for p in 0..next(4) {
                let mut leaf = leaves[next(leaves.len())].clone();
                // One level further down, at times: an array's items or an object's property.
                if next(3) == 0 {
                    let inner = leaves[next(leaves.len())].clone();
                    leaf = if next(2) == 0 {
                        json!({"type": "array", "items": inner})
                    } else {
                        json!({"type": "object", "properties": {"x": inner}, "required": ["x"]})
                    };
                }
                props.insert(format!("p{p}").into(), leaf);
            }
            let names: Vec<Value> = props.keys().filter(|_| next(2) == 0).map(|k| json!(k.as_str())).collect();
            m.insert("properties".into(), Value::Object(props));
            if !names.is_empty() {
                m.insert("required".into(), Value::Array(names));
            }
        }
        yes += agree(&format!("generated case {case}: {}", json_text(&root)), &root);
    }
    assert!(yes > 1000, "untouched said yes {yes} times");
}

/// Options other than the defaults take the run, and so does every target
/// whose rules are not among those the question knows.
#[test]
fn other_options_and_other_targets_take_the_run() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let mcp = toolschema::targets::get("mcp").unwrap();
    assert!(untouched(&schema, mcp, &quiet()));
    assert!(untouched(&schema, mcp, &Options::default()));
    for options in [r#"{"compact": true}"#, r#"{"maxDepth": 40}"#, r#"{"stripKeywords": ["title"]}"#, r#"{"spill": "none"}"#] {
        let opts = Options { quiet: true, ..Options::from_json(options).unwrap() };
        assert!(!untouched(&schema, mcp, &opts), "{options}");
    }
    let takes: Vec<&str> = toolschema::targets::TARGETS.iter().filter(|t| untouched(&schema, t, &quiet())).map(|t| t.id).collect();
    assert_eq!(takes, ["openai", "openai-responses", "mcp", "mistral"]);
}

/// The capabilities the question does not read take the run: a target made
/// like MCP or OpenAI but for one of them, and a schema its run changes.
#[test]
fn capabilities_the_question_does_not_read_take_the_run() {
    use toolschema::keywords::Names;
    use toolschema::targets::{get, Caps, Target};
    let like = |base: &str, caps: fn(Caps) -> Caps| {
        let base = get(base).unwrap();
        Target { caps: caps(base.caps), ..*base }
    };
    let cases = [
        // A kept keyword stripped as well (`title`): `strip-unsupported` takes it out.
        (
            like("mcp", |c| Caps { strip: Names::new(&["$schema", "nullable", "title"]), ..c }),
            json!({"type": "object", "properties": {"a": {"type": "string", "title": "A"}}}),
        ),
        // `$schema` kept: the upgrade writes the 2020-12 one in its place.
        (
            like("mcp", |c| Caps { strip: Names::new(&["nullable"]), ..c }),
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {}}),
        ),
        // Object-only fields: a string node loses its `required`.
        (
            like("openai", |c| Caps { object_only_fields: true, ..c }),
            json!({"type": "object", "properties": {"a": {"type": "string", "required": ["x"]}}}),
        ),
        // Declared names only: `b` goes.
        (
            like("openai", |c| Caps { required_declared: true, ..c }),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}),
        ),
    ];
    for (target, schema) in cases {
        let run = toolschema::normalize(&schema, &target, &run_options(true)).unwrap();
        let mut kept = schema.clone();
        strip_root(&mut kept);
        assert_ne!(json_text(&run.schema), json_text(&kept), "{}: the run changes this schema", json_text(&schema));
        assert!(!untouched(&schema, &target, &quiet()), "{}", json_text(&schema));
    }
    // Where objects are written with `properties` and `additionalProperties`
    // cannot be, the run says that an object with none takes any members:
    // a call with its report takes the run, a quiet one need not.
    let target = like("openai", |c| Caps { strip: Names::new(&["$schema", "additionalProperties"]), ..c });
    let schema = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}});
    let run = toolschema::normalize(&schema, &target, &run_options(false)).unwrap();
    assert_eq!(json_text(&run.schema), json_text(&schema));
    assert!(run.report.has("free-form-object-unexpressed"), "{}", report_text(&run.report));
    assert!(!untouched(&schema, &target, &Options::default()));
    assert!(untouched(&schema, &target, &quiet()));
}

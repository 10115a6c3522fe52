//! The round trip (restore, repair, validate, prepare) on the fixtures in
//! tests/arguments/: one file per rule, each with the arguments a model sent
//! and what must come back. Every fixture also checks that a second pass
//! changes nothing (the output fits, so nothing is rewritten again). Each
//! fixture is its own test (libtest-mimic): `cargo test --test arguments -- <name>`.
//!
//! A fixture with `"encoded": ["mapsAsEntries", ...]` holds arguments sent in
//! a lossless encoding (issue 18): it runs where normalizing its schema for
//! its target counts those encodings, and is ignored, with the reason, where
//! the target does not encode them. `args::encoded`'s unit tests run the same
//! fixtures with the encodings forced.
use libtest_mimic::{Arguments, Failed, Trial};
use toolschema::doc::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use toolschema::args::{self, RestoreOptions};
use toolschema::targets;

struct Outcome {
    args: Option<Value>,
    codes: Vec<String>,
    lossy: bool,
    messages: Option<Vec<String>>,
    ok: Option<bool>,
}

fn call(kind: &str, f: &Value, args_in: &Value) -> Outcome {
    let schema = &f["schema"];
    let opts: RestoreOptions =
        toolschema::doc::from_value(f.get("options").cloned().unwrap_or(Value::Null))
            .unwrap_or_default();
    let target = f
        .get("target")
        .and_then(Value::as_str)
        .map(|t| targets::get(t).expect("known target"));
    let depth = 256;
    let codes = |r: &toolschema::Report| {
        r.diagnostics
            .iter()
            .map(|d| d.code.to_string())
            .collect::<Vec<_>>()
    };
    match kind {
        "restore" => {
            let out = args::restore(
                args_in,
                schema,
                target.expect("restore needs a target"),
                &opts,
            )
            .expect("restore");
            Outcome {
                codes: codes(&out.report),
                lossy: out.report.lossy,
                args: Some(out.args),
                messages: None,
                ok: None,
            }
        }
        "repair" => {
            let out = args::repair(args_in, schema, depth).expect("repair");
            Outcome {
                codes: codes(&out.report),
                lossy: out.report.lossy,
                args: Some(out.args),
                messages: None,
                ok: None,
            }
        }
        "validate" => {
            let out = args::validate(args_in, schema, depth).expect("validate");
            let messages = out.errors.iter().map(|e| e.message.clone()).collect();
            Outcome {
                codes: Vec::new(),
                lossy: false,
                args: None,
                messages: Some(messages),
                ok: Some(out.valid),
            }
        }
        "prepare" => {
            let out = args::prepare(
                args_in,
                schema,
                target.expect("prepare needs a target"),
                &opts,
            )
            .expect("prepare");
            let messages = out.errors.iter().map(|e| e.message.clone()).collect();
            Outcome {
                codes: codes(&out.report),
                lossy: out.report.lossy,
                args: Some(out.args),
                messages: Some(messages),
                ok: Some(out.ok),
            }
        }
        other => panic!("unknown call {other:?}"),
    }
}

fn text(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

/// Codes that record a finding, not a rewrite: a second pass over the output
/// finds it again.
const FINDINGS: &[&str] = &["duplicate-key", "any-not-json"];

/// The encodings a fixture needs (`encoded`) that normalizing its schema for
/// its target does not count.
fn missing_encodings(f: &Value) -> Vec<String> {
    let Some(needed) = f.get("encoded").and_then(Value::as_array) else { return Vec::new() };
    let target = targets::get(f["target"].as_str().expect("an encoded fixture names its target")).expect("known target");
    let opts: RestoreOptions = toolschema::doc::from_value(f.get("options").cloned().unwrap_or(Value::Null)).unwrap_or_default();
    let out = toolschema::normalize(&f["schema"], target, &opts.normalize.unwrap_or_default()).expect("normalize");
    needed
        .iter()
        .filter_map(Value::as_str)
        .filter(|c| out.report.counters.get(*c).map_or(true, |n| *n == 0))
        .map(String::from)
        .collect()
}

/// Every fixture file is its own trial, named after it (`cargo test --test arguments --
/// <name>`), beside the hostile-input test; trials run in parallel.
fn main() -> ExitCode {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/arguments");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let found = paths.len();
    let mut trials = vec![
        Trial::test("the-argument-fixture-set-is-complete", move || {
            if found >= 30 {
                Ok(())
            } else {
                Err(format!("expected the argument fixtures, found {found}").into())
            }
        }),
        Trial::test("hostile_arguments_and_schemas_are_bounded", || {
            hostile_arguments_and_schemas_are_bounded();
            Ok(())
        }),
    ];
    trials.extend(paths.into_iter().map(|path| {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let f: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let missing = missing_encodings(&f);
        let trial = Trial::test(name, move || argument_fixture(&path));
        if missing.is_empty() {
            trial
        } else {
            trial.with_ignored_flag(true).with_kind(format!("target does not encode {}", missing.join(", ")))
        }
    }));
    libtest_mimic::run(&args, trials).exit_code()
}

/// One fixture: the call's output against `expect`, a stable second pass, and input that fits
/// left alone. Every problem, one per line.
fn argument_fixture(path: &Path) -> Result<(), Failed> {
    let f: Value = serde_json::from_str(&std::fs::read_to_string(path).map_err(|e| e.to_string())?)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let kind = f["call"].as_str().ok_or("the fixture needs a \"call\"")?;
    let expect = &f["expect"];
    let out = call(kind, &f, &f["args"]);
    let mut problems = Vec::new();
    if let Some(want) = expect.get("args") {
        let got = out.args.as_ref().unwrap();
        if text(got) != text(want) {
            problems.push(format!("args {} != expected {}", text(got), text(want)));
        }
    }
    if let Some(want) = expect.get("codes") {
        let want: Vec<String> = toolschema::doc::from_value(want.clone()).unwrap();
        if out.codes != want {
            problems.push(format!("codes {:?} != expected {want:?}", out.codes));
        }
    }
    if let Some(want) = expect.get("lossy").and_then(Value::as_bool) {
        if out.lossy != want {
            problems.push(format!("lossy {} != expected {want}", out.lossy));
        }
    }
    if let Some(want) = expect.get("messages") {
        let want: Vec<String> = toolschema::doc::from_value(want.clone()).unwrap();
        if out.messages.as_ref() != Some(&want) {
            problems.push(format!(
                "messages {:#?} != expected {want:#?}",
                out.messages
            ));
        }
    }
    for key in ["ok", "valid"] {
        if let Some(want) = expect.get(key).and_then(Value::as_bool) {
            if out.ok != Some(want) {
                problems.push(format!("{key} {:?} != expected {want}", out.ok));
            }
        }
    }
    // A second pass over the output changes nothing.
    if let Some(first) = &out.args {
        let again = call(kind, &f, first);
        let rewrites: Vec<&String> = again.codes.iter().filter(|c| !FINDINGS.contains(&c.as_str())).collect();
        if again.args.as_ref().map(text) != Some(text(first)) || !rewrites.is_empty() {
            problems.push(format!(
                "not stable: a second {kind} gave {:?} with {:?}",
                again.args.as_ref().map(text),
                again.codes
            ));
        }
    }
    // Arguments that fit are never rewritten (`emptyStrings` is the opt-in
    // exception; JSON text fits a value of any type, and is decoded where the
    // target sent such values as text).
    let opted_out = f["options"]["emptyStrings"] == Value::Bool(true)
        || f["encoded"].as_array().is_some_and(|e| e.contains(&Value::from("anyValuesAsJson")));
    if let Some(want) = expect.get("args").filter(|_| !opted_out) {
        if args::validate(&f["args"], &f["schema"], 256).unwrap().valid
            && text(want) != text(&f["args"])
        {
            problems.push("the input fits the original but was rewritten".into());
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}

/// Hostile arguments and originals end, bounded, with a result or a clear error.
fn hostile_arguments_and_schemas_are_bounded() {
    use toolschema::json;
    let opts = RestoreOptions::default();
    let strict = targets::get("openai-strict").unwrap();
    // 100,000 levels of arguments: too-deep before any recursion.
    let mut deep = json!(1);
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    for e in [
        args::validate(&deep, &json!({}), 256).unwrap_err(),
        args::repair(&deep, &json!({}), 256).unwrap_err(),
        args::prepare(&deep, &json!({}), strict, &opts).unwrap_err(),
    ] {
        assert_eq!(e.code(), "too-deep");
    }
    std::mem::forget(deep); // dropping 100,000 nested arrays recursively is the test harness's stack, not ours
    // A ref loop that consumes nothing, and one that recurses through properties.
    let looped = json!({"$ref": "#", "properties": {"a": {"$ref": "#"}}});
    assert!(args::validate(&json!({"a": {"a": {"a": 1}}}), &looped, 256).unwrap().valid);
    let out = args::prepare(&json!({"a": {"a": null}}), &looped, strict, &opts).unwrap();
    assert!(out.ok);
    // Nested unions under refs: exponential to evaluate naively; bounded by the step budget.
    // Each definition refers twice to the one before: linear to write, 2^40 paths to walk.
    let mut defs = toolschema::doc::Map::new();
    defs.insert("d0".into(), json!({"type": "boolean"}));
    for i in 1..=40 {
        let prev = format!("#/$defs/d{}", i - 1);
        defs.insert(format!("d{i}").into(), json!({"anyOf": [{"$ref": prev}, {"allOf": [{"$ref": prev}]}]}));
    }
    let schema = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d40"}}, "$defs": defs});
    // The step budget is what ends it (tests never time: a wall-clock bound failed
    // on a loaded machine while the work was the same).
    match args::prepare(&json!({"x": "true"}), &schema, strict, &opts) {
        Ok(_) => {}
        Err(e) => assert_eq!(e.code(), "too-large", "{e}"),
    }

    // 100,000 items under uniqueItems, and a 100,000-value enum.
    let many: Vec<Value> = (0..100_000).map(|i| json!(i)).collect();
    let unique = json!({"type": "array", "uniqueItems": true, "items": {"enum": many.clone()}});
    let mut items = many.clone();
    items.push(json!(99_999.0));
    let v = args::validate(&Value::Array(items), &unique, 256).unwrap();
    assert_eq!(v.errors.len(), 1, "{:?}", v.errors.first());
    assert!(v.errors[0].message.contains("items 99999 and 100000 are equal"), "{}", v.errors[0].message);
    // 20,000 entries arrays each naming a key twice: one error each, in order,
    // in place of the type errors at the arrays (one pass, not one per error).
    let rows = json!({"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "string"}}}}});
    let dup = json!([{"key": "a", "value": "x"}, {"key": "a", "value": "y"}]);
    let sent = json!({"rows": vec![dup; 20_000]});
    let out = args::prepare(&sent, &rows, strict, &opts).unwrap();
    assert_eq!(out.errors.len(), 20_000);
    assert!(out.errors.iter().all(|e| e.keyword == "uniqueKeys"));
    assert_eq!(out.errors[19_999].pointer, "/rows/19999");
    // A union of 1,000 objects told apart by a const, with a value that fits
    // no branch as sent: restore tries every branch and keeps what fits best.
    // Each branch that leaves the value as it was is not checked again, so it
    // ends within the step budget (it did not when every try checked the
    // whole union), and prepare repairs the number sent as a string.
    let branches: Vec<Value> = (0..1000)
        .map(|i| json!({"type": "object", "properties": {"kind": {"const": format!("k{i}")}, "v": {"type": "integer"}}, "required": ["kind", "v"]}))
        .collect();
    let union = json!({"type": "object", "properties": {"u": {"anyOf": branches}}, "required": ["u"]});
    let sent = json!({"u": {"kind": "k999", "v": "7"}});
    assert_eq!(args::restore(&sent, &union, strict, &opts).unwrap().args, sent);
    let out = args::prepare(&sent, &union, strict, &opts).unwrap();
    assert!(out.ok, "{:?}", out.errors);
    assert_eq!(out.args, json!({"u": {"kind": "k999", "v": 7}}));
    // A pattern written to backtrack catastrophically runs in linear time.
    let redos = json!({"type": "string", "pattern": "^(a+)+$"});
    let text = format!("{}!", "a".repeat(50_000));
    assert!(!args::validate(&json!(text), &redos, 256).unwrap().valid);
}

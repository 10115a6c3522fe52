//! Shared by the integration tests that read ../shared/corpus.
#![allow(dead_code)]
use toolschema::json;
use toolschema::doc::{Map, Value};
use toolschema::keywords::{self, Slot};

/// Every schema of the corpus as `(id, schema)`, in a stable order.
pub fn corpus() -> Vec<(String, Value)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the corpus is expected at {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let stem = f.file_stem().unwrap().to_string_lossy().to_string();
        let entries: Vec<Value> = serde_json::from_slice(&std::fs::read(&f).unwrap()).unwrap();
        for (i, e) in entries.into_iter().enumerate() {
            out.push((format!("{stem}/{i} ({})", e["name"].as_str().unwrap_or("?")), e["schema"].clone()));
        }
    }
    assert!(out.len() > 300, "corpus looks truncated: {} schemas", out.len());
    out
}

/// Lossy rewrites that widen what validates other than by dropping a keyword
/// (README's table): where the report names one, an instance the relaxed
/// original rejects is explained, not a failure.
pub const WIDENING: &[&str] = &[
    "union-merged",
    "union-collapsed",
    "root-union-merged",
    "root-wrapped",
    "enum-stringified",
    "all-of-overlaid",
    "null-type-widened",
    "tuple-widened",
    "type-inferred-under-exclusion",
    "branch-typed-under-exclusion",
    "one-of-branch-dropped",
    "never-property-dropped",
    "required-undeclared",
    "recursion-cut",
    "ref-budget-exceeded",
    "ref-chain-cut",
    "inline-depth-reached",
    "unresolved-ref",
    "invalid-keyword",
    "invalid-subschema",
    "invalid-type",
    "unsatisfiable-const",
    "pattern-unenforced",
    "fallback",
];

// ---------------------------------------------------------------------------
// Walking schemas through the keyword table (the same slots the core uses).

pub fn for_each_subschema(node: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    let Value::Object(m) = node else { return };
    for (key, child) in m.iter_mut() {
        match (keywords::slot(key), child) {
            (Slot::Schema, c) => f(c),
            (Slot::SchemaArray, Value::Array(items)) => items.iter_mut().for_each(&mut *f),
            (Slot::SchemaMap, Value::Object(entries)) => entries.values_mut().for_each(&mut *f),
            _ => {}
        }
    }
}

/// Applies `f` to every schema node, parents before children.
pub fn rewrite(node: &mut Value, f: &mut dyn FnMut(&mut Map, bool), is_root: bool) {
    if let Value::Object(m) = node {
        f(m, is_root);
    }
    for_each_subschema(node, &mut |c| rewrite(c, f, false));
}

/// OpenAPI's `nullable: true` read as 2020-12 says it (README: "OpenAPI nullable
/// becomes a 2020-12 null type"): the `jsonschema` crate ignores the keyword, so
/// schemas that use it (originals, Gemini outputs) are read this way before it
/// validates against them.
pub fn read_nullable(schema: &mut Value) {
    rewrite(
        schema,
        &mut |m, _| {
            if m.shift_remove("nullable") != Some(Value::Bool(true)) {
                return;
            }
            match m.get_mut("type") {
                Some(Value::String(t)) if t != "null" => {
                    let t = t.clone();
                    m.insert("type".into(), json!([t, "null"]));
                }
                Some(Value::Array(ts)) if !ts.contains(&json!("null")) => ts.push(json!("null")),
                _ => {}
            }
            if let Some(Value::Array(e)) = m.get_mut("enum") {
                if !e.contains(&Value::Null) {
                    e.push(Value::Null);
                }
            }
        },
        true,
    );
}

/// A proptest configuration with a fixed seed unless PROPTEST_RNG_SEED sets
/// one, `cases` cases unless PROPTEST_CASES says otherwise, and no failure
/// files.
pub fn seeded(cases: u32, seed: u64) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let defaults = Config::default();
    let rng_seed = match defaults.rng_seed {
        RngSeed::Random => RngSeed::Fixed(seed),
        fixed => fixed,
    };
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(cases);
    Config { cases, rng_seed, failure_persistence: None, ..defaults }
}

//! Shared by the integration tests that read ../shared/corpus.
#![allow(dead_code)]
use serde_json::Value;

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

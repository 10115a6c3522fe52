//! Shared by the integration tests that read ../shared/corpus.
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

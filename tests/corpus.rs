//! Every real schema of ../shared/corpus through every target: the output passes
//! the target's checker (OpenAI strict: `strict: true` only when it does),
//! normalizing the output again changes nothing, and the input is untouched.
use serde_json::Value;
use toolschema::{check, normalize, targets, Options};

fn corpus() -> Vec<(String, Value)> {
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

#[test]
fn every_corpus_schema_is_accepted_stable_and_untouched() {
    let opts = Options::default();
    let mut failures = Vec::new();
    let corpus = corpus();
    for target in targets::TARGETS {
        for (id, schema) in &corpus {
            let before = schema.clone();
            let out = match normalize(schema, target, &opts) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{} {id}: error {}: {e}", target.id, e.code()));
                    continue;
                }
            };
            assert_eq!(schema, &before, "input mutated");
            let judge = match (out.strict, target.relaxed) {
                (Some(false), Some(relaxed)) => targets::get(relaxed).unwrap(),
                _ => *target,
            };
            for v in check(&out.schema, judge) {
                failures.push(format!("{} {id}: {} at {}: {}", target.id, v.code, v.pointer, v.message));
            }
            if let Some(d) = out.report.diagnostics.iter().find(|d| d.code == "residual-violation") {
                failures.push(format!("{} {id}: {}", target.id, d.message));
            }
            let again = normalize(&out.schema, target, &opts).expect("output normalizes");
            if again.schema.to_string() != out.schema.to_string() || (out.strict == Some(true) && again.strict != Some(true)) {
                failures.push(format!(
                    "{} {id}: not idempotent\n  once:  {}\n  twice: {}",
                    target.id, out.schema, again.schema
                ));
            }
        }
    }
    if !failures.is_empty() {
        let n = failures.len();
        failures.truncate(40);
        panic!("{n} failures:\n{}", failures.join("\n"));
    }
}

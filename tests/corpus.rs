//! Every real schema of ../shared/corpus through every target: the output passes
//! the target's checker (OpenAI strict: `strict: true` only when it does),
//! normalizing the output again changes nothing, the input is untouched, and
//! leaving out the report (`quiet`, the schema-only payload) changes nothing else.
use serde_json::Value;
use toolschema::{check, normalize, targets, Options};

mod common;
use common::corpus;

fn text(v: &Value) -> String {
    serde_json::to_string(v).expect("a Value serializes")
}

#[test]
fn every_corpus_schema_is_accepted_stable_and_untouched() {
    let opts = Options::default();
    let quiet = Options { quiet: true, ..Options::default() };
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
            match normalize(schema, target, &quiet) {
                Ok(q) if text(&q.schema) == text(&out.schema) && q.strict == out.strict && q.strict_error == out.strict_error => {
                    if !q.report.diagnostics.is_empty() || q.report.lossy != out.report.lossy {
                        failures.push(format!("{} {id}: quiet wrote diagnostics or lost the lossy flag", target.id));
                    }
                }
                other => failures.push(format!("{} {id}: quiet differs: {:?}", target.id, other.map(|q| q.schema))),
            }
            let again = normalize(&out.schema, target, &opts).expect("output normalizes");
            // Compared as text: key order is part of the output.
            if text(&again.schema) != text(&out.schema) || (out.strict == Some(true) && again.strict != Some(true)) {
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

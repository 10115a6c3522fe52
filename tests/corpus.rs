//! Every real schema of ../shared/corpus through every target: the output passes
//! the target's checker (OpenAI strict: `strict: true` only when it does),
//! normalizing the output again changes nothing, the input is untouched, and
//! leaving out the report (`quiet`, the schema-only payload) changes nothing else.
//! The same again with `compact`, whose outputs must also be no larger than
//! the plain ones and differ from them only by notes, never a lossy change.
//! And what the report says was spilled is in a description.
use toolschema::doc::Value;
use toolschema::{check, normalize, targets, Options};

mod common;
use common::corpus;

fn text(v: &Value) -> String {
    serde_json::to_string(v).expect("a Value serializes")
}

#[test]
fn every_corpus_schema_is_accepted_stable_and_untouched() {
    every_schema_with(Options::default());
}

#[test]
fn compact_outputs_are_accepted_stable_and_no_larger() {
    let (hoisted, dropped) = every_schema_with(Options { compact: true, ..Options::default() });
    // The corpus has repeated subschemas and ignored keywords: a compact
    // that did nothing would pass every other check.
    assert!(hoisted > 0 && dropped > 0, "compact changed nothing: {hoisted} hoists, {dropped} keywords dropped");
}

/// Every check above for `opts`; with `compact`, also against the plain
/// output. Returns the compact counters summed (hoists, dropped keywords).
fn every_schema_with(opts: Options) -> (u64, u64) {
    let quiet = Options { quiet: true, ..opts.clone() };
    let plain_opts = Options { compact: false, ..opts.clone() };
    let (mut hoisted, mut dropped) = (0, 0);
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
            if opts.compact {
                hoisted += out.report.counters.get("subschemasHoisted").copied().unwrap_or(0);
                dropped += out.report.counters.get("ignoredKeywordsDropped").copied().unwrap_or(0);
                let plain = normalize(schema, target, &plain_opts).expect("the plain run succeeds too");
                let (small, big) = (text(&out.schema).len(), text(&plain.schema).len());
                if small > big || out.strict != plain.strict || out.report.lossy != plain.report.lossy {
                    failures.push(format!("{} {id}: compact is larger ({small} > {big} bytes) or changed strict/lossy", target.id));
                }
                let added = out.report.diagnostics.len() - plain.report.diagnostics.len();
                let notes = out.report.diagnostics.iter().filter(|d| matches!(d.code, "subschema-hoisted" | "ignored-keyword-dropped"));
                if notes.clone().any(|d| d.lossy) || notes.count() != added {
                    failures.push(format!("{} {id}: compact added diagnostics other than its notes", target.id));
                }
                if small == big && text(&out.schema) != text(&plain.schema) {
                    failures.push(format!("{} {id}: compact rewrote without saving a byte", target.id));
                }
            }
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
    (hoisted, dropped)
}

/// The JSON entry points write their envelope by hand around the schema's own
/// writer: the same bytes serde_json writes for the payload, on every corpus
/// schema and target (strict outcomes and strict errors included). The
/// schema-only one runs quiet, and answers what the full run does.
#[test]
fn json_entry_points_write_what_serde_json_writes() {
    use toolschema::api::{normalize_json, normalize_schema_json};
    let corpus = corpus();
    for target in targets::TARGETS {
        for (id, schema) in &corpus {
            let input = text(schema);
            let full = normalize(schema, target, &Options::default()).expect("the corpus normalizes");
            let expected = serde_json::to_string(&serde_json::json!({ "ok": full })).unwrap();
            assert_eq!(normalize_json(&input, target.id, ""), expected, "{id} on {}", target.id);
            let quiet = normalize(schema, target, &Options { quiet: true, ..Options::default() }).unwrap();
            // Quiet leaves out the report and what only feeds it (diagnostics,
            // the residual check of a target that only reports): never the schema.
            assert!(quiet.schema == full.schema && quiet.strict == full.strict, "{id} on {}: quiet differs", target.id);
            assert_eq!(serde_json::to_value(&quiet.strict_error).unwrap(), serde_json::to_value(&full.strict_error).unwrap(), "{id} on {}", target.id);
            let mut payload = serde_json::json!({ "schema": quiet.schema });
            if let Some(strict) = quiet.strict {
                payload["strict"] = strict.into();
            }
            if let Some(e) = &quiet.strict_error {
                payload["strictError"] = serde_json::to_value(e).unwrap();
            }
            let expected = serde_json::to_string(&serde_json::json!({ "ok": payload })).unwrap();
            assert_eq!(normalize_schema_json(&input, target.id, ""), expected, "{id} on {} (schema only)", target.id);
        }
    }
}

/// A rule with trigger keywords (`passes::TRIGGERS`) leaves a node holding
/// none of them as it is and reports nothing, so `passes::apply` may skip it
/// there. Held on every distinct node of the corpus schemas and fixture
/// inputs, and of the target's own outputs (what its rules meet), at the
/// root and below it, for every target; and every trigger names a rule some
/// target runs, always the same function.
#[test]
fn rules_leave_nodes_without_their_trigger_keywords_alone() {
    use std::collections::{HashMap, HashSet};
    use toolschema::doc::Map;
    fn collect(v: &Value, seen: &mut HashSet<String>, out: &mut Vec<Map>) {
        toolschema::walk::nodes(v, &mut |n| {
            if let Value::Object(m) = n {
                if seen.insert(text(n)) {
                    out.push(m.clone());
                }
            }
        });
    }
    let corpus = corpus();
    let mut inputs: Vec<Value> = corpus.iter().map(|(_, s)| s.clone()).collect();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for dir in std::fs::read_dir(fixtures).unwrap() {
        inputs.push(serde_json::from_slice(&std::fs::read(dir.unwrap().path().join("input.json")).unwrap()).unwrap());
    }
    let (mut seen, mut shared) = (HashSet::new(), Vec::new());
    for input in &inputs {
        collect(input, &mut seen, &mut shared);
    }
    let opts = Options::default();
    let mut runs: HashMap<&str, usize> = HashMap::new();
    let mut checked = 0usize;
    for target in targets::TARGETS {
        let (mut own_seen, mut own) = (seen.clone(), Vec::new());
        for input in &inputs {
            if let Ok(out) = normalize(input, target, &opts) {
                collect(&out.schema, &mut own_seen, &mut own);
            }
        }
        for p in target.passes.iter().filter(|p| p.needs != 0) {
            let run = *runs.entry(p.name).or_insert(p.run as usize);
            assert_eq!(run, p.run as usize, "{}: two functions under one trigger name", p.name);
            for node in shared.iter().chain(&own).filter(|n| n.keyword_bits() & p.needs == 0) {
                for below in [false, true] {
                    let mut cx = target.cx(&opts);
                    if below {
                        cx.path.push("properties");
                        cx.path.push("x");
                    }
                    let mut edited = node.clone();
                    (p.run)(&mut edited, &mut cx).unwrap_or_else(|e| panic!("{} on {}: {e}", p.name, target.id));
                    assert!(
                        edited == *node && cx.report.diagnostics.is_empty() && cx.report.counters.is_empty(),
                        "{} on {} acted on a node without its trigger keywords: {}",
                        p.name,
                        target.id,
                        text(&Value::Object(node.clone()))
                    );
                    checked += 1;
                }
            }
        }
    }
    for (name, _) in toolschema::passes::TRIGGERS {
        assert!(runs.contains_key(name), "trigger {name} names no rule any target runs");
    }
    assert!(checked > 100_000, "{checked} rule runs checked");
}

/// "Moved into description" is a promise: every keyword a `keyword-spilled`
/// diagnostic names (and every default a `default-inlined` note moved) is written (`name: value`, as the spill writes it) into
/// some description of the output, on every corpus schema and target, unless
/// a later lossy rewrite reported at that node or above it (a union merged or
/// collapsed, the keyword holding it dropped) replaced the subtree. A merge
/// that kept one side's description once dropped what the other sides' rules
/// had spilled into theirs, with the report saying otherwise.
#[test]
fn every_spilled_keyword_is_in_a_description() {
    fn descriptions<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
        match v {
            Value::Object(m) => {
                for (k, c) in m {
                    match c {
                        Value::String(s) if k == "description" => out.push(s),
                        _ => descriptions(c, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|c| descriptions(c, out)),
            _ => {}
        }
    }
    let (mut checked, mut failures) = (0, Vec::new());
    let corpus = corpus();
    for target in targets::TARGETS {
        for (id, schema) in &corpus {
            let out = normalize(schema, target, &Options::default()).expect("every corpus schema normalizes");
            let mut written = Vec::new();
            descriptions(&out.schema, &mut written);
            // A default the strict targets refuse, "moved into description".
            for d in out.report.diagnostics.iter().filter(|d| d.code == "default-inlined" && d.message.ends_with("it was moved into description")) {
                let Some(value) = schema.pointer(&d.pointer) else { continue };
                let said = format!("(default: {})", toolschema::doc::json_text(value));
                checked += 1;
                if !written.iter().any(|w| w.contains(&said)) {
                    failures.push(format!("{} {id}: {said} at {} is in no description", target.id, d.pointer));
                }
            }
            for d in out.report.diagnostics.iter().filter(|d| d.code == "keyword-spilled") {
                // "allOf patterns "a", "b" cannot stand beside pattern "c" on one node":
                // each entry's pattern the list names (as `{:?}` writes it).
                if let Some(list) = d.message.strip_prefix("allOf patterns ").and_then(|m| m.split_once(" cannot stand beside ")).map(|(l, _)| l) {
                    let Some(Value::Array(entries)) = schema.pointer(&format!("{}/allOf", d.pointer)) else { continue };
                    for p in entries.iter().filter_map(|e| e.get("pattern")).filter_map(Value::as_str) {
                        if !list.split(", ").any(|named| named == format!("{p:?}")) {
                            continue;
                        }
                        let said = format!("pattern: {}", toolschema::doc::json_text(&Value::String(p.to_string())));
                        checked += 1;
                        if !written.iter().any(|w| w.contains(&said)) {
                            failures.push(format!("{} {id}: {said} at {} is in no description", target.id, d.pointer));
                        }
                    }
                    continue;
                }
                let message = d.message.trim_start_matches("root ");
                let Some((names, _)) = message.split_once(" not accepted by ").or_else(|| message.split_once(" ignored by ")) else { continue };
                let replaced = out.report.diagnostics.iter().any(|o| {
                    o.lossy && o.code != "keyword-spilled" && (d.pointer == o.pointer || d.pointer.starts_with(&format!("{}/", o.pointer)))
                });
                if replaced {
                    continue;
                }
                for name in names.split(", ") {
                    // Where the keyword stood in the input (a spill under an
                    // inlined `$ref` or a moved key points elsewhere).
                    let Some(value) = schema.pointer(&format!("{}/{name}", d.pointer)) else { continue };
                    let said = format!("{name}: {}", toolschema::doc::json_text(value));
                    checked += 1;
                    // A pattern may be spilled as the target's regex subset wrote
                    // its escapes (`\\d` as `[0-9]`): the text before the first one.
                    let stem = value.as_str().and_then(|p| p.split_once('\\')).map(|(before, _)| {
                        let quoted = toolschema::doc::json_text(&Value::String(before.to_string()));
                        format!("{name}: {}", &quoted[..quoted.len() - 1])
                    });
                    let rewritten = stem.is_some_and(|stem| written.iter().any(|w| w.contains(&stem)));
                    if !written.iter().any(|w| w.contains(&said)) && !rewritten {
                        failures.push(format!("{} {id}: {} at {} is in no description", target.id, said, d.pointer));
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} spilled keywords were found to check");
    if !failures.is_empty() {
        let n = failures.len();
        failures.truncate(40);
        panic!("{n} spilled keywords are in no description:\n{}", failures.join("\n"));
    }
}

//! Normalizes every schema of a corpus directory for every target and writes
//! one record per (schema, target): the input to the real-consumer checks
//! (tests/consumers) and the side-by-side comparison with peers (tests/peers).
//!
//! cargo run --release --example corpus -- OUT.json [CORPUS_DIR]
//!
//! TOOLSCHEMA_OPTIONS (JSON, e.g. `{"compact": true}`) sets the normalization
//! options, so the consumer suites can be run over other outputs too.
use toolschema::json;
use toolschema::doc::Value;
use std::path::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "target/corpus-records.json".into());
    let dir = args.next().unwrap_or_else(|| "../shared/corpus".into());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read corpus {dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let opts = toolschema::Options::from_json(&std::env::var("TOOLSCHEMA_OPTIONS").unwrap_or_default()).expect("TOOLSCHEMA_OPTIONS");
    let mut records = Vec::new();
    let (mut schemas, mut errors) = (0, 0);
    for file in &files {
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("?").to_string();
        let entries: Vec<Value> = serde_json::from_slice(&std::fs::read(file).expect("read")).expect("corpus file is JSON");
        for (i, entry) in entries.iter().enumerate() {
            schemas += 1;
            for target in toolschema::targets::TARGETS {
                let mut rec = json!({
                    "id": format!("{stem}/{i}"),
                    "name": entry["name"],
                    "target": target.id,
                });
                match toolschema::normalize(&entry["schema"], target, &opts) {
                    Ok(n) => {
                        rec["schema"] = n.schema;
                        if let Some(s) = n.strict {
                            rec["strict"] = json!(s);
                        }
                        if let Some(v) = &n.strict_error {
                            rec["strictError"] = json!(format!("{} {}", v.pointer, v.message));
                        }
                        rec["fallback"] = json!(n.report.has("fallback"));
                        rec["lossy"] = json!(n.report.lossy);
                    }
                    Err(e) => {
                        errors += 1;
                        rec["error"] = json!(format!("{}: {e}", e.code()));
                    }
                }
                records.push(rec);
            }
        }
    }
    if let Some(parent) = Path::new(&out).parent() {
        std::fs::create_dir_all(parent).ok();
    }
    std::fs::write(&out, serde_json::to_vec(&records).expect("serialize")).expect("write records");
    eprintln!("{schemas} schemas x {} targets -> {} records ({errors} errors) in {out}", toolschema::targets::TARGETS.len(), records.len());
}

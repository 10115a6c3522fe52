//! One or more passes of the schema-only JSON entry point (what
//! `normalizeSchemaFor*` runs in wasm) over the real MCP schemas, for a
//! profiler: `valgrind --tool=callgrind target/release/examples/mcp_pass google 3`.
fn main() {
    let mut args = std::env::args().skip(1);
    let target = args.next().unwrap_or_else(|| "google".into());
    let passes: usize = args.next().map_or(1, |n| n.parse().expect("passes"));
    let mut texts = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir("../shared/corpus").expect("corpus").filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.starts_with("mcp-") || !name.ends_with(".json") {
            continue;
        }
        let entries: Vec<toolschema::doc::Value> = serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
        texts.extend(entries.iter().map(|e| e["schema"].to_string()));
    }
    let mut bytes = 0;
    for _ in 0..passes {
        for t in &texts {
            bytes += std::hint::black_box(toolschema::api::normalize_schema_json(t, &target, "")).len();
        }
    }
    eprintln!("{} schemas, {} passes, {} bytes out", texts.len(), passes, bytes);
}

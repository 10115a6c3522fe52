//! The core natively against the Rust peer llmshim 0.30.1, text in and text out, in one
//! criterion run: `make bench`, or
//! `CARGO_TARGET_DIR=$PWD/target/bench-llmshim cargo bench --manifest-path bench/llmshim/Cargo.toml`.
//!
//! - toolschema: `api::normalize_schema_json(text, target, "")`, the export that hands back the
//!   schema alone (parse, normalize, serialize `{"schema", "strict"?}`).
//! - llmshim: `serde_json::from_str` into a `Value`, `llmshim::schema::normalize_for(target, &mut
//!   value)`, `serde_json::to_string`: the peer's schema entry point between the same text ends.
//!   Its process-wide memo is switched off (`LLMSHIM_NO_SCHEMA_CACHE=1`, read on every call),
//!   since every iteration repeats the same schemas and a cached answer is not a normalization;
//!   toolschema's cache lives in the JavaScript package and is not in this path.
//!
//! Both over the same texts (every corpus schema serialized once), per pair of targets, the two
//! contestants back to back within each target. Groups: `llmshim-mcp` (the real MCP servers'
//! schemas, the `mcp-*` files) and `llmshim-corpus` (everything); ids `<contestant>/<target>`.
//! bench/report.mjs reads the medians from `$CARGO_TARGET_DIR/criterion/`, and the count of
//! schemas each side could not normalize (llmshim's fallback to an empty object, toolschema's
//! errors) from `bench/.build/results/llmshim.json`, written here before timing.
use criterion::{BenchmarkId, Criterion, Throughput};
use llmshim::schema::{normalize_for, Target};
use serde_json::{json, Value};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use toolschema::api;

/// toolschema's target for each of llmshim's, by what the request goes to. llmshim's Chat
/// options are not strict (`Options::for_target` sets `strict: false`), so its peer is
/// toolschema's non-strict `openai`.
const PAIRS: &[(&str, Target)] = &[
    ("openai", Target::OpenAiChat),
    ("openai-responses", Target::OpenAiResponses),
    ("anthropic", Target::Anthropic),
    ("google", Target::Google),
    ("cca", Target::CloudCodeAssist),
    ("mcp", Target::Mcp),
];

/// Every corpus schema as JSON text, `(file stem, text)`, files in name order: the order and
/// the serialization bench/core.rs uses.
fn corpus() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let dir = std::env::var_os("TOOLSCHEMA_CORPUS").map_or(dir, Into::into);
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
        out.extend(
            entries
                .iter()
                .map(|e| (stem.clone(), e["schema"].to_string())),
        );
    }
    assert!(
        out.len() > 300,
        "corpus looks truncated: {} schemas",
        out.len()
    );
    out
}

fn toolschema_text(text: &str, target: &str) -> String {
    api::normalize_schema_json(text, target, "")
}

/// llmshim between the same text ends. Input its parser rejects costs the parse only.
fn llmshim_text(text: &str, target: Target) -> Option<String> {
    let mut value: Value = serde_json::from_str(text).ok()?;
    normalize_for(target, &mut value);
    serde_json::to_string(&value).ok()
}

/// What each side could not normalize, per target and set, for the report.
fn outcomes(sets: &[(&str, Vec<&str>)]) -> Value {
    let mut rows = Vec::new();
    for (set, texts) in sets {
        for &(id, target) in PAIRS {
            let errors = texts
                .iter()
                .filter(|t| toolschema_text(t, id).starts_with(r#"{"error""#))
                .count();
            let fallbacks = texts
                .iter()
                .filter(|t| {
                    serde_json::from_str::<Value>(t)
                        .map_or(true, |mut v| normalize_for(target, &mut v).used_fallback)
                })
                .count();
            let bytes: usize = texts.iter().map(|t| t.len()).sum();
            rows.push(json!({
                "set": set, "target": id, "llmshimTarget": format!("{target:?}"), "schemas": texts.len(),
                "bytes": bytes, "toolschemaErrors": errors, "llmshimFallbacks": fallbacks,
            }));
        }
    }
    json!({"llmshim": "0.30.1", "rows": rows})
}

fn main() {
    // Before any thread starts; llmshim reads it on every call.
    std::env::set_var("LLMSHIM_NO_SCHEMA_CACHE", "1");
    let corpus = corpus();
    let all: Vec<&str> = corpus.iter().map(|(_, t)| t.as_str()).collect();
    let mcp: Vec<&str> = corpus
        .iter()
        .filter(|(f, _)| f.starts_with("mcp-"))
        .map(|(_, t)| t.as_str())
        .collect();
    let sets = [("mcp", mcp), ("corpus", all)];

    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.build/results");
    std::fs::create_dir_all(&results).unwrap();
    let summary = outcomes(&sets);
    std::fs::write(
        results.join("llmshim.json"),
        serde_json::to_string_pretty(&summary).unwrap() + "\n",
    )
    .unwrap();

    // Ten samples of a few seconds each, as bench/core.rs: 24 benchmarks, under two minutes.
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    for (set, texts) in &sets {
        let mut group = c.benchmark_group(format!("llmshim-{set}"));
        group.throughput(Throughput::Bytes(
            texts.iter().map(|t| t.len() as u64).sum(),
        ));
        for &(id, target) in PAIRS {
            group.bench_function(BenchmarkId::new("toolschema", id), |b| {
                b.iter(|| {
                    for t in texts {
                        black_box(toolschema_text(black_box(t), id));
                    }
                })
            });
            group.bench_function(BenchmarkId::new("llmshim", id), |b| {
                b.iter(|| {
                    for t in texts {
                        black_box(llmshim_text(black_box(t), target));
                    }
                })
            });
        }
        group.finish();
    }
    c.final_summary();
}

//! The core without the wasm boundary, per target, natively: `cargo bench --bench core`.
//!
//! - `corpus/<target>`: every schema of ../shared/corpus through `normalize`, from parsed values.
//! - `json/<target>`: the same through `api::normalize_json`, the JSON text in and out that the
//!   wasm export runs (parse, normalize, serialize the payload with its report).
//! - `nested-40/<target>`: the 40-level nested object the Node benchmark also times.
//! - `boundary/parse`, `boundary/serialize`: the Rust half of the JSON text crossing alone
//!   (depth pre-scan and parse; serialize), to set against the same steps in wasm.
//! - `doc/arena`, `doc/serde-json-value`: parse and serialize each schema's text through the
//!   document model (src/doc) and through `toolschema::doc::Value` (what `api::parse` does, without
//!   the depth pre-scan), same bytes out; `doc/arena-parse`, `doc/serde-json-value-parse`: the
//!   parse alone. The ratio is the model's head start over the `Value` pipeline.
//!
//! Throughput is in input JSON bytes, so targets and files compare directly. The Node side
//! (bench/compare.mjs) times the same work through the wasm build, against the peers.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use toolschema::json;
use toolschema::doc::Value;
use std::hint::black_box;
use std::time::Duration;
use toolschema::{api, normalize, targets, Options};

#[path = "../tests/common/mod.rs"]
mod common;

fn corpus() -> Vec<Value> {
    common::corpus().into_iter().map(|(_, schema)| schema).collect()
}

/// `depth` levels of `{type: object, properties: {child}, required: [child]}` over a string
/// leaf: the shape bench/lib.mjs builds.
fn nested(depth: usize) -> Value {
    let mut s = json!({"type": "string", "description": "leaf"});
    for level in (1..=depth).rev() {
        s = json!({"type": "object", "description": format!("level {level}"), "properties": {"child": s}, "required": ["child"]});
    }
    s
}

fn bench(c: &mut Criterion) {
    let opts = Options::default();
    let schemas = corpus();
    let texts: Vec<String> = schemas.iter().map(|s| s.to_string()).collect();
    let bytes: u64 = texts.iter().map(|t| t.len() as u64).sum();
    let deep = nested(40);
    let deep_bytes = deep.to_string().len() as u64;

    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Bytes(bytes));
    for target in targets::TARGETS {
        group.bench_function(target.id, |b| {
            b.iter(|| {
                for s in &schemas {
                    black_box(normalize(black_box(s), target, &opts).ok());
                }
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("json");
    group.throughput(Throughput::Bytes(bytes));
    for target in targets::TARGETS {
        group.bench_function(target.id, |b| {
            b.iter(|| {
                for t in &texts {
                    black_box(api::normalize_json(black_box(t), target.id, ""));
                }
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("boundary");
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("parse", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(api::parse(black_box(t), opts.max_depth).ok());
            }
        })
    });
    group.bench_function("serialize", |b| {
        b.iter(|| {
            for s in &schemas {
                black_box(serde_json::to_string(black_box(s)).ok());
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("doc");
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("arena", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(toolschema::doc::Doc::parse(black_box(t), opts.max_depth).and_then(|d| d.to_json()).ok());
            }
        })
    });
    group.bench_function("serde-json-value", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(serde_json::from_str::<Value>(black_box(t)).map(|v| v.to_string()).ok());
            }
        })
    });
    group.bench_function("arena-parse", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(toolschema::doc::Doc::parse(black_box(t), opts.max_depth).ok());
            }
        })
    });
    group.bench_function("serde-json-value-parse", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(serde_json::from_str::<Value>(black_box(t)).ok());
            }
        })
    });
    group.finish();

    let mut group = c.benchmark_group("nested-40");
    group.throughput(Throughput::Bytes(deep_bytes));
    for target in targets::TARGETS {
        group.bench_function(target.id, |b| {
            b.iter(|| black_box(normalize(black_box(&deep), target, &opts).ok()))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Ten samples of a few seconds per benchmark: ~50 of them on a shared machine, and the
    // report reads the medians.
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);

//! Rough per-target timing: a 40-level nested object and the whole corpus.
//! (The benchmark proper, against peers, lives in bench/.)
use std::time::Instant;
fn main() {
    let mut s = toolschema::json!({"type": "string"});
    for _ in 0..40 {
        s = toolschema::json!({"type": "object", "properties": {"c": s, "d": {"type": "integer"}}, "required": ["c"]});
    }
    let dir = "../shared/corpus";
    let mut corpus = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().map_or(true, |x| x != "json") {
            continue;
        }
        let v: Vec<toolschema::doc::Value> = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        corpus.extend(v.into_iter().map(|x| x["schema"].clone()));
    }
    let opts = toolschema::Options::default();
    for t in toolschema::targets::TARGETS {
        let n: u32 = std::env::var("N").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
        let start = Instant::now();
        for _ in 0..n {
            std::hint::black_box(toolschema::normalize(&s, t, &opts).unwrap());
        }
        let deep = start.elapsed() / n;
        let start = Instant::now();
        for x in &corpus {
            std::hint::black_box(toolschema::normalize(x, t, &opts).unwrap());
        }
        println!("{:18} 40-level: {:>8.1?}  corpus ({} schemas): {:>8.1?}", t.id, deep, corpus.len(), start.elapsed());
    }
}

//! Times the JSON entry point on one schema file for each target named:
//! `cargo run --release --example time_file -- schema.json google openai-strict`.
fn main() {
    let mut args = std::env::args().skip(1);
    let text = std::fs::read_to_string(args.next().expect("a schema file")).expect("read");
    for target in args {
        let start = std::time::Instant::now();
        let out = toolschema::api::normalize_schema_json(&text, &target, "");
        println!("{target:18} {:>8.1?} ({} bytes out)", start.elapsed(), out.len());
    }
}

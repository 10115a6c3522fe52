//! Debug helper: normalize one corpus entry for one target and print everything.
//! cargo run --example one -- <corpus-file-stem> <index> <target> [options-json]
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let file = format!("../shared/corpus/{}.json", a[0]);
    let entries: Vec<toolschema::doc::Value> = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    let entry = &entries[a[1].parse::<usize>().unwrap()];
    let opts = toolschema::Options::from_json(a.get(3).map(String::as_str).unwrap_or("")).unwrap();
    let t = toolschema::targets::get(&a[2]).unwrap();
    println!("IN  {}", entry["schema"]);
    match toolschema::normalize(&entry["schema"], t, &opts) {
        Ok(n) => println!("OUT {}", serde_json::to_string_pretty(&n).unwrap()),
        Err(e) => println!("ERR {}: {e}", e.code()),
    }
}

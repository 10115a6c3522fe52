//! Fixture harness. A fixture is a folder under tests/fixtures/:
//!   input.json                 the schema
//!   fixture.json               {"rule", "source", "targets": [ids] | "all", "options"?}
//!   expected/<target>.json     golden output: {"schema": ..., "strict"?: bool}
//!   report/<target>.json       expected diagnostics: [[code, pointer], ...] (lossy ones)
//!   error/<target>.json        expected error: {"code": ..., "pointer": ...}
//! Every fixture runs through every target: the output must pass that target's
//! checker and normalizing it again must change nothing; goldens are compared
//! where present. `TOOLSCHEMA_UPDATE=1 cargo test --test fixtures` rewrites the
//! goldens that exist (and creates them for the targets `fixture.json` lists).
//! Each fixture is its own test (libtest-mimic): `cargo test --test fixtures -- <name>`.
// Outputs are compared as text: key order is data, and `Value` equality ignores it.
#![allow(clippy::cmp_owned)]
use libtest_mimic::{Arguments, Failed, Trial};
use toolschema::json;
use toolschema::doc::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use toolschema::{check, normalize, targets, Options};

fn read(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn write(p: &Path, v: &Value) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, serde_json::to_string_pretty(v).unwrap() + "\n").unwrap();
}

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs
}

/// Every fixture folder is its own trial, named after it: `cargo test --test fixtures --
/// <name>` runs the fixtures whose names contain `<name>` (`--exact` for one), and a failure
/// names its fixture. Trials run in parallel, each writing only its own goldens.
fn main() -> ExitCode {
    let args = Arguments::from_args();
    let update = std::env::var_os("TOOLSCHEMA_UPDATE").is_some();
    let dirs = fixtures();
    let found = dirs.len();
    let mut trials = vec![Trial::test("the-fixture-set-is-complete", move || {
        if found >= 60 {
            Ok(())
        } else {
            Err(format!("expected the full fixture set, found {found}").into())
        }
    })];
    trials.extend(dirs.into_iter().map(|dir| {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        Trial::test(name.clone(), move || fixture_holds(&name, &dir, update))
    }));
    libtest_mimic::run(&args, trials).exit_code()
}

/// One fixture through every target; every failure of it, one per line.
fn fixture_holds(name: &str, dir: &Path, update: bool) -> Result<(), Failed> {
    let mut failures = Vec::new();
    let input = read(&dir.join("input.json"));
    let meta = read(&dir.join("fixture.json"));
    if !meta["rule"].is_string() {
        return Err(format!("{name}: fixture.json needs a rule").into());
    }
    let opts: Options = toolschema::doc::from_value(meta.get("options").cloned().unwrap_or(json!({})))
        .map_err(|e| format!("{name}: bad options: {e}"))?;
    // "targets": "all" lists every target, including ones added later.
    let listed: Vec<String> = match &meta["targets"] {
        Value::String(s) if s == "all" => targets::ids().into_iter().map(String::from).collect(),
        v => v.as_array().map(|a| a.iter().filter_map(|t| t.as_str().map(String::from)).collect()).unwrap_or_default(),
    };
    for target in targets::TARGETS {
        let expected = dir.join("expected").join(format!("{}.json", target.id));
        let report = dir.join("report").join(format!("{}.json", target.id));
        let error = dir.join("error").join(format!("{}.json", target.id));
        let before = input.clone();
        let result = normalize(&input, target, &opts);
        if input != before {
            failures.push(format!("{name} [{}]: input mutated", target.id));
        }
        let out = match result {
            Err(e) => {
                let got = json!({"code": e.code(), "pointer": e.pointer()});
                if update && (error.exists() || listed.iter().any(|t| t == target.id)) {
                    write(&error, &got);
                } else if !error.exists() || read(&error) != got {
                    failures.push(format!("{name} [{}]: unexpected error {got}: {e}", target.id));
                }
                continue;
            }
            Ok(out) => out,
        };
        if error.exists() {
            failures.push(format!("{name} [{}]: expected an error, got a schema", target.id));
        }
        let mut golden = json!({"schema": out.schema});
        if let Some(s) = out.strict {
            golden["strict"] = json!(s);
        }
        let lossy: Vec<Value> = out.report.diagnostics.iter().filter(|d| d.lossy).map(|d| json!([d.code, d.pointer])).collect();
        if update && (expected.exists() || listed.iter().any(|t| t == target.id)) {
            write(&expected, &golden);
            write(&report, &Value::Array(lossy.clone()));
        } else {
            if expected.exists() && read(&expected).to_string() != golden.to_string() {
                failures.push(format!("{name} [{}]: output differs from golden\n  got: {golden}", target.id));
            }
            if report.exists() && read(&report) != Value::Array(lossy.clone()) {
                failures.push(format!("{name} [{}]: report differs\n  got: {}", target.id, Value::Array(lossy)));
            }
        }
        let judge = match (out.strict, target.relaxed) {
            (Some(false), Some(relaxed)) => targets::get(relaxed).unwrap(),
            _ => *target,
        };
        for v in check(&out.schema, judge) {
            failures.push(format!("{name} [{}]: {} at {}: {}", target.id, v.code, v.pointer, v.message));
        }
        match normalize(&out.schema, target, &opts) {
            Ok(again) if again.schema.to_string() != out.schema.to_string() => {
                failures.push(format!("{name} [{}]: not idempotent: {}", target.id, again.schema));
            }
            Ok(_) => {}
            Err(e) => failures.push(format!("{name} [{}]: the output does not normalize again: {e}", target.id)),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("{} failures:\n{}", failures.len(), failures.join("\n")).into())
    }
}

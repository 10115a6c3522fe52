//! The round trip over ../shared/corpus, for every target: arguments a model
//! could send for the normalized schema, restored, must validate against the
//! original schema (minus the keywords the target dropped, which the model
//! never saw). Arguments are generated from the normalized schema in three
//! styles: every property with `null` wherever null is allowed (what strict
//! models send for fields they mean to leave out), every property with a
//! value, and only the required ones. A generated instance the normalized
//! schema itself rejects (a `pattern` the generator cannot satisfy, say) is
//! not counted; neither is a Cloud Code Assist fallback. The lossless
//! encodings (`passes::entries`) are generated as the model is told to write
//! them: entries arrays with distinct keys, and JSON text where a string is
//! described as holding a value of any type.
//!
//! Checked twice: with the library's own validator and with the `jsonschema`
//! crate, so the two validators also agree on every restored instance. The
//! counts are printed (to the real stderr, past the harness's capture).
mod common;

use toolschema::json;
use toolschema::doc::{Map, Value};
use std::io::Write;
use toolschema::args::{self, RestoreOptions};
use toolschema::passes::entries;
use toolschema::targets::{self, Target};
use toolschema::{normalize, Options};

#[derive(Clone, Copy, PartialEq)]
enum Style {
    Nulls,
    Full,
    Required,
}

fn resolve<'a>(root: &'a Value, r: &str) -> Option<&'a Value> {
    root.pointer(r.strip_prefix('#')?)
}

fn allows_null(m: &Map) -> bool {
    m.get("nullable") == Some(&Value::Bool(true))
        || m.get("type") == Some(&json!("null"))
        || m.get("type").and_then(Value::as_array).is_some_and(|t| t.contains(&json!("null")))
}

/// One instance of `s` in `style`; past a few levels only what is required,
/// so recursive schemas end.
fn generate(s: &Value, root: &Value, style: Style, depth: usize) -> Value {
    generate_in(s, root, style, depth, 0)
}

/// `generate` with the number of `$ref`s followed on the way (`refs`): a
/// chain of refs that loops without descending ends at 64.
fn generate_in(s: &Value, root: &Value, style: Style, depth: usize, refs: usize) -> Value {
    let Value::Object(m) = s else { return json!("x") };
    let style = if depth > 5 { Style::Required } else { style };
    if depth > 40 {
        return Value::Null;
    }
    // A reference is not a level of the instance: the same depth, so a
    // subschema generates the same value written out or hoisted (`compact`).
    if let Some(t) = m.get("$ref").and_then(Value::as_str).and_then(|r| resolve(root, r)) {
        return if refs < 64 { generate_in(t, root, style, depth, refs + 1) } else { Value::Null };
    }
    if let Some(c) = m.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(e)) = m.get("enum") {
        if style == Style::Nulls && e.contains(&Value::Null) {
            return Value::Null;
        }
        if let Some(v) = if style == Style::Full { e.iter().rev().find(|v| !v.is_null()) } else { e.iter().find(|v| !v.is_null()) } {
            return v.clone();
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = m.get(key) {
            let is_null = |b: &&Value| b.get("type") == Some(&json!("null"));
            if style == Style::Nulls && bs.iter().any(|b| is_null(&b)) {
                return Value::Null;
            }
            if let Some(b) = bs.iter().find(|b| !is_null(b)) {
                return generate_in(b, root, style, depth + 1, refs);
            }
        }
    }
    if let Some(first) = m.get("allOf").and_then(Value::as_array).and_then(|a| a.first()) {
        return generate_in(first, root, style, depth + 1, refs);
    }
    if style == Style::Nulls && allows_null(m) {
        return Value::Null;
    }
    let types: Vec<&str> = match m.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect(),
        _ if m.contains_key("properties") => vec!["object"],
        _ if m.contains_key("items") => vec!["array"],
        _ => vec!["string"],
    };
    let bound = |k: &str| m.get(k).and_then(Value::as_f64);
    match types.first().copied().unwrap_or("null") {
        "null" => Value::Null,
        "boolean" => json!(style != Style::Required),
        t @ ("integer" | "number") => {
            let lo = bound("minimum").or(bound("exclusiveMinimum").map(|x| x.floor() + 1.0)).unwrap_or(1.0);
            let mut n = lo.ceil();
            if let Some(hi) = bound("maximum").or(bound("exclusiveMaximum").map(|x| x.ceil() - 1.0)) {
                n = n.min(hi.floor());
            }
            if let Some(k) = bound("multipleOf").filter(|k| *k > 0.0) {
                n = (n / k).ceil() * k;
            }
            if t == "integer" || n.fract() == 0.0 {
                json!(n as i64)
            } else {
                json!(n)
            }
        }
        "string" if m.get("description").and_then(Value::as_str).is_some_and(|d| d.contains(entries::JSON_NOTE)) => {
            json!(if style == Style::Required { "null" } else { "{\"a\": [1, \"x\"]}" })
        }
        "string" => {
            let sample = match m.get("format").and_then(Value::as_str) {
                Some("date-time") => "2026-01-02T03:04:05Z",
                Some("date") => "2026-01-02",
                Some("time") => "03:04:05Z",
                Some("email") => "a@example.com",
                Some("uri" | "url") => "https://example.com/a",
                Some("uuid") => "123e4567-e89b-12d3-a456-426614174000",
                _ => "abc",
            };
            let mut s = sample.to_string();
            let min = m.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
            while s.chars().count() < min {
                s.push('a');
            }
            if let Some(max) = m.get("maxLength").and_then(Value::as_u64) {
                s = s.chars().take(max as usize).collect();
            }
            Value::String(s)
        }
        "array" => {
            let mut out = Vec::new();
            if let Some(Value::Array(prefix)) = m.get("prefixItems") {
                out.extend(prefix.iter().map(|p| generate_in(p, root, style, depth + 1, refs)));
            }
            let min = m.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let want = if style == Style::Required { min } else { min.max(1) };
            let want = m.get("maxItems").and_then(Value::as_u64).map_or(want, |max| want.min(max as usize));
            if let Some(items) = m.get("items").filter(|i| i.is_object()) {
                while out.len() < want {
                    out.push(generate_in(items, root, style, depth + 1, refs));
                }
                if is_entry(items, root) {
                    distinct_keys(&mut out);
                }
            }
            Value::Array(out)
        }
        _ => {
            let required: Vec<&str> = m.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let mut out = Map::new();
            for (name, p) in m.get("properties").and_then(Value::as_object).into_iter().flatten() {
                if style != Style::Required || required.contains(&name.as_str()) {
                    out.insert(name.clone(), generate_in(p, root, style, depth + 1, refs));
                }
            }
            Value::Object(out)
        }
    }
}

/// Whether `items` (through its `$ref`) is an entry of a map sent as entries:
/// an object of exactly the properties `key` and `value`.
fn is_entry(items: &Value, root: &Value) -> bool {
    let items = items.get("$ref").and_then(Value::as_str).and_then(|r| resolve(root, r)).unwrap_or(items);
    items.get("properties").and_then(Value::as_object).is_some_and(|p| {
        p.len() == 2 && p.contains_key(entries::KEY) && p.contains_key(entries::VALUE)
    })
}

/// Entries name each key once: the second and later generated keys get
/// their index appended.
fn distinct_keys(out: &mut [Value]) {
    for (i, entry) in out.iter_mut().enumerate().skip(1) {
        if let Some(Value::String(k)) = entry.get_mut(entries::KEY) {
            k.push_str(&i.to_string());
        }
    }
}

/// The original minus the keywords `target` does not send (stripped or
/// spilled into descriptions): the model never saw them, so no restoration
/// can be expected to honour them. Structural keywords that the target
/// rewrites into an equivalent form stay.
fn without_dropped(original: &Value, target: &Target) -> Value {
    const STRUCTURE: &[&str] = &[
        "type", "properties", "required", "items", "prefixItems", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "$defs",
        "definitions", "additionalProperties", "nullable", "$id", "$anchor", "$schema",
    ];
    // Every object but data keywords, not only the keyword table's schema
    // slots: refs that generators wrote into other places (`components/schemas`)
    // are followed by the validators, so the schemas there are relaxed too.
    fn walk(v: &mut Value, f: &dyn Fn(&mut Map)) {
        match v {
            Value::Object(m) => {
                f(m);
                for (k, child) in m.iter_mut() {
                    if ["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"].contains(&k.as_str()) {
                        if let Value::Object(entries) = child {
                            entries.values_mut().for_each(|c| walk(c, f));
                        }
                    } else if k != "enum" && k != "const" && k != "default" && k != "examples" {
                        walk(child, f);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|c| walk(c, f)),
            _ => {}
        }
    }
    let caps = target.caps;
    let mut out = original.clone();
    walk(&mut out, &|m: &mut Map| {
        let drop: Vec<String> = m.keys().filter(|k| !caps.keeps(k) && !STRUCTURE.contains(&k.as_str())).map(|k| k.to_string()).collect();
        for k in drop {
            m.shift_remove(&k);
        }
        if let (Some(formats), Some(Value::String(f))) = (caps.formats, m.get("format")) {
            if !formats.contains(&f.as_str()) {
                m.shift_remove("format");
            }
        }
    });
    out
}

/// A copy of `schema` with OpenAPI `nullable` read as a null type, for the `jsonschema` crate.
fn nullable_read(schema: &Value) -> Value {
    let mut out = schema.clone();
    common::read_nullable(&mut out);
    out
}

/// Whether a report names a rewrite that restoration cannot undo: the
/// widenings (`common::WIDENING`) other than those `restore` reverses (a
/// wrapped root, stringified enums), plus dropped keywords and `oneOf` read
/// as `anyOf`. A restored instance the original rejects is explained there.
fn undoable_only_in_part(code: &str) -> bool {
    const RESTORED: &[&str] = &["root-wrapped", "enum-stringified"];
    const MORE: &[&str] = &["keyword-dropped", "one-of-to-any-of", "pattern-properties-widened"];
    (common::WIDENING.contains(&code) && !RESTORED.contains(&code)) || MORE.contains(&code)
}

/// Whether the report names a lossy rewrite of the schema node that holds
/// the failing keyword (say, `minItems` above 1 spilled for Anthropic).
fn rewritten_node(report: &toolschema::Report, schema_pointer: &str) -> bool {
    let node = schema_pointer.rsplit_once('/').map_or("", |(node, _)| node);
    !node.is_empty() && report.diagnostics.iter().any(|d| d.lossy && d.pointer == node)
}

#[derive(Default)]
struct Tally {
    generated: usize,
    not_generated: usize,
    restored_valid: usize,
    explained: usize,
    schemas_valid: std::collections::BTreeSet<String>,
}

#[test]
fn restored_arguments_validate_against_the_original() {
    round_trip(&Options::default());
}

/// The same with `compact`: the outputs refer to hoisted `$defs` and lack the
/// keywords their targets ignore, and the round trip is unchanged. Each
/// instance generated from the compact output must be the one generated from
/// the plain output, and restoring it with `{normalize: {compact: true}}`
/// (what `restoreArguments` and `prepareToolCall` get) must give what the
/// plain round trip gives.
#[test]
fn compact_outputs_round_trip_as_the_plain_ones() {
    round_trip(&Options { compact: true, ..Options::default() });
}

fn round_trip(opts: &Options) {
    let corpus = common::corpus();
    let restore_opts = RestoreOptions { normalize: Some(opts.clone()), ..RestoreOptions::default() };
    let plain_opts = Options { compact: false, ..opts.clone() };
    let mut compared = 0usize;
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    let mut total = Tally::default();
    for target in targets::TARGETS {
        let mut t = Tally::default();
        for (id, schema) in &corpus {
            let Ok(out) = normalize(schema, target, opts) else { continue };
            let plain = if opts.compact { Some(normalize(schema, target, &plain_opts).expect("the plain run succeeds too")) } else { None };
            if out.report.has("fallback") {
                continue;
            }
            let judge = match (out.strict, target.relaxed) {
                (Some(false), Some(r)) => targets::get(r).unwrap(),
                _ => *target,
            };
            let reference = without_dropped(schema, judge);
            let checker = jsonschema::options().with_draft(jsonschema::Draft::Draft202012).build(&serde_json::Value::from(nullable_read(&reference))).ok();
            let explained = out.report.diagnostics.iter().any(|d| undoable_only_in_part(d.code));
            let mut all_ok = true;
            for style in [Style::Nulls, Style::Full, Style::Required] {
                let instance = generate(&out.schema, &out.schema, style, 0);
                if !args::validate(&instance, &out.schema, 256).map(|v| v.valid).unwrap_or(false) {
                    t.not_generated += 1;
                    continue;
                }
                t.generated += 1;
                let restored = args::restore(&instance, schema, target, &restore_opts).expect("restore");
                if let Some(plain) = &plain {
                    let theirs = generate(&plain.schema, &plain.schema, style, 0);
                    let back = args::restore(&theirs, schema, target, &RestoreOptions::default()).expect("restore");
                    let prepared = args::prepare(&instance, schema, target, &restore_opts).expect("prepare");
                    let prepared_plain = args::prepare(&theirs, schema, target, &RestoreOptions::default()).expect("prepare");
                    compared += 1;
                    if theirs != instance || back.args != restored.args || back.report != restored.report
                        || prepared != prepared_plain
                    {
                        failures.push(format!(
                            "{} {id}: compact round trip differs\n  compact: {instance} -> {}\n  plain:   {theirs} -> {}",
                            target.id, restored.args, back.args
                        ));
                    }
                }
                let ours = args::validate(&restored.args, &reference, 256).expect("validate");
                let theirs = checker.as_ref().map(|c| c.is_valid(&serde_json::Value::from(&restored.args)));
                if let Some(theirs) = theirs.filter(|_| ours.unchecked.is_empty()) {
                    if theirs != ours.valid {
                        failures.push(format!(
                            "{} {id}: the validators disagree on {} (ours: {:?}, jsonschema: {theirs})",
                            target.id, restored.args, ours.errors
                        ));
                    }
                }
                if ours.valid {
                    t.restored_valid += 1;
                } else if explained || ours.errors.iter().all(|e| rewritten_node(&out.report, &e.schema_pointer)) {
                    t.explained += 1;
                    all_ok = false;
                } else {
                    all_ok = false;
                    failures.push(format!(
                        "{} {id}: restored arguments do not fit the original\n  sent:     {instance}\n  restored: {}\n  errors:   {:?}\n  output:   {}",
                        target.id, restored.args, ours.errors.iter().map(|e| &e.message).collect::<Vec<_>>(), out.schema
                    ));
                }
            }
            if all_ok {
                t.schemas_valid.insert(id.clone());
            }
        }
        lines.push(format!(
            "{:<17} {:>5} generated ({:>3} not), {:>5} restored valid, {:>3} explained by a reported widening; {:>3} schemas all valid",
            target.id, t.generated, t.not_generated, t.restored_valid, t.explained, t.schemas_valid.len()
        ));
        total.generated += t.generated;
        total.not_generated += t.not_generated;
        total.restored_valid += t.restored_valid;
        total.explained += t.explained;
    }
    let mut err = std::io::stderr();
    let _ = writeln!(err, "round trip over {} corpus schemas:", corpus.len());
    for l in &lines {
        let _ = writeln!(err, "  {l}");
    }
    let _ = writeln!(
        err,
        "  all targets: {} generated, {} restored valid, {} explained, {} not generated",
        total.generated, total.restored_valid, total.explained, total.not_generated
    );
    if opts.compact {
        let _ = writeln!(err, "  compact: {compared} instances restored and prepared as from the plain outputs");
        assert!(compared > 10_000, "too few compact instances compared: {compared}");
    }
    assert!(total.generated > 10_000, "too few instances generated: {}", total.generated);
    assert!(failures.is_empty(), "{} round-trip failures:\n{}", failures.len(), failures.iter().take(15).cloned().collect::<Vec<_>>().join("\n"));
}

/// The round trip is the identity on arguments that already fit: instances
/// generated from each original schema (after its `$ref`s resolve in place),
/// accepted by it, come back from `prepare` unchanged and with nothing to
/// report, for every target. Every generated instance, accepted or not, is
/// also judged by the `jsonschema` crate, which must agree.
#[test]
fn arguments_that_fit_come_back_unchanged() {
    let corpus = common::corpus();
    let (mut fitting, mut judged, mut disagreements) = (0usize, 0usize, Vec::new());
    for (id, schema) in &corpus {
        let checker = jsonschema::options().with_draft(jsonschema::Draft::Draft202012).build(&serde_json::Value::from(nullable_read(schema))).ok();
        for style in [Style::Nulls, Style::Full, Style::Required] {
            let instance = generate(schema, schema, style, 0);
            let ours = args::validate(&instance, schema, 256).expect("validate");
            if let Some(c) = checker.as_ref().filter(|_| ours.unchecked.is_empty()) {
                judged += 1;
                if c.is_valid(&serde_json::Value::from(&instance)) != ours.valid {
                    disagreements.push(format!("{id}: {instance} (ours: {:?})", ours.errors));
                }
            }
            if !ours.valid {
                continue;
            }
            fitting += 1;
            for target in targets::TARGETS {
                let out = args::prepare(&instance, schema, target, &RestoreOptions::default()).expect("prepare");
                assert!(out.ok, "{} {id}: fitting arguments rejected: {:?}", target.id, out.errors);
                assert_eq!(out.args.to_string(), instance.to_string(), "{} {id}: fitting arguments rewritten", target.id);
                // Findings, not changes: an unchecked pattern, and text kept as
                // the string it is where the target sends any-values as JSON text.
                let changes: Vec<_> = out.report.diagnostics.iter().filter(|d| !["pattern-unchecked", "any-not-json"].contains(&d.code)).collect();
                assert!(changes.is_empty(), "{} {id}: fitting arguments reported changes: {changes:?}", target.id);
            }
        }
    }
    let _ = writeln!(std::io::stderr(), "identity: {fitting} fitting instances × {} targets unchanged; validators agree on {judged} judged instances", targets::TARGETS.len());
    assert!(fitting > 500, "too few fitting instances: {fitting}");
    assert!(disagreements.is_empty(), "{} disagreements with the jsonschema crate:\n{}", disagreements.len(), disagreements.iter().take(10).cloned().collect::<Vec<_>>().join("\n"));
}

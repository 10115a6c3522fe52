//! The opt-in `compact` option: what goes on the wire gets smaller without
//! changing what it means. Every agent pays its tool schemas in prompt tokens
//! on every turn (741 tools came to about 488k tokens in
//! G-Core/gcore-mcp-server#14), and generated schemas repeat themselves: the
//! same address, filter or enum written out under every property that uses it.
//!
//! It runs once, after the target's whole pipeline, on the output:
//! - keywords the target documents that it ignores are dropped
//!   (`Caps::ignored`, and `$comment` everywhere: `keywords::COMMENTS`);
//! - on targets whose output keeps `$ref` + `$defs` (`hoists`), a subschema
//!   written out more than once is moved into a root `$defs` entry and each
//!   place refers to it, when that makes the output shorter.
//!
//! Neither changes what a value must be or what a model reads as meaning, so
//! both are notes, not lossy (`ignored-keyword-dropped`, `subschema-hoisted`).
//! A hoist the target's checker would refuse, or that normalizing the output
//! again would inline, is not made; the output stays a fixed point.
use crate::keywords;
use crate::lookup::Fields;
use crate::pointer::Pointer;
use crate::report::Report;
use crate::targets::Target;
use crate::check::check;
use crate::{refs, walk};
use crate::hash::IndexMap;
use crate::doc::{Map, Value};
use crate::hash::HashSet;
use crate::keywords::kw;

/// Keys that give a subtree its own base URI or resolution scope: a subtree
/// holding one means something else once moved, so it is never hoisted.
const SCOPED: &[&str] = &["$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$defs", "definitions"];

/// Compacts `schema`, the result of normalizing for `target` (with its
/// `strict` verdict; its report takes what compacting did). The output's own
/// target (the relaxed one when strict mode failed open) decides what it may hold.
pub(crate) fn apply(schema: &mut Value, strict: Option<bool>, out_report: &mut Report, target: &Target, opts: &crate::options::Options) {
    let quiet = opts.quiet;
    let judge = match (strict, target.relaxed) {
        (Some(false), Some(relaxed)) => crate::targets::get(relaxed).unwrap_or(target),
        _ => target,
    };
    let clean = check(schema, judge).is_empty();
    let mut report = Report::default();
    drop_ignored(schema, judge, &mut Pointer::root(), &mut report);
    if clean && hoists(judge) {
        hoist(schema, judge, &judge.ref_policy(opts), &mut report);
    }
    if !quiet {
        out_report.diagnostics.extend(report.diagnostics);
    }
    for (counter, n) in report.counters {
        *out_report.counters.entry(counter).or_insert(0) += n;
    }
}

/// Does the target keep a sibling-free, non-recursive `$ref` as a reference?
/// The same rule as the expander's (`refs::site`): a recursive target that
/// does not inline refs and accepts both keywords.
pub fn hoists(target: &Target) -> bool {
    let caps = &target.caps;
    caps.recursion && !caps.inline_refs && caps.keeps(kw::REF) && caps.keeps(kw::DEFS)
}

/// Removes, from every schema node, the keywords the target ignores.
fn drop_ignored(value: &mut Value, target: &Target, path: &mut Pointer, report: &mut Report) {
    let Value::Object(node) = value else { return };
    for key in keywords::COMMENTS.iter().chain(target.caps.ignored.keywords) {
        if node.remove_field(key).is_some() {
            report.count("ignoredKeywordsDropped");
            report.note(
                "ignored-keyword-dropped",
                &path.child(key),
                format!("{key} was dropped: {} ignores it ({})", target.id, ignored_source(key, target)),
            );
        }
    }
    walk::each_child_mut(node, path, &mut |child, path| drop_ignored(child, target, path, report));
}

fn ignored_source(key: &str, target: &Target) -> String {
    if keywords::COMMENTS.contains(&key) {
        "JSON Schema 2020-12 core §8.3: implementations may strip $comment at any point".into()
    } else {
        target.caps.ignored.source.to_string()
    }
}

/// Where each subschema text occurs, in document order.
#[derive(Default)]
struct Occurrences {
    /// Text → the pointers of the nodes that serialize to it.
    at: IndexMap<String, Vec<Pointer>>,
    /// Text of a root `$defs` entry → its name: a repeat of it refers to it.
    defs: IndexMap<String, String>,
}

/// Serializes `value` bottom-up, recording every hoistable node's text.
/// Returns the node's text and whether it (or a descendant) is scoped.
fn collect(value: &Value, path: &mut Pointer, occ: &mut Occurrences) -> (String, bool) {
    let Value::Object(node) = value else { return (crate::doc::json_text(value), false) };
    let mut scoped = node.keys().any(|k| SCOPED.contains(&k.as_str()));
    // Children first, so that `scoped` covers the whole subtree; the node's
    // own text is one serialization (its children's texts are not reused:
    // serde_json's writer is faster than splicing strings).
    walk::each_child(node, path, &mut |child, path| {
        let (text, child_scoped) = collect(child, path, occ);
        scoped |= child_scoped;
        if !child_scoped && child.is_object() && hoistable_position(path) {
            occ.at.entry(text).or_default().push(path.clone());
        }
    });
    (crate::doc::json_text(value), scoped)
}

/// Not a root `$defs` entry itself (that is a definition, not a use), and
/// not a branch of a root union: the expander always inlines those, so a ref
/// there would not survive normalizing the output again.
fn hoistable_position(path: &Pointer) -> bool {
    let mut segs = path.raw_segments(0);
    let first = segs.next();
    !(path.len() == 2 && matches!(first, Some("$defs" | "anyOf" | "oneOf" | "allOf")))
}

/// The bytes a ref to `name` takes in compact JSON.
fn ref_text(name: &str) -> String {
    let reference = format!("#/$defs/{}", crate::pointer::escape(name));
    crate::doc::json_text(&Value::Object(Map::from_iter([("$ref".to_string(), Value::String(reference))])))
}

/// Repeatedly moves the repeat that saves the most bytes into `$defs`, until
/// none saves any. A hoist the checker refuses, or that a second run would
/// inline, is undone and its text not tried again.
fn hoist(schema: &mut Value, target: &Target, policy: &refs::Policy, report: &mut Report) {
    if !schema.is_object() {
        return;
    }
    let mut refused: HashSet<String> = HashSet::default();
    let mut size = crate::doc::json_text(schema).len();
    loop {
        let mut occ = Occurrences::default();
        collect(schema, &mut Pointer::root(), &mut occ);
        if let Some(Value::Object(defs)) = schema.field(kw::DEFS) {
            for (name, body) in defs {
                occ.defs.entry(crate::doc::json_text(body)).or_insert_with(|| name.to_string());
            }
        }
        let has_defs = schema.field(kw::DEFS).is_some();
        // The best saving in (estimated) tokens, which providers bill; ties
        // go to the first in document order.
        let mut best: Option<(i64, &String, &Vec<Pointer>)> = None;
        for (text, at) in &occ.at {
            if refused.contains(text) {
                continue;
            }
            let existing = occ.defs.get(text);
            if at.len() < 2 && existing.is_none() {
                continue;
            }
            let gain = token_gain(text, at.len(), &existing.map_or_else(|| stem(at), String::clone), existing.is_none(), has_defs);
            if gain > 0 && best.as_ref().map_or(true, |(g, _, _)| gain > *g) {
                best = Some((gain, text, at));
            }
        }
        let Some((_, text, at)) = best else { break };
        let (text, at) = (text.clone(), at.clone());
        let existing = occ.defs.get(&text).cloned();
        let mut trial = schema.clone();
        let name = existing.clone().unwrap_or_else(|| fresh_name(&trial, &stem(&at)));
        let body = at.first().and_then(|p| trial.at(p)).cloned();
        let Some(body) = body else { break };
        for p in &at {
            if let Some(node) = trial.pointer_mut(p.as_str()) {
                *node = crate::doc::parse_value(&ref_text(&name)).unwrap_or(Value::Null);
            }
        }
        if existing.is_none() {
            if let Value::Object(root) = &mut trial {
                let defs = root.entry("$defs").or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(defs) = defs {
                    defs.insert(name.as_str().into(), body);
                }
            }
        }
        order_definitions(&mut trial);
        let trial_size = crate::doc::json_text(&trial).len();
        if trial_size < size && check(&trial, target).is_empty() && refs::settled(&trial, policy) {
            *schema = trial;
            size = trial_size;
            report.count("subschemasHoisted");
            let places: Vec<String> = at.iter().map(|p| format!("{:?}", p.to_string())).collect();
            report.note(
                "subschema-hoisted",
                &at[0],
                format!(
                    "this subschema was written out {} time(s) ({}); it is now $defs/{name}, referred to from each place",
                    at.len(),
                    places.join(", ")
                ),
            );
        } else {
            refused.insert(text);
        }
    }
}

/// Tokens saved by referring to `name` from `uses` places that hold `text`
/// (plus, for a new definition, writing it once under `$defs`).
fn token_gain(text: &str, uses: usize, name: &str, new: bool, has_defs: bool) -> i64 {
    let (body, name) = (estimate_tokens(text) as i64, estimate_tokens(name) as i64);
    // `{"` `$` `ref` `":"` `#` `/$` `defs` `/` NAME `"}` in o200k_base.
    let reference = 9 + name;
    // `,"` NAME `":` body, and `,"$defs":{}` the first time.
    let entry = if new { body + name + 2 + if has_defs { 0 } else { 5 } } else { 0 };
    (body - reference) * uses as i64 - entry
}

/// About how many tokens a byte-pair tokenizer of the o200k kind makes of
/// `text`: one per run of punctuation, per word (a case change starts a new
/// one: `anyOf` is `any` `Of`), per three digits. Rare words and long
/// punctuation runs take more, so this errs low, and a subschema that
/// looks worth a reference is at least that.
pub fn estimate_tokens(text: &str) -> usize {
    #[derive(PartialEq, Clone, Copy)]
    enum Class {
        Lower,
        Upper,
        Digit,
        Space,
        Punct,
    }
    let class = |c: char| {
        if c.is_lowercase() || (c.is_alphabetic() && !c.is_uppercase()) {
            Class::Lower
        } else if c.is_uppercase() {
            Class::Upper
        } else if c.is_numeric() {
            Class::Digit
        } else if c.is_whitespace() {
            Class::Space
        } else {
            Class::Punct
        }
    };
    let (mut count, mut prev, mut digits) = (0usize, None::<Class>, 0usize);
    for c in text.chars() {
        let k = class(c);
        let continues = match (prev, k) {
            (Some(Class::Lower), Class::Lower) | (Some(Class::Upper), Class::Lower | Class::Upper) => true,
            (Some(Class::Punct), Class::Punct) | (Some(Class::Space), Class::Space) => true,
            // A space leads the word after it (` the`).
            (Some(Class::Space), Class::Lower | Class::Upper) => true,
            (Some(Class::Digit), Class::Digit) => digits % 3 != 0,
            _ => false,
        };
        digits = if k == Class::Digit { if continues { digits + 1 } else { 1 } } else { 0 };
        if !continues {
            count += 1;
        }
        prev = Some(k);
    }
    count
}

/// A name for a new definition: the property name when every place is the
/// same property, else `def`.
fn stem(at: &[Pointer]) -> String {
    let named = |p: &Pointer| {
        let segs = p.segments();
        let n = segs.len();
        (n >= 2 && segs[n - 2] == "properties").then(|| segs[n - 1].clone())
    };
    let first = at.first().and_then(named);
    let stem = match first {
        Some(name) if at.iter().all(|p| named(p).as_deref() == Some(name.as_str())) => name,
        _ => "def".into(),
    };
    let clean: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() || "_.-".contains(c) { c } else { '_' }).collect();
    if clean.is_empty() { "def".into() } else { clean }
}

/// `stem`, or `stem_2`, `stem_3`, ... : the first no root `$defs` entry has.
fn fresh_name(schema: &Value, stem: &str) -> String {
    let taken = |name: &str| schema.field(kw::DEFS).and_then(Value::as_object).is_some_and(|d| d.contains_key(name));
    let (mut name, mut n) = (stem.to_string(), 1);
    while taken(&name) {
        n += 1;
        name = format!("{stem}_{n}");
    }
    name
}

/// Puts the root `$defs` entries in the order normalizing the schema again
/// writes them (the order their first references are met: the document
/// first, then each definition in turn), so the output is a fixed point.
/// Entries nothing refers to are dropped, as the pipeline drops them.
fn order_definitions(schema: &mut Value) {
    let Some(Value::Object(mut defs)) = schema.as_object_mut().and_then(|root| root.remove_field(kw::DEFS)) else { return };
    let mut order: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::default();
    let mut scan = |v: &Value, order: &mut Vec<String>| {
        crate::walk::nodes(v, &mut |node| {
            if let Some(name) = node.field(kw::REF).and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
                let name = crate::pointer::unescape(name).into_owned();
                if seen.insert(name.clone()) {
                    order.push(name);
                }
            }
        });
    };
    scan(schema, &mut order);
    let mut i = 0;
    while i < order.len() {
        if let Some(body) = defs.get(&order[i]) {
            scan(body, &mut order);
        }
        i += 1;
    }
    let ordered: Map = order.iter().filter_map(|name| defs.remove_field(name).map(|b| (name.clone(), b))).collect();
    if let (Value::Object(root), false) = (schema, ordered.is_empty()) {
        root.insert("$defs".into(), Value::Object(ordered));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use crate::pipeline::normalize;
    use crate::targets;
    use crate::json;

    fn compact(schema: Value, target: &str) -> crate::pipeline::Normalized {
        normalize(&schema, targets::get(target).unwrap(), &Options { compact: true, ..Options::default() }).unwrap()
    }

    /// Exactly the targets whose pipeline keeps a sibling-free `$ref`.
    #[test]
    fn only_targets_that_keep_refs_hoist() {
        let hoisting: Vec<&str> = targets::TARGETS.iter().filter(|t| hoists(t)).map(|t| t.id).collect();
        assert_eq!(
            hoisting,
            [
                "openai", "openai-strict", "openai-responses", "mcp", "anthropic", "bedrock", "moonshot", "deepseek-strict",
                "mistral", "groq", "openrouter", "fireworks"
            ]
        );
    }

    /// The estimate is o200k_base's count on JSON keywords and plain words,
    /// and errs low on the rest (gpt-tokenizer counts 9, 14 and 7 for these).
    #[test]
    fn token_estimate_follows_o200k_on_keywords() {
        assert_eq!(estimate_tokens(r#"{"type":"integer","minimum":0}"#), 9);
        assert!(estimate_tokens(r#"{"anyOf":[{"type":"boolean"},{"type":"null"}]}"#) <= 14);
        assert_eq!(estimate_tokens("Postal or ZIP code 12345"), 7);
    }

    /// A repeat smaller than a reference stays written out: `{"type":"string"}`
    /// is 5 tokens, a reference to it at least 10.
    #[test]
    fn a_repeat_cheaper_than_its_reference_stays() {
        let props: Map = (0..12).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect();
        let schema = json!({"type": "object", "properties": props});
        let out = compact(schema.clone(), "openai");
        assert_eq!(out.schema, schema);
        assert!(!out.report.has("subschema-hoisted"));
    }

    /// A repeat equal to an existing definition refers to it; no second copy.
    #[test]
    fn a_repeat_of_a_definition_refers_to_it() {
        let node = json!({"type": "object", "properties": {"name": {"type": "string", "description": "the name"}, "next": {"$ref": "#/$defs/Node"}}});
        let schema = json!({"type": "object", "properties": {"head": {"$ref": "#/$defs/Node"}, "copy": node.clone()}, "$defs": {"Node": node}});
        let out = compact(schema, "mcp");
        assert_eq!(out.schema["properties"]["copy"], json!({"$ref": "#/$defs/Node"}));
        assert_eq!(out.schema["$defs"].as_object().unwrap().len(), 1);
        assert!(!out.report.lossy && out.report.counters.get("subschemasHoisted") == Some(&1));
    }

    /// Dropped keywords are notes at their pointers; a property named like one
    /// stays. (Google's own rules strip `$comment`, a keyword it refuses.)
    #[test]
    fn ignored_keywords_are_notes_with_pointers() {
        let out = compact(json!({"type": "object", "$comment": "c", "properties": {"default": {"type": "integer", "default": 1}}}), "google");
        assert_eq!(out.schema["properties"]["default"], json!({"type": "integer"}));
        let notes: Vec<(&str, &str, bool)> =
            out.report.diagnostics.iter().map(|d| (d.code, d.pointer.as_str(), d.lossy)).collect();
        assert_eq!(notes, [("ignored-keyword-dropped", "/properties/default/default", false)]);
        let out = compact(json!({"type": "object", "properties": {"default": {"type": "integer", "default": 1, "$comment": "c"}}}), "openai");
        assert_eq!(out.schema["properties"]["default"], json!({"type": "integer", "default": 1}));
        let notes: Vec<(&str, &str, bool)> =
            out.report.diagnostics.iter().map(|d| (d.code, d.pointer.as_str(), d.lossy)).collect();
        assert_eq!(notes, [("ignored-keyword-dropped", "/properties/default/$comment", false)]);
    }
}

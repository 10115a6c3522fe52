//! The pipeline: one schema through the draft upgrade, `$ref` resolution,
//! the target's rules and its checker, and the fail-open and fallback runs
//! a target's profile asks for. Every front door (`api`, `tools`,
//! `wordpress`, `args`) runs a schema through here.
use crate::check::{check, Violation};
use crate::context::{self, Cx};
use crate::doc::{Map, Value};
use crate::error::{Error, Result};
use crate::lookup::Fields;
use crate::options::{self, Options};
use crate::pointer::Pointer;
use crate::profile::OnViolation;
use crate::report::Report;
use crate::targets::{self, Target};
use crate::keywords::kw;
use crate::phase::{mark, Phase};
use crate::{compact, draft, json, passes, refs, walk};
use serde::Serialize;
use std::borrow::Cow;

/// Drops a value the current export call made, or in the wasm build leaves
/// it to the call arena when the arena holds all of it (`CallArena::may_leave`):
/// a whole answer tree is walked only to free nothing, a few percent of a call.
pub(crate) fn discard<T>(value: T) {
    #[cfg(target_arch = "wasm32")]
    if crate::arena::ALLOC.may_leave() {
        std::mem::forget(value);
        return;
    }
    drop(value);
}

/// The result of one normalization.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Normalized {
    pub schema: Value,
    /// OpenAI strict only: whether the schema may be sent with `strict: true`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// OpenAI strict only: why strict mode was not possible.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict_error: Option<Violation>,
    pub report: Report,
}

crate::doc::write_json_struct!(Normalized { always schema: "schema", some strict: "strict", some strict_error: "strictError", always report: "report" });

/// The fallback Cloud Code Assist gets for a schema it cannot accept (contract §3.6).
pub fn cca_fallback() -> Value {
    crate::json!({"type": "object", "properties": {}})
}

/// Normalizes `schema` for `target`. The input is never modified.
pub fn normalize(schema: &Value, target: &Target, opts: &Options) -> Result<Normalized> {
    // The copy the run takes over is made with the depth check, in one walk.
    let Some(value) = schema.clone_within(opts.max_depth) else {
        return Err(Error::TooDeep { pointer: Pointer::root(), limit: opts.max_depth });
    };
    normalize_parsed(Input { value, again: Again::Value(schema), reached: false }, target, opts)
}

/// `normalize` of a schema the caller gives up, for a target whose run never
/// reads its input again (no fail-open): checked for depth, unless the caller
/// knows it is `shallow` (within `maxDepth`), then taken over.
pub(crate) fn normalize_taken(schema: Value, shallow: bool, target: &Target, opts: &Options) -> Result<Normalized> {
    debug_assert!(target.on_violation != OnViolation::FailOpen, "fail-open reads the input again");
    static NO_INPUT: Value = Value::Null;
    normalize_taken_again(schema, shallow, target, opts, Again::Value(&NO_INPUT))
}

/// `normalize_taken` for any target: `again` gives the input again, should
/// the run fail open.
pub(crate) fn normalize_taken_again(schema: Value, shallow: bool, target: &Target, opts: &Options, again: Again<'_>) -> Result<Normalized> {
    debug_assert!(!shallow || walk::value_depth(&schema) <= opts.max_depth, "a shallow schema is within maxDepth");
    if !shallow && walk::value_depth(&schema) > opts.max_depth {
        return Err(Error::TooDeep { pointer: Pointer::root(), limit: opts.max_depth });
    }
    normalize_parsed(Input { value: schema, again, reached: false }, target, opts)
}

/// What a run starts from: a value it takes over, and where the same schema
/// can be had again. Only OpenAI strict's fail-open path needs the input after
/// the run, so no other target keeps a copy, and the JSON entry points keep
/// none at all: the few schemas that fail strict are parsed again from their
/// text, which costs less than copying every input.
pub(crate) struct Input<'a> {
    pub value: Value,
    pub again: Again<'a>,
    /// The root definitions no reference reaches are gone already (the value
    /// is `parse_schema`'s): the run need not look for them.
    pub reached: bool,
}

/// The input again, for the fail-open rerun.
#[derive(Clone, Copy)]
pub(crate) enum Again<'a> {
    Value(&'a Value),
    /// JSON text already parsed once within the options' depth limit.
    Text(&'a str),
    /// Made when asked (a tool list's schema, from the list's text): a run
    /// that does not fail open never pays for it.
    Lazy(&'a dyn Fn() -> Result<Value>),
}

impl<'a> Again<'a> {
    fn value(self, opts: &Options) -> Result<Cow<'a, Value>> {
        match self {
            Again::Value(v) => Ok(Cow::Borrowed(v)),
            Again::Text(text) => parse_schema(text, opts.max_depth).map(Cow::Owned),
            Again::Lazy(make) => make().map(Cow::Owned),
        }
    }
}

/// A schema's JSON text, refused past `max_depth` as `json::parse` refuses
/// it, with the root definitions no reference reaches left unread (checked
/// as JSON only): the run would drop them first (`refs::parse_reached`).
pub(crate) fn parse_schema(text: &str, max_depth: usize) -> Result<Value> {
    json::parse_capped(text, max_depth, refs::parse_reached_within)
}

/// `normalize` that takes the input over (see `Input`): the JSON entry points
/// parse it within `maxDepth` (`json::parse` scans the text first).
pub(crate) fn normalize_parsed(input: Input<'_>, target: &Target, opts: &Options) -> Result<Normalized> {
    normalize_parsed_noting(input, target, opts).map(|(out, _)| out)
}

/// How a schema came out of `normalize_parsed_noting`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Outcome {
    /// Through the run.
    Run,
    /// Given back as it came (`untouched`), its root's `$schema` taken out
    /// (`stripped`) or none there.
    Untouched { stripped: bool },
}

/// `normalize_parsed`, saying whether the schema went through the run.
pub(crate) fn normalize_parsed_noting(input: Input<'_>, target: &Target, opts: &Options) -> Result<(Normalized, Outcome)> {
    // Most schemas need nothing from the targets whose rules only shape what
    // is malformed: they go back without the run.
    if crate::untouched::untouched(&input.value, target, opts) {
        let report = crate::untouched::report(&input.value, opts);
        let mut schema = input.value;
        let stripped = crate::untouched::strip_root(&mut schema);
        return Ok((Normalized { schema, strict: None, strict_error: None, report }, Outcome::Untouched { stripped }));
    }
    let mut out = normalize_owned(input, target, opts)?;
    if opts.compact {
        compact::apply(&mut out.schema, out.strict, &mut out.report, target, opts);
    }
    if opts.quiet {
        // The rules write none; these are the whole-schema outcomes (fail-open, fallback).
        out.report.diagnostics.clear();
    }
    Ok((out, Outcome::Run))
}

fn normalize_owned(mut input: Input<'_>, target: &Target, opts: &Options) -> Result<Normalized> {
    opts.validate()?;
    // What no reference reaches is dropped by the output anyway; dropped
    // first, no step reads it.
    if !input.reached {
        refs::drop_unreachable_definitions(&mut input.value);
    }
    let mut cx = target.cx(opts);
    let policy = target.ref_policy(opts);
    mark(Phase::Context);
    match target.on_violation {
        OnViolation::Report => {
            let out = run(input.value, &policy, &mut cx)?;
            // A residual violation is only a diagnostic here: a call that
            // drops the report (`quiet`) skips the checker's walk.
            if opts.quiet {
                return Ok(Normalized { schema: out, strict: None, strict_error: None, report: cx.report });
            }
            let violations = check(&out, target);
            mark(Phase::Check);
            for v in violations {
                cx.report.lossy("residual-violation", &Pointer::root(), format!("{} at {:?}: {}", v.code, v.pointer, v.message));
            }
            Ok(Normalized { schema: out, strict: None, strict_error: None, report: cx.report })
        }
        OnViolation::Fallback => {
            let out = run(input.value, &policy, &mut cx)?;
            let violations = check(&out, target);
            mark(Phase::Check);
            let Some(first) = violations.first() else {
                return Ok(Normalized { schema: out, strict: None, strict_error: None, report: cx.report });
            };
            cx.report.count("fallbacks");
            cx.report.lossy(
                "fallback",
                &Pointer::root(),
                format!(
                    "{} cannot accept this schema ({} at {:?}: {}); it was replaced by an empty object schema",
                    target.id, first.code, first.pointer, first.message
                ),
            );
            Ok(Normalized { schema: cca_fallback(), strict: None, strict_error: None, report: cx.report })
        }
        OnViolation::FailOpen => {
            let result = run(input.value, &policy, &mut cx);
            strict_outcome(target, &policy, input.again, result, cx)
        }
    }
}

/// OpenAI strict: `strict: true` only for a schema the checker accepts; otherwise
/// the non-strict OpenAI output with `strict: false` (contract §1.5, §1.6).
fn strict_outcome(target: &Target, policy: &refs::Policy, again: Again<'_>, result: Result<Value>, cx: Cx) -> Result<Normalized> {
    if cx.opts.strict_stage == options::StrictStage::Sanitize {
        return Ok(Normalized { schema: result?, strict: None, strict_error: None, report: cx.report });
    }
    let failure = match &result {
        Ok(out) => {
            let first = check(out, target).into_iter().next();
            mark(Phase::Check);
            first
        }
        Err(Error::StrictUnrepresentable { pointer, message }) => {
            Some(Violation { code: "strict-unrepresentable", pointer: pointer.to_string(), message: message.clone() })
        }
        Err(e) => return Err(e.clone()),
    };
    let Some(failure) = failure else {
        return Ok(Normalized { schema: result?, strict: Some(true), strict_error: None, report: cx.report });
    };
    // The rejected output is not needed any more: freed before the relaxed runs,
    // it does not add to the call's peak memory.
    drop(result);
    let relaxed = target.relaxed.and_then(targets::get).unwrap_or(&targets::openai::OPENAI);
    // Not compacted here (`normalize_owned`, not `normalize`): the strict
    // retry below reads this output, and the call's result is compacted once.
    let fallback = match again.value(cx.opts)? {
        Cow::Borrowed(schema) => normalize_owned(Input { value: schema.clone(), again: Again::Value(schema), reached: false }, relaxed, cx.opts)?,
        // Parsed again for this run only: taken over, not copied; text is
        // read by `parse_schema`, which leaves out what is not reached.
        Cow::Owned(schema) => normalize_owned(Input { value: schema, again, reached: matches!(again, Again::Text(_)) }, relaxed, cx.opts)?,
    };
    // The relaxed target's own (reported) rewrites can remove what strict mode
    // could not represent (a root union of an object and a string is merged
    // into the object): strict mode then takes the relaxed form, which is what
    // normalizing the fallback again would give, so the call stays idempotent.
    let mut retry = target.cx(cx.opts);
    if let Ok(out) = run(fallback.schema.clone(), policy, &mut retry) {
        if check(&out, target).is_empty() {
            let mut report = fallback.report;
            report.lossy |= retry.report.lossy;
            report.diagnostics.extend(retry.report.diagnostics);
            for (counter, n) in retry.report.counters {
                *report.counters.entry(counter).or_insert(0) += n;
            }
            report.count("strictFromRelaxed");
            return Ok(Normalized { schema: out, strict: Some(true), strict_error: None, report });
        }
    }
    let mut report = fallback.report;
    report.count("strictFailures");
    report.lossy(
        "strict-failed",
        &Pointer::root(),
        format!(
            "{} cannot represent this schema ({} at {:?}: {}); it is sent as {} without strict",
            target.id, failure.code, failure.pointer, failure.message, relaxed.id
        ),
    );
    Ok(Normalized { schema: fallback.schema, strict: Some(false), strict_error: Some(failure), report })
}

/// Most extra runs `run` makes to settle kept `$ref`s (each one inlines every
/// definition that a previous run's rules left without its recursion).
const MAX_SETTLE_RUNS: usize = 4;

fn run(schema: Value, policy: &refs::Policy, cx: &mut Cx) -> Result<Value> {
    let (mut out, mut had_refs) = run_once(schema, policy, cx)?;
    // Recursion is decided on the input's ref graph, before the target's rules
    // strip keywords; when they strip the edge that closed a cycle, the output
    // normalized again would differ, so it is (see `refs::settled`). Only
    // inlining writes `$ref`, so a run that met none is settled.
    for _ in 0..MAX_SETTLE_RUNS {
        let settled = !had_refs || refs::settled(&out, policy);
        mark(Phase::Settle);
        if settled {
            break;
        }
        cx.count("cyclesDissolved");
        cx.null_dropped.clear();
        cx.closed.clear();
        (out, had_refs) = run_once(out, policy, cx)?;
    }
    Ok(out)
}

/// One run of the pipeline; also says whether the input held a `$ref`.
fn run_once(schema: Value, policy: &refs::Policy, cx: &mut Cx) -> Result<(Value, bool)> {
    let mut doc = match schema {
        Value::Object(_) => schema,
        Value::Bool(true) => crate::json!({}),
        Value::Bool(false) => crate::json!({"not": {}}),
        ref other => {
            return Err(Error::NotASchema {
                pointer: Pointer::root(),
                message: format!(
                    "a schema must be a JSON object (or a boolean), not {}",
                    match other {
                        Value::Array(_) => "an array; pass one tool's schema, not a list",
                        Value::String(_) => "a string",
                        Value::Number(_) => "a number",
                        _ => "null",
                    }
                ),
            })
        }
    };
    // The upgrade's walk also runs the never-prune, children first: a property
    // or branch that accepts nothing is only seen as such once its own unions
    // are pruned (`anyOf: [false]` becomes `not: {}`), and its parent decides
    // on it after that, in the same run. It notes what the ref stage needs:
    // most tool schemas hold no `$ref` (236 of the 261 real MCP schemas in the
    // corpus), and those skip indexing and copying, only losing their
    // resolution-only keywords.
    let (mut had_refs, mut resolution_keys) = (false, false);
    let moves = draft::upgrade_then(&mut doc, cx, &mut |m, cx| {
        passes::prune::prune_never(m, cx);
        had_refs |= refs::follows(m);
        resolution_keys |= crate::values::holds_resolution(m);
    })?;
    mark(Phase::Upgrade);
    let mut out = if had_refs {
        let mut out = refs::inline(&doc, &moves, policy, cx)?;
        // Inlining can bring never-schemas where the first prune could not see them.
        prune_all(&mut out, cx)?;
        out
    } else {
        if resolution_keys {
            refs::strip_resolution_keys(&mut doc);
            // A node that accepts nothing but held a `$defs` (kept by the
            // prune while a ref could lead into it) is seen as such now.
            prune_all(&mut doc, cx)?;
        }
        doc
    };
    // Refs kept in the output (recursion, or targets that keep `$defs`) carry
    // an exclusion into their targets; only a document that had refs has any.
    cx.excluded = if had_refs { refs::excluded_targets(&out) } else { Vec::new() };
    mark(Phase::Refs);
    context::post_order(&mut out, cx, &mut |v, cx| match v {
        Value::Object(m) => passes::apply(m, cx),
        _ => Ok(()),
    })?;
    mark(Phase::Rules);
    prune_definitions(&mut out);
    Ok((out, had_refs))
}

/// The never-prune over a whole document, children first.
fn prune_all(doc: &mut Value, cx: &mut Cx) -> Result<()> {
    context::post_order(doc, cx, &mut |v, cx| {
        if let Value::Object(m) = v {
            passes::prune::prune_never(m, cx);
        }
        Ok(())
    })
}

/// Drops root `$defs` entries no longer referenced (a merged root union can orphan
/// them) and puts `$defs` last, wherever the passes added keys, so a second run
/// produces the same key order.
fn prune_definitions(out: &mut Value) {
    // Taken out while the rest is scanned, so no copy of the tree is needed.
    let Some(Value::Object(defs)) = out.as_object_mut().and_then(|root| root.remove_field(kw::DEFS)) else { return };
    let scan = |v: &Value, used: &mut crate::hash::HashSet<String>| {
        walk::nodes(v, &mut |node| {
            if let Some(name) = node.field(kw::REF).and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
                used.insert(crate::pointer::unescape(name).into_owned());
            }
        });
    };
    let mut used = crate::hash::HashSet::default();
    scan(out, &mut used);
    let mut frontier: Vec<String> = used.iter().cloned().collect();
    while let Some(name) = frontier.pop() {
        if let Some(def) = defs.get(&name) {
            let mut found = crate::hash::HashSet::default();
            scan(def, &mut found);
            for f in found {
                if used.insert(f.clone()) {
                    frontier.push(f);
                }
            }
        }
    }
    let kept: Map = defs.into_iter().filter(|(k, _)| used.contains(k.as_str())).collect();
    if let (Value::Object(root), false) = (out, kept.is_empty()) {
        root.insert(kw::DEFS.into(), Value::Object(kept));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::targets::{Target, CCA_GATE_ONLY};

    /// The residual-incompatibility gate (contract §3.5, §3.6) on its own: with no
    /// rewrite rules, whatever Cloud Code Assist cannot take falls back per tool.
    #[test]
    fn cca_gate_falls_back_on_residual_incompatibilities() {
        let gate: &Target = &CCA_GATE_ONLY;
        for residual in [
            crate::json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}),
            crate::json!({"type": "object", "properties": {"a": {"type": "null"}}}),
            crate::json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}}),
            crate::json!({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}),
            crate::json!({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}),
            crate::json!({"type": "object", "allOf": [{"type": "object", "properties": {}}]}),
        ] {
            let out = normalize(&residual, gate, &Options::default()).unwrap();
            assert_eq!(out.schema, cca_fallback(), "{residual}");
            assert!(out.report.has("fallback") && out.report.lossy);
        }
        let fine = crate::json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert_eq!(normalize(&fine, gate, &Options::default()).unwrap().schema, fine);
    }

    /// fuzz/ normalize target (cca, `maxRecursion: 0`): a ref bomb whose leaves
    /// are a dangling `$ref` gave a 394 KB schema (the size budget) with a
    /// 5.3 MB report, one `unresolved-ref` and one `typeless-node-typed` per
    /// inlined copy. Repeats past `context::MAX_REPEATS` are counted instead.
    #[test]
    fn repeated_diagnostics_are_bounded() {
        let mut defs = crate::doc::Map::new();
        defs.insert("d0".into(), crate::json!({"$ref": "#/$defs/missing"}));
        for i in 1..=20 {
            let prev = format!("#/$defs/d{}", i - 1);
            defs.insert(format!("d{i}").into(), crate::json!({"type": "object", "properties": {"l": {"$ref": prev}, "r": {"$ref": prev}}}));
        }
        let schema = crate::json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d20"}}, "$defs": defs});
        for id in ["cca", "google", "ollama"] {
            let out = crate::pipeline::normalize(&schema, crate::targets::get(id).unwrap(), &Default::default()).unwrap();
            for code in ["unresolved-ref", "typeless-node-typed", "any-as-json"] {
                let n = out.report.diagnostics.iter().filter(|d| d.code == code).count();
                assert!(n <= crate::context::MAX_REPEATS, "{id}: {n} {code}");
            }
            assert!(out.report.counters.get("diagnosticsElided").is_some_and(|n| *n > 1000), "{id}: {:?}", out.report.counters);
            assert!(serde_json::to_string(&out.report).unwrap().len() < 100_000, "{id}");
        }
    }
}

//! WordPress abilities (seed 002, Trac #64955): `input_schema`/`output_schema`
//! written in WordPress's draft-04 conventions, compiled for an AI provider, and
//! the authoring guidance that keeps them compilable.
use crate::lookup::Fields;
use crate::check::Violation;
use crate::error::{Error, Result};
use crate::pointer::Pointer;
use crate::options::Options;
use crate::pipeline::{normalize, Normalized};
use crate::{targets, walk};
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// REST-only keywords with no meaning to a model (seed 002 §5).
const WORDPRESS_ONLY: &[&str] = &["context", "readonly", "arg_options"];

/// The provider target each WordPress compile target maps to. `default` is the
/// most restrictive common subset, OpenAI strict (seed 002, "Provider-specific
/// $target behavior").
fn target_for(wp_target: &str) -> Result<(&'static str, bool)> {
    Ok(match wp_target {
        "openai" | "default" => ("openai-strict", true),
        "anthropic" => ("anthropic-strict", false),
        "google" => ("google", false),
        other => {
            return Err(crate::targets::unknown(format!("{other} (compileAbilitySchemaForAI takes openai, anthropic, google or default)")))
        }
    })
}

/// Compiles an ability schema for `wp_target`: draft-03 `required: true`
/// becomes arrays (then the target's own required rules apply), every object is
/// closed, `oneOf` becomes `anyOf`, validation keywords move into descriptions
/// (WordPress's validators still enforce them), WordPress-only keywords go,
/// `definitions` become `$defs`, a scalar input is wrapped as the property
/// `value`, and structural limits are checked. Only narrows what is accepted,
/// so compiled output always passes WordPress's own validators.
pub fn compile_ability_schema(schema: &Value, wp_target: &str, opts: &Options) -> Result<Normalized> {
    let (id, strip_constraints) = target_for(wp_target)?;
    let target = targets::get(id).expect("mapped to a known target");
    let mut prepared = schema.clone();
    let mut stripped = 0u64;
    prepare(&mut prepared, &mut Pointer::root(), 0, opts.max_depth, &mut stripped)?;
    let opts = Options { strip_strict_constraints: strip_constraints || opts.strip_strict_constraints, ..opts.clone() };
    let mut out = normalize(&prepared, target, &opts)?;
    if stripped > 0 {
        *out.report.counters.entry("wordpressKeywordsStripped").or_insert(0) += stripped;
    }
    for v in structural_limits(&out.schema) {
        out.report.note("structural-limit", &Pointer::root(), v.message);
    }
    Ok(out)
}

/// WordPress-only keywords removed and objects closed, before the target runs.
fn prepare(v: &mut Value, at: &mut Pointer, depth: usize, max: usize, stripped: &mut u64) -> Result<()> {
    if depth > max {
        return Err(Error::TooDeep { pointer: at.clone(), limit: max });
    }
    let Value::Object(m) = v else { return Ok(()) };
    for k in WORDPRESS_ONLY {
        if m.remove_field(k).is_some() {
            *stripped += 1;
        }
    }
    let object = m.field(kw::TYPE).is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.iter().any(|x| x == "object")))
        || m.has(kw::PROPERTIES);
    if object && !m.has(kw::ADDITIONAL_PROPERTIES) {
        m.insert("additionalProperties".into(), Value::Bool(false));
    }
    children(m, at, &mut |c, at| prepare(c, at, depth + 1, max, stripped))
}

fn children(m: &mut Map, at: &mut Pointer, f: &mut dyn FnMut(&mut Value, &mut Pointer) -> Result<()>) -> Result<()> {
    use crate::keywords::{slot, Slot};
    for (k, c) in m.iter_mut() {
        at.push(k.as_str());
        match (slot(k), c) {
            (Slot::Schema, c) => f(c, at)?,
            (Slot::SchemaArray, Value::Array(a)) => {
                for (i, x) in a.iter_mut().enumerate() {
                    at.push(i.to_string());
                    f(x, at)?;
                    at.pop();
                }
            }
            (Slot::SchemaMap, Value::Object(o)) => {
                for (n, x) in o.iter_mut() {
                    at.push(n.as_str());
                    f(x, at)?;
                    at.pop();
                }
            }
            _ => {}
        }
        at.pop();
    }
    Ok(())
}

/// OpenAI's documented limits, the tightest any provider publishes (seed 002 step 7).
fn structural_limits(schema: &Value) -> Vec<Violation> {
    let probe = targets::get("openai-strict").expect("openai-strict exists");
    crate::check::check(schema, probe).into_iter().filter(|v| v.code == "limit-exceeded").collect()
}

/// Authoring guidance for an ability schema (seed 002 step 5): advisory, with
/// the JSON pointer of each place.
pub fn lint(schema: &Value) -> Vec<Violation> {
    let mut out = Vec::new();
    walk::visit(schema, &mut Pointer::root(), &mut |node, path| {
        let Value::Object(m) = node else { return };
        let mut push = |code: &'static str, at: Pointer, message: String| out.push(Violation { code, pointer: at.to_string(), message });
        if let Some(Value::Array(branches)) = m.field(kw::ONE_OF) {
            let exclusive = crate::passes::combinators::discriminated(branches);
            push(
                "one-of",
                path.child("oneOf"),
                if exclusive {
                    "use anyOf: these branches are already exclusive, and AI providers reject oneOf (OpenAI) or rewrite it (Anthropic)".into()
                } else {
                    "prefer anyOf: AI providers reject oneOf (OpenAI) or rewrite it (Anthropic), and WordPress still enforces exclusivity on the server".into()
                },
            );
        }
        let object = m.field(kw::TYPE).is_some_and(|t| t == "object") || m.has(kw::PROPERTIES);
        if object && !m.has(kw::ADDITIONAL_PROPERTIES) {
            push(
                "additional-properties-missing",
                path.clone(),
                "set additionalProperties explicitly: absent means true in WordPress, while OpenAI strict needs false on every object".into(),
            );
        }
        if let Some(Value::Object(props)) = m.field(kw::PROPERTIES) {
            for (name, p) in props {
                if p.field(kw::REQUIRED).is_some_and(Value::is_boolean) {
                    push(
                        "draft3-required",
                        path.child("properties").child(name.as_str()).child("required"),
                        format!("list {name:?} in the parent's required array: per-property required: true (draft-03) is invisible to AI providers and to the client-side validator"),
                    );
                }
            }
        }
        if m.has("readonly") {
            push(
                "readonly-casing",
                path.child("readonly"),
                "WordPress spells it readonly; JSON Schema's keyword is readOnly (core ticket #56152)".into(),
            );
        }
    });
    out
}

//! The round trip: the model's arguments back in the shape of the original
//! schema, checked against it, with errors a model can act on.
//!
//! Every rewrite that makes a schema acceptable to a provider changes what the
//! model sends back, while the tool (an MCP server, a WordPress ability, a
//! function) still validates against the original schema. Strict mode makes
//! optional fields required-and-nullable, so the model sends `null` where the
//! server expects the field absent (moltis-org/moltis#283, LibreChat#11905);
//! Gemini only takes string enums, so `1` comes back as `"1"`; object unions are
//! merged into one object; a scalar root is wrapped as the property `value`;
//! an open map goes out as `{key, value}` entries and a value of any type as
//! JSON text where the target cannot hold them (issue 18, `passes::entries`).
//!
//! - [`restore`] undoes those rewrites, guided by the original schema and the
//!   target (no state is carried from the normalization: the original and the
//!   target id are all it needs);
//! - [`repair`] applies the coercions the schema alone justifies (a numeric
//!   string where a number is required, a JSON-encoded array, a lone value
//!   where an array is required, `"true"`); models send these and then retry
//!   the same bad call in a loop (earendil-works/pi#5697, opencode#8249);
//! - [`validate`] checks against the original with a JSON Schema 2020-12
//!   validator, each error with an instance pointer, the keyword and a message
//!   that says what to send instead;
//! - [`prepare`] is the agent loop's one call: restore, repair, validate.
//!
//! Both rewrites change a value only where it does not fit the original
//! schema, so arguments that already fit come back unchanged (the one
//! exception is opt-in: `emptyStrings`).
mod describe;
mod encoded;
mod fix;
mod pattern;
mod validate;

pub use validate::ArgError;

use crate::lookup::Fields;
use crate::error::{Error, Result};
use crate::pointer::Pointer;
use crate::report::Report;
use crate::options::Options;
use crate::targets::{self, Target};
use crate::{draft, walk};
use serde::{Deserialize, Serialize};
use crate::json;
use crate::doc::Value;

/// The original schema, upgraded to 2020-12 the way normalization reads it
/// (draft-04 booleans, OpenAPI `nullable`, `definitions`), with its `$id`s and
/// anchors indexed for `$ref`.
pub struct Original {
    root: Value,
    index: crate::refs::index::Index,
    moves: draft::Moves,
    max_depth: usize,
}

impl Original {
    pub fn new(schema: &Value, max_depth: usize) -> Result<Self> {
        if walk::value_depth(schema) > max_depth {
            return Err(Error::TooDeep {
                pointer: Pointer::root(),
                limit: max_depth,
            });
        }
        let mut root = match schema {
            Value::Object(_) => schema.clone(),
            Value::Bool(b) => Value::Bool(*b),
            _ => {
                return Err(Error::NotASchema {
                    pointer: Pointer::root(),
                    message: "the original schema must be a JSON object (or a boolean): pass the tool's input schema".into(),
                })
            }
        };
        let opts = Options {
            max_depth,
            ..Options::default()
        };
        let mcp = targets::get("mcp").expect("the mcp target exists");
        let mut cx = mcp.cx(&opts);
        let moves = if root.is_object() {
            draft::upgrade(&mut root, &mut cx)?
        } else {
            Default::default()
        };
        let index = crate::refs::index::Index::build(&root);
        Ok(Original {
            root,
            index,
            moves,
            max_depth,
        })
    }

    /// The schema a `$ref` written at `at` designates (None: unresolvable, so
    /// nothing can be said about the value there).
    fn deref(&self, reference: &str, dynamic: bool, at: &Pointer) -> Option<(Pointer, &Value)> {
        let (p, _) = if dynamic {
            self.index.dynamic_target(reference, at, &self.root, &self.moves)?
        } else {
            self.index.target(reference, at, &self.root, &self.moves)?
        };
        let node = self.root.at(&p)?;
        Some((p, node))
    }
}

/// The `$ref` targets a walk over the original schema is inside, each with the
/// instance depth it was entered at. The same pair again is a loop that
/// consumes nothing of the instance, so it constrains nothing further and is
/// not entered.
#[derive(Default)]
pub(super) struct RefTrail(Vec<(Pointer, usize)>);

impl RefTrail {
    /// Steps into the target of `reference`, written at `*spath`: `*spath`
    /// becomes the target's pointer, and the previous one comes back with the
    /// target schema, for `leave`. None when the ref does not resolve or would
    /// close a loop at instance depth `depth`.
    pub(super) fn enter<'d>(
        &mut self,
        doc: &'d Original,
        (key, reference): (&str, &str),
        spath: &mut Pointer,
        depth: usize,
    ) -> Option<(Pointer, &'d Value)> {
        let (target, schema) = doc.deref(reference, key == "$dynamicRef", spath)?;
        let entry = (target.clone(), depth);
        if self.0.contains(&entry) {
            return None;
        }
        self.0.push(entry);
        Some((std::mem::replace(spath, target), schema))
    }

    /// Undoes the last `enter`.
    pub(super) fn leave(&mut self, spath: &mut Pointer, saved: Pointer) {
        *spath = saved;
        self.0.pop();
    }
}

/// Options of [`restore`] and [`prepare`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RestoreOptions {
    /// Also treat `""` in an optional field as absent and remove it (models
    /// send it where they mean "absent" as often as `null`), even where the
    /// original accepts it: an opt-in exception to "what fits is kept".
    pub empty_strings: bool,
    /// Deepest nesting accepted in the arguments and the schema.
    pub max_depth: Option<usize>,
    /// The normalization options the schema was sent with (they decide, for
    /// example, whether a scalar root was wrapped).
    pub normalize: Option<Options>,
}

impl RestoreOptions {
    pub fn from_json(text: &str) -> Result<Self> {
        RestoreOptions::from_map(crate::settings::object(text, "restore options")?)
    }

    /// The names `from_map` reads, as callers spell them.
    pub const NAMES: [&'static str; 3] = ["emptyStrings", "maxDepth", "normalize"];

    /// Restore options from their JSON object's members (`crate::settings`),
    /// as serde's derive reads them.
    pub fn from_map(members: crate::doc::Map) -> Result<Self> {
        use crate::settings::{flag, maybe_count, unknown};
        let mut o = RestoreOptions::default();
        for (key, v) in members {
            let name = key.as_str();
            match name {
                "emptyStrings" => o.empty_strings = flag(name, &v)?,
                "maxDepth" => o.max_depth = maybe_count(name, &v)?,
                "normalize" => {
                    o.normalize = match v {
                        Value::Null => None,
                        Value::Object(m) => Some(Options::from_map(m)?),
                        other => return Err(crate::settings::wrong(name, "the normalization options (an object)", &other)),
                    }
                }
                _ => return Err(unknown(name, &Self::NAMES)),
            }
        }
        Ok(o)
    }

    /// `maxDepth`, else the normalization options', else the default.
    pub fn max_depth(&self) -> usize {
        self.max_depth.unwrap_or_else(|| {
            self.normalize
                .as_ref()
                .map_or(Options::default().max_depth, |o| o.max_depth)
        })
    }
}

/// Arguments after a rewrite, and what was changed (instance pointers).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rewritten {
    pub args: Value,
    pub report: Report,
}

crate::doc::write_json_struct!(Rewritten { always args: "args", always report: "report" });

/// The result of [`validate`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Validation {
    pub valid: bool,
    pub errors: Vec<ArgError>,
    /// Schema pointers of `pattern`s that were not checked: the linear-time
    /// engine has no lookaround or backreferences.
    pub unchecked: Vec<String>,
}

crate::doc::write_json_struct!(Validation { always valid: "valid", always errors: "errors", always unchecked: "unchecked" });

/// The result of [`prepare`]: the arguments to call the tool with, or the
/// errors (and one `message` to hand back to the model).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Prepared {
    pub ok: bool,
    pub args: Value,
    pub errors: Vec<ArgError>,
    pub report: Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

crate::doc::write_json_struct!(Prepared { always ok: "ok", always args: "args", always errors: "errors", always report: "report", some message: "message" });

fn check_args_depth(args: &Value, limit: usize) -> Result<()> {
    if walk::value_depth(args) > limit {
        return Err(Error::TooDeep {
            pointer: Pointer::root(),
            limit,
        });
    }
    Ok(())
}

/// Undoes the rewrites `target` makes to a schema's argument shape: nulls (and
/// optionally empty strings) in optional fields are removed, stringified enum
/// values get their original type back, a merged object union comes back as
/// the branch the original describes, a wrapped scalar root is unwrapped, an
/// open map sent as entries comes back as the map and a value of any type
/// sent as JSON text as the value. `$ref` inlining and spilled keywords need
/// nothing: no target renames properties, so the shape under a property is
/// the original's. An entries array that names a key twice is left as sent
/// and noted (`duplicate-key`); `prepare` reports it as an error.
pub fn restore(
    args: &Value,
    original: &Value,
    target: &Target,
    opts: &RestoreOptions,
) -> Result<Rewritten> {
    let max_depth = opts.max_depth();
    check_args_depth(args, max_depth)?;
    let doc = Original::new(original, max_depth)?;
    let did = Normalized::of(original, target, opts)?;
    Ok(restore_with(args, &doc, target, opts, did)?.0)
}

/// What the normalization of the original did that restore undoes, read
/// from one normalization's report.
#[derive(Clone, Copy, Debug, Default)]
struct Normalized {
    /// A scalar root went out as the property `value`.
    root_wrapped: bool,
    /// Which lossless encodings it applied.
    encoded: fix::Encoded,
}

impl Normalized {
    /// Asked of the normalizer itself, so restore and normalize never
    /// disagree. A target without an object root wraps nothing: there a
    /// failed normalization only means nothing was encoded either.
    fn of(original: &Value, target: &Target, opts: &RestoreOptions) -> Result<Normalized> {
        // A target that neither wraps a root nor has an encoding rule (MCP,
        // the grammar backends, ...) did neither: no normalization per call.
        use crate::passes::open_maps::{ANY_RULE, MAPS_RULE};
        if !target.caps.root_object && !target.passes.iter().any(|p| p.name == MAPS_RULE || p.name == ANY_RULE) {
            return Ok(Normalized::default());
        }
        let nopts = opts.normalize.clone().unwrap_or_default();
        let out = match crate::pipeline::normalize(original, target, &nopts) {
            Ok(out) => out,
            Err(e) if target.caps.root_object => return Err(e),
            Err(_) => return Ok(Normalized::default()),
        };
        let counted = |c: &str| out.report.counters.get(c).is_some_and(|n| *n > 0);
        Ok(Normalized {
            root_wrapped: target.caps.root_object && out.report.has("root-wrapped"),
            encoded: fix::Encoded { maps: counted("mapsAsEntries"), any: counted("anyValuesAsJson"), tuples: counted("tuplesAsObjects") },
        })
    }
}

/// `restore` once the original is read and the normalization asked; with
/// what the model must fix that no rewrite can (for `prepare`).
fn restore_with(
    args: &Value,
    doc: &Original,
    target: &Target,
    opts: &RestoreOptions,
    did: Normalized,
) -> Result<(Rewritten, Vec<ArgError>)> {
    let mut report = Report::default();
    let mut args = args.clone();
    if did.root_wrapped {
        if let Value::Object(m) = &args {
            if m.has("value") && m.iter().all(|(k, v)| k == "value" || v.is_null()) {
                let inner = m.field("value").cloned().unwrap_or(Value::Null);
                report.note(
                    "root-unwrapped",
                    &Pointer::root(),
                    format!("{} received a non-object root as the property \"value\"; the value was taken out", target.id),
                );
                args = inner;
            }
        }
    }
    let mode = fix::Mode::Restore {
        empty_strings: opts.empty_strings,
        widened: fix::Widened::by(&target.caps),
        encoded: did.encoded,
    };
    let problems = fix::run(&mut args, doc, mode, &mut report)?;
    Ok((Rewritten { args, report }, problems))
}

/// Safe coercions guided by the original schema only, each reported: a numeric
/// string where only a number is allowed, `"true"`/`"false"` where only a
/// boolean is, a JSON-encoded string where only an array or object is, a lone
/// value where only an array is, an array of `{key, value}` entries where
/// only an open map is. Nothing is guessed beyond the schema.
pub fn repair(args: &Value, original: &Value, max_depth: usize) -> Result<Rewritten> {
    check_args_depth(args, max_depth)?;
    let doc = Original::new(original, max_depth)?;
    let mut report = Report::default();
    let mut args = args.clone();
    fix::run(&mut args, &doc, fix::Mode::Repair, &mut report)?;
    Ok(Rewritten { args, report })
}

/// Validates `args` against `original` (JSON Schema 2020-12; older drafts are
/// read the way normalization reads them). `format` is an annotation, as the
/// 2020-12 default says; every other assertion is checked.
pub fn validate(args: &Value, original: &Value, max_depth: usize) -> Result<Validation> {
    check_args_depth(args, max_depth)?;
    let doc = Original::new(original, max_depth)?;
    let (errors, unchecked) = validate::errors(args, &doc)?;
    Ok(Validation { valid: errors.is_empty(), errors, unchecked })
}

/// Restore, repair, validate: what to call the tool with, or what to tell the
/// model. `message` lists every error, one per line, for the tool result.
pub fn prepare(
    args: &Value,
    original: &Value,
    target: &Target,
    opts: &RestoreOptions,
) -> Result<Prepared> {
    let max_depth = opts.max_depth();
    check_args_depth(args, max_depth)?;
    let doc = Original::new(original, max_depth)?;
    let did = Normalized::of(original, target, opts)?;
    prepare_with(args, &doc, target, opts, did)
}

fn prepare_with(
    args: &Value,
    doc: &Original,
    target: &Target,
    opts: &RestoreOptions,
    did: Normalized,
) -> Result<Prepared> {
    let (restored, mut problems) = restore_with(args, doc, target, opts, did)?;
    let mut report = restored.report;
    let mut args = restored.args;
    problems.extend(fix::run(&mut args, doc, fix::Mode::Repair, &mut report)?);
    let (mut errors, unchecked) = validate::errors(&args, doc)?;
    put_problems(&mut errors, problems);
    for at in unchecked {
        report.note("pattern-unchecked", &Pointer::root(), format!("the pattern at {at} was not checked: it uses lookaround or backreferences"));
    }
    let message = (!errors.is_empty()).then(|| {
        let mut m = String::from("The arguments do not match the tool's input schema. Fix these and call the tool again:");
        for e in &errors {
            m.push_str("\n- ");
            m.push_str(&e.message);
        }
        m
    });
    Ok(Prepared {
        ok: errors.is_empty(),
        args,
        errors,
        report,
        message,
    })
}

/// Errors found while rewriting (an entries array naming a key twice) in
/// place of what validation says at and under the same pointer: the array
/// left as sent is not an object there, but the key is what to fix.
/// One pass over the errors (each looked up by its pointer's prefixes), so
/// many maps with many errors stay linear.
fn put_problems(errors: &mut Vec<ArgError>, problems: Vec<ArgError>) {
    if problems.is_empty() {
        return;
    }
    let order: Vec<String> = problems.iter().map(|p| p.pointer.clone()).collect();
    let mut pending: crate::hash::HashMap<String, ArgError> = crate::hash::HashMap::default();
    for p in problems {
        pending.entry(p.pointer.clone()).or_insert(p);
    }
    let at: crate::hash::HashSet<String> = order.iter().cloned().collect();
    let owner = |pointer: &str| -> Option<String> {
        let mut p = pointer;
        loop {
            if at.contains(p) {
                return Some(p.to_string());
            }
            p = &p[..p.rfind('/')?];
        }
    };
    let mut out = Vec::with_capacity(errors.len() + pending.len());
    for e in errors.drain(..) {
        match owner(&e.pointer) {
            Some(k) => out.extend(pending.remove(&k)),
            None => out.push(e),
        }
    }
    out.extend(order.iter().filter_map(|k| pending.remove(k)));
    *errors = out;
}

/// What `prepare` says about arguments that are not JSON (models cut them
/// off, or write a trailing comma): the text is kept, and the model is told.
pub fn unparsable(text: &str, parse_error: &str) -> Prepared {
    let message = format!("the arguments are not valid JSON ({parse_error}); send one JSON object");
    let to_model = format!("The arguments do not match the tool's input schema. Fix these and call the tool again:\n- {message}");
    failed_call(Value::String(text.to_string()), &message, "json", to_model)
}

/// A failed preparation caused by the call itself rather than a value in the
/// arguments (text that is not JSON, a tool name no tool has): the arguments
/// are kept as they came, the error is `message` under `keyword`, and
/// `to_model` what the model is told.
pub fn failed_call(args: Value, message: &str, keyword: &str, to_model: String) -> Prepared {
    Prepared {
        ok: false,
        args,
        errors: vec![ArgError { pointer: String::new(), keyword: keyword.into(), schema_pointer: String::new(), message: message.to_string() }],
        report: Report::default(),
        message: Some(to_model),
    }
}

/// A value's JSON text for a message, cut to a readable length.
pub(crate) fn preview(v: &Value) -> String {
    let text = crate::doc::json_text(v);
    if text.chars().count() <= 60 {
        return text;
    }
    let cut: String = text.chars().take(57).collect();
    format!("{cut}…")
}

/// Where in the arguments, for a message: `` `filters[0].limit` ``, or
/// "the arguments" at the root.
pub(crate) fn place(at: &Pointer) -> String {
    if at.is_empty() {
        return "the arguments".into();
    }
    let mut out = String::new();
    for seg in at.segments() {
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) && !out.is_empty() {
            out.push_str(&format!("[{seg}]"));
        } else if !seg.is_empty()
            && seg
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '$')
        {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        } else {
            out.push_str(&format!("[{}]", json!(seg)));
        }
    }
    format!("`{out}`")
}

//! JSON-text entry points: what the wasm boundary forwards to, and what the
//! native tests drive. Every result is an envelope: `{"ok": …}` or `{"error": …}`.
use crate::error::Error;
use crate::options::Options;
use crate::phase::{mark, Phase};
use crate::check::check;
use crate::targets;
use crate::pipeline::Outcome;
use crate::json;
use crate::doc::{Value, WriteJson};

fn ok<T: WriteJson + ?Sized>(payload: &T) -> String {
    let mut out = String::from("{\"ok\":");
    payload.write_json(&mut out);
    out.push('}');
    out
}

fn err(e: &Error) -> String {
    json!({"error": {"code": e.code(), "pointer": e.pointer(), "message": e.to_string()}}).to_string()
}

/// Parses JSON text within a depth limit (kept here under its old path).
pub use crate::json::parse;

pub fn normalize_json(input: &str, target: &str, options: &str) -> String {
    normalize_json_as(input, target, options, false)
}

/// `normalize_json` answering `{"shared": payload}`, the schema written with
/// what equals the input's value at the same place as `doc::SAME`
/// (`doc::write_sharing`); or `{"ok": payload}` when it cannot be.
pub fn normalize_json_sharing(input: &str, target: &str, options: &str) -> String {
    normalize_json_as(input, target, options, true)
}

fn normalize_json_as(input: &str, target: &str, options: &str, share: bool) -> String {
    let run = || -> Result<String, Error> {
        let (out, outcome) = normalize_text(input, target, Options::from_json(options)?)?;
        let text = answer(input, &out, outcome, true, share);
        crate::pipeline::discard(out);
        text
    };
    run().unwrap_or_else(|e| err(&e))
}

/// The envelope of a normalization, `{"ok": {schema, strict?, strictError?,
/// report?}}`: what serde_json writes for `Normalized` (the report only when
/// asked), byte for byte, with the schema written by `Value::write_json`.
/// Asked to `share`, `{"shared": …}` with the schema written against `input`
/// (`doc::write_sharing`), unless it cannot be, or the schema went out
/// strict: strict mode rewrites every object (`required` lists every
/// property, `additionalProperties: false`), so little of it is unchanged,
/// and comparing it with the input cost more than it saved (the object API
/// on the real MCP schemas: 0.96 of the plain answer's speed).
/// A schema given back as it came (`Outcome::Untouched`) is written with
/// its marks known, without comparing it with the input (`doc::write_unchanged`).
fn answer(input: &str, out: &crate::pipeline::Normalized, outcome: Outcome, report: bool, share: bool) -> Result<String, Error> {
    let mut text = String::with_capacity(input.len() + 32);
    match outcome {
        Outcome::Untouched { stripped } if share => {
            text.push_str("{\"shared\":{\"schema\":");
            crate::doc::write_unchanged(&out.schema, stripped, &mut text);
        }
        _ => open_answer(&mut text, "schema", &out.schema, input, share && out.strict != Some(true)),
    }
    if let Some(strict) = out.strict {
        text.push_str(if strict { ",\"strict\":true" } else { ",\"strict\":false" });
    }
    if let Some(e) = &out.strict_error {
        text.push_str(",\"strictError\":");
        e.write_json(&mut text);
    }
    if report {
        text.push_str(",\"report\":");
        out.report.write_json(&mut text);
    }
    text.push_str("}}");
    Ok(text)
}

/// Opens an envelope with its first member, `field` (a name JSON writes as
/// it is): `{"shared":{"field":` and `value` written against `input`
/// (`doc::write_sharing`) when asked to `share` and it can be, else
/// `{"ok":{"field":` and `value` as it is.
fn open_answer(text: &mut String, field: &str, value: &Value, input: &str, share: bool) {
    let start = text.len();
    if share {
        text.push_str("{\"shared\":{\"");
        text.push_str(field);
        text.push_str("\":");
        if crate::doc::write_sharing(value, input, text) {
            return;
        }
        text.truncate(start);
    }
    text.push_str("{\"ok\":{\"");
    text.push_str(field);
    text.push_str("\":");
    value.write_json(text);
}

/// The JSON entry points' common part: parse `input`, normalize it for `target`.
fn normalize_text(input: &str, target: &str, opts: Options) -> Result<(crate::pipeline::Normalized, Outcome), Error> {
    let target = target_named(target)?;
    mark(Phase::Setup);
    let schema = crate::pipeline::parse_schema(input, opts.max_depth)?;
    mark(Phase::Parse);
    refuse_tool(&schema)?;
    crate::pipeline::normalize_parsed_noting(crate::pipeline::Input { value: schema, again: crate::pipeline::Again::Text(input), reached: true }, target, &opts)
}

/// A tool where a schema belongs is an error naming the slot to pass: read as
/// a schema it gives a wrong answer without a word (see `tools::shape`).
fn refuse_tool(schema: &Value) -> Result<(), Error> {
    match crate::tools::shape::tool_passed_as_schema(schema) {
        Some(slot) => Err(crate::tools::shape::tool_as_schema_error(slot)),
        None => Ok(()),
    }
}

/// The target with this id, or `unknown-target`.
fn target_named(id: &str) -> Result<&'static crate::targets::Target, Error> {
    targets::get(id).ok_or_else(|| targets::unknown(id))
}

/// `normalize_json` without the report: `{schema, strict?, strictError?}`.
/// For the functions that hand back only the schema; on the real MCP schemas
/// the report is nearly half of Google's payload (92 of 208 KB), and both
/// serializing it and parsing it in JavaScript cost time for nothing.
pub fn normalize_schema_json(input: &str, target: &str, options: &str) -> String {
    normalize_schema_json_as(input, target, options, false)
}

/// `normalize_schema_json` answering as `normalize_json_sharing` does.
pub fn normalize_schema_json_sharing(input: &str, target: &str, options: &str) -> String {
    normalize_schema_json_as(input, target, options, true)
}

fn normalize_schema_json_as(input: &str, target: &str, options: &str, share: bool) -> String {
    let run = || -> Result<String, Error> {
        mark(Phase::Start);
        let (out, outcome) = normalize_text(input, target, Options { quiet: true, ..Options::from_json(options)? })?;
        let text = answer(input, &out, outcome, false, share);
        mark(Phase::Answer);
        crate::pipeline::discard(out);
        text
    };
    run().unwrap_or_else(|e| err(&e))
}

/// Normalizes a tool list (JSON text). `options` carries `target` beside the
/// normalization options. Payload: `{"tools", "telemetry"}`.
pub fn normalize_tools_json(input: &str, options: &str) -> String {
    normalize_tools_json_as(input, options, false)
}

/// `normalize_tools_json` answering `{"shared": payload}`, the tools written
/// with what equals the input's value at the same place as `doc::SAME`
/// (`doc::write_sharing`); or `{"ok": payload}` for a strict target, whose
/// rules rewrite every object, or when it cannot be.
pub fn normalize_tools_json_sharing(input: &str, options: &str) -> String {
    normalize_tools_json_as(input, options, true)
}

fn normalize_tools_json_as(input: &str, options: &str, share: bool) -> String {
    let run = || -> Result<String, Error> {
        let (target, opts) = tools_options(options)?;
        // A tool list nests one level per tool wrapper above each schema.
        let list = parse(input, opts.max_depth + 4)?;
        let out = crate::tools::normalize_tools(&list, target, &opts)?;
        crate::pipeline::discard(list);
        // `ok(&out)` by hand, the tools by their own writer.
        let mut text = String::with_capacity(input.len() + 64);
        open_answer(&mut text, "tools", &out.tools, input, share && target.on_violation != targets::OnViolation::FailOpen);
        text.push_str(",\"telemetry\":");
        out.telemetry.write_json(&mut text);
        text.push_str("}}");
        crate::pipeline::discard(out);
        Ok(text)
    };
    run().unwrap_or_else(|e| err(&e))
}

/// A tool list or a request body (JSON text) with every tool normalized, as
/// JSON text of the same shape (`tools::text`). Not an envelope, so that the
/// body is never escaped into a string: `o`, the telemetry's JSON when
/// `telemetry` is set (JSON text holds no raw newline), a newline, then the
/// body; or `e` and the error envelope.
pub fn normalize_tools_text(input: &str, options: &str, telemetry: bool) -> String {
    let run = || -> Result<String, Error> {
        let (target, opts) = tools_options(options)?;
        // Without telemetry nothing reads the reports: the run is quiet.
        let opts = Options { quiet: !telemetry, ..opts };
        let (body, report) = crate::tools::text::normalize_tools_text(input, target, &opts)?;
        let report = if telemetry { report.to_json_text() } else { String::new() };
        let mut out = String::with_capacity(body.len() + report.len() + 2);
        out.push('o');
        out.push_str(&report);
        out.push('\n');
        out.push_str(&body);
        Ok(out)
    };
    run().unwrap_or_else(|e| format!("e{}", err(&e)))
}

/// The tool-list entry points' options: `target` beside the normalization options.
fn tools_options(options: &str) -> Result<(&'static crate::targets::Target, Options), Error> {
    let mut raw = crate::settings::object(options, "options")?;
    let target = match raw.shift_remove("target") {
        Some(Value::String(t)) => t,
        _ => return Err(Error::InvalidOptions { message: "normalizeTools needs options.target (a target id)".into() }),
    };
    let target = target_named(&target)?;
    Ok((target, Options::from_map(raw)?))
}

/// WordPress: compiles an ability schema for `target` (openai, anthropic,
/// google, default). Payload: as `normalize_json`.
pub fn compile_ability_json(input: &str, target: &str, options: &str) -> String {
    let run = || -> Result<String, Error> {
        let opts = Options::from_json(options)?;
        let schema = parse(input, opts.max_depth)?;
        Ok(ok(&crate::wordpress::compile_ability_schema(&schema, target, &opts)?))
    };
    run().unwrap_or_else(|e| err(&e))
}

/// WordPress authoring guidance. Payload: `[{"code", "pointer", "message"}]`.
pub fn lint_json(input: &str) -> String {
    let run = || -> Result<String, Error> { Ok(ok(&crate::wordpress::lint(&parse(input, Options::default().max_depth)?))) };
    run().unwrap_or_else(|e| err(&e))
}

/// The target for `{provider, model, api, strict}` (JSON text). Payload: the id.
pub fn target_for_json(route: &str) -> String {
    let run = || -> Result<String, Error> {
        Ok(ok(&crate::route::target_for(&crate::route::Route::from_json(route)?)))
    };
    run().unwrap_or_else(|e| err(&e))
}

pub fn check_json(input: &str, target: &str) -> String {
    let run = || -> Result<String, Error> {
        let target = target_named(target)?;
        let schema = parse(input, Options::default().max_depth)?;
        refuse_tool(&schema)?;
        Ok(ok(&check(&schema, target)))
    };
    run().unwrap_or_else(|e| err(&e))
}

pub fn targets_json() -> String {
    let list: Vec<Value> =
        targets::TARGETS
        .iter()
        .map(|t| {
            json!({
                "id": t.id,
                "description": t.description,
                "source": t.source,
                "strict": t.on_violation == targets::OnViolation::FailOpen,
            })
        })
        .collect();
    ok(&list)
}

/// The round trip (`crate::args`). `args` and `original` are JSON text;
/// `target` a target id; `options` the restore options (JSON, may be empty).
/// With `options.name`, `original` is the tool list (or the tool) and `name`
/// the name the model called; the payload then says which tool (`tool`).
pub fn restore_arguments_json(args: &str, original: &str, target: &str, options: &str) -> String {
    let run = || -> Result<String, Error> {
        let (opts, called) = restore_options(options)?;
        let target = target_named(target)?;
        let (args, original) = args_and_schema(args, original, opts.max_depth())?;
        let Some(called) = called else { return Ok(ok(&crate::args::restore(&args, &original, target, &opts)?)) };
        let tool = match crate::tools::find_tool(&original, &called, target)? {
            Ok(tool) => tool,
            Err(offered) => return Err(Error::InvalidOptions { message: no_such_tool(&called, &offered) }),
        };
        let restored = crate::args::restore(&args, tool.schema.unwrap_or(&crate::pipeline::cca_fallback()), target, &opts)?;
        Ok(ok(&with_tool(&restored, &tool)))
    };
    run().unwrap_or_else(|e| err(&e))
}

/// The round trip's options, with `name` (the tool name the model called)
/// taken out: the restore options refuse keys they do not know.
fn restore_options(options: &str) -> Result<(crate::args::RestoreOptions, Option<String>), Error> {
    let mut raw = crate::settings::object(options, "restore options")?;
    let called = match raw.shift_remove("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some(name),
        Some(_) => return Err(Error::InvalidOptions { message: "options.name must be a string: the tool name the model called".into() }),
    };
    Ok((crate::args::RestoreOptions::from_map(raw)?, called))
}

fn no_such_tool(called: &str, offered: &[String]) -> String {
    format!("there is no tool named {called:?}; the tools are: {}", offered.join(", "))
}

/// A round-trip payload (an object) with the tool it was for, as its last
/// member: `{..., tool: {index, pointer, name}}`.
fn with_tool<T: WriteJson>(payload: &T, tool: &crate::tools::CalledTool) -> WithTool {
    let mut text = payload.to_json_text();
    debug_assert!(text.ends_with('}') && text.len() > 2, "{text}");
    text.pop();
    text.push_str(",\"tool\":");
    tool.write_json(&mut text);
    text.push('}');
    WithTool(text)
}

/// An answer already written (`with_tool`).
struct WithTool(String);

impl WriteJson for WithTool {
    fn write_json(&self, out: &mut String) {
        out.push_str(&self.0);
    }
}

/// Payload: `{"args", "report"}`.
pub fn repair_arguments_json(args: &str, original: &str, options: &str) -> String {
    let run = || -> Result<String, Error> {
        let opts = crate::args::RestoreOptions::from_json(options)?;
        let depth = opts.max_depth();
        let (args, original) = args_and_schema(args, original, depth)?;
        Ok(ok(&crate::args::repair(&args, &original, depth)?))
    };
    run().unwrap_or_else(|e| err(&e))
}

/// Payload: `{"valid", "errors": [{"pointer", "keyword", "schemaPointer", "message"}]}`.
pub fn validate_arguments_json(args: &str, original: &str, options: &str) -> String {
    let run = || -> Result<String, Error> {
        let opts = crate::args::RestoreOptions::from_json(options)?;
        let depth = opts.max_depth();
        let (args, original) = args_and_schema(args, original, depth)?;
        Ok(ok(&crate::args::validate(&args, &original, depth)?))
    };
    run().unwrap_or_else(|e| err(&e))
}

/// Restore, repair, validate. Payload: `{"ok", "args", "errors", "report", "message"?}`.
/// With `options.name`, as `restore_arguments_json`; a name no tool has is
/// the model's mistake, so a failed preparation that says which names exist.
pub fn prepare_tool_call_json(args: &str, original: &str, target: &str, options: &str) -> String {
    let run = || -> Result<String, Error> {
        let (opts, called) = restore_options(options)?;
        let target = target_named(target)?;
        let depth = opts.max_depth();
        let original = parse(original, depth)?;
        // Arguments a model wrote that are not JSON at all are the model's
        // mistake to fix, not the caller's: a failed preparation, not an error.
        let parsed = match parse(args, depth) {
            Ok(args) => Ok(args),
            Err(Error::InvalidJson { message }) => Err(message),
            Err(e) => return Err(e),
        };
        let tool = match &called {
            None => None,
            Some(called) => match crate::tools::find_tool(&original, called, target)? {
                Ok(tool) => Some(tool),
                Err(offered) => {
                    let args = parsed.unwrap_or_else(|_| Value::String(args.to_string()));
                    let message = no_such_tool(called, &offered);
                    let to_model = format!("There is no tool named {called:?}. Call one of these tools instead: {}", offered.join(", "));
                    return Ok(ok(&crate::args::failed_call(args, &message, "tool", to_model)));
                }
            },
        };
        let args = match parsed {
            Ok(args) => args,
            Err(message) => {
                let failed = crate::args::unparsable(args, &message);
                return Ok(match &tool {
                    Some(tool) => ok(&with_tool(&failed, tool)),
                    None => ok(&failed),
                });
            }
        };
        let Some(tool) = tool else { return Ok(ok(&crate::args::prepare(&args, &original, target, &opts)?)) };
        let prepared = crate::args::prepare(&args, tool.schema.unwrap_or(&crate::pipeline::cca_fallback()), target, &opts)?;
        Ok(ok(&with_tool(&prepared, &tool)))
    };
    run().unwrap_or_else(|e| err(&e))
}

fn args_and_schema(args: &str, original: &str, max_depth: usize) -> Result<(Value, Value), Error> {
    Ok((parse(args, max_depth)?, parse(original, max_depth)?))
}

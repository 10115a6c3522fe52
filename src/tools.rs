//! Tool lists: every schema in an OpenAI, Responses, Anthropic, MCP or Gemini
//! tool list (or an MCP `tools/list` response) normalized for one target, with
//! telemetry. One tool's failure never fails the list: that tool gets the empty
//! object schema and its error is reported.
pub mod names;
pub mod shape;
pub mod text;

use crate::lookup::Fields;
use crate::report::{Diagnostic, Report};
use crate::check::Violation;
use crate::error::Error;
use crate::options::Options;
use crate::pipeline::normalize;
use crate::targets::Target;
use shape::{get_path, schema_slot, set_path};
use crate::hash::IndexMap;
use serde::Serialize;
use crate::json;
use crate::doc::Value;
use crate::keywords::kw;

/// The counters seed 001 (mcp-schema-normalize) reports, always present.
pub const SEED_COUNTERS: &[&str] = &[
    "refsInlined",
    "cyclesPreserved",
    "refsUnresolved",
    "sizeCoarsenings",
    "maxInlineDepthReached",
    "anyofRewrites",
    "oneofRewrites",
    "notDrops",
    "emptyUnionDrops",
    "unionCoexistenceSkipped",
];

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolReport {
    pub index: usize,
    /// Where the tool sits in the list (JSON pointer): Gemini's groups nest it.
    pub pointer: String,
    pub name: Option<String>,
    /// The name the tool is sent under, when the target's rule refused `name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider_name: Option<String>,
    /// The tool changed: its schema, or its name.
    pub modified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict_error: Option<Violation>,
    /// Why the tool's schema could not be normalized (it got the empty object schema).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    pub report: Report,
}

crate::doc::write_json_struct!(ToolReport {
    always index: "index",
    always pointer: "pointer",
    always name: "name",
    some provider_name: "providerName",
    always modified: "modified",
    some strict: "strict",
    some strict_error: "strictError",
    some error: "error",
    always report: "report",
});

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Telemetry {
    pub tools_seen: usize,
    pub tools_modified: usize,
    /// Any tool's normalization was lossy (or failed).
    pub lossy: bool,
    /// Summed over every tool; the seed's counters are always present.
    pub counters: IndexMap<&'static str, u64>,
    pub tools: Vec<ToolReport>,
    /// `{providerName: originalName}` for every tool sent under another name.
    pub names: IndexMap<String, String>,
    /// What concerns the list rather than one schema (`tool-name-rewritten`,
    /// `tool-list-too-large`), with pointers into the list.
    pub diagnostics: Vec<Diagnostic>,
    /// The list's combined size, on targets that measure it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub list_size: Option<ListSize>,
}

crate::doc::write_json_struct!(Telemetry {
    always tools_seen: "toolsSeen",
    always tools_modified: "toolsModified",
    always lossy: "lossy",
    always counters: "counters",
    always tools: "tools",
    always names: "names",
    always diagnostics: "diagnostics",
    some list_size: "listSize",
});

/// The size of the tools as sent: the compact JSON of the output tools.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSize {
    pub bytes: usize,
    /// The ceiling past which the backend fails, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
    /// Past the ceiling: the fewest tools, largest first, whose removal brings
    /// the list under it (indices into `telemetry.tools`).
    pub drop: Vec<usize>,
}

crate::doc::write_json_struct!(ListSize { always bytes: "bytes", some limit: "limit", always drop: "drop" });

#[derive(Clone, Debug, Serialize)]
pub struct ToolsOutcome {
    pub tools: Value,
    pub telemetry: Telemetry,
}

crate::doc::write_json_struct!(ToolsOutcome { always tools: "tools", always telemetry: "telemetry" });

/// Normalizes every tool's schema in `list` for `target`, keeping the list's
/// shape; renames tools whose names the target refuses, and measures the list
/// where the target has a size ceiling.
pub fn normalize_tools(list: &Value, target: &Target, opts: &Options) -> Result<ToolsOutcome, Error> {
    normalize_tools_with(list, shape::places(list)?, Vec::new(), false, target, opts, None)
}

/// `normalize_tools` on a list its caller gives up (the JSON entry points').
/// When nothing reads a tool's schema after its run (a quiet call), each tool
/// and its schema are moved into the run instead of copied; on a target that
/// fails open, only when the caller can give the list `again` (as `list`
/// was), for the few runs that do. `shallow` says the caller knows no schema
/// nests past `opts.max_depth`.
///
/// A target with a request budget copies every schema: it normalizes the
/// tools past the budget again from their input, and reading the list's text
/// again for those, as fail-open does, cost 1.15x the wasm operators on
/// bodies of 20 real MCP tools, where the budget binds on most bodies.
pub(crate) fn normalize_tools_owned(
    mut list: Value,
    shallow: bool,
    target: &Target,
    opts: &Options,
    again: Option<&dyn Fn() -> Result<Value, Error>>,
) -> Result<ToolsOutcome, Error> {
    let fails_open = target.on_violation == crate::profile::OnViolation::FailOpen;
    let moves = opts.quiet && (!fails_open || again.is_some()) && target.caps.request_budget.is_none();
    if !moves {
        let out = normalize_tools(&list, target, opts);
        crate::pipeline::discard(list);
        return out;
    }
    let places = shape::places(&list)?;
    let taken = places
        .pointers
        .iter()
        .map(|p| {
            let tool = list.pointer_mut(p)?;
            let (path, _) = schema_slot(tool)?;
            // The slot keeps its key (as null), so the tool reads as having one.
            let schema = std::mem::take(shape::get_path_mut(tool, path)?);
            Some(Taken { tool: std::mem::take(tool), schema })
        })
        .collect();
    let out = normalize_tools_with(&list, places, taken, shallow, target, opts, again.filter(|_| fails_open));
    crate::pipeline::discard(list);
    out
}

/// A tool taken out of its list, and its schema out of the tool (a null
/// left in the slot): the run takes the schema over, and the output tool is
/// the tool itself, not a copy of it around its schema.
struct Taken {
    tool: Value,
    schema: Value,
}

/// `normalize_tools` of `list`, whose tools are at `places`, with each tool
/// and its schema taken from `moved` (by the tool's position) where it holds
/// one, and read from `list` otherwise.
fn normalize_tools_with(
    list: &Value,
    places: shape::Places,
    mut moved: Vec<Option<Taken>>,
    shallow: bool,
    target: &Target,
    opts: &Options,
    again: Option<&dyn Fn() -> Result<Value, Error>>,
) -> Result<ToolsOutcome, Error> {
    // A taken tool's place in the list holds a null: it is read from `moved`.
    let tools: Vec<&Value> = places.pointers.iter().map(|p| list.pointer(p).unwrap_or(&Value::Null)).collect();
    // The list as it was, made the first time a moved schema's run asks.
    let original: std::cell::OnceCell<Value> = std::cell::OnceCell::new();
    let mut out_tools = Vec::with_capacity(tools.len());
    let mut counters: IndexMap<&'static str, u64> = SEED_COUNTERS.iter().map(|c| (*c, 0)).collect();
    let mut reports = Vec::with_capacity(tools.len());
    let mut lossy = false;
    // The tools' names as they came, for the renaming rule: a taken tool
    // leaves the list.
    let mut names_in: Vec<Option<String>> = Vec::new();
    for (index, &listed) in tools.iter().enumerate() {
        let taken = moved.get_mut(index).and_then(Option::take);
        let tool = taken.as_ref().map_or(listed, |t| &t.tool);
        let name = tool.field("name").or_else(|| tool.get("function").and_then(|f| f.field("name"))).and_then(Value::as_str).map(String::from);
        if target.caps.tool_names.is_some() {
            names_in.push(shape::tool_name(tool).map(String::from));
        }
        let mut rep = ToolReport {
            index,
            pointer: places.pointers[index].clone(),
            name,
            provider_name: None,
            modified: false,
            strict: None,
            strict_error: None,
            error: None,
            report: Report::default(),
        };
        // Built only for a tool that lacks the schema its target requires.
        let required;
        let (mut tool_out, slot, schema) = match schema_slot(tool) {
            // A taken tool is its own output, its schema's slot holding null.
            Some(slot) if taken.is_some() => (Value::Null, slot, &Value::Null),
            // The tool is copied around its schema, which the run takes over as
            // its own copy (the input's stays for the comparison and fail-open).
            // (Every tool below is the listed one: a taken tool had a slot.)
            Some(slot) => (shape::clone_without(listed, slot.0), slot, get_path(listed, slot.0).unwrap_or(&Value::Null)),
            // Anthropic requires input_schema on every tool (F41 `input_schema: Field required`).
            None if target.caps.tool_schema_required && listed.is_object() => {
                let mut out = listed.clone();
                out["input_schema"] = Value::Null;
                required = crate::pipeline::cca_fallback();
                (out, (&["input_schema"][..], Some(&["strict"][..])), &required)
            }
            None => {
                reports.push(rep);
                out_tools.push(listed.clone());
                continue;
            }
        };
        let (slot, strict_slot) = slot;
        let own = taken.map(|Taken { tool, schema }| {
            tool_out = tool;
            schema
        });
        let outcome = match (own, again) {
            (Some(own), Some(list_again)) => {
                let pointer = &places.pointers[index];
                let schema_again = || -> Result<Value, Error> {
                    let whole = match original.get() {
                        Some(whole) => whole,
                        None => {
                            let made = list_again()?;
                            original.get_or_init(|| made)
                        }
                    };
                    let tool = whole.pointer(pointer).unwrap_or(&Value::Null);
                    Ok(get_path(tool, slot).cloned().unwrap_or(Value::Null))
                };
                crate::pipeline::normalize_taken_again(own, shallow, target, opts, crate::pipeline::Again::Lazy(&schema_again))
            }
            (Some(own), None) => crate::pipeline::normalize_taken(own, shallow, target, opts),
            (None, _) => normalize(schema, target, opts),
        };
        match outcome {
            Ok(n) => {
                // Telemetry only, which a quiet call does not return.
                rep.modified = !opts.quiet && n.schema != *schema;
                if let (Some(s), Some(sp)) = (n.strict, strict_slot) {
                    set_path(&mut tool_out, sp, Value::Bool(s));
                }
                set_path(&mut tool_out, slot, n.schema);
                rep.strict = n.strict;
                rep.strict_error = n.strict_error;
                rep.report = n.report;
            }
            Err(e) => {
                rep.modified = true;
                rep.error = Some(json!({"code": e.code(), "pointer": e.pointer(), "message": e.to_string()}));
                rep.report.lossy("tool-failed", &Default::default(), format!("this tool's schema could not be normalized ({}): {e}; it was replaced by an empty object schema", e.code()));
                set_path(&mut tool_out, slot, crate::pipeline::cca_fallback());
                // The empty object schema is not a strict one, whether or not the
                // tool format has a `strict` field to say so (MCP's has none).
                if target.on_violation == crate::profile::OnViolation::FailOpen {
                    if let Some(sp) = strict_slot {
                        set_path(&mut tool_out, sp, Value::Bool(false));
                    }
                    rep.strict = Some(false);
                }
            }
        }
        for (k, v) in &rep.report.counters {
            *counters.entry(k).or_insert(0) += v;
        }
        lossy |= rep.report.lossy;
        reports.push(rep);
        out_tools.push(tool_out);
    }
    if let Some(budget) = target.caps.request_budget {
        fit_budget(&tools, &mut out_tools, &mut reports, budget, target, opts)?;
    }
    let mut diagnostics = Vec::new();
    let names = rename(&names_in, &mut out_tools, &mut reports, target, &mut diagnostics);
    let list_size = target.caps.tool_list_size.map(|ceiling| measure(&out_tools, &reports, ceiling, target, &mut diagnostics));
    let modified_count = reports.iter().filter(|r| r.modified).count();
    let tools_seen = tools.len();
    let tools_value = if places.bare {
        Value::Array(out_tools)
    } else {
        let mut whole = shape::clone_around(list, &mut String::new(), &places.pointers);
        for (at, tool) in places.pointers.iter().zip(out_tools) {
            if let Some(slot) = whole.pointer_mut(at) {
                *slot = tool;
            }
        }
        whole
    };
    Ok(ToolsOutcome {
        tools: tools_value,
        telemetry: Telemetry { tools_seen, tools_modified: modified_count, lossy, counters, tools: reports, names, diagnostics, list_size },
    })
}

/// Sends every tool whose name the target's rule refuses under the name
/// `names::rewrite` gives it. Returns `{providerName: originalName}`.
/// `names_in`: each tool's name as it came, for a target with the rule.
fn rename(
    names_in: &[Option<String>],
    out: &mut [Value],
    reports: &mut [ToolReport],
    target: &Target,
    diagnostics: &mut Vec<Diagnostic>,
) -> IndexMap<String, String> {
    let mut map = IndexMap::default();
    let Some(rule) = target.caps.tool_names else { return map };
    let originals: Vec<Option<&str>> = names_in.iter().map(Option::as_deref).collect();
    for (i, new) in names::rewrite(&originals, &rule).into_iter().enumerate() {
        let (Some(new), Some(old)) = (new, originals[i]) else { continue };
        let path = shape::name_path(&out[i]);
        set_path(&mut out[i], path, Value::String(new.clone()));
        let r = &mut reports[i];
        r.provider_name = Some(new.clone());
        r.modified = true;
        diagnostics.push(Diagnostic {
            code: "tool-name-rewritten",
            pointer: format!("{}/{}", r.pointer, path.join("/")),
            message: format!(
                "{} refuses the tool name {old:?} (at most {} of letters, digits and _{}{}); it is sent as {new:?}, \
                 and prepareToolCall/restoreArguments given the name the model calls find the original tool again",
                target.id,
                rule.max,
                rule.extra.chars().map(|c| format!(" {c}")).collect::<String>(),
                if rule.letter_first { ", starting with a letter or _" } else { "" },
            ),
            lossy: false,
        });
        map.insert(new, old.to_string());
    }
    map
}

/// The size of the output tools as compact JSON (what a client sends), and,
/// past the target's ceiling, the tools to drop or shorten.
fn measure(out: &[Value], reports: &[ToolReport], ceiling: crate::profile::ListCeiling, target: &Target, diagnostics: &mut Vec<Diagnostic>) -> ListSize {
    let sizes: Vec<usize> = out.iter().map(|t| crate::doc::json_text(t).len()).collect();
    // `[`, `]` and a comma between two tools.
    let bytes = sizes.iter().sum::<usize>() + 2 + sizes.len().saturating_sub(1);
    let mut drop = Vec::new();
    let Some(limit) = ceiling.max_bytes.filter(|limit| bytes > *limit) else {
        return ListSize { bytes, limit: ceiling.max_bytes, drop };
    };
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    crate::sort::sort_by_key(&mut order, |&i| (std::cmp::Reverse(sizes[i]), i));
    let mut left = bytes;
    for i in order {
        if left <= limit {
            break;
        }
        left -= sizes[i] + 1;
        drop.push(i);
    }
    let named: Vec<String> = drop
        .iter()
        .map(|&i| format!("{} ({} bytes)", reports[i].name.as_deref().unwrap_or(&reports[i].pointer), sizes[i]))
        .collect();
    diagnostics.push(Diagnostic {
        code: "tool-list-too-large",
        pointer: String::new(),
        message: format!(
            "the tools add up to {bytes} bytes of JSON; {} fails to build its tool-call grammar past about {limit} \
             and may then generate without any constraint ({}). Send fewer tools or shorter descriptions: without \
             these {} the list fits: {}",
            target.id,
            ceiling.source,
            drop.len(),
            named.join(", ")
        ),
        lossy: false,
    });
    ListSize { bytes, limit: Some(limit), drop }
}

/// The tool a model called, found in the list it was offered from.
#[derive(Clone, Debug, Serialize)]
pub struct CalledTool<'v> {
    /// Its index among the list's tools (as in `telemetry.tools`).
    pub index: usize,
    /// Where it sits in the list (JSON pointer).
    pub pointer: String,
    /// Its original name: the one to call it by.
    pub name: Option<String>,
    /// Its schema (None: a tool without parameters).
    #[serde(skip)]
    pub schema: Option<&'v Value>,
}

crate::doc::write_json_struct!(CalledTool<'v> { always index: "index", always pointer: "pointer", always name: "name" });

/// The tool of `list` (a tool list in any shape `normalize_tools` reads, or
/// one tool) that a model called `called`: by the name `normalize_tools` sent
/// it under for `target`, or by its original name. `Err` of the outer result:
/// `list` is no tool list; of the inner: no tool has that name, with the names
/// the model was offered.
pub fn find_tool<'v>(list: &'v Value, called: &str, target: &Target) -> Result<Result<CalledTool<'v>, Vec<String>>, Error> {
    let pointers = match shape::places(list) {
        Ok(places) => places.pointers,
        // One tool rather than a list: a list of one.
        Err(e) if e.pointer().is_empty() && shape::tool_name(list).is_some() => vec![String::new()],
        Err(e) => return Err(e),
    };
    let tools: Vec<&Value> = pointers.iter().map(|p| list.pointer(p).unwrap_or(&Value::Null)).collect();
    let names: Vec<Option<&str>> = tools.iter().map(|t| shape::tool_name(t)).collect();
    let rule = target.caps.tool_names;
    let Some(index) = names::find(&names, rule.as_ref(), called) else {
        let sent = rule.map(|r| names::rewrite(&names, &r)).unwrap_or_else(|| vec![None; names.len()]);
        return Ok(Err(names.iter().zip(sent).filter_map(|(n, s)| s.or_else(|| n.map(String::from))).collect()));
    };
    let tool = tools[index];
    Ok(Ok(CalledTool {
        index,
        pointer: pointers[index].clone(),
        name: names[index].map(String::from),
        schema: schema_slot(tool).and_then(|(path, _)| get_path(tool, path)),
    }))
}

/// How much of a request budget one strict schema uses: properties not in
/// `required` and properties whose schema is a union (`anyOf` or a type list),
/// counted through nesting.
pub fn budget_use(schema: &Value) -> (usize, usize) {
    let (mut optional, mut unions) = (0, 0);
    crate::walk::nodes(schema, &mut |node| {
        let Some(Value::Object(props)) = node.field(kw::PROPERTIES) else { return };
        let required: Vec<&str> =
            node.field(kw::REQUIRED).and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        for (name, p) in props {
            optional += usize::from(!required.contains(&name.as_str()));
            unions += usize::from(p.field(kw::ANY_OF).is_some() || p.field(kw::TYPE).is_some_and(Value::is_array));
        }
    });
    (optional, unions)
}

/// Keeps as many tools strict as the request budget allows (cheapest first, so
/// the count is as high as it can be) and sends the rest without strict,
/// normalized for the relaxed target, each with the reason in its report.
fn fit_budget(
    tools: &[&Value],
    out: &mut [Value],
    reports: &mut [ToolReport],
    budget: crate::profile::RequestBudget,
    target: &Target,
    opts: &Options,
) -> Result<(), Error> {
    let mut strict: Vec<(usize, (usize, usize))> = reports
        .iter()
        .filter(|r| r.strict == Some(true))
        .map(|r| {
            let slot = schema_slot(&out[r.index]).map(|(p, _)| p).unwrap_or(&[]);
            (r.index, budget_use(get_path(&out[r.index], slot).unwrap_or(&Value::Null)))
        })
        .collect();
    crate::sort::sort_by_key(&mut strict, |(i, (o, u))| (o + u, *i));
    let (mut n, mut used_o, mut used_u) = (0, 0, 0);
    let relaxed = target.relaxed.and_then(crate::targets::get);
    for (index, (o, u)) in strict {
        if n < budget.tools && used_o + o <= budget.optional && used_u + u <= budget.unions {
            (n, used_o, used_u) = (n + 1, used_o + o, used_u + u);
            continue;
        }
        let Some(relaxed) = relaxed else { continue };
        let Some((slot, strict_slot)) = schema_slot(tools[index]) else { continue };
        let original = get_path(tools[index], slot).cloned().unwrap_or(Value::Null);
        let relaxed_out = normalize(&original, relaxed, opts)?;
        set_path(&mut out[index], slot, relaxed_out.schema);
        if let Some(sp) = strict_slot {
            set_path(&mut out[index], sp, Value::Bool(false));
        }
        let r = &mut reports[index];
        r.strict = Some(false);
        r.report.lossy(
            "strict-budget",
            &Default::default(),
            format!(
                "sent without strict: {} strict tools of one request may have at most {} tools, {} optional and {} union parameters \
                 in all; this tool has {o} optional and {u} union parameters, and {n} tools ({used_o} optional, {used_u} union) \
                 already use the budget",
                target.id, budget.tools, budget.optional, budget.unions
            ),
        );
        r.report.count("strictBudgetDowngrades");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    /// A tool that could not be normalized gets the empty object schema, which is
    /// no strict schema: on a strict target it is reported `strict: false` even in
    /// a format without a `strict` field (fuzz/ entry_points target, an MCP list
    /// for openai-strict with options every tool refuses).
    #[test]
    fn a_failed_tool_is_not_strict_in_any_format() {
        let opts = Options { strip_keywords: vec!["properties".into()], ..Options::default() };
        let schema = json!({"type": "object", "properties": {"repo": {"type": "string"}}});
        for list in [
            json!([{"name": "status", "inputSchema": schema}]),
            json!([{"type": "function", "function": {"name": "status", "parameters": schema}}]),
        ] {
            for target in [&crate::targets::openai::OPENAI_STRICT, &crate::targets::compat::DEEPSEEK_STRICT] {
                let out = normalize_tools(&list, target, &opts).unwrap();
                let tool = &out.telemetry.tools[0];
                assert!(tool.error.is_some() && tool.report.has("tool-failed"), "{list}");
                assert_eq!(tool.strict, Some(false), "{} {list}", target.id);
            }
        }
    }
}

//! Tool lists: every schema in an OpenAI, Responses, Anthropic, MCP or Gemini
//! tool list (or an MCP `tools/list` response) normalized for one target, with
//! telemetry. One tool's failure never fails the list: that tool gets the empty
//! object schema and its error is reported.
use crate::lookup::Fields;
use crate::report::Report;
use crate::{check::Violation, normalize, Error, Options, Target};
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{json, Value};

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
    pub name: Option<String>,
    /// The tool's schema changed.
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
}

#[derive(Clone, Debug, Serialize)]
pub struct ToolsOutcome {
    pub tools: Value,
    pub telemetry: Telemetry,
}

/// Where each tool shape keeps its schema, and where its strict flag goes:
/// OpenAI Chat (`function.parameters`), Responses and Gemini (`parameters`),
/// Anthropic (`input_schema`), MCP (`inputSchema`), Gemini JSON (`parametersJsonSchema`).
type Slot = (&'static [&'static str], Option<&'static [&'static str]>);
const SLOTS: &[Slot] = &[
    (&["function", "parameters"], Some(&["function", "strict"])),
    (&["parameters"], Some(&["strict"])),
    (&["input_schema"], Some(&["strict"])),
    (&["inputSchema"], None),
    (&["parametersJsonSchema"], None),
];

/// A tool without any schema (an OpenAI function without parameters) is left as it is.
fn schema_slot(tool: &Value) -> Option<Slot> {
    SLOTS.iter().copied().find(|(path, _)| get_path(tool, path).is_some())
}

fn get_path<'v>(v: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(v, |cur, k| cur.get(*k))
}

fn set_path(v: &mut Value, path: &[&str], new: Value) {
    let (last, parents) = path.split_last().expect("non-empty path");
    let mut cur = v;
    for k in parents {
        cur = &mut cur[*k];
    }
    cur[*last] = new;
}

/// The tool array inside any accepted list shape, and where it sits.
fn tool_array(list: &Value) -> Result<(&Vec<Value>, &'static [&'static str]), Error> {
    const PLACES: &[&[&str]] = &[&[], &["tools"], &["result", "tools"], &["functionDeclarations"]];
    PLACES
        .iter()
        .find_map(|path| match get_path(list, path) {
            Some(Value::Array(a)) => Some((a, *path)),
            _ => None,
        })
        .ok_or_else(not_a_list)
}

fn not_a_list() -> Error {
    Error::NotASchema {
        pointer: Default::default(),
        message: "expected a tool list: an array of OpenAI, Responses, Anthropic, MCP or Gemini tools, or an object with \
                  `tools`, `result.tools` or `functionDeclarations`"
            .into(),
    }
}

/// Normalizes every tool's schema in `list` for `target`, keeping the list's shape.
pub fn normalize_tools(list: &Value, target: &Target, opts: &Options) -> Result<ToolsOutcome, Error> {
    let (tools, path) = tool_array(list)?;
    let mut out_tools = Vec::with_capacity(tools.len());
    let mut counters: IndexMap<&'static str, u64> = SEED_COUNTERS.iter().map(|c| (*c, 0)).collect();
    let mut reports = Vec::with_capacity(tools.len());
    let (mut modified_count, mut lossy) = (0, false);
    for (index, tool) in tools.iter().enumerate() {
        let name = tool.field("name").or_else(|| tool.pointer("/function/name")).and_then(Value::as_str).map(String::from);
        let mut tool_out = tool.clone();
        if schema_slot(tool).is_none() && target.caps.tool_schema_required && tool.is_object() {
            // Anthropic requires input_schema on every tool (F41 `input_schema: Field required`).
            tool_out["input_schema"] = crate::cca_fallback();
        }
        let Some((slot, strict_slot)) = schema_slot(&tool_out) else {
            reports.push(ToolReport { index, name, modified: false, strict: None, strict_error: None, error: None, report: Report::default() });
            out_tools.push(tool_out);
            continue;
        };
        let schema = get_path(&tool_out, slot).cloned().unwrap_or(Value::Null);
        let mut rep = ToolReport { index, name, modified: false, strict: None, strict_error: None, error: None, report: Report::default() };
        match normalize(&schema, target, opts) {
            Ok(n) => {
                rep.modified = n.schema != schema;
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
                set_path(&mut tool_out, slot, crate::cca_fallback());
                // The empty object schema is not a strict one, whether or not the
                // tool format has a `strict` field to say so (MCP's has none).
                if target.on_violation == crate::targets::OnViolation::FailOpen {
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
        modified_count += usize::from(rep.modified);
        lossy |= rep.report.lossy;
        reports.push(rep);
        out_tools.push(tool_out);
    }
    if let Some(budget) = target.caps.request_budget {
        fit_budget(tools, &mut out_tools, &mut reports, budget, target, opts)?;
    }
    let tools_value = if path.is_empty() {
        Value::Array(out_tools)
    } else {
        let mut whole = list.clone();
        set_path(&mut whole, path, Value::Array(out_tools));
        whole
    };
    Ok(ToolsOutcome {
        tools: tools_value,
        telemetry: Telemetry { tools_seen: tools.len(), tools_modified: modified_count, lossy, counters, tools: reports },
    })
}

/// How much of a request budget one strict schema uses: properties not in
/// `required` and properties whose schema is a union (`anyOf` or a type list),
/// counted through nesting.
pub fn budget_use(schema: &Value) -> (usize, usize) {
    let (mut optional, mut unions) = (0, 0);
    crate::walk::visit(schema, &mut Default::default(), &mut |node, _| {
        let Some(Value::Object(props)) = node.field("properties") else { return };
        let required: Vec<&str> =
            node.field("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        for (name, p) in props {
            optional += usize::from(!required.contains(&name.as_str()));
            unions += usize::from(p.field("anyOf").is_some() || p.field("type").is_some_and(Value::is_array));
        }
    });
    (optional, unions)
}

/// Keeps as many tools strict as the request budget allows (cheapest first, so
/// the count is as high as it can be) and sends the rest without strict,
/// normalized for the relaxed target, each with the reason in its report.
fn fit_budget(
    tools: &[Value],
    out: &mut [Value],
    reports: &mut [ToolReport],
    budget: crate::targets::RequestBudget,
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
    strict.sort_by_key(|(i, (o, u))| (o + u, *i));
    let (mut n, mut used_o, mut used_u) = (0, 0, 0);
    let relaxed = target.relaxed.and_then(crate::targets::get);
    for (index, (o, u)) in strict {
        if n < budget.tools && used_o + o <= budget.optional && used_u + u <= budget.unions {
            (n, used_o, used_u) = (n + 1, used_o + o, used_u + u);
            continue;
        }
        let Some(relaxed) = relaxed else { continue };
        let Some((slot, strict_slot)) = schema_slot(&tools[index]) else { continue };
        let original = get_path(&tools[index], slot).cloned().unwrap_or(Value::Null);
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
    use serde_json::json;

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

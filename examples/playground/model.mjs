// What the playground shows for one input and one target, computed with the
// package alone (passed in as `ts`, the module's namespace) and no DOM: the
// output, its diagnostics with pointers into the output document, the strict
// and checker verdicts, and the sizes.
import { escapeToken } from "./jsonlines.mjs";
import { measure } from "./measure.mjs";

// Where a tool keeps its schema, in the order the package looks (its README,
// "A tool list"): OpenAI Chat, Responses and Gemini, Anthropic, MCP, Gemini JSON.
const SCHEMA_SLOTS = [["function", "parameters"], ["parameters"], ["input_schema"], ["inputSchema"], ["parametersJsonSchema"]];

// Where a list keeps its tools: the shapes normalizeTools reads.
const LIST_PLACES = [["tools"], ["result", "tools"], ["functionDeclarations"]];

/**
 * The pasted text as a value, or the package's own `invalid-json` error (a
 * ToolSchemaError with the position), so the message is the one users of
 * the package see.
 */
export function parseInput(ts, text) {
  try {
    return JSON.parse(text);
  } catch (syntaxError) {
    ts.normalize(text, "mcp"); // throws invalid-json with the parser's position
    throw syntaxError;
  }
}

/** `{kind: "tools", shape}` for a tool list in a shape normalizeTools reads, else `{kind: "schema"}`. */
export function inputKind(value) {
  if (Array.isArray(value)) return { kind: "tools", shape: "an array of tools" };
  if (value !== null && typeof value === "object") {
    for (const place of LIST_PLACES) {
      if (Array.isArray(place.reduce((v, k) => v?.[k], value))) {
        const shape = place.length === 2 ? "an MCP tools/list response" : place[0] === "tools" ? "a request's tools" : "Gemini function declarations";
        return { kind: "tools", shape };
      }
    }
  }
  return { kind: "schema" };
}

/** The value at JSON pointer `pointer` in `doc` (undefined when absent). */
export function at(doc, pointer) {
  if (pointer === "") return doc;
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((v, key) => (v !== null && typeof v === "object" && Object.hasOwn(v, key) ? v[key] : undefined), doc);
}

/** The pointer of a tool's schema slot within the tool, or undefined. */
function slotPointer(tool) {
  for (const path of SCHEMA_SLOTS) {
    if (at(tool, `/${path.join("/")}`) !== undefined) return `/${path.map(escapeToken).join("/")}`;
  }
  return undefined;
}

/** A ToolSchemaError (or anything thrown) as `{code, pointer, message}`. */
export function problemOf(err) {
  if (err instanceof Error && typeof err.code === "string") return { code: err.code, pointer: err.pointer ?? "", message: err.message };
  return { code: "internal", pointer: "", message: String(err?.message ?? err) };
}

/** `checkSchema`, with a refusal (the input is no schema at all) as one problem. */
function check(ts, schema, target, base) {
  try {
    return ts.checkSchema(schema, target).map((p) => ({ ...p, pointer: base + p.pointer }));
  } catch (err) {
    const p = problemOf(err);
    return [{ ...p, pointer: base + p.pointer }];
  }
}

/**
 * One target's result for `value` (`kind` from inputKind):
 * `{target, strictTarget, output?, error?, diagnostics, strict?, checked, problems, inputProblems, size, inputSize}`.
 *
 * - `diagnostics`: `{code, pointer, message, lossy, tool?}`, pointers into
 *   the output document (a tool's report is relative to its schema, so the
 *   tool's place and slot are prefixed).
 * - `strict` (strict targets): `{sent, of, reasons: [{tool?, code, pointer, message}]}`,
 *   how many schemas go out with `strict: true`.
 * - `problems`: what the target's checker finds in the output, for every
 *   schema that is sent as the target's own (a strict target's fail-open
 *   schema is the non-strict twin's output and is not held to the strict rules);
 *   `checked` counts those schemas.
 * - `inputProblems`: what the checker finds in the input as it was pasted.
 */
export function runTarget(ts, value, kind, info) {
  const target = info.id;
  const base = { target, strictTarget: info.strict === true, inputSize: measure(value), diagnostics: [], problems: [], inputProblems: [], checked: 0 };
  if (kind === "schema") {
    let result;
    try {
      result = ts.normalize(value, target);
    } catch (err) {
      return { ...base, error: problemOf(err) };
    }
    const sentStrict = !base.strictTarget || result.strict === true;
    return {
      ...base,
      output: result.schema,
      size: measure(result.schema),
      diagnostics: result.report.diagnostics.map((d) => ({ ...d })),
      strict: base.strictTarget ? { sent: result.strict === true ? 1 : 0, of: 1, reasons: result.strictError ? [result.strictError] : [] } : undefined,
      checked: sentStrict ? 1 : 0,
      problems: sentStrict ? check(ts, result.schema, target, "") : [],
      inputProblems: check(ts, value, target, ""),
    };
  }
  let result;
  try {
    result = ts.normalizeTools(value, { target });
  } catch (err) {
    return { ...base, error: problemOf(err) };
  }
  const { tools: output, telemetry } = result;
  const diagnostics = [];
  const problems = [];
  const inputProblems = [];
  const reasons = [];
  let sent = 0;
  let checked = 0;
  for (const tool of telemetry.tools) {
    const outTool = at(output, tool.pointer);
    const slot = slotPointer(outTool) ?? "";
    const schemaAt = tool.pointer + slot;
    const name = tool.name ?? `#${tool.index}`;
    if (tool.error) diagnostics.push({ code: tool.error.code, pointer: schemaAt + tool.error.pointer, message: `not normalized, sent as the empty object schema: ${tool.error.message}`, lossy: true, tool: name });
    for (const d of tool.report.diagnostics) diagnostics.push({ ...d, pointer: schemaAt + d.pointer, tool: name });
    if (tool.strict === true) sent++;
    if (tool.strictError) reasons.push({ ...tool.strictError, pointer: schemaAt + tool.strictError.pointer, tool: name });
    if (!base.strictTarget || tool.strict === true) {
      checked++;
      problems.push(...check(ts, at(output, schemaAt), target, schemaAt).map((p) => ({ ...p, tool: name })));
    }
    const inSlot = slotPointer(at(value, tool.pointer));
    if (inSlot !== undefined) inputProblems.push(...check(ts, at(value, tool.pointer + inSlot), target, tool.pointer + inSlot).map((p) => ({ ...p, tool: name })));
  }
  // Findings about the list itself (renamed tools, a list past a backend's size) carry absolute pointers.
  for (const d of telemetry.diagnostics ?? []) diagnostics.push({ ...d });
  return {
    ...base,
    output,
    size: measure(output),
    tools: telemetry.tools.length,
    diagnostics,
    strict: base.strictTarget ? { sent, of: telemetry.tools.length, reasons } : undefined,
    checked,
    problems,
    inputProblems,
  };
}

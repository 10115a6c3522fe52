// `toolschema/sdk`: one call from a tool list to the `tools` parameter of a
// provider SDK (`openai` Chat Completions and Responses, `@anthropic-ai/sdk`,
// `@google/genai`), and one call from that SDK's response to the tool calls
// with their arguments prepared for the original schemas. Nothing here
// imports an SDK: the tools are built as plain objects in each SDK's request
// shape and the responses are read by their documented fields.
import { ToolSchemaError, normalizeTools, prepareToolCall } from "toolschema";
import { escapeToken } from "./error.mjs";
import { SCHEMA_PLACES, nameHolder, schemaSlot, toolEntries } from "./tools.mjs";

// What each strict target fails open to (the README's target table): a tool
// sent without strict was normalized for this one, and is restored for it.
export const RELAXED = Object.freeze({ "openai-strict": "openai", "anthropic-strict": "anthropic", "deepseek-strict": "openai" });

/**
 * Chat Completions `tools`: `{type: "function", function: {name,
 * description, parameters, strict}}`. With `strict: true` each tool is
 * strict only where strict mode can express its schema (`strict: false`
 * and the non-strict schema otherwise).
 */
export function openaiChatTools(tools, options = {}) {
  const strict = options.strict === true;
  return convert(tools, options, strict ? "openai-strict" : "openai", ({ name, description, schema }) => ({
    type: "function",
    function: { name, ...(description !== undefined && { description }), parameters: schema, ...(strict && { strict: true }) },
  }), chatCalls);
}

/**
 * Responses API `tools`: `{type: "function", name, description, parameters,
 * strict}` (the API requires `strict`; it is `true` only where strict mode
 * can express the schema).
 */
export function openaiResponsesTools(tools, options = {}) {
  const strict = options.strict === true;
  return convert(tools, options, strict ? "openai-strict" : "openai-responses", ({ name, description, schema }) => ({
    type: "function",
    name,
    ...(description !== undefined && { description }),
    parameters: schema,
    strict,
  }), responsesCalls);
}

/**
 * Anthropic Messages `tools`: `{name, description, input_schema, strict}`.
 * With `strict: true`, a tool is strict where strict tool use can express its
 * schema and the request's budget allows (20 strict tools, 24 optional and 16
 * union parameters summed over the request:
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use);
 * the others are sent with `strict: false` and their report says why.
 */
export function anthropicTools(tools, options = {}) {
  const strict = options.strict === true;
  return convert(tools, options, strict ? "anthropic-strict" : "anthropic", ({ name, description, schema }) => ({
    name,
    ...(description !== undefined && { description }),
    input_schema: schema,
    ...(strict && { strict: true }),
  }), anthropicCalls);
}

/**
 * `@google/genai` `tools`: `[{functionDeclarations: [...]}]`. Gemini (target
 * `google`) gets the schema on `parametersJsonSchema`; Claude behind Cloud
 * Code Assist (a `claude-*` `model`, target `cca`) on the legacy
 * `parameters` (the transport contract of pi-ai's CONSTRAINTS.md, seed 003
 * §3.1 and §4).
 * `options.field` overrides the field.
 */
export function geminiTools(tools, options = {}) {
  const claude = /^claude/i.test(String(options.model ?? "").split("/").pop());
  const target = options.target ?? (claude ? "cca" : "google");
  const field = options.field ?? (target === "cca" ? "parameters" : "parametersJsonSchema");
  if (field !== "parameters" && field !== "parametersJsonSchema") {
    throw new ToolSchemaError("invalid-options", "", `geminiTools: field must be "parameters" or "parametersJsonSchema", got ${JSON.stringify(field)}`);
  }
  const set = convert(tools, { ...options, target }, target, ({ name, description, schema }) => ({
    name,
    ...(description !== undefined && { description }),
    [field]: schema,
  }), geminiCalls, (declarations) => [{ functionDeclarations: declarations }]);
  // @google/genai rewrites a declaration in place before sending it
  // (`tTool` assigns `functionDeclaration.parameters = processJsonSchema(...)`),
  // which throws on the deep-frozen list normalizeTools returns: it gets a copy.
  return { ...set, tools: structuredClone(set.tools) };
}

// The SDK-neutral core: read the tools, build the SDK's shape with the
// original schemas, normalize that list (names the provider refuses are
// renamed, `telemetry.names`), and keep what the restore needs.
function convert(input, options, defaultTarget, build, readCalls, wrap = (list) => list) {
  if (options === null || typeof options !== "object") throw new ToolSchemaError("invalid-options", "", "options must be an object");
  // The converter's own options; the rest are the core's.
  const { strict, target: chosen, model, field, arguments: argumentOptions, ...rest } = options;
  void [strict, model, field];
  const target = chosen ?? defaultTarget;
  const originals = readTools(input);
  const sent = wrap(originals.map(build));
  const { tools, telemetry } = normalizeTools(sent, { ...rest, target });
  const byName = new Map();
  telemetry.tools.forEach((info, i) => {
    const providerName = info.providerName ?? originals[i].name;
    const restoreTarget = info.strict === false ? RELAXED[target] ?? target : target;
    byName.set(providerName, { name: originals[i].name, schema: originals[i].schema, target: restoreTarget });
  });
  const calls = (response, callOptions) => readCalls(response).map((call) => prepareCall(call, byName, sent, target, { ...argumentOptions, ...callOptions }));
  return { tools, target, telemetry, calls };
}

/** `{name, description, schema}` for every tool of a list in any shape `normalizeTools` reads. */
function readTools(input) {
  const entries = toolEntries(input);
  if (entries === undefined) throw new ToolSchemaError("not-a-schema", "", "expected a tool list: MCP (tools/list), OpenAI, Responses, Anthropic or Gemini tools");
  return entries.map(({ tool, path }) => {
    const pointer = "/" + path.map((p) => escapeToken(String(p))).join("/");
    const holder = nameHolder(tool);
    if (typeof holder?.name !== "string") throw new ToolSchemaError("not-a-schema", pointer, `a tool must have a name (at ${pointer})`);
    const slot = schemaSlot(tool);
    // A declaration without parameters (Gemini allows it) takes none.
    const schema = slot === undefined ? { type: "object", properties: {} } : slot.value;
    if (slot === undefined && tool.type !== undefined && tool.type !== "function" && tool.type !== "custom") {
      throw new ToolSchemaError("not-a-schema", pointer, `tool "${holder.name}" has no schema at ${SCHEMA_PLACES}; built-in tools (type "${tool.type}") are not converted`);
    }
    const description = typeof holder.description === "string" ? holder.description : undefined;
    return { name: holder.name, description, schema };
  });
}

function prepareCall({ id, name, args }, byName, sent, target, options) {
  const entry = byName.get(name);
  if (entry === undefined) {
    // Not a name the request sent: the core says so and lists the tools.
    const prepared = prepareToolCall(args ?? {}, sent, { ...options, target, name });
    return { id, name, providerName: name, ...prepared };
  }
  const prepared = prepareToolCall(args === undefined || (typeof args === "string" && args.trim() === "") ? {} : args, entry.schema, { ...options, target: entry.target });
  return { id, name: entry.name, providerName: name, ...prepared };
}

const list = (v) => (Array.isArray(v) ? v : []);

// ChatCompletion (`choices[].message.tool_calls[]`) or one message.
function chatCalls(response) {
  const messages = Array.isArray(response?.choices) ? response.choices.map((c) => c?.message) : [response];
  return messages.flatMap((m) => list(m?.tool_calls)).filter((c) => c?.type === "function" || c?.function !== undefined)
    .map((c) => ({ id: c.id, name: c.function?.name, args: c.function?.arguments }));
}

// Response (`output[]` items of type function_call) or its output array.
function responsesCalls(response) {
  const output = Array.isArray(response) ? response : list(response?.output);
  return output.filter((item) => item?.type === "function_call").map((item) => ({ id: item.call_id, name: item.name, args: item.arguments }));
}

// Message (`content[]` blocks of type tool_use) or its content array.
function anthropicCalls(response) {
  const content = Array.isArray(response) ? response : list(response?.content);
  return content.filter((block) => block?.type === "tool_use").map((block) => ({ id: block.id, name: block.name, args: block.input }));
}

// GenerateContentResponse (first candidate's `content.parts[].functionCall`)
// or a list of function calls (its `functionCalls`).
function geminiCalls(response) {
  const calls = Array.isArray(response) ? response : list(response?.candidates?.[0]?.content?.parts).map((p) => p?.functionCall).filter(Boolean);
  return calls.map((call) => ({ id: call.id, name: call.name, args: call.args }));
}

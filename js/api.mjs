// The public API, written once and shared by every runtime entry (node.mjs,
// browser.mjs, workerd.mjs, deno.mjs) and by the CommonJS build made from
// node.mjs. Names follow the pi-ai normalizer this package replaces.
import { memoize } from "./cache.mjs";
import { ToolSchemaError, fromReport } from "./error.mjs";
import { toJsonText } from "./input.mjs";
import { callSharing } from "./share.mjs";
import { schemaSlot, toolEntries, withTools } from "./tools.mjs";
import { call, glue, guarded } from "./wasm.mjs";

export { ToolSchemaError };
export { cacheStats, clearCache, configureCache } from "./cache.mjs";

/**
 * Normalizes `schema` for `target`. Returns the core's payload, deep-frozen
 * and possibly shared with earlier calls (see cache.mjs):
 * `{schema, strict?, strictError?, report}`.
 */
export function normalize(schema, target, options) {
  return cachedCall("normalize", glue.normalizeJson, glue.normalizeJsonSharing, schema, target, options);
}

/**
 * `normalize` without the report, `{schema, strict?, strictError?}`, for the
 * functions that return only the schema: on the real MCP schemas the report
 * is nearly half of Google's payload, and serializing, parsing and freezing it
 * for nothing was about a tenth of such a call. Cached under its own keys.
 */
function normalizeQuiet(schema, target, options) {
  return cachedCall("schema", glue.normalizeSchemaJson, glue.normalizeSchemaJsonSharing, schema, target, options);
}

/**
 * Runs the core export `exported` on `schema` through the cache, keyed by
 * `kind`; for a plain JSON object, its twin `sharing`, whose answer names
 * what did not change (share.mjs).
 */
function cachedCall(kind, exported, sharing, schema, target, options) {
  const id = targetId(target);
  const opts = optionsText(options);
  return memoize(schema, cacheKey(kind, id, opts), (text, source) =>
    source === undefined ? call(exported, text, id, opts) : callSharing(sharing, "schema", source, text, id, opts),
  );
}

// Keys never collide: JSON.stringify writes no raw newline, so the last one
// ends the target id, and the first names the call. The key for a target
// without options is made once: an identity hit costs a walk of the schema
// and little else, and building and hashing a new key string on every call
// was a sixth of that (measured on the real MCP schemas).
const defaultKeys = { normalize: new Map(), schema: new Map() };
function cacheKey(kind, id, opts) {
  if (opts !== NO_OPTIONS) return `${kind}\n${id}\n${opts}`;
  const keys = defaultKeys[kind];
  let key = keys.get(id);
  if (key === undefined) {
    key = `${kind}\n${id}\n${opts}`;
    // Bounded: ids come from callers, and unknown ones fail in the core.
    if (keys.size < 64) keys.set(id, key);
  }
  return key;
}

/** The generic entry: `options.target` (default "mcp") plus core options. */
export function normalizeSchema(value, options) {
  const { target = "mcp", ...rest } = plainOptions(options);
  return normalizeQuiet(value, target, rest).schema;
}

export const normalizeSchemaForGoogle = (value) => normalizeQuiet(value, "google").schema;
export const normalizeSchemaForCCA = (value) => normalizeQuiet(value, "cca").schema;
export const normalizeSchemaForMCP = (value) => normalizeQuiet(value, "mcp").schema;
export const normalizeSchemaForOpenAIResponses = (value) => normalizeQuiet(value, "openai-responses").schema;
export const sanitizeSchemaForOpenAIResponses = normalizeSchemaForOpenAIResponses;

/** The first half of the strict pipeline alone: strip what strict mode rejects. */
export const sanitizeSchemaForStrictMode = (value) =>
  normalizeQuiet(value, "openai-strict", { strictStage: "sanitize" }).schema;

/**
 * The strict schema, or a thrown `strict-unrepresentable` ToolSchemaError.
 * The core's strictError may carry a checker code instead (e.g.
 * "missing-type"); callers match one stable code, and the checker's reason
 * stays in the message, its location in `pointer`.
 */
export function enforceStrictSchema(value, options) {
  const result = normalizeQuiet(value, "openai-strict", options);
  if (result.strict === true) return result.schema;
  const why = result.strictError ?? { code: "strict-unrepresentable", pointer: "", message: "no reason given" };
  const reason = why.code === "strict-unrepresentable" ? why.message : `${why.code}: ${why.message}`;
  throw new ToolSchemaError("strict-unrepresentable", why.pointer, `OpenAI strict mode cannot express this schema: ${reason}`);
}

/** Fail-open strict: `{strict: true, schema}` when enforcement succeeded, else the non-strict fallback with `strict: false`. */
export function tryEnforceStrictSchema(value, options) {
  const result = normalizeQuiet(value, "openai-strict", options);
  return { strict: result.strict === true, schema: result.schema };
}

/**
 * What a provider call site sends: strict only when the caller asked for it
 * and no bypass is on. The bypass is `options.noStrict` when given (the only
 * way in Workers and browsers), else the PI_NO_STRICT environment variable.
 */
export function adaptSchemaForStrict(schema, strict, options) {
  const { noStrict, ...rest } = plainOptions(options);
  if (!strict || (noStrict ?? envNoStrict())) {
    return { strict: false, schema: normalizeQuiet(schema, "openai", rest).schema };
  }
  return tryEnforceStrictSchema(schema, rest);
}

/**
 * Every schema of a tool list for `options.target`: OpenAI (`function.parameters`),
 * Responses and Gemini (`parameters`), Anthropic (`input_schema`), MCP
 * (`inputSchema`), Gemini's request (`[{functionDeclarations}]`, `{tools:
 * [{functionDeclarations}]}`), or an MCP `tools/list` response. Returns
 * `{tools, telemetry}` with the list's shape kept; a tool whose schema fails
 * gets the empty object schema and its error in `telemetry.tools[i].error`.
 * A tool name the target's provider refuses is sent under a valid one,
 * `telemetry.names` `{providerName: originalName}`; on `llamacpp` and `ollama`
 * `telemetry.listSize` measures the list. Cached and frozen like `normalize`:
 * the agent loop sends the same list every turn.
 */
export function normalizeTools(tools, options) {
  const { target, ...rest } = plainOptions(options);
  if (typeof target !== "string") {
    throw new ToolSchemaError("invalid-options", "", "normalizeTools needs options.target (a target id, see targets())");
  }
  const opts = JSON.stringify({ target, ...rest });
  const result = memoize(
    tools,
    `tools\n${opts}`,
    (list, source) => (source === undefined ? call(glue.normalizeToolsJson, list, opts) : callSharing(glue.normalizeToolsJsonSharing, "tools", source, list, opts)),
    (t) => toJsonText(withPlainSchemas(t)),
  );
  return { tools: ownWrappers(result.tools), telemetry: result.telemetry };
}

// The cached answer is frozen and shared, but SDKs edit the tools they are
// given in place: @google/genai's request path assigns each function
// declaration's `parameters` (tTool), and a frozen declaration makes that a
// TypeError. So each call hands out its own copies of the list and of every
// tool (and OpenAI's `function` object): only the schemas inside are the
// shared, frozen ones, and no SDK was seen to edit those.
function ownWrappers(list) {
  const entries = toolEntries(list);
  if (entries === undefined) return list;
  return withTools(list, entries, entries.map(({ tool }) => ownTool(tool)));
}

function ownTool(tool) {
  if (typeof tool !== "object" || tool === null || Array.isArray(tool)) return tool;
  const copy = { ...tool };
  if (typeof copy.function === "object" && copy.function !== null && !Array.isArray(copy.function)) copy.function = { ...copy.function };
  return copy;
}

/**
 * `normalizeTools` for JSON text, as an edge proxy holds it: `text` is a tool
 * list or a whole request body (OpenAI Chat or Responses, Anthropic, Gemini,
 * an MCP tools/list response) and the answer is JSON text of the same shape,
 * compact, with every tool normalized for `options.target`. Only the tools are
 * read into the core's values; the rest of the body (the messages) is copied
 * through. `options.onTelemetry`, when given, receives what `normalizeTools`
 * returns as `telemetry` (tool names sent under another name, strict flags,
 * reports). Not cached: a body is new on every request.
 */
export function normalizeToolsJson(text, options) {
  const { target, onTelemetry, ...rest } = plainOptions(options);
  if (typeof text !== "string") {
    throw new ToolSchemaError("invalid-json", "", `normalizeToolsJson takes JSON text (a string), got ${text === null ? "null" : typeof text}; pass objects to normalizeTools`);
  }
  if (typeof target !== "string") {
    throw new ToolSchemaError("invalid-options", "", "normalizeToolsJson needs options.target (a target id, see targets())");
  }
  if (onTelemetry !== undefined && typeof onTelemetry !== "function") {
    throw new ToolSchemaError("invalid-options", "", `options.onTelemetry must be a function, got ${typeof onTelemetry}`);
  }
  const answer = guarded(glue.normalizeToolsText, text, JSON.stringify({ target, ...rest }), onTelemetry !== undefined);
  if (answer[0] !== "o") throw fromReport(JSON.parse(answer.slice(1)).error);
  const end = answer.indexOf("\n");
  if (onTelemetry !== undefined) onTelemetry(JSON.parse(answer.slice(1, end)));
  return answer.slice(end + 1);
}

// Tools built with schema libraries (Zod, Valibot, ArkType) carry instances in
// their schema slot; each is converted the way a lone schema would be. A value
// with no list shape is taken for one tool.
function withPlainSchemas(tools) {
  const entries = toolEntries(tools);
  if (entries === undefined) return plainTool(tools);
  return withTools(tools, entries, entries.map(({ tool }) => plainTool(tool)));
}

function plainTool(tool) {
  const slot = schemaSlot(tool);
  if (slot === undefined) return tool;
  const { path, holder, value } = slot;
  const proto = value !== null && typeof value === "object" ? Object.getPrototypeOf(value) : null;
  if (proto === null || proto === Object.prototype) return tool;
  const plain = JSON.parse(toJsonText(value));
  return path.length === 2 ? { ...tool, [path[0]]: { ...holder, [path[1]]: plain } } : { ...tool, [path[0]]: plain };
}

/**
 * WordPress: compiles an ability's `input_schema` for `target` ("openai",
 * "anthropic", "google" or "default"): draft-03 `required: true` to arrays,
 * closed objects, `oneOf` to `anyOf`, validation keywords into descriptions,
 * `context`/`readonly`/`arg_options` removed, a scalar input wrapped as
 * `value`. Returns `{schema, strict?, report}`; structural-limit warnings are
 * `structural-limit` diagnostics.
 */
export function compileAbilitySchemaForAI(schema, target, options) {
  return call(glue.compileAbilityJson, toJsonText(schema), targetId(target), optionsText(options));
}

/** WordPress authoring guidance for an ability schema: `[{code, pointer, message}]`. */
export function lintSchema(schema) {
  return call(glue.lintJson, toJsonText(schema));
}

/**
 * The target for a call: `targetFor({provider, model, api, strict})`, e.g. a
 * `claude-*` model behind Cloud Code Assist → "cca", `gemini-*` → "google",
 * the Responses API → "openai-responses".
 */
export function targetFor(route) {
  return call(glue.targetForJson, JSON.stringify(plainOptions(route)));
}

/** The violations `target` would reject: `[{code, pointer, message}]`, empty when accepted. */
export function checkSchema(schema, target) {
  return call(glue.checkJson, toJsonText(schema), targetId(target));
}

// The round trip: the model's arguments back in the original schema's shape.
// Arguments given as a string are read as JSON text, as a provider's
// `arguments` field carries them; the original schema may be anything
// `normalize` takes (a Zod schema included).

/**
 * Undoes what `target` did to the argument shape: nulls in fields that were
 * optional before strict mode (and, with `emptyStrings`, `""`) removed,
 * Gemini's stringified enum values typed again, a merged object union back to
 * the branch the original describes, a wrapped scalar root unwrapped.
 * Arguments that already fit the original come back unchanged.
 * Returns `{args, report}`. With `options.name` (the tool name the model
 * called), `original` is the tool list sent (as given to `normalizeTools`):
 * the tool is found by the name it was sent under, or its own, and the
 * result says which (`tool: {index, pointer, name}`, `name` the original).
 */
export function restoreArguments(args, original, target, options) {
  // With `options.name`, `original` is the tool list the model was offered.
  const source = plainOptions(options).name === undefined ? original : withPlainSchemas(original);
  return call(glue.restoreArgumentsJson, toJsonText(args), toJsonText(source), targetId(target), optionsText(options));
}

/**
 * Coercions the original schema alone justifies, each reported: a numeric
 * string where only a number is allowed, "true"/"false" where only a boolean
 * is, JSON text where only an array or object is, a lone value where only an
 * array is. Returns `{args, report}`.
 */
export function repairArguments(args, original, options) {
  return call(glue.repairArgumentsJson, toJsonText(args), toJsonText(original), optionsText(options));
}

/**
 * Validates against the original schema (JSON Schema 2020-12). Returns
 * `{valid, errors: [{pointer, keyword, schemaPointer, message}], unchecked}`;
 * each message says what to send instead.
 */
export function validateArguments(args, original, options) {
  return call(glue.validateArgumentsJson, toJsonText(args), toJsonText(original), optionsText(options));
}

/**
 * The agent loop's one call: restore → repair → validate. `tool` is a tool
 * definition in any provider's shape (MCP `inputSchema`, OpenAI `parameters`,
 * Anthropic `input_schema`) or a schema. The target is `options.target`, else
 * `tool.target`, else "mcp". Returns `{ok, args, errors, report, message?}`:
 * call the tool with `args` when `ok`; otherwise hand `message` back to the
 * model as the tool result. Arguments that are not JSON give `ok: false`.
 * With `options.name` (the name the model called), `tool` is the whole list
 * sent (as given to `normalizeTools`): the tool is found by the name it was
 * sent under (a provider may have needed another, see `telemetry.names`) or
 * its own, and `tool: {index, pointer, name}` says which, `name` the original
 * to call it by; a name no tool has gives `ok: false` listing the names.
 */
export function prepareToolCall(args, tool, options) {
  const { target = tool?.target ?? "mcp", ...rest } = plainOptions(options);
  if (rest.name !== undefined) {
    return call(glue.prepareToolCallJson, toJsonText(args), toJsonText(withPlainSchemas(tool)), targetId(target), JSON.stringify(rest));
  }
  const slot = schemaSlot(tool);
  const schema = slot === undefined ? tool : slot.value;
  return call(glue.prepareToolCallJson, toJsonText(args), toJsonText(schema), targetId(target), JSON.stringify(rest));
}

/** The targets this build knows: `[{id, description, source}]`. */
export function targets() {
  return call(glue.targetsJson);
}

export function version() {
  return guarded(glue.version);
}

// A deliberate panic inside the wasm, for the trap-recovery tests only
// (tests/js/trap.test.mjs, runtimes.test.mjs). It has to run through this
// copy's `guarded`, in every runtime and build, so it hangs off `version`
// under a registry symbol: reachable by the tests, yet neither an export nor
// in the types.
Object.defineProperty(version, Symbol.for("toolschema.panicForTest"), { value: () => guarded(glue.__panicForTest) });

function targetId(target) {
  if (typeof target === "string") return target;
  throw new ToolSchemaError("unknown-target", "", `the target must be a string id (see targets()), got ${typeof target}`);
}

function plainOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options === "object" && !Array.isArray(options)) return options;
  throw new ToolSchemaError("invalid-options", "", `options must be an object, got ${Array.isArray(options) ? "an array" : typeof options}`);
}

// The core rejects unknown option keys itself (invalid-options), so the only
// work here is shape and serialization.
function optionsText(options) {
  if (options === undefined || options === null) return NO_OPTIONS;
  const plain = plainOptions(options);
  // No options (the usual case): a plain object with no own key at all (so no
  // toJSON either) serializes to "{}" unless a toJSON was added to Object.prototype.
  if (Object.getPrototypeOf(plain) === Object.prototype && Object.prototype.toJSON === undefined && Reflect.ownKeys(plain).length === 0) {
    return NO_OPTIONS;
  }
  return JSON.stringify(plain);
}

const NO_OPTIONS = "{}";

const TRUTHY = /^\s*(1|true|yes|on)\s*$/i;

/**
 * PI_NO_STRICT from the runtime's environment, where there is one. Deno is
 * asked first and only through a permission query: reading an env variable
 * without --allow-env would throw, or prompt on a terminal. Workers and
 * browsers have neither object and get `false`.
 */
function envNoStrict() {
  try {
    const deno = globalThis.Deno;
    if (deno?.env !== undefined) {
      const status = deno.permissions?.querySync?.({ name: "env", variable: "PI_NO_STRICT" });
      return status?.state === "granted" && TRUTHY.test(deno.env.get("PI_NO_STRICT") ?? "");
    }
    return TRUTHY.test(globalThis.process?.env?.PI_NO_STRICT ?? "");
  } catch {
    return false;
  }
}

// WebMCP (https://webmachinelearning.github.io/webmcp/): web pages register
// tools with `document.modelContext.registerTool()` and in-browser agents
// discover them with `getTools()`. Both halves of the round trip, over the
// page's `modelContext`, which callers pass in (or the page's own is used):
// nothing here depends on a WebMCP implementation, native or polyfilled.
//
// The package itself is imported by name, so this module shares the instance
// (and the result cache) the application's `import "toolschema"` loaded, in
// every runtime: Node resolves the self-reference, browsers an import map or
// a bundler.
import { ToolSchemaError, normalize, normalizeTools, prepareToolCall, targetFor } from "toolschema";

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The `modelContext` to use: the one given, else the page's
 * `document.modelContext`, else the deprecated `navigator.modelContext`
 * (moved to Document by webmachinelearning/webmcp#184).
 */
function contextOf(given, method) {
  const context = given ?? globalThis.document?.modelContext ?? globalThis.navigator?.modelContext;
  if (context === undefined || context === null) {
    throw new ToolSchemaError(
      "webmcp-unavailable",
      "",
      `${method}: no modelContext was given and this page has none (document.modelContext, navigator.modelContext); ` +
        "use a browser with WebMCP enabled, or install a polyfill such as @mcp-b/webmcp-polyfill before calling it",
    );
  }
  if (typeof context[method] !== "function") {
    throw new ToolSchemaError("webmcp-unavailable", "", `${method}: the modelContext given has no ${method}() method`);
  }
  return context;
}

/** `options` as an object with only the `known` keys: a misspelt one fails here, not silently. */
function plain(options, what, known) {
  if (options === undefined || options === null) return {};
  if (!isObject(options)) {
    throw new ToolSchemaError("invalid-options", "", `${what} options must be an object, got ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  const unknown = Object.keys(options).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new ToolSchemaError("invalid-options", "", `${what}: unknown option ${JSON.stringify(unknown[0])}; the options are ${known.join(", ")}`);
  }
  return options;
}

const ARGUMENT_OPTIONS = ["normalize", "emptyStrings", "maxDepth"];

/** The argument options the core takes, only those given (it refuses unknown keys). */
function argumentOptions({ emptyStrings, maxDepth, normalize: normalizeOptions }) {
  const out = {};
  if (emptyStrings !== undefined) out.emptyStrings = emptyStrings;
  if (maxDepth !== undefined) out.maxDepth = maxDepth;
  if (normalizeOptions !== undefined) out.normalize = normalizeOptions;
  return out;
}

/**
 * The MCP tool result an agent relays to its model when the arguments do not
 * fit: the validation message, flagged as an error, as an MCP server answers
 * a call it cannot run (MCP 2025-11-25, "Error Handling": tool execution
 * errors are reported in the result with `isError: true`).
 */
function invalidArguments(prepared) {
  return { content: [{ type: "text", text: prepared.message }], isError: true };
}

/**
 * For pages: registers `tool` with its `inputSchema` normalized for the
 * `webmcp` target (the validation subset registration accepts,
 * webmachinelearning/webmcp#289), and its `execute` wrapped so that the
 * arguments an agent sends are restored, repaired and validated against the
 * schema as written before `execute` runs. Arguments that still do not fit
 * never reach `execute`: the agent gets the validation message as an error
 * result (or what `options.onInvalid` returns). Resolves to the schema
 * registered and the report of what normalizing it changed.
 */
export async function registerTool(modelContext, tool, options) {
  const context = contextOf(modelContext, "registerTool");
  if (!isObject(tool)) {
    throw new ToolSchemaError("invalid-options", "", "registerTool(modelContext, tool): tool must be an object with name, description, inputSchema and execute");
  }
  if (typeof tool.execute !== "function") {
    throw new ToolSchemaError("invalid-options", "/execute", `registerTool: tool ${JSON.stringify(String(tool.name))} has no execute function`);
  }
  const { signal, exposedTo, onInvalid, ...rest } = plain(options, "registerTool", ["signal", "exposedTo", "onInvalid", ...ARGUMENT_OPTIONS]);
  if (onInvalid !== undefined && typeof onInvalid !== "function") {
    throw new ToolSchemaError("invalid-options", "", "registerTool: options.onInvalid must be a function");
  }
  const args = argumentOptions(rest);
  const original = tool.inputSchema;
  // A tool without a schema takes no arguments (the API's default schema):
  // nothing to normalize or check.
  const normalized = original === undefined ? undefined : normalize(original, "webmcp", args.normalize);
  const execute =
    original === undefined
      ? tool.execute
      : function execute(input, ...more) {
          const prepared = prepareToolCall(input ?? {}, original, { ...args, target: "webmcp" });
          if (!prepared.ok) return onInvalid === undefined ? invalidArguments(prepared) : onInvalid(prepared);
          return Reflect.apply(tool.execute, tool, [prepared.args, ...more]);
        };
  const registration = {};
  if (signal !== undefined) registration.signal = signal;
  if (exposedTo !== undefined) registration.exposedTo = exposedTo;
  const declared = { ...tool, execute };
  if (normalized !== undefined) declared.inputSchema = normalized.schema;
  await context.registerTool(declared, registration);
  return { inputSchema: normalized?.schema, report: normalized?.report };
}

/**
 * A registered tool's schema as an object: `getTools()` returns it as JSON
 * text in Chrome 149 to 154 and as an object since webmcp#241 (Chrome 155),
 * and implementations disagree meanwhile (webmachinelearning/webmcp#278,
 * #287). A tool without one takes no arguments. Text that is not JSON is
 * kept as it is, so that `normalizeTools` reports that one tool
 * (`telemetry.tools[i].error`) instead of failing the list.
 */
function schemaOf(tool) {
  const schema = tool?.inputSchema;
  if (schema === undefined || schema === null) return { type: "object", properties: {} };
  if (typeof schema !== "string") return schema;
  try {
    return JSON.parse(schema);
  } catch {
    return schema;
  }
}

/**
 * For in-browser agents: the page's tools (`modelContext.getTools()`) with
 * every `inputSchema` normalized for the agent's provider: `options.target`,
 * or the target `targetFor` picks from `provider`/`model`/`api`/`strict`.
 * Returns `{target, tools, telemetry, registered, declared, prepare, execute}`:
 * `tools` in MCP shape (`{name, description, inputSchema}`, a name the
 * provider refuses rewritten as `telemetry.names` says), `prepare(name, args)`
 * the `prepareToolCall` of a call the model made (by the name it was given),
 * and `execute(name, args)` that prepares it and, when the arguments fit,
 * runs the page's tool with `modelContext.executeTool()`.
 */
export async function getTools(modelContext, options) {
  const context = contextOf(modelContext, "getTools");
  const { target: given, provider, model, api, strict, fromOrigins, input = "json", normalize: normalizeOptions, ...rest } = plain(options, "getTools", ["target", "provider", "model", "api", "strict", "fromOrigins", "input", ...ARGUMENT_OPTIONS]);
  if (input !== "json" && input !== "object") {
    throw new ToolSchemaError("invalid-options", "", `getTools: options.input must be "json" or "object", got ${JSON.stringify(input)}`);
  }
  let target = given;
  if (target === undefined) {
    if (provider === undefined && model === undefined && api === undefined) {
      throw new ToolSchemaError("invalid-options", "", "getTools needs options.target (a target id, see targets()) or the agent's provider and model to choose one (targetFor)");
    }
    target = targetFor({ provider, model, api, strict: strict === true });
  }
  const registered = await context.getTools(fromOrigins === undefined ? undefined : { fromOrigins });
  if (!Array.isArray(registered)) {
    throw new ToolSchemaError("not-a-schema", "", `getTools: modelContext.getTools() resolved to ${typeof registered}, not a list of tools`);
  }
  const declared = registered.map((tool) => ({ name: tool.name, description: tool.description ?? "", inputSchema: schemaOf(tool) }));
  const { tools, telemetry } = normalizeTools(declared, { ...normalizeOptions, target });
  const args = argumentOptions({ ...rest, normalize: normalizeOptions });

  /** `prepareToolCall` for a call to `name` (the name the model was given). */
  const prepare = (name, callArgs) => prepareToolCall(callArgs, declared, { ...args, target, name });

  /**
   * Prepares the call, then runs it in the page. `ok: false` carries the
   * message to hand back to the model (the tool did not run); `ok: true`
   * carries what `executeTool` resolved to. The arguments are sent as JSON
   * text by default, which every implementation so far takes (Chrome 149 to
   * 154 and the polyfill only that; Chrome 155 also an object, the draft's
   * form: webmachinelearning/webmcp#246), or as an object with
   * `options.input: "object"`.
   */
  async function execute(name, callArgs, callOptions) {
    const prepared = prepare(name, callArgs);
    if (!prepared.ok) return { ok: false, message: prepared.message, errors: prepared.errors, args: prepared.args, report: prepared.report, tool: prepared.tool };
    if (typeof context.executeTool !== "function") {
      throw new ToolSchemaError("webmcp-unavailable", "", "execute: this modelContext has no executeTool(); call the tool with prepare(name, args).args yourself");
    }
    const { signal } = plain(callOptions, "execute", ["signal"]);
    const sent = input === "object" ? prepared.args : JSON.stringify(prepared.args);
    const result = await context.executeTool(registered[prepared.tool.index], sent, signal === undefined ? {} : { signal });
    return { ok: true, result, args: prepared.args, report: prepared.report, tool: prepared.tool };
  }

  return { target, tools, telemetry, registered, declared, prepare, execute };
}

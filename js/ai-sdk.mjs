// `toolschema/ai-sdk`: a language model middleware for the Vercel AI SDK's
// `wrapLanguageModel` (`ai` 5, 6 and 7: LanguageModelV2, V3 and V4). It
// imports nothing from the SDK: it reads the call options and results the
// SDK hands every middleware, whose shapes are the same in the three
// versions where it looks (function tools' `inputSchema`, `tool-call`
// content and stream parts with JSON text `input`).
//
// Before the call: every function tool's `inputSchema` is normalized for
// the wrapped model's provider (`targetFor` with its provider id and model
// id), strict where the SDK asks for strict and strict mode can express it.
// After: every tool call's `input` goes through `prepareToolCall` against the
// tool's original schema, so the tool's `execute` receives the shape it
// declared; a call that still does not fit becomes invalid tool input, which
// the SDK reports to the model as the tool's error result.
import { checkSchema, normalizeTools, prepareToolCall, targetFor } from "toolschema";
import { RELAXED } from "./sdk.mjs";

/**
 * The middleware. `options.model` (the model being wrapped) or
 * `options.specificationVersion` shapes its version field: `ai` 5 reads
 * `middlewareVersion: "v2"`, `ai` 6 requires `specificationVersion: "v3"`,
 * `ai` 7 takes `specificationVersion: "v4"` (the default).
 */
export function toolschemaMiddleware(options = {}) {
  if (options === null || typeof options !== "object") throw new TypeError("toolschemaMiddleware(options): options must be an object");
  const version = options.specificationVersion ?? options.model?.specificationVersion ?? "v4";
  if (!["v2", "v3", "v4"].includes(version)) {
    throw new TypeError(`toolschemaMiddleware: specificationVersion must be "v2", "v3" or "v4" (LanguageModelV2 to V4), got ${JSON.stringify(version)}`);
  }
  // What each call sent, by the params object the model receives: the
  // wrap hooks get that same object back (wrapLanguageModel's doWrap).
  const sent = new WeakMap();
  const middleware = {
    async transformParams({ params, model }) {
      const plan = planTools(params, model, options);
      if (plan === undefined) return params;
      sent.set(plan.params, plan);
      return plan.params;
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      const plan = sent.get(params);
      if (plan === undefined) return result;
      return {
        ...result,
        content: Array.isArray(result.content) ? result.content.map((part) => restorePart(part, plan, options)) : result.content,
        warnings: [...(result.warnings ?? []), ...plan.warnings],
      };
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      const plan = sent.get(params);
      if (plan === undefined) return result;
      const fix = new TransformStream({
        transform(part, controller) {
          if (part?.type === "stream-start" && plan.warnings.length > 0) {
            part = { ...part, warnings: [...(part.warnings ?? []), ...plan.warnings] };
          }
          controller.enqueue(restorePart(part, plan, options));
        },
      });
      return { ...result, stream: result.stream.pipeThrough(fix) };
    },
  };
  return version === "v2" ? { middlewareVersion: "v2", ...middleware } : { specificationVersion: version, ...middleware };
}

/**
 * The target for a model: the provider id's first segment is the provider
 * and the rest the API ("openai.responses", "google.vertex.chat",
 * "anthropic.messages"); the AI Gateway's model id names the provider
 * ("anthropic/claude-sonnet-4.5").
 */
export function targetForModel(model, strict = false) {
  const id = String(model?.provider ?? "");
  const modelId = String(model?.modelId ?? "");
  let [provider, ...api] = id.split(".");
  if (provider === "gateway" && modelId.includes("/")) provider = modelId.slice(0, modelId.indexOf("/"));
  return targetFor({ provider, api: api.join("."), model: modelId, strict });
}

// `ai` 5 (LanguageModelV2) has no per-tool `strict`: @ai-sdk/openai 2.x
// sends every function tool with `strict: providerOptions.openai.strictJsonSchema`
// (default false). From `ai` 6 a tool carries its own `strict`.
function callStrict(params, model) {
  if (model?.specificationVersion !== "v2") return undefined;
  return params.providerOptions?.openai?.strictJsonSchema === true;
}

function planTools(params, model, options) {
  const tools = params?.tools;
  if (!Array.isArray(tools) || !tools.some(isFunctionTool)) return undefined;
  const callLevel = callStrict(params, model);
  const pick = (strict) => (typeof options.target === "function" ? options.target(model, strict) : options.target ?? targetForModel(model, strict));
  const warnings = [];

  // One group per target: a request may mix strict and non-strict tools.
  const groups = new Map();
  tools.forEach((tool, index) => {
    if (!isFunctionTool(tool)) return;
    const target = pick(callLevel ?? tool.strict === true);
    if (!groups.has(target)) groups.set(target, []);
    groups.get(target).push(index);
  });

  const out = [...tools];
  const restore = new Map();
  const strictLost = [];
  for (const [target, indices] of groups) {
    // MCP-shaped, the description only when there is one (JSON has no undefined).
    const list = indices.map((i) => {
      const { name, description, inputSchema } = tools[i];
      return description === undefined ? { name, inputSchema } : { name, description, inputSchema };
    });
    const { tools: normalized, telemetry } = normalizeTools(list, { ...options.normalize, target });
    report(options, { type: "tools", target, telemetry, provider: model?.provider, modelId: model?.modelId });
    indices.forEach((index, k) => {
      const tool = tools[index];
      const info = telemetry.tools[k];
      const strict = info.strict;
      // Restored for what was sent: a strict target that failed open sent
      // its relaxed target's schema.
      const entry = { target: strict === false ? RELAXED[target] ?? target : target, schema: tool.inputSchema, name: tool.name };
      let inputSchema = normalized[k].inputSchema;
      const name = normalized[k].name;
      // A schema the target already accepts, under its own name, goes as
      // it came (an OpenAI strict schema written for strict mode stays
      // byte for byte what its author wrote).
      if (name === tool.name && info.error === undefined && accepts(tool.inputSchema, target)) inputSchema = tool.inputSchema;
      // Strict targets fail open (the schema cannot be strict, or, for
      // Anthropic, the request's strict budget is spent: normalizeTools
      // reports `strict-budget`); the schema is then the non-strict one.
      const budget = info.report.diagnostics.find((d) => d.code === "strict-budget");
      if (info.error !== undefined) {
        warnings.push({ type: "other", message: `toolschema: tool "${tool.name}" could not be normalized for ${target} (${info.error.code}: ${info.error.message}); it was sent with no parameters` });
      } else if (info.report.lossy) {
        const codes = [...new Set(info.report.diagnostics.filter((d) => d.lossy && d !== budget).map((d) => `${d.code} at ${d.pointer || "/"}`))];
        if (codes.length > 0) warnings.push({ type: "other", message: `toolschema: tool "${tool.name}" lost meaning for ${target}: ${codes.join(", ")}` });
      }
      if ((tool.strict === true || callLevel === true) && strict === false) {
        const why = info.strictError?.message ?? budget?.message ?? "strict mode cannot express the schema";
        warnings.push({ type: "other", message: `toolschema: tool "${tool.name}" sent without strict: ${why.replace(/^sent without strict: /, "")}` });
      }
      if (callLevel === true && strict === false) strictLost.push(tool.name);
      // `strict` changes only where strict mode was asked for and cannot
      // express the schema (the target failed open): sending `strict: true`
      // with the fallback schema would be rejected.
      out[index] = tool.strict === true && strict === false ? { ...tool, name, inputSchema, strict: false } : { ...tool, name, inputSchema };
      restore.set(name, entry);
    });
  }

  if (strictLost.length > 0) {
    // `ai` 5 sends one strict flag for every tool: when one tool cannot be
    // strict, none is, and every tool is normalized without strict.
    const openai = { ...params.providerOptions.openai, strictJsonSchema: false };
    const plain = planTools({ ...params, providerOptions: { ...params.providerOptions, openai } }, model, options);
    const why = warnings.filter((w) => strictLost.some((name) => w.message.startsWith(`toolschema: tool "${name}" sent without strict`)));
    const off = { type: "other", message: `toolschema: strictJsonSchema turned off for this call: strict mode cannot express ${strictLost.map((n) => `"${n}"`).join(", ")}` };
    return { ...plain, warnings: [off, ...why, ...plain.warnings] };
  }
  return { params: { ...params, tools: out }, restore, warnings };
}

const isFunctionTool = (tool) => tool?.type === "function" && tool.inputSchema !== undefined;

// checkSchema per (schema object, target), so a tool list the agent loop
// sends every step is checked once.
const accepted = new WeakMap();
function accepts(schema, target) {
  if (schema === null || typeof schema !== "object") return false;
  let byTarget = accepted.get(schema);
  if (byTarget === undefined) accepted.set(schema, (byTarget = new Map()));
  if (!byTarget.has(target)) byTarget.set(target, checkSchema(schema, target).length === 0);
  return byTarget.get(target);
}

function restorePart(part, plan, options) {
  if (part?.type !== "tool-call" || part.providerExecuted === true || typeof part.input !== "string") return part;
  const entry = plan.restore.get(part.toolName);
  if (entry === undefined) return part;
  // An empty input is how providers send a call without arguments (the SDK
  // reads it as `{}`).
  const input = part.input.trim() === "" ? "{}" : part.input;
  const prepared = prepareToolCall(input, entry.schema, { ...options.arguments, target: entry.target });
  report(options, { type: "tool-call", toolName: entry.name, toolCallId: part.toolCallId, target: entry.target, input: part.input, prepared });
  // The SDK parses `input` as JSON and validates it against the tool's
  // schema; text that is not JSON makes it an InvalidToolInputError, which
  // it sends the model as the tool's error result. The message is that text.
  return { ...part, toolName: entry.name, input: prepared.ok ? JSON.stringify(prepared.args) : invalidInput(prepared.message) };
}

// Never JSON: the SDK must fail to parse it (a message is prose, but a
// message that happened to be JSON would be taken for arguments).
function invalidInput(message) {
  try {
    JSON.parse(message);
    return `Invalid arguments: ${message}`;
  } catch {
    return message;
  }
}

function report(options, event) {
  if (typeof options.onReport === "function") options.onReport(event);
}

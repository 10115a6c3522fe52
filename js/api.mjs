// The public API, written once and shared by every runtime entry (node.mjs,
// browser.mjs, workerd.mjs, deno.mjs) and by the CommonJS build made from
// node.mjs. Names follow the pi-ai normalizer this package replaces.
import { ToolSchemaError } from "./error.mjs";
import { toJsonText } from "./input.mjs";
import { call, glue, guarded } from "./wasm.mjs";

export { ToolSchemaError };

/**
 * Normalizes `schema` for `target`. Returns the core's payload unchanged:
 * `{schema, strict?, strictError?, report}`.
 */
export function normalize(schema, target, options) {
  return call(glue.normalizeJson, toJsonText(schema), targetId(target), optionsText(options));
}

/** The generic entry: `options.target` (default "mcp") plus core options. */
export function normalizeSchema(value, options) {
  const { target = "mcp", ...rest } = plainOptions(options);
  return normalize(value, target, rest).schema;
}

export const normalizeSchemaForGoogle = (value) => normalize(value, "google").schema;
export const normalizeSchemaForCCA = (value) => normalize(value, "cca").schema;
export const normalizeSchemaForMCP = (value) => normalize(value, "mcp").schema;
export const normalizeSchemaForOpenAIResponses = (value) => normalize(value, "openai-responses").schema;
export const sanitizeSchemaForOpenAIResponses = normalizeSchemaForOpenAIResponses;

/** The first half of the strict pipeline alone: strip what strict mode rejects. */
export const sanitizeSchemaForStrictMode = (value) =>
  normalize(value, "openai-strict", { strictStage: "sanitize" }).schema;

/**
 * The strict schema, or a thrown `strict-unrepresentable` ToolSchemaError.
 * The core's strictError may carry a checker code instead (e.g.
 * "missing-type"); callers match one stable code, and the checker's reason
 * stays in the message, its location in `pointer`.
 */
export function enforceStrictSchema(value, options) {
  const result = normalize(value, "openai-strict", options);
  if (result.strict === true) return result.schema;
  const why = result.strictError ?? { code: "strict-unrepresentable", pointer: "", message: "no reason given" };
  const reason = why.code === "strict-unrepresentable" ? why.message : `${why.code}: ${why.message}`;
  throw new ToolSchemaError("strict-unrepresentable", why.pointer, `OpenAI strict mode cannot express this schema: ${reason}`);
}

/** Fail-open strict: `{strict: true, schema}` when enforcement succeeded, else the non-strict fallback with `strict: false`. */
export function tryEnforceStrictSchema(value, options) {
  const result = normalize(value, "openai-strict", options);
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
    return { strict: false, schema: normalize(schema, "openai", rest).schema };
  }
  return tryEnforceStrictSchema(schema, rest);
}

/** The violations `target` would reject: `[{code, pointer, message}]`, empty when accepted. */
export function checkSchema(schema, target) {
  return call(glue.checkJson, toJsonText(schema), targetId(target));
}

/** The targets this build knows: `[{id, description, source}]`. */
export function targets() {
  return call(glue.targetsJson);
}

export function version() {
  return guarded(glue.version);
}

/** Panics inside the wasm on purpose; exists for the trap-recovery test only. */
export function __panicForTest() {
  guarded(glue.__panicForTest);
}

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
  return JSON.stringify(plainOptions(options));
}

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

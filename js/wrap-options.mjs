// The options the integrations (toolschema/mcp, toolschema/proxy) share: a
// target or a route, the core's normalize options, and the argument options
// of the round trip.
import { ToolSchemaError } from "toolschema";

// prepareToolCall's own options; everything else is for normalize.
const ARGUMENT_OPTIONS = ["emptyStrings"];

/**
 * Splits `rest` (what is left of an integration's options once its own keys
 * are taken) into `{normalizeOptions, argumentOptions}`, and checks that
 * exactly one of `target` and `route` is given.
 */
export function splitOptions(who, target, route, rest) {
  if (target !== undefined && route !== undefined) {
    throw new ToolSchemaError("invalid-options", "", `${who}: give \`target\` or \`route\`, not both`);
  }
  if (target === undefined && route === undefined) {
    throw new ToolSchemaError("invalid-options", "", `${who} needs a \`target\` (a target id, see targets()) or a \`route\` ({provider, model, api, strict}, see targetFor())`);
  }
  if (route !== undefined && (route === null || typeof route !== "object" || Array.isArray(route))) {
    throw new ToolSchemaError("invalid-options", "", `${who}: \`route\` must be an object ({provider, model, api, strict})`);
  }
  const normalizeOptions = { ...rest };
  const argumentOptions = {};
  for (const key of ARGUMENT_OPTIONS) {
    if (normalizeOptions[key] !== undefined) argumentOptions[key] = normalizeOptions[key];
    delete normalizeOptions[key];
  }
  if (Object.keys(normalizeOptions).length > 0) argumentOptions.normalize = normalizeOptions;
  return { normalizeOptions, argumentOptions };
}

/** Throws `invalid-options` unless `options` is a plain object. */
export function objectOptions(who, options) {
  if (options !== null && typeof options === "object" && !Array.isArray(options)) return options;
  throw new ToolSchemaError("invalid-options", "", `${who} needs an options object, got ${Array.isArray(options) ? "an array" : options === null ? "null" : typeof options}`);
}

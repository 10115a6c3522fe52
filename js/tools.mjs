// Where a tool list keeps its tools, and a tool its schema, in every provider
// shape the package reads. The core reads the same shapes (src/tools.rs,
// `tool_array` and `SLOTS`); the API and the CLI both ask here.

// An array, `{tools}`, an MCP `tools/list` result, Gemini's `{functionDeclarations}`.
const LIST_PLACES = [[], ["tools"], ["result", "tools"], ["functionDeclarations"]];

/** The tools of a list in any accepted shape: `{array, place}` (the keys leading to it), or undefined. */
export function toolArray(list) {
  for (const place of LIST_PLACES) {
    const array = place.reduce((v, key) => v?.[key], list);
    if (Array.isArray(array)) return { array, place };
  }
  return undefined;
}

/** `list` with the array at `place` (from `toolArray`) replaced by `array`; nothing else is copied. */
export function withToolArray(list, place, array) {
  if (place.length === 0) return array;
  const [key, ...rest] = place;
  return { ...list, [key]: withToolArray(list[key], rest, array) };
}

// OpenAI Chat (`function.parameters`), Responses and Gemini (`parameters`),
// Anthropic (`input_schema`), MCP (`inputSchema`), Gemini JSON (`parametersJsonSchema`).
const SCHEMA_SLOTS = [["function", "parameters"], ["parameters"], ["input_schema"], ["inputSchema"], ["parametersJsonSchema"]];

/** The places `schemaSlot` looks, for messages. */
export const SCHEMA_PLACES = SCHEMA_SLOTS.map((path) => path.join(".")).join(", ");

/** Where a tool keeps its schema: `{path, holder, key, value}`, or undefined. */
export function schemaSlot(tool) {
  for (const path of SCHEMA_SLOTS) {
    const holder = path.length === 2 ? tool?.[path[0]] : tool;
    const key = path[path.length - 1];
    const value = holder?.[key];
    if (value !== undefined) return { path, holder, key, value };
  }
  return undefined;
}

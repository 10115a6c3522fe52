// Where a tool list keeps its tools, and a tool its schema, in every provider
// shape the package reads. The core reads the same shapes (src/tools/shape.rs,
// `places` and `SLOTS`); the API and the CLI both ask here.

// An array, `{tools}`, an MCP `tools/list` result, Gemini's `{functionDeclarations}`.
const LIST_PLACES = [[], ["tools"], ["result", "tools"], ["functionDeclarations"]];

// Gemini's request groups its declarations: `tools: [{functionDeclarations: [...]}, {googleSearch: {}}]`.
const GROUP = "functionDeclarations";

/**
 * The tools of a list in any accepted shape: `[{tool, path}]` (`path`: the keys
 * leading to the tool), or undefined when `list` has no list shape. In an array
 * with Gemini groups, each declaration is a tool and the other entries (built-in
 * tools) are none. What cannot be read is left out here: the core refuses it
 * with its pointer (not-a-schema).
 */
export function toolEntries(list) {
  for (const place of LIST_PLACES) {
    const array = place.reduce((v, key) => v?.[key], list);
    if (!Array.isArray(array)) continue;
    const gemini = !(place.length === 1 && place[0] === GROUP) && array.some((t) => isObject(t) && t[GROUP] !== undefined);
    const entries = [];
    array.forEach((tool, i) => {
      if (!gemini) return void entries.push({ tool, path: [...place, i] });
      const group = isObject(tool) ? tool[GROUP] : undefined;
      if (!Array.isArray(group)) return;
      group.forEach((decl, j) => entries.push({ tool: decl, path: [...place, i, GROUP, j] }));
    });
    return entries;
  }
  return undefined;
}

/**
 * `list` with the tool at each entry's path (from `toolEntries`) replaced by
 * `tools[i]`; only the arrays and objects on those paths are copied, each once.
 */
export function withTools(list, entries, tools) {
  const copies = new Map();
  const copyOf = (value) => {
    let copy = copies.get(value);
    if (copy === undefined) copies.set(value, (copy = Array.isArray(value) ? [...value] : { ...value }));
    return copy;
  };
  const root = copyOf(list);
  entries.forEach(({ path }, i) => {
    let from = list;
    let to = root;
    for (const key of path.slice(0, -1)) {
      from = from[key];
      to = to[key] = copyOf(from);
    }
    to[path[path.length - 1]] = tools[i];
  });
  return root;
}

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

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

/** Where a tool keeps its name: `function.name` for OpenAI Chat tools, else `name`. */
export function nameHolder(tool) {
  return isObject(tool?.function) ? tool.function : tool;
}

// `toolschema/cost`: what a schema or a tool list costs on the wire, in bytes
// and in o200k_base tokens, as given and as each target receives it.
//
// Every agent pays its tool schemas in prompt tokens on every turn (741 tools
// came to about 488k tokens in G-Core/gcore-mcp-server#14), so this answers
// "what does this list cost, and what does each target make of it".
//
// The tokenizer is gpt-tokenizer, an optional peer dependency: its o200k
// table alone is 2.4 MB of JavaScript, and the package ships 27 MB, against
// about 1 MB for all of toolschema. Programs that only normalize never
// install or load it; this module is the only one that imports it, and the
// core entry never imports this module (tests/js/cli-commands.test.mjs).
// o200k_base is the encoding of OpenAI's current models (GPT-4o, GPT-4.1,
// GPT-5, the o-series); other providers' tokenizers are not public, so their
// counts are an estimate of the same order, not their bill.
import { normalize, normalizeTools, targets as allTargets, ToolSchemaError } from "toolschema";
import { toJsonText } from "./input.mjs";
import { schemaSlot, toolEntries } from "./tools.mjs";

export const TOKENIZER = "gpt-tokenizer";
export const ENCODING = "o200k_base";

let encoder;
let missing;
try {
  encoder = await import("gpt-tokenizer/encoding/o200k_base");
} catch (err) {
  missing = err;
}

const utf8 = new TextEncoder();

// Text a tool carries (a description quoting "<|endoftext|>") is sent as
// text, never as a control token: the tokenizer must not refuse it or read it
// as one, so no special token is recognised.
const AS_TEXT = { disallowedSpecial: new Set() };

/** The o200k_base token count of `text`, as the text is sent. */
export function countTokens(text) {
  if (encoder === undefined) {
    throw new ToolSchemaError(
      "missing-dependency",
      "",
      `token counts need the ${TOKENIZER} package, an optional peer dependency of toolschema: npm install ${TOKENIZER}` +
        (missing?.message ? ` (${missing.message.split("\n")[0]})` : ""),
      { cause: missing },
    );
  }
  return encoder.countTokens(text, AS_TEXT);
}

/** Bytes and tokens of a JSON value as sent (compact JSON, UTF-8). */
function measure(value) {
  const text = JSON.stringify(value);
  return { bytes: utf8.encode(text).length, tokens: countTokens(text) };
}

/**
 * What `input` (a JSON Schema, or a tool list in any shape `normalizeTools`
 * reads) costs as given and for each target: `{encoding, input, targets}`,
 * each side `{bytes, tokens, tools: [{index, name, bytes, tokens}]}`.
 * A tool is measured as its whole definition (name, description, schema) in
 * the shape given, compact JSON; a list as the JSON array of its tools, which
 * is what a request carries (an MCP envelope around it is not sent).
 * `options.targets` (default: every target) picks the targets, the other
 * options go to the normalizer, and `options.onProgress(done, total)` is
 * called after each tool is measured, for long lists.
 */
export function cost(input, options = {}) {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ToolSchemaError("invalid-options", "", "cost options must be an object: {targets?, onProgress?, ...normalize options}");
  }
  const { targets: wanted, onProgress, ...normalizeOptions } = options;
  const ids = targetIds(wanted);
  countTokens(""); // a missing tokenizer fails before any work
  const entries = toolEntries(input);
  const tools = entries === undefined ? undefined : entries.map(({ tool }) => plainTool(tool));
  const total = (tools?.length ?? 1) * (ids.length + 1);
  let done = 0;
  const step = typeof onProgress === "function" ? () => onProgress(++done, total) : () => {};

  if (tools === undefined) {
    const schema = JSON.parse(toJsonText(input));
    const side = (value) => {
      const one = { index: 0, name: null, ...measure(value) };
      step();
      return { bytes: one.bytes, tokens: one.tokens, tools: [one] };
    };
    return {
      encoding: ENCODING,
      input: side(schema),
      targets: ids.map((target) => ({ target, ...side(normalize(schema, target, normalizeOptions).schema) })),
    };
  }

  const side = (list, names, errors) => {
    const measured = list.map((tool, index) => {
      const one = { index, name: names[index], ...measure(tool) };
      if (errors?.[index] !== undefined) one.error = errors[index];
      step();
      return one;
    });
    return { ...measure(list), tools: measured };
  };
  const inputNames = entries.map(({ tool }) => nameOf(tool));
  return {
    encoding: ENCODING,
    input: side(tools, inputNames),
    targets: ids.map((target) => {
      const { tools: out, telemetry } = normalizeTools(input, { ...normalizeOptions, target });
      const sent = toolEntries(out).map(({ tool }) => tool);
      const names = sent.map(nameOf);
      const errors = telemetry.tools.map((t) => t.error);
      return { target, ...side(sent, names, errors) };
    }),
  };
}

function targetIds(wanted) {
  if (wanted === undefined) return allTargets().map((t) => t.id);
  const list = typeof wanted === "string" ? [wanted] : wanted;
  if (!Array.isArray(list) || list.some((t) => typeof t !== "string")) {
    throw new ToolSchemaError("invalid-options", "", "cost options.targets must be a target id or an array of them (see targets())");
  }
  const known = new Set(allTargets().map((t) => t.id));
  const unknown = list.find((t) => !known.has(t));
  if (unknown !== undefined) throw new ToolSchemaError("unknown-target", "", `unknown target "${unknown}"; targets() lists them`);
  return list;
}

// A tool as JSON: a schema-library instance in its schema slot becomes the
// JSON Schema it describes, as normalizeTools reads it; keys keep their order.
function plainTool(tool) {
  const slot = schemaSlot(tool);
  if (slot === undefined) return JSON.parse(toJsonText(tool));
  const schema = JSON.parse(toJsonText(slot.value));
  const swapped = slot.path.length === 2 ? replaced(tool, slot.path[0], replaced(slot.holder, slot.key, schema)) : replaced(tool, slot.key, schema);
  return JSON.parse(toJsonText(swapped));
}

const replaced = (object, key, value) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, k === key ? value : v]));

function nameOf(tool) {
  const name = tool?.function?.name ?? tool?.name;
  return typeof name === "string" ? name : null;
}

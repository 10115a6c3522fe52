// What the playground measures of the JSON each target receives, as sent on
// the wire (compact, UTF-8). Each measure is a column of the summary table and
// a figure in a target's verdict line.
//
// Tokens are counted as `toolschema/cost` counts them: gpt-tokenizer's
// o200k_base encoding (OpenAI's GPT-4o, GPT-4.1, GPT-5 and o-series; other
// providers publish no tokenizer, so for them the count is an estimate of the
// same order), with no special token recognised, since a tool's text is sent
// as text. `./tokenizer.mjs` is not in this folder: scripts/playground.mjs
// bundles it from the gpt-tokenizer dev dependency with esbuild into
// build/playground/, so the page loads it from its own origin, also offline.
import { countTokens } from "./tokenizer.mjs";

const encoder = new TextEncoder();
const AS_TEXT = { disallowedSpecial: new Set() };

/** The encoding the token counts are in, as `toolschema/cost` names it. */
export const ENCODING = "o200k_base";

/** `[{id, label, unit, of(text)}]`: the measures, each a function of compact JSON text. */
export const MEASURES = [
  { id: "bytes", label: "Bytes", unit: "B", of: (text) => encoder.encode(text).length },
  { id: "tokens", label: "Tokens", unit: "tokens", of: (text) => countTokens(text, AS_TEXT) },
];

/** `{[id]: number}` for `value` written as compact JSON. */
export function measure(value) {
  const text = JSON.stringify(value);
  return Object.fromEntries(MEASURES.map((m) => [m.id, m.of(text)]));
}

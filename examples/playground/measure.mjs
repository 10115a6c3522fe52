// What the playground measures of the JSON each target receives, as sent on
// the wire (compact, UTF-8). Each measure is a column of the summary table and
// a figure in a target's verdict line.
//
// Tokens belong here too, counted with the o200k tokenizer the package's
// `cost` subpath is to provide; until it ships, bytes are the only measure.
// A guess from the byte count is deliberately not offered as a token count.

const encoder = new TextEncoder();

/** `[{id, label, unit, of(text)}]`: the measures, each a function of compact JSON text. */
export const MEASURES = [{ id: "bytes", label: "Bytes", unit: "B", of: (text) => encoder.encode(text).length }];

/** `{[id]: number}` for `value` written as compact JSON. */
export function measure(value) {
  const text = JSON.stringify(value);
  return Object.fromEntries(MEASURES.map((m) => [m.id, m.of(text)]));
}

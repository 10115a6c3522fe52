// Results built from what changed. The object API hands the core
// JSON.stringify of the caller's schema; parsing the whole answer back cost
// about as much as that stringify, yet much of a normalized schema is what
// came in (on the real MCP schemas, about half of Google's output and three
// quarters of MCP's and OpenAI Responses' are unchanged objects). So the core
// can answer with every array or object equal to the input's value at the
// same place written as the string "\u0000" (src/doc/share.rs), and those
// values are copied here from the caller's objects, which costs a fraction
// of parsing their text.
//
// Only for plain JSON data (what the cache's isPlainJson accepts), where
// JSON.stringify reads exactly the own enumerable members a for-in copy
// reads, in the same order. Copies are deep-frozen as they are made, like
// every result; nothing of the caller's is frozen, shared or changed.
import { fromReport } from "./error.mjs";
import { guarded } from "./wasm.mjs";

const SAME = "\u0000";

/**
 * Runs a sharing export (`normalizeJsonSharing`, ...) on `text`, the JSON
 * text of the plain JSON value `source`, and answers its payload with
 * `field` (the schema, or the tools) built from the answer and `source`.
 */
export function callSharing(fn, field, source, text, ...args) {
  const envelope = JSON.parse(guarded(fn, text, ...args));
  const shared = envelope.shared;
  if (shared !== undefined) {
    shared[field] = assemble(shared[field], source);
    return shared;
  }
  if (envelope.error !== undefined) throw fromReport(envelope.error);
  // Answered plainly: strict output, or a string equal to the mark's.
  return envelope.ok;
}

/**
 * `skeleton` with every mark replaced by a frozen copy of `input`'s value at
 * its place, deep-frozen. Iterative over the skeleton, whose depth is the
 * output's (up to `maxDepth`); copies recurse only as deep as a plain input
 * may be.
 */
export function assemble(skeleton, input) {
  if (skeleton === SAME) return copyFrozen(input);
  if (typeof skeleton !== "object" || skeleton === null) return skeleton;
  const stack = [skeleton, input];
  while (stack.length > 0) {
    const here = stack.pop();
    const node = stack.pop();
    const from = typeof here === "object" && here !== null ? here : undefined;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child = node[i];
        if (child === SAME) node[i] = copyFrozen(from[i]);
        else if (typeof child === "object" && child !== null) stack.push(child, from?.[i]);
      }
    } else {
      for (const key in node) {
        const child = node[key];
        // An own "__proto__" member (JSON.parse makes one) is assigned as a
        // data property, as any other key.
        if (child === SAME) node[key] = copyFrozen(from[key]);
        else if (typeof child === "object" && child !== null) stack.push(child, from?.[key]);
      }
    }
    Object.freeze(node);
  }
  return skeleton;
}

/** A deep-frozen copy of plain JSON data, as JSON.parse(JSON.stringify(value)) would make it. */
function copyFrozen(value) {
  if (Array.isArray(value)) {
    const copy = [];
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      copy.push(typeof item === "object" && item !== null ? copyFrozen(item) : item === 0 ? 0 : item);
    }
    return Object.freeze(copy);
  }
  const copy = {};
  for (const key in value) {
    const member = value[key];
    const item = typeof member === "object" && member !== null ? copyFrozen(member) : member === 0 ? 0 : member;
    // `copy[key] = ...` would set the prototype.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: item, writable: true, enumerable: true, configurable: true });
    else copy[key] = item;
  }
  return Object.freeze(copy);
}

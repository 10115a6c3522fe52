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
import { MAX_RECURSION } from "./cache.mjs";

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
 * output's (up to `maxDepth`), and copies of any depth.
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

/**
 * A deep-frozen copy of plain JSON data, as JSON.parse(JSON.stringify(value))
 * would make it. Recursive to MAX_RECURSION levels, then over an explicit
 * stack (copyFrozenDeep): a plain input may be as deep as maxDepth allows.
 */
function copyFrozen(value, depth = 0) {
  if (depth > MAX_RECURSION) return copyFrozenDeep(value);
  if (Array.isArray(value)) {
    const copy = [];
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      copy.push(typeof item === "object" && item !== null ? copyFrozen(item, depth + 1) : item === 0 ? 0 : item);
    }
    return Object.freeze(copy);
  }
  const copy = {};
  for (const key in value) {
    const member = value[key];
    setMember(copy, key, typeof member === "object" && member !== null ? copyFrozen(member, depth + 1) : member === 0 ? 0 : member);
  }
  return Object.freeze(copy);
}

// `copy[key] = item`, except that an own "__proto__" stays data: assigned,
// it would set the prototype.
function setMember(copy, key, item) {
  if (key === "__proto__") Object.defineProperty(copy, key, { value: item, writable: true, enumerable: true, configurable: true });
  else copy[key] = item;
}

/**
 * `copyFrozen` over an explicit stack. Each container's copy is made empty
 * when its parent's copy is filled, and filled (then frozen) when its turn
 * comes; freezing a parent does not freeze the children it holds.
 */
function copyFrozenDeep(root) {
  const empty = (value) => (Array.isArray(value) ? [] : {});
  const top = empty(root);
  const stack = [root, top];
  while (stack.length > 0) {
    const copy = stack.pop();
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (typeof item === "object" && item !== null) {
          const child = empty(item);
          copy.push(child);
          stack.push(item, child);
        } else copy.push(item === 0 ? 0 : item);
      }
    } else {
      for (const key in value) {
        const member = value[key];
        if (typeof member === "object" && member !== null) {
          const child = empty(member);
          setMember(copy, key, child);
          stack.push(member, child);
        } else setMember(copy, key, member === 0 ? 0 : member);
      }
    }
    Object.freeze(copy);
  }
  return top;
}

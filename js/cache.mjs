// The result cache for the agent loop, where the same tool list is normalized
// on every turn. Two layers in front of the core, both exact:
//
// - Identity: a WeakMap from the caller's schema object to its entry. A hit
//   is verified by comparing the object, key by key and in order, with a
//   private parsed copy of the JSON text it had when it was cached. That walk
//   costs a fraction of JSON.stringify (bench/cache.mjs measures both), and it
//   is what makes a schema mutated in place after a call miss: JS has no
//   cheaper way to know that nothing inside an object changed, except that
//   a deep-frozen object never changes, so those skip the walk.
// - Content: equal JSON in new objects. A plain object is found by a
//   structural hash taken in the walk that checks it is plain JSON (each
//   string and key only by its length and end characters), and a candidate
//   counts only once the same check as an identity hit says the object
//   serializes to exactly its JSON: a collision costs a walk, never a wrong
//   answer. JSON text the caller passes is found by the text itself, in a
//   Map (V8 hashes the string natively and compares it whole on a match).
//   A content hit used to serialize the object to look its text up: that
//   JSON.stringify was most of the hit, and as much as the check and the
//   walk together.
//
// Results are deep-frozen and shared: a hit costs no copy, and no caller can
// change what another caller (or the cache) holds. Copying every hit instead
// (JSON.parse of the stored output) would cost more than the identity check
// itself. They are frozen with the cache off too, so a program behaves the
// same either way.
//
// Bounded: least recently used entries go first once `maxEntries` or
// `maxBytes` (JSON text of the cached inputs) is exceeded. An evicted entry is
// dead for the identity layer as well, so its memory is released even while
// the caller keeps the schema object.
import { stringify, toJsonText } from "./input.mjs";

// An entry holds up to about 8 bytes of heap per byte of input JSON (its
// text, the frozen result, and the identity layer's copy once a lookup made
// it; measured on the MCP corpus), so the default byte bound keeps the cache
// near 32 MiB at most.
const DEFAULTS = { maxEntries: 512, maxBytes: 4 * 1024 * 1024 };

let limits = { ...DEFAULTS };
let identity = new WeakMap(); // schema object -> Map(key -> entry)
let content = new Map(); // key -> Map(JSON text -> entry)
let shapes = new Map(); // key -> Map(structural hash -> [entry, ...])
let order = new Set(); // entries, least recently used first
let bytes = 0;
let stats = { identityHits: 0, contentHits: 0, misses: 0 };

/**
 * The result of `compute(text, source)` for `input` under `key` (the call and
 * its options), from the cache when an equal input was seen. `compute` gets
 * the canonical JSON text and, when that is `JSON.stringify(input)` of plain
 * JSON data, the input as `source` (else undefined); its result is frozen
 * before anyone sees it.
 * `toText` turns input that is not plain JSON data into that text (and
 * throws the shim's errors for input that cannot be).
 */
export function memoize(input, key, compute, toText = toJsonText) {
  const isObject = typeof input === "object" && input !== null;
  if (isObject && limits.maxEntries > 0) {
    const entry = identity.get(input)?.get(key);
    if (entry !== undefined && entry.live && (unchangeable(input) || sameJson(input, shapeFor(entry), 0))) {
      stats.identityHits++;
      touch(entry);
      return entry.result;
    }
  }
  // The fast path accepts only plain JSON data, for which JSON.stringify is
  // exact; everything else (schema libraries, toJSON, values JSON cannot
  // hold, very deep input) takes the shim's full path and its errors.
  const caching = limits.maxEntries > 0;
  const hash = !isObject ? NOT_PLAIN : caching ? plainHash(input, 0) : isPlainJson(input, 0) ? 0 : NOT_PLAIN;
  const plain = hash !== NOT_PLAIN;
  let entry = caching && plain ? byShape(key, hash, input) : undefined;
  if (entry !== undefined) {
    stats.contentHits++;
    touch(entry);
  } else {
    const text = typeof input === "string" ? input : plain ? stringify(input) : toText(input);
    const source = plain ? input : undefined;
    if (!caching) return deepFreeze(compute(text, source));
    entry = content.get(key)?.get(text);
    if (entry !== undefined) {
      stats.contentHits++;
      touch(entry);
      // Stored from JSON text: equal objects find it by shape from now on.
      if (plain && entry.hash === NOT_PLAIN && entry.live) indexShape(entry, hash);
    } else {
      stats.misses++;
      entry = insert(key, text, plain ? hash : NOT_PLAIN, deepFreeze(compute(text, source)));
    }
  }
  if (plain && entry.live) {
    let slots = identity.get(input);
    if (slots === undefined) identity.set(input, (slots = new Map()));
    slots.set(key, entry);
    if (Object.isFrozen(input) && !deepFrozen.has(input) && isDeepFrozen(input, 0)) deepFrozen.add(input);
  }
  return entry.result;
}

/**
 * The copy the identity check compares an input against, never handed out:
 * the entry's JSON text parsed, made on the first identity lookup rather
 * than when the entry is stored. Most inputs are seen once, and making it
 * for every miss (a second JSON.parse of the input and a walk) cost about
 * a quarter of an uncached call on the real MCP schemas.
 */
function shapeFor(entry) {
  return (entry.shape ??= shapeOf(JSON.parse(entry.text)));
}

// Inputs found deep-frozen, with data properties only, when first cached.
// Freezing cannot be undone, so their JSON can never change and a hit needs
// no check: the cost of an identity hit drops from a walk of the schema to a
// lookup. Our own results are deep-frozen, so feeding one back in qualifies;
// so does a tool list the application froze.
const deepFrozen = new WeakSet();

function unchangeable(input) {
  // A toJSON added to a built-in prototype later would change what
  // JSON.stringify makes of every object, frozen or not.
  return deepFrozen.has(input) && Object.prototype.toJSON === undefined && Array.prototype.toJSON === undefined;
}

function isDeepFrozen(value, depth) {
  if (typeof value !== "object" || value === null) return true;
  if (depth > MAX_RECURSION || !Object.isFrozen(value)) return false;
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key in descriptors) {
    // A getter can answer differently on every read, frozen or not.
    if (!("value" in descriptors[key]) || !isDeepFrozen(descriptors[key].value, depth + 1)) return false;
  }
  return true;
}

/** Sets the bounds; `maxEntries: 0` turns the cache off. Omitted fields keep their value. */
export function configureCache(options = {}) {
  const next = { ...limits };
  for (const name of ["maxEntries", "maxBytes"]) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer, got ${value}`);
    next[name] = value;
  }
  limits = next;
  evict();
}

/** Drops every entry and resets the counters. */
export function clearCache() {
  for (const entry of order) entry.live = false;
  identity = new WeakMap();
  content = new Map();
  shapes = new Map();
  order = new Set();
  bytes = 0;
  stats = { identityHits: 0, contentHits: 0, misses: 0 };
}

/** Counters since the last clear, and the current size. */
export function cacheStats() {
  return { ...stats, entries: order.size, bytes, ...limits };
}

/**
 * The live entry under `key` whose input had the structural hash `hash` and
 * whose JSON `input` serializes to exactly, if one of the first few with that
 * hash is. Schemas alike in all but their strings' insides (made to be, or
 * generated) share a hash; past SHAPE_CHECKS of them a lookup stops checking
 * and takes the text path, which finds every entry.
 */
function byShape(key, hash, input) {
  const candidates = shapes.get(key)?.get(hash);
  if (candidates === undefined) return undefined;
  const n = Math.min(candidates.length, SHAPE_CHECKS);
  for (let i = 0; i < n; i++) {
    if (sameJson(input, shapeFor(candidates[i]), 0)) return candidates[i];
  }
  return undefined;
}

const SHAPE_CHECKS = 4;

/** Stores a result; `hash` is its input's structural hash, or NOT_PLAIN for text or non-plain input. */
function insert(key, text, hash, result) {
  const entry = { key, text, hash, result, shape: undefined, live: true };
  if (text.length > limits.maxBytes) {
    entry.live = false; // too big to keep: served once, never stored
    return entry;
  }
  let byText = content.get(key);
  if (byText === undefined) content.set(key, (byText = new Map()));
  byText.set(text, entry);
  if (hash !== NOT_PLAIN) indexShape(entry, hash);
  order.add(entry);
  bytes += text.length;
  evict();
  return entry;
}

function indexShape(entry, hash) {
  entry.hash = hash;
  let byHash = shapes.get(entry.key);
  if (byHash === undefined) shapes.set(entry.key, (byHash = new Map()));
  const candidates = byHash.get(hash);
  if (candidates === undefined) byHash.set(hash, [entry]);
  else candidates.push(entry);
}

function touch(entry) {
  order.delete(entry);
  order.add(entry);
}

function evict() {
  for (const entry of order) {
    if (order.size <= limits.maxEntries && bytes <= limits.maxBytes) break;
    order.delete(entry);
    entry.live = false;
    bytes -= entry.text.length;
    const byText = content.get(entry.key);
    byText.delete(entry.text);
    if (byText.size === 0) content.delete(entry.key);
    if (entry.hash !== NOT_PLAIN) {
      const byHash = shapes.get(entry.key);
      const candidates = byHash.get(entry.hash);
      candidates.splice(candidates.indexOf(entry), 1);
      if (candidates.length === 0) byHash.delete(entry.hash);
      if (byHash.size === 0) shapes.delete(entry.key);
    }
  }
}

// Recursion this deep is safe on every runtime's default stack. The walks
// that must see all of an input (isPlainJson, plainHash) go on past it over
// an explicit stack (plainHashDeep); the identity checks give up there, which
// only costs a deeper input the identity hit.
export const MAX_RECURSION = 512;

// The identity layer's private copy of an input, laid out for the check
// below: an object's keys and values in two arrays, so a hit reads them by
// index instead of looking keys up in a second object.
class ObjectShape {
  constructor(keys, values) {
    this.keys = keys;
    this.values = values;
  }
}
class ArrayShape {
  constructor(items) {
    this.items = items;
  }
}

function shapeOf(value, depth = 0) {
  if (typeof value !== "object" || value === null) return value;
  // sameContainer answers false this deep before it reads a shape.
  if (depth > MAX_RECURSION) return DEEPER;
  if (Array.isArray(value)) return new ArrayShape(value.map((item) => shapeOf(item, depth + 1)));
  const keys = Object.keys(value);
  return new ObjectShape(keys, keys.map((k) => shapeOf(value[k], depth + 1)));
}

const DEEPER = new ArrayShape([]);

/**
 * True when `value` still serializes to exactly the JSON `shape` was made
 * from: same keys in the same order, equal primitives, and nothing that
 * JSON.stringify would drop or rewrite (undefined, functions, NaN, toJSON,
 * class instances). False means "not known equal", never an error.
 *
 * for-in rather than Object.keys: 2.5 times faster on the real MCP schemas
 * (0.19 against 0.47 ms for 261 of them), and equivalent for these objects: their prototype is
 * Object.prototype or null, so it yields the own keys in Object.keys order,
 * then any enumerable key someone added to Object.prototype, which makes the
 * counts differ and the check fail safe.
 */
function sameJson(value, shape, depth) {
  if (typeof shape !== "object" || shape === null) return value === shape; // JSON primitives only
  return sameContainer(value, shape, depth);
}

// `sameJson` for a shape that is an ObjectShape or ArrayShape. Primitive
// members are compared in the loop rather than by a call each (most members
// of a schema are strings, numbers and booleans).
function sameContainer(value, shape, depth) {
  if (typeof value !== "object" || value === null || depth > MAX_RECURSION) return false;
  const proto = Object.getPrototypeOf(value);
  if (shape instanceof ArrayShape) {
    const items = shape.items;
    if (proto !== Array.prototype || value.length !== items.length || typeof value.toJSON === "function") return false;
    for (let i = 0; i < items.length; i++) {
      const expected = items[i];
      if (typeof expected !== "object" || expected === null) {
        if (value[i] !== expected) return false;
      } else if (!sameContainer(value[i], expected, depth + 1)) return false;
    }
    return true;
  }
  if ((proto !== Object.prototype && proto !== null) || typeof value.toJSON === "function") return false;
  const keys = shape.keys;
  const values = shape.values;
  let i = 0;
  for (const key in value) {
    if (key !== keys[i]) return false;
    const expected = values[i];
    if (typeof expected !== "object" || expected === null) {
      if (value[key] !== expected) return false;
    } else if (!sameContainer(value[key], expected, depth + 1)) return false;
    i++;
  }
  return i === keys.length;
}

/** True when `value` is JSON data that JSON.stringify renders exactly. */
function isPlainJson(value, depth) {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      if (depth > MAX_RECURSION) return plainHashDeep(value) !== NOT_PLAIN;
      if (!isPlainContainer(value)) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      // for-in: faster than Object.keys, and a key it adds from a prototype
      // can only turn the answer to false, which takes the full path.
      for (const key in value) if (!isPlainJson(value[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

/** `plainHash`'s answer for a value that is not plain JSON data. */
const NOT_PLAIN = -1;

/**
 * `isPlainJson` that also hashes the value's structure: NOT_PLAIN where
 * isPlainJson is false, else an unsigned 32-bit hash that equal JSON always
 * gets (keys in their order; -0 as 0, as JSON.stringify writes it). Strings
 * and keys count by their length and first and last characters, so the walk
 * costs about what isPlainJson does; `byShape` confirms every match.
 */
function plainHash(value, depth) {
  switch (typeof value) {
    case "string":
      return hashString(value, 0x5bd1e995);
    case "boolean":
      return value ? 0x2545f491 : 0x1b873593;
    case "number":
      if (!Number.isFinite(value)) return NOT_PLAIN;
      return value === 0 ? 0x1f : (value | 0) === value ? mix(0x27d4eb2f, value) : mix(0x165667b1, Math.floor(value * 65536) | 0);
    case "object": {
      if (value === null) return 0x68e31da4;
      if (depth > MAX_RECURSION) return plainHashDeep(value);
      if (!isPlainContainer(value)) return NOT_PLAIN;
      if (Array.isArray(value)) {
        let h = mix(ARRAY_SEED, value.length);
        for (let i = 0; i < value.length; i++) {
          const item = plainHash(value[i], depth + 1);
          if (item === NOT_PLAIN) return NOT_PLAIN;
          h = mix(h, item);
        }
        return h;
      }
      let h = OBJECT_SEED;
      for (const key in value) {
        const member = plainHash(value[key], depth + 1);
        if (member === NOT_PLAIN) return NOT_PLAIN;
        h = foldMember(h, key, member);
      }
      return h;
    }
    default:
      return NOT_PLAIN;
  }
}

/**
 * `plainHash` of a container over an explicit stack, for what lies deeper
 * than MAX_RECURSION: the same hash, so equal JSON still meets however deep
 * it is. A container met again on the current path is a cycle, not JSON.
 */
function plainHashDeep(root) {
  const frames = []; // { value, keys (null for an array), i: next member, h: hash so far }
  const onPath = new Set();
  let value = root;
  for (;;) {
    let h; // the hash of `value` once known
    if (typeof value === "object" && value !== null) {
      if (!isPlainContainer(value) || onPath.has(value)) return NOT_PLAIN;
      onPath.add(value);
      if (Array.isArray(value)) frames.push({ value, keys: null, i: 0, h: mix(ARRAY_SEED, value.length) });
      else {
        const keys = [];
        for (const key in value) keys.push(key); // plainHash's order
        frames.push({ value, keys, i: 0, h: OBJECT_SEED });
      }
    } else if ((h = plainHash(value, 0)) === NOT_PLAIN) return NOT_PLAIN;
    // Fold finished values into their containers until one has a member left.
    for (;;) {
      const top = frames[frames.length - 1];
      if (h !== undefined) {
        if (top === undefined) return h;
        top.h = top.keys === null ? mix(top.h, h) : foldMember(top.h, top.keys[top.i], h);
        top.i++;
      }
      if (top.keys === null ? top.i < top.value.length : top.i < top.keys.length) {
        value = top.keys === null ? top.value[top.i] : top.value[top.keys[top.i]];
        break;
      }
      frames.pop();
      onPath.delete(top.value);
      h = top.h;
    }
  }
}

// How a container's hash starts and takes in an object's member, one
// definition for plainHash and plainHashDeep, whose hashes must agree.
const ARRAY_SEED = 0x3c6ef372;
const OBJECT_SEED = 0x243f6a88;

function foldMember(h, key, member) {
  return mix(mix(h, hashString(key, 0x85ebca6b)), member);
}

function hashString(s, seed) {
  const n = s.length;
  return n === 0 ? seed : mix(mix(seed ^ n, s.charCodeAt(0)), s.charCodeAt(n - 1));
}

/** Two 32-bit values into one, unsigned (never NOT_PLAIN). */
function mix(h, x) {
  return (Math.imul(h ^ x, 0x9e3779b1) + 0x7f4a7c15) >>> 0;
}

// Arrays and objects straight from a literal or JSON.parse: class instances,
// Dates, library schemas and anything with its own toJSON go the full path.
function isPlainContainer(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  return typeof value.toJSON !== "function";
}

/**
 * Freezes a JSON value and everything in it; iterative, so any depth is fine.
 * Each object is frozen as it is found, so one met again (shared, or a cycle)
 * is passed over. for-in rather than Object.keys: half the time on the real
 * MCP schemas' results, and the same keys while no enumerable property was
 * added to Object.prototype or Array.prototype (checked first: freezing a
 * value found there would change a global).
 */
function deepFreeze(root) {
  if (typeof root !== "object" || root === null || Object.isFrozen(root)) return root;
  if (prototypesEnumerate()) return deepFreezeOwn(root);
  Object.freeze(root);
  const stack = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child = value[i];
        if (typeof child === "object" && child !== null && !Object.isFrozen(child)) stack.push(Object.freeze(child));
      }
    } else {
      for (const key in value) {
        const child = value[key];
        if (typeof child === "object" && child !== null && !Object.isFrozen(child)) stack.push(Object.freeze(child));
      }
    }
  }
  return root;
}

// The same, by own keys only.
function deepFreezeOwn(root) {
  const stack = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null || Object.isFrozen(value)) continue;
    Object.freeze(value);
    for (const key of Object.keys(value)) stack.push(value[key]);
  }
  return root;
}

function prototypesEnumerate() {
  for (const _ in Object.prototype) return true;
  for (const _ in Array.prototype) return true;
  return false;
}

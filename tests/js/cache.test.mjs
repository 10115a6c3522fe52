// The result cache (js/cache.mjs): a cached result is only ever served for
// input whose JSON is identical to what produced it, whatever the caller did
// to its objects in between, and no caller can change what another receives.
// Counters, not timings, show which layer answered.
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { throwsCode, ts } from "./helpers.mjs";

const schema = () => ({
  type: "object",
  properties: {
    // A format Gemini refuses: google spills it, so spill options differ there.
    name: { type: "string", minLength: 1, format: "email" },
    mode: { anyOf: [{ const: "a" }, { const: "b" }] },
    tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" } },
  },
  required: ["name"],
});

/**
 * What the call gives with the cache off: the reference every cached answer
 * must equal. Turning the cache off empties it, so tests call this last.
 */
function uncached(input, target, options) {
  const saved = ts.cacheStats();
  ts.configureCache({ maxEntries: 0 });
  try {
    return ts.normalize(input, target, options);
  } finally {
    ts.configureCache({ maxEntries: saved.maxEntries });
  }
}

function deepFreeze(value) {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) {
      const d = Object.getOwnPropertyDescriptor(value, key);
      if ("value" in d) deepFreeze(d.value);
    }
    Object.freeze(value);
  }
  return value;
}

function counters() {
  const { identityHits, contentHits, misses } = ts.cacheStats();
  return { identityHits, contentHits, misses };
}

beforeEach(() => {
  ts.configureCache({ maxEntries: 512, maxBytes: 4 * 1024 * 1024 });
  ts.clearCache();
});
afterEach(() => ts.clearCache());

describe("identity and content hits", () => {
  test("the same object again is answered by the identity layer, with the same result", () => {
    const s = schema();
    const first = ts.normalize(s, "google");
    const second = ts.normalize(s, "google");
    assert.equal(second, first);
    assert.deepEqual(counters(), { identityHits: 1, contentHits: 0, misses: 1 });
  });

  test("equal content in a new object is answered by the content layer", () => {
    const first = ts.normalize(schema(), "google");
    const second = ts.normalize(schema(), "google");
    assert.deepEqual(second, first);
    assert.deepEqual(counters(), { identityHits: 0, contentHits: 1, misses: 1 });
    // The new object is now known by identity too.
    const s = schema();
    ts.normalize(s, "google");
    ts.normalize(s, "google");
    assert.equal(ts.cacheStats().identityHits, 1);
  });

  test("JSON text and an object with that text share one entry", () => {
    const fromObject = ts.normalize(schema(), "mcp");
    const fromText = ts.normalize(JSON.stringify(schema()), "mcp");
    assert.equal(fromText, fromObject);
    assert.deepEqual(counters(), { identityHits: 0, contentHits: 1, misses: 1 });
  });

  test("objects whose strings differ only inside share no entry, though their structure hashes alike", () => {
    // The content layer finds objects by a hash of their structure that reads
    // a string by its length and its ends: these two collide, and the check
    // behind the hash tells them apart.
    const a = { type: "object", properties: { q: { type: "string", description: "abc" } } };
    const b = { type: "object", properties: { q: { type: "string", description: "axc" } } };
    const first = ts.normalize(a, "mcp");
    const second = ts.normalize(b, "mcp");
    assert.equal(second.schema.properties.q.description, "axc");
    assert.notEqual(first, second);
    assert.deepEqual(counters(), { identityHits: 0, contentHits: 0, misses: 2 });
    // Each finds its own entry again by content.
    assert.equal(ts.normalize(structuredClone(a), "mcp"), first);
    assert.equal(ts.normalize(structuredClone(b), "mcp"), second);
    assert.deepEqual(counters(), { identityHits: 0, contentHits: 2, misses: 2 });
    assert.deepEqual(second, uncached(b, "mcp"));
  });

  test("many objects alike in all but their strings' insides are each found, past the shape checks too", () => {
    const made = (i) => ({ type: "object", description: `a${String(i).padStart(3, "0")}z` });
    const results = Array.from({ length: 12 }, (_, i) => ts.normalize(made(i), "mcp"));
    for (let i = 0; i < 12; i++) assert.equal(ts.normalize(made(i), "mcp"), results[i], `${i}`);
    assert.deepEqual(counters(), { identityHits: 0, contentHits: 12, misses: 12 });
  });

  test("-0 and 0 are one JSON text, so one entry; 1 and 1.5 are not", () => {
    const zero = ts.normalize({ type: "number", minimum: 0 }, "mcp");
    assert.equal(ts.normalize({ type: "number", minimum: -0 }, "mcp"), zero);
    assert.notEqual(ts.normalize({ type: "number", minimum: 1.5 }, "mcp"), ts.normalize({ type: "number", minimum: 1 }, "mcp"));
    assert.deepEqual(counters(), { identityHits: 0, contentHits: 1, misses: 3 });
  });

  test("an entry stored from JSON text is found by equal objects after the first", () => {
    const fromText = ts.normalize(JSON.stringify(schema()), "mcp");
    assert.equal(ts.normalize(schema(), "mcp"), fromText);
    assert.equal(ts.normalize(schema(), "mcp"), fromText);
    assert.deepEqual(counters(), { identityHits: 0, contentHits: 2, misses: 1 });
  });

  test("the schema-only functions share entries with each other, not with normalize", () => {
    // They cache the payload without the report, under keys of their own.
    const s = schema();
    const google = ts.normalizeSchemaForGoogle(s);
    assert.equal(ts.normalizeSchema(s, { target: "google" }), google);
    assert.deepEqual(ts.normalize(s, "google").schema, google);
    assert.deepEqual(ts.tryEnforceStrictSchema(s), ts.tryEnforceStrictSchema(s));
    assert.deepEqual(counters(), { identityHits: 2, contentHits: 0, misses: 3 });
  });
});

describe("never stale", () => {
  // Each edit changes the schema's JSON; the cached result must not come back.
  const edits = {
    "a nested value": (s) => (s.properties.name.minLength = 3),
    "an added key": (s) => (s.properties.name.description = "who"),
    "a removed key": (s) => delete s.properties.tags,
    "key order (order is data)": (s) => {
      const { properties, required } = s;
      delete s.properties;
      delete s.required;
      Object.assign(s, { required, properties });
    },
    "an array element": (s) => (s.properties.mode.anyOf[1].const = "c"),
    "an array push": (s) => s.required.push("tags"),
    "a value's type": (s) => (s.properties.tags.items = { type: "integer" }),
    "a replaced subtree": (s) => (s.properties = { other: { type: "boolean" } }),
    "the number 1 becoming the string 1": (s) => (s.properties.name.minLength = "1"),
  };
  for (const [what, edit] of Object.entries(edits)) {
    test(`a schema mutated in place (${what}) is normalized again`, () => {
      const s = schema();
      const before = ts.normalize(s, "google");
      edit(s);
      const after = ts.normalize(s, "google");
      // Compared as text: deepEqual ignores key order, which is data here.
      assert.notEqual(JSON.stringify(after.schema), JSON.stringify(before.schema));
      assert.deepEqual(counters(), { identityHits: 0, contentHits: 0, misses: 2 });
      // The unedited content still finds the first entry.
      assert.equal(ts.normalize(schema(), "google"), before);
      assert.equal(JSON.stringify(after), JSON.stringify(uncached(s, "google")));
    });
  }

  // JSON.stringify would hide these edits (it drops or rewrites the value),
  // so a cache keyed by the text alone would answer; the uncached call throws.
  const invalid = {
    "an undefined value": [(s) => (s.properties.name.default = undefined), "invalid-value"],
    "a function": [(s) => (s.properties.name.default = () => 1), "invalid-value"],
    "NaN where null was": [(s) => (s.properties.name.default = NaN), "invalid-value"],
    "a BigInt": [(s) => (s.properties.name.minLength = 1n), "invalid-value"],
    "a cycle": [(s) => (s.properties.self = s), "cyclic-input"],
  };
  for (const [what, [edit, code]] of Object.entries(invalid)) {
    test(`a schema mutated in place to hold ${what} fails as it would uncached`, () => {
      const s = schema();
      s.properties.name.default = null;
      ts.normalize(s, "google");
      ts.normalize(JSON.parse(JSON.stringify(s)), "google");
      edit(s);
      throwsCode(assert, () => ts.normalize(s, "google"), code);
      // The cache off reads plain JSON by its own walk (no structural hash): the same answer.
      ts.configureCache({ maxEntries: 0 });
      throwsCode(assert, () => ts.normalize(s, "google"), code);
    });
  }

  test("a Date (toJSON) in place of its ISO string is converted as uncached", () => {
    const when = new Date(0);
    const s = { ...schema(), default: when.toISOString() };
    const first = ts.normalize(s, "mcp");
    s.default = when;
    assert.deepEqual(ts.normalize(s, "mcp"), first);
    assert.deepEqual(ts.normalize(s, "mcp"), uncached(s, "mcp"));
  });

  test("a deep-frozen schema is an identity hit without a check; one frozen only at the top is still checked", () => {
    const frozen = deepFreeze(schema());
    const first = ts.normalize(frozen, "google");
    assert.equal(ts.normalize(frozen, "google"), first);
    assert.equal(ts.cacheStats().identityHits, 1);

    const shallow = Object.freeze(schema());
    const before = ts.normalize(shallow, "google");
    shallow.properties.name.minLength = 7; // the nested objects are not frozen
    const after = ts.normalize(shallow, "google");
    assert.notDeepEqual(after.schema, before.schema);
    assert.deepEqual(after, uncached(shallow, "google"));
  });

  test("a frozen schema with a getter is still checked on every hit", () => {
    let type = "string";
    const s = schema();
    Object.defineProperty(s.properties.name, "type", { get: () => type, enumerable: true });
    deepFreeze(s);
    const before = ts.normalize(s, "google");
    type = "integer";
    const after = ts.normalize(s, "google");
    assert.notDeepEqual(after.schema, before.schema);
    assert.deepEqual(after, uncached(s, "google"));
  });

  test("a shared subtree mutated through another parent is seen", () => {
    const shared = { type: "string" };
    const s = { type: "object", properties: { a: shared, b: shared } };
    const before = ts.normalize(s, "google");
    shared.maxLength = 5;
    const after = ts.normalize(s, "google");
    assert.notDeepEqual(after, before);
    assert.deepEqual(after, uncached(s, "google"));
  });

  test("errors are not cached", () => {
    const deep = { type: "object" };
    let node = deep;
    for (let i = 0; i < 300; i++) node = node.properties = { type: "object" };
    throwsCode(assert, () => ts.normalize(deep, "google"), "too-deep");
    throwsCode(assert, () => ts.normalize(deep, "google"), "too-deep");
    assert.equal(ts.cacheStats().entries, 0);
  });
});

describe("keys: target and options", () => {
  test("different targets and different options never share a result", () => {
    const s = schema();
    const google = ts.normalize(s, "google");
    const mcp = ts.normalize(s, "mcp");
    const paren = ts.normalize(s, "google", { spill: "paren" });
    const none = ts.normalize(s, "google", { spill: "none" });
    assert.deepEqual(google, uncached(s, "google"));
    assert.deepEqual(mcp, uncached(s, "mcp"));
    assert.deepEqual(paren, uncached(s, "google", { spill: "paren" }));
    assert.deepEqual(none, uncached(s, "google", { spill: "none" }));
    assert.notDeepEqual(paren.schema, google.schema);
    assert.notDeepEqual(none.schema, paren.schema);
    assert.equal(ts.cacheStats().misses, 4);
  });

  test("sanitize-only strict and full strict are separate entries", () => {
    const s = schema();
    assert.deepEqual(ts.sanitizeSchemaForStrictMode(s), uncached(s, "openai-strict", { strictStage: "sanitize" }).schema);
    assert.deepEqual(ts.tryEnforceStrictSchema(s).schema, uncached(s, "openai-strict").schema);
    assert.equal(ts.cacheStats().misses, 2);
  });
});

  test("no options, null and {} are one key; options that serialize to more are not", () => {
    const s = schema();
    const plain = ts.normalize(s, "google");
    assert.equal(ts.normalize(s, "google", {}), plain);
    assert.equal(ts.normalize(s, "google", null), plain);
    assert.equal(ts.cacheStats().identityHits, 2);
    // A toJSON JSON.stringify would call, even where no key enumerates it.
    const hidden = Object.defineProperty({}, "toJSON", { value: () => ({ spill: "paren" }) });
    assert.deepEqual(ts.normalize(s, "google", hidden), uncached(s, "google", { spill: "paren" }));
    assert.notDeepEqual(ts.normalize(s, "google", hidden).schema, plain.schema);
  });

describe("results are not shared mutable state", () => {
  test("a result cannot be changed, so the next caller gets it intact", () => {
    const s = schema();
    const result = ts.normalize(s, "google");
    const pristine = structuredClone(result);
    assert.ok(Object.isFrozen(result) && Object.isFrozen(result.schema) && Object.isFrozen(result.report));
    assert.throws(() => {
      result.schema.properties.name.type = "number";
    }, TypeError);
    assert.throws(() => result.report.diagnostics.push({}), TypeError);
    assert.deepEqual(ts.normalize(s, "google"), pristine);
    assert.deepEqual(ts.normalize(schema(), "google"), pristine);
  });

  test("results are frozen with the cache off too, so behaviour does not depend on it", () => {
    ts.configureCache({ maxEntries: 0 });
    const result = ts.normalize(schema(), "google");
    assert.ok(Object.isFrozen(result.schema.properties));
    assert.equal(ts.cacheStats().entries, 0);
  });

  test("the input is never frozen or changed", () => {
    const s = schema();
    ts.normalize(s, "google");
    ts.normalize(s, "google");
    assert.ok(!Object.isFrozen(s) && !Object.isFrozen(s.properties.name));
    assert.deepEqual(s, schema());
  });

  test("every object of a result is frozen, to the leaves, and nothing a prototype holds", () => {
    ts.configureCache({ maxEntries: 0 });
    const unfrozen = (v, at) => {
      if (typeof v !== "object" || v === null) return [];
      const own = Object.isFrozen(v) ? [] : [at];
      return own.concat(...Object.keys(v).map((k) => unfrozen(v[k], `${at}/${k}`)));
    };
    const deep = { type: "object", properties: { a: { anyOf: [{ type: "array", items: { enum: [[1], { b: [2] }] } }, { type: "null" }] } } };
    assert.deepEqual(unfrozen(ts.normalize(deep, "google"), ""), []);
    // An enumerable object-valued property on Object.prototype (a polluted
    // environment) shows up in for-in; freezing results must not reach it.
    const planted = { x: 1 };
    Object.prototype.plantedForTest = planted;
    try {
      const result = ts.normalize(structuredClone(deep), "openai");
      assert.deepEqual(unfrozen(result, ""), []);
      assert.ok(!Object.isFrozen(planted));
    } finally {
      delete Object.prototype.plantedForTest;
    }
  });

  test("a copy of a result is editable", () => {
    const copy = structuredClone(ts.normalizeSchemaForGoogle(schema()));
    copy.title = "edited";
    assert.equal(copy.title, "edited");
  });
});

describe("normalizeTools", () => {
  const list = () => [
    { name: "find", inputSchema: schema() },
    { name: "ping", inputSchema: { type: "object", properties: {} } },
  ];

  test("the same tool list again is an identity hit; a tool's schema edited in place is not", () => {
    const tools = list();
    const first = ts.normalizeTools(tools, { target: "google" });
    // A hit shares the frozen schemas and telemetry; the list and tools are each call's own (see tools.test.mjs).
    const again = ts.normalizeTools(tools, { target: "google" });
    assert.equal(again.tools[0].inputSchema, first.tools[0].inputSchema);
    assert.equal(again.telemetry, first.telemetry);
    tools[0].inputSchema.properties.name.maxLength = 9;
    const edited = ts.normalizeTools(tools, { target: "google" });
    assert.notDeepEqual(edited.tools[0].inputSchema, first.tools[0].inputSchema);
    assert.deepEqual(counters(), { identityHits: 1, contentHits: 0, misses: 2 });
    assert.equal(JSON.stringify(edited), JSON.stringify(ts.normalizeTools(structuredClone(tools), { target: "google" })));
  });

  test("a list and a lone schema never share an entry, and neither do two targets", () => {
    const tools = list();
    ts.normalizeTools(tools, { target: "google" });
    ts.normalizeTools(tools, { target: "mcp" });
    // The same text as a lone schema is an array, which is no schema.
    throwsCode(assert, () => ts.normalize(tools, "google"), "not-a-schema");
    assert.equal(ts.cacheStats().entries, 2);
  });
});

describe("bounds", () => {
  test("the least recently used entry goes first, and is then dead for identity hits too", () => {
    ts.configureCache({ maxEntries: 2 });
    const [a, b, c] = [schema(), { type: "object" }, { type: "string" }];
    ts.normalize(a, "mcp");
    ts.normalize(b, "mcp");
    ts.normalize(a, "mcp"); // a is now the most recent
    ts.normalize(c, "mcp"); // evicts b
    assert.equal(ts.cacheStats().entries, 2);
    ts.normalize(b, "mcp");
    assert.deepEqual(counters(), { identityHits: 1, contentHits: 0, misses: 4 });
    // Dead for content hits too: an equal new object is a miss.
    ts.normalize(schema(), "mcp"); // a went when b came back (and c goes now)
    assert.deepEqual(counters(), { identityHits: 1, contentHits: 0, misses: 5 });
    ts.normalize({ type: "object" }, "mcp"); // b is still there
    assert.deepEqual(counters(), { identityHits: 1, contentHits: 1, misses: 5 });
  });

  test("maxBytes bounds the cached input text; an input over it is served but not kept", () => {
    ts.configureCache({ maxBytes: 60 });
    ts.normalize({ type: "object", description: "x".repeat(100) }, "mcp");
    assert.equal(ts.cacheStats().entries, 0);
    ts.normalize({ type: "object" }, "mcp");
    assert.equal(ts.cacheStats().entries, 1);
    assert.ok(ts.cacheStats().bytes <= 60);
  });

  test("configureCache rejects nonsense and keeps its bounds", () => {
    assert.throws(() => ts.configureCache({ maxEntries: -1 }), TypeError);
    assert.throws(() => ts.configureCache({ maxBytes: 1.5 }), TypeError);
    assert.equal(ts.cacheStats().maxEntries, 512);
  });

  test("clearCache drops every entry, identity included", () => {
    const s = schema();
    ts.normalize(s, "mcp");
    ts.clearCache();
    ts.normalize(s, "mcp");
    assert.deepEqual(counters(), { identityHits: 0, contentHits: 0, misses: 1 });
  });
});
